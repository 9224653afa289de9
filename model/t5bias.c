/* t5bias.c — T5's relative position buckets and their bias table (t5bias.h). */
#include "t5bias.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"
#include "tf_limits.h"

void t5_buckets_defaults(t5_buckets_cfg *c)
{
    c->num_buckets = T5_DEFAULT_BUCKETS;
    c->max_distance = T5_DEFAULT_MAX_DISTANCE;
    c->bidirectional = true;
}

long t5_buckets_min_distance(const t5_buckets_cfg *c)
{
    return (c->bidirectional ? c->num_buckets / 2 : c->num_buckets) / 2 + 1;
}

tf_status t5_buckets_check(const t5_buckets_cfg *c)
{
    if (c->num_buckets < (c->bidirectional ? 4 : 2) || c->num_buckets > TF_MAX_T5_BUCKETS)
        return TF_ERR_RANGE;
    if (c->max_distance < t5_buckets_min_distance(c) || c->max_distance > TF_MAX_T5_DISTANCE)
        return TF_ERR_RANGE;
    return TF_OK;
}

int t5_bucket(const t5_buckets_cfg *c, long r)
{
    int nb = c->num_buckets, bucket = 0;
    long n;
    /* 1. the direction: its own half of the buckets (bidirectional), or the past only */
    if (c->bidirectional) {
        nb /= 2;
        if (r > 0)
            bucket += nb;
        n = r < 0 ? -r : r;
    } else {
        n = r < 0 ? -r : 0;
    }
    /* 2. small distances: one bucket each */
    int max_exact = nb / 2;
    if (n < max_exact)
        return bucket + (int)n;
    /* 3. large ones: logarithmic buckets up to max_distance, in float32 as the reference code */
    float x = logf((float)n / (float)max_exact) / (float)log((double)c->max_distance / max_exact) *
              (float)(nb - max_exact);
    long large = x >= (float)(nb - 1 - max_exact) ? nb - 1 : max_exact + (long)x;
    return bucket + (int)large;
}

tf_status t5_bucket_matrix(const t5_buckets_cfg *c, long n, int *out)
{
    tf_status st = t5_buckets_check(c);
    if (st != TF_OK)
        return st;
    if (n < 1 || n > TF_MAX_DOT_POSITIONS)
        return TF_ERR_POSITIONS;
    for (long i = 0; i < n; i++)
        for (long j = 0; j < n; j++)
            out[i * n + j] = t5_bucket(c, j - i);
    return TF_OK;
}

tf_status t5bias_init_random(t5_bias_table *t, int num_buckets, int heads, uint64_t seed)
{
    memset(t, 0, sizeof *t);
    if (num_buckets < 1 || num_buckets > TF_MAX_T5_BUCKETS || heads < 1 || heads > TF_MAX_HEADS)
        return TF_ERR_RANGE;
    t->b = malloc((size_t)num_buckets * heads * sizeof *t->b);
    if (!t->b)
        return TF_ERR_NOMEM;
    rng_fill_rows_f64(seed, RNG_STREAM_T5_BIAS, (size_t)num_buckets, (size_t)heads, 1.0f, t->b);
    t->num_buckets = num_buckets;
    t->heads = heads;
    return TF_OK;
}

tf_status t5bias_load(t5_bias_table *t, const char *path, const char *tensor, tensor_diag *diag)
{
    static const char *const suffixes[] = {"relative_attention_bias.weight", NULL};
    static const tensor_limits lim = {TF_MAX_T5_BUCKETS, TF_MAX_HEADS,
                                      (uint64_t)TF_MAX_T5_BUCKETS * TF_MAX_HEADS};
    memset(t, 0, sizeof *t);
    tf_tensor x;
    tf_status st = tensorfile_read(path, tensor, suffixes, &lim, &x, diag);
    if (st == TF_OK && (st = tensor_check_scale(&x, 1, diag)) != TF_OK)
        tensor_free(&x); /* biases added to scores: each |b| within TF_MAX_TABLE_NORM */
    if (st != TF_OK)
        return st;
    t->num_buckets = (int)x.rows;
    t->heads = (int)x.cols;
    t->b = x.data;
    t->name = x.name;
    t->trained = true;
    return TF_OK;
}

void t5bias_free(t5_bias_table *t)
{
    free(t->b);
    free(t->name);
    memset(t, 0, sizeof *t);
}

double t5bias_at(const t5_bias_table *t, const t5_buckets_cfg *c, int h, long k, scheme_mask mask)
{
    if (k < 0 && mask == SCHEME_MASK_CAUSAL)
        return -INFINITY;
    int bucket = t5_bucket(c, -k);
    if (bucket >= t->num_buckets || h < 0 || h >= t->heads)
        return NAN;
    return t->b[(size_t)bucket * t->heads + h];
}

tf_status t5bias_matrix(const t5_bias_table *t, const t5_buckets_cfg *c, long n, scheme_mask mask,
                        double *out)
{
    tf_status st = t5_buckets_check(c);
    if (st != TF_OK)
        return st;
    if (t->num_buckets != c->num_buckets || (unsigned)mask >= SCHEME_MASK_COUNT)
        return TF_ERR_RANGE;
    if (n < 1 || n > TF_MAX_DOT_POSITIONS)
        return TF_ERR_POSITIONS;
    if ((double)t->heads * n * n > TF_MAX_BIAS_VALUES)
        return TF_ERR_TOO_BIG;
    for (int h = 0; h < t->heads; h++)
        for (long i = 0; i < n; i++)
            for (long j = 0; j < n; j++)
                out[((size_t)h * n + i) * n + j] = t5bias_at(t, c, h, i - j, mask);
    return TF_OK;
}
