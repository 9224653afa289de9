/* topics_attention.c — the topics of what attention reads: input (X_input = X_emb + PE, C11),
 * rope (C13) and order (C6). */
#include <math.h>
#include <stdlib.h>

#include "core/emit.h"
#include "linalg.h"
#include "posenc.h"
#include "print/topic.h"
#include "rope.h"

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

static tf_status input_npy_row(void *ctx, size_t t, void *out)
{
    const tf_analysis *a = ((const input_rows *)ctx)->a;
    size_t d = (size_t)a->cfg.d_model;
    for (size_t j = 0; j < d; j++)
        ((double *)out)[j] = a->x_input[t * d + j];
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
        st = sink_matrix(s, N, &(sink_matrix_def){.rows = T, .cols = d, .row = input_npy_row,
                                              .ctx = &k});
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
 * order (C6) */

static const sink_col order_cols[] = {{"mode", C, NULL}, {"max_token_diff", C, NULL},
                                      {"pooled_diff", C, NULL}};

static tf_status order_row(void *ctx, size_t m, pv *cell)
{
    const tf_analysis *a = ctx;
    cell[0] = pv_str(attention_mode_name((attn_mode)m));
    cell[1] = pv_num(a->order[m].max_token_diff);
    cell[2] = pv_num(a->order[m].pooled_diff);
    return TF_OK;
}

static tf_status order_build(print_ctx *c, sink *s)
{
    const tf_analysis *a = c->a;
    size_t T = a->tokens.n;
    sink_value(s, J, "a", pv_strn(a->text, a->text_len));
    sink_value(s, J, "b", pv_strn(a->cmp_text, a->cmp_len));
    sink_value(s, J, "permutation", pv_svec(a->perm, T));
    for (int m = 0; m < ATTN_MODE_COUNT; m++) {
        sink_begin(s, J, attention_mode_name((attn_mode)m));
        sink_value(s, J, "max_token_diff", pv_num(a->order[m].max_token_diff));
        sink_value(s, J, "pooled_diff", pv_num(a->order[m].pooled_diff));
        sink_value(s, J, "token_diff", pv_dvec(a->order[m].token_diff, T));
        sink_end(s, J);
    }
    return sink_table(s, C, &(sink_table_def){.cols = order_cols, .ncols = 3,
                                          .rows = ATTN_MODE_COUNT, .row = order_row,
                                          .ctx = (void *)a});
}

static tf_status order_text(print_ctx *c, FILE *fp)
{
    const tf_analysis *a = c->a;
    fputs("Word order (C6): sentence A = ", fp);
    emit_safe_text(fp, a->text, a->text_len);
    fputs(", sentence B = ", fp);
    emit_safe_text(fp, a->cmp_text, a->cmp_len);
    fputs(" (same tokens, other order)\n", fp);
    fputs("  each token of B is compared with the same token in A\n", fp);
    fputs("                      max token diff   pooled diff\n", fp);
    static const char *const label[ATTN_MODE_COUNT] = {"embeddings only", "+ PE (sinusoidal)",
                                                       "RoPE on q, k"};
    for (int m = 0; m < ATTN_MODE_COUNT; m++)
        fprintf(fp, "  %-18s  %15.3e  %12.3e\n", label[m], a->order[m].max_token_diff,
                a->order[m].pooled_diff);
    fputs("  Without positions attention gives every token the same output in both orders:\n"
          "  it sees a set of words. Adding PE (or rotating q, k with RoPE) makes the order "
          "count.\n", fp);
    return TF_OK;
}

/* 3 modes x 2 sentences x 3 projections, and the scores */
static double order_work(const tf_analysis *a, out_format f)
{
    (void)f;
    double T = (double)a->tokens.n, d = a->cfg.d_model;
    return 18 * 1.3 * T * d * d + 6 * 1.3 * T * T * d;
}

const print_topic topic_order = {
    .name = "order", .needs = ANALYSIS_ORDER, .formats = JC, .work = order_work,
    .build = order_build, .text = order_text,
};
