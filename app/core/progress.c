/* progress.c — the stderr progress bar: percent, amount, rate, time left. */
#define _POSIX_C_SOURCE 200809L
#include "core/progress.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

#define BAR_CELLS 30
#define WORDS_DELAY_S 0.5 /* training (or an animation) shorter than this needs no bar */

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec / 1e9;
}

void progress_start(tf_progress *p, const char *label, progress_unit unit, double total)
{
    bool worth = unit != PROGRESS_BYTES || total >= PROGRESS_MIN_BYTES;
    *p = (tf_progress){.on = worth && isatty(STDERR_FILENO), .unit = unit, .total = total,
                       .label = label};
    p->t0 = p->last = now_s();
}

void progress_update(tf_progress *p, double done, const char *extra)
{
    if (!p->on)
        return;
    double t = now_s();
    bool last = done >= p->total;
    if ((t - p->last < 0.1 && !last) || (p->unit != PROGRESS_BYTES && t - p->t0 < WORDS_DELAY_S))
        return;
    p->last = t;
    double frac = p->total > 0 ? done / p->total : 1.0;
    double rate = t > p->t0 ? done / (t - p->t0) : 0.0; /* units per second */
    int full = (int)(frac * BAR_CELLS + 0.5);
    char bar[BAR_CELLS + 1];
    for (int i = 0; i < BAR_CELLS; i++)
        bar[i] = i < full ? '#' : '.';
    bar[BAR_CELLS] = '\0';
    /* ASCII only: East-Asian-ambiguous block characters may be two columns wide */
    fprintf(stderr, "\r%s [%s] %5.1f%%  ", p->label, bar, 100.0 * frac);
    if (p->unit == PROGRESS_BYTES)
        fprintf(stderr, "%.2f / %.2f GB  %.2f GB/s", done / 1e9, p->total / 1e9, rate / 1e9);
    else if (p->unit == PROGRESS_FRAMES)
        fprintf(stderr, "%.0f / %.0f frames", done, p->total); /* 80 columns in all */
    else if (p->unit == PROGRESS_WORDS)
        fprintf(stderr, "%.0f words/s", rate);
    if (extra)
        fprintf(stderr, "  %s", extra);
    fprintf(stderr, "  剩余 / left %.0f s ", rate > 0 ? (p->total - done) / rate : 0.0);
    fflush(stderr);
    p->shown = true;
}

void progress_end(tf_progress *p)
{
    if (p->shown) {
        fputs("\r\033[K", stderr); /* back to the line start, erase to its end */
        fflush(stderr);
    }
    p->on = p->shown = false;
}
