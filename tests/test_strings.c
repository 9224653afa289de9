/* test_strings.c — the string table: every entry in both languages, the same printf conversions
 * in both (a mismatch would be undefined behaviour at run time), and in the terminal's section
 * no East-Asian-ambiguous characters that CJK terminals draw two columns wide. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "textwidth.h"
#include "core/strings.h"
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
        if (id >= T_FIGURES_END) { /* a gloss: "{zh}" once in the format, plain Chinese */
            const char *at = strstr(en, "{zh}");
            if (!at || strstr(at + 1, "{zh}") || strchr(zh, '%'))
                fail_msg("gloss %d: the English takes {zh} once, the Chinese no %%", id);
        } else if (strcmp(cz, ce) != 0) {
            fail_msg("string %d: zh takes %%%s but en %%%s", id, cz, ce);
        }
        const char *both[2] = {zh, en};
        for (int l = 0; l < 2; l++) {
            size_t len = strlen(both[l]);
            for (size_t i = 0; i < len;) {
                uint32_t cp;
                size_t k = utf8_decode(both[l] + i, len - i, &cp);
                if (!k)
                    fail_msg("string %d is not UTF-8 at byte %zu", id, i);
                if (id < T_TERMINAL_END && ambiguous(cp)) /* figures draw any character */
                    fail_msg("string %d has the ambiguous-width U+%04X", id, (unsigned)cp);
                i += k;
            }
        }
    }
    assert_null(txt_lang(T_COUNT, true));
}

/* A gloss goes where its format says, and the format keeps its conversions. */
static void test_gloss(void **state)
{
    (void)state;
    char buf[512];
    assert_string_equal(txt_gloss_format(buf, sizeof buf, T_G_R_PE),
                        "\n3. Positional encoding (位置编码, C7)\n");
    char *out = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&out, &len);
    assert_non_null(fp);
    txt_gloss(fp, T_G_PCA, (size_t)7, "the built-in corpus");
    fclose(fp);
    assert_string_equal(out, "2-D map by PCA (主成分投影) of the 7 most frequent words of the "
                             "built-in corpus:\n");
    free(out);
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

static int width_of(const char *s) { return tw_width(s, strlen(s)); }

/* Lines a greedy wrap at `width` columns takes (a break may follow a space or a wide
 * character, as the explorer's wrap does). */
static int wrapped_lines(const char *s, int width)
{
    size_t len = strlen(s), i = 0;
    int lines = 0;
    while (i < len) {
        size_t j = i, brk = 0;
        int cols = 0;
        while (j < len) {
            uint32_t cp;
            size_t k = utf8_decode(s + j, len - j, &cp);
            int cw = tw_codepoint(cp);
            if (cols + cw > width)
                break;
            cols += cw;
            j += k;
            if (cp == ' ' || cw == 2)
                brk = j;
        }
        if (j < len && brk > i)
            j = brk;
        lines++;
        i = j;
        while (i < len && s[i] == ' ')
            i++;
    }
    return lines;
}

/* At 80x24 nothing is cut: the tab bar, each view's hint line, the captions (two lines of 78
 * columns) and the labels of the half-width panels of views 7 and 8 fit, in both languages,
 * with wide values filled in. */
static void test_fits_80(void **state)
{
    (void)state;
    static const txt_id tabs[8] = {T_TAB_EMBED, T_TAB_PE,    T_TAB_FREQ, T_TAB_REL,
                                   T_TAB_INPUT, T_TAB_ORDER, T_TAB_ROPE, T_TAB_LEARNED};
    static const txt_id keys[8] = {T_KEYS_EMBED, T_KEYS_PE,    T_KEYS_FREQ, T_KEYS_REL,
                                   T_KEYS_INPUT, T_KEYS_ORDER, T_KEYS_ROPE, T_KEYS_LEARNED};
    static const txt_id caps[8] = {T_CAP_EMBED, T_CAP_PE,    T_CAP_FREQ, T_CAP_REL,
                                   T_CAP_INPUT, T_CAP_ORDER, T_CAP_ROPE, T_CAP_LEARNED};
    char buf[512];
    for (int l = 0; l < 2; l++) {
        txt_set_zh(l == 0);
        int bar = width_of("tfviz ");
        for (int v = 0; v < 8; v++) {
            snprintf(buf, sizeof buf, " %d %s ", v + 1, txt(tabs[v]));
            bar += width_of(buf);
            /* the hint line: " " hint "  " keys, in 80 columns */
            int hint = 1 + width_of(txt(T_HINT)) + 2 + width_of(txt(keys[v]));
            if (hint > 79)
                fail_msg("view %d hint (%s) takes %d columns", v + 1, l ? "en" : "zh", hint);
            int cl = wrapped_lines(txt(caps[v]), 78);
            if (cl > 2)
                fail_msg("view %d caption (%s) takes %d lines at 78 columns", v + 1,
                         l ? "en" : "zh", cl);
        }
        if (bar > 80)
            fail_msg("the tab bar (%s) takes %d columns", l ? "en" : "zh", bar);
        /* view 7's panels are 80/2 - 2 = 38 columns wide (the score label 39) */
        txt_fmt(buf, sizeof buf, T_R7_PLANE, 255, "学习", 0.00010746);
        assert_in_range(width_of(buf), 1, 38);
        txt_fmt(buf, sizeof buf, T_R7_SCORE, "学习", "学习");
        assert_in_range(width_of(buf), 1, 39);
        txt_fmt(buf, sizeof buf, T_R7_CHECK, 3.2e-16, 10000L);
        assert_in_range(width_of(buf), 1, 39);
        txt_fmt(buf, sizeof buf, T_R7_DECAY, 4096);
        assert_in_range(width_of(buf), 1, 39);
        assert_in_range(width_of(txt(T_R7_ANGLE)), 1, 39);
        /* view 8's map and neighbour panels at 80 columns */
        txt_fmt(buf, sizeof buf, T_L_MAP, 48);
        assert_in_range(width_of(buf), 1, 34);
        txt_fmt(buf, sizeof buf, T_L_MAPVAR, 100.0, 100.0);
        assert_in_range(width_of(buf), 1, 34);
        txt_fmt(buf, sizeof buf, T_L_NEIGH, "喜欢");
        assert_in_range(width_of(buf), 1, 42);
        /* view 6's notes fit the 58 columns of a 60-column screen */
        static const txt_id order_lines[] = {T_O_PLAIN, T_O_ONE};
        for (size_t i = 0; i < sizeof order_lines / sizeof *order_lines; i++)
            assert_in_range(width_of(txt(order_lines[i])), 1, 58);
        txt_fmt(buf, sizeof buf, T_O_SHOWN, 999, 9999);
        assert_in_range(width_of(buf), 1, 58);
        txt_fmt(buf, sizeof buf, T_O_OMITTED, 9999);
        assert_in_range(width_of(buf), 1, 57);
        /* the note on the random head: the long one on 80 columns, the short one on 60 */
        assert_in_range(width_of(txt(T_O_HEAD)), 1, 78);
        assert_in_range(width_of(txt(T_O_HEAD_S)), 1, 58);
        /* the colour bars' names beside two bars of 24 columns on 80 */
        assert_in_range(width_of(txt(T_O_BAR_ATTN)) + width_of(txt(T_O_BAR_DIFF)), 2,
                        78 - 2 * 24 - 4);
        /* a reading under each mode: 23 columns at 80 (the short form when the long is wider)
         * with max|A-B| 0.999 and a change of 100% */
        txt_fmt(buf, sizeof buf, T_O_RD_SAME, "0");
        assert_in_range(width_of(buf), 1, 23);
        txt_fmt(buf, sizeof buf, T_O_RD_SAME_S, "0");
        assert_in_range(width_of(buf), 1, 16);
        txt_fmt(buf, sizeof buf, T_O_RD_DIFF_S, "0.999", "100%");
        assert_in_range(width_of(buf), 1, 23);
        txt_fmt(buf, sizeof buf, T_O_RD_DIFF_XS, "0.999"); /* 16 columns at 60 */
        assert_in_range(width_of(buf), 1, 16);
        /* the maps' titles over maps of 6 columns (3 tokens at 2 columns) */
        static const txt_id titles[] = {T_O_MAP_A, T_O_MAP_B, T_O_MAP_BOWN, T_O_MAP_D};
        for (size_t i = 0; i < sizeof titles / sizeof *titles; i++)
            assert_in_range(width_of(txt(titles[i])), 1, 6);
        assert_in_range(width_of(txt(T_O_MAP_D_S)), 1, 3);
        /* the long readings, on screens of 100 columns and more */
        txt_fmt(buf, sizeof buf, T_O_LONG0, 8.9e-16);
        assert_in_range(width_of(buf), 1, 98);
        txt_fmt(buf, sizeof buf, T_O_LONG1, "100%");
        assert_in_range(width_of(buf), 1, 98);
        txt_fmt(buf, sizeof buf, T_O_LONG2, "100%");
        assert_in_range(width_of(buf), 1, 98);
        /* messages on the line above the status line of an 80-column screen */
        static const txt_id order_msgs[] = {T_O_B_BAD,     T_O_B_RESET,  T_O_B_DEFAULT,
                                            T_O_EDIT_HINT, T_O_SHOW_OWN, T_O_SHOW_ALIGNED};
        for (size_t i = 0; i < sizeof order_msgs / sizeof *order_msgs; i++)
            assert_in_range(width_of(txt(order_msgs[i])), 1, 78);
    }
    txt_set_zh(true);
}

/* The one-hot line counts the other V - 1 entries, and an unknown token says [UNK]. */
static void test_onehot_words(void **state)
{
    (void)state;
    char buf[256];
    for (int l = 0; l < 2; l++) {
        txt_set_zh(l == 0);
        txt_fmt(buf, sizeof buf, T_E_ONEHOT_UNK, "x", 1, "99,999");
        assert_non_null(strstr(buf, "[UNK]"));
        assert_non_null(strstr(buf, "99,999"));
        assert_null(strstr(txt(T_E_ONEHOT), "[UNK]"));
        assert_in_range(width_of(buf), 1, 78);
    }
    txt_set_zh(true);
    txt_fmt(buf, sizeof buf, T_E_ONEHOT, "我", 11, "99,999");
    assert_string_equal(buf, "「我」的独热向量：第 11 位是 1，其余 99,999 位都是 0");
}

/* A short form (T_NAME_S) takes the first of its long form's arguments (tui_fit gives both the
 * same ones, and the compiler checks them against the long form's English). */
static void test_short_forms(void **state)
{
    (void)state;
    static const txt_id pairs[][2] = {
#define X(l, s) {l, s},
        TXT_SHORT_FORMS(X)
#undef X
    };
    assert_true(sizeof pairs / sizeof pairs[0] > 20);
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        if (pairs[i][1] == T_L_BAND_S) /* formatted on its own (view_word_vectors.c), not by tui_fit */
            continue;
        char cl[32], cs[32];
        conversions(txt_lang(pairs[i][0], false), cl, sizeof cl);
        conversions(txt_lang(pairs[i][1], false), cs, sizeof cs);
        if (strncmp(cl, cs, strlen(cs)) != 0)
            fail_msg("short form %d takes %%%s, not the start of its long form's %%%s",
                     (int)pairs[i][1], cs, cl);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table),
        cmocka_unit_test(test_short_forms),
        cmocka_unit_test(test_gloss),
        cmocka_unit_test(test_switch),
        cmocka_unit_test(test_fits_80),
        cmocka_unit_test(test_onehot_words),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
