/* poscurve.h — every position scheme's signal against distance: the curves that compare them.
 *
 * For distance k = i - j between query i and key j (the key k positions before the query;
 * k < 0: after it), one number per scheme (scheme.h):
 *   none        0; -inf for k < 0 under the causal mask                           bias
 *   sinusoidal  cos(PE(p), PE(p + k)) = (2/d) sum_i cos(k w_i), the same for every p
 *               (posenc.h)                                                         similarity
 *   learned     the mean over p of cos(P[p], P[p + |k|]); NaN for |k| >= n_pos, where the
 *               table has no pair of rows that far apart (learned_pe.h)               similarity
 *   rope        a^2 (R_m q) . (R_n k) / (|q| |k|) for m - n = k, with a method's inverse
 *               frequencies and attention factor a (rope_scaling.h); q = k = (1, ..., 1) unless
 *               given, so plain RoPE gives (2/d) sum_i cos(k theta_i), 1 at k = 0     score
 *   alibi       -m_h |k| of one head; -inf for k < 0 under the causal mask (alibi.h)  bias
 *   t5          b[bucket(-k)][h] of one head; -inf for k < 0 under the causal mask
 *               (t5bias.h)                                                         bias
 * The curves are defined at every distance: past a model's trained length they show what the
 * scheme does there (ALiBi's penalty keeps growing, T5's bias is flat past max_distance, a
 * learned table ends, plain RoPE reaches angles it never saw: rope_scaling_unseen). */
#ifndef TF_POSCURVE_H
#define TF_POSCURVE_H

#include "learned_pe.h"
#include "rope.h"
#include "rope_scaling.h"
#include "scheme.h"
#include "status.h"
#include "t5bias.h"

typedef enum {
    POSCURVE_BIAS = 0,
    POSCURVE_SIMILARITY,
    POSCURVE_SCORE,
    POSCURVE_COUNT
} poscurve_quantity;

typedef struct {
    int d;                         /* sinusoidal: d_model; rope: the dimension of q and k */
    double base;                   /* sinusoidal; rope when `rope` is NULL */
    rope_style style;              /* rope: the pairing (the score does not depend on it for
                                      q = k = ones) */
    const rope_scaling_cfg *rope;  /* rope: the method and its base (NULL: plain RoPE) */
    const double *q, *k;           /* rope: (d) each, NULL: all ones */
    const tf_learned_pe *table;    /* learned */
    const double *slopes;          /* alibi: (heads), from alibi_slopes */
    int heads;                     /* alibi */
    const t5_bias_table *t5;       /* t5: the table ... */
    const t5_buckets_cfg *buckets; /* ... and its buckets */
    int head;                      /* alibi, t5: the head drawn */
    scheme_mask mask;              /* none, alibi, t5 */
} poscurve_cfg;

/* d = TF_DEFAULT_DMODEL, base TF_DEFAULT_BASE, interleaved, head 0, causal, no tables. */
void poscurve_defaults(poscurve_cfg *c);

poscurve_quantity poscurve_quantity_of(tf_scheme s);
/* "bias", "similarity", "score"; NULL outside the enum. */
const char *poscurve_quantity_name(poscurve_quantity q);

/* out[t] = the value at distance k0 + t, t in [0, n). n in [0, 2 TF_MAX_POSITIONS + 1],
 * |k0| and |k0 + n| within TF_MAX_POSITIONS (TF_ERR_POSITIONS); a scheme whose table or slopes
 * are missing, or a head outside them, TF_ERR_RANGE; d and base as for PE and RoPE
 * (TF_ERR_DMODEL, TF_ERR_BASE); a RoPE method's own checks (rope_scaling_check). */
tf_status poscurve_fill(tf_scheme s, const poscurve_cfg *c, long k0, long n, double *out /* (n) */);

/* The distance up to which the scheme was trained or is distinct, for marking the curve:
 * learned n_pos (no row past it), t5 max_distance (one bucket past it), rope with a method its
 * original context L; 0 for the schemes that are a formula at every distance (none,
 * sinusoidal, plain rope, alibi). */
long poscurve_trained_length(tf_scheme s, const poscurve_cfg *c);

#endif
