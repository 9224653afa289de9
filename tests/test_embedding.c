/* test_embedding.c — W_E rows on demand: determinism, the init distribution, and
 * onehot(k) . W_E computed the long way equal to row k exactly (C4). */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "embedding.h"
#include "rng.h"

static void test_rows_deterministic_and_distinct(void **state)
{
    (void)state;
    tf_embedding e, e2;
    assert_int_equal(embedding_init(&e, 100000, 64, 42), TF_OK);
    assert_int_equal(embedding_init(&e2, 100000, 64, 43), TF_OK);
    float a[64], b[64], c[64];
    embedding_row(&e, 9527, a);
    embedding_row(&e, 9527, b);
    assert_memory_equal(a, b, sizeof a);
    embedding_row(&e, 9528, c);
    assert_memory_not_equal(a, c, sizeof a);
    embedding_row(&e2, 9527, c); /* another seed, another matrix */
    assert_memory_not_equal(a, c, sizeof a);
}

static void test_init_distribution(void **state)
{
    (void)state;
    /* uniform in [-sqrt(3/d), sqrt(3/d)): mean 0, variance 1/d, |row|^2 about 1 */
    enum { D = 256, ROWS = 400 };
    tf_embedding e;
    assert_int_equal(embedding_init(&e, 1000, D, 7), TF_OK);
    float row[D];
    double sum = 0, sq = 0, lim = sqrt(3.0 / D);
    for (int k = 0; k < ROWS; k++) {
        embedding_row(&e, k, row);
        for (int j = 0; j < D; j++) {
            assert_true(row[j] >= -lim - 1e-7 && row[j] < lim + 1e-7);
            sum += row[j];
            sq += (double)row[j] * row[j];
        }
    }
    double n = (double)D * ROWS;
    assert_close(sum / n, 0.0, 0.003);
    assert_close(sq / n, 1.0 / D, 0.05 / D);
}

static void test_onehot_product_equals_row(void **state)
{
    (void)state;
    tf_embedding e;
    assert_int_equal(embedding_init(&e, 5000, 32, 42), TF_OK);
    int32_t ids[3] = {9, 4999, 1234};
    float *out = malloc(3 * 32 * sizeof *out), row[32];
    assert_int_equal(embedding_onehot_product(&e, ids, 3, out), TF_OK);
    for (int t = 0; t < 3; t++) {
        embedding_row(&e, ids[t], row);
        assert_memory_equal(out + t * 32, row, sizeof row); /* exactly, bit for bit */
    }
    free(out);
}

static void test_sizes(void **state)
{
    (void)state;
    tf_embedding e;
    assert_int_equal(embedding_init(&e, 100000, 4096, 1), TF_OK);
    assert_close(embedding_params(&e), 409.6e6, 0); /* the article's 4 亿多 */
    assert_int_equal(embedding_init(&e, 100000, 7, 1), TF_ERR_DMODEL);
    assert_int_equal(embedding_init(&e, 3, 8, 1), TF_ERR_VOCAB);
}

static void test_rng_values(void **state)
{
    (void)state;
    /* 24-bit grid in [-1, 1): every value times 2^23 is an integer */
    float v[1000];
    rng_fill_uniform(rng_row_key(1, 0, 0), 1000, 1.0f, v);
    double mn = 1, mx = -1;
    for (int i = 0; i < 1000; i++) {
        double s = (double)v[i] * 8388608.0;
        assert_close(s, floor(s), 0);
        mn = fmin(mn, v[i]);
        mx = fmax(mx, v[i]);
    }
    assert_true(mn >= -1.0 && mn < -0.9 && mx < 1.0 && mx > 0.9);
}

/* Trained/loaded rows replace random rows of their ids only; the one-hot product sees them. */
static void test_set_rows(void **state)
{
    (void)state;
    enum { D = 4 };
    tf_embedding e;
    assert_int_equal(embedding_init(&e, 1000, D, 42), TF_OK);
    float r5[D], r7[D], r9[D];
    embedding_row(&e, 5, r5);
    embedding_row(&e, 9, r9);
    const int32_t ids[3] = {7, 3, 7};
    const float rows[3 * D] = {1, 2, 3, 4, 5, 6, 7, 8, -1, -1, -1, -1};
    assert_int_equal(embedding_set_rows(&e, ids, rows, 3), TF_OK);
    assert_int_equal(e.n_set, 2);
    assert_true(embedding_row_is_set(&e, 7) && embedding_row_is_set(&e, 3));
    assert_false(embedding_row_is_set(&e, 5));
    embedding_row(&e, 7, r7);
    assert_memory_equal(r7, rows, sizeof r7); /* the first row given for 7 */
    float got[D];
    embedding_row(&e, 5, got);
    assert_memory_equal(got, r5, sizeof got);
    int32_t q[2] = {3, 9};
    float out[2 * D];
    assert_int_equal(embedding_onehot_product(&e, q, 2, out), TF_OK);
    assert_memory_equal(out, rows + D, D * sizeof(float));
    assert_memory_equal(out + D, r9, D * sizeof(float));
    const int32_t bad[1] = {1000};
    assert_int_equal(embedding_set_rows(&e, bad, rows, 1), TF_ERR_RANGE);
    assert_int_equal(e.n_set, 2);
    embedding_free(&e);
    assert_false(embedding_row_is_set(&e, 7));
}

/* Every instruction-set variant of the generator against the formula of rng.h written out here:
 * u = int(top 24 bits of mix(key + j * golden)) / 2^23 - 1, times the scale. Lengths cover
 * vector remainders. */
static void test_rng_variants(void **state)
{
    (void)state;
    const size_t lens[] = {1, 7, 33, 4096};
    float got[4096];
    for (size_t li = 0; li < 4; li++)
        for (uint64_t row = 0; row < 3; row++) {
            size_t n = lens[li];
            uint64_t key = rng_row_key(7, RNG_STREAM_EMBEDDING, row * 99991);
            float scale = 0.0270633f;
            for (int isa = 0; isa < TF_ISA_COUNT; isa++) {
                if (!tf_isa_supported((tf_isa)isa))
                    continue;
                rng_fill_uniform_isa((tf_isa)isa, key, n, scale, got);
                for (size_t j = 0; j < n; j++) {
                    uint64_t h = rng_mix(key + (uint64_t)j * 0x9e3779b97f4a7c15ULL);
                    double u = (double)(h >> 40) / 8388608.0 - 1.0; /* exact in float */
                    assert_true(got[j] == (float)u * scale);
                }
            }
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rows_deterministic_and_distinct),
        cmocka_unit_test(test_init_distribution),
        cmocka_unit_test(test_onehot_product_equals_row),
        cmocka_unit_test(test_sizes),
        cmocka_unit_test(test_rng_values),
        cmocka_unit_test(test_set_rows),
        cmocka_unit_test(test_rng_variants),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
