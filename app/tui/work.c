/* work.c — long work off the input path: one worker thread, one job at a time.
 *
 * At the article's scale (d_model 4096, n = 10,000) some parts of a screen cost seconds: view 4's
 * uniqueness over every position, view 6's order experiment, view 7's projections, view 9's
 * curves. A key must answer at once, so the screen that needs them asks for a job and draws
 * "computing" where its numbers go, and the loop keeps reading keys while a thread computes.
 *
 * A job belongs to an owner (any address: a view's state, a part of the analysis) and carries a
 * tag (the analysis generation, and whatever else its result depends on). Its context is its
 * own: the job reads its inputs from it and writes its result into it, and the loop reads it
 * only once the thread has been joined. The newest request wins: asking for a job cancels the
 * one that runs (it stops between chunks, or finishes and is kept if it did) and replaces the one
 * waiting. A result is handed out only for the tag asked for, so a stale result is never drawn
 * as if it were current. work_stop cancels, joins and frees everything (q, Esc, a signal). */
#define _GNU_SOURCE /* syscall(SYS_gettid): the worker's own nice value */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "tui/view.h"

typedef struct {
    const void *who;
    uint64_t tag;
    const work_kind *kind; /* NULL: an empty slot */
    void *ctx;
} work_item;

#define RESULTS 4 /* finished results not taken yet (one per owner at most) */

static struct {
    work_item run;      /* the job on the thread */
    pthread_t th;
    bool on;            /* run is started and not yet joined */
    bool complete;      /* run's kind said its result is whole */
    atomic_bool done, cancel;
    work_item next;     /* the job that waits for the thread */
    work_item results[RESULTS];
    bool fresh;         /* a job finished since work_poll last said so */
} W;

static bool same(const work_item *i, const void *who, uint64_t tag)
{
    return i->kind && i->who == who && i->tag == tag;
}

static void drop(work_item *i)
{
    if (i->kind && i->kind->drop)
        i->kind->drop(i->ctx);
    i->kind = NULL;
}

static void *thread_main(void *arg)
{
    (void)arg;
    /* below the input loop on a busy machine: a key's frame first, the numbers after it (Linux
     * gives each thread its own nice value; elsewhere this fails harmlessly) */
    (void)setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 10);
    W.complete = W.run.kind->run(W.run.ctx, &W.cancel);
    atomic_store(&W.done, true);
    return NULL;
}

/* Keep a finished result: it replaces its owner's older one, else takes a free slot (or the
 * first). */
static void keep(work_item *i)
{
    int slot = -1;
    for (int r = 0; r < RESULTS && slot < 0; r++)
        if (W.results[r].kind && W.results[r].who == i->who)
            slot = r;
    for (int r = 0; r < RESULTS && slot < 0; r++)
        if (!W.results[r].kind)
            slot = r;
    slot = slot < 0 ? 0 : slot;
    drop(&W.results[slot]);
    W.results[slot] = *i;
    i->kind = NULL;
}

static void start(work_item *i)
{
    W.run = *i;
    i->kind = NULL;
    atomic_store(&W.done, false);
    atomic_store(&W.cancel, false);
    /* signals go to the loop's thread (its get_wch wakes up to them), never to the worker */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int rc = pthread_create(&W.th, NULL, thread_main, NULL);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc != 0) { /* no thread: compute here, as before there was one */
        W.complete = W.run.kind->run(W.run.ctx, &W.cancel);
        atomic_store(&W.done, true);
        W.on = false;
        keep(&W.run);
        W.fresh = true;
        return;
    }
    W.on = true;
}

/* Join a finished job (keeping its result if it is whole) and start the waiting one. */
static void poll_jobs(void)
{
    if (W.on && atomic_load(&W.done)) {
        pthread_join(W.th, NULL);
        W.on = false;
        if (W.complete)
            keep(&W.run);
        else
            drop(&W.run);
        W.fresh = true;
    }
    if (!W.on && W.next.kind)
        start(&W.next);
}

void work_submit(const void *who, uint64_t tag, const work_kind *kind, void *ctx)
{
    poll_jobs();
    work_item item = {who, tag, kind, ctx};
    bool have = (W.on && same(&W.run, who, tag) && !atomic_load(&W.cancel));
    for (int r = 0; r < RESULTS && !have; r++)
        have = same(&W.results[r], who, tag);
    if (have) {
        drop(&item);
        return;
    }
    drop(&W.next);
    if (!W.on) {
        start(&item);
        return;
    }
    if (!same(&W.run, who, tag))
        atomic_store(&W.cancel, true);
    W.next = item;
}

void *work_take(const void *who, uint64_t tag)
{
    poll_jobs();
    for (int r = 0; r < RESULTS; r++) {
        work_item *i = &W.results[r];
        if (!i->kind || i->who != who)
            continue;
        if (i->tag != tag) { /* made for what is no longer on screen */
            drop(i);
            continue;
        }
        void *ctx = i->ctx;
        i->kind = NULL;
        return ctx;
    }
    return NULL;
}

bool work_pending(const void *who, uint64_t tag)
{
    poll_jobs();
    return (W.on && same(&W.run, who, tag)) || same(&W.next, who, tag);
}

void work_wait(const void *who, uint64_t tag, int ms)
{
    struct timespec t0, now, nap = {0, 1000000};
    clock_gettime(CLOCK_MONOTONIC, &t0);
    while (work_pending(who, tag)) {
        clock_gettime(CLOCK_MONOTONIC, &now);
        if ((now.tv_sec - t0.tv_sec) * 1000 + (now.tv_nsec - t0.tv_nsec) / 1000000 >= ms)
            return;
        nanosleep(&nap, NULL);
    }
}

bool work_busy(void)
{
    poll_jobs();
    return W.on || W.next.kind;
}

bool work_poll(void)
{
    poll_jobs();
    bool f = W.fresh;
    W.fresh = false;
    return f;
}

void work_stop(void)
{
    drop(&W.next);
    if (W.on) {
        atomic_store(&W.cancel, true);
        pthread_join(W.th, NULL);
        W.on = false;
        drop(&W.run);
    }
    for (int r = 0; r < RESULTS; r++)
        drop(&W.results[r]);
    W.fresh = false;
}
