/* word2vec.h — learned embeddings: skip-gram with negative sampling (SGNS).
 *
 * The article's point about W_E is that nobody writes its rows: they start random and gradient
 * descent on co-occurrence moves words used in similar contexts (爱, 喜欢) close together. This
 * module does that with word2vec's method (Mikolov et al. 2013):
 *
 *   for every word w_t and every context word w_c with |c - t| <= b (b drawn in 1..window),
 *   maximise  log s(u_t . v_c) + sum_{k=1..K} log s(-u_k . v_c),   s(x) = 1 / (1 + e^-x)
 *
 * where v are the input vectors (`in`), u the output vectors (`out`), and the K negatives u_k
 * are drawn from the unigram distribution raised to 0.75. Frequent words are subsampled (kept
 * with probability (sqrt(f/(s T)) + 1) (s T)/f for a word seen f times in T) and the learning
 * rate falls linearly from alpha to min_alpha over all epochs.
 *
 * The learned word vector of w, the embedding every reader sees (cosines, neighbours, the map,
 * the written file), is v_w minus the mean of all V input vectors (`vec`), the first step of
 * Mu and Viswanath's post-processing (ICLR 2018, "All-but-the-Top"): SGNS puts every input
 * vector in one narrow cone (Mimno and Thompson, EMNLP 2017), so the raw cosine of two words
 * that have nothing in common is +0.3 to +0.5; removing the common mean leaves unrelated words
 * near 0 and keeps similar ones together. The random start has a mean near 0: it changes little.
 *
 * Training is resumable in steps (w2v_step), so a viewer can draw the loss and the vectors
 * between steps; with threads == 1 the result is bit-for-bit the same for a given seed however
 * the run is cut into steps. threads > 1 trains lock-free in parallel (Hogwild), faster but not
 * reproducible.
 *
 * A viewer drives it like this (nothing here prints):
 *   w2v_corpus_new(&c); corpus_load(c, text, len, CORPUS_AUTO, TOKENIZER_WORD, &info);
 *   w2v_corpus_finish(c, p.min_count); w2v_model_init(&m, c, &p);
 *   a = w2v_lookup(&m, "爱", 3); b = w2v_lookup(&m, "喜欢", 6);   (-1: not in the vocabulary)
 *   each frame: w2v_step(&m, words_per_frame, &pr);  pr.loss -> the loss curve,
 *               w2v_cosine(&m, a, b) -> the similarity curve,
 *               w2v_vectors_view(&m, &v); vectors_neighbors(&v, a, 8, hits) -> neighbours,
 *               pca_project2(m.vec, n_top, m.dim, xy, &res) -> the map of the n_top most
 *               frequent words (rows are ranked by frequency);
 *   pause: stop calling w2v_step; reset: w2v_model_reset(&m); done: pr.done. */
#ifndef TF_WORD2VEC_H
#define TF_WORD2VEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "status.h"
#include "vectors.h"

/* ---------------------------------------------------------------------------------------------
 * Corpus: sentences of words, as ids into a frequency-ranked vocabulary */

typedef struct w2v_corpus w2v_corpus;

tf_status w2v_corpus_new(w2v_corpus **out);
void w2v_corpus_free(w2v_corpus *c);
/* Append one sentence of n words, word i spelled words[i][0..lens[i]). Empty sentences are
 * ignored. Words are counted; ids are assigned by w2v_corpus_finish. */
tf_status w2v_corpus_add(w2v_corpus *c, const char *const *words, const size_t *lens, size_t n);
/* Keep the words seen at least min_count times, rank them by frequency (ties: first seen
 * first), and drop the others from the sentences. TF_ERR_EMPTY when no word is kept. */
tf_status w2v_corpus_finish(w2v_corpus *c, int min_count);
uint64_t w2v_corpus_tokens(const w2v_corpus *c);     /* kept tokens, after finish */
uint64_t w2v_corpus_raw_tokens(const w2v_corpus *c); /* all tokens added */
size_t w2v_corpus_sentences(const w2v_corpus *c);
uint32_t w2v_corpus_vocab(const w2v_corpus *c);

/* ---------------------------------------------------------------------------------------------
 * Training */

typedef struct {
    int dim;          /* vector size d (default 50) */
    int window;       /* maximum context distance (5) */
    int negative;     /* negatives per positive pair, K (5) */
    int min_count;    /* words seen fewer times are dropped (2) */
    double sample;    /* subsampling threshold s (1e-3; 0 disables) */
    double alpha;     /* initial learning rate (0.025) */
    double min_alpha; /* final learning rate (0.0001) */
    int epochs;       /* passes over the corpus (5) */
    int threads;      /* 1: reproducible; more: parallel, not reproducible */
    uint64_t seed;
} w2v_params;

void w2v_params_defaults(w2v_params *p);
/* TF_ERR_RANGE when a value is out of its range (see w2v_params_check_msg). */
tf_status w2v_params_check(const w2v_params *p, const char **why);

/* Where training stands; filled by w2v_step and passed to the callback. */
typedef struct {
    int epoch;            /* 0-based epoch now being trained (== epochs when done) */
    uint64_t words_done;  /* corpus tokens passed over so far, all epochs */
    uint64_t words_total; /* epochs x corpus tokens */
    uint64_t steps;       /* w2v_step calls so far */
    double alpha;         /* learning rate now */
    double loss;          /* mean SGNS loss per (word, context) pair since the last step */
    uint64_t pairs;       /* pairs trained since the last step */
    bool done;
} w2v_progress;

typedef struct {
    w2v_params p;
    uint32_t V; /* words in the vocabulary, ranked by frequency */
    int dim;
    char **words;     /* (V) NUL-terminated, into one block */
    uint64_t *counts; /* (V) */
    float *in;        /* (V, dim) input vectors v */
    float *out;       /* (V, dim) output vectors u (start at zero) */
    float *vec;       /* (V, dim) the word vectors v - mean(v): the learned embedding
                         (refreshed by every step and reset: O(V dim), a small share of a
                         step's O(words window negative dim)) */
    double *mean;     /* (dim) the mean of the V input vectors */
    int32_t *table;   /* (table_size) unigram^0.75 table for negatives */
    uint32_t table_size;
    float *keep; /* (V) probability of keeping a token, subsampling */
    const w2v_corpus *corpus;
    /* training position: the next sentence of the current epoch */
    int epoch;
    size_t sentence;
    uint64_t words_done;
    uint64_t rng; /* the single-thread generator state */
    uint64_t steps;
    uint32_t *index; /* (hash_cap) word lookup: id + 1, 0 empty */
    uint32_t hash_cap;
} w2v_model;

/* Build a model over a finished corpus: vocabulary, random input vectors (uniform in
 * +-0.5/dim, keyed by (seed, id) so they do not depend on the order of anything), zero output
 * vectors, the negative table. The corpus must outlive the model. */
tf_status w2v_model_init(w2v_model *m, const w2v_corpus *c, const w2v_params *p);
void w2v_model_free(w2v_model *m);
/* Back to the random start (same seed): for a viewer's reset key. */
void w2v_model_reset(w2v_model *m);

/* Train on at least max_words more corpus tokens (whole sentences; fewer at the end) and fill
 * *pr. Returns TF_OK, or TF_ERR_NOMEM when a thread could not be started. */
tf_status w2v_step(w2v_model *m, uint64_t max_words, w2v_progress *pr);

/* Called after each step; return false to stop early. */
typedef bool (*w2v_callback)(const w2v_progress *pr, void *user);
/* Train to the end in steps of step_words, calling cb (may be NULL) after each. */
tf_status w2v_train(w2v_model *m, uint64_t step_words, w2v_callback cb, void *user);

/* ---------------------------------------------------------------------------------------------
 * One SGNS update, exposed so that the gradient can be checked by hand.
 *
 * v: input vector (dim), updated; u: the output vectors of the target (label 1) and the
 * negatives (label 0), targets[0..1+K), rows of `out` (dim each), updated. With g_i =
 * alpha (label_i - s(u_i . v)):  u_i += g_i v (with the old v),  v += sum_i g_i u_i (old u_i).
 * Returns the loss -log s(u_0.v) - sum_k log s(-u_k.v) before the update. work: (dim). */
double w2v_sgns_update(float *v, float *out, const int32_t *targets, int n_targets, int dim,
                       float alpha, float *work);

/* ---------------------------------------------------------------------------------------------
 * Reading the vectors */

/* Id of a word, -1 when it is not in the vocabulary. */
int32_t w2v_lookup(const w2v_model *m, const char *word, size_t len);
/* Cosine similarity of the word vectors (vec) of two ids; 0 when one has zero length. */
double w2v_cosine(const w2v_model *m, int32_t a, int32_t b);
/* The baseline a watched pair is compared with: the mean and the (population) standard deviation
 * of the cosine over every pair of the n most frequent words (n clamped to V; both 0 below 2).
 * Words of one kind are close and most other pairs near 0 (the common mean is removed, see
 * above): a pair is similar when it stands above this spread, not merely above 0. */
void w2v_cosine_spread(const w2v_model *m, uint32_t n, double *mean, double *sd);
/* A view of the current word vectors (vec) as a table (not owned: valid while m lives and is not
 * reset; it reads the live numbers, so neighbours and PCA follow training). */
void w2v_vectors_view(const w2v_model *m, tf_vectors *v);

#endif
