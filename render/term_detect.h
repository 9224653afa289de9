/* term_detect.h — which pictures a terminal can show, asked of the terminal itself.
 *
 * Conservative: a picture protocol is chosen only when the terminal answers for it within a
 * short time; anything unsure is TIMG_NONE, and the views keep their cells. In order:
 *   1. TFVIZ_GRAPHICS=kitty|sixel|iterm|symbols|none forces a mode (the cell size is still asked
 *      for a pixel mode);
 *   2. no terminal on the descriptors, TERM unset or "dumb", or tmux / GNU screen (TMUX or STY
 *      set, TERM screen* or tmux*): none — they pass no pictures through unless configured to;
 *   3. the queries, written at once and answered in order by any VT100-style terminal:
 *        ESC _ G i=31,s=1,v=1,a=q,t=d,f=24;AAAA ESC \   kitty graphics: "i=31;OK" if it can
 *        ESC [ > 0 q                                      XTVERSION: the terminal's name
 *        ESC [ 16 t                                       XTWINOPS: a cell's size in pixels
 *        ESC [ c                                          primary device attributes (DA1)
 *      Every terminal answers DA1, and answers in order, so its reply ends the wait early; no
 *      reply within the timeout means none. Then kitty if it said OK; iTerm2 if XTVERSION or
 *      the environment (TERM_PROGRAM=iTerm.app, LC_TERMINAL=iTerm2) names iTerm2; sixel if DA1
 *      lists attribute 4 and the cell size is known (else a sixel picture could spill over the
 *      rows below); none otherwise.
 * The cell size comes from the window size in pixels (TIOCGWINSZ) where the terminal fills it,
 * else from the XTWINOPS reply. COLORTERM=truecolor or 24bit chooses 24-bit symbols.
 *
 * A reply that arrives after the timeout reaches whoever reads the terminal next (as unknown
 * escape sequences); the timeout is the price of not waiting forever on a silent terminal. */
#ifndef TF_TERM_DETECT_H
#define TF_TERM_DETECT_H

#include <stdbool.h>

#include "status.h"
#include "term_image.h"

#define TERM_DETECT_TIMEOUT_MS 250 /* long enough for ssh across a country, short at start-up */
/* How long a front-end reads away late replies (term_detect_drain). */
#define TERM_DETECT_DRAIN_MS 1000

/* Why the choice was made, for a front-end that explains it in its own words. */
typedef enum {
    TDET_ANSWERED = 0, /* the terminal's replies chose the mode (kitty, iTerm2, sixel) */
    TDET_FORCED,       /* TFVIZ_GRAPHICS chose it */
    TDET_BAD_FORCE,    /* TFVIZ_GRAPHICS holds another word */
    TDET_NOT_TTY,      /* no terminal on the descriptors */
    TDET_DUMB,         /* TERM unset or "dumb" */
    TDET_MULTIPLEXER,  /* tmux or GNU screen */
    TDET_NO_MODES,     /* the terminal's modes could not be read */
    TDET_NO_WRITE,     /* the queries could not be written */
    TDET_SILENT,       /* no reply in time */
    TDET_NO_CELL_SIZE, /* sixel, but the cell size in pixels is unknown */
    TDET_NO_PICTURES,  /* it answered, and shows no pictures */
} term_detect_reason;

typedef struct {
    timg_caps caps;   /* the choice */
    term_detect_reason reason;
    bool forced;      /* TFVIZ_GRAPHICS made it */
    bool asked;       /* the queries were written */
    bool answered;    /* the terminal's DA1 reply came back in time */
    bool kitty;       /* it said OK to kitty's graphics query */
    bool sixel;       /* DA1 lists sixel graphics (4) */
    char version[64]; /* XTVERSION's reply ("" without one), control characters removed */
    const char *why;  /* one English sentence on the choice, for diagnostics */
} term_detect_result;

/* Decide which pictures the terminal on in_fd (answers) and out_fd (queries) takes. envp: the
 * environment as "NAME=value" strings, NULL-terminated (environ, or a test's own). The queries
 * are written only when both descriptors are terminals and nothing above ruled them out; in_fd
 * is switched to non-canonical, no-echo input for the wait and restored after. Returns TF_OK,
 * or TF_ERR_RANGE when TFVIZ_GRAPHICS holds another word (r->caps.mode is then TIMG_NONE and
 * r->why says which words work); TF_ERR_IO when a query could not be written. */
tf_status term_graphics_detect(const char *const *envp, int in_fd, int out_fd, int timeout_ms,
                               term_detect_result *r);

/* The decision alone, from what the terminal answered (bytes, len): the part of
 * term_graphics_detect that needs no terminal. answered and cell sizes are read from the
 * replies; cell_w/cell_h > 0 (from TIOCGWINSZ) take precedence. */
void term_graphics_decide(const char *const *envp, const char *bytes, int len, int cell_w,
                          int cell_h, term_detect_result *r);

/* After a detection whose replies did not all come in time (asked and not answered), the
 * terminal may still answer: read its replies away from in_fd for at most timeout_ms, until the
 * device attributes' reply ends, so that they are neither taken for typed keys nor left for the
 * shell. The terminal's modes are as they were afterwards. */
void term_detect_drain(int in_fd, int timeout_ms);

#endif
