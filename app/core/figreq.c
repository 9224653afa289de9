/* figreq.c — page lengths with their units. */
#include "core/figreq.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Column and text widths of each venue's LaTeX style:
 *   acl      acl.sty (github.com/acl-org/acl-style-files): \textwidth 16.0cm, \columnsep 0.6cm,
 *            so a column is 7.7 cm
 *   neurips  neurips_2024.sty: \textwidth 5.5in, one column
 *   icml     icml2024.sty: \textwidth 6.75in, \columnsep 0.25in, so a column is 3.25 in
 *   iclr     iclr2025_conference.sty: \textwidth 5.5in, one column
 *   ieee     IEEEtran.cls (conference, US letter): \columnwidth 3.5in, \textwidth 7.16in
 *   a4       an A4 page (21 cm) with 2.5 cm margins: one column of 16 cm */
static const fig_venue venues[] = {
    {"acl", 7.7 / 2.54, 16.0 / 2.54},
    {"neurips", 5.5, 5.5},
    {"icml", 3.25, 6.75},
    {"iclr", 5.5, 5.5},
    {"ieee", FIG_ONE_COLUMN_IN, FIG_TWO_COLUMN_IN},
    {"a4", 16.0 / 2.54, 16.0 / 2.54},
};

const fig_venue *fig_venue_find(const char *name)
{
    for (size_t i = 0; i < sizeof venues / sizeof venues[0]; i++)
        if (strcmp(venues[i].name, name) == 0)
            return &venues[i];
    return NULL;
}

const char *fig_venue_names(void) { return "acl, neurips, icml, iclr, ieee or a4"; }

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
    /* points per unit as a ratio of whole numbers (an inch is 2.54 cm: 72 pt = 3600/127 per
     * cm), multiplied before dividing: 1016mm is 2880 pt exactly, as 40in is (72 / 25.4 gave
     * 2880.0000000000005, past the 40 in a page may be) */
    double num, den = 1.0;
    if (*end == '\0' || strcmp(end, "in") == 0)
        num = FIG_PT_PER_IN;
    else if (strcmp(end, "cm") == 0)
        num = 3600.0, den = 127.0;
    else if (strcmp(end, "mm") == 0)
        num = 360.0, den = 127.0;
    else if (strcmp(end, "pt") == 0)
        num = 1.0;
    else
        return -1;
    return v * num / den;
}
