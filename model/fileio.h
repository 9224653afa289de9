/* fileio.h — files written atomically: a temporary file beside the target, then rename.
 *
 * An existing file is replaced only when the new one is complete; on any failure (or a signal,
 * through fileio_signal_cleanup) the temporary file is removed and the old file is intact. */
#ifndef TF_FILEIO_H
#define TF_FILEIO_H

#include <stdio.h>

#include "status.h"

typedef struct {
    FILE *fp;       /* write here */
    char *path;     /* the target */
    char *tmp_path; /* the temporary file in the same folder */
} tf_atomic_file;

/* Open a temporary file beside path (beside the file it names, when path is a symbolic link). TF_ERR_IO when the folder is missing or unwritable or path
 * is a directory; errno is kept for the caller's message. A path that exists and is not a
 * regular file (a device such as /dev/stdout, a FIFO) is opened and written in place. */
tf_status atomic_open(tf_atomic_file *f, const char *path);
/* Flush, sync, close and rename over the target. On failure the temporary file is removed. */
tf_status atomic_commit(tf_atomic_file *f);
/* Close and remove the temporary file; the target is untouched. */
void atomic_abort(tf_atomic_file *f);

/* Async-signal-safe: remove the temporary file of the atomic file being written, if any. */
void fileio_signal_cleanup(void);

#endif
