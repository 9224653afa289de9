/* lesson.h — the guided lesson (--lesson): twelve steps through the argument, one screen each,
 * drawn inside the explorer with the views' own drawing code. The steps' words are
 * core/lesson_text.h's; here, what each step draws. */
#ifndef TF_LESSON_H
#define TF_LESSON_H

#include <stdbool.h>
#include <stddef.h>

#include "core/lesson_text.h"
#include "tui/view.h"

typedef struct {
    /* what the step draws below its text: an explorer view, or NULL for the lesson's own
     * table of characters and their bytes */
    const tui_view *view;
    bool pe_cell;         /* the PE cell under the view's cursor worked out above it */
    /* keys whose result the view also puts on the message line, which every layout keeps */
    const char *echo;
} lesson_step;

/* Step i (0-based), NULL outside 0..LESSON_STEPS-1. */
const lesson_step *lesson_get(int i);

/* --lesson --extended: step LESSON_STEPS + i is lesson_get_extra(i), NULL outside 0..EXTRA-1. */
const lesson_step *lesson_get_extra(int i);

#endif
