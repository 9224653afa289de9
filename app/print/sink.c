/* sink.c — JSON, CSV and .npy from a topic's values, tables and matrices. */
#include "print/sink.h"

#include <stdlib.h>
#include <string.h>

#include "core/emit.h"
#include "core/progress.h"

#define MAX_DEPTH 8

struct sink {
    out_format f;
    FILE *fp;
    int depth;               /* JSON objects open */
    bool first[MAX_DEPTH];   /* no key written yet at this depth */
};

/* ---------------------------------------------------------------------------------------------
 * Values */

pv pv_int(long long i) { return (pv){.kind = PV_INT, .i = i}; }
pv pv_uint(unsigned long long u) { return (pv){.kind = PV_UINT, .u = u}; }
pv pv_num_digits(double d, int digits)
{
    return (pv){.kind = PV_NUM, .style = 'j', .d = d, .digits = digits};
}
pv pv_num(double d) { return pv_num_digits(d, EMIT_F64_DIGITS); }
pv pv_printf_g(double d, int digits)
{
    return (pv){.kind = PV_NUM, .style = 'g', .d = d, .digits = digits};
}
pv pv_whole(double d) { return (pv){.kind = PV_NUM, .style = 'f', .d = d}; }
pv pv_bool(bool b) { return (pv){.kind = PV_BOOL, .b = b}; }
pv pv_null(void) { return (pv){.kind = PV_NULL}; }
pv pv_strn(const char *s, size_t len) { return (pv){.kind = PV_STR, .s = s, .len = len}; }
pv pv_str(const char *s) { return pv_strn(s, strlen(s)); }
pv pv_token(const char *s, size_t len, bool partial)
{
    return (pv){.kind = PV_TOKEN, .s = s, .len = len, .partial = partial};
}
pv pv_raw(const char *s) { return (pv){.kind = PV_RAW, .s = s, .len = strlen(s)}; }
pv pv_dvec(const double *v, size_t n)
{
    return (pv){.kind = PV_DVEC, .v = v, .n = n, .digits = EMIT_F64_DIGITS};
}
pv pv_fvec(const float *v, size_t n) { return (pv){.kind = PV_FVEC, .v = v, .n = n}; }
pv pv_lvec(const long *v, size_t n) { return (pv){.kind = PV_LVEC, .v = v, .n = n}; }
pv pv_svec(const size_t *v, size_t n) { return (pv){.kind = PV_SVEC, .v = v, .n = n}; }
pv pv_bytes(const void *b, size_t n) { return (pv){.kind = PV_BYTES, .s = b, .len = n}; }
pv pv_strs(const char *const *v, size_t n) { return (pv){.kind = PV_STRV, .v = v, .n = n}; }

static void num(FILE *fp, const pv *v)
{
    if (v->style == 'g')
        fprintf(fp, "%.*g", v->digits, v->d);
    else if (v->style == 'f')
        fprintf(fp, "%.0f", v->d);
    else
        emit_json_num(fp, v->d, v->digits);
}

/* The bytes of a token that is part of a character, \xHH each (\\xHH inside a JSON string). */
static void token_bytes(FILE *fp, const pv *v, bool json)
{
    for (size_t i = 0; i < v->len; i++)
        fprintf(fp, json ? "\\\\x%02X" : "\\x%02X", (unsigned char)v->s[i]);
}

static void json_value(FILE *fp, const pv *v)
{
    switch (v->kind) {
    case PV_ABSENT:
    case PV_NULL:
        fputs("null", fp);
        break;
    case PV_INT:
        fprintf(fp, "%lld", v->i);
        break;
    case PV_UINT:
        fprintf(fp, "%llu", v->u);
        break;
    case PV_NUM:
        num(fp, v);
        break;
    case PV_BOOL:
        fputs(v->b ? "true" : "false", fp);
        break;
    case PV_TOKEN:
        if (!v->partial) { /* a whole token is text */
            emit_json_str(fp, v->s, v->len);
            break;
        }
        fputc('"', fp);
        token_bytes(fp, v, true);
        fputc('"', fp);
        break;
    case PV_STR:
        emit_json_str(fp, v->s, v->len);
        break;
    case PV_RAW:
        fwrite(v->s, 1, v->len, fp);
        break;
    case PV_DVEC:
        emit_json_darray(fp, v->v, v->n, v->digits);
        break;
    case PV_FVEC:
        emit_json_farray(fp, v->v, v->n);
        break;
    case PV_STRV:
        fputc('[', fp);
        for (size_t i = 0; i < v->n; i++) {
            const char *e = ((const char *const *)v->v)[i];
            fputs(i ? ", " : "", fp);
            emit_json_str(fp, e, strlen(e));
        }
        fputc(']', fp);
        break;
    case PV_LVEC:
    case PV_SVEC:
    case PV_BYTES:
        fputc('[', fp);
        for (size_t i = 0; i < (v->kind == PV_BYTES ? v->len : v->n); i++) {
            fputs(i ? ", " : "", fp);
            if (v->kind == PV_LVEC)
                fprintf(fp, "%ld", ((const long *)v->v)[i]);
            else if (v->kind == PV_SVEC)
                fprintf(fp, "%zu", ((const size_t *)v->v)[i]);
            else
                fprintf(fp, "%u", (unsigned char)v->s[i]);
        }
        fputc(']', fp);
        break;
    }
}

/* One CSV cell (a vector: one cell per element, comma-separated). */
static void csv_value(FILE *fp, const pv *v)
{
    switch (v->kind) {
    case PV_ABSENT:
    case PV_NULL:
        break;
    case PV_INT:
    case PV_UINT:
    case PV_NUM:
    case PV_RAW:
        json_value(fp, v);
        break;
    case PV_BOOL:
        fputc(v->b ? '1' : '0', fp);
        break;
    case PV_TOKEN:
        if (v->partial)
            token_bytes(fp, v, false);
        else
            emit_csv_str(fp, v->s, v->len);
        break;
    case PV_STR:
        emit_csv_str(fp, v->s, v->len);
        break;
    case PV_DVEC:
    case PV_FVEC:
        for (size_t i = 0; i < v->n; i++) {
            if (i)
                fputc(',', fp);
            double x = v->kind == PV_DVEC ? ((const double *)v->v)[i] : ((const float *)v->v)[i];
            emit_json_num(fp, x, v->kind == PV_DVEC ? v->digits : EMIT_F32_DIGITS);
        }
        break;
    case PV_LVEC:
    case PV_SVEC:
    case PV_STRV:
        break; /* not a CSV cell */
    case PV_BYTES:
        for (size_t i = 0; i < v->len; i++)
            fprintf(fp, i ? " %02x" : "%02x", (unsigned char)v->s[i]);
        break;
    }
}

/* ---------------------------------------------------------------------------------------------
 * The sink */

sink *sink_open(out_format f, FILE *fp)
{
    sink *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->f = f;
    s->fp = fp;
    if (f == FMT_JSON) {
        fputc('{', fp);
        s->first[0] = true;
    }
    return s;
}

tf_status sink_close(sink *s)
{
    if (s->f == FMT_JSON)
        fputs("}\n", s->fp);
    tf_status st = ferror(s->fp) ? TF_ERR_IO : TF_OK;
    free(s);
    return st;
}

static bool takes(const sink *s, unsigned fmts) { return (fmts >> s->f) & 1u; }

/* "key": at the current depth, after a comma unless it is the first. */
static void json_key(sink *s, const char *key)
{
    if (!s->first[s->depth])
        fputs(", ", s->fp);
    s->first[s->depth] = false;
    emit_json_str(s->fp, key, strlen(key));
    fputs(": ", s->fp);
}

void sink_value(sink *s, unsigned fmts, const char *key, pv v)
{
    if (s->f != FMT_JSON || !takes(s, fmts) || v.kind == PV_ABSENT)
        return;
    json_key(s, key);
    json_value(s->fp, &v);
}

void sink_begin(sink *s, unsigned fmts, const char *key)
{
    if (s->f != FMT_JSON || !takes(s, fmts) || s->depth + 1 >= MAX_DEPTH)
        return;
    json_key(s, key);
    fputc('{', s->fp);
    s->first[++s->depth] = true;
}

void sink_end(sink *s, unsigned fmts)
{
    if (s->f != FMT_JSON || !takes(s, fmts) || s->depth == 0)
        return;
    fputc('}', s->fp);
    s->depth--;
}

/* ---------------------------------------------------------------------------------------------
 * Tables */

/* One row as a JSON object (or its first JSON value when flat); "a.b" columns nest. */
static void json_row(FILE *fp, const sink_table_def *t, const pv *cells)
{
    bool first = true, group_first = false;
    const char *group = NULL; /* the nested object open: "a" of "a.b" */
    size_t glen = 0;
    if (!t->flat)
        fputc('{', fp);
    for (int c = 0; c < t->ncols; c++) {
        if (!((t->cols[c].fmts >> FMT_JSON) & 1u) || cells[c].kind == PV_ABSENT)
            continue;
        if (t->flat) {
            json_value(fp, &cells[c]);
            return;
        }
        const char *name = t->cols[c].name, *dot = strchr(name, '.');
        size_t plen = dot ? (size_t)(dot - name) : 0;
        if (group && !(dot && plen == glen && strncmp(name, group, glen) == 0)) {
            fputc('}', fp);
            group = NULL;
        }
        if (dot && !group) {
            fputs(first ? "" : ", ", fp);
            first = false;
            emit_json_str(fp, name, plen);
            fputs(": {", fp);
            group = name, glen = plen, group_first = true;
        }
        bool *at_first = group ? &group_first : &first;
        fputs(*at_first ? "" : ", ", fp);
        *at_first = false;
        const char *key = dot ? dot + 1 : name;
        emit_json_str(fp, key, strlen(key));
        fputs(": ", fp);
        json_value(fp, &cells[c]);
    }
    if (!t->flat)
        fputs(group ? "}}" : "}", fp);
}

static void csv_header(FILE *fp, const sink_table_def *t, const pv *cells)
{
    bool first = true;
    for (int c = 0; c < t->ncols; c++) {
        if (!((t->cols[c].fmts >> FMT_CSV) & 1u))
            continue;
        bool vec = cells[c].kind == PV_DVEC || cells[c].kind == PV_FVEC;
        size_t n = vec ? cells[c].n : 1; /* an empty vector has no cells */
        for (size_t j = 0; j < n; j++) {
            if (!first)
                fputc(',', fp);
            first = false;
            if (!vec) {
                fputs(t->cols[c].name, fp);
            } else if (t->cols[c].names) {
                pv name;
                t->cols[c].names(t->ctx, j, &name);
                csv_value(fp, &name);
            } else {
                fprintf(fp, "%zu", j);
            }
        }
    }
    fputc('\n', fp);
}

static void csv_row(FILE *fp, const sink_table_def *t, const pv *cells)
{
    bool first = true;
    for (int c = 0; c < t->ncols; c++) {
        bool vec = cells[c].kind == PV_DVEC || cells[c].kind == PV_FVEC;
        if (!((t->cols[c].fmts >> FMT_CSV) & 1u) || (vec && cells[c].n == 0))
            continue; /* an empty vector has no cells */
        if (!first)
            fputc(',', fp);
        first = false;
        csv_value(fp, &cells[c]);
    }
    fputc('\n', fp);
}

tf_status sink_table(sink *s, unsigned fmts, const sink_table_def *t)
{
    if (!takes(s, fmts) || s->f == FMT_NPY || s->f == FMT_TEXT)
        return TF_OK;
    pv *cells = calloc((size_t)t->ncols, sizeof *cells);
    if (!cells)
        return TF_ERR_NOMEM;
    if (s->f == FMT_JSON) {
        json_key(s, t->key);
        fputc('[', s->fp);
    }
    tf_status st = TF_OK;
    size_t written = 0;
    for (size_t r = 0; r < t->rows && !ferror(s->fp); r++) {
        int flow = SINK_ROW;
        if (t->advance && ((st = t->advance(t->ctx, r, &flow)) != TF_OK || flow == SINK_END))
            break;
        if (flow == SINK_SKIP)
            continue;
        memset(cells, 0, (size_t)t->ncols * sizeof *cells);
        if ((st = t->row(t->ctx, r, cells)) != TF_OK)
            break;
        if (s->f == FMT_JSON) {
            fputs(written ? ", " : "", s->fp);
            json_row(s->fp, t, cells);
        } else {
            if (written == 0) /* the header names the cells of the first row */
                csv_header(s->fp, t, cells);
            csv_row(s->fp, t, cells);
        }
        written++;
    }
    if (s->f == FMT_JSON) {
        fputc(']', s->fp);
    } else if (written == 0 && st == TF_OK) { /* no rows: the header alone */
        memset(cells, 0, (size_t)t->ncols * sizeof *cells);
        csv_header(s->fp, t, cells);
    }
    free(cells);
    if (st == TF_OK && ferror(s->fp))
        st = TF_ERR_IO;
    return st;
}

/* ---------------------------------------------------------------------------------------------
 * Matrices */

/* JSON of an n-D matrix (json_nd): the arrays that open before row r, one for each leading axis
 * whose block of rows starts at r; as many close after row r - 1. */
static size_t json_nd_open(const sink_matrix_def *m, size_t r)
{
    if (!m->json_nd || !m->npy_shape || m->npy_ndim < 3)
        return 0;
    size_t n = 0, block = 1;
    for (int k = m->npy_ndim - 2; k >= 1; k--) { /* blocks of rows of axis k - 1 */
        block *= m->npy_shape[k];
        if (r % block == 0)
            n++;
    }
    return n;
}

tf_status sink_matrix(sink *s, unsigned fmts, const sink_matrix_def *m)
{
    if (!takes(s, fmts) || s->f == FMT_CSV || s->f == FMT_TEXT)
        return TF_OK;
    size_t item = m->f32 ? sizeof(float) : sizeof(double);
    void *row = malloc((m->cols ? m->cols : 1) * item);
    if (!row)
        return TF_ERR_NOMEM;
    tf_progress bar = {0};
    if (s->f == FMT_NPY) {
        if (m->npy_shape)
            emit_npy_header_nd(s->fp, m->f32 ? "<f4" : "<f8", m->npy_shape, m->npy_ndim);
        else
            emit_npy_header(s->fp, m->f32 ? "<f4" : "<f8", m->rows, m->cols);
        if (m->progress)
            progress_start(&bar, m->progress, PROGRESS_BYTES,
                           (double)m->rows * (double)m->cols * (double)item);
    } else {
        json_key(s, m->key);
        fputc('[', s->fp);
    }
    tf_status st = TF_OK;
    for (size_t r = 0; r < m->rows && st == TF_OK && !ferror(s->fp); r++) {
        if (m->data)
            memcpy(row, (const char *)m->data + r * m->cols * item, m->cols * item);
        else
            st = m->row(m->ctx, r, row);
        if (st != TF_OK)
            break;
        if (s->f == FMT_NPY) {
            fwrite(row, item, m->cols, s->fp);
            progress_update(&bar, (double)(r + 1) * (double)m->cols * (double)item, NULL);
            continue;
        }
        fputs(r ? ", " : "", s->fp);
        for (size_t k = json_nd_open(m, r); k > 0; k--)
            fputc('[', s->fp);
        if (m->f32)
            emit_json_farray(s->fp, row, m->cols);
        else
            emit_json_darray(s->fp, row, m->cols, m->digits);
        for (size_t k = json_nd_open(m, r + 1); k > 0; k--)
            fputc(']', s->fp);
    }
    progress_end(&bar);
    if (s->f == FMT_JSON)
        fputc(']', s->fp);
    free(row);
    if (st == TF_OK && ferror(s->fp))
        st = TF_ERR_IO;
    return st;
}
