/* test_analysis.c — the pipeline for one sentence: ids, rows, PE at each position, the sum,
 * the index base, configuration checks, and the compared sentence. */
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "check.h"
#include "posenc.h"
#include "tf_limits.h"
#include "utf8.h"

static void test_pipeline(void **state)
{
    (void)state;
    tf_config c;
    config_defaults(&c);
    c.d_model = 16;
    tf_analysis a;
    const char *s = "我爱学习";
    assert_int_equal(analysis_run(&c, s, strlen(s), &a, NULL), TF_OK);
    assert_int_equal(a.tokens.n, 4);
    double pe[16];
    for (size_t t = 0; t < 4; t++) {
        assert_int_equal(a.pos[t], (long)t);
        float row[16];
        embedding_row(&a.emb, a.tokens.items[t].id, row);
        assert_memory_equal(row, a.x_emb + t * 16, sizeof row);
        posenc_row((double)t, 16, 10000, pe);
        check_max_diff("pe", a.pe + t * 16, pe, 16, 0);
        for (int j = 0; j < 16; j++)
            assert_close(a.x_input[t * 16 + j], row[j] + pe[j], 1e-15);
    }
    double diff = -1;
    assert_int_equal(analysis_onehot_check(&a, &diff), TF_OK);
    assert_close(diff, 0.0, 0);
    analysis_free(&a);
}

static void test_index_base_and_scale(void **state)
{
    (void)state;
    tf_config c;
    config_defaults(&c);
    c.d_model = 8;
    c.index_base = 1;
    c.scale_embedding = true;
    tf_analysis a;
    assert_int_equal(analysis_run(&c, "我爱学习", strlen("我爱学习"), &a, NULL), TF_OK);
    assert_int_equal(a.pos[2], 3); /* 学 is the third token: pos 3 in the article's counting */
    double pe[8];
    posenc_row(3, 8, 10000, pe);
    check_max_diff("pe(3)", a.pe + 2 * 8, pe, 8, 0);
    for (int j = 0; j < 8; j++)
        assert_close(a.x_input[2 * 8 + j], sqrt(8.0) * a.x_emb[2 * 8 + j] + pe[j], 1e-14);
    analysis_free(&a);
}

static void test_config_checks(void **state)
{
    (void)state;
    tf_config c;
    config_defaults(&c);
    assert_int_equal(config_check(&c), TF_OK);
    c.d_model = 7;
    assert_int_equal(config_check(&c), TF_ERR_DMODEL);
    c.d_model = TF_MAX_DMODEL + 2;
    assert_int_equal(config_check(&c), TF_ERR_DMODEL);
    config_defaults(&c);
    c.base = 1.0;
    assert_int_equal(config_check(&c), TF_ERR_BASE);
    c.base = NAN;
    assert_int_equal(config_check(&c), TF_ERR_BASE);
    config_defaults(&c);
    c.n_positions = 0;
    assert_int_equal(config_check(&c), TF_ERR_POSITIONS);
    config_defaults(&c);
    c.offset = c.n_positions;
    assert_int_equal(config_check(&c), TF_ERR_OFFSET);
}

static void test_bad_text(void **state)
{
    (void)state;
    tf_config c;
    config_defaults(&c);
    tf_analysis a;
    tf_diag dg;
    assert_int_equal(analysis_run(&c, "我\xFF", 4, &a, &dg), TF_ERR_UTF8);
    assert_int_equal(dg.where, DIAG_TEXT);
    assert_int_equal(dg.offset, 3);
    assert_int_equal(analysis_run(&c, "   ", 3, &a, &dg), TF_ERR_EMPTY);
    assert_int_equal(analysis_run(&c, "", 0, &a, &dg), TF_ERR_EMPTY);
}

static void test_order_compare(void **state)
{
    (void)state;
    tf_config c;
    config_defaults(&c);
    c.d_model = 32;
    c.compare = "习学我爱";
    c.compare_len = strlen(c.compare);
    tf_analysis a;
    assert_int_equal(analysis_run(&c, "我爱学习", strlen("我爱学习"), &a, NULL), TF_OK);
    assert_int_equal(analysis_need(&a, ANALYSIS_ALL, NULL), TF_OK);
    const size_t want[4] = {3, 2, 0, 1};
    for (int t = 0; t < 4; t++)
        assert_int_equal(a.perm[t], want[t]);
    assert_true(a.order[ATTN_NO_PE].max_token_diff < 1e-6);
    assert_true(a.order[ATTN_WITH_PE].max_token_diff > 1e-3);
    assert_true(a.score_offset_max_dev < 1e-9);
    analysis_free(&a);

    c.compare = "我爱学学";
    c.compare_len = strlen(c.compare);
    tf_diag dg;
    assert_int_equal(analysis_run(&c, "我爱学习", strlen("我爱学习"), &a, NULL), TF_OK);
    assert_int_equal(analysis_need(&a, ANALYSIS_ORDER, &dg), TF_ERR_PERMUTATION);
    assert_int_equal(dg.where, DIAG_COMPARE);
    analysis_free(&a);
}

/* analysis_words_spell, which the lesson names order B with before view 6 has computed it,
 * spells the words reversed exactly as the default order B (cmp_text), and cuts whole
 * characters only. */
static void check_spell(const tf_analysis *a)
{
    size_t n = analysis_word_count(a), order[64];
    assert_true(n >= 1 && n <= 64);
    for (size_t k = 0; k < n; k++)
        order[k] = n - 1 - k;
    char out[512];
    size_t len = analysis_words_spell(a, order, n, out, sizeof out);
    assert_int_equal(len, a->cmp_len);
    assert_string_equal(out, a->cmp_text);
    for (size_t cap = 1; cap < len + 1; cap++) {
        char cut[512];
        size_t l = analysis_words_spell(a, order, n, cut, cap);
        assert_true(l < cap);
        assert_memory_equal(cut, out, l);
        assert_int_equal(utf8_validate(cut, l, NULL), TF_OK);
    }
}

static void test_default_reverse(void **state)
{
    (void)state;
    tf_config c;
    config_defaults(&c);
    c.d_model = 8;
    tf_analysis a;
    assert_int_equal(analysis_run(&c, "a b c", 5, &a, NULL), TF_OK);
    assert_int_equal(analysis_need(&a, ANALYSIS_ORDER, NULL), TF_OK);
    assert_string_equal(a.cmp_text, "c b a");
    assert_int_equal(a.perm[0], 2);
    check_spell(&a);
    analysis_free(&a);
}

/* The default second sentence reverses words, not tokens: a word that fell back to its
 * characters keeps them in order, and in BPE mode no character is split into stray bytes.
 * b must be a permutation of a's tokens whose text, token by token, is the text of the token
 * of a it points to, and valid UTF-8. */
static void check_reversed_words(const tf_analysis *a)
{
    size_t T = a->tokens.n;
    char *seen = calloc(T, 1);
    assert_non_null(seen);
    assert_int_equal(a->cmp_tokens.n, T);
    assert_int_equal(utf8_validate(a->cmp_text, a->cmp_len, NULL), TF_OK);
    for (size_t t = 0; t < T; t++) {
        size_t u = a->perm[t];
        assert_true(u < T && !seen[u]);
        seen[u] = 1;
        const tf_token *x = &a->tokens.items[u], *y = &a->cmp_tokens.items[t];
        assert_int_equal(y->end - y->start, x->end - x->start);
        assert_memory_equal(a->cmp_text + y->start, a->text + x->start, x->end - x->start);
        /* tokens of one word stay together and in order (a sentence of one word: tokens that
         * start inside a character stay after the token before them) */
        int one_word = a->tokens.items[0].word == a->tokens.items[T - 1].word;
        int glued = one_word ? ((unsigned char)a->text[x->start] & 0xC0) == 0x80
                             : u > 0 && a->tokens.items[u - 1].word == x->word;
        if (glued)
            assert_true(t > 0 && a->perm[t - 1] + 1 == u);
        else if (t > 0 && !one_word) /* a new word: the previous one ended */
            assert_true(a->perm[t - 1] + 1 == T || a->tokens.items[a->perm[t - 1] + 1].word !=
                                                       a->tokens.items[a->perm[t - 1]].word);
    }
    free(seen);
}

static void test_default_reverse_words(void **state)
{
    (void)state;
    tf_config c;
    config_defaults(&c);
    c.d_model = 8;
    c.tokenizer = TOKENIZER_WORD;
    c.vocab_size = 1000; /* 自然语言 and Python are outside: they fall back to characters */
    c.data_dir = getenv("TFVIZ_DATA_DIR");
    tf_vocab *v;
    /* needs the dictionary and the BPE tables (built from python3-jieba and tiktoken) */
    int have_data = vocab_open_dict(c.data_dir, 1000, &v) == TF_OK;
    vocab_free(v);
    if (have_data && vocab_open_bpe(c.data_dir, "cl100k", &v) == TF_OK)
        vocab_free(v);
    else
        have_data = 0;
    if (!have_data) {
        print_message(
            "# the dictionary or BPE tables are not built: word order in char mode only\n");
        c.tokenizer = TOKENIZER_CHAR;
        tf_analysis a;
        assert_int_equal(analysis_run(&c, "我爱AB", strlen("我爱AB"), &a, NULL), TF_OK);
        assert_int_equal(analysis_need(&a, ANALYSIS_ORDER, NULL), TF_OK);
        assert_string_equal(a.cmp_text, "BA爱我");
        check_reversed_words(&a);
        check_spell(&a);
        analysis_free(&a);
        return;
    }
    tf_analysis a;
    const char *s = "我喜欢Python和自然语言处理";
    assert_int_equal(analysis_run(&c, s, strlen(s), &a, NULL), TF_OK);
    assert_int_equal(analysis_need(&a, ANALYSIS_ORDER, NULL), TF_OK);
    assert_string_equal(a.cmp_text, "处理自然语言和Python喜欢我");
    check_reversed_words(&a);
    check_spell(&a);
    assert_int_equal(analysis_word_count(&a), 6); /* 我 喜欢 Python 和 自然语言 处理 */
    char two[64];
    const size_t last_first[3] = {5, 0, 4};
    analysis_words_spell(&a, last_first, 3, two, sizeof two);
    assert_string_equal(two, "处理我自然语言");
    assert_true(a.order[ATTN_NO_PE].max_token_diff < 1e-6);
    analysis_free(&a);

    /* byte-level BPE: 爱 is two byte tokens in cl100k; the sentence is one pre-token piece,
     * so it is reversed by whole characters */
    c.tokenizer = TOKENIZER_CL100K;
    assert_int_equal(analysis_run(&c, "我爱学习", strlen("我爱学习"), &a, NULL), TF_OK);
    assert_int_equal(analysis_need(&a, ANALYSIS_ORDER, NULL), TF_OK);
    assert_string_equal(a.cmp_text, "习学爱我");
    check_reversed_words(&a);
    check_spell(&a);
    analysis_free(&a);

    /* several pieces with their own spaces: one space between words, never two */
    s = "I love NLP, 你呢?";
    assert_int_equal(analysis_run(&c, s, strlen(s), &a, NULL), TF_OK);
    assert_int_equal(analysis_need(&a, ANALYSIS_ORDER, NULL), TF_OK);
    assert_string_equal(a.cmp_text, "? 你呢 , NLP love I");
    check_reversed_words(&a);
    analysis_free(&a);
}

/* Under valgrind (TFVIZ_TEST_LIGHT, set by the memcheck setup) or AddressSanitizer. */
static bool heavy_skipped(void)
{
    return check_heavy_skipped();
}

/* The order experiment on whole sentences (char tokens, the words reversed), at three widths:
 * without positions B's weights are A's permuted and the outputs equal; with PE and with RoPE
 * the outputs move by at least 5 % of max |Z_A|, and every row of weights is non-uniform —
 * for two- and three-token sentences too, where the reported head is chosen
 * (attention_order_choose). */
static void test_order_sentences(void **state)
{
    (void)state;
    static const char *const sentences[] = {"狗咬人", "我爱", "猫追老鼠", "今天天气很好",
                                            "我喜欢你", "人工智能改变世界", "猫叫", "爱我",
                                            "学生学习", "天气好", "鱼游", "你好吗"};
    const int dims[] = {64, 512, 4096};
    for (size_t k = 0; k < 3; k++) {
        if (dims[k] > 512 && heavy_skipped())
            continue; /* valgrind or ASan would take minutes; the fast build checks 4096 */
        /* at 4096 the two short ones: each sentence there costs a second */
        size_t n = dims[k] > 512 ? 2 : sizeof sentences / sizeof *sentences;
        if (heavy_skipped() && dims[k] == 512)
            n = 4;
        for (size_t i = 0; i < n; i++) {
            tf_config c;
            config_defaults(&c);
            c.d_model = dims[k];
            tf_analysis a;
            const char *s = sentences[i];
            assert_int_equal(analysis_run(&c, s, strlen(s), &a, NULL), TF_OK);
            assert_int_equal(analysis_need(&a, ANALYSIS_ORDER, NULL), TF_OK);
            size_t T = a.tokens.n;
            const tf_order_result *r = a.order;
            assert_true(r[ATTN_NO_PE].max_token_diff < 1e-9);
            for (size_t t = 0; t < T; t++)
                for (size_t u = 0; u < T; u++)
                    assert_close(r[ATTN_NO_PE].A_b[t * T + u],
                                 r[ATTN_NO_PE].A_a[a.perm[t] * T + a.perm[u]], 1e-9);
            for (int m = 0; m < ATTN_MODE_COUNT; m++) {
                if (m != ATTN_NO_PE && !(r[m].relative_diff >= 0.05 && r[m].min_row_range >= 0.02))
                    fprintf(stderr, "# %s d=%d mode %d: relative %.4f, row range %.4f\n", s,
                            dims[k], m, r[m].relative_diff, r[m].min_row_range);
                if (m != ATTN_NO_PE)
                    assert_true(r[m].relative_diff >= 0.05);
                assert_true(r[m].min_row_range >= 0.02);
            }
            /* the reported head is one of the layer's, by the rule */
            assert_true(a.order_head.possible);
            assert_in_range(a.order_head.head, 0, ATTN_HEADS - 1);
            assert_true(a.order_head.visibility >= 1.0);
            /* the head is the same whatever --scale-embedding says (it scales by sqrt(d)) */
            tf_attn_cfg h = analysis_attn_cfg(&a);
            assert_int_equal(h.norm, ATTN_NORM_LAYER);
            assert_close(h.emb_scale, sqrt((double)dims[k]), 1e-12);
            if (i == 0) {
                double rel = r[ATTN_WITH_PE].relative_diff;
                analysis_free(&a);
                c.scale_embedding = true;
                assert_int_equal(analysis_run(&c, s, strlen(s), &a, NULL), TF_OK);
                assert_int_equal(analysis_need(&a, ANALYSIS_ORDER, NULL), TF_OK);
                assert_close(a.order[ATTN_WITH_PE].relative_diff, rel, 0);
            }
            analysis_free(&a);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pipeline),
        cmocka_unit_test(test_index_base_and_scale),
        cmocka_unit_test(test_config_checks),
        cmocka_unit_test(test_bad_text),
        cmocka_unit_test(test_order_compare),
        cmocka_unit_test(test_default_reverse),
        cmocka_unit_test(test_default_reverse_words),
        cmocka_unit_test(test_order_sentences),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
