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
 * a set, not a sequence. The same head serves every position scheme (below). */
#ifndef TF_ATTENTION_H
#define TF_ATTENTION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "learned_pe.h"
#include "rope.h"
#include "scheme.h"
#include "status.h"
#include "t5bias.h"

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
    attn_norm norm;   /* applied to every input row before the projections (0: none) */
    double emb_scale; /* the order experiment's s: the word vectors' factor before positions
                         are added (0 or 1: as they are) */
    int head;         /* which of the layer's seeded heads (0 .. ATTN_HEADS - 1): its W_Q, W_K,
                         W_V; 0 is the head every other view uses */
} tf_attn_cfg;

/* The head of the order experiment for d_model d: LayerNorm, s = sqrt(d), head 0. */
tf_attn_cfg attention_head_cfg(uint64_t seed, int d, double base, rope_style style, long pos0);

/* out (T, d) = x (T, d) . W where W is the seeded (d, d) matrix of `stream` for head c->head
 * (row i of head h is keyed by row number h * 2^32 + i, so head 0 is the matrix every view
 * shares). TF_ERR_NOMEM, with out untouched, when the row of W it generates at a time cannot be
 * allocated. */
tf_status attention_project(const tf_attn_cfg *c, uint32_t stream, const double *x, size_t T,
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
    double *A_b_aligned;   /* (T, T) B's weights with rows and columns put back into A's token
                              order: A_b_aligned[perm t][perm u] = A_b[t][u] */
    double *diff_map;      /* (T, T) |A_a - A_b_aligned|, in A's token order */
    double weight_diff;    /* max of diff_map: how far B's weights are from A's permuted (0 up
                              to rounding without positions) */
    double score_std;      /* sqrt(mean over the rows of a of the variance of the row's
                              scores), the scores as softmax sees them (scaled, plus any
                              bias; masked keys left out) */
} tf_order_result;

tf_status attention_order(const tf_attn_cfg *c, attn_mode mode, const double *emb /* (T, d) */,
                          const size_t *perm /* (T) */, size_t T, tf_order_result *out);
/* All three modes at once, the same numbers as attention_order for each: the inputs without
 * positions serve both ATTN_NO_PE and ATTN_WITH_ROPE, and W_Q, W_K, W_V are generated once. */
tf_status attention_order_all(const tf_attn_cfg *c, const double *emb /* (T, d) */,
                              const size_t *perm /* (T) */, size_t T,
                              tf_order_result out[ATTN_MODE_COUNT]);
void attention_order_free(tf_order_result *r);

/* where (T) = for each token of a, its index in b: where[perm[t]] = t (perm as above, b[t] =
 * a[perm[t]]). The one inversion of the order permutation, used to draw and print B in A's
 * order. */
void attention_order_where(const size_t *perm, size_t T, size_t *where);

/* ---------------------------------------------------------------------------------------------
 * Which head the order experiment reports.
 *
 * One random head promises nothing for one given sentence: with two or three tokens it leaves,
 * in about one draw in five, a row of weights near uniform or the RoPE change under 5 %. So the
 * experiment runs a layer of ATTN_HEADS seeded heads (head h: attention_project's matrices of
 * c->head = h) and reports one of them, chosen by one rule applied to the three modes together:
 *
 *   visibility(h) = min( relative_diff(+PE) / ATTN_VISIBLE_CHANGE,
 *                        relative_diff(RoPE) / ATTN_VISIBLE_CHANGE,
 *                        weight_diff(+PE) / ATTN_VISIBLE_WEIGHT,
 *                        weight_diff(RoPE) / ATTN_VISIBLE_WEIGHT,
 *                        min over the three modes of min_row_range / ATTN_VISIBLE_ROW_RANGE
 *                          (only when T <= ATTN_VISIBLE_ROWS_T) )
 *   reported head = the first h = 0, 1, ... with visibility(h) >= 1; when none of the
 *                   ATTN_HEADS has it, the h with the largest visibility (the first of equals).
 *
 * The same head serves every mode, so the comparison stays fair; without positions every head
 * gives B's outputs equal to A's (a theorem, not a choice), so the rule cannot make the
 * order-blind mode look order-aware. Heads are tried in order and only until one qualifies
 * (usually head 0: heads 1.. cost time only for the short sentences that need them). When no
 * head could qualify — fewer than two tokens, every row the same after LayerNorm, or B the same
 * rows as A in the same order — head 0 is reported without trying others. */
#define ATTN_HEADS 16
#define ATTN_VISIBLE_CHANGE 0.05    /* relative_diff that counts as visible */
#define ATTN_VISIBLE_WEIGHT 0.02    /* weight_diff that counts as visibly different weights */
#define ATTN_VISIBLE_ROW_RANGE 0.02 /* max - min of a row of weights that counts as non-uniform */
#define ATTN_VISIBLE_ROWS_T 8       /* ... checked for sentences up to this many tokens */

/* visibility(h) above, of one head's three results (r[ATTN_NO_PE .. ATTN_WITH_ROPE]). */
double attention_order_visibility(const tf_order_result r[ATTN_MODE_COUNT], size_t T);

typedef struct {
    int head;          /* the head reported (its out[] is returned) */
    int tried;         /* heads computed: head + 1, or ATTN_HEADS when none qualified */
    double visibility; /* visibility(head) */
    bool possible;     /* false: no head could qualify (see above), head 0 without a search */
} attn_head_choice;

/* attention_order_all for the head the rule above picks (c->head is ignored). */
tf_status attention_order_choose(const tf_attn_cfg *c, const double *emb /* (T, d) */,
                                 const size_t *perm /* (T) */, size_t T,
                                 tf_order_result out[ATTN_MODE_COUNT], attn_head_choice *choice);

/* Differences this small relative to max|Z| are rounding (float64 sums taken in another
 * order), not a change of the outputs: reported as 0, never drawn as a bar. */
#define ATTN_ROUNDING_REL 1e-9
/* A difference of attention weights (each in [0, 1]) below this is rounding: max|A - B in A's
 * order| without positions is 0 up to it. */
#define ATTN_WEIGHT_ROUNDING 1e-12

/* True when the mode's outputs are the same in both orders up to rounding. */
bool attention_order_is_zero(const tf_order_result *r);

/* ---------------------------------------------------------------------------------------------
 * Any position scheme (scheme.h) through the same head: the order experiment for every scheme.
 * emb is s emb (c->emb_scale), and every x is normalised as c->norm says before the
 * projections (attention_head_cfg: LayerNorm, s = sqrt(d)); then
 *
 *   none        x = emb                                   score = q . k / sqrt(d)
 *   sinusoidal  x = emb + PE(pos)                         score = q . k / sqrt(d)
 *   learned     x = emb + c P[pos] (the table's row)      score = q . k / sqrt(d)
 *   rope        x = emb, q and k rotated by pos theta'_i  score = a^2 (R q) . (R k) / sqrt(d)
 *   alibi       x = emb                                   score = q . k / sqrt(d) - m |i - j|
 *   t5          x = emb                                   score = q . k / sqrt(d) + b[bucket(j-i)]
 * and under the causal mask every key after the query gets score -inf (weight 0). Positions
 * are c->pos0 + t. W_Q, W_K, W_V are the same seeded matrices for every scheme, so the schemes
 * differ in nothing but how positions enter. */
typedef struct {
    tf_scheme scheme;
    scheme_mask mask;              /* SCHEME_MASK_SYMMETRIC: every key is seen (the article's
                                      experiment); CAUSAL: a decoder's head */
    const tf_learned_pe *table;    /* learned: the table (rows pos0 .. pos0 + T - 1) ... */
    double table_scale;            /* ... added times this (0: 1; positions.h puts it on PE's
                                      scale) */
    const double *rope_inv_freq;   /* rope: (d/2) theta'_i (rope_scaling_inv_freq); NULL:
                                      base^(-2i/d) */
    double rope_attention_factor;  /* rope: a (YaRN's); the scores are scaled by a^2 */
    double alibi_slope;            /* alibi: m of this head (alibi_slopes) */
    const t5_bias_table *t5;       /* t5: the table ... */
    const t5_buckets_cfg *buckets; /* ... its buckets ... */
    int t5_head;                   /* ... and the head whose column is used */
} attn_positions;

/* scheme s, symmetric, attention factor 1, ALiBi slope 1/2 (head 1 of 8), T5 head 0, no
 * tables (c = table_scale, 1 when 0). */
void attention_positions_init(attn_positions *p, tf_scheme s);

/* One forward pass of x (T, d) — the input as given: add PE or a table row first, as
 * attention_order_positions does; it is normalised (c->norm) — with p's rotation, bias and
 * mask. TF_ERR_RANGE when p lacks what its scheme needs (a T5 table, its buckets, a head inside
 * it). */
tf_status attention_forward_positions(const tf_attn_cfg *c, const attn_positions *p,
                                      const double *x, size_t T, double *A /* (T, T) or NULL */,
                                      double *Z /* (T, d) or NULL */);

/* The order experiment under p (attention_order is this for the three modes, and
 * attention_order_all the three at once). TF_ERR_POSITIONS when a learned table has no row for a
 * position (pos0 + T - 1 >= n_pos), TF_ERR_DMODEL when its width is not d. */
tf_status attention_order_positions(const tf_attn_cfg *c, const attn_positions *p,
                                    const double *emb /* (T, d) */, const size_t *perm /* (T) */,
                                    size_t T, tf_order_result *out);

#endif
