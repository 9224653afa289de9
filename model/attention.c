/* attention.c — single-head self-attention and the order experiment. */
#include "attention.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "posenc.h"
#include "rng.h"

const char *attention_mode_name(attn_mode m)
{
    static const char *const names[ATTN_MODE_COUNT] = {"without_pe", "with_pe", "with_rope"};
    return (unsigned)m < ATTN_MODE_COUNT ? names[m] : "unknown";
}

const char *attention_norm_name(attn_norm n)
{
    static const char *const names[ATTN_NORM_COUNT] = {"none", "layernorm"};
    return (unsigned)n < ATTN_NORM_COUNT ? names[n] : "unknown";
}

tf_attn_cfg attention_head_cfg(uint64_t seed, int d, double base, rope_style style, long pos0)
{
    return (tf_attn_cfg){.seed = seed,
                         .d = d,
                         .base = base,
                         .style = style,
                         .pos0 = pos0,
                         .norm = ATTN_NORM_LAYER,
                         .emb_scale = sqrt((double)d)};
}

void attention_project(const tf_attn_cfg *c, uint32_t stream, const double *x, size_t T,
                       double *out)
{
    size_t d = (size_t)c->d;
    float *wrow = malloc(d * sizeof *wrow);
    memset(out, 0, T * d * sizeof *out);
    if (!wrow)
        return;
    float scale = (float)sqrt(3.0 / c->d);
    /* out[t][:] = sum_i x[t][i] W[i][:], walking W one generated row at a time */
    for (size_t i = 0; i < d; i++) {
        rng_fill_uniform(rng_row_key(c->seed, stream, i), d, scale, wrow);
        for (size_t t = 0; t < T; t++) {
            double xi = x[t * d + i];
            double *o = out + t * d;
            for (size_t j = 0; j < d; j++)
                o[j] += xi * wrow[j];
        }
    }
    free(wrow);
}

void attention_normalize(const tf_attn_cfg *c, const double *x, size_t T, double *out)
{
    size_t d = (size_t)c->d;
    if (out != x)
        memcpy(out, x, T * d * sizeof *out);
    if (c->norm != ATTN_NORM_LAYER)
        return;
    /* LayerNorm(x) = (x - mean) / sqrt(var + eps), var the population variance (GPT-2) */
    for (size_t t = 0; t < T; t++) {
        double *row = out + t * d, mean = 0.0, var = 0.0;
        for (size_t j = 0; j < d; j++)
            mean += row[j];
        mean /= (double)d;
        for (size_t j = 0; j < d; j++)
            var += (row[j] - mean) * (row[j] - mean);
        double inv = 1.0 / sqrt(var / (double)d + ATTN_NORM_EPS);
        for (size_t j = 0; j < d; j++)
            row[j] = (row[j] - mean) * inv;
    }
}

/* Q, K, V (n, d) of the rows of x: normalised (in place: x is overwritten), projected, and,
 * with rope, q and k rotated; row r sits at position pos0 + (r mod T), so several sentences of
 * T tokens can go in one call. */
static void qkv(const tf_attn_cfg *c, double *x, size_t n, size_t T, int rope, double *Q, double *K,
                double *V)
{
    size_t d = (size_t)c->d;
    attention_normalize(c, x, n, x);
    attention_project(c, RNG_STREAM_WQ, x, n, Q);
    attention_project(c, RNG_STREAM_WK, x, n, K);
    attention_project(c, RNG_STREAM_WV, x, n, V);
    /* RoPE rotates q and k by their positions; v is untouched */
    if (rope)
        for (size_t r = 0; r < n; r++) {
            double pos = (double)(c->pos0 + (long)(r % T));
            rope_rotate(Q + r * d, c->d, c->base, pos, c->style, Q + r * d);
            rope_rotate(K + r * d, c->d, c->base, pos, c->style, K + r * d);
        }
}

/* Scores S (T, T) = Q K^T / sqrt(d), A = row softmax of S, Z (T, d) = A V; A and Z may be NULL.
 * *score_std (if not NULL) receives sqrt(mean over rows of the variance of the row's scores):
 * the spread that softmax sees (a constant added to a row changes nothing). */
static tf_status attend(size_t d, const double *Q, const double *K, const double *V, size_t T,
                        double *A, double *Z, double *score_std)
{
    double *S = malloc(T * T * sizeof *S);
    if (!S)
        return TF_ERR_NOMEM;
    double inv = 1.0 / sqrt((double)d), spread = 0.0;
    for (size_t t = 0; t < T; t++) {
        double mx = -INFINITY, sum = 0.0, mean = 0.0, var = 0.0;
        for (size_t u = 0; u < T; u++) {
            double acc = 0.0;
            for (size_t j = 0; j < d; j++)
                acc += Q[t * d + j] * K[u * d + j];
            S[t * T + u] = acc * inv;
            mx = fmax(mx, S[t * T + u]);
            mean += S[t * T + u];
        }
        mean /= (double)T;
        for (size_t u = 0; u < T; u++)
            var += (S[t * T + u] - mean) * (S[t * T + u] - mean);
        spread += var / (double)T;
        /* a numerically stable softmax */
        for (size_t u = 0; u < T; u++)
            sum += S[t * T + u] = exp(S[t * T + u] - mx);
        for (size_t u = 0; u < T; u++)
            S[t * T + u] /= sum;
    }
    if (score_std)
        *score_std = sqrt(spread / (double)T);
    if (Z) {
        memset(Z, 0, T * d * sizeof *Z);
        for (size_t t = 0; t < T; t++)
            for (size_t u = 0; u < T; u++) {
                double a = S[t * T + u];
                for (size_t j = 0; j < d; j++)
                    Z[t * d + j] += a * V[u * d + j];
            }
    }
    if (A)
        memcpy(A, S, T * T * sizeof *A);
    free(S);
    return TF_OK;
}

tf_status attention_forward(const tf_attn_cfg *c, const double *x, size_t T, int rope, double *A,
                            double *Z)
{
    size_t d = (size_t)c->d;
    double *mem = malloc(4 * T * d * sizeof *mem); /* x's copy to normalise, Q, K, V (T, d) */
    if (!mem)
        return TF_ERR_NOMEM;
    double *h = mem, *Q = mem + T * d, *K = mem + 2 * T * d, *V = mem + 3 * T * d;
    memcpy(h, x, T * d * sizeof *h);
    qkv(c, h, T, T, rope, Q, K, V);
    tf_status st = attend(d, Q, K, V, T, A, Z, NULL);
    free(mem);
    return st;
}

/* x (T, d) = s * emb rows in the given order, plus PE at each position when asked. */
static void build_input(const tf_attn_cfg *c, const double *emb, const size_t *order, size_t T,
                        int add_pe, double *x)
{
    size_t d = (size_t)c->d;
    for (size_t t = 0; t < T; t++) {
        const double *e = emb + (order ? order[t] : t) * d;
        double *row = x + t * d;
        if (add_pe)
            posenc_row((double)(c->pos0 + (long)t), c->d, c->base, row);
        else
            memset(row, 0, d * sizeof *row);
        for (size_t j = 0; j < d; j++)
            row[j] += c->emb_scale * e[j];
    }
}

static tf_status order_alloc(tf_order_result *out, size_t T, size_t d)
{
    memset(out, 0, sizeof *out);
    out->A_a = malloc(T * T * sizeof(double));
    out->A_b = malloc(T * T * sizeof(double));
    out->Z_a = malloc(T * d * sizeof(double));
    out->Z_b = malloc(T * d * sizeof(double));
    out->token_diff = malloc(T * sizeof(double));
    if (!out->A_a || !out->A_b || !out->Z_a || !out->Z_b || !out->token_diff) {
        attention_order_free(out);
        return TF_ERR_NOMEM;
    }
    return TF_OK;
}

/* Attention within sentence a (rows 0..T of Q, K, V) and within b (rows T..2T), then the
 * comparison of every token of b with the same token of a. */
static tf_status order_attend(size_t d, const double *Q, const double *K, const double *V,
                              const size_t *perm, size_t T, tf_order_result *out)
{
    tf_status st = attend(d, Q, K, V, T, out->A_a, out->Z_a, &out->score_std);
    if (st == TF_OK)
        st = attend(d, Q + T * d, K + T * d, V + T * d, T, out->A_b, out->Z_b, NULL);
    if (st != TF_OK)
        return st;

    /* 1. each token of b against the same token of a */
    out->max_token_diff = 0.0;
    for (size_t t = 0; t < T; t++) {
        double m = 0.0;
        for (size_t j = 0; j < d; j++)
            m = fmax(m, fabs(out->Z_b[t * d + j] - out->Z_a[perm[t] * d + j]));
        out->token_diff[t] = m;
        out->max_token_diff = fmax(out->max_token_diff, m);
    }
    out->pooled_diff = 0.0;
    for (size_t j = 0; j < d; j++) {
        double ma = 0.0, mb = 0.0;
        for (size_t t = 0; t < T; t++) {
            ma += out->Z_a[t * d + j];
            mb += out->Z_b[t * d + j];
        }
        out->pooled_diff = fmax(out->pooled_diff, fabs(ma - mb) / (double)T);
    }

    /* 2. the sizes that make the numbers readable: the change relative to the outputs, and
     *    how far each row of weights is from uniform */
    out->max_abs_output = 0.0;
    for (size_t i = 0; i < T * d; i++)
        out->max_abs_output = fmax(out->max_abs_output, fabs(out->Z_a[i]));
    out->relative_diff =
        out->max_abs_output > 0.0 ? out->max_token_diff / out->max_abs_output : 0.0;
    out->min_row_range = INFINITY;
    for (size_t t = 0; t < T; t++) {
        double lo = INFINITY, hi = -INFINITY;
        for (size_t u = 0; u < T; u++) {
            lo = fmin(lo, out->A_a[t * T + u]);
            hi = fmax(hi, out->A_a[t * T + u]);
        }
        out->min_row_range = fmin(out->min_row_range, hi - lo);
    }
    return TF_OK;
}

tf_status attention_order(const tf_attn_cfg *c, attn_mode mode, const double *emb,
                          const size_t *perm, size_t T, tf_order_result *out)
{
    size_t d = (size_t)c->d;
    /* the inputs of a and b stacked (2T, d), then their Q, K, V (2T, d) each */
    double *mem = malloc(8 * T * d * sizeof *mem);
    if (!mem || order_alloc(out, T, d) != TF_OK) {
        free(mem);
        memset(out, 0, sizeof *out);
        return TF_ERR_NOMEM;
    }
    double *x = mem, *Q = mem + 2 * T * d, *K = mem + 4 * T * d, *V = mem + 6 * T * d;
    int add_pe = mode == ATTN_WITH_PE, rope = mode == ATTN_WITH_ROPE;
    /* both sentences through the same head: each row is normalised and projected on its own,
     * so stacking them only saves generating W_Q, W_K, W_V twice */
    build_input(c, emb, NULL, T, add_pe, x);
    build_input(c, emb, perm, T, add_pe, x + T * d);
    qkv(c, x, 2 * T, T, rope, Q, K, V);
    tf_status st = order_attend(d, Q, K, V, perm, T, out);
    free(mem);
    if (st != TF_OK)
        attention_order_free(out);
    return st;
}

tf_status attention_order_all(const tf_attn_cfg *c, const double *emb, const size_t *perm, size_t T,
                              tf_order_result out[ATTN_MODE_COUNT])
{
    size_t d = (size_t)c->d;
    memset(out, 0, ATTN_MODE_COUNT * sizeof *out);
    /* rows: a and b without positions, then a and b with PE (4T, d); their Q, K, V */
    double *mem = malloc(16 * T * d * sizeof *mem);
    tf_status st = mem ? TF_OK : TF_ERR_NOMEM;
    for (int m = 0; m < ATTN_MODE_COUNT && st == TF_OK; m++)
        st = order_alloc(&out[m], T, d);
    if (st != TF_OK) {
        free(mem);
        for (int m = 0; m < ATTN_MODE_COUNT; m++)
            attention_order_free(&out[m]);
        return st;
    }
    double *x = mem, *Q = mem + 4 * T * d, *K = mem + 8 * T * d, *V = mem + 12 * T * d;
    build_input(c, emb, NULL, T, 0, x);
    build_input(c, emb, perm, T, 0, x + T * d);
    build_input(c, emb, NULL, T, 1, x + 2 * T * d);
    build_input(c, emb, perm, T, 1, x + 3 * T * d);
    /* 1. one pass over W_Q, W_K, W_V for all four; each row is computed on its own, so every
     *    number is the one attention_order gives for its mode */
    qkv(c, x, 4 * T, T, 0, Q, K, V);
    /* 2. without positions, and with PE */
    st = order_attend(d, Q, K, V, perm, T, &out[ATTN_NO_PE]);
    if (st == TF_OK)
        st = order_attend(d, Q + 2 * T * d, K + 2 * T * d, V + 2 * T * d, perm, T,
                          &out[ATTN_WITH_PE]);
    /* 3. RoPE: the inputs without positions, q and k rotated by position, v as it was */
    if (st == TF_OK) {
        for (size_t r = 0; r < 2 * T; r++) {
            double pos = (double)(c->pos0 + (long)(r % T));
            rope_rotate(Q + r * d, c->d, c->base, pos, c->style, Q + r * d);
            rope_rotate(K + r * d, c->d, c->base, pos, c->style, K + r * d);
        }
        st = order_attend(d, Q, K, V, perm, T, &out[ATTN_WITH_ROPE]);
    }
    free(mem);
    if (st != TF_OK)
        for (int m = 0; m < ATTN_MODE_COUNT; m++)
            attention_order_free(&out[m]);
    return st;
}

bool attention_order_is_zero(const tf_order_result *r)
{
    return r->relative_diff < ATTN_ROUNDING_REL;
}

void attention_order_free(tf_order_result *r)
{
    free(r->A_a);
    free(r->A_b);
    free(r->Z_a);
    free(r->Z_b);
    free(r->token_diff);
    memset(r, 0, sizeof *r);
}
