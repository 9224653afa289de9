/* learn.h — word vectors learned while you watch or loaded from a file (C5), shared by --train,
 * the learned --print topics (neighbors, pca, training) and the explorer's view 8.
 *
 * A service, not a front-end: it reads and cuts a corpus (the built-in one or a file), sets up
 * skip-gram with negative sampling over it, names the pairs of words whose cosines show the
 * learning, and reads --vectors files. Its failures are said with err_say (a front-end that owns
 * the screen redirects them); it never draws. */
#ifndef TF_LEARN_H
#define TF_LEARN_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis.h"
#include "corpus.h"
#include "vectors.h"
#include "word2vec.h"

/* What to learn from. */
typedef struct {
    const char *corpus_path;   /* NULL: the built-in corpus */
    bool english;              /* the built-in corpus in English (learn_english), and the
                                  English words to follow (learn_words) */
    const tf_config *cfg;      /* the data directory and vocabulary for cutting into words */
    bool tokenizer_set;        /* --tokenizer was given: cut with cfg->tokenizer even when the
                                  text is already cut by spaces */
    w2v_params params;
} learn_request;

/* The words training is read by, in the language of a built-in corpus. */
#define LEARN_PAIRS 6
#define LEARN_PROBES 6
typedef struct {
    bool english;
    /* the pairs the summary of --train, --print training and view 8 follow: two that share
     * contexts in the corpus, ..., and one that should not (LEARN_CONTROL, the last) */
    const char *pairs[LEARN_PAIRS][2];
    /* the words --train lists the nearest neighbours of, one of each kind */
    const char *probes[LEARN_PROBES];
} learn_words;

/* A corpus and a model set up on it (not trained yet). */
typedef struct {
    w2v_corpus *corpus;
    w2v_model m;
    corpus_info info;
    const char *source;        /* where the vectors come from, for printed headers */
    const learn_words *words;  /* the pairs and probes of the corpus's language: the request's,
                                  or for a --corpus file the one whose first pair it holds */
    tf_status failed;          /* why learn_open failed (TF_OK: it did not), for a front-end
                                  that says it in its own words */
} learn_session;

/* The corpus compiled into the program (assets/corpus_zh.txt, or assets/corpus_en.txt when
 * english): UTF-8, one sentence a line, words separated by spaces. */
const char *learn_builtin_corpus(bool english, size_t *len);

/* Whether English words are learned: the language is English and the sentence (NULL: none
 * given) holds no Chinese, so no Chinese word shows that the user did not write. */
bool learn_english(bool lang_en, const char *sentence, size_t len);

/* Read the corpus r names, cut it into words and set up the model: 0, or the exit status after
 * saying what was wrong (1 a file, 2 bad input). A note goes to stderr when word mode was
 * unavailable and the corpus was cut into characters. */
int learn_open(learn_session *L, const learn_request *r);
void learn_close(learn_session *L);

/* The estimated time of training L with p, in nanoseconds of one core (the unit of
 * TF_MAX_WORK): per kept token and epoch, 150 ns plus 0.45 ns per multiply-add of the context
 * words (the window, or the average sentence when shorter) x (negatives + 1) x dim. Measured on
 * the built-in corpus; it overestimates wide windows (up to about 1.5x), never underestimates. */
double learn_work(const learn_session *L, const w2v_params *p);

/* The baseline the pairs are read against (the band of view 8 and of --train's summary): the
 * cosines of every pair of the LEARN_BAND_WORDS commonest words (w2v_cosine_spread). */
#define LEARN_BAND_WORDS 200
#define LEARN_CONTROL (LEARN_PAIRS - 1)
/* Word k (0 or 1) of pair i of L's words. */
const char *learn_pair(const learn_session *L, int i, int k);
/* The two ids of pair i in L's model; false when a word is not in its vocabulary. */
bool learn_pair_ids(const learn_session *L, int i, int32_t ids[2]);

/* --train: learn vectors on the corpus r names with a progress bar on stderr, print how the
 * watched pairs moved together on stdout, and write the vectors to output (NULL: none; word2vec
 * binary when it ends in .bin, else text). Returns the exit status. */
int learn_train_vectors(const learn_request *r, const char *output);

/* Read --vectors path (at most limit rows, 0: all) into *v: 0, or the exit status after saying
 * what was wrong. */
int learn_read_vectors(const char *path, long limit, tf_vectors *v);

#endif
