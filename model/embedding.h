/* embedding.h — the embedding matrix W_E, shape (V, d_model) (claims C2-C4).
 *
 * W_E starts random: element (k, j) is uniform in [-sqrt(3/d), sqrt(3/d)), variance 1/d, so a
 * row has squared norm about 1. It is never stored: row k is produced on demand from a
 * counter-based generator keyed by (seed, k), so V x d = 100,000 x 4096 (409.6 M parameters,
 * 1.6 GB in fp32) costs nothing until a row is read. */
#ifndef TF_EMBEDDING_H
#define TF_EMBEDDING_H

#include <stddef.h>
#include <stdint.h>

#include "status.h"

typedef struct {
    uint32_t vocab_size; /* V */
    int d_model;         /* d */
    uint64_t seed;
    float init_scale;    /* sqrt(3/d): the half-width of the uniform init */
} tf_embedding;

tf_status embedding_init(tf_embedding *e, uint32_t vocab_size, int d_model, uint64_t seed);

/* Row k of W_E into out (d_model). */
void embedding_row(const tf_embedding *e, int32_t k, float *out);

/* The long way (C4): out(n, d) = onehot(ids) . W_E, a (n, V) x (V, d) product that walks all V
 * rows of W_E and accumulates onehot[t][v] * W_E[v][:] for every token t. */
tf_status embedding_onehot_product(const tf_embedding *e, const int32_t *ids /* (n) */, size_t n,
                                   float *out /* (n, d) */);

/* Parameter count V*d and its memory in bytes for fp32 (4 bytes) and bf16 (2 bytes). */
double embedding_params(const tf_embedding *e);

#endif
