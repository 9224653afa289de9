/* emit.c — JSON, CSV and .npy writers. */
#include "core/emit.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "utf8.h"

/* Code points a terminal acts on instead of drawing: C0 and C1 controls and DEL (ESC starts
 * every escape sequence), and the invisible format characters that reorder or break lines
 * (bidirectional overrides and isolates, line and paragraph separators). */
static int is_terminal_control(uint32_t cp)
{
    return cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp < 0xA0) || cp == 0x200E ||
           cp == 0x200F || (cp >= 0x2028 && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
}

/* Text for a terminal: controls as \u202E (format characters) or \xHH (each byte of a control
 * or of invalid UTF-8), everything else as is; with csv_quote, '"' is doubled. */
static void write_safe(FILE *fp, const char *s, size_t len, int csv_quote)
{
    size_t i = 0;
    while (i < len) {
        uint32_t cp = 0;
        size_t n = utf8_decode(s + i, len - i, &cp);
        if (n > 1 && cp >= 0xA0 && is_terminal_control(cp)) {
            fprintf(fp, "\\u%04X", (unsigned)cp);
            i += n;
        } else if (n == 0 || is_terminal_control(cp)) {
            size_t m = n ? n : 1;
            for (size_t j = 0; j < m; j++)
                fprintf(fp, "\\x%02X", (unsigned char)s[i + j]);
            i += m;
        } else {
            if (csv_quote && cp == '"')
                fputc('"', fp);
            fwrite(s + i, 1, n, fp);
            i += n;
        }
    }
}

void emit_json_str(FILE *fp, const char *s, size_t len)
{
    fputc('"', fp);
    size_t i = 0;
    while (i < len) {
        uint32_t cp;
        size_t n = utf8_decode(s + i, len - i, &cp);
        if (n == 0) {
            fputs("\\ufffd", fp);
            i++;
            continue;
        }
        if (cp == '"' || cp == '\\')
            fprintf(fp, "\\%c", (char)cp);
        else if (cp == '\n')
            fputs("\\n", fp);
        else if (cp == '\t')
            fputs("\\t", fp);
        else if (is_terminal_control(cp)) /* C1 and bidi controls too: JSON read in a terminal */
            fprintf(fp, "\\u%04x", (unsigned)cp);
        else
            fwrite(s + i, 1, n, fp);
        i += n;
    }
    fputc('"', fp);
}

void emit_json_num(FILE *fp, double v, int digits)
{
    if (!isfinite(v))
        fputs("null", fp);
    else if (v == 0.0)
        fputs("0", fp); /* no "-0" */
    else if (fabs(v) > 1.7976931348623e308)
        fprintf(fp, "%.17g", v); /* fewer digits round up past DBL_MAX: a reader sees inf */
    else
        fprintf(fp, "%.*g", digits, v);
}

/* [v0, v1, ...] of n doubles or, f32, floats. */
static void json_array(FILE *fp, const void *v, bool f32, size_t n, int digits)
{
    fputc('[', fp);
    for (size_t i = 0; i < n; i++) {
        if (i)
            fputs(", ", fp);
        emit_json_num(fp, f32 ? (double)((const float *)v)[i] : ((const double *)v)[i], digits);
    }
    fputc(']', fp);
}

void emit_json_darray(FILE *fp, const double *v, size_t n, int digits)
{
    json_array(fp, v, false, n, digits);
}

void emit_json_farray(FILE *fp, const float *v, size_t n)
{
    json_array(fp, v, true, n, EMIT_F32_DIGITS);
}

void emit_csv_str(FILE *fp, const char *s, size_t len)
{
    /* the text as shown in a terminal (controls escaped, so no raw newline either), quoted
     * when it holds a comma or a quote */
    int quote = memchr(s, ',', len) || memchr(s, '"', len);
    if (quote)
        fputc('"', fp);
    write_safe(fp, s, len, quote);
    if (quote)
        fputc('"', fp);
}

void emit_csv_dvalues(FILE *fp, const double *v, size_t n, int digits)
{
    for (size_t i = 0; i < n; i++) {
        fputc(',', fp);
        emit_json_num(fp, v[i], digits);
    }
}

void emit_csv_fvalues(FILE *fp, const float *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        fputc(',', fp);
        emit_json_num(fp, v[i], EMIT_F32_DIGITS);
    }
}

void emit_npy_header_nd(FILE *fp, const char *descr, const size_t *shape, int ndim)
{
    char dims[8 * 24] = "", dict[8 * 24 + 96];
    size_t o = 0;
    for (int i = 0; i < ndim && i < 8; i++)
        o += (size_t)snprintf(dims + o, sizeof dims - o, i ? " %zu," : "%zu,", shape[i]);
    if (ndim > 1 && o > 0 && o < sizeof dims)
        dims[--o] = '\0'; /* (n,) keeps its comma, (r, c) has none at the end */
    int n = snprintf(dict, sizeof dict,
                     "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }", descr, dims);
    /* magic (6) + version (2) + length (2) + dict + padding + '\n', a multiple of 64 */
    size_t total = 10 + (size_t)n + 1;
    size_t pad = (64 - total % 64) % 64;
    size_t hlen = (size_t)n + pad + 1;
    fwrite("\x93NUMPY\x01\x00", 1, 8, fp);
    fputc((int)(hlen & 0xFF), fp);
    fputc((int)(hlen >> 8), fp);
    fwrite(dict, 1, (size_t)n, fp);
    for (size_t i = 0; i < pad; i++)
        fputc(' ', fp);
    fputc('\n', fp);
}

void emit_npy_header(FILE *fp, const char *descr, size_t rows, size_t cols)
{
    const size_t shape[2] = {rows, cols};
    emit_npy_header_nd(fp, descr, shape, 2);
}

void emit_percent(char *buf, size_t cap, double frac)
{
    double p = 100.0 * frac;
    snprintf(buf, cap, p >= 9.95 ? "%.0f%%" : p >= 0.995 ? "%.1f%%" : "%.2g%%", p);
}

void emit_safe_text(FILE *fp, const char *s, size_t len) { write_safe(fp, s, len, 0); }

char *emit_safe_dup(const char *s)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m)
        return NULL;
    emit_safe_text(m, s, strlen(s));
    if (fclose(m) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}
