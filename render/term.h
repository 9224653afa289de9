/* term.h — ncursesw primitives: colour set-up, CJK-aware text and tables, half-block heatmaps
 * and braille line plots. Pixels and cells only: every value drawn comes from the caller.
 *
 * Colour modes, chosen once after initscr():
 *   TERM_COLOR_TRUE  the terminal says it takes 24-bit colour (tigetflag("RGB") > 0)
 *   TERM_COLOR_256   the xterm 256-colour cube and grey ramp
 *   TERM_COLOR_8     the eight ANSI colours
 *   TERM_COLOR_NONE  NO_COLOR / --no-color / no colour support: a monochrome ASCII ramp
 * Without UTF-8 (LANG=C) only ASCII is drawn: shading characters instead of half blocks and
 * braille, and U+XXXX instead of characters the locale cannot show. */
#ifndef TF_TERM_H
#define TF_TERM_H

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#include <curses.h>
#include <stdbool.h>
#include <stddef.h>

#include "colormap.h"

typedef enum { TERM_COLOR_NONE = 0, TERM_COLOR_8, TERM_COLOR_256, TERM_COLOR_TRUE } term_color_mode;

typedef struct {
    term_color_mode color;
    bool utf8; /* the locale's codeset is UTF-8: wide characters, half blocks and braille */
} term_caps;

/* The locale's codeset is UTF-8 (call after setlocale). */
bool term_locale_utf8(void);
/* Pick the colour mode for the current screen and reset the pair cache. no_color forces
 * TERM_COLOR_NONE. Call after initscr()/newterm(). */
void term_setup(term_caps *out, bool utf8, bool no_color);
const term_caps *term_get_caps(void);
const char *term_color_name(term_color_mode m);

/* The colour pair (an extended pair number, 0 = default) for a foreground and background; bg
 * NULL keeps the terminal's own background. Pairs are cached; 0 in TERM_COLOR_NONE. */
int term_pair(const tf_rgb *fg, const tf_rgb *bg);
/* The pair for the colour of value v on [lo, hi] in map m, as a foreground on the default
 * background (for coloured numbers and bars). */
int term_value_pair(cmap_id m, double v, double lo, double hi);

/* Set the attributes and the extended pair for the following writes. */
void term_attr(WINDOW *w, attr_t a, int pair);

/* Write UTF-8 s at (y, x), at most maxw columns (and never past the window's right edge): text
 * wider than that is shortened at a space or after a wide character and ends with "..." (when
 * fewer than 4 columns are left it is cut at a character boundary, never through a wide
 * character); trailing blanks that do not fit are dropped. Without UTF-8, characters outside ASCII are written as U+XXXX. Returns the
 * columns written. */
int term_text(WINDOW *w, int y, int x, const char *s, int maxw);
/* Told of every text term_text could not write whole (wider than maxw or than the window from
 * x): s is the whole text; hard when there was no room even for a word and "...", so the text
 * was cut where the room ended. NULL (the default): nothing is told. The layout tests use it
 * to find shortened and cut text. */
typedef void (*term_cut_fn)(const char *s, bool hard);
void term_set_cut_hook(term_cut_fn fn);
/* Columns term_text would use for s. */
int term_text_width(const char *s);
/* Running text s word-wrapped (tw_wrap_line) into lines of at most width columns from row y, one
 * line every `spacing` rows, at most maxlines lines; when the text goes on past maxlines, the
 * last line ends with "..." (tw_ellipsize). w NULL only counts. Returns the lines used. */
int term_wrap(WINDOW *w, int y, int x, int width, int maxlines, int spacing, const char *s);
/* term_text with printf formatting (not format-checked: the explorer's formats come from its
 * string table). */
int term_printf(WINDOW *w, int y, int x, int maxw, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* A table of nrows x ncols UTF-8 cells (row-major, NULL = empty) laid out by display width:
 * column c is as wide as its widest cell, columns separated by `gap` spaces, numbers (cells
 * starting with a digit, '-' or '+') right-aligned. Row 0 is drawn bold when header is set.
 * Column widths are returned in widths (ncols) when not NULL. Returns the total width. */
int term_table(WINDOW *w, int y, int x, const char *const *cells, int nrows, int ncols, int gap,
               bool header, int *widths);

/* ---- half-block heatmap: two vertical pixels per cell ------------------------------------- */

/* The value of pixel (py, px), py in [0, 2*rows), px in [0, cols). */
typedef double (*term_pixel_fn)(void *ctx, int py, int px);

/* Fill rows x cols cells at (y, x) with 2*rows x cols pixels coloured by map m on [lo, hi]:
 * the upper pixel is the foreground of U+2580 (upper half block), the lower the background.
 * In TERM_COLOR_NONE or without UTF-8 each cell shows one pixel (the upper) as an ASCII ramp
 * character (with its colour as the background when colours exist). A NaN pixel has no data and
 * is left blank in the terminal's own colours, never drawn as a value. */
/* The pixels term_heatmap shows per cell row: 2 with half blocks, 1 in the ASCII fallback (where
 * it reads only the even pixel rows 0, 2, 4, ...). */
int term_heatmap_pixels_per_cell(void);
void term_heatmap(WINDOW *w, int y, int x, int rows, int cols, term_pixel_fn fn, void *ctx,
                  cmap_id m, double lo, double hi);
/* The ASCII ramp character for t in [0, 1] (dark to bright). */
char term_ramp_char(double t);
/* A horizontal colour bar of `cols` cells for the scale [lo, hi] with its end labels. */
void term_colorbar(WINDOW *w, int y, int x, int cols, cmap_id m, double lo, double hi);

/* ---- braille line plot: 2 x 4 dots per cell ----------------------------------------------- */

typedef struct {
    int rows, cols;          /* cells */
    double xlo, xhi, ylo, yhi;
    unsigned char *dots;     /* (rows, cols) braille dot bits, U+2800 + bits */
    unsigned char *series;   /* (rows, cols) the series (1-based) that set a cell last */
} term_canvas;

int term_canvas_init(term_canvas *c, int rows, int cols, double xlo, double xhi, double ylo,
                     double yhi);
void term_canvas_free(term_canvas *c);
/* Set the dot at data coordinates (x, y) when it falls inside; series tags its colour. */
void term_canvas_dot(term_canvas *c, double x, double y, int series);
/* A polyline through n points, dots interpolated between neighbours. */
void term_canvas_line(term_canvas *c, const double *xs, const double *ys, int n, int series);
/* Draw the canvas at (y, x); series s (1-based) gets pairs[s-1] (NULL: default colour).
 * Without UTF-8 each lit cell is drawn as '*'. */
void term_canvas_draw(const term_canvas *c, WINDOW *w, int y, int x, const int *pairs, int npairs);

/* Braille bit of dot (dx, dy) in a cell, dx in 0..1, dy in 0..3. */
unsigned term_braille_bit(int dx, int dy);

#endif
