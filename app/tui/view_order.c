/* view_order.c — view 6: attention is blind to word order without positions (claim C6).
 *
 * The same tokens in two orders (the sentence and --compare, default: its words reversed) go
 * through one seeded attention head three times: without positions, with PE added, with RoPE. The
 * table gives, per token, how much its output changed between the two orders (from the analysis):
 * about 1e-16 without positions, clearly non-zero with them.
 *
 * Layout degrades with the sentence length and the screen: the heatmaps show the first K tokens
 * (with a note when K < T), columns are labelled by the tokens when they fit and by their
 * numbers otherwise, the table lists as many rows as fit (with a note for the rest), and the
 * conclusion line is always drawn. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tui/view.h"

typedef struct {
    const double *A; /* (T, T) row-major: attention weights of one order */
    int T, sx, sy;
} attn_ctx;

static double attn_px(void *ctx, int py, int px)
{
    const attn_ctx *c = ctx;
    int r = py / c->sy, k = px / c->sx;
    return r < c->T && k < c->T ? c->A[(size_t)r * c->T + k] : NAN;
}

static const txt_id mode_names[ATTN_MODE_COUNT] = {T_O_MODE0, T_O_MODE1, T_O_MODE2};

static const char *tok_text(const tf_tokens *tk, const char *text, int i, char *buf, size_t cap)
{
    const tf_token *k = &tk->items[i];
    size_t l = k->end - k->start;
    snprintf(buf, cap, "%.*s", (int)(l < cap - 1 ? l : cap - 1), text + k->start);
    return buf;
}

/* The labels under one heatmap of K columns sx cells wide: the tokens when every one fits in
 * sx - 1 columns, else the token numbers 1..K wherever one fits without touching the last. */
static void draw_labels(WINDOW *w, int y, int x, const tf_tokens *tk, const char *text, int K,
                        int sx, bool names)
{
    int next = 0;
    for (int k = 0; k < K; k++) {
        char buf[64];
        if (names) {
            term_text(w, y, x + k * sx, tok_text(tk, text, k, buf, sizeof buf), sx - 1);
            continue;
        }
        snprintf(buf, sizeof buf, "%d", k + 1);
        int l = (int)strlen(buf);
        if (k * sx < next || k * sx + l > K * sx)
            continue;
        term_text(w, y, x + k * sx, buf, l);
        next = k * sx + l + 1;
    }
}

/* "order A: 1 我  2 爱  3 学习": as many numbered tokens as fit in maxw columns, then "...". */
static void numbered(WINDOW *w, int y, int x, int maxw, txt_id label, const tf_tokens *tk,
                     const char *text, int T)
{
    char line[1024], piece[96], tb[64];
    size_t n = 0;
    line[0] = '\0';
    int room = maxw - (term_text_width(txt(label)) - 2); /* the label without its %s */
    for (int k = 0; k < T; k++) {
        int l = snprintf(piece, sizeof piece, k ? "  %d %s" : "%d %s", k + 1,
                         tok_text(tk, text, k, tb, sizeof tb));
        /* keep 5 columns for "  ..." unless this is the last token */
        int need = term_text_width(line) + term_text_width(piece) + (k + 1 < T ? 5 : 0);
        if (l < 0 || n + (size_t)l + 6 > sizeof line || need > room) {
            snprintf(line + n, sizeof line - n, "  ...");
            break;
        }
        memcpy(line + n, piece, (size_t)l + 1);
        n += (size_t)l;
    }
    term_printf(w, y, x, maxw, txt(label), line);
}

/* How the view fits the screen: K tokens per heatmap of sx x sy cells each (mh rows), tab rows of
 * the table, the blank row under B (gap), and whether the columns carry the tokens' names. */
typedef struct {
    int K, tab, hh, sx, sy, mh;
    int gap;
    bool names;
} order_layout;

/* Rows: A, B, blank, headings, [heatmap + labels], attention line, [K of T note], table title,
 * header, [rows], [omitted note], max, pooled, [one-token note], conclusion. */
static order_layout layout(const tf_analysis *a, int T, int rows, int cols)
{
    order_layout L;
    int colw = (cols - 2) / ATTN_MODE_COUNT;
    int kw = (colw - 3) / 2; /* tokens per heatmap at one column each: 2 K + 2 <= colw - 1 */
    L.K = T < kw ? T : kw;
    if (L.K < 1)
        L.K = 1;
    int avail = rows - 10 - (T == 1);
    L.gap = avail >= T + (L.K + 1) / 2 + 1; /* the blank row under B, when there is room */
    avail += 1 - L.gap;
    int need = (L.K + 1) / 2 + 1; /* heatmap rows at one pixel per token, plus the labels */
    L.tab = T, L.hh = 2;
    for (int pass = 0; pass < 2; pass++) {
        int av = avail - (L.K < T);
        L.tab = T;
        if (L.tab + need <= av) {
            L.hh = av - L.tab;
        } else {
            L.hh = av / 2;
            int hmin = need < 3 ? need : 3;
            L.hh = L.hh < hmin ? hmin : L.hh > need ? need : L.hh;
            L.tab = av - L.hh - 1; /* one row for the note on omitted rows */
            if (L.tab < 0)
                L.tab = 0;
        }
        if (L.K > 2 * (L.hh - 1))
            L.K = 2 * (L.hh - 1) > 1 ? 2 * (L.hh - 1) : 1;
    }
    /* column width: the token names when they fit, else the numbers */
    int maxw = 0;
    for (int k = 0; k < L.K; k++) {
        char b1[64], b2[64];
        int w1 = term_text_width(tok_text(&a->tokens, a->text, k, b1, sizeof b1));
        int w2 = term_text_width(tok_text(&a->cmp_tokens, a->cmp_text, k, b2, sizeof b2));
        maxw = w1 > maxw ? w1 : maxw;
        maxw = w2 > maxw ? w2 : maxw;
    }
    L.sx = (colw - 3) / (2 * L.K);
    L.sx = L.sx < 1 ? 1 : L.sx > 4 ? 4 : L.sx;
    L.names = 2 * L.K * (maxw + 1) + 3 <= colw;
    if (L.names && L.sx < maxw + 1)
        L.sx = maxw + 1;
    L.sy = 2 * (L.hh - 1) / L.K;
    L.sy = L.sy < 1 ? 1 : L.sy > L.sx ? L.sx : L.sy;
    if (L.sy > 4)
        L.sy = 4;
    L.mh = (L.K * L.sy + 1) / 2;
    return L;
}

/* The two orders, then per mode the attention of order A and of order B side by side. Returns
 * the row below them. */
static int draw_heatmaps(WINDOW *w, int y, int x, int cols, const tf_analysis *a, int T,
                         const order_layout *L)
{
    int colw = (cols - 2) / ATTN_MODE_COUNT, K = L->K, sx = L->sx;
    if (L->names) {
        term_printf(w, y, x + 1, cols - 2, txt(T_O_A), a->text);
        term_printf(w, y + 1, x + 1, cols - 2, txt(T_O_B), a->cmp_text);
    } else { /* the columns carry numbers: number the tokens of both orders */
        numbered(w, y, x + 1, cols - 2, T_O_A, &a->tokens, a->text, T);
        numbered(w, y + 1, x + 1, cols - 2, T_O_B, &a->cmp_tokens, a->cmp_text, T);
    }
    y += L->gap - 1;
    for (int m = 0; m < ATTN_MODE_COUNT; m++) {
        int mx = x + 1 + m * colw;
        term_attr(w, A_BOLD, 0);
        term_text(w, y + 3, mx, txt(mode_names[m]), colw - 1);
        term_attr(w, A_NORMAL, 0);
        attn_ctx ca = {a->order[m].A_a, T, sx, L->sy}, cb = {a->order[m].A_b, T, sx, L->sy};
        term_heatmap(w, y + 4, mx, L->mh, K * sx, attn_px, &ca, CMAP_VIRIDIS, 0, 1);
        term_heatmap(w, y + 4, mx + K * sx + 2, L->mh, K * sx, attn_px, &cb, CMAP_VIRIDIS, 0, 1);
        draw_labels(w, y + 4 + L->mh, mx, &a->tokens, a->text, K, sx, L->names);
        draw_labels(w, y + 4 + L->mh, mx + K * sx + 2, &a->cmp_tokens, a->cmp_text, K, sx,
                    L->names);
    }
    int ty = y + 4 + L->mh + 1;
    term_text(w, ty++, x + 1, txt(L->names ? T_O_ATTN : T_O_ATTN_NUM), cols - 2);
    if (K < T)
        term_printf(w, ty++, x + 1, cols - 2, txt(T_O_SHOWN), K, T);
    return ty;
}

enum { NC = 5 }; /* the difference table's columns */

/* The difference table's cells: a header, up to `shown` tokens, the omitted note's row (its
 * index into *omit_row, -1: none), the max and pooled rows. Returns the number of rows. */
static int table_cells(const tf_analysis *a, int T, int shown, char (*cells)[48], int *omit_row)
{
    snprintf(cells[0], 48, "#");
    snprintf(cells[1], 48, "%s", txt(T_O_TOKEN));
    for (int m = 0; m < ATTN_MODE_COUNT; m++)
        snprintf(cells[2 + m], 48, "%s", txt(mode_names[m]));
    int nr = 1;
    for (int i = 0; i < shown; i++, nr++) {
        snprintf(cells[nr * NC], 48, "%d", i + 1);
        tok_text(&a->cmp_tokens, a->cmp_text, i, cells[nr * NC + 1], 41);
        for (int m = 0; m < ATTN_MODE_COUNT; m++)
            snprintf(cells[nr * NC + 2 + m], 48, "%.2e", a->order[m].token_diff[i]);
    }
    *omit_row = shown < T ? nr++ : -1;
    cells[nr * NC][0] = '\0';
    snprintf(cells[nr * NC + 1], 48, "%s", txt(T_O_MAX));
    for (int m = 0; m < ATTN_MODE_COUNT; m++)
        snprintf(cells[nr * NC + 2 + m], 48, "%.2e", a->order[m].max_token_diff);
    nr++;
    cells[nr * NC][0] = '\0';
    snprintf(cells[nr * NC + 1], 48, "%s", txt(T_O_POOLED));
    for (int m = 0; m < ATTN_MODE_COUNT; m++)
        snprintf(cells[nr * NC + 2 + m], 48, "%.2e", a->order[m].pooled_diff);
    return nr + 1;
}

/* The difference table: one row per token of the second sentence (at most tab), aligned by
 * display width (token texts left, numbers right, whatever the token looks like). Returns the
 * row below it. */
static int draw_table(WINDOW *w, int ty, int x, int cols, const tf_analysis *a, int T, int tab)
{
    static char cells[(64 + 3) * NC][48];
    int shown = tab < T ? tab : T, omit_row;
    if (shown > 64)
        shown = 64;
    int nr = table_cells(a, T, shown, cells, &omit_row);
    int cw[NC] = {0};
    for (int r = 0; r < nr; r++)
        for (int c = 0; c < NC && r != omit_row; c++) {
            int tw = term_text_width(cells[r * NC + c]);
            cw[c] = tw > cw[c] ? tw : cw[c];
        }
    term_text(w, ty, x + 1, txt(T_O_DIFF), cols - 2);
    for (int r = 0; r < nr; r++) {
        int ry = ty + 1 + r, cx = x + 2;
        if (r == omit_row) {
            term_printf(w, ry, cx, cols - 3, txt(T_O_OMITTED), T - shown);
            continue;
        }
        term_attr(w, r == 0 ? A_BOLD : A_NORMAL, 0);
        for (int c = 0; c < NC; c++) {
            const char *s = cells[r * NC + c];
            int tw = term_text_width(s), pad = c == 1 ? 0 : cw[c] - tw;
            if (cx + pad < x + cols)
                term_text(w, ry, cx + pad, s, x + cols - 1 - (cx + pad));
            cx += cw[c] + 2;
        }
        term_attr(w, A_NORMAL, 0);
    }
    return ty + 1 + nr;
}

static void draw(tui *t, void *state, WINDOW *w, int y, int x, int rows, int cols)
{
    (void)state;
    const tf_analysis *a = t->a;
    if (!(a->done & ANALYSIS_ORDER))
        return;
    int T = (int)a->tokens.n;
    if ((int)a->cmp_tokens.n < T)
        T = (int)a->cmp_tokens.n;
    if (T < 1) /* nothing to compare (the analysis refuses empty text; be safe anyway) */
        return;
    order_layout L = layout(a, T, rows, cols);
    int ty = draw_heatmaps(w, y, x, cols, a, T, &L);
    int ey = draw_table(w, ty, x, cols, a, T, L.tab);
    if (T == 1)
        term_text(w, ey++, x + 1, txt(T_O_ONE), cols - 2);
    term_attr(w, A_BOLD, 0);
    term_text(w, ey, x + 1, txt(T_O_PLAIN), cols - 2);
    term_attr(w, A_NORMAL, 0);
    snprintf(t->cursor, sizeof t->cursor, "max diff: %.1e / %.1e / %.1e",
             a->order[0].max_token_diff, a->order[1].max_token_diff, a->order[2].max_token_diff);
}

const tui_view view_order = {
    .figure = "order", .tab = T_TAB_ORDER, .caption = T_CAP_ORDER, .keys = T_KEYS_ORDER,
    .needs = ANALYSIS_ORDER, .draw = draw,
};
