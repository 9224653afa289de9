/* select_tests.h — run a part of a cmocka test program, so that a program whose tests take
 * minutes can be registered as several meson tests that run in parallel (tests/meson.build):
 *
 *   test_x                        every test
 *   test_x NAME...                only the tests named (test_layouts_hold ...)
 *   test_x --except NAME...       every test but those named
 *
 * A name that is no test of the program is an error (exit status 2), so a part cannot
 * silently run nothing, and a test added later runs in the --except part. */
#ifndef TF_TEST_SELECT_TESTS_H
#define TF_TEST_SELECT_TESTS_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

static inline bool select_named(const char *name, int n, char **names)
{
    for (int i = 0; i < n; i++)
        if (strcmp(name, names[i]) == 0)
            return true;
    return false;
}

/* Copies into chosen (room for n) the tests of all that argv selects and returns how many, or
 * -1 after saying which name is unknown. */
static inline int select_tests(const struct CMUnitTest *all, int n, int argc, char **argv,
                               struct CMUnitTest *chosen)
{
    bool except = argc > 1 && strcmp(argv[1], "--except") == 0;
    int first = except ? 2 : 1;
    for (int a = first; a < argc; a++) {
        bool known = false;
        for (int i = 0; i < n && !known; i++)
            known = strcmp(all[i].name, argv[a]) == 0;
        if (!known) {
            fprintf(stderr, "%s: no test named '%s'\n", argv[0], argv[a]);
            return -1;
        }
    }
    int k = 0;
    for (int i = 0; i < n; i++)
        if (argc <= first || select_named(all[i].name, argc - first, argv + first) != except)
            chosen[k++] = all[i];
    return k;
}

#endif
