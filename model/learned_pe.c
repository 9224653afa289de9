/* learned_pe.c — a learned absolute position table, seeded or read from a file. */
#include "learned_pe.h"

#include <math.h>
#include <pthread.h>
#include <stdbool.h>
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

/* Rows a pass over the offsets reads from the cache: about 256 KB of them */
static long block_rows(const tf_learned_pe *t) { return t->d < 8192 ? 32768 / t->d : 4; }

/* Work worth a second thread: some 16 million products */
#define TWO_THREADS_WORK (1L << 24)

/* fn(arg1) on a thread of its own beside fn(arg0) on this one (after it, here, when no thread
 * starts). */
static void two_threads(void *(*fn)(void *), void *arg0, void *arg1)
{
    pthread_t th;
    bool started = pthread_create(&th, NULL, fn, arg1) == 0;
    fn(arg0);
    if (started)
        pthread_join(th, NULL);
    else
        fn(arg1);
}

/* A share of the similarities at offsets (offset_similarities): k[0 .. n), into out. */
typedef struct {
    const tf_learned_pe *t;
    const double *inv;
    const long *k;
    long n;
    double *out;
} sim_job;

/* The similarity at each offset k[i] (learned_pe_offset_similarity), the rows' inverse norms
 * inv: a block of rows p at a time against the rows p + k of every offset, each offset's sum
 * still taken in the order of p (the same bits as one offset after the other), so that the
 * block is read from the cache rather than the memory once per offset. */
static void *offset_similarities(void *job)
{
    const sim_job *j = job;
    const tf_learned_pe *t = j->t;
    const double *inv = j->inv;
    size_t d = (size_t)t->d;
    long rows = t->n_pos, block = block_rows(t);
    for (long i = 0; i < j->n; i++)
        j->out[i] = 0.0;
    for (long p0 = 0; p0 < rows; p0 += block)
        for (long i = 0; i < j->n; i++) {
            long ki = labs(j->k[i]), end = p0 + block < rows - ki ? p0 + block : rows - ki;
            double acc = j->out[i], dots[4];
            long p = p0;
            for (; p + 3 < end; p += 4) { /* four rows at a time, added in order */
                la_dot4_x4(row(t, p), d, row(t, p + ki), d, d, dots);
                for (int m = 0; m < 4; m++)
                    acc += dots[m] * inv[p + m] * inv[p + m + ki];
            }
            for (; p < end; p++)
                acc += la_dot4(row(t, p), row(t, p + ki), d) * inv[p] * inv[p + ki];
            j->out[i] = acc;
        }
    for (long i = 0; i < j->n; i++)
        j->out[i] = labs(j->k[i]) >= rows ? NAN : j->out[i] / (double)(rows - labs(j->k[i]));
    return NULL;
}

/* offset_similarities on two threads when the work is large: the offsets split where the rows
 * they add are half of all (each offset's sum whole on one thread: the same bits) */
static void similarities_at(const tf_learned_pe *t, const double *inv, const long *k, long n,
                            double *out)
{
    long work = 0, half = 0, h = 0;
    for (long i = 0; i < n; i++)
        work += labs(k[i]) < t->n_pos ? t->n_pos - labs(k[i]) : 0;
    while (h < n && 2 * half < work)
        half += labs(k[h]) < t->n_pos ? t->n_pos - labs(k[h]) : 0, h++;
    sim_job a = {t, inv, k, h, out}, b = {t, inv, k + h, n - h, out + h};
    if (work * (long)t->d > TWO_THREADS_WORK)
        two_threads(offset_similarities, &a, &b);
    else
        offset_similarities(&(sim_job){t, inv, k, n, out});
}

tf_status learned_pe_offset_similarity(const tf_learned_pe *t, bool cosine, long k0, long n,
                                       double *out)
{
    if (n < 0 || n > 2L * TF_MAX_POSITIONS + 1)
        return TF_ERR_POSITIONS;
    long *k = malloc((size_t)(n > 0 ? n : 1) * sizeof *k);
    if (!k)
        return TF_ERR_NOMEM;
    for (long i = 0; i < n; i++)
        k[i] = k0 + i;
    tf_status st = learned_pe_offset_similarity_at(t, cosine, k, n, out);
    free(k);
    return st;
}

tf_status learned_pe_offset_similarity_at(const tf_learned_pe *t, bool cosine, const long *k,
                                          long n, double *out)
{
    double *inv = inverse_norms(t, cosine);
    if (!inv)
        return TF_ERR_NOMEM;
    similarities_at(t, inv, k, n, out);
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

/* Blocks first, first + every, ... of the Gram matrix of the n rows r times their inverse
 * norms iv: a block of rows a against every row b from a on, the block read from the cache; four
 * rows of the block at a time. Each entry is one thread's: two threads take every other block. */
typedef struct {
    const double *r, *iv;
    long n;
    size_t d;
    long block;
    double *out;
    long first, every;
} gram_job;

static void *gram_blocks(void *job)
{
    const gram_job *j = job;
    long n = j->n, block = j->block;
    size_t d = j->d;
    const double *r = j->r, *iv = j->iv;
    for (long a0 = j->first * block; a0 < n; a0 += j->every * block)
        for (long b = a0; b < n; b++)
            for (long a = a0; a < a0 + block && a <= b;) {
                double dots[4];
                int m = a + 3 < a0 + block && a + 3 <= b ? 4 : 1;
                if (m == 4)
                    la_dot4_x4(r + a * d, d, r + b * d, 0, d, dots);
                else
                    dots[0] = la_dot4(r + a * d, r + b * d, d);
                for (int i = 0; i < m; i++, a++)
                    j->out[a * n + b] = j->out[b * n + a] = dots[i] * iv[a] * iv[b];
            }
    return NULL;
}

tf_status learned_pe_gram(const tf_learned_pe *t, bool cosine, long p0, long n, double *out)
{
    if (n < 1 || n > TF_MAX_DOT_POSITIONS || p0 < 0 || p0 > t->n_pos || n > t->n_pos - p0)
        return TF_ERR_POSITIONS;
    double *inv = inverse_norms(t, cosine);
    if (!inv)
        return TF_ERR_NOMEM;
    gram_job a = {row(t, p0), inv + p0, n, (size_t)t->d, block_rows(t), out, 0, 2}, b = a;
    b.first = 1;
    if ((double)n * (double)n * t->d / 2 > TWO_THREADS_WORK)
        two_threads(gram_blocks, &a, &b);
    else
        gram_blocks(&(gram_job){row(t, p0), inv + p0, n, (size_t)t->d, block_rows(t), out, 0, 1});
    free(inv);
    return TF_OK;
}
