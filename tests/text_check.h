/* text_check.h — checks shared by the tests of the UI's string tables: the printf conversions
 * of a format, and the East-Asian-ambiguous code points that CJK terminals draw two columns
 * wide. */
#ifndef TF_TEST_TEXT_CHECK_H
#define TF_TEST_TEXT_CHECK_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The conversions of a printf format with their length modifiers, in order ("%5.2f %s %ld"
 * -> "fsld"): what the arguments must be. */
static inline void conversions(const char *s, char *out, size_t cap)
{
    size_t n = 0;
    for (const char *p = s; *p; p++) {
        if (*p != '%')
            continue;
        p++;
        if (*p == '%')
            continue;
        while (*p && strchr("0123456789.+- #*lzhjtL", *p)) {
            if (strchr("*lzhjtL", *p) && n + 1 < cap)
                out[n++] = *p;
            p++;
        }
        if (*p && n + 1 < cap)
            out[n++] = *p;
        if (!*p)
            break;
    }
    out[n] = '\0';
}

/* East Asian Width "A" code points likely in UI text (UAX #11): Latin-1 symbols such as the
 * middle dot and multiplication sign, Greek, curly quotes, dashes, ellipsis, arrows, math
 * operators, box drawing and block elements, geometric shapes. */
static inline int ambiguous(uint32_t cp)
{
    return cp == 0xB7 || cp == 0xD7 || cp == 0xF7 || cp == 0xB1 || cp == 0xB0 ||
           (cp >= 0x391 && cp <= 0x3C9) || (cp >= 0x2010 && cp <= 0x2027) ||
           (cp >= 0x2190 && cp <= 0x21FF) || (cp >= 0x2200 && cp <= 0x22FF) ||
           (cp >= 0x2500 && cp <= 0x25FF);
}

#endif
