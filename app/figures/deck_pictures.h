/* deck_pictures.h — the slides' pictures that no figure of the table draws (deck_pictures.c).
 * Private to figures/. */
#ifndef TF_FIGURES_DECK_PICTURES_H
#define TF_FIGURES_DECK_PICTURES_H

#include "figures/draw.h"

/* Step 1: the sentence's characters, code points and UTF-8 bytes. */
tf_status draw_deck_bytes(fig_ctx *c);
/* Step 2: the tokens and their ids. */
tf_status draw_deck_ids(fig_ctx *c);
/* Step 3: each token's one-hot row across the vocabulary. */
tf_status draw_deck_onehot(fig_ctx *c);

#endif
