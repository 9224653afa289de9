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

#define TABLE_MAX_ROWS 16 /* the characters listed at most */
#define TABLE_MAX_COLS 32 /* the tokens listed at most */
#define MIN_CHARS 4       /* the characters a slide shows at least (fewer: a smaller size) */
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

/* The widths of t's columns (their widest cell) into colw; returns the height of a row. */
static double table_measure(fig_ctx *c, const table *t, double *colw)
{
    double rowh = 0;
    char buf[2 * CELL];
    for (int k = 0; k < t->cols; k++) {
        colw[k] = 0;
        for (int r = 0; r < t->rows; r++) {
            double w, h;
            fig_text_size(c->f, cell_markup(t, r, k, buf, sizeof buf), false, &w, &h);
            colw[k] = fmax(colw[k], w);
            rowh = fmax(rowh, 1.45 * h);
        }
    }
    return rowh;
}

/* Column k of t with its left edge at x, its first row's top at y. */
static void draw_column(fig_ctx *c, const table *t, int k, double x, double y, double colw,
                        double rowh)
{
    char buf[2 * CELL];
    for (int r = 0; r < t->rows; r++)
        fig_text(c->f, FIG_LABEL, cell_markup(t, r, k, buf, sizeof buf), false, x + colw / 2,
                 y + (r + 0.5) * rowh, 0.5, 0.5, false);
}

/* Where t's blocks start (a table with names in its first column that is wider than width is
 * cut into blocks of columns, one under another, each with the names again, as even as they
 * fit): the first column of each in start, start[n] = t->cols. Returns n, the widest block's
 * width in *widest. */
static int table_blocks(const table *t, const double *colw, double gap, double width,
                        int *start, double *widest)
{
    int first = t->head_col ? 1 : 0, n = 0, most = t->cols;
    double head = t->head_col ? colw[0] + gap : 0;
    for (int pass = 0; pass < 2; pass++) {
        n = 0;
        *widest = 0;
        for (int k = first; k < t->cols; n++) {
            start[n] = k;
            double w = head + colw[k++];
            while (k < t->cols && k - start[n] < most &&
                   (!t->head_col || w + gap + colw[k] <= width))
                w += gap + colw[k++];
            *widest = fmax(*widest, w);
        }
        most = n > 1 ? (t->cols - first + n - 1) / n : most; /* as many in each block */
    }
    start[n] = t->cols;
    return n;
}

/* t centred in c->area, its columns as wide as their widest cell, cut into blocks when it is
 * wider than the area (table_blocks); a table wider or taller than the area makes the page
 * cramped (a smaller size is tried). */
static void draw_table(fig_ctx *c, const table *t)
{
    double fs = fig_font_size(c->f), gap = 1.6 * fs, colw[TABLE_MAX_COLS + 1];
    double rowh = table_measure(c, t, colw), widest;
    int start[TABLE_MAX_COLS + 2];
    int n = table_blocks(t, colw, gap, c->area.w, start, &widest);
    double block_h = rowh * t->rows, total_h = n * block_h + (n - 1) * 0.6 * rowh;
    if (widest > c->area.w || total_h > c->area.h) {
        fig_set_cramped(c->f);
        return;
    }
    double x0 = c->area.x + (c->area.w - widest) / 2;
    double y = c->area.y + (c->area.h - total_h) / 2;
    for (int b = 0; b < n; b++, y += block_h + 0.6 * rowh) {
        double x = x0;
        if (t->head_col) {
            draw_column(c, t, 0, x, y, colw[0], rowh);
            x += colw[0] + gap;
        }
        for (int k = start[b]; k < start[b + 1]; x += colw[k] + gap, k++)
            draw_column(c, t, k, x, y, colw[k], rowh);
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

/* t's rows cut to those that fit c->area at the page's size, the last of them an ellipsis;
 * no fewer than MIN_CHARS below the names (a smaller size is tried then). */
static void fit_rows(fig_ctx *c, table *t)
{
    double colw[TABLE_MAX_COLS + 1];
    int fit = (int)floor(c->area.h / table_measure(c, t, colw));
    if (t->rows <= fit)
        return;
    t->rows = fit > MIN_CHARS + 2 ? fit : MIN_CHARS + 2;
    snprintf(t->cell[t->rows - 1][0], CELL, "...");
    for (int k = 1; k < t->cols; k++)
        t->cell[t->rows - 1][k][0] = '\0';
}

/* Step 1: each character of the sentence (spaces left out), its code point, its UTF-8 bytes
 * and the code point in decimal; as many as fit (at most TABLE_MAX_ROWS), then an ellipsis. */
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
    fit_rows(c, t);
    draw_table(c, t);
    free(t);
    return TF_OK;
}

/* Step 2: the tokens across, their ids below, in blocks one under another when they are wider
 * than the slide; the first TABLE_MAX_COLS. */
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
    double fs = fig_font_size(c->f);
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
