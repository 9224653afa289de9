/* vocab.c — three vocabularies behind one interface: the dictionary's most frequent words
 * followed by the base alphabet and the numbers, a BPE rank table, and the code-point
 * fallback. */
#include "vocab.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpe.h"
#include "dict.h"
#include "hmm.h"
#include "utf8.h"

typedef enum { SRC_CODEPOINT, SRC_DICT, SRC_BPE } vocab_source;

struct tf_vocab {
    vocab_source src;
    uint32_t size;
    tf_dict *dict; /* SRC_DICT */
    tf_hmm *hmm;   /* SRC_DICT: jieba's HMM for words outside the dictionary, or NULL */
    tf_bpe *bpe;   /* SRC_BPE */
    const char *name;
    /* SRC_DICT: ids 4 .. 4 + n_words - 1 are the dictionary words by rank; ids 4 + n_words ..
     * 4 + n_words + n_base - 1 are the base characters that are not among them, then n_num
     * numbers (vocab.h) */
    uint32_t n_words, n_base, n_num;
    int32_t *base_id;  /* (N_BASE) id of each base character; NULL when the alphabet does not fit */
    uint32_t *base_cp; /* (n_base) code point of each base id, in id order */
};

/* The code-point ranges that get ids, in id order. */
static const struct {
    uint32_t lo, hi;
} ranges[] = {
    {0x20, 0x7E},     /* printable ASCII */
    {0x3000, 0x303F}, /* CJK symbols and punctuation */
    {0x4E00, 0x9FFF}, /* CJK Unified Ideographs */
    {0xFF00, 0xFFEF}, /* half-width and full-width forms */
};
#define N_RANGES (sizeof ranges / sizeof ranges[0])
/* The base alphabet: every code point of the ranges, 95 + 64 + 20,992 + 240. */
#define N_BASE 21391u
/* The numbers: every string of two, three or four ASCII digits, 100 + 1,000 + 10,000 (one
 * digit is a base character). */
#define N_NUM 11100u

/* Index of the number spelled s[0..len) among the N_NUM, or -1. */
static int32_t number_index(const char *s, size_t len)
{
    if (len < 2 || len > 4)
        return -1;
    int32_t v = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        v = 10 * v + (s[i] - '0');
    }
    return (len == 2 ? 0 : len == 3 ? 100 : 1100) + v;
}

/* Index of cp in the base alphabet (code-point order), or -1. */
static int32_t base_index(uint32_t cp)
{
    uint32_t b = 0;
    for (size_t r = 0; r < N_RANGES; r++) {
        if (cp >= ranges[r].lo && cp <= ranges[r].hi)
            return (int32_t)(b + cp - ranges[r].lo);
        b += ranges[r].hi - ranges[r].lo + 1;
    }
    return -1;
}

/* The code point at base index b < N_BASE. */
static uint32_t base_codepoint(uint32_t b)
{
    for (size_t r = 0; r < N_RANGES; r++) {
        uint32_t w = ranges[r].hi - ranges[r].lo + 1;
        if (b < w)
            return ranges[r].lo + b;
        b -= w;
    }
    return 0;
}

/* Lay out a dictionary vocabulary of v->size ids (vocab.h). With room for the whole base
 * alphabet and the numbers, those come first; with room for the alphabet only, it does. Then
 * W is the largest k with cost(k) = k + (base characters not among the top k words) <= the
 * room that is left. cost never falls as k grows (a word that is itself a base character costs
 * no extra id, any other word one), so W is found by walking a bitmap of the ranks of the base
 * characters that are words, 64 ranks at a time. Looking the 21,391 characters up one by one
 * touches far fewer pages of the mapped dictionary than walking the top words. Without room,
 * W = V - 4 and no other character. */
static tf_status layout_dict(tf_vocab *v)
{
    uint32_t n_dict = dict_count(v->dict), room = v->size - VOCAB_N_SPECIAL;
    if (room < N_BASE) {
        v->n_words = room < n_dict ? room : n_dict;
        return TF_OK;
    }
    if (room >= N_BASE + N_NUM) {
        v->n_num = N_NUM;
        room -= N_NUM;
    }
    size_t n_blocks = (size_t)n_dict / 64 + 1;
    uint64_t *is_base = calloc(n_blocks, sizeof *is_base); /* bit r: rank r is a base char */
    v->base_id = malloc(N_BASE * sizeof *v->base_id);
    if (!is_base || !v->base_id) {
        free(is_base);
        return TF_ERR_NOMEM;
    }
    for (uint32_t b = 0; b < N_BASE; b++) {
        char c[8];
        int64_t i = dict_find(v->dict, c, utf8_encode(base_codepoint(b), c));
        v->base_id[b] = -1; /* until W is known: -1 no word, -2 - rank a word */
        if (i >= 0) {
            uint32_t r = dict_rank(v->dict, (uint32_t)i);
            v->base_id[b] = -2 - (int32_t)r;
            is_base[r / 64] |= 1ull << (r % 64);
        }
    }
    /* cost(k) = k + N_BASE - taken(k), taken(k) = base ranks below k */
    uint32_t k = 0, taken = 0;
    while (k + 64 <= n_dict &&
           (uint64_t)k + 64 + N_BASE - taken - (uint32_t)__builtin_popcountll(is_base[k / 64]) <=
               room) {
        taken += (uint32_t)__builtin_popcountll(is_base[k / 64]);
        k += 64;
    }
    while (k < n_dict) {
        uint32_t bit = (is_base[k / 64] >> (k % 64)) & 1;
        if ((uint64_t)k + 1 + N_BASE - taken - bit > room)
            break;
        taken += bit;
        k++;
    }
    free(is_base);
    v->n_words = k;
    v->n_base = N_BASE - taken;
    v->base_cp = malloc(v->n_base * sizeof *v->base_cp);
    if (!v->base_cp)
        return TF_ERR_NOMEM;
    uint32_t j = 0;
    for (uint32_t b = 0; b < N_BASE; b++) {
        int32_t id = v->base_id[b];
        if (id <= -2 && (uint32_t)(-2 - id) < k) { /* a word among the top k: its own id */
            v->base_id[b] = VOCAB_N_SPECIAL + (-2 - id);
        } else {
            v->base_id[b] = (int32_t)(VOCAB_N_SPECIAL + k + j);
            v->base_cp[j++] = base_codepoint(b);
        }
    }
    return TF_OK;
}

static const char *const special[VOCAB_N_SPECIAL] = {"[PAD]", "[UNK]", "[BOS]", "[EOS]"};

static tf_status vocab_alloc(vocab_source src, uint32_t size, const char *name, tf_vocab **out)
{
    *out = NULL;
    if (size < 16 || size > 10000000)
        return TF_ERR_VOCAB;
    tf_vocab *v = calloc(1, sizeof *v);
    if (!v)
        return TF_ERR_NOMEM;
    v->src = src;
    v->size = size;
    v->name = name;
    *out = v;
    return TF_OK;
}

tf_status vocab_new_codepoint(uint32_t size, tf_vocab **out)
{
    return vocab_alloc(SRC_CODEPOINT, size, "codepoint", out);
}

tf_status vocab_open_dict(const char *dir, uint32_t size, tf_vocab **out)
{
    tf_status st = vocab_alloc(SRC_DICT, size, "jieba", out);
    if (st != TF_OK)
        return st;
    if ((st = dict_open(dir, &(*out)->dict)) == TF_OK)
        st = layout_dict(*out);
    if (st == TF_OK && hmm_open(dir, &(*out)->hmm) == TF_ERR_NOMEM)
        st = TF_ERR_NOMEM;
    if (st != TF_OK) {
        vocab_free(*out);
        *out = NULL;
    }
    return st;
}

tf_status vocab_open_bpe(const char *dir, const char *encoding, tf_vocab **out)
{
    *out = NULL;
    const char *name;
    if (strcmp(encoding, "cl100k") == 0)
        name = "cl100k_base";
    else if (strcmp(encoding, "o200k") == 0)
        name = "o200k_base";
    else
        return TF_ERR_RANGE;
    char file[32];
    snprintf(file, sizeof file, "tfviz-%s.bin", encoding);
    tf_bpe *b;
    tf_status st = bpe_open(dir, file, &b);
    if (st != TF_OK)
        return st;
    if ((st = vocab_alloc(SRC_BPE, bpe_n_vocab(b), name, out)) != TF_OK) {
        bpe_free(b);
        /* n_vocab comes from the file, not from the user: out of range means a damaged file */
        return st == TF_ERR_VOCAB ? TF_ERR_FORMAT : st;
    }
    (*out)->bpe = b;
    return TF_OK;
}

void vocab_free(tf_vocab *v)
{
    if (!v)
        return;
    dict_free(v->dict);
    hmm_free(v->hmm);
    bpe_free(v->bpe);
    free(v->base_id);
    free(v->base_cp);
    free(v);
}

static int32_t special_id(const char *s, size_t len)
{
    for (int i = 0; i < VOCAB_N_SPECIAL; i++)
        if (strlen(special[i]) == len && memcmp(special[i], s, len) == 0)
            return i;
    return -1;
}

static int32_t codepoint_lookup(const tf_vocab *v, const char *s, size_t len)
{
    uint32_t cp;
    if (utf8_decode(s, len, &cp) != len)
        return -1;
    uint32_t id = VOCAB_N_SPECIAL;
    for (size_t r = 0; r < N_RANGES; r++) {
        if (cp >= ranges[r].lo && cp <= ranges[r].hi) {
            id += cp - ranges[r].lo;
            return id < v->size ? (int32_t)id : -1;
        }
        id += ranges[r].hi - ranges[r].lo + 1;
    }
    return -1;
}

int32_t vocab_lookup(const tf_vocab *v, const char *s, size_t len)
{
    if (v->src == SRC_BPE) {
        int64_t r = bpe_rank(v->bpe, s, len);
        return r < 0 ? -1 : (int32_t)r;
    }
    int32_t sp = special_id(s, len);
    if (sp >= 0)
        return sp;
    if (v->src == SRC_CODEPOINT)
        return codepoint_lookup(v, s, len);
    int32_t num = v->n_num ? number_index(s, len) : -1;
    if (num >= 0)
        return (int32_t)(VOCAB_N_SPECIAL + v->n_words + v->n_base) + num;
    uint32_t cp;
    if (v->base_id && utf8_decode(s, len, &cp) == len && base_index(cp) >= 0)
        return v->base_id[base_index(cp)]; /* a word among the first n_words, or the tail */
    int64_t i = dict_find(v->dict, s, len);
    return i < 0 ? -1 : vocab_dict_id(v, (uint32_t)i);
}

/* Word ids are 4 .. 4 + n_words - 1. */
static int is_word_id(const tf_vocab *v, int32_t id)
{
    return id >= VOCAB_N_SPECIAL && (uint32_t)id < VOCAB_N_SPECIAL + v->n_words;
}

int32_t vocab_lookup_word(const tf_vocab *v, const char *s, size_t len)
{
    int32_t id = vocab_lookup(v, s, len);
    if (v->src != SRC_DICT || is_word_id(v, id))
        return id;
    /* the English list's spellings: all lowercase, or capitalised (I, What) */
    char buf[256];
    int letters = 0;
    if (len > sizeof buf)
        return id;
    for (size_t i = 0; i < len; i++) {
        char c = s[i];
        letters |= (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
        buf[i] = c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
    }
    if (!letters)
        return id;
    for (int cap = 0; cap < 2; cap++) {
        if (cap) {
            if (!(buf[0] >= 'a' && buf[0] <= 'z'))
                break;
            buf[0] = (char)(buf[0] - 'a' + 'A');
        }
        int64_t i = dict_find(v->dict, buf, len);
        int32_t w = i < 0 ? -1 : vocab_dict_id(v, (uint32_t)i);
        if (w >= 0)
            return w;
    }
    return id;
}

uint32_t vocab_words(const tf_vocab *v)
{
    return v->n_words;
}

uint32_t vocab_english_words(const tf_vocab *v)
{
    return v->dict ? dict_english_count(v->dict) : 0;
}

int vocab_has_numbers(const tf_vocab *v)
{
    return v->n_num > 0;
}

int32_t vocab_dict_id(const tf_vocab *v, uint32_t i)
{
    if (!v->dict || i >= dict_count(v->dict))
        return -1;
    uint32_t rank = dict_rank(v->dict, i);
    return rank < v->n_words ? (int32_t)(VOCAB_N_SPECIAL + rank) : -1;
}

/* The bytes of id, or NULL; tmp (8 bytes) holds an encoded code point. */
static const char *token_bytes(const tf_vocab *v, int32_t id, char *tmp, size_t *n)
{
    *n = 0;
    if (id < 0 || (uint32_t)id >= v->size)
        return NULL;
    if (v->src == SRC_BPE) {
        if ((uint32_t)id >= bpe_count(v->bpe))
            return NULL; /* the special tokens' ids are not byte strings */
        return (const char *)bpe_bytes(v->bpe, (uint32_t)id, n);
    }
    if (id < VOCAB_N_SPECIAL) {
        *n = strlen(special[id]);
        return special[id];
    }
    uint32_t k = (uint32_t)id - VOCAB_N_SPECIAL;
    if (v->src == SRC_DICT) {
        if (k < v->n_words)
            return dict_word(v->dict, dict_at_rank(v->dict, k), n);
        if (k - v->n_words < v->n_base) {
            *n = utf8_encode(v->base_cp[k - v->n_words], tmp);
            return tmp;
        }
        uint32_t num = k - v->n_words - v->n_base;
        if (num < v->n_num) {
            int digits = num < 100 ? 2 : num < 1100 ? 3 : 4;
            uint32_t value = num < 100 ? num : num < 1100 ? num - 100 : num - 1100;
            for (int i = digits - 1; i >= 0; i--, value /= 10)
                tmp[i] = (char)('0' + value % 10);
            *n = (size_t)digits;
            return tmp;
        }
        return NULL; /* V is larger than the dictionary, the alphabet and the numbers */
    }
    for (size_t r = 0; r < N_RANGES; r++) {
        uint32_t w = ranges[r].hi - ranges[r].lo + 1;
        if (k < w) {
            *n = utf8_encode(ranges[r].lo + k, tmp);
            return tmp;
        }
        k -= w;
    }
    return NULL; /* ids past the last range are unused */
}

size_t vocab_token(const tf_vocab *v, int32_t id, char *buf, size_t cap)
{
    char tmp[8];
    size_t n;
    const char *s = token_bytes(v, id, tmp, &n);
    if (!s || cap == 0)
        return 0;
    if (n >= cap)
        n = cap - 1;
    memcpy(buf, s, n);
    buf[n] = '\0';
    return n;
}

uint32_t vocab_size(const tf_vocab *v)
{
    return v->size;
}
const char *vocab_name(const tf_vocab *v)
{
    return v->name;
}

/* The dictionary index of id's token, or -1 (a special token, a base character that is no
 * dictionary word, an unused id). */
static int64_t dict_index(const tf_vocab *v, int32_t id)
{
    if (v->src != SRC_DICT || id < VOCAB_N_SPECIAL || (uint32_t)id >= v->size)
        return -1;
    uint32_t k = (uint32_t)id - VOCAB_N_SPECIAL;
    if (k < v->n_words)
        return dict_at_rank(v->dict, k);
    if (k - v->n_words < v->n_base) {
        char tmp[8];
        return dict_find(v->dict, tmp, utf8_encode(v->base_cp[k - v->n_words], tmp));
    }
    return -1;
}

uint64_t vocab_frequency(const tf_vocab *v, int32_t id)
{
    int64_t i = dict_index(v, id);
    return i < 0 ? 0 : dict_vfreq(v->dict, (uint32_t)i);
}

int64_t vocab_rank(const tf_vocab *v, int32_t id)
{
    if (id < 0 || (uint32_t)id >= v->size)
        return -1;
    if (v->src == SRC_BPE)
        return (uint32_t)id < bpe_count(v->bpe) ? id : -1;
    int64_t i = dict_index(v, id);
    return i < 0 ? -1 : (int64_t)dict_rank(v->dict, (uint32_t)i) + 1;
}

const struct tf_dict *vocab_dict(const tf_vocab *v)
{
    return v->dict;
}
const struct tf_bpe *vocab_bpe(const tf_vocab *v)
{
    return v->bpe;
}
const struct tf_hmm *vocab_hmm(const tf_vocab *v)
{
    return v->hmm;
}

void vocab_drop_hmm(tf_vocab *v)
{
    hmm_free(v->hmm);
    v->hmm = NULL;
}
