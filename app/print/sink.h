/* sink.h — the generic writers of --print (htop's Meter: a meter fills values, generic code draws
 * them). A topic hands the sink its values, tables and matrices in order; the sink of the chosen
 * format writes what that format shows of them:
 *   JSON  one object: each value under its key, a table as an array of objects (or of values),
 *         a matrix as an array of rows, nested objects where the topic opens them;
 *   CSV   the topic's table: a header line and one line per row;
 *   npy   the topic's matrix, float32 or float64, with NumPy's header.
 * Every call says which formats take it (SINK_JSON | SINK_CSV | SINK_NPY), so one topic can give
 * a format what suits it (pe: float64 rows in JSON and CSV, the float32 fast path in npy). */
#ifndef TF_PRINT_SINK_H
#define TF_PRINT_SINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/options.h"
#include "status.h"

enum { SINK_JSON = 1 << FMT_JSON, SINK_CSV = 1 << FMT_CSV, SINK_NPY = 1 << FMT_NPY };

/* ---- values ------------------------------------------------------------------------------- */

typedef enum {
    PV_ABSENT, /* left out: no key in JSON, an empty cell in CSV */
    PV_NULL,   /* null in JSON, an empty cell in CSV */
    PV_INT,
    PV_UINT,
    PV_NUM,    /* a double (see pv.style) */
    PV_BOOL,   /* true or false in JSON, 1 or 0 in CSV */
    PV_STR,    /* text: a JSON string, a CSV field (escaped, quoted when it must be) */
    PV_TOKEN,  /* a token's text; with `partial` (bytes of a character) its bytes as \xHH */
    PV_RAW,    /* written as it is */
    PV_DVEC,   /* doubles: a JSON array, one CSV cell each */
    PV_FVEC,   /* floats: the same, at float32's 9 digits */
    PV_LVEC,   /* longs: a JSON array */
    PV_SVEC,   /* size_t: a JSON array */
    PV_BYTES,  /* bytes: a JSON array of numbers, hex pairs in one CSV cell */
    PV_STRV,   /* strings: a JSON array of strings */
} pv_kind;

typedef struct {
    pv_kind kind;
    char style;   /* PV_NUM: 'j' a JSON number (null when not finite, never -0), 'g' printf %.*g,
                     'f' a whole number %.0f */
    int digits;   /* PV_NUM, PV_DVEC: significant digits */
    bool partial; /* PV_TOKEN */
    bool b;
    long long i;
    unsigned long long u;
    double d;
    const char *s; /* PV_STR, PV_TOKEN, PV_RAW, PV_BYTES */
    size_t len;
    const void *v; /* vectors */
    size_t n;
} pv;

pv pv_int(long long i);
pv pv_uint(unsigned long long u);
pv pv_num(double d);                /* 15 significant digits (float64) */
pv pv_num_digits(double d, int digits);
pv pv_printf_g(double d, int digits); /* %.*g, as a plain printf writes it */
pv pv_whole(double d);              /* %.0f */
pv pv_bool(bool b);
pv pv_null(void);
pv pv_str(const char *s);
pv pv_strn(const char *s, size_t len);
pv pv_token(const char *s, size_t len, bool partial);
pv pv_raw(const char *s);
pv pv_dvec(const double *v, size_t n);
pv pv_fvec(const float *v, size_t n);
pv pv_lvec(const long *v, size_t n);
pv pv_svec(const size_t *v, size_t n);
pv pv_bytes(const void *b, size_t n);
pv pv_strs(const char *const *v, size_t n);

/* ---- the sink ----------------------------------------------------------------------------- */

typedef struct sink sink;

/* A column of a table: its name (the CSV header, the JSON key; "a.b" puts key b in a nested
 * object a), the formats that show it, and for a vector column the CSV header of each of its
 * cells (NULL: 0, 1, ...). */
typedef struct {
    const char *name;
    unsigned fmts;
    void (*names)(void *ctx, size_t j, pv *out);
} sink_col;

enum { SINK_ROW, SINK_SKIP, SINK_END }; /* what a table's advance function found */

typedef struct {
    const char *key;        /* the JSON array's key */
    const sink_col *cols;
    int ncols;
    size_t rows;            /* SIZE_MAX: until advance says SINK_END */
    bool flat;              /* JSON: each row is one value (its first JSON column), not an object */
    /* NULL, or make row r ready first and say whether there is one: *flow = SINK_ROW, SINK_SKIP
     * (none at r, go on) or SINK_END (the table ends) */
    tf_status (*advance)(void *ctx, size_t r, int *flow);
    /* fill cells[0 .. ncols) of row r; a failure returns its status */
    tf_status (*row)(void *ctx, size_t r, pv *cells);
    void *ctx;
} sink_table_def;

typedef struct {
    const char *key;        /* the JSON array's key */
    size_t rows, cols;
    bool f32;               /* float32 rows (npy "<f4"), else float64 ("<f8") */
    int digits;             /* JSON digits */
    /* the values: rows x cols floats or doubles in C order, or (NULL) row fills row r of them:
     * cols floats or doubles into out */
    const void *data;
    tf_status (*row)(void *ctx, size_t r, void *out);
    void *ctx;
    const char *progress;   /* a progress bar's label for a large write (NULL: none) */
    /* npy: the array's shape when it is not (rows, cols): rows x cols values in C order */
    const size_t *npy_shape;
    int npy_ndim;
    bool json_nd;           /* JSON too: arrays nested as npy_shape says ([H][N][N]) */
} sink_matrix_def;

/* A sink writing format f to fp, and its end (the JSON object's closing brace). */
sink *sink_open(out_format f, FILE *fp);
tf_status sink_close(sink *s);

/* A value under key in the current JSON object. */
void sink_value(sink *s, unsigned fmts, const char *key, pv v);
/* A JSON object under key, until sink_end. */
void sink_begin(sink *s, unsigned fmts, const char *key);
void sink_end(sink *s, unsigned fmts);
tf_status sink_table(sink *s, unsigned fmts, const sink_table_def *t);
tf_status sink_matrix(sink *s, unsigned fmts, const sink_matrix_def *m);

#endif
