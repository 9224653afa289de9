/* editor.c — the line editor on the message line: wide characters from get_wch(), so input
 * methods work. Enter keeps the line, Esc cancels, Ctrl-U clears. A line may hold as many
 * characters as the documented text limit allows (TF_MAX_TEXT_BYTES in UTF-8; docs/limits.md);
 * what goes beyond is refused, and the line below says so. The sentence is edited with it (/),
 * and so is view 6's second word order (c). */
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
    int what = EDIT_GO_ON;
    while (what == EDIT_GO_ON) {
        draw_line(&b);
        wint_t wc;
        int r = get_wch(&wc);
        if (tui_signal()) {
            *quit = true;
            break;
        }
        if (r != ERR)
            what = edit_key(&b, r, wc);
    }
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
