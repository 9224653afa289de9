/* rope.c — rotary position embedding: both pairings, the relative check, the decay bound. */
#include "rope.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "isa.h"

static const char *const style_names[ROPE_STYLE_COUNT] = {"interleaved", "half"};

const char *rope_style_name(rope_style s)
{
    return (unsigned)s < ROPE_STYLE_COUNT ? style_names[s] : "unknown";
}

rope_style rope_style_parse(const char *name)
{
    for (int s = 0; s < ROPE_STYLE_COUNT; s++)
        if (strcmp(name, style_names[s]) == 0)
            return (rope_style)s;
    return ROPE_STYLE_COUNT;
}

/* theta_i = base^(-2i/d): the one place the RoPE frequency is written. */
static double rope_theta(int i, int d, double base) { return pow(base, -2.0 * i / d); }

void rope_thetas(int d, double base, double *theta)
{
    for (int i = 0; i < d / 2; i++)
        theta[i] = rope_theta(i, d, base);
}

void rope_pair(rope_style s, int d, int i, int *a, int *b)
{
    if (s == ROPE_HALF) {
        *a = i;
        *b = i + d / 2;
    } else {
        *a = 2 * i;
        *b = 2 * i + 1;
    }
}

/* (ya, yb) = (xa, xb) turned by the angle whose cosine and sine are c, sn. */
static inline void turn(double xa, double xb, double c, double sn, double *ya, double *yb)
{
    *ya = xa * c - xb * sn;
    *yb = xa * sn + xb * c;
}

/* Rotate pair (a, b) of x by ang into out (out may equal x). */
static inline void rotate_pair(const double *x, int a, int b, double ang, double *out)
{
    double ya, yb;
    turn(x[a], x[b], cos(ang), sin(ang), &ya, &yb);
    out[a] = ya;
    out[b] = yb;
}

void rope_rotate_thetas(const double *x, int d, const double *theta, double pos, rope_style s,
                        double *out)
{
    for (int i = 0; i < d / 2; i++) {
        int a, b;
        rope_pair(s, d, i, &a, &b);
        rotate_pair(x, a, b, pos * theta[i], out);
    }
}

void rope_rotate(const double *x, int d, double base, double pos, rope_style s, double *out)
{
    for (int i = 0; i < d / 2; i++) {
        int a, b;
        rope_pair(s, d, i, &a, &b);
        rotate_pair(x, a, b, pos * rope_theta(i, d, base), out);
    }
}

/* ---------------------------------------------------------------------------------------------
 * The fast in-place float32 path.
 *
 * No transcendental call per element: the (sin, cos) of m theta_i for the current row are kept in
 * float64 split arrays and advanced one position per row by angle addition,
 *   sin(a + theta) = s cos theta + c sin theta,   cos(a + theta) = c cos theta - s sin theta,
 * and re-anchored with exact sin/cos every ROPE_ANCHOR rows, so the float64 drift (a few ulp per
 * step) stays far below the float32 rounding of the result. The rotation itself is done in
 * float64 and rounded once to float32. */

/* Rows rotated per pass over the pairs: the (sin, cos) state is loaded once, turned ROPE_ROWS
 * times in registers and stored once (see posenc.c, FILL_ROWS). */
#define ROPE_ROWS 8 /* the steps written out in rotate_rows8 */

/* Row r of a pass: advance (si, ci) by theta_i and rotate pair i of row x<r>. Pair i is
 * (a, b) = (st*i, st*i + off): st = 2, off = 1 interleaved; st = 1, off = h half. */
#define ROPE_STEP(r)                                                                               \
    do {                                                                                           \
        double s1 = si * cwi + ci * swi, c1 = ci * cwi - si * swi;                                 \
        si = s1;                                                                                   \
        ci = c1;                                                                                   \
        double a = x##r[st * i], b = x##r[st * i + off];                                          \
        x##r[st * i] = (float)(a * ci - b * si);                                                   \
        x##r[st * i + off] = (float)(a * si + b * ci);                                             \
    } while (0)

/* Rows 1 .. ROPE_ROWS of x (stride 2h), the state ending ROPE_ROWS positions further. */
static inline __attribute__((always_inline)) void
rotate_rows8(size_t h, size_t st, size_t off, const double *restrict sw,
             const double *restrict cw, double *restrict s, double *restrict c, float *restrict x)
{
    const size_t rs = 2 * h;
    float *restrict x1 = x + rs, *restrict x2 = x1 + rs, *restrict x3 = x2 + rs,
                    *restrict x4 = x3 + rs, *restrict x5 = x4 + rs, *restrict x6 = x5 + rs,
                    *restrict x7 = x6 + rs, *restrict x8 = x7 + rs;
    TF_SIMD
    for (size_t i = 0; i < h; i++) {
        double si = s[i], ci = c[i], swi = sw[i], cwi = cw[i];
        ROPE_STEP(1);
        ROPE_STEP(2);
        ROPE_STEP(3);
        ROPE_STEP(4);
        ROPE_STEP(5);
        ROPE_STEP(6);
        ROPE_STEP(7);
        ROPE_STEP(8);
        s[i] = si;
        c[i] = ci;
    }
}

/* Row 1 of x, the state one position further. */
static inline __attribute__((always_inline)) void
rotate_row1(size_t h, size_t st, size_t off, const double *restrict sw, const double *restrict cw,
            double *restrict s, double *restrict c, float *restrict x)
{
    float *restrict x1 = x + 2 * h;
    TF_SIMD
    for (size_t i = 0; i < h; i++) {
        double si = s[i], ci = c[i], swi = sw[i], cwi = cw[i];
        ROPE_STEP(1);
        s[i] = si;
        c[i] = ci;
    }
}

/* Row 0 of x with the state as it is (the anchor row). */
static inline __attribute__((always_inline)) void
rotate_row0(size_t h, size_t st, size_t off, const double *restrict s, const double *restrict c,
            float *restrict x0)
{
    TF_SIMD
    for (size_t i = 0; i < h; i++) {
        double si = s[i], ci = c[i];
        double a = x0[st * i], b = x0[st * i + off];
        x0[st * i] = (float)(a * ci - b * si);
        x0[st * i + off] = (float)(a * si + b * ci);
    }
}

/* Rotate rows [0, n) of x (n, 2h) at positions pos0 + r with pairs (st*i, st*i + off); scratch
 * tables of h each: theta, sin theta, cos theta and the state s, c. */
static inline __attribute__((always_inline)) void
rotate_pairs(float *restrict x, long n, size_t h, size_t st, size_t off, long pos0,
             const double *restrict theta, const double *restrict sw, const double *restrict cw,
             double *restrict s, double *restrict c)
{
    for (long r0 = 0; r0 < n; r0 += ROPE_ANCHOR) {
        long m = n - r0 < ROPE_ANCHOR ? n - r0 : ROPE_ANCHOR;
        float *restrict row = x + (size_t)r0 * 2 * h;
        /* 1. anchor: exact sin/cos of pos * theta_i */
        double pos = (double)(pos0 + r0);
        for (size_t i = 0; i < h; i++) {
            double ang = pos * theta[i];
            s[i] = sin(ang);
            c[i] = cos(ang);
        }
        rotate_row0(h, st, off, s, c, row);
        /* 2. the other rows of the segment, ROPE_ROWS per pass, then one by one */
        long r = 1;
        for (; r + ROPE_ROWS <= m; r += ROPE_ROWS)
            rotate_rows8(h, st, off, sw, cw, s, c, row + (size_t)(r - 1) * 2 * h);
        for (; r < m; r++)
            rotate_row1(h, st, off, sw, cw, s, c, row + (size_t)(r - 1) * 2 * h);
    }
}

/* Both pairings with constant strides, so each is vectorised for its own access pattern. */
static inline __attribute__((always_inline)) void
rotate_rows(float *restrict x, long n, int h, long pos0, rope_style style,
            const double *restrict theta, const double *restrict sw, const double *restrict cw,
            double *restrict s, double *restrict c)
{
    if (style == ROPE_HALF)
        rotate_pairs(x, n, (size_t)h, 1, (size_t)h, pos0, theta, sw, cw, s, c);
    else
        rotate_pairs(x, n, (size_t)h, 2, 1, pos0, theta, sw, cw, s, c);
}

static void rotate_default(float *x, long n, int h, long pos0, rope_style style,
                           const double *theta, const double *sw, const double *cw, double *s,
                           double *c)
{
    rotate_rows(x, n, h, pos0, style, theta, sw, cw, s, c);
}

#if TF_ISA_X86
TF_TARGET_AVX2 static void rotate_avx2(float *x, long n, int h, long pos0, rope_style style,
                                       const double *theta, const double *sw, const double *cw,
                                       double *s, double *c)
{
    rotate_rows(x, n, h, pos0, style, theta, sw, cw, s, c);
}

TF_TARGET_AVX512 static void rotate_avx512(float *x, long n, int h, long pos0, rope_style style,
                                           const double *theta, const double *sw,
                                           const double *cw, double *s, double *c)
{
    rotate_rows(x, n, h, pos0, style, theta, sw, cw, s, c);
}
#endif

/* Without scratch memory: the float64 formula per element. */
static void rotate_slow(float *x, long n, int d, double base, long pos0, rope_style s)
{
    for (long r = 0; r < n; r++) {
        float *row = x + (size_t)r * d;
        double pos = (double)(pos0 + r);
        for (int i = 0; i < d / 2; i++) {
            int a, b;
            rope_pair(s, d, i, &a, &b);
            double ang = pos * rope_theta(i, d, base);
            double c = cos(ang), sn = sin(ang);
            double xa = row[a], xb = row[b];
            row[a] = (float)(xa * c - xb * sn);
            row[b] = (float)(xa * sn + xb * c);
        }
    }
}

void rope_apply_f32_isa(tf_isa isa, float *x, long n, int d, double base, long pos0,
                        rope_style s)
{
    int h = d / 2;
    double *mem = malloc(5 * (size_t)h * sizeof *mem);
    if (!mem) {
        rotate_slow(x, n, d, base, pos0, s);
        return;
    }
    double *theta = mem, *sw = mem + h, *cw = mem + 2 * h, *st = mem + 3 * h, *ct = mem + 4 * h;
    rope_thetas(d, base, theta);
    for (int i = 0; i < h; i++) {
        sw[i] = sin(theta[i]);
        cw[i] = cos(theta[i]);
    }
    if (!tf_isa_supported(isa))
        isa = TF_ISA_DEFAULT;
    switch (isa) {
#if TF_ISA_X86
    case TF_ISA_AVX512:
        rotate_avx512(x, n, h, pos0, s, theta, sw, cw, st, ct);
        break;
    case TF_ISA_AVX2:
        rotate_avx2(x, n, h, pos0, s, theta, sw, cw, st, ct);
        break;
#endif
    default:
        rotate_default(x, n, h, pos0, s, theta, sw, cw, st, ct);
    }
    free(mem);
}

void rope_apply_f32(float *x, long n, int d, double base, long pos0, rope_style s)
{
    rope_apply_f32_isa(tf_isa_best(), x, n, d, base, pos0, s);
}

static double dot(const double *a, const double *b, int d)
{
    double acc = 0.0;
    for (int j = 0; j < d; j++)
        acc += a[j] * b[j];
    return acc;
}

double rope_offset_max_dev(const double *q, const double *k, int d, double base, rope_style s,
                           long npos)
{
    /* rows: theta (d/2), then R_m q for m in [0, npos), R_n k for n in [0, npos), and
     * R_r q for r in (-npos, npos) */
    size_t h = (size_t)d / 2, nq = (size_t)npos, nr = 2 * (size_t)npos - 1;
    double *mem = malloc((h + (2 * nq + nr) * (size_t)d) * sizeof *mem);
    if (!mem)
        return NAN;
    double *theta = mem, *qm = mem + h, *kn = qm + nq * d, *qr = kn + nq * d;
    rope_thetas(d, base, theta);
    for (long m = 0; m < npos; m++) {
        rope_rotate_thetas(q, d, theta, (double)m, s, qm + m * d);
        rope_rotate_thetas(k, d, theta, (double)m, s, kn + m * d);
    }
    for (long r = -(npos - 1); r < npos; r++)
        rope_rotate_thetas(q, d, theta, (double)r, s, qr + (r + npos - 1) * d);
    double worst = 0.0;
    for (long m = 0; m < npos; m++)
        for (long n = 0; n < npos; n++) {
            double lhs = dot(qm + m * d, kn + n * d, d);
            double rhs = dot(qr + (m - n + npos - 1) * d, k, d);
            worst = fmax(worst, fabs(lhs - rhs));
        }
    free(mem);
    return worst;
}

double rope_score_thetas(const double *q, const double *k, int d, const double *theta,
                         rope_style s, double r)
{
    double acc = 0.0;
    for (int i = 0; i < d / 2; i++) {
        int a, b;
        double ya, yb;
        rope_pair(s, d, i, &a, &b);
        turn(q[a], q[b], cos(r * theta[i]), sin(r * theta[i]), &ya, &yb);
        acc += ya * k[a] + yb * k[b];
    }
    return acc;
}

/* The decay bound with theta_i from the table theta, or base^(-2i/d) when theta is NULL. */
static double decay_bound(int d, const double *theta, double base, double r)
{
    double re = 0.0, im = 0.0, acc = 0.0;
    for (int j = 1; j <= d / 2; j++) {
        /* S_j adds the term k = j-1 */
        double ang = r * (theta ? theta[j - 1] : rope_theta(j - 1, d, base));
        re += cos(ang);
        im += sin(ang);
        acc += hypot(re, im);
    }
    return acc / (d / 2.0);
}

double rope_decay_bound(int d, double base, double r) { return decay_bound(d, NULL, base, r); }

double rope_decay_bound_thetas(int d, const double *theta, double r)
{
    return decay_bound(d, theta, 0.0, r);
}
