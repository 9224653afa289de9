/* options.c — the table of options, and what is made of it: parsing, --help, the man page's
 * OPTIONS section and the completions. */
#include "core/options.h"

#include <ctype.h>
#include <errno.h>
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

/* A whole number from lo to hi into an int field. */
static int parse_int(const char *opt, const char *s, long lo, long hi, int *out)
{
    long v;
    if (parse_long(opt, s, lo, hi, &v))
        return -1;
    *out = (int)v;
    return 0;
}

/* ---------------------------------------------------------------------------------------------
 * What each option does with its value: 0, 1 (help or version printed: stop), -1 (said) */

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

static int set_format(tf_options *o, const char *v)
{
    for (int f = 0; f < FMT_COUNT; f++)
        if (strcmp(v, options_format_name((out_format)f)) == 0) {
            o->format = (out_format)f;
            return 0;
        }
    err_say("--format must be text, csv, json or npy (got '%s').", v);
    return -1;
}

static int set_d_model(tf_options *o, const char *v)
{
    long d;
    if (parse_long("--d-model", v, LONG_MIN, LONG_MAX, &d))
        return -1;
    if (d < TF_MIN_DMODEL || d > TF_MAX_DMODEL || d % 2) {
        err_say("--d-model must be an even number from %d to %d (got %s); try -d 512.",
                TF_MIN_DMODEL, TF_MAX_DMODEL, v);
        return -1;
    }
    o->cfg.d_model = o->w2v.dim = (int)d;
    o->d_given = true;
    return 0;
}

static int set_positions(tf_options *o, const char *v)
{
    o->n_given = true;
    return parse_long("--positions", v, 1, TF_MAX_POSITIONS, &o->cfg.n_positions);
}

static int set_base(tf_options *o, const char *v)
{
    o->base_set = true;
    if (parse_double("--base", v, &o->cfg.base))
        return -1;
    if (!isfinite(o->cfg.base) || !(o->cfg.base > 1.0)) {
        err_say("--base must be a finite number greater than 1 (got %s); 10000 is the original, "
                "500000 is Llama 3's.", v);
        return -1;
    }
    return 0;
}

static int set_index_base(tf_options *o, const char *v)
{
    return parse_int("--index-base", v, 0, 1, &o->cfg.index_base);
}

static int set_seed(tf_options *o, const char *v) { return parse_u64("--seed", v, &o->cfg.seed); }

static int set_compare(tf_options *o, const char *v)
{
    o->cfg.compare = v;
    o->cfg.compare_len = strlen(v);
    return 0;
}

static int set_rope_style(tf_options *o, const char *v)
{
    o->cfg.rope = rope_style_parse(v);
    if (o->cfg.rope == ROPE_STYLE_COUNT) {
        err_say("--rope-style must be interleaved or half (got '%s').", v);
        return -1;
    }
    return 0;
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

/* ---- the position schemes' parameters ---- */

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

/* ALiBi's and T5's heads; with --train-order (--print order-training, view 10) also the trained
 * model's, which checks its own range (1 .. 4) */
static int set_heads(tf_options *o, const char *v)
{
    if (parse_int("--heads", v, 1, TF_MAX_HEADS, &o->positions.heads))
        return -1;
    o->heads = o->positions.heads;
    return 0;
}

static int set_head(tf_options *o, const char *v)
{
    int h;
    if (parse_int("--head", v, 1, TF_MAX_HEADS, &h))
        return -1;
    o->positions.head = h - 1;
    return 0;
}

static int set_num_buckets(tf_options *o, const char *v)
{
    return parse_int("--num-buckets", v, 2, TF_MAX_T5_BUCKETS, &o->positions.buckets.num_buckets);
}

static int set_max_distance(tf_options *o, const char *v)
{
    return parse_long("--max-distance", v, 1, TF_MAX_T5_DISTANCE,
                      &o->positions.buckets.max_distance);
}

static int set_original_context(tf_options *o, const char *v)
{
    return parse_long("--original-context", v, 1, TF_MAX_POSITIONS, &o->positions.trained);
}

static int set_scaling(tf_options *o, const char *v)
{
    o->scaling = rope_scaling_parse(v);
    if (o->scaling == ROPE_SCALING_COUNT) {
        err_say("--scaling must be none, linear, ntk, dynamic, yarn or llama3 (got '%s').", v);
        return -1;
    }
    return 0;
}

/* A positive number of a RoPE scaling, at least lo. */
static int parse_positive(const char *opt, const char *v, double lo, double *out)
{
    if (parse_double(opt, v, out))
        return -1;
    if (!(isfinite(*out) && *out >= lo && *out > 0 && *out <= 1e9)) {
        err_say("%s must be a number from %g to 1e9 (got %s).", opt, lo > 0 ? lo : 0, v);
        return -1;
    }
    return 0;
}

static int set_factor(tf_options *o, const char *v)
{
    return parse_positive("--factor", v, 1.0, &o->factor);
}

static int set_beta_fast(tf_options *o, const char *v)
{
    return parse_positive("--beta-fast", v, 0.0, &o->beta_fast);
}

static int set_beta_slow(tf_options *o, const char *v)
{
    return parse_positive("--beta-slow", v, 0.0, &o->beta_slow);
}

static int set_mscale(tf_options *o, const char *v)
{
    return parse_positive("--mscale", v, 0.0, &o->mscale);
}

static int set_mscale_all_dim(tf_options *o, const char *v)
{
    return parse_positive("--mscale-all-dim", v, 0.0, &o->mscale_all_dim);
}

static int set_attention_factor(tf_options *o, const char *v)
{
    return parse_positive("--attention-factor", v, 0.0, &o->attention_factor);
}

static int set_low_freq_factor(tf_options *o, const char *v)
{
    return parse_positive("--low-freq-factor", v, 0.0, &o->low_freq_factor);
}

static int set_high_freq_factor(tf_options *o, const char *v)
{
    return parse_positive("--high-freq-factor", v, 0.0, &o->high_freq_factor);
}

static int set_seq_len(tf_options *o, const char *v)
{
    return parse_long("--seq-len", v, 1, 1000000000L, &o->seq_len);
}

static int set_offset(tf_options *o, const char *v)
{
    o->offset_set = true;
    return parse_long("--offset", v, 0, TF_MAX_POSITIONS - 1, &o->cfg.offset);
}

static int set_vocab_size(tf_options *o, const char *v)
{
    long V;
    if (parse_long("--vocab-size", v, TF_MIN_VOCAB, TF_MAX_VOCAB, &V))
        return -1;
    o->cfg.vocab_size = (uint32_t)V;
    o->vocab_size_set = true;
    return 0;
}

static int set_tokenizer(tf_options *o, const char *v)
{
    o->cfg.tokenizer = tokenizer_parse(v);
    o->tokenizer_set = true;
    if (o->cfg.tokenizer == TOKENIZER_COUNT) {
        err_say("--tokenizer must be word, char, cl100k or o200k (got '%s').", v);
        return -1;
    }
    return 0;
}

static int set_lang(tf_options *o, const char *v)
{
    if (strcmp(v, "zh") != 0 && strcmp(v, "en") != 0) {
        err_say("--lang must be zh or en (got '%s').", v);
        return -1;
    }
    o->lang = v;
    return 0;
}

static int set_epochs(tf_options *o, const char *v)
{
    if (parse_int("--epochs", v, 1, 10000, &o->w2v.epochs))
        return -1;
    o->order_epochs = o->w2v.epochs; /* the order model checks its own range (1..1000) */
    return 0;
}

static int set_window(tf_options *o, const char *v)
{
    return parse_int("--window", v, 1, 100, &o->w2v.window);
}

static int set_negative(tf_options *o, const char *v)
{
    return parse_int("--negative", v, 1, 100, &o->w2v.negative);
}

static int set_min_count(tf_options *o, const char *v)
{
    return parse_int("--min-count", v, 1, 1000000000, &o->w2v.min_count);
}

static int set_sample(tf_options *o, const char *v)
{
    if (parse_double("--sample", v, &o->w2v.sample))
        return -1;
    if (!(o->w2v.sample >= 0 && o->w2v.sample < 1)) {
        err_say("--sample must be from 0 (off) to below 1 (got %s); word2vec uses 0.001.", v);
        return -1;
    }
    return 0;
}

static int set_threads(tf_options *o, const char *v)
{
    o->threads_given = true;
    return parse_int("--threads", v, 1, 64, &o->w2v.threads);
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

static int set_vectors_limit(tf_options *o, const char *v)
{
    return parse_long("--vectors-limit", v, 1, VECTORS_MAX_ROWS, &o->vectors_limit);
}

static int set_top(tf_options *o, const char *v)
{
    o->top_given = true;
    return parse_long("--top", v, 1, 10000, &o->top);
}

static int set_dpi(tf_options *o, const char *v)
{
    long dpi;
    if (parse_long("--dpi", v, 30, 2400, &dpi))
        return -1;
    o->dpi = (double)dpi;
    return 0;
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
    return set_length("--width", v, &o->fig_width);
}

static int set_vlim(const char *name, const char *v, double *out, bool *has)
{
    if (parse_double(name, v, out))
        return -1;
    if (!isfinite(*out)) {
        err_say("%s must be a finite number (got %s).", name, v);
        return -1;
    }
    *has = true;
    return 0;
}

static int set_vmin(tf_options *o, const char *v)
{
    return set_vlim("--vmin", v, &o->vmin, &o->has_vmin);
}

static int set_vmax(tf_options *o, const char *v)
{
    return set_vlim("--vmax", v, &o->vmax, &o->has_vmax);
}

static int set_pe_layout(tf_options *o, const char *v)
{
    if (strcmp(v, "interleaved") != 0 && strcmp(v, "split") != 0) {
        err_say("--pe-layout must be interleaved or split (got '%s').", v);
        return -1;
    }
    o->pe_split = strcmp(v, "split") == 0;
    o->pe_layout_set = true;
    return 0;
}

static int set_order_b(tf_options *o, const char *v)
{
    if (strcmp(v, "aligned") != 0 && strcmp(v, "own") != 0) {
        err_say("--order-b must be aligned or own (got '%s').", v);
        return -1;
    }
    o->order_own = strcmp(v, "own") == 0;
    return 0;
}

static int set_venue(tf_options *o, const char *v)
{
    if (!fig_venue_find(v)) {
        err_say("--venue must be %s (got '%s').", fig_venue_names(), v);
        return -1;
    }
    o->venue = v;
    return 0;
}

static int set_font(tf_options *o, const char *v)
{
    if (!*v) {
        err_say("--font needs a font family, for example --font 'Noto Serif CJK SC'.");
        return -1;
    }
    o->font = v;
    return 0;
}

static int set_height(tf_options *o, const char *v)
{
    return set_length("--height", v, &o->fig_height);
}

static int set_colormap(tf_options *o, const char *v)
{
    if (colormap_parse(v) == CMAP_COUNT) {
        err_say("--colormap must be viridis, cividis, rdbu, puor or gray (got '%s').", v);
        return -1;
    }
    o->colormap = v;
    return 0;
}

static int set_font_size(tf_options *o, const char *v)
{
    if (parse_double("--font-size", v, &o->font_size))
        return -1;
    if (!(o->font_size >= 4 && o->font_size <= 36)) {
        err_say("--font-size must be from 4 to 36 points (got %s).", v);
        return -1;
    }
    return 0;
}

static int set_fps(tf_options *o, const char *v)
{
    if (parse_double("--fps", v, &o->fps))
        return -1;
    if (!(o->fps >= ANIM_MIN_FPS && o->fps <= ANIM_MAX_FPS)) {
        err_say("--fps must be from %g to %g frames per second (got %s); GIF viewers slow "
                "anything faster down.", ANIM_MIN_FPS, ANIM_MAX_FPS, v);
        return -1;
    }
    return 0;
}

static int set_frames(tf_options *o, const char *v)
{
    return parse_long("--frames", v, 1, ANIM_MAX_FRAMES, &o->frames);
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
    o->title = v;
    return 0;
}

/* ---------------------------------------------------------------------------------------------
 * The table */

#include "core/options_table.h"

/* ---------------------------------------------------------------------------------------------
 * Parsing */

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
    opterr = 0;
    optind = 0; /* glibc: 0 re-initialises getopt, so parsing can run more than once */
    int c;
    while ((c = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
        const tf_option *r = NULL;
        for (size_t i = 0; i < N_OPTIONS && !r; i++)
            if (c == (int)(256 + i) || (c < 256 && c == options[i].short_name))
                r = &options[i];
        if (c == ':') {
            err_say("%s needs a value; see tfviz --help.", argv[optind - 1]);
            return -1;
        }
        if (!r) {
            if (optopt)
                err_say("unknown option '-%c'; see tfviz --help.", optopt);
            else
                err_say("unknown option '%s'; see tfviz --help.", argv[optind - 1]);
            return -1;
        }
        if (r->set) {
            int rc = r->set(o, optarg);
            if (rc)
                return rc;
        } else if (r->arg) {
            *(const char **)(void *)((char *)o + r->field) = optarg;
        } else {
            *(bool *)(void *)((char *)o + r->field) = true;
        }
    }
    *first_arg = optind;
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
    }
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
