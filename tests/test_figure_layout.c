/* test_figure_layout.c — the layout rules of render/figure_boxes.c on synthetic pages: a label
 * that a curve, a guide line, an arrow or a circle crosses covers data and is reported, wherever
 * it was placed (inside the plot or outside it); a tick label and a legend's own swatch are not
 * data to keep off; a curve drawn past its plot's edge is clipped there, as it is drawn. Both
 * from boxes written by hand (the geometry alone) and from pages laid out through the API (what
 * fig_line and friends record). A trial of layouts asks for what the layout it takes lacks, or
 * the least any layout tried lacked, not the sum of all it tried. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figure.h"

static void add(fig_boxes *b, fig_box x)
{
    if (b->n == b->cap) {
        b->cap = b->cap ? 2 * b->cap : 16;
        b->v = realloc(b->v, b->cap * sizeof *b->v);
        assert_non_null(b->v);
    }
    b->v[b->n++] = x;
}

static fig_box text(fig_rect r, int where, fig_rect plot)
{
    fig_box x = {.kind = FIG_BOX_TEXT, .r = r, .where = where, .plot = plot};
    snprintf(x.text, sizeof x.text, "L = 128");
    return x;
}

static fig_box segment(double x0, double y0, double x1, double y1, fig_rect plot)
{
    return (fig_box){.kind = FIG_BOX_SEGMENT, .r = {x0, y0, x1 - x0, y1 - y0}, .plot = plot};
}

/* Boxes by hand: a plot of 100 x 100 pt at (50, 50) with a falling line through it. */
static void test_curve_through_label_by_hand(void **state)
{
    (void)state;
    const fig_rect plot = {50, 50, 100, 100};
    const double W = 200, H = 200;
    struct {
        fig_rect label;
        int where;
        bool tick;
        bool bad;
    } cases[] = {
        {{90, 90, 20, 8}, FIG_TEXT_IN_PLOT, false, true},   /* on the line */
        {{60, 120, 20, 8}, FIG_TEXT_IN_PLOT, false, false}, /* below it, clear */
        {{130, 60, 15, 8}, FIG_TEXT_IN_PLOT, false, false}, /* above it, clear */
        /* the line clips the box's corner by 0.1 pt: within the hair two boxes may share */
        {{99.9, 80, 20.1, 20}, FIG_TEXT_IN_PLOT, false, false},
        {{90, 90, 20, 8}, FIG_TEXT_IN_PLOT, true, false}, /* a tick label: not this rule */
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        fig_boxes b = {0};
        add(&b, (fig_box){.kind = FIG_BOX_PLOT, .r = plot, .plot = plot});
        fig_box t = text(cases[k].label, cases[k].where, plot);
        t.tick_label = cases[k].tick;
        add(&b, t);
        /* y = x from the plot's top-left corner to its bottom-right, in four pieces */
        for (int i = 0; i < 4; i++)
            add(&b, segment(50 + 25 * i, 50 + 25 * i, 75 + 25 * i, 75 + 25 * i, plot));
        const char *why = fig_layout_check(&b, W, H);
        if (cases[k].bad) {
            assert_non_null(why);
            assert_non_null(strstr(why, "a curve crosses a label"));
            assert_non_null(strstr(why, "L = 128"));
        } else if (why) {
            fail_msg("case %zu: %s", k, why);
        }
        fig_boxes_free(&b);
    }
    /* a segment that crosses the box without an end inside it (the box between two samples) */
    fig_boxes b = {0};
    add(&b, (fig_box){.kind = FIG_BOX_PLOT, .r = plot, .plot = plot});
    add(&b, text((fig_rect){95, 60, 10, 80}, FIG_TEXT_IN_PLOT, plot));
    add(&b, segment(50, 100, 150, 100, plot)); /* horizontal, ends far either side */
    const char *why = fig_layout_check(&b, W, H);
    assert_non_null(why);
    assert_non_null(strstr(why, "a curve crosses a label"));
    fig_boxes_free(&b);
}

/* A page laid out through the API (nothing drawn): a plot, a line and a label; ok says whether
 * the label is placed clear of the line. */
static const char *page(fig_boxes *b, int label_at, bool legend)
{
    fig_spec s = {.format = FIG_SVG, .width = 300, .height = 220, .font_size = 10,
                  .latin_first = true, .measure = true, .boxes = b};
    fig *f;
    assert_int_equal(fig_begin(&s, &(fig_meta){0}, &f), TF_OK);
    fig_axes a = {.grid = true};
    a.x = (fig_axis){.lo = 1, .hi = 1000, .log = true, .label = "distance"};
    a.y = (fig_axis){.lo = -1, .hi = 1, .label = "score"};
    fig_axes_fit(f, &a, (fig_rect){5, 5, 290, 210});
    fig_axes_draw(f, &a);
    /* a curve falling from 1 to -1 across the plot */
    double x[200], y[200];
    for (int i = 0; i < 200; i++) {
        x[i] = pow(10, 3.0 * i / 199);
        y[i] = cos(M_PI * i / 199);
    }
    fig_line(f, &a, x, y, 200, fig_series_color(0), 1.2, FIG_SOLID);
    /* a vertical guide at x = 128 (a trained length), as the schemes figure draws it */
    fig_segment(f, &a, 128, -1, 128, 1, fig_series_color(1), 0.8, FIG_DASHED);
    switch (label_at) {
    case 0: /* on the curve, where it crosses 0: covers data */
        fig_text_in(f, &a, "L = 128", false, fig_px(&a, sqrt(1000.0)), fig_py(&a, 0), 0.5, 0.5);
        break;
    case 1: /* across the guide line */
        fig_text_in(f, &a, "L = 128", false, fig_px(&a, 128), fig_py(&a, 0.9), 0.5, 0.5);
        break;
    case 2: /* left of the guide at the bottom, where the curve has fallen past: clear */
        fig_text_in(f, &a, "L = 128", false, fig_px(&a, 128) - 2, fig_py(&a, -1) - 2, 1.0, 1.0);
        break;
    default: /* outside the plot, where the curve would go were it not clipped */
        fig_text(f, FIG_TICK, "L = 128", false, fig_px(&a, 2), a.r.y - 1, 0.5, 1.0, false);
        break;
    }
    if (legend) {
        fig_legend_item li[1] = {{.label = "RoPE", .color = fig_series_color(0)}};
        fig_legend(f, &a, li, 1, 2); /* bottom-left, where the curve is high: clear */
    }
    assert_false(fig_cramped(f));
    assert_int_equal(fig_end(f), TF_OK);
    return fig_layout_check(b, b->page_w, b->page_h);
}

static void test_curve_through_label_drawn(void **state)
{
    (void)state;
    for (int at = 0; at < 4; at++) {
        fig_boxes b = {0};
        const char *why = page(&b, at, at == 2);
        int segments = 0, ticks = 0;
        for (size_t i = 0; i < b.n; i++) {
            segments += b.v[i].kind == FIG_BOX_SEGMENT;
            ticks += b.v[i].kind == FIG_BOX_TEXT && b.v[i].tick_label;
        }
        assert_true(segments >= 200); /* the curve's 199 pieces and the guide */
        assert_true(ticks >= 4);      /* tick labels are known as such */
        if (at < 2) {
            assert_non_null(why);
            assert_non_null(strstr(why, "a curve crosses a label"));
        } else if (why) {
            fail_msg("label placement %d: %s", at, why);
        }
        fig_boxes_free(&b);
    }
}

/* A curve that leaves its plot is recorded as drawn: clipped at the plot's edge (a hair beyond
 * it), so a title just above the plot is not crossed by the part that is not drawn. */
static void test_segments_clipped(void **state)
{
    (void)state;
    fig_boxes b = {0};
    fig_spec s = {.format = FIG_SVG, .width = 200, .height = 200, .font_size = 10,
                  .latin_first = true, .measure = true, .boxes = &b};
    fig *f;
    assert_int_equal(fig_begin(&s, &(fig_meta){0}, &f), TF_OK);
    fig_axes a = {0};
    a.x = (fig_axis){.lo = 0, .hi = 1};
    a.y = (fig_axis){.lo = 0, .hi = 1};
    fig_axes_fit(f, &a, (fig_rect){10, 10, 180, 180});
    double x[2] = {0.5, 0.5}, y[2] = {0.5, 5.0}; /* far above the top */
    fig_line(f, &a, x, y, 2, fig_series_color(0), 1, FIG_SOLID);
    assert_int_equal(fig_end(f), TF_OK);
    int n = 0;
    for (size_t i = 0; i < b.n; i++) {
        const fig_box *o = &b.v[i];
        if (o->kind != FIG_BOX_SEGMENT)
            continue;
        n++;
        double top = fmin(o->r.y, o->r.y + o->r.h);
        assert_true(top >= a.r.y - 2.0); /* the clip's hair: twice the line width */
        assert_true(top < a.r.y);
    }
    assert_int_equal(n, 1);
    fig_boxes_free(&b);
}

/* A dash-dot line shows its dots (a dash, a dot, a dash ...): in the pixels of a raster page, the
 * line's row has short runs of ink between the long ones, as many as the long ones less one at
 * most. Cairo drops a dash of length zero inside a pattern, so a dot must have some length. */
static void test_dashdot_has_dots(void **state)
{
    (void)state;
    fig_raster r = {.width = 720, .height = 450}; /* 2.5 pixels a point */
    fig_spec s = {.format = FIG_PNG, .width = 288, .height = 180, .font_size = 8, .raster = &r};
    fig *f;
    assert_int_equal(fig_begin(&s, &(fig_meta){0}, &f), TF_OK);
    fig_axes a = {0};
    a.x = (fig_axis){.lo = 0, .hi = 1};
    a.y = (fig_axis){.lo = 0, .hi = 1};
    fig_axes_fit(f, &a, (fig_rect){10, 10, 268, 160});
    double x[2] = {0, 1}, y[2] = {0.5, 0.5};
    fig_line(f, &a, x, y, 2, (tf_rgb){0, 0, 0}, 2, FIG_DASHDOT);
    assert_int_equal(fig_end(f), TF_OK);
    int row = (int)lround(fig_py(&a, 0.5) * 2.5), runs[200], n = 0, run = 0, longest = 0;
    const unsigned char *p = r.data + (size_t)row * (size_t)r.stride;
    for (int i = 0; i <= r.width; i++) {
        bool ink = i < r.width && p[4 * i + 1] < 128; /* green of ARGB32 */
        if (ink) {
            run++;
        } else if (run > 0) {
            assert_true(n < 200);
            runs[n++] = run;
            longest = run > longest ? run : longest;
            run = 0;
        }
    }
    int short_runs = 0, long_runs = 0;
    for (int i = 0; i < n; i++)
        *(runs[i] * 3 < longest ? &short_runs : &long_runs) += 1;
    assert_true(long_runs >= 5);
    assert_true(short_runs >= long_runs - 1);
    fig_raster_free(&r);
}

/* An axis too short for two of its steps' labels labels its ends, round numbers inside the
 * range (-60 and 60 on -63 .. 63, -1 and 1 on -1.1 .. 1.1), never one value alone: a reader
 * sees the scale. */
static void test_short_axis_labels_ends(void **state)
{
    (void)state;
    static const struct {
        double lo, hi, plot_w;
        const char *first, *last;
    } cases[] = {{-63, 63, 60, "\u221260", "60"}, {-1.1, 1.1, 40, "\u22121", "1"},
                 {-0.14, 0.14, 40, "\u22120.1", "0.1"}, {-63, 63, 300, "\u221260", "60"},
                 {-0.5, 0.5, 40, "0", "0"}}; /* a one-row matrix: 0 once */
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        fig_boxes b = {0};
        fig_spec s = {.format = FIG_SVG, .width = 400, .height = 200, .font_size = 14,
                      .latin_first = true, .measure = true, .boxes = &b};
        fig *f;
        assert_int_equal(fig_begin(&s, &(fig_meta){0}, &f), TF_OK);
        fig_axes a = {0};
        a.x = (fig_axis){.lo = cases[k].lo, .hi = cases[k].hi, .integer = cases[k].lo == -0.5};
        a.y = (fig_axis){.lo = 0, .hi = 1};
        fig_axes_fit(f, &a, (fig_rect){10, 10, cases[k].plot_w + 60, 180});
        fig_axes_draw(f, &a);
        assert_int_equal(fig_end(f), TF_OK);
        const char *first = NULL, *last = NULL;
        double first_x = INFINITY, last_x = -INFINITY;
        int labels = 0;
        for (size_t i = 0; i < b.n; i++) {
            const fig_box *o = &b.v[i];
            if (o->kind != FIG_BOX_TEXT || !o->tick_label || o->r.y < a.r.y + a.r.h)
                continue; /* the x axis's labels, below the plot */
            labels++;
            if (o->r.x < first_x)
                first_x = o->r.x, first = o->text;
            if (o->r.x > last_x)
                last_x = o->r.x, last = o->text;
        }
        int want = strcmp(cases[k].first, cases[k].last) ? 2 : 1;
        if (labels < want || (want == 1 && labels != 1) || strcmp(first, cases[k].first) != 0 ||
            strcmp(last, cases[k].last) != 0)
            fail_msg("%g .. %g on %.0f pt: %d labels, %s .. %s", cases[k].lo, cases[k].hi,
                     a.r.w, labels, first ? first : "-", last ? last : "-");
        fig_boxes_free(&b);
    }
}

/* A page that tries layouts asks for the growth of the one that asked for least (with it one
 * fits), not for what every layout it tried lacked; a layout that fits, or one that only
 * measured, leaves the page as it was. */
static void test_trial_asks_least(void **state)
{
    (void)state;
    fig *f;
    fig_spec s = {.format = FIG_SVG, .width = 200, .height = 100, .font_size = 10, .measure = true};
    assert_int_equal(fig_begin(&s, &(fig_meta){0}, &f), TF_OK);
    fig_need_more(f, 1, 1.2); /* asked before the trial: kept */
    const struct {
        double a_h, a_w, b_h, b_w, want_h, want_w;
    } cases[] = {{1, 3.0, 1.5, 1, 1.5, 1.2},  /* B, the last, lacks less than A */
                 {1, 1.3, 2.0, 1, 1.0, 1.3}}; /* A lacks less: its need, B drawn cramped */
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        fig *g;
        assert_int_equal(fig_begin(&s, &(fig_meta){0}, &g), TF_OK);
        fig_need_more(g, 1, 1.2);
        fig_trial t = fig_try(g);
        assert_false(fig_cramped(g));
        fig_need_more(g, cases[i].a_h, cases[i].a_w);
        assert_false(fig_tried(g, &t, false));
        assert_false(fig_cramped(g)); /* cleared for the next layout */
        fig_need_more(g, cases[i].b_h, cases[i].b_w);
        assert_true(fig_tried(g, &t, true)); /* the last is taken, cramped */
        assert_true(fig_cramped(g));
        fig_need n = fig_cramped_need(g);
        assert_float_equal(n.h, cases[i].want_h, 1e-12);
        assert_float_equal(n.w, cases[i].want_w, 1e-12);
        fig_free(g);
    }
    fig_trial t = fig_try(f); /* a first layout that does not fit, then one that does */
    fig_need_more(f, 4, 4);
    assert_false(fig_tried(f, &t, false));
    assert_true(fig_tried(f, &t, false));
    fig_need n = fig_cramped_need(f);
    assert_float_equal(n.h, 1.0, 1e-12);
    assert_float_equal(n.w, 1.2, 1e-12);
    t = fig_try(f); /* only measured */
    fig_need_more(f, 5, 5);
    fig_measured(f, &t);
    n = fig_cramped_need(f);
    assert_float_equal(n.w, 1.2, 1e-12);
    assert_float_equal(n.h, 1.0, 1e-12);
    fig_free(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_curve_through_label_by_hand),
        cmocka_unit_test(test_curve_through_label_drawn),
        cmocka_unit_test(test_segments_clipped),
        cmocka_unit_test(test_trial_asks_least),
        cmocka_unit_test(test_short_axis_labels_ends),
        cmocka_unit_test(test_dashdot_has_dots),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    fig_release_fonts();
    return failed;
}
