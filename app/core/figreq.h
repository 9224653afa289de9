/* figreq.h — a request for a figure, as the front-ends that want one fill it in (--export, the
 * explorer's e key) and figures/ draws it; and the page lengths the command line accepts.
 *
 * It lives in core/ because front-ends do not include each other: the explorer asks for a figure
 * through a function it is given (tui_request.export), which main binds to figures/. */
#ifndef TF_FIGREQ_H
#define TF_FIGREQ_H

#include <stdbool.h>

#include "analysis.h"
#include "figure.h"
#include "vectors.h"
#include "word2vec.h"

typedef struct order_trainer order_trainer; /* order_train.h */

#define FIG_PT_PER_IN 72.0
#define FIG_ONE_COLUMN_IN 3.5  /* a one-column figure in a two-column paper */
#define FIG_TWO_COLUMN_IN 7.16 /* the full text width of a two-column paper (IEEE) */
#define FIG_DEFAULT_DPI 300.0
#define FIG_DEFAULT_FONT_PT 8.0
/* The longest --title, in characters: four lines of a one-column figure, more than any title
 * needs (a caption holds the rest). Laying out a title is measured again for each page size the
 * layout tries: 20,000 characters took a minute before they were refused; 200 take 40 ms. */
#define FIG_MAX_TITLE_CHARS 200

/* A venue's page: the width of one column and of the whole text block (equal for
 * single-column venues), and the gap between two figures side by side. The sources are in
 * figreq.c. */
typedef struct {
    const char *name;
    double column_in, text_in, gap_in;
} fig_venue;

/* The venue called name, NULL when there is none; fig_venue_names lists them ("acl, ..."). */
const fig_venue *fig_venue_find(const char *name);
const char *fig_venue_names(void);

/* The widths --width names. For a two-column venue one-column is a column and two-column the
 * text; a one-column venue (neurips, iclr, a4) has the text as its one column, the default width
 * and two-column's, and one-column is there one of two figures side by side, as a column is one
 * of two in a two-column venue. half, for side-by-side subfigures: half the text less the gap
 * between them (a two-column venue's column). */
typedef enum {
    FIG_WIDTH_NONE = 0, /* a length, or the default: the venue's column */
    FIG_WIDTH_ONE_COLUMN,
    FIG_WIDTH_TWO_COLUMN,
    FIG_WIDTH_HALF
} fig_width_preset;
/* The preset a --width value names (one-column, two-column, half), FIG_WIDTH_NONE for a
 * length. */
fig_width_preset fig_width_preset_of(const char *s);
/* That width of venue v in inches; NULL: the default, IEEE's two columns of 3.5 in in 7.16 in. */
double fig_venue_width(const fig_venue *v, fig_width_preset which);

/* The serif families: Latin from TeX Gyre Termes (Times), Chinese from AR PL UMing (a Song/Ming
 * face in TrueType; see render/figure.c for why not a CFF one such as Noto Serif CJK). */
#define FIG_SERIF_FAMILIES "TeX Gyre Termes, AR PL UMing CN, Noto Serif CJK SC, Noto Serif, serif"

/* Zero and NULL mean the figure's own choice. */
typedef struct {
    const char *name;          /* --figure NAME, NULL: pe */
    const char *path;          /* .png, .svg or .pdf: the format */
    bool zh;                   /* labels and title in Chinese */
    double dpi;                /* PNG only (0: 300) */
    double width, height;      /* points (0: one column; the figure's own proportions) */
    const char *colormap;      /* NULL: diverging for signed data, else viridis */
    double font_size;          /* points (0: 8) */
    const char *title;         /* NULL: the figure's own */
    bool no_title;             /* no figure title; panel subtitles and notes stay */
    bool no_notes;             /* no footnote paragraphs (--venue: the caption says them) */
    const char *font;          /* --font FAMILY (pango's list), NULL: sans (or --serif) */
    bool serif;                /* --serif: FIG_SERIF_FAMILIES */
    bool panel_labels;         /* (a), (b), ... on multi-panel figures */
    bool pe_split;             /* --pe-layout split: the pe figure's sin half, then cos half */
    bool pe_layout_set;        /* --pe-layout given; else split where columns outnumber pixels */
    bool order_own;            /* --order-b own: the order figure draws B in its own order */
    bool base_given;           /* --base was given: rope-decay draws that base alone */
    bool has_vmin, has_vmax;   /* --vmin, --vmax: the heatmaps' colour limits */
    double vmin, vmax;
    const tf_vectors *vectors; /* learned vectors for the map of words (NULL: none) */
    bool vectors_named;        /* --vectors names a file not read yet (the early check) */
    /* animations (.gif, DIR/) */
    double fps;                /* frames per second (0: the animation's own) */
    long frames;               /* frames (0: the animation's own) */
    const char *corpus;        /* training: --corpus FILE (NULL: the built-in corpus) */
    const w2v_params *w2v;     /* training: its settings (NULL: the defaults) */
    /* the order model's curves for the order-training figure: trained to the end by the command
     * line, or as far as the explorer's view 10 got (NULL: none) */
    const order_trainer *order;
    const char *order_task;    /* its --order-task file, NULL: the generated task */
    struct fig_boxes *boxes;   /* non-NULL: what the figure drew where (render/figure.h) */
    const tf_positions *positions; /* the position schemes to draw (the explorer's view 9),
                                      NULL: the analysis's */
} fig_request;

/* Draw the figure of analysis a that req asks for (figures/figures.h, figures_export). Returns
 * 0, or the exit status after saying what went wrong (2 bad request, 1 the file). */
typedef int (*fig_export_fn)(const fig_request *req, tf_analysis *a);

/* Draw the still figure req->name of analysis a into *out, a raster page of width x height
 * pixels, its text as tall as that of a terminal whose cells are cell_h pixels high: the same
 * drawing --export does (figures/figures.h, figures_raster). Says nothing and may run on any
 * thread; on failure a sentence goes to why (TF_ERR_RANGE: the figure does not fit or cannot be
 * drawn from this analysis; TF_ERR_NOMEM). */
typedef tf_status (*fig_raster_fn)(const fig_request *req, tf_analysis *a, int width, int height,
                                   int cell_h, fig_raster *out, char *why, size_t why_len);

/* A length such as "3.5in", "8.9cm", "89mm", "252pt", "one-column", "two-column" or "half" (of
 * the default venue, fig_venue_width) in points; -1 when it is not one. A bare number is inches. */
double fig_parse_length(const char *s);

#endif
