/* tokenizer.h — text -> tokens -> vocabulary ids (claim C1).
 *
 * Every mode produces the same thing: a list of tokens, each a byte range [start, end) of the
 * input text with a vocabulary id and flags saying how the id was found. */
#ifndef TF_TOKENIZER_H
#define TF_TOKENIZER_H

#include <stddef.h>
#include <stdint.h>

#include "status.h"
#include "vocab.h"

typedef enum {
    TOKENIZER_CHAR = 0, /* one token per character */
    TOKENIZER_WORD,     /* dictionary word segmentation */
    TOKENIZER_CL100K,   /* OpenAI byte-level BPE, cl100k_base */
    TOKENIZER_O200K,    /* OpenAI byte-level BPE, o200k_base */
    TOKENIZER_COUNT
} tokenizer_kind;

enum {
    TOKEN_IN_VOCAB = 1u << 0, /* the segment, found as a whole in the vocabulary */
    TOKEN_FALLBACK = 1u << 1, /* a character of a segment where no vocabulary word covers it */
    TOKEN_UNK = 1u << 2,      /* not in the vocabulary at all: id is [UNK] */
    TOKEN_PARTIAL = 1u << 3,  /* bytes that are not a whole UTF-8 character (byte-level BPE) */
    TOKEN_SPLIT = 1u << 4,    /* a vocabulary word (or number) inside a longer segment */
};

typedef struct {
    uint32_t start, end; /* byte offsets into the text */
    int32_t id;          /* vocabulary id, VOCAB_UNK when unknown */
    uint32_t flags;      /* TOKEN_* */
    uint32_t word;       /* index of the unit the token came from: the segmented word (its
                            characters share it after a fallback), the BPE pre-token piece,
                            the token itself in char mode */
} tf_token;

typedef struct {
    tf_token *items; /* (n) */
    size_t n;
    tokenizer_kind kind;
} tf_tokens;

/* Name used on the command line and in output ("char", "word", "cl100k", "o200k"). */
const char *tokenizer_name(tokenizer_kind k);
/* Parse a name; returns TOKENIZER_COUNT for an unknown one. */
tokenizer_kind tokenizer_parse(const char *name);

/* Split text[0..len) into tokens with ids from v.
 *
 * word:   first jieba.cut(text) exactly, spaces aside (jieba.cut(text, HMM=False) when the
 *         vocabulary has no HMM, vocab_drop_hmm): runs of Han characters,
 *         ASCII letters and digits and the signs + # & . _ % - are segmented over jieba's
 *         dictionary (dict_route: the maximum-probability route through the DAG of dictionary
 *         words); consecutive single ASCII letters or digits on that route join into one
 *         segment (GPT4, 2024); with the HMM, the route's single characters gather instead,
 *         and two or more of them that are no dictionary word are cut by jieba's HMM (hmm.h:
 *         小明, 李华); every other character is a segment of its own. Each segment
 *         keeps one `word` index. Then ids:
 *         - a segment that is a vocabulary word (vocab_lookup_word: Latin letters in any case)
 *           or number is one token (TOKEN_IN_VOCAB): 学习, love, 2024;
 *         - a longer segment outside the vocabulary is re-segmented: its digit runs into
 *           numbers (groups of four digits from the right, 12345 -> 1 2345), the rest by the
 *           same maximum-probability route restricted to the words that have ids
 *           (dict_route_vocab; Latin letters in either spelling of the English list):
 *           今天天气 -> 今天 天气 (TOKEN_SPLIT); a character where no such word starts falls
 *           back to its own id (TOKEN_FALLBACK), or to [UNK] (TOKEN_FALLBACK | TOKEN_UNK);
 *         - a lone character has its id (TOKEN_IN_VOCAB) or is [UNK] (TOKEN_UNK).
 *         Needs vocab_open_dict.
 * char:   one token per character.
 * cl100k, o200k: byte-level BPE (bpe.h); spaces belong to the tokens as in the real model.
 *         Needs vocab_open_bpe with the same encoding.
 *
 * In word and char mode whitespace separates tokens and is not a token itself. A mode that v
 * cannot serve (word without a dictionary, BPE with another table) gives TF_ERR_UNAVAILABLE.
 * Invalid UTF-8 gives TF_ERR_UTF8 with the byte offset in *bad_offset; more than TF_MAX_TOKENS
 * tokens gives TF_ERR_TOO_MANY. The caller frees out with tokens_free. */
tf_status tokenizer_split(const tf_vocab *v, tokenizer_kind kind, const char *text, size_t len,
                          tf_tokens *out, size_t *bad_offset);
/* The same without the TF_MAX_TEXT_BYTES and TF_MAX_TOKENS limits, for corpus lines of any
 * length (word2vec training): time and memory grow linearly with len. */
tf_status tokenizer_split_any(const tf_vocab *v, tokenizer_kind kind, const char *text, size_t len,
                              tf_tokens *out, size_t *bad_offset);
void tokens_free(tf_tokens *t);

#endif
