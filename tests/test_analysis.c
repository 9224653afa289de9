/* test_analysis.c — the pipeline for one sentence: ids, rows, PE at each position, the sum,
 * the index base, configuration checks, and the compared sentence. */
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "check.h"
#include "posenc.h"
#include "tf_limits.h"

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
    analysis_free(&a);
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
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
