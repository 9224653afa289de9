/* test_scheme.c — position scheme names: every name round-trips, aliases, lists. */
#include <string.h>

#include "check.h"
#include "scheme.h"

static void test_names_round_trip(void **state)
{
    (void)state;
    for (int i = 0; i < SCHEME_COUNT; i++)
        assert_int_equal(scheme_parse(scheme_name((tf_scheme)i)), i);
    assert_int_equal(scheme_parse("nope"), SCHEME_NONE);
    assert_int_equal(scheme_parse("pe"), SCHEME_SINUSOIDAL);
    assert_int_equal(scheme_parse("ROPE"), SCHEME_COUNT);
    assert_int_equal(scheme_parse(""), SCHEME_COUNT);
    assert_int_equal(scheme_parse(NULL), SCHEME_COUNT);
    assert_null(scheme_name(SCHEME_COUNT));
}

static void test_list(void **state)
{
    (void)state;
    tf_scheme s[SCHEME_COUNT];
    size_t n, bad;
    assert_true(scheme_parse_list("none,sinusoidal,learned,rope", s, SCHEME_COUNT, &n, &bad));
    assert_int_equal(n, 4);
    assert_int_equal(s[0], SCHEME_NONE);
    assert_int_equal(s[3], SCHEME_ROPE);
    assert_true(scheme_parse_list("rope,rope,alibi", s, SCHEME_COUNT, &n, &bad));
    assert_int_equal(n, 2);
    assert_false(scheme_parse_list("none,,rope", s, SCHEME_COUNT, &n, &bad));
    assert_int_equal(bad, 5);
    assert_false(scheme_parse_list("none,bogus", s, SCHEME_COUNT, &n, &bad));
    assert_int_equal(bad, 5);
    assert_true(scheme_adds_to_input(SCHEME_SINUSOIDAL));
    assert_false(scheme_adds_to_input(SCHEME_ROPE));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names_round_trip),
        cmocka_unit_test(test_list),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
