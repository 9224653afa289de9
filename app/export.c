/* export.c — `--export FILE`: pick the figure, size the page, draw it with render/figure from
 * the analysis, and write it atomically (a temporary file beside the target, then rename). */
#include "export.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/outfile.h"
#include "export_figs.h"
#include "figure.h"
#include "tf_config.h"

#define PT_PER_IN 72.0
#define MIN_SIDE_PT (1.0 * PT_PER_IN)   /* 1 in */
#define MAX_SIDE_PT (40.0 * PT_PER_IN)  /* 40 in: a poster */
#define MAX_PNG_PIXELS 45e6             /* 180 MB of ARGB32: memory stays near 200 MB */
#define FIXED_DATE "2000-01-01T00:00:00Z"

static const fig_entry *find(const char *name)
{
    for (int i = 0; i < export_figs_count; i++)
        if (strcmp(export_figs[i].name, name) == 0)
            return &export_figs[i];
    return NULL;
}

const char *export_list(void)
{
    return "pe, rope, rope-decay, freq, dot, input, order, embedding, embedding-map";
}

double export_parse_length(const char *s)
{
    if (strcmp(s, "one-column") == 0)
        return EXPORT_ONE_COLUMN_IN * PT_PER_IN;
    if (strcmp(s, "two-column") == 0)
        return EXPORT_TWO_COLUMN_IN * PT_PER_IN;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || errno == ERANGE || !isfinite(v) || !(v > 0))
        return -1;
    double unit;
    if (*end == '\0' || strcmp(end, "in") == 0)
        unit = PT_PER_IN;
    else if (strcmp(end, "cm") == 0)
        unit = PT_PER_IN / 2.54;
    else if (strcmp(end, "mm") == 0)
        unit = PT_PER_IN / 25.4;
    else if (strcmp(end, "pt") == 0)
        unit = 1.0;
    else
        return -1;
    return v * unit;
}

/* The page size in points: the options, else one column wide at the figure's proportions. */
static void page_size(const tf_cli *cli, const fig_entry *e, double *w, double *h)
{
    *w = cli->fig_width > 0 ? cli->fig_width : EXPORT_ONE_COLUMN_IN * PT_PER_IN;
    /* the embedding figure adds the map of words below its rows when vectors are given */
    double aspect = strcmp(e->name, "embedding") == 0 && (cli->vectors_path || cli->cfg.vectors)
                        ? 1.0
                        : e->aspect;
    *h = cli->fig_height > 0 ? cli->fig_height : round(*w * aspect * 10) / 10;
}

const char *export_check(const tf_cli *cli, const char *figure, const char *path)
{
    static char why[240];
    const fig_entry *e = find(figure ? figure : "pe");
    if (!e) {
        snprintf(why, sizeof why, "--figure must be one of %s (got '%s')", export_list(),
                 figure);
        return why;
    }
    if (!path || !*path)
        return "--export needs a file name ending in .png, .svg or .pdf";
    if (fig_format_from_path(path) == FIG_FORMAT_COUNT) {
        snprintf(why, sizeof why, "the file name decides the format: '%s' must end in .png, "
                 ".svg or .pdf", path);
        return why;
    }
    if (cli->colormap && colormap_parse(cli->colormap) == CMAP_COUNT) {
        snprintf(why, sizeof why, "--colormap must be viridis, cividis, rdbu, puor or gray "
                 "(got '%s')", cli->colormap);
        return why;
    }
    double w, h;
    page_size(cli, e, &w, &h);
    if (w < MIN_SIDE_PT || w > MAX_SIDE_PT || h < MIN_SIDE_PT || h > MAX_SIDE_PT) {
        snprintf(why, sizeof why, "the page would be %.2f x %.2f in%s, and each side must be "
                 "from 1 in to 40 in (2.54 cm to 101.6 cm); set --width and --height", w / PT_PER_IN,
                 h / PT_PER_IN, cli->fig_height > 0 ? "" : " (the height follows the width)");
        return why;
    }
    double dpi = cli->dpi > 0 ? cli->dpi : EXPORT_DEFAULT_DPI;
    if (fig_format_from_path(path) == FIG_PNG &&
        (w / PT_PER_IN * dpi) * (h / PT_PER_IN * dpi) > MAX_PNG_PIXELS)
        return "the PNG would have more than 45 million pixels (180 MB in memory); lower --dpi "
               "or the size, or export .pdf or .svg, which have no pixels";
    if (!e->check)
        return NULL;
    /* the early check runs before --vectors is read: a named file stands for its vectors here
     * (reading it reports its own errors) */
    static const tf_vectors pending = {.n = 2, .dim = 2};
    tf_config cfg = cli->cfg;
    if (!cfg.vectors && cli->vectors_path)
        cfg.vectors = &pending;
    return e->check(&cfg);
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

static char *params_string(const tf_cli *cli, const tf_analysis *a, const fig_entry *e,
                           fig_format fmt, double w, double h, double dpi, double font, cmap_id cm)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m)
        return NULL;
    const tf_config *c = &a->cfg;
    fprintf(m, "tfviz %s --export FIGURE.%s --figure %s -d %d -n %ld --base %.17g "
               "--index-base %d --seed %llu --vocab-size %u --tokenizer %s --rope-style %s "
               "--offset %ld%s", TF_VERSION, fig_format_name(fmt), e->name, c->d_model,
            c->n_positions, c->base, c->index_base, (unsigned long long)c->seed, c->vocab_size,
            tokenizer_name(c->tokenizer), rope_style_name(c->rope), c->offset,
            c->scale_embedding ? " --scale-embedding" : "");
    if (cli->cfg.compare) {
        fputs(" --compare ", m);
        put_quoted(m, cli->cfg.compare, cli->cfg.compare_len);
    }
    if (fmt == FIG_PNG)
        fprintf(m, " --dpi %g", dpi);
    fprintf(m, " --width %gpt --height %gpt", w, h);
    if (cm != CMAP_COUNT)
        fprintf(m, " --colormap %s", colormap_name(cm));
    fprintf(m, " --font-size %g --lang %s", font, cli->lang ? cli->lang : "zh");
    if (cli->no_title) {
        fputs(" --no-title", m);
    } else if (cli->title) {
        fputs(" --title ", m);
        put_quoted(m, cli->title, strlen(cli->title));
    }
    fputs(" -- ", m);
    put_quoted(m, a->text, a->text_len);
    if (fclose(m) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* ---------------------------------------------------------------------------------------------
 * Drawing and writing */

static tf_status draw(const tf_cli *cli, tf_analysis *a, const fig_entry *e, fig_format fmt,
                      bool plain_images, FILE *fp, char *why, size_t why_len)
{
    double w, h;
    page_size(cli, e, &w, &h);
    double dpi = cli->dpi > 0 ? cli->dpi : EXPORT_DEFAULT_DPI;
    double font = cli->font_size > 0 ? cli->font_size : EXPORT_DEFAULT_FONT_PT;
    bool zh = !cli->lang || strcmp(cli->lang, "en") != 0;
    cmap_id cm = cli->colormap ? colormap_parse(cli->colormap) : CMAP_COUNT;
    const char *title = cli->no_title ? NULL : cli->title ? cli->title
                                             : zh ? e->title_zh : e->title_en;
    char *params = params_string(cli, a, e, fmt, w, h, dpi, font, cm);
    char software[64];
    snprintf(software, sizeof software, "tfviz %s", TF_VERSION);
    fig_spec spec = {.format = fmt, .width = w, .height = h, .dpi = dpi, .font_size = font,
                     .latin_first = !zh, .fp = fp, .plain_images = plain_images};
    fig_meta meta = {.title = title ? title : (zh ? e->title_zh : e->title_en),
                     .software = software, .params = params, .date = FIXED_DATE};
    fig_ctx c = {.a = a, .zh = zh, .cmap = cm, .vectors = cli->cfg.vectors};
    tf_status st = fig_begin(&spec, &meta, &c.f);
    if (st != TF_OK) {
        free(params);
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
    if (st == TF_OK && fig_cramped(c.f)) {
        snprintf(c.msg, sizeof c.msg, "the page is too small for the labels; enlarge --width "
                 "and --height or lower --font-size");
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
    return st;
}

int export_figure(const tf_cli *cli, tf_analysis *a, const char *figure, const char *path)
{
    const char *bad = export_check(cli, figure, path);
    if (bad) {
        err_say("%s.", bad);
        return 2;
    }
    const fig_entry *e = find(figure ? figure : "pe");
    if (!e)
        return 2;
    tf_status st = analysis_need(a, e->needs, NULL);
    if (st != TF_OK) {
        err_say("cannot draw the %s figure: %s.", e->name, tf_status_str(st));
        return 2;
    }
    outfile out;
    if (outfile_open(&out, path, "for --export"))
        return 1;
    char why[200] = "";
    fig_format fmt = fig_format_from_path(path);
    st = draw(cli, a, e, fmt, false, out.fp, why, sizeof why);
    if (st == TF_ERR_FORMAT && fmt == FIG_PDF) /* nothing written: cairo's own images, then */
        st = draw(cli, a, e, fmt, true, out.fp, why, sizeof why);
    if (outfile_close(&out, st))
        return 1;
    if (st != TF_OK) {
        err_say("cannot draw the %s figure: %s.", e->name, why[0] ? why : tf_status_str(st));
        return 2;
    }
    return 0;
}
