/* err.h — telling the user what went wrong: one sentence, "tfviz: " first, on standard error.
 *
 * The bottom of app/: every part of the program may call it, and it calls nothing of app/ but
 * emit's terminal-safe text, so no part needs another just to report an error (git's usage.c).
 * The sentence quotes what the user typed as it is: escape sequences and control characters in
 * it are shown escaped, never sent raw to the terminal. A front-end that owns the screen (the
 * explorer) sends the messages to itself for a while with err_redirect. */
#ifndef TF_ERR_H
#define TF_ERR_H

#include "analysis.h"

/* Say what was wrong and what to do (printf format, no final newline). */
void err_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Where messages go: fn(msg, ctx) with the message as formatted (without "tfviz: "); fn NULL is
 * standard error. */
typedef struct {
    void (*fn)(const char *msg, void *ctx);
    void *ctx;
} err_sink;

/* Send the following messages to `to`; returns the sink it replaces, to be restored with
 * another err_redirect. */
err_sink err_redirect(err_sink to);

/* One sentence for a failed analysis_run or analysis_need of cfg: what was wrong with which
 * input (the text, the --compare text, a data file) and what to do. */
void err_analysis(tf_status st, const tf_diag *dg, const tf_config *cfg);

#endif
