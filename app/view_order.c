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
 * Layout degrades with the sentence length and the screen (see the row budget in draw): the
 * heatmaps show the first K tokens (with a note when K < T), columns are labelled by the tokens
 * when they fit and by their numbers otherwise, the table lists as many rows as fit (with a note
 * for the rest), and the readings, the colour bar and the conclusion are always drawn. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "emit.h"
#include "tui.h"

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

static void draw(tui *t, WINDOW *w, int y, int x, int rows, int cols)
{
    const tf_analysis *a = t->a;
    if (!(a->done & ANALYSIS_ORDER))
        return;
    int T = (int)a->tokens.n;
    if ((int)a->cmp_tokens.n < T)
        T = (int)a->cmp_tokens.n;
    if (T < 1) /* nothing to compare (the analysis refuses empty text; be safe anyway) */
        return;

    /* 1. The row budget. Always: A, B, the mode headings, the heatmaps (at least one row), their
     *    labels, the readings, the colour bar and the conclusion. Then, while rows are left, in
     *    this order: the table's header, max and /max|Z| rows (with its token rows or a note on
     *    the omitted ones), the note on the random head, heatmaps two pixels per token, the
     *    token rows, the table's title, the pooled row, a blank row under B, the three long
     *    readings, heatmaps at full size. */
    int colw = (cols - 2) / ATTN_MODE_COUNT;
    int kw = (colw - 3) / 2; /* tokens per heatmap at one column each: 2 K + 2 <= colw - 1 */
    int K = T < kw ? T : kw;
    if (K < 1)
        K = 1;
    int left = rows - 7 - (T == 1);
    int need_h = (K + 1) / 2; /* heatmap rows at one pixel per token */
    int hh = need_h < 2 ? need_h : 2;
    left -= hh;
    bool note_k = K < T || need_h > hh; /* "the first K of T tokens" may be needed */
    left -= note_k;
    bool table = left >= 4, note = false, title = false, pooled = false, gap = false;
    bool longr = false;
    int shown = 0;
    if (table)
        left -= 4;
    if (left >= 1)
        note = true, left--;
    int more = K - hh < left ? K - hh : left; /* two pixels per token: K rows */
    if (more > 0)
        hh += more, left -= more;
    if (table) {
        if (left >= T - 1)
            shown = T, left -= T - 1;
        else
            shown = left > 0 ? left : 0, left -= shown;
        if (shown > 64) /* the table's cells are a fixed array */
            left += shown - 64, shown = 64;
        if (left >= 1)
            title = true, left--;
        if (left >= 1)
            pooled = true, left--;
    }
    if (left >= 1)
        gap = true, left--;
    if (left >= 3 && cols >= 100 && T > 1)
        longr = true, left -= 3;

    /* 2. The heatmaps' geometry: K tokens of sx columns and sy pixels (half rows) each */
    if (K > 2 * hh)
        K = 2 * hh;
    int maxw = 0;
    for (int k = 0; k < K; k++) {
        char b1[64], b2[64];
        int w1 = term_text_width(tok_text(&a->tokens, a->text, k, b1, sizeof b1));
        int w2 = term_text_width(tok_text(&a->cmp_tokens, a->cmp_text, k, b2, sizeof b2));
        maxw = w1 > maxw ? w1 : maxw;
        maxw = w2 > maxw ? w2 : maxw;
    }
    int sx = (colw - 3) / (2 * K);
    sx = sx < 1 ? 1 : sx > 4 ? 4 : sx;
    bool names = 2 * K * (maxw + 1) + 3 <= colw;
    if (names && sx < maxw + 1)
        sx = maxw + 1;
    int smax = sx < 4 ? sx : 4;
    int full = (K * smax + 1) / 2; /* rows at full size */
    if (left > 0 && hh < full)
        hh += left < full - hh ? left : full - hh;
    int sy = 2 * hh / K;
    sy = sy < 1 ? 1 : sy > smax ? smax : sy;
    int mh = (K * sy + 1) / 2;

    /* one colour scale for the six matrices, its ends rounded out to 0.01 */
    double lo = INFINITY, hi = -INFINITY;
    for (int m = 0; m < ATTN_MODE_COUNT; m++)
        for (int i = 0; i < T * T; i++) {
            lo = fmin(lo, fmin(a->order[m].A_a[i], a->order[m].A_b[i]));
            hi = fmax(hi, fmax(a->order[m].A_a[i], a->order[m].A_b[i]));
        }
    lo = floor(lo * 100.0) / 100.0;
    hi = ceil(hi * 100.0) / 100.0;
    if (!(hi > lo))
        hi = lo + 0.01;

    /* 3. Draw, top to bottom */
    if (names) {
        term_printf(w, y, x + 1, cols - 2, txt(T_O_A), a->text);
        term_printf(w, y + 1, x + 1, cols - 2, txt(T_O_B), a->cmp_text);
    } else { /* the columns carry numbers: number the tokens of both orders */
        numbered(w, y, x + 1, cols - 2, T_O_A, &a->tokens, a->text, T);
        numbered(w, y + 1, x + 1, cols - 2, T_O_B, &a->cmp_tokens, a->cmp_text, T);
    }
    y += 2 + gap;
    if (note) {
        const char *hn = txt(T_O_HEAD);
        if (term_text_width(hn) > cols - 2)
            hn = txt(T_O_HEAD_S);
        term_text(w, y++, x + 1, hn, cols - 2);
    }
    for (int m = 0; m < ATTN_MODE_COUNT; m++) {
        int mx = x + 1 + m * colw;
        term_attr(w, A_BOLD, 0);
        term_text(w, y, mx, txt(mode_names[m]), colw - 1);
        term_attr(w, A_NORMAL, 0);
        attn_ctx ca = {a->order[m].A_a, T, sx, sy}, cb = {a->order[m].A_b, T, sx, sy};
        term_heatmap(w, y + 1, mx, mh, K * sx, attn_px, &ca, CMAP_VIRIDIS, lo, hi);
        term_heatmap(w, y + 1, mx + K * sx + 2, mh, K * sx, attn_px, &cb, CMAP_VIRIDIS, lo, hi);
        draw_labels(w, y + 1 + mh, mx, &a->tokens, a->text, K, sx, names);
        draw_labels(w, y + 1 + mh, mx + K * sx + 2, &a->cmp_tokens, a->cmp_text, K, sx, names);
        char buf[160];
        reading(a, m, buf, sizeof buf, colw - 1);
        term_attr(w, A_BOLD, 0);
        term_text(w, y + 2 + mh, mx, buf, colw - 1);
        term_attr(w, A_NORMAL, 0);
    }
    int ty = y + 3 + mh;
    /* the colour bar with its range, then what the colours mean */
    int barw = cols / 3 < 30 ? cols / 3 : 30;
    term_colorbar(w, ty, x + 1, barw, CMAP_VIRIDIS, lo, hi);
    const char *legend = txt(names ? T_O_ATTN : T_O_ATTN_NUM);
    if (term_text_width(legend) > cols - barw - 4)
        legend = txt(T_O_WEIGHT_S);
    term_text(w, ty++, x + 2 + barw + 1, legend, cols - barw - 4);
    if (K < T)
        term_printf(w, ty++, x + 1, cols - 2, txt(T_O_SHOWN), K, T);

    /* the difference table: one row per token of the second sentence, aligned by display
     * width (token texts left, numbers right, whatever the token looks like) */
    if (table) {
        enum { NC = 5 };
        static char cells[(64 + 4) * NC][48];
        snprintf(cells[0], 48, "#");
        snprintf(cells[1], 48, "%s", txt(T_O_TOKEN));
        for (int m = 0; m < ATTN_MODE_COUNT; m++)
            snprintf(cells[2 + m], 48, "%s", txt(mode_names[m]));
        int nr = 1;
        for (int i = 0; i < shown; i++, nr++) {
            snprintf(cells[nr * NC], 48, "%d", i + 1);
            tok_text(&a->cmp_tokens, a->cmp_text, i, cells[nr * NC + 1], 41);
            for (int m = 0; m < ATTN_MODE_COUNT; m++)
                diff_cell(cells[nr * NC + 2 + m], &a->order[m], a->order[m].token_diff[i]);
        }
        int omit_row = shown < T ? nr++ : -1;
        /* max, max / max|Z_A|, [pooled] */
        for (int k = 0; k < 2 + pooled; k++, nr++) {
            static const txt_id label[3] = {T_O_MAX, T_O_SHARE, T_O_POOLED};
            cells[nr * NC][0] = '\0';
            snprintf(cells[nr * NC + 1], 48, "%s", txt(label[k]));
            for (int m = 0; m < ATTN_MODE_COUNT; m++) {
                const tf_order_result *r = &a->order[m];
                if (k == 1)
                    emit_percent(cells[nr * NC + 2 + m], 48,
                                 attention_order_is_zero(r) ? 0.0 : r->relative_diff);
                else
                    diff_cell(cells[nr * NC + 2 + m], r,
                              k == 0 ? r->max_token_diff : r->pooled_diff);
            }
        }
        int cw[NC] = {0};
        for (int r = 0; r < nr; r++)
            for (int c = 0; c < NC && r != omit_row; c++) {
                int tw = term_text_width(cells[r * NC + c]);
                cw[c] = tw > cw[c] ? tw : cw[c];
            }
        if (title)
            term_text(w, ty++, x + 1, txt(T_O_DIFF), cols - 2);
        for (int r = 0; r < nr; r++, ty++) {
            int cx = x + 2;
            if (r == omit_row) {
                term_printf(w, ty, cx, cols - 3, txt(T_O_OMITTED), T - shown);
                continue;
            }
            term_attr(w, r == 0 ? A_BOLD : A_NORMAL, 0);
            for (int c = 0; c < NC; c++) {
                const char *s = cells[r * NC + c];
                int tw = term_text_width(s), pad = c == 1 ? 0 : cw[c] - tw;
                if (cx + pad < x + cols)
                    term_text(w, ty, cx + pad, s, x + cols - 1 - (cx + pad));
                cx += cw[c] + 2;
            }
            term_attr(w, A_NORMAL, 0);
        }
    }
    if (longr) {
        char p[32], buf[320];
        txt_fmt(buf, sizeof buf, T_O_LONG0, a->order[ATTN_NO_PE].max_token_diff);
        tui_wrap(w, ty++, x + 1, cols - 2, 1, 1, buf);
        for (int m = ATTN_WITH_PE; m < ATTN_MODE_COUNT; m++) {
            emit_percent(p, sizeof p, a->order[m].relative_diff);
            txt_fmt(buf, sizeof buf, m == ATTN_WITH_PE ? T_O_LONG1 : T_O_LONG2, p);
            tui_wrap(w, ty++, x + 1, cols - 2, 1, 1, buf);
        }
    }
    if (T == 1)
        term_text(w, ty++, x + 1, txt(T_O_ONE), cols - 2);
    term_attr(w, A_BOLD, 0);
    term_text(w, ty, x + 1, txt(T_O_PLAIN), cols - 2);
    term_attr(w, A_NORMAL, 0);
    char p1[32], p2[32];
    emit_percent(p1, sizeof p1, a->order[ATTN_WITH_PE].relative_diff);
    emit_percent(p2, sizeof p2, a->order[ATTN_WITH_ROPE].relative_diff);
    snprintf(t->cursor, sizeof t->cursor, "diff/max|Z|: %s / %s / %s",
             attention_order_is_zero(&a->order[ATTN_NO_PE]) ? "0" : "!", p1, p2);
}

static int key(tui *t, int ch)
{
    if (ch == 'c')
        return tui_edit_compare(t);
    return TUI_IGNORED;
}

const tui_view view_order = {
    .figure = "order",
    .tab = T_TAB_ORDER,
    .caption = T_CAP_ORDER,
    .keys = T_KEYS_ORDER,
    .needs = ANALYSIS_ORDER,
    .draw = draw,
    .key = key,
    .click = NULL,
};
