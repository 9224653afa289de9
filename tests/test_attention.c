/* test_attention.c — softmax rows sum to 1, a hand-checked projection, and the order experiment:
 * without positions attention is permutation-equivariant (C6); with PE or RoPE it is not; the same
 * for every position scheme, and NoPE under a causal mask. */
#include <stdlib.h>
#include <string.h>

#include "attention.h"
#include "check.h"
#include "posenc.h"
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

/* Every position scheme through the same head: which ones see the order. */
static void test_order_every_scheme(void **state)
{
    (void)state;
    enum { T = 5, D = 32 };
    tf_attn_cfg c = cfg(D);
    double emb[T * D];
    fill(emb, T * D, 0.4);
    size_t perm[T] = {4, 2, 0, 3, 1};
    t5_bias_table tb;
    t5_buckets_cfg bk;
    t5_buckets_defaults(&bk);
    assert_int_equal(t5bias_init_random(&tb, 32, 8, 5), TF_OK);
    tf_learned_pe lt;
    assert_int_equal(learned_pe_init_random(&lt, 16, D, 9), TF_OK);
    tf_order_result r;
    attn_positions p;
    for (int s = 0; s < SCHEME_COUNT; s++) {
        attention_positions_init(&p, (tf_scheme)s);
        p.t5 = &tb;
        p.buckets = &bk;
        p.table = &lt;
        assert_int_equal(attention_order_positions(&c, &p, emb, perm, T, &r), TF_OK);
        if (s == SCHEME_NONE)
            assert_true(r.max_token_diff < 1e-12); /* a set, not a sequence */
        else
            assert_true(r.max_token_diff > 1e-4);
        attention_order_free(&r);
    }
    /* a flat ALiBi (slope 0) or no mask with NoPE: blind; NoPE under the causal mask: not */
    attention_positions_init(&p, SCHEME_ALIBI);
    p.alibi_slope = 0;
    assert_int_equal(attention_order_positions(&c, &p, emb, perm, T, &r), TF_OK);
    assert_true(r.max_token_diff < 1e-12);
    attention_order_free(&r);
    attention_positions_init(&p, SCHEME_NONE);
    p.mask = SCHEME_MASK_CAUSAL;
    assert_int_equal(attention_order_positions(&c, &p, emb, perm, T, &r), TF_OK);
    assert_true(r.max_token_diff > 1e-4);
    for (int t = 0; t < T; t++) /* nothing after the query; the first token sees itself only */
        for (int u = t + 1; u < T; u++)
            assert_true(r.A_a[t * T + u] == 0.0);
    assert_true(r.A_a[0] == 1.0);
    attention_order_free(&r);
    /* the old modes are these schemes */
    const tf_scheme of_mode[ATTN_MODE_COUNT] = {SCHEME_NONE, SCHEME_SINUSOIDAL, SCHEME_ROPE};
    for (int m = 0; m < ATTN_MODE_COUNT; m++) {
        tf_order_result a, b;
        attention_positions_init(&p, of_mode[m]);
        assert_int_equal(attention_order(&c, (attn_mode)m, emb, perm, T, &a), TF_OK);
        assert_int_equal(attention_order_positions(&c, &p, emb, perm, T, &b), TF_OK);
        assert_memory_equal(a.Z_b, b.Z_b, T * D * sizeof *a.Z_b);
        attention_order_free(&a);
        attention_order_free(&b);
    }
    /* refusals: no T5 table, a head outside it, a table too short or of another width */
    attention_positions_init(&p, SCHEME_T5);
    assert_int_equal(attention_order_positions(&c, &p, emb, perm, T, &r), TF_ERR_RANGE);
    p.t5 = &tb;
    p.buckets = &bk;
    p.t5_head = 8;
    assert_int_equal(attention_order_positions(&c, &p, emb, perm, T, &r), TF_ERR_RANGE);
    attention_positions_init(&p, SCHEME_LEARNED);
    p.table = &lt;
    c.pos0 = 12;
    assert_int_equal(attention_order_positions(&c, &p, emb, perm, T, &r), TF_ERR_POSITIONS);
    assert_null(r.A_a);
    c.d = 16;
    assert_int_equal(attention_order_positions(&c, &p, emb, perm, T, &r), TF_ERR_DMODEL);
    learned_pe_free(&lt);
    t5bias_free(&tb);
}

/* A table holding PE is sinusoidal PE; RoPE with its own thetas passed in is plain RoPE, and
 * YaRN's attention factor a scales every score by a^2. */
static void test_schemes_agree(void **state)
{
    (void)state;
    enum { T = 4, D = 16, N = 8 };
    tf_attn_cfg c = cfg(D);
    double emb[T * D], A1[T * T], A2[T * T], Z1[T * D], Z2[T * D];
    fill(emb, T * D, 1.1);
    tf_learned_pe lt;
    assert_int_equal(learned_pe_init_random(&lt, N, D, 1), TF_OK);
    for (int p = 0; p < N; p++)
        posenc_row(p, D, 10000, lt.p + p * D);
    size_t perm[T] = {1, 0, 3, 2};
    tf_order_result a, b;
    attn_positions p;
    attention_positions_init(&p, SCHEME_LEARNED);
    p.table = &lt;
    assert_int_equal(attention_order_positions(&c, &p, emb, perm, T, &a), TF_OK);
    attention_positions_init(&p, SCHEME_SINUSOIDAL);
    assert_int_equal(attention_order_positions(&c, &p, emb, perm, T, &b), TF_OK);
    assert_memory_equal(a.A_b, b.A_b, T * T * sizeof *a.A_b);
    attention_order_free(&a);
    attention_order_free(&b);
    learned_pe_free(&lt);

    double theta[D / 2];
    rope_thetas(D, 10000, theta);
    attention_positions_init(&p, SCHEME_ROPE);
    assert_int_equal(attention_forward_positions(&c, &p, emb, T, A1, Z1), TF_OK);
    p.rope_inv_freq = theta;
    assert_int_equal(attention_forward_positions(&c, &p, emb, T, A2, Z2), TF_OK);
    assert_memory_equal(A1, A2, sizeof A1);
    /* a^2 = 2 doubles the scores: softmax(2 s) row by row */
    p.rope_attention_factor = sqrt(2.0);
    assert_int_equal(attention_forward_positions(&c, &p, emb, T, A2, NULL), TF_OK);
    for (int t = 0; t < T; t++) {
        double z = 0;
        for (int u = 0; u < T; u++)
            z += A1[t * T + u] * A1[t * T + u];
        for (int u = 0; u < T; u++)
            assert_close(A2[t * T + u], A1[t * T + u] * A1[t * T + u] / z, 1e-12);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_projection_by_hand),
        cmocka_unit_test(test_softmax_rows),
        cmocka_unit_test(test_order_experiment),
        cmocka_unit_test(test_identity_permutation),
        cmocka_unit_test(test_order_every_scheme),
        cmocka_unit_test(test_schemes_agree),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
