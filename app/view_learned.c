/* view_learned.c — view 8: reserved for the learned embedding (claim C5), which arrives with
 * training. Until then it says so, and what it will show. */
#include "tui.h"

static void draw(tui *t, WINDOW *w, int y, int x, int rows, int cols)
{
    (void)t;
    int bw = cols - 8 < 70 ? cols - 8 : 70;
    const char *s = txt(T_L_BODY);
    /* the body is written with explicit line breaks, each short enough for 60 columns */
    int line = 0;
    const char *p = s;
    while (*p && line < rows - 2) {
        const char *e = p;
        while (*e && *e != '\n')
            e++;
        char buf[256];
        size_t l = (size_t)(e - p) < sizeof buf - 1 ? (size_t)(e - p) : sizeof buf - 1;
        for (size_t i = 0; i < l; i++)
            buf[i] = p[i];
        buf[l] = '\0';
        term_attr(w, line == 0 ? A_BOLD : A_NORMAL, 0);
        term_text(w, y + 2 + line, x + 4, buf, bw);
        line++;
        p = *e ? e + 1 : e;
    }
    term_attr(w, A_NORMAL, 0);
}

const tui_view view_learned = {
    .figure = NULL, .tab = T_TAB_LEARNED, .caption = T_CAP_LEARNED, .keys = T_KEYS_LEARNED,
    .needs = 0, .draw = draw, .key = NULL, .click = NULL,
};
