/* sample_figure.h — a figure like --export's PE figure, drawn with render/figure alone: a title
 * in Chinese and English, a heatmap of sinusoidal positional encoding (PE(pos, 2i) =
 * sin(pos / 10000^(2i/d)), PE(pos, 2i+1) = cos(...)) with its axes and colour bar, and a
 * curve. `phase` shifts every position by that amount, so that successive values make the
 * frames of an animation. For the tests and benchmarks of inline images and animations, which
 * must not depend on the front-end's figure code. */
#ifndef TF_TEST_SAMPLE_FIGURE_H
#define TF_TEST_SAMPLE_FIGURE_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "anim.h"
#include "core/tempfile.h"
#include "figure.h"

#define SAMPLE_POS 32
#define SAMPLE_DIM 64

/* Draw the sample on spec's page and finish it (fig_end). */
static inline tf_status sample_figure(const fig_spec *spec, double phase)
{
    fig_meta meta = {.title = "sample",
                     .software = "tfviz test",
                     .params = "sample",
                     .date = "2000-01-01T00:00:00Z"};
    fig *f;
    tf_status st = fig_begin(spec, &meta, &f);
    if (st != TF_OK)
        return st;
    double margin = 0.5 * spec->font_size;
    fig_rect area = {margin, margin, spec->width - 2 * margin, spec->height - 2 * margin};
    char title[128];
    snprintf(title, sizeof title, "位置编码 positional encoding, phase %.2f", phase);
    double th = fig_title(f, area, title, true);
    area.y += th + 0.4 * spec->font_size;
    area.h -= th + 0.4 * spec->font_size;

    double pe[SAMPLE_POS * SAMPLE_DIM]; /* (pos, dim) */
    double xs[SAMPLE_DIM], ys[SAMPLE_DIM];
    for (int p = 0; p < SAMPLE_POS; p++)
        for (int j = 0; j < SAMPLE_DIM; j++) {
            double w = pow(10000.0, -2.0 * (j / 2) / SAMPLE_DIM);
            double a = (p + phase) * w;
            pe[p * SAMPLE_DIM + j] = j % 2 ? cos(a) : sin(a);
        }
    fig_axes ax = {0};
    ax.x = (fig_axis){
        .lo = -0.5, .hi = SAMPLE_DIM - 0.5, .integer = true, .label = "dimension <i>j</i>"};
    ax.y = (fig_axis){.lo = -0.5,
                      .hi = SAMPLE_POS - 0.5,
                      .integer = true,
                      .flip = true,
                      .label = "位置 <i>pos</i>"};
    ax.frame = true;
    const char *cb = "PE(<i>pos</i>, <i>j</i>)";
    ax.right = fig_colorbar_width(f, -1, 1, cb);
    fig_axes_fit(f, &ax, area);
    st = fig_heatmap(f, &ax, &(fig_matrix){.f64 = pe, .rows = SAMPLE_POS, .cols = SAMPLE_DIM},
                     CMAP_RDBU, -1, 1);
    fig_axes_draw(f, &ax);
    fig_rect bar = {ax.r.x + ax.r.w, ax.r.y, ax.right, ax.r.h};
    fig_colorbar(f, bar, CMAP_RDBU, -1, 1, cb);
    /* the row at position 0 as a curve over the heatmap: an antialiased line in a series colour */
    for (int j = 0; j < SAMPLE_DIM; j++) {
        xs[j] = j;
        ys[j] = SAMPLE_POS / 2.0 - 8.0 * pe[j];
    }
    fig_line(f, &ax, xs, ys, SAMPLE_DIM, fig_series_color(1), 2 * 0.075 * spec->font_size,
             FIG_SOLID);
    if (st != TF_OK) {
        fig_free(f);
        return st;
    }
    return fig_end(f);
}

/* The sample as a raster of width x height pixels on a page of those proportions, 4 in wide. */
static inline tf_status sample_raster(int width, int height, double phase, fig_raster *out)
{
    fig_spec spec = {.format = FIG_PNG,
                     .width = 288,
                     .height = 288.0 * height / width,
                     .font_size = 8,
                     .latin_first = false,
                     .raster = out};
    out->width = width;
    out->height = height;
    return sample_figure(&spec, phase);
}

/* The next frame of d as a PNG, replaced atomically (as --export DIR/ writes it). */
static inline tf_status sample_dir_frame(anim_dir *d, const fig_raster *r, const fig_meta *m)
{
    const char *path = anim_dir_next(d);
    if (!path)
        return TF_ERR_RANGE;
    tempfile f;
    tf_status st = tempfile_open(&f, path);
    if (st != TF_OK)
        return st;
    st = fig_png_write(f.fp, r, m);
    if (st != TF_OK) {
        tempfile_abort(&f);
        return st;
    }
    st = tempfile_commit(&f);
    if (st == TF_OK)
        anim_dir_written(d);
    return st;
}

#endif
