/* order_sweep.c — how often the order experiment's visibility claims fail, over many random
 * sentences: for each d_model and sentence length, random token ids (at least two different
 * ids, sometimes a repeated one), sentence b the reversal of a or a random other order, several
 * seeds (order_sentences.h). A sentence fails when, for the head the experiment reports
 * (attention_order_choose), one of the claims of order_claims_hold does not hold.
 *
 * Prints one line per (d, T) with the number of failures, then "failures: N of M".
 *
 *   order_sweep [--dims 8,64,512] [--lengths 2,3,40] [--seeds 3] [--n 20] [--head0]
 *
 * --n is the number of sentences per (d, T, seed) at d <= 512; wider models get fewer (their
 * head costs T d^2). Without --head0 each line also counts the sentences head 0 alone misses
 * (the single head before the rule: the rule tried another); --head0 reports head 0 only, to
 * compare. Exit status 1 when any sentence fails. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attention.h"
#include "embedding.h"
#include "order_sentences.h"
#include "rng.h"

enum { VOCAB = 100000, MAX_LIST = 64 };

static int parse_list(const char *s, int *out)
{
    int n = 0;
    while (*s && n < MAX_LIST) {
        char *end;
        long v = strtol(s, &end, 10);
        if (end == s)
            return -1;
        out[n++] = (int)v;
        s = *end == ',' ? end + 1 : end;
    }
    return n;
}

int main(int argc, char **argv)
{
    int dims[MAX_LIST] = {8, 64, 512, 4096, 16384}, nd = 5;
    int lens[MAX_LIST] = {2, 3, 4, 5, 6, 8, 12, 20, 40}, nl = 9;
    int seeds = 3, per = 20;
    bool head0 = false, verbose = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--dims") && i + 1 < argc)
            nd = parse_list(argv[++i], dims);
        else if (!strcmp(argv[i], "--lengths") && i + 1 < argc)
            nl = parse_list(argv[++i], lens);
        else if (!strcmp(argv[i], "--seeds") && i + 1 < argc)
            seeds = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--n") && i + 1 < argc)
            per = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--head0"))
            head0 = true;
        else if (!strcmp(argv[i], "-v"))
            verbose = true;
        else {
            fprintf(stderr, "usage: order_sweep [--dims LIST] [--lengths LIST] [--seeds N] "
                            "[--n N] [--head0] [-v]\n");
            return 2;
        }
    }
    if (nd <= 0 || nl <= 0 || seeds <= 0 || per <= 0) {
        fprintf(stderr, "order_sweep: empty list or count\n");
        return 2;
    }
    long total = 0, failed = 0, missed = 0;
    for (int k = 0; k < nd; k++) {
        int d = dims[k];
        /* fewer sentences where one costs seconds */
        int n_here = d <= 512 ? per : d <= 4096 ? (per + 3) / 4 : (per + 9) / 10;
        for (int l = 0; l < nl; l++) {
            size_t T = (size_t)lens[l];
            int n_sent = T > 8 && d > 512 ? (n_here + 1) / 2 : n_here;
            long f_here = 0, n_done = 0, head0_missed = 0;
            double worst[ATTN_MODE_COUNT] = {INFINITY, INFINITY, INFINITY};
            double worst_range = INFINITY;
            int heads_max = 0;
            for (int s = 0; s < seeds; s++) {
                uint64_t seed = 42 + (uint64_t)s * 1000003;
                tf_embedding e;
                if (embedding_init(&e, VOCAB, d, seed) != TF_OK)
                    return 2;
                int32_t *ids = malloc(T * sizeof *ids);
                size_t *perm = malloc(T * sizeof *perm);
                double *emb = malloc(T * (size_t)d * sizeof *emb);
                float *row = malloc((size_t)d * sizeof *row);
                if (!ids || !perm || !emb || !row)
                    return 2;
                uint64_t z = rng_mix(seed ^ ((uint64_t)d << 20) ^ T);
                for (int n = 0; n < n_sent; n++) {
                    order_sentence_draw(&z, n, T, VOCAB, ids, perm);
                    order_sentence_rows(&e, ids, T, d, row, emb);
                    tf_attn_cfg c = attention_head_cfg(seed, d, 10000, ROPE_INTERLEAVED, 0);
                    tf_order_result r[ATTN_MODE_COUNT];
                    attn_head_choice ch = {.tried = 1};
                    tf_status st = head0 ? attention_order_all(&c, emb, perm, T, r)
                                         : attention_order_choose(&c, emb, perm, T, r, &ch);
                    if (st != TF_OK)
                        return 2;
                    heads_max = ch.tried > heads_max ? ch.tried : heads_max;
                    head0_missed += ch.tried > 1; /* head 0 alone missed a claim */
                    const char *why = "";
                    bool ok = order_claims_hold(r, perm, T, &why);
                    for (int m = 0; m < ATTN_MODE_COUNT; m++) {
                        if (m)
                            worst[m] = fmin(worst[m], r[m].relative_diff);
                        worst_range = fmin(worst_range, r[m].min_row_range);
                        attention_order_free(&r[m]);
                    }
                    if (!ok && verbose)
                        printf("#   d=%d T=%zu seed %llu sentence %d: %s\n", d, T,
                               (unsigned long long)seed, n, why);
                    f_here += !ok;
                    n_done++;
                }
                free(ids), free(perm), free(emb), free(row);
                embedding_free(&e);
            }
            printf("d=%-5d T=%-2zu %4ld of %4ld fail", d, T, f_here, n_done);
            if (!head0)
                printf(" (head 0 alone: %3ld)", head0_missed);
            printf("  lowest relative_diff PE %.3f RoPE %.3f, lowest row range %.3f, heads "
                   "tried <= %d\n", worst[ATTN_WITH_PE], worst[ATTN_WITH_ROPE], worst_range,
                   heads_max);
            fflush(stdout);
            total += n_done;
            failed += f_here;
            missed += head0_missed;
        }
    }
    printf("failures: %ld of %ld\n", failed, total);
    if (!head0)
        printf("head 0 alone (the head before the rule) missed: %ld of %ld\n", missed, total);
    return failed ? 1 : 0;
}
