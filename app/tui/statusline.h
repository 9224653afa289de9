/* statusline.h — the explorer's status line, laid out from whole fields, and the names of the
 * figures its e key writes.
 *
 * The status line never shows part of a number: a field that does not fit is left out whole,
 * and only the sentence is shortened, on a character boundary, ending in an ellipsis. */
#ifndef TF_TUI_STATUSLINE_H
#define TF_TUI_STATUSLINE_H

#include <stdbool.h>
#include <stddef.h>

#include "status.h"

#define TUI_STATUS_FIELDS 8

/* The status line " SENTENCE | F0 | F1 | ... " in at most width columns, into out.
 * fields[i] are shown in their order; prio[i] says which go first when space is short (the
 * largest prio is dropped first). The sentence keeps at least min_sentence columns (or all of
 * it when shorter) before any field is dropped, then takes the room the kept fields leave,
 * cut with ell. Returns the columns used (<= width). */
int tui_status_compose(char *out, size_t cap, int width, const char *sentence, size_t sentence_len,
                       const char *const *fields, const int *prio, int n, int min_sentence,
                       const char *ell);

/* The value under the cursor, shortened to width columns by leaving out whole parts
 * (parts are separated by two spaces) from the end; "" when not even the first part fits. */
int tui_cursor_fit(char *out, size_t cap, const char *cursor, int width);

/* The first of "DIR/tfviz-NAME.EXT", "DIR/tfviz-NAME-2.EXT", ... that does not exist yet
 * (dir NULL: the current directory), into out. Returns false when none up to 9999 is free or
 * out is too small. */
bool tui_export_path(char *out, size_t cap, const char *dir, const char *name, const char *ext);

#endif
