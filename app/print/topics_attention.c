/* topics_attention.c — the topics of what attention reads: input (X_input = X_emb + PE, C11),
 * rope (C13) and order (C6). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/emit.h"
#include "linalg.h"
#include "posenc.h"
#include "print/topic.h"
#include "rope.h"
#include "textwidth.h"

enum { J = SINK_JSON, C = SINK_CSV, N = SINK_NPY, JC = SINK_JSON | SINK_CSV };

/* ---------------------------------------------------------------------------------------------
 * input (C11) */

typedef struct {
    const tf_analysis *a;
    double *emb; /* (d) the scaled embedding row of the token being written */
} input_rows;

/* emb = s * X_emb[t] */
static void scaled_row(const tf_analysis *a, size_t t, double *emb)
{
    size_t d = (size_t)a->cfg.d_model;
    for (size_t j = 0; j < d; j++)
        emb[j] = a->emb_scale * a->x_emb[t * d + j];
}

static const sink_col input_json_cols[] = {
    {"text", J, NULL}, {"id", J, NULL},  {"pos", J, NULL},         {"embedding", J, NULL},
    {"pe", J, NULL},   {"input", J, NULL}, {"norms.embedding", J, NULL}, {"norms.pe", J, NULL},
    {"norms.input", J, NULL},
};

static tf_status input_json_row(void *ctx, size_t t, pv *cell)
{
    input_rows *k = ctx;
    const tf_analysis *a = k->a;
    size_t d = (size_t)a->cfg.d_model;
    scaled_row(a, t, k->emb);
    const double *pe = a->pe + t * d, *x = a->x_input + t * d;
    cell[0] = tok_value(a, t);
    cell[1] = pv_int(a->tokens.items[t].id);
    cell[2] = pv_int(a->pos[t]);
    cell[3] = pv_dvec(k->emb, d);
    cell[4] = pv_dvec(pe, d);
    cell[5] = pv_dvec(x, d);
    cell[6] = pv_num(la_norm(k->emb, d));
    cell[7] = pv_num(la_norm(pe, d));
    cell[8] = pv_num(la_norm(x, d));
    return TF_OK;
}

static const sink_col input_csv_cols[] = {{"token", C, NULL}, {"pos", C, NULL},
                                          {"part", C, NULL}, {"values", C, NULL}};

/* three rows per token: its scaled embedding, its PE and their sum */
static tf_status input_csv_row(void *ctx, size_t r, pv *cell)
{
    input_rows *k = ctx;
    const tf_analysis *a = k->a;
    size_t t = r / 3, d = (size_t)a->cfg.d_model;
    static const char *const part[3] = {"embedding", "pe", "input"};
    if (r % 3 == 0)
        scaled_row(a, t, k->emb);
    const double *rows[3] = {k->emb, a->pe + t * d, a->x_input + t * d};
    cell[0] = tok_value(a, t);
    cell[1] = pv_int(a->pos[t]);
    cell[2] = pv_str(part[r % 3]);
    cell[3] = pv_dvec(rows[r % 3], d);
    return TF_OK;
}

static tf_status input_build(print_ctx *c, sink *s)
{
    const tf_analysis *a = c->a;
    size_t T = a->tokens.n, d = (size_t)a->cfg.d_model;
    input_rows k = {a, malloc(d * sizeof(double))};
    if (!k.emb)
        return TF_ERR_NOMEM;
    sink_value(s, J, "d_model", pv_uint(d));
    sink_value(s, J, "scale_embedding", pv_bool(a->cfg.scale_embedding));
    sink_value(s, J, "embedding_scale", pv_num(a->emb_scale));
    tf_status st = sink_table(s, J, &(sink_table_def){.key = "tokens", .cols = input_json_cols,
                                                  .ncols = 9, .rows = T,
                                                  .row = input_json_row, .ctx = &k});
    if (st == TF_OK)
        st = sink_table(s, C, &(sink_table_def){.cols = input_csv_cols, .ncols = 4, .rows = 3 * T,
                                            .row = input_csv_row, .ctx = &k});
    if (st == TF_OK)
        st = sink_matrix(s, N, &(sink_matrix_def){.rows = T, .cols = d,
                                              .data = a->x_input});
    free(k.emb);
    return st;
}

static tf_status input_text(print_ctx *c, FILE *fp)
{
    const tf_analysis *a = c->a;
    size_t T = a->tokens.n, d = (size_t)a->cfg.d_model;
    double *emb = malloc(d * sizeof *emb);
    if (!emb)
        return TF_ERR_NOMEM;
    fprintf(fp, "X_input(pos) = %s X_emb(token) + PE(pos)%s\n",
            a->cfg.scale_embedding ? "sqrt(d_model) *" : "",
            a->cfg.scale_embedding ? ""
                                   : "   (--scale-embedding multiplies X_emb by sqrt(d_model))");
    int w = token_col_width(a);
    for (size_t t = 0; t < T; t++) {
        size_t l;
        const char *s = tok_text(a, t, &l);
        scaled_row(a, t, emb);
        const double *pe = a->pe + t * d, *x = a->x_input + t * d;
        fputs("\n", fp);
        text_token(fp, s, l, w);
        fprintf(fp, "  pos %ld   |emb| = %.4f   |PE| = %.4f   |X_input| = %.4f\n", a->pos[t],
                la_norm(emb, d), la_norm(pe, d), la_norm(x, d));
        fputs("            dim", fp);
        text_col_header(fp, (int)d);
        fputs("      embedding", fp);
        text_row_d(fp, emb, (int)d);
        fputs("     + PE(pos) ", fp);
        text_row_d(fp, pe, (int)d);
        fputs("     = X_input ", fp);
        text_row_d(fp, x, (int)d);
    }
    text_cols_note(fp, (int)d);
    free(emb);
    return TF_OK;
}

static double input_work(const tf_analysis *a, out_format f)
{
    double d = a->cfg.d_model;
    return 3 * (double)a->tokens.n * work_shown(f, d) * work_value(f);
}

const print_topic topic_input = {
    .name = "input", .formats = JC | N, .work = input_work, .build = input_build,
    .text = input_text,
};

/* ---------------------------------------------------------------------------------------------
 * rope (C13) */

typedef struct {
    const tf_analysis *a;
    double *theta; /* (d/2) */
} rope_rows;

static const sink_col rope_token_cols[] = {{"text", J, NULL}, {"pos", J, NULL},
                                           {"q", J, NULL},    {"q_rot", J, NULL},
                                           {"k", J, NULL},    {"k_rot", J, NULL}};

static tf_status rope_token_row(void *ctx, size_t t, pv *cell)
{
    const tf_analysis *a = ((const rope_rows *)ctx)->a;
    size_t d = (size_t)a->cfg.d_model;
    cell[0] = tok_value(a, t);
    cell[1] = pv_int(a->pos[t]);
    cell[2] = pv_dvec(a->q + t * d, d);
    cell[3] = pv_dvec(a->q_rot + t * d, d);
    cell[4] = pv_dvec(a->k + t * d, d);
    cell[5] = pv_dvec(a->k_rot + t * d, d);
    return TF_OK;
}

static const sink_col rope_pair_cols[] = {{"i", C, NULL},     {"theta", C, NULL},
                                          {"dim_a", C, NULL}, {"dim_b", C, NULL},
                                          {"wavelength", C, NULL}};

static tf_status rope_pair_row(void *ctx, size_t i, pv *cell)
{
    const rope_rows *k = ctx;
    const tf_config *c = &k->a->cfg;
    int da, db;
    rope_pair(c->rope, c->d_model, (int)i, &da, &db);
    cell[0] = pv_uint(i);
    cell[1] = pv_num(k->theta[i]);
    cell[2] = pv_int(da);
    cell[3] = pv_int(db);
    cell[4] = pv_num(2.0 * M_PI / k->theta[i]);
    return TF_OK;
}

static tf_status rope_build(print_ctx *c, sink *s)
{
    const tf_analysis *a = c->a;
    const tf_config *cfg = &a->cfg;
    size_t d = (size_t)cfg->d_model, h = d / 2;
    rope_rows k = {a, malloc(h * sizeof(double))};
    if (!k.theta)
        return TF_ERR_NOMEM;
    rope_thetas(cfg->d_model, cfg->base, k.theta);
    sink_value(s, J, "style", pv_str(rope_style_name(cfg->rope)));
    sink_value(s, J, "base", pv_num(cfg->base));
    sink_value(s, J, "d_model", pv_uint(d));
    sink_value(s, J, "theta", pv_dvec(k.theta, h));
    tf_status st = sink_table(s, J, &(sink_table_def){.key = "tokens", .cols = rope_token_cols,
                                                  .ncols = 6, .rows = a->tokens.n,
                                                  .row = rope_token_row, .ctx = &k});
    sink_value(s, J, "score_offset_max_dev", pv_num(a->score_offset_max_dev));
    sink_value(s, J, "score_check_positions", pv_int(a->rope_check_positions));
    if (st == TF_OK)
        st = sink_table(s, C, &(sink_table_def){.cols = rope_pair_cols, .ncols = 5, .rows = h,
                                            .row = rope_pair_row, .ctx = &k});
    free(k.theta);
    return st;
}

static tf_status rope_text(print_ctx *c, FILE *fp)
{
    const tf_analysis *a = c->a;
    const tf_config *cfg = &a->cfg;
    size_t T = a->tokens.n, d = (size_t)cfg->d_model;
    double theta0 = posenc_omega(0, cfg->d_model, cfg->base); /* theta_0 */
    fprintf(fp, "RoPE, %s pairing, base %g: q and k of the token at position m are rotated, "
                "pair i by m * theta_i, theta_i = base^(-2i/d)\n",
            rope_style_name(cfg->rope), cfg->base);
    int da, db;
    rope_pair(cfg->rope, cfg->d_model, 1, &da, &db);
    fprintf(fp, "  pair 0 = dims (0, %d), pair 1 = dims (%d, %d)\n",
            cfg->rope == ROPE_HALF ? cfg->d_model / 2 : 1, da, db);
    int w = token_col_width(a);
    for (size_t t = 0; t < T; t++) {
        size_t l;
        const char *s = tok_text(a, t, &l);
        fputs("  ", fp);
        text_token(fp, s, l, w);
        fprintf(fp, "  pos %ld  angle of pair 0 = %.4f rad  |q| = %.4f = |R q| = %.4f\n",
                a->pos[t], a->pos[t] * theta0, la_norm(a->q + t * d, d),
                la_norm(a->q_rot + t * d, d));
    }
    fprintf(fp, "  max |(R_m q).(R_n k) - (R_{m-n} q).k| over m, n < %ld: %.3e  "
                "(the score depends on m - n only)\n",
            a->rope_check_positions, a->score_offset_max_dev);
    return TF_OK;
}

static double rope_work(const tf_analysis *a, out_format f)
{
    double T = (double)a->tokens.n, d = a->cfg.d_model;
    return 2 * 1.3 * T * d * d + 3.0 * ROPE_CHECK_MAX_POSITIONS * ROPE_CHECK_MAX_POSITIONS * d +
           4 * T * d * work_value(f);
}

const print_topic topic_rope = {
    .name = "rope", .needs = ANALYSIS_ROPE, .formats = JC, .work = rope_work,
    .build = rope_build, .text = rope_text,
};

/* ---------------------------------------------------------------------------------------------
 * order (C6): both word orders through one random, untrained head (LayerNorm, word vectors
 * times sqrt(d)); per mode the attention matrices, each token's output difference and its share
 * of max|Z_A| */

/* Tokens of the compared sentence (cmp = 1) or of the sentence itself. */
static const char *order_tok(const tf_analysis *a, int cmp, size_t t, size_t *len)
{
    const tf_token *k = cmp ? &a->cmp_tokens.items[t] : &a->tokens.items[t];
    *len = k->end - k->start;
    return (cmp ? a->cmp_text : a->text) + k->start;
}

/* Row r of the attention matrices in the order (mode, sentence a/b, row): JSON's A_a and A_b
 * (ctx: one mode's result, sentence a), and npy's (3, 2, T, T) array (ctx: the analysis). */
typedef struct {
    const tf_analysis *a;
    const tf_order_result *r; /* NULL: all modes and both sentences, as npy */
    int sb; /* with r: 0 sentence a, 1 sentence b, 2 b in a's order, 3 |a - b in a's order| */
} order_rows;

static tf_status order_matrix_row(void *ctx, size_t row, void *out)
{
    const order_rows *k = ctx;
    size_t T = k->a->tokens.n;
    const tf_order_result *r = k->r ? k->r : &k->a->order[row / (2 * T)];
    int sb = k->r ? k->sb : (int)(row / T % 2);
    const double *M[4] = {r->A_a, r->A_b, r->A_b_aligned, r->diff_map};
    memcpy(out, M[sb] + row % T * T, T * sizeof(double));
    return TF_OK;
}

static const sink_col order_csv_cols[] = {
    {"mode", C, NULL},         {"max_token_diff", C, NULL}, {"pooled_diff", C, NULL},
    {"max_abs_output", C, NULL}, {"relative_diff", C, NULL}, {"sentence", C, NULL},
    {"row", C, NULL},          {"token", C, NULL},          {"token_diff", C, NULL},
    {"weights", C, NULL},
};

/* CSV: one row per token, sentence and mode: the mode's summary, then the token's row of
 * attention weights and its output difference (max |Z_B - Z_A| for that token). ctx: the
 * analysis and, in inv, token u of a is token inv[u] of b. */
typedef struct {
    const tf_analysis *a;
    size_t *inv;
} order_csv;

static tf_status order_csv_row(void *ctx, size_t row, pv *cell)
{
    const order_csv *k = ctx;
    const tf_analysis *a = k->a;
    size_t T = a->tokens.n, t = row % T;
    int m = (int)(row / (2 * T)), sb = (int)(row / T % 2);
    const tf_order_result *r = &a->order[m];
    size_t l;
    const char *s = order_tok(a, sb, t, &l);
    const tf_token *tk = sb ? &a->cmp_tokens.items[t] : &a->tokens.items[t];
    cell[0] = pv_str(analysis_order_name(a, (size_t)m));
    cell[1] = pv_num(r->max_token_diff);
    cell[2] = pv_num(r->pooled_diff);
    cell[3] = pv_num(r->max_abs_output);
    cell[4] = pv_num(r->relative_diff);
    cell[5] = pv_str(sb ? "b" : "a");
    cell[6] = pv_uint(t);
    cell[7] = pv_token(s, l, (tk->flags & TOKEN_PARTIAL) != 0);
    cell[8] = pv_num(r->token_diff[sb ? t : k->inv[t]]);
    cell[9] = pv_dvec((sb ? r->A_b : r->A_a) + t * T, T);
    return TF_OK;
}

/* The rule that picks the reported head of the layer (attention.h), in one line. */
#define HEAD_RULE                                                                              \
    "the first of the layer's heads 0, 1, ... whose visibility >= 1, the same head for every "  \
    "mode; visibility = the least of relative_diff / visible_change and max_weight_diff / "     \
    "visible_weight_diff with PE and with RoPE and, for T <= 8, min_row_range / "               \
    "visible_row_range in every mode; none: the head with the largest visibility; no head can " \
    "show the order (fewer than 2 tokens, all rows equal after LayerNorm, or B = A): head 0"
#define HEAD_RULE_SCHEMES "head 0 of the layer for every scheme"

/* The head's description and one mode's numbers, in JSON. */
static tf_status order_json(const tf_analysis *a, sink *s)
{
    size_t T = a->tokens.n, d = (size_t)a->cfg.d_model;
    tf_attn_cfg head = analysis_attn_cfg(a);
    sink_value(s, J, "a", pv_strn(a->text, a->text_len));
    sink_value(s, J, "b", pv_strn(a->cmp_text, a->cmp_len));
    sink_value(s, J, "permutation", pv_svec(a->perm, T));
    /* perm: for each token of a, its index in b (the inverse of permutation) */
    size_t *where = malloc((T ? T : 1) * sizeof *where);
    if (!where)
        return TF_ERR_NOMEM;
    attention_order_where(a->perm, T, where);
    sink_value(s, J, "perm", pv_svec(where, T));
    free(where);
    sink_value(s, J, "d_model", pv_uint(d));
    sink_value(s, J, "seed", pv_uint(head.seed));
    sink_value(s, J, "norm", pv_str(attention_norm_name(head.norm)));
    sink_value(s, J, "norm_eps", pv_num(ATTN_NORM_EPS));
    sink_value(s, J, "embedding_scale", pv_num(head.emb_scale));
    sink_value(s, J, "score_scale", pv_num(1.0 / sqrt((double)d)));
    sink_value(s, J, "weights",
               pv_str("random (untrained): W_Q, W_K, W_V uniform(-sqrt(3/d), sqrt(3/d))"));
    sink_value(s, J, "head",
               pv_str("x = embedding_scale * x_emb (+ PE); h = LayerNorm(x); q, k, v = h W_Q, "
                      "h W_K, h W_V (RoPE: q, k rotated); A = softmax(q k^T * score_scale); "
                      "Z = A v"));
    /* which head of the layer is reported, and by what rule (attention_order_choose) */
    sink_value(s, J, "head_index", pv_int(a->order_head.head));
    sink_value(s, J, "heads_in_layer", pv_int(a->order_by_scheme ? 1 : ATTN_HEADS));
    sink_value(s, J, "heads_tried", pv_int(a->order_head.tried));
    sink_value(s, J, "head_visibility",
               pv_num(a->order_by_scheme ? 0.0 : a->order_head.visibility));
    sink_value(s, J, "head_rule", pv_str(a->order_by_scheme ? HEAD_RULE_SCHEMES : HEAD_RULE));
    sink_value(s, J, "visible_change", pv_num(ATTN_VISIBLE_CHANGE));
    sink_value(s, J, "visible_row_range", pv_num(ATTN_VISIBLE_ROW_RANGE));
    sink_value(s, J, "visible_weight_diff", pv_num(ATTN_VISIBLE_WEIGHT));
    sink_value(s, J, "rope_style", pv_str(rope_style_name(head.style)));
    sink_value(s, J, "base", pv_num(head.base));
    sink_value(s, J, "first_position", pv_int(head.pos0));
    if (a->order_by_scheme) { /* --scheme: the listed schemes instead of the three modes */
        const char *names[SCHEME_COUNT];
        for (size_t i = 0; i < a->n_order; i++)
            names[i] = scheme_name(a->order_scheme[i]);
        sink_value(s, J, "schemes", pv_strs(names, a->n_order));
        sink_value(s, J, "mask", pv_str(scheme_mask_name(a->order_mask)));
        sink_value(s, J, "positions_added",
                   pv_str("sinusoidal: PE; learned: the table times sqrt(d/2) / its rows' rms "
                          "length (PE's scale); rope: q, k rotated (with --scaling's "
                          "frequencies); alibi, t5: a bias added to the scores"));
    }
    tf_status st = TF_OK;
    for (size_t m = 0; m < a->n_order && st == TF_OK; m++) {
        const tf_order_result *r = &a->order[m];
        sink_begin(s, J, analysis_order_name(a, m));
        sink_value(s, J, "max_token_diff", pv_num(r->max_token_diff));
        sink_value(s, J, "pooled_diff", pv_num(r->pooled_diff));
        sink_value(s, J, "token_diff", pv_dvec(r->token_diff, T));
        sink_value(s, J, "max_abs_output", pv_num(r->max_abs_output));
        sink_value(s, J, "relative_diff", pv_num(r->relative_diff));
        sink_value(s, J, "zero_up_to_rounding", pv_bool(attention_order_is_zero(r)));
        sink_value(s, J, "score_std", pv_num(r->score_std));
        sink_value(s, J, "min_row_range", pv_num(r->min_row_range));
        sink_value(s, J, "max_weight_diff", pv_num(r->weight_diff));
        /* B's weights in A's token order and their difference from A's: the picture of the
         * proof (0 up to rounding without positions) */
        sink_value(s, J, "diff_max", pv_num(r->weight_diff));
        static const char *const key[4] = {"A_a", "A_b", "A_b_aligned", "diff_map"};
        for (int sb = 0; sb < 4 && st == TF_OK; sb++) {
            order_rows k = {a, r, sb};
            st = sink_matrix(s, J, &(sink_matrix_def){.key = key[sb], .rows = T, .cols = T,
                                                  .digits = EMIT_F64_DIGITS,
                                                  .row = order_matrix_row, .ctx = &k});
        }
        sink_end(s, J);
    }
    return st;
}

static tf_status order_build(print_ctx *c, sink *s)
{
    const tf_analysis *a = c->a;
    size_t T = a->tokens.n;
    tf_status st = order_json(a, s);
    if (st != TF_OK)
        return st;
    order_rows all = {a, NULL, 0};
    const size_t shape[4] = {a->n_order, 2, T, T};
    st = sink_matrix(s, N, &(sink_matrix_def){.rows = a->n_order * 2 * T, .cols = T,
                                          .row = order_matrix_row, .ctx = &all,
                                          .npy_shape = shape, .npy_ndim = 4});
    if (st != TF_OK)
        return st;
    order_csv k = {a, malloc((T ? T : 1) * sizeof(size_t))};
    if (!k.inv)
        return TF_ERR_NOMEM;
    attention_order_where(a->perm, T, k.inv);
    st = sink_table(s, C, &(sink_table_def){.cols = order_csv_cols, .ncols = 10,
                                        .rows = a->n_order * 2 * T, .row = order_csv_row,
                                        .ctx = &k});
    free(k.inv);
    return st;
}

static const char *const mode_label[ATTN_MODE_COUNT] = {"embeddings only", "+ PE (sinusoidal)",
                                                        "RoPE on q, k"};

/* Row m's label: the mode's, or the scheme's. */
static const char *order_label(const tf_analysis *a, size_t m)
{
    static const char *const label[SCHEME_COUNT] = {
        [SCHEME_NONE] = "none (NoPE)", [SCHEME_SINUSOIDAL] = "+ PE (sinusoidal)",
        [SCHEME_LEARNED] = "+ learned table", [SCHEME_ROPE] = "RoPE on q, k",
        [SCHEME_ALIBI] = "ALiBi bias", [SCHEME_T5] = "T5 bias"};
    if (a->order_by_scheme)
        return label[a->order_scheme[m]];
    return m < ATTN_MODE_COUNT ? mode_label[m] : "";
}

/* What scheme s does to the head, for the readings. */
static const char *scheme_effect(tf_scheme s)
{
    switch (s) {
    case SCHEME_SINUSOIDAL:
    case SCHEME_LEARNED:
        return "changes the inputs";
    case SCHEME_ROPE:
        return "rotates q and k, which changes q.k";
    case SCHEME_ALIBI:
    case SCHEME_T5:
        return "adds a bias by distance to the scores";
    default:
        return "adds nothing, but the causal mask shows query i only i + 1 keys";
    }
}

/* One line for row m of the experiment under --scheme. */
static void order_reading_scheme(FILE *fp, const tf_analysis *a, size_t m, const char *pct)
{
    const tf_order_result *r = &a->order[m];
    tf_scheme s = a->order_scheme[m];
    const char *name = scheme_name(s);
    if (!attention_order_is_zero(r)) {
        fprintf(fp, "  %s: it %s, so the weights differ and the outputs move by %s of "
                    "max|Z_A|.\n", name, scheme_effect(s), pct);
        return;
    }
    fprintf(fp, "  %s: each token's output is the same in both orders: 0 up to rounding "
                "(%.0e).", name, r->max_token_diff);
    if (s == SCHEME_ALIBI && a->order_mask == SCHEME_MASK_SYMMETRIC)
        fputs(" A symmetric bias sees |i - j| only, and B = A reversed keeps every |i - j|; "
              "another order (--compare) or --mask causal tells them apart.", fp);
    else if (s != SCHEME_NONE)
        fputs(" Its positions do not tell these two orders apart.", fp);
    fputc('\n', fp);
}

/* One line per mode that says what its numbers show. */
static void order_reading(FILE *fp, const tf_analysis *a, int m)
{
    const tf_order_result *r = &a->order[m];
    char pct[32];
    emit_percent(pct, sizeof pct, r->relative_diff);
    if (a->tokens.n < 2) {
        fputs(m == 0 ? "  One token has no order: both sentences are the same, so every "
                       "difference is 0.\n" : "", fp);
        return;
    }
    if (a->order_by_scheme) {
        order_reading_scheme(fp, a, (size_t)m, pct);
        return;
    }
    if (attention_order_is_zero(r)) {
        fprintf(fp, "  %s: B's weights are A's, rows and columns permuted; each token's output "
                    "is the same: 0 up to rounding (%.0e).\n",
                m == ATTN_NO_PE ? "no positions" : m == ATTN_WITH_PE ? "+ PE" : "RoPE",
                r->max_token_diff);
        return;
    }
    if (m == ATTN_WITH_PE)
        fprintf(fp, "  + PE: PE changes the inputs, so the weights differ and the outputs move "
                    "by %s of max|Z_A|.\n", pct);
    else if (m == ATTN_WITH_ROPE)
        fprintf(fp, "  RoPE: rotating q and k changes q.k, so the weights differ and the outputs "
                    "move by %s of max|Z_A|.\n", pct);
    else
        fprintf(fp, "  no positions: the outputs differ by %s of max|Z_A|.\n", pct);
}

/* One line of the weights: A's row `row` (-1: the header of tokens), then B's, padded to
 * columns, written without trailing blanks. */
static tf_status order_weights_line(FILE *fp, const tf_analysis *a, int m, int row, int w,
                                    int cw)
{
    size_t T = a->tokens.n;
    char *buf = NULL;
    size_t blen = 0;
    FILE *ln = open_memstream(&buf, &blen);
    if (!ln)
        return TF_ERR_NOMEM;
    for (int sb = 0; sb < 2; sb++) {
        const double *A = sb ? a->order[m].A_b : a->order[m].A_a;
        size_t l;
        fputs("    ", ln);
        if (row < 0) {
            tw_pad(ln, sb ? "B" : "A", 1, w);
            for (size_t u = 0; u < T; u++) {
                const char *s = order_tok(a, sb, u, &l);
                fputs("  ", ln);
                text_token(ln, s, l, cw);
            }
            continue;
        }
        const char *s = order_tok(a, sb, (size_t)row, &l);
        text_token(ln, s, l, w);
        for (size_t u = 0; u < T; u++)
            fprintf(ln, "  %-*.3f", cw, A[(size_t)row * T + u]);
    }
    fclose(ln);
    while (blen > 0 && buf[blen - 1] == ' ')
        blen--;
    fwrite(buf, 1, blen, fp);
    fputc('\n', fp);
    free(buf);
    return TF_OK;
}

/* The weights themselves, A and B side by side, while they fit a terminal. */
static tf_status order_weights(FILE *fp, const tf_analysis *a)
{
    size_t T = a->tokens.n;
    if (T > 8) {
        fprintf(fp, "  (attention weights of %zu tokens: --format json, csv or npy gives them)\n",
                T);
        return TF_OK;
    }
    int w = 4;
    for (int sb = 0; sb < 2; sb++)
        for (size_t t = 0; t < T; t++) {
            size_t l;
            const char *s = order_tok(a, sb, t, &l);
            int tw = tw_width(s, l);
            w = tw > w ? tw : w;
        }
    w = w > 12 ? 12 : w;
    fputs("  attention weights (a row: one token; its columns: the tokens it attends to; each "
          "row sums to 1)\n", fp);
    int cw = w > 6 ? w : 6;
    for (int m = 0; m < (int)a->n_order; m++) {
        fprintf(fp, "  %s\n", order_label(a, (size_t)m));
        for (int row = -1; row < (int)T; row++) {
            tf_status st = order_weights_line(fp, a, m, row, w, cw);
            if (st != TF_OK)
                return st;
        }
    }
    return TF_OK;
}

/* Which of the layer's random heads is shown, and why (attention_order_choose). */
static void order_head_line(FILE *fp, const tf_analysis *a)
{
    const attn_head_choice *h = &a->order_head;
    if (!h->possible) {
        fprintf(fp, "  head 1 of a layer of %d: no head can show an order here.\n", ATTN_HEADS);
        return;
    }
    fprintf(fp, "  head %d of a layer of %d random heads, the same for all three modes:\n  ",
            h->head + 1, ATTN_HEADS);
    if (h->visibility >= 1.0)
        fprintf(fp, "the first in which PE and RoPE move the outputs by >= %.0f%% and a weight "
                    "by >= %.2f%s", 100 * ATTN_VISIBLE_CHANGE, ATTN_VISIBLE_WEIGHT,
                a->tokens.n <= ATTN_VISIBLE_ROWS_T ? ",\n  and every row of weights spans >= 0.02"
                                                   : "");
    else
        fprintf(fp, "none of the %d reaches the bars (with PE and RoPE outputs moving by >= "
                    "%.0f%%\n  and a weight by >= %.2f, rows spanning >= %.2f); the closest is shown",
                h->tried, 100 * ATTN_VISIBLE_CHANGE, ATTN_VISIBLE_WEIGHT, ATTN_VISIBLE_ROW_RANGE);
    fputs(" (without positions every head gives 0).\n", fp);
}

static tf_status order_text(print_ctx *c, FILE *fp)
{
    const tf_analysis *a = c->a;
    size_t d = (size_t)a->cfg.d_model;
    tf_attn_cfg head = analysis_attn_cfg(a);
    fputs("Word order (C6): sentence A = ", fp);
    emit_safe_text(fp, a->text, a->text_len);
    fputs(", sentence B = ", fp);
    emit_safe_text(fp, a->cmp_text, a->cmp_len);
    fputs(" (same tokens, other order)\n", fp);
    if (a->order_by_scheme)
        fprintf(fp, "  one attention head for every scheme (%s mask): x = %.4g * x_emb (+ PE, or "
                    "the learned table on PE's scale), h = LayerNorm(x),\n  q, k, v = h W_Q, "
                    "h W_K, h W_V (RoPE rotates q and k), A = softmax(q k^T / sqrt(%zu) (+ ALiBi's "
                    "or T5's bias)), Z = A v\n",
                scheme_mask_name(a->order_mask), head.emb_scale, d);
    else
        fprintf(fp, "  one attention head for all three: x = %.4g * x_emb (+ PE), h = "
                    "LayerNorm(x),\n  q, k, v = h W_Q, h W_K, h W_V (RoPE rotates q and k), "
                    "A = softmax(q k^T / sqrt(%zu)), Z = A v\n", head.emb_scale, d);
    fprintf(fp, "  W_Q, W_K, W_V are random (seed %llu), not trained: this shows the mechanism, "
                "not what a trained model attends to.\n", (unsigned long long)head.seed);
    if (!a->order_by_scheme)
        order_head_line(fp, a);
    fputs("  each token of B is compared with the same token in A\n", fp);
    fputs("                      max token diff  / max|Z_A|   pooled diff  score spread  "
          "min row range\n", fp);
    for (size_t m = 0; m < a->n_order; m++) {
        const tf_order_result *r = &a->order[m];
        if (attention_order_is_zero(r))
            fprintf(fp, "  %-18s  %14s  %9s  %12s", order_label(a, m), "0 (rounding)", "0%",
                    "0");
        else
            fprintf(fp, "  %-18s  %14.3e  %8.1f%%  %12.3e", order_label(a, m), r->max_token_diff,
                    100.0 * r->relative_diff, r->pooled_diff);
        fprintf(fp, "  %12.2f  %13.3f\n", r->score_std, r->min_row_range);
    }
    for (int m = 0; m < (int)a->n_order; m++)
        order_reading(fp, a, m);
    return order_weights(fp, a);
}

/* 3 projections of 4T rows, and the scores of 6 T x T */
static double order_work(const tf_analysis *a, out_format f)
{
    (void)f;
    double T = (double)a->tokens.n, d = a->cfg.d_model;
    return 12 * 1.3 * T * d * d + 6 * 1.3 * T * T * d;
}

const print_topic topic_order = {
    .name = "order", .needs = ANALYSIS_ORDER, .formats = JC | N, .work = order_work,
    .build = order_build, .text = order_text,
};
