/* vectors.c — word2vec text and binary files, read defensively; cosine and neighbours. */
#include "vectors.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "linalg.h"
#include "tf_limits.h"
#include "utf8.h"

/* ---------------------------------------------------------------------------------------------
 * A buffered reader that knows its byte offset and can look ahead */

typedef struct {
    FILE *fp;
    unsigned char *buf; /* (cap) */
    size_t cap, pos, len;
    uint64_t off; /* file offset of buf[pos] */
    bool err;
} reader;

/* Make at least `need` bytes available from pos when the file has them; returns how many are. */
static size_t rd_fill(reader *r, size_t need)
{
    if (r->len - r->pos >= need)
        return r->len - r->pos;
    if (r->pos) {
        memmove(r->buf, r->buf + r->pos, r->len - r->pos);
        r->len -= r->pos;
        r->pos = 0;
    }
    while (r->len < need && r->len < r->cap) {
        size_t got = fread(r->buf + r->len, 1, r->cap - r->len, r->fp);
        if (got == 0) {
            if (ferror(r->fp))
                r->err = true;
            break;
        }
        r->len += got;
    }
    return r->len - r->pos;
}

static int rd_getc(reader *r)
{
    if (r->pos == r->len && rd_fill(r, 1) == 0)
        return EOF;
    r->off++;
    return r->buf[r->pos++];
}

/* ---------------------------------------------------------------------------------------------
 * Reading */

typedef struct {
    tf_vectors *v;
    char *block; /* word bytes */
    size_t block_len, block_cap;
    size_t *word_at; /* (rows) offsets into block */
    size_t rows_cap;
} builder;

static tf_status fail(vectors_diag *d, const char *what, unsigned long line, uint64_t off)
{
    d->what = what;
    d->line = line;
    d->offset = off;
    return TF_ERR_FORMAT;
}

static tf_status add_row(builder *b, const char *word, size_t wlen, const float *x)
{
    tf_vectors *v = b->v;
    size_t d = (size_t)v->dim;
    if (v->n == b->rows_cap) {
        size_t cap = b->rows_cap ? b->rows_cap * 2 : 64;
        float *nd = realloc(v->data, cap * d * sizeof *nd);
        if (!nd)
            return TF_ERR_NOMEM;
        v->data = nd;
        size_t *nw = realloc(b->word_at, cap * sizeof *nw);
        if (!nw)
            return TF_ERR_NOMEM;
        b->word_at = nw;
        b->rows_cap = cap;
    }
    if (b->block_len + wlen + 1 > b->block_cap) {
        size_t cap = b->block_cap ? b->block_cap : 4096;
        while (cap < b->block_len + wlen + 1)
            cap *= 2;
        char *nb = realloc(b->block, cap);
        if (!nb)
            return TF_ERR_NOMEM;
        b->block = nb;
        b->block_cap = cap;
    }
    /* NOLINTNEXTLINE(clang-analyzer-core.NonNullParamChecker): block_cap > 0 allocated it */
    memcpy(b->block + b->block_len, word, wlen);
    b->block[b->block_len + wlen] = '\0';
    /* NOLINTNEXTLINE(clang-analyzer-core.NullDereference): n == rows_cap == 0 allocated it */
    b->word_at[v->n] = b->block_len;
    b->block_len += wlen + 1;
    memcpy(v->data + (size_t)v->n * d, x, d * sizeof *x);
    v->n++;
    return TF_OK;
}

static tf_status finish(builder *b)
{
    tf_vectors *v = b->v;
    v->words = malloc((v->n ? v->n : 1) * sizeof *v->words);
    if (!v->words)
        return TF_ERR_NOMEM;
    for (uint32_t i = 0; i < v->n; i++)
        /* NOLINTNEXTLINE(clang-analyzer-core.NullDereference): allocated with the first row */
        v->words[i] = b->block + b->word_at[i];
    v->block = b->block;
    b->block = NULL;
    return TF_OK;
}

/* Parse a whole non-negative decimal number in [lo, hi]; returns -1 if it is not one. */
static long long parse_count(const char *s, size_t len, long long hi)
{
    if (len == 0 || len > 18)
        return -1;
    long long v = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        v = v * 10 + (s[i] - '0');
    }
    return v > hi ? hi + 1 : v;
}

/* The header line "N dim": into line[] (NUL-terminated); returns its length or -1. */
static tf_status read_header(reader *r, long long *n, long long *dim, vectors_diag *d)
{
    char line[128];
    size_t len = 0;
    int ch;
    /* a UTF-8 byte-order mark, as some editors save, is not part of the header */
    if (rd_fill(r, 3) >= 3 && memcmp(r->buf + r->pos, "\xEF\xBB\xBF", 3) == 0) {
        r->pos += 3;
        r->off += 3;
    }
    while ((ch = rd_getc(r)) != EOF && ch != '\n') {
        if (len + 1 >= sizeof line)
            return fail(d, "the first line is not a header \"N dim\" (it is too long)", 1, 0);
        line[len++] = (char)ch;
    }
    if (r->err)
        return TF_ERR_IO;
    if (ch == EOF && len == 0)
        return fail(d, "the file is empty; a vector file starts with a line \"N dim\"", 1, 0);
    while (len && (line[len - 1] == '\r' || line[len - 1] == ' ' || line[len - 1] == '\t'))
        len--;
    line[len] = '\0';
    char *sp = memchr(line, ' ', len);
    if (!sp)
        return fail(d, "the first line must be a header \"N dim\" (two whole numbers)", 1, 0);
    size_t l1 = (size_t)(sp - line);
    const char *p2 = sp;
    while (*p2 == ' ')
        p2++;
    *n = parse_count(line, l1, (long long)VECTORS_MAX_ROWS);
    *dim = parse_count(p2, strlen(p2), TF_MAX_DMODEL);
    if (*n < 0 || *dim < 0)
        return fail(d, "the first line must be a header \"N dim\" (two whole numbers)", 1, 0);
    if (*n > (long long)VECTORS_MAX_ROWS)
        return fail(d, "the header declares more than 10,000,000 rows", 1, 0);
    if (*dim < 1 || *dim > TF_MAX_DMODEL)
        return fail(d, "the header's vector size must be from 1 to 16384", 1, 0);
    return TF_OK;
}

/* A text row holds printable ASCII (and tabs) after its word; float32 bytes almost never all
 * are: each float has bytes below 0x20 or above 0x7E unless it is a rare coincidence. */
static bool text_byte(unsigned char c)
{
    return (c >= 0x20 && c < 0x7F) || c == '\t' || c == '\r';
}

static vectors_format detect(reader *r, int dim)
{
    size_t need = VECTORS_MAX_WORD_BYTES + 4u * (size_t)dim + 2;
    size_t have = rd_fill(r, need);
    const unsigned char *p = r->buf + r->pos;
    size_t i = 0;
    while (i < have && (p[i] == '\n' || p[i] == '\r'))
        i++;
    while (i < have && p[i] != ' ' && p[i] != '\n')
        i++;
    if (i >= have || p[i] == '\n')
        return VECTORS_TEXT; /* a word with no values: the text reader reports it */
    /* up to dim floats' worth of bytes, or the end of a text line, whichever comes first */
    size_t end = i + 1 + 4u * (size_t)dim;
    for (i = i + 1; i < have && i < end && p[i] != '\n'; i++)
        if (!text_byte(p[i]))
            return VECTORS_BINARY;
    return VECTORS_TEXT;
}

/* One text row "word v1 v2 ... vdim" (NUL-terminated, line ln at byte line_off): the word's
 * length into *wlen, the values into x. */
static tf_status text_row(const char *line, int dim, float *x, size_t *wlen, vectors_diag *d,
                          unsigned long ln, uint64_t line_off)
{
    const char *sp = line;
    while (*sp && *sp != ' ' && *sp != '\t')
        sp++;
    *wlen = (size_t)(sp - line);
    size_t bad;
    if (*wlen > VECTORS_MAX_WORD_BYTES)
        return fail(d, "a word is longer than 4096 bytes", ln, line_off);
    if (utf8_validate(line, *wlen, &bad) != TF_OK)
        return fail(d, "a word is not valid UTF-8", ln, line_off + bad);
    const char *p = sp;
    for (int j = 0; j < dim; j++) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p == '\0')
            return fail(d, "a row has fewer numbers than the header's vector size", ln, line_off);
        char *end;
        errno = 0;
        float f = strtof(p, &end);
        if (end == p || (*end != '\0' && *end != ' ' && *end != '\t'))
            return fail(d, "a row holds something that is not a number", ln, line_off);
        if (!isfinite(f))
            return fail(d,
                        "a row holds a value that is not a finite number (NaN, inf or out of "
                        "float range)",
                        ln, line_off);
        x[j] = f;
        p = end;
    }
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p)
        return fail(d, "a row has more numbers than the header's vector size", ln, line_off);
    return TF_OK;
}

static tf_status read_text(reader *r, builder *b, uint32_t keep, uint32_t declared, vectors_diag *d)
{
    int dim = b->v->dim;
    size_t cap = (size_t)VECTORS_MAX_WORD_BYTES + (size_t)dim * 64 + 64;
    char *line = malloc(cap + 1);
    float *x = malloc((size_t)dim * sizeof *x);
    tf_status st = TF_OK;
    if (!line || !x) {
        st = TF_ERR_NOMEM;
        goto out;
    }
    unsigned long ln = 1;
    for (;;) {
        size_t len = 0;
        int ch;
        ln++;
        uint64_t line_off = r->off;
        while ((ch = rd_getc(r)) != EOF && ch != '\n') {
            if (len == cap) {
                st = fail(d, "a line is far longer than its vector size allows", ln, line_off);
                goto out;
            }
            line[len++] = (char)ch;
        }
        if (r->err) {
            st = TF_ERR_IO;
            goto out;
        }
        while (len && (line[len - 1] == '\r' || line[len - 1] == ' ' || line[len - 1] == '\t'))
            len--;
        line[len] = '\0';
        if (len == 0) {
            if (ch == EOF)
                break;
            continue; /* blank lines are allowed */
        }
        if (b->v->n == keep) {
            if (keep < declared)
                break; /* the caller asked for fewer rows */
            st = fail(d, "the file has more rows than its header declares", ln, line_off);
            goto out;
        }
        if (memchr(line, '\0', len)) {
            st = fail(d, "a line holds a NUL byte: this looks like a binary file", ln, line_off);
            goto out;
        }
        size_t wlen;
        if ((st = text_row(line, dim, x, &wlen, d, ln, line_off)) != TF_OK ||
            (st = add_row(b, line, wlen, x)) != TF_OK)
            goto out;
        if (ch == EOF)
            break;
    }
    if (b->v->n < keep)
        st = fail(d, "the file ends before the number of rows its header declares", ln, r->off);
out:
    free(line);
    free(x);
    return st;
}

/* A binary row's word, from its first byte ch to the space after it, into word (NUL-ended). */
static tf_status binary_word(reader *r, int ch, char *word, size_t *wlen, vectors_diag *d)
{
    uint64_t word_off = r->off - 1;
    size_t n = 0;
    while (ch != ' ') {
        if (ch == EOF)
            return fail(d, "the file ends inside a word (truncated binary file)", 0, r->off);
        if (ch == '\0' || ch == '\n' || n == VECTORS_MAX_WORD_BYTES)
            return fail(d,
                        "a word is not followed by a space within 4096 bytes: the file is "
                        "damaged or not word2vec binary",
                        0, word_off);
        word[n++] = (char)ch;
        ch = rd_getc(r);
    }
    size_t bad;
    if (utf8_validate(word, n, &bad) != TF_OK)
        return fail(d, "a word is not valid UTF-8", 0, word_off + bad);
    word[n] = '\0';
    *wlen = n;
    return TF_OK;
}

/* A binary row's dim little-endian float32 values into x. */
static tf_status binary_vector(reader *r, int dim, float *x, vectors_diag *d)
{
    uint64_t vec_off = r->off;
    size_t need = 4u * (size_t)dim;
    if (rd_fill(r, need) < need)
        return r->err ? TF_ERR_IO
                      : fail(d, "the vector starting here is cut short (truncated binary file)",
                             0, vec_off);
    const unsigned char *p = r->buf + r->pos;
    for (int j = 0; j < dim; j++) {
        /* little-endian float32, whatever the host order */
        uint32_t u = (uint32_t)p[4 * j] | (uint32_t)p[4 * j + 1] << 8 |
                     (uint32_t)p[4 * j + 2] << 16 | (uint32_t)p[4 * j + 3] << 24;
        float f;
        memcpy(&f, &u, sizeof f);
        if (!isfinite(f))
            return fail(d, "a vector holds a value that is not a finite number (NaN or inf)", 0,
                        vec_off + 4u * (uint64_t)j);
        x[j] = f;
    }
    r->pos += need;
    r->off += need;
    return TF_OK;
}

static tf_status read_binary(reader *r, builder *b, uint32_t keep, uint32_t declared,
                             vectors_diag *d)
{
    int dim = b->v->dim;
    char word[VECTORS_MAX_WORD_BYTES + 1];
    float *x = malloc((size_t)dim * sizeof *x);
    if (!x)
        return TF_ERR_NOMEM;
    tf_status st = TF_OK;
    while (b->v->n < keep) {
        int ch;
        while ((ch = rd_getc(r)) == '\n' || ch == '\r')
            ;
        if (ch == EOF) {
            st = r->err ? TF_ERR_IO
                        : fail(d, "the file ends before the number of rows its header declares", 0,
                               r->off);
            goto out;
        }
        size_t wlen;
        if ((st = binary_word(r, ch, word, &wlen, d)) != TF_OK ||
            (st = binary_vector(r, dim, x, d)) != TF_OK)
            goto out;
        if ((st = add_row(b, word, wlen, x)) != TF_OK)
            goto out;
    }
    if (keep == declared) {
        int ch;
        while ((ch = rd_getc(r)) == '\n' || ch == '\r' || ch == ' ')
            ;
        if (ch != EOF)
            st =
                fail(d, "the file has more data after the rows its header declares", 0, r->off - 1);
    }
out:
    free(x);
    return st;
}

tf_status vectors_read_fp(FILE *fp, vectors_format fmt, uint32_t max_rows, tf_vectors *out,
                          vectors_diag *diag)
{
    vectors_diag dummy;
    vectors_diag *d = diag ? diag : &dummy;
    memset(d, 0, sizeof *d);
    memset(out, 0, sizeof *out);
    out->owned = true;
    reader r = {.fp = fp};
    builder b = {.v = out};
    long long n, dim;
    tf_status st = TF_OK;
    /* numbers in the file use '.', whatever the user's locale says */
    locale_t c_loc = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
    locale_t old = c_loc ? uselocale(c_loc) : (locale_t)0;
    r.cap = 1 << 16;
    r.buf = malloc(r.cap);
    if (!r.buf) {
        st = TF_ERR_NOMEM;
        goto out;
    }
    if ((st = read_header(&r, &n, &dim, d)) != TF_OK)
        goto out;
    uint32_t keep = max_rows && (uint32_t)n > max_rows ? max_rows : (uint32_t)n;
    if ((unsigned long long)keep * (unsigned long long)dim > VECTORS_MAX_FLOATS) {
        st = fail(d, "the header declares more than 4 GiB of vectors", 1, 0);
        goto out;
    }
    out->dim = (int)dim;
    size_t need = VECTORS_MAX_WORD_BYTES + 4u * (size_t)dim + 16;
    if (need > r.cap) {
        unsigned char *nb = realloc(r.buf, need);
        if (!nb) {
            st = TF_ERR_NOMEM;
            goto out;
        }
        r.buf = nb;
        r.cap = need;
    }
    if (fmt == VECTORS_AUTO)
        fmt = detect(&r, (int)dim);
    d->format = fmt;
    st = fmt == VECTORS_BINARY ? read_binary(&r, &b, keep, (uint32_t)n, d)
                               : read_text(&r, &b, keep, (uint32_t)n, d);
    if (st == TF_OK)
        st = finish(&b);
out:
    if (c_loc) {
        uselocale(old);
        freelocale(c_loc);
    }
    free(r.buf);
    free(b.word_at);
    free(b.block);
    if (st != TF_OK)
        vectors_free(out);
    return st;
}

tf_status vectors_read(const char *path, vectors_format fmt, uint32_t max_rows, tf_vectors *out,
                       vectors_diag *diag)
{
    memset(out, 0, sizeof *out);
    if (diag)
        memset(diag, 0, sizeof *diag);
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return TF_ERR_IO;
    tf_status st = vectors_read_fp(fp, fmt, max_rows, out, diag);
    int e = errno;
    fclose(fp);
    errno = e;
    return st;
}

void vectors_free(tf_vectors *v)
{
    if (v->owned) {
        free(v->words);
        free(v->block);
        free(v->data);
    }
    memset(v, 0, sizeof *v);
}

tf_status vectors_copy(const tf_vectors *src, uint32_t max_rows, tf_vectors *out)
{
    memset(out, 0, sizeof *out);
    uint32_t n = max_rows && max_rows < src->n ? max_rows : src->n;
    size_t bytes = 0, dim = src->dim > 0 ? (size_t)src->dim : 0;
    for (uint32_t i = 0; i < n; i++)
        bytes += strlen(src->words[i]) + 1;
    /* at least one byte each: malloc(0) may return NULL, which is not out of memory */
    out->words = malloc((n ? n : 1) * sizeof *out->words);
    out->block = malloc(bytes ? bytes : 1);
    out->data = malloc((n && dim ? (size_t)n * dim : 1) * sizeof *out->data);
    if (!out->words || !out->block || !out->data) {
        free(out->words), free(out->block), free(out->data);
        memset(out, 0, sizeof *out);
        return TF_ERR_NOMEM;
    }
    char *o = out->block;
    for (uint32_t i = 0; i < n; i++) {
        size_t l = strlen(src->words[i]) + 1;
        memcpy(o, src->words[i], l);
        out->words[i] = o;
        o += l;
    }
    if (n && dim)
        memcpy(out->data, src->data, (size_t)n * dim * sizeof *out->data);
    out->n = n;
    out->dim = src->dim;
    out->owned = true;
    return TF_OK;
}

/* ---------------------------------------------------------------------------------------------
 * Writing */

tf_status vectors_write(const tf_vectors *v, vectors_format fmt, FILE *fp)
{
    size_t d = (size_t)v->dim;
    locale_t c_loc = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
    locale_t old = c_loc ? uselocale(c_loc) : (locale_t)0;
    fprintf(fp, "%u %d\n", v->n, v->dim);
    for (uint32_t i = 0; i < v->n; i++) {
        const float *x = v->data + i * d;
        fputs(v->words[i], fp);
        if (fmt == VECTORS_BINARY) {
            fputc(' ', fp);
            for (size_t j = 0; j < d; j++) {
                uint32_t u;
                memcpy(&u, &x[j], sizeof u);
                unsigned char le[4] = {(unsigned char)u, (unsigned char)(u >> 8),
                                       (unsigned char)(u >> 16), (unsigned char)(u >> 24)};
                fwrite(le, 1, 4, fp);
            }
        } else {
            for (size_t j = 0; j < d; j++)
                fprintf(fp, " %.9g", (double)x[j]);
        }
        fputc('\n', fp);
    }
    if (c_loc) {
        uselocale(old);
        freelocale(c_loc);
    }
    return ferror(fp) ? TF_ERR_IO : TF_OK;
}

/* ---------------------------------------------------------------------------------------------
 * Similarity */

int32_t vectors_find(const tf_vectors *v, const char *word, size_t len)
{
    for (uint32_t i = 0; i < v->n; i++)
        if (strncmp(v->words[i], word, len) == 0 && v->words[i][len] == '\0')
            return (int32_t)i;
    return -1;
}

double vectors_cosine(const tf_vectors *v, uint32_t a, uint32_t b)
{
    size_t d = (size_t)v->dim;
    return la_cosine_f(v->data + a * d, v->data + b * d, d);
}

void vectors_cosine_matrix(const float *x, size_t n, int d, double *out)
{
    size_t D = (size_t)d;
    for (size_t a = 0; a < n; a++)
        for (size_t b = 0; b < n; b++)
            out[a * n + b] = la_cosine_f(x + a * D, x + b * D, D);
}

size_t vectors_neighbors(const tf_vectors *v, uint32_t q, size_t k, vectors_hit *out)
{
    size_t d = (size_t)v->dim, m = 0;
    if (k == 0 || q >= v->n)
        return 0;
    const float *x = v->data + q * d;
    double nq = la_norm_f(x, d);
    for (uint32_t i = 0; i < v->n; i++) {
        if (i == q)
            continue;
        const float *y = v->data + i * d;
        double c = la_cosine_of(la_dot_f(x, y, d), nq, la_norm_f(y, d));
        /* insert into the sorted top k (ties keep the lower row first) */
        size_t pos = m;
        while (pos > 0 && out[pos - 1].cosine < c)
            pos--;
        if (pos >= k)
            continue;
        size_t last = m < k ? m : k - 1;
        memmove(out + pos + 1, out + pos, (last - pos) * sizeof *out);
        out[pos] = (vectors_hit){.row = i, .cosine = c};
        if (m < k)
            m++;
    }
    return m;
}
