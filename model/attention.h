/* attention.h — single-head self-attention with seeded weights, and the order experiment (C6).
 *
 * The head, as a pre-LN Transformer layer computes it (GPT-2's LayerNorm before attention):
 *
 *   x_t = s e_t (+ PE(pos_t) in ATTN_WITH_PE)          s = sqrt(d): word vectors on PE's scale
 *   h_t = LayerNorm(x_t) = (x_t - mean(x_t)) / sqrt(var(x_t) + eps)      (gain 1, bias 0)
 *   q_t = h_t W_Q,  k_t = h_t W_K,  v_t = h_t W_V    (ATTN_WITH_ROPE: q_t, k_t rotated by pos_t)
 *   A = softmax(Q K^T / sqrt(d)),  Z = A V
 *
 * W_Q, W_K, W_V are (d, d), uniform in [-sqrt(3/d), sqrt(3/d)) (variance 1/d, Glorot's for a
 * square matrix), produced row by row from the counter-based generator (never stored): random,
 * untrained weights. Rows of W_E have entries of variance 1/d (length about 1); s = sqrt(d) gives
 * them unit variance, the scale of PE's entries (|PE(pos)| = sqrt(d/2)), so in the sum neither
 * the word nor the position swamps the other. The normalised rows have length sqrt(d), so the
 * scores have a spread of about 1 for every d: softmax neither returns 1/T everywhere nor one-hot.
 *
 * Without positions, permuting the rows of X permutes the rows of Z the same way: attention sees
 * a set, not a sequence. */
#ifndef TF_ATTENTION_H
#define TF_ATTENTION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rope.h"
#include "status.h"

typedef enum { ATTN_NO_PE = 0, ATTN_WITH_PE = 1, ATTN_WITH_ROPE = 2, ATTN_MODE_COUNT } attn_mode;

const char *attention_mode_name(attn_mode m); /* "without_pe", "with_pe", "with_rope" */

/* What the head does to each input row before the projections. */
typedef enum { ATTN_NORM_NONE = 0, ATTN_NORM_LAYER = 1, ATTN_NORM_COUNT } attn_norm;

const char *attention_norm_name(attn_norm n); /* "none", "layernorm" */

#define ATTN_NORM_EPS 1e-5 /* LayerNorm's epsilon, as GPT-2 */

typedef struct {
    uint64_t seed;
    int d;            /* d_model = head dimension (one head) */
    double base;      /* frequency base for PE and RoPE */
    rope_style style; /* pairing used in ATTN_WITH_ROPE */
    long pos0;        /* position of the first token (the index base) */
    attn_norm norm;   /* applied to every input row before the projections */
    double emb_scale; /* attention_order: s, the word vectors' factor before PE is added */
} tf_attn_cfg;

/* The head of the order experiment for d_model d: LayerNorm, s = sqrt(d). */
tf_attn_cfg attention_head_cfg(uint64_t seed, int d, double base, rope_style style, long pos0);

/* out (T, d) = x (T, d) . W where W is the seeded (d, d) matrix of `stream`. */
void attention_project(const tf_attn_cfg *c, uint32_t stream, const double *x, size_t T,
                       double *out);

/* out (T, d) = each row of x normalised as c->norm says (out may equal x). */
void attention_normalize(const tf_attn_cfg *c, const double *x, size_t T, double *out);

/* One forward pass. x (T, d) is the input matrix as given (the caller adds PE for ATTN_WITH_PE);
 * it is normalised (c->norm), then projected; with rope != 0, q and k of token t are rotated by
 * position pos0 + t before the scores. A (T, T) receives the attention weights, Z (T, d) the
 * outputs; either may be NULL. */
tf_status attention_forward(const tf_attn_cfg *c, const double *x, size_t T, int rope, double *A,
                            double *Z);

/* The order experiment for one mode: sentence a has embedding rows emb (T, d), unscaled (the
 * head multiplies them by c->emb_scale); sentence b has the same tokens in another order,
 * b[t] = a[perm[t]]. */
typedef struct {
    double *A_a, *A_b;     /* (T, T) attention weights of a and of b */
    double *Z_a, *Z_b;     /* (T, d) outputs */
    double *token_diff;    /* (T) per token of b: max_j |Z_b[t][j] - Z_a[perm[t]][j]| */
    double max_token_diff; /* max over tokens */
    double pooled_diff;    /* max_j |mean_t Z_a[t][j] - mean_t Z_b[t][j]| */
    double max_abs_output; /* max |Z_a| */
    double relative_diff;  /* max_token_diff / max_abs_output: the size of the change */
    double min_row_range;  /* min over rows t of A_a of (max_u A_a[t][u] - min_u A_a[t][u]) */
    double score_std;      /* standard deviation of the scaled scores Q K^T / sqrt(d) of a */
} tf_order_result;

tf_status attention_order(const tf_attn_cfg *c, attn_mode mode, const double *emb /* (T, d) */,
                          const size_t *perm /* (T) */, size_t T, tf_order_result *out);
/* All three modes at once, the same numbers as attention_order for each: the inputs without
 * positions serve both ATTN_NO_PE and ATTN_WITH_ROPE, and W_Q, W_K, W_V are generated once. */
tf_status attention_order_all(const tf_attn_cfg *c, const double *emb /* (T, d) */,
                              const size_t *perm /* (T) */, size_t T,
                              tf_order_result out[ATTN_MODE_COUNT]);
void attention_order_free(tf_order_result *r);

/* Differences this small relative to max|Z| are rounding (float64 sums taken in another
 * order), not a change of the outputs: reported as 0, never drawn as a bar. */
#define ATTN_ROUNDING_REL 1e-9

/* True when the mode's outputs are the same in both orders up to rounding. */
bool attention_order_is_zero(const tf_order_result *r);

#endif
