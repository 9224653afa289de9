/* view_pe.c — view 2: the positional-encoding heatmap, positions x dimensions (claim C7).
 *
 * Every pixel is posenc_value() of its (position, dimension), computed when drawn, so the
 * article's 10,000 positions x 4096 dimensions cost nothing until looked at. Zoomed out, a
 * pixel shows the first (position, dimension) it stands for (sampled, not averaged: an average
 * of a fast sine is a misleading grey). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

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
    bool valid;
} pe_cache;

typedef struct {
    long pos, dim;     /* the cursor: a position index from 0 and a dimension */
    long row0, col0;   /* the first position and dimension shown */
    long zr, zc;       /* positions per pixel row, dimensions per column */
    int hm_rows, hm_cols; /* the heatmap's size in the last frame, for keys and clicks */
    pe_cache cache;
} pe_state;

static void *init(tui *t)
{
    (void)t;
    pe_state *p = calloc(1, sizeof *p);
    if (p)
        p->pos = 3, p->dim = 10, p->zr = 1, p->zc = 1;
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
    *dim = p ? p->dim : 0;
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
        cache->gen == t->generation)
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
        long r = p->row0 + (long)py * p->zr;
        for (int px = 0; px < cols; px++) {
            long j = p->col0 + (long)px * p->zc;
            cache->v[(size_t)py * cols + px] =
                r >= c->n_positions || j >= c->d_model
                    ? NAN
                    : (float)posenc_value((double)(r + c->index_base), (int)j, c->d_model,
                                          c->base);
        }
    }
    cache->rows = rows, cache->cols = cols, cache->row0 = p->row0, cache->col0 = p->col0;
    cache->zr = p->zr, cache->zc = p->zc, cache->gen = t->generation, cache->valid = true;
    return true;
}

/* Keep the cursor inside the table and the view window around the cursor. */
static void clamp(const tui *t, pe_state *p, int hrows, int hcols)
{
    long n = t->a->cfg.n_positions, d = t->a->cfg.d_model;
    p->pos = p->pos < 0 ? 0 : p->pos >= n ? n - 1 : p->pos;
    p->dim = p->dim < 0 ? 0 : p->dim >= d ? d - 1 : p->dim;
    long span_r = 2L * hrows * p->zr, span_c = (long)hcols * p->zc;
    if (p->pos < p->row0)
        p->row0 = p->pos;
    if (p->pos >= p->row0 + span_r)
        p->row0 = p->pos - span_r + 1;
    if (p->dim < p->col0)
        p->col0 = p->dim;
    if (p->dim >= p->col0 + span_c)
        p->col0 = p->dim - span_c + 1;
    p->row0 -= p->row0 % p->zr;
    p->col0 -= p->col0 % p->zc;
    if (p->row0 < 0)
        p->row0 = 0;
    if (p->col0 < 0)
        p->col0 = 0;
}

static void draw(tui *t, void *state, WINDOW *w, int y, int x, int rows, int cols)
{
    pe_state *p = state;
    if (!p)
        return;
    const tf_config *c = &t->a->cfg;
    int hrows = rows - 5, hcols = cols - LABEL_COLS - 1;
    if (hrows < 2 || hcols < 8)
        return;
    p->hm_rows = hrows, p->hm_cols = hcols;
    clamp(t, p, hrows, hcols);

    /* column labels: dimension numbers every 16 columns */
    term_text(w, y, x, txt(T_P_AXES), LABEL_COLS + 6);
    for (int k = 0; k < hcols; k += 16) {
        long j = p->col0 + (long)k * p->zc;
        if (j >= c->d_model)
            break;
        term_printf(w, y, x + LABEL_COLS + k, 15, "|%ld", j);
    }
    if (fill_cache(t, p, hrows, hcols))
        term_heatmap(w, y + 1, x + LABEL_COLS, hrows, hcols, cached_px, p, CMAP_RDBU, -1.0,
                     1.0);
    /* row labels: the position of the upper pixel, every 4 rows */
    for (int r = 0; r < hrows; r += 4) {
        long pos = p->row0 + 2L * r * p->zr;
        if (pos >= c->n_positions)
            break;
        term_printf(w, y + 1 + r, x, LABEL_COLS - 1, "%6ld", pos + c->index_base);
    }
    /* the cursor: its cell drawn reversed, markers on both axes */
    int cr = (int)((p->pos - p->row0) / p->zr), cc = (int)((p->dim - p->col0) / p->zc);
    term_attr(w, A_BOLD, 0);
    term_printf(w, y + 1 + cr / 2, x, LABEL_COLS - 1, "%5ld>", p->pos + c->index_base);
    mvwaddch(w, y + 1 + hrows, x + LABEL_COLS + cc, '^');
    term_attr(w, A_REVERSE | A_BOLD, 0);
    mvwaddch(w, y + 1 + cr / 2, x + LABEL_COLS + cc, cr % 2 ? '.' : '\'');
    term_attr(w, A_NORMAL, 0);

    /* the formula with the numbers filled in */
    long pos = p->pos + c->index_base;
    int j = (int)p->dim, i = j / 2;
    double v = posenc_value((double)pos, j, c->d_model, c->base);
    double angle = (double)pos * posenc_omega(i, c->d_model, c->base);
    term_attr(w, A_BOLD, 0);
    term_printf(w, y + hrows + 2, x + 1, cols - 2,
                "PE(%ld, %d) = %s(%ld / %g^(%d/%d)) = %s(%.6f) = %.6f", pos, j,
                j % 2 ? "cos" : "sin", pos, c->base, 2 * i, c->d_model, j % 2 ? "cos" : "sin",
                angle, v);
    term_attr(w, A_NORMAL, 0);
    term_printf(w, y + hrows + 3, x + 1, cols - 2, txt(T_P_ZOOM), p->zr, p->zc,
                c->n_positions, c->d_model, c->index_base);
    if (rows - hrows - 4 > 0)
        term_colorbar(w, y + hrows + 4, x + 1, cols / 2 < 40 ? cols / 2 : 40, CMAP_RDBU, -1, 1);
    snprintf(t->cursor, sizeof t->cursor, "PE(%ld,%d)=%.6f", pos, j, v);
}

static int key(tui *t, void *state, int ch)
{
    pe_state *p = state;
    if (!p)
        return TUI_IGNORED;
    long page = 2L * (p->hm_rows > 2 ? p->hm_rows - 2 : 1) * p->zr;
    switch (ch) {
    case KEY_UP:
        p->pos -= p->zr;
        break;
    case KEY_DOWN:
        p->pos += p->zr;
        break;
    case KEY_LEFT:
        p->dim -= p->zc;
        break;
    case KEY_RIGHT:
        p->dim += p->zc;
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
    case 'z': /* zoom out: more positions and dimensions per pixel */
        if (2L * p->hm_rows * p->zr < t->a->cfg.n_positions)
            p->zr *= 2;
        if ((long)p->hm_cols * p->zc < t->a->cfg.d_model)
            p->zc *= 2;
        break;
    case 'Z':
        p->zr = p->zr > 1 ? p->zr / 2 : 1;
        p->zc = p->zc > 1 ? p->zc / 2 : 1;
        break;
    case 'f': /* fit the whole table */
        p->zr = 1, p->zc = 1;
        while (2L * p->hm_rows * p->zr < t->a->cfg.n_positions)
            p->zr *= 2;
        while ((long)p->hm_cols * p->zc < t->a->cfg.d_model)
            p->zc *= 2;
        p->row0 = p->col0 = 0;
        break;
    default:
        return TUI_IGNORED;
    }
    return TUI_REDRAW;
}

static int click(tui *t, void *state, int y, int x)
{
    (void)t;
    pe_state *p = state;
    if (!p)
        return TUI_IGNORED;
    int py = y - 1, px = x - LABEL_COLS;
    if (py < 0 || py >= p->hm_rows || px < 0 || px >= p->hm_cols)
        return TUI_IGNORED;
    p->pos = p->row0 + 2L * py * p->zr;
    p->dim = p->col0 + (long)px * p->zc;
    return TUI_REDRAW;
}

const tui_view view_pe = {
    .figure = "pe", .tab = T_TAB_PE, .caption = T_CAP_PE, .keys = T_KEYS_PE, .needs = 0,
    .init = init, .free = release, .draw = draw, .key = key, .click = click,
};
