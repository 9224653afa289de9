/* poscurve.c — one curve against distance per position scheme (poscurve.h). */
#include "poscurve.h"

#include <math.h>
#include <stdlib.h>

#include "alibi.h"
#include "linalg.h"
#include "nope.h"
#include "posenc.h"
#include "tf_limits.h"

void poscurve_defaults(poscurve_cfg *c)
{
    *c = (poscurve_cfg){.d = TF_DEFAULT_DMODEL,
                        .base = TF_DEFAULT_BASE,
                        .style = ROPE_INTERLEAVED,
                        .mask = SCHEME_MASK_CAUSAL};
}

poscurve_quantity poscurve_quantity_of(tf_scheme s)
{
    switch (s) {
    case SCHEME_SINUSOIDAL:
    case SCHEME_LEARNED:
        return POSCURVE_SIMILARITY;
    case SCHEME_ROPE:
        return POSCURVE_SCORE;
    default:
        return POSCURVE_BIAS;
    }
}

const char *poscurve_quantity_name(poscurve_quantity q)
{
    static const char *const names[POSCURVE_COUNT] = {"bias", "similarity", "score"};
    return (unsigned)q < POSCURVE_COUNT ? names[q] : NULL;
}

static tf_status check_d(int d, double base)
{
    if (d < TF_MIN_DMODEL || d > TF_MAX_DMODEL || d % 2)
        return TF_ERR_DMODEL;
    if (!(isfinite(base) && base > 1.0))
        return TF_ERR_BASE;
    return TF_OK;
}

/* RoPE: the score of q and k at each distance with the method's inverse frequencies. */
static tf_status rope_curve(const poscurve_cfg *c, long k0, long n, double *out)
{
    rope_scaling_cfg plain;
    const rope_scaling_cfg *m = c->rope;
    if (!m) {
        rope_scaling_defaults(ROPE_SCALING_NONE, &plain);
        plain.base = c->base;
        m = &plain;
    }
    tf_status st = rope_scaling_check(m, c->d, NULL);
    if (st != TF_OK)
        return st;
    /* 1. the method's inverse frequencies and attention factor; all-ones q and k if none */
    int d = c->d;
    double *mem = malloc((size_t)(d / 2 + 2 * d) * sizeof *mem);
    if (!mem)
        return TF_ERR_NOMEM;
    double *theta = mem, *ones = mem + d / 2, attn;
    for (int j = 0; j < 2 * d; j++)
        ones[j] = 1.0;
    rope_scaling_inv_freq(m, d, theta, NULL, &attn);
    const double *q = c->q ? c->q : ones, *k = c->k ? c->k : ones + d;
    /* 2. the score at each distance, over |q| |k| (the cosine of the unrotated pair) */
    double qq = la_dot(q, q, (size_t)d), kk = la_dot(k, k, (size_t)d);
    double norm = qq > 0 && kk > 0 ? sqrt(qq * kk) : 1.0;
    st = rope_score_run(q, k, d, theta, c->style, (double)k0, n, out);
    for (long t = 0; st == TF_OK && t < n; t++)
        out[t] *= attn * attn / norm;
    free(mem);
    return st;
}

tf_status poscurve_fill(tf_scheme s, const poscurve_cfg *c, long k0, long n, double *out)
{
    if (n < 0 || n > 2L * TF_MAX_POSITIONS + 1 || labs(k0) > TF_MAX_POSITIONS ||
        labs(k0 + n) > TF_MAX_POSITIONS + 1)
        return TF_ERR_POSITIONS;
    if ((unsigned)c->mask >= SCHEME_MASK_COUNT)
        return TF_ERR_RANGE;
    tf_status st;
    switch (s) {
    case SCHEME_NONE:
        for (long t = 0; t < n; t++)
            out[t] = nope_bias_at(k0 + t, c->mask);
        return TF_OK;
    case SCHEME_SINUSOIDAL:
        if ((st = check_d(c->d, c->base)) != TF_OK)
            return st;
        if ((st = posenc_dot_offsets(k0, n, c->d, c->base, out)) != TF_OK)
            return st;
        for (long t = 0; t < n; t++)
            out[t] /= c->d / 2.0;
        return TF_OK;
    case SCHEME_LEARNED:
        if (!c->table || !c->table->p)
            return TF_ERR_RANGE;
        return learned_pe_offset_similarity(c->table, true, k0, n, out);
    case SCHEME_ROPE:
        if ((st = check_d(c->d, c->rope ? c->rope->base : c->base)) != TF_OK)
            return st;
        return rope_curve(c, k0, n, out);
    case SCHEME_ALIBI:
        if (!c->slopes || c->head < 0 || c->head >= c->heads)
            return TF_ERR_RANGE;
        for (long t = 0; t < n; t++)
            out[t] = alibi_bias_at(c->slopes[c->head], k0 + t, c->mask);
        return TF_OK;
    case SCHEME_T5:
        if (!c->t5 || !c->t5->b || !c->buckets || c->head < 0 || c->head >= c->t5->heads ||
            c->t5->num_buckets != c->buckets->num_buckets)
            return TF_ERR_RANGE;
        if ((st = t5_buckets_check(c->buckets)) != TF_OK)
            return st;
        for (long t = 0; t < n; t++)
            out[t] = t5bias_at(c->t5, c->buckets, c->head, k0 + t, c->mask);
        return TF_OK;
    default:
        return TF_ERR_RANGE;
    }
}

long poscurve_trained_length(tf_scheme s, const poscurve_cfg *c)
{
    switch (s) {
    case SCHEME_LEARNED:
        return c->table ? c->table->n_pos : 0;
    case SCHEME_T5:
        return c->buckets ? c->buckets->max_distance : 0;
    case SCHEME_ROPE:
        return c->rope && c->rope->kind != ROPE_SCALING_NONE ? c->rope->original : 0;
    default:
        return 0;
    }
}
