/* order_train.c — one model per position scheme, trained side by side (order_train.h). */
#include "order_train.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "isa.h"
#include "rng.h"

void order_train_defaults(order_train_cfg *c)
{
    order_model_defaults(&c->model);
    c->epochs = ORDER_EPOCHS_AUTO;
    c->batch = 16;
    c->opt = ORDER_ADAM;
    c->lr = 0.005;
    c->beta1 = 0.9;
    c->beta2 = 0.999;
    c->eps = 1e-8;
    c->weight_decay = 1.0;
}

tf_status order_train_check(const order_train_cfg *c, const char **why)
{
    tf_status st = order_model_check(&c->model, why);
    if (st != TF_OK)
        return st;
    const char *w = NULL;
    if (c->epochs < 0 || c->epochs > ORDER_MAX_EPOCHS)
        w = "the number of epochs must be 1 to 1000 (or 0: chosen from the data)";
    else if (c->batch < 1 || c->batch > ORDER_MAX_BATCH)
        w = "the batch size must be 1 to 4096";
    else if ((unsigned)c->opt > ORDER_SGD)
        w = "unknown optimiser";
    else if (!(c->lr > 0.0) || !(c->lr <= 10.0))
        w = "the learning rate must be above 0 and at most 10";
    else if (!(c->beta1 >= 0.0 && c->beta1 < 1.0) || !(c->beta2 >= 0.0 && c->beta2 < 1.0))
        w = "Adam's beta1 and beta2 must be in [0, 1)";
    else if (!(c->eps > 0.0) || !(c->eps < 1.0))
        w = "Adam's epsilon must be in (0, 1)";
    else if (!(c->weight_decay >= 0.0) || !(c->weight_decay * c->lr < 1.0))
        w = "the weight decay must be at least 0 and below 1 / learning rate";
    if (why)
        *why = w;
    return w ? TF_ERR_RANGE : TF_OK;
}

/* ---------------------------------------------------------------------------------------------
 * State */

enum { PHASE_EVAL = 0, PHASE_TRAIN = 1, PHASE_DONE = 2 };

typedef struct {
    tf_scheme scheme;
    order_model m;
    order_work w;
    double *mem;        /* one block: adam_m, adam_v, curve, order, pred */
    double *adam_m;     /* (n_params) first moment */
    double *adam_v;     /* (n_params) second moment */
    order_point *curve; /* (epochs + 1) */
    uint32_t *order;    /* (n_train) this epoch's order of the training sentences */
    uint32_t *pred;     /* (n_sent) predicted token of each sentence at the last evaluation */
    size_t n_curve;
    uint64_t steps; /* optimiser steps taken */
    int epoch;      /* epochs of training done */
    int phase;
    uint32_t cursor;    /* next training sentence of `order`, or next sentence to evaluate */
    double loss_sum[2]; /* evaluation sums per split */
    size_t right[2];
} scheme_run;

struct order_trainer {
    const order_task *t;
    order_train_cfg c;
    size_t n;
    scheme_run run[ORDER_MAX_SCHEMES];
    uint32_t *split_idx; /* (n_sent) training sentences, then held-out ones */
    uint32_t n_train, n_test;
    size_t next;     /* the scheme order_trainer_step_one works on next */
    order_work view; /* for inspect and predict */
    uint64_t units;  /* units of work of a whole run, all schemes */
    atomic_uint_fast64_t units_done; /* of them, done by order_trainer_run's threads */
    atomic_uint running;             /* its threads still training */
};

static void run_reset(scheme_run *r)
{
    order_model_reset(&r->m);
    memset(r->adam_m, 0, 2 * r->m.n_params * sizeof *r->adam_m);
    r->n_curve = 0;
    r->steps = 0;
    r->epoch = 0;
    r->phase = PHASE_EVAL;
    r->cursor = 0;
    r->loss_sum[0] = r->loss_sum[1] = 0.0;
    r->right[0] = r->right[1] = 0;
}

static tf_status run_init(order_trainer *tr, scheme_run *r, tf_scheme s)
{
    const order_task *t = tr->t;
    r->scheme = s;
    tf_status st = order_model_init(&r->m, s, t->V, &tr->c.model);
    if (st == TF_OK)
        st = order_work_init(&r->w, &r->m);
    if (st != TF_OK)
        return st;
    size_t np = r->m.n_params, nc = (size_t)tr->c.epochs + 1;
    size_t bytes = 2 * np * sizeof(double) + nc * sizeof(order_point) +
                   ((size_t)tr->n_train + t->n_sent) * sizeof(uint32_t);
    r->mem = malloc(bytes);
    if (!r->mem)
        return TF_ERR_NOMEM;
    r->adam_m = r->mem;
    r->adam_v = r->adam_m + np;
    r->curve = (order_point *)(r->adam_v + np);
    r->order = (uint32_t *)(r->curve + nc);
    r->pred = r->order + tr->n_train;
    run_reset(r);
    return TF_OK;
}

static void run_free(scheme_run *r)
{
    order_model_free(&r->m);
    order_work_free(&r->w);
    free(r->mem);
    r->mem = NULL;
}

void order_trainer_free(order_trainer *tr)
{
    if (!tr)
        return;
    for (size_t k = 0; k < tr->n; k++)
        run_free(&tr->run[k]);
    order_work_free(&tr->view);
    free(tr->split_idx);
    free(tr);
}

tf_status order_trainer_new(order_trainer **out, const order_task *t, const order_train_cfg *c,
                            const tf_scheme *schemes, size_t n, const char **why)
{
    *out = NULL;
    if (why)
        *why = NULL;
    tf_status st = order_train_check(c, why);
    if (st != TF_OK)
        return st;
    const char *w = NULL;
    if (n < 1 || n > ORDER_MAX_SCHEMES)
        w = "give 1 to 6 position schemes";
    for (size_t i = 0; i < n && !w; i++) {
        if ((unsigned)schemes[i] >= SCHEME_COUNT)
            w = "unknown position scheme";
        for (size_t j = 0; j < i && !w; j++)
            if (schemes[j] == schemes[i])
                w = "a position scheme is named twice";
    }
    if (!w && (t->n_split[ORDER_TRAIN] == 0 || t->n_split[ORDER_TEST] == 0))
        w = "the task needs training and held-out sentences";
    if (!w && t->max_len > ORDER_MAX_TOKENS)
        w = "a sentence of the task is longer than the models' positions";
    if (w) {
        if (why)
            *why = w;
        return TF_ERR_RANGE;
    }
    order_trainer *tr = calloc(1, sizeof *tr);
    if (!tr)
        return TF_ERR_NOMEM;
    tr->t = t;
    tr->c = *c;
    tr->n_train = t->n_split[ORDER_TRAIN];
    tr->n_test = t->n_split[ORDER_TEST];
    if (tr->c.epochs == ORDER_EPOCHS_AUTO) {
        /* enough steps for a small task too: ORDER_AUTO_STEPS, at least 10 epochs */
        uint32_t batches = (tr->n_train + (uint32_t)c->batch - 1) / (uint32_t)c->batch;
        uint32_t e = (ORDER_AUTO_STEPS + batches - 1) / batches;
        tr->c.epochs = e < 10 ? 10 : e > ORDER_MAX_EPOCHS ? ORDER_MAX_EPOCHS : (int)e;
    }
    /* a scheme's run: its training batches, and (epochs + 1) evaluations of every sentence in
     * units of ORDER_EVAL_UNIT batches */
    uint64_t B = (uint64_t)c->batch, all = (uint64_t)tr->n_train + tr->n_test;
    tr->units = n * ((uint64_t)tr->c.epochs * ((tr->n_train + B - 1) / B) +
                     ((uint64_t)tr->c.epochs + 1) * ((all + ORDER_EVAL_UNIT * B - 1) /
                                                     (ORDER_EVAL_UNIT * B)));
    tr->split_idx = malloc(t->n_sent * sizeof *tr->split_idx);
    if (!tr->split_idx) {
        free(tr);
        return TF_ERR_NOMEM;
    }
    uint32_t a = 0, b = tr->n_train;
    for (uint32_t s = 0; s < t->n_sent; s++)
        tr->split_idx[t->split[s] == ORDER_TRAIN ? a++ : b++] = s;
    for (size_t k = 0; k < n && st == TF_OK; k++) {
        tr->n = k + 1;
        st = run_init(tr, &tr->run[k], schemes[k]);
    }
    if (st == TF_OK)
        st = order_work_init(&tr->view, &tr->run[0].m);
    if (st != TF_OK) {
        order_trainer_free(tr);
        return st;
    }
    *out = tr;
    return TF_OK;
}

void order_trainer_reset(order_trainer *tr)
{
    for (size_t k = 0; k < tr->n; k++)
        run_reset(&tr->run[k]);
    tr->next = 0;
}

/* ---------------------------------------------------------------------------------------------
 * One unit of work */

/* This epoch's order of the training sentences: a Fisher-Yates shuffle keyed by (seed, epoch),
 * the same for every scheme. */
static void shuffle(const order_trainer *tr, scheme_run *r)
{
    memcpy(r->order, tr->split_idx, tr->n_train * sizeof *r->order);
    uint64_t state = rng_row_key(tr->c.model.seed, RNG_STREAM_ORDER_SHUFFLE, (uint64_t)r->epoch);
    for (uint32_t i = tr->n_train; i > 1; i--) {
        state += 0x9e3779b97f4a7c15ULL;
        uint32_t j = (uint32_t)(((rng_mix(state) >> 32) * i) >> 32);
        uint32_t x = r->order[i - 1];
        r->order[i - 1] = r->order[j];
        r->order[j] = x;
    }
}

/* Adam (Kingma and Ba 2015) with decoupled weight decay (AdamW, Loshchilov and Hutter 2019):
 *   m = b1 m + (1 - b1) g,  v = b2 v + (1 - b2) g^2,  m_hat = m / (1 - b1^t),  v_hat = v / (1 -
 * b2^t) theta -= lr (m_hat / (sqrt(v_hat) + eps) + wd theta) or plain SGD: theta -= lr (g + wd
 * theta). */
static void optimizer_step(const order_train_cfg *c, scheme_run *r)
{
    double *p = r->m.params;
    const double *g = r->m.grads;
    size_t n = r->m.n_params;
    r->steps++;
    if (c->opt == ORDER_SGD) {
        for (size_t i = 0; i < n; i++)
            p[i] -= c->lr * (g[i] + c->weight_decay * p[i]);
        return;
    }
    double b1 = c->beta1, b2 = c->beta2;
    double c1 = 1.0 - pow(b1, (double)r->steps), c2 = 1.0 - pow(b2, (double)r->steps);
    double *restrict m = r->adam_m, *restrict v = r->adam_v;
    TF_SIMD
    for (size_t i = 0; i < n; i++) {
        m[i] = b1 * m[i] + (1.0 - b1) * g[i];
        v[i] = b2 * v[i] + (1.0 - b2) * g[i] * g[i];
        p[i] -= c->lr * ((m[i] / c1) / (sqrt(v[i] / c2) + c->eps) + c->weight_decay * p[i]);
    }
}

/* The end of an evaluation: the point of this epoch. */
static void finish_eval(order_trainer *tr, scheme_run *r)
{
    const order_task *t = tr->t;
    size_t pairs = 0, same = 0;
    for (uint32_t i = 0; i < tr->n_test; i++) {
        uint32_t s = tr->split_idx[tr->n_train + i];
        if (t->pair[s] < 0)
            continue;
        pairs++;
        same += r->pred[s] == r->pred[t->pair[s]];
    }
    order_point *pt = &r->curve[r->n_curve++];
    pt->epoch = r->epoch;
    pt->scheme = r->scheme;
    pt->loss = r->loss_sum[ORDER_TRAIN] / tr->n_train;
    pt->train_acc = (double)r->right[ORDER_TRAIN] / tr->n_train;
    pt->test_loss = r->loss_sum[ORDER_TEST] / tr->n_test;
    pt->test_acc = (double)r->right[ORDER_TEST] / tr->n_test;
    pt->pair_same = pairs ? (double)same / pairs : -1.0;
    r->loss_sum[0] = r->loss_sum[1] = 0.0;
    r->right[0] = r->right[1] = 0;
    r->cursor = 0;
    if (r->epoch >= tr->c.epochs) {
        r->phase = PHASE_DONE;
    } else {
        r->phase = PHASE_TRAIN;
        shuffle(tr, r);
    }
}

static void step_run(order_trainer *tr, scheme_run *r)
{
    const order_task *t = tr->t;
    uint32_t B = (uint32_t)tr->c.batch;
    if (r->phase == PHASE_TRAIN) {
        uint32_t n = tr->n_train - r->cursor < B ? tr->n_train - r->cursor : B;
        order_model_zero_grad(&r->m);
        order_model_batch(&r->m, &r->w, t, r->order + r->cursor, n, true, NULL);
        optimizer_step(&tr->c, r);
        r->cursor += n;
        if (r->cursor >= tr->n_train) {
            r->epoch++;
            r->phase = PHASE_EVAL;
            r->cursor = 0;
        }
    } else if (r->phase == PHASE_EVAL) {
        uint32_t total = tr->n_train + tr->n_test;
        uint32_t end = r->cursor + ORDER_EVAL_UNIT * B;
        if (end > total)
            end = total;
        for (uint32_t i = r->cursor; i < end; i++) {
            uint32_t s = tr->split_idx[i];
            int pred;
            const uint32_t *tok = order_task_tokens(t, s);
            double loss = order_model_forward(&r->m, &r->w, tok, (int)order_task_len(t, s),
                                              t->doer[s], &pred);
            int sp = i < tr->n_train ? ORDER_TRAIN : ORDER_TEST;
            r->loss_sum[sp] += loss;
            r->right[sp] += pred == t->doer[s];
            r->pred[s] = tok[pred];
        }
        r->cursor = end;
        if (end == total)
            finish_eval(tr, r);
    }
}

bool order_trainer_done(const order_trainer *tr)
{
    for (size_t k = 0; k < tr->n; k++)
        if (tr->run[k].phase != PHASE_DONE)
            return false;
    return true;
}

bool order_trainer_step(order_trainer *tr, int units)
{
    for (int u = 0; u < units; u++)
        for (size_t k = 0; k < tr->n; k++)
            if (tr->run[k].phase != PHASE_DONE)
                step_run(tr, &tr->run[k]);
    return !order_trainer_done(tr);
}

bool order_trainer_step_one(order_trainer *tr)
{
    for (size_t i = 0; i < tr->n; i++) {
        size_t k = (tr->next + i) % tr->n;
        if (tr->run[k].phase != PHASE_DONE) {
            step_run(tr, &tr->run[k]);
            tr->next = (k + 1) % tr->n;
            break;
        }
    }
    return !order_trainer_done(tr);
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

bool order_trainer_step_for(order_trainer *tr, double max_ms)
{
    double end = now_ms() + max_ms;
    bool more;
    do
        more = order_trainer_step_one(tr);
    while (more && now_ms() < end);
    return more;
}

bool order_trainer_epoch(order_trainer *tr)
{
    for (size_t k = 0; k < tr->n; k++) {
        scheme_run *r = &tr->run[k];
        /* the evaluation that closes the epoch under way, the next epoch's training, and the
         * evaluation after it */
        size_t points = r->n_curve;
        while (r->phase != PHASE_DONE && (r->n_curve == points || r->phase == PHASE_EVAL))
            step_run(tr, r);
    }
    return !order_trainer_done(tr);
}

typedef struct {
    order_trainer *tr;
    size_t first, stride;
} run_job;

static void *run_thread(void *arg)
{
    run_job *j = arg;
    for (size_t k = j->first; k < j->tr->n; k += j->stride)
        while (j->tr->run[k].phase != PHASE_DONE) {
            step_run(j->tr, &j->tr->run[k]);
            atomic_fetch_add_explicit(&j->tr->units_done, 1, memory_order_relaxed);
        }
    atomic_fetch_sub_explicit(&j->tr->running, 1, memory_order_release);
    return NULL;
}

static void sleep_ms(double ms)
{
    struct timespec t = {.tv_sec = (time_t)(ms / 1e3),
                         .tv_nsec = (long)(fmod(ms, 1e3) * 1e6)};
    nanosleep(&t, NULL);
}

tf_status order_trainer_run_report(order_trainer *tr, int threads, order_report_fn report,
                                   void *user, double every_ms)
{
    if ((size_t)threads > tr->n)
        threads = (int)tr->n;
    if (threads < 1)
        threads = 1;
    pthread_t id[ORDER_MAX_SCHEMES];
    run_job job[ORDER_MAX_SCHEMES] = {{0}};
    bool started[ORDER_MAX_SCHEMES] = {false};
    for (int i = 0; i < threads; i++)
        job[i] = (run_job){tr, (size_t)i, (size_t)threads};
    /* schemes i, i + threads, ... on thread i. Without a watcher thread 0's share runs on this
     * one; with one, every share gets a thread and this one reports. The share of a thread that
     * cannot be started runs here afterwards. Each scheme is stepped by one thread only. */
    int first = report ? 0 : 1;
    atomic_store(&tr->units_done, 0);
    atomic_store(&tr->running, (unsigned)threads);
    for (int i = first; i < threads; i++)
        started[i] = pthread_create(&id[i], NULL, run_thread, &job[i]) == 0;
    if (!report) {
        run_thread(&job[0]);
    } else {
        unsigned missing = 0;
        for (int i = 0; i < threads; i++)
            missing += !started[i];
        while (atomic_load_explicit(&tr->running, memory_order_acquire) > missing) {
            report((double)atomic_load_explicit(&tr->units_done, memory_order_relaxed) /
                       (double)(tr->units ? tr->units : 1),
                   user);
            sleep_ms(every_ms > 1 ? every_ms : 1);
        }
    }
    for (int i = first; i < threads; i++) {
        if (started[i])
            pthread_join(id[i], NULL);
        else
            run_thread(&job[i]);
    }
    if (report)
        report(1.0, user);
    return TF_OK;
}

tf_status order_trainer_run(order_trainer *tr, int threads)
{
    return order_trainer_run_report(tr, threads, NULL, NULL, 0);
}

double order_trainer_progress(const order_trainer *tr)
{
    double sum = 0.0;
    for (size_t k = 0; k < tr->n; k++) {
        const scheme_run *r = &tr->run[k];
        double part = r->phase == PHASE_TRAIN ? (double)r->cursor / tr->n_train : 0.0;
        sum += r->phase == PHASE_DONE ? 1.0 : (r->epoch + part) / tr->c.epochs;
    }
    return tr->n ? sum / tr->n : 1.0;
}

/* ---------------------------------------------------------------------------------------------
 * Reading */

size_t order_trainer_count(const order_trainer *tr)
{
    return tr->n;
}

tf_scheme order_trainer_scheme(const order_trainer *tr, size_t k)
{
    return k < tr->n ? tr->run[k].scheme : SCHEME_COUNT;
}

const order_train_cfg *order_trainer_cfg(const order_trainer *tr)
{
    return &tr->c;
}

const order_task *order_trainer_task(const order_trainer *tr)
{
    return tr->t;
}

const order_point *order_trainer_curve(const order_trainer *tr, size_t k, size_t *n)
{
    if (k >= tr->n) {
        *n = 0;
        return NULL;
    }
    *n = tr->run[k].n_curve;
    return tr->run[k].curve;
}

const order_model *order_trainer_model(const order_trainer *tr, size_t k)
{
    return k < tr->n ? &tr->run[k].m : NULL;
}

tf_status order_trainer_inspect(const order_trainer *tr, size_t k, const uint32_t *tok, int L,
                                order_view *out)
{
    if (k >= tr->n || L < 2 || L > ORDER_MAX_TOKENS)
        return TF_ERR_RANGE;
    const order_model *m = &tr->run[k].m;
    order_work *w = (order_work *)&tr->view; /* scratch only: the trainer's state is untouched */
    order_model_forward(m, w, tok, L, -1, &out->pred);
    out->L = L;
    out->heads = m->H;
    for (int h = 0; h < m->H; h++)
        for (int p = 0; p < L; p++)
            for (int j = 0; j < L; j++)
                out->attn[h][p][j] = w->a[((size_t)h * L + p) * L + j];
    for (int p = 0; p < L; p++) {
        out->prob[p] = w->pr[p];
        out->score[p] = w->z[p];
    }
    return TF_OK;
}

int order_trainer_predict(const order_trainer *tr, size_t k, uint32_t s)
{
    if (k >= tr->n || s >= tr->t->n_sent)
        return -1;
    int pred;
    order_work *w = (order_work *)&tr->view;
    order_model_forward(&tr->run[k].m, w, order_task_tokens(tr->t, s),
                        (int)order_task_len(tr->t, s), -1, &pred);
    return pred;
}
