/* text_cache.h — the sizes of labels measured before, per thread: a page is laid out several
 * times (both languages, several heights and font sizes) and measures the same tick labels
 * again and again; pango would shape each anew. A size is known by everything pango's answer
 * depends on (text_key), so a remembered one is the size pango gives. Private to render/. */
#ifndef TF_TEXT_CACHE_H
#define TF_TEXT_CACHE_H

#include <stdbool.h>

/* What a label's size depends on: the font families and size, the page's kind and scale (glyph
 * positions are rounded to its device pixels), markup or plain, and the text. */
typedef struct {
    char s[192];  /* families, kind and text, '\x1f' between them */
    double size;  /* points */
    double scale; /* device pixels per point */
    unsigned long hash;
} text_key;

/* The key of a label; false when the label is too long to be remembered. */
bool text_key_make(text_key *k, const char *family, int kind, double size, double scale,
                   bool plain, const char *text);
/* The size remembered for k and the character no font has in it (0: none); false: none. */
bool text_cache_get(const text_key *k, double *w, double *h, unsigned *missing);
void text_cache_put(const text_key *k, double w, double h, unsigned missing);
/* Forget every size the calling thread remembers and free its table. */
void text_cache_clear(void);

#endif
