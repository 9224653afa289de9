/* dict.c — the mapped dictionary: prefix search over sorted words, and the route. */
#include "dict.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "asset.h"

#define HEADER_BYTES 64
#define FIRST_N      65537 /* entries of the first-character index */

struct tf_dict {
    tf_asset file;
    uint32_t n;         /* words */
    uint32_t n_zh;      /* jieba's words, sorted, come first; words only English follow */
    uint32_t n_english; /* words from the English list (some may be jieba's too) */
    uint32_t en_first[129]; /* words only English starting with byte c < 128 are
                               [en_first[c], en_first[c+1]) (worked out at open) */
    uint64_t total;     /* sum of jieba's frequencies */
    uint64_t vtotal;    /* sum of the vocabulary frequencies */
    uint64_t en_total;  /* the English list's sum of counts, 0 without it */
    double log_total, log_vtotal;
    const unsigned char *off;       /* (n + 1) u32: word i is blob[off[i], off[i+1]) */
    const unsigned char *freq;      /* (n) u32 jieba's frequency (segmentation) */
    const unsigned char *vfreq;     /* (n) u32 vocabulary frequency (ranking, dict.h) */
    const unsigned char *rank;      /* (n) u32 */
    const unsigned char *rank_word; /* (n) u32 */
    const unsigned char *first;     /* (65537) u32: words starting with code point c < 65536
                                       are [first[c], first[c+1]) */
    const unsigned char *blob;
    uint32_t blob_bytes;
    const unsigned char *tag; /* (n) u8 DICT_TAG_*, NULL in a file without them */
};

static inline uint32_t off_at(const tf_dict *d, uint32_t i)
{
    return asset_u32(d->off + 4ull * i);
}

/* Word i as [*a, *a + *len) of the blob; an entry that points outside is empty. */
static inline void word_span(const tf_dict *d, uint32_t i, uint32_t *a, size_t *len)
{
    uint32_t x = off_at(d, i), y = off_at(d, i + 1);
    if (y < x || y > d->blob_bytes)
        x = y = 0;
    *a = x;
    *len = y - x;
}

tf_status dict_open(const char *dir, tf_dict **out)
{
    *out = NULL;
    tf_dict *d = calloc(1, sizeof *d);
    if (!d)
        return TF_ERR_NOMEM;
    tf_status st = asset_map(dir, DICT_ASSET, &d->file);
    if (st != TF_OK) {
        free(d);
        return st;
    }
    const unsigned char *p = d->file.data;
    size_t size = d->file.size;
    st = TF_ERR_FORMAT;
    if (size < HEADER_BYTES || memcmp(p, "TFDICT03", 8) != 0)
        goto fail;
    d->n = asset_u32(p + 8);
    d->blob_bytes = asset_u32(p + 12);
    d->n_english = asset_u32(p + 20);
    d->total = asset_u64(p + 24);
    d->vtotal = asset_u64(p + 40);
    d->en_total = asset_u64(p + 48);
    d->n_zh = asset_u32(p + 56);
    uint32_t has_tags = asset_u32(p + 60);
    uint64_t want = HEADER_BYTES + 4ull * (d->n + 1) + 16ull * d->n + 4ull * FIRST_N +
                    d->blob_bytes + (has_tags ? d->n : 0);
    if (d->n == 0 || d->total == 0 || d->vtotal == 0 || d->n_english > d->n || d->n_zh > d->n ||
        has_tags > 1 || want != size)
        goto fail;
    d->off = p + HEADER_BYTES;
    d->freq = d->off + 4ull * (d->n + 1);
    d->vfreq = d->freq + 4ull * d->n;
    d->rank = d->vfreq + 4ull * d->n;
    d->rank_word = d->rank + 4ull * d->n;
    d->first = d->rank_word + 4ull * d->n;
    d->blob = d->first + 4ull * FIRST_N;
    d->tag = has_tags ? d->blob + d->blob_bytes : NULL;
    /* the offsets are not all checked here (that would read 1.4 MB at every start): each read
     * goes through word_span, which turns a damaged entry into an empty word */
    if (asset_u32(d->off) != 0 || off_at(d, d->n) != d->blob_bytes)
        goto fail;
    d->log_total = log((double)d->total);
    d->log_vtotal = log((double)d->vtotal);
    for (uint32_t c = 0, k = d->n_zh; c <= 128; c++) { /* first word >= c, by bisection */
        uint32_t hi = d->n;
        while (k < hi) {
            uint32_t mid = k + (hi - k) / 2, a;
            size_t wl;
            word_span(d, mid, &a, &wl);
            if (wl && d->blob[a] < c)
                k = mid + 1;
            else
                hi = mid;
        }
        d->en_first[c] = k;
    }
    *out = d;
    return TF_OK;
fail:
    asset_unmap(&d->file);
    free(d);
    return st;
}

void dict_free(tf_dict *d)
{
    if (!d)
        return;
    asset_unmap(&d->file);
    free(d);
}

uint32_t dict_count(const tf_dict *d)
{
    return d->n;
}
uint64_t dict_total(const tf_dict *d)
{
    return d->total;
}
uint64_t dict_vtotal(const tf_dict *d)
{
    return d->vtotal;
}
uint32_t dict_english_count(const tf_dict *d)
{
    return d->n_english;
}
uint64_t dict_english_total(const tf_dict *d)
{
    return d->en_total;
}

const char *dict_word(const tf_dict *d, uint32_t i, size_t *len)
{
    uint32_t a;
    word_span(d, i, &a, len);
    return (const char *)d->blob + a;
}

uint32_t dict_freq(const tf_dict *d, uint32_t i)
{
    return asset_u32(d->freq + 4ull * i);
}

int dict_tag(const tf_dict *d, uint32_t i)
{
    return d->tag && i < d->n && d->tag[i] <= DICT_TAG_OTHER ? d->tag[i] : DICT_TAG_NONE;
}

int dict_has_tags(const tf_dict *d)
{
    return d->tag != NULL;
}

uint32_t dict_vfreq(const tf_dict *d, uint32_t i)
{
    return asset_u32(d->vfreq + 4ull * i);
}

uint32_t dict_rank(const tf_dict *d, uint32_t i)
{
    uint32_t r = asset_u32(d->rank + 4ull * i);
    return r < d->n ? r : 0;
}

uint32_t dict_at_rank(const tf_dict *d, uint32_t rank)
{
    uint32_t i = asset_u32(d->rank_word + 4ull * rank);
    return i < d->n ? i : 0;
}

/* ---------------------------------------------------------------------------------------------
 * Prefix search. The words are sorted by bytes, so the words that begin with a given prefix
 * form one contiguous range; extending the prefix by one character narrows the range. */

/* Compare word i's bytes [depth, depth + klen) with key; a word that ends early is smaller. */
static int cmp_at(const tf_dict *d, uint32_t i, size_t depth, const unsigned char *key, size_t klen)
{
    uint32_t a;
    size_t wlen;
    word_span(d, i, &a, &wlen);
    size_t have = wlen > depth ? wlen - depth : 0;
    size_t m = have < klen ? have : klen;
    const unsigned char *w = d->blob + a + depth;
    for (size_t k = 0; k < m; k++) /* keys are one character: a loop beats a memcmp call */
        if (w[k] != key[k])
            return w[k] < key[k] ? -1 : 1;
    return m == klen ? 0 : -1; /* -1: the word stops inside the key */
}

/* Narrow [*lo, *hi), whose words all share the first `depth` bytes, to the words that continue
 * with key[0..klen). Returns 0 when none does. */
static int narrow(const tf_dict *d, uint32_t *lo, uint32_t *hi, size_t depth,
                  const unsigned char *key, size_t klen)
{
    uint32_t a = *lo, b = *hi;
    while (a < b) { /* first word >= key */
        uint32_t mid = a + (b - a) / 2;
        if (cmp_at(d, mid, depth, key, klen) < 0)
            a = mid + 1;
        else
            b = mid;
    }
    if (a == *hi || cmp_at(d, a, depth, key, klen) != 0) {
        *lo = *hi = a;
        return 0; /* the usual way a prefix stops growing: answered without a second search */
    }
    /* the matching words are usually few: gallop from the first, then search the last step */
    uint32_t first = a, known = a, probe = a + 1, step = 1, end = *hi;
    while (probe < end && cmp_at(d, probe, depth, key, klen) == 0) {
        known = probe; /* words first..known match; probe, if < end, is past them */
        probe = end - probe > step ? probe + step : end;
        step *= 2;
    }
    a = known + 1;
    b = probe < end ? probe : end;
    while (a < b) { /* first word > key */
        uint32_t mid = a + (b - a) / 2;
        if (cmp_at(d, mid, depth, key, klen) <= 0)
            a = mid + 1;
        else
            b = mid;
    }
    *lo = first;
    *hi = a;
    return 1;
}

/* jieba's words that start with the character key[0..klen): from the index for the BMP (the
 * values are clamped, so a damaged index gives wrong words, never a read out of bounds). */
static int first_range(const tf_dict *d, uint32_t *lo, uint32_t *hi, const unsigned char *key,
                       size_t klen)
{
    uint32_t cp = 0;
    if (klen == 1)
        cp = key[0];
    else if (klen == 2)
        cp = (key[0] & 0x1Fu) << 6 | (key[1] & 0x3Fu);
    else if (klen == 3)
        cp = (key[0] & 0x0Fu) << 12 | (key[1] & 0x3Fu) << 6 | (key[2] & 0x3Fu);
    else
        cp = 0x10000;
    uint32_t a = asset_u32(d->first + 4ull * cp);
    uint32_t b = cp < 0x10000 ? asset_u32(d->first + 4ull * (cp + 1)) : d->n_zh;
    *lo = a < d->n_zh ? a : d->n_zh;
    *hi = b < *lo ? *lo : b > d->n_zh ? d->n_zh : b;
    if (cp < 0x10000)
        return *lo < *hi;
    return narrow(d, lo, hi, 0, key, klen);
}

/* The words only English that start with key[0..klen), by search: a section of their own, so
 * that jieba's route never walks through them. */
static int english_range(const tf_dict *d, uint32_t *lo, uint32_t *hi, const unsigned char *key,
                         size_t klen)
{
    /* the English words are Latin letters: no search for any other character */
    if (key[0] >= 0x80)
        return 0;
    *lo = d->en_first[key[0]];
    *hi = d->en_first[key[0] + 1];
    return *lo < *hi && (klen == 1 || narrow(d, lo, hi, 1, key + 1, klen - 1));
}

typedef int (*range_fn)(const tf_dict *d, uint32_t *lo, uint32_t *hi, const unsigned char *key,
                        size_t klen);

/* The byte length of the UTF-8 sequence that starts with byte c. */
static size_t seq_len(unsigned char c)
{
    return c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
}

int64_t dict_find(const tf_dict *d, const char *s, size_t len)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t c0 = len ? seq_len(u[0]) : 0;
    if (len == 0 || c0 > len)
        return -1;
    const range_fn sections[2] = {first_range, english_range};
    for (int k = 0; k < 2; k++) {
        uint32_t lo, hi, a;
        size_t wl;
        if (!sections[k](d, &lo, &hi, u, c0) ||
            (len > c0 && !narrow(d, &lo, &hi, c0, u + c0, len - c0)))
            continue;
        /* the shortest word of the range comes first: it is s itself if s is a word */
        word_span(d, lo, &a, &wl);
        if (wl == len)
            return (int64_t)lo;
    }
    return -1;
}

/* Calls back for every dictionary word starting at character i with a frequency > 0: jieba's
 * (vocab 0), or the vocabulary's for a word ranked below max_rank (vocab 1). The prefix grows one
 * character at a time and stops as soon as no word begins with it, as jieba's prefix
 * dictionary does. */
typedef void (*edge_fn)(void *ctx, size_t j, uint32_t freq, uint32_t word);

static void walk_section(const tf_dict *d, range_fn first, const char *s, const uint32_t *cpos,
                         size_t n, size_t i, int vocab, uint32_t max_rank, edge_fn fn, void *ctx)
{
    uint32_t lo = 0, hi = d->n;
    const unsigned char *u = (const unsigned char *)s;
    for (size_t j = i; j < n; j++) {
        size_t depth = cpos[j] - cpos[i], klen = cpos[j + 1] - cpos[j];
        if (j == i ? !first(d, &lo, &hi, u + cpos[j], klen)
                   : !narrow(d, &lo, &hi, depth, u + cpos[j], klen))
            break;
        uint32_t a;
        size_t wl;
        word_span(d, lo, &a, &wl);
        if (wl == depth + klen) {
            uint32_t f = !vocab                        ? dict_freq(d, lo)
                         : dict_rank(d, lo) < max_rank ? dict_vfreq(d, lo)
                                                       : 0;
            if (f > 0)
                fn(ctx, j, f, lo);
        }
    }
}

/* jieba's words only (vocab 0: their edges arrive in ascending j), or every word (vocab 1). */
static void for_each_edge(const tf_dict *d, const char *s, const uint32_t *cpos, size_t n, size_t i,
                          int vocab, uint32_t max_rank, edge_fn fn, void *ctx)
{
    walk_section(d, first_range, s, cpos, n, i, vocab, max_rank, fn, ctx);
    if (vocab && d->n_zh < d->n)
        walk_section(d, english_range, s, cpos, n, i, vocab, max_rank, fn, ctx);
}

typedef struct {
    double log_total;
    const double *score;
    size_t best_j;
    uint32_t best_word;
    double best;
    int any;
} route_ctx;

static void route_edge(void *ctx, size_t j, uint32_t freq, uint32_t word)
{
    route_ctx *r = ctx;
    /* jieba: log(FREQ.get(word) or 1) - logtotal + route[j + 1]; max over (score, j), so an
     * equal score goes to the larger j */
    double v = log((double)freq) - r->log_total + r->score[j + 1];
    if (!r->any || v > r->best || (v == r->best && j > r->best_j)) {
        r->best = v;
        r->best_j = j;
        r->best_word = word;
        r->any = 1;
    }
}

void dict_route(const tf_dict *d, const char *s, const uint32_t *cpos, size_t n, double *score,
                uint32_t *next, uint32_t *word)
{
    score[n] = 0.0;
    for (size_t i = n; i-- > 0;) {
        route_ctx r = {.log_total = d->log_total, .score = score};
        for_each_edge(d, s, cpos, n, i, 0, 0, route_edge, &r);
        if (!r.any) /* no word starts here: the character alone, with frequency "or 1" */
            route_edge(&r, i, 1, DICT_NONE);
        score[i] = r.best;
        next[i] = (uint32_t)(r.best_j + 1);
        if (word)
            word[i] = r.best_word;
    }
}

static int is_ascii_lower(unsigned char c)
{
    return c >= 'a' && c <= 'z';
}

void dict_route_vocab(const tf_dict *d, const char *s, char *lower, const uint32_t *cpos, size_t n,
                      uint32_t max_rank, double *score, uint32_t *next, uint32_t *word)
{
    /* as written only when that differs from lowercase (it is uppercase somewhere) */
    int as_written = !lower || memcmp(s, lower, cpos[n]) != 0;
    score[n] = 0.0;
    for (size_t i = n; i-- > 0;) {
        route_ctx r = {.log_total = d->log_vtotal, .score = score};
        if (as_written)
            for_each_edge(d, s, cpos, n, i, 1, max_rank, route_edge, &r);
        if (lower) {
            /* the list's two spellings: lowercase, and capitalised from this character on */
            for_each_edge(d, lower, cpos, n, i, 1, max_rank, route_edge, &r);
            unsigned char c = (unsigned char)lower[cpos[i]];
            if (is_ascii_lower(c)) {
                lower[cpos[i]] = (char)(c - 'a' + 'A');
                for_each_edge(d, lower, cpos, n, i, 1, max_rank, route_edge, &r);
                lower[cpos[i]] = (char)c;
            }
        }
        if (!r.any) { /* no vocabulary word starts here: the character alone, "or 1", and a
                       * character left uncovered costs more than any word (dict.h) */
            route_edge(&r, i, 1, DICT_NONE);
            r.best -= DICT_UNCOVERED;
        }
        score[i] = r.best;
        next[i] = (uint32_t)(r.best_j + 1);
        word[i] = r.best_word;
    }
}

typedef struct {
    uint32_t *ends;
    size_t cap, n;
} dag_ctx;

static void dag_edge(void *ctx, size_t j, uint32_t freq, uint32_t word)
{
    (void)freq;
    (void)word;
    dag_ctx *c = ctx;
    if (c->n < c->cap)
        c->ends[c->n] = (uint32_t)j;
    c->n++;
}

/* ends is written through dag_ctx by dag_edge, which clang-tidy does not follow */
size_t dict_dag(const tf_dict *d, const char *s, const uint32_t *cpos, size_t n, size_t i,
                uint32_t *ends, size_t cap) /* NOLINT(readability-non-const-parameter) */
{
    dag_ctx c = {ends, cap, 0};
    for_each_edge(d, s, cpos, n, i, 0, 0, dag_edge, &c);
    if (c.n == 0)
        dag_edge(&c, i, 1, DICT_NONE);
    return c.n;
}
