/* fuzz_options.c — command-line parsing of the numeric (and named) options.
 *
 * The input is a list of records: one byte choosing an option from the table below, then its
 * value up to a NUL byte. options_parse must never crash; a rejected command line gives exactly one
 * line "tfviz: ..." on stderr with no control characters (the user's text is shown escaped); an
 * accepted one gives a configuration that config_check accepts (the offset is checked against
 * the positions later, by cli_run). When every record is an option with a value, each numeric
 * option's stored value is compared with an independent decimal parser. */
#include <ctype.h>
#include <limits.h>

#include "analysis.h"
#include "core/options.h"
#include "fuzz_check.h"
#include "tf_limits.h"

typedef struct {
    const char *name;
    long lo, hi;   /* accepted range for integer options; lo > hi: not an integer option */
    int even;      /* d_model must be even */
} opt_spec;

enum { OPT_D, OPT_DL, OPT_N, OPT_NL, OPT_INDEX, OPT_OFFSET, OPT_VOCAB, OPT_SEED, N_INT_OPTS };

static const opt_spec opts[] = {
    [OPT_D] = {"-d", TF_MIN_DMODEL, TF_MAX_DMODEL, 1},
    [OPT_DL] = {"--d-model", TF_MIN_DMODEL, TF_MAX_DMODEL, 1},
    [OPT_N] = {"-n", 1, TF_MAX_POSITIONS, 0},
    [OPT_NL] = {"--positions", 1, TF_MAX_POSITIONS, 0},
    [OPT_INDEX] = {"--index-base", 0, 1, 0},
    [OPT_OFFSET] = {"--offset", 0, TF_MAX_POSITIONS - 1, 0},
    [OPT_VOCAB] = {"--vocab-size", TF_MIN_VOCAB, TF_MAX_VOCAB, 0},
    [OPT_SEED] = {"--seed", 0, -1, 0}, /* 0 .. 2^64-1, checked apart */
    {"--base", 1, 0, 0},
    {"--tokenizer", 1, 0, 0},
    {"--rope-style", 1, 0, 0},
    {"--format", 1, 0, 0},
    {"--print", 1, 0, 0},
    {"--compare", 1, 0, 0},
    {"--lang", 1, 0, 0},
    {"-o", 1, 0, 0},
};
#define N_OPTS (sizeof opts / sizeof opts[0])
#define MAX_ARGS 24

/* The reference: C-locale space, an optional sign, decimal digits, nothing else. Returns 0 and
 * the magnitude and sign, or -1 for anything else; *overflow is set past 2^64-1. */
static int ref_integer(const char *s, int *neg, unsigned long long *mag, int *overflow)
{
    while (*s == ' ' || (*s >= '\t' && *s <= '\r'))
        s++;
    *neg = 0;
    if (*s == '+' || *s == '-')
        *neg = *s++ == '-';
    if (!isdigit((unsigned char)*s))
        return -1;
    *mag = 0;
    *overflow = 0;
    for (; isdigit((unsigned char)*s); s++) {
        unsigned dgt = (unsigned)(*s - '0');
        if (*mag > (ULLONG_MAX - dgt) / 10)
            *overflow = 1;
        else
            *mag = *mag * 10 + dgt;
    }
    return *s ? -1 : 0;
}

/* The value options_parse stored for integer option k. */
static unsigned long long stored(const tf_options *c, int k)
{
    switch (k) {
    case OPT_D:
    case OPT_DL:
        return (unsigned long long)c->cfg.d_model;
    case OPT_N:
    case OPT_NL:
        return (unsigned long long)c->cfg.n_positions;
    case OPT_INDEX:
        return (unsigned long long)c->cfg.index_base;
    case OPT_OFFSET:
        return (unsigned long long)c->cfg.offset;
    case OPT_VOCAB:
        return c->cfg.vocab_size;
    default:
        return c->cfg.seed;
    }
}

static void check_integer(const tf_options *c, int accepted, int k, const char *value)
{
    int neg, overflow;
    unsigned long long mag;
    int ok = ref_integer(value, &neg, &mag, &overflow) == 0 && !overflow;
    if (k == OPT_SEED) {
        ok = ok && !neg;
    } else {
        const opt_spec *o = &opts[k];
        ok = ok && (neg ? mag == 0 || (o->lo < 0 && mag <= (unsigned long long)-o->lo)
                        : mag <= (unsigned long long)o->hi);
        long v = neg ? -(long)mag : (long)mag;
        ok = ok && v >= o->lo && v <= o->hi && !(o->even && v % 2);
    }
    if (!ok) {
        FUZZ_CHECK(!accepted, "%s '%s' accepted", opts[k].name, value);
        return;
    }
    /* a valid value may still be refused because another option is bad; when accepted, it
     * must be the value written */
    if (accepted)
        FUZZ_CHECK(stored(c, k) == (neg ? 0 : mag), "%s '%s' stored as %llu", opts[k].name,
                   value, stored(c, k));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *buf = malloc(size + 1);
    if (!buf)
        return 0;
    memcpy(buf, data, size);
    buf[size] = '\0';

    /* argv from the records */
    char *argv[2 * MAX_ARGS + 2];
    int argc = 0, raw = 0, last[N_INT_OPTS];
    const char *last_val[N_INT_OPTS];
    for (int k = 0; k < N_INT_OPTS; k++)
        last[k] = -1, last_val[k] = NULL;
    argv[argc++] = (char *)"tfviz";
    size_t i = 0;
    while (i < size && argc < 2 * MAX_ARGS) {
        unsigned sel = (unsigned char)buf[i++];
        char *val = buf + i;
        i += strlen(val) + 1;
        if (sel % (N_OPTS + 1) == N_OPTS) { /* a raw argument: anything at all */
            argv[argc++] = val;
            raw = 1;
            continue;
        }
        int k = (int)(sel % (N_OPTS + 1));
        argv[argc++] = (char *)opts[k].name;
        argv[argc++] = val;
        if (k < N_INT_OPTS) {
            /* -d and --d-model (and -n, --positions) write the same field */
            int slot = k == OPT_DL ? OPT_D : k == OPT_NL ? OPT_N : k;
            last[slot] = k, last_val[slot] = val;
        }
    }
    argv[argc] = NULL;

    /* stdout and stderr into memory for the duration of the call */
    char *out = NULL, *err = NULL;
    size_t out_len = 0, err_len = 0;
    FILE *mo = open_memstream(&out, &out_len), *me = open_memstream(&err, &err_len);
    FILE *so = stdout, *se = stderr;
    if (!mo || !me) {
        if (mo)
            fclose(mo);
        if (me)
            fclose(me);
        free(buf);
        return 0;
    }
    stdout = mo, stderr = me;
    tf_options cli;
    int first;
    options_defaults(&cli);
    int r = options_parse(argc, argv, &cli, &first);
    stdout = so, stderr = se;
    fclose(mo);
    fclose(me);

    FUZZ_CHECK(r >= -1 && r <= 1, "options_parse returned %d", r);
    if (r == -1) {
        FUZZ_CHECK(err_len > 8 && strncmp(err, "tfviz: ", 7) == 0 && err[err_len - 1] == '\n',
                   "message '%s'", err);
        FUZZ_CHECK(memchr(err, '\n', err_len) == err + err_len - 1, "more than one line: %s",
                   err);
        FUZZ_CHECK(terminal_safe(err, err_len - 1, 0), "raw control bytes in the message");
    } else {
        FUZZ_CHECK(err_len == 0, "stderr on success: %s", err);
    }
    if (r == 0) {
        tf_status st = config_check(&cli.cfg);
        FUZZ_CHECK(st == TF_OK || st == TF_ERR_OFFSET, "accepted a config that fails check %d",
                   st);
    }
    if (!raw) {
        for (int k = 0; k < N_INT_OPTS; k++)
            if (last[k] >= 0)
                check_integer(&cli, r == 0, last[k], last_val[k]);
    }
    free(out);
    free(err);
    free(buf);
    return 0;
}
