/* dict.h — the segmentation dictionary: jieba's 349,046 words with their frequencies, and (when
 * the build found it) the 74,286 words of the English list SUBTLEX-US, converted at build time
 * (scripts/gen_dict.py) into sorted arrays that are mapped, not parsed.
 *
 * Word segmentation (tokenizer.c) asks two things of it: which dictionary words start at a
 * character (the edges of the DAG), and the frequency of each, so that the route through the
 * DAG with the largest product of word probabilities f(w)/total can be found. That route uses
 * jieba's words and frequencies only (an English-only word has jieba frequency 0).
 *
 * Every word also has a vocabulary frequency, which ranks it for ids (vocab.h): jieba's for a
 * Chinese word, the English count scaled to jieba's total for an English word
 * (round(count * total / english_total), a relative frequency on one scale). */
#ifndef TF_DICT_H
#define TF_DICT_H

#include <stddef.h>
#include <stdint.h>

#include "status.h"

typedef struct tf_dict tf_dict;

/* File name of the asset in the data directory. */
#define DICT_ASSET "tfviz-dict.bin"

/* Map dir/DICT_ASSET. TF_ERR_UNAVAILABLE when it is missing, TF_ERR_FORMAT when corrupt. */
tf_status dict_open(const char *dir, tf_dict **out);
void dict_free(tf_dict *d);

uint32_t dict_count(const tf_dict *d);
/* Sum of jieba's frequencies: P(w) = freq(w) / total. */
uint64_t dict_total(const tf_dict *d);
/* Sum of the vocabulary frequencies (jieba's total plus the scaled English counts). */
uint64_t dict_vtotal(const tf_dict *d);
/* Words that came from the English list, and the list's sum of counts; 0 and 0 when the build
 * had no list. */
uint32_t dict_english_count(const tf_dict *d);
uint64_t dict_english_total(const tf_dict *d);
/* Index of the word s[0..len), or -1 when it is not in the dictionary. Indices: jieba's words in
 * byte order, then the words that are only English, in byte order. */
int64_t dict_find(const tf_dict *d, const char *s, size_t len);
/* The word at index i: its bytes (not NUL-terminated) and length. */
const char *dict_word(const tf_dict *d, uint32_t i, size_t *len);
/* jieba's frequency of word i (0 for a word that is only English). */
uint32_t dict_freq(const tf_dict *d, uint32_t i);
/* The part of speech of jieba's word i, by the first letter of dict.txt's tag: DICT_TAG_VERB
 * (v, vn, vd, ...), DICT_TAG_OTHER, or DICT_TAG_NONE (no tag, a word only English, or a
 * dictionary built without tags). */
enum { DICT_TAG_NONE = 0, DICT_TAG_VERB = 1, DICT_TAG_OTHER = 2 };
int dict_tag(const tf_dict *d, uint32_t i);
/* Whether the dictionary was built with the tags. */
int dict_has_tags(const tf_dict *d);
/* The vocabulary frequency of word i. */
uint32_t dict_vfreq(const tf_dict *d, uint32_t i);
/* 0-based rank by vocabulary frequency (0 = most frequent; equal frequencies in byte order),
 * and back. */
uint32_t dict_rank(const tf_dict *d, uint32_t i);
uint32_t dict_at_rank(const tf_dict *d, uint32_t rank);

/* The maximum-probability route through the DAG of a run of n characters whose byte offsets
 * in s are cpos[0..n] (cpos[0] = 0 is not required; cpos[n] is the end of the last one):
 *
 *   DAG(i)   = { j >= i : the characters i..j spell a dictionary word of frequency > 0 },
 *              or { i } when none does;
 *   R(n)     = 0,
 *   R(i)     = max over j in DAG(i) of  log(freq(i..j) or 1) - log(total) + R(j + 1),
 *
 * ties going to the longer word; next[i] = j + 1 for the chosen j. score[0..n] receives R;
 * word[i] (when word is not NULL) the dictionary index of the chosen word, DICT_NONE for a
 * lone character that is no word. This is jieba's route with the HMM off, computed right to
 * left without storing the DAG. */
#define DICT_NONE      UINT32_MAX
#define DICT_UNCOVERED 1e4
void dict_route(const tf_dict *d, const char *s, const uint32_t *cpos, size_t n, double *score,
                uint32_t *next, uint32_t *word);

/* The same route over the vocabulary's words only (re-segmenting a word that has no id of its
 * own into words that have one): the edges are the words ranked below max_rank (the
 * vocabulary's W), weighted by their vocabulary frequency over dict_vtotal; a character
 * where no such word starts stands alone with frequency "or 1" (word[i] = DICT_NONE) and a
 * further DICT_UNCOVERED off the score, more than any sentence's words weigh: of the routes,
 * those that leave the fewest characters uncovered by words win, then the most probable.
 * lower, when not NULL, is s with ASCII letters lowercased (same bytes otherwise; it is
 * modified during the call and restored): then a word also matches in lowercase or
 * capitalised from its first letter, the two spellings of the English list. */
void dict_route_vocab(const tf_dict *d, const char *s, char *lower, const uint32_t *cpos, size_t n,
                      uint32_t max_rank, double *score, uint32_t *next, uint32_t *word);

/* The DAG edges of character i (for tests and teaching): writes up to cap end indices j
 * (inclusive, ascending) into ends and returns how many there are. */
size_t dict_dag(const tf_dict *d, const char *s, const uint32_t *cpos, size_t n, size_t i,
                uint32_t *ends, size_t cap);

#endif
