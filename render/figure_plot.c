/* figure_plot.c — what goes inside the axes: heatmaps (one nearest-neighbour image each),
 * colorbars, lines, markers, bars, arrows, circles and legends. */
#include "figure_priv.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

/* ---------------------------------------------------------------------------------------------
 * Heatmaps */

#define FIG_MAX_IMAGE 32767 /* cairo's largest image side */

static double matrix_at(const fig_matrix *m, long r, long c)
{
    size_t i = (size_t)r * (size_t)m->cols + (size_t)c;
    return m->f64 ? m->f64[i] : (double)m->f32[i];
}

/* One palette index per cell (the colour map's table, as colormap_value quantises), and the
 * RGB24 image of those colours. */
static cairo_surface_t *matrix_image(const fig_matrix *m, const tf_rgb pal[256], double lo,
                                     double hi, unsigned char *index)
{
    cairo_surface_t *img =
        cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)m->cols, (int)m->rows);
    if (cairo_surface_status(img) != CAIRO_STATUS_SUCCESS)
        return img;
    unsigned char *data = cairo_image_surface_get_data(img);
    int stride = cairo_image_surface_get_stride(img);
    for (long r = 0; r < m->rows; r++) {
        uint32_t *row = (uint32_t *)(void *)(data + (size_t)r * stride);
        unsigned char *ix = index + (size_t)r * (size_t)m->cols;
        for (long c = 0; c < m->cols; c++) {
            int i = colormap_index(hi > lo ? (matrix_at(m, r, c) - lo) / (hi - lo) : 0.5);
            tf_rgb k = pal[i];
            ix[c] = (unsigned char)i;
            row[c] = 0xff000000u | (uint32_t)k.r << 16 | (uint32_t)k.g << 8 | k.b;
        }
    }
    cairo_surface_mark_dirty(img);
    return img;
}

/* Paint img (cols x rows pixels) over rect r without smoothing. */
static void paint_nearest(fig *f, cairo_surface_t *img, fig_rect r, bool bottom_up)
{
    int w = cairo_image_surface_get_width(img), h = cairo_image_surface_get_height(img);
    cairo_t *cr = f->cr;
    cairo_save(cr);
    cairo_translate(cr, r.x, r.y);
    if (bottom_up) {
        cairo_translate(cr, 0, r.h);
        cairo_scale(cr, r.w / w, -r.h / h);
    } else {
        cairo_scale(cr, r.w / w, r.h / h);
    }
    cairo_set_source_surface(cr, img, 0, 0);
    cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_NEAREST);
    cairo_pattern_set_extend(cairo_get_source(cr), CAIRO_EXTEND_NONE);
    cairo_rectangle(cr, 0, 0, w, h);
    cairo_fill(cr);
    cairo_restore(cr);
}

tf_status fig_heatmap(fig *f, const fig_axes *a, const fig_matrix *m, cmap_id cm, double lo,
                      double hi)
{
    if (m->rows < 1 || m->cols < 1 || m->rows > FIG_MAX_IMAGE || m->cols > FIG_MAX_IMAGE)
        return TF_ERR_RANGE;
    tf_rgb pal[256];
    colormap_palette(cm, pal);
    unsigned char *index = malloc((size_t)m->rows * (size_t)m->cols);
    cairo_surface_t *img = index ? matrix_image(m, pal, lo, hi, index) : NULL;
    if (!img || cairo_surface_status(img) != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(img);
        free(index);
        return TF_ERR_NOMEM;
    }
    /* a PDF takes the indices and the palette (pdf_append.c); otherwise they are done with */
    if (f->spec.format != FIG_PDF || f->spec.plain_images ||
        !fig_pdf_mark(f, img, index, m->rows, m->cols, pal)) {
        free(index);
        if (cairo_surface_status(img) != CAIRO_STATUS_SUCCESS) {
            cairo_surface_destroy(img);
            return TF_ERR_NOMEM;
        }
    }
    paint_nearest(f, img, a->r, !a->y.flip);
    cairo_surface_destroy(img);
    if (!f->have_heatmap && f->spec.format == FIG_PNG) {
        f->have_heatmap = true;
        f->heat_x = f->off_x + a->r.x * f->scale;
        f->heat_y = f->off_y + a->r.y * f->scale;
        f->heat_w = a->r.w * f->scale;
        f->heat_h = a->r.h * f->scale;
        f->heat_rows = m->rows;
        f->heat_cols = m->cols;
    }
    return TF_OK;
}

/* ---------------------------------------------------------------------------------------------
 * Colorbars */

static double cb_gap(const fig *f) { return 0.8 * f->spec.font_size; }
static double cb_bar(const fig *f) { return 0.85 * f->spec.font_size; }

static void cb_axis(fig *f, fig_axis *ax, double lo, double hi, double len)
{
    *ax = (fig_axis){.lo = lo, .hi = hi};
    fig_axis_ticks(f, ax, len, false);
}

double fig_colorbar_width(fig *f, double lo, double hi, const char *label)
{
    fig_axis ax;
    cb_axis(f, &ax, lo, hi, 100.0);
    double w, h;
    fig_axis_label_extent(f, &ax, &w, &h);
    double total = cb_gap(f) + cb_bar(f) + fig_tick_len(f) + 0.5 * 0.35 * f->spec.font_size + w;
    if (label) {
        fig_text_size(f, FIG_LABEL, label, false, &w, &h);
        total += 0.35 * f->spec.font_size + h;
    }
    return total;
}

void fig_colorbar(fig *f, fig_rect r, cmap_id cm, double lo, double hi, const char *label)
{
    fig_axes a = {0};
    a.r = fig_snap(f, (fig_rect){r.x + cb_gap(f), r.y, cb_bar(f), r.h});
    cb_axis(f, &a.y, lo, hi, r.h);
    a.x = (fig_axis){.lo = 0, .hi = 1};

    /* the ramp: 256 table entries, top = hi */
    cairo_surface_t *img = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 1, 256);
    if (cairo_surface_status(img) == CAIRO_STATUS_SUCCESS) {
        unsigned char *data = cairo_image_surface_get_data(img);
        int stride = cairo_image_surface_get_stride(img);
        tf_rgb pal[256];
        colormap_palette(cm, pal);
        for (int i = 0; i < 256; i++) {
            tf_rgb k = pal[255 - i];
            *(uint32_t *)(void *)(data + (size_t)i * stride) =
                0xff000000u | (uint32_t)k.r << 16 | (uint32_t)k.g << 8 | k.b;
        }
        cairo_surface_mark_dirty(img);
        paint_nearest(f, img, a.r, false);
    }
    cairo_surface_destroy(img);

    cairo_t *cr = f->cr;
    double tick = fig_tick_len(f), pad = 0.35 * f->spec.font_size;
    cairo_save(cr);
    fig_set_rgb(f, (tf_rgb){38, 38, 38});
    cairo_set_line_width(cr, fig_line_width(f));
    cairo_rectangle(cr, a.r.x, a.r.y, a.r.w, a.r.h);
    double x1 = a.r.x + a.r.w;
    for (int i = 0; i < a.y.nt; i++) {
        double y = fig_py(&a, a.y.t[i]);
        cairo_move_to(cr, x1, y);
        cairo_line_to(cr, x1 + tick, y);
    }
    cairo_stroke(cr);
    cairo_restore(cr);
    double w, h;
    fig_axis_label_extent(f, &a.y, &w, &h);
    for (int i = 0; i < a.y.nt; i++)
        fig_text(f, FIG_TICK, a.y.tl[i], false, x1 + tick + 0.5 * pad, fig_py(&a, a.y.t[i]), 0.0,
                 0.5, false);
    if (label)
        fig_text(f, FIG_LABEL, label, false, x1 + tick + 0.5 * pad + w + pad, a.r.y + a.r.h / 2,
                 0.5, 0.0, true);
}

/* ---------------------------------------------------------------------------------------------
 * Lines, markers, bars, arrows */

tf_rgb fig_series_color(int i)
{
    /* Okabe & Ito (2008): distinguishable with every common colour-vision deficiency */
    static const tf_rgb okabe_ito[] = {
        {0, 114, 178}, {213, 94, 0}, {0, 158, 115}, {204, 121, 167},
        {230, 159, 0}, {86, 180, 233}, {0, 0, 0},
    };
    int n = (int)(sizeof okabe_ito / sizeof okabe_ito[0]);
    return okabe_ito[((i % n) + n) % n];
}

static void set_dash(fig *f, fig_dash dash, double width)
{
    double on[2];
    switch (dash) {
    case FIG_DASHED:
        on[0] = 3.5 * width;
        on[1] = 2.0 * width;
        cairo_set_dash(f->cr, on, 2, 0);
        break;
    case FIG_DOTTED:
        on[0] = 0.0;
        on[1] = 2.2 * width;
        cairo_set_line_cap(f->cr, CAIRO_LINE_CAP_ROUND);
        cairo_set_dash(f->cr, on, 2, 0);
        break;
    default:
        cairo_set_dash(f->cr, NULL, 0, 0);
    }
}

static void clip_plot(fig *f, const fig_axes *a)
{
    double e = fig_line_width(f) * 2;
    cairo_rectangle(f->cr, a->r.x - e, a->r.y - e, a->r.w + 2 * e, a->r.h + 2 * e);
    cairo_clip(f->cr);
}

void fig_line(fig *f, const fig_axes *a, const double *x, const double *y, long n, tf_rgb c,
              double width, fig_dash dash)
{
    cairo_t *cr = f->cr;
    cairo_save(cr);
    clip_plot(f, a);
    fig_set_rgb(f, c);
    cairo_set_line_width(cr, width);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    set_dash(f, dash, width);
    bool pen = false;
    for (long i = 0; i < n; i++) {
        double px = fig_px(a, x[i]), py = fig_py(a, y[i]);
        if (!isfinite(px) || !isfinite(py)) {
            pen = false;
            continue;
        }
        if (pen)
            cairo_line_to(cr, px, py);
        else
            cairo_move_to(cr, px, py);
        pen = true;
    }
    cairo_stroke(cr);
    cairo_restore(cr);
}

void fig_markers(fig *f, const fig_axes *a, const double *x, const double *y, long n, tf_rgb c,
                 double size)
{
    cairo_t *cr = f->cr;
    cairo_save(cr);
    clip_plot(f, a);
    fig_set_rgb(f, c);
    for (long i = 0; i < n; i++) {
        double px = fig_px(a, x[i]), py = fig_py(a, y[i]);
        if (!isfinite(px) || !isfinite(py))
            continue;
        cairo_new_sub_path(cr);
        cairo_arc(cr, px, py, size / 2, 0, 2 * M_PI);
    }
    cairo_fill(cr);
    cairo_restore(cr);
}

void fig_bar(fig *f, const fig_axes *a, double x0, double x1, double base, double top, tf_rgb c)
{
    double px0 = fig_px(a, x0), px1 = fig_px(a, x1), py0 = fig_py(a, base), py1 = fig_py(a, top);
    if (!isfinite(px0 + px1 + py0 + py1))
        return;
    cairo_save(f->cr);
    clip_plot(f, a);
    fig_set_rgb(f, c);
    cairo_rectangle(f->cr, fmin(px0, px1), fmin(py0, py1), fabs(px1 - px0), fabs(py1 - py0));
    cairo_fill(f->cr);
    cairo_restore(f->cr);
}

void fig_segment(fig *f, const fig_axes *a, double x0, double y0, double x1, double y1, tf_rgb c,
                 double width, fig_dash dash)
{
    double x[2] = {x0, x1}, y[2] = {y0, y1};
    fig_line(f, a, x, y, 2, c, width, dash);
}

void fig_arrow(fig *f, const fig_axes *a, double x0, double y0, double x1, double y1, tf_rgb c,
               double width, double head)
{
    cairo_t *cr = f->cr;
    double px0 = fig_px(a, x0), py0 = fig_py(a, y0), px1 = fig_px(a, x1), py1 = fig_py(a, y1);
    double dx = px1 - px0, dy = py1 - py0, len = hypot(dx, dy);
    if (!(len > 0))
        return;
    double ux = dx / len, uy = dy / len;
    double hl = fmin(head, 0.6 * len), hw = 0.45 * hl;
    double bx = px1 - ux * hl, by = py1 - uy * hl; /* base of the head */
    cairo_save(cr);
    fig_set_rgb(f, c);
    cairo_set_line_width(cr, width);
    cairo_move_to(cr, px0, py0);
    cairo_line_to(cr, bx + ux * 0.2 * hl, by + uy * 0.2 * hl);
    cairo_stroke(cr);
    cairo_move_to(cr, px1, py1);
    cairo_line_to(cr, bx - uy * hw, by + ux * hw);
    cairo_line_to(cr, bx + uy * hw, by - ux * hw);
    cairo_close_path(cr);
    cairo_fill(cr);
    cairo_restore(cr);
}

void fig_circle(fig *f, const fig_axes *a, double cx, double cy, double r, tf_rgb c, double width,
                fig_dash dash)
{
    double px = fig_px(a, cx), py = fig_py(a, cy);
    double pr = fabs(fig_px(a, cx + r) - px);
    cairo_save(f->cr);
    fig_set_rgb(f, c);
    cairo_set_line_width(f->cr, width);
    set_dash(f, dash, width);
    cairo_new_sub_path(f->cr);
    cairo_arc(f->cr, px, py, pr, 0, 2 * M_PI);
    cairo_stroke(f->cr);
    cairo_restore(f->cr);
}

/* ---------------------------------------------------------------------------------------------
 * Legends */

static void legend_box(fig *f, const fig_legend_item *items, int n, double *w, double *lh)
{
    double fs = fig_font_size(f, FIG_TICK), pad = 0.45 * fs, sample = 1.8 * fs;
    *w = 0;
    *lh = 0;
    for (int i = 0; i < n; i++) {
        double tw, th;
        fig_text_size(f, FIG_TICK, items[i].label, false, &tw, &th);
        *w = fmax(*w, tw);
        *lh = fmax(*lh, th);
    }
    *w += sample + 3 * pad;
}

double fig_legend_width(fig *f, const fig_legend_item *items, int n)
{
    double w, lh;
    legend_box(f, items, n, &w, &lh);
    return w + 0.6 * fig_font_size(f, FIG_TICK);
}

void fig_legend(fig *f, const fig_axes *a, const fig_legend_item *items, int n, int corner)
{
    if (n <= 0)
        return;
    double fs = fig_font_size(f, FIG_TICK), pad = 0.45 * fs, sample = 1.8 * fs;
    double w, lh;
    legend_box(f, items, n, &w, &lh);
    double h = n * lh + 2 * pad;
    double inset = 0.5 * fs;
    double x = corner & 1 ? a->r.x + a->r.w - inset - w : a->r.x + inset;
    double y = corner & 2 ? a->r.y + a->r.h - inset - h : a->r.y + inset;
    if (corner == 4) {
        x = a->r.x + a->r.w + 0.6 * fs;
        y = a->r.y;
    }
    cairo_t *cr = f->cr;
    cairo_save(cr);
    cairo_rectangle(cr, x, y, w, h);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_fill_preserve(cr);
    cairo_set_source_rgb(cr, 0.8, 0.8, 0.8);
    cairo_set_line_width(cr, fig_line_width(f) * 0.8);
    cairo_stroke(cr);
    for (int i = 0; i < n; i++) {
        double cy = y + pad + (i + 0.5) * lh;
        fig_set_rgb(f, items[i].color);
        if (items[i].bar) {
            cairo_rectangle(cr, x + pad + sample / 2 - 0.3 * lh, cy - 0.3 * lh, 0.6 * lh, 0.6 * lh);
            cairo_fill(cr);
        } else {
            cairo_set_line_width(cr, 1.4 * fig_line_width(f));
            set_dash(f, items[i].dash, 1.4 * fig_line_width(f));
            cairo_move_to(cr, x + pad, cy);
            cairo_line_to(cr, x + pad + sample, cy);
            cairo_stroke(cr);
            cairo_set_dash(cr, NULL, 0, 0);
        }
        fig_text(f, FIG_TICK, items[i].label, false, x + 2 * pad + sample, cy, 0.0, 0.5, false);
    }
    cairo_restore(cr);
}
