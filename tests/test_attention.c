/* test_attention.c — softmax rows sum to 1, a hand-checked projection, and the order experiment:
 * without positions attention is permutation-equivariant (C6); with PE or RoPE it is not. */
#include <stdlib.h>
#include <string.h>

#include "attention.h"
#include "check.h"
#include "rng.h"

static tf_attn_cfg cfg(int d)
{
    return (tf_attn_cfg){.seed = 42, .d = d, .base = 10000, .style = ROPE_INTERLEAVED, .pos0 = 0};
}

static void fill(double *x, size_t n, double phase)
{
    for (size_t i = 0; i < n; i++)
        x[i] = sin(0.731 * (double)i + phase) * 0.5;
}

static void test_projection_by_hand(void **state)
{
    (void)state;
    tf_attn_cfg c = cfg(4);
    double x[8], out[8];
    fill(x, 8, 0.3);
    attention_project(&c, RNG_STREAM_WQ, x, 2, out);
    /* out[t][j] = sum_i x[t][i] W[i][j] with W's rows from the generator */
    float w[4][4];
    for (int i = 0; i < 4; i++)
        rng_fill_uniform(rng_row_key(42, RNG_STREAM_WQ, (uint64_t)i), 4, (float)sqrt(3.0 / 4),
                         w[i]);
    double want[8] = {0};
    for (int t = 0; t < 2; t++)
        for (int j = 0; j < 4; j++)
            for (int i = 0; i < 4; i++)
                want[t * 4 + j] += x[t * 4 + i] * w[i][j];
    check_max_diff("x W_Q", out, want, 8, 1e-15);
}

static void test_softmax_rows(void **state)
{
    (void)state;
    enum { T = 5, D = 16 };
    tf_attn_cfg c = cfg(D);
    double x[T * D], A[T * T], Z[T * D];
    fill(x, T * D, 1.0);
    assert_int_equal(attention_forward(&c, x, T, 0, A, Z), TF_OK);
    for (int t = 0; t < T; t++) {
        double s = 0;
        for (int u = 0; u < T; u++) {
            assert_true(A[t * T + u] > 0);
            s += A[t * T + u];
        }
        assert_close(s, 1.0, 1e-12);
    }
}

static void test_order_experiment(void **state)
{
    (void)state;
    enum { T = 4, D = 64 };
    tf_attn_cfg c = cfg(D);
    double emb[T * D];
    fill(emb, T * D, 0.1);
    size_t perm[T] = {2, 3, 1, 0}; /* 我爱学习 -> 学习爱我 */
    tf_order_result r[ATTN_MODE_COUNT];
    for (int m = 0; m < ATTN_MODE_COUNT; m++)
        assert_int_equal(attention_order(&c, (attn_mode)m, emb, perm, T, &r[m]), TF_OK);
    /* without PE: equivariant, so matched tokens get the same output */
    assert_true(r[ATTN_NO_PE].max_token_diff < 1e-6);
    assert_true(r[ATTN_NO_PE].pooled_diff < 1e-6);
    /* and the attention matrix of b is a's with rows and columns permuted */
    for (int t = 0; t < T; t++)
        for (int u = 0; u < T; u++)
            assert_close(r[ATTN_NO_PE].A_b[t * T + u],
                               r[ATTN_NO_PE].A_a[perm[t] * T + perm[u]], 1e-12);
    /* with positions the order shows */
    assert_true(r[ATTN_WITH_PE].max_token_diff > 1e-3);
    assert_true(r[ATTN_WITH_ROPE].max_token_diff > 1e-4);
    for (int m = 0; m < ATTN_MODE_COUNT; m++)
        attention_order_free(&r[m]);
}

static void test_identity_permutation(void **state)
{
    (void)state;
    enum { T = 3, D = 8 };
    tf_attn_cfg c = cfg(D);
    double emb[T * D];
    fill(emb, T * D, 2.0);
    size_t perm[T] = {0, 1, 2};
    tf_order_result r;
    assert_int_equal(attention_order(&c, ATTN_WITH_PE, emb, perm, T, &r), TF_OK);
    assert_close(r.max_token_diff, 0.0, 0);
    attention_order_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_projection_by_hand),
        cmocka_unit_test(test_softmax_rows),
        cmocka_unit_test(test_order_experiment),
        cmocka_unit_test(test_identity_permutation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
