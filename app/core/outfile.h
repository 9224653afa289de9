/* outfile.h — where a --print, --train or --export writes: a file replaced atomically (a
 * temporary file beside it, renamed over it when complete) or standard output, and the one set
 * of sentences for when that fails.
 *
 * Exit statuses follow the program's: 0 success, 1 a file could not be written. */
#ifndef TF_OUTFILE_H
#define TF_OUTFILE_H

#include <stdio.h>

#include "core/tempfile.h"
#include "status.h"

typedef struct {
    FILE *fp;          /* write here */
    const char *path;  /* NULL: standard output */
    tempfile af;
    const char *kept;  /* what a failed write leaves, ending its sentence (NULL: "nothing was
                        * changed there"; one frame of many says which are written) */
} outfile;

/* Open path (NULL: standard output). Returns 0, or 1 after saying "cannot write PATH: why;
 * choose a writable path HINT." (hint: "with -o", "for --export"). */
int outfile_open(outfile *o, const char *path, const char *hint);

/* End the output after its writer returned st. TF_OK: the file takes its place. TF_ERR_IO:
 * nothing is changed, and the sentence says why (errno as the writer left it). Any other status:
 * nothing is changed and nothing is said, the caller explains. Standard output is flushed and
 * checked in every case. Returns 0, or 1 after a write failure was said. */
int outfile_close(outfile *o, tf_status st);

#endif
