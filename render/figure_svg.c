/* figure_svg.c — SVG pages written here, element by element (SVG 1.1, W3C Recommendation 16
 * August 2011), instead of by cairo's SVG surface: labels become <text> elements with their
 * font family, so they can be edited in Inkscape or a text editor, and heatmaps become what
 * every renderer keeps sharp.
 *
 * The document: a white <rect>, then the drawing in page order. Lengths are points (the root's
 * viewBox is the page in points, its width and height say "pt"). Paths are <path> elements
 * with the pen's colour, width, dashes, caps and joins; a clip is a <clipPath> rectangle and a
 * <g clip-path> that the matching restore closes. Text comes from pango's own layout of the
 * label: one <text> per line at pango's baseline, anchored at the side the caller aligned (so a
 * renderer whose font metrics differ a little keeps the alignment), with a <tspan> per run of
 * pango markup attributes (italic, bold, smaller, raised or lowered). A heatmap is one <image>,
 * a PNG (fig_png_write) in a base64 data URI, its cells repeated by whole pixels (figure_plot.c),
 * asking for no smoothing (image-rendering). What each drawing call of figure.h draws is a named
 * group (below), so an editor selects a part by its id. The parameters and the heatmap's cells
 * go into <metadata> at the end. */
#include "figure_priv.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SVG_DEPTH 32
#define SVG_PANELS 64 /* panels told apart by their plot areas */

typedef struct {
    tf_rgb color;
    double width;
    double dash[4];
    int ndash;
    int cap;
    bool join_round;
    int groups; /* <g> opened at this level (clips) */
} svg_state;

struct fig_svg {
    svg_state gs[SVG_DEPTH];
    int depth;
    bool in_path; /* a <path>'s d attribute is open: the path's commands go straight into it */
    int clips;
    bool failed; /* an image could not be made (out of memory) */
    /* the named groups: how deep in drawing calls (only the outermost opens a group), how many
     * of each part so far, and the panel whose group is open */
    int calls;
    int parts[PART_COUNT];
    fig_rect panel[SVG_PANELS];
    int panel_visits[SVG_PANELS];
    int npanels;
    int open_panel; /* index into panel[], -1 for none */
};

/* ---------------------------------------------------------------------------------------------
 * Numbers and text */

/* v with at most two decimals, no trailing zeros, never "-0". */
static void num(char *out, size_t n, double v)
{
    snprintf(out, n, "%.2f", isfinite(v) && fabs(v) >= 0.005 ? v : 0); /* 0.00 unsigned */
    char *dot = strchr(out, '.'), *e = out + strlen(out) - 1; /* none: cut short (|v| > 1e37) */
    while (dot && e >= dot && (*e == '0' || e == dot)) /* trailing zeros, then a bare dot */
        *e-- = '\0';
}

/* n numbers, a space between each two. */
static void put_nums(FILE *fp, const double *v, int n)
{
    char b[40];
    for (int i = 0; i < n; i++) {
        num(b, sizeof b, v[i]);
        fprintf(fp, "%s%s", i ? " " : "", b);
    }
}

/* The attribute name="v", with a space before it. */
static void put_attr(FILE *fp, const char *name, double v)
{
    fprintf(fp, " %s=\"", name);
    put_nums(fp, &v, 1);
    fputc('"', fp);
}

/* The attributes x, y, width and height of a box. */
static void put_box(FILE *fp, double x, double y, double w, double h)
{
    put_attr(fp, "x", x);
    put_attr(fp, "y", y);
    put_attr(fp, "width", w);
    put_attr(fp, "height", h);
}

/* XML character data: & < > and quotes escaped. */
static void put_escaped(FILE *fp, const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        switch (s[i]) {
        case '&': fputs("&amp;", fp); break;
        case '<': fputs("&lt;", fp); break;
        case '>': fputs("&gt;", fp); break;
        case '"': fputs("&quot;", fp); break;
        default: fputc(s[i], fp);
        }
    }
}

/* The element <name id="id">text</name> (no id: NULL) on a line of its own; none for NULL. */
static void put_element(FILE *fp, const char *name, const char *id, const char *text)
{
    if (!text)
        return;
    fprintf(fp, id ? "<%s id=\"%s\">" : "<%s>", name, id);
    put_escaped(fp, text, strlen(text));
    fprintf(fp, "</%s>\n", name);
}

/* The attribute name="#rrggbb", with a space before it. */
static void put_color(FILE *fp, const char *name, tf_rgb c)
{
    fprintf(fp, " %s=\"#%02x%02x%02x\"", name, c.r, c.g, c.b);
}

/* The font families as CSS: 'WenQuanYi Micro Hei', 'DejaVu Sans', sans-serif. */
static void put_families(FILE *fp, const char *list)
{
    static const char *const generic[] = {"sans-serif", "serif", "monospace"};
    const char *sep = "";
    for (const char *p = list + strspn(list, " ,"); *p; p += strspn(p, " ,")) {
        size_t len = strcspn(p, ","), n = len;
        while (p[n - 1] == ' ')
            n--;
        const char *quote = "'";
        for (int i = 0; i < 3; i++)
            if (strlen(generic[i]) == n && strncmp(p, generic[i], n) == 0)
                quote = "";
        fprintf(fp, "%s%s", sep, quote);
        for (size_t i = 0; i < n; i++)
            if (!strchr("'\"<&", p[i]))
                fputc(p[i], fp);
        fputs(quote, fp);
        sep = ", ";
        p += len;
    }
}

/* ---------------------------------------------------------------------------------------------
 * Named groups: <g id="panel-2" class="panel"> around everything drawn for one plot area, and
 * inside it or at the page's level <g id="axes-2" class="axes">, heatmap-N, colorbar-N,
 * legend-N, annotation-N and label-N; title-N and note-N at the page's level. A panel is known
 * by its plot area; one drawn again after another panel opens a second group (panel-2-2). */

static const char *const part_name[PART_COUNT] = {"title", "note", "axes", "heatmap",
                                                  "colorbar", "legend", "annotation", "label",
                                                  NULL};

static void panel_leave(fig *f)
{
    if (f->svg->open_panel < 0)
        return;
    fputs("</g>\n", f->spec.fp);
    f->svg->open_panel = -1;
}

static void panel_enter(fig *f, fig_rect plot)
{
    fig_svg *s = f->svg;
    if (s->open_panel >= 0 && fig_same_rect(s->panel[s->open_panel], plot))
        return;
    panel_leave(f);
    int k = 0;
    while (k < s->npanels && !fig_same_rect(s->panel[k], plot))
        k++;
    if (k == SVG_PANELS)
        return; /* more panels than any figure has: drawn at the page's level */
    if (k == s->npanels)
        s->panel[s->npanels++] = plot;
    if (++s->panel_visits[k] > 1)
        fprintf(f->spec.fp, "<g id=\"panel-%d-%d\" class=\"panel\">\n", k + 1, s->panel_visits[k]);
    else
        fprintf(f->spec.fp, "<g id=\"panel-%d\" class=\"panel\">\n", k + 1);
    s->open_panel = k;
}

/* Whether a colour bar over r stands beside the open panel (spans its plot's rows). */
static bool beside_panel(const fig_svg *s, fig_rect r)
{
    if (s->open_panel < 0)
        return false;
    fig_rect p = s->panel[s->open_panel];
    return fabs(r.y - p.y) < 0.5 && fabs(r.h - p.h) < 0.5 && r.x >= p.x;
}

void pen_part_begin(fig *f, pen_part part, const fig_rect *where)
{
    fig_svg *s = f->svg;
    if (!s || s->calls++ > 0)
        return;
    if (part == PART_TITLE || part == PART_NOTE ||
        (part == PART_COLORBAR && !beside_panel(s, *where)))
        panel_leave(f);
    else if (where && part != PART_COLORBAR)
        panel_enter(f, *where);
    if (part_name[part])
        fprintf(f->spec.fp, "<g id=\"%s-%d\" class=\"%s\">\n", part_name[part], ++s->parts[part],
                part_name[part]);
}

void pen_part_end(fig *f, pen_part part)
{
    if (f->svg && --f->svg->calls == 0 && part_name[part])
        fputs("</g>\n", f->spec.fp);
}

/* ---------------------------------------------------------------------------------------------
 * The pen (figure_priv.h): each call the SVG writer's on an SVG page, cairo's on a page cairo
 * draws (PNG, PDF, raster), none on a measure page; its images and labels are in figure_pen.c.
 * On an SVG page the pen's state is kept here, a level for each save. */

#define PEN(svg_call, cairo_call) (f->svg ? (svg_call) : f->spec.measure ? (void)0 : (cairo_call))

/* The state at the current level of saves. */
static svg_state *state(fig *f)
{
    return &f->svg->gs[f->svg->depth];
}

static void svg_save(fig *f)
{
    fig_svg *s = f->svg;
    if (s->depth + 1 >= SVG_DEPTH)
        return;
    s->gs[s->depth + 1] = s->gs[s->depth];
    s->gs[++s->depth].groups = 0;
}

static void svg_restore(fig *f)
{
    fig_svg *s = f->svg;
    for (; s->gs[s->depth].groups > 0; s->gs[s->depth].groups--)
        fputs("</g>\n", f->spec.fp);
    if (s->depth > 0)
        s->depth--;
}

static void svg_dash(fig *f, const double *on, int n)
{
    state(f)->ndash = n; /* at most 4 */
    memcpy(state(f)->dash, on, (size_t)n * sizeof *on);
}

static void svg_clip_rect(fig *f, fig_rect r)
{
    FILE *fp = f->spec.fp;
    int id = ++f->svg->clips;
    fprintf(fp, "<clipPath id=\"c%d\"><rect", id);
    put_box(fp, r.x, r.y, r.w, r.h);
    fprintf(fp, "/></clipPath>\n<g clip-path=\"url(#c%d)\">\n", id);
    state(f)->groups++;
}

/* ---------------------------------------------------------------------------------------------
 * Paths */

/* The first command opens the <path> (its d attribute first); pen_stroke and pen_fill close it,
 * so nothing else is written while a path is being built (the figure code never does). */
static void path_add(fig *f, const char *cmd, const double *v, int n)
{
    if (!f->svg->in_path)
        fputs("<path d=\"", f->spec.fp);
    f->svg->in_path = true;
    fputs(cmd, f->spec.fp);
    put_nums(f->spec.fp, v, n);
}

/* Two half arcs, from the circle's right end. */
static void svg_circle(fig *f, double cx, double cy, double r)
{
    double sx = cx + r;
    path_add(f, "M", (double[]){sx, cy}, 2);
    path_add(f, "A", (double[]){r, r, 0, 1, 1, cx - (sx - cx), cy}, 7);
    path_add(f, "A", (double[]){r, r, 0, 1, 1, sx, cy}, 7);
}

/* The open path's end: filled, or stroked with the pen's width, dashes, caps and joins. */
static void path_end(fig *f, bool fill)
{
    const svg_state *g = state(f);
    if (!f->svg->in_path)
        return;
    FILE *fp = f->spec.fp;
    fputs(fill ? "\"" : "\" fill=\"none\"", fp);
    put_color(fp, fill ? "fill" : "stroke", g->color);
    if (!fill) {
        put_attr(fp, "stroke-width", g->width);
        if (g->ndash) {
            fputs(" stroke-dasharray=\"", fp);
            put_nums(fp, g->dash, g->ndash);
            fputc('"', fp);
        }
        if (g->cap != PEN_CAP_BUTT)
            fprintf(fp, " stroke-linecap=\"%s\"", g->cap == PEN_CAP_ROUND ? "round" : "square");
        if (g->join_round)
            fputs(" stroke-linejoin=\"round\"", fp);
    }
    fputs("/>\n", fp);
    f->svg->in_path = false;
}

void pen_save(fig *f)
{
    PEN(svg_save(f), cairo_save(f->cr));
}

void pen_restore(fig *f)
{
    PEN(svg_restore(f), cairo_restore(f->cr));
}

void pen_rgb(fig *f, tf_rgb c)
{
    PEN((void)(state(f)->color = c),
        cairo_set_source_rgb(f->cr, c.r / 255.0, c.g / 255.0, c.b / 255.0));
}

void pen_width(fig *f, double w)
{
    PEN((void)(state(f)->width = w), cairo_set_line_width(f->cr, w));
}

void pen_dash(fig *f, const double *on, int n)
{
    PEN(svg_dash(f, on, n), cairo_set_dash(f->cr, n ? on : NULL, n, 0));
}

void pen_cap(fig *f, int cap)
{
    PEN((void)(state(f)->cap = cap), cairo_set_line_cap(f->cr, (cairo_line_cap_t)cap));
}

void pen_join_round(fig *f)
{
    PEN((void)(state(f)->join_round = true), cairo_set_line_join(f->cr, CAIRO_LINE_JOIN_ROUND));
}

void pen_move(fig *f, double x, double y)
{
    PEN(path_add(f, "M", (double[]){x, y}, 2), cairo_move_to(f->cr, x, y));
}

void pen_line(fig *f, double x, double y)
{
    PEN(path_add(f, "L", (double[]){x, y}, 2), cairo_line_to(f->cr, x, y));
}

void pen_close(fig *f)
{
    PEN(path_add(f, "Z", NULL, 0), cairo_close_path(f->cr));
}

void pen_rect(fig *f, double x, double y, double w, double h)
{
    pen_move(f, x, y);
    pen_line(f, x + w, y);
    pen_line(f, x + w, y + h);
    pen_line(f, x, y + h);
    pen_close(f);
}

void pen_circle(fig *f, double cx, double cy, double r)
{
    PEN(svg_circle(f, cx, cy, r),
        (cairo_new_sub_path(f->cr), cairo_arc(f->cr, cx, cy, r, 0, 2 * M_PI)));
}

void pen_stroke(fig *f)
{
    PEN(path_end(f, false), cairo_stroke(f->cr));
}

void pen_fill(fig *f)
{
    PEN(path_end(f, true), cairo_fill(f->cr));
}

void pen_clip_rect(fig *f, fig_rect r)
{
    PEN(svg_clip_rect(f, r), (cairo_rectangle(f->cr, r.x, r.y, r.w, r.h), cairo_clip(f->cr)));
}

/* ---------------------------------------------------------------------------------------------
 * The document */

bool svg_begin(fig *f)
{
    f->svg = calloc(1, sizeof *f->svg);
    if (!f->svg)
        return false;
    f->svg->gs[0] = (svg_state){.width = 1.0};
    f->svg->open_panel = -1;
    FILE *fp = f->spec.fp;
    char w[40], h[40];
    num(w, sizeof w, f->spec.width);
    num(h, sizeof h, f->spec.height);
    fprintf(fp,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<svg xmlns=\"http://www.w3.org/2000/svg\" "
            "xmlns:xlink=\"http://www.w3.org/1999/xlink\" version=\"1.1\" width=\"%spt\" "
            "height=\"%spt\" viewBox=\"0 0 %s %s\">\n",
            w, h, w, h);
    put_element(fp, "title", NULL, f->meta.title);
    fputs("<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n", fp);
    return true;
}

tf_status svg_end(fig *f, const char *note)
{
    FILE *fp = f->spec.fp;
    for (int d = f->svg->depth; d >= 0; d--) /* every level's clips, the page's own the last */
        svg_restore(f);
    panel_leave(f);
    put_element(fp, "metadata", "tfviz-parameters", f->meta.params);
    put_element(fp, "metadata", "tfviz-heatmap", note);
    fputs("</svg>\n", fp);
    return f->svg->failed ? TF_ERR_NOMEM : ferror(fp) ? TF_ERR_IO : TF_OK;
}

/* ---------------------------------------------------------------------------------------------
 * Heatmaps */

static void base64(FILE *fp, const unsigned char *b, size_t n)
{
    static const char t[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (size_t i = 0; i < n; i += 3) {
        unsigned v = (unsigned)b[i] << 16 | (i + 1 < n ? (unsigned)b[i + 1] << 8 : 0) |
                     (i + 2 < n ? b[i + 2] : 0);
        fputc(t[v >> 18 & 63], fp);
        fputc(t[v >> 12 & 63], fp);
        fputc(i + 1 < n ? t[v >> 6 & 63] : '=', fp);
        fputc(i + 2 < n ? t[v & 63] : '=', fp);
    }
}

void svg_image(fig *f, const uint32_t *px, int w, int h, fig_rect dst, bool bottom_up)
{
    /* the rows in page order, as opaque ARGB32 for fig_png_write */
    uint32_t *rows = malloc((size_t)w * (size_t)h * 4);
    char *png = NULL;
    size_t png_len = 0;
    FILE *mem = open_memstream(&png, &png_len);
    for (int y = 0; rows && y < h; y++) {
        const uint32_t *src = px + (size_t)(bottom_up ? h - 1 - y : y) * w;
        for (int x = 0; x < w; x++)
            rows[(size_t)y * w + x] = src[x] | 0xff000000u;
    }
    fig_raster r = {.width = w, .height = h, .stride = w * 4, .data = (unsigned char *)rows,
                    .dpi = 72.0 * w / dst.w};
    tf_status st = rows && mem ? fig_png_write(mem, &r, &(fig_meta){0}) : TF_ERR_NOMEM;
    if ((mem && fclose(mem) != 0) || st != TF_OK) {
        f->svg->failed = true;
    } else {
        FILE *fp = f->spec.fp;
        fputs("<image", fp);
        put_box(fp, dst.x, dst.y, dst.w, dst.h);
        fputs(" preserveAspectRatio=\"none\" image-rendering=\"optimizeSpeed\" "
              "style=\"image-rendering:pixelated\" xlink:href=\"data:image/png;base64,", fp);
        base64(fp, (const unsigned char *)png, png_len);
        fputs("\"/>\n", fp);
    }
    free(png);
    free(rows);
}

/* ---------------------------------------------------------------------------------------------
 * Text */

/* One <tspan> for the bytes [s, e) of the layout's text under the attributes at ai. Its baseline
 * moves by dy (relative), never by an absolute y: an absolute position would start a new text
 * chunk, which SVG anchors (text-anchor) on its own, so the runs of a right-aligned label would
 * be drawn over each other. *cur is the baseline so far. */
static void put_run(FILE *fp, const char *text, int s, int e, PangoAttrIterator *ai, double size,
                    double baseline, double *cur)
{
    PangoAttribute *a = pango_attr_iterator_get(ai, PANGO_ATTR_RISE);
    double rise = a ? (double)((PangoAttrInt *)a)->value / PANGO_SCALE : 0;
    fputs("<tspan", fp);
    double dy = round((baseline - rise - *cur) * 100) / 100;
    if (dy != 0) {
        put_attr(fp, "dy", dy);
        *cur += dy;
    }
    if ((a = pango_attr_iterator_get(ai, PANGO_ATTR_SCALE)) && ((PangoAttrFloat *)a)->value != 1)
        put_attr(fp, "font-size", size * ((PangoAttrFloat *)a)->value);
    if ((a = pango_attr_iterator_get(ai, PANGO_ATTR_STYLE)) &&
        ((PangoAttrInt *)a)->value != PANGO_STYLE_NORMAL)
        fputs(" font-style=\"italic\"", fp);
    if ((a = pango_attr_iterator_get(ai, PANGO_ATTR_WEIGHT)) &&
        ((PangoAttrInt *)a)->value >= PANGO_WEIGHT_SEMIBOLD)
        fputs(" font-weight=\"bold\"", fp);
    fputc('>', fp);
    put_escaped(fp, text + s, (size_t)(e - s));
    fputs("</tspan>", fp);
}

void svg_layout(fig *f, double x, double y, double ax, double ay, bool vertical, tf_rgb c)
{
    FILE *fp = f->spec.fp;
    const char *text = pango_layout_get_text(f->layout);
    PangoAttrList *attrs = pango_layout_get_attributes(f->layout); /* none: an empty list */
    attrs = attrs ? pango_attr_list_ref(attrs) : pango_attr_list_new();
    PangoRectangle logical;
    pango_layout_get_extents(f->layout, NULL, &logical);
    double w = (double)logical.width / PANGO_SCALE, h = (double)logical.height / PANGO_SCALE;
    double size = pango_font_description_get_size(pango_layout_get_font_description(f->layout)) /
                  (double)PANGO_SCALE;
    char tx[40], ty[40]; /* a vertical label is turned about its point */
    num(tx, sizeof tx, x);
    num(ty, sizeof ty, y);
    double ox = vertical ? 0 : x, oy = vertical ? 0 : y; /* the label's point, locally */
    int side = ax < 0.25 ? 0 : ax > 0.75 ? 2 : 1; /* lines anchored at their start, middle, end */
    PangoLayoutIter *it = pango_layout_get_iter(f->layout);
    do {
        PangoLayoutLine *line = pango_layout_iter_get_line_readonly(it);
        PangoRectangle lr;
        pango_layout_iter_get_line_extents(it, NULL, &lr);
        double by = oy - ay * h + (double)pango_layout_iter_get_baseline(it) / PANGO_SCALE;
        double lx = ox - ax * w + (double)(lr.x - logical.x) / PANGO_SCALE;
        if (line->length == 0)
            continue;
        fputs("<text", fp);
        if (vertical)
            fprintf(fp, " transform=\"translate(%s %s) rotate(-90)\"", tx, ty);
        fputs(" xml:space=\"preserve\" font-family=\"", fp);
        put_families(fp, f->family);
        fputc('"', fp);
        put_attr(fp, "font-size", size);
        put_color(fp, "fill", c);
        put_attr(fp, "x", lx + side * ((double)lr.width / PANGO_SCALE) / 2);
        put_attr(fp, "y", by);
        if (side)
            fprintf(fp, " text-anchor=\"%s\"", side == 2 ? "end" : "middle");
        fputc('>', fp);
        /* a <tspan> per run of attributes within the line */
        int s0 = line->start_index, e0 = line->start_index + line->length;
        PangoAttrIterator *ai = pango_attr_list_get_iterator(attrs);
        double cur = by; /* the <text>'s own baseline */
        do {
            int s, e;
            pango_attr_iterator_range(ai, &s, &e);
            s = s < s0 ? s0 : s;
            e = e > e0 ? e0 : e;
            if (e > s)
                put_run(fp, text, s, e, ai, size, by, &cur);
        } while (pango_attr_iterator_next(ai));
        pango_attr_iterator_destroy(ai);
        fputs("</text>\n", fp);
    } while (pango_layout_iter_next_line(it));
    pango_layout_iter_free(it);
    pango_attr_list_unref(attrs);
}
