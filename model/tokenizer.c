/* tokenizer.c — character tokenization over a vocabulary. */
#include "tokenizer.h"

#include <stdlib.h>
#include <string.h>

#include "tf_limits.h"
#include "utf8.h"

static const char *const names[TOKENIZER_COUNT] = {"char", "word", "cl100k", "o200k"};

const char *tokenizer_name(tokenizer_kind k)
{
    return (unsigned)k < TOKENIZER_COUNT ? names[k] : "unknown";
}

tokenizer_kind tokenizer_parse(const char *name)
{
    for (int k = 0; k < TOKENIZER_COUNT; k++)
        if (strcmp(name, names[k]) == 0)
            return (tokenizer_kind)k;
    return TOKENIZER_COUNT;
}

static int is_space(uint32_t cp)
{
    return cp == ' ' || (cp >= 0x09 && cp <= 0x0D) || cp == 0x3000 || cp == 0xA0;
}

static tf_status split_chars(const tf_vocab *v, const char *text, size_t len, tf_tokens *out)
{
    size_t cap = 16, i = 0;
    tf_token *items = malloc(cap * sizeof *items);
    if (!items)
        return TF_ERR_NOMEM;
    out->n = 0;
    while (i < len) {
        uint32_t cp;
        size_t n = utf8_decode(text + i, len - i, &cp);
        if (!is_space(cp)) {
            if (out->n == TF_MAX_TOKENS) {
                free(items);
                out->n = 0; /* no count without a list */
                return TF_ERR_TOO_MANY;
            }
            if (out->n == cap) {
                tf_token *t = realloc(items, 2 * cap * sizeof *items);
                if (!t) {
                    free(items);
                    out->n = 0;
                    return TF_ERR_NOMEM;
                }
                items = t, cap *= 2;
            }
            int32_t id = vocab_lookup(v, text + i, n);
            items[out->n++] = (tf_token){.start = (uint32_t)i, .end = (uint32_t)(i + n),
                                         .id = id < 0 ? VOCAB_UNK : id,
                                         .flags = id < 0 ? TOKEN_UNK : TOKEN_IN_VOCAB};
        }
        i += n;
    }
    out->items = items;
    return TF_OK;
}

tf_status tokenizer_split(const tf_vocab *v, tokenizer_kind kind, const char *text, size_t len,
                          tf_tokens *out, size_t *bad_offset)
{
    memset(out, 0, sizeof *out);
    out->kind = kind;
    if (len > TF_MAX_TEXT_BYTES)
        return TF_ERR_TOO_LONG;
    tf_status st = utf8_validate(text, len, bad_offset);
    if (st != TF_OK)
        return st;
    switch (kind) {
    case TOKENIZER_CHAR:
        st = split_chars(v, text, len, out);
        break;
    default:
        return TF_ERR_UNAVAILABLE;
    }
    if (st == TF_OK && out->n == 0) {
        tokens_free(out);
        return TF_ERR_EMPTY;
    }
    return st;
}

void tokens_free(tf_tokens *t)
{
    free(t->items);
    t->items = NULL;
    t->n = 0;
}
