/* alibi.h — Attention with Linear Biases (ALiBi).
 *
 * Press, Smith and Lewis, "Train Short, Test Long: Attention with Linear Biases Enables Input
 * Length Extrapolation", ICLR 2022 (arXiv 2108.12409); used by BLOOM and MPT. Nothing is added
 * to the input and q, k are not rotated: head h adds a fixed penalty, proportional to the
 * distance, to every score before the softmax:
 *     score_h(i, j) = q_i . k_j / sqrt(d) + bias_h(i, j)
 *     causal (a decoder; the paper):  bias_h(i, j) = -m_h (i - j)   for j <= i, -inf for j > i
 *     symmetric (an encoder):          bias_h(i, j) = -m_h |i - j|
 * The slopes m_h are a geometric sequence fixed before training. For H heads, H a power of two,
 *     m_h = 2^(-8h/H),  h = 1 .. H          (H = 8: 1/2, 1/4, ..., 1/256)
 * For other H the reference code (get_slopes in fairseq/models/transformer.py of
 * github.com/ofirpress/attention_with_linear_biases; BLOOM's build_alibi_tensor gives the same)
 * takes the 2^floor(log2 H) slopes of the closest power of two below H, then every other slope
 * (the 1st, 3rd, 5th, ...) of twice that power, as many as are missing:
 *     H = 12:  2^-1, 2^-2, ..., 2^-8,  then 2^-0.5, 2^-1.5, 2^-2.5, 2^-3.5
 * The reference code adds m_h * j (the key's position) to row i instead of -m_h (i - j): the
 * two differ by m_h * i, a constant along the row, which the softmax cannot see.
 * Past the training length the penalty simply keeps growing, so far tokens fade out as they
 * did in training — the reason ALiBi extrapolates. */
#ifndef TF_ALIBI_H
#define TF_ALIBI_H

#include "scheme.h"
#include "status.h"

/* The slopes of heads 0 .. heads-1 (m_1 .. m_H above), computed as the reference code does, so
 * they are the same doubles. heads in [1, TF_MAX_HEADS], else TF_ERR_RANGE. */
tf_status alibi_slopes(int heads, double *m /* (heads) */);

/* The bias of one head for distance k = i - j (the key k positions before the query; k < 0:
 * after it, -INFINITY under the causal mask). */
double alibi_bias_at(double m, long k, scheme_mask mask);

/* out[h][i][j] = the bias of head h, query i, key j, for n positions (-INFINITY where the
 * causal mask hides the key). n in [1, TF_MAX_DOT_POSITIONS] (TF_ERR_POSITIONS),
 * heads * n * n at most TF_MAX_BIAS_VALUES (TF_ERR_TOO_BIG). */
tf_status alibi_bias(const double *m /* (heads) */, int heads, long n, scheme_mask mask,
                     double *out /* (heads, n, n) */);

#endif
