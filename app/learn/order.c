/* order.c — the order experiment, trained: the task, the trainer, the work it takes, the run with
 * a progress bar, and the text of its curves and final table (order.h). */
#include "learn/order.h"

#include "order_train.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/emit.h"
#include "core/err.h"
#include "core/outfile.h"
#include "core/progress.h"
#include "core/strings.h"
#include "dict.h"
#include "tf_limits.h"
#include "tokenizer.h"
#include "vocab.h"
#include "textwidth.h"

const tf_scheme learn_order_default_schemes[4] = {SCHEME_NONE, SCHEME_SINUSOIDAL, SCHEME_LEARNED,
                                                  SCHEME_ROPE};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* ---------------------------------------------------------------------------------------------
 * Opening: the task and the trainer */

/* The sentence of a bad task file in one language: "FILE, line 3, column 5: what; what to do."
 * Chinese: "FILE 第 3 行第 5 列：……". */
static void file_problem(char *buf, size_t cap, const char *path, const order_parse_error *e,
                         bool chinese)
{
    char where[96] = "", also[64] = "";
    if (chinese) {
        if (e->line && e->column)
            snprintf(where, sizeof where, " 第 %zu 行第 %zu 列", e->line, e->column);
        else if (e->line)
            snprintf(where, sizeof where, " 第 %zu 行", e->line);
        if (e->other_line)
            snprintf(also, sizeof also, "（另见第 %zu 行）", e->other_line);
        snprintf(buf, cap, "语序任务文件 %s%s：%s%s。", path, where,
                 txt_order_problem_lang(e->problem, true), also);
        return;
    }
    if (e->line && e->column)
        snprintf(where, sizeof where, ", line %zu, column %zu", e->line, e->column);
    else if (e->line)
        snprintf(where, sizeof where, ", line %zu", e->line);
    if (e->other_line)
        snprintf(also, sizeof also, " (see line %zu)", e->other_line);
    snprintf(buf, cap, "%s%s: %s%s.", path, where, txt_order_problem_lang(e->problem, false),
             also);
}

/* ---------------------------------------------------------------------------------------------
 * The class's sentence */

/* Append word text[a, e) to s->class_seg, a space before all but the first (cut at a character
 * when the buffer is full). */
static void seg_append(learn_order *s, const char *text, size_t a, size_t e)
{
    size_t o = strlen(s->class_seg), room = sizeof s->class_seg - 1 - o;
    size_t n = (o ? 1 : 0) + (e - a);
    if (n > room)
        return;
    if (o)
        s->class_seg[o++] = ' ';
    memcpy(s->class_seg + o, text + a, e - a);
    s->class_seg[o + e - a] = '\0';
}

/* What the dictionary says of word w[0..len): 1 a verb, 0 no verb (a Chinese word it lacks
 * too), -1 nothing (no dictionary or no parts of speech in it, a word of Latin letters). */
static int verb_of(const tf_vocab *v, const char *w, size_t len)
{
    const struct tf_dict *d = vocab_dict(v);
    if (!d || !dict_has_tags(d))
        return -1;
    int64_t i = dict_find(d, w, len);
    int tag = i < 0 ? DICT_TAG_NONE : dict_tag(d, (uint32_t)i);
    if (tag != DICT_TAG_NONE)
        return tag == DICT_TAG_VERB;
    return len > 0 && (unsigned char)w[0] < 0x80 ? -1 : 0;
}

/* The words of the class's sentence, as word mode cuts it under r->cfg (characters where no
 * dictionary is installed): s->class_n and s->class_seg; the first three into w and len (a
 * word longer than ORDER_MAX_WORD keeps its length and no text). Returns verb_of the second. */
static int class_words(learn_order *s, const order_request *r, char w[3][ORDER_MAX_WORD + 1],
                       size_t len[3])
{
    tf_config c = *r->cfg;
    c.tokenizer = TOKENIZER_WORD;
    tf_vocab *v = NULL;
    if (analysis_vocab(&c, &v) != TF_OK) {
        c.tokenizer = TOKENIZER_CHAR;
        if (analysis_vocab(&c, &v) != TF_OK)
            return -1;
    }
    tf_tokens t;
    size_t bad;
    if (tokenizer_split(v, c.tokenizer, r->sentence, r->sentence_len, &t, &bad) == TF_OK) {
        for (size_t i = 0, j; i < t.n; i = j) { /* a word: the tokens of one unit */
            for (j = i + 1; j < t.n && t.items[j].word == t.items[i].word; j++)
                ;
            size_t a = t.items[i].start, e = t.items[j - 1].end;
            if (s->class_n < 3) {
                len[s->class_n] = e - a;
                if (e - a <= ORDER_MAX_WORD)
                    memcpy(w[s->class_n], r->sentence + a, e - a);
            }
            seg_append(s, r->sentence, a, e);
            s->class_n++;
        }
        tokens_free(&t);
    }
    int verb = s->class_n >= 2 ? verb_of(v, w[1], len[1]) : -1;
    vocab_free(v);
    return verb;
}

/* Whether the class's sentence joins the generated task (into g, whose class words point into
 * w): it does when its words read doer verb object (order_class_check). */
static void class_join(learn_order *s, const order_request *r, order_gen_cfg *g,
                       char w[3][ORDER_MAX_WORD + 1])
{
    if (!r->sentence || !r->cfg)
        return;
    s->class_given = true;
    size_t n = r->sentence_len < sizeof s->class_text - 1 ? r->sentence_len
                                                          : sizeof s->class_text - 1;
    while (n > 0 && n < r->sentence_len && ((unsigned char)r->sentence[n] & 0xC0) == 0x80)
        n--; /* not inside a character */
    memcpy(s->class_text, r->sentence, n);
    s->class_text[n] = '\0';
    size_t len[3] = {0, 0, 0};
    int verb = class_words(s, r, w, len);
    const char *words[3] = {w[0], w[1], w[2]};
    s->class_problem = order_class_check(words, len, s->class_n, verb);
    if (s->class_problem != ORDER_CLASS_OK)
        return;
    s->class_used = true;
    for (int i = 0; i < 3; i++)
        g->class_words[i] = w[i];
}

/* The task r names: 0, or the exit status after saying why it cannot be had. */
static int make_task(learn_order *s, const order_request *r)
{
    tf_status st;
    if (!r->task_path) {
        order_gen_cfg g;
        order_gen_defaults(&g);
        char w[3][ORDER_MAX_WORD + 1] = {{0}};
        class_join(s, r, &g, w);
        g.seed = r->seed;
        if (r->pairs[0] > 0)
            g.train_pairs = (uint32_t)r->pairs[0];
        if (r->pairs[1] > 0)
            g.test_pairs = (uint32_t)r->pairs[1];
        st = order_task_generate(&s->task, &g);
        if (st != TF_OK) {
            s->failed = st;
            snprintf(s->why, sizeof s->why, "cannot make the order task: %s",
                     tf_status_str(st));
            err_say("%s.", s->why);
            return 2;
        }
        return 0;
    }
    order_parse_error e;
    st = order_task_load(&s->task, r->task_path, r->seed, &e);
    if (st == TF_OK)
        return 0;
    s->failed = st;
    if (st == TF_ERR_NOMEM) {
        snprintf(s->why, sizeof s->why, "out of memory reading %s", r->task_path);
        err_say("%s.", s->why);
        return 2;
    }
    if (e.problem == ORDER_BAD_READ) { /* errno says why: missing, a folder, no permission */
        int en = errno;
        snprintf(s->why, sizeof s->why, "cannot read the order task %s: %s; check its name and "
                 "permissions", r->task_path, strerror(en));
        err_say("%s.", s->why);
        return 2;
    }
    char en_s[320], zh_s[320];
    file_problem(en_s, sizeof en_s, r->task_path, &e, false);
    file_problem(zh_s, sizeof zh_s, r->task_path, &e, true);
    snprintf(s->why, sizeof s->why, "%s", en_s);
    snprintf(s->why_zh, sizeof s->why_zh, "%s", zh_s);
    if (r->zh)
        err_say("%s / %s", en_s, zh_s);
    else
        err_say("%s", en_s);
    return 2;
}

/* The training settings r asks for: 0, or 2 after saying which one does not fit the model. */
static int make_cfg(order_train_cfg *c, const order_request *r, learn_order *s)
{
    order_train_defaults(c);
    c->model.seed = r->seed;
    if (r->d_model)
        c->model.d_model = r->d_model;
    if (r->heads)
        c->model.heads = r->heads;
    if (r->epochs)
        c->epochs = r->epochs;
    const char *why = NULL;
    if (order_train_check(c, &why) == TF_OK)
        return 0;
    s->failed = TF_ERR_RANGE;
    if (r->epochs > ORDER_MAX_EPOCHS)
        snprintf(s->why, sizeof s->why, "--epochs must be from 1 to %d for the order model (got "
                 "%d)", ORDER_MAX_EPOCHS, r->epochs);
    else if (r->heads > ORDER_MAX_HEADS)
        snprintf(s->why, sizeof s->why, "--heads must be from 1 to %d for the order model (got "
                 "%d)", ORDER_MAX_HEADS, r->heads);
    else { /* the nearest d_model that fits: a multiple of twice the heads, 4 .. 256 */
        int step = 2 * c->model.heads, d = (c->model.d_model + step / 2) / step * step;
        d = d < 4 ? step * ((4 + step - 1) / step) : d > 256 ? 256 / step * step : d;
        snprintf(s->why, sizeof s->why, "-d %d with %d head%s does not fit the order model: %s; "
                 "try -d %d", c->model.d_model, c->model.heads, c->model.heads > 1 ? "s" : "",
                 why, d);
    }
    err_say("%s.", s->why);
    return 2;
}

int learn_order_open(learn_order *s, const order_request *r)
{
    memset(s, 0, sizeof *s);
    s->path = r->task_path;
    s->seed = r->seed;
    order_train_cfg c;
    int rc = make_cfg(&c, r, s);
    if (rc == 0)
        rc = make_task(s, r);
    if (rc)
        return rc;
    const tf_scheme *schemes = r->n_schemes ? r->schemes : learn_order_default_schemes;
    size_t n = r->n_schemes ? r->n_schemes : 4;
    const char *why = NULL;
    tf_status st = order_trainer_new(&s->tr, &s->task, &c, schemes, n, &why);
    if (st != TF_OK) {
        s->failed = st;
        snprintf(s->why, sizeof s->why, "cannot set up the order model: %s",
                 why ? why : tf_status_str(st));
        err_say("%s.", s->why);
        order_task_free(&s->task);
        return 2;
    }
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    s->threads = r->threads > 0 ? r->threads : cores > 0 ? (int)cores : 1;
    if ((size_t)s->threads > n)
        s->threads = (int)n;
    return 0;
}

void learn_order_close(learn_order *s)
{
    order_trainer_free(s->tr);
    s->tr = NULL;
    order_task_free(&s->task);
}

/* ---------------------------------------------------------------------------------------------
 * The work */

/* Nanoseconds of one core, measured on an x86-64 core of the 2020s (bench/bench_order.c): a
 * sentence of L tokens forward and backward ~5 L d^2 + 5 L^2 d + 2000 (the projections and
 * attention's L x L scores), forward only a third of that; an optimiser step ~3 a parameter. */
#define NS_PROJ 5.0
#define NS_SENT 2000.0
#define NS_PARAM 3.0

double learn_order_work(const learn_order *s)
{
    const order_task *t = &s->task;
    const order_train_cfg *c = order_trainer_cfg(s->tr);
    double d = c->model.d_model;
    double sum[2] = {0, 0}; /* per split: the cost of one forward and backward pass each */
    for (uint32_t i = 0; i < t->n_sent; i++) {
        double L = order_task_len(t, i);
        sum[t->split[i]] += NS_PROJ * (L * d * d + L * L * d) + NS_SENT;
    }
    const order_model *m = order_trainer_model(s->tr, 0);
    double steps = ceil((double)t->n_split[ORDER_TRAIN] / c->batch);
    double train = sum[ORDER_TRAIN] + steps * NS_PARAM * (double)m->n_params;
    double eval = (sum[ORDER_TRAIN] + sum[ORDER_TEST]) / 3.0;
    return (double)order_trainer_count(s->tr) * (c->epochs * train + (c->epochs + 1) * eval);
}

int learn_order_check_work(const learn_order *s, const char *mode)
{
    double work = learn_order_work(s);
    if (work <= TF_MAX_WORK)
        return 0;
    const order_train_cfg *c = order_trainer_cfg(s->tr);
    err_say("%s with these settings would take about %.0f s of one core (the limit is %.0f s): "
            "%zu scheme%s x %d epochs of %u sentences at d_model %d; lower --epochs, -d or the "
            "number of sentences (--order-pairs, or a smaller --order-task file).", mode,
            work / 1e9, TF_MAX_WORK / 1e9, order_trainer_count(s->tr),
            order_trainer_count(s->tr) > 1 ? "s" : "", c->epochs, s->task.n_split[ORDER_TRAIN],
            c->model.d_model);
    return 2;
}

/* ---------------------------------------------------------------------------------------------
 * Training */

typedef struct {
    tf_progress bar;
    int epochs;
} bar_state;

static void on_progress(double done, void *user)
{
    bar_state *b = user;
    char extra[64];
    int e = (int)floor(done * b->epochs);
    snprintf(extra, sizeof extra, "epoch %d/%d", e < b->epochs ? e + 1 : b->epochs, b->epochs);
    progress_update(&b->bar, done, extra);
}

void learn_order_train(learn_order *s)
{
    bar_state b = {.epochs = order_trainer_cfg(s->tr)->epochs};
    char label[64];
    txt_gloss_fmt(label, sizeof label, T_G_TRAINING);
    progress_start(&b.bar, label, PROGRESS_SHARE, 1.0);
    double t0 = now();
    order_trainer_run_report(s->tr, s->threads, b.bar.on ? on_progress : NULL, &b, 100.0);
    s->seconds = now() - t0;
    progress_end(&b.bar);
}

/* ---------------------------------------------------------------------------------------------
 * Text */

/* "我 爱 学习": sentence i of the task, its words separated by spaces, escaped for a terminal. */
static void sentence(FILE *fp, const order_task *t, uint32_t i)
{
    const uint32_t *tok = order_task_tokens(t, i);
    for (uint32_t k = 0; k < order_task_len(t, i); k++) {
        if (k)
            fputc(' ', fp);
        emit_safe_text(fp, t->word[tok[k]], strlen(t->word[tok[k]]));
    }
}

/* Pairs among the held-out sentences (each counted once). */
static uint32_t held_out_pairs(const order_task *t)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < t->n_sent; i++)
        n += t->split[i] == ORDER_TEST && t->pair[i] > (int32_t)i;
    return n;
}

/* Why the class's sentence did not join, in one language. */
bool learn_order_class_why(const learn_order *s, char *buf, size_t cap, bool zh)
{
    if (!s->class_given || s->class_used)
        return false;
    static const txt_id why[] = {
        [ORDER_CLASS_NOT_THREE] = T_TR_CLASS_THREE, [ORDER_CLASS_SIGN] = T_TR_CLASS_SIGN,
        [ORDER_CLASS_LONG] = T_TR_CLASS_LONG,       [ORDER_CLASS_SAME] = T_TR_CLASS_SAME,
        [ORDER_CLASS_ROLES] = T_TR_CLASS_ROLES,     [ORDER_CLASS_NO_VERB] = T_TR_CLASS_NO_VERB,
    };
    txt_id reason = s->class_problem > ORDER_CLASS_OK && s->class_problem <= ORDER_CLASS_NO_VERB
                        ? why[s->class_problem]
                        : T_TR_CLASS_THREE;
    txt_fmt_lang(buf, cap, T_TR_CLASS_NOT, zh, s->class_text, s->class_seg, txt_lang(reason, zh));
    return true;
}

const char *learn_order_doer(const learn_order *s, size_t k, bool b)
{
    const order_task *t = &s->task;
    if (b && t->pair[t->example] < 0)
        return NULL;
    uint32_t i = b ? (uint32_t)t->pair[t->example] : t->example;
    int p = order_trainer_predict(s->tr, k, i);
    return p < 0 ? NULL : t->word[order_task_tokens(t, i)[p]];
}

/* "我 爱 学习": sentence i of the task as one string. */
static void sentence_str(const order_task *t, uint32_t i, char *buf, size_t cap)
{
    const uint32_t *tok = order_task_tokens(t, i);
    size_t o = 0;
    buf[0] = '\0';
    for (uint32_t k = 0; k < order_task_len(t, i) && o < cap; k++)
        o += (size_t)snprintf(buf + o, cap - o, "%s%s", k ? " " : "", t->word[tok[k]]);
}

/* The line saying why the class's sentence did not join, in both languages. */
static void class_why_line(FILE *fp, const learn_order *s)
{
    char line[2100], a[1024], b[1024];
    if (!learn_order_class_why(s, a, sizeof a, false) ||
        !learn_order_class_why(s, b, sizeof b, true))
        return;
    snprintf(line, sizeof line, "  %s / %s", a, b);
    emit_safe_text(fp, line, strlen(line));
    fputc('\n', fp);
}

void learn_order_class(FILE *fp, const learn_order *s)
{
    char a[400], b[400];
    const order_task *t = &s->task;
    if (!s->class_used || t->pair[t->example] < 0)
        return;
    uint32_t e = t->example, p = (uint32_t)t->pair[e];
    sentence_str(t, e, a, sizeof a);
    sentence_str(t, p, b, sizeof b);
    txt_gloss(fp, T_G_CLASS_PAIR, a, b, t->word[order_task_tokens(t, e)[t->doer[e]]],
              t->word[order_task_tokens(t, p)[t->doer[p]]]);
    for (size_t k = 0; k < order_trainer_count(s->tr); k++) {
        const char *da = learn_order_doer(s, k, false), *db = learn_order_doer(s, k, true);
        if (!da || !db)
            continue;
        int wrong = (order_trainer_predict(s->tr, k, e) != t->doer[e]) +
                    (order_trainer_predict(s->tr, k, p) != t->doer[p]);
        fprintf(fp, "  %-10s  %s / %s   ", scheme_name(order_trainer_scheme(s->tr, k)), da, db);
        if (strcmp(da, db) == 0)
            txt_gloss(fp, T_G_CLASS_SAME);
        else if (!wrong)
            txt_gloss(fp, T_G_CLASS_RIGHT);
        else
            txt_gloss(fp, T_G_CLASS_WRONG, wrong);
        fputc('\n', fp);
    }
}

void learn_order_header(FILE *fp, const learn_order *s)
{
    const order_task *t = &s->task;
    const order_train_cfg *c = order_trainer_cfg(s->tr);
    txt_gloss(fp, T_G_ORDER_TITLE);
    fputs("  task: ", fp);
    if (s->path) {
        fputs("sentences from ", fp);
        emit_safe_text(fp, s->path, strlen(s->path));
    } else {
        fprintf(fp, "generated, seed %llu", (unsigned long long)s->seed);
    }
    uint32_t train_pairs = 0;
    for (uint32_t i = 0; i < t->n_sent; i++)
        train_pairs += t->split[i] == ORDER_TRAIN && t->pair[i] > (int32_t)i;
    fprintf(fp, "; %u training sentences (%u pairs), %u held out (%u pairs, never trained on); "
            "%u words, %d tokens at most\n", t->n_split[ORDER_TRAIN], train_pairs,
            t->n_split[ORDER_TEST], held_out_pairs(t), t->V - 1, t->max_len);
    uint32_t batches = (t->n_split[ORDER_TRAIN] + (uint32_t)c->batch - 1) / (uint32_t)c->batch;
    fprintf(fp, "  model: one attention layer, d_model %d, %d head%s, AdamW lr %g, weight "
            "decay %g, batch %d, %d epochs (%u steps), seed %llu; every scheme starts from the "
            "same weights\n", c->model.d_model, c->model.heads, c->model.heads > 1 ? "s" : "",
            c->lr, c->weight_decay, c->batch, c->epochs, batches * (uint32_t)c->epochs,
            (unsigned long long)c->model.seed);
    fputs("  watched: ", fp);
    sentence(fp, t, t->example);
    if (t->pair[t->example] >= 0) {
        fputs(" / ", fp);
        sentence(fp, t, (uint32_t)t->pair[t->example]);
    }
    fputc('\n', fp);
    class_why_line(fp, s);
}

/* Schemes per block of the per-epoch table: 80 columns. */
#define EPOCH_BLOCK 4

void learn_order_epochs(FILE *fp, const learn_order *s, size_t max_rows)
{
    const order_trainer *tr = s->tr;
    size_t n = order_trainer_count(tr), points;
    order_trainer_curve(tr, 0, &points);
    size_t step = max_rows && points > max_rows ? (points + max_rows - 2) / (max_rows - 1) : 1;
    txt_gloss(fp, T_G_ORDER_EPOCHS);
    if (step > 1)
        fprintf(fp, "  (every %zu%s epoch and the last; --print order-training has them all)\n",
                step, step == 2 ? "nd" : step == 3 ? "rd" : "th");
    for (size_t b0 = 0; b0 < n; b0 += EPOCH_BLOCK) {
        size_t b1 = b0 + EPOCH_BLOCK < n ? b0 + EPOCH_BLOCK : n;
        fputs("       ", fp);
        for (size_t k = b0; k < b1; k++)
            fprintf(fp, "  %16s", scheme_name(order_trainer_scheme(tr, k)));
        fputs("\nepoch  ", fp);
        for (size_t k = b0; k < b1; k++)
            fputs("     loss held-out", fp);
        fputc('\n', fp);
        for (size_t e = 0; e < points; e++) {
            if (e % step && e + 1 != points)
                continue;
            fprintf(fp, "%5zu  ", e);
            for (size_t k = b0; k < b1; k++) {
                size_t m;
                const order_point *p = order_trainer_curve(tr, k, &m);
                fprintf(fp, "  %7.4f %6.1f %%", p[e].loss, 100.0 * p[e].test_acc);
            }
            fputc('\n', fp);
        }
        if (b1 < n)
            fputc('\n', fp);
    }
}

void learn_order_final(FILE *fp, const learn_order *s)
{
    const order_trainer *tr = s->tr;
    const order_task *t = &s->task;
    size_t n = order_trainer_count(tr), points;
    order_trainer_curve(tr, 0, &points);
    txt_gloss(fp, T_G_ORDER_FINAL, points ? (int)points - 1 : 0);
    fputs("  scheme        loss  train acc  held-out acc  same answer for both orders\n", fp);
    bool paired = held_out_pairs(t) > 0;
    for (size_t k = 0; k < n; k++) {
        size_t m;
        const order_point *p = order_trainer_curve(tr, k, &m);
        if (!m)
            continue;
        p += m - 1;
        fprintf(fp, "  %-10s  %7.4f  %7.1f %%  %10.1f %%  ", scheme_name(p->scheme), p->loss,
                100.0 * p->train_acc, 100.0 * p->test_acc);
        if (p->pair_same >= 0)
            fprintf(fp, "%5.1f %% of held-out pairs\n", 100.0 * p->pair_same);
        else
            fputs("    - (no pairs)\n", fp);
    }
    if (paired)
        txt_gloss(fp, T_G_ORDER_WHY);
    else
        txt_gloss(fp, T_G_ORDER_NO_PAIRS);
}

/* ---------------------------------------------------------------------------------------------
 * --train-order */

int learn_train_order(const order_request *r, const char *output)
{
    learn_order s;
    int rc = learn_order_open(&s, r);
    if (rc)
        return rc;
    outfile out = {0};
    rc = learn_order_check_work(&s, "--train-order");
    if (!rc && output) /* an unwritable -o is said before the training, not after */
        rc = outfile_open(&out, output, "with -o");
    if (rc) {
        learn_order_close(&s);
        return rc;
    }
    learn_order_train(&s);
    fprintf(stderr, "tfviz: trained %zu scheme%s x %d epochs in %.2f s on %d thread%s\n",
            order_trainer_count(s.tr), order_trainer_count(s.tr) > 1 ? "s" : "",
            order_trainer_cfg(s.tr)->epochs, s.seconds, s.threads, s.threads > 1 ? "s" : "");
    learn_order_header(stdout, &s);
    fputc('\n', stdout);
    learn_order_epochs(stdout, &s, 26);
    fputc('\n', stdout);
    learn_order_final(stdout, &s);
    learn_order_class(stdout, &s);
    if (output) {
        rc = outfile_close(&out, order_task_write(&s.task, out.fp));
        if (!rc)
            printf("Wrote the task's %u sentences to %s (--order-task reads them back).\n",
                   s.task.n_sent, output);
    }
    if (fflush(stdout) != 0 || ferror(stdout)) {
        err_say("cannot write the report to standard output: %s.", strerror(errno));
        rc = 1;
    }
    learn_order_close(&s);
    return rc;
}
