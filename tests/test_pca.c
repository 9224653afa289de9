/* test_pca.c — the 2-D map: points on a known plane come back with the plane's variances and
 * their distances, against closed-form values. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "pca.h"

/* Points p_i = a_i e1 + b_i e2 + m in 4-D with orthonormal e1, e2: the leading components are
 * e1 and e2 (var(a) > var(b)), the projection is (a_i - mean a, b_i - mean b) up to sign. */
static void test_plane(void **state)
{
    (void)state;
    enum { N = 6, D = 4 };
    const double e1[D] = {0.5, 0.5, 0.5, 0.5}, e2[D] = {0.5, -0.5, 0.5, -0.5};
    const double a[N] = {-2, -1, 0, 1, 2, 0}, b[N] = {1, -1, 0, -1, 1, 0}; /* cov(a, b) = 0 */
    const double m[D] = {10, -2, 3, 0.5};
    float x[N * D];
    double ma = 0, mb = 0;
    for (int i = 0; i < N; i++) {
        ma += a[i] / N;
        mb += b[i] / N;
        for (int j = 0; j < D; j++)
            x[i * D + j] = (float)(a[i] * e1[j] + b[i] * e2[j] + m[j]);
    }
    double va = 0, vb = 0;
    for (int i = 0; i < N; i++) {
        va += (a[i] - ma) * (a[i] - ma) / N;
        vb += (b[i] - mb) * (b[i] - mb) / N;
    }
    double out[N * 2];
    pca_result r;
    assert_int_equal(pca_project2(x, N, D, out, &r), TF_OK);
    assert_close(r.var[0], va, 1e-5);
    assert_close(r.var[1], vb, 1e-5);
    assert_close(r.var_total, va + vb, 1e-5);
    double s1 = out[0] * (a[0] - ma) > 0 ? 1 : -1, s2 = out[1] * (b[0] - mb) > 0 ? 1 : -1;
    for (int i = 0; i < N; i++) {
        assert_close(out[2 * i], s1 * (a[i] - ma), 1e-5);
        assert_close(out[2 * i + 1], s2 * (b[i] - mb), 1e-5);
    }
    /* orientation rule: the largest-magnitude component of each axis is positive */
    for (int k = 0; k < 2; k++) {
        int big = 0;
        for (int j = 1; j < D; j++)
            if (fabs(r.axes[k * D + j]) > fabs(r.axes[k * D + big]))
                big = j;
        assert_true(r.axes[k * D + big] > 0);
    }
    pca_free(&r);
    assert_int_equal(pca_project2(x, 1, D, out, NULL), TF_ERR_RANGE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plane),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
