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

/* The file a symbolic link at path points to (malloc'd), or NULL when path is no link. A figure
 * exported onto a link (fig.png -> paper/fig.png) replaces the file the link names and keeps the
 * link, as writing through open() would. */
static char *link_target(const char *path)
{
    struct stat lb;
    if (lstat(path, &lb) != 0 || !S_ISLNK(lb.st_mode))
        return NULL;
    char *real = realpath(path, NULL);
    if (real)
        return real;
    /* a link to a file not there yet: its target, relative to the link's folder */
    char buf[4096];
    ssize_t n = readlink(path, buf, sizeof buf - 1);
    if (n <= 0)
        return NULL;
    buf[n] = '\0';
    const char *slash = strrchr(path, '/');
    size_t dir = buf[0] == '/' || !slash ? 0 : (size_t)(slash - path) + 1;
    char *out = malloc(dir + (size_t)n + 1);
    if (out) {
        memcpy(out, path, dir);
        memcpy(out + dir, buf, (size_t)n + 1);
    }
    return out;
}

static tf_status open_resolved(tf_atomic_file *f, const char *path);

tf_status atomic_open(tf_atomic_file *f, const char *path)
{
    char *through = link_target(path);
    tf_status st = open_resolved(f, through ? through : path);
    free(through);
    return st;
}

static tf_status open_resolved(tf_atomic_file *f, const char *path)
{
    memset(f, 0, sizeof *f);
    struct stat sb;
    int exists = stat(path, &sb) == 0;
    if (exists && S_ISDIR(sb.st_mode)) {
        errno = EISDIR;
        return TF_ERR_IO;
    }
    if (!exists && errno == ENAMETOOLONG)
        return TF_ERR_IO;
    if (exists && !S_ISREG(sb.st_mode)) {
        /* a device, pipe or socket (-o /dev/stdout, -o /dev/null, a FIFO) is written in place:
         * there is no file to keep intact, and a temporary file renamed over it would replace
         * the device node itself */
        f->fp = fopen(path, "wb");
        return f->fp ? TF_OK : TF_ERR_IO;
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
    /* ".name.tmp-XXXXXX" in the same folder, so rename() stays on one file system; the name is
     * cut to 200 bytes so that a target name near NAME_MAX (255) still has a temporary name */
    const char *slash = strrchr(path, '/');
    size_t dir = slash ? (size_t)(slash - path) + 1 : 0;
    memcpy(f->tmp_path, path, dir);
    /* the file gets the mode of the file it replaces, or 0666 less the umask, as open() would
     * give (mkstemp makes 0600) */
    mode_t mode;
    if (exists && S_ISREG(sb.st_mode)) {
        mode = sb.st_mode & 07777;
    } else {
        mode_t mask = umask(022);
        umask(mask);
        mode = 0666 & ~mask;
    }
    snprintf(f->tmp_path + dir, n + 16 - dir, ".%.200s.tmp-XXXXXX", path + dir);
    /* no signal between creating the temporary file and recording it for the clean-up */
    sigset_t block, saved;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    sigaddset(&block, SIGHUP);
    sigaddset(&block, SIGPIPE);
    sigprocmask(SIG_BLOCK, &block, &saved);
    int fd = mkstemp(f->tmp_path);
    if (fd >= 0)
        pending_tmp = f->tmp_path;
    int create_errno = errno;
    sigprocmask(SIG_SETMASK, &saved, NULL);
    if (fd < 0) {
        free(f->path);
        free(f->tmp_path);
        memset(f, 0, sizeof *f);
        errno = create_errno;
        return TF_ERR_IO;
    }
    fchmod(fd, mode);
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
    if (!f->tmp_path) { /* written in place: a device or a pipe */
        int bad = ferror(f->fp) || fflush(f->fp) != 0;
        int e = errno;
        bad |= fclose(f->fp) != 0;
        release(f);
        errno = e;
        return bad ? TF_ERR_IO : TF_OK;
    }
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
