/* asset.c — mapping generated data files read-only. */
#include "asset.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

tf_status asset_map(const char *dir, const char *name, tf_asset *out)
{
    out->data = NULL;
    out->size = 0;
    if (!dir || !name)
        return TF_ERR_UNAVAILABLE;
    size_t n = strlen(dir) + strlen(name) + 2;
    char *path = malloc(n);
    if (!path)
        return TF_ERR_NOMEM;
    snprintf(path, n, "%s/%s", dir, name);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    free(path);
    if (fd < 0)
        /* a folder that cannot hold the file (not there, not a folder, a path too long for
         * the system, a loop of links) is a data file not installed: the caller falls back */
        return errno == ENOENT || errno == ENOTDIR || errno == ENAMETOOLONG || errno == ELOOP
                   ? TF_ERR_UNAVAILABLE
                   : TF_ERR_IO;
    struct stat sb;
    if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode) || sb.st_size <= 0) {
        close(fd);
        return TF_ERR_FORMAT;
    }
    void *p = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (p == MAP_FAILED)
        return TF_ERR_IO;
    out->data = p;
    out->size = (size_t)sb.st_size;
    return TF_OK;
}

void asset_unmap(tf_asset *a)
{
    if (a->data)
        munmap((void *)a->data, a->size);
    a->data = NULL;
    a->size = 0;
}
