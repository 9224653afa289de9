/* deck.c — the lesson as slides: --lesson --export deck.pdf writes one 16:9 page per step
 * (13.33 x 7.5 in), --lesson --export deck/ the same slides as numbered 1920 x 1080 PNGs.
 *
 * A slide, top to bottom: the step's title, its point in large type, the step's picture, its
 * "try this" line, and a footer with the command for the slide's numbers (--print) and the
 * step's number as the live lesson shows it ("tfviz lesson 3/12"). The words are the live
 * lesson's (core/lesson_text.c), the picture is drawn by the figure that shows the step (a row
 * of export.c's table, found by name), on a box of the slide at the largest text size from a
 * list at which its labels fit (measured first on a page that draws nothing). The first slide
 * names the command of the live lesson; the last lists the --print commands of every slide.
 *
 * Deterministic: the word vectors of step 5 are trained once here as the lesson's view 8
 * trains them (the built-in corpus, the default settings and seed), the order model of step 7
 * by the caller as view 10 does; the PDF's dates are fixed. */
#include "figures/deck.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "anim.h"
#include "core/err.h"
#include "core/lesson_text.h"
#include "core/outfile.h"
#include "figures/deck_pictures.h"
#include "figures/draw.h"
#include "tf_config.h"
#include "textwidth.h"
#include "tf_limits.h"

#define MARGIN 36.0
#define TITLE_PT 30.0
#define POINT_PT 26.0 /* at least 24: read from the back of a room */
#define TRY_PT 18.0
#define FOOT_PT 12.0
#define TEXT_MAX 1024
#define SENTENCE_COLS 60 /* the widest the sentence is in a command on a slide */

/* ---------------------------------------------------------------------------------------------
 * The steps' pictures */

typedef struct {
    /* the draw function of the figure that shows it (draw.h), or of the deck's own picture
     * (deck_pictures.c); NULL: the last frame of the training (anim_training) */
    tf_status (*draw)(fig_ctx *c);
    tf_status (*beside)(fig_ctx *c); /* a second figure at the right, or NULL */
    double share;                  /* the first figure's share of the width with a second */
    const char *print;             /* the --print topic of its numbers */
    bool schemes;                  /* the topic takes --scheme */
    double font_max;               /* the largest text size tried for the picture */
    bool pe_split;                 /* the PE heatmap's sin columns, then its cos columns */
} deck_step;

static const deck_step deck_steps[LESSON_STEPS + LESSON_EXTRA_STEPS] = {
    {.draw = draw_deck_bytes, .print = "tokens", .font_max = 24},
    {.draw = draw_deck_ids, .print = "tokens", .font_max = 24},
    {.draw = draw_deck_onehot, .print = "vocab", .font_max = 18},
    {.draw = draw_embedding, .print = "embedding", .font_max = 18},
    {.draw = NULL, .print = "training", .font_max = 18},
    {.draw = draw_order, .print = "order", .schemes = true, .font_max = 16},
    {.draw = draw_order_training, .print = "order-training", .schemes = true, .font_max = 18},
    {.draw = draw_pe, .print = "pe", .font_max = 18, .pe_split = true},
    {.draw = draw_freq, .print = "freq", .font_max = 18},
    {.draw = draw_dot, .beside = draw_dot_offset, .share = 0.52, .print = "relative",
     .font_max = 18},
    {.draw = draw_input, .print = "input", .font_max = 18},
    {.draw = draw_rope, .print = "rope", .font_max = 18},
    {.draw = draw_schemes, .print = "schemes", .schemes = true, .font_max = 16},
};

/* The sizes tried for a picture's text, from the step's font_max down. */
static const double picture_pts[] = {24, 20, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8};

/* What the whole deck shares. */
typedef struct {
    const fig_request *req;
    tf_analysis *a;
    int steps;              /* 12, or 13 with --extended */
    fig_format fmt;
    void *training;         /* the training animation's state (step 5), made once */
    char options[256];      /* the lesson's options on a command line (" -d 128 ...") */
    char order_options[256]; /* the same with the order model's -d and --heads (step 7) */
    char schemes[128];      /* --scheme, where it was given (" --scheme none,rope") */
    char sentence[TEXT_MAX]; /* the sentence quoted for a shell */
} deck;

/* Draw step k's picture of d on c (c->f and c->area set): one figure, or two side by side;
 * the training's is its last frame, the map of the words and the cosines of the whole run. */
static tf_status picture(deck *d, fig_ctx *c, int k)
{
    const deck_step *s = &deck_steps[k];
    long n = anim_training.frames;
    if (!s->draw)
        return anim_training.frame(c, d->training, n - 1, n);
    if (!s->beside)
        return s->draw(c);
    fig_rect whole = c->area;
    double gap = 2 * fig_font_size(c->f);
    c->area.w = s->share * whole.w - gap / 2;
    tf_status st = s->draw(c);
    c->area.x = whole.x + s->share * whole.w + gap / 2;
    c->area.w = whole.w - (c->area.x - whole.x);
    if (st == TF_OK)
        st = s->beside(c);
    c->area = whole;
    return st;
}

/* The context step k's picture draws in: the request's, the PE split where the step says. */
static fig_ctx picture_ctx(const deck *d, int k, fig *f, fig_rect box)
{
    fig_ctx c = figure_ctx(d->req, d->a);
    c.f = f;
    c.area = box;
    if (deck_steps[k].pe_split)
        c.pe_split = c.pe_layout_set = true;
    return c;
}

/* The largest size from the step's font_max down whose picture fits box, laid out on a page
 * that draws nothing; the smallest when none does. */
static double picture_size(deck *d, int k, fig_rect box)
{
    size_t n = sizeof picture_pts / sizeof *picture_pts;
    for (size_t i = 0; i < n; i++) {
        if (picture_pts[i] > deck_steps[k].font_max)
            continue;
        fig_spec spec = {.format = d->fmt, .width = DECK_WIDTH_PT, .height = DECK_HEIGHT_PT,
                         .dpi = DECK_DPI, .font_size = picture_pts[i],
                         .latin_first = !d->req->zh, .measure = true};
        fig *f;
        if (fig_begin(&spec, &(fig_meta){0}, &f) != TF_OK)
            break;
        fig_ctx c = picture_ctx(d, k, f, box);
        tf_status st = picture(d, &c, k);
        bool fits = st == TF_OK && !fig_cramped(f);
        fig_free(f);
        if (fits)
            return picture_pts[i];
    }
    return picture_pts[n - 1];
}

/* ---------------------------------------------------------------------------------------------
 * The words of a slide */

/* s, plain text, cut into lines no wider than width at the page's size (at a space, or before
 * any character of a script without spaces), each escaped as markup and joined by newlines
 * into out; at most max_lines, the last one ended by an ellipsis when more was left. Returns
 * the lines written. */
static int wrap_markup(fig *f, const char *s, double width, int max_lines, char *out, size_t cap)
{
    size_t len = strlen(s), i = 0, o = 0;
    int lines = 0;
    out[0] = '\0';
    while (i < len && lines < max_lines) {
        size_t end = i, brk = 0;
        char line[TEXT_MAX];
        while (end < len) { /* one more character while the line stays narrow enough */
            size_t next = end + 1;
            while (next < len && ((unsigned char)s[next] & 0xC0) == 0x80)
                next++;
            if (next - i >= sizeof line)
                break;
            snprintf(line, sizeof line, "%.*s", (int)(next - i), s + i);
            double w, h;
            fig_text_size(f, line, true, &w, &h);
            if (w > width && end > i)
                break;
            if (s[end] == ' ' || (unsigned char)s[end] >= 0x80)
                brk = s[end] == ' ' ? end : (end > i ? end : 0);
            end = next;
        }
        if (end < len && brk > i && s[end] != ' ')
            end = brk; /* at the last space or character start that fits */
        bool last = ++lines == max_lines && end < len;
        snprintf(line, sizeof line, "%.*s%s", (int)(end - i), s + i, last ? "..." : "");
        o += fig_markup_text(out + o, cap - o - 1, line, 10000);
        while (end < len && s[end] == ' ')
            end++;
        i = end;
        if (i < len && lines < max_lines && o + 1 < cap)
            out[o++] = '\n', out[o] = '\0';
    }
    return lines;
}

/* Markup m in a span of colour rgb (hex), into out; bold is semibold, which a face without a
 * bold weight (the CJK fonts) draws as it is: emboldened, dense glyphs such as 量 fill in. */
static const char *coloured(const char *m, const char *rgb, bool bold, char *out, size_t cap)
{
    snprintf(out, cap, "<span foreground=\"#%s\"%s>%s</span>", rgb,
             bold ? " weight=\"semibold\"" : "", m);
    return out;
}

/* Text s at size pt, wrapped into width, drawn with its top-left corner at (x, y) in colour
 * rgb; returns the height it took. */
static double block(fig *f, const char *s, double pt, const char *rgb, bool bold, double x,
                    double y, double width, int max_lines)
{
    char wrapped[4 * TEXT_MAX], m[4 * TEXT_MAX + 80];
    fig_set_font_size(f, pt);
    wrap_markup(f, s, width, max_lines, wrapped, sizeof wrapped);
    coloured(wrapped, rgb, bold, m, sizeof m);
    double w, h;
    fig_text_size(f, m, false, &w, &h);
    fig_text(f, FIG_LABEL, m, false, x, y, 0, 0, false);
    return h;
}

/* The height text s takes at size pt wrapped into width. */
static double block_height(fig *f, const char *s, double pt, double width, int max_lines)
{
    char wrapped[4 * TEXT_MAX];
    fig_set_font_size(f, pt);
    wrap_markup(f, s, width, max_lines, wrapped, sizeof wrapped);
    double w, h;
    fig_text_size(f, wrapped, false, &w, &h);
    return h;
}

/* ---------------------------------------------------------------------------------------------
 * Commands */

/* s for a shell: as it is when it holds only safe characters, else in single quotes. */
static void shell_quote(const char *s, size_t len, char *out, size_t cap)
{
    bool safe = len > 0;
    for (size_t i = 0; i < len; i++)
        safe &= (unsigned char)s[i] >= 0x80 || strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN"
                                                      "OPQRSTUVWXYZ0123456789-_.,:/+=@%", s[i]);
    size_t o = 0;
    if (!safe && o + 1 < cap)
        out[o++] = '\'';
    for (size_t i = 0; i < len && o + 5 < cap; i++) {
        if (s[i] == '\'' && !safe) {
            memcpy(out + o, "'\\''", 4);
            o += 4;
        } else {
            out[o++] = s[i];
        }
    }
    if (!safe && o + 1 < cap)
        out[o++] = '\'';
    out[o] = '\0';
}

/* The lesson's options that differ from the defaults, as a command line writes them, but
 * --scheme, which goes to schemes. With the order model m (step 7) its -d and --heads instead
 * of the lesson's -d: the model takes -d only where it fits it and else its own. */
static void lesson_options(const deck *d, const order_model_cfg *m, char *out, size_t cap,
                           char *schemes, size_t scap)
{
    const tf_config *c = &d->a->cfg;
    size_t o = 0;
    out[0] = '\0';
#define PUT(...) o += (size_t)snprintf(out + o, o < cap ? cap - o : 0, __VA_ARGS__)
    order_model_cfg def;
    order_model_defaults(&def);
    if (m && (m->d_model != def.d_model || c->d_model != TF_DEFAULT_DMODEL))
        PUT(" -d %d", m->d_model);
    else if (!m && c->d_model != TF_DEFAULT_DMODEL)
        PUT(" -d %d", c->d_model);
    if (m && m->heads != def.heads)
        PUT(" --heads %d", m->heads);
    if (c->n_positions != TF_DEFAULT_POSITIONS)
        PUT(" -n %ld", c->n_positions);
    if (c->base != TF_DEFAULT_BASE)
        PUT(" --base %g", c->base);
    if (c->index_base != 0)
        PUT(" --index-base %d", c->index_base);
    if (!d->req->zh) /* the last part: o is not needed after it */
        (void)snprintf(out + o, o < cap ? cap - o : 0, " --lang en");
    const tf_positions *p = c->positions;
    size_t so = 0;
    schemes[0] = '\0';
    for (size_t k = 0; p && k < p->n && so < scap; k++)
        so += (size_t)snprintf(schemes + so, scap - so, "%s%s", k ? "," : " --scheme ",
                               scheme_name(p->list[k]));
#undef PUT
}

/* The footer of step k: the live lesson's command on the first slide, the slide's --print
 * command, and on the last the --print topics of every slide; into out (plain text). */
static void footer(const deck *d, int k, char *out, size_t cap)
{
    bool z = d->req->zh;
    size_t o = 0;
    if (k == 0)
        o += (size_t)snprintf(out, cap, "%stfviz --lesson%s%s %s\n", txt_lang(T_DECK_LIVE, z),
                              d->options, d->schemes, d->sentence);
    bool model = strcmp(deck_steps[k].print, "order-training") == 0;
    o += (size_t)snprintf(out + o, cap - o, "%stfviz --print %s%s%s %s",
                          txt_lang(T_DECK_NUMBERS, z), deck_steps[k].print,
                          model ? d->order_options : d->options,
                          deck_steps[k].schemes ? d->schemes : "", d->sentence);
    if (k < d->steps - 1 || o >= cap)
        return;
    char topics[256];
    size_t t = 0;
    topics[0] = '\0';
    for (int i = 0; i < d->steps && t < sizeof topics; i++) {
        bool again = false; /* each topic once, in the order of the slides */
        for (int j = 0; j < i; j++)
            again |= strcmp(deck_steps[j].print, deck_steps[i].print) == 0;
        if (!again)
            t += (size_t)snprintf(topics + t, sizeof topics - t, "%s%s", t ? ", " : "",
                                  deck_steps[i].print);
    }
    out[o++] = '\n';
    txt_fmt_lang(out + o, cap - o, T_DECK_ALL_NUMBERS, z, topics);
}

/* ---------------------------------------------------------------------------------------------
 * A slide */

/* Step k of d on page f: the words at their sizes, then the picture in the room between. */
static tf_status draw_slide(deck *d, fig *f, int k)
{
    const lesson_words *w = lesson_words_at(k);
    int l = d->req->zh ? 0 : 1;
    double width = DECK_WIDTH_PT - 2 * MARGIN;
    char text[TEXT_MAX], head[64];
    /* top: the title, its number as the live lesson's header says it at the right */
    txt_fmt_lang(head, sizeof head, T_LESSON_HEADER, d->req->zh, k + 1, d->steps);
    fig_set_font_size(f, FOOT_PT);
    double hw, hh;
    fig_text_size(f, head, true, &hw, &hh);
    double y = 0.6 * MARGIN;
    y += block(f, w->title[l], TITLE_PT, "1a1a1a", true, MARGIN, y, width - hw - MARGIN, 1);
    block(f, head, FOOT_PT, "777777", false, DECK_WIDTH_PT - MARGIN - hw, 0.6 * MARGIN + 8, hw + 1,
          1);
    lesson_fill(d->a, NULL, w->point[l], text, sizeof text);
    y += 6 + block(f, text, POINT_PT, "0b4f8a", false, MARGIN, y + 6, width, 2);
    /* bottom up: the footer, the try line */
    char foot[3 * TEXT_MAX], try_[TEXT_MAX], line[TEXT_MAX + 64];
    footer(d, k, foot, sizeof foot);
    double fh = block_height(f, foot, FOOT_PT, width, 3);
    double bottom = DECK_HEIGHT_PT - 0.5 * MARGIN - fh;
    block(f, foot, FOOT_PT, "555555", false, MARGIN, bottom, width, 3);
    lesson_fill(d->a, NULL, w->try_[l], try_, sizeof try_);
    snprintf(line, sizeof line, "%s%s", txt_lang(T_LESSON_TRY, d->req->zh), try_);
    double th = block_height(f, line, TRY_PT, width, 2);
    bottom -= th + 8;
    block(f, line, TRY_PT, "1a1a1a", false, MARGIN, bottom, width, 2);
    /* the picture between */
    fig_rect box = {MARGIN, y + 10, width, bottom - 12 - (y + 10)};
    double pt = picture_size(d, k, box);
    fig_set_font_size(f, pt);
    fig_ctx c = picture_ctx(d, k, f, box);
    tf_status st = picture(d, &c, k);
    if (st != TF_OK && c.msg[0])
        err_say("cannot draw slide %d: %s.", k + 1, c.msg);
    return st;
}

/* ---------------------------------------------------------------------------------------------
 * The files */

static fig_spec slide_spec(const deck *d, FILE *fp)
{
    return (fig_spec){.format = d->fmt, .width = DECK_WIDTH_PT, .height = DECK_HEIGHT_PT,
                      .dpi = DECK_DPI, .font_size = POINT_PT, .latin_first = !d->req->zh,
                      .fp = fp};
}

/* Missing fonts make empty boxes: refused as a figure is. */
static tf_status fonts_there(fig *f)
{
    unsigned missing = fig_missing_char(f);
    if (!missing)
        return TF_OK;
    err_say("no installed font has the character U+%04X; install a CJK font (Debian: "
            "fonts-noto-cjk) or make the slides with --lang en.", missing);
    return TF_ERR_UNAVAILABLE;
}

/* Slides first .. last-1 to fp: the pages of one file (a PDF), or one slide (a PNG). */
static tf_status slides_to(deck *d, const fig_meta *meta, FILE *fp, int first, int last)
{
    fig_spec spec = slide_spec(d, fp);
    fig *f;
    tf_status st = fig_begin(&spec, meta, &f);
    for (int k = first; st == TF_OK && k < last; k++) {
        if (k > first)
            st = fig_next_page(f);
        if (st == TF_OK)
            st = draw_slide(d, f, k);
        if (st == TF_OK)
            st = fonts_there(f);
    }
    if (st == TF_OK)
        return fig_end(f);
    fig_free(f);
    return st;
}

/* Every slide as a page of one PDF file, written atomically. Exit status. */
static int to_pdf(deck *d, const fig_meta *meta)
{
    outfile out;
    if (outfile_open(&out, d->req->path, "for --export"))
        return 1;
    tf_status st = slides_to(d, meta, out.fp, 0, d->steps);
    if (outfile_close(&out, st))
        return 1;
    return st == TF_OK ? 0 : 2;
}

/* Every slide as a PNG of 1920 x 1080 pixels in the folder (frame_0001.png, ...), each written
 * atomically; older numbered files past the last slide are removed. Exit status. */
static int to_folder(deck *d, const fig_meta *meta)
{
    anim_dir *dir;
    if (anim_dir_begin(d->req->path, &dir) != TF_OK) {
        err_say("cannot write the slides into %s: %s; name a folder that exists or can be made "
                "(its parent must exist).", d->req->path, strerror(errno));
        return 1;
    }
    tf_status st = TF_OK;
    for (int k = 0; st == TF_OK && k < d->steps; k++) {
        outfile out;
        if (outfile_open(&out, anim_dir_next(dir), "for --export")) {
            anim_dir_free(dir);
            return 1;
        }
        st = slides_to(d, meta, out.fp, k, k + 1);
        if (outfile_close(&out, st)) {
            anim_dir_free(dir);
            return 1;
        }
        if (st == TF_OK)
            anim_dir_written(dir);
    }
    if (st != TF_OK) {
        anim_dir_free(dir);
        return 2;
    }
    anim_dir_end(dir);
    return 0;
}

/* ---------------------------------------------------------------------------------------------
 * The deck */

static bool is_pdf(const char *path)
{
    const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
    return dot && (!slash || dot > slash) && strcasecmp(dot, ".pdf") == 0;
}

const char *figures_deck_check(const fig_request *req)
{
    const char *p = req->path;
    if (!p || !*p || (!is_pdf(p) && !figure_is_folder(p)))
        return "the lesson's slides go to a .pdf file (one page a step) or to a folder DIR/ "
               "(one 1920 x 1080 PNG a step): name one of those after --export";
    if (req->name)
        return "--figure chooses one figure, and the slides draw each step's own; leave "
               "--figure out with --lesson --export";
    if (req->width > 0 || req->height > 0 || req->dpi > 0)
        return "the slides are 13.33 x 7.5 in (1920 x 1080 pixels in a folder); leave --width, "
               "--height, --dpi and --venue out with --lesson --export";
    if (req->fps > 0 || req->frames > 0)
        return "--fps and --frames go with the animations; the slides have neither";
    return NULL;
}

int figures_deck(const fig_request *req, tf_analysis *a, bool extended)
{
    const char *bad = figures_deck_check(req);
    if (bad) {
        err_say("%s.", bad);
        return 2;
    }
    if (!req->order) { /* the caller trains it (step 7) */
        err_say("cannot draw the slides: no trained order model was given.");
        return 2;
    }
    tf_status st = analysis_need(a, ANALYSIS_ALL, NULL);
    if (st != TF_OK) {
        err_say("cannot draw the slides: %s.", tf_status_str(st));
        return 2;
    }
    deck d = {.req = req, .a = a, .steps = LESSON_STEPS + (extended ? LESSON_EXTRA_STEPS : 0),
              .fmt = is_pdf(req->path) ? FIG_PDF : FIG_PNG};
    /* the word vectors as the lesson trains them: the built-in corpus, the defaults */
    fig_request lesson = *req;
    lesson.corpus = NULL;
    lesson.w2v = NULL;
    d.req = &lesson;
    fig_ctx tc = figure_ctx(&lesson, a);
    st = anim_training.begin(&tc, anim_training.frames, &d.training);
    if (st != TF_OK) {
        if (!tc.said)
            err_say("cannot train the word vectors of slide 5: %s.", tf_status_str(st));
        return 2;
    }
    lesson_options(&d, NULL, d.options, sizeof d.options, d.schemes, sizeof d.schemes);
    lesson_options(&d, &order_trainer_cfg(req->order)->model, d.order_options,
                   sizeof d.order_options, d.schemes, sizeof d.schemes);
    /* a long sentence is cut in the commands, which keep to their lines at the bottom */
    char cut[TEXT_MAX];
    tw_cut(cut, sizeof cut, a->text, a->text_len, SENTENCE_COLS, "...");
    shell_quote(cut, strlen(cut), d.sentence, sizeof d.sentence);
    char software[64], params[3 * TEXT_MAX], title[256];
    snprintf(software, sizeof software, "tfviz %s", TF_VERSION);
    snprintf(params, sizeof params, "tfviz %s --lesson%s%s%s --export %s %s", TF_VERSION,
             extended ? " --extended" : "", d.options, d.schemes,
             d.fmt == FIG_PDF ? "DECK.pdf" : "DIR/", d.sentence);
    snprintf(title, sizeof title, "tfviz --lesson %s", cut); /* the file's title: language-free */
    fig_meta meta = {.title = title, .software = software, .params = params,
                     .date = FIG_FIXED_DATE};
    int rc = d.fmt == FIG_PDF ? to_pdf(&d, &meta) : to_folder(&d, &meta);
    anim_training.end(d.training);
    return rc;
}
