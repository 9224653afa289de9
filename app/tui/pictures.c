/* pictures.c — the g key: the view's content area shows the figure that --export draws of it,
 * as a real picture (kitty, sixel, iTerm2) or in block symbols, where the terminal can show one;
 * g again brings the text cells back.
 *
 * The terminal is asked once, on the first g (render/term_detect: TFVIZ_GRAPHICS forces a mode,
 * tmux and screen get none), so a terminal that shows no pictures never sees a query and nothing
 * changes there. While a picture covers the area the view draws nothing into it; curses thus
 * keeps blank cells there and never writes over the picture. The picture belongs to one state
 * of the screen (view, analysis, language, size, help overlay): when any of them changes it is
 * taken away first (kitty's image deleted, other modes overwritten with blanks, then the whole
 * screen repainted), so no debris is left, and drawn again for the new state.
 *
 * The figure is drawn and encoded on a thread of its own, from its own copies of everything it
 * reads (the sentence and configuration, analysed again there, and the vectors), so the explorer
 * keeps answering keys meanwhile; only writing the picture, when it is ready and still belongs
 * to the screen, happens on the explorer's thread, between two frames. An analysis too large to
 * copy cheaply is drawn on the explorer's thread instead. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "figure.h"
#include "term_detect.h"
#include "term_image.h"
#include "tui/view.h"

extern char **environ;

/* What the picture on screen was drawn for. */
typedef struct {
    int view, cols, lines;
    unsigned generation;
    bool zh;
    const tf_vectors *vectors;
    unsigned epoch; /* a view that moves by itself (training): its state at most once a second */
} pic_key;

/* Above this many PE values (positions x d_model) the analysis is not run again on the thread
 * (twice the memory): the figure is drawn on the explorer's thread from its own analysis */
#define PIC_THREAD_MAX_VALUES (4L << 20)

/* One picture being drawn on the thread: its inputs (copies) and its result. */
typedef struct {
    pthread_t thread;
    bool running;        /* started and not joined */
    atomic_bool done;    /* the thread has finished */
    pic_key key;         /* the screen state it is for */
    fig_request req;
    fig_raster_fn raster;
    tf_config cfg;
    char *text, *compare;
    size_t text_len;
    tf_vectors vectors;  /* owned copies (or empty): the figure's rows, the analysis's */
    tf_vectors cfg_vectors;
    tf_positions positions; /* a copy of the view's schemes (view 9), when it gives them */
    timg_caps caps;
    int cols, rows;
    /* the result */
    tf_status st;
    char why[200];
    term_image img;
} pic_job;

typedef struct {
    bool asked;     /* the terminal was asked which pictures it shows */
    bool on;        /* g is on */
    timg_caps caps; /* what it shows */
    txt_id why;     /* why it shows none (T_PIC_WHY_*) */
    bool shown;     /* a picture is on the screen, drawn for key */
    pic_key key;
    term_image img; /* the picture on screen (kept for its id and cells) */
    int col, row;
    pic_job job;
    unsigned epoch;   /* counts the view's own moves worth a new picture */
    bool moved;       /* the view moved since the last epoch */
    double epoch_at;  /* when the epoch last changed (seconds) */
} tui_pictures;

static tui_pictures pictures; /* one terminal, one explorer */

static pic_key current_key(const tui *t)
{
    return (pic_key){.view = t->view, .cols = COLS, .lines = LINES, .generation = t->generation,
                     .zh = txt_is_zh(), .vectors = t->cfg.vectors, .epoch = pictures.epoch};
}

/* The same screen: a picture drawn for a the right one for b, up to the view's own motion. */
static bool same_screen(const pic_key *a, const pic_key *b)
{
    return a->view == b->view && a->cols == b->cols && a->lines == b->lines &&
           a->generation == b->generation && a->zh == b->zh && a->vectors == b->vectors;
}

static bool same_key(const pic_key *a, const pic_key *b)
{
    return same_screen(a, b) && a->epoch == b->epoch;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Why no picture can be shown here, in the interface's words. */
static txt_id why_none(const term_detect_result *r)
{
    switch (r->reason) {
    case TDET_MULTIPLEXER: return T_PIC_WHY_TMUX;
    case TDET_NOT_TTY: return T_PIC_WHY_NOT_TTY;
    case TDET_DUMB: return T_PIC_WHY_DUMB;
    case TDET_SILENT: return T_PIC_WHY_SILENT;
    case TDET_NO_CELL_SIZE: return T_PIC_WHY_NO_CELL;
    case TDET_NO_PICTURES: return T_PIC_WHY_NO_PICTURES;
    case TDET_FORCED: return T_PIC_WHY_FORCED_NONE;
    case TDET_BAD_FORCE: return T_PIC_WHY_BAD_FORCE;
    default: return T_PIC_WHY_OTHER;
    }
}

/* Take the picture away, if one is shown, and have curses repaint the whole screen. */
static void take_away(void)
{
    if (!pictures.shown)
        return;
    term_image_erase(STDOUT_FILENO, pictures.img.mode, pictures.img.id, pictures.col,
                     pictures.row, pictures.img.cols, pictures.img.rows);
    term_image_free(&pictures.img);
    pictures.shown = false;
    clearok(curscr, TRUE);
}

int tui_pictures_key(tui *t)
{
    if (pictures.on) {
        pictures.on = false;
        take_away();
        snprintf(t->msg, sizeof t->msg, "%s", txt(T_PIC_OFF));
        return TUI_REDRAW;
    }
    if (t->lesson) {
        snprintf(t->msg, sizeof t->msg, "%s", txt(T_PIC_LESSON));
        return TUI_REDRAW;
    }
    if (!pictures.asked) {
        term_detect_result r;
        term_graphics_detect((const char *const *)environ, STDIN_FILENO, STDOUT_FILENO,
                             TERM_DETECT_TIMEOUT_MS, &r);
        pictures.asked = true;
        pictures.caps = r.caps;
        if (r.asked && !r.answered) { /* its late replies are no keys (an Esc would quit) */
            term_detect_drain(STDIN_FILENO, TERM_DETECT_DRAIN_MS);
            flushinp();
        }
        txt_id why = 0;
        bool none = true;
        const char *nc = getenv("NO_COLOR");
        if (r.caps.mode == TIMG_NONE)
            why = why_none(&r);
        else if (!term_image_supports(r.caps.mode))
            why = T_PIC_WHY_NO_CHAFA;
        else if (r.caps.mode == TIMG_SYMBOLS && !t->utf8)
            why = T_PIC_WHY_ASCII;
        else if (r.caps.mode == TIMG_SYMBOLS && (t->req->no_color || (nc && *nc)))
            why = T_PIC_WHY_NO_COLOR;
        else
            none = false;
        if (none) {
            pictures.caps.mode = TIMG_NONE;
            pictures.why = why;
        }
    }
    if (pictures.caps.mode == TIMG_NONE) {
        txt_fmt(t->msg, sizeof t->msg, T_PIC_NONE, txt(pictures.why));
        return TUI_REDRAW;
    }
    if (!tui_views[t->view]->figure || !t->req->raster) {
        snprintf(t->msg, sizeof t->msg, "%s", txt(T_PIC_NO_FIGURE));
        return TUI_REDRAW;
    }
    pictures.on = true;
    txt_fmt(t->msg, sizeof t->msg, T_PIC_ON, timg_mode_name(pictures.caps.mode));
    return TUI_REDRAW;
}

bool tui_pictures_cover(const tui *t)
{
    return pictures.on && !t->help && !t->lesson && tui_views[t->view]->figure &&
           COLS >= 60 && LINES >= 20;
}

void tui_pictures_before(tui *t)
{
    if (!pictures.shown)
        return;
    pic_key k = current_key(t);
    if (!tui_pictures_cover(t) || !same_screen(&k, &pictures.key))
        take_away(); /* (a newer state of the same view is drawn over the old picture) */
}

/* Draw and encode the figure for the job's inputs into job->img (any thread). */
static tf_status draw_picture(pic_job *j, tf_analysis *a)
{
    int w, h;
    term_image_pixel_size(&j->caps, j->cols, j->rows, &w, &h);
    fig_raster px;
    int ch = j->caps.cell_h > 0 ? j->caps.cell_h : TIMG_DEFAULT_CELL_H;
    tf_status st = j->raster(&j->req, a, w, h, ch, &px, j->why, sizeof j->why);
    if (st != TF_OK)
        return st;
    timg_pixels p = {.data = px.data, .width = px.width, .height = px.height,
                     .stride = px.stride, .format = TIMG_ARGB32};
    st = term_image_encode(&j->caps, &p, j->cols, j->rows, 0, &j->img);
    fig_raster_free(&px);
    return st;
}

static void *job_thread(void *arg)
{
    pic_job *j = arg;
    tf_analysis a;
    j->st = analysis_run(&j->cfg, j->text, j->text_len, &a, NULL);
    if (j->st == TF_OK) {
        j->st = draw_picture(j, &a);
        analysis_free(&a);
    }
    fig_release_fonts(); /* this thread's font map (pango keeps one a thread) */
    atomic_store(&j->done, true);
    return NULL;
}

/* Free what a finished (or never started) job holds, its picture included. */
static void job_clear(pic_job *j)
{
    free(j->text);
    free(j->compare);
    vectors_free(&j->vectors);
    vectors_free(&j->cfg_vectors);
    term_image_free(&j->img);
    memset(j, 0, sizeof *j);
}

/* The inputs of the picture of the screen as it is; a reaction flag from the view's export_prep,
 * or TUI_IGNORED. */
static int job_fill(tui *t, pic_job *j)
{
    int r = tui_view_figure(t, &j->req);
    if (r != TUI_IGNORED)
        return r;
    j->key = current_key(t);
    j->raster = t->req->raster;
    j->cfg = t->cfg_shown;
    j->caps = pictures.caps;
    j->cols = t->area_cols, j->rows = t->area_rows;
    term_image_fit(&j->caps, &j->cols, &j->rows); /* a huge window: a smaller picture */
    return TUI_IGNORED;
}

/* rows that stay valid while the thread reads them: the command line's (--vectors) live as long
 * as the program; others (view 8's, which training and u replace) are copied into *copy */
static bool stable_rows(const tui *t, const tf_vectors **v, tf_vectors *copy)
{
    if (!*v || *v == t->req->cfg.vectors)
        return true;
    if (vectors_copy(*v, 0, copy) != TF_OK)
        return false;
    *v = copy;
    return true;
}

/* Start the job on its thread with copies of what it reads. False when it cannot be (no memory,
 * no thread): the job's inputs are then as job_fill left them, for this thread. */
static bool job_start(tui *t, pic_job *j)
{
    const tf_vectors *req_v = j->req.vectors, *cfg_v = j->cfg.vectors;
    bool ok = (j->text = strndup(t->text, t->text_len)) != NULL;
    j->text_len = t->text_len;
    if (ok && cfg_v == req_v) { /* one copy for both */
        ok = stable_rows(t, &req_v, &j->vectors);
        cfg_v = req_v;
    } else if (ok) {
        ok = stable_rows(t, &req_v, &j->vectors) && stable_rows(t, &cfg_v, &j->cfg_vectors);
    }
    if (ok && j->cfg.compare)
        ok = (j->compare = strndup(j->cfg.compare, j->cfg.compare_len)) != NULL;
    if (ok && j->req.positions) { /* the view's own, which its keys change: a copy (the tables
                                   * it points to are the command line's, read only) */
        j->positions = *j->req.positions;
        j->req.positions = &j->positions;
    }
    atomic_store(&j->done, false);
    if (ok) {
        j->req.vectors = req_v;
        j->cfg.vectors = cfg_v;
        j->cfg.compare = j->compare;
        if (pthread_create(&j->thread, NULL, job_thread, j) == 0) {
            j->running = true;
            return true;
        }
    }
    j->cfg = t->cfg_shown;
    return false;
}

/* Whether two pictures would put the same thing on the screen. */
static bool same_bytes(const term_image *a, const term_image *b)
{
    if (a->mode != b->mode || a->cols != b->cols || a->rows != b->rows)
        return false;
    if (a->cells || b->cells)
        return a->cells && b->cells &&
               memcmp(a->cells, b->cells, (size_t)a->cols * a->rows * sizeof *a->cells) == 0;
    /* kitty's bytes hold the image's id, which differs each time: compare past it */
    return a->len == b->len && a->mode != TIMG_KITTY && memcmp(a->seq, b->seq, a->len) == 0;
}

/* Show the finished job's picture if it still belongs to the screen. A reaction flag. */
static int job_finish(tui *t)
{
    pic_job *j = &pictures.job;
    if (j->running) {
        pthread_join(j->thread, NULL);
        j->running = false;
    }
    pic_key k = current_key(t);
    int flags = TUI_IGNORED;
    if (!tui_pictures_cover(t) || !same_key(&k, &j->key)) {
        flags = tui_pictures_cover(t) ? TUI_REDRAW : TUI_IGNORED; /* a new one is due */
    } else if (j->st == TF_OK && pictures.shown && same_bytes(&pictures.img, &j->img)) {
        pictures.key = j->key; /* the view moved, its figure did not */
    } else if (j->st == TF_OK &&
               (j->st = term_image_write(&j->img, STDOUT_FILENO, t->area_x, t->area_y)) ==
                   TF_OK) {
        /* the new picture covers the old one's cells; kitty's old image is deleted by its id */
        if (pictures.shown && pictures.img.mode == TIMG_KITTY)
            term_image_erase(STDOUT_FILENO, TIMG_KITTY, pictures.img.id, pictures.col,
                             pictures.row, pictures.img.cols, pictures.img.rows);
        term_image_free(&pictures.img);
        pictures.img = j->img;
        j->img = (term_image){0};
        pictures.shown = true;
        pictures.key = j->key;
        pictures.col = t->area_x, pictures.row = t->area_y;
    } else { /* the text cells again, and the reason on the message line */
        pictures.on = false;
        txt_fmt(t->msg, sizeof t->msg, T_PIC_FAILED, j->why[0] ? j->why : txt_status(j->st));
        flags = TUI_REDRAW;
    }
    job_clear(j);
    return flags;
}

int tui_pictures_ticked(const tui *t, bool moved)
{
    if (!pictures.shown || !tui_pictures_cover(t))
        return TUI_IGNORED;
    pictures.moved |= moved;
    double now = now_s();
    /* while it moves, once a second; when it stops, its last state at once */
    if (!pictures.moved || (moved && now - pictures.epoch_at < 1.0))
        return TUI_IGNORED;
    pictures.moved = false;
    pictures.epoch++;
    pictures.epoch_at = now;
    return TUI_REDRAW;
}

void tui_pictures_view_key(void)
{
    if (pictures.on)
        pictures.epoch++; /* the same screen, perhaps another figure: drawn over the old one */
}

bool tui_pictures_busy(void)
{
    return pictures.job.running;
}

int tui_pictures_poll(tui *t)
{
    if (!pictures.job.running || !atomic_load(&pictures.job.done))
        return TUI_IGNORED;
    return job_finish(t);
}

bool tui_pictures_after(tui *t)
{
    pic_key k = current_key(t);
    if (!tui_pictures_cover(t) || (pictures.shown && same_key(&k, &pictures.key)) ||
        pictures.job.running || t->area_rows < 2 || t->area_cols < 8)
        return false;
    pic_job *j = &pictures.job;
    job_clear(j);
    int r = job_fill(t, j);
    /* view 10's order model trains on this thread between frames: its figure is drawn here */
    if (r == TUI_IGNORED && !j->req.order &&
        (double)t->cfg_shown.n_positions * t->cfg_shown.d_model <=
            (double)PIC_THREAD_MAX_VALUES &&
        job_start(t, j))
        return false;
    if (r == TUI_IGNORED) { /* here and now, from the screen's own analysis */
        j->st = draw_picture(j, t->a);
    } else {
        j->st = TF_ERR_RANGE;
    }
    return job_finish(t) != TUI_IGNORED;
}

void tui_pictures_end(void)
{
    pictures.on = false;
    if (pictures.job.running)
        pthread_join(pictures.job.thread, NULL);
    job_clear(&pictures.job);
    if (pictures.shown) {
        term_image_erase(STDOUT_FILENO, pictures.img.mode, pictures.img.id, pictures.col,
                         pictures.row, pictures.img.cols, pictures.img.rows);
        term_image_free(&pictures.img);
        pictures.shown = false;
    }
}
