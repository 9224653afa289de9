/* test_figure_pdf.c — PDF heatmaps as indexed images added by an incremental update: the same
 * colours as cairo's own RGB image and as the colour map; cairo's PDF kept byte for byte with the
 * update after it (new versions of the marked image objects, a cross-reference section and a
 * trailer that points back); PDFs with a classic table or a cross-reference stream; and output
 * that cannot be read as expected refused before a byte is written. The PDFs are read here with
 * zlib and string scanning, independently of pdf_append.c, and by poppler's pdfimages when it
 * is installed. */
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

#include "colormap.h"
#include "figure.h"
#include "figure_priv.h"

typedef struct {
    char *buf;
    size_t len;
} pdf_bytes;

/* Position of lit in p at or after from (and before to, -1: the end), or -1. The PDF's binary
 * streams may hold NUL bytes, so the scan compares byte ranges, not C strings. */
static long seek_to(const pdf_bytes *p, long from, long to, const char *lit)
{
    size_t n = strlen(lit), end = to < 0 ? p->len : (size_t)to;
    for (size_t i = (size_t)from; i + n <= end; i++)
        if (memcmp(p->buf + i, lit, n) == 0)
            return (long)i;
    return -1;
}

static long seek(const pdf_bytes *p, long from, const char *lit) { return seek_to(p, from, -1, lit); }

static long seek_last(const pdf_bytes *p, const char *lit)
{
    long at = -1;
    for (long k = seek(p, 0, lit); k >= 0; k = seek(p, k + 1, lit))
        at = k;
    return at;
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

/* The image object of size w x h whose dictionary holds `kind` ("/Indexed" or "/DeviceRGB"):
 * [*dict, *data) with *data the first byte after "stream\n". Exactly one such object. */
static void find_image(const pdf_bytes *p, int w, int h, const char *kind, long *dict,
                       long *data)
{
    char want[64];
    snprintf(want, sizeof want, "/Width %d\n   /Height %d\n", w, h);
    int found = 0;
    for (long at = seek(p, 0, want); at >= 0; at = seek(p, at + 1, want)) {
        long d = at;
        while (d > 0 && memcmp(p->buf + d, "<<", 2) != 0)
            d--;
        long s = seek(p, at, "stream\n");
        assert_true(s > 0);
        long cs = seek_to(p, d, s, kind);
        if (cs < 0 && !(strcmp(kind, "/DeviceRGB") == 0 && seek_to(p, d, s, "/DeviceGray") > 0))
            continue;
        if (seek_to(p, d, s, "/Indexed") > 0 && strcmp(kind, "/Indexed") != 0)
            continue;
        *dict = d, *data = s + 7;
        found++;
    }
    assert_int_equal(found, 1);
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
    find_image(ix, cols, rows, "/Indexed", &d1, &s1);
    find_image(rgb, cols, rows, "/DeviceRGB", &d2, &s2);
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

/* ---------------------------------------------------------------------------------------------
 * Structure: cairo's PDF kept whole, the update after it */

/* Every in-use entry of the classic table at xref points at its own object ("N G obj"). */
static long check_table(const pdf_bytes *p, long xref, long *n_entries)
{
    assert_memory_equal(p->buf + xref, "xref\n", 5);
    char *e = p->buf + xref + 5;
    long entries = 0;
    while (*e >= '0' && *e <= '9') { /* subsections "first count" */
        long first = strtol(e, &e, 10), count = strtol(e, &e, 10);
        assert_int_equal(*e++, '\n');
        for (long i = 0; i < count; i++, e += 20) {
            if (e[17] != 'n')
                continue;
            long off = strtol(e, NULL, 10), gen = strtol(e + 11, NULL, 10);
            char head[48];
            int hl = snprintf(head, sizeof head, "%ld %ld obj\n", first + i, gen);
            assert_true(off > 0 && (size_t)off + (size_t)hl < p->len);
            assert_memory_equal(p->buf + off, head, (size_t)hl);
            assert_true(p->buf[off - 1] == '\n');
            entries++;
        }
    }
    if (n_entries)
        *n_entries = entries;
    return e - p->buf; /* "trailer" */
}

static long trailer_number(const pdf_bytes *p, long from, const char *key)
{
    long at = seek(p, from, key);
    assert_true(at > 0);
    return strtol(p->buf + at + strlen(key), NULL, 10);
}

static void check_update(const pdf_bytes *p, int images)
{
    /* cairo's PDF: the bytes up to its own "%%EOF", a complete file on its own */
    long eof = seek(p, 0, "%%EOF\n");
    assert_true(eof > 0);
    pdf_bytes cairo = {p->buf, (size_t)eof + 6};
    long first_sx = trailer_number(&cairo, seek_last(&cairo, "startxref\n"), "startxref\n");
    long tr = check_table(&cairo, first_sx, NULL);
    long size = trailer_number(p, tr, "/Size ");
    long root = trailer_number(p, tr, "/Root ");
    /* the update: one new object per heatmap, a table for them and a trailer pointing back */
    long sx = trailer_number(p, seek_last(p, "startxref\n"), "startxref\n");
    assert_true(sx > eof);
    long entries;
    long tr2 = check_table(p, sx, &entries);
    assert_int_equal(entries, images);
    assert_int_equal(trailer_number(p, tr2, "/Prev "), first_sx);
    assert_int_equal(trailer_number(p, tr2, "/Size "), size);
    assert_int_equal(trailer_number(p, tr2, "/Root "), root);
    assert_true(seek(p, tr2, "/Info ") > 0);
    /* each new version's number is that of a marked object of cairo's, whose bytes are there */
    for (long at = seek(p, eof, " obj\n"); at >= 0 && at < sx; at = seek(p, at + 1, " obj\n")) {
        long line = at;
        while (p->buf[line - 1] != '\n')
            line--;
        long num = strtol(p->buf + line, NULL, 10);
        char head[48];
        snprintf(head, sizeof head, "\n%ld 0 obj\n", num);
        long old = seek(&cairo, 0, head);
        assert_true(old > 0);
        long stream = seek(&cairo, old, "stream\n");
        assert_memory_equal(cairo.buf + stream + 7 + 6, "tfviz indexed image ", 20);
        assert_true(seek_to(&cairo, old, stream, "/DCTDecode") > 0);
        assert_true(seek_to(p, at, sx, "/Indexed /DeviceRGB 255") > 0);
    }
}

static void test_update_structure(void **state)
{
    (void)state;
    pdf_bytes ix = draw_pdf(false, CMAP_VIRIDIS, 1);
    check_update(&ix, 1);
    free(ix.buf);
}

/* Three heatmaps on one page, two of them compressed on threads while the page is drawn: each
 * one's cells, and one update with three objects. */
static void test_several_large_images(void **state)
{
    (void)state;
    pdf_bytes ix = draw_pdf(false, CMAP_RDBU, MAX_IMAGES);
    pdf_bytes rgb = draw_pdf(true, CMAP_RDBU, MAX_IMAGES);
    for (int k = 0; k < MAX_IMAGES; k++)
        compare_image(&ix, &rgb, k, CMAP_RDBU);
    check_update(&ix, MAX_IMAGES);
    free(ix.buf);
    free(rgb.buf);
}

/* ---------------------------------------------------------------------------------------------
 * PDFs written by hand: a classic table or a cross-reference stream, and broken ones */

enum { ROWS = 37, COLS = 53 }; /* sizes[0] */

typedef enum {
    FAKE_GOOD,
    FAKE_XREF_STREAM,   /* the same page with a cross-reference stream (PDF 1.5) */
    FAKE_NO_MARK,
    FAKE_TWO_MARKS,
    FAKE_NOT_STREAM,    /* the marker is not the stream's first bytes */
    FAKE_NOT_IMAGE,     /* the object holding it is not an image */
    FAKE_BAD_STARTXREF, /* startxref points past the table */
    FAKE_NO_ROOT,       /* the trailer has no /Root */
    FAKE_ENCRYPTED,
    FAKE_COUNT
} fake_kind;

/* A one-page PDF showing one image whose data is the marker (or with one thing changed):
 * objects 1 catalog, 2 pages, 3 page, 4 image, 5 contents, 6 info, [7 cross-reference stream]. */
static pdf_bytes fake_pdf(const unsigned char *mark, size_t mark_len, fake_kind kind)
{
    pdf_bytes p = {0};
    FILE *fp = open_memstream(&p.buf, &p.len);
    long off[8];
    fputs("%PDF-1.5\n", fp);
    off[1] = ftell(fp);
    fputs("1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n", fp);
    off[2] = ftell(fp);
    fputs("2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n", fp);
    off[3] = ftell(fp);
    fputs("3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 100 100]\n"
          "   /Resources << /XObject << /Im0 4 0 R >> >> /Contents 5 0 R >>\nendobj\n", fp);
    off[4] = ftell(fp);
    size_t data = kind == FAKE_NO_MARK ? 0 : kind == FAKE_TWO_MARKS ? 2 * mark_len
                : mark_len + (kind == FAKE_NOT_STREAM);
    fprintf(fp, "4 0 obj\n<< /Length %zu\n   /Type /XObject\n   /Subtype /%s\n"
                "   /Width %d\n   /Height %d\n   /ColorSpace /DeviceRGB\n"
                "   /Interpolate false\n   /BitsPerComponent 8\n   /Filter /DCTDecode\n>>\n"
                "stream\n%s", data, kind == FAKE_NOT_IMAGE ? "Form" : "Image", COLS, ROWS,
            kind == FAKE_NOT_STREAM ? " " : "");
    for (int i = 0; i < (kind == FAKE_NO_MARK ? 0 : kind == FAKE_TWO_MARKS ? 2 : 1); i++)
        fwrite(mark, 1, mark_len, fp);
    fputs("\nendstream\nendobj\n", fp);
    off[5] = ftell(fp);
    static const char content[] = "q 80 0 0 80 10 10 cm /Im0 Do Q";
    fprintf(fp, "5 0 obj\n<< /Length %zu >>\nstream\n%s\nendstream\nendobj\n",
            sizeof content - 1, content);
    off[6] = ftell(fp);
    fputs("6 0 obj\n<< /Producer (tfviz test (fake\\) PDF) >>\nendobj\n", fp);
    long xref = ftell(fp);
    const char *root = kind == FAKE_NO_ROOT ? "" : "   /Root 1 0 R\n";
    const char *enc = kind == FAKE_ENCRYPTED ? "   /Encrypt 6 0 R\n" : "";
    if (kind == FAKE_XREF_STREAM) {
        off[7] = xref;
        fprintf(fp, "7 0 obj\n<< /Type /XRef /Size 8\n%s   /Info 6 0 R\n"
                    "   /ID [<00112233> <44556677>]\n   /W [1 4 2] /Length %d >>\nstream\n",
                root, 8 * 7);
        for (int i = 0; i < 8; i++) {
            unsigned long o = i ? (unsigned long)off[i] : 0;
            unsigned char b[7] = {i ? 1 : 0, (unsigned char)(o >> 24), (unsigned char)(o >> 16),
                                  (unsigned char)(o >> 8), (unsigned char)o, 0, i ? 0 : 255};
            fwrite(b, 1, sizeof b, fp);
        }
        fprintf(fp, "\nendstream\nendobj\nstartxref\n%ld\n%%%%EOF\n", xref);
    } else {
        fputs("xref\n0 7\n0000000000 65535 f \n", fp);
        for (int i = 1; i < 7; i++)
            fprintf(fp, "%010ld 00000 n \n", off[i]);
        fprintf(fp, "trailer\n<< /Size 7\n%s%s   /Info 6 0 R\n>>\nstartxref\n%ld\n%%%%EOF\n",
                root, enc, kind == FAKE_BAD_STARTXREF ? xref + 3 : xref);
    }
    fclose(fp);
    return p;
}

static tf_status put(const pdf_bytes *in, size_t len, fig_pdf_image *const *im, size_t n,
                     pdf_bytes *out)
{
    *out = (pdf_bytes){0};
    FILE *fp = open_memstream(&out->buf, &out->len);
    assert_non_null(fp);
    tf_status st = fig_pdf_append_images((const unsigned char *)in->buf, len, im, n, fp);
    assert_int_equal(fclose(fp), 0);
    return st;
}

/* poppler, when installed, sees one 53 x 37 indexed image on the page. */
static void poppler_sees_index(const pdf_bytes *p)
{
    if (system("command -v pdfimages >/dev/null 2>&1") != 0)
        return;
    char path[] = "/tmp/tfviz-pdf-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, p->buf, p->len), (ssize_t)p->len);
    close(fd);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "pdfimages -list %s 2>&1", path);
    FILE *pp = popen(cmd, "r");
    assert_non_null(pp);
    char line[256];
    int images = 0, indexed = 0;
    while (fgets(line, sizeof line, pp)) {
        int page, num, w, h;
        char type[16], color[16];
        if (sscanf(line, "%d %d %15s %d %d %15s", &page, &num, type, &w, &h, color) == 6) {
            images++;
            indexed += w == COLS && h == ROWS && strcmp(color, "index") == 0;
        }
    }
    assert_int_equal(pclose(pp), 0);
    unlink(path);
    assert_int_equal(images, 1);
    assert_int_equal(indexed, 1);
}

static void test_fakes(void **state)
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
        if (k == FAKE_GOOD || k == FAKE_XREF_STREAM) {
            assert_int_equal(st, TF_OK);
            /* the input as it was, then the update */
            assert_true(out.len > in.len);
            assert_memory_equal(out.buf, in.buf, in.len);
            assert_true(seek(&out, (long)in.len, "4 0 obj\n") == (long)in.len);
            assert_true(seek(&out, (long)in.len, "/Indexed /DeviceRGB 255") > 0);
            poppler_sees_index(&out);
        } else {
            assert_int_equal(st, TF_ERR_FORMAT);
            assert_int_equal(out.len, 0); /* nothing written */
        }
        if (k == FAKE_GOOD)
            check_update(&(pdf_bytes){out.buf, out.len}, 1) /* cairo's form: the marker */;
        if (k == FAKE_XREF_STREAM) {
            /* the update is a cross-reference stream too: object 8, entries for 4 and 8 */
            long sx = trailer_number(&out, seek_last(&out, "startxref\n"), "startxref\n");
            assert_memory_equal(out.buf + sx, "8 0 obj\n<< /Type /XRef\n   /Size 9\n", 34);
            assert_true(seek(&out, sx, "/Index [4 1 8 1]") > 0);
            assert_true(seek(&out, sx, "/ID [<00112233> <44556677>]") > 0);
            assert_int_equal(trailer_number(&out, sx, "/Prev "),
                             trailer_number(&in, seek_last(&in, "startxref\n"), "startxref\n"));
            long data = seek(&out, sx, "stream\n") + 7;
            const unsigned char *e = (const unsigned char *)out.buf + data;
            long o4 = (long)e[1] << 24 | e[2] << 16 | e[3] << 8 | e[4];
            long o8 = (long)e[8] << 24 | e[9] << 16 | e[10] << 8 | e[11];
            assert_true(e[0] == 1 && e[7] == 1 && o4 == (long)in.len && o8 == sx);
        }
        free(out.buf);

        /* cut short anywhere: refused with nothing written, unless only "%%EOF" is lost */
        if (k == FAKE_GOOD || k == FAKE_XREF_STREAM) {
            long sx = seek_last(&in, "startxref\n"), tail = seek(&in, sx + 10, "\n");
            for (size_t cut = 0; cut < in.len; cut++) {
                bool whole = (long)cut >= tail; /* the startxref number all there */
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
        cmocka_unit_test(test_update_structure),
        cmocka_unit_test(test_several_large_images),
        cmocka_unit_test(test_fakes),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    fig_release_fonts();
    return failed;
}
