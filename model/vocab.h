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

/* The code-point vocabulary: after the special tokens come printable ASCII, CJK symbols and
 * punctuation, the CJK Unified Ideographs (U+4E00-U+9FFF) and the full-width forms, in
 * code-point order; ids at or past `size` and every other character map to [UNK]. */
tf_status vocab_new_codepoint(uint32_t size, tf_vocab **out);
void vocab_free(tf_vocab *v);

/* Id of the token spelled s[0..len), or -1 when it is not in the vocabulary. */
int32_t vocab_lookup(const tf_vocab *v, const char *s, size_t len);

/* Write the text of id into buf (NUL-terminated, truncated to cap); returns its length,
 * 0 for an id outside the vocabulary. */
size_t vocab_token(const tf_vocab *v, int32_t id, char *buf, size_t cap);

uint32_t vocab_size(const tf_vocab *v);
const char *vocab_name(const tf_vocab *v);

#endif
