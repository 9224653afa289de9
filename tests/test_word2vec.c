/* test_word2vec.c — skip-gram with negative sampling: one update against a hand computation,
 * the vocabulary and negative table, determinism, and learning on the shipped corpus. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "corpus.h"
#include "tokenizer.h"
#include "vectors.h"
#include "vocab.h"
#include "word2vec.h"

static double sig(double x) { return 1.0 / (1.0 + exp(-x)); }

/* One SGNS step, recomputed here in double from the formula:
 *   f_i = u_i . v, g_i = alpha (label_i - s(f_i)), u_i' = u_i + g_i v, v' = v + sum g_i u_i
 *   loss = -log s(f_0) - sum_{i>0} log s(-f_i) */
static void test_sgns_update_by_hand(void **state)
{
    (void)state;
    enum { D = 3 };
    float v[D] = {0.5f, -0.25f, 1.0f};
    float out[3 * D] = {0.1f, 0.2f, -0.3f, /* target */
                        -0.4f, 0.5f, 0.6f, /* negative */
                        0.7f, -0.8f, 0.9f}; /* negative */
    int32_t targets[3] = {0, 1, 2};
    double v0[D], u0[3][D];
    for (int j = 0; j < D; j++) {
        v0[j] = v[j];
        for (int i = 0; i < 3; i++)
            u0[i][j] = out[i * D + j];
    }
    const double alpha = 0.1;
    double want_v[D], want_u[3][D], loss = 0;
    memcpy(want_v, v0, sizeof want_v);
    for (int i = 0; i < 3; i++) {
        double f = 0;
        for (int j = 0; j < D; j++)
            f += u0[i][j] * v0[j];
        double label = i == 0, g = alpha * (label - sig(f));
        loss += i == 0 ? -log(sig(f)) : -log(sig(-f));
        for (int j = 0; j < D; j++) {
            want_u[i][j] = u0[i][j] + g * v0[j];
            want_v[j] += g * u0[i][j];
        }
    }
    float work[D];
    double got_loss = w2v_sgns_update(v, out, targets, 3, D, (float)alpha, work);
    assert_close(got_loss, loss, 1e-6);
    for (int j = 0; j < D; j++) {
        assert_close(v[j], want_v[j], 1e-6);
        for (int i = 0; i < 3; i++)
            assert_close(out[i * D + j], want_u[i][j], 1e-6);
    }
    /* the step went downhill: the loss at the new point is lower */
    double after = 0;
    for (int i = 0; i < 3; i++) {
        double f = 0;
        for (int j = 0; j < D; j++)
            f += (double)out[i * D + j] * v[j];
        after += i == 0 ? -log(sig(f)) : -log(sig(-f));
    }
    assert_true(after < loss);
}

/* The vocabulary a tokenizer kind cuts with: the dictionary's when the build has it
 * (TFVIZ_DATA_DIR), else NULL (code points: word mode then falls back to characters). */
static tf_vocab *kind_vocab(tokenizer_kind kind)
{
    tf_vocab *v = NULL;
    const char *dir = getenv("TFVIZ_DATA_DIR");
    if (kind == TOKENIZER_WORD && dir && vocab_open_dict(dir, 100000, &v) != TF_OK)
        v = NULL;
    return v;
}

static void add(w2v_corpus *c, const char *line)
{
    corpus_info info;
    assert_int_equal(corpus_load(c, NULL, line, strlen(line), CORPUS_SPACES, TOKENIZER_CHAR, &info),
                     TF_OK);
}

static void test_vocabulary_ranked(void **state)
{
    (void)state;
    w2v_corpus *c;
    assert_int_equal(w2v_corpus_new(&c), TF_OK);
    add(c, "b a c a 。\nd a b\ne");
    assert_int_equal(w2v_corpus_raw_tokens(c), 8); /* the full stop is dropped */
    assert_int_equal(w2v_corpus_finish(c, 2), TF_OK);
    /* a x3, b x2 kept; c, d, e once: dropped, and the sentence "e" disappears */
    assert_int_equal(w2v_corpus_vocab(c), 2);
    assert_int_equal(w2v_corpus_tokens(c), 5);
    assert_int_equal(w2v_corpus_sentences(c), 2);
    w2v_params p;
    w2v_params_defaults(&p);
    p.dim = 4;
    w2v_model m;
    assert_int_equal(w2v_model_init(&m, c, &p), TF_OK);
    assert_string_equal(m.words[0], "a");
    assert_string_equal(m.words[1], "b");
    assert_int_equal(m.counts[0], 3);
    assert_int_equal(w2v_lookup(&m, "b", 1), 1);
    assert_int_equal(w2v_lookup(&m, "c", 1), -1);
    /* negatives: a's share of the table is 3^.75 / (3^.75 + 2^.75) */
    uint32_t na = 0;
    for (uint32_t i = 0; i < m.table_size; i++)
        na += m.table[i] == 0;
    double want = pow(3, .75) / (pow(3, .75) + pow(2, .75));
    assert_close((double)na / m.table_size, want, 2.0 / m.table_size);
    w2v_model_free(&m);
    w2v_corpus_free(c);
}

static w2v_corpus *small_corpus(void)
{
    w2v_corpus *c;
    assert_int_equal(w2v_corpus_new(&c), TF_OK);
    add(c, "我 爱 吃 苹果\n我 喜欢 吃 香蕉\n他 爱 吃 香蕉\n她 喜欢 吃 苹果\n"
           "猫 在 睡觉\n狗 在 睡觉\n我 家 的 猫\n我 家 的 狗\n");
    assert_int_equal(w2v_corpus_finish(c, 1), TF_OK);
    return c;
}

static void train_to_end(w2v_model *m, uint64_t step)
{
    w2v_progress pr;
    do
        assert_int_equal(w2v_step(m, step, &pr), TF_OK);
    while (!pr.done);
}

static void test_deterministic(void **state)
{
    (void)state;
    w2v_corpus *c = small_corpus();
    w2v_params p;
    w2v_params_defaults(&p);
    p.dim = 16;
    p.epochs = 20;
    p.sample = 0.1;
    w2v_model a, b, o;
    assert_int_equal(w2v_model_init(&a, c, &p), TF_OK);
    assert_int_equal(w2v_model_init(&b, c, &p), TF_OK);
    p.seed += 1;
    assert_int_equal(w2v_model_init(&o, c, &p), TF_OK);
    size_t bytes = (size_t)a.V * a.dim * sizeof(float);
    train_to_end(&a, 1);         /* one sentence per step */
    train_to_end(&b, 1000000);   /* a whole epoch per step */
    train_to_end(&o, 1000000);
    assert_memory_equal(a.in, b.in, bytes);
    assert_memory_equal(a.out, b.out, bytes);
    assert_memory_not_equal(a.in, o.in, bytes);
    /* reset returns to the same start, and training again gives the same bits */
    w2v_model_reset(&b);
    train_to_end(&b, 7);
    assert_memory_equal(a.in, b.in, bytes);
    w2v_model_free(&a);
    w2v_model_free(&b);
    w2v_model_free(&o);
    w2v_corpus_free(c);
}

static void test_threads_train(void **state)
{
    (void)state;
    w2v_corpus *c = small_corpus();
    w2v_params p;
    w2v_params_defaults(&p);
    p.dim = 8;
    p.threads = 2;
    w2v_model m;
    assert_int_equal(w2v_model_init(&m, c, &p), TF_OK);
    assert_int_equal(w2v_train(&m, 10, NULL, NULL), TF_OK);
    assert_int_equal(m.words_done, (uint64_t)p.epochs * w2v_corpus_tokens(c));
    for (size_t i = 0; i < (size_t)m.V * m.dim; i++)
        assert_true(isfinite(m.in[i]));
    w2v_model_free(&m);
    w2v_corpus_free(c);
}

/* The corpus is cut by the tokenizer given as a parameter: word mode falls back to characters
 * (with a flag) when this build has no word segmentation. */
static void test_tokenizer_kinds(void **state)
{
    (void)state;
    const char *text = "我爱学习。\n猫和狗\n";
    for (int k = TOKENIZER_CHAR; k <= TOKENIZER_WORD; k++) {
        w2v_corpus *c;
        corpus_info info;
        assert_int_equal(w2v_corpus_new(&c), TF_OK);
        tf_vocab *v = kind_vocab((tokenizer_kind)k);
        assert_int_equal(corpus_load(c, v, text, strlen(text), CORPUS_AUTO, (tokenizer_kind)k,
                                     &info), TF_OK);
        vocab_free(v);
        assert_int_equal(info.split, CORPUS_TOKENIZER);
        assert_int_equal(info.lines, 2);
        uint64_t n = w2v_corpus_raw_tokens(c);
        if (info.kind == TOKENIZER_CHAR) {
            assert_true(k == TOKENIZER_CHAR || info.fell_back);
            assert_int_equal(n, 7); /* 我 爱 学 习 猫 和 狗; the full stop is dropped */
        } else {
            /* a word segmenter gives fewer, longer tokens over the same characters */
            assert_true(n >= 4 && n < 7);
        }
        w2v_corpus_free(c);
    }
    /* pre-segmented text is detected and split at the spaces */
    const char *spaced = "我 爱 学习\n猫 和 狗\n";
    w2v_corpus *c;
    corpus_info info;
    assert_int_equal(w2v_corpus_new(&c), TF_OK);
    assert_int_equal(corpus_load(c, NULL, spaced, strlen(spaced), CORPUS_AUTO, TOKENIZER_WORD, &info),
                     TF_OK);
    assert_int_equal(info.split, CORPUS_SPACES);
    assert_int_equal(w2v_corpus_raw_tokens(c), 6);
    w2v_corpus_free(c);
    /* invalid UTF-8: the line and byte offset */
    const char bad[] = "好\n坏\xff\n";
    assert_int_equal(w2v_corpus_new(&c), TF_OK);
    assert_int_equal(corpus_load(c, NULL, bad, strlen(bad), CORPUS_AUTO, TOKENIZER_CHAR, &info),
                     TF_ERR_UTF8);
    assert_int_equal(info.bad_line, 2);
    assert_int_equal(info.bad_offset, 7);
    w2v_corpus_free(c);
}

static char *slurp(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    assert_non_null(fp);
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    rewind(fp);
    char *b = malloc((size_t)n + 1);
    assert_non_null(b);
    assert_int_equal(fread(b, 1, (size_t)n, fp), (size_t)n);
    fclose(fp);
    *len = (size_t)n;
    return b;
}

static double cos_words(const w2v_model *m, const char *a, const char *b)
{
    int32_t x = w2v_lookup(m, a, strlen(a)), y = w2v_lookup(m, b, strlen(b));
    assert_true(x >= 0 && y >= 0);
    return w2v_cosine(m, x, y);
}

/* The article's claim, measured: words used in the same contexts end up close. The corpus is
 * cut as asked (split, kind); the pairs are words, or their first characters when the cut gave
 * characters (word mode unavailable, or char mode asked for). */
static void learn(corpus_split split, tokenizer_kind kind)
{
    size_t len;
    char *text = slurp(TF_CORPUS_PATH, &len);
    w2v_corpus *c;
    corpus_info info;
    assert_int_equal(w2v_corpus_new(&c), TF_OK);
    tf_vocab *voc = kind_vocab(kind);
    assert_int_equal(corpus_load(c, voc, text, len, split, kind, &info), TF_OK);
    vocab_free(voc);
    free(text);
    assert_int_equal(info.split, split == CORPUS_AUTO ? CORPUS_SPACES : split);
    assert_true(w2v_corpus_sentences(c) >= 5000);
    assert_int_equal(w2v_corpus_finish(c, 2), TF_OK);
    w2v_params p;
    w2v_params_defaults(&p);
    w2v_model m;
    assert_int_equal(w2v_model_init(&m, c, &p), TF_OK);
    bool chars = info.split == CORPUS_TOKENIZER && info.kind == TOKENIZER_CHAR;
    const char *love_a = "爱", *love_b = chars ? "喜" : "喜欢", *city = chars ? "京" : "北京";
    const char *city2 = chars ? "海" : "上海";
    double love0 = cos_words(&m, love_a, love_b), ctrl0 = cos_words(&m, love_a, city);
    /* random start: independent uniform vectors in 50-d have |cos| ~ 1/sqrt(50) */
    assert_true(fabs(love0) < 0.45 && fabs(ctrl0) < 0.45);
    w2v_progress first;
    assert_int_equal(w2v_step(&m, 20000, &first), TF_OK);
    double loss_last = first.loss;
    w2v_progress pr;
    do {
        assert_int_equal(w2v_step(&m, 20000, &pr), TF_OK);
        if (pr.pairs)
            loss_last = pr.loss;
    } while (!pr.done);
    assert_true(loss_last < 0.8 * first.loss);
    double love = cos_words(&m, love_a, love_b), ctrl = cos_words(&m, love_a, city);
    fprintf(stderr, "# %s: cos(%s,%s) %.3f -> %.3f, control cos(%s,%s) %.3f -> %.3f\n",
            chars ? "characters" : "words", love_a, love_b, love0, love, love_a, city, ctrl0, ctrl);
    assert_true(love > 0.6);
    assert_true(love > ctrl + 0.4);
    assert_true(cos_words(&m, "猫", "狗") > cos_words(&m, "猫", city2) + 0.4);
    /* the word vectors are the input vectors less their mean over the vocabulary */
    for (int j = 0; j < m.dim; j += 7) {
        double mu = 0;
        for (uint32_t w = 0; w < m.V; w++)
            mu += m.in[(size_t)w * m.dim + j];
        mu /= m.V;
        for (uint32_t w = 0; w < m.V; w += 37)
            assert_true(fabs(m.vec[(size_t)w * m.dim + j] - (m.in[(size_t)w * m.dim + j] - mu)) <
                        1e-5);
    }
    tf_vectors v;
    w2v_vectors_view(&m, &v);
    vectors_hit hits[5];
    int32_t cat = w2v_lookup(&m, "猫", strlen("猫"));
    size_t n = vectors_neighbors(&v, (uint32_t)cat, 5, hits);
    assert_int_equal(n, 5);
    int found = 0;
    for (size_t i = 0; i < n; i++)
        found |= strcmp(v.words[hits[i].row], "狗") == 0;
    assert_true(found);
    w2v_model_free(&m);
    w2v_corpus_free(c);
}

/* The spread of cosines over every pair of the commonest words, by hand on three 2-d vectors:
 * cos(a,b) = 0, cos(a,c) = cos(b,c) = 1/sqrt(2). */
static void test_cosine_spread(void **state)
{
    (void)state;
    float in[] = {1, 0, 0, 1, 2, 2, 5, -1};
    w2v_model m = {.V = 4, .dim = 2, .vec = in}; /* the word vectors the cosines read */
    double mean, sd;
    w2v_cosine_spread(&m, 3, &mean, &sd);
    double r = 1 / sqrt(2.0), want = 2 * r / 3;
    assert_true(fabs(mean - want) < 1e-6);
    assert_true(fabs(sd - sqrt((2 * r * r) / 3 - want * want)) < 1e-6);
    w2v_cosine_spread(&m, 1, &mean, &sd);
    assert_true(mean == 0 && sd == 0);
    w2v_cosine_spread(&m, 99, &mean, &sd); /* clamped to V = 4: six pairs */
    double c3[3] = {5 / sqrt(26.0), -1 / sqrt(26.0), 8 / (sqrt(8.0) * sqrt(26.0))};
    double s = 2 * r + c3[0] + c3[1] + c3[2], s2 = 1 + c3[0] * c3[0] + c3[1] * c3[1] +
                                                   c3[2] * c3[2];
    assert_true(fabs(mean - s / 6) < 1e-6);
    assert_true(fabs(sd - sqrt(s2 / 6 - (s / 6) * (s / 6))) < 1e-6);
}

static void test_learns_on_default_corpus(void **state)
{
    (void)state;
    learn(CORPUS_AUTO, TOKENIZER_WORD); /* the corpus is segmented: spaces */
}

/* the tokenizer cuts the corpus, in each kind the tests are run with */
static void test_learns_with_tokenizer(void **state)
{
    (void)state;
    learn(CORPUS_TOKENIZER, TOKENIZER_WORD);
    learn(CORPUS_TOKENIZER, TOKENIZER_CHAR);
}

static void test_params_checked(void **state)
{
    (void)state;
    w2v_params p;
    w2v_params_defaults(&p);
    const char *why;
    assert_int_equal(w2v_params_check(&p, &why), TF_OK);
    assert_null(why);
    p.sample = 1.5;
    assert_int_equal(w2v_params_check(&p, &why), TF_ERR_RANGE);
    assert_non_null(why);
    w2v_params_defaults(&p);
    p.threads = 0;
    assert_int_equal(w2v_params_check(&p, NULL), TF_ERR_RANGE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sgns_update_by_hand),
        cmocka_unit_test(test_vocabulary_ranked),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_threads_train),
        cmocka_unit_test(test_tokenizer_kinds),
        cmocka_unit_test(test_cosine_spread),
        cmocka_unit_test(test_learns_on_default_corpus),
        cmocka_unit_test(test_learns_with_tokenizer),
        cmocka_unit_test(test_params_checked),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
