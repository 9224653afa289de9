/* common.c — what the figures share: colour scales, matrix axes, panels, token labels. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figures/draw.h"
#include "posenc.h"
#include "utf8.h"

#define MAX_CELLS (16L * 1024 * 1024) /* cells of one heatmap: 64 MB of float32 */
#define MAX_SIDE 32767L               /* cells along one side (cairo's image limit) */

const char *fig_txt(const fig_ctx *c, txt_id id) { return txt_lang(id, c->zh); }

/* color_scale's map and range, without --vmin and --vmax */
static cmap_id scale_map(const fig_ctx *c, double mn, double mx, double *lo, double *hi)
{
    bool sign = mn < 0.0 && mx > 0.0;
    cmap_id cm = c->cmap != CMAP_COUNT ? c->cmap : sign ? CMAP_RDBU : CMAP_VIRIDIS;
    bool diverging = colormap_diverging(cm);
    double m = fmax(fabs(mn), fabs(mx));
    *lo = diverging ? -m : mn;
    *hi = diverging ? m : mx;
    if (!(*hi > *lo)) {
        *lo -= 1.0;
        *hi += 1.0;
    }
    return cm;
}

/* --vmin / --vmax: the limits asked for (the check made sure vmin < vmax); with one of them the
 * other side comes from the data (one above or below the given one when the data do not reach
 * past it) */
static void scale_limits(const fig_ctx *c, double *lo, double *hi)
{
    const fig_request *r = c->req;
    if (r->has_vmin)
        *lo = r->vmin;
    if (r->has_vmax)
        *hi = r->vmax;
    if (!(*hi > *lo)) {
        if (r->has_vmin)
            *hi = *lo + 1.0;
        else
            *lo = *hi - 1.0;
    }
}

cmap_id color_scale(const fig_ctx *c, double mn, double mx, double *lo, double *hi)
{
    cmap_id cm = scale_map(c, mn, mx, lo, hi);
    scale_limits(c, lo, hi);
    return cm;
}

/* The k-th smallest of s[0 .. m-1] (k < m), s reordered: selection with a three-way partition
 * (less than the pivot, equal, greater), linear on average where sorting the lot would take
 * n log n (a million gram values on every page), and as fast when most values are equal (a map
 * of zeros). A NaN compares as equal to every pivot. */
static double select_kth(double *s, size_t m, size_t k)
{
    long lo = 0, hi = (long)m - 1, kk = (long)k;
    while (lo < hi) {
        double pivot = s[lo + (hi - lo) / 2], t;
        long lt = lo, i = lo, gt = hi; /* [lo, lt) < pivot, [lt, i) equal, (gt, hi] > pivot */
        while (i <= gt) {
            if (s[i] < pivot)
                t = s[i], s[i++] = s[lt], s[lt++] = t;
            else if (s[i] > pivot)
                t = s[i], s[i] = s[gt], s[gt--] = t;
            else
                i++;
        }
        if (kk < lt)
            hi = lt - 1;
        else if (kk > gt)
            lo = gt + 1;
        else
            return s[kk];
    }
    return s[kk];
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

#define BRACKET_SAMPLE 1024 /* values of s that bracket a rank (select_two) */
#define BRACKET_ROOM 32     /* ranks of that sample either side of the one sought */

/* The k[0]-th and k[1]-th smallest of the m finite values s (reordered), in one pass: a sorted
 * sample gives two values that bracket each rank with room to spare, the pass counts the values
 * below each bracket and gathers those inside it, and the rank is selected among the few
 * gathered; the whole of s where a bracket missed its rank (the same value either way). */
static void select_two(double *s, size_t m, const size_t k[2], double out[2])
{
    size_t cap = m / 8, below[2] = {0, 0}, got[2] = {0, 0};
    double *in = m >= 16 * BRACKET_SAMPLE ? malloc((BRACKET_SAMPLE + 2 * cap) * sizeof *in)
                                          : NULL;
    double lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY}, *gather[2] = {0};
    if (in) {
        for (size_t j = 0; j < BRACKET_SAMPLE; j++)
            in[j] = s[j * (m / BRACKET_SAMPLE)];
        qsort(in, BRACKET_SAMPLE, sizeof *in, cmp_double);
        for (int i = 0; i < 2; i++) {
            long r = (long)(k[i] * BRACKET_SAMPLE / m);
            lo[i] = r < BRACKET_ROOM ? -INFINITY : in[r - BRACKET_ROOM];
            hi[i] = r + BRACKET_ROOM >= BRACKET_SAMPLE ? INFINITY : in[r + BRACKET_ROOM];
            gather[i] = in + BRACKET_SAMPLE + i * cap;
        }
        for (size_t j = 0; j < m; j++)
            for (int i = 0; i < 2; i++) {
                if (s[j] < lo[i])
                    below[i]++;
                else if (s[j] <= hi[i] && got[i] < cap)
                    gather[i][got[i]++] = s[j];
                else if (s[j] <= hi[i])
                    lo[i] = INFINITY; /* too many inside: the bracket is given up */
            }
    }
    for (int i = 0; i < 2; i++) /* the rank inside the bracket, else all of s */
        out[i] = gather[i] && below[i] <= k[i] && k[i] < below[i] + got[i] && lo[i] < INFINITY
                     ? select_kth(gather[i], got[i], k[i] - below[i])
                     : select_kth(s, m, k[i]);
    free(in);
}

#define SCALE_SAMPLE 200000 /* values a percentile is read from: every k-th of a larger panel */

/* The 1st and 99th percentiles of the finite values of v (a sample of evenly spaced ones when
 * there are many); false when there is none or no memory. */
static bool percentiles(const double *v, size_t n, double p[2])
{
    size_t step = n > SCALE_SAMPLE ? n / SCALE_SAMPLE : 1, m = 0;
    double *s = malloc((n / step + 1) * sizeof *s);
    if (!s)
        return false;
    for (size_t i = 0; i < n; i += step)
        if (isfinite(v[i]))
            s[m++] = v[i];
    if (m) {
        size_t k[2] = {(size_t)floor(0.01 * (double)(m - 1)), (size_t)ceil(0.99 * (double)(m - 1))};
        select_two(s, m, k, p);
    }
    free(s);
    return m > 0;
}

/* The scale of values whose least and greatest are st[0], st[1], and whose 1st and 99th
 * percentiles are pct[0], pct[1] (pct[2]: whether there are any). */
static cmap_id scale_of(const fig_ctx *c, const double *st, const double *pct, bool named,
                        color_range *r)
{
    double mn = st[0], mx = st[1], p1 = pct[0], p99 = pct[1];
    bool robust = pct[2] > 0;
    /* signed when the values of both signs are more than a stray few */
    double smn = robust && p1 >= 0.0 ? fmax(mn, 0.0) : mn, smx = robust && p99 <= 0 ? fmin(mx, 0) : mx;
    cmap_id cm = scale_map(c, smn, smx, &r->lo, &r->hi);
    double full = r->hi - r->lo;
    if (robust) {
        double lo = p1, hi = p99;
        if (colormap_diverging(cm))
            hi = fmax(fabs(p1), fabs(p99)), lo = -hi;
        /* the extremes would squash the rest of the values into a third of the scale's colours:
         * the percentiles, the rest in the end colours, marked on the bar */
        if (hi > lo && hi - lo < full / 1.5)
            r->lo = lo, r->hi = hi;
    }
    if (named && (c->req->has_vmin || c->req->has_vmax))
        scale_limits(c, &r->lo, &r->hi);
    r->clip = (mn < r->lo ? 1 : 0) | (mx > r->hi ? 2 : 0);
    return cm;
}

cmap_id color_scale_of(const fig_ctx *c, int slot, const double *v, size_t n,
                       const fig_axes *ax, const fig_matrix *m, bool named, color_range *r)
{
    /* v's least and greatest, its percentiles and whether it has any: {mn, mx, p1, p99, any} */
    double st[5] = {0};
    if (!memo_get(c, slot, st, 5)) {
        minmax(v, n, &st[0], &st[1]);
        st[4] = percentiles(v, n, st + 2);
        memo_put(c, slot, st, 5);
    }
    long dr = 0, dc = 0;
    if (ax && m)
        fig_heatmap_grid(c->f, ax, m, &dr, &dc);
    if (!ax || !m || (dr == m->rows && dc == m->cols))
        return scale_of(c, st, st + 2, named, r);
    /* the pixels average cells: their means' percentiles, by the grid's size {dr, dc, p1, p99,
     * any} (the means depend on nothing else), one grid kept for each language's pages */
    double k[5] = {0};
    int at = slot + 1 + c->zh;
    if (!memo_get(c, at, k, 5) || k[0] != (double)dr || k[1] != (double)dc) {
        double *shown = fig_heatmap_means(c->f, ax, m, &dr, &dc);
        if (!shown)
            return scale_of(c, st, st + 2, named, r);
        k[0] = (double)dr, k[1] = (double)dc;
        k[4] = percentiles(shown, (size_t)dr * (size_t)dc, k + 2);
        free(shown);
        memo_put(c, at, k, 5);
    }
    return scale_of(c, st, k + 2, named, r);
}

void split_col_row(void *ctx, long r, double *out)
{
    const split_cols *s = ctx;
    const double *row = s->v + (size_t)r * (size_t)s->d;
    for (int col = 0; col < s->d; col++)
        out[col] = row[posenc_split_dim(col, s->d)];
}

bool averaged_label(const fig_ctx *c, fig_axes *ax, const fig_matrix *m, const char *label,
                    char *out, size_t cap)
{
    const char *fitted = ax->x.label;
    long dr, dc;
    fig_heatmap_grid(c->f, ax, m, &dr, &dc);
    ax->x.label = out;
    if (dc < m->cols && dr == m->rows)
        txt_fmt_lang(out, cap, T_F_AVG_COLS, c->zh, label, (double)m->cols / (double)dc);
    else if (dc < m->cols || dr < m->rows)
        txt_fmt_lang(out, cap, T_F_AVG_CELLS, c->zh, label, (double)m->rows / (double)dr,
                     (double)m->cols / (double)dc);
    else
        ax->x.label = label;
    /* a narrow panel: that its pixels are means */
    if (ax->x.label == out && too_wide(c->f, out, ax->r.w + ax->used_left))
        txt_fmt_lang(out, cap, T_F_AVG_SHORT, c->zh, label);
    return ax->x.label != fitted;
}

void legend_rows_fit(fig *f, const fig_legend_item *li, int n, double room)
{
    for (int i = 0; i < n; i++) {
        double w, h;
        fig_text_size(f, li[i].label, false, &w, &h);
        w += 2 * fig_font_size(f);
        if (w > room)
            fig_need_more(f, 1, w / room);
    }
}

void fit_pair(fig *f, fig_axes *a, fig_rect ra, fig_axes *b, fig_rect rb, bool aligned)
{
    fig_axes_fit(f, a, ra);
    fig_axes_fit(f, b, rb);
    if (aligned) {
        a->min_left = b->min_left = fmax(a->used_left, b->used_left);
        fig_axes_fit(f, a, ra);
        fig_axes_fit(f, b, rb);
    }
}

bool too_wide(fig *f, const char *text, double room)
{
    double w, h;
    fig_text_size(f, text, false, &w, &h);
    return w > room;
}

void minmax(const double *v, size_t n, double *mn, double *mx)
{
    double lo = INFINITY, hi = -INFINITY; /* NaN skipped, as fmin and fmax would */
    for (size_t i = 0; i < n; i++) {
        lo = v[i] < lo ? v[i] : lo;
        hi = v[i] > hi ? v[i] : hi;
    }
    *mn = lo;
    *mx = hi;
}

void matrix_axes(fig_axes *ax, long rows, long r0, long cols, long c0)
{
    *ax = (fig_axes){.x = {.lo = c0 - 0.5, .hi = c0 + cols - 0.5, .integer = true},
                     .y = {.lo = r0 - 0.5, .hi = r0 + rows - 0.5, .integer = true, .flip = true},
                     .frame = true};
}

/* Whether a code point has no glyph in the figure fonts (WenQuanYi Micro Hei, DejaVu Sans), or none
 * that shows on its own: emoji and other pictographs, variation selectors, joiners, private use,
 * tags. Such a character is labelled by its code point. */
static bool glyphless(uint32_t cp)
{
    return (cp >= 0x200B && cp <= 0x200F) || (cp >= 0xE000 && cp <= 0xF8FF) ||
           (cp >= 0xFE00 && cp <= 0xFE0F) || cp == 0xFEFF ||
           (cp >= 0x10000 && (cp < 0x20000 || cp > 0x3FFFF)); /* beyond the CJK extensions */
}

/* A token as pango markup, at most n bytes with its NUL: entities escaped, a space shown as
 * U+2423 (show_space) or kept; bytes that are not UTF-8 (part of a character, from a byte-level
 * BPE) and controls as \xHH, as --print shows them; a character without a glyph as U+XXXX.
 * What does not fit ends in "…", never inside a character. */
static void markup_of(char *out, size_t n, const char *s, size_t len, bool show_space)
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
                          : cp == ' ' && show_space ? "\u2423" : NULL;
            /* the entity, else the character's own k bytes */
            snprintf(rep, sizeof rep, "%.*s", e ? (int)strlen(e) : (int)k, e ? e : s + i);
        }
        size_t l = strlen(rep);
        bool last = i + k >= len;
        /* room for this piece, and for "…" unless it is the last one */
        if (o + l + (last ? 0 : sizeof more - 1) + 1 > n) {
            if (o + sizeof more <= n)
                o += (size_t)snprintf(out + o, n - o, "%s", more);
            break;
        }
        o += (size_t)snprintf(out + o, n - o, "%s", rep);
        i += k;
    }
    if (n)
        out[o] = '\0';
}

void token_markup(char *out, size_t n, const char *s, size_t len)
{
    markup_of(out, n, s, len, true);
}

void text_markup(char *out, size_t n, const char *s, size_t len)
{
    markup_of(out, n, s, len, false);
}

void markup_plain(char *out, size_t n, const char *s)
{
    static const char *const from[] = {"<sub>", "&amp;", "&lt;", "&gt;"}, to[] = "_&<>";
    size_t o = 0;
    while (*s && o + 1 < n) {
        int k = 0;
        while (k < 4 && strncmp(s, from[k], strlen(from[k])) != 0)
            k++;
        if (k < 4) {
            out[o++] = to[k];
            s += strlen(from[k]);
        } else if (*s == '<') { /* any other tag goes */
            const char *e = strchr(s, '>');
            s = e ? e + 1 : s + strlen(s);
        } else {
            out[o++] = *s++;
        }
    }
    if (n)
        out[o] = '\0';
}

#define TOKEN_LABEL 96

tf_status token_ticks_make(token_ticks *tt, const tf_tokens *toks, const char *text,
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

void token_ticks_free(token_ticks *tt)
{
    free(tt->at);
    free(tt->labels);
    free(tt->store);
}

void set_token_axis(fig_axis *ax, const token_ticks *tt)
{
    ax->n = tt->n;
    ax->at = tt->at;
    ax->labels = (const char *const *)tt->labels;
}

fig_rect colorbar_rect(const fig_axes *ax)
{
    return (fig_rect){ax->r.x + ax->r.w, ax->r.y, ax->right, ax->r.h};
}

void fit_square(fig *f, fig_axes *ax, fig_rect outer)
{
    ax->title_room = (fig_rect){0};
    fig_axes_fit(f, ax, outer);
    ax->title_room = outer; /* the title and x label keep the whole width */
    double extra = ax->r.w - ax->r.h;
    if (extra > 0) {
        outer.x += extra / 2;
        outer.w -= extra;
    } else {
        outer.h += extra;
    }
    fig_axes_fit(f, ax, outer);
}

const char *heatmap_check(long rows, long cols, const char *what)
{
    static _Thread_local char why[160]; /* a figure may be checked on a worker thread */
    if (rows > MAX_SIDE || cols > MAX_SIDE || rows * cols > MAX_CELLS) {
        snprintf(why, sizeof why, "the %s figure draws one cell per value and %ld x %ld is too "
                 "many; use -n and -d so that n x d stays under 16,777,216", what, rows, cols);
        return why;
    }
    return NULL;
}

const char *panel_tag(const fig_ctx *c, int i)
{
    static const char *const tags[] = {"(a)", "(b)", "(c)", "(d)", "(e)", "(f)", "(g)", "(h)"};
    return c->panel_labels && i >= 0 && i < 8 ? tags[i] : NULL;
}

void split_panels(fig_rect area, double across, double down, double gap_across, double gap_down,
                  bool *wide, fig_rect *first, fig_rect *second)
{
    *first = *second = area;
    *wide = area.w > 1.6 * area.h;
    if (*wide) {
        first->w = area.w * across;
        second->x = first->x + first->w + gap_across;
        second->w = area.x + area.w - second->x;
    } else {
        first->h = area.h * down;
        second->y = first->y + first->h + gap_down;
        second->h = area.y + area.h - second->y;
    }
}

void fig_wrap(fig *f, char *s, size_t cap, double width)
{
    size_t start = 0, brk = 0; /* where the line starts; where it may break, when past start */
    for (size_t i = 0; s[i]; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch == '\n')
            start = i + 1;
        if (ch == ' ' || (ch >= 0xC0 && i > start))
            brk = i; /* at a space, or before a character of a script without spaces */
        /* a whole character in: is the line still narrow enough? */
        if (ch == '\n' || ((unsigned char)s[i + 1] & 0xC0) == 0x80)
            continue;
        char next = s[i + 1];
        s[i + 1] = '\0';
        double w, h;
        fig_text_size(f, s + start, false, &w, &h);
        s[i + 1] = next;
        /* a newline instead of the space at brk, else before brk's character where s has room */
        if (w > width && brk > start && (s[brk] == ' ' || strlen(s) + 1 < cap)) {
            if (s[brk] != ' ') {
                memmove(s + brk + 1, s + brk, strlen(s + brk) + 1);
                i++;
            }
            s[brk] = '\n';
            start = brk + 1;
        }
    }
}

void cut_at_colon(char *s)
{
    char *colon = strstr(s, "\xef\xbc\x9a"); /* the full-width colon */
    if (!colon)
        colon = strchr(s, ':');
    if (colon)
        *colon = '\0';
}

const double *memo_ref(const fig_ctx *c, int i, size_t n)
{
    return c->memo && c->memo->v[i] && c->memo->n[i] == n ? c->memo->v[i] : NULL;
}

bool memo_get(const fig_ctx *c, int i, double *out, size_t n)
{
    const double *v = memo_ref(c, i, n);
    if (v)
        memcpy(out, v, n * sizeof *out);
    return v != NULL;
}

void memo_put(const fig_ctx *c, int i, const double *v, size_t n)
{
    double *keep = c->memo ? malloc(n * sizeof *keep) : NULL;
    if (!keep)
        return;
    free(c->memo->v[i]);
    c->memo->v[i] = memcpy(keep, v, n * sizeof *keep);
    c->memo->n[i] = n;
}

void fig_memo_free(fig_memo *m)
{
    for (int i = 0; i < FIG_MEMO_SLOTS; i++)
        free(m->v[i]);
    if (m->kept_free)
        m->kept_free(m->kept);
    memset(m, 0, sizeof *m);
}
