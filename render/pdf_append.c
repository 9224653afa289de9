/* pdf_append.c — heatmaps in a PDF as 8-bit indexed images, added to cairo's finished PDF by an
 * incremental update.
 *
 * Every heatmap colour comes from a colour map's 256-entry table, so one byte per cell and the
 * table as an /Indexed palette say exactly what cairo's RGB image says, in a third of the bytes
 * before compression. cairo has no indexed images and compresses every image itself at a fixed
 * zlib level, which for a 512 x 512 heatmap costs more than drawing the whole figure.
 *
 * So in a PDF each heatmap's image carries a small marker as its JPEG data, which cairo embeds
 * as it is (cairo_surface_set_mime_data, CAIRO_MIME_TYPE_JPEG: "the PDF backend embeds JPEG data
 * directly") without reading or compressing the pixels. When cairo has finished, its PDF is
 * written out unchanged, byte for byte, and followed by an incremental update (ISO 32000-1,
 * 7.5.6): for each marked image, a new version of its object (the same object number) holding the
 * indexed image, then a cross-reference section for those objects and a trailer that points back
 * at cairo's. A reader takes the newest version of each object, so the page shows the indexed
 * images; cairo's tiny marker objects stay behind, unreferenced.
 *
 * What is read of cairo's output is PDF syntax only, the same in every PDF writer and version:
 * the object that holds a marker ("N G obj" ... "stream" EOL, the marker), and the last trailer
 * or cross-reference stream dictionary (its /Size, /Root, /Info and /ID, kept in the new
 * trailer as the update must). A file written with cross-reference streams (PDF 1.5 object
 * streams) gets its update as a cross-reference stream too. Anything not found as expected gives
 * TF_ERR_FORMAT before a byte is written, and the caller draws the figure again with cairo's own
 * images (fig_spec.plain_images). */
#include "figure_priv.h"

#include <stdarg.h>
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
    fig_pdf_image **grown = /* NOLINTNEXTLINE(bugprone-sizeof-expression): an array of pointers */
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
 * Reading PDF syntax */

static const unsigned char *find(const unsigned char *from, const unsigned char *to,
                                 const void *needle, size_t nl)
{
    if (nl == 0 || from >= to || (size_t)(to - from) < nl)
        return NULL;
    const unsigned char *last = to - nl, *n = needle;
    for (const unsigned char *p = from; p <= last; p++) {
        p = memchr(p, n[0], (size_t)(last - p) + 1);
        if (!p)
            return NULL;
        if (memcmp(p, n, nl) == 0)
            return p;
    }
    return NULL;
}

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

/* PDF white-space characters (7.2.2) and delimiters (7.2.3). */
static bool is_space(unsigned char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f' || c == '\0';
}

static bool is_delim(unsigned char c) { return is_space(c) || strchr("()<>[]{}/%", c) != NULL; }

static const unsigned char *skip_space(const unsigned char *p, const unsigned char *to)
{
    while (p < to && is_space(*p))
        p++;
    return p;
}

/* A decimal number without sign at p, or -1; *end after it. */
static long number_at(const unsigned char *p, const unsigned char *to, const unsigned char **end)
{
    long v = 0;
    const unsigned char *q = p;
    while (q < to && *q >= '0' && *q <= '9' && v < 100000000000L)
        v = v * 10 + (*q++ - '0');
    if (end)
        *end = q;
    return q == p || (q < to && !is_delim(*q)) ? -1 : v;
}

/* A dictionary "<< ... >>" starting at p (after white space): *end after its ">>", nested
 * dictionaries, strings and hex strings stepped over. False when it does not close before to. */
static bool dict_at(const unsigned char *p, const unsigned char *to, const unsigned char **start,
                    const unsigned char **end)
{
    p = skip_space(p, to);
    if (to - p < 2 || p[0] != '<' || p[1] != '<')
        return false;
    *start = p;
    int depth = 0;
    while (p < to) {
        if (to - p >= 2 && p[0] == '<' && p[1] == '<') {
            depth++, p += 2;
        } else if (to - p >= 2 && p[0] == '>' && p[1] == '>') {
            p += 2;
            if (--depth == 0) {
                *end = p;
                return true;
            }
        } else if (*p == '<') { /* a hex string */
            const unsigned char *q = memchr(p, '>', (size_t)(to - p));
            if (!q)
                return false;
            p = q + 1;
        } else if (*p == '(') { /* a literal string: balanced parentheses, \ escapes */
            int par = 0;
            for (; p < to; p++) {
                if (*p == '\\')
                    p++;
                else if (*p == '(')
                    par++;
                else if (*p == ')' && --par == 0)
                    break;
            }
            p++;
        } else {
            p++;
        }
    }
    return false;
}

/* The value of key in the dictionary [d, e) as its raw text [*v, *v_end): a name, number,
 * reference "N G R" or array; false when the key is absent. Only the dictionary's own keys
 * count, not those of dictionaries inside it. */
static bool dict_value(const unsigned char *d, const unsigned char *e, const char *key,
                       const unsigned char **v, const unsigned char **v_end)
{
    size_t kl = strlen(key);
    int depth = 0;
    for (const unsigned char *p = d; p < e; p++) {
        if (e - p >= 2 && p[0] == '<' && p[1] == '<') {
            depth++, p++;
        } else if (e - p >= 2 && p[0] == '>' && p[1] == '>') {
            depth--, p++;
        } else if (depth == 1 && (size_t)(e - p) > kl && memcmp(p, key, kl) == 0 &&
                   is_delim(p[kl])) {
            const unsigned char *q = skip_space(p + kl, e), *r = q;
            if (r < e && *r == '[') {
                const unsigned char *close = memchr(r, ']', (size_t)(e - r));
                if (!close)
                    return false;
                r = close + 1;
            } else {
                const unsigned char *n1, *n2;
                /* "N G R" is one value; otherwise up to the next delimiter */
                if (number_at(r, e, &n1) >= 0 && number_at(skip_space(n1, e), e, &n2) >= 0 &&
                    skip_space(n2, e) < e && *skip_space(n2, e) == 'R') {
                    r = skip_space(n2, e) + 1;
                } else {
                    r += r < e && *r == '/';
                    while (r < e && !is_delim(*r))
                        r++;
                }
            }
            *v = q, *v_end = r;
            return r > q;
        }
    }
    return false;
}

/* ---------------------------------------------------------------------------------------------
 * cairo's last trailer, and the objects that hold the markers */

typedef struct {
    long prev;          /* offset of the last cross-reference section (startxref) */
    bool stream;        /* that section is a cross-reference stream */
    long size;          /* /Size: one more than the highest object number */
    const unsigned char *root, *root_end, *info, *info_end, *id, *id_end;
} last_trailer;

static tf_status read_trailer(const unsigned char *pdf, size_t len, last_trailer *t)
{
    const unsigned char *end = pdf + len;
    memset(t, 0, sizeof *t);
    const unsigned char *sx = find_last(pdf, end, "startxref");
    if (!sx)
        return TF_ERR_FORMAT;
    t->prev = number_at(skip_space(sx + 9, end), end, NULL);
    if (t->prev < 0 || (size_t)t->prev >= (size_t)(sx - pdf))
        return TF_ERR_FORMAT;
    const unsigned char *at = skip_space(pdf + t->prev, sx), *d, *d_end, *after;
    if (sx - at >= 4 && memcmp(at, "xref", 4) == 0) { /* a table, then "trailer" << ... >> */
        const unsigned char *tr = find(at, sx, "trailer", 7);
        if (!tr || !dict_at(tr + 7, sx, &d, &d_end))
            return TF_ERR_FORMAT;
    } else { /* "N G obj" << /Type /XRef ... >> stream */
        const unsigned char *v, *v_end;
        if (number_at(at, sx, &after) < 0 || number_at(skip_space(after, sx), sx, &after) < 0 ||
            (after = skip_space(after, sx), sx - after < 3) || memcmp(after, "obj", 3) != 0 ||
            !dict_at(after + 3, sx, &d, &d_end) || !dict_value(d, d_end, "/Type", &v, &v_end) ||
            v_end - v != 5 || memcmp(v, "/XRef", 5) != 0)
            return TF_ERR_FORMAT;
        t->stream = true;
    }
    const unsigned char *v, *v_end;
    if (dict_value(d, d_end, "/Encrypt", &v, &v_end) || !dict_value(d, d_end, "/Size", &v, &v_end) ||
        (t->size = number_at(v, v_end, NULL)) < 1 ||
        !dict_value(d, d_end, "/Root", &t->root, &t->root_end))
        return TF_ERR_FORMAT;
    if (!dict_value(d, d_end, "/Info", &t->info, &t->info_end))
        t->info = t->info_end = NULL;
    if (!dict_value(d, d_end, "/ID", &t->id, &t->id_end))
        t->id = t->id_end = NULL;
    return TF_OK;
}

/* The number and generation of the object that holds image im's marker as its stream data:
 * the marker once in the file, right after "stream" and its end of line, in an image XObject
 * whose dictionary follows "N G obj". */
static tf_status marked_object(const unsigned char *pdf, size_t len, const fig_pdf_image *im,
                               long *num, long *gen)
{
    const unsigned char *end = pdf + len;
    const unsigned char *m = find(pdf, end, im->mark, im->mark_len);
    if (!m || find(m + 1, end, im->mark, im->mark_len))
        return TF_ERR_FORMAT; /* missing, or not one of a kind */
    const unsigned char *kw = m - (m - pdf >= 2 && m[-2] == '\r' ? 2 : 1);
    if (kw - pdf < 7 || (kw[0] != '\n' && kw[0] != '\r') || memcmp(kw - 6, "stream", 6) != 0)
        return TF_ERR_FORMAT;
    const unsigned char *obj = find_last(pdf, kw, "obj");
    if (!obj || find(obj, kw, "endobj", 6))
        return TF_ERR_FORMAT;
    /* "N G" before "obj", each number preceded by white space or the start of the file */
    const unsigned char *p = obj;
    long v[2];
    for (int k = 1; k >= 0; k--) {
        while (p > pdf && is_space(p[-1]))
            p--;
        const unsigned char *digits_end = p;
        while (p > pdf && p[-1] >= '0' && p[-1] <= '9')
            p--;
        if (p == digits_end || (p > pdf && !is_space(p[-1])))
            return TF_ERR_FORMAT;
        v[k] = number_at(p, digits_end, NULL);
    }
    const unsigned char *d, *d_end, *val, *val_end;
    if (v[0] < 1 || v[1] < 0 || !dict_at(obj + 3, kw, &d, &d_end) ||
        !dict_value(d, d_end, "/Subtype", &val, &val_end) || val_end - val != 6 ||
        memcmp(val, "/Image", 6) != 0 || !find(d, d_end, "/DCTDecode", 10))
        return TF_ERR_FORMAT;
    *num = v[0], *gen = v[1];
    return TF_OK;
}

/* ---------------------------------------------------------------------------------------------
 * Writing the update */

/* The output and the bytes written to it so far: the offsets of the new objects. */
typedef struct {
    FILE *fp;
    long at;
} pdf_out;

static void put(pdf_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(pdf_out *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vfprintf(o->fp, fmt, ap);
    va_end(ap);
    o->at += n > 0 ? n : 0;
}

static void put_bytes(pdf_out *o, const void *b, size_t n)
{
    o->at += (long)fwrite(b, 1, n, o->fp);
}

/* Image im as object num gen: its dictionary, palette and compressed cells. */
static void put_image(pdf_out *o, const fig_pdf_image *im, long num, long gen)
{
    put(o, "%ld %ld obj\n<< /Type /XObject\n   /Subtype /Image\n   /Width %ld\n   /Height %ld\n"
           "   /ColorSpace [ /Indexed /DeviceRGB 255 <", num, gen, im->cols, im->rows);
    for (int i = 0; i < 256; i++)
        put(o, "%02x%02x%02x", im->palette[i].r, im->palette[i].g, im->palette[i].b);
    put(o, "> ]\n   /Interpolate false\n   /BitsPerComponent 8\n   /Filter /FlateDecode\n"
           "   /Length %zu\n>>\nstream\n", im->z_len);
    put_bytes(o, im->z, im->z_len);
    put(o, "\nendstream\nendobj\n");
}

typedef struct {
    long num, gen;
    long offset; /* of its new version */
} update_entry;

static int by_number(const void *a, const void *b)
{
    long x = ((const update_entry *)a)->num, y = ((const update_entry *)b)->num;
    return x < y ? -1 : x > y;
}

/* The trailer's entries that an update keeps (7.5.6): /Root, /Info and /ID, and /Prev. */
static void put_trailer_entries(pdf_out *o, const last_trailer *t)
{
    put(o, "   /Root ");
    put_bytes(o, t->root, (size_t)(t->root_end - t->root));
    if (t->info) {
        put(o, "\n   /Info ");
        put_bytes(o, t->info, (size_t)(t->info_end - t->info));
    }
    if (t->id) {
        put(o, "\n   /ID ");
        put_bytes(o, t->id, (size_t)(t->id_end - t->id));
    }
    put(o, "\n   /Prev %ld\n", t->prev);
}

/* A classic cross-reference section for the n entries (sorted), and its trailer. */
static void put_xref_table(pdf_out *o, const update_entry *e, size_t n, const last_trailer *t)
{
    long xref = o->at;
    put(o, "xref\n");
    for (size_t i = 0; i < n;) {
        size_t run = 1;
        while (i + run < n && e[i + run].num == e[i].num + (long)run)
            run++;
        put(o, "%ld %zu\n", e[i].num, run);
        for (size_t k = i; k < i + run; k++)
            put(o, "%010ld %05ld n \n", e[k].offset, e[k].gen);
        i += run;
    }
    put(o, "trailer\n<< /Size %ld\n", t->size);
    put_trailer_entries(o, t);
    put(o, ">>\nstartxref\n%ld\n%%%%EOF\n", xref);
}

/* A cross-reference stream (7.5.8) for the n entries (sorted) and for itself, as object
 * t->size, uncompressed: each entry is type 1, a 4-byte offset and a 2-byte generation. */
static void put_xref_stream(pdf_out *o, const update_entry *e, size_t n, const last_trailer *t)
{
    long xref = o->at;
    put(o, "%ld 0 obj\n<< /Type /XRef\n   /Size %ld\n", t->size, t->size + 1);
    put_trailer_entries(o, t);
    put(o, "   /Index [");
    for (size_t i = 0; i < n; i++)
        put(o, "%ld 1 ", e[i].num);
    put(o, "%ld 1]\n   /W [1 4 2]\n   /Length %zu\n>>\nstream\n", t->size, 7 * (n + 1));
    for (size_t i = 0; i <= n; i++) {
        unsigned long off = (unsigned long)(i < n ? e[i].offset : xref);
        unsigned gen = i < n ? (unsigned)e[i].gen : 0;
        unsigned char b[7] = {1, (unsigned char)(off >> 24), (unsigned char)(off >> 16),
                              (unsigned char)(off >> 8), (unsigned char)off,
                              (unsigned char)(gen >> 8), (unsigned char)gen};
        put_bytes(o, b, sizeof b);
    }
    put(o, "\nendstream\nendobj\nstartxref\n%ld\n%%%%EOF\n", xref);
}

tf_status fig_pdf_append_images(const unsigned char *pdf, size_t len, fig_pdf_image *const *images,
                                size_t n, FILE *out)
{
    if (n == 0)
        return fwrite(pdf, 1, len, out) == len ? TF_OK : TF_ERR_IO;
    if (fig_pdf_test_refuse)
        return TF_ERR_FORMAT;
    last_trailer t;
    tf_status st = read_trailer(pdf, len, &t);
    update_entry *e = st == TF_OK ? calloc(n, sizeof *e) : NULL;
    if (st == TF_OK && !e)
        st = TF_ERR_NOMEM;
    for (size_t k = 0; k < n && st == TF_OK; k++) {
        st = marked_object(pdf, len, images[k], &e[k].num, &e[k].gen);
        if (st == TF_OK && e[k].num >= t.size)
            st = TF_ERR_FORMAT;
        for (size_t j = 0; j < k && st == TF_OK; j++)
            if (e[j].num == e[k].num)
                st = TF_ERR_FORMAT; /* two markers in one object */
        if (st == TF_OK && !images[k]->z && !images[k]->z_failed)
            compress_cells(images[k]);
        if (st == TF_OK && images[k]->z_failed)
            st = TF_ERR_NOMEM;
    }
    /* every check is done: from here on the file is only written */
    if (st == TF_OK) {
        pdf_out o = {out, 0};
        put_bytes(&o, pdf, len); /* cairo's PDF as it is */
        if (pdf[len - 1] != '\n' && pdf[len - 1] != '\r') /* the update starts on a new line */
            put(&o, "\n");
        /* the new versions in the images' order, then their cross-references by number */
        for (size_t k = 0; k < n; k++) {
            e[k].offset = o.at;
            put_image(&o, images[k], e[k].num, e[k].gen);
        }
        qsort(e, n, sizeof *e, by_number);
        if (t.stream)
            put_xref_stream(&o, e, n, &t);
        else
            put_xref_table(&o, e, n, &t);
        if (ferror(out))
            st = TF_ERR_IO;
    }
    free(e);
    return st;
}
