/* embedding.h — the embedding matrix W_E, shape (V, d_model) (claims C2-C4).
 *
 * W_E starts random: element (k, j) is uniform in [-sqrt(3/d), sqrt(3/d)), variance 1/d, so a
 * row has squared norm about 1. It is never stored: row k is produced on demand from a
 * counter-based generator keyed by (seed, k), so V x d = 100,000 x 4096 (409.6 M parameters,
 * 1.6 GB in fp32) costs nothing until a row is read. */
#ifndef TF_EMBEDDING_H
#define TF_EMBEDDING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "status.h"

typedef struct {
    uint32_t vocab_size; /* V */
    int d_model;         /* d */
    uint64_t seed;
    float init_scale;    /* sqrt(3/d): the half-width of the uniform init */
    /* trained or loaded rows, stored sparsely: they replace the random rows of these ids */
    size_t n_set;
    int32_t *set_ids;    /* (n_set) ascending */
    float *set_rows;     /* (n_set, d_model) */
} tf_embedding;

tf_status embedding_init(tf_embedding *e, uint32_t vocab_size, int d_model, uint64_t seed);
/* Free the trained/loaded rows (an embedding without them needs no free). */
void embedding_free(tf_embedding *e);

/* Row k of W_E into out (d_model): the trained/loaded row when there is one, else the random
 * row. Every reader of W_E goes through here. */
void embedding_row(const tf_embedding *e, int32_t k, float *out);

/* Replace the rows of ids[0..n) with rows (n, d_model), copied. An id given twice keeps its
 * first row; ids outside [0, V) give TF_ERR_RANGE and change nothing. Calling again replaces
 * the whole set. */
tf_status embedding_set_rows(tf_embedding *e, const int32_t *ids /* (n) */,
                             const float *rows /* (n, d_model) */, size_t n);
/* True when row k is trained/loaded rather than random. */
bool embedding_row_is_set(const tf_embedding *e, int32_t k);

/* The long way (C4): out(n, d) = onehot(ids) . W_E, a (n, V) x (V, d) product that walks all V
 * rows of W_E and accumulates onehot[t][v] * W_E[v][:] for every token t. */
tf_status embedding_onehot_product(const tf_embedding *e, const int32_t *ids /* (n) */, size_t n,
                                   float *out /* (n, d) */);

/* Parameter count V*d and its memory in bytes for fp32 (4 bytes) and bf16 (2 bytes). */
double embedding_params(const tf_embedding *e);

#endif
