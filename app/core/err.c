/* err.c — one sentence on standard error, or wherever err_redirect sends it. */
#include "core/err.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/emit.h"

static err_sink sink;

err_sink err_redirect(err_sink to)
{
    err_sink old = sink;
    sink = to;
    return old;
}

void err_say(const char *fmt, ...)
{
    char small[512], *msg = small;
    va_list ap;
    va_start(ap, fmt);
    /* NOLINTNEXTLINE(clang-analyzer-valist.Uninitialized): started above; clang 14 false alarm */
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n >= (int)sizeof small) {
        char *big = malloc((size_t)n + 1);
        if (big) {
            va_start(ap, fmt);
            vsnprintf(big, (size_t)n + 1, fmt, ap);
            va_end(ap);
            msg = big;
        } else {
            n = (int)strlen(small); /* out of memory: the message cut short */
        }
    }
    if (sink.fn) {
        sink.fn(msg, sink.ctx);
    } else {
        fputs("tfviz: ", stderr);
        emit_safe_text(stderr, msg, n < 0 ? 0 : (size_t)n);
        fputc('\n', stderr);
    }
    if (msg != small)
        free(msg);
}
