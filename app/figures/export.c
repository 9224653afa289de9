/* export.c — the table of figures, and one figure from a request: check it, size the page,
 * draw the figure with render/figure, and write it atomically (a temporary file beside the
 * target, then rename); or draw it into pixels for the terminal (figures_raster). The
 * animations of the table are written by animate.c. */
#include "figures/figures.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "anim.h"
#include "core/err.h"
#include "core/outfile.h"
#include "figures/draw.h"
#include "tf_config.h"

#define MIN_SIDE_PT (1.0 * FIG_PT_PER_IN)  /* 1 in */
#define MAX_SIDE_PT (40.0 * FIG_PT_PER_IN) /* 40 in: a poster */
/* No page is taller than a venue's text block by default; --height asks for more (to 40 in) */
#define TEXT_HEIGHT_PT (9.0 * FIG_PT_PER_IN)
#define MAX_PNG_PIXELS 45e6                /* 180 MB of ARGB32: memory stays near 200 MB */
/* An animation's frames, all of them: at some 25 ns a pixel (drawn, quantised, LZW-coded or
 * PNG-compressed) this is about two minutes (bench/README.md, gif_frame_800x500) */
#define MAX_ANIM_PIXELS 5e9
/* A terminal's text fills about this share of its cell's height */
#define TEXT_SHARE_OF_CELL 0.7

/* ---------------------------------------------------------------------------------------------
 * The table: a figure is a row here and a draw function in its group's file; an animation is a
 * row with a fig_anim instead */

static const fig_entry figures[] = {
    {.name = "pe", .aspect = 0.8, .title = T_F_TITLE_PE, .draw = draw_pe,
     .check = check_pe, .example = "-n 100 -d 128"},
    {.name = "rope", .needs = ANALYSIS_ROPE, .aspect = 1.45,
     .title = T_F_TITLE_ROPE, .draw = draw_rope, .check = check_rope, .example = "-n 64 -d 128"},
    {.name = "rope-decay", .aspect = 0.72, .title = T_F_TITLE_DECAY,
     .draw = draw_decay, .example = "-d 128 -n 256"},
    {.name = "freq", .aspect = 1.15, .title = T_F_TITLE_FREQ,
     .draw = draw_freq, .example = "-d 128 -n 64"},
    {.name = "dot", .aspect = 0.9, .title = T_F_TITLE_DOT,
     .draw = draw_dot, .check = check_dot, .example = "-d 128 -n 64"},
    {.name = "input", .aspect = 1.05, .title = T_F_TITLE_INPUT,
     .draw = draw_input, .example = "-d 64"},
    {.name = "order", .schemes = true, .needs = ANALYSIS_ORDER, .aspect = 1.7,
     .title = T_F_TITLE_ORDER, .draw = draw_order, .example = "--order-b aligned"},
    {.name = "embedding", .aspect = 0.62, .title = T_F_TITLE_EMBEDDING,
     .draw = draw_embedding, .example = "-d 64"},
    {.name = "embedding-map", .needs = FIG_NEEDS_VECTORS, .aspect = 0.8,
     .title = T_F_TITLE_MAP, .draw = draw_embedding_map, .check = check_word_map,
     .example = "--vectors VECTORS"},
    {.name = "dot-offset", .aspect = 0.72, .title = T_F_TITLE_DOT_OFFSET,
     .draw = draw_dot_offset, .example = "-d 128 -n 256"},
    {.name = "rope-score", .needs = ANALYSIS_ROPE, .aspect = 0.72,
     .title = T_F_TITLE_ROPE_SCORE, .draw = draw_rope_score, .example = "-d 128 -n 128"},
    {.name = "rope-qk", .needs = ANALYSIS_ROPE, .aspect = 0.8,
     .title = T_F_TITLE_ROPE_QK, .draw = draw_rope_qk, .example = "-d 128"},
    {.name = "pe-vs-rope", .aspect = 1.0, .title = T_F_TITLE_PE_VS_ROPE,
     .draw = draw_pe_vs_rope, .example = "-d 64"},
    {.name = "schemes", .schemes = true, .aspect = 1.45, .title = T_F_TITLE_SCHEMES,
     .draw = draw_schemes,
     .example = "--scheme sinusoidal,rope,alibi,t5 --scaling yarn --factor 4 --head 5 -d 128"},
    {.name = "pe-file", .schemes = true, .aspect = 1.15, .title = T_F_TITLE_PEFILE,
     .draw = draw_pefile, .check = check_pefile, .example = "-d 64"},
    /* a still figure and an animation (.gif, DIR/) */
    {.name = "order-training", .schemes = true, .needs = FIG_NEEDS_ORDER, .aspect = 1.25,
     .title = T_F_TITLE_ORDER_TRAINING, .draw = draw_order_training,
     .anim = &anim_order_training, .example = "--seed 42"},
    /* animations */
    {.name = "rope-rotation", .needs = ANALYSIS_ROPE, .aspect = ANIM_ASPECT,
     .title = T_F_TITLE_ROPE_ROT, .anim = &anim_rope_rotation},
    {.name = "pe-waves", .aspect = ANIM_ASPECT, .title = T_F_TITLE_PE_WAVES,
     .anim = &anim_pe_waves},
    {.name = "training", .aspect = ANIM_ASPECT, .title = T_F_TITLE_TRAINING,
     .anim = &anim_training},
};
#define N_FIGURES (sizeof figures / sizeof figures[0])

const fig_entry *figure_find(const char *name)
{
    for (size_t i = 0; i < N_FIGURES; i++)
        if (strcmp(figures[i].name, name) == 0)
            return &figures[i];
    return NULL;
}

bool figures_need_order(const char *name)
{
    const fig_entry *e = figure_find(name ? name : "pe");
    return e && (e->needs & FIG_NEEDS_ORDER);
}

const char *const *figures_names(void)
{
    static const char *names[N_FIGURES + 1];
    for (size_t i = 0; i < N_FIGURES; i++)
        names[i] = figures[i].name;
    return names;
}

const char *const *figures_animations(void)
{
    static const char *names[N_FIGURES + 1];
    for (size_t i = 0, n = 0; i < N_FIGURES; i++)
        if (figures[i].anim)
            names[n++] = figures[i].name;
    return names;
}

void figures_list(FILE *fp)
{
    for (size_t i = 0; i < N_FIGURES; i++) {
        const fig_entry *e = &figures[i];
        const char *needs = e->needs & FIG_NEEDS_ORDER     ? "order"
                            : e->needs & FIG_NEEDS_VECTORS ? "vectors"
                                                           : "-";
        for (int anim = 0; anim < 2; anim++) {
            if (anim ? !e->anim : !e->draw)
                continue;
            const char *ex = anim ? e->anim->example : e->example;
            fprintf(fp, "%s\t%s\t%s\t%s\t%s\t%s\n", e->name, anim ? "animation" : "still",
                    needs, ex ? ex : "-", txt_lang(e->title, false), txt_lang(e->title, true));
        }
    }
}

enum { STILLS, ANIMATIONS, SCHEMES };
/* "pe, rope, ..." of the still figures, the animations or the figures of the schemes --scheme
 * chooses, for messages. */
static const char *names_list(int kind, char *list, size_t cap)
{
    size_t o = 0;
    list[0] = '\0';
    for (size_t i = 0; i < N_FIGURES && o < cap; i++) {
        const fig_entry *f = &figures[i];
        if (kind == STILLS ? f->draw != NULL : kind == ANIMATIONS ? f->anim != NULL : f->schemes)
            o += (size_t)snprintf(list + o, cap - o, "%s%s", o ? ", " : "", f->name);
    }
    return list;
}

bool figures_use_schemes(const char *name, char *list, size_t cap)
{
    names_list(SCHEMES, list, cap);
    const fig_entry *e = figure_find(name ? name : "pe");
    return e && e->schemes;
}

/* ---------------------------------------------------------------------------------------------
 * The request: the page and the checks */

/* A sentence into why (cap bytes), printf-style; why. */
__attribute__((format(printf, 3, 4))) static const char *say(char *why, size_t cap,
                                                             const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, cap, fmt, ap);
    va_end(ap);
    return why;
}

bool figure_is_folder(const char *path)
{
    size_t n = strlen(path);
    struct stat sb;
    return (n && path[n - 1] == '/') || (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode));
}

static bool is_gif(const char *path)
{
    const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
    return dot && (!slash || dot > slash) && strcasecmp(dot, ".gif") == 0;
}

/* Whether e is drawn as an animation for req: an animation always, a row with both a still
 * figure and an animation when req's file is a .gif or a folder. */
static bool figure_animating(const fig_request *req, const fig_entry *e)
{
    return e->anim && (!e->draw || (req->path && *req->path &&
                                    (is_gif(req->path) || figure_is_folder(req->path))));
}

/* A page at least this wide lays its panels side by side (common.c, split_panels) ... */
#define WIDE_PAGE_IN 4.5
/* ... at most this tall by default: a full-width figure about as tall as a paper's figures are
 * (2.5 to 3.5 in), not its one-column shape scaled up to most of a page; taller when its labels
 * need it (shared_layout) */
#define WIDE_HEIGHT_IN 3.4
void figure_page_size(const fig_request *req, const fig_entry *e, double *w, double *h)
{
    /* an animation is for a slide: 16:9, 960 x 540 pixels at its own resolution */
    bool anim = figure_animating(req, e);
    *w = req->width > 0 ? req->width
                        : (anim ? ANIM_PAGE_WIDTH_IN : FIG_ONE_COLUMN_IN) * FIG_PT_PER_IN;
    /* the embedding figure adds the map of words below its rows when vectors are given */
    bool map = strcmp(e->name, "embedding") == 0 && (req->vectors_named || req->vectors);
    double aspect = anim ? ANIM_ASPECT : map ? 1.0 : e->aspect;
    /* the order-training panels stand side by side on a page wider than a column */
    if (!anim && (e->needs & FIG_NEEDS_ORDER) && *w > 1.5 * FIG_ONE_COLUMN_IN * FIG_PT_PER_IN)
        aspect = 0.42;
    *h = req->height > 0 ? req->height : round(*w * aspect * 10) / 10;
    if (req->height > 0 || anim)
        return;
    if (!map && *w >= WIDE_PAGE_IN * FIG_PT_PER_IN)
        *h = fmin(*h, WIDE_HEIGHT_IN * FIG_PT_PER_IN);
    *h = fmin(*h, TEXT_HEIGHT_PT);
}

double figure_dpi(const fig_request *req, const fig_entry *e)
{
    return req->dpi > 0 ? req->dpi : figure_animating(req, e) ? ANIM_DPI : FIG_DEFAULT_DPI;
}

/* The page's own limits: NULL when it fits, else a sentence in why. */
static const char *check_page(const fig_request *req, const fig_entry *e, char *why, size_t cap)
{
    double w, h;
    figure_page_size(req, e, &w, &h);
    if (w < MIN_SIDE_PT || w > MAX_SIDE_PT || h < MIN_SIDE_PT || h > MAX_SIDE_PT) {
        char ws[32], hs[32]; /* 3.50, or 1e+300 for an absurd size: never 300 digits */
        double wi = w / FIG_PT_PER_IN, hi = h / FIG_PT_PER_IN;
        snprintf(ws, sizeof ws, fabs(wi) < 1e6 ? "%.2f" : "%.3g", wi);
        snprintf(hs, sizeof hs, fabs(hi) < 1e6 ? "%.2f" : "%.3g", hi);
        return say(why, cap, "the page would be %s x %s in%s, and each side must be from 1 in "
                   "to 40 in (2.54 cm to 101.6 cm); set --width and --height", ws, hs,
                   req->height > 0 ? "" : " (the height follows the width)");
    }
    double dpi = figure_dpi(req, e);
    double px = (w / FIG_PT_PER_IN * dpi) * (h / FIG_PT_PER_IN * dpi);
    bool anim = figure_animating(req, e);
    if ((anim || fig_format_from_path(req->path) == FIG_PNG) && px > MAX_PNG_PIXELS)
        return anim ? "a frame would have more than 45 million pixels (180 MB in memory); "
                         "lower --dpi or the size"
                       : "the PNG would have more than 45 million pixels (180 MB in memory); "
                         "lower --dpi or the size, or export .pdf or .svg, which have no pixels";
    long n = anim && req->frames <= 0 ? e->anim->frames : req->frames;
    if (anim && px * (double)n > MAX_ANIM_PIXELS)
        return say(why, cap, "%ld frames of %.0f x %.0f pixels would take several minutes to "
                   "draw (%.1f billion pixels, the limit is %.0f); lower --frames, --dpi or the "
                   "size", n, w / FIG_PT_PER_IN * dpi, h / FIG_PT_PER_IN * dpi,
                   px * (double)n / 1e9, MAX_ANIM_PIXELS / 1e9);
    return NULL;
}

/* The file name against the figure: a still figure goes to .png, .svg or .pdf, an animation to
 * .gif or a folder. NULL when they go together, else a sentence in why. */
static const char *check_path(const fig_request *req, const fig_entry *e, char *why, size_t cap)
{
    char anims[120];
    names_list(ANIMATIONS, anims, sizeof anims);
    if (!req->path || !*req->path)
        return say(why, cap, "--export needs a file name ending in .png, .svg or .pdf (.gif or "
                   "a folder DIR/ for the animations %s)", anims);
    bool folder = figure_is_folder(req->path), gif = !folder && is_gif(req->path);
    /* a still figure's name that is a folder (no trailing slash) is refused when written */
    if (!e->anim && folder && req->path[strlen(req->path) - 1] != '/')
        folder = false;
    fig_format fmt = folder || gif ? FIG_FORMAT_COUNT : fig_format_from_path(req->path);
    if (e->anim && !e->draw) {
        if (fmt != FIG_FORMAT_COUNT)
            return say(why, cap, "%s is an animation: export it as FILE.gif or to a folder "
                       "DIR/ of PNG frames; for a still picture use --figure %s", e->name,
                       e->anim->still);
        if (!folder && !gif)
            return say(why, cap, "an animation goes to a .gif file or to a folder of frames: "
                       "'%s' must end in .gif, or in / for a folder", req->path);
        return NULL;
    }
    if (e->anim && (folder || gif)) /* a still figure that is an animation as well */
        return NULL;
    if (folder || gif)
        return say(why, cap, "%s is a still figure: export it as .png, .svg or .pdf; .gif files "
                   "and folders of frames are for the animations %s", e->name, anims);
    if (fmt == FIG_FORMAT_COUNT)
        return say(why, cap, "the file name decides the format: '%s' must end in .png, .svg or "
                   ".pdf (.gif or a folder DIR/ for the animations %s)", req->path, anims);
    if (req->fps > 0 || req->frames > 0)
        return say(why, cap, "--fps and --frames go with the animations %s (exported as .gif "
                   "or DIR/), and %s is a still figure", anims, e->name);
    return NULL;
}

/* Whether fontconfig knows the first family of a comma-separated list. */
static bool fonts_installed(const char *list)
{
    char first[128];
    list += strspn(list, " ");
    size_t n = strcspn(list, ",");
    while (n > 0 && list[n - 1] == ' ')
        n--;
    if (n == 0 || n >= sizeof first)
        return false;
    snprintf(first, sizeof first, "%.*s", (int)n, list);
    return fig_font_installed(first);
}

/* The figure itself against the configuration (NULL: it can be drawn). */
static const char *check_figure(const fig_request *req, const tf_config *cfg, const fig_entry *e,
                                char *why, size_t cap)
{
    if (req->has_vmin && req->has_vmax && !(req->vmin < req->vmax))
        return say(why, cap, "--vmin (%g) must be below --vmax (%g)", req->vmin, req->vmax);
    if (req->font && req->serif)
        return say(why, cap, "--font and --serif both choose the font; use one");
    if (req->font && !fonts_installed(req->font))
        return say(why, cap, "no installed font family is called '%s' (fc-list : family lists "
                   "them)", req->font);
    if (req->colormap && colormap_parse(req->colormap) == CMAP_COUNT)
        return say(why, cap, "--colormap must be viridis, cividis, rdbu, puor or gray (got "
                   "'%s')", req->colormap);
    if (!e->check)
        return NULL;
    /* the early check runs before --vectors is read: a named file stands for its vectors here
     * (reading it reports its own errors) */
    static const tf_vectors pending = {.n = 2, .dim = 2};
    tf_config c = *cfg;
    c.vectors = req->vectors ? req->vectors : req->vectors_named ? &pending : NULL;
    const char *bad = e->check(&c);
    return bad ? say(why, cap, "%s", bad) : NULL;
}

const char *figures_check(const fig_request *req, const tf_config *cfg)
{
    static char why[600];
    const fig_entry *e = figure_find(req->name ? req->name : "pe");
    char stills[300], anims[120];
    if (!e)
        return say(why, sizeof why, "--figure must be one of %s, or of the animations %s (got "
                   "'%s')", names_list(STILLS, stills, sizeof stills),
                   names_list(ANIMATIONS, anims, sizeof anims), req->name);
    const char *bad = check_path(req, e, why, sizeof why);
    if (!bad)
        bad = check_figure(req, cfg, e, why, sizeof why);
    return bad ? bad : check_page(req, e, why, sizeof why);
}

const char *figures_check_show(const fig_request *req, const tf_config *cfg)
{
    static char why[600];
    const fig_entry *e = figure_find(req->name);
    char stills[300];
    if (!e) /* --show takes the still figures alone */
        return say(why, sizeof why, "--show must be one of %s (got '%s')",
                   names_list(STILLS, stills, sizeof stills), req->name);
    if (!e->draw)
        return say(why, sizeof why, "--show draws still figures and %s is an animation; export "
                   "it with --export %s.gif, or show --show %s", e->name, e->name,
                   e->anim->still);
    return check_figure(req, cfg, e, why, sizeof why);
}

/* ---------------------------------------------------------------------------------------------
 * The parameters stored in the file: enough to draw it again */

/* option, then s (n bytes) quoted for a shell */
static void put_quoted(FILE *m, const char *option, const char *s, size_t n)
{
    fputs(option, m);
    fputc('\'', m);
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\'')
            fputs("'\\''", m);
        else
            fputc(s[i], m);
    }
    fputc('\'', m);
}

char *figure_params(const fig_request *req, const tf_analysis *a, const fig_entry *e,
                    const char *format, double w, double h, double dpi, long frames, double fps)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m)
        return NULL;
    const tf_config *c = &a->cfg;
    double font = req->font_size > 0 ? req->font_size : FIG_DEFAULT_FONT_PT;
    bool order = e->needs & FIG_NEEDS_ORDER;
    fprintf(m, "tfviz %s --export %s --figure %s", TF_VERSION, format, e->name);
    if (order && req->order) { /* the options of the order model it was trained with */
        const order_train_cfg *oc = order_trainer_cfg(req->order);
        const order_task *t = order_trainer_task(req->order);
        fputs(" --scheme ", m);
        for (size_t k = 0; k < order_trainer_count(req->order); k++)
            fprintf(m, "%s%s", k ? "," : "", scheme_name(order_trainer_scheme(req->order, k)));
        fprintf(m, " --seed %llu -d %d --heads %d --epochs %d", (unsigned long long)oc->model.seed,
                oc->model.d_model, oc->model.heads, oc->epochs);
        if (req->order_task)
            put_quoted(m, " --order-task ", req->order_task, strlen(req->order_task));
        else /* the generated task: the article's two pairs are held out besides */
            fprintf(m, " --order-pairs %u,%u", t->n_split[ORDER_TRAIN] / 2,
                    t->n_split[ORDER_TEST] / 2 - 2);
    } else {
        fprintf(m, " -d %d -n %ld", c->d_model, c->n_positions);
        /* rope-decay without --base draws the two bases; with it, that one alone */
        if (req->base_given || strcmp(e->name, "rope-decay") != 0)
            fprintf(m, " --base %.17g", c->base);
        fprintf(m, " --index-base %d --seed %llu --vocab-size %u --tokenizer %s --rope-style %s "
                "--offset %ld%s%s", c->index_base, (unsigned long long)c->seed, c->vocab_size,
                tokenizer_name(c->tokenizer), rope_style_name(c->rope), c->offset,
                c->scale_embedding ? " --scale-embedding" : "", c->no_hmm ? " --no-hmm" : "");
        if (c->compare)
            put_quoted(m, " --compare ", c->compare, c->compare_len);
    }
    if (strcmp(format, "FIGURE.svg") != 0 && strcmp(format, "FIGURE.pdf") != 0)
        fprintf(m, " --dpi %g", dpi);
    if (frames > 0)
        fprintf(m, " --frames %ld --fps %g", frames, fps);
    fprintf(m, " --width %gpt --height %gpt", w, h);
    if (req->colormap) /* checked (check_figure) */
        fprintf(m, " --colormap %s", colormap_name(colormap_parse(req->colormap)));
    fprintf(m, " --font-size %g --lang %s", font, req->zh ? "zh" : "en");
    if (req->font)
        put_quoted(m, " --font ", req->font, strlen(req->font));
    else if (req->serif)
        fputs(" --serif", m);
    if (req->panel_labels)
        fputs(" --panel-labels", m);
    if (req->pe_layout_set)
        fprintf(m, " --pe-layout %s", req->pe_split ? "split" : "interleaved");
    if (req->has_vmin)
        fprintf(m, " --vmin %.17g", req->vmin);
    if (req->has_vmax)
        fprintf(m, " --vmax %.17g", req->vmax);
    if (req->no_title)
        fputs(" --no-title", m);
    else if (req->title)
        put_quoted(m, " --title ", req->title, strlen(req->title));
    if (!order)
        put_quoted(m, " -- ", a->text, a->text_len);
    if (fclose(m) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* ---------------------------------------------------------------------------------------------
 * Drawing */

fig_ctx figure_ctx(const fig_request *req, tf_analysis *a)
{
    return (fig_ctx){.a = a, .order = req->order, .zh = req->zh, .req = req,
                     .cmap = req->colormap ? colormap_parse(req->colormap) : CMAP_COUNT,
                     /* no subtitles: the panels of a multi-panel figure are named by letters */
                     .panel_labels = req->panel_labels || req->no_title,
                     .pe_split = req->pe_split, .pe_layout_set = req->pe_layout_set};
}

tf_status figure_page(const fig_request *req, tf_analysis *a, const fig_entry *e,
                      const fig_spec *spec, const fig_meta *meta, const fig_frame *fr,
                      bool *cramped, char *why, size_t why_len)
{
    *cramped = false;
    if (spec->need_out)
        *spec->need_out = (fig_need){1, 1, INFINITY};
    double font = spec->font_size;
    const char *title = req->no_title ? NULL : req->title ? req->title
                                                          : txt_lang(e->title, req->zh);
    fig_ctx c = figure_ctx(req, a);
    c.memo = fr->memo;
    /* the request's fonts on every page: a still figure, a frame, a picture in the terminal
     * (NULL: the default sans) */
    fig_spec s = *spec;
    s.font = req->font ? req->font : req->serif ? FIG_SERIF_FAMILIES : NULL;
    /* the explorer's schemes view draws its own choice of schemes: the same analysis (read
     * only) under other position parameters */
    tf_analysis with; /* its parts are a's */
    if (req->positions) {
        with = *a;
        with.cfg.positions = req->positions;
        c.a = &with;
    }
    tf_status st = fig_begin(&s, meta, &c.f);
    if (st != TF_OK)
        return st;
    double margin = 0.5 * font;
    c.area = (fig_rect){margin, margin, s.width - 2 * margin, s.height - 2 * margin};
    /* the figure's own title is markup (X<sub>emb</sub>), a user's --title plain text */
    double th = fig_title(c.f, c.area, title, req->title != NULL);
    if (th > 0) {
        c.area.y += th + 0.4 * font;
        c.area.h -= th + 0.4 * font;
    }
    st = fr->n > 0 ? e->anim->frame(&c, fr->state, fr->k, fr->n) : e->draw(&c);
    if (st == TF_OK && s.need_out) /* (its factors count on a cramped page only) */
        *s.need_out = fig_cramped_need(c.f);
    unsigned missing = fig_missing_char(c.f);
    if (st == TF_OK && missing && !s.measure) {
        /* pango would draw empty boxes in its place */
        snprintf(c.msg, sizeof c.msg, "no installed font has the character U+%04X; install a CJK "
                 "font (Debian: fonts-noto-cjk) or draw the figure with --lang en", missing);
        st = TF_ERR_UNAVAILABLE;
    } else if (st == TF_OK && fig_cramped(c.f)) {
        /* a measure page is laid out only: cramped or not, it is no failure */
        *cramped = true;
        if (!s.measure)
            st = TF_ERR_RANGE;
    }
    if (st == TF_OK) {
        st = fig_end(c.f);
    } else {
        fig_free(c.f);
        if (c.msg[0])
            snprintf(why, why_len, "%s", c.msg);
    }
    return st;
}

/* One still figure's export under way: its request (at the size tried), its page's width in points,
 * and the numbers its pages share: every page of one export draws the same request's numbers, in
 * one language or the other, at one size or another. */
typedef struct {
    fig_request req;
    tf_analysis *a;
    const fig_entry *e;
    double w;
    fig_memo *memo;
} still_job;

/* One page of j at height h in j's language (other: the other one): drawn to fp in the format of
 * the request's file, or with fp NULL only laid out (a measure page: nothing written). *cramped
 * says whether some plot had no room left after its labels; a page that is cramped (and not a
 * measure page) is not written. plan_in (NULL: none) makes its ticks at least as sparse and leaves
 * out the labels it leaves out; plan_out (NULL: not wanted) receives the page's own choices, need
 * (NULL: not wanted) what a cramped page asks for. */
static tf_status still_page(const still_job *j, bool other, double h, FILE *fp,
                            const fig_ticks *plan_in, fig_ticks *plan_out, fig_need *need,
                            bool *cramped, char *why, size_t why_len)
{
    fig_request r = j->req;
    r.zh ^= other;
    fig_format fmt = fig_format_from_path(r.path);
    bool measure = !fp;
    double dpi = r.dpi > 0 ? r.dpi : FIG_DEFAULT_DPI;
    double font = r.font_size > 0 ? r.font_size : FIG_DEFAULT_FONT_PT;
    char format[16];
    snprintf(format, sizeof format, "FIGURE.%s", fig_format_name(fmt));
    char *params = measure ? NULL : figure_params(&r, j->a, j->e, format, j->w, h, dpi, 0, 0);
    char own[256]; /* the figure's own title, as plain text for the metadata */
    markup_plain(own, sizeof own, txt_lang(j->e->title, r.zh));
    fig_spec spec = {.format = fmt, .width = j->w, .height = h, .dpi = dpi, .font_size = font,
                     .latin_first = !r.zh, .fp = fp, .measure = measure,
                     .boxes = measure ? NULL : r.boxes, .ticks_in = plan_in,
                     .ticks_out = plan_out, .need_out = need};
    fig_meta meta = {.title = r.no_title || !r.title ? own : r.title,
                     .software = "tfviz " TF_VERSION, .params = params, .date = FIG_FIXED_DATE};
    tf_status st = figure_page(&r, j->a, j->e, &spec, &meta, &(fig_frame){.memo = j->memo},
                               cramped, why, why_len);
    free(params);
    return st;
}

/* Whether plans a and b hold the same choices. */
static bool same_plan(const fig_ticks *a, const fig_ticks *b)
{
    if (a->n != b->n)
        return false;
    for (int i = 0; i < a->n; i++) {
        const fig_plan_entry *e = fig_plan_find(b, &a->e[i]);
        if (!e || e->coarse != a->e[i].coarse)
            return false;
    }
    return true;
}

/* Pages of j at height h in its language and the other laid out (measure pages) with plan
 * (NULL: none): whether each is cramped, what it asks for, and its own choices of ticks. */
static tf_status measure_both(const still_job *j, double h, const fig_ticks *plan,
                              fig_ticks own[2], bool cramped[2], fig_need need[2])
{
    for (int l = 0; l < 2; l++) {
        own[l].n = 0;
        tf_status st = still_page(j, l, h, NULL, plan, &own[l], &need[l], &cramped[l], NULL, 0);
        if (st != TF_OK)
            return st;
    }
    return TF_OK;
}

/* The plan the two pages laid out at height h take from their own choices own[]: axis by axis the
 * sparser ticks of the two, and only the labels both have room for. A plan that changes the
 * pages is laid out again in both languages and taken from them (a wider axis is known by its
 * new range); false when it leaves the first page (j's language) no room, need then what it asks.
 * *known: the first page was laid out with the plan returned (it did not change again), so need
 * and the answer are that page's. */
static bool agree_plan(const still_job *j, double h, fig_ticks own[2], fig_ticks *plan,
                       fig_need *need, bool *known)
{
    *plan = own[0];
    *known = false;
    fig_ticks_merge(plan, &own[1]);
    if (same_plan(plan, &own[0]) && same_plan(plan, &own[1]))
        return true;
    bool crowded[2];
    fig_need needs[2];
    *known = measure_both(j, h, plan, own, crowded, needs) == TF_OK;
    if (!*known)
        crowded[0] = true, needs[0] = (fig_need){1, 1, INFINITY};
    fig_ticks_merge(&own[0], &own[1]);
    *known = *known && same_plan(&own[0], plan);
    *plan = own[0];
    *need = needs[0];
    return !crowded[0];
}

/* The measuring passes a layout takes at most: as matplotlib's constrained layout does, the
 * second corrects what the first's sizes changed (ticks, a panel's letters) */
#define LAYOUT_ROUNDS 6

/* The height a cramped page of height h asks for by its measurements, at most a text block:
 * grown by what its plots lack in height (a tenth at least: what else is beside a plot, a colour
 * bar's ticks, wants room with it), or by a fifth when the figure said it had no room without
 * saying how much; at least stacked, the figure's own proportions, where panels side by side
 * stack (split_panels) and a square panel takes its width from the height, when its plots lack
 * width or a correction did not help (again). */
static double grown(double h, fig_need n, double stacked, bool again)
{
    double to = n.h > 1 ? h * fmax(n.h, 1.1) : n.w > 1 ? fmax(h * n.w, stacked) : h * 1.2;
    return fmin(again ? fmax(to, stacked) : to, TEXT_HEIGHT_PT);
}

/* The height at which the plots' room (fig_need.room) reaches ROOM_SPARE, on the line through
 * its values lo_room < 1 at lo and hi_room >= 1 at hi: a plot's height grows with the page's,
 * so this is where the least of them fits with a quarter to spare (a colour bar beside it
 * keeps room for its ticks); hi when it is not between. */
#define ROOM_SPARE 1.25
static double secant_height(double lo, double lo_room, double hi, double hi_room)
{
    if (!(hi_room > lo_room) || !isfinite(hi_room) || !(lo_room < 1))
        return hi;
    double at = lo + (ROOM_SPARE - lo_room) * (hi - lo) / (hi_room - lo_room);
    return at > lo && at < hi ? ceil(fmax(at, 1.1 * lo)) : hi; /* grown's tenth at least */
}

/* j laid out from height *h up (at most a text block; at *h alone when the request sets it): the
 * height follows the width, taller when the labels need it (a large --font-size), as the
 * measurements of the Chinese and the English page both ask for (when the other language needs a
 * much taller page or none, this one's own height and ticks; *both_fit says which), and the plan
 * both pages take (agree_plan, *plan for the page drawn). Either language's export works it out
 * alike, so the two files agree; a page drawn with the plan keeps its ticks at least that sparse,
 * and its layout only gains room by it. TF_ERR_RANGE when the labels do not fit (*cramped), *need
 * what the page asks for then. */
static tf_status shared_layout(const still_job *j, double *h, fig_ticks *plan, bool *cramped,
                               bool *both_fit, fig_need *need, char *why, size_t why_len)
{
    *both_fit = false;
    memset(plan, 0, sizeof *plan);
    fig_ticks own[2];
    double hh = *h, mine = 0, first = 0;
    double below = 0, below_room = 0, above = 0; /* a cramped height, and a fitting one above */
    int secants = 0;
    for (int round = 0; round < LAYOUT_ROUNDS; round++) {
        bool crowded[2];
        fig_need needs[2];
        if (measure_both(j, hh, NULL, own, crowded, needs) != TF_OK)
            break;
        bool fit = !crowded[0] && !crowded[1];
        double room = fmin(needs[0].room, needs[1].room);
        if (fit && below > 0 && secants < 2) {
            /* reached by a step that may have overshot: the height where the plots' room
             * meets their need, between the two measured (they grow with the page); twice */
            double at = secant_height(below, below_room, hh, room);
            if (at < 0.97 * hh) {
                above = hh;
                hh = at;
                secants++;
                continue;
            }
        }
        if (!fit && above > 0) { /* not quite: back to the height that held them */
            hh = above;
            above = below = 0;
            secants = 2;
            continue;
        }
        if (fit || j->req.height > 0) {
            bool known, agreed = agree_plan(j, hh, own, plan, &needs[0], &known);
            if (agreed || j->req.height > 0) {
                *both_fit = fit;
                if (known) { /* laid out so */
                    *cramped = !agreed, *need = needs[0], *h = hh;
                    return agreed ? TF_OK : TF_ERR_RANGE;
                }
                mine = hh; /* laid out again with the plan, below */
                break;
            }
            memset(plan, 0, sizeof *plan);
            crowded[0] = true; /* the plan crowds this page: a taller one */
        }
        below = hh, below_room = room;
        if (!crowded[0] && !(mine > 0))
            mine = hh;
        if ((!crowded[0] || !crowded[1]) && !(first > 0))
            first = hh; /* the same in both languages' exports */
        double next[2];
        for (int l = 0; l < 2; l++)
            next[l] = crowded[l] ? grown(hh, needs[l], j->w * j->e->aspect, round > 0) : hh;
        if (first > 0 && next[1] > 1.5 * first)
            next[1] = hh; /* the other language needs a much taller page: not this one */
        double to = fmax(next[0], next[1]);
        if (!(to > hh))
            break; /* at the cap, or only the other language asks, for a much taller page */
        hh = to;
    }
    *h = mine > 0 ? mine : *h; /* this language alone, its own ticks, or the plan's */
    tf_status st = still_page(j, false, *h, NULL, plan, NULL, need, cramped, why, why_len);
    return st == TF_OK && *cramped ? TF_ERR_RANGE : st;
}

double figure_width_grown(double w, fig_need need, bool height_set)
{
    double by = fmin(fmax(height_set ? need.w : fmax(need.w, need.h), 1.25), 2.0);
    w = ceil(w * by / (FIG_PT_PER_IN / 100) - 1e-9) * (FIG_PT_PER_IN / 100);
    return w > MAX_SIDE_PT ? 0 : w;
}

/* The width to name when j does not fit (need: what its page there asked for), computed from the
 * measurements: w grown by what the page asks for (figure_width_grown, the height following the
 * width, at most a text block), and so on while the page laid out at that width asks for more, up
 * to 40 in (at most 17 pages from 1 in). The width where both languages fit, as draw_still prefers
 * them at one size; else where this one does; 0 when none fits. */
static double width_that_fits(const still_job *j, fig_need need)
{
    still_job k = *j;
    k.req.height = 0;
    fig_ticks plan;
    bool both = false, cramped;
    double w = j->w, mine = 0;
    while (!both && (k.req.width = w = figure_width_grown(w, need, false)) > 0) {
        double h;
        figure_page_size(&k.req, k.e, &k.w, &h);
        tf_status st = shared_layout(&k, &h, &plan, &cramped, &both, &need, NULL, 0);
        if (st == TF_OK && !(mine > 0))
            mine = w;
        else if (st != TF_OK && st != TF_ERR_RANGE)
            break;
    }
    return both ? w : mine;
}

size_t figure_smaller_fonts(double font, double sizes[4])
{
    size_t n = 0;
    for (double f = font * 0.8; f > 7 && n < 2; f *= 0.8)
        sizes[n++] = round(f * 2) / 2;
    if (font > 7 && (n == 0 || sizes[n - 1] > 7))
        sizes[n++] = 7;
    if (font > 6)
        sizes[n++] = 6;
    return n;
}

/* Why j at its font size does not fit at height h (need: what that page asked for), naming a
 * size that does: with a set height a taller page when the plots lack height only, else a width. */
static void refusal(const still_job *j, double h, fig_need need, char *why, size_t why_len)
{
    double font = j->req.font_size, w = j->w;
    double fits = j->req.height > 0 && need.w <= 1 && need.h > 1 ? h * need.h : 0;
    if (fits > 0 && fits <= MAX_SIDE_PT) {
        fits = ceil(fits / FIG_PT_PER_IN * 100) / 100;
        snprintf(why, why_len, "the labels at %g pt do not fit on %.2f x %.2f in; they need a "
                 "page at least %.2f in tall at this width (--height %.2fin), or a smaller "
                 "--font-size", font, w / FIG_PT_PER_IN, h / FIG_PT_PER_IN, fits, fits);
    } else if ((fits = width_that_fits(j, need)) > 0) {
        /* (named with the height following the width) */
        snprintf(why, why_len, "the labels at %g pt do not fit on a page %.2f in wide; they "
                 "need about %.2f in (--width %.2fin%s), or a smaller --font-size", font,
                 w / FIG_PT_PER_IN, fits / FIG_PT_PER_IN, fits / FIG_PT_PER_IN,
                 j->req.height > 0 ? " without --height" : "");
    } else {
        snprintf(why, why_len, "the labels at %g pt do not fit on a page %.2f in wide at any "
                 "size up to 40 in; lower --font-size", font, w / FIG_PT_PER_IN);
    }
}

/* The still figure e to fp, in its file's format: its page, taller when the labels need it (at most
 * a text block, 9 in, unless the request sets the height), its labels smaller when that is not
 * enough (down to 6 pt), the same size in both languages where one fits both, else refused naming a
 * size that fits; a note says so when the labels take a smaller size than the one asked for.
 * The size is chosen on laid-out pages; the page is drawn once. */
static tf_status draw_still(const fig_request *req, tf_analysis *a, const fig_entry *e, FILE *fp,
                            char *why, size_t why_len)
{
    fig_memo memo = {0};
    still_job j = {.req = *req, .a = a, .e = e, .memo = &memo};
    double h0;
    figure_page_size(req, e, &j.w, &h0);
    fig_ticks plans[2]; /* the size tried, the size chosen */
    double asked = req->font_size > 0 ? req->font_size : FIG_DEFAULT_FONT_PT, sizes[5] = {asked};
    double hs[5];      /* the page's height at each size tried */
    fig_need needs[5]; /* what it asks for there */
    size_t n = 1 + figure_smaller_fonts(asked, sizes + 1), pick = n; /* pick: the size drawn */
    tf_status st = TF_ERR_RANGE;
    bool cramped, both = false;
    for (size_t k = 0; k < n && !both; k++) {
        j.req.font_size = sizes[k];
        hs[k] = h0;
        st = shared_layout(&j, &hs[k], &plans[0], &cramped, &both, &needs[k], why, why_len);
        if (st != TF_OK && st != TF_ERR_RANGE)
            break;
        if (st == TF_OK && (both || pick == n)) /* both languages at one size, else this alone */
            pick = k, plans[1] = plans[0];
    }
    if (pick < n) {
        j.req.font_size = sizes[pick];
        st = still_page(&j, false, hs[pick], fp, &plans[1], NULL, NULL, &cramped, why, why_len);
    } else if (st == TF_ERR_RANGE) {
        j.req.font_size = asked;
        refusal(&j, hs[0], needs[0], why, why_len);
    }
    if (st == TF_OK && sizes[pick] != asked)
        figure_say_smaller(e->name, false, sizes[pick], asked, j.w, req->height);
    fig_memo_free(&memo);
    return st;
}

int figures_export(const fig_request *req, tf_analysis *a)
{
    const char *bad = figures_check(req, &a->cfg);
    if (bad) {
        err_say("%s.", bad);
        return 2;
    }
    const fig_entry *e = figure_find(req->name ? req->name : "pe"); /* figures_check found it */
    char why[200] = "";
    tf_status st = TF_ERR_RANGE;
    if ((e->needs & FIG_NEEDS_ORDER) && !req->order) /* the caller trains it (figures_need_order) */
        snprintf(why, sizeof why, "no trained order model was given");
    else if ((st = analysis_need(a, e->needs & ANALYSIS_ALL, NULL)) == TF_OK) {
        if (figure_animating(req, e))
            return figure_animate(req, a, e);
        outfile out;
        if (outfile_open(&out, req->path, "for --export"))
            return 1;
        st = draw_still(req, a, e, out.fp, why, sizeof why);
        if (outfile_close(&out, st))
            return 1;
    }
    if (st != TF_OK) {
        err_say("cannot draw the %s figure: %s.", e->name, why[0] ? why : tf_status_str(st));
        return 2;
    }
    return 0;
}

void figure_say_smaller(const char *name, bool frame, double font, double asked, double w,
                        double h)
{
    char page[96];
    if (h > 0)
        snprintf(page, sizeof page, "a %.2f x %.2f in %s", w / FIG_PT_PER_IN, h / FIG_PT_PER_IN,
                 frame ? "frame" : "page");
    else
        snprintf(page, sizeof page, "a page %.2f in wide and at most %g in tall (--height "
                 "allows a taller one)", w / FIG_PT_PER_IN, TEXT_HEIGHT_PT / FIG_PT_PER_IN);
    err_say("note: the labels of the %s %s are %g pt: at %g pt they do not fit %s.", name,
            frame ? "animation" : "figure", font, asked, page);
}

/* ---------------------------------------------------------------------------------------------
 * Pixels for the terminal */

tf_status figures_raster(const fig_request *req, tf_analysis *a, int width, int height,
                         int cell_h, fig_raster *out, char *why, size_t why_len)
{
    *out = (fig_raster){.width = width, .height = height};
    why[0] = '\0';
    const fig_entry *e = figure_find(req->name ? req->name : "pe");
    if (!e || !e->draw) {
        snprintf(why, why_len, "%s is not a still figure", req->name ? req->name : "pe");
        return TF_ERR_RANGE;
    }
    if (check_figure(req, &a->cfg, e, why, why_len))
        return TF_ERR_RANGE;
    if ((e->needs & FIG_NEEDS_ORDER) && !req->order) {
        snprintf(why, why_len, "the %s figure needs a trained order model", e->name);
        return TF_ERR_RANGE;
    }
    tf_status st = analysis_need(a, e->needs & ANALYSIS_ALL, NULL);
    if (st != TF_OK) {
        snprintf(why, why_len, "%s", tf_status_str(st));
        return st;
    }
    /* 1. the page at the pixels' own proportions, its labels as tall as the terminal's text */
    double font = req->font_size > 0 ? req->font_size : FIG_DEFAULT_FONT_PT;
    double px_per_pt = TEXT_SHARE_OF_CELL * (cell_h > 0 ? cell_h : 20) / font;
    double w = width / px_per_pt, h = height / px_per_pt;
    bool cramped;
    fig_spec spec = {.format = FIG_PNG, .width = w, .height = h, .font_size = font,
                     .latin_first = !req->zh, .raster = out}; /* no metadata: no file */
    st = figure_page(req, a, e, &spec, &(fig_meta){0}, &(fig_frame){0}, &cramped, why, why_len);
    if (!cramped)
        return st;
    /* 2. too cramped at those proportions: the figure's own, centred on white */
    spec.width = fmin(w, h / e->aspect);
    spec.height = spec.width * e->aspect;
    st = figure_page(req, a, e, &spec, &(fig_meta){0}, &(fig_frame){0}, &cramped, why, why_len);
    if (cramped)
        snprintf(why, why_len, "the %s figure's labels do not fit in %d x %d pixels", e->name,
                 width, height);
    return st;
}
