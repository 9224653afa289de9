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

tf_status attention_project(const tf_attn_cfg *c, uint32_t stream, const double *x, size_t T,
                            double *out)
{
    size_t d = (size_t)c->d;
    float *wrow = malloc(d * sizeof *wrow);
    if (!wrow)
        return TF_ERR_NOMEM;
    memset(out, 0, T * d * sizeof *out);
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
    return TF_OK;
}

tf_status attention_forward(const tf_attn_cfg *c, const double *x, size_t T, int rope, double *A,
                            double *Z)
{
    size_t d = (size_t)c->d;
    /* one allocation: Q, K, V (T, d) each, then the scores (T, T) */
    double *mem = malloc((3 * T * d + T * T) * sizeof *mem);
    if (!mem)
        return TF_ERR_NOMEM;
    double *Q = mem, *K = mem + T * d, *V = mem + 2 * T * d, *S = mem + 3 * T * d;

    /* 1. projections */
    tf_status st = attention_project(c, RNG_STREAM_WQ, x, T, Q);
    if (st == TF_OK)
        st = attention_project(c, RNG_STREAM_WK, x, T, K);
    if (st == TF_OK)
        st = attention_project(c, RNG_STREAM_WV, x, T, V);
    if (st != TF_OK) {
        free(mem);
        return st;
    }

    /* 2. RoPE rotates q and k by their positions; v is untouched */
    if (rope)
        for (size_t t = 0; t < T; t++) {
            double pos = (double)(c->pos0 + (long)t);
            rope_rotate(Q + t * d, c->d, c->base, pos, c->style, Q + t * d);
            rope_rotate(K + t * d, c->d, c->base, pos, c->style, K + t * d);
        }

    /* 3. scaled scores and a numerically stable row softmax */
    double inv = 1.0 / sqrt((double)d);
    for (size_t t = 0; t < T; t++) {
        double mx = -INFINITY, sum = 0.0;
        for (size_t u = 0; u < T; u++) {
            double acc = 0.0;
            for (size_t j = 0; j < d; j++)
                acc += Q[t * d + j] * K[u * d + j];
            S[t * T + u] = acc * inv;
            mx = fmax(mx, S[t * T + u]);
        }
        for (size_t u = 0; u < T; u++)
            sum += S[t * T + u] = exp(S[t * T + u] - mx);
        for (size_t u = 0; u < T; u++)
            S[t * T + u] /= sum;
    }

    /* 4. Z = A V */
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
    free(mem);
    return TF_OK;
}

/* x (T, d) = emb rows in the given order, plus PE at each position when asked. */
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
            row[j] += e[j];
    }
}

tf_status attention_order(const tf_attn_cfg *c, attn_mode mode, const double *emb,
                          const size_t *perm, size_t T, tf_order_result *out)
{
    size_t d = (size_t)c->d;
    memset(out, 0, sizeof *out);
    double *x = malloc(T * d * sizeof *x);
    out->A_a = malloc(T * T * sizeof(double));
    out->A_b = malloc(T * T * sizeof(double));
    out->Z_a = malloc(T * d * sizeof(double));
    out->Z_b = malloc(T * d * sizeof(double));
    out->token_diff = malloc(T * sizeof(double));
    if (!x || !out->A_a || !out->A_b || !out->Z_a || !out->Z_b || !out->token_diff) {
        free(x);
        attention_order_free(out);
        return TF_ERR_NOMEM;
    }
    int add_pe = mode == ATTN_WITH_PE, rope = mode == ATTN_WITH_ROPE;
    tf_status st;
    build_input(c, emb, NULL, T, add_pe, x);
    st = attention_forward(c, x, T, rope, out->A_a, out->Z_a);
    if (st == TF_OK) {
        build_input(c, emb, perm, T, add_pe, x);
        st = attention_forward(c, x, T, rope, out->A_b, out->Z_b);
    }
    free(x);
    if (st != TF_OK) {
        attention_order_free(out);
        return st;
    }
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
    return TF_OK;
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
