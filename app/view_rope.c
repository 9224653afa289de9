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
#include "tui.h"

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

/* Cached decay curve (it costs d/2 complex terms per point). */
static double decay_cache[512];
static int decay_n;
static unsigned decay_gen = ~0u;
static long decay_rmax;

/* A 5-column axis value with two decimals; one that rounds to zero is written 0 (never -0.00). */
static void axis_label(WINDOW *w, int y, int x, double v)
{
    if (fabs(v) < 0.005)
        term_text(w, y, x, "    0", 6);
    else
        term_printf(w, y, x, 6, "%5.2f", v);
}

static void draw(tui *t, WINDOW *w, int y, int x, int rows, int cols)
{
    const tf_analysis *a = t->a;
    const tf_config *c = &a->cfg;
    if (!(a->done & ANALYSIS_ROPE))
        return;
    int d = c->d_model, half = d / 2;
    if (t->rope_pair >= half)
        t->rope_pair = half - 1;
    int pw = cols / 2 - 9, ph = (rows - 4) / 2;
    int lx = x + 1, rx = x + cols / 2 + 1;
    double *buf = malloc((size_t)(3 + SCORE_NS) * d * sizeof *buf + (size_t)half * sizeof *buf);
    if (!buf)
        return;
    double *rot = buf, *kn = buf + d, *theta = buf + (size_t)(2 + SCORE_NS) * d;
    const double *q = a->q + t->tok * d, *k = a->k + (a->tokens.n - 1) * d;
    rope_thetas(d, c->base, theta);
    int ia, ib;
    rope_pair(c->rope, d, t->rope_pair, &ia, &ib);
    tf_rgb col[3] = {{214, 96, 77}, {67, 147, 195}, {90, 174, 97}};
    int pairs[3];
    for (int s = 0; s < 3; s++)
        pairs[s] = term_pair(&col[s], NULL);
    char tok[128];

    /* 1. the plane of pair i: q at positions 0..ARROWS-1 */
    term_attr(w, A_BOLD, 0);
    term_printf(w, y, lx, cols / 2 - 2, txt(T_R7_PLANE), t->rope_pair,
                tui_token(t, t->tok, tok, sizeof tok), theta[t->rope_pair]);
    term_attr(w, A_NORMAL, 0);
    double r = hypot(q[ia], q[ib]);
    r = r > 0 ? r * 1.15 : 1;
    int cw = ph * 2 < pw ? ph * 2 : pw; /* square in screen units: 2 columns per row */
    term_canvas cv;
    if (term_canvas_init(&cv, ph, cw, -r, r, -r, r) == 0) {
        for (int m = 0; m < 64; m++)
            term_canvas_dot(&cv, r / 1.15 * cos(2 * M_PI * m / 64), r / 1.15 * sin(2 * M_PI * m / 64),
                            2);
        double ends[ARROWS][2];
        for (int m = 0; m < ARROWS; m++) {
            rope_rotate(q, d, c->base, (double)m, c->rope, rot);
            double xs[2] = {0, rot[ia]}, ys[2] = {0, rot[ib]};
            ends[m][0] = rot[ia], ends[m][1] = rot[ib];
            term_canvas_line(&cv, xs, ys, 2, 1);
        }
        term_canvas_draw(&cv, w, y + 1, lx + 4, pairs, 3);
        for (int m = 0; m < ARROWS; m++) { /* label each arrow's tip with its position */
            int cx = (int)lround((ends[m][0] + r) / (2 * r) * (cw - 1));
            int cy = (int)lround((r - ends[m][1]) / (2 * r) * (ph - 1));
            term_attr(w, A_BOLD, 0);
            term_printf(w, y + 1 + cy, lx + 4 + cx, 2, "%d", m);
        }
        term_attr(w, A_NORMAL, 0);
        term_canvas_free(&cv);
    }

    /* 2. the angle heatmap m * theta_i */
    term_attr(w, A_BOLD, 0);
    term_text(w, y, rx, txt(T_R7_ANGLE), pw + 8);
    term_attr(w, A_NORMAL, 0);
    angle_ctx ac = {theta, half, pw, 1};
    term_heatmap(w, y + 1, rx + 6, ph, pw < half ? pw : half, angle_px, &ac, CMAP_VIRIDIS, 0,
                 2 * M_PI);
    term_text(w, y + 1, rx, "m=0", 5);
    term_printf(w, y + ph, rx, 6, "m=%d", 2 * ph - 1);

    /* 3. score against m - n for several n */
    int sy = y + ph + 2;
    term_attr(w, A_BOLD, 0);
    char tok2[128];
    term_printf(w, sy - 1, lx, pw + 8, txt(T_R7_SCORE), tui_token(t, t->tok, tok, sizeof tok),
                tui_token(t, a->tokens.n - 1, tok2, sizeof tok2));
    term_attr(w, A_NORMAL, 0);
    int R = pw < 24 ? pw : 24;
    static const int ns[SCORE_NS] = {0, 10, 40};
    /* the scores depend on the token, not on the pair shown: computed once per token */
    static double sc[SCORE_NS][2 * 64 + 1], smin, smax;
    static unsigned sc_gen = ~0u;
    static size_t sc_tok;
    static int sc_R;
    if (sc_gen != t->generation || sc_tok != t->tok || sc_R != R) {
        smin = INFINITY, smax = -INFINITY;
        for (int s = 0; s < SCORE_NS; s++) {
            rope_rotate(k, d, c->base, (double)ns[s], c->rope, kn + (size_t)s * d);
            for (int o = -R; o <= R; o++) {
                long m = ns[s] + o;
                if (m < 0) {
                    sc[s][o + R] = NAN;
                    continue;
                }
                rope_rotate(q, d, c->base, (double)m, c->rope, rot);
                sc[s][o + R] = la_dot(rot, kn + (size_t)s * d, (size_t)d);
                smin = fmin(smin, sc[s][o + R]);
                smax = fmax(smax, sc[s][o + R]);
            }
        }
        sc_gen = t->generation, sc_tok = t->tok, sc_R = R;
    }
    if (term_canvas_init(&cv, ph - 1, pw, -R, R, smin, smax > smin ? smax : smin + 1) == 0) {
        double xs[2 * 64 + 1];
        for (int o = -R; o <= R; o++)
            xs[o + R] = o;
        /* n = 0 last: where the curves coincide, as they should, its colour shows */
        for (int s = SCORE_NS - 1; s >= 0; s--)
            term_canvas_line(&cv, xs, sc[s], 2 * R + 1, s + 1);
        term_canvas_draw(&cv, w, sy, lx + 6, pairs, 3);
        term_canvas_free(&cv);
    }
    term_printf(w, sy + ph - 1, lx + 6, pw, "-%d", R);
    term_printf(w, sy + ph - 1, lx + 6 + pw - 3, 3, "+%d", R);
    int legend = lx + 6 + (pw - 22) / 2;
    term_text(w, sy + ph - 1, legend, "m-n", 3);
    axis_label(w, sy, lx, smax);
    axis_label(w, sy + ph - 2, lx, smin);
    for (int s = 0; s < SCORE_NS; s++) {
        term_attr(w, A_NORMAL, pairs[s]);
        term_printf(w, sy + ph - 1, legend + 5 + 6 * s, 6, "n=%d", ns[s]);
    }
    term_attr(w, A_NORMAL, 0);
    term_printf(w, sy + ph, lx, cols / 2 - 1, txt(T_R7_CHECK), a->score_offset_max_dev,
                a->rope_check_positions);

    /* 4. the RoFormer decay bound */
    long rmax = c->n_positions > 10 ? c->n_positions : 10;
    if (decay_gen != t->generation || decay_rmax != rmax || decay_n != 2 * pw) {
        decay_n = 2 * pw < 512 ? 2 * pw : 512;
        for (int i = 0; i < decay_n; i++)
            decay_cache[i] = rope_decay_bound(d, c->base, (double)i * rmax / (decay_n - 1));
        decay_gen = t->generation, decay_rmax = rmax;
    }
    term_attr(w, A_BOLD, 0);
    term_printf(w, sy - 1, rx, pw + 8, txt(T_R7_DECAY), d);
    term_attr(w, A_NORMAL, 0);
    double top = decay_cache[0];
    if (term_canvas_init(&cv, ph - 1, pw, 0, (double)rmax, 0, top > 0 ? top : 1) == 0) {
        double xs[512];
        for (int i = 0; i < decay_n; i++)
            xs[i] = (double)i * rmax / (decay_n - 1);
        term_canvas_line(&cv, xs, decay_cache, decay_n, 1);
        term_canvas_draw(&cv, w, sy, rx + 6, pairs + 1, 1);
        term_canvas_free(&cv);
    }
    term_printf(w, sy, rx, 6, "%5.1f", top);
    term_text(w, sy + ph - 2, rx, "    0", 6);
    term_printf(w, sy + ph - 1, rx + 6, pw, "r=0");
    term_printf(w, sy + ph - 1, rx + 6 + pw - 8, 8, "%7ld", rmax);
    term_printf(w, sy + ph, rx, cols / 2 - 2, "r=10: %.2f  r=100: %.2f",
                rope_decay_bound(d, c->base, 10), rope_decay_bound(d, c->base, 100));
    snprintf(t->cursor, sizeof t->cursor, "%s theta_%d=%.6g max dev=%.1e",
             rope_style_name(c->rope), t->rope_pair, theta[t->rope_pair], a->score_offset_max_dev);
    free(buf);
}

static int key(tui *t, int ch)
{
    int half = t->a->cfg.d_model / 2;
    size_t T = t->a->tokens.n;
    switch (ch) {
    case KEY_RIGHT:
        t->rope_pair = t->rope_pair + 1 < half ? t->rope_pair + 1 : half - 1;
        return TUI_REDRAW;
    case KEY_LEFT:
        t->rope_pair = t->rope_pair > 0 ? t->rope_pair - 1 : 0;
        return TUI_REDRAW;
    case KEY_UP:
        t->tok = t->tok ? t->tok - 1 : T - 1;
        return TUI_REDRAW;
    case KEY_DOWN:
        t->tok = (t->tok + 1) % T;
        return TUI_REDRAW;
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
    .needs = ANALYSIS_ROPE, .draw = draw, .key = key, .click = NULL,
};
