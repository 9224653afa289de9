/* bench_tokens.c — tokenizer throughput: split every line of a text file, as word2vec training
 * does with corpus lines, and report megabytes per second.
 *
 *   bench_tokens MODE FILE [REPEATS]     MODE: word, char, cl100k or o200k
 *
 * Prints one JSON object: mode, bytes, tokens, seconds (best of REPEATS passes), mb_per_s.
 * Time is the process's CPU time, so that other work on a shared machine does not count.
 * The data directory is $TFVIZ_DATA_DIR. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis.h"
#include "tokenizer.h"
#include "vocab.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fputs("usage: bench_tokens word|char|cl100k|o200k FILE [REPEATS]\n", stderr);
        return 2;
    }
    tf_config c;
    config_defaults(&c);
    c.tokenizer = tokenizer_parse(argv[1]);
    c.data_dir = getenv("TFVIZ_DATA_DIR");
    int repeats = argc > 3 ? atoi(argv[3]) : 3;
    if (c.tokenizer == TOKENIZER_COUNT || repeats < 1) {
        fputs("bench_tokens: unknown mode or bad repeat count\n", stderr);
        return 2;
    }
    FILE *fp = fopen(argv[2], "rb");
    if (!fp) {
        perror(argv[2]);
        return 1;
    }
    fseek(fp, 0, SEEK_END);
    long size = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    char *text = malloc((size_t)size + 1);
    if (!text || fread(text, 1, (size_t)size, fp) != (size_t)size) {
        fputs("bench_tokens: cannot read the file\n", stderr);
        return 1;
    }
    fclose(fp);
    tf_vocab *v;
    tf_status st = analysis_vocab(&c, &v);
    if (st != TF_OK) {
        fprintf(stderr, "bench_tokens: %s\n", tf_status_str(st));
        return 1;
    }
    double best = 1e300;
    size_t tokens = 0;
    for (int r = 0; r < repeats; r++) {
        double t0 = now();
        tokens = 0;
        for (char *line = text, *end; line < text + size; line = end + 1) {
            end = memchr(line, '\n', (size_t)(text + size - line));
            if (!end)
                end = text + size;
            tf_tokens t;
            if (tokenizer_split_any(v, c.tokenizer, line, (size_t)(end - line), &t, NULL) ==
                TF_OK) {
                tokens += t.n;
                tokens_free(&t);
            }
        }
        double dt = now() - t0;
        best = dt < best ? dt : best;
    }
    printf("{\"mode\": \"%s\", \"bytes\": %ld, \"tokens\": %zu, \"seconds\": %.6f, "
           "\"mb_per_s\": %.3f}\n",
           argv[1], size, tokens, best, (double)size / best / 1e6);
    vocab_free(v);
    free(text);
    return 0;
}
