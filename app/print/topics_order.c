/* topics_order.c — the order model trained once per position scheme (docs/math.md part 5):
 * order-training, the curves (epoch, scheme, loss, train_acc, test_acc, test_loss, pair_same)
 * and the final table. The model is trained here first (learn/order.h); no sentence is read. */
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "learn/order.h"
#include "order_train.h"
#include "print/topic.h"

enum { J = SINK_JSON, C = SINK_CSV, JC = SINK_JSON | SINK_CSV };

static const char *order_training_check(const tf_config *cfg, const print_request *r)
{
    (void)cfg;
    return r->opt->vectors_path ? "--print order-training trains its own small model; leave out "
                             "--vectors"
                           : NULL;
}

static int order_training_prepare(print_ctx *c)
{
    learn_order *s = calloc(1, sizeof *s);
    if (!s) {
        err_say("out of memory.");
        return 2;
    }
    int rc = learn_order_open(s, &c->req->order);
    if (rc) {
        free(s);
        return rc;
    }
    c->state = s;
    rc = learn_order_check_work(s, "--print order-training");
    if (!rc)
        learn_order_train(s);
    return rc;
}

static void order_training_release(print_ctx *c)
{
    learn_order *s = c->state;
    if (!s)
        return;
    learn_order_close(s);
    free(s);
    c->state = NULL;
}

/* ---------------------------------------------------------------------------------------------
 * The values */

/* A point as a row: the curves (epoch by epoch, the schemes of an epoch together) and the final
 * table take the same columns. */
static const sink_col point_cols[] = {
    {"epoch", JC, NULL},     {"scheme", JC, NULL},    {"loss", JC, NULL},
    {"train_acc", JC, NULL}, {"test_acc", JC, NULL},  {"test_loss", JC, NULL},
    {"pair_same", JC, NULL},
};
#define N_POINT_COLS (sizeof point_cols / sizeof point_cols[0])

static void point_cells(const order_point *p, pv *cell)
{
    cell[0] = pv_int(p->epoch);
    cell[1] = pv_str(scheme_name(p->scheme));
    cell[2] = pv_num(p->loss);
    cell[3] = pv_num(p->train_acc);
    cell[4] = pv_num(p->test_acc);
    cell[5] = pv_num(p->test_loss);
    cell[6] = p->pair_same >= 0 ? pv_num(p->pair_same) : pv_null();
}

static tf_status curve_row(void *ctx, size_t r, pv *cell)
{
    const learn_order *s = ctx;
    size_t n = order_trainer_count(s->tr), m;
    const order_point *p = order_trainer_curve(s->tr, r % n, &m);
    point_cells(&p[r / n], cell);
    return TF_OK;
}

static tf_status final_row(void *ctx, size_t k, pv *cell)
{
    const learn_order *s = ctx;
    size_t m;
    const order_point *p = order_trainer_curve(s->tr, k, &m);
    point_cells(&p[m - 1], cell);
    return TF_OK;
}

static const sink_col word_cols[] = {{"word", J, NULL}};

/* The tokens of sentence ctx->row of the task. */
typedef struct {
    const order_task *t;
    uint32_t s;
} sentence_ref;

static tf_status word_row(void *ctx, size_t i, pv *cell)
{
    const sentence_ref *r = ctx;
    cell[0] = pv_str(r->t->word[order_task_tokens(r->t, r->s)[i]]);
    return TF_OK;
}

static tf_status sentence_value(sink *s, const char *key, const order_task *t, uint32_t i)
{
    sentence_ref r = {t, i};
    return sink_table(s, J, &(sink_table_def){.key = key, .cols = word_cols, .ncols = 1,
                                              .rows = order_task_len(t, i), .flat = true,
                                              .row = word_row, .ctx = &r});
}

static const sink_col scheme_cols[] = {{"scheme", J, NULL}};

static tf_status scheme_row(void *ctx, size_t k, pv *cell)
{
    const learn_order *s = ctx;
    cell[0] = pv_str(scheme_name(order_trainer_scheme(s->tr, k)));
    return TF_OK;
}

/* The task: where it comes from, its splits, the watched pair. */
static tf_status task_values(sink *s, const learn_order *o)
{
    const order_task *t = &o->task;
    sink_begin(s, J, "task");
    sink_value(s, J, "source", pv_str(o->path ? o->path : "generated"));
    sink_value(s, J, "seed", pv_uint(o->seed));
    sink_value(s, J, "train_sentences", pv_uint(t->n_split[ORDER_TRAIN]));
    sink_value(s, J, "test_sentences", pv_uint(t->n_split[ORDER_TEST]));
    uint32_t pairs[2] = {0, 0};
    for (uint32_t i = 0; i < t->n_sent; i++)
        pairs[t->split[i]] += t->pair[i] > (int32_t)i;
    sink_value(s, J, "train_pairs", pv_uint(pairs[ORDER_TRAIN]));
    sink_value(s, J, "test_pairs", pv_uint(pairs[ORDER_TEST]));
    sink_value(s, J, "words", pv_uint(t->V - 1));
    sink_value(s, J, "max_tokens", pv_int(t->max_len));
    tf_status st = sentence_value(s, "example", t, t->example);
    if (st == TF_OK && t->pair[t->example] >= 0)
        st = sentence_value(s, "example_pair", t, (uint32_t)t->pair[t->example]);
    sink_end(s, J);
    return st;
}

/* The class's sentence (issue 27): whether it joined the task, why not, the watched pair a / b
 * (the class's, or the built-in 我 爱 学习) with its true doers, and per scheme the doer named
 * for each order now; null with a task file. */
static tf_status class_values(sink *s, const learn_order *o)
{
    const order_task *t = &o->task;
    if (!o->class_given || t->pair[t->example] < 0) {
        sink_value(s, J, "class_pair", pv_null());
        return TF_OK;
    }
    uint32_t e = t->example, p = (uint32_t)t->pair[e];
    sink_begin(s, J, "class_pair");
    sink_value(s, J, "sentence", pv_str(o->class_text));
    sink_value(s, J, "words", pv_str(o->class_seg));
    sink_value(s, J, "used", pv_bool(o->class_used));
    char why[1024], why_zh[1024];
    bool has_why = learn_order_class_why(o, why, sizeof why, false);
    learn_order_class_why(o, why_zh, sizeof why_zh, true);
    sink_value(s, J, "why", has_why ? pv_str(why) : pv_null());
    sink_value(s, J, "why_zh", has_why ? pv_str(why_zh) : pv_null());
    tf_status st = sentence_value(s, "a", t, e);
    if (st == TF_OK)
        st = sentence_value(s, "b", t, p);
    sink_value(s, J, "answer_a", pv_str(t->word[order_task_tokens(t, e)[t->doer[e]]]));
    sink_value(s, J, "answer_b", pv_str(t->word[order_task_tokens(t, p)[t->doer[p]]]));
    for (size_t k = 0; k < order_trainer_count(o->tr) && st == TF_OK; k++) {
        const char *da = learn_order_doer(o, k, false), *db = learn_order_doer(o, k, true);
        sink_begin(s, J, scheme_name(order_trainer_scheme(o->tr, k)));
        sink_value(s, J, "doer_a", da ? pv_str(da) : pv_null());
        sink_value(s, J, "doer_b", db ? pv_str(db) : pv_null());
        sink_end(s, J);
    }
    sink_end(s, J);
    return st;
}

/* The model and its training, the same for every scheme. */
static void model_values(sink *s, const learn_order *o)
{
    const order_train_cfg *c = order_trainer_cfg(o->tr);
    sink_begin(s, J, "model");
    sink_value(s, J, "d_model", pv_int(c->model.d_model));
    sink_value(s, J, "heads", pv_int(c->model.heads));
    sink_value(s, J, "epochs", pv_int(c->epochs));
    sink_value(s, J, "batch", pv_int(c->batch));
    sink_value(s, J, "optimizer", pv_str(c->opt == ORDER_ADAM ? "adamw" : "sgd"));
    sink_value(s, J, "lr", pv_num(c->lr));
    sink_value(s, J, "weight_decay", pv_num(c->weight_decay));
    sink_value(s, J, "seed", pv_uint(c->model.seed));
    sink_end(s, J);
}

static tf_status order_training_build(print_ctx *c, sink *s)
{
    const learn_order *o = c->state;
    size_t n = order_trainer_count(o->tr), points;
    order_trainer_curve(o->tr, 0, &points);
    tf_status st = task_values(s, o);
    if (st == TF_OK)
        st = class_values(s, o);
    if (st != TF_OK)
        return st;
    model_values(s, o);
    st = sink_table(s, J, &(sink_table_def){.key = "schemes", .cols = scheme_cols, .ncols = 1,
                                            .rows = n, .flat = true, .row = scheme_row,
                                            .ctx = (void *)o});
    sink_value(s, J, "chance", pv_num(ORDER_CHANCE));
    if (st == TF_OK)
        st = sink_table(s, JC, &(sink_table_def){.key = "curves", .cols = point_cols,
                                                 .ncols = N_POINT_COLS, .rows = points * n,
                                                 .row = curve_row, .ctx = (void *)o});
    if (st == TF_OK)
        st = sink_table(s, J, &(sink_table_def){.key = "final", .cols = point_cols,
                                                .ncols = N_POINT_COLS, .rows = n,
                                                .row = final_row, .ctx = (void *)o});
    return st;
}

static tf_status order_training_text(print_ctx *c, FILE *fp)
{
    const learn_order *o = c->state;
    learn_order_header(fp, o);
    fputc('\n', fp);
    learn_order_epochs(fp, o, 0);
    fputc('\n', fp);
    learn_order_final(fp, o);
    learn_order_class(fp, o);
    return ferror(fp) ? TF_ERR_IO : TF_OK;
}

const print_topic topic_order_training = {
    .name = "order-training", .needs = PRINT_ORDER, .formats = JC,
    .check = order_training_check, .prepare = order_training_prepare,
    .build = order_training_build, .text = order_training_text,
    .release = order_training_release,
};
