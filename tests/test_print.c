/* test_print.c — the table of --print topics: every topic in every format is either written
 * (something comes out) or refused before any work in one sentence with its Chinese gloss. */
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "check.h"
#include "print/print.h"

/* Whether s holds a character outside ASCII (the gloss's Chinese). */
static bool has_non_ascii(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s >= 0x80)
            return true;
    return false;
}

/* Topic what in format f on analysis a: written, with the bytes it wrote counted. */
static size_t written(tf_analysis *a, const char *what, out_format f)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    assert_non_null(fp);
    assert_int_equal(analysis_need(a, print_needs(what), NULL), TF_OK);
    tf_options o;
    options_defaults(&o);
    o.print_what = what;
    o.format = f;
    print_request r = {.opt = &o, .a = a};
    tf_status st = print_write(&r, fp);
    assert_int_equal(fclose(fp), 0);
    free(buf);
    if (st != TF_OK)
        fail_msg("--print %s --format %d: %s", what, (int)f, tf_status_str(st));
    return len;
}

/* Each topic x format: accepted by print_check and written (a topic on the sentence: its output
 * is not empty), or refused in one sentence. A format a topic's row leaves out is refused, with
 * the Chinese gloss, and never written as nothing. */
static void test_every_topic_and_format(void **state)
{
    (void)state;
    tf_config c;
    config_defaults(&c);
    c.d_model = 16;
    c.n_positions = 8;
    tf_analysis a;
    const char *s = "我爱学习";
    assert_int_equal(analysis_run(&c, s, strlen(s), &a, NULL), TF_OK);
    int produced = 0, refused = 0;
    for (const char *const *t = print_topics(); *t; t++) {
        for (int f = 0; f < FMT_COUNT; f++) {
            tf_options o;
            options_defaults(&o);
            o.print_what = *t;
            o.format = (out_format)f;
            print_request r = {.opt = &o, .a = &a};
            r.learn.cfg = &c;
            const char *why = print_check(&r, &c);
            if (why) {
                refused++;
                assert_true(strlen(why) > 10);
                assert_null(strchr(why, '\n')); /* one sentence */
                if (!print_writes(*t, (out_format)f) && f != FMT_NPY)
                    assert_true(has_non_ascii(why)); /* the gloss */
                continue;
            }
            if (!print_writes(*t, (out_format)f))
                fail_msg("--print %s accepts --format %s it does not write", *t,
                         options_format_name((out_format)f));
            if (print_learned(*t))
                continue; /* trains first: the CLI tests write these */
            if (written(&a, *t, (out_format)f) == 0)
                fail_msg("--print %s --format %s wrote nothing", *t,
                         options_format_name((out_format)f));
            produced++;
        }
    }
    /* every topic on the sentence writes text and JSON at least */
    assert_true(produced >= 2 * 15);
    assert_true(refused > 0); /* npy for the topics without a matrix */
    analysis_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_topic_and_format),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
