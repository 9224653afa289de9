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
#include "textwidth.h"
#include "tf_limits.h"
#include "tui_status.h"
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
        /* the analysis shown stays, and so does the configuration it was made with: the
         * status line and the views never disagree */
        t->cfg = t->cfg_shown;
        tui_msg_fmt(t->msg, sizeof t->msg, TM_BAD_TEXT, txt(T_BAD_TEXT),
                 tui_status_str(st, txt_is_zh()));
        return -1;
    }
    analysis_free(t->a);
    *t->a = fresh;
    t->cfg_shown = t->cfg;
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
    /* Rows of W_E loaded (--vectors) or trained (view 8) fix d_model to their dimension, so a
     * new d_model means leaving them: W_E becomes random again, and the message says how to get
     * the trained rows back. */
    const tf_vectors *vec = t->cfg.vectors;
    int d = t->cfg.d_model;
    d = (key == '-' || key == '_') ? d / 2 : d * 2;
    if (d < 4)
        d = 4;
    if (d > 4096)
        d = 4096;
    if (d % 2)
        d++;
    t->cfg.d_model = d;
    if (vec) {
        t->cfg.vectors = NULL;
        bool trained = vec != t->cli->cfg.vectors;
        tui_msg_fmt(t->msg, sizeof t->msg, trained ? TM_VECTORS_DROPPED : TM_FILE_DROPPED, d,
                 (int)vec->dim);
    } else {
        txt_fmt(t->msg, sizeof t->msg, T_DMODEL_NOW, d);
    }
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
    /* the figure speaks the interface's language and shows what the views show */
    tf_cli c = *t->cli;
    c.cfg = t->cfg;
    c.lang = txt_is_zh() ? "zh" : "en";
    tf_vectors live;
    if (v == &view_learned) { /* the map of the vectors view 8 trains */
        if (!view_learned_vectors(t, &live)) {
            snprintf(t->msg, sizeof t->msg, "%s", tui_msg(TM_MAP_UNTRAINED, txt_is_zh()));
            return TUI_REDRAW;
        }
        c.cfg.vectors = &live;
    }
    /* a new file each time: tfviz-order.png, tfviz-order-2.png, ... */
    char path[96], msg[256] = "";
    if (!tui_export_path(path, sizeof path, NULL, v->figure, "png")) {
        snprintf(t->msg, sizeof t->msg, "e: %s", tui_status_str(TF_ERR_IO, txt_is_zh()));
        return TUI_REDRAW;
    }
    int rc = export_figure(&c, t->a, v->figure, path, msg, sizeof msg);
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

/* The widest tail of buf[0..n) that fits in room columns: its first index. */
static size_t tail_start(const wchar_t *buf, size_t n, int room)
{
    int cols = 0;
    size_t s = n;
    while (s > 0) {
        uint32_t cp = (uint32_t)buf[s - 1];
        int cw = cp < 0x20 || cp == 0x7f ? 1 : tw_codepoint(cp);
        if (cols + cw > room)
            break;
        cols += cw;
        s--;
    }
    return s;
}

/* The line editor on the row above the status line, starting from init: the text typed
 * (malloc'd, *out_len bytes) on Enter, NULL on Esc or a stop signal (*quit set). *cut says a
 * paste went past the documented text limit (TF_MAX_TEXT_BYTES, in UTF-8 bytes; the rest was
 * refused and the hint line said so). */
static char *edit_line(const char *prompt, const char *hint, const char *init, size_t init_len,
                       size_t *out_len, bool *cut, bool *quit)
{
    wchar_t *buf = malloc((TF_MAX_TEXT_BYTES + 1) * sizeof *buf);
    *cut = *quit = false;
    if (!buf)
        return NULL;
    size_t n = 0, bytes = 0;
    char enc[8];
    for (size_t i = 0; i < init_len;) {
        uint32_t cp;
        size_t k = utf8_decode(init + i, init_len - i, &cp);
        if (!k || bytes + k > TF_MAX_TEXT_BYTES)
            break;
        buf[n++] = (wchar_t)cp;
        bytes += k;
        i += k;
    }
    curs_set(1);
    for (;;) {
        int y = LINES - 2;
        move(y, 0);
        clrtoeol();
        term_attr(stdscr, A_BOLD, 0);
        int px = term_text(stdscr, y, 0, prompt, COLS / 2);
        term_attr(stdscr, A_NORMAL, 0);
        /* show the end of a long sentence: only the characters that fit are encoded */
        int room = COLS - px - 1;
        if (room > 1000)
            room = 1000;
        char line[4 * 1000 + 8];
        size_t o = 0;
        for (size_t i = tail_start(buf, n, room > 0 ? room : 0); i < n; i++)
            o += utf8_encode((uint32_t)buf[i], line + o);
        line[o] = '\0';
        int cx = px + term_text(stdscr, y, px, line, room);
        move(LINES - 1, 0);
        clrtoeol();
        term_attr(stdscr, A_REVERSE, 0);
        if (*cut) {
            char note[200];
            tui_msg_fmt(note, sizeof note, TM_TEXT_CUT, TF_MAX_TEXT_BYTES);
            term_text(stdscr, LINES - 1, 0, note, COLS);
        } else {
            term_text(stdscr, LINES - 1, 0, hint, COLS);
        }
        term_attr(stdscr, A_NORMAL, 0);
        move(y, cx < COLS ? cx : COLS - 1);
        refresh();
        wint_t wc;
        int r = get_wch(&wc);
        if (got_signal) {
            *quit = true;
            break;
        }
        if (r == ERR)
            continue;
        if (r == KEY_CODE_YES) {
            if (wc == KEY_BACKSPACE && n)
                bytes -= utf8_encode((uint32_t)buf[--n], enc), *cut = false;
            else if (wc == KEY_ENTER)
                goto commit;
            continue;
        }
        if (wc == 27)
            break;
        if (wc == '\n' || wc == '\r')
            goto commit;
        if ((wc == 127 || wc == 8) && n) {
            bytes -= utf8_encode((uint32_t)buf[--n], enc), *cut = false;
        } else if (wc == 21) { /* Ctrl-U */
            n = bytes = 0, *cut = false;
        } else if (wc >= 0x20 && wc != 127) {
            size_t k = utf8_encode((uint32_t)wc, enc);
            if (bytes + k <= TF_MAX_TEXT_BYTES)
                buf[n++] = (wchar_t)wc, bytes += k;
            else
                *cut = true;
        }
    }
    curs_set(0);
    free(buf);
    return NULL;
commit:
    curs_set(0);
    char *s = malloc(bytes + 1);
    if (s) {
        size_t o = 0;
        for (size_t i = 0; i < n; i++)
            o += utf8_encode((uint32_t)buf[i], s + o);
        s[o] = '\0';
        *out_len = o;
    }
    free(buf);
    return s;
}

/* Forget the order B typed in view 6 (or given by --compare): it spelled the old sentence. */
static void drop_compare(tui *t)
{
    if (t->cfg.compare == t->compare) {
        free(t->compare);
        t->compare = NULL;
    }
    t->cfg.compare = NULL;
    t->cfg.compare_len = 0;
}

static int edit_sentence(tui *t)
{
    size_t len = 0;
    bool cut, quit;
    char *s = edit_line(txt(T_EDIT_PROMPT), txt(T_EDIT_HINT), t->text, t->text_len, &len, &cut,
                        &quit);
    if (quit)
        return TUI_QUIT;
    if (!s)
        return TUI_REDRAW;
    char *old = t->text;
    size_t old_len = t->text_len;
    t->text = s, t->text_len = len;
    /* an order B of the old sentence would not match the new one: back to the words reversed */
    const char *cmp = t->cfg.compare;
    size_t cmp_len = t->cfg.compare_len;
    t->cfg.compare = NULL, t->cfg.compare_len = 0;
    if (rerun(t) != 0) {
        free(s);
        t->text = old, t->text_len = old_len;
        t->cfg.compare = cmp, t->cfg.compare_len = cmp_len;
        return TUI_REDRAW;
    }
    free(old);
    t->msg[0] = '\0';
    if (cmp) {
        t->cfg.compare = cmp; /* so that drop_compare frees the typed text */
        drop_compare(t);
        snprintf(t->msg, sizeof t->msg, "%s", txt(T_O_B_RESET));
    }
    if (cut) /* the rest of a long paste was refused: say so once more */
        tui_msg_fmt(t->msg, sizeof t->msg, TM_TEXT_CUT, TF_MAX_TEXT_BYTES);
    return TUI_REDRAW;
}

int tui_edit_compare(tui *t)
{
    size_t len = 0;
    bool cut, quit;
    const tf_analysis *a = t->a;
    /* start from order B as it is now (the words reversed unless one was typed) */
    const char *init = a->cmp_text ? a->cmp_text : "";
    char *s = edit_line(txt(T_O_EDIT_PROMPT), txt(T_O_EDIT_HINT), init,
                        a->cmp_text ? a->cmp_len : 0, &len, &cut, &quit);
    if (quit)
        return TUI_QUIT;
    if (!s)
        return TUI_REDRAW;
    size_t k = 0;
    while (k < len && s[k] == ' ')
        k++;
    /* run the experiment with the new order B before it replaces the one on screen: a B with
     * other tokens is refused with the reason, and the old B stays */
    tf_config c = t->cfg;
    c.compare = k < len ? s : NULL;
    c.compare_len = k < len ? len : 0;
    tf_analysis fresh;
    tf_diag dg = {0};
    tf_status st = analysis_run(&c, t->text, t->text_len, &fresh, &dg);
    if (st == TF_OK) {
        st = analysis_need(&fresh, ANALYSIS_ORDER, &dg);
        if (st != TF_OK)
            analysis_free(&fresh);
    }
    if (st != TF_OK) {
        if (st == TF_ERR_PERMUTATION)
            snprintf(t->msg, sizeof t->msg, "%s", txt(T_O_B_BAD));
        else
            snprintf(t->msg, sizeof t->msg, "%s", tui_status_str(st, txt_is_zh()));
        free(s);
        return TUI_REDRAW;
    }
    drop_compare(t);
    if (c.compare) {
        t->compare = s;
    } else {
        free(s);
    }
    t->cfg.compare = t->compare;
    t->cfg.compare_len = t->compare ? len : 0;
    analysis_free(t->a);
    *t->a = fresh;
    t->cfg_shown = t->cfg;
    t->generation++;
    if (t->compare)
        txt_fmt(t->msg, sizeof t->msg, T_O_B, t->a->cmp_text);
    else
        snprintf(t->msg, sizeof t->msg, "%s", txt(T_O_B_DEFAULT));
    if (cut)
        tui_msg_fmt(t->msg, sizeof t->msg, TM_TEXT_CUT, TF_MAX_TEXT_BYTES);
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

/* The character at s: its bytes (an invalid byte is one '?'), its code point and the columns
 * term_text draws it in. */
static size_t next_char(const char *s, size_t len, uint32_t *cp, int *cols)
{
    size_t k = utf8_decode(s, len, cp);
    if (!k)
        k = 1, *cp = '?';
    char tmp[8];
    memcpy(tmp, s, k);
    tmp[k] = '\0';
    *cols = term_text_width(tmp);
    return k;
}

/* The last line of a text that goes on: cut it to width - 3 columns, at a space or after a wide
 * character when there is one, and end it with "..." so the cut shows. */
static void ellipsize(char *line, int width)
{
    size_t len = strlen(line), i = 0, brk = 0;
    int cols = 0;
    while (i < len) {
        uint32_t cp;
        int cw;
        size_t k = next_char(line + i, len - i, &cp, &cw);
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
            int cw;
            size_t k = next_char(s + j, len - j, &cp, &cw);
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
    /* the value under the cursor stays at the right, whole parts of it or none: those that
     * leave the sentence and d_model 32 columns (at least half the row), else all of it if it
     * leaves them 24 */
    char cur[sizeof t->cursor];
    int cw = 0;
    if (t->cursor[0]) {
        int most = COLS - 34 > COLS / 2 ? COLS - 34 : COLS / 2;
        cw = tui_cursor_fit(cur, sizeof cur, t->cursor, most);
        if (!cw)
            cw = tui_cursor_fit(cur, sizeof cur, t->cursor, COLS - 26);
    }
    if (cw)
        cw += 2;
    /* one column spare: the ellipsis is two columns wide on terminals that draw East Asian
     * ambiguous characters wide */
    char line[1024];
    tui_status_compose(line, sizeof line, COLS - cw - 1, t->text, t->text_len, fields, prio, 6,
                       12, t->utf8 ? "\u2026" : "...");
    term_text(stdscr, LINES - 1, 0, line, COLS - cw);
    if (cw) {
        term_attr(stdscr, A_REVERSE | A_BOLD, 0);
        term_text(stdscr, LINES - 1, COLS - cw + 1, cur, cw - 1);
    }
    term_attr(stdscr, A_NORMAL, 0);
}

void tui_help_box(const char *title, int *x0, int *y0, int *w, int *h)
{
    *w = COLS - 8 < 76 ? COLS - 8 : 76, *h = LINES - 4;
    *x0 = (COLS - *w) / 2, *y0 = 2;
    int bottom = *y0 + *h - 1, right = *x0 + *w - 1;
    for (int y = *y0; y <= bottom; y++) {
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

static void draw_help(tui *t)
{
    if (t->lesson) { /* the lesson has keys of its own (lesson.c) */
        lesson_help(t);
        return;
    }
    const char *global = txt(T_HELP_GLOBAL), *own = txt(views[t->view]->keys);
    int x0, y0, w, h;
    tui_help_box(txt(T_HELP_TITLE), &x0, &y0, &w, &h);
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
        snprintf(t->msg, sizeof t->msg, "%s", tui_status_str(st, txt_is_zh()));
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
    t.cfg_shown = cli->cfg;
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
    t.cfg.compare = cli->cfg.compare, t.cfg.compare_len = cli->cfg.compare_len;
    free(t.compare);
    view_learned_free(&t);
    cli->cfg = t.cfg;
    return got_signal ? 128 + got_signal : 0;
}
