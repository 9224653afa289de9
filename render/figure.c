/* figure.c — the page: cairo surfaces by format (SVG pages are written by figure_svg.c), pango
 * text and the boxes it takes, fonts, and the PNG writer (libpng, with the DPI in pHYs and the
 * parameters in iTXt, which cairo's own PNG writer cannot store). */
#include "figure_priv.h"
#include "text_cache.h"

#include <cairo-pdf.h>
#include <fontconfig/fontconfig.h>
#include <math.h>
#include <png.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "textwidth.h"
#include "utf8.h"

/* Chinese labels: Chinese and Latin from one family, so mixed labels share one design.
 * English labels: DejaVu Sans (a small font, quick to subset into a PDF), with the CJK family
 * still there for Chinese tokens. The CJK family is a TrueType one first: cairo 1.16 (Debian 12)
 * writes some glyphs of a CID-keyed CFF font such as Noto Sans CJK wrongly into a PDF subset
 * (about one character in 300, e.g. 如, then shows blank in poppler's viewers), while its
 * TrueType subsets are sound; Noto stays as the fallback. */
#define FIG_FONT_CJK "WenQuanYi Micro Hei, Noto Sans CJK SC, Noto Sans SC, Source Han Sans SC, " \
                     "DejaVu Sans, sans-serif"
#define FIG_FONT_LATIN "DejaVu Sans, WenQuanYi Micro Hei, Noto Sans CJK SC, Noto Sans SC, " \
                       "Source Han Sans SC, sans-serif"

/* Whether a page was opened on this thread, so that releasing the font caches has something to
 * release: pango keeps a default font map per thread, and a figure drawn on a worker thread
 * (an inline figure drawn while the explorer answers keys) loads fonts into that thread's map. */
static _Thread_local bool fonts_loaded;

/* fontconfig reads its configuration and font caches once per process, the longest wait before
 * the first label is measured: fig_warm_fonts's thread, which the first page waits for. The lock
 * lets pages begin on several threads. */
static pthread_mutex_t warm_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_t warm_thread;
static bool warming;

static void *warm_fonts(void *unused)
{
    (void)unused;
    FcInit();
    return NULL;
}

void fig_warm_fonts(void)
{
    pthread_mutex_lock(&warm_lock);
    if (!warming && !fonts_loaded)
        warming = pthread_create(&warm_thread, NULL, warm_fonts, NULL) == 0;
    pthread_mutex_unlock(&warm_lock);
}

static void fonts_ready(void)
{
    pthread_mutex_lock(&warm_lock);
    if (warming)
        pthread_join(warm_thread, NULL);
    warming = false;
    pthread_mutex_unlock(&warm_lock);
}

static const char *const format_names[FIG_FORMAT_COUNT] = {"png", "svg", "pdf"};

fig_format fig_format_from_path(const char *path)
{
    const char *dot = strrchr(path, '.');
    const char *slash = strrchr(path, '/');
    if (!dot || (slash && dot < slash))
        return FIG_FORMAT_COUNT;
    for (int i = 0; i < FIG_FORMAT_COUNT; i++)
        if (strcasecmp(dot + 1, format_names[i]) == 0)
            return (fig_format)i;
    return FIG_FORMAT_COUNT;
}

const char *fig_format_name(fig_format f)
{
    return (unsigned)f < FIG_FORMAT_COUNT ? format_names[f] : "unknown";
}

/* ---------------------------------------------------------------------------------------------
 * The page */

/* cairo's PDF, written to the caller's file as cairo makes it. */
static cairo_status_t stream_write(void *closure, const unsigned char *data, unsigned int len)
{
    return fwrite(data, 1, len, closure) == len ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

/* A raster page: the largest scale at which the page fits the caller's pixels, centred on whole
 * pixels (so that fig_snap's pixel edges stay edges), drawn into a buffer the page owns until
 * fig_end hands it over. */
static bool raster_surface(fig *f)
{
    const fig_raster *r = f->spec.raster;
    f->scale = fmin(r->width / f->spec.width, r->height / f->spec.height);
    f->off_x = (int)floor((r->width - f->spec.width * f->scale) / 2);
    f->off_y = (int)floor((r->height - f->spec.height * f->scale) / 2);
    f->spec.dpi = 72.0 * f->scale;
    int stride = cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, r->width);
    f->pixels = stride > 0 ? malloc((size_t)stride * (size_t)r->height) : NULL;
    if (f->pixels)
        f->surface = cairo_image_surface_create_for_data(f->pixels, CAIRO_FORMAT_ARGB32, r->width,
                                                         r->height, stride);
    return f->pixels != NULL;
}

/* The surface of each kind of page. False when out of memory. */
static bool make_surface(fig *f)
{
    const fig_spec *s = &f->spec;
    if (s->measure || s->format == FIG_SVG) {
        /* text is measured on a recording surface; nothing is replayed from it. A measure page
         * of a PNG keeps the PNG's scale, so that edges snap to the same pixels */
        if (s->measure && s->format == FIG_PNG && !s->raster && s->dpi > 0)
            f->scale = s->dpi / 72.0;
        f->surface = cairo_recording_surface_create(CAIRO_CONTENT_COLOR_ALPHA, NULL);
        return s->measure || svg_begin(f);
    }
    if (s->format == FIG_PNG) {
        if (s->raster)
            return raster_surface(f);
        f->scale = s->dpi / 72.0;
        f->surface =
            cairo_image_surface_create(CAIRO_FORMAT_ARGB32, (int)lround(s->width * f->scale),
                                       (int)lround(s->height * f->scale));
        return true;
    }
    f->surface = cairo_pdf_surface_create_for_stream(stream_write, s->fp, s->width, s->height);
    /* cairo would stamp the current time: fixed dates give the same bytes every run (a surface
     * in error ignores them: fig_begin reports its status) */
    const fig_meta *m = &f->meta;
    const char *date = m->date ? m->date : "2000-01-01T00:00:00Z";
    const cairo_pdf_metadata_t key[5] = {CAIRO_PDF_METADATA_CREATE_DATE,
                                         CAIRO_PDF_METADATA_MOD_DATE, CAIRO_PDF_METADATA_TITLE,
                                         CAIRO_PDF_METADATA_CREATOR, CAIRO_PDF_METADATA_SUBJECT};
    const char *const value[5] = {date, date, m->title, m->software, m->params};
    for (int i = 0; i < 5; i++)
        if (value[i])
            cairo_pdf_surface_set_metadata(f->surface, key[i], value[i]);
    return true;
}

tf_status fig_begin(const fig_spec *s, const fig_meta *m, fig **out)
{
    *out = NULL;
    if (!(s->width > 0) || !(s->height > 0) || (unsigned)s->format >= FIG_FORMAT_COUNT)
        return TF_ERR_RANGE;
    if (s->raster && (s->format != FIG_PNG || s->raster->width < 1 || s->raster->height < 1 ||
                      s->raster->width > FIG_MAX_RASTER || s->raster->height > FIG_MAX_RASTER))
        return TF_ERR_RANGE;
    fig *f = calloc(1, sizeof *f);
    if (!f)
        return TF_ERR_NOMEM;
    f->spec = *s;
    f->meta = *m;
    if (s->boxes) { /* a page drawn again (smaller labels) records its boxes afresh */
        s->boxes->n = 0;
        s->boxes->page_w = s->width;
        s->boxes->page_h = s->height;
    }
    f->scale = 1.0;
    f->need.room = INFINITY; /* none measured */
    cairo_status_t cs = make_surface(f) && f->surface ? cairo_surface_status(f->surface)
                                                      : CAIRO_STATUS_NO_MEMORY;
    if (cs != CAIRO_STATUS_SUCCESS) {
        fig_free(f);
        return cs == CAIRO_STATUS_NO_MEMORY ? TF_ERR_NOMEM : TF_ERR_RANGE;
    }
    f->cr = cairo_create(f->surface);
    if (!s->measure && s->format != FIG_SVG) {
        /* an opaque white page (and white around it, on a raster page of other proportions) */
        cairo_set_source_rgb(f->cr, 1, 1, 1);
        cairo_paint(f->cr);
    }
    cairo_translate(f->cr, f->off_x, f->off_y);
    cairo_scale(f->cr, f->scale, f->scale);
    fonts_ready();
    fonts_loaded = true;
    f->layout = pango_cairo_create_layout(f->cr);
    /* fonts drawn unhinted with grey antialiasing: the same glyph positions in every format, so
     * a PNG and a PDF of one figure have the same layout */
    cairo_font_options_t *o = cairo_font_options_create();
    cairo_font_options_set_hint_style(o, CAIRO_HINT_STYLE_NONE);
    cairo_font_options_set_hint_metrics(o, CAIRO_HINT_METRICS_OFF);
    cairo_font_options_set_antialias(o, CAIRO_ANTIALIAS_GRAY);
    pango_cairo_context_set_font_options(pango_layout_get_context(f->layout), o);
    cairo_font_options_destroy(o);
    pango_layout_context_changed(f->layout);
    /* the font of every role: the caller's families, or the default ones */
    f->family = s->font && *s->font ? s->font : s->latin_first ? FIG_FONT_LATIN : FIG_FONT_CJK;
    f->font = pango_font_description_new();
    pango_font_description_set_family(f->font, f->family);
    fig_set_font_size(f, s->font_size);
    *out = f;
    return TF_OK;
}

void fig_set_font_size(fig *f, double pt)
{
    f->spec.font_size = pt;
    pango_font_description_set_absolute_size(f->font, pt * PANGO_SCALE);
}

tf_status fig_next_page(fig *f)
{
    if (f->spec.format != FIG_PDF || f->spec.measure)
        return TF_ERR_RANGE;
    cairo_show_page(f->cr);
    cairo_set_source_rgb(f->cr, 1, 1, 1);
    cairo_paint(f->cr);
    f->cramped = false;
    return cairo_status(f->cr) == CAIRO_STATUS_NO_MEMORY ? TF_ERR_NOMEM : TF_OK;
}

bool fig_cramped(const fig *f) { return f->cramped; }

void fig_set_cramped(fig *f) { f->cramped = true; }

fig_need fig_cramped_need(const fig *f)
{
    return (fig_need){fmax(f->need.h, 1.0), fmax(f->need.w, 1.0), f->need.room};
}

void fig_need_more(fig *f, double h, double w)
{
    f->cramped = true;
    f->need.h = fmax(f->need.h, h);
    f->need.w = fmax(f->need.w, w);
}

void fig_height_room(fig *f, double have, double want)
{
    f->need.room = fmin(f->need.room, want > 0 ? have / want : INFINITY);
}

fig_trial fig_try(fig *f)
{
    fig_trial t = {.cramped = f->cramped, .need = f->need};
    f->cramped = false;
    f->need = (fig_need){0, 0, INFINITY};
    return t;
}

/* The growth a cramped page's need asks for: INFINITY where it gave no measure. */
static double growth(fig_need n) { return fmax(n.h, n.w) > 1 ? fmax(n.h, n.w) : INFINITY; }

bool fig_tried(fig *f, fig_trial *t, bool last)
{
    if (f->cramped && t->left && growth(t->least) < growth(f->need))
        f->need = t->least; /* that one asked for less */
    if (f->cramped && !last) {
        fig_trial left = fig_try(f);
        *t = (fig_trial){t->cramped, t->need, true, left.need};
        return false;
    }
    f->cramped |= t->cramped;
    f->need.h = fmax(f->need.h, t->need.h);
    f->need.w = fmax(f->need.w, t->need.w);
    fig_height_room(f, t->need.room, 1);
    return true;
}

void fig_measured(fig *f, const fig_trial *t)
{
    f->cramped = t->cramped, f->need = t->need;
}

void fig_free(fig *f)
{
    if (!f)
        return;
    pango_font_description_free(f->font); /* these three take NULL */
    cairo_destroy(f->cr);
    cairo_surface_destroy(f->surface);
    if (f->layout)
        g_object_unref(f->layout);
    free(f->pixels);
    free(f->svg);
    free(f);
}

unsigned fig_missing_char(const fig *f) { return f->missing; }

bool fig_font_installed(const char *family)
{
    fonts_ready();
    FcPattern *p = FcPatternBuild(NULL, FC_FAMILY, FcTypeString, family, (char *)NULL);
    FcObjectSet *os = FcObjectSetBuild(FC_FAMILY, (char *)NULL);
    FcFontSet *fs = p && os ? FcFontList(NULL, p, os) : NULL;
    bool found = fs && fs->nfont > 0;
    if (fs)
        FcFontSetDestroy(fs);
    if (os)
        FcObjectSetDestroy(os);
    FcPatternDestroy(p); /* takes NULL */
    return found;
}

void fig_release_fonts(void)
{
    fonts_ready();
    if (!fonts_loaded)
        return;
    fonts_loaded = false;
    text_cache_clear();
    pango_cairo_font_map_set_default(NULL);
    /* FcFini() would go further, but it aborts when cairo still holds a font in its static
     * caches, which it does after some failed drawings: a leak checker is told instead
     * (tests/lsan.supp) */
}

/* ---------------------------------------------------------------------------------------------
 * PNG through libpng */

static void png_silent(png_structp png, png_const_charp msg) { (void)png, (void)msg; }

static void png_fail(png_structp png, png_const_charp msg)
{
    (void)msg;
    png_longjmp(png, 1);
}

/* What the first heatmap's cells became: "rows=R cols=C" and, when there were more cells than
 * pixels, how many blocks of averaged cells were drawn instead; with where, first where the
 * cells are, so a reader can map pixels back to (row, column). Returns out, NULL for no heatmap. */
static const char *heat_note(const fig_raster *r, bool where, char *out, size_t n)
{
    if (!r->have_heatmap)
        return NULL;
    char at[200] = "", avg[80] = "";
    if (where)
        snprintf(at, sizeof at, "x=%.3f y=%.3f width=%.3f height=%.3f ", r->heat_x, r->heat_y,
                 r->heat_w, r->heat_h);
    if ((r->heat_drawn_rows && r->heat_drawn_rows < r->heat_rows) ||
        (r->heat_drawn_cols && r->heat_drawn_cols < r->heat_cols))
        snprintf(avg, sizeof avg, " area-averaged to %ld x %ld", r->heat_drawn_rows,
                 r->heat_drawn_cols);
    snprintf(out, n, "%srows=%ld cols=%ld%s", at, r->heat_rows, r->heat_cols, avg);
    return out;
}

tf_status fig_png_write(FILE *fp, const fig_raster *r, const fig_meta *m)
{
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, png_fail, png_silent);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!info) {
        png_destroy_write_struct(&png, NULL);
        return TF_ERR_NOMEM;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        return TF_ERR_IO;
    }
    png_init_io(png, fp);
    png_set_IHDR(png, info, (png_uint_32)r->width, (png_uint_32)r->height, 8, PNG_COLOR_TYPE_RGB,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_uint_32 ppm = (png_uint_32)lround(r->dpi / 0.0254); /* pixels per metre */
    png_set_pHYs(png, info, ppm, ppm, PNG_RESOLUTION_METER);

    /* the text chunks: software, title, parameters and where the heatmap's cells are */
    char heat[240];
    const char *const key[4] = {"Software", "Title", "tfviz", "tfviz:heatmap"};
    const char *const value[4] = {m->software, m->title, m->params,
                                  heat_note(r, true, heat, sizeof heat)};
    for (int i = 0; i < 4; i++) {
        /* Software in Latin-1 (tEXt), the others in UTF-8 (iTXt) */
        png_text t = {.compression = i ? PNG_ITXT_COMPRESSION_NONE : PNG_TEXT_COMPRESSION_NONE,
                      .key = (png_charp)key[i], .text = (png_charp)value[i]};
        if (value[i])
            png_set_text(png, info, &t, 1);
    }
    /* A figure is flat colour: white page, heatmap cells repeated over several pixels, text.
     * deflate's own matching finds those runs better than PNG's per-row prediction filters,
     * and trying every filter on every row took a third of the export: the 512 x 512 PE
     * figure at 300 dpi is 310 KB without filters against 456 KB with libpng's choice. */
    png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_NONE);
    png_write_info(png, info);
    /* the rows as they are, cairo's ARGB32 words (opaque: every page is) without the alpha byte */
#if G_BYTE_ORDER == G_LITTLE_ENDIAN
    png_set_bgr(png); /* the words' bytes are B, G, R, A */
    png_set_filler(png, 0, PNG_FILLER_AFTER);
#else
    png_set_filler(png, 0, PNG_FILLER_BEFORE); /* A, R, G, B */
#endif
    for (int y = 0; y < r->height; y++)
        png_write_row(png, r->data + (size_t)y * r->stride);
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    return ferror(fp) ? TF_ERR_IO : TF_OK;
}

void fig_raster_free(fig_raster *r)
{
    if (!r)
        return;
    free(r->data);
    memset(r, 0, sizeof *r);
}

/* A cairo page finished: its pixels handed over (a raster page, whose buffer the page then no
 * longer frees) or written as a PNG, or the PDF, which cairo wrote as it went, closed. */
static tf_status write_cairo(fig *f)
{
    cairo_show_page(f->cr);
    tf_status st = cairo_status(f->cr) == CAIRO_STATUS_NO_MEMORY ? TF_ERR_NOMEM : TF_OK;
    if (st == TF_OK && f->spec.format == FIG_PNG) {
        cairo_surface_flush(f->surface);
        fig_raster r = f->heat;
        r.width = cairo_image_surface_get_width(f->surface);
        r.height = cairo_image_surface_get_height(f->surface);
        r.stride = cairo_image_surface_get_stride(f->surface);
        r.data = cairo_image_surface_get_data(f->surface);
        r.dpi = f->spec.dpi;
        if (!f->spec.raster)
            return fig_png_write(f->spec.fp, &r, &f->meta);
        *f->spec.raster = r;
        f->pixels = NULL; /* the caller's now */
    } else if (f->spec.format == FIG_PDF) {
        char kw[240] = "tfviz:heatmap ";
        size_t o = strlen(kw);
        if (heat_note(&f->heat, false, kw + o, sizeof kw - o))
            cairo_pdf_surface_set_metadata(f->surface, CAIRO_PDF_METADATA_KEYWORDS, kw);
        cairo_surface_finish(f->surface);
        cairo_status_t cs = cairo_surface_status(f->surface);
        bool io = cs == CAIRO_STATUS_WRITE_ERROR || ferror(f->spec.fp);
        if (io || cs != CAIRO_STATUS_SUCCESS)
            st = io ? TF_ERR_IO : TF_ERR_NOMEM;
    }
    return st;
}

tf_status fig_end(fig *f)
{
    char note[340]; /* an SVG's first heatmap, in its metadata */
    tf_status st = f->spec.measure ? TF_OK
                   : f->svg        ? svg_end(f, heat_note(&f->heat, true, note, sizeof note))
                                   : write_cairo(f);
    fig_free(f);
    return st;
}

/* ---------------------------------------------------------------------------------------------
 * Text */

double fig_font_size(const fig *f)
{
    return f->spec.font_size;
}

/* pango 1.50 sizes <sub> and <sup> wrongly under a scaled cairo matrix (the PNG page), so they
 * are rewritten as smaller spans raised or lowered by a fraction of the font size. */
static const char *script_markup(const fig *f, const char *text, char *buf, size_t n)
{
    if (!strstr(text, "<su"))
        return text;
    double fs = f->spec.font_size;
    char sub[96], sup[96];
    snprintf(sub, sizeof sub, "<span size=\"smaller\" rise=\"%d\">", -(int)(0.18 * fs * 1024));
    snprintf(sup, sizeof sup, "<span size=\"smaller\" rise=\"%d\">", (int)(0.36 * fs * 1024));
    const char *const tag[4][2] = {
        {"<sub>", sub}, {"<sup>", sup}, {"</sub>", "</span>"}, {"</sup>", "</span>"}};
    size_t o = 0;
    for (const char *p = text; *p;) {
        const char *rep = p;
        size_t skip = 1, l = 1;
        for (int i = 0; i < 4; i++)
            if (strncmp(p, tag[i][0], strlen(tag[i][0])) == 0)
                rep = tag[i][1], skip = strlen(tag[i][0]), l = strlen(rep);
        if (o + l + 1 > n)
            return text;
        memcpy(buf + o, rep, l);
        o += l;
        p += skip;
    }
    buf[o] = '\0';
    return buf;
}

/* The markup for one character of text (s[0..len), *used set to its bytes, *rl to the markup's
 * and *cols to its columns, 2 for a wide one, else 1): an entity, U+FFFD for an invalid byte, or
 * the character itself. */
static const char *markup_char(const char *s, size_t len, size_t *used, size_t *rl, int *cols)
{
    uint32_t cp;
    size_t n = utf8_decode(s, len, &cp);
    *used = n ? n : 1;
    *cols = n && tw_codepoint(cp) == 2 ? 2 : 1;
    static const char *const entity[] = {
        ['&'] = "&amp;", ['<'] = "&lt;", ['>'] = "&gt;", ['"'] = "&quot;", ['\''] = "&#39;"};
    const char *e = !n ? "\xef\xbf\xbd" : cp < sizeof entity / sizeof *entity ? entity[cp] : NULL;
    *rl = e ? strlen(e) : n;
    return e ? e : s;
}

size_t fig_markup_text(char *out, size_t cap, const char *s, int max_cols)
{
    static const char ell[] = "\xe2\x80\xa6"; /* … */
    size_t len = strlen(s), whole = 0, used, rl;
    int cols = 0, w;
    for (size_t i = 0; i < len; i += used)
        markup_char(s + i, len - i, &used, &rl, &w), whole += rl, cols += w;
    /* all of it when it fits; else characters while they and the ellipsis do */
    bool cut = whole >= cap || cols > max_cols;
    size_t room = cap - 1 - (cut ? sizeof ell - 1 : 0), o = 0;
    cols = 0;
    for (size_t i = 0; i < len; i += used) {
        const char *m = markup_char(s + i, len - i, &used, &rl, &w);
        if (o + rl > room || cols + w > max_cols - (cut ? 1 : 0))
            break;
        memcpy(out + o, m, rl);
        o += rl, cols += w;
    }
    if (cut) {
        memcpy(out + o, ell, sizeof ell - 1);
        o += sizeof ell - 1;
    }
    out[o] = '\0';
    return o;
}

/* The first character of the layout that no font had (pango marks its glyph "unknown" and keeps
 * the character in it), 0 for none. */
static unsigned first_unknown(PangoLayout *layout)
{
    unsigned cp = 0;
    PangoLayoutIter *it = pango_layout_get_iter(layout);
    do {
        PangoLayoutRun *run = pango_layout_iter_get_run_readonly(it);
        for (int i = 0; run && !cp && i < run->glyphs->num_glyphs; i++) {
            PangoGlyph g = run->glyphs->glyphs[i].glyph;
            if (g & PANGO_GLYPH_UNKNOWN_FLAG)
                cp = g & ~PANGO_GLYPH_UNKNOWN_FLAG;
        }
    } while (!cp && pango_layout_iter_next_run(it));
    pango_layout_iter_free(it);
    return cp;
}

static void set_text(fig *f, const char *text, bool plain)
{
    pango_layout_set_font_description(f->layout, f->font);
    if (plain) {
        pango_layout_set_attributes(f->layout, NULL); /* markup's attributes would linger */
        pango_layout_set_text(f->layout, text, -1);
    } else {
        char buf[2048];
        pango_layout_set_markup(f->layout, script_markup(f, text, buf, sizeof buf), -1);
    }
    if (!f->missing && pango_layout_get_unknown_glyphs_count(f->layout) > 0) {
        unsigned cp = first_unknown(f->layout);
        /* a control or a line break is no glyph to draw: not a missing font */
        if (cp >= 0x20 && cp != 0x7f)
            f->missing = cp;
    }
}

/* Two extents of text in pango units: its logical width and height (ink false), or its logical
 * and ink heights (ink true); a one-line text's remembered across pages (text_cache.h: a
 * wrapping title is drawn from the layout after) */
static void text_extents(fig *f, const char *text, bool plain, bool ink, double out[2])
{
    text_key k;
    bool keep = pango_layout_get_width(f->layout) == -1 && !f->missing &&
                text_key_make(&k, f->family, 4 * (int)f->spec.format + 2 * f->spec.measure + ink,
                              f->spec.font_size, f->scale, plain, text);
    if (keep && text_cache_get(&k, &out[0], &out[1], &f->missing))
        return;
    PangoRectangle in, logical;
    set_text(f, text, plain);
    pango_layout_get_extents(f->layout, ink ? &in : NULL, &logical);
    out[0] = ink ? logical.height : logical.width;
    out[1] = ink ? in.height : logical.height;
    if (keep)
        text_cache_put(&k, out[0], out[1], f->missing);
}

void fig_text_size(fig *f, const char *text, bool plain, double *w, double *h)
{
    double e[2];
    text_extents(f, text, plain, false, e);
    *w = e[0] / PANGO_SCALE;
    *h = e[1] / PANGO_SCALE;
}

double fig_row_label_room(fig *f, const char *label, bool by_ink)
{
    double e[2]; /* logical and ink heights */
    text_extents(f, label, false, true, e);
    return by_ink ? 1.25 * e[1] / PANGO_SCALE : 0.95 * e[0] / PANGO_SCALE;
}

/* The ink box of the text now in f->layout, drawn with its point (ax, ay) at (x, y). */
static fig_rect ink_box(fig *f, double x, double y, double ax, double ay, bool vertical)
{
    PangoRectangle ink, logical;
    pango_layout_get_extents(f->layout, &ink, &logical);
    double w = (double)logical.width / PANGO_SCALE, h = (double)logical.height / PANGO_SCALE;
    /* the ink box in the label's own frame, its point at the origin */
    double u0 = -ax * w + (double)(ink.x - logical.x) / PANGO_SCALE;
    double v0 = -ay * h + (double)(ink.y - logical.y) / PANGO_SCALE;
    double iw = (double)ink.width / PANGO_SCALE, ih = (double)ink.height / PANGO_SCALE;
    /* a vertical label is turned 90 degrees counter-clockwise: (u, v) lands at (x + v, y - u) */
    return vertical ? (fig_rect){x + v0, y - u0 - iw, ih, iw} : (fig_rect){x + u0, y + v0, iw, ih};
}

void fig_wrap_at(fig *f, double width)
{
    pango_layout_set_width(f->layout, width > 0 ? (int)(width * PANGO_SCALE) : -1);
    pango_layout_set_wrap(f->layout, PANGO_WRAP_WORD_CHAR);
    pango_layout_set_alignment(f->layout, width > 0 ? PANGO_ALIGN_CENTER : PANGO_ALIGN_LEFT);
}

/* Draw text as a part of its own (none inside another part's call: legends) and record its box;
 * titles in black, other text in a dark grey. */
static void show_text(fig *f, pen_part part, const char *text, bool plain, double x, double y,
                      double ax, double ay, bool vertical, int where, fig_rect plot)
{
    pen_part_begin(f, part, where == FIG_TEXT_OUTSIDE ? NULL : &plot);
    set_text(f, text, plain);
    if (f->spec.boxes)
        fig_record(f, FIG_BOX_TEXT, ink_box(f, x, y, ax, ay, vertical), where, plot, text);
    pen_layout(f, x, y, ax, ay, vertical,
               part == PART_TITLE ? (tf_rgb){0, 0, 0} : (tf_rgb){26, 26, 26});
    pen_part_end(f, part);
}

void fig_text(fig *f, fig_role role, const char *text, bool plain, double x, double y, double ax,
              double ay, bool vertical)
{
    if (text && *text)
        show_text(f, role == FIG_NOTE ? PART_NOTE : PART_LABEL, text, plain, x, y, ax, ay, vertical,
                  FIG_TEXT_OUTSIDE, (fig_rect){0, 0, 0, 0});
}

void fig_text_in(fig *f, const fig_axes *a, const char *text, bool plain, double x, double y,
                 double ax, double ay)
{
    show_text(f, PART_ANNOTATION, text, plain, x, y, ax, ay, false, FIG_TEXT_IN_PLOT, a->r);
}

void fig_text_legend(fig *f, fig_rect frame, const char *text, double x, double y)
{
    show_text(f, PART_LEGEND, text, false, x, y, 0.0, 0.5, false, FIG_TEXT_IN_LEGEND, frame);
}

double fig_title(fig *f, fig_rect area, const char *text, bool plain)
{
    if (!text || !*text)
        return 0.0;
    double w, h;
    fig_wrap_at(f, area.w);
    fig_text_size(f, text, plain, &w, &h);
    size_t before = fig_boxes_mark(f);
    show_text(f, PART_TITLE, text, plain, area.x + area.w / 2, area.y, 0.5, 0, false,
              FIG_TEXT_OUTSIDE, (fig_rect){0, 0, 0, 0});
    fig_mark_text(f, before, FIG_TITLE_ROLE_TITLE, false);
    fig_wrap_at(f, 0);
    return h;
}

/* ---------------------------------------------------------------------------------------------
 * Shared helpers */

fig_rect fig_snap(const fig *f, fig_rect r)
{
    if (f->spec.format != FIG_PNG)
        return r;
    double s = f->scale;
    double x0 = round(r.x * s) / s, y0 = round(r.y * s) / s;
    double x1 = round((r.x + r.w) * s) / s, y1 = round((r.y + r.h) * s) / s;
    return (fig_rect){x0, y0, x1 - x0, y1 - y0};
}

double fig_tick_len(const fig *f) { return 0.35 * f->spec.font_size; }

double fig_line_width(const fig *f) { return 0.075 * f->spec.font_size; }
