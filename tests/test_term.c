/* test_term.c — the ncursesw drawing primitives on an off-screen window: half-block heatmap,
 * braille plot, CJK-width table and text. The screen is a real ncurses SCREEN (newterm on
 * /dev/null with the xterm-256color description); what was drawn is read back cell by cell. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "colormap.h"
#include "term.h"

static SCREEN *scr;
static FILE *out, *in;

static int setup(void **state)
{
    (void)state;
    if (!setlocale(LC_ALL, "C.UTF-8"))
        return -1;
    out = fopen("/dev/null", "w");
    in = fopen("/dev/null", "r");
    scr = newterm("xterm-256color", out, in);
    if (!scr)
        return -1;
    set_term(scr);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    endwin();
    delscreen(scr);
    fclose(out);
    fclose(in);
    return 0;
}

/* The character, attributes and extended pair of cell (y, x). */
static wchar_t cell(WINDOW *w, int y, int x, int *pair)
{
    cchar_t cc;
    wchar_t wch[CCHARW_MAX + 1] = {0};
    attr_t attrs;
    short sp;
    int ext = 0;
    mvwin_wch(w, y, x, &cc);
    getcchar(&cc, wch, &attrs, &sp, &ext);
    if (pair)
        *pair = ext ? ext : sp;
    return wch[0];
}

/* RGB of an xterm-256 colour index, from the xterm palette definition (not from term.c). */
static tf_rgb xterm_rgb(int c)
{
    if (c >= 232) {
        uint8_t v = (uint8_t)(8 + 10 * (c - 232));
        return (tf_rgb){v, v, v};
    }
    c -= 16;
    static const uint8_t lv[6] = {0, 95, 135, 175, 215, 255};
    return (tf_rgb){lv[c / 36], lv[(c / 6) % 6], lv[c % 6]};
}

static double rgb_dist(tf_rgb a, tf_rgb b)
{
    return sqrt((double)(a.r - b.r) * (a.r - b.r) + (double)(a.g - b.g) * (a.g - b.g) +
                (double)(a.b - b.b) * (a.b - b.b));
}

/* The distance from c to the closest of the 240 cube and grey colours, by brute force. */
static double best_256(tf_rgb c)
{
    double best = 1e9;
    for (int i = 16; i < 256; i++)
        best = fmin(best, rgb_dist(xterm_rgb(i), c));
    return best;
}

/* pixel (py, px): -1 on even pixel rows, +1 on odd ones, so each cell is blue over red */
static double stripes(void *ctx, int py, int px)
{
    (void)ctx, (void)px;
    return py % 2 ? 1.0 : -1.0;
}

static double ramp(void *ctx, int py, int px)
{
    (void)ctx, (void)py;
    return px / 9.0;
}

static void test_heatmap_half_blocks(void **state)
{
    (void)state;
    term_caps caps;
    term_setup(&caps, true, false);
    assert_int_equal(caps.color, TERM_COLOR_256);
    WINDOW *w = newwin(3, 5, 0, 0);
    term_heatmap(w, 0, 0, 3, 5, stripes, NULL, CMAP_RDBU, -1.0, 1.0);
    tf_rgb lo = colormap_value(CMAP_RDBU, -1.0, -1.0, 1.0), hi = colormap_value(CMAP_RDBU, 1.0, -1.0, 1.0);
    for (int y = 0; y < 3; y++)
        for (int x = 0; x < 5; x++) {
            int pair, fg, bg;
            assert_int_equal(cell(w, y, x, &pair), 0x2580); /* upper half block */
            assert_true(pair > 0);
            assert_int_equal(extended_pair_content(pair, &fg, &bg), OK);
            /* upper pixel (-1) is the foreground, lower (+1) the background, each the palette
             * colour closest to the map's colour (up to the 64-level quantisation: slack 8) */
            assert_true(rgb_dist(xterm_rgb(fg), lo) <= best_256(lo) + 8);
            assert_true(rgb_dist(xterm_rgb(bg), hi) <= best_256(hi) + 8);
            assert_true(fg != bg);
        }
    delwin(w);
}

/* With a terminal that says it takes 24-bit colour (xterm-direct: RGB flag, 2^24 colours) the
 * colour numbers are the RGB values themselves. */
static void test_heatmap_truecolor(void **state)
{
    (void)state;
    FILE *o2 = fopen("/dev/null", "w"), *i2 = fopen("/dev/null", "r");
    SCREEN *direct = newterm("xterm-direct", o2, i2);
    assert_non_null(direct); /* terminfo from ncurses-term (scripts/bootstrap.sh) */
    set_term(direct);
    term_caps caps;
    term_setup(&caps, true, false);
    assert_int_equal(caps.color, TERM_COLOR_TRUE);
    WINDOW *w = newwin(1, 2, 0, 0);
    term_heatmap(w, 0, 0, 1, 2, stripes, NULL, CMAP_RDBU, -1.0, 1.0);
    tf_rgb lo = colormap_value(CMAP_RDBU, -1.0, -1.0, 1.0), hi = colormap_value(CMAP_RDBU, 1.0, -1.0, 1.0);
    int pair, fg, bg;
    assert_int_equal(cell(w, 0, 1, &pair), 0x2580);
    assert_int_equal(extended_pair_content(pair, &fg, &bg), OK);
    tf_rgb f = {(uint8_t)(fg >> 16), (uint8_t)(fg >> 8), (uint8_t)fg};
    tf_rgb b = {(uint8_t)(bg >> 16), (uint8_t)(bg >> 8), (uint8_t)bg};
    /* exact up to the 64-level quantisation of the map */
    assert_true(rgb_dist(f, lo) <= 16);
    assert_true(rgb_dist(b, hi) <= 16);
    delwin(w);
    endwin();
    set_term(scr);
    delscreen(direct);
    fclose(o2);
    fclose(i2);
    term_setup(NULL, true, false);
}

static void test_heatmap_mono_and_ascii(void **state)
{
    (void)state;
    WINDOW *w = newwin(1, 10, 0, 0);
    term_setup(NULL, true, true); /* NO_COLOR: the ASCII ramp, one pixel per cell */
    term_heatmap(w, 0, 0, 1, 10, ramp, NULL, CMAP_RDBU, 0.0, 1.0);
    const char want[] = " .:-=+*#%@";
    for (int x = 0; x < 10; x++) {
        int pair;
        assert_int_equal(cell(w, 0, x, &pair), (wchar_t)want[x]);
        assert_int_equal(pair, 0);
    }
    term_setup(NULL, false, false); /* LANG=C with colours: ASCII glyphs, colour backgrounds */
    werase(w);
    term_heatmap(w, 0, 0, 1, 10, ramp, NULL, CMAP_VIRIDIS, 0.0, 1.0);
    for (int x = 0; x < 10; x++) {
        int pair;
        assert_int_equal(cell(w, 0, x, &pair), (wchar_t)want[x]);
        assert_true(pair > 0);
    }
    delwin(w);
    term_setup(NULL, true, false);
}

static void test_braille_dots(void **state)
{
    (void)state;
    /* the Unicode braille numbering: dots 1-3 and 7 down the left column, 4-6 and 8 the right */
    assert_int_equal(term_braille_bit(0, 0), 0x01);
    assert_int_equal(term_braille_bit(0, 1), 0x02);
    assert_int_equal(term_braille_bit(0, 2), 0x04);
    assert_int_equal(term_braille_bit(1, 0), 0x08);
    assert_int_equal(term_braille_bit(1, 1), 0x10);
    assert_int_equal(term_braille_bit(1, 2), 0x20);
    assert_int_equal(term_braille_bit(0, 3), 0x40);
    assert_int_equal(term_braille_bit(1, 3), 0x80);

    term_canvas c;
    /* 2 rows x 3 cols = 8 x 6 dots; data x 0..5 and y 0..7 map one unit to one dot */
    assert_int_equal(term_canvas_init(&c, 2, 3, 0, 5, 0, 7), 0);
    term_canvas_dot(&c, 0, 7, 1); /* top-left dot */
    term_canvas_dot(&c, 5, 0, 1); /* bottom-right dot */
    term_canvas_dot(&c, 99, 0, 1); /* outside: ignored */
    WINDOW *w = newwin(2, 3, 0, 0);
    term_canvas_draw(&c, w, 0, 0, NULL, 0);
    assert_int_equal(cell(w, 0, 0, NULL), 0x2801);
    assert_int_equal(cell(w, 1, 2, NULL), 0x2880);
    assert_int_equal(cell(w, 0, 2, NULL), ' ');
    term_canvas_free(&c);

    /* a horizontal line through y = 7 lights the top dot row of every cell: dots 1 and 4 */
    assert_int_equal(term_canvas_init(&c, 2, 3, 0, 5, 0, 7), 0);
    double xs[2] = {0, 5}, ys[2] = {7, 7};
    term_canvas_line(&c, xs, ys, 2, 1);
    werase(w);
    term_canvas_draw(&c, w, 0, 0, NULL, 0);
    for (int x = 0; x < 3; x++) {
        assert_int_equal(cell(w, 0, x, NULL), 0x2800 + 0x01 + 0x08);
        assert_int_equal(cell(w, 1, x, NULL), ' ');
    }
    /* a vertical line at x = 0 fills the left column of the first cells: dots 1,2,3,7 */
    term_canvas_free(&c);
    assert_int_equal(term_canvas_init(&c, 2, 3, 0, 5, 0, 7), 0);
    double vx[2] = {0, 0}, vy[2] = {0, 7};
    term_canvas_line(&c, vx, vy, 2, 1);
    werase(w);
    term_canvas_draw(&c, w, 0, 0, NULL, 0);
    assert_int_equal(cell(w, 0, 0, NULL), 0x2800 + 0x47);
    assert_int_equal(cell(w, 1, 0, NULL), 0x2800 + 0x47);
    term_canvas_free(&c);
    delwin(w);
}

static void test_cjk_table(void **state)
{
    (void)state;
    WINDOW *w = newwin(5, 30, 0, 0);
    const char *cells[] = {"token", "id", "我", "5300", "学习", "3593", "hello", "7"};
    int widths[2];
    int total = term_table(w, 0, 0, cells, 4, 2, 2, true, widths);
    assert_int_equal(widths[0], 5); /* "token" and "hello": 5 columns; 学习: 4 */
    assert_int_equal(widths[1], 4);
    assert_int_equal(total, 11);
    assert_int_equal(cell(w, 1, 0, NULL), L'我');
    assert_int_equal(cell(w, 2, 0, NULL), L'学');
    assert_int_equal(cell(w, 2, 2, NULL), L'习'); /* a wide character takes two columns */
    /* the id column starts at 5 + 2 and numbers are right-aligned in its 4 columns */
    assert_int_equal(cell(w, 1, 7, NULL), L'5');
    assert_int_equal(cell(w, 2, 7, NULL), L'3');
    assert_int_equal(cell(w, 3, 10, NULL), L'7');
    assert_int_equal(cell(w, 3, 7, NULL), L' ');
    delwin(w);
}

static int cuts, hard_cuts;

static void count_cut(const char *s, bool hard)
{
    (void)s;
    cuts++;
    hard_cuts += hard;
}

static void test_text_width_and_cut(void **state)
{
    (void)state;
    WINDOW *w = newwin(2, 20, 0, 0);
    assert_int_equal(term_text_width("我爱学习"), 8);
    assert_int_equal(term_text_width("PE(3, 10)"), 9);
    /* 3 columns are too few for "...": one wide character, never half of the second */
    cuts = hard_cuts = 0;
    term_set_cut_hook(count_cut);
    assert_int_equal(term_text(w, 0, 0, "我爱学习", 3), 2);
    assert_int_equal(cell(w, 0, 0, NULL), L'我');
    assert_int_equal(cell(w, 0, 2, NULL), L' ');
    assert_true(cuts == 1 && hard_cuts == 1);
    /* with room for it the text is shortened after a wide character and ends with "..." */
    assert_int_equal(term_text(w, 0, 0, "我爱学习", 7), 7);
    assert_int_equal(cell(w, 0, 2, NULL), L'爱');
    assert_int_equal(cell(w, 0, 4, NULL), L'.');
    assert_true(cuts == 2 && hard_cuts == 1);
    /* at a space, never in a word; a bracket the cut would leave open goes with it */
    werase(w);
    assert_int_equal(term_text(w, 0, 0, "nearest pair (distance 3.71)", 20), 15);
    assert_int_equal(cell(w, 0, 12, NULL), L'.');
    assert_int_equal(cell(w, 0, 11, NULL), L'r');
    /* the window's right edge stops the text as maxw does: no wrap to the next row */
    werase(w);
    term_text(w, 0, 14, "abc defgh", 40);
    assert_int_equal(cell(w, 0, 17, NULL), L'.');
    assert_int_equal(cell(w, 1, 0, NULL), L' ');
    /* a running text's last line, shortened, leaves no bracket open either */
    werase(w);
    assert_int_equal(term_wrap(w, 0, 0, 12, 1, 1, "one (two three four)"), 1);
    assert_int_equal(cell(w, 0, 2, NULL), L'e');
    assert_int_equal(cell(w, 0, 3, NULL), L'.');
    assert_int_equal(cell(w, 0, 6, NULL), L' ');
    /* text that fits is no cut, nor are blanks past the room */
    assert_int_equal(term_text(w, 0, 0, "abc     ", 4), 4);
    assert_int_equal(cuts, 5);
    term_set_cut_hook(NULL);
    /* without UTF-8, characters outside ASCII are written as U+XXXX */
    term_setup(NULL, false, false);
    assert_int_equal(term_text_width("a我"), 7);
    assert_int_equal(term_text(w, 1, 0, "a我", 20), 7);
    const char want[] = "aU+6211";
    for (int x = 0; x < 7; x++)
        assert_int_equal(cell(w, 1, x, NULL), (wchar_t)want[x]);
    term_setup(NULL, true, false);
    delwin(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_heatmap_half_blocks),
        cmocka_unit_test(test_heatmap_truecolor),
        cmocka_unit_test(test_heatmap_mono_and_ascii),
        cmocka_unit_test(test_braille_dots),
        cmocka_unit_test(test_cjk_table),
        cmocka_unit_test(test_text_width_and_cut),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
