/* figure_axes.c — axes: tick choice (linear and logarithmic), margins that keep every label
 * clear of its neighbours, and the drawing of frames, ticks and labels, and of colour bars. */
#include "figure_priv.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---------------------------------------------------------------------------------------------
 * Tick labels */

/* A tick at v on ax, labelled "-0.5" with a typographic minus sign (U+2212), never "-0". */
static void value_tick(fig_axis *ax, double v, int decimals)
{
    char buf[40];
    snprintf(buf, sizeof buf, "%.*f", decimals, v);
    const char *digits = buf + (buf[0] == '-');
    bool minus = digits > buf && strspn(digits, "0.") < strlen(digits);
    ax->t[ax->nt] = v;
    snprintf(ax->tl[ax->nt++], sizeof ax->tl[0], minus ? "\u2212%s" : "%s", digits);
}

/* The fewest decimals that write every multiple of step exactly (0.25 -> 2). */
static int step_decimals(double step)
{
    for (int d = 0; d < 8; d++) {
        double s = step * pow(10.0, d);
        if (fabs(s - round(s)) < 1e-6 * s)
            return d;
    }
    return 8;
}

/* 1, 2, 2.5, 5 or 10 times a power of ten, at least raw. */
static double nice_step(double raw, bool integer)
{
    double p = pow(10.0, floor(log10(raw)));
    double m = raw / p;
    double s = (m <= 1.0 ? 1.0 : m <= 2.0 ? 2.0 : m <= 2.5 ? 2.5 : m <= 5.0 ? 5.0 : 10.0) * p;
    if (integer && s < 1.0)
        s = 1.0;
    if (integer && s != floor(s))
        s = 5.0 * p;
    return s;
}

static void linear_ticks(fig_axis *ax, double step)
{
    double lo = fmin(ax->lo, ax->hi), hi = fmax(ax->lo, ax->hi);
    double eps = 1e-9 * (hi - lo);
    int dec = step_decimals(step);
    ax->nt = 0; /* no minor ticks: only log axes have them */
    for (double k = ceil((lo - eps) / step); k * step <= hi + eps && ax->nt < FIG_MAX_TICKS; k++)
        value_tick(ax, fabs(k * step) < eps ? 0.0 : k * step, dec);
}

/* A tick at every decade 10^k of the range, every `every`-th labelled counting from the top
 * decade (so the range's end is labelled); minor ticks at 2..9 x 10^k when decades are few. */
static void log_ticks(fig_axis *ax, int every)
{
    double lo = fmin(ax->lo, ax->hi), hi = fmax(ax->lo, ax->hi);
    int k0 = (int)ceil(log10(lo) - 1e-9), k1 = (int)floor(log10(hi) + 1e-9);
    ax->nt = 0;
    ax->nminor = 0;
    for (int k = k0; k <= k1 && ax->nt < FIG_MAX_TICKS; k++) {
        ax->t[ax->nt] = pow(10.0, k);
        if ((k1 - k) % every)
            ax->tl[ax->nt][0] = '\0';
        else
            snprintf(ax->tl[ax->nt], sizeof ax->tl[0], "10<sup>%s%d</sup>", k < 0 ? "\u2212" : "",
                     k < 0 ? -k : k);
        ax->nt++;
    }
    if (k1 - k0 <= 6) {
        for (int k = k0 - 1; k <= k1; k++)
            for (int m = 2; m <= 9 && ax->nminor < FIG_MAX_TICKS * 2; m++) {
                double v = m * pow(10.0, k);
                if (v >= lo && v <= hi)
                    ax->minor[ax->nminor++] = v;
            }
    }
}

/* The widest and tallest tick label of ax. */
static void label_extent(fig *f, const fig_axis *ax, double *w, double *h)
{
    *w = 0.0;
    *h = 0.0;
    for (int i = 0; i < ax->nt; i++) {
        if (!ax->tl[i][0])
            continue;
        double tw, th;
        fig_text_size(f, ax->tl[i], false, &tw, &th);
        *w = fmax(*w, tw);
        *h = fmax(*h, th);
    }
    if (*h == 0.0)
        fig_text_size(f, "0", false, w, h), *w = 0.0;
}

/* Where v lies along the axis: 0 at its start, 1 at its end (log and flip applied). */
static double axis_at(const fig_axis *ax, double v)
{
    double t = ax->log ? (log10(v) - log10(ax->lo)) / (log10(ax->hi) - log10(ax->lo))
                       : (v - ax->lo) / (ax->hi - ax->lo);
    return ax->flip ? 1.0 - t : t;
}

/* Whether neighbouring ticks of ax stand at least gap apart along len points: its labelled ticks,
 * or with widths all of them, and half of each one's label more (category labels side by side). */
static bool ticks_apart(fig *f, const fig_axis *ax, double len, double gap, bool widths)
{
    double prev_w = 0, prev_p = NAN;
    for (int i = 0; i < ax->nt; i++) {
        double w = 0, h;
        if (widths)
            fig_text_size(f, ax->tl[i], false, &w, &h);
        else if (!ax->tl[i][0])
            continue;
        double p = axis_at(ax, ax->t[i]) * len;
        if (!isnan(prev_p) && fabs(p - prev_p) < (w + prev_w) / 2 + gap)
            return false;
        prev_w = w;
        prev_p = p;
    }
    return true;
}

static bool ticks_fit(fig *f, const fig_axis *ax, double len, bool horizontal)
{
    double fs = fig_font_size(f), w, h = 0;
    if (ax->n && horizontal)
        return ticks_apart(f, ax, len, 0.35 * fs, true);
    if (ax->n) { /* category labels (tokens) may sit closer than numbers */
        for (int i = 0; i < ax->nt; i++)
            h = ax->tl[i][0] ? fmax(h, fig_row_label_room(f, ax->tl[i], ax->ink_apart)) : h;
        return ticks_apart(f, ax, len, h, false);
    }
    /* numbers want air between them */
    label_extent(f, ax, &w, &h);
    return ticks_apart(f, ax, len, horizontal ? w + 0.9 * fs : h * 1.5, false);
}

/* The tick plan: the sparseness this axis must have at least (0: none), and the record of the
 * sparseness chosen (the last choice for an axis stands). */
static double plan_wants(const fig *f, const fig_plan_entry *k)
{
    const fig_plan_entry *e = fig_plan_find(f->spec.ticks_in, k);
    return e ? e->coarse : 0.0;
}

static void plan_chose(fig *f, fig_plan_entry k, double coarse)
{
    fig_ticks *out = f->spec.ticks_out;
    if (!out)
        return;
    k.coarse = coarse;
    fig_plan_entry *e = (fig_plan_entry *)fig_plan_find(out, &k);
    if (e)
        *e = k;
    else if (out->n < FIG_MAX_PLAN)
        out->e[out->n++] = k;
}

/* The larger of v and the plan's value for the next label or value asked about (what: its
 * FIG_PLAN_* kind), which joins the plan. */
static double plan_next(fig *f, int what, double v)
{
    fig_plan_entry k = {.lo = f->label_call++, .what = what};
    v = fmax(v, plan_wants(f, &k)); /* v >= 0: the plan's 0 when it has none */
    plan_chose(f, k, v);
    return v;
}

bool fig_plan_drop(fig *f, bool drop) { return plan_next(f, FIG_PLAN_LABEL, drop) > 0; }

double fig_plan_max(fig *f, double v) { return plan_next(f, FIG_PLAN_VALUE, v); }

/* Explicit ticks (categories): every k-th labelled, k the smallest that fits (at least want).
 * Returns k. */
static double category_ticks(fig *f, fig_axis *ax, double len, bool horizontal, double want)
{
    for (int every = want > 1 ? (int)want : 1;; every++) {
        ax->nt = 0;
        for (int i = 0; i < ax->n && ax->nt < FIG_MAX_TICKS; i += every) {
            ax->t[ax->nt] = ax->at[i];
            snprintf(ax->tl[ax->nt], sizeof ax->tl[0], "%s", ax->labels[i]);
            ax->nt++;
        }
        if (ax->nt <= 1 ||
            ((ax->n + every - 1) / every <= FIG_MAX_TICKS && ticks_fit(f, ax, len, horizontal)))
            return every;
    }
}

/* Decades: labels every k-th, k dividing the decades between the ends when it can, so that
 * both ends are labelled. Returns k. */
static double decade_ticks(fig *f, fig_axis *ax, double len, bool horizontal, double want)
{
    double lo = fmin(ax->lo, ax->hi), hi = fmax(ax->lo, ax->hi);
    int span = (int)floor(log10(hi) + 1e-9) - (int)ceil(log10(lo) - 1e-9);
    int most = span > 1 ? span : 1; /* the sparsest: the ends alone labelled */
    for (int every = 1;; every++) {
        if (every < most && (every < want || span % every))
            continue;
        log_ticks(ax, every);
        if (every == most || ticks_fit(f, ax, len, horizontal))
            return every;
    }
}

/* Numbers: the densest step of nice_step's whose labels fit (at least want). Returns the step,
 * 0 for an empty range. */
static double linear_choice(fig *f, fig_axis *ax, double len, bool horizontal, double want)
{
    double range = fabs(ax->hi - ax->lo);
    if (!(range > 0)) {
        ax->nt = 0;
        return 0;
    }
    double step = 0;
    for (int target = 10; target >= 2; target--) {
        step = nice_step(range / target, ax->integer);
        if (step < want * (1 - 1e-9))
            continue;
        linear_ticks(ax, step);
        if (ax->nt <= 2 || ticks_fit(f, ax, len, horizontal))
            return step;
    }
    step = fmax(step, want); /* the other page's ticks may be sparser than any of these */
    linear_ticks(ax, step);
    return step;
}

/* An axis whose ticks label fewer than two values (a colour bar, or an axis too short for its
 * steps): its ends instead, rounded inward, and 0 between them where it fits. A bar's ends stay
 * near its ends (to a tenth of its span); an axis's are round numbers where two fit (-60, 60 on
 * -63 .. 63). */
static void axis_ends(fig *f, fig_axis *ax, double len, bool horizontal, bool bar)
{
    double lo = fmin(ax->lo, ax->hi), hi = fmax(ax->lo, ax->hi);
    if (ax->nt >= 2 || ax->log || ax->n > 0 || !(hi > lo) || !isfinite(hi - lo))
        return; /* two labels or more: a linear axis labels every tick */
    /* ends rounded inward to q, so each tick stays on the bar: -0.2213 .. 0.2187 -> -0.22, 0.21 */
    double q = pow(10.0, floor(log10(hi - lo)) - 1);
    double round_q = pow(10.0, floor(log10(fmax(fabs(lo), fabs(hi)))));
    if (!bar && ceil(lo / round_q - 1e-9) < floor(hi / round_q + 1e-9))
        q = round_q;
    q = ax->integer ? fmax(q, 1) : q;
    int dec = q < 1 ? (int)lround(-log10(q)) : 0;
    double at[3] = {ceil(lo / q - 1e-9) * q, 0.0, floor(hi / q + 1e-9) * q};
    if (!(at[0] < at[2]))
        return; /* one round value inside (a one-row matrix's -0.5 .. 0.5): its one tick */
    /* 0 between them where its label fits, and where it fits on the other language's page too
     * (the plan: both pages get the same ticks) */
    fig_plan_entry key = {.lo = ax->lo, .hi = ax->hi, .what = FIG_PLAN_ENDS};
    bool signed_scale = at[0] < 0 && at[2] > 0;
    for (int zero = signed_scale && plan_wants(f, &key) == 0; zero >= 0; zero--) {
        ax->nt = 0; /* no minor ticks: linear_ticks left none */
        for (int i = 0; i < 3; i += zero ? 1 : 2)
            value_tick(ax, at[i], dec);
        if (!zero || ticks_fit(f, ax, len, horizontal)) {
            if (signed_scale)
                plan_chose(f, key, zero ? 0.0 : 1.0);
            return;
        }
    }
}

/* Choose ax's ticks for an axis len points long (horizontal: labels side by side) or a colour
 * bar (bar); where its steps label fewer than two values, its ends (axis_ends). */
static void axis_ticks(fig *f, fig_axis *ax, double len, bool horizontal, bool bar)
{
    fig_plan_entry key = {.lo = ax->lo, .hi = ax->hi, .n = ax->n,
                          .what = (ax->log ? FIG_PLAN_LOG : 0) |
                                  (ax->integer ? FIG_PLAN_INTEGER : 0) |
                                  (horizontal ? FIG_PLAN_ACROSS : 0)};
    double want = plan_wants(f, &key);
    plan_chose(f, key,
               ax->n > 0 ? category_ticks(f, ax, len, horizontal, want)
               : ax->log ? decade_ticks(f, ax, len, horizontal, want)
                         : linear_choice(f, ax, len, horizontal, want));
    axis_ends(f, ax, len, horizontal, bar);
}

/* ---------------------------------------------------------------------------------------------
 * Layout */

/* a's title line in room points wide: *tag_w its panel letter's width with the pad after it, *w
 * the title's width as drawn (when it has one) and *h the line's height; returns the width the
 * title wraps at, the room less the letter's corner on either side, or 0 when the title fits on one
 * line or the axes do not let it wrap (a narrow page: a long subtitle takes two lines instead of
 * refusing the page). */
static double title_line(fig *f, const fig_axes *a, double room, double *tag_w, double *w,
                         double *h)
{
    double tag_h = 0, wrap;
    *tag_w = 0;
    if (a->tag) {
        fig_text_size(f, a->tag, false, tag_w, &tag_h);
        *tag_w += fig_pad(f);
    }
    *h = tag_h;
    if (!a->title)
        return 0;
    fig_text_size(f, a->title, false, w, h);
    wrap = room - 2 * *tag_w;
    wrap = a->title_wraps && *w > wrap && wrap > 0 ? wrap : 0;
    fig_wrap_at(f, wrap);
    fig_text_size(f, a->title, false, w, h);
    fig_wrap_at(f, 0);
    *h = fmax(*h, tag_h);
    return wrap;
}

/* The factor by which have must grow to become want (2 when there is nothing to grow). */
static double grow(double want, double have)
{
    return have > 0 ? want / have : 2.0;
}

void fig_axes_fit(fig *f, fig_axes *a, fig_rect outer)
{
    double tick = fig_tick_len(f), pad = fig_pad(f);
    double w, h, th, tag_w;
    fig_rect room = a->title_room.w > 0 ? a->title_room : outer;
    fig_text_size(f, "0", false, &w, &th);
    /* the title centred over the plot, the letter at the panel's left edge; wrapped: on more
     * lines than one, across the whole room */
    bool wrapped = title_line(f, a, room.w, &tag_w, &w, &h) > 0;
    double top = a->title || a->tag ? h + pad : th / 2;
    /* a title or axis label longer than the room it is centred in would be clipped or run into
     * its neighbours: the page is too small for this font size */
    double overflow = a->title ? (w + 2 * tag_w) / room.w : 0; /* the widest against its room */
    double right = a->right;
    a->legend_band = (fig_rect){0};
    if (a->n_legend > 0 && right > FIG_LEGEND_BESIDE * outer.w) { /* above the plot */
        double y = a->title || a->tag ? top : 0; /* under the title */
        a->legend_band = (fig_rect){outer.x, outer.y + y, outer.w,
                                    fig_legend_rows(f, a->legend, a->n_legend, outer, false)};
        top = y + a->legend_band.h + 0.5 * pad + th / 2;
        right = 0;
    }
    double bottom = tick + (a->x.hide ? 0.0 : 0.5 * pad + th);
    if (a->x.label) {
        fig_text_size(f, a->x.label, false, &w, &h);
        bottom += 0.5 * pad + h;
        overflow = fmax(overflow, w / room.w);
    }
    double ph = outer.h - top - bottom;
    axis_ticks(f, &a->y, ph, false, false);
    label_extent(f, &a->y, &w, &h);
    double left = tick + (a->y.hide ? 0.0 : 0.5 * pad + w);
    if (a->y.label) {
        fig_text_size(f, a->y.label, false, &w, &h);
        left += pad + h;
        /* centred on the plot, it may reach into the room above and below it, not past it
         * (nor into a panel letter's corner, nor under a title that wrapped across the room) */
        double reach = 2 * fmin(a->tag || wrapped || a->legend_band.h > 0 ? 0.0 : top, bottom);
        fig_height_room(f, ph + reach, w);
        if (w > ph + reach) /* the plot as high as the label, less what it may reach */
            fig_need_more(f, grow(w - reach + top + bottom, outer.h), 1);
    }
    left = fmax(left, a->min_left);
    a->used_left = left;
    /* half of the last x label may stick out to the right */
    double pw = outer.w - left - right - 0.5 * pad;
    axis_ticks(f, &a->x, pw, true, false);
    label_extent(f, &a->x, &w, &h);
    if (right < w / 2)
        pw -= w / 2 - right;
    if (overflow > 1)
        fig_need_more(f, 1, overflow);
    /* a plot narrower than three labels or lower than two lines cannot be read */
    double least_w = 3 * f->spec.font_size, least_h = 2 * f->spec.font_size;
    fig_height_room(f, ph, least_h);
    if (!(pw >= least_w) || !(ph >= least_h)) {
        /* the growth of outer that gives the plot its least size, its labels kept */
        fig_need_more(f, ph >= least_h ? 1 : grow(least_h + top + bottom, outer.h),
                      pw >= least_w ? 1 : grow(least_w + outer.w - pw, outer.w));
        pw = fmax(pw, 1.0);
        ph = fmax(ph, 1.0);
    }
    a->r = fig_snap(f, (fig_rect){outer.x + left, outer.y + top, pw, ph});
    a->outer = room;
}

double fig_px(const fig_axes *a, double x) { return a->r.x + axis_at(&a->x, x) * a->r.w; }

double fig_py(const fig_axes *a, double y) { return a->r.y + (1.0 - axis_at(&a->y, y)) * a->r.h; }

/* ---------------------------------------------------------------------------------------------
 * Drawing */

static const tf_rgb axis_ink = {38, 38, 38};

/* Where a label is centred: over the middle of the plot, moved sideways to stay inside the room
 * the axes were given. */
static double centred_in(fig *f, const fig_axes *a, const char *label, double keep_left)
{
    double w, h, cx = a->r.x + a->r.w / 2;
    fig_text_size(f, label, false, &w, &h);
    /* a panel letter stands at the left of the plot's margin, which may lie right of the room's
     * edge (a panel narrowed to a square) */
    double left = keep_left > 0 ? fmax(a->outer.x, a->r.x - a->used_left) + keep_left : a->outer.x;
    if (a->outer.w > 0)
        cx = fmax(fmin(cx, a->outer.x + a->outer.w - w / 2), left + w / 2);
    return cx;
}

/* At each of the n values t on a's x axis (x) or y axis, a line across it from from to to. */
static void lines_at(fig *f, const fig_axes *a, const double *t, int n, bool x, double from,
                     double to)
{
    for (int i = 0; i < n; i++) {
        double p = x ? fig_px(a, t[i]) : fig_py(a, t[i]);
        pen_move(f, x ? p : from, x ? from : p);
        pen_line(f, x ? p : to, x ? to : p);
    }
}

/* Record the ticks of ax (axis 0 x, 1 y, 2 a colour bar's) as FIG_BOX_TICK boxes. */
static void record_ticks(fig *f, const fig_axis *ax, int axis, fig_rect plot)
{
    for (int i = 0; i < ax->nt; i++)
        fig_record(f, FIG_BOX_TICK, (fig_rect){ax->t[i], axis, !ax->hide && ax->tl[i][0], 0}, 0,
                   plot, ax->tl[i]);
}

void fig_axes_draw(fig *f, const fig_axes *a)
{
    double tick = fig_tick_len(f), pad = fig_pad(f), lw = fig_line_width(f);
    fig_rect r = a->r;
    pen_part_begin(f, PART_AXES, &r);
    fig_record(f, FIG_BOX_PLOT, r, 0, r, NULL);
    record_ticks(f, &a->x, 0, r);
    record_ticks(f, &a->y, 1, r);
    pen_cap(f, PEN_CAP_SQUARE);
    if (a->grid) {
        pen_rgb(f, (tf_rgb){225, 225, 225});
        pen_width(f, lw * 0.8);
        lines_at(f, a, a->y.t, a->y.nt, false, r.x, r.x + r.w);
        lines_at(f, a, a->x.t, a->x.nt, true, r.y, r.y + r.h);
        pen_stroke(f);
    }
    pen_rgb(f, axis_ink);
    pen_width(f, lw);
    if (a->frame) {
        pen_rect(f, r.x, r.y, r.w, r.h);
    } else {
        pen_move(f, r.x, r.y);
        pen_line(f, r.x, r.y + r.h);
        pen_line(f, r.x + r.w, r.y + r.h);
    }
    pen_stroke(f);
    pen_cap(f, PEN_CAP_BUTT); /* the major and minor tick marks, outside the plot */
    lines_at(f, a, a->x.t, a->x.nt, true, r.y + r.h, r.y + r.h + tick);
    lines_at(f, a, a->y.t, a->y.nt, false, r.x, r.x - tick);
    pen_stroke(f);
    pen_width(f, lw * 0.7);
    lines_at(f, a, a->x.minor, a->x.nminor, true, r.y + r.h, r.y + r.h + tick * 0.55);
    lines_at(f, a, a->y.minor, a->y.nminor, false, r.x, r.x - tick * 0.55);
    pen_stroke(f);

    double xw, xh;
    label_extent(f, &a->x, &xw, &xh);
    size_t ticks_from = fig_boxes_mark(f);
    for (int i = 0; i < a->x.nt && !a->x.hide; i++)
        fig_text(f, FIG_TICK, a->x.tl[i], false, fig_px(a, a->x.t[i]), r.y + r.h + tick + 0.5 * pad,
                 0.5, 0.0, false);
    for (int i = 0; i < a->y.nt && !a->y.hide; i++)
        fig_text(f, FIG_TICK, a->y.tl[i], false, r.x - tick - 0.5 * pad, fig_py(a, a->y.t[i]), 1.0,
                 0.5, false);
    fig_mark_text(f, ticks_from, 0, true);
    if (a->x.label)
        fig_text(f, FIG_LABEL, a->x.label, false, centred_in(f, a, a->x.label, 0),
                 r.y + r.h + tick + (a->x.hide ? 0.5 * pad : pad + xh), 0.5, 0.0, false);
    if (a->y.label)
        fig_text(f, FIG_LABEL, a->y.label, false, r.x - a->used_left, r.y + r.h / 2, 0.5, 0.0,
                 true);
    double tag_w, w, h, wrap = title_line(f, a, a->outer.w, &tag_w, &w, &h);
    /* the title line's foot: above the plot, or above a legend moved there */
    double foot = (a->legend_band.h > 0 ? a->legend_band.y : r.y) - pad;
    if (a->title) {
        size_t before = fig_boxes_mark(f);
        fig_wrap_at(f, wrap);
        fig_text(f, FIG_LABEL, a->title, false, centred_in(f, a, a->title, tag_w), foot, 0.5,
                 1.0, false);
        fig_wrap_at(f, 0);
        fig_mark_text(f, before, a->title_is_name ? FIG_TITLE_ROLE_NAME : FIG_TITLE_ROLE_TITLE,
                      false);
    }
    if (a->tag)
        fig_text(f, FIG_LABEL, a->tag, false, r.x - a->used_left, foot, 0.0, 1.0, false);
    pen_part_end(f, PART_AXES);
}

/* ---------------------------------------------------------------------------------------------
 * Colour bars */

#define CB_GAP 0.8  /* font sizes between a bar and what it is beside */
#define CB_BAR 0.85 /* font sizes: a bar's width */

double fig_colorbar_width(fig *f, double lo, double hi, const char *label)
{
    /* the bar's length is not known yet: the widest tick labels of any length it may have */
    double fs = f->spec.font_size, w = 0, h, lw;
    for (double len = 25.0; len <= 3200.0; len *= 2) {
        fig_axis ax = {.lo = lo, .hi = hi};
        axis_ticks(f, &ax, len, false, true);
        label_extent(f, &ax, &lw, &h);
        w = fmax(w, lw);
    }
    double total = CB_GAP * fs + CB_BAR * fs + fig_tick_len(f) + 0.5 * 0.35 * fs + w;
    if (label) {
        fig_text_size(f, label, false, &w, &h);
        total += 0.35 * fs + h;
    }
    return total;
}

/* A triangle in colour k on the bar's end: its base on the ramp at y, its tip tip_y. */
static void cb_end(fig *f, fig_rect bar, double y, double tip_y, tf_rgb k)
{
    pen_move(f, bar.x, y);
    pen_line(f, bar.x + bar.w, y);
    pen_line(f, bar.x + bar.w / 2, tip_y);
    pen_close(f);
    pen_rgb(f, k);
    pen_fill(f);
    pen_move(f, bar.x, y);
    pen_line(f, bar.x + bar.w / 2, tip_y);
    pen_line(f, bar.x + bar.w, y);
    pen_rgb(f, axis_ink);
    pen_stroke(f);
}

void fig_colorbar(fig *f, fig_rect r, cmap_id cm, double lo, double hi, const char *label)
{
    fig_colorbar_clip(f, r, cm, lo, hi, label, 0);
}

void fig_colorbar_clip(fig *f, fig_rect r, cmap_id cm, double lo, double hi, const char *label,
                       int clip)
{
    fig_axes a = {.x = {.lo = 0, .hi = 1}, .y = {.lo = lo, .hi = hi}};
    /* a marked end's triangle: as tall as the bar is wide */
    double fs = f->spec.font_size, tri = CB_BAR * fs;
    if (r.h < 6 * tri)
        clip = 0;
    double top = clip & 2 ? tri : 0, bottom = clip & 1 ? tri : 0;
    r.y += top;
    r.h -= top + bottom;
    a.r = fig_snap(f, (fig_rect){r.x + CB_GAP * fs, r.y, tri, r.h});
    axis_ticks(f, &a.y, r.h, false, true);
    pen_part_begin(f, PART_COLORBAR, &r);

    /* the ramp: 256 table entries, top = hi */
    fig_record(f, FIG_BOX_COLORBAR, a.r, 0, a.r, NULL);
    record_ticks(f, &a.y, 2, a.r);
    tf_rgb pal[256];
    colormap_palette(cm, pal);
    uint32_t ramp[256];
    for (int i = 0; i < 256; i++)
        ramp[i] = (uint32_t)pal[255 - i].r << 16 | (uint32_t)pal[255 - i].g << 8 | pal[255 - i].b;
    pen_image(f, ramp, 1, 256, a.r, false);

    double tick = fig_tick_len(f), pad = fig_pad(f);
    pen_width(f, fig_line_width(f));
    if (clip & 2)
        cb_end(f, a.r, a.r.y, a.r.y - top, pal[255]);
    if (clip & 1)
        cb_end(f, a.r, a.r.y + a.r.h, a.r.y + a.r.h + bottom, pal[0]);
    pen_rgb(f, axis_ink);
    pen_rect(f, a.r.x, a.r.y, a.r.w, a.r.h);
    double x1 = a.r.x + a.r.w;
    lines_at(f, &a, a.y.t, a.y.nt, false, x1, x1 + tick);
    pen_stroke(f);
    double w, h;
    label_extent(f, &a.y, &w, &h);
    size_t ticks_from = fig_boxes_mark(f);
    for (int i = 0; i < a.y.nt; i++)
        fig_text(f, FIG_TICK, a.y.tl[i], false, x1 + tick + 0.5 * pad, fig_py(&a, a.y.t[i]), 0.0,
                 0.5, false);
    fig_mark_text(f, ticks_from, 0, true);
    if (label)
        fig_text(f, FIG_LABEL, label, false, x1 + tick + 0.5 * pad + w + pad, a.r.y + a.r.h / 2,
                 0.5, 0.0, true);
    pen_part_end(f, PART_COLORBAR);
}
