/* test_tui_text.c — the explorer's string table: every entry in both languages, the same printf
 * conversions in both (a mismatch would be undefined behaviour at run time), and no
 * East-Asian-ambiguous characters that CJK terminals draw two columns wide. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "tui_text.h"
#include "text_check.h"
#include "utf8.h"

static void test_table(void **state)
{
    (void)state;
    for (int id = 0; id < T_COUNT; id++) {
        const char *zh = txt_lang((txt_id)id, true), *en = txt_lang((txt_id)id, false);
        if (!zh || !en)
            fail_msg("string %d is missing a language", id);
        char cz[32], ce[32];
        conversions(zh, cz, sizeof cz);
        conversions(en, ce, sizeof ce);
        if (strcmp(cz, ce) != 0)
            fail_msg("string %d: zh takes %%%s but en %%%s", id, cz, ce);
        const char *both[2] = {zh, en};
        for (int l = 0; l < 2; l++) {
            size_t len = strlen(both[l]);
            for (size_t i = 0; i < len;) {
                uint32_t cp;
                size_t k = utf8_decode(both[l] + i, len - i, &cp);
                if (!k)
                    fail_msg("string %d is not UTF-8 at byte %zu", id, i);
                if (ambiguous(cp))
                    fail_msg("string %d has the ambiguous-width U+%04X", id, (unsigned)cp);
                i += k;
            }
        }
    }
    assert_null(txt_lang(T_COUNT, true));
}

static void test_switch(void **state)
{
    (void)state;
    txt_set_zh(true);
    assert_string_equal(txt(T_TAB_PE), "位置编码");
    txt_set_zh(false);
    assert_string_equal(txt(T_TAB_PE), "PE");
    char buf[64];
    txt_fmt(buf, sizeof buf, T_DMODEL_NOW, 4096);
    assert_string_equal(buf, "d_model = 4096");
    txt_set_zh(true);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table),
        cmocka_unit_test(test_switch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
