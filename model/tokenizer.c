/* tokenizer.c — text to tokens: dictionary words, characters, or byte-level BPE. */
#include "tokenizer.h"

#include <stdlib.h>
#include <string.h>

#include "bpe.h"
#include "dict.h"
#include "hmm.h"
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

/* Python's str.isspace(), which is what jieba's \s splits on. */
static int is_space(uint32_t cp)
{
    return (cp >= 0x09 && cp <= 0x0D) || (cp >= 0x1C && cp <= 0x20) || cp == 0x85 || cp == 0xA0 ||
           cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 || cp == 0x2029 ||
           cp == 0x202F || cp == 0x205F || cp == 0x3000;
}

static int is_ascii_alnum(uint32_t cp)
{
    return (cp >= '0' && cp <= '9') || (cp >= 'A' && cp <= 'Z') || (cp >= 'a' && cp <= 'z');
}

/* The characters jieba hands to the segmenter (re_han_default: [\u4E00-\u9FD5a-zA-Z0-9+#&._%-]);
 * everything else is a token of its own or a space. */
static int is_word_char(uint32_t cp)
{
    return (cp >= 0x4E00 && cp <= 0x9FD5) || is_ascii_alnum(cp) || cp == '+' || cp == '#' ||
           cp == '&' || cp == '.' || cp == '_' || cp == '%' || cp == '-';
}

/* ---------------------------------------------------------------------------------------------
 * The growing token list */

typedef struct {
    tf_tokens *out;
    size_t cap;
    size_t max; /* TF_MAX_TOKENS, or SIZE_MAX for corpus lines */
    const tf_vocab *v;
    uint32_t word; /* current unit index */
} token_sink;

static tf_status push(token_sink *k, size_t start, size_t end, int32_t id, uint32_t flags)
{
    tf_tokens *o = k->out;
    if (o->n == k->max)
        return TF_ERR_TOO_MANY;
    if (o->n == k->cap) {
        size_t nc = k->cap ? 2 * k->cap : 16;
        tf_token *t = realloc(o->items, nc * sizeof *t);
        if (!t)
            return TF_ERR_NOMEM;
        o->items = t;
        k->cap = nc;
    }
    o->items[o->n++] = (tf_token){
        .start = (uint32_t)start, .end = (uint32_t)end, .id = id, .flags = flags, .word = k->word};
    return TF_OK;
}

/* A character: its id, or [UNK]; `extra` is TOKEN_FALLBACK for a piece of a segment. */
static tf_status push_char(token_sink *k, const char *text, size_t start, size_t end,
                           uint32_t extra)
{
    int32_t id = vocab_lookup(k->v, text + start, end - start);
    return push(k, start, end, id < 0 ? VOCAB_UNK : id,
                id < 0 ? (TOKEN_UNK | extra) : (extra ? extra : TOKEN_IN_VOCAB));
}

/* ---------------------------------------------------------------------------------------------
 * char mode */

static tf_status split_chars(token_sink *k, const char *text, size_t len)
{
    tf_status st = TF_OK;
    for (size_t i = 0, n; i < len && st == TF_OK; i += n) {
        uint32_t cp;
        n = utf8_decode(text + i, len - i, &cp);
        if (!is_space(cp)) {
            st = push_char(k, text, i, i + n, 0);
            k->word++;
        }
    }
    return st;
}

/* ---------------------------------------------------------------------------------------------
 * word mode: jieba's segments, each one token when the vocabulary has it as a whole, otherwise
 * re-segmented into the vocabulary's words (tokenizer.h) */

typedef struct {
    uint32_t *cpos; /* (n + 1) byte offsets of the characters */
    double *score;  /* (n + 1) */
    uint32_t *next; /* (n + 1) */
    uint32_t *word; /* (n + 1) dictionary index of the word starting at each character */
    size_t cap;
} route_buf;

static tf_status route_reserve(route_buf *r, size_t n)
{
    if (n + 1 <= r->cap)
        return TF_OK;
    size_t nc = r->cap ? r->cap : 64;
    while (nc < n + 1)
        nc *= 2;
    uint32_t *c = realloc(r->cpos, nc * sizeof *c);
    if (c)
        r->cpos = c;
    double *s = c ? realloc(r->score, nc * sizeof *s) : NULL;
    if (s)
        r->score = s;
    uint32_t *x = s ? realloc(r->next, nc * sizeof *x) : NULL;
    if (x)
        r->next = x;
    uint32_t *w = x ? realloc(r->word, nc * sizeof *w) : NULL;
    if (!w)
        return TF_ERR_NOMEM;
    r->word = w;
    r->cap = nc;
    return TF_OK;
}

static void route_free(route_buf *r)
{
    free(r->cpos);
    free(r->score);
    free(r->next);
    free(r->word);
}

/* The byte offsets of the characters of text[b, e) (word characters are 1 or 3 bytes) into
 * r->cpos[0..n]; returns n, or SIZE_MAX when memory ran out. */
static size_t route_chars(route_buf *r, const char *text, size_t b, size_t e)
{
    size_t n = 0;
    for (size_t i = b; i < e; n++) {
        if (n + 1 >= r->cap && route_reserve(r, n + 1) != TF_OK)
            return SIZE_MAX;
        r->cpos[n] = (uint32_t)(i - b);
        i += (unsigned char)text[i] < 0x80 ? 1 : 3;
    }
    if (route_reserve(r, n) != TF_OK)
        return SIZE_MAX;
    r->cpos[n] = (uint32_t)(e - b);
    return n;
}

typedef struct {
    token_sink *k;
    const tf_dict *d;
    route_buf seg; /* jieba's route over a run of word characters */
    route_buf sub; /* the vocabulary's route over one segment */
    char *lower;   /* (lower_cap) a part of a segment with its ASCII letters lowercased */
    size_t lower_cap;
    const tf_hmm *hmm;   /* jieba's HMM, NULL when off (--no-hmm) or not built */
    uint32_t *hmm_cp;    /* (hmm_cap) code points of a run of Han characters */
    unsigned char *lab;  /* (5 hmm_cap) their labels, then hmm_viterbi's work */
    size_t hmm_cap;
} word_ctx;

static int is_digit(unsigned char c)
{
    return c >= '0' && c <= '9';
}

/* A run of digits inside a segment that is not a vocabulary word: with the numbers in the
 * vocabulary, groups of four digits from the right, as Chinese reads numbers in 万 (10^4):
 * 12345678 -> 1234 5678, 123456 -> 12 3456 (each a vocabulary entry, status split); without
 * them, one digit a token (fallback). */
static tf_status push_digits(word_ctx *w, const char *text, size_t b, size_t e)
{
    token_sink *k = w->k;
    tf_status st = TF_OK;
    if (!vocab_has_numbers(k->v)) {
        for (size_t i = b; i < e && st == TF_OK; i++)
            st = push_char(k, text, i, i + 1, TOKEN_FALLBACK);
        return st;
    }
    size_t first = (e - b) % 4 ? (e - b) % 4 : 4;
    for (size_t i = b, g = first; i < e && st == TF_OK; i += g, g = 4) {
        int32_t id = vocab_lookup(k->v, text + i, g);
        st = push(k, i, i + g, id < 0 ? VOCAB_UNK : id,
                  id < 0 ? TOKEN_FALLBACK | TOKEN_UNK : TOKEN_SPLIT);
    }
    return st;
}

/* A part of a segment without digits, text[b, e): the most probable route over the words that
 * have ids (dict_route_vocab); each word is a token (split), each character no such word
 * covers falls back to its own id or [UNK]. */
static tf_status push_route(word_ctx *w, const char *text, size_t b, size_t e)
{
    token_sink *k = w->k;
    route_buf *r = &w->sub;
    size_t n = route_chars(r, text, b, e);
    if (n == SIZE_MAX)
        return TF_ERR_NOMEM;
    char *lower = NULL;
    int latin = 0; /* a Latin word: match the list's spellings */
    for (size_t i = b; i < e && !latin; i++) {
        unsigned char c = (unsigned char)text[i];
        latin = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
    }
    if (latin) {
        if (e - b > w->lower_cap) {
            char *l = realloc(w->lower, e - b);
            if (!l)
                return TF_ERR_NOMEM;
            w->lower = l;
            w->lower_cap = e - b;
        }
        lower = w->lower;
        for (size_t i = b; i < e; i++) {
            char c = text[i];
            lower[i - b] = c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
        }
    }
    dict_route_vocab(w->d, text + b, lower, r->cpos, n, vocab_words(k->v), r->score, r->next,
                     r->word);
    tf_status st = TF_OK;
    for (size_t i = 0; i < n && st == TF_OK; i = r->next[i]) {
        size_t ws = b + r->cpos[i], we = b + r->cpos[r->next[i]];
        if (r->word[i] == DICT_NONE)
            st = push_char(k, text, ws, we, TOKEN_FALLBACK);
        else
            st = push(k, ws, we, vocab_dict_id(k->v, r->word[i]), TOKEN_SPLIT);
    }
    return st;
}

/* One of jieba's segments, text[start, end): one token with its id when the vocabulary has the
 * segment as a whole (id is its id when the caller knows it, VOCAB_LOOKUP to look it up in any
 * case, vocab_lookup_word); a lone character with its id or [UNK]; otherwise its digit runs
 * and the parts between them re-segmented (C1: a word outside the vocabulary becomes words
 * inside it, and characters only where no word covers them). Its tokens share one word index. */
#define VOCAB_LOOKUP INT32_MIN
static tf_status push_segment(word_ctx *w, const char *text, size_t start, size_t end, int32_t id)
{
    token_sink *k = w->k;
    tf_status st = TF_OK;
    if (id == VOCAB_LOOKUP)
        id = vocab_lookup_word(k->v, text + start, end - start);
    uint32_t cp;
    if (id >= 0) {
        st = push(k, start, end, id, TOKEN_IN_VOCAB);
    } else if (utf8_decode(text + start, end - start, &cp) == end - start) {
        st = push_char(k, text, start, end, 0);
    } else {
        for (size_t i = start, j; i < end && st == TF_OK; i = j) {
            int digits = is_digit((unsigned char)text[i]);
            for (j = i + 1; j < end && is_digit((unsigned char)text[j]) == digits; j++)
                ;
            st = digits ? push_digits(w, text, i, j) : push_route(w, text, i, j);
        }
    }
    k->word++;
    return st;
}

/* ---------------------------------------------------------------------------------------------
 * word mode with the HMM (jieba.cut(text), its default): the single characters of the route
 * gather in a buffer, and a buffer of two or more that is no dictionary word is cut by
 * finalseg.cut, the Viterbi labels of jieba's HMM (hmm.h) */

static int is_han(uint32_t cp)
{
    return cp >= 0x4E00 && cp <= 0x9FD5;
}

/* A run of Han characters text[b, e): the words of its labels, as finalseg's __cut emits them
 * (B opens a word, E closes it, S is a word alone; a tail after the last E or S is a word). */
static tf_status push_viterbi(word_ctx *w, const char *text, size_t b, size_t e)
{
    size_t n = (e - b) / 3; /* Han characters are 3 bytes */
    if (n > w->hmm_cap) {
        uint32_t *c = realloc(w->hmm_cp, n * sizeof *c);
        if (c)
            w->hmm_cp = c;
        unsigned char *l = c ? realloc(w->lab, 5 * n) : NULL;
        if (!l)
            return TF_ERR_NOMEM;
        w->lab = l;
        w->hmm_cap = n;
    }
    for (size_t i = 0; i < n; i++)
        utf8_decode(text + b + 3 * i, 3, &w->hmm_cp[i]);
    hmm_viterbi(w->hmm, w->hmm_cp, n, w->lab, w->lab + n);
    tf_status st = TF_OK;
    size_t begin = 0, next = 0;
    for (size_t i = 0; i < n && st == TF_OK; i++) {
        if (w->lab[i] == HMM_B)
            begin = i;
        else if (w->lab[i] == HMM_E || w->lab[i] == HMM_S) {
            size_t from = w->lab[i] == HMM_E ? begin : i;
            st = push_segment(w, text, b + 3 * from, b + 3 * (i + 1), VOCAB_LOOKUP);
            next = i + 1;
        }
    }
    if (next < n && st == TF_OK)
        st = push_segment(w, text, b + 3 * next, e, VOCAB_LOOKUP);
    return st;
}

/* The end of finalseg's re_skip match ([a-zA-Z0-9]+(?:\.\d+)?%?) at text[i] (an ASCII letter
 * or digit), before e. */
static size_t skip_match(const char *text, size_t i, size_t e)
{
    while (i < e && is_ascii_alnum((unsigned char)text[i]))
        i++;
    if (i + 1 < e && text[i] == '.' && is_digit((unsigned char)text[i + 1]))
        for (i++; i < e && is_digit((unsigned char)text[i]); i++)
            ;
    if (i < e && text[i] == '%')
        i++;
    return i;
}

/* finalseg.cut over text[b, e) (word characters): Han runs by the Viterbi labels; between
 * them, re_skip's matches and the text between matches are words as they stand. */
static tf_status finalseg_cut(word_ctx *w, const char *text, size_t b, size_t e)
{
    tf_status st = TF_OK;
    for (size_t i = b, j; i < e && st == TF_OK; i = j) {
        uint32_t cp;
        utf8_decode(text + i, e - i, &cp);
        if (is_han(cp)) {
            for (j = i; j < e && utf8_decode(text + j, e - j, &cp) && is_han(cp); j += 3)
                ;
            st = push_viterbi(w, text, i, j);
        } else if (is_ascii_alnum(cp)) {
            st = push_segment(w, text, i, j = skip_match(text, i, e), VOCAB_LOOKUP);
        } else {
            for (j = i + 1; j < e && (unsigned char)text[j] < 0x80 &&
                            !is_ascii_alnum((unsigned char)text[j]);
                 j++)
                ;
            st = push_segment(w, text, i, j, VOCAB_LOOKUP);
        }
    }
    return st;
}

/* The buffer of single characters text[b, e) (n of them), as __cut_DAG empties it: one
 * character is a word; a dictionary word of frequency > 0 stays its characters; anything
 * else goes to finalseg. */
static tf_status flush_singles(word_ctx *w, const char *text, size_t b, size_t e, size_t n)
{
    if (n == 1)
        return push_segment(w, text, b, e, VOCAB_LOOKUP);
    int64_t i = dict_find(w->d, text + b, e - b);
    if (i < 0 || dict_freq(w->d, (uint32_t)i) == 0)
        return finalseg_cut(w, text, b, e);
    tf_status st = TF_OK;
    for (size_t p = b, m; p < e && st == TF_OK; p += m) {
        uint32_t cp;
        m = utf8_decode(text + p, e - p, &cp);
        st = push_segment(w, text, p, p + m, VOCAB_LOOKUP);
    }
    return st;
}

/* jieba's route over the run of word characters text[b, e) into w->seg; returns the number of
 * characters, or SIZE_MAX when memory ran out. */
static size_t route_block(word_ctx *w, const char *text, size_t b, size_t e)
{
    route_buf *r = &w->seg;
    size_t n = route_chars(r, text, b, e);
    if (n != SIZE_MAX)
        dict_route(w->d, text + b, r->cpos, n, r->score, r->next, r->word);
    return n;
}

/* One run of word characters text[b, e): route it, then emit the words. Single characters of
 * the route gather into a run: with the HMM, every one of them, emptied by flush_singles as
 * jieba's __cut_DAG does; without it, single ASCII letters and digits, joined into one segment
 * as __cut_DAG_NO_HMM does. */
static tf_status segment_block(word_ctx *w, const char *text, size_t b, size_t e)
{
    route_buf *r = &w->seg;
    size_t n = route_block(w, text, b, e);
    if (n == SIZE_MAX)
        return TF_ERR_NOMEM;
    size_t run = SIZE_MAX; /* first character of the pending run */
    tf_status st = TF_OK;
    for (size_t i = 0; i <= n && st == TF_OK; i = r->next[i]) {
        size_t j = i < n ? r->next[i] : n, ws = b + r->cpos[i], we = b + r->cpos[j];
        int single = i < n && j == i + 1 &&
                     (w->hmm || (we - ws == 1 && is_ascii_alnum((unsigned char)text[ws])));
        if (single) {
            if (run == SIZE_MAX)
                run = i;
            continue;
        }
        if (run != SIZE_MAX) {
            size_t rs = b + r->cpos[run];
            st = w->hmm ? flush_singles(w, text, rs, ws, i - run)
                        : push_segment(w, text, rs, ws, VOCAB_LOOKUP);
            run = SIZE_MAX;
        }
        if (i == n)
            break;
        if (st == TF_OK)
            st = push_segment(w, text, ws, we,
                              r->word[i] == DICT_NONE ? -1 : vocab_dict_id(w->k->v, r->word[i]));
    }
    return st;
}

static tf_status split_words(token_sink *k, const char *text, size_t len)
{
    word_ctx w = {.k = k, .d = vocab_dict(k->v), .hmm = vocab_hmm(k->v)};
    if (!w.d)
        return TF_ERR_UNAVAILABLE;
    tf_status st = TF_OK;
    size_t block = SIZE_MAX;
    for (size_t i = 0, n = 0; i <= len && st == TF_OK; i += n) {
        uint32_t cp = 0;
        n = i < len ? utf8_decode(text + i, len - i, &cp) : 1;
        int word = i < len && is_word_char(cp);
        if (word && block == SIZE_MAX)
            block = i;
        if (word)
            continue;
        if (block != SIZE_MAX) {
            st = segment_block(&w, text, block, i);
            block = SIZE_MAX;
        }
        if (i < len && st == TF_OK && !is_space(cp))
            st = push_segment(&w, text, i, i + n, VOCAB_LOOKUP);
    }
    route_free(&w.seg);
    route_free(&w.sub);
    free(w.lower);
    free(w.hmm_cp);
    free(w.lab);
    return st;
}

/* ---------------------------------------------------------------------------------------------
 * BPE mode */

typedef struct {
    token_sink *k;
    const char *text;
    uint32_t word0; /* unit index of the first piece */
} bpe_ctx;

static tf_status bpe_token(void *ctx, uint32_t rank, size_t start, size_t end, size_t piece)
{
    bpe_ctx *c = ctx;
    c->k->word = c->word0 + (uint32_t)piece;
    /* a token that is not whole UTF-8 characters holds part of one (爱 in cl100k_base) */
    uint32_t flags = TOKEN_IN_VOCAB;
    if (utf8_validate(c->text + start, end - start, NULL) != TF_OK)
        flags |= TOKEN_PARTIAL;
    return push(c->k, start, end, (int32_t)rank, flags);
}

static tf_status split_bpe(token_sink *k, tokenizer_kind kind, const char *text, size_t len)
{
    const tf_bpe *b = vocab_bpe(k->v);
    const char *want = kind == TOKENIZER_CL100K ? "cl100k_base" : "o200k_base";
    if (!b || strcmp(vocab_name(k->v), want) != 0)
        return TF_ERR_UNAVAILABLE;
    bpe_ctx c = {.k = k, .text = text, .word0 = k->word};
    return bpe_encode(b, text, len, bpe_token, &c);
}

/* ---------------------------------------------------------------------------------------------
 * The entry points */

static tf_status split(const tf_vocab *v, tokenizer_kind kind, const char *text, size_t len,
                       tf_tokens *out, size_t *bad_offset, size_t max_tokens)
{
    memset(out, 0, sizeof *out);
    out->kind = kind;
    tf_status st = utf8_validate(text, len, bad_offset);
    if (st != TF_OK)
        return st;
    token_sink k = {.out = out, .max = max_tokens, .v = v};
    switch (kind) {
    case TOKENIZER_CHAR:
        st = split_chars(&k, text, len);
        break;
    case TOKENIZER_WORD:
        st = split_words(&k, text, len);
        break;
    case TOKENIZER_CL100K:
    case TOKENIZER_O200K:
        st = split_bpe(&k, kind, text, len);
        break;
    default:
        st = TF_ERR_RANGE;
    }
    if (st == TF_OK && out->n == 0)
        st = TF_ERR_EMPTY;
    if (st != TF_OK)
        tokens_free(out);
    return st;
}

tf_status tokenizer_split(const tf_vocab *v, tokenizer_kind kind, const char *text, size_t len,
                          tf_tokens *out, size_t *bad_offset)
{
    if (len > TF_MAX_TEXT_BYTES) {
        memset(out, 0, sizeof *out);
        out->kind = kind;
        return TF_ERR_TOO_LONG;
    }
    return split(v, kind, text, len, out, bad_offset, TF_MAX_TOKENS);
}

tf_status tokenizer_split_any(const tf_vocab *v, tokenizer_kind kind, const char *text, size_t len,
                              tf_tokens *out, size_t *bad_offset)
{
    if (len > UINT32_MAX) { /* byte offsets are 32-bit */
        memset(out, 0, sizeof *out);
        return TF_ERR_TOO_LONG;
    }
    return split(v, kind, text, len, out, bad_offset, SIZE_MAX);
}

void tokens_free(tf_tokens *t)
{
    free(t->items);
    t->items = NULL;
    t->n = 0;
}
