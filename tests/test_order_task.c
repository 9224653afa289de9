/* test_order_task.c — the "who does it" sentences: the generator's guarantees (distinct
 * sentences, pairs, splits, the doer's place in each shape, word lists, reproducibility) and the
 * file parser on good and bad input (status, problem, line and column). */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "order_task.h"
#include "utf8.h"

static const char *word(const order_task *t, uint32_t s, int p)
{
    return t->word[order_task_tokens(t, s)[p]];
}

static bool same_tokens(const order_task *t, uint32_t a, uint32_t b)
{
    return order_task_len(t, a) == order_task_len(t, b) &&
           memcmp(order_task_tokens(t, a), order_task_tokens(t, b),
                  order_task_len(t, a) * sizeof(uint32_t)) == 0;
}

/* Sorted copies compared: the same multiset of tokens. */
static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static bool same_multiset(const order_task *t, uint32_t a, uint32_t b)
{
    uint32_t x[ORDER_MAX_TOKENS], y[ORDER_MAX_TOKENS];
    uint32_t n = order_task_len(t, a);
    if (n != order_task_len(t, b))
        return false;
    memcpy(x, order_task_tokens(t, a), n * sizeof *x);
    memcpy(y, order_task_tokens(t, b), n * sizeof *y);
    qsort(x, n, sizeof *x, cmp_u32);
    qsort(y, n, sizeof *y, cmp_u32);
    return memcmp(x, y, n * sizeof *x) == 0;
}

static int find_word(const order_task *t, uint32_t s, const char *w)
{
    for (uint32_t p = 0; p < order_task_len(t, s); p++)
        if (strcmp(word(t, s, p), w) == 0)
            return (int)p;
    return -1;
}

static bool is_noun(const char *w)
{
    size_t n;
    const char *const *nouns = order_words(ORDER_WORDS_NOUN, &n);
    for (size_t i = 0; i < n; i++)
        if (strcmp(nouns[i], w) == 0)
            return true;
    return false;
}

/* ---------------------------------------------------------------------------------------------
 * The generator */

static void test_word_lists(void **state)
{
    (void)state;
    size_t nn, nv;
    const char *const *nouns = order_words(ORDER_WORDS_NOUN, &nn);
    const char *const *verbs = order_words(ORDER_WORDS_VERB, &nv);
    assert_true(nn >= 50);
    assert_true(nv >= 50);
    /* distinct, valid UTF-8, Chinese, and no word both a noun and a verb */
    for (size_t i = 0; i < nn + nv; i++) {
        const char *a = i < nn ? nouns[i] : verbs[i - nn];
        assert_int_equal(utf8_validate(a, strlen(a), NULL), TF_OK);
        uint32_t cp;
        assert_true(utf8_decode(a, strlen(a), &cp) == 3 && cp >= 0x4E00 && cp <= 0x9FFF);
        for (size_t j = 0; j < i; j++)
            assert_string_not_equal(a, j < nn ? nouns[j] : verbs[j - nn]);
    }
    assert_null(order_words(ORDER_WORDS_CLASS_COUNT, &nn));
}

static void check_generated(const order_task *t, const order_gen_cfg *c)
{
    /* 1. sizes: the pairs asked for, plus the two article pairs held out */
    assert_int_equal(t->n_split[ORDER_TRAIN], 2 * c->train_pairs);
    assert_int_equal(t->n_split[ORDER_TEST], 2 * c->test_pairs + 4);
    assert_int_equal(t->n_sent, t->n_split[0] + t->n_split[1]);
    assert_string_equal(t->word[0], "[UNK]");
    assert_true(t->max_len >= 3 && t->max_len <= 8);
    size_t nouns_seen = 0, nn;
    order_words(ORDER_WORDS_NOUN, &nn);
    bool *seen_noun = calloc(t->V, sizeof *seen_noun), *seen_verb = calloc(t->V, 1);
    size_t shapes[ORDER_SHAPE_COUNT] = {0}, doer_at[8] = {0};
    for (uint32_t s = 0; s < t->n_sent; s++) {
        uint32_t L = order_task_len(t, s);
        assert_true(L >= 3 && L <= 8);
        assert_true(t->doer[s] < L);
        shapes[t->shape[s]]++;
        doer_at[t->doer[s]]++;
        /* 2. the pair: the other order of the same tokens, same split, another doer token */
        int32_t p = t->pair[s];
        assert_true(p >= 0 && (uint32_t)p < t->n_sent && (uint32_t)p != s);
        assert_int_equal(t->pair[p], (int32_t)s);
        assert_int_equal(t->split[p], t->split[s]);
        assert_true(same_multiset(t, s, (uint32_t)p));
        assert_false(same_tokens(t, s, (uint32_t)p));
        assert_int_equal(t->doer[p], t->doer[s]); /* the subject's slot */
        assert_string_not_equal(word(t, s, t->doer[s]), word(t, p, t->doer[p]));
        /* 3. the doer is a noun, and its place follows the shape's rule */
        const char *doer = word(t, s, t->doer[s]);
        assert_true(is_noun(doer));
        seen_noun[order_task_tokens(t, s)[t->doer[s]]] = true;
        int nouns_before = 0;
        for (int q = 0; q < t->doer[s]; q++)
            nouns_before += is_noun(word(t, s, q));
        int bei = find_word(t, s, "被"), ba = find_word(t, s, "把");
        switch (t->shape[s]) {
        case ORDER_SVO:
            assert_true(bei < 0 && ba < 0);
            assert_int_equal(nouns_before, 0); /* the first noun */
            /* the verb follows the doer; the other noun follows the verb */
            break;
        case ORDER_BA:
            assert_true(ba == t->doer[s] + 1 || ba == t->doer[s] + 2); /* an adverb between */
            assert_int_equal(nouns_before, 0);
            break;
        case ORDER_BEI:
            assert_int_equal(bei, t->doer[s] - 1);
            assert_int_equal(nouns_before, 1); /* the second noun */
            break;
        default:
            fail();
        }
        for (uint32_t q = 0; q < L; q++) {
            const char *w = word(t, s, (int)q);
            if (!is_noun(w) && q != (uint32_t)t->doer[s])
                seen_verb[order_task_tokens(t, s)[q]] = true;
        }
        /* 4. no sentence twice, anywhere: so no held-out sentence is ever trained on */
        for (uint32_t r = 0; r < s && c->train_pairs + c->test_pairs < 400; r++)
            assert_false(same_tokens(t, r, s));
    }
    for (uint32_t i = 0; i < t->V; i++)
        nouns_seen += seen_noun[i];
    /* every shape occurs, the doer is not at one fixed place, many nouns act */
    for (int k = 0; k < ORDER_USER; k++)
        assert_true(shapes[k] > t->n_sent / 8);
    int places = 0;
    for (int k = 0; k < 8; k++)
        places += doer_at[k] > 0;
    assert_true(places >= 3);
    assert_true(nouns_seen >= (c->train_pairs >= 300 ? 50 : 20));
    free(seen_noun);
    free(seen_verb);
    /* 5. the article's pairs are held out, and the example is 我 爱 学习 */
    assert_int_equal(t->split[t->example], ORDER_TEST);
    assert_int_equal(order_task_len(t, t->example), 3);
    assert_string_equal(word(t, t->example, 0), "我");
    assert_string_equal(word(t, t->example, 1), "爱");
    assert_string_equal(word(t, t->example, 2), "学习");
    assert_int_equal(t->doer[t->example], 0);
    uint32_t cat = order_task_lookup(t, "猫", strlen("猫")),
             dog = order_task_lookup(t, "狗", strlen("狗")),
             chase = order_task_lookup(t, "追", strlen("追"));
    int found = 0;
    for (uint32_t s = 0; s < t->n_sent; s++) {
        const uint32_t *k = order_task_tokens(t, s);
        if (order_task_len(t, s) == 3 && k[1] == chase &&
            ((k[0] == cat && k[2] == dog) || (k[0] == dog && k[2] == cat))) {
            assert_int_equal(t->split[s], ORDER_TEST);
            found++;
        }
    }
    assert_int_equal(found, 2);
}

static void test_generate_default(void **state)
{
    (void)state;
    order_gen_cfg c;
    order_gen_defaults(&c);
    order_task t;
    assert_int_equal(order_task_generate(&t, &c), TF_OK);
    check_generated(&t, &c);
    /* no held-out sentence occurs in training (hash of each training sentence, then a scan) */
    for (uint32_t s = 0; s < t.n_sent; s++) {
        if (t.split[s] != ORDER_TEST)
            continue;
        for (uint32_t r = 0; r < t.n_sent; r++)
            if (t.split[r] == ORDER_TRAIN)
                assert_false(same_tokens(&t, r, s));
    }
    order_task_free(&t);
}

/* The class's sentence joins the task (issue 27): 李华 欣赏 小红 and 小红 欣赏 李华 are the first
 * held-out pair, never trained on; 李华 (no noun of the lists) and 欣赏 (no verb of them) act
 * in training sentences; and the class's 我 爱 学习 leaves the default task as it was. */
static void test_generate_class(void **state)
{
    (void)state;
    order_gen_cfg c;
    order_gen_defaults(&c);
    const char *cls[3] = {"李华", "欣赏", "小红"};
    memcpy(c.class_words, cls, sizeof cls);
    order_task t;
    assert_int_equal(order_task_generate(&t, &c), TF_OK);
    assert_int_equal(t.example, 0);
    assert_int_equal(t.split[0], ORDER_TEST);
    assert_int_equal(t.pair[0], 1);
    assert_int_equal(t.split[1], ORDER_TEST);
    for (int i = 0; i < 3; i++) {
        assert_string_equal(word(&t, 0, i), cls[i]);
        assert_string_equal(word(&t, 1, i), cls[2 - i]);
    }
    assert_int_equal(t.doer[0], 0);
    assert_int_equal(t.doer[1], 0);
    assert_int_equal(t.n_split[ORDER_TEST], 2 * c.test_pairs + 6);
    uint32_t li = order_task_lookup(&t, "李华", strlen("李华")),
             xin = order_task_lookup(&t, "欣赏", strlen("欣赏"));
    int li_doer = 0, li_object = 0, xin_used = 0;
    for (uint32_t s = 2; s < t.n_sent; s++) {
        assert_false(same_tokens(&t, s, 0) || same_tokens(&t, s, 1));
        if (t.split[s] != ORDER_TRAIN)
            continue;
        const uint32_t *k = order_task_tokens(&t, s);
        for (uint32_t q = 0; q < order_task_len(&t, s); q++) {
            li_doer += k[q] == li && q == t.doer[s];
            li_object += k[q] == li && q != t.doer[s];
            xin_used += k[q] == xin;
        }
    }
    assert_true(li_doer >= 5 && li_object >= 5);
    assert_true(xin_used >= 2);
    order_task_free(&t);
    /* 我 爱 学习 is the built-in pair already: the same task, sentence for sentence */
    order_task a, b;
    order_gen_defaults(&c);
    assert_int_equal(order_task_generate(&a, &c), TF_OK);
    const char *def[3] = {"我", "爱", "学习"};
    memcpy(c.class_words, def, sizeof def);
    assert_int_equal(order_task_generate(&b, &c), TF_OK);
    assert_int_equal(a.n_tok, b.n_tok);
    assert_int_equal(a.V, b.V);
    assert_memory_equal(a.tok, b.tok, a.n_tok * sizeof *a.tok);
    order_task_free(&a);
    order_task_free(&b);
}

/* order_class_check: doer verb object, or why not. */
static void test_class_check(void **state)
{
    (void)state;
    const struct {
        const char *w[4];
        size_t n;
        order_class_problem want;
        int verb;
    } cases[] = {
        {{"猫", "追", "老鼠"}, 3, ORDER_CLASS_OK, 1},
        {{"小明", "喜欢", "小红"}, 3, ORDER_CLASS_OK, 1},
        {{"dog", "bites", "man"}, 3, ORDER_CLASS_OK, 1},
        {{"我", "爱", "学习"}, 3, ORDER_CLASS_OK, 1},
        {{"今天", "天气", "很", "好"}, 4, ORDER_CLASS_NOT_THREE, 1},
        {{"我", "爱"}, 2, ORDER_CLASS_NOT_THREE, 1},
        {{"猫", "，", "狗"}, 3, ORDER_CLASS_SIGN, 1},
        {{"猫", "追", "2024"}, 3, ORDER_CLASS_SIGN, 1},
        {{"猫", "追", "猫"}, 3, ORDER_CLASS_SAME, 1},
        {{"猫", "狗", "老鼠"}, 3, ORDER_CLASS_ROLES, 1},
        {{"追", "猫", "狗"}, 3, ORDER_CLASS_ROLES, 1},
        {{"猫", "追", "了"}, 3, ORDER_CLASS_ROLES, 1},
        {{"今天天气", "很", "好"}, 3, ORDER_CLASS_NO_VERB, 0},
        {{"今天天气", "很", "好"}, 3, ORDER_CLASS_OK, -1},
        {{"猫", "吓跑", "老鼠"}, 3, ORDER_CLASS_OK, 0}, /* a verb of the lists */
        {{"我", "吃", "苹果"}, 3, ORDER_CLASS_OK, 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t len[4];
        for (size_t k = 0; k < cases[i].n; k++)
            len[k] = strlen(cases[i].w[k]);
        assert_int_equal(order_class_check(cases[i].w, len, cases[i].n, cases[i].verb),
                         cases[i].want);
    }
}

static void test_generate_sizes_and_seeds(void **state)
{
    (void)state;
    const order_gen_cfg cases[] = {{.seed = 1, .train_pairs = 1, .test_pairs = 1},
                                   {.seed = 7, .train_pairs = 100, .test_pairs = 50},
                                   {.seed = 123456789, .train_pairs = 250, .test_pairs = 120}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        order_task t;
        assert_int_equal(order_task_generate(&t, &cases[i]), TF_OK);
        if (cases[i].train_pairs >= 50)
            check_generated(&t, &cases[i]);
        else
            assert_int_equal(t.n_sent, 2 + 2 + 4);
        order_task_free(&t);
    }
    order_gen_cfg bad = {.seed = 1, .train_pairs = 0, .test_pairs = 10};
    order_task t;
    assert_int_equal(order_task_generate(&t, &bad), TF_ERR_RANGE);
    bad = (order_gen_cfg){.seed = 1, .train_pairs = 10, .test_pairs = ORDER_MAX_PAIRS + 1};
    assert_int_equal(order_task_generate(&t, &bad), TF_ERR_RANGE);
    order_task_free(&t); /* a failed call leaves an empty task */
}

static void test_generate_reproducible(void **state)
{
    (void)state;
    order_gen_cfg c = {.seed = 99, .train_pairs = 200, .test_pairs = 60};
    order_task a, b, other;
    assert_int_equal(order_task_generate(&a, &c), TF_OK);
    assert_int_equal(order_task_generate(&b, &c), TF_OK);
    c.seed = 100;
    assert_int_equal(order_task_generate(&other, &c), TF_OK);
    assert_int_equal(a.n_tok, b.n_tok);
    assert_memory_equal(a.tok, b.tok, a.n_tok * sizeof *a.tok);
    assert_memory_equal(a.doer, b.doer, a.n_sent);
    assert_memory_equal(a.split, b.split, a.n_sent);
    /* the vocabulary does not depend on the seed; the sentences do */
    assert_int_equal(a.V, other.V);
    for (uint32_t i = 0; i < a.V; i++)
        assert_string_equal(a.word[i], other.word[i]);
    assert_true(a.n_tok != other.n_tok || memcmp(a.tok, other.tok, a.n_tok * sizeof *a.tok) != 0);
    order_task_free(&a);
    order_task_free(&b);
    order_task_free(&other);
}

/* ---------------------------------------------------------------------------------------------
 * The file format */

static tf_status parse(const char *text, order_task *t, order_parse_error *e)
{
    return order_task_parse(t, text, strlen(text), 42, e);
}

static void test_parse_good(void **state)
{
    (void)state;
    const char *text = "\xEF\xBB\xBF# who chases whom\r\n"
                       "*猫 追 狗\r\n"
                       "*狗 追 猫\n"
                       "\n"
                       "   \t\n"
                       "今天\t狗 被 ＊猫 追 了\n"
                       "今天　猫 被 *狗 追 了\n" /* an ideographic space between words */
                       "@test\n"
                       "*我 爱 学习\n"
                       "*学习 爱 我\n"
                       "*我 爱 学习\n" /* a duplicate in the same split is kept */
                       "@train\n"
                       "*the cat chased the dog"; /* no final newline */
    order_task t;
    order_parse_error e;
    assert_int_equal(parse(text, &t, &e), TF_OK);
    assert_int_equal(e.problem, ORDER_OK);
    assert_int_equal(t.n_sent, 8);
    assert_int_equal(t.n_split[ORDER_TRAIN], 5);
    assert_int_equal(t.n_split[ORDER_TEST], 3);
    assert_int_equal(t.line[0], 2);
    assert_int_equal(t.line[2], 6);
    assert_int_equal(t.line[7], 13);
    assert_int_equal(order_task_len(&t, 2), 6);
    assert_string_equal(word(&t, 2, 0), "今天");
    assert_int_equal(t.doer[2], 3);
    assert_string_equal(word(&t, 2, 3), "猫");
    assert_int_equal(t.doer[3], 3);
    assert_string_equal(word(&t, 3, 3), "狗");
    assert_int_equal(order_task_len(&t, 7), 5);
    assert_string_equal(word(&t, 7, 1), "cat");
    assert_int_equal(t.shape[0], ORDER_USER);
    /* pairs: the other order in the same split */
    assert_int_equal(t.pair[0], 1);
    assert_int_equal(t.pair[1], 0);
    assert_int_equal(t.pair[2], 3);
    assert_int_equal(t.pair[4], 5);
    assert_int_equal(t.pair[5], 4);
    assert_int_equal(t.pair[6], 5);
    assert_int_equal(t.pair[7], -1);
    assert_int_equal(t.split[t.example], ORDER_TEST);
    assert_int_equal(t.example, 4);
    assert_int_equal(order_task_lookup(&t, "猫", strlen("猫")), t.tok[0]);
    assert_int_equal(order_task_lookup(&t, "鱼", strlen("鱼")), ORDER_UNK);
    order_task_free(&t);
}

static void test_parse_auto_split(void **state)
{
    (void)state;
    /* ten groups of tokens, two orders each: two groups (a fifth) are held out, whole */
    static const char *const nouns[] = {"猫",   "狗",   "老师", "学生", "妈妈", "爸爸",
                                        "小明", "小红", "医生", "警察", "朋友"};
    char text[4096] = "";
    for (int g = 0; g < 10; g++) {
        char line[256];
        snprintf(line, sizeof line, "*%s 追 %s\n*%s 追 %s\n", nouns[g], nouns[g + 1], nouns[g + 1],
                 nouns[g]);
        strcat(text, line);
    }
    order_task t, u;
    order_parse_error e;
    assert_int_equal(parse(text, &t, &e), TF_OK);
    assert_int_equal(t.n_split[ORDER_TEST], 4);
    assert_int_equal(t.n_split[ORDER_TRAIN], 16);
    for (uint32_t s = 0; s < t.n_sent; s++) {
        assert_int_equal(t.pair[s], (int32_t)(s ^ 1u));
        assert_int_equal(t.split[s], t.split[s ^ 1u]);
    }
    /* the same seed picks the same groups; another seed (almost surely) others */
    assert_int_equal(order_task_parse(&u, text, strlen(text), 42, &e), TF_OK);
    assert_memory_equal(t.split, u.split, t.n_sent);
    order_task_free(&u);
    bool differs = false;
    for (uint64_t seed = 1; seed < 20 && !differs; seed++) {
        assert_int_equal(order_task_parse(&u, text, strlen(text), seed, &e), TF_OK);
        differs = memcmp(t.split, u.split, t.n_sent) != 0;
        order_task_free(&u);
    }
    assert_true(differs);
    order_task_free(&t);
    /* two groups: one is held out */
    assert_int_equal(parse("*猫 追 狗\n*狗 追 猫\n*我 爱 学习\n", &t, &e), TF_OK);
    assert_int_equal(t.n_split[ORDER_TEST] + t.n_split[ORDER_TRAIN], 3);
    assert_true(t.n_split[ORDER_TEST] == 1 || t.n_split[ORDER_TEST] == 2);
    order_task_free(&t);
}

typedef struct {
    const char *text;
    tf_status st;
    order_problem problem;
    size_t line, column, other_line;
} bad_case;

static void test_parse_bad_lines(void **state)
{
    (void)state;
    const bad_case cases[] = {
        {"", TF_ERR_EMPTY, ORDER_BAD_EMPTY, 0, 0, 0},
        {"# only a comment\n\n  \n", TF_ERR_EMPTY, ORDER_BAD_EMPTY, 0, 0, 0},
        {"*猫 追 狗\n猫 追 狗\n", TF_ERR_FORMAT, ORDER_BAD_NO_MARK, 2, 0, 0},
        {"*猫 追 *狗\n", TF_ERR_FORMAT, ORDER_BAD_TWO_MARKS, 1, 10, 0},
        {"猫 追 狗 *\n", TF_ERR_FORMAT, ORDER_BAD_EMPTY_MARK, 1, 13, 0},
        {"* 猫 追 狗\n", TF_ERR_FORMAT, ORDER_BAD_EMPTY_MARK, 1, 1, 0},
        {"*猫 追*狗\n", TF_ERR_FORMAT, ORDER_BAD_STRAY_MARK, 1, 9, 0},
        {"**猫 追 狗\n", TF_ERR_FORMAT, ORDER_BAD_STRAY_MARK, 1, 2, 0},
        {"*猫\n", TF_ERR_FORMAT, ORDER_BAD_ONE_TOKEN, 1, 0, 0},
        {"*猫 追 狗\n*猫 \xE8\xBF 狗\n", TF_ERR_UTF8, ORDER_BAD_UTF8, 2, 6, 0},
        {"*猫 追 \xC0\xAF\n", TF_ERR_UTF8, ORDER_BAD_UTF8, 1, 10, 0},
        {"*猫 追\x01 狗\n", TF_ERR_FORMAT, ORDER_BAD_CONTROL, 1, 9, 0},
        {"*猫 追 狗\r\r\n", TF_ERR_FORMAT, ORDER_BAD_CONTROL, 1, 13, 0},
        {"*猫 追 狗\n\xC2\x85*狗 追 猫\n", TF_ERR_FORMAT, ORDER_BAD_CONTROL, 2, 1, 0},
        {"@tests\n*猫 追 狗\n", TF_ERR_FORMAT, ORDER_BAD_DIRECTIVE, 1, 1, 0},
        {"*猫 追 狗\n@test now\n", TF_ERR_FORMAT, ORDER_BAD_DIRECTIVE, 2, 1, 0},
        {"*猫 追 狗\n*狗 追 猫\n# x\n猫 追 *狗\n", TF_ERR_FORMAT, ORDER_BAD_CONFLICT, 4, 0, 1},
        {"*猫 追 狗\n@test\n*猫 追 狗\n", TF_ERR_FORMAT, ORDER_BAD_IN_BOTH, 3, 0, 1},
        {"*猫 追 狗\n*狗 追 猫\n", TF_ERR_FORMAT, ORDER_BAD_NO_TEST, 0, 0, 0},
        {"*猫 追 狗\n*猫 追 狗\n", TF_ERR_FORMAT, ORDER_BAD_NO_TEST, 0, 0, 0},
        {"*猫 追 狗\n@test\n", TF_ERR_FORMAT, ORDER_BAD_NO_TEST, 0, 0, 0},
        {"@test\n*猫 追 狗\n", TF_ERR_FORMAT, ORDER_BAD_NO_TRAIN, 0, 0, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        order_task t;
        order_parse_error e;
        tf_status st = parse(cases[i].text, &t, &e);
        if (st != cases[i].st || e.problem != cases[i].problem || e.line != cases[i].line ||
            e.column != cases[i].column || e.other_line != cases[i].other_line)
            fprintf(stderr, "# case %zu: status %d problem %d line %zu column %zu other %zu\n", i,
                    st, e.problem, e.line, e.column, e.other_line);
        assert_int_equal(st, cases[i].st);
        assert_int_equal(e.problem, cases[i].problem);
        assert_int_equal(e.line, cases[i].line);
        assert_int_equal(e.column, cases[i].column);
        assert_int_equal(e.other_line, cases[i].other_line);
        /* the task is left empty, and a message exists for the problem */
        assert_null(t.tok);
        assert_int_equal(t.n_sent, 0);
        assert_true(strlen(order_problem_str(e.problem)) > 20);
        order_task_free(&t);
    }
}

/* A buffer of n copies of a line. */
static char *repeat(const char *line, size_t n, size_t *len)
{
    size_t l = strlen(line);
    char *s = malloc(n * l + 1);
    for (size_t i = 0; i < n; i++)
        memcpy(s + i * l, line, l);
    s[n * l] = '\0';
    *len = n * l;
    return s;
}

static void test_parse_limits(void **state)
{
    (void)state;
    order_task t;
    order_parse_error e;
    /* a line of 1025 bytes; one of exactly 1024 is accepted */
    char line[2048];
    memset(line, 'a', sizeof line);
    memcpy(line, "*x ", 3);
    line[1025] = '\0';
    assert_int_equal(parse(line, &t, &e), TF_ERR_TOO_LONG);
    assert_int_equal(e.problem, ORDER_BAD_LINE_LONG);
    assert_int_equal(e.line, 1);
    /* a token of 65 bytes (and one of 64 is accepted, below) */
    char text[512];
    snprintf(text, sizeof text, "*猫 %.*s 狗\n", 65, line + 3);
    assert_int_equal(parse(text, &t, &e), TF_ERR_FORMAT);
    assert_int_equal(e.problem, ORDER_BAD_WORD_LONG);
    assert_int_equal(e.column, 6);
    snprintf(text, sizeof text, "*猫 %.*s 狗\n*狗 追 猫\n", 64, line + 3);
    assert_int_equal(parse(text, &t, &e), TF_OK);
    order_task_free(&t);
    /* 33 tokens; 32 are accepted */
    size_t len;
    char *many = repeat(" x", 33, &len);
    many[0] = '*'; /* "*x x x ..." */
    assert_int_equal(parse(many, &t, &e), TF_ERR_TOO_MANY);
    assert_int_equal(e.problem, ORDER_BAD_TOKENS);
    assert_int_equal(e.column, 66);
    many[64] = '\0';
    char two[256];
    snprintf(two, sizeof two, "%s\n*a b\n", many);
    assert_int_equal(parse(two, &t, &e), TF_OK);
    assert_int_equal(t.max_len, 32);
    order_task_free(&t);
    free(many);
    /* 100,001 sentences */
    char *lines = repeat("*猫 追 狗\n", ORDER_MAX_SENTENCES + 1, &len);
    assert_int_equal(order_task_parse(&t, lines, len, 1, &e), TF_ERR_TOO_MANY);
    assert_int_equal(e.problem, ORDER_BAD_TOO_MANY);
    assert_int_equal(e.line, ORDER_MAX_SENTENCES + 1);
    free(lines);
    /* 8192 different tokens with [UNK] */
    size_t cap = 20 * ORDER_MAX_VOCAB, at = 0;
    char *vocab = malloc(cap);
    for (int i = 0; i < ORDER_MAX_VOCAB / 2; i++)
        at += (size_t)snprintf(vocab + at, cap - at, "*a%d b%d\n", i, i);
    assert_int_equal(order_task_parse(&t, vocab, at, 1, &e), TF_ERR_TOO_MANY);
    assert_int_equal(e.problem, ORDER_BAD_VOCAB);
    assert_int_equal(e.line, ORDER_MAX_VOCAB / 2);
    assert_int_equal(e.column, 8);
    free(vocab);
    /* more than 16 MiB */
    char *big = calloc(ORDER_MAX_FILE + 1, 1);
    memset(big, '\n', ORDER_MAX_FILE + 1);
    assert_int_equal(order_task_parse(&t, big, ORDER_MAX_FILE + 1, 1, &e), TF_ERR_TOO_BIG);
    assert_int_equal(e.problem, ORDER_BAD_FILE_BIG);
    free(big);
}

static void test_load(void **state)
{
    (void)state;
    order_task t;
    order_parse_error e;
    char dir[] = "/tmp/tfviz-order-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[128];
    snprintf(path, sizeof path, "%s/pairs.txt", dir);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs("*猫 追 狗\n*狗 追 猫\n*我 爱 学习\n*学习 爱 我\n", f);
    fclose(f);
    assert_int_equal(order_task_load(&t, path, 42, &e), TF_OK);
    assert_int_equal(t.n_sent, 4);
    order_task_free(&t);
    /* a bad line keeps its number through the file */
    f = fopen(path, "wb");
    fputs("*猫 追 狗\n\n*狗 追\n猫\n", f);
    fclose(f);
    assert_int_equal(order_task_load(&t, path, 42, &e), TF_ERR_FORMAT);
    assert_int_equal(e.problem, ORDER_BAD_NO_MARK);
    assert_int_equal(e.line, 4);
    /* a file over the limit is refused without being read whole */
    f = fopen(path, "wb");
    assert_int_equal(ftruncate(fileno(f), ORDER_MAX_FILE + 10), 0);
    fclose(f);
    assert_int_equal(order_task_load(&t, path, 42, &e), TF_ERR_TOO_BIG);
    assert_int_equal(e.problem, ORDER_BAD_FILE_BIG);
    unlink(path);
    /* missing, a folder */
    assert_int_equal(order_task_load(&t, path, 42, &e), TF_ERR_IO);
    assert_int_equal(e.problem, ORDER_BAD_READ);
    assert_int_equal(errno, ENOENT);
    assert_int_equal(order_task_load(&t, dir, 42, &e), TF_ERR_IO);
    assert_int_equal(e.problem, ORDER_BAD_READ);
    assert_null(t.tok);
    rmdir(dir);
}

/* The sentences of split sp of a and b are the same, in the same order. */
static void same_split(const order_task *a, const order_task *b, int sp)
{
    uint32_t i = 0, j = 0;
    for (;;) {
        while (i < a->n_sent && a->split[i] != sp)
            i++;
        while (j < b->n_sent && b->split[j] != sp)
            j++;
        if (i == a->n_sent || j == b->n_sent)
            break;
        assert_int_equal(order_task_len(a, i), order_task_len(b, j));
        for (uint32_t p = 0; p < order_task_len(a, i); p++)
            assert_string_equal(word(a, i, (int)p), word(b, j, (int)p));
        assert_int_equal(a->doer[i], b->doer[j]);
        i++, j++;
    }
    assert_int_equal(i, a->n_sent);
    assert_int_equal(j, b->n_sent);
}

static void test_write_round_trip(void **state)
{
    (void)state;
    order_gen_cfg c = {.seed = 5, .train_pairs = 120, .test_pairs = 40};
    order_task t, u;
    order_parse_error e;
    assert_int_equal(order_task_generate(&t, &c), TF_OK);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_int_equal(order_task_write(&t, f), TF_OK);
    fclose(f);
    assert_true(strncmp(text, "# who does it: 240 training and 84 held-out", 43) == 0);
    assert_int_equal(order_task_parse(&u, text, len, 1, &e), TF_OK);
    assert_int_equal(u.n_split[ORDER_TRAIN], t.n_split[ORDER_TRAIN]);
    assert_int_equal(u.n_split[ORDER_TEST], t.n_split[ORDER_TEST]);
    same_split(&t, &u, ORDER_TRAIN);
    same_split(&t, &u, ORDER_TEST);
    /* the parser finds the generator's pairs again */
    for (uint32_t s = 0; s < u.n_sent; s++)
        assert_true(u.pair[s] >= 0 && same_multiset(&u, s, (uint32_t)u.pair[s]));
    free(text);
    order_task_free(&t);
    order_task_free(&u);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_word_lists),
        cmocka_unit_test(test_generate_default),
        cmocka_unit_test(test_generate_class),
        cmocka_unit_test(test_class_check),
        cmocka_unit_test(test_generate_sizes_and_seeds),
        cmocka_unit_test(test_generate_reproducible),
        cmocka_unit_test(test_parse_good),
        cmocka_unit_test(test_parse_auto_split),
        cmocka_unit_test(test_parse_bad_lines),
        cmocka_unit_test(test_parse_limits),
        cmocka_unit_test(test_load),
        cmocka_unit_test(test_write_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
