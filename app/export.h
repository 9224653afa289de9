/* export.h — `--export FILE`: figures drawn from the analysis, format from the extension. */
#ifndef TF_EXPORT_H
#define TF_EXPORT_H

#include <stddef.h>

#include "analysis.h"
#include "cli.h"

/* Draw `figure` (NULL: the default figure) of analysis a into path, atomically.
 * Returns 0 on success; on failure writes one sentence for the user into msg and returns the
 * exit status (2 bad input, 1 I/O failure). The TUI's `e` key calls this too. */
int export_figure(const tf_cli *cli, tf_analysis *a, const char *figure, const char *path,
                  char *msg, size_t msg_len);

#endif
