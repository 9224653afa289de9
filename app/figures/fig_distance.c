/* fig_distance.c — how a position scheme relates two positions a distance apart, as curves:
 *   dot-offset  PE(p) . PE(p + k) against k: the closed form sum_i cos(k w_i), the same for every
 *               p (C10), falling (not monotonically) from d/2 at k = 0;
 *   rope-score  (R_m q) . (R_n k) against m - n with q = k = the sentence's first query (the
 *               same content at two positions) and with q = k = (1, ..., 1) (RoFormer's setting),
 *               each over |q||k|: the score depends on m - n only (C13) and decays with it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "figures/draw.h"
#include "posenc.h"
#include "rope.h"

/* One or two curves on one plot, the legend where it covers none of them. */
static void curves(fig_ctx *c, fig_axes *ax, const double *x, const double *const *y, long n,
                   const fig_legend_item *li, int nc)
{
    fig_series s[2];
    for (int i = 0; i < nc; i++)
        s[i] = (fig_series){.x = x, .y = y[i], .n = n};
    int corner = nc > 1 ? -1 : 0;
    double hi = ax->y.hi;
    for (int k = 0; k < 6 && corner < 0; k++) {
        if (k)
            ax->y.hi += 0.15 * (hi - ax->y.lo);
        fig_axes_fit(c->f, ax, c->area);
        corner = fig_legend_place(c->f, ax, li, nc, s, nc);
    }
    if (nc > 1 && corner < 0) {
        ax->y.hi = hi;
        ax->right = fig_legend_width(c->f, li, nc);
        corner = 4;
    }
    if (nc == 1 || corner == 4)
        fig_axes_fit(c->f, ax, c->area);
    fig_axes_draw(c->f, ax);
    double lw = 0.13 * fig_font_size(c->f, FIG_LABEL);
    for (int i = nc - 1; i >= 0; i--)
        fig_line(c->f, ax, x, y[i], n, li[i].color, lw, li[i].dash);
    if (nc > 1)
        fig_legend(c->f, ax, li, nc, corner);
}

tf_status draw_dot_offset(fig_ctx *c)
{
    const tf_config *cfg = &c->a->cfg;
    long n = cfg->n_positions > 1 ? cfg->n_positions : 2;
    long ns = n < CURVE_SAMPLES ? n : CURVE_SAMPLES;
    double *x = malloc((size_t)ns * sizeof *x), *y = malloc((size_t)ns * sizeof *y);
    if (!x || !y) {
        free(x), free(y);
        return TF_ERR_NOMEM;
    }
    double mn = INFINITY, mx = -INFINITY;
    for (long s = 0; s < ns; s++) {
        x[s] = ns > 1 ? round((double)(n - 1) * s / (ns - 1)) : 0;
        y[s] = posenc_dot_offset(x[s], cfg->d_model, cfg->base);
        mn = fmin(mn, y[s]), mx = fmax(mx, y[s]);
    }
    fig_axes ax = {.grid = true};
    ax.x = (fig_axis){.lo = 0, .hi = (double)(n - 1), .integer = true,
                      .label = fig_txt(c, T_F_OFFSET_K)};
    double pad = 0.05 * (mx - fmin(mn, 0.0));
    ax.y = (fig_axis){.lo = fmin(mn, 0.0) - (mn < 0 ? pad : 0), .hi = mx + pad,
                      .label = fig_txt(c, T_F_DOT_OFFSET)};
    fig_legend_item li = {.label = "", .color = fig_series_color(0)};
    const double *ys[1] = {y};
    curves(c, &ax, x, ys, ns, &li, 1);
    free(x), free(y);
    return TF_OK;
}

tf_status draw_rope_score(fig_ctx *c)
{
    const tf_analysis *A = c->a;
    const tf_config *cfg = &A->cfg;
    int d = cfg->d_model;
    long n = cfg->n_positions > 1 ? cfg->n_positions : 2;
    long span = 2 * (n - 1) + 1; /* m - n from -(n-1) to n-1 */
    long ns = span < CURVE_SAMPLES ? span : CURVE_SAMPLES;
    double *x = malloc((size_t)ns * sizeof *x), *y0 = malloc((size_t)ns * sizeof *y0);
    double *y1 = malloc((size_t)ns * sizeof *y1), *theta = malloc((size_t)d / 2 * sizeof *theta);
    double *ones = malloc((size_t)d * sizeof *ones);
    if (!x || !y0 || !y1 || !theta || !ones) {
        free(x), free(y0), free(y1), free(theta), free(ones);
        return TF_ERR_NOMEM;
    }
    rope_thetas(d, cfg->base, theta);
    for (int j = 0; j < d; j++)
        ones[j] = 1.0;
    const double *q = A->q; /* row 0: the first token's query, before rotation */
    double norm = 0;
    for (int j = 0; j < d; j++)
        norm += q[j] * q[j];
    if (!(norm > 0))
        norm = 1.0;
    for (long s = 0; s < ns; s++) {
        x[s] = ns > 1 ? round(-(double)(n - 1) + (double)(span - 1) * s / (ns - 1)) : 0;
        y0[s] = rope_score_thetas(q, q, d, theta, cfg->rope, x[s]) / norm;
        y1[s] = rope_score_thetas(ones, ones, d, theta, cfg->rope, x[s]) / d;
    }
    char tok[40], l0[120];
    token_markup(tok, sizeof tok, A->text + A->tokens.items[0].start,
                 A->tokens.items[0].end - A->tokens.items[0].start);
    txt_fmt_lang(l0, sizeof l0, T_F_SCORE_TOKEN, c->zh, tok);
    fig_legend_item li[2] = {
        {.label = l0, .color = fig_series_color(0)},
        {.label = "<i>q</i> = <i>k</i> = (1, …, 1)", .color = fig_series_color(1),
         .dash = FIG_DASHED}};
    fig_axes ax = {.grid = true};
    ax.x = (fig_axis){.lo = x[0], .hi = x[ns - 1], .integer = true,
                      .label = fig_txt(c, T_F_REL_DIST)};
    ax.y = (fig_axis){.lo = -1.05, .hi = 1.05, .label = fig_txt(c, T_F_SCORE)};
    const double *ys[2] = {y0, y1};
    curves(c, &ax, x, ys, ns, li, 2);
    free(x), free(y0), free(y1), free(theta), free(ones);
    return TF_OK;
}
