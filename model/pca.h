/* pca.h — a 2-D map of an embedding space: the projection onto the two leading principal
 * components.
 *
 * For rows x_i (n, d): centre them, take the covariance C = X^T X / n (d x d; formed only when
 * d <= n, else applied as sum r_i (r_i . v) / n, so memory is O(n d) in every case), find its two
 * leading eigenvectors by power iteration with deflation, and return p_i = ((x_i - mean) . e1,
 * (x_i - mean) . e2). Each axis is oriented so that its largest-magnitude component is
 * positive, so maps drawn from one training step to the next do not flip at random. */
#ifndef TF_PCA_H
#define TF_PCA_H

#include <stddef.h>

#include "status.h"

typedef struct {
    double *axes;      /* (2, d) unit eigenvectors e1, e2 */
    double var[2];     /* their eigenvalues: variance along each axis */
    double var_total;  /* trace of C: the total variance */
    int iterations[2]; /* power iterations used per axis */
} pca_result;

/* Project the n rows of x (n, d) into out (n, 2). res may be NULL; when given, res->axes is
 * allocated and freed with pca_free. TF_ERR_RANGE for n < 2 or d < 2, TF_ERR_NOMEM. */
tf_status pca_project2(const float *x /* (n, d) */, size_t n, int d, double *out /* (n, 2) */,
                       pca_result *res);
void pca_free(pca_result *res);

#endif
