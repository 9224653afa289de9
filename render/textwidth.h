/* textwidth.h — display width of UTF-8 text in terminal columns, independent of the locale.
 *
 * East Asian Wide and Fullwidth characters (CJK ideographs, kana, hangul, full-width forms)
 * take two columns; combining marks and controls take none; everything else one. */
#ifndef TF_TEXTWIDTH_H
#define TF_TEXTWIDTH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Columns of one code point: 0, 1 or 2. */
int tw_codepoint(uint32_t cp);
/* Columns of a UTF-8 string (invalid bytes count one column each). */
int tw_width(const char *s, size_t len);
/* Write s and pad with spaces to `width` columns (no truncation). */
void tw_pad(FILE *fp, const char *s, size_t len, int width);

#endif
