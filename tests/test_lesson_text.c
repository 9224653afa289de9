/* test_lesson_text.c — the lesson's words: eleven steps, every text in both languages, a visual
 * that exists, the same printf conversions in both languages of every label, and no
 * East-Asian-ambiguous characters (CJK terminals draw them two columns wide). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "core/lesson_keys.h"
#include "core/strings.h"
#include "tui/lesson.h"
#include "text_check.h"
#include "textwidth.h"
#include "utf8.h"

static void check_text(const char *s, const char *what)
{
    if (!s || !*s)
        fail_msg("%s is empty", what);
    size_t len = strlen(s);
    for (size_t i = 0; i < len;) {
        uint32_t cp;
        size_t k = utf8_decode(s + i, len - i, &cp);
        if (!k)
            fail_msg("%s is not UTF-8 at byte %zu", what, i);
        if (ambiguous(cp))
            fail_msg("%s has the ambiguous-width U+%04X", what, (unsigned)cp);
        if (cp == '%')
            fail_msg("%s has a %% (step texts are not formats)", what);
        i += k;
    }
}

/* A step's point (what --big shows large): one sentence within LESSON_POINT_COLS columns. */
static void check_point(const char *s, const char *what)
{
    check_text(s, what);
    int cols = 0;
    size_t len = strlen(s);
    for (size_t i = 0; i < len;) {
        uint32_t cp;
        i += utf8_decode(s + i, len - i, &cp);
        cols += (cp >= 0x2E80 && cp <= 0x9FFF) || (cp >= 0xFF00 && cp <= 0xFF60) ? 2 : 1;
    }
    if (cols > LESSON_POINT_COLS)
        fail_msg("%s is %d columns wide (at most %d)", what, cols, LESSON_POINT_COLS);
}

static void test_steps(void **state)
{
    (void)state;
    char what[64];
    for (int i = 0; i < LESSON_STEPS; i++) {
        const lesson_step *s = lesson_get(i);
        const lesson_words *w = lesson_words_at(i);
        assert_non_null(s);
        assert_non_null(w);
        assert_true(s->view == NULL || s->view == tui_views[tui_view_index(s->view)]);
        for (int l = 0; l < 2; l++) {
            snprintf(what, sizeof what, "step %d title[%d]", i + 1, l);
            check_text(w->title[l], what);
            snprintf(what, sizeof what, "step %d body[%d]", i + 1, l);
            check_text(w->body[l], what);
            snprintf(what, sizeof what, "step %d try[%d]", i + 1, l);
            check_text(w->try_[l], what);
            snprintf(what, sizeof what, "step %d keys[%d]", i + 1, l);
            check_text(w->keys[l], what);
            snprintf(what, sizeof what, "step %d point[%d]", i + 1, l);
            check_point(w->point[l], what);
        }
    }
    assert_null(lesson_get(-1));
    assert_null(lesson_get(LESSON_STEPS));
    /* the issues' order: bytes first, attention order at 6, the order model trained at 7, the
     * PE formula at 8, RoPE last */
    assert_null(lesson_get(0)->view);
    assert_ptr_equal(lesson_get(5)->view, &view_order);
    assert_ptr_equal(lesson_get(6)->view, &view_order_training);
    assert_ptr_equal(lesson_get(7)->view, &view_pe);
    assert_ptr_equal(lesson_get(LESSON_STEPS - 1)->view, &view_rope);
    /* --extended: the position schemes after RoPE, in both languages */
    for (int i = 0; i < LESSON_EXTRA_STEPS; i++) {
        const lesson_words *w = lesson_words_at(LESSON_STEPS + i);
        assert_non_null(lesson_get_extra(i));
        assert_non_null(w);
        for (int l = 0; l < 2; l++) {
            check_text(w->title[l], "extra title");
            check_text(w->body[l], "extra body");
            check_text(w->try_[l], "extra try");
            check_text(w->keys[l], "extra keys");
            check_point(w->point[l], "extra point");
        }
    }
    assert_ptr_equal(lesson_get_extra(0)->view, &view_schemes);
    assert_null(lesson_get_extra(LESSON_EXTRA_STEPS));
    assert_null(lesson_words_at(LESSON_STEPS + LESSON_EXTRA_STEPS));
}

static void test_labels(void **state)
{
    (void)state;
    for (int id = T_LESSON_HEADER; id <= T_LESSON_HELP_STEP; id++) {
        const char *zh = txt_lang((txt_id)id, true);
        const char *en = txt_lang((txt_id)id, false);
        assert_non_null(zh);
        assert_non_null(en);
        char cz[32], ce[32];
        conversions(zh, cz, sizeof cz);
        conversions(en, ce, sizeof ce);
        if (strcmp(cz, ce) != 0)
            fail_msg("label %d: zh takes %%%s but en %%%s", id, cz, ce);
    }
    assert_null(txt_lang(T_COUNT, true));
    char buf[64];
    txt_fmt_lang(buf, sizeof buf, T_LESSON_HEADER, false, 3, LESSON_STEPS);
    assert_string_equal(buf, "tfviz lesson 3/12");
}

/* The ? overlay of the lesson lists the lesson's own keys, not the explorer's view switching. */
static void test_help(void **state)
{
    (void)state;
    char zh[1024], en[1024];
    lesson_keys_help(zh, sizeof zh, true);
    lesson_keys_help(en, sizeof en, false);
    /* navigation that no step uses: Space/PgDn/Enter on, PgUp/Backspace back (a clicker's
     * keys; arrows are the steps') */
    assert_non_null(strstr(zh, "空格 / PgDn / 回车  下一步"));
    assert_non_null(strstr(zh, "PgUp / 退格  上一步"));
    assert_non_null(strstr(en, "Space / PgDn / Enter  next step"));
    assert_non_null(strstr(en, "PgUp / Backspace  previous step"));
    assert_null(strstr(zh, "左键"));
    assert_null(strstr(en, "Left"));
    for (int l = 0; l < 2; l++) {
        const char *h = l ? en : zh;
        assert_null(strstr(h, "1-8"));
        assert_null(strstr(h, "Tab"));
    }
    /* step 3's try line points at what is on screen (view 1 has no middle column) */
    assert_null(strstr(lesson_words_at(2)->try_[1], "middle column"));
    assert_null(strstr(lesson_words_at(2)->try_[0], "中间一栏"));
}

/* The key line and the ? help are the key table's rows: every row's keys with its word on the
 * line, with its sentence in the help, in both languages; the line fits an 80-column screen. */
static void test_key_table(void **state)
{
    (void)state;
    size_t n;
    const lesson_key_row *rows = lesson_keys(&n);
    assert_true(n >= 6);
    for (int l = 0; l < 2; l++) {
        char line[512], help[1024], names[128], want[256];
        lesson_keys_line(line, sizeof line, l == 0);
        lesson_keys_help(help, sizeof help, l == 0);
        assert_true(tw_width(line, strlen(line)) <= 78);
        for (size_t i = 0; i < n; i++) {
            lesson_keys_names(names, sizeof names, &rows[i], l == 0, "/");
            assert_true(names[0] != '\0');
            snprintf(want, sizeof want, "%s %s", names, txt_lang(rows[i].action, l == 0));
            assert_non_null(strstr(line, want));
            lesson_keys_names(names, sizeof names, &rows[i], l == 0, " / ");
            snprintf(want, sizeof want, "%s  %s\n", names, txt_lang(rows[i].help, l == 0));
            assert_non_null(strstr(help, want));
        }
    }
    char en[128];
    lesson_keys_names(en, sizeof en, &rows[0], false, ", ");
    assert_string_equal(en, "Space, PgDn, Enter");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_steps),
        cmocka_unit_test(test_labels),
        cmocka_unit_test(test_help),
        cmocka_unit_test(test_key_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
