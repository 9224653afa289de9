/* print.c — the stable --print interface. Users and tests script against these formats. */
#include "print.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "emit.h"
#include "tf_limits.h"
#include "posenc.h"
#include "progress.h"
#include "rope.h"
#include "textwidth.h"
#include "utf8.h"

typedef tf_status (*print_fn)(tf_analysis *a, out_format f, FILE *fp);

/* ---------------------------------------------------------------------------------------------
 * Helpers */

static const char *tok_text(const tf_analysis *a, size_t t, size_t *len)
{
    const tf_token *k = &a->tokens.items[t];
    *len = k->end - k->start;
    return a->text + k->start;
}

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
 * (view_embed.c) and the text report. */
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

static double norm_d(const double *v, size_t n)
{
    double s = 0.0;
    for (size_t i = 0; i < n; i++)
        s += v[i] * v[i];
    return sqrt(s);
}

static double norm_f(const float *v, size_t n, double scale)
{
    double s = 0.0;
    for (size_t i = 0; i < n; i++)
        s += (scale * v[i]) * (scale * v[i]);
    return sqrt(s);
}

/* Columns shown by the text tables of wide rows: the first few, a gap, the last two. */
#define TEXT_HEAD_COLS 6
#define TEXT_TAIL_COLS 2

static int text_col_shown(int j, int d)
{
    return d <= TEXT_HEAD_COLS + TEXT_TAIL_COLS || j < TEXT_HEAD_COLS ||
           j >= d - TEXT_TAIL_COLS;
}

/* "  v0  v1 ... v5  …  vd-2 vd-1" with a fixed width per value. */
static void text_row_d(FILE *fp, const double *v, int d)
{
    for (int j = 0; j < d; j++) {
        if (text_col_shown(j, d))
            fprintf(fp, " %10.6f", v[j]);
        else if (j == TEXT_HEAD_COLS)
            fputs("        ...", fp);
    }
    fputc('\n', fp);
}

static void text_col_header(FILE *fp, int d)
{
    for (int j = 0; j < d; j++) {
        if (text_col_shown(j, d))
            fprintf(fp, " %10d", j);
        else if (j == TEXT_HEAD_COLS)
            fputs("        ...", fp);
    }
    fputc('\n', fp);
}

static void text_cols_note(FILE *fp, int d)
{
    if (d > TEXT_HEAD_COLS + TEXT_TAIL_COLS)
        fprintf(fp, "(%d of %d dimensions shown; --format csv, json or npy gives them all)\n",
                TEXT_HEAD_COLS + TEXT_TAIL_COLS, d);
}

static int token_col_width(const tf_analysis *a)
{
    int w = 5;
    for (size_t t = 0; t < a->tokens.n; t++) {
        size_t l, blen = 0;
        const char *s = tok_text(a, t, &l);
        char *buf = NULL;
        FILE *m = open_memstream(&buf, &blen);
        if (!m)
            continue;
        emit_safe_text(m, s, l); /* measured as shown: bytes of partial tokens as \xHH */
        fclose(m);
        int tw = tw_width(buf, blen);
        free(buf);
        w = tw > w ? tw : w;
    }
    return w > 24 ? 24 : w;
}

static void text_token(FILE *fp, const char *s, size_t len, int width)
{
    /* escaped for the terminal, padded by display width */
    char *buf = NULL;
    size_t blen = 0;
    FILE *m = open_memstream(&buf, &blen);
    if (m) {
        emit_safe_text(m, s, len);
        fclose(m);
        tw_pad(fp, buf, blen, width);
        free(buf);
    }
}

/* ---------------------------------------------------------------------------------------------
 * tokens (C1) */

/* A token's text for CSV and JSON: the characters, or, for bytes that are not whole UTF-8
 * characters (byte-level BPE), the bytes written \xHH — never a replacement character. */
static void token_text_field(FILE *fp, const tf_token *k, const char *s, size_t l, int json)
{
    if (!(k->flags & TOKEN_PARTIAL)) {
        if (json)
            emit_json_str(fp, s, l);
        else
            emit_csv_str(fp, s, l);
        return;
    }
    if (json)
        fputc('"', fp);
    for (size_t i = 0; i < l; i++)
        fprintf(fp, json ? "\\\\x%02X" : "\\x%02X", (unsigned char)s[i]);
    if (json)
        fputc('"', fp);
}

static void token_rank_freq(const tf_analysis *a, const tf_token *k, int64_t *rank,
                            uint64_t *freq)
{
    *rank = k->flags & TOKEN_UNK ? -1 : vocab_rank(a->vocab, k->id);
    *freq = k->flags & TOKEN_UNK ? 0 : vocab_frequency(a->vocab, k->id);
}

static tf_status print_tokens(tf_analysis *a, out_format f, FILE *fp)
{
    size_t T = a->tokens.n;
    int64_t rank;
    uint64_t freq;
    switch (f) {
    case FMT_JSON:
        fputs("{\"text\": ", fp);
        emit_json_str(fp, a->text, a->text_len);
        fprintf(fp, ", \"tokenizer\": \"%s\", \"vocab\": \"%s\", \"vocab_size\": %u, \"tokens\": [",
                tokenizer_name(a->tokens.kind), vocab_name(a->vocab), vocab_size(a->vocab));
        for (size_t t = 0; t < T; t++) {
            const tf_token *k = &a->tokens.items[t];
            size_t l;
            const char *s = tok_text(a, t, &l);
            token_rank_freq(a, k, &rank, &freq);
            fputs(t ? ", {\"text\": " : "{\"text\": ", fp);
            token_text_field(fp, k, s, l, 1);
            fprintf(fp, ", \"id\": %d, \"start\": %u, \"end\": %u, \"pos\": %ld, \"status\": \"%s\"",
                    k->id, k->start, k->end, a->pos[t], tok_status(k));
            fputs(", \"rank\": ", fp);
            if (rank < 0)
                fputs("null", fp);
            else
                fprintf(fp, "%lld", (long long)rank);
            fprintf(fp, ", \"frequency\": %llu, \"in_vocab\": %s, \"word\": %u",
                    (unsigned long long)freq,
                    k->flags & (TOKEN_IN_VOCAB | TOKEN_SPLIT) ? "true" : "false", k->word);
            if (k->flags & TOKEN_PARTIAL) {
                fputs(", \"partial\": true, \"bytes\": [", fp);
                for (size_t i = 0; i < l; i++)
                    fprintf(fp, i ? ", %u" : "%u", (unsigned char)s[i]);
                fputc(']', fp);
            }
            fputc('}', fp);
        }
        fputs("]}\n", fp);
        break;
    case FMT_CSV:
        fputs("index,text,id,start,end,pos,status,rank,frequency,in_vocab,word,bytes\n", fp);
        for (size_t t = 0; t < T; t++) {
            const tf_token *k = &a->tokens.items[t];
            size_t l;
            const char *s = tok_text(a, t, &l);
            token_rank_freq(a, k, &rank, &freq);
            fprintf(fp, "%zu,", t);
            token_text_field(fp, k, s, l, 0);
            fprintf(fp, ",%d,%u,%u,%ld,%s,", k->id, k->start, k->end, a->pos[t], tok_status(k));
            if (rank >= 0)
                fprintf(fp, "%lld", (long long)rank);
            fprintf(fp, ",%llu,%d,%u,", (unsigned long long)freq,
                    k->flags & (TOKEN_IN_VOCAB | TOKEN_SPLIT) ? 1 : 0, k->word);
            for (size_t i = 0; i < l && (k->flags & TOKEN_PARTIAL); i++)
                fprintf(fp, i ? " %02x" : "%02x", (unsigned char)s[i]);
            fputc('\n', fp);
        }
        break;
    default: {
        int w = token_col_width(a);
        int bpe = a->tokens.kind == TOKENIZER_CL100K || a->tokens.kind == TOKENIZER_O200K;
        fprintf(fp, "tokenizer %s, vocabulary %s, V = %u\n", tokenizer_name(a->tokens.kind),
                vocab_name(a->vocab), vocab_size(a->vocab));
        fputs("  pos    ", fp);
        tw_pad(fp, "token", 5, w);
        fprintf(fp, "        id  %s  frequency   bytes  status\n", bpe ? "    rank" : "freq.rank");
        size_t n_fallback = 0, n_unk = 0, n_partial = 0, n_split = 0, n_latin = 0;
        for (size_t t = 0; t < T; t++) {
            const tf_token *k = &a->tokens.items[t];
            size_t l;
            const char *s = tok_text(a, t, &l);
            token_rank_freq(a, k, &rank, &freq);
            fprintf(fp, "%5ld  %c ", a->pos[t], tok_mark(k));
            text_token(fp, s, l, w);
            fprintf(fp, "  %8d  ", k->id);
            if (rank >= 0)
                fprintf(fp, "%9lld", (long long)rank);
            else
                fputs("        -", fp);
            if (freq)
                fprintf(fp, "  %9llu", (unsigned long long)freq);
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
            n_latin += (k->flags & TOKEN_FALLBACK) && l == 1 &&
                       ((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z'));
        }
        if (n_split)
            fprintf(fp, "~ split: %zu token(s) are vocabulary words inside a word that is not in "
                        "the V = %u vocabulary / 词表外的词拆成了词表内的词\n",
                    n_split, vocab_size(a->vocab));
        if (n_fallback)
            fprintf(fp, "* fallback: %zu token(s) are characters that no vocabulary word covers "
                        "/ 词表内没有词覆盖的字，退回单字\n", n_fallback);
        if (n_latin && a->tokens.kind == TOKENIZER_WORD && vocab_english_words(a->vocab) == 0)
            fputs("This build has no English word list, so English words fall back to letters; "
                  "scripts/bootstrap.sh fetches it / 没有英文词表，英文单词拆成了字母\n", fp);
        if (n_unk)
            fprintf(fp, "unk: %zu token(s) are not in the vocabulary and became [UNK] "
                        "(id %d) / 词表外的字记为 [UNK]\n", n_unk, VOCAB_UNK);
        if (n_partial)
            fprintf(fp, "partial: %zu token(s) hold part of a UTF-8 character, shown as bytes "
                        "/ 字节级 BPE 把一个汉字拆成了几个字节\n", n_partial);
    }
    }
    return TF_OK;
}

/* Where the W_E row of token t comes from. */
static const char *row_source(const tf_analysis *a, size_t t)
{
    return embedding_row_is_set(&a->emb, a->tokens.items[t].id) ? "loaded" : "random";
}

/* ---------------------------------------------------------------------------------------------
 * vocab: the whole vocabulary, id order (id = 4 + frequency rank for the dictionary's words,
 * then the base alphabet, frequency 0 where a character is no dictionary word; vocab.h) */

static tf_status print_vocab(tf_analysis *a, out_format f, FILE *fp)
{
    const tf_vocab *v = a->vocab;
    uint32_t V = vocab_size(v);
    char buf[512];
    if (f == FMT_JSON)
        fprintf(fp, "{\"vocab\": \"%s\", \"vocab_size\": %u, \"tokens\": [", vocab_name(v), V);
    else if (f == FMT_CSV)
        fputs("id,token,frequency\n", fp);
    else
        fprintf(fp, "vocabulary %s, V = %u (id, token, frequency)\n", vocab_name(v), V);
    int first = 1;
    for (uint32_t id = 0; id < V && !ferror(fp); id++) {
        size_t n = vocab_token(v, (int32_t)id, buf, sizeof buf);
        if (n == 0)
            continue; /* an unused id: V is larger than the word list, or a BPE special id */
        tf_token k = {.id = (int32_t)id};
        if (utf8_validate(buf, n, NULL) != TF_OK)
            k.flags = TOKEN_PARTIAL;
        uint64_t freq = vocab_frequency(v, (int32_t)id);
        if (f == FMT_JSON) {
            fprintf(fp, "%s{\"id\": %u, \"token\": ", first ? "" : ", ", id);
            token_text_field(fp, &k, buf, n, 1);
            fprintf(fp, ", \"frequency\": %llu}", (unsigned long long)freq);
        } else if (f == FMT_CSV) {
            fprintf(fp, "%u,", id);
            token_text_field(fp, &k, buf, n, 0);
            fprintf(fp, ",%llu\n", (unsigned long long)freq);
        } else {
            fprintf(fp, "%8u  ", id);
            emit_safe_text(fp, buf, n);
            fprintf(fp, "  %llu\n", (unsigned long long)freq);
        }
        first = 0;
    }
    if (f == FMT_JSON)
        fputs("]}\n", fp);
    return ferror(fp) ? TF_ERR_IO : TF_OK;
}

/* ---------------------------------------------------------------------------------------------
 * embedding (C2-C4) */

static tf_status print_embedding(tf_analysis *a, out_format f, FILE *fp)
{
    size_t T = a->tokens.n, d = (size_t)a->cfg.d_model;
    if (f == FMT_NPY) {
        emit_npy_header(fp, "<f4", T, d);
        fwrite(a->x_emb, sizeof(float), T * d, fp);
        return TF_OK;
    }
    if (f == FMT_CSV) {
        fputs("token,id", fp);
        for (size_t j = 0; j < d; j++)
            fprintf(fp, ",%zu", j);
        fputc('\n', fp);
        for (size_t t = 0; t < T; t++) {
            size_t l;
            const char *s = tok_text(a, t, &l);
            token_text_field(fp, &a->tokens.items[t], s, l, 0);
            fprintf(fp, ",%d", a->tokens.items[t].id);
            emit_csv_fvalues(fp, a->x_emb + t * d, d);
            fputc('\n', fp);
        }
        return TF_OK;
    }
    double diff;
    tf_status st = analysis_onehot_check(a, &diff);
    if (st != TF_OK)
        return st;
    double params = embedding_params(&a->emb);
    if (f == FMT_JSON) {
        fprintf(fp, "{\"vocab_size\": %u, \"d_model\": %zu, \"seed\": %llu, ", a->emb.vocab_size,
                d, (unsigned long long)a->emb.seed);
        fputs("\"init\": \"uniform(-sqrt(3/d), sqrt(3/d))\", \"init_scale\": ", fp);
        emit_json_num(fp, a->emb.init_scale, EMIT_F32_DIGITS);
        fprintf(fp, ", \"parameters\": %.0f, \"bytes_fp32\": %.0f, \"bytes_bf16\": %.0f, \"tokens\": [",
                params, params * 4, params * 2);
        for (size_t t = 0; t < T; t++) {
            size_t l;
            const char *s = tok_text(a, t, &l);
            fputs(t ? ", {\"text\": " : "{\"text\": ", fp);
            token_text_field(fp, &a->tokens.items[t], s, l, 1);
            fprintf(fp, ", \"id\": %d, \"row_source\": \"%s\", \"row\": ",
                    a->tokens.items[t].id, row_source(a, t));
            emit_json_farray(fp, a->x_emb + t * d, d);
            fputc('}', fp);
        }
        fputs("], \"onehot_max_abs_diff\": ", fp);
        emit_json_num(fp, diff, EMIT_F64_DIGITS);
        fputs("}\n", fp);
        return TF_OK;
    }
    fprintf(fp, "W_E: V x d_model = %u x %zu = %.1f M parameters (fp32 %.1f MB, bf16 %.1f MB)\n",
            a->emb.vocab_size, d, params / 1e6, params * 4 / 1e6, params * 2 / 1e6);
    size_t n_set = 0;
    for (size_t t = 0; t < T; t++)
        n_set += embedding_row_is_set(&a->emb, a->tokens.items[t].id);
    if (a->emb.n_set)
        fprintf(fp, "%zu rows of W_E are trained/loaded vectors (%zu of this sentence's %zu "
                "tokens, marked *; 已训练/载入); the others are random (seed %llu, uniform "
                "+-%.6f).\n",
                a->emb.n_set, n_set, T, (unsigned long long)a->emb.seed, a->emb.init_scale);
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
                a->tokens.items[t].id, norm_f(a->x_emb + t * d, d, 1.0));
        for (size_t j = 0; j < d; j++)
            full[j] = a->x_emb[t * d + j];
        text_row_d(fp, full, (int)d);
    }
    free(full);
    text_cols_note(fp, (int)d);
    return TF_OK;
}

/* ---------------------------------------------------------------------------------------------
 * pe (C7): streamed row by row, so -n 1000000 needs no more memory than -n 1 */

#define PE_TILE 256

static tf_status print_pe(tf_analysis *a, out_format f, FILE *fp)
{
    const tf_config *c = &a->cfg;
    size_t d = (size_t)c->d_model;
    long n = c->n_positions, pos0 = c->index_base;
    if (f == FMT_NPY) {
        float *tile = malloc(PE_TILE * d * sizeof *tile);
        if (!tile)
            return TF_ERR_NOMEM;
        emit_npy_header(fp, "<f4", (size_t)n, d);
        tf_progress bar;
        progress_start(&bar, "PE", (uint64_t)n * d * sizeof *tile);
        for (long r = 0; r < n && !ferror(fp); r += PE_TILE) {
            long m = n - r < PE_TILE ? n - r : PE_TILE;
            posenc_fill_f32(pos0 + r, m, (int)d, c->base, tile);
            fwrite(tile, sizeof *tile, (size_t)m * d, fp);
            progress_update(&bar, (uint64_t)(r + m) * d * sizeof *tile);
        }
        progress_end(&bar);
        free(tile);
        return ferror(fp) ? TF_ERR_IO : TF_OK;
    }
    double *row = malloc(d * sizeof *row);
    if (!row)
        return TF_ERR_NOMEM;
    if (f == FMT_CSV) {
        fputs("pos", fp);
        for (size_t j = 0; j < d; j++)
            fprintf(fp, ",%zu", j);
        fputc('\n', fp);
    } else if (f == FMT_JSON) {
        fprintf(fp, "{\"d_model\": %zu, \"base\": ", d);
        emit_json_num(fp, c->base, EMIT_F64_DIGITS);
        fprintf(fp, ", \"index_base\": %d, \"positions\": %ld, \"pe\": [", c->index_base, n);
    } else {
        fprintf(fp, "PE(pos, 2i) = sin(pos / %g^(2i/%zu)), PE(pos, 2i+1) = cos(...); "
                    "positions from %ld\n    pos", c->base, d, pos0);
        text_col_header(fp, (int)d);
    }
    for (long r = 0; r < n && !ferror(fp); r++) {
        long pos = pos0 + r;
        posenc_row_omega((double)pos, (int)d, a->omega, row);
        if (f == FMT_CSV) {
            fprintf(fp, "%ld", pos);
            emit_csv_dvalues(fp, row, d, EMIT_F64_DIGITS);
            fputc('\n', fp);
        } else if (f == FMT_JSON) {
            if (r)
                fputs(", ", fp);
            emit_json_darray(fp, row, d, EMIT_F64_DIGITS);
        } else {
            fprintf(fp, "%7ld", pos);
            text_row_d(fp, row, (int)d);
        }
    }
    if (f == FMT_JSON)
        fputs("]}\n", fp);
    else if (f == FMT_TEXT)
        text_cols_note(fp, (int)d);
    free(row);
    return ferror(fp) ? TF_ERR_IO : TF_OK;
}

/* ---------------------------------------------------------------------------------------------
 * freq (C8) */

static tf_status print_freq(tf_analysis *a, out_format f, FILE *fp)
{
    int h = a->cfg.d_model / 2;
    const double two_pi = 2.0 * M_PI;
    switch (f) {
    case FMT_NPY:
        emit_npy_header(fp, "<f8", (size_t)h, 2);
        for (int i = 0; i < h; i++) {
            double v[2] = {a->omega[i], two_pi / a->omega[i]};
            fwrite(v, sizeof v[0], 2, fp);
        }
        break;
    case FMT_CSV:
        fputs("i,omega,wavelength\n", fp);
        for (int i = 0; i < h; i++) {
            fprintf(fp, "%d,", i);
            emit_json_num(fp, a->omega[i], EMIT_F64_DIGITS);
            fputc(',', fp);
            emit_json_num(fp, two_pi / a->omega[i], EMIT_F64_DIGITS);
            fputc('\n', fp);
        }
        break;
    case FMT_JSON:
        fprintf(fp, "{\"d_model\": %d, \"base\": ", a->cfg.d_model);
        emit_json_num(fp, a->cfg.base, EMIT_F64_DIGITS);
        fputs(", \"omega\": ", fp);
        emit_json_darray(fp, a->omega, (size_t)h, EMIT_F64_DIGITS);
        fputs(", \"wavelength\": [", fp);
        for (int i = 0; i < h; i++) {
            if (i)
                fputs(", ", fp);
            emit_json_num(fp, two_pi / a->omega[i], EMIT_F64_DIGITS);
        }
        fputs("]}\n", fp);
        break;
    default:
        fprintf(fp, "w_i = %g^(-2i/%d): each pair of dimensions turns %g times slower than the "
                    "one before\n", a->cfg.base, a->cfg.d_model, pow(a->cfg.base, 2.0 / a->cfg.d_model));
        fputs("     i   dims          omega      wavelength (positions)\n", fp);
        for (int i = 0; i < h; i++)
            fprintf(fp, "%6d  %5d,%-5d  %13.6e  %14.4f\n", i, 2 * i, 2 * i + 1, a->omega[i],
                    two_pi / a->omega[i]);
    }
    return TF_OK;
}

/* ---------------------------------------------------------------------------------------------
 * input (C11) */

static tf_status print_input(tf_analysis *a, out_format f, FILE *fp)
{
    size_t T = a->tokens.n, d = (size_t)a->cfg.d_model;
    double *emb = malloc(d * sizeof *emb);
    if (!emb)
        return TF_ERR_NOMEM;
    if (f == FMT_NPY) {
        emit_npy_header(fp, "<f8", T, d);
        fwrite(a->x_input, sizeof(double), T * d, fp);
    } else if (f == FMT_JSON) {
        fprintf(fp, "{\"d_model\": %zu, \"scale_embedding\": %s, \"embedding_scale\": ", d,
                a->cfg.scale_embedding ? "true" : "false");
        emit_json_num(fp, a->emb_scale, EMIT_F64_DIGITS);
        fputs(", \"tokens\": [", fp);
    } else if (f == FMT_CSV) {
        fputs("token,pos,part", fp);
        for (size_t j = 0; j < d; j++)
            fprintf(fp, ",%zu", j);
        fputc('\n', fp);
    } else {
        fprintf(fp, "X_input(pos) = %s X_emb(token) + PE(pos)%s\n",
                a->cfg.scale_embedding ? "sqrt(d_model) *" : "",
                a->cfg.scale_embedding ? "" : "   (--scale-embedding multiplies X_emb by sqrt(d_model))");
    }
    int w = token_col_width(a);
    for (size_t t = 0; t < T && f != FMT_NPY; t++) {
        size_t l;
        const char *s = tok_text(a, t, &l);
        for (size_t j = 0; j < d; j++)
            emb[j] = a->emb_scale * a->x_emb[t * d + j];
        const double *pe = a->pe + t * d, *x = a->x_input + t * d;
        if (f == FMT_JSON) {
            fputs(t ? ", {\"text\": " : "{\"text\": ", fp);
            token_text_field(fp, &a->tokens.items[t], s, l, 1);
            fprintf(fp, ", \"id\": %d, \"pos\": %ld, \"embedding\": ", a->tokens.items[t].id,
                    a->pos[t]);
            emit_json_darray(fp, emb, d, EMIT_F64_DIGITS);
            fputs(", \"pe\": ", fp);
            emit_json_darray(fp, pe, d, EMIT_F64_DIGITS);
            fputs(", \"input\": ", fp);
            emit_json_darray(fp, x, d, EMIT_F64_DIGITS);
            fputs(", \"norms\": {\"embedding\": ", fp);
            emit_json_num(fp, norm_d(emb, d), EMIT_F64_DIGITS);
            fputs(", \"pe\": ", fp);
            emit_json_num(fp, norm_d(pe, d), EMIT_F64_DIGITS);
            fputs(", \"input\": ", fp);
            emit_json_num(fp, norm_d(x, d), EMIT_F64_DIGITS);
            fputs("}}", fp);
        } else if (f == FMT_CSV) {
            static const char *const part[3] = {"embedding", "pe", "input"};
            const double *rows[3] = {emb, pe, x};
            for (int p = 0; p < 3; p++) {
                token_text_field(fp, &a->tokens.items[t], s, l, 0);
                fprintf(fp, ",%ld,%s", a->pos[t], part[p]);
                emit_csv_dvalues(fp, rows[p], d, EMIT_F64_DIGITS);
                fputc('\n', fp);
            }
        } else {
            fputs("\n", fp);
            text_token(fp, s, l, w);
            fprintf(fp, "  pos %ld   |emb| = %.4f   |PE| = %.4f   |X_input| = %.4f\n", a->pos[t],
                    norm_d(emb, d), norm_d(pe, d), norm_d(x, d));
            fputs("            dim", fp);
            text_col_header(fp, (int)d);
            fputs("      embedding", fp);
            text_row_d(fp, emb, (int)d);
            fputs("     + PE(pos) ", fp);
            text_row_d(fp, pe, (int)d);
            fputs("     = X_input ", fp);
            text_row_d(fp, x, (int)d);
        }
    }
    if (f == FMT_JSON)
        fputs("]}\n", fp);
    else if (f == FMT_TEXT)
        text_cols_note(fp, (int)d);
    free(emb);
    return TF_OK;
}

/* ---------------------------------------------------------------------------------------------
 * relative (C9, C10) */

static tf_status print_relative(tf_analysis *a, out_format f, FILE *fp)
{
    const tf_config *c = &a->cfg;
    if (f == FMT_JSON) {
        fprintf(fp, "{\"offset\": %ld, \"positions\": %ld, \"index_base\": %d, \"d_model\": %d, "
                    "\"base\": ", c->offset, c->n_positions, c->index_base, c->d_model);
        emit_json_num(fp, c->base, EMIT_F64_DIGITS);
        fputs(", \"max_residual\": ", fp);
        emit_json_num(fp, a->max_residual, EMIT_F64_DIGITS);
        fputs(", \"min_distance\": ", fp);
        emit_json_num(fp, a->min_distance, EMIT_F64_DIGITS);
        if (c->n_positions >= 2)
            fprintf(fp, ", \"min_distance_pair\": [%ld, %ld]}\n", a->min_pair[0], a->min_pair[1]);
        else
            fputs(", \"min_distance_pair\": null}\n", fp);
    } else if (f == FMT_CSV) {
        fprintf(fp, "key,value\noffset,%ld\npositions,%ld\nd_model,%d\nmax_residual,", c->offset,
                c->n_positions, c->d_model);
        emit_json_num(fp, a->max_residual, EMIT_F64_DIGITS);
        fputs("\nmin_distance,", fp);
        emit_json_num(fp, a->min_distance, EMIT_F64_DIGITS);
        fprintf(fp, "\nmin_distance_p,%ld\nmin_distance_q,%ld\n", a->min_pair[0], a->min_pair[1]);
    } else {
        fprintf(fp, "Relative position (C10): PE(pos+%ld) = M_%ld . PE(pos), M_k rotating each "
                    "(sin, cos) pair by k*w_i\n", c->offset, c->offset);
        fprintf(fp, "  max |PE(pos+k) - M_k PE(pos)| over positions %ld..%ld: %.3e\n",
                (long)c->index_base, c->index_base + c->n_positions - 1, a->max_residual);
        if (c->n_positions < 2)
            fputs("Uniqueness (C9): one position has no other to share its vector with; use "
                  "-n 2 or more\n", fp);
        else
            fprintf(fp, "Uniqueness (C9): the closest two of the %ld positions are %ld and %ld, "
                        "at distance %.6f (> 0: no two positions share a vector)\n",
                    c->n_positions, a->min_pair[0], a->min_pair[1], a->min_distance);
    }
    return TF_OK;
}

/* ---------------------------------------------------------------------------------------------
 * rope (C13) */

static tf_status print_rope(tf_analysis *a, out_format f, FILE *fp)
{
    const tf_config *c = &a->cfg;
    size_t T = a->tokens.n, d = (size_t)c->d_model, h = d / 2;
    double *theta = malloc(h * sizeof *theta);
    if (!theta)
        return TF_ERR_NOMEM;
    rope_thetas(c->d_model, c->base, theta);
    if (f == FMT_JSON) {
        fprintf(fp, "{\"style\": \"%s\", \"base\": ", rope_style_name(c->rope));
        emit_json_num(fp, c->base, EMIT_F64_DIGITS);
        fprintf(fp, ", \"d_model\": %zu, \"theta\": ", d);
        emit_json_darray(fp, theta, h, EMIT_F64_DIGITS);
        fputs(", \"tokens\": [", fp);
        for (size_t t = 0; t < T; t++) {
            size_t l;
            const char *s = tok_text(a, t, &l);
            const double *vec[4] = {a->q + t * d, a->q_rot + t * d, a->k + t * d, a->k_rot + t * d};
            static const char *const key[4] = {"q", "q_rot", "k", "k_rot"};
            fputs(t ? ", {\"text\": " : "{\"text\": ", fp);
            token_text_field(fp, &a->tokens.items[t], s, l, 1);
            fprintf(fp, ", \"pos\": %ld", a->pos[t]);
            for (int v = 0; v < 4; v++) {
                fprintf(fp, ", \"%s\": ", key[v]);
                emit_json_darray(fp, vec[v], d, EMIT_F64_DIGITS);
            }
            fputc('}', fp);
        }
        fputs("], \"score_offset_max_dev\": ", fp);
        emit_json_num(fp, a->score_offset_max_dev, EMIT_F64_DIGITS);
        fprintf(fp, ", \"score_check_positions\": %ld}\n", a->rope_check_positions);
    } else if (f == FMT_CSV) {
        fputs("i,theta,dim_a,dim_b,wavelength\n", fp);
        for (size_t i = 0; i < h; i++) {
            int da, db;
            rope_pair(c->rope, c->d_model, (int)i, &da, &db);
            fprintf(fp, "%zu,", i);
            emit_json_num(fp, theta[i], EMIT_F64_DIGITS);
            fprintf(fp, ",%d,%d,", da, db);
            emit_json_num(fp, 2.0 * M_PI / theta[i], EMIT_F64_DIGITS);
            fputc('\n', fp);
        }
    } else {
        fprintf(fp, "RoPE, %s pairing, base %g: q and k of the token at position m are rotated, "
                    "pair i by m * theta_i, theta_i = base^(-2i/d)\n", rope_style_name(c->rope), c->base);
        int da, db;
        rope_pair(c->rope, c->d_model, 1, &da, &db);
        fprintf(fp, "  pair 0 = dims (0, %d), pair 1 = dims (%d, %d)\n",
                c->rope == ROPE_HALF ? c->d_model / 2 : 1, da, db);
        int w = token_col_width(a);
        for (size_t t = 0; t < T; t++) {
            size_t l;
            const char *s = tok_text(a, t, &l);
            fputs("  ", fp);
            text_token(fp, s, l, w);
            fprintf(fp, "  pos %ld  angle of pair 0 = %.4f rad  |q| = %.4f = |R q| = %.4f\n",
                    a->pos[t], a->pos[t] * theta[0], norm_d(a->q + t * d, d),
                    norm_d(a->q_rot + t * d, d));
        }
        fprintf(fp, "  max |(R_m q).(R_n k) - (R_{m-n} q).k| over m, n < %ld: %.3e  "
                    "(the score depends on m - n only)\n",
                a->rope_check_positions, a->score_offset_max_dev);
    }
    free(theta);
    return TF_OK;
}

/* ---------------------------------------------------------------------------------------------
 * order (C6) */

/* Tokens of the compared sentence (cmp = 1) or of the sentence itself. */
static const char *order_tok(const tf_analysis *a, int cmp, size_t t, size_t *len)
{
    const tf_token *k = cmp ? &a->cmp_tokens.items[t] : &a->tokens.items[t];
    *len = k->end - k->start;
    return (cmp ? a->cmp_text : a->text) + k->start;
}

static void json_matrix(FILE *fp, const double *m, size_t T)
{
    fputc('[', fp);
    for (size_t t = 0; t < T; t++) {
        if (t)
            fputs(", ", fp);
        emit_json_darray(fp, m + t * T, T, EMIT_F64_DIGITS);
    }
    fputc(']', fp);
}

static void json_order_mode(FILE *fp, const tf_order_result *r, size_t T)
{
    fputs("{\"max_token_diff\": ", fp);
    emit_json_num(fp, r->max_token_diff, EMIT_F64_DIGITS);
    fputs(", \"pooled_diff\": ", fp);
    emit_json_num(fp, r->pooled_diff, EMIT_F64_DIGITS);
    fputs(", \"token_diff\": ", fp);
    emit_json_darray(fp, r->token_diff, T, EMIT_F64_DIGITS);
    fputs(", \"max_abs_output\": ", fp);
    emit_json_num(fp, r->max_abs_output, EMIT_F64_DIGITS);
    fputs(", \"relative_diff\": ", fp);
    emit_json_num(fp, r->relative_diff, EMIT_F64_DIGITS);
    fprintf(fp, ", \"zero_up_to_rounding\": %s", attention_order_is_zero(r) ? "true" : "false");
    fputs(", \"score_std\": ", fp);
    emit_json_num(fp, r->score_std, EMIT_F64_DIGITS);
    fputs(", \"min_row_range\": ", fp);
    emit_json_num(fp, r->min_row_range, EMIT_F64_DIGITS);
    fputs(", \"A_a\": ", fp);
    json_matrix(fp, r->A_a, T);
    fputs(", \"A_b\": ", fp);
    json_matrix(fp, r->A_b, T);
    fputc('}', fp);
}

/* One line per mode that says what its numbers show. */
static void text_order_reading(FILE *fp, const tf_analysis *a, int m)
{
    const tf_order_result *r = &a->order[m];
    char pct[32];
    emit_percent(pct, sizeof pct, r->relative_diff);
    if (a->tokens.n < 2) {
        fputs(m == 0 ? "  One token has no order: both sentences are the same, so every "
                       "difference is 0.\n" : "", fp);
        return;
    }
    if (attention_order_is_zero(r)) {
        fprintf(fp, "  %s: B's weights are A's, rows and columns permuted; each token's output "
                    "is the same: 0 up to rounding (%.0e).\n",
                m == ATTN_NO_PE ? "no positions" : m == ATTN_WITH_PE ? "+ PE" : "RoPE",
                r->max_token_diff);
        return;
    }
    if (m == ATTN_WITH_PE)
        fprintf(fp, "  + PE: PE changes the inputs, so the weights differ and the outputs move "
                    "by %s of max|Z_A|.\n", pct);
    else if (m == ATTN_WITH_ROPE)
        fprintf(fp, "  RoPE: rotating q and k changes q.k, so the weights differ and the outputs "
                    "move by %s of max|Z_A|.\n", pct);
    else
        fprintf(fp, "  no positions: the outputs differ by %s of max|Z_A|.\n", pct);
}

static tf_status print_order(tf_analysis *a, out_format f, FILE *fp)
{
    size_t T = a->tokens.n, d = (size_t)a->cfg.d_model;
    tf_attn_cfg head = analysis_attn_cfg(a);
    if (f == FMT_NPY) { /* (mode, sentence a/b, T, T) */
        const size_t shape[4] = {ATTN_MODE_COUNT, 2, T, T};
        emit_npy_header_nd(fp, "<f8", shape, 4);
        for (int m = 0; m < ATTN_MODE_COUNT; m++) {
            fwrite(a->order[m].A_a, sizeof(double), T * T, fp);
            fwrite(a->order[m].A_b, sizeof(double), T * T, fp);
        }
        return ferror(fp) ? TF_ERR_IO : TF_OK;
    }
    if (f == FMT_JSON) {
        fputs("{\"a\": ", fp);
        emit_json_str(fp, a->text, a->text_len);
        fputs(", \"b\": ", fp);
        emit_json_str(fp, a->cmp_text, a->cmp_len);
        fputs(", \"permutation\": [", fp);
        for (size_t t = 0; t < T; t++)
            fprintf(fp, t ? ", %zu" : "%zu", a->perm[t]);
        fprintf(fp, "], \"d_model\": %zu, \"seed\": %llu, \"norm\": \"%s\", \"norm_eps\": ", d,
                (unsigned long long)head.seed, attention_norm_name(head.norm));
        emit_json_num(fp, ATTN_NORM_EPS, EMIT_F64_DIGITS);
        fputs(", \"embedding_scale\": ", fp);
        emit_json_num(fp, head.emb_scale, EMIT_F64_DIGITS);
        fputs(", \"score_scale\": ", fp);
        emit_json_num(fp, 1.0 / sqrt((double)d), EMIT_F64_DIGITS);
        fputs(", \"weights\": \"random (untrained): W_Q, W_K, W_V uniform(-sqrt(3/d), "
              "sqrt(3/d))\", \"head\": \"x = embedding_scale * x_emb (+ PE); h = LayerNorm(x); "
              "q, k, v = h W_Q, h W_K, h W_V (RoPE: q, k rotated); A = softmax(q k^T * "
              "score_scale); Z = A v\", \"rope_style\": ",
              fp);
        fprintf(fp, "\"%s\", \"base\": ", rope_style_name(head.style));
        emit_json_num(fp, head.base, EMIT_F64_DIGITS);
        fprintf(fp, ", \"first_position\": %ld", head.pos0);
        for (int m = 0; m < ATTN_MODE_COUNT; m++) {
            fprintf(fp, ", \"%s\": ", attention_mode_name((attn_mode)m));
            json_order_mode(fp, &a->order[m], T);
        }
        fputs("}\n", fp);
        return TF_OK;
    }
    if (f == FMT_CSV) {
        /* one row per token, sentence and mode: the mode's summary, then the token's row of
         * attention weights and its output difference (max |Z_B - Z_A| for that token) */
        fputs("mode,max_token_diff,pooled_diff,max_abs_output,relative_diff,sentence,row,token,"
              "token_diff", fp);
        for (size_t u = 0; u < T; u++)
            fprintf(fp, ",%zu", u);
        fputc('\n', fp);
        size_t *inv = malloc((T ? T : 1) * sizeof *inv); /* token u of a is token inv[u] of b */
        if (!inv)
            return TF_ERR_NOMEM;
        for (size_t t = 0; t < T; t++)
            inv[a->perm[t]] = t;
        for (int m = 0; m < ATTN_MODE_COUNT; m++) {
            const tf_order_result *r = &a->order[m];
            for (int sb = 0; sb < 2; sb++)
                for (size_t t = 0; t < T; t++) {
                    size_t l;
                    const char *s = order_tok(a, sb, t, &l);
                    fprintf(fp, "%s,", attention_mode_name((attn_mode)m));
                    const double sum[4] = {r->max_token_diff, r->pooled_diff, r->max_abs_output,
                                           r->relative_diff};
                    for (int k = 0; k < 4; k++) {
                        emit_json_num(fp, sum[k], EMIT_F64_DIGITS);
                        fputc(',', fp);
                    }
                    fprintf(fp, "%s,%zu,", sb ? "b" : "a", t);
                    token_text_field(fp, sb ? &a->cmp_tokens.items[t] : &a->tokens.items[t], s,
                                     l, 0);
                    fputc(',', fp);
                    emit_json_num(fp, r->token_diff[sb ? t : inv[t]], EMIT_F64_DIGITS);
                    emit_csv_dvalues(fp, (sb ? r->A_b : r->A_a) + t * T, T, EMIT_F64_DIGITS);
                    fputc('\n', fp);
                }
        }
        free(inv);
        return TF_OK;
    }

    static const char *const label[ATTN_MODE_COUNT] = {"embeddings only", "+ PE (sinusoidal)",
                                                       "RoPE on q, k"};
    fputs("Word order (C6): sentence A = ", fp);
    emit_safe_text(fp, a->text, a->text_len);
    fputs(", sentence B = ", fp);
    emit_safe_text(fp, a->cmp_text, a->cmp_len);
    fputs(" (same tokens, other order)\n", fp);
    fprintf(fp, "  one attention head for all three: x = %.4g * x_emb (+ PE), h = LayerNorm(x),\n"
                "  q, k, v = h W_Q, h W_K, h W_V (RoPE rotates q and k), A = softmax(q k^T / "
                "sqrt(%zu)), Z = A v\n", head.emb_scale, d);
    fprintf(fp, "  W_Q, W_K, W_V are random (seed %llu), not trained: this shows the mechanism, "
                "not what a trained model attends to.\n", (unsigned long long)head.seed);
    fputs("  each token of B is compared with the same token in A\n", fp);
    fputs("                      max token diff  / max|Z_A|   pooled diff  score spread  "
          "min row range\n", fp);
    for (int m = 0; m < ATTN_MODE_COUNT; m++) {
        const tf_order_result *r = &a->order[m];
        if (attention_order_is_zero(r))
            fprintf(fp, "  %-18s  %14s  %9s  %12s", label[m], "0 (rounding)", "0%", "0");
        else
            fprintf(fp, "  %-18s  %14.3e  %8.1f%%  %12.3e", label[m], r->max_token_diff,
                    100.0 * r->relative_diff, r->pooled_diff);
        fprintf(fp, "  %12.2f  %13.3f\n", r->score_std, r->min_row_range);
    }
    for (int m = 0; m < ATTN_MODE_COUNT; m++)
        text_order_reading(fp, a, m);

    /* the weights themselves, A and B side by side, while they fit a terminal */
    if (T > 8) {
        fprintf(fp, "  (attention weights of %zu tokens: --format json, csv or npy gives them)\n",
                T);
        return TF_OK;
    }
    int w = 4;
    for (int sb = 0; sb < 2; sb++)
        for (size_t t = 0; t < T; t++) {
            size_t l;
            const char *s = order_tok(a, sb, t, &l);
            int tw = tw_width(s, l);
            w = tw > w ? tw : w;
        }
    w = w > 12 ? 12 : w;
    fputs("  attention weights (a row: one token; its columns: the tokens it attends to; each "
          "row sums to 1)\n", fp);
    int cw = w > 6 ? w : 6;
    for (int m = 0; m < ATTN_MODE_COUNT; m++) {
        fprintf(fp, "  %s\n", label[m]);
        for (int row = -1; row < (int)T; row++) {
            /* one line: A's row, then B's, padded to columns; written without trailing blanks */
            char *buf = NULL;
            size_t blen = 0;
            FILE *ln = open_memstream(&buf, &blen);
            if (!ln)
                return TF_ERR_NOMEM;
            for (int sb = 0; sb < 2; sb++) {
                const double *A = sb ? a->order[m].A_b : a->order[m].A_a;
                size_t l;
                fputs("    ", ln);
                if (row < 0) {
                    tw_pad(ln, sb ? "B" : "A", 1, w);
                    for (size_t u = 0; u < T; u++) {
                        const char *s = order_tok(a, sb, u, &l);
                        fputs("  ", ln);
                        text_token(ln, s, l, cw);
                    }
                    continue;
                }
                const char *s = order_tok(a, sb, (size_t)row, &l);
                text_token(ln, s, l, w);
                for (size_t u = 0; u < T; u++)
                    fprintf(ln, "  %-*.3f", cw, A[(size_t)row * T + u]);
            }
            fclose(ln);
            while (blen > 0 && buf[blen - 1] == ' ')
                blen--;
            fwrite(buf, 1, blen, fp);
            fputc('\n', fp);
            free(buf);
        }
    }
    return TF_OK;
}

/* ---------------------------------------------------------------------------------------------
 * dot (C9, C10: PE(p).PE(q) depends on p - q only) */

static tf_status print_dot(tf_analysis *a, out_format f, FILE *fp)
{
    const tf_config *c = &a->cfg;
    size_t n = (size_t)c->n_positions;
    long pos0 = c->index_base;
    double *g = malloc(n * n * sizeof *g);
    if (!g)
        return TF_ERR_NOMEM;
    tf_status st = posenc_gram(pos0, (long)n, c->d_model, c->base, g);
    if (st != TF_OK) {
        free(g);
        return st;
    }
    if (f == FMT_NPY) {
        emit_npy_header(fp, "<f8", n, n);
        fwrite(g, sizeof *g, n * n, fp);
    } else if (f == FMT_CSV || f == FMT_TEXT) {
        if (f == FMT_TEXT)
            fprintf(fp, "PE(p) . PE(q) = sum_i cos((p - q) w_i): constant along each diagonal; "
                        "the diagonal is d/2 = %g\n", c->d_model / 2.0);
        fputs("pos", fp);
        size_t shown = f == FMT_TEXT && n > 12 ? 12 : n;
        for (size_t q = 0; q < shown; q++)
            fprintf(fp, f == FMT_CSV ? ",%ld" : " %9ld", pos0 + (long)q);
        fputc('\n', fp);
        for (size_t p = 0; p < (f == FMT_TEXT ? shown : n); p++) {
            fprintf(fp, f == FMT_CSV ? "%ld" : "%3ld", pos0 + (long)p);
            if (f == FMT_CSV)
                emit_csv_dvalues(fp, g + p * n, n, EMIT_F64_DIGITS);
            else
                for (size_t q = 0; q < shown; q++)
                    fprintf(fp, " %9.4f", g[p * n + q]);
            fputc('\n', fp);
        }
        if (shown < n)
            fprintf(fp, "(%zu of %zu positions shown; --format csv gives them all)\n", shown, n);
    } else {
        fprintf(fp, "{\"d_model\": %d, \"index_base\": %d, \"positions\": %zu, \"dot\": [",
                c->d_model, c->index_base, n);
        for (size_t p = 0; p < n; p++) {
            if (p)
                fputs(", ", fp);
            emit_json_darray(fp, g + p * n, n, EMIT_F64_DIGITS);
        }
        fputs("]}\n", fp);
    }
    free(g);
    return TF_OK;
}

/* ---------------------------------------------------------------------------------------------
 * decay (RoFormer 3.4.3) */

static tf_status print_decay(tf_analysis *a, out_format f, FILE *fp)
{
    const tf_config *c = &a->cfg;
    long n = c->n_positions;
    if (f == FMT_JSON) {
        fprintf(fp, "{\"d_model\": %d, \"base\": ", c->d_model);
        emit_json_num(fp, c->base, EMIT_F64_DIGITS);
        fputs(", \"bound\": [", fp);
    } else if (f == FMT_CSV) {
        fputs("r,bound\n", fp);
    } else if (f == FMT_NPY) {
        emit_npy_header(fp, "<f8", (size_t)n, 2);
    } else {
        fprintf(fp, "RoFormer long-term decay: (1/(d/2)) sum_j |S_j|, S_j = sum_{k<j} "
                    "e^{i r theta_k}, d = %d, base %g\n       r        bound\n", c->d_model, c->base);
    }
    for (long r = 0; r < n; r++) {
        double b = rope_decay_bound(c->d_model, c->base, (double)r);
        if (f == FMT_JSON) {
            if (r)
                fputs(", ", fp);
            emit_json_num(fp, b, EMIT_F64_DIGITS);
        } else if (f == FMT_CSV) {
            fprintf(fp, "%ld,", r);
            emit_json_num(fp, b, EMIT_F64_DIGITS);
            fputc('\n', fp);
        } else if (f == FMT_NPY) {
            double v[2] = {(double)r, b};
            fwrite(v, sizeof v[0], 2, fp);
        } else {
            fprintf(fp, "%8ld  %11.6f\n", r, b);
        }
    }
    if (f == FMT_JSON)
        fputs("]}\n", fp);
    return TF_OK;
}

/* ---------------------------------------------------------------------------------------------
 * similarity: the cosine matrix of the sentence's embedding rows */

static tf_status print_similarity(tf_analysis *a, out_format f, FILE *fp)
{
    size_t T = a->tokens.n;
    double *cs = malloc(T * T * sizeof *cs);
    if (!cs)
        return TF_ERR_NOMEM;
    vectors_cosine_matrix(a->x_emb, T, a->cfg.d_model, cs);
    if (f == FMT_NPY) {
        emit_npy_header(fp, "<f8", T, T);
        fwrite(cs, sizeof(double), T * T, fp);
    } else if (f == FMT_CSV) {
        fputs("token", fp);
        for (size_t t = 0; t < T; t++) {
            size_t l;
            const char *s = tok_text(a, t, &l);
            fputc(',', fp);
            emit_csv_str(fp, s, l);
        }
        fputc('\n', fp);
        for (size_t t = 0; t < T; t++) {
            size_t l;
            const char *s = tok_text(a, t, &l);
            emit_csv_str(fp, s, l);
            emit_csv_dvalues(fp, cs + t * T, T, EMIT_F64_DIGITS);
            fputc('\n', fp);
        }
    } else if (f == FMT_JSON) {
        fputs("{\"tokens\": [", fp);
        for (size_t t = 0; t < T; t++) {
            size_t l;
            const char *s = tok_text(a, t, &l);
            fputs(t ? ", " : "", fp);
            emit_json_str(fp, s, l);
        }
        fputs("], \"row_source\": [", fp);
        for (size_t t = 0; t < T; t++)
            fprintf(fp, "%s\"%s\"", t ? ", " : "", row_source(a, t));
        fputs("], \"cosine\": [", fp);
        for (size_t t = 0; t < T; t++) {
            fputs(t ? ", " : "", fp);
            emit_json_darray(fp, cs + t * T, T, EMIT_F64_DIGITS);
        }
        fputs("]}\n", fp);
    } else {
        fputs("Cosine similarity of the embedding rows (余弦相似度); * = trained/loaded row\n", fp);
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
    }
    free(cs);
    return TF_OK;
}

/* ---------------------------------------------------------------------------------------------
 * The table of WHATs */

typedef struct {
    const char *name;
    unsigned needs;  /* ANALYSIS_* */
    int npy;         /* has a matrix form */
    print_fn fn;
} print_entry;

static const print_entry entries[] = {
    {"tokens", 0, 0, print_tokens},
    {"vocab", 0, 0, print_vocab},
    {"embedding", 0, 1, print_embedding},
    {"pe", 0, 1, print_pe},
    {"freq", 0, 1, print_freq},
    {"input", 0, 1, print_input},
    {"relative", ANALYSIS_RELATIVE, 0, print_relative},
    {"dot", 0, 1, print_dot},
    {"rope", ANALYSIS_ROPE, 0, print_rope},
    {"decay", 0, 1, print_decay},
    {"order", ANALYSIS_ORDER, 1, print_order},
    {"similarity", 0, 1, print_similarity},
};
#define N_ENTRIES (sizeof entries / sizeof entries[0])

static const print_entry *find(const char *what)
{
    for (size_t i = 0; i < N_ENTRIES; i++)
        if (strcmp(entries[i].name, what) == 0)
            return &entries[i];
    return NULL;
}

const char *print_list(void)
{
    return "tokens, vocab, embedding, pe, freq, input, relative, dot, rope, decay, order, "
           "similarity, neighbors, pca, training";
}

const char *print_check(const char *what, out_format f, const tf_config *c)
{
    const print_entry *e = find(what);
    if (!e)
        return "unknown --print value";
    if (f == FMT_NPY && !e->npy)
        return "--format npy writes matrices: use it with embedding, pe, freq, input, dot, decay, "
               "order or similarity";
    if (strcmp(what, "dot") == 0 && c->n_positions > TF_MAX_DOT_POSITIONS)
        return "--print dot builds an n x n matrix: use -n 4096 or fewer";
    if (strcmp(what, "relative") == 0 && (double)c->n_positions * c->d_model > 4e8)
        return "--print relative checks every position: keep -n x -d under 400,000,000";
    return NULL;
}

unsigned print_needs(const char *what)
{
    const print_entry *e = find(what);
    return e ? e->needs : 0;
}

tf_status print_run(const char *what, out_format f, tf_analysis *a, FILE *fp)
{
    const print_entry *e = find(what);
    return e ? e->fn(a, f, fp) : TF_ERR_RANGE;
}

/* ---------------------------------------------------------------------------------------------
 * Work: what a --print costs, estimated before it runs (TF_MAX_WORK)
 *
 * Nanoseconds of one core, from rates measured on an x86-64 core of the 2020s with the default
 * build: a value formatted as text ~900 ns (sin/cos and %.15g), written as binary ~20 ns; a
 * multiply-add of a projection or of the one-hot product ~1.3 ns; an element of the relative
 * check or of the decay bound (pow, sin, cos) ~150 ns. Only the order of magnitude matters:
 * the limit keeps every request well under a minute and refuses the ones that would take hours. */

double print_dot_work(double n, double d) { return 1.5 * n * n * d / 2; }

double print_work(const char *what, out_format f, const tf_analysis *a)
{
    double T = (double)a->tokens.n, d = a->cfg.d_model, n = (double)a->cfg.n_positions;
    double V = a->cfg.vocab_size;
    double val = f == FMT_NPY ? 20.0 : 900.0; /* one value written */
    double shown = f == FMT_TEXT && d > 8 ? 8 : d; /* text tables show 8 columns */
    if (strcmp(what, "embedding") == 0)
        return T * shown * val + (f == FMT_TEXT || f == FMT_JSON ? 1.3 * V * d * (T + 1) : 0);
    if (strcmp(what, "pe") == 0) /* every value computed, the shown ones formatted */
        return f == FMT_NPY ? 20.0 * n * d : 20.0 * n * d + n * shown * val;
    if (strcmp(what, "input") == 0)
        return 3 * T * shown * val;
    if (strcmp(what, "relative") == 0)
        return 150.0 * n * d;
    if (strcmp(what, "dot") == 0)
        return print_dot_work(n, d) + (f == FMT_TEXT ? 144 : n * n) * val;
    if (strcmp(what, "rope") == 0)
        return 2 * 1.3 * T * d * d + 3.0 * ROPE_CHECK_MAX_POSITIONS * ROPE_CHECK_MAX_POSITIONS * d +
               4 * T * d * val;
    if (strcmp(what, "decay") == 0)
        return 150.0 * n * d / 2 + n * val;
    if (strcmp(what, "order") == 0) /* 3 projections of 4T rows, and the scores of 6 T x T */
        return 12 * 1.3 * T * d * d + 6 * 1.3 * T * T * d;
    return T * val + d * val; /* tokens, freq */
}

/* ---------------------------------------------------------------------------------------------
 * The report */

/* A section whose work is past the limit says so instead of running for minutes. */
static int report_skip(const char *what, const tf_analysis *a, FILE *fp)
{
    if (print_work(what, FMT_TEXT, a) <= TF_MAX_WORK)
        return 0;
    fprintf(fp, "  (skipped: too much work with these settings; tfviz --print %s says what to "
                "lower / 计算量超出限制，已跳过)\n", what);
    return 1;
}

void print_report(tf_analysis *a, FILE *fp)
{
    fputs("tfviz — from a sentence to the matrix a Transformer's first layer reads\n"
          "tfviz —— 一句话如何变成 Transformer 第一层读入的矩阵\n\n", fp);
    fputs("1. Tokens and ids (词表与编号, C1)\n", fp);
    print_tokens(a, FMT_TEXT, fp);
    fputs("\n2. Embedding rows: onehot(id) . W_E = row id of W_E (词嵌入, C2-C4)\n", fp);
    if (!report_skip("embedding", a, fp))
        print_embedding(a, FMT_TEXT, fp);
    fputs("\n3. Positional encoding (位置编码, C7)\n", fp);
    tf_config saved = a->cfg;
    if (a->cfg.n_positions > 8)
        a->cfg.n_positions = 8;
    print_pe(a, FMT_TEXT, fp);
    a->cfg = saved;
    fputs("\n4. Frequencies fall geometrically (频率, C8)\n", fp);
    int h = a->cfg.d_model / 2;
    fprintf(fp, "  w_0 = %.6g (wavelength %.4f positions) ... w_%d = %.6g (wavelength %.1f)\n",
            a->omega[0], 2 * M_PI / a->omega[0], h - 1, a->omega[h - 1],
            2 * M_PI / a->omega[h - 1]);
    fputs("\n5. Uniqueness and relative position (唯一性与相对位置, C9-C10)\n", fp);
    if (!report_skip("relative", a, fp) && analysis_need(a, ANALYSIS_RELATIVE, NULL) == TF_OK)
        print_relative(a, FMT_TEXT, fp);
    fputs("\n6. X_input = X_emb + PE (融合, C11)\n", fp);
    print_input(a, FMT_TEXT, fp);
    fputs("\n7. Attention is order-blind without positions (语序, C6)\n", fp);
    if (!report_skip("order", a, fp) && analysis_need(a, ANALYSIS_ORDER, NULL) == TF_OK)
        print_order(a, FMT_TEXT, fp);
    fputs("\n8. RoPE rotates q and k instead (旋转位置编码, C13)\n", fp);
    if (!report_skip("rope", a, fp) && analysis_need(a, ANALYSIS_ROPE, NULL) == TF_OK)
        print_rope(a, FMT_TEXT, fp);
}
