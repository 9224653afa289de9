/* test_rope_scaling.c — RoPE's context-extension methods: what each does to the frequencies,
 * checked against values worked out by hand (Hugging Face's reference computations, re-written
 * in numpy, are compared in schemes_reference_test.py), and the refusals. */
#include <string.h>

#include "check.h"
#include "rope.h"
#include "rope_scaling.h"

enum { D = 128, H = D / 2 };

static void inv(rope_scaling_kind kind, void (*edit)(rope_scaling_cfg *), double *out, double *orig,
                double *attn)
{
    rope_scaling_cfg c;
    rope_scaling_defaults(kind, &c);
    if (edit)
        edit(&c);
    assert_int_equal(rope_scaling_inv_freq(&c, D, out, orig, attn), TF_OK);
}

static void test_names(void **state)
{
    (void)state;
    for (int k = 0; k < ROPE_SCALING_COUNT; k++)
        assert_int_equal(rope_scaling_parse(rope_scaling_name((rope_scaling_kind)k)), k);
    assert_int_equal(rope_scaling_parse("YaRN"), ROPE_SCALING_COUNT);
    assert_int_equal(rope_scaling_parse(NULL), ROPE_SCALING_COUNT);
    assert_null(rope_scaling_name(ROPE_SCALING_COUNT));
}

static void test_none_linear_ntk(void **state)
{
    (void)state;
    double f[H], o[H], theta[H], a;
    rope_thetas(D, 10000, theta);
    inv(ROPE_SCALING_NONE, NULL, f, o, &a);
    check_max_diff("none = rope_thetas", f, theta, H, 0.0);
    check_max_diff("original", o, theta, H, 0.0);
    assert_true(a == 1.0);
    /* linear: every frequency divided by s = 4 */
    inv(ROPE_SCALING_LINEAR, NULL, f, o, &a);
    for (int i = 0; i < H; i++)
        assert_true(f[i] * 4 == theta[i]);
    /* ntk: base 10000 * 4^(128/126); the fastest pair is kept, the slowest slowed 4 times */
    inv(ROPE_SCALING_NTK, NULL, f, o, &a);
    assert_true(f[0] == 1.0);
    assert_close(f[H - 1] * 4 / theta[H - 1], 1.0, 1e-13);
    assert_close(f[1], pow(10000 * pow(4, 128.0 / 126), -2.0 / 128), 1e-16);
    for (int i = 1; i < H; i++)
        assert_true(f[i] < theta[i] && f[i] > theta[i] / 4 * (1 - 1e-12));
}

static void dyn_at_original(rope_scaling_cfg *c)
{
    c->seq_len = c->original;
}

static void test_dynamic(void **state)
{
    (void)state;
    double f[H], o[H], a;
    /* at the trained length nothing changes */
    inv(ROPE_SCALING_DYNAMIC, dyn_at_original, f, o, &a);
    check_max_diff("dynamic at L", f, o, H, 0.0);
    /* seq_len 0: the extended length s L: base (s^2 - s + 1)^(d/(d-2)) = 13^(128/126) base */
    inv(ROPE_SCALING_DYNAMIC, NULL, f, o, &a);
    assert_close(f[1], pow(10000 * pow(13, 128.0 / 126), -2.0 / 128), 1e-16);
}

static void yarn_no_truncate(rope_scaling_cfg *c)
{
    c->truncate = false;
}
static void yarn_mscales(rope_scaling_cfg *c)
{
    c->mscale = 1.0;
    c->mscale_all_dim = 0.707;
}
static void yarn_given(rope_scaling_cfg *c)
{
    c->attention_factor = 1.5;
}

static void test_yarn(void **state)
{
    (void)state;
    double f[H], o[H], a, lo, hi;
    rope_scaling_cfg c;
    rope_scaling_defaults(ROPE_SCALING_YARN, &c);
    /* d 128, base 10000, L 4096: pair 20.94 turns 32 times in L, pair 45.03 once */
    rope_scaling_yarn_range(&c, D, &lo, &hi);
    assert_true(lo == 20 && hi == 46);
    c.truncate = false;
    rope_scaling_yarn_range(&c, D, &lo, &hi);
    assert_close(lo, 128 * log(4096 / (2 * M_PI * 32)) / (2 * log(10000)), 1e-13);
    assert_close(lo, 20.9445, 1e-4);
    assert_close(hi, 45.0269, 1e-4);
    inv(ROPE_SCALING_YARN, NULL, f, o, &a);
    for (int i = 0; i < H; i++) {
        if (i <= 20)
            assert_true(f[i] == o[i]); /* fast pairs: as trained */
        else if (i >= 46)
            assert_close(f[i] / (o[i] / 4), 1.0, 1e-15); /* slow pairs: interpolated */
        else                                             /* the ramp: (i - 20) / 26 of the way */
            assert_close(f[i], o[i] / 4 * (i - 20) / 26.0 + o[i] * (1 - (i - 20) / 26.0), 1e-16);
    }
    assert_close(a, 0.1 * log(4) + 1, 1e-16);
    inv(ROPE_SCALING_YARN, yarn_no_truncate, f, o, &a);
    assert_close(f[21], o[21] / 4 * (21 - lo) / (hi - lo) + o[21] * (1 - (21 - lo) / (hi - lo)),
                 1e-16);
    inv(ROPE_SCALING_YARN, yarn_mscales, f, o, &a);
    assert_close(a, (0.1 * log(4) + 1) / (0.1 * 0.707 * log(4) + 1), 1e-15);
    inv(ROPE_SCALING_YARN, yarn_given, f, o, &a);
    assert_true(a == 1.5);
}

static void test_llama3(void **state)
{
    (void)state;
    double f[H], o[H], a;
    inv(ROPE_SCALING_LLAMA3, NULL, f, o, &a);
    assert_true(a == 1.0);
    /* base 500000, L 8192, s 8: wavelengths under 2048 kept, over 8192 divided by 8 */
    int kept = 0, scaled = 0, blended = 0;
    for (int i = 0; i < H; i++) {
        double w = 2 * M_PI / o[i];
        if (w < 2048) {
            assert_true(f[i] == o[i]);
            kept++;
        } else if (w > 8192) {
            assert_true(f[i] == o[i] / 8);
            scaled++;
        } else {
            double g = (8192 / w - 1) / 3;
            assert_close(f[i], (1 - g) * o[i] / 8 + g * o[i], 1e-18);
            assert_true(f[i] < o[i] && f[i] > o[i] / 8);
            blended++;
        }
    }
    /* wavelength 2 pi 500000^(2i/128): 2048 at i = 28.2, 8192 at i = 35.0 (8218.7) */
    assert_int_equal(kept, 29);
    assert_int_equal(blended, 6);
    assert_int_equal(scaled, 29);
}

static void test_unseen(void **state)
{
    (void)state;
    double f[H], o[H], a;
    inv(ROPE_SCALING_NONE, NULL, f, o, &a);
    /* trained on 4096 positions: pairs with wavelength over 4095 never completed a turn */
    int slow = 0;
    for (int i = 0; i < H; i++)
        slow += 4095 * o[i] < 2 * M_PI;
    assert_true(slow > 0 && slow < H);
    assert_true(rope_scaling_unseen(f, o, D, 4096, 4095) == 0.0);
    assert_close(rope_scaling_unseen(f, o, D, 4096, 4096), (double)slow / H, 1e-15);
    assert_close(rope_scaling_unseen(f, o, D, 4096, -100000), (double)slow / H, 1e-15);
    /* linear by 4: nothing unseen up to 4 * 4095 */
    inv(ROPE_SCALING_LINEAR, NULL, f, o, &a);
    assert_true(rope_scaling_unseen(f, o, D, 4096, 4 * 4095) == 0.0);
    assert_true(rope_scaling_unseen(f, o, D, 4096, 4 * 4095 + 1) > 0.0);
    /* ntk by 4: only the slowest pair is slowed 4 times, the others less, so angles go unseen
     * before 4 L (the "out-of-bound" values of the YaRN paper) */
    inv(ROPE_SCALING_NTK, NULL, f, o, &a);
    assert_true(rope_scaling_unseen(f, o, D, 4096, 3 * 4096) > 0.0);
    assert_true(rope_scaling_unseen(f, o, D, 4096, 4095) == 0.0);
}

static void test_refusals(void **state)
{
    (void)state;
    rope_scaling_cfg c;
    const char *why;
    double f[H];
    rope_scaling_defaults(ROPE_SCALING_LINEAR, &c);
    c.factor = 0.5;
    assert_int_equal(rope_scaling_check(&c, D, &why), TF_ERR_RANGE);
    assert_non_null(strstr(why, "factor"));
    c.factor = NAN;
    assert_int_equal(rope_scaling_inv_freq(&c, D, f, NULL, NULL), TF_ERR_RANGE);
    rope_scaling_defaults(ROPE_SCALING_LINEAR, &c);
    assert_int_equal(rope_scaling_check(&c, 7, &why), TF_ERR_DMODEL);
    c.base = 1.0;
    assert_int_equal(rope_scaling_check(&c, D, &why), TF_ERR_BASE);
    rope_scaling_defaults(ROPE_SCALING_NTK, &c);
    assert_int_equal(rope_scaling_check(&c, 2, &why), TF_ERR_DMODEL);
    assert_non_null(strstr(why, "d/(d-2)"));
    rope_scaling_defaults(ROPE_SCALING_YARN, &c);
    c.beta_fast = 1, c.beta_slow = 32;
    assert_int_equal(rope_scaling_check(&c, D, &why), TF_ERR_RANGE);
    assert_non_null(strstr(why, "beta_fast"));
    rope_scaling_defaults(ROPE_SCALING_LLAMA3, &c);
    c.high_freq_factor = 1;
    assert_int_equal(rope_scaling_check(&c, D, &why), TF_ERR_RANGE);
    assert_non_null(strstr(why, "high_freq_factor"));
    c.kind = ROPE_SCALING_COUNT;
    assert_int_equal(rope_scaling_check(&c, D, &why), TF_ERR_RANGE);
    rope_scaling_defaults(ROPE_SCALING_NONE, &c);
    c.original = 0;
    assert_int_equal(rope_scaling_check(&c, D, &why), TF_ERR_RANGE);
}

/* The RoPE score with a method's frequencies, through rope.c's rotation. */
static void test_score_thetas(void **state)
{
    (void)state;
    double q[8] = {0.3, -1, 2, 0.5, 0.1, 0.7, -0.2, 1.1},
           k[8] = {1, 0.4, -0.3, 2, 0.6, -1, 0.9, 0.2};
    double th[4], rq[8];
    rope_thetas(8, 10000, th);
    for (int s = 0; s < ROPE_STYLE_COUNT; s++) {
        rope_rotate(q, 8, 10000, 7.0, (rope_style)s, rq);
        double want = 0;
        for (int j = 0; j < 8; j++)
            want += rq[j] * k[j];
        assert_close(rope_score_thetas(q, k, 8, th, (rope_style)s, 7.0), want, 1e-14);
    }
    assert_close(rope_decay_bound_thetas(8, th, 10.0), rope_decay_bound(8, 10000, 10.0), 0.0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names),    cmocka_unit_test(test_none_linear_ntk),
        cmocka_unit_test(test_dynamic),  cmocka_unit_test(test_yarn),
        cmocka_unit_test(test_llama3),   cmocka_unit_test(test_unseen),
        cmocka_unit_test(test_refusals), cmocka_unit_test(test_score_thetas),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
