/* safetensors.c — the .safetensors header: a strict JSON reader and the format's checks. */
#include "safetensors.h"

#include <stdlib.h>
#include <string.h>

#include "tf_limits.h"
#include "utf8.h"

bool safetensors_is(const uint8_t *buf, size_t len)
{
    if (len < 9 || buf[8] != '{')
        return false;
    uint64_t n = 0;
    for (int i = 0; i < 8; i++)
        n |= (uint64_t)buf[i] << (8 * i);
    return n >= 2 && n <= TF_MAX_SAFETENSORS_HEADER;
}

/* ---------------------------------------------------------------------------------------------
 * JSON (RFC 8259), only as far as the header needs: objects, arrays, strings decoded to UTF-8,
 * non-negative integers read exactly, other values validated and skipped. */

#define JSON_DEPTH 64

typedef struct {
    const uint8_t *s;
    size_t n, i;   /* the header and the cursor */
    uint64_t base; /* file offset of s[0] */
    int depth;
    tensor_diag *diag;
} jreader;

static tf_status jfail(jreader *r, const char *what)
{
    return tensor_fail(r->diag, TF_ERR_FORMAT, r->base + r->i,
                       "the .safetensors header is not valid JSON: %s", what);
}

static void jws(jreader *r)
{
    while (r->i < r->n &&
           (r->s[r->i] == ' ' || r->s[r->i] == '\t' || r->s[r->i] == '\n' || r->s[r->i] == '\r'))
        r->i++;
}

static bool jpeek(jreader *r, uint8_t ch)
{
    jws(r);
    return r->i < r->n && r->s[r->i] == ch;
}

static bool jeat(jreader *r, uint8_t ch)
{
    if (!jpeek(r, ch))
        return false;
    r->i++;
    return true;
}

static int hexval(uint8_t ch)
{
    if (ch >= '0' && ch <= '9')
        return ch - '0';
    if (ch >= 'a' && ch <= 'f')
        return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F')
        return ch - 'A' + 10;
    return -1;
}

/* Four hex digits after "\u". */
static bool jhex4(jreader *r, uint32_t *v)
{
    if (r->n - r->i < 4)
        return false;
    *v = 0;
    for (int k = 0; k < 4; k++) {
        int h = hexval(r->s[r->i + (size_t)k]);
        if (h < 0)
            return false;
        *v = *v << 4 | (uint32_t)h;
    }
    r->i += 4;
    return true;
}

/* A string, decoded into out (room for at least its encoded length + 1 bytes, or NULL to only
 * check it); *len its decoded length. Escapes, surrogate pairs and raw UTF-8 are validated. */
static tf_status jstring(jreader *r, char *out, size_t *len)
{
    if (!jeat(r, '"'))
        return jfail(r, "expected a string");
    size_t o = 0;
    for (;;) {
        if (r->i >= r->n)
            return jfail(r, "a string is not closed");
        uint8_t ch = r->s[r->i];
        if (ch == '"') {
            r->i++;
            break;
        }
        if (ch < 0x20)
            return jfail(r, "a control character inside a string");
        if (ch != '\\') {
            uint32_t cp;
            size_t k = utf8_decode((const char *)r->s + r->i, r->n - r->i, &cp);
            if (k == 0)
                return jfail(r, "a string is not valid UTF-8");
            if (out)
                memcpy(out + o, r->s + r->i, k);
            o += k;
            r->i += k;
            continue;
        }
        r->i++;
        if (r->i >= r->n)
            return jfail(r, "a string ends in a backslash");
        uint8_t e = r->s[r->i++];
        const char *from = "\"\\/bfnrt", *to = "\"\\/\b\f\n\r\t";
        const char *hit = e ? strchr(from, e) : NULL;
        uint32_t cp;
        if (hit) {
            cp = (uint8_t)to[hit - from];
        } else if (e == 'u') {
            if (!jhex4(r, &cp))
                return jfail(r, "\\u needs four hex digits");
            if (cp >= 0xDC00 && cp <= 0xDFFF)
                return jfail(r, "a lone low surrogate in a \\u escape");
            if (cp >= 0xD800 && cp <= 0xDBFF) {
                uint32_t lo;
                if (r->n - r->i < 2 || r->s[r->i] != '\\' || r->s[r->i + 1] != 'u')
                    return jfail(r, "a high surrogate without its low half");
                r->i += 2;
                if (!jhex4(r, &lo) || lo < 0xDC00 || lo > 0xDFFF)
                    return jfail(r, "a high surrogate without its low half");
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            }
        } else {
            return jfail(r, "an unknown escape in a string");
        }
        char enc[4];
        size_t k = utf8_encode(cp, enc);
        if (out)
            memcpy(out + o, enc, k);
        o += k;
    }
    if (out)
        out[o] = '\0';
    if (len)
        *len = o;
    return TF_OK;
}

/* A non-negative integer without sign, fraction or exponent, as the format's offsets and shapes
 * are written. */
static tf_status juint(jreader *r, uint64_t *v)
{
    jws(r);
    size_t start = r->i;
    if (!tensor_read_digits(r->s, r->n, &r->i, v))
        return jfail(r, r->i == start ? "expected a non-negative integer"
                                      : "an integer does not fit in 64 bits");
    if (r->s[start] == '0' && r->i - start > 1)
        return jfail(r, "an integer with a leading zero");
    if (r->i < r->n && (r->s[r->i] == '.' || r->s[r->i] == 'e' || r->s[r->i] == 'E'))
        return jfail(r, "a shape or offset must be a whole number");
    return TF_OK;
}

/* Any value, checked and skipped (the metadata, fields tfviz does not use). */
static tf_status jskip(jreader *r)
{
    jws(r);
    if (r->i >= r->n)
        return jfail(r, "the header ends where a value should be");
    uint8_t ch = r->s[r->i];
    if (ch == '"')
        return jstring(r, NULL, NULL);
    if (ch == '{' || ch == '[') {
        if (++r->depth > JSON_DEPTH)
            return jfail(r, "values nested too deeply");
        uint8_t close = ch == '{' ? '}' : ']';
        r->i++;
        if (!jeat(r, close)) {
            for (;;) {
                tf_status st;
                if (ch == '{') {
                    if ((st = jstring(r, NULL, NULL)) != TF_OK)
                        return st;
                    if (!jeat(r, ':'))
                        return jfail(r, "expected ':' after a key");
                }
                if ((st = jskip(r)) != TF_OK)
                    return st;
                if (jeat(r, close))
                    break;
                if (!jeat(r, ','))
                    return jfail(r, "expected ',' between values");
            }
        }
        r->depth--;
        return TF_OK;
    }
    static const char *const words[] = {"true", "false", "null"};
    for (int w = 0; w < 3; w++) {
        size_t l = strlen(words[w]);
        if (r->n - r->i >= l && memcmp(r->s + r->i, words[w], l) == 0) {
            r->i += l;
            return TF_OK;
        }
    }
    /* a number: -? int frac? exp? */
    size_t start = r->i;
    if (r->s[r->i] == '-')
        r->i++;
    size_t digits = r->i;
    while (r->i < r->n && r->s[r->i] >= '0' && r->s[r->i] <= '9')
        r->i++;
    if (r->i == digits || (r->s[digits] == '0' && r->i - digits > 1))
        return jfail(r, "expected a value");
    if (r->i < r->n && r->s[r->i] == '.') {
        size_t f = ++r->i;
        while (r->i < r->n && r->s[r->i] >= '0' && r->s[r->i] <= '9')
            r->i++;
        if (r->i == f)
            return jfail(r, "a number with an empty fraction");
    }
    if (r->i < r->n && (r->s[r->i] == 'e' || r->s[r->i] == 'E')) {
        r->i++;
        if (r->i < r->n && (r->s[r->i] == '+' || r->s[r->i] == '-'))
            r->i++;
        size_t e = r->i;
        while (r->i < r->n && r->s[r->i] >= '0' && r->s[r->i] <= '9')
            r->i++;
        if (r->i == e)
            return jfail(r, "a number with an empty exponent");
    }
    (void)start;
    return TF_OK;
}

/* ---------------------------------------------------------------------------------------------
 * The tensor entries */

/* Bytes per element of the format's dtypes; 0 for one tfviz does not know (a newer version's
 * sub-byte types): its size is then not checked, only its place in the buffer. */
static size_t dtype_bytes(const char *dt, int *known)
{
    static const struct {
        const char *name;
        unsigned char bytes;
        int known;
    } types[] = {
        {"BOOL", 1, -1},          {"U8", 1, -1},  {"I8", 1, -1},  {"F8_E5M2", 1, -1},
        {"F8_E4M3", 1, -1},       {"I16", 2, -1}, {"U16", 2, -1}, {"F16", 2, TENSOR_F16},
        {"BF16", 2, TENSOR_BF16}, {"I32", 4, -1}, {"U32", 4, -1}, {"F32", 4, TENSOR_F32},
        {"F64", 8, TENSOR_F64},   {"I64", 8, -1}, {"U64", 8, -1},
    };
    for (size_t t = 0; t < sizeof types / sizeof types[0]; t++)
        if (strcmp(dt, types[t].name) == 0) {
            *known = types[t].known;
            return types[t].bytes;
        }
    *known = -1;
    return 0;
}

/* The name of entry e for a message, made terminal-safe. */
static const char *shown(const safetensors_entry *e, char *buf, size_t cap)
{
    tensor_safe_name(buf, cap, e->name, e->name_len, 80);
    return buf;
}

/* An entry's "dtype": a string that fits e->dtype. */
static tf_status read_dtype(jreader *r, safetensors_entry *e)
{
    char nb[128];
    if (!jpeek(r, '"'))
        return jfail(r, "'dtype' must be a string");
    size_t save = r->i, dlen = 0;
    tf_status st = jstring(r, NULL, &dlen);
    if (st != TF_OK)
        return st;
    if (dlen < sizeof e->dtype) {
        r->i = save;
        jstring(r, e->dtype, &dlen);
    }
    /* (a \u0000 inside, "F32\u0000", is no type either: compared as a C string it was F32) */
    if (dlen >= sizeof e->dtype || strlen(e->dtype) != dlen)
        return tensor_fail(r->diag, TF_ERR_FORMAT, r->base + save,
                           "tensor '%s' has a dtype that is not a safetensors type",
                           shown(e, nb, sizeof nb));
    return TF_OK;
}

/* An entry's "shape": [n, ...] with at most SAFETENSORS_MAX_DIMS integers. */
static tf_status read_shape(jreader *r, safetensors_entry *e)
{
    char nb[128];
    if (!jeat(r, '['))
        return jfail(r, "'shape' must be an array of integers");
    e->ndim = 0;
    if (jeat(r, ']'))
        return TF_OK;
    for (;;) {
        if (e->ndim == SAFETENSORS_MAX_DIMS)
            return tensor_fail(r->diag, TF_ERR_FORMAT, r->base + r->i,
                               "tensor '%s' has more than %d dimensions",
                               shown(e, nb, sizeof nb), SAFETENSORS_MAX_DIMS);
        tf_status st = juint(r, &e->shape[e->ndim++]);
        if (st != TF_OK)
            return st;
        if (jeat(r, ']'))
            return TF_OK;
        if (!jeat(r, ','))
            return jfail(r, "expected ',' or ']' in 'shape'");
    }
}

/* {"dtype": "F32", "shape": [..], "data_offsets": [b, e]} (other fields skipped). */
static tf_status read_entry(jreader *r, safetensors_entry *e)
{
    char nb[128];
    if (!jeat(r, '{'))
        return tensor_fail(r->diag, TF_ERR_FORMAT, r->base + r->i,
                           "the .safetensors entry of '%s' is not an object with dtype, shape "
                           "and data_offsets",
                           shown(e, nb, sizeof nb));
    bool has_dtype = false, has_shape = false, has_offsets = false;
    if (!jeat(r, '}')) {
        for (;;) {
            char key[16];
            size_t klen = 0;
            /* keys longer than key[] are decoded into nothing and skipped with their value */
            size_t save = r->i;
            tf_status st = jstring(r, NULL, &klen);
            if (st != TF_OK)
                return st;
            if (klen < sizeof key) {
                r->i = save;
                jstring(r, key, &klen);
            } else {
                key[0] = '\0';
            }
            if (!jeat(r, ':'))
                return jfail(r, "expected ':' after a key");
            if (strcmp(key, "dtype") == 0) {
                if (has_dtype)
                    return jfail(r, "'dtype' is given twice");
                has_dtype = true;
                if ((st = read_dtype(r, e)) != TF_OK)
                    return st;
            } else if (strcmp(key, "shape") == 0) {
                if (has_shape)
                    return jfail(r, "'shape' is given twice");
                has_shape = true;
                if ((st = read_shape(r, e)) != TF_OK)
                    return st;
            } else if (strcmp(key, "data_offsets") == 0) {
                if (has_offsets)
                    return jfail(r, "'data_offsets' is given twice");
                has_offsets = true;
                if (!jeat(r, '[') || (st = juint(r, &e->begin)) != TF_OK || !jeat(r, ',') ||
                    (st = juint(r, &e->end)) != TF_OK || !jeat(r, ']'))
                    return st != TF_OK ? st : jfail(r, "'data_offsets' must be [begin, end]");
            } else if ((st = jskip(r)) != TF_OK) {
                return st;
            }
            if (jeat(r, '}'))
                break;
            if (!jeat(r, ','))
                return jfail(r, "expected ',' or '}' in a tensor's entry");
        }
    }
    if (!has_dtype || !has_shape || !has_offsets)
        return tensor_fail(r->diag, TF_ERR_FORMAT, r->base + r->i,
                           "tensor '%s' lacks %s in the .safetensors header",
                           shown(e, nb, sizeof nb),
                           !has_dtype   ? "its dtype"
                           : !has_shape ? "its shape"
                                        : "its data_offsets");
    return TF_OK;
}

static int by_name(const void *a, const void *b)
{
    const safetensors_entry *x = *(safetensors_entry *const *)a,
                            *y = *(safetensors_entry *const *)b;
    size_t m = x->name_len < y->name_len ? x->name_len : y->name_len;
    int c = memcmp(x->name, y->name, m);
    return c ? c : (x->name_len > y->name_len) - (x->name_len < y->name_len);
}

static int by_begin(const void *a, const void *b)
{
    const safetensors_entry *x = *(safetensors_entry *const *)a,
                            *y = *(safetensors_entry *const *)b;
    if (x->begin != y->begin)
        return x->begin < y->begin ? -1 : 1;
    return (x->end > y->end) - (x->end < y->end);
}

/* The format's rules over all entries: sizes, bounds, unique names, an exact cover. */
static tf_status check_entries(safetensors_header *h, tensor_diag *diag)
{
    char nb[128], nb2[128];
    for (size_t t = 0; t < h->n; t++) {
        safetensors_entry *e = &h->items[t];
        size_t bytes = dtype_bytes(e->dtype, &e->known);
        if (e->begin > e->end)
            return tensor_fail(diag, TF_ERR_FORMAT, h->data_offset,
                               "tensor '%s' has data_offsets [%llu, %llu] that run backwards: "
                               "the header is damaged",
                               shown(e, nb, sizeof nb), (unsigned long long)e->begin,
                               (unsigned long long)e->end);
        uint64_t numel = 1, need;
        bool ok = true;
        for (int k = 0; k < e->ndim; k++)
            ok = ok && tensor_mul_ok(numel, e->shape[k], &numel);
        if (bytes && (!ok || !tensor_mul_ok(numel, bytes, &need)))
            return tensor_fail(diag, TF_ERR_FORMAT, h->data_offset,
                               "tensor '%s' has a shape with more elements than any file holds: "
                               "the header is damaged",
                               shown(e, nb, sizeof nb));
        if (bytes && need != e->end - e->begin) {
            char sh[96];
            tensor_shape_str(e->shape, e->ndim, sh, sizeof sh);
            return tensor_fail(diag, TF_ERR_FORMAT, h->data_offset + e->begin,
                               "tensor '%s' (%s, shape %s) needs %llu bytes but its data_offsets "
                               "span %llu: the header does not match the data",
                               shown(e, nb, sizeof nb), e->dtype, sh, (unsigned long long)need,
                               (unsigned long long)(e->end - e->begin));
        }
        if (e->end > h->data_bytes)
            return tensor_fail(diag, TF_ERR_FORMAT, h->data_offset + h->data_bytes,
                               "tensor '%s' ends at byte %llu of the data but the data has only "
                               "%llu bytes: the file is truncated (or its offsets are wrong)",
                               shown(e, nb, sizeof nb), (unsigned long long)e->end,
                               (unsigned long long)h->data_bytes);
    }
    safetensors_entry **order = malloc((h->n ? h->n : 1) * sizeof(safetensors_entry *));
    if (!order)
        return TF_ERR_NOMEM;
    for (size_t t = 0; t < h->n; t++)
        order[t] = &h->items[t];
    tf_status st = TF_OK;
    qsort(order, h->n, sizeof(safetensors_entry *), by_name);
    for (size_t t = 1; t < h->n && st == TF_OK; t++)
        if (by_name(&order[t - 1], &order[t]) == 0)
            st = tensor_fail(diag, TF_ERR_FORMAT, 8, "tensor '%s' is listed twice in the header",
                             shown(order[t], nb, sizeof nb));
    if (st == TF_OK) {
        qsort(order, h->n, sizeof(safetensors_entry *), by_begin);
        uint64_t at = 0;
        for (size_t t = 0; t < h->n && st == TF_OK; t++) {
            const safetensors_entry *e = order[t];
            if (e->begin < at)
                st = tensor_fail(diag, TF_ERR_FORMAT, h->data_offset + e->begin,
                                 "tensors '%s' and '%s' overlap in the data (bytes %llu to %llu): "
                                 "the header is damaged",
                                 shown(order[t - 1], nb, sizeof nb), shown(e, nb2, sizeof nb2),
                                 (unsigned long long)e->begin, (unsigned long long)at);
            else if (e->begin > at)
                st = tensor_fail(diag, TF_ERR_FORMAT, h->data_offset + at,
                                 "bytes %llu to %llu of the data belong to no tensor; the "
                                 "safetensors format allows no holes: the header is damaged",
                                 (unsigned long long)at, (unsigned long long)e->begin);
            at = e->end;
        }
        if (st == TF_OK && at != h->data_bytes)
            st = tensor_fail(diag, TF_ERR_FORMAT, h->data_offset + at,
                             "the file has %llu bytes of data but its tensors use %llu: the "
                             "header does not match the data",
                             (unsigned long long)h->data_bytes, (unsigned long long)at);
    }
    free(order);
    return st;
}

/* ---------------------------------------------------------------------------------------------
 * The header */

/* The header's entries after its '{': tensors, and __metadata__ (skipped), to the '}'. The
 * names are decoded into h->names, which has room for them all. */
static tf_status read_entries(jreader *r, safetensors_header *h)
{
    size_t used = 0, cap = 0;
    bool seen_meta = false;
    tf_status st;
    if (jeat(r, '}'))
        return TF_OK;
    for (;;) {
        size_t klen = 0;
        char *key = h->names + used;
        if ((st = jstring(r, key, &klen)) != TF_OK)
            return st;
        if (!jeat(r, ':'))
            return jfail(r, "expected ':' after a key");
        if (klen == 12 && memcmp(key, "__metadata__", 12) == 0) {
            if (seen_meta)
                return jfail(r, "'__metadata__' is given twice");
            seen_meta = true;
            if (!jpeek(r, '{'))
                return jfail(r, "'__metadata__' must be an object");
            if ((st = jskip(r)) != TF_OK)
                return st;
        } else {
            used += klen + 1;
            if (h->n == TF_MAX_SAFETENSORS_ENTRIES)
                return tensor_fail(r->diag, TF_ERR_TOO_BIG, TENSOR_NO_OFFSET,
                                   "the header lists more than %d tensors, more than any "
                                   "checkpoint file holds; save the table alone "
                                   "(safetensors.torch.save_file({name: table}, file))",
                                   TF_MAX_SAFETENSORS_ENTRIES);
            if (h->n == cap) {
                size_t nc = cap ? 2 * cap : 16;
                safetensors_entry *p = realloc(h->items, nc * sizeof *p);
                if (!p)
                    return TF_ERR_NOMEM;
                h->items = p;
                cap = nc;
            }
            safetensors_entry *e = &h->items[h->n++];
            memset(e, 0, sizeof *e);
            e->name = key;
            e->name_len = klen;
            if ((st = read_entry(r, e)) != TF_OK)
                return st;
        }
        if (jeat(r, '}'))
            return TF_OK;
        if (!jeat(r, ','))
            return jfail(r, "expected ',' or '}' after a tensor");
    }
}

tf_status safetensors_parse_header(const uint8_t *buf, size_t len, uint64_t file_size,
                                   safetensors_header *h, tensor_diag *diag)
{
    memset(h, 0, sizeof *h);
    if (len < 8 || file_size < 8)
        return tensor_fail(diag, TF_ERR_FORMAT, 0,
                           "the file is %llu bytes long, too short for a .safetensors header",
                           (unsigned long long)file_size);
    uint64_t n = 0;
    for (int i = 0; i < 8; i++)
        n |= (uint64_t)buf[i] << (8 * i);
    h->header_bytes = n;
    if (n > file_size - 8)
        return tensor_fail(diag, TF_ERR_FORMAT, 0,
                           "the header length says %llu bytes but only %llu follow it: the file "
                           "is truncated or not a .safetensors file",
                           (unsigned long long)n, (unsigned long long)(file_size - 8));
    if (n > TF_MAX_SAFETENSORS_HEADER)
        return tensor_fail(diag, TF_ERR_FORMAT, 0,
                           "the header length says %llu bytes; the safetensors format allows at "
                           "most %d",
                           (unsigned long long)n, TF_MAX_SAFETENSORS_HEADER);
    if (len - 8 < n)
        return tensor_fail(diag, TF_ERR_FORMAT, len, "the header was not read whole");
    h->data_offset = 8 + n;
    h->data_bytes = file_size - h->data_offset;
    jreader r = {.s = buf + 8, .n = (size_t)n, .i = 0, .base = 8, .depth = 0, .diag = diag};
    if (!jpeek(&r, '{') || r.i != 0)
        return tensor_fail(diag, TF_ERR_FORMAT, 8,
                           "the header does not start with '{': this is not a .safetensors file");
    r.i++;
    /* every decoded name fits in the header's own size: a string loses its two quotes and
     * gains one NUL */
    h->names = malloc((size_t)n + 1);
    if (!h->names)
        return TF_ERR_NOMEM;
    tf_status st = read_entries(&r, h);
    if (st == TF_OK) {
        jws(&r);
        if (r.i != r.n)
            st = jfail(&r, "something other than spaces follows the closing '}'");
    }
    if (st == TF_OK)
        st = check_entries(h, diag);
    if (st != TF_OK)
        safetensors_header_free(h);
    return st;
}

void safetensors_header_free(safetensors_header *h)
{
    free(h->items);
    free(h->names);
    memset(h, 0, sizeof *h);
}

long safetensors_find(const safetensors_header *h, const char *name)
{
    size_t len = strlen(name);
    for (size_t t = 0; t < h->n; t++)
        if (h->items[t].name_len == len && memcmp(h->items[t].name, name, len) == 0)
            return (long)t;
    return -1;
}
