/* fuzz_analysis.c — the whole pipeline with a small random configuration, and every --print
 * WHAT in every format that accepts it.
 *
 * Input: 8 bytes of configuration (one bit picks word segmentation), then the sentence; a 0x00 byte splits off a --compare text.
 * Properties: analysis_run either succeeds or returns a status with nothing left allocated (ASan
 * and LeakSanitizer see the rest); every printed JSON document is valid JSON; text output is
 * safe for a terminal; .npy output has a 64-byte-aligned header and exactly as many values as
 * its shape says;
 * the numbers agree with their definitions (X_input = s X_emb + PE). */
#include <math.h>
#include <stdlib.h>

#include "analysis.h"
#include "fuzz_check.h"
#include "posenc.h"
#include "print/print.h"
#include "tf_limits.h"

static const char *const whats[] = {"tokens", "embedding", "pe", "freq", "input",
                                    "relative", "dot", "rope", "decay", "order"};
#define N_WHATS (sizeof whats / sizeof whats[0])

static void check_npy(const char *what, const char *b, size_t n)
{
    FUZZ_CHECK(n >= 10 && memcmp(b, "\x93NUMPY\x01\x00", 8) == 0, "%s: no npy magic", what);
    size_t hlen = (unsigned char)b[8] | (size_t)(unsigned char)b[9] << 8;
    FUZZ_CHECK((10 + hlen) % 64 == 0 && 10 + hlen <= n && b[10 + hlen - 1] == '\n',
               "%s: npy header length %zu", what, hlen);
    char descr[8];
    int used = 0;
    FUZZ_CHECK(sscanf(b + 10, "{'descr': '%3[<f48]', 'fortran_order': False, 'shape': (%n",
                      descr, &used) == 1 && used > 0,
               "%s: npy dict", what);
    /* the shape: (rows, cols), or more axes (order: (3, 2, T, T)) */
    const char *p = b + 10 + used;
    unsigned long count = 1;
    int axes = 0;
    for (;;) {
        char *end;
        unsigned long v = strtoul(p, &end, 10);
        FUZZ_CHECK(end != p, "%s: npy shape", what);
        count *= v, axes++, p = end;
        if (*p == ',')
            p++;
        while (*p == ' ')
            p++;
        if (*p == ')')
            break;
    }
    FUZZ_CHECK(axes >= 2 && strncmp(p, "), }", 4) == 0, "%s: npy shape of %d axes", what, axes);
    size_t item = strcmp(descr, "<f4") == 0 ? 4 : 8;
    FUZZ_CHECK(n - 10 - hlen == count * item, "%s: %zu data bytes for %lu %s values", what,
               n - 10 - hlen, count, descr);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 8)
        return 0;
    static const int dims[] = {2, 4, 6, 8, 16, 32};
    static const double bases[] = {1.0000001, 1.5, 2, 10, 10000, 500000, 1e300, 2.5e-0};
    tf_config c;
    config_defaults(&c);
    c.d_model = dims[data[0] % 6];
    c.n_positions = 1 + data[1] % 48;
    c.base = bases[data[2] % 8];
    c.index_base = data[3] & 1;
    c.rope = (rope_style)((data[3] >> 1) & 1);
    c.scale_embedding = (data[3] >> 2) & 1;
    if ((data[3] >> 3) & 1) { /* word segmentation over the dictionary, when it is installed */
        c.tokenizer = TOKENIZER_WORD;
        c.data_dir = getenv("TFVIZ_DATA_DIR");
    }
    c.offset = data[4] % 50; /* may exceed the positions: must be refused, not crash */
    c.vocab_size = TF_MIN_VOCAB + (uint32_t)data[5] * 3u;
    c.seed = data[6];
    int fmt_mask = data[7];
    const char *text = (const char *)data + 8;
    size_t len = size - 8;
    const char *nul = memchr(text, '\0', len);
    if (nul) {
        c.compare = nul + 1;
        c.compare_len = len - (size_t)(nul + 1 - text);
        len = (size_t)(nul - text);
    }

    tf_analysis a;
    tf_diag dg;
    tf_status st = analysis_run(&c, text, len, &a, &dg);
    if (st != TF_OK) {
        FUZZ_CHECK(a.text == NULL && a.x_emb == NULL, "state left after status %d", st);
        return 0;
    }
    size_t T = a.tokens.n, d = (size_t)c.d_model;
    for (size_t t = 0; t < T; t++)
        for (size_t j = 0; j < d; j++) {
            double want = a.emb_scale * a.x_emb[t * d + j] +
                          posenc_value((double)a.pos[t], (int)j, c.d_model, c.base);
            FUZZ_CHECK(fabs(a.x_input[t * d + j] - want) <= 1e-12, "X_input[%zu][%zu]", t, j);
        }

    for (size_t w = 0; w < N_WHATS; w++) {
        for (int f = 0; f < FMT_COUNT; f++) {
            if (!(fmt_mask & (1 << f)) && f != FMT_JSON)
                continue;
            tf_options o;
            options_defaults(&o);
            o.print_what = whats[w];
            o.format = (out_format)f;
            print_request req = {.opt = &o, .a = &a};
            if (print_check(&req, &c))
                continue;
            tf_diag dg2 = {0};
            st = analysis_need(&a, print_needs(whats[w]), &dg2);
            if (st != TF_OK) {
                FUZZ_CHECK(st == TF_ERR_PERMUTATION || st == TF_ERR_TOO_BIG || st == TF_ERR_UTF8 || st == TF_ERR_EMPTY ||
                               st == TF_ERR_TOO_MANY || st == TF_ERR_TOO_LONG,
                           "%s: need status %d", whats[w], st);
                continue;
            }
            char *out = NULL;
            size_t n = 0;
            FILE *m = open_memstream(&out, &n);
            if (!m)
                continue;
            st = print_write(&req, m);
            fclose(m);
            FUZZ_CHECK(st == TF_OK, "%s format %d: status %d", whats[w], f, st);
            if (f == FMT_JSON)
                FUZZ_CHECK(json_valid(out, n) && terminal_safe(out, n, 1),
                           "%s: invalid or unsafe JSON:\n%.*s", whats[w], (int)n, out);
            else if (f == FMT_TEXT)
                FUZZ_CHECK(terminal_safe(out, n, 1), "%s: unsafe text:\n%.*s", whats[w], (int)n,
                           out);
            else if (f == FMT_CSV)
                FUZZ_CHECK(terminal_safe(out, n, 1), "%s: control bytes in CSV", whats[w]);
            else
                check_npy(whats[w], out, n);
            free(out);
        }
    }
    analysis_free(&a);
    return 0;
}
