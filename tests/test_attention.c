/* test_attention.c — softmax rows sum to 1, a hand-checked projection, LayerNorm, the head
 * against a plain re-implementation, and the order experiment: without positions attention is
 * permutation-equivariant (C6); with PE or RoPE it is not, by a visible amount; the same for
 * every position scheme, and NoPE under a causal mask. */
#include <stdlib.h>
#include <string.h>

#include "attention.h"
#include "check.h"
#include "embedding.h"
#include "order_sentences.h"
#include "posenc.h"
#include "rng.h"

/* The bare head of the tests that check the arithmetic: no normalisation, no scaling. */
static tf_attn_cfg cfg(int d)
{
    return (tf_attn_cfg){.seed = 42,
                         .d = d,
                         .base = 10000,
                         .style = ROPE_INTERLEAVED,
                         .pos0 = 0,
                         .norm = ATTN_NORM_NONE,
                         .emb_scale = 1.0};
}

static void fill(double *x, size_t n, double phase)
{
    for (size_t i = 0; i < n; i++)
        x[i] = sin(0.731 * (double)i + phase) * 0.5;
}

/* The widest cases (d = 4096) run in the fast build only: under valgrind (the memcheck test
 * setup sets TFVIZ_TEST_LIGHT) or AddressSanitizer they take minutes and exercise no other code. */
static bool memcheck(void)
{
    return check_heavy_skipped();
}

/* Rows of W_E (variance 1/d, length about 1) for token ids, as the analysis reads them. */
static double *embedding_rows(int d, const int32_t *ids, size_t T)
{
    tf_embedding e;
    assert_int_equal(embedding_init(&e, 100000, d, 42), TF_OK);
    double *emb = malloc(T * (size_t)d * sizeof *emb);
    float *row = malloc((size_t)d * sizeof *row);
    assert_non_null(emb);
    assert_non_null(row);
    for (size_t t = 0; t < T; t++) {
        embedding_row(&e, ids[t], row);
        for (int j = 0; j < d; j++)
            emb[t * (size_t)d + (size_t)j] = row[j];
    }
    free(row);
    embedding_free(&e);
    return emb;
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
    /* head 1 of the layer: rows keyed by row number 2^32 + i, other numbers than head 0's */
    c.head = 1;
    attention_project(&c, RNG_STREAM_WQ, x, 2, out);
    memset(want, 0, sizeof want);
    for (int i = 0; i < 4; i++)
        rng_fill_uniform(rng_row_key(42, RNG_STREAM_WQ, (1ULL << 32) + (uint64_t)i), 4,
                         (float)sqrt(3.0 / 4), w[i]);
    for (int t = 0; t < 2; t++)
        for (int j = 0; j < 4; j++)
            for (int i = 0; i < 4; i++)
                want[t * 4 + j] += x[t * 4 + i] * w[i][j];
    check_max_diff("x W_Q of head 1", out, want, 8, 1e-15);
}

/* LayerNorm by hand: [1, 2, 3, 6] has mean 3 and variance 3.5. */
static void test_layernorm(void **state)
{
    (void)state;
    tf_attn_cfg c = attention_head_cfg(42, 4, 10000, ROPE_INTERLEAVED, 0);
    assert_int_equal(c.norm, ATTN_NORM_LAYER);
    assert_string_equal(attention_norm_name(c.norm), "layernorm");
    assert_close(c.emb_scale, 2.0, 0);
    double x[8] = {1, 2, 3, 6, -5, -5, -5, -5}, out[8];
    attention_normalize(&c, x, 2, out);
    double s = sqrt(3.5 + ATTN_NORM_EPS);
    double want[8] = {-2 / s, -1 / s, 0, 3 / s, 0, 0, 0, 0}; /* a constant row becomes 0 */
    check_max_diff("LayerNorm", out, want, 8, 1e-15);
    /* in place, and the bare head leaves rows alone */
    attention_normalize(&c, x, 2, x);
    check_max_diff("LayerNorm in place", x, want, 8, 1e-15);
    tf_attn_cfg bare = cfg(4);
    double y[4] = {1, 2, 3, 6}, z[4];
    attention_normalize(&bare, y, 1, z);
    check_max_diff("no norm", z, y, 4, 0);
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

/* The head of the order experiment written out plainly (LayerNorm, W from the generator, RoPE
 * by its angle formula, softmax, A V) for sentence a of one mode: A and Z must agree. */
static void reference_head(int d, const double *emb, size_t T, int mode, double *A, double *Z)
{
    size_t D = (size_t)d;
    double *h = calloc(T * D, sizeof *h), *q = calloc(T * D, sizeof *q);
    double *k = calloc(T * D, sizeof *k), *v = calloc(T * D, sizeof *v);
    float *w = malloc(D * sizeof *w);
    for (size_t t = 0; t < T; t++) {
        double mean = 0, var = 0;
        for (size_t j = 0; j < D; j++) {
            double pe = 0;
            if (mode == ATTN_WITH_PE) { /* sin(pos w_i), cos(pos w_i), w_i = 10000^(-2i/d) */
                double om = pow(10000.0, -(double)(2 * (j / 2)) / d);
                pe = j % 2 ? cos((double)t * om) : sin((double)t * om);
            }
            h[t * D + j] = sqrt((double)d) * emb[t * D + j] + pe;
            mean += h[t * D + j] / d;
        }
        for (size_t j = 0; j < D; j++)
            var += (h[t * D + j] - mean) * (h[t * D + j] - mean) / d;
        for (size_t j = 0; j < D; j++)
            h[t * D + j] = (h[t * D + j] - mean) / sqrt(var + 1e-5);
    }
    double *out[3] = {q, k, v};
    for (int p = 0; p < 3; p++)
        for (size_t i = 0; i < D; i++) {
            rng_fill_uniform(rng_row_key(42, (uint32_t)(RNG_STREAM_WQ + p), i), D,
                             (float)sqrt(3.0 / d), w);
            for (size_t t = 0; t < T; t++)
                for (size_t j = 0; j < D; j++)
                    out[p][t * D + j] += h[t * D + i] * w[j];
        }
    if (mode == ATTN_WITH_ROPE) /* pair (2i, 2i+1) turned by t * 10000^(-2i/d) */
        for (size_t t = 0; t < T; t++)
            for (size_t i = 0; i < D / 2; i++) {
                double a = (double)t * pow(10000.0, -(double)(2 * i) / d);
                for (int p = 0; p < 2; p++) {
                    double x0 = out[p][t * D + 2 * i], x1 = out[p][t * D + 2 * i + 1];
                    out[p][t * D + 2 * i] = x0 * cos(a) - x1 * sin(a);
                    out[p][t * D + 2 * i + 1] = x0 * sin(a) + x1 * cos(a);
                }
            }
    for (size_t t = 0; t < T; t++) {
        double sum = 0;
        for (size_t u = 0; u < T; u++) {
            double s = 0;
            for (size_t j = 0; j < D; j++)
                s += q[t * D + j] * k[u * D + j];
            A[t * T + u] = exp(s / sqrt((double)d));
            sum += A[t * T + u];
        }
        for (size_t u = 0; u < T; u++)
            A[t * T + u] /= sum;
        for (size_t j = 0; j < D; j++) {
            Z[t * D + j] = 0;
            for (size_t u = 0; u < T; u++)
                Z[t * D + j] += A[t * T + u] * v[u * D + j];
        }
    }
    free(h), free(q), free(k), free(v), free(w);
}

static void test_head_against_reference(void **state)
{
    (void)state;
    enum { T = 4, D = 16 };
    const int32_t ids[T] = {1000, 2001, 3002, 4003};
    double *emb = embedding_rows(D, ids, T);
    size_t perm[T] = {3, 2, 1, 0};
    tf_attn_cfg c = attention_head_cfg(42, D, 10000, ROPE_INTERLEAVED, 0);
    tf_order_result all[ATTN_MODE_COUNT];
    assert_int_equal(attention_order_all(&c, emb, perm, T, all), TF_OK);
    for (int m = 0; m < ATTN_MODE_COUNT; m++) {
        double A[T * T], Z[T * D];
        reference_head(D, emb, T, m, A, Z);
        check_max_diff("A_a", all[m].A_a, A, T * T, 1e-12);
        check_max_diff("Z_a", all[m].Z_a, Z, T * D, 1e-12);
        /* one mode at a time gives the same numbers */
        tf_order_result one;
        assert_int_equal(attention_order(&c, (attn_mode)m, emb, perm, T, &one), TF_OK);
        check_max_diff("A_a, one mode", one.A_a, all[m].A_a, T * T, 0);
        check_max_diff("A_b, one mode", one.A_b, all[m].A_b, T * T, 0);
        check_max_diff("Z_b, one mode", one.Z_b, all[m].Z_b, T * D, 0);
        assert_close(one.relative_diff, all[m].relative_diff, 0);
        attention_order_free(&one);
        attention_order_free(&all[m]);
    }
    free(emb);
}

/* The experiment's claims for one sentence of token ids and its order b[t] = a[perm[t]]. */
static void check_order(int d, const int32_t *ids, const size_t *perm, size_t T)
{
    double *emb = embedding_rows(d, ids, T);
    tf_attn_cfg c = attention_head_cfg(42, d, 10000, ROPE_INTERLEAVED, 0);
    tf_order_result r[ATTN_MODE_COUNT];
    assert_int_equal(attention_order_all(&c, emb, perm, T, r), TF_OK);
    /* without positions: B's weights are A's with rows and columns permuted, outputs equal */
    assert_true(r[ATTN_NO_PE].max_token_diff < 1e-9);
    assert_true(r[ATTN_NO_PE].pooled_diff < 1e-9);
    assert_true(attention_order_is_zero(&r[ATTN_NO_PE]));
    for (size_t t = 0; t < T; t++)
        for (size_t u = 0; u < T; u++)
            assert_close(r[ATTN_NO_PE].A_b[t * T + u], r[ATTN_NO_PE].A_a[perm[t] * T + perm[u]],
                         1e-9);
    /* with PE and with RoPE: outputs move by at least 5 % of max |Z_A| */
    for (int m = ATTN_WITH_PE; m < ATTN_MODE_COUNT; m++) {
        if (!(r[m].relative_diff >= 0.05))
            fprintf(stderr, "# d=%d T=%zu mode %d: relative_diff %.4f\n", d, T, m,
                    r[m].relative_diff);
        assert_true(r[m].relative_diff >= 0.05);
        assert_false(attention_order_is_zero(&r[m]));
        assert_close(r[m].relative_diff, r[m].max_token_diff / r[m].max_abs_output, 1e-15);
    }
    /* every row of A_a is visibly non-uniform, and every row of both sums to 1 */
    for (int m = 0; m < ATTN_MODE_COUNT; m++) {
        if (T <= 8 && !(r[m].min_row_range >= 0.02))
            fprintf(stderr, "# d=%d T=%zu mode %d: min row range %.4f\n", d, T, m,
                    r[m].min_row_range);
        if (T <= 8)
            assert_true(r[m].min_row_range >= 0.02);
        /* scores spread by about 1 whatever d is (not 0.002 as without the head's scaling);
         * two or three scores a row are too few to say more than that they are not 0 */
        assert_in_range((long)(100 * r[m].score_std), T >= 4 ? 25 : 1, 400);
        for (size_t t = 0; t < T; t++) {
            double sa = 0, sb = 0, lo = 1, hi = 0;
            for (size_t u = 0; u < T; u++) {
                sa += r[m].A_a[t * T + u], sb += r[m].A_b[t * T + u];
                lo = fmin(lo, r[m].A_a[t * T + u]), hi = fmax(hi, r[m].A_a[t * T + u]);
            }
            assert_close(sa, 1.0, 1e-12);
            assert_close(sb, 1.0, 1e-12);
            assert_true(hi - lo >= r[m].min_row_range);
        }
        attention_order_free(&r[m]);
    }
    free(emb);
}

static void test_order_experiment(void **state)
{
    (void)state;
    /* sentences as token ids (4 tokens reversed, 3 with one repeated, 6 rotated, 2 swapped).
     * A random head promises nothing for one given sentence (test_order_many_sentences counts
     * how often the thresholds hold); these are sentences it meets them for at all three
     * widths, so that a change of the head that weakens the effect shows here. */
    const int32_t s4[4] = {120, 3306, 4581, 77}, s3[3] = {3000, 17, 17};
    const int32_t s6[6] = {9, 18000, 4242, 560, 31337, 1201}, s2[2] = {4, 9};
    const size_t p4[4] = {3, 2, 1, 0}, p3[3] = {2, 1, 0}, p6[6] = {1, 2, 3, 4, 5, 0};
    const size_t p2[2] = {1, 0};
    const int dims[3] = {64, 512, 4096};
    for (int k = 0; k < 3; k++) {
        if (dims[k] > 512 && memcheck())
            continue; /* the fast build checks d = 4096; valgrind would take minutes */
        check_order(dims[k], s4, p4, 4);
        check_order(dims[k], s3, p3, 3);
        check_order(dims[k], s6, p6, 6);
        check_order(dims[k], s2, p2, 2);
    }
}

/* A random head makes no promise for one sentence, but over many the claims hold nearly
 * always: of 40 random sentences of 3 to 8 tokens (d = 64), reversed, at least 38 meet every
 * threshold, and the median changes are far above them. */
static void test_order_many_sentences(void **state)
{
    (void)state;
    enum { N = 40, D = 64 };
    int ok = 0;
    double rel[2][N];
    uint64_t z = 2024;
    for (int n = 0; n < N; n++) {
        size_t T = 3 + (size_t)(n % 6);
        int32_t ids[8];
        size_t perm[8];
        for (size_t t = 0; t < T; t++) {
            z = rng_mix(z + 1);
            ids[t] = (int32_t)(4 + z % 99990);
            perm[t] = T - 1 - t;
        }
        double *emb = embedding_rows(D, ids, T);
        tf_attn_cfg c = attention_head_cfg(42, D, 10000, ROPE_INTERLEAVED, 0);
        tf_order_result r[ATTN_MODE_COUNT];
        assert_int_equal(attention_order_all(&c, emb, perm, T, r), TF_OK);
        bool good = r[ATTN_NO_PE].max_token_diff < 1e-9;
        for (int m = 0; m < ATTN_MODE_COUNT; m++) {
            good = good && r[m].min_row_range >= 0.02;
            if (m > 0) {
                good = good && r[m].relative_diff >= 0.05;
                rel[m - 1][n] = r[m].relative_diff;
            }
            attention_order_free(&r[m]);
        }
        ok += good;
        free(emb);
    }
    for (int m = 0; m < 2; m++) { /* the median by counting */
        int above = 0;
        for (int n = 0; n < N; n++)
            above += rel[m][n] >= 0.15;
        assert_true(above >= N / 2);
    }
    if (ok < N - 2)
        fprintf(stderr, "# %d of %d sentences meet every threshold\n", ok, N);
    assert_true(ok >= N - 2);
}

/* The spread of the scores is of order 1 for every d_model from 8 to 512 (10 tokens; 4096 is
 * checked by test_order_experiment, 16384 behaves the same and takes half a minute). */
static void test_score_spread(void **state)
{
    (void)state;
    enum { T = 10 };
    int32_t ids[T];
    size_t perm[T];
    for (size_t t = 0; t < T; t++)
        ids[t] = (int32_t)(100 + 37 * t), perm[t] = T - 1 - t;
    const int dims[] = {8, 64, 512};
    for (size_t k = 0; k < sizeof dims / sizeof *dims; k++) {
        double *emb = embedding_rows(dims[k], ids, T);
        tf_attn_cfg c = attention_head_cfg(42, dims[k], 10000, ROPE_INTERLEAVED, 0);
        tf_order_result r[ATTN_MODE_COUNT];
        assert_int_equal(attention_order_all(&c, emb, perm, T, r), TF_OK);
        for (int m = 0; m < ATTN_MODE_COUNT; m++) {
            if (!(r[m].score_std > 0.4 && r[m].score_std < 2.5))
                fprintf(stderr, "# d=%d mode %d: score spread %.3f\n", dims[k], m, r[m].score_std);
            assert_true(r[m].score_std > 0.4 && r[m].score_std < 2.5);
            attention_order_free(&r[m]);
        }
        free(emb);
    }
}

/* Why the head normalises and scales: the bare head (rows of length about 1, W of variance
 * 1/d) gives scores near 0, uniform weights and an invisible RoPE. */
static void test_bare_head_is_flat(void **state)
{
    (void)state;
    enum { T = 3, D = 512 };
    const int32_t ids[T] = {120, 3306, 4581};
    const size_t perm[T] = {2, 1, 0};
    double *emb = embedding_rows(D, ids, T);
    tf_attn_cfg c = cfg(D);
    tf_order_result r[ATTN_MODE_COUNT];
    assert_int_equal(attention_order_all(&c, emb, perm, T, r), TF_OK);
    /* (with PE the bare head sees almost only the positions: |PE| = 16 against |x_emb| = 1) */
    for (int m = 0; m < ATTN_MODE_COUNT; m++)
        if (m != ATTN_WITH_PE) {
            assert_true(r[m].score_std < 0.02);
            assert_true(r[m].min_row_range < 0.01);
        }
    assert_true(r[ATTN_WITH_ROPE].relative_diff < 0.005);
    for (int m = 0; m < ATTN_MODE_COUNT; m++)
        attention_order_free(&r[m]);
    free(emb);
}

static void test_identity_permutation(void **state)
{
    (void)state;
    enum { T = 3, D = 8 };
    tf_attn_cfg c = attention_head_cfg(42, D, 10000, ROPE_HALF, 1);
    double emb[T * D];
    fill(emb, T * D, 2.0);
    size_t perm[T] = {0, 1, 2};
    tf_order_result r[ATTN_MODE_COUNT];
    assert_int_equal(attention_order_all(&c, emb, perm, T, r), TF_OK);
    for (int m = 0; m < ATTN_MODE_COUNT; m++) {
        assert_close(r[m].max_token_diff, 0.0, 0);
        assert_true(attention_order_is_zero(&r[m]));
        attention_order_free(&r[m]);
    }
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

/* Runs sentences of every length in lens at width d through attention_order_choose and
 * asserts the claims for each; returns the largest number of heads tried. */
static int check_choose(int d, const int *lens, size_t nl, int per_length, uint64_t seed)
{
    tf_embedding e;
    assert_int_equal(embedding_init(&e, 100000, d, seed), TF_OK);
    float *row = malloc((size_t)d * sizeof *row);
    assert_non_null(row);
    int most = 0;
    uint64_t z = rng_mix(seed + (uint64_t)d);
    for (size_t l = 0; l < nl; l++) {
        size_t T = (size_t)lens[l];
        int32_t ids[40];
        size_t perm[40];
        double *emb = malloc(T * (size_t)d * sizeof *emb);
        assert_non_null(emb);
        for (int n = 0; n < per_length; n++) {
            order_sentence_draw(&z, n, T, 100000, ids, perm);
            order_sentence_rows(&e, ids, T, d, row, emb);
            tf_attn_cfg c = attention_head_cfg(seed, d, 10000, ROPE_INTERLEAVED, 0);
            tf_order_result r[ATTN_MODE_COUNT];
            attn_head_choice ch;
            assert_int_equal(attention_order_choose(&c, emb, perm, T, r, &ch), TF_OK);
            const char *why;
            if (!order_claims_hold(r, perm, T, &why))
                fprintf(stderr, "# d=%d T=%zu sentence %d (head %d of %d tried): %s\n", d, T, n,
                        ch.head, ch.tried, why);
            assert_true(order_claims_hold(r, perm, T, NULL));
            assert_true(ch.possible);
            assert_true(ch.visibility >= 1.0);
            assert_int_equal(ch.tried, ch.head + 1);
            assert_close(ch.visibility, attention_order_visibility(r, T), 0);
            most = ch.tried > most ? ch.tried : most;
            for (int m = 0; m < ATTN_MODE_COUNT; m++)
                attention_order_free(&r[m]);
        }
        free(emb);
    }
    free(row);
    embedding_free(&e);
    return most;
}

/* The head the experiment reports meets every claim for held-out random sentences of 2 to 40
 * tokens (a single head misses for about one in five of 2 tokens): at d = 8 and 64 here, and
 * the wide models in test_order_choose_wide. */
static void test_order_choose(void **state)
{
    (void)state;
    static const int lens[] = {2, 2, 2, 3, 3, 4, 5, 7, 8, 9, 16, 40};
    int most = 0;
    for (uint64_t seed = 1; seed <= 3; seed++) {
        int n = check_choose(8, lens, sizeof lens / sizeof *lens, memcheck() ? 4 : 24, seed);
        most = n > most ? n : most;
        n = check_choose(64, lens, sizeof lens / sizeof *lens, memcheck() ? 4 : 24, seed);
        most = n > most ? n : most;
    }
    assert_true(most >= 2); /* some sentence needed a head after the first */
}

/* The same at d = 512 and 4096 with the shortest sentences, where heads are chosen; in the fast
 * build only (under valgrind or ASan a 4096-wide head takes a minute). d = 16384 costs 5 s a
 * head: tests/order_sweep.c covers it. */
static void test_order_choose_wide(void **state)
{
    (void)state;
    if (memcheck()) {
        fprintf(stderr, "# d = 512 and 4096: the fast build checks these\n");
        return;
    }
    static const int short_lens[] = {2, 2, 3};
    check_choose(512, short_lens, 3, 6, 7);
    check_choose(4096, short_lens, 3, 2, 8);
}

/* How the rule picks: the first head whose visibility reaches 1, the same numbers as that head
 * computed alone; and no search where no head could show an order. */
static void test_order_choose_rule(void **state)
{
    (void)state;
    enum { D = 64 };
    uint64_t z = 99;
    int32_t ids[2];
    size_t perm[2];
    int searched = 0;
    for (int n = 0; n < 40 && searched < 3; n++) {
        order_sentence_draw(&z, n, 2, 100000, ids, perm);
        double *emb = embedding_rows(D, ids, 2);
        tf_attn_cfg c = attention_head_cfg(42, D, 10000, ROPE_INTERLEAVED, 0);
        tf_order_result r[ATTN_MODE_COUNT], h[ATTN_MODE_COUNT];
        attn_head_choice ch;
        assert_int_equal(attention_order_choose(&c, emb, perm, 2, r, &ch), TF_OK);
        for (c.head = 0; c.head <= ch.head; c.head++) {
            assert_int_equal(attention_order_all(&c, emb, perm, 2, h), TF_OK);
            double v = attention_order_visibility(h, 2);
            if (c.head < ch.head) {
                assert_true(v < 1.0);
            } else {
                assert_close(v, ch.visibility, 0);
                for (int m = 0; m < ATTN_MODE_COUNT; m++) {
                    check_max_diff("A_a of the head", h[m].A_a, r[m].A_a, 4, 0);
                    check_max_diff("Z_b of the head", h[m].Z_b, r[m].Z_b, 2 * D, 0);
                }
            }
            for (int m = 0; m < ATTN_MODE_COUNT; m++)
                attention_order_free(&h[m]);
        }
        searched += ch.head > 0;
        for (int m = 0; m < ATTN_MODE_COUNT; m++)
            attention_order_free(&r[m]);
        free(emb);
    }
    assert_int_equal(searched, 3);

    /* no head can show an order: one token, the same token twice, B the same rows as A */
    const int32_t same[3] = {700, 700, 700}, pal[3] = {5, 9, 5};
    const size_t rev[3] = {2, 1, 0};
    for (int k = 0; k < 3; k++) {
        const int32_t *w = k == 2 ? pal : same;
        size_t T = k == 0 ? 1 : 3;
        double *emb = embedding_rows(D, w, T);
        tf_attn_cfg c = attention_head_cfg(42, D, 10000, ROPE_INTERLEAVED, 0);
        tf_order_result r[ATTN_MODE_COUNT];
        attn_head_choice ch;
        const size_t ident[1] = {0};
        assert_int_equal(attention_order_choose(&c, emb, T == 1 ? ident : rev, T, r, &ch), TF_OK);
        assert_false(ch.possible);
        assert_int_equal(ch.head, 0);
        assert_int_equal(ch.tried, 1);
        for (int m = 0; m < ATTN_MODE_COUNT; m++)
            attention_order_free(&r[m]);
        free(emb);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_projection_by_hand),   cmocka_unit_test(test_layernorm),
        cmocka_unit_test(test_softmax_rows),         cmocka_unit_test(test_head_against_reference),
        cmocka_unit_test(test_order_experiment),     cmocka_unit_test(test_order_many_sentences),
        cmocka_unit_test(test_score_spread),         cmocka_unit_test(test_bare_head_is_flat),
        cmocka_unit_test(test_identity_permutation), cmocka_unit_test(test_order_every_scheme),
        cmocka_unit_test(test_schemes_agree),        cmocka_unit_test(test_order_choose),
        cmocka_unit_test(test_order_choose_wide),    cmocka_unit_test(test_order_choose_rule),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
