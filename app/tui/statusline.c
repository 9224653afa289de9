/* statusline.c — the status line from whole fields, and the names of the exported figures. */
#include "tui/statusline.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "textwidth.h"

int tui_status_compose(char *out, size_t cap, int width, const char *sentence, size_t sentence_len,
                       const char *const *fields, const int *prio, int n, int min_sentence,
                       const char *ell)
{
    static const char sep[] = " | ";
    bool keep[TUI_STATUS_FIELDS];
    int fw[TUI_STATUS_FIELDS];
    if (n > TUI_STATUS_FIELDS)
        n = TUI_STATUS_FIELDS;
    if (!cap)
        return 0;
    out[0] = '\0';
    if (width <= 2)
        return 0;
    int used = 2; /* a space at each end */
    for (int i = 0; i < n; i++) {
        fw[i] = tw_width(fields[i], strlen(fields[i]));
        keep[i] = true;
        used += 3 + fw[i];
    }
    int sw = tw_width(sentence, sentence_len);
    int smin = sw < min_sentence ? sw : min_sentence;
    /* drop whole fields, least important first, until the sentence has its minimum room */
    while (used + smin > width) {
        int worst = -1;
        for (int i = 0; i < n; i++)
            if (keep[i] && (worst < 0 || prio[i] > prio[worst]))
                worst = i;
        if (worst < 0)
            break;
        keep[worst] = false;
        used -= 3 + fw[worst];
    }
    size_t o = 0;
    int cols = 0;
    out[o++] = ' ', cols++;
    int room = width - used;
    /* with no field left the sentence opens the line; with no room for it, the fields do */
    bool any = false;
    if (room > 0 && sw > 0) {
        cols += tw_cut(out + o, cap - o, sentence, sentence_len, room, ell);
        o += strlen(out + o);
        any = true;
    }
    for (int i = 0; i < n; i++) {
        if (!keep[i])
            continue;
        const char *pre = any ? sep : "";
        size_t need = strlen(pre) + strlen(fields[i]);
        if (o + need + 2 > cap || cols + (any ? 3 : 0) + fw[i] + 1 > width)
            continue; /* a field is written whole or not at all */
        memcpy(out + o, pre, strlen(pre));
        o += strlen(pre), cols += any ? 3 : 0;
        memcpy(out + o, fields[i], strlen(fields[i]));
        o += strlen(fields[i]), cols += fw[i];
        any = true;
    }
    if (cols < width && o + 1 < cap)
        out[o++] = ' ', cols++;
    out[o] = '\0';
    return cols;
}

int tui_cursor_fit(char *out, size_t cap, const char *cursor, int width)
{
    if (!cap)
        return 0;
    out[0] = '\0';
    size_t len = strlen(cursor);
    /* try the whole value, then without its last part, and so on */
    for (;;) {
        int w = tw_width(cursor, len);
        if (w <= width && len < cap) {
            memcpy(out, cursor, len);
            out[len] = '\0';
            return w;
        }
        size_t cut = 0;
        for (size_t i = 0; i + 1 < len; i++)
            if (cursor[i] == ' ' && cursor[i + 1] == ' ')
                cut = i;
        if (!cut)
            return 0;
        len = cut;
    }
}

bool tui_export_path(char *out, size_t cap, const char *dir, const char *name, const char *ext)
{
    for (int k = 1; k < 10000; k++) {
        char num[16] = "";
        if (k > 1)
            snprintf(num, sizeof num, "-%d", k);
        int r =
            snprintf(out, cap, "%s%stfviz-%s%s.%s", dir ? dir : "", dir ? "/" : "", name, num, ext);
        if (r < 0 || (size_t)r >= cap)
            return false;
        struct stat st;
        if (lstat(out, &st) != 0)
            return true;
    }
    return false;
}
