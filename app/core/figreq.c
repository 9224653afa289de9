/* figreq.c — page lengths with their units. */
#include "core/figreq.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

double fig_parse_length(const char *s)
{
    if (strcmp(s, "one-column") == 0)
        return FIG_ONE_COLUMN_IN * FIG_PT_PER_IN;
    if (strcmp(s, "two-column") == 0)
        return FIG_TWO_COLUMN_IN * FIG_PT_PER_IN;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || errno == ERANGE || !isfinite(v) || !(v > 0))
        return -1;
    double unit;
    if (*end == '\0' || strcmp(end, "in") == 0)
        unit = FIG_PT_PER_IN;
    else if (strcmp(end, "cm") == 0)
        unit = FIG_PT_PER_IN / 2.54;
    else if (strcmp(end, "mm") == 0)
        unit = FIG_PT_PER_IN / 25.4;
    else if (strcmp(end, "pt") == 0)
        unit = 1.0;
    else
        return -1;
    return v * unit;
}
