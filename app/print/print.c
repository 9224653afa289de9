/* print.c — the table of --print topics, and one topic from a request: check it, prepare its
 * data, open the output, let the topic fill the sink (or write its text), close the output. */
#include "print/print.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/outfile.h"
#include "core/strings.h"
#include "print/topic.h"
#include "tf_limits.h"

/* The table: a topic is a row here and its functions in the file of its subject. */
static const print_topic *const topics[] = {
    &topic_tokens, &topic_vocab,  &topic_embedding, &topic_pe,    &topic_freq,
    &topic_input,  &topic_relative, &topic_dot,     &topic_rope,  &topic_decay,
    &topic_order,  &topic_schemes, &topic_bias,    &topic_rope_scaling, &topic_similarity,
    &topic_neighbors, &topic_pca,   &topic_training, &topic_order_training, &topic_style,
};
#define N_TOPICS (sizeof topics / sizeof topics[0])

static const print_topic *find(const char *what)
{
    for (size_t i = 0; what && i < N_TOPICS; i++)
        if (strcmp(topics[i]->name, what) == 0)
            return topics[i];
    return NULL;
}

const char *const *print_topics(void)
{
    static const char *names[N_TOPICS + 1];
    for (size_t i = 0; i < N_TOPICS; i++)
        names[i] = topics[i]->name;
    return names;
}

bool print_topic_known(const char *what) { return find(what) != NULL; }

/* A topic that reads no sentence: learned vectors, or a model trained here. */
static bool learned(const print_topic *t)
{
    return t->needs & (PRINT_VECTORS | PRINT_MODEL | PRINT_ORDER);
}

bool print_learned(const char *what)
{
    const print_topic *t = find(what);
    return t && learned(t);
}

bool print_trains_order(const char *what)
{
    const print_topic *t = find(what);
    return t && (t->needs & PRINT_ORDER);
}

unsigned print_needs(const char *what)
{
    const print_topic *t = find(what);
    return t ? t->needs & ~(unsigned)(PRINT_VECTORS | PRINT_MODEL | PRINT_ORDER) : 0;
}

/* Whether topic t writes format f: text through its own function, the others through its build
 * and the sink of that format (its row's formats). */
static bool writes(const print_topic *t, out_format f)
{
    if (f == FMT_TEXT)
        return t->text != NULL;
    return t->build && (t->formats & (1u << f));
}

bool print_writes(const char *what, out_format f)
{
    const print_topic *t = find(what);
    return t && f >= 0 && f < FMT_COUNT && writes(t, f);
}

/* "text, csv or json": the formats topic t writes. */
static void format_list(const print_topic *t, char *buf, size_t cap)
{
    size_t n = 0, o = 0, k = 0;
    for (int f = 0; f < FMT_COUNT; f++)
        n += writes(t, (out_format)f);
    buf[0] = '\0';
    for (int f = 0; f < FMT_COUNT && o < cap; f++)
        if (writes(t, (out_format)f)) {
            k++;
            o += (size_t)snprintf(buf + o, cap - o, "%s%s",
                                  k == 1 ? "" : k == n ? " or " : ", ",
                                  options_format_name((out_format)f));
        }
}

/* "embedding, pe, ... or similarity": the topics on the sentence that write matrices. */
static const char *npy_list(void)
{
    static char list[200];
    const print_topic *with[N_TOPICS];
    size_t n = 0, o = 0;
    for (size_t i = 0; i < N_TOPICS; i++)
        if ((topics[i]->formats & SINK_NPY) && !learned(topics[i]))
            with[n++] = topics[i];
    for (size_t i = 0; i < n; i++)
        o += (size_t)snprintf(list + o, sizeof list - o, "%s%s",
                              i == 0 ? "" : i + 1 == n ? " or " : ", ", with[i]->name);
    return list;
}

const char *print_check(const print_request *r, const tf_config *cfg)
{
    static char why[300];
    const print_topic *t = find(r->opt->print_what);
    if (!t)
        return "unknown --print value";
    if (!writes(t, r->opt->format)) {
        if (r->opt->format == FMT_NPY && !learned(t)) {
            snprintf(why, sizeof why, "--format npy writes matrices: use it with %s",
                     npy_list());
            return why;
        }
        char list[64];
        format_list(t, list, sizeof list);
        txt_gloss_fmt(why, sizeof why, T_G_NO_FORMAT, t->name, list,
                      options_format_name(r->opt->format));
        return why;
    }
    return t->check ? t->check(cfg, r) : NULL;
}

double print_work(const char *what, out_format f, const tf_analysis *a)
{
    const print_topic *t = find(what);
    return t && t->work ? t->work(a, f) : 0;
}

/* The topic in the request's format into fp. */
static tf_status write_topic(const print_topic *t, print_ctx *c, FILE *fp)
{
    if (c->req->opt->format == FMT_TEXT)
        return t->text(c, fp);
    sink *s = sink_open(c->req->opt->format, fp);
    if (!s)
        return TF_ERR_NOMEM;
    tf_status st = t->build(c, s);
    tf_status end = sink_close(s);
    return st != TF_OK ? st : end;
}

tf_status print_write(const print_request *r, FILE *fp)
{
    const print_topic *t = find(r->opt->print_what);
    if (!t || learned(t))
        return TF_ERR_RANGE;
    print_ctx c = {.req = r, .a = r->a};
    return write_topic(t, &c, fp);
}

int print_run(const print_request *r)
{
    const print_topic *t = find(r->opt->print_what);
    if (!t)
        return 2;
    print_ctx c = {.req = r, .a = r->a};
    if (learned(t)) { /* checked here: these topics skip the checks of a sentence */
        const char *why = print_check(r, r->learn.cfg);
        if (why) {
            err_say("%s.", why);
            return 2;
        }
    }
    /* -o is opened before any work (the learned topics train first): an unwritable path is
     * said at once, and a refusal later leaves the old file as it was */
    outfile out;
    int rc = outfile_open(&out, r->opt->output, "with -o");
    if (rc)
        return rc;
    rc = t->prepare ? t->prepare(&c) : 0;
    if (rc)
        outfile_close(&out, TF_ERR_RANGE); /* any status but TF_OK and TF_ERR_IO: said already */
    if (!rc) {
        tf_status st = write_topic(t, &c, out.fp);
        rc = outfile_close(&out, st);
        if (!rc && st != TF_OK) {
            if (learned(t))
                err_say("training failed: %s.", tf_status_str(st));
            else
                err_say("%s.", tf_status_str(st));
            rc = st == TF_ERR_IO ? 1 : 2;
        }
    }
    if (t->release)
        t->release(&c);
    return rc;
}

/* ---------------------------------------------------------------------------------------------
 * The report */

/* A section whose work is past the limit says so instead of running for minutes. */
static bool report_skip(const print_topic *t, const tf_analysis *a, FILE *fp)
{
    double work = t->work(a, FMT_TEXT);
    if (work <= TF_MAX_WORK)
        return false;
    txt_gloss(fp, T_G_R_SKIPPED, work / 1e9, TF_MAX_WORK / 1e9, t->name);
    return true;
}

/* The section of topic t, after its heading (written by the caller); the analysis part it needs is computed first.
 * A section that can be costly (may_skip) is left out when its work is past the limit. */
static void report_section(FILE *fp, const print_topic *t, print_ctx *c, bool may_skip)
{
    if (may_skip && report_skip(t, c->a, fp))
        return;
    if (analysis_need(c->a, t->needs, NULL) == TF_OK)
        t->text(c, fp);
}

void print_report(tf_analysis *a, FILE *fp)
{
    tf_options o;
    options_defaults(&o); /* text */
    print_request r = {.opt = &o, .a = a};
    print_ctx c = {.req = &r, .a = a};
    txt_gloss(fp, T_G_REPORT);
    txt_gloss(fp, T_G_R_TOKENS);
    report_section(fp, &topic_tokens, &c, false);
    txt_gloss(fp, T_G_R_EMBEDDING);
    report_section(fp, &topic_embedding, &c, true);
    c.rows = 8; /* the first positions of PE */
    txt_gloss(fp, T_G_R_PE);
    report_section(fp, &topic_pe, &c, false);
    c.rows = 0;
    txt_gloss(fp, T_G_R_FREQ);
    int h = a->cfg.d_model / 2;
    fprintf(fp, "  w_0 = %.6g (wavelength %.4f positions) ... w_%d = %.6g (wavelength %.1f)\n",
            a->omega[0], 2 * M_PI / a->omega[0], h - 1, a->omega[h - 1],
            2 * M_PI / a->omega[h - 1]);
    txt_gloss(fp, T_G_R_RELATIVE);
    report_section(fp, &topic_relative, &c, true);
    txt_gloss(fp, T_G_R_INPUT);
    report_section(fp, &topic_input, &c, false);
    txt_gloss(fp, T_G_R_ORDER);
    report_section(fp, &topic_order, &c, true);
    txt_gloss(fp, T_G_R_ROPE);
    report_section(fp, &topic_rope, &c, true);
}
