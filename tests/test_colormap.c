/* test_colormap.c — end points and centre of each map, clamping, names, the quantisation. */
#include "check.h"
#include "colormap.h"

static void test_maps(void **state)
{
    (void)state;
    /* viridis runs from dark purple (68, 1, 84) to yellow (253, 231, 37) */
    tf_rgb a = colormap_at(CMAP_VIRIDIS, 0.0), b = colormap_at(CMAP_VIRIDIS, 1.0);
    assert_int_equal(a.r, 68);
    assert_int_equal(a.g, 1);
    assert_int_equal(a.b, 84);
    assert_int_equal(b.r, 253);
    assert_int_equal(b.g, 231);
    assert_int_equal(b.b, 37);
    /* diverging: the centre is near white, the ends blue (low) and red (high) */
    tf_rgb mid = colormap_value(CMAP_RDBU, 0.0, -1.0, 1.0);
    assert_true(mid.r > 240 && mid.g > 240 && mid.b > 240);
    tf_rgb lo = colormap_value(CMAP_RDBU, -1.0, -1.0, 1.0), hi = colormap_value(CMAP_RDBU, 1, -1, 1);
    assert_true(lo.b > lo.r && hi.r > hi.b);
    /* clamping and NaN */
    tf_rgb c = colormap_value(CMAP_VIRIDIS, 7.0, 0.0, 1.0);
    assert_int_equal(c.r, b.r);
    assert_int_equal(colormap_index(NAN), 128);
    assert_int_equal(colormap_index(-3), 0);
    tf_rgb g = colormap_at(CMAP_GRAY, 1.0);
    assert_int_equal(g.r, 255);
    assert_int_equal(colormap_parse("rdbu"), CMAP_RDBU);
    assert_int_equal(colormap_parse("jet"), CMAP_COUNT);
    assert_true(colormap_diverging(CMAP_PUOR) && !colormap_diverging(CMAP_CIVIDIS));
}

/* colormap_index is t * 255 rounded half away from zero (lround), clamped to [0, 255]: checked
 * at every half step, just either side of it, and at a million spread values. */
static void test_index_is_lround(void **state)
{
    (void)state;
    for (int k = 0; k <= 510; k++) {
        double t = k / 510.0;
        for (int s = -1; s <= 1; s++) {
            double u = s < 0 ? nextafter(t, -1.0) : s > 0 ? nextafter(t, 2.0) : t;
            long want = lround(fmin(fmax(u, 0.0), 1.0) * 255.0);
            assert_int_equal(colormap_index(u), want);
        }
    }
    uint64_t x = 0x9E3779B97F4A7C15u;
    for (int i = 0; i < 1000000; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        double t = -0.25 + 1.5 * (double)(x >> 11) / 9007199254740992.0;
        assert_int_equal(colormap_index(t), lround(fmin(fmax(t, 0.0), 1.0) * 255.0));
    }
    assert_int_equal(colormap_index(INFINITY), 255);
    assert_int_equal(colormap_index(-INFINITY), 0);
    /* the palette is the table */
    tf_rgb pal[256];
    colormap_palette(CMAP_CIVIDIS, pal);
    for (int i = 0; i < 256; i++) {
        tf_rgb c = colormap_at(CMAP_CIVIDIS, i / 255.0);
        assert_true(pal[i].r == c.r && pal[i].g == c.g && pal[i].b == c.b);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_maps),
                                       cmocka_unit_test(test_index_is_lround)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
