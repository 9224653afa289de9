/* check.h — comparing arrays against reference values with a tolerance; on failure the first
 * values and the largest difference are printed before the assertion fails. */
#ifndef TF_TEST_CHECK_H
#define TF_TEST_CHECK_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* Whether the test runs light: under valgrind, whose memcheck setup (tests/meson.build) sets
 * TFVIZ_TEST_LIGHT; a sweep then samples fewer cases, the fast build's pass runs them all. */
static inline bool check_light(void)
{
    const char *v = getenv("TFVIZ_TEST_LIGHT");
    return v && *v && v[0] != '0';
}

/* Whether a long sweep is left to the fast build's pass: under AddressSanitizer or valgrind it
 * would take minutes and exercise no other code. */
static inline bool check_heavy_skipped(void)
{
#if defined(__SANITIZE_ADDRESS__)
    return true;
#else
    return check_light();
#endif
}

static inline double check_max_diff(const char *label, const double *got, const double *want,
                                    size_t n, double tol)
{
    double worst = 0.0;
    size_t at = 0;
    for (size_t i = 0; i < n; i++) {
        double d = fabs(got[i] - want[i]);
        if (!(d <= worst)) {
            worst = d;
            at = i;
        }
    }
    if (!(worst <= tol)) {
        fprintf(stderr, "# %s: max |diff| %.3e at %zu (tolerance %.1e)\n", label, worst, at, tol);
        for (size_t i = 0; i < n && i < 5; i++)
            fprintf(stderr, "#   [%zu] got %.12g want %.12g\n", i, got[i], want[i]);
        fprintf(stderr, "#   [%zu] got %.12g want %.12g\n", at, got[at], want[at]);
    }
    assert_true(worst <= tol);
    return worst;
}

/* cmocka 1.1.5's assert_float_equal compares in float; this compares doubles. */
#define assert_close(a, b, tol) check_close_at((double)(a), (double)(b), (tol), #a, __FILE__, __LINE__)
static inline void check_close_at(double a, double b, double tol, const char *expr,
                                  const char *file, int line)
{
    if (!(fabs(a - b) <= tol)) {
        fprintf(stderr, "# %s:%d: %s = %.17g, want %.17g (|diff| %.3e > %.1e)\n", file, line,
                expr, a, b, fabs(a - b), tol);
        fail();
    }
}

#endif
