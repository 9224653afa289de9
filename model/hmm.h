/* hmm.h — jieba's hidden Markov model for the words its dictionary lacks (finalseg): each
 * character of a run of Han characters is labelled B (begins a word), M (inside one), E (ends
 * one) or S (a word alone) by the Viterbi path of a model whose start, transition and emission
 * log-probabilities are jieba's own, converted at build time (scripts/gen_hmm.py). It is how
 * jieba.cut(text) (HMM on, its default) finds 小明 and 李华, names no dictionary holds. */
#ifndef TF_HMM_H
#define TF_HMM_H

#include <stddef.h>
#include <stdint.h>

#include "status.h"

typedef struct tf_hmm tf_hmm;

/* File name of the asset in the data directory. */
#define HMM_ASSET "tfviz-hmm.bin"

/* The labels, in jieba's order of its states. */
enum { HMM_B = 0, HMM_M, HMM_E, HMM_S, HMM_STATES };

/* Map dir/HMM_ASSET. TF_ERR_UNAVAILABLE when it is missing, TF_ERR_FORMAT when corrupt. */
tf_status hmm_open(const char *dir, tf_hmm **out);
void hmm_free(tf_hmm *h);

/* The Viterbi labels of the n code points cp[0..n) into label[0..n), as finalseg.viterbi
 * computes them, in the same double arithmetic:
 *
 *   V(0, y) = start(y) + emit(y, cp[0])
 *   V(t, y) = max over the states x that may precede y (B after E or S, M after M or B,
 *             E after B or M, S after S or E) of  V(t-1, x) + trans(x, y) + emit(y, cp[t]),
 *
 * a missing emission or transition being -3.14e100; ties go to the later letter of "BEMS"
 * (Python's max over (value, state) pairs), and the path ends in E or S, whichever is larger
 * (S on a tie). work holds the 4 n bytes of back-pointers (the caller's, so the call allocates
 * nothing). n = 0 does nothing. */
void hmm_viterbi(const tf_hmm *h, const uint32_t *cp, size_t n, unsigned char *label,
                 unsigned char *work);

#endif
