/* vectors.h — a table of word vectors: the word2vec text and binary file formats, cosine
 * similarity and nearest neighbours.
 *
 * Text (.vec, as word2vec -binary 0, fastText and gensim write it):
 *     N dim\n
 *     word v1 v2 ... vdim\n          (a trailing space before \n is allowed, and \r\n)
 * Binary (word2vec -binary 1, gensim binary=True): the same header line, then per row the word,
 * one space, and dim little-endian float32 values; word2vec.c writes a \n after each row,
 * gensim does not, so whitespace before a word is skipped.
 *
 * Reading never trusts the header: rows are stored as they arrive (memory follows the file,
 * not the declared count), every number must be finite, every word valid UTF-8, and any
 * problem stops the read with the line (text) or byte offset (binary) in the diagnostic. */
#ifndef TF_VECTORS_H
#define TF_VECTORS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "status.h"

typedef struct {
    uint32_t n;   /* rows */
    int dim;      /* d */
    char **words; /* (n) NUL-terminated */
    float *data;  /* (n, dim) row-major */
    bool owned;   /* words, the word bytes and data belong to this value (vectors_free) */
    char *block;  /* the word bytes when owned */
} tf_vectors;

typedef enum { VECTORS_AUTO = 0, VECTORS_TEXT, VECTORS_BINARY } vectors_format;

/* Where a read failed: a sentence (static storage), and the 1-based line of a text file or the
 * byte offset of a binary one (both set when known, 0 otherwise). */
typedef struct {
    const char *what;
    unsigned long line;
    uint64_t offset;
    vectors_format format;
} vectors_diag;

/* Bounds on what a file may declare and what the reader keeps. */
#define VECTORS_MAX_ROWS       10000000u
#define VECTORS_MAX_WORD_BYTES 4096
#define VECTORS_MAX_FLOATS     (1ull << 30) /* 4 GiB of float32: above this, read fewer rows */

/* Read a file. fmt VECTORS_AUTO looks at the first row after the header: bytes that cannot
 * appear in a text row mean binary. max_rows > 0 reads only the first max_rows rows (files are
 * sorted by frequency, so these are the commonest words). TF_ERR_IO when the file cannot be
 * opened or read (errno kept), TF_ERR_FORMAT with *diag for malformed content, TF_ERR_NOMEM. */
tf_status vectors_read(const char *path, vectors_format fmt, uint32_t max_rows, tf_vectors *out,
                       vectors_diag *diag);
tf_status vectors_read_fp(FILE *fp, vectors_format fmt, uint32_t max_rows, tf_vectors *out,
                          vectors_diag *diag);
/* Write v to fp in the text or binary format (float32 at 9 significant digits in text, so a
 * round trip is exact). TF_ERR_IO on a write error. */
tf_status vectors_write(const tf_vectors *v, vectors_format fmt, FILE *fp);
void vectors_free(tf_vectors *v);
/* A copy of the first rows of src (max_rows 0: all) that owns its words and numbers, so it stays
 * valid while src changes or goes (the trained rows of a model still training). TF_ERR_NOMEM
 * (out is then empty). */
tf_status vectors_copy(const tf_vectors *src, uint32_t max_rows, tf_vectors *out);

/* Row of a word, -1 when absent (a linear scan: for one-off look-ups). */
int32_t vectors_find(const tf_vectors *v, const char *word, size_t len);
/* Cosine similarity of rows a and b; 0 when either has zero length. */
double vectors_cosine(const tf_vectors *v, uint32_t a, uint32_t b);

/* out(n, n): cosine similarity of every pair of rows of x (n, d); 0 where a row is zero. */
void vectors_cosine_matrix(const float *x /* (n, d) */, size_t n, int d, double *out /* (n, n) */);

typedef struct {
    uint32_t row;
    double cosine;
} vectors_hit;

/* The k rows most similar to row q (q itself excluded), best first, ties by lower row; returns
 * how many were written (min(k, n - 1)). */
size_t vectors_neighbors(const tf_vectors *v, uint32_t q, size_t k, vectors_hit *out);

#endif
