/* vocab.h — the vocabulary: token text <-> integer id, V entries, an unknown-token id.
 *
 * The article's first step: the tokenizer looks a token up in a vocabulary of V entries and
 * finds its index (C1). Id k then stands for the one-hot vector e_k of length V (C2). */
#ifndef TF_VOCAB_H
#define TF_VOCAB_H

#include <stddef.h>
#include <stdint.h>

#include "status.h"

typedef struct tf_vocab tf_vocab;

/* Special tokens present in every vocabulary, at these ids. */
enum { VOCAB_PAD = 0, VOCAB_UNK = 1, VOCAB_BOS = 2, VOCAB_EOS = 3, VOCAB_N_SPECIAL = 4 };

/* The dictionary vocabulary (the default): after the special tokens come the size - 4 most
 * frequent words of the segmentation dictionary in dir (dict.h), so id = 4 + frequency rank
 * (0-based) and a small id is a frequent word. Words past the cut have no id. Errors are those
 * of dict_open: TF_ERR_UNAVAILABLE when the dictionary is not installed. */
tf_status vocab_open_dict(const char *dir, uint32_t size, tf_vocab **out);

/* A byte-level BPE vocabulary: encoding "cl100k" or "o200k" (tfviz-<encoding>.bin in dir).
 * Id = BPE rank; the size is the encoding's n_vocab (100,277 or 200,019), not a choice. There
 * are no special tokens among the ranks and no unknown token: every byte has a rank. */
tf_status vocab_open_bpe(const char *dir, const char *encoding, tf_vocab **out);

/* The code-point vocabulary (used when no dictionary is installed): after the special tokens come printable ASCII, CJK symbols and
 * punctuation, the CJK Unified Ideographs (U+4E00-U+9FFF) and the full-width forms, in
 * code-point order; ids at or past `size` and every other character map to [UNK]. */
tf_status vocab_new_codepoint(uint32_t size, tf_vocab **out);
void vocab_free(tf_vocab *v);

/* Id of the token spelled s[0..len), or -1 when it is not in the vocabulary. */
int32_t vocab_lookup(const tf_vocab *v, const char *s, size_t len);

/* Id of the dictionary word at index i (dict.h), or -1 when it is outside V (for the
 * tokenizer, which finds words by index while routing). */
int32_t vocab_dict_id(const tf_vocab *v, uint32_t i);

/* Write the text of id into buf (NUL-terminated, truncated to cap); returns its length,
 * 0 for an id outside the vocabulary. */
size_t vocab_token(const tf_vocab *v, int32_t id, char *buf, size_t cap);

uint32_t vocab_size(const tf_vocab *v);
/* "jieba", "cl100k_base", "o200k_base" or "codepoint". */
const char *vocab_name(const tf_vocab *v);

/* The dictionary frequency of id's word (0 for special tokens and other vocabularies). */
uint64_t vocab_frequency(const tf_vocab *v, int32_t id);
/* The rank behind an id: 1-based frequency rank of a dictionary word (1 = most frequent), the
 * merge rank of a BPE token (= its id); -1 where there is none (special tokens, code points). */
int64_t vocab_rank(const tf_vocab *v, int32_t id);

/* The tables behind the vocabulary, NULL when it has none (for the tokenizer). */
struct tf_dict;
struct tf_bpe;
const struct tf_dict *vocab_dict(const tf_vocab *v);
const struct tf_bpe *vocab_bpe(const tf_vocab *v);

#endif
