/* corpus.c — UTF-8 text into sentences of words for word2vec. */
#include "corpus.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "tf_limits.h"
#include "utf8.h"
#include "vocab.h"

#define MAX_WORDS   1024

static bool is_space_cp(uint32_t cp)
{
    return cp == ' ' || (cp >= 0x09 && cp <= 0x0D) || cp == 0x3000 || cp == 0xA0;
}

static bool is_cjk(uint32_t cp)
{
    return cp >= 0x3400 && cp <= 0x9FFF;
}

/* Punctuation and symbols: ASCII non-alphanumerics, Latin-1 symbols, general punctuation, CJK
 * symbols and punctuation, CJK compatibility forms, full-width punctuation. */
static bool is_punct(uint32_t cp)
{
    if (cp < 0x80)
        return !((cp >= '0' && cp <= '9') || (cp >= 'A' && cp <= 'Z') || (cp >= 'a' && cp <= 'z'));
    return (cp >= 0xA0 && cp <= 0xBF) || (cp >= 0x2000 && cp <= 0x2BFF) ||
           (cp >= 0x3000 && cp <= 0x303F) || (cp >= 0xFE10 && cp <= 0xFE6F) ||
           (cp >= 0xFF00 && cp <= 0xFF0F) || (cp >= 0xFF1A && cp <= 0xFF20) ||
           (cp >= 0xFF3B && cp <= 0xFF40) || (cp >= 0xFF5B && cp <= 0xFF65);
}

/* A word worth learning has at least one character that is not punctuation. */
static bool has_content(const char *s, size_t len)
{
    size_t i = 0;
    uint32_t cp;
    while (i < len && utf8_next(s, len, &i, &cp))
        if (!is_punct(cp))
            return true;
    return false;
}

tf_status corpus_tokenize(const tf_vocab *v, tokenizer_kind kind, const char *line, size_t len,
                          tf_tokens *out)
{
    size_t bad;
    tf_status st = tokenizer_split_any(v, kind, line, len, out, &bad);
    if (st == TF_ERR_EMPTY) {
        memset(out, 0, sizeof *out);
        return TF_OK;
    }
    return st;
}

/* Does this line look pre-segmented: a CJK character, spaces, a CJK character? */
static bool spaced_cjk(const char *s, size_t len)
{
    bool prev_cjk = false, gap = false;
    size_t i = 0;
    uint32_t cp;
    while (i < len && utf8_next(s, len, &i, &cp)) {
        if (is_space_cp(cp)) {
            gap = prev_cjk;
        } else {
            if (is_cjk(cp) && gap)
                return true;
            prev_cjk = is_cjk(cp);
            gap = false;
        }
    }
    return false;
}

/* Count the CJK and the other non-space characters of s[0..len). */
static void count_script(const char *s, size_t len, size_t *cjk, size_t *other)
{
    size_t i = 0;
    uint32_t cp;
    while (i < len && utf8_next(s, len, &i, &cp)) {
        if (is_cjk(cp))
            (*cjk)++;
        else if (!is_space_cp(cp) && !is_punct(cp))
            (*other)++;
    }
}

bool corpus_has_cjk(const char *text, size_t len)
{
    size_t i = 0;
    uint32_t cp;
    while (i < len && utf8_next(text, len, &i, &cp))
        if (is_cjk(cp))
            return true;
    return false;
}

/* Spaces are word boundaries when most lines are segmented Chinese, or when the text is
 * mostly not Chinese at all (alphabetic languages write spaces between words). */
corpus_split corpus_detect(const char *text, size_t len)
{
    size_t lines = 0, spaced = 0, cjk = 0, other = 0, i = 0;
    while (i < len && lines < 200) {
        const char *nl = memchr(text + i, '\n', len - i);
        size_t e = nl ? (size_t)(nl - text) : len;
        if (e > i) {
            lines++;
            spaced += spaced_cjk(text + i, e - i);
            count_script(text + i, e - i, &cjk, &other);
        }
        i = e + 1;
    }
    if (lines && spaced * 2 > lines)
        return CORPUS_SPACES;
    return cjk * 10 < other ? CORPUS_SPACES : CORPUS_TOKENIZER;
}

typedef struct {
    const char *words[MAX_WORDS];
    size_t lens[MAX_WORDS];
    size_t n;
} sentence;

static tf_status flush(w2v_corpus *c, sentence *s)
{
    tf_status st = w2v_corpus_add(c, s->words, s->lens, s->n);
    s->n = 0;
    return st;
}

/* Punctuation at the ends of a word ("mat.", "「猫」") is not part of it. */
static void trim_punct(const char **w, size_t *len)
{
    uint32_t cp;
    size_t n;
    while (*len && (n = utf8_decode(*w, *len, &cp)) != 0 && is_punct(cp))
        *w += n, *len -= n;
    while (*len) {
        size_t b = *len - 1;
        while (b > 0 && ((unsigned char)(*w)[b] & 0xC0) == 0x80)
            b--; /* back to the first byte of the last character */
        if (utf8_decode(*w + b, *len - b, &cp) == 0 || !is_punct(cp))
            break;
        *len = b;
    }
}

static tf_status push(w2v_corpus *c, sentence *s, const char *w, size_t len)
{
    trim_punct(&w, &len);
    if (!has_content(w, len))
        return TF_OK;
    if (s->n == MAX_WORDS) {
        tf_status st = flush(c, s);
        if (st != TF_OK)
            return st;
    }
    s->words[s->n] = w;
    s->lens[s->n++] = len;
    return TF_OK;
}

static tf_status split_spaces(w2v_corpus *c, sentence *s, const char *line, size_t len)
{
    size_t i = 0, start = 0;
    bool in_word = false;
    while (i < len) {
        uint32_t cp;
        size_t n = utf8_decode(line + i, len - i, &cp);
        if (is_space_cp(cp)) {
            if (in_word) {
                tf_status st = push(c, s, line + start, i - start);
                if (st != TF_OK)
                    return st;
            }
            in_word = false;
        } else if (!in_word) {
            in_word = true;
            start = i;
        }
        i += n;
    }
    return in_word ? push(c, s, line + start, len - start) : TF_OK;
}

static tf_status split_tokenizer(w2v_corpus *c, sentence *s, const tf_vocab *v, const char *line,
                                 size_t len, tokenizer_kind *kind, int *fell_back)
{
    tf_tokens t;
    tf_status st = corpus_tokenize(v, *kind, line, len, &t);
    if (st == TF_ERR_UNAVAILABLE && *kind == TOKENIZER_WORD) {
        *kind = TOKENIZER_CHAR;
        *fell_back = 1;
        st = corpus_tokenize(v, *kind, line, len, &t);
    }
    for (size_t k = 0; k < t.n && st == TF_OK; k++)
        st = push(c, s, line + t.items[k].start, t.items[k].end - t.items[k].start);
    tokens_free(&t);
    return st;
}

tf_status corpus_load(w2v_corpus *c, const tf_vocab *v, const char *text, size_t len,
                      corpus_split split, tokenizer_kind kind, corpus_info *info)
{
    corpus_info dummy;
    corpus_info *in = info ? info : &dummy;
    memset(in, 0, sizeof *in);
    size_t bad;
    if (utf8_validate(text, len, &bad) != TF_OK) {
        in->bad_offset = bad;
        in->bad_line = 1;
        for (size_t i = 0; i < bad; i++)
            in->bad_line += text[i] == '\n';
        return TF_ERR_UTF8;
    }
    if (split == CORPUS_AUTO)
        split = corpus_detect(text, len);
    in->split = split;
    /* The token texts are what training needs, not their ids; without a vocabulary, the
     * code points serve char mode. */
    tf_vocab *own = NULL;
    if (split == CORPUS_TOKENIZER && !v) {
        tf_status st = vocab_new_codepoint(TF_DEFAULT_VOCAB, &own);
        if (st != TF_OK)
            return st;
        v = own;
    }
    sentence *s = malloc(sizeof *s);
    if (!s) {
        vocab_free(own);
        return TF_ERR_NOMEM;
    }
    s->n = 0;
    tf_status st = TF_OK;
    size_t i = 0;
    while (i < len && st == TF_OK) {
        const char *nl = memchr(text + i, '\n', len - i);
        size_t e = nl ? (size_t)(nl - text) : len;
        in->lines++;
        st = split == CORPUS_SPACES
                 ? split_spaces(c, s, text + i, e - i)
                 : split_tokenizer(c, s, v, text + i, e - i, &kind, &in->fell_back);
        if (st == TF_OK)
            st = flush(c, s);
        i = e + 1;
    }
    in->kind = kind;
    free(s);
    vocab_free(own);
    return st;
}
