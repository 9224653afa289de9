/* fileio.c — atomic file replacement. */
#include "fileio.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The temporary file being written, for fileio_signal_cleanup. One at a time is enough. */
static char *volatile pending_tmp;

tf_status atomic_open(tf_atomic_file *f, const char *path)
{
    memset(f, 0, sizeof *f);
    struct stat sb;
    if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
        errno = EISDIR;
        return TF_ERR_IO;
    }
    size_t n = strlen(path);
    f->path = malloc(n + 1);
    f->tmp_path = malloc(n + 16);
    if (!f->path || !f->tmp_path) {
        free(f->path);
        free(f->tmp_path);
        return TF_ERR_NOMEM;
    }
    memcpy(f->path, path, n + 1);
    /* ".name.tmp-XXXXXX" in the same folder, so rename() stays on one file system */
    const char *slash = strrchr(path, '/');
    size_t dir = slash ? (size_t)(slash - path) + 1 : 0;
    memcpy(f->tmp_path, path, dir);
    snprintf(f->tmp_path + dir, n + 16 - dir, ".%s.tmp-XXXXXX", path + dir);
    int fd = mkstemp(f->tmp_path);
    if (fd < 0) {
        int e = errno;
        free(f->path);
        free(f->tmp_path);
        memset(f, 0, sizeof *f);
        errno = e;
        return TF_ERR_IO;
    }
    pending_tmp = f->tmp_path;
    fchmod(fd, 0644); /* mkstemp makes 0600; a figure is for sharing */
    f->fp = fdopen(fd, "wb");
    if (!f->fp) {
        int e = errno;
        close(fd);
        atomic_abort(f);
        errno = e;
        return TF_ERR_IO;
    }
    return TF_OK;
}

static void release(tf_atomic_file *f)
{
    pending_tmp = NULL;
    free(f->path);
    free(f->tmp_path);
    memset(f, 0, sizeof *f);
}

tf_status atomic_commit(tf_atomic_file *f)
{
    int bad = ferror(f->fp) || fflush(f->fp) != 0 || fsync(fileno(f->fp)) != 0;
    int e = errno;
    bad |= fclose(f->fp) != 0;
    f->fp = NULL;
    if (!bad && rename(f->tmp_path, f->path) == 0) {
        release(f);
        return TF_OK;
    }
    e = errno ? errno : e;
    unlink(f->tmp_path);
    release(f);
    errno = e;
    return TF_ERR_IO;
}

void atomic_abort(tf_atomic_file *f)
{
    if (f->fp)
        fclose(f->fp);
    if (f->tmp_path)
        unlink(f->tmp_path);
    release(f);
}

void fileio_signal_cleanup(void)
{
    char *p = pending_tmp;
    if (p)
        unlink(p);
}
