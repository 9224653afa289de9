/* figure_priv.h — what the figure*.c files share: the page behind the opaque fig handle, the pen
 * every drawing goes through and the SVG writer behind it (figure_svg.c, figure_pen.c). */
#ifndef TF_FIGURE_PRIV_H
#define TF_FIGURE_PRIV_H

#include <cairo.h>
#include <pango/pangocairo.h>
#include <stdint.h>

#include "figure.h"

typedef struct fig_svg fig_svg;

struct fig {
    fig_spec spec;
    fig_meta meta;
    /* PNG and raster pages: an image surface; PDF: cairo's PDF surface; SVG and measure pages:
     * a recording surface that only measures text (nothing is replayed from it) */
    cairo_surface_t *surface;
    cairo_t *cr;
    PangoLayout *layout;
    /* every role's font: one size, as matplotlib's defaults nearly are (pango matches fonts per
     * size and style, each match a round trip to a worker thread, and on a busy machine every
     * extra size costs more time than drawing the whole figure) */
    PangoFontDescription *font;
    const char *family; /* the font families, as pango takes them (spec.font's or ours) */
    double scale;       /* device pixels per point: dpi/72 for PNG, 1 otherwise */
    int off_x, off_y;   /* raster page: where the page's corner lands (pixels, centred) */
    unsigned char *pixels; /* raster page: the surface's own buffer, handed to spec.raster */
    /* the first heatmap (the fields have_heatmap and heat_*): where its cells are (PNG pixels,
     * or points), and how many were drawn for how many there are (fewer: area-averaged) */
    fig_raster heat;
    bool cramped;       /* a plot area had no room left after its labels */
    fig_need need;      /* what it would take (fig_cramped_need): growth of height and width */
    unsigned missing;   /* a character no installed font has */
    int label_call;     /* labels and values asked about so far (fig_plan_drop,
                         * fig_plan_max: their key in the plans) */
    fig_svg *svg;       /* SVG pages: the writer */
};

/* Snap a rectangle to device pixels (PNG) so edges stay sharp; no-op for vector output. */
fig_rect fig_snap(const fig *f, fig_rect r);
double fig_line_width(const fig *f);
/* Whether a and b are the same rectangle (to a millionth of a point). */
bool fig_same_rect(fig_rect a, fig_rect b);
/* Record a box (when the page records them). */
void fig_record(fig *f, fig_box_kind kind, fig_rect r, int where, fig_rect plot, const char *text);
/* How many boxes the page has recorded so far (0: it records none), a mark for fig_mark_text. */
size_t fig_boxes_mark(const fig *f);
/* Mark the text boxes recorded since index from as titles of a role (FIG_TITLE_ROLE_*, 0: none)
 * or as tick labels (tick: the curve rule skips them). */
void fig_mark_text(fig *f, size_t from, int role, bool tick);
/* The part of the segment from (x0, y0) by (dx, dy) inside r: its parameters lo .. hi in [0, 1]
 * (false: none of it). */
bool fig_clip_segment(double x0, double y0, double dx, double dy, fig_rect r, double *lo,
                      double *hi);
/* Whether the segment from (x0, y0) by (dx, dy) passes through r (shrunk by a hair). */
bool fig_segment_hits(double x0, double y0, double dx, double dy, fig_rect r);
/* Text measured and drawn from here on wraps at width points onto more lines, centred (titles);
 * 0: one line again. */
void fig_wrap_at(fig *f, double width);
/* Legend text, its left edge at x, centred on y: inside the legend's frame. */
void fig_text_legend(fig *f, fig_rect frame, const char *text, double x, double y);

/* ---------------------------------------------------------------------------------------------
 * The pen (figure_svg.c, images and labels figure_pen.c): one set of drawing calls for cairo and
 * for SVG, in points */

enum { PEN_CAP_BUTT = 0, PEN_CAP_ROUND, PEN_CAP_SQUARE }; /* in cairo_line_cap_t's order */

void pen_save(fig *f);
void pen_restore(fig *f);
void pen_rgb(fig *f, tf_rgb c);
void pen_width(fig *f, double w);
/* dash lengths (on, off, ...), n = 0 for a solid line */
void pen_dash(fig *f, const double *on, int n);
void pen_cap(fig *f, int cap);
void pen_join_round(fig *f);
void pen_move(fig *f, double x, double y);
void pen_line(fig *f, double x, double y);
void pen_rect(fig *f, double x, double y, double w, double h);
/* A circle as a new sub-path. */
void pen_circle(fig *f, double cx, double cy, double r);
void pen_close(fig *f);
void pen_stroke(fig *f);
void pen_fill(fig *f);
/* Clip what follows (until the matching pen_restore) to r. */
void pen_clip_rect(fig *f, fig_rect r);
/* An opaque RGB image (cairo RGB24 words) of w x h pixels over dst, pixels as sharp blocks;
 * bottom_up: row 0 at the bottom. */
void pen_image(fig *f, const uint32_t *px, int w, int h, fig_rect dst, bool bottom_up);
/* The text now in f->layout, its point (ax, ay) at (x, y), in grey c. */
void pen_layout(fig *f, double x, double y, double ax, double ay, bool vertical, tf_rgb c);

/* What one drawing call of figure.h draws, for the SVG's named groups. PART_DATA (curves,
 * markers, bars, arrows) has no group of its own, only its panel's. */
typedef enum {
    PART_TITLE = 0, /* the page's: outside every panel */
    PART_NOTE,      /* a note under the figure: outside every panel */
    PART_AXES,      /* in the panel of its plot area */
    PART_HEATMAP,
    PART_COLORBAR,  /* in the open panel when it spans its rows, else outside */
    PART_LEGEND,
    PART_ANNOTATION,
    PART_LABEL,     /* free text: in the open panel, if any */
    PART_DATA,
    PART_COUNT
} pen_part;
/* Begin and end what a call draws (figure_svg.c): where is its plot area (axes, heatmaps,
 * legends, annotations, data) or, for a colour bar, its own box; NULL for the rest. Calls inside
 * a call open no groups of their own. Nothing for other pages than SVG. */
void pen_part_begin(fig *f, pen_part part, const fig_rect *where);
void pen_part_end(fig *f, pen_part part);

/* ---------------------------------------------------------------------------------------------
 * The SVG writer (figure_svg.c) */

/* Start the document on spec.fp. False when out of memory. */
bool svg_begin(fig *f);
/* Close the document, with the first heatmap's note (NULL: none) in its metadata. TF_ERR_NOMEM:
 * an image could not be made; TF_ERR_IO: the file could not be written. */
tf_status svg_end(fig *f, const char *note);
void svg_image(fig *f, const uint32_t *px, int w, int h, fig_rect dst, bool bottom_up);
void svg_layout(fig *f, double x, double y, double ax, double ay, bool vertical, tf_rgb c);

/* The room between a label and what it labels */
static inline double fig_pad(const fig *f) { return 0.35 * f->spec.font_size; }

#endif
