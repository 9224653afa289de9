/* vocab.c — the code-point vocabulary. */
#include "vocab.h"

#include <stdlib.h>
#include <string.h>

#include "utf8.h"

struct tf_vocab {
    uint32_t size;
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

tf_status vocab_new_codepoint(uint32_t size, tf_vocab **out)
{
    *out = NULL;
    if (size < 16 || size > 10000000)
        return TF_ERR_VOCAB;
    tf_vocab *v = malloc(sizeof *v);
    if (!v)
        return TF_ERR_NOMEM;
    v->size = size;
    *out = v;
    return TF_OK;
}

void vocab_free(tf_vocab *v) { free(v); }

int32_t vocab_lookup(const tf_vocab *v, const char *s, size_t len)
{
    for (int i = 0; i < VOCAB_N_SPECIAL; i++)
        if (strlen(special[i]) == len && memcmp(special[i], s, len) == 0)
            return i;
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

size_t vocab_token(const tf_vocab *v, int32_t id, char *buf, size_t cap)
{
    char tmp[8];
    const char *s = tmp;
    size_t n = 0;
    if (id < 0 || (uint32_t)id >= v->size || cap == 0)
        return 0;
    if (id < VOCAB_N_SPECIAL) {
        s = special[id];
        n = strlen(s);
    } else {
        uint32_t k = (uint32_t)id - VOCAB_N_SPECIAL;
        for (size_t r = 0; r < N_RANGES && n == 0; r++) {
            uint32_t w = ranges[r].hi - ranges[r].lo + 1;
            if (k < w)
                n = utf8_encode(ranges[r].lo + k, tmp);
            else
                k -= w;
        }
        if (n == 0)
            return 0; /* ids past the last range are unused */
    }
    if (n >= cap)
        n = cap - 1;
    memcpy(buf, s, n);
    buf[n] = '\0';
    return n;
}

uint32_t vocab_size(const tf_vocab *v) { return v->size; }

const char *vocab_name(const tf_vocab *v)
{
    (void)v;
    return "codepoint";
}
