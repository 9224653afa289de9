/* datadir.c — finding the generated data files, installed or in the build tree. */
#include "core/datadir.h"

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
        /* the build tree, then the installed layout relative to the binary (<prefix>/bin ->
         * <prefix>/share/tfviz), which also holds for a DESTDIR-staged or moved install */
        const char *tails[] = {"/../assets", "/" TF_BIN_TO_DATA};
        for (size_t i = 0; slash && i < sizeof tails / sizeof *tails; i++) {
            if (i == 1 && !TF_BIN_TO_DATA[0])
                break;
            if ((size_t)(slash - path) + strlen(tails[i]) + 1 >= sizeof path)
                continue;
            strcpy(slash, tails[i]);
            struct stat sb;
            if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
                return path;
        }
    }
    return TF_DATA_DIR;
}
