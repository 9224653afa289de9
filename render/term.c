/* term.c — colour set-up, colour pairs and CJK-aware text for ncursesw. */
#include "term.h"

#include <langinfo.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "textwidth.h"

static term_caps caps;

bool term_locale_utf8(void)
{
    const char *cs = nl_langinfo(CODESET);
    return cs && (strcasecmp(cs, "UTF-8") == 0 || strcasecmp(cs, "utf8") == 0);
}

const term_caps *term_get_caps(void) { return &caps; }

const char *term_color_name(term_color_mode m)
{
    static const char *const names[] = {"mono", "8", "256", "24-bit"};
    return names[m];
}

/* ---------------------------------------------------------------------------------------------
 * Pair cache: (fg colour number, bg colour number) -> pair, open addressing. alloc_pair()
 * would find existing pairs too, but through a tree walk per cell; this keeps a heatmap redraw
 * to one hash probe per cell. */

#define PAIR_CACHE 16384 /* a power of two, larger than the pairs a screen uses */

typedef struct {
    int64_t key; /* 0: empty */
    int pair;
} pair_slot;

static pair_slot pair_cache[PAIR_CACHE];

void term_setup(term_caps *out, bool utf8, bool no_color)
{
    memset(pair_cache, 0, sizeof pair_cache);
    caps.utf8 = utf8;
    caps.color = TERM_COLOR_NONE;
    if (!no_color && has_colors() && start_color() != ERR) {
        use_default_colors();
        /* tigetflag returns -1 for "not a boolean capability", 0 for absent */
        if (tigetflag("RGB") > 0 && COLORS >= 0x1000000)
            caps.color = TERM_COLOR_TRUE;
        else if (COLORS >= 256)
            caps.color = TERM_COLOR_256;
        else if (COLORS >= 8)
            caps.color = TERM_COLOR_8;
    }
    if (out)
        *out = caps;
}

/* The nearest xterm-256 colour: the 6x6x6 cube (levels 0, 95, 135, ..., 255) or the grey ramp
 * 232-255 (8, 18, ..., 238), whichever is closer in RGB. */
static int nearest_256(tf_rgb c)
{
    static const int lv[6] = {0, 95, 135, 175, 215, 255};
    int idx[3], v[3] = {c.r, c.g, c.b};
    for (int k = 0; k < 3; k++) {
        int best = 0;
        for (int i = 1; i < 6; i++)
            if (abs(lv[i] - v[k]) < abs(lv[best] - v[k]))
                best = i;
        idx[k] = best;
    }
    int dc = 0, dg;
    for (int k = 0; k < 3; k++)
        dc += (lv[idx[k]] - v[k]) * (lv[idx[k]] - v[k]);
    int grey = (c.r + c.g + c.b) / 3, gi = (grey - 8 + 5) / 10;
    gi = gi < 0 ? 0 : gi > 23 ? 23 : gi;
    int gv = 8 + 10 * gi;
    dg = (gv - c.r) * (gv - c.r) + (gv - c.g) * (gv - c.g) + (gv - c.b) * (gv - c.b);
    return dg < dc ? 232 + gi : 16 + 36 * idx[0] + 6 * idx[1] + idx[2];
}

/* The nearest of the eight ANSI colours (by their usual xterm values). */
static int nearest_8(tf_rgb c)
{
    static const tf_rgb pal[8] = {{0, 0, 0},     {205, 0, 0},   {0, 205, 0},   {205, 205, 0},
                                  {0, 0, 238},   {205, 0, 205}, {0, 205, 205}, {229, 229, 229}};
    int best = 0, bd = 1 << 30;
    for (int i = 0; i < 8; i++) {
        int dr = pal[i].r - c.r, dg = pal[i].g - c.g, db = pal[i].b - c.b;
        int dd = dr * dr + dg * dg + db * db;
        if (dd < bd)
            bd = dd, best = i;
    }
    return best;
}

static int color_number(const tf_rgb *c)
{
    if (!c)
        return -1;
    switch (caps.color) {
    case TERM_COLOR_TRUE:
        return (c->r << 16) | (c->g << 8) | c->b;
    case TERM_COLOR_256:
        return nearest_256(*c);
    case TERM_COLOR_8:
        return nearest_8(*c);
    default:
        return -1;
    }
}

int term_pair(const tf_rgb *fg, const tf_rgb *bg)
{
    if (caps.color == TERM_COLOR_NONE)
        return 0;
    int f = color_number(fg), b = color_number(bg);
    if (f < 0 && b < 0)
        return 0;
    int64_t key = ((int64_t)(f + 2) << 32) | (int64_t)(b + 2);
    uint64_t h = (uint64_t)key * 0x9E3779B97F4A7C15ull;
    for (unsigned i = (unsigned)(h >> 50) & (PAIR_CACHE - 1);; i = (i + 1) & (PAIR_CACHE - 1)) {
        if (pair_cache[i].key == key)
            return pair_cache[i].pair;
        if (pair_cache[i].key == 0) {
            int p = alloc_pair(f, b);
            if (p < 0)
                return 0; /* out of pairs: default colours rather than wrong ones */
            pair_cache[i].key = key;
            pair_cache[i].pair = p;
            return p;
        }
    }
}

int term_value_pair(cmap_id m, double v, double lo, double hi)
{
    tf_rgb c = colormap_value(m, v, lo, hi);
    return term_pair(&c, NULL);
}

void term_attr(WINDOW *w, attr_t a, int pair)
{
    wattr_set(w, a, (short)(pair < 0x7fff ? pair : 0), &pair);
}

/* ---------------------------------------------------------------------------------------------
 * Text */

int term_text_width(const char *s) { return tw_width_shown(s, strlen(s), !caps.utf8); }

static term_cut_fn cut_hook;

void term_set_cut_hook(term_cut_fn fn) { cut_hook = fn; }

/* A shortened line (ending in "...") that left a bracket open ends before that bracket, so the
 * text shown never opens what it does not close. */
static void close_brackets(char *line)
{
    static const char *const open[] = {"(", "\xef\xbc\x88", "\xe3\x80\x8c", "["};
    static const char *const shut[] = {")", "\xef\xbc\x89", "\xe3\x80\x8d", "]"};
    size_t first = (size_t)-1;
    int depth = 0;
    for (size_t i = 0; line[i];) {
        size_t step = 1;
        for (int k = 0; k < 4; k++) {
            size_t lo = strlen(open[k]), ls = strlen(shut[k]);
            if (strncmp(line + i, open[k], lo) == 0) {
                if (depth++ == 0)
                    first = i;
                step = lo;
            } else if (strncmp(line + i, shut[k], ls) == 0) {
                depth = depth > 0 ? depth - 1 : 0;
                step = ls;
            }
        }
        i += step;
    }
    if (depth == 0 || first == (size_t)-1)
        return;
    while (first > 0 && line[first - 1] == ' ')
        first--;
    memcpy(line + first, "...", 4);
}

int term_text(WINDOW *w, int y, int x, const char *s, int maxw)
{
    wchar_t buf[512];
    int nb = 0, cols = 0;
    size_t len = strlen(s);
    /* the window's right edge stops the text as maxw does (curses would wrap it) */
    if (w && maxw > getmaxx(w) - x)
        maxw = getmaxx(w) - x;
    if (maxw < 0)
        maxw = 0;
    /* text too wide is shortened at a space or after a wide character and ends with "...", so
     * no word is cut in the middle unmarked; the hook hears of it */
    size_t shown = len;
    while (shown > 0 && s[shown - 1] == ' ')
        shown--;
    if (tw_width_shown(s, shown, !caps.utf8) > maxw) {
        bool hard = maxw < 4;
        if (cut_hook)
            cut_hook(s, hard);
        if (!hard) {
            char line[1024];
            size_t l = shown < sizeof line - 4 ? shown : sizeof line - 4;
            memcpy(line, s, l);
            line[l] = '\0';
            tw_ellipsize(line, maxw, !caps.utf8);
            close_brackets(line);
            return term_text(w, y, x, line, maxw);
        }
    }
    if (maxw <= 0)
        return 0;
    for (size_t i = 0; i < len && nb < 500;) {
        uint32_t cp;
        int cw;
        i += tw_next(s + i, len - i, !caps.utf8, &cp, &cw);
        if (tw_control(cp))
            cp = '?';
        if (cols + cw > maxw)
            break;
        if (!caps.utf8 && cp >= 0x80) {
            char tmp[12];
            snprintf(tmp, sizeof tmp, "U+%04X", (unsigned)cp);
            for (char *p = tmp; *p && nb < 510; p++)
                buf[nb++] = (wchar_t)*p;
        } else if (cw > 0) {
            buf[nb++] = (wchar_t)cp;
        }
        cols += cw;
    }
    buf[nb] = 0;
    if (caps.utf8)
        mvwaddnwstr(w, y, x, buf, nb);
    else {
        char nbuf[512];
        for (int k = 0; k <= nb; k++)
            nbuf[k] = (char)buf[k];
        mvwaddnstr(w, y, x, nbuf, nb);
    }
    return cols;
}

int term_wrap(WINDOW *w, int y, int x, int width, int maxlines, int spacing, const char *s)
{
    int lines = 0;
    size_t len = strlen(s), i = 0;
    while (i < len && lines < maxlines) {
        size_t next, l = tw_wrap_line(s + i, len - i, width, !caps.utf8, &next);
        char line[1024];
        if (l > sizeof line - 4)
            l = sizeof line - 4;
        memcpy(line, s + i, l);
        line[l] = '\0';
        if (lines == maxlines - 1 && i + next < len && width > 3) {
            if (w && cut_hook) /* the text goes on past its last line */
                cut_hook(s, false);
            tw_ellipsize(line, width, !caps.utf8);
            close_brackets(line);
        }
        if (w)
            term_text(w, y + lines * spacing, x, line, width);
        lines++;
        i += next;
    }
    return lines;
}

int term_printf(WINDOW *w, int y, int x, int maxw, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return term_text(w, y, x, buf, maxw);
}

static bool is_number(const char *s)
{
    return s && ((*s >= '0' && *s <= '9') || ((*s == '-' || *s == '+') && s[1] >= '0' &&
                                               s[1] <= '9'));
}

int term_table(WINDOW *w, int y, int x, const char *const *cells, int nrows, int ncols, int gap,
               bool header, int *widths)
{
    int wl[64] = {0}, total = 0;
    if (ncols > 64)
        ncols = 64;
    for (int r = 0; r < nrows; r++)
        for (int c = 0; c < ncols; c++) {
            const char *s = cells[r * ncols + c];
            int tw = s ? term_text_width(s) : 0;
            wl[c] = tw > wl[c] ? tw : wl[c];
        }
    for (int r = 0; r < nrows; r++) {
        int cx = x;
        term_attr(w, header && r == 0 ? A_BOLD : A_NORMAL, 0);
        for (int c = 0; c < ncols; c++) {
            const char *s = cells[r * ncols + c];
            if (s) {
                int tw = term_text_width(s);
                int pad = is_number(s) ? wl[c] - tw : 0;
                term_text(w, y + r, cx + pad, s, wl[c]);
            }
            cx += wl[c] + gap;
        }
    }
    term_attr(w, A_NORMAL, 0);
    for (int c = 0; c < ncols; c++) {
        total += wl[c] + (c ? gap : 0);
        if (widths)
            widths[c] = wl[c];
    }
    return total;
}
