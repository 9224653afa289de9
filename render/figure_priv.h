/* figure_priv.h — what the figure*.c files share: the page behind the opaque fig handle. */
#ifndef TF_FIGURE_PRIV_H
#define TF_FIGURE_PRIV_H

#include <cairo.h>
#include <pango/pangocairo.h>
#include <pthread.h>

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
    int off_x, off_y;   /* raster page: where the page's corner lands (pixels, centred) */
    unsigned char *pixels; /* raster page: the surface's own buffer, handed to spec.raster */
    bool have_heatmap;  /* the first heatmap's pixel rectangle, for the PNG metadata */
    double heat_x, heat_y, heat_w, heat_h;
    long heat_rows, heat_cols;
    bool write_failed;  /* the vector stream could not be written */
    bool cramped;       /* a plot area had no room left after its labels */
    /* SVG and PDF are collected here, then written: SVG with nearest-neighbour hints, PDF with
     * its heatmaps as indexed images (pdf_append.c) */
    char *mem_buf;
    size_t mem_len;
    FILE *mem;
    struct fig_pdf_image **pdf_images;
    size_t n_pdf_images;
};

/* A PDF heatmap waiting for fig_end: its cells as palette indices, and the marker cairo embeds
 * where the image goes. */
typedef struct fig_pdf_image {
    unsigned char *index; /* rows x cols, row-major */
    long rows, cols;
    tf_rgb palette[256];
    unsigned char *mark;
    size_t mark_len;
    /* the cells compressed, on a thread of their own while the page is drawn (large images) */
    unsigned char *z;
    size_t z_len;
    bool z_failed;
    bool compressing;
    pthread_t thread;
} fig_pdf_image;

/* Mark img (a cols x rows heatmap) to become an indexed image of index (taken over, freed with
 * the page) and palette in the PDF. False when out of memory: img is then drawn as it is, or,
 * if cairo could not attach the marker, is in an error state (check its status). */
bool fig_pdf_mark(fig *f, cairo_surface_t *img, unsigned char *index, long rows, long cols,
                  const tf_rgb palette[256]);
/* Wait for the compressions fig_pdf_mark started. */
void fig_pdf_images_wait(fig *f);
/* Write cairo's finished PDF (pdf, len) to out unchanged, followed by an incremental update that
 * gives each marked image's object a new version holding the indexed image (compressing the
 * cells of any image not yet compressed; call fig_pdf_images_wait first). TF_ERR_FORMAT, with
 * nothing written, when a marker or the trailer cannot be found as PDF syntax says; TF_ERR_IO,
 * TF_ERR_NOMEM. */
tf_status fig_pdf_append_images(const unsigned char *pdf, size_t len,
                                fig_pdf_image *const *images, size_t n, FILE *out);
/* Tests set this to make fig_pdf_append_images refuse cairo's output as it would refuse output
 * it cannot read, so that the redraw with plain images can be checked. */
extern bool fig_pdf_test_refuse;
void fig_pdf_images_free(fig *f);

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
