/* view_order.c — view 6: attention is blind to word order without positions (claim C6).
 *
 * The same tokens in two orders (the sentence and order B: --compare, or typed with c, else its
 * words reversed) go through one attention head three times: without positions, with PE added,
 * with RoPE. The head is the analysis' (LayerNorm, word vectors times sqrt(d), random weights),
 * so its scores spread by about 1 and the heatmaps show real preferences. Per mode three maps
 * side by side: A's attention, B's with its rows and columns put back into A's token order
 * (o shows B in its own order), and |A - B| on a scale from 0 shared by the modes. Without
 * positions the first two are the same picture cell for cell and the difference is blank; with
 * PE and with RoPE they differ. Rows (queries) are labelled once on the left, columns (keys)
 * under each map, by their tokens or by numbers with the legend above. A one-line reading per
 * mode gives max|A - B| and the change of the outputs; the table gives, per token of A, how much
 * its output changed between the two orders: 0 up to rounding without positions.
 *
 * Layout degrades with the sentence length and the screen (see the row budget, row_budget()):
 * the heatmaps show A's first K tokens (with a note when K < T; B's maps the same tokens), the
 * table lists as many rows as fit (with a note for the rest; every row for up to 6 tokens at
 * 80x24), and the readings, the colour bars and the conclusion are always drawn. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/emit.h"
#include "tf_limits.h"
#include "tui/view.h"

/* The view's state: order B as typed, and how B is drawn. The view owns the text it typed; the
 * configuration points at it. */
typedef struct {
    char *compare; /* order B as typed with c, NULL: --compare's text or the words reversed */
    bool own;      /* o: B's attention in B's own token order, else in A's */
} order_state;

/* One heatmap: the (T, T) weights A, rows and columns idx[0..K-1] of it (idx NULL: 0..K-1),
 * sx cells a column, sy pixels a row. */
typedef struct {
    const double *A; /* (T, T) row-major */
    const size_t *idx;
    int T, K, sx, sy;
} attn_ctx;

static double attn_px(void *ctx, int py, int px)
{
    const attn_ctx *c = ctx;
    int r = py / c->sy, k = px / c->sx;
    if (r >= c->K || k >= c->K)
        return NAN;
    size_t i = c->idx ? c->idx[r] : (size_t)r, j = c->idx ? c->idx[k] : (size_t)k;
    return c->A[i * (size_t)c->T + j];
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

/* The labels under one heatmap of K columns sx cells wide: the tokens idx[k] of tk (idx NULL:
 * 0..K-1) when names, else their numbers wherever one fits without touching the next. */
static void draw_labels(WINDOW *w, int y, int x, const tf_tokens *tk, const char *text,
                        const size_t *idx, int K, int sx, bool names)
{
    int next = 0;
    for (int k = 0; k < K; k++) {
        char buf[64];
        int i = idx ? (int)idx[k] : k;
        if (names) {
            term_text(w, y, x + k * sx, tok_text(tk, text, i, buf, sizeof buf), sx - 1);
            continue;
        }
        snprintf(buf, sizeof buf, "%d", i + 1);
        int l = (int)strlen(buf);
        if (k * sx < next || k * sx + l > K * sx)
            continue;
        term_text(w, y, x + k * sx, buf, l);
        next = k * sx + l + (sx > 1 || l > 1); /* one-digit numbers of one-column cells abut */
    }
}

/* "A: 1 我  2 爱  3 学习" into out (tight: one space between tokens): as many numbered tokens
 * as fit in maxw columns, then "...". Returns the tokens listed. */
static int numbered(char *out, size_t cap, int maxw, bool b, const tf_tokens *tk,
                     const char *text, int T, bool tight)
{
    char line[1024], piece[96], tb[64];
    size_t n = 0;
    line[0] = '\0';
    /* the label: sentence B's own order, or A's */
    int room = maxw - (term_text_width(txt(b ? T_O_B_OWN : T_O_A_S)) - 2); /* without its %s */
    for (int k = 0; k < T; k++) {
        int l = snprintf(piece, sizeof piece, k ? (tight ? " %d %s" : "  %d %s") : "%d %s", k + 1,
                         tok_text(tk, text, k, tb, sizeof tb));
        /* keep 5 columns for "  ..." unless this is the last token */
        int need = term_text_width(line) + term_text_width(piece) + (k + 1 < T ? 5 : 0);
        if (l < 0 || n + (size_t)l + 6 > sizeof line || need > room) {
            snprintf(line + n, sizeof line - n, "  ...");
            snprintf(out, cap, b ? txtf(T_O_B_OWN) : txtf(T_O_A_S), line);
            return k;
        }
        memcpy(line + n, piece, (size_t)l + 1);
        n += (size_t)l;
    }
    snprintf(out, cap, b ? txtf(T_O_B_OWN) : txtf(T_O_A_S), line);
    return T;
}

/* A difference as the table shows it: 0 when the mode's outputs match up to rounding. */
static void diff_cell(char *out, const tf_order_result *r, double v)
{
    if (attention_order_is_zero(r))
        snprintf(out, 48, "0");
    else
        snprintf(out, 48, "%.2e", v);
}

/* max|A - B| of mode m as printed: 0 up to rounding, else three decimals. */
static void weight_cell(char *out, size_t cap, const tf_order_result *r)
{
    if (r->weight_diff < ATTN_WEIGHT_ROUNDING)
        snprintf(out, cap, "0");
    else
        snprintf(out, cap, "%.3f", r->weight_diff);
}

/* The reading of mode m under its heatmaps: the difference map's max and the outputs' change,
 * as wide as fits in maxw columns. */
static void reading(const tf_analysis *a, int m, char *buf, size_t cap, int maxw)
{
    const tf_order_result *r = &a->order[m];
    char p[32], d[32];
    emit_percent(p, sizeof p, r->relative_diff);
    weight_cell(d, sizeof d, r);
    bool same = attention_order_is_zero(r);
    if (same)
        txt_fmt(buf, cap, T_O_RD_SAME, d);
    else
        txt_fmt(buf, cap, T_O_RD_DIFF, d, p);
    if (term_text_width(buf) <= maxw)
        return;
    if (same)
        txt_fmt(buf, cap, T_O_RD_SAME_S, d);
    else
        txt_fmt(buf, cap, T_O_RD_DIFF_S, d, p);
    if (!same && term_text_width(buf) > maxw) /* 60 columns: the map's max alone */
        txt_fmt(buf, cap, T_O_RD_DIFF_XS, d);
}

/* How the view fits its rows and columns (budget): which optional parts are drawn, K tokens per
 * heatmap of sx columns and sy pixels each (mh rows), the rows' labels labw wide, and the
 * colour scales: lo..hi for the attention of A and B, 0..dhi for the difference maps. */
typedef struct {
    int nm;   /* the experiment's columns: three modes, or the schemes listed */
    int colw; /* columns of one mode: A, B and |A - B| side by side */
    int K, labw, sx, sy, mh, shown, T;
    int legend; /* the legend's lines: 1, or 2 when B does not fit beside A */
    bool own;        /* B in its own order (o), else in A's */
    bool rownames;   /* rows labelled by their tokens, else by their numbers */
    bool table, maxrow, note, share, title, pooled, gap, longr, names;
    bool summary; /* --big: the table's max and max/max|Z| rows only, no row per token */
    double lo, hi, dhi;
} order_layout;

/* Heatmap rows for K tokens of sy pixels. */
static int map_rows(int K, int sy)
{
    return (K * sy + 1) / 2;
}

/* 1. The row budget. Always: the legend of A (and B), the mode headings, the maps' titles,
 *    the heatmaps at one pixel a token, their labels, the readings, the colour bars and the
 *    conclusion. Then, while rows are left, in this order: the table's header and a row per
 *    token, its max row, heatmaps one row a token (so each row carries its token), the note on
 *    the random head, the /max|Z| row, the table's title, the pooled row, a blank row under the
 *    legend, the three long readings. Returns the rows still left. */
static int row_budget(order_layout *L, int T, int rows, int cols, bool big)
{
    int left = rows - 6 - L->legend - (T == 1) - (L->K < T) - map_rows(L->K, 1);
    L->sy = 1;
    L->summary = big;
    L->table = left >= (big ? 3 : 2);
    if (L->table && big)
        left -= 3, L->maxrow = L->share = true;
    else if (L->table) {
        left--;
        L->shown = left >= T ? T : left - 1 > 0 ? left - 1 : 0; /* and the note on the rest */
        if (L->shown > 64) /* the table's cells are a fixed array */
            L->shown = 64;
        left -= L->shown + (L->shown < T);
        if (L->shown == T && left >= 1)
            L->maxrow = true, left--;
    }
    int grow = map_rows(L->K, 2) - map_rows(L->K, 1);
    if (left >= grow)
        L->sy = 2, left -= grow;
    if (left >= 1)
        L->note = true, left--;
    if (L->table && !big && L->maxrow && left >= 1)
        L->share = true, left--;
    if (L->table && !big && left >= 1)
        L->title = true, left--;
    if (L->table && !big && L->share && left >= 1)
        L->pooled = true, left--;
    if (left >= 1)
        L->gap = true, left--;
    if (left >= 3 && cols >= 100 && T > 1)
        L->longr = true, left -= 3;
    return left;
}

/* The widest of the first K tokens of a (and of b), in columns. */
static int widest(const tf_analysis *a, int K, bool b)
{
    int maxw = 0;
    for (int k = 0; k < K; k++) {
        char buf[64];
        int w1 = term_text_width(tok_text(&a->tokens, a->text, k, buf, sizeof buf));
        maxw = w1 > maxw ? w1 : maxw;
        if (b) {
            int w2 = term_text_width(tok_text(&a->cmp_tokens, a->cmp_text, k, buf, sizeof buf));
            maxw = w2 > maxw ? w2 : maxw;
        }
    }
    return maxw;
}

/* The colour scales: one for the attention of A and B in every mode, its ends rounded out to
 * 0.01; one from 0 for the difference maps of every mode. */
static void scales(const tf_analysis *a, int T, order_layout *L)
{
    L->lo = INFINITY, L->hi = -INFINITY, L->dhi = 0.0;
    for (int m = 0; m < L->nm; m++) {
        for (int i = 0; i < T * T; i++) {
            L->lo = fmin(L->lo, fmin(a->order[m].A_a[i], a->order[m].A_b[i]));
            L->hi = fmax(L->hi, fmax(a->order[m].A_a[i], a->order[m].A_b[i]));
        }
        L->dhi = fmax(L->dhi, a->order[m].weight_diff);
    }
    L->lo = floor(L->lo * 100.0) / 100.0;
    L->hi = ceil(L->hi * 100.0) / 100.0;
    if (!(L->hi > L->lo))
        L->hi = L->lo + 0.01;
    L->dhi = ceil(L->dhi * 100.0) / 100.0;
    if (!(L->dhi > 0.0))
        L->dhi = 0.01;
}

/* The legend: A numbered (or whole, when the columns carry tokens), then B. In A's word order
 * B shares A's numbers and goes on A's line (its text shortened when the line is full); in its
 * own order (o) it is numbered on a line of its own. Returns the lines it takes (w NULL: only
 * counts). */
static int draw_legend(WINDOW *w, int y, int x, int cols, const tf_analysis *a, int T, int K,
                       bool names, bool own)
{
    char la[1100], lb[1100];
    if (own && !names)
        numbered(lb, sizeof lb, cols, true, &a->cmp_tokens, a->cmp_text, T, false);
    else
        snprintf(lb, sizeof lb, own ? txtf(T_O_B_OWN) : txtf(T_O_B_ALIGNED), a->cmp_text);
    int wb = term_text_width(lb), room = cols;
    if (names)
        txt_fmt(la, sizeof la, T_O_A_S, a->text);
    else
        numbered(la, sizeof la, room, false, &a->tokens, a->text, T, false);
    /* A's numbers first (closer together when B needs the room); B keeps at least 32 columns
     * beside them */
    if (!own && !names && cols - 3 - term_text_width(la) < wb)
        numbered(la, sizeof la, room, false, &a->tokens, a->text, T, true);
    int left = cols - 3 - term_text_width(la);
    if (!own && !names && left < 32 && left < wb) {
        room = cols - 3 - (wb < 32 ? wb : 32);
        /* the numbers of the tokens drawn come before B's text */
        if (numbered(la, sizeof la, room, false, &a->tokens, a->text, T, true) < K)
            numbered(la, sizeof la, room = cols, false, &a->tokens, a->text, T, true);
    }
    if (!w)
        return own ? 2 : 1;
    int wa = term_text(w, y, x, la, room);
    if (own)
        term_text(w, y + 1, x, lb, cols);
    else
        term_text(w, y, x + wa + 3, lb, cols - wa - 3);
    return own ? 2 : 1;
}

/* 2. The heatmaps' geometry: K tokens a map, three maps a mode beside the rows' labels, and
 *    the rows left after the budget for larger cells. */
static order_layout layout(const tf_analysis *a, int T, int rows, int cols, bool big, bool own)
{
    order_layout L = {.nm = (int)a->n_order, .own = own, .T = T};
    /* 1. the rows' labels: "query" over them, the tokens when they fit in 8 columns, else
     *    numbers ("11/12" for a row of two tokens); then K tokens a map: 3 K + 2 <= colw - 1 */
    int head = term_text_width(txt(T_O_QUERY)), K = T;
    for (int pass = 0; pass < 2; pass++) {
        int tw = widest(a, K, false);
        L.labw = tw <= 8 ? tw : 5;
        L.labw = L.labw > head ? L.labw : head;
        L.colw = (cols - 3 - L.labw) / L.nm;
        int kw = (L.colw - 3) / 3;
        K = T < kw ? T : kw;
        K = K < 1 ? 1 : K;
    }
    L.K = K;
    int maxw = widest(a, K, own);
    /* 2. cells grow with the terminal (a projector's 200 columns): up to 12 columns a token */
    int sx = (L.colw - 3) / (3 * K);
    sx = sx < 1 ? 1 : sx > 12 ? 12 : sx;
    L.names = 3 * K * (maxw + 1) + 3 <= L.colw;
    if (L.names && sx < maxw + 1)
        sx = maxw + 1;
    L.sx = sx;
    L.legend = draw_legend(NULL, 0, 0, cols - 2, a, T, K, L.names, own);
    int left = row_budget(&L, T, rows, cols, big);
    L.rownames = L.sy >= 2 && !own && widest(a, K, false) <= 8; /* o: each map its own order */
    /* 3. rows still left: square cells (two pixels a row, a cell twice as tall as wide), and
     *    on a projector's screen up to twice as tall as wide rather than a screen half empty */
    int tall = rows >= 40 ? 2 * sx : sx;
    int full = map_rows(K, tall);
    int now = map_rows(K, L.sy);
    if (left > 0 && L.sy >= 2 && now < full) {
        int add = left < full - now ? left : full - now;
        L.sy = 2 * (now + add) / K;
        L.sy = L.sy > tall ? tall : L.sy;
    }
    L.mh = map_rows(K, L.sy);
    scales(a, T, &L);
    return L;
}

/* The rows' labels: "query" above, then each row's token (or numbers: "1/2" for a row of two
 * tokens at one pixel each). */
static void draw_rows(WINDOW *w, int y, int x, const tf_analysis *a, const order_layout *L)
{
    term_text(w, y - 1, x, txt(T_O_QUERY), L->labw);
    for (int k = 0; k < L->K; k++) {
        char buf[64];
        int ry = (k * L->sy + L->sy / 2) / 2;
        if (L->rownames)
            tok_text(&a->tokens, a->text, k, buf, sizeof buf);
        else if (L->sy >= 2)
            snprintf(buf, sizeof buf, "%d", k + 1);
        else if (k % 2 == 0)
            snprintf(buf, sizeof buf, k + 1 < L->K ? "%d/%d" : "%d", k + 1, k + 2);
        else
            continue;
        term_text(w, y + ry, x + L->labw - term_text_width(buf), buf, L->labw);
    }
}

/* One mode: its heading, the titles A, B and |A - B|, the three maps and their labels, and the
 * reading. */
static void draw_mode(WINDOW *w, int y, int mx, const tf_analysis *a, int m,
                      const order_layout *L, const size_t *sel)
{
    const tf_order_result *r = &a->order[m];
    int K = L->K, sx = L->sx, mw = K * sx, gap = 1, T = L->T;
    term_attr(w, A_BOLD, 0);
    term_text(w, y, mx, col_name(a, m), L->colw - 1);
    term_attr(w, A_NORMAL, 0);
    static const txt_id title[3] = {T_O_MAP_A, T_O_MAP_B, T_O_MAP_D};
    attn_ctx c[3] = {{r->A_a, NULL, T, K, sx, L->sy},
                     {L->own ? r->A_b : r->A_b_aligned, L->own ? sel : NULL, T, K, sx, L->sy},
                     {r->diff_map, NULL, T, K, sx, L->sy}};
    for (int i = 0; i < 3; i++) {
        int px = mx + i * (mw + gap);
        const char *tt = txt(i == 1 && L->own ? T_O_MAP_BOWN : title[i]);
        term_text(w, y + 1, px, term_text_width(tt) <= mw || i < 2 ? tt : txt(T_O_MAP_D_S), mw);
        if (i == 2)
            term_heatmap(w, y + 2, px, L->mh, mw, attn_px, &c[i], CMAP_CIVIDIS, 0.0, L->dhi);
        else
            term_heatmap(w, y + 2, px, L->mh, mw, attn_px, &c[i], CMAP_VIRIDIS, L->lo, L->hi);
        bool b = i == 1 && L->own;
        draw_labels(w, y + 2 + L->mh, px, b ? &a->cmp_tokens : &a->tokens,
                    b ? a->cmp_text : a->text, b ? sel : NULL, K, sx, L->names);
    }
    char buf[160];
    reading(a, m, buf, sizeof buf, L->colw - 1);
    term_attr(w, A_BOLD, 0);
    term_text(w, y + 3 + L->mh, mx, buf, L->colw - 1);
    term_attr(w, A_NORMAL, 0);
}

/* 3. The legend, the note on the head, per mode A, B (in A's word order unless o) and their
 *    difference with its reading, and the two colour bars with what they mean. Returns the
 *    row below. */
static int draw_maps(WINDOW *w, int y, int x, int cols, const tf_analysis *a,
                     const order_layout *L, const size_t *sel)
{
    int T = L->T;
    y += draw_legend(w, y, x + 1, cols - 2, a, T, L->K, L->names, L->own) + L->gap;
    if (L->note) {
        char hn[256]; /* which head of the layer (attention_order_choose), 1-based */
        int heads = a->order_by_scheme ? 1 : ATTN_HEADS;
        txt_fmt(hn, sizeof hn, T_O_HEAD, a->order_head.head + 1, heads);
        if (term_text_width(hn) > cols - 2)
            txt_fmt(hn, sizeof hn, T_O_HEAD_S, a->order_head.head + 1, heads);
        term_text(w, y++, x + 1, hn, cols - 2);
    }
    int x0 = x + 1 + L->labw + 1;
    draw_rows(w, y + 2, x + 1, a, L);
    term_text(w, y + 2 + L->mh, x + 1 + L->labw - term_text_width(txt(T_O_KEY)), txt(T_O_KEY),
              L->labw);
    for (int m = 0; m < L->nm; m++)
        draw_mode(w, y, x0 + m * L->colw, a, m, L, sel);
    int ty = y + 4 + L->mh;
    int barw = (cols - 4) / 4 < 24 ? (cols - 4) / 4 : 24;
    term_colorbar(w, ty, x + 1, barw, CMAP_VIRIDIS, L->lo, L->hi);
    int lx = x + 2 + barw;
    lx += term_text(w, ty, lx, txt(T_O_BAR_ATTN), cols - (lx - x) - 1) + 2;
    if (lx + barw < x + cols - 1) {
        term_colorbar(w, ty, lx, barw, CMAP_CIVIDIS, 0.0, L->dhi);
        lx += barw + 1;
        term_text(w, ty, lx, txt(T_O_BAR_DIFF), cols - (lx - x) - 1);
    }
    ty++;
    if (L->K < T)
        term_printf(w, ty++, x + 1, cols - 2, txtf(T_O_SHOWN), L->K, T);
    return ty;
}

enum { NC = 2 + SCHEME_COUNT }; /* the difference table's columns, at most */

/* The difference table's cells: the header, `shown` tokens of A in its order (token i of A is
 * token where[i] of B), the omitted note's row (its index into *omit_row, -1: none), and the
 * max, max / max|Z_A| and pooled rows the layout keeps. Returns the number of rows. */
static int table_cells(const tf_analysis *a, int T, const order_layout *L, const size_t *where,
                       char (*cells)[48], int *omit_row)
{
    int nm = (int)a->n_order, shown = L->summary ? 0 : L->shown;
    snprintf(cells[0], 48, "#");
    snprintf(cells[1], 48, "%s", txt(T_O_TOKEN));
    for (int m = 0; m < nm; m++)
        snprintf(cells[2 + m], 48, "%s", col_name(a, m));
    int nr = 1;
    for (int i = 0; i < shown; i++, nr++) {
        snprintf(cells[nr * NC], 48, "%d", i + 1);
        tok_text(&a->tokens, a->text, i, cells[nr * NC + 1], 41);
        for (int m = 0; m < nm; m++)
            diff_cell(cells[nr * NC + 2 + m], &a->order[m], a->order[m].token_diff[where[i]]);
    }
    *omit_row = !L->summary && shown < T ? nr++ : -1;
    const bool keep[3] = {L->maxrow, L->share, L->pooled};
    for (int k = 0; k < 3; k++) {
        static const txt_id label[3] = {T_O_MAX, T_O_SHARE, T_O_POOLED};
        if (!keep[k])
            continue;
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
        nr++;
    }
    return nr;
}

/* 4. The difference table: one row per token of A, in A's order, aligned by display width
 *    (token texts left, numbers right, whatever the token looks like). Returns the row below. */
static int draw_table(WINDOW *w, int ty, int x, int cols, const tf_analysis *a, int T,
                      const order_layout *L, const size_t *where)
{
    static char cells[(64 + 4) * NC][48];
    int omit_row;
    /* the summary (--big) has no token rows and no note on them */
    int nr = table_cells(a, T, L, where, cells, &omit_row);
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

/* The long readings (wide screens), the note for one token, and the conclusion. */
static void draw_foot(WINDOW *w, int ty, int x, int cols, const tf_analysis *a, int T,
                      const order_layout *L)
{
    if (L->longr && !a->order_by_scheme) {
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
}

static int cmp_size(const void *p, const void *q)
{
    size_t a = *(const size_t *)p, b = *(const size_t *)q;
    return (a > b) - (a < b);
}

static void draw(tui *t, void *state, WINDOW *w, int y, int x, int rows, int cols)
{
    const order_state *o = state;
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
    /* where[i]: token i of A in B; sel: A's first K tokens where they sit in B, in B's order */
    size_t *where = malloc(2 * (size_t)T * sizeof *where);
    if (!where)
        return;
    size_t *sel = where + T;
    attention_order_where(a->perm, (size_t)T, where);
    order_layout L = layout(a, T, rows, cols, t->big, o && o->own);
    memcpy(sel, where, (size_t)L.K * sizeof *sel);
    qsort(sel, (size_t)L.K, sizeof *sel, cmp_size);
    int ty = draw_maps(w, y, x, cols, a, &L, sel);
    if (L.table)
        ty = draw_table(w, ty, x, cols, a, T, &L, where);
    free(where);
    draw_foot(w, ty, x, cols, a, T, &L);
    /* the status line: each column's change, as the table's /max|Z| row */
    size_t n = (size_t)snprintf(t->cursor, sizeof t->cursor, "diff/max|Z|:");
    for (int m = 0; m < L.nm && n < sizeof t->cursor; m++) {
        char p[32];
        emit_percent(p, sizeof p, a->order[m].relative_diff);
        const char *v = attention_order_is_zero(&a->order[m]) ? "0" : p;
        if (!a->order_by_scheme && m == ATTN_NO_PE && !attention_order_is_zero(&a->order[m]))
            v = "!";
        n += (size_t)snprintf(t->cursor + n, sizeof t->cursor - n, "%s %s", m ? " /" : "", v);
    }
}

/* ---------------------------------------------------------------------------------------------
 * c: order B typed. The view owns the text it typed; the configuration points at it. */

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
    order_state *o = state;
    if (ch == 'c' && o)
        return edit_compare(t, o);
    if (ch == 'o' && o) { /* B in its own order, or back in A's */
        o->own = !o->own;
        snprintf(t->msg, sizeof t->msg, "%s", txt(o->own ? T_O_SHOW_OWN : T_O_SHOW_ALIGNED));
        return TUI_REDRAW;
    }
    return TUI_IGNORED;
}

const tui_view view_order = {
    .figure = "order", .tab = T_TAB_ORDER, .caption = T_CAP_ORDER, .keys = T_KEYS_ORDER,
    .needs = ANALYSIS_ORDER, .init = init, .free = free_state, .draw = draw, .key = key,
};
