/* figure_plot.c — what goes inside the axes: heatmaps (one image or one grid of cells each, never
 * smoothed, area-averaged where cells outnumber pixels), lines, markers, bars, arrows, circles
 * and legends, all drawn through the pen (figure_pen.c); colour bars are in figure_axes.c. */
#include "figure_priv.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

/* ---------------------------------------------------------------------------------------------
 * Heatmaps */

#define FIG_MAX_IMAGE 32767    /* cairo's largest image side */
#define SVG_MAX_PIXELS 8000000 /* SVG: the largest image of repeated cells */

/* Row r of m into out (cols values). */
static void matrix_row(const fig_matrix *m, long r, double *out)
{
    if (m->row) {
        m->row(m->ctx, r, out);
        return;
    }
    size_t at = (size_t)r * (size_t)m->cols;
    for (long c = 0; c < m->cols; c++)
        out[c] = m->f64 ? m->f64[at + (size_t)c] : (double)m->f32[at + (size_t)c];
}

static uint32_t rgb24(tf_rgb k) { return (uint32_t)k.r << 16 | (uint32_t)k.g << 8 | k.b; }

/* Source cell i of n lands on [i * d / n, (i + 1) * d / n) of d output pixels (d <= n): at most
 * two, *j0 and *j0 + 1, the first taking the share returned (in pixels, so each pixel's weights
 * add up to 1), the second the rest of d / n. */
static double span(long i, long n, long d, long *j0)
{
    double a = (double)i * d / n;
    long j = (long)floor(a);
    *j0 = j < d ? j : d - 1;
    return fmin((double)(i + 1) * d / n, (double)(*j0 + 1)) - a;
}

/* The dr x dc grid (dr <= rows, dc <= cols) each pixel the area-weighted mean of the values of
 * the cells it covers (non-finite values count as 0). NULL when out of memory. */
static double *matrix_means(const fig_matrix *m, long dr, long dc)
{
    long n = m->cols;
    size_t cells = (size_t)dr * (size_t)dc; /* then a row, each column's span, the row's line */
    double *acc = calloc(cells + (size_t)n * 3 + (size_t)dc, sizeof *acc);
    if (!acc)
        return NULL;
    double *row = acc + cells, *w0 = row + n, *j0 = w0 + n, *line = j0 + n;
    for (long c = 0; c < n; c++) {
        long j;
        w0[c] = span(c, n, dc, &j);
        j0[c] = (double)j;
    }
    for (long r = 0; r < m->rows; r++) {
        matrix_row(m, r, row);
        /* the row averaged across, then spread over the one or two pixel rows it covers */
        for (long j = 0; j < dc; j++)
            line[j] = 0;
        for (long c = 0; c < n; c++) {
            long j = (long)j0[c];
            double v = isfinite(row[c]) ? row[c] : 0.0, w1 = (double)dc / n - w0[c];
            line[j] += w0[c] * v;
            if (w1 > 1e-12 && j + 1 < dc)
                line[j + 1] += w1 * v;
        }
        long i0;
        double wr0 = span(r, m->rows, dr, &i0), wr1 = (double)dr / m->rows - wr0;
        double *a0 = acc + (size_t)i0 * (size_t)dc; /* and the next pixel row, a0 + dc */
        for (long j = 0; j < dc; j++) {
            a0[j] += wr0 * line[j];
            if (wr1 > 1e-12 && i0 + 1 < dr)
                a0[dc + j] += wr1 * line[j];
        }
    }
    return acc;
}

/* The matrix as a dr x dc grid of colours (RGB24): its cells themselves when dr = rows and
 * dc = cols, otherwise each pixel the colour of matrix_means. NULL when out of memory. */
static uint32_t *matrix_pixels(const fig_matrix *m, long dr, long dc, const tf_rgb pal[256],
                               double lo, double hi)
{
    bool averaged = dr < m->rows || dc < m->cols;
    double *v = averaged ? matrix_means(m, dr, dc) : malloc((size_t)m->cols * sizeof *v);
    uint32_t *px = v ? malloc((size_t)dr * (size_t)dc * sizeof *px) : NULL;
    for (long r = 0; px && r < dr; r++) {
        const double *row = averaged ? v + (size_t)r * (size_t)dc : v;
        if (!averaged)
            matrix_row(m, r, v);
        for (long c = 0; c < dc; c++)
            px[(size_t)r * (size_t)dc + (size_t)c] =
                rgb24(pal[colormap_index(hi > lo ? (row[c] - lo) / (hi - lo) : 0.5)]);
    }
    free(v);
    return px;
}

/* The pixels a side of len points holds. */
static long side_pixels(const fig *f, double len)
{
    double px = f->spec.format == FIG_PNG ? len * f->scale : len / 72.0 * FIG_VECTOR_DPI;
    return px < 1 ? 1 : (long)ceil(px - 1e-9);
}

/* A dr x dc grid of colours over dst; on SVG pages its cells repeated by whole pixels up to the
 * page's resolution, so a renderer that smooths images smooths inside cells, not across them. */
static void heat_image(fig *f, const uint32_t *px, long dr, long dc, fig_rect dst, bool bottom_up)
{
    long kx = f->svg ? side_pixels(f, dst.w) / dc : 1; /* >= 1 each */
    long ky = f->svg ? side_pixels(f, dst.h) / dr : 1;
    while (kx * ky > 1 && (double)kx * dc * ky * dr > SVG_MAX_PIXELS) {
        kx = kx > 1 ? kx / 2 : 1;
        ky = ky > 1 ? ky / 2 : 1;
    }
    long w = dc * kx, h = dr * ky;
    uint32_t *big = kx * ky > 1 ? malloc((size_t)w * (size_t)h * sizeof *big) : NULL;
    if (!big) { /* the cells as they are: one pixel each */
        pen_image(f, px, (int)dc, (int)dr, dst, bottom_up);
        return;
    }
    for (long y = 0; y < h; y++) {
        const uint32_t *src = px + (size_t)(y / ky) * (size_t)dc;
        uint32_t *out = big + (size_t)y * (size_t)w;
        for (long x = 0; x < w; x++)
            out[x] = src[x / kx];
    }
    pen_image(f, big, (int)w, (int)h, dst, bottom_up);
    free(big);
}

void fig_heatmap_grid(const fig *f, const fig_axes *a, const fig_matrix *m, long *dr, long *dc)
{
    *dc = side_pixels(f, a->r.w), *dr = side_pixels(f, a->r.h);
    *dc = *dc < m->cols ? *dc : m->cols; /* (integer caps: the analyzer follows them) */
    *dr = *dr < m->rows ? *dr : m->rows;
}

double *fig_heatmap_means(const fig *f, const fig_axes *a, const fig_matrix *m, long *dr, long *dc)
{
    fig_heatmap_grid(f, a, m, dr, dc);
    return *dr == m->rows && *dc == m->cols ? NULL : matrix_means(m, *dr, *dc);
}

tf_status fig_heatmap(fig *f, const fig_axes *a, const fig_matrix *m, cmap_id cm, double lo,
                      double hi)
{
    if (m->rows < 1 || m->cols < 1 || m->rows > FIG_MAX_IMAGE || m->cols > FIG_MAX_IMAGE ||
        (!m->f64 && !m->f32 && !m->row))
        return TF_ERR_RANGE;
    fig_record(f, FIG_BOX_HEATMAP, a->r, 0, a->r, NULL);
    long dc, dr;
    fig_heatmap_grid(f, a, m, &dr, &dc);
    if (!f->heat.have_heatmap) {
        double k = f->scale; /* PNG: pixels (a raster page's offset in them); else points */
        f->heat = (fig_raster){.have_heatmap = true, .heat_x = f->off_x + a->r.x * k,
                               .heat_y = f->off_y + a->r.y * k, .heat_w = a->r.w * k,
                               .heat_h = a->r.h * k, .heat_rows = m->rows, .heat_cols = m->cols,
                               .heat_drawn_rows = dr, .heat_drawn_cols = dc};
    }
    if (f->spec.measure)
        return TF_OK;
    tf_rgb pal[256];
    colormap_palette(cm, pal);
    uint32_t *px = matrix_pixels(m, dr, dc, pal, lo, hi);
    if (!px)
        return TF_ERR_NOMEM;
    pen_part_begin(f, PART_HEATMAP, &a->r);
    heat_image(f, px, dr, dc, a->r, !a->y.flip);
    pen_part_end(f, PART_HEATMAP);
    free(px);
    return TF_OK;
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

/* Lines width wide, dashed as dash says. */
static void set_line(fig *f, double width, fig_dash dash)
{
    /* on, off, ... in line widths, by fig_dash; dots and dash-dots with round caps (the dash-dot's
     * dot has a length: cairo drops a dash of length 0 inside a pattern, leaving a dashed line) */
    static const double pattern[][4] = {{0}, {3.5, 2.0}, {0.0, 2.2}, {3.5, 1.6, 0.01, 1.6}};
    static const int count[] = {0, 2, 2, 4};
    int k = dash >= FIG_DASHED && dash <= FIG_DASHDOT ? (int)dash : FIG_SOLID;
    double on[4] = {0};
    for (int i = 0; i < count[k]; i++)
        on[i] = pattern[k][i] * width;
    if (k == FIG_DOTTED || k == FIG_DASHDOT)
        pen_cap(f, PEN_CAP_ROUND);
    pen_dash(f, on, count[k]);
    pen_width(f, width);
}

/* Data drawn on a's plot in colour c: in its panel, the pen saved and, with clip, clipped to the
 * plot and two line widths around it (the clip returned); data_end ends it. */
static fig_rect data_begin(fig *f, const fig_axes *a, tf_rgb c, bool clip)
{
    double e = fig_line_width(f) * 2;
    fig_rect r = {a->r.x - e, a->r.y - e, a->r.w + 2 * e, a->r.h + 2 * e};
    pen_part_begin(f, PART_DATA, &a->r);
    pen_save(f);
    if (clip)
        pen_clip_rect(f, r);
    pen_rgb(f, c);
    return r;
}

static void data_end(fig *f)
{
    pen_restore(f);
    pen_part_end(f, PART_DATA);
}

void fig_line(fig *f, const fig_axes *a, const double *x, const double *y, long n, tf_rgb c,
              double width, fig_dash dash)
{
    fig_rect clip = data_begin(f, a, c, true);
    pen_join_round(f);
    set_line(f, width, dash);
    double lx = NAN, ly = 0; /* the last point, NAN: the pen is up */
    for (long i = 0; i < n; i++) {
        double px = fig_px(a, x[i]), py = fig_py(a, y[i]);
        double dx = px - lx, dy = py - ly, lo, hi;
        if (!isfinite(px) || !isfinite(py)) {
            px = NAN;
        } else if (isnan(lx)) {
            pen_move(f, px, py);
        } else {
            pen_line(f, px, py);
            /* recorded as drawn: clipped (arrows and circles are not) */
            if (f->spec.boxes && fig_clip_segment(lx, ly, dx, dy, clip, &lo, &hi))
                fig_record(f, FIG_BOX_SEGMENT,
                           (fig_rect){lx + lo * dx, ly + lo * dy, (hi - lo) * dx, (hi - lo) * dy},
                           0, a->r, NULL);
        }
        lx = px;
        ly = py;
    }
    pen_stroke(f);
    data_end(f);
}

void fig_markers(fig *f, const fig_axes *a, const double *x, const double *y, long n, tf_rgb c,
                 double size)
{
    data_begin(f, a, c, true);
    for (long i = 0; i < n; i++) {
        double px = fig_px(a, x[i]), py = fig_py(a, y[i]);
        if (!isfinite(px) || !isfinite(py))
            continue;
        pen_circle(f, px, py, size / 2);
        fig_record(f, FIG_BOX_MARKER, (fig_rect){px - size / 2, py - size / 2, size, size}, 0,
                   a->r, NULL);
    }
    pen_fill(f);
    data_end(f);
}

/* The outline of marker shape at (px, py), r the radius of its circle: a circle or a regular
 * polygon (sides, turned so that a triangle points up or down and a square sits level). */
static void marker_path(fig *f, int shape, double px, double py, double r)
{
    static const struct {
        int sides;
        double turn, scale; /* the first vertex's angle from "up" in turns; radius scale */
    } poly[] = {{0, 0, 1}, {4, 0.125, 1.1}, {4, 0, 1.25}, {3, 0, 1.3},
                {3, 0.5, 1.3}, {5, 0, 1.15}, {6, 0, 1.1}};
    int k = shape >= 0 && shape < (int)(sizeof poly / sizeof poly[0]) ? shape : 0;
    if (poly[k].sides == 0) {
        pen_circle(f, px, py, r);
        return;
    }
    for (int i = 0; i < poly[k].sides; i++) {
        double t = 2 * M_PI * (poly[k].turn + (double)i / poly[k].sides);
        double vx = px + poly[k].scale * r * sin(t), vy = py - poly[k].scale * r * cos(t);
        if (i == 0)
            pen_move(f, vx, vy);
        else
            pen_line(f, vx, vy);
    }
    pen_close(f);
}

void fig_markers_shape(fig *f, const fig_axes *a, const double *x, const double *y, long n,
                       tf_rgb c, double size, int shape)
{
    data_begin(f, a, c, true);
    pen_width(f, 0.5 * fig_line_width(f));
    for (long i = 0; i < n; i++) {
        double px = fig_px(a, x[i]), py = fig_py(a, y[i]);
        if (!isfinite(px) || !isfinite(py))
            continue;
        marker_path(f, shape, px, py, size / 2);
        pen_rgb(f, c);
        pen_fill(f);
        marker_path(f, shape, px, py, size / 2);
        pen_rgb(f, (tf_rgb){255, 255, 255});
        pen_stroke(f);
        fig_record(f, FIG_BOX_MARKER, (fig_rect){px - size / 2, py - size / 2, size, size}, 0,
                   a->r, NULL);
    }
    data_end(f);
}

void fig_bar(fig *f, const fig_axes *a, double x0, double x1, double base, double top, tf_rgb c)
{
    double px0 = fig_px(a, x0), px1 = fig_px(a, x1), py0 = fig_py(a, base), py1 = fig_py(a, top);
    if (!isfinite(px0 + px1 + py0 + py1))
        return;
    fig_rect r = {fmin(px0, px1), fmin(py0, py1), fabs(px1 - px0), fabs(py1 - py0)};
    fig_record(f, FIG_BOX_BAR, r, 0, a->r, NULL);
    data_begin(f, a, c, true);
    pen_rect(f, r.x, r.y, r.w, r.h);
    pen_fill(f);
    data_end(f);
}

void fig_segment(fig *f, const fig_axes *a, double x0, double y0, double x1, double y1, tf_rgb c,
                 double width, fig_dash dash)
{
    double x[2] = {x0, x1}, y[2] = {y0, y1};
    fig_line(f, a, x, y, 2, c, width, dash);
}

fig_rect fig_arrow(fig *f, const fig_axes *a, double x0, double y0, double x1, double y1,
                   tf_rgb c, double width, double head)
{
    double px0 = fig_px(a, x0), py0 = fig_py(a, y0), px1 = fig_px(a, x1), py1 = fig_py(a, y1);
    double dx = px1 - px0, dy = py1 - py0, len = hypot(dx, dy);
    if (!(len > 0))
        return (fig_rect){px1, py1, 0, 0};
    double ux = dx / len, uy = dy / len;
    double hl = fmin(head, 0.6 * len), hw = 0.45 * hl;
    double bx = px1 - ux * hl, by = py1 - uy * hl; /* base of the head */
    fig_record(f, FIG_BOX_SEGMENT, (fig_rect){px0, py0, dx, dy}, 0, a->r, NULL);
    fig_rect hr = {fmin(px1, bx) - hw, fmin(py1, by) - hw, fabs(px1 - bx) + 2 * hw,
                   fabs(py1 - by) + 2 * hw};
    fig_record(f, FIG_BOX_MARKER, hr, 0, a->r, NULL);
    data_begin(f, a, c, false);
    pen_width(f, width);
    pen_move(f, px0, py0);
    pen_line(f, bx + ux * 0.2 * hl, by + uy * 0.2 * hl);
    pen_stroke(f);
    pen_move(f, px1, py1);
    pen_line(f, bx - uy * hw, by + ux * hw);
    pen_line(f, bx + uy * hw, by - ux * hw);
    pen_close(f);
    pen_fill(f);
    data_end(f);
    return hr;
}

void fig_circle(fig *f, const fig_axes *a, double cx, double cy, double r, tf_rgb c, double width,
                fig_dash dash)
{
    double px = fig_px(a, cx), py = fig_py(a, cy);
    double pr = fabs(fig_px(a, cx + r) - px);
    /* recorded as the polygon of 72 chords (within 0.1% of the radius of the circle) */
    for (int i = 0; i < 72 && isfinite(px + py + pr); i++) {
        double t0 = 2 * M_PI * i / 72, t1 = 2 * M_PI * (i + 1) / 72;
        double x0 = px + pr * cos(t0), y0 = py + pr * sin(t0);
        double dx = px + pr * cos(t1) - x0, dy = py + pr * sin(t1) - y0;
        fig_record(f, FIG_BOX_SEGMENT, (fig_rect){x0, y0, dx, dy}, 0, a->r, NULL);
    }
    data_begin(f, a, c, false);
    set_line(f, width, dash);
    pen_circle(f, px, py, pr);
    pen_stroke(f);
    data_end(f);
}

/* ---------------------------------------------------------------------------------------------
 * Legends */

/* A boxed legend's width and its lines' height; returns its height. */
static double legend_box(fig *f, const fig_legend_item *items, int n, double *w, double *lh)
{
    double fs = fig_font_size(f), pad = 0.45 * fs, sample = 1.8 * fs;
    *w = 0;
    *lh = 0;
    for (int i = 0; i < n; i++) {
        double tw, th;
        fig_text_size(f, items[i].label, false, &tw, &th);
        *w = fmax(*w, tw);
        *lh = fmax(*lh, th);
    }
    *w += sample + 3 * pad;
    return n * *lh + 2 * pad;
}

double fig_legend_width(fig *f, const fig_legend_item *items, int n)
{
    double w, lh;
    legend_box(f, items, n, &w, &lh);
    return w + 0.6 * fig_font_size(f);
}

double fig_legend_height(fig *f, const fig_legend_item *items, int n)
{
    double w, lh;
    return legend_box(f, items, n, &w, &lh);
}

/* The frame of a legend of w x h in corner of a's plot (see fig_legend). */
static fig_rect legend_frame(const fig *f, const fig_axes *a, double w, double h, int corner)
{
    double fs = fig_font_size(f), inset = 0.5 * fs;
    if (corner == 4)
        return (fig_rect){a->r.x + a->r.w + 0.6 * fs, a->r.y, w, h};
    double x = corner & 1 ? a->r.x + a->r.w - inset - w : a->r.x + inset;
    double y = corner & 2 ? a->r.y + a->r.h - inset - h : a->r.y + inset;
    return (fig_rect){x, y, w, h};
}

bool fig_series_hit(const fig_axes *a, const fig_series *s, fig_rect r)
{
    for (long i = 0; i < s->n; i++) {
        double x0 = fig_px(a, s->x[i]), y0 = fig_py(a, s->y[i]);
        long j = i + 1 < s->n ? i + 1 : i; /* the last point: a segment of no length */
        double x1 = fig_px(a, s->x[j]), y1 = fig_py(a, s->y[j]);
        if (isfinite(x0 + y0 + x1 + y1) && fig_segment_hits(x0, y0, x1 - x0, y1 - y0, r))
            return true;
    }
    return false;
}

int fig_legend_place(fig *f, const fig_axes *a, const fig_legend_item *items, int n,
                     const fig_series *s, int ns)
{
    double w, lh, h = legend_box(f, items, n, &w, &lh);
    for (int k = 0; k < 4; k++) { /* corners 1, 0, 3, 2 */
        fig_rect r = legend_frame(f, a, w, h, k ^ 1);
        if (r.x < a->r.x || r.y < a->r.y || r.x + r.w > a->r.x + a->r.w ||
            r.y + r.h > a->r.y + a->r.h)
            continue; /* larger than the plot */
        bool hit = false;
        for (int i = 0; i < ns && !hit; i++)
            hit = fig_series_hit(a, &s[i], r);
        if (!hit)
            return k ^ 1;
    }
    return -1;
}

double fig_legend_rows(fig *f, const fig_legend_item *items, int n, fig_rect area, bool draw)
{
    double fs = fig_font_size(f), sample = 1.6 * fs, gap = 1.2 * fs;
    double lw = 0.14 * fig_font_size(f), rh = 1.5 * fs;
    /* page coordinates as data: x from the area's left, y up from its bottom */
    fig_axes pa = {.r = area, .x = {.lo = 0, .hi = area.w}, .y = {.lo = 0, .hi = area.h}};
    double px = 0;
    int row = 0;
    for (int k = 0; k < n; k++) {
        double w, h;
        fig_text_size(f, items[k].label, false, &w, &h);
        double item = sample + 0.4 * fs + w;
        if (px > 0 && px + item > area.w)
            px = 0, row++;
        if (draw) {
            double cy = area.y + (row + 0.5) * rh; /* the row's middle */
            double yc = area.h - (row + 0.5) * rh; /* the same, up from the bottom */
            if (items[k].bar) { /* a bar's square, as the legend beside a plot has it */
                double side = 0.6 * fs;
                pen_rgb(f, items[k].color);
                pen_rect(f, area.x + px + (sample - side) / 2, cy - side / 2, side, side);
                pen_fill(f);
            } else {
                fig_segment(f, &pa, px, yc, px + sample, yc, items[k].color, lw, items[k].dash);
            }
            double mx = px + sample / 2;
            if (items[k].marker > 0)
                fig_markers_shape(f, &pa, &mx, &yc, 1, items[k].color, 0.6 * fs,
                                  items[k].marker - 1);
            fig_text(f, FIG_TICK, items[k].label, false, area.x + px + sample + 0.4 * fs, cy, 0,
                     0.5, false);
        }
        px += item + gap;
    }
    return (row + 1) * rh;
}

void fig_legend(fig *f, const fig_axes *a, const fig_legend_item *items, int n, int corner)
{
    if (n <= 0)
        return;
    if (corner == 4 && a->legend_band.h > 0) { /* moved above the plot (fig_axes_fit) */
        pen_part_begin(f, PART_LEGEND, &a->r); /* its labels checked as labels */
        fig_legend_rows(f, items, n, a->legend_band, true);
        pen_part_end(f, PART_LEGEND);
        return;
    }
    double fs = fig_font_size(f), pad = 0.45 * fs, sample = 1.8 * fs;
    double w, lh, h = legend_box(f, items, n, &w, &lh);
    fig_rect fr = legend_frame(f, a, w, h, corner);
    fig_record(f, FIG_BOX_LEGEND, fr, 0, a->r, NULL);
    pen_part_begin(f, PART_LEGEND, &a->r);
    pen_rect(f, fr.x, fr.y, fr.w, fr.h);
    pen_rgb(f, (tf_rgb){255, 255, 255});
    pen_fill(f);
    pen_rect(f, fr.x, fr.y, fr.w, fr.h);
    pen_rgb(f, (tf_rgb){204, 204, 204});
    pen_width(f, fig_line_width(f) * 0.8);
    pen_stroke(f);
    for (int i = 0; i < n; i++) {
        double cy = fr.y + pad + (i + 0.5) * lh;
        pen_rgb(f, items[i].color);
        if (items[i].bar) {
            pen_rect(f, fr.x + pad + sample / 2 - 0.3 * lh, cy - 0.3 * lh, 0.6 * lh, 0.6 * lh);
            pen_fill(f);
        } else {
            pen_save(f);
            set_line(f, 1.4 * fig_line_width(f), items[i].dash);
            pen_move(f, fr.x + pad, cy);
            pen_line(f, fr.x + pad + sample, cy);
            pen_stroke(f);
            pen_restore(f);
            if (items[i].marker > 0) {
                marker_path(f, items[i].marker - 1, fr.x + pad + sample / 2, cy, 0.3 * fs);
                pen_fill(f);
            }
        }
        fig_text_legend(f, fr, items[i].label, fr.x + 2 * pad + sample, cy);
    }
    pen_part_end(f, PART_LEGEND);
}
