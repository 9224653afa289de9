/* order_train.h — training the doer-pointing model (order_model.h) on the "who does it" task
 * (order_task.h), once per position scheme, side by side.
 *
 * Every scheme starts from the same weights (the seed), sees the same batches in the same order
 * and takes the same optimiser steps; only how positions reach attention differs. Training is
 * mini-batch AdamW (or plain SGD) on the mean cross-entropy, written out; one thread per scheme,
 * so a scheme's curve is bit-for-bit the same for a seed however the work is cut into steps and
 * whether the schemes run one after another or on several threads.
 *
 * After every epoch (and once before training, epoch 0) each scheme is evaluated on both splits:
 * a point (epoch, scheme, loss, train_acc, test_acc, ...) is appended to its curve.
 *
 * A viewer drives it from its event loop (nothing here prints or blocks for long):
 *   order_task_generate(&task, &g);  order_trainer_new(&tr, &task, &cfg, schemes, n, &why);
 *   each frame:  order_trainer_step_for(tr, 20) (units of work in turn for 20 ms; one unit
 *                is one batch of training or the evaluation of a few batches' sentences,
 *                under a millisecond at the defaults), then draw
 *                order_trainer_curve(tr, k, &n) and order_trainer_inspect(tr, k, tok, L, &v);
 *   pause: stop calling step; reset: order_trainer_reset(tr); done: order_trainer_done(tr).
 * The command line trains to the end with order_trainer_run(tr, threads). */
#ifndef TF_ORDER_TRAIN_H
#define TF_ORDER_TRAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "order_model.h"
#include "order_task.h"
#include "scheme.h"
#include "status.h"

typedef enum { ORDER_ADAM = 0, ORDER_SGD = 1 } order_optimizer;

typedef struct {
    order_model_cfg model;
    int epochs;          /* passes over the training split; ORDER_EPOCHS_AUTO (the default):
                          * ORDER_AUTO_STEPS optimiser steps or more, and at least 10 epochs */
    int batch;           /* 16 sentences per step */
    order_optimizer opt; /* ORDER_ADAM */
    double lr;           /* 0.005 for Adam (SGD: 0.1 to 0.3, with a weight decay of 0.01) */
    double beta1, beta2; /* 0.9, 0.999 */
    double eps;          /* 1e-8 */
    double weight_decay; /* 1.0: every step also takes theta -= lr * wd * theta (decoupled, as
                          * AdamW; with SGD the same term): 0.5 % a step, which keeps the
                          * weights from memorising sentences */
} order_train_cfg;

#define ORDER_EPOCHS_AUTO 0
#define ORDER_AUTO_STEPS  750
#define ORDER_MAX_EPOCHS  1000
#define ORDER_MAX_BATCH   4096
#define ORDER_MAX_SCHEMES SCHEME_COUNT

void order_train_defaults(order_train_cfg *c);
/* TF_OK, or a status with *why (a static English sentence). */
tf_status order_train_check(const order_train_cfg *c, const char **why);

/* One point of a curve: the state after `epoch` epochs (0: the initial weights). */
typedef struct {
    int epoch;
    tf_scheme scheme;
    double loss;      /* mean cross-entropy over the training split */
    double train_acc; /* fraction of training sentences whose doer is the predicted position */
    double test_acc;  /* the same over the held-out split */
    double test_loss; /* mean cross-entropy over the held-out split */
    double pair_same; /* fraction of held-out sentences with a pair whose two orders get the
                       * same predicted token (1 for none: it cannot tell them apart) */
} order_point;

/* Chance on pairs: a model that cannot see order names the same word as the doer of both orders
 * of a pair, so it is right on at most one of the two (docs/math.md). The line a figure marks. */
#define ORDER_CHANCE 0.5

typedef struct order_trainer order_trainer;

/* A trainer of schemes[0..n) (distinct, 1 .. ORDER_MAX_SCHEMES) on task t, which must outlive it.
 * Nothing is trained yet. On a bad configuration returns its status and *why. The trainer keeps
 * a copy of c with ORDER_EPOCHS_AUTO resolved (order_trainer_cfg). */
tf_status order_trainer_new(order_trainer **out, const order_task *t, const order_train_cfg *c,
                            const tf_scheme *schemes, size_t n, const char **why);
void order_trainer_free(order_trainer *tr);
/* Back to the initial weights and empty curves (the same seed: the same run again). */
void order_trainer_reset(order_trainer *tr);

/* Do up to `units` units of work on every scheme that is not done (one unit: one training batch,
 * or evaluating ORDER_EVAL_UNIT batches' worth of sentences). True while work is left. */
#define ORDER_EVAL_UNIT 4
bool order_trainer_step(order_trainer *tr, int units);
/* One unit of work on the next scheme that is not done, in turn (the finest step, for large
 * models). True while work is left. */
bool order_trainer_step_one(order_trainer *tr);
/* Units in turn (order_trainer_step_one) until max_ms milliseconds have passed, at least one:
 * what a viewer calls once a frame. True while work is left. */
bool order_trainer_step_for(order_trainer *tr, double max_ms);
/* Work until every scheme that is not done has one more point on its curve: the first call
 * evaluates the initial weights (epoch 0), each later one trains an epoch and evaluates it.
 * True while work is left. */
bool order_trainer_epoch(order_trainer *tr);
/* Train every scheme to the end, on up to `threads` threads (schemes run in parallel; the
 * results do not depend on the number). The schemes of a thread that cannot be started are
 * trained on the calling thread, so this returns TF_OK. */
tf_status order_trainer_run(order_trainer *tr, int threads);
/* The same, telling a watcher how far it is: report(share done 0 .. 1, user) is called on the
 * calling thread about every `every_ms` milliseconds while the schemes train and once more at the
 * end with 1. The calling thread only waits and reports; the schemes train on `threads` threads
 * of their own (on the calling thread, without reports, when none can be started). report NULL:
 * order_trainer_run. The results are the same bits either way. */
typedef void (*order_report_fn)(double done, void *user);
tf_status order_trainer_run_report(order_trainer *tr, int threads, order_report_fn report,
                                   void *user, double every_ms);
bool order_trainer_done(const order_trainer *tr);
/* Share of the whole run done, 0 .. 1, over all schemes (for a progress bar). */
double order_trainer_progress(const order_trainer *tr);

size_t order_trainer_count(const order_trainer *tr);
tf_scheme order_trainer_scheme(const order_trainer *tr, size_t k);
const order_train_cfg *order_trainer_cfg(const order_trainer *tr);
const order_task *order_trainer_task(const order_trainer *tr);
/* The curve of scheme k: points for epochs 0 .. *n - 1 evaluated so far. */
const order_point *order_trainer_curve(const order_trainer *tr, size_t k, size_t *n);
/* The model of scheme k, as trained so far (read only; valid until the next step or reset). */
const order_model *order_trainer_model(const order_trainer *tr, size_t k);

/* What scheme k makes of a sentence now: its attention and its answer. (Like
 * order_trainer_predict, not while order_trainer_run is running.) */
typedef struct {
    int L, heads;
    double attn[ORDER_MAX_HEADS][ORDER_MAX_TOKENS][ORDER_MAX_TOKENS]; /* [h][query][key] */
    double prob[ORDER_MAX_TOKENS];                                    /* P(doer = p) */
    double score[ORDER_MAX_TOKENS];                                   /* the readout z_p */
    int pred;                                                         /* the predicted position */
} order_view;

/* tok[0..L), 2 <= L <= ORDER_MAX_TOKENS; ids of the task's vocabulary (ORDER_UNK for unknown
 * words; ids past it count as ORDER_UNK). TF_ERR_RANGE for a bad k or L. */
tf_status order_trainer_inspect(const order_trainer *tr, size_t k, const uint32_t *tok, int L,
                                order_view *out);
/* The predicted position of the task's sentence s under scheme k now; -1 for a bad k or s. */
int order_trainer_predict(const order_trainer *tr, size_t k, uint32_t s);

#endif
