/* progress.h — a progress bar on standard error for long jobs: writing a large --print (PE of
 * millions of rows), training word vectors, training the order model and drawing an animation's
 * frames.
 *
 * Drawn only when standard error is a terminal and the job is worth it (a write of 64 MB or
 * more; training that has run half a second), so pipes, logs and tests never see it; redrawn at
 * most ten times a second, and erased when the job ends. */
#ifndef TF_PROGRESS_H
#define TF_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

/* Writes smaller than this many bytes finish too fast for a bar to help. */
#define PROGRESS_MIN_BYTES (64u << 20)

typedef enum {
    PROGRESS_BYTES, /* done and total are bytes written: GB and GB/s */
    PROGRESS_WORDS, /* words of a corpus trained on: words/s, shown after half a second */
    PROGRESS_FRAMES, /* frames of an animation drawn: frames/s, shown after half a second */
    PROGRESS_SHARE, /* a share of a job (total 1): the percentage only, after half a second */
} progress_unit;

typedef struct {
    bool on;           /* drawing at all */
    bool shown;        /* a bar is on the screen */
    progress_unit unit;
    double total;      /* of the job, in its unit */
    double t0, last;   /* start and last redraw, seconds */
    const char *label; /* what is being done */
} tf_progress;

void progress_start(tf_progress *p, const char *label, progress_unit unit, double total);
/* done of total are finished; extra (NULL: none) is shown after the numbers ("epoch 2/5"). */
void progress_update(tf_progress *p, double done, const char *extra);
/* Erase the bar. */
void progress_end(tf_progress *p);

#endif
