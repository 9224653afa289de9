/* fig_words.c — the 2-D map of learned word vectors (C5): the MAP_WORDS first rows of the
 * vectors (files and training rank them by frequency) projected on their two leading principal
 * components. Labels are placed in rank order: next to their point where there is room, else a
 * little further out with a leader line, and skipped only when no place is free. */
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

/* Whether a w x h box at (bx, by) lies in the plot and off the n boxes (x, y, w, h) placed. */
static bool spot_free(const fig_axes *ax, double bx, double by, double w, double h,
                      const double *boxes, size_t n)
{
    if (bx < ax->r.x || bx + w > ax->r.x + ax->r.w || by < ax->r.y || by + h > ax->r.y + ax->r.h)
        return false;
    for (size_t j = 0; j < n; j++) {
        const double *o = boxes + 4 * j;
        if (!(bx + w <= o[0] || o[0] + o[2] <= bx || by + h <= o[1] || o[1] + o[3] <= by))
            return false;
    }
    return true;
}

/* The label of the point (x, y): right, left, above or below it; else, in rings further out in
 * eight directions, with a thin leader line from the point to the label. Its box joins boxes. */
static void place_label(fig_ctx *c, const fig_axes *ax, const char *word, double x, double y,
                        double mr, double *boxes, size_t *placed)
{
    double w, h, X = fig_px(ax, x), Y = fig_py(ax, y);
    fig_text_size(c->f, FIG_TICK, word, true, &w, &h);
    static const double dir[8][2] = {{1, 0},  {-1, 0}, {0, -1}, {0, 1},
                                     {1, -1}, {-1, -1}, {1, 1}, {-1, 1}};
    for (int ring = 0; ring < 3; ring++)
        for (int k = 0; k < (ring ? 8 : 4); k++) {
            double reach = mr + 1 + ring * 0.9 * h, dx = dir[k][0], dy = dir[k][1];
            /* the box's near side or corner at reach from the point */
            double bx = dx > 0 ? X + reach : dx < 0 ? X - reach - w : X - w / 2;
            double by = dy > 0 ? Y + reach : dy < 0 ? Y - reach - h : Y - h / 2;
            if (!spot_free(ax, bx, by, w, h, boxes, *placed))
                continue;
            if (ring) { /* the leader: from the marker's edge to the box's near edge */
                double tx = dx > 0 ? bx : dx < 0 ? bx + w : bx + w / 2;
                double ty = dy > 0 ? by : dy < 0 ? by + h : by + h / 2;
                double len = hypot(tx - X, ty - Y);
                double sx = X + (tx - X) / len * mr, sy = Y + (ty - Y) / len * mr;
                double kx = (ax->x.hi - ax->x.lo) / ax->r.w, ky = (ax->y.hi - ax->y.lo) / ax->r.h;
                fig_segment(c->f, ax, ax->x.lo + (sx - ax->r.x) * kx,
                            ax->y.hi - (sy - ax->r.y) * ky, ax->x.lo + (tx - ax->r.x) * kx,
                            ax->y.hi - (ty - ax->r.y) * ky, (tf_rgb){150, 150, 150},
                            0.06 * fig_font_size(c->f, FIG_LABEL), FIG_SOLID);
            }
            fig_text_in(c->f, ax, FIG_TICK, word, true, bx, by, 0, 0);
            double *b = boxes + 4 * (*placed)++;
            b[0] = bx, b[1] = by, b[2] = w, b[3] = h;
            return;
        }
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
    for (size_t i = 0; i < n; i++)
        place_label(c, &ax, v->words[i], px[i], py[i], mr, boxes, &placed);
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
