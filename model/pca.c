/* pca.c — the two leading principal components by power iteration on the covariance. */
#include "pca.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "linalg.h"

#define PCA_MAX_ITER 1000
#define PCA_TOL      1e-12

/* y = C x for the symmetric (d, d) matrix C */
static void matvec(const double *c, const double *x, double *y, int d)
{
    for (int i = 0; i < d; i++) {
        double s = 0;
        for (int j = 0; j < d; j++)
            s += c[(size_t)i * d + j] * x[j];
        y[i] = s;
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

/* Leading eigenvector of c into e (unit), its eigenvalue returned. A fixed start (not random)
 * with every component non-zero keeps the result deterministic. */
static double power(const double *c, int d, double *e, double *tmp, int *iters)
{
    for (int i = 0; i < d; i++)
        e[i] = 1.0 + 0.01 * i;
    normalise(e, d);
    double lambda = 0;
    int it;
    for (it = 0; it < PCA_MAX_ITER; it++) {
        matvec(c, e, tmp, d);
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
    double *mean = calloc(D, sizeof *mean);
    double *c = calloc(D * D, sizeof *c);
    double *axes = malloc(2 * D * sizeof *axes);
    double *tmp = malloc(D * sizeof *tmp);
    double *row = malloc(D * sizeof *row);
    if (!mean || !c || !axes || !tmp || !row) {
        free(mean), free(c), free(axes), free(tmp), free(row);
        return TF_ERR_NOMEM;
    }
    /* 1. mean and covariance C = sum (x - m)(x - m)^T / n (upper triangle, then mirrored) */
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < D; j++)
            mean[j] += x[i * D + j];
    for (size_t j = 0; j < D; j++)
        mean[j] /= (double)n;
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < D; j++)
            row[j] = x[i * D + j] - mean[j];
        for (size_t a = 0; a < D; a++)
            for (size_t b = a; b < D; b++)
                c[a * D + b] += row[a] * row[b];
    }
    double trace = 0;
    for (size_t a = 0; a < D; a++) {
        for (size_t b = a; b < D; b++) {
            c[a * D + b] /= (double)n;
            c[b * D + a] = c[a * D + b];
        }
        trace += c[a * D + a];
    }
    /* 2. e1, then deflate C -= l1 e1 e1^T and find e2 */
    int it[2];
    double l1 = power(c, d, axes, tmp, &it[0]);
    for (size_t a = 0; a < D; a++)
        for (size_t b = 0; b < D; b++)
            c[a * D + b] -= l1 * axes[a] * axes[b];
    double l2 = power(c, d, axes + D, tmp, &it[1]);
    /* 3. project */
    for (size_t i = 0; i < n; i++) {
        double p0 = 0, p1 = 0;
        for (size_t j = 0; j < D; j++) {
            double v = x[i * D + j] - mean[j];
            p0 += v * axes[j];
            p1 += v * axes[D + j];
        }
        out[2 * i] = p0;
        out[2 * i + 1] = p1;
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
