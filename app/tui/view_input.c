/* view_input.c — view 5: X_input = s * X_emb + PE, per token (claims C11, C12).
 *
 * Three aligned bars per token on one shared colour scale, so the balance between meaning
 * (the embedding row) and position (the PE row) is visible; `s` switches the sqrt(d_model)
 * scaling of the original Transformer on and off. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "embedding.h"
#include "linalg.h"
#include "tui/view.h"

#define LABEL_COLS 18

typedef struct {
    const double *v; /* (d) */
    int d, cols;
} bar_ctx;

static double bar_px(void *ctx, int py, int px)
{
    (void)py;
    const bar_ctx *b = ctx;
    return b->v[(size_t)px * b->d / b->cols];
}

/* Token i's three bars (X_emb, PE, X_input), rb rows each from row ry (the last `extra` of them
 * one row more: X_input first), with their norms. */
static void draw_bars(const tui *t, WINDOW *w, size_t i, const double *emb, int ry, int x,
                      int rb, int extra, int bw, double m)
{
    const tf_analysis *a = t->a;
    int d = a->cfg.d_model;
    char tok[128], lab[192];
    const double *rowv[3] = {emb, a->pe + i * d, a->x_input + i * d};
    const txt_id names[3] = {T_I_EMB, T_I_PE, T_I_SUM};
    /* the token and its id in 8 columns, a space before the bars' names; when both do not fit
     * ("学习 1037"), the id goes under the token */
    snprintf(lab, sizeof lab, "%s %d", tui_token(t, i, tok, sizeof tok), a->tokens.items[i].id);
    bool split = term_text_width(lab) > 8;
    if (split)
        snprintf(lab, sizeof lab, "%s", tok);
    for (int r = 0; r < 3; r++) {
        int by = ry + r * rb + (r > 3 - extra ? r - (3 - extra) : 0);
        term_attr(w, i == t->tok && r == 0 ? A_BOLD | A_REVERSE : A_NORMAL, 0);
        if (r == 0)
            term_text(w, ry, x + 1, lab, 8);
        term_attr(w, A_NORMAL, 0);
        if (r == 1 && split)
            term_printf(w, by, x + 1, 8, "%d", a->tokens.items[i].id);
        int h = rb + (r >= 3 - extra);
        term_text(w, by, x + 10, txt(names[r]), LABEL_COLS - 10);
        bar_ctx bc = {rowv[r], d, bw};
        term_heatmap(w, by, x + LABEL_COLS, h, bw, bar_px, &bc, CMAP_RDBU, -m, m);
        term_printf(w, by, x + LABEL_COLS + bw + 2, 12, "%9.3f", la_norm(rowv[r], (size_t)d));
    }
}

static void draw(tui *t, void *state, WINDOW *w, int y, int x, int rows, int cols)
{
    (void)state;
    const tf_analysis *a = t->a;
    int d = a->cfg.d_model;
    size_t T = a->tokens.n;
    int bw = cols - LABEL_COLS - 14;
    if (bw > d)
        bw = d;
    if (bw < 8)
        return;
    double *emb = malloc((size_t)d * sizeof *emb);
    if (!emb)
        return;
    /* one scale for every bar: the largest magnitude on screen */
    double m = 1e-12;
    for (size_t i = 0; i < T * (size_t)d; i++) {
        m = fmax(m, fabs(a->emb_scale * a->x_emb[i]));
        m = fmax(m, fabs(a->pe[i]));
        m = fmax(m, fabs(a->x_input[i]));
    }
    term_attr(w, A_BOLD, 0);
    term_printf(w, y, x + 1, cols - 2, a->cfg.scale_embedding ? txtf(T_I_SCALED) : txtf(T_I_UNSCALED),
                a->emb_scale);
    term_attr(w, A_NORMAL, 0);
    term_printf(w, y + 1, x + LABEL_COLS + bw + 2, 12, "%s", txt(T_I_NORMS));
    /* a blank line between tokens when they all fit with it; two lines under the tokens: where
     * pos counts from, and the Q, K, V projections; the bars grow (up to five rows each) when
     * the screen has room for every token: a projector */
    int rb = T ? (rows - 6 - (int)T) / (3 * (int)T) : 1;
    rb = rb < 1 ? 1 : rb > 8 ? 8 : rb;
    int per = rb > 1 ? 3 * rb + 1 : (rows - 6) >= 4 * (int)T ? 4 : 3, fit = (rows - 6) / per;
    /* when every token fits, the rows left grow the bars (X_input first, then PE), a blank row
     * between tokens: the screen is used, not left blank under them */
    int xr = 0;
    if (rb > 1 && fit >= (int)T && T > 0) {
        int strips = (rows - 6) / (int)T - 1;
        strips = strips > 3 * 8 + 2 ? 3 * 8 + 2 : strips;
        rb = strips / 3, xr = strips % 3, per = strips + 1;
    }
    size_t first = t->tok >= (size_t)fit ? t->tok - (size_t)fit + 1 : 0;
    int ry = y + 2;
    double sum_e = 0, sum_p = 0;
    for (size_t i = 0; i < T; i++) {
        for (int j = 0; j < d; j++)
            emb[j] = a->emb_scale * a->x_emb[i * d + j];
        sum_e += la_norm(emb, (size_t)d);
        sum_p += la_norm(a->pe + i * d, (size_t)d);
    }
    /* with trained/loaded vectors, one line says how many rows of this sentence are trained */
    size_t n_trained = 0;
    for (size_t i = 0; i < T; i++)
        n_trained += embedding_row_is_set(&a->emb, a->tokens.items[i].id);
    int extra = a->emb.n_set ? 1 : 0;
    for (size_t i = first; i < T && ry + 3 * rb + xr <= y + rows - 4 - extra; i++) {
        for (int j = 0; j < d; j++)
            emb[j] = a->emb_scale * a->x_emb[i * d + j];
        draw_bars(t, w, i, emb, ry, x, rb, xr, bw, m);
        ry += per;
    }
    char tok[128];
    size_t s = t->tok;
    long base = a->cfg.index_base;
    tui_fit_f(w, y + rows - 4 - extra, x + 1, cols - 2, base ? txtf(T_I_POS1) : txtf(T_I_POS0),
              base ? txtf(T_I_POS1_S) : txtf(T_I_POS0_S), tui_token(t, s, tok, sizeof tok), s + 1,
              a->pos[s]);
    tui_fit(w, y + rows - 3 - extra, x + 1, cols - 2, T_I_QKV, T_I_QKV_S, T, d);
    if (extra) {
        term_attr(w, A_BOLD, 0);
        term_printf(w, y + rows - 3, x + 1, cols - 2, txtf(T_I_TRAINED), n_trained, T);
        term_attr(w, A_NORMAL, 0);
    }
    tui_fit(w, y + rows - 2, x + 1, cols - 2, T_I_BALANCE, T_I_BALANCE_S, sum_e / (double)T,
            sum_p / (double)T);
    if (y + rows - 1 > ry)
        term_colorbar(w, y + rows - 1, x + 1, cols / 2 < 40 ? cols / 2 : 40, CMAP_RDBU, -m, m);
    snprintf(t->cursor, sizeof t->cursor, "X_input[%zu][0]=%.6f", s, a->x_input[s * d]);
    free(emb);
}

static int key(tui *t, void *state, int ch)
{
    (void)state;
    switch (ch) {
    case KEY_UP:
        return tui_step_token(t, -1);
    case KEY_DOWN:
        return tui_step_token(t, +1);
    case 's':
        t->cfg.scale_embedding = !t->cfg.scale_embedding;
        snprintf(t->msg, sizeof t->msg, "%s",
                 txt(t->cfg.scale_embedding ? T_SCALE_ON : T_SCALE_OFF));
        return TUI_RERUN;
    default:
        return TUI_IGNORED;
    }
}

const tui_view view_input = {
    .figure = "input", .tab = T_TAB_INPUT, .caption = T_CAP_INPUT, .keys = T_KEYS_INPUT,
    .needs = 0, .draw = draw, .key = key,
};
