/* alibi.h — Attention with Linear Biases (Press, Smith and Lewis, "Train Short, Test Long",
 * ICLR 2022, arXiv 2108.12409).
 *
 * Nothing is added to the input and q, k are not rotated: head h adds a penalty proportional to
 * the distance to its score of query i against key j,
 *   causal (the paper's):   bias(i, j) = -m_h (i - j)   for keys j <= i; later keys are masked
 *   symmetric:              bias(i, j) = -m_h |i - j|   for every key
 * The symmetric form cannot tell left from right: a sentence and its mirror image get mirrored
 * attention. In the causal form the mask itself carries the order.
 *
 * Slopes, as the paper's reference code (get_slopes): for H a power of two
 *   m_h = s^h, h = 1 .. H, s = 2^(-2^-(log2 H - 3)) = 2^(-8/H)
 * (H = 8: 1/2, 1/4, ..., 1/256); otherwise the slopes of the largest power of two P below H,
 * then every other slope of 2P, the first H - P of them. */
#ifndef TF_ALIBI_H
#define TF_ALIBI_H

#include <stdbool.h>

/* m_1 .. m_H into m (heads >= 1). */
void alibi_slopes(int heads, double *m /* (heads) */);

/* Whether key j is visible to query i: always when symmetric, j <= i when causal. */
static inline bool alibi_visible(long i, long j, bool symmetric)
{
    return symmetric || j <= i;
}

/* The bias of a visible key: -m (i - j) causal, -m |i - j| symmetric. */
static inline double alibi_bias(double m, long i, long j, bool symmetric)
{
    long dist = i - j;
    if (symmetric && dist < 0)
        dist = -dist;
    return -m * (double)dist;
}

#endif
