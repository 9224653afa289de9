/* loop.c — the explorer's host: keys -> actions -> reaction flags -> one redraw.
 *
 * The host owns the analysis, the configuration and each view's state (made by the view's init
 * when the explorer starts, freed by its free at the end); it calls the views only through
 * their table (view.h), and global keys through the key table below.
 *
 * Terminal hygiene: the terminal is restored by endwin() on every normal path (q, Esc, errors);
 * a signal that asks tfviz to stop (INT, TERM, HUP, QUIT, USR1, ALRM, ...: core/signals.h) only
 * sets a flag that the loop polls (getch times out every 100 ms); a crash signal, or a second
 * signal while the first waits, restores the saved termios and leaves the alternate screen with
 * write(2), which is safe inside a handler, before tfviz ends by it. */
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>
#include <wchar.h>

#include "core/err.h"
#include "core/signals.h"
#include "tui/lesson.h"
#include "tui/statusline.h"
#include "tui/view.h"

/* The views in the tab bar's order, and below the key of each: a new view is a row here, its
 * key and TUI_VIEWS one more, or tfviz does not compile. */
const tui_view *const tui_views[] = {
    &view_embed, &view_pe, &view_freq, &view_relative, &view_input, &view_order, &view_rope,
    &view_word_vectors, &view_schemes, &view_order_training,
};
const char tui_view_keys[] = "1234567890";
_Static_assert(sizeof tui_views / sizeof tui_views[0] == TUI_VIEWS,
               "TUI_VIEWS (view.h) counts the views of tui_views");
_Static_assert(sizeof tui_view_keys - 1 == TUI_VIEWS, "each view of tui_views has its key");

int tui_view_of_key(int ch)
{
    for (int i = 0; i < TUI_VIEWS; i++)
        if (tui_view_keys[i] == ch)
            return i;
    return -1;
}

int tui_view_index(const tui_view *v)
{
    for (int i = 0; i < TUI_VIEWS; i++)
        if (tui_views[i] == v)
            return i;
    return 0;
}

void *tui_state(tui *t, const tui_view *v) { return t->state[tui_view_index(v)]; }

/* ---------------------------------------------------------------------------------------------
 * Signals: core/signals.c handles every one that would end tfviz; the explorer defers those
 * that ask it to stop (its loop ends and restores the terminal with endwin) and gives it this
 * restore for the rest (a crash, or a second signal while the first waits) */

static struct termios saved_tios;
static bool have_tios, curses_on;
static volatile sig_atomic_t screen_on; /* the alternate screen is up: undo it in a handler */
static char reset_seq[256]; /* leave the alternate screen, show the cursor, stop mouse reports */
static size_t reset_len;

/* Async-signal-safe: the saved terminal modes back, and out of the alternate screen. */
static void restore_in_handler(void)
{
    if (!screen_on)
        return;
    screen_on = 0;
    if (have_tios)
        tcsetattr(STDIN_FILENO, TCSANOW, &saved_tios);
    if (reset_len) {
        ssize_t r = write(STDOUT_FILENO, reset_seq, reset_len);
        (void)r;
    }
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
    append_cap("sgr0");
    append_cap("cnorm");
    append_cap("rmkx");
    append_cap("rmcup");
    const char mouse_off[] = "\033[?1000l\033[?1002l\033[?1006l";
    if (reset_len + sizeof mouse_off < sizeof reset_seq) {
        memcpy(reset_seq + reset_len, mouse_off, sizeof mouse_off - 1);
        reset_len += sizeof mouse_off - 1;
    }
    screen_on = 1;
    signals_on_fatal(restore_in_handler);
    signals_defer(true);
}

static void restore_terminal(void)
{
    if (curses_on) {
        signals_on_fatal(NULL);
        screen_on = 0;
        endwin();
        curses_on = false;
    }
}

int tui_signal(void) { return signals_pending(); }

/* ---------------------------------------------------------------------------------------------
 * Analysis */

int tui_rerun(tui *t)
{
    tf_analysis fresh;
    tf_diag dg = {0};
    tf_status st = analysis_run(&t->cfg, t->text, t->text_len, &fresh, &dg);
    if (st != TF_OK) {
        /* the analysis shown stays, and so does the configuration it was made with: the
         * status line and the views never disagree */
        t->cfg = t->cfg_shown;
        txt_fmt(t->msg, sizeof t->msg, T_M_BAD_TEXT, txt(T_BAD_TEXT), txt_status(st));
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

tf_status tui_try_config(tui *t, const tf_config *c, unsigned needs)
{
    /* What can fail in the parts (order B's tokens) does not depend on the width: check it at
     * the smallest d_model, where it costs nothing; the parts themselves are computed off the
     * input path once c is on screen (parts.c). */
    tf_config probe = *c;
    probe.d_model = c->d_model < 16 ? c->d_model : 16;
    probe.vectors = NULL;
    probe.positions = NULL;
    tf_analysis fresh;
    tf_diag dg = {0};
    tf_status st = analysis_run(&probe, t->text, t->text_len, &fresh, &dg);
    if (st == TF_OK) {
        st = analysis_need(&fresh, needs & ~(unsigned)ANALYSIS_RELATIVE, &dg);
        analysis_free(&fresh);
    }
    if (st == TF_OK)
        st = analysis_run(c, t->text, t->text_len, &fresh, &dg);
    if (st != TF_OK)
        return st;
    analysis_free(t->a);
    *t->a = fresh;
    t->cfg = *c;
    t->cfg_shown = t->cfg;
    t->generation++;
    return TF_OK;
}

/* The parts of the analysis the view on screen reads, computed on its first visit: a short job
 * before its frame, a long one on the worker while the view says "computing" (parts.c). */
static void ensure_parts(tui *t)
{
    parts_ensure(t, tui_views[t->view]->needs, true);
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
    if (tui_view_of_key(key) >= 0)
        t->view = tui_view_of_key(key);
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
        bool trained = vec != t->req->cfg.vectors;
        snprintf(t->msg, sizeof t->msg,
                 trained ? txtf(T_M_VECTORS_DROPPED) : txtf(T_M_FILE_DROPPED), d, (int)vec->dim);
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

static void export_message(const char *msg, void *ctx)
{
    tui *t = ctx;
    snprintf(t->msg, sizeof t->msg, "e: %s", msg);
}

int tui_view_figure(tui *t, fig_request *req)
{
    const tui_view *v = tui_views[t->view];
    /* the figure speaks the interface's language and shows what the views show */
    *req = (fig_request){.name = v->figure, .zh = txt_is_zh(), .vectors = t->cfg.vectors};
    return v->export_prep ? v->export_prep(t, t->state[t->view], req) : TUI_IGNORED;
}

static int act_pictures(tui *t, int key)
{
    (void)key;
    return tui_pictures_key(t);
}

/* e: the figure of the view on screen, in the interface's language, as tfviz-NAME.png. */
static int act_export(tui *t, int key)
{
    (void)key;
    const tui_view *v = tui_views[t->view];
    if (!v->figure || !t->req->export) {
        snprintf(t->msg, sizeof t->msg, "%s", txt(T_NO_FIGURE));
        return TUI_REDRAW;
    }
    fig_request req;
    int r = tui_view_figure(t, &req);
    if (r != TUI_IGNORED)
        return r;
    /* a new file each time: tfviz-order.png, tfviz-order-2.png, ... */
    char path[96];
    if (!tui_export_path(path, sizeof path, NULL, v->figure, "png")) {
        snprintf(t->msg, sizeof t->msg, "e: %s", txt_status(TF_ERR_IO));
        return TUI_REDRAW;
    }
    /* the export's sentence, if it has one, goes to the message line, not to the screen */
    err_sink was = err_redirect((err_sink){export_message, t});
    req.path = path;
    int rc = t->req->export(&req, t->a);
    err_redirect(was);
    if (rc == 0)
        txt_fmt(t->msg, sizeof t->msg, T_EXPORTED, path);
    return TUI_REDRAW;
}

static int act_edit(tui *t, int key)
{
    (void)key;
    return tui_edit(t);
}

static int act_resize(tui *t, int key)
{
    (void)t, (void)key;
    return TUI_REDRAW;
}

static const tui_key keytable[] = {
    /* the views' own keys: tui_view_keys (dispatch) */
    {'\t', act_view},     {KEY_BTAB, act_view}, {'?', act_help},     {'q', act_quit},
    {27, act_quit},       {'/', act_edit},      {':', act_edit},     {'+', act_dmodel},
    {'=', act_dmodel},    {'-', act_dmodel},    {'[', act_positions}, {']', act_positions},
    {'b', act_base},      {'i', act_index},     {'l', act_lang},     {'e', act_export},
    {'g', act_pictures},  {KEY_RESIZE, act_resize},
};

/* ---------------------------------------------------------------------------------------------
 * The loop */

/* A key for the view on screen; the mouse on the tab bar switches views, on the content area
 * it goes to the view, and the wheel scrolls as Up and Down do. */
static int view_key(tui *t, int ch)
{
    const tui_view *v = tui_views[t->view];
    void *st = t->state[t->view];
    return v->key ? v->key(t, st, ch) : TUI_IGNORED;
}

static int mouse(tui *t)
{
    MEVENT ev;
    if (getmouse(&ev) != OK)
        return TUI_IGNORED;
    const tui_view *v = tui_views[t->view];
    if (ev.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED | BUTTON1_RELEASED)) {
        if (ev.y == 0 && !t->lesson) { /* the tab bar */
            int i = tui_tab_at(ev.x);
            if (i < 0)
                return TUI_IGNORED;
            t->view = i;
            return TUI_REDRAW;
        }
        if (v->click && ev.y >= t->area_y && ev.y < t->area_y + t->area_rows)
            return v->click(t, t->state[t->view], ev.y - t->area_y, ev.x - t->area_x);
    }
    if (ev.bstate & BUTTON4_PRESSED)
        return view_key(t, KEY_UP);
    if (ev.bstate & BUTTON5_PRESSED)
        return view_key(t, KEY_DOWN);
    return TUI_IGNORED;
}

static int dispatch(tui *t, int ch)
{
    if (ch == KEY_MOUSE)
        return mouse(t);
    if (t->help && ch != '?' && ch != 'q' && ch != 27 && ch != KEY_RESIZE) {
        t->help = false;
        return TUI_REDRAW;
    }
    /* the lesson gives the key to the step's view itself (lesson.c) */
    int r = t->lesson ? lesson_key(t, ch) : view_key(t, ch);
    if (r != TUI_IGNORED) {
        tui_pictures_view_key();
        return r;
    }
    if (tui_view_of_key(ch) >= 0)
        return act_view(t, ch);
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

/* TFVIZ_CUT_LOG=FILE: every text the frame cuts (render/term's cut hook) is appended to FILE as
 * "short view N WxH<TAB>text" (or "cut ..." when no "..." fitted, "... step N ..."), for the layout
 * tests, which fail on a cut word. */
static FILE *cut_log;
static const tui *cut_tui;

static void log_cut(const char *s, bool hard)
{
    if (!cut_log || !cut_tui)
        return;
    fprintf(cut_log, "%s %s %d %dx%d\t%s\n", hard ? "cut" : "short",
            cut_tui->lesson ? "step" : "view",
            (cut_tui->lesson ? cut_tui->step : cut_tui->view) + 1, COLS, LINES, s);
    fflush(cut_log);
}

static void cut_log_start(const tui *t)
{
    const char *path = getenv("TFVIZ_CUT_LOG");
    if (!path || !*path)
        return;
    cut_log = fopen(path, "a");
    cut_tui = t;
    if (cut_log)
        term_set_cut_hook(log_cut);
}

static void cut_log_end(void)
{
    term_set_cut_hook(NULL);
    if (cut_log)
        fclose(cut_log);
    cut_log = NULL;
    cut_tui = NULL;
}

/* curses in the explorer's modes; false when the terminal cannot be started. */
static bool start_curses(const tui *t)
{
    if (tcgetattr(STDIN_FILENO, &saved_tios) == 0)
        have_tios = true;
    if (!newterm(NULL, stdout, stdin)) {
        err_say("cannot start the interactive view on this terminal (TERM=%s); printing the "
                "text report instead.", getenv("TERM"));
        return false;
    }
    curses_on = true;
    atexit(restore_terminal);
    install_signals();
    const char *nc = getenv("NO_COLOR");
    term_setup(NULL, t->utf8, t->req->no_color || (nc && *nc));
    cbreak();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    curs_set(0);
    set_escdelay(25);
    mousemask(BUTTON1_PRESSED | BUTTON1_CLICKED | BUTTON4_PRESSED | BUTTON5_PRESSED, NULL);
    mouseinterval(0);
    return true;
}

/* Frames until q, Esc or a signal: draw when something changed, wait for a key (or the view's
 * next frame), act on it. */
static void run_loop(tui *t)
{
    int flags = TUI_REDRAW;
    while (!(flags & TUI_QUIT)) {
        if (flags & TUI_RERUN)
            tui_rerun(t);
        if (flags & (TUI_REDRAW | TUI_RERUN)) {
            if (COLS >= 60 && LINES >= 20)
                ensure_parts(t);
            tui_pictures_before(t);
            tui_draw_frame(t);
            if (tui_pictures_after(t))
                tui_draw_frame(t);
        }
        const tui_view *v = tui_views[t->view];
        void *st = t->state[t->view];
        int ms = v->frame_ms ? v->frame_ms(st) : work_busy() ? 20 : 100;
        timeout(tui_pictures_busy() && ms > 20 ? 20 : ms); /* a picture is being drawn */
        wint_t wc;
        int r = get_wch(&wc);
        if (signals_pending())
            break;
        if (r == ERR) { /* no key: the view's next frame, if it moves by itself */
            flags = v->tick ? v->tick(t, st) : TUI_IGNORED;
            flags |= tui_pictures_ticked(t, flags & TUI_REDRAW);
            if (work_poll()) /* a job's numbers are ready */
                flags |= TUI_REDRAW;
            flags |= tui_pictures_poll(t);
            continue;
        }
        int ch = (int)wc;
        if (r == OK && wc > 255)
            ch = 0; /* a character no key is bound to (KEY_* codes start at 257) */
        bool keep_msg = (r == KEY_CODE_YES && (ch == KEY_RESIZE || ch == KEY_MOUSE));
        /* a message stays until the next key, whatever that key does: the frame after it
         * shows the hint line again */
        bool had_msg = t->msg[0] != '\0';
        if (!keep_msg)
            t->msg[0] = '\0';
        flags = dispatch(t, ch);
        if (flags == TUI_IGNORED)
            flags = keep_msg || (had_msg && !t->msg[0]) ? TUI_REDRAW : TUI_IGNORED;
        flags |= tui_pictures_poll(t);
    }
}

int tui_run(const tui_request *r, tf_analysis *a)
{
    tui t = {.req = r, .cfg = r->cfg, .cfg_shown = r->cfg, .a = a, .lesson = r->lesson,
             .big = r->big};
    t.text = malloc(r->text_len + 1);
    if (!t.text)
        return 2;
    memcpy(t.text, r->text, r->text_len);
    t.text[r->text_len] = '\0';
    t.text_len = r->text_len;
    for (int i = 0; i < TUI_VIEWS; i++)
        t.state[i] = tui_views[i]->init ? tui_views[i]->init(&t) : NULL;
    if (t.lesson)
        lesson_enter(&t, 0);

    setlocale(LC_ALL, "");
    t.utf8 = term_locale_utf8();
    txt_set_zh(t.utf8 && r->zh);
    if (!t.utf8)
        snprintf(t.msg, sizeof t.msg, "%s", txt(T_ASCII_NOTICE));
    int rc = TUI_NO_TERMINAL;
    if (start_curses(&t)) {
        cut_log_start(&t);
        run_loop(&t);
        cut_log_end();
        tui_pictures_end();
        int sig = signals_pending();
        restore_terminal();
        work_stop(); /* after the terminal is back: a job may take a moment to stop */
        signals_defer(false);
        rc = sig ? 128 + sig : 0;
    }
    for (int i = 0; i < TUI_VIEWS; i++)
        if (tui_views[i]->free)
            tui_views[i]->free(t.state[i]);
    free(t.text);
    return rc;
}
