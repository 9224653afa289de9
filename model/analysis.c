/* analysis.c — the pipeline for one sentence: tokens, W_E rows, PE, X_input, and on request the
 * relative check, RoPE and the order experiment. */
#include "analysis.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tf_limits.h"
#include "posenc.h"
#include "rng.h"

void config_defaults(tf_config *c)
{
    memset(c, 0, sizeof *c);
    c->tokenizer = TOKENIZER_CHAR; /* needs no data file; the command line defaults to word */
    c->vocab_size = TF_DEFAULT_VOCAB;
    c->d_model = TF_DEFAULT_DMODEL;
    c->n_positions = TF_DEFAULT_POSITIONS;
    c->base = TF_DEFAULT_BASE;
    c->index_base = 0;
    c->seed = TF_DEFAULT_SEED;
    c->rope = ROPE_INTERLEAVED;
    c->offset = 1;
}

tf_status config_check(const tf_config *c)
{
    if (c->d_model < TF_MIN_DMODEL || c->d_model > TF_MAX_DMODEL || c->d_model % 2)
        return TF_ERR_DMODEL;
    if (c->n_positions < 1 || c->n_positions > TF_MAX_POSITIONS)
        return TF_ERR_POSITIONS;
    if (!isfinite(c->base) || !(c->base > 1.0))
        return TF_ERR_BASE;
    if (c->vocab_size < TF_MIN_VOCAB || c->vocab_size > TF_MAX_VOCAB)
        return TF_ERR_VOCAB;
    if (c->index_base != 0 && c->index_base != 1)
        return TF_ERR_RANGE;
    if (c->offset < 0 || c->offset >= c->n_positions)
        return TF_ERR_OFFSET;
    if ((unsigned)c->tokenizer >= TOKENIZER_COUNT || (unsigned)c->rope >= ROPE_STYLE_COUNT)
        return TF_ERR_RANGE;
    return TF_OK;
}

static char *copy_text(const char *s, size_t len)
{
    char *p = malloc(len + 1);
    if (p) {
        memcpy(p, s, len);
        p[len] = '\0';
    }
    return p;
}

static void set_diag(tf_diag *diag, int where, size_t offset)
{
    if (diag) {
        diag->where = where;
        diag->offset = offset;
    }
}

/* Trained/loaded vectors replace the random rows of the vocabulary entries they spell. */
static tf_status load_rows(tf_analysis *a, const tf_vectors *v)
{
    if (v->dim != a->cfg.d_model)
        return TF_ERR_DMODEL;
    int32_t *ids = malloc((v->n ? v->n : 1) * sizeof *ids);
    float *rows = malloc((v->n ? v->n : 1) * (size_t)v->dim * sizeof *rows);
    if (!ids || !rows) {
        free(ids), free(rows);
        return TF_ERR_NOMEM;
    }
    size_t m = 0, d = (size_t)v->dim;
    for (uint32_t i = 0; i < v->n; i++) {
        int32_t id = vocab_lookup(a->vocab, v->words[i], strlen(v->words[i]));
        if (id < VOCAB_N_SPECIAL)
            continue; /* absent, or a special token that no word file should redefine */
        ids[m] = id;
        memcpy(rows + m * d, v->data + (size_t)i * d, d * sizeof *rows);
        m++;
    }
    tf_status st = embedding_set_rows(&a->emb, ids, rows, m);
    free(ids);
    free(rows);
    return st;
}

tf_status analysis_vocab(const tf_config *c, tf_vocab **out)
{
    switch (c->tokenizer) {
    case TOKENIZER_CL100K:
    case TOKENIZER_O200K:
        return vocab_open_bpe(c->data_dir, tokenizer_name(c->tokenizer), out);
    case TOKENIZER_WORD: {
        tf_status st = vocab_open_dict(c->data_dir, c->vocab_size, out);
        if (st == TF_OK && c->no_hmm)
            vocab_drop_hmm(*out);
        return st;
    }
    default: {
        /* char mode: the dictionary's ids when it is installed, code points otherwise */
        tf_status st = vocab_open_dict(c->data_dir, c->vocab_size, out);
        if (st == TF_ERR_UNAVAILABLE || st == TF_ERR_FORMAT)
            st = vocab_new_codepoint(c->vocab_size, out);
        return st;
    }
    }
}

/* a's copies of the configuration, the text and the --compare text. */
static tf_status keep_inputs(tf_analysis *a, const tf_config *c, const char *text, size_t len,
                             tf_diag *diag)
{
    a->cfg = *c;
    a->cfg.compare = NULL; /* the caller's buffer is not kept; cmp_text holds a copy */
    a->cfg.vectors = NULL; /* copied into the embedding's set rows */
    if (len > TF_MAX_TEXT_BYTES) {
        set_diag(diag, DIAG_TEXT, 0);
        return TF_ERR_TOO_LONG;
    }
    a->text = copy_text(text, len);
    a->text_len = len;
    if (c->compare) {
        if (c->compare_len > TF_MAX_TEXT_BYTES) {
            free(a->text);
            a->text = NULL;
            set_diag(diag, DIAG_COMPARE, 0);
            return TF_ERR_TOO_LONG;
        }
        a->cmp_text = copy_text(c->compare, c->compare_len);
        a->cmp_len = c->compare_len;
    }
    if (!a->text || (c->compare && !a->cmp_text)) {
        analysis_free(a);
        return TF_ERR_NOMEM;
    }
    return TF_OK;
}

/* The (T, d) rows of the tokens: X_emb, PE(pos) (C7) and X_input = s * X_emb + PE (C11). */
static tf_status fill_rows(tf_analysis *a)
{
    const tf_config *c = &a->cfg;
    size_t T = a->tokens.n, d = (size_t)c->d_model;
    a->emb_scale = c->scale_embedding ? sqrt((double)d) : 1.0;
    a->pos = malloc(T * sizeof *a->pos);
    a->x_emb = malloc(T * d * sizeof *a->x_emb);
    a->pe = malloc(T * d * sizeof *a->pe);
    a->x_input = malloc(T * d * sizeof *a->x_input);
    a->omega = malloc(d / 2 * sizeof *a->omega);
    if (!a->pos || !a->x_emb || !a->pe || !a->x_input || !a->omega)
        return TF_ERR_NOMEM;
    posenc_freqs(c->d_model, c->base, a->omega);
    for (size_t t = 0; t < T; t++) {
        a->pos[t] = c->index_base + (long)t;
        embedding_row(&a->emb, a->tokens.items[t].id, a->x_emb + t * d);
        posenc_row((double)a->pos[t], c->d_model, c->base, a->pe + t * d);
        for (size_t j = 0; j < d; j++)
            a->x_input[t * d + j] = a->emb_scale * a->x_emb[t * d + j] + a->pe[t * d + j];
    }
    return TF_OK;
}

tf_status analysis_run(const tf_config *c, const char *text, size_t len, tf_analysis *a,
                       tf_diag *diag)
{
    memset(a, 0, sizeof *a);
    set_diag(diag, DIAG_NONE, 0);
    tf_status st = config_check(c);
    if (st != TF_OK) {
        set_diag(diag, DIAG_CONFIG, 0);
        return st;
    }
    if ((st = keep_inputs(a, c, text, len, diag)) != TF_OK)
        return st;

    /* 1. tokens and ids (C1) */
    size_t bad = 0;
    if ((st = analysis_vocab(c, &a->vocab)) != TF_OK) {
        set_diag(diag, DIAG_CONFIG, 0);
        analysis_free(a);
        return st;
    }
    st = tokenizer_split(a->vocab, c->tokenizer, a->text, len, &a->tokens, &bad);
    if (st != TF_OK) {
        set_diag(diag, DIAG_TEXT, bad);
        analysis_free(a);
        return st;
    }

    /* 2. rows of W_E (C3, C4) */
    if ((st = embedding_init(&a->emb, vocab_size(a->vocab), c->d_model, c->seed)) != TF_OK)
        goto fail_config;
    if (c->vectors && (st = load_rows(a, c->vectors)) != TF_OK) {
        if (st != TF_ERR_NOMEM)
            set_diag(diag, DIAG_CONFIG, 0);
        analysis_free(a);
        return st;
    }
    size_t T = a->tokens.n, d = (size_t)c->d_model;
    if ((double)T * (double)d > TF_MAX_TOKEN_VALUES) { /* before the (T, d) matrices exist */
        set_diag(diag, DIAG_TEXT, 0);
        analysis_free(a);
        return TF_ERR_TOO_BIG;
    }
    if ((st = fill_rows(a)) != TF_OK)
        analysis_free(a);
    return st;

fail_config:
    set_diag(diag, DIAG_CONFIG, 0);
    analysis_free(a);
    return st;
}

tf_attn_cfg analysis_attn_cfg(const tf_analysis *a)
{
    return attention_head_cfg(a->cfg.seed, a->cfg.d_model, a->cfg.base, a->cfg.rope,
                              a->cfg.index_base);
}

static tf_status need_rope(tf_analysis *a)
{
    size_t T = a->tokens.n, d = (size_t)a->cfg.d_model;
    tf_attn_cfg ac = analysis_attn_cfg(a);
    double *mem = malloc(5 * T * d * sizeof *mem);
    if (!mem)
        return TF_ERR_NOMEM;
    double *x = mem + 4 * T * d; /* scratch: the unscaled embedding rows in float64 */
    a->q = mem, a->k = mem + T * d, a->q_rot = mem + 2 * T * d, a->k_rot = mem + 3 * T * d;
    for (size_t i = 0; i < T * d; i++)
        x[i] = a->emb_scale * a->x_emb[i];
    tf_status st = attention_project(&ac, RNG_STREAM_WQ, x, T, a->q);
    if (st == TF_OK)
        st = attention_project(&ac, RNG_STREAM_WK, x, T, a->k);
    if (st != TF_OK) {
        free(mem);
        a->q = a->k = a->q_rot = a->k_rot = NULL;
        return st;
    }
    for (size_t t = 0; t < T; t++) {
        rope_rotate(a->q + t * d, ac.d, ac.base, (double)a->pos[t], ac.style, a->q_rot + t * d);
        rope_rotate(a->k + t * d, ac.d, ac.base, (double)a->pos[t], ac.style, a->k_rot + t * d);
    }
    a->rope_check_positions = a->cfg.n_positions < ROPE_CHECK_MAX_POSITIONS
                                  ? a->cfg.n_positions : ROPE_CHECK_MAX_POSITIONS;
    if (a->rope_check_positions < 2)
        a->rope_check_positions = 2;
    a->score_offset_max_dev = rope_offset_max_dev(a->q, a->k + (T - 1) * d, ac.d, ac.base,
                                                  ac.style, a->rope_check_positions);
    return TF_OK;
}

/* perm[t] = index in a of the t-th token of b, matching token texts one to one. */
static tf_status match_tokens(const char *ta, const tf_tokens *a, const char *tb,
                              const tf_tokens *b, size_t *perm)
{
    if (a->n != b->n)
        return TF_ERR_PERMUTATION;
    char *used = calloc(a->n, 1);
    if (!used)
        return TF_ERR_NOMEM;
    tf_status st = TF_OK;
    for (size_t t = 0; t < b->n && st == TF_OK; t++) {
        const tf_token *y = &b->items[t];
        size_t ly = y->end - y->start, u;
        for (u = 0; u < a->n; u++) {
            const tf_token *x = &a->items[u];
            if (!used[u] && x->end - x->start == ly &&
                memcmp(ta + x->start, tb + y->start, ly) == 0)
                break;
        }
        if (u == a->n)
            st = TF_ERR_PERMUTATION;
        else
            used[u] = 1, perm[t] = u;
    }
    free(used);
    return st;
}

/* Whether token u (u > 0) starts a unit of the reversed sentence: a new word, or, when the
 * sentence is one word, a token that starts a character (not a UTF-8 continuation byte). */
static int unit_starts(const tf_analysis *a, size_t u, int one_word)
{
    const tf_token *k = &a->tokens.items[u];
    if (one_word)
        return ((unsigned char)a->text[k->start] & 0xC0) != 0x80;
    return k->word != k[-1].word;
}

/* The first token of word w of the sentence (w = analysis_word_count: the number of tokens). */
static size_t word_start(const tf_analysis *a, size_t w, int one_word)
{
    size_t u = 0;
    for (size_t k = 0; k < w && u < a->tokens.n; k++)
        do
            u++;
        while (u < a->tokens.n && !unit_starts(a, u, one_word));
    return u;
}

static int is_one_word(const tf_analysis *a)
{
    size_t T = a->tokens.n;
    return T > 0 && a->tokens.items[0].word == a->tokens.items[T - 1].word;
}

size_t analysis_word_count(const tf_analysis *a)
{
    size_t n = a->tokens.n ? 1 : 0;
    int one_word = is_one_word(a);
    for (size_t u = 1; u < a->tokens.n; u++)
        n += unit_starts(a, u, one_word) ? 1 : 0;
    return n;
}

size_t analysis_words_spell(const tf_analysis *a, const size_t *order, size_t n, char *out,
                            size_t cap)
{
    int one_word = is_one_word(a);
    int sep = memchr(a->text, ' ', a->text_len) != NULL;
    size_t off = 0;
    if (!cap)
        return 0;
    for (size_t k = 0; k < n; k++) {
        size_t ws = word_start(a, order[k], one_word), we = word_start(a, order[k] + 1, one_word);
        if (ws >= we)
            continue;
        /* the text of the word: from its first token's start to its last token's end, its own
         * leading space dropped, one space put between words */
        size_t b = a->tokens.items[ws].start, e = a->tokens.items[we - 1].end;
        while (b < e && a->text[b] == ' ')
            b++;
        if (off && sep) {
            if (off + 1 >= cap)
                break;
            out[off++] = ' ';
        }
        size_t l = e - b < cap - 1 - off ? e - b : cap - 1 - off;
        while (l > 0 && l < e - b && ((unsigned char)a->text[b + l] & 0xC0) == 0x80)
            l--; /* never half a character */
        memcpy(out + off, a->text + b, l);
        off += l;
        if (l < e - b) /* out is full */
            break;
    }
    out[off] = '\0';
    return off;
}

/* The order experiment under each scheme of the configuration's list, through the same head
 * (positions.h: the learned table on PE's scale, RoPE with its scaling). */
static tf_status order_schemes(tf_analysis *a, const tf_attn_cfg *ac, const double *emb)
{
    const tf_positions *p = a->cfg.positions;
    tf_posctx pc;
    tf_status st = posctx_open(&pc, p, a->cfg.d_model, a->cfg.base, a->cfg.rope, a->cfg.seed,
                               NULL);
    if (st != TF_OK)
        return st;
    a->order_by_scheme = true;
    a->order_mask = pc.p.mask;
    for (size_t i = 0; i < p->n && st == TF_OK; i++) {
        attn_positions ap;
        posctx_attn(&pc, p->list[i], true, &ap);
        a->order_scheme[i] = p->list[i];
        st = attention_order_positions(ac, &ap, emb, a->perm, a->tokens.n, &a->order[i]);
        a->n_order = i + 1;
    }
    posctx_close(&pc);
    return st;
}

const char *analysis_order_name(const tf_analysis *a, size_t i)
{
    if (a->order_by_scheme)
        return scheme_name(a->order_scheme[i]);
    return attention_mode_name((attn_mode)i);
}

/* Sentence b by default: the words of the sentence reversed (a->perm, a->cmp_text and
 * a->cmp_tokens filled). */
static tf_status reversed_sentence(tf_analysis *a)
{
    size_t T = a->tokens.n;
    if (T == 0)
        return TF_ERR_EMPTY;
    /* default: the same words reversed. A word is the unit the tokens came from (its
     * `word` field): a segmented word with its fallback characters, a BPE pre-token piece
     * with its byte tokens, a character. Its tokens stay together in their order, so no
     * character is split and Python does not become nohtyP; the words are reversed, which
     * is still a permutation of the tokens. A sentence of one word (a single BPE piece, as
     * 我爱学习 is in cl100k) is reversed by whole characters instead: a token that starts
     * inside a character stays with the token before it. cmp_text spells the units out,
     * separated by spaces when the sentence separates its words with spaces. */
    int one_word = a->tokens.items[0].word == a->tokens.items[T - 1].word;
    size_t sep = memchr(a->text, ' ', a->text_len) ? 1 : 0, total = 0;
    for (size_t t = 0; t < T; t++)
        total += a->tokens.items[t].end - a->tokens.items[t].start + sep;
    a->cmp_text = malloc(total + 1);
    a->cmp_tokens.items = malloc(T * sizeof *a->cmp_tokens.items);
    if (!a->cmp_text || !a->cmp_tokens.items)
        return TF_ERR_NOMEM;
    a->cmp_tokens.n = T;
    a->cmp_tokens.kind = a->tokens.kind;
    size_t off = 0, t = 0;
    for (size_t we = T; we > 0;) { /* the word [ws, we) of the sentence's tokens */
        size_t ws = we - 1;
        while (ws > 0 && !unit_starts(a, ws, one_word))
            ws--;
        /* BPE pieces carry their own leading space: one space between words, never two */
        if (t && sep && a->text[a->tokens.items[ws].start] != ' ' &&
            a->cmp_text[off - 1] != ' ')
            a->cmp_text[off++] = ' ';
        for (size_t u = ws; u < we; u++, t++) {
            const tf_token *src = &a->tokens.items[u];
            size_t l = src->end - src->start;
            memcpy(a->cmp_text + off, a->text + src->start, l);
            a->cmp_tokens.items[t] = *src;
            a->cmp_tokens.items[t].start = (uint32_t)off;
            a->cmp_tokens.items[t].end = (uint32_t)(off + l);
            a->perm[t] = u;
            off += l;
        }
        we = ws;
    }
    a->cmp_text[off] = '\0';
    a->cmp_len = off;
    return TF_OK;
}

static tf_status need_order(tf_analysis *a, tf_diag *diag)
{
    size_t T = a->tokens.n, d = (size_t)a->cfg.d_model;
    tf_status st;
    /* an earlier call that failed (another --compare text, no memory) may have left a
     * permutation, tokens or results behind: start afresh instead of leaking them */
    free(a->perm);
    tokens_free(&a->cmp_tokens);
    for (int m = 0; m < SCHEME_COUNT; m++)
        attention_order_free(&a->order[m]);
    a->n_order = 0;
    a->order_by_scheme = false;
    a->order_head = (attn_head_choice){0};
    a->perm = malloc(T * sizeof *a->perm);
    if (!a->perm)
        return TF_ERR_NOMEM;
    if (a->cmp_text) {
        size_t bad = 0;
        st = tokenizer_split(a->vocab, a->cfg.tokenizer, a->cmp_text, a->cmp_len, &a->cmp_tokens,
                             &bad);
        if (st == TF_OK)
            st = match_tokens(a->text, &a->tokens, a->cmp_text, &a->cmp_tokens, a->perm);
        if (st != TF_OK) {
            set_diag(diag, DIAG_COMPARE, bad);
            return st;
        }
    } else if ((st = reversed_sentence(a)) != TF_OK) {
        return st;
    }
    /* the rows of W_E as they are: the head scales them by sqrt(d) whatever --scale-embedding
     * says, so the experiment is the same in every configuration */
    double *emb = malloc(T * d * sizeof *emb);
    if (!emb)
        return TF_ERR_NOMEM;
    for (size_t i = 0; i < T * d; i++)
        emb[i] = a->x_emb[i];
    tf_attn_cfg ac = analysis_attn_cfg(a);
    const tf_positions *p = a->cfg.positions;
    if (p && p->n > 0) {
        a->order_head.tried = 1; /* the schemes: head 0 */
        st = order_schemes(a, &ac, emb);
        if (st != TF_OK) /* the schemes' parameters, not the text */
            set_diag(diag, DIAG_POSITIONS, 0);
    } else {
        st = attention_order_choose(&ac, emb, a->perm, T, a->order, &a->order_head);
    }
    if (st == TF_OK && !a->order_by_scheme) {
        a->n_order = ATTN_MODE_COUNT;
        a->order_mask = SCHEME_MASK_SYMMETRIC;
    }
    free(emb);
    return st;
}

tf_status analysis_need(tf_analysis *a, unsigned what, tf_diag *diag)
{
    tf_status st = TF_OK;
    unsigned todo = what & ~a->done;
    const tf_config *c = &a->cfg;
    if (todo & ANALYSIS_RELATIVE) {
        long pos0 = c->index_base;
        a->max_residual =
            posenc_relative_residual(pos0, c->n_positions, c->d_model, c->base, c->offset);
        a->min_distance = posenc_min_distance(pos0, c->n_positions, c->d_model, c->base,
                                              &a->min_pair[0], &a->min_pair[1]);
        a->done |= ANALYSIS_RELATIVE;
    }
    if ((todo & ANALYSIS_ROPE) && (st = need_rope(a)) == TF_OK)
        a->done |= ANALYSIS_ROPE;
    if (st == TF_OK && (todo & ANALYSIS_ORDER)) {
        if ((st = need_order(a, diag)) == TF_OK)
            a->done |= ANALYSIS_ORDER;
    }
    return st;
}

tf_status analysis_onehot_check(const tf_analysis *a, double *max_abs_diff)
{
    size_t T = a->tokens.n, d = (size_t)a->cfg.d_model;
    float *out = malloc(T * d * sizeof *out);
    int32_t *ids = calloc(T ? T : 1, sizeof *ids);
    if (!out || !ids) {
        free(out);
        free(ids);
        return TF_ERR_NOMEM;
    }
    for (size_t t = 0; t < T; t++)
        ids[t] = a->tokens.items[t].id;
    tf_status st = embedding_onehot_product(&a->emb, ids, T, out);
    double m = 0.0;
    for (size_t i = 0; st == TF_OK && i < T * d; i++)
        m = fmax(m, fabs((double)out[i] - (double)a->x_emb[i]));
    *max_abs_diff = m;
    free(out);
    free(ids);
    return st;
}

void analysis_take_parts(tf_analysis *dst, tf_analysis *src, unsigned what)
{
    what &= src->done;
    if (what & ANALYSIS_RELATIVE) {
        dst->max_residual = src->max_residual;
        dst->min_distance = src->min_distance;
        dst->min_pair[0] = src->min_pair[0], dst->min_pair[1] = src->min_pair[1];
    }
    if (what & ANALYSIS_ROPE) {
        free(dst->q); /* q, k, q_rot, k_rot share one allocation */
        dst->q = src->q, dst->k = src->k, dst->q_rot = src->q_rot, dst->k_rot = src->k_rot;
        src->q = src->k = src->q_rot = src->k_rot = NULL;
        dst->score_offset_max_dev = src->score_offset_max_dev;
        dst->rope_check_positions = src->rope_check_positions;
    }
    if (what & ANALYSIS_ORDER) {
        free(dst->cmp_text);
        tokens_free(&dst->cmp_tokens);
        free(dst->perm);
        for (int m = 0; m < SCHEME_COUNT; m++)
            attention_order_free(&dst->order[m]);
        dst->cmp_text = src->cmp_text, dst->cmp_len = src->cmp_len;
        dst->cmp_tokens = src->cmp_tokens, dst->perm = src->perm;
        dst->n_order = src->n_order, dst->order_by_scheme = src->order_by_scheme;
        memcpy(dst->order_scheme, src->order_scheme, sizeof dst->order_scheme);
        dst->order_mask = src->order_mask;
        dst->order_head = src->order_head; /* which of the layer's heads the numbers are */
        memcpy(dst->order, src->order, sizeof dst->order);
        src->cmp_text = NULL, src->cmp_len = 0, src->perm = NULL, src->n_order = 0;
        memset(&src->cmp_tokens, 0, sizeof src->cmp_tokens);
        memset(src->order, 0, sizeof src->order);
    }
    dst->done |= what;
    src->done &= ~what;
}

void analysis_free(tf_analysis *a)
{
    free(a->text);
    free(a->cmp_text);
    embedding_free(&a->emb);
    vocab_free(a->vocab);
    tokens_free(&a->tokens);
    tokens_free(&a->cmp_tokens);
    free(a->pos);
    free(a->x_emb);
    free(a->pe);
    free(a->x_input);
    free(a->omega);
    free(a->q); /* q, k, q_rot, k_rot share one allocation */
    free(a->perm);
    for (int m = 0; m < SCHEME_COUNT; m++)
        attention_order_free(&a->order[m]);
    memset(a, 0, sizeof *a);
}
