/* test_poscurve.c — the curves against distance of every scheme, NoPE's bias and the masks:
 * each against its closed form or the module that owns the formula. */
#include <stdlib.h>
#include <string.h>

#include "alibi.h"
#include "check.h"
#include "nope.h"
#include "poscurve.h"
#include "posenc.h"
#include "positions.h"

enum { N = 41, K0 = -20 };

static void test_none_and_masks(void **state)
{
    (void)state;
    poscurve_cfg c;
    poscurve_defaults(&c);
    double v[N];
    assert_int_equal(poscurve_fill(SCHEME_NONE, &c, K0, N, v), TF_OK);
    for (int t = 0; t < N; t++)
        assert_true(K0 + t < 0 ? isinf(v[t]) && v[t] < 0 : v[t] == 0.0);
    c.mask = SCHEME_MASK_SYMMETRIC;
    assert_int_equal(poscurve_fill(SCHEME_NONE, &c, K0, N, v), TF_OK);
    for (int t = 0; t < N; t++)
        assert_true(v[t] == 0.0);
    double m[9];
    assert_int_equal(nope_bias(3, SCHEME_MASK_CAUSAL, m), TF_OK);
    assert_true(m[0] == 0 && isinf(m[1]) && m[3] == 0 && m[8] == 0);
    assert_int_equal(nope_bias(0, SCHEME_MASK_CAUSAL, m), TF_ERR_POSITIONS);
    assert_string_equal(scheme_mask_name(SCHEME_MASK_SYMMETRIC), "symmetric");
    assert_int_equal(scheme_mask_parse("bidirectional"), SCHEME_MASK_SYMMETRIC);
    assert_int_equal(scheme_mask_parse("causal"), SCHEME_MASK_CAUSAL);
    assert_int_equal(scheme_mask_parse("x"), SCHEME_MASK_COUNT);
    assert_int_equal(poscurve_quantity_of(SCHEME_ALIBI), POSCURVE_BIAS);
    assert_string_equal(poscurve_quantity_name(poscurve_quantity_of(SCHEME_LEARNED)), "similarity");
    assert_string_equal(poscurve_quantity_name(poscurve_quantity_of(SCHEME_ROPE)), "score");
}

/* Sinusoidal: (2/d) sum cos(k w_i); RoPE with q = k = ones is the same curve. */
static void test_sinusoidal_and_rope(void **state)
{
    (void)state;
    poscurve_cfg c;
    poscurve_defaults(&c);
    c.d = 32;
    double s[N], r[N];
    assert_int_equal(poscurve_fill(SCHEME_SINUSOIDAL, &c, K0, N, s), TF_OK);
    assert_int_equal(poscurve_fill(SCHEME_ROPE, &c, K0, N, r), TF_OK);
    for (int t = 0; t < N; t++)
        assert_close(s[t], posenc_dot_offset(K0 + t, 32, 10000) / 16, 1e-15);
    check_max_diff("rope with ones = PE similarity", r, s, N, 1e-14);
    assert_close(s[-K0], 1.0, 1e-15);
    /* a random q and k: the score over |q||k| for m - n = k, by rotating with rope.c */
    double q[32], k[32], rq[32], qq = 0, kk = 0;
    for (int j = 0; j < 32; j++) {
        q[j] = sin(1.3 * j + 0.2);
        k[j] = cos(0.7 * j * j);
        qq += q[j] * q[j];
        kk += k[j] * k[j];
    }
    c.q = q;
    c.k = k;
    c.style = ROPE_HALF;
    assert_int_equal(poscurve_fill(SCHEME_ROPE, &c, K0, N, r), TF_OK);
    for (int t = 0; t < N; t++) {
        rope_rotate(q, 32, 10000, K0 + t, ROPE_HALF, rq);
        double want = 0;
        for (int j = 0; j < 32; j++)
            want += rq[j] * k[j];
        assert_close(r[t], want / sqrt(qq * kk), 1e-14);
    }
    c.d = 7;
    assert_int_equal(poscurve_fill(SCHEME_SINUSOIDAL, &c, 0, 3, s), TF_ERR_DMODEL);
    c.d = 32;
    c.base = 1;
    assert_int_equal(poscurve_fill(SCHEME_ROPE, &c, 0, 3, s), TF_ERR_BASE);
}

/* Linear interpolation by s reads distance k as k / s; YaRN's score at 0 is its factor^2. */
static void test_rope_scaled(void **state)
{
    (void)state;
    poscurve_cfg c;
    poscurve_defaults(&c);
    c.d = 64;
    rope_scaling_cfg lin, yarn;
    rope_scaling_defaults(ROPE_SCALING_LINEAR, &lin);
    rope_scaling_defaults(ROPE_SCALING_YARN, &yarn);
    double plain[N], scaled[N * 4];
    assert_int_equal(poscurve_fill(SCHEME_ROPE, &c, 0, N, plain), TF_OK);
    c.rope = &lin;
    assert_int_equal(poscurve_fill(SCHEME_ROPE, &c, 0, 4 * N, scaled), TF_OK);
    for (int t = 0; t < N; t++)
        assert_close(scaled[4 * t], plain[t], 1e-13);
    c.rope = &yarn;
    assert_int_equal(poscurve_fill(SCHEME_ROPE, &c, 0, 1, scaled), TF_OK);
    assert_close(scaled[0], pow(0.1 * log(4) + 1, 2), 1e-14);
    assert_int_equal(poscurve_trained_length(SCHEME_ROPE, &c), 4096);
    yarn.factor = 0.5;
    assert_int_equal(poscurve_fill(SCHEME_ROPE, &c, 0, 1, scaled), TF_ERR_RANGE);
}

static void test_alibi_t5_learned(void **state)
{
    (void)state;
    poscurve_cfg c;
    poscurve_defaults(&c);
    double m[8], v[N];
    assert_int_equal(alibi_slopes(8, m), TF_OK);
    assert_int_equal(poscurve_fill(SCHEME_ALIBI, &c, K0, N, v), TF_ERR_RANGE); /* no slopes */
    c.slopes = m;
    c.heads = 8;
    c.head = 2;
    assert_int_equal(poscurve_fill(SCHEME_ALIBI, &c, K0, N, v), TF_OK);
    for (int t = 0; t < N; t++)
        assert_true(K0 + t < 0 ? isinf(v[t]) : v[t] == -0.125 * (K0 + t));
    c.head = 8;
    assert_int_equal(poscurve_fill(SCHEME_ALIBI, &c, K0, N, v), TF_ERR_RANGE);
    assert_int_equal(poscurve_trained_length(SCHEME_ALIBI, &c), 0);

    t5_bias_table tb;
    t5_buckets_cfg bk;
    t5_buckets_defaults(&bk);
    assert_int_equal(t5bias_init_random(&tb, 32, 8, 3), TF_OK);
    c.t5 = &tb;
    c.buckets = &bk;
    c.head = 5;
    c.mask = SCHEME_MASK_SYMMETRIC;
    assert_int_equal(poscurve_fill(SCHEME_T5, &c, K0, N, v), TF_OK);
    for (int t = 0; t < N; t++)
        assert_true(v[t] == tb.b[t5_bucket(&bk, -(K0 + t)) * 8 + 5]);
    assert_int_equal(poscurve_trained_length(SCHEME_T5, &c), 128);
    /* flat past the last bucket's start: 200 and 2000 look the same to T5 */
    double far[2];
    assert_int_equal(poscurve_fill(SCHEME_T5, &c, 200, 1, far), TF_OK);
    assert_int_equal(poscurve_fill(SCHEME_T5, &c, 2000, 1, far + 1), TF_OK);
    assert_true(far[0] == far[1]);
    t5bias_free(&tb);

    tf_learned_pe lt;
    assert_int_equal(poscurve_fill(SCHEME_LEARNED, &c, 0, 3, v), TF_ERR_RANGE);
    assert_int_equal(learned_pe_init_random(&lt, 10, 8, 1), TF_OK);
    c.table = &lt;
    assert_int_equal(poscurve_fill(SCHEME_LEARNED, &c, 8, 4, v), TF_OK);
    assert_true(!isnan(v[1]) && isnan(v[2]) && isnan(v[3])); /* offsets 10, 11: past the table */
    assert_int_equal(poscurve_trained_length(SCHEME_LEARNED, &c), 10);
    learned_pe_free(&lt);
    assert_int_equal(poscurve_fill(SCHEME_NONE, &c, 0, -1, v), TF_ERR_POSITIONS);
    assert_int_equal(poscurve_fill(SCHEME_COUNT, &c, 0, 1, v), TF_ERR_RANGE);
}

/* The schemes side by side (posctx_curves, what --print schemes and the schemes figure draw):
 * all six in the enum's order by default, RoPE twice under a scaling (plain, then scaled); each
 * row's values are its scheme's curve, sinusoidal's the closed form (2/d) sum_i cos(k w_i), and
 * RoPE with a trained length has its share of unseen angles. */
static void test_curves_side_by_side(void **state)
{
    (void)state;
    tf_positions p;
    positions_defaults(&p);
    rope_scaling_defaults(ROPE_SCALING_YARN, &p.scaling);
    tf_posctx pc;
    assert_int_equal(posctx_open(&pc, &p, 16, 10000, ROPE_INTERLEAVED, 1, NULL), TF_OK);
    posctx_curves cv;
    posctx_curves_list(&pc, &cv);
    const tf_scheme want[] = {SCHEME_NONE, SCHEME_SINUSOIDAL, SCHEME_LEARNED, SCHEME_ROPE,
                              SCHEME_ROPE, SCHEME_ALIBI,      SCHEME_T5};
    assert_int_equal(cv.n_curves, 7);
    for (int i = 0; i < 7; i++) {
        assert_int_equal(cv.c[i].s, want[i]);
        assert_int_equal(cv.c[i].scaled, i == 4);
        assert_null(cv.c[i].v);
    }
    assert_int_equal(posctx_curves_fill(&pc, 0, 9, &cv), TF_OK);
    double ref[9];
    for (int i = 0; i < 7; i++) {
        assert_int_equal(posctx_curve(&pc, cv.c[i].s, cv.c[i].scaled, 0, 9, ref), TF_OK);
        assert_memory_equal(cv.c[i].v, ref, sizeof ref);
        assert_true((cv.c[i].unseen != NULL) == (cv.c[i].s == SCHEME_ROPE));
    }
    for (int k = 0; k < 9; k++) {
        double s = 0;
        for (int j = 0; j < 8; j++)
            s += cos(k * pow(10000.0, -2.0 * j / 16));
        assert_close(cv.c[1].v[k], s / 8, 1e-12);
    }
    /* at distances in any order (a figure's log axis): each the value of the run above (to
     * rounding: a run of distances may sum its cosines by a recurrence) */
    const long at[] = {8, 1, 5, 0, 8};
    double got[5];
    for (int i = 0; i < 7; i++) {
        assert_int_equal(posctx_curve_at(&pc, cv.c[i].s, cv.c[i].scaled, at, 5, got), TF_OK);
        for (int j = 0; j < 5; j++)
            assert_close(got[j], cv.c[i].v[at[j]], 1e-12);
    }
    posctx_curves_free(&cv);
    /* a list keeps its order; plain RoPE has no unseen share without a trained length */
    p.n = 2, p.list[0] = SCHEME_T5, p.list[1] = SCHEME_ROPE;
    p.scaling.kind = ROPE_SCALING_NONE;
    posctx_close(&pc);
    assert_int_equal(posctx_open(&pc, &p, 16, 10000, ROPE_INTERLEAVED, 1, NULL), TF_OK);
    posctx_curves_list(&pc, &cv);
    assert_int_equal(cv.n_curves, 2);
    assert_int_equal(cv.c[0].s, SCHEME_T5);
    assert_int_equal(cv.c[1].s, SCHEME_ROPE);
    /* the one order view 9 takes its first two from */
    tf_scheme order[SCHEME_COUNT];
    assert_int_equal(positions_compared(&p, order), 2);
    assert_int_equal(order[0], SCHEME_T5);
    assert_int_equal(order[1], SCHEME_ROPE);
    p.n = 0;
    assert_int_equal(positions_compared(&p, order), SCHEME_COUNT);
    for (int i = 0; i < SCHEME_COUNT; i++)
        assert_int_equal(order[i], (tf_scheme)i);
    assert_int_equal(posctx_curves_fill(&pc, -3, 7, &cv), TF_OK);
    assert_null(cv.c[1].unseen);
    posctx_curves_free(&cv);
    posctx_close(&pc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_none_and_masks),
        cmocka_unit_test(test_sinusoidal_and_rope),
        cmocka_unit_test(test_rope_scaled),
        cmocka_unit_test(test_alibi_t5_learned),
        cmocka_unit_test(test_curves_side_by_side),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
