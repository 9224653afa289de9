/* attention.c — single-head self-attention, the order experiment, and every position scheme
 * through the same head. */
#include "attention.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "alibi.h"
#include "linalg.h"
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
        rng_fill_uniform(rng_row_key(c->seed, stream, ((uint64_t)c->head << 32) + i), d, scale,
                         wrow);
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

/* ---------------------------------------------------------------------------------------------
 * Position schemes */

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
    if (p->scheme == SCHEME_ROPE &&
        !(isfinite(p->rope_attention_factor) && p->rope_attention_factor > 0))
        return TF_ERR_RANGE;
    if (p->scheme == SCHEME_ALIBI && !(isfinite(p->alibi_slope) && p->alibi_slope >= 0))
        return TF_ERR_RANGE;
    if (p->scheme == SCHEME_LEARNED && !(isfinite(p->table_scale) && p->table_scale >= 0))
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

/* RoPE: q and k of rows 0 .. n turned by their positions pos0 + (r mod T), with p's
 * frequencies (or base^(-2i/d)); v is untouched. */
static tf_status rotate_qk(const tf_attn_cfg *c, const attn_positions *p, double *Q, double *K,
                           size_t n, size_t T)
{
    size_t d = (size_t)c->d;
    double *theta = malloc((d / 2 ? d / 2 : 1) * sizeof *theta);
    if (!theta)
        return TF_ERR_NOMEM;
    if (p->rope_inv_freq)
        memcpy(theta, p->rope_inv_freq, d / 2 * sizeof *theta);
    else
        rope_thetas(c->d, c->base, theta);
    for (size_t r = 0; r < n; r++) {
        double pos = (double)(c->pos0 + (long)(r % (T ? T : 1))); /* n > 0 means T > 0 */
        rope_rotate_thetas(Q + r * d, c->d, theta, pos, c->style, Q + r * d);
        rope_rotate_thetas(K + r * d, c->d, theta, pos, c->style, K + r * d);
    }
    free(theta);
    return TF_OK;
}

/* Q, K, V (n, d) of the rows of x: normalised (in place: x is overwritten), projected, and,
 * under RoPE, q and k rotated; row r sits at position pos0 + (r mod T), so several sentences of
 * T tokens can go in one call. */
static tf_status qkv(const tf_attn_cfg *c, const attn_positions *p, double *x, size_t n, size_t T,
                     double *Q, double *K, double *V)
{
    attention_normalize(c, x, n, x);
    tf_status st = attention_project(c, RNG_STREAM_WQ, x, n, Q);
    if (st == TF_OK)
        st = attention_project(c, RNG_STREAM_WK, x, n, K);
    if (st == TF_OK)
        st = attention_project(c, RNG_STREAM_WV, x, n, V);
    if (st != TF_OK)
        return st;
    return p->scheme == SCHEME_ROPE ? rotate_qk(c, p, Q, K, n, T) : TF_OK;
}

/* Scores S (T, T) = Q K^T / sqrt(d) (times a^2 under RoPE) plus the scheme's bias and mask,
 * A = row softmax of S, Z (T, d) = A V; A and Z may be NULL. Under the causal mask the key at
 * the query's own position is always seen. *score_std (if not NULL) receives sqrt(mean over
 * rows of the variance of the row's seen scores): the spread that softmax sees (a constant
 * added to a row changes nothing). */
static tf_status attend(size_t d, const attn_positions *p, const double *Q, const double *K,
                        const double *V, size_t T, double *A, double *Z, double *score_std)
{
    double *S = malloc(T * T * sizeof *S);
    if (!S)
        return TF_ERR_NOMEM;
    double inv = 1.0 / sqrt((double)d), spread = 0.0;
    if (p->scheme == SCHEME_ROPE)
        inv *= p->rope_attention_factor * p->rope_attention_factor;
    for (size_t t = 0; t < T; t++) {
        double mx = -INFINITY, sum = 0.0, mean = 0.0, var = 0.0;
        size_t seen = 0;
        for (size_t u = 0; u < T; u++) {
            double acc = la_dot(Q + t * d, K + u * d, d);
            S[t * T + u] = acc * inv + score_bias(p, (long)t - (long)u);
            mx = fmax(mx, S[t * T + u]);
            if (isfinite(S[t * T + u]))
                mean += S[t * T + u], seen++;
        }
        mean /= (double)(seen ? seen : 1);
        for (size_t u = 0; u < T; u++)
            if (isfinite(S[t * T + u]))
                var += (S[t * T + u] - mean) * (S[t * T + u] - mean);
        spread += var / (double)(seen ? seen : 1);
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

tf_status attention_forward_positions(const tf_attn_cfg *c, const attn_positions *p,
                                      const double *x, size_t T, double *A, double *Z)
{
    tf_status st = check_positions(c, p);
    if (st != TF_OK)
        return st;
    size_t d = (size_t)c->d;
    double *mem = malloc(4 * T * d * sizeof *mem); /* x's copy to normalise, Q, K, V (T, d) */
    if (!mem)
        return TF_ERR_NOMEM;
    double *h = mem, *Q = mem + T * d, *K = mem + 2 * T * d, *V = mem + 3 * T * d;
    memcpy(h, x, T * d * sizeof *h);
    st = qkv(c, p, h, T, T, Q, K, V);
    if (st == TF_OK)
        st = attend(d, p, Q, K, V, T, A, Z, NULL);
    free(mem);
    return st;
}

tf_status attention_forward(const tf_attn_cfg *c, const double *x, size_t T, int rope, double *A,
                            double *Z)
{
    attn_positions p;
    attention_positions_init(&p, rope ? SCHEME_ROPE : SCHEME_NONE);
    return attention_forward_positions(c, &p, x, T, A, Z);
}

/* ---------------------------------------------------------------------------------------------
 * The order experiment */

/* x (T, d) = s * emb rows in the given order, plus the scheme's row at each position (PE or the
 * learned table's). */
static tf_status build_input(const tf_attn_cfg *c, const attn_positions *p, const double *emb,
                             const size_t *order, size_t T, double *x)
{
    size_t d = (size_t)c->d;
    double s = c->emb_scale > 0 ? c->emb_scale : 1.0;
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
            if (p->table_scale > 0)
                for (size_t j = 0; j < d; j++)
                    row[j] *= p->table_scale;
        } else {
            memset(row, 0, d * sizeof *row);
        }
        for (size_t j = 0; j < d; j++)
            row[j] += s * e[j];
    }
    return TF_OK;
}

static tf_status order_alloc(tf_order_result *out, size_t T, size_t d)
{
    memset(out, 0, sizeof *out);
    /* clang-analyzer takes the memset of the next element for one of the whole array and
     * reports these as leaked; attention_order_free frees each (test_attention under ASan) */
    out->A_a = malloc(T * T * sizeof(double)); // NOLINT(clang-analyzer-unix.Malloc)
    out->A_b = malloc(T * T * sizeof(double));
    out->Z_a = malloc(T * d * sizeof(double));
    out->Z_b = malloc(T * d * sizeof(double));
    out->token_diff = malloc(T * sizeof(double));
    out->A_b_aligned = malloc(T * T * sizeof(double));
    out->diff_map = malloc(T * T * sizeof(double));
    if (!out->A_a || !out->A_b || !out->Z_a || !out->Z_b || !out->token_diff ||
        !out->A_b_aligned || !out->diff_map) {
        attention_order_free(out);
        return TF_ERR_NOMEM;
    }
    return TF_OK;
}

/* Attention within sentence a (rows 0..T of Q, K, V) and within b (rows T..2T), then the
 * comparison of every token of b with the same token of a. */
static tf_status order_attend(size_t d, const attn_positions *p, const double *Q, const double *K,
                              const double *V, const size_t *perm, size_t T, tf_order_result *out)
{
    tf_status st = attend(d, p, Q, K, V, T, out->A_a, out->Z_a, &out->score_std);
    if (st == TF_OK)
        st = attend(d, p, Q + T * d, K + T * d, V + T * d, T, out->A_b, out->Z_b, NULL);
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
    /* 3. B's weights in A's token order, and how far they are from A's */
    out->weight_diff = 0.0;
    for (size_t t = 0; t < T; t++)
        for (size_t u = 0; u < T; u++)
            out->A_b_aligned[perm[t] * T + perm[u]] = out->A_b[t * T + u];
    for (size_t i = 0; i < T * T; i++) {
        out->diff_map[i] = fabs(out->A_a[i] - out->A_b_aligned[i]);
        out->weight_diff = fmax(out->weight_diff, out->diff_map[i]);
    }
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
    static const tf_scheme of_mode[ATTN_MODE_COUNT] = {SCHEME_NONE, SCHEME_SINUSOIDAL, SCHEME_ROPE};
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
    /* the inputs of a and b stacked (2T, d), then their Q, K, V (2T, d) each */
    double *mem = malloc(8 * T * d * sizeof *mem);
    if (!mem || order_alloc(out, T, d) != TF_OK) {
        free(mem);
        memset(out, 0, sizeof *out);
        return TF_ERR_NOMEM;
    }
    double *x = mem, *Q = mem + 2 * T * d, *K = mem + 4 * T * d, *V = mem + 6 * T * d;
    /* both sentences through the same head: each row is normalised and projected on its own,
     * so stacking them only saves generating W_Q, W_K, W_V twice */
    st = build_input(c, p, emb, NULL, T, x);
    if (st == TF_OK)
        st = build_input(c, p, emb, perm, T, x + T * d);
    if (st == TF_OK)
        st = qkv(c, p, x, 2 * T, T, Q, K, V);
    if (st == TF_OK)
        st = order_attend(d, p, Q, K, V, perm, T, out);
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
    attn_positions none, pe, rope;
    attention_positions_init(&none, SCHEME_NONE);
    attention_positions_init(&pe, SCHEME_SINUSOIDAL);
    attention_positions_init(&rope, SCHEME_ROPE);
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
    build_input(c, &none, emb, NULL, T, x);
    build_input(c, &none, emb, perm, T, x + T * d);
    build_input(c, &pe, emb, NULL, T, x + 2 * T * d);
    build_input(c, &pe, emb, perm, T, x + 3 * T * d);
    /* 1. one pass over W_Q, W_K, W_V for all four; each row is computed on its own, so every
     *    number is the one attention_order gives for its mode */
    st = qkv(c, &none, x, 4 * T, T, Q, K, V);
    /* 2. without positions, and with PE */
    if (st == TF_OK)
        st = order_attend(d, &none, Q, K, V, perm, T, &out[ATTN_NO_PE]);
    if (st == TF_OK)
        st = order_attend(d, &pe, Q + 2 * T * d, K + 2 * T * d, V + 2 * T * d, perm, T,
                          &out[ATTN_WITH_PE]);
    /* 3. RoPE: the inputs without positions, q and k rotated by position, v as it was */
    if (st == TF_OK)
        st = rotate_qk(c, &rope, Q, K, 2 * T, T);
    if (st == TF_OK)
        st = order_attend(d, &rope, Q, K, V, perm, T, &out[ATTN_WITH_ROPE]);
    free(mem);
    if (st != TF_OK)
        for (int m = 0; m < ATTN_MODE_COUNT; m++)
            attention_order_free(&out[m]);
    return st;
}

double attention_order_visibility(const tf_order_result r[ATTN_MODE_COUNT], size_t T)
{
    double v = fmin(r[ATTN_WITH_PE].relative_diff, r[ATTN_WITH_ROPE].relative_diff) /
               ATTN_VISIBLE_CHANGE;
    v = fmin(v, fmin(r[ATTN_WITH_PE].weight_diff, r[ATTN_WITH_ROPE].weight_diff) /
                    ATTN_VISIBLE_WEIGHT);
    if (T <= ATTN_VISIBLE_ROWS_T)
        for (int m = 0; m < ATTN_MODE_COUNT; m++)
            v = fmin(v, r[m].min_row_range / ATTN_VISIBLE_ROW_RANGE);
    return v;
}

/* Whether rows i and j of h (d wide) are the same up to rounding. */
static bool same_row(const double *h, size_t d, size_t i, size_t j)
{
    for (size_t k = 0; k < d; k++)
        if (fabs(h[i * d + k] - h[j * d + k]) > 1e-9)
            return false;
    return true;
}

/* Whether some head could show the order: at least two tokens, rows that differ after
 * LayerNorm (what every head sees without positions), and B not the same rows as A. */
static tf_status choice_possible(const tf_attn_cfg *c, const double *emb, const size_t *perm,
                                 size_t T, bool *possible)
{
    size_t d = (size_t)c->d;
    *possible = false;
    if (T < 2)
        return TF_OK;
    attn_positions none;
    attention_positions_init(&none, SCHEME_NONE);
    double *h = malloc(T * d * sizeof *h);
    if (!h)
        return TF_ERR_NOMEM;
    build_input(c, &none, emb, NULL, T, h);
    attention_normalize(c, h, T, h);
    bool all_same = true, b_same = true;
    for (size_t t = 1; t < T && all_same; t++)
        all_same = same_row(h, d, 0, t);
    for (size_t t = 0; t < T && b_same; t++)
        b_same = same_row(h, d, perm[t], t);
    free(h);
    *possible = !all_same && !b_same;
    return TF_OK;
}

tf_status attention_order_choose(const tf_attn_cfg *c, const double *emb, const size_t *perm,
                                 size_t T, tf_order_result out[ATTN_MODE_COUNT],
                                 attn_head_choice *choice)
{
    memset(out, 0, ATTN_MODE_COUNT * sizeof *out);
    *choice = (attn_head_choice){0};
    bool possible;
    tf_status st = choice_possible(c, emb, perm, T, &possible);
    if (st != TF_OK)
        return st;
    tf_attn_cfg h = *c;
    tf_order_result cand[ATTN_MODE_COUNT];
    int heads = possible ? ATTN_HEADS : 1;
    double best = -INFINITY;
    for (h.head = 0; h.head < heads; h.head++) {
        if ((st = attention_order_all(&h, emb, perm, T, cand)) != TF_OK)
            break;
        double v = attention_order_visibility(cand, T);
        choice->tried = h.head + 1;
        if (h.head == 0 || v > best) { /* the best so far; the first of equals stays (and
                                           head 0 when a number is not finite) */
            for (int m = 0; m < ATTN_MODE_COUNT; m++) {
                attention_order_free(&out[m]);
                out[m] = cand[m];
            }
            best = v;
            choice->head = h.head;
            choice->visibility = v;
        } else {
            for (int m = 0; m < ATTN_MODE_COUNT; m++)
                attention_order_free(&cand[m]);
        }
        if (v >= 1.0)
            break;
    }
    choice->possible = possible;
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
    free(r->A_b_aligned);
    free(r->diff_map);
    memset(r, 0, sizeof *r);
}

void attention_order_where(const size_t *perm, size_t T, size_t *where)
{
    for (size_t t = 0; t < T; t++)
        where[perm[t]] = t;
}
