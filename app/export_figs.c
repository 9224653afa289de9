/* export_figs.c — the eight figures. Every number comes from model/ (the analysis, posenc,
 * rope); this file chooses panels, labels and colour scales, and never computes the math. */
#include "export_figs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit.h"
#include "pca.h"
#include "posenc.h"
#include "print.h"
#include "rope.h"
#include "tf_limits.h"
#include "utf8.h"

#define MAX_CELLS (16L * 1024 * 1024) /* cells of one heatmap: 64 MB of float32 */
#define MAX_SIDE 32767L               /* cells along one side (cairo's image limit) */
#define CURVE_SAMPLES 2000            /* points of one curve at most */

static const char *L(const fig_ctx *c, const char *en, const char *zh) { return c->zh ? zh : en; }

/* ---------------------------------------------------------------------------------------------
 * Helpers */

/* The colour scale: --colormap, else diverging (RdBu) for signed data and viridis otherwise;
 * a diverging map is always centred on 0 with a symmetric range. */
static cmap_id color_scale(const fig_ctx *c, double mn, double mx, double *lo, double *hi)
{
    bool sign = mn < 0.0 && mx > 0.0;
    cmap_id cm = c->cmap != CMAP_COUNT ? c->cmap : sign ? CMAP_RDBU : CMAP_VIRIDIS;
    if (colormap_diverging(cm)) {
        double m = fmax(fabs(mn), fabs(mx));
        *lo = -m;
        *hi = m;
    } else {
        *lo = mn;
        *hi = mx;
    }
    if (!(*hi > *lo)) {
        *lo -= 1.0;
        *hi += 1.0;
    }
    return cm;
}

static void minmax(const double *v, size_t n, double *mn, double *mx)
{
    *mn = INFINITY;
    *mx = -INFINITY;
    for (size_t i = 0; i < n; i++) {
        *mn = fmin(*mn, v[i]);
        *mx = fmax(*mx, v[i]);
    }
}

/* Axes for a (rows, cols) matrix whose cell centres sit at whole numbers from r0 and c0;
 * row r0 at the top. */
static void matrix_axes(fig_axes *ax, long rows, long r0, long cols, long c0)
{
    memset(ax, 0, sizeof *ax);
    ax->x = (fig_axis){.lo = c0 - 0.5, .hi = c0 + cols - 0.5, .integer = true};
    ax->y = (fig_axis){.lo = r0 - 0.5, .hi = r0 + rows - 0.5, .integer = true, .flip = true};
    ax->frame = true;
}

/* Whether a code point has no glyph in the figure fonts (Noto Sans CJK, DejaVu Sans), or none
 * that shows on its own: emoji and other pictographs, variation selectors, joiners, private use,
 * tags. Such a character is labelled by its code point. */
static bool glyphless(uint32_t cp)
{
    return (cp >= 0x200B && cp <= 0x200F) || (cp >= 0xE000 && cp <= 0xF8FF) ||
           (cp >= 0xFE00 && cp <= 0xFE0F) || cp == 0xFEFF ||
           (cp >= 0x10000 && (cp < 0x20000 || cp > 0x3FFFF)); /* beyond the CJK extensions */
}

/* A token as pango markup, at most n bytes with its NUL: entities escaped, a space shown as
 * U+2423; bytes that are not UTF-8 (part of a character, from a byte-level BPE) and controls as
 * \xHH, as --print shows them; a character without a glyph as U+XXXX. What does not fit ends
 * in "…", never inside a character. */
static void token_markup(char *out, size_t n, const char *s, size_t len)
{
    static const char more[] = "\u2026";
    size_t o = 0;
    for (size_t i = 0; i < len;) {
        uint32_t cp = 0;
        size_t k = utf8_decode(s + i, len - i, &cp);
        char rep[16];
        if (k == 0 || cp < 0x20 || cp == 0x7f) {
            snprintf(rep, sizeof rep, "\\x%02X", (unsigned char)s[i]);
            k = 1;
        } else if (glyphless(cp)) {
            snprintf(rep, sizeof rep, "U+%04X", (unsigned)cp);
        } else {
            const char *e = cp == '&' ? "&amp;" : cp == '<' ? "&lt;" : cp == '>' ? "&gt;"
                          : cp == ' ' ? "\u2423" : NULL;
            if (e) {
                snprintf(rep, sizeof rep, "%s", e);
            } else {
                memcpy(rep, s + i, k);
                rep[k] = '\0';
            }
        }
        size_t l = strlen(rep);
        bool last = i + k >= len;
        /* room for this piece, and for "…" unless it is the last one */
        if (o + l + (last ? 0 : sizeof more - 1) + 1 > n) {
            if (o + sizeof more <= n) {
                memcpy(out + o, more, sizeof more - 1);
                o += sizeof more - 1;
            }
            break;
        }
        memcpy(out + o, rep, l);
        o += l;
        i += k;
    }
    if (n)
        out[o] = '\0';
}

/* Tick labels for the tokens of a sentence, one per row or column. */
typedef struct {
    int n;
    double *at;
    char **labels;
    char *store;
} token_ticks;

#define TOKEN_LABEL 96

static tf_status token_ticks_make(token_ticks *tt, const tf_tokens *toks, const char *text,
                                  long first, bool with_id)
{
    int n = (int)toks->n;
    tt->n = n;
    tt->at = malloc((size_t)n * sizeof *tt->at);
    tt->labels = malloc((size_t)n * sizeof *tt->labels);
    tt->store = malloc((size_t)n * TOKEN_LABEL);
    if (!tt->at || !tt->labels || !tt->store)
        return TF_ERR_NOMEM;
    for (int t = 0; t < n; t++) {
        const tf_token *k = &toks->items[t];
        char tok[40];
        token_markup(tok, sizeof tok, text + k->start, k->end - k->start);
        tt->labels[t] = tt->store + (size_t)t * TOKEN_LABEL;
        if (with_id)
            snprintf(tt->labels[t], TOKEN_LABEL, "%s <span size=\"smaller\">#%d%s</span>", tok,
                     k->id, k->flags & TOKEN_UNK ? " [UNK]" : "");
        else
            snprintf(tt->labels[t], TOKEN_LABEL, "%s", tok);
        tt->at[t] = (double)(first + t);
    }
    return TF_OK;
}

static void token_ticks_free(token_ticks *tt)
{
    free(tt->at);
    free(tt->labels);
    free(tt->store);
}

static void set_token_axis(fig_axis *ax, const token_ticks *tt)
{
    ax->n = tt->n;
    ax->at = tt->at;
    ax->labels = (const char *const *)tt->labels;
}

static fig_rect colorbar_rect(const fig_axes *ax)
{
    return (fig_rect){ax->r.x + ax->r.w, ax->r.y, ax->right, ax->r.h};
}

/* Make the plot area square by narrowing (or shortening) outer and fitting again. */
static void fit_square(fig *f, fig_axes *ax, fig_rect outer)
{
    fig_axes_fit(f, ax, outer);
    double extra = ax->r.w - ax->r.h;
    if (extra > 0) {
        outer.x += extra / 2;
        outer.w -= extra;
    } else {
        outer.h += extra;
    }
    fig_axes_fit(f, ax, outer);
}

static const char *heatmap_check(long rows, long cols, const char *what)
{
    static char why[160];
    if (rows > MAX_SIDE || cols > MAX_SIDE || rows * cols > MAX_CELLS) {
        snprintf(why, sizeof why, "the %s figure draws one cell per value and %ld x %ld is too "
                 "many; use -n and -d so that n x d stays under 16,777,216", what, rows, cols);
        return why;
    }
    return NULL;
}

/* ---------------------------------------------------------------------------------------------
 * pe: PE(pos, j), positions x dimensions (C7) */

static const char *check_pe(const tf_config *cfg)
{
    return heatmap_check(cfg->n_positions, cfg->d_model, "pe");
}

static tf_status draw_pe(fig_ctx *c)
{
    const tf_config *cfg = &c->a->cfg;
    long n = cfg->n_positions, pos0 = cfg->index_base;
    int d = cfg->d_model;
    float *pe = malloc((size_t)n * (size_t)d * sizeof *pe); /* (n, d) */
    if (!pe)
        return TF_ERR_NOMEM;
    posenc_fill_f32(pos0, n, d, cfg->base, pe);
    /* sin and cos lie in [-1, 1]: the scale is the function's range, not the sample's */
    double lo, hi;
    cmap_id cm = color_scale(c, -1.0, 1.0, &lo, &hi);
    fig_axes ax;
    matrix_axes(&ax, n, pos0, d, 0);
    ax.x.label = L(c, "dimension <i>j</i>", "维度 <i>j</i>");
    ax.y.label = L(c, "position <i>pos</i>", "位置 <i>pos</i>");
    const char *cb = "PE(<i>pos</i>, <i>j</i>)";
    ax.right = fig_colorbar_width(c->f, lo, hi, cb);
    fig_axes_fit(c->f, &ax, c->area);
    tf_status st = fig_heatmap(c->f, &ax, &(fig_matrix){.f32 = pe, .rows = n, .cols = d}, cm,
                               lo, hi);
    free(pe);
    fig_axes_draw(c->f, &ax);
    fig_colorbar(c->f, colorbar_rect(&ax), cm, lo, hi, cb);
    return st;
}

/* ---------------------------------------------------------------------------------------------
 * dot: PE(p) . PE(q) between positions (C9, C10) */

/* The dot figure's n x n matrix: float64 values, the image and its indices, 13 bytes a cell
 * (55 MB at 2048). */
#define DOT_FIGURE_POSITIONS 2048

static const char *check_dot(const tf_config *cfg)
{
    static char why[200];
    double work = print_dot_work((double)cfg->n_positions, cfg->d_model);
    if (cfg->n_positions > DOT_FIGURE_POSITIONS)
        return "the dot figure draws an n x n matrix: use -n 2048 or fewer (--print dot gives "
               "the numbers for up to 4096)";
    if (work > TF_MAX_WORK) {
        snprintf(why, sizeof why, "the dot figure at -n %ld -d %d would take about %.0f s (the "
                 "limit is %.0f s); lower -n or -d", cfg->n_positions, cfg->d_model, work / 1e9,
                 TF_MAX_WORK / 1e9);
        return why;
    }
    return NULL;
}

static tf_status draw_dot(fig_ctx *c)
{
    const tf_config *cfg = &c->a->cfg;
    long n = cfg->n_positions, pos0 = cfg->index_base;
    double *g = malloc((size_t)n * (size_t)n * sizeof *g); /* (n, n) */
    if (!g)
        return TF_ERR_NOMEM;
    tf_status st = posenc_gram(pos0, n, cfg->d_model, cfg->base, g);
    if (st != TF_OK) {
        free(g);
        return st;
    }
    double mn, mx, lo, hi;
    minmax(g, (size_t)(n * n), &mn, &mx);
    cmap_id cm = color_scale(c, mn, mx, &lo, &hi);
    fig_axes ax;
    matrix_axes(&ax, n, pos0, n, pos0);
    ax.x.label = L(c, "position <i>q</i>", "位置 <i>q</i>");
    ax.y.label = L(c, "position <i>p</i>", "位置 <i>p</i>");
    const char *cb = "PE(<i>p</i>) ⋅ PE(<i>q</i>)";
    ax.right = fig_colorbar_width(c->f, lo, hi, cb);
    fit_square(c->f, &ax, c->area);
    st = fig_heatmap(c->f, &ax, &(fig_matrix){.f64 = g, .rows = n, .cols = n}, cm, lo, hi);
    free(g);
    fig_axes_draw(c->f, &ax);
    fig_colorbar(c->f, colorbar_rect(&ax), cm, lo, hi, cb);
    return st;
}

/* ---------------------------------------------------------------------------------------------
 * freq: w_i and wavelengths per pair (log axis), and a few PE dimensions across positions (C8) */

static tf_status draw_freq(fig_ctx *c)
{
    const tf_config *cfg = &c->a->cfg;
    int h = cfg->d_model / 2;
    long n = cfg->n_positions, pos0 = cfg->index_base;
    const double *omega = c->a->omega; /* (h) from posenc_freqs */
    long ns = n * 8 < CURVE_SAMPLES ? n * 8 : CURVE_SAMPLES;
    if (ns < 2)
        ns = 2;
    double *xi = malloc((size_t)h * sizeof *xi), *wl = malloc((size_t)h * sizeof *wl);
    double *xs = malloc((size_t)ns * sizeof *xs), *ys = malloc((size_t)ns * sizeof *ys);
    if (!xi || !wl || !xs || !ys) {
        free(xi), free(wl), free(xs), free(ys);
        return TF_ERR_NOMEM;
    }
    for (int i = 0; i < h; i++) {
        xi[i] = i;
        wl[i] = 2.0 * M_PI / omega[i];
    }
    /* stacked on a tall page, side by side on a wide one */
    fig_rect top = c->area, bottom = c->area;
    bool wide = c->area.w > 1.6 * c->area.h;
    if (wide) {
        top.w = c->area.w * 0.5;
        bottom.x = top.x + top.w + 0.6 * fig_font_size(c->f, FIG_LABEL);
        bottom.w = c->area.x + c->area.w - bottom.x;
    } else {
        top.h = c->area.h * 0.5;
        bottom.y = top.y + top.h;
        bottom.h = c->area.h - top.h;
    }

    /* upper panel: w_i falls and the wavelength grows geometrically */
    fig_legend_item li[2] = {
        {.label = "ω<sub><i>i</i></sub>", .color = fig_series_color(0)},
        {.label = L(c, "2π / ω<sub><i>i</i></sub>", "波长 2π / ω<sub><i>i</i></sub>"),
         .color = fig_series_color(1), .dash = FIG_DASHED},
    };
    fig_axes a1 = {.grid = true};
    a1.x = (fig_axis){.lo = 0, .hi = h > 1 ? h - 1 : 1, .integer = true,
                      .label = L(c, "pair <i>i</i> (dimensions 2<i>i</i>, 2<i>i</i>+1)",
                                 "维度对 <i>i</i>（第 2<i>i</i>、2<i>i</i>+1 维）")};
    /* the decade below the lowest frequency: w_0 = 1 sits above the axis, not on it */
    a1.y = (fig_axis){.log = true, .lo = pow(10.0, floor(log10(omega[h - 1]) - 1e-9)),
                      .hi = pow(10.0, ceil(log10(wl[h - 1]))),
                      .label = L(c, "frequency, wavelength", "频率与波长")};
    if (a1.y.hi <= a1.y.lo * 10)
        a1.y.hi = a1.y.lo * 100;

    /* lower panel: a fast, a middle and a slow pair across positions */
    int pick[4] = {0, 1, 2 * (h / 8), 2 * (h / 4)};
    int np = 2;
    for (int k = 2; k < 4; k++)
        if (pick[k] > pick[np - 1])
            pick[np++] = pick[k];
    char lab[4][64];
    fig_legend_item l2[4];
    for (int k = 0; k < np; k++) {
        snprintf(lab[k], sizeof lab[k], "<i>j</i> = %d (%s)", pick[k], pick[k] % 2 ? "cos" : "sin");
        l2[k] = (fig_legend_item){.label = lab[k], .color = fig_series_color(k == 1 ? 0 : k + 1),
                                  .dash = k == 1 ? FIG_DASHED : FIG_SOLID};
    }
    fig_axes a2 = {.grid = true};
    a2.x = (fig_axis){.lo = pos0, .hi = pos0 + (n > 1 ? n - 1 : 1), .integer = true,
                      .label = L(c, "position <i>pos</i>", "位置 <i>pos</i>")};
    a2.y = (fig_axis){.lo = -1.1, .hi = 1.1, .label = "PE(<i>pos</i>, <i>j</i>)"};
    double lw = fmax(fig_legend_width(c->f, li, 2), fig_legend_width(c->f, l2, np));
    a1.right = a2.right = lw;
    if (!wide)
        top.h -= 0.3 * fig_font_size(c->f, FIG_LABEL);
    fig_axes_fit(c->f, &a1, top);
    fig_axes_fit(c->f, &a2, bottom);
    if (!wide) {
        a1.min_left = a2.min_left = fmax(a1.used_left, a2.used_left);
        fig_axes_fit(c->f, &a1, top);
        fig_axes_fit(c->f, &a2, bottom);
    }

    fig_axes_draw(c->f, &a1);
    double lwid = 0.065 * fig_font_size(c->f, FIG_LABEL); /* half a curve's width */
    fig_line(c->f, &a1, xi, omega, h, li[0].color, 2 * lwid, FIG_SOLID);
    fig_line(c->f, &a1, xi, wl, h, li[1].color, 2 * lwid, FIG_DASHED);
    if (h <= 16) { /* few pairs: each one a marker, and one pair (d = 2) is seen at all */
        double ms = 0.45 * fig_font_size(c->f, FIG_LABEL);
        fig_markers(c->f, &a1, xi, omega, h, li[0].color, ms);
        fig_markers(c->f, &a1, xi, wl, h, li[1].color, ms);
    }
    fig_legend(c->f, &a1, li, 2, 4);

    fig_axes_draw(c->f, &a2);
    fig_segment(c->f, &a2, a2.x.lo, 0, a2.x.hi, 0, (tf_rgb){150, 150, 150}, lwid, FIG_SOLID);
    for (int k = 0; k < np; k++) {
        for (long s = 0; s < ns; s++) {
            xs[s] = pos0 + (double)(n > 1 ? n - 1 : 1) * s / (ns - 1);
            ys[s] = posenc_value(xs[s], pick[k], cfg->d_model, cfg->base);
        }
        fig_line(c->f, &a2, xs, ys, ns, l2[k].color, 2 * lwid, l2[k].dash);
    }
    fig_legend(c->f, &a2, l2, np, 4);
    free(xi), free(wl), free(xs), free(ys);
    return TF_OK;
}

/* ---------------------------------------------------------------------------------------------
 * rope-decay: RoFormer's long-term decay bound against relative distance */

static tf_status draw_decay(fig_ctx *c)
{
    const tf_config *cfg = &c->a->cfg;
    long n = cfg->n_positions > 1 ? cfg->n_positions : 2;
    long ns = n < CURVE_SAMPLES ? n : CURVE_SAMPLES;
    double other = cfg->base == 500000.0 ? 10000.0 : 500000.0; /* LLaMA 1/2 vs Llama 3 */
    double *x = malloc((size_t)ns * sizeof *x), *y = malloc((size_t)ns * sizeof *y);
    double *y2 = malloc((size_t)ns * sizeof *y2);
    if (!x || !y || !y2) {
        free(x), free(y), free(y2);
        return TF_ERR_NOMEM;
    }
    double mx = 0;
    for (long s = 0; s < ns; s++) {
        x[s] = round((double)(n - 1) * s / (ns - 1));
        y[s] = rope_decay_bound(cfg->d_model, cfg->base, x[s]);
        y2[s] = rope_decay_bound(cfg->d_model, other, x[s]);
        mx = fmax(mx, fmax(y[s], y2[s]));
    }
    char l0[96], l1[96];
    snprintf(l0, sizeof l0, "%s %g, <i>d</i> = %d", L(c, "base", "基数"), cfg->base,
             cfg->d_model);
    snprintf(l1, sizeof l1, "%s %g", L(c, "base", "基数"), other);
    fig_legend_item li[2] = {{.label = l0, .color = fig_series_color(0)},
                             {.label = l1, .color = fig_series_color(1), .dash = FIG_DASHED}};
    fig_axes ax = {.grid = true};
    ax.x = (fig_axis){.lo = 0, .hi = (double)(n - 1), .integer = true,
                      .label = L(c, "relative distance <i>m</i> − <i>n</i>",
                                 "相对距离 <i>m</i> − <i>n</i>")};
    ax.y = (fig_axis){.lo = 0, .hi = mx * 1.05,
                      .label = L(c, "(2/<i>d</i>) Σ<sub><i>j</i></sub> |<i>S</i><sub><i>j</i></sub>|",
                                 "衰减上界 (2/<i>d</i>) Σ<sub><i>j</i></sub> |<i>S</i><sub><i>j</i></sub>|")};
    fig_axes_fit(c->f, &ax, c->area);
    fig_axes_draw(c->f, &ax);
    double lw = 0.13 * fig_font_size(c->f, FIG_LABEL);
    fig_line(c->f, &ax, x, y2, ns, li[1].color, lw, FIG_DASHED);
    fig_line(c->f, &ax, x, y, ns, li[0].color, lw, FIG_SOLID);
    /* top right, where the curves have decayed, unless they stay high there (small d) */
    double right_min = INFINITY;
    for (long i = ns / 2; i < ns; i++)
        right_min = fmin(right_min, fmin(y[i], y2[i]));
    fig_legend(c->f, &ax, li, 2, right_min > 0.5 * mx ? 3 : 1);
    free(x), free(y), free(y2);
    return TF_OK;
}

/* ---------------------------------------------------------------------------------------------
 * rope: cos(m theta_i) over positions x pairs, and one pair of q turning with the position */

#define ROPE_ARROWS 8

static const char *check_rope(const tf_config *cfg)
{
    return heatmap_check(cfg->n_positions, cfg->d_model / 2, "rope");
}

static tf_status draw_rope(fig_ctx *c)
{
    const tf_analysis *A = c->a;
    const tf_config *cfg = &A->cfg;
    int d = cfg->d_model, h = d / 2;
    long n = cfg->n_positions, pos0 = cfg->index_base;
    double *cosm = malloc((size_t)n * (size_t)h * sizeof *cosm); /* (n, h) */
    double *unit = calloc((size_t)d, sizeof *unit), *rot = malloc((size_t)d * sizeof *rot);
    int *first = malloc((size_t)h * sizeof *first);
    if (!cosm || !unit || !rot || !first) {
        free(cosm), free(unit), free(rot), free(first);
        return TF_ERR_NOMEM;
    }
    /* R_m applied to a vector with 1 in the first slot of every pair leaves (cos, sin) of
     * m theta_i in pair i: the rotation itself, read back through rope_rotate */
    for (int i = 0; i < h; i++) {
        int ia, ib;
        rope_pair(cfg->rope, d, i, &ia, &ib);
        unit[ia] = 1.0;
        first[i] = ia;
    }
    for (long m = 0; m < n; m++) {
        rope_rotate(unit, d, cfg->base, (double)(pos0 + m), cfg->rope, rot);
        for (int i = 0; i < h; i++)
            cosm[(size_t)m * h + i] = rot[first[i]];
    }
    double lo, hi;
    cmap_id cm = color_scale(c, -1.0, 1.0, &lo, &hi);
    /* stacked on a tall page, side by side on a wide one */
    fig_rect top = c->area, bottom = c->area;
    double gap = 0.4 * fig_font_size(c->f, FIG_LABEL);
    if (c->area.w > 1.6 * c->area.h) {
        top.w = c->area.w * 0.62;
        bottom.x = top.x + top.w + gap;
        bottom.w = c->area.x + c->area.w - bottom.x;
    } else {
        top.h = c->area.h * 0.56;
        bottom.y = top.y + top.h + gap;
        bottom.h = c->area.y + c->area.h - bottom.y;
    }

    fig_axes a1;
    matrix_axes(&a1, n, pos0, h, 0);
    char xl[128];
    snprintf(xl, sizeof xl, "%s (%s)", L(c, "pair <i>i</i>", "维度对 <i>i</i>"),
             cfg->rope == ROPE_HALF ? L(c, "dims <i>i</i>, <i>i</i>+<i>d</i>/2", "第 <i>i</i>、<i>i</i>+<i>d</i>/2 维")
                                    : L(c, "dims 2<i>i</i>, 2<i>i</i>+1", "第 2<i>i</i>、2<i>i</i>+1 维"));
    a1.x.label = xl;
    a1.y.label = L(c, "position <i>m</i>", "位置 <i>m</i>");
    char t1[160];
    snprintf(t1, sizeof t1, "%s, %s, base %g", L(c, "rotation cos(<i>m</i>θ<sub><i>i</i></sub>)",
             "旋转角 cos(<i>m</i>θ<sub><i>i</i></sub>)"),
             cfg->rope == ROPE_HALF ? "half (rotate_half)" : "interleaved", cfg->base);
    a1.title = t1;
    const char *cb = "cos(<i>m</i>θ<sub><i>i</i></sub>)";
    a1.right = fig_colorbar_width(c->f, lo, hi, cb);
    fig_axes_fit(c->f, &a1, top);
    tf_status st = fig_heatmap(c->f, &a1, &(fig_matrix){.f64 = cosm, .rows = n, .cols = h}, cm,
                               lo, hi);
    fig_axes_draw(c->f, &a1);
    fig_colorbar(c->f, colorbar_rect(&a1), cm, lo, hi, cb);

    /* lower panel: pair 0 of q (the first token) at positions pos0 .. pos0+7 */
    int ia, ib;
    rope_pair(cfg->rope, d, 0, &ia, &ib);
    const double *q = A->q; /* (T, d): row 0, before rotation */
    double R = hypot(q[ia], q[ib]);
    if (!(R > 0))
        R = 1.0;
    double lim = 1.35 * R;
    char tok[40], t2[200], xl2[64], yl2[64];
    token_markup(tok, sizeof tok, A->text + A->tokens.items[0].start,
                 A->tokens.items[0].end - A->tokens.items[0].start);
    long M = n < ROPE_ARROWS ? n : ROPE_ARROWS;
    if (c->zh)
        snprintf(t2, sizeof t2, "<i>q</i>(%s) 的第 0 对在位置 %ld–%ld", tok, pos0, pos0 + M - 1);
    else
        snprintf(t2, sizeof t2, "pair 0 of <i>q</i>(%s) at positions %ld–%ld", tok, pos0,
                 pos0 + M - 1);
    snprintf(xl2, sizeof xl2, "<i>q</i><sub>%d</sub>", ia);
    snprintf(yl2, sizeof yl2, "<i>q</i><sub>%d</sub>", ib);
    fig_axes a2 = {.frame = true, .title = t2};
    a2.x = (fig_axis){.lo = -lim, .hi = lim, .label = xl2};
    a2.y = (fig_axis){.lo = -lim, .hi = lim, .label = yl2};
    fit_square(c->f, &a2, bottom);
    fig_axes_draw(c->f, &a2);
    double lw = 0.075 * fig_font_size(c->f, FIG_LABEL);
    tf_rgb guide = {170, 170, 170};
    fig_segment(c->f, &a2, -lim, 0, lim, 0, guide, lw, FIG_SOLID);
    fig_segment(c->f, &a2, 0, -lim, 0, lim, guide, lw, FIG_SOLID);
    fig_circle(c->f, &a2, 0, 0, R, guide, lw, FIG_DASHED);
    for (long m = 0; m < M; m++) {
        rope_rotate(q, d, cfg->base, (double)(pos0 + m), cfg->rope, rot);
        tf_rgb col = colormap_at(CMAP_VIRIDIS, M > 1 ? 0.85 * m / (M - 1) : 0.0);
        fig_arrow(c->f, &a2, 0, 0, rot[ia], rot[ib], col, 2 * lw,
                  0.9 * fig_font_size(c->f, FIG_TICK));
        char ml[24];
        snprintf(ml, sizeof ml, "%ld", pos0 + m);
        double s = 1.17;
        fig_text(c->f, FIG_TICK, ml, true, fig_px(&a2, rot[ia] * s), fig_py(&a2, rot[ib] * s), 0.5,
                 0.5, false);
    }
    free(cosm), free(unit), free(rot), free(first);
    return st;
}

/* ---------------------------------------------------------------------------------------------
 * input: per token X_emb, PE(pos) and X_input = X_emb + PE (C11) */

static tf_status draw_input(fig_ctx *c)
{
    tf_analysis *A = c->a;
    size_t T = A->tokens.n, d = (size_t)A->cfg.d_model;
    double *emb = malloc(T * d * sizeof *emb); /* (T, d) emb_scale * x_emb */
    token_ticks tt = {0};
    tf_status st = token_ticks_make(&tt, &A->tokens, A->text, 0, false);
    if (!emb || st != TF_OK) {
        free(emb);
        token_ticks_free(&tt);
        return TF_ERR_NOMEM;
    }
    for (size_t i = 0; i < T * d; i++)
        emb[i] = A->emb_scale * A->x_emb[i];
    const double *mats[3] = {emb, A->pe, A->x_input};
    double mn = INFINITY, mx = -INFINITY;
    for (int k = 0; k < 3; k++) {
        double a, b;
        minmax(mats[k], T * d, &a, &b);
        mn = fmin(mn, a);
        mx = fmax(mx, b);
    }
    double lo, hi;
    cmap_id cm = color_scale(c, mn, mx, &lo, &hi);
    const char *titles[3] = {
        A->cfg.scale_embedding ? "√<i>d</i> ⋅ <i>X</i><sub>emb</sub>" : "<i>X</i><sub>emb</sub>",
        L(c, "PE(<i>pos</i>)", "位置编码 PE(<i>pos</i>)"),
        A->cfg.scale_embedding ? "<i>X</i><sub>input</sub> = √<i>d</i> ⋅ <i>X</i><sub>emb</sub> + PE"
                               : "<i>X</i><sub>input</sub> = <i>X</i><sub>emb</sub> + PE",
    };
    const char *cb = L(c, "value", "数值");
    double cbw = fig_colorbar_width(c->f, lo, hi, cb);
    fig_axes ax[3];
    double gap = 0.3 * fig_font_size(c->f, FIG_LABEL), extra = 0, ph[3];
    for (int pass = 0; pass < 2; pass++) {
        /* pass 0 measures the room the bottom panel's x labels take and the widest left
         * margin; pass 1 gives the three plots equal heights and aligned left edges */
        double min_left = pass ? fmax(fmax(ax[0].used_left, ax[1].used_left), ax[2].used_left) : 0;
        if (pass)
            extra = ax[0].r.h - ax[2].r.h;
        ph[0] = ph[1] = (c->area.h - 2 * gap - extra) / 3;
        ph[2] = ph[0] + extra;
        double y = c->area.y;
        for (int k = 0; k < 3; k++) {
            matrix_axes(&ax[k], (long)T, 0, (long)d, 0);
            set_token_axis(&ax[k].y, &tt);
            ax[k].title = titles[k];
            ax[k].right = cbw;
            ax[k].min_left = min_left;
            ax[k].x.hide = k < 2;
            if (k == 2)
                ax[k].x.label = L(c, "dimension <i>j</i>", "维度 <i>j</i>");
            if (k == 1)
                ax[k].y.label = L(c, "token", "词元");
            fig_axes_fit(c->f, &ax[k], (fig_rect){c->area.x, y, c->area.w, ph[k]});
            y += ph[k] + gap;
        }
    }
    for (int k = 0; k < 3 && st == TF_OK; k++) {
        st = fig_heatmap(c->f, &ax[k], &(fig_matrix){.f64 = mats[k], .rows = (long)T,
                                                      .cols = (long)d}, cm, lo, hi);
        fig_axes_draw(c->f, &ax[k]);
    }
    fig_rect cbr = {ax[0].r.x + ax[0].r.w, ax[0].r.y, cbw, ax[2].r.y + ax[2].r.h - ax[0].r.y};
    fig_colorbar(c->f, cbr, cm, lo, hi, cb);
    free(emb);
    token_ticks_free(&tt);
    return st;
}

/* ---------------------------------------------------------------------------------------------
 * The 2-D map of learned word vectors (C5): the MAP_WORDS first rows of the vectors (files and
 * training rank them by frequency) projected on their two leading principal components. Labels
 * are placed in rank order and skipped where they would overlap one already placed. */

#define MAP_WORDS 60

static const char *check_word_map(const tf_config *cfg)
{
    if (!cfg->vectors || cfg->vectors->n < 2)
        return "the map of words needs learned vectors: add --vectors FILE (tfviz --train -o "
               "FILE writes one)";
    return NULL;
}

static tf_status draw_word_map(fig_ctx *c, fig_rect area, bool panel_title)
{
    const tf_vectors *v = c->vectors;
    size_t n = v->n < MAP_WORDS ? v->n : MAP_WORDS;
    double *xy = malloc(n * 2 * sizeof *xy), *px = malloc(n * sizeof *px),
           *py = malloc(n * sizeof *py), *boxes = malloc(n * 8 * sizeof *boxes);
    pca_result r;
    if (!xy || !px || !py || !boxes || pca_project2(v->data, n, v->dim, xy, &r) != TF_OK) {
        free(xy), free(px), free(py), free(boxes);
        return TF_ERR_NOMEM;
    }
    fig_axes ax = {0};
    double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
    for (size_t i = 0; i < n; i++) {
        px[i] = xy[2 * i], py[i] = xy[2 * i + 1];
        x0 = fmin(x0, px[i]), x1 = fmax(x1, px[i]), y0 = fmin(y0, py[i]), y1 = fmax(y1, py[i]);
    }
    double mx = 0.08 * (x1 - x0 + 1e-9), my = 0.06 * (y1 - y0 + 1e-9);
    ax.x.lo = x0 - mx, ax.x.hi = x1 + 2 * mx, ax.y.lo = y0 - my, ax.y.hi = y1 + my;
    char xl[80], yl[80], t[200];
    snprintf(xl, sizeof xl, c->zh ? "主成分 1（%.0f%% 方差）" : "PC 1 (%.0f%% of variance)",
             100.0 * r.var[0] / r.var_total);
    snprintf(yl, sizeof yl, c->zh ? "主成分 2（%.0f%% 方差）" : "PC 2 (%.0f%% of variance)",
             100.0 * r.var[1] / r.var_total);
    if (c->zh)
        snprintf(t, sizeof t, "学出来的词向量：最常见的 %zu 个词（d = %d）投影到二维", n, v->dim);
    else
        snprintf(t, sizeof t, "learned vectors: the %zu commonest words (d = %d) in 2-D", n,
                 v->dim);
    ax.x.label = xl, ax.y.label = yl, ax.frame = true;
    ax.title = panel_title ? t : NULL;
    fig_axes_fit(c->f, &ax, area);
    fig_axes_draw(c->f, &ax);
    fig_markers(c->f, &ax, px, py, (long)n, fig_series_color(0), 4);
    /* obstacles: every marker first, then each label placed; a label tries right, left, above
     * and below its point and is left out when all four overlap something */
    const double mr = 2.5; /* marker radius, points */
    size_t placed = 0;
    for (size_t i = 0; i < n; i++) {
        double *b = boxes + 4 * placed++;
        b[0] = fig_px(&ax, px[i]) - mr, b[1] = fig_py(&ax, py[i]) - mr, b[2] = b[3] = 2 * mr;
    }
    for (size_t i = 0; i < n; i++) {
        double w, h, X = fig_px(&ax, px[i]), Y = fig_py(&ax, py[i]);
        fig_text_size(c->f, FIG_TICK, v->words[i], true, &w, &h);
        const double cand[4][2] = {{X + mr + 1, Y - h / 2}, {X - mr - 1 - w, Y - h / 2},
                                   {X - w / 2, Y - mr - h}, {X - w / 2, Y + mr}};
        for (int k = 0; k < 4; k++) {
            double bx = cand[k][0], by = cand[k][1];
            bool free_spot = bx >= ax.r.x && bx + w <= ax.r.x + ax.r.w && by >= ax.r.y &&
                             by + h <= ax.r.y + ax.r.h;
            for (size_t j = 0; free_spot && j < placed; j++) {
                const double *o = boxes + 4 * j;
                free_spot = bx + w <= o[0] || o[0] + o[2] <= bx || by + h <= o[1] ||
                            o[1] + o[3] <= by;
            }
            if (!free_spot)
                continue;
            fig_text(c->f, FIG_TICK, v->words[i], true, bx, by, 0, 0, false);
            double *b = boxes + 4 * placed++;
            b[0] = bx, b[1] = by, b[2] = w, b[3] = h;
            break;
        }
    }
    pca_free(&r);
    free(xy), free(px), free(py), free(boxes);
    return TF_OK;
}

static tf_status draw_embedding_map(fig_ctx *c)
{
    if (!c->vectors || c->vectors->n < 2)
        return TF_ERR_RANGE;
    return draw_word_map(c, c->area, false);
}

/* ---------------------------------------------------------------------------------------------
 * embedding: the sentence's rows of W_E (C3, C4), and with learned vectors the map of words */

static tf_status draw_embedding(fig_ctx *c)
{
    fig_rect whole = c->area;
    if (c->vectors && c->vectors->n >= 2) { /* heatmap above, map below */
        c->area.h = whole.h * 0.38;
        fig_rect below = whole;
        below.y = whole.y + whole.h * 0.42;
        below.h = whole.h * 0.58;
        tf_status st = draw_word_map(c, below, true);
        if (st != TF_OK)
            return st;
    }
    tf_analysis *A = c->a;
    size_t T = A->tokens.n, d = (size_t)A->cfg.d_model;
    token_ticks tt = {0};
    if (token_ticks_make(&tt, &A->tokens, A->text, 0, true) != TF_OK) {
        token_ticks_free(&tt);
        return TF_ERR_NOMEM;
    }
    double mn = INFINITY, mx = -INFINITY;
    for (size_t i = 0; i < T * d; i++) {
        mn = fmin(mn, A->x_emb[i]);
        mx = fmax(mx, A->x_emb[i]);
    }
    double lo, hi;
    cmap_id cm = color_scale(c, mn, mx, &lo, &hi);
    fig_axes ax;
    matrix_axes(&ax, (long)T, 0, (long)d, 0);
    set_token_axis(&ax.y, &tt);
    ax.x.label = L(c, "dimension <i>j</i>", "维度 <i>j</i>");
    ax.y.label = L(c, "token, id", "词元与编号");
    char t[200];
    if (A->emb.n_set && c->zh)
        snprintf(t, sizeof t, "<i>W</i><sub>E</sub>（%u × %zu）中的行，%zu 个词的行来自训练/载入",
                 A->emb.vocab_size, d, A->emb.n_set);
    else if (A->emb.n_set)
        snprintf(t, sizeof t, "rows of <i>W</i><sub>E</sub> (%u × %zu), %zu words trained/loaded",
                 A->emb.vocab_size, d, A->emb.n_set);
    else if (c->zh)
        snprintf(t, sizeof t, "<i>W</i><sub>E</sub>（%u × %zu）中的行，训练前是随机数",
                 A->emb.vocab_size, d);
    else
        snprintf(t, sizeof t, "rows of <i>W</i><sub>E</sub> (%u × %zu), random until trained",
                 A->emb.vocab_size, d);
    ax.title = t;
    const char *cb = "<i>W</i><sub>E</sub>[id, <i>j</i>]";
    ax.right = fig_colorbar_width(c->f, lo, hi, cb);
    fig_axes_fit(c->f, &ax, c->area);
    tf_status st = fig_heatmap(c->f, &ax, &(fig_matrix){.f32 = A->x_emb, .rows = (long)T,
                                                         .cols = (long)d}, cm, lo, hi);
    fig_axes_draw(c->f, &ax);
    fig_colorbar(c->f, colorbar_rect(&ax), cm, lo, hi, cb);
    token_ticks_free(&tt);
    return st;
}

/* ---------------------------------------------------------------------------------------------
 * order: 我爱学习 vs 学习爱我 — attention without PE, with PE, with RoPE (C6) */

/* "tag: sentence" as a label at most max_len points long, the sentence shortened with "…". */
static void sentence_label(fig *f, char *out, size_t n, const char *tag, const char *s,
                           size_t len, double max_len)
{
    char buf[120];
    for (size_t cap = sizeof buf;; cap = cap * 4 / 5) {
        token_markup(buf, cap, s, len);
        snprintf(out, n, "%s: %s", tag, buf);
        double w, h;
        fig_text_size(f, FIG_LABEL, out, false, &w, &h);
        if (w <= max_len || cap < 12)
            return;
    }
}

/* Width of the widest of a token axis' first and last labels. */
static double edge_label_width(fig *f, const token_ticks *tt)
{
    double w0 = 0, w1 = 0, h;
    if (tt->n > 0) {
        fig_text_size(f, FIG_TICK, tt->labels[0], false, &w0, &h);
        fig_text_size(f, FIG_TICK, tt->labels[tt->n - 1], false, &w1, &h);
    }
    return fmax(w0, w1);
}

/* The reading of mode m for the column under its heatmaps: the longest of its forms that fits
 * in max_w x max_h points (one line, or two). */
static void order_reading(fig_ctx *c, int m, double max_w, double max_h, char *out, size_t n)
{
    const tf_order_result *r = &c->a->order[m];
    char p[32];
    emit_percent(p, sizeof p, r->relative_diff);
    const char *forms[4][2];
    char f1[96], f2[96], f3[96];
    if (attention_order_is_zero(r)) {
        forms[0][0] = "B = A, permuted", forms[0][1] = "B 即 A 的重排";
        forms[1][0] = "B = A,\npermuted", forms[1][1] = "B 即 A\n的重排";
        forms[2][0] = "permuted", forms[2][1] = "重排";
        forms[3][0] = "0", forms[3][1] = "0";
    } else {
        snprintf(f1, sizeof f1, c->zh ? "变化 max|<i>Z</i>| 的 %s" : "changes %s of max|<i>Z</i>|", p);
        snprintf(f2, sizeof f2, c->zh ? "变化 max|<i>Z</i>|\n的 %s" : "changes %s\nof max|<i>Z</i>|",
                 p);
        snprintf(f3, sizeof f3, c->zh ? "变化 %s" : "changes %s", p);
        forms[0][0] = forms[0][1] = f1;
        forms[1][0] = forms[1][1] = f2;
        forms[2][0] = forms[2][1] = f3;
        forms[3][0] = forms[3][1] = p;
    }
    for (int k = 0; k < 4; k++) {
        snprintf(out, n, "%s", forms[k][c->zh ? 1 : 0]);
        double w, h;
        fig_text_size(c->f, FIG_TICK, out, false, &w, &h);
        if (w <= max_w && h <= max_h)
            return;
    }
}

static tf_status draw_order(fig_ctx *c)
{
    tf_analysis *A = c->a;
    size_t T = A->tokens.n;
    token_ticks ta = {0}, tb = {0};
    if (token_ticks_make(&ta, &A->tokens, A->text, 0, false) != TF_OK ||
        token_ticks_make(&tb, &A->cmp_tokens, A->cmp_text, 0, false) != TF_OK) {
        token_ticks_free(&ta);
        token_ticks_free(&tb);
        return TF_ERR_NOMEM;
    }
    const char *mode_title[ATTN_MODE_COUNT] = {L(c, "no positions", "无位置信息"),
                                               L(c, "+ PE", "加 PE"), "RoPE"};
    /* weights are >= 0: a sequential map over the range the six matrices span */
    double mn = INFINITY, mx = -INFINITY, lo, hi;
    for (int m = 0; m < ATTN_MODE_COUNT; m++) {
        double a, b;
        minmax(A->order[m].A_a, T * T, &a, &b);
        mn = fmin(mn, a), mx = fmax(mx, b);
        minmax(A->order[m].A_b, T * T, &a, &b);
        mn = fmin(mn, a), mx = fmax(mx, b);
    }
    cmap_id cm = color_scale(c, mn, mx, &lo, &hi);
    const char *cb = L(c, "attention weight", "注意力权重");
    double fs = fig_font_size(c->f, FIG_LABEL);
    double cbw = fig_colorbar_width(c->f, lo, hi, cb);

    /* the note at the bottom: the head is random, so the mechanism is what is shown */
    static const char *const notes[3][2] = {
        {"One random, untrained head: LayerNorm(√<i>d</i> <i>x</i><sub>emb</sub> [+ PE]) → "
         "<i>q, k, v</i>.\nIt shows the mechanism, not what a trained model attends to.",
         "一个随机（未训练）的注意力头：LayerNorm(√<i>d</i> <i>x</i><sub>emb</sub> [+ PE]) → "
         "<i>q, k, v</i>。\n展示的是机制，不是训练后的模型关注什么。"},
        {"A random, untrained head (LayerNorm, √<i>d</i> <i>x</i><sub>emb</sub>):\nthe "
         "mechanism, not a trained model.",
         "随机（未训练）的注意力头（LayerNorm，√<i>d</i> <i>x</i><sub>emb</sub>）：\n展示机制，"
         "不是训练结果。"},
        {"Random, untrained head.", "随机（未训练）的注意力头。"},
    };
    const char *note = NULL;
    double nw, nh;
    for (int k = 0; k < 3; k++) {
        note = notes[k][c->zh ? 1 : 0];
        fig_text_size(c->f, FIG_NOTE, note, false, &nw, &nh);
        if (nw <= c->area.w)
            break;
    }
    fig_text(c->f, FIG_NOTE, note, false, c->area.x, c->area.y + c->area.h, 0, 1, false);
    fig_rect area = c->area;
    area.h -= nh + 0.4 * fs;

    /* sentence labels on the left, three square matrices per row, one colour bar */
    /* the two sentences in full width above the grid (shortened with "…" if need be); the
     * rows are labelled A and B */
    char la[160], lb[160];
    sentence_label(c->f, la, sizeof la, "A", A->text, A->text_len, area.w);
    sentence_label(c->f, lb, sizeof lb, "B", A->cmp_text, A->cmp_len, area.w);
    double lw, lh;
    fig_text_size(c->f, FIG_LABEL, la, false, &lw, &lh);
    fig_text(c->f, FIG_LABEL, la, false, area.x, area.y, 0, 0, false);
    fig_text(c->f, FIG_LABEL, lb, false, area.x, area.y + lh, 0, 0, false);
    double tw, th; /* two lines of readings under the grid, at most */
    fig_text_size(c->f, FIG_TICK, "0%\n0%", false, &tw, &th);
    fig_rect grid = area;
    grid.y += 2 * lh + 0.4 * fs;
    grid.h = (area.h - 2 * lh - 0.4 * fs - th) * 0.64;
    fig_axes ax[2][ATTN_MODE_COUNT];
    double gapx = 0.5 * fs, left = 0, cell = 0, extra[2] = {0, 0};
    for (int pass = 0; pass < 2; pass++) {
        /* pass 0 measures the left margin, pass 1 places equal squares */
        for (int r = 0; r < 2; r++)
            for (int m = 0; m < ATTN_MODE_COUNT; m++) {
                fig_axes *p = &ax[r][m];
                matrix_axes(p, (long)T, 0, (long)T, 0);
                set_token_axis(&p->x, r ? &tb : &ta);
                set_token_axis(&p->y, r ? &tb : &ta);
                p->y.hide = m > 0;
                p->y.label = m == 0 ? (r ? "B" : "A") : NULL;
                p->title = r == 0 ? mode_title[m] : NULL;
                p->min_left = m == 0 ? left : 0;
                double x0 = grid.x + (m == 0 ? 0 : left + m * (cell + gapx) - fig_tick_len(c->f));
                double w = m == 0 ? left + cell : cell + fig_tick_len(c->f);
                double rh = pass ? cell + extra[r] : grid.h / 2;
                double y0 = grid.y + (pass && r ? cell + extra[0] + 0.3 * fs : r * rh);
                fig_rect o = {x0, y0, pass ? w : grid.w / 3, rh};
                fig_axes_fit(c->f, p, o);
            }
        if (pass == 0) {
            left = fmax(ax[0][0].used_left, ax[1][0].used_left);
            double avail_w = (grid.w - left - cbw - 2 * gapx) / 3;
            double avail_h = fmin(ax[0][0].r.h, ax[1][0].r.h);
            cell = fmin(avail_w, avail_h);
            /* the gap keeps the last tick label of one square off the first of the next */
            double edge = fmax(edge_label_width(c->f, &ta), edge_label_width(c->f, &tb));
            double need = edge + 0.4 * fs - cell / (double)T;
            if (need > gapx) {
                gapx = need;
                cell = fmin((grid.w - left - cbw - 2 * gapx) / 3, avail_h);
            }
            /* titles and tick labels around each row's squares */
            extra[0] = grid.h / 2 - ax[0][0].r.h;
            extra[1] = grid.h / 2 - ax[1][0].r.h;
            grid.h = 2 * cell + extra[0] + extra[1] + 0.3 * fs;
        }
    }
    tf_status st = TF_OK;
    for (int r = 0; r < 2; r++)
        for (int m = 0; m < ATTN_MODE_COUNT && st == TF_OK; m++) {
            fig_axes *p = &ax[r][m];
            p->r.w = p->r.h = cell;
            const double *W = r ? A->order[m].A_b : A->order[m].A_a; /* (T, T) */
            st = fig_heatmap(c->f, p, &(fig_matrix){.f64 = W, .rows = (long)T, .cols = (long)T},
                             cm, lo, hi);
            fig_axes_draw(c->f, p);
        }
    fig_rect cbr = {ax[0][2].r.x + cell, ax[0][2].r.y, cbw, ax[1][2].r.y + cell - ax[0][2].r.y};
    fig_colorbar(c->f, cbr, cm, lo, hi, cb);

    /* under each column, one line: what the mode shows */
    double ry = grid.y + grid.h + 0.15 * fs, used = 0;
    double one_w, one_h;
    fig_text_size(c->f, FIG_TICK, "0%", false, &one_w, &one_h);
    for (int m = 0; m < ATTN_MODE_COUNT; m++) {
        char rd[128];
        double w, h;
        order_reading(c, m, cell + gapx - 0.2 * fs, th, rd, sizeof rd);
        fig_text_size(c->f, FIG_TICK, rd, false, &w, &h);
        fig_text(c->f, FIG_TICK, rd, false, ax[1][m].r.x + cell / 2, ry, 0.5, 0, false);
        used = fmax(used, h);
    }
    ry += fmax(used, one_h);

    /* below: per token of B, max |Z_B - Z_A| against the same token in A, as a share of
     * max |Z_A|; without positions it is 0 up to rounding, so it has no bars */
    double top = 0.0;
    for (int m = 0; m < ATTN_MODE_COUNT; m++)
        for (size_t t = 0; t < T && !attention_order_is_zero(&A->order[m]); t++)
            top = fmax(top, 100.0 * A->order[m].token_diff[t] / A->order[m].max_abs_output);
    fig_rect br = {area.x, ry + 0.5 * fs, area.w, area.y + area.h - (ry + 0.5 * fs)};
    fig_legend_item li[ATTN_MODE_COUNT];
    char zero_label[ATTN_MODE_COUNT][96];
    for (int m = 0; m < ATTN_MODE_COUNT; m++) {
        snprintf(zero_label[m], sizeof zero_label[m], c->zh ? "%s：0" : "%s: 0", mode_title[m]);
        li[m] = (fig_legend_item){.label = attention_order_is_zero(&A->order[m]) ? zero_label[m]
                                                                                : mode_title[m],
                                  .color = fig_series_color(m), .bar = true};
    }
    fig_axes b = {.grid = true};
    b.x = (fig_axis){.lo = -0.5, .hi = T - 0.5, .n = tb.n, .at = tb.at,
                     .labels = (const char *const *)tb.labels,
                     .label = L(c, "token of B", "B 中的词元")};
    b.y = (fig_axis){.lo = 0.0, .hi = top > 0 ? top * 1.08 : 1.0,
                     .label = L(c, "Δ<i>Z</i>, % of max|<i>Z</i><sub>A</sub>|",
                                "Δ<i>Z</i> 占 max|<i>Z</i><sub>A</sub>| 的 %")};
    b.right = fig_legend_width(c->f, li, ATTN_MODE_COUNT);
    b.min_left = left;
    fig_axes_fit(c->f, &b, br);
    fig_axes_draw(c->f, &b);
    /* the modes that changed, side by side at each token */
    int nbar = 0;
    for (int m = 0; m < ATTN_MODE_COUNT; m++)
        nbar += !attention_order_is_zero(&A->order[m]);
    double bw = 0.8 / (nbar ? nbar : 1);
    for (size_t t = 0; t < T; t++)
        for (int m = 0, k = 0; m < ATTN_MODE_COUNT; m++) {
            const tf_order_result *r = &A->order[m];
            if (attention_order_is_zero(r))
                continue;
            double x0 = t - 0.4 + k++ * bw;
            fig_bar(c->f, &b, x0, x0 + bw * 0.92, 0.0, 100.0 * r->token_diff[t] / r->max_abs_output,
                    li[m].color);
        }
    fig_legend(c->f, &b, li, ATTN_MODE_COUNT, 4);
    token_ticks_free(&ta);
    token_ticks_free(&tb);
    return st;
}

/* ---------------------------------------------------------------------------------------------
 * The table */

const fig_entry export_figs[] = {
    {"pe", 0, 0.8, "Sinusoidal positional encoding", "正弦位置编码", draw_pe, check_pe},
    {"rope", ANALYSIS_ROPE, 1.45, "RoPE: rotating q and k by position",
     "RoPE：按位置旋转 q 与 k", draw_rope, check_rope},
    {"rope-decay", 0, 0.72, "RoPE long-term decay (RoFormer §3.4.3)",
     "RoPE 远程衰减（RoFormer §3.4.3）", draw_decay, NULL},
    {"freq", 0, 1.15, "Frequencies fall geometrically across dimensions",
     "频率沿维度按几何级数下降", draw_freq, NULL},
    {"dot", 0, 0.9, "PE(p) ⋅ PE(q) depends only on p − q", "PE(p) ⋅ PE(q) 只取决于 p − q",
     draw_dot, check_dot},
    {"input", 0, 1.05, "The first layer reads X_emb + PE", "第一层读入 X_emb + PE", draw_input,
     NULL},
    {"order", ANALYSIS_ORDER, 1.35, "Word order is invisible without positions",
     "没有位置信息，注意力看不出语序", draw_order, NULL},
    {"embedding", 0, 0.62, "Embedding rows: onehot(id) ⋅ W_E = row id",
     "词嵌入：独热向量 × W_E = 取出第 id 行", draw_embedding, NULL},
    {"embedding-map", 0, 0.8, "Learned word vectors gather by meaning",
     "学出来的词向量按含义聚在一起", draw_embedding_map, check_word_map},
};
const int export_figs_count = (int)(sizeof export_figs / sizeof export_figs[0]);
