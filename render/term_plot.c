/* term_plot.c — braille line plots: each cell is a 2 x 4 grid of dots (U+2800 + bits). */
#include <math.h>
#include <stdlib.h>

#include "term.h"

/* Unicode braille dot numbering: column 0 holds dots 1,2,3,7, column 1 dots 4,5,6,8. */
unsigned term_braille_bit(int dx, int dy)
{
    static const unsigned char bits[2][4] = {{0x01, 0x02, 0x04, 0x40}, {0x08, 0x10, 0x20, 0x80}};
    return bits[dx & 1][dy & 3];
}

int term_canvas_init(term_canvas *c, int rows, int cols, double xlo, double xhi, double ylo,
                     double yhi)
{
    c->rows = rows > 0 ? rows : 1;
    c->cols = cols > 0 ? cols : 1;
    c->xlo = xlo, c->xhi = xhi, c->ylo = ylo, c->yhi = yhi;
    c->dots = calloc((size_t)c->rows * c->cols, 1);
    c->series = calloc((size_t)c->rows * c->cols, 1);
    if (!c->dots || !c->series) {
        term_canvas_free(c);
        return -1;
    }
    return 0;
}

void term_canvas_free(term_canvas *c)
{
    free(c->dots);
    free(c->series);
    c->dots = c->series = NULL;
}

/* Data to dot coordinates: x grows right over 2*cols dots, y grows up over 4*rows dots. */
static void to_dot(const term_canvas *c, double x, double y, double *dx, double *dy)
{
    double W = 2.0 * c->cols, H = 4.0 * c->rows;
    *dx = c->xhi > c->xlo ? (x - c->xlo) / (c->xhi - c->xlo) * (W - 1) : 0;
    *dy = c->yhi > c->ylo ? (c->yhi - y) / (c->yhi - c->ylo) * (H - 1) : 0;
}

static void set_dot(term_canvas *c, long px, long py, int series)
{
    if (px < 0 || py < 0 || px >= 2L * c->cols || py >= 4L * c->rows)
        return;
    size_t cell = (size_t)(py / 4) * c->cols + (size_t)(px / 2);
    c->dots[cell] |= (unsigned char)term_braille_bit((int)(px % 2), (int)(py % 4));
    c->series[cell] = (unsigned char)series;
}

void term_canvas_dot(term_canvas *c, double x, double y, int series)
{
    double dx, dy;
    if (!isfinite(x) || !isfinite(y))
        return;
    to_dot(c, x, y, &dx, &dy);
    set_dot(c, lround(dx), lround(dy), series);
}

void term_canvas_line(term_canvas *c, const double *xs, const double *ys, int n, int series)
{
    for (int i = 0; i < n; i++) {
        if (!isfinite(xs[i]) || !isfinite(ys[i]))
            continue;
        double x0, y0;
        to_dot(c, xs[i], ys[i], &x0, &y0);
        if (i + 1 < n && isfinite(xs[i + 1]) && isfinite(ys[i + 1])) {
            double x1, y1;
            to_dot(c, xs[i + 1], ys[i + 1], &x1, &y1);
            double span = fmax(fabs(x1 - x0), fabs(y1 - y0));
            int steps = span > 4000 ? 4000 : (int)ceil(span);
            for (int s = 0; s < steps; s++) {
                double f = (double)s / steps;
                set_dot(c, lround(x0 + f * (x1 - x0)), lround(y0 + f * (y1 - y0)), series);
            }
        }
        set_dot(c, lround(x0), lround(y0), series);
    }
}

void term_canvas_draw(const term_canvas *c, WINDOW *w, int y, int x, const int *pairs, int npairs)
{
    bool utf8 = term_get_caps()->utf8;
    for (int r = 0; r < c->rows; r++)
        for (int k = 0; k < c->cols; k++) {
            size_t cell = (size_t)r * c->cols + k;
            unsigned bits = c->dots[cell];
            if (!bits)
                continue;
            int s = c->series[cell];
            int pair = pairs && s >= 1 && s <= npairs ? pairs[s - 1] : 0;
            if (utf8) {
                wchar_t wc[2] = {(wchar_t)(0x2800 + bits), 0};
                cchar_t cc;
                setcchar(&cc, wc, A_NORMAL, 0, &pair);
                mvwadd_wch(w, y + r, x + k, &cc);
            } else {
                term_attr(w, A_NORMAL, pair);
                mvwaddch(w, y + r, x + k, '*');
            }
        }
    term_attr(w, A_NORMAL, 0);
}
