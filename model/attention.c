/* attention.c — single-head self-attention and the order experiment. */
#include "attention.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "alibi.h"
#include "posenc.h"
#include "rng.h"

const char *attention_mode_name(attn_mode m)
{
    static const char *const names[ATTN_MODE_COUNT] = {"without_pe", "with_pe", "with_rope"};
    return (unsigned)m < ATTN_MODE_COUNT ? names[m] : "unknown";
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

void attention_positions_init(attn_positions *p, tf_scheme s)
{
    *p = (attn_positions){.scheme = s,
                          .mask = SCHEME_MASK_SYMMETRIC,
                          .rope_attention_factor = 1.0,
                          .alibi_slope = 0.5};
}

static tf_status check_positions(const tf_attn_cfg *c, const attn_positions *p)
{
    if ((unsigned)p->scheme >= SCHEME_COUNT || (unsigned)p->mask >= SCHEME_MASK_COUNT)
        return TF_ERR_RANGE;
    if (p->scheme == SCHEME_T5 &&
        (!p->t5 || !p->t5->b || !p->buckets || t5_buckets_check(p->buckets) != TF_OK ||
         p->t5->num_buckets != p->buckets->num_buckets || p->t5_head < 0 ||
         p->t5_head >= p->t5->heads))
        return TF_ERR_RANGE;
    if (p->scheme == SCHEME_LEARNED && (!p->table || !p->table->p))
        return TF_ERR_RANGE;
    if (p->scheme == SCHEME_LEARNED && p->table->d != c->d)
        return TF_ERR_DMODEL;
    if (p->scheme == SCHEME_ROPE && !(isfinite(p->rope_attention_factor) &&
                                      p->rope_attention_factor > 0))
        return TF_ERR_RANGE;
    if (p->scheme == SCHEME_ALIBI && !(isfinite(p->alibi_slope) && p->alibi_slope >= 0))
        return TF_ERR_RANGE;
    return TF_OK;
}

/* What the scheme adds to the score of a query at distance k after its key (k = i - j). */
static double score_bias(const attn_positions *p, long k)
{
    if (k < 0 && p->mask == SCHEME_MASK_CAUSAL)
        return -INFINITY;
    if (p->scheme == SCHEME_ALIBI)
        return alibi_bias_at(p->alibi_slope, k, SCHEME_MASK_SYMMETRIC);
    if (p->scheme == SCHEME_T5)
        return t5bias_at(p->t5, p->buckets, p->t5_head, k, SCHEME_MASK_SYMMETRIC);
    return 0.0;
}

tf_status attention_forward_positions(const tf_attn_cfg *c, const attn_positions *p,
                                      const double *x, size_t T, double *A, double *Z)
{
    tf_status st = check_positions(c, p);
    if (st != TF_OK)
        return st;
    size_t d = (size_t)c->d;
    bool rope = p->scheme == SCHEME_ROPE;
    /* one allocation: Q, K, V (T, d) each, the scores (T, T), the RoPE frequencies (d/2) */
    double *mem = malloc((3 * T * d + T * T + d / 2) * sizeof *mem);
    if (!mem)
        return TF_ERR_NOMEM;
    double *Q = mem, *K = mem + T * d, *V = mem + 2 * T * d, *S = mem + 3 * T * d;
    double *theta = S + T * T;

    /* 1. projections */
    attention_project(c, RNG_STREAM_WQ, x, T, Q);
    attention_project(c, RNG_STREAM_WK, x, T, K);
    attention_project(c, RNG_STREAM_WV, x, T, V);

    /* 2. RoPE rotates q and k by their positions; v is untouched */
    if (rope) {
        if (p->rope_inv_freq)
            memcpy(theta, p->rope_inv_freq, d / 2 * sizeof *theta);
        else
            rope_thetas(c->d, c->base, theta);
        for (size_t t = 0; t < T; t++) {
            double pos = (double)(c->pos0 + (long)t);
            rope_rotate_thetas(Q + t * d, c->d, theta, pos, c->style, Q + t * d);
            rope_rotate_thetas(K + t * d, c->d, theta, pos, c->style, K + t * d);
        }
    }

    /* 3. scaled scores plus the scheme's bias (and the mask), and a numerically stable row
     * softmax; under the causal mask the key at the query's own position is always seen */
    double inv = 1.0 / sqrt((double)d);
    if (rope)
        inv *= p->rope_attention_factor * p->rope_attention_factor;
    for (size_t t = 0; t < T; t++) {
        double mx = -INFINITY, sum = 0.0;
        for (size_t u = 0; u < T; u++) {
            double acc = 0.0;
            for (size_t j = 0; j < d; j++)
                acc += Q[t * d + j] * K[u * d + j];
            S[t * T + u] = acc * inv + score_bias(p, (long)t - (long)u);
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

tf_status attention_forward(const tf_attn_cfg *c, const double *x, size_t T, int rope, double *A,
                            double *Z)
{
    attn_positions p;
    attention_positions_init(&p, rope ? SCHEME_ROPE : SCHEME_NONE);
    return attention_forward_positions(c, &p, x, T, A, Z);
}

/* x (T, d) = emb rows in the given order, plus the scheme's row at each position (PE or the
 * learned table's). */
static tf_status build_input(const tf_attn_cfg *c, const attn_positions *p, const double *emb,
                             const size_t *order, size_t T, double *x)
{
    size_t d = (size_t)c->d;
    for (size_t t = 0; t < T; t++) {
        const double *e = emb + (order ? order[t] : t) * d;
        double *row = x + t * d;
        long pos = c->pos0 + (long)t;
        if (p->scheme == SCHEME_SINUSOIDAL) {
            posenc_row((double)pos, c->d, c->base, row);
        } else if (p->scheme == SCHEME_LEARNED) {
            tf_status st = learned_pe_rows(p->table, pos, 1, row);
            if (st != TF_OK)
                return st;
        } else {
            memset(row, 0, d * sizeof *row);
        }
        for (size_t j = 0; j < d; j++)
            row[j] += e[j];
    }
    return TF_OK;
}

tf_status attention_order(const tf_attn_cfg *c, attn_mode mode, const double *emb,
                          const size_t *perm, size_t T, tf_order_result *out)
{
    static const tf_scheme of_mode[ATTN_MODE_COUNT] = {SCHEME_NONE, SCHEME_SINUSOIDAL,
                                                       SCHEME_ROPE};
    memset(out, 0, sizeof *out);
    if ((unsigned)mode >= ATTN_MODE_COUNT)
        return TF_ERR_RANGE;
    attn_positions p;
    attention_positions_init(&p, of_mode[mode]);
    return attention_order_positions(c, &p, emb, perm, T, out);
}

tf_status attention_order_positions(const tf_attn_cfg *c, const attn_positions *p,
                                    const double *emb, const size_t *perm, size_t T,
                                    tf_order_result *out)
{
    size_t d = (size_t)c->d;
    memset(out, 0, sizeof *out);
    tf_status st = check_positions(c, p);
    if (st != TF_OK)
        return st;
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
    st = build_input(c, p, emb, NULL, T, x);
    if (st == TF_OK)
        st = attention_forward_positions(c, p, x, T, out->A_a, out->Z_a);
    if (st == TF_OK)
        st = build_input(c, p, emb, perm, T, x);
    if (st == TF_OK)
        st = attention_forward_positions(c, p, x, T, out->A_b, out->Z_b);
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
