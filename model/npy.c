/* npy.c — the .npy preamble and header dict (npy.h). */
#include "npy.h"

#include <stdio.h>
#include <string.h>

#include "tf_limits.h"

size_t npy_write_header(uint8_t *out, size_t cap, const char *descr, uint64_t rows, uint64_t cols)
{
    char dict[NPY_HEADER_CAP];
    int n = snprintf(dict, sizeof dict,
                     "{'descr': '%s', 'fortran_order': False, 'shape': (%llu, %llu), }", descr,
                     (unsigned long long)rows, (unsigned long long)cols);
    if (n < 0 || (size_t)n >= sizeof dict)
        return 0;
    /* magic (6) + version (2) + length (2) + dict + padding + '\n' */
    size_t total = 10 + (size_t)n + 1, pad = (64 - total % 64) % 64, hlen = (size_t)n + pad + 1;
    if (total + pad > cap)
        return 0;
    /* NOLINTNEXTLINE(bugprone-not-null-terminated-result): magic and version, no terminator */
    memcpy(out, NPY_MAGIC "\x01\x00", 8);
    out[8] = (uint8_t)(hlen & 0xFF);
    out[9] = (uint8_t)(hlen >> 8);
    memcpy(out + 10, dict, (size_t)n);
    memset(out + 10 + n, ' ', pad);
    out[10 + (size_t)n + pad] = '\n';
    return total + pad;
}

bool npy_is(const uint8_t *buf, size_t len)
{
    return len >= NPY_MAGIC_LEN && memcmp(buf, NPY_MAGIC, NPY_MAGIC_LEN) == 0;
}

/* ---------------------------------------------------------------------------------------------
 * The header dict: a Python literal with three keys, read by a small scanner. */

typedef struct {
    const uint8_t *s;
    size_t n, i;   /* the header bytes and the cursor */
    uint64_t base; /* file offset of s[0], for messages */
    tensor_diag *diag;
} scan;

static void skip_ws(scan *c)
{
    while (c->i < c->n &&
           (c->s[c->i] == ' ' || c->s[c->i] == '\t' || c->s[c->i] == '\n' || c->s[c->i] == '\r'))
        c->i++;
}

static tf_status bad(scan *c, const char *what)
{
    return tensor_fail(c->diag, TF_ERR_FORMAT, c->base + c->i,
                       "the .npy header is not a valid dict: %s; re-save the array with np.save",
                       what);
}

/* Expect one punctuation character (after whitespace). */
static bool eat(scan *c, char ch)
{
    skip_ws(c);
    if (c->i < c->n && c->s[c->i] == (unsigned char)ch) {
        c->i++;
        return true;
    }
    return false;
}

/* A quoted string without escapes, as numpy writes it; [*at, *at + *len) in c->s. */
static bool read_str(scan *c, size_t *at, size_t *len)
{
    skip_ws(c);
    if (c->i >= c->n || (c->s[c->i] != '\'' && c->s[c->i] != '"'))
        return false;
    uint8_t q = c->s[c->i++];
    size_t start = c->i;
    while (c->i < c->n && c->s[c->i] != q) {
        if (c->s[c->i] == '\\' || c->s[c->i] == '\n')
            return false;
        c->i++;
    }
    if (c->i >= c->n)
        return false;
    *at = start;
    *len = c->i - start;
    c->i++;
    return true;
}

static bool is_word(const scan *c, size_t at, size_t len, const char *w)
{
    return strlen(w) == len && memcmp(c->s + at, w, len) == 0;
}

/* A non-negative decimal integer (Python 2's trailing L allowed), at most 2^63. */
static bool read_uint(scan *c, uint64_t *v)
{
    skip_ws(c);
    if (!tensor_read_digits(c->s, c->n, &c->i, v) || *v > (UINT64_C(1) << 63))
        return false;
    if (c->i < c->n && c->s[c->i] == 'L')
        c->i++;
    return true;
}

/* '(' [int (',' int)* [',']] ')' with a 1-tuple written (n,) as Python requires. */
static tf_status read_shape(scan *c, npy_header *h)
{
    if (!eat(c, '('))
        return bad(c, "'shape' must be a tuple such as (1024, 768)");
    h->ndim = 0;
    if (eat(c, ')'))
        return TF_OK;
    for (;;) {
        uint64_t v;
        if (!read_uint(c, &v))
            return bad(c, "a dimension of 'shape' is not an integer from 0 to 2^63");
        if (h->ndim == NPY_MAX_DIMS)
            return bad(c, "'shape' has more than 32 dimensions");
        h->shape[h->ndim++] = v;
        bool comma = eat(c, ',');
        if (eat(c, ')')) {
            if (h->ndim == 1 && !comma)
                return bad(c, "a one-dimensional 'shape' is written (n,)");
            return TF_OK;
        }
        if (!comma)
            return bad(c, "expected ',' or ')' in 'shape'");
    }
}

/* What a descr that is not a float we read stands for, in words. */
static const char *kind_words(char k)
{
    switch (k) {
    case 'b':
        return "booleans";
    case 'i':
        return "signed integers";
    case 'u':
        return "unsigned integers";
    case 'c':
        return "complex numbers";
    case 'O':
        return "pickled Python objects";
    case 'S':
    case 'a':
        return "byte strings";
    case 'U':
        return "Unicode strings";
    case 'V':
        return "raw bytes";
    case 'M':
        return "dates";
    case 'm':
        return "time spans";
    default:
        return NULL;
    }
}

/* '<f4' and the like; the byte order '>' is converted, '<', '=' and '|' read as little-endian
 * (numpy writes '<' or '>' for floats). */
static tf_status parse_descr(scan *c, size_t at, size_t len, npy_header *h)
{
    const uint8_t *d = c->s + at;
    char shown[40];
    tensor_safe_name(shown, sizeof shown, (const char *)d, len, 24);
    size_t k = 0;
    h->big_endian = false;
    if (len > 0 && (d[0] == '<' || d[0] == '>' || d[0] == '=' || d[0] == '|')) {
        h->big_endian = d[0] == '>';
        k = 1;
    }
    if (k < len && d[k] == 'f') {
        size_t bytes = 0;
        for (size_t j = k + 1; j < len && bytes < 100; j++) {
            if (d[j] < '0' || d[j] > '9') {
                bytes = 0;
                break;
            }
            bytes = bytes * 10 + (size_t)(d[j] - '0');
        }
        if (bytes == 2 || bytes == 4 || bytes == 8) {
            h->dtype = bytes == 2 ? TENSOR_F16 : bytes == 4 ? TENSOR_F32 : TENSOR_F64;
            return TF_OK;
        }
        return tensor_fail(c->diag, TF_ERR_FORMAT, c->base + at,
                           "the array's dtype is '%s', a float size tfviz does not read; convert "
                           "it with a.astype(np.float32)",
                           shown);
    }
    const char *words = k < len ? kind_words((char)d[k]) : NULL;
    if (words)
        return tensor_fail(c->diag, TF_ERR_FORMAT, c->base + at,
                           "the array holds %s (dtype '%s'), not floats; save a float16, "
                           "float32 or float64 array (a.astype(np.float32))",
                           words, shown);
    return tensor_fail(c->diag, TF_ERR_FORMAT, c->base + at,
                       "the array's dtype '%s' is not a NumPy type tfviz knows; save a float32 "
                       "or float64 array",
                       shown);
}

/* {'descr': ..., 'fortran_order': ..., 'shape': (...), } in any key order. */
static tf_status parse_dict(scan *c, npy_header *h)
{
    bool seen_descr = false, seen_order = false, seen_shape = false;
    if (!eat(c, '{'))
        return bad(c, "it does not start with '{'");
    for (;;) {
        if (eat(c, '}'))
            break;
        size_t kat, klen;
        if (!read_str(c, &kat, &klen))
            return bad(c, "expected a quoted key");
        if (!eat(c, ':'))
            return bad(c, "expected ':' after a key");
        if (is_word(c, kat, klen, "descr")) {
            if (seen_descr)
                return bad(c, "'descr' is given twice");
            seen_descr = true;
            size_t vat, vlen;
            skip_ws(c);
            if (c->i < c->n && c->s[c->i] == '[')
                return tensor_fail(c->diag, TF_ERR_FORMAT, c->base + c->i,
                                   "the array is a structured array (a record per row); save a "
                                   "plain float32 or float64 array");
            if (!read_str(c, &vat, &vlen))
                return bad(c, "'descr' must be a quoted string such as '<f4'");
            tf_status st = parse_descr(c, vat, vlen, h);
            if (st != TF_OK)
                return st;
        } else if (is_word(c, kat, klen, "fortran_order")) {
            if (seen_order)
                return bad(c, "'fortran_order' is given twice");
            seen_order = true;
            skip_ws(c);
            size_t at = c->i;
            while (c->i < c->n && ((c->s[c->i] >= 'A' && c->s[c->i] <= 'Z') ||
                                   (c->s[c->i] >= 'a' && c->s[c->i] <= 'z')))
                c->i++;
            if (is_word(c, at, c->i - at, "True"))
                return tensor_fail(c->diag, TF_ERR_FORMAT, c->base + at,
                                   "the array is stored in Fortran (column-major) order; save it "
                                   "in C order: np.save(f, np.ascontiguousarray(a))");
            if (!is_word(c, at, c->i - at, "False"))
                return bad(c, "'fortran_order' must be True or False");
        } else if (is_word(c, kat, klen, "shape")) {
            if (seen_shape)
                return bad(c, "'shape' is given twice");
            seen_shape = true;
            tf_status st = read_shape(c, h);
            if (st != TF_OK)
                return st;
        } else {
            return bad(c, "it has a key other than 'descr', 'fortran_order' and 'shape'");
        }
        if (eat(c, '}'))
            break;
        if (!eat(c, ','))
            return bad(c, "expected ',' or '}' after a value");
    }
    skip_ws(c);
    if (c->i != c->n)
        return bad(c, "something follows the closing '}'");
    if (!seen_descr || !seen_order || !seen_shape)
        return bad(c, "it lacks one of 'descr', 'fortran_order' and 'shape'");
    return TF_OK;
}

/* ---------------------------------------------------------------------------------------------
 * The preamble and the size of the data */

tf_status npy_parse_header(const uint8_t *buf, size_t len, uint64_t file_size, npy_header *h,
                           tensor_diag *diag)
{
    memset(h, 0, sizeof *h);
    if (!npy_is(buf, len))
        return tensor_fail(diag, TF_ERR_FORMAT, 0,
                           "this is not an .npy file: it does not start with \\x93NUMPY");
    if (len < 8)
        return tensor_fail(diag, TF_ERR_FORMAT, len,
                           "the .npy file ends inside its preamble (%zu bytes)", len);
    h->major = buf[6];
    h->minor = buf[7];
    if (h->major < 1 || h->major > 3 || h->minor != 0)
        return tensor_fail(diag, TF_ERR_FORMAT, 6,
                           "the .npy format version is %d.%d; tfviz reads versions 1.0, 2.0 and "
                           "3.0 (np.save writes them)",
                           h->major, h->minor);
    size_t lenbytes = h->major == 1 ? 2 : 4;
    if (len < 8 + lenbytes)
        return tensor_fail(diag, TF_ERR_FORMAT, len,
                           "the .npy file ends inside its preamble (%zu bytes)", len);
    uint64_t hlen = 0;
    for (size_t i = 0; i < lenbytes; i++)
        hlen |= (uint64_t)buf[8 + i] << (8 * i);
    size_t pre = 8 + lenbytes;
    if (hlen > TF_MAX_NPY_HEADER)
        return tensor_fail(diag, TF_ERR_FORMAT, 8,
                           "the .npy header claims to be %llu bytes long; a real one is a few "
                           "hundred bytes (at most %d are read): the file is damaged",
                           (unsigned long long)hlen, TF_MAX_NPY_HEADER);
    if (pre + hlen > file_size || pre + hlen > len)
        return tensor_fail(diag, TF_ERR_FORMAT, 8,
                           "the .npy header claims %llu bytes but the file ends after %llu: the "
                           "file is truncated",
                           (unsigned long long)hlen, (unsigned long long)(file_size - pre));
    scan c = {.s = buf + pre, .n = (size_t)hlen, .i = 0, .base = pre, .diag = diag};
    tf_status st = parse_dict(&c, h);
    if (st != TF_OK)
        return st;
    h->data_offset = pre + hlen;
    h->numel = 1;
    for (int i = 0; i < h->ndim; i++)
        if (!tensor_mul_ok(h->numel, h->shape[i], &h->numel))
            return tensor_fail(diag, TF_ERR_FORMAT, pre,
                               "the .npy header's shape has more elements than any file can "
                               "hold: the header is damaged");
    if (!tensor_mul_ok(h->numel, tensor_dtype_size(h->dtype), &h->data_bytes))
        return tensor_fail(diag, TF_ERR_FORMAT, pre,
                           "the .npy header's shape has more bytes than any file can hold: the "
                           "header is damaged");
    uint64_t have = file_size - h->data_offset;
    if (have < h->data_bytes)
        return tensor_fail(diag, TF_ERR_FORMAT, file_size,
                           "the header promises %llu bytes of data but the file has %llu: the "
                           "file is truncated (or the header's shape or dtype is wrong)",
                           (unsigned long long)h->data_bytes, (unsigned long long)have);
    if (have > h->data_bytes)
        return tensor_fail(diag, TF_ERR_FORMAT, h->data_offset + h->data_bytes,
                           "the file has %llu bytes of data but the header's shape and dtype "
                           "describe %llu: the header does not match the data",
                           (unsigned long long)have, (unsigned long long)h->data_bytes);
    return TF_OK;
}
