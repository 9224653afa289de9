/* view_relative.c — view 4: every position differs, and PE(pos+k) = M_k PE(pos) (C9, C10).
 *
 * Left: PE . PE^T between the first positions (posenc_gram), constant along every diagonal
 * because PE(p) . PE(q) depends on p - q only. Right: the nearest pair of positions (from the
 * analysis), and M_k applied to PE(pos) next to PE(pos+k) with their residual. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "posenc.h"
#include "tui/view.h"

typedef struct {
    long pos;       /* pos of the M_k demonstration */
    double *gram;   /* (gram_n, gram_n) PE . PE^T, cached: it depends on these four only */
    long gram_n, gram_pos0;
    int gram_d;
    double gram_base;
} rel_state;

static void *init(tui *t)
{
    (void)t;
    rel_state *r = calloc(1, sizeof *r);
    if (r)
        r->pos = 3;
    return r;
}

static void release(void *state)
{
    rel_state *r = state;
    if (r)
        free(r->gram);
    free(r);
}

typedef struct {
    const double *g;
    long n;
} gram_ctx;

static double gram_px(void *ctx, int py, int px)
{
    const gram_ctx *c = ctx;
    return py < c->n && px < c->n ? c->g[(size_t)py * c->n + px] : NAN;
}

/* posenc_gram of n positions (n^2 d / 2 multiply-adds: 19 M at n = 96, d_model 4096) on the
 * worker (work.c); its tag is what it depends on: d_model, n, the first position, the base. */
typedef struct {
    long pos0, n;
    int d;
    double base;
    double *g;
    tf_status st;
} gram_job;

static bool gram_run(void *ctx, const atomic_bool *cancel)
{
    gram_job *j = ctx;
    if (atomic_load(cancel))
        return false;
    j->g = malloc((size_t)j->n * j->n * sizeof *j->g);
    j->st = j->g ? posenc_gram(j->pos0, j->n, j->d, j->base, j->g) : TF_ERR_NOMEM;
    return true;
}

static void gram_drop(void *ctx)
{
    gram_job *j = ctx;
    free(j->g);
    free(j);
}

static const work_kind gram_kind = {gram_run, gram_drop};

static uint64_t gram_tag(const tf_config *c, long n)
{
    uint64_t b;
    memcpy(&b, &c->base, sizeof b);
    return (uint64_t)c->d_model | (uint64_t)n << 16 | (uint64_t)c->index_base << 24 |
           (b >> 32) << 32;
}

/* posenc_gram of n positions, kept while n, d_model, the base and the first position stay
 * (another n_positions, sentence or k does not change it); NULL while the worker makes it (a
 * small one is waited for). */
static const double *gram_for(const tui *t, rel_state *r, long n)
{
    const tf_config *c = &t->a->cfg;
    if (r->gram && r->gram_n == n && r->gram_d == c->d_model && r->gram_base == c->base &&
        r->gram_pos0 == c->index_base)
        return r->gram;
    uint64_t tag = gram_tag(c, n);
    gram_job *j = work_take(r, tag);
    if (!j && !work_pending(r, tag)) {
        j = calloc(1, sizeof *j);
        if (!j)
            return NULL;
        *j = (gram_job){.pos0 = c->index_base, .n = n, .d = c->d_model, .base = c->base};
        work_submit(r, tag, &gram_kind, j);
        if ((double)n * n * c->d_model < 4e6)
            work_wait(r, tag, WORK_QUICK_MS);
        j = work_take(r, tag);
    }
    if (!j)
        return NULL;
    if (j->st != TF_OK) {
        gram_drop(j);
        return NULL;
    }
    free(r->gram);
    r->gram = j->g;
    j->g = NULL;
    gram_drop(j);
    r->gram_n = n, r->gram_d = c->d_model, r->gram_base = c->base, r->gram_pos0 = c->index_base;
    return r->gram;
}

/* A table header without its last column ("j PE(4) M_1 PE(3) |diff|" loses "|diff|"). */
static void drop_last_column(char *hdr)
{
    size_t l = strlen(hdr);
    while (l > 0 && hdr[l - 1] != ' ')
        l--;
    while (l > 0 && hdr[l - 1] == ' ')
        l--;
    hdr[l] = '\0';
}

/* `shown` rows of PE(pos+k) beside M_k PE(pos) (and their difference unless narrow) from row py,
 * the last one the last dimension after a "..." row. Returns the row below. */
static int draw_rows(WINDOW *w, int py, int px, int pw, const double *pe_k, const double *shifted,
                     int d, int shown, bool narrow)
{
    for (int j = 0; j < shown; j++) {
        int jj = j < shown - 1 || shown == d ? j : d - 1; /* the last line shows the last dim */
        if (j == shown - 2 && shown < d) {
            term_text(w, py++, px, "   ...", pw);
            continue;
        }
        if (narrow)
            term_printf(w, py++, px, pw, "%4d %+10.6f  %+10.6f", jj, pe_k[jj], shifted[jj]);
        else
            term_printf(w, py++, px, pw, "%4d %+10.6f  %+10.6f %8.1e", jj, pe_k[jj], shifted[jj],
                        fabs(pe_k[jj] - shifted[jj]));
    }
    return py;
}

/* M_k itself: its 2x2 blocks for the first pairs, as many as the panel's width holds, on three
 * rows from py ("i=0 [+0.540 +0.841]" over "    [-0.841 +0.540]"). Returns the row below. */
static int draw_blocks(WINDOW *w, int py, int px, int pw, const tf_config *c, long k)
{
    enum { BLOCK_W = 19, GAP = 1 };
    int d = c->d_model, nb = (pw + GAP) / (BLOCK_W + GAP);
    if (nb > d / 2)
        nb = d / 2;
    if (nb < 1)
        return py;
    char line[96];
    txt_fmt(line, sizeof line, T_R_BLOCKS, k);
    if (term_text_width(line) > pw)
        txt_fmt(line, sizeof line, T_R_BLOCKS_S, k);
    term_text(w, py, px, line, pw);
    for (int b = 0; b < nb; b++) {
        double m[2][2];
        posenc_rotation(b, d, c->base, (double)k, m);
        int bx = px + b * (BLOCK_W + GAP);
        term_printf(w, py + 1, bx, BLOCK_W, "i=%-2d[%+.3f %+.3f]", b, m[0][0], m[0][1]);
        term_printf(w, py + 2, bx, BLOCK_W, "    [%+.3f %+.3f]", m[1][0], m[1][1]);
    }
    return py + 3;
}

/* The right panel: uniqueness (C9) and M_k applied to PE(pos) next to PE(pos+k) (C10). */
static void draw_panel(tui *t, rel_state *st, WINDOW *w, int y, int px, int pw, int rows)
{
    const tf_config *c = &t->a->cfg;
    const tf_analysis *a = t->a;
    int d = c->d_model;
    int py = y;
    term_attr(w, A_BOLD, 0);
    /* C9 holds when the nearest two positions are still apart; at the article's scale the
     * numbers come from a worker (parts.c) a moment later. A narrow panel wraps each
     * sentence over two rows (the table below shows fewer rows) instead of cutting it. */
    bool ready = (a->done & ANALYSIS_RELATIVE) != 0;
    char line[192];
    snprintf(line, sizeof line,
             !ready                   ? txtf(T_R_COMPUTING)
             : a->min_distance > 1e-9 ? txtf(T_R_NEAREST)
                                      : txtf(T_R_SAME),
             c->n_positions);
    py += term_wrap(w, py, px, pw, 2, 1, line);
    term_attr(w, A_NORMAL, 0);
    if (ready) {
        /* every pair at that offset ties: |PE(p) - PE(q)|^2 = d - 2 sum_i cos((p - q) w_i) */
        long off = labs(a->min_pair[1] - a->min_pair[0]);
        txt_fmt(line, sizeof line, T_R_UNIQUE, off, a->min_pair[0], a->min_pair[1],
                a->min_distance);
        if (term_wrap(NULL, 0, 0, pw, 64, 1, line) > 3)
            txt_fmt(line, sizeof line, T_R_UNIQUE_S, off, a->min_pair[0], a->min_pair[1],
                    a->min_distance);
        py += term_wrap(w, py, px, pw, 3, 1, line);
    } else {
        py++;
    }
    py++;
    long k = c->offset, pos = st->pos + c->index_base;
    term_attr(w, A_BOLD, 0);
    term_printf(w, py++, px, pw, txtf(T_R_MK), pos, k);
    term_attr(w, A_NORMAL, 0);
    double *mem = malloc(3 * (size_t)d * sizeof *mem);
    if (!mem)
        return;
    double *pe_pos = mem, *pe_k = mem + d, *shifted = mem + 2 * d;
    posenc_row((double)pos, d, c->base, pe_pos);
    posenc_row((double)(pos + k), d, c->base, pe_k);
    posenc_shift(pe_pos, d, c->base, (double)k, shifted);
    if (!t->big)
        py = draw_blocks(w, py, px, pw, c, k);
    char hdr[96];
    txt_fmt(hdr, sizeof hdr, T_R_COLS, pos + k, k, pos);
    /* a narrow panel leaves out the |diff| column (the residual line below sums it up) */
    bool narrow = term_text_width(hdr) > pw;
    if (narrow)
        drop_last_column(hdr);
    int res_lines = t->big ? 4 : narrow ? 3 : 2; /* the residual line's rows */
    /* the table: its header and two rows at least, or none (--big: no table of numbers, the
     * residual line says the point; a short narrow panel keeps M_k's blocks instead) */
    int shown = rows - (py - y) - 2 - res_lines;
    if (t->big || shown < 2)
        shown = 0, py--;
    else
        term_text(w, py++, px, hdr, pw);
    if (shown > d)
        shown = d;
    double maxr = 0;
    for (int j = 0; j < d; j++)
        maxr = fmax(maxr, fabs(pe_k[j] - shifted[j]));
    py = draw_rows(w, py, px, pw, pe_k, shifted, d, shown, narrow) + 1;
    /* the residual line, wrapped whole over the rows the table leaves */
    if (ready) {
        txt_fmt(line, sizeof line, T_R_MAXRES, maxr, a->max_residual, c->n_positions);
        term_attr(w, t->big ? A_BOLD : A_NORMAL, 0);
        term_wrap(w, py++, px, pw, res_lines, 1, line);
        term_attr(w, A_NORMAL, 0);
        snprintf(t->cursor, sizeof t->cursor, "k=%ld pos=%ld max|PE(pos+k)-M_k PE(pos)|=%.1e",
                 k, pos, a->max_residual);
    } else {
        txt_fmt(line, sizeof line, T_R_MAXRES_WAIT, maxr, c->n_positions);
        term_wrap(w, py++, px, pw, res_lines, 1, line);
        snprintf(t->cursor, sizeof t->cursor, "k=%ld pos=%ld", k, pos);
    }
    free(mem);
}

static void draw(tui *t, void *state, WINDOW *w, int y, int x, int rows, int cols)
{
    rel_state *st = state;
    if (!st)
        return;
    const tf_config *c = &t->a->cfg;
    int d = c->d_model;
    /* the square: n positions over n columns and n/2 rows */
    long n = 2L * (rows - (t->big ? 4 : 3)); /* the scale's line and colour bar under it */
    /* --big: the panel holds sentences only (no table), so the square takes the width */
    if (n > (t->big ? cols - 38 : cols / 2 - 8))
        n = t->big ? cols - 38 : cols / 2 - 8;
    if (n > c->n_positions)
        n = c->n_positions;
    if (n > 96)
        n = 96;
    n -= n % 2;
    if (n < 2)
        return;
    const double *g = gram_for(t, st, n);
    /* the title is whole; when it is wider than the square the right panel starts a row lower */
    char title[96];
    txt_fmt(title, sizeof title, T_R_GRAM, n);
    bool wide = term_text_width(title) > (int)n + 6;
    term_attr(w, A_BOLD, 0);
    term_text(w, y, x + 1, title, cols - 2);
    term_attr(w, A_NORMAL, 0);
    /* the colours span the values shown (124.8 to 256 for 32 positions at d = 512, where a
     * fixed -d/2..d/2 made every cell a shade of red): a sequential map when they keep one
     * sign, the diverging one around 0 when they do not */
    double lo = d / 2.0, hi = lo;
    for (long i = 0; g && i < n * n; i++)
        lo = fmin(lo, g[i]), hi = fmax(hi, g[i]);
    cmap_id map = CMAP_VIRIDIS;
    if (lo < 0) {
        hi = fmax(hi, -lo), lo = -hi, map = CMAP_RDBU;
    } else if (hi - lo < 1e-9) {
        lo = hi - 1;
    }
    if (g) {
        gram_ctx gc = {g, n};
        term_heatmap(w, y + 1, x + 5, (int)n / 2, (int)n, gram_px, &gc, map, lo, hi);
    }
    for (int r = 0; r < n / 2; r += 4)
        term_printf(w, y + 1 + r, x, 5, "%4ld", 2L * r + c->index_base);
    if ((int)n / 2 + 2 < rows) {
        /* at least 30 columns, but never under a narrow panel's lines */
        int bw = (int)n >= 30 ? (int)n : cols - (int)n - 9 >= 40 ? 30 : (int)n + 2;
        term_text(w, y + 1 + (int)n / 2, x + 5, txt(T_R_FITTED), bw);
        term_colorbar(w, y + 2 + (int)n / 2, x + 5, bw, map, floor(lo * 10 + 1e-9) / 10,
                      ceil(hi * 10 - 1e-9) / 10);
    }

    draw_panel(t, st, w, y + wide, x + (int)n + 8, cols - (int)n - 9, rows - wide);
}

static int key(tui *t, void *state, int ch)
{
    rel_state *st = state;
    if (!st)
        return TUI_IGNORED;
    tf_config *c = &t->cfg;
    switch (ch) {
    case KEY_RIGHT:
        st->pos++;
        return TUI_REDRAW;
    case KEY_LEFT:
        st->pos = st->pos > 0 ? st->pos - 1 : 0;
        return TUI_REDRAW;
    case KEY_UP:
        if (c->offset + 1 < c->n_positions)
            c->offset++;
        return TUI_RERUN;
    case KEY_DOWN:
        if (c->offset > 0)
            c->offset--;
        return TUI_RERUN;
    default:
        return TUI_IGNORED;
    }
}

const tui_view view_relative = {
    .figure = "dot", .tab = T_TAB_REL, .caption = T_CAP_REL, .keys = T_KEYS_REL,
    .needs = ANALYSIS_RELATIVE, .init = init, .free = release, .draw = draw, .key = key,
};
