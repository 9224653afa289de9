/* test_tokenizer.c — character tokenization: ids from the vocabulary, byte offsets, spaces,
 * unknown characters, limits; the code-point vocabulary round trip. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "tf_limits.h"
#include "tokenizer.h"
#include "vocab.h"

static void test_char_tokens(void **state)
{
    (void)state;
    tf_vocab *v;
    assert_int_equal(vocab_new_codepoint(100000, &v), TF_OK);
    tf_tokens t;
    const char *s = "我爱 AI！";
    assert_int_equal(tokenizer_split(v, TOKENIZER_CHAR, s, strlen(s), &t, NULL), TF_OK);
    assert_int_equal(t.n, 5); /* 我 爱 A I ！ — the space is not a token */
    const uint32_t starts[5] = {0, 3, 7, 8, 9};
    for (int i = 0; i < 5; i++) {
        assert_int_equal(t.items[i].start, starts[i]);
        char buf[16];
        size_t n = vocab_token(v, t.items[i].id, buf, sizeof buf);
        assert_int_equal(n, t.items[i].end - t.items[i].start);
        assert_memory_equal(buf, s + t.items[i].start, n);
    }
    tokens_free(&t);
    vocab_free(v);
}

static void test_unknown_and_small_vocab(void **state)
{
    (void)state;
    tf_vocab *v;
    assert_int_equal(vocab_new_codepoint(200, &v), TF_OK); /* ASCII fits, CJK does not */
    tf_tokens t;
    assert_int_equal(tokenizer_split(v, TOKENIZER_CHAR, "a爱", 4, &t, NULL), TF_OK);
    assert_int_equal(t.items[0].flags, TOKEN_IN_VOCAB);
    assert_int_equal(t.items[1].id, VOCAB_UNK);
    assert_true(t.items[1].flags & TOKEN_UNK);
    tokens_free(&t);
    /* an emoji is outside the code-point vocabulary */
    vocab_free(v);
    assert_int_equal(vocab_new_codepoint(100000, &v), TF_OK);
    assert_int_equal(tokenizer_split(v, TOKENIZER_CHAR, "\xF0\x9F\x98\x80", 4, &t, NULL), TF_OK);
    assert_int_equal(t.items[0].id, VOCAB_UNK);
    tokens_free(&t);
    assert_int_equal(vocab_lookup(v, "[UNK]", 5), VOCAB_UNK);
    char buf[8];
    assert_int_equal(vocab_token(v, 99999, buf, sizeof buf), 0); /* past the last range */
    vocab_free(v);
}

static void test_errors(void **state)
{
    (void)state;
    tf_vocab *v;
    assert_int_equal(vocab_new_codepoint(100000, &v), TF_OK);
    tf_tokens t;
    size_t off = 0;
    assert_int_equal(tokenizer_split(v, TOKENIZER_CHAR, "ab\xC0", 3, &t, &off), TF_ERR_UTF8);
    assert_int_equal(off, 2);
    assert_int_equal(tokenizer_split(v, TOKENIZER_CHAR, " \t\n", 3, &t, &off), TF_ERR_EMPTY);
    size_t n = TF_MAX_TOKENS + 1;
    char *big = malloc(n);
    memset(big, 'x', n);
    assert_int_equal(tokenizer_split(v, TOKENIZER_CHAR, big, n, &t, &off), TF_ERR_TOO_MANY);
    free(big);
    n = TF_MAX_TEXT_BYTES + 1;
    big = malloc(n);
    memset(big, ' ', n);
    assert_int_equal(tokenizer_split(v, TOKENIZER_CHAR, big, n, &t, &off), TF_ERR_TOO_LONG);
    free(big);
    assert_int_equal(tokenizer_parse("char"), TOKENIZER_CHAR);
    assert_int_equal(tokenizer_parse("nope"), TOKENIZER_COUNT);
    vocab_free(v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_char_tokens),
        cmocka_unit_test(test_unknown_and_small_vocab),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
