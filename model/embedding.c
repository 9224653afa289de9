/* embedding.c — rows of W_E on demand, and the one-hot product computed the long way. */
#include "embedding.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "isa.h"
#include "rng.h"
#include "tf_limits.h"

tf_status embedding_init(tf_embedding *e, uint32_t vocab_size, int d_model, uint64_t seed)
{
    if (vocab_size < TF_MIN_VOCAB || vocab_size > TF_MAX_VOCAB)
        return TF_ERR_VOCAB;
    if (d_model < TF_MIN_DMODEL || d_model > TF_MAX_DMODEL || d_model % 2)
        return TF_ERR_DMODEL;
    memset(e, 0, sizeof *e);
    e->vocab_size = vocab_size;
    e->d_model = d_model;
    e->seed = seed;
    e->init_scale = (float)sqrt(3.0 / d_model);
    return TF_OK;
}

void embedding_free(tf_embedding *e)
{
    free(e->set_ids);
    free(e->set_rows);
    e->set_ids = NULL;
    e->set_rows = NULL;
    e->n_set = 0;
}

/* Index of k among the set rows, or -1 (binary search over the ascending ids). */
static long find_set(const tf_embedding *e, int32_t k)
{
    size_t lo = 0, hi = e->n_set;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (e->set_ids[mid] < k)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < e->n_set && e->set_ids[lo] == k ? (long)lo : -1;
}

bool embedding_row_is_set(const tf_embedding *e, int32_t k) { return find_set(e, k) >= 0; }

typedef struct {
    int32_t id;
    size_t src; /* position in the caller's list: the first of equal ids wins */
} id_pos;

static int by_id(const void *pa, const void *pb)
{
    const id_pos *a = pa, *b = pb;
    if (a->id != b->id)
        return a->id < b->id ? -1 : 1;
    return a->src < b->src ? -1 : a->src > b->src;
}

tf_status embedding_set_rows(tf_embedding *e, const int32_t *ids, const float *rows, size_t n)
{
    size_t d = (size_t)e->d_model;
    for (size_t i = 0; i < n; i++)
        if (ids[i] < 0 || (uint32_t)ids[i] >= e->vocab_size)
            return TF_ERR_RANGE;
    id_pos *order = malloc((n ? n : 1) * sizeof *order);
    int32_t *nid = malloc((n ? n : 1) * sizeof *nid);
    float *nrows = malloc((n ? n : 1) * d * sizeof *nrows);
    if (!order || !nid || !nrows) {
        free(order), free(nid), free(nrows);
        return TF_ERR_NOMEM;
    }
    for (size_t i = 0; i < n; i++)
        order[i] = (id_pos){ids[i], i};
    qsort(order, n, sizeof *order, by_id);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (m && nid[m - 1] == order[i].id)
            continue;
        nid[m] = order[i].id;
        memcpy(nrows + m * d, rows + order[i].src * d, d * sizeof *nrows);
        m++;
    }
    free(order);
    embedding_free(e);
    e->set_ids = nid;
    e->set_rows = nrows;
    e->n_set = m;
    return TF_OK;
}

/* Row k with the generator variant isa: the trained/loaded row when set, else the random one. */
static void row_isa(const tf_embedding *e, int32_t k, tf_isa isa, float *out)
{
    long s = e->n_set ? find_set(e, k) : -1;
    if (s >= 0) {
        memcpy(out, e->set_rows + (size_t)s * e->d_model, (size_t)e->d_model * sizeof *out);
        return;
    }
    rng_fill_uniform_isa(isa, rng_row_key(e->seed, RNG_STREAM_EMBEDDING, (uint64_t)k),
                         (size_t)e->d_model, e->init_scale, out);
}

void embedding_row(const tf_embedding *e, int32_t k, float *out)
{
    row_isa(e, k, tf_isa_best(), out);
}

/* out[t][:] += onehot[t] * row[:] for every token t — every term, zeros included. */
static inline __attribute__((always_inline)) void
accumulate_body(size_t n, size_t d, const float *restrict onehot, const float *restrict row,
                float *restrict out)
{
    for (size_t t = 0; t < n; t++) {
        float w = onehot[t];
        float *restrict o = out + t * d;
        TF_SIMD
        for (size_t j = 0; j < d; j++)
            o[j] += w * row[j];
    }
}

static void accumulate_default(size_t n, size_t d, const float *onehot, const float *row,
                               float *out)
{
    accumulate_body(n, d, onehot, row, out);
}

#if TF_ISA_X86
TF_TARGET_AVX2 static void accumulate_avx2(size_t n, size_t d, const float *onehot,
                                           const float *row, float *out)
{
    accumulate_body(n, d, onehot, row, out);
}

TF_TARGET_AVX512 static void accumulate_avx512(size_t n, size_t d, const float *onehot,
                                               const float *row, float *out)
{
    accumulate_body(n, d, onehot, row, out);
}
#endif

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
    /* the variant is chosen once for all V rows; all variants give the same bits (no FMA) */
    tf_isa isa = tf_isa_best();
    void (*accumulate)(size_t, size_t, const float *, const float *, float *) =
        accumulate_default;
#if TF_ISA_X86
    if (isa == TF_ISA_AVX512)
        accumulate = accumulate_avx512;
    else if (isa == TF_ISA_AVX2)
        accumulate = accumulate_avx2;
#endif
    memset(out, 0, n * d * sizeof *out);
    for (uint32_t v = 0; v < e->vocab_size; v++) {
        row_isa(e, (int32_t)v, isa, row); /* row v of W_E, as embedding_row makes it */
        for (size_t t = 0; t < n; t++)
            onehot[t] = ids[t] == (int32_t)v ? 1.0f : 0.0f;
        accumulate(n, d, onehot, row, out);
    }
    free(row);
    free(onehot);
    return TF_OK;
}

double embedding_params(const tf_embedding *e) { return (double)e->vocab_size * e->d_model; }
