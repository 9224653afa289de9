/* schemes_probe.c — print the model's position-scheme values as JSON, for the reference checks
 * in schemes_reference_test.py (numbers at 17 significant digits, so they round-trip).
 *
 *   schemes_probe alibi H
 *   schemes_probe t5 bidirectional|unidirectional NUM_BUCKETS MAX_DISTANCE FROM TO
 *   schemes_probe rope-scaling METHOD D [key=value ...]    (base factor original seq_len
 *                 beta_fast beta_slow mscale mscale_all_dim attention_factor truncate
 *                 low_freq_factor high_freq_factor)
 *   schemes_probe tensor|learned|t5table FILE [NAME]
 *   schemes_probe learned-sim FILE K0 N
 *   schemes_probe npy-header DESCR ROWS COLS                (the header bytes, in hex)
 * A file that cannot be read gives {"status": "...", "message": "..."} and exit status 0: the
 * test compares the status. Usage errors exit 1. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alibi.h"
#include "learned_pe.h"
#include "npy.h"
#include "rope_scaling.h"
#include "t5bias.h"
#include "tensorfile.h"

static void num(double v)
{
    if (isfinite(v))
        printf("%.17g", v);
    else
        printf("null");
}

static void array(const char *key, const double *v, size_t n)
{
    printf("\"%s\": [", key);
    for (size_t i = 0; i < n; i++) {
        if (i)
            printf(", ");
        num(v[i]);
    }
    printf("]");
}

/* A JSON string of s (the model's messages are terminal-safe UTF-8 already). */
static void str(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            printf("\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            printf("\\u%04x", (unsigned char)*s);
        else
            putchar(*s);
    }
    putchar('"');
}

static const char *status_key(tf_status st)
{
    switch (st) {
    case TF_OK:
        return "ok";
    case TF_ERR_IO:
        return "io";
    case TF_ERR_FORMAT:
        return "format";
    case TF_ERR_TOO_BIG:
        return "too_big";
    case TF_ERR_NOT_FOUND:
        return "not_found";
    case TF_ERR_NOMEM:
        return "nomem";
    default:
        return "other";
    }
}

static int fail_json(tf_status st, const tensor_diag *dg)
{
    printf("{\"status\": \"%s\", \"message\": ", status_key(st));
    str(dg->msg);
    if (dg->has_offset)
        printf(", \"offset\": %llu", (unsigned long long)dg->offset);
    printf("}\n");
    return 0;
}

static int cmd_alibi(int argc, char **argv)
{
    if (argc != 1)
        return 1;
    int h = atoi(argv[0]);
    double *m = malloc((size_t)(h > 0 ? h : 1) * sizeof *m);
    tf_status st = m ? alibi_slopes(h, m) : TF_ERR_NOMEM;
    if (st != TF_OK) {
        printf("{\"status\": \"%s\"}\n", st == TF_ERR_RANGE ? "range" : "other");
        free(m);
        return 0;
    }
    printf("{\"heads\": %d, ", h);
    array("slopes", m, (size_t)h);
    printf("}\n");
    free(m);
    return 0;
}

static int cmd_t5(int argc, char **argv)
{
    if (argc != 5)
        return 1;
    t5_buckets_cfg c = {.num_buckets = atoi(argv[1]),
                        .max_distance = atol(argv[2]),
                        .bidirectional = strcmp(argv[0], "bidirectional") == 0};
    long from = atol(argv[3]), to = atol(argv[4]);
    if (t5_buckets_check(&c) != TF_OK) {
        printf("{\"status\": \"range\"}\n");
        return 0;
    }
    printf("{\"from\": %ld, \"buckets\": [", from);
    for (long r = from; r <= to; r++)
        printf("%s%d", r > from ? ", " : "", t5_bucket(&c, r));
    printf("]}\n");
    return 0;
}

static int cmd_rope_scaling(int argc, char **argv)
{
    if (argc < 2)
        return 1;
    rope_scaling_kind kind = rope_scaling_parse(argv[0]);
    if (kind == ROPE_SCALING_COUNT)
        return 1;
    rope_scaling_cfg c;
    rope_scaling_defaults(kind, &c);
    int d = atoi(argv[1]);
    for (int a = 2; a < argc; a++) {
        char *eq = strchr(argv[a], '=');
        if (!eq)
            return 1;
        *eq = '\0';
        const char *k = argv[a];
        double v = strtod(eq + 1, NULL);
        if (!strcmp(k, "base"))
            c.base = v;
        else if (!strcmp(k, "factor"))
            c.factor = v;
        else if (!strcmp(k, "original"))
            c.original = (long)v;
        else if (!strcmp(k, "seq_len"))
            c.seq_len = (long)v;
        else if (!strcmp(k, "beta_fast"))
            c.beta_fast = v;
        else if (!strcmp(k, "beta_slow"))
            c.beta_slow = v;
        else if (!strcmp(k, "mscale"))
            c.mscale = v;
        else if (!strcmp(k, "mscale_all_dim"))
            c.mscale_all_dim = v;
        else if (!strcmp(k, "attention_factor"))
            c.attention_factor = v;
        else if (!strcmp(k, "truncate"))
            c.truncate = v != 0;
        else if (!strcmp(k, "low_freq_factor"))
            c.low_freq_factor = v;
        else if (!strcmp(k, "high_freq_factor"))
            c.high_freq_factor = v;
        else
            return 1;
    }
    double *inv = malloc((size_t)(d > 1 ? d : 2) * sizeof *inv);
    double *orig = malloc((size_t)(d > 1 ? d : 2) * sizeof *orig);
    double attn = 0;
    const char *why = NULL;
    tf_status st = inv && orig ? rope_scaling_check(&c, d, &why) : TF_ERR_NOMEM;
    if (st == TF_OK)
        st = rope_scaling_inv_freq(&c, d, inv, orig, &attn);
    if (st != TF_OK) {
        printf("{\"status\": \"%d\", \"why\": ", (int)st);
        str(why ? why : tf_status_str(st));
        printf("}\n");
    } else {
        printf("{\"scaling\": \"%s\", \"attention_factor\": ", rope_scaling_name(kind));
        num(attn);
        printf(", ");
        array("inv_freq", inv, (size_t)d / 2);
        printf(", ");
        array("original", orig, (size_t)d / 2);
        printf("}\n");
    }
    free(inv);
    free(orig);
    return 0;
}

static void print_table(const char *dtype, const char *name, size_t rows, size_t cols,
                        const double *v, bool trained)
{
    printf("{\"status\": \"ok\", \"rows\": %zu, \"cols\": %zu, \"dtype\": \"%s\", "
           "\"trained\": %s, \"name\": ",
           rows, cols, dtype, trained ? "true" : "false");
    if (name)
        str(name);
    else
        printf("null");
    printf(", ");
    array("values", v, rows * cols);
    printf("}\n");
}

static int cmd_file(const char *what, int argc, char **argv)
{
    if (argc < 1 || argc > 2)
        return 1;
    const char *name = argc == 2 ? argv[1] : NULL;
    tensor_diag dg;
    tf_status st;
    if (!strcmp(what, "tensor")) {
        tf_tensor t;
        if ((st = tensorfile_read(argv[0], name, NULL, NULL, &t, &dg)) != TF_OK)
            return fail_json(st, &dg);
        print_table(tensor_dtype_name(t.dtype), t.name, t.rows, t.cols, t.data, true);
        tensor_free(&t);
    } else if (!strcmp(what, "learned")) {
        tf_learned_pe t;
        if ((st = learned_pe_load(&t, argv[0], name, &dg)) != TF_OK)
            return fail_json(st, &dg);
        print_table(tensor_dtype_name(t.dtype), t.name, (size_t)t.n_pos, (size_t)t.d, t.p,
                    t.trained);
        learned_pe_free(&t);
    } else {
        t5_bias_table t;
        if ((st = t5bias_load(&t, argv[0], name, &dg)) != TF_OK)
            return fail_json(st, &dg);
        print_table("F64", t.name, (size_t)t.num_buckets, (size_t)t.heads, t.b, t.trained);
        t5bias_free(&t);
    }
    return 0;
}

static int cmd_learned_sim(int argc, char **argv)
{
    if (argc != 3)
        return 1;
    tf_learned_pe t;
    tensor_diag dg;
    tf_status st = learned_pe_load(&t, argv[0], NULL, &dg);
    if (st != TF_OK)
        return fail_json(st, &dg);
    long k0 = atol(argv[1]), n = atol(argv[2]);
    double *cos_v = malloc((size_t)(n > 0 ? n : 1) * sizeof *cos_v);
    double *dot_v = malloc((size_t)(n > 0 ? n : 1) * sizeof *dot_v);
    if (cos_v && dot_v && learned_pe_offset_similarity(&t, true, k0, n, cos_v) == TF_OK &&
        learned_pe_offset_similarity(&t, false, k0, n, dot_v) == TF_OK) {
        printf("{\"status\": \"ok\", ");
        array("cosine", cos_v, (size_t)n);
        printf(", ");
        array("dot", dot_v, (size_t)n);
        printf("}\n");
    } else {
        printf("{\"status\": \"other\"}\n");
    }
    free(cos_v);
    free(dot_v);
    learned_pe_free(&t);
    return 0;
}

static int cmd_npy_header(int argc, char **argv)
{
    if (argc != 3)
        return 1;
    uint8_t h[NPY_HEADER_CAP];
    size_t n = npy_write_header(h, sizeof h, argv[0], strtoull(argv[1], NULL, 10),
                                strtoull(argv[2], NULL, 10));
    printf("{\"hex\": \"");
    for (size_t i = 0; i < n; i++)
        printf("%02x", h[i]);
    printf("\"}\n");
    return 0;
}

int main(int argc, char **argv)
{
    int rc = 1;
    if (argc >= 2) {
        const char *cmd = argv[1];
        if (!strcmp(cmd, "alibi"))
            rc = cmd_alibi(argc - 2, argv + 2);
        else if (!strcmp(cmd, "t5"))
            rc = cmd_t5(argc - 2, argv + 2);
        else if (!strcmp(cmd, "rope-scaling"))
            rc = cmd_rope_scaling(argc - 2, argv + 2);
        else if (!strcmp(cmd, "tensor") || !strcmp(cmd, "learned") || !strcmp(cmd, "t5table"))
            rc = cmd_file(cmd, argc - 2, argv + 2);
        else if (!strcmp(cmd, "learned-sim"))
            rc = cmd_learned_sim(argc - 2, argv + 2);
        else if (!strcmp(cmd, "npy-header"))
            rc = cmd_npy_header(argc - 2, argv + 2);
    }
    if (rc == 1)
        fprintf(stderr, "usage: see the comment at the top of tests/schemes_probe.c\n");
    return rc;
}
