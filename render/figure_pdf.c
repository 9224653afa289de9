/* figure_pdf.c — heatmaps in a PDF as 8-bit indexed images.
 *
 * Every heatmap colour comes from a colour map's 256-entry table, so one byte per cell and the
 * table as an /Indexed palette say exactly what cairo's RGB image says, in a third of the bytes
 * before compression. cairo 1.16 has no indexed images and compresses every image itself at a
 * fixed zlib level, which for a 512 x 512 heatmap costs more than drawing the whole figure.
 *
 * So in a PDF each heatmap's image carries a small marker as its JPEG data: cairo embeds JPEG
 * data as it is, without reading or compressing the pixels. When cairo has finished, the PDF
 * (collected in memory) is written out with each marked image object replaced by the indexed
 * image, its /Length object updated, and the cross-reference offsets moved by the bytes each
 * replacement added. Anything in cairo's output that is not exactly as expected gives
 * TF_ERR_FORMAT before a byte is written, and the caller draws the figure again with cairo's
 * own images (fig_spec.plain_images). */
#include "figure_priv.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define MARK_TEXT "tfviz indexed image "

/* Large heatmaps are compressed on a thread while the rest of the page is drawn. */
#define BACKGROUND_CELLS 65536

static void *compress_cells(void *arg)
{
    fig_pdf_image *im = arg;
    size_t cells = (size_t)im->rows * (size_t)im->cols;
    uLongf z = compressBound((uLong)cells);
    im->z = malloc(z);
    im->z_failed = !im->z || compress2(im->z, &z, im->index, (uLong)cells, 6) != Z_OK;
    im->z_len = z;
    return NULL;
}

bool fig_pdf_test_refuse;

void fig_pdf_images_wait(fig *f)
{
    for (size_t i = 0; i < f->n_pdf_images; i++) {
        fig_pdf_image *im = f->pdf_images[i];
        if (im->compressing)
            pthread_join(im->thread, NULL);
        im->compressing = false;
    }
}

void fig_pdf_images_free(fig *f)
{
    fig_pdf_images_wait(f);
    for (size_t i = 0; i < f->n_pdf_images; i++) {
        free(f->pdf_images[i]->index);
        free(f->pdf_images[i]->mark);
        free(f->pdf_images[i]->z);
        free(f->pdf_images[i]);
    }
    free(f->pdf_images);
    f->pdf_images = NULL;
    f->n_pdf_images = 0;
}

/* The marker: a JPEG that is only headers. cairo reads its frame header (SOF0) for the width,
 * height and components; the comment (COM) names the image. */
static unsigned char *make_mark(size_t k, long rows, long cols, size_t *len)
{
    char name[64];
    int nl = snprintf(name, sizeof name, MARK_TEXT "%zu", k);
    size_t n = 2 + 4 + (size_t)nl + 2 + 17 + 2;
    unsigned char *m = malloc(n), *p = m;
    if (!m)
        return NULL;
    *p++ = 0xFF, *p++ = 0xD8;                           /* SOI */
    *p++ = 0xFF, *p++ = 0xFE;                           /* COM */
    *p++ = (unsigned char)((nl + 2) >> 8), *p++ = (unsigned char)(nl + 2);
    memcpy(p, name, (size_t)nl);
    p += nl;
    *p++ = 0xFF, *p++ = 0xC0;                           /* SOF0: length 17, 8 bits */
    *p++ = 0, *p++ = 17, *p++ = 8;
    *p++ = (unsigned char)(rows >> 8), *p++ = (unsigned char)rows;
    *p++ = (unsigned char)(cols >> 8), *p++ = (unsigned char)cols;
    *p++ = 3;                                           /* three components: /DeviceRGB */
    for (int c = 1; c <= 3; c++)
        *p++ = (unsigned char)c, *p++ = 0x11, *p++ = 0;
    *p++ = 0xFF, *p++ = 0xD9;                           /* EOI */
    *len = n;
    return m;
}

bool fig_pdf_mark(fig *f, cairo_surface_t *img, unsigned char *index, long rows, long cols,
                  const tf_rgb palette[256])
{
    /* each image has an allocation of its own, which its compression thread may hold while the
     * list grows */
    fig_pdf_image **grown =
        realloc(f->pdf_images, (f->n_pdf_images + 1) * sizeof *f->pdf_images);
    if (!grown)
        return false;
    f->pdf_images = grown;
    fig_pdf_image *im = calloc(1, sizeof *im);
    if (!im)
        return false;
    im->rows = rows;
    im->cols = cols;
    im->mark = make_mark(f->n_pdf_images, rows, cols, &im->mark_len);
    unsigned char *cairo_copy = im->mark ? malloc(im->mark_len) : NULL;
    if (!cairo_copy) {
        free(im->mark);
        free(im);
        return false;
    }
    memcpy(cairo_copy, im->mark, im->mark_len);
    if (cairo_surface_set_mime_data(img, CAIRO_MIME_TYPE_JPEG, cairo_copy, im->mark_len, free,
                                    cairo_copy) != CAIRO_STATUS_SUCCESS) {
        free(cairo_copy);
        free(im->mark);
        free(im);
        return false;
    }
    memcpy(im->palette, palette, sizeof im->palette);
    im->index = index;
    grown[f->n_pdf_images++] = im;
    if ((size_t)rows * (size_t)cols >= BACKGROUND_CELLS)
        im->compressing = pthread_create(&im->thread, NULL, compress_cells, im) == 0;
    return true;
}

/* ---------------------------------------------------------------------------------------------
 * Reading cairo's output */

static const unsigned char *find(const unsigned char *from, const unsigned char *to,
                                 const char *needle, size_t nl)
{
    if (nl == 0 || from >= to || (size_t)(to - from) < nl)
        return NULL;
    const unsigned char *last = to - nl;
    for (const unsigned char *p = from; p <= last; p++) {
        p = memchr(p, (unsigned char)needle[0], (size_t)(last - p) + 1);
        if (!p)
            return NULL;
        if (memcmp(p, needle, nl) == 0)
            return p;
    }
    return NULL;
}

#define FIND(from, to, lit) find(from, to, lit, sizeof lit - 1)

/* The last occurrence of lit in [from, to). */
static const unsigned char *find_last(const unsigned char *from, const unsigned char *to,
                                      const char *lit)
{
    size_t nl = strlen(lit);
    if (from >= to || (size_t)(to - from) < nl)
        return NULL;
    for (size_t i = (size_t)(to - from) - nl + 1; i-- > 0;)
        if (memcmp(from + i, lit, nl) == 0)
            return from + i;
    return NULL;
}

/* A decimal number at p (no sign), or -1; *end after it. */
static long number_at(const unsigned char *p, const unsigned char *to, const unsigned char **end)
{
    long v = 0;
    const unsigned char *q = p;
    while (q < to && isdigit(*q) && v < 1000000000000L)
        v = v * 10 + (*q++ - '0');
    if (end)
        *end = q;
    return q == p ? -1 : v;
}

/* The value after "key " inside [from, to), or -1. */
static long dict_number(const unsigned char *from, const unsigned char *to, const char *key)
{
    const unsigned char *k = find(from, to, key, strlen(key));
    return k ? number_at(k + strlen(key), to, NULL) : -1;
}

/* One change to the file: bytes [start, end) become text[0..len). */
typedef struct {
    size_t start, end;
    unsigned char *text;
    size_t len;
} splice;

static int splice_order(const void *a, const void *b)
{
    size_t x = ((const splice *)a)->start, y = ((const splice *)b)->start;
    return x < y ? -1 : x > y;
}

/* The new dictionary, palette and compressed cells of one image, from "<<" to the end of its
 * data; NULL when out of memory. */
static unsigned char *indexed_object(const fig_pdf_image *im, long length_obj, size_t *len)
{
    static const char tail[] = "> ]\n   /Interpolate false\n   /BitsPerComponent 8\n"
                               "   /Filter /FlateDecode\n>>\nstream\n";
    char head[256];
    int n = snprintf(head, sizeof head,
                     "<< /Length %ld 0 R\n   /Type /XObject\n   /Subtype /Image\n"
                     "   /Width %ld\n   /Height %ld\n   /ColorSpace [ /Indexed /DeviceRGB 255 <",
                     length_obj, im->cols, im->rows);
    if (n < 0 || (size_t)n >= sizeof head)
        return NULL;
    unsigned char *out = malloc((size_t)n + 256 * 6 + sizeof tail - 1 + im->z_len);
    if (!out)
        return NULL;
    memcpy(out, head, (size_t)n);
    size_t o = (size_t)n;
    static const char hex[] = "0123456789abcdef";
    for (int i = 0; i < 256; i++) {
        const uint8_t c[3] = {im->palette[i].r, im->palette[i].g, im->palette[i].b};
        for (int j = 0; j < 3; j++) {
            out[o++] = (unsigned char)hex[c[j] >> 4];
            out[o++] = (unsigned char)hex[c[j] & 15];
        }
    }
    memcpy(out + o, tail, sizeof tail - 1);
    o += sizeof tail - 1;
    memcpy(out + o, im->z, im->z_len);
    *len = o + im->z_len;
    return out;
}

/* Find image k's marked object in pdf and queue the two changes: the object itself and the
 * number in its /Length object. */
static tf_status plan_image(const unsigned char *pdf, size_t len, fig_pdf_image *im,
                            splice *obj, splice *length)
{
    const unsigned char *end = pdf + len;
    const unsigned char *m = find(pdf, end, (const char *)im->mark, im->mark_len);
    if (!m || find(m + 1, end, (const char *)im->mark, im->mark_len))
        return TF_ERR_FORMAT; /* missing, or not one of a kind */
    static const char before[] = ">>\nstream\n", after[] = "\nendstream\nendobj\n";
    const unsigned char *data_end = m + im->mark_len;
    if ((size_t)(m - pdf) < sizeof before - 1 ||
        memcmp(m - (sizeof before - 1), before, sizeof before - 1) != 0 ||
        (size_t)(end - data_end) < sizeof after - 1 ||
        memcmp(data_end, after, sizeof after - 1) != 0)
        return TF_ERR_FORMAT;
    /* the object header "N 0 obj\n" just before the dictionary */
    const unsigned char *hdr = find_last(pdf, m, " 0 obj\n<< ");
    if (!hdr || FIND(hdr, m, "endobj"))
        return TF_ERR_FORMAT;
    const unsigned char *dict = hdr + sizeof " 0 obj\n" - 1;
    const unsigned char *dict_end = m - (sizeof before - 1);
    if (!FIND(dict, dict_end, "/Subtype /Image\n") || !FIND(dict, dict_end, "/Filter /DCTDecode\n") ||
        dict_number(dict, dict_end, "/Width ") != im->cols ||
        dict_number(dict, dict_end, "/Height ") != im->rows)
        return TF_ERR_FORMAT;
    long lobj = dict_number(dict, dict_end, "/Length ");
    const unsigned char *lref = FIND(dict, dict_end, "/Length ");
    const unsigned char *after_num;
    if (lobj < 0 || (number_at(lref + 8, dict_end, &after_num), memcmp(after_num, " 0 R\n", 5)))
        return TF_ERR_FORMAT;

    if (!im->z && !im->z_failed)
        compress_cells(im);
    if (im->z_failed)
        return TF_ERR_NOMEM;
    obj->start = (size_t)(dict - pdf);
    obj->end = (size_t)(data_end - pdf);
    obj->text = indexed_object(im, lobj, &obj->len);
    if (!obj->text)
        return TF_ERR_NOMEM;

    /* "\nL 0 obj\n   <length>\nendobj\n": cairo writes it after the stream */
    char lhdr[40];
    int hl = snprintf(lhdr, sizeof lhdr, "\n%ld 0 obj\n", lobj);
    const unsigned char *lo = find(pdf, end, lhdr, (size_t)hl);
    if (!lo)
        return TF_ERR_FORMAT;
    const unsigned char *p = lo + hl;
    while (p < end && *p == ' ')
        p++;
    const unsigned char *num_end;
    if (number_at(p, end, &num_end) != (long)im->mark_len ||
        (size_t)(end - num_end) < 8 || memcmp(num_end, "\nendobj\n", 8) != 0)
        return TF_ERR_FORMAT;
    char num[32];
    int nn = snprintf(num, sizeof num, "%zu", im->z_len);
    length->start = (size_t)(p - pdf);
    length->end = (size_t)(num_end - pdf);
    length->text = malloc((size_t)nn);
    if (!length->text)
        return TF_ERR_NOMEM;
    memcpy(length->text, num, (size_t)nn);
    length->len = (size_t)nn;
    return TF_OK;
}

/* Offset o of the old file in the new one. */
static size_t moved(size_t o, const splice *s, size_t ns, bool *straddles)
{
    long long shift = 0;
    for (size_t i = 0; i < ns && s[i].start < o; i++) {
        if (o < s[i].end)
            *straddles = true;
        shift += (long long)s[i].len - (long long)(s[i].end - s[i].start);
    }
    return (size_t)((long long)o + shift);
}

tf_status fig_pdf_put_images(const unsigned char *pdf, size_t len, fig_pdf_image *const *images,
                             size_t n, FILE *out)
{
    if (n == 0)
        return fwrite(pdf, 1, len, out) == len ? TF_OK : TF_ERR_IO;
    if (fig_pdf_test_refuse)
        return TF_ERR_FORMAT;
    const unsigned char *end = pdf + len;
    splice *s = calloc(2 * n, sizeof *s);
    if (!s)
        return TF_ERR_NOMEM;
    tf_status st = TF_OK;
    for (size_t k = 0; k < n && st == TF_OK; k++)
        st = plan_image(pdf, len, images[k], &s[2 * k], &s[2 * k + 1]);
    size_t ns = 2 * n;

    /* the classic cross-reference table cairo writes: "xref\n0 M\n" and M lines of 20 bytes */
    const unsigned char *sx = st == TF_OK ? find_last(pdf, end, "\nstartxref\n") : NULL;
    const unsigned char *sx_num = sx ? sx + sizeof "\nstartxref\n" - 1 : NULL, *sx_end = NULL;
    long xref = sx ? number_at(sx_num, end, &sx_end) : -1;
    const unsigned char *table = NULL, *rest = NULL;
    long count = -1;
    if (st == TF_OK) {
        if (xref < 0 || (size_t)xref + 7 > len || memcmp(pdf + xref, "xref\n0 ", 7) != 0) {
            st = TF_ERR_FORMAT;
        } else {
            count = number_at(pdf + xref + 7, end, &table);
            if (count < 1 || table >= end || *table != '\n' ||
                (size_t)(end - table - 1) < (size_t)count * 20)
                st = TF_ERR_FORMAT;
            else
                rest = ++table + (size_t)count * 20;
            /* then the trailer, and only then the startxref that was read */
            if (rest && (sx < rest || !FIND(rest, sx, "trailer\n")))
                st = TF_ERR_FORMAT;
        }
    }
    if (st == TF_OK) {
        qsort(s, ns, sizeof *s, splice_order);
        for (size_t i = 0; i < ns; i++)
            if ((i + 1 < ns && s[i].end > s[i + 1].start) || s[i].end > (size_t)xref)
                st = TF_ERR_FORMAT; /* overlapping, or past the body */
    }
    /* every offset checked before the first byte is written: a failure leaves out untouched */
    bool straddles = false;
    for (long i = 0; st == TF_OK && i < count; i++) {
        const unsigned char *e = table + 20 * i, *e_end;
        long o = number_at(e, e + 10, &e_end);
        if (o < 0 || e_end != e + 10 || e[10] != ' ' || (e[17] != 'n' && e[17] != 'f'))
            st = TF_ERR_FORMAT;
        else if (e[17] == 'n')
            moved((size_t)o, s, ns, &straddles);
    }
    if (st == TF_OK && straddles)
        st = TF_ERR_FORMAT;
    if (st == TF_OK) {
        size_t pos = 0;
        for (size_t i = 0; i < ns; i++) {
            fwrite(pdf + pos, 1, s[i].start - pos, out);
            fwrite(s[i].text, 1, s[i].len, out);
            pos = s[i].end;
        }
        fwrite(pdf + pos, 1, (size_t)(table - pdf) - pos, out);
        for (long i = 0; i < count; i++) {
            /* entry 0 and free entries keep their numbers */
            const unsigned char *e = table + 20 * i;
            long o = number_at(e, e + 10, NULL);
            fprintf(out, "%010zu", e[17] == 'n' ? moved((size_t)o, s, ns, &straddles) : (size_t)o);
            fwrite(e + 10, 1, 10, out);
        }
        fwrite(rest, 1, (size_t)(sx_num - rest), out);
        fprintf(out, "%zu", moved((size_t)xref, s, ns, &straddles));
        fwrite(sx_end, 1, (size_t)(end - sx_end), out);
        if (ferror(out))
            st = TF_ERR_IO;
    }
    for (size_t i = 0; i < ns; i++)
        free(s[i].text);
    free(s);
    return st;
}
