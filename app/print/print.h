/* print.h — the --print front-end: the analysis (or learned vectors) as text, CSV, JSON or .npy.
 * Users and scripts read these formats: keys are added, never renamed.
 *
 * A topic is one row of the table in print.c and one build function (and one text function) in
 * the file of its subject: topics_tokens.c, topics_positions.c, topics_attention.c,
 * topics_learned.c. It fills values, tables and matrices into a sink (sink.h), which writes
 * them in the chosen format. */
#ifndef TF_PRINT_H
#define TF_PRINT_H

#include <stdbool.h>
#include <stdio.h>

#include "analysis.h"
#include "core/options.h"
#include "learn/learn.h"
#include "learn/order.h"

typedef struct {
    /* the command line as parsed: --print WHAT, --format, -o, --vectors and --vectors-limit,
     * --word, --top, --pe-layout */
    const tf_options *opt;
    tf_analysis *a;           /* the analysis, for the topics on the sentence */
    learn_request learn;      /* the learned topics: the corpus, the tokenizer, the settings */
    order_request order;      /* order-training: the task, the model and the schemes */
} print_request;

/* The topics' names in the table's order, NULL at the end. */
const char *const *print_topics(void);
/* WHAT is one of the topics. */
bool print_topic_known(const char *what);
/* WHAT is a topic of learned vectors or of the trained order model: it reads no sentence. */
bool print_learned(const char *what);
/* WHAT trains the order model (order-training). */
bool print_trains_order(const char *what);
/* WHAT writes format f (print_check refuses the others in one sentence). */
bool print_writes(const char *what, out_format f);
/* The analysis parts (ANALYSIS_*) WHAT reads. */
unsigned print_needs(const char *what);
/* Before any work: NULL when WHAT exists, takes the format and fits configuration cfg; else a
 * sentence for the user. */
const char *print_check(const print_request *r, const tf_config *cfg);
/* Estimated work of WHAT in format f, in nanoseconds of one core; compared with TF_MAX_WORK
 * before anything runs. */
double print_work(const char *what, out_format f, const tf_analysis *a);
/* Write --print's topic in its --format to its -o file (atomically) or standard output. Returns
 * the exit status after saying what went wrong. */
int print_run(const print_request *r);
/* Write --print's topic on the sentence (r->a, its parts computed) in its --format to fp. */
tf_status print_write(const print_request *r, FILE *fp);

/* The text report: what `tfviz TEXT` prints when standard output is not a terminal. */
void print_report(tf_analysis *a, FILE *fp);

#endif
