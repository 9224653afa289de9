/* linalg.h — the few vector operations the model and its front-ends share: dot products,
 * Euclidean norms and the cosine of two vectors.
 *
 * Everything is accumulated in float64 in index order, so the same vectors give the same bits
 * wherever the operation is used (a cosine on screen is the cosine printed). The training
 * kernel's single-precision dot product (word2vec.c) is a different operation on purpose: it
 * keeps eight partial sums in float32 registers for speed. */
#ifndef TF_LINALG_H
#define TF_LINALG_H

#include <math.h>
#include <stddef.h>

/* a . b = sum_j a_j b_j */
static inline double la_dot(const double *a, const double *b, size_t n)
{
    double s = 0.0;
    for (size_t j = 0; j < n; j++)
        s += a[j] * b[j];
    return s;
}

/* a . b summed in four interleaved parts (then added): the same products in another order,
 * about four times as fast where a loop computes many of them (a Gram matrix), as the parts do
 * not wait for each other */
static inline double la_dot4(const double *a, const double *b, size_t n)
{
    double s[4] = {0.0, 0.0, 0.0, 0.0};
    size_t j = 0;
    for (; j + 4 <= n; j += 4)
        for (int k = 0; k < 4; k++)
            s[k] += a[j + k] * b[j + k];
    for (; j < n; j++)
        s[0] += a[j] * b[j];
    return (s[0] + s[1]) + (s[2] + s[3]);
}

/* Four dot products at once, a_i . b_i with a_i = a + i a_step and b_i = b + i b_step (i < 4),
 * each summed exactly as la_dot4 sums it (the same bits): the four sums interleaved, so that
 * sixteen parts add at once where la_dot4's four wait for each other. */
static inline void la_dot4_x4(const double *a, size_t a_step, const double *b, size_t b_step,
                              size_t n, double out[4])
{
    double s[4][4] = {{0.0}};
    size_t j = 0;
    for (; j + 4 <= n; j += 4)
#pragma GCC unroll 4
        for (int i = 0; i < 4; i++)
#pragma GCC unroll 4
            for (int k = 0; k < 4; k++)
                s[i][k] += a[i * a_step + j + k] * b[i * b_step + j + k];
    for (; j < n; j++)
        for (int i = 0; i < 4; i++)
            s[i][0] += a[i * a_step + j] * b[i * b_step + j];
    for (int i = 0; i < 4; i++)
        out[i] = (s[i][0] + s[i][1]) + (s[i][2] + s[i][3]);
}

/* a . b for float32 vectors, each product and the sum in float64 */
static inline double la_dot_f(const float *a, const float *b, size_t n)
{
    double s = 0.0;
    for (size_t j = 0; j < n; j++)
        s += (double)a[j] * b[j];
    return s;
}

/* |a| = sqrt(a . a) */
static inline double la_norm(const double *a, size_t n)
{
    return sqrt(la_dot(a, a, n));
}
static inline double la_norm_f(const float *a, size_t n)
{
    return sqrt(la_dot_f(a, a, n));
}

/* cos(a, b) = a . b / (|a| |b|) from the dot product and the two norms; 0 when either vector
 * has zero length (it points nowhere, so it is like nothing). */
static inline double la_cosine_of(double ab, double norm_a, double norm_b)
{
    return norm_a > 0 && norm_b > 0 ? ab / (norm_a * norm_b) : 0.0;
}

static inline double la_cosine_f(const float *a, const float *b, size_t n)
{
    return la_cosine_of(la_dot_f(a, b, n), la_norm_f(a, n), la_norm_f(b, n));
}

#endif
