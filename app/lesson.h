/* lesson.h — the guided lesson (--lesson): eleven steps through the argument, one screen each,
 * drawn inside the explorer with the views' own drawing code. */
#ifndef TF_LESSON_H
#define TF_LESSON_H

#include <stdbool.h>
#include <stddef.h>

#define LESSON_STEPS 11

/* What a step draws below its text: a view number 1..8 (the explorer's view), or a visual
 * only the lesson has. */
enum { LESSON_VIS_BYTES = 0 };

typedef struct {
    int visual;           /* 1..8: that view; LESSON_VIS_BYTES: characters and their bytes */
    const char *title[2]; /* [0] Chinese, [1] English */
    const char *body[2];
    const char *try_[2];
    const char *keys[2];  /* the keys this step's visual answers to inside the lesson */
} lesson_step;

/* Step i (0-based), NULL outside 0..LESSON_STEPS-1. */
const lesson_step *lesson_get(int i);

#endif
