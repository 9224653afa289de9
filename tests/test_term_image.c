/* test_term_image.c — pictures for the terminal: mode names, pixel sizes, bad requests, the
 * kitty payload decoded back to the pixels, sixel bands, symbol cells, and the bytes that place
 * and erase a picture (read from a pipe). term_image_test.py decodes whole pictures. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "term_image.h"
#include "tf_config.h"

/* A w x h RGBA8 picture: left half red, right half blue, a white top row. */
static unsigned char *two_colours(int w, int h)
{
    unsigned char *p = malloc((size_t)w * h * 4);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            unsigned char *q = p + ((size_t)y * w + x) * 4;
            if (y == 0) {
                q[0] = q[1] = q[2] = 255;
            } else if (x < w / 2) {
                q[0] = 220, q[1] = 20, q[2] = 30;
            } else {
                q[0] = 20, q[1] = 40, q[2] = 200;
            }
            q[3] = 255;
        }
    return p;
}

/* Everything fn(fd) writes to its descriptor (a temporary file). */
static char *capture(tf_status (*fn)(void *, int), void *ctx, size_t *len, tf_status *st)
{
    FILE *tmp = tmpfile();
    assert_non_null(tmp);
    *st = fn(ctx, fileno(tmp));
    long n = lseek(fileno(tmp), 0, SEEK_CUR);
    assert_true(n >= 0);
    char *buf = malloc((size_t)n + 1);
    rewind(tmp);
    assert_int_equal(fread(buf, 1, (size_t)n, tmp), (size_t)n);
    buf[n] = '\0';
    fclose(tmp);
    *len = (size_t)n;
    return buf;
}

static void test_mode_names(void **state)
{
    (void)state;
    for (int m = 0; m < TIMG_MODE_COUNT; m++)
        assert_int_equal(timg_mode_parse(timg_mode_name((timg_mode)m)), m);
    assert_int_equal(timg_mode_parse("Kitty"), TIMG_KITTY);
    assert_int_equal(timg_mode_parse("iTerm"), TIMG_ITERM);
    assert_int_equal(timg_mode_parse("sixels"), TIMG_MODE_COUNT);
    assert_int_equal(timg_mode_parse(""), TIMG_MODE_COUNT);
    assert_int_equal(timg_mode_parse(NULL), TIMG_MODE_COUNT);
    assert_string_equal(timg_mode_name(TIMG_MODE_COUNT), "unknown");
    assert_true(term_image_supports(TIMG_KITTY));
    assert_false(term_image_supports(TIMG_NONE));
    assert_int_equal(term_image_supports(TIMG_SIXEL), TF_HAVE_CHAFA != 0);
    assert_int_equal(term_image_supports(TIMG_SYMBOLS), TF_HAVE_CHAFA != 0);
}

static void test_pixel_size(void **state)
{
    (void)state;
    int w, h;
    timg_caps k = {.mode = TIMG_KITTY, .cell_w = 9, .cell_h = 18};
    term_image_pixel_size(&k, 40, 12, &w, &h);
    assert_int_equal(w, 360);
    assert_int_equal(h, 216);
    /* sixel: 14 rows of 20 pixels = 280, shown as 276 (46 bands of 6) */
    timg_caps s = {.mode = TIMG_SIXEL, .cell_w = 10, .cell_h = 20};
    term_image_pixel_size(&s, 30, 14, &w, &h);
    assert_int_equal(w, 300);
    assert_int_equal(h, 276);
    /* an unknown cell size: the default */
    timg_caps u = {.mode = TIMG_ITERM};
    term_image_pixel_size(&u, 10, 3, &w, &h);
    assert_int_equal(w, 10 * TIMG_DEFAULT_CELL_W);
    assert_int_equal(h, 3 * TIMG_DEFAULT_CELL_H);
    term_image_pixel_size(&u, 0, -1, &w, &h);
    assert_int_equal(w, 0);
    assert_int_equal(h, 0);
}

/* term_image_fit: a window too large for one picture gets a smaller one of the same shape, the
 * largest whose pixels stay within the limits; one within them is kept. */
static void test_fit(void **state)
{
    (void)state;
    timg_caps caps = {.mode = TIMG_SIXEL, .cell_w = 10, .cell_h = 20};
    int cols = 120, rows = 34;
    term_image_fit(&caps, &cols, &rows);
    assert_int_equal(cols, 120);
    assert_int_equal(rows, 34);
    int cases[][4] = {{1600, 498, 10, 20}, {1000, 296, 10, 20}, {5000, 3000, 1, 1},
                      {4096, 1, 10, 20}, {300, 300, 100, 100}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        caps.cell_w = cases[i][2], caps.cell_h = cases[i][3];
        cols = cases[i][0], rows = cases[i][1];
        term_image_fit(&caps, &cols, &rows);
        double w = (double)cols * caps.cell_w, h = (double)rows * caps.cell_h;
        assert_true(cols <= TIMG_MAX_CELLS && rows <= TIMG_MAX_CELLS);
        assert_true(w <= TIMG_MAX_PIXELS && h <= TIMG_MAX_PIXELS && w * h <= TIMG_MAX_AREA);
        /* the same proportions, and not smaller than it need be: one cell more on each side
         * would pass a limit */
        double s = (double)cols / cases[i][0];
        assert_true(fabs((double)rows / cases[i][1] - s) <=
                    fmax(1.0 / cases[i][0], 1.0 / cases[i][1]) + 1e-12);
        double w1 = w + caps.cell_w, h1 = h + caps.cell_h;
        assert_true(cols + 1 > TIMG_MAX_CELLS || rows + 1 > TIMG_MAX_CELLS ||
                    w1 > TIMG_MAX_PIXELS || h1 > TIMG_MAX_PIXELS || w1 * h1 > TIMG_MAX_AREA);
    }
    /* 1600 x 498 cells of 10 x 20: sqrt(4194304 / 159360000) = 0.16224 of each side */
    caps.cell_w = 10, caps.cell_h = 20, cols = 1600, rows = 498;
    term_image_fit(&caps, &cols, &rows);
    assert_int_equal(cols, 259);
    assert_int_equal(rows, 80);
}

static void test_bad_requests(void **state)
{
    (void)state;
    unsigned char *p = two_colours(20, 10);
    timg_pixels px = {.data = p, .width = 20, .height = 10, .stride = 80, .format = TIMG_RGBA8};
    timg_caps caps = {.mode = TIMG_KITTY, .cell_w = 10, .cell_h = 20};
    term_image img;
    memset(&img, 0x55, sizeof img);
    caps.mode = TIMG_NONE;
    assert_int_equal(term_image_encode(&caps, &px, 2, 1, 1, &img), TF_ERR_RANGE);
    assert_null(img.seq);
    caps.mode = TIMG_MODE_COUNT;
    assert_int_equal(term_image_encode(&caps, &px, 2, 1, 1, &img), TF_ERR_RANGE);
    caps.mode = TIMG_KITTY;
    assert_int_equal(term_image_encode(&caps, &px, 0, 1, 1, &img), TF_ERR_RANGE);
    assert_int_equal(term_image_encode(&caps, &px, 2, TIMG_MAX_CELLS + 1, 1, &img), TF_ERR_RANGE);
    timg_pixels bad = px;
    bad.stride = 79;
    assert_int_equal(term_image_encode(&caps, &bad, 2, 1, 1, &img), TF_ERR_RANGE);
    bad = px;
    bad.data = NULL;
    assert_int_equal(term_image_encode(&caps, &bad, 2, 1, 1, &img), TF_ERR_RANGE);
    bad = px;
    bad.width = 0;
    assert_int_equal(term_image_encode(&caps, &bad, 2, 1, 1, &img), TF_ERR_RANGE);
    /* more than TIMG_MAX_AREA pixels in all, though each side is within 16,384: refused before
     * anything is allocated (chafa's own size arithmetic overflowed at 16,000 x 9,960) */
    caps = (timg_caps){.mode = TIMG_SIXEL, .cell_w = 10, .cell_h = 20};
    assert_int_equal(term_image_encode(&caps, &px, 1600, 498, 1, &img), TF_ERR_RANGE);
    bad = px;
    bad.width = 16000, bad.height = 9960, bad.stride = 64000;
    caps.mode = TIMG_KITTY;
    assert_int_equal(term_image_encode(&caps, &bad, 2, 1, 1, &img), TF_ERR_RANGE);
    /* a sixel picture of one row of 4-pixel cells has no whole band */
    caps = (timg_caps){.mode = TIMG_SIXEL, .cell_w = 2, .cell_h = 4};
    assert_int_equal(term_image_encode(&caps, &px, 2, 1, 1, &img), TF_ERR_RANGE);
    /* writing and erasing nothing, or somewhere impossible */
    term_image none = {.mode = TIMG_NONE};
    assert_int_equal(term_image_write(&none, 1, 0, 0), TF_ERR_RANGE);
    assert_int_equal(term_image_print(&none, 1), TF_ERR_RANGE);
    assert_int_equal(term_image_erase(1, TIMG_NONE, 0, 0, 0, 1, 1), TF_ERR_RANGE);
    assert_int_equal(term_image_erase(1, TIMG_SIXEL, 0, -1, 0, 1, 1), TF_ERR_RANGE);
    /* a descriptor that takes nothing */
    caps = (timg_caps){.mode = TIMG_KITTY, .cell_w = 10, .cell_h = 20};
    assert_int_equal(term_image_encode(&caps, &px, 2, 1, 9, &img), TF_OK);
    assert_int_equal(term_image_write(&img, -1, 0, 0), TF_ERR_IO);
    term_image_free(&img);
    term_image_free(&img); /* twice is harmless */
    term_image_free(NULL);
    free(p);
}

/* kitty: the first command's keys, and the payload back to the very pixels. */
static void test_kitty_payload(void **state)
{
    (void)state;
    int w = 300, h = 200;
    unsigned char *p = two_colours(w, h);
    timg_pixels px = {.data = p, .width = w, .height = h, .stride = w * 4, .format = TIMG_RGBA8};
    timg_caps caps = {.mode = TIMG_KITTY, .cell_w = 10, .cell_h = 20};
    term_image img;
    assert_int_equal(term_image_encode(&caps, &px, 30, 10, 42, &img), TF_OK);
    assert_int_equal(img.id, 42);
    assert_int_equal(img.px_w, w);
    assert_int_equal(img.px_h, h);
    const char *want = "\033_Ga=T,f=24,o=z,s=300,v=200,c=30,r=10,i=42,q=2,C=1,m=";
    assert_memory_equal(img.seq, want, strlen(want));
    /* the base64 of every command, joined, decoded and inflated */
    size_t n_b64 = 0;
    char *b64 = malloc(img.len);
    for (size_t i = 0; i < img.len;) {
        const char *semi = memchr(img.seq + i, ';', img.len - i);
        assert_non_null(semi);
        const char *end = strstr(semi, "\033\\");
        assert_non_null(end);
        assert_true(end - semi - 1 <= 4096);
        memcpy(b64 + n_b64, semi + 1, (size_t)(end - semi - 1));
        n_b64 += (size_t)(end - semi - 1);
        i = (size_t)(end - img.seq) + 2;
    }
    static const char dict[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    unsigned char *z = malloc(n_b64);
    size_t nz = 0;
    uint32_t acc = 0;
    int bits = 0;
    for (size_t i = 0; i < n_b64 && b64[i] != '='; i++) {
        const char *d = strchr(dict, b64[i]);
        assert_non_null(d);
        acc = acc << 6 | (uint32_t)(d - dict);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            z[nz++] = (unsigned char)(acc >> bits);
        }
    }
    uLongf raw_len = (uLongf)w * h * 3;
    unsigned char *raw = malloc(raw_len);
    assert_int_equal(uncompress(raw, &raw_len, z, nz), Z_OK);
    assert_int_equal(raw_len, (uLongf)w * h * 3);
    for (int i = 0; i < w * h; i++)
        assert_memory_equal(raw + 3 * i, p + 4 * i, 3);
    /* a figure's flat colour compresses: far under the raw 180,000 bytes */
    assert_true(img.len < 4000);
    free(raw);
    free(z);
    free(b64);
    term_image_free(&img);

    /* a pixel that is not opaque: RGBA, straight alpha */
    p[4 * 5 + 3] = 128;
    assert_int_equal(term_image_encode(&caps, &px, 30, 10, 42, &img), TF_OK);
    assert_non_null(strstr(img.seq, "f=32,"));
    term_image_free(&img);
    free(p);
}

/* cairo's ARGB32 (premultiplied) reads as the same colours as straight RGBA. */
static void test_kitty_argb32(void **state)
{
    (void)state;
    uint32_t argb[4] = {0xffdc141e, 0xff1428c8, 0xffffffff, 0xff000000};
    unsigned char rgba[16] = {220, 20, 30, 255, 20, 40, 200, 255, 255, 255, 255, 255, 0, 0, 0, 255};
    timg_caps caps = {.mode = TIMG_KITTY, .cell_w = 10, .cell_h = 20};
    timg_pixels a = {.data = (const unsigned char *)argb,
                     .width = 2,
                     .height = 2,
                     .stride = 8,
                     .format = TIMG_ARGB32};
    timg_pixels b = {.data = rgba, .width = 2, .height = 2, .stride = 8, .format = TIMG_RGBA8};
    term_image ia, ib;
    assert_int_equal(term_image_encode(&caps, &a, 1, 1, 3, &ia), TF_OK);
    assert_int_equal(term_image_encode(&caps, &b, 1, 1, 3, &ib), TF_OK);
    assert_int_equal(ia.len, ib.len);
    assert_memory_equal(ia.seq, ib.seq, ia.len);
    term_image_free(&ia);
    term_image_free(&ib);
}

typedef struct {
    const term_image *img;
    int col, row;
} write_ctx;

static tf_status do_write(void *ctx, int fd)
{
    write_ctx *c = ctx;
    return term_image_write(c->img, fd, c->col, c->row);
}

static tf_status do_print(void *ctx, int fd)
{
    write_ctx *c = ctx;
    return term_image_print(c->img, fd);
}

static tf_status do_erase_sixel(void *ctx, int fd)
{
    (void)ctx;
    return term_image_erase(fd, TIMG_SIXEL, 0, 4, 2, 3, 2);
}

static tf_status do_erase_kitty(void *ctx, int fd)
{
    (void)ctx;
    return term_image_erase(fd, TIMG_KITTY, 77, 4, 2, 3, 2);
}

/* Placing: cursor saved, moved, the picture, cursor restored; erasing: kitty's delete by id,
 * blanks over the cells for the others; printing: room made first. */
static void test_place_and_erase(void **state)
{
    (void)state;
    unsigned char *p = two_colours(40, 40);
    timg_pixels px = {.data = p, .width = 40, .height = 40, .stride = 160, .format = TIMG_RGBA8};
    timg_caps caps = {.mode = TIMG_KITTY, .cell_w = 10, .cell_h = 20};
    term_image img;
    assert_int_equal(term_image_encode(&caps, &px, 4, 2, 5, &img), TF_OK);
    size_t len;
    tf_status st;
    write_ctx c = {&img, 7, 3};
    char *out = capture(do_write, &c, &len, &st);
    assert_int_equal(st, TF_OK);
    assert_int_equal(len, img.len + 2 + 6 + 2);
    assert_memory_equal(out, "\0337\033[4;8H", 8);
    assert_memory_equal(out + 8, img.seq, img.len);
    assert_memory_equal(out + 8 + img.len, "\0338", 2);
    free(out);

    out = capture(do_print, &c, &len, &st);
    assert_int_equal(st, TF_OK);
    const char *head = "\r\n\n\033[2A\0337";
    assert_memory_equal(out, head, strlen(head));
    const char *tail = "\0338\033[1B\r\n";
    assert_memory_equal(out + len - strlen(tail), tail, strlen(tail));
    free(out);
    term_image_free(&img);

    out = capture(do_erase_kitty, NULL, &len, &st);
    assert_int_equal(st, TF_OK);
    assert_string_equal(out, "\033_Ga=d,d=I,i=77,q=2\033\\");
    free(out);
    out = capture(do_erase_sixel, NULL, &len, &st);
    assert_int_equal(st, TF_OK);
    assert_string_equal(out, "\0337\033[0m\033[3;5H   \033[4;5H   \0338");
    free(out);
    free(p);
}

#if TF_HAVE_CHAFA

/* Symbols: rows x cols cells of block elements, the left half red, the right half blue. */
static void test_symbols(void **state)
{
    (void)state;
    unsigned char *p = two_colours(200, 100);
    timg_pixels px = {.data = p, .width = 200, .height = 100, .stride = 800, .format = TIMG_RGBA8};
    for (int tc = 0; tc < 2; tc++) {
        timg_caps caps = {.mode = TIMG_SYMBOLS, .truecolor = tc};
        term_image img;
        assert_int_equal(term_image_encode(&caps, &px, 20, 5, 0, &img), TF_OK);
        assert_int_equal(img.cols, 20);
        assert_int_equal(img.rows, 5);
        assert_null(img.seq);
        assert_non_null(img.cells);
        for (int y = 1; y < 5; y++)
            for (int x = 0; x < 20; x++) {
                const timg_cell *c = &img.cells[y * 20 + x];
                assert_true(c->ch == ' ' || (c->ch >= 0x2580 && c->ch <= 0x259f));
                /* a flat cell: a space shows its background, a full block its foreground */
                tf_rgb shown = c->ch == 0x2588 ? c->fg : c->bg;
                if (c->ch != ' ' && c->ch != 0x2588)
                    continue;
                if (x < 9)
                    assert_true(shown.r > 150 && shown.b < 90);
                else if (x > 10)
                    assert_true(shown.b > 150 && shown.r < 90);
                if (!tc)
                    assert_true((c->ch == ' ' ? c->bg_index : c->fg_index) >= 16);
            }
        /* the same picture, the same cells */
        term_image again;
        assert_int_equal(term_image_encode(&caps, &px, 20, 5, 0, &again), TF_OK);
        assert_memory_equal(img.cells, again.cells, 100 * sizeof *img.cells);
        /* written: one cursor move per row, then the row's cells */
        size_t len;
        tf_status st;
        write_ctx c = {&img, 0, 10};
        char *out = capture(do_write, &c, &len, &st);
        assert_int_equal(st, TF_OK);
        for (int y = 0; y < 5; y++) {
            char mv[16];
            snprintf(mv, sizeof mv, "\033[%d;1H", 11 + y);
            assert_non_null(strstr(out, mv));
        }
        assert_non_null(strstr(out, tc ? "\033[38;2;" : "\033[38;5;"));
        free(out);
        term_image_free(&again);
        term_image_free(&img);
    }
    free(p);
}

/* Sixel: the raster attributes give the band-rounded size; iTerm2: the cells. */
static void test_sixel_and_iterm(void **state)
{
    (void)state;
    unsigned char *p = two_colours(300, 280);
    timg_pixels px = {.data = p, .width = 300, .height = 280, .stride = 1200, .format = TIMG_RGBA8};
    timg_caps caps = {.mode = TIMG_SIXEL, .cell_w = 10, .cell_h = 20};
    term_image img;
    assert_int_equal(term_image_encode(&caps, &px, 30, 14, 0, &img), TF_OK);
    assert_int_equal(img.px_w, 300);
    assert_int_equal(img.px_h, 276);
    assert_memory_equal(img.seq, "\033P0;1;0q\"1;1;300;276", 20);
    assert_memory_equal(img.seq + img.len - 2, "\033\\", 2);
    term_image again;
    assert_int_equal(term_image_encode(&caps, &px, 30, 14, 0, &again), TF_OK);
    assert_int_equal(img.len, again.len);
    assert_memory_equal(img.seq, again.seq, img.len);
    term_image_free(&again);
    term_image_free(&img);

    caps.mode = TIMG_ITERM;
    assert_int_equal(term_image_encode(&caps, &px, 30, 14, 0, &img), TF_OK);
    const char *head = "\033]1337;File=inline=1;width=30;height=14;preserveAspectRatio=0:";
    assert_memory_equal(img.seq, head, strlen(head));
    assert_int_equal(img.seq[img.len - 1], '\a');
    term_image_free(&img);
    free(p);
}

#else

static void test_without_chafa(void **state)
{
    (void)state;
    unsigned char *p = two_colours(20, 10);
    timg_pixels px = {.data = p, .width = 20, .height = 10, .stride = 80, .format = TIMG_RGBA8};
    term_image img;
    for (int m = TIMG_SYMBOLS; m < TIMG_MODE_COUNT; m++) {
        timg_caps caps = {.mode = (timg_mode)m, .cell_w = 10, .cell_h = 20};
        assert_int_equal(term_image_encode(&caps, &px, 2, 1, 1, &img),
                         m == TIMG_KITTY ? TF_OK : TF_ERR_UNSUPPORTED);
        term_image_free(&img);
    }
    free(p);
}

#endif

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mode_names),
        cmocka_unit_test(test_pixel_size),
        cmocka_unit_test(test_fit),
        cmocka_unit_test(test_bad_requests),
        cmocka_unit_test(test_kitty_payload),
        cmocka_unit_test(test_kitty_argb32),
        cmocka_unit_test(test_place_and_erase),
#if TF_HAVE_CHAFA
        cmocka_unit_test(test_symbols),
        cmocka_unit_test(test_sixel_and_iterm),
#else
        cmocka_unit_test(test_without_chafa),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
