/* deck.h — the lesson as slides (--lesson --export deck.pdf, or deck/): one 16:9 slide per
 * step of the lesson (core/lesson_text.h), its title, its point in large type, the step's
 * picture drawn by the figure that shows it (the table of export.c) and its "try this" line. */
#ifndef TF_FIGURES_DECK_H
#define TF_FIGURES_DECK_H

#include <stdbool.h>

#include "analysis.h"
#include "core/figreq.h"

/* The slide: 13.33 in x 7.5 in (960 x 540 pt), and 1920 x 1080 pixels in a folder of PNGs. */
#define DECK_WIDTH_PT 960.0
#define DECK_HEIGHT_PT 540.0
#define DECK_DPI 144.0

/* NULL when req can be a deck (its path a .pdf file or a folder DIR/, no option that chooses
 * one figure's page), else a sentence. */
const char *figures_deck_check(const fig_request *req);

/* Write the deck of analysis a to req->path: the article's steps, and with extended the steps
 * beyond it. req->order is the order model trained as the lesson trains it (step 7); the word
 * vectors of step 5 are trained here, as the lesson's view trains them (the built-in corpus,
 * the default settings). Returns 0, or the exit status after saying what was wrong. */
int figures_deck(const fig_request *req, tf_analysis *a, bool extended);

#endif
