/* text.c — the sentence's tokens as printed, and the helpers of the text tables. */
#include <stdlib.h>

#include "core/emit.h"
#include "print/topic.h"
#include "textwidth.h"

/* ---------------------------------------------------------------------------------------------
 * Tokens */

const char *tok_text(const tf_analysis *a, size_t t, size_t *len)
{
    const tf_token *k = &a->tokens.items[t];
    *len = k->end - k->start;
    return a->text + k->start;
}

pv tok_value(const tf_analysis *a, size_t t)
{
    size_t l;
    const char *s = tok_text(a, t, &l);
    return pv_token(s, l, (a->tokens.items[t].flags & TOKEN_PARTIAL) != 0);
}

const char *row_source(const tf_analysis *a, size_t t)
{
    return embedding_row_is_set(&a->emb, a->tokens.items[t].id) ? "loaded" : "random";
}

double work_small(const tf_analysis *a, out_format f)
{
    double val = work_value(f);
    return (double)a->tokens.n * val + a->cfg.d_model * val;
}

/* ---------------------------------------------------------------------------------------------
 * Text tables */

static int text_col_shown(int j, int d)
{
    return d <= TEXT_HEAD_COLS + TEXT_TAIL_COLS || j < TEXT_HEAD_COLS ||
           j >= d - TEXT_TAIL_COLS;
}

void text_row_d(FILE *fp, const double *v, int d)
{
    for (int j = 0; j < d; j++) {
        if (text_col_shown(j, d))
            fprintf(fp, " %10.6f", v[j]);
        else if (j == TEXT_HEAD_COLS)
            fputs("        ...", fp);
    }
    fputc('\n', fp);
}

void text_col_header(FILE *fp, int d)
{
    for (int j = 0; j < d; j++) {
        if (text_col_shown(j, d))
            fprintf(fp, " %10d", j);
        else if (j == TEXT_HEAD_COLS)
            fputs("        ...", fp);
    }
    fputc('\n', fp);
}

void text_cols_note(FILE *fp, int d)
{
    if (d > TEXT_HEAD_COLS + TEXT_TAIL_COLS)
        fprintf(fp, "(%d of %d dimensions shown; --format csv, json or npy gives them all)\n",
                TEXT_HEAD_COLS + TEXT_TAIL_COLS, d);
}

/* Token text as a terminal shows it (controls and partial bytes escaped), in a new buffer. */
static char *shown(const char *s, size_t len, size_t *out_len)
{
    char *buf = NULL;
    FILE *m = open_memstream(&buf, out_len);
    if (!m)
        return NULL;
    emit_safe_text(m, s, len);
    fclose(m);
    return buf;
}

int token_col_width(const tf_analysis *a)
{
    int w = 5;
    for (size_t t = 0; t < a->tokens.n; t++) {
        size_t l, blen = 0;
        const char *s = tok_text(a, t, &l);
        char *buf = shown(s, l, &blen); /* measured as shown: bytes of partial tokens as \xHH */
        if (!buf)
            continue;
        int tw = tw_width(buf, blen);
        free(buf);
        w = tw > w ? tw : w;
    }
    return w > 24 ? 24 : w;
}

void text_token(FILE *fp, const char *s, size_t len, int width)
{
    size_t blen = 0;
    char *buf = shown(s, len, &blen);
    if (buf) {
        tw_pad(fp, buf, blen, width);
        free(buf);
    }
}
