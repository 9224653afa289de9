/* utf8.h — strict UTF-8 decoding (RFC 3629: no overlongs, no surrogates, max U+10FFFF). */
#ifndef TF_UTF8_H
#define TF_UTF8_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "status.h"

/* Decode one code point at s[0..len). On success stores it in *cp and returns the number of
 * bytes used (1..4); on an invalid or truncated sequence returns 0. */
size_t utf8_decode(const char *s, size_t len, uint32_t *cp);

/* The code point at s[*i] into *cp, *i moved past it; false (and *i kept) on an invalid or
 * truncated sequence. For walking a buffer: while (i < len && utf8_next(s, len, &i, &cp)). */
static inline bool utf8_next(const char *s, size_t len, size_t *i, uint32_t *cp)
{
    size_t n = utf8_decode(s + *i, len - *i, cp);
    *i += n;
    return n != 0;
}

/* Check a whole buffer. On failure returns TF_ERR_UTF8 and stores the byte offset of the first
 * invalid byte in *bad_offset (if not NULL). */
tf_status utf8_validate(const char *s, size_t len, size_t *bad_offset);

/* Encode cp into out (at least 4 bytes); returns the byte count, 0 for an invalid cp. */
size_t utf8_encode(uint32_t cp, char *out);

/* Number of code points in a valid buffer. */
size_t utf8_count(const char *s, size_t len);

#endif
