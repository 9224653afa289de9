/* figures.h — the --export front-end: publication figures of the analysis, drawn with
 * render/figure to PNG, SVG or PDF (from the file's extension) and written atomically; the
 * animations (render/anim) as GIF files or folders of PNG frames; a figure inside the terminal
 * (--show, and the explorer's g key through figures_raster).
 *
 * One file per group of figures (fig_*.c) and one table of them (export.c): a new figure is a
 * draw function in its group's file and a row of the table. */
#ifndef TF_FIGURES_H
#define TF_FIGURES_H

#include <stdbool.h>
#include <stdio.h>

#include "analysis.h"
#include "core/figreq.h"

/* Draw the figure req asks for from analysis a into req->path: a still figure as PNG, SVG or
 * PDF, an animation as a GIF file or a folder of PNG frames. Returns 0, or the exit status after
 * saying what was wrong (2 a bad request or a page too small, 1 the file). The explorer's e key
 * reaches it through its fig_export_fn. */
int figures_export(const fig_request *req, tf_analysis *a);

/* Check the figure, the path and the page before any work, against configuration cfg: NULL
 * when they are fine, else a sentence. */
const char *figures_check(const fig_request *req, const tf_config *cfg);

/* True when figure `name` (NULL: pe) draws the trained order model: the caller trains it and
 * hands it over in fig_request.order. */
bool figures_need_order(const char *name);

/* The figures' names in the table's order, NULL at the end; the animations among them. */
const char *const *figures_names(void);
const char *const *figures_animations(void);
/* The table, one line per still figure and per animation (order-training is both), in its
 * order: name, "still" or "animation", what it needs besides the sentence ("order": the trained
 * order model, "vectors": --vectors FILE, "-": nothing), the options the gallery draws it with
 * (VECTORS stands for a vectors file; "-": none), its English and its Chinese title, separated
 * by tabs (no field is empty: a shell's read would merge two tabs). */
void figures_list(FILE *fp);
/* Whether the figure name (NULL: pe) draws the position schemes --scheme chooses; list receives
 * the names of those that do ("order, schemes, ..."). */
bool figures_use_schemes(const char *name, char *list, size_t cap);

/* A still figure into pixels for the terminal (a fig_raster_fn: core/figreq.h). */
tf_status figures_raster(const fig_request *req, tf_analysis *a, int width, int height,
                         int cell_h, fig_raster *out, char *why, size_t why_len);

/* --show: check the figure req->name before any work (NULL: fine, else a sentence), and draw
 * it into the terminal on standard output (show.c). figures_show returns 0, or the exit status
 * after saying why it could not (2: no terminal that shows pictures, a bad request). */
const char *figures_check_show(const fig_request *req, const tf_config *cfg);
int figures_show(const fig_request *req, tf_analysis *a);

#endif
