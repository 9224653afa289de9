/* dict.h — the segmentation dictionary: jieba's 349,046 words with their frequencies, converted
 * at build time (scripts/gen_dict.py) into sorted arrays that are mapped, not parsed.
 *
 * Word segmentation (tokenizer.c) asks two things of it: which dictionary words start at a
 * character (the edges of the DAG), and the frequency of each, so that the route through the
 * DAG with the largest product of word probabilities f(w)/total can be found. */
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
/* Sum of all frequencies: P(w) = freq(w) / total. */
uint64_t dict_total(const tf_dict *d);
/* Index (in byte order) of the word s[0..len), or -1 when it is not in the dictionary. */
int64_t dict_find(const tf_dict *d, const char *s, size_t len);
/* The word at index i: its bytes (not NUL-terminated) and length. */
const char *dict_word(const tf_dict *d, uint32_t i, size_t *len);
uint32_t dict_freq(const tf_dict *d, uint32_t i);
/* 0-based rank by frequency (0 = most frequent; equal frequencies in byte order), and back. */
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
#define DICT_NONE UINT32_MAX
void dict_route(const tf_dict *d, const char *s, const uint32_t *cpos, size_t n, double *score,
                uint32_t *next, uint32_t *word);

/* The DAG edges of character i (for tests and teaching): writes up to cap end indices j
 * (inclusive, ascending) into ends and returns how many there are. */
size_t dict_dag(const tf_dict *d, const char *s, const uint32_t *cpos, size_t n, size_t i,
                uint32_t *ends, size_t cap);

#endif
