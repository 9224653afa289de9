/* lesson.h — the guided lesson (--lesson): twelve steps through the argument, one screen each,
 * drawn inside the explorer with the views' own drawing code. */
#ifndef TF_LESSON_H
#define TF_LESSON_H

#include <stdbool.h>
#include <stddef.h>

#include "tui/view.h"

#define LESSON_STEPS 12

typedef struct {
    /* what the step draws below its text: an explorer view, or NULL for the lesson's own
     * table of characters and their bytes */
    const tui_view *view;
    const char *title[2]; /* [0] Chinese, [1] English */
    const char *body[2];
    const char *try_[2];
    const char *keys[2];  /* the keys this step's visual answers to inside the lesson */
    bool pe_cell;         /* the PE cell under the view's cursor worked out above it */
    /* keys whose result the view also puts on the message line, which every layout keeps */
    const char *echo;
    /* the step's point in one short sentence: what --big shows large, alone, instead of the
     * text (at most 56 columns, so it fits one band line at 60 columns and more) */
    const char *point[2];
} lesson_step;

/* Step i (0-based), NULL outside 0..LESSON_STEPS-1. */
const lesson_step *lesson_get(int i);

/* --lesson --extended: steps beyond the article after the last one (the position schemes real
 * models use); step LESSON_STEPS + i is lesson_get_extra(i), NULL outside 0..EXTRA-1. */
#define LESSON_EXTRA_STEPS 1
const lesson_step *lesson_get_extra(int i);

/* The widest a step's point may be, in columns. */
#define LESSON_POINT_COLS 56

#endif
