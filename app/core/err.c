/* err.c — one sentence on standard error, or wherever err_redirect sends it; the sentences of
 * a failed analysis. */
#include "core/err.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/emit.h"
#include "tf_config.h"
#include "tf_limits.h"

static err_sink sink;

err_sink err_redirect(err_sink to)
{
    err_sink old = sink;
    sink = to;
    return old;
}

void err_say(const char *fmt, ...)
{
    char small[512], *msg = small;
    va_list ap;
    va_start(ap, fmt);
    /* NOLINTNEXTLINE(clang-analyzer-valist.Uninitialized): started above; clang 14 false alarm */
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n >= (int)sizeof small) {
        char *big = malloc((size_t)n + 1);
        if (big) {
            va_start(ap, fmt);
            vsnprintf(big, (size_t)n + 1, fmt, ap);
            va_end(ap);
            msg = big;
        } else {
            n = (int)strlen(small); /* out of memory: the message cut short */
        }
    }
    if (sink.fn) {
        sink.fn(msg, sink.ctx);
    } else {
        fputs("tfviz: ", stderr);
        emit_safe_text(stderr, msg, n < 0 ? 0 : (size_t)n);
        fputc('\n', stderr);
    }
    if (msg != small)
        free(msg);
}

/* A missing or corrupt data file: which one, and how to get it. */
static void data_error(tf_status st, const tf_config *cfg)
{
    tokenizer_kind k = cfg->tokenizer;
    const char *dir = cfg->data_dir ? cfg->data_dir : "(none)";
    int bpe = k == TOKENIZER_CL100K || k == TOKENIZER_O200K;
    char file[32];
    snprintf(file, sizeof file, "tfviz-%s.bin", bpe ? tokenizer_name(k) : "dict");
    if (bpe && !TF_HAVE_PCRE2)
        err_say("--tokenizer %s needs PCRE2, which this build lacks; install libpcre2-dev, "
                  "rebuild, or use --tokenizer word.", tokenizer_name(k));
    else if (st == TF_ERR_FORMAT)
        err_say("%s/%s is damaged; rebuild tfviz (meson compile) or reinstall it, or use "
                  "--tokenizer char.", dir, file);
    else if (bpe)
        err_say("the %s BPE table (%s) is not in %s; run scripts/bootstrap.sh, which fetches "
                  "tiktoken@1.0.22 with npm, then rebuild (or use --tokenizer word).",
                  tokenizer_name(k), file, dir);
    else
        err_say("the word dictionary (%s) is not in %s; install python3-jieba "
                  "(scripts/bootstrap.sh) and rebuild, or use --tokenizer char.", file, dir);
}

/* One sentence for a failed analysis, naming the input and what to do. */
/* The order experiment under --scheme could not run: the learned table, mostly. */
static void positions_error(tf_status st, const tf_config *cfg)
{
    const tf_positions *p = cfg->positions;
    const tf_learned_pe *t = p ? p->table : NULL;
    long rows = t ? t->n_pos : p && p->trained > 0 ? p->trained : POSITIONS_DEFAULT_LEARNED;
    switch (st) {
    case TF_ERR_POSITIONS:
        err_say("the learned position table has %ld rows, one per position: too few for the "
                "text's positions; shorten the text%s.", rows,
                t ? "" : " or give more rows with --original-context");
        break;
    case TF_ERR_DMODEL:
        err_say("the learned position table is %d numbers wide but d_model is %d; leave -d "
                "out (d_model then follows --pe-file) or give a table of that width.",
                t ? t->d : cfg->d_model, cfg->d_model);
        break;
    case TF_ERR_TOO_BIG:
        err_say("the untrained learned table (%ld rows x d_model %d) would hold more than "
                "%d numbers; lower --original-context or -d.", rows, cfg->d_model,
                TF_MAX_TABLE_VALUES);
        break;
    default:
        err_say("the position schemes cannot run: %s.", tf_status_str(st));
    }
}

void err_analysis(tf_status st, const tf_diag *dg, const tf_config *cfg)
{
    if (dg->where == DIAG_POSITIONS) {
        positions_error(st, cfg);
        return;
    }
    const char *which = dg->where == DIAG_COMPARE ? "the --compare text" : "the text";
    switch (st) {
    case TF_ERR_UTF8:
        err_say("%s is not valid UTF-8 (bad byte at offset %zu); save it as UTF-8 and try again.",
                  which, dg->offset);
        break;
    case TF_ERR_EMPTY:
        err_say("%s is empty; give a sentence such as %s.", which, TF_DEFAULT_TEXT);
        break;
    case TF_ERR_TOO_LONG:
        err_say("%s is longer than %d bytes; give a sentence or a paragraph, not a whole "
                  "document.", which, TF_MAX_TEXT_BYTES);
        break;
    case TF_ERR_TOO_MANY:
        err_say("%s has more than %d tokens; shorten it.", which, TF_MAX_TOKENS);
        break;
    case TF_ERR_TOO_BIG:
        err_say("%s has too many tokens for d_model %d: tokens x d_model must stay under %d "
                  "(memory); shorten it or lower -d.", which, cfg->d_model, TF_MAX_TOKEN_VALUES);
        break;
    case TF_ERR_OFFSET:
        err_say("--offset must be below the number of positions (%ld); raise -n or lower "
                  "--offset.", cfg->n_positions);
        break;
    case TF_ERR_PERMUTATION:
        err_say("the --compare text must have the same tokens as the sentence in another "
                  "order (for %s try %s).", TF_DEFAULT_TEXT, "学习爱我");
        break;
    case TF_ERR_UNAVAILABLE:
    case TF_ERR_FORMAT:
        data_error(st, cfg);
        break;
    default:
        err_say("%s.", tf_status_str(st));
    }
}
