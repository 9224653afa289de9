/* fig_tokens.c — the figures of the sentence's matrices: its rows of W_E (C3, C4; with learned
 * vectors the map of words below them) and X_input = X_emb + PE per token (C11). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "figures/draw.h"

/* ---------------------------------------------------------------------------------------------
 * embedding: the sentence's rows of W_E (C3, C4), and with learned vectors the map of words */

tf_status draw_embedding(fig_ctx *c)
{
    if (c->req->vectors && c->req->vectors->n >= 2) { /* heatmap above, map below */
        fig_rect below = {c->area.x, c->area.y + c->area.h * 0.42, c->area.w, c->area.h * 0.58};
        c->area.h *= 0.38;
        tf_status st = draw_word_map(c, below, true);
        if (st != TF_OK)
            return st;
    }
    tf_analysis *A = c->a;
    size_t T = A->tokens.n, d = (size_t)A->cfg.d_model;
    token_ticks tt = {0};
    if (token_ticks_make(&tt, &A->tokens, A->text, 0, true) != TF_OK) {
        token_ticks_free(&tt);
        return TF_ERR_NOMEM;
    }
    double mn = INFINITY, mx = -INFINITY;
    for (size_t i = 0; i < T * d; i++) {
        mn = fmin(mn, A->x_emb[i]);
        mx = fmax(mx, A->x_emb[i]);
    }
    double lo, hi;
    cmap_id cm = color_scale(c, mn, mx, &lo, &hi);
    fig_axes ax;
    matrix_axes(&ax, (long)T, 0, (long)d, 0);
    set_token_axis(&ax.y, &tt);
    ax.x.label = fig_txt(c, T_F_DIM);
    ax.y.label = fig_txt(c, T_F_TOKEN_ID);
    char t[200];
    if (A->emb.n_set)
        txt_fmt_lang(t, sizeof t, T_F_EMB_TRAINED, c->zh, A->emb.vocab_size, d, A->emb.n_set);
    else
        txt_fmt_lang(t, sizeof t, T_F_EMB_RANDOM, c->zh, A->emb.vocab_size, d);
    ax.title = t;         /* a subtitle: what W_E is, kept under --no-title */
    ax.title_wraps = true; /* on two lines on a narrow page */
    const char *cb = "<i>W</i><sub>E</sub>[id, <i>j</i>]";
    ax.right = fig_colorbar_width(c->f, lo, hi, cb);
    fig_axes_fit(c->f, &ax, c->area);
    fig_matrix m = {.f32 = A->x_emb, .rows = (long)T, .cols = (long)d};
    char xl[240];
    if (averaged_label(c, &ax, &m, fig_txt(c, T_F_DIM), xl, sizeof xl)) {
        fig_axes_fit(c->f, &ax, c->area);
        averaged_label(c, &ax, &m, fig_txt(c, T_F_DIM), xl, sizeof xl);
    }
    tf_status st = fig_heatmap(c->f, &ax, &m, cm, lo, hi);
    fig_axes_draw(c->f, &ax);
    fig_colorbar(c->f, colorbar_rect(&ax), cm, lo, hi, cb);
    token_ticks_free(&tt);
    return st;
}

/* ---------------------------------------------------------------------------------------------
 * input: per token X_emb, PE(pos) and X_input = X_emb + PE (C11) */

/* The three panels, stacked with equal plot heights and aligned left edges, room for the colour
 * bar (cbw) at their right. */
static void input_layout(fig_ctx *c, fig_axes ax[3], size_t T, size_t d, const token_ticks *tt,
                         const char *const titles[3], double cbw, const char *xlabel)
{
    double gap = 0.3 * fig_font_size(c->f);
    for (int pass = 0; pass < 2; pass++) {
        /* pass 0 measures the room the bottom panel's x labels take and the widest left margin */
        double min_left = pass ? fmax(fmax(ax[0].used_left, ax[1].used_left), ax[2].used_left) : 0;
        double extra = pass ? ax[0].r.h - ax[2].r.h : 0;
        double ph = (c->area.h - 2 * gap - extra) / 3; /* the bottom one extra high */
        double y = c->area.y;
        for (int k = 0; k < 3; k++) {
            matrix_axes(&ax[k], (long)T, 0, (long)d, 0);
            set_token_axis(&ax[k].y, tt);
            ax[k].title = titles[k];
            /* X_emb, PE, X_input: each panel's only name (and the first's own-scale note) */
            ax[k].title_is_name = true;
            ax[k].tag = panel_tag(c, k);
            ax[k].right = cbw;
            ax[k].min_left = min_left;
            ax[k].x.hide = k < 2;
            ax[k].x.label = k == 2 ? xlabel : NULL;
            ax[k].y.label = k == 1 ? fig_txt(c, T_F_TOKEN) : NULL;
            fig_axes_fit(c->f, &ax[k],
                         (fig_rect){c->area.x, y, c->area.w, k == 2 ? ph + extra : ph});
            /* the colour bar runs beside the lower panels: their titles keep left of it (and
             * right of a panel letter) */
            if (k > 0) {
                ax[k].outer.w -= cbw;
                double th, lw = 0;
                if (ax[k].tag) {
                    fig_text_size(c->f, ax[k].tag, false, &lw, &th);
                    lw += 0.5 * fig_font_size(c->f);
                }
                if (too_wide(c->f, titles[k], ax[k].outer.w - lw))
                    fig_set_cramped(c->f);
            }
            y += ph + gap;
        }
    }
}

tf_status draw_input(fig_ctx *c)
{
    tf_analysis *A = c->a;
    size_t T = A->tokens.n, d = (size_t)A->cfg.d_model;
    double *emb = malloc(T * d * sizeof *emb); /* (T, d) emb_scale * x_emb */
    token_ticks tt = {0};
    tf_status st = token_ticks_make(&tt, &A->tokens, A->text, 0, false);
    if (!emb || st != TF_OK) {
        free(emb);
        token_ticks_free(&tt);
        return TF_ERR_NOMEM;
    }
    for (size_t i = 0; i < T * d; i++)
        emb[i] = A->emb_scale * A->x_emb[i];
    const double *mats[3] = {emb, A->pe, A->x_input};
    double mn[3], mx[3]; /* of each matrix */
    for (int k = 0; k < 3; k++)
        minmax(mats[k], T * d, &mn[k], &mx[k]);
    double lo, hi;
    cmap_id cm =
        color_scale(c, fmin(fmin(mn[0], mn[1]), mn[2]), fmax(fmax(mx[0], mx[1]), mx[2]), &lo, &hi);
    /* X_emb on the shared scale would be blank (small random vectors next to PE's +-1): its own
     * scale and colour bar then, said in its title */
    double lo0 = lo, hi0 = hi;
    bool own = !c->req->has_vmin && !c->req->has_vmax &&
               fmax(fabs(mn[0]), fabs(mx[0])) < 0.2 * fmax(fabs(lo), fabs(hi));
    if (own)
        color_scale(c, mn[0], mx[0], &lo0, &hi0);
    const char *emb_name =
        A->cfg.scale_embedding ? "√<i>d</i> ⋅ <i>X</i><sub>emb</sub>" : "<i>X</i><sub>emb</sub>";
    char t0[160], t2[160];
    snprintf(t0, sizeof t0, "%s%s", emb_name, own ? fig_txt(c, T_F_OWN_SCALE) : "");
    snprintf(t2, sizeof t2, "<i>X</i><sub>input</sub> = %s + PE", emb_name);
    const char *titles[3] = {t0, fig_txt(c, T_F_PE_POS), t2};
    const char *cb = fig_txt(c, T_F_VALUE);
    double cbw = fmax(fig_colorbar_width(c->f, lo, hi, cb),
                      own ? fig_colorbar_width(c->f, lo0, hi0, NULL) : 0.0);
    fig_axes ax[3];
    input_layout(c, ax, T, d, &tt, titles, cbw, fig_txt(c, T_F_DIM));
    /* PE's sin and cos columns (and X_input's with them) split where they would be averaged;
     * the x label says so and whether pixels average */
    fig_matrix m = {.rows = (long)T, .cols = (long)d, .row = split_col_row};
    bool split = pe_split_for(c, &ax[2], &m);
    const char *dim = fig_txt(c, split ? T_F_DIM_SPLIT_S : T_F_DIM);
    char xl[240];
    if (averaged_label(c, &ax[2], &m, dim, xl, sizeof xl)) {
        input_layout(c, ax, T, d, &tt, titles, cbw, ax[2].x.label);
        averaged_label(c, &ax[2], &m, dim, xl, sizeof xl);
    }
    split_cols sc = {NULL, (int)d};
    for (int k = 0; k < 3 && st == TF_OK; k++) {
        sc.v = mats[k];
        m = split ? (fig_matrix){.rows = (long)T, .cols = (long)d, .row = split_col_row, .ctx = &sc}
                  : (fig_matrix){.f64 = mats[k], .rows = (long)T, .cols = (long)d};
        st = fig_heatmap(c->f, &ax[k], &m, cm, k || !own ? lo : lo0, k || !own ? hi : hi0);
        fig_axes_draw(c->f, &ax[k]);
        if (split) /* where the odd (cos) columns start */
            fig_segment(c->f, &ax[k], d / 2.0 - 0.5, ax[k].y.lo, d / 2.0 - 0.5, ax[k].y.hi,
                        (tf_rgb){0, 0, 0}, 1.5 * 0.075 * fig_font_size(c->f), FIG_SOLID);
    }
    if (own)
        fig_colorbar(c->f, colorbar_rect(&ax[0]), cm, lo0, hi0, NULL);
    const fig_rect *top = &ax[own].r; /* the shared bar runs beside the panels from this one */
    fig_rect cbr = {top->x + top->w, top->y, cbw, ax[2].r.y + ax[2].r.h - top->y};
    fig_colorbar(c->f, cbr, cm, lo, hi, cb);
    free(emb);
    token_ticks_free(&tt);
    return st;
}
