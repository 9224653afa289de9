/* fig_order.c — the order figure: 我爱学习 vs 学习爱我, attention without PE, with PE and with
 * RoPE (C6). Two rows of three square attention matrices (sentence A above, B below), one colour
 * bar, under each mode a reading of what it shows, below them per token of B the change of its
 * output between the two orders as a share of max|Z_A|, and a note naming the head (which of the
 * layer's) and that it is random. */
#include <math.h>
#include <stdio.h>

#include "core/emit.h"
#include "figures/draw.h"
#include "style.h"

/* "tag: sentence" as a label at most max_len points long, the sentence shortened with "…". */
static void sentence_label(fig *f, char *out, size_t n, const char *tag, const char *s,
                           size_t len, double max_len)
{
    char buf[120];
    for (size_t cap = sizeof buf;; cap = cap * 4 / 5) {
        token_markup(buf, cap, s, len);
        snprintf(out, n, "%s: %s", tag, buf);
        double w, h;
        fig_text_size(f, FIG_LABEL, out, false, &w, &h);
        if (w <= max_len || cap < 12)
            return;
    }
}

/* Width of the widest of a token axis' first and last labels. */
static double edge_label_width(fig *f, const token_ticks *tt)
{
    double w0 = 0, w1 = 0, h;
    if (tt->n > 0) {
        fig_text_size(f, FIG_TICK, tt->labels[0], false, &w0, &h);
        fig_text_size(f, FIG_TICK, tt->labels[tt->n - 1], false, &w1, &h);
    }
    return fmax(w0, w1);
}

typedef struct {
    size_t T;
    token_ticks ta, tb;                  /* the tokens of A and of B */
    int nm;                              /* columns: three modes, or the schemes listed */
    const char *mode_title[SCHEME_COUNT];
    fig_rect area;                       /* the page above the note */
    fig_rect grid;                       /* the two rows of matrices */
    fig_axes ax[2][SCHEME_COUNT];        /* [row: A, B][mode] */
    double cell, left, cbw;              /* a square's side, the left margin, the colour bar */
    double gapx;                         /* between two squares */
    double fs;                           /* the label font size */
} order_grid;

/* The two rows of three equal squares, in two passes: pass 0 measures the left margin and the
 * room of titles and tick labels, pass 1 places the squares. */
static void grid_layout(fig_ctx *c, order_grid *g)
{
    double gapx = 0.5 * g->fs, extra[2] = {0, 0};
    for (int pass = 0; pass < 2; pass++) {
        for (int r = 0; r < 2; r++)
            for (int m = 0; m < g->nm; m++) {
                fig_axes *p = &g->ax[r][m];
                matrix_axes(p, (long)g->T, 0, (long)g->T, 0);
                set_token_axis(&p->x, r ? &g->tb : &g->ta);
                set_token_axis(&p->y, r ? &g->tb : &g->ta);
                p->y.hide = m > 0;
                p->y.label = m == 0 ? (r ? "B" : "A") : NULL;
                p->title = r == 0 ? g->mode_title[m] : NULL;
                p->title_is_name = true; /* the column's scheme: its only name */
                p->tag = r == 0 && m == 0 ? panel_tag(c, 0) : NULL;
                p->min_left = m == 0 ? g->left : 0;
                double x0 = g->grid.x + (m == 0 ? 0
                                                : g->left + m * (g->cell + gapx) -
                                                      fig_tick_len(c->f));
                double w = m == 0 ? g->left + g->cell : g->cell + fig_tick_len(c->f);
                double rh = pass ? g->cell + extra[r] : g->grid.h / 2;
                double y0 = g->grid.y + (pass && r ? g->cell + extra[0] + 0.3 * g->fs : r * rh);
                fig_rect o = {x0, y0, pass ? w : g->grid.w / g->nm, rh};
                fig_axes_fit(c->f, p, o);
            }
        if (pass == 1) {
            g->gapx = gapx;
            break;
        }
        g->left = fmax(g->ax[0][0].used_left, g->ax[1][0].used_left);
        double avail_w = (g->grid.w - g->left - g->cbw - (g->nm - 1) * gapx) / g->nm;
        double avail_h = fmin(g->ax[0][0].r.h, g->ax[1][0].r.h);
        g->cell = fmin(avail_w, avail_h);
        /* the gap keeps the last tick label of one square off the first of the next */
        double edge = fmax(edge_label_width(c->f, &g->ta), edge_label_width(c->f, &g->tb));
        double need = edge + 0.4 * g->fs - g->cell / (double)g->T;
        if (need > gapx) {
            gapx = need;
            g->cell = fmin((g->grid.w - g->left - g->cbw - (g->nm - 1) * gapx) / g->nm,
                           avail_h);
        }
        /* titles and tick labels around each row's squares */
        extra[0] = g->grid.h / 2 - g->ax[0][0].r.h;
        extra[1] = g->grid.h / 2 - g->ax[1][0].r.h;
        g->grid.h = 2 * g->cell + extra[0] + extra[1] + 0.3 * g->fs;
    }
}

/* The note at the bottom, the longest of its forms that fits the width: which of the layer's
 * heads the numbers come from (as view 6 and --print order name it), and that it is random, so
 * the mechanism is what is shown. Returns its height. */
static double draw_note(fig_ctx *c)
{
    const tf_analysis *A = c->a;
    int head = A->order_head.head + 1, heads = A->order_by_scheme ? 1 : ATTN_HEADS;
    char note[400];
    double nw, nh;
    for (int k = 0; k < 3; k++) {
        snprintf(note, sizeof note,
                 k == 0   ? txtf_lang(T_F_O_NOTE0, c->zh)
                 : k == 1 ? txtf_lang(T_F_O_NOTE1, c->zh)
                          : txtf_lang(T_F_O_NOTE2, c->zh),
                 head, heads);
        fig_text_size(c->f, FIG_NOTE, note, false, &nw, &nh);
        if (nw <= c->area.w)
            break;
    }
    fig_text(c->f, FIG_NOTE, note, false, c->area.x, c->area.y + c->area.h, 0, 1, false);
    return nh;
}

/* The reading of mode m for the column under its heatmaps: the longest of its forms that fits
 * in max_w x max_h points (one line, or two). */
static void order_reading(fig_ctx *c, int m, double max_w, double max_h, char *out, size_t n)
{
    const tf_order_result *r = &c->a->order[m];
    char p[32];
    emit_percent(p, sizeof p, r->relative_diff);
    static const txt_id same[4] = {T_F_O_SAME0, T_F_O_SAME1, T_F_O_SAME2, T_F_O_SAME3};
    bool zero = attention_order_is_zero(r);
    for (int k = 0; k < 4; k++) {
        if (zero)
            snprintf(out, n, "%s", fig_txt(c, same[k]));
        else if (k < 3)
            snprintf(out, n,
                     k == 0   ? txtf_lang(T_F_O_CHANGES0, c->zh)
                     : k == 1 ? txtf_lang(T_F_O_CHANGES1, c->zh)
                              : txtf_lang(T_F_O_CHANGES2, c->zh),
                     p);
        else
            snprintf(out, n, "%s", p);
        double w, h;
        fig_text_size(c->f, FIG_TICK, out, false, &w, &h);
        if (w <= max_w && h <= max_h)
            return;
    }
}

/* Under each column, one line: what the mode shows. Returns the y below the readings. */
static double draw_readings(fig_ctx *c, const order_grid *g, double th)
{
    double ry = g->grid.y + g->grid.h + 0.15 * g->fs, used = 0;
    double one_w, one_h;
    fig_text_size(c->f, FIG_TICK, "0%", false, &one_w, &one_h);
    for (int m = 0; m < g->nm; m++) {
        char rd[128];
        double w, h;
        order_reading(c, m, g->cell + g->gapx - 0.2 * g->fs, th, rd, sizeof rd);
        fig_text_size(c->f, FIG_TICK, rd, false, &w, &h);
        fig_text(c->f, FIG_TICK, rd, false, g->ax[1][m].r.x + g->cell / 2, ry, 0.5, 0, false);
        used = fmax(used, h);
    }
    return ry + fmax(used, one_h);
}

/* Column m's scheme style: the three modes are none, sinusoidal and RoPE. */
static const scheme_style *mode_style(const tf_analysis *A, int m)
{
    static const tf_scheme modes[3] = {SCHEME_NONE, SCHEME_SINUSOIDAL, SCHEME_ROPE};
    tf_scheme s = A->order_by_scheme ? A->order_scheme[m] : modes[m % 3];
    return style_scheme(s, ROPE_SCALING_NONE);
}

/* Below: per token of B, max |Z_B - Z_A| against the same token in A, as a share of max |Z_A|;
 * without positions it is 0 up to rounding, so it has no bars. */
static void diff_bars(fig_ctx *c, const order_grid *g, fig_rect br, double min_left)
{
    const tf_analysis *A = c->a;
    size_t T = g->T;
    double top = 0.0;
    for (int m = 0; m < g->nm; m++)
        for (size_t t = 0; t < T && !attention_order_is_zero(&A->order[m]); t++)
            top = fmax(top, 100.0 * A->order[m].token_diff[t] / A->order[m].max_abs_output);
    fig_legend_item li[SCHEME_COUNT];
    char zero_label[SCHEME_COUNT][96];
    for (int m = 0; m < g->nm; m++) {
        txt_fmt_lang(zero_label[m], sizeof zero_label[m], T_F_MODE_ZERO, c->zh,
                     g->mode_title[m]);
        li[m] = (fig_legend_item){.label = attention_order_is_zero(&A->order[m])
                                               ? zero_label[m]
                                               : g->mode_title[m],
                                  .color = mode_style(A, m)->color, .bar = true};
    }
    char ylabel[96]; /* a format: "%%" is its percent sign */
    txt_fmt_lang(ylabel, sizeof ylabel, T_F_MAX_DIFF, c->zh);
    fig_axes b = {.grid = true, .tag = panel_tag(c, 1)};
    b.x = (fig_axis){.lo = -0.5, .hi = T - 0.5, .n = g->tb.n, .at = g->tb.at,
                     .labels = (const char *const *)g->tb.labels,
                     .label = fig_txt(c, T_F_TOKEN_B)};
    b.y = (fig_axis){.lo = 0.0, .hi = top > 0 ? top * 1.08 : 1.0,
                     .label = ylabel};
    b.right = fig_legend_width(c->f, li, g->nm);
    b.min_left = min_left;
    fig_axes_fit(c->f, &b, br);
    fig_axes_draw(c->f, &b);
    /* the modes that changed, side by side at each token */
    int nbar = 0;
    for (int m = 0; m < g->nm; m++)
        nbar += !attention_order_is_zero(&A->order[m]);
    double bw = 0.8 / (nbar ? nbar : 1);
    for (size_t t = 0; t < T; t++)
        for (int m = 0, k = 0; m < g->nm; m++) {
            const tf_order_result *r = &A->order[m];
            if (attention_order_is_zero(r))
                continue;
            double x0 = t - 0.4 + k++ * bw;
            fig_bar(c->f, &b, x0, x0 + bw * 0.92, 0.0,
                    100.0 * r->token_diff[t] / r->max_abs_output, li[m].color);
        }
    fig_legend(c->f, &b, li, g->nm, 4);
}

/* The columns' titles: the three modes, or under --scheme the schemes listed. */
static void column_titles(fig_ctx *c, order_grid *g)
{
    const tf_analysis *A = c->a;
    if (!A->order_by_scheme) {
        g->mode_title[0] = fig_txt(c, T_F_NO_POS);
        g->mode_title[1] = fig_txt(c, T_F_WITH_PE);
        g->mode_title[2] = "RoPE";
        return;
    }
    for (int m = 0; m < g->nm; m++) {
        static const txt_id title[SCHEME_COUNT] = {
            [SCHEME_NONE] = T_F_NO_POS, [SCHEME_SINUSOIDAL] = T_F_WITH_PE,
            [SCHEME_LEARNED] = T_F_S_LEARNED, [SCHEME_ROPE] = T_F_S_ROPE,
            [SCHEME_ALIBI] = T_F_S_ALIBI, [SCHEME_T5] = T_F_S_T5};
        g->mode_title[m] = fig_txt(c, title[A->order_scheme[m]]);
    }
}

tf_status draw_order(fig_ctx *c)
{
    tf_analysis *A = c->a;
    order_grid g = {.T = A->tokens.n, .fs = fig_font_size(c->f, FIG_LABEL),
                    .nm = (int)A->n_order};
    column_titles(c, &g);
    size_t T = g.T;
    if (token_ticks_make(&g.ta, &A->tokens, A->text, 0, false) != TF_OK ||
        token_ticks_make(&g.tb, &A->cmp_tokens, A->cmp_text, 0, false) != TF_OK) {
        token_ticks_free(&g.ta);
        token_ticks_free(&g.tb);
        return TF_ERR_NOMEM;
    }
    /* weights are >= 0: a sequential map over the range the six matrices span */
    double mn = INFINITY, mx = -INFINITY, lo, hi;
    for (int m = 0; m < g.nm; m++) {
        double a, b;
        minmax(A->order[m].A_a, T * T, &a, &b);
        mn = fmin(mn, a), mx = fmax(mx, b);
        minmax(A->order[m].A_b, T * T, &a, &b);
        mn = fmin(mn, a), mx = fmax(mx, b);
    }
    cmap_id cm = color_scale(c, mn, mx, &lo, &hi);
    const char *cb = fig_txt(c, T_F_ATTN_WEIGHT);
    g.cbw = fig_colorbar_width(c->f, lo, hi, cb);

    g.area = c->area;
    if (!c->no_notes) /* --venue: the paper's caption says it */
        g.area.h -= draw_note(c) + 0.4 * g.fs;
    /* the two sentences in full width above the grid (shortened with "…" if need be); the
     * rows are labelled A and B */
    char la[160], lb[160];
    sentence_label(c->f, la, sizeof la, "A", A->text, A->text_len, g.area.w);
    sentence_label(c->f, lb, sizeof lb, "B", A->cmp_text, A->cmp_len, g.area.w);
    double lw, lh;
    fig_text_size(c->f, FIG_LABEL, la, false, &lw, &lh);
    fig_text(c->f, FIG_LABEL, la, false, g.area.x, g.area.y, 0, 0, false);
    fig_text(c->f, FIG_LABEL, lb, false, g.area.x, g.area.y + lh, 0, 0, false);
    double tw, th; /* two lines of readings under the grid, at most */
    fig_text_size(c->f, FIG_TICK, "0%\n0%", false, &tw, &th);
    g.grid = g.area;
    g.grid.y += 2 * lh + 0.4 * g.fs;
    /* a wide page (full text width): the matrices on the left, the bars beside them; a tall
     * one: the bars below */
    bool wide = g.area.w > 1.6 * g.area.h;
    g.grid.h = g.area.h - 2 * lh - 0.4 * g.fs - th;
    if (wide)
        g.grid.w = 0.56 * g.area.w;
    else
        g.grid.h *= 0.64;
    grid_layout(c, &g);
    tf_status st = TF_OK;
    for (int r = 0; r < 2; r++)
        for (int m = 0; m < g.nm && st == TF_OK; m++) {
            fig_axes *p = &g.ax[r][m];
            p->r.w = p->r.h = g.cell;
            const double *W = r ? A->order[m].A_b : A->order[m].A_a; /* (T, T) */
            st = fig_heatmap(c->f, p, &(fig_matrix){.f64 = W, .rows = (long)T, .cols = (long)T},
                             cm, lo, hi);
            fig_axes_draw(c->f, p);
        }
    int last = g.nm - 1;
    fig_rect cbr = {g.ax[0][last].r.x + g.cell, g.ax[0][last].r.y, g.cbw,
                    g.ax[1][last].r.y + g.cell - g.ax[0][last].r.y};
    fig_colorbar(c->f, cbr, cm, lo, hi, cb);
    double ry = draw_readings(c, &g, th);
    fig_rect br = {g.area.x, ry + 0.5 * g.fs, g.area.w, g.area.y + g.area.h - (ry + 0.5 * g.fs)};
    if (wide) {
        double x0 = cbr.x + cbr.w + 2.0 * g.fs; /* right of the colour bar's label */
        br = (fig_rect){x0, g.grid.y, g.area.x + g.area.w - x0, g.area.y + g.area.h - g.grid.y};
    }
    diff_bars(c, &g, br, wide ? 0.0 : g.left);
    token_ticks_free(&g.ta);
    token_ticks_free(&g.tb);
    return st;
}
