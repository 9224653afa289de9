/* positions.c — the position schemes of one run, made ready (positions.h). */
#include "positions.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alibi.h"
#include "tf_limits.h"

void positions_defaults(tf_positions *p)
{
    memset(p, 0, sizeof *p);
    p->mask = SCHEME_MASK_SYMMETRIC;
    p->heads = POSITIONS_DEFAULT_HEADS;
    t5_buckets_defaults(&p->buckets);
    rope_scaling_defaults(ROPE_SCALING_NONE, &p->scaling);
}

tf_status positions_check(const tf_positions *p, int d, const char **why)
{
    const char *dummy;
    if (!why)
        why = &dummy;
    *why = NULL;
    if (p->heads < 1 || p->heads > TF_MAX_HEADS) {
        *why = "the number of heads must be from 1 to 256";
        return TF_ERR_RANGE;
    }
    if (p->head < 0 || p->head >= p->heads) {
        *why = "the head must be one of the heads";
        return TF_ERR_RANGE;
    }
    if ((unsigned)p->mask >= SCHEME_MASK_COUNT) {
        *why = "the mask must be causal or symmetric";
        return TF_ERR_RANGE;
    }
    if (p->trained < 0 || p->trained > TF_MAX_POSITIONS) {
        *why = "the trained length must be from 1 to 1000000";
        return TF_ERR_RANGE;
    }
    /* the buckets as posctx_open makes them: one direction under the causal mask, both under
     * the symmetric one */
    t5_buckets_cfg b = p->buckets;
    b.bidirectional = p->mask == SCHEME_MASK_SYMMETRIC;
    if (t5_buckets_check(&b) != TF_OK) {
        static _Thread_local char buf[200];
        long need = t5_buckets_min_distance(&b);
        if (b.num_buckets < (b.bidirectional ? 4 : 2) || b.num_buckets > TF_MAX_T5_BUCKETS)
            *why = "T5 takes 2 to 4096 buckets, at least 4 under the symmetric mask (half for "
                   "each direction)";
        else if (b.max_distance >= need)
            *why = "T5's --max-distance goes up to 1000000000";
        else if (snprintf(buf, sizeof buf, "--max-distance %ld is too small for %d buckets: it "
                          "must pass each direction's %ld exact buckets; give --max-distance "
                          "%ld or more",
                          b.max_distance, b.num_buckets, need - 1, need) > 0)
            *why = buf;
        return TF_ERR_RANGE;
    }
    if (p->t5 && (p->t5->num_buckets != p->buckets.num_buckets || p->head >= p->t5->heads)) {
        *why = "the T5 table needs one row per bucket and a column for the head";
        return TF_ERR_RANGE;
    }
    if (p->scaling.kind != ROPE_SCALING_NONE)
        return rope_scaling_check(&p->scaling, d, why);
    return TF_OK;
}

/* Whether the schemes of p use a learned table: listed, or all of them (none listed). */
static bool uses_table(const tf_positions *p)
{
    for (size_t i = 0; i < p->n; i++)
        if (p->list[i] == SCHEME_LEARNED)
            return true;
    return p->n == 0;
}

tf_status posctx_open(tf_posctx *c, const tf_positions *p, int d, double base, rope_style style,
                      uint64_t seed, const char **why)
{
    const char *dummy;
    if (!why)
        why = &dummy;
    *why = NULL;
    memset(c, 0, sizeof *c);
    c->p = *p;
    c->p.buckets.bidirectional = p->mask == SCHEME_MASK_SYMMETRIC;
    if (p->trained > 0 && p->scaling.kind != ROPE_SCALING_NONE)
        c->p.scaling.original = p->trained;
    if (d < TF_MIN_DMODEL || d > TF_MAX_DMODEL || d % 2)
        return TF_ERR_DMODEL;
    if (!(isfinite(base) && base > 1.0))
        return TF_ERR_BASE;
    tf_status st = positions_check(&c->p, d, why);
    if (st != TF_OK)
        return st;
    c->d = d;
    c->base = base;
    c->style = style;
    c->attention_factor = 1.0;

    /* 1. the tables the files did not give: untrained, seeded */
    st = TF_OK;
    if (p->table) {
        c->table = p->table;
    } else if (uses_table(p)) {
        long rows = p->trained > 0 ? p->trained : POSITIONS_DEFAULT_LEARNED;
        st = learned_pe_init_random(&c->own_table, rows, d, seed);
        c->table = &c->own_table;
    }
    if (st == TF_OK && p->t5) {
        c->t5 = p->t5;
    } else if (st == TF_OK) {
        st = t5bias_init_random(&c->own_t5, c->p.buckets.num_buckets, p->heads, seed);
        c->t5 = &c->own_t5;
    }
    /* 2. ALiBi's slopes, RoPE's original frequencies and the scaled ones */
    c->slopes = malloc((size_t)p->heads * sizeof *c->slopes);
    c->original = malloc((size_t)d * sizeof *c->original); /* (d/2), and inv_freq after it */
    if (st == TF_OK && (!c->slopes || !c->original))
        st = TF_ERR_NOMEM;
    if (st == TF_OK)
        st = alibi_slopes(p->heads, c->slopes);
    if (st == TF_OK)
        rope_thetas(d, base, c->original);
    if (st == TF_OK && c->p.scaling.kind != ROPE_SCALING_NONE) {
        c->inv_freq = c->original + d / 2;
        st = rope_scaling_inv_freq(&c->p.scaling, d, c->inv_freq, c->original,
                                   &c->attention_factor);
    }
    if (st != TF_OK) {
        if (st == TF_ERR_TOO_BIG)
            *why = "the untrained learned table would have more than 8388608 values; lower the "
                   "trained length or d_model";
        posctx_close(c);
    }
    return st;
}

void posctx_close(tf_posctx *c)
{
    learned_pe_free(&c->own_table);
    t5bias_free(&c->own_t5);
    free(c->slopes);
    free(c->original);
    memset(c, 0, sizeof *c);
}

poscurve_cfg posctx_curve_cfg(const tf_posctx *c, bool scaled)
{
    poscurve_cfg k;
    poscurve_defaults(&k);
    k.d = c->d;
    k.base = c->base;
    k.style = c->style;
    k.rope = scaled && c->p.scaling.kind != ROPE_SCALING_NONE ? &c->p.scaling : NULL;
    k.table = c->table; /* NULL when no scheme listed is learned */
    k.slopes = c->slopes;
    k.heads = c->p.heads;
    k.t5 = c->t5;
    k.buckets = &c->p.buckets;
    k.head = c->p.head;
    k.mask = c->p.mask;
    return k;
}

tf_status posctx_curve(const tf_posctx *c, tf_scheme s, bool scaled, long k0, long n,
                       double *out)
{
    poscurve_cfg k = posctx_curve_cfg(c, scaled);
    /* plain RoPE beside a scaling turns at the scaling's base (Llama 3's 500000), the
     * frequencies the scaling starts from and posctx_unseen compares with */
    if (s == SCHEME_ROPE && !scaled && c->p.scaling.kind != ROPE_SCALING_NONE)
        k.base = c->p.scaling.base;
    return poscurve_fill(s, &k, k0, n, out);
}

tf_status posctx_curve_at(const tf_posctx *c, tf_scheme s, bool scaled, const long *k, long n,
                          double *out)
{
    /* the learned table's norms once for all the distances; every other scheme's point alone */
    if (s == SCHEME_LEARNED && c->table && c->table->p) {
        for (long i = 0; i < n; i++)
            if (labs(k[i]) > TF_MAX_POSITIONS)
                return TF_ERR_POSITIONS;
        return learned_pe_offset_similarity_at(c->table, true, k, n, out);
    }
    tf_status st = TF_OK;
    for (long i = 0; i < n && st == TF_OK; i++)
        st = posctx_curve(c, s, scaled, k[i], 1, &out[i]);
    return st;
}

long posctx_trained(const tf_posctx *c, tf_scheme s)
{
    if (s == SCHEME_ROPE) {
        if (c->p.scaling.kind != ROPE_SCALING_NONE)
            return c->p.scaling.original;
        return c->p.trained;
    }
    poscurve_cfg k = posctx_curve_cfg(c, false);
    return poscurve_trained_length(s, &k);
}

double posctx_unseen(const tf_posctx *c, bool scaled, double k)
{
    long L = posctx_trained(c, SCHEME_ROPE);
    if (L <= 0)
        return NAN;
    const double *f = scaled && c->inv_freq ? c->inv_freq : c->original;
    return rope_scaling_unseen(f, c->original, c->d, L, k);
}

size_t positions_compared(const tf_positions *p, tf_scheme out[SCHEME_COUNT])
{
    size_t n = p->n ? (p->n < SCHEME_COUNT ? p->n : SCHEME_COUNT) : SCHEME_COUNT;
    for (size_t i = 0; i < n; i++)
        out[i] = p->n ? p->list[i] : (tf_scheme)i;
    return n;
}

void posctx_curves_list(const tf_posctx *c, posctx_curves *out)
{
    const tf_positions *p = &c->p;
    memset(out, 0, sizeof *out);
    tf_scheme list[SCHEME_COUNT];
    size_t ns = positions_compared(p, list);
    for (size_t i = 0; i < ns; i++) {
        tf_scheme s = list[i];
        for (int scaled = 0; scaled < 2; scaled++) {
            if (scaled && (s != SCHEME_ROPE || p->scaling.kind == ROPE_SCALING_NONE))
                break;
            out->c[out->n_curves++] = (posctx_curve_row){
                .s = s, .scaled = scaled, .trained = posctx_trained(c, s)};
        }
    }
}

tf_status posctx_curves_fill(const tf_posctx *c, long k0, long n, posctx_curves *out)
{
    tf_status st = TF_OK;
    for (int i = 0; i < out->n_curves && st == TF_OK; i++) {
        posctx_curve_row *r = &out->c[i];
        bool unseen = r->s == SCHEME_ROPE && r->trained > 0;
        r->v = malloc((size_t)n * sizeof *r->v);
        r->unseen = unseen ? malloc((size_t)n * sizeof *r->unseen) : NULL;
        if (!r->v || (unseen && !r->unseen))
            return TF_ERR_NOMEM;
        st = posctx_curve(c, r->s, r->scaled, k0, n, r->v);
        for (long t = 0; unseen && t < n; t++)
            r->unseen[t] = posctx_unseen(c, r->scaled, (double)(k0 + t));
    }
    return st;
}

void posctx_curves_free(posctx_curves *out)
{
    for (int i = 0; i < out->n_curves; i++) {
        free(out->c[i].v);
        free(out->c[i].unseen);
    }
    memset(out, 0, sizeof *out);
}

void posctx_attn(const tf_posctx *c, tf_scheme s, bool scaled, attn_positions *out)
{
    attention_positions_init(out, s);
    out->mask = c->p.mask;
    out->table = c->table;
    /* the table on PE's scale: rows of mean length sqrt(d/2) (positions.h) */
    double rms = c->table ? learned_pe_rms_norm(c->table) : 0.0;
    out->table_scale = c->table && rms > 0 ? sqrt(c->table->d / 2.0) / rms : 1.0;
    if (scaled && c->inv_freq) {
        out->rope_inv_freq = c->inv_freq;
        out->rope_attention_factor = c->attention_factor;
    } else {
        out->rope_inv_freq = c->original;
    }
    out->alibi_slope = c->slopes[c->p.head];
    out->t5 = c->t5;
    out->buckets = &c->p.buckets;
    out->t5_head = c->p.head;
}
