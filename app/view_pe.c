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
#include "tui.h"

#define LABEL_COLS 7

/* The visible pixels' values, kept while only the cursor moves (a cursor step then costs colour
 * lookups, not 2 x rows x cols transcendental calls). */
static struct {
    float *v; /* (2 * rows, cols) */
    int rows, cols;
    long row0, col0, zr, zc;
    unsigned gen;
    bool valid;
} cache;

static double cached_px(void *ctx, int py, int px)
{
    (void)ctx;
    return cache.v[(size_t)py * cache.cols + px];
}

static bool fill_cache(const tui *t, int rows, int cols)
{
    if (cache.valid && cache.rows == rows && cache.cols == cols && cache.row0 == t->pe_row0 &&
        cache.col0 == t->pe_col0 && cache.zr == t->pe_zr && cache.zc == t->pe_zc &&
        cache.gen == t->generation)
        return true;
    if (cache.rows * cache.cols < rows * cols || !cache.v) {
        free(cache.v);
        cache.v = malloc((size_t)2 * rows * cols * sizeof *cache.v);
        if (!cache.v) {
            cache.valid = false;
            return false;
        }
    }
    const tf_config *c = &t->a->cfg;
    for (int py = 0; py < 2 * rows; py++) {
        long p = t->pe_row0 + (long)py * t->pe_zr;
        for (int px = 0; px < cols; px++) {
            long j = t->pe_col0 + (long)px * t->pe_zc;
            cache.v[(size_t)py * cols + px] =
                p >= c->n_positions || j >= c->d_model
                    ? NAN
                    : (float)posenc_value((double)(p + c->index_base), (int)j, c->d_model,
                                          c->base);
        }
    }
    cache.rows = rows, cache.cols = cols, cache.row0 = t->pe_row0, cache.col0 = t->pe_col0;
    cache.zr = t->pe_zr, cache.zc = t->pe_zc, cache.gen = t->generation, cache.valid = true;
    return true;
}

/* Keep the cursor inside the table and the view window around the cursor. */
static void clamp(tui *t, int hrows, int hcols)
{
    long n = t->a->cfg.n_positions, d = t->a->cfg.d_model;
    t->pe_pos = t->pe_pos < 0 ? 0 : t->pe_pos >= n ? n - 1 : t->pe_pos;
    t->pe_dim = t->pe_dim < 0 ? 0 : t->pe_dim >= d ? d - 1 : t->pe_dim;
    long span_r = 2L * hrows * t->pe_zr, span_c = (long)hcols * t->pe_zc;
    if (t->pe_pos < t->pe_row0)
        t->pe_row0 = t->pe_pos;
    if (t->pe_pos >= t->pe_row0 + span_r)
        t->pe_row0 = t->pe_pos - span_r + 1;
    if (t->pe_dim < t->pe_col0)
        t->pe_col0 = t->pe_dim;
    if (t->pe_dim >= t->pe_col0 + span_c)
        t->pe_col0 = t->pe_dim - span_c + 1;
    t->pe_row0 -= t->pe_row0 % t->pe_zr;
    t->pe_col0 -= t->pe_col0 % t->pe_zc;
    if (t->pe_row0 < 0)
        t->pe_row0 = 0;
    if (t->pe_col0 < 0)
        t->pe_col0 = 0;
}

static int hm_rows, hm_cols; /* the heatmap size of the last frame, for keys and clicks */

static void draw(tui *t, WINDOW *w, int y, int x, int rows, int cols)
{
    const tf_config *c = &t->a->cfg;
    int hrows = rows - 5, hcols = cols - LABEL_COLS - 1;
    if (hrows < 2 || hcols < 8)
        return;
    hm_rows = hrows, hm_cols = hcols;
    clamp(t, hrows, hcols);

    /* column labels: dimension numbers every 16 columns */
    term_text(w, y, x, txt(T_P_AXES), LABEL_COLS + 6);
    for (int k = 0; k < hcols; k += 16) {
        long j = t->pe_col0 + (long)k * t->pe_zc;
        if (j >= c->d_model)
            break;
        term_printf(w, y, x + LABEL_COLS + k, 15, "|%ld", j);
    }
    if (fill_cache(t, hrows, hcols))
        term_heatmap(w, y + 1, x + LABEL_COLS, hrows, hcols, cached_px, NULL, CMAP_RDBU, -1.0,
                     1.0);
    /* row labels: the position of the upper pixel, every 4 rows */
    for (int r = 0; r < hrows; r += 4) {
        long p = t->pe_row0 + 2L * r * t->pe_zr;
        if (p >= c->n_positions)
            break;
        term_printf(w, y + 1 + r, x, LABEL_COLS - 1, "%6ld", p + c->index_base);
    }
    /* the cursor: its cell drawn reversed, markers on both axes */
    int cr = (int)((t->pe_pos - t->pe_row0) / t->pe_zr), cc = (int)((t->pe_dim - t->pe_col0) / t->pe_zc);
    term_attr(w, A_BOLD, 0);
    term_printf(w, y + 1 + cr / 2, x, LABEL_COLS - 1, "%5ld>", t->pe_pos + c->index_base);
    mvwaddch(w, y + 1 + hrows, x + LABEL_COLS + cc, '^');
    term_attr(w, A_REVERSE | A_BOLD, 0);
    mvwaddch(w, y + 1 + cr / 2, x + LABEL_COLS + cc, cr % 2 ? '.' : '\'');
    term_attr(w, A_NORMAL, 0);

    /* the formula with the numbers filled in */
    long pos = t->pe_pos + c->index_base;
    int j = (int)t->pe_dim, i = j / 2;
    double v = posenc_value((double)pos, j, c->d_model, c->base);
    double angle = (double)pos * posenc_omega(i, c->d_model, c->base);
    term_attr(w, A_BOLD, 0);
    term_printf(w, y + hrows + 2, x + 1, cols - 2,
                "PE(%ld, %d) = %s(%ld / %g^(%d/%d)) = %s(%.6f) = %.6f", pos, j,
                j % 2 ? "cos" : "sin", pos, c->base, 2 * i, c->d_model, j % 2 ? "cos" : "sin",
                angle, v);
    term_attr(w, A_NORMAL, 0);
    term_printf(w, y + hrows + 3, x + 1, cols - 2, txt(T_P_ZOOM), t->pe_zr, t->pe_zc,
                c->n_positions, c->d_model, c->index_base);
    if (rows - hrows - 4 > 0)
        term_colorbar(w, y + hrows + 4, x + 1, cols / 2 < 40 ? cols / 2 : 40, CMAP_RDBU, -1, 1);
    snprintf(t->cursor, sizeof t->cursor, "PE(%ld,%d)=%.6f", pos, j, v);
}

static int key(tui *t, int ch)
{
    long page = 2L * (hm_rows > 2 ? hm_rows - 2 : 1) * t->pe_zr;
    switch (ch) {
    case KEY_UP:
        t->pe_pos -= t->pe_zr;
        break;
    case KEY_DOWN:
        t->pe_pos += t->pe_zr;
        break;
    case KEY_LEFT:
        t->pe_dim -= t->pe_zc;
        break;
    case KEY_RIGHT:
        t->pe_dim += t->pe_zc;
        break;
    case KEY_PPAGE:
        t->pe_pos -= page;
        break;
    case KEY_NPAGE:
        t->pe_pos += page;
        break;
    case KEY_HOME:
        t->pe_pos = 0, t->pe_dim = 0;
        break;
    case KEY_END:
        t->pe_pos = t->a->cfg.n_positions - 1;
        break;
    case 'z': /* zoom out: more positions and dimensions per pixel */
        if (2L * hm_rows * t->pe_zr < t->a->cfg.n_positions)
            t->pe_zr *= 2;
        if ((long)hm_cols * t->pe_zc < t->a->cfg.d_model)
            t->pe_zc *= 2;
        break;
    case 'Z':
        t->pe_zr = t->pe_zr > 1 ? t->pe_zr / 2 : 1;
        t->pe_zc = t->pe_zc > 1 ? t->pe_zc / 2 : 1;
        break;
    case 'f': /* fit the whole table */
        t->pe_zr = 1, t->pe_zc = 1;
        while (2L * hm_rows * t->pe_zr < t->a->cfg.n_positions)
            t->pe_zr *= 2;
        while ((long)hm_cols * t->pe_zc < t->a->cfg.d_model)
            t->pe_zc *= 2;
        t->pe_row0 = t->pe_col0 = 0;
        break;
    default:
        return TUI_IGNORED;
    }
    return TUI_REDRAW;
}

static int click(tui *t, int y, int x)
{
    int py = y - 1, px = x - LABEL_COLS;
    if (py < 0 || py >= hm_rows || px < 0 || px >= hm_cols)
        return TUI_IGNORED;
    t->pe_pos = t->pe_row0 + 2L * py * t->pe_zr;
    t->pe_dim = t->pe_col0 + (long)px * t->pe_zc;
    return TUI_REDRAW;
}

const tui_view view_pe = {
    .figure = "pe", .tab = T_TAB_PE, .caption = T_CAP_PE, .keys = T_KEYS_PE, .needs = 0,
    .draw = draw, .key = key, .click = click,
};
