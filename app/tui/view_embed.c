/* view_embed.c — view 1: tokens -> ids -> one-hot -> row of W_E (claims C1-C4, C12). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "embedding.h"
#include "textwidth.h"
#include "tui/statusline.h"
#include "tui/view.h"

#define STRIP_COLS 16 /* columns of the W_E strip */

/* The view's own state: the one-hot check c made, and for which analysis. */
typedef struct {
    double onehot_diff; /* max |onehot . W_E - row|, -1: not checked yet */
    unsigned onehot_gen;
    bool echo;          /* the lesson's message line says the result when it comes */
} embed_state;

/* c's check the long way (V x d_model multiply-adds: half a second at 100,000 x 4096) on the
 * worker (work.c), with its own analysis of the sentence. */
typedef struct {
    tf_analysis a;
    double diff;
    tf_status st;
} check_job;

static bool check_run(void *ctx, const atomic_bool *cancel)
{
    check_job *j = ctx;
    if (atomic_load(cancel))
        return false;
    j->st = analysis_onehot_check(&j->a, &j->diff);
    return true;
}

static void check_drop(void *ctx)
{
    check_job *j = ctx;
    analysis_free(&j->a);
    free(j);
}

static const work_kind check_kind = {check_run, check_drop};

/* A finished check for the analysis on screen into the state: true when one came. */
static bool check_take(tui *t, embed_state *e)
{
    check_job *j = work_take(e, t->generation);
    if (!j)
        return false;
    if (j->st == TF_OK) {
        e->onehot_diff = j->diff;
        e->onehot_gen = t->generation;
        if (e->echo && t->lesson)
            txt_fmt(t->msg, sizeof t->msg, T_E_CHECK, e->onehot_diff);
    }
    e->echo = false;
    check_drop(j);
    return true;
}

/* While no key comes: a check that finished is drawn (the lesson's layouts may not draw the
 * panel, so its message line says the result). */
static int tick(tui *t, void *state)
{
    embed_state *e = state;
    return e && check_take(t, e) ? TUI_REDRAW : TUI_IGNORED;
}

/* c: start the check; a small one is waited for, so its line comes with this key's frame. */
static void check_start(tui *t, embed_state *e)
{
    check_job *j = calloc(1, sizeof *j);
    if (!j || analysis_run(&t->cfg_shown, t->text, t->text_len, &j->a, NULL) != TF_OK) {
        free(j);
        return;
    }
    double work = (double)j->a.emb.vocab_size * t->a->cfg.d_model;
    work_submit(e, t->generation, &check_kind, j);
    e->echo = work >= 1e7;
    if (work < 1e7)
        work_wait(e, t->generation, WORK_QUICK_MS);
    (void)check_take(t, e);
}

static void *init(tui *t)
{
    (void)t;
    embed_state *e = calloc(1, sizeof *e);
    if (e)
        e->onehot_diff = -1.0;
    return e;
}

static bool checked(const tui *t, const embed_state *e)
{
    return e && e->onehot_gen == t->generation && e->onehot_diff >= 0;
}

static const char *grouped(unsigned long v, char *buf, size_t cap)
{
    char tmp[32];
    int n = snprintf(tmp, sizeof tmp, "%lu", v), o = 0;
    for (int i = 0; i < n && (size_t)o + 2 < cap; i++) {
        if (i && (n - i) % 3 == 0)
            buf[o++] = ',';
        buf[o++] = tmp[i];
    }
    buf[o] = '\0';
    return buf;
}

/* The id under a token box; a token outside the vocabulary says it became [UNK], a piece of a
 * longer word carries the mark of the legend (~ split, * fallback; as in --print tokens). */
static void id_label(const tf_token *k, char *buf, size_t cap)
{
    if (k->flags & TOKEN_UNK)
        snprintf(buf, cap, "%d [UNK]", k->id);
    else
        snprintf(buf, cap,
                 k->flags & TOKEN_SPLIT      ? "%d~"
                 : k->flags & TOKEN_FALLBACK ? "%d*"
                                             : "%d",
                 k->id);
}

/* The legend of the marks under the boxes, when a token carries one; without the English word
 * list, a Latin word in letters says why. */
static void draw_legend(tui *t, WINDOW *w, int y, int x, int cols)
{
    const tf_tokens *tk = &t->a->tokens;
    int marked = 0, latin = 0;
    for (size_t i = 0; i < tk->n; i++) {
        const tf_token *k = &tk->items[i];
        unsigned char c = (unsigned char)t->a->text[k->start];
        marked |= (k->flags & (TOKEN_SPLIT | TOKEN_FALLBACK)) != 0;
        latin |= (k->flags & TOKEN_FALLBACK) && k->end - k->start == 1 &&
                 ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'));
    }
    if (!marked)
        return;
    term_attr(w, A_DIM, 0);
    tui_say(w, y, x, cols,
            latin && tk->kind == TOKENIZER_WORD && vocab_english_words(t->a->vocab) == 0
                ? T_E_NO_ENGLISH
                : T_E_LEGEND);
    term_attr(w, A_NORMAL, 0);
}

/* Token boxes with ids below; returns the x where each box starts through xs (T). */
static void draw_boxes(tui *t, WINDOW *w, int y, int x, int cols)
{
    size_t T = t->a->tokens.n, first = 0;
    char tok[256], id[32];
    /* scroll so the selected token is visible */
    for (;;) {
        int need = 0;
        for (size_t i = first; i <= t->tok && i < T; i++) {
            id_label(&t->a->tokens.items[i], id, sizeof id);
            int tw = term_text_width(tui_token(t, i, tok, sizeof tok));
            int bw = (tw > (int)strlen(id) ? tw : (int)strlen(id)) + 4;
            need += bw + 1;
        }
        if (need <= cols || first >= t->tok)
            break;
        first++;
    }
    int cx = x;
    for (size_t i = first; i < T; i++) {
        const tf_token *k = &t->a->tokens.items[i];
        id_label(k, id, sizeof id);
        tui_token(t, i, tok, sizeof tok);
        int tw = term_text_width(tok), iw = (int)strlen(id);
        int inner = (tw > iw ? tw : iw) + 2;
        if (cx + inner + 2 > x + cols)
            break;
        bool sel = i == t->tok;
        term_attr(w, sel ? A_BOLD : A_NORMAL, 0);
        mvwaddch(w, y, cx, '+');
        mvwaddch(w, y + 2, cx, '+');
        for (int j = 1; j <= inner; j++) {
            mvwaddch(w, y, cx + j, sel ? '=' : '-');
            mvwaddch(w, y + 2, cx + j, sel ? '=' : '-');
        }
        mvwaddch(w, y, cx + inner + 1, '+');
        mvwaddch(w, y + 2, cx + inner + 1, '+');
        mvwaddch(w, y + 1, cx, '|');
        mvwaddch(w, y + 1, cx + inner + 1, '|');
        term_attr(w, sel ? A_REVERSE | A_BOLD : A_BOLD, 0);
        for (int j = 1; j <= inner; j++)
            mvwaddch(w, y + 1, cx + j, ' ');
        term_text(w, y + 1, cx + 1 + (inner - tw) / 2, tok, tw);
        term_attr(w, sel ? A_BOLD : A_NORMAL, 0);
        term_text(w, y + 3, cx + 1 + (inner - iw) / 2, id, iw);
        term_attr(w, A_NORMAL, 0);
        cx += inner + 3;
    }
}

typedef struct {
    const float *grid; /* (rows, cols) */
    int cols;
} grid_ctx;

static double grid_px(void *ctx, int py, int px)
{
    const grid_ctx *g = ctx;
    return g->grid[(size_t)py * g->cols + px];
}

static double row_px(void *ctx, int py, int px)
{
    (void)py;
    const grid_ctx *g = ctx;
    return g->grid[px];
}

/* The one-hot vector of the selected token at row oy: V entries compressed into the width, the
 * single 1 marked and labelled. The token's text goes into tok. */
static void draw_onehot(tui *t, WINDOW *w, int oy, int x, int cols, char *tok, size_t tok_cap)
{
    const tf_analysis *a = t->a;
    uint32_t V = a->emb.vocab_size;
    const tf_token *k = &a->tokens.items[t->tok];
    char b1[64];
    int ow = cols - 12;
    /* one 1 and V - 1 zeros */
    tui_fit_f(w, oy, x + 1, cols - 2,
              k->flags & TOKEN_UNK ? txtf(T_E_ONEHOT_UNK) : txtf(T_E_ONEHOT), txtf(T_E_ONEHOT_S),
              tui_token(t, t->tok, tok, tok_cap), k->id, grouped(V > 0 ? V - 1 : 0, b1, sizeof b1));
    long one = (long)((double)k->id * ow / V);
    mvwaddch(w, oy + 1, x + 1, '[');
    for (int i = 0; i < ow; i++) {
        term_attr(w, i == one ? A_BOLD | A_REVERSE : A_DIM, 0);
        mvwaddch(w, oy + 1, x + 2 + i, i == one ? '1' : '0');
    }
    term_attr(w, A_NORMAL, 0);
    mvwaddch(w, oy + 1, x + 2 + ow, ']');
    char lab[48];
    snprintf(lab, sizeof lab, "^ %d", k->id);
    int lx = x + 2 + (int)one;
    if (lx + (int)strlen(lab) > x + cols - 1)
        snprintf(lab, sizeof lab, "%d ^", k->id), lx = x + 3 + (int)one - (int)strlen(lab);
    term_text(w, oy + 2, lx, lab, cols - lx);
}

/* The W_E strip, h rows from sy, sc columns (its title cut to cols): pixel row r stands for id r*V/(2h), column c for
 * dimension c*d/sc; the selected token's row marked. row (d floats) is scratch. false: no
 * memory, nothing drawn. */
static bool draw_strip(const tf_analysis *a, const tf_token *k, WINDOW *w, int sy, int x,
                       int cols, int h, int sc, float *row)
{
    int d = a->cfg.d_model;
    uint32_t V = a->emb.vocab_size;
    float s = a->emb.init_scale;
    float *grid = malloc((size_t)2 * h * sc * sizeof *grid);
    if (!grid)
        return false;
    for (int r = 0; r < 2 * h; r++) {
        embedding_row(&a->emb, (int32_t)((double)r * V / (2 * h)), row);
        for (int c = 0; c < sc; c++)
            grid[(size_t)r * sc + c] = row[(size_t)c * d / sc];
    }
    char b1[64];
    term_attr(w, A_BOLD, 0);
    term_printf(w, sy - 1, x + 1, cols - 2, "W_E  %s x %d", grouped(V, b1, sizeof b1), d);
    term_attr(w, A_NORMAL, 0);
    grid_ctx g = {grid, sc};
    term_heatmap(w, sy, x + 3, h, sc, grid_px, &g, CMAP_RDBU, -s, s);
    int mark = (int)((double)k->id * h / V);
    term_attr(w, A_BOLD, 0);
    mvwaddch(w, sy + mark, x + 2, '>');
    mvwaddch(w, sy + mark, x + 3 + sc, '<');
    term_attr(w, A_NORMAL, 0);
    free(grid);
    return true;
}

/* The extracted row k of W_E at (ry, rx), rw wide: a colour bar and as many values as fit on
 * two lines; with big (--big) no values, the bar three rows tall instead. */
static void draw_row_values(const tf_analysis *a, int32_t id, const float *row, WINDOW *w,
                            int ry, int rx, int rw, bool big)
{
    int d = a->cfg.d_model;
    float s = a->emb.init_scale;
    term_attr(w, A_BOLD, 0);
    tui_fit(w, ry, rx, rw, T_E_ROW, T_E_ROW_S, id, d);
    term_attr(w, A_NORMAL, 0);
    int bw = rw < d ? rw : d;
    float *bar = malloc((size_t)bw * sizeof *bar);
    if (bar) {
        for (int c = 0; c < bw; c++)
            bar[c] = row[(size_t)c * d / bw];
        grid_ctx gb = {bar, bw};
        term_heatmap(w, ry + 1, rx, big ? 3 : 1, bw, row_px, &gb, CMAP_RDBU, -s, s);
        free(bar);
    }
    if (big)
        return;
    int vx = rx, vy = ry + 2;
    term_text(w, vy, vx, "[", 1);
    vx++;
    for (int j = 0; j < d; j++) {
        char v[24];
        snprintf(v, sizeof v, "%+.4f ", row[j]);
        if (vx + (int)strlen(v) + 4 > rx + rw) {
            if (vy == ry + 3) {
                term_text(w, vy, vx, "...]", 4);
                break;
            }
            vy++, vx = rx + 1;
        }
        term_attr(w, A_NORMAL, term_value_pair(CMAP_RDBU, row[j], -s, s));
        vx += term_text(w, vy, vx, v, (int)strlen(v));
        term_attr(w, A_NORMAL, 0);
        if (j == d - 1)
            term_text(w, vy, vx - 1, "]", 1);
    }
}

/* Below the row, as the h rows allow: where it comes from, the size and memory of W_E, the
 * one-hot check and the pipeline. */
static void draw_row_notes(tui *t, const embed_state *e, WINDOW *w, int ry, int rx, int rw,
                           int h)
{
    const tf_analysis *a = t->a;
    const tf_token *k = &a->tokens.items[t->tok];
    char b1[64], b2[64], b3[64];
    if (h >= 4 && a->emb.n_set) {
        bool set = embedding_row_is_set(&a->emb, k->id);
        term_attr(w, A_BOLD, 0);
        tui_say(w, ry + 4, rx, rw, set ? T_E_ROW_SET : T_E_ROW_RANDOM);
        term_attr(w, A_NORMAL, 0);
    }
    if (h >= 5) {
        double params = embedding_params(&a->emb);
        term_printf(w, ry + 5, rx, rw, txtf(T_E_SIZE), grouped(a->emb.vocab_size, b1, sizeof b1),
                    a->cfg.d_model, tui_human(params, b2, sizeof b2));
        if (a->emb.n_set) /* say which rows are trained, not "random until trained" */
            term_printf(w, ry + 6, rx, rw, txtf(T_E_MEM_SET), tui_human(params * 4, b2, sizeof b2),
                        tui_human(params * 2, b3, sizeof b3), a->emb.n_set);
        else
            term_printf(w, ry + 6, rx, rw, txtf(T_E_MEM), tui_human(params * 4, b2, sizeof b2),
                        tui_human(params * 2, b3, sizeof b3));
    }
    if (h >= 7) {
        if (checked(t, e))
            term_printf(w, ry + 7, rx, rw, txtf(T_E_CHECK), e->onehot_diff);
        else if (e && work_pending(e, t->generation))
            work_say(t, w, ry + 7, rx, rw);
        else
            tui_say(w, ry + 7, rx, rw, T_E_CHECK_NONE);
    }
    /* the article's scale, whatever d_model is on screen: where the row 4 is free (no trained
     * rows) or under the check */
    int ay = h >= 8 ? ry + 8 : !a->emb.n_set && h >= 4 ? ry + 4 : -1;
    if (ay >= 0) {
        double big = 100000.0 * 4096.0;
        if (txt_is_zh())
            snprintf(b1, sizeof b1, "约 %.1f 亿", big / 1e8);
        else
            tui_human(big, b1, sizeof b1);
        term_printf(w, ay, rx, rw, txtf(T_E_ARTICLE), b1, tui_human(big * 4, b2, sizeof b2));
    }
    if (h >= 9)
        tui_say(w, ry + 9, rx, rw, T_E_PIPE);
}

static void draw(tui *t, void *state, WINDOW *w, int y, int x, int rows, int cols)
{
    embed_state *e = state;
    if (e)
        (void)check_take(t, e);
    tf_analysis *a = t->a;
    int d = a->cfg.d_model;
    const tf_token *k = &a->tokens.items[t->tok];
    char tok[256];

    term_printf(w, y, x + 1, cols - 2, txtf(T_E_TOKENS), tokenizer_name(a->tokens.kind),
                a->emb.vocab_size);
    draw_boxes(t, w, y + 1, x + 1, cols - 2);
    draw_legend(t, w, y + 5, x + 1, cols - 2);
    int oy = y + 6;
    draw_onehot(t, w, oy, x, cols, tok, sizeof tok);

    int sy = oy + 4, h = rows - (sy - y) - 1;
    if (h < 3)
        return;
    int sc = d < STRIP_COLS ? d : STRIP_COLS;
    float *row = malloc((size_t)d * sizeof *row);
    if (!row || !draw_strip(a, k, w, sy, x, cols, h, sc, row)) {
        free(row);
        return;
    }
    int rx = x + sc + 6, rw = cols - (sc + 6) - 2;
    embedding_row(&a->emb, k->id, row);
    draw_row_values(a, k->id, row, w, sy, rx, rw, t->big);
    draw_row_notes(t, e, w, sy, rx, rw, h);
    char shown[64]; /* a long token is cut between characters, never inside one */
    tw_cut(shown, sizeof shown, tok, strlen(tok), 16, t->utf8 ? "\u2026" : "...");
    snprintf(t->cursor, sizeof t->cursor, "%s id=%d W_E[%d][0]=%+.6f", shown, k->id, k->id,
             row[0]);
    free(row);
}

static int key(tui *t, void *state, int ch)
{
    embed_state *e = state;
    switch (ch) {
    case KEY_LEFT:
    case KEY_UP:
        return tui_step_token(t, -1);
    case KEY_RIGHT:
    case KEY_DOWN:
        return tui_step_token(t, +1);
    case 'c':
        if (e && !checked(t, e))
            check_start(t, e);
        return TUI_REDRAW;
    default:
        return TUI_IGNORED;
    }
}

static int click(tui *t, void *state, int y, int x)
{
    (void)state;
    (void)x;
    if (y < 1 || y > 4)
        return TUI_IGNORED;
    /* find the box under the pointer by walking the same layout */
    char tok[256], id[32];
    int cx = 1;
    for (size_t i = 0; i < t->a->tokens.n; i++) {
        snprintf(id, sizeof id, "%d", t->a->tokens.items[i].id);
        int tw = term_text_width(tui_token(t, i, tok, sizeof tok)), iw = (int)strlen(id);
        int inner = (tw > iw ? tw : iw) + 2;
        if (x >= cx && x <= cx + inner + 1) {
            t->tok = i;
            return TUI_REDRAW;
        }
        cx += inner + 3;
    }
    return TUI_IGNORED;
}

/* The check's result, for the lesson's message line (its layouts may not show the panel). */
static bool result(tui *t, void *state, char *buf, size_t cap)
{
    const embed_state *e = state;
    if (!checked(t, e))
        return false;
    txt_fmt(buf, cap, T_E_CHECK, e->onehot_diff);
    return true;
}

const tui_view view_embed = {
    .figure = "embedding", .tab = T_TAB_EMBED, .caption = T_CAP_EMBED, .keys = T_KEYS_EMBED,
    .needs = 0, .init = init, .free = free, .draw = draw, .key = key, .click = click,
    .tick = tick, .result = result,
};
