/* tensorfile.c — one 2-D tensor from an .npy or .safetensors file (tensorfile.h). */
#include "tensorfile.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "npy.h"
#include "safetensors.h"
#include "tf_limits.h"
#include "utf8.h"

const char *tensor_dtype_name(tensor_dtype t)
{
    static const char *const names[TENSOR_DTYPE_COUNT] = {"F16", "BF16", "F32", "F64"};
    return (unsigned)t < TENSOR_DTYPE_COUNT ? names[t] : NULL;
}

size_t tensor_dtype_size(tensor_dtype t)
{
    static const size_t sizes[TENSOR_DTYPE_COUNT] = {2, 2, 4, 8};
    return (unsigned)t < TENSOR_DTYPE_COUNT ? sizes[t] : 0;
}

/* ---------------------------------------------------------------------------------------------
 * Messages */

tf_status tensor_fail(tensor_diag *diag, tf_status st, uint64_t at, const char *fmt, ...)
{
    if (!diag)
        return st;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(diag->msg, sizeof diag->msg, fmt, ap);
    va_end(ap);
    diag->has_offset = at != TENSOR_NO_OFFSET;
    diag->offset = diag->has_offset ? at : 0;
    return st;
}

/* Code points a terminal would act on or that reorder text. */
static bool unsafe_cp(uint32_t cp)
{
    return cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F) || cp == 0x061C || cp == 0x200E ||
           cp == 0x200F || (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
}

tf_status tensor_check_scale(const tf_tensor *t, size_t width, tensor_diag *diag)
{
    double m = 0.0;
    for (size_t i = 0; i < t->rows * t->cols; i++)
        m = fmax(m, fabs(t->data[i]));
    double norm = m * sqrt((double)(width ? width : 1));
    if (norm <= TF_MAX_TABLE_NORM)
        return TF_OK;
    if (width <= 1)
        return tensor_fail(diag, TF_ERR_TOO_BIG, TENSOR_NO_OFFSET,
                           "its values reach %.3g, past %.0e, and the scores they are added to "
                           "would overflow; scale the table down (trained tables hold values "
                           "near 1)",
                           m, TF_MAX_TABLE_NORM);
    return tensor_fail(diag, TF_ERR_TOO_BIG, TENSOR_NO_OFFSET,
                       "its values reach %.3g, so |value| x sqrt(%zu) = %.3g passes %.0e and the "
                       "dot products computed from its rows would overflow; scale the table "
                       "down (trained tables hold values near 1)",
                       m, width, norm, TF_MAX_TABLE_NORM);
}

size_t tensor_safe_name(char *out, size_t cap, const char *s, size_t len, size_t max_bytes)
{
    if (cap == 0)
        return 0;
    size_t o = 0, i = 0, taken = 0;
    while (i < len) {
        uint32_t cp;
        size_t k = utf8_decode(s + i, len - i, &cp);
        bool bad = k == 0 || unsafe_cp(cp);
        size_t w = bad ? 1 : k;
        if (taken + w > max_bytes || o + w + 4 > cap) {
            size_t dots = cap - 1 - o < 3 ? cap - 1 - o : 3;
            memcpy(out + o, "...", dots);
            o += dots;
            break;
        }
        if (bad)
            out[o] = '?';
        else
            memcpy(out + o, s + i, k);
        o += w;
        taken += w;
        i += k ? k : 1;
    }
    out[o] = '\0';
    return o;
}

bool tensor_read_digits(const uint8_t *s, size_t n, size_t *i, uint64_t *v)
{
    size_t start = *i;
    uint64_t x = 0;
    while (*i < n && s[*i] >= '0' && s[*i] <= '9') {
        unsigned dgt = (unsigned)(s[*i] - '0');
        if (x > (UINT64_MAX - dgt) / 10)
            return false;
        x = x * 10 + dgt;
        (*i)++;
    }
    *v = x;
    return *i > start;
}

bool tensor_mul_ok(uint64_t a, uint64_t b, uint64_t *out)
{
    if (a != 0 && b > UINT64_MAX / a)
        return false;
    *out = a * b;
    return true;
}

void tensor_shape_str(const uint64_t *shape, int ndim, char *buf, size_t cap)
{
    size_t o = (size_t)snprintf(buf, cap, "(");
    for (int k = 0; k < ndim && o < cap; k++)
        o += (size_t)snprintf(buf + o, cap - o, "%s%llu", k ? ", " : "",
                              (unsigned long long)shape[k]);
    if (o < cap)
        snprintf(buf + o, cap - o, ndim == 1 ? ",)" : ")");
}

static tensor_limits limits_or_default(const tensor_limits *lim)
{
    tensor_limits l = {TF_MAX_POSITIONS, TF_MAX_DMODEL, TF_MAX_TABLE_VALUES};
    if (lim) {
        if (lim->max_rows)
            l.max_rows = lim->max_rows;
        if (lim->max_cols)
            l.max_cols = lim->max_cols;
        if (lim->max_values)
            l.max_values = lim->max_values;
    }
    return l;
}

tf_status tensor_check_limits(uint64_t rows, uint64_t cols, const tensor_limits *lim,
                              tensor_diag *diag)
{
    tensor_limits l = limits_or_default(lim);
    uint64_t values;
    bool fits = tensor_mul_ok(rows, cols, &values);
    if (rows > l.max_rows)
        return tensor_fail(diag, TF_ERR_TOO_BIG, TENSOR_NO_OFFSET,
                           "the table has %llu rows; tfviz reads at most %llu",
                           (unsigned long long)rows, (unsigned long long)l.max_rows);
    if (cols > l.max_cols)
        return tensor_fail(diag, TF_ERR_TOO_BIG, TENSOR_NO_OFFSET,
                           "the table has %llu columns; tfviz reads at most %llu",
                           (unsigned long long)cols, (unsigned long long)l.max_cols);
    if (!fits || values > l.max_values)
        return tensor_fail(diag, TF_ERR_TOO_BIG, TENSOR_NO_OFFSET,
                           "the table has %llu x %llu values; tfviz reads at most %llu (save "
                           "the first rows only, e.g. a[:1024])",
                           (unsigned long long)rows, (unsigned long long)cols,
                           (unsigned long long)l.max_values);
    return TF_OK;
}

/* ---------------------------------------------------------------------------------------------
 * Values */

static double half_to_double(uint16_t h)
{
    int e = (h >> 10) & 0x1F, m = h & 0x3FF;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(m + 1024, e - 25);
    return h & 0x8000 ? -v : v;
}

static uint64_t load_le(const uint8_t *p, size_t n, bool big)
{
    uint64_t v = 0;
    for (size_t k = 0; k < n; k++)
        v |= (uint64_t)p[big ? n - 1 - k : k] << (8 * k);
    return v;
}

size_t tensor_decode(const uint8_t *src, size_t count, tensor_dtype t, bool big_endian, double *dst)
{
    size_t sz = tensor_dtype_size(t);
    for (size_t i = 0; i < count; i++) {
        uint64_t bits = load_le(src + i * sz, sz, big_endian);
        double v;
        if (t == TENSOR_F16) {
            v = half_to_double((uint16_t)bits);
        } else if (t == TENSOR_BF16 || t == TENSOR_F32) {
            uint32_t b32 = t == TENSOR_BF16 ? (uint32_t)bits << 16 : (uint32_t)bits;
            float f;
            memcpy(&f, &b32, sizeof f);
            v = f;
        } else {
            memcpy(&v, &bits, sizeof v);
        }
        if (!isfinite(v))
            return i;
        dst[i] = v;
    }
    return count;
}

/* ---------------------------------------------------------------------------------------------
 * Where the bytes come from: a buffer or a file descriptor, read at offsets. */

typedef struct {
    const uint8_t *mem; /* the whole file, or NULL */
    int fd;
    uint64_t size;
} source;

static tf_status src_read(const source *s, uint64_t off, uint8_t *dst, size_t len,
                          tensor_diag *diag)
{
    if (off > s->size || len > s->size - off)
        return tensor_fail(diag, TF_ERR_FORMAT, off, "the file ends before byte %llu",
                           (unsigned long long)off + len);
    if (s->mem) {
        memcpy(dst, s->mem + off, len);
        return TF_OK;
    }
    while (len > 0) {
        ssize_t got = pread(s->fd, dst, len, (off_t)off);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0) {
            int e = got < 0 ? errno : EIO;
            tensor_fail(diag, TF_ERR_IO, off, "reading failed at byte %llu: %s",
                        (unsigned long long)off, got < 0 ? strerror(e) : "the file shrank");
            errno = e;
            return TF_ERR_IO;
        }
        dst += got;
        off += (uint64_t)got;
        len -= (size_t)got;
    }
    return TF_OK;
}

/* rows x cols values of type t at file offset off into out->data, checked finite. */
static tf_status read_values(const source *s, uint64_t off, tensor_dtype t, bool big,
                             tf_tensor *out, tensor_diag *diag)
{
    size_t n = out->rows * out->cols, sz = tensor_dtype_size(t);
    out->data = malloc((n ? n : 1) * sizeof *out->data);
    enum { CHUNK = 16384 };
    uint8_t *buf = malloc(CHUNK * (sz ? sz : 1));
    if (!out->data || !buf) {
        free(buf);
        return TF_ERR_NOMEM;
    }
    tf_status st = TF_OK;
    for (size_t i = 0; i < n && st == TF_OK; i += CHUNK) {
        size_t m = n - i < CHUNK ? n - i : CHUNK;
        st = src_read(s, off + i * sz, buf, m * sz, diag);
        if (st != TF_OK)
            break;
        size_t ok = tensor_decode(buf, m, t, big, out->data + i);
        if (ok < m) {
            size_t at = i + ok;
            st = tensor_fail(diag, TF_ERR_FORMAT, off + at * sz,
                             "row %zu, column %zu holds NaN or infinity; a table must hold "
                             "finite numbers",
                             at / out->cols, at % out->cols);
        }
    }
    free(buf);
    return st;
}

/* ---------------------------------------------------------------------------------------------
 * .npy */

static tf_status read_npy(const source *s, const char *name, const tensor_limits *lim,
                          tf_tensor *out, tensor_diag *diag)
{
    if (name)
        return tensor_fail(diag, TF_ERR_NOT_FOUND, TENSOR_NO_OFFSET,
                           "an .npy file holds one unnamed array: give no tensor name for it");
    uint64_t head = s->size < 12 + TF_MAX_NPY_HEADER ? s->size : 12 + TF_MAX_NPY_HEADER;
    uint8_t *buf = malloc((size_t)head);
    if (!buf)
        return TF_ERR_NOMEM;
    npy_header h;
    tf_status st = src_read(s, 0, buf, (size_t)head, diag);
    if (st == TF_OK)
        st = npy_parse_header(buf, (size_t)head, s->size, &h, diag);
    free(buf);
    if (st != TF_OK)
        return st;
    if (h.ndim != 2) {
        char sh[96];
        tensor_shape_str(h.shape, h.ndim, sh, sizeof sh);
        return tensor_fail(diag, TF_ERR_FORMAT, TENSOR_NO_OFFSET,
                           "the array has shape %s (%d-D); a table must be 2-D: rows x columns", sh,
                           h.ndim);
    }
    if (h.shape[0] == 0 || h.shape[1] == 0)
        return tensor_fail(diag, TF_ERR_FORMAT, TENSOR_NO_OFFSET,
                           "the array has shape (%llu, %llu): it holds no numbers",
                           (unsigned long long)h.shape[0], (unsigned long long)h.shape[1]);
    if ((st = tensor_check_limits(h.shape[0], h.shape[1], lim, diag)) != TF_OK)
        return st;
    out->rows = (size_t)h.shape[0];
    out->cols = (size_t)h.shape[1];
    out->dtype = h.dtype;
    out->kind = TENSORFILE_NPY;
    return read_values(s, h.data_offset, h.dtype, h.big_endian, out, diag);
}

/* ---------------------------------------------------------------------------------------------
 * .safetensors */

static bool ends_with(const safetensors_entry *e, const char *suffix)
{
    size_t l = strlen(suffix);
    return e->name_len >= l && memcmp(e->name + e->name_len - l, suffix, l) == 0;
}

static bool matches(const safetensors_entry *e, const char *const *suffixes)
{
    for (size_t k = 0; suffixes && suffixes[k]; k++)
        if (ends_with(e, suffixes[k]))
            return true;
    return false;
}

/* "a (1024, 768), b (5,), ... and 12 more": the candidates first, then 2-D tensors, then the
 * rest, as many as fit. */
static void list_names(const safetensors_header *h, const char *const *suffixes, char *out,
                       size_t cap)
{
    size_t o = strlen(out), shown = 0;
    bool full = false;
    for (int pass = 0; pass < 3 && !full; pass++)
        for (size_t t = 0; t < h->n && !full; t++) {
            const safetensors_entry *e = &h->items[t];
            int p = matches(e, suffixes) ? 0 : e->ndim == 2 ? 1 : 2;
            if (p != pass)
                continue;
            char item[200] = "", sh[96];
            tensor_safe_name(item, sizeof item, e->name, e->name_len, 80);
            tensor_shape_str(e->shape, e->ndim, sh, sizeof sh);
            full = o + strlen(item) + strlen(sh) + 3 + 24 >= cap;
            if (!full) {
                o += (size_t)snprintf(out + o, cap - o, "%s%s %s", shown ? ", " : "", item, sh);
                shown++;
            }
        }
    if (shown < h->n)
        snprintf(out + o, cap - o, "%s... and %zu more", shown ? ", " : "", h->n - shown);
}

/* Which entry to read: the named one, else the only candidate. */
static tf_status pick(const safetensors_header *h, const char *name, const char *const *suffixes,
                      size_t *which, tensor_diag *diag)
{
    char head[200] = "";
    if (h->n == 0)
        return tensor_fail(diag, TF_ERR_NOT_FOUND, TENSOR_NO_OFFSET,
                           "the .safetensors file holds no tensors");
    if (name) {
        long t = safetensors_find(h, name);
        if (t >= 0) {
            *which = (size_t)t;
            return TF_OK;
        }
        tensor_safe_name(head, sizeof head, name, strlen(name), 80);
        if (diag) {
            snprintf(diag->msg, sizeof diag->msg, "there is no tensor '%s' in the file; it holds ",
                     head);
            list_names(h, suffixes, diag->msg, sizeof diag->msg);
            diag->has_offset = false;
        }
        return TF_ERR_NOT_FOUND;
    }
    size_t hits = 0, two_d = 0, hit = 0, hit2 = 0;
    for (size_t t = 0; t < h->n; t++) {
        if (matches(&h->items[t], suffixes)) {
            hits++;
            hit = t;
        }
        if (h->items[t].ndim == 2) {
            two_d++;
            hit2 = t;
        }
    }
    if (hits == 1 || (hits == 0 && h->n == 1) || (hits == 0 && two_d == 1)) {
        *which = hits == 1 ? hit : h->n == 1 ? 0 : hit2;
        return TF_OK;
    }
    if (diag) {
        snprintf(diag->msg, sizeof diag->msg,
                 hits ? "%zu tensors could be the table; name the one to read: "
                      : "the file holds %zu tensors; name the one to read: ",
                 hits ? hits : h->n);
        list_names(h, suffixes, diag->msg, sizeof diag->msg);
        diag->has_offset = false;
    }
    return TF_ERR_NOT_FOUND;
}

/* Check entry e as a table and read it. */
static tf_status take_entry(const source *s, const safetensors_entry *e, uint64_t data_offset,
                            const tensor_limits *lim, tf_tensor *out, tensor_diag *diag)
{
    char nb[128] = "", sh[96];
    tensor_safe_name(nb, sizeof nb, e->name, e->name_len, 80);
    tensor_shape_str(e->shape, e->ndim, sh, sizeof sh);
    if (e->known < 0)
        return tensor_fail(diag, TF_ERR_FORMAT, TENSOR_NO_OFFSET,
                           "tensor '%s' holds %s values; tfviz reads F16, BF16, F32 and F64", nb,
                           e->dtype);
    if (e->ndim != 2)
        return tensor_fail(diag, TF_ERR_FORMAT, TENSOR_NO_OFFSET,
                           "tensor '%s' has shape %s (%d-D); a table must be 2-D: rows x columns",
                           nb, sh, e->ndim);
    if (e->shape[0] == 0 || e->shape[1] == 0)
        return tensor_fail(diag, TF_ERR_FORMAT, TENSOR_NO_OFFSET,
                           "tensor '%s' has shape %s: it holds no numbers", nb, sh);
    tf_status st = tensor_check_limits(e->shape[0], e->shape[1], lim, diag);
    if (st != TF_OK)
        return st;
    out->rows = (size_t)e->shape[0];
    out->cols = (size_t)e->shape[1];
    out->dtype = (tensor_dtype)e->known;
    out->kind = TENSORFILE_SAFETENSORS;
    out->name = malloc(e->name_len + 1);
    if (!out->name)
        return TF_ERR_NOMEM;
    memcpy(out->name, e->name, e->name_len + 1);
    return read_values(s, data_offset + e->begin, out->dtype, false, out, diag);
}

static tf_status read_safetensors(const source *s, const char *name, const char *const *suffixes,
                                  const tensor_limits *lim, tf_tensor *out, tensor_diag *diag)
{
    uint8_t len8[8];
    if (s->size < 8)
        return tensor_fail(diag, TF_ERR_FORMAT, 0,
                           "the file is %llu bytes long, too short for a .safetensors header",
                           (unsigned long long)s->size);
    tf_status st = src_read(s, 0, len8, 8, diag);
    if (st != TF_OK)
        return st;
    uint64_t n = load_le(len8, 8, false);
    if (n > s->size - 8 || n > TF_MAX_SAFETENSORS_HEADER) /* let the parser say which */
        return safetensors_parse_header(len8, 8, s->size, &(safetensors_header){0}, diag);
    uint8_t *buf = malloc((size_t)n + 8);
    if (!buf)
        return TF_ERR_NOMEM;
    safetensors_header h;
    st = src_read(s, 0, buf, (size_t)n + 8, diag);
    if (st == TF_OK)
        st = safetensors_parse_header(buf, (size_t)n + 8, s->size, &h, diag);
    free(buf);
    if (st != TF_OK)
        return st;
    size_t t = 0;
    st = pick(&h, name, suffixes, &t, diag);
    if (st == TF_OK)
        st = take_entry(s, &h.items[t], h.data_offset, lim, out, diag);
    safetensors_header_free(&h);
    return st;
}

/* ---------------------------------------------------------------------------------------------
 * Either format */

static tf_status read_any(const source *s, tensorfile_kind kind, const char *name,
                          const char *const *suffixes, const tensor_limits *lim, tf_tensor *out,
                          tensor_diag *diag)
{
    memset(out, 0, sizeof *out);
    uint8_t head[12] = {0};
    size_t hn = s->size < sizeof head ? (size_t)s->size : sizeof head;
    if (hn == 0)
        return tensor_fail(diag, TF_ERR_FORMAT, 0, "the file is empty");
    tf_status st = src_read(s, 0, head, hn, diag);
    if (st != TF_OK)
        return st;
    if (npy_is(head, hn))
        st = read_npy(s, name, lim, out, diag);
    else if (safetensors_is(head, hn) || kind == TENSORFILE_SAFETENSORS)
        st = read_safetensors(s, name, suffixes, lim, out, diag);
    else if (hn >= 4 && memcmp(head, "PK\x03\x04", 4) == 0)
        st = tensor_fail(diag, TF_ERR_FORMAT, 0,
                         "this is a zip archive (an .npz of several arrays, or a PyTorch "
                         "checkpoint): save the one table alone with np.save or as .safetensors");
    else if (hn >= 2 && head[0] == 0x80 && head[1] >= 2 && head[1] <= 5)
        st = tensor_fail(diag, TF_ERR_FORMAT, 0,
                         "this is a Python pickle (a PyTorch .bin or .pt), which tfviz never "
                         "loads because loading one can run code: convert it to .safetensors");
    else if (kind == TENSORFILE_NPY)
        st = tensor_fail(diag, TF_ERR_FORMAT, 0,
                         "this is not an .npy file: it does not start with \\x93NUMPY (write "
                         "it with np.save)");
    else
        st = tensor_fail(diag, TF_ERR_FORMAT, 0,
                         "this is neither an .npy nor a .safetensors file (tfviz reads arrays "
                         "saved by np.save and tensors saved by safetensors)");
    if (st != TF_OK)
        tensor_free(out);
    return st;
}

tf_status tensorfile_read_mem(const uint8_t *buf, size_t len, tensorfile_kind kind,
                              const char *name, const char *const *suffixes,
                              const tensor_limits *lim, tf_tensor *out, tensor_diag *diag)
{
    source s = {.mem = buf ? buf : (const uint8_t *)"", .fd = -1, .size = buf ? len : 0};
    if (diag)
        memset(diag, 0, sizeof *diag);
    return read_any(&s, kind, name, suffixes, lim, out, diag);
}

static bool has_ext(const char *path, const char *ext)
{
    size_t l = strlen(path), e = strlen(ext);
    if (l < e)
        return false;
    for (size_t i = 0; i < e; i++) {
        char c = path[l - e + i];
        if ((c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c) != ext[i])
            return false;
    }
    return true;
}

tf_status tensorfile_read(const char *path, const char *name, const char *const *suffixes,
                          const tensor_limits *lim, tf_tensor *out, tensor_diag *diag)
{
    memset(out, 0, sizeof *out);
    if (diag)
        memset(diag, 0, sizeof *diag);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        tensor_fail(diag, TF_ERR_IO, TENSOR_NO_OFFSET, "cannot open it: %s", strerror(e));
        errno = e;
        return TF_ERR_IO;
    }
    struct stat sb;
    tf_status st;
    if (fstat(fd, &sb) != 0) {
        int e = errno;
        st = tensor_fail(diag, TF_ERR_IO, TENSOR_NO_OFFSET, "cannot read it: %s", strerror(e));
        errno = e;
    } else if (!S_ISREG(sb.st_mode)) {
        st = tensor_fail(diag, TF_ERR_IO, TENSOR_NO_OFFSET,
                         S_ISDIR(sb.st_mode) ? "it is a folder, not a file"
                                             : "it is not a regular file (tfviz reads a table "
                                               "at offsets, which a pipe or device cannot do)");
        errno = S_ISDIR(sb.st_mode) ? EISDIR : EINVAL;
    } else {
        tensorfile_kind kind = has_ext(path, ".npy")           ? TENSORFILE_NPY
                               : has_ext(path, ".safetensors") ? TENSORFILE_SAFETENSORS
                                                               : TENSORFILE_AUTO;
        source s = {.mem = NULL, .fd = fd, .size = (uint64_t)sb.st_size};
        st = read_any(&s, kind, name, suffixes, lim, out, diag);
    }
    int e = errno;
    close(fd);
    errno = e;
    return st;
}

void tensor_free(tf_tensor *t)
{
    free(t->data);
    free(t->name);
    memset(t, 0, sizeof *t);
}
