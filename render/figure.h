/* figure.h — publication figures with cairo + pango: a page, text, axes, heatmaps, colorbars,
 * line plots and vector diagrams, written as PNG, SVG or PDF.
 *
 * All lengths are in points (1/72 in) on a page whose origin is the top-left corner. A PNG page
 * is cairo's image surface scaled by dpi/72, a PDF page cairo's PDF surface (through its API
 * only); an SVG page is written here (figure_svg.c, SVG 1.1): text as <text> with its font
 * family, so labels stay editable, and heatmaps that no renderer blurs. A raster page
 * (fig_spec.raster) is a PNG page whose pixels stay in memory, at a pixel size the caller
 * chooses (an inline figure in the terminal, a frame of an animation): the same drawing code,
 * the same pixels a PNG would hold. Text goes through pango (Chinese included), never cairo's
 * toy API.
 *
 * Heatmaps: a matrix with no more cells than the output has pixels is drawn one sharp block per
 * cell (PNG and PDF: one image at the data's own resolution, painted without interpolation;
 * SVG: one embedded PNG image whose cells are repeated by whole pixels). A matrix with more
 * cells than pixels is area-averaged down to the pixels (300 per inch in PDF and SVG), never
 * sampled into patterns that are not in the data; the file's metadata says so. Rows may be
 * computed on demand (fig_matrix.row), so a figure of millions of cells needs memory for the
 * pixels only.
 *
 * render/ draws and never computes the math: callers pass the numbers from model/. */
#ifndef TF_FIGURE_H
#define TF_FIGURE_H

#include <stdbool.h>
#include <stdio.h>

#include "colormap.h"
#include "status.h"

typedef enum { FIG_PNG = 0, FIG_SVG, FIG_PDF, FIG_FORMAT_COUNT } fig_format;

/* The format named by the file's extension (case-insensitive), FIG_FORMAT_COUNT for another. */
fig_format fig_format_from_path(const char *path);
const char *fig_format_name(fig_format f);

typedef struct {
    double x, y, w, h; /* points, y down */
} fig_rect;

typedef struct {
    const char *title;    /* PNG "Title", PDF Title */
    const char *software; /* "tfviz 0.1.0": PNG "Software", PDF Creator */
    const char *params;   /* the exact parameters: PNG iTXt "tfviz", PDF Subject */
    const char *date;     /* PDF creation/modification date (ISO 8601), fixed for same bytes */
} fig_meta;

/* A page's pixels in memory: what a raster page leaves behind, what fig_png_write writes.
 * The data is cairo's ARGB32 (premultiplied alpha; each pixel one native-endian 32-bit word
 * 0xAARRGGBB); a figure's page is opaque white, so alpha is 255 everywhere it drew. */
typedef struct {
    int width, height;    /* pixels */
    int stride;           /* bytes from one row to the next (a multiple of 4) */
    unsigned char *data;  /* (height, stride) bytes, malloc'd: fig_raster_free */
    double dpi;           /* pixels per inch the page was drawn at (the PNG's pHYs) */
    /* the first heatmap's data cells in pixels, for the PNG metadata ("tfviz:heatmap") */
    bool have_heatmap;
    double heat_x, heat_y, heat_w, heat_h;
    long heat_rows, heat_cols;
    long heat_drawn_rows, heat_drawn_cols; /* fewer than the cells: area-averaged to these */
} fig_raster;

#define FIG_MAX_RASTER 16384 /* pixels per side of a raster page */

/* Free r's pixels and zero it. */
void fig_raster_free(fig_raster *r);
/* Write r, opaque as every page is, as an RGB PNG through libpng: pHYs from r->dpi, the text of
 * m (Software, Title, the parameters as iTXt "tfviz") and r's heatmap rectangle. The bytes are
 * those fig_end writes for a PNG page of the same pixels. TF_ERR_IO, TF_ERR_NOMEM. */
tf_status fig_png_write(FILE *fp, const fig_raster *r, const fig_meta *m);

/* ---------------------------------------------------------------------------------------------
 * What a page drew where: its text, plots, legends and data marks in page points, for checking
 * a layout (fig_layout_check; the tests check them with rules of their own). */

typedef enum {
    FIG_BOX_TEXT = 0, /* a label: its ink box */
    FIG_BOX_PLOT,     /* a plot's data area (fig_axes_draw) */
    FIG_BOX_COLORBAR, /* a colour bar's ramp */
    FIG_BOX_LEGEND,   /* a legend's frame */
    FIG_BOX_HEATMAP,  /* a heatmap's cells */
    FIG_BOX_SEGMENT,  /* a piece of a curve or an arrow: from (x, y) to (x + w, y + h) */
    FIG_BOX_MARKER,   /* a marker or an arrow head: its box */
    FIG_BOX_BAR,      /* a bar */
    /* a tick an axis or colour bar chose, not a place on the page (the layout rules skip it):
     * r.x its value, r.y the axis (0 x, 1 y, 2 a colour bar's), r.w 1 when it is labelled */
    FIG_BOX_TICK,
    FIG_BOX_KIND_COUNT
} fig_box_kind;

typedef struct {
    fig_box_kind kind;
    fig_rect r;
    /* text: where it belongs. FIG_TEXT_OUTSIDE keeps off every plot, colour bar and legend;
     * FIG_TEXT_IN_PLOT lies inside `plot` (an annotation) and keeps off its marks;
     * FIG_TEXT_IN_LEGEND lies inside the legend `plot` names (its frame) */
    int where;
    fig_rect plot; /* data marks, legends and annotations: the plot they belong to */
    char text[40]; /* the start of the text (for messages) */
    /* text: FIG_TITLE_ROLE_TITLE a figure title (fig_title) or a panel subtitle,
     * FIG_TITLE_ROLE_NAME a panel title that is its short name, 0 any other text */
    int title_role;
    bool tick_label; /* text: an axis's or a colour bar's tick label */
} fig_box;

enum { FIG_TITLE_ROLE_TITLE = 1, FIG_TITLE_ROLE_NAME = 2 };

enum { FIG_TEXT_OUTSIDE = 0, FIG_TEXT_IN_PLOT, FIG_TEXT_IN_LEGEND };

typedef struct fig_boxes {
    fig_box *v;
    size_t n, cap;
    bool failed;           /* out of memory while recording */
    double page_w, page_h; /* the page's size in points (set by fig_begin) */
} fig_boxes;

void fig_boxes_free(fig_boxes *b);
/* NULL when the boxes of a width x height page obey the layout rules (text inside the page and
 * off other text; labels off plots, colour bars and legends; annotations inside their plot and
 * off its markers; no label but a tick label crossed by a curve, a guide or an arrow; legends
 * off their plot's data), else a sentence naming the first offence. */
const char *fig_layout_check(const fig_boxes *b, double width, double height);

/* The ticks a page chose, one entry per axis, known by what it shows (its range, whether it is
 * logarithmic, integer, of categories or horizontal; not where, nor in which language): for
 * linear axes the step, for logarithmic ones the decades between labels, for category axes the
 * labels skipped + 1; the last choice for an axis stands (a panel fitted twice). And which
 * labels that may be left out for want of room were (fig_plan_drop), in the order asked. A page
 * given another page's choice (fig_spec.ticks_in) takes, axis by axis, the sparser of the two
 * and leaves out what either left out: both languages of a figure get the same ticks and labels. */
#define FIG_MAX_PLAN 256
typedef struct {
    double lo, hi; /* the axis's range; a label or a value: its place in the order, 0 */
    int what;      /* FIG_PLAN_* flags */
    int n;         /* categories */
    double coarse; /* the choice; a label: 1 left out, 0 shown; a value: the value */
} fig_plan_entry;
enum {
    FIG_PLAN_LOG = 1,
    FIG_PLAN_INTEGER = 2,
    FIG_PLAN_LABEL = 4,
    FIG_PLAN_VALUE = 8,
    FIG_PLAN_ACROSS = 16, /* a horizontal axis */
    FIG_PLAN_ENDS = 32    /* a colour bar labelled at its ends: 1 without 0 between them */
};
typedef struct {
    int n;
    fig_plan_entry e[FIG_MAX_PLAN];
} fig_ticks;
/* a, entry by entry the sparser of a and b (b's entries that a lacks join it). */
void fig_ticks_merge(fig_ticks *a, const fig_ticks *b);
/* The entry of p with k's key, NULL for none. */
const fig_plan_entry *fig_plan_find(const fig_ticks *p, const fig_plan_entry *k);

/* What a cramped page asks for (fig_cramped_need): height and width, each as a factor. */
typedef struct {
    double h, w;
    /* the least room a plot had for its height against what it needs (plot height over its
     * least height, ...): below 1 on a page too low, above on one with height to spare;
     * INFINITY where nothing was measured */
    double room;
} fig_need;

typedef struct {
    fig_format format;
    double width, height; /* points */
    double dpi;           /* PNG pixels per inch */
    double font_size;     /* points, every label (one size: see struct fig) */
    bool latin_first;     /* Latin letters from DejaVu Sans (English labels): smaller, faster PDF */
    FILE *fp;             /* the output (PDF and SVG pages write it as they are drawn) */
    /* Non-NULL: a raster page of raster->width x raster->height pixels (set them; format must be
     * FIG_PNG, dpi and fp are not used). The page is scaled to fit the pixels, centred on white
     * when its proportions differ; fig_end leaves the pixels in *raster instead of writing. */
    fig_raster *raster;
    /* The font families, pango's comma-separated list (e.g. "TeX Gyre Termes, Noto Serif CJK
     * SC"), kept for the page's life; NULL: Noto Sans CJK SC, or with latin_first DejaVu Sans */
    const char *font;
    /* A page that is laid out and not drawn: fig_end writes nothing (fp unused) */
    bool measure;
    fig_boxes *boxes;          /* non-NULL: record what goes where */
    const fig_ticks *ticks_in; /* non-NULL: ticks at least this sparse */
    fig_ticks *ticks_out;      /* non-NULL: the ticks chosen */
    fig_need *need_out;        /* non-NULL: what its measurements ask for (fig_cramped_need) */
} fig_spec;

typedef struct fig fig;
typedef struct fig_axes fig_axes;

/* Whether a label that may be left out for want of room is left out: drop says this page has no
 * room for it; the page's plan (fig_spec.ticks_in) may leave it out too. The choice joins the
 * plan (ticks_out) as the ticks do, so both languages of a figure show the same labels. */
bool fig_plan_drop(fig *f, bool drop);
/* A length or limit a figure works out from its labels' room (an axis made wider for them): the
 * larger of v and what the page's plan says, joining the plan as fig_plan_drop's choices do, so
 * both languages draw the data to the same scale. */
double fig_plan_max(fig *f, double v);

/* Open a page. TF_ERR_NOMEM or TF_ERR_RANGE (a size cairo cannot allocate, a raster page of
 * no pixels or of another format than FIG_PNG). */
tf_status fig_begin(const fig_spec *s, const fig_meta *m, fig **out);
/* Finish the page and write it (PNG through libpng, with pHYs and iTXt), or for a raster page
 * hand its pixels to spec.raster (the caller frees them with fig_raster_free). TF_ERR_IO when
 * the output could not be written; the FILE is left for the caller to close. Frees f. A
 * measure page writes nothing. */
tf_status fig_end(fig *f);
/* Every role's text from now on at font size pt (the base size, as fig_spec.font_size): a
 * slide's large words and its smaller picture on one page. */
void fig_set_font_size(fig *f, double pt);
/* A PDF page: end this page and start the next, of the same size, white (a deck of slides in
 * one file). TF_ERR_RANGE for another kind of page. */
tf_status fig_next_page(fig *f);
/* True when some plot area had no room left after its labels (page too small, font too big). */
bool fig_cramped(const fig *f);
/* Say that the page is too small for what a figure must draw (a label it cannot place). */
void fig_set_cramped(fig *f);
/* A trial of layouts (fig_axes_fit only, nothing drawn), one after another until one is taken:
 * the page's cramped flag and what it asked for before, and the alternatives left so far. */
typedef struct {
    bool cramped;
    fig_need need;
    bool left;      /* an alternative was left */
    fig_need least; /* of those left, the one that asked for the least growth */
} fig_trial;
/* Begin a trial: what the page asked for so far is set aside, so that each layout tried asks
 * only for what it lacks itself. */
fig_trial fig_try(fig *f);
/* Whether the layout tried since fig_try (or since the last fig_tried that said false) is taken:
 * it fits, or it is the last. Taken, the trial ends, and the page asks for what it asked before
 * and, where the layout taken does not fit, for the least growth any layout tried asked for
 * (with that growth one of them fits). Else the layout is left and the next one is tried. */
bool fig_tried(fig *f, fig_trial *t, bool last);
/* End a trial whose layouts only measured: the page is as it was before fig_try. */
void fig_measured(fig *f, const fig_trial *t);
/* What a cramped page's measurements ask for: by how much the page's height and its width would
 * have to grow for the plots that had no room to get it (their least size and their labels
 * against the room they were given), 1 where none asked; a cramped page whose figure gave no
 * measure (fig_set_cramped) asks for nothing here. */
fig_need fig_cramped_need(const fig *f);
/* Say that the page is too small, and by how much: its height and its width would have to grow
 * by these factors (1: not that side) for what did not fit. */
void fig_need_more(fig *f, double h, double w);
/* A height measured against the least it may be (fig_need.room): have over want. */
void fig_height_room(fig *f, double have, double want);
/* A character some label needed and no installed font has (0: none): the fonts are missing. */
unsigned fig_missing_char(const fig *f);
/* Whether fontconfig knows a font of this family. */
bool fig_font_installed(const char *family);
/* Drop an unfinished page. */
void fig_free(fig *f);
/* Start loading fontconfig's configuration and caches on a background thread, so that the
 * first page finds them ready; call early, before computing what a figure shows. */
void fig_warm_fonts(void);
/* Release the font caches pango, cairo and fontconfig keep; call once at exit, after the last
 * figure (a leak checker would otherwise report them). pango keeps one font map per thread: a
 * thread that drew pages releases its own before it ends. Pages may be drawn on several threads
 * at once, each page on one thread. */
void fig_release_fonts(void);

/* ---------------------------------------------------------------------------------------------
 * Text: pango markup (<sub>, <sup>, <i>, <b>), every label at the page's one font size; a note
 * (fig_text's FIG_NOTE) is a part of its own in the SVG */

typedef enum { FIG_TICK = 0, FIG_LABEL, FIG_NOTE } fig_role;

/* Text from a file or a user made into pango markup text for a label that is otherwise markup:
 * & < > ' " as entities, invalid UTF-8 as U+FFFD, cut on a character boundary with "…" so that
 * it is at most max_cols columns wide (as render/textwidth counts them: a CJK character two)
 * and out (cap bytes, cap >= 4) holds it whole. Returns the length of out. */
size_t fig_markup_text(char *out, size_t cap, const char *s, int max_cols);
/* Width and height of a text block. plain: the text is not markup (a user's title). */
void fig_text_size(fig *f, const char *text, bool plain, double *w, double *h);
/* Draw text so that its box's point (ax, ay) in [0,1]^2 (0,0 = top-left) lands at (x, y);
 * vertical turns it 90 degrees counter-clockwise (a y-axis label). */
void fig_text(fig *f, fig_role role, const char *text, bool plain, double x, double y, double ax,
              double ay, bool vertical);
/* A title centred at the top of area; returns the height it took (0 for NULL). */
double fig_title(fig *f, fig_rect area, const char *text, bool plain);
/* Text inside plot a (an annotation next to a point): it is checked against a's marks, not
 * against a's area. */
void fig_text_in(fig *f, const fig_axes *a, const char *text, bool plain, double x, double y,
                 double ax, double ay);
double fig_font_size(const fig *f);
/* The distance apart the rows of tick labels like this one need on a vertical axis: 0.95 of its
 * line, or by_ink its ink's height and a quarter of it between (numbers, whose lines are mostly
 * air: the layout rules keep inks apart). */
double fig_row_label_room(fig *f, const char *label, bool by_ink);
/* Tick marks are this long, outside the plot. */
double fig_tick_len(const fig *f);

/* ---------------------------------------------------------------------------------------------
 * Axes */

#define FIG_MAX_TICKS 40
#define FIG_LEGEND_BESIDE 0.4 /* of a panel's width at most, a legend right of its plot */

typedef struct {
    double lo, hi;     /* data range shown; for a heatmap the outer cell edges */
    bool log;          /* base-10 logarithmic */
    bool flip;         /* values grow downward (matrix rows) or leftward */
    bool integer;      /* automatic ticks at whole numbers only */
    bool hide;         /* tick marks without labels (a panel that shares its neighbour's) */
    const char *label; /* markup, or NULL */
    /* explicit ticks: n > 0 uses at[] and labels[] (markup) instead of automatic ones */
    int n;
    const double *at;
    const char *const *labels;
    bool ink_apart;    /* explicit ticks on a y axis apart by their ink (fig_row_label_room) */
    /* filled by fig_axes_fit */
    int nt;
    double t[FIG_MAX_TICKS];
    char tl[FIG_MAX_TICKS][48];
    int nminor;
    double minor[FIG_MAX_TICKS * 2];
} fig_axis;

/* In the order of style.h's style_dash, so a scheme's style converts by a cast. */
typedef enum { FIG_SOLID = 0, FIG_DASHED, FIG_DOTTED, FIG_DASHDOT } fig_dash;

typedef struct {
    const char *label; /* markup */
    tf_rgb color;
    fig_dash dash;
    bool bar;          /* a filled square instead of a line */
    int marker;        /* 0: none; 1 + a style_marker: that marker in the middle of the line */
} fig_legend_item;

struct fig_axes {
    fig_rect r;        /* the plot area, set by fig_axes_fit */
    fig_axis x, y;
    const char *title; /* panel title (markup) above the plot, or NULL */
    bool frame;        /* draw the four sides (else only left and bottom) */
    bool grid;         /* light grid lines at the major ticks */
    double min_left;   /* at least this much room left of the plot (aligns panels) */
    double used_left;  /* set by fig_axes_fit: the room taken left of the plot */
    double right;      /* room kept right of the plot (colorbar, legend) */
    /* the items of a legend right of the plot's top (fig_legend's corner 4), its room in
     * right: where that room would take more than FIG_LEGEND_BESIDE of the panel's width, the
     * legend goes above the plot instead, in rows across the panel (fig_legend_rows), rather
     * than the labels shrink; fig_axes_fit sets legend_band, where the rows go then (else
     * its height is 0) */
    const fig_legend_item *legend;
    int n_legend;
    fig_rect legend_band;
    const char *tag;   /* a panel letter such as "(a)", at the left of the title line, or NULL */
    fig_rect outer;    /* set by fig_axes_fit: the room it was given (or title_room) */
    /* non-empty: the room the title and the x label may take, wider than the room the plot is
     * fitted in (a panel narrowed to a square keeps the width it was first given for them) */
    fig_rect title_room;
    /* the title is the panel's short name (e.g. a column's scheme), the only thing that tells
     * it from its neighbours, not a subtitle (its box's title_role says which) */
    bool title_is_name;
    /* a title wider than its room wraps onto more lines, centred, instead of making the page
     * too small (a single panel's subtitle on a narrow page; the figure measures the panel's
     * height with fig_axes_fit, not with the title's own one-line height) */
    bool title_wraps;
};

/* Choose ticks and margins so that a's plot area, its tick labels, axis labels and panel title
 * fit inside outer without overlapping. */
void fig_axes_fit(fig *f, fig_axes *a, fig_rect outer);
/* Frame, ticks, tick labels, axis labels and the panel title. */
void fig_axes_draw(fig *f, const fig_axes *a);
/* Data to page coordinates. */
double fig_px(const fig_axes *a, double x);
double fig_py(const fig_axes *a, double y);

/* ---------------------------------------------------------------------------------------------
 * Plots */

/* A matrix of values, row-major: float64, float32, or rows made on demand (the pointers NULL). */
typedef struct {
    const double *f64; /* (rows, cols) */
    const float *f32;  /* (rows, cols) */
    long rows, cols;
    /* neither array: row(ctx, r, out) writes row r's cols values into out (rows are asked for
     * in order, each once or twice) */
    void (*row)(void *ctx, long r, double *out);
    void *ctx;
} fig_matrix;

#define FIG_VECTOR_DPI 300.0 /* PDF and SVG heatmaps: the pixels per inch a matrix is averaged to */

/* Paint m over a's whole plot area (row 0 at the top unless a->y.flip is false): one sharp block
 * per cell, or area-averaged where there are more cells than pixels (see the top of this file).
 * The first heatmap of a page says in the metadata where its cells are and whether they were
 * averaged (PNG "tfviz:heatmap", PDF Keywords, SVG <metadata>). TF_ERR_NOMEM, TF_ERR_RANGE. */
tf_status fig_heatmap(fig *f, const fig_axes *a, const fig_matrix *m, cmap_id cm, double lo,
                      double hi);
/* The pixels fig_heatmap draws m in on a's plot: dr x dc, fewer than m's cells if it averages. */
void fig_heatmap_grid(const fig *f, const fig_axes *a, const fig_matrix *m, long *dr, long *dc);
/* The values those pixels show when they average (malloc'd, dr x dc), NULL when each cell has
 * pixels of its own (or out of memory). */
double *fig_heatmap_means(const fig *f, const fig_axes *a, const fig_matrix *m, long *dr,
                          long *dc);
/* Room a vertical colorbar needs right of a plot (bar, ticks, labels, label). */
double fig_colorbar_width(fig *f, double lo, double hi, const char *label);
/* A vertical colorbar with ticks and a label, bar at the left of r, r.h tall. */
void fig_colorbar(fig *f, fig_rect r, cmap_id cm, double lo, double hi, const char *label);
/* The same with the ends where values were cut marked: clip bit 1 the low end, bit 2 the high
 * end, each a triangle in the end colour (as matplotlib's extend="both"), inside r. */
void fig_colorbar_clip(fig *f, fig_rect r, cmap_id cm, double lo, double hi, const char *label,
                       int clip);

/* Colour-blind-safe series colours (Okabe & Ito), cycling. */
tf_rgb fig_series_color(int i);

/* A polyline through (x[i], y[i]) clipped to the plot area; non-finite points break the line. */
void fig_line(fig *f, const fig_axes *a, const double *x, const double *y, long n, tf_rgb c,
              double width, fig_dash dash);
/* Round markers of diameter size (points). */
void fig_markers(fig *f, const fig_axes *a, const double *x, const double *y, long n, tf_rgb c,
                 double size);
/* Markers of a shape (style.h's style_marker: circle, square, diamond, triangles, polygons) about
 * size points across, filled with c and edged in white so that a marker on another stays seen. */
void fig_markers_shape(fig *f, const fig_axes *a, const double *x, const double *y, long n,
                       tf_rgb c, double size, int shape);
/* A filled bar from y = base to y = top between x0 and x1 (data coordinates). */
void fig_bar(fig *f, const fig_axes *a, double x0, double x1, double base, double top, tf_rgb c);
/* An arrow from (x0, y0) to (x1, y1) in data coordinates, head size in points; returns the box
 * of its head on the page (for labels to keep off). */
fig_rect fig_arrow(fig *f, const fig_axes *a, double x0, double y0, double x1, double y1,
                   tf_rgb c, double width, double head);
/* A circle of radius r (data units of the x axis; the axes must have equal aspect). */
void fig_circle(fig *f, const fig_axes *a, double cx, double cy, double r, tf_rgb c, double width,
                fig_dash dash);
/* A line between two data points (guides, zero lines). */
void fig_segment(fig *f, const fig_axes *a, double x0, double y0, double x1, double y1, tf_rgb c,
                 double width, fig_dash dash);

/* A legend box in the corner of the plot area: corner 0 top-left, 1 top-right, 2 bottom-left,
 * 3 bottom-right; 4 outside, right of the plot's top (reserve fig_legend_width in a->right). */
double fig_legend_width(fig *f, const fig_legend_item *items, int n);
void fig_legend(fig *f, const fig_axes *a, const fig_legend_item *items, int n, int corner);
/* Its height. */
double fig_legend_height(fig *f, const fig_legend_item *items, int n);

/* A legend in rows across area, from its top (below or above plots, where a legend inside
 * would cover a curve, or beside one would leave it too narrow): a line sample and the label
 * per item, as many a row as fit. Draws only when draw is set; returns the height it takes. */
double fig_legend_rows(fig *f, const fig_legend_item *items, int n, fig_rect area, bool draw);

/* Data a legend must not cover: a polyline, in data coordinates. */
typedef struct {
    const double *x, *y;
    long n;
} fig_series;

/* Whether series s, drawn on a, passes through r (page points): for placing a label clear of
 * the data. */
bool fig_series_hit(const fig_axes *a, const fig_series *s, fig_rect r);
/* The first corner (top-right, top-left, bottom-right, bottom-left) where the legend covers none
 * of the series, -1 when every corner would. */
int fig_legend_place(fig *f, const fig_axes *a, const fig_legend_item *items, int n,
                     const fig_series *s, int ns);

#endif
