/* positions.h — the position schemes of one run with their parameters, made ready to use: the
 * curves against distance, the bias matrices and the attention head all take them from here, so
 * --print, the explorer and the figures show the same scheme with the same numbers.
 *
 * tf_positions is what the user chose (the command line, or the explorer's keys): the schemes,
 * the mask, the heads, T5's buckets, RoPE's scaling, the trained length and the tables read from
 * files. posctx_open makes the rest: the untrained tables the files did not give (seeded, as
 * W_E is), ALiBi's slopes and the scaled RoPE's inverse frequencies.
 *
 * The trained length L (--original-context) is the context the model was trained on. Unset, each
 * scheme keeps the length of the model it comes from: an untrained learned table has GPT-2's
 * 1024 rows, a RoPE scaling its method's original context (Llama 2's 4096, Llama 3.1's 8192 for
 * llama3); T5's is its max_distance (128), where its buckets end. Set, it is the rows of the
 * untrained learned table and RoPE's original context.
 *
 * The learned table in the attention head. The head multiplies the word vectors by
 * s = sqrt(d) before adding positions (attention.h), which gives them PE's scale; a position
 * table must be on the same scale or the words swamp it (an untrained table's rows, of entries
 * with variance 1/d, have length about 1 against the words' sqrt(d)). So the head adds the table
 * times sqrt(d/2) / rms_p |P[p]|: its rows then have PE's length sqrt(d/2) on average, whatever
 * scale the model that trained it used (GPT-2's wpe included), and the learned and the
 * sinusoidal scheme differ in the pattern of their rows only. */
#ifndef TF_POSITIONS_H
#define TF_POSITIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "attention.h"
#include "learned_pe.h"
#include "poscurve.h"
#include "rope.h"
#include "rope_scaling.h"
#include "scheme.h"
#include "status.h"
#include "t5bias.h"

#define POSITIONS_DEFAULT_HEADS 8       /* BLOOM-560m's and t5-small's 8 heads */
#define POSITIONS_DEFAULT_LEARNED 1024  /* GPT-2's wpe: 1024 rows */

typedef struct {
    tf_scheme list[SCHEME_COUNT]; /* --scheme, in the order given */
    size_t n;                     /* 0: the caller's default */
    scheme_mask mask;             /* which keys a query sees (default symmetric) */
    int heads;                    /* ALiBi's slopes, the untrained T5 table's heads */
    int head;                     /* the head drawn and used by the attention head, from 0 */
    t5_buckets_cfg buckets;       /* num_buckets, max_distance; bidirectional follows mask */
    rope_scaling_cfg scaling;     /* kind ROPE_SCALING_NONE: plain RoPE only */
    long trained;                 /* L, 0: each scheme's own (above) */
    const tf_learned_pe *table;   /* a table read from a file (not owned), NULL: untrained */
    const t5_bias_table *t5;      /* T5's biases read from a file (not owned), NULL: untrained */
} tf_positions;

/* No schemes, symmetric, 8 heads, head 0, 32 buckets up to 128, plain RoPE, no files. */
void positions_defaults(tf_positions *p);

/* The parameters of one run, made ready. */
typedef struct {
    tf_positions p;              /* the parameters, with buckets.bidirectional from the mask */
    int d;                       /* d_model: the width of sinusoidal PE, RoPE and the random
                                    table */
    double base;                 /* PE's and plain RoPE's base */
    rope_style style;
    tf_learned_pe own_table;     /* the untrained table when no file gave one */
    const tf_learned_pe *table;  /* the table used: p.table, &own_table or NULL (above) */
    t5_bias_table own_t5;
    const t5_bias_table *t5;     /* p.t5 or &own_t5 */
    double *slopes;              /* (heads) ALiBi's */
    double *inv_freq, *original; /* (d/2) the scaled and the original RoPE frequencies, when
                                    p.scaling.kind is not ROPE_SCALING_NONE (else NULL) */
    double attention_factor;     /* the scaling's (YaRN's a; 1 otherwise) */
} tf_posctx;

/* Check p for d_model d without allocating: heads in [1, TF_MAX_HEADS] and head below them, the
 * mask, the buckets (t5_buckets_check), a T5 table from a file of num_buckets rows and at least
 * head + 1 columns, a trained length in [0, TF_MAX_POSITIONS], the scaling for d
 * (rope_scaling_check, when one is chosen): TF_ERR_RANGE (*why, if not NULL, says which),
 * TF_ERR_DMODEL, TF_ERR_BASE. */
tf_status positions_check(const tf_positions *p, int d, const char **why);

/* Make p ready for d_model d, base and pairing (seed: the untrained tables'): positions_check,
 * then the untrained learned table when a listed scheme is learned (or none is listed: all
 * are; else table is NULL unless a file gave one), TF_ERR_TOO_BIG when it would be over the
 * limits, TF_ERR_NOMEM. On failure nothing is left to close. */
tf_status posctx_open(tf_posctx *c, const tf_positions *p, int d, double base, rope_style style,
                      uint64_t seed, const char **why);
void posctx_close(tf_posctx *c);

/* The curve settings of c (poscurve.h); scaled: RoPE with the scaling (else plain). */
poscurve_cfg posctx_curve_cfg(const tf_posctx *c, bool scaled);
/* The value of scheme s at distances k0 .. k0 + n - 1 (poscurve_fill); plain RoPE beside a
 * scaling at the scaling's base, as its original frequencies are. */
tf_status posctx_curve(const tf_posctx *c, tf_scheme s, bool scaled, long k0, long n,
                       double *out /* (n) */);
/* The same at the distances k[0 .. n-1] (a curve drawn on a log axis: a few thousand of them). */
tf_status posctx_curve_at(const tf_posctx *c, tf_scheme s, bool scaled, const long *k, long n,
                          double *out /* (n) */);
/* Where the scheme stops being what it was trained on (0: nowhere): the learned table's rows,
 * T5's max_distance, and for RoPE, plain or scaled, the original context when a scaling is
 * chosen or a trained length given. */
long posctx_trained(const tf_posctx *c, tf_scheme s);
/* RoPE only: the share of pairs at angles training never reached at distance k (plain, or
 * scaled); NaN when no trained length is known. */
double posctx_unseen(const tf_posctx *c, bool scaled, double k);

/* ---- the schemes side by side: the curves --print schemes and the schemes figure compare ---- */

typedef struct {
    tf_scheme s;
    bool scaled;    /* RoPE under p.scaling: a second RoPE curve beside plain RoPE */
    long trained;   /* posctx_trained (0: a formula at every distance) */
    double *v;      /* (n) the value at distances k0 .. k0 + n - 1 (posctx_curve) */
    double *unseen; /* (n) RoPE with a trained length: posctx_unseen, a share in [0, 1]; else
                       NULL */
} posctx_curve_row;

typedef struct {
    int n_curves;
    posctx_curve_row c[SCHEME_COUNT + 1];
} posctx_curves;

/* The schemes compared, the one order every front-end shows them in: those p lists, in its
 * order; all six in the enum's order (none, sinusoidal, learned, rope, alibi, t5) when it lists
 * none. Returns how many went into out. */
size_t positions_compared(const tf_positions *p, tf_scheme out[SCHEME_COUNT]);

/* The curves of positions_compared(&c->p), in that order; RoPE once more under a scaling.
 * Each with its scheme, scaling and trained length; no values yet (v, unseen NULL). */
void posctx_curves_list(const tf_posctx *c, posctx_curves *out);
/* Each listed curve's values (and RoPE's unseen share) at distances k0 .. k0 + n - 1:
 * TF_ERR_NOMEM or posctx_curve's status. Free with posctx_curves_free either way. */
tf_status posctx_curves_fill(const tf_posctx *c, long k0, long n, posctx_curves *out);
void posctx_curves_free(posctx_curves *out);

/* The attention head's settings for scheme s (attention.h): the mask, the table scaled as above,
 * the scaled RoPE frequencies (scaled) and their factor, the head's ALiBi slope and T5 column. */
void posctx_attn(const tf_posctx *c, tf_scheme s, bool scaled, attn_positions *out);

#endif
