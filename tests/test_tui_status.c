/* test_tui_status.c — the explorer's status line: whole fields or none, a sentence cut only
 * between characters, the cursor value cut only between its parts; the analysis messages in both
 * languages; numbered export file names. Widths are checked against a separate count (ASCII one
 * column, CJK ideographs and full-width forms two, the ellipsis one). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/strings.h"
#include "text_check.h"
#include "textwidth.h"
#include "tui/statusline.h"
#include "tui/view.h"
#include "utf8.h"

#define ELL "\xe2\x80\xa6" /* U+2026 */

/* Columns by the test's own rule: this file only uses ASCII, CJK ideographs, CJK punctuation,
 * full-width forms and the ellipsis. */
static int cols_of(const char *s)
{
    int c = 0;
    size_t len = strlen(s);
    for (size_t i = 0; i < len;) {
        uint32_t cp;
        size_t k = utf8_decode(s + i, len - i, &cp);
        assert_true(k > 0); /* every output is valid UTF-8 */
        bool wide = (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0x3000 && cp <= 0x303F) ||
                    (cp >= 0xFF01 && cp <= 0xFF60);
        c += wide ? 2 : 1;
        i += k;
    }
    return c;
}

static void test_cut(void **state)
{
    (void)state;
    const char *s = "Transformer 模型在处理我爱学习这个句子时，先分词。";
    int total = cols_of(s);
    for (int w = 0; w <= total + 2; w++) {
        char out[256];
        int got = tw_cut(out, sizeof out, s, strlen(s), w, ELL);
        assert_int_equal(got, cols_of(out));
        assert_true(got <= w);
        if (w >= total) {
            assert_string_equal(out, s);
            continue;
        }
        if (w == 0) {
            assert_string_equal(out, "");
            continue;
        }
        /* a prefix of s, then the ellipsis; one more character would not fit */
        size_t l = strlen(out);
        assert_true(l >= strlen(ELL));
        assert_string_equal(out + l - strlen(ELL), ELL);
        size_t p = l - strlen(ELL);
        assert_memory_equal(out, s, p);
        uint32_t cp;
        size_t k = utf8_decode(s + p, strlen(s) - p, &cp);
        assert_true(k > 0);
        char next[8] = {0};
        memcpy(next, s + p, k);
        assert_true(got + cols_of(next) > w);
    }
    /* the brief's case: a CJK sentence never ends in half a character */
    char out[96];
    tw_cut(out, sizeof out, "我爱学习", strlen("我爱学习"), 5, ELL);
    assert_string_equal(out, "我爱" ELL);
    tw_cut(out, sizeof out, "我爱学习", strlen("我爱学习"), 6, "...");
    assert_string_equal(out, "我..."); /* 2 + 3 columns: 我爱 would need 7 */
    /* a small buffer still ends between characters */
    char tiny[8];
    tw_cut(tiny, sizeof tiny, "我爱学习", strlen("我爱学习"), 40, ELL);
    assert_string_equal(tiny, "我" ELL);
}

static const char *const fields[] = {"分词 word",  "V=100000", "d_model=512",
                                     "base=10000", "n=64",     "pos 起于 0"};
static const int prio[] = {4, 3, 0, 2, 1, 5};
#define NF 6

/* Split the line at " | " and check every piece after the first is a whole field, in order,
 * and that kept fields follow the priorities. */
static void check_line(const char *line, int width, const char *sentence)
{
    assert_true(cols_of(line) <= width);
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", line);
    size_t n = strlen(buf);
    while (n && buf[n - 1] == ' ')
        buf[--n] = '\0';
    char *pieces[16];
    int np = 0;
    char *p = buf + (buf[0] == ' ');
    for (;;) {
        pieces[np++] = p;
        char *q = strstr(p, " | ");
        if (!q)
            break;
        *q = '\0';
        p = q + 3;
    }
    if (np == 1 && !pieces[0][0])
        return; /* nothing fits */
    int first = 0;
    bool kept[NF] = {false};
    /* the first piece is the sentence (whole, or a prefix with the ellipsis) unless it is a
     * field */
    bool is_field = false;
    for (int f = 0; f < NF; f++)
        is_field |= strcmp(pieces[0], fields[f]) == 0;
    if (!is_field && pieces[0][0]) {
        const char *s0 = pieces[0];
        size_t l = strlen(s0);
        if (strcmp(s0, sentence) != 0) {
            assert_true(l >= strlen(ELL));
            assert_string_equal(s0 + l - strlen(ELL), ELL);
            assert_memory_equal(s0, sentence, l - strlen(ELL));
        }
        first = 1;
    }
    int last = -1;
    for (int i = first; i < np; i++) {
        int which = -1;
        for (int f = 0; f < NF; f++)
            if (strcmp(pieces[i], fields[f]) == 0)
                which = f;
        if (which < 0)
            fail_msg("'%s' (width %d) is not a whole field: '%s'", pieces[i], width, line);
        assert_true(which > last); /* in their order */
        last = which;
        kept[which] = true;
    }
    for (int a = 0; a < NF; a++)
        for (int b = 0; b < NF; b++)
            if (kept[a] && !kept[b] && prio[b] < prio[a])
                fail_msg("width %d keeps %s but drops the more important %s", width, fields[a],
                         fields[b]);
}

static void test_compose(void **state)
{
    (void)state;
    const char *sentences[] = {"我爱学习", "Transformer 模型在处理我爱学习这个句子时，先分词。",
                               ""};
    for (size_t s = 0; s < sizeof sentences / sizeof *sentences; s++)
        for (int w = 3; w <= 160; w++) {
            char line[1024];
            const char *t = sentences[s];
            int got =
                tui_status_compose(line, sizeof line, w, t, strlen(t), fields, prio, NF, 12, ELL);
            assert_int_equal(got, cols_of(line));
            check_line(line, w, t);
        }
    /* the report's case: 45 columns left beside view 3's cursor value */
    char line[256];
    tui_status_compose(line, sizeof line, 45, "我爱学习", strlen("我爱学习"), fields, prio, NF, 12,
                       ELL);
    assert_string_equal(line, " 我爱学习 | d_model=512 | base=10000 | n=64 ");
    /* wide enough: everything, in order */
    tui_status_compose(line, sizeof line, 200, "我爱学习", strlen("我爱学习"), fields, prio, NF, 12,
                       ELL);
    assert_string_equal(line, " 我爱学习 | 分词 word | V=100000 | d_model=512 | base=10000 | "
                              "n=64 | pos 起于 0 ");
}

static void test_cursor(void **state)
{
    (void)state;
    const char *c = "w_32=0.316228  wavelength=19.8692";
    char out[64];
    assert_int_equal(tui_cursor_fit(out, sizeof out, c, 80), (int)strlen(c));
    assert_string_equal(out, c);
    assert_int_equal(tui_cursor_fit(out, sizeof out, c, 30), 13);
    assert_string_equal(out, "w_32=0.316228");
    assert_int_equal(tui_cursor_fit(out, sizeof out, c, 12), 0);
    assert_string_equal(out, "");
    /* one part only: whole or nothing */
    const char *one = "k=1 pos=3 max|PE(pos+k)-M_k PE(pos)|=6.5e-15";
    int w = (int)strlen(one);
    assert_int_equal(tui_cursor_fit(out, sizeof out, one, w - 1), 0);
    assert_int_equal(tui_cursor_fit(out, sizeof out, one, w), w);
}

static void test_messages(void **state)
{
    (void)state;
    for (int s = 0; s < TF_STATUS_COUNT; s++) {
        const char *zh = txt_status_lang((tf_status)s, true);
        const char *en = txt_status_lang((tf_status)s, false);
        assert_non_null(zh);
        assert_string_equal(en, tf_status_str((tf_status)s));
        /* the Chinese sentence has Chinese in it and is not the English one */
        assert_string_not_equal(zh, en);
        bool cjk = false;
        size_t len = strlen(zh);
        for (size_t i = 0; i < len;) {
            uint32_t cp;
            size_t k = utf8_decode(zh + i, len - i, &cp);
            assert_true(k > 0);
            cjk |= cp >= 0x4E00 && cp <= 0x9FFF;
            if (ambiguous(cp))
                fail_msg("status %d: ambiguous-width U+%04X", s, (unsigned)cp);
            i += k;
        }
        assert_true(cjk);
    }
    for (int id = T_M_BAD_TEXT; id <= T_M_TEXT_CUT; id++) {
        char cz[32], ce[32];
        conversions(txt_lang((txt_id)id, true), cz, sizeof cz);
        conversions(txt_lang((txt_id)id, false), ce, sizeof ce);
        assert_string_equal(cz, ce);
        for (int l = 0; l < 2; l++) {
            const char *m = txt_lang((txt_id)id, l == 0);
            size_t len = strlen(m);
            for (size_t i = 0; i < len;) {
                uint32_t cp;
                size_t k = utf8_decode(m + i, len - i, &cp);
                assert_true(k > 0);
                if (ambiguous(cp))
                    fail_msg("message %d: ambiguous-width U+%04X", id, (unsigned)cp);
                i += k;
            }
        }
    }
    /* the text-cut message names the limit and where it is documented, in both languages */
    for (int l = 0; l < 2; l++) {
        const char *m = txt_lang(T_M_TEXT_CUT, l == 0);
        const char *conv = strstr(m, "%d");
        assert_non_null(conv);
        assert_null(strstr(conv + 1, "%")); /* one conversion only */
        assert_non_null(strstr(m, "docs/limits.md"));
    }
}

static void test_export_path(void **state)
{
    (void)state;
    char dir[] = "/tmp/tfviz-status-XXXXXX";
    assert_non_null(mkdtemp(dir));
    const char *want[] = {"tfviz-order.png", "tfviz-order-2.png", "tfviz-order-3.png"};
    char path[256], expect[256];
    for (int i = 0; i < 3; i++) {
        assert_true(tui_export_path(path, sizeof path, dir, "order", "png"));
        snprintf(expect, sizeof expect, "%s/%s", dir, want[i]);
        assert_string_equal(path, expect);
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        fclose(f);
    }
    /* a gap is filled first: the first name that does not exist */
    snprintf(expect, sizeof expect, "%s/%s", dir, want[1]);
    assert_int_equal(unlink(expect), 0);
    assert_true(tui_export_path(path, sizeof path, dir, "order", "png"));
    assert_string_equal(path, expect);
    /* too small a buffer is refused, not cut */
    char small[10];
    assert_false(tui_export_path(small, sizeof small, dir, "order", "png"));
    for (int i = 0; i < 3; i++) {
        snprintf(expect, sizeof expect, "%s/%s", dir, want[i]);
        unlink(expect);
    }
    assert_int_equal(rmdir(dir), 0);
}

/* Views 8 and 10's live training: set up once (a failure is not tried again), Space pauses
 * and resumes but not a finished run, r restarts a finished run and leaves a paused one paused. */
static void test_live(void **state)
{
    (void)state;
    tui_live l = {0};
    assert_false(tui_live_tried(&l)); /* the first use sets up ... */
    assert_true(tui_live_tried(&l));  /* ... a failed one is not tried again */
    assert_false(l.ready);
    tui_live_set_up(&l);
    assert_true(l.ready && l.running && !l.failed);
    assert_true(tui_live_tried(&l));
    assert_true(tui_live_toggle(&l, false));
    assert_false(l.running);
    tui_live_restart(&l, false);
    assert_false(l.running); /* paused stays paused */
    assert_false(tui_live_toggle(&l, true));
    assert_false(l.running);
    tui_live_restart(&l, true);
    assert_true(l.running); /* finished starts again */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cut),         cmocka_unit_test(test_compose),
        cmocka_unit_test(test_cursor),      cmocka_unit_test(test_messages),
        cmocka_unit_test(test_export_path), cmocka_unit_test(test_live),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
