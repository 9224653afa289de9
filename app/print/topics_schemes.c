/* topics_schemes.c — the topics of the position schemes real models use, beyond the article:
 * bias (ALiBi, T5, NoPE: what is added to the scores), rope-scaling (RoPE's frequencies for a
 * longer context), schemes (every scheme against distance, with its trained length) and the
 * learned table that pe prints with --pe-file or --scheme learned. The numbers come from
 * model/positions.h and the scheme files; this file lays them out. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alibi.h"
#include "core/emit.h"
#include "nope.h"
#include "positions.h"
#include "print/topic.h"
#include "style.h"
#include "tf_limits.h"

enum { J = SINK_JSON, C = SINK_CSV, N = SINK_NPY, JC = SINK_JSON | SINK_CSV };

/* The run's position parameters: the command line's, or the defaults. */
static const tf_positions *params(const tf_config *cfg)
{
    static tf_positions def;
    if (cfg->positions)
        return cfg->positions;
    positions_defaults(&def);
    return &def;
}

static tf_status ctx_open(const tf_analysis *a, tf_posctx *pc)
{
    const tf_config *c = &a->cfg;
    return posctx_open(pc, params(c), c->d_model, c->base, c->rope, c->seed, NULL);
}

/* A JSON array of the distances 0 .. rows - 1 (flat table of one column). */
static const sink_col distance_col[] = {{"distance", J, NULL}};

static tf_status distance_row(void *ctx, size_t r, pv *cell)
{
    (void)ctx;
    *cell = pv_uint(r);
    return TF_OK;
}

/* A number as text: "-inf" for a masked score, "-" for none. */
static void text_num(FILE *fp, int width, double v)
{
    if (isinf(v) && v < 0)
        fprintf(fp, " %*s", width, "-inf");
    else if (!isfinite(v))
        fprintf(fp, " %*s", width, "-");
    else
        fprintf(fp, " %*.4f", width, v);
}

/* =============================================================================================
 * bias: ALiBi, T5, NoPE — the bias every head adds to the score of query i and key j */

/* The scheme --print bias shows: the one listed, alibi when none is. */
static tf_scheme bias_scheme(const tf_config *cfg)
{
    const tf_positions *p = params(cfg);
    return p->n ? p->list[0] : SCHEME_ALIBI;
}

static int bias_heads(const tf_config *cfg)
{
    const tf_positions *p = params(cfg);
    tf_scheme s = bias_scheme(cfg);
    return s == SCHEME_NONE ? 1 : s == SCHEME_T5 && p->t5 ? p->t5->heads : p->heads;
}

typedef struct {
    tf_posctx pc;
    tf_scheme s;
    long n;       /* positions */
    int heads;    /* of the bias tensor (1 for NoPE) */
    double *bias; /* (heads, n, n), -inf where the causal mask hides the key */
    int *bucket;  /* t5: (n, n) the bucket of key j for query i */
} bias_data;

static void bias_free(bias_data *b)
{
    posctx_close(&b->pc);
    free(b->bias);
    free(b->bucket);
}

/* The bias tensor of the run's scheme; on failure nothing is left to free. */
static tf_status bias_make(const tf_analysis *a, bias_data *b)
{
    memset(b, 0, sizeof *b);
    b->s = bias_scheme(&a->cfg);
    b->n = a->cfg.n_positions;
    b->heads = bias_heads(&a->cfg);
    tf_status st = ctx_open(a, &b->pc);
    if (st != TF_OK) {
        memset(b, 0, sizeof *b);
        return st;
    }
    size_t nn = (size_t)b->n * (size_t)b->n;
    b->bias = malloc((size_t)b->heads * nn * sizeof *b->bias);
    if (b->s == SCHEME_T5)
        b->bucket = malloc(nn * sizeof *b->bucket);
    const tf_positions *p = &b->pc.p;
    if (!b->bias || (b->s == SCHEME_T5 && !b->bucket))
        st = TF_ERR_NOMEM;
    else if (b->s == SCHEME_ALIBI)
        st = alibi_bias(b->pc.slopes, b->heads, b->n, p->mask, b->bias);
    else if (b->s == SCHEME_T5 && (st = t5_bucket_matrix(&p->buckets, b->n, b->bucket)) == TF_OK)
        st = t5bias_matrix(b->pc.t5, &p->buckets, b->n, p->mask, b->bias);
    else if (b->s == SCHEME_NONE)
        st = nope_bias(b->n, p->mask, b->bias);
    if (st != TF_OK)
        bias_free(b);
    return st;
}

/* The buckets are ints: converted to doubles row by row. */
static tf_status bucket_row(void *ctx, size_t r, void *out)
{
    const bias_data *b = ctx;
    for (long j = 0; j < b->n; j++)
        ((double *)out)[j] = b->bucket[(size_t)r * (size_t)b->n + (size_t)j];
    return TF_OK;
}

static const sink_col bias_cols[] = {{"head", C, NULL},     {"query", C, NULL},
                                     {"key", C, NULL},      {"distance", C, NULL},
                                     {"bias", C, NULL},     {"bucket", C, NULL}};

/* CSV: one line per head, query and key; a masked bias is -inf. */
static tf_status bias_csv_row(void *ctx, size_t r, pv *cell)
{
    const bias_data *b = ctx;
    size_t n = (size_t)b->n, h = r / (n * n), i = r / n % n, j = r % n;
    double v = b->bias[r];
    cell[0] = pv_uint(h + 1);
    cell[1] = pv_uint(i);
    cell[2] = pv_uint(j);
    cell[3] = pv_int((long long)i - (long long)j);
    cell[4] = isfinite(v) ? pv_num(v) : pv_raw("-inf");
    if (b->s == SCHEME_T5) /* the sixth column is T5's alone (bias_build's ncols) */
        cell[5] = pv_int(b->bucket[i * n + j]);
    return TF_OK;
}

/* The scheme's own parameters. */
static tf_status bias_params(const bias_data *b, sink *s)
{
    const tf_positions *p = &b->pc.p;
    if (b->s == SCHEME_ALIBI) {
        sink_value(s, J, "heads", pv_int(b->heads));
        sink_value(s, J, "slopes", pv_dvec(b->pc.slopes, (size_t)b->heads));
        return TF_OK;
    }
    if (b->s == SCHEME_NONE) {
        sink_value(s, J, "heads", pv_int(1));
        return TF_OK;
    }
    const t5_bias_table *t = b->pc.t5;
    sink_value(s, J, "num_buckets", pv_int(p->buckets.num_buckets));
    sink_value(s, J, "max_distance", pv_int(p->buckets.max_distance));
    sink_value(s, J, "bidirectional", pv_bool(p->buckets.bidirectional));
    sink_value(s, J, "heads", pv_int(b->heads));
    sink_value(s, J, "trained", pv_bool(t->trained));
    sink_value(s, J, "tensor", t->name ? pv_str(t->name) : pv_null());
    tf_status st = sink_matrix(s, J, &(sink_matrix_def){.key = "buckets", .rows = (size_t)b->n,
                                                        .cols = (size_t)b->n,
                                                        .digits = EMIT_F64_DIGITS,
                                                        .row = bucket_row, .ctx = (void *)b});
    if (st == TF_OK)
        st = sink_matrix(s, J, &(sink_matrix_def){.key = "table", .rows = (size_t)t->num_buckets,
                                                  .cols = (size_t)t->heads,
                                                  .digits = EMIT_F64_DIGITS, .data = t->b});
    return st;
}

static tf_status bias_build(print_ctx *c, sink *s)
{
    bias_data b;
    tf_status st = bias_make(c->a, &b);
    if (st != TF_OK)
        return st;
    bool causal = b.pc.p.mask == SCHEME_MASK_CAUSAL;
    sink_value(s, J, "scheme", pv_str(scheme_name(b.s)));
    sink_value(s, J, "mask", pv_str(scheme_mask_name(b.pc.p.mask)));
    sink_value(s, J, "masked",
               pv_str(causal ? "a key after its query (j > i) is hidden: bias -inf, written "
                               "null (npy and csv: -inf)"
                             : "none: every key is seen"));
    sink_value(s, J, "positions", pv_int(b.n));
    st = bias_params(&b, s);
    size_t n = (size_t)b.n;
    const size_t shape[3] = {(size_t)b.heads, n, n};
    if (st == TF_OK)
        st = sink_matrix(s, J | N, &(sink_matrix_def){.key = "bias", .rows = (size_t)b.heads * n,
                                                      .cols = n, .digits = EMIT_F64_DIGITS,
                                                      .data = b.bias,
                                                      .npy_shape = shape, .npy_ndim = 3,
                                                      .json_nd = true});
    if (st == TF_OK)
        st = sink_table(s, C, &(sink_table_def){.cols = bias_cols,
                                                .ncols = b.s == SCHEME_T5 ? 6 : 5,
                                                .rows = (size_t)b.heads * n * n,
                                                .row = bias_csv_row, .ctx = &b});
    bias_free(&b);
    return st;
}

#define TEXT_SHOWN 12 /* rows and columns of a matrix in text */

/* The first positions of an (n, n) matrix of head h, rows query i, columns key j. */
static void bias_matrix_text(FILE *fp, const bias_data *b, const double *m, const int *ints)
{
    size_t n = (size_t)b->n, shown = n < TEXT_SHOWN ? n : TEXT_SHOWN;
    fputs("   i\\j", fp);
    for (size_t j = 0; j < shown; j++)
        fprintf(fp, " %7zu", j);
    fputc('\n', fp);
    for (size_t i = 0; i < shown; i++) {
        fprintf(fp, "%6zu", i);
        for (size_t j = 0; j < shown; j++) {
            if (ints)
                fprintf(fp, " %7d", ints[i * n + j]);
            else
                text_num(fp, 7, m[i * n + j]);
        }
        fputc('\n', fp);
    }
    if (shown < n)
        fprintf(fp, "  (%zu of %zu positions shown; --format json, csv or npy gives them all)\n",
                shown, n);
}

static tf_status bias_text(print_ctx *c, FILE *fp)
{
    bias_data b;
    tf_status st = bias_make(c->a, &b);
    if (st != TF_OK)
        return st;
    const tf_positions *p = &b.pc.p;
    int h = b.s == SCHEME_NONE ? 0 : p->head;
    const double *m = b.bias + (size_t)h * (size_t)b.n * (size_t)b.n;
    const char *mask = p->mask == SCHEME_MASK_CAUSAL
                           ? "causal mask: keys after the query hidden (-inf)"
                           : "symmetric: every key seen";
    if (b.s == SCHEME_ALIBI) {
        fprintf(fp, "ALiBi (Press et al. 2022): score_h(i, j) = q_i.k_j / sqrt(d) - m_h |i - j|; "
                    "%d heads, %s\n  slopes m_h:", b.heads, mask);
        for (int k = 0; k < b.heads; k++)
            fprintf(fp, "%s h%d %.6g", k && k % 8 == 0 ? "\n             " : "", k + 1,
                    b.pc.slopes[k]);
        fprintf(fp, "\n  bias of head %d (m = %.6g); rows: query i, columns: key j\n", h + 1,
                b.pc.slopes[h]);
    } else if (b.s == SCHEME_T5) {
        fprintf(fp, "T5 relative position buckets (Raffel et al. 2020): score_h(i, j) = q_i.k_j + "
                    "b[bucket(j - i)][h]; %d buckets, max distance %ld, %s, %s\n",
                p->buckets.num_buckets, p->buckets.max_distance,
                p->buckets.bidirectional ? "bidirectional" : "unidirectional", mask);
        fprintf(fp, "  the bucket of key j for query i (every distance from %ld on shares the "
                    "last bucket of its direction)\n", p->buckets.max_distance);
        bias_matrix_text(fp, &b, NULL, b.bucket);
        fprintf(fp, "  bias of head %d from %s table; rows: query i, columns: key j\n", h + 1,
                b.pc.t5->trained ? "the file's" : "an untrained (seeded random)");
    } else {
        fprintf(fp, "NoPE: no position signal, bias 0 (%s)\n", mask);
    }
    bias_matrix_text(fp, &b, m, NULL);
    bias_free(&b);
    return ferror(fp) ? TF_ERR_IO : TF_OK;
}

static const char *bias_check(const tf_config *cfg, const print_request *req)
{
    (void)req;
    tf_scheme s = bias_scheme(cfg);
    if (params(cfg)->n > 1)
        return "--print bias shows one scheme: give --scheme alibi, t5 or none";
    if (s != SCHEME_ALIBI && s != SCHEME_T5 && s != SCHEME_NONE)
        return "--print bias shows the schemes that add a bias to the scores (--scheme alibi, t5 "
               "or none); sinusoidal, learned and rope change the input or q and k, which "
               "--print schemes compares";
    if (cfg->n_positions > TF_MAX_DOT_POSITIONS)
        return "--print bias builds an n x n matrix per head: use -n 4096 or fewer";
    if ((double)bias_heads(cfg) * (double)cfg->n_positions * (double)cfg->n_positions >
        TF_MAX_BIAS_VALUES)
        return "--print bias would hold more than 8388608 numbers (heads x n x n); lower -n or "
               "--heads";
    return NULL;
}

static double bias_work(const tf_analysis *a, out_format f)
{
    double n = (double)a->cfg.n_positions;
    return bias_heads(&a->cfg) * n * n * (f == FMT_TEXT ? 20.0 : work_value(f) + 20.0);
}

const print_topic topic_bias = {
    .name = "bias", .formats = JC | N, .work = bias_work, .check = bias_check,
    .build = bias_build, .text = bias_text,
};

/* =============================================================================================
 * rope-scaling: RoPE's inverse frequencies under a context-extension method */

static const char *rs_check(const tf_config *cfg, const print_request *req)
{
    (void)req;
    if (params(cfg)->scaling.kind == ROPE_SCALING_NONE)
        return "--print rope-scaling needs a method: --scaling linear, ntk, dynamic, yarn or "
               "llama3";
    return NULL;
}

#define RS_DISTANCES 5

/* The distances the unseen share is given at: L - 1, L, s (L - 1), s L, 2 s L. */
static void rs_distances(const tf_posctx *pc, double *k)
{
    double L = (double)pc->p.scaling.original, s = pc->p.scaling.factor;
    k[0] = L - 1, k[1] = L, k[2] = floor(s * (L - 1)), k[3] = floor(s * L), k[4] = 2 * k[3];
}

/* Each method's own parameters (the ones its formula reads). */
static void rs_params(const tf_posctx *pc, sink *s)
{
    const rope_scaling_cfg *m = &pc->p.scaling;
    int d = pc->d;
    switch (m->kind) {
    case ROPE_SCALING_NTK:
        sink_value(s, J, "scaled_base", pv_num(rope_scaling_base(m, d)));
        break;
    case ROPE_SCALING_DYNAMIC:
        sink_value(s, J, "seq_len", pv_num(m->seq_len > 0 ? (double)m->seq_len
                                                          : m->factor * (double)m->original));
        sink_value(s, J, "scaled_base", pv_num(rope_scaling_base(m, d)));
        break;
    case ROPE_SCALING_YARN: {
        double range[2];
        rope_scaling_yarn_range(m, d, &range[0], &range[1]);
        sink_value(s, J, "beta_fast", pv_num(m->beta_fast));
        sink_value(s, J, "beta_slow", pv_num(m->beta_slow));
        sink_value(s, J, "mscale", m->mscale > 0 ? pv_num(m->mscale) : pv_null());
        sink_value(s, J, "mscale_all_dim",
                   m->mscale_all_dim > 0 ? pv_num(m->mscale_all_dim) : pv_null());
        sink_value(s, J, "truncate", pv_bool(m->truncate));
        sink_value(s, J, "correction_range", pv_dvec(range, 2));
        break;
    }
    case ROPE_SCALING_LLAMA3:
        sink_value(s, J, "low_freq_factor", pv_num(m->low_freq_factor));
        sink_value(s, J, "high_freq_factor", pv_num(m->high_freq_factor));
        sink_value(s, J, "low_freq_wavelen", pv_num((double)m->original / m->low_freq_factor));
        sink_value(s, J, "high_freq_wavelen", pv_num((double)m->original / m->high_freq_factor));
        break;
    default:
        break;
    }
}

static const sink_col rs_cols[] = {{"i", C, NULL},          {"original", C, NULL},
                                   {"inv_freq", C, NULL},   {"ratio", C, NULL},
                                   {"original_wavelength", C, NULL}, {"wavelength", C, NULL}};

static tf_status rs_row(void *ctx, size_t i, pv *cell)
{
    const tf_posctx *pc = ctx;
    cell[0] = pv_uint(i);
    cell[1] = pv_num(pc->original[i]);
    cell[2] = pv_num(pc->inv_freq[i]);
    cell[3] = pv_num(pc->inv_freq[i] / pc->original[i]);
    cell[4] = pv_num(2 * M_PI / pc->original[i]);
    cell[5] = pv_num(2 * M_PI / pc->inv_freq[i]);
    return TF_OK;
}

static tf_status rs_npy_row(void *ctx, size_t i, void *out)
{
    const tf_posctx *pc = ctx;
    ((double *)out)[0] = pc->original[i];
    ((double *)out)[1] = pc->inv_freq[i];
    return TF_OK;
}

/* The share of pairs at angles training never reached, plain and scaled, at a few distances. */
static void rs_unseen(const tf_posctx *pc, sink *s)
{
    double k[RS_DISTANCES], plain[RS_DISTANCES], scaled[RS_DISTANCES];
    rs_distances(pc, k);
    for (int i = 0; i < RS_DISTANCES; i++) {
        plain[i] = posctx_unseen(pc, false, k[i]);
        scaled[i] = posctx_unseen(pc, true, k[i]);
    }
    sink_begin(s, J, "unseen");
    sink_value(s, J, "distance", pv_dvec(k, RS_DISTANCES));
    sink_value(s, J, "plain", pv_dvec(plain, RS_DISTANCES));
    sink_value(s, J, "scaled", pv_dvec(scaled, RS_DISTANCES));
    sink_end(s, J);
}

static tf_status rs_build(print_ctx *c, sink *s)
{
    tf_posctx pc;
    tf_status st = ctx_open(c->a, &pc);
    if (st != TF_OK)
        return st;
    const rope_scaling_cfg *m = &pc.p.scaling;
    size_t h = (size_t)pc.d / 2;
    sink_value(s, J, "scaling", pv_str(rope_scaling_name(m->kind)));
    sink_value(s, J, "factor", pv_num(m->factor));
    sink_value(s, J, "base", pv_num(m->base));
    sink_value(s, J, "d_model", pv_int(pc.d));
    sink_value(s, J, "original_context", pv_int(m->original));
    sink_value(s, J, "attention_factor", pv_num(pc.attention_factor));
    rs_params(&pc, s);
    sink_value(s, J, "inv_freq", pv_dvec(pc.inv_freq, h));
    sink_value(s, J, "original", pv_dvec(pc.original, h));
    rs_unseen(&pc, s);
    st = sink_table(s, C, &(sink_table_def){.cols = rs_cols, .ncols = 6, .rows = h,
                                            .row = rs_row, .ctx = &pc});
    if (st == TF_OK)
        st = sink_matrix(s, N, &(sink_matrix_def){.rows = h, .cols = 2, .row = rs_npy_row,
                                                  .ctx = &pc});
    posctx_close(&pc);
    return st;
}

/* The method in words, its parameters in numbers. */
static void rs_header(FILE *fp, const tf_posctx *pc)
{
    const rope_scaling_cfg *m = &pc->p.scaling;
    static const char *const what[ROPE_SCALING_COUNT] = {
        [ROPE_SCALING_LINEAR] = "position interpolation (Chen et al. 2023): theta'_i = "
                                "theta_i / s",
        [ROPE_SCALING_NTK] = "NTK-aware (bloc97 2023): base' = base s^(d/(d-2))",
        [ROPE_SCALING_DYNAMIC] = "dynamic NTK: base' = base (s l / L - (s - 1))^(d/(d-2))",
        [ROPE_SCALING_YARN] = "YaRN (Peng et al. 2023): slow pairs theta_i / s, fast pairs kept, "
                              "a ramp between; scores times a^2",
        [ROPE_SCALING_LLAMA3] = "Llama 3.1: wavelengths above L / low kept / s, below "
                                "L / high kept, blended between",
    };
    fprintf(fp, "RoPE scaling %s, %s\n  d = %d, base %g, factor s = %g, original context L = %ld, "
                "attention factor a = %.6g\n",
            rope_scaling_name(m->kind), what[m->kind], pc->d, m->base, m->factor, m->original,
            pc->attention_factor);
    if (m->kind == ROPE_SCALING_NTK || m->kind == ROPE_SCALING_DYNAMIC)
        fprintf(fp, "  base' = %.6g\n", rope_scaling_base(m, pc->d));
    if (m->kind == ROPE_SCALING_YARN) {
        double lo, hi;
        rope_scaling_yarn_range(m, pc->d, &lo, &hi);
        fprintf(fp, "  beta_fast %g, beta_slow %g: pairs up to %g keep theta_i, from %g on "
                    "theta_i / s\n", m->beta_fast, m->beta_slow, lo, hi);
    }
    if (m->kind == ROPE_SCALING_LLAMA3)
        fprintf(fp, "  low_freq_factor %g, high_freq_factor %g: wavelengths above %g divided, "
                    "below %g kept\n", m->low_freq_factor, m->high_freq_factor,
                (double)m->original / m->low_freq_factor,
                (double)m->original / m->high_freq_factor);
    double k[RS_DISTANCES];
    rs_distances(pc, k);
    fputs("  pairs at angles training never reached (plain RoPE / scaled):", fp);
    for (int i = 0; i < RS_DISTANCES; i++)
        fprintf(fp, "%s at %.0f %.0f%% / %.0f%%", i ? "," : "", k[i],
                100 * posctx_unseen(pc, false, k[i]), 100 * posctx_unseen(pc, true, k[i]));
    fputc('\n', fp);
}

static tf_status rs_text(print_ctx *c, FILE *fp)
{
    tf_posctx pc;
    tf_status st = ctx_open(c->a, &pc);
    if (st != TF_OK)
        return st;
    rs_header(fp, &pc);
    fputs("     i       theta_i      theta'_i  theta'/theta   wavelength -> scaled\n", fp);
    for (int i = 0; i < pc.d / 2; i++)
        fprintf(fp, "%6d  %12.6e  %12.6e  %12.6f  %11.4g -> %.4g\n", i, pc.original[i],
                pc.inv_freq[i], pc.inv_freq[i] / pc.original[i], 2 * M_PI / pc.original[i],
                2 * M_PI / pc.inv_freq[i]);
    posctx_close(&pc);
    return ferror(fp) ? TF_ERR_IO : TF_OK;
}

const print_topic topic_rope_scaling = {
    .name = "rope-scaling", .formats = JC | N, .work = work_small, .check = rs_check,
    .build = rs_build, .text = rs_text,
};

/* =============================================================================================
 * schemes: one curve per scheme against distance k = i - j, with where it was trained */

typedef struct {
    tf_scheme s;
    bool scaled;     /* rope: with the scaling */
    char name[32];   /* "sinusoidal", "rope+yarn" */
    double *v;       /* (n) */
    double *unseen;  /* rope with a trained length: (n) the share of unseen pairs, else NULL */
    long trained;
} curve;

typedef struct {
    tf_posctx pc;
    long n;
    int nc;
    curve c[SCHEME_COUNT + 1];
} curves;

static void curves_free(curves *k)
{
    for (int i = 0; i < k->nc; i++) {
        free(k->c[i].v);
        free(k->c[i].unseen);
    }
    posctx_close(&k->pc);
}

/* The curves of the listed schemes (posctx_curves: all six when none is, RoPE also with its
 * scaling) at distances 0 .. n - 1, named; on failure nothing is left to free. */
static tf_status curves_make(const tf_analysis *a, curves *k)
{
    memset(k, 0, sizeof *k);
    k->n = a->cfg.n_positions;
    tf_status st = ctx_open(a, &k->pc);
    posctx_curves cv = {0};
    if (st == TF_OK) {
        posctx_curves_list(&k->pc, &cv);
        st = posctx_curves_fill(&k->pc, 0, k->n, &cv);
    }
    for (int i = 0; i < cv.n_curves; i++) { /* the values are k's now */
        const posctx_curve_row *r = &cv.c[i];
        curve *c = &k->c[k->nc++];
        *c = (curve){.s = r->s, .scaled = r->scaled, .v = r->v, .unseen = r->unseen,
                     .trained = r->trained};
        snprintf(c->name, sizeof c->name, r->scaled ? "rope+%s" : "%s",
                 r->scaled ? rope_scaling_name(k->pc.p.scaling.kind) : scheme_name(r->s));
    }
    if (st != TF_OK)
        curves_free(k);
    return st;
}

/* One curve's description and values in JSON. */
static void curve_json(const curves *k, const curve *c, sink *s)
{
    const tf_posctx *pc = &k->pc;
    const tf_positions *p = &pc->p;
    sink_begin(s, J, c->name);
    sink_value(s, J, "scheme", pv_str(scheme_name(c->s)));
    sink_value(s, J, "quantity", pv_str(poscurve_quantity_name(poscurve_quantity_of(c->s))));
    sink_value(s, J, "trained_length", c->trained > 0 ? pv_int(c->trained) : pv_null());
    if (c->s == SCHEME_LEARNED) {
        sink_value(s, J, "trained", pv_bool(pc->table->trained));
        sink_value(s, J, "rows", pv_int(pc->table->n_pos));
        sink_value(s, J, "width", pv_int(pc->table->d));
        sink_value(s, J, "tensor", pc->table->name ? pv_str(pc->table->name) : pv_null());
    } else if (c->s == SCHEME_ROPE) {
        sink_value(s, J, "scaling",
                   pv_str(rope_scaling_name(c->scaled ? p->scaling.kind : ROPE_SCALING_NONE)));
        sink_value(s, J, "attention_factor", pv_num(c->scaled ? pc->attention_factor : 1.0));
        /* the base it turns at: a scaling's own (Llama 3's 500000), plain RoPE beside it too */
        sink_value(s, J, "rope_base", pv_num(p->scaling.kind != ROPE_SCALING_NONE
                                                 ? p->scaling.base : pc->base));
    } else if (c->s == SCHEME_ALIBI) {
        sink_value(s, J, "head", pv_int(p->head + 1));
        sink_value(s, J, "slope", pv_num(pc->slopes[p->head]));
    } else if (c->s == SCHEME_T5) {
        sink_value(s, J, "head", pv_int(p->head + 1));
        sink_value(s, J, "num_buckets", pv_int(p->buckets.num_buckets));
        sink_value(s, J, "max_distance", pv_int(p->buckets.max_distance));
        sink_value(s, J, "bidirectional", pv_bool(p->buckets.bidirectional));
        sink_value(s, J, "trained", pv_bool(pc->t5->trained));
    }
    sink_value(s, J, "values", pv_dvec(c->v, (size_t)k->n));
    if (c->unseen)
        sink_value(s, J, "unseen", pv_dvec(c->unseen, (size_t)k->n));
    sink_end(s, J);
}

/* CSV: the distance, then one column per curve (null where a curve has no value, which pandas
 * and R read as missing: a learned table past its rows). */
typedef struct {
    const curves *k;
    double *row; /* (nc) */
} curves_rows;

static void curve_name(void *ctx, size_t j, pv *out)
{
    *out = pv_str(((const curves_rows *)ctx)->k->c[j].name);
}

static const sink_col curves_cols[] = {{"distance", C, NULL}, {"values", C, curve_name}};

static tf_status curves_csv_row(void *ctx, size_t t, pv *cell)
{
    curves_rows *r = ctx;
    for (int i = 0; i < r->k->nc; i++)
        r->row[i] = r->k->c[i].v[t];
    cell[0] = pv_uint(t);
    cell[1] = pv_dvec(r->row, (size_t)r->k->nc);
    return TF_OK;
}

static tf_status schemes_build(print_ctx *c, sink *s)
{
    curves k;
    tf_status st = curves_make(c->a, &k);
    if (st != TF_OK)
        return st;
    const tf_positions *p = &k.pc.p;
    sink_value(s, J, "d_model", pv_int(k.pc.d));
    sink_value(s, J, "base", pv_num(k.pc.base));
    sink_value(s, J, "positions", pv_int(k.n));
    sink_value(s, J, "mask", pv_str(scheme_mask_name(p->mask)));
    sink_value(s, J, "distance_is", pv_str("k = i - j: the key k positions before its query"));
    st = sink_table(s, J, &(sink_table_def){.key = "distance", .cols = distance_col, .ncols = 1,
                                            .rows = (size_t)k.n, .flat = true,
                                            .row = distance_row});
    sink_begin(s, J, "schemes");
    for (int i = 0; i < k.nc; i++)
        curve_json(&k, &k.c[i], s);
    sink_end(s, J);
    curves_rows r = {&k, malloc((size_t)k.nc * sizeof(double))};
    if (st == TF_OK && !r.row)
        st = TF_ERR_NOMEM;
    if (st == TF_OK)
        st = sink_table(s, C, &(sink_table_def){.cols = curves_cols, .ncols = 2,
                                                .rows = (size_t)k.n, .row = curves_csv_row,
                                                .ctx = &r});
    free(r.row);
    curves_free(&k);
    return st;
}

/* What each curve is, one line each. */
static void curves_legend(FILE *fp, const curves *k)
{
    const tf_posctx *pc = &k->pc;
    const tf_positions *p = &pc->p;
    for (int i = 0; i < k->nc; i++) {
        const curve *c = &k->c[i];
        fprintf(fp, "  %-12s %-10s ", c->name,
                poscurve_quantity_name(poscurve_quantity_of(c->s)));
        switch (c->s) {
        case SCHEME_NONE:
            fputs("0 at every distance: no position signal", fp);
            break;
        case SCHEME_SINUSOIDAL:
            fputs("cos(PE(p), PE(p + k)) = (2/d) sum_i cos(k w_i)", fp);
            break;
        case SCHEME_LEARNED:
            fprintf(fp, "mean cos(P[p], P[p + k]) of %s table of %ld rows x %d", 
                    pc->table->trained ? "the file's" : "an untrained (random)",
                    pc->table->n_pos, pc->table->d);
            break;
        case SCHEME_ROPE:
            fprintf(fp, "a^2 (R_m q).(R_n k) / (|q| |k|), q = k = ones, base %g%s%s",
                    p->scaling.kind != ROPE_SCALING_NONE ? p->scaling.base : pc->base,
                    c->scaled ? ", frequencies of " : "",
                    c->scaled ? rope_scaling_name(p->scaling.kind) : "");
            break;
        case SCHEME_ALIBI:
            fprintf(fp, "-m |k|, head %d of %d, m = %.6g", p->head + 1, p->heads,
                    pc->slopes[p->head]);
            break;
        default:
            fprintf(fp, "b[bucket(-k)][h] of %s table, head %d, %d buckets up to %ld",
                    pc->t5->trained ? "the file's" : "an untrained (random)", p->head + 1,
                    p->buckets.num_buckets, p->buckets.max_distance);
            break;
        }
        if (c->trained > 0)
            fprintf(fp, "; trained up to %ld", c->trained);
        fputc('\n', fp);
    }
}

/* The distances the text shows: all up to 32, then 0..15, growing steps, the trained lengths
 * and their neighbours, and the last. */
static bool text_row_shown(const curves *k, long t)
{
    if (k->n <= 32 || t < 16 || t == k->n - 1)
        return true;
    for (int i = 0; i < k->nc; i++)
        if (k->c[i].trained > 0 && labs(t - k->c[i].trained) <= 1)
            return true;
    long step = 16;
    while (step * 8 <= t)
        step *= 2;
    return t % step == 0;
}

static tf_status schemes_text(print_ctx *c, FILE *fp)
{
    curves k;
    tf_status st = curves_make(c->a, &k);
    if (st != TF_OK)
        return st;
    fprintf(fp, "Position schemes against distance k = i - j (the key k positions before its "
                "query), d_model %d, %s mask\n", k.pc.d, scheme_mask_name(k.pc.p.mask));
    curves_legend(fp, &k);
    fprintf(fp, "%8s", "k");
    for (int i = 0; i < k.nc; i++)
        fprintf(fp, " %11.11s", k.c[i].name);
    fputc('\n', fp);
    for (long t = 0; t < k.n && !ferror(fp); t++) {
        if (!text_row_shown(&k, t))
            continue;
        fprintf(fp, "%8ld", t);
        for (int i = 0; i < k.nc; i++)
            text_num(fp, 11, k.c[i].v[t]);
        fputc('\n', fp);
    }
    fputs("  (- : no value; a learned table has no pair of rows that far apart. --format csv or "
          "json gives every distance)\n", fp);
    curves_free(&k);
    return ferror(fp) ? TF_ERR_IO : TF_OK;
}

static const char *schemes_check(const tf_config *cfg, const print_request *req)
{
    (void)req;
    (void)cfg;
    return NULL;
}

static double schemes_work(const tf_analysis *a, out_format f)
{
    const tf_positions *p = params(&a->cfg);
    double n = (double)a->cfg.n_positions, d = a->cfg.d_model;
    double rows = p->table ? (double)p->table->n_pos : POSITIONS_DEFAULT_LEARNED;
    double width = p->table ? p->table->d : d;
    bool learned = p->n == 0;
    for (size_t i = 0; i < p->n; i++)
        learned |= p->list[i] == SCHEME_LEARNED;
    /* the learned curve (when listed) visits every pair of rows up to n apart; RoPE a sum over
     * d/2 pairs */
    return (learned ? 2.0 * fmin(n, rows) * rows * width : 0.0) + 4.0 * n * d * 20.0 +
           8 * n * work_value(f);
}

const print_topic topic_schemes = {
    .name = "schemes", .formats = JC, .work = schemes_work, .check = schemes_check,
    .build = schemes_build, .text = schemes_text,
};

/* =============================================================================================
 * pe of a learned table: the file's (--pe-file) or an untrained one (--scheme learned) */

bool print_pe_learned(const tf_config *cfg)
{
    const tf_positions *p = params(cfg);
    if (p->n == 1)
        return p->list[0] == SCHEME_LEARNED;
    return p->n == 0 && p->table != NULL;
}

static tf_status table_row(void *ctx, size_t r, pv *cell)
{
    const tf_learned_pe *t = ctx;
    cell[0] = pv_uint(r);
    cell[1] = pv_dvec(t->p + r * (size_t)t->d, (size_t)t->d);
    return TF_OK;
}

static const sink_col table_cols[] = {{"pos", C, NULL}, {"pe", C, NULL}};

tf_status print_pe_table_build(print_ctx *c, sink *s)
{
    tf_posctx pc;
    tf_status st = ctx_open(c->a, &pc);
    if (st != TF_OK)
        return st;
    const tf_learned_pe *t = pc.table;
    size_t rows = (size_t)t->n_pos, d = (size_t)t->d;
    sink_value(s, J, "scheme", pv_str("learned"));
    sink_value(s, J, "trained", pv_bool(t->trained));
    sink_value(s, J, "tensor", t->name ? pv_str(t->name) : pv_null());
    sink_value(s, J, "dtype", pv_str(t->trained ? tensor_dtype_name(t->dtype) : "F64"));
    sink_value(s, J, "d_model", pv_uint(d));
    sink_value(s, J, "positions", pv_uint(rows));
    sink_value(s, J, "index_base", pv_int(0));
    st = sink_matrix(s, J | N, &(sink_matrix_def){.key = "pe", .rows = rows, .cols = d,
                                                  .digits = EMIT_F64_DIGITS, .data = t->p});
    if (st == TF_OK)
        st = sink_table(s, C, &(sink_table_def){.cols = table_cols, .ncols = 2, .rows = rows,
                                                .row = table_row, .ctx = (void *)t});
    posctx_close(&pc);
    return st;
}

tf_status print_pe_table_text(print_ctx *c, FILE *fp)
{
    tf_posctx pc;
    tf_status st = ctx_open(c->a, &pc);
    if (st != TF_OK)
        return st;
    const tf_learned_pe *t = pc.table;
    long n = c->rows > 0 && c->rows < t->n_pos ? c->rows : t->n_pos;
    if (t->trained) {
        char *name = t->name ? emit_safe_dup(t->name) : NULL; /* a name from the file, shown
                                                                * as the terminal's text */
        fprintf(fp, "A learned position table (%s, %s): %ld positions x %d; row p is added to "
                    "the token at position p\n    pos",
                t->name ? (name ? name : "?") : ".npy", tensor_dtype_name(t->dtype), t->n_pos,
                t->d);
        free(name);
    } else {
        fprintf(fp, "An untrained learned position table (seeded random, uniform in "
                    "+-sqrt(3/d)): %ld positions x %d; training gives it its pattern\n    pos",
                t->n_pos, t->d);
    }
    text_col_header(fp, t->d);
    for (long r = 0; r < n && !ferror(fp); r++) {
        fprintf(fp, "%7ld", r);
        text_row_d(fp, t->p + (size_t)r * (size_t)t->d, t->d);
    }
    text_cols_note(fp, t->d);
    posctx_close(&pc);
    return ferror(fp) ? TF_ERR_IO : TF_OK;
}

double print_pe_table_work(const tf_config *cfg, out_format f)
{
    const tf_positions *p = params(cfg);
    double rows = p->table ? (double)p->table->n_pos
                           : p->trained > 0 ? (double)p->trained : POSITIONS_DEFAULT_LEARNED;
    double d = p->table ? p->table->d : cfg->d_model;
    return rows * work_shown(f, d) * work_value(f);
}

/* =============================================================================================
 * style: the look of each position scheme in every figure, animation and view (style.h) */

static const sink_col style_cols[] = {{"scheme", JC, NULL}, {"color", JC, NULL},
                                      {"dash", JC, NULL}, {"marker", JC, NULL}};

typedef struct {
    char hex[8];
} style_hex;

static tf_status style_row(void *ctx, size_t i, pv *cell)
{
    style_hex *h = ctx;
    const scheme_style *st = style_at(i);
    snprintf(h->hex, sizeof h->hex, "#%02x%02x%02x", st->color.r, st->color.g, st->color.b);
    cell[0] = pv_str(st->name);
    cell[1] = pv_str(h->hex);
    cell[2] = pv_str(style_dash_name(st->dash));
    cell[3] = pv_str(style_marker_name(st->marker));
    return TF_OK;
}

static tf_status style_build(print_ctx *c, sink *s)
{
    (void)c;
    style_hex h;
    return sink_table(s, JC, &(sink_table_def){.key = "style", .cols = style_cols, .ncols = 4,
                                               .rows = style_count(), .row = style_row,
                                               .ctx = &h});
}

static tf_status style_text(print_ctx *c, FILE *fp)
{
    (void)c;
    fprintf(fp, "%-14s %-8s %-8s %s\n", "scheme", "colour", "dash", "marker");
    for (size_t i = 0; i < style_count(); i++) {
        const scheme_style *st = style_at(i);
        fprintf(fp, "%-14s #%02x%02x%02x  %-8s %s\n", st->name, st->color.r, st->color.g,
                st->color.b, style_dash_name(st->dash), style_marker_name(st->marker));
    }
    return TF_OK;
}

const print_topic topic_style = {
    .name = "style", .formats = JC, .work = work_small, .build = style_build, .text = style_text,
};
