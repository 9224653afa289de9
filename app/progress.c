/* progress.c — the stderr progress bar: percent, bytes, rate, time left. */
#define _POSIX_C_SOURCE 200809L
#include "progress.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

#define BAR_CELLS 30

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec / 1e9;
}

void progress_start(tf_progress *p, const char *label, uint64_t total)
{
    p->on = total >= PROGRESS_MIN_BYTES && isatty(STDERR_FILENO);
    p->total = total;
    p->label = label;
    p->t0 = p->last = now_s();
}

void progress_update(tf_progress *p, uint64_t done)
{
    if (!p->on)
        return;
    double t = now_s();
    if (t - p->last < 0.1 && done < p->total)
        return;
    p->last = t;
    double frac = p->total ? (double)done / (double)p->total : 1.0;
    double rate = t > p->t0 ? (double)done / (t - p->t0) : 0.0; /* bytes per second */
    int full = (int)(frac * BAR_CELLS);
    char bar[BAR_CELLS + 1];
    for (int i = 0; i < BAR_CELLS; i++)
        bar[i] = i < full ? '#' : '.';
    bar[BAR_CELLS] = '\0';
    /* ASCII only: East-Asian-ambiguous block characters may be two columns wide */
    fprintf(stderr,
            "\r%s 写出 / writing [%s] %3.0f%%  %.2f / %.2f GB  %.2f GB/s  剩余 / left %.0f s ",
            p->label, bar, 100.0 * frac, (double)done / 1e9, (double)p->total / 1e9, rate / 1e9,
            rate > 0 ? (double)(p->total - done) / rate : 0.0);
    fflush(stderr);
}

void progress_end(tf_progress *p)
{
    if (!p->on)
        return;
    fputs("\r\033[K", stderr); /* back to the line start, erase to its end */
    fflush(stderr);
    p->on = 0;
}
