/* datadir.c — finding the generated data files, installed or in the build tree. */
#include "datadir.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tf_config.h"

const char *datadir_get(void)
{
    static char path[PATH_MAX];
    const char *env = getenv("TFVIZ_DATA_DIR");
    if (env && *env)
        return env;
    /* the build tree keeps the program in <build>/app and the data in <build>/assets; an
     * installed program has no assets directory beside its bin directory */
    ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
    if (n > 0) {
        path[n] = '\0';
        char *slash = strrchr(path, '/');
        const char *tail = "/../assets";
        if (slash && (size_t)(slash - path) + strlen(tail) + 1 < sizeof path) {
            strcpy(slash, tail);
            struct stat sb;
            if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
                return path;
        }
    }
    return TF_DATA_DIR;
}
