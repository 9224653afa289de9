/* view_word_vectors.c — view 8: W_E learned while the student watches (claim C5).
 *
 * Skip-gram with negative sampling trains on the built-in corpus, a slice of words per frame
 * (the event loop calls tick() between key presses), and the view draws what the training does:
 * the loss falling, the cosine of 爱-喜欢 and 猫-狗 climbing from the near-zero of random rows
 * while the control 爱-北京 stays low, the 2-D PCA map of the most frequent words gathering
 * into groups, and the nearest neighbours of a chosen word. u copies the vectors into the
 * analysis, so views 1 and 5 read trained rows (and d_model becomes theirs); only u does: the end
 * of a run says so and changes nothing, and the lesson, which keeps its d_model, has no u. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pca.h"
#include "textwidth.h"
#include "core/err.h"
#include "learn/learn.h"
#include "tui/view.h"
#include "word2vec.h"

#define HIST_CAP 1024 /* points kept per curve; halved (every other point) when full */
#define N_PAIRS 3
#define MAP_WORDS 48  /* the most frequent words on the map */
#define N_NEIGH 8
#define SPEED_MIN 64
#define SPEED_MAX 65536
#define RUN_FRAMES 120 /* the default speed ends a run in this many frames at full speed plus
                        * the slow start's 15%: 140 frames of 40-50 ms, 6 to 7 s */

/* the watched pairs shown: 爱-喜欢 and 猫-狗, which share contexts, and the control 爱-北京 */
static const int shown_pairs[N_PAIRS] = {0, 1, LEARN_CONTROL};
/* the words left and right step through, in the corpus's language */
static const char *const preset_zh[] = {"爱", "猫", "北京", "苹果", "学习", "妈妈", "吃"};
static const char *const preset_en[] = {"love", "cat", "London", "apple", "learning", "mom",
                                        "eat"};
#define N_PRESET (sizeof preset_zh / sizeof *preset_zh)
_Static_assert(sizeof preset_en == sizeof preset_zh, "one preset word per language");

typedef struct {
    tui_live live;
    bool applied;
    long speed; /* words per frame */
    learn_session s; /* the built-in corpus and the model on it */
    w2v_progress pr;
    int32_t pair_id[N_PAIRS][2];
    /* history: fraction of the run, smoothed loss, cosines */
    size_t n;
    double hx[HIST_CAP], hloss[HIST_CAP], hcos[N_PAIRS][HIST_CAP];
    double hmean[HIST_CAP], hsd[HIST_CAP]; /* the band: cosines of common-word pairs */
    double loss_ema;
    int32_t sel; /* the word whose neighbours are listed */
    size_t preset_i;
    const char *const *preset; /* preset_zh or preset_en */
    tf_vectors applied_vec; /* the copy handed to the analysis (owned) */
} learned_state;

static void record(learned_state *L)
{
    if (L->n == HIST_CAP) { /* keep every other point */
        for (size_t i = 0; i < HIST_CAP / 2; i++) {
            L->hx[i] = L->hx[2 * i], L->hloss[i] = L->hloss[2 * i];
            L->hmean[i] = L->hmean[2 * i], L->hsd[i] = L->hsd[2 * i];
            for (int p = 0; p < N_PAIRS; p++)
                L->hcos[p][i] = L->hcos[p][2 * i];
        }
        L->n = HIST_CAP / 2;
    }
    size_t i = L->n++;
    L->hx[i] = L->pr.words_total ? (double)L->pr.words_done / (double)L->pr.words_total : 0;
    L->hloss[i] = L->loss_ema;
    w2v_cosine_spread(&L->s.m, LEARN_BAND_WORDS, &L->hmean[i], &L->hsd[i]);
    for (int p = 0; p < N_PAIRS; p++)
        L->hcos[p][i] = L->pair_id[p][0] >= 0 && L->pair_id[p][1] >= 0
                            ? w2v_cosine(&L->s.m, L->pair_id[p][0], L->pair_id[p][1])
                            : 0.0;
}

static void restart(learned_state *L)
{
    memset(&L->pr, 0, sizeof L->pr);
    L->pr.words_total = (uint64_t)L->s.m.p.epochs * w2v_corpus_tokens(L->s.corpus);
    L->pr.alpha = L->s.m.p.alpha;
    L->n = 0;
    L->loss_ema = NAN;
    record(L);
}

static void ignore(const char *msg, void *ctx)
{
    (void)msg, (void)ctx;
}

/* The corpus and the model, set up on first use; false when that failed (the message line
 * says so once). */
static bool learning_open(tui *t, learned_state *L)
{
    if (tui_live_tried(&L->live))
        return L->live.ready;
    /* English words when the explorer speaks English and its sentence is not Chinese */
    learn_request r = {.cfg = &t->cfg,
                       .english = learn_english(!txt_is_zh(), t->text, t->text_len)};
    w2v_params_defaults(&r.params);
    /* the sentences learn_open says are the command line's: the view says its own */
    err_sink was = err_redirect((err_sink){ignore, NULL});
    int rc = learn_open(&L->s, &r);
    err_redirect(was);
    if (rc) {
        txt_fmt(t->msg, sizeof t->msg, T_M_BAD_TEXT, txt(T_L_FAILED),
                txt_status(L->s.failed != TF_OK ? L->s.failed : TF_ERR_NOMEM));
        return false;
    }
    for (int i = 0; i < N_PAIRS; i++)
        learn_pair_ids(&L->s, shown_pairs[i], L->pair_id[i]);
    L->preset = L->s.words->english ? preset_en : preset_zh;
    L->sel = w2v_lookup(&L->s.m, L->preset[0], strlen(L->preset[0]));
    if (L->sel < 0)
        L->sel = 0;
    /* words per frame: the run ends within RUN_FRAMES frames (1335 for the built-in corpus's
     * 160 k words) */
    uint64_t total = (uint64_t)L->s.m.p.epochs * w2v_corpus_tokens(L->s.corpus);
    uint64_t per = (total + RUN_FRAMES - 1) / RUN_FRAMES;
    L->speed = per < SPEED_MIN ? SPEED_MIN : per > SPEED_MAX ? SPEED_MAX : (long)per;
    tui_live_set_up(&L->live);
    restart(L);
    return true;
}

static void *init(tui *t)
{
    (void)t;
    return calloc(1, sizeof(learned_state));
}

/* The training and the vectors it handed to the analysis. */
static void release(void *state)
{
    learned_state *L = state;
    if (!L)
        return;
    learn_close(&L->s);
    vectors_free(&L->applied_vec);
    free(L);
}

/* e exports the map of the vectors trained so far; none yet: the message line says to wait. */
static int export_prep(tui *t, void *state, fig_request *req)
{
    static tf_vectors live; /* a view of the model's rows, valid until the next key or tick */
    learned_state *L = state;
    if (!L || !L->live.ready || L->pr.words_done == 0 ||
        (w2v_vectors_view(&L->s.m, &live), live.n < 2)) {
        snprintf(t->msg, sizeof t->msg, "%s", txt(T_M_MAP_UNTRAINED));
        return TUI_REDRAW;
    }
    req->vectors = &live;
    return TUI_IGNORED;
}

/* Copy the current vectors into the analysis: views 1 and 5 then read these rows for the words
 * that have them (d_model follows the vectors). */
static int apply(tui *t, learned_state *L)
{
    tf_vectors live, copy;
    w2v_vectors_view(&L->s.m, &live);
    if (vectors_copy(&live, 0, &copy) != TF_OK) {
        snprintf(t->msg, sizeof t->msg, "%s", txt_status(TF_ERR_NOMEM));
        return TUI_REDRAW;
    }
    vectors_free(&L->applied_vec);
    L->applied_vec = copy;
    t->cfg.vectors = &L->applied_vec;
    t->cfg.d_model = copy.dim;
    L->applied = true;
    txt_fmt(t->msg, sizeof t->msg, T_L_APPLIED, copy.n, copy.dim,
            100.0 * (double)L->pr.words_done / (double)(L->pr.words_total ? L->pr.words_total : 1));
    return TUI_RERUN;
}

static int step_once(tui *t, learned_state *L, uint64_t words)
{
    if (L->pr.done)
        return TUI_IGNORED;
    w2v_progress pr;
    if (w2v_step(&L->s.m, words, &pr) != TF_OK) {
        L->live.running = false;
        snprintf(t->msg, sizeof t->msg, "%s", txt_status(TF_ERR_NOMEM));
        return TUI_REDRAW;
    }
    L->pr = pr;
    if (pr.pairs > 0)
        L->loss_ema = isnan(L->loss_ema) ? pr.loss : 0.8 * L->loss_ema + 0.2 * pr.loss;
    record(L);
    if (pr.done) {
        /* the other views change only when the user asks (u), never because a run ended */
        L->live.running = false;
        if (t->lesson)
            snprintf(t->msg, sizeof t->msg, "%s", txt(T_L_DONE_LESSON));
        else { /* the short form where the long one would be cut */
            txt_fmt(t->msg, sizeof t->msg, T_L_DONE_HINT, (int)L->s.m.dim);
            if (tw_width(t->msg, strlen(t->msg)) > COLS - 2)
                txt_fmt(t->msg, sizeof t->msg, T_L_DONE_HINT_S, (int)L->s.m.dim);
        }
    }
    return TUI_REDRAW;
}

/* Words per frame now: a quarter of the speed over the first 5% of the run, where the cosines
 * leave the near-zero of random rows, so that climb takes a few seconds instead of one. */
static long frame_words(const learned_state *L)
{
    bool warmup = L->pr.words_done * 20 < L->pr.words_total;
    long w = warmup ? L->speed / 4 : L->speed;
    return w < 16 ? 16 : w;
}

/* A slice of training each frame while it runs, and the help box and a screen too small to
 * draw on hold it. */
static int tick(tui *t, void *state)
{
    learned_state *L = state;
    if (!L || t->help || COLS < 60 || LINES < 20 || !learning_open(t, L) || !L->live.running)
        return TUI_IGNORED;
    return step_once(t, L, (uint64_t)frame_words(L));
}

static int frame_ms(void *state)
{
    (void)state;
    return 40;
}

/* ---------------------------------------------------------------------------------------------
 * Drawing */

static const tf_rgb curve_rgb[N_PAIRS] = {{230, 80, 60}, {60, 160, 230}, {150, 150, 150}};
/* each curve's glyph, on the curve every few columns and before its name: the curves are told
 * apart without colour too (ASCII: no terminal draws it wide) */
static const char curve_glyph[N_PAIRS] = {'o', 'x', '+'};

static const tf_rgb band_rgb = {220, 180, 50};

/* Text that flows over the rows y0 .. y1 of width cols from x, a piece at a time (a piece
 * that does not fit the rest of a row starts the next). */
typedef struct {
    WINDOW *w;
    int x, cols, y, y1, at;
} flow;

static void flow_put(flow *f, const char *s, attr_t a, int pair)
{
    int wd = term_text_width(s);
    if (f->at > 0 && f->at + wd > f->cols) {
        f->y++;
        f->at = 0;
        while (*s == ' ')
            s++, wd--;
    }
    if (f->y > f->y1)
        return;
    term_attr(f->w, a, pair);
    f->at += term_text(f->w, f->y, f->x + f->at, s, f->cols - f->at);
    term_attr(f->w, A_NORMAL, 0);
}

/* Three lines under the cosine plot, computed from the numbers drawn above them so they always
 * match the curves: the band's mean and spread; which watched pairs stand above it, inside it
 * or below it (a pair stands out by more than the spread and by 0.05 at least: when every
 * cosine is 1.00 nothing does); and, while the band itself is high, why. */
static void draw_band_verdict(const learned_state *L, WINDOW *w, int y, int x, int cols,
                              const int *pairs)
{
    size_t i = L->n ? L->n - 1 : 0;
    double mean = L->n ? L->hmean[i] : 0, sd = L->n ? L->hsd[i] : 0, gap = fmax(sd, 0.05);
    char buf[96];
    /* a band centred at 0 (the mean vector removed) is +0.00, never -0.00 */
    double shown = fabs(mean) < 0.005 ? 0.0 : mean;
    txt_fmt(buf, sizeof buf, T_L_BAND, LEARN_BAND_WORDS, shown, sd);
    if (term_text_width(buf) > cols)
        txt_fmt(buf, sizeof buf, T_L_BAND_S, shown, sd);
    flow f = {w, x, cols, y, y + 2, 0};
    flow_put(&f, buf, A_NORMAL, term_pair(&band_rgb, NULL));
    f.y++, f.at = 0;
    if (L->pr.words_done == 0) {
        flow_put(&f,
                 txt(term_text_width(txt(T_L_VERDICT_START)) > cols ? T_L_VERDICT_START_S
                                                                    : T_L_VERDICT_START),
                 A_NORMAL, 0);
        return;
    }
    static const txt_id where[3] = {T_L_ABOVE, T_L_INSIDE, T_L_BELOW};
    for (int k = 0; k < 3; k++) {
        bool any = false;
        for (int p = 0; p < N_PAIRS; p++) {
            double c = L->hcos[p][i];
            if ((c > mean + gap ? 0 : c < mean - gap ? 2 : 1) != k)
                continue;
            if (!any)
                flow_put(&f, txt(where[k]), A_NORMAL, 0);
            snprintf(buf, sizeof buf, any ? " %s-%s" : "%s-%s", learn_pair(&L->s, shown_pairs[p], 0),
                     learn_pair(&L->s, shown_pairs[p], 1));
            flow_put(&f, buf, A_BOLD, pairs[p]);
            any = true;
        }
        if (any)
            flow_put(&f, "  ", A_NORMAL, 0);
    }
    if (mean > 0.25 && !L->pr.done && f.y + 1 <= f.y1)
        term_wrap(w, f.y + 1, x, cols, f.y1 - f.y, 1,
                  txt(term_wrap(NULL, 0, 0, cols, 64, 1, txt(T_L_DRIFT)) > f.y1 - f.y
                          ? T_L_DRIFT_S
                          : T_L_DRIFT));
}

/* The cosine plot's title row: "cosine" when the column is wide, and the three watched pairs'
 * values in their colours, whole pairs only. */
static void draw_cosine_values(const learned_state *L, WINDOW *w, int cy, int x, int cols,
                               const int *pairs)
{
    char buf[160];
    /* the three values matter more than the word "cosine" when the column is narrow */
    int lx = x;
    if (cols >= 50) {
        term_attr(w, A_BOLD, 0);
        term_printf(w, cy, x, cols, txtf(T_L_COS));
        term_attr(w, A_NORMAL, 0);
        lx = x + 1 + term_text_width(txt(T_L_COS)) + 1;
    }
    for (int p = 0; p < N_PAIRS; p++) {
        double cs = L->n ? L->hcos[p][L->n - 1] : 0.0;
        /* a cosine that rounds to zero is written 0.00, never -0.00 */
        snprintf(buf, sizeof buf, fabs(cs) < 0.005 ? "%c%s-%s 0.00 " : "%c%s-%s %+.2f ",
                 curve_glyph[p], learn_pair(&L->s, shown_pairs[p], 0),
                 learn_pair(&L->s, shown_pairs[p], 1), cs);
        /* whole pairs only: one that does not fit is left out (the lines under the plot name
         * every pair) */
        if (term_text_width(buf) - 1 > x + cols - lx)
            break;
        term_attr(w, A_BOLD, pairs[p]);
        lx += term_text(w, cy, lx, buf, x + cols - lx);
    }
}

/* Each curve's glyph on the curve every 12 columns (the curves start 4 columns apart, so they
 * rarely share a cell) and at its last point, over a plot of rows x pw cells at (y, x) whose
 * y axis runs from 1 (top) to -1. */
static void draw_markers(const learned_state *L, WINDOW *w, int y, int x, int rows, int pw,
                         const int *pairs)
{
    for (int p = N_PAIRS - 1; p >= 0 && L->n > 0; p--) {
        term_attr(w, A_BOLD, pairs[p]);
        int next = 4 * p + 2; /* the column of the next marker */
        for (size_t i = 0; i < L->n; i++) {
            int cx = (int)lround(L->hx[i] * (2.0 * pw - 1)) / 2;
            if (cx < next && i + 1 < L->n)
                continue;
            double v = fmax(-1.0, fmin(1.0, L->hcos[p][i]));
            int cy = (int)lround((1.0 - v) / 2.0 * (4.0 * rows - 1)) / 4;
            mvwaddch(w, y + cy, x + cx, (chtype)curve_glyph[p]);
            next = cx + 12;
        }
    }
    term_attr(w, A_NORMAL, 0);
}

/* The cosine plot, rows x pw cells at (y, x + 6) with its y labels before it: the zero line, the
 * band (mean +- sd of the common-word pairs) dotted, the watched pairs' curves and glyphs. */
static void draw_cosine_plot(const learned_state *L, WINDOW *w, int y, int x, int rows, int pw,
                             const int *pairs)
{
    term_canvas cv;
    if (term_canvas_init(&cv, rows, pw, 0, 1, -1.0, 1.0) == 0) {
        for (int k = 0; k <= 50; k++) /* the zero line: random rows sit near it */
            term_canvas_dot(&cv, k / 50.0, 0.0, N_PAIRS + 1);
        size_t every = L->n / (size_t)(2 * pw) + 1;
        for (size_t i = 0; i < L->n; i += every) {
            term_canvas_dot(&cv, L->hx[i], fmin(1.0, L->hmean[i] + L->hsd[i]), N_PAIRS + 2);
            term_canvas_dot(&cv, L->hx[i], fmax(-1.0, L->hmean[i] - L->hsd[i]), N_PAIRS + 2);
        }
        for (int p = N_PAIRS - 1; p >= 0; p--)
            if (L->n >= 2)
                term_canvas_line(&cv, L->hx, L->hcos[p], (int)L->n, p + 1);
        int all[N_PAIRS + 2] = {pairs[0], pairs[1], pairs[2], 0, term_pair(&band_rgb, NULL)};
        term_canvas_draw(&cv, w, y, x + 6, all, N_PAIRS + 2);
        term_canvas_free(&cv);
        draw_markers(L, w, y, x + 6, rows, pw, pairs);
    }
    term_text(w, y, x, " 1.0", 5);
    term_text(w, y + (rows - 1) / 2, x, " 0.0", 5);
    term_text(w, y + rows - 1, x, "-1.0", 5);
}

static void draw_curves(learned_state *L, WINDOW *w, int y, int x, int rows, int cols)
{
    char buf[160];
    int pairs[N_PAIRS];
    for (int p = 0; p < N_PAIRS; p++)
        pairs[p] = term_pair(&curve_rgb[p], NULL);
    /* a title line each and the band's three lines; of the rest the cosine plot (the point)
     * takes two thirds, and at least 6 rows while the loss plot keeps one */
    int plots = rows - 5;
    int hc = plots >= 9 ? plots - plots / 3 : plots - 1;
    hc = hc < 2 ? 2 : hc;
    int h = plots - hc < 1 ? 1 : plots - hc;
    int pw = cols - 7;
    /* loss */
    term_attr(w, A_BOLD, 0);
    if (isnan(L->loss_ema))
        term_printf(w, y, x, cols, txtf(T_L_LOSS_NONE));
    else
        tui_fit(w, y, x, cols, T_L_LOSS, T_L_LOSS_S, L->loss_ema);
    term_attr(w, A_NORMAL, 0);
    double lmax = 0.1;
    for (size_t i = 0; i < L->n; i++)
        if (!isnan(L->hloss[i]) && L->hloss[i] > lmax)
            lmax = L->hloss[i];
    lmax = ceil(lmax);
    term_canvas cv;
    if (term_canvas_init(&cv, h, pw, 0, 1, 0, lmax) == 0) {
        size_t first = 0;
        while (first < L->n && isnan(L->hloss[first]))
            first++;
        if (L->n - first >= 2)
            term_canvas_line(&cv, L->hx + first, L->hloss + first, (int)(L->n - first), 1);
        term_canvas_draw(&cv, w, y + 1, x + 6, NULL, 0);
        term_canvas_free(&cv);
    }
    snprintf(buf, sizeof buf, "%4.1f", lmax);
    term_text(w, y + 1, x, buf, 5);
    if (h > 1) /* a plot one row high keeps its top */
        term_text(w, y + h, x, " 0.0", 5);
    /* cosines */
    int cy = y + h + 1;
    draw_cosine_values(L, w, cy, x, cols, pairs);
    term_attr(w, A_NORMAL, 0);
    draw_cosine_plot(L, w, cy + 1, x, hc, pw, pairs);
    draw_band_verdict(L, w, cy + hc + 1, x, cols, pairs);
}

/* The map: the MAP_WORDS most frequent words at their first two principal components; labels
 * are placed left to right by frequency and skipped (a dot only) where they would overlap. */
static void draw_map(learned_state *L, WINDOW *w, int y, int x, int rows, int cols)
{
    size_t n = L->s.m.V < MAP_WORDS ? L->s.m.V : MAP_WORDS;
    term_attr(w, A_BOLD, 0);
    tui_fit(w, y, x, cols, T_L_MAP, T_L_MAP_S, (int)n);
    term_attr(w, A_NORMAL, 0);
    if (n < 2 || rows < 4 || cols < 10)
        return;
    double *xy = malloc(n * 2 * sizeof *xy);
    unsigned char *used = calloc((size_t)rows * cols, 1);
    pca_result r;
    if (!xy || !used || pca_project2(L->s.m.vec, n, L->s.m.dim, xy, &r) != TF_OK) {
        free(xy), free(used);
        return;
    }
    double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
    for (size_t i = 0; i < n; i++) {
        x0 = fmin(x0, xy[2 * i]), x1 = fmax(x1, xy[2 * i]);
        y0 = fmin(y0, xy[2 * i + 1]), y1 = fmax(y1, xy[2 * i + 1]);
    }
    if (x1 - x0 < 1e-12)
        x1 = x0 + 1;
    if (y1 - y0 < 1e-12)
        y1 = y0 + 1;
    int bh = rows - 2, bw = cols - 4; /* the map box, labels may run 3 columns past a point */
    for (int pass = 0; pass < 2; pass++) {
        for (size_t k = 0; k < n; k++) {
            /* pass 0: the selected word and the watched pairs, pass 1: the rest */
            size_t i = k;
            bool special = (int32_t)i == L->sel;
            for (int p = 0; p < N_PAIRS; p++)
                special |= (int32_t)i == L->pair_id[p][0] || (int32_t)i == L->pair_id[p][1];
            if (special != (pass == 0))
                continue;
            int cx = (int)lround((xy[2 * i] - x0) / (x1 - x0) * (bw - 1));
            int cy = (int)lround((y1 - xy[2 * i + 1]) / (y1 - y0) * (bh - 1));
            const char *word = L->s.m.words[i];
            int wd = term_text_width(word);
            bool fits = cx + wd < cols;
            for (int j = 0; fits && j <= wd; j++)
                fits = !used[(size_t)cy * cols + cx + j];
            int pair = 0;
            for (int p = 0; p < N_PAIRS - 1; p++)
                if ((int32_t)i == L->pair_id[p][0] || (int32_t)i == L->pair_id[p][1])
                    pair = term_pair(&curve_rgb[p], NULL);
            if ((int32_t)i == L->sel)
                term_attr(w, A_REVERSE | A_BOLD, 0);
            else
                term_attr(w, special ? A_BOLD : A_NORMAL, pair);
            if (fits) {
                term_text(w, y + 1 + cy, x + cx, word, wd);
                for (int j = 0; j <= wd && cx + j < cols; j++)
                    used[(size_t)cy * cols + cx + j] = 1;
            } else if (!used[(size_t)cy * cols + cx]) {
                term_text(w, y + 1 + cy, x + cx, ".", 1);
                used[(size_t)cy * cols + cx] = 1;
            }
        }
    }
    term_attr(w, A_NORMAL, 0);
    tui_fit(w, y + rows - 1, x, cols, T_L_MAPVAR, T_L_MAPVAR_S, 100.0 * r.var[0] / r.var_total,
            100.0 * r.var[1] / r.var_total);
    pca_free(&r);
    free(xy);
    free(used);
}

static void draw_neighbors(learned_state *L, WINDOW *w, int y, int x, int rows, int cols)
{
    if (L->sel < 0 || rows < 2)
        return;
    term_attr(w, A_BOLD, 0);
    tui_fit(w, y, x, cols, T_L_NEIGH, T_L_NEIGH_S, L->s.m.words[L->sel]);
    term_attr(w, A_NORMAL, 0);
    tf_vectors vv;
    w2v_vectors_view(&L->s.m, &vv);
    vectors_hit hits[N_NEIGH];
    size_t n = vectors_neighbors(&vv, (uint32_t)L->sel, N_NEIGH, hits);
    /* two columns of "word +0.87" */
    int colw = cols / 2, lines = rows - 1;
    for (size_t i = 0; i < n; i++) {
        int r = (int)i % lines, c = (int)i / lines;
        if (c > 1)
            break;
        char buf[96];
        snprintf(buf, sizeof buf, "%zu %s", i + 1, vv.words[hits[i].row]);
        int cx = x + c * colw;
        term_text(w, y + 1 + r, cx, buf, colw - 7);
        term_printf(w, y + 1 + r, cx + colw - 7, 6, "%+.2f", hits[i].cosine);
    }
}

static void draw(tui *t, void *state, WINDOW *w, int y, int x, int rows, int cols)
{
    learned_state *L = state;
    if (!L || !learning_open(t, L)) {
        tui_say(w, y + 1, x + 2, cols - 4, T_L_FAILED);
        return;
    }
    /* state line */
    const txt_id phase = L->pr.done ? T_L_DONE : L->live.running ? T_L_RUNNING : T_L_PAUSED;
    term_attr(w, A_BOLD, 0);
    int sx = x + 1 + term_text(w, y, x + 1, txt(phase), cols / 3);
    term_attr(w, A_NORMAL, 0);
    int epoch = L->pr.epoch < L->s.m.p.epochs ? L->pr.epoch + 1 : L->s.m.p.epochs; /* 1-based */
    tui_fit(w, y, sx + 1, cols - sx - 2, T_L_PROGRESS, T_L_PROGRESS_S, epoch, L->s.m.p.epochs,
            (unsigned long long)L->pr.words_done, (unsigned long long)L->pr.words_total,
            L->pr.alpha, frame_words(L), L->s.m.V, L->s.m.dim);
    int left = cols * 11 / 20, top = y + 1, avail = rows - 1;
    int nb = avail >= 22 ? 6 : 4; /* rows of the neighbour list */
    draw_curves(L, w, top, x + 1, avail - nb, left - 2);
    draw_neighbors(L, w, top + avail - nb, x + 1, nb, left - 2);
    draw_map(L, w, top, x + left + 1, avail, cols - left - 2);
    const learn_session *s = &L->s;
    snprintf(t->cursor, sizeof t->cursor, "%s-%s %+.3f  %s-%s %+.3f  %s-%s %+.3f",
             learn_pair(s, shown_pairs[0], 0), learn_pair(s, shown_pairs[0], 1),
             L->hcos[0][L->n - 1], learn_pair(s, shown_pairs[1], 0),
             learn_pair(s, shown_pairs[1], 1), L->hcos[1][L->n - 1],
             learn_pair(s, shown_pairs[2], 0), learn_pair(s, shown_pairs[2], 1),
             L->hcos[2][L->n - 1]);
}

static int key(tui *t, void *state, int ch)
{
    learned_state *L = state;
    if (!L || !learning_open(t, L))
        return TUI_IGNORED;
    switch (ch) {
    case ' ':
    case 'p': /* the lesson's Space goes on: p pauses there and here */
        if (!tui_live_toggle(&L->live, L->pr.done))
            return TUI_IGNORED;
        snprintf(t->msg, sizeof t->msg, "%s", txt(L->live.running ? T_L_RUNNING : T_L_PAUSED));
        return TUI_REDRAW;
    case 'n':
    case '.':
        L->live.running = false;
        return step_once(t, L, (uint64_t)frame_words(L)) | TUI_REDRAW;
    case 'r':
        w2v_model_reset(&L->s.m);
        tui_live_restart(&L->live, L->pr.done);
        restart(L);
        snprintf(t->msg, sizeof t->msg, "%s", txt(T_L_RESET));
        return TUI_REDRAW;
    case '+':
    case '=':
    case '>':
        L->speed = L->speed * 2 < SPEED_MAX ? L->speed * 2 : SPEED_MAX;
        txt_fmt(t->msg, sizeof t->msg, T_L_SPEED, L->speed);
        return TUI_REDRAW;
    case '-':
    case '_':
    case '<':
        if (L->speed > SPEED_MIN)
            L->speed /= 2;
        txt_fmt(t->msg, sizeof t->msg, T_L_SPEED, L->speed);
        return TUI_REDRAW;
    case 'u':
        return t->lesson ? TUI_IGNORED : apply(t, L);
    case KEY_UP:
        L->sel = L->sel > 0 ? L->sel - 1 : (int32_t)L->s.m.V - 1;
        return TUI_REDRAW;
    case KEY_DOWN:
        L->sel = L->sel + 1 < (int32_t)L->s.m.V ? L->sel + 1 : 0;
        return TUI_REDRAW;
    case KEY_LEFT:
    case KEY_RIGHT: {
        size_t k = L->preset_i;
        for (size_t tries = 0; tries < N_PRESET; tries++) {
            k = ch == KEY_RIGHT ? (k + 1) % N_PRESET : (k + N_PRESET - 1) % N_PRESET;
            int32_t id = w2v_lookup(&L->s.m, L->preset[k], strlen(L->preset[k]));
            if (id >= 0) {
                L->sel = id, L->preset_i = k;
                break;
            }
        }
        return TUI_REDRAW;
    }
    default:
        return TUI_IGNORED;
    }
}

const tui_view view_word_vectors = {
    .figure = "embedding-map", .tab = T_TAB_LEARNED, .caption = T_CAP_LEARNED,
    .keys = T_KEYS_LEARNED,
    .needs = 0, .init = init, .free = release, .draw = draw, .key = key, .tick = tick,
    .frame_ms = frame_ms, .export_prep = export_prep,
};
