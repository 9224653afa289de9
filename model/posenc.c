/* posenc.c — sinusoidal positional encoding: reference, fast path, and its properties. */
#include "posenc.h"

#include <math.h>
#include <stdlib.h>

#include "isa.h"

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
 * The fast float32 path.
 *
 * State per pair i, in float64 and in split arrays (so the loops over i vectorise): s_i = sin(a),
 * c_i = cos(a) for the angle a = pos * w_i of the current row. One row further is the angle
 * addition  sin(a + w) = s cos w + c sin w,  cos(a + w) = c cos w - s sin w.  Each step adds a
 * few ulp of float64 (about 1e-16), so after POSENC_ANCHOR steps the drift is still far below
 * the float32 rounding of the output (3e-8); every POSENC_ANCHOR rows the state is re-anchored
 * with exact sin/cos. The float32 stores interleave sin and cos as the formula orders them. */

/* Rows advanced per pass over the pairs. The state is loaded once, turned FILL_ROWS times in
 * registers and stored once, so the float64 tables are read once per FILL_ROWS output rows; one
 * row per pass is bound by L2 bandwidth (the tables are 4 x 8 bytes per pair), eight rows per
 * pass by the output stores. */
#define FILL_ROWS 8 /* the steps written out in advance_rows8 */

/* One step of the recurrence for pair i, stored in output row o<r>:
 *   sin(a + w) = s cos w + c sin w,   cos(a + w) = c cos w - s sin w */
#define FILL_STEP(r)                                                                               \
    do {                                                                                           \
        double s1 = si * cwi + ci * swi, c1 = ci * cwi - si * swi;                                 \
        si = s1;                                                                                   \
        ci = c1;                                                                                   \
        o##r[2 * i] = (float)si;                                                                   \
        o##r[2 * i + 1] = (float)ci;                                                               \
    } while (0)

/* Rows 1 .. FILL_ROWS of out (stride 2h) from the state (s, c), which ends FILL_ROWS positions
 * further. Written out step by step so the compiler vectorises the loop over pairs. */
static inline __attribute__((always_inline)) void
advance_rows8(int h, const double *restrict sw, const double *restrict cw, double *restrict s,
              double *restrict c, float *restrict out)
{
    const size_t rs = 2 * (size_t)h;
    float *restrict o1 = out + rs, *restrict o2 = o1 + rs, *restrict o3 = o2 + rs,
                    *restrict o4 = o3 + rs, *restrict o5 = o4 + rs, *restrict o6 = o5 + rs,
                    *restrict o7 = o6 + rs, *restrict o8 = o7 + rs;
    TF_SIMD
    for (size_t i = 0; i < (size_t)h; i++) {
        double si = s[i], ci = c[i], swi = sw[i], cwi = cw[i];
        FILL_STEP(1);
        FILL_STEP(2);
        FILL_STEP(3);
        FILL_STEP(4);
        FILL_STEP(5);
        FILL_STEP(6);
        FILL_STEP(7);
        FILL_STEP(8);
        s[i] = si;
        c[i] = ci;
    }
}

/* Row 1 of out from the state, one position further. */
static inline __attribute__((always_inline)) void
advance_row1(int h, const double *restrict sw, const double *restrict cw, double *restrict s,
             double *restrict c, float *restrict out)
{
    float *restrict o1 = out + 2 * (size_t)h;
    TF_SIMD
    for (size_t i = 0; i < (size_t)h; i++) {
        double si = s[i], ci = c[i], swi = sw[i], cwi = cw[i];
        FILL_STEP(1);
        s[i] = si;
        c[i] = ci;
    }
}

/* Rows [0, n) of the tile into out (n, 2h), from omega, sin w, cos w and the state s, c (h
 * each). Inlined into each instruction-set variant below. */
static inline __attribute__((always_inline)) void
fill_rows(long pos0, long n, int h, const double *restrict omega, const double *restrict sw,
          const double *restrict cw, double *restrict s, double *restrict c, float *restrict out)
{
    for (long r0 = 0; r0 < n; r0 += POSENC_ANCHOR) {
        long m = n - r0 < POSENC_ANCHOR ? n - r0 : POSENC_ANCHOR;
        float *restrict row = out + (size_t)r0 * 2 * h;
        /* 1. anchor: exact sin/cos of pos * w_i (the compiler pairs them into sincos) */
        double pos = (double)(pos0 + r0);
        for (int i = 0; i < h; i++) {
            double a = pos * omega[i];
            s[i] = sin(a);
            c[i] = cos(a);
        }
        for (int i = 0; i < h; i++) {
            row[2 * i] = (float)s[i];
            row[2 * i + 1] = (float)c[i];
        }
        /* 2. the other rows of the segment, FILL_ROWS per pass, then one by one */
        long r = 1;
        for (; r + FILL_ROWS <= m; r += FILL_ROWS)
            advance_rows8(h, sw, cw, s, c, row + (size_t)(r - 1) * 2 * h);
        for (; r < m; r++)
            advance_row1(h, sw, cw, s, c, row + (size_t)(r - 1) * 2 * h);
    }
}

static void fill_default(long pos0, long n, int h, const double *omega, const double *sw,
                         const double *cw, double *s, double *c, float *out)
{
    fill_rows(pos0, n, h, omega, sw, cw, s, c, out);
}

#if TF_ISA_X86
TF_TARGET_AVX2 static void fill_avx2(long pos0, long n, int h, const double *omega,
                                     const double *sw, const double *cw, double *s, double *c,
                                     float *out)
{
    fill_rows(pos0, n, h, omega, sw, cw, s, c, out);
}

TF_TARGET_AVX512 static void fill_avx512(long pos0, long n, int h, const double *omega,
                                         const double *sw, const double *cw, double *s,
                                         double *c, float *out)
{
    fill_rows(pos0, n, h, omega, sw, cw, s, c, out);
}
#endif

void posenc_fill_f32_isa(tf_isa isa, long pos0, long n, int d, double base, float *out)
{
    int h = d / 2;
    /* one allocation, five tables of h: omega, sin w_i, cos w_i, and the state sin, cos */
    double *mem = malloc(5 * (size_t)h * sizeof *mem);
    if (!mem) { /* fall back to the reference, row by row, without scratch space */
        for (long r = 0; r < n; r++)
            for (int j = 0; j < d; j++)
                out[r * d + j] = (float)posenc_value((double)(pos0 + r), j, d, base);
        return;
    }
    double *omega = mem, *sw = mem + h, *cw = mem + 2 * h, *s = mem + 3 * h, *c = mem + 4 * h;
    posenc_freqs(d, base, omega);
    for (int i = 0; i < h; i++) {
        sw[i] = sin(omega[i]);
        cw[i] = cos(omega[i]);
    }
    if (!tf_isa_supported(isa))
        isa = TF_ISA_DEFAULT;
    switch (isa) {
#if TF_ISA_X86
    case TF_ISA_AVX512:
        fill_avx512(pos0, n, h, omega, sw, cw, s, c, out);
        break;
    case TF_ISA_AVX2:
        fill_avx2(pos0, n, h, omega, sw, cw, s, c, out);
        break;
#endif
    default:
        fill_default(pos0, n, h, omega, sw, cw, s, c, out);
    }
    free(mem);
}

void posenc_fill_f32(long pos0, long n, int d, double base, float *out)
{
    posenc_fill_f32_isa(tf_isa_best(), pos0, n, d, base, out);
}

void posenc_shift(const double *pe, int d, double base, double k, double *out)
{
    for (int i = 0; i < d / 2; i++) {
        double a = k * posenc_omega(i, d, base);
        double ck = cos(a), sk = sin(a);
        double x = pe[2 * i], y = pe[2 * i + 1];
        out[2 * i] = x * ck + y * sk;
        out[2 * i + 1] = y * ck - x * sk;
    }
}

double posenc_relative_residual(long pos0, long n, int d, double base, long k)
{
    double *mem = malloc(3 * (size_t)d * sizeof *mem);
    if (!mem)
        return NAN;
    double *a = mem, *b = mem + d, *m = mem + 2 * d;
    double worst = 0.0;
    for (long p = pos0; p + k < pos0 + n; p++) {
        posenc_row((double)p, d, base, a);
        posenc_row((double)(p + k), d, base, b);
        posenc_shift(a, d, base, (double)k, m);
        for (int j = 0; j < d; j++)
            worst = fmax(worst, fabs(b[j] - m[j]));
    }
    free(mem);
    return worst;
}

tf_status posenc_gram(long pos0, long n, int d, double base, double *out)
{
    double *pe = malloc((size_t)n * d * sizeof *pe); /* (n, d) */
    if (!pe)
        return TF_ERR_NOMEM;
    for (long r = 0; r < n; r++)
        posenc_row((double)(pos0 + r), d, base, pe + (size_t)r * d);
    for (long p = 0; p < n; p++)
        for (long q = p; q < n; q++) {
            const double *x = pe + (size_t)p * d, *y = pe + (size_t)q * d;
            double acc = 0.0;
            for (int j = 0; j < d; j++)
                /* NOLINTNEXTLINE(clang-analyzer-core.UndefinedBinaryOperatorResult): d even */
                acc += x[j] * y[j];
            out[p * n + q] = out[q * n + p] = acc;
        }
    free(pe);
    return TF_OK;
}

double posenc_dot_offset(double offset, int d, double base)
{
    double acc = 0.0;
    for (int i = 0; i < d / 2; i++)
        acc += cos(offset * posenc_omega(i, d, base));
    return acc;
}

double posenc_min_distance(long pos0, long n, int d, double base, long *p, long *q)
{
    double best = INFINITY;
    long best_k = 1;
    for (long k = 1; k < n; k++) {
        double d2 = d - 2.0 * posenc_dot_offset((double)k, d, base);
        if (d2 < best) {
            best = d2;
            best_k = k;
        }
    }
    if (n < 2)
        return NAN;
    if (p)
        *p = pos0;
    if (q)
        *q = pos0 + best_k;
    return sqrt(fmax(best, 0.0));
}
