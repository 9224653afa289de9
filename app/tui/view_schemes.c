/* view_schemes.c — view 9: two position schemes side by side, beyond the article.
 *
 * Each half shows one scheme (scheme.h): what it puts between query i and key j for the first
 * positions (a similarity, RoPE's score or a bias: a heatmap, row i the query), and the same
 * against distance k = i - j on a logarithmic axis out past its trained length L, which a dotted
 * column marks; below, what the scheme does past L. The schemes start as the first two of
 * positions_compared, in the order of --print schemes and the schemes figure (--scheme's, else
 * none and sinusoidal; one listed: beside none); s and S change them, m the mask, h the head of
 * ALiBi and T5, x RoPE's scaling. The numbers come from model/positions.h, the same as --print
 * schemes and the schemes figure. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "positions.h"
#include "style.h"
#include "tui/view.h"

#define CURVE_MAX_K 100000L /* the curve's axis ends here at most */
#define MAT_MAX 64          /* positions in a heatmap at most */

typedef struct {
    tf_positions p;         /* the view's own copy: its two schemes, mask, head, scaling */
    tf_scheme s[2];
    bool init;              /* p copied from the configuration */
    tf_posctx pc;
    bool open;
    uint64_t made;          /* the tag (analysis generation, choice) pc was made for */
    unsigned version;       /* counts changes of the choice */
    bool dirty;             /* the choice changed since */
    char why[200];          /* why pc could not be made */
    /* the curves against distance 0 .. R, cached with pc */
    double *curve[2];
    long R;
} sch_state;

static void *init(tui *t)
{
    (void)t;
    return calloc(1, sizeof(sch_state));
}

static void drop(sch_state *st)
{
    for (int h = 0; h < 2; h++) {
        free(st->curve[h]);
        st->curve[h] = NULL;
    }
    if (st->open)
        posctx_close(&st->pc);
    st->open = false;
}

static void release(void *state)
{
    sch_state *st = state;
    if (st)
        drop(st);
    free(st);
}

/* The first two schemes of positions_compared, the order --print schemes and the schemes figure
 * show them in (none listed: none beside sinusoidal); one listed: beside the first other one of
 * the default order. */
static void first_choice(sch_state *st, const tf_config *c)
{
    if (c->positions)
        st->p = *c->positions;
    else
        positions_defaults(&st->p);
    tf_scheme list[SCHEME_COUNT];
    size_t n = positions_compared(&st->p, list);
    st->s[0] = list[0];
    st->s[1] = n > 1 ? list[1] : list[0] == SCHEME_NONE ? SCHEME_SINUSOIDAL : SCHEME_NONE;
    st->init = true;
}

static bool scaled_in(const tf_positions *p, tf_scheme s)
{
    return s == SCHEME_ROPE && p->scaling.kind != ROPE_SCALING_NONE;
}

static bool scaled(const sch_state *st, tf_scheme s) { return scaled_in(&st->p, s); }

/* Where the curve's axis ends: past the longest trained length (a scaled RoPE's factor times
 * it) by half again, and at least the positions shown. */
static long curve_end(const tf_positions *p, const tf_posctx *pc, const tf_scheme s[2], long n)
{
    double longest = 0;
    for (int h = 0; h < 2; h++) {
        double L = (double)posctx_trained(pc, s[h]);
        if (scaled_in(p, s[h]))
            L *= fmax(p->scaling.factor, 1.0);
        longest = fmax(longest, L);
    }
    double R = fmax(1.5 * longest, (double)n);
    return R < 16 ? 16 : R > CURVE_MAX_K ? CURVE_MAX_K : (long)R;
}

/* pc and the curves, made on the worker (work.c): at d_model 4096 and n = 10,000 they take
 * seconds. The job has its own copy of the choice and the configuration. */
typedef struct {
    tf_positions p;
    tf_scheme s[2];
    int d;
    double base;
    rope_style rope;
    uint64_t seed;
    long n;
    tf_posctx pc;
    bool open;
    double *curve[2];
    long R;
    tf_status st;
    const char *why; /* posctx_open's reason, or NULL */
} sch_job;

static bool job_run(void *ctx, const atomic_bool *cancel)
{
    sch_job *j = ctx;
    j->st = posctx_open(&j->pc, &j->p, j->d, j->base, j->rope, j->seed, &j->why);
    if (j->st != TF_OK)
        return true;
    j->open = true;
    j->R = curve_end(&j->p, &j->pc, j->s, j->n);
    for (int h = 0; h < 2 && j->st == TF_OK; h++) {
        if (atomic_load(cancel))
            return false;
        j->curve[h] = malloc((size_t)(j->R + 1) * sizeof *j->curve[h]);
        j->st = j->curve[h] ? posctx_curve(&j->pc, j->s[h], scaled_in(&j->p, j->s[h]), 0,
                                           j->R + 1, j->curve[h])
                            : TF_ERR_NOMEM;
    }
    return true;
}

static void job_drop(void *ctx)
{
    sch_job *j = ctx;
    for (int h = 0; h < 2; h++)
        free(j->curve[h]);
    if (j->open)
        posctx_close(&j->pc);
    free(j);
}

static const work_kind sch_kind = {job_run, job_drop};

/* The job's result on screen: pc (whose own tables it points at move with it) and the
 * curves, or why they could not be made. */
static void adopt(sch_state *st, sch_job *j, uint64_t tag)
{
    drop(st);
    st->made = tag;
    st->why[0] = '\0';
    if (j->st != TF_OK) {
        snprintf(st->why, sizeof st->why, "%s", j->why ? j->why : txt_status(j->st));
        job_drop(j);
        return;
    }
    st->pc = j->pc;
    if (j->pc.table == &j->pc.own_table)
        st->pc.table = &st->pc.own_table;
    if (j->pc.t5 == &j->pc.own_t5)
        st->pc.t5 = &st->pc.own_t5;
    st->open = true;
    st->R = j->R;
    for (int h = 0; h < 2; h++)
        st->curve[h] = j->curve[h], j->curve[h] = NULL;
    j->open = false;
    job_drop(j);
}

/* pc and the curves for the analysis on screen and the choice: 1 when they are there, 0 while
 * the worker makes them (WORK_QUICK_MS are waited for first), -1 when they cannot be made (why
 * says so). */
static int ready(const tui *t, sch_state *st)
{
    const tf_config *c = &t->a->cfg;
    if (!st->init)
        first_choice(st, c);
    if (st->dirty)
        st->version++, st->dirty = false;
    uint64_t tag = (uint64_t)t->generation << 32 | st->version;
    if (st->made == tag && (st->open || st->why[0]))
        return st->open ? 1 : -1;
    sch_job *j = work_take(st, tag);
    if (!j && !work_pending(st, tag)) {
        j = calloc(1, sizeof *j);
        if (!j) {
            snprintf(st->why, sizeof st->why, "%s", txt_status(TF_ERR_NOMEM));
            return -1;
        }
        j->p = st->p;
        j->p.list[0] = st->s[0];
        j->p.list[1] = st->s[1];
        j->p.n = st->s[0] == st->s[1] ? 1 : 2;
        j->s[0] = st->s[0], j->s[1] = st->s[1];
        j->d = c->d_model, j->base = c->base, j->rope = c->rope, j->seed = c->seed;
        j->n = c->n_positions;
        bool small = (double)j->n * j->d < 1e6; /* its curves come with this frame */
        work_submit(st, tag, &sch_kind, j); /* j is the worker's now: it may free it at once */
        if (small) {
            work_wait(st, tag, WORK_QUICK_MS);
            j = work_take(st, tag);
        } else {
            j = NULL;
        }
    }
    if (!j) { /* what was made for another choice or analysis is never drawn as this one's */
        drop(st);
        st->made = 0;
        return 0;
    }
    adopt(st, j, tag);
    return st->open ? 1 : -1;
}

/* ---------------------------------------------------------------------------------------------
 * Drawing */

typedef struct {
    const double *m; /* (n, n) */
    long n;
} mat_ctx;

static double mat_px(void *ctx, int py, int px)
{
    const mat_ctx *c = ctx;
    return py < c->n && px < c->n ? c->m[(size_t)py * c->n + px] : NAN;
}

/* What scheme s puts between query i and key j, i, j < n: the learned table's cosine, else its
 * value at distance i - j. */
static tf_status matrix(const sch_state *st, tf_scheme s, long n, double *out)
{
    if (s == SCHEME_LEARNED) {
        const tf_learned_pe *tb = st->pc.table;
        long m = n < tb->n_pos ? n : tb->n_pos;
        for (size_t i = 0; i < (size_t)(n * n); i++)
            out[i] = NAN;
        double *g = malloc((size_t)(m * m) * sizeof *g);
        if (!g)
            return TF_ERR_NOMEM;
        tf_status r = learned_pe_gram(tb, true, 0, m, g);
        for (long i = 0; r == TF_OK && i < m; i++)
            memcpy(out + i * n, g + i * m, (size_t)m * sizeof *g);
        free(g);
        return r;
    }
    double *v = malloc((size_t)(2 * n - 1) * sizeof *v);
    if (!v)
        return TF_ERR_NOMEM;
    tf_status r = posctx_curve(&st->pc, s, scaled(st, s), -(n - 1), 2 * n - 1, v);
    for (long i = 0; r == TF_OK && i < n; i++)
        for (long j = 0; j < n; j++)
            out[i * n + j] = v[i - j + n - 1];
    free(v);
    return r;
}

static const txt_id what_id[SCHEME_COUNT] = {
    [SCHEME_NONE] = T_S9_NONE,   [SCHEME_SINUSOIDAL] = T_S9_SIN, [SCHEME_LEARNED] = T_S9_LEARNED,
    [SCHEME_ROPE] = T_S9_ROPE,   [SCHEME_ALIBI] = T_S9_ALIBI,    [SCHEME_T5] = T_S9_T5};
static const txt_id what_short[SCHEME_COUNT] = {
    [SCHEME_NONE] = T_S9_NONE_S,       [SCHEME_SINUSOIDAL] = T_S9_SIN_S,
    [SCHEME_LEARNED] = T_S9_LEARNED_S, [SCHEME_ROPE] = T_S9_ROPE_S,
    [SCHEME_ALIBI] = T_S9_ALIBI_S,     [SCHEME_T5] = T_S9_T5_S};
static const txt_id past_id[SCHEME_COUNT] = {
    [SCHEME_NONE] = T_S9_PAST_NONE,   [SCHEME_SINUSOIDAL] = T_S9_PAST_SIN,
    [SCHEME_LEARNED] = T_S9_PAST_LEARNED, [SCHEME_ROPE] = T_S9_PAST_ROPE,
    [SCHEME_ALIBI] = T_S9_PAST_ALIBI, [SCHEME_T5] = T_S9_PAST_T5};

/* The half's title: the scheme and its parameters. */
static void title(const sch_state *st, tf_scheme s, char *buf, size_t cap)
{
    const tf_positions *p = &st->p;
    char extra[96] = "";
    if (s == SCHEME_ALIBI)
        snprintf(extra, sizeof extra, "  m=%.4g (%d/%d)", st->pc.slopes[p->head], p->head + 1,
                 p->heads);
    else if (s == SCHEME_T5)
        snprintf(extra, sizeof extra, "  %s %d/%d", st->pc.t5->trained ? "file" : txt(T_S9_RANDOM),
                 p->head + 1, st->pc.t5->heads);
    else if (s == SCHEME_LEARNED)
        snprintf(extra, sizeof extra, "  %ldx%d %s", st->pc.table->n_pos, st->pc.table->d,
                 st->pc.table->trained ? "file" : txt(T_S9_RANDOM));
    else if (scaled(st, s))
        snprintf(extra, sizeof extra, " + %s x%g", rope_scaling_name(p->scaling.kind),
                 p->scaling.factor);
    snprintf(buf, cap, "%s%s", scheme_name(s), extra);
}

/* The signal between the first n positions of scheme s at (y, x): a title, n/2 rows of
 * heatmap, the range. The rows used. */
static int draw_matrix(const sch_state *st, tf_scheme s, WINDOW *w, int y, int x, int wd,
                       long n)
{
    double *m = malloc((size_t)(n * n) * sizeof *m);
    if (!m || matrix(st, s, n, m) != TF_OK) {
        free(m);
        return 0;
    }
    double lo = INFINITY, hi = -INFINITY;
    for (long i = 0; i < n * n; i++)
        if (isfinite(m[i]))
            lo = fmin(lo, m[i]), hi = fmax(hi, m[i]);
    if (!(hi > lo))
        lo = fmin(lo, 0) - 1, hi = fmax(hi, 0) + 1;
    cmap_id cm = lo < 0 && hi > 0 ? CMAP_RDBU : CMAP_VIRIDIS;
    if (cm == CMAP_RDBU)
        hi = fmax(-lo, hi), lo = -hi;
    mat_ctx mc = {m, n};
    char head[160];
    txt_fmt(head, sizeof head, T_S9_MATRIX, n);
    if (term_text_width(head) > wd)
        txt_fmt(head, sizeof head, T_S9_MATRIX_S, n);
    term_text(w, y, x, head, wd);
    term_heatmap(w, y + 1, x + 4, (int)n / 2, (int)n, mat_px, &mc, cm, lo, hi);
    for (int r = 0; r < n / 2; r += 4)
        term_printf(w, y + 1 + r, x, 4, "%3d", 2 * r);
    bool masked = st->p.mask == SCHEME_MASK_CAUSAL && !scheme_adds_to_input(s) &&
                  s != SCHEME_ROPE;
    term_printf(w, y + 1 + (int)n / 2, x + 4, wd - 4, "%.3g .. %.3g%s", lo, hi,
                masked ? txt(T_S9_MASKED) : "");
    free(m);
    return (int)n / 2 + 2;
}

/* Curve h against distance 1 .. R on a log axis at (y, x), ph rows of plot; the trained length
 * L a dotted column. The rows used. */
static int draw_curve(const sch_state *st, int h, WINDOW *w, int y, int x, int wd, int ph)
{
    tf_scheme s = st->s[h];
    int pw = wd - 7;
    const double *v = st->curve[h];
    double lo = INFINITY, hi = -INFINITY;
    for (long k = 1; k <= st->R; k++)
        if (isfinite(v[k]))
            lo = fmin(lo, v[k]), hi = fmax(hi, v[k]);
    if (s == SCHEME_ALIBI)
        lo = fmax(lo, -12.0); /* e^-12 of the nearest key's weight: the line may leave */
    if (poscurve_quantity_of(s) != POSCURVE_BIAS) /* similarities and scores on their own scale:
                                                     an untrained table's noise stays flat */
        lo = fmin(lo, -1.0), hi = fmax(hi, 1.0);
    if (!(hi > lo))
        lo -= 1, hi += 1;
    long L = posctx_trained(&st->pc, s);
    term_canvas cv;
    if (ph < 3 || pw < 10 || term_canvas_init(&cv, ph, pw, 0, log10((double)st->R), lo, hi) != 0)
        return 0;
    static const txt_id quantity[POSCURVE_COUNT] = {
        [POSCURVE_BIAS] = T_S9_Q_BIAS, [POSCURVE_SIMILARITY] = T_S9_Q_SIMILARITY,
        [POSCURVE_SCORE] = T_S9_Q_SCORE};
    tui_fit(w, y, x, wd, T_S9_CURVE, T_S9_CURVE_S, txt(quantity[poscurve_quantity_of(s)]));
    double *xs = malloc((size_t)st->R * sizeof *xs);
    if (xs) {
        for (long k = 1; k <= st->R; k++)
            xs[k - 1] = log10((double)k);
        term_canvas_line(&cv, xs, v + 1, (int)st->R, 1);
        free(xs);
    }
    if (L > 0 && L <= st->R)
        for (int r = 0; r < 4 * ph; r += 2)
            term_canvas_dot(&cv, log10((double)L), lo + (hi - lo) * r / (4.0 * ph - 1), 2);
    /* the scheme's colour in every figure (style.h), or the nearest the terminal has */
    tf_rgb cols[2] = {style_scheme(s, scaled(st, s) ? st->p.scaling.kind : ROPE_SCALING_NONE)->color,
                      {150, 150, 150}};
    int pairs[2] = {term_pair(&cols[0], NULL), term_pair(&cols[1], NULL)};
    term_canvas_draw(&cv, w, y + 1, x + 7, pairs, 2);
    term_canvas_free(&cv);
    term_printf(w, y + 1, x, 7, "%6.3g", hi);
    term_printf(w, y + ph, x, 7, "%6.3g", lo);
    char end[48];
    if (L > 0)
        snprintf(end, sizeof end, "L=%ld   k=%ld (log)", L, st->R);
    else
        snprintf(end, sizeof end, "k=%ld (log)", st->R);
    int ew = term_text_width(end);
    if (ew + 4 <= pw) /* k=1 at the left when the two labels do not meet */
        term_text(w, y + ph + 1, x + 7, "k=1", 3);
    term_text(w, y + ph + 1, x + 7 + (ew < pw ? pw - ew : 0), end, pw);
    return ph + 2;
}

/* What scheme s does past its trained length; RoPE with one: the share of pairs at unseen
 * angles at 2L, plain and (with a scaling) scaled. */
static void past_sentence(const sch_state *st, tf_scheme s, char *buf, size_t cap)
{
    long L = posctx_trained(&st->pc, s);
    if (s != SCHEME_ROPE || L <= 0) {
        snprintf(buf, cap, "%s", txt(past_id[s]));
        return;
    }
    double u0 = posctx_unseen(&st->pc, false, 2.0 * L);
    if (st->p.scaling.kind == ROPE_SCALING_NONE)
        txt_fmt(buf, cap, T_S9_PAST_ROPE_PLAIN, 2 * L, 100 * u0);
    else
        txt_fmt(buf, cap, T_S9_PAST_ROPE_L, 2 * L, 100 * u0,
                100 * posctx_unseen(&st->pc, true, 2.0 * L));
}

/* The rows half h's sentence past L takes, wd columns wide. */
static int past_rows(const sch_state *st, int h, int wd)
{
    char buf[320];
    past_sentence(st, st->s[h], buf, sizeof buf);
    return term_wrap(NULL, 0, 0, wd, 6, 1, buf);
}

/* One half at (y, x), wd columns wide, rows tall: the scheme, its matrix, its curve, what it
 * does past L. The curve has the rows first; the matrix what is left. need: the rows kept for
 * the longer of the two sentences past L, so that both halves' matrices and curves have the
 * same size and rows, side by side. */
static void draw_half(tui *t, sch_state *st, int h, WINDOW *w, int y, int x, int wd, int rows,
                      int need)
{
    tf_scheme s = st->s[h];
    char buf[320];
    term_attr(w, A_BOLD, 0);
    title(st, s, buf, sizeof buf);
    term_printf(w, y, x, wd, "%c: %s", 'A' + h, buf);
    term_attr(w, A_NORMAL, 0);
    /* what the scheme is, whole: two lines, or its shorter form on a narrow screen */
    const char *what = txt(what_id[s]);
    if (term_wrap(NULL, 0, 0, wd, 64, 1, what) > 2)
        what = txt(what_short[s]);
    term_wrap(w, y + 1, x, wd, 2, 1, what);
    int above = 3;
    /* the sentence past L, whole: it is the point of the view */
    past_sentence(st, s, buf, sizeof buf);
    /* rows: 3 above, the matrix's title and range and n/2 rows, the curve's title, plot and
     * labels, the sentence below */
    int want = rows / 4 < 4 ? 4 : rows / 4 > 10 ? 10 : rows / 4;
    long n = wd - 6, budget = rows - above - 2 - (want + 2) - need;
    n = n < 2 * budget ? n : 2 * budget;
    n = n < MAT_MAX ? n : MAT_MAX;
    n = n < t->a->cfg.n_positions ? n : t->a->cfg.n_positions;
    n -= n % 2;
    int yy = y + above;
    if (n >= 4)
        yy += draw_matrix(st, s, w, yy, x, wd, n);
    int ph = rows - (yy - y) - 2 - need;
    yy += draw_curve(st, h, w, yy, x, wd, ph < 10 ? ph : 10);
    if (yy < y + rows)
        term_wrap(w, yy, x, wd, y + rows - yy, 1, buf);
}

static void draw(tui *t, void *state, WINDOW *w, int y, int x, int rows, int cols)
{
    sch_state *st = state;
    if (!st)
        return;
    int r = ready(t, st);
    if (r <= 0) {
        if (r < 0)
            term_wrap(w, y, x + 1, cols - 2, rows, 1, st->why);
        else
            work_say(t, w, y, x + 1, cols - 2);
        return;
    }
    int wd = (cols - 3) / 2, n0 = past_rows(st, 0, wd), n1 = past_rows(st, 1, wd);
    draw_half(t, st, 0, w, y, x + 1, wd, rows, n0 > n1 ? n0 : n1);
    draw_half(t, st, 1, w, y, x + 2 + wd, wd, rows, n0 > n1 ? n0 : n1);
    snprintf(t->cursor, sizeof t->cursor, "A=%s  B=%s  mask=%s  head=%d  scaling=%s",
             scheme_name(st->s[0]), scheme_name(st->s[1]), scheme_mask_name(st->p.mask),
             st->p.head + 1, rope_scaling_name(st->p.scaling.kind));
}

/* ---------------------------------------------------------------------------------------------
 * Keys */

static int key(tui *t, void *state, int ch)
{
    sch_state *st = state;
    if (!st)
        return TUI_IGNORED;
    if (!st->init)
        first_choice(st, &t->a->cfg);
    tf_positions *p = &st->p;
    switch (ch) {
    case 's':
    case 'S': {
        int h = ch == 'S';
        st->s[h] = (tf_scheme)((st->s[h] + 1) % SCHEME_COUNT);
        break;
    }
    case 'm':
        p->mask = p->mask == SCHEME_MASK_CAUSAL ? SCHEME_MASK_SYMMETRIC : SCHEME_MASK_CAUSAL;
        break;
    case 'h': {
        int heads = p->heads;
        if (p->t5 && p->t5->heads < heads)
            heads = p->t5->heads;
        p->head = (p->head + 1) % (heads > 0 ? heads : 1);
        break;
    }
    case 'x': {
        /* none, linear, ntk, yarn, llama3, with each method's own defaults */
        rope_scaling_kind k = (rope_scaling_kind)((p->scaling.kind + 1) % ROPE_SCALING_COUNT);
        rope_scaling_defaults(k, &p->scaling);
        if (p->trained > 0 && k != ROPE_SCALING_NONE)
            p->scaling.original = p->trained;
        break;
    }
    default:
        return TUI_IGNORED;
    }
    st->dirty = true;
    return TUI_REDRAW;
}

/* e exports the schemes figure of the two schemes on screen, with the view's mask, head and
 * scaling. */
static int export_prep(tui *t, void *state, fig_request *req)
{
    (void)t;
    sch_state *st = state;
    if (st && st->open)
        req->positions = &st->pc.p;
    return TUI_IGNORED;
}

const tui_view view_schemes = {
    .figure = "schemes", .tab = T_TAB_SCHEMES, .caption = T_CAP_SCHEMES, .keys = T_KEYS_SCHEMES,
    .needs = 0, .init = init, .free = release, .draw = draw, .key = key,
    .export_prep = export_prep,
};
