/* pca.c — the two leading principal components by power iteration on the covariance, in
 * O(n d) memory. */
#include "pca.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "linalg.h"

#define PCA_MAX_ITER 1000
#define PCA_TOL      1e-12

/* The covariance C = sum (x_i - m)(x_i - m)^T / n, applied to vectors. With d <= n it is formed
 * (d x d, no more memory than the n x d rows); with d > n it is never formed: C v is
 * sum r_i (r_i . v) / n over the centred rows r_i, 2 n d multiply-adds and O(d) memory, so a
 * few rows of 16,384 dimensions cost kilobytes, not the 2 GiB of a 16,384^2 matrix. After the
 * first axis, C is deflated: C v - l1 e1 (e1 . v). */
typedef struct {
    const float *x;     /* (n, d) rows */
    size_t n, d;
    const double *mean; /* (d) */
    double *c;          /* (d, d) when formed, else NULL */
    const double *e1;   /* the first axis once found, for the deflation */
    double l1;
} cov;

/* y = C v */
static void cov_apply(const cov *k, const double *v, double *y)
{
    size_t D = k->d;
    if (k->c) {
        for (size_t i = 0; i < D; i++)
            y[i] = la_dot(k->c + i * D, v, D);
    } else {
        memset(y, 0, D * sizeof *y);
        for (size_t i = 0; i < k->n; i++) {
            const float *xi = k->x + i * D;
            double s = 0;
            for (size_t j = 0; j < D; j++)
                s += (xi[j] - k->mean[j]) * v[j];
            s /= (double)k->n;
            for (size_t j = 0; j < D; j++)
                y[j] += s * (xi[j] - k->mean[j]);
        }
    }
    if (k->e1) {
        double s = k->l1 * la_dot(k->e1, v, D);
        for (size_t j = 0; j < D; j++)
            y[j] -= s * k->e1[j];
    }
}

static double normalise(double *x, int d)
{
    double s = la_norm(x, (size_t)d);
    if (s > 0)
        for (int i = 0; i < d; i++)
            x[i] /= s;
    return s;
}

/* Leading eigenvector of C into e (unit), its eigenvalue returned. A fixed start (not random)
 * with every component non-zero keeps the result deterministic. */
static double power(const cov *k, int d, double *e, double *tmp, int *iters)
{
    for (int i = 0; i < d; i++)
        e[i] = 1.0 + 0.01 * i;
    normalise(e, d);
    double lambda = 0;
    int it;
    for (it = 0; it < PCA_MAX_ITER; it++) {
        cov_apply(k, e, tmp);
        if (k->e1) { /* the second axis stays orthogonal to the first, whatever the rounding */
            double s = la_dot(k->e1, tmp, (size_t)d);
            for (int i = 0; i < d; i++)
                tmp[i] -= s * k->e1[i];
        }
        double l = normalise(tmp, d);
        double diff = 0;
        for (int i = 0; i < d; i++)
            diff += fabs(tmp[i] - e[i]);
        memcpy(e, tmp, (size_t)d * sizeof *e);
        lambda = l;
        if (l == 0 || diff < PCA_TOL * d)
            break;
    }
    *iters = it + 1;
    /* orientation: the largest-magnitude component positive */
    int big = 0;
    for (int i = 1; i < d; i++)
        if (fabs(e[i]) > fabs(e[big]))
            big = i;
    if (e[big] < 0)
        for (int i = 0; i < d; i++)
            e[i] = -e[i];
    return lambda;
}

tf_status pca_project2(const float *x, size_t n, int d, double *out, pca_result *res)
{
    if (n < 2 || d < 2)
        return TF_ERR_RANGE;
    size_t D = (size_t)d;
    bool form = D <= n; /* the d x d matrix is no larger than the rows themselves */
    double *mean = calloc(D, sizeof *mean);
    double *c = form ? calloc(D * D, sizeof *c) : NULL;
    double *axes = malloc(2 * D * sizeof *axes);
    double *tmp = malloc(D * sizeof *tmp);
    double *row = malloc(D * sizeof *row);
    if (!mean || (form && !c) || !axes || !tmp || !row) {
        free(mean), free(c), free(axes), free(tmp), free(row);
        return TF_ERR_NOMEM;
    }
    /* 1. the mean, the total variance (the trace of C) and, when formed, C itself (upper
     * triangle, then mirrored) */
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < D; j++)
            mean[j] += x[i * D + j];
    for (size_t j = 0; j < D; j++)
        mean[j] /= (double)n;
    double trace = 0;
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < D; j++) {
            row[j] = x[i * D + j] - mean[j];
            trace += row[j] * row[j];
        }
        if (form)
            for (size_t a = 0; a < D; a++)
                for (size_t b = a; b < D; b++)
                    c[a * D + b] += row[a] * row[b];
    }
    trace /= (double)n;
    if (form)
        for (size_t a = 0; a < D; a++)
            for (size_t b = a; b < D; b++) {
                c[a * D + b] /= (double)n;
                c[b * D + a] = c[a * D + b];
            }
    /* 2. e1, then e2 of the deflated C - l1 e1 e1^T */
    cov k = {.x = x, .n = n, .d = D, .mean = mean, .c = c};
    int it[2];
    double l1 = power(&k, d, axes, tmp, &it[0]);
    k.e1 = axes;
    k.l1 = l1;
    double l2 = power(&k, d, axes + D, tmp, &it[1]);
    /* a second axis whose variance is rounding alone (two points, or points on one line) holds
     * nothing: its coordinates are 0, not noise blown up to fill a plot's axis */
    bool flat = !(l2 > 1e-12 * trace);
    if (flat)
        l2 = 0;
    /* 3. project */
    for (size_t i = 0; i < n; i++) {
        double p0 = 0, p1 = 0;
        for (size_t j = 0; j < D; j++) {
            double v = x[i * D + j] - mean[j];
            p0 += v * axes[j];
            p1 += v * axes[D + j];
        }
        out[2 * i] = p0;
        out[2 * i + 1] = flat ? 0 : p1;
    }
    if (res) {
        res->axes = axes;
        res->var[0] = l1;
        res->var[1] = l2;
        res->var_total = trace;
        res->iterations[0] = it[0];
        res->iterations[1] = it[1];
    } else {
        free(axes);
    }
    free(mean), free(c), free(tmp), free(row);
    return TF_OK;
}

void pca_free(pca_result *res)
{
    if (res) {
        free(res->axes);
        res->axes = NULL;
    }
}
