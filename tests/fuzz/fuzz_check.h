/* fuzz_check.h — what every fuzz target shares: a failed property aborts (libFuzzer and the
 * replay driver both report an abort as a crash), and a small strict JSON validator
 * (RFC 8259 grammar; strings must be valid UTF-8 without raw control characters). */
#ifndef TF_FUZZ_CHECK_H
#define TF_FUZZ_CHECK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "utf8.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_CHECK(cond, ...)                                                                   \
    do {                                                                                        \
        if (!(cond)) {                                                                          \
            fprintf(stderr, "%s:%d: property failed: %s: ", __FILE__, __LINE__, #cond);         \
            fprintf(stderr, __VA_ARGS__);                                                       \
            fputc('\n', stderr);                                                                \
            abort();                                                                            \
        }                                                                                       \
    } while (0)

/* ---------------------------------------------------------------------------------------------
 * JSON validation: json_valid(s, n) is 1 when s[0..n) is exactly one JSON value (with optional
 * surrounding whitespace). */

typedef struct {
    const char *s;
    size_t n, i;
    int depth;
} json_cursor;

#define JSON_MAX_DEPTH 64

static inline int json_value(json_cursor *c);

static inline void json_ws(json_cursor *c)
{
    while (c->i < c->n && (c->s[c->i] == ' ' || c->s[c->i] == '\t' || c->s[c->i] == '\n' ||
                           c->s[c->i] == '\r'))
        c->i++;
}

static inline int json_lit(json_cursor *c, const char *word)
{
    size_t l = strlen(word);
    if (c->n - c->i < l || memcmp(c->s + c->i, word, l) != 0)
        return 0;
    c->i += l;
    return 1;
}

static inline int json_is_digit(json_cursor *c) { return c->i < c->n && c->s[c->i] >= '0' && c->s[c->i] <= '9'; }

/* -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)? */
static inline int json_number(json_cursor *c)
{
    if (c->i < c->n && c->s[c->i] == '-')
        c->i++;
    if (!json_is_digit(c))
        return 0;
    if (c->s[c->i] == '0')
        c->i++;
    else
        while (json_is_digit(c))
            c->i++;
    if (c->i < c->n && c->s[c->i] == '.') {
        c->i++;
        if (!json_is_digit(c))
            return 0;
        while (json_is_digit(c))
            c->i++;
    }
    if (c->i < c->n && (c->s[c->i] == 'e' || c->s[c->i] == 'E')) {
        c->i++;
        if (c->i < c->n && (c->s[c->i] == '+' || c->s[c->i] == '-'))
            c->i++;
        if (!json_is_digit(c))
            return 0;
        while (json_is_digit(c))
            c->i++;
    }
    return 1;
}

static inline int json_string(json_cursor *c)
{
    if (c->i >= c->n || c->s[c->i] != '"')
        return 0;
    c->i++;
    while (c->i < c->n) {
        unsigned char ch = (unsigned char)c->s[c->i];
        if (ch == '"') {
            c->i++;
            return 1;
        }
        if (ch < 0x20)
            return 0;
        if (ch == '\\') {
            if (++c->i >= c->n)
                return 0;
            char e = c->s[c->i++];
            if (e == 'u') {
                for (int k = 0; k < 4; k++, c->i++)
                    if (c->i >= c->n || !strchr("0123456789abcdefABCDEF", c->s[c->i]) ||
                        c->s[c->i] == '\0')
                        return 0;
            } else if (!strchr("\"\\/bfnrt", e) || e == '\0') {
                return 0;
            }
            continue;
        }
        uint32_t cp;
        size_t k = utf8_decode(c->s + c->i, c->n - c->i, &cp);
        if (k == 0)
            return 0;
        c->i += k;
    }
    return 0;
}

static inline int json_container(json_cursor *c, char open, char close, int object)
{
    if (++c->depth > JSON_MAX_DEPTH)
        return 0;
    c->i++; /* open */
    (void)open;
    json_ws(c);
    if (c->i < c->n && c->s[c->i] == close) {
        c->i++;
        c->depth--;
        return 1;
    }
    for (;;) {
        json_ws(c);
        if (object) {
            if (!json_string(c))
                return 0;
            json_ws(c);
            if (c->i >= c->n || c->s[c->i] != ':')
                return 0;
            c->i++;
            json_ws(c);
        }
        if (!json_value(c))
            return 0;
        json_ws(c);
        if (c->i >= c->n)
            return 0;
        if (c->s[c->i] == ',') {
            c->i++;
            continue;
        }
        if (c->s[c->i] == close) {
            c->i++;
            c->depth--;
            return 1;
        }
        return 0;
    }
}

static inline int json_value(json_cursor *c)
{
    json_ws(c);
    if (c->i >= c->n)
        return 0;
    switch (c->s[c->i]) {
    case '{':
        return json_container(c, '{', '}', 1);
    case '[':
        return json_container(c, '[', ']', 0);
    case '"':
        return json_string(c);
    case 't':
        return json_lit(c, "true");
    case 'f':
        return json_lit(c, "false");
    case 'n':
        return json_lit(c, "null");
    default:
        return json_number(c);
    }
}

static inline int json_valid(const char *s, size_t n)
{
    json_cursor c = {s, n, 0, 0};
    if (!json_value(&c))
        return 0;
    json_ws(&c);
    return c.i == n;
}

/* No byte a terminal would act on: C0 controls (except '\n' when lines are allowed), DEL, and
 * the UTF-8 encodings of C1 controls (U+0080..U+009F), bidirectional overrides and isolates,
 * line and paragraph separators; and the whole text valid UTF-8. */
static inline int terminal_safe(const char *s, size_t n, int allow_newline)
{
    size_t i = 0;
    while (i < n) {
        uint32_t cp;
        size_t k = utf8_decode(s + i, n - i, &cp);
        if (k == 0)
            return 0;
        if ((cp < 0x20 && !(allow_newline && cp == '\n')) || cp == 0x7F ||
            (cp >= 0x80 && cp < 0xA0) || cp == 0x200E || cp == 0x200F ||
            (cp >= 0x2028 && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069))
            return 0;
        i += k;
    }
    return 1;
}

#endif
