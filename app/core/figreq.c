/* figreq.c — page lengths with their units. */
#include "core/figreq.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Column and text widths of each venue's LaTeX style, and the gap between two figures side by
 * side (the columns' own gap, \columnsep, in a two-column style):
 *   acl      acl.sty (github.com/acl-org/acl-style-files): \textwidth 16.0cm, \columnsep 0.6cm,
 *            so a column is 7.7 cm
 *   neurips  neurips_2024.sty: \textwidth 5.5in, one column
 *   icml     icml2024.sty: \textwidth 6.75in, \columnsep 0.25in, so a column is 3.25 in
 *   iclr     iclr2025_conference.sty: \textwidth 5.5in, one column
 *   ieee     IEEEtran.cls (conference, US letter): \columnwidth 3.5in, \textwidth 7.16in, so
 *            the columns are 0.16 in apart
 *   a4       an A4 page (21 cm) with 2.5 cm margins: one column of 16 cm
 * A one-column style has no \columnsep: two subfigures of 0.48\textwidth with \hfill between
 * them, the usual way, are 0.04\textwidth apart, 0.22 in at 5.5 in; 0.25 in is kept, as ICML's. */
#define SIDE_BY_SIDE_GAP_IN 0.25
static const fig_venue venues[] = {
    {"acl", 7.7 / 2.54, 16.0 / 2.54, 0.6 / 2.54},
    {"neurips", 5.5, 5.5, SIDE_BY_SIDE_GAP_IN},
    {"icml", 3.25, 6.75, 0.25},
    {"iclr", 5.5, 5.5, SIDE_BY_SIDE_GAP_IN},
    {"ieee", FIG_ONE_COLUMN_IN, FIG_TWO_COLUMN_IN, FIG_TWO_COLUMN_IN - 2 * FIG_ONE_COLUMN_IN},
    {"a4", 16.0 / 2.54, 16.0 / 2.54, SIDE_BY_SIDE_GAP_IN},
};

double fig_venue_width(const fig_venue *v, fig_width_preset which)
{
    if (!v)
        v = fig_venue_find("ieee");
    double half = (v->text_in - v->gap_in) / 2;
    switch (which) {
    case FIG_WIDTH_ONE_COLUMN:
        /* one of two columns: the venue's own, or in a one-column text one of two figures side
         * by side (a figure as wide as the text is two-column's) */
        return v->column_in < v->text_in ? v->column_in : half;
    case FIG_WIDTH_TWO_COLUMN: return v->text_in;
    case FIG_WIDTH_HALF: return half;
    default: return v->column_in;
    }
}

const fig_venue *fig_venue_find(const char *name)
{
    for (size_t i = 0; i < sizeof venues / sizeof venues[0]; i++)
        if (strcmp(venues[i].name, name) == 0)
            return &venues[i];
    return NULL;
}

const char *fig_venue_names(void) { return "acl, neurips, icml, iclr, ieee or a4"; }

fig_width_preset fig_width_preset_of(const char *s)
{
    static const char *const names[] = {"", "one-column", "two-column", "half"};
    for (int i = 1; i < (int)(sizeof names / sizeof names[0]); i++)
        if (strcmp(s, names[i]) == 0)
            return (fig_width_preset)i;
    return FIG_WIDTH_NONE;
}

double fig_parse_length(const char *s)
{
    fig_width_preset p = fig_width_preset_of(s);
    if (p != FIG_WIDTH_NONE)
        return fig_venue_width(NULL, p) * FIG_PT_PER_IN;
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
