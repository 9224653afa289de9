/* export.c — the table of figures, and one figure from a request: check it, size the page,
 * draw the figure with render/figure, and write it atomically (a temporary file beside the
 * target, then rename). */
#include "figures/figures.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/outfile.h"
#include "figures/draw.h"
#include "tf_config.h"

#define MIN_SIDE_PT (1.0 * FIG_PT_PER_IN)  /* 1 in */
#define MAX_SIDE_PT (40.0 * FIG_PT_PER_IN) /* 40 in: a poster */
#define MAX_PNG_PIXELS 45e6                /* 180 MB of ARGB32: memory stays near 200 MB */
#define FIXED_DATE "2000-01-01T00:00:00Z"

/* ---------------------------------------------------------------------------------------------
 * The table: a figure is a row here and a draw function in its group's file */

static const fig_entry figures[] = {
    {"pe", 0, 0.8, T_F_TITLE_PE, draw_pe, check_pe},
    {"rope", ANALYSIS_ROPE, 1.45, T_F_TITLE_ROPE, draw_rope, check_rope},
    {"rope-decay", 0, 0.72, T_F_TITLE_DECAY, draw_decay, NULL},
    {"freq", 0, 1.15, T_F_TITLE_FREQ, draw_freq, NULL},
    {"dot", 0, 0.9, T_F_TITLE_DOT, draw_dot, check_dot},
    {"input", 0, 1.05, T_F_TITLE_INPUT, draw_input, NULL},
    {"order", ANALYSIS_ORDER, 1.35, T_F_TITLE_ORDER, draw_order, NULL},
    {"embedding", 0, 0.62, T_F_TITLE_EMBEDDING, draw_embedding, NULL},
    {"embedding-map", 0, 0.8, T_F_TITLE_MAP, draw_embedding_map, check_word_map},
    {"dot-offset", 0, 0.72, T_F_TITLE_DOT_OFFSET, draw_dot_offset, NULL},
    {"rope-score", ANALYSIS_ROPE, 0.72, T_F_TITLE_ROPE_SCORE, draw_rope_score, NULL},
    {"rope-qk", ANALYSIS_ROPE, 0.8, T_F_TITLE_ROPE_QK, draw_rope_qk, NULL},
    {"pe-vs-rope", 0, 1.0, T_F_TITLE_PE_VS_ROPE, draw_pe_vs_rope, NULL},
    {"schemes", 0, 1.45, T_F_TITLE_SCHEMES, draw_schemes, NULL},
    {"pe-file", 0, 1.15, T_F_TITLE_PEFILE, draw_pefile, check_pefile},
    {"order-training", FIG_NEEDS_ORDER, 1.25, T_F_TITLE_TRAINING, draw_order_training, NULL},
};
#define N_FIGURES (sizeof figures / sizeof figures[0])

static const fig_entry *find(const char *name)
{
    for (size_t i = 0; i < N_FIGURES; i++)
        if (strcmp(figures[i].name, name) == 0)
            return &figures[i];
    return NULL;
}

bool figures_need_order(const char *name)
{
    const fig_entry *e = find(name ? name : "pe");
    return e && (e->needs & FIG_NEEDS_ORDER);
}

const char *const *figures_names(void)
{
    static const char *names[N_FIGURES + 1];
    for (size_t i = 0; i < N_FIGURES; i++)
        names[i] = figures[i].name;
    return names;
}

/* "pe, rope, ..." for messages. */
static const char *names_list(void)
{
    static char list[400];
    size_t o = 0;
    for (size_t i = 0; i < N_FIGURES; i++)
        o += (size_t)snprintf(list + o, sizeof list - o, "%s%s", i ? ", " : "", figures[i].name);
    return list;
}

/* ---------------------------------------------------------------------------------------------
 * The request: the page and the checks */

/* A page at least this wide lays its panels side by side (common.c, split_panels) ... */
#define WIDE_PAGE_IN 4.5
/* ... at most this tall by default: a full-width figure about as tall as a paper's figures are
 * (2.5 to 3.5 in), not its one-column shape scaled up to most of a page. */
static const struct {
    const char *name;
    double height_in;
} wide_heights[] = {
    {"pe", 2.6},  {"rope", 2.8},  {"rope-decay", 2.5}, {"freq", 2.6},
    {"dot", 3.0}, {"input", 3.2}, {"order", 3.4},      {"embedding", 2.6},
    {"dot-offset", 2.5}, {"rope-score", 2.5}, {"rope-qk", 3.0}, {"pe-vs-rope", 2.4},
};

/* The page size in points: the request's, else one column wide at the figure's proportions
 * (capped on a wide page, see wide_heights). */
static void page_size(const fig_request *req, const fig_entry *e, double *w, double *h)
{
    *w = req->width > 0 ? req->width : FIG_ONE_COLUMN_IN * FIG_PT_PER_IN;
    /* the embedding figure adds the map of words below its rows when vectors are given */
    bool map = strcmp(e->name, "embedding") == 0 && (req->vectors_named || req->vectors);
    double aspect = map ? 1.0 : e->aspect;
    /* the order-training panels stand side by side on a page wider than a column */
    if ((e->needs & FIG_NEEDS_ORDER) && *w > 1.5 * FIG_ONE_COLUMN_IN * FIG_PT_PER_IN)
        aspect = 0.42;
    *h = req->height > 0 ? req->height : round(*w * aspect * 10) / 10;
    if (req->height > 0 || map || *w < WIDE_PAGE_IN * FIG_PT_PER_IN)
        return;
    for (size_t i = 0; i < sizeof wide_heights / sizeof wide_heights[0]; i++)
        if (strcmp(wide_heights[i].name, e->name) == 0)
            *h = fmin(*h, wide_heights[i].height_in * FIG_PT_PER_IN);
}

/* The page's own limits: NULL when it fits, else a sentence. */
static const char *check_page(const fig_request *req, const fig_entry *e)
{
    static char why[240];
    double w, h;
    page_size(req, e, &w, &h);
    if (w < MIN_SIDE_PT || w > MAX_SIDE_PT || h < MIN_SIDE_PT || h > MAX_SIDE_PT) {
        char ws[32], hs[32]; /* 3.50, or 1e+300 for an absurd size: never 300 digits */
        double wi = w / FIG_PT_PER_IN, hi = h / FIG_PT_PER_IN;
        snprintf(ws, sizeof ws, fabs(wi) < 1e6 ? "%.2f" : "%.3g", wi);
        snprintf(hs, sizeof hs, fabs(hi) < 1e6 ? "%.2f" : "%.3g", hi);
        snprintf(why, sizeof why, "the page would be %s x %s in%s, and each side must be "
                 "from 1 in to 40 in (2.54 cm to 101.6 cm); set --width and --height",
                 ws, hs,
                 req->height > 0 ? "" : " (the height follows the width)");
        return why;
    }
    double dpi = req->dpi > 0 ? req->dpi : FIG_DEFAULT_DPI;
    if (fig_format_from_path(req->path) == FIG_PNG &&
        (w / FIG_PT_PER_IN * dpi) * (h / FIG_PT_PER_IN * dpi) > MAX_PNG_PIXELS)
        return "the PNG would have more than 45 million pixels (180 MB in memory); lower --dpi "
               "or the size, or export .pdf or .svg, which have no pixels";
    return NULL;
}

/* Whether fontconfig knows the first family of a comma-separated list. */
static bool fonts_installed(const char *list)
{
    char first[128];
    size_t n = strcspn(list, ",");
    while (n > 0 && list[n - 1] == ' ')
        n--;
    while (*list == ' ' && n > 0)
        list++, n--;
    if (n == 0 || n >= sizeof first)
        return false;
    memcpy(first, list, n);
    first[n] = '\0';
    return fig_font_installed(first);
}

/* The label fonts the request asks for, NULL: the default sans. */
static const char *font_families(const fig_request *req)
{
    return req->font ? req->font : req->serif ? FIG_SERIF_FAMILIES : NULL;
}

const char *figures_check(const fig_request *req, const tf_config *cfg)
{
    static char why[600];
    const fig_entry *e = find(req->name ? req->name : "pe");
    if (!e) {
        snprintf(why, sizeof why, "--figure must be one of %s (got '%s')", names_list(),
                 req->name);
        return why;
    }
    if (!req->path || !*req->path)
        return "--export needs a file name ending in .png, .svg or .pdf";
    if (fig_format_from_path(req->path) == FIG_FORMAT_COUNT) {
        snprintf(why, sizeof why, "the file name decides the format: '%s' must end in .png, "
                 ".svg or .pdf", req->path);
        return why;
    }
    if (req->has_vmin && req->has_vmax && !(req->vmin < req->vmax)) {
        snprintf(why, sizeof why, "--vmin (%g) must be below --vmax (%g)", req->vmin, req->vmax);
        return why;
    }
    if (req->font && req->serif)
        return "--font and --serif both choose the font; use one";
    if (req->font && !fonts_installed(req->font)) {
        snprintf(why, sizeof why, "no installed font family is called '%s' (fc-list : family "
                 "lists them)", req->font);
        return why;
    }
    if (req->colormap && colormap_parse(req->colormap) == CMAP_COUNT) {
        snprintf(why, sizeof why, "--colormap must be viridis, cividis, rdbu, puor or gray "
                 "(got '%s')", req->colormap);
        return why;
    }
    const char *page = check_page(req, e);
    if (page || !e->check)
        return page;
    /* the early check runs before --vectors is read: a named file stands for its vectors here
     * (reading it reports its own errors) */
    static const tf_vectors pending = {.n = 2, .dim = 2};
    tf_config c = *cfg;
    c.vectors = req->vectors ? req->vectors : req->vectors_named ? &pending : NULL;
    return e->check(&c);
}

/* ---------------------------------------------------------------------------------------------
 * The parameters stored in the file: enough to draw it again */

static void put_quoted(FILE *m, const char *s, size_t n)
{
    fputc('\'', m);
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\'')
            fputs("'\\''", m);
        else
            fputc(s[i], m);
    }
    fputc('\'', m);
}

/* The options of the order model a figure was trained with. */
static void order_options(FILE *m, const fig_request *req)
{
    const order_train_cfg *c = order_trainer_cfg(req->order);
    const order_task *t = order_trainer_task(req->order);
    fputs(" --scheme ", m);
    for (size_t k = 0; k < order_trainer_count(req->order); k++)
        fprintf(m, "%s%s", k ? "," : "", scheme_name(order_trainer_scheme(req->order, k)));
    fprintf(m, " --seed %llu -d %d --heads %d --epochs %d", (unsigned long long)c->model.seed,
            c->model.d_model, c->model.heads, c->epochs);
    if (req->order_task) {
        fputs(" --order-task ", m);
        put_quoted(m, req->order_task, strlen(req->order_task));
    } else { /* the generated task: the article's two pairs are held out besides */
        fprintf(m, " --order-pairs %u,%u", t->n_split[ORDER_TRAIN] / 2,
                t->n_split[ORDER_TEST] / 2 - 2);
    }
}

static char *params_string(const fig_request *req, const tf_analysis *a, const fig_entry *e,
                           fig_format fmt, double w, double h, double dpi, double font, cmap_id cm)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m)
        return NULL;
    const tf_config *c = &a->cfg;
    bool order = e->needs & FIG_NEEDS_ORDER;
    if (order && req->order) {
        fprintf(m, "tfviz %s --export FIGURE.%s --figure %s", TF_VERSION, fig_format_name(fmt),
                e->name);
        order_options(m, req);
    } else {
        fprintf(m, "tfviz %s --export FIGURE.%s --figure %s -d %d -n %ld --base %.17g "
               "--index-base %d --seed %llu --vocab-size %u --tokenizer %s --rope-style %s "
               "--offset %ld%s", TF_VERSION, fig_format_name(fmt), e->name, c->d_model,
            c->n_positions, c->base, c->index_base, (unsigned long long)c->seed, c->vocab_size,
            tokenizer_name(c->tokenizer), rope_style_name(c->rope), c->offset,
            c->scale_embedding ? " --scale-embedding" : "");
        if (c->compare) {
            fputs(" --compare ", m);
            put_quoted(m, c->compare, c->compare_len);
        }
    }
    if (fmt == FIG_PNG)
        fprintf(m, " --dpi %g", dpi);
    fprintf(m, " --width %gpt --height %gpt", w, h);
    if (cm != CMAP_COUNT)
        fprintf(m, " --colormap %s", colormap_name(cm));
    fprintf(m, " --font-size %g --lang %s", font, req->zh ? "zh" : "en");
    if (req->font) {
        fputs(" --font ", m);
        put_quoted(m, req->font, strlen(req->font));
    } else if (req->serif) {
        fputs(" --serif", m);
    }
    if (req->panel_labels)
        fputs(" --panel-labels", m);
    if (req->pe_split)
        fputs(" --pe-layout split", m);
    if (req->has_vmin)
        fprintf(m, " --vmin %.17g", req->vmin);
    if (req->has_vmax)
        fprintf(m, " --vmax %.17g", req->vmax);
    if (req->no_title) {
        fputs(" --no-title", m);
    } else if (req->title) {
        fputs(" --title ", m);
        put_quoted(m, req->title, strlen(req->title));
    }
    if (!order) {
        fputs(" -- ", m);
        put_quoted(m, a->text, a->text_len);
    }
    if (fclose(m) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* ---------------------------------------------------------------------------------------------
 * Drawing and writing */

/* One page of w x h points: drawn to fp, or with measure only laid out (nothing written). *cramped
 * says whether some plot had no room left after its labels; a page that is cramped (and not a
 * measure page) is not written. */
static tf_status draw_page(const fig_request *req, tf_analysis *a, const fig_entry *e,
                           fig_format fmt, double w, double h, FILE *fp, bool measure,
                           bool *cramped, char *why, size_t why_len)
{
    double dpi = req->dpi > 0 ? req->dpi : FIG_DEFAULT_DPI;
    double font = req->font_size > 0 ? req->font_size : FIG_DEFAULT_FONT_PT;
    bool zh = req->zh;
    cmap_id cm = req->colormap ? colormap_parse(req->colormap) : CMAP_COUNT;
    const char *own = txt_lang(e->title, zh);
    const char *title = req->no_title ? NULL : req->title ? req->title : own;
    char *params = measure ? NULL : params_string(req, a, e, fmt, w, h, dpi, font, cm);
    char software[64];
    snprintf(software, sizeof software, "tfviz %s", TF_VERSION);
    fig_spec spec = {.format = fmt, .width = w, .height = h, .dpi = dpi, .font_size = font,
                     .latin_first = !zh, .fp = fp, .font = font_families(req),
                     .measure = measure, .boxes = measure ? NULL : req->boxes};
    fig_meta meta = {.title = title ? title : own, .software = software, .params = params,
                     .date = FIXED_DATE};
    fig_ctx c = {.a = a, .order = req->order, .zh = zh, .cmap = cm, .vectors = req->vectors,
                 .no_title = req->no_title, .panel_labels = req->panel_labels,
                 .pe_split = req->pe_split,
                 .has_vmin = req->has_vmin, .has_vmax = req->has_vmax, .vmin = req->vmin,
                 .vmax = req->vmax};
    *cramped = false;
    /* the explorer's schemes view draws its own choice of schemes: the same analysis (read
     * only) under other position parameters */
    tf_analysis *with = NULL; /* freed below; its parts are a's */
    if (req->positions) {
        with = malloc(sizeof *with);
        if (!with) {
            free(params);
            return TF_ERR_NOMEM;
        }
        *with = *a;
        with->cfg.positions = req->positions;
        c.a = with;
    }
    tf_status st = fig_begin(&spec, &meta, &c.f);
    if (st != TF_OK) {
        free(params);
        free(with);
        return st;
    }
    double margin = 0.5 * font;
    c.area = (fig_rect){margin, margin, w - 2 * margin, h - 2 * margin};
    double th = fig_title(c.f, c.area, title, true);
    if (th > 0) {
        c.area.y += th + 0.4 * font;
        c.area.h -= th + 0.4 * font;
    }
    st = e->draw(&c);
    *cramped = fig_cramped(c.f);
    unsigned missing = fig_missing_char(c.f);
    if (st == TF_OK && missing && !measure) {
        /* pango would draw empty boxes in its place */
        snprintf(c.msg, sizeof c.msg, "no installed font has the character U+%04X; install a CJK "
                 "font (Debian: fonts-noto-cjk) or draw the figure with --lang en", missing);
        st = TF_ERR_UNAVAILABLE;
    } else if (st == TF_OK && *cramped && !measure) {
        st = TF_ERR_RANGE;
    }
    if (st == TF_OK) {
        st = fig_end(c.f);
    } else {
        fig_free(c.f);
        if (c.msg[0])
            snprintf(why, why_len, "%s", c.msg);
    }
    free(params);
    free(with);
    return st;
}

/* The least height from h up (10% steps, at most MAX_SIDE_PT) at which the labels fit at width
 * w; 0 when none does. */
static double height_that_fits(const fig_request *req, tf_analysis *a, const fig_entry *e,
                               fig_format fmt, double w, double h)
{
    char why[8];
    for (; h <= MAX_SIDE_PT; h *= 1.1) {
        bool cramped;
        if (draw_page(req, a, e, fmt, w, h, NULL, true, &cramped, why, sizeof why) != TF_OK)
            return 0;
        if (!cramped)
            return h;
    }
    return 0;
}

/* The least width from w up (10% steps) at which the labels fit on a page of the figure's
 * proportions, or at least h tall (twice that when the proportions are lower); 0 when none. */
static double width_that_fits(const fig_request *req, tf_analysis *a, const fig_entry *e,
                              fig_format fmt, double w, double h)
{
    char why[8];
    for (w *= 1.1; w <= MAX_SIDE_PT; w *= 1.1) {
        double tall = fmin(MAX_SIDE_PT, fmax(2 * h, w * e->aspect));
        bool cramped;
        if (draw_page(req, a, e, fmt, w, tall, NULL, true, &cramped, why, sizeof why) != TF_OK)
            return 0;
        if (!cramped)
            return w;
    }
    return 0;
}

static tf_status draw(const fig_request *req, tf_analysis *a, const fig_entry *e, fig_format fmt,
                      FILE *fp, char *why, size_t why_len)
{
    double w, h;
    page_size(req, e, &w, &h);
    /* the height follows the width: taller when the labels need it (a large --font-size) */
    if (!(req->height > 0)) {
        double fits = height_that_fits(req, a, e, fmt, w, h);
        h = fits > 0 ? fits : h;
    }
    bool cramped;
    tf_status st = draw_page(req, a, e, fmt, w, h, fp, false, &cramped, why, why_len);
    if (st == TF_ERR_RANGE && cramped) {
        double font = req->font_size > 0 ? req->font_size : FIG_DEFAULT_FONT_PT;
        double fits = req->height > 0 ? height_that_fits(req, a, e, fmt, w, h) : 0;
        if (fits > 0)
            snprintf(why, why_len, "the labels at %g pt do not fit on %.2f x %.2f in; they need "
                     "a page at least %.2f in tall at this width (--height %.2fin), or a "
                     "smaller --font-size", font, w / FIG_PT_PER_IN, h / FIG_PT_PER_IN,
                     ceil(fits / FIG_PT_PER_IN * 100) / 100, ceil(fits / FIG_PT_PER_IN * 100) / 100);
        else if ((fits = width_that_fits(req, a, e, fmt, w, h)) > 0)
            snprintf(why, why_len, "the labels at %g pt do not fit on a page %.2f in wide; they "
                     "need about %.2f in (--width %.2fin), or a smaller --font-size", font,
                     w / FIG_PT_PER_IN, ceil(fits / FIG_PT_PER_IN * 100) / 100,
                     ceil(fits / FIG_PT_PER_IN * 100) / 100);
        else
            snprintf(why, why_len, "the labels at %g pt do not fit on a page %.2f in wide at "
                     "any size up to 40 in; lower --font-size", font, w / FIG_PT_PER_IN);
    }
    return st;
}

int figures_export(const fig_request *req, tf_analysis *a)
{
    tf_config cfg = a->cfg;
    cfg.vectors = req->vectors;
    const char *bad = figures_check(req, &cfg);
    if (bad) {
        err_say("%s.", bad);
        return 2;
    }
    const fig_entry *e = find(req->name ? req->name : "pe");
    if (!e)
        return 2;
    if ((e->needs & FIG_NEEDS_ORDER) && !req->order) { /* the caller trains the model (figures_need_order) */
        err_say("cannot draw the %s figure: no trained order model was given.", e->name);
        return 2;
    }
    tf_status st = analysis_need(a, e->needs & ~FIG_NEEDS_ORDER, NULL);
    if (st != TF_OK) {
        err_say("cannot draw the %s figure: %s.", e->name, tf_status_str(st));
        return 2;
    }
    outfile out;
    if (outfile_open(&out, req->path, "for --export"))
        return 1;
    char why[200] = "";
    fig_format fmt = fig_format_from_path(req->path);
    st = draw(req, a, e, fmt, out.fp, why, sizeof why);
    if (outfile_close(&out, st))
        return 1;
    if (st != TF_OK) {
        err_say("cannot draw the %s figure: %s.", e->name, why[0] ? why : tf_status_str(st));
        return 2;
    }
    return 0;
}
