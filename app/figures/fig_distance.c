/* fig_distance.c — how a position scheme relates two positions a distance apart, as curves:
 *   dot-offset  PE(p) . PE(p + k) against k: the closed form sum_i cos(k w_i), the same for every
 *               p (C10), falling (not monotonically) from d/2 at k = 0;
 *   rope-qk     pair 0 of q at m and of k at n turning together, (m - n) theta_0 between them;
 *   rope-decay  RoFormer's long-term decay bound against relative distance;
 *   rope-score  (R_m q) . (R_n k) against m - n with q = k = the sentence's first query (the
 *               same content at two positions) and with q = k = (1, ..., 1) (RoFormer's setting),
 *               each over |q||k|: the score depends on m - n only (C13) and decays with it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "figures/draw.h"
#include "linalg.h"
#include "style.h"
#include "posenc.h"
#include "rope.h"

tf_status draw_dot_offset(fig_ctx *c)
{
    const tf_config *cfg = &c->a->cfg;
    long n = cfg->n_positions > 1 ? cfg->n_positions : 2;
    long ns = n < CURVE_SAMPLES ? n : CURVE_SAMPLES;
    double *x = malloc(2 * (size_t)ns * sizeof *x);
    if (!x)
        return TF_ERR_NOMEM;
    double *y = x + ns;
    double mn = INFINITY, mx = -INFINITY;
    for (long s = 0; s < ns; s++) {
        x[s] = round((double)(n - 1) * s / (ns - 1)); /* n >= 2, so ns >= 2 */
        y[s] = posenc_dot_offset(x[s], cfg->d_model, cfg->base);
        mn = fmin(mn, y[s]), mx = fmax(mx, y[s]);
    }
    fig_axes ax = {.grid = true};
    ax.x = (fig_axis){.lo = 0, .hi = (double)(n - 1), .integer = true,
                      .label = fig_txt(c, T_F_OFFSET_K)};
    double pad = 0.05 * (mx - fmin(mn, 0.0));
    ax.y = (fig_axis){.lo = fmin(mn, 0.0) - (mn < 0 ? pad : 0), .hi = mx + pad,
                      .label = fig_txt(c, T_F_DOT_OFFSET)};
    const scheme_style *st = style_scheme(SCHEME_SINUSOIDAL, ROPE_SCALING_NONE);
    fig_axes_fit(c->f, &ax, c->area);
    fig_axes_draw(c->f, &ax);
    fig_line(c->f, &ax, x, y, ns, st->color, 0.13 * fig_font_size(c->f), (fig_dash)st->dash);
    free(x);
    return TF_OK;
}

/* The curves y[0 .. n-1] (ns points at x each, relative distances; the first on top) on a grid
 * with the y axis ya, and the legend of n items in the first corner where it covers none, the
 * plot's ceiling raised a step at a time (at most five) while no corner is free, as far as either
 * language needs (fig_plan_max); with none free even then, right of the plot (corner 4). */
static void curves_legend(fig_ctx *c, const fig_axis *ya, const fig_legend_item *li, int n,
                          const double *x, const double *const y[2], long ns)
{
    fig_axes ax = {.grid = true, .y = *ya};
    ax.x =
        (fig_axis){.lo = x[0], .hi = x[ns - 1], .integer = true, .label = fig_txt(c, T_F_REL_DIST)};
    const fig_series sr[2] = {{.x = x, .y = y[0], .n = ns}, {.x = x, .y = y[1], .n = ns}};
    double hi = ax.y.hi, step = 0.15 * (hi - ax.y.lo);
    int corner = -1, raised = 0;
    for (; raised < 6 && corner < 0; raised++) {
        ax.y.hi = hi + raised * step;
        fig_axes_fit(c->f, &ax, c->area);
        corner = fig_legend_place(c->f, &ax, li, n, sr, n);
    }
    int both = (int)fig_plan_max(c->f, corner < 0 ? 6 : raised - 1);
    if (both < 6 && both != raised - 1) {
        ax.y.hi = hi + both * step;
        fig_axes_fit(c->f, &ax, c->area);
        corner = fig_legend_place(c->f, &ax, li, n, sr, n);
    }
    if (both >= 6 || corner < 0) {
        ax.y.hi = hi;
        ax.right = fig_legend_width(c->f, li, n);
        ax.legend = li, ax.n_legend = n;
        fig_axes_fit(c->f, &ax, c->area);
        corner = 4;
    }
    fig_axes_draw(c->f, &ax);
    for (int k = n - 1; k >= 0; k--)
        fig_line(c->f, &ax, x, y[k], ns, li[k].color, 0.13 * fig_font_size(c->f), li[k].dash);
    fig_legend(c->f, &ax, li, n, corner);
}

tf_status draw_rope_score(fig_ctx *c)
{
    const tf_analysis *A = c->a;
    const tf_config *cfg = &A->cfg;
    int d = cfg->d_model;
    long n = cfg->n_positions > 1 ? cfg->n_positions : 2;
    long span = 2 * (n - 1) + 1; /* m - n from -(n-1) to n-1 */
    long ns = span < CURVE_SAMPLES ? span : CURVE_SAMPLES;
    double *x = malloc((3 * (size_t)ns + (size_t)d / 2 + (size_t)d) * sizeof *x);
    if (!x)
        return TF_ERR_NOMEM;
    double *y0 = x + ns, *y1 = y0 + ns, *theta = y1 + ns, *ones = theta + d / 2;
    rope_thetas(d, cfg->base, theta);
    for (int j = 0; j < d; j++)
        ones[j] = 1.0;
    const double *q = A->q; /* row 0: the first token's query, before rotation */
    double norm = la_dot(q, q, (size_t)d);
    if (!(norm > 0))
        norm = 1.0;
    for (long s = 0; s < ns; s++) {
        x[s] = round(-(double)(n - 1) + (double)(span - 1) * s / (ns - 1)); /* ns >= 3 */
        y0[s] = rope_score_thetas(q, q, d, theta, cfg->rope, x[s]) / norm;
        y1[s] = rope_score_thetas(ones, ones, d, theta, cfg->rope, x[s]) / d;
    }
    char tok[40], l0[120];
    token_markup(tok, sizeof tok, A->text + A->tokens.items[0].start,
                 A->tokens.items[0].end - A->tokens.items[0].start);
    txt_fmt_lang(l0, sizeof l0, T_F_SCORE_TOKEN, c->zh, tok);
    fig_legend_item li[2] = {
        {.label = l0, .color = style_scheme(SCHEME_ROPE, ROPE_SCALING_NONE)->color},
        {.label = "<i>q</i> = <i>k</i> = (1, …, 1)", .color = fig_series_color(1),
         .dash = FIG_DASHED}};
    curves_legend(c, &(fig_axis){.lo = -1.05, .hi = 1.05, .label = fig_txt(c, T_F_SCORE)}, li, 2, x,
                  (const double *const[2]){y0, y1}, ns);
    free(x);
    return TF_OK;
}

/* ---------------------------------------------------------------------------------------------
 * rope-decay: RoFormer's long-term decay bound against relative distance */

tf_status draw_decay(fig_ctx *c)
{
    const tf_config *cfg = &c->a->cfg;
    long n = cfg->n_positions > 1 ? cfg->n_positions : 2;
    long ns = n < CURVE_SAMPLES ? n : CURVE_SAMPLES;
    /* --base draws that base alone; by default 10000 (LLaMA 1/2) beside 500000 (Llama 3) */
    int nl = c->req && c->req->base_given ? 1 : 2;
    double other = cfg->base == 500000.0 ? 10000.0 : 500000.0;
    double *x = malloc(3 * (size_t)ns * sizeof *x);
    if (!x)
        return TF_ERR_NOMEM;
    double *y = x + ns, *y2 = y + ns;
    double mx = 0;
    for (long s = 0; s < ns; s++) {
        x[s] = round((double)(n - 1) * s / (ns - 1));
        y[s] = rope_decay_bound(cfg->d_model, cfg->base, x[s]);
        y2[s] = rope_decay_bound(cfg->d_model, other, x[s]);
        mx = fmax(mx, fmax(y[s], nl > 1 ? y2[s] : 0));
    }
    char l0[96], l1[96];
    snprintf(l0, sizeof l0, "%s %g, <i>d</i> = %d", fig_txt(c, T_F_BASE), cfg->base,
             cfg->d_model);
    snprintf(l1, sizeof l1, "%s %g", fig_txt(c, T_F_BASE), other);
    /* a base keeps its style whichever is --base: 500000 Llama 3's RoPE, any other RoPE's
     * (style.h) */
    fig_legend_item li[2] = {{.label = l0}, {.label = l1}};
    const double bases[2] = {cfg->base, other};
    for (int k = 0; k < 2; k++) {
        const scheme_style *st = style_scheme(
            SCHEME_ROPE, bases[k] == 500000.0 ? ROPE_SCALING_LLAMA3 : ROPE_SCALING_NONE);
        li[k].color = st->color;
        li[k].dash = (fig_dash)st->dash;
    }
    curves_legend(c, &(fig_axis){.lo = 0, .hi = mx * 1.05, .label = fig_txt(c, T_F_DECAY_BOUND)},
                  li, nl, x, (const double *const[2]){y, y2}, ns);
    free(x);
    return TF_OK;
}

/* ---------------------------------------------------------------------------------------------
 * rope-qk: pair 0 of q at position m and of k at position n, for two (m, n) with the same m - n:
 * both turn with their positions, and the angle between them is (m - n) theta_0 in both (C13).
 * q = k = the first token's query, so that the angle is that alone. */

#define QK_PAIRS 2

/* The pairs' q and k as arrows, and the angle from each k to its q: the two angles are one,
 * (m - n) theta_0, so they are drawn alike, arcs at one radius (each in its q's colour), each
 * labelled with angle between its arrows, where the plot has room for both labels. */
static void qk_arrows(fig_ctx *c, const fig_axes *ax, const double qk[][2][2],
                      const fig_legend_item *li, const char *angle)
{
    double lw = 0.075 * fig_font_size(c->f), head = 0.9 * fig_font_size(c->f);
    double arc_x[41], arc_y[41], rad = 0.35, tw, th;
    double unit = ax->r.w / (ax->x.hi - ax->x.lo); /* points a unit of the data */
    fig_text_size(c->f, angle, false, &tw, &th);
    double a0[QK_PAIRS], sweep[QK_PAIRS], at[QK_PAIRS][2];
    /* labelled: each label between the arc and the circle, clear of the arrows and guides: on
     * the bisector, or at a fifth of the angle to either side where an axis' guide line would
     * cross it; unlabelled when each place crosses one */
    bool labelled = hypot(tw, th) / 2 < 0.22 * unit;
    static const double along[] = {0.5, 0.7, 0.3};
    for (int p = 0; p < QK_PAIRS; p++) {
        a0[p] = atan2(qk[p][1][1], qk[p][1][0]);
        sweep[p] = remainder(atan2(qk[p][0][1], qk[p][0][0]) - a0[p], 2 * M_PI);
        bool clear = false;
        for (int i = 0; i < 3 && !clear; i++) {
            at[p][0] = 0.65 * cos(a0[p] + along[i] * sweep[p]);
            at[p][1] = 0.65 * sin(a0[p] + along[i] * sweep[p]);
            clear =
                fabs(at[p][0]) > 1.2 * (tw / 2 / unit) && fabs(at[p][1]) > 1.2 * (th / 2 / unit);
        }
        labelled &= clear;
    }
    for (int p = 0; p < QK_PAIRS; p++) {
        for (int s = 0; s <= 40; s++) {
            arc_x[s] = rad * cos(a0[p] + sweep[p] * s / 40);
            arc_y[s] = rad * sin(a0[p] + sweep[p] * s / 40);
        }
        fig_line(c->f, ax, arc_x, arc_y, 41, li[2 * p].color, 1.5 * lw, FIG_SOLID);
        if (labelled)
            fig_text_in(c->f, ax, angle, false, fig_px(ax, at[p][0]), fig_py(ax, at[p][1]), 0.5,
                        0.5);
        fig_arrow(c->f, ax, 0, 0, qk[p][1][0], qk[p][1][1], li[2 * p + 1].color, 2 * lw, head);
        fig_arrow(c->f, ax, 0, 0, qk[p][0][0], qk[p][0][1], li[2 * p].color, 2 * lw, head);
    }
}

tf_status draw_rope_qk(fig_ctx *c)
{
    const tf_analysis *A = c->a;
    const tf_config *cfg = &A->cfg;
    int d = cfg->d_model, ia, ib;
    rope_pair(cfg->rope, d, 0, &ia, &ib);
    double *v = calloc(2 * (size_t)d, sizeof *v); /* pair 0 of q as a unit vector, and its turn */
    if (!v)
        return TF_ERR_NOMEM;
    double qa = A->q[ia], qb = A->q[ib], r = hypot(qa, qb);
    v[ia] = r > 0 ? qa / r : 1.0;
    v[ib] = r > 0 ? qb / r : 0.0;
    long pos0 = cfg->index_base;
    const long mn[QK_PAIRS][2] = {{pos0 + 2, pos0}, {pos0 + 6, pos0 + 4}};
    char lab[2 * QK_PAIRS][64];
    fig_legend_item li[2 * QK_PAIRS];
    for (int p = 0; p < QK_PAIRS; p++) {
        txt_fmt_lang(lab[2 * p], sizeof lab[0], T_F_QK_Q, c->zh, mn[p][0]);
        txt_fmt_lang(lab[2 * p + 1], sizeof lab[0], T_F_QK_K, c->zh, mn[p][1]);
    }
    for (int i = 0; i < 2 * QK_PAIRS; i++)
        li[i] = (fig_legend_item){.label = lab[i], .color = fig_series_color(i)};
    fig_axes ax = {.frame = true};
    char xl[64], yl[64];
    snprintf(xl, sizeof xl, "<i>q</i><sub>%d</sub>, <i>k</i><sub>%d</sub>", ia, ia);
    snprintf(yl, sizeof yl, "<i>q</i><sub>%d</sub>, <i>k</i><sub>%d</sub>", ib, ib);
    const double lim = 1.3; /* the unit circle and the arrows' heads inside the axes */
    ax.x = (fig_axis){.lo = -lim, .hi = lim, .label = xl};
    ax.y = (fig_axis){.lo = -lim, .hi = lim, .label = yl};
    ax.right = fig_legend_width(c->f, li, 2 * QK_PAIRS);
    fit_square(c->f, &ax, c->area);
    fig_axes_draw(c->f, &ax);
    double lw = 0.075 * fig_font_size(c->f);
    tf_rgb guide = {170, 170, 170};
    fig_segment(c->f, &ax, -lim, 0, lim, 0, guide, lw, FIG_SOLID);
    fig_segment(c->f, &ax, 0, -lim, 0, lim, guide, lw, FIG_SOLID);
    fig_circle(c->f, &ax, 0, 0, 1.0, guide, lw, FIG_DASHED);
    double qk[QK_PAIRS][2][2]; /* pair p's q (j = 0) and k (1): pair 0 turned to mn[p][j], (x, y) */
    for (int p = 0; p < QK_PAIRS; p++)
        for (int j = 0; j < 2; j++) {
            rope_rotate(v, d, cfg->base, (double)mn[p][j], cfg->rope, v + d);
            qk[p][j][0] = v[d + ia];
            qk[p][j][1] = v[d + ib];
        }
    char angle[32];
    snprintf(angle, sizeof angle, "%ld<i>\xce\xb8</i>", mn[0][0] - mn[0][1]); /* "2θ" */
    qk_arrows(c, &ax, qk, li, angle);
    fig_legend(c->f, &ax, li, 2 * QK_PAIRS, 4);
    free(v);
    return TF_OK;
}
