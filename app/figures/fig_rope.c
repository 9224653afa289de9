/* fig_rope.c — the figures of rotary position embedding: the rotation angles and one pair of q
 * turning with its position (C13), and the animation of q and k turning together. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "figures/draw.h"
#include "style.h"
#include "linalg.h"
#include "posenc.h"
#include "rope.h"

/* ---------------------------------------------------------------------------------------------
 * rope: cos(m theta_i) over positions x pairs, and one pair of q turning with the position */

#define ROPE_ARROWS 8

const char *check_rope(const tf_config *cfg)
{
    return heatmap_check(cfg->n_positions, cfg->d_model / 2, "rope");
}

/* cos(pos theta_i) for n positions (pos[m], or index_base + m when pos is NULL) x d/2 pairs:
 * theta_i is PE's w_i (rope_thetas), so pair i's cosine is PE's column 2i + 1, whichever pairing
 * the rotation uses. Freed by the caller; NULL when out of memory. */
static double *rope_cos_table(const tf_config *cfg, const long *pos, long n)
{
    int d = cfg->d_model, h = d / 2;
    double *cosm = malloc((size_t)n * (size_t)h * sizeof *cosm); /* (n, h) */
    for (long m = 0; cosm && m < n; m++) {
        double at = pos ? (double)pos[m] : (double)(cfg->index_base + m);
        for (int i = 0; i < h; i++)
            cosm[(size_t)m * h + i] = posenc_value(at, 2 * i + 1, d, cfg->base);
    }
    return cosm;
}

/* The upper panel: cos(m theta_i) for every position m and pair i. */
static tf_status rope_angles(fig_ctx *c, fig_rect area)
{
    const tf_config *cfg = &c->a->cfg;
    int d = cfg->d_model, h = d / 2;
    long n = cfg->n_positions, pos0 = cfg->index_base;
    double *cosm = rope_cos_table(cfg, NULL, n);
    if (!cosm)
        return TF_ERR_NOMEM;
    double lo, hi;
    cmap_id cm = color_scale(c, -1.0, 1.0, &lo, &hi);
    fig_axes a1;
    matrix_axes(&a1, n, pos0, h, 0);
    char xl[128];
    snprintf(xl, sizeof xl, "%s (%s)", fig_txt(c, T_F_PAIR),
             fig_txt(c, cfg->rope == ROPE_HALF ? T_F_DIMS_HALF : T_F_DIMS_INTERLEAVED));
    a1.x.label = xl;
    a1.y.label = fig_txt(c, T_F_POS_M);
    char t1[240];
    const char *style = cfg->rope == ROPE_HALF ? (c->zh ? "前后两半配对（rotate_half）"
                                                         : "half (rotate_half)")
                                               : (c->zh ? "相邻维度配对" : "interleaved");
    snprintf(t1, sizeof t1, "%s%s%s%s%s %g", fig_txt(c, T_F_ROTATION), c->zh ? "，" : ", ", style,
             c->zh ? "，" : ", ", fig_txt(c, T_F_BASE), cfg->base);
    a1.title = t1;
    a1.tag = panel_tag(c, 0);
    const char *cb = "cos(<i>m</i>θ<sub><i>i</i></sub>)";
    a1.right = fig_colorbar_width(c->f, lo, hi, cb);
    fig_axes_fit(c->f, &a1, area);
    tf_status st = fig_heatmap(c->f, &a1, &(fig_matrix){.f64 = cosm, .rows = n, .cols = h}, cm,
                               lo, hi);
    fig_axes_draw(c->f, &a1);
    fig_colorbar(c->f, colorbar_rect(&a1), cm, lo, hi, cb);
    free(cosm);
    return st;
}

/* Whether rectangles a and b overlap, with room m around a. */
static bool rr_overlap(fig_rect a, fig_rect b, double m)
{
    return a.x - m < b.x + b.w && b.x < a.x + a.w + m && a.y - m < b.y + b.h &&
           b.y < a.y + a.h + m;
}

/* What a label in a plane keeps off: the arrows' heads (boxes in page points), the labels placed
 * before (boxes) and the lines: guides, circles, shafts and arcs (data units). */
typedef struct {
    const fig_axes *ax;
    const fig_rect *heads, *boxes;
    int n_heads, n_boxes;
    const fig_series *lines;
    int n_lines;
} label_scene;

/* Series the segment from (x0, y0) to (x1, y1) (n 2), or the arc of radius r from angle a0 over
 * sweep (n 73), its points in xy. */
static fig_series seg_series(double x0, double y0, double x1, double y1, double xy[2][73])
{
    xy[0][0] = x0, xy[0][1] = x1, xy[1][0] = y0, xy[1][1] = y1;
    return (fig_series){.x = xy[0], .y = xy[1], .n = 2};
}

static fig_series arc_series(double r, double a0, double sweep, double xy[2][73])
{
    for (int i = 0; i <= 72; i++)
        xy[0][i] = r * cos(a0 + sweep * i / 72), xy[1][i] = r * sin(a0 + sweep * i / 72);
    return (fig_series){.x = xy[0], .y = xy[1], .n = 73};
}

/* Candidate centres past the tip (tx, ty) (page points) of an arrow at angle a: at each of the
 * distances dist (nd), the arrow's direction turned by each of turn (nt). Into at; the count. */
static int spots_past(double tx, double ty, double a, const double *dist, int nd,
                      const double *turn, int nt, double (*at)[2])
{
    int n = 0;
    for (int i = 0; i < nd; i++)
        for (int j = 0; j < nt; j++, n++)
            at[n][0] = tx + dist[i] * cos(a + turn[j]), at[n][1] = ty - dist[i] * sin(a + turn[j]);
    return n;
}

/* Where a w x h label goes: of the n candidate centres at (moved into the plot, m inside its
 * edge, when move_in; else those that are not there are passed over) the first with the least in
 * the way, with room m round the label: an arrow's head most, then a label placed before, then
 * each line it crosses. Its box in *b; returns that cost (0: clear of everything; under 6: of
 * every head and label; infinite: no candidate inside, *b the first moved in). */
static double place_label(const label_scene *s, double (*at)[2], int n, bool move_in, double w,
                          double h, double m, fig_rect *b)
{
    const fig_rect r = s->ax->r;
    double least = INFINITY;
    for (int k = 0; k < n && least > 0; k++) {
        fig_rect t = {fmax(fmin(at[k][0] - w / 2, r.x + r.w - w - m), r.x + m),
                      fmax(fmin(at[k][1] - h / 2, r.y + r.h - h - m), r.y + m), w, h};
        if (k == 0)
            *b = t;
        if (!move_in && (t.x != at[k][0] - w / 2 || t.y != at[k][1] - h / 2))
            continue;
        fig_rect grown = {t.x - m, t.y - m, w + 2 * m, h + 2 * m};
        double cost = 0;
        for (int j = 0; j < s->n_heads; j++)
            cost += 8.0 * rr_overlap(t, s->heads[j], m);
        for (int j = 0; j < s->n_boxes; j++)
            cost += 6.0 * rr_overlap(t, s->boxes[j], m);
        for (int j = 0; j < s->n_lines; j++)
            cost += fig_series_hit(s->ax, &s->lines[j], grown);
        if (cost < least)
            least = cost, *b = t;
    }
    return least;
}

/* The positions pos0 .. pos0 + n - 1 beside their arrows' tips (data units tip, heads' boxes
 * heads): out along the arrow or turned a little to either side, nearest first, where the
 * least is in the way (place_label). Off a head or another label, the page is cramped (a
 * taller page gives them room). */
static void arrow_labels(fig *f, const fig_axes *a2, long pos0, long n, double (*tip)[2],
                         const fig_rect *heads, const fig_series *lines, int n_lines)
{
    fig_rect placed[ROPE_ARROWS];
    label_scene sc = {.ax = a2, .heads = heads, .n_heads = (int)n, .boxes = placed,
                      .lines = lines, .n_lines = n_lines};
    static const double turn[5] = {0, 0.3, -0.3, 0.6, -0.6};
    double fs = fig_font_size(f);
    for (long m = 0; m < n; m++) {
        char ml[24];
        snprintf(ml, sizeof ml, "%ld", pos0 + m);
        double tw, th, dist[6], at[30][2];
        fig_text_size(f, ml, true, &tw, &th);
        for (int k = 0; k < 6; k++)
            dist[k] = 0.45 * 0.9 * fs + 0.5 * hypot(tw, th) + 1.0 + k * 0.9 * th;
        int ns = spots_past(fig_px(a2, tip[m][0]), fig_py(a2, tip[m][1]),
                            atan2(tip[m][1], tip[m][0]), dist, 6, turn, 5, at);
        sc.n_boxes = (int)m;
        if (place_label(&sc, at, ns, true, tw, th, 0.1 * fs, &placed[m]) >= 6)
            fig_set_cramped(f);
        fig_text_in(f, a2, ml, true, placed[m].x, placed[m].y, 0, 0);
    }
}

/* The lower panel: pair 0 of q (the first token) at positions pos0 .. pos0+7, arrows turning
 * on a circle. */
static void rope_plane(fig_ctx *c, fig_rect area)
{
    const tf_analysis *A = c->a;
    const tf_config *cfg = &A->cfg;
    long n = cfg->n_positions, pos0 = cfg->index_base;
    int ia, ib;
    rope_pair(cfg->rope, cfg->d_model, 0, &ia, &ib);
    /* pair 0 of q (row 0 of (T, d), before rotation) turns by pos theta_0 = pos whatever d: its
     * plane alone is a vector of d = 2 */
    const double q[2] = {A->q[ia], A->q[ib]};
    double R = hypot(q[0], q[1]);
    if (!(R > 0))
        R = 1.0;
    double lim = 1.35 * R;
    char tok[40], t2[200], xl2[64], yl2[64];
    token_markup(tok, sizeof tok, A->text + A->tokens.items[0].start,
                 A->tokens.items[0].end - A->tokens.items[0].start);
    long M = n < ROPE_ARROWS ? n : ROPE_ARROWS;
    txt_fmt_lang(t2, sizeof t2, T_F_ROPE_PAIR0, c->zh, tok, pos0, pos0 + M - 1);
    snprintf(xl2, sizeof xl2, "<i>q</i><sub>%d</sub>", ia);
    snprintf(yl2, sizeof yl2, "<i>q</i><sub>%d</sub>", ib);
    fig_axes a2 = {.frame = true, .title = t2, .tag = panel_tag(c, 1)};
    a2.x = (fig_axis){.lo = -lim, .hi = lim, .label = xl2};
    a2.y = (fig_axis){.lo = -lim, .hi = lim, .label = yl2};
    fit_square(c->f, &a2, area);
    /* room outside the circle for the position labels beyond the arrows' heads */
    double lab_w, lab_h;
    char widest[24];
    snprintf(widest, sizeof widest, "%ld", pos0 + M - 1);
    fig_text_size(c->f, widest, true, &lab_w, &lab_h);
    double need = 0.45 * 0.9 * fig_font_size(c->f) + 0.5 * hypot(lab_w, lab_h) + 1.0 + 0.5 * lab_h;
    double half = 0.5 * fmin(a2.r.w, a2.r.h);
    double wider = half > 1.4 * need && R * half / lim + need > half ? R * half / (half - need)
                                                                     : lim;
    wider = fig_plan_max(c->f, wider); /* the same scale in both languages */
    if (wider > lim) {
        lim = wider;
        a2.x.lo = a2.y.lo = -lim;
        a2.x.hi = a2.y.hi = lim;
        fit_square(c->f, &a2, area);
    }
    fig_axes_draw(c->f, &a2);
    double lw = 0.075 * fig_font_size(c->f);
    tf_rgb guide = {170, 170, 170};
    fig_segment(c->f, &a2, -lim, 0, lim, 0, guide, lw, FIG_SOLID);
    fig_segment(c->f, &a2, 0, -lim, 0, lim, guide, lw, FIG_SOLID);
    fig_circle(c->f, &a2, 0, 0, R, guide, lw, FIG_DASHED);
    fig_rect heads[ROPE_ARROWS];
    double tip[ROPE_ARROWS][2], pt[ROPE_ARROWS + 3][2][73];
    /* the lines the labels keep off: the guides, the circle and the shafts */
    fig_series lines[ROPE_ARROWS + 3] = {seg_series(-lim, 0, lim, 0, pt[0]),
                                         seg_series(0, -lim, 0, lim, pt[1]),
                                         arc_series(R, 0, 2 * M_PI, pt[2])};
    for (long m = 0; m < M; m++) {
        rope_rotate(q, 2, cfg->base, (double)(pos0 + m), cfg->rope, tip[m]);
        tf_rgb col = colormap_at(CMAP_VIRIDIS, M > 1 ? 0.85 * m / (M - 1) : 0.0);
        lines[3 + m] = seg_series(0, 0, tip[m][0], tip[m][1], pt[3 + m]);
        heads[m] = fig_arrow(c->f, &a2, 0, 0, tip[m][0], tip[m][1], col, 2 * lw,
                             0.9 * fig_font_size(c->f));
    }
    arrow_labels(c->f, &a2, pos0, M, tip, heads, lines, (int)M + 3);
}

tf_status draw_rope(fig_ctx *c)
{
    /* stacked on a tall page, side by side on a wide one */
    fig_rect top, bottom;
    bool wide;
    double gap = 0.4 * fig_font_size(c->f);
    split_panels(c->area, 0.62, 0.56, gap, gap, &wide, &top, &bottom);
    tf_status st = rope_angles(c, top);
    if (st != TF_ERR_NOMEM)
        rope_plane(c, bottom);
    return st;
}

/* ---------------------------------------------------------------------------------------------
 * pe-vs-rope: the sentence's positions through both schemes. Left: PE(pos) for each token, the
 * vector added to its embedding (C11); right: cos(pos theta_i) for each token, the angle by
 * which RoPE turns pair i of its q and k (C13). One colour scale, [-1, 1]. */

tf_status draw_pe_vs_rope(fig_ctx *c)
{
    tf_analysis *A = c->a;
    const tf_config *cfg = &A->cfg;
    long T = (long)A->tokens.n, d = cfg->d_model;
    double *cosm = rope_cos_table(cfg, A->pos, T);
    token_ticks tt = {0};
    tf_status st = TF_ERR_NOMEM; /* without memory, no panel */
    if (cosm && token_ticks_make(&tt, &A->tokens, A->text, 0, false) == TF_OK)
        st = TF_OK;
    double lo, hi;
    cmap_id cm = color_scale(c, -1.0, 1.0, &lo, &hi);
    const char *cb = fig_txt(c, T_F_VALUE);
    double cbw = fig_colorbar_width(c->f, lo, hi, cb);
    fig_rect left, right;
    bool wide;
    double gap = 0.8 * fig_font_size(c->f);
    split_panels(c->area, 0.48, 0.48, gap, gap, &wide, &left, &right);
    fig_axes a[2];
    const double *mats[2] = {A->pe, cosm};
    const long cols[2] = {d, d / 2};
    const txt_id titles[2] = {T_F_PVR_PE, T_F_PVR_ROPE}, xl[2] = {T_F_DIM, T_F_PAIR};
    split_cols sc = {A->pe, (int)d};
    char xlab[2][240];
    for (int k = 0; k < 2 && st == TF_OK; k++) {
        matrix_axes(&a[k], T, 0, cols[k], 0);
        set_token_axis(&a[k].y, &tt);
        a[k].title = fig_txt(c, titles[k]);
        a[k].x.label = fig_txt(c, xl[k]);
        a[k].tag = panel_tag(c, k);
        a[k].right = k == 1 || !wide ? cbw : 0;
        fig_axes_fit(c->f, &a[k], k ? right : left);
        fig_matrix m = {.f64 = mats[k], .rows = T, .cols = cols[k]};
        const char *label = a[k].x.label;
        if (k == 0 && pe_split_for(c, &a[k], &m)) /* PE's sin columns, then its cos */
            m = (fig_matrix){.rows = T, .cols = d, .row = split_col_row, .ctx = &sc},
            label = fig_txt(c, T_F_DIM_SPLIT_S);
        if (averaged_label(c, &a[k], &m, label, xlab[k], sizeof xlab[k])) {
            fig_axes_fit(c->f, &a[k], k ? right : left);
            averaged_label(c, &a[k], &m, label, xlab[k], sizeof xlab[k]);
        }
        st = fig_heatmap(c->f, &a[k], &m, cm, lo, hi);
        if (m.row)
            fig_segment(c->f, &a[k], d / 2.0 - 0.5, a[k].y.lo, d / 2.0 - 0.5, a[k].y.hi,
                        (tf_rgb){0, 0, 0}, 1.5 * 0.075 * fig_font_size(c->f), FIG_SOLID);
        fig_axes_draw(c->f, &a[k]);
        if (k == 1 || !wide)
            fig_colorbar(c->f, colorbar_rect(&a[k]), cm, lo, hi, cb);
    }
    free(cosm);
    token_ticks_free(&tt);
    return st;
}

/* ---------------------------------------------------------------------------------------------
 * rope-rotation (animation): q of the first token at position m and k of the last token at n,
 * both moved on by the same shift s. In the plane of pair 0 both turn by s theta_0, so the angle
 * between them stays; over all pairs the score q_m . k_n stays too: it depends on n - m only
 * (C13). One loop is one turn of pair 0 (s from 0 to 2 pi / theta_0), so the GIF loops without a
 * jump. Shifts between whole positions are drawn too: the rotation holds for any position, and
 * the motion stays smooth. */

#define RR_FRAMES 96
#define RR_FPS 24.0
#define RR_SAMPLES 241 /* points of the curves over the shift */

typedef struct {
    int d, ia, ib;
    long m0, n0;           /* positions of the first and the last token */
    double span;           /* the shift of one turn of pair 0 */
    const double *q, *k;   /* (d) q of the first token, k of the last, before rotation */
    double s[RR_SAMPLES], aq[RR_SAMPLES], ak[RR_SAMPLES], ad[RR_SAMPLES], score[RR_SAMPLES];
    double qonly[RR_SAMPLES]; /* the score with q shifted alone: n - m changes, and so does it */
    double bound;          /* |q| |k|: no score can be larger */
    char tq[40], tk[40];   /* the two tokens as markup */
    double rot[];          /* (2 d) scratch: q and k rotated */
} rope_rot;

/* q rotated to m and k to n into r->rot; the angles in pair 0 and the score. */
static void rope_rot_at(rope_rot *r, const tf_config *cfg, double m, double n, double *aq,
                        double *ak, double *score)
{
    double *rq = r->rot, *rk = r->rot + r->d;
    rope_rotate(r->q, r->d, cfg->base, m, cfg->rope, rq);
    rope_rotate(r->k, r->d, cfg->base, n, cfg->rope, rk);
    *aq = atan2(rq[r->ib], rq[r->ia]);
    *ak = atan2(rk[r->ib], rk[r->ia]);
    *score = la_dot(rq, rk, (size_t)r->d);
}

static tf_status rope_rot_begin(fig_ctx *c, long n, void **state)
{
    (void)n;
    const tf_analysis *A = c->a;
    const tf_config *cfg = &A->cfg;
    size_t T = A->tokens.n;
    rope_rot *r = calloc(1, sizeof *r + 2 * (size_t)cfg->d_model * sizeof *r->rot);
    if (!r)
        return TF_ERR_NOMEM;
    r->d = cfg->d_model;
    rope_pair(cfg->rope, r->d, 0, &r->ia, &r->ib);
    r->span = 2 * M_PI / posenc_omega(0, r->d, cfg->base); /* theta_0 (rope_thetas) */
    r->q = A->q;                        /* row 0 */
    r->k = A->k + (T - 1) * (size_t)r->d; /* row T-1 */
    r->m0 = A->pos[0], r->n0 = A->pos[T - 1];
    r->bound = la_norm(r->q, (size_t)r->d) * la_norm(r->k, (size_t)r->d);
    if (!(r->bound > 0))
        r->bound = 1;
    const tf_token *t0 = &A->tokens.items[0], *t1 = &A->tokens.items[T - 1];
    token_markup(r->tq, sizeof r->tq, A->text + t0->start, t0->end - t0->start);
    token_markup(r->tk, sizeof r->tk, A->text + t1->start, t1->end - t1->start);
    for (int i = 0; i < RR_SAMPLES; i++) {
        r->s[i] = r->span * i / (RR_SAMPLES - 1);
        rope_rot_at(r, cfg, r->m0 + r->s[i], r->n0 + r->s[i], &r->aq[i], &r->ak[i], &r->score[i]);
        r->ad[i] = remainder(r->ak[i] - r->aq[i], 2 * M_PI);
        double a1, a2;
        rope_rot_at(r, cfg, r->m0 + r->s[i], r->n0, &a1, &a2, &r->qonly[i]);
    }
    *state = r;
    return TF_OK;
}

/* An angle's curve over the shift, broken where it wraps from pi to -pi (a NaN point between). */
static void angle_line(fig *f, const fig_axes *ax, const double *s, const double *a, tf_rgb col,
                       double width)
{
    double xs[2 * RR_SAMPLES], ys[2 * RR_SAMPLES];
    long n = 0;
    for (int i = 0; i < RR_SAMPLES; i++) {
        if (i && fabs(a[i] - a[i - 1]) > M_PI)
            xs[n] = NAN, ys[n++] = NAN;
        xs[n] = s[i], ys[n++] = a[i];
    }
    fig_line(f, ax, xs, ys, n, col, width, FIG_SOLID);
}

/* How much a frame shows, the fullest first, each one thing less: a small slide (a column's width,
 * a large font) drops the angles' panel (the plane says the angle), then the panels' subtitles (the
 * plane keeps its name, "pair 0") and the shift's positions ("shift s"; the score's legend takes
 * the subtitle's place, in rows above its plot: inside it would cover the moving shift at some
 * frame), then the plane's axis labels. */
typedef struct {
    bool angles;       /* the panel of the angles over the shift */
    bool titles;       /* the panels' subtitles */
    bool plane_labels; /* the plane's axis labels */
} rr_layout;

/* One frame's axes, legends and labels, laid out before anything is drawn. */
typedef struct {
    fig_axes plane, a1, a2;
    fig_legend_item li[3], l2[2];
    fig_rect rows; /* the score's legend in rows (without titles), else empty */
    char t[240], xl[160], t3[200];
} rr_page;

/* The curves' axes (not fitted), their labels and legends for layout L. */
static void rr_curve_axes(fig_ctx *c, const rope_rot *r, const rr_layout *L, double score,
                          rr_page *p)
{
    static const double at[5] = {-M_PI, -M_PI / 2, 0, M_PI / 2, M_PI};
    static const char *const lab[5] = {"−π", "−π/2", "0", "π/2", "π"};
    txt_fmt_lang(p->xl, sizeof p->xl, T_F_RR_SHIFT, c->zh, r->m0, r->n0);
    if (!L->titles) /* "shift s", up to the colon */
        cut_at_colon(p->xl);
    txt_fmt_lang(p->t3, sizeof p->t3, T_F_RR_SCORE, c->zh, r->d / 2, score);
    p->li[0] = (fig_legend_item){.label = fig_txt(c, T_F_RR_ANGLE_Q),
                                 .color = fig_series_color(0)};
    p->li[1] = (fig_legend_item){.label = fig_txt(c, T_F_RR_ANGLE_K),
                                 .color = fig_series_color(1)};
    p->li[2] = (fig_legend_item){.label = fig_txt(c, T_F_RR_ANGLE_D), .color = {90, 90, 90}};
    p->l2[0] = (fig_legend_item){.label = fig_txt(c, T_F_RR_BOTH), .color = fig_series_color(2)};
    p->l2[1] = (fig_legend_item){.label = fig_txt(c, T_F_RR_QONLY), .color = {150, 150, 150},
                                 .dash = FIG_DASHED};
    p->a1 = (fig_axes){.grid = true, .title = L->titles ? fig_txt(c, T_F_RR_ANGLES) : NULL};
    p->a1.x = (fig_axis){.lo = 0, .hi = r->span, .label = p->xl};
    p->a1.y = (fig_axis){.lo = -M_PI * 1.08, .hi = M_PI * 1.08, .n = 5, .at = at, .labels = lab,
                         .label = fig_txt(c, T_F_RR_ANGLE)};
    p->a2 = (fig_axes){.grid = true, .title = L->titles ? p->t3 : NULL};
    p->a2.x = p->a1.x;
    /* the scores' own range: the flat line against the one that moves */
    double lo, hi, qlo, qhi;
    minmax(r->score, RR_SAMPLES, &lo, &hi);
    minmax(r->qonly, RR_SAMPLES, &qlo, &qhi);
    lo = fmin(lo, qlo), hi = fmax(hi, qhi);
    double pad = fmax(0.12 * (hi - lo), 1e-3 * r->bound);
    p->a2.y = (fig_axis){.lo = lo - pad, .hi = hi + pad,
                         .label = "<i>q</i><sub><i>m</i></sub> ⋅ <i>k</i><sub><i>n</i></sub>"};
    double right = fig_legend_width(c->f, p->l2, 2);
    if (L->angles)
        right = fmax(right, fig_legend_width(c->f, p->li, 3));
    p->a1.right = p->a2.right = L->titles ? right : 0;
}

/* Lay out frame page p with layout L (cramped, or asking for more width where a legend's
 * label is wider than its panel): laid out only, the caller's trial (fig_try) takes one. */
static void rr_fit(fig_ctx *c, const rope_rot *r, const rr_layout *L, double s, double score,
                   rr_page *p)
{
    fig *f = c->f;
    /* the plane left and the curves right on a wide page (the angles above the score); the
     * plane above and the curves side by side below on a tall one */
    fig_rect area = c->area, plane = area, top, bottom;
    double gap = 0.8 * fig_font_size(f);
    if (area.w >= 1.25 * area.h) {
        plane.w = fmin(0.46 * area.w, area.h);
        top = (fig_rect){area.x + plane.w + gap, area.y, area.w - plane.w - gap,
                         L->angles ? (area.h - gap) * 0.5 : area.h};
        bottom = top;
        if (L->angles)
            bottom.y = top.y + top.h + gap;
    } else {
        plane.h = 0.55 * area.h;
        top = (fig_rect){area.x, area.y + plane.h + gap, L->angles ? (area.w - gap) * 0.5 : area.w,
                         area.h - plane.h - gap};
        bottom = top;
        if (L->angles)
            bottom.x = top.x + top.w + gap;
    }
    /* the plane of pair 0, square */
    double Rq = hypot(r->q[r->ia], r->q[r->ib]), Rk = hypot(r->k[r->ia], r->k[r->ib]);
    double R = fmax(fmax(Rq, Rk), 1e-12), lim = 1.35 * R;
    txt_fmt_lang(p->t, sizeof p->t, T_F_RR_PLANE, c->zh, r->tq, r->m0 + s, r->tk, r->n0 + s);
    if (!L->titles)
        cut_at_colon(p->t);
    p->plane = (fig_axes){.frame = true, .title = p->t};
    p->plane.x = (fig_axis){.lo = -lim, .hi = lim,
                            .label = L->plane_labels ? fig_txt(c, T_F_RR_DIM_A) : NULL};
    p->plane.y = (fig_axis){.lo = -lim, .hi = lim,
                            .label = L->plane_labels ? fig_txt(c, T_F_RR_DIM_B) : NULL};
    fit_square(f, &p->plane, plane);
    /* the angles over the shift and the score */
    rr_curve_axes(c, r, L, score, p);
    p->rows = (fig_rect){0};
    if (!L->titles) {
        /* the rows across the panel's width at its top, each label within that width; the
         * plot below them */
        legend_rows_fit(f, p->l2, 2, bottom.w);
        p->rows =
            (fig_rect){bottom.x, bottom.y, bottom.w, fig_legend_rows(f, p->l2, 2, bottom, false)};
        bottom.y += p->rows.h, bottom.h -= p->rows.h;
    }
    if (L->angles)
        fit_pair(f, &p->a1, top, &p->a2, bottom, true);
    else
        fig_axes_fit(f, &p->a2, bottom);
}

/* Where the name of arrow i (q 0, k 1; tips (tx, ty), angles ang) goes: past its head, turned
 * to either side and farther out, else beside its shaft, from near the head inwards, where the
 * least is in the way (place_label: the heads, the lines, the angle's text box[0] and q's name
 * box[1]), inside the plot. Its box becomes box[1 + i]; anything in its way, or no place inside,
 * makes the page cramped. */
static void rr_place_name(fig *f, label_scene *sc, int i, const char *name, const double *tx,
                          const double *ty, const double *ang, fig_rect *box)
{
    double fs = fig_font_size(f), head = 0.9 * fs, w, h;
    fig_text_size(f, name, false, &w, &h);
    static const double turn[8] = {0, 0.6, -0.6, 1.2, -1.2, 1.8, -1.8, M_PI};
    static const double along[4] = {0.85, 0.7, 0.5, 0.3};
    double d0 = 0.5 * head + 0.5 * hypot(w, h) + 0.15 * fs, at[40][2];
    const double dist[4] = {d0, 1.7 * d0, 2.4 * d0, 3.2 * d0};
    int n = spots_past(tx[i], ty[i], ang[i], dist, 4, turn, 8, at);
    double ox = fig_px(sc->ax, 0), oy = fig_py(sc->ax, 0), off = 0.5 * hypot(w, h) + 0.5 * head;
    for (int k = 0; k < 8; k++, n++) {
        double px = ox + along[k / 2] * (tx[i] - ox), py = oy + along[k / 2] * (ty[i] - oy);
        double side = k % 2 ? -1.0 : 1.0;
        at[n][0] = px - side * sin(ang[i]) * off, at[n][1] = py - side * cos(ang[i]) * off;
    }
    sc->n_boxes = 1 + i;
    if (place_label(sc, at, n, false, w, h, 0.1 * fs, &box[1 + i]) > 0)
        fig_set_cramped(f);
}

/* The arrows' tips in page points (tx, ty) and their heads' boxes as fig_arrow records them (a
 * square around the head), for q (0) and k (1) of radii rad at angles ang. */
static void rr_tips(const fig_axes *ax, const double rad[2], const double ang[2], double head,
                    double tx[2], double ty[2], fig_rect tip[2])
{
    double ox = fig_px(ax, 0), oy = fig_py(ax, 0);
    for (int i = 0; i < 2; i++) {
        tx[i] = fig_px(ax, rad[i] * cos(ang[i]));
        ty[i] = fig_py(ax, rad[i] * sin(ang[i]));
        double len = hypot(tx[i] - ox, ty[i] - oy);
        double hl = fmin(head, 0.6 * len), hw = 0.45 * hl;
        double ux = len > 0 ? (tx[i] - ox) / len : 0, uy = len > 0 ? (ty[i] - oy) / len : 0;
        double bx = tx[i] - ux * hl, by = ty[i] - uy * hl;
        tip[i] = (fig_rect){fmin(tx[i], bx) - hw, fmin(ty[i], by) - hw, fabs(tx[i] - bx) + 2 * hw,
                            fabs(ty[i] - by) + 2 * hw};
    }
}

/* Where whole positions put the tips: the clock's marks on both circles, none under a label
 * (the angle's text, q's and k's names: box). */
static void rr_clock_marks(fig *f, const fig_axes *ax, const rope_rot *r, const double rad[2],
                           const fig_rect box[3], double fs)
{
    double ms = 0.35 * fs;
    for (int j = 0; j <= (int)floor(r->span); j++)
        for (int v = 0; v < 2; v++) {
            double a0 = (v ? r->ak[0] : r->aq[0]) + j * 2 * M_PI / r->span;
            double x = rad[v] * cos(a0), y = rad[v] * sin(a0);
            fig_rect mk = {fig_px(ax, x) - ms / 2, fig_py(ax, y) - ms / 2, ms, ms};
            bool under = false;
            for (int i = 0; i < 3; i++)
                under |= rr_overlap(mk, box[i], 0.1 * fs);
            if (!under)
                fig_markers(f, ax, &x, &y, 1,
                            v ? (tf_rgb){235, 205, 170} : (tf_rgb){180, 200, 225}, ms);
        }
}

/* The plane of pair 0: both circles, the whole positions passed as faint dots (none under a
 * label), q and k as arrows, each named just past its head where the name is clear of the
 * arrows, the guides, the circles, the arc, the other name and the angle's text (rr_place_name),
 * and the arc of the angle between them. */
static void rope_rot_plane(fig_ctx *c, const rope_rot *r, const fig_axes *ax, double aq, double ak)
{
    fig *f = c->f;
    double Rq = hypot(r->q[r->ia], r->q[r->ib]), Rk = hypot(r->k[r->ia], r->k[r->ib]);
    double lim = ax->x.hi;
    double fs = fig_font_size(f), lw = 0.075 * fs, head = 0.9 * fs;
    fig_axes_draw(f, ax);
    tf_rgb guide = {170, 170, 170}, col[2] = {fig_series_color(0), fig_series_color(1)};
    fig_segment(f, ax, -lim, 0, lim, 0, guide, lw, FIG_SOLID);
    fig_segment(f, ax, 0, -lim, 0, lim, guide, lw, FIG_SOLID);
    fig_circle(f, ax, 0, 0, Rq, guide, lw, FIG_DASHED);
    fig_circle(f, ax, 0, 0, Rk, guide, lw, FIG_DASHED);
    /* the angle in the plot's top-left corner, clear of the circles, the arrows and the guides
     * in every frame: off the larger circle's disc (and an arrow's head beyond it) and left of
     * the upright guide, measured at its widest (three digits) so every frame keeps or drops it
     * alike */
    double d = remainder(ak - aq, 2 * M_PI); /* in [-pi, pi] */
    char deg[64];
    snprintf(deg, sizeof deg, "∠(<i>q</i>, <i>k</i>) = %.0f°", 180.0);
    fig_rect box[3]; /* the angle's text, q's name, k's name */
    fig_text_size(f, deg, false, &box[0].w, &box[0].h);
    snprintf(deg, sizeof deg, "∠(<i>q</i>, <i>k</i>) = %.0f°", fabs(d) * 180 / M_PI);
    box[0].x = ax->r.x + 0.4 * fs, box[0].y = ax->r.y + 0.3 * fs;
    double ox = fig_px(ax, 0), oy = fig_py(ax, 0);
    double disc = (fig_px(ax, fmax(Rq, Rk)) - ox) + 0.5 * head + 0.2 * fs;
    /* the box's corner nearest the centre */
    double nx = box[0].x + box[0].w - ox, ny = fmin(box[0].y + box[0].h - oy, 0);
    bool clear = nx + 0.2 * fs < 0 && hypot(nx, ny) > disc;
    /* on a plot too small for it, none: the angles' panel or the score says it stays */
    bool say_angle = box[0].w + 0.8 * fs <= ax->r.w && box[0].h <= 0.25 * ax->r.h && clear;
    if (!say_angle)
        box[0] = (fig_rect){0};
    /* the arrows' tips and heads (a square around the tip), and their names */
    char name[2][80]; /* in their arrows' colours: a name a little off its head is still its */
    for (int i = 0; i < 2; i++)
        snprintf(name[i], sizeof name[i], "<span foreground=\"#%02x%02x%02x\"><i>%s</i></span>",
                 col[i].r, col[i].g, col[i].b, i ? "k" : "q");
    const double rad[2] = {Rq, Rk}, ang[2] = {aq, ak};
    double tx[2], ty[2];
    fig_rect tip[2];
    rr_tips(ax, rad, ang, head, tx, ty, tip);
    /* the lines the names keep off: the guides, both circles, both shafts and the arc */
    double ra = 0.32 * fmin(Rq, Rk), pt[7][2][73];
    fig_series lines[7] = {seg_series(-lim, 0, lim, 0, pt[0]), seg_series(0, -lim, 0, lim, pt[1]),
                           seg_series(0, 0, Rq * cos(aq), Rq * sin(aq), pt[2]),
                           seg_series(0, 0, Rk * cos(ak), Rk * sin(ak), pt[3]),
                           arc_series(Rq, 0, 2 * M_PI, pt[4]), arc_series(Rk, 0, 2 * M_PI, pt[5]),
                           arc_series(ra, aq, d, pt[6])};
    label_scene sc = {
        .ax = ax, .heads = tip, .n_heads = 2, .boxes = box, .lines = lines, .n_lines = 7};
    for (int i = 0; i < 2; i++)
        rr_place_name(f, &sc, i, name[i], tx, ty, ang, box);
    rr_clock_marks(f, ax, r, rad, box, fs);
    fig_line(f, ax, pt[6][0], pt[6][1], 73, (tf_rgb){90, 90, 90}, 2 * lw, FIG_SOLID); /* arc */
    if (say_angle)
        fig_text_in(f, ax, deg, false, box[0].x, box[0].y, 0, 0);
    for (int i = 0; i < 2; i++)
        fig_arrow(f, ax, 0, 0, pt[2 + i][0][1], pt[2 + i][1][1], col[i], 2.4 * lw, head);
    for (int i = 0; i < 2; i++)
        fig_text_in(f, ax, name[i], false, box[1 + i].x, box[1 + i].y, 0, 0);
}

/* The angles over the shift (q's and k's turn, their difference stays), when the layout has
 * them, and the score. */
static void rope_rot_curves(fig_ctx *c, const rope_rot *r, const rr_page *p, bool angles,
                            double s, double aq, double ak, double score)
{
    double lw = 0.065 * fig_font_size(c->f), ms = 0.6 * fig_font_size(c->f);
    tf_rgb ink = {60, 60, 60};
    if (angles) {
        const fig_axes *a1 = &p->a1;
        fig_axes_draw(c->f, a1);
        angle_line(c->f, a1, r->s, r->aq, p->li[0].color, 2 * lw);
        angle_line(c->f, a1, r->s, r->ak, p->li[1].color, 2 * lw);
        angle_line(c->f, a1, r->s, r->ad, p->li[2].color, 3 * lw);
        fig_segment(c->f, a1, s, a1->y.lo, s, a1->y.hi, ink, 1.5 * lw, FIG_SOLID);
        const double at[3] = {aq, ak, remainder(ak - aq, 2 * M_PI)};
        for (int i = 0; i < 3; i++)
            fig_markers(c->f, a1, &s, &at[i], 1, p->li[i].color, ms);
        fig_legend(c->f, a1, p->li, 3, 4);
    }
    const fig_axes *a2 = &p->a2;
    fig_axes_draw(c->f, a2);
    fig_segment(c->f, a2, 0, 0, r->span, 0, (tf_rgb){150, 150, 150}, lw, FIG_SOLID);
    fig_line(c->f, a2, r->s, r->qonly, RR_SAMPLES, p->l2[1].color, 2 * lw, FIG_DASHED);
    fig_line(c->f, a2, r->s, r->score, RR_SAMPLES, fig_series_color(2), 3 * lw, FIG_SOLID);
    fig_segment(c->f, a2, s, a2->y.lo, s, a2->y.hi, ink, 1.5 * lw, FIG_SOLID);
    fig_markers(c->f, a2, &s, &score, 1, fig_series_color(2), ms);
    if (p->rows.w > 0)
        fig_legend_rows(c->f, p->l2, 2, p->rows, true);
    else
        fig_legend(c->f, a2, p->l2, 2, 4);
}

static tf_status rope_rot_frame(fig_ctx *c, void *state, long k, long n)
{
    rope_rot *r = state;
    const tf_config *cfg = &c->a->cfg;
    double s = r->span * (double)k / (double)(n > 0 ? n : 1), aq, ak, score;
    rope_rot_at(r, cfg, r->m0 + s, r->n0 + s, &aq, &ak, &score);
    /* the fullest layout that fits (every frame of the loop alike: the layouts do not depend
     * on the frame but for the score's legend), else the smallest, cramped */
    rr_page p = {0};
    rr_layout L;
    fig_trial t = fig_try(c->f); /* the first that fits, else the least, cramped */
    for (int l = 0;; l++) {
        L = (rr_layout){.angles = l < 1, .titles = l < 2, .plane_labels = l < 3};
        rr_fit(c, r, &L, s, score, &p);
        if (fig_tried(c->f, &t, l == 3))
            break;
    }
    rope_rot_plane(c, r, &p.plane, aq, ak);
    rope_rot_curves(c, r, &p, L.angles, s, aq, ak, score);
    return TF_OK;
}

const fig_anim anim_rope_rotation = {
    .frames = RR_FRAMES, .fps = RR_FPS, .still = "rope", .begin = rope_rot_begin,
    .frame = rope_rot_frame, .end = free,
};
