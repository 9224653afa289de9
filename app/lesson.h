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

typedef enum {
    LESSON_L_HEADER,
    LESSON_L_TRY,
    LESSON_L_KEYS,
    LESSON_L_END,
    LESSON_L_BYTES_HEAD,
    LESSON_L_BYTES_NOTE,
    LESSON_L_PE_CELL,
    LESSON_L_PE_TABLE,
    LESSON_L_HELP_TITLE, /* the ? overlay: the lesson's keys, then the step's own */
    LESSON_L_HELP,
    LESSON_L_HELP_STEP,
    LESSON_L_COUNT
} lesson_label_id;

/* A frame label in one language (formats take the same conversions in both). */
const char *lesson_label(lesson_label_id id, bool chinese);
/* snprintf with the label as the format. */
int lesson_fmt(char *buf, size_t cap, lesson_label_id id, bool chinese, ...);

#endif
