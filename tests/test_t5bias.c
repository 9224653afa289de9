/* test_t5bias.c — T5's relative position buckets against an independent reference:
 * tests/data/t5_buckets.txt, written by tests/data/t5_buckets.py (Hugging Face's
 * _relative_position_bucket transcribed with numpy), for distances -200 .. 200 and five
 * configurations. */
#include <stdlib.h>

#include "check.h"
#include "t5bias.h"

static void test_reference_table(void **state)
{
    (void)state;
    FILE *f = fopen(TF_TEST_DATA_DIR "/t5_buckets.txt", "r");
    assert_non_null(f);
    char line[256];
    int rows = 0, wrong = 0;
    while (fgets(line, sizeof line, f)) {
        int bidir, nb, md;
        long rel;
        int want;
        if (line[0] == '#')
            continue;
        assert_int_equal(sscanf(line, "%d %d %d %ld %d", &bidir, &nb, &md, &rel, &want), 5);
        int got = t5_bucket(rel, bidir != 0, nb, md);
        if (got != want && wrong++ < 5)
            fprintf(stderr, "# bidirectional %d, %d buckets, max %d: rel %ld -> %d, want %d\n",
                    bidir, nb, md, rel, got, want);
        rows++;
    }
    fclose(f);
    assert_int_equal(wrong, 0);
    assert_int_equal(rows, 5 * 401);
}

static void test_shape(void **state)
{
    (void)state;
    /* T5's defaults: one bucket per distance below 8 on each side, keys after the query in the
     * upper half, the last bucket from distance 128 on */
    for (long r = 0; r < 8; r++) {
        assert_int_equal(t5_bucket(-r, true, 32, 128), r);
        if (r)
            assert_int_equal(t5_bucket(r, true, 32, 128), 16 + r);
    }
    assert_int_equal(t5_bucket(-128, true, 32, 128), 15);
    assert_int_equal(t5_bucket(-100000, true, 32, 128), 15);
    assert_int_equal(t5_bucket(100000, true, 32, 128), 31);
    /* the buckets never decrease with distance on either side */
    for (long r = 1; r < 300; r++) {
        assert_true(t5_bucket(-r, true, 32, 128) >= t5_bucket(-(r - 1), true, 32, 128));
        if (r > 1)
            assert_true(t5_bucket(r, true, 32, 128) >= t5_bucket(r - 1, true, 32, 128));
    }
    /* unidirectional: every later key shares bucket 0 */
    assert_int_equal(t5_bucket(5, false, 32, 128), 0);
    assert_int_equal(t5_bucket(-5, false, 32, 128), 5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reference_table),
        cmocka_unit_test(test_shape),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
