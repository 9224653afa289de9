/* cli.c — one run of tfviz: parse the command line (core/options), refuse what does not go
 * together, read TEXT, analyse it and hand the result to one front-end: --print, --export,
 * --train or the explorer. It holds no option of its own and draws or prints nothing itself. */
#include "cli.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/datadir.h"
#include "core/err.h"
#include "core/options.h"
#include "figure.h"
#include "figures/figures.h"
#include "fileio.h"
#include "learn/learn.h"
#include "learn/order.h"
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
} cli_run_state;

/* ---------------------------------------------------------------------------------------------
 * The requests the front-ends take */

static fig_request figure_req(const cli_run_state *c)
{
    const tf_options *o = &c->o;
    return (fig_request){.name = o->figure, .path = o->export_path,
                         .zh = strcmp(o->lang, "en") != 0, .dpi = o->dpi,
                         .width = o->fig_width, .height = o->fig_height,
                         .colormap = o->colormap, .font_size = o->font_size,
                         .title = o->title, .no_title = o->no_title,
                         .vectors = o->cfg.vectors, .vectors_named = o->vectors_path != NULL};
}

/* The order model the command line asks for: --train-order, --print order-training, the
 * order-training figure and the explorer's view 9. */
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
                           .tokenizer_set = o->tokenizer_set, .params = o->w2v};
}

/* The --print the command line asks for, on analysis a (NULL: a learned topic). */
static print_request print_req(const tf_options *o, tf_analysis *a)
{
    return (print_request){.what = o->print_what, .format = o->format, .output = o->output,
                           .a = a, .learn = learn_req(o), .vectors_path = o->vectors_path,
                           .vectors_limit = o->vectors_limit, .word = o->word, .top = o->top,
                           .top_given = o->top_given, .order = order_req(o)};
}

/* ---------------------------------------------------------------------------------------------
 * What does not go together: 0, or 2 after saying why */

/* The order model's options: --train-order alone, and --order-task, --order-pairs and --heads
 * only where the order model is trained. */
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
                     (o->export_path && !figures_need_order(o->figure));
    const char *which = o->order_task ? "--order-task" : o->order_pairs[0] ? "--order-pairs"
                        : o->heads ? "--heads" : NULL;
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

/* The options among themselves, before any mode starts. */
static int check_options(tf_options *o)
{
    if (o->vocab_size_set &&
        (o->cfg.tokenizer == TOKENIZER_CL100K || o->cfg.tokenizer == TOKENIZER_O200K)) {
        err_say("--vocab-size goes with --tokenizer word or char; the %s vocabulary has its "
                "own fixed size.", tokenizer_name(o->cfg.tokenizer));
        return 2;
    }
    if (o->big && !o->lesson) {
        err_say("--big is the lesson's projector mode; use it with --lesson "
                "(tfviz --lesson --big).");
        return 2;
    }
    if (o->lesson && (o->print_what || o->export_path || o->train)) {
        err_say("--lesson is interactive and %s writes a file or numbers; choose one.",
                o->print_what ? "--print" : o->train ? "--train" : "--export");
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
    if (o->train && (o->print_what || o->vectors_path)) {
        err_say("--train learns vectors; use --print or --vectors in a separate run with the "
                "file it writes (-o).");
        return 2;
    }
    return check_order_options(o);
}

/* The modes of a sentence: --export, the figure options, --print, --format and -o. */
static int check_mode(const cli_run_state *c)
{
    const tf_options *o = &c->o;
    if (o->export_path) {
        fig_request req = figure_req(c);
        const char *why = o->print_what ? "--export and --print are separate modes; use one"
                          : o->format != FMT_TEXT || o->output
                              ? "--format and --output go with --print; --export takes the "
                                "file name"
                              : figures_check(&req, &o->cfg);
        if (why) {
            err_say("%s.", why);
            return 2;
        }
    } else if (o->figure || o->dpi > 0 || o->fig_width > 0 || o->fig_height > 0 ||
               o->colormap || o->font_size > 0 || o->title || o->no_title) {
        err_say("--figure, --dpi, --width, --height, --colormap, --font-size and --title go "
                "with --export FILE; for example tfviz --export pe.pdf --figure pe.");
        return 2;
    } else if (o->print_what) {
        print_request pr = print_req(o, NULL);
        const char *why = print_check(&pr, &o->cfg);
        if (why) {
            err_say("%s ('%s'); --print takes one of: %s.", why, o->print_what,
                    options_values("print"));
            return 2;
        }
    } else if (o->format != FMT_TEXT || o->output) {
        err_say("--format and --output go with --print WHAT; for example "
                "tfviz --print pe --format csv -o pe.csv.");
        return 2;
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
        c->text = strdup(TF_DEFAULT_TEXT);
        c->text_len = strlen(TF_DEFAULT_TEXT);
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

/* --export: the figure of the analysis, or of the order model trained first. */
static int run_export(const cli_run_state *c, tf_analysis *a)
{
    const tf_options *o = &c->o;
    fig_request req = figure_req(c);
    if (!figures_need_order(req.name))
        return figures_export(&req, a);
    order_request r = order_req(o);
    learn_order s;
    int rc = learn_order_open(&s, &r);
    if (rc)
        return rc;
    rc = learn_order_check_work(&s, "--export --figure order-training");
    if (!rc) {
        learn_order_train(&s);
        req.order = s.tr;
        req.order_task = o->order_task;
        rc = figures_export(&req, a);
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
                          .no_color = o->no_color, .export = figures_export,
                          .order = order_req(o)};
        /* -d sets the explorer's d_model; view 9's model takes it only where it fits */
        if (tr.order.d_model > 256 || (o->heads == 0 && tr.order.d_model % 4 != 0))
            tr.order.d_model = 0;
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
static int run_sentence(cli_run_state *c, int argc, char **argv, int first)
{
    tf_options *o = &c->o;
    int r = read_text(argc, argv, first, c);
    if (r == -2) {
        err_say("cannot read the text from standard input: %s.", strerror(errno));
        return 1;
    }
    if (r != 0) {
        err_say("out of memory reading the text.");
        return 2;
    }
    if (o->vectors_path && (r = use_vectors(c)) != 0)
        return r;
    if (o->export_path)
        fig_warm_fonts(); /* while the analysis runs */
    tf_analysis a;
    tf_diag dg = {0};
    tf_status st = analyse(c, &a, &dg);
    int rc;
    if (st != TF_OK) {
        err_analysis(st, &dg, &o->cfg);
        rc = 2;
    } else if (o->export_path) {
        rc = run_export(c, &a);
    } else if (o->print_what) {
        rc = run_print(o, &a);
    } else {
        rc = run_terminal(c, &a);
    }
    fig_release_fonts(); /* after the figures --export or the `e` key drew */
    analysis_free(&a);
    return rc;
}

/* ---------------------------------------------------------------------------------------------
 * The run */

static void on_signal(int sig)
{
    fileio_signal_cleanup(); /* NOLINT(bugprone-signal-handler): only unlink(), which is safe */
    signal(sig, SIG_DFL);
    raise(sig);
}

int cli_run(int argc, char **argv)
{
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    signal(SIGHUP, on_signal);
    /* a closed pipe on stderr or stdout must not leave a temporary file; a SIGPIPE the caller
     * ignores stays ignored, and the write error is reported instead */
    struct sigaction pipe_was;
    if (sigaction(SIGPIPE, NULL, &pipe_was) == 0 && pipe_was.sa_handler != SIG_IGN)
        signal(SIGPIPE, on_signal);

    cli_run_state c = {0};
    options_defaults(&c.o);
    int first;
    int r = options_parse(argc, argv, &c.o, &first);
    if (r)
        return r > 0 ? 0 : 2;
    if ((r = check_options(&c.o)) != 0)
        return r;
    if (c.o.train) {
        learn_request lr = learn_req(&c.o);
        return learn_train(&lr, c.o.output);
    }
    if (c.o.train_order) {
        if (first < argc || c.o.format != FMT_TEXT) {
            err_say("--train-order trains on its own task and prints a report; %s",
                    first < argc ? "it reads no sentence (give your sentences with --order-task "
                                   "FILE)."
                                 : "for the curves as csv or json use --print order-training "
                                   "--format csv|json.");
            return 2;
        }
        order_request orq = order_req(&c.o);
        return learn_train_order(&orq, c.o.output);
    }
    if (print_learned(c.o.print_what)) { /* no sentence: vectors from a file or the corpus */
        print_request pr = print_req(&c.o, NULL);
        return print_run(&pr);
    }
    if ((r = check_mode(&c)) != 0)
        return r;
    r = run_sentence(&c, argc, argv, first);
    free(c.text);
    vectors_free(&c.vectors);
    return r;
}
