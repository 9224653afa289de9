/* term_heatmap.c — heatmaps of two pixels per cell (U+2580 with fg = upper, bg = lower). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "term.h"

/* Colours are quantised to this many levels per map so a full screen needs at most
 * LEVELS^2 colour pairs (alloc_pair's table holds thousands, not millions). */
#define LEVELS 64

static const char ramp[] = " .:-=+*#%@";

char term_ramp_char(double t)
{
    if (!(t >= 0.0))
        t = 0.0;
    if (t > 1.0)
        t = 1.0;
    int n = (int)sizeof ramp - 1;
    int i = (int)(t * n);
    return ramp[i >= n ? n - 1 : i];
}

static double unit(double v, double lo, double hi)
{
    double t = hi > lo ? (v - lo) / (hi - lo) : 0.5;
    return isnan(t) ? 0.5 : t < 0 ? 0 : t > 1 ? 1 : t;
}

static tf_rgb level_rgb(cmap_id m, double t)
{
    int l = (int)(t * LEVELS);
    l = l >= LEVELS ? LEVELS - 1 : l;
    return colormap_at(m, (l + 0.5) / LEVELS);
}

int term_heatmap_pixels_per_cell(void)
{
    const term_caps *c = term_get_caps();
    return c->utf8 && c->color != TERM_COLOR_NONE ? 2 : 1;
}

void term_heatmap(WINDOW *w, int y, int x, int rows, int cols, term_pixel_fn fn, void *ctx,
                  cmap_id m, double lo, double hi)
{
    const term_caps *c = term_get_caps();
    bool blocks = term_heatmap_pixels_per_cell() == 2;
    for (int r = 0; r < rows; r++) {
        for (int k = 0; k < cols; k++) {
            double vt = fn(ctx, 2 * r, k);
            double top = unit(vt, lo, hi);
            if (blocks) {
                /* a pixel without data (NaN) keeps the terminal's own background: never the
                 * colour of a value */
                double vb = fn(ctx, 2 * r + 1, k), bot = unit(vb, lo, hi);
                tf_rgb f = level_rgb(m, top), b = level_rgb(m, bot);
                const wchar_t *glyph = L"\u2580";
                int pair;
                if (isnan(vt) && isnan(vb))
                    glyph = L" ", pair = 0;
                else if (isnan(vt))
                    glyph = L"\u2584", pair = term_pair(&b, NULL);
                else
                    pair = term_pair(&f, isnan(vb) ? NULL : &b);
                cchar_t cc;
                setcchar(&cc, glyph, A_NORMAL, 0, &pair);
                mvwadd_wch(w, y + r, x + k, &cc);
            } else if (isnan(vt)) {
                term_attr(w, A_NORMAL, 0);
                mvwaddch(w, y + r, x + k, ' ');
            } else if (c->color != TERM_COLOR_NONE) {
                /* ASCII: one pixel per cell, colour as background, ramp as the glyph */
                tf_rgb b = level_rgb(m, top);
                tf_rgb f = top > 0.5 ? (tf_rgb){0, 0, 0} : (tf_rgb){255, 255, 255};
                term_attr(w, A_NORMAL, term_pair(&f, &b));
                mvwaddch(w, y + r, x + k, (chtype)term_ramp_char(top));
            } else {
                term_attr(w, A_NORMAL, 0);
                mvwaddch(w, y + r, x + k, (chtype)term_ramp_char(top));
            }
        }
    }
    term_attr(w, A_NORMAL, 0);
}

void term_colorbar(WINDOW *w, int y, int x, int cols, cmap_id m, double lo, double hi)
{
    char a[32], b[32];
    int la = snprintf(a, sizeof a, "%g ", lo);
    snprintf(b, sizeof b, " %g", hi);
    int bar = cols - la - (int)strlen(b);
    if (bar < 4)
        return;
    term_text(w, y, x, a, la);
    const term_caps *c = term_get_caps();
    for (int k = 0; k < bar; k++) {
        double t = (k + 0.5) / bar;
        if (c->color != TERM_COLOR_NONE) {
            tf_rgb col = level_rgb(m, t);
            term_attr(w, A_NORMAL, term_pair(&col, &col));
            mvwaddch(w, y, x + la + k, ' ');
        } else {
            mvwaddch(w, y, x + la + k, (chtype)term_ramp_char(t));
        }
    }
    term_attr(w, A_NORMAL, 0);
    term_text(w, y, x + la + bar, b, (int)strlen(b));
}
