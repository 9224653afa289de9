/* fig_schemes.c — the figures of the position schemes real models use, beyond the article:
 *   schemes  every listed scheme against distance k = i - j on a logarithmic axis, the ones that
 *            compare positions (similarity, RoPE's score) in one panel, the ones that add a bias
 *            to the scores in another (stacked in a column, side by side across a text block),
 *            each trained length a dashed line in its curve's colour, labelled clear of the
 *            curves, so the class sees what each scheme does past the context it was trained on;
 *   pe-file  a learned position table (--pe-file, or the untrained one): its heatmap, the dot
 *            products of its rows and its similarity against offset next to sinusoidal PE's.
 * The numbers come from model/positions.h and learned_pe.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/emit.h"
#include "figures/draw.h"
#include "positions.h"
#include "style.h"

#define SCHEMES_MAX_DISTANCE 100000L /* the schemes figure's axis ends here at most */
#define PEFILE_MAX_ROWS 1024L        /* rows of the pe-file figure's dot-product matrix and curve:
                                        GPT-2's whole wpe, a second at most for any table */

static const tf_positions *run_params(const tf_config *cfg, tf_positions *def)
{
    if (cfg->positions)
        return cfg->positions;
    positions_defaults(def);
    return def;
}

static void ctx_free(void *pc)
{
    posctx_close(pc);
    free(pc);
}

/* The context of positions p, opened once an export (the untrained tables are thousands of rows)
 * and kept in its memo: *pc a copy of the kept one, *own false; without a memo *pc opened here,
 * *own true (the caller closes it). */
static tf_status open_ctx(const fig_ctx *c, const tf_positions *p, tf_posctx *pc, bool *own)
{
    const tf_config *cfg = &c->a->cfg;
    tf_posctx *kept = !c->memo ? NULL : c->memo->kept ? c->memo->kept : malloc(sizeof *kept);
    *own = !kept;
    if (kept && kept == c->memo->kept) {
        *pc = *kept;
        return TF_OK;
    }
    tf_status st = posctx_open(kept ? kept : pc, p, cfg->d_model, cfg->base, cfg->rope,
                               cfg->seed, NULL);
    if (kept && st != TF_OK)
        free(kept);
    else if (kept)
        *pc = *kept, c->memo->kept = kept, c->memo->kept_free = ctx_free;
    return st;
}

/* =============================================================================================
 * schemes */

typedef struct {
    posctx_curve_row r; /* v and unseen (in percent) at the distances x[] */
    bool bias;          /* the lower panel */
    char label[240];
    const scheme_style *ss; /* the scheme's colour, dash and marker (style.h) */
} scurve;

/* The curve's legend label. */
static void scurve_label(const fig_ctx *c, const tf_posctx *pc, scurve *k)
{
    const tf_positions *p = &pc->p;
    const char *from = c->zh ? "来自文件" : "from the file";
    const char *random = c->zh ? "未训练：随机" : "untrained: random";
    size_t n = sizeof k->label;
    if (k->r.s == SCHEME_NONE)
        snprintf(k->label, n, c->zh ? "无位置（NoPE）：0" : "none (NoPE): 0");
    else if (k->r.s == SCHEME_SINUSOIDAL)
        snprintf(k->label, n,
                 c->zh ? "正弦 PE 余弦（<i>d</i> = %d）" : "sinusoidal PE, cosine (<i>d</i> = %d)",
                 pc->d);
    else if (k->r.s == SCHEME_LEARNED)
        snprintf(k->label, n, c->zh ? "可学习表余弦（%s）" : "learned table, cosine (%s)",
                 pc->table->trained ? from : random);
    else if (k->r.s == SCHEME_ROPE && k->r.scaled)
        snprintf(k->label, n, "RoPE + %s ×%g", rope_scaling_name(p->scaling.kind),
                 p->scaling.factor);
    else if (k->r.s == SCHEME_ROPE)
        snprintf(k->label, n,
                 c->zh ? "RoPE 得分 <i>q·k</i>（<i>q</i> = <i>k</i>）"
                       : "RoPE score <i>q·k</i> (<i>q</i> = <i>k</i>)");
    else if (k->r.s == SCHEME_ALIBI)
        snprintf(k->label, n,
                 c->zh ? "ALiBi −<i>m</i>|<i>k</i>|，<i>m</i> = %.4g（头 %d）"
                       : "ALiBi −<i>m</i>|<i>k</i>|, <i>m</i> = %.4g (head %d)",
                 pc->slopes[p->head], p->head + 1);
    else
        snprintf(k->label, n, c->zh ? "T5 偏置，头 %d（%s）" : "T5 bias, head %d (%s)", p->head + 1,
                 pc->t5->trained ? from : random);
}

typedef struct {
    tf_posctx pc;
    bool own_pc;  /* pc is closed with the curves (else the export's memo keeps it) */
    long R;       /* the last distance drawn */
    double *x;    /* (m) the distances drawn, 1 .. R */
    long m;
    int nc; /* curves */
    scurve k[SCHEME_COUNT + 1];
} scurves;

static void scurves_free(scurves *S)
{
    for (int i = 0; i < S->nc; i++) {
        free(S->k[i].r.v);
        free(S->k[i].r.unseen);
    }
    free(S->x);
    if (S->own_pc)
        posctx_close(&S->pc);
}

/* Curves that are equal at every distance drawn (within 1e-9 of their scale: RoPE's q·k for
 * q = k is the sinusoidal PE's cosine, C13) would show as one line: each later one is told which
 * it equals, drawn dashed over it with markers beside the other's, and its legend says so. */
static void scurves_coincide(const fig_ctx *c, scurves *S)
{
    /* each scheme as the legend names it: the start of its own label */
    static const char *const name[SCHEME_COUNT][2] = {
        {"none", "无位置"}, {"sinusoidal PE", "正弦 PE"}, {"learned table", "可学习表"},
        {"RoPE", "RoPE"},   {"ALiBi", "ALiBi"},           {"T5", "T5"}};
    for (int i = 0; i < S->nc; i++) {
        scurve *k = &S->k[i];
        for (int j = 0; j < i; j++) {
            const scurve *o = &S->k[j];
            double tol = 0.0, diff = 0.0;
            for (long t = 0; t < S->m; t++) {
                tol = fmax(tol, fabs(o->r.v[t]));
                diff = fmax(diff, fabs(o->r.v[t] - k->r.v[t]));
            }
            if (o->bias != k->bias || diff > 1e-9 * fmax(tol, 1.0))
                continue;
            char own[160]; /* the label without what it coincides with */
            snprintf(own, sizeof own, "%s", k->label);
            txt_fmt_lang(k->label, sizeof k->label, T_F_SAME_CURVE, c->zh, own,
                         name[o->r.s][c->zh]);
            break;
        }
    }
}

/* Every distance up to this is drawn, ... */
#define SCHEMES_DENSE 64L
/* ... and past it this many, evenly spaced on the log axis: about one to a point of a plot
 * across a text block, two across a column, at a cost that does not grow with R (a learned
 * table's similarity costs a pass over its rows per distance) */
#define SCHEMES_SAMPLES 400L

/* The listed curves' values at the distances S->x (the functions --print schemes takes them
 * from), or the export's earlier page's: curve i in memo slots 2i (values) and 2i + 1 (unseen). */
_Static_assert(2 * (SCHEME_COUNT + 1) <= FIG_MEMO_SLOTS, "a curve's values and unseen share");

static tf_status scurves_fill(const fig_ctx *c, scurves *S)
{
    size_t m = (size_t)S->m;
    long *k = malloc(m * sizeof *k);
    if (!k)
        return TF_ERR_NOMEM;
    for (long j = 0; j < S->m; j++)
        k[j] = (long)S->x[j];
    tf_status st = TF_OK;
    for (int i = 0; i < S->nc && st == TF_OK; i++) {
        posctx_curve_row *r = &S->k[i].r;
        bool unseen = r->s == SCHEME_ROPE && r->trained > 0;
        r->v = malloc(m * sizeof *r->v);
        r->unseen = unseen ? malloc(m * sizeof *r->unseen) : NULL;
        st = !r->v || (unseen && !r->unseen) ? TF_ERR_NOMEM : TF_OK;
        if (st != TF_OK ||
            (memo_get(c, 2 * i, r->v, m) && (!unseen || memo_get(c, 2 * i + 1, r->unseen, m))))
            continue; /* out of memory, or the export's earlier page computed them */
        st = posctx_curve_at(&S->pc, r->s, r->scaled, k, S->m, r->v);
        for (long j = 0; unseen && j < S->m; j++) /* drawn in percent */
            r->unseen[j] = 100.0 * posctx_unseen(&S->pc, r->scaled, S->x[j]);
        memo_put(c, 2 * i, r->v, m);
        if (unseen)
            memo_put(c, 2 * i + 1, r->unseen, m);
    }
    free(k);
    return st;
}

/* The listed schemes (posctx_curves: all six when none is, RoPE also with its scaling) at
 * distances 1 .. R (SCHEMES_DENSE, SCHEMES_SAMPLES), R past the longest trained length. */
static tf_status scurves_make(const fig_ctx *c, scurves *S)
{
    memset(S, 0, sizeof *S);
    tf_positions def;
    tf_status st = open_ctx(c, run_params(&c->a->cfg, &def), &S->pc, &S->own_pc);
    if (st != TF_OK)
        return st;
    const tf_positions *p = &S->pc.p;
    posctx_curves cv;
    posctx_curves_list(&S->pc, &cv);
    S->nc = cv.n_curves;
    long longest = 0;
    for (int i = 0; i < S->nc; i++) {
        scurve *k = &S->k[i];
        k->r = cv.c[i];
        k->bias = poscurve_quantity_of(k->r.s) == POSCURVE_BIAS;
        k->ss = style_scheme(k->r.s, k->r.scaled ? p->scaling.kind : ROPE_SCALING_NONE);
        scurve_label(c, &S->pc, k);
        /* a scaled RoPE is meant for factor x its trained length: show where that ends */
        double reach = (double)k->r.trained * (k->r.scaled ? fmax(p->scaling.factor, 1.0) : 1.0);
        longest = reach > (double)longest ? (long)fmin(reach, 1e9) : longest;
    }
    /* past the longest trained length by half again, and at least -n: 8 .. SCHEMES_MAX_DISTANCE */
    double R = fmax(1.5 * (double)longest, (double)c->a->cfg.n_positions);
    S->R = (long)fmin(fmax(R, 8.0), (double)SCHEMES_MAX_DISTANCE);
    S->x = calloc((size_t)(SCHEMES_DENSE + SCHEMES_SAMPLES + 1), sizeof *S->x);
    for (long t = 1; S->x && t <= S->R && t <= SCHEMES_DENSE; t++)
        S->x[S->m++] = (double)t;
    double a = log((double)SCHEMES_DENSE), b = log((double)S->R);
    for (long j = 1; S->x && S->R > SCHEMES_DENSE && j <= SCHEMES_SAMPLES; j++) {
        double t =
            j == SCHEMES_SAMPLES ? (double)S->R : round(exp(a + (b - a) * j / SCHEMES_SAMPLES));
        if (t > S->x[S->m - 1])
            S->x[S->m++] = t;
    }
    st = S->x ? scurves_fill(c, S) : TF_ERR_NOMEM;
    if (st == TF_OK)
        scurves_coincide(c, S);
    else
        scurves_free(S);
    return st;
}

/* Where label s may break at byte p: 1 a space that becomes the break, 2 a break before p (a
 * full-width parenthesis), 3 a break after the mark at p (a full-width comma; 3 bytes); 0 none.
 * Only the marks (parentheses, commas) when marks_only. */
static int break_kind(const char *s, size_t p, bool marks_only)
{
    if (strncmp(s + p, "\xef\xbc\x88" /* （ */, 3) == 0)
        return p > 0 ? 2 : 0;
    if (strncmp(s + p, "\xef\xbc\x8c" /* ， */, 3) == 0)
        return s[p + 3] ? 3 : 0;
    if (s[p] != ' ' || p == 0 || !s[p + 1])
        return 0;
    return !marks_only || s[p + 1] == '(' || s[p - 1] == ',' ? 1 : 0;
}

/* The legend's labels copied into lab, which the items then point to, those too wide for room
 * broken into lines: each break where the widest line is least, first (two at most) only at a
 * parenthesis or after a comma, then (two more at most) at any space too. */
static void legend_wrap(fig *f, fig_legend_item *li, int n, double room, char (*lab)[176])
{
    for (int i = 0; i < n; i++) {
        char *best = lab[i], trial[176];
        snprintf(best, sizeof trial, "%s", li[i].label);
        li[i].label = best;
        fig_legend_item it = li[i];
        for (int step = 0; step < 4; step++) { /* two breaks at the marks, then two anywhere */
            double bw = fig_legend_width(f, &li[i], 1);
            if (bw <= room)
                break;
            char chosen[176] = "";
            for (size_t p = 0; best[p]; p++) {
                int k = break_kind(best, p, step < 2);
                if (!k)
                    continue;
                size_t cut = k == 3 ? p + 3 : p, skip = k == 1 ? 1 : 0;
                if (snprintf(trial, sizeof trial, "%.*s\n%s", (int)cut, best, best + cut + skip) >=
                    (int)sizeof trial)
                    continue; /* no room for one more line break */
                it.label = trial;
                double w = fig_legend_width(f, &it, 1);
                if (w < bw) {
                    bw = w;
                    memcpy(chosen, trial, sizeof chosen);
                }
            }
            if (chosen[0])
                memcpy(best, chosen, sizeof chosen);
        }
    }
}

/* A legend in a band of its own below a panel (a one-column page has no room beside the plot,
 * and inside it the legend would hide the curves), the band a font size taller than it. */
static void legend_below(fig *f, const fig_axes *ax, const fig_legend_item *li, int n, double y)
{
    /* its frame under the plot's left edge; wider than the room right of it, moved left into
     * the margin of the axis labels (wider than the panel's whole room, its labels were broken
     * in two lines first: legend_wrap) */
    double fs = fig_font_size(f), w = fig_legend_width(f, li, n) - 0.6 * fs;
    double right = ax->outer.x + ax->outer.w, left = fmax(ax->outer.x, fmin(ax->r.x, right - w));
    fig_axes band = {.r = {left - 0.5 * fs, y, ax->r.w, 1}};
    fig_legend(f, &band, li, n, 0);
}

#define FIT_LABEL 400 /* bytes of a panel's title and vertical label, fitted */

/* Each panel's title, vertical label, and that label in brief (the title says the rest), in
 * English and Chinese. */
static const char *const panel_text[3][3][2] = {
    {{"schemes that compare positions", "比较两个位置的方案"},
     {"similarity / score", "相似度 / 得分"},
     {"similarity", "相似度"}},
    {{"RoPE past its trained length: pairs rotated to angles never seen",
      "RoPE 超出训练长度：有多少频率对转到训练中没见过的角度"},
     {"unseen angles, % of pairs", "未见过的角度，占频率对的 %"},
     {"unseen, %", "未见过的 %"}},
    {{"schemes that bias the scores", "作用在注意力得分上的方案"},
     {"bias added to the score", "加到得分上的偏置"},
     {"bias", "偏置"}}};

/* s (FIT_LABEL bytes) in lines no wider than width, where it is wider: a line break after its
 * first full-width mark cjk, else in place of the space of its first latin (a mark and a
 * space), then where it must. */
static void wrap_after(fig *f, char *s, const char *cjk, const char *latin, double width)
{
    if (!too_wide(f, s, width))
        return;
    char *m = strstr(s, cjk), *sp = strstr(s, latin);
    size_t n = strlen(cjk);
    if (m && strlen(s) + 1 < FIT_LABEL) {
        memmove(m + n + 1, m + n, strlen(m + n) + 1);
        m[n] = '\n';
    } else if (sp)
        sp[1] = '\n';
    fig_wrap(f, s, FIT_LABEL, width);
}

/* Panel b's vertical label into ylabel (FIT_LABEL bytes) in lines no longer than a plot ph
 * points high: broken first after its comma, then where it must; in more than two lines it
 * would take the plot's width: in brief, and if that too needs more, a taller page is asked
 * for. */
static void fit_ylabel(const fig_ctx *c, fig_axes *ax, int b, char *ylabel, double ph)
{
    for (int k = 0; k < 2; k++) {
        snprintf(ylabel, FIT_LABEL, "%s", panel_text[b][1 + k][c->zh]);
        wrap_after(c->f, ylabel, "\xef\xbc\x8c" /* ， */, ", ", ph);
        const char *nl2 = strchr(ylabel, '\n');
        if (!nl2 || !strchr(nl2 + 1, '\n'))
            break;
        if (k == 1)
            fig_set_cramped(c->f);
    }
    ax->y.label = ylabel;
}

/* Panel b's axes (0: positions compared, 1: RoPE's unseen angles, 2: biases) over distances
 * 1 .. R, fitted to r: its long title and vertical label in lines that fit (title and ylabel,
 * FIT_LABEL bytes each, hold them), its x label under its formula. */
static void panel_axes(const fig_ctx *c, const scurves *S, int b, fig_rect r, char *title,
                       char *ylabel, fig_axes *ax)
{
    bool bias = b == 2;
    double lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < S->nc; i++)
        for (long t = 0; S->k[i].bias == bias && t < S->m; t++)
            if (isfinite(S->k[i].r.v[t])) {
                lo = fmin(lo, S->k[i].r.v[t]);
                hi = fmax(hi, S->k[i].r.v[t]);
            }
    /* ALiBi's line falls without end: past -12 (a weight e^-12 of the nearest key's) the panel
     * lets it leave, so the other biases stay readable */
    lo = bias ? fmax(fmin(lo, -1.0), -12.0) : fmin(lo, -1.0);
    hi = fmax(hi, 1.0);
    double pad = 0.05 * (hi - lo);
    *ax = (fig_axes){.grid = true};
    ax->x = (fig_axis){.lo = 1, .hi = (double)S->R, .log = true,
                       .label = c->zh ? "距离 <i>k</i> = <i>i</i> − <i>j</i>（对数轴）"
                                      : "distance <i>k</i> = <i>i</i> − <i>j</i> (log axis)"};
    ax->y = (fig_axis){.lo = lo - pad, .hi = hi + pad};
    if (b == 1) /* the share of rotation pairs at angles the model never saw in training */
        ax->y = (fig_axis){.lo = -4, .hi = 104};
    double lw, lh, fs = fig_font_size(c->f);
    fig_text_size(c->f, "0", false, &lw, &lh);
    snprintf(title, FIT_LABEL, "%s", panel_text[b][0][c->zh]);
    /* first after the colon (comma) where the sentence breaks; then where it must */
    wrap_after(c->f, title, "\xef\xbc\x9a" /* ： */, ": ", r.w);
    ax->title = title;
    /* the plot's height, about: the panel's less a title, ticks and an axis label */
    fit_ylabel(c, ax, b, ylabel, r.h - 3 * lh - 1.5 * fs);
    if (too_wide(c->f, ax->x.label, r.w))
        ax->x.label = c->zh ? "距离 <i>k</i> = <i>i</i> − <i>j</i>\n（对数轴）"
                            : "distance <i>k</i> = <i>i</i> − <i>j</i>\n(log axis)";
}

/* The label of trained length L beside its guide line: "L = 128", or on a plot too narrow for
 * that beside the curves the number alone; left of the line, then right of it; at the edge where
 * the panel's values have settled (the top for similarities, which have fallen there; the bottom
 * for biases, which stay near 0 there), then the other edge, then heights between: the first
 * place no curve, guide or label placed before crosses. With no room for either, where the full
 * label reads best, and a taller page is asked for. Returns the box taken. */
static fig_rect place_length(fig_ctx *c, const fig_axes *ax, bool bias, long L,
                             const fig_series *sr, int ns, const fig_rect *taken, int nt)
{
    double fs = fig_font_size(c->f), lw = 0.065 * fs;
    double w, h, pad = 0.2 * fs, gx = fig_px(ax, (double)L);
    static const double heights[] = {0,      1,      0.5,    0.25,   0.75,   0.125,
                                     0.375,  0.625,  0.875,  0.0625, 0.1875, 0.3125,
                                     0.4375, 0.5625, 0.6875, 0.8125, 0.9375};
    const fig_rect r = ax->r;
    /* off the guide line by its half width and more than the hair kept round the letters */
    const double off = 1.2 * lw + 0.15 * fs;
    char tl[2][48];
    snprintf(tl[0], sizeof tl[0], "<i>L</i> = %ld", L);
    snprintf(tl[1], sizeof tl[1], "%ld", L);
    for (int n = 0; n < 2; n++) {
        fig_text_size(c->f, tl[n], false, &w, &h);
        for (size_t k = 0; k < sizeof heights / sizeof heights[0]; k++)
            for (int side = 0; side < 2; side++) {
                double f = bias ? 1 - heights[k] : heights[k]; /* 0: the top */
                fig_rect b = {side ? gx + off : gx - off - w, r.y + pad + f * (r.h - 2 * pad - h),
                              w, h};
                if (b.x < r.x + pad || b.x + b.w > r.x + r.w - pad)
                    continue;
                /* a hair of room around the letters */
                fig_rect g = {b.x - 0.1 * fs, b.y - 0.05 * fs, b.w + 0.2 * fs, b.h + 0.1 * fs};
                bool clear = true;
                for (int i = 0; i < ns && clear; i++)
                    clear = !fig_series_hit(ax, &sr[i], g);
                for (int i = 0; i < nt && clear; i++)
                    clear = g.x >= taken[i].x + taken[i].w || g.x + g.w <= taken[i].x ||
                            g.y >= taken[i].y + taken[i].h || g.y + g.h <= taken[i].y;
                if (clear) {
                    fig_text_in(c->f, ax, tl[n], false, b.x, b.y, 0, 0);
                    return b;
                }
            }
    }
    fig_set_cramped(c->f);
    fig_text_size(c->f, tl[0], false, &w, &h);
    fig_rect at = {fmax(r.x, gx - w - pad), bias ? r.y + r.h - h : r.y, w, h};
    fig_text_in(c->f, ax, tl[0], false, at.x, at.y, 0, 0);
    return at;
}

/* Draw panel b's curves (0: positions compared, 2: biases), each trained length a dashed line
 * in its curve's colour, labelled clear of the curves; or (1) RoPE's unseen angles, each
 * trained length a dotted grey line. */
static void panel_draw(fig_ctx *c, const scurves *S, int b, const fig_axes *ax)
{
    fig_axes_draw(c->f, ax);
    double lw = 0.065 * fig_font_size(c->f);
    for (int i = 0; b == 1 && i < S->nc; i++) {
        const scurve *k = &S->k[i];
        if (!k->r.unseen)
            continue;
        fig_line(c->f, ax, S->x, k->r.unseen, S->m, k->ss->color, 2 * lw, (fig_dash)k->ss->dash);
        fig_segment(c->f, ax, (double)k->r.trained, ax->y.lo, (double)k->r.trained, ax->y.hi,
                    (tf_rgb){120, 120, 120}, 1.5 * lw, FIG_DOTTED);
    }
    if (b == 1)
        return;
    bool bias = b == 2;
    fig_segment(c->f, ax, ax->x.lo, 0, ax->x.hi, 0, (tf_rgb){150, 150, 150}, lw, FIG_SOLID);
    /* the lines a label keeps off: that at 0, the curves and their trained lengths' guides */
    double zx[2] = {ax->x.lo, ax->x.hi}, zero[2] = {0, 0}, gy[2] = {ax->y.lo, ax->y.hi};
    double xs[SCHEME_COUNT + 1][2];
    fig_series sr[2 + 2 * (SCHEME_COUNT + 1)] = {{.x = zx, .y = zero, .n = 2}};
    int ns = 1;
    double ms = 0.55 * fig_font_size(c->f), span = log((double)S->R);
    /* none (0 everywhere) under the rest; sinusoidal last and dashed: plain RoPE's score for
     * q = k is the same curve */
    int sin_at = S->nc - 1;
    for (int i = 0; i < S->nc; i++)
        sin_at = S->k[i].r.s == SCHEME_SINUSOIDAL ? i : sin_at;
    for (int j = 0; j < 2 * S->nc; j++) {
        int i = (j + sin_at + 1) % S->nc;
        const scurve *k = &S->k[i];
        if (k->bias != bias || (k->r.s == SCHEME_NONE) != (j < S->nc))
            continue;
        fig_line(c->f, ax, S->x, k->r.v, S->m, k->ss->color, 2 * lw, (fig_dash)k->ss->dash);
        sr[ns++] = (fig_series){.x = S->x, .y = k->r.v, .n = S->m};
        /* six markers at distances evenly spaced on the log axis, shifted by the curve's place
         * so that two equal curves show their markers side by side */
        for (int m = 0; m < 6; m++) {
            double at = exp(span * (m + 0.3 + 0.35 * (i % 3)) / 6.6);
            long t = 0; /* the distance drawn nearest below */
            while (t + 1 < S->m && S->x[t + 1] <= at)
                t++;
            fig_markers_shape(c->f, ax, &S->x[t], &k->r.v[t], 1, k->ss->color, ms, k->ss->marker);
        }
        if (k->r.trained > 0 && k->r.trained <= S->R) {
            fig_segment(c->f, ax, (double)k->r.trained, ax->y.lo, (double)k->r.trained, ax->y.hi,
                        k->ss->color, 1.5 * lw, FIG_DASHED);
            xs[i][0] = xs[i][1] = (double)k->r.trained;
            sr[ns++] = (fig_series){.x = xs[i], .y = gy, .n = 2};
        }
    }
    /* the labels after every line, so that each keeps off all of them */
    fig_rect taken[SCHEME_COUNT + 1];
    int n_said = 0;
    for (int i = 0; i < S->nc; i++) {
        const scurve *k = &S->k[i];
        bool again = false; /* two schemes of one trained length say it once */
        for (int j = 0; j < i; j++)
            again |= S->k[j].bias == bias && S->k[j].r.trained == k->r.trained;
        if (k->bias != bias || !(k->r.trained > 0 && k->r.trained <= S->R) || again)
            continue;
        taken[n_said] = place_length(c, ax, bias, k->r.trained, sr, ns, taken, n_said);
        n_said++;
    }
}

/* The schemes figure: up to three panels (positions compared, RoPE's unseen angles, biases),
 * each with its legend in a band below it.
 * Long: two passes over the same panels (fit each in its rectangle, then level the side-by-side
 * plots and draw) that share a dozen per-panel arrays; split, they would travel in a struct that
 * serves this function alone. */
tf_status draw_schemes(fig_ctx *c)
{
    scurves S;
    tf_status st = scurves_make(c, &S);
    if (st != TF_OK)
        return st;
    /* side by side on a wide page (a text block's width: the figure as tall as a paper's
     * figures are), else stacked */
    fig_legend_item li[3][SCHEME_COUNT + 1];
    /* RoPE's unseen angles (the middle panel) are drawn in the styles of the first panel's RoPE
     * curves: no legend of their own */
    int nl[3] = {0};
    bool on[3] = {false};
    for (int i = 0; i < S.nc; i++) {
        const scurve *k = &S.k[i];
        int b = k->bias ? 2 : 0; /* the panel of the curves that bias the scores, or the first */
        li[b][nl[b]++] = (fig_legend_item){.label = k->label,
                                           .color = k->ss->color,
                                           .dash = (fig_dash)k->ss->dash,
                                           .marker = 1 + k->ss->marker};
        on[b] = true;
        on[1] |= k->r.unseen != NULL;
    }
    int np = on[0] + on[1] + on[2];
    bool wide = np > 1 && c->area.w > 1.1 * c->area.h;
    double gap = 0.6 * fig_font_size(c->f), gapx = 1.5 * gap;
    double h = (c->area.h - (np - 1) * gap) / np, pw = (c->area.w - (np - 1) * gapx) / np;
    fig_rect r[3];
    fig_axes ax[3];
    char lab[3][SCHEME_COUNT + 1][176], title[3][FIT_LABEL], ylabel[3][FIT_LABEL];
    double left = 0, y = c->area.y, xr = c->area.x, band[3], band_max = 0;
    double top = -INFINITY, bottom = INFINITY;
    for (int b = 0; b < 3; b++) { /* (an empty legend: an empty band) */
        legend_wrap(c->f, li[b], nl[b], wide ? pw : c->area.w, lab[b]);
        band[b] = nl[b] ? fig_legend_height(c->f, li[b], nl[b]) + fig_font_size(c->f) : 0.0;
        /* a legend wider than its panel's column even in two lines would cover its
         * neighbour's: a taller page, where the panels stack and each legend has the width */
        double lw = fig_legend_width(c->f, li[b], nl[b]) - 0.6 * fig_font_size(c->f);
        if (wide && lw > pw)
            fig_need_more(c->f, 1, lw / pw);
        band_max = fmax(band_max, band[b]);
    }
    for (int b = 0; b < 3; b++) {
        if (!on[b])
            continue;
        if (wide) { /* the plots' bottoms level: the deepest legend's band under each */
            r[b] = (fig_rect){xr, c->area.y, pw, c->area.h - band_max};
            xr += pw + gapx;
        } else {
            r[b] = (fig_rect){c->area.x, y, c->area.w, h - band[b]};
            y += h + gap;
        }
        panel_axes(c, &S, b, r[b], title[b], ylabel[b], &ax[b]);
        fig_axes_fit(c->f, &ax[b], r[b]);
        /* stacked, the panels' plots line up on the left; side by side, their tops and bottoms
         * (titles and x labels of more lines than their neighbours' push the plot in) */
        left = fmax(left, ax[b].used_left);
        top = fmax(top, ax[b].r.y);
        bottom = fmin(bottom, ax[b].r.y + ax[b].r.h);
    }
    /* one lower than five lines of its labels shows its curves squashed, under its own
     * annotations: a taller page instead */
    for (int b = 0; b < 3; b++)
        if (on[b]) {
            if (wide) {
                double down = top - ax[b].r.y, up = ax[b].r.y + ax[b].r.h - bottom;
                r[b].y += down;
                r[b].h -= down + up;
            } else {
                ax[b].min_left = left;
            }
            fig_axes_fit(c->f, &ax[b], r[b]);
            /* the vertical label no longer than the plot it names, now that its height is known */
            if (too_wide(c->f, ax[b].y.label, ax[b].r.h)) {
                fit_ylabel(c, &ax[b], b, ylabel[b], ax[b].r.h);
                fig_axes_fit(c->f, &ax[b], r[b]);
            }
            double least = 5 * fig_font_size(c->f);
            fig_height_room(c->f, ax[b].r.h, least);
            if (ax[b].r.h < least)
                fig_need_more(c->f, (r[b].h + least - ax[b].r.h) / r[b].h, 1);
            panel_draw(c, &S, b, &ax[b]);
            legend_below(c->f, &ax[b], li[b], nl[b],
                         wide ? c->area.y + c->area.h - band_max : r[b].y + r[b].h);
        }
    scurves_free(&S);
    return TF_OK;
}

/* =============================================================================================
 * pe-file */

const char *check_pefile(const tf_config *cfg)
{
    tf_positions def;
    const tf_positions *p = run_params(cfg, &def);
    long rows = p->table ? p->table->n_pos : p->trained > 0 ? p->trained
                                                            : POSITIONS_DEFAULT_LEARNED;
    return heatmap_check(rows, p->table ? p->table->d : cfg->d_model, "pe-file");
}

typedef struct {
    const tf_learned_pe *t;
    long n;        /* rows in the cosine matrix, and offsets of the curve */
    const double *gram; /* (n, n): gram_own, or the export's memo's */
    double *gram_own;
    double *sim;   /* (n) the table's similarity against offset 0 .. n-1 */
    double *sin;   /* (n) sinusoidal PE's of the same width */
    double *x;     /* (n), and the block sim and sin are in */
} pefile_data;

/* The numbers of table t in P, whose gram_own and x the caller frees, made or not. */
static tf_status pefile_make(const fig_ctx *c, const tf_learned_pe *t, pefile_data *P)
{
    memset(P, 0, sizeof *P);
    P->t = t;
    P->n = t->n_pos < PEFILE_MAX_ROWS ? t->n_pos : PEFILE_MAX_ROWS;
    P->x = malloc(3 * (size_t)P->n * sizeof *P->x);
    if (!P->x)
        return TF_ERR_NOMEM;
    P->sim = P->x + P->n;
    P->sin = P->sim + P->n;
    for (long k = 0; k < P->n; k++)
        P->x[k] = (double)k;
    size_t nn = (size_t)P->n * (size_t)P->n, nk = 2 * (size_t)P->n; /* sim and sin */
    P->gram = memo_ref(c, 0, nn);
    if (P->gram && memo_get(c, 1, P->sim, nk))
        return TF_OK; /* the export's earlier page computed them */
    P->gram = P->gram_own = malloc(nn * sizeof *P->gram_own);
    tf_status st = P->gram_own ? learned_pe_gram(t, false, 0, P->n, P->gram_own) : TF_ERR_NOMEM;
    if (st == TF_OK)
        learned_pe_offset_similarity_gram(P->gram_own, P->n, P->sim);
    /* sinusoidal PE of the table's width (an odd width: the even one below it) */
    poscurve_cfg pc;
    poscurve_defaults(&pc);
    pc.d = t->d >= 2 ? t->d - t->d % 2 : 2;
    pc.base = c->a->cfg.base;
    if (st == TF_OK)
        st = poscurve_fill(SCHEME_SINUSOIDAL, &pc, 0, P->n, P->sin);
    if (st != TF_OK)
        return st;
    memo_put(c, 0, P->gram_own, nn);
    memo_put(c, 1, P->sim, nk);
    return TF_OK;
}

/* A matrix's vertical label longer than its plot is high (a square narrowed to its room) would
 * reach the title above: the symbol alone, pos, and the plot fitted again in outer (square:
 * by fit_square). */
static void short_pos_label(fig_ctx *c, fig_axes *ax, fig_rect outer, bool square)
{
    if (!too_wide(c->f, ax->y.label, ax->r.h))
        return;
    ax->y.label = "<i>pos</i>";
    if (square)
        fit_square(c->f, ax, outer);
    else
        fig_axes_fit(c->f, ax, outer);
}

/* Left: the table as a heatmap; right: the dot products of its rows, P P^T. */
static tf_status pefile_maps(fig_ctx *c, const pefile_data *P, fig_rect r)
{
    const tf_learned_pe *t = P->t;
    /* each panel its own scale; --vmin/--vmax are the table's values */
    color_range s1, s2;
    size_t cells = (size_t)t->n_pos * (size_t)t->d;
    color_scale_of(c, 3, t->p, cells, NULL, NULL, true, &s1);
    double gap = 1.2 * fig_font_size(c->f), half = (r.w - gap) / 2;
    fig_rect left = {r.x, r.y, half, r.h}, right = {r.x + half + gap, r.y, half, r.h};
    fig_axes a1, a2;
    matrix_axes(&a1, t->n_pos, 0, t->d, 0);
    a1.x.label = fig_txt(c, T_F_DIM);
    a1.y.label = fig_txt(c, T_F_POS);
    a1.title = c->zh ? "位置表 <i>P</i>[<i>p</i>, <i>j</i>]" : "the table <i>P</i>[<i>p</i>, <i>j</i>]";
    a1.right = fig_colorbar_width(c->f, s1.lo, s1.hi, NULL);
    /* the scale of what the pixels show: averaged columns span less than the cells; the label
     * says so, in a second line that takes room from the plot (fitted again, once) */
    fig_matrix m1 = {.f64 = t->p, .rows = t->n_pos, .cols = t->d};
    char xl[200];
    for (int pass = 0; pass < 2; pass++) {
        fig_axes_fit(c->f, &a1, left);
        short_pos_label(c, &a1, left, false);
        if (!averaged_label(c, &a1, &m1, fig_txt(c, T_F_DIM), xl, sizeof xl))
            break;
    }
    cmap_id cm = color_scale_of(c, 3, t->p, cells, &a1, &m1, true, &s1);
    tf_status st = fig_heatmap(c->f, &a1, &m1, cm, s1.lo, s1.hi);
    fig_axes_draw(c->f, &a1);
    fig_colorbar_clip(c->f, colorbar_rect(&a1), cm, s1.lo, s1.hi, NULL, s1.clip);
    cmap_id cg = color_scale_of(c, 6, P->gram, (size_t)P->n * (size_t)P->n, NULL, NULL, false,
                                &s2);
    matrix_axes(&a2, P->n, 0, P->n, 0);
    a2.x.label = a2.y.label = fig_txt(c, T_F_POS);
    char t2[160];
    if (P->n < t->n_pos) /* a long table: its first rows (PEFILE_MAX_ROWS) */
        snprintf(t2, sizeof t2, c->zh ? "前 %ld 行的点积 <i>P</i><i>P</i><sup>T</sup>"
                                      : "dot products <i>P</i><i>P</i><sup>T</sup> of its first %ld rows", P->n);
    else
        snprintf(t2, sizeof t2, "%s", c->zh ? "行之间的点积 <i>P</i>[<i>p</i>]·<i>P</i>[<i>q</i>]"
                                            : "dot products <i>P</i>[<i>p</i>]·<i>P</i>[<i>q</i>]");
    a2.title = t2;
    a2.right = fig_colorbar_width(c->f, s2.lo, s2.hi, NULL);
    fit_square(c->f, &a2, right);
    short_pos_label(c, &a2, right, true);
    if (st == TF_OK)
        st = fig_heatmap(c->f, &a2, &(fig_matrix){.f64 = P->gram, .rows = P->n, .cols = P->n},
                         cg, s2.lo, s2.hi);
    fig_axes_draw(c->f, &a2);
    fig_colorbar_clip(c->f, colorbar_rect(&a2), cg, s2.lo, s2.hi, NULL, s2.clip);
    return st;
}

/* Below: the similarity against offset, the table's and sinusoidal PE's. */
static void pefile_curve(fig_ctx *c, const pefile_data *P, fig_rect r)
{
    const tf_learned_pe *t = P->t;
    char l0[176], l1[96]; /* (legend_wrap's lines: 176 bytes) */
    if (t->trained) {
        /* the tensor's name as the terminal shows it (controls escaped), then as markup text,
         * at most 40 columns (20 Chinese characters): l0 holds it whole in either language */
        char *safe = t->name ? emit_safe_dup(t->name) : NULL, nm[112];
        fig_markup_text(nm, sizeof nm, t->name ? (safe ? safe : "?") : ".npy", 40);
        free(safe);
        snprintf(l0, sizeof l0, c->zh ? "这张表（%s，来自文件）" : "this table (%s, from the file)",
                 nm);
    } else {
        snprintf(l0, sizeof l0, c->zh ? "这张表（未训练：随机）" : "this table (untrained: random)");
    }
    snprintf(l1, sizeof l1, c->zh ? "正弦 PE（<i>d</i> = %d）" : "sinusoidal PE (<i>d</i> = %d)",
             (t->d - t->d % 2) > 0 ? t->d - t->d % 2 : 2);
    const scheme_style *sf = style_pefile(), *ss = style_scheme(SCHEME_SINUSOIDAL, 0);
    fig_legend_item li[2] = {
        {.label = l0, .color = sf->color, .dash = (fig_dash)sf->dash, .marker = 1 + sf->marker},
        {.label = l1, .color = ss->color, .dash = (fig_dash)ss->dash, .marker = 1 + ss->marker}};
    char lab[2][176];
    legend_wrap(c->f, li, 2, r.w, lab);
    fig_axes ax = {.grid = true};
    r.h -= fig_legend_height(c->f, li, 2) + fig_font_size(c->f); /* the legend's band below */
    ax.x = (fig_axis){.lo = 0, .hi = (double)(P->n > 1 ? P->n - 1 : 1), .integer = true,
                      .label = c->zh ? "偏移 <i>k</i>" : "offset <i>k</i>"};
    ax.y = (fig_axis){.lo = -1.05, .hi = 1.05, .label = c->zh ? "平均余弦" : "mean cosine"};
    ax.title = c->zh ? "相隔 <i>k</i> 的两行：平均 cos(<i>P</i>[<i>p</i>], <i>P</i>[<i>p</i>+<i>k</i>])"
                     : "rows <i>k</i> apart: mean cos(<i>P</i>[<i>p</i>], <i>P</i>[<i>p</i>+<i>k</i>])";
    if (too_wide(c->f, ax.title, r.w)) /* a third of a text block: the formula */
        ax.title = "cos(<i>P</i>[<i>p</i>], <i>P</i>[<i>p</i>+<i>k</i>])";
    fig_axes_fit(c->f, &ax, r);
    /* a curve lower than five lines of its labels is squashed under them: a taller page */
    double least = 5 * fig_font_size(c->f);
    fig_height_room(c->f, ax.r.h, least);
    if (ax.r.h < least)
        fig_need_more(c->f, (r.h + least - ax.r.h) / r.h, 1);
    fig_axes_draw(c->f, &ax);
    double lw = 0.065 * fig_font_size(c->f);
    fig_segment(c->f, &ax, ax.x.lo, 0, ax.x.hi, 0, (tf_rgb){150, 150, 150}, lw, FIG_SOLID);
    fig_line(c->f, &ax, P->x, P->sim, P->n, li[0].color, 2 * lw, li[0].dash);
    fig_line(c->f, &ax, P->x, P->sin, P->n, li[1].color, 2 * lw, li[1].dash);
    double ms = 0.55 * fig_font_size(c->f);
    for (int m = 0; m < 6 && P->n > 1; m++) { /* six markers each, side by side */
        long a = (long)((P->n - 1) * (m + 0.3) / 6.0), b = (long)((P->n - 1) * (m + 0.7) / 6.0);
        fig_markers_shape(c->f, &ax, &P->x[a], &P->sim[a], 1, li[0].color, ms, sf->marker);
        fig_markers_shape(c->f, &ax, &P->x[b], &P->sin[b], 1, li[1].color, ms, ss->marker);
    }
    legend_below(c->f, &ax, li, 2, r.y + r.h);
}

tf_status draw_pefile(fig_ctx *c)
{
    tf_posctx pc;
    tf_positions def, p = *run_params(&c->a->cfg, &def);
    /* the learned table: the file's, else the untrained one made for the scheme */
    p.n = 1;
    p.list[0] = SCHEME_LEARNED;
    bool own;
    tf_status st = open_ctx(c, &p, &pc, &own);
    if (st != TF_OK)
        return st;
    pefile_data P;
    st = pefile_make(c, pc.table, &P);
    if (st == TF_OK) {
        /* the two maps above the curve; on a page wider than tall (a text block's width),
         * the three side by side, the curve taking a third */
        fig_rect maps, curve, a = c->area;
        double fs = fig_font_size(c->f);
        bool wide;
        split_panels(a, (a.w - 1.2 * fs) * 2 / 3 / a.w, 0.5 * (a.h - 0.6 * fs) / a.h, 1.2 * fs,
                     0.6 * fs, &wide, &maps, &curve);
        st = pefile_maps(c, &P, maps);
        pefile_curve(c, &P, curve);
    }
    free(P.gram_own);
    free(P.x);
    if (own)
        posctx_close(&pc);
    return st;
}
