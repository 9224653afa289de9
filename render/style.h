/* style.h — the one look of each position scheme: colour, dash and marker.
 *
 * Every figure, animation and terminal view that draws a position scheme takes its colour, its
 * dash and its marker from this table (after matplotlib's prop_cycle: one table every plot
 * reads), so sinusoidal is the same vermillion dashed line with circles wherever it appears.
 * The colours are Okabe & Ito's (2008) for the schemes and Paul Tol's "muted" set for the RoPE
 * scalings, both readable with the common colour-vision deficiencies; no two entries share
 * colour, dash and marker, so the lines stay apart in grey print. A terminal shows the same
 * colour, or the nearest its palette has (term_pair). `tfviz --print style` lists the table. */
#ifndef TF_STYLE_H
#define TF_STYLE_H

#include <stddef.h>

#include "colormap.h"
#include "rope_scaling.h"
#include "scheme.h"

typedef enum { STYLE_SOLID = 0, STYLE_DASHED, STYLE_DOTTED, STYLE_DASHDOT } style_dash;

typedef enum {
    STYLE_CIRCLE = 0,
    STYLE_SQUARE,
    STYLE_DIAMOND,
    STYLE_TRIANGLE,
    STYLE_TRIANGLE_DOWN,
    STYLE_PENTAGON,
    STYLE_HEXAGON,
    STYLE_MARKER_COUNT
} style_marker;

typedef struct {
    const char *name; /* "sinusoidal", "rope-yarn", "pe-file" */
    tf_rgb color;
    style_dash dash;
    style_marker marker;
} scheme_style;

/* The entries, in the order listed: the six schemes, RoPE under each scaling, a --pe-file table. */
size_t style_count(void);
const scheme_style *style_at(size_t i);
/* Scheme s; for SCHEME_ROPE the entry of scaling k (ROPE_SCALING_NONE: plain RoPE). */
const scheme_style *style_scheme(tf_scheme s, rope_scaling_kind k);
/* A position table read with --pe-file. */
const scheme_style *style_pefile(void);
/* "solid", "dashed", "dotted", "dashdot"; "circle", "square", ... */
const char *style_dash_name(style_dash d);
const char *style_marker_name(style_marker m);

#endif
