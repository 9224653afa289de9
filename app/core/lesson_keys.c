/* lesson_keys.c — the lesson's keys, written once (lesson_keys.h). app/tui/lesson.c answers
 * them; this table says them, on the screen and in the docs. */
#include "core/lesson_keys.h"

#include <ctype.h>
#include <string.h>

static const lesson_key_row rows[] = {
    {T_LK_NEXT_KEYS, T_LK_NEXT, T_LK_NEXT_HELP},
    {T_LK_BACK_KEYS, T_LK_BACK, T_LK_BACK_HELP},
    {T_LK_LANG_KEYS, T_LK_LANG, T_LK_LANG_HELP},
    {T_LK_EDIT_KEYS, T_LK_EDIT, T_LK_EDIT_HELP},
    {T_LK_HELP_KEYS, T_LK_HELP, T_LK_HELP_HELP},
    {T_LK_QUIT_KEYS, T_LK_QUIT, T_LK_QUIT_HELP},
};

const lesson_key_row *lesson_keys(size_t *n)
{
    *n = sizeof rows / sizeof rows[0];
    return rows;
}

/* Appends s to buf[0..*o) within cap, always terminated. */
static void put(char *buf, size_t cap, size_t *o, const char *s)
{
    size_t l = strlen(s);
    if (*o + l >= cap)
        l = cap > *o + 1 ? cap - *o - 1 : 0;
    memcpy(buf + *o, s, l);
    *o += l;
    buf[*o] = '\0';
}

void lesson_keys_names(char *buf, size_t cap, const lesson_key_row *r, bool zh, const char *sep)
{
    const char *k = txt_lang(r->keys, zh);
    size_t o = 0;
    buf[0] = '\0';
    while (*k) {
        const char *bar = strchr(k, '|');
        size_t l = bar ? (size_t)(bar - k) : strlen(k);
        char one[64];
        if (l >= sizeof one)
            l = sizeof one - 1;
        memcpy(one, k, l);
        one[l] = '\0';
        if (o)
            put(buf, cap, &o, sep);
        put(buf, cap, &o, one);
        k += l + (bar ? 1 : 0);
    }
}

/* Every row as its keys (joined by key_sep), mid, and its text (the action or the help), rows
 * joined by between and each followed by after; returns the length written. */
static size_t join_rows(char *buf, size_t cap, bool zh, const char *key_sep, const char *mid,
                        bool help, const char *between, const char *after)
{
    size_t o = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        char names[128];
        lesson_keys_names(names, sizeof names, &rows[i], zh, key_sep);
        if (i)
            put(buf, cap, &o, between);
        put(buf, cap, &o, names);
        put(buf, cap, &o, mid);
        put(buf, cap, &o, txt_lang(help ? rows[i].help : rows[i].action, zh));
        put(buf, cap, &o, after);
    }
    return o;
}

void lesson_keys_line(char *buf, size_t cap, bool zh)
{
    join_rows(buf, cap, zh, "/", " ", false, "  ", "");
}

void lesson_keys_help(char *buf, size_t cap, bool zh)
{
    size_t o = join_rows(buf, cap, zh, " / ", "  ", true, "", "\n");
    put(buf, cap, &o, txt_lang(T_LK_NOTE, zh));
}

void lesson_keys_markdown(FILE *f)
{
    fputs("| key / 按键 | in the lesson / 课堂模式 |\n|---|---|\n", f);
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        char en[128], zh[128];
        lesson_keys_names(en, sizeof en, &rows[i], false, "`, `");
        lesson_keys_names(zh, sizeof zh, &rows[i], true, "`, `");
        fprintf(f, "| `%s`", en);
        if (strcmp(en, zh) != 0)
            fprintf(f, " / `%s`", zh);
        fprintf(f, " | %s / %s |\n", txt_lang(rows[i].help, false), txt_lang(rows[i].help, true));
    }
    fprintf(f, "\n%s\n%s\n", txt_lang(T_LK_NOTE, false), txt_lang(T_LK_NOTE, true));
}

void lesson_keys_man(FILE *f)
{
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        char names[128];
        lesson_keys_names(names, sizeof names, &rows[i], false, " \", \" ");
        const char *help = txt_lang(rows[i].help, false);
        fprintf(f, ".TP\n.%s %s\n%c%s.\n", strchr(names, '"') ? "BR" : "B", names,
                toupper((unsigned char)help[0]), help + 1);
    }
    fprintf(f, ".PP\n%s\n", txt_lang(T_LK_NOTE, false));
}
