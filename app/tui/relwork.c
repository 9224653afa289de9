/* relwork.c — the long part of view 4's analysis, computed off the input path.
 *
 * Uniqueness over n positions and the M_k residual over all of them cost O(n d) sines: about a
 * second at the article's n = 10,000 and d_model = 4096. A key must answer at once, so one worker
 * thread computes them for the analysis on screen while the loop keeps reading keys; the view
 * says "computing" where the numbers go. A job for an analysis that a key has replaced is
 * cancelled between chunks of positions and its result dropped. The worker reads only its own
 * copy of the configuration and writes only its job; the loop reads the result after joining. */
#define _GNU_SOURCE /* syscall(SYS_gettid): the worker's own nice value */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "posenc.h"
#include "tui/view.h"

#define CHUNK 256 /* positions between two looks at the cancel flag */

typedef struct {
    pthread_t th;
    bool started;
    atomic_bool done, cancel;
    unsigned gen; /* the analysis generation the job is for */
    long pos0, n, k;
    int d;
    double base;
    bool ok;
    double max_residual, min_distance;
    long pair[2];
} relwork;

static relwork job;

static void *work(void *arg)
{
    relwork *j = arg;
    /* below the input loop on a busy machine: a key's frame first, the numbers after it (Linux
     * gives each thread its own nice value; elsewhere this fails harmlessly) */
    (void)setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 10);
    double worst = 0;
    bool ok = true;
    long end = j->pos0 + j->n - j->k; /* the residual's rows p: pos0 <= p < end */
    for (long p = j->pos0; p < end && ok; p += CHUNK) {
        if (atomic_load(&j->cancel))
            ok = false;
        long stop = p + CHUNK < end ? p + CHUNK : end;
        double r = ok ? posenc_relative_residual(p, stop - p + j->k, j->d, j->base, j->k) : 0;
        if (isnan(r))
            ok = false;
        worst = fmax(worst, r);
    }
    if (ok && !atomic_load(&j->cancel)) {
        j->max_residual = worst;
        j->min_distance = posenc_min_distance(j->pos0, j->n, j->d, j->base, &j->pair[0],
                                              &j->pair[1]);
    }
    j->ok = ok && !atomic_load(&j->cancel);
    atomic_store(&j->done, true);
    return NULL;
}

static void collect(tui *t)
{
    pthread_join(job.th, NULL);
    job.started = false;
    if (job.ok && job.gen == t->generation) {
        t->a->max_residual = job.max_residual;
        t->a->min_distance = job.min_distance;
        t->a->min_pair[0] = job.pair[0], t->a->min_pair[1] = job.pair[1];
        t->a->done |= ANALYSIS_RELATIVE;
    }
}

bool relwork_ensure(tui *t, bool start)
{
    if (t->a->done & ANALYSIS_RELATIVE)
        return true;
    if (job.started && atomic_load(&job.done))
        collect(t);
    if (t->a->done & ANALYSIS_RELATIVE)
        return true;
    if (job.started) { /* still busy: with an older analysis it stops soon and is started anew */
        if (job.gen != t->generation)
            atomic_store(&job.cancel, true);
        return false;
    }
    if (!start)
        return false;
    const tf_config *c = &t->a->cfg;
    job.gen = t->generation;
    job.pos0 = c->index_base, job.n = c->n_positions, job.k = c->offset;
    job.d = c->d_model, job.base = c->base;
    atomic_store(&job.done, false);
    atomic_store(&job.cancel, false);
    if (pthread_create(&job.th, NULL, work, &job) != 0) {
        work(&job); /* no thread: compute here, as before */
        job.started = true;
        collect(t);
        return (t->a->done & ANALYSIS_RELATIVE) != 0;
    }
    job.started = true;
    return false;
}

bool relwork_busy(void)
{
    return job.started;
}

bool relwork_finished(void)
{
    return job.started && atomic_load(&job.done);
}

void relwork_stop(void)
{
    if (!job.started)
        return;
    atomic_store(&job.cancel, true);
    pthread_join(job.th, NULL);
    job.started = false;
}
