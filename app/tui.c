/* tui.c — the explorer's event loop: keys -> actions -> reaction flags -> one redraw.
 *
 * Terminal hygiene: the terminal is restored by endwin() on every normal path (q, Esc, errors);
 * SIGINT, SIGTERM and SIGHUP only set a flag that the loop polls (getch times out every 100 ms);
 * a crash signal restores the saved termios and leaves the alternate screen with write(2),
 * which is safe inside a handler, then re-raises the signal. */
#include "tui.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>

#include "export.h"
#include "print.h"
#include "tf_limits.h"
#include "utf8.h"

static const tui_view *const views[TUI_VIEWS] = {
    &view_embed, &view_pe, &view_freq, &view_relative, &view_input, &view_order, &view_rope,
    &view_learned,
};

/* ---------------------------------------------------------------------------------------------
 * Signals */

static volatile sig_atomic_t got_signal;
static struct termios saved_tios;
static bool have_tios, curses_on;
static char reset_seq[256]; /* leave the alternate screen, show the cursor, stop mouse reports */
static size_t reset_len;

static void on_stop_signal(int sig) { got_signal = sig; }

static void on_crash_signal(int sig)
{
    if (have_tios)
        tcsetattr(STDIN_FILENO, TCSANOW, &saved_tios);
    if (reset_len) {
        ssize_t r = write(STDOUT_FILENO, reset_seq, reset_len);
        (void)r;
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

static void append_cap(const char *name)
{
    const char *s = tigetstr(name);
    /* (char *)-1 is tigetstr's documented "not a string capability" */
    if (s && s != (char *)-1 && reset_len + strlen(s) < sizeof reset_seq) { /* NOLINT */
        /* NOLINTNEXTLINE(bugprone-not-null-terminated-result): the static array stays 0-filled */
        memcpy(reset_seq + reset_len, s, strlen(s));
        reset_len += strlen(s);
    }
}

static void install_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    sa.sa_handler = on_stop_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    sa.sa_handler = on_crash_signal;
    sa.sa_flags = SA_RESETHAND;
    sigaction(SIGSEGV, &sa, NULL);
    sigaction(SIGBUS, &sa, NULL);
    sigaction(SIGFPE, &sa, NULL);
    sigaction(SIGABRT, &sa, NULL);
    append_cap("sgr0");
    append_cap("cnorm");
    append_cap("rmcup");
    const char mouse_off[] = "\033[?1000l\033[?1002l\033[?1006l";
    if (reset_len + sizeof mouse_off < sizeof reset_seq) {
        memcpy(reset_seq + reset_len, mouse_off, sizeof mouse_off - 1);
        reset_len += sizeof mouse_off - 1;
    }
}

static void restore_terminal(void)
{
    if (curses_on) {
        endwin();
        curses_on = false;
    }
}

/* ---------------------------------------------------------------------------------------------
 * Helpers shared with the views */

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

int tui_say(WINDOW *w, int y, int x, int maxw, txt_id id) { return term_text(w, y, x, txt(id), maxw); }

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
 * Analysis */

static int rerun(tui *t)
{
    tf_analysis fresh;
    tf_diag dg = {0};
    tf_status st = analysis_run(&t->cfg, t->text, t->text_len, &fresh, &dg);
    if (st != TF_OK) {
        snprintf(t->msg, sizeof t->msg, "%s: %s", txt(T_BAD_TEXT), tf_status_str(st));
        return -1;
    }
    analysis_free(t->a);
    *t->a = fresh;
    t->generation++;
    if (t->tok >= t->a->tokens.n)
        t->tok = t->a->tokens.n - 1;
    return 0;
}

/* ---------------------------------------------------------------------------------------------
 * Global actions (the key table) */

/* The help overlay describes these keys in T_HELP_GLOBAL; keep the two in step. */
typedef struct {
    int key;
    int (*act)(tui *t, int key);
} tui_key;

static int act_view(tui *t, int key)
{
    if (key >= '1' && key <= '8')
        t->view = key - '1';
    else if (key == '\t')
        t->view = (t->view + 1) % TUI_VIEWS;
    else
        t->view = (t->view + TUI_VIEWS - 1) % TUI_VIEWS;
    t->help = false;
    return TUI_REDRAW;
}

static int act_help(tui *t, int key)
{
    (void)key;
    t->help = !t->help;
    return TUI_REDRAW;
}

static int act_quit(tui *t, int key)
{
    if (t->help && key == 27) { /* Esc closes the overlay first */
        t->help = false;
        return TUI_REDRAW;
    }
    return TUI_QUIT;
}

static int act_lang(tui *t, int key)
{
    (void)key;
    if (!t->utf8) {
        snprintf(t->msg, sizeof t->msg, "%s", txt(T_ASCII_NOTICE));
        return TUI_REDRAW;
    }
    txt_set_zh(!txt_is_zh());
    snprintf(t->msg, sizeof t->msg, "%s", txt(T_LANG_NOW));
    return TUI_REDRAW;
}

static int act_dmodel(tui *t, int key)
{
    int d = t->cfg.d_model;
    d = (key == '-' || key == '_') ? d / 2 : d * 2;
    if (d < 4)
        d = 4;
    if (d > 4096)
        d = 4096;
    if (d % 2)
        d++;
    t->cfg.d_model = d;
    txt_fmt(t->msg, sizeof t->msg, T_DMODEL_NOW, d);
    return TUI_RERUN;
}

static const long position_steps[] = {8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 10000};
#define N_POSITION_STEPS (sizeof position_steps / sizeof *position_steps)

static int act_positions(tui *t, int key)
{
    long n = t->cfg.n_positions;
    size_t i = 0;
    while (i + 1 < N_POSITION_STEPS && position_steps[i] < n)
        i++;
    if (key == '[') {
        while (i > 0 && position_steps[i] >= n)
            i--;
    } else if (position_steps[i] <= n && i + 1 < N_POSITION_STEPS) {
        i++;
    }
    t->cfg.n_positions = position_steps[i];
    if (t->cfg.offset >= t->cfg.n_positions)
        t->cfg.offset = t->cfg.n_positions - 1;
    txt_fmt(t->msg, sizeof t->msg, T_POSITIONS_NOW, t->cfg.n_positions);
    return TUI_RERUN;
}

static int act_base(tui *t, int key)
{
    (void)key;
    t->cfg.base = t->cfg.base == 10000.0 ? 500000.0 : 10000.0;
    txt_fmt(t->msg, sizeof t->msg, T_BASE_NOW, t->cfg.base);
    return TUI_RERUN;
}

static int act_index(tui *t, int key)
{
    (void)key;
    t->cfg.index_base = !t->cfg.index_base;
    txt_fmt(t->msg, sizeof t->msg, T_INDEX_NOW, t->cfg.index_base);
    return TUI_RERUN;
}

static int act_export(tui *t, int key)
{
    (void)key;
    const tui_view *v = views[t->view];
    if (!v->figure) {
        snprintf(t->msg, sizeof t->msg, "%s", txt(T_NO_FIGURE));
        return TUI_REDRAW;
    }
    char path[64], msg[256] = "";
    snprintf(path, sizeof path, "tfviz-%s.png", v->figure);
    t->cli->cfg = t->cfg;
    int rc = export_figure(t->cli, t->a, v->figure, path, msg, sizeof msg);
    if (rc == 0)
        txt_fmt(t->msg, sizeof t->msg, T_EXPORTED, path);
    else
        snprintf(t->msg, sizeof t->msg, "e: %s", msg);
    return TUI_REDRAW;
}

static int edit_sentence(tui *t);
static int act_edit(tui *t, int key)
{
    (void)key;
    return edit_sentence(t);
}

static int act_resize(tui *t, int key)
{
    (void)t, (void)key;
    return TUI_REDRAW;
}

static const tui_key keytable[] = {
    {'1', act_view},      {'2', act_view},      {'3', act_view},     {'4', act_view},
    {'5', act_view},      {'6', act_view},      {'7', act_view},     {'8', act_view},
    {'\t', act_view},     {KEY_BTAB, act_view}, {'?', act_help},     {'q', act_quit},
    {27, act_quit},       {'/', act_edit},      {':', act_edit},     {'+', act_dmodel},
    {'=', act_dmodel},    {'-', act_dmodel},    {'[', act_positions}, {']', act_positions},
    {'b', act_base},      {'i', act_index},     {'l', act_lang},     {'e', act_export},
    {KEY_RESIZE, act_resize},
};

/* ---------------------------------------------------------------------------------------------
 * The sentence editor: wide characters from get_wch(), so input methods work */

static int edit_sentence(tui *t)
{
    wchar_t buf[512];
    size_t n = 0;
    /* start from the current sentence */
    for (size_t i = 0; i < t->text_len && n < 500;) {
        uint32_t cp;
        size_t k = utf8_decode(t->text + i, t->text_len - i, &cp);
        if (!k)
            break;
        buf[n++] = (wchar_t)cp;
        i += k;
    }
    curs_set(1);
    for (;;) {
        int y = LINES - 2;
        char line[2048];
        size_t o = 0;
        for (size_t i = 0; i < n && o + 4 < sizeof line; i++)
            o += utf8_encode((uint32_t)buf[i], line + o);
        line[o] = '\0';
        move(y, 0);
        clrtoeol();
        term_attr(stdscr, A_BOLD, 0);
        int px = term_text(stdscr, y, 0, txt(T_EDIT_PROMPT), COLS / 2);
        term_attr(stdscr, A_NORMAL, 0);
        /* show the end of a long sentence */
        int room = COLS - px - 1;
        const char *shown = line;
        while (term_text_width(shown) > room && *shown) {
            uint32_t cp;
            size_t k = utf8_decode(shown, strlen(shown), &cp);
            shown += k ? k : 1;
        }
        int cx = px + term_text(stdscr, y, px, shown, room);
        move(LINES - 1, 0);
        clrtoeol();
        term_attr(stdscr, A_REVERSE, 0);
        term_text(stdscr, LINES - 1, 0, txt(T_EDIT_HINT), COLS);
        term_attr(stdscr, A_NORMAL, 0);
        move(y, cx < COLS ? cx : COLS - 1);
        refresh();
        wint_t wc;
        int r = get_wch(&wc);
        if (got_signal) {
            curs_set(0);
            return TUI_QUIT;
        }
        if (r == ERR)
            continue;
        if (r == KEY_CODE_YES) {
            if (wc == KEY_BACKSPACE && n)
                n--;
            else if (wc == KEY_ENTER)
                goto commit;
            continue;
        }
        if (wc == 27) {
            curs_set(0);
            return TUI_REDRAW;
        }
        if (wc == '\n' || wc == '\r')
            goto commit;
        if ((wc == 127 || wc == 8) && n)
            n--;
        else if (wc == 21) /* Ctrl-U */
            n = 0;
        else if (wc >= 0x20 && wc != 127 && n < 500)
            buf[n++] = (wchar_t)wc;
    }
commit:
    curs_set(0);
    {
        char *s = malloc(4 * n + 1);
        if (!s)
            return TUI_REDRAW;
        size_t o = 0;
        for (size_t i = 0; i < n; i++)
            o += utf8_encode((uint32_t)buf[i], s + o);
        s[o] = '\0';
        char *old = t->text;
        size_t old_len = t->text_len;
        t->text = s, t->text_len = o;
        if (rerun(t) != 0) {
            free(s);
            t->text = old, t->text_len = old_len;
        } else {
            free(old);
            t->msg[0] = '\0';
        }
    }
    return TUI_REDRAW;
}

/* ---------------------------------------------------------------------------------------------
 * Frame */

static void draw_tabs(tui *t)
{
    int x = 0;
    move(0, 0);
    clrtoeol();
    term_attr(stdscr, A_BOLD, 0);
    x += term_text(stdscr, 0, x, "tfviz ", COLS - x);
    for (int i = 0; i < TUI_VIEWS && x < COLS; i++) {
        char buf[64];
        snprintf(buf, sizeof buf, " %d %s ", i + 1, txt(views[i]->tab));
        term_attr(stdscr, i == t->view ? A_REVERSE | A_BOLD : A_NORMAL, 0);
        x += term_text(stdscr, 0, x, buf, COLS - x);
    }
    term_attr(stdscr, A_NORMAL, 0);
}

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

/* The last line of a text that goes on: cut it to width - 3 columns, at a space or after a wide
 * character when there is one, and end it with "..." so the cut shows. */
static void ellipsize(char *line, int width)
{
    size_t len = strlen(line), i = 0, brk = 0;
    int cols = 0;
    while (i < len) {
        uint32_t cp;
        size_t k = utf8_decode(line + i, len - i, &cp);
        if (!k)
            k = 1, cp = '?';
        char tmp[8];
        memcpy(tmp, line + i, k);
        tmp[k] = '\0';
        int cw = term_text_width(tmp);
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

int tui_wrap(WINDOW *w, int y, int x, int width, int maxlines, int spacing, const char *s)
{
    int lines = 0;
    size_t len = strlen(s);
    size_t i = 0;
    while (i < len && lines < maxlines) {
        size_t j = i, brk = 0, brk_prev = 0;
        int cols = 0;
        while (j < len && s[j] != '\n') {
            uint32_t cp;
            size_t k = utf8_decode(s + j, len - j, &cp);
            if (!k)
                k = 1, cp = '?';
            char tmp[8];
            memcpy(tmp, s + j, k);
            tmp[k] = '\0';
            int cw = term_text_width(tmp);
            if (cols + cw > width)
                break;
            cols += cw;
            j += k;
            /* a break may follow a space or a wide character, but never an opening bracket */
            bool opens = cp == 0xFF08 || cp == 0x300C || cp == 0x300E || cp == 0x201C;
            /* nor inside a pair such as 爱-喜欢: not before a hyphen */
            bool joined = j < len && s[j] == '-';
            if ((cp == ' ' || cw == 2 || cp == 0x3002 || cp == 0xFF0C) && !opens && !joined)
                brk_prev = brk, brk = j;
        }
        /* a line never starts with closing punctuation: take the character before along */
        if (j < len && s[j] != '\n' && brk == j && brk_prev > i && closes(s + j, len - j))
            brk = brk_prev;
        if (j < len && s[j] != '\n' && brk > i)
            j = brk;
        char line[1024];
        size_t l = j - i < sizeof line - 4 ? j - i : sizeof line - 4;
        memcpy(line, s + i, l);
        line[l] = '\0';
        size_t rest = j;
        while (rest < len && (s[rest] == ' ' || s[rest] == '\n'))
            rest++;
        if (lines == maxlines - 1 && rest < len && width > 3)
            ellipsize(line, width);
        if (w)
            term_text(w, y + lines * spacing, x, line, width);
        lines++;
        i = j;
        while (i < len && (s[i] == ' ' || s[i] == '\n'))
            i++;
    }
    return lines;
}

/* Word-wrap with single spacing (the explorer's frame). */
static int wrap_text(WINDOW *w, int y, int x, int width, int maxlines, const char *s)
{
    return tui_wrap(w, y, x, width, maxlines, 1, s);
}

void tui_draw_status(tui *t)
{
    const tf_config *c = &t->cfg;
    char line[640], sentence[96];
    /* a long sentence is cut on the status line (at a character boundary by term_text) */
    snprintf(sentence, sizeof sentence, "%s", t->text);
    snprintf(line, sizeof line, " %s | %s %s | V=%u | d_model=%d | base=%g | n=%ld | %s %d ",
             sentence, txt(T_ST_TOKENIZER), tokenizer_name(c->tokenizer), c->vocab_size,
             c->d_model, c->base, c->n_positions, txt(T_ST_POSFROM), c->index_base);
    move(LINES - 1, 0);
    clrtoeol();
    term_attr(stdscr, A_REVERSE, 0);
    for (int x = 0; x < COLS; x++)
        mvaddch(LINES - 1, x, ' ');
    /* the value under the cursor is kept whole at the right; the configuration gives way */
    int cw = t->cursor[0] ? term_text_width(t->cursor) + 2 : 0;
    if (cw > COLS)
        cw = COLS;
    term_text(stdscr, LINES - 1, 0, line, COLS - cw);
    if (cw) {
        term_attr(stdscr, A_REVERSE | A_BOLD, 0);
        term_text(stdscr, LINES - 1, COLS - cw + 1, t->cursor, cw - 1);
    }
    term_attr(stdscr, A_NORMAL, 0);
}

static void draw_help(tui *t)
{
    if (t->lesson) { /* the lesson has keys of its own (lesson.c) */
        lesson_help(t);
        return;
    }
    const char *global = txt(T_HELP_GLOBAL), *own = txt(views[t->view]->keys);
    int w = COLS - 8 < 76 ? COLS - 8 : 76, h = LINES - 4;
    int x0 = (COLS - w) / 2, y0 = 2;
    for (int y = y0; y < y0 + h; y++) {
        move(y, x0);
        for (int x = 0; x < w; x++)
            addch(y == y0 || y == y0 + h - 1 ? '-' : (x == 0 || x == w - 1) ? '|' : ' ');
    }
    mvaddch(y0, x0, '+'), mvaddch(y0, x0 + w - 1, '+');
    mvaddch(y0 + h - 1, x0, '+'), mvaddch(y0 + h - 1, x0 + w - 1, '+');
    term_attr(stdscr, A_BOLD, 0);
    term_text(stdscr, y0 + 1, x0 + 2, txt(T_HELP_TITLE), w - 4);
    term_attr(stdscr, A_NORMAL, 0);
    int used = wrap_text(stdscr, y0 + 2, x0 + 2, w - 4, h - 6, global);
    term_attr(stdscr, A_BOLD, 0);
    term_text(stdscr, y0 + 3 + used, x0 + 2, txt(views[t->view]->tab), w - 4);
    term_attr(stdscr, A_NORMAL, 0);
    wrap_text(stdscr, y0 + 4 + used, x0 + 2, w - 4, h - 7 - used, own);
    term_text(stdscr, y0 + h - 2, x0 + 2, txt(T_HELP_CLOSE), w - 4);
}

static void draw_frame(tui *t)
{
    erase();
    if (COLS < 60 || LINES < 20) {
        char buf[200];
        txt_fmt(buf, sizeof buf, T_TOO_SMALL, 60, 20, COLS, LINES);
        int y = LINES / 2;
        wrap_text(stdscr, y > 0 ? y - 1 : 0, 1, COLS - 2 > 1 ? COLS - 2 : 1, 3, buf);
        refresh();
        return;
    }
    if (t->lesson) {
        lesson_frame(t);
        if (t->help)
            draw_help(t);
        refresh();
        return;
    }
    const tui_view *v = views[t->view];
    draw_tabs(t);
    term_attr(stdscr, A_BOLD, 0);
    int cap_lines = wrap_text(stdscr, 1, 1, COLS - 2, 2, txt(v->caption));
    term_attr(stdscr, A_NORMAL, 0);
    t->cursor[0] = '\0';
    t->area_y = 1 + cap_lines + 1;
    t->area_x = 0;
    t->area_rows = LINES - 2 - t->area_y;
    t->area_cols = COLS;
    WINDOW *w = derwin(stdscr, t->area_rows, t->area_cols, t->area_y, t->area_x);
    if (w) {
        v->draw(t, w, 0, 0, t->area_rows, t->area_cols);
        delwin(w);
    }
    move(LINES - 2, 0);
    clrtoeol();
    if (t->msg[0]) {
        term_attr(stdscr, A_BOLD, 0);
        term_text(stdscr, LINES - 2, 1, t->msg, COLS - 2);
        term_attr(stdscr, A_NORMAL, 0);
    } else {
        int x = 1 + term_text(stdscr, LINES - 2, 1, txt(T_HINT), COLS - 2);
        term_text(stdscr, LINES - 2, x + 2, txt(v->keys), COLS - x - 3);
    }
    tui_draw_status(t);
    if (t->help)
        draw_help(t);
    refresh();
}

/* ---------------------------------------------------------------------------------------------
 * The loop */

static void ensure_parts(tui *t)
{
    unsigned needs = views[t->view]->needs;
    if ((t->a->done & needs) == needs)
        return;
    move(LINES - 2, 0);
    clrtoeol();
    term_attr(stdscr, A_BOLD, 0);
    term_text(stdscr, LINES - 2, 1, txt(T_COMPUTING), COLS - 2);
    term_attr(stdscr, A_NORMAL, 0);
    refresh();
    tf_diag dg = {0};
    tf_status st = analysis_need(t->a, needs, &dg);
    if (st != TF_OK)
        snprintf(t->msg, sizeof t->msg, "%s", tf_status_str(st));
}

static int dispatch(tui *t, int ch)
{
    if (t->lesson && ch != KEY_MOUSE && !t->help) {
        int lr = lesson_key(t, ch);
        if (lr != TUI_IGNORED)
            return lr;
    }
    if (ch == KEY_MOUSE) {
        MEVENT ev;
        if (getmouse(&ev) != OK)
            return TUI_IGNORED;
        if (ev.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED | BUTTON1_RELEASED)) {
            if (ev.y == 0 && !t->lesson) { /* the tab bar: find the tab under the pointer */
                int x = 6;
                for (int i = 0; i < TUI_VIEWS; i++) {
                    char buf[64];
                    snprintf(buf, sizeof buf, " %d %s ", i + 1, txt(views[i]->tab));
                    int wd = term_text_width(buf);
                    if (ev.x >= x && ev.x < x + wd) {
                        t->view = i;
                        return TUI_REDRAW;
                    }
                    x += wd;
                }
                return TUI_IGNORED;
            }
            if (views[t->view]->click && ev.y >= t->area_y && ev.y < t->area_y + t->area_rows)
                return views[t->view]->click(t, ev.y - t->area_y, ev.x - t->area_x);
        }
        if ((ev.bstate & BUTTON4_PRESSED) && views[t->view]->key)
            return views[t->view]->key(t, KEY_UP);
        if ((ev.bstate & BUTTON5_PRESSED) && views[t->view]->key)
            return views[t->view]->key(t, KEY_DOWN);
        return TUI_IGNORED;
    }
    if (t->help && ch != '?' && ch != 'q' && ch != 27 && ch != KEY_RESIZE) {
        t->help = false;
        return TUI_REDRAW;
    }
    int r = views[t->view]->key ? views[t->view]->key(t, ch) : TUI_IGNORED;
    if (r != TUI_IGNORED)
        return r;
    for (size_t i = 0; i < sizeof keytable / sizeof *keytable; i++)
        if (keytable[i].key == ch)
            return keytable[i].act(t, ch);
    return TUI_IGNORED;
}

bool tui_wanted(void)
{
    if (!isatty(STDOUT_FILENO) || !isatty(STDIN_FILENO))
        return false;
    const char *term = getenv("TERM");
    if (!term || !*term || strcmp(term, "dumb") == 0) {
        fprintf(stderr, "tfviz: TERM is %s: printing the text report (set TERM=xterm-256color "
                        "for the interactive view).\n", term && *term ? "dumb" : "not set");
        return false;
    }
    return true;
}

int tui_run(tf_cli *cli, tf_analysis *a)
{
    tui t;
    memset(&t, 0, sizeof t);
    t.cli = cli;
    t.cfg = cli->cfg;
    t.a = a;
    t.text = malloc(cli->text_len + 1);
    if (!t.text)
        return 2;
    memcpy(t.text, cli->text, cli->text_len + 1);
    t.text_len = cli->text_len;
    t.onehot_diff = -1.0;
    t.pe_pos = 3, t.pe_dim = 10, t.pe_zr = 1, t.pe_zc = 1;
    t.fq_pair = cli->cfg.d_model / 16;
    t.fq_pos = 5;
    t.rel_pos = 3;
    t.order_mode = 0;
    t.lesson = cli->lesson;
    t.big = cli->big;
    if (t.lesson)
        lesson_enter(&t, 0);

    setlocale(LC_ALL, "");
    t.utf8 = term_locale_utf8();
    txt_set_zh(t.utf8 && strcmp(cli->lang, "en") != 0);
    if (!t.utf8)
        snprintf(t.msg, sizeof t.msg, "%s", txt(T_ASCII_NOTICE));

    if (tcgetattr(STDIN_FILENO, &saved_tios) == 0)
        have_tios = true;
    if (!newterm(NULL, stdout, stdin)) {
        cli_error("cannot start the interactive view on this terminal (TERM=%s); printing the "
                  "text report instead.", getenv("TERM"));
        print_report(a, stdout);
        free(t.text);
        return 0;
    }
    curses_on = true;
    atexit(restore_terminal);
    install_signals();
    const char *nc = getenv("NO_COLOR");
    term_setup(NULL, t.utf8, cli->no_color || (nc && *nc));
    cbreak();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    curs_set(0);
    set_escdelay(25);
    mousemask(BUTTON1_PRESSED | BUTTON1_CLICKED | BUTTON4_PRESSED | BUTTON5_PRESSED, NULL);
    mouseinterval(0);

    int flags = TUI_REDRAW;
    while (!(flags & TUI_QUIT)) {
        if (flags & TUI_RERUN)
            rerun(&t);
        if (flags & (TUI_REDRAW | TUI_RERUN)) {
            if (COLS >= 60 && LINES >= 20)
                ensure_parts(&t);
            draw_frame(&t);
        }
        const tui_view *cv = views[t.view];
        timeout(cv->tick ? 40 : t.animate && t.view == 2 ? 120 : 100);
        wint_t wc;
        int r = get_wch(&wc);
        if (got_signal)
            break;
        if (r == ERR) {
            flags = TUI_IGNORED;
            if (t.animate && t.view == 2) {
                t.fq_pos++;
                flags = TUI_REDRAW;
            }
            if (cv->tick && !t.help && COLS >= 60 && LINES >= 20)
                flags = cv->tick(&t);
            continue;
        }
        int ch = (int)wc;
        if (r == OK && wc > 255)
            ch = 0; /* a character no key is bound to (KEY_* codes start at 257) */
        bool keep_msg = (r == KEY_CODE_YES && (ch == KEY_RESIZE || ch == KEY_MOUSE));
        if (!keep_msg)
            t.msg[0] = '\0';
        flags = dispatch(&t, ch);
        if (flags == TUI_IGNORED)
            flags = keep_msg ? TUI_REDRAW : TUI_IGNORED;
    }
    restore_terminal();
    free(t.gram);
    free(t.text);
    /* the trained vectors live in view 8's state: the caller keeps its own (--vectors) */
    t.cfg.vectors = cli->cfg.vectors;
    view_learned_free(&t);
    cli->cfg = t.cfg;
    return got_signal ? 128 + got_signal : 0;
}
