/* bench_cli.c — tfviz as a user runs it: start-up time, peak memory, streaming throughput.
 *
 * Runs the program with fork/exec, output to /dev/null, many times, and prints tab-separated
 * lines for bench/run.sh: name, median, unit, min, max, goal. Peak memory is the child's
 * ru_maxrss from wait4.
 *
 *   bench_cli TFVIZ [--quick]
 */
#define _DEFAULT_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

typedef struct {
    double ms;   /* wall time */
    long maxrss; /* peak resident set, KiB */
    int status;  /* exit status, -1 if it did not exit normally */
} run_result;

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* Run argv with stdout and stderr on /dev/null. */
static run_result run(const char *const argv[])
{
    run_result r = {0, 0, -1};
    double t0 = now_ms();
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open("/dev/null", O_WRONLY);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
        }
        execv(argv[0], (char *const *)argv); /* execv does not change them */
        _exit(127);
    }
    if (pid < 0)
        return r;
    int st;
    struct rusage ru;
    if (wait4(pid, &st, 0, &ru) != pid)
        return r;
    r.ms = now_ms() - t0;
    r.maxrss = ru.ru_maxrss;
    r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return r;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Run reps times; print the median, min and max of the wall time (or of the peak memory). */
static int bench(const char *name, const char *const argv[], int reps, int memory, const char *goal)
{
    double *v = malloc((size_t)reps * sizeof *v);
    for (int i = 0; i < reps; i++) {
        run_result r = run(argv);
        if (r.status != 0) {
            printf("# %s: %s exited with status %d\n", name, argv[0], r.status);
            free(v);
            return 1;
        }
        v[i] = memory ? r.maxrss / 1024.0 : r.ms;
    }
    qsort(v, (size_t)reps, sizeof *v, cmp_double);
    double med = reps % 2 ? v[reps / 2] : 0.5 * (v[reps / 2 - 1] + v[reps / 2]);
    printf("%s\t%.4g\t%s\t%.4g\t%.4g\t%s\n", name, med, memory ? "MB" : "ms", v[0], v[reps - 1],
           goal);
    fflush(stdout);
    free(v);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_cli TFVIZ [--quick]\n");
        return 2;
    }
    const char *exe = argv[1];
    int quick = argc > 2 && !strcmp(argv[2], "--quick");
    int fails = 0;

    const char *tokens[] = {exe, "--print", "tokens", NULL};
    fails += bench("startup_print_tokens", tokens, quick ? 51 : 201, 0, "<10");

    const char *emb[] = {exe, "--print", "embedding", NULL};
    fails += bench("embedding_v100k_peak_rss", emb, 3, 1, "<50");
    const char *emb4096[] = {exe, "--print", "embedding", "-d", "4096", NULL};
    fails += bench("embedding_v100k_d4096_peak_rss", emb4096, 1, 1, "<50");
    fails += bench("embedding_v100k_d4096", emb4096, quick ? 1 : 3, 0, "");

    /* streaming PE: 100,000 x 4096 float32 = 1.6 GB to /dev/null; memory must stay flat */
    const char *pe[] = {exe,  "--print", "pe", "--format", "npy",
                        "-n", "100000",  "-d", "4096",     NULL};
    fails += bench("pe_npy_stream_1.6GB", pe, quick ? 1 : 3, 0, "");
    fails += bench("pe_npy_stream_1.6GB_peak_rss", pe, 1, 1, "<50");
    return fails ? 1 : 0;
}
