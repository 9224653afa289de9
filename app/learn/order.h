/* order.h — the order experiment, trained (docs/math.md part 5): one attention layer learns "who
 * does it" once per position scheme, side by side. A service of --train-order, --print
 * order-training, the order-training figure (through cli.c) and the explorer's view 10: it makes
 * the task (generated, or a user's file with its errors said in one sentence), sets up the
 * trainer, estimates the work, trains to the end with a progress bar, and writes the curves and
 * the final table as text. Its failures are said with err_say; it never draws. */
#ifndef TF_LEARN_ORDER_H
#define TF_LEARN_ORDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis.h"
#include "order_task.h"
#include "scheme.h"
#include "status.h"

/* (order_train.h; not included here, so the front-ends' own names stay theirs) */
typedef struct order_trainer order_trainer;

/* What to train: zero and NULL mean the defaults. */
typedef struct {
    const char *task_path;    /* --order-task FILE, NULL: the generated task */
    uint64_t seed;            /* --seed: the generated task, the held-out groups of a file, the
                               * initial weights */
    long pairs[2];            /* --order-pairs: training and held-out pairs of the generated task */
    int d_model;              /* -d (order model default 32) */
    int heads;                /* --heads (2) */
    int epochs;               /* --epochs (chosen from the data) */
    tf_scheme schemes[SCHEME_COUNT]; /* --scheme, in its order */
    size_t n_schemes;         /* 0: none, sinusoidal, learned, rope */
    int threads;              /* --threads, 0: one per core (at most one per scheme) */
    bool zh;                  /* the interface speaks Chinese: a bad file is also said in it */
    const char *sentence;     /* the class's sentence, NULL: none. With the generated task its
                               * words (word mode under cfg) join the task when they are doer
                               * verb object, and it and its other order are the watched pair */
    size_t sentence_len;
    const tf_config *cfg;     /* the dictionary for its words (data_dir, no_hmm) */
} order_request;

/* The task and the trainer on it. */
typedef struct {
    order_task task;
    order_trainer *tr;
    const char *path;         /* the task's file, NULL: generated */
    uint64_t seed;
    int threads;              /* threads the run uses */
    double seconds;           /* wall time of learn_order_train */
    tf_status failed;         /* why learn_order_open failed, for a front-end that says it in its
                               * own words (TF_OK: it did not) */
    char why[320];            /* the sentence of that failure, in English */
    char why_zh[400];         /* the same in Chinese when there is one (a bad task file) */
    /* the class's sentence: looked at (a sentence with the generated task), joined (its words
     * are the watched pair), or why not, with its words as segmented (space-separated) */
    bool class_given, class_used;
    order_class_problem class_problem;
    size_t class_n;
    char class_seg[400];
    char class_text[200];     /* the sentence (cut at a character) */
} learn_order;

/* The four schemes of the experiment, the default of --scheme here. */
extern const tf_scheme learn_order_default_schemes[4];

/* Make the task and the trainer r asks for: 0, or the exit status after saying what was wrong
 * (2: a bad or unreadable file, a bad setting); s->why keeps the sentence. Nothing is
 * trained yet. */
int learn_order_open(learn_order *s, const order_request *r);
void learn_order_close(learn_order *s);

/* Estimated work of training to the end, in nanoseconds of one core (all schemes). */
double learn_order_work(const learn_order *s);
/* 0 when the work is within TF_MAX_WORK, else 2 after saying what to lower. */
int learn_order_check_work(const learn_order *s, const char *mode);

/* Train every scheme to the end on s->threads threads, with a progress bar on a terminal. */
void learn_order_train(learn_order *s);

/* The text the front-ends print: the task and the model in a few lines; the loss and the
 * held-out accuracy per epoch, per scheme (every step-th epoch when there are many); the final
 * table with the share of pairs whose two orders got the same answer, and why `none` is at
 * chance. */
void learn_order_header(FILE *fp, const learn_order *s);
void learn_order_epochs(FILE *fp, const learn_order *s, size_t max_rows);
void learn_order_final(FILE *fp, const learn_order *s);
/* The class's pair and the doer each scheme names for both of its orders; nothing when the
 * sentence did not join (learn_order_header says why in one line) or there was none. */
void learn_order_class(FILE *fp, const learn_order *s);
/* The line saying why the class's sentence did not join, in Chinese or English, into buf;
 * false when it did or there was none. */
bool learn_order_class_why(const learn_order *s, char *buf, size_t cap, bool zh);
/* The doer scheme k names now for the watched sentence (b false) or its other order (b true):
 * the word, NULL before a prediction can be made. */
const char *learn_order_doer(const learn_order *s, size_t k, bool b);

/* --train-order: open, check the work, train, print; output (NULL: none) receives the task's
 * sentences in the file format. Returns the exit status. */
int learn_train_order(const order_request *r, const char *output);

#endif
