/* tui.h — the interactive explorer and the guided lesson (--lesson): eight views of the one
 * analysis, drawn with render/term, and twelve lesson steps drawn with the views' own code.
 *
 * A view is one file that owns its state (view.h); the host (loop.c) runs the keys and the
 * frame, the chrome (chrome.c) draws tabs, caption, hint and status lines and the help box. */
#ifndef TF_TUI_H
#define TF_TUI_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis.h"
#include "core/figreq.h"
#include "learn/order.h"

typedef struct {
    tf_config cfg;          /* the configuration the analysis was run with */
    const char *text;       /* the sentence */
    size_t text_len;
    bool zh;                /* --lang zh (Chinese), else English */
    bool lesson;            /* --lesson: the guided lesson instead of the explorer */
    bool big;               /* --big: the lesson's projector presentation */
    bool extended;          /* --extended: the lesson's steps beyond the article */
    bool no_color;          /* --no-color */
    fig_export_fn export;   /* what the e key draws a figure with */
    fig_raster_fn raster;   /* what the g key draws a figure inside the terminal with */
    order_request order;    /* what view 10 trains */
} tui_request;

/* tui_run's status when no terminal could be started: the caller prints the text report. */
#define TUI_NO_TERMINAL (-1)

/* True when the interactive view can run: stdin and stdout are terminals and TERM is usable.
 * When only TERM is the problem, says so in one sentence on stderr. */
bool tui_wanted(void);
/* Run the explorer (or the lesson) on analysis a, which is replaced in place when the sentence
 * or the sizes change. Returns the exit status, or TUI_NO_TERMINAL after saying why the terminal
 * could not be started. */
int tui_run(const tui_request *r, tf_analysis *a);

#endif
