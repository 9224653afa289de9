/* train.c — learned embeddings on the command line: train, load, neighbours. */
#include "train.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/emit.h"
#include "core/err.h"
#include "core/outfile.h"
#include "core/progress.h"
#include "pca.h"
#include "textwidth.h"

extern const unsigned char tf_corpus_zh[];
extern const size_t tf_corpus_zh_len;

#define MAX_CORPUS_BYTES (1ull << 31) /* 2 GiB of text */
#define STEP_WORDS       20000        /* callback granularity of a command-line run */

const char *train_default_corpus(size_t *len)
{
    *len = tf_corpus_zh_len;
    return (const char *)tf_corpus_zh;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* ---------------------------------------------------------------------------------------------
 * Corpus */

static int read_file(const char *path, char **buf, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        err_say("cannot open the corpus %s: %s; give a UTF-8 text file with --corpus.", path,
                  strerror(errno));
        return 2;
    }
    size_t cap = 1 << 20, n = 0;
    char *b = malloc(cap);
    for (;;) {
        if (!b) {
            fclose(fp);
            err_say("out of memory reading the corpus %s.", path);
            return 2;
        }
        n += fread(b + n, 1, cap - n, fp);
        if (n < cap)
            break;
        if (cap >= MAX_CORPUS_BYTES) {
            free(b);
            fclose(fp);
            err_say("the corpus %s is larger than 2 GiB; train on a part of it.", path);
            return 2;
        }
        char *nb = realloc(b, cap * 2);
        if (!nb)
            free(b);
        b = nb;
        cap *= 2;
    }
    int err = ferror(fp) ? errno : 0;
    fclose(fp);
    if (err) {
        free(b);
        err_say("cannot read the corpus %s: %s; give a UTF-8 text file with --corpus.", path,
                  strerror(err));
        return 2;
    }
    *buf = b;
    *len = n;
    return 0;
}

int train_corpus_load(const char *path, const tf_config *cfg, corpus_split split,
                      tokenizer_kind kind, int min_count, w2v_corpus **out, corpus_info *info)
{
    char *owned = NULL;
    const char *text;
    size_t len;
    const char *name = path ? path : "the built-in corpus";
    if (path) {
        int rc = read_file(path, &owned, &len);
        if (rc)
            return rc;
        text = owned;
    } else {
        text = train_default_corpus(&len);
    }
    /* the tokenizer's vocabulary, only when the text is not already cut by spaces */
    tf_vocab *v = NULL;
    if (split == CORPUS_TOKENIZER || (split == CORPUS_AUTO && corpus_detect(text, len) ==
                                                                   CORPUS_TOKENIZER)) {
        tf_config vc = *cfg;
        vc.tokenizer = kind;
        tf_status vs = analysis_vocab(&vc, &v);
        if (vs != TF_OK && kind != TOKENIZER_WORD) {
            err_say("the %s tokenizer's data is %s in %s; use --tokenizer word or char.",
                      tokenizer_name(kind), vs == TF_ERR_FORMAT ? "damaged" : "missing",
                      cfg->data_dir ? cfg->data_dir : "(none)");
            free(owned);
            return 2;
        }
        if (vs != TF_OK)
            v = NULL; /* word mode without its dictionary: corpus_load falls back to characters */
    }
    w2v_corpus *c;
    tf_status st = w2v_corpus_new(&c);
    if (st == TF_OK)
        st = corpus_load(c, v, text, len, split, kind, info);
    free(owned);
    vocab_free(v);
    if (st == TF_OK && info->fell_back)
        err_say("note: the word dictionary (tfviz-dict.bin) is missing in %s, so the corpus is "
                  "cut into characters (字级切分); install python3-jieba and rebuild for words.",
                  cfg->data_dir ? cfg->data_dir : "(none)");
    if (st == TF_OK)
        st = w2v_corpus_finish(c, min_count);
    if (st != TF_OK) {
        if (st == TF_ERR_UTF8) /* info is zeroed by corpus_load before anything can fail */
            /* NOLINTNEXTLINE(clang-analyzer-core.CallAndMessage) */
            err_say("%s is not valid UTF-8 (line %zu, byte offset %zu); save it as UTF-8.", name,
                      info->bad_line, info->bad_offset);
        else if (st == TF_ERR_EMPTY)
            err_say("%s has no word seen at least %d times (--min-count); give more text or "
                      "lower --min-count.",
                      name, min_count);
        else
            err_say("cannot read %s: %s.", name, tf_status_str(st));
        w2v_corpus_free(c);
        return 2;
    }
    *out = c;
    return 0;
}

/* --tokenizer T cuts the corpus with T even when it is segmented (char vectors for char-mode
 * sentences); without it, spaces when present, else word mode (characters when unavailable). */
static corpus_split corpus_split_for(const tf_cli *cli)
{
    return cli->tokenizer_set ? CORPUS_TOKENIZER : CORPUS_AUTO;
}

static tokenizer_kind corpus_kind_for(const tf_cli *cli)
{
    return cli->tokenizer_set ? cli->cfg.tokenizer : TOKENIZER_WORD;
}

/* ---------------------------------------------------------------------------------------------
 * Progress on stderr: a bar with tokens/s and ETA, shown when stderr is a terminal and the
 * run lasts more than half a second */

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

/* ---------------------------------------------------------------------------------------------
 * Output */

static bool ends_with(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && strcmp(s + a - b, suf) == 0;
}

static int write_vectors(const char *path, const tf_vectors *v)
{
    outfile out;
    if (outfile_open(&out, path, "with -o"))
        return 1;
    vectors_format f = ends_with(path, ".bin") ? VECTORS_BINARY : VECTORS_TEXT;
    return outfile_close(&out, vectors_write(v, f, out.fp));
}

/* The pairs the summary follows: two that share contexts, one that should not. */
static const char *const pairs[][2] = {
    {"爱", "喜欢"},   {"猫", "狗"},     {"北京", "上海"},
    {"苹果", "香蕉"}, {"学习", "读书"}, {"爱", "北京"},
};
#define N_PAIRS (sizeof pairs / sizeof pairs[0])

static double pair_cos(const w2v_model *m, size_t i, bool *ok)
{
    int32_t a = w2v_lookup(m, pairs[i][0], strlen(pairs[i][0]));
    int32_t b = w2v_lookup(m, pairs[i][1], strlen(pairs[i][1]));
    *ok = a >= 0 && b >= 0;
    return *ok ? w2v_cosine(m, a, b) : 0;
}

static void print_neighbors_text(FILE *fp, const tf_vectors *v, uint32_t q, size_t k)
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

int train_run(tf_cli *cli)
{
    const char *why;
    if (w2v_params_check(&cli->w2v, &why) != TF_OK) {
        err_say("%s; see tfviz --help.", why);
        return 2;
    }
    w2v_corpus *c;
    corpus_info info;
    int rc = train_corpus_load(cli->corpus, &cli->cfg, corpus_split_for(cli), corpus_kind_for(cli),
                               cli->w2v.min_count, &c, &info);
    if (rc)
        return rc;
    w2v_model m;
    tf_status st = w2v_model_init(&m, c, &cli->w2v);
    if (st != TF_OK) {
        err_say("cannot set up training: %s.", tf_status_str(st));
        w2v_corpus_free(c);
        return 2;
    }
    double before[N_PAIRS];
    bool have[N_PAIRS];
    for (size_t i = 0; i < N_PAIRS; i++)
        before[i] = pair_cos(&m, i, &have[i]);

    progress p = {.first_loss = -1, .epochs = cli->w2v.epochs};
    progress_start(&p.bar, "训练 / training", PROGRESS_WORDS,
                   (double)cli->w2v.epochs * (double)w2v_corpus_tokens(c));
    double t0 = now();
    st = w2v_train(&m, STEP_WORDS, on_step, &p);
    double secs = now() - t0;
    progress_end(&p.bar);
    if (st != TF_OK) {
        err_say("training failed: %s.", tf_status_str(st));
        w2v_model_free(&m);
        w2v_corpus_free(c);
        return 2;
    }
    uint64_t seen = (uint64_t)cli->w2v.epochs * w2v_corpus_tokens(c);
    fprintf(stderr,
            "tfviz: trained %llu tokens (%d epochs) in %.3f s: %.0f tokens/s, %d thread%s\n",
            (unsigned long long)seen, cli->w2v.epochs, secs, secs > 0 ? (double)seen / secs : 0,
            cli->w2v.threads, cli->w2v.threads > 1 ? "s" : "");

    FILE *fp = stdout;
    fprintf(fp, "Skip-gram with negative sampling (词向量训练)\n");
    fprintf(fp,
            "  corpus: %s, %zu sentences, %llu tokens, %u words kept (min count %d), cut by %s\n",
            cli->corpus ? cli->corpus : "built-in", w2v_corpus_sentences(c),
            (unsigned long long)w2v_corpus_tokens(c), m.V, cli->w2v.min_count,
            info.split == CORPUS_SPACES ? "spaces" : tokenizer_name(info.kind));
    fprintf(fp, "  dim %d, window %d, negative %d, sample %g, epochs %d, seed %llu\n", m.dim,
            cli->w2v.window, cli->w2v.negative, cli->w2v.sample, cli->w2v.epochs,
            (unsigned long long)cli->w2v.seed);
    fprintf(fp, "  loss per pair: %.4f at the first step, %.4f at the last\n", p.first_loss,
            p.last_loss);
    fputs("Cosine similarity, random start -> trained (余弦相似度，训练前 -> 训练后):\n", fp);
    for (size_t i = 0; i < N_PAIRS; i++) {
        bool ok;
        double after = pair_cos(&m, i, &ok);
        if (!have[i])
            continue;
        fputs("  ", fp);
        tw_pad(fp, pairs[i][0], strlen(pairs[i][0]), 4);
        fputs(" - ", fp);
        tw_pad(fp, pairs[i][1], strlen(pairs[i][1]), 4);
        fprintf(fp, "  %+.3f -> %+.3f%s\n", before[i], after,
                i == N_PAIRS - 1 ? "   (control 对照)" : "");
    }
    tf_vectors v;
    w2v_vectors_view(&m, &v);
    fputs("Nearest neighbours (最近邻):\n", fp);
    static const char *const probe[] = {"爱", "猫", "北京", "苹果", "学习"};
    for (size_t i = 0; i < sizeof probe / sizeof probe[0]; i++) {
        int32_t q = w2v_lookup(&m, probe[i], strlen(probe[i]));
        if (q >= 0)
            print_neighbors_text(fp, &v, (uint32_t)q, 5);
    }
    if (m.V > 0 && w2v_lookup(&m, "爱", strlen("爱")) < 0)
        print_neighbors_text(fp, &v, 0, 5);
    rc = 0;
    if (cli->output) {
        rc = write_vectors(cli->output, &v);
        if (!rc)
            fprintf(fp, "Wrote %u vectors of %d numbers to %s.\n", v.n, v.dim, cli->output);
    }
    w2v_model_free(&m);
    w2v_corpus_free(c);
    return rc;
}

/* ---------------------------------------------------------------------------------------------
 * Loading and neighbours */

int train_load_vectors(tf_cli *cli)
{
    vectors_diag d;
    tf_status st = vectors_read(cli->vectors_path, VECTORS_AUTO, (uint32_t)cli->vectors_limit,
                                &cli->vectors, &d);
    if (st == TF_OK)
        return 0;
    if (st == TF_ERR_IO) {
        err_say("cannot read %s: %s; give a word2vec .vec or .bin file with --vectors.",
                  cli->vectors_path, strerror(errno));
        return d.what ? 1 : 2;
    }
    if (st == TF_ERR_NOMEM) {
        err_say("out of memory loading %s; read fewer rows with --vectors-limit N.",
                  cli->vectors_path);
        return 2;
    }
    if (strstr(d.what, "4 GiB"))
        err_say("%s: %s; read its first rows only with --vectors-limit N (for example 200000).",
                  cli->vectors_path, d.what);
    else if (d.format == VECTORS_BINARY)
        err_say("%s, byte %llu: %s; this is not a valid word2vec binary file.", cli->vectors_path,
                  (unsigned long long)d.offset, d.what);
    else
        err_say("%s, line %lu: %s; this is not a valid word2vec text file (\"N dim\" then "
                  "\"word v1 ... vdim\" per line).",
                  cli->vectors_path, d.line, d.what);
    return 2;
}

static void write_neighbors(FILE *fp, out_format f, const tf_vectors *v, uint32_t q,
                            const vectors_hit *hits, size_t n, const char *source)
{
    const char *w = v->words[q];
    if (f == FMT_CSV) {
        fputs("rank,word,cosine\n", fp);
        for (size_t i = 0; i < n; i++) {
            fprintf(fp, "%zu,", i + 1);
            emit_csv_str(fp, v->words[hits[i].row], strlen(v->words[hits[i].row]));
            fprintf(fp, ",%.9g\n", hits[i].cosine);
        }
    } else if (f == FMT_JSON) {
        fputs("{\"word\": ", fp);
        emit_json_str(fp, w, strlen(w));
        fputs(", \"source\": ", fp);
        emit_json_str(fp, source, strlen(source));
        fprintf(fp, ", \"rows\": %u, \"dim\": %d, \"neighbors\": [", v->n, v->dim);
        for (size_t i = 0; i < n; i++) {
            fputs(i ? ", {\"word\": " : "{\"word\": ", fp);
            emit_json_str(fp, v->words[hits[i].row], strlen(v->words[hits[i].row]));
            fputs(", \"cosine\": ", fp);
            emit_json_num(fp, hits[i].cosine, EMIT_F64_DIGITS);
            fputc('}', fp);
        }
        fputs("]}\n", fp);
    } else {
        fputs("Nearest neighbours of ", fp);
        emit_safe_text(fp, w, strlen(w));
        fprintf(fp, " by cosine similarity (最近邻), %u words x %d from %s:\n", v->n, v->dim,
                source);
        for (size_t i = 0; i < n; i++) {
            fprintf(fp, "  %2zu  ", i + 1);
            const char *s = v->words[hits[i].row];
            tw_pad(fp, s, strlen(s), 12);
            fprintf(fp, "  %+.4f\n", hits[i].cosine);
        }
    }
}

/* Where printed numbers come from: a vector file, or vectors trained here. */
typedef struct {
    tf_vectors v; /* a view of the file's or the model's vectors */
    w2v_model m;
    w2v_corpus *c;
    const char *source;
} learned;

static void learned_free(learned *L)
{
    w2v_model_free(&L->m);
    w2v_corpus_free(L->c);
    L->c = NULL;
}

/* Set up training on --corpus or the built-in corpus (not trained yet). Exit status. */
static int learned_model(tf_cli *cli, learned *L)
{
    const char *why;
    if (w2v_params_check(&cli->w2v, &why) != TF_OK) {
        err_say("%s; see tfviz --help.", why);
        return 2;
    }
    corpus_info info;
    int rc = train_corpus_load(cli->corpus, &cli->cfg, corpus_split_for(cli), corpus_kind_for(cli),
                               cli->w2v.min_count, &L->c, &info);
    if (rc)
        return rc;
    tf_status st = w2v_model_init(&L->m, L->c, &cli->w2v);
    if (st != TF_OK) {
        err_say("cannot set up training: %s.", tf_status_str(st));
        return 2;
    }
    L->source = cli->corpus ? cli->corpus : "vectors trained on the built-in corpus";
    w2v_vectors_view(&L->m, &L->v);
    return 0;
}

/* The vectors of --vectors, or (without it) vectors trained first, quietly. Exit status. */
static int learned_vectors(tf_cli *cli, learned *L)
{
    if (cli->vectors_path) {
        int rc = train_load_vectors(cli);
        if (rc)
            return rc;
        L->v = cli->vectors;
        L->source = cli->vectors_path;
        return 0;
    }
    int rc = learned_model(cli, L);
    if (rc)
        return rc;
    tf_status st = w2v_train(&L->m, STEP_WORDS, NULL, NULL);
    if (st != TF_OK) {
        err_say("training failed: %s.", tf_status_str(st));
        return 2;
    }
    return 0;
}

static int print_neighbors(tf_cli *cli, learned *L)
{
    if (!cli->word) {
        err_say("--print neighbors needs a word: add --word 爱 (for example).");
        return 2;
    }
    int rc = learned_vectors(cli, L);
    if (rc)
        return rc;
    int32_t q = vectors_find(&L->v, cli->word, strlen(cli->word));
    if (q < 0) {
        err_say("'%s' is not among the %u words of %s; try another word.", cli->word, L->v.n,
                  L->source);
        return 2;
    }
    vectors_hit *hits = malloc((size_t)cli->top * sizeof *hits);
    if (!hits) {
        err_say("out of memory.");
        return 2;
    }
    size_t n = vectors_neighbors(&L->v, (uint32_t)q, (size_t)cli->top, hits);
    outfile out;
    rc = outfile_open(&out, cli->output, "with -o");
    if (!rc) {
        write_neighbors(out.fp, cli->format, &L->v, (uint32_t)q, hits, n, L->source);
        rc = outfile_close(&out, TF_OK);
    }
    free(hits);
    return rc;
}

/* --print pca: the 2-D map of the first rows (the most frequent words). */
#define PCA_DEFAULT_ROWS 500

static int print_pca(tf_cli *cli, learned *L)
{
    int rc = learned_vectors(cli, L);
    if (rc)
        return rc;
    size_t n = cli->top_given ? (size_t)cli->top : PCA_DEFAULT_ROWS;
    if (n > L->v.n)
        n = L->v.n;
    if (n < 2 || L->v.dim < 2) {
        err_say("a 2-D map needs at least 2 words of at least 2 numbers (%s has %u x %d).",
                  L->source, L->v.n, L->v.dim);
        return 2;
    }
    double *xy = malloc(2 * n * sizeof *xy);
    pca_result res;
    if (!xy || pca_project2(L->v.data, n, L->v.dim, xy, &res) != TF_OK) {
        free(xy);
        err_say("out of memory.");
        return 2;
    }
    outfile out;
    if (outfile_open(&out, cli->output, "with -o")) {
        free(xy);
        pca_free(&res);
        return 1;
    }
    FILE *fp = out.fp;
    if (cli->format == FMT_NPY) {
        emit_npy_header(fp, "<f8", n, 2);
        fwrite(xy, sizeof(double), 2 * n, fp);
    } else if (cli->format == FMT_CSV) {
        fputs("word,x,y\n", fp);
        for (size_t i = 0; i < n; i++) {
            emit_csv_str(fp, L->v.words[i], strlen(L->v.words[i]));
            emit_csv_dvalues(fp, xy + 2 * i, 2, EMIT_F64_DIGITS);
            fputc('\n', fp);
        }
    } else if (cli->format == FMT_JSON) {
        fputs("{\"source\": ", fp);
        emit_json_str(fp, L->source, strlen(L->source));
        fprintf(fp, ", \"rows\": %zu, \"dim\": %d, \"variance\": ", n, L->v.dim);
        emit_json_darray(fp, res.var, 2, EMIT_F64_DIGITS);
        fputs(", \"variance_total\": ", fp);
        emit_json_num(fp, res.var_total, EMIT_F64_DIGITS);
        fputs(", \"points\": [", fp);
        for (size_t i = 0; i < n; i++) {
            fputs(i ? ", {\"word\": " : "{\"word\": ", fp);
            emit_json_str(fp, L->v.words[i], strlen(L->v.words[i]));
            fputs(", \"xy\": ", fp);
            emit_json_darray(fp, xy + 2 * i, 2, EMIT_F64_DIGITS);
            fputc('}', fp);
        }
        fputs("]}\n", fp);
    } else {
        fprintf(fp, "2-D map by PCA (主成分投影) of the %zu most frequent words of %s:\n", n,
                L->source);
        fprintf(fp, "  the two axes hold %.1f%% and %.1f%% of the variance\n",
                100 * res.var[0] / res.var_total, 100 * res.var[1] / res.var_total);
        for (size_t i = 0; i < n; i++) {
            fputs("  ", fp);
            tw_pad(fp, L->v.words[i], strlen(L->v.words[i]), 12);
            fprintf(fp, "  %+9.4f  %+9.4f\n", xy[2 * i], xy[2 * i + 1]);
        }
    }
    free(xy);
    pca_free(&res);
    return outfile_close(&out, TF_OK);
}

/* --print training: the loss and the cosine of the watched pairs, step by step, from the random
 * start (step 0) to the end: the numbers behind the learning view's curves. */
typedef struct {
    int32_t ids[N_PAIRS][2];
    size_t n_pairs;
    size_t idx[N_PAIRS]; /* index into pairs[] */
} watched;

static void row_out(FILE *fp, out_format f, const w2v_model *m, const watched *w,
                    const w2v_progress *pr, bool first)
{
    double cs[N_PAIRS];
    for (size_t k = 0; k < w->n_pairs; k++)
        cs[k] = w2v_cosine(m, w->ids[k][0], w->ids[k][1]);
    if (f == FMT_CSV) {
        fprintf(fp, "%llu,%llu,%d,%.9g,", (unsigned long long)pr->steps,
                (unsigned long long)pr->words_done, pr->epoch, pr->alpha);
        if (pr->pairs)
            fprintf(fp, "%.9g", pr->loss);
        emit_csv_dvalues(fp, cs, w->n_pairs, EMIT_F64_DIGITS);
        fputc('\n', fp);
    } else if (f == FMT_JSON) {
        fprintf(fp,
                "%s{\"step\": %llu, \"words\": %llu, \"epoch\": %d, \"alpha\": ", first ? "" : ", ",
                (unsigned long long)pr->steps, (unsigned long long)pr->words_done, pr->epoch);
        emit_json_num(fp, pr->alpha, EMIT_F64_DIGITS);
        fputs(", \"loss\": ", fp);
        emit_json_num(fp, pr->pairs ? pr->loss : NAN, EMIT_F64_DIGITS);
        fputs(", \"cosine\": ", fp);
        emit_json_darray(fp, cs, w->n_pairs, EMIT_F64_DIGITS);
        fputc('}', fp);
    } else {
        fprintf(fp, "%6llu %9llu %5d ", (unsigned long long)pr->steps,
                (unsigned long long)pr->words_done, pr->epoch);
        if (pr->pairs)
            fprintf(fp, "%7.4f", pr->loss);
        else
            fputs("      -", fp);
        for (size_t k = 0; k < w->n_pairs; k++)
            fprintf(fp, "  %+9.3f", cs[k]);
        fputc('\n', fp);
    }
}

static int print_training(tf_cli *cli, learned *L)
{
    if (cli->vectors_path) {
        err_say("--print training trains from --corpus or the built-in corpus; leave out "
                  "--vectors.");
        return 2;
    }
    int rc = learned_model(cli, L);
    if (rc)
        return rc;
    watched w = {0};
    for (size_t i = 0; i < N_PAIRS; i++) {
        int32_t a = w2v_lookup(&L->m, pairs[i][0], strlen(pairs[i][0]));
        int32_t b = w2v_lookup(&L->m, pairs[i][1], strlen(pairs[i][1]));
        if (a >= 0 && b >= 0) {
            w.ids[w.n_pairs][0] = a;
            w.ids[w.n_pairs][1] = b;
            w.idx[w.n_pairs++] = i;
        }
    }
    /* about 100 rows whatever the corpus size */
    uint64_t total = (uint64_t)cli->w2v.epochs * w2v_corpus_tokens(L->c);
    uint64_t step = total / 100 > 1000 ? total / 100 : 1000;
    outfile out;
    if (outfile_open(&out, cli->output, "with -o"))
        return 1;
    FILE *fp = out.fp;
    if (cli->format == FMT_CSV) {
        fputs("step,words,epoch,alpha,loss", fp);
        for (size_t k = 0; k < w.n_pairs; k++)
            fprintf(fp, ",cos_%s_%s", pairs[w.idx[k]][0], pairs[w.idx[k]][1]);
        fputc('\n', fp);
    } else if (cli->format == FMT_JSON) {
        fputs("{\"source\": ", fp);
        emit_json_str(fp, L->source, strlen(L->source));
        fprintf(fp, ", \"words_total\": %llu, \"dim\": %d, \"seed\": %llu, \"pairs\": [",
                (unsigned long long)total, L->m.dim, (unsigned long long)cli->w2v.seed);
        for (size_t k = 0; k < w.n_pairs; k++)
            fprintf(fp, "%s[\"%s\", \"%s\"]", k ? ", " : "", pairs[w.idx[k]][0],
                    pairs[w.idx[k]][1]);
        fputs("], \"steps\": [", fp);
    } else {
        fprintf(fp, "Training step by step (逐步训练): loss per pair and cosine similarity, %s\n",
                L->source);
        fputs("  step     words epoch    loss", fp);
        for (size_t k = 0; k < w.n_pairs; k++) {
            fputs("  ", fp);
            char label[32];
            snprintf(label, sizeof label, "%s-%s", pairs[w.idx[k]][0], pairs[w.idx[k]][1]);
            tw_pad(fp, label, strlen(label), 9);
        }
        fputc('\n', fp);
    }
    w2v_progress pr = {.words_total = total, .alpha = cli->w2v.alpha};
    row_out(fp, cli->format, &L->m, &w, &pr, true); /* the random start */
    tf_status st = TF_OK;
    do {
        if ((st = w2v_step(&L->m, step, &pr)) != TF_OK)
            break;
        row_out(fp, cli->format, &L->m, &w, &pr, false);
    } while (!pr.done);
    if (cli->format == FMT_JSON)
        fputs("]}\n", fp);
    if (st != TF_OK) {
        outfile_close(&out, st);
        err_say("training failed: %s.", tf_status_str(st));
        return 2;
    }
    return outfile_close(&out, TF_OK);
}

bool train_handles(const char *what)
{
    return strcmp(what, "neighbors") == 0 || strcmp(what, "pca") == 0 ||
           strcmp(what, "training") == 0;
}

int train_print(tf_cli *cli)
{
    const char *what = cli->print_what;
    if (cli->format == FMT_NPY && strcmp(what, "pca") != 0) {
        err_say("--print %s writes text, csv or json, not npy.", what);
        return 2;
    }
    learned L;
    memset(&L, 0, sizeof L);
    int rc = strcmp(what, "neighbors") == 0 ? print_neighbors(cli, &L)
             : strcmp(what, "pca") == 0     ? print_pca(cli, &L)
                                            : print_training(cli, &L);
    learned_free(&L);
    return rc;
}
