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
    const char *what;         /* --print WHAT */
    out_format format;
    const char *output;       /* -o FILE, NULL: standard output */
    tf_analysis *a;           /* the analysis, for the topics on the sentence */
    /* the learned topics (neighbors, pca, training) */
    learn_request learn;      /* the corpus, the tokenizer and the training settings */
    const char *vectors_path; /* --vectors FILE, NULL: train on the corpus first */
    long vectors_limit;
    const char *word;         /* --word W */
    long top;                 /* --top K */
    bool top_given;
    bool pe_split;            /* --pe-layout split: pe's sin half, then its cos half */
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
/* Write r->what in r->format to r->output (atomically) or standard output. Returns the exit
 * status after saying what went wrong. */
int print_run(const print_request *r);
/* Write r->what, a topic on the sentence (r->a, its parts computed), in r->format to fp. */
tf_status print_write(const print_request *r, FILE *fp);

/* The text report: what `tfviz TEXT` prints when standard output is not a terminal. */
void print_report(tf_analysis *a, FILE *fp);

#endif
