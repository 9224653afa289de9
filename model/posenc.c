/* posenc.c — sinusoidal positional encoding: reference, fast path, and its properties. */
#include "posenc.h"

#include <math.h>
#include <stdlib.h>

#include "isa.h"
#include "linalg.h"

double posenc_omega(int i, int d, double base) { return pow(base, -2.0 * i / d); }

void posenc_freqs(int d, double base, double *omega)
{
    for (int i = 0; i < d / 2; i++)
        omega[i] = posenc_omega(i, d, base);
}

double posenc_value(double pos, int j, int d, double base)
{
    double a = pos * posenc_omega(j / 2, d, base);
    return (j % 2 == 0) ? sin(a) : cos(a);
}

void posenc_row(double pos, int d, double base, double *out)
{
    for (int i = 0; i < d / 2; i++) {
        double a = pos * posenc_omega(i, d, base);
        out[2 * i] = sin(a);
        out[2 * i + 1] = cos(a);
    }
}

void posenc_row_omega(double pos, int d, const double *omega, double *out)
{
    for (int i = 0; i < d / 2; i++) {
        double a = pos * omega[i];
        out[2 * i] = sin(a);
        out[2 * i + 1] = cos(a);
    }
}

/* ---------------------------------------------------------------------------------------------
 * The fast float32 row kernel, shared by PE (posenc_fill_f32) and RoPE (rope_apply_f32): both
 * need sin and cos of the angle pos * w_i for every pair i of every row, PE to write them down and
 * RoPE to rotate by them.
 *
 * State per pair i, in float64 and in split arrays (so the loops over i vectorise): s_i = sin(a),
 * c_i = cos(a) for the angle a = pos * w_i of the current row. One row further is the angle
 * addition  sin(a + w) = s cos w + c sin w,  cos(a + w) = c cos w - s sin w.  Each step adds a
 * few ulp of float64 (about 1e-16), so after POSENC_ANCHOR steps the drift is still far below
 * the float32 rounding of the output (3e-8); every POSENC_ANCHOR rows the state is re-anchored
 * with exact sin/cos. Pair i of a row is the two floats (a, b) = (st*i, st*i + off): (2i, 2i+1)
 * for PE and interleaved RoPE, (i, i + d/2) for half-split RoPE. */

/* Rows advanced per pass over the pairs. The state is loaded once, turned KERNEL_ROWS times in
 * registers and stored once, so the float64 tables are read once per KERNEL_ROWS output rows; one
 * row per pass is bound by L2 bandwidth (the tables are 4 x 8 bytes per pair), eight rows per
 * pass by the output stores. */
#define KERNEL_ROWS 8 /* the steps written out in advance_rows8 */

/* Pair (a, b) of one row from the sine and cosine of its angle: written down (PE) or rotated
 * by the angle (RoPE), in float64 and rounded once. A compile-time constant `rotate` leaves one
 * branch in each inlined copy. */
static inline __attribute__((always_inline)) void pair_out(float *restrict x, size_t a, size_t b,
                                                           double s, double c, int rotate)
{
    if (rotate) {
        double xa = x[a], xb = x[b];
        x[a] = (float)(xa * c - xb * s);
        x[b] = (float)(xa * s + xb * c);
    } else {
        x[a] = (float)s;
        x[b] = (float)c;
    }
}

/* One step of the recurrence for pair i, applied to row x<r>:
 *   sin(a + w) = s cos w + c sin w,   cos(a + w) = c cos w - s sin w */
#define KERNEL_STEP(r)                                                                             \
    do {                                                                                           \
        double s1 = si * cwi + ci * swi, c1 = ci * cwi - si * swi;                                 \
        si = s1;                                                                                   \
        ci = c1;                                                                                   \
        pair_out(x##r, st * i, st * i + off, si, ci, rotate);                                      \
    } while (0)

/* Rows 1 .. KERNEL_ROWS of x (stride 2h) from the state (s, c), which ends KERNEL_ROWS positions
 * further. Written out step by step so the compiler vectorises the loop over pairs. */
static inline __attribute__((always_inline)) void
advance_rows8(size_t h, size_t st, size_t off, int rotate, const double *restrict sw,
              const double *restrict cw, double *restrict s, double *restrict c, float *restrict x)
{
    const size_t rs = 2 * h;
    float *restrict x1 = x + rs, *restrict x2 = x1 + rs, *restrict x3 = x2 + rs,
                    *restrict x4 = x3 + rs, *restrict x5 = x4 + rs, *restrict x6 = x5 + rs,
                    *restrict x7 = x6 + rs, *restrict x8 = x7 + rs;
    TF_SIMD
    for (size_t i = 0; i < h; i++) {
        double si = s[i], ci = c[i], swi = sw[i], cwi = cw[i];
        KERNEL_STEP(1);
        KERNEL_STEP(2);
        KERNEL_STEP(3);
        KERNEL_STEP(4);
        KERNEL_STEP(5);
        KERNEL_STEP(6);
        KERNEL_STEP(7);
        KERNEL_STEP(8);
        s[i] = si;
        c[i] = ci;
    }
}

/* Row 1 of x from the state, one position further. */
static inline __attribute__((always_inline)) void
advance_row1(size_t h, size_t st, size_t off, int rotate, const double *restrict sw,
             const double *restrict cw, double *restrict s, double *restrict c, float *restrict x)
{
    float *restrict x1 = x + 2 * h;
    TF_SIMD
    for (size_t i = 0; i < h; i++) {
        double si = s[i], ci = c[i], swi = sw[i], cwi = cw[i];
        KERNEL_STEP(1);
        s[i] = si;
        c[i] = ci;
    }
}

/* Rows [0, n) of x (n, 2h) at positions pos0 + r, from omega, sin w, cos w and the state s, c (h
 * each). Inlined into each instruction-set variant and each pairing below. */
static inline __attribute__((always_inline)) void
kernel_rows(float *restrict x, long n, size_t h, size_t st, size_t off, int rotate, long pos0,
            const double *restrict omega, const double *restrict sw, const double *restrict cw,
            double *restrict s, double *restrict c)
{
    for (long r0 = 0; r0 < n; r0 += POSENC_ANCHOR) {
        long m = n - r0 < POSENC_ANCHOR ? n - r0 : POSENC_ANCHOR;
        float *restrict row = x + (size_t)r0 * 2 * h;
        /* 1. anchor: exact sin/cos of pos * w_i (the compiler pairs them into sincos) */
        double pos = (double)(pos0 + r0);
        for (size_t i = 0; i < h; i++) {
            double a = pos * omega[i];
            s[i] = sin(a);
            c[i] = cos(a);
        }
        TF_SIMD
        for (size_t i = 0; i < h; i++)
            pair_out(row, st * i, st * i + off, s[i], c[i], rotate);
        /* 2. the other rows of the segment, KERNEL_ROWS per pass, then one by one */
        long r = 1;
        for (; r + KERNEL_ROWS <= m; r += KERNEL_ROWS)
            advance_rows8(h, st, off, rotate, sw, cw, s, c, row + (size_t)(r - 1) * 2 * h);
        for (; r < m; r++)
            advance_row1(h, st, off, rotate, sw, cw, s, c, row + (size_t)(r - 1) * 2 * h);
    }
}

/* The three uses with constant strides, so each is vectorised for its own access pattern. */
static inline __attribute__((always_inline)) void
kernel_op(posenc_op op, float *x, long n, size_t h, long pos0, const double *omega,
          const double *sw, const double *cw, double *s, double *c)
{
    switch (op) {
    case POSENC_ROTATE_HALF:
        kernel_rows(x, n, h, 1, h, 1, pos0, omega, sw, cw, s, c);
        break;
    case POSENC_ROTATE_INTERLEAVED:
        kernel_rows(x, n, h, 2, 1, 1, pos0, omega, sw, cw, s, c);
        break;
    default:
        kernel_rows(x, n, h, 2, 1, 0, pos0, omega, sw, cw, s, c);
    }
}

static void kernel_default(posenc_op op, float *x, long n, size_t h, long pos0,
                           const double *omega, const double *sw, const double *cw, double *s,
                           double *c)
{
    kernel_op(op, x, n, h, pos0, omega, sw, cw, s, c);
}

#if TF_ISA_X86
TF_TARGET_AVX2 static void kernel_avx2(posenc_op op, float *x, long n, size_t h, long pos0,
                                       const double *omega, const double *sw, const double *cw,
                                       double *s, double *c)
{
    kernel_op(op, x, n, h, pos0, omega, sw, cw, s, c);
}

TF_TARGET_AVX512 static void kernel_avx512(posenc_op op, float *x, long n, size_t h, long pos0,
                                           const double *omega, const double *sw,
                                           const double *cw, double *s, double *c)
{
    kernel_op(op, x, n, h, pos0, omega, sw, cw, s, c);
}
#endif

/* Without scratch memory: the float64 formula per element, the same operation on each pair. */
static void kernel_exact(posenc_op op, float *x, long n, int d, double base, long pos0)
{
    size_t h = (size_t)d / 2, st = op == POSENC_ROTATE_HALF ? 1 : 2;
    size_t off = op == POSENC_ROTATE_HALF ? h : 1;
    for (long r = 0; r < n; r++) {
        float *row = x + (size_t)r * (size_t)d;
        for (size_t i = 0; i < h; i++) {
            double a = (double)(pos0 + r) * posenc_omega((int)i, d, base);
            pair_out(row, st * i, st * i + off, sin(a), cos(a), op != POSENC_FILL);
        }
    }
}

void posenc_rows_f32(tf_isa isa, posenc_op op, float *x, long n, int d, double base, long pos0)
{
    size_t h = (size_t)d / 2;
    /* one allocation, five tables of h: omega, sin w_i, cos w_i, and the state sin, cos */
    double *mem = calloc(5 * h, sizeof *mem);
    if (!mem) {
        kernel_exact(op, x, n, d, base, pos0);
        return;
    }
    double *omega = mem, *sw = mem + h, *cw = mem + 2 * h, *s = mem + 3 * h, *c = mem + 4 * h;
    posenc_freqs(d, base, omega);
    for (size_t i = 0; i < h; i++) {
        sw[i] = sin(omega[i]);
        cw[i] = cos(omega[i]);
    }
    if (!tf_isa_supported(isa))
        isa = TF_ISA_DEFAULT;
    switch (isa) {
#if TF_ISA_X86
    case TF_ISA_AVX512:
        kernel_avx512(op, x, n, h, pos0, omega, sw, cw, s, c);
        break;
    case TF_ISA_AVX2:
        kernel_avx2(op, x, n, h, pos0, omega, sw, cw, s, c);
        break;
#endif
    default:
        kernel_default(op, x, n, h, pos0, omega, sw, cw, s, c);
    }
    free(mem);
}

void posenc_fill_f32_isa(tf_isa isa, long pos0, long n, int d, double base, float *out)
{
    posenc_rows_f32(isa, POSENC_FILL, out, n, d, base, pos0);
}

void posenc_fill_f32(long pos0, long n, int d, double base, float *out)
{
    posenc_fill_f32_isa(tf_isa_best(), pos0, n, d, base, out);
}

void posenc_rotation(int i, int d, double base, double k, double m[2][2])
{
    double a = k * posenc_omega(i, d, base);
    double ck = cos(a), sk = sin(a);
    m[0][0] = ck, m[0][1] = sk;
    m[1][0] = -sk, m[1][1] = ck;
}

void posenc_shift(const double *pe, int d, double base, double k, double *out)
{
    for (int i = 0; i < d / 2; i++) {
        double m[2][2];
        posenc_rotation(i, d, base, k, m);
        double x = pe[2 * i], y = pe[2 * i + 1];
        out[2 * i] = m[0][0] * x + m[0][1] * y;
        out[2 * i + 1] = m[1][0] * x + m[1][1] * y;
    }
}

/* The same numbers as posenc_row and posenc_shift per position (the same w_i, sin and cos), with
 * w_i and the rotation by k w_i, which do not depend on pos, computed once instead of per row. */
double posenc_relative_residual(long pos0, long n, int d, double base, long k)
{
    size_t h = (size_t)d / 2;
    double *mem = malloc((3 * (size_t)d + 3 * h) * sizeof *mem);
    if (!mem)
        return NAN;
    double *a = mem, *b = mem + d, *m = mem + 2 * d, *omega = mem + 3 * d, *ck = omega + h,
           *sk = ck + h;
    posenc_freqs(d, base, omega);
    for (size_t i = 0; i < h; i++) {
        double t = (double)k * omega[i];
        ck[i] = cos(t), sk[i] = sin(t);
    }
    double worst = 0.0;
    for (long p = pos0; p + k < pos0 + n; p++) {
        posenc_row_omega((double)p, d, omega, a);
        posenc_row_omega((double)(p + k), d, omega, b);
        for (size_t i = 0; i < h; i++) {
            double x = a[2 * i], y = a[2 * i + 1];
            m[2 * i] = x * ck[i] + y * sk[i];
            m[2 * i + 1] = y * ck[i] - x * sk[i];
        }
        for (int j = 0; j < d; j++)
            worst = fmax(worst, fabs(b[j] - m[j]));
    }
    free(mem);
    return worst;
}

tf_status posenc_gram(long pos0, long n, int d, double base, double *out)
{
    double *pe = calloc((size_t)n * d + (size_t)d / 2 + 1, sizeof *pe); /* (n, d), then w_i */
    if (!pe)
        return TF_ERR_NOMEM;
    double *omega = pe + (size_t)n * d; /* posenc_row's w_i, computed once for all rows */
    posenc_freqs(d, base, omega);
    for (long r = 0; r < n; r++)
        posenc_row_omega((double)(pos0 + r), d, omega, pe + (size_t)r * d);
    for (long p = 0; p < n; p++)
        for (long q = p; q < n; q++) {
            double acc = la_dot(pe + (size_t)p * d, pe + (size_t)q * d, (size_t)d);
            out[p * n + q] = out[q * n + p] = acc;
        }
    free(pe);
    return TF_OK;
}

double posenc_gram_work(double n, double d) { return 1.5 * n * n * d / 2; }

int posenc_split_dim(int c, int d)
{
    return c < d / 2 ? 2 * c : 2 * (c - d / 2) + 1;
}

int posenc_split_col(int j, int d)
{
    return j % 2 ? d / 2 + j / 2 : j / 2;
}

double posenc_dot_offset(double offset, int d, double base)
{
    double acc = 0.0;
    for (int i = 0; i < d / 2; i++)
        acc += cos(offset * posenc_omega(i, d, base));
    return acc;
}

tf_status posenc_trig_sums(const double *a, const double *b, const double *theta, int m,
                           double r0, long n, double *out)
{
    double *mem = malloc((size_t)(m > 0 ? m : 1) * 4 * sizeof *mem);
    if (!mem)
        return TF_ERR_NOMEM;
    double *c = mem, *s = mem + m, *cw = mem + 2 * m, *sw = mem + 3 * m;
    for (int i = 0; i < m; i++) {
        cw[i] = cos(theta[i]);
        sw[i] = sin(theta[i]);
    }
    for (long t0 = 0; t0 < n; t0 += POSENC_ANCHOR) {
        /* 1. anchor: exact cos and sin of r theta_i */
        double r = r0 + (double)t0;
        for (int i = 0; i < m; i++) {
            c[i] = cos(r * theta[i]);
            s[i] = sin(r * theta[i]);
        }
        /* 2. the steps of the segment: sum, then turn every pair by theta_i */
        long t1 = n - t0 < POSENC_ANCHOR ? n : t0 + POSENC_ANCHOR;
        for (long t = t0; t < t1; t++) {
            double acc = 0.0;
            for (int i = 0; i < m; i++) {
                acc += a[i] * c[i] + b[i] * s[i];
                double cn = c[i] * cw[i] - s[i] * sw[i];
                s[i] = s[i] * cw[i] + c[i] * sw[i];
                c[i] = cn;
            }
            out[t] = acc;
        }
    }
    free(mem);
    return TF_OK;
}

tf_status posenc_dot_offsets(long k0, long n, int d, double base, double *out)
{
    int h = d / 2;
    double *mem = malloc((size_t)(h > 0 ? h : 1) * 3 * sizeof *mem);
    if (!mem)
        return TF_ERR_NOMEM;
    double *omega = mem, *ones = mem + h, *zeros = mem + 2 * h;
    posenc_freqs(d, base, omega);
    for (int i = 0; i < h; i++) {
        ones[i] = 1.0;
        zeros[i] = 0.0;
    }
    tf_status st = posenc_trig_sums(ones, zeros, omega, h, (double)k0, n, out);
    free(mem);
    return st;
}

double posenc_min_distance(long pos0, long n, int d, double base, long *p, long *q)
{
    double best = INFINITY;
    long best_k = 1;
    /* posenc_dot_offset with the w_i computed once (the same values) */
    double *omega = malloc(((size_t)d / 2 + 1) * sizeof *omega);
    if (!omega)
        return NAN;
    posenc_freqs(d, base, omega);
    for (long k = 1; k < n; k++) {
        double acc = 0.0;
        for (int i = 0; i < d / 2; i++)
            acc += cos((double)k * omega[i]);
        double d2 = d - 2.0 * acc;
        if (d2 < best) {
            best = d2;
            best_k = k;
        }
    }
    free(omega);
    if (n < 2)
        return NAN;
    if (p)
        *p = pos0;
    if (q)
        *q = pos0 + best_k;
    return sqrt(fmax(best, 0.0));
}
