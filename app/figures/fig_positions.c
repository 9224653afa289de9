/* fig_positions.c — the figures of positional encoding: the PE heatmap (C7), the dot products of
 * positions (C9, C10) and the frequencies (C8). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "figures/draw.h"
#include "posenc.h"
#include "tf_limits.h"

/* ---------------------------------------------------------------------------------------------
 * pe: PE(pos, j), positions x dimensions (C7) */

#define PE_FIGURE_CELLS (64L * 1024 * 1024) /* made a block of rows at a time: time, not memory */

const char *check_pe(const tf_config *cfg)
{
    static _Thread_local char why[200];
    if (cfg->n_positions * (long)cfg->d_model > PE_FIGURE_CELLS) {
        snprintf(why, sizeof why, "the pe figure draws one cell per value and %ld x %d is too "
                 "many; use -n and -d so that n x d stays under %ld", cfg->n_positions,
                 cfg->d_model, PE_FIGURE_CELLS);
        return why;
    }
    return heatmap_check(cfg->n_positions, cfg->d_model > 1 ? 1 : cfg->d_model, "pe");
}

/* The rows of PE, made PE_BLOCK at a time (posenc_fill_f32 re-anchors every POSENC_ANCHOR rows
 * from pos0, so a block that starts on an anchor gives the bits of the whole table), in the
 * interleaved layout or split: the sin half, then the cos half. */
#define PE_BLOCK POSENC_ANCHOR
typedef struct {
    long pos0, at; /* the first position; the block's first row (-1: none yet) */
    int d;
    double base;
    bool split;
    float *block; /* (PE_BLOCK, d) */
} pe_rows;

static void pe_row(void *ctx, long r, double *out)
{
    pe_rows *s = ctx;
    long at = r - r % PE_BLOCK;
    if (at != s->at) {
        posenc_fill_f32(s->pos0 + at, PE_BLOCK, s->d, s->base, s->block);
        s->at = at;
    }
    const float *row = s->block + (size_t)(r - at) * (size_t)s->d;
    for (int col = 0; col < s->d; col++)
        out[col] = row[s->split ? posenc_split_dim(col, s->d) : col];
}

/* Whether PE-like columns (sin, cos, sin, ... of one frequency each pair) are drawn split: as
 * asked with --pe-layout, else when a column has fewer than two pixels: averaged, a pixel over
 * a sin ~ 0 and a cos ~ 1 column would show ~0.5, a value the encoding never takes, and columns
 * one or two pixels wide in turn draw the alternation as a barcode of periodic bands. */
bool pe_split_for(const fig_ctx *c, const fig_axes *ax, const fig_matrix *m)
{
    if (c->pe_layout_set || m->cols % 2)
        return c->pe_split;
    fig_matrix twice = *m;
    twice.cols *= 2;
    long dr, dc;
    fig_heatmap_grid(c->f, ax, &twice, &dr, &dc);
    return dc < twice.cols;
}

tf_status draw_pe(fig_ctx *c)
{
    const tf_config *cfg = &c->a->cfg;
    long n = cfg->n_positions, pos0 = cfg->index_base;
    int d = cfg->d_model;
    pe_rows sr = {pos0, -1, d, cfg->base, false, malloc((size_t)PE_BLOCK * (size_t)d * sizeof(float))};
    if (!sr.block)
        return TF_ERR_NOMEM;
    /* sin and cos lie in [-1, 1]: the scale is the function's range, not the sample's */
    double lo, hi;
    cmap_id cm = color_scale(c, -1.0, 1.0, &lo, &hi);
    fig_axes ax;
    matrix_axes(&ax, n, pos0, d, 0);
    ax.x.label = fig_txt(c, T_F_DIM);
    ax.y.label = fig_txt(c, T_F_POS);
    const char *cb = "PE(<i>pos</i>, <i>j</i>)";
    ax.right = fig_colorbar_width(c->f, lo, hi, cb);
    fig_axes_fit(c->f, &ax, c->area);
    fig_matrix m = {.rows = n, .cols = d, .row = pe_row, .ctx = &sr};
    sr.split = pe_split_for(c, &ax, &m);
    const char *dim = fig_txt(c, sr.split ? T_F_DIM_SPLIT : T_F_DIM);
    if (sr.split && too_wide(c->f, dim, ax.r.w + ax.used_left))
        dim = fig_txt(c, T_F_DIM_SPLIT_S);
    char xl[240];
    averaged_label(c, &ax, &m, dim, xl, sizeof xl);
    fig_axes_fit(c->f, &ax, c->area);
    averaged_label(c, &ax, &m, dim, xl, sizeof xl);
    tf_status st = fig_heatmap(c->f, &ax, &m, cm, lo, hi);
    free(sr.block);
    fig_axes_draw(c->f, &ax);
    if (sr.split) /* where the cos half starts */
        fig_segment(c->f, &ax, d / 2.0 - 0.5, ax.y.lo, d / 2.0 - 0.5, ax.y.hi, (tf_rgb){0, 0, 0},
                    1.5 * 0.075 * fig_font_size(c->f), FIG_SOLID);
    fig_colorbar(c->f, colorbar_rect(&ax), cm, lo, hi, cb);
    return st;
}

/* ---------------------------------------------------------------------------------------------
 * dot: PE(p) . PE(q) between positions (C9, C10) */

/* The dot figure's n x n matrix: float64, image and indices, 13 bytes a cell (55 MB at 2048). */
#define DOT_FIGURE_POSITIONS 2048

const char *check_dot(const tf_config *cfg)
{
    static _Thread_local char why[200]; /* a figure may be checked on a worker thread */
    double work = posenc_gram_work((double)cfg->n_positions, cfg->d_model);
    if (cfg->n_positions > DOT_FIGURE_POSITIONS)
        return "the dot figure draws an n x n matrix: use -n 2048 or fewer (--print dot gives "
               "the numbers for up to 4096)";
    if (work > TF_MAX_WORK) {
        snprintf(why, sizeof why, "the dot figure at -n %ld -d %d would take about %.0f s (the "
                 "limit is %.0f s); lower -n or -d", cfg->n_positions, cfg->d_model, work / 1e9,
                 TF_MAX_WORK / 1e9);
        return why;
    }
    return NULL;
}

tf_status draw_dot(fig_ctx *c)
{
    const tf_config *cfg = &c->a->cfg;
    long n = cfg->n_positions, pos0 = cfg->index_base;
    double *g = malloc((size_t)n * (size_t)n * sizeof *g); /* (n, n) */
    tf_status st = g ? posenc_gram(pos0, n, cfg->d_model, cfg->base, g) : TF_ERR_NOMEM;
    if (st != TF_OK) {
        free(g);
        return st;
    }
    double mn, mx, lo, hi;
    minmax(g, (size_t)(n * n), &mn, &mx);
    cmap_id cm = color_scale(c, mn, mx, &lo, &hi);
    fig_axes ax;
    matrix_axes(&ax, n, pos0, n, pos0);
    ax.x.label = fig_txt(c, T_F_POS_Q);
    ax.y.label = fig_txt(c, T_F_POS_P);
    const char *cb = "PE(<i>p</i>) ⋅ PE(<i>q</i>)";
    ax.right = fig_colorbar_width(c->f, lo, hi, cb);
    fit_square(c->f, &ax, c->area);
    st = fig_heatmap(c->f, &ax, &(fig_matrix){.f64 = g, .rows = n, .cols = n}, cm, lo, hi);
    free(g);
    fig_axes_draw(c->f, &ax);
    fig_colorbar(c->f, colorbar_rect(&ax), cm, lo, hi, cb);
    return st;
}

/* ---------------------------------------------------------------------------------------------
 * freq: w_i and wavelengths per pair (log axis), and a few PE dimensions across positions (C8) */

/* The dimensions drawn across positions (freq's lower panel, pe-waves): a fast pair's sin and
 * cos, then the sin of a middle and of a slow pair, as d allows. The fast pair is the first
 * whose wave fits at most four times into the positions drawn (pair 0 turns once a 2 pi
 * positions: ten tangled waves across 64), the middle one once, the slow one a quarter time. */
typedef struct {
    int pick[4], np;
    char lab[4][64];
    fig_legend_item li[4 + 2]; /* pe-waves follows them with its row's: sin and cos */
} wave_dims;

static void wave_dims_pick(const tf_config *cfg, int h, wave_dims *w)
{
    double span = cfg->n_positions > 1 ? (double)cfg->n_positions - 1 : 1.0;
    int at[3] = {0, 0, 0}; /* the first pairs of at most waves[k] turns across span */
    const double waves[3] = {4.0, 1.0, 0.25};
    for (int k = 0; k < 3; k++)
        while (at[k] + 1 < h &&
               span * posenc_omega(at[k], cfg->d_model, cfg->base) / (2 * M_PI) > waves[k])
            at[k]++;
    int pick[4] = {2 * at[0], 2 * at[0] + 1, 2 * at[1], 2 * at[2]};
    w->np = 0;
    for (int k = 0; k < 4; k++)
        if (k < 2 || pick[k] > pick[k - 1]) /* pick[] rises: past the last one kept */
            w->pick[w->np++] = pick[k];
    for (int k = 0; k < w->np; k++) {
        snprintf(w->lab[k], sizeof w->lab[k], "<i>j</i> = %d (%s)", w->pick[k],
                 w->pick[k] % 2 ? "cos" : "sin");
        w->li[k] = (fig_legend_item){.label = w->lab[k],
                                     .color = fig_series_color(k == 1 ? 0 : k + 1),
                                     .dash = k == 1 ? FIG_DASHED : FIG_SOLID};
    }
}

/* PE of w's dimensions across ax's n positions, 8 samples a position (CURVE_SAMPLES at most),
 * and the zero line. */
static void wave_lines(fig_ctx *c, const fig_axes *ax, const wave_dims *w, double lwid, long n)
{
    const tf_config *cfg = &c->a->cfg;
    double xs[CURVE_SAMPLES], ys[CURVE_SAMPLES];
    long ns = n * 8 < CURVE_SAMPLES ? n * 8 : CURVE_SAMPLES; /* n >= 1: 8 at least */
    fig_segment(c->f, ax, ax->x.lo, 0, ax->x.hi, 0, (tf_rgb){150, 150, 150}, lwid, FIG_SOLID);
    for (int k = 0; k < w->np; k++) {
        for (long s = 0; s < ns; s++) {
            xs[s] = ax->x.lo + (ax->x.hi - ax->x.lo) * s / (ns - 1);
            ys[s] = posenc_value(xs[s], w->pick[k], cfg->d_model, cfg->base);
        }
        fig_line(c->f, ax, xs, ys, ns, w->li[k].color, 2 * lwid, w->li[k].dash);
    }
}

typedef struct {
    int h;                    /* pairs */
    long n, pos0;             /* positions */
    const double *omega;      /* (h) from posenc_freqs */
    double *xi, *wl;          /* (h) pair index, wavelength 2 pi / w_i */
    fig_axes a1, a2;          /* upper panel: frequencies; lower: PE across positions */
    fig_legend_item li[2];
    wave_dims w;              /* the dimensions of the lower panel */
} freq_panels;

/* Both panels' axes and legends, fitted: stacked with their left edges aligned, or side by side. */
static void freq_layout(fig_ctx *c, freq_panels *p)
{
    int h = p->h;
    fig_rect top, bottom;
    bool wide;
    split_panels(c->area, 0.5, 0.5, 0.6 * fig_font_size(c->f), 0, &wide, &top, &bottom);

    /* upper panel: w_i falls and the wavelength grows geometrically */
    p->li[0] = (fig_legend_item){.label = "ω<sub><i>i</i></sub>", .color = fig_series_color(0)};
    p->li[1] = (fig_legend_item){.label = fig_txt(c, T_F_WAVELENGTH),
                                 .color = fig_series_color(1), .dash = FIG_DASHED};
    p->a1 = (fig_axes){.grid = true, .tag = panel_tag(c, 0)};
    p->a1.x = (fig_axis){.lo = 0, .hi = h > 1 ? h - 1 : 1, .integer = true,
                         .label = fig_txt(c, T_F_PAIR_DIMS)};
    /* the decade below the lowest frequency: w_0 = 1 sits above the axis, not on it */
    p->a1.y = (fig_axis){.log = true, .lo = pow(10.0, floor(log10(p->omega[h - 1]) - 1e-9)),
                         .hi = pow(10.0, ceil(log10(p->wl[h - 1]))),
                         .label = fig_txt(c, T_F_FREQ_WAVE)};
    if (p->a1.y.hi <= p->a1.y.lo * 10)
        p->a1.y.hi = p->a1.y.lo * 100;

    /* lower panel: a fast, a middle and a slow pair across positions */
    wave_dims_pick(&c->a->cfg, h, &p->w);
    p->a2 = (fig_axes){.grid = true, .tag = panel_tag(c, 1)};
    p->a2.x = (fig_axis){.lo = p->pos0, .hi = p->pos0 + (p->n > 1 ? p->n - 1 : 1),
                         .integer = true, .label = fig_txt(c, T_F_POS)};
    p->a2.y = (fig_axis){.lo = -1.1, .hi = 1.1, .label = "PE(<i>pos</i>, <i>j</i>)"};
    double lw = fmax(fig_legend_width(c->f, p->li, 2), fig_legend_width(c->f, p->w.li, p->w.np));
    p->a1.right = p->a2.right = lw;
    p->a1.legend = p->li, p->a1.n_legend = 2;
    p->a2.legend = p->w.li, p->a2.n_legend = p->w.np;
    if (!wide)
        top.h -= 0.3 * fig_font_size(c->f);
    fit_pair(c->f, &p->a1, top, &p->a2, bottom, !wide);
}

tf_status draw_freq(fig_ctx *c)
{
    const tf_config *cfg = &c->a->cfg;
    freq_panels p = {.h = cfg->d_model / 2, .n = cfg->n_positions, .pos0 = cfg->index_base,
                     .omega = c->a->omega};
    p.xi = malloc(2 * (size_t)p.h * sizeof *p.xi);
    if (!p.xi)
        return TF_ERR_NOMEM;
    p.wl = p.xi + p.h;
    for (int i = 0; i < p.h; i++) {
        p.xi[i] = i;
        p.wl[i] = 2.0 * M_PI / p.omega[i];
    }
    freq_layout(c, &p);
    double lwid = 0.065 * fig_font_size(c->f); /* half a curve's width */
    /* upper: w_i and the wavelength per pair on a log axis */
    fig_axes_draw(c->f, &p.a1);
    fig_line(c->f, &p.a1, p.xi, p.omega, p.h, p.li[0].color, 2 * lwid, FIG_SOLID);
    fig_line(c->f, &p.a1, p.xi, p.wl, p.h, p.li[1].color, 2 * lwid, FIG_DASHED);
    if (p.h <= 16) { /* few pairs: each one a marker, and one pair (d = 2) is seen at all */
        double ms = 0.45 * fig_font_size(c->f);
        fig_markers(c->f, &p.a1, p.xi, p.omega, p.h, p.li[0].color, ms);
        fig_markers(c->f, &p.a1, p.xi, p.wl, p.h, p.li[1].color, ms);
    }
    fig_legend(c->f, &p.a1, p.li, 2, 4);
    /* lower: the chosen dimensions of PE across the positions */
    fig_axes_draw(c->f, &p.a2);
    wave_lines(c, &p.a2, &p.w, lwid, p.n);
    fig_legend(c->f, &p.a2, p.w.li, p.w.np, 4);
    free(p.xi);
    return TF_OK;
}

/* ---------------------------------------------------------------------------------------------
 * pe-waves (animation): the position advances from the first to the last of -n; above, columns
 * of PE across the positions with the position now marked where it crosses each; below, the row
 * PE(pos) itself, the sin and cos of every pair: the fast pairs on the left swing from -1 to 1,
 * the slow ones on the right barely move, so every position gets a row of its own (C7, C8, C9).
 * Positions between whole numbers are drawn too: the formula holds for any pos, and the motion
 * stays smooth. */

#define PE_WAVES_FRAMES 128
#define PE_WAVES_FPS 16.0

typedef struct {
    int d, h;
    long n, pos0;
    double pos;          /* the position of this frame */
    wave_dims w;         /* the columns of the upper panel */
    fig_axes top, bottom;
    fig_legend_item *all, *lrow; /* both panels' legend items (w.li); the row's: sin and cos */
    char t2[160];
    fig_rect rows1, rows2; /* the legends in rows above the plots; empty: right of them */
    bool band;             /* both legends in rows1, one band across the page */
} pe_waves_panels;

/* The two panels' axes in the fullest of four layouts that fits: one above the other with their
 * subtitles and legends right of the plots; the same without the subtitles (a low slide: the
 * row's position is the line drawn across the columns); then side by side, each the page's
 * whole height, their legends in rows above the plots; then both legends in one band across
 * the page above them. The last is taken cramped when none fits. */
static void pe_waves_layout(fig_ctx *c, pe_waves_panels *p)
{
    wave_dims_pick(&c->a->cfg, p->h, &p->w);
    txt_fmt_lang(p->t2, sizeof p->t2, T_F_PW_ROW, c->zh, p->pos);
    p->all = p->w.li, p->lrow = p->all + p->w.np;
    p->lrow[0] = (fig_legend_item){.label = fig_txt(c, T_F_PW_SIN), .color = fig_series_color(4)};
    p->lrow[1] = (fig_legend_item){.label = fig_txt(c, T_F_PW_COS), .color = fig_series_color(5),
                                   .dash = FIG_DASHED};
    fig_trial t = fig_try(c->f);
    for (int mode = 0; mode < 4; mode++) {
        /* stacked whatever the page's shape while it fits: each wave across the page's whole
         * width is easier to follow than two narrow panels side by side */
        double gap = 0.6 * fig_font_size(c->f);
        fig_rect r1 = c->area, r2 = c->area;
        p->rows1 = p->rows2 = (fig_rect){0};
        p->band = mode == 3;
        if (p->band) { /* one band of both legends across the page, above both panels */
            p->rows1 = (fig_rect){c->area.x, c->area.y, c->area.w,
                                  fig_legend_rows(c->f, p->all, p->w.np + 2, c->area, false)};
            r1.y = r2.y = c->area.y + p->rows1.h + 0.3 * gap;
            r1.h = r2.h = c->area.y + c->area.h - r1.y;
        }
        if (mode < 2) {
            r1.h = 0.5 * c->area.h;
            r2.y = r1.y + r1.h + gap;
            r2.h = c->area.y + c->area.h - r2.y;
        } else { /* side by side, each the page's whole height */
            r1.w = 0.5 * (c->area.w - 2 * gap);
            r2.x = r1.x + r1.w + 2 * gap;
            r2.w = c->area.x + c->area.w - r2.x;
        }
        if (mode == 2) { /* the legends' rows at the top of their panels */
            p->rows1 = r1;
            p->rows1.h = fig_legend_rows(c->f, p->w.li, p->w.np, r1, false);
            p->rows2 = (fig_rect){r2.x, r2.y, r2.w, fig_legend_rows(c->f, p->lrow, 2, r2, false)};
            r1.y += p->rows1.h, r1.h -= p->rows1.h;
            r2.y += p->rows2.h, r2.h -= p->rows2.h;
        }
        p->top = (fig_axes){.grid = true, .title = mode ? NULL : fig_txt(c, T_F_PW_WAVES)};
        p->top.x = (fig_axis){.lo = (double)p->pos0, .hi = (double)(p->pos0 + p->n - 1),
                              .integer = true, .label = fig_txt(c, T_F_POS)};
        /* side by side, the columns' legend names j: the axis says PE only */
        p->top.y = (fig_axis){.lo = -1.1, .hi = 1.1,
                              .label = mode >= 2 ? "PE" : "PE(<i>pos</i>, <i>j</i>)"};
        p->bottom = (fig_axes){.grid = true, .title = mode ? NULL : p->t2};
        p->bottom.x = (fig_axis){.lo = 0, .hi = p->h > 1 ? p->h - 1 : 1, .integer = true,
                                 .label = fig_txt(c, T_F_PAIR)};
        p->bottom.y = (fig_axis){.lo = -1.1, .hi = 1.1, .label = fig_txt(c, T_F_VALUE)};
        p->top.right = p->bottom.right =
            mode >= 2 ? 0 : fig_legend_width(c->f, p->all, p->w.np + 2);
        fit_pair(c->f, &p->top, r1, &p->bottom, r2, mode < 2); /* stacked: left edges aligned */
        /* a legend's rows no wider than its panel (the band: than the page) */
        if (mode >= 2)
            legend_rows_fit(c->f, p->all, p->w.np + 2, p->band ? c->area.w : r1.w);
        if (fig_tried(c->f, &t, mode == 3)) /* the first that fits, else the last, cramped */
            break;
    }
}

static tf_status pe_waves_frame(fig_ctx *c, void *state, long k, long nf)
{
    (void)state;
    const tf_config *cfg = &c->a->cfg;
    pe_waves_panels p = {.d = cfg->d_model, .h = cfg->d_model / 2, .pos0 = cfg->index_base,
                         .n = cfg->n_positions > 1 ? cfg->n_positions : 2};
    p.pos = (double)p.pos0 + (double)(p.n - 1) * (double)k / (double)(nf > 1 ? nf - 1 : 1);
    double *row = malloc(((size_t)p.d + 3 * (size_t)p.h) * sizeof *row);
    if (!row)
        return TF_ERR_NOMEM;
    /* (d) PE(pos); (h) pair i, PE(pos, 2i), PE(pos, 2i+1) */
    double *xi = row + p.d, *vs = xi + p.h, *vc = vs + p.h;
    posenc_row(p.pos, p.d, cfg->base, row);
    for (int i = 0; i < p.h; i++)
        xi[i] = i, vs[i] = row[2 * i], vc[i] = row[2 * i + 1];
    pe_waves_layout(c, &p);
    double lwid = 0.065 * fig_font_size(c->f), ms = 0.6 * fig_font_size(c->f);

    /* 1. the columns across the positions, and where the position now crosses them */
    fig_axes_draw(c->f, &p.top);
    wave_lines(c, &p.top, &p.w, lwid, p.n);
    fig_segment(c->f, &p.top, p.pos, -1.1, p.pos, 1.1, (tf_rgb){60, 60, 60}, 1.5 * lwid, FIG_SOLID);
    for (int k2 = 0; k2 < p.w.np; k2++)
        fig_markers(c->f, &p.top, &p.pos, &row[p.w.pick[k2]], 1, p.w.li[k2].color, ms);
    if (p.rows1.w > 0) /* in the band, both panels' items */
        fig_legend_rows(c->f, p.all, p.w.np + (p.band ? 2 : 0), p.rows1, true);
    else
        fig_legend(c->f, &p.top, p.w.li, p.w.np, 4);

    /* 2. the row PE(pos): sin and cos of every pair, the picked columns marked on it */
    fig_axes_draw(c->f, &p.bottom);
    fig_segment(c->f, &p.bottom, p.bottom.x.lo, 0, p.bottom.x.hi, 0, (tf_rgb){150, 150, 150},
                lwid, FIG_SOLID);
    fig_line(c->f, &p.bottom, xi, vs, p.h, p.lrow[0].color, 2 * lwid, FIG_SOLID);
    fig_line(c->f, &p.bottom, xi, vc, p.h, p.lrow[1].color, 2 * lwid, FIG_DASHED);
    if (p.h <= 64) {
        fig_markers(c->f, &p.bottom, xi, vs, p.h, p.lrow[0].color, 0.4 * ms);
        fig_markers(c->f, &p.bottom, xi, vc, p.h, p.lrow[1].color, 0.4 * ms);
    }
    for (int k2 = 0; k2 < p.w.np; k2++) /* at the column's sin/cos pair */
        fig_markers(c->f, &p.bottom, &xi[p.w.pick[k2] / 2], &row[p.w.pick[k2]], 1, p.w.li[k2].color,
                    ms);
    if (p.rows2.w > 0)
        fig_legend_rows(c->f, p.lrow, 2, p.rows2, true);
    else if (!p.band)
        fig_legend(c->f, &p.bottom, p.lrow, 2, 4);
    free(row);
    return TF_OK;
}

const fig_anim anim_pe_waves = {
    .frames = PE_WAVES_FRAMES, .fps = PE_WAVES_FPS, .still = "freq", .frame = pe_waves_frame,
    .example = "-d 128",
};
