/* print.h — `--print WHAT`: the analysis as text, CSV, JSON or .npy. */
#ifndef TF_PRINT_H
#define TF_PRINT_H

#include <stdio.h>

#include "analysis.h"
#include "cli.h"

/* Check that WHAT exists and accepts the format; on failure returns a sentence for the user. */
const char *print_check(const char *what, out_format f, const tf_config *c);
/* Estimated work of --print WHAT in format f, in nanoseconds of one core; compared with
 * TF_MAX_WORK before anything runs. */
double print_work(const char *what, out_format f, const tf_analysis *a);
/* The ANALYSIS_* parts WHAT reads. */
unsigned print_needs(const char *what);
/* Write WHAT in format f. */
tf_status print_run(const char *what, out_format f, tf_analysis *a, FILE *fp);
/* "tokens, embedding, ..." for help and error messages. */
const char *print_list(void);

/* The text report: what `tfviz TEXT` prints when stdout is not a terminal. */
void print_report(tf_analysis *a, FILE *fp);

#endif
