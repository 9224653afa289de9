/* test_alibi.c — ALiBi slopes against the paper's reference code (get_slopes, evaluated in
 * Python for these head counts), and the bias and mask in both forms. */
#include "alibi.h"
#include "check.h"

static void test_slopes(void **state)
{
    (void)state;
    /* get_slopes(n) of Press et al.'s reference implementation */
    static const struct {
        int heads;
        double m[12];
    } ref[] = {
        {1, {0.00390625}},
        {2, {0.0625, 0.00390625}},
        {3, {0.0625, 0.00390625, 0.25}},
        {4, {0.25, 0.0625, 0.015625, 0.00390625}},
        {5, {0.25, 0.0625, 0.015625, 0.00390625, 0.5}},
        {6, {0.25, 0.0625, 0.015625, 0.00390625, 0.5, 0.125}},
        {8, {0.5, 0.25, 0.125, 0.0625, 0.03125, 0.015625, 0.0078125, 0.00390625}},
        {12,
         {0.5, 0.25, 0.125, 0.0625, 0.03125, 0.015625, 0.0078125, 0.00390625, 0.7071067811865476,
          0.35355339059327384, 0.17677669529663692, 0.08838834764831849}},
    };
    for (size_t i = 0; i < sizeof ref / sizeof ref[0]; i++) {
        double m[12];
        alibi_slopes(ref[i].heads, m);
        check_max_diff("slopes", m, ref[i].m, (size_t)ref[i].heads, 1e-15);
    }
}

static void test_bias_and_mask(void **state)
{
    (void)state;
    /* causal: -m (i - j) on and below the diagonal, later keys masked */
    assert_close(alibi_bias(0.5, 4, 1, false), -1.5, 0);
    assert_close(alibi_bias(0.5, 4, 4, false), 0.0, 0);
    assert_true(alibi_visible(4, 4, false));
    assert_false(alibi_visible(4, 5, false));
    /* symmetric: -m |i - j| for every key, so left and right are the same */
    assert_true(alibi_visible(4, 9, true));
    assert_close(alibi_bias(0.25, 2, 6, true), -1.0, 0);
    assert_close(alibi_bias(0.25, 6, 2, true), -1.0, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_slopes),
        cmocka_unit_test(test_bias_and_mask),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
