/* order_model.h — one attention layer that points at the doer of a sentence (order_task.h), with
 * its backward pass written out by hand.
 *
 * A sentence of L tokens t_0 .. t_{L-1}; d = d_model, H heads of e = d / H dimensions each; every
 * vector is a row, head h owns columns h e .. (h+1) e - 1:
 *
 *   x_p      = E[t_p] + P_p              P: sinusoidal PE (fixed), a learned table, or 0
 *   q_p      = x_p W_Q,  k_p = x_p W_K,  v_p = x_p W_V
 *   rope:      q^h_p <- R_p q^h_p,  k^h_p <- R_p k^h_p      (rope.h; pairs rotated by p theta_i)
 *   s^h_pj   = q^h_p . k^h_j / sqrt(e) + b^h(p, j)          alibi: -m_h (p - j); t5: B[h][bucket]
 *   a^h_pj   = exp(s^h_pj) / sum_j' exp(s^h_pj')            causal alibi (and unidirectional
 *                                                          t5): only j <= p
 *   o^h_p    = sum_j a^h_pj v^h_j
 *   y_p      = x_p + o_p W_O                                 (residual)
 *   z_p      = w_r . y_p                                     (readout: one score per position)
 *   P(p)     = exp(z_p) / sum_p' exp(z_p'),   loss = -log P(doer)
 *
 * Every scheme has the same E, W_Q, W_K, W_V, W_O and w_r, initialised from the same seed to the
 * same numbers; only the learned table (learned) and the bias table (t5) are extra. Without
 * positions x_p depends on t_p alone, attention treats the tokens as a set, and so z_p is a
 * function of the token and of the multiset of the sentence: both orders of a pair get the same
 * score per token and the same predicted token.
 *
 * Everything is double precision: the gradient checks (finite differences) run the same code. */
#ifndef TF_ORDER_MODEL_H
#define TF_ORDER_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "isa.h"
#include "order_task.h"
#include "rope.h"
#include "scheme.h"
#include "status.h"
#include "t5bias.h"

#define ORDER_MAX_HEADS       4
#define ORDER_MIN_DMODEL      4
#define ORDER_MAX_DMODEL      256
#define ORDER_MAX_VOCAB_MODEL ORDER_MAX_VOCAB

typedef struct {
    int d_model;            /* 32: a multiple of 2 * heads (RoPE rotates pairs within a head) */
    int heads;              /* 2: 1 .. ORDER_MAX_HEADS */
    double base;            /* 10000: frequencies of sinusoidal PE and RoPE */
    rope_style rope;        /* ROPE_HALF: pairing of RoPE's rotation */
    scheme_mask alibi_mask; /* CAUSAL: ALiBi as the paper, later keys masked; SYMMETRIC:
                             * -m|i-j| for every key (blind to mirror images) */
    t5_buckets_cfg t5;      /* 32 buckets, max distance 128, bidirectional (T5's encoder);
                             * unidirectional buckets come with the decoder's causal mask */
    uint64_t seed;          /* initial weights */
} order_model_cfg;

void order_model_defaults(order_model_cfg *c);
/* TF_ERR_DMODEL or TF_ERR_RANGE with *why (a static English sentence) when a value is out of
 * range. */
tf_status order_model_check(const order_model_cfg *c, const char **why);

/* The parameters, as views into one block (params), and the same layout for the gradients. */
typedef struct {
    double *emb; /* (V, d) token embedding E */
    double *pos; /* (ORDER_MAX_TOKENS, d) learned position table; NULL unless learned */
    double *wq;  /* (d, d) */
    double *wk;  /* (d, d) */
    double *wv;  /* (d, d) */
    double *wo;  /* (d, d) */
    double *wr;  /* (d) readout */
    double *rel; /* (H, t5.num_buckets) T5 bias per bucket; NULL unless t5 */
} order_params;

/* One named tensor of the model, for the gradient checks and for readers of the weights. */
typedef struct {
    const char *name; /* "emb", "pos", "wq", "wk", "wv", "wo", "wr", "rel" */
    double *w, *g;    /* (rows, cols) parameter and its gradient */
    int rows, cols;
} order_tensor;

#define ORDER_MAX_TENSORS 8

typedef struct {
    order_model_cfg c;
    tf_scheme scheme;
    uint32_t V;
    int d, H, e;       /* d_model, heads, head size */
    size_t n_params;   /* numbers in params (and in grads) */
    double *params;    /* (n_params) every parameter, one block */
    double *grads;     /* (n_params) the same layout */
    order_params p, g; /* views into params and grads */
    order_tensor tensor[ORDER_MAX_TENSORS];
    int n_tensors;
    /* fixed tables, in the same allocation as params */
    double *pe;       /* (ORDER_MAX_TOKENS, d) sinusoidal PE; NULL unless sinusoidal */
    double *rope_cos; /* (ORDER_MAX_TOKENS, e/2) cos(p theta_i); NULL unless rope */
    double *rope_sin; /* (ORDER_MAX_TOKENS, e/2) */
    int rope_a[ORDER_MAX_DMODEL / 2], rope_b[ORDER_MAX_DMODEL / 2]; /* pair i = (a_i, b_i) */
    double slope[ORDER_MAX_HEADS];                                  /* ALiBi m_h */
    int bucket[2 * ORDER_MAX_TOKENS - 1]; /* T5 bucket of r = j - p, at r + MAX - 1 */
    tf_isa isa; /* the kernels' instruction-set variant (tf_isa_best; all give the same bits) */
} order_model;

/* Allocate and initialise a model of scheme s over a vocabulary of V tokens. SCHEME_ALIBI and
 * SCHEME_T5 are supported as well as the four of the order experiment. */
tf_status order_model_init(order_model *m, tf_scheme s, uint32_t V, const order_model_cfg *c);
void order_model_free(order_model *m);
/* Back to the initial weights (the same seed); gradients zeroed. */
void order_model_reset(order_model *m);
void order_model_zero_grad(order_model *m);

/* True when a query sees only itself and earlier keys: causal ALiBi, unidirectional T5. */
bool order_model_causal(const order_model *m);

/* ---------------------------------------------------------------------------------------------
 * One sentence forward and backward */

/* The activations of the last forward pass, kept for the backward pass and for viewers. */
typedef struct {
    int L, target;
    uint32_t tok[ORDER_MAX_TOKENS];
    double *x;  /* (L, d) input rows */
    double *q;  /* (L, d) queries, rotated under rope */
    double *k;  /* (L, d) keys, rotated under rope */
    double *v;  /* (L, d) values */
    double *a;  /* (H, L, L) attention weights a^h_pj at [h][p][j] (row stride L) */
    double *o;  /* (L, d) attention output, heads side by side */
    double *y;  /* (L, d) residual stream after attention */
    double *z;  /* (L) readout scores */
    double *pr; /* (L) P(doer = p) */
    /* backward scratch */
    double *dy, *dob, *dq, *dk, *dv, *dx; /* (L, d) each */
    double *da;                           /* (L) */
    double *wt;                           /* (4, d, d) W_Q^T, W_K^T, W_V^T, W_O^T */
    double *mem;
} order_work;

tf_status order_work_init(order_work *w, const order_model *m);
void order_work_free(order_work *w);

/* Forward pass of tokens tok[0..L) (2 <= L <= ORDER_MAX_TOKENS) with the doer at `target`
 * (-1: no loss). Returns the loss (0 without a target); *pred receives the predicted position
 * (the first of equal maxima). */
double order_model_forward(const order_model *m, order_work *w, const uint32_t *tok, int L,
                           int target, int *pred);
/* Add scale * d loss / d parameter, for the last forward pass of w, into m->grads. */
void order_model_backward(order_model *m, order_work *w, double scale);

/* Mean loss over sentences idx[0..n) of task t; with grads true also adds the gradient of that
 * mean into m->grads (which the caller zeroes). *correct (may be NULL) counts right answers. */
double order_model_batch(order_model *m, order_work *w, const order_task *t, const uint32_t *idx,
                         size_t n, bool grads, size_t *correct);

#endif
