/* figure_priv.h — what the figure*.c files share: the page behind the opaque fig handle. */
#ifndef TF_FIGURE_PRIV_H
#define TF_FIGURE_PRIV_H

#include <cairo.h>
#include <pango/pangocairo.h>

#include "figure.h"

struct fig {
    fig_spec spec;
    fig_meta meta;
    cairo_surface_t *surface;
    cairo_t *cr;
    PangoLayout *layout;
    PangoFontDescription *font[FIG_ROLE_COUNT];
    double scale;       /* device pixels per point: dpi/72 for PNG, 1 otherwise */
    int px_w, px_h;     /* PNG size in pixels */
    bool have_heatmap;  /* the first heatmap's pixel rectangle, for the PNG metadata */
    double heat_x, heat_y, heat_w, heat_h;
    long heat_rows, heat_cols;
    bool write_failed;  /* the vector stream could not be written */
    bool cramped;       /* a plot area had no room left after its labels */
    char *svg_buf;      /* SVG is collected here, then written with nearest-neighbour hints */
    size_t svg_len;
    FILE *svg_mem;
};

/* Snap a rectangle to device pixels (PNG) so edges stay sharp; no-op for vector output. */
fig_rect fig_snap(const fig *f, fig_rect r);
void fig_set_rgb(fig *f, tf_rgb c);
/* Lines this wide. */
double fig_line_width(const fig *f);
/* Choose ax's ticks for an axis len points long (horizontal: labels side by side). */
void fig_axis_ticks(fig *f, fig_axis *ax, double len, bool horizontal);
/* The widest and tallest tick label of ax. */
void fig_axis_label_extent(fig *f, const fig_axis *ax, double *w, double *h);

#endif
