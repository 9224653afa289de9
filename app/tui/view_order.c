/* view_order.c — view 6: attention is blind to word order without positions (claim C6).
 *
 * The same tokens in two orders (the sentence and order B: --compare, or typed with c, else its
 * words reversed) go through one attention head three times: without positions, with PE added,
 * with RoPE. The head is the analysis' (LayerNorm, word vectors times sqrt(d), random weights),
 * so its scores spread by about 1 and the heatmaps show real preferences. Under each pair of
 * heatmaps (A left, B right, one colour scale with its bar) a one-line reading says what the
 * mode shows; the table gives, per token, how much its output changed between the two orders
 * and that change as a share of max|Z_A|: 0 up to rounding without positions, a sizeable share
 * with PE and with RoPE.
 *
 * Layout degrades with the sentence length and the screen (see the row budget, budget()): the
 * heatmaps show the first K tokens (with a note when K < T), columns are labelled by the tokens
 * when they fit and by their numbers otherwise, the table lists as many rows as fit (with a note
 * for the rest), and the readings, the colour bar and the conclusion are always drawn. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/emit.h"
#include "tf_limits.h"
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

/* Column m's name: the mode's, or under --scheme the scheme's. */
static const char *col_name(const tf_analysis *a, int m)
{
    static const txt_id scheme_names[SCHEME_COUNT] = {
        [SCHEME_NONE] = T_O_MODE0,    [SCHEME_SINUSOIDAL] = T_O_MODE1,
        [SCHEME_LEARNED] = T_O_LEARNED, [SCHEME_ROPE] = T_O_MODE2,
        [SCHEME_ALIBI] = T_O_ALIBI,   [SCHEME_T5] = T_O_T5};
    if (a->order_by_scheme)
        return txt(scheme_names[a->order_scheme[m]]);
    return m < ATTN_MODE_COUNT ? txt(mode_names[m]) : "";
}

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
static void numbered(WINDOW *w, int y, int x, int maxw, bool b, const tf_tokens *tk,
                     const char *text, int T)
{
    txt_id label = b ? T_O_B : T_O_A;
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
    term_printf(w, y, x, maxw, b ? txtf(T_O_B) : txtf(T_O_A), line);
}

/* A difference as the table shows it: 0 when the mode's outputs match up to rounding. */
static void diff_cell(char *out, const tf_order_result *r, double v)
{
    if (attention_order_is_zero(r))
        snprintf(out, 48, "0");
    else
        snprintf(out, 48, "%.2e", v);
}

/* The reading of mode m under its heatmaps, as wide as fits in maxw columns. */
static void reading(const tf_analysis *a, int m, char *buf, size_t cap, int maxw)
{
    const tf_order_result *r = &a->order[m];
    char p[32];
    emit_percent(p, sizeof p, r->relative_diff);
    bool same = attention_order_is_zero(r);
    if (same)
        snprintf(buf, cap, "%s", txt(T_O_SAME));
    else
        txt_fmt(buf, cap, T_O_DIFFERS, p);
    if (term_text_width(buf) <= maxw)
        return;
    if (same)
        snprintf(buf, cap, "%s", txt(T_O_SAME_S));
    else
        txt_fmt(buf, cap, T_O_DIFFERS_S, p);
}

/* How the view fits its rows and columns (budget): which optional parts are drawn, K tokens per
 * heatmap of sx columns and sy pixels each (mh rows), and the colour scale lo..hi shared by the
 * six matrices. */
typedef struct {
    int nm; /* the experiment's columns: three modes, or the schemes listed */
    int K, hh, mh, sx, sy, shown;
    bool table, note, title, pooled, gap, longr, names;
    bool summary; /* --big: the table's max and max/max|Z| rows only, no row per token */
    double lo, hi;
} order_layout;

/* 1. The row budget. Always: A, B, the mode headings, the heatmaps (at least one row), their
 *    labels, the readings, the colour bar and the conclusion. Then, while rows are left, in this
 *    order: the table's header, max and /max|Z| rows (with its token rows or a note on the
 *    omitted ones), the note on the random head, heatmaps two pixels per token, the token rows,
 *    the table's title, the pooled row, a blank row under B, the three long readings, heatmaps
 *    at full size. Returns the rows still left. */
static int row_budget(order_layout *L, int T, int rows, int cols, bool big)
{
    int colw = (cols - 2) / L->nm;
    int kw = (colw - 3) / 2; /* tokens per heatmap at one column each: 2 K + 2 <= colw - 1 */
    L->K = T < kw ? T : kw;
    if (L->K < 1)
        L->K = 1;
    int left = rows - 7 - (T == 1);
    int need_h = (L->K + 1) / 2; /* heatmap rows at one pixel per token */
    L->hh = need_h < 2 ? need_h : 2;
    left -= L->hh;
    bool note_k = L->K < T || need_h > L->hh; /* "the first K of T tokens" may be needed */
    left -= note_k;
    /* --big: fewer numbers, larger heatmaps: the table keeps its two summary rows */
    L->summary = big;
    L->table = left >= (big ? 3 : 4);
    if (L->table)
        left -= big ? 3 : 4;
    if (left >= 1)
        L->note = true, left--;
    int more = L->K - L->hh < left ? L->K - L->hh : left; /* two pixels per token: K rows */
    if (more > 0)
        L->hh += more, left -= more;
    if (L->table && !big) {
        if (left >= T - 1)
            L->shown = T, left -= T - 1;
        else
            L->shown = left > 0 ? left : 0, left -= L->shown;
        if (L->shown > 64) /* the table's cells are a fixed array */
            left += L->shown - 64, L->shown = 64;
        if (left >= 1)
            L->title = true, left--;
        if (left >= 1)
            L->pooled = true, left--;
    }
    if (left >= 1)
        L->gap = true, left--;
    if (left >= 3 && cols >= 100 && T > 1)
        L->longr = true, left -= 3;
    return left;
}

/* 2. The heatmaps' geometry in the rows left, and the colour scale: one for the six matrices,
 *    its ends rounded out to 0.01. */
static order_layout layout(const tf_analysis *a, int T, int rows, int cols, bool big)
{
    order_layout L = {.nm = (int)a->n_order};
    int left = row_budget(&L, T, rows, cols, big);
    int colw = (cols - 2) / L.nm, K = L.K;
    if (K > 2 * L.hh)
        K = L.K = 2 * L.hh;
    int maxw = 0;
    for (int k = 0; k < K; k++) {
        char b1[64], b2[64];
        int w1 = term_text_width(tok_text(&a->tokens, a->text, k, b1, sizeof b1));
        int w2 = term_text_width(tok_text(&a->cmp_tokens, a->cmp_text, k, b2, sizeof b2));
        maxw = w1 > maxw ? w1 : maxw;
        maxw = w2 > maxw ? w2 : maxw;
    }
    /* cells grow with the terminal (a projector's 200 columns): up to 12 columns a token, square
     * (two pixels a row, a cell twice as tall as wide) */
    int sx = (colw - 3) / (2 * K);
    sx = sx < 1 ? 1 : sx > 12 ? 12 : sx;
    L.names = 2 * K * (maxw + 1) + 3 <= colw;
    if (L.names && sx < maxw + 1)
        sx = maxw + 1;
    int smax = sx;
    int full = (K * smax + 1) / 2; /* rows at full size */
    if (left > 0 && L.hh < full)
        L.hh += left < full - L.hh ? left : full - L.hh;
    int sy = 2 * L.hh / K;
    L.sx = sx;
    L.sy = sy < 1 ? 1 : sy > smax ? smax : sy;
    L.mh = (K * L.sy + 1) / 2;
    L.lo = INFINITY, L.hi = -INFINITY;
    for (int m = 0; m < L.nm; m++)
        for (int i = 0; i < T * T; i++) {
            L.lo = fmin(L.lo, fmin(a->order[m].A_a[i], a->order[m].A_b[i]));
            L.hi = fmax(L.hi, fmax(a->order[m].A_a[i], a->order[m].A_b[i]));
        }
    L.lo = floor(L.lo * 100.0) / 100.0;
    L.hi = ceil(L.hi * 100.0) / 100.0;
    if (!(L.hi > L.lo))
        L.hi = L.lo + 0.01;
    return L;
}

/* 3. The two orders, the note on the head, per mode the attention of A and B side by side with
 *    their reading, and the colour bar with what the colours mean. Returns the row below. */
static int draw_maps(WINDOW *w, int y, int x, int cols, const tf_analysis *a, int T,
                     const order_layout *L)
{
    int colw = (cols - 2) / L->nm, K = L->K, sx = L->sx, mh = L->mh;
    if (L->names) {
        term_printf(w, y, x + 1, cols - 2, txtf(T_O_A), a->text);
        term_printf(w, y + 1, x + 1, cols - 2, txtf(T_O_B), a->cmp_text);
    } else { /* the columns carry numbers: number the tokens of both orders */
        numbered(w, y, x + 1, cols - 2, false, &a->tokens, a->text, T);
        numbered(w, y + 1, x + 1, cols - 2, true, &a->cmp_tokens, a->cmp_text, T);
    }
    y += 2 + L->gap;
    if (L->note) {
        char hn[256]; /* which head of the layer (attention_order_choose), 1-based */
        int heads = a->order_by_scheme ? 1 : ATTN_HEADS;
        txt_fmt(hn, sizeof hn, T_O_HEAD, a->order_head.head + 1, heads);
        if (term_text_width(hn) > cols - 2)
            txt_fmt(hn, sizeof hn, T_O_HEAD_S, a->order_head.head + 1, heads);
        term_text(w, y++, x + 1, hn, cols - 2);
    }
    for (int m = 0; m < L->nm; m++) {
        int mx = x + 1 + m * colw;
        term_attr(w, A_BOLD, 0);
        term_text(w, y, mx, col_name(a, m), colw - 1);
        term_attr(w, A_NORMAL, 0);
        attn_ctx ca = {a->order[m].A_a, T, sx, L->sy}, cb = {a->order[m].A_b, T, sx, L->sy};
        term_heatmap(w, y + 1, mx, mh, K * sx, attn_px, &ca, CMAP_VIRIDIS, L->lo, L->hi);
        term_heatmap(w, y + 1, mx + K * sx + 2, mh, K * sx, attn_px, &cb, CMAP_VIRIDIS, L->lo,
                     L->hi);
        draw_labels(w, y + 1 + mh, mx, &a->tokens, a->text, K, sx, L->names);
        draw_labels(w, y + 1 + mh, mx + K * sx + 2, &a->cmp_tokens, a->cmp_text, K, sx,
                    L->names);
        char buf[160];
        reading(a, m, buf, sizeof buf, colw - 1);
        term_attr(w, A_BOLD, 0);
        term_text(w, y + 2 + mh, mx, buf, colw - 1);
        term_attr(w, A_NORMAL, 0);
    }
    int ty = y + 3 + mh;
    int barw = cols / 3 < 30 ? cols / 3 : 30;
    term_colorbar(w, ty, x + 1, barw, CMAP_VIRIDIS, L->lo, L->hi);
    const char *legend = txt(L->names ? T_O_ATTN : T_O_ATTN_NUM);
    if (term_text_width(legend) > cols - barw - 4)
        legend = txt(T_O_WEIGHT_S);
    term_text(w, ty++, x + 2 + barw + 1, legend, cols - barw - 4);
    if (K < T)
        term_printf(w, ty++, x + 1, cols - 2, txtf(T_O_SHOWN), K, T);
    return ty;
}

enum { NC = 2 + SCHEME_COUNT }; /* the difference table's columns, at most */

/* The difference table's cells: the header, `shown` tokens, the omitted note's row (its index
 * into *omit_row, -1: none), max, max / max|Z_A| and, with pooled, the pooled row. Returns the
 * number of rows. */
static int table_cells(const tf_analysis *a, int T, int shown, bool pooled, char (*cells)[48],
                       int *omit_row)
{
    int nm = (int)a->n_order;
    snprintf(cells[0], 48, "#");
    snprintf(cells[1], 48, "%s", txt(T_O_TOKEN));
    for (int m = 0; m < nm; m++)
        snprintf(cells[2 + m], 48, "%s", col_name(a, m));
    int nr = 1;
    for (int i = 0; i < shown; i++, nr++) {
        snprintf(cells[nr * NC], 48, "%d", i + 1);
        tok_text(&a->cmp_tokens, a->cmp_text, i, cells[nr * NC + 1], 41);
        for (int m = 0; m < nm; m++)
            diff_cell(cells[nr * NC + 2 + m], &a->order[m], a->order[m].token_diff[i]);
    }
    *omit_row = shown < T ? nr++ : -1;
    for (int k = 0; k < 2 + pooled; k++, nr++) {
        static const txt_id label[3] = {T_O_MAX, T_O_SHARE, T_O_POOLED};
        cells[nr * NC][0] = '\0';
        snprintf(cells[nr * NC + 1], 48, "%s", txt(label[k]));
        for (int m = 0; m < nm; m++) {
            const tf_order_result *r = &a->order[m];
            if (k == 1)
                emit_percent(cells[nr * NC + 2 + m], 48,
                             attention_order_is_zero(r) ? 0.0 : r->relative_diff);
            else
                diff_cell(cells[nr * NC + 2 + m], r, k == 0 ? r->max_token_diff : r->pooled_diff);
        }
    }
    return nr;
}

/* 4. The difference table: one row per token of the second sentence, aligned by display width
 *    (token texts left, numbers right, whatever the token looks like). Returns the row below. */
static int draw_table(WINDOW *w, int ty, int x, int cols, const tf_analysis *a, int T,
                      const order_layout *L)
{
    static char cells[(64 + 4) * NC][48];
    int omit_row;
    /* the summary (--big) has no token rows and no note on them */
    int nr = table_cells(a, L->summary ? 0 : T, L->shown, L->pooled, cells, &omit_row);
    int cw[NC] = {0}, nc = 2 + L->nm;
    for (int r = 0; r < nr; r++)
        for (int c = 0; c < nc && r != omit_row; c++) {
            int tw = term_text_width(cells[r * NC + c]);
            cw[c] = tw > cw[c] ? tw : cw[c];
        }
    if (L->title)
        term_text(w, ty++, x + 1, txt(T_O_DIFF), cols - 2);
    for (int r = 0; r < nr; r++, ty++) {
        int cx = x + 2;
        if (r == omit_row) {
            term_printf(w, ty, cx, cols - 3, txtf(T_O_OMITTED), T - L->shown);
            continue;
        }
        term_attr(w, r == 0 ? A_BOLD : A_NORMAL, 0);
        for (int c = 0; c < nc; c++) {
            const char *s = cells[r * NC + c];
            int tw = term_text_width(s), pad = c == 1 ? 0 : cw[c] - tw;
            if (cx + pad < x + cols)
                term_text(w, ty, cx + pad, s, x + cols - 1 - (cx + pad));
            cx += cw[c] + 2;
        }
        term_attr(w, A_NORMAL, 0);
    }
    return ty;
}

/* The last line: without positions nothing changes (the three modes); under --scheme, what
 * the columns compare, or why symmetric ALiBi sees no difference when B is A reversed. */
static txt_id conclusion(const tf_analysis *a)
{
    if (!a->order_by_scheme)
        return T_O_PLAIN;
    for (size_t m = 0; m < a->n_order; m++)
        if (a->order_scheme[m] == SCHEME_ALIBI && a->order_mask == SCHEME_MASK_SYMMETRIC &&
            attention_order_is_zero(&a->order[m]) && a->tokens.n > 1)
            return T_O_ALIBI_SYM;
    return T_O_SCHEMES;
}

static void draw(tui *t, void *state, WINDOW *w, int y, int x, int rows, int cols)
{
    (void)state;
    const tf_analysis *a = t->a;
    if (!(a->done & ANALYSIS_ORDER)) { /* at the article's scale, a moment on the worker */
        parts_working(t, ANALYSIS_ORDER, w, y, x + 1, cols - 2);
        return;
    }
    int T = (int)a->tokens.n;
    if ((int)a->cmp_tokens.n < T)
        T = (int)a->cmp_tokens.n;
    if (T < 1) /* nothing to compare (the analysis refuses empty text; be safe anyway) */
        return;
    order_layout L = layout(a, T, rows, cols, t->big);
    int ty = draw_maps(w, y, x, cols, a, T, &L);
    if (L.table)
        ty = draw_table(w, ty, x, cols, a, T, &L);
    if (L.longr && !a->order_by_scheme) {
        char p[32], buf[320];
        txt_fmt(buf, sizeof buf, T_O_LONG0, a->order[ATTN_NO_PE].max_token_diff);
        term_wrap(w, ty++, x + 1, cols - 2, 1, 1, buf);
        for (int m = ATTN_WITH_PE; m < ATTN_MODE_COUNT; m++) {
            emit_percent(p, sizeof p, a->order[m].relative_diff);
            snprintf(buf, sizeof buf, m == ATTN_WITH_PE ? txtf(T_O_LONG1) : txtf(T_O_LONG2), p);
            term_wrap(w, ty++, x + 1, cols - 2, 1, 1, buf);
        }
    }
    if (T == 1)
        term_text(w, ty++, x + 1, txt(T_O_ONE), cols - 2);
    term_attr(w, A_BOLD, 0);
    term_text(w, ty, x + 1, txt(conclusion(a)), cols - 2);
    term_attr(w, A_NORMAL, 0);
    /* the status line: each column's change, as the table's /max|Z| row */
    size_t o = (size_t)snprintf(t->cursor, sizeof t->cursor, "diff/max|Z|:");
    for (int m = 0; m < L.nm && o < sizeof t->cursor; m++) {
        char p[32];
        emit_percent(p, sizeof p, a->order[m].relative_diff);
        const char *v = attention_order_is_zero(&a->order[m]) ? "0" : p;
        if (!a->order_by_scheme && m == ATTN_NO_PE && !attention_order_is_zero(&a->order[m]))
            v = "!";
        o += (size_t)snprintf(t->cursor + o, sizeof t->cursor - o, "%s %s", m ? " /" : "", v);
    }
}

/* ---------------------------------------------------------------------------------------------
 * c: order B typed. The view owns the text it typed; the configuration points at it. */

typedef struct {
    char *compare; /* order B as typed with c, NULL: --compare's text or the words reversed */
} order_state;

static void *init(tui *t)
{
    (void)t;
    return calloc(1, sizeof(order_state));
}

static void free_state(void *state)
{
    order_state *o = state;
    if (o)
        free(o->compare);
    free(o);
}

/* Type order B in the line editor; the experiment runs again with it, or the message line says
 * why it cannot (other tokens) and the old order B stays. Empty: the words reversed. */
static int edit_compare(tui *t, order_state *o)
{
    size_t len = 0;
    bool cut, quit;
    /* an empty line: what the class types is order B, with nothing of the old one to delete */
    char *s = tui_edit_line(txt(T_O_EDIT_PROMPT), txt(T_O_EDIT_HINT), "", 0, &len, &cut, &quit);
    if (quit) {
        free(s);
        return TUI_QUIT;
    }
    if (!s)
        return TUI_REDRAW;
    size_t k = 0;
    while (k < len && s[k] == ' ')
        k++;
    /* run the experiment with the new order B before it replaces the one on screen */
    tf_config c = t->cfg;
    c.compare = k < len ? s : NULL;
    c.compare_len = k < len ? len : 0;
    tf_status st = tui_try_config(t, &c, ANALYSIS_ORDER);
    if (st != TF_OK) {
        snprintf(t->msg, sizeof t->msg, "%s",
                 st == TF_ERR_PERMUTATION ? txt(T_O_B_BAD) : txt_status(st));
        free(s);
        return TUI_REDRAW;
    }
    free(o->compare); /* the configuration no longer points at it */
    o->compare = c.compare ? s : NULL;
    if (!c.compare)
        free(s);
    if (o->compare)
        txt_fmt(t->msg, sizeof t->msg, T_O_B, t->a->cmp_text);
    else
        snprintf(t->msg, sizeof t->msg, "%s", txt(T_O_B_DEFAULT));
    if (cut)
        txt_fmt(t->msg, sizeof t->msg, T_M_TEXT_CUT, TF_MAX_TEXT_BYTES);
    return TUI_REDRAW;
}

static int key(tui *t, void *state, int ch)
{
    if (ch == 'c' && state)
        return edit_compare(t, state);
    return TUI_IGNORED;
}

const tui_view view_order = {
    .figure = "order", .tab = T_TAB_ORDER, .caption = T_CAP_ORDER, .keys = T_KEYS_ORDER,
    .needs = ANALYSIS_ORDER, .init = init, .free = free_state, .draw = draw, .key = key,
};
