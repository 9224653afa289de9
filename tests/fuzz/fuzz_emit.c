/* fuzz_emit.c — the text, CSV and JSON writers on arbitrary bytes and numbers.
 *
 * Properties: emit_json_str gives one valid JSON string (and the bytes of valid UTF-8 input
 * come back unchanged when the escapes are undone); JSON numbers, arrays of doubles (NaN and
 * infinities included) and floats are valid JSON; emit_safe_text never writes a control byte
 * and is valid UTF-8; a CSV field reads back to the text shown for it. */
#include <math.h>

#include "core/emit.h"
#include "fuzz_check.h"

typedef struct {
    char *buf;
    size_t len;
    FILE *fp;
} sink;

static int sink_open(sink *s)
{
    s->buf = NULL, s->len = 0;
    s->fp = open_memstream(&s->buf, &s->len);
    return s->fp != NULL;
}

static void sink_close(sink *s) { fclose(s->fp); }

/* Undo a JSON string literal's escapes (the validator has accepted it); returns the length. */
static size_t json_unescape(const char *s, size_t n, char *out)
{
    size_t o = 0;
    for (size_t i = 1; i + 1 < n; i++) {
        if (s[i] != '\\') {
            out[o++] = s[i];
            continue;
        }
        char e = s[++i];
        if (e == 'u') {
            unsigned cp = (unsigned)strtoul((char[5]){s[i + 1], s[i + 2], s[i + 3], s[i + 4], 0},
                                            NULL, 16);
            i += 4;
            o += utf8_encode(cp, out + o);
        } else {
            out[o++] = e == 'n' ? '\n' : e == 't' ? '\t' : e == 'r' ? '\r' : e == 'b' ? '\b'
                     : e == 'f' ? '\f' : e;
        }
    }
    return o;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *s = (const char *)data;
    sink k;

    /* JSON string */
    if (!sink_open(&k))
        return 0;
    emit_json_str(k.fp, s, size);
    sink_close(&k);
    FUZZ_CHECK(json_valid(k.buf, k.len), "invalid JSON string: %.*s", (int)k.len, k.buf);
    if (utf8_validate(s, size, NULL) == TF_OK) {
        char *back = malloc(k.len + 1);
        size_t n = json_unescape(k.buf, k.len, back);
        FUZZ_CHECK(n == size && memcmp(back, s, size) == 0, "JSON string does not round-trip");
        free(back);
    }
    free(k.buf);

    /* safe text */
    if (!sink_open(&k))
        return 0;
    emit_safe_text(k.fp, s, size);
    sink_close(&k);
    FUZZ_CHECK(terminal_safe(k.buf, k.len, 0), "unsafe text for the terminal");
    char *shown = k.buf;
    size_t shown_len = k.len;

    /* CSV field: unquote, and it must be the safe text */
    if (!sink_open(&k))
        return 0;
    emit_csv_str(k.fp, s, size);
    sink_close(&k);
    FUZZ_CHECK(terminal_safe(k.buf, k.len, 0), "control bytes in a CSV field");
    char *field = malloc(k.len + 1);
    size_t fl = 0;
    if (k.len >= 2 && k.buf[0] == '"') {
        FUZZ_CHECK(k.buf[k.len - 1] == '"', "unterminated quoted field");
        for (size_t i = 1; i + 1 < k.len; i++) {
            if (k.buf[i] == '"') {
                FUZZ_CHECK(k.buf[i + 1] == '"' && i + 2 < k.len, "lone quote inside a field");
                i++;
            }
            field[fl++] = k.buf[i];
        }
    } else {
        FUZZ_CHECK(!memchr(k.buf, ',', k.len) && !memchr(k.buf, '"', k.len),
                   "unquoted field with a comma or quote");
        memcpy(field, k.buf, k.len);
        fl = k.len;
    }
    FUZZ_CHECK(fl == shown_len && memcmp(field, shown, fl) == 0,
               "CSV field reads back as something else than the text shown");
    free(field);
    free(k.buf);
    free(shown);

    /* numbers: the bytes as doubles and floats, every bit pattern including NaN and inf */
    size_t nd = size / sizeof(double), nf = size / sizeof(float);
    double *dv = malloc((nd ? nd : 1) * sizeof *dv);
    float *fv = malloc((nf ? nf : 1) * sizeof *fv);
    if (dv && fv) {
        memcpy(dv, data, nd * sizeof *dv);
        memcpy(fv, data, nf * sizeof *fv);
        if (sink_open(&k)) {
            fputs("{\"d\": ", k.fp);
            emit_json_darray(k.fp, dv, nd, EMIT_F64_DIGITS);
            fputs(", \"d6\": ", k.fp);
            emit_json_darray(k.fp, dv, nd, 6);
            fputs(", \"f\": ", k.fp);
            emit_json_farray(k.fp, fv, nf);
            fputs("}", k.fp);
            sink_close(&k);
            FUZZ_CHECK(json_valid(k.buf, k.len), "invalid JSON numbers: %.*s", (int)k.len, k.buf);
            free(k.buf);
        }
        for (size_t i = 0; i < nd; i++) {
            if (!sink_open(&k))
                break;
            emit_json_num(k.fp, dv[i], EMIT_F64_DIGITS);
            sink_close(&k);
            if (isfinite(dv[i])) {
                double back = strtod(k.buf, NULL);
                FUZZ_CHECK(back == dv[i] || fabs(back - dv[i]) <= 1e-14 * fabs(dv[i]),
                           "%.17g printed as %s", dv[i], k.buf);
            } else {
                FUZZ_CHECK(strcmp(k.buf, "null") == 0, "non-finite printed as %s", k.buf);
            }
            free(k.buf);
        }
    }
    free(dv);
    free(fv);
    return 0;
}
