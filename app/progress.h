/* progress.h — a progress bar on stderr for long writes (--print pe of millions of rows).
 *
 * Drawn only when stderr is a terminal and the job is large, so pipes, logs and tests never see
 * it; redrawn at most ten times a second, and erased when the job ends. */
#ifndef TF_PROGRESS_H
#define TF_PROGRESS_H

#include <stdint.h>

/* Jobs smaller than this many bytes finish too fast for a bar to help. */
#define PROGRESS_MIN_BYTES (64u << 20)

typedef struct {
    int on;            /* drawing at all */
    uint64_t total;    /* bytes the job writes */
    double t0, last;   /* start and last redraw, seconds */
    const char *label; /* what is being written */
} tf_progress;

/* Start a job of total bytes; the bar is on if stderr is a terminal and total is large. */
void progress_start(tf_progress *p, const char *label, uint64_t total);
/* done bytes of total are written. */
void progress_update(tf_progress *p, uint64_t done);
/* Erase the bar. */
void progress_end(tf_progress *p);

#endif
