/* vocab.c — three vocabularies behind one interface: the dictionary's most frequent words,
 * a BPE rank table, and the code-point fallback. */
#include "vocab.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpe.h"
#include "dict.h"
#include "utf8.h"

typedef enum { SRC_CODEPOINT, SRC_DICT, SRC_BPE } vocab_source;

struct tf_vocab {
    vocab_source src;
    uint32_t size;
    tf_dict *dict; /* SRC_DICT */
    tf_bpe *bpe;   /* SRC_BPE */
    const char *name;
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
    if (st == TF_OK && (st = dict_open(dir, &(*out)->dict)) != TF_OK) {
        free(*out);
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
    bpe_free(v->bpe);
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
    int64_t i = dict_find(v->dict, s, len);
    return i < 0 ? -1 : vocab_dict_id(v, (uint32_t)i);
}

int32_t vocab_dict_id(const tf_vocab *v, uint32_t i)
{
    if (!v->dict || i >= dict_count(v->dict))
        return -1;
    uint64_t id = VOCAB_N_SPECIAL + (uint64_t)dict_rank(v->dict, i);
    return id < v->size ? (int32_t)id : -1;
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
        if (k >= dict_count(v->dict))
            return NULL; /* V is larger than the dictionary */
        return dict_word(v->dict, dict_at_rank(v->dict, k), n);
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

uint64_t vocab_frequency(const tf_vocab *v, int32_t id)
{
    if (v->src != SRC_DICT || id < VOCAB_N_SPECIAL || (uint32_t)id >= v->size)
        return 0;
    uint32_t k = (uint32_t)id - VOCAB_N_SPECIAL;
    return k < dict_count(v->dict) ? dict_freq(v->dict, dict_at_rank(v->dict, k)) : 0;
}

int64_t vocab_rank(const tf_vocab *v, int32_t id)
{
    if (id < 0 || (uint32_t)id >= v->size)
        return -1;
    if (v->src == SRC_BPE)
        return (uint32_t)id < bpe_count(v->bpe) ? id : -1;
    if (v->src == SRC_DICT && id >= VOCAB_N_SPECIAL &&
        (uint32_t)id - VOCAB_N_SPECIAL < dict_count(v->dict))
        return id - VOCAB_N_SPECIAL + 1;
    return -1;
}

const struct tf_dict *vocab_dict(const tf_vocab *v)
{
    return v->dict;
}
const struct tf_bpe *vocab_bpe(const tf_vocab *v)
{
    return v->bpe;
}
