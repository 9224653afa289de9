/* figure_pen.c — the pen: every line, fill, image and label of a page goes through these calls,
 * each the SVG writer's on an SVG page (figure_svg.c), cairo's on a page cairo draws (PNG, PDF,
 * raster), none on a measure page. */
#include "figure_priv.h"

#include <math.h>
#include <string.h>

#define PEN(svg_call, cairo_call) (f->svg ? (svg_call) : f->spec.measure ? (void)0 : (cairo_call))

void pen_save(fig *f)
{
    PEN(svg_save(f), cairo_save(f->cr));
}

void pen_restore(fig *f)
{
    PEN(svg_restore(f), cairo_restore(f->cr));
}

void pen_rgb(fig *f, tf_rgb c)
{
    PEN(svg_rgb(f, c), cairo_set_source_rgb(f->cr, c.r / 255.0, c.g / 255.0, c.b / 255.0));
}

void pen_width(fig *f, double w)
{
    PEN(svg_width(f, w), cairo_set_line_width(f->cr, w));
}

void pen_dash(fig *f, const double *on, int n)
{
    PEN(svg_dash(f, on, n), cairo_set_dash(f->cr, n ? on : NULL, n, 0));
}

void pen_cap(fig *f, int cap)
{
    PEN(svg_cap(f, cap), cairo_set_line_cap(f->cr, (cairo_line_cap_t)cap));
}

void pen_join_round(fig *f)
{
    PEN(svg_join_round(f), cairo_set_line_join(f->cr, CAIRO_LINE_JOIN_ROUND));
}

void pen_move(fig *f, double x, double y)
{
    PEN(svg_move(f, x, y), cairo_move_to(f->cr, x, y));
}

void pen_line(fig *f, double x, double y)
{
    PEN(svg_line(f, x, y), cairo_line_to(f->cr, x, y));
}

void pen_rect(fig *f, double x, double y, double w, double h)
{
    pen_move(f, x, y);
    pen_line(f, x + w, y);
    pen_line(f, x + w, y + h);
    pen_line(f, x, y + h);
    pen_close(f);
}

void pen_circle(fig *f, double cx, double cy, double r)
{
    PEN(svg_circle(f, cx, cy, r),
        (cairo_new_sub_path(f->cr), cairo_arc(f->cr, cx, cy, r, 0, 2 * M_PI)));
}

void pen_close(fig *f)
{
    PEN(svg_close(f), cairo_close_path(f->cr));
}

void pen_stroke(fig *f)
{
    PEN(svg_stroke(f), cairo_stroke(f->cr));
}

void pen_fill(fig *f)
{
    PEN(svg_fill(f), cairo_fill(f->cr));
}

void pen_clip_rect(fig *f, fig_rect r)
{
    PEN(svg_clip_rect(f, r), (cairo_rectangle(f->cr, r.x, r.y, r.w, r.h), cairo_clip(f->cr)));
}

/* cairo: the pixels copied into an image surface of cairo's own (a PDF keeps its source until
 * the page is finished) and painted with nearest-neighbour filtering (in a PDF an image with
 * /Interpolate false), scaled from w x h onto dst. */
static void cairo_image(fig *f, const uint32_t *px, int w, int h, fig_rect dst, bool bottom_up)
{
    cairo_surface_t *img = cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h);
    if (cairo_surface_status(img) != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(img);
        return;
    }
    unsigned char *data = cairo_image_surface_get_data(img);
    int stride = cairo_image_surface_get_stride(img);
    for (int y = 0; y < h; y++)
        memcpy(data + (size_t)y * stride, px + (size_t)y * w, (size_t)w * 4);
    cairo_surface_mark_dirty(img);
    cairo_t *cr = f->cr;
    cairo_save(cr);
    cairo_translate(cr, dst.x, bottom_up ? dst.y + dst.h : dst.y);
    cairo_scale(cr, dst.w / w, (bottom_up ? -dst.h : dst.h) / h);
    cairo_set_source_surface(cr, img, 0, 0);
    cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_NEAREST); /* extend: none already */
    cairo_rectangle(cr, 0, 0, w, h);
    cairo_fill(cr);
    cairo_restore(cr);
    cairo_surface_destroy(img);
}

void pen_image(fig *f, const uint32_t *px, int w, int h, fig_rect dst, bool bottom_up)
{
    PEN(svg_image(f, px, w, h, dst, bottom_up), cairo_image(f, px, w, h, dst, bottom_up));
}

void pen_layout(fig *f, double x, double y, double ax, double ay, bool vertical, tf_rgb c)
{
    if (f->svg) {
        svg_layout(f, x, y, ax, ay, vertical, c);
        return;
    }
    if (f->spec.measure)
        return;
    PangoRectangle logical;
    pango_layout_get_extents(f->layout, NULL, &logical);
    double w = (double)logical.width / PANGO_SCALE, h = (double)logical.height / PANGO_SCALE;
    cairo_t *cr = f->cr;
    cairo_save(cr);
    cairo_set_source_rgb(cr, c.r / 255.0, c.g / 255.0, c.b / 255.0);
    cairo_translate(cr, x, y);
    if (vertical)
        cairo_rotate(cr, -M_PI / 2);
    /* the logical box's corner (a centred, wrapped layout starts its lines right of 0) */
    cairo_move_to(cr, -ax * w - (double)logical.x / PANGO_SCALE, -ay * h);
    pango_cairo_update_layout(cr, f->layout);
    pango_cairo_show_layout(cr, f->layout);
    cairo_restore(cr);
}
