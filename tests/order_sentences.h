/* order_sentences.h — random sentences for the order experiment, and its claims, shared by the
 * sweep (order_sweep.c) and the unit tests (test_attention.c).
 *
 * A sentence is T token ids drawn from [4, vocab); sentence n of a run repeats its first token
 * at the end when n % 4 == 3 (and T >= 3), so repeated tokens are covered; b is a reversed when
 * n is odd, otherwise a random order, and never the same token sequence as a. */
#ifndef TF_ORDER_SENTENCES_H
#define TF_ORDER_SENTENCES_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "attention.h"
#include "embedding.h"
#include "rng.h"

static inline bool order_same_sequence(const int32_t *ids, const size_t *perm, size_t T)
{
    for (size_t t = 0; t < T; t++)
        if (ids[perm[t]] != ids[t])
            return false;
    return true;
}

/* Sentence n: ids (T) and perm (T), b[t] = a[perm[t]]; *z is the generator's state. T >= 2. */
static inline void order_sentence_draw(uint64_t *z, int n, size_t T, uint32_t vocab,
                                       int32_t *ids, size_t *perm)
{
    do { /* at least two different tokens */
        for (size_t t = 0; t < T; t++) {
            *z = rng_mix(*z + 1);
            ids[t] = (int32_t)(4 + *z % (vocab - 4));
        }
        if (n % 4 == 3 && T >= 3)
            ids[T - 1] = ids[0];
    } while (T == 2 && ids[0] == ids[1]);
    for (size_t t = 0; t < T; t++)
        perm[t] = n % 2 ? T - 1 - t : t;
    if (n % 2 == 1 && !order_same_sequence(ids, perm, T))
        return;
    do { /* Fisher-Yates until b differs from a */
        for (size_t t = T - 1; t > 0; t--) {
            *z = rng_mix(*z + 1);
            size_t j = (size_t)(*z % (t + 1)), tmp = perm[t];
            perm[t] = perm[j], perm[j] = tmp;
        }
    } while (order_same_sequence(ids, perm, T));
}

/* emb (T, d) = the rows of W_E (e) of the sentence's ids, widened to double; row (d) is
 * scratch. */
static inline void order_sentence_rows(const tf_embedding *e, const int32_t *ids, size_t T, int d,
                                       float *row, double *emb)
{
    for (size_t t = 0; t < T; t++) {
        embedding_row(e, ids[t], row);
        for (int j = 0; j < d; j++)
            emb[t * (size_t)d + (size_t)j] = row[j];
    }
}

/* Whether the experiment's claims hold for one sentence's three results; *why (if not NULL)
 * names the first that does not:
 *   without positions  max_token_diff < 1e-9, A_b = A_a permuted (1e-9)
 *   with PE, RoPE      relative_diff >= 0.05, and B's weights differ from A's permuted by
 *                      >= 0.02 somewhere (what the heatmaps show)
 *   every mode         every row of A_a has max - min >= 0.02 (T <= 8) */
static inline bool order_claims_hold(const tf_order_result r[ATTN_MODE_COUNT],
                                     const size_t *perm, size_t T, const char **why)
{
    const char *w = NULL;
    const tf_order_result *n = &r[ATTN_NO_PE];
    if (!(n->max_token_diff < 1e-9))
        w = "no-PE outputs differ";
    for (size_t t = 0; t < T && !w; t++)
        for (size_t u = 0; u < T && !w; u++)
            if (!(fabs(n->A_b[t * T + u] - n->A_a[perm[t] * T + perm[u]]) <= 1e-9))
                w = "no-PE A_b is not A_a permuted";
    if (!w && !(r[ATTN_WITH_PE].relative_diff >= 0.05))
        w = "PE relative_diff < 0.05";
    if (!w && !(r[ATTN_WITH_ROPE].relative_diff >= 0.05))
        w = "RoPE relative_diff < 0.05";
    for (int m = ATTN_WITH_PE; m < ATTN_MODE_COUNT && !w; m++) /* B's weights not A's permuted */
        if (!(r[m].weight_diff >= 0.02))
            w = m == ATTN_WITH_PE ? "PE weights within 0.02 of A's permuted"
                                  : "RoPE weights within 0.02 of A's permuted";
    for (int m = 0; m < ATTN_MODE_COUNT && T <= 8 && !w; m++)
        if (!(r[m].min_row_range >= 0.02))
            w = "a row of A_a with max - min < 0.02";
    if (why)
        *why = w ? w : "";
    return !w;
}

#endif
