/* test_alibi.c — ALiBi's slopes against the paper's closed forms and its rule for head counts
 * that are not powers of two, the bias matrices, and why adding m j (the reference code) is the
 * same attention as -m (i - j). */
#include <stdlib.h>

#include "alibi.h"
#include "check.h"

static void test_slopes_powers_of_two(void **state)
{
    (void)state;
    double m[256], want[256];
    /* H = 8: 1/2, 1/4, ..., 1/256, exactly */
    assert_int_equal(alibi_slopes(8, m), TF_OK);
    for (int h = 0; h < 8; h++)
        want[h] = ldexp(1.0, -(h + 1));
    check_max_diff("H = 8", m, want, 8, 0.0);
    /* H = 16, 64, 1: 2^(-8h/H) */
    const int hs[] = {1, 2, 4, 16, 64, 256};
    for (size_t k = 0; k < sizeof hs / sizeof hs[0]; k++) {
        int H = hs[k];
        assert_int_equal(alibi_slopes(H, m), TF_OK);
        for (int h = 0; h < H; h++)
            want[h] = pow(2.0, -8.0 * (h + 1) / H);
        check_max_diff("2^(-8h/H)", m, want, (size_t)H, 1e-15);
    }
}

static void test_slopes_other_counts(void **state)
{
    (void)state;
    double m[16];
    /* H = 12: the 8 slopes of 8 heads, then slopes 1, 3, 5, 7 of 16 heads: 2^-0.5 ... 2^-3.5 */
    assert_int_equal(alibi_slopes(12, m), TF_OK);
    const double want12[12] = {0.5,          0.25,         0.125,        0.0625,
                               0.03125,      0.015625,     0.0078125,    0.00390625,
                               pow(2, -0.5), pow(2, -1.5), pow(2, -2.5), pow(2, -3.5)};
    check_max_diff("H = 12", m, want12, 12, 1e-16);
    /* H = 6: 4 heads' 2^-2, 2^-4, 2^-6, 2^-8, then 8 heads' 2^-1, 2^-3 */
    assert_int_equal(alibi_slopes(6, m), TF_OK);
    const double want6[6] = {0.25, 0.0625, 0.015625, 0.00390625, 0.5, 0.125};
    check_max_diff("H = 6", m, want6, 6, 0.0);
    /* H = 3: 2^-4 of 2 heads... then 2^-2 of 4 heads */
    assert_int_equal(alibi_slopes(3, m), TF_OK);
    const double want3[3] = {pow(2, -4), pow(2, -8), pow(2, -2)};
    check_max_diff("H = 3", m, want3, 3, 0.0);
    assert_int_equal(alibi_slopes(0, m), TF_ERR_RANGE);
    assert_int_equal(alibi_slopes(257, m), TF_ERR_RANGE);
}

static void test_bias(void **state)
{
    (void)state;
    enum { H = 3, N = 5 };
    double m[H], causal[H * N * N], sym[H * N * N];
    assert_int_equal(alibi_slopes(H, m), TF_OK);
    assert_int_equal(alibi_bias(m, H, N, SCHEME_MASK_CAUSAL, causal), TF_OK);
    assert_int_equal(alibi_bias(m, H, N, SCHEME_MASK_SYMMETRIC, sym), TF_OK);
    for (int h = 0; h < H; h++)
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++) {
                double c = causal[(h * N + i) * N + j], s = sym[(h * N + i) * N + j];
                if (j <= i)
                    assert_true(c == -m[h] * (i - j));
                else
                    assert_true(isinf(c) && c < 0);
                assert_true(s == -m[h] * abs(i - j));
                assert_true(s == sym[(h * N + j) * N + i]);
            }
    assert_true(alibi_bias_at(0.5, 4, SCHEME_MASK_CAUSAL) == -2.0);
    assert_false(signbit(alibi_bias_at(0.5, 0, SCHEME_MASK_CAUSAL))); /* +0, printed "0" */
    assert_true(alibi_bias_at(0.5, -4, SCHEME_MASK_SYMMETRIC) == -2.0);
    assert_true(isinf(alibi_bias_at(0.5, -1, SCHEME_MASK_CAUSAL)));
    assert_int_equal(alibi_bias(m, H, 0, SCHEME_MASK_CAUSAL, causal), TF_ERR_POSITIONS);
    assert_int_equal(alibi_bias(m, 0, N, SCHEME_MASK_CAUSAL, causal), TF_ERR_RANGE);
    assert_int_equal(alibi_bias(m, 256, 4096, SCHEME_MASK_CAUSAL, NULL), TF_ERR_TOO_BIG);
}

/* The reference code adds m * j to row i; the paper writes -m (i - j). Softmax over the visible
 * keys j <= i is the same for both: they differ by m * i along the row. */
static void test_reference_form_same_attention(void **state)
{
    (void)state;
    const double m = 0.25, q_k[6] = {0.3, -1.2, 0.8, 0.1, 2.0, -0.4};
    for (int i = 0; i < 6; i++) {
        double a[6], b[6], za = 0, zb = 0;
        for (int j = 0; j <= i; j++) {
            a[j] = exp(q_k[j] + alibi_bias_at(m, i - j, SCHEME_MASK_CAUSAL));
            b[j] = exp(q_k[j] + m * j);
            za += a[j];
            zb += b[j];
        }
        for (int j = 0; j <= i; j++)
            assert_close(a[j] / za, b[j] / zb, 1e-15);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_slopes_powers_of_two),
        cmocka_unit_test(test_slopes_other_counts),
        cmocka_unit_test(test_bias),
        cmocka_unit_test(test_reference_form_same_attention),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
