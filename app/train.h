/* train.h — learned embeddings on the command line: --train, --vectors, --print neighbors.
 *
 * The TUI's learning view uses the same entry points for its corpus: train_corpus_load turns
 * the built-in corpus (or a file) into a finished w2v_corpus. */
#ifndef TF_TRAIN_H
#define TF_TRAIN_H

#include <stdbool.h>
#include <stddef.h>

#include "cli.h"
#include "corpus.h"
#include "vectors.h"
#include "word2vec.h"

/* The corpus compiled into the program (assets/corpus_zh.txt): UTF-8, one sentence a line,
 * words separated by spaces. */
const char *train_default_corpus(size_t *len);

/* Read `path` (NULL: the built-in corpus), cut it into words (`split`: CORPUS_AUTO uses spaces
 * when the text is already segmented, tokenizer `kind` otherwise) and finish it with min_count. On
 * failure prints one sentence and returns the exit status (1 I/O, 2 bad input); 0 on success. A
 * notice goes to stderr when word mode was unavailable and char mode was used. */
int train_corpus_load(const char *path, const tf_config *cfg, corpus_split split,
                      tokenizer_kind kind, int min_count, w2v_corpus **out, corpus_info *info);

/* --train: train on the corpus, report progress on stderr, a summary on stdout, and write the
 * vectors to -o (binary when the name ends in .bin). Returns the exit status. */
int train_run(tf_cli *cli);

/* --vectors FILE: load into cli->vectors with one clear sentence on failure. Exit status. */
int train_load_vectors(tf_cli *cli);

/* --print WHAT for learned vectors: true for neighbors, pca and training. */
bool train_handles(const char *what);
/* --print neighbors --word W: the nearest words by cosine; --print pca: the 2-D map of the most
 * frequent words; both from --vectors or (without it) from vectors trained on --corpus or the
 * built-in corpus. --print training: loss and watched cosines step by step. Exit status. */
int train_print(tf_cli *cli);

#endif
