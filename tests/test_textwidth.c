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
    assert_int_equal(tw_width("\x1b", 1), 1);          /* a control is shown as one '?' */
    assert_int_equal(tw_width("\xFF", 1), 1);
    assert_int_equal(tw_codepoint(0x3000), 2);
    assert_int_equal(tw_codepoint(0x2014), 1);           /* em dash: ambiguous, 1 here */
}

/* One rule for every caller: a C1 control is shown as one '?' too; without a UTF-8 locale a
 * character outside ASCII is shown as U+XXXX. */
static void test_shown(void **state)
{
    (void)state;
    assert_int_equal(tw_width("\xC2\x85", 2), 1);          /* U+0085, a C1 control */
    assert_int_equal(tw_width_shown("爱", strlen("爱"), true), 6);
    assert_int_equal(tw_width_shown("\xF0\x9F\x99\x82", 4, true), 8); /* U+1F642 */
    assert_int_equal(tw_width_shown("a\x01", 2, true), 2);
    char out[16];
    assert_int_equal(tw_cut(out, sizeof out, "我爱学习", strlen("我爱学习"), 5, "..."), 5);
    assert_string_equal(out, "我...");
}

/* Lines break after a space or a wide character, never before closing punctuation or inside
 * 爱-喜欢, and a newline ends a line; the next line starts past the spaces. */
static void test_wrap(void **state)
{
    (void)state;
    size_t next;
    const char *s = "我爱学习。你好";
    /* 8 columns hold 我爱学习 but 。 may not begin the next line: 学习 moves down with it */
    size_t l = tw_wrap_line(s, strlen(s), 8, false, &next);
    assert_int_equal(l, strlen("我爱学"));
    assert_int_equal(next, l);
    const char *t = "one two three";
    l = tw_wrap_line(t, strlen(t), 9, false, &next);
    assert_int_equal(l, 8); /* "one two " */
    assert_int_equal(next, 8);
    const char *u = "ab\n\n  cd";
    l = tw_wrap_line(u, strlen(u), 40, false, &next);
    assert_int_equal(l, 2);
    assert_int_equal(next, 6);
    const char *v = "x 爱-喜欢";
    l = tw_wrap_line(v, strlen(v), 5, false, &next);
    assert_int_equal(l, 2); /* not between 爱 and -喜欢 */
    /* nor inside the word after the hyphen: "x 爱-喜" and 欢 alone on the next line was a break
     * view 8's caption took at 100 columns */
    l = tw_wrap_line(v, strlen(v), 7, false, &next);
    assert_int_equal(l, 2);
    const char *w = "随后 爱-喜欢 高出";
    l = tw_wrap_line(w, strlen(w), 13, false, &next);
    assert_int_equal(l, strlen("随后 爱-喜欢 ")); /* whole pair, then a break at the space */
    char line[32] = "one two three four";
    tw_ellipsize(line, 12, false);
    assert_string_equal(line, "one two...");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_widths),
        cmocka_unit_test(test_shown),
        cmocka_unit_test(test_wrap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
