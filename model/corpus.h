/* corpus.h — a training corpus from UTF-8 text: lines are sentences, sentences are words.
 *
 * Two ways to cut a line into words:
 *  - CORPUS_SPACES: the text is already segmented, words separated by spaces (the shipped
 *    corpus is written this way, so it trains the same whatever tokenizers are built in);
 *  - CORPUS_TOKENIZER: the project's tokenizer (tokenizer_split) cuts each line; word mode
 *    when it is available, char mode otherwise.
 * CORPUS_AUTO picks SPACES when most lines of the text hold spaces between CJK words, or when
 * the text is mostly not Chinese (alphabetic languages put spaces between words).
 * Tokens made only of punctuation and symbols are dropped: they carry no meaning to learn. */
#ifndef TF_CORPUS_H
#define TF_CORPUS_H

#include <stdbool.h>
#include <stddef.h>

#include "status.h"
#include "tokenizer.h"
#include "word2vec.h"

typedef enum { CORPUS_AUTO = 0, CORPUS_SPACES, CORPUS_TOKENIZER } corpus_split;

typedef struct {
    corpus_split split;     /* what was used (never AUTO after corpus_load) */
    tokenizer_kind kind;    /* the tokenizer used when split == CORPUS_TOKENIZER */
    int fell_back;          /* 1 when word mode was unavailable and char mode was used */
    size_t lines, bad_line; /* lines read; 1-based line of invalid UTF-8 on TF_ERR_UTF8 */
    size_t bad_offset;      /* byte offset in the text of that invalid UTF-8 */
} corpus_info;

/* Cut text[0..len) into sentences of words and add them to c (not finished). Under
 * CORPUS_TOKENIZER (or AUTO deciding so) lines are cut by tokenizer `kind` over vocabulary v
 * (word mode needs the dictionary's, analysis_vocab; NULL: code points, which only char mode
 * can use); TOKENIZER_WORD falls back to TOKENIZER_CHAR (info->fell_back = 1) when word mode
 * reports TF_ERR_UNAVAILABLE. */
tf_status corpus_load(w2v_corpus *c, const tf_vocab *v, const char *text, size_t len,
                      corpus_split split, tokenizer_kind kind, corpus_info *info);

/* Whether text[0..len) holds a CJK ideograph (U+3400..U+9FFF): a sentence that does is Chinese,
 * read by vectors trained on Chinese. */
bool corpus_has_cjk(const char *text, size_t len);

/* What CORPUS_AUTO decides for this text: SPACES or TOKENIZER. */
corpus_split corpus_detect(const char *text, size_t len);

/* The one call of the tokenizer for training: cut one line of any length into tokens (byte
 * ranges into line). The caller frees out with tokens_free. */
tf_status corpus_tokenize(const tf_vocab *v, tokenizer_kind kind, const char *line, size_t len,
                          tf_tokens *out);

#endif
