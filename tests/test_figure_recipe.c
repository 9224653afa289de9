/* test_figure_recipe.c — docs/architecture.md's recipe for a new figure, compiled as it stands
 * in the document (scripts/recipe_figure.py writes its two blocks into recipe_figure.h) and
 * drawn: its row is a row of the table's type, a still figure of a name the table does not
 * have yet, and its draw function lays out a page of SVG with its plot and curve. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "figures/draw.h"
#include "figures/figures.h"

/* the string the recipe adds to the table, borrowed from a figure that has one */
#define T_F_TITLE_OMEGA T_F_TITLE_FREQ
#include "recipe_figure.h"

static void test_recipe_row(void **state)
{
    (void)state;
    assert_int_equal(sizeof recipe_rows / sizeof recipe_rows[0], 1);
    const fig_entry *e = &recipe_rows[0];
    assert_non_null(e->draw);
    assert_null(e->anim);
    assert_null(figure_find(e->name)); /* a new name */
    assert_true(e->aspect > 0.2 && e->aspect < 2);
}

/* The recipe's figure on a one-column page, recorded: one plot, a curve through it (the
 * frequencies falling from 1 to base^(-(d-2)/d)), nothing cramped, and no layout fault. */
static void test_recipe_draws(void **state)
{
    (void)state;
    tf_config cfg;
    config_defaults(&cfg);
    cfg.d_model = 128;
    tf_analysis a;
    assert_int_equal(analysis_run(&cfg, "我爱学习", strlen("我爱学习"), &a, NULL), TF_OK);
    assert_true(fabs(a.omega[0] - 1.0) < 1e-15);
    assert_true(fabs(a.omega[63] - pow(10000.0, -126.0 / 128.0)) < 1e-15);
    fig_request req = {.name = recipe_rows[0].name, .zh = false};
    fig_boxes boxes = {0};
    double w, h;
    figure_page_size(&req, &recipe_rows[0], &w, &h);
    fig_spec spec = {.format = FIG_SVG, .width = w, .height = h, .font_size = 8,
                     .latin_first = true, .measure = true, .boxes = &boxes};
    bool cramped;
    char why[200] = "";
    assert_int_equal(figure_page(&req, &a, &recipe_rows[0], &spec, &(fig_meta){0},
                                 &(fig_frame){0}, &cramped, why, sizeof why),
                     TF_OK);
    assert_false(cramped);
    int plots = 0, segments = 0;
    for (size_t i = 0; i < boxes.n; i++) {
        plots += boxes.v[i].kind == FIG_BOX_PLOT;
        segments += boxes.v[i].kind == FIG_BOX_SEGMENT;
    }
    assert_int_equal(plots, 1);
    assert_true(segments >= 63);
    const char *fault = fig_layout_check(&boxes, boxes.page_w, boxes.page_h);
    if (fault)
        fail_msg("the recipe's figure: %s", fault);
    fig_boxes_free(&boxes);
    analysis_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_recipe_row),
        cmocka_unit_test(test_recipe_draws),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    fig_release_fonts();
    return failed;
}
