/* hmm.c — the mapped HMM tables and jieba's Viterbi over them (hmm.h). */
#include "hmm.h"

#include <stdlib.h>
#include <string.h>

#include "asset.h"

#define HEADER_BYTES 16
#define TABLE_BYTES  (8 * (HMM_STATES + HMM_STATES * HMM_STATES))
#define MIN_FLOAT    (-3.14e100) /* jieba's log-probability of what its tables lack */

struct tf_hmm {
    tf_asset file;
    double start[HMM_STATES];             /* log P(first label) */
    double trans[HMM_STATES][HMM_STATES]; /* log P(to | from), [from][to] */
    uint32_t n;                           /* characters with emissions */
    const unsigned char *chars;           /* (n) u32 code points, ascending */
    const unsigned char *emit;            /* (n, 4) f64 log P(character | label) */
};

static double f64_at(const unsigned char *p)
{
    uint64_t bits = asset_u64(p);
    double x;
    memcpy(&x, &bits, sizeof x);
    return x;
}

tf_status hmm_open(const char *dir, tf_hmm **out)
{
    *out = NULL;
    tf_hmm *h = calloc(1, sizeof *h);
    if (!h)
        return TF_ERR_NOMEM;
    tf_status st = asset_map(dir, HMM_ASSET, &h->file);
    if (st != TF_OK) {
        free(h);
        return st;
    }
    const unsigned char *p = h->file.data;
    if (h->file.size < HEADER_BYTES + TABLE_BYTES || memcmp(p, "TFHMM001", 8) != 0)
        goto fail;
    h->n = asset_u32(p + 8);
    if (h->file.size != HEADER_BYTES + TABLE_BYTES + 36ull * h->n)
        goto fail;
    for (int y = 0; y < HMM_STATES; y++)
        h->start[y] = f64_at(p + HEADER_BYTES + 8 * y);
    for (int x = 0; x < HMM_STATES; x++)
        for (int y = 0; y < HMM_STATES; y++)
            h->trans[x][y] = f64_at(p + HEADER_BYTES + 8 * (HMM_STATES + HMM_STATES * x + y));
    h->chars = p + HEADER_BYTES + TABLE_BYTES;
    h->emit = h->chars + 4ull * h->n;
    *out = h;
    return TF_OK;
fail:
    asset_unmap(&h->file);
    free(h);
    return TF_ERR_FORMAT;
}

void hmm_free(tf_hmm *h)
{
    if (!h)
        return;
    asset_unmap(&h->file);
    free(h);
}

/* The four emission log-probabilities of code point c (MIN_FLOAT where the tables have none). */
static void emissions(const tf_hmm *h, uint32_t c, double e[HMM_STATES])
{
    uint32_t lo = 0, hi = h->n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (asset_u32(h->chars + 4ull * mid) < c)
            lo = mid + 1;
        else
            hi = mid;
    }
    int found = lo < h->n && asset_u32(h->chars + 4ull * lo) == c;
    for (int y = 0; y < HMM_STATES; y++)
        e[y] = found ? f64_at(h->emit + 32ull * lo + 8 * y) : MIN_FLOAT;
}

/* finalseg's PrevStatus: the two states that may precede each, in its order. */
static const unsigned char prev_state[HMM_STATES][2] = {
    [HMM_B] = {HMM_E, HMM_S},
    [HMM_M] = {HMM_M, HMM_B},
    [HMM_E] = {HMM_B, HMM_M},
    [HMM_S] = {HMM_S, HMM_E},
};

/* Python compares the states by their letters: B < E < M < S. */
static const char letter[HMM_STATES] = {'B', 'M', 'E', 'S'};

/* (a, x) > (b, y) as Python orders (value, letter) pairs. */
static int pair_greater(double a, int x, double b, int y)
{
    return a > b || (a == b && letter[x] > letter[y]);
}

void hmm_viterbi(const tf_hmm *h, const uint32_t *cp, size_t n, unsigned char *label,
                 unsigned char *work)
{
    if (n == 0)
        return;
    unsigned char(*back)[HMM_STATES] = (unsigned char(*)[HMM_STATES])work; /* (n, 4) */
    double v[HMM_STATES], nv[HMM_STATES], e[HMM_STATES];

    /* 1. the first character */
    emissions(h, cp[0], e);
    for (int y = 0; y < HMM_STATES; y++)
        v[y] = h->start[y] + e[y];

    /* 2. each next character: the better of the two predecessors, in jieba's sum order */
    for (size_t t = 1; t < n; t++) {
        emissions(h, cp[t], e);
        for (int y = 0; y < HMM_STATES; y++) {
            int x0 = prev_state[y][0], x1 = prev_state[y][1];
            double a = v[x0] + h->trans[x0][y] + e[y], b = v[x1] + h->trans[x1][y] + e[y];
            int take1 = pair_greater(b, x1, a, x0);
            nv[y] = take1 ? b : a;
            back[t][y] = (unsigned char)(take1 ? x1 : x0);
        }
        memcpy(v, nv, sizeof v);
    }

    /* 3. the path ends in E or S; walk the back-pointers */
    int y = pair_greater(v[HMM_E], HMM_E, v[HMM_S], HMM_S) ? HMM_E : HMM_S;
    for (size_t t = n; t-- > 0;) {
        label[t] = (unsigned char)y;
        if (t > 0)
            y = back[t][y];
    }
}
