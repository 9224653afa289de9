/* lesson.c — the guided lesson's frame and keys.
 *
 * A step is a title, a short text, a visual and a "try this" line. The visual is an explorer
 * view drawn by its own draw() into the space left under the text, so the lesson shows the
 * same numbers as the explorer; only step 1 (characters as bytes) and the worked PE cell of
 * step 7 are drawn here, because no view shows them.
 *
 * Layout, top to bottom: header (step n/12, title, progress), text, visual, try line, key
 * line, status line. --big makes every line bold, narrows the text to few words a line and,
 * when the screen is tall enough, leaves a blank row between lines. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/lesson_keys.h"
#include "posenc.h"
#include "textwidth.h"
#include "analysis.h"
#include "tui/lesson.h"
#include "utf8.h"

#define MIN_VISUAL_ROWS 8

/* What each step draws: its view (NULL: the characters' bytes); its words are
 * lesson_words_at(step). */
static const lesson_step steps[LESSON_STEPS + LESSON_EXTRA_STEPS] = {
    {.view = NULL},
    {.view = &view_embed, .echo = "c"},
    {.view = &view_embed, .echo = "c"},
    {.view = &view_embed, .echo = "c"},
    {.view = &view_word_vectors},
    {.view = &view_order},
    {.view = &view_order_training},
    {.view = &view_pe, .pe_cell = true},
    {.view = &view_freq},
    {.view = &view_relative},
    {.view = &view_input},
    {.view = &view_rope},
    {.view = &view_schemes}, /* beyond the article (--extended) */
};

const lesson_step *lesson_get(int i)
{
    return i >= 0 && i < LESSON_STEPS ? &steps[i] : NULL;
}

const lesson_step *lesson_get_extra(int i)
{
    return i >= 0 && i < LESSON_EXTRA_STEPS ? &steps[LESSON_STEPS + i] : NULL;
}

static bool zh(void)
{
    return txt_is_zh();
}

/* The steps of this lesson: the article's, and with --extended the ones beyond it. */
static int nsteps(const tui *t)
{
    return LESSON_STEPS + (t->req && t->req->extended ? LESSON_EXTRA_STEPS : 0);
}

static const lesson_step *step_at(int i)
{
    return i < LESSON_STEPS ? lesson_get(i) : lesson_get_extra(i - LESSON_STEPS);
}

void lesson_enter(tui *t, int step)
{
    if (step < 0)
        step = 0;
    if (step >= nsteps(t))
        step = nsteps(t) - 1;
    t->step = step;
    const lesson_step *s = step_at(step);
    /* the bytes step reads the tokens, which every analysis has: view 1's needs */
    t->view = s->view ? tui_view_index(s->view) : 0;
    for (int i = 0; i < TUI_VIEWS; i++) /* nothing keeps moving from the step before */
        if (tui_views[i]->still)
            tui_views[i]->still(t->state[i]);
}

/* A key for the step's view as in the explorer, whose result it also echoes on the message
 * line when the step asks (echo); TUI_IGNORED when the view has no use for it. */
static int step_key(tui *t, const lesson_step *s, int ch)
{
    const tui_view *v = s->view;
    if (!v || !v->key)
        return TUI_IGNORED;
    void *state = tui_state(t, v);
    if (ch > 0 && ch <= 255 && s->echo && strchr(s->echo, ch)) {
        int r = v->key(t, state, ch);
        if (v->result)
            v->result(t, state, t->msg, sizeof t->msg);
        return r | TUI_REDRAW;
    }
    return v->key(t, state, ch);
}

static int next_step(tui *t)
{
    if (t->step + 1 >= nsteps(t)) {
        snprintf(t->msg, sizeof t->msg, "%s", txt_lang(T_LESSON_END, zh()));
        return TUI_REDRAW;
    }
    lesson_enter(t, t->step + 1);
    return TUI_REDRAW;
}

/* The lesson's own keys, the same in every step so that a presenter's clicker (PgDn, PgUp)
 * always works: Space, Enter and PgDn go on, Backspace and PgUp go back (the key table,
 * core/keys.c). No step takes them; every other key goes to the step's view as in the explorer
 * (arrows move its cursor, p pauses the training of steps 5 and 7, a runs the clocks of step 9). */
int lesson_key(tui *t, int ch)
{
    switch (ch) {
    case ' ':
    case '\n':
    case '\r':
    case KEY_ENTER:
    case KEY_NPAGE:
        return next_step(t);
    case KEY_PPAGE:
    case KEY_BACKSPACE:
    case 127:
    case 8:
        lesson_enter(t, t->step - 1);
        return TUI_REDRAW;
    case '\t':
    case KEY_BTAB:
        return TUI_REDRAW; /* no tabs in the lesson */
    default:
        if (ch >= '0' && ch <= '9')
            return TUI_REDRAW;
        break;
    }
    return step_key(t, step_at(t->step), ch);
}

/* tmpl with the class's sentence put in (the order B typed with c, if any). */
static const char *fill(const tui *t, const char *tmpl, char *out, size_t cap)
{
    const char *typed_b = t->a->cmp_text && t->cfg.compare ? t->a->cmp_text : NULL;
    return lesson_fill(t->a, typed_b, tmpl, out, cap);
}

/* Step 1: each character of the sentence with its code point and UTF-8 bytes. */
static void draw_bytes(tui *t, WINDOW *w, int y, int x, int rows, int cols)
{
    enum { MAXROWS = 24 };
    char cell[MAXROWS + 1][4][48]; /* (rows, 4 columns) table cells */
    const char *ptrs[(MAXROWS + 1) * 4];
    char head[128];
    snprintf(head, sizeof head, "%s", txt_lang(T_LESSON_BYTES_HEAD, zh()));
    char *save = head;
    for (int c = 0; c < 4; c++) {
        char *bar = strchr(save, '|');
        if (bar)
            *bar = '\0';
        size_t l = strlen(save) < sizeof cell[0][c] - 1 ? strlen(save) : sizeof cell[0][c] - 1;
        memcpy(cell[0][c], save, l);
        cell[0][c][l] = '\0';
        save = bar ? bar + 1 : save + strlen(save);
    }
    int n = 0, limit = rows - 3 < MAXROWS ? rows - 3 : MAXROWS;
    const char *s = t->text;
    size_t len = t->text_len, i = 0;
    while (i < len && n < limit) {
        uint32_t cp;
        size_t k = utf8_decode(s + i, len - i, &cp);
        if (!k)
            break;
        if (cp != ' ') {
            n++;
            memcpy(cell[n][0], s + i, k);
            cell[n][0][k] = '\0';
            snprintf(cell[n][1], sizeof cell[n][1], "U+%04X", (unsigned)cp);
            int o = 0;
            for (size_t b = 0; b < k; b++)
                o += snprintf(cell[n][2] + o, sizeof cell[n][2] - (size_t)o, "%s%02X", b ? " " : "",
                              (unsigned char)s[i + b]);
            snprintf(cell[n][3], sizeof cell[n][3], "%u", (unsigned)cp);
        }
        i += k;
    }
    for (int r = 0; r <= n; r++)
        for (int c = 0; c < 4; c++)
            ptrs[r * 4 + c] = cell[r][c];
    int tw = term_table(w, y + 1, x + 2, ptrs, n + 1, 4, 3, true, NULL);
    (void)tw;
    term_attr(w, t->big ? A_BOLD : A_NORMAL, 0);
    term_wrap(w, y + n + 3, x + 2, cols - 4, 2, 1, txt_lang(T_LESSON_BYTES_NOTE, zh()));
    term_attr(w, A_NORMAL, 0);
}

/* Step 7: the PE cell under view 2's cursor, worked out with posenc's own omega. */
static int draw_pe_cell(tui *t, WINDOW *w, int y, int x, int cols)
{
    const tf_config *c = &t->cfg;
    long cur, j;
    view_pe_cursor(tui_state(t, &view_pe), &cur, &j);
    long pos = cur + c->index_base, i = j / 2;
    double om = posenc_omega((int)i, c->d_model, c->base), ang = (double)pos * om;
    double v = (j % 2) ? cos(ang) : sin(ang);
    char buf[320];
    txt_fmt_lang(buf, sizeof buf, T_LESSON_PE_CELL, zh(), pos, j, i, c->base, 2 * i, c->d_model, om,
               ang, (j % 2) ? "cos" : "sin", ang, v);
    term_attr(w, A_BOLD, 0);
    int used = term_wrap(w, y, x + 1, cols - 2, 2, 1, buf);
    txt_fmt_lang(buf, sizeof buf, T_LESSON_PE_TABLE, zh(),
               posenc_value((double)pos, (int)j, c->d_model, c->base));
    term_text(w, y + used, x + 1, buf, cols - 2);
    term_attr(w, A_NORMAL, 0);
    return used + 1;
}

/* --big: the point in a reversed bold band across the screen, its lines centred, in at most
 * maxlines rows from row y. Returns the rows used. */
static int big_band(const char *point, int y, int maxlines)
{
    int width = COLS - 8;
    int n = term_wrap(NULL, 0, 0, width, 64, 1, point);
    if (n > maxlines)
        n = maxlines;
    term_attr(stdscr, A_REVERSE | A_BOLD, 0);
    for (int r = 0; r < n; r++)
        for (int x = 1; x < COLS - 1; x++)
            mvaddch(y + r, x, ' ');
    /* each line centred: wrap once to learn the lines, then write them one by one */
    size_t len = strlen(point), i = 0;
    for (int r = 0; r < n && i < len; r++) {
        size_t next, l = tw_wrap_line(point + i, len - i, width, !term_locale_utf8(), &next);
        char line[1024];
        if (l > sizeof line - 4)
            l = sizeof line - 4;
        memcpy(line, point + i, l);
        line[l] = '\0';
        while (l > 0 && line[l - 1] == ' ')
            line[--l] = '\0';
        if (r == n - 1 && i + next < len)
            tw_ellipsize(line, width, !term_locale_utf8());
        int lw = term_text_width(line);
        term_text(stdscr, y + r, (COLS - lw) / 2, line, width);
        i += next;
    }
    term_attr(stdscr, A_NORMAL, 0);
    return n;
}

/* Row 0: "step n/12", the title, and the progress at the right. */
static void frame_header(const tui *t, bool z)
{
    const lesson_words *lw = lesson_words_at(t->step);
    char head[256], prog[(LESSON_STEPS + LESSON_EXTRA_STEPS) * 4 + 1];
    txt_fmt_lang(head, sizeof head, T_LESSON_HEADER, z, t->step + 1, nsteps(t));
    size_t o = 0;
    for (int i = 0; i < nsteps(t); i++)
        o += (size_t)snprintf(prog + o, sizeof prog - o, "%s", i <= t->step ? "#" : ".");
    term_attr(stdscr, A_REVERSE | A_BOLD, 0);
    for (int x = 0; x < COLS; x++)
        mvaddch(0, x, ' ');
    int pw = term_text_width(prog);
    const char *title = lw->title[z ? 0 : 1];
    int tw = term_text_width(title);
    /* a long title on a narrow screen keeps the step number only ("10/12") */
    if (1 + term_text_width(head) + 2 + tw > COLS - 1)
        snprintf(head, sizeof head, "%d/%d", t->step + 1, nsteps(t));
    int hx = 1 + term_text(stdscr, 0, 1, head, COLS - 2);
    /* the title whole; the progress marks only where they fit beside it */
    if (hx + 2 + tw + 3 + pw > COLS - 1)
        pw = 0;
    hx += 2 + term_text(stdscr, 0, hx + 2, title, COLS - hx - 3);
    if (pw && hx + pw + 2 < COLS)
        term_text(stdscr, 0, COLS - pw - 1, prog, pw);
    term_attr(stdscr, A_NORMAL, 0);
}

/* The step's view (or the bytes of step 1) in rows vy .. vy + vrows - 1, under the worked PE
 * cell when the step has one; the click area follows it. */
static void frame_visual(tui *t, const lesson_step *s, int vy, int vrows)
{
    t->cursor[0] = '\0';
    if (vrows <= 2)
        return;
    WINDOW *w = derwin(stdscr, vrows, COLS, vy, 0);
    if (!w)
        return;
    int top = 0;
    long pos0 = 0, dim0 = 0, pos1, dim1;
    if (s->pe_cell) {
        view_pe_cursor(tui_state(t, &view_pe), &pos0, &dim0);
        top = draw_pe_cell(t, w, 0, 0, COLS);
    }
    if (!s->view)
        draw_bytes(t, w, 0, 0, vrows, COLS);
    else
        s->view->draw(t, tui_state(t, s->view), w, top, 0, vrows - top, COLS);
    if (s->pe_cell) {
        /* the heatmap puts its cursor on a dimension its columns show when it draws: the
         * worked cell above it follows in the same frame */
        view_pe_cursor(tui_state(t, &view_pe), &pos1, &dim1);
        if (pos1 != pos0 || dim1 != dim0) {
            werase(w);
            top = draw_pe_cell(t, w, 0, 0, COLS);
            if (s->view)
                s->view->draw(t, tui_state(t, s->view), w, top, 0, vrows - top, COLS);
        }
    }
    t->area_y = vy + top;
    t->area_x = 0;
    t->area_rows = vrows - top;
    t->area_cols = COLS;
    delwin(w);
}

/* The message, or the lesson's keys, on the row above the status line. */
static void frame_keys(const tui *t, bool z, attr_t strong)
{
    move(LINES - 2, 0);
    clrtoeol();
    if (t->msg[0]) {
        term_attr(stdscr, A_BOLD, 0);
        term_text(stdscr, LINES - 2, 1, t->msg, COLS - 2);
    } else {
        term_attr(stdscr, strong, 0);
        char line[512];
        lesson_keys_line(line, sizeof line, z);
        const char *lists[] = {line};
        tui_keys_line(stdscr, LINES - 2, 1, COLS - 2, lists, 1);
    }
    term_attr(stdscr, A_NORMAL, 0);
}

void lesson_frame(tui *t)
{
    const lesson_step *s = step_at(t->step);
    const lesson_words *lw = lesson_words_at(t->step);
    bool z = zh(), big = t->big;
    int lang = z ? 0 : 1;
    attr_t strong = big ? A_BOLD : A_NORMAL;
    frame_header(t, z);

    /* the text: big mode writes short bold lines, double-spaced when the screen is tall; its
     * first sentence, the step's point, stands alone in a reversed band across the screen and
     * the rest of the text goes, so the visual gets the rows (larger heatmaps and plots) */
    bool tall = LINES >= 30;
    /* on a short screen (the 80x24 presenter layout) the key line shows on step 1 and with
     * messages only, so the visual keeps its rows */
    bool keyline = tall || t->step == 0 || t->msg[0];
    int margin = big ? 3 : 1;
    int width = COLS - 2 * margin;
    if (big && width > 56)
        width = 56;
    int y = 1;
    int bottom = LINES - 2 - (keyline ? 1 : 0); /* the try line's row */
    int maxlines = bottom - y - MIN_VISUAL_ROWS - (big && tall ? 1 : 0);
    if (maxlines < 2)
        maxlines = 2;
    int used, spacing = 1;
    char body[2048], try_[1024];
    fill(t, lw->body[lang], body, sizeof body);
    fill(t, lw->try_[lang], try_, sizeof try_);
    if (big) {
        used = big_band(lw->point[lang] ? lw->point[lang] : lw->title[lang], y, maxlines);
    } else {
        int need = term_wrap(NULL, 0, 0, width, 64, 1, body);
        if (need > maxlines)
            need = maxlines;
        term_attr(stdscr, strong, 0);
        used = term_wrap(stdscr, y, margin, width, need, spacing, body);
        term_attr(stdscr, A_NORMAL, 0);
    }
    y += used * spacing + (big && tall ? 1 : 0);

    /* the try-this line sits above the key line; the visual fills what is between */
    /* a try line too long for one row takes two, or three on a narrow screen (never cut) */
    int try_x = margin + term_text_width(txt_lang(T_LESSON_TRY, z));
    int try_lines = term_wrap(NULL, 0, 0, COLS - try_x - 1, 3, 1, try_);
    int try_y = bottom - (try_lines - 1);
    frame_visual(t, s, y, try_y - y);

    /* try this */
    move(try_y, 0);
    clrtoeol();
    term_attr(stdscr, A_BOLD, 0);
    term_text(stdscr, try_y, margin, txt_lang(T_LESSON_TRY, z), COLS);
    term_attr(stdscr, strong, 0);
    term_wrap(stdscr, try_y, try_x, COLS - try_x - 1, try_lines, 1, try_);
    term_attr(stdscr, A_NORMAL, 0);

    if (keyline)
        frame_keys(t, z, strong);
    tui_draw_status(t);
}

void lesson_help(tui *t)
{
    const lesson_step *s = step_at(t->step);
    const lesson_words *lw = lesson_words_at(t->step);
    bool z = zh();
    int x0, y0, w, h;
    tui_help_box(txt_lang(T_LESSON_HELP_TITLE, z), &x0, &y0, &w, &h);
    char keys[1024];
    lesson_keys_help(keys, sizeof keys, z);
    int used = term_wrap(stdscr, y0 + 2, x0 + 2, w - 4, h - 6, 1, keys);
    char head[64];
    txt_fmt_lang(head, sizeof head, T_LESSON_HELP_STEP, z, t->step + 1);
    term_attr(stdscr, A_BOLD, 0);
    int hx = term_text(stdscr, y0 + 3 + used, x0 + 2, head, w - 4);
    hx += term_text(stdscr, y0 + 3 + used, x0 + 2 + hx, lw->title[z ? 0 : 1], w - 4 - hx);
    term_attr(stdscr, A_NORMAL, 0);
    const char *claims = tui_claims(s->view);
    if (claims)
        term_printf(stdscr, y0 + 3 + used, x0 + 2 + hx, w - 4 - hx, "  (%s)", claims);
    term_wrap(stdscr, y0 + 4 + used, x0 + 2, w - 4, h - 7 - used, 1, lw->keys[z ? 0 : 1]);
    term_text(stdscr, y0 + h - 2, x0 + 2, txt(T_HELP_CLOSE), w - 4);
}
