/* topics_learned.c — the topics of learned word vectors (C5): neighbors (the words nearest to
 * --word), pca (a 2-D map of the most frequent words) and training (the loss and the watched
 * cosines step by step). Their vectors come from --vectors, or are trained first on --corpus or
 * the built-in corpus (learn/); no sentence is read. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/emit.h"
#include "core/err.h"
#include "core/strings.h"
#include "learn/learn.h"
#include "pca.h"
#include "print/topic.h"
#include "textwidth.h"
#include "tf_limits.h"

enum { J = SINK_JSON, C = SINK_CSV, N = SINK_NPY, JC = SINK_JSON | SINK_CSV };

#define STEP_WORDS 20000     /* training granularity of a command-line run */
#define PCA_DEFAULT_ROWS 500 /* --print pca without --top */

/* Where the printed numbers come from: a vector file, or vectors trained here. */
typedef struct {
    tf_vectors file;    /* --vectors (owned) */
    learn_session L;    /* or a model trained on the corpus */
    tf_vectors v;       /* a view of the one or the other */
    const char *source;
    char *shown_source; /* the same, as a terminal may show it (controls escaped) */
    /* neighbors */
    int32_t q;
    vectors_hit *hits;
    size_t n;
    /* pca */
    double *xy;         /* (n, 2) */
    pca_result res;
    /* training */
    int32_t ids[LEARN_PAIRS][2];
    int pair[LEARN_PAIRS], n_pairs; /* the watched pairs both of whose words are known */
    uint64_t total, step;
    w2v_progress pr;
    double cos[LEARN_PAIRS];
    char label[64];
} learned;

static void learned_release(print_ctx *c)
{
    learned *L = c->state;
    if (!L)
        return;
    vectors_free(&L->file);
    learn_close(&L->L);
    free(L->hits);
    free(L->shown_source);
    free(L->xy);
    if (L->xy)
        pca_free(&L->res);
    free(L);
    c->state = NULL;
}

/* c->state with the vectors of --vectors or, without it, a model set up on the corpus (trained
 * first when train). Exit status. */
static int learned_open(print_ctx *c, bool train)
{
    const print_request *r = c->req;
    learned *L = calloc(1, sizeof *L);
    if (!L) {
        err_say("out of memory.");
        return 2;
    }
    c->state = L;
    if (r->opt->vectors_path) {
        int rc = learn_read_vectors(r->opt->vectors_path, r->opt->vectors_limit, &L->file);
        L->v = L->file;
        L->source = r->opt->vectors_path;
        L->shown_source = emit_safe_dup(L->source);
        if (!rc && !L->shown_source) {
            err_say("out of memory.");
            return 2;
        }
        return rc;
    }
    int rc = learn_open(&L->L, &r->learn);
    if (rc)
        return rc;
    /* the training a --print does first counts in its work limit, as every --print's does */
    double work = learn_work(&L->L, &r->learn.params);
    if (work > TF_MAX_WORK) {
        err_say("--print %s would first train for about %.0f s (the limit is %.0f s); lower "
                "--epochs, --window, --negative or -d, or train once with --train -o FILE and "
                "read it with --vectors FILE.",
                r->opt->print_what, work / 1e9, TF_MAX_WORK / 1e9);
        return 2;
    }
    L->source = L->L.source;
    L->shown_source = emit_safe_dup(L->source);
    if (!L->shown_source) {
        err_say("out of memory.");
        return 2;
    }
    w2v_vectors_view(&L->L.m, &L->v);
    tf_status st = train ? w2v_train(&L->L.m, STEP_WORDS, NULL, NULL) : TF_OK;
    if (st != TF_OK) {
        err_say("training failed: %s.", tf_status_str(st));
        return 2;
    }
    return 0;
}

/* ---------------------------------------------------------------------------------------------
 * neighbors: the nearest words by cosine */

static const char *neighbors_check(const tf_config *cfg, const print_request *r)
{
    (void)cfg;
    return r->opt->word ? NULL : "--print neighbors needs a word: add --word 爱 (for example)";
}

static int neighbors_prepare(print_ctx *c)
{
    const print_request *r = c->req;
    int rc = learned_open(c, true);
    if (rc)
        return rc;
    learned *L = c->state;
    L->q = vectors_find(&L->v, r->opt->word, strlen(r->opt->word));
    if (L->q < 0) {
        err_say("'%s' is not among the %u words of %s; try another word.", r->opt->word, L->v.n,
                L->source);
        return 2;
    }
    L->hits = malloc((size_t)r->opt->top * sizeof *L->hits);
    if (!L->hits) {
        err_say("out of memory.");
        return 2;
    }
    L->n = vectors_neighbors(&L->v, (uint32_t)L->q, (size_t)r->opt->top, L->hits);
    return 0;
}

static const sink_col neighbor_cols[] = {{"rank", C, NULL}, {"word", JC, NULL},
                                         {"cosine", J, NULL}, {"cosine", C, NULL}};

static tf_status neighbor_row(void *ctx, size_t i, pv *cell)
{
    const learned *L = ctx;
    cell[0] = pv_uint(i + 1);
    cell[1] = pv_str(L->v.words[L->hits[i].row]);
    cell[2] = pv_num(L->hits[i].cosine);
    cell[3] = pv_printf_g(L->hits[i].cosine, 9);
    return TF_OK;
}

static tf_status neighbors_build(print_ctx *c, sink *s)
{
    const learned *L = c->state;
    sink_value(s, J, "word", pv_str(L->v.words[L->q]));
    sink_value(s, J, "source", pv_str(L->source));
    sink_value(s, J, "rows", pv_uint(L->v.n));
    sink_value(s, J, "dim", pv_int(L->v.dim));
    return sink_table(s, JC, &(sink_table_def){.key = "neighbors", .cols = neighbor_cols,
                                           .ncols = 4, .rows = L->n, .row = neighbor_row,
                                           .ctx = (void *)L});
}

static tf_status neighbors_text(print_ctx *c, FILE *fp)
{
    const learned *L = c->state;
    const char *w = L->v.words[L->q];
    fputs("Nearest neighbours of ", fp);
    emit_safe_text(fp, w, strlen(w));
    txt_gloss(fp, T_G_NEIGHBOURS_OF, L->v.n, L->v.dim, L->shown_source);
    for (size_t i = 0; i < L->n; i++) {
        fprintf(fp, "  %2zu  ", i + 1);
        const char *s = L->v.words[L->hits[i].row];
        text_token(fp, s, strlen(s), 12); /* a word from a file: controls escaped */
        fprintf(fp, "  %+.4f\n", L->hits[i].cosine);
    }
    return TF_OK;
}

const print_topic topic_neighbors = {
    .name = "neighbors", .needs = PRINT_VECTORS, .formats = JC, .check = neighbors_check,
    .prepare = neighbors_prepare, .build = neighbors_build, .text = neighbors_text,
    .release = learned_release,
};

/* ---------------------------------------------------------------------------------------------
 * pca: the 2-D map of the first rows (the most frequent words) */

static int pca_prepare(print_ctx *c)
{
    const print_request *r = c->req;
    int rc = learned_open(c, true);
    if (rc)
        return rc;
    learned *L = c->state;
    size_t n = r->opt->top_given ? (size_t)r->opt->top : PCA_DEFAULT_ROWS;
    L->n = n > L->v.n ? L->v.n : n;
    if (L->n < 2 || L->v.dim < 2) {
        err_say("a 2-D map needs at least 2 words of at least 2 numbers (%s has %u x %d).",
                L->source, L->v.n, L->v.dim);
        return 2;
    }
    L->xy = malloc(2 * L->n * sizeof *L->xy);
    if (!L->xy || pca_project2(L->v.data, L->n, L->v.dim, L->xy, &L->res) != TF_OK) {
        free(L->xy);
        L->xy = NULL;
        err_say("out of memory.");
        return 2;
    }
    return 0;
}

static const sink_col point_cols[] = {{"word", JC, NULL}, {"xy", J, NULL}, {"x", C, NULL},
                                      {"y", C, NULL}};

static tf_status point_row(void *ctx, size_t i, pv *cell)
{
    const learned *L = ctx;
    cell[0] = pv_str(L->v.words[i]);
    cell[1] = pv_dvec(L->xy + 2 * i, 2);
    cell[2] = pv_num(L->xy[2 * i]);
    cell[3] = pv_num(L->xy[2 * i + 1]);
    return TF_OK;
}

static tf_status pca_build(print_ctx *c, sink *s)
{
    learned *L = c->state;
    sink_value(s, J, "source", pv_str(L->source));
    sink_value(s, J, "rows", pv_uint(L->n));
    sink_value(s, J, "dim", pv_int(L->v.dim));
    sink_value(s, J, "variance", pv_dvec(L->res.var, 2));
    sink_value(s, J, "variance_total", pv_num(L->res.var_total));
    tf_status st = sink_table(s, JC, &(sink_table_def){.key = "points", .cols = point_cols,
                                                   .ncols = 4, .rows = L->n, .row = point_row,
                                                   .ctx = L});
    if (st == TF_OK)
        st = sink_matrix(s, N, &(sink_matrix_def){.rows = L->n, .cols = 2,
                                              .data = L->xy});
    return st;
}

static tf_status pca_text(print_ctx *c, FILE *fp)
{
    const learned *L = c->state;
    txt_gloss(fp, T_G_PCA, L->n, L->shown_source);
    if (L->res.var_total > 0 && isfinite(L->res.var_total))
        fprintf(fp, "  the two axes hold %.1f%% and %.1f%% of the variance\n",
                100 * L->res.var[0] / L->res.var_total, 100 * L->res.var[1] / L->res.var_total);
    else /* all-zero or identical vectors: 0 / 0 is no share */
        fputs("  these vectors are all the same point: there is no variance to show\n", fp);
    for (size_t i = 0; i < L->n; i++) {
        fputs("  ", fp);
        text_token(fp, L->v.words[i], strlen(L->v.words[i]), 12); /* controls escaped */
        fprintf(fp, "  %+9.4f  %+9.4f\n", L->xy[2 * i], L->xy[2 * i + 1]);
    }
    return TF_OK;
}

const print_topic topic_pca = {
    .name = "pca", .needs = PRINT_VECTORS, .formats = JC | N, .prepare = pca_prepare,
    .build = pca_build, .text = pca_text, .release = learned_release,
};

/* ---------------------------------------------------------------------------------------------
 * training: the loss and the cosine of the watched pairs, step by step, from the random start
 * (step 0) to the end: the numbers behind view 8's curves */

static const char *training_check(const tf_config *cfg, const print_request *r)
{
    (void)cfg;
    return r->opt->vectors_path ? "--print training trains from --corpus or the built-in corpus; "
                             "leave out --vectors"
                           : NULL;
}

static int training_prepare(print_ctx *c)
{
    int rc = learned_open(c, false);
    if (rc)
        return rc;
    learned *L = c->state;
    for (int i = 0; i < LEARN_PAIRS; i++)
        if (learn_pair_ids(&L->L, i, L->ids[L->n_pairs]))
            L->pair[L->n_pairs++] = i;
    /* about 100 rows whatever the corpus size */
    L->total = (uint64_t)c->req->learn.params.epochs * w2v_corpus_tokens(L->L.corpus);
    L->step = L->total / 100 > 1000 ? L->total / 100 : 1000;
    L->pr = (w2v_progress){.words_total = L->total, .alpha = c->req->learn.params.alpha};
    return 0;
}

/* Row 0 is the random start; each further row trains `step` more words, until the end. */
static tf_status training_advance(void *ctx, size_t r, int *flow)
{
    learned *L = ctx;
    *flow = SINK_ROW;
    if (r > 0) {
        if (L->pr.done) {
            *flow = SINK_END;
            return TF_OK;
        }
        tf_status st = w2v_step(&L->L.m, L->step, &L->pr);
        if (st != TF_OK)
            return st;
    }
    for (int k = 0; k < L->n_pairs; k++)
        L->cos[k] = w2v_cosine(&L->L.m, L->ids[k][0], L->ids[k][1]);
    return TF_OK;
}

static void pair_name(void *ctx, size_t k, pv *out)
{
    learned *L = ctx;
    snprintf(L->label, sizeof L->label, "cos_%s_%s", learn_pair(&L->L, L->pair[k], 0),
             learn_pair(&L->L, L->pair[k], 1));
    *out = pv_raw(L->label);
}

static const sink_col step_cols[] = {
    {"step", JC, NULL}, {"words", JC, NULL}, {"epoch", JC, NULL}, {"alpha", J, NULL},
    {"alpha", C, NULL}, {"loss", J, NULL},   {"loss", C, NULL},   {"cosine", JC, pair_name},
};

static tf_status step_row(void *ctx, size_t r, pv *cell)
{
    (void)r;
    const learned *L = ctx;
    const w2v_progress *pr = &L->pr;
    cell[0] = pv_uint(pr->steps);
    cell[1] = pv_uint(pr->words_done);
    cell[2] = pv_int(pr->epoch);
    cell[3] = pv_num(pr->alpha);
    cell[4] = pv_printf_g(pr->alpha, 9);
    cell[5] = pv_num(pr->pairs ? pr->loss : NAN);
    cell[6] = pr->pairs ? pv_printf_g(pr->loss, 9) : pv_null();
    cell[7] = pv_dvec(L->cos, (size_t)L->n_pairs);
    return TF_OK;
}

static const sink_col pair_cols[] = {{"pairs", J, NULL}};

static tf_status pair_row(void *ctx, size_t k, pv *cell)
{
    learned *L = ctx;
    snprintf(L->label, sizeof L->label, "[\"%s\", \"%s\"]", learn_pair(&L->L, L->pair[k], 0),
             learn_pair(&L->L, L->pair[k], 1));
    *cell = pv_raw(L->label);
    return TF_OK;
}

static tf_status training_build(print_ctx *c, sink *s)
{
    learned *L = c->state;
    sink_value(s, J, "source", pv_str(L->source));
    sink_value(s, J, "words_total", pv_uint(L->total));
    sink_value(s, J, "dim", pv_int(L->L.m.dim));
    sink_value(s, J, "seed", pv_uint(c->req->learn.params.seed));
    tf_status st = sink_table(s, J, &(sink_table_def){.key = "pairs", .cols = pair_cols,
                                                  .ncols = 1, .rows = (size_t)L->n_pairs,
                                                  .flat = true, .row = pair_row, .ctx = L});
    if (st == TF_OK)
        st = sink_table(s, JC, &(sink_table_def){.key = "steps", .cols = step_cols, .ncols = 8,
                                             .rows = SIZE_MAX, .advance = training_advance,
                                             .row = step_row, .ctx = L});
    return st;
}

static tf_status training_text(print_ctx *c, FILE *fp)
{
    learned *L = c->state;
    txt_gloss(fp, T_G_STEPS, L->shown_source);
    fputs("  step     words epoch    loss", fp);
    for (int k = 0; k < L->n_pairs; k++) {
        fputs("  ", fp);
        snprintf(L->label, sizeof L->label, "%s-%s", learn_pair(&L->L, L->pair[k], 0),
                 learn_pair(&L->L, L->pair[k], 1));
        tw_pad(fp, L->label, strlen(L->label), 9);
    }
    fputc('\n', fp);
    for (size_t r = 0;; r++) {
        int flow;
        tf_status st = training_advance(L, r, &flow);
        if (st != TF_OK || flow == SINK_END)
            return st;
        const w2v_progress *pr = &L->pr;
        fprintf(fp, "%6llu %9llu %5d ", (unsigned long long)pr->steps,
                (unsigned long long)pr->words_done, pr->epoch);
        if (pr->pairs)
            fprintf(fp, "%7.4f", pr->loss);
        else
            fputs("      -", fp);
        for (int k = 0; k < L->n_pairs; k++)
            fprintf(fp, "  %+9.3f", L->cos[k]);
        fputc('\n', fp);
    }
}

const print_topic topic_training = {
    .name = "training", .needs = PRINT_MODEL, .formats = JC, .check = training_check,
    .prepare = training_prepare, .build = training_build, .text = training_text,
    .release = learned_release,
};
