/* view.h — the explorer's host and the interface every view implements (htop's Panel classes):
 * a view is one file with a table of functions; it owns its state, made by init and freed by
 * free, and the host only calls through the table. Private to tui/.
 *
 * Key handlers return reaction flags (TUI_*) that say what must happen next: redraw, re-run the
 * analysis after a configuration change, or quit. */
#ifndef TF_TUI_VIEW_H
#define TF_TUI_VIEW_H

#include <stdbool.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis.h"
#include "core/strings.h"
#include "term.h"
#include "tui/tui.h"

enum {
    TUI_IGNORED = 0,     /* the key meant nothing here */
    TUI_REDRAW = 1 << 0, /* draw the screen again */
    TUI_RERUN = 1 << 1,  /* the configuration or sentence changed: run the analysis again */
    TUI_QUIT = 1 << 2,
};

typedef struct tui tui;

/* A view. Coordinates are those of its content area; state is what its init made. */
typedef struct tui_view {
    const char *figure;  /* the figure the e key exports of this view, NULL: none */
    txt_id tab;          /* short name on the tab bar */
    txt_id caption;      /* one or two sentences: the claim this view makes visible */
    txt_id keys;         /* the view's own keys, for the help overlay and the hint line */
    unsigned needs;      /* ANALYSIS_* parts the view reads (computed on first visit) */
    void *(*init)(tui *t);  /* NULL: no state of its own */
    void (*free)(void *state);
    void (*draw)(tui *t, void *state, WINDOW *w, int y, int x, int rows, int cols);
    int (*key)(tui *t, void *state, int ch);        /* ch: a character or a KEY_* code */
    int (*click)(tui *t, void *state, int y, int x); /* a mouse press */
    /* NULL, or called every frame while no key comes (animation, training) */
    int (*tick)(tui *t, void *state);
    int (*frame_ms)(void *state);  /* NULL, or the frame time it needs while idle */
    void (*still)(void *state);    /* NULL, or stop what moves by itself */
    /* NULL, or the sentence of its last result (c's check) for the lesson's message line */
    bool (*result)(tui *t, void *state, char *buf, size_t cap);
    /* NULL, or fill in what its figure needs; a reaction flag cancels the export */
    int (*export_prep)(tui *t, void *state, fig_request *req);
} tui_view;

#define TUI_VIEWS 10

/* What every view may read, and the host's own state. */
struct tui {
    const tui_request *req;
    tf_config cfg;       /* the configuration the analysis was (or will be) run with */
    tf_config cfg_shown; /* the configuration of the analysis on screen (kept when a run fails) */
    char *text;          /* the sentence (owned) */
    size_t text_len;
    tf_analysis *a;      /* the analysis of text under cfg */
    unsigned generation; /* counts analysis runs, for view caches */
    int view;            /* the view on screen: an index into tui_views */
    void *state[TUI_VIEWS]; /* each view's own state */
    bool help;
    bool utf8;
    char msg[320];       /* the message line: export result, errors, notices */
    char cursor[160];    /* "the value under the cursor" for the status line */
    int area_y, area_x, area_rows, area_cols; /* the content area of the last frame */
    size_t tok;          /* the selected token: views 1, 5 and 7 follow it */
    bool lesson;         /* --lesson: steps instead of tabs (lesson.c) */
    bool big;            /* --big: bold, wide spacing, short lines (projectors) */
    int step;            /* the lesson's step shown, 0..LESSON_STEPS-1 */
};

/* The views, in the tab bar's order. */
extern const tui_view view_embed, view_pe, view_freq, view_relative, view_input, view_order,
    view_rope, view_word_vectors, view_schemes, view_order_training;
extern const tui_view *const tui_views[TUI_VIEWS];
/* The key of each view, in the same order ("1234567890": the tenth view's is 0). */
extern const char tui_view_keys[TUI_VIEWS + 1];
/* The index of the view whose key is ch, -1 for none. */
int tui_view_of_key(int ch);

/* The index of view v in tui_views (0 for an unknown view). */
int tui_view_index(const tui_view *v);
/* The state of view v. */
void *tui_state(tui *t, const tui_view *v);
/* The PE view's cursor: a position index from 0 and a dimension (the lesson works that cell). */
void view_pe_cursor(const void *state, long *pos, long *dim);

/* ---- the host (loop.c) --------------------------------------------------------------------- */

/* Run the analysis of t->text under t->cfg; on failure the analysis shown and its configuration
 * stay, and the message line says why. 0 or -1. */
int tui_rerun(tui *t);
/* The sentence editor (editor.c): a reaction flag. */
int tui_edit(tui *t);
/* The line editor on the row above the status line, starting from init: the text typed
 * (malloc'd, *out_len bytes) on Enter, NULL on Esc or a stop signal (*quit set). *cut says a
 * paste went past the text limit (the rest was refused and the hint line said so). */
char *tui_edit_line(const char *prompt, const char *hint, const char *init, size_t init_len,
                    size_t *out_len, bool *cut, bool *quit);
/* Run the analysis of the sentence under configuration c with the parts `needs`; when it
 * succeeds it replaces the one on screen and c becomes t's configuration, else nothing changes
 * and the status says why. */
tf_status tui_try_config(tui *t, const tf_config *c, unsigned needs);
/* Set by the signal handlers: the loop and the editor end. */
int tui_signal(void);

/* The request for the figure of the view on screen (its name, the interface's language, what
 * its export_prep fills in): TUI_IGNORED, or the reaction flag that cancels it. */
int tui_view_figure(tui *t, fig_request *req);

/* ---- live training (live.c): views 8 and 10 train a model on idle frames ---------------------
 * Each sets its model up on first use, once, then trains while running; Space pauses and
 * resumes, r starts again. */
typedef struct {
    bool ready;   /* set up */
    bool failed;  /* the set-up failed (said once): not tried again */
    bool running; /* trains on each idle frame */
} tui_live;

/* Whether the set-up was tried (l->ready says how it went); if not, the caller sets up now. */
bool tui_live_tried(tui_live *l);
/* The set-up succeeded: ready and running. */
void tui_live_set_up(tui_live *l);
/* Space: pause or resume; false (nothing to do) when the run is done. */
bool tui_live_toggle(tui_live *l, bool done);
/* r, after the model is reset: a finished run starts again, a paused one stays paused. */
void tui_live_restart(tui_live *l, bool done);

/* ---- the g key (pictures.c) ---------------------------------------------------------------- */

/* g: the view's figure as a picture, or the text cells again; a reaction flag. */
int tui_pictures_key(tui *t);
/* Whether a picture covers the content area now (the view then draws nothing there). */
bool tui_pictures_cover(const tui *t);
/* Before a frame: take away a picture that no longer belongs to the screen. */
void tui_pictures_before(tui *t);
/* After a frame: draw the picture if one is due. True when it could not be, so the frame must be
 * drawn again with the text cells (the message line says why). */
bool tui_pictures_after(tui *t);
/* Whether a picture is being drawn on its thread (the loop then polls often), and, when it is
 * ready, write it if it still belongs to the screen: a reaction flag. */
bool tui_pictures_busy(void);
/* A key the view on screen took: its figure may have changed (a new picture is drawn over the
 * old one, and written only when its bytes differ). */
void tui_pictures_view_key(void);
/* The view's tick ran (moved: it asked for a redraw): a reaction flag when the picture is due
 * again (at most once a second while the view moves, and once when it stops). */
int tui_pictures_ticked(const tui *t, bool moved);
int tui_pictures_poll(tui *t);
/* On leaving: take away the picture. */
void tui_pictures_end(void);

/* ---- the chrome (chrome.c) ----------------------------------------------------------------- */

void tui_draw_frame(tui *t);
/* The next frame repaints every cell of the terminal (after an overlay such as the line editor
 * closes; the help box does this by itself). */
void tui_repaint(void);
/* The status line (sentence and configuration) on the last row. */
void tui_draw_status(tui *t);
/* An empty framed box for a help overlay, centred, its title in bold on the first line; its
 * rectangle in *x0, *y0, *w, *h. */
void tui_help_box(const char *title, int *x0, int *y0, int *w, int *h);
/* The view whose tab is at column x of the tab bar, -1: none. */
int tui_tab_at(int x);
/* Move the selected token (views 1, 5 and 7 share it) one back (-1) or on (+1), wrapping. */
int tui_step_token(tui *t, int step);
/* Token i's text (cut to cap). */
const char *tui_token(const tui *t, size_t i, char *buf, size_t cap);
/* The claims of docs/math.md view v makes visible ("C1-C4, C12"), for ? only; NULL: none. */
const char *tui_claims(const tui_view *v);
/* Write the current language's entry id. */
int tui_say(WINDOW *w, int y, int x, int maxw, txt_id id);
/* Entry id formatted with the arguments at (y, x) when it fits in maxw columns, else entry
 * short_id (its shorter form) with the same arguments; returns the columns written. The
 * compiler checks the arguments against id's format (txtf); a short form takes the first of
 * them (tests/test_strings.c checks its conversions are the start of its long form's). */
#define tui_fit(w, y, x, maxw, id, short_id, ...)                                              \
    tui_fit_f(w, y, x, maxw, txtf(id), txtf(short_id), ##__VA_ARGS__)
int tui_fit_f(WINDOW *w, int y, int x, int maxw, const char *fmt, const char *short_fmt, ...)
    __attribute__((format(printf, 5, 7)));
/* Key lists ("? help  q quit", entries two spaces apart) on row y from x: whole entries only, as
 * many as fit in maxw columns, in order. Returns the columns written. */
int tui_keys_line(WINDOW *w, int y, int x, int maxw, const char *const *lists, int n);
/* A number with engineering grouping: 409.6 M, 1.6 G. */
const char *tui_human(double v, char *buf, size_t cap);

/* ---- long work off the input path (work.c, parts.c) ------------------------------------------ */

/* What a job does. run, on the worker thread, reads its inputs from ctx and writes its result
 * there, looking at *cancel between chunks; it returns whether the result is whole. drop frees
 * ctx (a result not taken, a job replaced before it ran). */
typedef struct {
    bool (*run)(void *ctx, const atomic_bool *cancel);
    void (*drop)(void *ctx);
} work_kind;

/* Ask for a job of owner `who` (any address) whose result is for `tag` (the analysis
 * generation and what else it depends on); ctx is the worker's from now on. The job that runs
 * is cancelled unless it is this one; one already asked for or done is not asked again. */
void work_submit(const void *who, uint64_t tag, const work_kind *kind, void *ctx);
/* who's finished result for tag (the caller owns and frees it), else NULL; a result of who for
 * another tag is dropped. */
void *work_take(const void *who, uint64_t tag);
/* who's job for tag is waiting or running; work_wait: wait for it at most ms milliseconds (a
 * short job's result then comes with the key's own frame). */
bool work_pending(const void *who, uint64_t tag);
void work_wait(const void *who, uint64_t tag, int ms);
/* A job runs or waits (the loop then looks every 20 ms). */
bool work_busy(void);
/* A job finished since the last call: draw again. */
bool work_poll(void);
/* Cancel, join and free everything (when the explorer ends). */
void work_stop(void);

/* How long a screen waits for its job before it draws "computing" instead. */
#define WORK_QUICK_MS 10

/* The parts of the analysis (ANALYSIS_*) in `needs` (parts.c): true when they are in t->a
 * (a finished job's result is taken here); otherwise, with start, a job computes them (waiting
 * WORK_QUICK_MS for it) and the view says "computing" until the loop draws again. A part that
 * failed for this analysis is not asked again (the message line said why). */
bool parts_ensure(tui *t, unsigned needs, bool start);
/* Whether a job for the parts of this analysis runs or waits. */
bool parts_pending(const tui *t, unsigned needs);
/* "computing in the background ... keys still work", in bold at (y, x); parts_working: that line
 * while a job for the parts runs or waits. */
void work_say(const tui *t, WINDOW *w, int y, int x, int cols);
void parts_working(const tui *t, unsigned needs, WINDOW *w, int y, int x, int cols);

/* ---- the lesson (lesson.c) ----------------------------------------------------------------- */

void lesson_frame(tui *t);
/* A key in the lesson: its own navigation, else the step's view's key, else Space or n go on;
 * TUI_IGNORED for keys the global table should see. */
int lesson_key(tui *t, int ch);
/* The ? overlay inside the lesson: its keys and the current step's own. */
void lesson_help(tui *t);
/* Show step `step`: its view becomes the current view (for its needs and its keys). */
void lesson_enter(tui *t, int step);

#endif
