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
#include "utf8.h"

/* The conversion letters of a printf format, in order ("%5.2f %s" -> "fs"). */
static void conversions(const char *s, char *out, size_t cap)
{
    size_t n = 0;
    for (const char *p = s; *p; p++) {
        if (*p != '%')
            continue;
        p++;
        if (*p == '%')
            continue;
        while (*p && strchr("0123456789.+- #lzh", *p))
            p++;
        if (*p && n + 1 < cap)
            out[n++] = *p;
        if (!*p)
            break;
    }
    out[n] = '\0';
}

/* East Asian Width "A" code points likely in UI text (UAX #11): Latin-1 symbols such as the
 * middle dot and multiplication sign, Greek, curly quotes, dashes, ellipsis, arrows, math
 * operators, box drawing and block elements, geometric shapes. */
static int ambiguous(uint32_t cp)
{
    return cp == 0xB7 || cp == 0xD7 || cp == 0xF7 || cp == 0xB1 || cp == 0xB0 ||
           (cp >= 0x391 && cp <= 0x3C9) || (cp >= 0x2010 && cp <= 0x2027) ||
           (cp >= 0x2190 && cp <= 0x21FF) || (cp >= 0x2200 && cp <= 0x22FF) ||
           (cp >= 0x2500 && cp <= 0x25FF);
}

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
