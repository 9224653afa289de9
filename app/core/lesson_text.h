/* lesson_text.h — the guided lesson's words (--lesson): twelve steps through the argument and
 * one beyond it (--extended), each a title, a text, a "try this" line, its keys and its point,
 * in Chinese and English; and the class's sentence put into them. The lesson on the screen
 * (tui/lesson.c) and the lesson as slides (figures/deck.c) read the same table. */
#ifndef TF_LESSON_TEXT_H
#define TF_LESSON_TEXT_H

#include <stddef.h>

#include "analysis.h"

#define LESSON_STEPS 12
/* --lesson --extended: steps beyond the article after the last one (the position schemes real
 * models use) */
#define LESSON_EXTRA_STEPS 1

typedef struct {
    const char *title[2]; /* [0] Chinese, [1] English */
    const char *body[2];
    const char *try_[2];
    const char *keys[2];  /* the keys this step's visual answers to inside the lesson */
    /* the step's point in one short sentence: what --big shows large, alone, instead of the
     * text (at most 56 columns, so it fits one band line at 60 columns and more) */
    const char *point[2];
} lesson_words;

/* The words of step i (0-based; LESSON_STEPS + k is the k-th step beyond the article), NULL
 * outside 0 .. LESSON_STEPS + LESSON_EXTRA_STEPS - 1. */
const lesson_words *lesson_words_at(int i);

/* The widest a step's point may be, in columns. */
#define LESSON_POINT_COLS 56

/* tmpl with its placeholders ({c}, {A}, {B}, {B2}) filled from the class's sentence, analysed
 * in a, into out (cap bytes); typed_b: the order B the class typed (NULL: the words reversed).
 * Returns out. */
const char *lesson_fill(const tf_analysis *a, const char *typed_b, const char *tmpl, char *out,
                        size_t cap);

#endif
