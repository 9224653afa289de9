/* test_posenc.c — the PE formula against the reference values of docs/claims.md and its
 * properties: |PE(p)|^2 = d/2, dot product depends on the offset only, M_k is exact, the fast
 * float32 path agrees with the float64 reference, positions are unique. */
#include <stdlib.h>

#include "check.h"
#include "posenc.h"

static void test_reference_values_d4(void **state)
{
    (void)state;
    /* docs/claims.md: d = 4 */
    const double pe1[4] = {0.841471, 0.540302, 0.010000, 0.999950};
    const double pe2[4] = {0.909297, -0.416147, 0.019999, 0.999800};
    double row[4];
    posenc_row(1, 4, 10000, row);
    check_max_diff("PE(1), d=4", row, pe1, 4, 5e-7);
    posenc_row(2, 4, 10000, row);
    check_max_diff("PE(2), d=4", row, pe2, 4, 5e-7);
    /* PE(0) = [0, 1, 0, 1, ...] */
    posenc_row(0, 4, 10000, row);
    const double pe0[4] = {0, 1, 0, 1};
    check_max_diff("PE(0)", row, pe0, 4, 0);
    /* the article's worked cell: pos 3, j = 10 of d = 512: sin(3 / 10000^(10/512)) */
    assert_close(posenc_value(3, 10, 512, 10000), sin(3.0 / pow(10000.0, 10.0 / 512)),
                       1e-15);
    assert_close(posenc_value(3, 11, 512, 10000), cos(3.0 / pow(10000.0, 10.0 / 512)),
                       1e-15);
}

static void test_frequencies_geometric(void **state)
{
    (void)state;
    double w[256];
    posenc_freqs(512, 10000, w);
    assert_close(w[0], 1.0, 0);
    double ratio = pow(10000.0, -2.0 / 512);
    for (int i = 1; i < 256; i++)
        assert_close(w[i] / w[i - 1], ratio, 1e-12);
    /* wavelengths from 2*pi up towards 10000 * 2*pi */
    assert_close(2 * M_PI / w[255], 2 * M_PI * pow(10000.0, 510.0 / 512), 1e-6);
    assert_true(2 * M_PI / w[255] < 10000 * 2 * M_PI);
}

/* PE(p).PE(p + k) at every offset of a run (turning pairs, anchored every 256 steps) against
 * sum_i cos(k w_i) in long double, from k = -300 across 20 anchors. */
static void test_dot_offsets_run(void **state)
{
    (void)state;
    enum { D = 128, N = 5000 };
    static double out[N];
    assert_int_equal(posenc_dot_offsets(-300, N, D, 10000, out), TF_OK);
    double worst = 0;
    for (long t = 0; t < N; t++) {
        long double want = 0;
        for (int i = 0; i < D / 2; i++)
            want += cosl((-300.0L + t) * powl(10000.0L, -2.0L * i / D));
        worst = fmax(worst, fabs(out[t] - (double)want));
    }
    if (worst > 1e-10)
        fail_msg("largest difference %.3g", worst);
    assert_close(out[300], D / 2.0, 1e-12); /* k = 0: |PE(p)|^2 */
}

static void test_norm_and_dot(void **state)
{
    (void)state;
    enum { D = 512 };
    double a[D], b[D];
    for (int p = 0; p < 300; p += 37) {
        posenc_row(p, D, 10000, a);
        double s = 0;
        for (int j = 0; j < D; j++)
            s += a[j] * a[j];
        assert_close(s, 256.0, 1e-9); /* |PE(p)|^2 = d/2 */
    }
    /* PE(p).PE(q) = sum_i cos((p-q) w_i), the same for every pair with the same offset */
    for (int k = 0; k < 20; k += 3) {
        double want = posenc_dot_offset(k, D, 10000), ref = 0;
        for (int i = 0; i < D / 2; i++)
            ref += cos(k * pow(10000.0, -2.0 * i / D));
        assert_close(want, ref, 1e-9);
        for (int p = 0; p < 500; p += 123) {
            posenc_row(p, D, 10000, a);
            posenc_row(p + k, D, 10000, b);
            double dot = 0;
            for (int j = 0; j < D; j++)
                dot += a[j] * b[j];
            assert_close(dot, want, 1e-9);
        }
    }
}

static void test_gram_constant_on_diagonals(void **state)
{
    (void)state;
    enum { N = 40, D = 64 };
    double *g = malloc(N * N * sizeof *g);
    assert_int_equal(posenc_gram(0, N, D, 10000, g), TF_OK);
    for (int p = 0; p < N; p++)
        for (int q = 0; q < N; q++)
            assert_close(g[p * N + q], posenc_dot_offset(p - q, D, 10000), 1e-10);
    assert_close(g[0], D / 2.0, 1e-12);
    free(g);
}

static void test_relative_map(void **state)
{
    (void)state;
    enum { D = 128 };
    double a[D], b[D], m[D];
    /* the closed form of docs/claims.md, at a far position */
    long pos = 777, k = 13;
    posenc_row(pos, D, 10000, a);
    posenc_row(pos + k, D, 10000, b);
    posenc_shift(a, D, 10000, k, m);
    check_max_diff("M_k PE(pos)", m, b, D, 1e-11);
    for (long kk = 1; kk < 50; kk += 7)
        assert_true(posenc_relative_residual(0, 200, D, 10000, kk) < 1e-9);
    assert_true(posenc_relative_residual(1, 200, 512, 10000, 5) < 1e-9);
    /* a wrong map (shifting by k+1) must show a large residual: the check can fail */
    posenc_shift(a, D, 10000, k + 1, m);
    double worst = 0;
    for (int j = 0; j < D; j++)
        worst = fmax(worst, fabs(m[j] - b[j]));
    assert_true(worst > 0.1);
}

/* M_k's blocks: the rotation by k w_i of docs/claims.md, written out from cos and sin here, and
 * each block alone carries the pair (2i, 2i+1) of PE(pos) to PE(pos+k) */
static void test_rotation_blocks(void **state)
{
    (void)state;
    enum { D = 512 };
    double m[2][2];
    posenc_rotation(0, D, 10000, 1, m); /* w_0 = 1: the angle is 1 radian */
    assert_close(m[0][0], cos(1.0), 1e-15);
    assert_close(m[0][1], sin(1.0), 1e-15);
    assert_close(m[1][0], -sin(1.0), 1e-15);
    assert_close(m[1][1], cos(1.0), 1e-15);
    for (int i = 0; i < D / 2; i += 51) {
        double a = 5.0 * pow(10000.0, -2.0 * i / D);
        posenc_rotation(i, D, 10000, 5, m);
        assert_close(m[0][1], sin(a), 1e-14);
        assert_close(m[1][1], cos(a), 1e-14);
        double p3[2] = {sin(3 * a / 5), cos(3 * a / 5)}, p8[2] = {sin(8 * a / 5), cos(8 * a / 5)};
        assert_close(m[0][0] * p3[0] + m[0][1] * p3[1], p8[0], 1e-13);
        assert_close(m[1][0] * p3[0] + m[1][1] * p3[1], p8[1], 1e-13);
    }
}

/* The split layout: the sin half (even j) then the cos half (odd j), and its inverse */
static void test_split_layout(void **state)
{
    (void)state;
    const int d = 512;
    for (int c = 0; c < d; c++) {
        int j = posenc_split_dim(c, d);
        assert_int_equal(j % 2, c < d / 2 ? 0 : 1);
        assert_int_equal(j / 2, c % (d / 2));
        assert_int_equal(posenc_split_col(j, d), c);
    }
}

static void test_fast_path_matches_reference(void **state)
{
    (void)state;
    /* up to 100,000 positions and d = 8192: sampled tiles across the whole range (50 rows a
     * tile under valgrind, whose libm is slow) */
    const int dims[] = {4, 512, 8192};
    const long starts[] = {0, 255, 4096, 99000};
    for (size_t di = 0; di < 3; di++) {
        int d = dims[di];
        long n = check_light() ? 50 : 1000;
        float *f = malloc((size_t)n * d * sizeof *f);
        double *ref = malloc((size_t)d * sizeof *ref);
        double *omega = malloc((size_t)d / 2 * sizeof *omega);
        posenc_freqs(d, 10000, omega);
        for (size_t si = 0; si < 4; si++) {
            posenc_fill_f32(starts[si], n, d, 10000, f);
            double worst = 0;
            for (long r = 0; r < n; r++) {
                posenc_row_omega((double)(starts[si] + r), d, omega, ref);
                for (int j = 0; j < d; j++)
                    worst = fmax(worst, fabs((double)f[(size_t)r * d + j] - ref[j]));
            }
            if (worst > 1e-6)
                fprintf(stderr, "# d=%d start=%ld worst=%.3e\n", d, starts[si], worst);
            assert_true(worst <= 1e-6);
        }
        free(f);
        free(ref);
        free(omega);
    }
}

/* Every instruction-set variant this CPU runs (tests/meson.build runs on whatever CPU it is given;
 * variants it cannot run are reported and left out): within 1e-6 of the float64 reference and
 * bit-identical to the baseline variant. Shapes cover d with odd and tiny pair counts (vector
 * remainders), n across anchor boundaries and with rows left over after the 8-row passes, and
 * positions up to the largest -n allows. */
static void test_fast_path_variants(void **state)
{
    (void)state;
    const int dims[] = {2, 6, 34, 4096};
    const long counts[] = {1, 9, 300, 530};
    const long starts[] = {0, 12345, 999000};
    for (int isa = 0; isa < TF_ISA_COUNT; isa++)
        fprintf(stderr, "# variant %s: %s\n", tf_isa_name((tf_isa)isa),
                tf_isa_supported((tf_isa)isa) ? "tested" : "not supported by this CPU");
    for (size_t di = 0; di < 4; di++)
        for (size_t ni = 0; ni < 4; ni++) {
            int d = dims[di];
            long n = counts[ni];
            if (d == 4096 && (n == 300 || (check_light() && n > 9)))
                continue; /* the large width with 530 rows covers it (9 under valgrind) */
            float *base = malloc((size_t)n * d * sizeof *base);
            float *f = malloc((size_t)n * d * sizeof *f);
            double *ref = malloc((size_t)d * sizeof *ref);
            for (size_t si = 0; si < 3; si++) {
                posenc_fill_f32_isa(TF_ISA_DEFAULT, starts[si], n, d, 10000, base);
                double worst = 0;
                for (long r = 0; r < n; r++) {
                    posenc_row((double)(starts[si] + r), d, 10000, ref);
                    for (int j = 0; j < d; j++)
                        worst = fmax(worst, fabs((double)base[(size_t)r * d + j] - ref[j]));
                }
                if (worst > 1e-6)
                    fprintf(stderr, "# d=%d n=%ld start=%ld worst=%.3e\n", d, n, starts[si],
                            worst);
                assert_true(worst <= 1e-6);
                for (int isa = 1; isa < TF_ISA_COUNT; isa++) {
                    if (!tf_isa_supported((tf_isa)isa))
                        continue;
                    posenc_fill_f32_isa((tf_isa)isa, starts[si], n, d, 10000, f);
                    assert_memory_equal(f, base, (size_t)n * d * sizeof *f);
                }
                posenc_fill_f32(starts[si], n, d, 10000, f); /* the dispatching entry point */
                assert_memory_equal(f, base, (size_t)n * d * sizeof *f);
            }
            free(base);
            free(f);
            free(ref);
        }
}

static void test_uniqueness(void **state)
{
    (void)state;
    long p, q;
    double dmin = posenc_min_distance(0, 100, 512, 10000, &p, &q);
    /* brute force over all pairs */
    double brute = INFINITY, a[512], b[512];
    for (int i = 0; i < 100; i++) {
        posenc_row(i, 512, 10000, a);
        for (int j = i + 1; j < 100; j++) {
            posenc_row(j, 512, 10000, b);
            double s = 0;
            for (int t = 0; t < 512; t++)
                s += (a[t] - b[t]) * (a[t] - b[t]);
            brute = fmin(brute, sqrt(s));
        }
    }
    assert_close(dmin, brute, 1e-9);
    assert_true(dmin > 1.0);
    assert_int_equal(q - p, 1);
    /* d = 2 repeats with period 2*pi: no exact repeat among integers, but distance shrinks */
    double d2 = posenc_min_distance(0, 1000, 2, 10000, &p, &q);
    assert_true(d2 > 0 && d2 < 0.05);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reference_values_d4),
        cmocka_unit_test(test_frequencies_geometric),
        cmocka_unit_test(test_norm_and_dot),
        cmocka_unit_test(test_dot_offsets_run),
        cmocka_unit_test(test_gram_constant_on_diagonals),
        cmocka_unit_test(test_relative_map),
        cmocka_unit_test(test_rotation_blocks),
        cmocka_unit_test(test_split_layout),
        cmocka_unit_test(test_fast_path_matches_reference),
        cmocka_unit_test(test_fast_path_variants),
        cmocka_unit_test(test_uniqueness),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
