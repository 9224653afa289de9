/* tui.h — the interactive explorer: an event loop over a key table, one file per view.
 *
 * Actions and view key handlers return reaction flags (TUI_*) that say what must happen
 * next: redraw, re-run the analysis after a configuration change, or quit. */
#ifndef TF_TUI_H
#define TF_TUI_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis.h"
#include "cli.h"
#include "term.h"
#include "tui_text.h"

enum {
    TUI_IGNORED = 0,     /* the key meant nothing here */
    TUI_REDRAW = 1 << 0, /* draw the screen again */
    TUI_RERUN = 1 << 1,  /* the configuration or sentence changed: run the analysis again */
    TUI_QUIT = 1 << 2,
};

typedef struct tui tui;

/* The interface every view implements. Coordinates are those of the content area. */
typedef struct {
    const char *figure;  /* export_figure() name of this view, NULL: none */
    txt_id tab;          /* short name on the tab bar */
    txt_id caption;      /* one or two sentences: the claim this view makes visible */
    txt_id keys;         /* the view's own keys, for the help overlay and the hint line */
    unsigned needs;      /* ANALYSIS_* parts the view reads (computed on first visit) */
    void (*draw)(tui *t, WINDOW *w, int y, int x, int rows, int cols);
    int (*key)(tui *t, int ch);               /* ch: a character or a KEY_* code */
    int (*click)(tui *t, int y, int x);       /* mouse press at content coordinates */
    int (*tick)(tui *t); /* NULL, or called every frame while no key comes (animation, training) */
} tui_view;

#define TUI_VIEWS 8

struct tui {
    tf_cli *cli;
    tf_config cfg;       /* the configuration the analysis was (or will be) run with */
    tf_config cfg_shown; /* the configuration of the analysis on screen (kept when a run fails) */
    char *text;          /* the sentence (owned) */
    size_t text_len;
    tf_analysis *a;      /* the analysis of text under cfg */
    unsigned generation; /* counts analysis runs, for view caches */
    int view;
    bool help;
    bool utf8;
    char msg[320];       /* the message line: export result, errors, notices */
    char cursor[160];    /* "the value under the cursor" for the status line */
    int area_y, area_x, area_rows, area_cols; /* the content area of the last frame */

    /* view state */
    size_t tok;                 /* selected token (views 1, 5, 7) */
    double onehot_diff;         /* view 1: onehot . W_E vs the row, -1: not checked yet */
    unsigned onehot_gen;
    long pe_pos, pe_dim;        /* view 2: the cursor (position index from 0, dimension) */
    long pe_row0, pe_col0;      /* view 2: the first position and dimension shown */
    long pe_zr, pe_zc;          /* view 2: positions per pixel row, dimensions per column */
    int fq_pair;                /* view 3: the pair i whose waves are plotted */
    long fq_pos;                /* view 3: the position of the clocks */
    bool animate;               /* view 3: the clocks advance by themselves */
    long rel_pos;               /* view 4: pos of the M_k demonstration */
    double *gram;               /* view 4: (gram_n, gram_n) PE . PE^T, cached */
    long gram_n;
    unsigned gram_gen;
    int order_mode;             /* view 6: the mode whose attention matrices are large */
    char *compare;              /* view 6: order B as typed with c (owned; cfg.compare points
                                 * here), NULL: --compare's text or the words reversed */
    int rope_pair;              /* view 7: the pair i on the plane */
    struct tui_learn *learn;    /* view 8: the training in progress (view_learned.c) */

    /* the guided lesson (lesson.c) */
    bool lesson;                /* --lesson: steps instead of tabs */
    bool big;                   /* --big: bold, wide spacing, short lines (projectors) */
    int step;                   /* the step shown, 0..LESSON_STEPS-1 */
};

/* True when the interactive view can run: stdin and stdout are terminals and TERM is usable.
 * When only TERM is the problem, says so in one sentence on stderr. */
bool tui_wanted(void);
/* Run the explorer on analysis a (replaced in place when the sentence or sizes change).
 * Returns the exit status. */
int tui_run(tf_cli *cli, tf_analysis *a);

extern const tui_view view_embed, view_pe, view_freq, view_relative, view_input, view_order,
    view_rope, view_learned;

/* Free view 8's training state (and the vectors it handed to the analysis). */
void view_learned_free(tui *t);
/* The vectors view 8 has trained so far (a live view, valid until the next key or tick);
 * false while nothing is trained yet. */
bool view_learned_vectors(tui *t, tf_vectors *out);

/* Shared helpers for views (tui.c). */
const char *tui_token(const tui *t, size_t i, char *buf, size_t cap); /* token text */
/* Write a format string in the current language's table entry. */
int tui_say(WINDOW *w, int y, int x, int maxw, txt_id id);
/* Word-wrap s (UTF-8) into lines of at most width columns from row y, one line every `spacing`
 * rows, at most maxlines lines; CJK text may break between any two characters, other text at
 * spaces; when the text goes on past maxlines, the last line ends with "...". w NULL only counts.
 * Returns the lines used. */
int tui_wrap(WINDOW *w, int y, int x, int width, int maxlines, int spacing, const char *s);
/* View 6's c: type order B in the line editor; the experiment runs again with it, or the
 * message line says why it cannot (other tokens) and the old order B stays. */
int tui_edit_compare(tui *t);
/* The status line (sentence and configuration) on the last row. */
void tui_draw_status(tui *t);
/* A number with engineering grouping: 409.6 M, 1.6 G. */
const char *tui_human(double v, char *buf, size_t cap);

/* The lesson's frame and keys (lesson.c). lesson_key returns TUI_IGNORED for keys the view
 * and the global table should see. */
void lesson_frame(tui *t);
int lesson_key(tui *t, int ch);
/* The ? overlay inside the lesson: its keys and the current step's own. */
void lesson_help(tui *t);
/* An empty framed box for a help overlay, centred, its title in bold on the first line; its
 * rectangle in *x0, *y0, *w, *h. */
void tui_help_box(const char *title, int *x0, int *y0, int *w, int *h);
/* Make the step's view the current view (for its needs and its keys). */
void lesson_enter(tui *t, int step);

#endif
