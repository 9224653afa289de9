/* text_cache.c — the sizes of labels measured before (text_cache.h): a table per thread, one
 * entry per slot, the newer label taking a slot over. */
#include "text_cache.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define SLOTS 4096 /* a power of two: some 200 labels a page, many pages */

typedef struct {
    text_key k;
    double w, h;
    unsigned missing;
    bool used;
} slot;

static pthread_key_t table_key;
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

static void make_key(void) { (void)pthread_key_create(&table_key, free); }

/* The calling thread's table; NULL without memory (nothing is remembered then). */
static slot *table(bool make)
{
    pthread_once(&table_once, make_key);
    slot *t = pthread_getspecific(table_key);
    if (!t && make && (t = calloc(SLOTS, sizeof *t)) && pthread_setspecific(table_key, t) != 0) {
        free(t);
        t = NULL;
    }
    return t;
}

bool text_key_make(text_key *k, const char *family, int kind, double size, double scale,
                   bool plain, const char *text)
{
    size_t nf = strlen(family), nt = strlen(text), n = nf + 4 + nt;
    if (n >= sizeof k->s)
        return false;
    memcpy(k->s, family, nf);
    k->s[nf] = '\x1f';
    k->s[nf + 1] = (char)('A' + kind);
    k->s[nf + 2] = plain ? 'p' : 'm';
    k->s[nf + 3] = '\x1f';
    memcpy(k->s + nf + 4, text, nt + 1);
    k->size = size;
    k->scale = scale;
    unsigned long h = 14695981039346656037ul; /* FNV-1a */
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)k->s[i]) * 1099511628211ul;
    k->hash = h ^ (unsigned long)(size * 64) ^ ((unsigned long)(scale * 64) << 20);
    return true;
}

static bool same_key(const text_key *a, const text_key *b)
{
    return a->hash == b->hash && a->size == b->size && a->scale == b->scale &&
           strcmp(a->s, b->s) == 0;
}

bool text_cache_get(const text_key *k, double *w, double *h, unsigned *missing)
{
    slot *t = table(false);
    if (!t)
        return false;
    const slot *e = &t[k->hash & (SLOTS - 1)];
    if (!e->used || !same_key(&e->k, k))
        return false;
    *w = e->w, *h = e->h, *missing = e->missing;
    return true;
}

void text_cache_put(const text_key *k, double w, double h, unsigned missing)
{
    slot *t = table(true);
    if (t)
        t[k->hash & (SLOTS - 1)] = (slot){.k = *k, .w = w, .h = h, .missing = missing,
                                          .used = true};
}

void text_cache_clear(void)
{
    slot *t = table(false);
    if (t) {
        pthread_setspecific(table_key, NULL);
        free(t);
    }
}
