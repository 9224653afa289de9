/* skip.c — stands in for a test whose optional table was not fetched at set-up: prints the
 * reason (scripts/test_summary.py lists it above the summary) and exits 77, which meson counts
 * as SKIP (not as a failure, as cmocka's skip() under the TAP protocol would be). */
#include <stdio.h>

int main(int argc, char **argv)
{
    printf("skipped: %s\n", argc > 1 ? argv[1] : "an optional table is missing");
    return 77;
}
