/* bench_order.c — training the order model (issue: watch attention fail without positions):
 * the time to train the four schemes of the order experiment, and the six, at the defaults.
 *
 * Prints tab-separated lines for bench/run.sh (name, median, unit, min, max, goal):
 *   order_train_4_1thread   none, sinusoidal, learned, rope one after another, wall ms
 *   order_train_4_2threads  the same on two threads (the schemes run in parallel), wall ms
 *   order_train_4_cpu       CPU time of the one-thread run, ms (what load on the machine cannot
 *                           inflate)
 *   order_train_6_2threads  the six schemes (with alibi and t5) on two threads
 *   order_sentence_fwd_bwd  one training sentence, forward and backward, microseconds
 *   order_acc_<scheme>      held-out accuracy after the default training, percent
 * and a short report: the curves of the four schemes.
 *
 *   bench_order [--quick] [--reps N]
 *   bench_order --write-task FILE    write the default task in the file format (for the peers)
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "order_train.h"

/* ---------------------------------------------------------------------------------------------
 * Timing */

static double clock_ms(clockid_t id)
{
    struct timespec t;
    clock_gettime(id, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void report(const char *name, double *t, int reps, const char *unit, const char *goal)
{
    qsort(t, (size_t)reps, sizeof *t, cmp_double);
    double med = reps % 2 ? t[reps / 2] : 0.5 * (t[reps / 2 - 1] + t[reps / 2]);
    printf("%s\t%.4g\t%s\t%.4g\t%.4g\t%s\n", name, med, unit, t[0], t[reps - 1], goal);
    fflush(stdout);
}

static const tf_scheme SCHEMES[] = {SCHEME_NONE, SCHEME_SINUSOIDAL, SCHEME_LEARNED,
                                    SCHEME_ROPE, SCHEME_ALIBI,      SCHEME_T5};

/* Train n schemes to the end on `threads` threads; wall and CPU milliseconds. The trainer is
 * kept in *keep (for the accuracies) when keep is not NULL. */
static int train(const order_task *t, size_t n, int threads, double *wall, double *cpu,
                 order_trainer **keep)
{
    order_train_cfg c;
    order_train_defaults(&c);
    order_trainer *tr;
    const char *why;
    if (order_trainer_new(&tr, t, &c, SCHEMES, n, &why) != TF_OK) {
        fprintf(stderr, "bench_order: %s\n", why ? why : "out of memory");
        return -1;
    }
    double w0 = clock_ms(CLOCK_MONOTONIC), c0 = clock_ms(CLOCK_PROCESS_CPUTIME_ID);
    order_trainer_run(tr, threads);
    *wall = clock_ms(CLOCK_MONOTONIC) - w0;
    *cpu = clock_ms(CLOCK_PROCESS_CPUTIME_ID) - c0;
    if (keep)
        *keep = tr;
    else
        order_trainer_free(tr);
    return 0;
}

/* Microseconds per training sentence (forward and backward) at the defaults, over the whole
 * training split. */
static double sentence_us(const order_task *t)
{
    order_train_cfg c;
    order_train_defaults(&c);
    order_model m;
    order_work w;
    if (order_model_init(&m, SCHEME_SINUSOIDAL, t->V, &c.model) != TF_OK ||
        order_work_init(&w, &m) != TF_OK)
        return 0.0;
    uint32_t *idx = malloc(t->n_sent * sizeof *idx);
    uint32_t n = 0;
    for (uint32_t s = 0; s < t->n_sent; s++)
        if (t->split[s] == ORDER_TRAIN)
            idx[n++] = s;
    double t0 = clock_ms(CLOCK_MONOTONIC);
    order_model_batch(&m, &w, t, idx, n, true, NULL);
    double us = (clock_ms(CLOCK_MONOTONIC) - t0) * 1e3 / n;
    free(idx);
    order_work_free(&w);
    order_model_free(&m);
    return us;
}

int main(int argc, char **argv)
{
    int reps = 5;
    const char *task_file = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick"))
            reps = 3;
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
            reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--write-task") && i + 1 < argc)
            task_file = argv[++i];
        else {
            fprintf(stderr, "usage: bench_order [--quick] [--reps N] [--write-task FILE]\n");
            return 2;
        }
    }
    if (reps < 1 || reps > 1000)
        reps = 5;
    order_gen_cfg g;
    order_gen_defaults(&g);
    order_task t;
    if (order_task_generate(&t, &g) != TF_OK) {
        fprintf(stderr, "bench_order: cannot generate the task\n");
        return 1;
    }
    if (task_file) {
        FILE *f = fopen(task_file, "w");
        tf_status st = f ? order_task_write(&t, f) : TF_ERR_IO;
        if (f && fclose(f) != 0)
            st = TF_ERR_IO;
        order_task_free(&t);
        if (st != TF_OK)
            fprintf(stderr, "bench_order: cannot write %s\n", task_file);
        return st == TF_OK ? 0 : 1;
    }

    double *w1 = malloc(4 * (size_t)reps * sizeof *w1), *c1 = w1 + reps, *w2 = c1 + reps,
           *w6 = w2 + reps, cpu;
    order_trainer *kept = NULL;
    /* the three runs take turns, so a burst of load elsewhere slows all of them */
    for (int r = 0; r < reps; r++) {
        if (train(&t, 4, 1, &w1[r], &c1[r], r == 0 ? &kept : NULL) ||
            train(&t, 4, 2, &w2[r], &cpu, NULL) || train(&t, 6, 2, &w6[r], &cpu, NULL))
            return 1;
    }
    if (!kept)
        return 1;
    report("order_train_4_1thread", w1, reps, "ms", "<10000");
    report("order_train_4_2threads", w2, reps, "ms", "<10000");
    report("order_train_4_cpu", c1, reps, "ms", "<10000");
    report("order_train_6_2threads", w6, reps, "ms", "");
    double us[9];
    for (int r = 0; r < 9; r++)
        us[r] = sentence_us(&t);
    report("order_sentence_fwd_bwd", us, 9, "us", "");

    /* accuracy after the default training (deterministic: the same every repetition) */
    const order_train_cfg *cfg = order_trainer_cfg(kept);
    for (size_t k = 0; k < 4; k++) {
        size_t n;
        const order_point *p = order_trainer_curve(kept, k, &n);
        double acc = 100 * p[n - 1].test_acc;
        char name[64];
        snprintf(name, sizeof name, "order_acc_%s", scheme_name(SCHEMES[k]));
        printf("%s\t%.4g\t%%\t%.4g\t%.4g\t%s\n", name, acc, acc, acc,
               SCHEMES[k] == SCHEME_NONE ? "<=55" : ">=95");
    }
    printf("\nbench_order: the default task (%u training, %u held-out sentences), d_model %d, %d "
           "heads, batch %d, %d epochs; held-out accuracy per epoch:\n",
           t.n_split[ORDER_TRAIN], t.n_split[ORDER_TEST], cfg->model.d_model, cfg->model.heads,
           cfg->batch, cfg->epochs);
    for (size_t k = 0; k < 4; k++) {
        size_t n;
        const order_point *p = order_trainer_curve(kept, k, &n);
        printf("  %-10s", scheme_name(SCHEMES[k]));
        for (size_t i = 0; i < n; i++)
            printf(" %5.1f", 100 * p[i].test_acc);
        printf("\n");
    }
    order_trainer_free(kept);
    free(w1);
    order_task_free(&t);
    return 0;
}
