/* t5bias.h — T5's relative position bias: a learned scalar per (distance bucket, head).
 *
 * Raffel et al., "Exploring the Limits of Transfer Learning with a Unified Text-to-Text
 * Transformer", JMLR 2020 (arXiv 1910.10683), section 2.1; after Shaw et al. 2018 (arXiv
 * 1803.02155). Nothing is added to the input: head h adds b[bucket(j - i)][h] to the score of
 * query i and key j, one table shared by all layers,
 *     score_h(i, j) = q_i . k_j + b[bucket(j - i)][h]            (T5 does not divide by sqrt(d))
 * The bucket of the relative position r = j - i (key minus query), exactly as the reference
 * code (mesh_tensorflow/transformer/transformer_layers.py _relative_position_bucket; Hugging
 * Face's T5Attention._relative_position_bucket, float32 logarithms included):
 *     bidirectional (encoder): B = num_buckets / 2; bucket = B if r > 0 else 0; n = |r|
 *     unidirectional (decoder): B = num_buckets;     bucket = 0;              n = max(-r, 0)
 *     e = B / 2 (max_exact)
 *     bucket += n                                                   if n < e
 *     bucket += min(e + (int)(log(n / e) / log(max_distance / e) * (B - e)), B - 1)  otherwise
 * With num_buckets 32, max_distance 128: distances 0..7 (bidirectional) or 0..15 get a bucket
 * each, larger ones share logarithmically wider buckets, and every distance from max_distance
 * on falls in the last bucket (with these numbers already from 91, bidirectional, or 113,
 * where the truncated logarithm reaches it) — so past it the bias is flat: T5 cannot tell
 * 200 from 2,000.
 * In the unidirectional form every future key (r > 0) falls in bucket 0, the bucket of r = 0;
 * the decoder's causal mask hides those keys anyway.
 *
 * A checkpoint stores the table as "...SelfAttention.relative_attention_bias.weight" of shape
 * (num_buckets, heads) (t5-small: 32 x 8), in block 0 of the encoder and of the decoder; without
 * a file the table is seeded random, uniform in [-1, 1): an untrained model's. */
#ifndef TF_T5BIAS_H
#define TF_T5BIAS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "scheme.h"
#include "status.h"
#include "tensorfile.h"

#define T5_DEFAULT_BUCKETS      32
#define T5_DEFAULT_MAX_DISTANCE 128

typedef struct {
    int num_buckets;    /* 32 */
    long max_distance;  /* 128 */
    bool bidirectional; /* true: the encoder; false: the decoder */
} t5_buckets_cfg;

/* 32 buckets, max distance 128, bidirectional. */
void t5_buckets_defaults(t5_buckets_cfg *c);
/* TF_ERR_RANGE unless num_buckets is in [2, TF_MAX_T5_BUCKETS] (at least 4 when bidirectional,
 * so each direction has an exact bucket) and max_distance is in (max_exact, TF_MAX_T5_DISTANCE],
 * where the reference formula is defined. */
tf_status t5_buckets_check(const t5_buckets_cfg *c);
/* The smallest max_distance num_buckets allow: one more than a direction's exact buckets. */
long t5_buckets_min_distance(const t5_buckets_cfg *c);

/* The bucket of relative position r = j - i (key minus query) for a checked configuration. */
int t5_bucket(const t5_buckets_cfg *c, long r);

/* out[i][j] = t5_bucket(c, j - i) for n positions; n in [1, TF_MAX_DOT_POSITIONS]. */
tf_status t5_bucket_matrix(const t5_buckets_cfg *c, long n, int *out /* (n, n) */);

typedef struct {
    int num_buckets, heads;
    double *b;    /* (num_buckets, heads), as in a T5 checkpoint */
    bool trained; /* false: seeded random */
    char *name;   /* a loaded table's tensor name (.safetensors), NULL otherwise */
} t5_bias_table;

/* The seeded table: b uniform in [-1, 1). num_buckets in [1, TF_MAX_T5_BUCKETS], heads in
 * [1, TF_MAX_HEADS] (TF_ERR_RANGE). */
tf_status t5bias_init_random(t5_bias_table *t, int num_buckets, int heads, uint64_t seed);
/* A trained table (num_buckets, heads) from an .npy or .safetensors file (tensorfile.h; tensor
 * NULL: the one tensor ending in "relative_attention_bias.weight", or the only 2-D one). */
tf_status t5bias_load(t5_bias_table *t, const char *path, const char *tensor, tensor_diag *diag);
void t5bias_free(t5_bias_table *t);

/* The bias of head h for query i and key j = i - k (k: the key k positions before the query),
 * -INFINITY where the causal mask hides the key (k < 0). The table must have
 * c->num_buckets rows (TF_ERR_RANGE from t5bias_matrix otherwise). */
double t5bias_at(const t5_bias_table *t, const t5_buckets_cfg *c, int h, long k, scheme_mask mask);

/* out[h][i][j] = t5bias_at(t, c, h, i - j, mask) for n positions; n in
 * [1, TF_MAX_DOT_POSITIONS], heads * n * n at most TF_MAX_BIAS_VALUES. */
tf_status t5bias_matrix(const t5_bias_table *t, const t5_buckets_cfg *c, long n, scheme_mask mask,
                        double *out /* (heads, n, n) */);

#endif
