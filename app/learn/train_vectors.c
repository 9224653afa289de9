/* train_vectors.c — --train: skip-gram word vectors on the corpus with a progress bar, a summary
 * of how similar words moved together, and the vectors written to -o (word2vec binary for .bin,
 * else text). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/emit.h"
#include "core/err.h"
#include "core/outfile.h"
#include "core/progress.h"
#include "core/strings.h"
#include "learn/learn.h"
#include "textwidth.h"

#define STEP_WORDS 20000 /* callback granularity of a command-line run */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The bar, and the loss at the first and the last step for the summary. */
typedef struct {
    tf_progress bar;
    double first_loss, last_loss;
    int epochs;
} progress;

static bool on_step(const w2v_progress *pr, void *user)
{
    progress *p = user;
    if (p->first_loss < 0 && pr->pairs)
        p->first_loss = pr->loss;
    if (pr->pairs)
        p->last_loss = pr->loss;
    char extra[64];
    snprintf(extra, sizeof extra, "epoch %d/%d  loss %.3f",
             pr->epoch < p->epochs ? pr->epoch + 1 : p->epochs, p->epochs, pr->loss);
    progress_update(&p->bar, (double)pr->words_done, extra);
    return true;
}

static bool ends_with(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && strcmp(s + a - b, suf) == 0;
}


/* "  爱: 喜欢 0.812 热爱 0.790 ..." */
static void neighbors_line(FILE *fp, const tf_vectors *v, uint32_t q, size_t k)
{
    vectors_hit *hits = malloc(k * sizeof *hits);
    if (!hits)
        return;
    size_t n = vectors_neighbors(v, q, k, hits);
    fputs("  ", fp);
    emit_safe_text(fp, v->words[q], strlen(v->words[q]));
    fputs(":", fp);
    for (size_t i = 0; i < n; i++) {
        fputc(' ', fp);
        emit_safe_text(fp, v->words[hits[i].row], strlen(v->words[hits[i].row]));
        fprintf(fp, " %.3f", hits[i].cosine);
    }
    fputc('\n', fp);
    free(hits);
}

/* The summary on stdout: the corpus, the settings, the loss, the watched pairs before and after,
 * and the nearest neighbours of a few words. */
static void summary(FILE *fp, const learn_request *r, const learn_session *L, const progress *p,
                    const double before[LEARN_PAIRS], const bool have[LEARN_PAIRS])
{
    const w2v_params *w = &r->params;
    const w2v_model *m = &L->m;
    txt_gloss(fp, T_G_SGNS);
    char *corpus = r->corpus_path ? emit_safe_dup(r->corpus_path) : NULL; /* a path: escaped */
    fprintf(fp,
            "  corpus: %s, %zu sentences, %llu tokens, %u words kept (min count %d), cut by %s\n",
            corpus ? corpus : r->corpus_path ? "?" : "built-in", w2v_corpus_sentences(L->corpus),
            (unsigned long long)w2v_corpus_tokens(L->corpus), m->V, w->min_count,
            L->info.split == CORPUS_SPACES ? "spaces" : tokenizer_name(L->info.kind));
    free(corpus);
    fprintf(fp, "  dim %d, window %d, negative %d, sample %g, epochs %d, seed %llu\n", m->dim,
            w->window, w->negative, w->sample, w->epochs, (unsigned long long)w->seed);
    fprintf(fp, "  loss per pair: %.4f at the first step, %.4f at the last\n", p->first_loss,
            p->last_loss);
    txt_gloss(fp, T_G_COS_TRAINED);
    int wide[2] = {4, 4}; /* the columns of the pairs' words: 爱 - 喜欢, learning - reading */
    for (int i = 0; i < LEARN_PAIRS; i++)
        for (int k = 0; k < 2; k++) {
            int tw = tw_width(learn_pair(L, i, k), strlen(learn_pair(L, i, k)));
            wide[k] = tw > wide[k] ? tw : wide[k];
        }
    for (int i = 0; i < LEARN_PAIRS; i++) {
        int32_t ids[2];
        learn_pair_ids(L, i, ids);
        if (!have[i])
            continue;
        const char *a = learn_pair(L, i, 0), *b = learn_pair(L, i, 1);
        fputs("  ", fp);
        tw_pad(fp, a, strlen(a), wide[0]);
        fputs(" - ", fp);
        tw_pad(fp, b, strlen(b), wide[1]);
        fprintf(fp, "  %+.3f -> %+.3f", before[i], w2v_cosine(m, ids[0], ids[1]));
        if (i == LEARN_CONTROL)
            txt_gloss(fp, T_G_CONTROL);
        fputc('\n', fp);
    }
    double mean, sd;
    w2v_cosine_spread(m, LEARN_BAND_WORDS, &mean, &sd);
    txt_gloss(fp, T_G_BAND, LEARN_BAND_WORDS < m->V ? LEARN_BAND_WORDS : (int)m->V,
              fabs(mean) < 0.0005 ? 0.0 : mean, sd);
    tf_vectors v;
    w2v_vectors_view(m, &v);
    txt_gloss(fp, T_G_NEIGHBOURS);
    const char *const *probe = L->words->probes;
    for (size_t i = 0; i < LEARN_PROBES; i++) {
        int32_t q = w2v_lookup(m, probe[i], strlen(probe[i]));
        if (q >= 0)
            neighbors_line(fp, &v, (uint32_t)q, 5);
    }
    if (m->V > 0 && w2v_lookup(m, probe[0], strlen(probe[0])) < 0)
        neighbors_line(fp, &v, 0, 5);
}

/* Train, report, and write the vectors to out (out->fp NULL: no -o). */
static int train(const learn_request *r, outfile *out)
{
    learn_session L;
    int rc = learn_open(&L, r);
    if (rc)
        return rc;
    double before[LEARN_PAIRS];
    bool have[LEARN_PAIRS];
    for (int i = 0; i < LEARN_PAIRS; i++) {
        int32_t ids[2];
        have[i] = learn_pair_ids(&L, i, ids);
        before[i] = have[i] ? w2v_cosine(&L.m, ids[0], ids[1]) : 0;
    }
    progress p = {.first_loss = -1, .epochs = r->params.epochs};
    char label[64];
    txt_gloss_fmt(label, sizeof label, T_G_TRAINING);
    progress_start(&p.bar, label, PROGRESS_WORDS,
                   (double)r->params.epochs * (double)w2v_corpus_tokens(L.corpus));
    double t0 = now();
    tf_status st = w2v_train(&L.m, STEP_WORDS, on_step, &p);
    double secs = now() - t0;
    progress_end(&p.bar);
    if (st != TF_OK) {
        err_say("training failed: %s.", tf_status_str(st));
        learn_close(&L);
        return 2;
    }
    uint64_t seen = (uint64_t)r->params.epochs * w2v_corpus_tokens(L.corpus);
    fprintf(stderr,
            "tfviz: trained %llu tokens (%d epochs) in %.3f s: %.0f tokens/s, %d thread%s\n",
            (unsigned long long)seen, r->params.epochs, secs, secs > 0 ? (double)seen / secs : 0,
            r->params.threads, r->params.threads > 1 ? "s" : "");
    summary(stdout, r, &L, &p, before, have);
    if (out->fp) {
        tf_vectors v;
        w2v_vectors_view(&L.m, &v);
        vectors_format f = ends_with(out->path, ".bin") ? VECTORS_BINARY : VECTORS_TEXT;
        rc = outfile_close(out, vectors_write(&v, f, out->fp));
        out->fp = NULL;
        if (!rc) {
            fprintf(stdout, "Wrote %u vectors of %d numbers to ", v.n, v.dim);
            emit_safe_text(stdout, out->path, strlen(out->path)); /* a path: escaped */
            fputs(".\n", stdout);
        }
    }
    learn_close(&L);
    return rc;
}

int learn_train_vectors(const learn_request *r, const char *output)
{
    /* -o is opened before any work: an unwritable path is said at once, not after training */
    outfile out = {0};
    if (output && outfile_open(&out, output, "with -o"))
        return 1;
    int rc = train(r, &out);
    if (out.fp) /* training did not get as far as writing: nothing changes there */
        outfile_close(&out, TF_ERR_RANGE); /* any status but TF_OK and TF_ERR_IO: said already */
    return rc;
}
