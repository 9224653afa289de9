/* topic.h — what the topic files of print/ share: a topic's row in the table, the context it
 * fills its values from, and the helpers of the text tables. Private to print/.
 *
 * A topic fills named values, tables and matrices into a sink (sink.h), which writes them as
 * JSON, CSV or .npy; its text is written by its own function, since each text table is laid out
 * for its numbers. */
#ifndef TF_PRINT_TOPIC_H
#define TF_PRINT_TOPIC_H

#include <stdio.h>

#include "analysis.h"
#include "print/print.h"
#include "print/sink.h"

/* Needs beyond the analysis's parts (ANALYSIS_*): */
enum {
    PRINT_VECTORS = 1u << 16, /* learned vectors: --vectors, or trained on the corpus first */
    PRINT_MODEL = 1u << 17,   /* a model to train step by step (no --vectors) */
    PRINT_ORDER = 1u << 18,   /* the order model, trained once per position scheme */
};

typedef struct print_ctx {
    const print_request *req;
    tf_analysis *a;  /* the analysis (topics on the sentence) */
    long rows;       /* pe's text: at most this many positions (0: all) */
    void *state;     /* what prepare made (the learned topics) */
} print_ctx;

typedef struct {
    const char *name;
    unsigned needs;   /* ANALYSIS_* parts, PRINT_VECTORS, PRINT_MODEL */
    unsigned formats; /* SINK_* it writes besides text */
    /* nanoseconds of one core in format f, compared with TF_MAX_WORK; NULL: small */
    double (*work)(const tf_analysis *a, out_format f);
    /* before any work: NULL when the configuration fits, else a sentence */
    const char *(*check)(const tf_config *cfg, const print_request *req);
    /* the learned topics: get and check their data before the output is opened; 0 or the exit
     * status after saying what was wrong */
    int (*prepare)(print_ctx *c);
    tf_status (*build)(print_ctx *c, sink *s);
    tf_status (*text)(print_ctx *c, FILE *fp);
    void (*release)(print_ctx *c);
} print_topic;

/* The topics, one file per subject. */
/* topics_tokens.c */
extern const print_topic topic_tokens, topic_vocab, topic_embedding, topic_similarity;
/* topics_positions.c */
extern const print_topic topic_pe, topic_freq, topic_relative, topic_dot, topic_decay;
/* topics_attention.c */
extern const print_topic topic_input, topic_rope, topic_order;
/* topics_schemes.c */
extern const print_topic topic_bias, topic_rope_scaling, topic_schemes, topic_style;
/* pe of a learned table (--pe-file, --scheme learned) instead of sinusoidal PE */
bool print_pe_learned(const tf_config *cfg);
tf_status print_pe_table_build(print_ctx *c, sink *s);
tf_status print_pe_table_text(print_ctx *c, FILE *fp);
double print_pe_table_work(const tf_config *cfg, out_format f);
/* topics_learned.c */
extern const print_topic topic_neighbors, topic_pca, topic_training;
/* topics_order.c */
extern const print_topic topic_order_training;

/* ---- work estimates: nanoseconds of one core, measured on an x86-64 core of the 2020s --------
 * A value formatted as text ~900 ns (sin/cos and %.15g), written as binary ~20 ns; a
 * multiply-add of a projection or of the one-hot product ~1.3 ns; an element of the relative
 * check or of the decay bound (pow, sin, cos) ~150 ns. Only the order of magnitude matters: the
 * limit keeps every request well under a minute and refuses the ones that would take hours. */
static inline double work_value(out_format f) { return f == FMT_NPY ? 20.0 : 900.0; }
/* text tables show 8 columns of wide rows */
static inline double work_shown(out_format f, double d) { return f == FMT_TEXT && d > 8 ? 8 : d; }
/* the tokens and the dimensions, once each */
double work_small(const tf_analysis *a, out_format f);

/* ---- the sentence's tokens (text.c) ------------------------------------------------------- */

/* Token t's text in the analysis. */
const char *tok_text(const tf_analysis *a, size_t t, size_t *len);
/* Token t as a value: its characters, or its bytes when it is part of a character. */
pv tok_value(const tf_analysis *a, size_t t);
/* "loaded" or "random": where the W_E row of token t comes from. */
const char *row_source(const tf_analysis *a, size_t t);

/* ---- text tables (text.c) ----------------------------------------------------------------- */

/* Columns shown by the text tables of wide rows: the first few, a gap, the last two. */
#define TEXT_HEAD_COLS 6
#define TEXT_TAIL_COLS 2
/* "  v0  v1 ... v5  ...  vd-2 vd-1" with a fixed width per value, and its header of indices. */
void text_row_d(FILE *fp, const double *v, int d);
void text_col_header(FILE *fp, int d);
/* "(8 of d dimensions shown; ...)" when columns were left out. */
void text_cols_note(FILE *fp, int d);
/* The width of the token column: the widest token as shown, 5 to 24 columns. */
int token_col_width(const tf_analysis *a);
/* A token escaped for the terminal, padded to width columns. */
void text_token(FILE *fp, const char *s, size_t len, int width);

#endif
