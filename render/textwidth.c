/* textwidth.c — columns of UTF-8 text: East Asian width, cutting and line breaking. */
#include "textwidth.h"

#include <string.h>

#include "utf8.h"

bool tw_control(uint32_t cp)
{
    /* C0 and C1 controls and DEL, and the invisible characters that reorder or break lines
     * (bidirectional marks, overrides and isolates, line and paragraph separators): a word from
     * a file must not turn the rest of a screen line around */
    return cp < 0x20 || (cp >= 0x7F && cp < 0xA0) || cp == 0x200E || cp == 0x200F ||
           (cp >= 0x2028 && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
}

int tw_codepoint(uint32_t cp)
{
    if (tw_control(cp))
        return 1; /* shown as one '?' */
    if ((cp >= 0x0300 && cp <= 0x036F) || (cp >= 0x200B && cp <= 0x200F) ||
        (cp >= 0xFE00 && cp <= 0xFE0F))
        return 0; /* combining marks, zero-width spaces, variation selectors */
    if ((cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0x303E) ||
        (cp >= 0x3041 && cp <= 0x33FF) || (cp >= 0x3400 && cp <= 0x4DBF) ||
        (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0xA000 && cp <= 0xA4CF) ||
        (cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0xF900 && cp <= 0xFAFF) ||
        (cp >= 0xFE30 && cp <= 0xFE4F) || (cp >= 0xFF00 && cp <= 0xFF60) ||
        (cp >= 0xFFE0 && cp <= 0xFFE6) || (cp >= 0x1F300 && cp <= 0x1F64F) ||
        (cp >= 0x1F900 && cp <= 0x1F9FF) || (cp >= 0x20000 && cp <= 0x3FFFD))
        return 2;
    return 1;
}

int tw_char(uint32_t cp, bool ascii)
{
    if (ascii && cp >= 0x80 && !tw_control(cp))
        return cp > 0xFFFF ? 8 : 6; /* U+XXXXXX or U+XXXX */
    return tw_codepoint(cp);
}

size_t tw_next(const char *s, size_t len, bool ascii, uint32_t *cp, int *cols)
{
    size_t k = utf8_decode(s, len, cp);
    if (!k)
        k = 1, *cp = '?'; /* a byte that is not UTF-8 is shown as one '?' */
    *cols = tw_char(*cp, ascii);
    return k;
}

int tw_width_shown(const char *s, size_t len, bool ascii)
{
    int w = 0;
    for (size_t i = 0; i < len;) {
        uint32_t cp;
        int cw;
        i += tw_next(s + i, len - i, ascii, &cp, &cw);
        w += cw;
    }
    return w;
}

int tw_width(const char *s, size_t len) { return tw_width_shown(s, len, false); }

void tw_pad(FILE *fp, const char *s, size_t len, int width)
{
    fwrite(s, 1, len, fp);
    for (int w = tw_width(s, len); w < width; w++)
        fputc(' ', fp);
}

int tw_cut(char *out, size_t cap, const char *s, size_t len, int width, const char *ell)
{
    if (!cap)
        return 0;
    out[0] = '\0';
    if (width <= 0)
        return 0;
    int total = tw_width(s, len);
    if (total <= width && len < cap) {
        memcpy(out, s, len);
        out[len] = '\0';
        return total;
    }
    int ew = ell ? tw_width(ell, strlen(ell)) : 0;
    size_t el = ell ? strlen(ell) : 0;
    if (ew > width) /* not even the ellipsis fits */
        ew = 0, el = 0;
    int room = width - ew, cols = 0;
    size_t i = 0;
    while (i < len) {
        uint32_t cp;
        int cw;
        size_t k = tw_next(s + i, len - i, false, &cp, &cw);
        if (cols + cw > room || i + k + el + 1 > cap)
            break;
        cols += cw;
        i += k;
    }
    memcpy(out, s, i);
    memcpy(out + i, ell ? ell : "", el);
    out[i + el] = '\0';
    return cols + ew;
}

/* ---------------------------------------------------------------------------------------------
 * Line breaking */

/* Closing punctuation that must not begin a line (。，、；：！？）」』”). */
static bool closes(const char *s, size_t len)
{
    uint32_t cp;
    if (!utf8_decode(s, len, &cp))
        return false;
    static const uint32_t marks[] = {0x3002, 0xFF0C, 0x3001, 0xFF1B, 0xFF1A, 0xFF01, 0xFF1F,
                                     0xFF09, 0x300D, 0x300F, 0x201D};
    for (size_t k = 0; k < sizeof marks / sizeof *marks; k++)
        if (cp == marks[k])
            return true;
    return false;
}

size_t tw_wrap_line(const char *s, size_t len, int width, bool ascii, size_t *next)
{
    size_t j = 0, brk = 0, brk_prev = 0;
    int cols = 0, prev_cw = 0;
    bool pair = false; /* inside a pair such as 爱-喜欢, after its hyphen */
    while (j < len && s[j] != '\n') {
        uint32_t cp;
        int cw;
        size_t k = tw_next(s + j, len - j, ascii, &cp, &cw);
        if (cols + cw > width)
            break;
        cols += cw;
        j += k;
        if (cp == '-' && prev_cw == 2)
            pair = true;
        else if (cw != 2)
            pair = false;
        prev_cw = cw;
        /* a break may follow a space or a wide character, but never an opening bracket */
        bool opens = cp == 0xFF08 || cp == 0x300C || cp == 0x300E || cp == 0x201C;
        /* nor inside a pair such as 爱-喜欢: not before a hyphen, nor in the word after it */
        bool joined = j < len && s[j] == '-';
        if (pair && !joined && j < len) { /* the pair's second word goes on: 喜|欢 */
            uint32_t nx;
            int nw;
            tw_next(s + j, len - j, ascii, &nx, &nw);
            joined = nx >= 0x4E00 && nx <= 0x9FFF;
        }
        if ((cp == ' ' || cw == 2 || cp == 0x3002 || cp == 0xFF0C) && !opens && !joined)
            brk_prev = brk, brk = j;
    }
    /* a line never starts with closing punctuation: take the character before along */
    if (j < len && s[j] != '\n' && brk == j && brk_prev > 0 && closes(s + j, len - j))
        brk = brk_prev;
    if (j < len && s[j] != '\n' && brk > 0)
        j = brk;
    size_t rest = j;
    while (rest < len && (s[rest] == ' ' || s[rest] == '\n'))
        rest++;
    *next = rest;
    return j;
}

void tw_ellipsize(char *line, int width, bool ascii)
{
    size_t len = strlen(line), i = 0, brk = 0;
    int cols = 0;
    while (i < len) {
        uint32_t cp;
        int cw;
        size_t k = tw_next(line + i, len - i, ascii, &cp, &cw);
        if (cols + cw > width - 3)
            break;
        cols += cw;
        if (cp == ' ')
            brk = i;
        i += k;
        if (cw == 2)
            brk = i;
    }
    if (brk > 0 && i < len)
        i = brk;
    while (i > 0 && line[i - 1] == ' ')
        i--;
    memcpy(line + i, "...", 4);
}
