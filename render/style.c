/* style.c — the table of scheme styles (style.h). */
#include "style.h"

enum { PEFILE_AT = SCHEME_COUNT + ROPE_SCALING_COUNT - 1 };

/* Okabe & Ito: black #000000, vermillion #D55E00, bluish green #009E73, blue #0072B2, reddish
 * purple #CC79A7, orange #E69F00, sky blue #56B4E9. Tol muted: indigo #332288, teal #44AA99,
 * olive #999933, wine #882255, rose #CC6677. */
static const scheme_style table[] = {
    {"none", {0, 0, 0}, STYLE_DOTTED, STYLE_SQUARE},
    {"sinusoidal", {213, 94, 0}, STYLE_DASHED, STYLE_CIRCLE},
    {"learned", {0, 158, 115}, STYLE_DASHDOT, STYLE_DIAMOND},
    {"rope", {0, 114, 178}, STYLE_SOLID, STYLE_TRIANGLE},
    {"alibi", {204, 121, 167}, STYLE_SOLID, STYLE_TRIANGLE_DOWN},
    {"t5", {230, 159, 0}, STYLE_DASHDOT, STYLE_PENTAGON},
    {"rope-linear", {51, 34, 136}, STYLE_DASHED, STYLE_SQUARE},
    {"rope-ntk", {68, 170, 153}, STYLE_DASHDOT, STYLE_HEXAGON},
    {"rope-dynamic", {153, 153, 51}, STYLE_DOTTED, STYLE_DIAMOND},
    {"rope-yarn", {136, 34, 85}, STYLE_SOLID, STYLE_PENTAGON},
    {"rope-llama3", {204, 102, 119}, STYLE_DASHED, STYLE_TRIANGLE_DOWN},
    {"pe-file", {86, 180, 233}, STYLE_DASHED, STYLE_HEXAGON},
};

_Static_assert(sizeof table / sizeof table[0] == PEFILE_AT + 1, "one style per entry");

size_t style_count(void) { return sizeof table / sizeof table[0]; }

const scheme_style *style_at(size_t i) { return i < style_count() ? &table[i] : NULL; }

const scheme_style *style_scheme(tf_scheme s, rope_scaling_kind k)
{
    if (s == SCHEME_ROPE && k > ROPE_SCALING_NONE && k < ROPE_SCALING_COUNT)
        return &table[SCHEME_COUNT + (int)k - 1];
    return &table[(int)s >= 0 && s < SCHEME_COUNT ? (int)s : 0];
}

const scheme_style *style_pefile(void) { return &table[PEFILE_AT]; }

const char *style_dash_name(style_dash d)
{
    static const char *const names[] = {"solid", "dashed", "dotted", "dashdot"};
    return (unsigned)d < 4 ? names[d] : "solid";
}

const char *style_marker_name(style_marker m)
{
    static const char *const names[] = {"circle",        "square",   "diamond", "triangle",
                                        "triangle-down", "pentagon", "hexagon"};
    return (unsigned)m < STYLE_MARKER_COUNT ? names[m] : "circle";
}
