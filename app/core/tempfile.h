/* tempfile.h — files written atomically: a temporary file beside the target, then rename.
 *
 * An existing file is replaced only when the new one is complete; on any failure (or a signal,
 * through tempfile_signal_cleanup) the temporary file is removed and the old file is intact.
 *
 * Where the new file goes is decided from the path as given, never by resolving a symbolic
 * link ourselves:
 *   - a regular file, or no file yet: a temporary file beside it (mkstemp, O_EXCL), renamed
 *     over the name. Other hard links to the old file keep the old contents (the name given
 *     gets the new file, as sed -i does);
 *   - a symbolic link to a regular file, or a dangling one: the link itself is replaced by the
 *     new file (as sed -i does); the file it pointed to is never opened or changed. The one
 *     exception is a link to the very file this process writes its standard output or error
 *     to (-o /dev/stdout > file): that is written through that descriptor, as the shell would;
 *   - a device, a FIFO or a socket (-o /dev/null, a pipe), or a link to one: written in place,
 *     opened with open(2) on the path given, so the kernel's own checks on following links
 *     (fs.protected_symlinks) apply; a regular file found there after all is not written
 *     through but replaced as above.
 * The new file gets the permission bits (rwx for user, group, others) of the regular file it
 * replaces, or 0666 less the umask; never the set-user-ID, set-group-ID or sticky bits, and it
 * belongs to whoever wrote it.
 *
 * The temporary file's name is state the signal handlers read (tempfile_signal_cleanup, called
 * by core/signals.c), so this lives in app/core beside them, apart from the mathematics of
 * model/ (as git keeps tempfile.c and lockfile.c apart from its object code). */
#ifndef TF_CORE_TEMPFILE_H
#define TF_CORE_TEMPFILE_H

#include <stdio.h>

#include "status.h"

typedef struct {
    FILE *fp;       /* write here */
    char *path;     /* the target */
    char *tmp_path; /* the temporary file in the same folder; NULL when written in place */
} tempfile;

/* Open the file that will replace path (see above). TF_ERR_IO when the folder is missing or
 * unwritable, path is empty, a directory or a link to one; errno is kept for the caller's
 * message. */
tf_status tempfile_open(tempfile *f, const char *path);
/* Flush, sync, close and rename over the target. On failure the temporary file is removed. */
tf_status tempfile_commit(tempfile *f);
/* Close and remove the temporary file; the target is untouched. */
void tempfile_abort(tempfile *f);

/* Async-signal-safe: remove the temporary file of the atomic file being written, if any. */
void tempfile_signal_cleanup(void);

#endif
