/* fig_words.c — the 2-D map of learned word vectors (C5): the MAP_WORDS first rows of the
 * vectors (files and training rank them by frequency) projected on their two leading principal
 * components. Labels are placed in rank order and skipped where they would overlap one already
 * placed. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "figures/draw.h"
#include "pca.h"

#define MAP_WORDS 60

const char *check_word_map(const tf_config *cfg)
{
    if (!cfg->vectors || cfg->vectors->n < 2)
        return "the map of words needs learned vectors: add --vectors FILE (tfviz --train -o "
               "FILE writes one)";
    return NULL;
}

tf_status draw_word_map(fig_ctx *c, fig_rect area, bool panel_title)
{
    const tf_vectors *v = c->vectors;
    size_t n = v->n < MAP_WORDS ? v->n : MAP_WORDS;
    double *xy = malloc(n * 2 * sizeof *xy), *px = malloc(n * sizeof *px),
           *py = malloc(n * sizeof *py), *boxes = malloc(n * 8 * sizeof *boxes);
    pca_result r;
    if (!xy || !px || !py || !boxes || pca_project2(v->data, n, v->dim, xy, &r) != TF_OK) {
        free(xy), free(px), free(py), free(boxes);
        return TF_ERR_NOMEM;
    }
    fig_axes ax = {0};
    double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
    for (size_t i = 0; i < n; i++) {
        px[i] = xy[2 * i], py[i] = xy[2 * i + 1];
        x0 = fmin(x0, px[i]), x1 = fmax(x1, px[i]), y0 = fmin(y0, py[i]), y1 = fmax(y1, py[i]);
    }
    /* a flat axis (two words, or words on one line: its coordinates are all 0) gets the other
     * axis's span, so its ticks read 0 in the middle of a square-ish range, not 1e-9 steps */
    double span = fmax(x1 - x0, y1 - y0);
    if (!(span > 0))
        span = 1; /* every word on one point: a unit square around it */
    double mx = x1 - x0 > 1e-9 * span ? 0.08 * (x1 - x0) : 0.5 * span;
    double my = y1 - y0 > 1e-9 * span ? 0.06 * (y1 - y0) : 0.5 * span;
    ax.x.lo = x0 - mx, ax.x.hi = x1 + 2 * mx, ax.y.lo = y0 - my, ax.y.hi = y1 + my;
    char xl[80], yl[80], t[200];
    double total = r.var_total > 0 ? r.var_total : 1; /* identical vectors: 0%, not NaN% */
    txt_fmt_lang(xl, sizeof xl, T_F_PC1, c->zh, 100.0 * r.var[0] / total);
    txt_fmt_lang(yl, sizeof yl, T_F_PC2, c->zh, 100.0 * r.var[1] / total);
    txt_fmt_lang(t, sizeof t, T_F_MAP_TITLE, c->zh, n, v->dim);
    ax.x.label = xl, ax.y.label = yl, ax.frame = true;
    ax.title = panel_title ? t : NULL;
    fig_axes_fit(c->f, &ax, area);
    fig_axes_draw(c->f, &ax);
    fig_markers(c->f, &ax, px, py, (long)n, fig_series_color(0), 4);
    /* obstacles: every marker first, then each label placed; a label tries right, left, above
     * and below its point and is left out when all four overlap something */
    const double mr = 2.5; /* marker radius, points */
    size_t placed = 0;
    for (size_t i = 0; i < n; i++) {
        double *b = boxes + 4 * placed++;
        b[0] = fig_px(&ax, px[i]) - mr, b[1] = fig_py(&ax, py[i]) - mr, b[2] = b[3] = 2 * mr;
    }
    for (size_t i = 0; i < n; i++) {
        double w, h, X = fig_px(&ax, px[i]), Y = fig_py(&ax, py[i]);
        fig_text_size(c->f, FIG_TICK, v->words[i], true, &w, &h);
        const double cand[4][2] = {{X + mr + 1, Y - h / 2}, {X - mr - 1 - w, Y - h / 2},
                                   {X - w / 2, Y - mr - h}, {X - w / 2, Y + mr}};
        for (int k = 0; k < 4; k++) {
            double bx = cand[k][0], by = cand[k][1];
            bool free_spot = bx >= ax.r.x && bx + w <= ax.r.x + ax.r.w && by >= ax.r.y &&
                             by + h <= ax.r.y + ax.r.h;
            for (size_t j = 0; free_spot && j < placed; j++) {
                const double *o = boxes + 4 * j;
                free_spot = bx + w <= o[0] || o[0] + o[2] <= bx || by + h <= o[1] ||
                            o[1] + o[3] <= by;
            }
            if (!free_spot)
                continue;
            fig_text(c->f, FIG_TICK, v->words[i], true, bx, by, 0, 0, false);
            double *b = boxes + 4 * placed++;
            b[0] = bx, b[1] = by, b[2] = w, b[3] = h;
            break;
        }
    }
    pca_free(&r);
    free(xy), free(px), free(py), free(boxes);
    return TF_OK;
}

tf_status draw_embedding_map(fig_ctx *c)
{
    if (!c->vectors || c->vectors->n < 2)
        return TF_ERR_RANGE;
    return draw_word_map(c, c->area, false);
}
