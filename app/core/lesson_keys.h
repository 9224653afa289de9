/* lesson_keys.h — the lesson's keys: one table for the key line on the screen, the ? help and
 * the key lists of README.md, docs/guide.md and docs/lesson-plan.md (tfviz-options-docs
 * lesson-keys writes them; the doc-options test checks they are what the table writes). */
#ifndef TF_LESSON_KEYS_H
#define TF_LESSON_KEYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/strings.h"

typedef struct {
    txt_id keys;   /* the keys as the screen names them, '|' between them ("Space|PgDn|Enter") */
    txt_id action; /* a word or two, for the key line */
    txt_id help;   /* the sentence of the ? help and the docs */
} lesson_key_row;

/* The rows, in the order the key line shows them (the most used first); *n their number. */
const lesson_key_row *lesson_keys(size_t *n);

/* The keys of a row as text, joined by sep ("/" on the screen, ", " in the docs). */
void lesson_keys_names(char *buf, size_t cap, const lesson_key_row *r, bool zh, const char *sep);

/* The key line: "Space/PgDn/Enter next  PgUp/Backspace back  ...", two spaces between keys. */
void lesson_keys_line(char *buf, size_t cap, bool zh);

/* The ? help: a line for each key, then the note on the step's own keys. */
void lesson_keys_help(char *buf, size_t cap, bool zh);

/* The man page's Lesson keys (roff), English. */
void lesson_keys_man(FILE *f);

/* The docs' table of the keys (Markdown, both languages), then the note. */
void lesson_keys_markdown(FILE *f);

#endif
