/* learned_pe.c — a learned absolute position table, seeded or read from a file. */
#include "learned_pe.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "linalg.h"
#include "rng.h"
#include "tf_limits.h"

const char *const learned_pe_tensor_suffixes[] = {"wpe.weight", "position_embeddings.weight",
                                                  "embed_positions.weight", NULL};

tf_status learned_pe_init_random(tf_learned_pe *t, long n_pos, int d, uint64_t seed)
{
    memset(t, 0, sizeof *t);
    if (n_pos < 1 || n_pos > TF_MAX_POSITIONS)
        return TF_ERR_POSITIONS;
    if (d < 1 || d > TF_MAX_DMODEL)
        return TF_ERR_DMODEL;
    if ((double)n_pos * d > TF_MAX_TABLE_VALUES)
        return TF_ERR_TOO_BIG;
    t->p = malloc((size_t)n_pos * (size_t)d * sizeof *t->p);
    if (!t->p)
        return TF_ERR_NOMEM;
    /* the same init as W_E (embedding.h): uniform in [-sqrt(3/d), sqrt(3/d)), variance 1/d */
    rng_fill_rows_f64(seed, RNG_STREAM_POSITION, (size_t)n_pos, (size_t)d, (float)sqrt(3.0 / d),
                      t->p);
    t->n_pos = n_pos;
    t->d = d;
    t->seed = seed;
    t->trained = false;
    t->dtype = TENSOR_F32;
    return TF_OK;
}

/* Take a tensor read from a file as the table, unless its values are too large to compute
 * with (tensor_check_scale). */
static tf_status adopt(tf_learned_pe *t, tf_tensor *x, tensor_diag *diag)
{
    tf_status st = tensor_check_scale(x, x->cols, diag);
    if (st != TF_OK) {
        tensor_free(x);
        return st;
    }
    t->n_pos = (long)x->rows;
    t->d = (int)x->cols;
    t->p = x->data;
    t->name = x->name;
    t->dtype = x->dtype;
    t->trained = true;
    memset(x, 0, sizeof *x);
    return TF_OK;
}

static const tensor_limits table_limits = {TF_MAX_POSITIONS, TF_MAX_DMODEL, TF_MAX_TABLE_VALUES};

tf_status learned_pe_load(tf_learned_pe *t, const char *path, const char *tensor, tensor_diag *diag)
{
    memset(t, 0, sizeof *t);
    tf_tensor x;
    tf_status st =
        tensorfile_read(path, tensor, learned_pe_tensor_suffixes, &table_limits, &x, diag);
    return st == TF_OK ? adopt(t, &x, diag) : st;
}

tf_status learned_pe_load_mem(tf_learned_pe *t, const uint8_t *buf, size_t len, const char *tensor,
                              tensor_diag *diag)
{
    memset(t, 0, sizeof *t);
    tf_tensor x;
    tf_status st = tensorfile_read_mem(buf, len, TENSORFILE_AUTO, tensor,
                                       learned_pe_tensor_suffixes, &table_limits, &x, diag);
    return st == TF_OK ? adopt(t, &x, diag) : st;
}

void learned_pe_free(tf_learned_pe *t)
{
    free(t->p);
    free(t->name);
    memset(t, 0, sizeof *t);
}

double learned_pe_rms_norm(const tf_learned_pe *t)
{
    if (!t->p || t->n_pos < 1 || t->d < 1)
        return 0.0;
    double sum = 0.0;
    for (long p = 0; p < t->n_pos; p++) {
        const double *v = t->p + (size_t)p * (size_t)t->d;
        sum += la_dot(v, v, (size_t)t->d);
    }
    return sqrt(sum / (double)t->n_pos);
}

tf_status learned_pe_rows(const tf_learned_pe *t, long p0, long n, double *out)
{
    if (p0 < 0 || n < 0 || p0 > t->n_pos || n > t->n_pos - p0)
        return TF_ERR_POSITIONS;
    memcpy(out, t->p + (size_t)p0 * t->d, (size_t)n * t->d * sizeof *out);
    return TF_OK;
}

/* Row p of the table. */
static const double *row(const tf_learned_pe *t, long p) { return t->p + (size_t)p * t->d; }

/* 1/|P[p]| for every row (0 for a zero row), or all 1 for raw dot products. */
static double *inverse_norms(const tf_learned_pe *t, bool cosine)
{
    double *inv = malloc((size_t)t->n_pos * sizeof *inv);
    if (!inv)
        return NULL;
    for (long p = 0; p < t->n_pos; p++) {
        double nrm = la_norm(row(t, p), (size_t)t->d);
        inv[p] = !cosine ? 1.0 : nrm > 0 ? 1.0 / nrm : 0.0;
    }
    return inv;
}

/* The similarity at offset k (learned_pe_offset_similarity), the rows' inverse norms inv. */
static double offset_similarity(const tf_learned_pe *t, const double *inv, long k)
{
    k = labs(k);
    if (k >= t->n_pos)
        return NAN;
    double acc = 0.0, dots[4];
    size_t d = (size_t)t->d;
    long p = 0;
    for (; p + 3 + k < t->n_pos; p += 4) { /* four rows at a time, added in order */
        la_dot4_x4(row(t, p), d, row(t, p + k), d, d, dots);
        for (int i = 0; i < 4; i++)
            acc += dots[i] * inv[p + i] * inv[p + i + k];
    }
    for (; p + k < t->n_pos; p++)
        acc += la_dot4(row(t, p), row(t, p + k), d) * inv[p] * inv[p + k];
    return acc / (double)(t->n_pos - k);
}

tf_status learned_pe_offset_similarity(const tf_learned_pe *t, bool cosine, long k0, long n,
                                       double *out)
{
    if (n < 0 || n > 2L * TF_MAX_POSITIONS + 1)
        return TF_ERR_POSITIONS;
    double *inv = inverse_norms(t, cosine);
    if (!inv)
        return TF_ERR_NOMEM;
    for (long i = 0; i < n; i++)
        out[i] = offset_similarity(t, inv, k0 + i);
    free(inv);
    return TF_OK;
}

tf_status learned_pe_offset_similarity_at(const tf_learned_pe *t, bool cosine, const long *k,
                                          long n, double *out)
{
    double *inv = inverse_norms(t, cosine);
    if (!inv)
        return TF_ERR_NOMEM;
    for (long i = 0; i < n; i++)
        out[i] = offset_similarity(t, inv, k[i]);
    free(inv);
    return TF_OK;
}

void learned_pe_offset_similarity_gram(const double *gram, long n, double *out)
{
    for (long k = 0; k < n; k++) {
        double acc = 0.0;
        for (long p = 0; p + k < n; p++) {
            double aa = gram[p * n + p], bb = gram[(p + k) * n + p + k];
            acc += la_cosine_of(gram[p * n + p + k], sqrt(aa), sqrt(bb));
        }
        out[k] = acc / (double)(n - k);
    }
}

tf_status learned_pe_gram(const tf_learned_pe *t, bool cosine, long p0, long n, double *out)
{
    if (n < 1 || n > TF_MAX_DOT_POSITIONS || p0 < 0 || p0 > t->n_pos || n > t->n_pos - p0)
        return TF_ERR_POSITIONS;
    double *inv = inverse_norms(t, cosine);
    if (!inv)
        return TF_ERR_NOMEM;
    size_t d = (size_t)t->d;
    for (long a = 0; a < n; a++)
        for (long b = a; b < n;) {
            double dots[4];
            int m = b + 4 <= n ? 4 : 1; /* four columns at a time */
            if (m == 4)
                la_dot4_x4(row(t, p0 + a), 0, row(t, p0 + b), d, d, dots);
            else
                dots[0] = la_dot4(row(t, p0 + a), row(t, p0 + b), d);
            for (int i = 0; i < m; i++, b++)
                out[a * n + b] = out[b * n + a] = dots[i] * inv[p0 + a] * inv[p0 + b];
        }
    free(inv);
    return TF_OK;
}
