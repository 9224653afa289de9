/* test_pca.c — the 2-D map: points on a known plane come back with the plane's variances and
 * their distances, against closed-form values. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "pca.h"

/* Points p_i = a_i e1 + b_i e2 + m in D dimensions with orthonormal e1 = (1, 1, ...) / sqrt(D),
 * e2 = (1, -1, 1, ...) / sqrt(D): the leading components are e1 and e2 (var(a) > var(b)), the
 * projection is (a_i - mean a, b_i - mean b) up to sign. D = 4 forms the 4 x 4 covariance;
 * D = 16384 (more dimensions than rows) never forms it: a 2 GiB matrix before issue 21. */
static void check_plane(int D)
{
    enum { N = 6 };
    const double a[N] = {-2, -1, 0, 1, 2, 0}, b[N] = {1, -1, 0, -1, 1, 0}; /* cov(a, b) = 0 */
    float *x = malloc((size_t)N * (size_t)D * sizeof *x);
    double *e1 = malloc((size_t)D * sizeof *e1), *e2 = malloc((size_t)D * sizeof *e2);
    double *m = malloc((size_t)D * sizeof *m);
    assert_non_null(x), assert_non_null(e1), assert_non_null(e2), assert_non_null(m);
    for (int j = 0; j < D; j++) {
        e1[j] = 1 / sqrt(D);
        e2[j] = (j % 2 ? -1 : 1) / sqrt(D);
        m[j] = 10 - 2.5 * (j % 5);
    }
    double ma = 0, mb = 0;
    for (int i = 0; i < N; i++) {
        ma += a[i] / N;
        mb += b[i] / N;
        for (int j = 0; j < D; j++)
            x[(size_t)i * D + j] = (float)(a[i] * e1[j] + b[i] * e2[j] + m[j]);
    }
    double va = 0, vb = 0;
    for (int i = 0; i < N; i++) {
        va += (a[i] - ma) * (a[i] - ma) / N;
        vb += (b[i] - mb) * (b[i] - mb) / N;
    }
    double out[N * 2];
    pca_result r;
    assert_int_equal(pca_project2(x, N, D, out, &r), TF_OK);
    assert_close(r.var[0], va, 1e-4);
    assert_close(r.var[1], vb, 1e-4);
    assert_close(r.var_total, va + vb, 1e-4);
    double s1 = out[0] * (a[0] - ma) > 0 ? 1 : -1, s2 = out[1] * (b[0] - mb) > 0 ? 1 : -1;
    for (int i = 0; i < N; i++) {
        assert_close(out[2 * i], s1 * (a[i] - ma), 1e-4);
        assert_close(out[2 * i + 1], s2 * (b[i] - mb), 1e-4);
    }
    /* orientation rule: the largest-magnitude component of each axis is positive */
    for (int k = 0; k < 2; k++) {
        int big = 0;
        for (int j = 1; j < D; j++)
            if (fabs(r.axes[(size_t)k * D + j]) > fabs(r.axes[(size_t)k * D + big]))
                big = j;
        assert_true(r.axes[(size_t)k * D + big] > 0);
    }
    pca_free(&r);
    assert_int_equal(pca_project2(x, 1, D, out, NULL), TF_ERR_RANGE);
    free(x), free(e1), free(e2), free(m);
}

static void test_plane(void **state)
{
    (void)state;
    check_plane(4);
}

static void test_plane_wide(void **state)
{
    (void)state;
    check_plane(16384);
}

/* Identical rows: no variance at all, and no NaN. */
static void test_identical(void **state)
{
    (void)state;
    const float x[6] = {1, 2, 3, 1, 2, 3};
    double out[4];
    pca_result r;
    assert_int_equal(pca_project2(x, 2, 3, out, &r), TF_OK);
    assert_true(r.var[0] == 0 && r.var[1] == 0 && r.var_total == 0);
    for (int i = 0; i < 4; i++)
        assert_true(out[i] == 0);
    pca_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plane),
        cmocka_unit_test(test_plane_wide),
        cmocka_unit_test(test_identical),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
