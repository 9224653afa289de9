/* test_options.c — the option table: typed rows read, range-check and store their values, and
 * refuse a bad one in one sentence; the choices are the model's names; an option given where it
 * does not apply is refused with the modes it applies to, and accepted where it does. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "colormap.h"
#include "core/err.h"
#include "core/figreq.h"
#include "core/options.h"
#include "rope.h"
#include "rope_scaling.h"
#include "tokenizer.h"

/* ---- parsing with the sentence caught ---- */

static char said[600];

static void catch_msg(const char *msg, void *ctx)
{
    (void)ctx;
    snprintf(said, sizeof said, "%s", msg);
}

/* Parse the words after "tfviz", up to END, into o: options_parse's return. */
#define END ((const char *)NULL)
static int parse(tf_options *o, const char *first, ...)
{
    static char name[] = "tfviz";
    char *argv[32] = {name};
    int argc = 1;
    va_list ap;
    va_start(ap, first);
    for (const char *w = first; w && argc < 31; w = va_arg(ap, const char *))
        argv[argc++] = (char *)w;
    va_end(ap);
    argv[argc] = NULL;
    said[0] = '\0';
    options_defaults(o);
    err_sink old = err_redirect((err_sink){catch_msg, NULL});
    int first_arg;
    int rc = options_parse(argc, argv, o, &first_arg);
    err_redirect(old);
    return rc;
}

/* Refused in one sentence that holds `words`, in a run of every mode (so that the option
 * applies and its value is what is judged). */
static void refused(const char *opt, const char *value, const char *words)
{
    tf_options o;
    if (parse(&o, "--lesson", "--print", "pe", "--export", "f.pdf", "--show", "pe", "--train",
              "--train-order", opt, value, END) != -1 || !strstr(said, words))
        fail_msg("%s %s: want a refusal with '%s', got '%s'", opt, value, words, said);
}

/* ---- the typed rows ---- */

/* Integers and real numbers: the ends of the range are in, one step past them out, each said
 * with its range. */
static void test_ranges(void **state)
{
    (void)state;
    tf_options o;
    assert_int_equal(parse(&o, "--dpi", "30", "--frames", "1", "--top", "10000", END), 0);
    assert_float_equal(o.fig.dpi, 30, 0);
    assert_int_equal(o.fig.frames, 1);
    assert_int_equal(o.top, 10000);
    assert_true(o.top_given);
    refused("--dpi", "29", "--dpi must be from 30 to 2400 (got 29)");
    refused("--dpi", "2401", "from 30 to 2400");
    refused("--dpi", "300.5", "--dpi expects a whole number");
    refused("--window", "0", "--window must be from 1 to 100");
    refused("--top", "10001", "--top must be from 1 to 10000");
    /* -d: even */
    assert_int_equal(parse(&o, "-d", "8", END), 0);
    assert_int_equal(o.cfg.d_model, 8);
    assert_int_equal(o.w2v.dim, 8);
    assert_true(o.d_given);
    refused("-d", "7", "--d-model must be an even number from");
    refused("-d", "7", "try -d 512");
    /* real numbers: closed, open below, open above, unbounded but finite */
    assert_int_equal(parse(&o, "--font-size", "36", "--factor", "1", "--beta-fast", "1e-9",
                           "--sample", "0", "--vmin", "-1e300", END), 0);
    assert_float_equal(o.fig.font_size, 36, 0);
    assert_float_equal(o.factor, 1, 0);
    assert_float_equal(o.beta_fast, 1e-9, 0);
    assert_float_equal(o.w2v.sample, 0, 0);
    assert_true(o.fig.has_vmin && !o.fig.has_vmax);
    refused("--font-size", "3.9", "--font-size must be a number from 4 to 36 (got 3.9)");
    refused("--factor", "0.99", "--factor must be a number from 1 to 1000000000");
    refused("--beta-fast", "0", "greater than 0 and at most 1000000000");
    refused("--sample", "1", "--sample must be a number from 0 to below 1 (got 1); word2vec");
    refused("--base", "1", "--base must be a finite number greater than 1 (got 1); 10000");
    refused("--base", "inf", "finite number greater than 1");
    refused("--vmax", "nan", "--vmax must be a finite number (got nan)");
    refused("--fps", "51", "GIF viewers slow anything faster down");
    refused("--seed", "-1", "non-negative");
}

/* Choices: each of the model's names gives its enum; another word is refused with the list. */
static void test_choices(void **state)
{
    (void)state;
    tf_options o;
    for (int k = 0; k < TOKENIZER_COUNT; k++) {
        assert_int_equal(parse(&o, "--tokenizer", tokenizer_name((tokenizer_kind)k), END), 0);
        assert_int_equal(o.cfg.tokenizer, k);
        assert_true(o.tokenizer_set);
    }
    for (int k = 0; k < ROPE_STYLE_COUNT; k++) {
        assert_int_equal(parse(&o, "--rope-style", rope_style_name((rope_style)k), END), 0);
        assert_int_equal(o.cfg.rope, k);
    }
    for (int k = 0; k < ROPE_SCALING_COUNT; k++) {
        assert_int_equal(parse(&o, "--scaling", rope_scaling_name((rope_scaling_kind)k), END), 0);
        assert_int_equal(o.scaling, k);
    }
    for (int k = 0; k < CMAP_COUNT; k++) {
        assert_int_equal(parse(&o, "--colormap", colormap_name((cmap_id)k), END), 0);
        assert_string_equal(o.fig.colormap, colormap_name((cmap_id)k));
    }
    for (int f = 0; f < FMT_COUNT; f++) {
        assert_int_equal(parse(&o, "--format", options_format_name((out_format)f), END), 0);
        assert_int_equal(o.format, f);
    }
    /* the venues: the list the refusal says is figreq's */
    refused("--venue", "nature", fig_venue_names());
    assert_int_equal(parse(&o, "--venue", "ieee", END), 0);
    assert_non_null(fig_venue_find(o.venue));
    assert_int_equal(parse(&o, "--pe-layout", "split", "--order-b", "own", "--lang", "en", END),
                     0);
    assert_true(o.fig.pe_split && o.fig.pe_layout_set && o.fig.order_own);
    assert_string_equal(o.lang, "en");
    refused("--format", "xml", "--format must be text, csv, json or npy (got 'xml')");
    refused("--lang", "fr", "--lang must be zh or en (got 'fr')");
    refused("--order-b", "mine", "--order-b must be aligned or own");
    refused("--scaling", "rope", "none, linear, ntk, dynamic, yarn or llama3");
}

/* The options that fill several fields: --heads, --head, --epochs and --seed. */
static void test_shared_fields(void **state)
{
    (void)state;
    tf_options o;
    assert_int_equal(parse(&o, "--heads", "3", "--head", "2", "--epochs", "7", "--seed", "9",
                           "--compare", "学习爱我", END), 0);
    assert_int_equal(o.positions.heads, 3);
    assert_int_equal(o.heads, 3);
    assert_int_equal(o.positions.head, 1);
    assert_int_equal(o.w2v.epochs, 7);
    assert_int_equal(o.order_epochs, 7);
    assert_int_equal(o.cfg.seed, 9);
    assert_int_equal(o.w2v.seed, 9);
    assert_int_equal(o.cfg.compare_len, strlen("学习爱我"));
    /* not given: the defaults stay */
    assert_int_equal(parse(&o, END), 0);
    assert_int_equal(o.heads, 0);
    assert_int_equal(o.order_epochs, 0);
    assert_int_equal(o.positions.head, 0);
}

/* ---- where the options apply ---- */

typedef struct {
    const char *argv[8];
    const char *said; /* NULL: accepted */
} mode_case;

static void test_modes(void **state)
{
    (void)state;
    static const mode_case cases[] = {
        /* refused where they would be ignored */
        {{"--print", "pe", "--no-color"}, "--no-color applies to the explorer or --lesson, not "
                                          "to --print (这个选项在这里不起作用)"},
        {{"--show", "pe", "--no-color"}, "not to --show"},
        {{"--train", "--word", "猫"}, "--word applies to --print, not to --train"},
        {{"--train", "--scheme", "rope"}, "--scheme applies to"},
        {{"--train-order", "--top", "5"}, "--top applies to --print, not to --train-order"},
        {{"--lesson", "--top", "5"}, "not to --lesson"},
        {{"--export", "a.png", "--word", "猫"}, "not to --export"},
        {{"--window", "3"}, "--window applies to --print, --export, --show or --train, not to "
                            "the explorer"},
        {{"--show", "pe", "--fps", "5"}, "--fps applies to --export, not to --show"},
        {{"--train-order", "--mask", "causal"}, "--mask applies to"},
        {{"--print", "pe", "--big"}, "--big applies to --lesson"},
        /* accepted where they apply, several modes for many */
        {{"-d", "64", "--print", "pe"}, NULL},
        {{"-d", "64", "--train"}, NULL},
        {{"-d", "64", "--train-order"}, NULL},
        {{"--lang", "en", "--show", "pe"}, NULL},
        {{"--lang", "en", "--train"}, NULL},
        {{"--lesson", "--big", "--extended"}, NULL},
        {{"--train-order", "--heads", "2", "--scheme", "none,rope"}, NULL},
        {{"--epochs", "3", "--threads", "2"}, NULL}, /* view 10's order model */
        {{"--print", "order-training", "--order-task", "t.txt"}, NULL},
        {{"--print", "pe", "--pe-layout", "split", "-o", "pe.txt"}, NULL},
        {{"--train", "--seed", "7", "--corpus", "c.txt", "-o", "v.bin"}, NULL},
        {{"--no-color", "--compare", "学习爱我"}, NULL},
        {{"--show", "pe", "--colormap", "gray", "--serif"}, NULL},
        /* two modes at once (refused elsewhere when they do not go together): what applies to
         * either passes the table */
        {{"--lesson", "--export", "deck.pdf", "--big", "--dpi", "300"}, NULL},
    };
    /* a bad value where the option does not apply: refused for that, not for the value */
    tf_options o;
    assert_int_equal(parse(&o, "--print", "pe", "--dpi", "3", END), -1);
    assert_non_null(strstr(said, "--dpi applies to --export, not to --print"));
    assert_int_equal(parse(&o, "--fps", "0", "--train", END), -1);
    assert_non_null(strstr(said, "--fps applies to --export, not to --train"));
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const mode_case *c = &cases[i];
        const char *const *a = c->argv;
        assert_int_equal(parse(&o, a[0], a[1], a[2], a[3], a[4], a[5], a[6], END), 0);
        err_sink old = err_redirect((err_sink){catch_msg, NULL});
        said[0] = '\0';
        int rc = options_check_modes(&o, options_modes(&o));
        err_redirect(old);
        if (c->said ? rc != -1 || !strstr(said, c->said) : rc != 0)
            fail_msg("case %zu (%s %s ...): want %s, got %d '%s'", i, a[0], a[1],
                     c->said ? c->said : "accepted", rc, said);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ranges),
        cmocka_unit_test(test_choices),
        cmocka_unit_test(test_shared_fields),
        cmocka_unit_test(test_modes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
