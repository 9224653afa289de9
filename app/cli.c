/* cli.c — one run of tfviz: parse the command line (core/options), refuse what does not go
 * together, read TEXT, analyse it and hand the result to one front-end: --print, --export,
 * --show, --train or the explorer. It holds no option of its own and draws or prints nothing itself. */
#include "cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/datadir.h"
#include "core/err.h"
#include "core/options.h"
#include "core/signals.h"
#include "figure.h"
#include "figures/deck.h"
#include "figures/figures.h"
#include "learn/learn.h"
#include "learn/order.h"
#include "order_model.h"
#include "print/print.h"
#include "tf_limits.h"
#include "tui/tui.h"
#include "vectors.h"

/* The command line, its sentence and the vectors it loaded. */
typedef struct {
    tf_options o;
    char *text; /* the sentence (owned) */
    size_t text_len;
    tf_vectors vectors; /* from --vectors (owned) */
    tf_learned_pe table; /* from --pe-file (owned) */
    t5_bias_table t5;    /* from --t5-file (owned) */
} cli_run_state;

/* ---------------------------------------------------------------------------------------------
 * The requests the front-ends take */

static fig_request figure_req(const cli_run_state *c)
{
    const tf_options *o = &c->o;
    fig_request r = o->fig; /* the look the options set */
    r.name = o->show ? o->show : o->figure;
    r.path = o->export_path;
    r.zh = strcmp(o->lang, "en") != 0;
    /* --venue: its column width by default, its widths for one-column, two-column and half;
     * the paper's caption gives the title and the notes (--title brings the title back) */
    const fig_venue *v = o->venue ? fig_venue_find(o->venue) : NULL;
    if (v && (o->fig_width_column || !(r.width > 0)))
        r.width = fig_venue_width(v, (fig_width_preset)o->fig_width_column) * FIG_PT_PER_IN;
    r.no_title = r.no_title || (v && !r.title);
    r.no_notes = v && !r.title;
    r.vectors = o->cfg.vectors;
    r.vectors_named = o->vectors_path != NULL;
    r.corpus = o->corpus;
    r.w2v = &o->w2v;
    return r;
}

/* The order model the command line asks for: --train-order, --print order-training, the
 * order-training figure and the explorer's view 10. */
static order_request order_req(const tf_options *o)
{
    order_request r = {.task_path = o->order_task, .seed = o->cfg.seed,
                       .pairs = {o->order_pairs[0], o->order_pairs[1]},
                       .d_model = o->d_given ? o->cfg.d_model : 0, .heads = o->heads,
                       .epochs = o->order_epochs, .n_schemes = o->n_schemes,
                       .threads = o->threads_given ? o->w2v.threads : 0,
                       .zh = strcmp(o->lang, "en") != 0};
    memcpy(r.schemes, o->schemes, sizeof r.schemes);
    return r;
}

static learn_request learn_req(const tf_options *o)
{
    return (learn_request){.corpus_path = o->corpus, .cfg = &o->cfg,
                           .english = learn_english(strcmp(o->lang, "en") == 0, NULL, 0),
                           .tokenizer_set = o->tokenizer_set, .params = o->w2v};
}

/* The order model of order_req with the class's sentence: text under cfg. */
static order_request order_req_on(const tf_options *o, const char *text, size_t len,
                                  const tf_config *cfg)
{
    order_request r = order_req(o);
    r.sentence = text;
    r.sentence_len = len;
    r.cfg = cfg;
    return r;
}

/* The --print the command line asks for, on analysis a (NULL: a learned topic). */
static print_request print_req(const tf_options *o, tf_analysis *a)
{
    return (print_request){.opt = o, .a = a, .learn = learn_req(o),
                           .order = a ? order_req_on(o, a->text, a->text_len, &a->cfg)
                                      : order_req(o)};
}

/* ---------------------------------------------------------------------------------------------
 * What does not go together: 0, or 2 after saying why */

/* The order model's options: --train-order alone, and --order-task and --order-pairs only where
 * the order model is trained. */
static int check_order_options(const tf_options *o)
{
    if (o->train_order && (o->print_what || o->export_path || o->train || o->lesson ||
                           o->vectors_path)) {
        err_say("--train-order trains and prints the order model; use %s in a separate run.",
                o->print_what ? "--print" : o->export_path ? "--export" : o->train ? "--train"
                : o->lesson ? "--lesson" : "--vectors");
        return 2;
    }
    bool elsewhere = o->train || (o->print_what && !print_trains_order(o->print_what)) ||
                     (o->export_path && !o->lesson && !figures_need_order(o->figure)) ||
                     (o->show && !figures_need_order(o->show));
    const char *which = o->order_task ? "--order-task" : o->order_pairs[0] ? "--order-pairs"
                                      : NULL;
    if (which && elsewhere && !o->train_order) {
        err_say("%s sets the trained order model; use it with --train-order, --print "
                "order-training, --export FILE --figure order-training or the explorer.", which);
        return 2;
    }
    if (o->order_task && o->order_pairs[0]) {
        err_say("--order-pairs sizes the generated task and --order-task reads yours; use one.");
        return 2;
    }
    return 0;
}

/* --scheme goes to the places that choose how positions reach attention: --print order,
 * schemes, bias, pe and rope-scaling, the figures whose row of the table says so (order,
 * schemes, pe-file, order-training), and the explorer's views 6 and 9. Elsewhere it would be
 * ignored without a word: 0, or 2 after saying so. */
static int check_scheme_users(const tf_options *o)
{
    static const char *const topics[] = {"order", "schemes", "bias", "pe", "rope-scaling",
                                         "order-training"};
    if (o->print_what) {
        for (size_t i = 0; i < sizeof topics / sizeof topics[0]; i++)
            if (strcmp(o->print_what, topics[i]) == 0)
                return 0;
        err_say("--scheme chooses the position schemes of --print order, schemes, bias and pe; "
                "--print %s does not use one (it shows the article's sinusoidal PE or no "
                "positions): drop --scheme, or print one of those.", o->print_what);
        return 2;
    }
    if (o->export_path && !o->lesson) { /* the slides: steps 6, 7 and 13 draw them */
        const char *f = o->figure ? o->figure : "pe";
        char users[200];
        if (figures_use_schemes(f, users, sizeof users))
            return 0;
        err_say("--scheme chooses the position schemes of the figures %s; the %s figure does "
                "not use one: add --figure schemes (or another of them), or drop --scheme.",
                users, f);
        return 2;
    }
    return 0;
}

/* The options among themselves, before any mode starts. */
static int check_options(tf_options *o)
{
    if (o->vocab_size_set &&
        (o->cfg.tokenizer == TOKENIZER_CL100K || o->cfg.tokenizer == TOKENIZER_O200K)) {
        err_say("--vocab-size goes with --tokenizer word or char; the %s vocabulary has its "
                "own fixed size.", tokenizer_name(o->cfg.tokenizer));
        return 2;
    }
    /* --lesson --export writes the lesson's slides */
    if (o->lesson && (o->print_what || o->train || o->show)) {
        err_say("--lesson is interactive and %s writes a file, numbers or a picture; choose one.",
                o->print_what ? "--print" : o->train ? "--train" : "--show");
        return 2;
    }
    if (o->show && (o->print_what || o->export_path || o->train)) {
        err_say("--show draws one figure into the terminal and %s writes a file or numbers; "
                "choose one.", o->print_what ? "--print" : o->train ? "--train" : "--export");
        return 2;
    }
    o->cfg.data_dir = datadir_get();
    if (!o->offset_set && o->cfg.offset >= o->cfg.n_positions)
        o->cfg.offset = o->cfg.n_positions - 1; /* -n 1: the default k = 1 has no room */
    if (o->cfg.offset >= o->cfg.n_positions) {
        err_say("--offset (%ld) must be below the number of positions (%ld); raise -n or "
                "lower --offset.", o->cfg.offset, o->cfg.n_positions);
        return 2;
    }
    if (o->n_schemes > 0 && check_scheme_users(o) != 0)
        return 2;
    if (o->train && (o->print_what || o->vectors_path)) {
        err_say("--train learns vectors; use --print or --vectors in a separate run with the "
                "file it writes (-o).");
        return 2;
    }
    return check_order_options(o);
}

/* --train takes a corpus and writes vectors (-o): --export and TEXT would be ignored silently,
 * so they are refused (n_text: the TEXT arguments; the table refuses the other modes' options). */
static int check_train(const tf_options *o, int n_text)
{
    const char *other = o->export_path ? "--export" : n_text > 0 ? "a TEXT argument" : NULL;
    if (other) {
        err_say("--train learns vectors from --corpus and writes them with -o; %s belongs to "
                "another mode, so leave it out or run that mode separately.", other);
        return 2;
    }
    return 0;
}

/* ---------------------------------------------------------------------------------------------
 * The position schemes' parameters: the tables read from files and the RoPE scaling */

/* One sentence for a table file that could not be read (its own words, and where). */
static void table_error(const char *opt, const char *path, tf_status st, const tensor_diag *dg)
{
    if (st == TF_ERR_NOMEM) {
        err_say("out of memory reading %s %s.", opt, path);
    } else if (st != TF_ERR_IO && dg->has_offset) {
        err_say("%s %s: %s (byte %llu); give a 2-D table of floats written by numpy.save or "
                "safetensors.", opt, path, dg->msg, (unsigned long long)dg->offset);
    } else {
        err_say("%s %s: %s.", opt, path, dg->msg);
    }
}

/* The RoPE scaling from --scaling and its numbers: the method's published defaults, then what
 * was given. 0, or 2 after saying what does not go together. */
static int setup_scaling(tf_options *o)
{
    rope_scaling_cfg *s = &o->positions.scaling;
    bool numbers = o->factor > 0 || o->beta_fast > 0 || o->beta_slow > 0 || o->mscale > 0 ||
                   o->mscale_all_dim > 0 || o->attention_factor > 0 || o->low_freq_factor > 0 ||
                   o->high_freq_factor > 0 || o->seq_len > 0 || o->no_truncate;
    if (o->scaling == ROPE_SCALING_NONE && numbers) {
        err_say("--factor, --beta-fast, --beta-slow, --mscale, --mscale-all-dim, "
                "--attention-factor, --no-truncate, --low-freq-factor, --high-freq-factor and "
                "--seq-len set a RoPE scaling; choose one with --scaling linear, ntk, dynamic, "
                "yarn or llama3.");
        return 2;
    }
    rope_scaling_defaults(o->scaling, s);
    if (o->base_set)
        s->base = o->cfg.base;
    if (o->positions.trained > 0 && o->scaling != ROPE_SCALING_NONE)
        s->original = o->positions.trained;
    const double *given[] = {&o->factor, &o->beta_fast, &o->beta_slow, &o->mscale,
                             &o->mscale_all_dim, &o->attention_factor, &o->low_freq_factor,
                             &o->high_freq_factor};
    double *field[] = {&s->factor, &s->beta_fast, &s->beta_slow, &s->mscale,
                       &s->mscale_all_dim, &s->attention_factor, &s->low_freq_factor,
                       &s->high_freq_factor};
    for (size_t i = 0; i < sizeof given / sizeof *given; i++)
        if (*given[i] > 0)
            *field[i] = *given[i];
    if (o->seq_len > 0)
        s->seq_len = o->seq_len;
    if (o->no_truncate)
        s->truncate = false;
    return 0;
}

/* --pe-file and --t5-file: read, and let d_model, the buckets and the heads follow them unless
 * they were given. 0, or 2 after saying what was wrong. */
static int setup_tables(cli_run_state *c)
{
    tf_options *o = &c->o;
    tensor_diag dg = {0};
    if ((o->pe_tensor && !o->pe_file) || (o->t5_tensor && !o->t5_file)) {
        err_say("%s names a tensor of a file; give the file with %s.",
                o->pe_tensor && !o->pe_file ? "--pe-tensor" : "--t5-tensor",
                o->pe_tensor && !o->pe_file ? "--pe-file" : "--t5-file");
        return 2;
    }
    if (o->pe_file) {
        tf_status st = learned_pe_load(&c->table, o->pe_file, o->pe_tensor, &dg);
        if (st != TF_OK) {
            table_error("--pe-file", o->pe_file, st, &dg);
            return 2;
        }
        /* -n N: its first N rows, in every output (a 1,000,000-row table printed whole) */
        if (o->n_given && o->cfg.n_positions < c->table.n_pos)
            c->table.n_pos = o->cfg.n_positions;
        o->positions.table = &c->table;
        /* d_model follows the table (the sinusoidal curve beside it, the head it goes into) */
        if (!o->d_given && !o->vectors_path && c->table.d % 2 == 0 && c->table.d >= TF_MIN_DMODEL)
            o->cfg.d_model = c->table.d;
    }
    if (o->t5_file) {
        tf_status st = t5bias_load(&c->t5, o->t5_file, o->t5_tensor, &dg);
        if (st != TF_OK) {
            table_error("--t5-file", o->t5_file, st, &dg);
            return 2;
        }
        o->positions.t5 = &c->t5;
        o->positions.buckets.num_buckets = c->t5.num_buckets;
        if (c->t5.heads < o->positions.heads)
            o->positions.heads = c->t5.heads;
    }
    return 0;
}

/* Everything about the position schemes, checked once against d_model: 0, or 2. */
static int setup_positions(cli_run_state *c)
{
    tf_options *o = &c->o;
    tf_positions *p = &o->positions;
    memcpy(p->list, o->schemes, sizeof p->list);
    p->n = o->n_schemes;
    int r = setup_scaling(o);
    if (r == 0)
        r = setup_tables(c);
    if (r)
        return r;
    if (p->head >= p->heads) {
        err_say("--head %d is not one of the %d heads; give --head 1 to %d (or more --heads).",
                p->head + 1, p->heads, p->heads);
        return 2;
    }
    const char *why = NULL;
    tf_status st = positions_check(p, o->cfg.d_model, &why);
    if (st != TF_OK) {
        if (why)
            err_say("%s.", why);
        else if (st == TF_ERR_DMODEL)
            err_say("d_model %d does not suit --scaling %s; give an even -d of at least 4.",
                    o->cfg.d_model, rope_scaling_name(p->scaling.kind));
        else
            err_say("%s.", tf_status_str(st));
        return 2;
    }
    o->cfg.positions = p;
    return 0;
}

/* The modes of a sentence: --export, --show and --print, each checked by its front-end (the
 * table refuses the options of the others). 0, or 2 after saying why. */
static int check_mode(const cli_run_state *c)
{
    const tf_options *o = &c->o;
    if (o->show || o->export_path) {
        fig_request req = figure_req(c);
        const char *why = o->show        ? figures_check_show(&req, &o->cfg)
                          : o->print_what ? "--export and --print are separate modes; use one"
                          : o->lesson && o->big
                              ? "--big enlarges the live lesson for a projector, and the slides "
                                "are made for one already; leave --big out with --lesson --export"
                          : o->lesson     ? figures_deck_check(&req)
                                          : figures_check(&req, &o->cfg);
        if (why) {
            err_say("%s.", why);
            return 2;
        }
    } else if (o->print_what) {
        print_request pr = print_req(o, NULL);
        const char *why = print_check(&pr, &o->cfg);
        if (why && !print_topic_known(o->print_what)) {
            err_say("%s ('%s'); --print takes one of: %s.", why, o->print_what,
                    options_values("print"));
            return 2;
        }
        if (why) {
            err_say("%s.", why);
            return 2;
        }
    }
    return 0;
}

/* ---------------------------------------------------------------------------------------------
 * The sentence and the vectors */

/* TEXT is the arguments from `first` joined by spaces, or standard input for "-". 0, -1 out of
 * memory, -2 standard input could not be read (errno says why). */
static int read_text(int argc, char **argv, int first, cli_run_state *c)
{
    if (first == argc) {
        /* a figure in English shows an English sentence: no Chinese glyph, no CJK font */
        const tf_options *o = &c->o;
        bool en = strcmp(o->lang, "en") == 0 && (o->export_path || o->show);
        c->text = strdup(en ? TF_DEFAULT_TEXT_EN : TF_DEFAULT_TEXT);
        c->text_len = c->text ? strlen(c->text) : 0;
        return c->text ? 0 : -1;
    }
    if (argc - first == 1 && strcmp(argv[first], "-") == 0) {
        size_t cap = TF_MAX_TEXT_BYTES + 1;
        c->text = malloc(cap + 1);
        if (!c->text)
            return -1;
        /* at most one byte past the limit is read: a larger input is refused, not consumed */
        c->text_len = fread(c->text, 1, cap, stdin);
        if (ferror(stdin)) {
            int e = errno;
            free(c->text);
            c->text = NULL;
            errno = e;
            return -2;
        }
        c->text[c->text_len] = '\0';
        while (c->text_len &&
               (c->text[c->text_len - 1] == '\n' || c->text[c->text_len - 1] == '\r'))
            c->text[--c->text_len] = '\0';
        return 0;
    }
    size_t total = 0;
    for (int i = first; i < argc; i++)
        total += strlen(argv[i]) + 1;
    c->text = malloc(total + 1);
    if (!c->text)
        return -1;
    c->text_len = 0;
    for (int i = first; i < argc; i++) {
        size_t l = strlen(argv[i]);
        if (i > first)
            c->text[c->text_len++] = ' ';
        memcpy(c->text + c->text_len, argv[i], l);
        c->text_len += l;
    }
    c->text[c->text_len] = '\0';
    return 0;
}

/* --vectors FILE as the rows of W_E: d_model follows the file. Exit status, 0 to go on. */
static int use_vectors(cli_run_state *c)
{
    tf_options *o = &c->o;
    int rc = learn_read_vectors(o->vectors_path, o->vectors_limit, &c->vectors);
    if (rc)
        return rc;
    if (o->d_given && o->cfg.d_model != c->vectors.dim) {
        err_say("-d %d differs from the %d numbers per word in %s; leave -d out, d_model "
                "follows the file.", o->cfg.d_model, c->vectors.dim, o->vectors_path);
        return 2;
    }
    if (c->vectors.dim % 2 || c->vectors.dim < TF_MIN_DMODEL) {
        err_say("%s has %d numbers per word; tfviz needs an even d_model (positional encoding "
                "pairs sin and cos), so this file cannot be W_E.", o->vectors_path,
                c->vectors.dim);
        return 2;
    }
    o->cfg.d_model = c->vectors.dim;
    o->cfg.vectors = &c->vectors;
    return 0;
}

/* The analysis of the sentence; without its dictionary the default tokenizer falls back to
 * characters, once, with a note. */
static tf_status analyse(cli_run_state *c, tf_analysis *a, tf_diag *dg)
{
    tf_options *o = &c->o;
    tf_status st = analysis_run(&o->cfg, c->text, c->text_len, a, dg);
    if ((st == TF_ERR_UNAVAILABLE || st == TF_ERR_FORMAT) && dg->where == DIAG_CONFIG &&
        !o->tokenizer_set && o->cfg.tokenizer == TOKENIZER_WORD) {
        err_say("note: the word dictionary (tfviz-dict.bin) is %s in %s, so tokens are "
                "characters; install python3-jieba (scripts/bootstrap.sh) and rebuild for "
                "word segmentation.", st == TF_ERR_FORMAT ? "damaged" : "missing",
                o->cfg.data_dir);
        o->cfg.tokenizer = TOKENIZER_CHAR;
        st = analysis_run(&o->cfg, c->text, c->text_len, a, dg);
    }
    return st;
}

/* ---------------------------------------------------------------------------------------------
 * The front-ends */

static int run_print(const tf_options *o, tf_analysis *a)
{
    double work = print_work(o->print_what, o->format, a);
    if (work > TF_MAX_WORK) {
        err_say("--print %s with these settings would take about %.0f s (the limit is %.0f s); "
                "lower -n, -d or --vocab-size, or shorten the text.", o->print_what, work / 1e9,
                TF_MAX_WORK / 1e9);
        return 2;
    }
    tf_diag dg = {0};
    tf_status st = analysis_need(a, print_needs(o->print_what), &dg);
    if (st != TF_OK) {
        err_analysis(st, &dg, &o->cfg);
        return 2;
    }
    if (o->format == FMT_NPY && !o->output && isatty(STDOUT_FILENO)) {
        err_say("--format npy is binary; write it to a file with -o FILE.npy.");
        return 2;
    }
    print_request req = print_req(o, a);
    return print_run(&req);
}

/* --export or --show: the figure of the analysis, or of the order model trained first. */
static int run_figure(const cli_run_state *c, tf_analysis *a, bool show)
{
    const tf_options *o = &c->o;
    fig_request req = figure_req(c);
    if (!figures_need_order(req.name))
        return show ? figures_show(&req, a) : figures_export(&req, a);
    order_request r = order_req_on(o, a->text, a->text_len, &a->cfg);
    learn_order s;
    int rc = learn_order_open(&s, &r);
    if (rc)
        return rc;
    rc = learn_order_check_work(&s, show ? "--show order-training"
                                         : "--export --figure order-training");
    if (!rc) {
        learn_order_train(&s);
        req.order = s.tr;
        req.order_task = o->order_task;
        rc = show ? figures_show(&req, a) : figures_export(&req, a);
    }
    learn_order_close(&s);
    return rc;
}

/* The order model of the lesson (view 10, and the slides' step 7) on the class's sentence a:
 * -d sets the explorer's d_model and --heads ALiBi's and T5's, and the model takes them only
 * where they fit it (1 to 4 heads, d_model up to 256 and a multiple of 2H). */
static order_request lesson_order_req(const tf_options *o, const tf_analysis *a)
{
    order_request r = order_req_on(o, a->text, a->text_len, &a->cfg);
    if (r.heads > ORDER_MAX_HEADS)
        r.heads = 0;
    order_model_cfg mc;
    order_model_defaults(&mc);
    int h = r.heads ? r.heads : mc.heads;
    if (r.d_model > 256 || r.d_model % (2 * h) != 0)
        r.d_model = 0;
    return r;
}

/* --lesson --export: the lesson's slides, after training the order model once as the lesson
 * does. */
static int run_deck(const cli_run_state *c, tf_analysis *a)
{
    const tf_options *o = &c->o;
    fig_request req = figure_req(c);
    order_request r = lesson_order_req(o, a);
    learn_order s;
    int rc = learn_order_open(&s, &r);
    if (rc)
        return rc;
    rc = learn_order_check_work(&s, "--lesson --export");
    if (!rc) {
        learn_order_train(&s);
        req.order = s.tr;
        req.order_task = o->order_task;
        rc = figures_deck(&req, a, o->extended);
    }
    learn_order_close(&s);
    return rc;
}

/* The explorer or the lesson in a terminal, else the text report. */
static int run_terminal(const cli_run_state *c, tf_analysis *a)
{
    const tf_options *o = &c->o;
    if (tui_wanted()) {
        tui_request tr = {.cfg = o->cfg, .text = c->text, .text_len = c->text_len,
                          .zh = strcmp(o->lang, "en") != 0, .lesson = o->lesson, .big = o->big,
                          .extended = o->extended,
                          .no_color = o->no_color, .export = figures_export,
                          .raster = figures_raster, .order = lesson_order_req(o, a)};
        int rc = tui_run(&tr, a);
        if (rc != TUI_NO_TERMINAL)
            return rc;
        /* the terminal refused: the text report instead */
    } else if (o->lesson) {
        err_say("--lesson needs an interactive terminal (a terminal window with TERM set); run "
                "it there, or use --print for numbers.");
        return 2;
    }
    print_report(a, stdout);
    return 0;
}

/* The modes of a sentence: read it, analyse it, run the front-end. */
/* read_text, and what went wrong said: 0, or the exit status. */
static int read_text_said(int argc, char **argv, int first, cli_run_state *c)
{
    int r = read_text(argc, argv, first, c);
    if (r == -2) {
        err_say("cannot read the text from standard input: %s.", strerror(errno));
        return 1;
    }
    if (r != 0) {
        err_say("out of memory reading the text.");
        return 2;
    }
    return 0;
}

static int run_sentence(cli_run_state *c, int argc, char **argv, int first)
{
    tf_options *o = &c->o;
    int r = read_text_said(argc, argv, first, c);
    if (r)
        return r;
    if (o->vectors_path && (r = use_vectors(c)) != 0)
        return r;
    if (o->export_path || o->show)
        fig_warm_fonts(); /* while the analysis runs */
    tf_analysis a;
    tf_diag dg = {0};
    tf_status st = analyse(c, &a, &dg);
    int rc;
    if (st != TF_OK) {
        err_analysis(st, &dg, &o->cfg);
        rc = 2;
    } else if (o->export_path && o->lesson) {
        rc = run_deck(c, &a);
    } else if (o->export_path) {
        rc = run_figure(c, &a, false);
    } else if (o->show) {
        rc = run_figure(c, &a, true);
    } else if (o->print_what) {
        rc = run_print(o, &a);
    } else {
        rc = run_terminal(c, &a);
    }
    fig_release_fonts(); /* after the figures --export or the `e` key drew */
    analysis_free(&a);
    return rc;
}

/* A --print topic of what is learned: no sentence, but the order model's class sentence (the
 * text, 我爱学习 when none is given) joins its task. */
static int run_learned_print(cli_run_state *c, int argc, char **argv, int first)
{
    print_request pr = print_req(&c->o, NULL);
    if (print_trains_order(c->o.print_what)) {
        int r = read_text_said(argc, argv, first, c);
        if (r)
            return r;
        pr.order = order_req_on(&c->o, c->text, c->text_len, &c->o.cfg);
    }
    return print_run(&pr);
}

/* ---------------------------------------------------------------------------------------------
 * The run */

/* The mode's own checks first (their sentences say more), then the option table's: an option
 * given where it does not apply. 0, or 2 after saying why (n_text: the TEXT arguments). */
static int check_run(const cli_run_state *c, int n_text)
{
    const tf_options *o = &c->o;
    int r = 0;
    if (o->train) {
        r = check_train(o, n_text);
    } else if (o->train_order && o->format != FMT_TEXT) {
        err_say("--train-order trains and prints a report; for the curves as csv or json "
                "use --print order-training --format csv|json.");
        r = 2;
    } else if (!o->train_order && !print_learned(o->print_what)) {
        r = check_mode(c);
    }
    if (r == 0 && options_check_modes(o, options_modes(o)) != 0)
        r = 2;
    return r;
}

int cli_run(int argc, char **argv)
{
    signals_init(); /* before any file is written: every fatal signal removes it */

    cli_run_state c = {0};
    options_defaults(&c.o);
    int first;
    int r = options_parse(argc, argv, &c.o, &first);
    if (r)
        return r > 0 ? 0 : 2;
    if ((r = check_options(&c.o)) != 0 || (r = setup_positions(&c)) != 0) {
        learned_pe_free(&c.table);
        t5bias_free(&c.t5);
        return r;
    }
    if ((r = check_run(&c, argc - first)) != 0) {
        /* said */
    } else if (c.o.train) {
        learn_request lr = learn_req(&c.o);
        r = learn_train_vectors(&lr, c.o.output);
    } else if (c.o.train_order) {
        if ((r = read_text_said(argc, argv, first, &c)) == 0) {
            /* the class's sentence joins the generated task (order.h) */
            order_request orq = order_req_on(&c.o, c.text, c.text_len, &c.o.cfg);
            r = learn_train_order(&orq, c.o.output);
        }
    } else if (print_learned(c.o.print_what)) { /* vectors from a file or corpus, or order */
        r = run_learned_print(&c, argc, argv, first);
    } else {
        r = run_sentence(&c, argc, argv, first);
    }
    free(c.text);
    vectors_free(&c.vectors);
    learned_pe_free(&c.table);
    t5bias_free(&c.t5);
    return r;
}
