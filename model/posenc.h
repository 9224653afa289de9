/* posenc.h — sinusoidal positional encoding (claims C7-C10).
 *
 *   PE(pos, 2i)   = sin(pos * w_i)
 *   PE(pos, 2i+1) = cos(pos * w_i),      w_i = base^(-2i/d),  i = 0 .. d/2-1
 *
 * This file is the one place the formula lives. */
#ifndef TF_POSENC_H
#define TF_POSENC_H

#include <stddef.h>

#include "isa.h"
#include "status.h"

/* w_i = base^(-2i/d). */
double posenc_omega(int i, int d, double base);
/* All d/2 frequencies into omega (d/2); wavelength_i = 2*pi / w_i. */
void posenc_freqs(int d, double base, double *omega /* (d/2) */);

/* One value, the float64 reference. */
double posenc_value(double pos, int j, int d, double base);
/* One row, the float64 reference. */
void posenc_row(double pos, int d, double base, double *out /* (d) */);
/* The same row from precomputed frequencies (posenc_freqs), for loops over many rows. */
void posenc_row_omega(double pos, int d, const double *omega /* (d/2) */, double *out /* (d) */);

/* The fast float32 path: rows pos0 .. pos0+n-1 into out (n, d). Each (sin, cos) pair is
 * advanced by a rotation through w_i per row (angle addition in float64) and re-anchored with
 * exact sin/cos every POSENC_ANCHOR rows, so no transcendental call is made per element. */
#define POSENC_ANCHOR 256
void posenc_fill_f32(long pos0, long n, int d, double base, float *out /* (n, d) */);
/* The same with a chosen instruction-set variant (tests, benchmarks); one the CPU cannot run
 * falls back to TF_ISA_DEFAULT. All variants give the same bits. */
void posenc_fill_f32_isa(tf_isa isa, long pos0, long n, int d, double base,
                         float *out /* (n, d) */);

/* The row kernel behind posenc_fill_f32 and rope_apply_f32. Row r of x (n, d) stands at position
 * pos0 + r; for every pair i with the angle (pos0 + r) w_i it either writes sin and cos into
 * (2i, 2i+1) (POSENC_FILL) or rotates the two floats of the pair by the angle, float64 inside and
 * rounded once (RoPE's pairings: (2i, 2i+1) interleaved, (i, i + d/2) half). Without memory for
 * its tables it computes every element from the float64 formula instead (same result within
 * float32 rounding). */
typedef enum { POSENC_FILL, POSENC_ROTATE_INTERLEAVED, POSENC_ROTATE_HALF } posenc_op;
void posenc_rows_f32(tf_isa isa, posenc_op op, float *x /* (n, d) */, long n, int d, double base,
                     long pos0);

/* M_k . pe: rotate every (sin, cos) pair of a PE row by k*w_i (C10):
 *   out[2i]   = pe[2i] cos(k w_i) + pe[2i+1] sin(k w_i)
 *   out[2i+1] = pe[2i+1] cos(k w_i) - pe[2i] sin(k w_i) */
void posenc_shift(const double *pe /* (d) */, int d, double base, double k, double *out /* (d) */);
/* M_k's 2x2 block for pair i, the rotation posenc_shift applies to (PE(2i), PE(2i+1)):
 *   m = [[cos(k w_i), sin(k w_i)], [-sin(k w_i), cos(k w_i)]]
 * M_k is block-diagonal: these d/2 blocks, and zeros everywhere else. */
void posenc_rotation(int i, int d, double base, double k, double m[2][2]);

/* max over pos in [pos0, pos0+n-k) and j of |PE(pos+k, j) - (M_k PE(pos))_j|, in float64. */
double posenc_relative_residual(long pos0, long n, int d, double base, long k);

/* Gram matrix of positions pos0 .. pos0+n-1: out[p][q] = PE(p) . PE(q), computed from the rows. */
tf_status posenc_gram(long pos0, long n, int d, double base, double *out /* (n, n) */);

/* Nanoseconds of one core posenc_gram needs for n positions: n^2 d / 2 multiply-adds at about
 * 1.5 ns each. --print dot and the dot figure refuse work over TF_MAX_WORK (tf_limits.h). */
double posenc_gram_work(double n, double d);

/* The split layout of tensor2tensor and the TensorFlow tutorial: the sin half, then the cos half.
 * Column c of it holds dimension posenc_split_dim(c, d) of the interleaved PE (even d). */
int posenc_split_dim(int c, int d);
/* The column of the split layout that holds dimension j: the inverse of posenc_split_dim. */
int posenc_split_col(int j, int d);

/* Closed form of the dot product: PE(p).PE(q) = sum_i cos((p-q) w_i) — depends on p-q only. */
double posenc_dot_offset(double offset, int d, double base);
/* posenc_dot_offset at the offsets k0 .. k0+n-1, into out (n). TF_ERR_NOMEM. */
tf_status posenc_dot_offsets(long k0, long n, int d, double base, double *out /* (n) */);

/* Sums of turning pairs at the steps r = r0 .. r0+n-1:
 *     out[t] = sum_i a[i] cos(r theta[i]) + b[i] sin(r theta[i]),   r = r0 + t,
 * the kernel behind posenc_dot_offsets and rope_score_run (a curve at every distance): the pair
 * (cos, sin) of step r + 1 is that of step r turned by theta[i] (four products), and is anchored
 * with exact cos and sin every POSENC_ANCHOR steps. TF_ERR_NOMEM. */
tf_status posenc_trig_sums(const double *a /* (m) */, const double *b /* (m) */,
                           const double *theta /* (m) */, int m, double r0, long n,
                           double *out /* (n) */);

/* Uniqueness (C9): the smallest Euclidean distance between the PE rows of two distinct positions
 * among pos0 .. pos0+n-1 and one pair (p, q) that attains it. Uses
 * |PE(p)-PE(q)|^2 = d - 2 sum_i cos((p-q) w_i), which depends on |p-q| only. */
double posenc_min_distance(long pos0, long n, int d, double base, long *p, long *q);

#endif
