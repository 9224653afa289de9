/* bpe.c — the rank table, the pairwise merge, and PCRE2 pre-tokenisation. */
#include "bpe.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "asset.h"
#include "tf_config.h"

#if TF_HAVE_PCRE2
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#endif

#define HEADER_BYTES 64

struct tf_bpe {
    tf_asset file;
    uint32_t n;                  /* ranks */
    uint32_t n_vocab;            /* ranks + special-token ids */
    uint32_t blob_bytes;
    const unsigned char *off;    /* (n + 1) u32: rank r is blob[off[r], off[r+1]) */
    const unsigned char *table;  /* (slots) u32: ranks by FNV-1a hash, linear probing */
    uint32_t slots;              /* a power of two */
    const char *pat;             /* NUL-terminated */
    const unsigned char *blob;
#if TF_HAVE_PCRE2
    pcre2_code *re;
#endif
};

static inline uint32_t off_at(const tf_bpe *b, uint32_t r)
{
    return asset_u32(b->off + 4ull * r);
}

tf_status bpe_open(const char *dir, const char *name, tf_bpe **out)
{
    *out = NULL;
#if !TF_HAVE_PCRE2
    (void)dir;
    (void)name;
    return TF_ERR_UNAVAILABLE;
#else
    tf_bpe *b = calloc(1, sizeof *b);
    if (!b)
        return TF_ERR_NOMEM;
    tf_status st = asset_map(dir, name, &b->file);
    if (st != TF_OK) {
        free(b);
        return st;
    }
    const unsigned char *p = b->file.data;
    st = TF_ERR_FORMAT;
    if (b->file.size < HEADER_BYTES || memcmp(p, "TFBPE002", 8) != 0)
        goto fail;
    b->n = asset_u32(p + 8);
    uint32_t blob_bytes = asset_u32(p + 12), pat_bytes = asset_u32(p + 16);
    b->blob_bytes = blob_bytes;
    b->n_vocab = asset_u32(p + 24);
    b->slots = asset_u32(p + 28);
    uint64_t want = HEADER_BYTES + 4ull * (b->n + 1) + 4ull * b->slots + pat_bytes + blob_bytes;
    if (b->n == 0 || pat_bytes < 2 || want != b->file.size || b->n_vocab < b->n ||
        b->slots < b->n || (b->slots & (b->slots - 1)) != 0)
        goto fail;
    b->off = p + HEADER_BYTES;
    b->table = b->off + 4ull * (b->n + 1);
    b->pat = (const char *)b->table + 4ull * b->slots;
    b->blob = (const unsigned char *)b->pat + pat_bytes;
    if (b->pat[pat_bytes - 1] != '\0' || off_at(b, 0) != 0 || off_at(b, b->n) != blob_bytes)
        goto fail;
    /* the tables are not walked here (that would read megabytes at every start): bpe_bytes
     * and bpe_rank clamp what they read, so a damaged file gives wrong tokens, never a read
     * out of bounds */
    int err;
    PCRE2_SIZE erroff;
    b->re = pcre2_compile((PCRE2_SPTR)b->pat, PCRE2_ZERO_TERMINATED, PCRE2_UTF | PCRE2_UCP, &err,
                          &erroff, NULL);
    if (!b->re)
        goto fail;
    (void)pcre2_jit_compile(b->re, PCRE2_JIT_COMPLETE); /* the interpreter is the fallback */
    *out = b;
    return TF_OK;
fail:
    asset_unmap(&b->file);
    free(b);
    return st;
#endif
}

void bpe_free(tf_bpe *b)
{
    if (!b)
        return;
#if TF_HAVE_PCRE2
    pcre2_code_free(b->re);
#endif
    asset_unmap(&b->file);
    free(b);
}

uint32_t bpe_count(const tf_bpe *b)
{
    return b->n;
}
uint32_t bpe_n_vocab(const tf_bpe *b)
{
    return b->n_vocab;
}
const char *bpe_pattern(const tf_bpe *b)
{
    return b->pat;
}

const unsigned char *bpe_bytes(const tf_bpe *b, uint32_t r, size_t *len)
{
    uint32_t a = r < b->n ? off_at(b, r) : 0, e = r < b->n ? off_at(b, r + 1) : 0;
    if (e < a || e > b->blob_bytes)
        a = e = 0;
    *len = e - a;
    return b->blob + a;
}

int64_t bpe_rank(const tf_bpe *b, const void *s, size_t len)
{
    /* the table's hash: 32-bit FNV-1a (scripts/gen_bpe.py) */
    const unsigned char *u = s;
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < len; i++)
        h = (h ^ u[i]) * 16777619u;
    for (uint32_t k = 0; k < b->slots; k++) {
        uint32_t r = asset_u32(b->table + 4ull * ((h + k) & (b->slots - 1)));
        if (r == UINT32_MAX || r >= b->n)
            return -1; /* an empty slot ends the probe (so does a damaged entry) */
        size_t tl;
        const unsigned char *t = bpe_bytes(b, r, &tl);
        if (tl == len && memcmp(t, s, len) == 0)
            return r;
    }
    return -1;
}

/* ---------------------------------------------------------------------------------------------
 * The merge. part[k] is the start of the k-th current token, part[m] = len; prank[k] is the
 * rank of tokens k and k+1 joined (UINT32_MAX when that is not in the table). Each step joins
 * the pair with the lowest rank (the leftmost of equal ones), as tiktoken's byte_pair_merge. */

static uint32_t pair_rank(const tf_bpe *b, const unsigned char *s, const uint32_t *part, size_t m,
                          size_t k)
{
    if (k + 2 > m)
        return UINT32_MAX;
    int64_t r = bpe_rank(b, s + part[k], part[k + 2] - part[k]);
    return r < 0 ? UINT32_MAX : (uint32_t)r;
}

static size_t merge_scan(const tf_bpe *b, const unsigned char *s, size_t len, uint32_t *ranks,
                         uint32_t *lens)
{
    /* lens doubles as the part array (len + 1 entries needed: use ranks for the pair ranks
     * and a local array for the boundaries) */
    uint32_t stack_part[65], stack_prank[64];
    uint32_t *part = len < 64 ? stack_part : malloc((len + 1) * sizeof *part);
    uint32_t *prank = len < 64 ? stack_prank : malloc(len * sizeof *prank);
    if (!part || !prank) {
        if (len >= 64) {
            free(part);
            free(prank);
        }
        return 0;
    }
    size_t m = len; /* current tokens */
    for (size_t k = 0; k <= len; k++)
        part[k] = (uint32_t)k;
    for (size_t k = 0; k < m; k++)
        prank[k] = pair_rank(b, s, part, m, k);
    for (;;) {
        size_t best = SIZE_MAX;
        uint32_t min = UINT32_MAX;
        for (size_t k = 0; k + 1 < m; k++)
            if (prank[k] < min)
                min = prank[k], best = k;
        if (best == SIZE_MAX)
            break;
        /* join tokens best and best+1: drop boundary best+1 */
        memmove(part + best + 1, part + best + 2, (m - best - 1) * sizeof *part);
        memmove(prank + best + 1, prank + best + 2, (m - best - 2) * sizeof *prank);
        m--;
        prank[best] = pair_rank(b, s, part, m, best);
        if (best > 0)
            prank[best - 1] = pair_rank(b, s, part, m, best - 1);
    }
    for (size_t k = 0; k < m; k++) {
        int64_t r = bpe_rank(b, s + part[k], part[k + 1] - part[k]);
        ranks[k] = r < 0 ? 0 : (uint32_t)r; /* every single byte has a rank */
        lens[k] = part[k + 1] - part[k];
    }
    if (len >= 64) {
        free(part);
        free(prank);
    }
    return m;
}

/* The same merges for a long piece in O(len log len): a heap of candidate pairs keyed by (rank,
 * start of the left token), which is the scan's order (the lowest rank, the leftmost of equal
 * ones). The tokens form a linked list; a heap entry is stale once its left token is gone or
 * has a different right neighbour, and is then skipped. A run of 65,536 '!' took 5 s with the
 * scan (each merge scans and shifts the whole piece); it takes milliseconds here. */
typedef struct {
    uint32_t rank, start, end; /* the pair's rank, its left token's start, its right token's end */
} merge_cand;

static bool cand_less(const merge_cand *a, const merge_cand *b)
{
    return a->rank < b->rank || (a->rank == b->rank && a->start < b->start);
}

static void heap_push(merge_cand *h, size_t *n, merge_cand c)
{
    size_t i = (*n)++;
    while (i > 0 && cand_less(&c, &h[(i - 1) / 2])) {
        h[i] = h[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h[i] = c;
}

static merge_cand heap_pop(merge_cand *h, size_t *n)
{
    merge_cand top = h[0], last = h[--*n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= *n)
            break;
        if (c + 1 < *n && cand_less(&h[c + 1], &h[c]))
            c++;
        if (!cand_less(&h[c], &last))
            break;
        h[i] = h[c];
        i = c;
    }
    if (*n)
        h[i] = last;
    return top;
}

static size_t merge_heap(const tf_bpe *b, const unsigned char *s, size_t len, uint32_t *ranks,
                         uint32_t *lens)
{
    /* next[i]: the start of the token after the one starting at i (len at the end); prev[i]
     * the one before; alive[i]: a token starts at i */
    uint32_t *next = malloc((len + 1) * sizeof *next), *prev = malloc(len * sizeof *prev);
    unsigned char *alive = malloc(len);
    /* each merge pushes at most two entries: len - 1 at the start, 2 (len - 1) after */
    merge_cand *heap = malloc(3 * len * sizeof *heap);
    size_t out = 0, n = 0;
    if (!next || !prev || !alive || !heap)
        goto done;
    for (size_t i = 0; i < len; i++) {
        next[i] = (uint32_t)i + 1;
        prev[i] = (uint32_t)i - 1;
        alive[i] = 1;
    }
    for (size_t i = 0; i + 1 < len; i++) {
        int64_t r = bpe_rank(b, s + i, 2);
        if (r >= 0)
            heap_push(heap, &n, (merge_cand){(uint32_t)r, (uint32_t)i, (uint32_t)i + 2});
    }
    while (n > 0) {
        merge_cand c = heap_pop(heap, &n);
        uint32_t l = c.start, r = next[l];
        if (!alive[l] || r >= len || next[r] != c.end)
            continue; /* stale: the left token is gone or its neighbour changed */
        /* join l and r */
        alive[r] = 0;
        next[l] = c.end;
        if (c.end < len)
            prev[c.end] = l;
        if (l > 0) { /* the pair (token before l, l) */
            uint32_t p = prev[l];
            int64_t pr = bpe_rank(b, s + p, c.end - p);
            if (pr >= 0)
                heap_push(heap, &n, (merge_cand){(uint32_t)pr, p, c.end});
        }
        if (c.end < len) { /* the pair (l, token after) */
            uint32_t e2 = next[c.end];
            int64_t nr = bpe_rank(b, s + l, e2 - l);
            if (nr >= 0)
                heap_push(heap, &n, (merge_cand){(uint32_t)nr, l, e2});
        }
    }
    for (uint32_t i = 0; i < len; i = next[i]) {
        int64_t r = bpe_rank(b, s + i, next[i] - i);
        ranks[out] = r < 0 ? 0 : (uint32_t)r; /* every single byte has a rank */
        lens[out++] = next[i] - i;
    }
done:
    free(next), free(prev), free(alive), free(heap);
    return out;
}

size_t bpe_merge(const tf_bpe *b, const unsigned char *s, size_t len, uint32_t *ranks,
                 uint32_t *lens)
{
    if (len == 0)
        return 0;
    int64_t whole = bpe_rank(b, s, len);
    if (whole >= 0) {
        ranks[0] = (uint32_t)whole;
        lens[0] = (uint32_t)len;
        return 1;
    }
    return len < 256 ? merge_scan(b, s, len, ranks, lens) : merge_heap(b, s, len, ranks, lens);
}

/* ---------------------------------------------------------------------------------------------
 * Pre-tokenisation and the whole encoder */

tf_status bpe_encode(const tf_bpe *b, const char *text, size_t len, bpe_emit_fn fn, void *ctx)
{
#if !TF_HAVE_PCRE2
    (void)b, (void)text, (void)len, (void)fn, (void)ctx;
    return TF_ERR_UNAVAILABLE;
#else
    pcre2_match_data *md = pcre2_match_data_create_from_pattern(b->re, NULL);
    uint32_t *ranks = NULL, *lens = NULL;
    size_t cap = 0;
    tf_status st = TF_OK;
    if (!md)
        return TF_ERR_NOMEM;
    size_t at = 0, piece = 0;
    while (at < len && st == TF_OK) {
        int rc = pcre2_match(b->re, (PCRE2_SPTR)text, len, at, PCRE2_NO_UTF_CHECK, md, NULL);
        if (rc < 0)
            break; /* no more pieces (text the pattern skips is skipped, as in tiktoken) */
        PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
        size_t s = ov[0], e = ov[1];
        if (e <= s) { /* an empty match cannot happen with these patterns; step past it */
            at = s + 1;
            while (at < len && ((unsigned char)text[at] & 0xC0) == 0x80)
                at++;
            continue;
        }
        if (e - s > cap) {
            size_t nc = (e - s) * 2;
            uint32_t *nr = realloc(ranks, nc * sizeof *nr), *nl;
            if (nr)
                ranks = nr;
            nl = nr ? realloc(lens, nc * sizeof *nl) : NULL;
            if (!nr || !nl) {
                st = TF_ERR_NOMEM;
                break;
            }
            lens = nl;
            cap = nc;
        }
        size_t k = bpe_merge(b, (const unsigned char *)text + s, e - s, ranks, lens);
        if (k == 0) {
            st = TF_ERR_NOMEM;
            break;
        }
        size_t pos = s;
        for (size_t i = 0; i < k && st == TF_OK; i++) {
            /* NOLINTNEXTLINE(clang-analyzer-core.NullDereference): e > s = 0 < cap allocated */
            st = fn(ctx, ranks[i], pos, pos + lens[i], piece);
            pos += lens[i];
        }
        piece++;
        at = e;
    }
    free(ranks);
    free(lens);
    pcre2_match_data_free(md);
    return st;
#endif
}
