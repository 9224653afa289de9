/* analysis.h — the whole pipeline for one sentence and one configuration (claims C1-C13).
 *
 *   text -> tokens + ids -> W_E rows -> X_emb --(+ PE)--> X_input -> Q K V -> attention
 *
 * The TUI, --print and --export all read this one value and never recompute the math, so every
 * number on screen is the number printed and the number plotted. The cheap parts are computed
 * by analysis_run; the costlier ones (relative check, RoPE, order experiment) on request. */
#ifndef TF_ANALYSIS_H
#define TF_ANALYSIS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "attention.h"
#include "positions.h"
#include "embedding.h"
#include "rope.h"
#include "status.h"
#include "tokenizer.h"
#include "vectors.h"
#include "vocab.h"

typedef struct {
    tokenizer_kind tokenizer;
    uint32_t vocab_size;  /* V */
    int d_model;          /* d */
    long n_positions;     /* rows of PE tables, the relative check and the dot matrix */
    double base;          /* 10000: the frequency base of PE and RoPE */
    int index_base;       /* 0: positions count from 0 (the formula); 1: the article's prose */
    uint64_t seed;        /* W_E, W_Q, W_K, W_V */
    rope_style rope;
    long offset;          /* k of the relative map M_k */
    bool scale_embedding; /* multiply X_emb by sqrt(d) before adding PE, as the original paper */
    bool no_hmm;          /* word mode without jieba's HMM: jieba.cut(text, HMM=False) */
    const char *compare;  /* the second sentence of the order experiment, NULL: words reversed */
    size_t compare_len;
    const char *data_dir; /* where the dictionary and BPE tables are (NULL: none); word and BPE
                             modes need them, char mode falls back to code points without */
    const tf_vectors *vectors; /* trained/loaded rows of W_E (dim == d_model), NULL: all random;
                                  owned by the caller, read only during analysis_run */
    const tf_positions *positions; /* the position schemes and their parameters (--scheme, ...;
                                      owned by the caller), NULL: the defaults, no list */
} tf_config;

/* What went wrong, beyond the status: which input and where. */
typedef struct {
    enum { DIAG_NONE, DIAG_TEXT, DIAG_COMPARE, DIAG_CONFIG, DIAG_POSITIONS } where;
    size_t offset; /* byte offset of invalid UTF-8 */
} tf_diag;

void config_defaults(tf_config *c);

/* The sentence when none is given. */
#define TF_DEFAULT_TEXT "我爱学习"
/* The same shape in English, for figures in English: three words, reversed "math love I" as
 * 学习爱我 is 我爱学习 reversed (short enough for order's labels at one column). */
#define TF_DEFAULT_TEXT_EN "I love math"
/* Check ranges: d_model even in [TF_MIN_DMODEL, TF_MAX_DMODEL], positions in
 * [1, TF_MAX_POSITIONS], base finite and > 1, index base 0 or 1, offset in [0, n_positions). */
tf_status config_check(const tf_config *c);

enum { ANALYSIS_RELATIVE = 1u << 0, ANALYSIS_ROPE = 1u << 1, ANALYSIS_ORDER = 1u << 2,
       ANALYSIS_ALL = 7u };

#define ROPE_CHECK_MAX_POSITIONS 128

typedef struct {
    tf_config cfg;
    char *text;       /* a copy of the sentence (text_len bytes + NUL) */
    size_t text_len;
    tf_vocab *vocab;
    tf_tokens tokens; /* T = tokens.n */
    tf_embedding emb; /* embedding_row_is_set(&emb, id): a trained/loaded row, not random */
    double emb_scale; /* 1 or sqrt(d) */
    long *pos;        /* (T) position of each token: index_base + t */
    float *x_emb;     /* (T, d) rows of W_E, unscaled */
    double *pe;       /* (T, d) PE(pos[t]) */
    double *x_input;  /* (T, d) emb_scale * x_emb + pe */
    double *omega;    /* (d/2) w_i = base^(-2i/d) */
    unsigned done;    /* ANALYSIS_* parts computed */

    /* ANALYSIS_RELATIVE */
    double max_residual;   /* max |PE(pos+k) - M_k PE(pos)| over the n_positions rows */
    double min_distance;   /* smallest |PE(p) - PE(q)|, p != q */
    long min_pair[2];

    /* ANALYSIS_ROPE: q = s x_emb W_Q and k = s x_emb W_K, s = emb_scale, without the order
     * head's LayerNorm (RoPE adds nothing to the input) */
    double *q, *k;         /* (T, d) */
    double *q_rot, *k_rot; /* (T, d) rotated by pos[t] */
    double score_offset_max_dev; /* of q[0], k[T-1] over rope_check_positions positions */
    long rope_check_positions;

    /* ANALYSIS_ORDER: both sentences through analysis_attn_cfg's head, in each mode; or, when
     * the configuration lists position schemes, under each of them (positions.h) */
    char *cmp_text;        /* the second sentence */
    size_t cmp_len;
    tf_tokens cmp_tokens;
    size_t *perm;          /* (T) cmp token t is sentence token perm[t] */
    size_t n_order;        /* rows of order[]: ATTN_MODE_COUNT, or the schemes listed */
    bool order_by_scheme;  /* order[i] is scheme order_scheme[i], not attn_mode i */
    tf_scheme order_scheme[SCHEME_COUNT];
    scheme_mask order_mask; /* the mask of the schemes' head (symmetric for the modes) */
    tf_order_result order[SCHEME_COUNT];
    attn_head_choice order_head; /* the modes' head: which of the layer's, by
                                    attention_order_choose's rule (head 0 for the schemes) */
} tf_analysis;

/* The vocabulary c->tokenizer needs: the dictionary's (word, char), a BPE table (cl100k,
 * o200k), or the code points (char mode when no dictionary is installed). TF_ERR_UNAVAILABLE
 * or TF_ERR_FORMAT when the data file is missing or corrupt. */
tf_status analysis_vocab(const tf_config *c, tf_vocab **out);

/* Tokenize, look up, add PE. On failure *diag (if not NULL) says where. */
tf_status analysis_run(const tf_config *c, const char *text, size_t len, tf_analysis *a,
                       tf_diag *diag);
/* Compute the parts in `what` (ANALYSIS_*) that are not done yet. */
tf_status analysis_need(tf_analysis *a, unsigned what, tf_diag *diag);
void analysis_free(tf_analysis *a);
/* Move the parts `what` (ANALYSIS_*) that src has computed into dst, an analysis of the same
 * sentence and configuration (computed elsewhere, e.g. on another thread), replacing dst's;
 * src keeps the rest and is still freed with analysis_free. */
void analysis_take_parts(tf_analysis *dst, tf_analysis *src, unsigned what);

/* C4 the long way: max |onehot(ids) . W_E - W_E[ids]| over the sentence's tokens (0 exactly). */
tf_status analysis_onehot_check(const tf_analysis *a, double *max_abs_diff);

/* The attention head of the order experiment for this analysis (seed, d, base, pairing, first
 * position; LayerNorm, word vectors times sqrt(d): attention_head_cfg). */
tf_attn_cfg analysis_attn_cfg(const tf_analysis *a);

/* The sentence's words, the units order B moves whole (a segmented word with its fallback
 * characters, a BPE pre-token piece; in a sentence of one word, its characters): how many. */
size_t analysis_word_count(const tf_analysis *a);
/* The words spelled in the order given (order[k]: the word written k-th, n of them, each
 * below analysis_word_count), separated by a space when the sentence separates its words with
 * spaces, as the default order B spells them. Written into out (cap bytes, cut at a character
 * boundary); returns the length. */
size_t analysis_words_spell(const tf_analysis *a, const size_t *order, size_t n, char *out,
                            size_t cap);

/* The name of row i of the order experiment: the mode's (attention_mode_name) or the scheme's
 * (scheme_name). */
const char *analysis_order_name(const tf_analysis *a, size_t i);

#endif
