/* export.h — `--export FILE`: figures drawn from the analysis, format from the extension. */
#ifndef TF_EXPORT_H
#define TF_EXPORT_H

#include <stddef.h>

#include "analysis.h"
#include "cli.h"

/* Draw `figure` (NULL: the default figure) of analysis a into path, atomically.
 * Returns 0 on success; on failure says one sentence (err_say) and returns the exit status
 * (2 bad input, 1 I/O failure). The TUI's `e` key calls this too. */
int export_figure(const tf_cli *cli, tf_analysis *a, const char *figure, const char *path);

/* Check figure, path and options before any work: NULL when they are fine, else a sentence. */
const char *export_check(const tf_cli *cli, const char *figure, const char *path);
/* "pe, rope, ..." for help and error messages. */
const char *export_list(void);
/* A length such as "3.5in", "8.9cm", "252pt", "one-column" or "two-column" in points;
 * -1 when it is not one. A bare number is inches. */
double export_parse_length(const char *s);

#define EXPORT_ONE_COLUMN_IN 3.5  /* a one-column figure in a two-column paper */
#define EXPORT_TWO_COLUMN_IN 7.16 /* the full text width of a two-column paper (IEEE) */
#define EXPORT_DEFAULT_DPI 300.0
#define EXPORT_DEFAULT_FONT_PT 8.0

#endif
