/* editor.c — the sentence editor on the message line: wide characters from get_wch(), so input
 * methods work. Enter keeps the sentence and runs the analysis again, Esc cancels, Ctrl-U
 * clears. The sentence may hold as many characters as the documented text limit allows
 * (TF_MAX_TEXT_BYTES in UTF-8; docs/limits.md); what goes beyond is refused, and the line below
 * says so. */
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "textwidth.h"
#include "tf_limits.h"
#include "tui/view.h"
#include "utf8.h"

typedef struct {
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
    int px = term_text(stdscr, y, 0, txt(T_EDIT_PROMPT), COLS / 2);
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
        term_text(stdscr, LINES - 1, 0, txt(T_EDIT_HINT), COLS);
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

enum { EDIT_GO_ON, EDIT_KEEP, EDIT_CANCEL };

/* One key: EDIT_KEEP (Enter), EDIT_CANCEL (Esc) or EDIT_GO_ON. */
static int edit_key(line_buf *b, int r, wint_t wc)
{
    if (r == KEY_CODE_YES) {
        if (wc == KEY_BACKSPACE)
            drop_last(b);
        return wc == KEY_ENTER ? EDIT_KEEP : EDIT_GO_ON;
    }
    if (wc == 27)
        return EDIT_CANCEL;
    if (wc == '\n' || wc == '\r')
        return EDIT_KEEP;
    if (wc == 127 || wc == 8) {
        drop_last(b);
    } else if (wc == 21) { /* Ctrl-U */
        b->n = b->bytes = 0, b->cut = false;
    } else if (wc >= 0x20) {
        char enc[8];
        size_t k = utf8_encode((uint32_t)wc, enc);
        if (b->bytes + k <= TF_MAX_TEXT_BYTES)
            b->buf[b->n++] = (wchar_t)wc, b->bytes += k;
        else
            b->cut = true;
    }
    return EDIT_GO_ON;
}

/* The sentence typed becomes t's, and the analysis runs again; a sentence the analysis refuses
 * leaves the old one (the message line says why). */
static void keep(tui *t, const line_buf *b)
{
    char *s = malloc(b->bytes + 1);
    if (!s)
        return;
    size_t o = 0;
    for (size_t i = 0; i < b->n; i++)
        o += utf8_encode((uint32_t)b->buf[i], s + o);
    s[o] = '\0';
    char *old = t->text;
    size_t old_len = t->text_len;
    t->text = s, t->text_len = o;
    if (tui_rerun(t) != 0) {
        free(s);
        t->text = old, t->text_len = old_len;
        return;
    }
    free(old);
    t->msg[0] = '\0';
    if (b->cut) /* the rest of a long paste was refused: say so once more */
        txt_fmt(t->msg, sizeof t->msg, T_M_TEXT_CUT, TF_MAX_TEXT_BYTES);
}

int tui_edit(tui *t)
{
    line_buf b = {.buf = malloc((TF_MAX_TEXT_BYTES + 1) * sizeof(wchar_t))};
    if (!b.buf)
        return TUI_REDRAW;
    /* start from the current sentence */
    for (size_t i = 0; i < t->text_len;) {
        uint32_t cp;
        size_t k = utf8_decode(t->text + i, t->text_len - i, &cp);
        if (!k || b.bytes + k > TF_MAX_TEXT_BYTES)
            break;
        b.buf[b.n++] = (wchar_t)cp;
        b.bytes += k;
        i += k;
    }
    curs_set(1);
    int what = EDIT_GO_ON, react = TUI_REDRAW;
    while (what == EDIT_GO_ON) {
        draw_line(&b);
        wint_t wc;
        int r = get_wch(&wc);
        if (tui_signal()) {
            react = TUI_QUIT;
            break;
        }
        if (r != ERR)
            what = edit_key(&b, r, wc);
    }
    curs_set(0);
    if (what == EDIT_KEEP)
        keep(t, &b);
    free(b.buf);
    return react;
}
