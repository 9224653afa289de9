/* view_rope.c — view 7: RoPE rotates q and k instead of adding to the input (claim C13).
 *
 * Four panels: one pair of q's dimensions rotated at positions 0..7; the angle m * theta_i of
 * every position and pair; the score (R_m q) . (R_n k) against m - n for three values of n,
 * which fall on one curve because the score depends on the offset only; and the RoFormer
 * long-term decay bound. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "linalg.h"
#include "rope.h"
#include "tui/view.h"

#define ARROWS 8
#define SCORE_NS 3

typedef struct {
    const double *theta; /* (d/2) */
    int half, cols;
    long step;
} angle_ctx;

/* The angle m * theta_i wrapped to [0, 2 pi): pixel row = position, column = pair. */
static double angle_px(void *ctx, int py, int px)
{
    const angle_ctx *c = ctx;
    int i = (int)((long)px * c->half / c->cols);
    double a = fmod((double)py * c->step * c->theta[i], 2 * M_PI);
    return a;
}

#define MAX_R 64      /* the score curves reach m - n = +-64 at most */
#define DECAY_MAX 512 /* points of the decay curve */

typedef struct {
    int pair; /* the pair i on the plane */
    /* the score curves, which depend on the token, not on the pair shown: computed once per
     * token and analysis */
    double sc[SCORE_NS][2 * MAX_R + 1], smin, smax;
    unsigned sc_gen;
    size_t sc_tok;
    int sc_R;
    /* the decay curve (it costs d/2 complex terms a point) */
    double decay[DECAY_MAX];
    int decay_n;
    unsigned decay_gen;
    long decay_rmax;
} rope_state;

static void *init(tui *t)
{
    (void)t;
    rope_state *r = calloc(1, sizeof *r);
    if (r)
        r->sc_gen = r->decay_gen = ~0u;
    return r;
}

/* What the four panels share in one frame. */
typedef struct {
    const tf_analysis *a;
    int d, half;
    int pw, ph;          /* a panel's plot width and height in cells */
    int lx, rx;          /* the left and right columns' x */
    double *rot, *kn;    /* scratch: (d), (SCORE_NS, d) */
    double *theta;       /* (d/2) */
    const double *q, *k; /* (d) q of the selected token, k of the last */
    int pairs[3];        /* colour pairs of the curves */
} rope_frame;

/* A 5-column axis value with two decimals; one that rounds to zero is written 0 (never -0.00). */
static void axis_label(WINDOW *w, int y, int x, double v)
{
    if (fabs(v) < 0.005)
        term_text(w, y, x, "    0", 6);
    else
        term_printf(w, y, x, 6, "%5.2f", v);
}

/* A cell for arrow m's label at its tip (*cy, *cx), or pushed one or two cells further out
 * (sx, sy: outward), where it does not touch a label placed before it (at[0..m-1]: a blank
 * column between two labels of a row, so 7 and 1 never read 71). False when none is free. */
static bool label_spot(int at[][2], int m, int *cy, int *cx, int sx, int sy, int ph, int cw)
{
    const int tries[5][2] = {{0, 0}, {0, 1}, {1, 0}, {1, 1}, {0, 2}};
    for (int k = 0; k < 5; k++) {
        int y = *cy + tries[k][0] * sy, x = *cx + tries[k][1] * sx;
        bool free = y >= 0 && y < ph && x >= 0 && x < cw;
        for (int o = 0; o < m && free; o++)
            free = !(at[o][0] == y && abs(at[o][1] - x) <= 1);
        if (free) {
            at[m][0] = *cy = y, at[m][1] = *cx = x;
            return true;
        }
    }
    at[m][0] = at[m][1] = -9; /* no label: nothing to keep clear of */
    return false;
}

/* 1. the plane of the chosen pair: q at positions 0..ARROWS-1, each arrow's tip labelled. */
static void draw_plane(tui *t, const rope_state *st, const rope_frame *f, WINDOW *w, int y,
                       int cols)
{
    const tf_config *c = &f->a->cfg;
    int ia, ib;
    rope_pair(c->rope, f->d, st->pair, &ia, &ib);
    char tok[128];
    term_attr(w, A_BOLD, 0);
    tui_fit(w, y, f->lx, cols / 2 - 2, T_R7_PLANE, T_R7_PLANE_S, st->pair,
            tui_token(t, t->tok, tok, sizeof tok), f->theta[st->pair]);
    term_attr(w, A_NORMAL, 0);
    double r = hypot(f->q[ia], f->q[ib]);
    r = r > 0 ? r * 1.15 : 1;
    int ph = f->ph, cw = ph * 2 < f->pw ? ph * 2 : f->pw; /* square: 2 columns per row */
    term_canvas cv;
    if (term_canvas_init(&cv, ph, cw, -r, r, -r, r) != 0)
        return;
    for (int m = 0; m < 64; m++)
        term_canvas_dot(&cv, r / 1.15 * cos(2 * M_PI * m / 64), r / 1.15 * sin(2 * M_PI * m / 64),
                        2);
    double ends[ARROWS][2];
    for (int m = 0; m < ARROWS; m++) {
        rope_rotate(f->q, f->d, c->base, (double)m, c->rope, f->rot);
        double xs[2] = {0, f->rot[ia]}, ys[2] = {0, f->rot[ib]};
        ends[m][0] = f->rot[ia], ends[m][1] = f->rot[ib];
        term_canvas_line(&cv, xs, ys, 2, 1);
    }
    term_canvas_draw(&cv, w, y + 1, f->lx + 4, f->pairs, 3);
    int at[ARROWS][2];
    for (int m = 0; m < ARROWS; m++) {
        int cx = (int)lround((ends[m][0] + r) / (2 * r) * (cw - 1));
        int cy = (int)lround((r - ends[m][1]) / (2 * r) * (ph - 1));
        term_attr(w, A_BOLD, 0);
        if (label_spot(at, m, &cy, &cx, ends[m][0] > 0 ? 1 : -1, ends[m][1] > 0 ? -1 : 1, ph,
                       cw))
            term_printf(w, y + 1 + cy, f->lx + 4 + cx, 2, "%d", m);
    }
    term_attr(w, A_NORMAL, 0);
    term_canvas_free(&cv);
}

/* 2. the angle heatmap m * theta_i */
static void draw_angles(const rope_frame *f, WINDOW *w, int y)
{
    term_attr(w, A_BOLD, 0);
    tui_fit(w, y, f->rx, f->pw + 8, T_R7_ANGLE, T_R7_ANGLE_S);
    term_attr(w, A_NORMAL, 0);
    angle_ctx ac = {f->theta, f->half, f->pw, 1};
    term_heatmap(w, y + 1, f->rx + 6, f->ph, f->pw < f->half ? f->pw : f->half, angle_px, &ac,
                 CMAP_VIRIDIS, 0, 2 * M_PI);
    term_text(w, y + 1, f->rx, "m=0", 5);
    term_printf(w, y + f->ph, f->rx, 6, "m=%d", 2 * f->ph - 1);
}

static const int score_ns[SCORE_NS] = {0, 10, 40};

/* The score (R_m q) . (R_n k) for m - n in [-R, R] and each n, into the state's cache. */
static void score_curves(const tui *t, rope_state *st, const rope_frame *f, int R)
{
    if (st->sc_gen == t->generation && st->sc_tok == t->tok && st->sc_R == R)
        return;
    const tf_config *c = &f->a->cfg;
    int d = f->d;
    st->smin = INFINITY, st->smax = -INFINITY;
    for (int s = 0; s < SCORE_NS; s++) {
        rope_rotate(f->k, d, c->base, (double)score_ns[s], c->rope, f->kn + (size_t)s * d);
        for (int o = -R; o <= R; o++) {
            long m = score_ns[s] + o;
            if (m < 0) {
                st->sc[s][o + R] = NAN;
                continue;
            }
            rope_rotate(f->q, d, c->base, (double)m, c->rope, f->rot);
            st->sc[s][o + R] = la_dot(f->rot, f->kn + (size_t)s * d, (size_t)d);
            st->smin = fmin(st->smin, st->sc[s][o + R]);
            st->smax = fmax(st->smax, st->sc[s][o + R]);
        }
    }
    st->sc_gen = t->generation, st->sc_tok = t->tok, st->sc_R = R;
}

/* 3. the score against m - n for several n: one curve, since it depends on m - n only */
static void draw_scores(tui *t, rope_state *st, const rope_frame *f, WINDOW *w, int sy, int cols)
{
    int lx = f->lx, pw = f->pw, ph = f->ph;
    char tok[128], tok2[128];
    term_attr(w, A_BOLD, 0);
    tui_fit(w, sy - 1, lx, pw + 8, T_R7_SCORE, T_R7_SCORE_S, tui_token(t, t->tok, tok, sizeof tok),
            tui_token(t, f->a->tokens.n - 1, tok2, sizeof tok2));
    term_attr(w, A_NORMAL, 0);
    int R = pw < 24 ? pw : 24;
    score_curves(t, st, f, R);
    term_canvas cv;
    if (term_canvas_init(&cv, ph - 1, pw, -R, R, st->smin,
                         st->smax > st->smin ? st->smax : st->smin + 1) == 0) {
        double xs[2 * MAX_R + 1];
        for (int o = -R; o <= R; o++)
            xs[o + R] = o;
        /* n = 0 last: where the curves coincide, as they should, its colour shows */
        for (int s = SCORE_NS - 1; s >= 0; s--)
            term_canvas_line(&cv, xs, st->sc[s], 2 * R + 1, s + 1);
        term_canvas_draw(&cv, w, sy, lx + 6, f->pairs, 3);
        term_canvas_free(&cv);
    }
    term_printf(w, sy + ph - 1, lx + 6, pw, "-%d", R);
    term_printf(w, sy + ph - 1, lx + 6 + pw - 3, 3, "+%d", R);
    int legend = lx + 6 + (pw - 22) / 2;
    term_text(w, sy + ph - 1, legend, "m-n", 3);
    axis_label(w, sy, lx, st->smax);
    axis_label(w, sy + ph - 2, lx, st->smin);
    for (int s = 0; s < SCORE_NS; s++) {
        term_attr(w, A_NORMAL, f->pairs[s]);
        term_printf(w, sy + ph - 1, legend + 5 + 6 * s, 6, "n=%d", score_ns[s]);
    }
    term_attr(w, A_NORMAL, 0);
    tui_fit(w, sy + ph, lx, cols / 2 - 1, T_R7_CHECK, T_R7_CHECK_S, f->a->score_offset_max_dev,
            f->a->rope_check_positions);
}

/* 4. the RoFormer decay bound */
static void draw_decay(const tui *t, rope_state *st, const rope_frame *f, WINDOW *w, int sy,
                       int cols)
{
    const tf_config *c = &f->a->cfg;
    int d = f->d, pw = f->pw, ph = f->ph, rx = f->rx;
    long rmax = c->n_positions > 10 ? c->n_positions : 10;
    if (st->decay_gen != t->generation || st->decay_rmax != rmax || st->decay_n != 2 * pw) {
        st->decay_n = 2 * pw < DECAY_MAX ? 2 * pw : DECAY_MAX;
        for (int i = 0; i < st->decay_n; i++)
            st->decay[i] = rope_decay_bound(d, c->base, (double)i * rmax / (st->decay_n - 1));
        st->decay_gen = t->generation, st->decay_rmax = rmax;
    }
    term_attr(w, A_BOLD, 0);
    tui_fit(w, sy - 1, rx, pw + 8, T_R7_DECAY, T_R7_DECAY_S, d);
    term_attr(w, A_NORMAL, 0);
    double top = st->decay[0];
    term_canvas cv;
    if (term_canvas_init(&cv, ph - 1, pw, 0, (double)rmax, 0, top > 0 ? top : 1) == 0) {
        double xs[DECAY_MAX];
        for (int i = 0; i < st->decay_n; i++)
            xs[i] = (double)i * rmax / (st->decay_n - 1);
        term_canvas_line(&cv, xs, st->decay, st->decay_n, 1);
        term_canvas_draw(&cv, w, sy, rx + 6, f->pairs + 1, 1);
        term_canvas_free(&cv);
    }
    term_printf(w, sy, rx, 6, "%5.1f", top);
    term_text(w, sy + ph - 2, rx, "    0", 6);
    term_printf(w, sy + ph - 1, rx + 6, pw, "r=0");
    term_printf(w, sy + ph - 1, rx + 6 + pw - 8, 8, "%7ld", rmax);
    term_printf(w, sy + ph, rx, cols / 2 - 2, "r=10: %.2f  r=100: %.2f",
                rope_decay_bound(d, c->base, 10), rope_decay_bound(d, c->base, 100));
}

static void draw(tui *t, void *state, WINDOW *w, int y, int x, int rows, int cols)
{
    rope_state *st = state;
    const tf_analysis *a = t->a;
    const tf_config *c = &a->cfg;
    if (!st)
        return;
    if (!(a->done & ANALYSIS_ROPE)) { /* at the article's scale, a moment on the worker */
        parts_working(t, ANALYSIS_ROPE, w, y, x + 1, cols - 2);
        return;
    }
    int d = c->d_model, half = d / 2;
    if (st->pair >= half)
        st->pair = half - 1;
    double *buf = malloc((size_t)(3 + SCORE_NS) * d * sizeof *buf + (size_t)half * sizeof *buf);
    if (!buf)
        return;
    rope_frame f = {.a = a, .d = d, .half = half, .pw = cols / 2 - 9, .ph = (rows - 4) / 2,
                    .lx = x + 1, .rx = x + cols / 2 + 1, .rot = buf, .kn = buf + d,
                    .theta = buf + (size_t)(2 + SCORE_NS) * d, .q = a->q + t->tok * d,
                    .k = a->k + (a->tokens.n - 1) * d};
    rope_thetas(d, c->base, f.theta);
    tf_rgb col[3] = {{214, 96, 77}, {67, 147, 195}, {90, 174, 97}};
    for (int s = 0; s < 3; s++)
        f.pairs[s] = term_pair(&col[s], NULL);
    draw_plane(t, st, &f, w, y, cols);
    draw_angles(&f, w, y);
    int sy = y + f.ph + 2;
    draw_scores(t, st, &f, w, sy, cols);
    draw_decay(t, st, &f, w, sy, cols);
    snprintf(t->cursor, sizeof t->cursor, "%s theta_%d=%.6g max dev=%.1e",
             rope_style_name(c->rope), st->pair, f.theta[st->pair], a->score_offset_max_dev);
    free(buf);
}

static int key(tui *t, void *state, int ch)
{
    rope_state *st = state;
    int half = t->a->cfg.d_model / 2;
    if (!st)
        return TUI_IGNORED;
    switch (ch) {
    case KEY_RIGHT:
        st->pair = st->pair + 1 < half ? st->pair + 1 : half - 1;
        return TUI_REDRAW;
    case KEY_LEFT:
        st->pair = st->pair > 0 ? st->pair - 1 : 0;
        return TUI_REDRAW;
    case KEY_UP:
        return tui_step_token(t, -1);
    case KEY_DOWN:
        return tui_step_token(t, +1);
    case 'p':
        t->cfg.rope = t->cfg.rope == ROPE_INTERLEAVED ? ROPE_HALF : ROPE_INTERLEAVED;
        txt_fmt(t->msg, sizeof t->msg, T_PAIRING_NOW, rope_style_name(t->cfg.rope));
        return TUI_RERUN;
    default:
        return TUI_IGNORED;
    }
}

const tui_view view_rope = {
    .figure = "rope", .tab = T_TAB_ROPE, .caption = T_CAP_ROPE, .keys = T_KEYS_ROPE,
    .needs = ANALYSIS_ROPE, .init = init, .free = free, .draw = draw, .key = key,
};
