/* tempfile.c — atomic file replacement that never follows a link to choose where to write. */
#include "core/tempfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The temporary file being written, for tempfile_signal_cleanup. One at a time is enough. */
static char *volatile pending_tmp;

/* Write in place through descriptor fd (a device, a pipe, standard output's file). */
static tf_status open_in_place(tempfile *f, int fd)
{
    f->fp = fdopen(fd, "wb");
    if (f->fp)
        return TF_OK;
    int e = errno;
    close(fd);
    errno = e;
    return TF_ERR_IO;
}

/* A copy of the descriptor of standard output or error when it writes to the regular file sb
 * (-o /dev/stdout > file), else -1. */
static int standard_stream_of(const struct stat *sb)
{
    for (int fd = STDOUT_FILENO; fd <= STDERR_FILENO; fd++) {
        struct stat o;
        if (fstat(fd, &o) == 0 && S_ISREG(o.st_mode) && o.st_dev == sb->st_dev &&
            o.st_ino == sb->st_ino)
            return fcntl(fd, F_DUPFD_CLOEXEC, 3);
    }
    return -1;
}

/* A device, FIFO or socket at path, opened through the kernel (which applies its own checks on
 * following links) without creating or truncating anything: 1 with f open, 0 when a regular file
 * is there after all (not written through), -1 on an error (errno set). */
static int open_special(tempfile *f, const char *path)
{
    int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    struct stat now;
    if (fstat(fd, &now) == 0 && !S_ISREG(now.st_mode))
        return open_in_place(f, fd) == TF_OK ? 1 : -1;
    close(fd);
    return 0;
}

/* Create the file name[0..x) followed by six random letters, exclusively (O_CREAT | O_EXCL: never
 * through a link), and return its descriptor, or -1 with errno set. The name is recorded for
 * tempfile_signal_cleanup before the file exists: a signal can arrive on another thread (cairo's
 * and pango's helpers) at any moment, and a file created but not yet recorded would be left.
 * A signal between a failed attempt on a name another process holds and the next attempt could
 * remove that other file; names are random, so this needs a collision of 36 bits as well. */
static int create_exclusive(char *name, size_t x)
{
    static const char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    static unsigned long long counter;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    unsigned long long r = (unsigned long long)ts.tv_nsec * 0x9E3779B97F4A7C15ULL ^
                           (unsigned long long)ts.tv_sec ^ ((unsigned long long)getpid() << 32);
    for (int attempt = 0; attempt < 100; attempt++) {
        counter += 1;
        r ^= counter * 0xBF58476D1CE4E5B9ULL;
        r ^= r >> 31;
        unsigned long long v = r;
        for (size_t i = 0; i < 6; i++, v /= 62)
            name[x + i] = letters[v % 62];
        pending_tmp = name;
        int fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
        if (fd >= 0 || errno != EEXIST) {
            int e = errno;
            if (fd < 0)
                pending_tmp = NULL;
            errno = e;
            return fd;
        }
        pending_tmp = NULL;
    }
    errno = EEXIST;
    return -1;
}

/* The temporary file beside path: ".name.tmp-XXXXXX" in the same folder, so rename() stays on
 * one file system, with permission bits mode. */
static tf_status open_temporary(tempfile *f, const char *path, mode_t mode)
{
    size_t n = strlen(path);
    f->path = malloc(n + 1);
    f->tmp_path = malloc(n + 16);
    if (!f->path || !f->tmp_path) {
        free(f->path);
        free(f->tmp_path);
        memset(f, 0, sizeof *f);
        return TF_ERR_NOMEM;
    }
    memcpy(f->path, path, n + 1);
    /* the name is cut to 200 bytes so that a target name near NAME_MAX (255) still has a
     * temporary name */
    const char *slash = strrchr(path, '/');
    size_t dir = slash ? (size_t)(slash - path) + 1 : 0;
    memcpy(f->tmp_path, path, dir);
    snprintf(f->tmp_path + dir, n + 16 - dir, ".%.200s.tmp-XXXXXX", path + dir);
    int fd = create_exclusive(f->tmp_path, strlen(f->tmp_path) - 6);
    if (fd < 0) {
        int e = errno;
        free(f->path);
        free(f->tmp_path);
        memset(f, 0, sizeof *f);
        errno = e;
        return TF_ERR_IO;
    }
    fchmod(fd, mode);
    f->fp = fdopen(fd, "wb");
    if (!f->fp) {
        int e = errno;
        close(fd);
        tempfile_abort(f);
        errno = e;
        return TF_ERR_IO;
    }
    return TF_OK;
}

tf_status tempfile_open(tempfile *f, const char *path)
{
    memset(f, 0, sizeof *f);
    if (!*path) {
        errno = ENOENT;
        return TF_ERR_IO;
    }
    struct stat lsb, sb;
    bool exists = lstat(path, &lsb) == 0;
    if (!exists && errno != ENOENT)
        return TF_ERR_IO; /* a name too long, a folder that is not one or cannot be searched */
    bool link = exists && S_ISLNK(lsb.st_mode);
    /* what is there: the file itself, or what a link names as the kernel sees it (only to
     * recognise a directory, a device or standard output; never to choose where to write) */
    const struct stat *at = !exists ? NULL : !link ? &lsb : stat(path, &sb) == 0 ? &sb : NULL;
    if (at && S_ISDIR(at->st_mode)) {
        errno = EISDIR;
        return TF_ERR_IO;
    }
    if (at && !S_ISREG(at->st_mode)) {
        int r = open_special(f, path);
        if (r != 0)
            return r > 0 ? TF_OK : TF_ERR_IO;
        at = NULL; /* replaced by a regular file meanwhile: replace it in turn */
    }
    if (link && at) {
        int fd = standard_stream_of(at);
        if (fd >= 0)
            return open_in_place(f, fd);
    }
    /* the permission bits of the regular file replaced (never set-user-ID, set-group-ID or
     * sticky), or 0666 less the umask as open() would give; mkstemp makes 0600 */
    mode_t mode;
    if (at && !link) {
        mode = at->st_mode & 0777;
    } else {
        mode_t mask = umask(022);
        umask(mask);
        mode = 0666 & ~mask;
    }
    return open_temporary(f, path, mode);
}

static void release(tempfile *f)
{
    pending_tmp = NULL;
    free(f->path);
    free(f->tmp_path);
    memset(f, 0, sizeof *f);
}

tf_status tempfile_commit(tempfile *f)
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

void tempfile_abort(tempfile *f)
{
    if (f->fp)
        fclose(f->fp);
    if (f->tmp_path)
        unlink(f->tmp_path);
    release(f);
}

void tempfile_signal_cleanup(void)
{
    char *p = pending_tmp;
    if (p)
        unlink(p);
}
