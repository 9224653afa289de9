/* test_utf8.c — strict decoding: valid sequences, every class of invalid one, offsets. */
#include <string.h>

#include "check.h"
#include "utf8.h"

static void test_decode_valid(void **state)
{
    (void)state;
    uint32_t cp;
    assert_int_equal(utf8_decode("A", 1, &cp), 1);
    assert_int_equal(cp, 0x41);
    assert_int_equal(utf8_decode("\xC3\xA9", 2, &cp), 2); /* é */
    assert_int_equal(cp, 0xE9);
    assert_int_equal(utf8_decode("爱", 3, &cp), 3);
    assert_int_equal(cp, 0x7231);
    assert_int_equal(utf8_decode("\xF0\x9F\x98\x80", 4, &cp), 4); /* U+1F600 */
    assert_int_equal(cp, 0x1F600);
    assert_int_equal(utf8_decode("\xF4\x8F\xBF\xBF", 4, &cp), 4);
    assert_int_equal(cp, 0x10FFFF);
}

static void test_decode_invalid(void **state)
{
    (void)state;
    uint32_t cp;
    const char *bad[] = {
        "\x80",             /* lone continuation */
        "\xC0\xAF",         /* overlong '/' */
        "\xC1\xBF",         /* overlong */
        "\xE0\x80\xAF",     /* overlong 3-byte */
        "\xED\xA0\x80",     /* surrogate U+D800 */
        "\xF4\x90\x80\x80", /* above U+10FFFF */
        "\xF5\x80\x80\x80", /* F5 lead */
        "\xFF",
        "\xE7\x88",         /* truncated 爱 */
        "\xE7\x28\xB1",     /* bad continuation */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_equal(utf8_decode(bad[i], strlen(bad[i]), &cp), 0);
}

static void test_validate_offsets(void **state)
{
    (void)state;
    size_t off = 99;
    assert_int_equal(utf8_validate("我爱学习", strlen("我爱学习"), &off), TF_OK);
    assert_int_equal(utf8_validate("\xFF我爱", 7, &off), TF_ERR_UTF8);
    assert_int_equal(off, 0);
    assert_int_equal(utf8_validate("我\xFF爱", 7, &off), TF_ERR_UTF8);
    assert_int_equal(off, 3);
    assert_int_equal(utf8_validate("我爱\xE5\xAD", 8, &off), TF_ERR_UTF8); /* truncated end */
    assert_int_equal(off, 6);
}

static void test_encode_roundtrip(void **state)
{
    (void)state;
    uint32_t samples[] = {0x24, 0xA2, 0x20AC, 0x7231, 0xFF01, 0x10348, 0x10FFFF};
    for (size_t i = 0; i < sizeof samples / sizeof samples[0]; i++) {
        char buf[4];
        uint32_t back;
        size_t n = utf8_encode(samples[i], buf);
        assert_true(n >= 1 && n <= 4);
        assert_int_equal(utf8_decode(buf, n, &back), n);
        assert_int_equal(back, samples[i]);
    }
    char buf[4];
    assert_int_equal(utf8_encode(0xD800, buf), 0);
    assert_int_equal(utf8_encode(0x110000, buf), 0);
    assert_int_equal(utf8_count("我爱学习 ok", strlen("我爱学习 ok")), 7);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_decode_valid),
        cmocka_unit_test(test_decode_invalid),
        cmocka_unit_test(test_validate_offsets),
        cmocka_unit_test(test_encode_roundtrip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
