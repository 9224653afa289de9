/* view_freq.c — view 3: frequencies fall geometrically across dimensions (claim C8).
 *
 * Left: wavelength 2*pi/w_i of every pair i on a log axis (a straight line: geometric), and the
 * sin/cos waves of the chosen pair across positions. Right: one clock per pair, its hand at the
 * angle pos * w_i, so the first pairs spin fast and the last barely move. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "posenc.h"
#include "tui/view.h"

#define CLOCK_COLS 10
#define CLOCK_ROWS 5

typedef struct {
    int pair;     /* the pair i whose waves are plotted */
    long pos;     /* the position of the clocks */
    bool animate; /* the clocks advance by themselves */
} freq_state;

static void *init(tui *t)
{
    freq_state *f = calloc(1, sizeof *f);
    if (f)
        f->pair = t->cfg.d_model / 16, f->pos = 5;
    return f;
}

static void draw_clock(WINDOW *w, int y, int x, const tui *t, int i, long pos, int pair)
{
    const tf_config *c = &t->a->cfg;
    term_canvas cv;
    if (term_canvas_init(&cv, CLOCK_ROWS, CLOCK_COLS, -1.1, 1.1, -1.1, 1.1) != 0)
        return;
    for (int k = 0; k < 48; k++) {
        double a = 2 * M_PI * k / 48;
        term_canvas_dot(&cv, cos(a), sin(a), 1);
    }
    /* the hand points at (PE(pos, 2i), PE(pos, 2i+1)) = (sin, cos): 12 o'clock at pos 0 */
    double hx = posenc_value((double)pos, 2 * i, c->d_model, c->base);
    double hy = posenc_value((double)pos, 2 * i + 1, c->d_model, c->base);
    double xs[2] = {0, 0.95 * hx}, ys[2] = {0, 0.95 * hy};
    term_canvas_line(&cv, xs, ys, 2, 2);
    int pairs[2] = {0, pair};
    term_canvas_draw(&cv, w, y, x, pairs, 2);
    term_canvas_free(&cv);
    term_printf(w, y + CLOCK_ROWS, x, CLOCK_COLS + 2, "i=%d", i);
}

/* 1. the wavelengths of all pairs on a log axis, the chosen one marked; ph x pw at (y, x) */
static void draw_wavelengths(WINDOW *w, int y, int x, int ph, int pw, const tf_config *c,
                             int pair, const int *pairs)
{
    int d = c->d_model, half = d / 2;
    double lo = log10(2 * M_PI), hi = log10(2 * M_PI * c->base);
    term_attr(w, A_BOLD, 0);
    tui_fit(w, y, x + 1, pw + 8, T_F_WAVELEN, T_F_WAVELEN_S, half - 1);
    term_attr(w, A_NORMAL, 0);
    term_canvas cv;
    if (term_canvas_init(&cv, ph, pw, 0, half > 1 ? half - 1 : 1, lo, hi) == 0) {
        for (int i = 0; i < half; i += half > 4 * pw ? half / (4 * pw) : 1)
            term_canvas_dot(&cv, i, log10(2 * M_PI / posenc_omega(i, d, c->base)), 1);
        term_canvas_dot(&cv, pair, log10(2 * M_PI / posenc_omega(pair, d, c->base)), 2);
        term_canvas_draw(&cv, w, y + 1, x + 8, pairs, 3);
        term_canvas_free(&cv);
    }
    term_printf(w, y + 1, x, 8, "%7.0f", 2 * M_PI * c->base);
    term_printf(w, y + ph, x, 8, "%7.2f", 2 * M_PI);
    term_printf(w, y + ph + 1, x + 8, 6, "i=0");
    term_printf(w, y + ph + 1, x + 8 + pw - 8, 8, "%8d", half - 1);
}

/* 2. the sin and cos waves of the chosen pair across the positions, below the title row wy-1 */
static void draw_waves(WINDOW *w, int wy, int x, int ph, int pw, const tf_config *c, int pair,
                       const int *pairs)
{
    int d = c->d_model;
    double om = posenc_omega(pair, d, c->base);
    long npos = c->n_positions;
    term_attr(w, A_BOLD, 0);
    tui_fit(w, wy - 1, x + 1, pw + 8, T_F_WAVES, T_F_WAVES_S, 2 * pair, 2 * pair + 1, om,
            2 * M_PI / om);
    term_attr(w, A_NORMAL, 0);
    term_canvas cv;
    if (term_canvas_init(&cv, ph, pw, (double)c->index_base,
                         (double)(c->index_base + npos - 1), -1.05, 1.05) == 0) {
        int np = 2 * pw;
        for (int s = 0; s < 2; s++) {
            double xs[400], ys[400];
            int n = np < 400 ? np : 400;
            for (int k = 0; k < n; k++) {
                double pos = c->index_base + (double)k * (npos - 1) / (n - 1);
                xs[k] = pos;
                ys[k] = posenc_value(pos, 2 * pair + s, d, c->base);
            }
            term_canvas_line(&cv, xs, ys, n, s + 1);
        }
        term_canvas_draw(&cv, w, wy, x + 8, pairs, 3);
        term_canvas_free(&cv);
    }
    term_text(w, wy, x, "   +1", 7);
    term_text(w, wy + ph - 1, x, "   -1", 7);
    term_printf(w, wy + ph, x + 8, pw, "pos %d", c->index_base);
    term_printf(w, wy + ph, x + 8 + pw - 12, 12, "%11ld", c->index_base + npos - 1);
    term_attr(w, A_NORMAL, pairs[0]);
    term_text(w, wy + ph, x + 20, "sin", 3);
    term_attr(w, A_NORMAL, pairs[1]);
    term_text(w, wy + ph, x + 24, "cos", 3);
    term_attr(w, A_NORMAL, 0);
}

/* 3. a column of clocks, ncl a row, rw columns wide at (y, cx) down to y + rows */
static void draw_clocks(tui *t, const freq_state *f, WINDOW *w, int y, int cx, int rows, int rw,
                        int ncl, const int *pairs)
{
    int half = t->a->cfg.d_model / 2;
    term_attr(w, A_BOLD, 0);
    term_printf(w, y, cx, rw - 1, txtf(T_F_CLOCKS), f->pos);
    term_attr(w, A_NORMAL, 0);
    int nclocks = 0;
    for (int row = 0; y + 1 + row * (CLOCK_ROWS + 2) + CLOCK_ROWS < y + rows; row++)
        for (int k = 0; k < ncl; k++, nclocks++)
            ;
    if (nclocks > half)
        nclocks = half;
    for (int k = 0; k < nclocks; k++) {
        int i = nclocks > 1 ? (int)lround((double)k * (half - 1) / (nclocks - 1)) : 0;
        int row = k / ncl, col = k % ncl;
        draw_clock(w, y + 1 + row * (CLOCK_ROWS + 2), cx + col * (CLOCK_COLS + 2), t, i,
                   f->pos, pairs[i == f->pair ? 1 : 0]);
    }
}

static void draw(tui *t, void *state, WINDOW *w, int y, int x, int rows, int cols)
{
    freq_state *f = state;
    if (!f)
        return;
    const tf_config *c = &t->a->cfg;
    int half = c->d_model / 2;
    if (f->pair >= half)
        f->pair = half - 1;
    int ncl = (cols - 60) / (CLOCK_COLS + 2);
    ncl = ncl < 2 ? 2 : ncl > 4 ? 4 : ncl;
    int rw = ncl * (CLOCK_COLS + 2) + 1;
    int pw = cols - rw - 9, ph = (rows - 5) / 2;
    tf_rgb c1 = {214, 96, 77}, c2 = {67, 147, 195}, c3 = {120, 120, 120};
    int pairs[3] = {term_pair(&c1, NULL), term_pair(&c2, NULL), term_pair(&c3, NULL)};

    draw_wavelengths(w, y, x, ph, pw, c, f->pair, pairs);
    draw_waves(w, y + ph + 3, x, ph, pw, c, f->pair, pairs);
    draw_clocks(t, f, w, y, x + cols - rw + 1, rows, rw, ncl, pairs);
    double om = posenc_omega(f->pair, c->d_model, c->base);
    snprintf(t->cursor, sizeof t->cursor, "w_%d=%.6g  wavelength=%.6g", f->pair, om,
             2 * M_PI / om);
}

static int key(tui *t, void *state, int ch)
{
    freq_state *f = state;
    if (!f)
        return TUI_IGNORED;
    int half = t->a->cfg.d_model / 2;
    switch (ch) {
    case KEY_UP:
        f->pair = f->pair + 1 < half ? f->pair + 1 : half - 1;
        break;
    case KEY_DOWN:
        f->pair = f->pair > 0 ? f->pair - 1 : 0;
        break;
    case KEY_PPAGE:
        f->pair = f->pair + half / 16 + 1 < half ? f->pair + half / 16 + 1 : half - 1;
        break;
    case KEY_NPAGE:
        f->pair = f->pair > half / 16 + 1 ? f->pair - half / 16 - 1 : 0;
        break;
    case KEY_RIGHT:
        f->pos++;
        break;
    case KEY_LEFT:
        f->pos = f->pos > 0 ? f->pos - 1 : 0;
        break;
    case ' ':
    case 'a': /* the lesson's Space goes on: a runs the clocks there and here */
        f->animate = !f->animate;
        break;
    default:
        return TUI_IGNORED;
    }
    return TUI_REDRAW;
}

/* While the clocks run, they advance a position every frame. */
static int tick(tui *t, void *state)
{
    (void)t;
    freq_state *f = state;
    if (!f || !f->animate)
        return TUI_IGNORED;
    f->pos++;
    return TUI_REDRAW;
}

static int frame_ms(void *state)
{
    const freq_state *f = state;
    return f && f->animate ? 120 : 100;
}

static void still(void *state)
{
    freq_state *f = state;
    if (f)
        f->animate = false;
}

const tui_view view_freq = {
    .figure = "freq", .tab = T_TAB_FREQ, .caption = T_CAP_FREQ, .keys = T_KEYS_FREQ, .needs = 0,
    .init = init, .free = free, .draw = draw, .key = key, .tick = tick, .frame_ms = frame_ms,
    .still = still,
};
