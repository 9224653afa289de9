/* options.c — the table of options, and what is made of it: parsing, --help, the man page's
 * OPTIONS section and the completions. */
#include "core/options.h"

#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "anim.h"
#include "colormap.h"
#include "core/err.h"
#include "core/figreq.h"
#include "core/strings.h"
#include "order_task.h"
#include "rope.h"
#include "tf_config.h"
#include "tf_limits.h"
#include "utf8.h"
#include "vectors.h"

void options_defaults(tf_options *o)
{
    memset(o, 0, sizeof *o);
    config_defaults(&o->cfg);
    o->cfg.tokenizer = TOKENIZER_WORD; /* the command line segments words by default */
    w2v_params_defaults(&o->w2v);
    positions_defaults(&o->positions);
    o->top = 10;
    o->lang = "zh";
}

/* ---------------------------------------------------------------------------------------------
 * Numbers: the whole argument must be a number, in range */

/* Numbers are read one way everywhere: an optional sign, then decimal digits (real numbers: a
 * point and an exponent too), as strtol and strtod read them, but not what else those take:
 * leading spaces, hexadecimal (0x10, 0x1p4). The words inf and nan pass for real numbers: each
 * option's range refuses them in its own words. */
static bool decimal_start(const char *s, bool real)
{
    const char *p = s + (*s == '-' || *s == '+');
    if (real && (strncasecmp(p, "inf", 3) == 0 || strncasecmp(p, "nan", 3) == 0))
        return true;
    bool digit = isdigit((unsigned char)*p) ||
                 (real && *p == '.' && isdigit((unsigned char)p[1]));
    return digit && !strpbrk(s, "xX");
}

static int parse_long(const char *opt, const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (!decimal_start(s, false) || end == s || *end != '\0') {
        err_say("%s expects a whole number, not '%s'.", opt, s);
        return -1;
    }
    /* lo, hi = LONG_MIN, LONG_MAX: the caller checks its own range and words its own message,
     * so an overflowing number comes back clamped instead of refused here */
    int full = lo == LONG_MIN && hi == LONG_MAX;
    if ((errno == ERANGE && !full) || v < lo || v > hi) {
        err_say("%s must be from %ld to %ld (got %s).", opt, lo, hi, s);
        return -1;
    }
    *out = v;
    return 0;
}

static int parse_double(const char *opt, const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (!decimal_start(s, true) || end == s || *end != '\0') {
        err_say("%s expects a number, not '%s'.", opt, s);
        return -1;
    }
    if (errno == ERANGE) {
        err_say("%s is too large or too small for a double (got %s).", opt, s);
        return -1;
    }
    *out = v;
    return 0;
}

static int parse_u64(const char *opt, const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    /* strtoull skips leading space and accepts a minus sign (negating the value): refuse both */
    if (*s == '-' || *s == ' ' || (*s >= '\t' && *s <= '\r')) {
        err_say("%s expects a non-negative whole number, not '%s'.", opt, s);
        return -1;
    }
    unsigned long long v = strtoull(s, &end, 10);
    if (end == s || *end != '\0' || errno == ERANGE) {
        err_say("%s expects a non-negative whole number below 2^64, not '%s'.", opt, s);
        return -1;
    }
    *out = v;
    return 0;
}

/* ---------------------------------------------------------------------------------------------
 * The callbacks: the options no type describes. 0, 1 (help or version printed: stop), -1 (said) */

static int set_help(tf_options *o, const char *v)
{
    (void)o, (void)v;
    options_help(stdout);
    return 1;
}

static int set_version(tf_options *o, const char *v)
{
    (void)o, (void)v;
    printf("tfviz %s\n", TF_VERSION);
    return 1;
}

const char *options_format_name(out_format f)
{
    static const char *const names[FMT_COUNT] = {"text", "csv", "json", "npy"};
    return (unsigned)f < FMT_COUNT ? names[f] : "?";
}

static int set_scheme(tf_options *o, const char *v)
{
    size_t bad;
    if (!scheme_parse_list(v, o->schemes, SCHEME_COUNT, &o->n_schemes, &bad)) {
        size_t len = strcspn(v + bad, ",");
        err_say("--scheme takes names separated by commas: none, sinusoidal, learned, rope, "
                "alibi or t5 (got '%.*s').",
                (int)len, v + bad);
        return -1;
    }
    return 0;
}

/* a choice with an alias (bidirectional) and its own words */
static int set_mask(tf_options *o, const char *v)
{
    o->positions.mask = scheme_mask_parse(v);
    if (o->positions.mask == SCHEME_MASK_COUNT) {
        err_say("--mask must be causal (a decoder: keys after the query hidden) or symmetric "
                "(every key seen; also 'bidirectional'), not '%s'.", v);
        return -1;
    }
    return 0;
}

/* --order-pairs N or N,M: pairs of the generated task in training (and held out). */
static int set_order_pairs(tf_options *o, const char *v)
{
    char first[32];
    const char *comma = strchr(v, ',');
    size_t n = comma ? (size_t)(comma - v) : strlen(v);
    if (n >= sizeof first) {
        err_say("--order-pairs expects N or N,M (training and held-out pairs), not '%s'.", v);
        return -1;
    }
    memcpy(first, v, n);
    first[n] = '\0';
    if (parse_long("--order-pairs", first, 1, ORDER_MAX_PAIRS, &o->order_pairs[0]))
        return -1;
    o->order_pairs[1] = 0;
    return comma ? parse_long("--order-pairs", comma + 1, 1, ORDER_MAX_PAIRS, &o->order_pairs[1])
                 : 0;
}

/* --width and --height: a length with a unit */
static int set_length(const char *name, const char *v, double *out)
{
    bool word = fig_width_preset_of(v) != FIG_WIDTH_NONE; /* one-column, two-column, half */
    double len = word || decimal_start(v, true) ? fig_parse_length(v) : -1;
    if (len < 0) {
        err_say("%s expects a length such as 3.5in, 8.9cm, 89mm or 252pt (or one-column, "
                "two-column, half), not '%s'.", name, v);
        return -1;
    }
    *out = len;
    return 0;
}

static int set_width(tf_options *o, const char *v)
{
    o->fig_width_column = (int)fig_width_preset_of(v);
    return set_length("--width", v, &o->fig.width);
}

static int set_height(tf_options *o, const char *v)
{
    return set_length("--height", v, &o->fig.height);
}

static int set_font(tf_options *o, const char *v)
{
    if (!*v) {
        err_say("--font needs a font family, for example --font 'Noto Serif CJK SC'.");
        return -1;
    }
    o->fig.font = v;
    return 0;
}

static int set_title(tf_options *o, const char *v)
{
    if (utf8_validate(v, strlen(v), NULL) != TF_OK) {
        err_say("--title is not valid UTF-8; save it as UTF-8 and try again.");
        return -1;
    }
    size_t n = utf8_count(v, strlen(v));
    if (n > FIG_MAX_TITLE_CHARS) {
        err_say("--title is %zu characters long; a figure's title takes at most %d: shorten it "
                "and put the rest in the caption.",
                n, FIG_MAX_TITLE_CHARS);
        return -1;
    }
    o->fig.title = v;
    return 0;
}

/* ---------------------------------------------------------------------------------------------
 * The table */

#include "core/options_table.h"

_Static_assert(N_OPTIONS <= OPTIONS_MAX, "tf_options.given has a place for every row");

/* ---------------------------------------------------------------------------------------------
 * The typed rows: read, check and store the value as the row's type says. 0, or -1 (said) */

/* v into a whole-number field of `size` bytes (int, long, or an enum's or a bool's index). */
static void store_whole(void *field, size_t size, long v)
{
    if (size == sizeof(long))
        *(long *)field = v;
    else if (size == sizeof(int))
        *(int *)field = (int)v;
    else
        *(bool *)field = v != 0;
}

/* "a, b or c": the names (NULL at the end) whose bit is set in pick. */
static const char *join_or(const char *const *names, unsigned pick, char *buf, size_t cap)
{
    int n = 0, k = 0;
    for (int i = 0; names[i]; i++)
        n += (pick >> i) & 1;
    size_t at = 0;
    buf[0] = '\0';
    for (int i = 0; names[i]; i++)
        if ((pick >> i) & 1)
            at += (size_t)snprintf(buf + at, at < cap ? cap - at : 0, "%s%s",
                                   ++k == 1 ? "" : k == n ? " or " : ", ", names[i]);
    return buf;
}

/* A real number of a row: finite and in its range, or one sentence that says the range. */
static int store_real(const tf_option *r, const char *opt, const char *v, double *out)
{
    double x;
    if (parse_double(opt, v, &x))
        return -1;
    bool above = r->type == OPT_ABOVE, below = r->type == OPT_BELOW;
    bool ok = isfinite(x) && (above ? x > r->lo : x >= r->lo) && (below ? x < r->hi : x <= r->hi);
    if (!ok) {
        char range[80];
        if (r->lo == -DBL_MAX)
            snprintf(range, sizeof range, "a finite number");
        else if (r->hi == DBL_MAX)
            snprintf(range, sizeof range, "a finite number %s %.12g",
                     above ? "greater than" : "from", r->lo);
        else
            snprintf(range, sizeof range, "a number %s %.12g %s %.12g",
                     above ? "greater than" : "from", r->lo,
                     above ? "and at most" : below ? "to below" : "to", r->hi);
        err_say("%s must be %s (got %s)%s%s.", opt, range, v, r->hint ? "; " : "",
                r->hint ? r->hint : "");
        return -1;
    }
    *out = x;
    return 0;
}

static int store(const tf_option *r, tf_options *o, const char *v)
{
    void *field = (char *)o + r->field;
    char opt[40], list[200];
    snprintf(opt, sizeof opt, "--%s", r->name);
    long n;
    switch (r->type) {
    case OPT_FLAG:
        *(bool *)field = true;
        return 0;
    case OPT_STRING:
        *(const char **)field = v;
        return 0;
    case OPT_INT:
        if (parse_long(opt, v, (long)r->lo, (long)r->hi, &n))
            return -1;
        store_whole(field, r->size, n);
        return 0;
    case OPT_INT_REAL:
        if (parse_long(opt, v, (long)r->lo, (long)r->hi, &n))
            return -1;
        *(double *)field = (double)n;
        return 0;
    case OPT_EVEN:
        if (parse_long(opt, v, LONG_MIN, LONG_MAX, &n))
            return -1;
        if (n < (long)r->lo || n > (long)r->hi || n % 2) {
            err_say("%s must be an even number from %ld to %ld (got %s); %s.", opt, (long)r->lo,
                    (long)r->hi, v, r->hint);
            return -1;
        }
        store_whole(field, r->size, n);
        return 0;
    case OPT_U64:
        return parse_u64(opt, v, (uint64_t *)field);
    case OPT_REAL:
    case OPT_ABOVE:
    case OPT_BELOW:
        return store_real(r, opt, v, (double *)field);
    case OPT_CHOICE:
    case OPT_NAME:
        for (long i = 0; r->choices[i]; i++)
            if (strcmp(v, r->choices[i]) == 0) {
                if (r->type == OPT_NAME)
                    *(const char **)field = r->choices[i];
                else
                    store_whole(field, r->size, i);
                return 0;
            }
        err_say("%s must be %s (got '%s').", opt, join_or(r->choices, ~0u, list, sizeof list), v);
        return -1;
    case OPT_CALLBACK:
        break;
    }
    return r->set(o, v);
}

/* ---------------------------------------------------------------------------------------------
 * Parsing */

static bool given(const tf_options *o, const char *name)
{
    for (size_t i = 0; i < N_OPTIONS; i++)
        if (strcmp(options[i].name, name) == 0)
            return o->given[i];
    return false;
}

/* What follows from the options given: the flags that say so, and the fields that several
 * options or several parts of the program read. */
static void finish(tf_options *o)
{
    o->d_given = given(o, "d-model");
    if (o->d_given)
        o->w2v.dim = o->cfg.d_model;
    o->n_given = given(o, "positions");
    o->base_set = given(o, "base");
    o->offset_set = given(o, "offset");
    o->vocab_size_set = given(o, "vocab-size");
    o->tokenizer_set = given(o, "tokenizer");
    o->fig.pe_layout_set = given(o, "pe-layout");
    o->fig.has_vmin = given(o, "vmin");
    o->fig.has_vmax = given(o, "vmax");
    o->fig.base_given = o->base_set;
    o->threads_given = given(o, "threads");
    o->top_given = given(o, "top");
    if (given(o, "seed"))
        o->w2v.seed = o->cfg.seed; /* trained word vectors start from it too */
    if (o->cfg.compare)
        o->cfg.compare_len = strlen(o->cfg.compare);
    /* --heads: ALiBi's and T5's, and the trained order model's, which checks its own range
     * (1 .. 4); --epochs: word2vec's, and the order model's (1 .. 1000) */
    if (o->heads)
        o->positions.heads = o->heads;
    if (o->head)
        o->positions.head = o->head - 1;
    if (o->order_epochs)
        o->w2v.epochs = o->order_epochs;
}

static void unsaid(const char *msg, void *ctx)
{
    (void)msg, (void)ctx;
}

static int not_here(size_t i, unsigned modes);

/* The options of argv, by getopt_long: with modes 0 only marked given, else stored; one that
 * does not apply to modes and has a bad value refused for where it applies. 0, or the exit
 * status after saying what was wrong. */
static int scan(int argc, char **argv, const char *shorts, const struct option *longs,
                tf_options *o, unsigned modes)
{
    opterr = 0;
    optind = 0; /* glibc: 0 re-initialises getopt, so parsing can run more than once */
    int c;
    while ((c = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
        size_t i = 0;
        while (i < N_OPTIONS && c != (int)(256 + i) && !(c < 256 && c == options[i].short_name))
            i++;
        if ((c == ':' || i == N_OPTIONS) && !modes)
            continue; /* said, in its turn, by the pass that stores (--help before it acts) */
        if (c == ':') {
            err_say("%s needs a value; see tfviz --help.", argv[optind - 1]);
            return -1;
        }
        if (i == N_OPTIONS) {
            if (optopt)
                err_say("unknown option '-%c'; see tfviz --help.", optopt);
            else
                err_say("unknown option '%s'; see tfviz --help.", argv[optind - 1]);
            return -1;
        }
        o->given[i] = true;
        if (modes && !(options[i].modes & modes)) {
            /* stored too, but a bad value is not what to mend: the option has no place here */
            err_sink said = err_redirect((err_sink){unsaid, NULL});
            int rc = store(&options[i], o, optarg);
            err_redirect(said);
            if (rc)
                return not_here(i, modes);
        } else if (modes) {
            int rc = store(&options[i], o, optarg);
            if (rc)
                return rc;
        }
    }
    return 0;
}

int options_parse(int argc, char **argv, tf_options *o, int *first_arg)
{
    struct option longs[N_OPTIONS + 1];
    char shorts[2 * N_OPTIONS + 2] = ":";
    size_t ns = 1;
    for (size_t i = 0; i < N_OPTIONS; i++) {
        const tf_option *r = &options[i];
        longs[i] = (struct option){r->name, r->arg ? required_argument : no_argument, NULL,
                                   (int)(256 + i)};
        if (r->short_name) {
            shorts[ns++] = r->short_name;
            if (r->arg)
                shorts[ns++] = ':';
        }
    }
    longs[N_OPTIONS] = (struct option){0, 0, 0, 0};
    shorts[ns] = '\0';
    /* first which options were given, so that the run's modes are known: a value is read (and
     * range-checked) only where its option applies; one that does not is refused for that by
     * options_check_modes, not for its value */
    int rc = scan(argc, argv, shorts, longs, o, 0);
    if (rc == 0)
        rc = scan(argc, argv, shorts, longs, o, options_modes(o));
    if (rc)
        return rc;
    finish(o);
    *first_arg = optind;
    return 0;
}

/* ---------------------------------------------------------------------------------------------
 * Where the options apply */

/* each mode's name, bit by bit; past the explorer the option that asks for it */
static const char *const mode_names[MODE_COUNT + 1] = {
    "the explorer", "--lesson", "--print", "--export", "--show", "--train", "--train-order", NULL};

unsigned options_modes(const tf_options *o)
{
    unsigned m = 0;
    for (unsigned k = 1; k < MODE_COUNT; k++)
        m |= given(o, mode_names[k] + 2) ? 1u << k : 0;
    return m ? m : MODE_EXPLORER;
}

const char *options_mode_names(unsigned modes, char *buf, size_t cap)
{
    if (modes != M_ALL)
        return join_or(mode_names, modes, buf, cap);
    snprintf(buf, cap, "every mode");
    return buf;
}

/* Option i refused in a run of modes, where it does not apply: -1. */
static int not_here(size_t i, unsigned modes)
{
    char where[160], here[80], opt[40];
    const tf_option *r = &options[i];
    snprintf(opt, sizeof opt, "--%s", r->name);
    err_say(txt_gloss_f(T_G_NOT_HERE, T_G_NOT_HERE_EN), opt,
            options_mode_names(r->modes, where, sizeof where),
            options_mode_names(modes, here, sizeof here));
    return -1;
}

int options_check_modes(const tf_options *o, unsigned modes)
{
    for (size_t i = 0; i < N_OPTIONS; i++)
        if (o->given[i] && !(options[i].modes & modes))
            return not_here(i, modes);
    return 0;
}

/* ---------------------------------------------------------------------------------------------
 * The front-ends' lists */

typedef struct {
    const char *name;
    const char *const *values;
} value_list;

static value_list lists[3] = {{"print", NULL}, {"figure", NULL}, {"animation", NULL}};

void options_set_values(const char *name, const char *const *values)
{
    for (size_t i = 0; i < sizeof lists / sizeof *lists; i++)
        if (strcmp(lists[i].name, name) == 0)
            lists[i].values = values;
}

/* The values joined by sep. */
static const char *joined(const char *name, const char *sep)
{
    /* one buffer a list: a text may name them all at once */
    static char buf[sizeof lists / sizeof *lists][400];
    char *out = NULL;
    for (size_t i = 0; i < sizeof lists / sizeof *lists; i++)
        if (strcmp(lists[i].name, name) == 0)
            out = buf[i];
    if (!out)
        return "";
    size_t o = 0;
    out[0] = '\0';
    for (size_t i = 0; i < sizeof lists / sizeof *lists; i++) {
        if (strcmp(lists[i].name, name) != 0 || !lists[i].values)
            continue;
        for (size_t k = 0; lists[i].values[k] && o < sizeof buf[0]; k++)
            o += (size_t)snprintf(out + o, sizeof buf[0] - o, "%s%s", k ? sep : "",
                                  lists[i].values[k]);
    }
    return out;
}

const char *options_values(const char *name) { return joined(name, ", "); }

/* ---------------------------------------------------------------------------------------------
 * Documentation */

/* The values of list `name` as roff lines: ".BR a ," for each, ".BR z ." for the last. */
static void roff_values(FILE *fp, const char *name)
{
    for (size_t i = 0; i < sizeof lists / sizeof *lists; i++) {
        if (strcmp(lists[i].name, name) != 0 || !lists[i].values)
            continue;
        for (size_t k = 0; lists[i].values[k]; k++) {
            fputs(k ? "\n.BR " : ".BR ", fp);
            for (const char *p = lists[i].values[k]; *p; p++)
                fputs(*p == '-' ? "\\-" : (char[]){*p, 0}, fp);
            fputs(lists[i].values[k + 1] ? " ," : " .", fp);
        }
    }
}

/* s with its {placeholders} filled in: the limits, and the front-ends' lists. */
static void expand(FILE *fp, const char *s)
{
    char num[12][32];
    snprintf(num[0], sizeof num[0], "%d", TF_MIN_DMODEL);
    snprintf(num[1], sizeof num[1], "%d", TF_MAX_DMODEL);
    snprintf(num[2], sizeof num[2], "%d", TF_DEFAULT_DMODEL);
    snprintf(num[3], sizeof num[3], "%d", TF_MAX_POSITIONS);
    snprintf(num[4], sizeof num[4], "%d", TF_DEFAULT_POSITIONS);
    snprintf(num[5], sizeof num[5], "%u", TF_DEFAULT_SEED);
    snprintf(num[6], sizeof num[6], "%d", TF_MIN_VOCAB);
    snprintf(num[7], sizeof num[7], "%d", TF_MAX_VOCAB);
    snprintf(num[8], sizeof num[8], "%d", TF_DEFAULT_VOCAB);
    snprintf(num[9], sizeof num[9], "%g", ANIM_MIN_FPS);
    snprintf(num[10], sizeof num[10], "%g", ANIM_MAX_FPS);
    snprintf(num[11], sizeof num[11], "%d", ANIM_MAX_FRAMES);
    const char *keys[] = {"{min_d}", "{max_d}", "{def_d}", "{max_n}", "{def_n}", "{seed}",
                          "{min_v}", "{max_v}", "{def_v}", "{min_fps}", "{max_fps}",
                          "{max_frames}", "{print}", "{figure}", "{animation}"};
    const char *vals[] = {num[0], num[1], num[2], num[3], num[4], num[5], num[6], num[7], num[8],
                          num[9], num[10], num[11], options_values("print"),
                          options_values("figure"), options_values("animation")};
    while (*s) {
        bool roff = false;
        for (size_t i = 0; !roff && i < sizeof lists / sizeof *lists; i++) {
            size_t n = strlen(lists[i].name);
            if (s[0] == '{' && strncmp(s + 1, lists[i].name, n) == 0 &&
                strncmp(s + 1 + n, "_roff}", 6) == 0) {
                roff_values(fp, lists[i].name);
                s += n + 7;
                roff = true;
            }
        }
        if (roff)
            continue;
        size_t k = 0;
        while (k < sizeof keys / sizeof *keys && strncmp(s, keys[k], strlen(keys[k])) != 0)
            k++;
        if (k < sizeof keys / sizeof *keys) {
            fputs(vals[k], fp);
            s += strlen(keys[k]);
        } else {
            fputc(*s++, fp);
        }
    }
}

/* "-d, --d-model N" or "--print WHAT": the left column of an entry of one option. */
static void synopsis(char *buf, size_t cap, const tf_option *r)
{
    snprintf(buf, cap, "%s%c%s--%s%s%s", r->short_name ? "-" : "", r->short_name,
             r->short_name ? ", " : "", r->name, r->arg ? " " : "", r->arg ? r->arg : "");
    if (!r->short_name) /* no "-" and no NUL in front */
        memmove(buf, buf + 1, strlen(buf + 1) + 1);
}

/* One entry of --help: the left column to column 24 (or a line of its own), then the text,
 * each further line indented to column 24. */
static void help_entry(FILE *fp, const tf_option *r)
{
    char syn[128];
    if (r->help_syn)
        snprintf(syn, sizeof syn, "%s", r->help_syn);
    else
        synopsis(syn, sizeof syn, r);
    int col = 2 + (int)strlen(syn);
    fprintf(fp, "  %s", syn);
    if (col + 1 <= 24)
        fprintf(fp, "%*s", 24 - col, "");
    else
        fprintf(fp, "\n%24s", "");
    for (const char *p = r->help; *p; p++) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        char line[400];
        snprintf(line, sizeof line, "%.*s", (int)n, p);
        expand(fp, line);
        fputc('\n', fp);
        if (!nl)
            break;
        fprintf(fp, "%24s", "");
        p = nl;
    }
}

void options_help(FILE *fp)
{
    fputs("Usage: tfviz [OPTIONS] [TEXT]\n"
          "Show how a Transformer turns TEXT (default: " TF_DEFAULT_TEXT "; an English figure's: "
          TF_DEFAULT_TEXT_EN ")\ninto the matrix its first layer reads: tokens, vocabulary ids, "
          "embedding rows,\npositional encoding, their sum, attention with and without positions, "
          "and RoPE.\n"
          "展示 Transformer 如何把一句话变成第一层读入的矩阵：分词、词表编号、词嵌入、位置编码、\n"
          "二者之和、有无位置信息的注意力，以及 RoPE。\n", fp);
    int group = -1;
    for (size_t i = 0; i < N_OPTIONS; i++) {
        const tf_option *r = &options[i];
        if ((int)r->group != group) {
            group = r->group;
            fputc('\n', fp);
            if (groups[group].help)
                fprintf(fp, "%s\n", groups[group].help);
        }
        if (r->help)
            help_entry(fp, r);
    }
    fprintf(fp,
            "\n"
            "Environment: TFVIZ_DATA_DIR  the directory of the dictionary and BPE tables\n"
            "                             (default: the build's assets/ or the installed copy)\n"
            "Limits (checked before anything large is allocated or run):\n"
            "  text up to %d bytes (standard input is read up to that) and %d tokens;\n"
            "  tokens x d_model up to %d; --print dot up to %d positions; --print relative\n"
            "  positions x d_model up to 400000000; a --print whose estimated work exceeds %.0f "
            "s of\n"
            "  one core is refused with what to lower. Figures: a heatmap up to 16777216 cells, "
            "the\n"
            "  dot figure up to 2048 positions, a PNG up to 45 million pixels. Memory stays "
            "under\n"
            "  about 200 MB in every mode.\n"
            "限制：文本至多 %d 字节、%d 个词元；词元数 × d_model 至多 %d；预计超过 %.0f 秒的计算"
            "会被拒绝。\n"
            "Exit status: 0 success, 1 a file could not be written, 2 bad input or options.\n",
            TF_MAX_TEXT_BYTES, TF_MAX_TOKENS, TF_MAX_TOKEN_VALUES, TF_MAX_DOT_POSITIONS,
            TF_MAX_WORK / 1e9, TF_MAX_TEXT_BYTES, TF_MAX_TOKENS, TF_MAX_TOKEN_VALUES,
            TF_MAX_WORK / 1e9);
}

/* name with its hyphens as roff writes them (\-). */
static void roff_name(FILE *fp, const char *dashes, const char *name)
{
    for (const char *d = dashes; *d; d++)
        fputs("\\-", fp);
    for (const char *p = name; *p; p++)
        fputs(*p == '-' ? "\\-" : (char[]){*p, 0}, fp);
}

/* The .TP header of the man page entry of options[first .. last]: .BI for options with a value
 * (bold name, italic value), .B or .BR for switches. */
static void man_header(FILE *fp, size_t first, size_t last)
{
    bool args = options[first].arg != NULL;
    size_t n = 0;
    for (size_t i = first; i <= last; i++)
        n += options[i].short_name ? 2 : 1;
    fputs(args ? ".BI " : n > 1 ? ".BR " : ".B ", fp);
    size_t k = 0;
    for (size_t i = first; i <= last; i++) {
        const tf_option *r = &options[i];
        for (int form = r->short_name ? 0 : 1; form < 2; form++, k++) {
            if (form == 0)
                roff_name(fp, "-", (char[]){r->short_name, 0});
            else
                roff_name(fp, "--", r->name);
            bool more = k + 1 < n;
            if (args)
                fprintf(fp, " \" %s%s\"%s", r->arg, more ? "\\fR, " : "", more ? " " : "");
            else if (more)
                fputs(" \", \" ", fp);
        }
    }
    fputc('\n', fp);
}

/* The man page entry's "Applies to" line for options[first .. last]: the modes, or per run of
 * options that share them; nothing for an entry that applies everywhere. */
static void man_modes(FILE *fp, size_t first, size_t last)
{
    bool same = true;
    for (size_t i = first + 1; i <= last; i++)
        same = same && options[i].modes == options[first].modes;
    if (options[first].group == G_HELP)
        return;
    fputs(".br\nApplies to: ", fp);
    char where[160];
    for (size_t i = first; i <= last; i++) {
        bool run_ends = i == last || options[i + 1].modes != options[i].modes;
        if (!same) {
            roff_name(fp, "--", options[i].name);
            fputs(run_ends ? ": " : ", ", fp);
        }
        if (!run_ends)
            continue;
        options_mode_names(options[i].modes, where, sizeof where);
        for (const char *p = where; *p; p++)
            fputs(*p == '-' ? "\\-" : (char[]){*p, 0}, fp);
        fputs(i == last ? ".\n" : "; ", fp);
    }
}

void options_man(FILE *fp)
{
    fputs(".SH OPTIONS\n", fp);
    int group = -1;
    for (size_t i = 0; i < N_OPTIONS; i++) {
        if (!options[i].man)
            continue;
        if ((int)options[i].group != group) {
            group = options[i].group;
            if (groups[group].man)
                fprintf(fp, ".SS %s\n", groups[group].man);
        }
        size_t last = i;
        while (last + 1 < N_OPTIONS && !options[last + 1].man)
            last++;
        fputs(".TP\n", fp);
        man_header(fp, i, last);
        expand(fp, options[i].man);
        fputc('\n', fp);
        man_modes(fp, i, last);
    }
}

/* Each option and the modes it applies to: "--name[=] BITS", a line each (the doc-commands test
 * checks the docs' command lines with it). */
void options_modes_list(FILE *fp)
{
    for (size_t i = 0; i < N_OPTIONS; i++)
        fprintf(fp, "--%s%s %c %u\n", options[i].name, options[i].arg ? "=" : "",
                options[i].short_name ? options[i].short_name : '.', options[i].modes);
}

/* The completion words of option r: its list, or NULL for a value with none, or "" for a
 * switch. */
static const char *completion_words(const tf_option *r)
{
    if (!r->arg)
        return "";
    if (!r->values)
        return NULL;
    if (strcmp(r->values, "@print") == 0 || strcmp(r->values, "@figure") == 0)
        return joined(r->values + 1, " ");
    return r->values;
}

void options_bash(FILE *fp)
{
    fputs("# bash completion for tfviz, made from its option table (app/core/options_table.h);\n"
          "# meson compile -C build options-docs writes it again.\n"
          "_tfviz()\n{\n    local cur prev\n    cur=${COMP_WORDS[COMP_CWORD]}\n"
          "    prev=${COMP_WORDS[COMP_CWORD-1]}\n    local opts=\"", fp);
    for (size_t i = 0; i < N_OPTIONS; i++) {
        fprintf(fp, "%s--%s", i ? " " : "", options[i].name);
        if (options[i].short_name)
            fprintf(fp, " -%c", options[i].short_name);
    }
    fputs("\"\n    case $prev in\n", fp);
    for (size_t i = 0; i < N_OPTIONS; i++) {
        const tf_option *r = &options[i];
        const char *w = completion_words(r);
        if (w && !*w)
            continue; /* a switch */
        fputs("    ", fp);
        if (r->short_name)
            fprintf(fp, "-%c | ", r->short_name);
        fprintf(fp, "--%s) ", r->name);
        if (!w)
            fputs("return ;;\n", fp);
        else if (strncmp(w, "@file", 5) == 0)
            fputs("COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n", fp);
        else
            fprintf(fp, "COMPREPLY=($(compgen -W \"%s\" -- \"$cur\")); return ;;\n", w);
    }
    fputs("    esac\n    if [[ $cur == -* ]]; then\n"
          "        COMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n    fi\n}\n"
          "complete -F _tfviz tfviz\n", fp);
}

void options_zsh(FILE *fp)
{
    fputs("#compdef tfviz\n"
          "# zsh completion for tfviz, made from its option table (app/core/options_table.h);\n"
          "# meson compile -C build options-docs writes it again.\n"
          "_arguments -s \\\n", fp);
    for (size_t i = 0; i < N_OPTIONS; i++) {
        const tf_option *r = &options[i];
        bool stop = strcmp(r->name, "help") == 0 || strcmp(r->name, "version") == 0;
        if (stop)
            fprintf(fp, "  '(- *)'{-%c,--%s}'%s", r->short_name, r->name, r->zsh);
        else if (r->short_name)
            fprintf(fp, "  '(-%c --%s)'{-%c,--%s}'%s", r->short_name, r->name, r->short_name,
                    r->name, r->zsh);
        else
            fprintf(fp, "  '--%s%s", r->name, r->zsh);
        const char *w = completion_words(r);
        if (w && strncmp(w, "@file", 5) == 0) /* "@file GLOB": files matching GLOB */
            fprintf(fp, w[5] ? "_files -g \"%s\"" : "_files", w + (w[5] ? 6 : 5));
        else if (w && *w)
            fprintf(fp, "(%s)", w);
        fputs("' \\\n", fp);
    }
    fputs("  '*:text:'\n", fp);
}
