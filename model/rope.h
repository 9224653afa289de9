/* rope.h — rotary position embedding (claim C13).
 *
 * RoPE adds nothing to the input. After q and k are projected, every pair of dimensions
 * (x_a, x_b) of the vector at position m is rotated by the angle m * theta_i,
 * theta_i = base^(-2i/d):
 *   x_a' = x_a cos(m theta_i) - x_b sin(m theta_i)
 *   x_b' = x_a sin(m theta_i) + x_b cos(m theta_i)
 * so (R_m q) . (R_n k) = q . R_{n-m} k depends on m - n only.
 *
 * Two pairings are in real use and must not be mixed up:
 *   interleaved: pair i = (2i, 2i+1)        — Meta's LLaMA reference code, GPT-J
 *   half:        pair i = (i, i + d/2)      — rotate_half: GPT-NeoX, Hugging Face */
#ifndef TF_ROPE_H
#define TF_ROPE_H

#include <stddef.h>

#include "isa.h"
#include "status.h"

typedef enum { ROPE_INTERLEAVED = 0, ROPE_HALF = 1, ROPE_STYLE_COUNT } rope_style;

const char *rope_style_name(rope_style s);
/* ROPE_STYLE_COUNT for an unknown name. */
rope_style rope_style_parse(const char *name);

/* theta_i = base^(-2i/d), i = 0 .. d/2-1: the frequencies w_i of PE (posenc_freqs). */
void rope_thetas(int d, double base, double *theta /* (d/2) */);

/* The two indices of pair i. */
void rope_pair(rope_style s, int d, int i, int *a, int *b);

/* out = R_pos x in float64 (out may equal x). */
void rope_rotate(const double *x /* (d) */, int d, double base, double pos, rope_style s,
                 double *out /* (d) */);

/* The same with the inverse frequencies theta (d/2) instead of base^(-2i/d): rope_thetas' or a
 * context-extension method's (rope_scaling.h). */
void rope_rotate_thetas(const double *x /* (d) */, int d, const double *theta /* (d/2) */,
                        double pos, rope_style s, double *out /* (d) */);

/* Rotate the rows of x in place: row r sits at position pos0 + r. float32 data, angles and the
 * rotation in float64; the (sin, cos) of each pair advance by angle addition from row to row and
 * are re-anchored with exact sin/cos every ROPE_ANCHOR rows. */
#define ROPE_ANCHOR 256
void rope_apply_f32(float *x /* (n, d) */, long n, int d, double base, long pos0, rope_style s);
/* The same with a chosen instruction-set variant (tests, benchmarks); one the CPU cannot run
 * falls back to TF_ISA_DEFAULT. All variants give the same bits. */
void rope_apply_f32_isa(tf_isa isa, float *x /* (n, d) */, long n, int d, double base, long pos0,
                        rope_style s);

/* max over m, n in [0, npos) of |(R_m q).(R_n k) - (R_{m-n} q).k|: zero up to rounding when the
 * score depends on m - n only. */
double rope_offset_max_dev(const double *q, const double *k, int d, double base, rope_style s,
                           long npos);

/* (R_m q) . (R_n k) for m - n = r, with the inverse frequencies theta (d/2) instead of
 * base^(-2i/d) — rope_thetas' or a context-extension method's (rope_scaling.h). */
double rope_score_thetas(const double *q /* (d) */, const double *k /* (d) */, int d,
                         const double *theta /* (d/2) */, rope_style s, double r);

/* rope_score_thetas at the distances r0 .. r0+n-1, into out (n): the score is
 * sum_i A_i cos(r theta_i) + B_i sin(r theta_i) with A_i = q_a k_a + q_b k_b and
 * B_i = q_a k_b - q_b k_a over the pairs (a, b) (posenc_trig_sums). TF_ERR_NOMEM. */
tf_status rope_score_run(const double *q /* (d) */, const double *k /* (d) */, int d,
                         const double *theta /* (d/2) */, rope_style s, double r0, long n,
                         double *out /* (n) */);

/* RoFormer (arXiv 2104.09864) section 3.4.3: the relative-distance term of the long-term decay
 * bound, (1/(d/2)) sum_{j=1}^{d/2} |S_j| with S_j = sum_{k=0}^{j-1} e^{i r theta_k}. */
double rope_decay_bound(int d, double base, double r);
/* The same bound with the inverse frequencies theta (d/2). */
double rope_decay_bound_thetas(int d, const double *theta /* (d/2) */, double r);

#endif
