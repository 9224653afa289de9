/* figure_pen.c — the pen's images and labels: each the SVG writer's on an SVG page
 * (figure_svg.c, which has the rest of the pen), cairo's on a page cairo draws (PNG, PDF, raster),
 * none on a measure page. */
#include "figure_priv.h"

#include <math.h>
#include <string.h>

/* On a page cairo draws, the pixels copied into an image surface of cairo's own (a PDF keeps its
 * source until the page is finished) and painted with nearest-neighbour filtering (in a PDF an
 * image with /Interpolate false), scaled from w x h onto dst. */
void pen_image(fig *f, const uint32_t *px, int w, int h, fig_rect dst, bool bottom_up)
{
    if (f->svg)
        svg_image(f, px, w, h, dst, bottom_up);
    if (f->svg || f->spec.measure)
        return;
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

void pen_layout(fig *f, double x, double y, double ax, double ay, bool vertical, tf_rgb c)
{
    if (f->svg)
        svg_layout(f, x, y, ax, ay, vertical, c);
    if (f->svg || f->spec.measure)
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
