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

/* The dictionary vocabulary (the default), V = size ids, laid out as
 *
 *   0 .. 3              [PAD] [UNK] [BOS] [EOS]
 *   4 .. 4 + W - 1      the W most frequent words of the segmentation dictionary in dir
 *                       (dict.h): id = 4 + frequency rank (0-based; equal frequencies in byte
 *                       order), so a small id is a frequent word
 *   4 + W .. V - 1      the base alphabet minus the characters that are among those W words,
 *                       in code-point order
 *
 * The base alphabet is every character a real vocabulary must spell: printable ASCII
 * (U+0020-U+007E), CJK symbols and punctuation (U+3000-U+303F), the CJK Unified Ideographs
 * (U+4E00-U+9FFF) and the half-width and full-width forms (U+FF00-U+FFEF): 21,391 characters.
 *
 * W: when V >= 4 + 21,391 = 21,395 the whole alphabet fits, and W is the largest number of
 * words that leaves room for the base characters not among them (a word that is itself a
 * base character costs no extra id) and, when V >= 32,495, for the 11,100 numbers. When
 * V < 21,395 the alphabet cannot fit: W = V - 4 and there is no tail, so a character that is
 * not among the words has no id ([UNK]). W never exceeds the dictionary; past the last number
 * ids are unused. Words past the cut have no id of their own (the tokenizer splits them into
 * words that have one, tokenizer.h).
 * Errors are those of dict_open: TF_ERR_UNAVAILABLE when the dictionary is not installed.
 * jieba's HMM (hmm.h, dir/tfviz-hmm.bin) comes with it when the build made it; without it (or
 * after vocab_drop_hmm) word mode cuts as jieba.cut(text, HMM=False). */
tf_status vocab_open_dict(const char *dir, uint32_t size, tf_vocab **out);

/* A byte-level BPE vocabulary: encoding "cl100k" or "o200k" (tfviz-<encoding>.bin in dir).
 * Id = BPE rank; the size is the encoding's n_vocab (100,277 or 200,019), not a choice. There
 * are no special tokens among the ranks and no unknown token: every byte has a rank. */
tf_status vocab_open_bpe(const char *dir, const char *encoding, tf_vocab **out);

/* The code-point vocabulary (used when no dictionary is installed): after the special tokens
 * comes the base alphabet in code-point order; ids at or past `size` and every other character
 * map to [UNK]. */
tf_status vocab_new_codepoint(uint32_t size, tf_vocab **out);
void vocab_free(tf_vocab *v);

/* Id of the token spelled s[0..len), or -1 when it is not in the vocabulary. A string of two to
 * four digits is a number (when the numbers fit). */
int32_t vocab_lookup(const tf_vocab *v, const char *s, size_t len);

/* The same for a word of running text: when s is not a word as written, its ASCII letters are
 * tried in the English list's two spellings, all lowercase and capitalised (Love -> love,
 * i -> I, Python -> python, t恤 -> T恤), so a Latin word finds its id whatever its case. Returns
 * vocab_lookup's answer (a base character, a number, -1) when no spelling is a word. */
int32_t vocab_lookup_word(const tf_vocab *v, const char *s, size_t len);

/* W, the number of words with ids (0 for BPE and code-point vocabularies). */
uint32_t vocab_words(const tf_vocab *v);
/* How many words of the dictionary came from the English list (0 when the build had none: then
 * a Latin word that is no jieba word falls back to its letters). */
uint32_t vocab_english_words(const tf_vocab *v);
/* Whether the numbers 00 .. 9999 have ids (V >= 32,495). */
int vocab_has_numbers(const tf_vocab *v);

/* Id of the dictionary word at index i (dict.h), or -1 when it is outside V (for the
 * tokenizer, which finds words by index while routing). */
int32_t vocab_dict_id(const tf_vocab *v, uint32_t i);

/* Write the text of id into buf (NUL-terminated, truncated to cap); returns its length,
 * 0 for an id outside the vocabulary. */
size_t vocab_token(const tf_vocab *v, int32_t id, char *buf, size_t cap);

uint32_t vocab_size(const tf_vocab *v);
/* "jieba", "cl100k_base", "o200k_base" or "codepoint". */
const char *vocab_name(const tf_vocab *v);

/* The vocabulary frequency of id's token (dict.h: jieba's for a Chinese word, the scaled count
 * for an English word): a word's, and a base character's when it is a dictionary word too (a
 * rare character past the W words); 0 for special tokens, base characters that are no
 * dictionary word, numbers and other vocabularies. */
uint64_t vocab_frequency(const tf_vocab *v, int32_t id);
/* The rank behind an id: 1-based frequency rank of a dictionary word (1 = most frequent; for
 * ids below 4 + W, id = 3 + rank; a base character in the tail that is a dictionary word has
 * its true rank, past W), the merge rank of a BPE token (= its id); -1 where there is none
 * (special tokens, base characters that are no dictionary word, numbers, code points). */
int64_t vocab_rank(const tf_vocab *v, int32_t id);

/* The tables behind the vocabulary, NULL when it has none (for the tokenizer). */
struct tf_dict;
struct tf_bpe;
struct tf_hmm;
const struct tf_dict *vocab_dict(const tf_vocab *v);
const struct tf_bpe *vocab_bpe(const tf_vocab *v);
const struct tf_hmm *vocab_hmm(const tf_vocab *v);
/* Forget the HMM (--no-hmm): word mode then cuts as jieba.cut(text, HMM=False). */
void vocab_drop_hmm(tf_vocab *v);

#endif
