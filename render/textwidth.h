/* textwidth.h — UTF-8 text in terminal columns, independent of the locale: how wide it is, where
 * to cut it and where to break its lines.
 *
 * One rule for every caller (the explorer's drawing, its status line, the printed tables):
 * East Asian Wide and Fullwidth characters (CJK ideographs, kana, hangul, full-width forms) take
 * two columns; combining marks, zero-width spaces and variation selectors none; a control
 * character or a byte that is not UTF-8 one, because tfviz shows it as one '?'; everything else
 * one. With `ascii` (a terminal whose locale is not UTF-8) every character outside ASCII is
 * shown as U+XXXX: six columns, eight beyond U+FFFF. */
#ifndef TF_TEXTWIDTH_H
#define TF_TEXTWIDTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* A C0 or C1 control character, DEL, or a bidirectional or line-separator format character:
 * shown as '?', never sent to the terminal. */
bool tw_control(uint32_t cp);
/* Columns of one code point in a UTF-8 terminal: 0, 1 or 2. */
int tw_codepoint(uint32_t cp);
/* Columns of one code point, as U+XXXX when ascii and cp is not ASCII. */
int tw_char(uint32_t cp, bool ascii);
/* The character at s (len > 0 bytes left): its length in bytes (one for a byte that is not
 * UTF-8, whose code point is then '?') and its code point and columns. */
size_t tw_next(const char *s, size_t len, bool ascii, uint32_t *cp, int *cols);
/* Columns of a UTF-8 string. */
int tw_width(const char *s, size_t len);
/* The same where characters outside ASCII are shown as U+XXXX (ascii) or not. */
int tw_width_shown(const char *s, size_t len, bool ascii);
/* Write s and pad with spaces to `width` columns (no truncation). */
void tw_pad(FILE *fp, const char *s, size_t len, int width);

/* The longest prefix of s (len bytes, UTF-8) that fits in width columns, copied into out (cap
 * bytes, always terminated) and cut only between characters; when s does not fit whole, the
 * prefix is followed by ell, whose columns count. Returns the columns written. */
int tw_cut(char *out, size_t cap, const char *s, size_t len, int width, const char *ell);

/* Line breaking for running text (captions, help, the lesson): the first line of s (len bytes)
 * in at most width columns. A line ends at a newline, or breaks after a space or a wide
 * character, never after an opening bracket, before a hyphen joining a pair such as 爱-喜欢, nor
 * before closing punctuation (。，、；：！？）」』”) that would then begin the next line; a word
 * longer than the line is cut where the line is full. Returns the line's length in bytes
 * (spaces at its end included); *next is where the next line starts, past the spaces and the
 * newline that end this one. */
size_t tw_wrap_line(const char *s, size_t len, int width, bool ascii, size_t *next);
/* The last line of a text that goes on: line (a string) cut to width - 3 columns, at a space or
 * after a wide character when there is one, and ended with "..." so the cut shows. line must
 * have room for 3 more bytes. */
void tw_ellipsize(char *line, int width, bool ascii);

#endif
