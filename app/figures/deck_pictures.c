/* deck_pictures.c — the pictures of the lesson's first steps, which no figure of the table
 * shows: the characters of the sentence with their code points and UTF-8 bytes (step 1, the
 * lesson's own table), the tokens and their ids (step 2), and each token's one-hot row (step 3).
 * Drawn with render/figure like every figure, into c->area. */
#include "figures/deck_pictures.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "utf8.h"

#define TABLE_MAX_ROWS 10 /* the characters listed at most */
#define TABLE_MAX_COLS 12 /* the tokens listed at most */
#define CELL 64           /* bytes of a cell's markup */

typedef struct {
    char cell[TABLE_MAX_ROWS + 1][TABLE_MAX_COLS + 1][CELL];
    int rows, cols;
    bool head_row, head_col; /* the first row, the first column: names, in bold */
} table;

/* Cell (r, k) as drawn: bold when it names the others. */
static const char *cell_markup(const table *t, int r, int k, char *buf, size_t cap)
{
    bool bold = (t->head_row && r == 0) || (t->head_col && k == 0);
    snprintf(buf, cap, bold ? "<b>%s</b>" : "%s", t->cell[r][k]);
    return buf;
}

/* t centred in c->area, its columns as wide as their widest cell; a table wider or taller than
 * the area makes the page cramped (a smaller size is tried). */
static void draw_table(fig_ctx *c, const table *t)
{
    double fs = fig_font_size(c->f, FIG_LABEL), gap = 1.6 * fs, colw[TABLE_MAX_COLS + 1] = {0};
    double rowh = 0, total = 0;
    char buf[2 * CELL];
    for (int k = 0; k < t->cols; k++)
        for (int r = 0; r < t->rows; r++) {
            double w, h;
            fig_text_size(c->f, FIG_LABEL, cell_markup(t, r, k, buf, sizeof buf), false, &w, &h);
            colw[k] = fmax(colw[k], w);
            rowh = fmax(rowh, 1.45 * h);
        }
    for (int k = 0; k < t->cols; k++)
        total += colw[k] + (k ? gap : 0);
    if (total > c->area.w || rowh * t->rows > c->area.h) {
        fig_set_cramped(c->f);
        return;
    }
    double x = c->area.x + (c->area.w - total) / 2;
    double y = c->area.y + (c->area.h - rowh * t->rows) / 2;
    for (int k = 0; k < t->cols; k++) {
        for (int r = 0; r < t->rows; r++)
            fig_text(c->f, FIG_LABEL, cell_markup(t, r, k, buf, sizeof buf), false,
                     x + colw[k] / 2, y + (r + 0.5) * rowh, 0.5, 0.5, false);
        x += colw[k] + gap;
    }
}

/* The names of a table's rows or columns from a string-table entry, '|' between them. */
static void head_cells(const fig_ctx *c, txt_id id, char *out[], int n)
{
    const char *s = txt_lang(id, c->zh);
    for (int i = 0; i < n; i++) {
        size_t l = strcspn(s, "|");
        snprintf(out[i], CELL, "%.*s", (int)l, s);
        s += s[l] ? l + 1 : l;
    }
}

/* Step 1: each character of the sentence (spaces left out), its code point, its UTF-8 bytes
 * and the code point in decimal; the first TABLE_MAX_ROWS, then an ellipsis. */
tf_status draw_deck_bytes(fig_ctx *c)
{
    table *t = calloc(1, sizeof *t);
    if (!t)
        return TF_ERR_NOMEM;
    const tf_analysis *a = c->a;
    t->cols = 4, t->head_row = true;
    char *head[4] = {t->cell[0][0], t->cell[0][1], t->cell[0][2], t->cell[0][3]};
    head_cells(c, T_LESSON_BYTES_HEAD, head, 4);
    int n = 0;
    size_t i = 0;
    for (; i < a->text_len && n < TABLE_MAX_ROWS - 1;) {
        uint32_t cp;
        size_t k = utf8_decode(a->text + i, a->text_len - i, &cp);
        if (!k)
            break;
        if (cp != ' ') {
            char ch[8];
            snprintf(ch, sizeof ch, "%.*s", (int)k, a->text + i);
            n++;
            fig_markup_text(t->cell[n][0], CELL, ch, 4);
            snprintf(t->cell[n][1], CELL, "U+%04X", (unsigned)cp);
            int o = 0;
            for (size_t b = 0; b < k; b++)
                o += snprintf(t->cell[n][2] + o, CELL - (size_t)o, "%s%02X", b ? " " : "",
                              (unsigned char)a->text[i + b]);
            snprintf(t->cell[n][3], CELL, "%u", (unsigned)cp);
        }
        i += k;
    }
    while (i < a->text_len && a->text[i] == ' ')
        i++;
    if (i < a->text_len) /* more than the rows hold */
        snprintf(t->cell[++n][0], CELL, "...");
    t->rows = n + 1;
    draw_table(c, t);
    free(t);
    return TF_OK;
}

/* Step 2: the tokens across, their ids below; the first TABLE_MAX_COLS. */
tf_status draw_deck_ids(fig_ctx *c)
{
    table *t = calloc(1, sizeof *t);
    if (!t)
        return TF_ERR_NOMEM;
    const tf_tokens *tk = &c->a->tokens;
    t->rows = 2, t->head_col = true;
    char *head[2] = {t->cell[0][0], t->cell[1][0]};
    head_cells(c, T_DECK_TOKENS_HEAD, head, 2);
    int n = tk->n < TABLE_MAX_COLS ? (int)tk->n : TABLE_MAX_COLS - 1;
    for (int k = 0; k < n; k++) {
        const tf_token *o = &tk->items[k];
        token_markup(t->cell[0][k + 1], CELL, c->a->text + o->start, o->end - o->start);
        snprintf(t->cell[1][k + 1], CELL, "%d%s", o->id, o->flags & TOKEN_UNK ? " [UNK]" : "");
    }
    if ((size_t)n < tk->n) /* more than the columns hold */
        snprintf(t->cell[0][++n], CELL, "...");
    t->cols = n + 1;
    draw_table(c, t);
    free(t);
    return TF_OK;
}

/* Step 3: a row per token across the vocabulary, 0 everywhere and 1 at the token's id. */
tf_status draw_deck_onehot(fig_ctx *c)
{
    const tf_analysis *a = c->a;
    size_t T = a->tokens.n;
    double V = (double)a->emb.vocab_size;
    token_ticks tt = {0};
    if (token_ticks_make(&tt, &a->tokens, a->text, 0, true) != TF_OK) {
        token_ticks_free(&tt);
        return TF_ERR_NOMEM;
    }
    char title[200];
    txt_fmt_lang(title, sizeof title, T_DECK_ONEHOT_TITLE, c->zh, a->emb.vocab_size);
    fig_axes ax = {.frame = true, .title = title, .title_wraps = true};
    ax.x = (fig_axis){.lo = -0.5, .hi = V - 0.5, .integer = true,
                      .label = fig_txt(c, T_DECK_ONEHOT_X)};
    ax.y = (fig_axis){.lo = -0.5, .hi = (double)T - 0.5, .flip = true};
    set_token_axis(&ax.y, &tt);
    fig_axes_fit(c->f, &ax, c->area);
    fig_axes_draw(c->f, &ax);
    double fs = fig_font_size(c->f, FIG_LABEL);
    for (size_t i = 0; i < T; i++) {
        double y = (double)i, id = (double)a->tokens.items[i].id;
        fig_segment(c->f, &ax, 0, y, V - 1, y, (tf_rgb){170, 170, 170}, 0.08 * fs, FIG_SOLID);
        fig_segment(c->f, &ax, id, y - 0.38, id, y + 0.38, fig_series_color(1), 0.3 * fs,
                    FIG_SOLID);
        fig_markers(c->f, &ax, &id, &y, 1, fig_series_color(1), 0.7 * fs);
    }
    token_ticks_free(&tt);
    return TF_OK;
}
