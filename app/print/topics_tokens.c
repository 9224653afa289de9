/* topics_tokens.c — the topics of tokens and their rows of W_E: tokens (C1), vocab, embedding
 * (C2-C4) and the cosine similarity of the sentence's rows. */
#include <stdlib.h>
#include <string.h>

#include "core/emit.h"
#include "core/strings.h"
#include "linalg.h"
#include "print/topic.h"
#include "textwidth.h"
#include "utf8.h"
#include "vectors.h"

static const char *tok_status(const tf_token *k)
{
    if (k->flags & TOKEN_UNK)
        return "unk";
    if (k->flags & TOKEN_FALLBACK)
        return "fallback";
    if (k->flags & TOKEN_SPLIT)
        return "split";
    return "in_vocab";
}

/* The mark of a token that is part of a segment outside the vocabulary: the same marks in view 1
 * (tui/view_embed.c) and the text report. */
static char tok_mark(const tf_token *k)
{
    if (k->flags & TOKEN_SPLIT)
        return '~';
    if ((k->flags & TOKEN_FALLBACK) && !(k->flags & TOKEN_UNK))
        return '*';
    return ' ';
}

/* The segment token t belongs to (its neighbours with the same word index): [*b, *e). */
static void tok_segment(const tf_analysis *a, size_t t, uint32_t *b, uint32_t *e)
{
    const tf_token *k = a->tokens.items;
    size_t i = t, j = t;
    while (i > 0 && k[i - 1].word == k[t].word)
        i--;
    while (j + 1 < a->tokens.n && k[j + 1].word == k[t].word)
        j++;
    *b = k[i].start;
    *e = k[j].end;
}

/* What the tokens topic says of token t. */
typedef struct {
    const tf_token *k;
    const char *s; /* its text, l bytes */
    size_t l;
    int64_t rank;  /* frequency rank in the vocabulary, -1: unknown */
    uint64_t freq;
} token_facts;

static token_facts facts_of(const tf_analysis *a, size_t t)
{
    token_facts f = {.k = &a->tokens.items[t]};
    f.s = tok_text(a, t, &f.l);
    f.rank = f.k->flags & TOKEN_UNK ? -1 : vocab_rank(a->vocab, f.k->id);
    f.freq = f.k->flags & TOKEN_UNK ? 0 : vocab_frequency(a->vocab, f.k->id);
    return f;
}

/* ---------------------------------------------------------------------------------------------
 * tokens (C1) */

enum { J = SINK_JSON, C = SINK_CSV, JC = SINK_JSON | SINK_CSV };

static const sink_col token_cols[] = {
    {"index", C, NULL}, {"text", JC, NULL},   {"id", JC, NULL},    {"start", JC, NULL},
    {"end", JC, NULL},  {"pos", JC, NULL},    {"status", JC, NULL}, {"rank", JC, NULL},
    {"frequency", JC, NULL}, {"in_vocab", JC, NULL}, {"word", JC, NULL},
    {"partial", J, NULL}, {"bytes", J, NULL}, {"bytes", C, NULL},
};

static tf_status token_row(void *ctx, size_t t, pv *cell)
{
    const tf_analysis *a = ctx;
    token_facts f = facts_of(a, t);
    bool partial = (f.k->flags & TOKEN_PARTIAL) != 0;
    cell[0] = pv_uint(t);
    cell[1] = tok_value(a, t);
    cell[2] = pv_int(f.k->id);
    cell[3] = pv_uint(f.k->start);
    cell[4] = pv_uint(f.k->end);
    cell[5] = pv_int(a->pos[t]);
    cell[6] = pv_str(tok_status(f.k));
    cell[7] = f.rank < 0 ? pv_null() : pv_int(f.rank);
    cell[8] = pv_uint(f.freq);
    cell[9] = pv_bool(f.k->flags & (TOKEN_IN_VOCAB | TOKEN_SPLIT));
    cell[10] = pv_uint(f.k->word);
    if (partial)
        cell[11] = pv_bool(true), cell[12] = pv_bytes(f.s, f.l);
    cell[13] = pv_bytes(f.s, partial ? f.l : 0);
    return TF_OK;
}

static tf_status tokens_build(print_ctx *c, sink *s)
{
    tf_analysis *a = c->a;
    sink_value(s, J, "text", pv_strn(a->text, a->text_len));
    sink_value(s, J, "tokenizer", pv_str(tokenizer_name(a->tokens.kind)));
    sink_value(s, J, "vocab", pv_str(vocab_name(a->vocab)));
    sink_value(s, J, "vocab_size", pv_uint(vocab_size(a->vocab)));
    return sink_table(s, JC, &(sink_table_def){.key = "tokens", .cols = token_cols, .ncols = 14,
                                           .rows = a->tokens.n, .row = token_row, .ctx = a});
}

static tf_status tokens_text(print_ctx *c, FILE *fp)
{
    tf_analysis *a = c->a;
    int w = token_col_width(a);
    int bpe = a->tokens.kind == TOKENIZER_CL100K || a->tokens.kind == TOKENIZER_O200K;
    fprintf(fp, "tokenizer %s, vocabulary %s, V = %u\n", tokenizer_name(a->tokens.kind),
            vocab_name(a->vocab), vocab_size(a->vocab));
    fputs("  pos    ", fp);
    tw_pad(fp, "token", 5, w);
    fprintf(fp, "        id  %s  frequency   bytes  status\n", bpe ? "    rank" : "freq.rank");
    size_t n_fallback = 0, n_unk = 0, n_partial = 0, n_split = 0, n_latin = 0;
    for (size_t t = 0; t < a->tokens.n; t++) {
        token_facts f = facts_of(a, t);
        const tf_token *k = f.k;
        fprintf(fp, "%5ld  %c ", a->pos[t], tok_mark(k));
        text_token(fp, f.s, f.l, w);
        fprintf(fp, "  %8d  ", k->id);
        if (f.rank >= 0)
            fprintf(fp, "%9lld", (long long)f.rank);
        else
            fputs("        -", fp);
        if (f.freq)
            fprintf(fp, "  %9llu", (unsigned long long)f.freq);
        else
            fputs("          -", fp);
        fprintf(fp, "  %2u-%-3u  %s%s", k->start, k->end, tok_status(k),
                k->flags & TOKEN_PARTIAL ? ", partial UTF-8" : "");
        if (k->flags & (TOKEN_SPLIT | TOKEN_FALLBACK)) { /* the segment it is part of */
            uint32_t b, e;
            tok_segment(a, t, &b, &e);
            fputs(" of ", fp);
            emit_safe_text(fp, a->text + b, e - b);
        }
        fputc('\n', fp);
        n_split += (k->flags & TOKEN_SPLIT) != 0;
        n_fallback += (k->flags & TOKEN_FALLBACK) != 0;
        n_unk += (k->flags & TOKEN_UNK) != 0;
        n_partial += (k->flags & TOKEN_PARTIAL) != 0;
        n_latin += (k->flags & TOKEN_FALLBACK) && f.l == 1 &&
                   ((*f.s >= 'A' && *f.s <= 'Z') || (*f.s >= 'a' && *f.s <= 'z'));
    }
    if (n_split)
        txt_gloss(fp, T_G_SPLIT, n_split, vocab_size(a->vocab));
    if (n_fallback)
        txt_gloss(fp, T_G_FALLBACK, n_fallback);
    if (n_latin && a->tokens.kind == TOKENIZER_WORD && vocab_english_words(a->vocab) == 0)
        txt_gloss(fp, T_G_NO_ENGLISH);
    if (n_unk)
        txt_gloss(fp, T_G_UNK, n_unk, VOCAB_UNK);
    if (n_partial)
        txt_gloss(fp, T_G_PARTIAL, n_partial);
    return TF_OK;
}

const print_topic topic_tokens = {
    .name = "tokens", .formats = JC, .work = work_small, .build = tokens_build,
    .text = tokens_text,
};

/* ---------------------------------------------------------------------------------------------
 * vocab: the whole vocabulary, id order (id = 4 + frequency rank for the dictionary's words,
 * then the base alphabet, frequency 0 where a character is no dictionary word; vocab.h) */

typedef struct {
    const tf_vocab *v;
    char buf[512]; /* the token of the row being written */
    size_t n;      /* its length */
} vocab_rows;

static const sink_col vocab_cols[] = {{"id", JC, NULL}, {"token", JC, NULL},
                                      {"frequency", JC, NULL}};

static tf_status vocab_advance(void *ctx, size_t id, int *flow)
{
    vocab_rows *r = ctx;
    r->n = vocab_token(r->v, (int32_t)id, r->buf, sizeof r->buf);
    /* an unused id: V is larger than the word list, or a BPE special id */
    *flow = r->n ? SINK_ROW : SINK_SKIP;
    return TF_OK;
}

static tf_status vocab_row(void *ctx, size_t id, pv *cell)
{
    const vocab_rows *r = ctx;
    size_t n = r->n;
    cell[0] = pv_uint(id);
    cell[1] = pv_token(r->buf, n, utf8_validate(r->buf, n, NULL) != TF_OK);
    cell[2] = pv_uint(vocab_frequency(r->v, (int32_t)id));
    return TF_OK;
}

static tf_status vocab_build(print_ctx *c, sink *s)
{
    vocab_rows r = {.v = c->a->vocab};
    sink_value(s, J, "vocab", pv_str(vocab_name(r.v)));
    sink_value(s, J, "vocab_size", pv_uint(vocab_size(r.v)));
    return sink_table(s, JC, &(sink_table_def){.key = "tokens", .cols = vocab_cols, .ncols = 3,
                                           .rows = vocab_size(r.v), .advance = vocab_advance,
                                           .row = vocab_row, .ctx = &r});
}

static tf_status vocab_text(print_ctx *c, FILE *fp)
{
    const tf_vocab *v = c->a->vocab;
    uint32_t V = vocab_size(v);
    char buf[512];
    fprintf(fp, "vocabulary %s, V = %u (id, token, frequency)\n", vocab_name(v), V);
    for (uint32_t id = 0; id < V && !ferror(fp); id++) {
        size_t n = vocab_token(v, (int32_t)id, buf, sizeof buf);
        if (n == 0)
            continue;
        fprintf(fp, "%8u  ", id);
        emit_safe_text(fp, buf, n);
        fprintf(fp, "  %llu\n", (unsigned long long)vocab_frequency(v, (int32_t)id));
    }
    return ferror(fp) ? TF_ERR_IO : TF_OK;
}

const print_topic topic_vocab = {
    .name = "vocab", .formats = JC, .work = work_small, .build = vocab_build,
    .text = vocab_text,
};

/* ---------------------------------------------------------------------------------------------
 * embedding (C2-C4) */

static const sink_col emb_cols[] = {{"text", J, NULL},       {"token", C, NULL},
                                    {"id", JC, NULL},        {"row_source", J, NULL},
                                    {"row", JC, NULL}};

static tf_status emb_row(void *ctx, size_t t, pv *cell)
{
    const tf_analysis *a = ctx;
    size_t d = (size_t)a->cfg.d_model;
    cell[0] = cell[1] = tok_value(a, t);
    cell[2] = pv_int(a->tokens.items[t].id);
    cell[3] = pv_str(row_source(a, t));
    cell[4] = pv_fvec(a->x_emb + t * d, d);
    return TF_OK;
}

static tf_status embedding_build(print_ctx *c, sink *s)
{
    tf_analysis *a = c->a;
    size_t T = a->tokens.n, d = (size_t)a->cfg.d_model;
    double diff = 0, params = embedding_params(&a->emb);
    if (c->req->opt->format == FMT_JSON) { /* the one-hot product is part of the JSON record */
        tf_status st = analysis_onehot_check(a, &diff);
        if (st != TF_OK)
            return st;
    }
    sink_value(s, J, "vocab_size", pv_uint(a->emb.vocab_size));
    sink_value(s, J, "d_model", pv_uint(d));
    sink_value(s, J, "seed", pv_uint(a->emb.seed));
    sink_value(s, J, "init", pv_str("uniform(-sqrt(3/d), sqrt(3/d))"));
    sink_value(s, J, "init_scale", pv_num_digits(a->emb.init_scale, EMIT_F32_DIGITS));
    sink_value(s, J, "parameters", pv_whole(params));
    sink_value(s, J, "bytes_fp32", pv_whole(params * 4));
    sink_value(s, J, "bytes_bf16", pv_whole(params * 2));
    tf_status st = sink_table(s, JC, &(sink_table_def){.key = "tokens", .cols = emb_cols,
                                                       .ncols = 5, .rows = T, .row = emb_row,
                                                       .ctx = a});
    sink_value(s, J, "onehot_max_abs_diff", pv_num(diff));
    if (st == TF_OK)
        st = sink_matrix(s, SINK_NPY, &(sink_matrix_def){.rows = T, .cols = d, .f32 = true,
                                                     .data = a->x_emb});
    return st;
}

static tf_status embedding_text(print_ctx *c, FILE *fp)
{
    tf_analysis *a = c->a;
    size_t T = a->tokens.n, d = (size_t)a->cfg.d_model;
    double diff;
    tf_status st = analysis_onehot_check(a, &diff);
    if (st != TF_OK)
        return st;
    double params = embedding_params(&a->emb);
    fprintf(fp, "W_E: V x d_model = %u x %zu = %.1f M parameters (fp32 %.1f MB, bf16 %.1f MB)\n",
            a->emb.vocab_size, d, params / 1e6, params * 4 / 1e6, params * 2 / 1e6);
    size_t n_set = 0;
    for (size_t t = 0; t < T; t++)
        n_set += embedding_row_is_set(&a->emb, a->tokens.items[t].id);
    if (a->emb.n_set)
        txt_gloss(fp, T_G_ROWS_SET, a->emb.n_set, n_set, T, (unsigned long long)a->emb.seed,
                  a->emb.init_scale);
    else
        fprintf(fp, "Rows are random (seed %llu, uniform +-%.6f) until trained.\n",
                (unsigned long long)a->emb.seed, a->emb.init_scale);
    fprintf(fp, "onehot(id) . W_E computed over all %u rows equals row id: max |diff| = %g\n\n",
            a->emb.vocab_size, diff);
    double *full = malloc(d * sizeof *full);
    if (!full)
        return TF_ERR_NOMEM;
    int w = token_col_width(a);
    tw_pad(fp, "token", 5, w);
    fputs("        id    |row|", fp);
    text_col_header(fp, (int)d);
    for (size_t t = 0; t < T; t++) {
        size_t l;
        const char *s = tok_text(a, t, &l);
        text_token(fp, s, l, w);
        fprintf(fp, " %c%8d  %7.4f",
                embedding_row_is_set(&a->emb, a->tokens.items[t].id) ? '*' : ' ',
                a->tokens.items[t].id, la_norm_f(a->x_emb + t * d, d));
        for (size_t j = 0; j < d; j++)
            full[j] = a->x_emb[t * d + j];
        text_row_d(fp, full, (int)d);
    }
    free(full);
    text_cols_note(fp, (int)d);
    return TF_OK;
}

static double embedding_work(const tf_analysis *a, out_format f)
{
    double T = (double)a->tokens.n, d = a->cfg.d_model, V = a->cfg.vocab_size;
    return T * work_shown(f, d) * work_value(f) +
           (f == FMT_TEXT || f == FMT_JSON ? 1.3 * V * d * (T + 1) : 0);
}

const print_topic topic_embedding = {
    .name = "embedding", .formats = JC | SINK_NPY, .work = embedding_work,
    .build = embedding_build, .text = embedding_text,
};

/* ---------------------------------------------------------------------------------------------
 * similarity: the cosine matrix of the sentence's embedding rows */

typedef struct {
    const tf_analysis *a;
    double *cs; /* (T, T) */
} cosines;

static void token_name(void *ctx, size_t t, pv *out)
{
    const cosines *k = ctx;
    size_t l;
    const char *s = tok_text(k->a, t, &l);
    *out = pv_strn(s, l);
}

static const sink_col sim_cols[] = {{"token", C, NULL}, {"cosine", C, token_name}};

static tf_status sim_row(void *ctx, size_t t, pv *cell)
{
    const cosines *k = ctx;
    size_t T = k->a->tokens.n;
    token_name(ctx, t, &cell[0]);
    cell[1] = pv_dvec(k->cs + t * T, T);
    return TF_OK;
}

static const sink_col sim_token_col[] = {{"tokens", J, NULL}};
static const sink_col sim_source_col[] = {{"row_source", J, NULL}};

static tf_status sim_token(void *ctx, size_t t, pv *cell)
{
    token_name(ctx, t, cell);
    return TF_OK;
}

static tf_status sim_source(void *ctx, size_t t, pv *cell)
{
    const cosines *k = ctx;
    *cell = pv_str(row_source(k->a, t));
    return TF_OK;
}

static tf_status similarity_build(print_ctx *c, sink *s)
{
    size_t T = c->a->tokens.n;
    cosines k = {c->a, malloc(T * T * sizeof(double))};
    if (!k.cs)
        return TF_ERR_NOMEM;
    vectors_cosine_matrix(c->a->x_emb, T, c->a->cfg.d_model, k.cs);
    tf_status st = sink_table(s, J, &(sink_table_def){.key = "tokens", .cols = sim_token_col,
                                                  .ncols = 1, .rows = T, .flat = true,
                                                  .row = sim_token, .ctx = &k});
    if (st == TF_OK)
        st = sink_table(s, J, &(sink_table_def){.key = "row_source", .cols = sim_source_col,
                                            .ncols = 1, .rows = T, .flat = true,
                                            .row = sim_source, .ctx = &k});
    if (st == TF_OK)
        st = sink_matrix(s, J | SINK_NPY, &(sink_matrix_def){.key = "cosine", .rows = T, .cols = T,
                                                         .digits = EMIT_F64_DIGITS,
                                                         .data = k.cs});
    if (st == TF_OK)
        st = sink_table(s, C, &(sink_table_def){.cols = sim_cols, .ncols = 2, .rows = T,
                                            .row = sim_row, .ctx = &k});
    free(k.cs);
    return st;
}

static tf_status similarity_text(print_ctx *c, FILE *fp)
{
    tf_analysis *a = c->a;
    size_t T = a->tokens.n;
    double *cs = malloc(T * T * sizeof *cs);
    if (!cs)
        return TF_ERR_NOMEM;
    vectors_cosine_matrix(a->x_emb, T, a->cfg.d_model, cs);
    txt_gloss(fp, T_G_SIMILARITY);
    int w = token_col_width(a);
    tw_pad(fp, "", 0, w + 1);
    for (size_t t = 0; t < T; t++) {
        size_t l;
        const char *s = tok_text(a, t, &l);
        fputs("  ", fp);
        text_token(fp, s, l, 7);
    }
    fputc('\n', fp);
    for (size_t t = 0; t < T; t++) {
        size_t l;
        const char *s = tok_text(a, t, &l);
        text_token(fp, s, l, w);
        fputc(embedding_row_is_set(&a->emb, a->tokens.items[t].id) ? '*' : ' ', fp);
        for (size_t u = 0; u < T; u++)
            fprintf(fp, "  %+7.3f", cs[t * T + u]);
        fputc('\n', fp);
    }
    free(cs);
    return TF_OK;
}

const print_topic topic_similarity = {
    .name = "similarity", .formats = JC | SINK_NPY, .work = work_small,
    .build = similarity_build, .text = similarity_text,
};
