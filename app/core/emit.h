/* emit.h — small writers shared by the output formats: JSON values, CSV rows, NumPy .npy. */
#ifndef TF_EMIT_H
#define TF_EMIT_H

#include <stddef.h>
#include <stdio.h>

/* A JSON string literal. JSON text is Unicode, so bytes that are not valid UTF-8 become U+FFFD
 * here; output that must keep raw bytes (byte-level BPE pieces) adds a "bytes" array beside
 * it. Control characters are escaped. */
void emit_json_str(FILE *fp, const char *s, size_t len);
/* A JSON number with `digits` significant digits; NaN and infinities become null. */
void emit_json_num(FILE *fp, double v, int digits);
/* [v0, v1, ...] from doubles or floats. */
void emit_json_darray(FILE *fp, const double *v, size_t n, int digits);
void emit_json_farray(FILE *fp, const float *v, size_t n);
/* A CSV field: the text as emit_safe_text shows it (so a CSV file never holds a raw control
 * character or escape sequence), quoted when it holds a comma or a quote. */
void emit_csv_str(FILE *fp, const char *s, size_t len);
/* ",v0,v1,..." with `digits` significant digits. */
void emit_csv_dvalues(FILE *fp, const double *v, size_t n, int digits);
void emit_csv_fvalues(FILE *fp, const float *v, size_t n);
/* The header of a 2-D little-endian .npy array (format 1.0): descr "<f4" or "<f8". */
void emit_npy_header(FILE *fp, const char *descr, size_t rows, size_t cols);
/* The same for an array of ndim (1 to 8) dimensions. */
void emit_npy_header_nd(FILE *fp, const char *descr, const size_t *shape, int ndim);
/* Text shown in a terminal: control characters (ESC among them) and invalid bytes become \xHH,
 * bidirectional and line-separator format characters \uXXXX; never raw. */
void emit_safe_text(FILE *fp, const char *s, size_t len);
/* The same text in a new NUL-terminated string (free it), for a path or a word from a file that
 * goes into a printf-style sentence; NULL when out of memory. */
char *emit_safe_dup(const char *s);

/* A share as a percentage with as many digits as it needs to be read: "18%", "4.2%",
 * "0.031%" (frac 0.18, 0.042, 0.00031). */
void emit_percent(char *buf, size_t cap, double frac);

/* Significant digits: float64 values, and float32 values (which round-trip at 9). */
#define EMIT_F64_DIGITS 15
#define EMIT_F32_DIGITS 9

#endif
