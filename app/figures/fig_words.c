/* fig_words.c — the 2-D map of learned word vectors (C5): the MAP_WORDS first rows of the
 * vectors (files and training rank them by frequency) projected on their two leading principal
 * components. Labels are placed in rank order: next to their point where there is room, else a
 * little further out with a leader line, and skipped only when no place is free. And the
 * animation of that map while skip-gram trains (app/learn, as view 8 does). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figures/draw.h"
#include "learn/learn.h"
#include "linalg.h"
#include "pca.h"

#define MAP_WORDS 60

const char *check_word_map(const tf_config *cfg)
{
    if (!cfg->vectors || cfg->vectors->n < 2)
        return "the map of words needs learned vectors: add --vectors FILE (tfviz --train -o "
               "FILE writes one)";
    return NULL;
}

/* Whether box b lies in the plot and off the n boxes placed. */
static bool spot_free(const fig_axes *ax, fig_rect b, const fig_rect *boxes, size_t n)
{
    const fig_rect *r = &ax->r;
    if (b.x < r->x || b.x + b.w > r->x + r->w || b.y < r->y || b.y + b.h > r->y + r->h)
        return false;
    for (const fig_rect *o = boxes; o < boxes + n; o++)
        if (!(b.x + b.w <= o->x || o->x + o->w <= b.x || b.y + b.h <= o->y || o->y + o->h <= b.y))
            return false;
    return true;
}

/* A leader line (data), from (x[0], y[0]) to (x[1], y[1]): labels keep off those drawn, and
 * they off labels and markers. */
typedef struct {
    double x[2], y[2];
} leader;

/* Whether one of the n leaders l meets a box of the nb boxes but box self, grown by pad. */
static bool leader_hits(const fig_axes *ax, const leader *l, size_t n, const fig_rect *boxes,
                        size_t nb, size_t self, double pad)
{
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < nb; j++) {
            fig_rect o = boxes[j], r = {o.x - pad, o.y - pad, o.w + 2 * pad, o.h + 2 * pad};
            if (j != self && fig_series_hit(ax, &(fig_series){l[i].x, l[i].y, 2}, r))
                return true;
        }
    return false;
}

/* The label of the point (x, y) (its marker is box self): right, left, above or below it; else,
 * in rings further out in eight directions, with a thin leader line from the point to the label.
 * A place is free when it lies in the plot off every box placed and every leader drawn, and its
 * leader (if any) crosses no label nor marker. Its box joins the nb boxes, its leader the nl l.
 * plain: word is text, else markup. A label with no free place is left out, and so is one the
 * page's plan leaves out (the other language's page had no place for it: both label the same
 * words). */
static void place_label(fig_ctx *c, const fig_axes *ax, const char *word, bool plain, double x,
                        double y, double mr, size_t self, fig_rect *box, size_t *nb, leader *l,
                        size_t *nl)
{
    double w, h, X = fig_px(ax, x), Y = fig_py(ax, y);
    fig_text_size(c->f, word, plain, &w, &h);
    static const double dir[8][2] = {{1, 0},  {-1, 0}, {0, -1}, {0, 1},
                                     {1, -1}, {-1, -1}, {1, 1}, {-1, 1}};
    const double pad = 0.5; /* points: labels and leaders clear of each other */
    double kx = (ax->x.hi - ax->x.lo) / ax->r.w, ky = (ax->y.hi - ax->y.lo) / ax->r.h;
    fig_rect b = {0, 0, w, h}; /* the label's box */
    leader ln = {0};
    bool found = false, lead = false;
    for (int ring = 0; ring < 3 && !found; ring++)
        for (int k = 0; k < (ring ? 8 : 4) && !found; k++) {
            double reach = mr + 1 + ring * 0.9 * h;
            double dx = dir[k][0], dy = dir[k][1];
            /* the box's near side or corner at reach from the point */
            b.x = dx > 0 ? X + reach : dx < 0 ? X - reach - w : X - w / 2;
            b.y = dy > 0 ? Y + reach : dy < 0 ? Y - reach - h : Y - h / 2;
            lead = ring > 0;
            found = spot_free(ax, b, box, *nb) && !leader_hits(ax, l, *nl, &b, 1, SIZE_MAX, pad);
            if (found && lead) { /* from the marker's edge to the box's near edge */
                double tx = dx > 0 ? b.x : dx < 0 ? b.x + w : b.x + w / 2;
                double ty = dy > 0 ? b.y : dy < 0 ? b.y + h : b.y + h / 2;
                double len = hypot(tx - X, ty - Y);
                double sx = X + (tx - X) / len * mr, sy = Y + (ty - Y) / len * mr;
                ln.x[0] = ax->x.lo + (sx - ax->r.x) * kx, ln.y[0] = ax->y.hi - (sy - ax->r.y) * ky;
                ln.x[1] = ax->x.lo + (tx - ax->r.x) * kx, ln.y[1] = ax->y.hi - (ty - ax->r.y) * ky;
                /* off every label and marker but the point's own */
                found = !leader_hits(ax, &ln, 1, box, *nb, self, pad);
            }
        }
    if (fig_plan_drop(c->f, !found))
        return;
    if (lead) {
        fig_segment(c->f, ax, ln.x[0], ln.y[0], ln.x[1], ln.y[1], (tf_rgb){150, 150, 150},
                    0.06 * fig_font_size(c->f), FIG_SOLID);
        l[(*nl)++] = ln;
    }
    fig_text_in(c->f, ax, word, plain, b.x, b.y, 0, 0);
    box[(*nb)++] = b;
}

/* Markers at (px[i], py[i]), all obstacles, then the words beside them in order (place_label).
 * col: each word's colour (NULL: series colour 0); a word in another than the first is bold. */
static tf_status place_words(fig_ctx *c, const fig_axes *ax, const char *const *words,
                             const double *px, const double *py, size_t n, const tf_rgb *col)
{
    fig_rect *box = malloc(2 * n * sizeof *box); /* the markers', then the labels' */
    leader *l = malloc(n * sizeof *l);
    size_t nb = 0, nl = 0;
    if (!box || !l) {
        free(box), free(l);
        return TF_ERR_NOMEM;
    }
    tf_rgb plain = fig_series_color(0);
    if (col)
        for (size_t i = 0; i < n; i++)
            fig_markers(c->f, ax, &px[i], &py[i], 1, col[i], 4);
    else
        fig_markers(c->f, ax, px, py, (long)n, plain, 4);
    const double mr = 2.5; /* marker radius, points */
    for (size_t i = 0; i < n; i++)
        box[nb++] = (fig_rect){fig_px(ax, px[i]) - mr, fig_py(ax, py[i]) - mr, 2 * mr, 2 * mr};
    for (size_t i = 0; i < n; i++) {
        bool marked = col && memcmp(&col[i], &plain, sizeof plain) != 0;
        char mark[160];
        snprintf(mark, sizeof mark, "<b>%s</b>", words[i]);
        place_label(c, ax, marked ? mark : words[i], !marked, px[i], py[i], mr, i, box, &nb, l,
                    &nl);
    }
    free(box), free(l);
    return TF_OK;
}

/* Axis limits around the n points xy (x, y pairs), with room for the labels on the right. */
static void map_limits(fig_axes *ax, const double *xy, size_t n)
{
    double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
    for (const double *p = xy; p < xy + 2 * n; p += 2)
        x0 = fmin(x0, p[0]), x1 = fmax(x1, p[0]), y0 = fmin(y0, p[1]), y1 = fmax(y1, p[1]);
    /* a flat axis (two words, or words on one line: its coordinates are all 0) gets the other
     * axis's span, so its ticks read 0 in the middle of a square-ish range, not 1e-9 steps */
    double span = fmax(x1 - x0, y1 - y0);
    if (!(span > 0))
        span = 1; /* every word on one point: a unit square around it */
    double mx = x1 - x0 > 1e-9 * span ? 0.08 * (x1 - x0) : 0.5 * span;
    double my = y1 - y0 > 1e-9 * span ? 0.06 * (y1 - y0) : 0.5 * span;
    ax->x.lo = x0 - mx, ax->x.hi = x1 + 2 * mx, ax->y.lo = y0 - my, ax->y.hi = y1 + my;
}

/* The map's axes, and their labels and title. */
typedef struct {
    fig_axes ax;
    char xl[80], yl[80], title[200];
} map_page;

tf_status draw_word_map(fig_ctx *c, fig_rect area, bool panel_title)
{
    const tf_vectors *v = c->req->vectors;
    size_t n = v->n < MAP_WORDS ? v->n : MAP_WORDS;
    double *xy = malloc(n * 4 * sizeof *xy);
    pca_result r;
    if (!xy || pca_project2(v->data, n, v->dim, xy, &r) != TF_OK) {
        free(xy);
        return TF_ERR_NOMEM;
    }
    double *px = xy + 2 * n, *py = px + n;
    map_page mp = {.ax.frame = true};
    for (size_t i = 0; i < n; i++)
        px[i] = xy[2 * i], py[i] = xy[2 * i + 1];
    map_limits(&mp.ax, xy, n);
    double total = r.var_total > 0 ? r.var_total : 1; /* identical vectors: 0%, not NaN% */
    txt_fmt_lang(mp.xl, sizeof mp.xl, T_F_PC1, c->zh, 100.0 * r.var[0] / total);
    txt_fmt_lang(mp.yl, sizeof mp.yl, T_F_PC2, c->zh, 100.0 * r.var[1] / total);
    txt_fmt_lang(mp.title, sizeof mp.title, T_F_MAP_TITLE, c->zh, n, v->dim);
    mp.ax.x.label = mp.xl, mp.ax.y.label = mp.yl, mp.ax.title = panel_title ? mp.title : NULL;
    fig_axes_fit(c->f, &mp.ax, area);
    fig_axes_draw(c->f, &mp.ax);
    tf_status st = place_words(c, &mp.ax, (const char *const *)v->words, px, py, n, NULL);
    pca_free(&r);
    free(xy);
    return st;
}

tf_status draw_embedding_map(fig_ctx *c)
{
    if (!c->req->vectors || c->req->vectors->n < 2)
        return TF_ERR_RANGE;
    return draw_word_map(c, c->area, false);
}

/* ---------------------------------------------------------------------------------------------
 * training (animation): skip-gram with negative sampling on the corpus (the built-in one, or
 * --corpus), the map of the commonest words and of the watched pairs' words at n moments from
 * the random start to the end, beside the cosines of the watched pairs (C5). The whole run is
 * trained first, and every frame projected on the final map's two principal axes, so the map
 * does not turn or flip from frame to frame: the words start as a random cloud and gather. */

#define TRAIN_FRAMES 60
#define TRAIN_FPS 10.0
#define TRAIN_WORDS 48 /* the commonest words on the map; the watched pairs' words join them */
#define TRAIN_PAIRS 3  /* the pairs drawn: two that share contexts and the control */

static const int train_pairs[TRAIN_PAIRS] = {0, 1, LEARN_CONTROL};

typedef struct {
    size_t nw;                 /* words on the map */
    int dim;
    long n;                    /* frames (snapshots) */
    char **words;              /* (nw) owned copies */
    int32_t *ids;              /* (nw) their model ids */
    float *snap;               /* (n, nw, dim) the words' vectors at each frame */
    double *xy;                /* (n, nw, 2) projected on the final principal axes */
    double *done, *loss;       /* (n) percent of the run done, smoothed loss */
    double *cosv;              /* (TRAIN_PAIRS, n) cosines of the pairs; the three one block */
    int np;                    /* how many of train_pairs the corpus has; of each, in order: */
    int32_t pair_ids[TRAIN_PAIRS][2];
    const char *pair_words[TRAIN_PAIRS][2]; /* (static strings of learn/) */
    bool pair_ctl[TRAIN_PAIRS];             /* the control: grey, dashed */
    tf_rgb pair_col[TRAIN_PAIRS];
    int epochs;
    double var1, var2;         /* the final axes' share of the variance, % */
} train_anim;

static void train_free(void *state)
{
    train_anim *t = state;
    if (!t)
        return;
    for (size_t i = 0; t->words && i < t->nw; i++)
        free(t->words[i]);
    free(t->words), free(t->ids), free(t->snap), free(t->xy), free(t->done);
    free(t);
}

/* The words on the map: the commonest, then the watched pairs' words not among them. */
static tf_status train_pick_words(train_anim *t, const learn_session *L)
{
    const w2v_model *m = &L->m;
    size_t cap = TRAIN_WORDS + 2 * TRAIN_PAIRS;
    t->words = calloc(cap, sizeof *t->words);
    t->ids = malloc(cap * sizeof *t->ids);
    if (!t->words || !t->ids)
        return TF_ERR_NOMEM;
    for (uint32_t i = 0; i < m->V && t->nw < TRAIN_WORDS; i++)
        t->ids[t->nw++] = (int32_t)i;
    for (int p = 0; p < TRAIN_PAIRS; p++) {
        int q = t->np;
        if (!learn_pair_ids(L, train_pairs[p], t->pair_ids[q]))
            continue;
        t->pair_ctl[q] = train_pairs[p] == LEARN_CONTROL;
        t->pair_col[q] = t->pair_ctl[q] ? (tf_rgb){120, 120, 120} : fig_series_color(p + 1);
        for (int k = 0; k < 2; k++) {
            t->pair_words[q][k] = learn_pair(L, train_pairs[p], k);
            bool in = false;
            for (size_t i = 0; i < t->nw && !in; i++)
                in = t->ids[i] == t->pair_ids[q][k];
            if (!in)
                t->ids[t->nw++] = t->pair_ids[q][k];
        }
        t->np++;
    }
    for (size_t i = 0; i < t->nw; i++)
        if (!(t->words[i] = strdup(m->words[t->ids[i]])))
            return TF_ERR_NOMEM;
    return TF_OK;
}

/* Every snapshot on the last one's two principal axes, each centred on its own mean. */
static tf_status train_project(train_anim *t)
{
    size_t nw = t->nw, d = (size_t)t->dim;
    const float *last = t->snap + (size_t)(t->n - 1) * nw * d;
    pca_result r;
    tf_status st = pca_project2(last, nw, t->dim, t->xy + (size_t)(t->n - 1) * nw * 2, &r);
    if (st != TF_OK)
        return st;
    t->var1 = 100.0 * r.var[0] / r.var_total, t->var2 = 100.0 * r.var[1] / r.var_total;
    double *mean = malloc(d * sizeof *mean), *row = malloc(d * sizeof *row);
    if (!mean || !row) {
        free(mean), free(row), pca_free(&r);
        return TF_ERR_NOMEM;
    }
    for (long k = 0; k < t->n; k++) {
        const float *x = t->snap + (size_t)k * nw * d;
        memset(mean, 0, d * sizeof *mean);
        for (size_t i = 0; i < nw; i++)
            for (size_t j = 0; j < d; j++)
                mean[j] += x[i * d + j] / (double)nw;
        for (size_t i = 0; i < nw; i++) {
            for (size_t j = 0; j < d; j++)
                row[j] = x[i * d + j] - mean[j];
            t->xy[((size_t)k * nw + i) * 2] = la_dot(row, r.axes, d);
            t->xy[((size_t)k * nw + i) * 2 + 1] = la_dot(row, r.axes + d, d);
        }
    }
    free(mean), free(row), pca_free(&r);
    return TF_OK;
}

/* The model trained on the corpus in n - 1 slices, a snapshot before and after each, projected. */
static tf_status train_begin(fig_ctx *c, long n, void **state)
{
    /* English words in an English figure, unless the sentence is Chinese */
    learn_request lr = {.corpus_path = c->req->corpus, .cfg = &c->a->cfg,
                        .english = learn_english(!c->zh, c->a->text, c->a->text_len)};
    w2v_params_defaults(&lr.params);
    if (c->req->w2v)
        lr.params = *c->req->w2v;
    learn_session L;
    if (learn_open(&L, &lr)) { /* it said why */
        c->said = true;
        return L.failed != TF_OK ? L.failed : TF_ERR_RANGE;
    }
    train_anim *t = calloc(1, sizeof *t);
    tf_status st = t ? train_pick_words(t, &L) : TF_ERR_NOMEM;
    if (st == TF_OK && t->nw < 2) {
        snprintf(c->msg, sizeof c->msg, "the corpus has fewer than two words to map");
        st = TF_ERR_RANGE;
    }
    if (st == TF_OK) {
        t->n = n, t->dim = L.m.dim, t->epochs = L.m.p.epochs;
        t->snap = malloc((size_t)n * t->nw * (size_t)t->dim * sizeof *t->snap);
        t->xy = malloc((size_t)n * t->nw * 2 * sizeof *t->xy);
        t->done = malloc((size_t)n * (2 + TRAIN_PAIRS) * sizeof *t->done);
        if (!t->snap || !t->xy || !t->done)
            st = TF_ERR_NOMEM;
        else
            t->loss = t->done + n, t->cosv = t->loss + n;
    }
    w2v_progress pr = {.words_total = (uint64_t)L.m.p.epochs * w2v_corpus_tokens(L.corpus)};
    double ema = NAN;
    for (long k = 0; st == TF_OK && k < n; k++) {
        /* to the end of slice k (0: the start); whole sentences, so it may end past its mark */
        uint64_t target = n > 1 ? pr.words_total * (uint64_t)k / (uint64_t)(n - 1) : 0;
        while (st == TF_OK && !pr.done && pr.words_done < target) {
            st = w2v_step(&L.m, target - pr.words_done, &pr);
            if (pr.pairs > 0)
                ema = isnan(ema) ? pr.loss : 0.8 * ema + 0.2 * pr.loss;
        }
        if (st != TF_OK)
            break;
        /* the state after slice k: the words' vectors, the share done, the loss, the cosines */
        for (size_t i = 0; i < t->nw; i++)
            memcpy(t->snap + ((size_t)k * t->nw + i) * (size_t)t->dim,
                   L.m.vec + (size_t)t->ids[i] * (size_t)t->dim, (size_t)t->dim * sizeof *L.m.vec);
        t->done[k] = pr.words_total ? 100.0 * ((double)pr.words_done / (double)pr.words_total) : 0;
        t->loss[k] = ema;
        for (int p = 0; p < t->np; p++)
            t->cosv[p * t->n + k] = w2v_cosine(&L.m, t->pair_ids[p][0], t->pair_ids[p][1]);
    }
    if (st == TF_OK)
        st = train_project(t);
    learn_close(&L);
    if (st == TF_OK)
        *state = t;
    else
        train_free(t);
    return st;
}

/* The map's axes at frame k fitted into area: limits that grow with the cloud and never shrink,
 * so the start is seen close up and the gathering at its full size; the title left out when the
 * panel is narrower (the curves' x axis says how far the run is). */
static void map_axes(fig_ctx *c, const train_anim *t, long k, fig_rect area, map_page *mp)
{
    size_t nw = t->nw;
    fig_axes *ax = &mp->ax;
    fig_axes lim = {0};
    *ax = (fig_axes){.frame = true};
    ax->x.lo = ax->y.lo = INFINITY, ax->x.hi = ax->y.hi = -INFINITY;
    for (long f = 0; f <= k; f++) {
        map_limits(&lim, t->xy + (size_t)f * nw * 2, nw);
        ax->x.lo = fmin(ax->x.lo, lim.x.lo), ax->x.hi = fmax(ax->x.hi, lim.x.hi);
        ax->y.lo = fmin(ax->y.lo, lim.y.lo), ax->y.hi = fmax(ax->y.hi, lim.y.hi);
    }
    txt_fmt_lang(mp->xl, sizeof mp->xl, T_F_PC1, c->zh, t->var1);
    txt_fmt_lang(mp->yl, sizeof mp->yl, T_F_PC2, c->zh, t->var2);
    /* the title as wide as it gets (100%), so that every frame keeps or drops it alike */
    txt_fmt_lang(mp->title, sizeof mp->title, T_F_TR_MAP, c->zh, nw, 100.0);
    bool titled = !too_wide(c->f, mp->title, area.w);
    txt_fmt_lang(mp->title, sizeof mp->title, T_F_TR_MAP, c->zh, nw, t->done[k]);
    ax->x.label = mp->xl, ax->y.label = mp->yl, ax->title = titled ? mp->title : NULL;
    fig_trial tried = fig_try(c->f);
    fig_axes_fit(c->f, ax, area);
    if (!fig_tried(c->f, &tried, false)) { /* "PC 1" without its share of the variance */
        for (int i = 0; i < 2; i++) {
            char *l = i ? mp->yl : mp->xl, *paren = strstr(l, "\xef\xbc\x88"); /* "（" */
            if (!paren)
                paren = strstr(l, " (");
            if (paren)
                *paren = '\0';
        }
        fig_axes_fit(c->f, ax, area);
        fig_tried(c->f, &tried, true);
    }
}

/* The map at frame k in area. */
static tf_status train_map(fig_ctx *c, const train_anim *t, long k, fig_rect area)
{
    size_t nw = t->nw;
    double *px = calloc(nw * 2, sizeof *px); /* (filled below, each word once) */
    tf_rgb *col = calloc(nw, sizeof *col);
    const char **words = calloc(nw, sizeof *words);
    if (!px || !col || !words) {
        free(px), free(col), free(words);
        return TF_ERR_NOMEM;
    }
    double *py = px + nw;
    map_page mp;
    map_axes(c, t, k, area, &mp);
    fig_axes_draw(c->f, &mp.ax);
    /* the watched pairs' words first, in their colours, so their labels find room; then the rest */
    tf_rgb plain = fig_series_color(0);
    size_t m = 0;
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < nw; i++) {
            tf_rgb ci = plain;
            for (int p = 0; p < t->np; p++)
                for (int j = 0; j < 2; j++)
                    if (t->ids[i] == t->pair_ids[p][j])
                        ci = t->pair_col[p];
            bool marked = memcmp(&ci, &plain, sizeof ci) != 0;
            if (marked != (pass == 0))
                continue;
            words[m] = t->words[i], col[m] = ci;
            px[m] = t->xy[((size_t)k * nw + i) * 2], py[m++] = t->xy[((size_t)k * nw + i) * 2 + 1];
        }
    tf_status st = place_words(c, &mp.ax, words, px, py, nw, col);
    free(px), free(col), free(words);
    return st;
}

/* The curves' panel of a frame, laid out before it is drawn. */
typedef struct {
    fig_legend_item li[TRAIN_PAIRS];
    char lab[TRAIN_PAIRS][64];
    char title[160], done[120], cos[120];
    fig_axes ax;
    int corner;     /* the legend's corner in the plot, -1: in rows */
    fig_rect rows;  /* the legend's rows below the panel or both panels (empty: none) */
} train_page;

/* The corner of the curves' plot (laid out in p) that the whole run's curves and their markers
 * leave free for the legend (the same in every frame: each curve moved by a marker's radius four
 * ways), when the legend fits inside the plot with room to spare; -1 for none. */
static int legend_corner(fig_ctx *c, const train_anim *t, const train_page *p)
{
    const fig_axes *ax = &p->ax;
    if (!(fig_legend_width(c->f, p->li, t->np) <= 0.8 * ax->r.w &&
          fig_legend_height(c->f, p->li, t->np) <= 0.6 * ax->r.h))
        return -1;
    double ms = 0.6 * fig_font_size(c->f);
    double *sh = malloc(4 * (size_t)t->n * TRAIN_PAIRS * 2 * sizeof *sh);
    if (!sh)
        return -1;
    static const double zx[2] = {0, 100}, zy[2] = {0, 0}; /* the zero line */
    fig_series sr[1 + 4 * TRAIN_PAIRS] = {{.x = zx, .y = zy, .n = 2}};
    double dx = 0.5 * ms / fmax(ax->r.w, 1) * 100, dy = 0.5 * ms / fmax(ax->r.h, 1) * 1.4;
    for (int q = 0; q < t->np; q++)
        for (int way = 0; way < 4; way++) {
            double *x = sh + ((size_t)q * 4 + (size_t)way) * 2 * (size_t)t->n, *y = x + t->n;
            for (long f = 0; f < t->n; f++) {
                x[f] = t->done[f] + (way == 0 ? dx : way == 1 ? -dx : 0);
                y[f] = t->cosv[(size_t)q * (size_t)t->n + (size_t)f] +
                       (way == 2 ? dy : way == 3 ? -dy : 0);
            }
            sr[1 + 4 * q + way] = (fig_series){.x = x, .y = y, .n = t->n};
        }
    int corner = fig_legend_place(c->f, ax, p->li, t->np, sr, 1 + 4 * t->np);
    free(sh);
    return corner;
}

/* Lay out the cosines of the pairs up to frame k in area: the legend in the corner the whole
 * run leaves free (legend_corner); else in rows below the panel (own_rows), or none (the
 * caller's rows below both panels). A narrow panel takes its axis labels in two lines and leaves
 * its title out when it is wider than the panel (the map's title says how far the run is). Laid
 * out only: the caller's trial takes it or not. */
static void curves_fit(fig_ctx *c, const train_anim *t, long k, fig_rect area, bool own_rows,
                       train_page *p)
{
    for (int q = 0; q < t->np; q++) {
        bool ctl = t->pair_ctl[q];
        snprintf(p->lab[q], sizeof p->lab[q], "%s – %s%s", t->pair_words[q][0], t->pair_words[q][1],
                 ctl ? fig_txt(c, T_F_TR_CONTROL) : "");
        p->li[q] = (fig_legend_item){
            .label = p->lab[q], .color = t->pair_col[q], .dash = ctl ? FIG_DASHED : FIG_SOLID};
    }
    /* the title as wide as it gets (the start's), so that every frame keeps or drops it alike */
    txt_fmt_lang(p->title, sizeof p->title, T_F_TR_START, c->zh, t->epochs);
    bool titled = !too_wide(c->f, p->title, area.w);
    if (!isnan(t->loss[k]))
        txt_fmt_lang(p->title, sizeof p->title, T_F_TR_LOSS, c->zh, t->loss[k]);
    snprintf(p->done, sizeof p->done, "%s", fig_txt(c, T_F_TR_DONE));
    snprintf(p->cos, sizeof p->cos, "%s", fig_txt(c, T_F_TR_COS));
    fig_trial tried = fig_try(c->f);
    fig_axes *ax = &p->ax;
    *ax = (fig_axes){.grid = true, .title = p->title};
    ax->x = (fig_axis){.lo = 0, .hi = 100, .label = p->done};
    ax->y = (fig_axis){.lo = -0.4, .hi = 1.0, .label = p->cos};
    fig_axes_fit(c->f, ax, area);
    if (!fig_tried(c->f, &tried, false)) { /* the labels wrapped */
        if (!titled)
            ax->title = NULL;
        fig_wrap(c->f, p->done, sizeof p->done, 0.95 * area.w);
        fig_wrap(c->f, p->cos, sizeof p->cos, 0.6 * area.h);
        fig_axes_fit(c->f, ax, area);
        fig_tried(c->f, &tried, true);
    }
    p->corner = t->np ? legend_corner(c, t, p) : -1;
    p->rows = (fig_rect){0};
    if (t->np && p->corner < 0 && own_rows) {
        double gap = 0.3 * fig_font_size(c->f);
        p->rows = (fig_rect){area.x, 0, area.w, fig_legend_rows(c->f, p->li, t->np, area, false)};
        area.h -= p->rows.h + gap;
        p->rows.y = area.y + area.h + gap;
        fig_axes_fit(c->f, ax, area);
        legend_rows_fit(c->f, p->li, t->np, area.w); /* every label within the panel's width */
    }
}

/* The curves of a page laid out by curves_fit, up to frame k. */
static void train_curves(fig_ctx *c, const train_anim *t, long k, const train_page *p)
{
    const fig_axes *ax = &p->ax;
    fig_axes_draw(c->f, ax);
    double lw = 0.065 * fig_font_size(c->f), ms = 0.6 * fig_font_size(c->f);
    fig_segment(c->f, ax, 0, 0, 100, 0, (tf_rgb){150, 150, 150}, lw, FIG_SOLID);
    for (int q = 0; q < t->np; q++) {
        const double *ys = t->cosv + (size_t)q * (size_t)t->n;
        fig_line(c->f, ax, t->done, ys, k + 1, p->li[q].color, 2.5 * lw, p->li[q].dash);
        fig_markers(c->f, ax, &t->done[k], &ys[k], 1, p->li[q].color, ms);
    }
    if (p->corner >= 0)
        fig_legend(c->f, ax, p->li, t->np, p->corner);
    else if (p->rows.w > 0)
        fig_legend_rows(c->f, p->li, t->np, p->rows, true);
}

/* A frame: the map and the curves side by side (stacked on a tall page); when the curves'
 * panel has no room for its legend (a column's width), the legend in rows below both. */
static tf_status train_frame(fig_ctx *c, void *state, long k, long n)
{
    (void)n;
    const train_anim *t = state;
    train_page page, *p = &page;
    fig_rect area = c->area, map, curves;
    bool wide;
    double gap = 0.8 * fig_font_size(c->f);
    split_panels(area, 0.58, 0.6, gap, gap, &wide, &map, &curves);
    fig_trial tried = fig_try(c->f); /* the legend beside the curves, else in rows below */
    map_page laid;
    curves_fit(c, t, k, curves, true, p);
    map_axes(c, t, k, map, &laid); /* laid out only */
    if (!fig_tried(c->f, &tried, false)) {
        fig_rect rows = {area.x, 0, area.w, fig_legend_rows(c->f, p->li, t->np, area, false)};
        area.h -= rows.h + 0.5 * gap;
        rows.y = area.y + area.h + 0.5 * gap;
        split_panels(area, 0.58, 0.6, gap, gap, &wide, &map, &curves);
        curves_fit(c, t, k, curves, false, p);
        p->rows = rows;
        fig_tried(c->f, &tried, true);
    }
    tf_status st = train_map(c, t, k, map);
    train_curves(c, t, k, p);
    return st;
}

const fig_anim anim_training = {
    .frames = TRAIN_FRAMES, .fps = TRAIN_FPS, .still = "embedding-map", .begin = train_begin,
    .frame = train_frame, .end = train_free,
};
