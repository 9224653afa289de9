/* fig_order.c — the order figure: 我爱学习 vs 学习爱我, attention without PE, with PE and with
 * RoPE (C6). Three rows of square attention matrices per mode: sentence A, sentence B with its
 * rows and columns put back into A's token order (--order-b own: in B's own order), and
 * |A - B| on a scale from 0 of its own. Without positions the first two are the same picture
 * and the difference is blank; with PE and with RoPE they differ. Rows are queries, columns
 * keys, every one labelled by its token (by its number, with the numbered tokens above, when
 * the tokens do not fit; the middle token always keeps its label). Under each mode one reading
 * in one form: max|A - B| and the change of the outputs as a share of max|Z_A|; below them per
 * token of A the change of its output, and a note naming the head (which of the layer's) and
 * that it is random. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/emit.h"
#include "figures/draw.h"
#include "style.h"

/* "tag: sentence" as a label at most max_len points long, the sentence shortened with "…". */
static void sentence_label(fig *f, char *out, size_t n, const char *tag, const char *s,
                           size_t len, double max_len)
{
    char buf[120];
    for (size_t cap = sizeof buf;; cap = cap * 4 / 5) {
        text_markup(buf, cap, s, len);
        snprintf(out, n, "%s: %s", tag, buf);
        if (!too_wide(f, out, max_len) || cap < 12)
            return;
    }
}

/* "tag: 1 我  2 爱  3 学习", as many numbered tokens as fit in max_len points, then "…". */
static void numbered_label(fig *f, char *out, size_t n, const char *tag, const token_ticks *tt,
                           double max_len)
{
    size_t o = (size_t)snprintf(out, n, "%s:", tag);
    for (int i = 0; i < tt->n && o < n; i++) {
        size_t keep = o;
        o += (size_t)snprintf(out + o, n - o, "%s%d %s", i ? "  " : " ", i + 1, tt->labels[i]);
        if (too_wide(f, out, max_len) || o >= n) {
            snprintf(out + keep, n - keep, " …");
            return;
        }
    }
}

enum { NUM_LEN = 48 }; /* the room of a number's markup */

/* tt's numbers at pct percent of the tick size (pango's "N%", which SVG takes as a font-size). */
static void number_size(token_ticks *tt, int pct)
{
    for (int i = 0; i < tt->n; i++)
        if (pct < 100)
            snprintf(tt->labels[i], NUM_LEN, "<span size=\"%d%%\">%d</span>", pct, i + 1);
        else
            snprintf(tt->labels[i], NUM_LEN, "%d", i + 1);
}

/* The tick labels 1, 2, ..., n: a sentence's token numbers. */
static tf_status number_ticks(token_ticks *tt, int n)
{
    tt->n = n;
    tt->at = malloc((size_t)(n ? n : 1) * sizeof *tt->at);
    tt->labels = malloc((size_t)(n ? n : 1) * sizeof *tt->labels);
    tt->store = malloc((size_t)(n ? n : 1) * NUM_LEN);
    if (!tt->at || !tt->labels || !tt->store)
        return TF_ERR_NOMEM;
    for (int i = 0; i < n; i++) {
        tt->labels[i] = tt->store + (size_t)i * NUM_LEN;
        tt->at[i] = i;
    }
    number_size(tt, 100);
    return TF_OK;
}

/* Every how many of tt's labels an axis of cells `cell` points wide can label: the least k that
 * keeps the widest apart (on a y axis the rows, by their ink when ink). */
static int ticks_every(fig *f, const token_ticks *tt, double cell, bool vertical, bool ink)
{
    double maxw = 0, maxh = 0;
    for (int i = 0; i < tt->n; i++) {
        double w, h;
        fig_text_size(f, tt->labels[i], false, &w, &h);
        maxw = fmax(maxw, w);
        if (vertical)
            maxh = fmax(maxh, fig_row_label_room(f, tt->labels[i], ink));
    }
    double gap = 0.4 * fig_font_size(f);
    int k = cell > 0 ? (int)ceil((vertical ? maxh : maxw + gap) / cell - 1e-9) : 1;
    k = k < 1 ? 1 : k;
    while ((tt->n + k - 1) / k > FIG_MAX_TICKS)
        k++;
    return k;
}

/* Into p, every k-th of tt's labels from the middle token (which so keeps its label); k is the
 * larger of ticks_every's (cells `cell` wide) and the plan's (both languages alike). Returns k. */
static int pick_ticks(fig *f, const token_ticks *tt, double cell, bool vertical, bool ink,
                      token_ticks *p)
{
    int k = (int)fig_plan_max(f, (double)ticks_every(f, tt, cell, vertical, ink));
    p->n = 0;
    for (int i = (tt->n - 1) / 2 % k; i < tt->n; i += k) {
        p->at[p->n] = tt->at[i];
        p->labels[p->n++] = tt->labels[i];
    }
    return k;
}

/* Width of the widest of a token axis' first and last labels. */
static double edge_label_width(fig *f, const token_ticks *tp)
{
    double w0, w1, h;
    fig_text_size(f, tp->labels[0], false, &w0, &h);
    fig_text_size(f, tp->labels[tp->n - 1], false, &w1, &h);
    return fmax(w0, w1);
}

enum { ROWS = 3 }; /* A, B (in A's order or its own), |A - B| */

typedef struct {
    size_t T;
    bool own;                  /* B in its own token order (--order-b own) */
    bool numbers;              /* the ticks are token numbers, the tokens listed above */
    bool wide;                 /* a page across the text: the upper rows' x ticks unlabelled */
    token_ticks ta, tb, na, nr; /* A's and B's tokens; numbers on the columns, on the rows */
    token_ticks pa, pb;        /* the ticks drawn on A's x axes (and |A - B|'s), on B's */
    token_ticks pay, pby;      /* ... on their y axes */
    int nm;                    /* columns: three modes, or the schemes listed */
    const char *mode_title[SCHEME_COUNT];
    fig_rect grid;                 /* the rows of matrices */
    fig_axes ax[ROWS][SCHEME_COUNT]; /* [row: A, B, |A - B|][mode] */
    double cell, cellh;            /* a matrix's width and height (cellh >= cell) */
    double left, cbw;              /* the left margin, the colour bars */
    double gapx;                   /* between two squares */
    double fs;                     /* the label font size */
} order_grid;

/* The axes of row r, mode m (before they are placed). */
static void row_axes(fig_ctx *c, order_grid *g, int r, int m)
{
    static const txt_id row_name[ROWS] = {T_F_O_ROW_A, T_F_O_ROW_B, T_F_O_ROW_D};
    fig_axes *p = &g->ax[r][m];
    bool b = r == 1 && g->own;
    matrix_axes(p, (long)g->T, 0, (long)g->T, 0);
    set_token_axis(&p->x, b ? &g->pb : &g->pa);
    set_token_axis(&p->y, b ? &g->pby : &g->pay);
    p->y.hide = m > 0;
    p->y.ink_apart = g->numbers;
    /* across the text the page is low: the columns of the rows above the last are the same
     * tokens as the last row's (B in A's order), labelled there */
    p->x.hide = g->wide && !g->own && r < ROWS - 1;
    p->y.label = m == 0 ? fig_txt(c, r == 1 && g->own ? T_F_O_ROW_BOWN : row_name[r]) : NULL;
    p->x.label = r == ROWS - 1 ? fig_txt(c, T_F_O_KEY) : NULL;
    p->title = r == 0 ? g->mode_title[m] : NULL;
    p->title_is_name = true; /* the column's scheme: its only name */
    p->tag = r == 0 && m == 0 ? panel_tag(c, 0) : NULL;
    p->min_left = m == 0 ? g->left : 0;
}

/* The rows of equal squares, in two passes: pass 0 measures the left margin and the room of
 * titles and tick labels, pass 1 places the squares. */
static void grid_layout(fig_ctx *c, order_grid *g)
{
    double gapx = 0.5 * g->fs, extra[ROWS] = {0, 0, 0}, tick = fig_tick_len(c->f);
    fig_trial t = fig_try(c->f); /* pass 0 only measures: a squeeze there is no failure */
    g->left = 0; /* measured again with the ticks of now */
    for (int pass = 0; pass < 2; pass++) {
        double y0 = g->grid.y;
        for (int r = 0; r < ROWS; r++) {
            double rh = pass ? g->cellh + extra[r] : g->grid.h / ROWS;
            for (int m = 0; m < g->nm; m++) {
                row_axes(c, g, r, m);
                double x0 = g->grid.x + (m == 0 ? 0 : g->left + m * (g->cell + gapx) - tick);
                double w = m == 0 ? g->left + g->cell : g->cell + tick;
                fig_rect o = {x0, y0, pass ? w : g->grid.w / g->nm, rh};
                fig_axes_fit(c->f, &g->ax[r][m], o);
            }
            y0 += rh + (pass ? 0.3 * g->fs : 0);
        }
        if (pass == 1)
            break;
        fig_measured(c->f, &t);
        /* the rows' squares equally tall, the room around each row (a title, tick labels)
         * its own: together as tall as the grid */
        double avail_h = -(ROWS - 1) * 0.3 * g->fs / ROWS;
        for (int r = 0; r < ROWS; r++) {
            g->left = fmax(g->left, g->ax[r][0].used_left);
            avail_h += g->ax[r][0].r.h / ROWS;
        }
        double avail_w = (g->grid.w - g->left - g->cbw - (g->nm - 1) * gapx) / g->nm;
        g->cell = fmin(avail_w, avail_h);
        /* the gap keeps the last tick label of one square off the first of the next */
        double edge = fmax(edge_label_width(c->f, &g->pa), edge_label_width(c->f, &g->pb));
        gapx = fmax(gapx, edge + 0.4 * g->fs - g->cell / (double)g->T);
        avail_w = (g->grid.w - g->left - g->cbw - (g->nm - 1) * gapx) / g->nm;
        g->cell = fmin(avail_w, avail_h);
        /* a tall page: the rows of a square may grow to 1.6 times its width, so that each row
         * keeps room for its label */
        g->cellh = fmin(avail_h, 1.6 * g->cell);
        if (g->wide) { /* across the text the page is low: wider than tall rather than small */
            g->cell = fmax(g->cell, fmin(avail_w, 1.6 * avail_h));
            g->cellh = avail_h;
        }
        /* titles and tick labels around each row's squares */
        double rh0 = g->grid.h / ROWS;
        g->grid.h = (ROWS - 1) * 0.3 * g->fs;
        for (int r = 0; r < ROWS; r++) {
            extra[r] = rh0 - g->ax[r][0].r.h;
            g->grid.h += g->cellh + extra[r];
        }
    }
    g->gapx = gapx;
}
/* The note at the bottom, the longest of its forms that fits the width: which of the layer's
 * heads the numbers come from (as view 6 and --print order name it), and that it is random, so
 * the mechanism is what is shown. Returns its height. */
static double draw_note(fig_ctx *c, fig_rect area)
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
        fig_text_size(c->f, note, false, &nw, &nh);
        if (nw <= area.w)
            break;
    }
    if (nw > area.w) /* not even the shortest form: a taller page (its notes across it) */
        fig_set_cramped(c->f);
    fig_text(c->f, FIG_NOTE, note, false, area.x, area.y + area.h, 0, 1, false);
    return nh;
}

enum { READ_FORMS = 6 }; /* the forms of a reading, the last bare numbers */

/* Reading k (0 longest) of mode m: max|A - B| and the outputs' change ("0", "0%" without PE). */
static void order_reading(fig_ctx *c, int m, int k, char *out, size_t n)
{
    const tf_order_result *r = &c->a->order[m];
    char p[32], d[32];
    emit_percent(p, sizeof p, attention_order_is_zero(r) ? 0.0 : r->relative_diff);
    if (r->weight_diff < ATTN_WEIGHT_ROUNDING)
        snprintf(d, sizeof d, "0");
    else
        snprintf(d, sizeof d, "%.3f", r->weight_diff);
    bool z = c->zh;
    snprintf(out, n,
             k == 0   ? txtf_lang(T_F_O_READ0, z)
             : k == 1 ? txtf_lang(T_F_O_READ1, z)
             : k == 2 ? txtf_lang(T_F_O_READ2, z)
             : k == 3 ? txtf_lang(T_F_O_READ_WORDS, z)
             : k == 4 ? txtf_lang(T_F_O_READ3, z)
                      : txtf_lang(T_F_O_READ4, z),
             d, p);
}

/* Under each column its reading, in the longest form that fits every column. Returns the y
 * below the readings. */
static double draw_readings(fig_ctx *c, const order_grid *g, double max_h)
{
    double ry = g->grid.y + g->grid.h + 0.15 * g->fs, used = 0, max_w = g->cell + g->gapx;
    char rd[SCHEME_COUNT][160];
    double h[SCHEME_COUNT];
    bool fits = false;
    for (int k = 0; k < READ_FORMS && !fits; k++) {
        fits = true;
        for (int m = 0; m < g->nm; m++) {
            double w;
            order_reading(c, m, k, rd[m], sizeof rd[m]);
            fig_text_size(c->f, rd[m], false, &w, &h[m]);
            fits = fits && w <= max_w - 0.2 * g->fs && h[m] <= max_h;
        }
    }
    if (!fits) /* the shortest, and the page says it has no room */
        fig_set_cramped(c->f);
    for (int m = 0; m < g->nm; m++) {
        fig_text(c->f, FIG_TICK, rd[m], false, g->ax[ROWS - 1][m].r.x + g->cell / 2, ry, 0.5, 0,
                 false);
        used = fmax(used, h[m]);
    }
    return ry + used;
}

/* Column m's scheme: none, sinusoidal and RoPE, or under --scheme the schemes listed. */
static tf_scheme mode_scheme(const tf_analysis *A, int m)
{
    static const tf_scheme modes[3] = {SCHEME_NONE, SCHEME_SINUSOIDAL, SCHEME_ROPE};
    return A->order_by_scheme ? A->order_scheme[m] : modes[m % 3];
}

/* Below: per token of A (token where[t] of B), max |Z_B - Z_A| against the same token in the
 * other order, as a share of max |Z_A|; without positions 0 up to rounding: no bars. */
static void diff_bars(fig_ctx *c, const order_grid *g, fig_rect br, const size_t *where)
{
    const tf_analysis *A = c->a;
    size_t T = g->T;
    double top = 0.0;
    int nbar = 0; /* the modes that changed: their bars side by side at each token */
    fig_legend_item li[SCHEME_COUNT];
    char zero_label[SCHEME_COUNT][96];
    for (int m = 0; m < g->nm; m++) {
        nbar += !attention_order_is_zero(&A->order[m]);
        for (size_t t = 0; t < T && !attention_order_is_zero(&A->order[m]); t++)
            top = fmax(top, 100.0 * A->order[m].token_diff[t] / A->order[m].max_abs_output);
        txt_fmt_lang(zero_label[m], sizeof zero_label[m], T_F_MODE_ZERO, c->zh,
                     g->mode_title[m]);
        li[m] = (fig_legend_item){
            .label = attention_order_is_zero(&A->order[m]) ? zero_label[m] : g->mode_title[m],
            .color = style_scheme(mode_scheme(A, m), ROPE_SCALING_NONE)->color,
            .bar = true};
    }
    char ylabel[96]; /* a format: "%%" is its percent sign */
    txt_fmt_lang(ylabel, sizeof ylabel, T_F_MAX_DIFF, c->zh);
    if (too_wide(c->f, ylabel, 0.6 * br.h)) /* a low panel: its short form */
        txt_fmt_lang(ylabel, sizeof ylabel, T_F_MAX_DIFF_S, c->zh);
    fig_axes b = {.grid = true, .tag = panel_tag(c, 1)};
    b.x = (fig_axis){.lo = -0.5, .hi = T - 0.5, .label = fig_txt(c, T_F_TOKEN_A)};
    set_token_axis(&b.x, &g->pa);
    b.y = (fig_axis){.lo = 0.0, .hi = top > 0 ? top * 1.08 : 1.0, .label = ylabel};
    b.right = fig_legend_width(c->f, li, g->nm);
    b.legend = li, b.n_legend = g->nm;
    b.min_left = g->wide ? 0.0 : g->left; /* on a tall page, under the grid: its left margin */
    fig_axes_fit(c->f, &b, br);
    fig_axes_draw(c->f, &b);
    double bw = 0.8 / (nbar ? nbar : 1);
    for (size_t t = 0; t < T; t++)
        for (int m = 0, k = 0; m < g->nm; m++) {
            const tf_order_result *r = &A->order[m];
            if (attention_order_is_zero(r))
                continue;
            double x0 = t - 0.4 + k++ * bw;
            fig_bar(c->f, &b, x0, x0 + bw * 0.92, 0.0,
                    100.0 * r->token_diff[where[t]] / r->max_abs_output, li[m].color);
        }
    fig_legend(c->f, &b, li, g->nm, 4);
}

/* The rows' numbers at the tick size, or when their rows are too low for it (apart by their
 * ink) smaller, down to MIN_ROW_FONT points: every row labelled at one column up to eight
 * tokens. Both languages take the smaller (fig_plan_max). */
#define MIN_ROW_FONT 6.0
static void row_number_size(fig *f, order_grid *g, double row)
{
    int least = (int)ceil(100.0 * MIN_ROW_FONT / fig_font_size(f)), pct = 100;
    number_size(&g->nr, pct);
    while (g->numbers && pct - 5 >= least && ticks_every(f, &g->nr, row, true, true) > 1)
        number_size(&g->nr, pct -= 5);
    number_size(&g->nr, 100 - (int)fig_plan_max(f, 100.0 - pct));
}

/* The ticks: every token when the tokens fit the squares, else their numbers (the tokens listed
 * above the grid, the rows' perhaps smaller); every k-th, the middle one kept, if those do not. */
static void choose_ticks(fig_ctx *c, order_grid *g)
{
    double w = g->cell / (double)g->T, h = g->cellh / (double)g->T;
    token_ticks *p[4] = {&g->pa, &g->pb, &g->pay, &g->pby};
    const token_ticks *tok[2] = {&g->ta, &g->tb}, *num[2] = {&g->na, &g->nr};
    int ka = pick_ticks(c->f, &g->ta, w, false, false, p[0]);
    int kb = pick_ticks(c->f, &g->tb, w, false, false, p[1]);
    /* numbers in both languages when the tokens do not fit in either */
    g->numbers = fig_plan_drop(c->f, ka > 1 || (g->own && kb > 1));
    row_number_size(c->f, g, h);
    for (int i = 0; i < 4; i++) {
        bool y = i >= 2;
        pick_ticks(c->f, g->numbers ? num[y] : tok[i % 2], y ? h : w, y, y && g->numbers, p[i]);
    }
}

/* A and B (in A's order or its own) above the grid, shortened with "…", numbered with the ticks. */
static void draw_sentences(fig_ctx *c, const order_grid *g, fig_rect at)
{
    const tf_analysis *A = c->a;
    char la[1200], lb[1200];
    const char *tb = fig_txt(c, g->own ? T_F_O_B_OWN : T_F_O_B_ALIGNED);
    if (g->numbers)
        numbered_label(c->f, la, sizeof la, "A", &g->ta, at.w);
    else
        sentence_label(c->f, la, sizeof la, "A", A->text, A->text_len, at.w);
    if (g->numbers && g->own)
        numbered_label(c->f, lb, sizeof lb, tb, &g->tb, at.w);
    else
        sentence_label(c->f, lb, sizeof lb, tb, A->cmp_text, A->cmp_len, at.w);
    double lw, lh;
    fig_text_size(c->f, la, false, &lw, &lh);
    fig_text(c->f, FIG_LABEL, la, false, at.x, at.y, 0, 0, false);
    fig_text(c->f, FIG_LABEL, lb, false, at.x, at.y + lh, 0, 0, false);
}

/* The squares: A and B on the attention scale, |A - B| on its own from 0; their colour bars. */
static tf_status draw_squares(fig_ctx *c, order_grid *g, cmap_id cm, double lo, double hi,
                              double dhi)
{
    tf_status st = TF_OK;
    for (int r = 0; r < ROWS; r++)
        for (int m = 0; m < g->nm && st == TF_OK; m++) {
            fig_axes *p = &g->ax[r][m];
            p->r.w = g->cell, p->r.h = g->cellh;
            const tf_order_result *o = &c->a->order[m];
            const double *W = r == 0 ? o->A_a : r == 2 ? o->diff_map
                                          : g->own ? o->A_b : o->A_b_aligned; /* (T, T) */
            fig_matrix mat = {.f64 = W, .rows = (long)g->T, .cols = (long)g->T};
            st = r == 2 ? fig_heatmap(c->f, p, &mat, CMAP_CIVIDIS, 0.0, dhi)
                        : fig_heatmap(c->f, p, &mat, cm, lo, hi);
            fig_axes_draw(c->f, p);
        }
    int last = g->nm - 1;
    fig_rect cbr = {g->ax[0][last].r.x + g->cell, g->ax[0][last].r.y, g->cbw,
                    g->ax[1][last].r.y + g->cellh - g->ax[0][last].r.y};
    fig_colorbar(c->f, cbr, cm, lo, hi, fig_txt(c, T_F_ATTN_WEIGHT));
    fig_rect dbr = {cbr.x, g->ax[2][last].r.y, g->cbw, g->cellh};
    fig_colorbar(c->f, dbr, CMAP_CIVIDIS, 0.0, dhi, fig_txt(c, T_F_O_DIFF_BAR));
    return st;
}

static void order_grid_free(order_grid *g)
{
    token_ticks *all[] = {&g->ta, &g->tb, &g->na, &g->nr, &g->pa, &g->pb, &g->pay, &g->pby};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        token_ticks_free(all[i]);
}

static tf_status order_grid_init(fig_ctx *c, order_grid *g)
{
    tf_analysis *A = c->a;
    /* A's tokens, B's, and the ticks drawn: all the tokens until the squares' size is known */
    token_ticks *tt[6] = {&g->ta, &g->tb, &g->pa, &g->pb, &g->pay, &g->pby};
    for (int i = 0; i < 6; i++)
        if (token_ticks_make(tt[i], i % 2 ? &A->cmp_tokens : &A->tokens,
                             i % 2 ? A->cmp_text : A->text, 0, false) != TF_OK)
            return TF_ERR_NOMEM;
    if (number_ticks(&g->na, (int)g->T) != TF_OK || number_ticks(&g->nr, (int)g->T) != TF_OK)
        return TF_ERR_NOMEM;
    return TF_OK;
}

/* The scales: a sequential map over the range A's and B's matrices span (weights are >= 0),
 * and one from 0 to the largest |A - B| of the modes, rounded up to 0.01. */
static cmap_id order_scales(fig_ctx *c, const order_grid *g, double *lo, double *hi,
                            double *dhi)
{
    const tf_analysis *A = c->a;
    size_t T = g->T;
    double mn = INFINITY, mx = -INFINITY;
    *dhi = 0.0;
    for (int m = 0; m < g->nm; m++) {
        double a, b;
        minmax(A->order[m].A_a, T * T, &a, &b);
        mn = fmin(mn, a), mx = fmax(mx, b);
        minmax(A->order[m].A_b, T * T, &a, &b);
        mn = fmin(mn, a), mx = fmax(mx, b);
        *dhi = fmax(*dhi, A->order[m].weight_diff);
    }
    *dhi = ceil(*dhi * 100.0) / 100.0;
    if (!(*dhi > 0.0))
        *dhi = 0.01;
    return color_scale(c, mn, mx, lo, hi);
}

tf_status draw_order(fig_ctx *c)
{
    tf_analysis *A = c->a;
    order_grid g = {.T = A->tokens.n, .fs = fig_font_size(c->f), .nm = (int)A->n_order,
                    .own = c->req && c->req->order_own};
    /* the columns' titles: the three modes, or under --scheme the schemes listed */
    static const txt_id title[SCHEME_COUNT] = {
        [SCHEME_NONE] = T_F_NO_POS,       [SCHEME_SINUSOIDAL] = T_F_WITH_PE,
        [SCHEME_LEARNED] = T_F_S_LEARNED, [SCHEME_ROPE] = T_F_S_ROPE,
        [SCHEME_ALIBI] = T_F_S_ALIBI,     [SCHEME_T5] = T_F_S_T5};
    for (int m = 0; m < g.nm; m++)
        g.mode_title[m] = fig_txt(c, title[mode_scheme(A, m)]);
    size_t *where = malloc((g.T ? g.T : 1) * sizeof *where);
    if (!where || order_grid_init(c, &g) != TF_OK) {
        free(where);
        order_grid_free(&g);
        return TF_ERR_NOMEM;
    }
    attention_order_where(A->perm, g.T, where);
    double lo, hi, dhi;
    cmap_id cm = order_scales(c, &g, &lo, &hi, &dhi);
    g.cbw = fmax(fig_colorbar_width(c->f, lo, hi, fig_txt(c, T_F_ATTN_WEIGHT)),
                 fig_colorbar_width(c->f, 0.0, dhi, fig_txt(c, T_F_O_DIFF_BAR)));
    fig_rect area = c->area; /* the page above the note */
    double lh, tw, th; /* two lines of readings under the grid, at most */
    fig_text_size(c->f, "A", false, &tw, &lh);
    fig_text_size(c->f, "0%\n0%", false, &tw, &th);
    /* a wide page (full text width): the matrices on the left across its height, the two
     * sentences, the bars and the note beside them; a tall one: the sentences above, the bars
     * and the note below */
    bool wide = g.wide = area.w > 1.6 * area.h;
    fig_rect side = area; /* where the sentences, the bars and the note go */
    if (wide)
        side.x += 0.64 * area.w, side.w -= 0.64 * area.w;
    /* --venue: no note, the paper's caption says it */
    double nh = c->req->no_notes || wide ? 0 : draw_note(c, side) + 0.4 * g.fs;
    double top = 2 * lh + 0.4 * g.fs;
    area.h -= nh;
    fig_rect grid = wide ? (fig_rect){area.x, area.y, 0.62 * area.w, area.h - th}
                         : (fig_rect){area.x, area.y + top, area.w, (area.h - top - th) * 0.74};
    for (int pass = 0; pass < 3; pass++) { /* then with the ticks the squares' size allows */
        g.grid = grid;
        /* the tokens may not fit: passes 0 and 1 only measure, and make as many choices on
         * every page, so that the plan matches them across languages */
        fig_trial t = fig_try(c->f);
        grid_layout(c, &g);
        if (pass < 2) {
            choose_ticks(c, &g);
            fig_measured(c->f, &t);
        } else
            fig_tried(c->f, &t, true);
    }
    if (wide) { /* the side from the colour bars on */
        double x = g.ax[0][g.nm - 1].r.x + g.cell + g.cbw + 2.0 * g.fs;
        side.w -= x - side.x, side.x = x;
        nh = c->req->no_notes ? 0 : draw_note(c, side) + 0.4 * g.fs;
    }
    draw_sentences(c, &g, side);
    tf_status st = draw_squares(c, &g, cm, lo, hi, dhi);
    double ry = draw_readings(c, &g, th);
    fig_rect br = {area.x, ry + 0.5 * g.fs, area.w, area.y + area.h - (ry + 0.5 * g.fs)};
    if (wide)
        br = (fig_rect){side.x, side.y + top, side.w, side.h - top - nh};
    diff_bars(c, &g, br, where);
    free(where);
    order_grid_free(&g);
    return st;
}
