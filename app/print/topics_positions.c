/* topics_positions.c — the topics of positional encoding: pe (C7), freq (C8), relative (C9,
 * C10), dot (C9, C10) and RoFormer's decay bound. */
#include <math.h>
#include <stdlib.h>

#include "core/emit.h"
#include "posenc.h"
#include "print/topic.h"
#include "rope.h"
#include "tf_limits.h"

enum { J = SINK_JSON, C = SINK_CSV, N = SINK_NPY, JC = SINK_JSON | SINK_CSV };

/* ---------------------------------------------------------------------------------------------
 * pe (C7): streamed row by row, so -n 1000000 needs no more memory than -n 1 */

#define PE_TILE 256 /* rows of the float32 fast path computed at a time */

typedef struct {
    const tf_analysis *a;
    double *row;  /* (d) the float64 reference row */
    float *tile;  /* (PE_TILE, d) the float32 rows of npy */
    bool split;   /* --pe-layout split: the sin half, then the cos half */
    double *out;  /* (d) a row in the split layout */
} pe_rows;

/* The float64 row of position pos in the layout asked for, in out. */
static void pe_layout_row(pe_rows *p, long pos, double *out)
{
    int d = p->a->cfg.d_model;
    posenc_row_omega((double)pos, d, p->a->omega, p->split ? p->row : out);
    for (int col = 0; p->split && col < d; col++)
        out[col] = p->row[posenc_split_dim(col, d)];
}

static tf_status pe_row(void *ctx, size_t r, pv *cell)
{
    pe_rows *p = ctx;
    const tf_config *c = &p->a->cfg;
    long pos = c->index_base + (long)r;
    pe_layout_row(p, pos, p->out);
    cell[0] = pv_int(pos);
    cell[1] = pv_dvec(p->out, (size_t)c->d_model);
    return TF_OK;
}

static tf_status pe_json_row(void *ctx, size_t r, void *out)
{
    pe_rows *p = ctx;
    pe_layout_row(p, p->a->cfg.index_base + (long)r, out);
    return TF_OK;
}

/* npy: the fast path a tile at a time, so its rows are the bits posenc_fill_f32 gives */
static tf_status pe_npy_row(void *ctx, size_t r, void *out)
{
    pe_rows *p = ctx;
    const tf_config *c = &p->a->cfg;
    size_t d = (size_t)c->d_model, k = r % PE_TILE;
    if (k == 0) {
        long left = c->n_positions - (long)r;
        posenc_fill_f32(c->index_base + (long)r, left < PE_TILE ? left : PE_TILE, c->d_model,
                        c->base, p->tile);
    }
    for (size_t j = 0; j < d; j++)
        ((float *)out)[j] = p->tile[k * d + (p->split ? (size_t)posenc_split_dim((int)j, (int)d) : j)];
    return TF_OK;
}

static const sink_col pe_cols[] = {{"pos", C, NULL}, {"pe", C, NULL}};

static tf_status pe_build(print_ctx *c, sink *s)
{
    if (print_pe_learned(&c->a->cfg))
        return print_pe_table_build(c, s);
    const tf_config *cfg = &c->a->cfg;
    size_t d = (size_t)cfg->d_model, n = (size_t)cfg->n_positions;
    pe_rows p = {c->a, malloc(d * sizeof(double)), malloc(PE_TILE * d * sizeof(float)),
                 c->req->opt->fig.pe_split, malloc(d * sizeof(double))};
    tf_status st = p.row && p.tile && p.out ? TF_OK : TF_ERR_NOMEM;
    sink_value(s, J, "d_model", pv_uint(d));
    sink_value(s, J, "pe_layout", pv_str(p.split ? "split" : "interleaved"));
    sink_value(s, J, "base", pv_num(cfg->base));
    sink_value(s, J, "index_base", pv_int(cfg->index_base));
    sink_value(s, J, "positions", pv_int(cfg->n_positions));
    if (st == TF_OK)
        st = sink_matrix(s, J, &(sink_matrix_def){.key = "pe", .rows = n, .cols = d,
                                              .digits = EMIT_F64_DIGITS, .row = pe_json_row,
                                              .ctx = &p});
    if (st == TF_OK)
        st = sink_matrix(s, N, &(sink_matrix_def){.rows = n, .cols = d, .f32 = true,
                                              .row = pe_npy_row, .ctx = &p,
                                              .progress = "PE 写出 / writing"});
    if (st == TF_OK)
        st = sink_table(s, C, &(sink_table_def){.cols = pe_cols, .ncols = 2, .rows = n,
                                            .row = pe_row, .ctx = &p});
    free(p.row);
    free(p.tile);
    free(p.out);
    return st;
}

static tf_status pe_text(print_ctx *c, FILE *fp)
{
    if (print_pe_learned(&c->a->cfg))
        return print_pe_table_text(c, fp);
    const tf_config *cfg = &c->a->cfg;
    size_t d = (size_t)cfg->d_model;
    long n = c->rows > 0 && c->rows < cfg->n_positions ? c->rows : cfg->n_positions;
    long pos0 = cfg->index_base;
    pe_rows p = {c->a, malloc(d * sizeof(double)), NULL, c->req->opt->fig.pe_split,
                 malloc(d * sizeof(double))};
    if (!p.row || !p.out) {
        free(p.row), free(p.out);
        return TF_ERR_NOMEM;
    }
    fprintf(fp, "PE(pos, 2i) = sin(pos / %g^(2i/%zu)), PE(pos, 2i+1) = cos(...); "
                "positions from %ld%s\n    pos", cfg->base, d, pos0,
            p.split ? "; columns split: the sin of pairs 0..d/2-1, then their cos" : "");
    text_col_header(fp, (int)d);
    for (long r = 0; r < n && !ferror(fp); r++) {
        pe_layout_row(&p, pos0 + r, p.out);
        fprintf(fp, "%7ld", pos0 + r);
        text_row_d(fp, p.out, (int)d);
    }
    text_cols_note(fp, (int)d);
    free(p.row), free(p.out);
    return ferror(fp) ? TF_ERR_IO : TF_OK;
}

static double pe_work(const tf_analysis *a, out_format f)
{
    if (print_pe_learned(&a->cfg))
        return print_pe_table_work(&a->cfg, f);
    double d = a->cfg.d_model, n = (double)a->cfg.n_positions;
    /* every value computed, the shown ones formatted */
    return f == FMT_NPY ? 20.0 * n * d : 20.0 * n * d + n * work_shown(f, d) * work_value(f);
}

/* pe is a table added to the input: sinusoidal PE, or a learned table */
static const char *pe_check(const tf_config *cfg, const print_request *req)
{
    (void)req;
    const tf_positions *p = cfg->positions;
    if (p && (p->n > 1 || (p->n == 1 && p->list[0] != SCHEME_SINUSOIDAL &&
                           p->list[0] != SCHEME_LEARNED)))
        return "--print pe writes the table added to the input: --scheme sinusoidal (the "
               "default) or learned; --print schemes compares every scheme";
    return NULL;
}

const print_topic topic_pe = {
    .name = "pe", .formats = JC | N, .work = pe_work, .check = pe_check, .build = pe_build,
    .text = pe_text,
};

/* ---------------------------------------------------------------------------------------------
 * freq (C8) */

static const sink_col freq_cols[] = {{"i", C, NULL}, {"omega", C, NULL},
                                     {"wavelength", C, NULL}};

static tf_status freq_row(void *ctx, size_t i, pv *cell)
{
    const double *omega = ctx;
    cell[0] = pv_uint(i);
    cell[1] = pv_num(omega[i]);
    cell[2] = pv_num(2.0 * M_PI / omega[i]);
    return TF_OK;
}

static tf_status freq_npy_row(void *ctx, size_t i, void *out)
{
    const double *omega = ctx;
    ((double *)out)[0] = omega[i];
    ((double *)out)[1] = 2.0 * M_PI / omega[i];
    return TF_OK;
}

static const sink_col wavelength_col[] = {{"wavelength", J, NULL}};

static tf_status wavelength_row(void *ctx, size_t i, pv *cell)
{
    *cell = pv_num(2.0 * M_PI / ((const double *)ctx)[i]);
    return TF_OK;
}

static tf_status freq_build(print_ctx *c, sink *s)
{
    const tf_analysis *a = c->a;
    size_t h = (size_t)a->cfg.d_model / 2;
    sink_value(s, J, "d_model", pv_int(a->cfg.d_model));
    sink_value(s, J, "base", pv_num(a->cfg.base));
    sink_value(s, J, "omega", pv_dvec(a->omega, h));
    tf_status st = sink_table(s, J, &(sink_table_def){.key = "wavelength", .cols = wavelength_col,
                                                  .ncols = 1, .rows = h, .flat = true,
                                                  .row = wavelength_row, .ctx = a->omega});
    if (st == TF_OK)
        st = sink_table(s, C, &(sink_table_def){.cols = freq_cols, .ncols = 3, .rows = h,
                                            .row = freq_row, .ctx = a->omega});
    if (st == TF_OK)
        st = sink_matrix(s, N, &(sink_matrix_def){.rows = h, .cols = 2, .row = freq_npy_row,
                                              .ctx = a->omega});
    return st;
}

static tf_status freq_text(print_ctx *c, FILE *fp)
{
    const tf_analysis *a = c->a;
    int h = a->cfg.d_model / 2;
    fprintf(fp, "w_i = %g^(-2i/%d): each pair of dimensions turns %g times slower than the "
                "one before\n",
            a->cfg.base, a->cfg.d_model, pow(a->cfg.base, 2.0 / a->cfg.d_model));
    fputs("     i   dims          omega      wavelength (positions)\n", fp);
    for (int i = 0; i < h; i++)
        fprintf(fp, "%6d  %5d,%-5d  %13.6e  %14.4f\n", i, 2 * i, 2 * i + 1, a->omega[i],
                2.0 * M_PI / a->omega[i]);
    return TF_OK;
}

const print_topic topic_freq = {
    .name = "freq", .formats = JC | N, .work = work_small, .build = freq_build,
    .text = freq_text,
};

/* ---------------------------------------------------------------------------------------------
 * relative (C9, C10) */

static const sink_col kv_cols[] = {{"key", C, NULL}, {"value", C, NULL}};

static tf_status relative_kv(void *ctx, size_t r, pv *cell)
{
    const tf_analysis *a = ctx;
    const tf_config *c = &a->cfg;
    static const char *const keys[] = {"offset",       "positions",      "d_model",
                                       "max_residual", "min_distance",   "min_distance_p",
                                       "min_distance_q"};
    const pv values[] = {pv_int(c->offset),       pv_int(c->n_positions),
                         pv_int(c->d_model),      pv_num(a->max_residual),
                         pv_num(a->min_distance), pv_int(a->min_pair[0]),
                         pv_int(a->min_pair[1])};
    cell[0] = pv_str(keys[r]);
    cell[1] = values[r];
    return TF_OK;
}

static tf_status relative_build(print_ctx *c, sink *s)
{
    const tf_analysis *a = c->a;
    const tf_config *cfg = &a->cfg;
    sink_value(s, J, "offset", pv_int(cfg->offset));
    sink_value(s, J, "positions", pv_int(cfg->n_positions));
    sink_value(s, J, "index_base", pv_int(cfg->index_base));
    sink_value(s, J, "d_model", pv_int(cfg->d_model));
    sink_value(s, J, "base", pv_num(cfg->base));
    sink_value(s, J, "max_residual", pv_num(a->max_residual));
    sink_value(s, J, "min_distance", pv_num(a->min_distance));
    sink_value(s, J, "min_distance_pair",
               cfg->n_positions >= 2 ? pv_lvec(a->min_pair, 2) : pv_null());
    return sink_table(s, C, &(sink_table_def){.cols = kv_cols, .ncols = 2, .rows = 7,
                                          .row = relative_kv, .ctx = (void *)a});
}

static tf_status relative_text(print_ctx *c, FILE *fp)
{
    const tf_analysis *a = c->a;
    const tf_config *cfg = &a->cfg;
    fprintf(fp, "Relative position (C10): PE(pos+%ld) = M_%ld . PE(pos), M_k rotating each "
                "(sin, cos) pair by k*w_i\n", cfg->offset, cfg->offset);
    fprintf(fp, "  max |PE(pos+k) - M_k PE(pos)| over positions %ld..%ld: %.3e\n",
            (long)cfg->index_base, cfg->index_base + cfg->n_positions - 1, a->max_residual);
    if (cfg->n_positions < 2)
        fputs("Uniqueness (C9): one position has no other to share its vector with; use "
              "-n 2 or more\n", fp);
    else
        fprintf(fp, "Uniqueness (C9): the closest two of the %ld positions are %ld and %ld, "
                    "at distance %.6f (> 0: no two positions share a vector)\n",
                cfg->n_positions, a->min_pair[0], a->min_pair[1], a->min_distance);
    return TF_OK;
}

static const char *relative_check(const tf_config *cfg, const print_request *req)
{
    (void)req;
    if ((double)cfg->n_positions * cfg->d_model > 4e8)
        return "--print relative checks every position: keep -n x -d under 400,000,000";
    return NULL;
}

static double relative_work(const tf_analysis *a, out_format f)
{
    (void)f;
    return 150.0 * (double)a->cfg.n_positions * a->cfg.d_model;
}

const print_topic topic_relative = {
    .name = "relative", .needs = ANALYSIS_RELATIVE, .formats = JC, .work = relative_work,
    .check = relative_check, .build = relative_build, .text = relative_text,
};

/* ---------------------------------------------------------------------------------------------
 * dot (C9, C10: PE(p).PE(q) depends on p - q only) */

typedef struct {
    const tf_config *cfg;
    double *g; /* (n, n) */
} gram;

static void pos_name(void *ctx, size_t q, pv *out)
{
    const gram *g = ctx;
    *out = pv_int(g->cfg->index_base + (long)q);
}

static const sink_col dot_cols[] = {{"pos", C, NULL}, {"dot", C, pos_name}};

static tf_status dot_row(void *ctx, size_t p, pv *cell)
{
    const gram *g = ctx;
    size_t n = (size_t)g->cfg->n_positions;
    pos_name(ctx, p, &cell[0]);
    cell[1] = pv_dvec(g->g + p * n, n);
    return TF_OK;
}

/* PE(p) . PE(q) of every pair of the n positions (NULL: out of memory). */
static double *dot_matrix(const tf_config *c, tf_status *st)
{
    size_t n = (size_t)c->n_positions;
    double *g = malloc(n * n * sizeof *g);
    *st = g ? posenc_gram(c->index_base, (long)n, c->d_model, c->base, g) : TF_ERR_NOMEM;
    if (*st != TF_OK) {
        free(g);
        return NULL;
    }
    return g;
}

static tf_status dot_build(print_ctx *c, sink *s)
{
    const tf_config *cfg = &c->a->cfg;
    size_t n = (size_t)cfg->n_positions;
    tf_status st;
    gram g = {cfg, dot_matrix(cfg, &st)};
    if (!g.g)
        return st;
    sink_value(s, J, "d_model", pv_int(cfg->d_model));
    sink_value(s, J, "index_base", pv_int(cfg->index_base));
    sink_value(s, J, "positions", pv_uint(n));
    st = sink_matrix(s, J | N, &(sink_matrix_def){.key = "dot", .rows = n, .cols = n,
                                              .digits = EMIT_F64_DIGITS, .data = g.g});
    if (st == TF_OK)
        st = sink_table(s, C, &(sink_table_def){.cols = dot_cols, .ncols = 2, .rows = n,
                                            .row = dot_row, .ctx = &g});
    free(g.g);
    return st;
}

static tf_status dot_text(print_ctx *c, FILE *fp)
{
    const tf_config *cfg = &c->a->cfg;
    size_t n = (size_t)cfg->n_positions, shown = n > 12 ? 12 : n;
    long pos0 = cfg->index_base;
    tf_status st;
    double *g = dot_matrix(cfg, &st);
    if (!g)
        return st;
    fprintf(fp, "PE(p) . PE(q) = sum_i cos((p - q) w_i): constant along each diagonal; "
                "the diagonal is d/2 = %g\n", cfg->d_model / 2.0);
    fputs("pos", fp);
    for (size_t q = 0; q < shown; q++)
        fprintf(fp, " %9ld", pos0 + (long)q);
    fputc('\n', fp);
    for (size_t p = 0; p < shown; p++) {
        fprintf(fp, "%3ld", pos0 + (long)p);
        for (size_t q = 0; q < shown; q++)
            fprintf(fp, " %9.4f", g[p * n + q]);
        fputc('\n', fp);
    }
    if (shown < n)
        fprintf(fp, "(%zu of %zu positions shown; --format csv gives them all)\n", shown, n);
    free(g);
    return TF_OK;
}

static const char *dot_check(const tf_config *cfg, const print_request *req)
{
    (void)req;
    if (cfg->n_positions > TF_MAX_DOT_POSITIONS)
        return "--print dot builds an n x n matrix: use -n 4096 or fewer";
    return NULL;
}

static double dot_work(const tf_analysis *a, out_format f)
{
    double n = (double)a->cfg.n_positions;
    return posenc_gram_work(n, a->cfg.d_model) + (f == FMT_TEXT ? 144 : n * n) * work_value(f);
}

const print_topic topic_dot = {
    .name = "dot", .formats = JC | N, .work = dot_work, .check = dot_check,
    .build = dot_build, .text = dot_text,
};

/* ---------------------------------------------------------------------------------------------
 * decay (RoFormer 3.4.3) */

typedef struct {
    double *bound; /* (n) the bound at r = 0 .. n-1 */
} decay_rows;

static const sink_col decay_cols[] = {{"r", C, NULL}, {"bound", C, NULL}};
static const sink_col bound_col[] = {{"bound", J, NULL}};

static tf_status decay_row(void *ctx, size_t r, pv *cell)
{
    const decay_rows *k = ctx;
    cell[0] = pv_uint(r);
    cell[1] = pv_num(k->bound[r]);
    return TF_OK;
}

static tf_status bound_row(void *ctx, size_t r, pv *cell)
{
    *cell = pv_num(((const decay_rows *)ctx)->bound[r]);
    return TF_OK;
}

static tf_status decay_npy_row(void *ctx, size_t r, void *out)
{
    ((double *)out)[0] = (double)r;
    ((double *)out)[1] = ((const decay_rows *)ctx)->bound[r];
    return TF_OK;
}

/* The bound at r = 0 .. n-1 (NULL: out of memory). */
static double *decay_bounds(const tf_config *c)
{
    double *b = malloc((size_t)c->n_positions * sizeof *b);
    for (long r = 0; b && r < c->n_positions; r++)
        b[r] = rope_decay_bound(c->d_model, c->base, (double)r);
    return b;
}

static tf_status decay_build(print_ctx *c, sink *s)
{
    const tf_config *cfg = &c->a->cfg;
    size_t n = (size_t)cfg->n_positions;
    decay_rows k = {decay_bounds(cfg)};
    if (!k.bound)
        return TF_ERR_NOMEM;
    sink_value(s, J, "d_model", pv_int(cfg->d_model));
    sink_value(s, J, "base", pv_num(cfg->base));
    tf_status st = sink_table(s, J, &(sink_table_def){.key = "bound", .cols = bound_col, .ncols = 1,
                                                  .rows = n, .flat = true, .row = bound_row,
                                                  .ctx = &k});
    if (st == TF_OK)
        st = sink_table(s, C, &(sink_table_def){.cols = decay_cols, .ncols = 2, .rows = n,
                                            .row = decay_row, .ctx = &k});
    if (st == TF_OK)
        st = sink_matrix(s, N, &(sink_matrix_def){.rows = n, .cols = 2, .row = decay_npy_row,
                                              .ctx = &k});
    free(k.bound);
    return st;
}

static tf_status decay_text(print_ctx *c, FILE *fp)
{
    const tf_config *cfg = &c->a->cfg;
    fprintf(fp, "RoFormer long-term decay: (1/(d/2)) sum_j |S_j|, S_j = sum_{k<j} "
                "e^{i r theta_k}, d = %d, base %g\n       r        bound\n", cfg->d_model,
            cfg->base);
    for (long r = 0; r < cfg->n_positions; r++)
        fprintf(fp, "%8ld  %11.6f\n", r, rope_decay_bound(cfg->d_model, cfg->base, (double)r));
    return TF_OK;
}

static double decay_work(const tf_analysis *a, out_format f)
{
    double d = a->cfg.d_model, n = (double)a->cfg.n_positions;
    return 150.0 * n * d / 2 + n * work_value(f);
}

const print_topic topic_decay = {
    .name = "decay", .formats = JC | N, .work = decay_work, .build = decay_build,
    .text = decay_text,
};
