/* test_t5bias.c — T5's relative position buckets at hand-computed distances (the reference
 * function over -200..200 is in schemes_reference_test.py), the bucket and bias matrices, the
 * seeded table. */
#include <stdlib.h>

#include "check.h"
#include "t5bias.h"

static void test_buckets_by_hand(void **state)
{
    (void)state;
    t5_buckets_cfg c;
    t5_buckets_defaults(&c);
    assert_int_equal(c.num_buckets, 32);
    assert_int_equal(c.max_distance, 128);
    assert_true(c.bidirectional);
    assert_int_equal(t5_buckets_check(&c), TF_OK);
    /* bidirectional: 16 buckets a side, 8 exact; beyond, 8 + int(ln(n/8) / ln 16 * 8) */
    const long r[] = {0,   -1,  -7,   -8,      -11, -12, -16, -22, -23, -32,   -64,
                      -90, -91, -128, -100000, 1,   7,   8,   12,  128, 100000};
    const int want[] = {0,  1,  7,  8,  8,  9,  10, 10, 11, 12, 14,
                        14, 15, 15, 15, 17, 23, 24, 25, 31, 31};
    for (size_t k = 0; k < sizeof r / sizeof r[0]; k++)
        if (t5_bucket(&c, r[k]) != want[k])
            fail_msg("r = %ld: bucket %d, want %d", r[k], t5_bucket(&c, r[k]), want[k]);
    /* unidirectional: 32 buckets for the past, 16 exact; every future key in bucket 0 */
    c.bidirectional = false;
    assert_int_equal(t5_bucket(&c, 5), 0);
    assert_int_equal(t5_bucket(&c, 0), 0);
    assert_int_equal(t5_bucket(&c, -15), 15);
    assert_int_equal(t5_bucket(&c, -16), 16);
    assert_int_equal(t5_bucket(&c, -112), 30);
    assert_int_equal(t5_bucket(&c, -113), 31);
    assert_int_equal(t5_bucket(&c, -1000000), 31);
    /* buckets never decrease with the distance */
    for (int bi = 0; bi < 2; bi++) {
        c.bidirectional = bi;
        for (long n = 1; n < 3000; n++)
            assert_true(t5_bucket(&c, -n) >= t5_bucket(&c, -(n - 1)));
    }
}

static void test_check(void **state)
{
    (void)state;
    t5_buckets_cfg c = {.num_buckets = 2, .max_distance = 128, .bidirectional = true};
    assert_int_equal(t5_buckets_check(&c), TF_ERR_RANGE); /* no exact bucket left */
    c.bidirectional = false;
    assert_int_equal(t5_buckets_check(&c), TF_OK);
    c.max_distance = 1; /* max_exact is 1: log(1) = 0 below the division */
    assert_int_equal(t5_buckets_check(&c), TF_ERR_RANGE);
    c = (t5_buckets_cfg){.num_buckets = 5000, .max_distance = 128, .bidirectional = true};
    assert_int_equal(t5_buckets_check(&c), TF_ERR_RANGE);
}

static void test_bucket_matrix(void **state)
{
    (void)state;
    enum { N = 20 };
    t5_buckets_cfg c;
    t5_buckets_defaults(&c);
    int out[N * N];
    assert_int_equal(t5_bucket_matrix(&c, N, out), TF_OK);
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            assert_int_equal(out[i * N + j], t5_bucket(&c, j - i));
    assert_int_equal(out[0], 0);
    assert_int_equal(out[1], 17); /* key one after the query */
    assert_int_equal(out[N], 1);  /* key one before */
    assert_int_equal(t5_bucket_matrix(&c, 0, out), TF_ERR_POSITIONS);
}

static void test_tables(void **state)
{
    (void)state;
    t5_bias_table a, b, c;
    assert_int_equal(t5bias_init_random(&a, 32, 8, 42), TF_OK);
    assert_int_equal(t5bias_init_random(&b, 32, 8, 42), TF_OK);
    assert_int_equal(t5bias_init_random(&c, 32, 8, 43), TF_OK);
    assert_false(a.trained);
    assert_memory_equal(a.b, b.b, 32 * 8 * sizeof *a.b);
    int same = 0;
    for (int k = 0; k < 32 * 8; k++) {
        assert_true(a.b[k] >= -1.0 && a.b[k] < 1.0);
        same += a.b[k] == c.b[k];
    }
    assert_true(same < 4);
    t5bias_free(&b);
    t5bias_free(&c);
    assert_int_equal(t5bias_init_random(&b, 0, 8, 1), TF_ERR_RANGE);
    assert_int_equal(t5bias_init_random(&b, 32, 257, 1), TF_ERR_RANGE);

    /* b[k][h] = 100 k + h: the bias matrix shows which bucket and head each entry used */
    for (int k = 0; k < 32; k++)
        for (int h = 0; h < 8; h++)
            a.b[k * 8 + h] = 100 * k + h;
    enum { N = 10 };
    t5_buckets_cfg cfg;
    t5_buckets_defaults(&cfg);
    double *m = malloc(8 * N * N * sizeof *m);
    assert_int_equal(t5bias_matrix(&a, &cfg, N, SCHEME_MASK_SYMMETRIC, m), TF_OK);
    for (int h = 0; h < 8; h++)
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++)
                assert_true(m[(h * N + i) * N + j] == 100 * t5_bucket(&cfg, j - i) + h);
    assert_int_equal(t5bias_matrix(&a, &cfg, N, SCHEME_MASK_CAUSAL, m), TF_OK);
    assert_true(isinf(m[1]) && m[N] == 100 * 1 + 0);
    assert_true(t5bias_at(&a, &cfg, 3, 200, SCHEME_MASK_CAUSAL) == 100 * 15 + 3);
    assert_true(t5bias_at(&a, &cfg, 3, -200, SCHEME_MASK_SYMMETRIC) == 100 * 31 + 3);
    cfg.num_buckets = 16;
    assert_int_equal(t5bias_matrix(&a, &cfg, N, SCHEME_MASK_CAUSAL, m), TF_ERR_RANGE);
    free(m);
    t5bias_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_buckets_by_hand),
        cmocka_unit_test(test_check),
        cmocka_unit_test(test_bucket_matrix),
        cmocka_unit_test(test_tables),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
