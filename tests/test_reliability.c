/* test_reliability.c — regression tests for the bugs the fuzzers and the bad-input matrix found,
 * one test per bug, each failing on the code before its fix. */
#include <errno.h>
#include <float.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis.h"
#include "check.h"
#include "core/emit.h"
#include "core/tempfile.h"
#include "tf_limits.h"
#include "tokenizer.h"
#include "vocab.h"

static char dir[64];

static int setup(void **state)
{
    (void)state;
    strcpy(dir, "/tmp/tfviz-rel-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    return rmdir(dir);
}

/* Too many tokens: the list is freed, and the count must say so (it said 1024). */
static void test_too_many_tokens_leaves_no_count(void **state)
{
    (void)state;
    tf_vocab *v;
    assert_int_equal(vocab_new_codepoint(1000, &v), TF_OK);
    char *s = malloc(TF_MAX_TOKENS + 1);
    memset(s, 'x', TF_MAX_TOKENS + 1);
    tf_tokens t;
    assert_int_equal(tokenizer_split(v, TOKENIZER_CHAR, s, TF_MAX_TOKENS + 1, &t, NULL),
                     TF_ERR_TOO_MANY);
    assert_null(t.items);
    assert_int_equal(t.n, 0);
    free(s);
    vocab_free(v);
}

/* 15 significant digits round DBL_MAX up to 1.79769313486232e+308, which readers take as inf. */
static void test_json_number_near_dbl_max(void **state)
{
    (void)state;
    const double vals[] = {DBL_MAX, -DBL_MAX, 1.7976931348623155e308, 1e308, 5e-324};
    for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
        char *buf = NULL;
        size_t len = 0;
        FILE *m = open_memstream(&buf, &len);
        emit_json_num(m, vals[i], EMIT_F64_DIGITS);
        fclose(m);
        double back = strtod(buf, NULL);
        assert_true(isfinite(back));
        assert_close(back, vals[i], fabs(vals[i]) * 1e-14);
        free(buf);
    }
}

/* Control characters in a CSV field are shown escaped like in the text tables, not raw. */
static void test_csv_field_escapes_controls(void **state)
{
    (void)state;
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    emit_csv_str(m, "\x1b[31m,\"x\"\xc2\x9b", 11);
    fclose(m);
    assert_string_equal(buf, "\"\\x1B[31m,\"\"x\"\"\\xC2\\x9B\"");
    free(buf);
    m = open_memstream(&buf, &len);
    emit_json_str(m, "a\xe2\x80\xae" "b\xc2\x85", 7); /* U+202E and U+0085 */
    fclose(m);
    assert_string_equal(buf, "\"a\\u202eb\\u0085\"");
    free(buf);
}

static mode_t mode_of(const char *path)
{
    struct stat sb;
    assert_int_equal(stat(path, &sb), 0);
    return sb.st_mode & 07777;
}

static void write_file(const char *path, const char *text)
{
    tempfile f;
    assert_int_equal(tempfile_open(&f, path), TF_OK);
    fputs(text, f.fp);
    assert_int_equal(tempfile_commit(&f), TF_OK);
}

/* New files follow the umask (they were always 0644); replaced files keep their mode. */
static void test_atomic_file_modes(void **state)
{
    (void)state;
    char path[128];
    snprintf(path, sizeof path, "%s/m.txt", dir);
    mode_t old = umask(077);
    write_file(path, "private");
    assert_int_equal(mode_of(path), 0600);
    umask(002);
    assert_int_equal(chmod(path, 0640), 0);
    write_file(path, "again");
    assert_int_equal(mode_of(path), 0640); /* the replaced file's mode, not the umask's */
    unlink(path);
    write_file(path, "shared");
    assert_int_equal(mode_of(path), 0664);
    umask(old);
    unlink(path);
}

/* A name of 250 bytes is valid, but ".name.tmp-XXXXXX" was not: writing it failed. A name over
 * NAME_MAX fails at once with ENAMETOOLONG. */
static void test_atomic_long_names(void **state)
{
    (void)state;
    char path[400];
    int n = snprintf(path, sizeof path, "%s/", dir);
    memset(path + n, 'y', 250);
    path[n + 250] = '\0';
    write_file(path, "long");
    assert_int_equal(unlink(path), 0);
    memset(path + n, 'z', 256);
    path[n + 256] = '\0';
    tempfile f;
    assert_int_equal(tempfile_open(&f, path), TF_ERR_IO);
    assert_int_equal(errno, ENAMETOOLONG);
}

/* -o /dev/null or /dev/stdout: the device is written in place. A temporary file renamed over
 * it failed for users (no write access to /dev) and, for root, replaced the device node. */
static void test_atomic_device_in_place(void **state)
{
    (void)state;
    tempfile f;
    assert_int_equal(tempfile_open(&f, "/dev/null"), TF_OK);
    assert_null(f.tmp_path);
    fputs("discarded", f.fp);
    assert_int_equal(tempfile_commit(&f), TF_OK);
    struct stat sb;
    assert_int_equal(stat("/dev/null", &sb), 0);
    assert_true(S_ISCHR(sb.st_mode));
    assert_int_equal(tempfile_open(&f, "/dev/null"), TF_OK);
    tempfile_abort(&f);
    assert_int_equal(stat("/dev/null", &sb), 0);
    assert_true(S_ISCHR(sb.st_mode));
}

/* tokens x d_model is checked before the (T, d) matrices are allocated. */
static void test_tokens_times_dmodel_limit(void **state)
{
    (void)state;
    tf_config c;
    config_defaults(&c);
    c.d_model = TF_MAX_DMODEL;
    size_t T = TF_MAX_TOKEN_VALUES / TF_MAX_DMODEL + 1;
    char *s = malloc(T);
    memset(s, 'x', T);
    tf_analysis a;
    tf_diag dg;
    assert_int_equal(analysis_run(&c, s, T, &a, &dg), TF_ERR_TOO_BIG);
    assert_null(a.x_emb);
    assert_int_equal(analysis_run(&c, s, T - 1, &a, &dg), TF_OK);
    assert_int_equal(a.tokens.n, T - 1);
    analysis_free(&a);
    free(s);
}

/* A failed order experiment called again (as an interactive view does after an error) leaked
 * the permutation and the tokens of the first call; the sanitizer and valgrind runs see it. */
static void test_order_retry_does_not_leak(void **state)
{
    (void)state;
    tf_config c;
    config_defaults(&c);
    c.d_model = 8;
    c.compare = "我爱你";
    c.compare_len = strlen(c.compare);
    tf_analysis a;
    tf_diag dg;
    assert_int_equal(analysis_run(&c, "我爱学习", strlen("我爱学习"), &a, &dg), TF_OK);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(analysis_need(&a, ANALYSIS_ORDER, &dg), TF_ERR_PERMUTATION);
        assert_int_equal(dg.where, DIAG_COMPARE);
    }
    analysis_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_too_many_tokens_leaves_no_count),
        cmocka_unit_test(test_json_number_near_dbl_max),
        cmocka_unit_test(test_csv_field_escapes_controls),
        cmocka_unit_test(test_atomic_file_modes),
        cmocka_unit_test(test_atomic_long_names),
        cmocka_unit_test(test_tokens_times_dmodel_limit),
        cmocka_unit_test(test_order_retry_does_not_leak),
        cmocka_unit_test(test_atomic_device_in_place),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
