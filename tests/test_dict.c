/* test_dict.c — the mapped dictionary against jieba's dict.txt read here independently: word
 * count, frequencies, prefix search (the DAG), the maximum-probability route against brute
 * force over every segmentation, and the vocabulary's frequency ranks.
 *
 * TFVIZ_DATA_DIR names the build's asset directory, TFVIZ_JIEBA_DICT the dict.txt it was
 * generated from (both set by tests/meson.build). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "dict.h"
#include "tokenizer.h"
#include "utf8.h"
#include "vocab.h"

/* ---------------------------------------------------------------------------------------------
 * dict.txt, parsed here: words sorted by bytes with their frequencies (the last line wins) */

typedef struct {
    char *w;
    uint64_t f;
    size_t line;
} ref_word;

static ref_word *ref;
static size_t n_ref;
static uint64_t ref_total;

static int cmp_ref(const void *a, const void *b)
{
    const ref_word *x = a, *y = b;
    int c = strcmp(x->w, y->w);
    if (c)
        return c;
    return x->line < y->line ? -1 : x->line > y->line;
}

static int load_ref(void **state)
{
    (void)state;
    const char *path = getenv("TFVIZ_JIEBA_DICT");
    FILE *fp = path ? fopen(path, "r") : NULL;
    if (!fp) {
        fprintf(stderr, "# TFVIZ_JIEBA_DICT (jieba's dict.txt) is not readable\n");
        return -1;
    }
    size_t cap = 1 << 19;
    ref = malloc(cap * sizeof *ref);
    char line[1024];
    while (fgets(line, sizeof line, fp)) {
        char *sp = strchr(line, ' ');
        if (!sp)
            continue;
        *sp = '\0';
        if (n_ref == cap) {
            ref_word *grown = realloc(ref, (cap *= 2) * sizeof *ref);
            if (!grown) {
                fclose(fp);
                return -1;
            }
            ref = grown;
        }
        ref[n_ref] = (ref_word){strdup(line), strtoull(sp + 1, NULL, 10), n_ref};
        ref_total += ref[n_ref].f;
        n_ref++;
    }
    fclose(fp);
    qsort(ref, n_ref, sizeof *ref, cmp_ref);
    size_t k = 0; /* keep the last line of each word */
    for (size_t i = 0; i < n_ref; i++) {
        if (k && strcmp(ref[k - 1].w, ref[i].w) == 0) {
            free(ref[k - 1].w);
            ref[k - 1] = ref[i];
        } else {
            ref[k++] = ref[i];
        }
    }
    n_ref = k;
    return 0;
}

static int free_ref(void **state)
{
    (void)state;
    for (size_t i = 0; i < n_ref; i++)
        free(ref[i].w);
    free(ref);
    return 0;
}

/* frequency of the word s[0..len) per dict.txt, 0 when absent */
static uint64_t ref_freq(const char *s, size_t len)
{
    char key[256];
    if (len >= sizeof key)
        return 0;
    memcpy(key, s, len);
    key[len] = '\0';
    size_t lo = 0, hi = n_ref;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strcmp(ref[mid].w, key);
        if (c == 0)
            return ref[mid].f;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return 0;
}

static tf_dict *open_dict(void)
{
    tf_dict *d = NULL;
    assert_int_equal(dict_open(getenv("TFVIZ_DATA_DIR"), &d), TF_OK);
    return d;
}

/* byte offsets of the characters of s */
static size_t char_offsets(const char *s, uint32_t *cpos)
{
    size_t n = 0, i = 0, len = strlen(s);
    while (i < len) {
        uint32_t cp;
        cpos[n++] = (uint32_t)i;
        i += utf8_decode(s + i, len - i, &cp);
    }
    cpos[n] = (uint32_t)len;
    return n;
}

/* ---------------------------------------------------------------------------------------------
 * Tests */

static void test_counts_and_lookup(void **state)
{
    (void)state;
    tf_dict *d = open_dict();
    assert_int_equal(dict_count(d), n_ref);
    assert_true(dict_total(d) == ref_total);
    /* every 101st word: found at its place, with its frequency */
    for (size_t i = 0; i < n_ref; i += 101) {
        int64_t k = dict_find(d, ref[i].w, strlen(ref[i].w));
        assert_int_equal(k, (int64_t)i);
        assert_int_equal(dict_freq(d, (uint32_t)k), ref[i].f);
        size_t len;
        const char *w = dict_word(d, (uint32_t)k, &len);
        assert_int_equal(len, strlen(ref[i].w));
        assert_memory_equal(w, ref[i].w, len);
    }
    assert_int_equal(dict_find(d, "学习", 6) >= 0, 1);
    assert_int_equal(dict_find(d, "学习x", 7), -1);
    assert_int_equal(dict_find(d, "", 0), -1);
    /* 自然语 is a prefix of 自然语言 but only a word if the file says so */
    assert_int_equal(dict_find(d, "自然语", 9) >= 0, ref_freq("自然语", 9) > 0);
    dict_free(d);
}

static void test_dag(void **state)
{
    (void)state;
    tf_dict *d = open_dict();
    const char *s = "研究生命的起源";
    uint32_t cpos[16], ends[16];
    size_t n = char_offsets(s, cpos);
    for (size_t i = 0; i < n; i++) {
        /* reference: every j with s[i..j] a dictionary word of frequency > 0 */
        uint32_t want[16];
        size_t nw = 0;
        for (size_t j = i; j < n; j++)
            if (ref_freq(s + cpos[i], cpos[j + 1] - cpos[i]) > 0)
                want[nw++] = (uint32_t)j;
        if (nw == 0)
            want[nw++] = (uint32_t)i;
        size_t got = dict_dag(d, s, cpos, n, i, ends, 16);
        assert_int_equal(got, nw);
        assert_memory_equal(ends, want, nw * sizeof *want);
    }
    /* 研究 and 研究生 both start at 0 */
    assert_true(dict_dag(d, s, cpos, n, 0, ends, 16) >= 2);
    dict_free(d);
}

/* The best score over every segmentation into DAG words (exponential; short strings only). */
static double brute_best(const tf_dict *d, const char *s, const uint32_t *cpos, size_t n, size_t i,
                         double log_total)
{
    if (i == n)
        return 0.0;
    uint32_t ends[64];
    size_t k = dict_dag(d, s, cpos, n, i, ends, 64);
    double best = -INFINITY;
    for (size_t e = 0; e < k; e++) {
        uint64_t f = ref_freq(s + cpos[i], cpos[ends[e] + 1] - cpos[i]);
        double v = log((double)(f ? f : 1)) - log_total +
                   brute_best(d, s, cpos, n, ends[e] + 1, log_total);
        best = v > best ? v : best;
    }
    return best;
}

static void test_route(void **state)
{
    (void)state;
    tf_dict *d = open_dict();
    double log_total = log((double)ref_total);
    static const struct {
        const char *s;
        const char *words[8];
    } cases[] = {
        {"我爱学习", {"我", "爱", "学习"}},
        {"我喜欢自然语言处理", {"我", "喜欢", "自然语言", "处理"}},
        {"研究生命的起源", {"研究", "生命", "的", "起源"}},
        {"南京市长江大桥", {"南京市", "长江大桥"}},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const char *s = cases[c].s;
        uint32_t cpos[32], next[32];
        double score[32];
        size_t n = char_offsets(s, cpos);
        dict_route(d, s, cpos, n, score, next, NULL);
        size_t w = 0;
        double sum = 0.0;
        for (size_t i = 0; i < n; i = next[i], w++) {
            size_t len = cpos[next[i]] - cpos[i];
            assert_non_null(cases[c].words[w]);
            assert_int_equal(len, strlen(cases[c].words[w]));
            assert_memory_equal(s + cpos[i], cases[c].words[w], len);
            sum += log((double)ref_freq(s + cpos[i], len)) - log_total;
        }
        assert_null(cases[c].words[w]);
        /* the route's score is the sum of its words' log probabilities, and no other
         * segmentation scores higher */
        assert_close(score[0], sum, 1e-9);
        assert_close(score[0], brute_best(d, s, cpos, n, 0, log_total), 1e-9);
    }
    /* random strings over characters that form many overlapping words */
    const char *alphabet[] = {"研", "究", "生", "命", "的", "起", "源", "中", "国",
                              "人", "民", "学", "习", "大", "长", "江", "市"};
    uint64_t x = 12345;
    for (int trial = 0; trial < 200; trial++) {
        char s[64] = "";
        size_t n = 3 + (size_t)(trial % 8);
        for (size_t i = 0; i < n; i++) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            strcat(s, alphabet[(x >> 33) % (sizeof alphabet / sizeof alphabet[0])]);
        }
        uint32_t cpos[16], next[16];
        double score[16];
        assert_int_equal(char_offsets(s, cpos), n);
        dict_route(d, s, cpos, n, score, next, NULL);
        assert_close(score[0], brute_best(d, s, cpos, n, 0, log_total), 1e-9);
    }
    dict_free(d);
}

/* ---------------------------------------------------------------------------------------------
 * The base alphabet and the layout of a dictionary vocabulary, worked out here from dict.txt:
 * W words by rank, then the base characters that are not among them, in code-point order */

static int is_base(uint32_t cp)
{
    return (cp >= 0x20 && cp <= 0x7E) || (cp >= 0x3000 && cp <= 0x303F) ||
           (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0xFF00 && cp <= 0xFFEF);
}
#define REF_N_BASE (95 + 64 + 20992 + 240)

static int cmp_rank(const void *a, const void *b)
{
    const ref_word *x = *(ref_word *const *)a, *y = *(ref_word *const *)b;
    if (x->f != y->f)
        return x->f > y->f ? -1 : 1;
    return strcmp(x->w, y->w);
}

/* The words in frequency order (built once). */
static ref_word **by_rank;
static ref_word **ref_by_rank(void)
{
    if (!by_rank) {
        by_rank = malloc(n_ref * sizeof *by_rank);
        for (size_t i = 0; i < n_ref; i++)
            by_rank[i] = &ref[i];
        qsort(by_rank, n_ref, sizeof *by_rank, cmp_rank);
    }
    return by_rank;
}

/* The code point of a word that is one base character, 0 otherwise. */
static uint32_t base_char(const char *w)
{
    uint32_t cp;
    size_t n = strlen(w);
    return utf8_decode(w, n, &cp) == n && is_base(cp) ? cp : 0;
}

/* W for a vocabulary of V ids: with room for the alphabet, the most words such that they and
 * the base characters not among them fit in V - 4; otherwise V - 4 words. */
static size_t ref_words_in(uint32_t V)
{
    ref_word **r = ref_by_rank();
    size_t room = V - VOCAB_N_SPECIAL, rest = REF_N_BASE, k = 0;
    if (room < REF_N_BASE)
        return room < n_ref ? room : n_ref;
    for (; k < n_ref; k++) {
        size_t in_base = base_char(r[k]->w) != 0;
        if (k + 1 + rest - in_base > room)
            break;
        rest -= in_base;
    }
    return k;
}

static void check_layout(uint32_t V)
{
    tf_vocab *v;
    assert_int_equal(vocab_open_dict(getenv("TFVIZ_DATA_DIR"), V, &v), TF_OK);
    ref_word **r = ref_by_rank();
    size_t W = ref_words_in(V);
    char *taken = calloc(0x10000, 1); /* base characters among the W words */
    char buf[256];
    for (size_t k = 0; k < W; k++) {
        int32_t id = (int32_t)(VOCAB_N_SPECIAL + k);
        if (k % 97 == 0 || k + 1 == W) { /* a sample: every word would take long under ASan */
            assert_int_equal(vocab_token(v, id, buf, sizeof buf), strlen(r[k]->w));
            assert_string_equal(buf, r[k]->w);
            assert_int_equal(vocab_frequency(v, id), r[k]->f);
            assert_int_equal(vocab_rank(v, id), (int64_t)k + 1);
        }
        uint32_t cp = base_char(r[k]->w);
        if (cp)
            taken[cp] = 1;
    }
    /* the tail: every base character not among the words, in code-point order, up to V */
    uint32_t id = (uint32_t)(VOCAB_N_SPECIAL + W), n_tail = 0;
    for (uint32_t cp = 0x20; cp < 0x10000; cp++) {
        if (!is_base(cp))
            continue;
        char c[8];
        size_t n = utf8_encode(cp, c);
        int32_t got = vocab_lookup(v, c, n);
        if (V < VOCAB_N_SPECIAL + REF_N_BASE) { /* no room: only the words */
            assert_true(taken[cp] ? got >= 0 : got == -1);
            continue;
        }
        assert_true(got >= 0); /* no base character is [UNK] */
        if (taken[cp])
            continue;
        assert_int_equal(got, id);
        assert_int_equal(vocab_token(v, got, buf, sizeof buf), n);
        assert_memory_equal(buf, c, n);
        uint64_t f = ref_freq(c, n); /* its dictionary frequency, 0 when it is no word */
        assert_int_equal(vocab_frequency(v, got), f);
        if (f == 0)
            assert_int_equal(vocab_rank(v, got), -1);
        else /* a rare character: its true rank, past the words */
            assert_true(vocab_rank(v, got) > (int64_t)W);
        id++, n_tail++;
    }
    if (V >= VOCAB_N_SPECIAL + REF_N_BASE && W < n_ref)
        assert_int_equal(id, V); /* the layout fills V exactly */
    assert_true(id <= V);
    if (id < V) /* V larger than the words and the alphabet: unused ids */
        assert_int_equal(vocab_token(v, (int32_t)id, buf, sizeof buf), 0);
    assert_int_equal(vocab_lookup(v, "\xF0\x9F\x98\x80", 4), -1); /* an emoji: [UNK] */
    print_message("# V = %u: %zu words, %u base characters after them\n", V, W, n_tail);
    free(taken);
    vocab_free(v);
}

static void test_vocab_alphabet(void **state)
{
    (void)state;
    check_layout(100000);
    check_layout(VOCAB_N_SPECIAL + REF_N_BASE);     /* the alphabet just fits */
    check_layout(VOCAB_N_SPECIAL + REF_N_BASE - 1); /* it does not: words only */
    check_layout(400000);                           /* every word and the rest of the alphabet */
    free(by_rank);
    by_rank = NULL;
}

static void test_vocab_ranks(void **state)
{
    (void)state;
    tf_vocab *v;
    assert_int_equal(vocab_open_dict(getenv("TFVIZ_DATA_DIR"), 100000, &v), TF_OK);
    assert_int_equal(vocab_size(v), 100000);
    assert_string_equal(vocab_name(v), "jieba");
    /* reference ranks: frequency descending, equal frequencies in byte order */
    const char *probe[] = {"的", "我", "学习", "自然语言", "起源"};
    for (size_t p = 0; p < sizeof probe / sizeof probe[0]; p++) {
        uint64_t f = ref_freq(probe[p], strlen(probe[p]));
        int64_t above = 0;
        for (size_t i = 0; i < n_ref; i++)
            above += ref[i].f > f || (ref[i].f == f && strcmp(ref[i].w, probe[p]) < 0);
        int32_t id = vocab_lookup(v, probe[p], strlen(probe[p]));
        assert_int_equal(id, VOCAB_N_SPECIAL + above);
        assert_int_equal(vocab_rank(v, id), above + 1);
        assert_int_equal(vocab_frequency(v, id), f);
        char buf[64];
        assert_int_equal(vocab_token(v, id, buf, sizeof buf), strlen(probe[p]));
        assert_string_equal(buf, probe[p]);
    }
    /* frequencies never rise with the id; every id spells a word that looks up to it */
    uint64_t prev = UINT64_MAX;
    int32_t end = VOCAB_N_SPECIAL + (int32_t)ref_words_in(100000); /* the words' ids */
    for (int32_t id = VOCAB_N_SPECIAL; id < end; id += 37) {
        uint64_t f = vocab_frequency(v, id);
        assert_true(f <= prev && f > 0);
        prev = f;
        char buf[256];
        size_t len = vocab_token(v, id, buf, sizeof buf);
        assert_int_equal(vocab_lookup(v, buf, len), id);
    }
    assert_int_equal(vocab_lookup(v, "[UNK]", 5), VOCAB_UNK);
    assert_int_equal(vocab_rank(v, VOCAB_UNK), -1);
    vocab_free(v);
    /* a smaller V: the same ids for the words it keeps, none for the rest */
    assert_int_equal(vocab_open_dict(getenv("TFVIZ_DATA_DIR"), 1000, &v), TF_OK);
    int32_t id = vocab_lookup(v, "我", 3);
    assert_true(id > 0 && id < 1000);
    assert_int_equal(vocab_lookup(v, "自然语言", 12), -1);
    vocab_free(v);
}

static void test_word_tokens(void **state)
{
    (void)state;
    tf_vocab *v;
    assert_int_equal(vocab_open_dict(getenv("TFVIZ_DATA_DIR"), 1000, &v), TF_OK);
    tf_tokens t;
    const char *s = "自然语言 GPT4，我";
    assert_int_equal(tokenizer_split(v, TOKENIZER_WORD, s, strlen(s), &t, NULL), TF_OK);
    /* 自然语言 (outside V = 1000) -> 4 characters of word 0; GPT4 -> one word of 4 [UNK]
     * characters; ， -> [UNK]; 我 in the vocabulary */
    assert_int_equal(t.n, 10);
    for (int i = 0; i < 4; i++) {
        assert_int_equal(t.items[i].word, 0);
        assert_true(t.items[i].flags & TOKEN_FALLBACK);
    }
    for (int i = 4; i < 8; i++) {
        assert_int_equal(t.items[i].word, 1);
        assert_int_equal(t.items[i].id, VOCAB_UNK);
        assert_int_equal(t.items[i].flags, TOKEN_FALLBACK | TOKEN_UNK);
    }
    assert_int_equal(t.items[4].start, 13); /* the space is skipped, offsets are kept */
    assert_int_equal(t.items[8].flags, TOKEN_UNK);
    assert_int_equal(t.items[9].flags, TOKEN_IN_VOCAB);
    assert_int_equal(t.items[9].word, 3);
    tokens_free(&t);
    /* a long line has no token limit through tokenizer_split_any */
    size_t reps = 3000, len = reps * strlen("我爱学习。");
    char *big = malloc(len + 1);
    big[0] = '\0';
    for (size_t i = 0; i < reps; i++)
        strcat(big, "我爱学习。");
    assert_int_equal(tokenizer_split(v, TOKENIZER_WORD, big, len, &t, NULL), TF_ERR_TOO_MANY);
    assert_int_equal(tokenizer_split_any(v, TOKENIZER_WORD, big, len, &t, NULL), TF_OK);
    assert_int_equal(t.n, 4 * reps);
    tokens_free(&t);
    free(big);
    assert_int_equal(tokenizer_split(v, TOKENIZER_CL100K, "a", 1, &t, NULL), TF_ERR_UNAVAILABLE);
    vocab_free(v);
}

/* With the base alphabet (V = 100,000) mixed text has no [UNK] but for characters outside it:
 * a Latin run that is no word stays one word and falls back to characters with real ids. */
static void test_word_alphabet(void **state)
{
    (void)state;
    tf_vocab *v;
    assert_int_equal(vocab_open_dict(getenv("TFVIZ_DATA_DIR"), 100000, &v), TF_OK);
    const char *s = "我喜欢Python和自然语言处理，你呢？\xF0\x9F\x98\x80";
    const char *want[] = {"我", "喜欢",     "P",    "y",  "t",  "h",  "o",  "n",
                          "和", "自然语言", "处理", "，", "你", "呢", "？", "\xF0\x9F\x98\x80"};
    const uint32_t word[] = {0, 1, 2, 2, 2, 2, 2, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    tf_tokens t;
    assert_int_equal(tokenizer_split(v, TOKENIZER_WORD, s, strlen(s), &t, NULL), TF_OK);
    assert_int_equal(t.n, 16);
    for (size_t i = 0; i < t.n; i++) {
        const tf_token *k = &t.items[i];
        assert_int_equal(k->end - k->start, strlen(want[i]));
        assert_memory_equal(s + k->start, want[i], k->end - k->start);
        assert_int_equal(k->word, word[i]);
        uint32_t flags = i == 15 ? TOKEN_UNK : (i >= 2 && i <= 7) ? TOKEN_FALLBACK : TOKEN_IN_VOCAB;
        assert_int_equal(k->flags, flags);
        /* the id spells the token (the emoji is [UNK]) */
        char buf[64];
        if (i < 15) {
            assert_int_equal(vocab_token(v, k->id, buf, sizeof buf), strlen(want[i]));
            assert_string_equal(buf, want[i]);
        } else {
            assert_int_equal(k->id, VOCAB_UNK);
        }
    }
    tokens_free(&t);
    /* char mode: every CJK ideograph has an id */
    char all[3 * 64];
    for (uint32_t cp = 0x4E00; cp <= 0x9FFF; cp += 64) {
        size_t n = 0;
        for (uint32_t c = cp; c < cp + 64; c++)
            n += utf8_encode(c, all + n);
        assert_int_equal(tokenizer_split(v, TOKENIZER_CHAR, all, n, &t, NULL), TF_OK);
        assert_int_equal(t.n, 64);
        for (size_t i = 0; i < t.n; i++)
            assert_int_equal(t.items[i].flags, TOKEN_IN_VOCAB);
        tokens_free(&t);
    }
    vocab_free(v);
}

static void test_missing_and_corrupt(void **state)
{
    (void)state;
    tf_dict *d;
    assert_int_equal(dict_open("/nonexistent-dir", &d), TF_ERR_UNAVAILABLE);
    char dir[] = "/tmp/tfviz-dict-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[64];
    snprintf(path, sizeof path, "%s/%s", dir, DICT_ASSET);
    FILE *fp = fopen(path, "wb");
    fputs("TFDICT01 but far too short", fp);
    fclose(fp);
    assert_int_equal(dict_open(dir, &d), TF_ERR_FORMAT);
    remove(path);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counts_and_lookup),
        cmocka_unit_test(test_dag),
        cmocka_unit_test(test_route),
        cmocka_unit_test(test_vocab_ranks),
        cmocka_unit_test(test_vocab_alphabet),
        cmocka_unit_test(test_word_tokens),
        cmocka_unit_test(test_word_alphabet),
        cmocka_unit_test(test_missing_and_corrupt),
    };
    return cmocka_run_group_tests(tests, load_ref, free_ref);
}
