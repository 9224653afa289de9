/* figure_boxes.c — what a page drew where, and the rules a layout keeps (fig_layout_check): the
 * tests check every figure's pages by them, and the figures place their labels to keep them. */
#include "figure_priv.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define EPS 0.3 /* points two boxes may share before they overlap (anti-aliased edges) */

void fig_record(fig *f, fig_box_kind kind, fig_rect r, int where, fig_rect plot, const char *text)
{
    fig_boxes *b = f->spec.boxes;
    if (!b || b->failed)
        return;
    if (b->n == b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 256;
        fig_box *v = realloc(b->v, cap * sizeof *v);
        if (!v) {
            b->failed = true;
            return;
        }
        b->v = v;
        b->cap = cap;
    }
    fig_box *x = &b->v[b->n++];
    *x = (fig_box){.kind = kind, .r = r, .where = where, .plot = plot};
    if (text)
        snprintf(x->text, sizeof x->text, "%s", text);
}

size_t fig_boxes_mark(const fig *f)
{
    return f->spec.boxes ? f->spec.boxes->n : 0;
}

void fig_mark_text(fig *f, size_t from, int role, bool tick)
{
    fig_boxes *b = f->spec.boxes;
    for (size_t i = from; b && i < b->n; i++)
        if (b->v[i].kind == FIG_BOX_TEXT) {
            b->v[i].title_role = role;
            b->v[i].tick_label = tick;
        }
}

void fig_boxes_free(fig_boxes *b)
{
    if (!b)
        return;
    free(b->v);
    *b = (fig_boxes){0};
}

const fig_plan_entry *fig_plan_find(const fig_ticks *p, const fig_plan_entry *k)
{
    for (int i = 0; p && i < p->n; i++) {
        const fig_plan_entry *e = &p->e[i];
        if (e->lo == k->lo && e->hi == k->hi && e->what == k->what && e->n == k->n)
            return e;
    }
    return NULL;
}

void fig_ticks_merge(fig_ticks *a, const fig_ticks *b)
{
    for (int i = 0; i < b->n; i++) {
        fig_plan_entry *e = (fig_plan_entry *)fig_plan_find(a, &b->e[i]);
        if (e)
            e->coarse = fmax(e->coarse, b->e[i].coarse);
        else if (a->n < FIG_MAX_PLAN)
            a->e[a->n++] = b->e[i];
    }
}

/* ---------------------------------------------------------------------------------------------
 * Geometry */

static bool overlap(fig_rect a, fig_rect b)
{
    return fmin(a.x + a.w, b.x + b.w) - fmax(a.x, b.x) > EPS &&
           fmin(a.y + a.h, b.y + b.h) - fmax(a.y, b.y) > EPS;
}

static bool inside(fig_rect a, fig_rect outer)
{
    return a.x >= outer.x - EPS && a.y >= outer.y - EPS && a.x + a.w <= outer.x + outer.w + EPS &&
           a.y + a.h <= outer.y + outer.h + EPS;
}

bool fig_same_rect(fig_rect a, fig_rect b)
{
    return fabs(a.x - b.x) < 1e-6 && fabs(a.y - b.y) < 1e-6 && fabs(a.w - b.w) < 1e-6 &&
           fabs(a.h - b.h) < 1e-6;
}

bool fig_clip_segment(double x0, double y0, double dx, double dy, fig_rect r, double *lo,
                      double *hi)
{
    /* Liang and Barsky's clipping: the part of the parameter range inside all four edges */
    *lo = 0, *hi = 1;
    const double p[4] = {-dx, dx, -dy, dy};
    const double q[4] = {x0 - r.x, r.x + r.w - x0, y0 - r.y, r.y + r.h - y0};
    for (int i = 0; i < 4; i++) {
        if (p[i] == 0) {
            if (q[i] < 0)
                return false;
            continue;
        }
        double t = q[i] / p[i];
        if (p[i] < 0)
            *lo = fmax(*lo, t);
        else
            *hi = fmin(*hi, t);
        if (*lo > *hi)
            return false;
    }
    return true;
}

bool fig_segment_hits(double x0, double y0, double dx, double dy, fig_rect r)
{
    double lo, hi;
    return fig_clip_segment(x0, y0, dx, dy,
                            (fig_rect){r.x + EPS, r.y + EPS, r.w - 2 * EPS, r.h - 2 * EPS}, &lo,
                            &hi);
}

/* Whether data mark m covers r. */
static bool mark_hits(const fig_box *m, fig_rect r)
{
    if (m->kind == FIG_BOX_SEGMENT)
        return fig_segment_hits(m->r.x, m->r.y, m->r.w, m->r.h, r);
    return overlap(m->r, r);
}

static bool is_mark(fig_box_kind k)
{
    return k == FIG_BOX_SEGMENT || k == FIG_BOX_MARKER || k == FIG_BOX_BAR ||
           k == FIG_BOX_HEATMAP;
}

/* ---------------------------------------------------------------------------------------------
 * The rules */

static char why[320];

static const char *offence(const char *what, const fig_box *a, const fig_box *b)
{
    snprintf(why, sizeof why, "%s: '%s' at (%.1f, %.1f, %.1f x %.1f)%s%s%s", what, a->text,
             a->r.x, a->r.y, a->r.w, a->r.h, b ? " and '" : "", b ? b->text : "", b ? "'" : "");
    return why;
}

/* A label against everything else. */
static const char *check_text(const fig_boxes *b, size_t i, fig_rect page)
{
    const fig_box *t = &b->v[i];
    if (!inside(t->r, page))
        return offence("a label leaves the page", t, NULL);
    if (t->where == FIG_TEXT_IN_PLOT && !inside(t->r, t->plot))
        return offence("an annotation leaves its plot", t, NULL);
    if (t->where == FIG_TEXT_IN_LEGEND && !inside(t->r, t->plot))
        return offence("a legend's label leaves its frame", t, NULL);
    for (size_t j = 0; j < b->n; j++) {
        const fig_box *o = &b->v[j];
        if (o->kind == FIG_BOX_SEGMENT) {
            /* a curve, a guide or an arrow through a label: the label covers data (a tick
             * label sits outside its plot, where no curve goes; a legend's swatches are no
             * segments) */
            if (!t->tick_label && mark_hits(o, t->r))
                return offence("a curve crosses a label", t, NULL);
            continue;
        }
        if (j == i || o->kind == FIG_BOX_TICK || !overlap(t->r, o->r))
            continue;
        bool own = fig_same_rect(o->r, t->plot); /* the plot or legend it belongs in */
        if (o->kind == FIG_BOX_TEXT && j > i)
            return offence("labels overlap", t, o);
        if ((o->kind == FIG_BOX_PLOT || o->kind == FIG_BOX_HEATMAP) && t->where == FIG_TEXT_OUTSIDE)
            return offence("a label covers a plot", t, NULL);
        if (o->kind == FIG_BOX_PLOT && t->where == FIG_TEXT_IN_PLOT && !own)
            return offence("an annotation covers another plot", t, NULL);
        if (o->kind == FIG_BOX_COLORBAR)
            return offence("a label covers a colour bar", t, NULL);
        if (o->kind == FIG_BOX_LEGEND && !(t->where == FIG_TEXT_IN_LEGEND && own))
            return offence("a label covers a legend", t, NULL);
        if (o->kind == FIG_BOX_MARKER && t->where == FIG_TEXT_IN_PLOT)
            return offence("an annotation covers a marker", t, NULL);
    }
    return NULL;
}

/* A legend, colour bar or plot (the frames, by these names) against the data and the panels
 * around it; NULL for other boxes. */
static const char *check_frame(const fig_boxes *b, size_t i, fig_rect page)
{
    const fig_box *l = &b->v[i];
    static const char *const names[FIG_BOX_KIND_COUNT] = {
        [FIG_BOX_PLOT] = "plots", [FIG_BOX_COLORBAR] = "a colour bar", [FIG_BOX_LEGEND] = "a legend"};
    if (!names[l->kind])
        return NULL;
    if (!inside(l->r, page)) {
        snprintf(why, sizeof why, "%s leaves the page", names[l->kind]);
        return why;
    }
    for (size_t j = 0; j < b->n; j++) {
        const fig_box *o = &b->v[j];
        if (l->kind == FIG_BOX_LEGEND && is_mark(o->kind) && fig_same_rect(o->plot, l->plot) &&
            mark_hits(o, l->r))
            return "a legend covers its plot's data";
        if (names[o->kind] && j > i && overlap(l->r, o->r) &&
            !(l->kind == FIG_BOX_LEGEND && o->kind == FIG_BOX_PLOT &&
              fig_same_rect(o->r, l->plot)) &&
            !(o->kind == FIG_BOX_LEGEND && l->kind == FIG_BOX_PLOT &&
              fig_same_rect(l->r, o->plot))) {
            snprintf(why, sizeof why, "%s and %s overlap", names[l->kind], names[o->kind]);
            return why;
        }
    }
    return NULL;
}

const char *fig_layout_check(const fig_boxes *b, double width, double height)
{
    if (b->failed)
        return "out of memory while checking the layout";
    fig_rect page = {0, 0, width, height};
    for (size_t i = 0; i < b->n; i++) {
        const char *bad =
            b->v[i].kind == FIG_BOX_TEXT ? check_text(b, i, page) : check_frame(b, i, page);
        if (bad)
            return bad;
    }
    return NULL;
}
