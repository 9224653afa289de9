/* test_bpe.c — byte-level BPE: the rank tables, the pairwise merge against a plain
 * re-implementation of the rule, and encodings against ids that tiktoken itself produced
 * (the 我爱学习 references and tests/data/bpe_reference.json, made with node). */
#include <stdlib.h>
#include <string.h>

#include "bpe.h"
#include "check.h"
#include "tokenizer.h"
#include "vocab.h"

static tf_bpe *open_bpe(const char *name)
{
    tf_bpe *b = NULL;
    assert_int_equal(bpe_open(getenv("TFVIZ_DATA_DIR"), name, &b), TF_OK);
    return b;
}

static void test_tables(void **state)
{
    (void)state;
    tf_bpe *b = open_bpe("tfviz-cl100k.bin");
    /* tiktoken: cl100k_base has 100,256 mergeable ranks and n_vocab 100,277 */
    assert_int_equal(bpe_count(b), 100256);
    assert_int_equal(bpe_n_vocab(b), 100277);
    /* every byte is a token of its own, and the 256 ranks are distinct */
    int seen[256] = {0};
    for (int c = 0; c < 256; c++) {
        unsigned char byte = (unsigned char)c;
        int64_t r = bpe_rank(b, &byte, 1);
        assert_true(r >= 0 && r < 256);
        assert_int_equal(seen[r]++, 0);
        size_t len;
        const unsigned char *t = bpe_bytes(b, (uint32_t)r, &len);
        assert_int_equal(len, 1);
        assert_int_equal(t[0], byte);
    }
    /* every 997th rank round-trips through the byte-ordered search */
    for (uint32_t r = 0; r < bpe_count(b); r += 997) {
        size_t len;
        const unsigned char *t = bpe_bytes(b, r, &len);
        assert_int_equal(bpe_rank(b, t, len), r);
    }
    assert_non_null(strstr(bpe_pattern(b), "\\p{L}"));
    bpe_free(b);
    b = open_bpe("tfviz-o200k.bin");
    assert_int_equal(bpe_count(b), 199998);
    assert_int_equal(bpe_n_vocab(b), 200019);
    bpe_free(b);
}

/* The merge rule written the plain way: rebuild the token list after every merge. */
static size_t naive_merge(const tf_bpe *b, const unsigned char *s, size_t len, uint32_t *ranks)
{
    size_t *cut = malloc((len + 1) * sizeof *cut), m = len;
    assert_non_null(cut);
    for (size_t i = 0; i <= len; i++)
        cut[i] = i;
    for (;;) {
        int64_t best = -1;
        size_t at = 0;
        for (size_t k = 0; k + 1 < m; k++) {
            int64_t r = bpe_rank(b, s + cut[k], cut[k + 2] - cut[k]);
            if (r >= 0 && (best < 0 || r < best))
                best = r, at = k;
        }
        if (best < 0)
            break;
        for (size_t k = at + 1; k < m; k++)
            cut[k] = cut[k + 1];
        m--;
    }
    for (size_t k = 0; k < m; k++)
        ranks[k] = (uint32_t)bpe_rank(b, s + cut[k], cut[k + 1] - cut[k]);
    free(cut);
    return m;
}

/* bpe_merge of s[0..len) gives the plain rule's tokens, and their lengths cover the piece. */
static void same_as_plain(const tf_bpe *b, const unsigned char *s, size_t len, uint32_t *ranks,
                          uint32_t *lens, uint32_t *want)
{
    size_t n = bpe_merge(b, s, len, ranks, lens);
    size_t m = naive_merge(b, s, len, want);
    assert_int_equal(n, m);
    assert_memory_equal(ranks, want, n * sizeof *want);
    size_t total = 0;
    for (size_t k = 0; k < n; k++)
        total += lens[k];
    assert_int_equal(total, len);
}

static void test_merge(void **state)
{
    (void)state;
    tf_bpe *b = open_bpe("tfviz-cl100k.bin");
    uint32_t ranks[256], lens[256], want[256];
    /* the reference: 我爱学习 is one piece; 爱 and 习 split into byte tokens */
    const char *s = "我爱学习";
    size_t n = bpe_merge(b, (const unsigned char *)s, strlen(s), ranks, lens);
    const uint32_t ref[] = {37046, 76207, 109, 48864, 18259, 254};
    const uint32_t ref_len[] = {3, 2, 1, 3, 2, 1};
    assert_int_equal(n, 6);
    assert_memory_equal(ranks, ref, sizeof ref);
    assert_memory_equal(lens, ref_len, sizeof ref_len);
    /* pieces of many kinds against the plain rule */
    const char *pieces[] = {
        "hello",
        " world",
        "Transformer",
        " internationalization",
        "1234",
        "!!!???",
        "\xF0\x9F\x98\x80",
        "自然语言处理",
        (" aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
         "aaaaaaaaaaaaaaaaaa")};
    for (size_t p = 0; p < sizeof pieces / sizeof pieces[0]; p++) {
        const unsigned char *u = (const unsigned char *)pieces[p];
        size_t len = strlen(pieces[p]);
        same_as_plain(b, u, len, ranks, lens, want);
    }
    bpe_free(b);
}

/* Pieces of 256 bytes and more take the heap merge: the same tokens as the plain rule, on
 * runs, repeats and random bytes; and a run of 65,536 '!' (5 s with the scan) is quick. */
static void test_merge_long(void **state)
{
    (void)state;
    tf_bpe *b = open_bpe("tfviz-cl100k.bin");
    enum { MAX = 4096 };
    unsigned char *u = malloc(65536);
    uint32_t *ranks = malloc(65536 * sizeof *ranks), *lens = malloc(65536 * sizeof *lens);
    uint32_t *want = malloc(MAX * sizeof *want);
    assert_non_null(u), assert_non_null(ranks), assert_non_null(lens), assert_non_null(want);
    uint64_t seed = 12345;
    for (int c = 0; c < 8; c++) {
        size_t len = c < 2 ? 3000 : 256 + (size_t)c * 400;
        for (size_t i = 0; i < len; i++) {
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            unsigned r = (unsigned)(seed >> 33);
            switch (c) {
            case 0: u[i] = '!'; break;
            case 1: u[i] = i == 0 ? ' ' : 'a'; break;
            case 2: u[i] = "ab !?"[r % 5]; break;
            case 3: u[i] = (unsigned char)"\xE6\x88\x91\xE7\x88\xB1"[i % 6]; break;
            case 4: u[i] = "the cat "[i % 8]; break;
            default: u[i] = (unsigned char)(r & 0xFF); break;
            }
        }
        same_as_plain(b, u, len, ranks, lens, want);
    }
    memset(u, '!', 65536);
    size_t n = bpe_merge(b, u, 65536, ranks, lens);
    size_t total = 0;
    for (size_t k = 0; k < n; k++)
        total += lens[k];
    assert_int_equal(total, 65536);
    assert_true(n > 0 && n < 65536 / 2);
    free(u), free(ranks), free(lens), free(want);
    bpe_free(b);
}

static void test_encode(void **state)
{
    (void)state;
    static const struct {
        const char *enc, *text;
        int32_t ids[8];
        size_t n;
    } cases[] = {
        {"cl100k", "我爱学习", {37046, 76207, 109, 48864, 18259, 254}, 6},
        {"o200k", "我爱学习", {7522, 6414, 64550}, 3},
        /* from tests/data/bpe_reference.json (tiktoken under node) */
        {"cl100k", "Hello, world!", {9906, 11, 1917, 0}, 4},
        {"cl100k", "hello world", {15339, 1917}, 2},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        tf_vocab *v;
        assert_int_equal(vocab_open_bpe(getenv("TFVIZ_DATA_DIR"), cases[c].enc, &v), TF_OK);
        tf_tokens t;
        tokenizer_kind k = tokenizer_parse(cases[c].enc);
        const char *s = cases[c].text;
        assert_int_equal(tokenizer_split(v, k, s, strlen(s), &t, NULL), TF_OK);
        assert_int_equal(t.n, cases[c].n);
        uint32_t at = 0;
        for (size_t i = 0; i < t.n; i++) {
            assert_int_equal(t.items[i].id, cases[c].ids[i]);
            assert_int_equal(t.items[i].start, at);
            at = t.items[i].end;
            assert_true(t.items[i].flags & TOKEN_IN_VOCAB);
        }
        assert_int_equal(at, strlen(s));
        if (c == 0) { /* 爱 = E7 88 | B1: both pieces partial, 我 whole */
            assert_int_equal(t.items[0].flags, TOKEN_IN_VOCAB);
            assert_int_equal(t.items[1].flags, TOKEN_IN_VOCAB | TOKEN_PARTIAL);
            assert_int_equal(t.items[2].flags, TOKEN_IN_VOCAB | TOKEN_PARTIAL);
            assert_int_equal(vocab_rank(v, t.items[1].id), 76207);
        }
        tokens_free(&t);
        /* a BPE vocabulary cannot serve word mode */
        assert_int_equal(tokenizer_split(v, TOKENIZER_WORD, s, strlen(s), &t, NULL),
                         TF_ERR_UNAVAILABLE);
        vocab_free(v);
    }
    tf_vocab *v;
    assert_int_equal(vocab_open_bpe("/nonexistent-dir", "cl100k", &v), TF_ERR_UNAVAILABLE);
    assert_int_equal(vocab_open_bpe(getenv("TFVIZ_DATA_DIR"), "p50k", &v), TF_ERR_RANGE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tables),
        cmocka_unit_test(test_merge),
        cmocka_unit_test(test_merge_long),
        cmocka_unit_test(test_encode),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
