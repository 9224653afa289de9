/* chrome.c — what frames the views: the tab bar, the caption, the hint or message line, the
 * status line and the help overlay; and the small helpers the views share. */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>

#include "textwidth.h"
#include "tui/statusline.h"
#include "tui/view.h"

/* ---------------------------------------------------------------------------------------------
 * Helpers shared with the views */

int tui_step_token(tui *t, int step)
{
    size_t T = t->a->tokens.n;
    t->tok = step < 0 ? (t->tok ? t->tok - 1 : T - 1) : (t->tok + 1) % T;
    return TUI_REDRAW;
}

const char *tui_token(const tui *t, size_t i, char *buf, size_t cap)
{
    const tf_token *k = &t->a->tokens.items[i];
    size_t l = k->end - k->start;
    if (l >= cap)
        l = cap - 1;
    memcpy(buf, t->a->text + k->start, l);
    buf[l] = '\0';
    return buf;
}

int tui_say(WINDOW *w, int y, int x, int maxw, txt_id id)
{
    return term_text(w, y, x, txt(id), maxw);
}

int tui_fit_f(WINDOW *w, int y, int x, int maxw, const char *fmt, const char *short_fmt, ...)
{
    char buf[512];
    va_list ap, again;
    va_start(ap, short_fmt);
    va_copy(again, ap);
    vsnprintf(buf, sizeof buf, fmt, ap);
    /* the short form takes the first of fmt's arguments: tests/test_strings.c checks its
     * conversions (TXT_SHORT_FORMS), the compiler the long form's at each call */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
    if (term_text_width(buf) > maxw)
        vsnprintf(buf, sizeof buf, short_fmt, again);
#pragma GCC diagnostic pop
    va_end(again);
    va_end(ap);
    return term_text(w, y, x, buf, maxw);
}

int tui_keys_line(WINDOW *w, int y, int x, int maxw, const char *const *lists, int n)
{
    int used = 0;
    for (int l = 0; l < n; l++) {
        const char *p = lists[l];
        while (*p) {
            const char *end = strstr(p, "  ");
            size_t len = end ? (size_t)(end - p) : strlen(p);
            char part[256];
            if (len >= sizeof part)
                len = sizeof part - 1;
            memcpy(part, p, len);
            part[len] = '\0';
            int gap = used ? 2 : 0, wd = term_text_width(part);
            if (used + gap + wd > maxw)
                return used; /* the keys that follow are less used: all of them go */
            if (len)
                used += gap + term_text(w, y, x + used + gap, part, wd);
            p += len;
            while (*p == ' ')
                p++;
        }
    }
    return used;
}

const char *tui_human(double v, char *buf, size_t cap)
{
    static const char *const unit[] = {"", " K", " M", " G", " T"};
    int u = 0;
    while (fabs(v) >= 1000.0 && u < 4)
        v /= 1000.0, u++;
    if (u == 0)
        snprintf(buf, cap, "%.0f", v);
    else
        snprintf(buf, cap, "%.1f%s", v, unit[u]);
    return buf;
}

/* ---------------------------------------------------------------------------------------------
 * The frame */

/* The tab bar's forms, widest first: "tfviz " and " 3 频率 " tabs; the tabs alone as "3 频率 ";
 * the same with the short names some tabs have. The first that fits the row is drawn. */
typedef enum { TABS_FULL, TABS_COMPACT, TABS_SHORT, TABS_NUMBERS, TABS_FORMS } tabs_form;

/* The view whose tab the last bar showed: in the narrowest form only it keeps its name, the
 * others show their key ("1 2 3 4 相对 5 ..."), so no name is ever cut. */
static int tabs_current;

/* The short name of a tab whose name is long, else its name. */
static const char *tab_name(int i, tabs_form f)
{
    txt_id id = tui_views[i]->tab;
    if (f == TABS_SHORT)
        id = id == T_TAB_REL       ? T_TABS_REL
             : id == T_TAB_LEARNED ? T_TABS_LEARNED
             : id == T_TAB_SCHEMES ? T_TABS_SCHEMES
             : id == T_TAB_TRAIN   ? T_TABS_TRAIN
                                   : id;
    return txt(id);
}

/* " 3 频率 " (or "3 频率 "): a tab's text. */
static void tab_label(int i, tabs_form f, char *buf, size_t cap)
{
    if (f == TABS_NUMBERS && i != tabs_current)
        snprintf(buf, cap, "%c ", tui_view_keys[i]);
    else
        snprintf(buf, cap, "%s%c %s ", f == TABS_FULL ? " " : "", tui_view_keys[i],
                 tab_name(i, f == TABS_NUMBERS ? TABS_SHORT : f));
}

static const char *tabs_brand(tabs_form f) { return f == TABS_FULL ? "tfviz " : ""; }

static tabs_form tabs_fit(void)
{
    for (tabs_form f = TABS_FULL; f < TABS_NUMBERS; f++) {
        int wd = term_text_width(tabs_brand(f));
        for (int i = 0; i < TUI_VIEWS; i++) {
            char buf[64];
            tab_label(i, f, buf, sizeof buf);
            wd += term_text_width(buf);
        }
        if (wd <= COLS)
            return f;
    }
    return TABS_NUMBERS;
}

int tui_tab_at(int x)
{
    tabs_form f = tabs_fit();
    int at = term_text_width(tabs_brand(f));
    for (int i = 0; i < TUI_VIEWS; i++) {
        char buf[64];
        tab_label(i, f, buf, sizeof buf);
        int wd = term_text_width(buf);
        if (x >= at && x < at + wd)
            return i;
        at += wd;
    }
    return -1;
}

static void draw_tabs(tui *t)
{
    int x = 0;
    move(0, 0);
    clrtoeol();
    term_attr(stdscr, A_BOLD, 0);
    tabs_current = t->view;
    tabs_form f = tabs_fit();
    x += term_text(stdscr, 0, x, tabs_brand(f), COLS - x);
    for (int i = 0; i < TUI_VIEWS && x < COLS; i++) {
        char buf[64];
        tab_label(i, f, buf, sizeof buf);
        term_attr(stdscr, i == t->view ? A_REVERSE | A_BOLD : A_NORMAL, 0);
        x += term_text(stdscr, 0, x, buf, COLS - x);
    }
    term_attr(stdscr, A_NORMAL, 0);
}

void tui_draw_status(tui *t)
{
    const tf_config *c = &t->cfg;
    /* whole fields only (a number is shown entirely or not at all); when the row is short the
     * least important fields go first: d_model, n and base are what the keys change */
    char tok[64], vs[32], dm[32], bs[48], np[32], pf[48];
    snprintf(tok, sizeof tok, "%s %s", txt(T_ST_TOKENIZER), tokenizer_name(c->tokenizer));
    snprintf(vs, sizeof vs, "V=%u", c->vocab_size);
    snprintf(dm, sizeof dm, "d_model=%d", c->d_model);
    snprintf(bs, sizeof bs, "base=%g", c->base);
    snprintf(np, sizeof np, "n=%ld", c->n_positions);
    snprintf(pf, sizeof pf, "%s %d", txt(T_ST_POSFROM), c->index_base);
    const char *const fields[] = {tok, vs, dm, bs, np, pf};
    static const int prio[] = {4, 3, 0, 2, 1, 5};
    move(LINES - 1, 0);
    clrtoeol();
    term_attr(stdscr, A_REVERSE, 0);
    for (int x = 0; x < COLS; x++)
        mvaddch(LINES - 1, x, ' ');
    /* the value under the cursor stays at the right, whole parts of it or none: all of it when
     * that leaves the sentence and d_model 24 columns (view 10's four accuracies at 80
     * columns), else the parts that leave them 32 (at least half the row), else those that
     * leave them 24 */
    char cur[sizeof t->cursor];
    int cw = 0;
    if (t->cursor[0]) {
        int most = COLS - 34 > COLS / 2 ? COLS - 34 : COLS / 2;
        if (term_text_width(t->cursor) <= COLS - 26)
            cw = tui_cursor_fit(cur, sizeof cur, t->cursor, COLS - 26);
        if (!cw)
            cw = tui_cursor_fit(cur, sizeof cur, t->cursor, most);
        if (!cw)
            cw = tui_cursor_fit(cur, sizeof cur, t->cursor, COLS - 26);
    }
    if (cw)
        cw += 2;
    /* one column spare: the ellipsis is two columns wide on terminals that draw East Asian
     * ambiguous characters wide */
    char line[1024];
    /* without UTF-8 the sentence is measured as it shows: U+XXXX for each character */
    const char *sent = t->text;
    size_t sent_len = t->text_len;
    char shown[512];
    if (!t->utf8) {
        size_t o = 0;
        for (size_t i = 0; i < t->text_len && o + 12 < sizeof shown;) {
            uint32_t cp;
            int cwd;
            size_t k = tw_next(t->text + i, t->text_len - i, true, &cp, &cwd);
            if (cp < 0x80)
                shown[o++] = tw_control(cp) ? '?' : (char)cp;
            else
                o += (size_t)snprintf(shown + o, sizeof shown - o, "U+%04X", (unsigned)cp);
            i += k;
        }
        shown[o] = '\0';
        sent = shown, sent_len = o;
    }
    tui_status_compose(line, sizeof line, COLS - cw - 1, sent, sent_len, fields, prio, 6, 12,
                       t->utf8 ? "\u2026" : "...");
    term_text(stdscr, LINES - 1, 0, line, COLS - cw);
    if (cw) {
        term_attr(stdscr, A_REVERSE | A_BOLD, 0);
        term_text(stdscr, LINES - 1, COLS - cw + 1, cur, cw - 1);
    }
    term_attr(stdscr, A_NORMAL, 0);
}

/* Make column x of row y begin a cell: a wide character that covers it from the left (its first
 * half in column x - 1) becomes two blanks, so a box edge drawn at x cuts no character. The row
 * is read from its first column, since only a walk from there knows where each character
 * starts. */
static void split_wide_at(int y, int x)
{
    for (int c = 0; c < x && c < COLS;) {
        cchar_t cc;
        wchar_t wch[CCHARW_MAX + 1] = {0};
        attr_t a;
        short pair;
        if (mvin_wch(y, c, &cc) == ERR || getcchar(&cc, wch, &a, &pair, NULL) == ERR)
            return;
        int w = wcwidth(wch[0]);
        w = w < 1 ? 1 : w;
        if (c + w > x) {
            for (int k = c; k < c + w && k < COLS; k++)
                mvaddch(y, k, ' ');
            return;
        }
        c += w;
    }
}

void tui_help_box(const char *title, int *x0, int *y0, int *w, int *h)
{
    *w = COLS - 8 < 76 ? COLS - 8 : 76, *h = LINES - 4;
    *x0 = (COLS - *w) / 2, *y0 = 2;
    int bottom = *y0 + *h - 1, right = *x0 + *w - 1;
    for (int y = *y0; y <= bottom; y++) {
        split_wide_at(y, *x0);
        split_wide_at(y, right + 1);
        move(y, *x0);
        for (int x = *x0; x <= right; x++)
            addch(y == *y0 || y == bottom ? '-' : (x == *x0 || x == right) ? '|' : ' ');
    }
    mvaddch(*y0, *x0, '+'), mvaddch(*y0, right, '+');
    mvaddch(bottom, *x0, '+'), mvaddch(bottom, right, '+');
    term_attr(stdscr, A_BOLD, 0);
    term_text(stdscr, *y0 + 1, *x0 + 2, title, *w - 4);
    term_attr(stdscr, A_NORMAL, 0);
}

const char *tui_claims(const tui_view *v)
{
    /* the claims of docs/math.md each view makes visible: for the teacher's ? and the docs,
     * never in the students' captions */
    static const struct {
        txt_id caption;
        const char *claims;
    } by_view[] = {
        {T_CAP_EMBED, "C1-C4, C12"}, {T_CAP_PE, "C7"},         {T_CAP_FREQ, "C8"},
        {T_CAP_REL, "C9, C10"},      {T_CAP_INPUT, "C11, C12"}, {T_CAP_ORDER, "C6"},
        {T_CAP_ROPE, "C13"},         {T_CAP_LEARNED, "C5"},     {T_CAP_TRAIN, "C6"},
    };
    for (size_t i = 0; v && i < sizeof by_view / sizeof *by_view; i++)
        if (by_view[i].caption == v->caption)
            return by_view[i].claims;
    return NULL;
}

static void draw_help(tui *t)
{
    if (t->lesson) { /* the lesson has keys of its own (lesson.c) */
        lesson_help(t);
        return;
    }
    const char *global = txt(T_HELP_GLOBAL), *own = txt(tui_views[t->view]->keys);
    int x0, y0, w, h;
    tui_help_box(txt(T_HELP_TITLE), &x0, &y0, &w, &h);
    int used = term_wrap(stdscr, y0 + 2, x0 + 2, w - 4, h - 6, 1, global);
    term_attr(stdscr, A_BOLD, 0);
    int hx = term_text(stdscr, y0 + 3 + used, x0 + 2, txt(tui_views[t->view]->tab), w - 4);
    term_attr(stdscr, A_NORMAL, 0);
    const char *claims = tui_claims(tui_views[t->view]);
    if (claims)
        term_printf(stdscr, y0 + 3 + used, x0 + 2 + hx, w - 4 - hx, "  (%s)", claims);
    term_wrap(stdscr, y0 + 4 + used, x0 + 2, w - 4, h - 7 - used, 1, own);
    term_text(stdscr, y0 + h - 2, x0 + 2, txt(T_HELP_CLOSE), w - 4);
}

/* ---------------------------------------------------------------------------------------------
 * Overlays leave nothing behind: the frame after one closes repaints every cell of the terminal
 * (ncurses otherwise sends only the cells it believes changed, and a cell the overlay left
 * half-covered by a wide character is one it is wrong about). */

static bool repaint_next, help_drawn;

void tui_repaint(void)
{
    repaint_next = true;
}

/* Called once a frame is drawn: a whole repaint when an overlay closed since the last one. */
static void frame_refresh(const tui *t)
{
    if (help_drawn && !t->help)
        repaint_next = true;
    help_drawn = t->help;
    if (repaint_next)
        clearok(curscr, TRUE);
    repaint_next = false;
    refresh();
}

/* The view's caption, whole: two lines, three where it needs them and the screen has 24 rows,
 * else its shorter form (every view's claim in two lines at 60 columns). */
static const char *caption(const tui_view *v)
{
    static const txt_id shorter[][2] = {
        {T_CAP_EMBED, T_CAP_EMBED_S},     {T_CAP_PE, T_CAP_PE_S},
        {T_CAP_FREQ, T_CAP_FREQ_S},       {T_CAP_REL, T_CAP_REL_S},
        {T_CAP_INPUT, T_CAP_INPUT_S},     {T_CAP_ORDER, T_CAP_ORDER_S},
        {T_CAP_ROPE, T_CAP_ROPE_S},       {T_CAP_LEARNED, T_CAP_LEARNED_S},
        {T_CAP_SCHEMES, T_CAP_SCHEMES_S}, {T_CAP_TRAIN, T_CAP_TRAIN_S}};
    int lines = term_wrap(NULL, 0, 0, COLS - 2, 64, 1, txt(v->caption));
    if (lines <= 2 || (lines == 3 && LINES >= 24))
        return txt(v->caption);
    for (size_t i = 0; i < sizeof shorter / sizeof *shorter; i++)
        if (shorter[i][0] == v->caption)
            return txt(shorter[i][1]);
    return txt(v->caption);
}

void tui_draw_frame(tui *t)
{
    erase();
    if (COLS < 60 || LINES < 20) {
        char buf[200];
        txt_fmt(buf, sizeof buf, T_TOO_SMALL, 60, 20, COLS, LINES);
        int y = LINES / 2;
        term_wrap(stdscr, y > 0 ? y - 1 : 0, 1, COLS - 2 > 1 ? COLS - 2 : 1, 3, 1, buf);
        frame_refresh(t);
        return;
    }
    if (t->lesson) {
        lesson_frame(t);
        if (t->help)
            draw_help(t);
        frame_refresh(t);
        return;
    }
    const tui_view *v = tui_views[t->view];
    draw_tabs(t);
    term_attr(stdscr, A_BOLD, 0);
    int cap_lines = term_wrap(stdscr, 1, 1, COLS - 2, 3, 1, caption(v));
    term_attr(stdscr, A_NORMAL, 0);
    t->cursor[0] = '\0';
    t->area_y = 1 + cap_lines + 1;
    t->area_x = 0;
    t->area_rows = LINES - 2 - t->area_y;
    t->area_cols = COLS;
    WINDOW *w = derwin(stdscr, t->area_rows, t->area_cols, t->area_y, t->area_x);
    if (w) {
        if (!tui_pictures_cover(t)) /* else the picture's cells stay blank for curses */
            v->draw(t, t->state[t->view], w, 0, 0, t->area_rows, t->area_cols);
        delwin(w);
    }
    move(LINES - 2, 0);
    clrtoeol();
    if (t->msg[0]) {
        term_attr(stdscr, A_BOLD, 0);
        term_text(stdscr, LINES - 2, 1, t->msg, COLS - 2);
        term_attr(stdscr, A_NORMAL, 0);
    } else {
        const char *lists[] = {txt(T_HINT), txt(v->keys)};
        tui_keys_line(stdscr, LINES - 2, 1, COLS - 2, lists, 2);
    }
    tui_draw_status(t);
    if (t->help)
        draw_help(t);
    frame_refresh(t);
}

