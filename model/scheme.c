/* scheme.c — position scheme names (scheme.h). */
#include "scheme.h"

#include <string.h>

static const char *const names[SCHEME_COUNT] = {
    [SCHEME_NONE] = "none", [SCHEME_SINUSOIDAL] = "sinusoidal", [SCHEME_LEARNED] = "learned",
    [SCHEME_ROPE] = "rope", [SCHEME_ALIBI] = "alibi",           [SCHEME_T5] = "t5",
};

const char *scheme_name(tf_scheme s)
{
    return (unsigned)s < SCHEME_COUNT ? names[s] : NULL;
}

static tf_scheme parse_n(const char *s, size_t n)
{
    static const struct {
        const char *alias;
        tf_scheme s;
    } aliases[] = {{"nope", SCHEME_NONE}, {"pe", SCHEME_SINUSOIDAL}, {"sin", SCHEME_SINUSOIDAL}};
    for (int i = 0; i < SCHEME_COUNT; i++)
        if (strlen(names[i]) == n && memcmp(names[i], s, n) == 0)
            return (tf_scheme)i;
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
        if (strlen(aliases[i].alias) == n && memcmp(aliases[i].alias, s, n) == 0)
            return aliases[i].s;
    return SCHEME_COUNT;
}

tf_scheme scheme_parse(const char *name)
{
    return name ? parse_n(name, strlen(name)) : SCHEME_COUNT;
}

bool scheme_parse_list(const char *list, tf_scheme *out, size_t cap, size_t *n, size_t *bad_at)
{
    *n = 0;
    *bad_at = 0;
    if (!list)
        return false;
    const char *p = list;
    for (;;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        tf_scheme s = parse_n(p, len);
        if (s == SCHEME_COUNT) {
            *bad_at = (size_t)(p - list);
            return false;
        }
        bool seen = false;
        for (size_t i = 0; i < *n; i++)
            seen = seen || out[i] == s;
        if (!seen && *n < cap)
            out[(*n)++] = s;
        if (!e)
            return true;
        p = e + 1;
    }
}

bool scheme_adds_to_input(tf_scheme s)
{
    return s == SCHEME_SINUSOIDAL || s == SCHEME_LEARNED;
}

const char *scheme_mask_name(scheme_mask m)
{
    static const char *const mask_names[SCHEME_MASK_COUNT] = {"causal", "symmetric"};
    return (unsigned)m < SCHEME_MASK_COUNT ? mask_names[m] : NULL;
}

scheme_mask scheme_mask_parse(const char *name)
{
    if (!name)
        return SCHEME_MASK_COUNT;
    for (int m = 0; m < SCHEME_MASK_COUNT; m++)
        if (strcmp(name, scheme_mask_name((scheme_mask)m)) == 0)
            return (scheme_mask)m;
    return strcmp(name, "bidirectional") == 0 ? SCHEME_MASK_SYMMETRIC : SCHEME_MASK_COUNT;
}
