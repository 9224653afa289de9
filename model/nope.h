/* nope.h — NoPE, no position encoding: the baseline every scheme is measured against.
 *
 * Nothing is added to the input, q and k are not rotated and the scores get no bias:
 *     score(i, j) = q_i . k_j / sqrt(d)          bias(i, j) = 0
 * Without a mask attention is then a function of the set of tokens, not of their order
 * (claim C6: 我爱学习 and 学习爱我 give every token the same output). With a causal mask the
 * order leaks in all the same, because query i sees exactly i + 1 keys: Haviv et al.,
 * "Transformer Language Models without Positional Encodings Still Learn Positional
 * Information", Findings of EMNLP 2022 (arXiv 2203.16634); Kazemnejad et al., "The Impact of
 * Positional Encoding on Length Generalization in Transformers", NeurIPS 2023
 * (arXiv 2305.19466), find such decoders extrapolate no worse than with PE. */
#ifndef TF_NOPE_H
#define TF_NOPE_H

#include "scheme.h"
#include "status.h"

/* The bias for distance k = i - j: 0, or -INFINITY for a key after the query (k < 0) under the
 * causal mask. */
double nope_bias_at(long k, scheme_mask mask);

/* out[i][j] = nope_bias_at(i - j, mask) for n positions, n in [1, TF_MAX_DOT_POSITIONS]. */
tf_status nope_bias(long n, scheme_mask mask, double *out /* (n, n) */);

#endif
