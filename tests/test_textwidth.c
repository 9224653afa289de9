/* test_textwidth.c — display widths of CJK, ASCII, controls and invalid bytes. */
#include <string.h>

#include "check.h"
#include "textwidth.h"

static void test_widths(void **state)
{
    (void)state;
    assert_int_equal(tw_width("我爱学习", strlen("我爱学习")), 8);
    assert_int_equal(tw_width("AI", 2), 2);
    assert_int_equal(tw_width("！", strlen("！")), 2);   /* full-width exclamation */
    assert_int_equal(tw_width("é", strlen("é")), 1);
    assert_int_equal(tw_width("e\xCC\x81", 3), 1);      /* e + combining acute */
    assert_int_equal(tw_width("\x1b", 1), 0);
    assert_int_equal(tw_width("\xFF", 1), 1);
    assert_int_equal(tw_codepoint(0x3000), 2);
    assert_int_equal(tw_codepoint(0x2014), 1);           /* em dash: ambiguous, 1 here */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_widths),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
