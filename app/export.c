/* export.c — figures. Not built yet: every call says so. */
#include "export.h"

#include <stdio.h>

int export_figure(const tf_cli *cli, tf_analysis *a, const char *figure, const char *path,
                  char *msg, size_t msg_len)
{
    (void)cli, (void)a, (void)figure, (void)path;
    snprintf(msg, msg_len, "figure export is not available in this build");
    return 2;
}
