/* view_pe.c — view 2: the positional-encoding heatmap, positions x dimensions (claim C7).
 *
 * Every pixel is posenc_value() of its (position, dimension), computed when drawn, so the
 * article's 10,000 positions x 4096 dimensions cost nothing until looked at.
 *
 * It opens on the whole d_model range, one position per pixel row, in the split layout: every
 * sin column (even j) on the left, every cos column (odd j) on the right, each half fast stripes
 * that slow down across the dimensions, the article's picture. s switches to the interleaved
 * layout (j = 0, 1, 2, ...), where sampling one column in zc alternates sin ~ 0 and cos ~ 1 and
 * the picture looks like a barcode. A column stands for zc columns of the layout and shows one
 * of them (sampled, not averaged: an average of a fast sine is a misleading grey); the screen
 * says so. The cursor always sits on a sampled dimension, so the worked formula, which names the
 * true dimension j, is the colour under it. Z zooms in around the cursor, z out, f fits
 * positions too. Pixels beyond n or d_model are blank. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "posenc.h"
#include "tui/view.h"

#define LABEL_COLS 7

/* The visible pixels' values, kept while only the cursor moves (a cursor step then costs colour
 * lookups, not 2 x rows x cols transcendental calls). */
typedef struct {
    float *v; /* (2 * rows, cols) */
    int rows, cols;
    long row0, col0, zr, zc;
    unsigned gen;
    int ppc;
    bool valid, interleaved;
} pe_cache;

typedef struct {
    long pos, dim;     /* the cursor: a position index from 0 and the dimension asked for */
    long shown;        /* the dimension drawn: dim moved onto the one its column samples (so a
                        * new width or zoom never drifts the dimension asked for) */
    long row0, col0;   /* the first position and layout column shown */
    long zr, zc;       /* positions per pixel row, layout columns per screen column */
    bool interleaved;  /* the layout: j = 0, 1, 2, ... (s); else split, sin half then cos */
    bool zoomed;       /* the user chose zr, zc; else the whole d_model range fits the width */
    int hm_rows, hm_cols; /* the heatmap's size in the last frame, for keys and clicks */
    int ppc;              /* positions per cell row: 2 (half blocks) or 1 (ASCII) */
    pe_cache cache;
} pe_state;

static void *init(tui *t)
{
    (void)t;
    pe_state *p = calloc(1, sizeof *p);
    if (p)
        p->pos = 3, p->dim = p->shown = 16, p->zr = 1, p->zc = 1, p->ppc = 2;
    return p;
}

static void release(void *state)
{
    pe_state *p = state;
    if (p)
        free(p->cache.v);
    free(p);
}

void view_pe_cursor(const void *state, long *pos, long *dim)
{
    const pe_state *p = state;
    *pos = p ? p->pos : 0;
    *dim = p ? p->shown : 0;
}

/* The layout column screen column k (counted from layout column 0) shows: its first one, or in
 * the interleaved layout the next when that keeps sin and cos alternating from column to column
 * (the split layout needs no such help: its halves are all sin and all cos). */
static long column_at(const pe_state *p, long k)
{
    long u = k * p->zc;
    return !p->interleaved || p->zc < 2 || p->zc % 2 ? u : u + (k & 1);
}

/* The dimension j of layout column u, and back. */
static long layout_dim(const pe_state *p, long u, int d)
{
    return p->interleaved || u >= d ? u : posenc_split_dim((int)u, d);
}

static long layout_col(const pe_state *p, long j, int d)
{
    return p->interleaved ? j : posenc_split_col((int)j, d);
}

/* The dimension screen column k shows. */
static long column_dim(const pe_state *p, long k, int d)
{
    return layout_dim(p, column_at(p, k), d);
}

/* How many dimensions a column holds for the whole d_model range to fit cols columns. */
static long fit_zc(long d, int cols)
{
    long z = (d + cols - 1) / (cols > 0 ? cols : 1);
    return z < 1 ? 1 : z;
}

static double cached_px(void *ctx, int py, int px)
{
    const pe_state *p = ctx;
    return p->cache.v[(size_t)py * p->cache.cols + px];
}

static bool fill_cache(const tui *t, pe_state *p, int rows, int cols)
{
    pe_cache *cache = &p->cache;
    if (cache->valid && cache->rows == rows && cache->cols == cols && cache->row0 == p->row0 &&
        cache->col0 == p->col0 && cache->zr == p->zr && cache->zc == p->zc &&
        cache->gen == t->generation && cache->ppc == p->ppc && cache->interleaved == p->interleaved)
        return true;
    if (cache->rows * cache->cols < rows * cols || !cache->v) {
        free(cache->v);
        cache->v = malloc((size_t)2 * rows * cols * sizeof *cache->v);
        if (!cache->v) {
            cache->valid = false;
            return false;
        }
    }
    const tf_config *c = &t->a->cfg;
    for (int py = 0; py < 2 * rows; py++) {
        /* the ASCII fallback shows one pixel a cell, the upper: both halves are its position */
        long r = p->row0 + (long)(p->ppc == 2 ? py : py / 2) * p->zr;
        for (int px = 0; px < cols; px++) {
            long j = column_dim(p, p->col0 / p->zc + px, c->d_model);
            cache->v[(size_t)py * cols + px] =
                r >= c->n_positions || j >= c->d_model
                    ? NAN
                    : (float)posenc_value((double)(r + c->index_base), (int)j, c->d_model,
                                          c->base);
        }
    }
    cache->rows = rows, cache->cols = cols, cache->row0 = p->row0, cache->col0 = p->col0;
    cache->zr = p->zr, cache->zc = p->zc, cache->gen = t->generation, cache->valid = true;
    cache->ppc = p->ppc, cache->interleaved = p->interleaved;
    return true;
}

/* The first cell of a window of span cells out of total that shows cell cur, moving first0 as
 * little as possible and never past the end of the table. */
static long first_cell(long cur, long first0, long span, long total)
{
    long f = first0;
    if (cur < f)
        f = cur;
    if (cur >= f + span)
        f = cur - span + 1;
    if (f > total - span)
        f = total - span;
    return f < 0 ? 0 : f;
}

/* Keep the cursor inside the table and the view window around the cursor. */
static void clamp(const tui *t, pe_state *p, int hrows, int hcols)
{
    long n = t->a->cfg.n_positions, d = t->a->cfg.d_model;
    if (!p->zoomed)
        p->zc = fit_zc(d, hcols), p->zr = 1, p->col0 = 0;
    p->pos = p->pos < 0 ? 0 : p->pos >= n ? n - 1 : p->pos;
    p->dim = p->dim < 0 ? 0 : p->dim >= d ? d - 1 : p->dim;
    /* onto the dimension its column shows */
    long k = layout_col(p, p->dim, (int)d) / p->zc;
    while (k > 0 && column_at(p, k) >= d)
        k--;
    p->shown = column_dim(p, k, (int)d);
    long rows_total = (n + p->zr - 1) / p->zr;
    p->row0 = first_cell(p->pos / p->zr, p->row0 / p->zr, (long)p->ppc * hrows, rows_total) * p->zr;
    p->col0 = first_cell(k, p->col0 / p->zc, hcols, (d + p->zc - 1) / p->zc) * p->zc;
}

/* Under the heatmap from row ny (left rows): the formula with the numbers filled in (not with
 * --big: the lesson works the cell out above), what a column and a pixel row stand for, and
 * the colour bar. */
static void draw_notes(tui *t, const pe_state *p, WINDOW *w, int ny, int x, int cols, int left)
{
    const tf_config *c = &t->a->cfg;
    int below = t->big ? 1 : 2; /* the notes' first row under the formula's */
    long pos = p->pos + c->index_base;
    int j = (int)p->shown, i = j / 2;
    double v = posenc_value((double)pos, j, c->d_model, c->base);
    double angle = (double)pos * posenc_omega(i, c->d_model, c->base);
    if (!t->big) {
        term_attr(w, A_BOLD, 0);
        char f[192];
        snprintf(f, sizeof f, "PE(%ld, %d) = %s(%ld / %g^(%d/%d)) = %s(%.6f) = %.6f", pos, j,
                 j % 2 ? "cos" : "sin", pos, c->base, 2 * i, c->d_model, j % 2 ? "cos" : "sin",
                 angle, v);
        if (term_text_width(f) > cols - 2) /* narrow: the angle's value, not its formula */
            snprintf(f, sizeof f, "PE(%ld, %d) = %s(%.6f) = %.6f", pos, j,
                     j % 2 ? "cos" : "sin", angle, v);
        term_text(w, ny, x + 1, f, cols - 2);
        term_attr(w, A_NORMAL, 0);
    }
    /* what a column and a pixel row stand for, and the layout, stated where the picture is */
    long last_col = p->col0 + (long)p->hm_cols * p->zc - 1;
    if (p->col0 == 0 && last_col >= c->d_model - 1 && p->zc > 1)
        tui_fit_f(w, ny + below - 1, x + 1, cols - 2,
                  p->interleaved ? txtf(T_P_SAMPLED) : txtf(T_P_SPLIT),
                  p->interleaved ? txtf(T_P_SAMPLED_S) : txtf(T_P_SPLIT_S), p->zc,
                  (long)c->d_model);
    else
        term_printf(w, ny + below - 1, x + 1, cols - 2,
                    p->interleaved ? txtf(T_P_WINDOW) : txtf(T_P_WINDOW_SPLIT), p->col0,
                    last_col < c->d_model - 1 ? last_col : (long)c->d_model - 1,
                    (long)c->d_model, p->zc);
    if (left - below > 0) {
        int bw = cols / 2 < 40 ? cols / 2 : 40;
        term_colorbar(w, ny + below, x + 1, bw, CMAP_RDBU, -1, 1);
        long last = p->row0 + (long)p->ppc * p->hm_rows * p->zr - 1;
        last = last < c->n_positions - 1 ? last : c->n_positions - 1;
        char buf[96];
        txt_fmt(buf, sizeof buf, T_P_ROWS, p->row0 + c->index_base, last + c->index_base,
                c->n_positions);
        if (p->zr > 1) {
            size_t l = strlen(buf);
            snprintf(buf + l, sizeof buf - l, ", %ld/px", p->zr);
        }
        term_printf(w, ny + below, x + 3 + bw, cols - bw - 4, "%s", buf);
    }
}

/* Column labels: the dimension every 16 columns; in the split layout each says sin or cos, and
 * the first cos column is marked where it falls between two labels. */
static void draw_labels(const pe_state *p, WINDOW *w, int y, int x, int hcols, int d)
{
    term_text(w, y, x, txt(T_P_AXES), LABEL_COLS + 6);
    int step = hcols >= 96 ? 24 : 16;
    long kc = -1; /* the screen column of the first cos column (split layout), or -1 */
    if (!p->interleaved && p->col0 < d / 2)
        for (long k = 0; k < hcols && kc < 0; k++)
            if (column_at(p, p->col0 / p->zc + k) >= d / 2 && column_at(p, p->col0 / p->zc + k) < d)
                kc = k;
    for (int k = 0; k < hcols; k += step) {
        long u = p->col0 + (long)k * p->zc;
        if (u >= d)
            break;
        long j = layout_dim(p, u, d);
        char l[32];
        snprintf(l, sizeof l, p->interleaved ? "|%ld" : j % 2 ? "|cos %ld" : "|sin %ld", j);
        /* a label that would run into the cos half's mark or past the map gives way */
        int room = kc > k && kc < k + step ? (int)(kc - k) - 1 : step - 1;
        room = room < hcols - k ? room : hcols - k;
        if ((int)strlen(l) <= room)
            term_text(w, y, x + LABEL_COLS + k, l, room);
    }
    if (kc > 0 && kc % step) {
        char l[32];
        snprintf(l, sizeof l, "|cos %ld", column_dim(p, p->col0 / p->zc + kc, d));
        if ((int)strlen(l) <= hcols - kc)
            term_text(w, y, x + LABEL_COLS + (int)kc, l, step - 1);
    }
}

static void draw(tui *t, void *state, WINDOW *w, int y, int x, int rows, int cols)
{
    pe_state *p = state;
    if (!p)
        return;
    const tf_config *c = &t->a->cfg;
    /* --big: the formula line goes (the lesson works the cell out above the picture) and the
     * heatmap takes its row */
    int hrows = rows - (t->big ? 4 : 5), hcols = cols - LABEL_COLS - 1;
    if (hrows < 2 || hcols < 8)
        return;
    p->hm_rows = hrows, p->hm_cols = hcols, p->ppc = term_heatmap_pixels_per_cell();
    clamp(t, p, hrows, hcols);

    draw_labels(p, w, y, x, hcols, c->d_model);
    if (fill_cache(t, p, hrows, hcols))
        term_heatmap(w, y + 1, x + LABEL_COLS, hrows, hcols, cached_px, p, CMAP_RDBU, -1.0,
                     1.0);
    /* row labels: the position of the upper pixel, every 4 rows */
    for (int r = 0; r < hrows; r += 4) {
        long pos = p->row0 + (long)p->ppc * r * p->zr;
        if (pos >= c->n_positions)
            break;
        term_printf(w, y + 1 + r, x, LABEL_COLS - 1, "%6ld", pos + c->index_base);
    }
    /* the cursor: its cell drawn reversed, markers on both axes */
    int cr = (int)((p->pos - p->row0) / p->zr), cc = (int)((layout_col(p, p->shown, c->d_model) - p->col0) / p->zc);
    term_attr(w, A_BOLD, 0);
    term_printf(w, y + 1 + cr / p->ppc, x, LABEL_COLS - 1, "%5ld>", p->pos + c->index_base);
    mvwaddch(w, y + 1 + hrows, x + LABEL_COLS + cc, '^');
    term_attr(w, A_REVERSE | A_BOLD, 0);
    mvwaddch(w, y + 1 + cr / p->ppc, x + LABEL_COLS + cc,
             p->ppc == 1 ? 'X' : cr % 2 ? '.' : '\'');
    term_attr(w, A_NORMAL, 0);

    /* the formula with the numbers filled in, and what the picture shows */
    long pos = p->pos + c->index_base;
    int j = (int)p->shown;
    double v = posenc_value((double)pos, j, c->d_model, c->base);
    draw_notes(t, p, w, y + hrows + 2, x, cols, rows - hrows - 2);
    snprintf(t->cursor, sizeof t->cursor, "PE(%ld,%d)=%.6f", pos, j, v);
}

static int key(tui *t, void *state, int ch)
{
    pe_state *p = state;
    if (!p)
        return TUI_IGNORED;
    long page = (long)p->ppc * (p->hm_rows > 2 ? p->hm_rows - 2 : 1) * p->zr;
    int d = t->a->cfg.d_model;
    switch (ch) {
    case KEY_UP:
        p->pos -= p->zr;
        break;
    case KEY_DOWN:
        p->pos += p->zr;
        break;
    case KEY_LEFT:
    case KEY_RIGHT: {
        long k = layout_col(p, p->shown, d) / p->zc + (ch == KEY_RIGHT ? 1 : -1);
        if (k >= 0 && column_at(p, k) < d)
            p->dim = column_dim(p, k, d);
        break;
    }
    case 's': /* the other layout; the cursor keeps its dimension */
        p->interleaved = !p->interleaved;
        p->dim = p->shown;
        break;
    case KEY_PPAGE:
        p->pos -= page;
        break;
    case KEY_NPAGE:
        p->pos += page;
        break;
    case KEY_HOME:
        p->pos = 0, p->dim = 0;
        break;
    case KEY_END:
        p->pos = t->a->cfg.n_positions - 1;
        break;
    case 'z': { /* zoom out: dimensions first up to the whole d_model range, then positions */
        long fit = fit_zc(t->a->cfg.d_model, p->hm_cols);
        if (p->zc < fit)
            p->zc = p->zc * 2 < fit ? p->zc * 2 : fit;
        else if ((long)p->ppc * p->hm_rows * p->zr < t->a->cfg.n_positions)
            p->zr *= 2;
        p->zoomed = !(p->zr == 1 && p->zc == fit);
        break;
    }
    case 'Z': /* zoom in around the cursor: positions first, then dimensions */
        p->zoomed = true;
        if (p->zr > 1)
            p->zr /= 2;
        else
            p->zc = p->zc > 1 ? p->zc / 2 : 1;
        p->col0 = layout_col(p, p->shown, d) - (long)p->hm_cols * p->zc / 2;
        p->row0 = p->pos - (long)p->hm_rows * p->zr;
        break;
    case 'f': /* fit the whole table */
        p->zoomed = true;
        p->zr = 1, p->zc = fit_zc(t->a->cfg.d_model, p->hm_cols);
        while ((long)p->ppc * p->hm_rows * p->zr < t->a->cfg.n_positions)
            p->zr *= 2;
        p->row0 = p->col0 = 0;
        break;
    default:
        return TUI_IGNORED;
    }
    return TUI_REDRAW;
}

static int click(tui *t, void *state, int y, int x)
{
    pe_state *p = state;
    if (!p)
        return TUI_IGNORED;
    int py = y - 1, px = x - LABEL_COLS;
    if (py < 0 || py >= p->hm_rows || px < 0 || px >= p->hm_cols)
        return TUI_IGNORED;
    p->pos = p->row0 + (long)p->ppc * py * p->zr;
    p->dim = column_dim(p, p->col0 / p->zc + px, t->a->cfg.d_model);
    return TUI_REDRAW;
}

const tui_view view_pe = {
    .figure = "pe", .tab = T_TAB_PE, .caption = T_CAP_PE, .keys = T_KEYS_PE, .needs = 0,
    .init = init, .free = release, .draw = draw, .key = key, .click = click,
};
