/* fig_order_training.c — the order experiment, trained (docs/math.md part 5): held-out accuracy
 * per epoch of one attention layer trained once per position scheme, with chance on pairs
 * marked (the most `none` can reach: it names the same doer for both orders of a pair), and the
 * training loss below (log scale: `none` levels off near ln 2, the others fall on). Every number
 * is a point of the trainer's curves (model/order_train.h) as far as they go, on axes that do
 * not depend on how far: the epoch axis is the whole run's and the loss axis spans at least
 * 0.001 .. 10, so the figure can be drawn again after every step of a run in progress (the
 * explorer's e in view 10 does), and the animation of the same name draws the run as it goes:
 * exported as .gif or to a folder of frames, the curves grow epoch by epoch. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "figures/draw.h"
#include "style.h"

#define MARKERS_UP_TO 40 /* epochs: a marker on every point up to this many */

/* The points of scheme k as x (epochs) and y (accuracy in %, or loss) up to epoch upto, and how
 * many: the last one is met between two epochs (linearly) when upto falls between them. */
static size_t curve_xy(const order_trainer *tr, size_t k, bool loss, double upto, double *x,
                       double *y)
{
    size_t np, m = 0;
    const order_point *p = order_trainer_curve(tr, k, &np);
    for (size_t i = 0; i < np; i++) {
        double v = loss ? p[i].loss : 100.0 * p[i].test_acc;
        if (p[i].epoch <= upto) {
            x[m] = p[i].epoch, y[m++] = v;
            continue;
        }
        if (m > 0 && x[m - 1] < upto) {
            double t = (upto - x[m - 1]) / (p[i].epoch - x[m - 1]);
            y[m] = y[m - 1] + t * (v - y[m - 1]);
            x[m++] = upto;
        }
        break;
    }
    return m;
}

/* The lower panel's y axis: the training loss on a log scale, whole decades. */
static fig_axis loss_y(fig_ctx *c)
{
    double lo = INFINITY, hi = 0;
    for (size_t k = 0; k < order_trainer_count(c->order); k++) {
        size_t n;
        const order_point *p = order_trainer_curve(c->order, k, &n);
        for (size_t i = 0; i < n; i++)
            if (p[i].loss > 0 && isfinite(p[i].loss)) {
                lo = fmin(lo, p[i].loss);
                hi = fmax(hi, p[i].loss);
            }
    }
    if (!(hi > 0)) /* nothing trained yet */
        lo = 0.1, hi = 1;
    /* at least 0.001 .. 10, where a default run's losses fall (ln 8 ~ 2 at the start): a
     * figure drawn once per epoch of a run in progress keeps its axes */
    return (fig_axis){.log = true,
                      .lo = fmin(pow(10.0, floor(log10(lo))), 1e-3),
                      .hi = fmax(pow(10.0, ceil(log10(hi))), 10.0),
                      .label = fig_txt(c, T_F_TRAIN_LOSS)};
}

/* Where the run has got to in a frame of the animation: a thin line across the panel at epoch
 * upto (none once the run is complete), broken around the box keep_off (page points; empty: none)
 * grown by a fifth of a tick label's size: the chance line's label. The y axis is linear. */
static void now_line(fig_ctx *c, const fig_axes *ax, double upto, fig_rect keep_off)
{
    if (!(upto < ax->x.hi))
        return;
    tf_rgb grey = {150, 150, 150};
    double lw = 0.06 * fig_font_size(c->f), X = fig_px(ax, upto);
    double clear = 0.2 * fig_font_size(c->f) + lw, below = ax->y.hi, above = ax->y.hi;
    if (keep_off.w > 0 && X >= keep_off.x - clear && X <= keep_off.x + keep_off.w + clear) {
        /* the page's y of the gap's bottom and top, back to the axis's values */
        double k = (ax->y.hi - ax->y.lo) / fmax(ax->r.h, 1e-9), bottom = ax->r.y + ax->r.h;
        below = ax->y.lo + (bottom - (keep_off.y + keep_off.h + clear)) * k;
        above = ax->y.lo + (bottom - (keep_off.y - clear)) * k;
    }
    if (below > ax->y.lo)
        fig_segment(c->f, ax, upto, ax->y.lo, upto, below, grey, lw, FIG_DOTTED);
    if (above < ax->y.hi)
        fig_segment(c->f, ax, upto, above, upto, ax->y.hi, grey, lw, FIG_DOTTED);
}

/* The 50 % line's label where no curve of the whole run passes (the same place in every frame of
 * the animation): its whole sentence, else its first part (up to the colon: "at most 50% without
 * positions", "不加位置至多 50%"), else "at most 50%" alone, above or below the line, at its right
 * end, its middle or its left end, the first of these clear of every curve and marker by a fifth of
 * the label's size. With none clear the page is too small (cramped: a still figure's grows taller).
 * x, y: scratch for a curve's points. Returns the label's box. */
static fig_rect chance_label(fig_ctx *c, const fig_axes *ax, double y50, double lw, double *x,
                             double *y)
{
    const order_trainer *tr = c->order;
    size_t K = order_trainer_count(tr);
    double fs = fig_font_size(c->f), pad = 0.3 * fs, clear = 0.2 * fs;
    double ms = 2.4 * lw * 1.4 + 2 * lw; /* a marker and the line's width */
    double off = 0.5 * ms + 1.2 * clear;    /* from the line: clear of `none`'s markers on it */
    char forms[3][160];
    txt_fmt_lang(forms[0], sizeof forms[0], T_F_CHANCE, c->zh);
    snprintf(forms[1], sizeof forms[1], "%s", forms[0]);
    cut_at_colon(forms[1]);
    txt_fmt_lang(forms[2], sizeof forms[2], T_F_CHANCE_S, c->zh);
    fig_rect best = {0};
    int form = -1;
    double w = 0, h = 0;
    for (int f = 0; f < 3 && form < 0; f++) {
        fig_text_size(c->f, forms[f], false, &w, &h);
        if (w > ax->r.w - 2 * pad)
            continue;
        static const double along[3] = {1, 0.5, 0}; /* right end, middle, left end */
        for (int a = 0; a < 3 && form < 0; a++)
            for (int side = 0; side < 2 && form < 0; side++) {
                fig_rect r = {ax->r.x + pad + along[a] * (ax->r.w - 2 * pad - w),
                              side ? y50 + off : y50 - off - h, w, h};
                if (r.y < ax->r.y + pad || r.y + h > ax->r.y + ax->r.h - pad)
                    continue;
                fig_rect grown = {r.x - clear, r.y - clear, r.w + 2 * clear, r.h + 2 * clear};
                /* grown by ms: a marker centred in it */
                fig_rect near = {grown.x - ms / 2, grown.y - ms / 2, grown.w + ms, grown.h + ms};
                bool hit = false;
                for (size_t k = 0; k < K && !hit; k++) {
                    long n = (long)curve_xy(tr, k, false, INFINITY, x, y);
                    hit = fig_series_hit(ax, &(fig_series){x, y, n}, grown);
                    for (long i = 0; i < n && !hit; i++) /* or a marker */
                        hit = fig_series_hit(ax, &(fig_series){&x[i], &y[i], 1}, near);
                }
                if (!hit)
                    best = r, form = f;
            }
    }
    if (form < 0) { /* no clear place: the plot is too small for its label (w, h: the last's) */
        fig_set_cramped(c->f);
        form = 2;
        best = (fig_rect){ax->r.x + ax->r.w - pad - w, y50 - off - h, w, h};
    }
    fig_text_in(c->f, ax, forms[form], false, best.x, best.y, 0, 0);
    return best;
}

/* A panel up to epoch upto: held-out accuracy, the chance line and its label; loss: log loss. */
static void curves_panel(fig_ctx *c, fig_axes ax, bool loss, double upto, double *x, double *y)
{
    fig_axes_draw(c->f, &ax);
    double lw = 0.1 * fig_font_size(c->f);
    fig_rect label = {0};
    if (!loss) {
        fig_segment(c->f, &ax, ax.x.lo, 100.0 * ORDER_CHANCE, ax.x.hi, 100.0 * ORDER_CHANCE,
                    (tf_rgb){120, 120, 120}, lw, FIG_DASHED);
        label = chance_label(c, &ax, fig_py(&ax, 100.0 * ORDER_CHANCE), lw, x, y);
    }
    now_line(c, &ax, upto, label);
    /* each scheme's line in its style (style.h: a dash keeps overlapping lines apart, the schemes
     * with positions often meeting at 100 %), markers when the epochs are few */
    double cw = lw * 1.4;
    for (size_t k = order_trainer_count(c->order); k-- > 0;) { /* the first scheme (none) on top */
        long n = (long)curve_xy(c->order, k, loss, upto, x, y);
        const scheme_style *st = style_scheme(order_trainer_scheme(c->order, k), ROPE_SCALING_NONE);
        fig_line(c->f, &ax, x, y, n, st->color, cw, (fig_dash)st->dash);
        if (n <= MARKERS_UP_TO)
            fig_markers_shape(c->f, &ax, x, y, n, st->color, 2.6 * cw, (int)st->marker);
    }
}

/* The panels of a page: the note and its height (0: none), the legend's rows, the axes. */
typedef struct {
    double nh;
    char note[400];
    fig_rect rows;
    fig_axes a, l;
    bool loss; /* the loss panel beside or below the accuracy */
    char ylabel[120]; /* the accuracy's axis label, in two lines on a low slide */
} ot_layout;

/* L->note: the note in the longest form that fits the width (and page height); its height. */
static double fit_note(fig_ctx *c, bool frame, ot_layout *L)
{
    const order_task *t = order_trainer_task(c->order);
    double w = 0, h = 0;
    for (int k = 0; k < 2; k++) { /* the note, then its short form */
        snprintf(L->note, sizeof L->note,
                 k == 0 ? txtf_lang(T_F_TRAIN_NOTE, c->zh) : txtf_lang(T_F_TRAIN_NOTE_S, c->zh),
                 t->n_split[ORDER_TRAIN], t->n_split[ORDER_TEST]);
        fig_text_size(c->f, L->note, false, &w, &h);
        /* in a frame the long form also gives way on a low page (a slide's, which cannot grow
         * taller), where its three lines would squash the plots */
        if (w <= c->area.w && (!frame || h <= 0.12 * c->area.h))
            break;
    }
    if (w > c->area.w) /* even the short form is too wide: its lines wrapped to the width */
        fig_wrap(c->f, L->note, sizeof L->note, c->area.w);
    fig_text_size(c->f, L->note, false, &w, &h);
    return h;
}

/* Lay out the page in mode m: 0 the note, the legend's rows and both panels; 1 without the
 * note; 2 without the note and the loss panel too, the accuracy's axis label in two lines (a
 * frame on a small slide, which cannot grow taller: the accuracy against chance is the point).
 * Laid out only: the caller's trial (fig_try) takes one. */
static void ot_fit(fig_ctx *c, int m, bool frame, const fig_legend_item *li, int nl, ot_layout *L)
{
    L->nh = m == 0 && !c->req->no_notes ? fit_note(c, frame, L) : 0; /* --venue: no note */
    L->loss = m < 2;
    fig_rect plots = c->area;
    if (L->nh > 0)
        plots.h -= L->nh + 0.6 * fig_font_size(c->f);
    /* the legend in rows between the plots and the note: inside the panel, in any corner, it
     * would cover a curve at some epoch (none runs along chance, the trained schemes climb to
     * 100 % across the whole width), and the chance line's label with it */
    double lh = fig_legend_rows(c->f, li, nl, plots, false);
    plots.h -= lh + 0.4 * fig_font_size(c->f);
    L->rows = (fig_rect){plots.x, plots.y + plots.h + 0.4 * fig_font_size(c->f), plots.w, lh};
    fig_rect top = plots, bottom = plots;
    bool wide;
    double gap = 0.6 * fig_font_size(c->f);
    snprintf(L->ylabel, sizeof L->ylabel, "%s", fig_txt(c, T_F_HELD_OUT));
    if (L->loss)
        split_panels(plots, 0.6, 0.62, 2 * gap, gap, &wide, &top, &bottom);
    else /* the accuracy's axis label in two lines */
        fig_wrap(c->f, L->ylabel, sizeof L->ylabel, 0.5 * top.h);
    /* both against the epoch: 0 .. the run's epochs, whole numbers */
    int epochs = order_trainer_cfg(c->order)->epochs;
    fig_axis x = {.lo = 0, .hi = epochs > 0 ? epochs : 1, .integer = true,
                  .label = fig_txt(c, T_F_EPOCH)};
    /* held-out accuracy in %, and the loss */
    static const double at[] = {0, 25, 50, 75, 100};
    static const char *const tl[] = {"0 %", "25 %", "50 %", "75 %", "100 %"};
    L->a = (fig_axes){.grid = true, .x = x};
    L->a.y = (fig_axis){.lo = 0, .hi = 100, .label = L->ylabel, .n = 5, .at = at, .labels = tl};
    L->l = (fig_axes){.grid = true, .x = x, .y = loss_y(c)};
    if (L->loss) /* the two epoch axes lined up */
        fit_pair(c->f, &L->a, top, &L->l, bottom, true);
    else
        fig_axes_fit(c->f, &L->a, top);
}

/* Frame k of n of the animation (n 0: the still figure, the whole run): the curves up to epoch
 * k / (n - 1) of the whole on the whole run's axes, so that they grow across a fixed frame, in
 * the fullest layout that fits (a still figure's page grows taller instead: it keeps the first). */
static tf_status draw_upto(fig_ctx *c, void *state, long k, long n)
{
    (void)state;
    if (!c->order)
        return TF_ERR_RANGE;
    int epochs = order_trainer_cfg(c->order)->epochs;
    bool frame = n > 0;
    double upto = !frame ? INFINITY : n > 1 ? (double)epochs * (double)k / (double)(n - 1) : epochs;
    double *x = malloc(2 * ((size_t)epochs + 1) * sizeof *x);
    if (!x)
        return TF_ERR_NOMEM;
    double *y = x + epochs + 1;
    /* the legend: each scheme with its held-out accuracy at the last epoch drawn */
    fig_legend_item li[ORDER_MAX_SCHEMES];
    char lab[ORDER_MAX_SCHEMES][64];
    int nl = (int)order_trainer_count(c->order);
    for (int i = 0; i < nl; i++) {
        tf_scheme s = order_trainer_scheme(c->order, (size_t)i);
        size_t np = curve_xy(c->order, (size_t)i, false, upto, x, y);
        if (np)
            snprintf(lab[i], sizeof lab[i], "%s  %.1f %%", scheme_name(s), y[np - 1]);
        else
            snprintf(lab[i], sizeof lab[i], "%s", scheme_name(s));
        const scheme_style *st = style_scheme(s, ROPE_SCALING_NONE);
        li[i] = (fig_legend_item){.label = lab[i], .color = st->color, .dash = (fig_dash)st->dash};
        li[i].marker = 1 + (int)st->marker;
    }
    ot_layout L;
    int m = 0, last = frame ? 2 : 0;
    fig_trial t = fig_try(c->f); /* the first layout that fits, else the last, cramped */
    ot_fit(c, m, frame, li, nl, &L);
    while (!fig_tried(c->f, &t, m == last))
        ot_fit(c, ++m, frame, li, nl, &L);
    if (L.nh > 0)
        fig_text(c->f, FIG_NOTE, L.note, false, c->area.x, c->area.y + c->area.h, 0, 1, false);
    fig_legend_rows(c->f, li, nl, L.rows, true);
    curves_panel(c, L.a, false, upto, x, y);
    if (L.loss)
        curves_panel(c, L.l, true, upto, x, y);
    free(x);
    return TF_OK;
}

tf_status draw_order_training(fig_ctx *c)
{
    return draw_upto(c, NULL, 0, 0);
}

const fig_anim anim_order_training = {
    .frames = 41, .fps = 8, .still = "order-training", .frame = draw_upto,
};
