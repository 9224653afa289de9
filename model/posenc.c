/* posenc.c — sinusoidal positional encoding: reference, fast path, and its properties. */
#include "posenc.h"

#include <math.h>
#include <stdlib.h>

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

void posenc_fill_f32(long pos0, long n, int d, double base, float *out)
{
    int h = d / 2;
    /* one allocation, four tables of h: current sin, current cos, sin w_i, cos w_i */
    double *mem = malloc(4 * (size_t)h * sizeof *mem);
    if (!mem) { /* fall back to the reference, row by row, without scratch space */
        for (long r = 0; r < n; r++)
            for (int j = 0; j < d; j++)
                out[r * d + j] = (float)posenc_value((double)(pos0 + r), j, d, base);
        return;
    }
    double *s = mem, *c = mem + h, *sw = mem + 2 * h, *cw = mem + 3 * h;
    for (int i = 0; i < h; i++) {
        double w = posenc_omega(i, d, base);
        sw[i] = sin(w);
        cw[i] = cos(w);
    }
    for (long r = 0; r < n; r++) {
        float *row = out + (size_t)r * d;
        if (r % POSENC_ANCHOR == 0) {
            /* 1. anchor: exact sin/cos of pos * w_i */
            for (int i = 0; i < h; i++) {
                double a = (double)(pos0 + r) * posenc_omega(i, d, base);
                s[i] = sin(a);
                c[i] = cos(a);
            }
        } else {
            /* 2. advance: sin(a+w) = s cw + c sw, cos(a+w) = c cw - s sw */
            for (int i = 0; i < h; i++) {
                double s1 = s[i] * cw[i] + c[i] * sw[i];
                double c1 = c[i] * cw[i] - s[i] * sw[i];
                s[i] = s1;
                c[i] = c1;
            }
        }
        for (int i = 0; i < h; i++) {
            row[2 * i] = (float)s[i];
            row[2 * i + 1] = (float)c[i];
        }
    }
    free(mem);
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
