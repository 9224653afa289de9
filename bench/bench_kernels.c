/* bench_kernels.c — the fast kernels against this machine's memory bandwidth.
 *
 * Prints one line per measurement, tab-separated, as bench/run.sh collects them:
 *   name  median  unit  min  max  [goal]
 * Times are wall-clock milliseconds over several repetitions into the same (reused, already
 * touched) buffer. The floor is what storing (memset) or reading and writing (an in-place scale)
 * the same bytes costs; every kernel is then read as "x floor".
 *
 *   bench_kernels [--quick] [--reps N]
 *   bench_kernels --isa        the variant the kernels use on this CPU
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "embedding.h"
#include "isa.h"
#include "posenc.h"
#include "rope.h"

/* ---------------------------------------------------------------------------------------------
 * Timing: median, min and max of reps runs */

typedef struct {
    double med, min, max;
} stats;

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static stats summarise(double *t, int reps)
{
    qsort(t, (size_t)reps, sizeof *t, cmp_double);
    stats s = {reps % 2 ? t[reps / 2] : 0.5 * (t[reps / 2 - 1] + t[reps / 2]), t[0], t[reps - 1]};
    return s;
}

static void report(const char *name, stats s, const char *goal)
{
    printf("%s\t%.4g\tms\t%.4g\t%.4g\t%s\n", name, s.med, s.min, s.max, goal ? goal : "");
    fflush(stdout);
}

/* ---------------------------------------------------------------------------------------------
 * The kernels under test, each one call that the harness repeats */

typedef struct {
    float *buf; /* (n, d) row-major, reused across repetitions */
    long n;
    int d;
    tf_isa isa;
    rope_style style;
    volatile float scale; /* volatile: the floor's in-place scale must really happen */
} job;

static void run_memset(job *j)
{
    memset(j->buf, 0, (size_t)j->n * j->d * sizeof *j->buf);
}

static void run_scale(job *j)
{
    float k = j->scale;
    size_t m = (size_t)j->n * j->d;
    for (size_t i = 0; i < m; i++)
        j->buf[i] *= k;
}

static void run_pe(job *j)
{
    posenc_fill_f32_isa(j->isa, 0, j->n, j->d, 10000.0, j->buf);
}

static void run_rope(job *j)
{
    rope_apply_f32_isa(j->isa, j->buf, j->n, j->d, 10000.0, 0, j->style);
}

/* One timed kernel of the round-robin. */
typedef struct {
    char name[48];
    void (*fn)(job *);
    tf_isa isa;
    rope_style style;
    double *t; /* (reps) milliseconds */
} entry;

/* Time every entry once per round, rounds times, in turn: on a shared machine a burst of load
 * then slows every kernel and the floor alike instead of one of them. */
static void time_round_robin(entry *e, int ne, job *j, int reps)
{
    for (int k = 0; k < ne; k++) { /* warm-up: page faults, caches, the ifunc of memset */
        j->isa = e[k].isa;
        j->style = e[k].style;
        e[k].fn(j);
    }
    for (int r = 0; r < reps; r++)
        for (int k = 0; k < ne; k++) {
            j->isa = e[k].isa;
            j->style = e[k].style;
            double t0 = now_ms();
            e[k].fn(j);
            e[k].t[r] = now_ms() - t0;
        }
}

/* ---------------------------------------------------------------------------------------------
 * Accuracy against the float64 references, for the report (the unit tests assert the same) */

static double pe_max_error(const float *pe, long n, int d)
{
    double *omega = malloc((size_t)d / 2 * sizeof *omega), *row = malloc((size_t)d * sizeof *row);
    posenc_freqs(d, 10000.0, omega);
    double worst = 0.0;
    for (long r = 0; r < n; r++) {
        posenc_row_omega((double)r, d, omega, row);
        for (int j = 0; j < d; j++)
            worst = fmax(worst, fabs(row[j] - pe[(size_t)r * d + j]));
    }
    free(omega);
    free(row);
    return worst;
}

static double rope_max_error(const float *x0, const float *x1, long n, int d, rope_style s)
{
    double *in = malloc((size_t)d * sizeof *in), *want = malloc((size_t)d * sizeof *want);
    double worst = 0.0;
    for (long r = 0; r < n; r++) {
        for (int j = 0; j < d; j++)
            in[j] = x0[(size_t)r * d + j];
        rope_rotate(in, d, 10000.0, (double)r, s, want);
        for (int j = 0; j < d; j++)
            worst = fmax(worst, fabs(want[j] - x1[(size_t)r * d + j]));
    }
    free(in);
    free(want);
    return worst;
}

/* Deterministic test data in [-1, 1): a 32-bit LCG. */
static void fill_data(float *x, size_t m)
{
    unsigned s = 12345u;
    for (size_t i = 0; i < m; i++) {
        s = s * 1664525u + 1013904223u;
        x[i] = (float)((s >> 8) * (1.0 / 8388608.0) - 1.0);
    }
}

int main(int argc, char **argv)
{
    long n = 8192;
    int d = 4096, reps = 11, quick = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick"))
            quick = 1;
        else if (!strcmp(argv[i], "--isa")) {
            puts(tf_isa_name(tf_isa_best()));
            return 0;
        } else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
            reps = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: bench_kernels [--quick] [--reps N] | --isa\n");
            return 2;
        }
    }
    if (quick)
        reps = reps < 5 ? reps : 5;
    if (reps < 1)
        reps = 1;
    size_t m = (size_t)n * d;
    float *buf = aligned_alloc(64, m * sizeof *buf), *copy = malloc(m * sizeof *copy);
    if (!buf || !copy) {
        fprintf(stderr, "bench_kernels: cannot allocate 2 x %zu MB\n", m * 4 >> 20);
        return 1;
    }
    job j = {.buf = buf, .n = n, .d = d, .isa = tf_isa_best(), .scale = 1.0f};
    printf("# bench_kernels: %ld x %d float32 (%.0f MB), %d repetitions, best isa %s\n", n, d,
           m * 4 / 1e6, reps, tf_isa_name(tf_isa_best()));

    /* 1. the floors (store the bytes; read and write them in place), PE and RoPE in both
     *    pairings for every variant this CPU runs, and for the variant the program uses */
    entry e[32];
    int ne = 0;
    fill_data(buf, m);
#define ADD(fn_, isa_, style_, ...)                                                                \
    do {                                                                                           \
        e[ne] = (entry){.fn = fn_, .isa = isa_, .style = style_};                                  \
        snprintf(e[ne].name, sizeof e[ne].name, __VA_ARGS__);                                      \
        e[ne].t = malloc((size_t)reps * sizeof(double));                                           \
        ne++;                                                                                      \
    } while (0)
    ADD(run_memset, TF_ISA_DEFAULT, ROPE_INTERLEAVED, "floor_store");
    ADD(run_scale, TF_ISA_DEFAULT, ROPE_INTERLEAVED, "floor_rw");
    ADD(run_pe, tf_isa_best(), ROPE_INTERLEAVED, "pe_f32");
    for (int s = 0; s < ROPE_STYLE_COUNT; s++)
        ADD(run_rope, tf_isa_best(), (rope_style)s, "rope_%s", rope_style_name((rope_style)s));
    for (int isa = 0; isa < TF_ISA_COUNT; isa++) {
        if (!tf_isa_supported((tf_isa)isa))
            continue;
        ADD(run_pe, (tf_isa)isa, ROPE_INTERLEAVED, "pe_f32_%s", tf_isa_name((tf_isa)isa));
        for (int s = 0; s < ROPE_STYLE_COUNT; s++)
            ADD(run_rope, (tf_isa)isa, (rope_style)s, "rope_%s_%s", rope_style_name((rope_style)s),
                tf_isa_name((tf_isa)isa));
    }
#undef ADD
    time_round_robin(e, ne, &j, reps);
    for (int k = 0; k < ne; k++) {
        report(e[k].name, summarise(e[k].t, reps), NULL);
        free(e[k].t);
    }

    /* 2. accuracy of what the program uses against the float64 references */
    j.isa = tf_isa_best();
    run_pe(&j);
    double err = pe_max_error(buf, quick ? 1024 : n, d);
    printf("pe_f32_max_error\t%.3g\tabs\t%.3g\t%.3g\t<=1e-6\n", err, err, err);
    for (int s = 0; s < ROPE_STYLE_COUNT; s++) {
        fill_data(copy, m);
        memcpy(buf, copy, m * sizeof *buf);
        rope_apply_f32(buf, n, d, 10000.0, 0, (rope_style)s);
        err = rope_max_error(copy, buf, quick ? 1024 : n, d, (rope_style)s);
        printf("rope_%s_max_error\t%.3g\tabs\t%.3g\t%.3g\t<=1e-6\n", rope_style_name((rope_style)s),
               err, err, err);
    }
    fflush(stdout);

    /* 3. onehot . W_E the long way: V = 100,000 rows of d = 4096, four tokens */
    tf_embedding emb;
    embedding_init(&emb, 100000, 4096, 42);
    const int32_t ids[4] = {17, 99999, 3, 17};
    float *out = malloc(4 * 4096 * sizeof *out);
    double t[5];
    int er = quick ? 1 : 3;
    for (int r = 0; r < er; r++) {
        double t0 = now_ms();
        embedding_onehot_product(&emb, ids, 4, out);
        t[r] = now_ms() - t0;
    }
    report("onehot_product_v100k_d4096", summarise(t, er), NULL);
    free(out);

    free(buf);
    free(copy);
    return 0;
}
