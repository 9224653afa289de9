/* view_order.c — view 6: attention is blind to word order without positions (claim C6).
 *
 * The same tokens in two orders (the sentence and --compare, default: its words reversed) go
 * through one seeded attention head three times: without positions, with PE added, with RoPE. The
 * table gives, per token, how much its output changed between the two orders (from the analysis):
 * about 1e-16 without positions, clearly non-zero with them. */
#include <math.h>
#include <stdio.h>

#include "tui.h"

typedef struct {
    const double *A;
    int T, sx, sy;
} attn_ctx;

static double attn_px(void *ctx, int py, int px)
{
    const attn_ctx *c = ctx;
    int r = py / c->sy, k = px / c->sx;
    return r < c->T && k < c->T ? c->A[(size_t)r * c->T + k] : NAN;
}

static const txt_id mode_names[ATTN_MODE_COUNT] = {T_O_MODE0, T_O_MODE1, T_O_MODE2};

static void draw(tui *t, WINDOW *w, int y, int x, int rows, int cols)
{
    const tf_analysis *a = t->a;
    if (!(a->done & ANALYSIS_ORDER))
        return;
    int T = (int)a->tokens.n;
    term_printf(w, y, x + 1, cols - 2, txt(T_O_A), a->text);
    term_printf(w, y + 1, x + 1, cols - 2, txt(T_O_B), a->cmp_text);

    /* attention matrices: one column per mode, A of each sentence side by side */
    int colw = (cols - 2) / ATTN_MODE_COUNT;
    int sx = (colw / 2 - 2) / (T ? T : 1);
    sx = sx < 1 ? 1 : sx > 4 ? 4 : sx;
    /* wide enough for the token labels under the columns, when the screen allows */
    int maxw = 0;
    for (int k = 0; k < T; k++) {
        const tf_token *tk = &a->tokens.items[k];
        char tt[64];
        snprintf(tt, sizeof tt, "%.*s", (int)(tk->end - tk->start), a->text + tk->start);
        int tw = term_text_width(tt);
        maxw = tw > maxw ? tw : maxw;
    }
    if (maxw + 1 > sx && 2 * T * (maxw + 1) + 3 <= colw)
        sx = maxw + 1;
    int hrows = rows - 7 - T - 4;
    int sy = hrows * 2 / (T ? T : 1);
    sy = sy < 1 ? 1 : sy > sx ? sx : sy;
    int mh = (T * sy + 1) / 2;
    for (int m = 0; m < ATTN_MODE_COUNT; m++) {
        int mx = x + 1 + m * colw;
        term_attr(w, A_BOLD, 0);
        term_text(w, y + 3, mx, txt(mode_names[m]), colw - 1);
        term_attr(w, A_NORMAL, 0);
        if (mh >= 1 && mh <= hrows) {
            attn_ctx ca = {a->order[m].A_a, T, sx, sy}, cb = {a->order[m].A_b, T, sx, sy};
            term_heatmap(w, y + 4, mx, mh, T * sx, attn_px, &ca, CMAP_VIRIDIS, 0, 1);
            term_heatmap(w, y + 4, mx + T * sx + 2, mh, T * sx, attn_px, &cb, CMAP_VIRIDIS, 0, 1);
            /* the key tokens under the columns, when a column is wide enough for one */
            for (int k = 0; sx >= 2 && k < T; k++) {
                const tf_token *ka = &a->tokens.items[k], *kb = &a->cmp_tokens.items[k];
                char ta[64], tb[64];
                snprintf(ta, sizeof ta, "%.*s", (int)(ka->end - ka->start), a->text + ka->start);
                snprintf(tb, sizeof tb, "%.*s", (int)(kb->end - kb->start),
                         a->cmp_text + kb->start);
                term_text(w, y + 4 + mh, mx + k * sx, ta, sx - 1);
                term_text(w, y + 4 + mh, mx + T * sx + 2 + k * sx, tb, sx - 1);
            }
        }
    }
    int ty = y + 4 + (mh <= hrows ? mh + 1 : 0) + 1;
    term_printf(w, ty - 1 + (mh > hrows), x + 1, cols - 2, "%s", txt(T_O_ATTN));

    /* the difference table: one row per token of the second sentence */
    static char cells[(1 + 64 + 2) * 4][48];
    const char *ptr[(1 + 64 + 2) * 4];
    int nr = 0, shown = T < 64 ? T : 64;
    if (shown > rows - (ty - y) - 5)
        shown = rows - (ty - y) - 5;
    if (shown < 0)
        shown = 0;
    snprintf(cells[0], 48, "%s", txt(T_O_TOKEN));
    for (int m = 0; m < ATTN_MODE_COUNT; m++)
        snprintf(cells[1 + m], 48, "%s", txt(mode_names[m]));
    nr = 1;
    for (int i = 0; i < shown; i++, nr++) {
        const tf_token *k = &a->cmp_tokens.items[i];
        size_t l = k->end - k->start < 40 ? k->end - k->start : 40;
        snprintf(cells[nr * 4], 48, "%.*s", (int)l, a->cmp_text + k->start);
        for (int m = 0; m < ATTN_MODE_COUNT; m++)
            snprintf(cells[nr * 4 + 1 + m], 48, "%.2e", a->order[m].token_diff[i]);
    }
    snprintf(cells[nr * 4], 48, "%s", txt(T_O_MAX));
    for (int m = 0; m < ATTN_MODE_COUNT; m++)
        snprintf(cells[nr * 4 + 1 + m], 48, "%.2e", a->order[m].max_token_diff);
    nr++;
    snprintf(cells[nr * 4], 48, "%s", txt(T_O_POOLED));
    for (int m = 0; m < ATTN_MODE_COUNT; m++)
        snprintf(cells[nr * 4 + 1 + m], 48, "%.2e", a->order[m].pooled_diff);
    nr++;
    for (int i = 0; i < nr * 4; i++)
        ptr[i] = cells[i];
    term_text(w, ty, x + 1, txt(T_O_DIFF), cols - 2);
    term_table(w, ty + 1, x + 3, ptr, nr, 4, 4, true, NULL);
    term_attr(w, A_BOLD, 0);
    term_text(w, ty + 2 + nr, x + 1, txt(T_O_PLAIN), cols - 2);
    term_attr(w, A_NORMAL, 0);
    snprintf(t->cursor, sizeof t->cursor, "max diff: %.1e / %.1e / %.1e",
             a->order[0].max_token_diff, a->order[1].max_token_diff, a->order[2].max_token_diff);
}

const tui_view view_order = {
    .figure = "order", .tab = T_TAB_ORDER, .caption = T_CAP_ORDER, .keys = T_KEYS_ORDER,
    .needs = ANALYSIS_ORDER, .draw = draw, .key = NULL, .click = NULL,
};
