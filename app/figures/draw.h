/* draw.h — what the figure files of figures/ share: the context a figure draws in, the row of the
 * table that names it, and the helpers for colour scales, matrix axes and token labels. Every
 * number comes from model/ (the analysis, posenc, rope); the figure files choose panels, labels
 * and colour scales, and never compute the math. Private to figures/. */
#ifndef TF_FIGURES_DRAW_H
#define TF_FIGURES_DRAW_H

#include <stdbool.h>

#include "analysis.h"
#include "core/figreq.h"
#include "core/strings.h"
#include "figure.h"
#include "order_train.h"

/* Numbers a figure computed for one export, kept for the export's other pages (the other
 * language's, a taller one's): the same request, so the same numbers. Arrays of doubles in
 * numbered slots (memo_get, memo_put in common.c), freed by the export (fig_memo_free). */
#define FIG_MEMO_SLOTS 16
typedef struct {
    double *v[FIG_MEMO_SLOTS];
    size_t n[FIG_MEMO_SLOTS];
    void *kept;                /* one object of the figure's own (a positions context) */
    void (*kept_free)(void *); /* frees it */
} fig_memo;
void fig_memo_free(fig_memo *m);

typedef struct {
    fig *f;           /* the page (NULL while an animation's begin prepares its frames) */
    fig_memo *memo;   /* the export's numbers so far, NULL: none kept (one page) */
    tf_analysis *a;
    const order_trainer *order; /* the trained order model (order-training), NULL: none */
    bool zh;          /* Chinese labels */
    cmap_id cmap;     /* --colormap, or CMAP_COUNT for the figure's choice */
    fig_rect area;    /* the page inside its margins, below the title */
    char msg[200];    /* why a figure cannot be drawn (bad input) */
    const fig_request *req;    /* the request (--vmin, --vmax, --vectors, --venue's notes...) */
    bool said;                 /* the reason of a failure was already told (stderr) */
    bool panel_labels; /* --panel-labels: (a), (b), ... on the panels of multi-panel figures */
    bool pe_split;    /* --pe-layout split */
    bool pe_layout_set; /* --pe-layout given; else PE-like columns split where they outnumber
                           the pixels (averaging a sin and a cos column invents ~0.5) */
} fig_ctx;

/* An animation: what all its frames share is made once by begin (c->f NULL), then frame k of n
 * (k = 0 .. n-1) is drawn on a page of its own as a still figure is (c->area below the title);
 * end frees what begin made. The frames span the same motion whatever n is: more frames make it
 * smoother, not longer in content. */
typedef struct {
    long frames;      /* by default */
    double fps;       /* by default */
    const char *still; /* the still figure that shows the same thing (for messages) */
    tf_status (*begin)(fig_ctx *c, long n, void **state); /* NULL: nothing shared */
    tf_status (*frame)(fig_ctx *c, void *state, long k, long n);
    void (*end)(void *state);
    const char *example; /* the options the gallery draws it with (NULL: none) */
} fig_anim;

/* One figure: a row of the table in export.c, the one place that lists the figures: --help,
 * the man page, the completions, the gallery (scripts/gallery.sh) and the tests take them from
 * it (tfviz-options-docs figures writes it out). */
typedef struct {
    const char *name;
    unsigned needs;   /* ANALYSIS_*, FIG_NEEDS_ORDER, FIG_NEEDS_VECTORS */
    double aspect;    /* default height / width */
    txt_id title;     /* markup; %s-free */
    tf_status (*draw)(fig_ctx *c); /* a still figure; NULL for an animation */
    /* NULL when the configuration fits, else a sentence (too many cells, ...) */
    const char *(*check)(const tf_config *cfg);
    /* an animation; NULL for a still figure. A row with both (order-training) is a still
     * figure in .png, .svg and .pdf and an animation in .gif and folders of frames. */
    const fig_anim *anim;
    /* the still figure's options in the gallery and the tests (VECTORS: a vectors file) */
    const char *example;
    bool schemes;     /* draws the position schemes --scheme chooses */
} fig_entry;

/* ---- the table and its pages (export.c), for animate.c and show.c -------------------------- */

/* The row named name, NULL for none. */
const fig_entry *figure_find(const char *name);
/* The page size in points: the request's, else one column wide at the figure's proportions
 * (an animation: a 16:9 slide). */
void figure_page_size(const fig_request *req, const fig_entry *e, double *w, double *h);
/* The context a page draws in (c.f and c.area unset), with the request's settings: an
 * animation's begin gets it too. */
fig_ctx figure_ctx(const fig_request *req, tf_analysis *a);
/* What one page shows: a still figure (state NULL, n 0), or frame k of n of an animation. */
typedef struct {
    void *state;
    long k, n;
    fig_memo *memo; /* a still figure's numbers shared by the pages of one export (NULL: none) */
} fig_frame;
/* Draw figure e of analysis a on a page opened with spec and meta: its title, then the figure
 * (or frame fr), and end the page (fig_end: written, or its pixels left in spec->raster). When
 * the labels did not fit, *cramped is set and TF_ERR_RANGE returned; a sentence for any other
 * refusal goes to why. Any thread: a page is drawn on the thread that calls this. */
tf_status figure_page(const fig_request *req, tf_analysis *a, const fig_entry *e,
                      const fig_spec *spec, const fig_meta *meta, const fig_frame *fr,
                      bool *cramped, char *why, size_t why_len);
/* The parameters stored in a file (the command that draws it again), malloc'd; NULL without
 * memory. */
char *figure_params(const fig_request *req, const tf_analysis *a, const fig_entry *e,
                    const char *format, double w, double h, double dpi, long frames, double fps);
#define FIG_FIXED_DATE "2000-01-01T00:00:00Z"

/* animate.c: an animation to a GIF file or a folder of PNG frames; the exit status */
int figure_animate(const fig_request *req, tf_analysis *a, const fig_entry *e);
/* The label size the frames of animation e take (state from its begin, n frames): the one the
 * request asks for, or a smaller one (figure_smaller_fonts) where that one does not fit. */
double figure_frames_font(const fig_request *req, tf_analysis *a, const fig_entry *e,
                          void *state, long n);
/* Labels that do not fit a narrow page (or a text block's height) are drawn smaller, down to
 * 6 pt: a 2 in subfigure draws every single-panel figure. The sizes tried below font, into
 * sizes[]; how many. */
size_t figure_smaller_fonts(double font, double sizes[4]);
/* The note that figure name's labels are font points, the asked size not fitting its w x h
 * point page (frame: an animation's frame), or with h 0 a page w wide at most a text block
 * tall. */
void figure_say_smaller(const char *name, bool frame, double font, double asked, double w,
                        double h);
/* The width (points) to name or try next when a page w points wide asked for need (its
 * fig_cramped_need): w grown by the larger of need's factors (the height follows the width), or
 * with a set height by its width's, by a quarter at least and twice at most, up to a hundredth
 * of an inch; 0 past 40 in. */
double figure_width_grown(double w, fig_need need, bool height_set);
/* An animation's page by default: 6.4 in x 3.6 in at 150 dpi, 960 x 540 pixels (a 16:9 slide) */
#define ANIM_PAGE_WIDTH_IN 6.4
#define ANIM_ASPECT 0.5625
#define ANIM_DPI 150.0
/* The resolution of figure e's pixels: --dpi, else 300 for a still figure and ANIM_DPI for an
 * animation. */
double figure_dpi(const fig_request *req, const fig_entry *e);
/* Whether path names a folder of frames: it ends in '/' or is a folder that exists. */
bool figure_is_folder(const char *path);
/* Needs beyond the analysis's parts: the trained order model (fig_request.order), which the
 * caller trains first (figures_need_order); learned vectors (--vectors), which the row's check
 * asks for. */
#define FIG_NEEDS_ORDER   (1u << 16)
#define FIG_NEEDS_VECTORS (1u << 17)

#define CURVE_SAMPLES 2000 /* points of one curve at most */

/* ---- the figures, one file per group ------------------------------------------------------ */

/* fig_positions.c: PE (C7), PE(p) . PE(q) (C9, C10), frequencies (C8) */
tf_status draw_pe(fig_ctx *c);
const char *check_pe(const tf_config *cfg);
tf_status draw_dot(fig_ctx *c);
const char *check_dot(const tf_config *cfg);
tf_status draw_freq(fig_ctx *c);
/* fig_rope.c: RoPE's rotation (C13) and RoFormer's decay bound */
tf_status draw_rope(fig_ctx *c);
const char *check_rope(const tf_config *cfg);
tf_status draw_decay(fig_ctx *c);
/* One sentence, two schemes: PE(pos) added to x, and RoPE's cos(pos theta_i) turning q and k */
tf_status draw_pe_vs_rope(fig_ctx *c);
/* fig_tokens.c: rows of W_E (C3, C4) and X_input = X_emb + PE (C11) */
tf_status draw_embedding(fig_ctx *c);
tf_status draw_input(fig_ctx *c);
/* fig_order.c: attention without and with positions (C6) */
tf_status draw_order(fig_ctx *c);
/* fig_order_training.c: the order model's held-out accuracy and loss per epoch (docs/math.md
 * part 5), callable once per frame while the trainer steps */
tf_status draw_order_training(fig_ctx *c);
/* fig_words.c: the 2-D map of learned word vectors (C5), alone or below the rows of W_E */
tf_status draw_embedding_map(fig_ctx *c);
const char *check_word_map(const tf_config *cfg);
tf_status draw_word_map(fig_ctx *c, fig_rect area, bool panel_title);
/* fig_distance.c: PE(p) . PE(p+k) against k (C10); RoPE's score against m - n (C13) */
tf_status draw_dot_offset(fig_ctx *c);
tf_status draw_rope_score(fig_ctx *c);
tf_status draw_rope_qk(fig_ctx *c);
/* fig_schemes.c: the position schemes against distance, and a learned position table */
tf_status draw_schemes(fig_ctx *c);
tf_status draw_pefile(fig_ctx *c);
const char *check_pefile(const tf_config *cfg);

/* ---- the animations, in the files of their groups ------------------------------------------ */

extern const fig_anim anim_rope_rotation; /* fig_rope.c: q and k turning together (C13) */
extern const fig_anim anim_pe_waves;      /* fig_positions.c: the sin/cos columns (C7, C8) */
extern const fig_anim anim_training;      /* fig_words.c: the map of words while SGNS trains (C5) */
extern const fig_anim anim_order_training; /* fig_order_training.c: the order model's curves */

/* ---- helpers (common.c) -------------------------------------------------------------------- */

/* The letter of panel i, "(a)", "(b)", ..., with --panel-labels; NULL without. */
const char *panel_tag(const fig_ctx *c, int i);
/* Copies memo slot i into out when it holds n values (true); false without a memo. */
bool memo_get(const fig_ctx *c, int i, double *out, size_t n);
/* Keeps a copy of v (n values) in memo slot i, for the export's next page (none without a memo
 * or memory). */
void memo_put(const fig_ctx *c, int i, const double *v, size_t n);
/* Memo slot i's values when it holds n (the memo keeps them), else NULL. */
const double *memo_ref(const fig_ctx *c, int i, size_t n);
/* A label in the figure's language. */
const char *fig_txt(const fig_ctx *c, txt_id id);
/* The colour scale: --colormap, else diverging (RdBu) for signed data and viridis otherwise;
 * a diverging map is always centred on 0 with a symmetric range. */
cmap_id color_scale(const fig_ctx *c, double mn, double mx, double *lo, double *hi);
/* A panel's colour scale read from its n values: a sequential map (viridis) for values of one
 * sign (past a stray 1 %), a diverging one centred on 0 for signed values; the range is the
 * data's, or the 1st to 99th percentile (symmetric when signed) of the values shown (the
 * pixels' means when the heatmap of m on ax's plot averages, else v; ax NULL: v) when a few
 * extremes would squash the rest into two thirds of the colours, clip then saying which ends the
 * bar marks as cut (fig_colorbar_clip). named: the panel shows the quantity --vmin/--vmax are
 * for (the figure's own), so they apply. v's range and percentiles, and those of the means, are
 * kept for the export's other pages in memo slots slot and slot + 1 (English), slot + 2
 * (Chinese). */
typedef struct {
    double lo, hi;
    int clip; /* 1: values below lo, 2: values above hi */
} color_range;
cmap_id color_scale_of(const fig_ctx *c, int slot, const double *v, size_t n,
                       const fig_axes *ax, const fig_matrix *m, bool named, color_range *r);
/* Rows of a (rows, d) matrix with its columns split: the even ones (PE's sin), then the odd
 * (a fig_matrix's row function, ctx a split_cols). */
typedef struct {
    const double *v; /* (rows, d) */
    int d;
} split_cols;
void split_col_row(void *ctx, long r, double *out);
bool pe_split_for(const fig_ctx *c, const fig_axes *ax, const fig_matrix *m);
/* ax's x label: label, or when m drawn on ax's plot averages cells, label and what each pixel
 * is, in out (cap bytes). Whether that differs from the label ax was fitted with: the caller
 * fits ax again (the second line takes room from the plot) and calls this once more. */
bool averaged_label(const fig_ctx *c, fig_axes *ax, const fig_matrix *m, const char *label,
                    char *out, size_t cap);
/* A wider page asked for where a legend row (its mark and label) is wider than room. */
void legend_rows_fit(fig *f, const fig_legend_item *li, int n, double room);
/* a fitted in ra and b in rb; aligned: fitted again with the wider left margin of the two. */
void fit_pair(fig *f, fig_axes *a, fig_rect ra, fig_axes *b, fig_rect rb, bool aligned);
/* Whether text (markup) is wider than room. */
bool too_wide(fig *f, const char *text, double room);
void minmax(const double *v, size_t n, double *mn, double *mx);
/* Axes for a (rows, cols) matrix whose cell centres sit at whole numbers from r0 and c0;
 * row r0 at the top. */
void matrix_axes(fig_axes *ax, long rows, long r0, long cols, long c0);
/* The colour bar's rectangle right of a plot's area. */
fig_rect colorbar_rect(const fig_axes *ax);
/* Make the plot area square by narrowing (or shortening) outer and fitting again; the title and
 * the x label keep the whole of outer. */
void fit_square(fig *f, fig_axes *ax, fig_rect outer);
/* Two panels of area: side by side on a wide page (the first `across` of the width, gap_across
 * between them), else stacked (the first `down` of the height, gap_down below it). */
void split_panels(fig_rect area, double across, double down, double gap_across, double gap_down,
                  bool *wide, fig_rect *first, fig_rect *second);
/* NULL when a heatmap of rows x cols cells can be drawn, else a sentence naming `what`. */
const char *heatmap_check(long rows, long cols, const char *what);

/* A label cut to its first words, up to its colon (":" or the full-width "："), if any: the
 * short form of "chance: the most without positions" or "shift s: m = 0 + s, ...". */
void cut_at_colon(char *s);

/* A token as pango markup, at most n bytes with its NUL (see common.c): a space shows as U+2423. */
void token_markup(char *out, size_t n, const char *s, size_t len);
/* A figure's own title (markup: X<sub>emb</sub>) as plain text for the file's metadata, at most n
 * bytes with its NUL: tags dropped, <sub> written "_", entities unescaped ("X_emb"). */
void markup_plain(char *out, size_t n, const char *s);
/* Running text as pango markup, the same but its spaces kept as spaces (a sentence). */
void text_markup(char *out, size_t n, const char *s, size_t len);

/* Tick labels for the tokens of a sentence, one per row or column. */
typedef struct {
    int n;
    double *at;
    char **labels;
    char *store;
} token_ticks;

tf_status token_ticks_make(token_ticks *tt, const tf_tokens *toks, const char *text, long first,
                           bool with_id);
void token_ticks_free(token_ticks *tt);
void set_token_axis(fig_axis *ax, const token_ticks *tt);

/* Text s (lines split by newlines; text without markup tags) rewrapped in place so that no line
 * is wider than width: a line breaks at its last space that fits, or between two characters where
 * it has none there (Chinese), where s (cap bytes) has room for the newline. */
void fig_wrap(fig *f, char *s, size_t cap, double width);

#endif
