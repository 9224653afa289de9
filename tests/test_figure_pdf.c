/* test_figure_pdf.c — PDF heatmaps as indexed images: the same colours as cairo's own RGB image
 * and as the colour map, a cross-reference table that still points at every object, and cairo
 * output in another form refused before a byte is written. The PDFs are read here with zlib
 * and string scanning, independently of figure_pdf.c. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "colormap.h"
#include "figure.h"
#include "figure_priv.h"

typedef struct {
    char *buf;
    size_t len;
} pdf_bytes;

/* Position of lit in p at or after from, or -1. The PDF's binary streams may hold NUL bytes,
 * so the scan compares byte ranges, not C strings. */
static long seek(const pdf_bytes *p, long from, const char *lit)
{
    size_t n = strlen(lit);
    for (size_t i = (size_t)from; i + n <= p->len; i++)
        if (memcmp(p->buf + i, lit, n) == 0)
            return (long)i;
    return -1;
}

/* The heatmaps drawn: the first small, the others above the size that is compressed on a
 * thread of its own while the page is drawn. Values over [-1.3, 1.3] with a NaN: cells outside
 * the scale and the NaN exercise the clamping. */
static const int sizes[][2] = {{37, 53}, {300, 260}, {256, 257}}; /* rows, cols */
enum { MAX_IMAGES = 3 };

static double *matrix(int k)
{
    int rows = sizes[k][0], cols = sizes[k][1];
    double *v = malloc((size_t)rows * cols * sizeof *v);
    assert_non_null(v);
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++)
            v[r * cols + c] = 1.3 * sin(0.37 * r + 0.11 * c * c + k);
    v[5 * cols + 7] = NAN;
    return v;
}

/* A page with the first n heatmaps one above the other. */
static pdf_bytes draw_pdf(bool plain, cmap_id cm, int n)
{
    pdf_bytes p = {0};
    FILE *fp = open_memstream(&p.buf, &p.len);
    assert_non_null(fp);
    fig_spec s = {.format = FIG_PDF, .width = 200, .height = 160.0 * n, .dpi = 300,
                  .font_size = 8, .latin_first = true, .fp = fp, .plain_images = plain};
    fig_meta m = {.title = "t", .software = "tfviz test", .date = "2000-01-01T00:00:00Z"};
    fig *f = NULL;
    assert_int_equal(fig_begin(&s, &m, &f), TF_OK);
    for (int k = 0; k < n; k++) {
        int rows = sizes[k][0], cols = sizes[k][1];
        double *v = matrix(k);
        fig_axes a = {.x = {.lo = 0, .hi = cols}, .y = {.lo = 0, .hi = rows, .flip = true}};
        fig_axes_fit(f, &a, (fig_rect){10, 10 + 160.0 * k, 180, 140});
        assert_int_equal(fig_heatmap(f, &a, &(fig_matrix){.f64 = v, .rows = rows, .cols = cols},
                                     cm, -1.0, 1.0),
                         TF_OK);
        fig_axes_draw(f, &a);
        free(v);
    }
    assert_int_equal(fig_end(f), TF_OK);
    assert_int_equal(fclose(fp), 0);
    return p;
}

/* The dictionary of the image object whose /Width and /Height are w and h: [*dict, *data) with
 * *data the first byte after "stream\n". */
static void find_image(const pdf_bytes *p, int w, int h, long *dict, long *data)
{
    char want[64];
    snprintf(want, sizeof want, "/Width %d\n   /Height %d\n", w, h);
    long at = seek(p, 0, want);
    assert_true(at > 0);
    assert_true(seek(p, at + 1, want) < 0); /* one image of that size */
    long d = at;
    while (d > 0 && memcmp(p->buf + d, "<<", 2) != 0)
        d--;
    *dict = d;
    long s = seek(p, at, "stream\n");
    assert_true(s > 0);
    *data = s + 7;
}

static unsigned char *inflate_at(const pdf_bytes *p, long data, size_t want)
{
    unsigned char *out = malloc(want + 1);
    assert_non_null(out);
    z_stream z = {0};
    assert_int_equal(inflateInit(&z), Z_OK);
    z.next_in = (unsigned char *)p->buf + data;
    z.avail_in = (uInt)(p->len - (size_t)data);
    z.next_out = out;
    z.avail_out = (uInt)want + 1;
    assert_int_equal(inflate(&z, Z_FINISH), Z_STREAM_END);
    assert_int_equal(z.total_out, want); /* exactly one byte per cell (or three) */
    inflateEnd(&z);
    return out;
}

/* Heatmap k of the indexed PDF ix against the same heatmap in cairo's own image (rgb) and
 * against the colour map. */
static void compare_image(const pdf_bytes *ix, const pdf_bytes *rgb, int k, cmap_id cm)
{
    int rows = sizes[k][0], cols = sizes[k][1];
    size_t cells = (size_t)rows * cols;
    long d1, s1, d2, s2;
    find_image(ix, cols, rows, &d1, &s1);
    find_image(rgb, cols, rows, &d2, &s2);
    long cs = seek(ix, d1, "/ColorSpace [ /Indexed /DeviceRGB 255 <");
    assert_true(cs > d1 && cs < s1);
    /* cairo stores an image of greys as /DeviceGray, one byte per pixel */
    cs = seek(rgb, d2, "/ColorSpace /DeviceRGB\n");
    int channels = cs > d2 && cs < s2 ? 3 : 1;
    if (channels == 1) {
        cs = seek(rgb, d2, "/ColorSpace /DeviceGray\n");
        assert_true(cm == CMAP_GRAY && cs > d2 && cs < s2);
    }
    assert_true(seek(ix, d1, "/Interpolate false") < s1); /* nearest neighbour kept */

    /* the palette, read from its hex string */
    long hx = seek(ix, d1, "255 <") + 5;
    unsigned char pal[768];
    for (int i = 0; i < 768; i++) {
        unsigned byte;
        assert_int_equal(sscanf(ix->buf + hx + 2 * i, "%2x", &byte), 1);
        pal[i] = (unsigned char)byte;
    }
    assert_int_equal(ix->buf[hx + 1536], '>');
    unsigned char *idx = inflate_at(ix, s1, cells);
    unsigned char *px = inflate_at(rgb, s2, cells * (size_t)channels);
    double *v = matrix(k);
    for (size_t i = 0; i < cells; i++) {
        tf_rgb want = colormap_value(cm, v[i], -1.0, 1.0);
        const unsigned char *got = pal + 3 * idx[i];
        for (int c = 0; c < 3; c++) /* what cairo's own image says */
            assert_int_equal(got[c], px[channels * i + (channels == 3 ? (size_t)c : 0)]);
        assert_int_equal(got[0], want.r); /* what the colour map says */
        assert_int_equal(got[1], want.g);
        assert_int_equal(got[2], want.b);
    }
    /* the NaN lands on the table's middle */
    assert_int_equal(idx[5 * cols + 7], 128);
    /* one byte per cell rather than three: the indexed stream is the smaller one */
    if (channels == 3)
        assert_true(seek(ix, s1, "\nendstream\n") - s1 < seek(rgb, s2, "\nendstream\n") - s2);
    free(v);
    free(idx);
    free(px);
}

static void test_indexed_matches_cairo_and_colormap(void **state)
{
    (void)state;
    for (cmap_id cm = 0; cm < CMAP_COUNT; cm++) {
        pdf_bytes ix = draw_pdf(false, cm, 1), rgb = draw_pdf(true, cm, 1);
        compare_image(&ix, &rgb, 0, cm);
        free(ix.buf);
        free(rgb.buf);
    }
}

/* Every in-use entry of the cross-reference table points at its own object, startxref at the
 * table, and each stream's /Length object holds the stream's true length. */
static void check_structure(const pdf_bytes *p)
{
    long sx = -1;
    for (long at = seek(p, 0, "startxref\n"); at >= 0; at = seek(p, at + 1, "startxref\n"))
        sx = at;
    assert_true(sx > 0);
    long xref = strtol(p->buf + sx + 10, NULL, 10);
    assert_memory_equal(p->buf + xref, "xref\n0 ", 7);
    char *e;
    long count = strtol(p->buf + xref + 7, &e, 10);
    assert_true(count > 3);
    const char *table = e + 1;
    for (long i = 1; i < count; i++) {
        const char *entry = table + 20 * i;
        assert_int_equal(entry[17], 'n');
        long off = strtol(entry, NULL, 10);
        char head[32];
        int hl = snprintf(head, sizeof head, "%ld 0 obj\n", i);
        assert_true(off > 0 && (size_t)off + (size_t)hl < p->len);
        assert_memory_equal(p->buf + off, head, (size_t)hl);
        assert_true(off == 0 || p->buf[off - 1] == '\n');
    }
    /* streams: "/Length N 0 R" ... "stream\n" data "\nendstream" */
    for (long at = seek(p, 0, "/Length "); at >= 0 && at < xref; at = seek(p, at + 1, "/Length ")) {
        char *after;
        long obj = strtol(p->buf + at + 8, &after, 10);
        if (strncmp(after, " 0 R", 4) != 0)
            continue;
        long s = seek(p, at, "stream\n") + 7, en = seek(p, s, "\nendstream\n");
        long off = strtol(table + 20 * obj, NULL, 10);
        char *num = strchr(p->buf + off, '\n') + 1;
        assert_int_equal(strtol(num, NULL, 10), en - s);
    }
}

static void test_cross_references(void **state)
{
    (void)state;
    pdf_bytes ix = draw_pdf(false, CMAP_VIRIDIS, 1), rgb = draw_pdf(true, CMAP_VIRIDIS, 1);
    check_structure(&ix);
    check_structure(&rgb);
    /* the marker cairo carried is gone, and no JPEG filter is left */
    assert_true(seek(&ix, 0, "/DCTDecode") < 0);
    assert_true(seek(&ix, 0, "tfviz indexed image") < 0);
    free(ix.buf);
    free(rgb.buf);
}

/* Three heatmaps on one page, two of them compressed on threads while the page is drawn: each
 * one's cells, and the cross-references after three replacements. */
static void test_several_large_images(void **state)
{
    (void)state;
    pdf_bytes ix = draw_pdf(false, CMAP_RDBU, MAX_IMAGES);
    pdf_bytes rgb = draw_pdf(true, CMAP_RDBU, MAX_IMAGES);
    for (int k = 0; k < MAX_IMAGES; k++)
        compare_image(&ix, &rgb, k, CMAP_RDBU);
    check_structure(&ix);
    check_structure(&rgb);
    free(ix.buf);
    free(rgb.buf);
}

/* ---------------------------------------------------------------------------------------------
 * cairo output in another form: refused, nothing written */

enum { ROWS = 37, COLS = 53 }; /* sizes[0] */

typedef enum {
    FAKE_GOOD,
    FAKE_NO_MARK,
    FAKE_TWO_MARKS,
    FAKE_BAD_STARTXREF,     /* startxref points past the table */
    FAKE_TRAILER_FIRST,     /* the trailer and startxref before the table */
    FAKE_WIDTH,             /* the image's /Width is not the heatmap's */
    FAKE_LENGTH_VALUE,      /* the /Length object holds another number */
    FAKE_LENGTH_DIRECT,     /* /Length is a number, not a reference */
    FAKE_COUNT
} fake_kind;

/* A one-image PDF laid out as cairo 1.16 writes it, with the marker as the image's data, or
 * with one thing changed. */
static pdf_bytes fake_pdf(const unsigned char *mark, size_t mark_len, fake_kind kind)
{
    pdf_bytes p = {0};
    FILE *fp = open_memstream(&p.buf, &p.len);
    long off[4];
    fputs("%PDF-1.5\n", fp);
    off[1] = ftell(fp);
    fputs("1 0 obj\n<< /Type /Catalog >>\nendobj\n", fp);
    off[2] = ftell(fp);
    fprintf(fp, "2 0 obj\n<< /Length %s\n   /Type /XObject\n   /Subtype /Image\n"
                "   /Width %d\n   /Height %d\n   /ColorSpace /DeviceRGB\n"
                "   /Interpolate false\n   /BitsPerComponent 8\n   /Filter /DCTDecode\n>>\n"
                "stream\n", kind == FAKE_LENGTH_DIRECT ? "40" : "3 0 R",
            COLS + (kind == FAKE_WIDTH), ROWS);
    for (int i = 0; i < (kind == FAKE_NO_MARK ? 0 : kind == FAKE_TWO_MARKS ? 2 : 1); i++)
        fwrite(mark, 1, mark_len, fp);
    fputs("\nendstream\nendobj\n", fp);
    off[3] = ftell(fp);
    fprintf(fp, "3 0 obj\n   %zu\nendobj\n", mark_len + (kind == FAKE_LENGTH_VALUE));
    long xref = ftell(fp);
    char trailer[128];
    long points_at = kind == FAKE_BAD_STARTXREF ? xref + 3 : xref;
    for (int pass = 0; pass < 2; pass++) { /* trailer first: the table follows the trailer */
        snprintf(trailer, sizeof trailer,
                 "trailer\n<< /Size 4\n   /Root 1 0 R\n>>\nstartxref\n%ld\n%%%%EOF\n",
                 points_at);
        if (kind == FAKE_TRAILER_FIRST)
            points_at = xref + (long)strlen(trailer);
    }
    if (kind == FAKE_TRAILER_FIRST) {
        fputs(trailer, fp);
        assert_int_equal(ftell(fp), points_at);
    }
    fputs("xref\n0 4\n0000000000 65535 f \n", fp);
    for (int i = 1; i < 4; i++)
        fprintf(fp, "%010ld 00000 n \n", off[i]);
    if (kind != FAKE_TRAILER_FIRST)
        fputs(trailer, fp);
    fclose(fp);
    return p;
}

static tf_status put(const pdf_bytes *in, size_t len, fig_pdf_image *const *im, size_t n,
                     pdf_bytes *out)
{
    *out = (pdf_bytes){0};
    FILE *fp = open_memstream(&out->buf, &out->len);
    assert_non_null(fp);
    tf_status st = fig_pdf_put_images((const unsigned char *)in->buf, len, im, n, fp);
    assert_int_equal(fclose(fp), 0);
    return st;
}

static void test_refuses_other_forms(void **state)
{
    (void)state;
    fig f;
    memset(&f, 0, sizeof f);
    cairo_surface_t *img = cairo_image_surface_create(CAIRO_FORMAT_RGB24, COLS, ROWS);
    unsigned char *index = calloc(ROWS * COLS, 1);
    tf_rgb pal[256];
    colormap_palette(CMAP_VIRIDIS, pal);
    assert_true(fig_pdf_mark(&f, img, index, ROWS, COLS, pal));
    fig_pdf_images_wait(&f);
    const fig_pdf_image *im = f.pdf_images[0];

    for (fake_kind k = 0; k < FAKE_COUNT; k++) {
        pdf_bytes in = fake_pdf(im->mark, im->mark_len, k), out;
        tf_status st = put(&in, in.len, f.pdf_images, 1, &out);
        if (k == FAKE_GOOD) {
            assert_int_equal(st, TF_OK);
            check_structure(&out);
            assert_true(seek(&out, 0, "/Indexed /DeviceRGB 255") > 0);
        } else {
            assert_int_equal(st, TF_ERR_FORMAT);
            assert_int_equal(out.len, 0); /* nothing written */
        }
        free(out.buf);

        /* cut short anywhere: refused with nothing written, unless only "%%EOF" is lost */
        if (k == FAKE_GOOD) {
            long tail = seek(&in, 0, "%%EOF");
            for (size_t cut = 0; cut < in.len; cut++) {
                bool whole = (long)cut >= tail - 1; /* the startxref number all there */
                assert_int_equal(put(&in, cut, f.pdf_images, 1, &out),
                                 whole ? TF_OK : TF_ERR_FORMAT);
                if (!whole)
                    assert_int_equal(out.len, 0);
                free(out.buf);
            }
        }
        free(in.buf);
    }
    /* no images: the bytes pass through unchanged */
    pdf_bytes in = fake_pdf(im->mark, im->mark_len, FAKE_GOOD), out;
    assert_int_equal(put(&in, in.len, f.pdf_images, 0, &out), TF_OK);
    assert_int_equal(out.len, in.len);
    assert_memory_equal(out.buf, in.buf, in.len);
    free(in.buf);
    free(out.buf);
    fig_pdf_images_free(&f);
    cairo_surface_destroy(img);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_indexed_matches_cairo_and_colormap),
        cmocka_unit_test(test_cross_references),
        cmocka_unit_test(test_several_large_images),
        cmocka_unit_test(test_refuses_other_forms),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    fig_release_fonts();
    return failed;
}
