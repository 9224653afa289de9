/* test_dict.c — the mapped dictionary against jieba's dict.txt (and the English word list,
 * when the build merged it) read here independently: word count, frequencies, prefix search
 * (the DAG), the maximum-probability route against brute force over every segmentation, the
 * vocabulary's frequency ranks and layout, and word mode's re-segmentation of words outside
 * the vocabulary against a reference worked out here.
 *
 * TFVIZ_DATA_DIR names the build's asset directory, TFVIZ_JIEBA_DICT the dict.txt it was
 * generated from, TFVIZ_ENGLISH_LIST the English list's index.json when the build used one
 * (all set by tests/meson.build). */
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
    uint64_t f;  /* jieba's frequency, 0 for an English-only word */
    uint64_t vf; /* the vocabulary frequency: jieba's plus the scaled English count */
    size_t line;
    uint32_t rank; /* 0-based by vf descending, ties in byte order */
    int en;        /* the word is in the English list */
    int zh;        /* the word is in jieba's dict.txt */
} ref_word;

static ref_word *ref;
static size_t n_ref, n_english;
static uint64_t ref_total, ref_vtotal, en_total;

static int cmp_ref(const void *a, const void *b)
{
    const ref_word *x = a, *y = b;
    int c = strcmp(x->w, y->w);
    if (c)
        return c;
    return x->line < y->line ? -1 : x->line > y->line;
}

/* The English list: {"word": "...", "count": N} objects, read with a scanner (no JSON library).
 * Each word is normalised as gen_dict.py documents: letters only, lowercase or capitalised,
 * anything else lowercased. Returns the number of entries, -1 when unreadable. */
typedef struct {
    char w[72];
    uint64_t c;
} en_word;
static char *find(char *p, const char *end, const char *needle)
{
    size_t n = strlen(needle);
    for (; p + n <= end; p++)
        if (*p == needle[0] && memcmp(p, needle, n) == 0)
            return p;
    return NULL;
}

static long read_english(const char *path, en_word **out)
{
    FILE *fp = fopen(path, "r");
    if (!fp)
        return -1;
    fseek(fp, 0, SEEK_END);
    long size = ftell(fp);
    rewind(fp);
    char *buf = malloc((size_t)size + 1);
    size_t got = fread(buf, 1, (size_t)size, fp);
    fclose(fp);
    buf[got] = '\0';
    size_t cap = 1 << 17, n = 0;
    en_word *e = malloc(cap * sizeof *e);
    /* by hand: sanitizers' strstr and strchr measure the whole rest of the buffer each call */
    char *end = buf + got;
    for (char *p = buf; (p = find(p, end, "\"word\"")) != NULL;) {
        char *q = find(p + 6, end, "\"");
        char *r = q ? find(q + 1, end, "\"") : NULL;
        char *c = r ? find(r, end, "\"count\"") : NULL;
        if (!c)
            break;
        size_t len = (size_t)(r - q - 1);
        p = c + 7;
        if (len == 0 || len > 64)
            continue;
        char *colon = find(c + 7, end, ":");
        if (!colon)
            break;
        en_word x = {.c = strtoull(colon + 1, NULL, 10)};
        int ok = 1, lower_rest = 1;
        for (size_t i = 0; i < len; i++) {
            char ch = q[1 + i];
            ok &= (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
            if (i > 0)
                lower_rest &= ch >= 'a' && ch <= 'z';
            x.w[i] = ch;
        }
        if (!ok || x.c == 0)
            continue;
        for (size_t i = 0; !lower_rest && i < len; i++)
            if (x.w[i] >= 'A' && x.w[i] <= 'Z')
                x.w[i] = (char)(x.w[i] - 'A' + 'a');
        if (n == cap) {
            en_word *grown = realloc(e, (cap *= 2) * sizeof *e);
            assert_non_null(grown);
            e = grown;
        }
        e[n++] = x;
    }
    free(buf);
    *out = e;
    return (long)n;
}

static int cmp_rank(const void *a, const void *b);

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
        uint64_t f = strtoull(sp + 1, NULL, 10);
        ref[n_ref] = (ref_word){strdup(line), f, f, n_ref, 0, 0, 1};
        ref_total += ref[n_ref].f;
        n_ref++;
    }
    fclose(fp);
    /* the English words after jieba's, scaled to jieba's total: round(count * total / sum) */
    const char *en = getenv("TFVIZ_ENGLISH_LIST");
    if (en && *en) {
        en_word *e;
        long ne = read_english(en, &e);
        if (ne < 0) {
            fprintf(stderr, "# TFVIZ_ENGLISH_LIST (%s) is not readable\n", en);
            return -1;
        }
        for (long i = 0; i < ne; i++)
            en_total += e[i].c;
        if (n_ref + (size_t)ne > cap)
            ref = realloc(ref, (cap = n_ref + (size_t)ne) * sizeof *ref);
        for (long i = 0; i < ne; i++) {
            uint64_t vf = (e[i].c * ref_total + en_total / 2) / en_total;
            ref[n_ref] = (ref_word){strdup(e[i].w), 0, vf, n_ref, 0, 1, 0};
            n_ref++;
        }
        free(e);
    }
    qsort(ref, n_ref, sizeof *ref, cmp_ref);
    /* equal words: the English lines sort after jieba's (line order); the last jieba line
     * wins, an English word adds its scaled count */
    size_t k = 0;
    for (size_t i = 0; i < n_ref; i++) {
        if (k && strcmp(ref[k - 1].w, ref[i].w) == 0) {
            if (ref[i].en) {
                ref[k - 1].vf += ref[i].vf;
                n_english += !ref[k - 1].en;
                ref[k - 1].en = 1;
                free(ref[i].w);
            } else {
                free(ref[k - 1].w);
                ref[k - 1] = ref[i];
            }
        } else {
            n_english += ref[i].en;
            ref[k++] = ref[i];
        }
    }
    n_ref = k;
    for (size_t i = 0; i < n_ref; i++)
        ref_vtotal += ref[i].vf;
    ref_word **order = malloc(n_ref * sizeof *order);
    for (size_t i = 0; i < n_ref; i++)
        order[i] = &ref[i];
    qsort(order, n_ref, sizeof *order, cmp_rank);
    for (size_t r = 0; r < n_ref; r++)
        order[r]->rank = (uint32_t)r;
    free(order);
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

/* the reference entry of the word s[0..len), NULL when absent */
static const ref_word *ref_find(const char *s, size_t len)
{
    char key[256];
    if (len >= sizeof key)
        return NULL;
    memcpy(key, s, len);
    key[len] = '\0';
    size_t lo = 0, hi = n_ref;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strcmp(ref[mid].w, key);
        if (c == 0)
            return &ref[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

/* jieba's frequency of the word s[0..len) per dict.txt, 0 when absent */
static uint64_t ref_freq(const char *s, size_t len)
{
    const ref_word *r = ref_find(s, len);
    return r ? r->f : 0;
}

static tf_dict *open_dict(void)
{
    tf_dict *d = NULL;
    assert_int_equal(dict_open(getenv("TFVIZ_DATA_DIR"), &d), TF_OK);
    return d;
}

/* byte offsets of the characters of s[0..len) */
static size_t char_offsets_n(const char *s, size_t len, uint32_t *cpos)
{
    size_t n = 0, i = 0;
    while (i < len) {
        uint32_t cp;
        cpos[n++] = (uint32_t)i;
        i += utf8_decode(s + i, len - i, &cp);
    }
    cpos[n] = (uint32_t)len;
    return n;
}

static size_t char_offsets(const char *s, uint32_t *cpos)
{
    return char_offsets_n(s, strlen(s), cpos);
}

/* ---------------------------------------------------------------------------------------------
 * Tests */

static void test_counts_and_lookup(void **state)
{
    (void)state;
    tf_dict *d = open_dict();
    /* jieba's words first (byte order), then the words only English (byte order) */
    size_t n_en_only = 0;
    for (size_t i = 0; i < n_ref; i++)
        n_en_only += !ref[i].zh;
    assert_int_equal(dict_count(d), n_ref);
    assert_true(dict_total(d) == ref_total);
    assert_true(dict_vtotal(d) == ref_vtotal);
    assert_int_equal(dict_english_count(d), n_english);
    assert_true(dict_english_total(d) == en_total);
    /* every 101st word: found at its place, with its frequency */
    for (size_t i = 0; i < n_ref; i += 101) {
        int64_t k = dict_find(d, ref[i].w, strlen(ref[i].w));
        assert_true(k >= 0 && (ref[i].zh ? k < (int64_t)(n_ref - n_en_only)
                                         : k >= (int64_t)(n_ref - n_en_only)));
        assert_int_equal(dict_freq(d, (uint32_t)k), ref[i].f);
        assert_int_equal(dict_vfreq(d, (uint32_t)k), ref[i].vf);
        assert_int_equal(dict_rank(d, (uint32_t)k), ref[i].rank);
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
#define REF_N_NUM  (100 + 1000 + 10000) /* every string of 2, 3 and 4 digits */

/* Whether V holds the numbers: room for them and the whole alphabet. */
static int ref_has_numbers(uint32_t V)
{
    return V - VOCAB_N_SPECIAL >= REF_N_BASE + REF_N_NUM;
}

static int cmp_rank(const void *a, const void *b)
{
    const ref_word *x = *(ref_word *const *)a, *y = *(ref_word *const *)b;
    if (x->vf != y->vf)
        return x->vf > y->vf ? -1 : 1;
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
    if (ref_has_numbers(V))
        room -= REF_N_NUM;
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
            assert_int_equal(vocab_frequency(v, id), r[k]->vf);
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
        const ref_word *rw = ref_find(c, n); /* its frequency, 0 when it is no word */
        uint64_t f = rw ? rw->vf : 0;
        assert_int_equal(vocab_frequency(v, got), f);
        if (f == 0)
            assert_int_equal(vocab_rank(v, got), -1);
        else /* a rare character: its true rank, past the words */
            assert_true(vocab_rank(v, got) > (int64_t)W);
        id++, n_tail++;
    }
    /* then the numbers 00 .. 99, 000 .. 999, 0000 .. 9999, when they fit */
    assert_int_equal(vocab_has_numbers(v), ref_has_numbers(V));
    if (ref_has_numbers(V)) {
        for (int digits = 2; digits <= 4; digits++) {
            int count = digits == 2 ? 100 : digits == 3 ? 1000 : 10000;
            uint32_t first = id + (digits == 2 ? 0 : digits == 3 ? 100 : 1100);
            for (int x = 0; x < count; x += digits == 4 ? 7 : 1) {
                char num[8];
                snprintf(num, sizeof num, "%0*d", digits, x);
                int32_t want = (int32_t)(first + (uint32_t)x);
                assert_int_equal(vocab_lookup(v, num, (size_t)digits), want);
                assert_int_equal(vocab_token(v, want, buf, sizeof buf), digits);
                assert_string_equal(buf, num);
                assert_int_equal(vocab_frequency(v, want), 0);
                assert_int_equal(vocab_rank(v, want), -1);
            }
        }
        assert_int_equal(vocab_lookup(v, "9999", 4), id + REF_N_NUM - 1);
        id += REF_N_NUM;
    } else {
        assert_int_equal(vocab_lookup(v, "2024", 4), -1);
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
    check_layout(VOCAB_N_SPECIAL + REF_N_BASE);                 /* the alphabet just fits */
    check_layout(VOCAB_N_SPECIAL + REF_N_BASE - 1);             /* it does not: words only */
    check_layout(VOCAB_N_SPECIAL + REF_N_BASE + REF_N_NUM);     /* the numbers just fit */
    check_layout(VOCAB_N_SPECIAL + REF_N_BASE + REF_N_NUM - 1); /* they do not */
    check_layout(500000); /* every word, the rest of the alphabet and the numbers */
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
    const char *probe[] = {"的", "我", "学习", "起源", "今天", "基础", "love", "learning", "cats"};
    size_t W = ref_words_in(100000);
    for (size_t p = 0; p < sizeof probe / sizeof probe[0]; p++) {
        const ref_word *rw = ref_find(probe[p], strlen(probe[p]));
        if (!rw) { /* an English word without the list */
            assert_int_equal(n_english, 0);
            assert_int_equal(vocab_lookup(v, probe[p], strlen(probe[p])), -1);
            continue;
        }
        uint64_t f = rw->vf;
        int64_t above = 0;
        for (size_t i = 0; i < n_ref; i++)
            above += ref[i].vf > f || (ref[i].vf == f && strcmp(ref[i].w, probe[p]) < 0);
        assert_int_equal(above, rw->rank);
        assert_true((size_t)above < W); /* all of them common enough to be among the words */
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

/* ---------------------------------------------------------------------------------------------
 * Word mode against a reference worked out here: a segment that is a vocabulary word (in any
 * of the English list's spellings) or a number is one token; any other segment longer than a
 * character becomes numbers (groups of four digits from the right) and, between them, the
 * route over vocabulary words that leaves the fewest characters uncovered and, of those, has
 * the largest product of vocabulary probabilities vf/vtotal (brute force below). */

#define REF_UNCOVERED 1e4

/* The reference entry spelled s[0..len) as written, lowercased or capitalised (fold), that is
 * among the W words; NULL when none is. */
static const ref_word *ref_vocab_word(const char *s, size_t len, size_t W, int fold)
{
    const ref_word *r = ref_find(s, len);
    if ((r && r->rank < W) || !fold || len >= 256)
        return r && r->rank < W ? r : NULL;
    char b[256];
    for (size_t i = 0; i < len; i++)
        b[i] = s[i] >= 'A' && s[i] <= 'Z' ? (char)(s[i] - 'A' + 'a') : s[i];
    r = ref_find(b, len);
    if (r && r->rank < W)
        return r;
    if (b[0] >= 'a' && b[0] <= 'z') {
        b[0] = (char)(b[0] - 'a' + 'A');
        r = ref_find(b, len);
        if (r && r->rank < W)
            return r;
    }
    return NULL;
}

static int has_latin(const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if ((s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= 'a' && s[i] <= 'z'))
            return 1;
    return 0;
}

/* Best score of the part s[cpos[0]..cpos[n]) over every segmentation into vocabulary words
 * and uncovered characters: best[i] is the best score of s[cpos[i]..), filled right to left. */
static double ref_best(const char *s, const uint32_t *cpos, size_t n, size_t W, int fold,
                       double log_vtotal)
{
    double best[65];
    best[n] = 0.0;
    for (size_t i = n; i-- > 0;) {
        best[i] = -INFINITY;
        int any = 0;
        for (size_t j = i; j < n; j++) {
            const ref_word *r = ref_vocab_word(s + cpos[i], cpos[j + 1] - cpos[i], W, fold);
            if (!r || r->vf == 0)
                continue;
            any = 1;
            double v = log((double)r->vf) - log_vtotal + best[j + 1];
            best[i] = v > best[i] ? v : best[i];
        }
        if (!any)
            best[i] = -log_vtotal - REF_UNCOVERED + best[i + 1];
    }
    return best[0];
}

/* Check the tokens k[0..nk) of one part text[b, e) of a segment (no digits). */
static void check_part(const char *text, size_t b, size_t e, const tf_token *k, size_t nk, size_t W)
{
    uint32_t cpos[64];
    size_t n = char_offsets_n(text + b, e - b, cpos);
    int fold = has_latin(text + b, e - b);
    double lv = log((double)ref_vtotal), got = 0.0;
    for (size_t t = 0; t < nk; t++) {
        const char *s = text + k[t].start;
        size_t len = k[t].end - k[t].start;
        const ref_word *r = ref_vocab_word(s, len, W, fold);
        if (k[t].flags & TOKEN_SPLIT) { /* a vocabulary word, with its id */
            assert_non_null(r);
            assert_true(r->vf > 0);
            assert_int_equal(k[t].id, VOCAB_N_SPECIAL + r->rank);
            got += log((double)r->vf) - lv;
        } else { /* a character where no vocabulary word starts */
            assert_true(k[t].flags & TOKEN_FALLBACK);
            uint32_t cp;
            assert_int_equal(utf8_decode(s, len, &cp), len);
            for (size_t j = k[t].start; j < e;) {
                j += utf8_decode(text + j, e - j, &cp);
                const ref_word *w = ref_vocab_word(s, j - k[t].start, W, fold);
                assert_true(!w || w->vf == 0);
            }
            got -= lv + REF_UNCOVERED;
        }
    }
    assert_close(got, ref_best(text + b, cpos, n, W, fold, lv), 1e-6);
}

/* Every token of text in the vocabulary v of V ids against the reference. */
static void check_sentence(const tf_vocab *v, uint32_t V, const char *text)
{
    size_t W = ref_words_in(V);
    assert_int_equal(vocab_words(v), W);
    tf_tokens t;
    assert_int_equal(tokenizer_split(v, TOKENIZER_WORD, text, strlen(text), &t, NULL), TF_OK);
    for (size_t i = 0, j; i < t.n; i = j) {
        for (j = i + 1; j < t.n && t.items[j].word == t.items[i].word; j++)
            ;
        const tf_token *k = &t.items[i];
        size_t b = k->start, e = t.items[j - 1].end, len = e - b;
        const char *seg = text + b;
        uint32_t cp;
        int digits = 1;
        for (size_t c = 0; c < len; c++)
            digits &= seg[c] >= '0' && seg[c] <= '9';
        int number = digits && len >= 2 && len <= 4 && ref_has_numbers(V);
        const ref_word *whole = ref_vocab_word(seg, len, W, has_latin(seg, len));
        if (whole || number || utf8_decode(seg, len, &cp) == len) { /* one token */
            assert_int_equal(j - i, 1);
            assert_true(k->flags == TOKEN_IN_VOCAB || k->flags == TOKEN_UNK);
            if (whole)
                assert_int_equal(k->id, VOCAB_N_SPECIAL + whole->rank);
            continue;
        }
        /* re-segmented: digit runs, and the parts between them */
        size_t t0 = i;
        for (size_t p = b, q; p < e; p = q) {
            int d = text[p] >= '0' && text[p] <= '9';
            for (q = p + 1; q < e && (text[q] >= '0' && text[q] <= '9') == d; q++)
                ;
            size_t t1 = t0;
            while (t1 < j && t.items[t1].start < q)
                t1++;
            assert_int_equal(t.items[t0].start, p);
            assert_int_equal(t.items[t1 - 1].end, q);
            if (!d) {
                check_part(text, p, q, &t.items[t0], t1 - t0, W);
            } else if (ref_has_numbers(V)) { /* 4 digits a group, the short one first */
                size_t g = (q - p) % 4 ? (q - p) % 4 : 4;
                for (size_t x = t0, at = p; x < t1; x++, at += g, g = 4) {
                    assert_int_equal(t.items[x].start, at);
                    assert_int_equal(t.items[x].end, at + g);
                    assert_int_equal(t.items[x].flags, TOKEN_SPLIT);
                    assert_int_equal(t.items[x].id, vocab_lookup(v, text + at, g));
                }
            } else { /* no numbers: one digit a token */
                assert_int_equal(t1 - t0, q - p);
                for (size_t x = t0; x < t1; x++)
                    assert_true(t.items[x].flags & TOKEN_FALLBACK);
            }
            t0 = t1;
        }
        assert_int_equal(t0, j);
    }
    tokens_free(&t);
}

/* Sentences a class types, and held-out ones (none of them is in segment_sentences.txt). */
static const char *const word_sentences[] = {
    "今天天气很好",
    "基础知识",
    "全长约6300公里",
    "I love learning",
    "I like cats",
    "我喜欢Python和自然语言处理，你呢？\xF0\x9F\x98\x80",
    "GPT-4在2024年发布，ChatGPT和iPhone都很流行",
    "研究生命的起源",
    "他生于1949年10月1日，电话12345678",
    "unbelievably LOVE Learning i",
    "南京市长江大桥",
    "机器学习与深度神经网络模型的可解释性研究",
    "量子计算机的纠错码实验",
    "Python3.8和C++以及AT&T",
    "小明硕士毕业于中国科学院计算所",
    "我们在北京大学图书馆自习",
    "这个算法的时间复杂度是线性的",
    "Transformers use positional encodings",
    "自然语言 GPT4，我",
};

static void test_word_resegment(void **state)
{
    (void)state;
    const uint32_t sizes[] = {
        1000,  5000, VOCAB_N_SPECIAL + REF_N_BASE, 30000, VOCAB_N_SPECIAL + REF_N_BASE + REF_N_NUM,
        100000};
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
        tf_vocab *v;
        assert_int_equal(vocab_open_dict(getenv("TFVIZ_DATA_DIR"), sizes[z], &v), TF_OK);
        for (size_t i = 0; i < sizeof word_sentences / sizeof word_sentences[0]; i++)
            check_sentence(v, sizes[z], word_sentences[i]);
        vocab_free(v);
    }
    free(by_rank);
    by_rank = NULL;
}

/* A token's text is want; its flags are flags. */
static void tok_is(const char *text, const tf_token *k, const char *want, uint32_t flags)
{
    assert_int_equal(k->end - k->start, strlen(want));
    assert_memory_equal(text + k->start, want, strlen(want));
    assert_int_equal(k->flags, flags);
}

/* dict.txt's parts of speech (issue 27: the class's sentence needs a verb in the middle): the
 * first letter of jieba's tag, v for a verb. */
static void test_dict_tags(void **state)
{
    (void)state;
    tf_dict *d;
    assert_int_equal(dict_open(getenv("TFVIZ_DATA_DIR"), &d), TF_OK);
    assert_true(dict_has_tags(d));
    const struct {
        const char *w;
        int tag;
    } cases[] = {{"追", DICT_TAG_VERB},  {"喜欢", DICT_TAG_VERB}, {"学习", DICT_TAG_VERB},
                 {"很", DICT_TAG_OTHER}, {"老鼠", DICT_TAG_OTHER}, {"好", DICT_TAG_OTHER}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int64_t k = dict_find(d, cases[i].w, strlen(cases[i].w));
        assert_true(k >= 0);
        assert_int_equal(dict_tag(d, (uint32_t)k), cases[i].tag);
    }
    dict_free(d);
}

/* Names outside the dictionary (issue 27): jieba's HMM joins 小明 and 小红 as jieba.cut(text)
 * does, each one word of two split tokens; without it (--no-hmm) they fall apart as
 * jieba.cut(text, HMM=False) cuts them, five words of one token each. */
static void test_word_names(void **state)
{
    (void)state;
    tf_vocab *v;
    assert_int_equal(vocab_open_dict(getenv("TFVIZ_DATA_DIR"), 100000, &v), TF_OK);
    assert_non_null(vocab_hmm(v));
    const char *s = "小明喜欢小红";
    const uint32_t hmm_word[5] = {0, 0, 1, 2, 2}, hmm_flags[5] = {TOKEN_SPLIT, TOKEN_SPLIT,
                                                                  TOKEN_IN_VOCAB, TOKEN_SPLIT,
                                                                  TOKEN_SPLIT};
    const char *text[5] = {"小", "明", "喜欢", "小", "红"};
    for (int pass = 0; pass < 2; pass++) {
        tf_tokens t;
        assert_int_equal(tokenizer_split(v, TOKENIZER_WORD, s, strlen(s), &t, NULL), TF_OK);
        assert_int_equal(t.n, 5);
        for (uint32_t i = 0; i < 5; i++) {
            tok_is(s, &t.items[i], text[i], pass == 0 ? hmm_flags[i] : TOKEN_IN_VOCAB);
            assert_int_equal(t.items[i].word, pass == 0 ? hmm_word[i] : i);
        }
        tokens_free(&t);
        vocab_drop_hmm(v);
        assert_null(vocab_hmm(v));
    }
    vocab_free(v);
}

/* The examples at V = 100,000, and a segment where two routes compete. */
static void test_word_examples(void **state)
{
    (void)state;
    tf_vocab *v;
    assert_int_equal(vocab_open_dict(getenv("TFVIZ_DATA_DIR"), 100000, &v), TF_OK);
    tf_tokens t;
    const char *s = "今天天气很好";
    assert_int_equal(tokenizer_split(v, TOKENIZER_WORD, s, strlen(s), &t, NULL), TF_OK);
    assert_int_equal(t.n, 4);
    tok_is(s, &t.items[0], "今天", TOKEN_SPLIT);
    tok_is(s, &t.items[1], "天气", TOKEN_SPLIT);
    tok_is(s, &t.items[2], "很", TOKEN_IN_VOCAB);
    assert_int_equal(t.items[0].word, t.items[1].word); /* jieba's one word 今天天气 */
    assert_true(t.items[2].word == t.items[1].word + 1);
    /* 今天/天气 against the competing routes 今/天天/气 and 今天/天/气, all vocabulary words */
    double lv = log((double)ref_vtotal);
    const char *routes[3][3] = {{"今天", "天气", NULL}, {"今", "天天", "气"}, {"今天", "天", "气"}};
    double score[3];
    for (int r = 0; r < 3; r++) {
        score[r] = 0.0;
        for (int w = 0; w < 3 && routes[r][w]; w++) {
            const ref_word *rw = ref_vocab_word(routes[r][w], strlen(routes[r][w]), 100000, 0);
            assert_non_null(rw);
            assert_true(vocab_lookup(v, routes[r][w], strlen(routes[r][w])) >= 0);
            // cppcheck-suppress invalidFunctionArg ; rw is not NULL (asserted above)
            score[r] += log(rw ? (double)rw->vf : 0.0) - lv;
        }
    }
    assert_true(score[0] > score[1] && score[0] > score[2]);
    tokens_free(&t);
    s = "基础知识";
    assert_int_equal(tokenizer_split(v, TOKENIZER_WORD, s, strlen(s), &t, NULL), TF_OK);
    assert_int_equal(t.n, 2);
    tok_is(s, &t.items[0], "基础", TOKEN_SPLIT);
    tok_is(s, &t.items[1], "知识", TOKEN_SPLIT);
    tokens_free(&t);
    /* numbers: a whole one to four digits; longer runs in groups of four from the right */
    s = "全长约6300公里，12345678和123456";
    assert_int_equal(tokenizer_split(v, TOKENIZER_WORD, s, strlen(s), &t, NULL), TF_OK);
    const char *want[] = {"6300", "1234", "5678", "12", "3456"};
    const uint32_t flags[] = {TOKEN_IN_VOCAB, TOKEN_SPLIT, TOKEN_SPLIT, TOKEN_SPLIT, TOKEN_SPLIT};
    size_t w = 0;
    char buf[16];
    for (size_t i = 0; i < t.n; i++) {
        if (s[t.items[i].start] < '0' || s[t.items[i].start] > '9')
            continue;
        tok_is(s, &t.items[i], want[w], flags[w]);
        assert_int_equal(vocab_token(v, t.items[i].id, buf, sizeof buf), strlen(want[w]));
        assert_string_equal(buf, want[w]);
        w++;
    }
    assert_int_equal(w, 5);
    tokens_free(&t);
    vocab_free(v);
    /* without room for the numbers (V = 30,000), digits fall back one by one */
    assert_int_equal(vocab_open_dict(getenv("TFVIZ_DATA_DIR"), 30000, &v), TF_OK);
    s = "6300";
    assert_int_equal(tokenizer_split(v, TOKENIZER_WORD, s, strlen(s), &t, NULL), TF_OK);
    assert_int_equal(t.n, 4);
    for (size_t i = 0; i < 4; i++)
        assert_int_equal(t.items[i].flags, TOKEN_FALLBACK);
    tokens_free(&t);
    vocab_free(v);
}

/* Latin words: English words whole in any case when the list is built in; letters otherwise. */
static void test_word_latin(void **state)
{
    (void)state;
    tf_vocab *v;
    assert_int_equal(vocab_open_dict(getenv("TFVIZ_DATA_DIR"), 100000, &v), TF_OK);
    tf_tokens t;
    const char *s = "I love learning, Python";
    assert_int_equal(tokenizer_split(v, TOKENIZER_WORD, s, strlen(s), &t, NULL), TF_OK);
    if (n_english) {
        const char *want[] = {"I", "love", "learning", ",", "Python"};
        const char *entry[] = {"I", "love", "learning", NULL, "python"};
        assert_int_equal(t.n, 5);
        for (size_t i = 0; i < 5; i++) {
            tok_is(s, &t.items[i], want[i], TOKEN_IN_VOCAB);
            const ref_word *rw = entry[i] ? ref_find(entry[i], strlen(entry[i])) : NULL;
            if (entry[i]) { /* the list's spelling, ranked with the Chinese words */
                assert_non_null(rw);
                assert_int_equal(t.items[i].id, VOCAB_N_SPECIAL + (rw ? rw->rank : 0));
            }
        }
    } else { /* no list: the letters of love, learning and Python fall back */
        assert_int_equal(vocab_english_words(v), 0);
        assert_int_equal(t.n, 1 + 4 + 8 + 1 + 6);
        tok_is(s, &t.items[0], "I", TOKEN_IN_VOCAB);
        for (size_t i = 1; i < t.n; i++)
            if (i != 13)
                assert_true(t.items[i].flags & TOKEN_FALLBACK);
    }
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
        cmocka_unit_test(test_word_resegment),
        cmocka_unit_test(test_word_examples),
        cmocka_unit_test(test_word_names),
        cmocka_unit_test(test_dict_tags),
        cmocka_unit_test(test_word_latin),
        cmocka_unit_test(test_missing_and_corrupt),
    };
    return cmocka_run_group_tests(tests, load_ref, free_ref);
}
