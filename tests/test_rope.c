/* test_rope.c — RoPE thetas, both pairings against hand-written rotations, norm preservation,
 * scores that depend on m - n only, and the RoFormer decay values of docs/claims.md. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "rope.h"

static void test_thetas(void **state)
{
    (void)state;
    double th[64];
    rope_thetas(128, 10000, th);
    for (int i = 0; i < 64; i++)
        assert_close(th[i], pow(10000.0, -2.0 * i / 128), 1e-15);
    rope_thetas(128, 500000, th); /* Llama 3 */
    assert_close(th[1], pow(500000.0, -2.0 / 128), 1e-15);
}

static void test_pairings_by_hand(void **state)
{
    (void)state;
    /* d = 4, pos = 3, x = [1, 2, 3, 4]; theta = [1, 0.01] */
    const double x[4] = {1, 2, 3, 4};
    double out[4];
    double c0 = cos(3.0), s0 = sin(3.0), c1 = cos(0.03), s1 = sin(0.03);
    /* interleaved: pairs (0,1), (2,3) */
    const double inter[4] = {1 * c0 - 2 * s0, 1 * s0 + 2 * c0, 3 * c1 - 4 * s1, 3 * s1 + 4 * c1};
    rope_rotate(x, 4, 10000, 3, ROPE_INTERLEAVED, out);
    check_max_diff("interleaved", out, inter, 4, 1e-14);
    /* half (rotate_half): pairs (0,2), (1,3); x*cos + rotate_half(x)*sin with
     * rotate_half([a, b, c, d]) = [-c, -d, a, b] and cos/sin repeated per half */
    const double half[4] = {1 * c0 - 3 * s0, 2 * c1 - 4 * s1, 3 * c0 + 1 * s0, 4 * c1 + 2 * s1};
    rope_rotate(x, 4, 10000, 3, ROPE_HALF, out);
    check_max_diff("half", out, half, 4, 1e-14);
    /* the two differ: mixing them up changes the result */
    assert_true(fabs(inter[1] - half[1]) > 0.1);
}

static void test_norm_preserved_and_f32(void **state)
{
    (void)state;
    enum { D = 64, N = 50 };
    float *xf = malloc(N * D * sizeof *xf);
    double x[D], r[D];
    for (int s = 0; s < 2; s++) {
        for (int t = 0; t < N * D; t++)
            xf[t] = (float)sin(0.37 * t + s);
        float *copy = malloc(N * D * sizeof *copy);
        memcpy(copy, xf, N * D * sizeof *copy);
        rope_apply_f32(xf, N, D, 10000, 5, (rope_style)s);
        for (int row = 0; row < N; row++) {
            for (int j = 0; j < D; j++)
                x[j] = copy[row * D + j];
            rope_rotate(x, D, 10000, 5 + row, (rope_style)s, r);
            double n0 = 0, n1 = 0, worst = 0;
            for (int j = 0; j < D; j++) {
                n0 += x[j] * x[j];
                n1 += r[j] * r[j];
                worst = fmax(worst, fabs(r[j] - xf[row * D + j]));
            }
            assert_close(n0, n1, 1e-10);
            assert_true(worst < 1e-6);
        }
        free(copy);
    }
    free(xf);
}

/* Every instruction-set variant this CPU runs, both pairings: within 1e-6 of rope_rotate in
 * float64 and bit-identical to the baseline variant, across anchor boundaries, with rows left
 * over after the 8-row passes, tiny and odd pair counts, and large positions. */
static void test_fast_path_variants(void **state)
{
    (void)state;
    const int dims[] = {2, 6, 34, 512};
    const long counts[] = {1, 9, 300};
    const long starts[] = {0, 777777};
    for (int s = 0; s < ROPE_STYLE_COUNT; s++)
        for (size_t di = 0; di < 4; di++)
            for (size_t ni = 0; ni < 3; ni++)
                for (size_t si = 0; si < 2; si++) {
                    int d = dims[di];
                    long n = counts[ni];
                    size_t m = (size_t)n * d;
                    float *x0 = malloc(m * sizeof *x0), *base = malloc(m * sizeof *base);
                    float *f = malloc(m * sizeof *f);
                    double *in = malloc((size_t)d * sizeof *in);
                    double *want = malloc((size_t)d * sizeof *want);
                    for (size_t t = 0; t < m; t++)
                        x0[t] = (float)sin(0.61 * (double)t + 0.3 * s + d);
                    memcpy(base, x0, m * sizeof *base);
                    rope_apply_f32_isa(TF_ISA_DEFAULT, base, n, d, 10000, starts[si],
                                       (rope_style)s);
                    double worst = 0;
                    for (long r = 0; r < n; r++) {
                        for (int j = 0; j < d; j++)
                            in[j] = x0[(size_t)r * d + j];
                        rope_rotate(in, d, 10000, (double)(starts[si] + r), (rope_style)s, want);
                        for (int j = 0; j < d; j++)
                            worst = fmax(worst, fabs(want[j] - base[(size_t)r * d + j]));
                    }
                    if (worst > 1e-6)
                        fprintf(stderr, "# %s d=%d n=%ld start=%ld worst=%.3e\n",
                                rope_style_name((rope_style)s), d, n, starts[si], worst);
                    assert_true(worst <= 1e-6);
                    for (int isa = 0; isa < TF_ISA_COUNT; isa++) {
                        if (!tf_isa_supported((tf_isa)isa))
                            continue;
                        memcpy(f, x0, m * sizeof *f);
                        rope_apply_f32_isa((tf_isa)isa, f, n, d, 10000, starts[si], (rope_style)s);
                        assert_memory_equal(f, base, m * sizeof *f);
                    }
                    memcpy(f, x0, m * sizeof *f);
                    rope_apply_f32(f, n, d, 10000, starts[si], (rope_style)s);
                    assert_memory_equal(f, base, m * sizeof *f);
                    free(x0);
                    free(base);
                    free(f);
                    free(in);
                    free(want);
                }
}

static void test_score_depends_on_offset_only(void **state)
{
    (void)state;
    enum { D = 32 };
    double q[D], k[D];
    for (int j = 0; j < D; j++) {
        q[j] = sin(1.3 * j + 0.2);
        k[j] = cos(0.7 * j - 0.4);
    }
    for (int s = 0; s < 2; s++) {
        double dev = rope_offset_max_dev(q, k, D, 10000, (rope_style)s, 40);
        assert_true(dev < 1e-12);
        /* directly: (R_5 q).(R_2 k) == (R_13 q).(R_10 k) */
        double a[D], b[D], c[D], e[D], s1 = 0, s2 = 0;
        rope_rotate(q, D, 10000, 5, (rope_style)s, a);
        rope_rotate(k, D, 10000, 2, (rope_style)s, b);
        rope_rotate(q, D, 10000, 13, (rope_style)s, c);
        rope_rotate(k, D, 10000, 10, (rope_style)s, e);
        for (int j = 0; j < D; j++)
            s1 += a[j] * b[j], s2 += c[j] * e[j];
        assert_close(s1, s2, 1e-12);
        /* and it does change with the offset */
        rope_rotate(k, D, 10000, 3, (rope_style)s, b);
        double s3 = 0;
        for (int j = 0; j < D; j++)
            s3 += a[j] * b[j];
        assert_true(fabs(s3 - s1) > 1e-3);
    }
}

static void test_decay_reference(void **state)
{
    (void)state;
    /* docs/claims.md: d = 128: 32.50 at r = 0, 17.95 at r = 10, 10.23 at r = 100 */
    assert_close(rope_decay_bound(128, 10000, 0), 32.5, 1e-12);
    assert_close(rope_decay_bound(128, 10000, 10), 17.95, 0.005);
    assert_close(rope_decay_bound(128, 10000, 100), 10.23, 0.005);
}

/* A score at every distance of a run (the turning pairs of posenc_trig_sums, anchored every 256
 * steps) against the rotation written out with long double cos and sin, across anchors, at
 * negative distances, for both pairings and frequencies that are not base^(-2i/d). */
static void test_score_run(void **state)
{
    (void)state;
    enum { D = 64, N = 2000 };
    double q[D], k[D], theta[D / 2], out[N];
    for (int j = 0; j < D; j++) {
        q[j] = sin(1.3 * j + 0.2);
        k[j] = cos(0.7 * j - 0.4);
    }
    for (int i = 0; i < D / 2; i++) /* a YaRN-like ramp: the slow pairs divided by 4 */
        theta[i] = pow(10000.0, -2.0 * i / D) / (i > D / 4 ? 4.0 : 1.0);
    double bound = 0;
    for (int j = 0; j < D; j++)
        bound += fabs(q[j]) * fabs(k[j]) * 2;
    for (int s = 0; s < ROPE_STYLE_COUNT; s++) {
        assert_int_equal(rope_score_run(q, k, D, theta, (rope_style)s, -700.0, N, out), TF_OK);
        double worst = 0;
        for (long t = 0; t < N; t++) {
            long double r = -700.0L + t, want = 0;
            for (int i = 0; i < D / 2; i++) {
                int a, b;
                rope_pair((rope_style)s, D, i, &a, &b);
                long double c = cosl(r * theta[i]), sn = sinl(r * theta[i]);
                want += (q[a] * c - q[b] * sn) * k[a] + (q[a] * sn + q[b] * c) * k[b];
            }
            worst = fmax(worst, fabs(out[t] - (double)want));
        }
        if (worst > 1e-11 * bound)
            fail_msg("style %d: largest difference %.3g (bound %.3g)", s, worst, bound);
    }
}

static void test_names(void **state)
{
    (void)state;
    assert_int_equal(rope_style_parse("half"), ROPE_HALF);
    assert_int_equal(rope_style_parse("interleaved"), ROPE_INTERLEAVED);
    assert_int_equal(rope_style_parse("neox"), ROPE_STYLE_COUNT);
    int a, b;
    rope_pair(ROPE_HALF, 8, 1, &a, &b);
    assert_int_equal(a, 1);
    assert_int_equal(b, 5);
    rope_pair(ROPE_INTERLEAVED, 8, 1, &a, &b);
    assert_int_equal(a, 2);
    assert_int_equal(b, 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_thetas),
        cmocka_unit_test(test_pairings_by_hand),
        cmocka_unit_test(test_norm_preserved_and_f32),
        cmocka_unit_test(test_fast_path_variants),
        cmocka_unit_test(test_score_depends_on_offset_only),
        cmocka_unit_test(test_decay_reference),
        cmocka_unit_test(test_score_run),
        cmocka_unit_test(test_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
