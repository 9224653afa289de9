/* test_vectors.c — word2vec text and binary files: round trips, the variants other tools
 * write, every malformed case (with its line or byte offset), cosine and neighbours. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "vectors.h"

/* Read a file held in memory. */
static tf_status read_mem(const void *data, size_t len, vectors_format f, uint32_t max_rows,
                          tf_vectors *v, vectors_diag *d)
{
    FILE *fp = fmemopen((void *)data, len, "rb");
    assert_non_null(fp);
    tf_status st = vectors_read_fp(fp, f, max_rows, v, d);
    fclose(fp);
    return st;
}

static tf_status read_str(const char *s, tf_vectors *v, vectors_diag *d)
{
    return read_mem(s, strlen(s), VECTORS_AUTO, 0, v, d);
}

static void little_endian(float f, unsigned char *out)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    for (int i = 0; i < 4; i++)
        out[i] = (unsigned char)(u >> (8 * i));
}

static const char *const words3[3] = {"爱", "喜欢", "cat"};
static const float data3[3 * 4] = {0.5f, -1.25f, 3e-7f, 1e6f,
                                   0.1f, 0.2f, 0.3f, -0.4f,
                                   -2.0f, 0.0f, 1.0f / 3.0f, 7.0f};

static void check_equal3(const tf_vectors *v)
{
    assert_int_equal(v->n, 3);
    assert_int_equal(v->dim, 4);
    for (int i = 0; i < 3; i++)
        assert_string_equal(v->words[i], words3[i]);
    assert_memory_equal(v->data, data3, sizeof data3);
}

static void test_round_trip(void **state)
{
    (void)state;
    tf_vectors src = {.n = 3, .dim = 4, .words = (char **)words3, .data = (float *)data3};
    for (int f = VECTORS_TEXT; f <= VECTORS_BINARY; f++) {
        char *buf = NULL;
        size_t len = 0;
        FILE *fp = open_memstream(&buf, &len);
        assert_int_equal(vectors_write(&src, (vectors_format)f, fp), TF_OK);
        fclose(fp);
        tf_vectors v;
        vectors_diag d;
        /* detected, not told */
        assert_int_equal(read_mem(buf, len, VECTORS_AUTO, 0, &v, &d), TF_OK);
        assert_int_equal(d.format, f);
        check_equal3(&v); /* exact: 9 significant digits in text, raw bits in binary */
        vectors_free(&v);
        /* max_rows reads the first rows only */
        assert_int_equal(read_mem(buf, len, VECTORS_AUTO, 2, &v, &d), TF_OK);
        assert_int_equal(v.n, 2);
        assert_string_equal(v.words[1], "喜欢");
        vectors_free(&v);
        free(buf);
    }
}

/* Variants written by other tools: trailing spaces (fastText, gensim text), CRLF, blank final
 * line; binary without a newline after each vector (gensim) and with one (word2vec.c). */
static void test_variants(void **state)
{
    (void)state;
    tf_vectors v;
    vectors_diag d;
    /* with a byte-order mark, CRLF, trailing spaces and a blank last line */
    assert_int_equal(read_str("\xEF\xBB\xBF" "2 3\r\n猫 1 2 3 \r\n狗 -1 0.5 2e-3 \n\n", &v, &d),
                     TF_OK);
    assert_int_equal(v.n, 2);
    assert_string_equal(v.words[1], "狗");
    assert_close(v.data[5], 2e-3, 1e-9);
    vectors_free(&v);

    for (int newline = 0; newline <= 1; newline++) {
        unsigned char buf[256];
        size_t n = (size_t)sprintf((char *)buf, "2 2\n");
        const char *w[2] = {"猫", "dog"};
        float x[4] = {1.5f, -2.0f, 0.25f, 8.0f};
        for (int r = 0; r < 2; r++) {
            n += (size_t)sprintf((char *)buf + n, "%s ", w[r]);
            little_endian(x[2 * r], buf + n);
            little_endian(x[2 * r + 1], buf + n + 4);
            n += 8;
            if (newline)
                buf[n++] = '\n';
        }
        assert_int_equal(read_mem(buf, n, VECTORS_AUTO, 0, &v, &d), TF_OK);
        assert_int_equal(d.format, VECTORS_BINARY);
        assert_int_equal(v.n, 2);
        assert_string_equal(v.words[0], "猫");
        assert_string_equal(v.words[1], "dog");
        assert_memory_equal(v.data, x, sizeof x);
        vectors_free(&v);
    }
}

typedef struct {
    const char *text;
    unsigned long line;
    const char *what; /* a fragment of the message */
} bad_case;

static void test_malformed_text(void **state)
{
    (void)state;
    static const bad_case cases[] = {
        {"", 1, "empty"},
        {"hello world\n", 1, "header"},
        {"3\n", 1, "header"},
        {"-1 4\n", 1, "header"},
        {"2 0\n", 1, "vector size"},
        {"2 99999\n", 1, "vector size"},
        {"99999999999 4\n", 1, "10,000,000"},
        {"2 3\na 1 2 3\nb 1 2\n", 3, "fewer numbers"},
        {"2 3\na 1 2 3\nb 1 2 3 4\n", 3, "more numbers"},
        {"2 3\na 1 2 3\nb 1 nan 3\n", 3, "finite"},
        {"1 2\na inf 1\n", 2, "finite"},
        {"1 2\na 1e39 1\n", 2, "finite"},
        {"1 2\na 1 x\n", 2, "not a number"},
        {"1 2\na 1 2abc\n", 2, "not a number"},
        {"1 2\n\xc3\x28 1 2\n", 2, "UTF-8"},
        {"1 2\na 1 2\nb 3 4\n", 3, "more rows"},
        {"3 2\na 1 2\nb 3 4\n", 4, "ends before"},
        {"1 2\na\n", 2, "fewer numbers"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tf_vectors v;
        vectors_diag d;
        tf_status st = read_str(cases[i].text, &v, &d);
        if (st != TF_ERR_FORMAT || d.line != cases[i].line || !strstr(d.what, cases[i].what))
            fprintf(stderr, "# case %zu: status %d line %lu '%s'\n", i, st, d.line,
                    d.what ? d.what : "(null)");
        assert_int_equal(st, TF_ERR_FORMAT);
        assert_int_equal(d.line, cases[i].line);
        assert_non_null(strstr(d.what, cases[i].what));
        assert_int_equal(v.n, 0);
        assert_null(v.data);
    }
}

static void test_malformed_binary(void **state)
{
    (void)state;
    unsigned char good[64];
    size_t n = (size_t)sprintf((char *)good, "2 2\n");
    size_t row1 = n;
    memcpy(good + n, "ab ", 3);
    n += 3;
    little_endian(1.0f, good + n);
    little_endian(2.0f, good + n + 4);
    n += 8;
    size_t row2 = n;
    memcpy(good + n, "cd ", 3);
    n += 3;
    little_endian(3.0f, good + n);
    little_endian(4.0f, good + n + 4);
    n += 8;
    tf_vectors v;
    vectors_diag d;
    assert_int_equal(read_mem(good, n, VECTORS_BINARY, 0, &v, &d), TF_OK);
    vectors_free(&v);
    /* cut anywhere inside the second row: truncated, with the offset where data ran out */
    for (size_t cut = row2 + 1; cut < n; cut++) {
        assert_int_equal(read_mem(good, cut, VECTORS_BINARY, 0, &v, &d), TF_ERR_FORMAT);
        assert_non_null(strstr(d.what, "truncated"));
        assert_true(d.offset >= row2 && d.offset <= cut);
        assert_int_equal(v.n, 0);
    }
    /* cut before the second row: fewer rows than declared */
    assert_int_equal(read_mem(good, row2, VECTORS_BINARY, 0, &v, &d), TF_ERR_FORMAT);
    assert_non_null(strstr(d.what, "ends before"));
    /* NaN in the second vector, at byte row2 + 3 + 4 */
    unsigned char bad[64];
    memcpy(bad, good, n);
    little_endian(NAN, bad + row2 + 3 + 4);
    assert_int_equal(read_mem(bad, n, VECTORS_BINARY, 0, &v, &d), TF_ERR_FORMAT);
    assert_int_equal(d.offset, row2 + 3 + 4);
    assert_non_null(strstr(d.what, "finite"));
    /* a word that is not UTF-8 */
    memcpy(bad, good, n);
    bad[row1 + 1] = (char)0xff;
    assert_int_equal(read_mem(bad, n, VECTORS_BINARY, 0, &v, &d), TF_ERR_FORMAT);
    assert_int_equal(d.offset, row1 + 1);
    assert_non_null(strstr(d.what, "UTF-8"));
    /* garbage after the declared rows */
    memcpy(bad, good, n);
    memcpy(bad + n, "zz", 2);
    assert_int_equal(read_mem(bad, n + 2, VECTORS_BINARY, 0, &v, &d), TF_ERR_FORMAT);
    assert_int_equal(d.offset, n);
    /* a huge declared count on a tiny file: memory follows the data, the error is clean */
    unsigned char huge[64];
    size_t h = (size_t)sprintf((char *)huge, "9999999 2\n");
    memcpy(huge + h, good + row1, n - row1);
    assert_int_equal(read_mem(huge, h + n - row1, VECTORS_BINARY, 0, &v, &d), TF_ERR_FORMAT);
    assert_non_null(strstr(d.what, "ends before"));
    /* a word without a space within 4096 bytes */
    size_t big = 10000;
    unsigned char *w = malloc(big);
    assert_non_null(w);
    size_t k = (size_t)sprintf((char *)w, "1 2\n");
    memset(w + k, 'x', big - k);
    assert_int_equal(read_mem(w, big, VECTORS_BINARY, 0, &v, &d), TF_ERR_FORMAT);
    assert_non_null(strstr(d.what, "4096"));
    free(w);
    /* a declared size past the memory bound */
    assert_int_equal(read_str("10000000 16384\n", &v, &d), TF_ERR_FORMAT);
    assert_non_null(strstr(d.what, "4 GiB"));
}

static void test_cosine_neighbors(void **state)
{
    (void)state;
    static const char *const w[4] = {"q", "near", "far", "zero"};
    float x[4 * 2] = {1, 0, 3, 1, -1, 0.5f, 0, 0};
    tf_vectors v = {.n = 4, .dim = 2, .words = (char **)w, .data = x};
    assert_close(vectors_cosine(&v, 0, 1), 3 / sqrt(10), 1e-12);
    assert_close(vectors_cosine(&v, 0, 2), -1 / sqrt(1.25), 1e-12);
    assert_close(vectors_cosine(&v, 0, 3), 0, 0);
    vectors_hit hits[5];
    assert_int_equal(vectors_neighbors(&v, 0, 5, hits), 3);
    assert_int_equal(hits[0].row, 1);
    assert_int_equal(hits[1].row, 3);
    assert_int_equal(hits[2].row, 2);
    assert_int_equal(vectors_neighbors(&v, 0, 1, hits), 1);
    assert_int_equal(hits[0].row, 1);
    assert_int_equal(vectors_find(&v, "far", 3), 2);
    assert_int_equal(vectors_find(&v, "fa", 2), -1);
    double m[16];
    vectors_cosine_matrix(x, 4, 2, m);
    for (uint32_t a = 0; a < 4; a++)
        for (uint32_t b = 0; b < 4; b++)
            assert_close(m[a * 4 + b], vectors_cosine(&v, a, b), 1e-15);
}

/* A copy owns its rows: the source may change or go, the copy keeps the values it had. */
static void test_copy(void **state)
{
    (void)state;
    char w0[] = "我", w1[] = "爱", w2[] = "学习";
    char *w[3] = {w0, w1, w2};
    float x[3 * 2] = {1, 2, 3, 4, 5, 6};
    tf_vectors v = {.n = 3, .dim = 2, .words = w, .data = x}, c, first;
    assert_int_equal(vectors_copy(&v, 0, &c), TF_OK);
    assert_int_equal(vectors_copy(&v, 2, &first), TF_OK);
    x[0] = -1, w1[0] = 'x';
    assert_true(c.owned);
    assert_int_equal(c.n, 3);
    assert_int_equal(c.dim, 2);
    assert_string_equal(c.words[1], "爱");
    assert_string_equal(c.words[2], "学习");
    assert_true(c.data[0] == 1.0f && c.data[5] == 6.0f);
    assert_int_equal(first.n, 2);
    assert_string_equal(first.words[1], "爱");
    assert_true(first.data[3] == 4.0f);
    vectors_free(&c);
    vectors_free(&first);
    tf_vectors none = {.dim = 4}, e;
    assert_int_equal(vectors_copy(&none, 0, &e), TF_OK);
    assert_int_equal(e.n, 0);
    vectors_free(&e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_variants),
        cmocka_unit_test(test_malformed_text),
        cmocka_unit_test(test_malformed_binary),
        cmocka_unit_test(test_cosine_neighbors),
        cmocka_unit_test(test_copy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
