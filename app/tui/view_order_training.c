/* view_order_training.c — view 10 (key 0): word order, trained (claim C6, docs/math.md part 5).
 *
 * One attention layer learns "who does it" once per position scheme (none, sinusoidal, learned,
 * rope by default, or --scheme's), from the same weights on the same batches, while the class
 * watches: a few milliseconds of training each frame (the event loop calls tick() between key
 * presses, so a key is answered within a frame). On the left the held-out accuracy per epoch
 * with chance dashed, and the training loss; on the right, per scheme, the attention of one
 * held-out sentence and the doer each scheme names for both of its orders: without positions the
 * two orders are one bag of words, so `none` names the same word for both and is right on one. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "figure.h"
#include "learn/order.h"
#include "order_train.h"
#include "style.h"
#include "textwidth.h"
#include "tui/view.h"

/* milliseconds of training per frame of FRAME_MS; the last is full speed, which leaves a key
 * waiting at most 25 ms of training and a redraw (bench/bench_order_keys.py: the 50 ms target) */
static const int speeds[] = {1, 2, 5, 10, 15, 25};
#define N_SPEEDS (int)(sizeof speeds / sizeof *speeds)
#define SPEED_DEFAULT 2 /* 5 ms a frame: the default run takes ten to twenty seconds */
#define FRAME_MS 40
#define MAX_PAIRS 4096 /* held-out pairs the Left/Right keys go through */

typedef struct {
    tui_live live;
    int speed;           /* index into speeds */
    bool stepping;
    learn_order s;
    size_t target;       /* stepping: train until every curve has this many points */
    int head;            /* the attention head shown */
    uint32_t pairs[MAX_PAIRS]; /* held-out sentences to watch, each pair once */
    int n_pairs, pair;   /* how many, and the one shown */
    order_view v;        /* scratch for order_trainer_inspect */
    char *text;          /* the class's sentence the task was made with (owned) */
    size_t text_len;
} train_state;

static void ignore(const char *msg, void *ctx)
{
    (void)msg, (void)ctx;
}

/* The held-out sentences to watch: the task's example first, then every held-out sentence that
 * has a pair (once per pair), or every held-out sentence when none has. */
static void list_pairs(train_state *S)
{
    const order_task *t = &S->s.task;
    S->n_pairs = 0;
    S->pairs[S->n_pairs++] = t->example;
    for (int want_pair = 1; want_pair >= 0 && S->n_pairs <= 1; want_pair--)
        for (uint32_t i = 0; i < t->n_sent && S->n_pairs < MAX_PAIRS; i++) {
            bool ok = t->split[i] == ORDER_TEST && i != t->example &&
                      (uint32_t)t->pair[t->example] != i &&
                      (want_pair ? t->pair[i] > (int32_t)i : t->pair[i] < 0);
            if (ok)
                S->pairs[S->n_pairs++] = i;
        }
}

/* The task and the trainer, set up on first use; false when that failed (the message line says
 * why once). */
static bool training_open(tui *t, train_state *S)
{
    /* a new sentence (/ or c) makes a new task: its words join it */
    bool same = S->text && S->text_len == t->text_len &&
                memcmp(S->text, t->text, t->text_len) == 0;
    if (!same && (S->live.ready || S->live.failed)) {
        if (S->live.ready)
            learn_order_close(&S->s);
        S->live = (tui_live){0};
        S->stepping = false;
        S->pair = 0;
    }
    if (tui_live_tried(&S->live))
        return S->live.ready;
    free(S->text);
    S->text = malloc(t->text_len + 1);
    if (!S->text)
        return false;
    memcpy(S->text, t->text, t->text_len);
    S->text_len = t->text_len;
    /* the sentences learn_order_open says are the command line's: the view says its own */
    err_sink was = err_redirect((err_sink){ignore, NULL});
    order_request r = t->req->order;
    r.zh = txt_is_zh();
    r.sentence = t->text;
    r.sentence_len = t->text_len;
    r.cfg = &t->cfg;
    int rc = learn_order_open(&S->s, &r);
    err_redirect(was);
    if (rc) {
        txt_fmt(t->msg, sizeof t->msg, T_TR_FAILED,
                txt_is_zh() && S->s.why_zh[0] ? S->s.why_zh : S->s.why);
        return false;
    }
    tui_live_set_up(&S->live);
    S->speed = SPEED_DEFAULT;
    list_pairs(S);
    /* a sentence of another shape: why the built-in pair is watched (cut at a character) */
    char why[1200];
    if (learn_order_class_why(&S->s, why, sizeof why, txt_is_zh()))
        tw_cut(t->msg, sizeof t->msg, why, strlen(why), 300, "...");
    return true;
}

static void *init(tui *t)
{
    (void)t;
    return calloc(1, sizeof(train_state));
}

static void release(void *state)
{
    train_state *S = state;
    if (!S)
        return;
    if (S->live.ready)
        learn_order_close(&S->s);
    free(S->text);
    free(S);
}

static size_t points(const train_state *S)
{
    size_t n;
    order_trainer_curve(S->s.tr, 0, &n);
    return n;
}

/* A slice of training each frame while it runs (or steps to the next epoch); the help box and a
 * screen too small to draw on hold it. */
static int tick(tui *t, void *state)
{
    train_state *S = state;
    if (!S || t->help || COLS < 60 || LINES < 20 || !training_open(t, S))
        return TUI_IGNORED;
    if (!S->live.running && !S->stepping)
        return TUI_IGNORED;
    bool more = order_trainer_step_for(S->s.tr, speeds[S->speed]);
    if (S->stepping && (points(S) >= S->target || !more)) {
        S->stepping = false;
        S->live.running = false;
    }
    if (!more)
        S->live.running = false;
    return TUI_REDRAW;
}

static int frame_ms(void *state)
{
    (void)state;
    return FRAME_MS;
}

/* Stop training (the lesson leaves the step). */
static void still(void *state)
{
    train_state *S = state;
    if (S)
        S->live.running = S->stepping = false;
}

/* e exports the curves as far as they go; nothing trained yet: the message line says so. */
static int export_prep(tui *t, void *state, fig_request *req)
{
    train_state *S = state;
    if (!S || !S->live.ready || points(S) < 2) {
        snprintf(t->msg, sizeof t->msg, "%s", txt(T_TR_UNTRAINED));
        return TUI_REDRAW;
    }
    req->order = S->s.tr;
    req->order_task = S->s.path;
    return TUI_IGNORED;
}

/* ---------------------------------------------------------------------------------------------
 * Drawing */

/* Scheme k's colour in every figure (style.h), or the nearest the terminal has. */
static int scheme_pair(const train_state *S, size_t k)
{
    tf_rgb c = style_scheme(order_trainer_scheme(S->s.tr, k), ROPE_SCALING_NONE)->color;
    return term_pair(&c, NULL);
}

/* The last point of scheme k, NULL before the first evaluation. */
static const order_point *last_point(const train_state *S, size_t k)
{
    size_t n;
    const order_point *p = order_trainer_curve(S->s.tr, k, &n);
    return n ? &p[n - 1] : NULL;
}

/* "rope       held-out  99.8%", or the name alone before the first evaluation. */
static int scheme_label(const train_state *S, size_t k, const order_point *p, WINDOW *w, int y,
                        int x, int cols)
{
    const char *name = scheme_name(order_trainer_scheme(S->s.tr, k));
    if (!p)
        return term_text(w, y, x, name, cols);
    return term_printf(w, y, x, cols, txtf(T_TR_SCHEME), name, 100.0 * p->test_acc);
}

/* A canvas of rows x cols at (y, x + 5) with y labels in the 5 columns before it: every
 * scheme's curve of `what` (0 accuracy in %, 1 log10 of the loss) over the epochs. */
static void plot(const train_state *S, WINDOW *w, int y, int x, int rows, int cols, int what,
                 double lo, double hi, const char *const labels[3])
{
    const order_trainer *tr = S->s.tr;
    size_t K = order_trainer_count(tr);
    int epochs = order_trainer_cfg(tr)->epochs;
    term_canvas cv;
    if (rows < 2 || cols < 8 || term_canvas_init(&cv, rows, cols - 5, 0, epochs, lo, hi) != 0)
        return;
    if (what == 0) /* chance, dashed */
        for (int k = 0; k <= 2 * (cols - 5); k += 3)
            term_canvas_dot(&cv, epochs * k / (2.0 * (cols - 5)), 50.0, (int)K + 1);
    double xs[ORDER_MAX_EPOCHS + 1], ys[ORDER_MAX_EPOCHS + 1];
    for (size_t k = K; k-- > 0;) { /* the first scheme (none) drawn last, on top */
        size_t n;
        const order_point *p = order_trainer_curve(tr, k, &n);
        for (size_t i = 0; i < n; i++) {
            xs[i] = p[i].epoch;
            ys[i] = what == 0 ? 100.0 * p[i].test_acc : log10(fmax(p[i].loss, 1e-12));
        }
        if (n == 1)
            term_canvas_dot(&cv, xs[0], ys[0], (int)k + 1);
        else if (n > 1)
            term_canvas_line(&cv, xs, ys, (int)n, (int)k + 1);
    }
    int pairs[ORDER_MAX_SCHEMES + 1];
    tf_rgb grey = {128, 128, 128};
    for (size_t k = 0; k < K; k++)
        pairs[k] = scheme_pair(S, k);
    pairs[K] = term_pair(&grey, NULL);
    term_canvas_draw(&cv, w, y, x + 5, pairs, (int)K + 1);
    term_canvas_free(&cv);
    term_text(w, y, x, labels[0], 5);
    term_text(w, y + rows / 2, x, labels[1], 5);
    term_text(w, y + rows - 1, x, labels[2], 5);
    /* what the dashed line is, under its right end, where no trained curve runs */
    char line[96];
    txt_fmt(line, sizeof line, T_TR_ACC_LINE);
    int lw = term_text_width(line);
    if (what == 0 && rows >= 5 && lw <= cols - 7) {
        term_attr(w, A_NORMAL, pairs[K]);
        term_text(w, y + rows / 2 + 1, x + cols - lw, line, lw);
        term_attr(w, A_NORMAL, 0);
    }
}

/* The left column: the accuracy plot with its legend of the last values, the loss plot below
 * when there is room. */
static void draw_curves(const train_state *S, WINDOW *w, int y, int x, int rows, int cols)
{
    size_t K = order_trainer_count(S->s.tr);
    term_attr(w, A_BOLD, 0);
    tui_fit(w, y, x, cols, T_TR_ACC, T_TR_ACC_S);
    term_attr(w, A_NORMAL, 0);
    int loss_rows = rows >= 24 ? rows / 4 : 0;
    /* the legend repeats the right column's numbers in the curves' colours: it gives way when
     * the plot would keep fewer than 8 rows */
    int legend = rows - 1 - (loss_rows ? loss_rows + 1 : 0) - (int)K >= 8 ? (int)K : 0;
    int acc_rows = rows - 1 - legend - (loss_rows ? loss_rows + 1 : 0);
    static const char *const acc_l[3] = {"100", " 50", "  0"};
    plot(S, w, y + 1, x, acc_rows, cols, 0, 0, 100, acc_l);
    int ly = y + 1 + acc_rows;
    for (size_t k = 0; k < (size_t)legend; k++) { /* one line a scheme, in its colour */
        const order_point *p = last_point(S, k);
        term_attr(w, A_BOLD, scheme_pair(S, k));
        scheme_label(S, k, p, w, ly + (int)k, x + 5, cols - 5);
    }
    term_attr(w, A_NORMAL, 0);
    if (!loss_rows)
        return;
    int y2 = ly + legend;
    term_attr(w, A_BOLD, 0);
    term_printf(w, y2, x, cols, txtf(T_TR_LOSS));
    term_attr(w, A_NORMAL, 0);
    static const char *const loss_l[3] = {"10", "0.1", "0.001"};
    plot(S, w, y2 + 1, x, loss_rows, cols, 1, -3, 1, loss_l);
}

typedef struct {
    const order_view *v;
    int head, L, rows, cw; /* cw: columns a key takes */
} attn_ctx;

static double attn_px(void *ctx, int py, int px)
{
    const attn_ctx *a = ctx;
    int q = py * a->L / (2 * a->rows), k = px / a->cw;
    return k < a->L && q < a->L ? a->v->attn[a->head][q][k] : 0.0;
}

/* "我 爱 学习 → 我 right": sentence s and the doer scheme k names in it; compact: a check mark
 * or a cross instead of the word, where the terminal has them. */
static int answer(train_state *S, size_t k, uint32_t s, WINDOW *w, int y, int x, int cols,
                  bool compact)
{
    const order_task *t = &S->s.task;
    const uint32_t *tok = order_task_tokens(t, s);
    int L = (int)order_task_len(t, s);
    int pred = order_trainer_predict(S->s.tr, k, s);
    char sent[400], ans[96];
    size_t o = 0;
    for (int i = 0; i < L && o < sizeof sent - 80; i++)
        o += (size_t)snprintf(sent + o, sizeof sent - o, "%s%s", i ? " " : "", t->word[tok[i]]);
    if (pred < 0)
        return term_text(w, y, x, sent, cols);
    bool right = pred == t->doer[s];
    bool utf8 = term_text_width("\u2192") == 1;
    snprintf(ans, sizeof ans, " %s %s ", utf8 ? "\u2192" : "->", t->word[tok[pred]]);
    const char *verdict = txt(right ? T_TR_RIGHT : T_TR_WRONG);
    if (compact && utf8)
        verdict = right ? "\u2713" : "\u2717";
    /* the answer is the point: a long sentence gives way, cut with an ellipsis */
    int need = term_text_width(ans) + term_text_width(verdict);
    int used;
    if (term_text_width(sent) + need <= cols) {
        used = term_text(w, y, x, sent, cols);
    } else if (cols - need >= 4) { /* shortened at a word, "..." at its end */
        tw_ellipsize(sent, cols - need, !utf8);
        used = term_text(w, y, x, sent, cols - need);
    } else {
        used = term_text(w, y, x, utf8 ? "\u2026" : "", cols - need);
    }
    used += term_text(w, y, x + used, ans, cols - used);
    term_attr(w, A_BOLD | (right ? 0 : A_REVERSE), 0);
    used += term_text(w, y, x + used, verdict, cols - used);
    term_attr(w, A_NORMAL, 0);
    return used;
}

/* Scheme k's block: its name and held-out accuracy, the attention of the watched sentence
 * (rows query, columns key) and its answers for both orders. Returns the rows used. */
static int draw_scheme(train_state *S, size_t k, WINDOW *w, int y, int x, int rows, int cols)
{
    const order_task *t = &S->s.task;
    uint32_t s = S->pairs[S->pair];
    int L = (int)order_task_len(t, s);
    const order_point *p = last_point(S, k);
    term_attr(w, A_BOLD, scheme_pair(S, k));
    int used = scheme_label(S, k, p, w, y, x, cols);
    term_attr(w, A_NORMAL, 0);
    if (p && p->pair_same >= 0) { /* the long form, the short one, or none */
        char same[96];
        txt_fmt(same, sizeof same, T_TR_SAME, 100.0 * p->pair_same);
        if (term_text_width(same) > cols - used - 2)
            txt_fmt(same, sizeof same, T_TR_SAME_S, 100.0 * p->pair_same);
        if (term_text_width(same) <= cols - used - 2)
            term_text(w, y, x + used + 2, same, cols - used - 2);
    }
    int mh = rows - 1 < L ? rows - 1 : L; /* heatmap rows */
    if (mh < 1)
        return 1;
    int mx = x;
    /* one row: the two answers need it more than a heatmap one cell high; a long sentence gets
     * one column a key, or no heatmap where it would take more than a third of the row */
    int cw = 2 * L <= cols / 3 ? 2 : L <= cols / 3 ? 1 : 0;
    /* on a big screen the heatmap grows by whole cells, square (a cell twice as wide as a row
     * is tall), while it keeps to the block's rows and a third of the row */
    int f = L > 0 ? (rows - 1) / L : 0, fw = L > 0 ? cols / (6 * L) : 0;
    f = f < fw ? f : fw;
    if (cw == 2 && f > 1)
        mh = L * f, cw = 2 * f;
    bool map = (mh >= 2 || t->pair[s] < 0) && cw > 0;
    if (map && order_trainer_inspect(S->s.tr, k, order_task_tokens(t, s), L, &S->v) == TF_OK) {
        attn_ctx c = {&S->v, S->head < S->v.heads ? S->head : 0, L, mh, cw};
        term_heatmap(w, y + 1, x, mh, cw * L, attn_px, &c, CMAP_VIRIDIS, 0.0, 1.0);
        mx = x + cw * L + 2;
    }
    bool side = !map && t->pair[s] >= 0; /* both answers on one row */
    int a1 = answer(S, k, s, w, y + 1, mx, x + cols - mx, side);
    /* the other order below, or beside it when the block has one row: the pair's two answers
     * side by side are the point of the view */
    if (t->pair[s] >= 0 && mh >= 2)
        answer(S, k, (uint32_t)t->pair[s], w, y + 2, mx, x + cols - mx, false);
    else if (side && x + cols - (mx + a1 + 2) > 8)
        answer(S, k, (uint32_t)t->pair[s], w, y + 1, mx + a1 + 2, x + cols - (mx + a1 + 2),
               true);
    return 1 + mh;
}

/* The right column: the watched pair, the head, and one block a scheme. */
static void draw_schemes(tui *t, train_state *S, WINDOW *w, int y, int x, int rows, int cols)
{
    size_t K = order_trainer_count(S->s.tr);
    const order_model *m = order_trainer_model(S->s.tr, 0);
    term_attr(w, A_BOLD, 0);
    /* in the lesson Left and Right turn the page: no key to name; the first pair is the class's
     * sentence when it joined the task */
    bool mine = S->pair == 0 && S->s.class_used, s = t->lesson;
    tui_fit_f(w, y, x, cols,
              mine ? (s ? txtf(T_TR_CLASS_S) : txtf(T_TR_CLASS))
                   : (s ? txtf(T_TR_EXAMPLE_S) : txtf(T_TR_EXAMPLE)),
              mine ? txtf(T_TR_CLASS_S) : txtf(T_TR_EXAMPLE_S), S->pair + 1, S->n_pairs);
    term_attr(w, A_NORMAL, 0);
    int hy = y + 1;
    if (rows >= 4 + 3 * (int)K) {
        int u = term_printf(w, hy, x, cols, txtf(T_TR_HEAD), S->head + 1, m->c.heads);
        if (term_text_width(txt(T_TR_ATTN)) <= cols - u - 2) /* whole, or not at all */
            term_text(w, hy, x + u + 2, txt(T_TR_ATTN), cols - u - 2);
        hy++;
    }
    int each = (y + rows - hy) / (int)K;
    for (size_t k = 0; k < K; k++)
        draw_scheme(S, k, w, hy + (int)k * each, x, each, cols);
}

/* "5 ms/frame", or "full speed". */
static void speed_text(const train_state *S, char *buf, size_t cap)
{
    if (S->speed == N_SPEEDS - 1)
        snprintf(buf, cap, "%s", txt(T_TR_SPEED_MAX));
    else
        txt_fmt(buf, cap, T_TR_PER_FRAME, speeds[S->speed]);
}

/* The state line: training / paused / trained, the epoch, the speed and the task. */
static void draw_state(const train_state *S, WINDOW *w, int y, int x, int cols)
{
    const order_trainer *tr = S->s.tr;
    const order_train_cfg *c = order_trainer_cfg(tr);
    txt_id phase = order_trainer_done(tr) ? T_TR_DONE : S->stepping ? T_TR_STEPPING
                   : S->live.running ? T_TR_RUNNING : T_TR_PAUSED;
    term_attr(w, A_BOLD, 0);
    int sx = x + term_text(w, y, x, txt(phase), cols / 3) + 2;
    term_attr(w, A_NORMAL, 0);
    size_t n = points(S);
    int epoch = n ? (int)n - 1 : 0;
    char speed[64], task[160], line[400];
    speed_text(S, speed, sizeof speed);
    if (S->s.path)
        snprintf(task, sizeof task, "%s", S->s.path);
    else
        txt_fmt(task, sizeof task, T_TR_GENERATED, (unsigned long long)S->s.seed);
    txt_fmt(line, sizeof line, T_TR_STATE, epoch, c->epochs, speed, task,
            S->s.task.n_split[ORDER_TRAIN], S->s.task.n_split[ORDER_TEST], c->model.d_model,
            c->model.heads);
    if (term_text_width(line) > x + cols - sx)
        txt_fmt(line, sizeof line, T_TR_STATE_S, epoch, c->epochs, speed);
    term_text(w, y, sx, line, x + cols - sx);
}

/* The bottom line: why `none` sits at chance, with its numbers. */
static void draw_why(const train_state *S, WINDOW *w, int y, int x, int cols, int lines)
{
    size_t K = order_trainer_count(S->s.tr), none = K;
    for (size_t k = 0; k < K; k++)
        if (order_trainer_scheme(S->s.tr, k) == SCHEME_NONE)
            none = k;
    char buf[600];
    const order_point *p = none < K ? last_point(S, none) : NULL;
    if (none == K) {
        snprintf(buf, sizeof buf, "%s", txt(T_TR_WHY_NONE));
    } else if (!p) { /* before the first evaluation */
        return;
    } else if (p->pair_same < 0) {
        snprintf(buf, sizeof buf, "%s", txt(T_TR_NO_PAIR));
    } else {
        txt_fmt(buf, sizeof buf, T_TR_WHY, 100.0 * p->test_acc, 100.0 * p->pair_same);
        if (term_wrap(NULL, 0, 0, cols, 64, 1, buf) > lines)
            txt_fmt(buf, sizeof buf, T_TR_WHY_S, 100.0 * p->test_acc, 100.0 * p->pair_same);
    }
    term_attr(w, A_BOLD, 0);
    term_wrap(w, y, x, cols, lines, 1, buf);
    term_attr(w, A_NORMAL, 0);
}

static void draw(tui *t, void *state, WINDOW *w, int y, int x, int rows, int cols)
{
    train_state *S = state;
    if (!S || !training_open(t, S)) { /* what was wrong, in the interface's language */
        const char *why = !S || !S->s.why[0] ? txt_status(TF_ERR_NOMEM)
                          : txt_is_zh() && S->s.why_zh[0] ? S->s.why_zh : S->s.why;
        char buf[800];
        txt_fmt(buf, sizeof buf, T_TR_FAILED, why);
        term_wrap(w, y + 1, x + 2, cols - 4, rows - 2, 1, buf);
        return;
    }
    draw_state(S, w, y, x + 1, cols - 2);
    int why_lines = 2;
    int body = rows - 2 - why_lines;
    int left = cols * 9 / 20;
    draw_curves(S, w, y + 1, x + 1, body, left - 2);
    draw_schemes(t, S, w, y + 1, x + left + 1, body, cols - left - 2);
    draw_why(S, w, y + rows - why_lines, x + 1, cols - 2, why_lines);
    /* the status line: every scheme's held-out accuracy now, in whole percent rounded down
     * (never 100 % before every pair is right), short enough that the four schemes fit an
     * 80-column line beside the sentence */
    size_t o = 0;
    t->cursor[0] = '\0';
    for (size_t k = 0; k < order_trainer_count(S->s.tr) && o < sizeof t->cursor - 32; k++) {
        const order_point *p = last_point(S, k);
        if (p)
            o += (size_t)snprintf(t->cursor + o, sizeof t->cursor - o, "%s%s %d%%",
                                  o ? "  " : "", scheme_name(order_trainer_scheme(S->s.tr, k)),
                                  (int)floor(100.0 * p->test_acc + 1e-9));
    }
}

/* ---------------------------------------------------------------------------------------------
 * Keys */

static int say(tui *t, txt_id id)
{
    snprintf(t->msg, sizeof t->msg, "%s", txt(id));
    return TUI_REDRAW;
}

static int key(tui *t, void *state, int ch)
{
    train_state *S = state;
    if (!S || !training_open(t, S))
        return TUI_IGNORED;
    switch (ch) {
    case ' ':
    case 'p':
        if (!tui_live_toggle(&S->live, order_trainer_done(S->s.tr)))
            return TUI_IGNORED;
        S->stepping = false;
        return say(t, S->live.running ? T_TR_RUNNING : T_TR_PAUSED);
    case '.':
    case 'n':
        if (order_trainer_done(S->s.tr))
            return TUI_IGNORED;
        S->live.running = false;
        S->stepping = true;
        /* epoch 0's evaluation comes first: one more epoch is two points from the start */
        S->target = (points(S) ? points(S) : 1) + 1;
        return say(t, T_TR_STEP);
    case 'r': {
        /* a finished or running model trains again; a paused one stays paused (as view 8) */
        bool done = order_trainer_done(S->s.tr);
        order_trainer_reset(S->s.tr);
        tui_live_restart(&S->live, done);
        S->stepping = false;
        return say(t, S->live.running ? T_TR_RESET : T_TR_RESET_PAUSED);
    }
    case '>':
    case '<': {
        int sp = S->speed + (ch == '>' ? 1 : -1);
        S->speed = sp < 0 ? 0 : sp >= N_SPEEDS ? N_SPEEDS - 1 : sp;
        char v[64];
        speed_text(S, v, sizeof v);
        txt_fmt(t->msg, sizeof t->msg, T_TR_SPEED, v);
        return TUI_REDRAW;
    }
    case 'h':
        S->head = (S->head + 1) % order_trainer_model(S->s.tr, 0)->c.heads;
        return TUI_REDRAW;
    case KEY_LEFT:
    case KEY_RIGHT:
        S->pair = (S->pair + (ch == KEY_RIGHT ? 1 : S->n_pairs - 1)) % S->n_pairs;
        return TUI_REDRAW;
    default:
        return TUI_IGNORED;
    }
}

const tui_view view_order_training = {
    .figure = "order-training", .tab = T_TAB_TRAIN, .caption = T_CAP_TRAIN,
    .keys = T_KEYS_TRAIN,
    .needs = 0, .init = init, .free = release, .draw = draw, .key = key, .tick = tick,
    .frame_ms = frame_ms, .still = still, .export_prep = export_prep,
};
