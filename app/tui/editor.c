/* editor.c — the line editor on the message line. Enter keeps the line, Esc cancels, Ctrl-U
 * clears. A line may hold as many characters as the documented text limit allows
 * (TF_MAX_TEXT_BYTES in UTF-8; docs/limits.md); what goes beyond is refused, and the line below
 * says so. The sentence is edited with it (/), and so is view 6's second word order (c).
 *
 * A paste must stay text, never run as keys: the editor reads bytes and decodes UTF-8 itself
 * (input methods send UTF-8 too), so an invalid byte becomes a visible U+FFFD and never takes
 * the character after it; it turns on bracketed paste (ESC [ ? 2004 h) while it is open, and
 * everything between ESC [ 200 ~ and ESC [ 201 ~ is text, line breaks and tabs as spaces,
 * other control characters as U+FFFD; an Esc followed at once by more bytes is a sequence
 * (read whole and ignored: an unknown key, or escape codes in a paste), only an Esc alone
 * cancels; and on a terminal without bracketed paste a line break followed at once by more
 * bytes is a space, not Enter. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "textwidth.h"
#include "tf_limits.h"
#include "tui/view.h"
#include "utf8.h"

typedef struct {
    const char *prompt, *hint;
    wchar_t *buf; /* the characters typed, TF_MAX_TEXT_BYTES + 1 at most */
    size_t n;     /* characters */
    size_t bytes; /* their UTF-8 length */
    bool cut;     /* a character was refused at the limit */
} line_buf;

/* The widest tail of buf[0..n) that fits in room columns: its first index. */
static size_t tail_start(const wchar_t *buf, size_t n, int room)
{
    int cols = 0;
    size_t s = n;
    while (s > 0) {
        int cw = tw_codepoint((uint32_t)buf[s - 1]);
        if (cols + cw > room)
            break;
        cols += cw;
        s--;
    }
    return s;
}

/* The prompt and the end of the sentence that fits on the message line, the hint (or the
 * limit's note) on the status line, and the cursor after the sentence. */
static void draw_line(const line_buf *b)
{
    int y = LINES - 2;
    move(y, 0);
    clrtoeol();
    term_attr(stdscr, A_BOLD, 0);
    int px = term_text(stdscr, y, 0, b->prompt, COLS / 2);
    term_attr(stdscr, A_NORMAL, 0);
    /* show the end of a long sentence: only the characters that fit are encoded */
    int room = COLS - px - 1;
    if (room > 1000)
        room = 1000;
    char line[4 * 1000 + 8];
    size_t o = 0;
    for (size_t i = tail_start(b->buf, b->n, room > 0 ? room : 0); i < b->n; i++)
        o += utf8_encode((uint32_t)b->buf[i], line + o);
    line[o] = '\0';
    int cx = px + term_text(stdscr, y, px, line, room);
    move(LINES - 1, 0);
    clrtoeol();
    term_attr(stdscr, A_REVERSE, 0);
    if (b->cut) {
        char note[200];
        txt_fmt(note, sizeof note, T_M_TEXT_CUT, TF_MAX_TEXT_BYTES);
        term_text(stdscr, LINES - 1, 0, note, COLS);
    } else {
        term_text(stdscr, LINES - 1, 0, b->hint, COLS);
    }
    term_attr(stdscr, A_NORMAL, 0);
    move(y, cx < COLS ? cx : COLS - 1);
    refresh();
}

static void drop_last(line_buf *b)
{
    char enc[8];
    if (b->n) {
        b->bytes -= utf8_encode((uint32_t)b->buf[--b->n], enc);
        b->cut = false;
    }
}

/* Add the character cp at the end of the line, or note that the limit refused it. */
static void add_char(line_buf *b, uint32_t cp)
{
    char enc[8];
    size_t k = utf8_encode(cp, enc);
    if (b->bytes + k <= TF_MAX_TEXT_BYTES)
        b->buf[b->n++] = (wchar_t)cp, b->bytes += k;
    else
        b->cut = true;
}

/* ---------------------------------------------------------------------------------------------
 * Reading: bytes from curses to characters, keys and sequences */

#define REPLACEMENT 0xFFFDu /* U+FFFD, what an invalid byte or a control in a paste becomes */
#define WAIT_MS     100     /* a key: then the loop looks for signals */
#define AT_ONCE_MS  5       /* bytes that came with the one before (curses has waited for an
                             * Esc's own ESCDELAY already) */

enum { EV_NONE, EV_CHAR, EV_KEY, EV_ESC, EV_SEQUENCE, EV_PASTE_START, EV_PASTE_END };

typedef struct {
    int kind;
    uint32_t cp; /* EV_CHAR: the character */
    int key;     /* EV_KEY: curses' KEY_* code */
} ed_event;

/* One byte or curses key code within ms milliseconds, else ERR. */
static int next_byte(int ms)
{
    timeout(ms);
    int c = getch();
    timeout(WAIT_MS);
    return c;
}

/* The character a UTF-8 lead byte starts, its continuation bytes read here; U+FFFD for an
 * invalid or cut sequence, and a byte that cannot continue it is left for the next read. */
static uint32_t read_utf8(int lead)
{
    size_t need = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 0;
    char buf[4] = {(char)lead};
    size_t n = 1;
    while (n < need) {
        int c = next_byte(AT_ONCE_MS);
        if (c == ERR)
            break;
        if (c < 0x80 || c > 0xBF) {
            ungetch(c);
            break;
        }
        buf[n++] = (char)c;
    }
    uint32_t cp;
    return need && n == need && utf8_decode(buf, n, &cp) == n ? cp : REPLACEMENT;
}

/* After an Esc: the sequence that came with it, read to its end (CSI: ESC [ parameters, then a
 * final byte; SS3: ESC O and one byte; else one byte, Alt and a key). EV_ESC when nothing came
 * with it: the Esc key. */
static int read_sequence(void)
{
    int c = next_byte(AT_ONCE_MS);
    if (c == ERR)
        return EV_ESC;
    if (c == 'O') {
        next_byte(AT_ONCE_MS);
        return EV_SEQUENCE;
    }
    if (c != '[')
        return EV_SEQUENCE;
    char params[8];
    size_t n = 0;
    for (int i = 0; i < 64; i++) { /* (a longer one is no key: its rest is read as text) */
        c = next_byte(AT_ONCE_MS);
        if (c == ERR || (c >= 0x40 && c <= 0x7e))
            break;
        if (n + 1 < sizeof params)
            params[n++] = (char)c;
    }
    params[n] = '\0';
    if (c == '~' && strcmp(params, "200") == 0)
        return EV_PASTE_START;
    if (c == '~' && strcmp(params, "201") == 0)
        return EV_PASTE_END;
    return EV_SEQUENCE;
}

/* The next thing typed or pasted: EV_NONE when nothing came within WAIT_MS. */
static ed_event read_event(void)
{
    int c = getch();
    if (c == ERR)
        return (ed_event){.kind = EV_NONE};
    if (c >= KEY_MIN)
        return (ed_event){.kind = EV_KEY, .key = c};
    if (c == 27)
        return (ed_event){.kind = read_sequence()};
    return (ed_event){.kind = EV_CHAR, .cp = c < 0x80 ? (uint32_t)c : read_utf8(c)};
}

/* ---------------------------------------------------------------------------------------------
 * Editing */

enum { EDIT_GO_ON, EDIT_KEEP, EDIT_CANCEL };

/* A character inside a paste: text whatever it is. */
static void paste_char(line_buf *b, uint32_t cp)
{
    if (cp == '\n' || cp == '\r' || cp == '\t')
        cp = ' ';
    else if (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp < 0xa0))
        cp = REPLACEMENT;
    add_char(b, cp);
}

/* A character typed: EDIT_KEEP (Enter), EDIT_CANCEL never, or EDIT_GO_ON. */
static int typed_char(line_buf *b, uint32_t cp)
{
    if (cp == '\n' || cp == '\r') {
        int c = next_byte(AT_ONCE_MS); /* more bytes with it: a paste the terminal did not
                                        * bracket, and the line goes on */
        if (c == ERR)
            return EDIT_KEEP;
        ungetch(c);
        add_char(b, ' ');
    } else if (cp == 127 || cp == 8) {
        drop_last(b);
    } else if (cp == 21) { /* Ctrl-U */
        b->n = b->bytes = 0, b->cut = false;
    } else if (cp >= 0x20) {
        add_char(b, cp);
    }
    return EDIT_GO_ON;
}

/* One event: EDIT_KEEP (Enter), EDIT_CANCEL (Esc) or EDIT_GO_ON. *pasting: inside a
 * bracketed paste. */
static int edit_event(line_buf *b, ed_event e, bool *pasting)
{
    switch (e.kind) {
    case EV_PASTE_START: *pasting = true; break;
    case EV_PASTE_END: *pasting = false; break;
    case EV_ESC: return *pasting ? EDIT_GO_ON : EDIT_CANCEL;
    case EV_KEY:
        if (*pasting)
            break;
        if (e.key == KEY_BACKSPACE)
            drop_last(b);
        return e.key == KEY_ENTER ? EDIT_KEEP : EDIT_GO_ON;
    case EV_CHAR:
        if (*pasting)
            paste_char(b, e.cp);
        else
            return typed_char(b, e.cp);
        break;
    default: break;
    }
    return EDIT_GO_ON;
}

/* Bracketed paste on (while the editor is open) or off. */
static void bracketed_paste(bool on)
{
    fputs(on ? "\033[?2004h" : "\033[?2004l", stdout);
    fflush(stdout);
}

char *tui_edit_line(const char *prompt, const char *hint, const char *init, size_t init_len,
                    size_t *out_len, bool *cut, bool *quit)
{
    line_buf b = {.prompt = prompt, .hint = hint,
                  .buf = malloc((TF_MAX_TEXT_BYTES + 1) * sizeof(wchar_t))};
    *cut = *quit = false;
    if (!b.buf)
        return NULL;
    for (size_t i = 0; i < init_len;) {
        uint32_t cp;
        size_t k = utf8_decode(init + i, init_len - i, &cp);
        if (!k || b.bytes + k > TF_MAX_TEXT_BYTES)
            break;
        b.buf[b.n++] = (wchar_t)cp;
        b.bytes += k;
        i += k;
    }
    curs_set(1);
    bracketed_paste(true);
    timeout(WAIT_MS);
    int what = EDIT_GO_ON;
    bool pasting = false;
    while (what == EDIT_GO_ON) {
        draw_line(&b);
        ed_event e = read_event();
        if (tui_signal()) {
            *quit = true;
            break;
        }
        what = edit_event(&b, e, &pasting);
        while (what == EDIT_GO_ON && pasting) /* a paste whole, drawn once at its end */
            if ((e = read_event()).kind == EV_NONE || tui_signal() ||
                (what = edit_event(&b, e, &pasting)) != EDIT_GO_ON)
                break;
    }
    bracketed_paste(false);
    curs_set(0);
    tui_repaint(); /* the editor covered the message and status lines */
    *cut = b.cut;
    char *s = what == EDIT_KEEP ? malloc(b.bytes + 1) : NULL;
    if (s) {
        size_t o = 0;
        for (size_t i = 0; i < b.n; i++)
            o += utf8_encode((uint32_t)b.buf[i], s + o);
        s[o] = '\0';
        *out_len = o;
    }
    free(b.buf);
    return s;
}

/* The sentence: the one typed becomes t's and the analysis runs again; a sentence the analysis
 * refuses leaves the old one (the message line says why). An order B of the old sentence would
 * not match the new one: view 6 goes back to the words reversed, and says so. */
int tui_edit(tui *t)
{
    size_t len = 0;
    bool cut, quit;
    char *s = tui_edit_line(txt(T_EDIT_PROMPT), txt(T_EDIT_HINT), t->text, t->text_len, &len,
                            &cut, &quit);
    if (quit) {
        free(s);
        return TUI_QUIT;
    }
    if (!s)
        return TUI_REDRAW;
    char *old = t->text;
    size_t old_len = t->text_len;
    const char *cmp = t->cfg.compare;
    t->text = s, t->text_len = len;
    t->cfg.compare = NULL, t->cfg.compare_len = 0;
    if (tui_rerun(t) != 0) { /* the configuration shown, order B with it, is back */
        free(s);
        t->text = old, t->text_len = old_len;
        return TUI_REDRAW;
    }
    free(old);
    t->msg[0] = '\0';
    if (cmp)
        snprintf(t->msg, sizeof t->msg, "%s", txt(T_O_B_RESET));
    if (cut) /* the rest of a long paste was refused: say so once more */
        txt_fmt(t->msg, sizeof t->msg, T_M_TEXT_CUT, TF_MAX_TEXT_BYTES);
    return TUI_REDRAW;
}
