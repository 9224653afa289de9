/* attention.h — single-head self-attention with seeded weights, and the order experiment (C6).
 *
 *   Q = X W_Q,  K = X W_K,  V = X W_V,  A = softmax(Q K^T / sqrt(d)),  Z = A V
 *
 * W_Q, W_K, W_V are (d, d), uniform in [-sqrt(3/d), sqrt(3/d)), produced row by row from the
 * counter-based generator (never stored). Without positions, permuting the rows of X permutes
 * the rows of Z the same way: attention sees a set, not a sequence. */
#ifndef TF_ATTENTION_H
#define TF_ATTENTION_H

#include <stddef.h>
#include <stdint.h>

#include "rope.h"
#include "status.h"

typedef enum { ATTN_NO_PE = 0, ATTN_WITH_PE = 1, ATTN_WITH_ROPE = 2, ATTN_MODE_COUNT } attn_mode;

const char *attention_mode_name(attn_mode m); /* "without_pe", "with_pe", "with_rope" */

typedef struct {
    uint64_t seed;
    int d;            /* d_model = head dimension (one head) */
    double base;      /* frequency base for PE and RoPE */
    rope_style style; /* pairing used in ATTN_WITH_ROPE */
    long pos0;        /* position of the first token (the index base) */
} tf_attn_cfg;

/* out (T, d) = x (T, d) . W where W is the seeded (d, d) matrix of `stream`. TF_ERR_NOMEM, with
 * out untouched, when the row of W it generates at a time cannot be allocated. */
tf_status attention_project(const tf_attn_cfg *c, uint32_t stream, const double *x, size_t T,
                            double *out);

/* One forward pass. x (T, d) is the input matrix as given (the caller adds PE for ATTN_WITH_PE);
 * with rope != 0, q and k of token t are rotated by position pos0 + t before the scores.
 * A (T, T) receives the attention weights, Z (T, d) the outputs; either may be NULL. */
tf_status attention_forward(const tf_attn_cfg *c, const double *x, size_t T, int rope, double *A,
                            double *Z);

/* The order experiment for one mode: sentence a has embedding rows emb (T, d); sentence b has
 * the same tokens in another order, b[t] = a[perm[t]]. */
typedef struct {
    double *A_a, *A_b;      /* (T, T) attention weights of a and of b */
    double *Z_a, *Z_b;      /* (T, d) outputs */
    double *token_diff;     /* (T) per token of b: max_j |Z_b[t][j] - Z_a[perm[t]][j]| */
    double max_token_diff;  /* max over tokens */
    double pooled_diff;     /* max_j |mean_t Z_a[t][j] - mean_t Z_b[t][j]| */
} tf_order_result;

tf_status attention_order(const tf_attn_cfg *c, attn_mode mode, const double *emb /* (T, d) */,
                          const size_t *perm /* (T) */, size_t T, tf_order_result *out);
void attention_order_free(tf_order_result *r);

#endif
