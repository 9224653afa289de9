/* embedding.c — rows of W_E on demand, and the one-hot product computed the long way. */
#include "embedding.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tf_limits.h"
#include "rng.h"

tf_status embedding_init(tf_embedding *e, uint32_t vocab_size, int d_model, uint64_t seed)
{
    if (vocab_size < TF_MIN_VOCAB || vocab_size > TF_MAX_VOCAB)
        return TF_ERR_VOCAB;
    if (d_model < TF_MIN_DMODEL || d_model > TF_MAX_DMODEL || d_model % 2)
        return TF_ERR_DMODEL;
    e->vocab_size = vocab_size;
    e->d_model = d_model;
    e->seed = seed;
    e->init_scale = (float)sqrt(3.0 / d_model);
    return TF_OK;
}

void embedding_row(const tf_embedding *e, int32_t k, float *out)
{
    rng_fill_uniform(rng_row_key(e->seed, RNG_STREAM_EMBEDDING, (uint64_t)k), (size_t)e->d_model,
                     e->init_scale, out);
}

tf_status embedding_onehot_product(const tf_embedding *e, const int32_t *ids, size_t n,
                                   float *out)
{
    size_t d = (size_t)e->d_model;
    float *row = malloc(d * sizeof *row);
    float *onehot = calloc(n, sizeof *onehot); /* column v of the (n, V) one-hot matrix */
    if (!row || !onehot) {
        free(row);
        free(onehot);
        return TF_ERR_NOMEM;
    }
    memset(out, 0, n * d * sizeof *out);
    for (uint32_t v = 0; v < e->vocab_size; v++) {
        embedding_row(e, (int32_t)v, row);
        for (size_t t = 0; t < n; t++)
            onehot[t] = ids[t] == (int32_t)v ? 1.0f : 0.0f;
        /* out[t][:] += onehot[t][v] * W_E[v][:] — every term, zeros included */
        for (size_t t = 0; t < n; t++) {
            float w = onehot[t];
            float *o = out + t * d;
            for (size_t j = 0; j < d; j++)
                o[j] += w * row[j];
        }
    }
    free(row);
    free(onehot);
    return TF_OK;
}

double embedding_params(const tf_embedding *e) { return (double)e->vocab_size * e->d_model; }
