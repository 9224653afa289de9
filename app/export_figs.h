/* export_figs.h — the figures of --export: each reads the analysis (numbers from model/) and
 * draws with render/figure. Shared by export.c only. */
#ifndef TF_EXPORT_FIGS_H
#define TF_EXPORT_FIGS_H

#include <stdbool.h>

#include "analysis.h"
#include "cli.h"
#include "figure.h"

typedef struct {
    fig *f;
    tf_analysis *a;
    bool zh;          /* Chinese labels */
    cmap_id cmap;     /* --colormap, or CMAP_COUNT for the figure's choice */
    fig_rect area;    /* the page inside its margins, below the title */
    char msg[200];    /* why a figure cannot be drawn (bad input) */
    const tf_vectors *vectors; /* learned vectors (--vectors), NULL: none */
} fig_ctx;

typedef struct {
    const char *name;
    unsigned needs;   /* ANALYSIS_* */
    double aspect;    /* default height / width */
    const char *title_en, *title_zh; /* markup; %s-free */
    tf_status (*draw)(fig_ctx *c);
    /* NULL when the configuration fits, else a sentence (too many cells, ...) */
    const char *(*check)(const tf_config *cfg);
} fig_entry;

extern const fig_entry export_figs[];
extern const int export_figs_count;

#endif
