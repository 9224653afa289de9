/* pictures.c — the g key: the view's content area shows the figure that --export draws of it,
 * as a real picture (kitty, sixel, iTerm2) or in block symbols, where the terminal can show one;
 * g again brings the text cells back.
 *
 * The terminal is asked once, on the first g (render/term_detect: TFVIZ_GRAPHICS forces a mode,
 * tmux and screen get none), so a terminal that shows no pictures never sees a query and nothing
 * changes there. While a picture covers the area the view draws nothing into it; curses thus
 * keeps blank cells there and never writes over the picture. The picture belongs to one state
 * of the screen (view, analysis, language, size, help overlay): when any of them changes it is
 * taken away first (kitty's image deleted, other modes overwritten with blanks, then the whole
 * screen repainted), so no debris is left, and drawn again for the new state. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "term_detect.h"
#include "term_image.h"
#include "tui/view.h"

extern char **environ;

/* What the picture on screen was drawn for. */
typedef struct {
    int view, cols, lines;
    unsigned generation;
    bool zh;
    const tf_vectors *vectors;
} pic_key;

typedef struct {
    bool asked;     /* the terminal was asked which pictures it shows */
    bool on;        /* g is on */
    timg_caps caps; /* what it shows */
    txt_id why;     /* why it shows none (T_PIC_WHY_*) */
    bool shown;     /* a picture is on the screen, drawn for key */
    pic_key key;
    term_image img; /* the picture on screen (kept for its id and cells) */
    int col, row;
} tui_pictures;

static tui_pictures pictures; /* one terminal, one explorer */

static pic_key current_key(const tui *t)
{
    return (pic_key){.view = t->view, .cols = COLS, .lines = LINES, .generation = t->generation,
                     .zh = txt_is_zh(), .vectors = t->cfg.vectors};
}

static bool same_key(const pic_key *a, const pic_key *b)
{
    return a->view == b->view && a->cols == b->cols && a->lines == b->lines &&
           a->generation == b->generation && a->zh == b->zh && a->vectors == b->vectors;
}

/* Why no picture can be shown here, in the interface's words. */
static txt_id why_none(const term_detect_result *r)
{
    switch (r->reason) {
    case TDET_MULTIPLEXER: return T_PIC_WHY_TMUX;
    case TDET_NOT_TTY: return T_PIC_WHY_NOT_TTY;
    case TDET_DUMB: return T_PIC_WHY_DUMB;
    case TDET_SILENT: return T_PIC_WHY_SILENT;
    case TDET_NO_CELL_SIZE: return T_PIC_WHY_NO_CELL;
    case TDET_NO_PICTURES: return T_PIC_WHY_NO_PICTURES;
    case TDET_FORCED: return T_PIC_WHY_FORCED_NONE;
    case TDET_BAD_FORCE: return T_PIC_WHY_BAD_FORCE;
    default: return T_PIC_WHY_OTHER;
    }
}

/* Take the picture away, if one is shown, and have curses repaint the whole screen. */
static void take_away(void)
{
    if (!pictures.shown)
        return;
    term_image_erase(STDOUT_FILENO, pictures.img.mode, pictures.img.id, pictures.col,
                     pictures.row, pictures.img.cols, pictures.img.rows);
    term_image_free(&pictures.img);
    pictures.shown = false;
    clearok(curscr, TRUE);
}

int tui_pictures_key(tui *t)
{
    if (pictures.on) {
        pictures.on = false;
        take_away();
        snprintf(t->msg, sizeof t->msg, "%s", txt(T_PIC_OFF));
        return TUI_REDRAW;
    }
    if (t->lesson) {
        snprintf(t->msg, sizeof t->msg, "%s", txt(T_PIC_LESSON));
        return TUI_REDRAW;
    }
    if (!pictures.asked) {
        term_detect_result r;
        term_graphics_detect((const char *const *)environ, STDIN_FILENO, STDOUT_FILENO,
                             TERM_DETECT_TIMEOUT_MS, &r);
        pictures.asked = true;
        pictures.caps = r.caps;
        txt_id why = 0;
        bool none = true;
        const char *nc = getenv("NO_COLOR");
        if (r.caps.mode == TIMG_NONE)
            why = why_none(&r);
        else if (!term_image_supports(r.caps.mode))
            why = T_PIC_WHY_NO_CHAFA;
        else if (r.caps.mode == TIMG_SYMBOLS && !t->utf8)
            why = T_PIC_WHY_ASCII;
        else if (r.caps.mode == TIMG_SYMBOLS && (t->req->no_color || (nc && *nc)))
            why = T_PIC_WHY_NO_COLOR;
        else
            none = false;
        if (none) {
            pictures.caps.mode = TIMG_NONE;
            pictures.why = why;
        }
    }
    if (pictures.caps.mode == TIMG_NONE) {
        txt_fmt(t->msg, sizeof t->msg, T_PIC_NONE, txt(pictures.why));
        return TUI_REDRAW;
    }
    if (!tui_views[t->view]->figure || !t->req->raster) {
        snprintf(t->msg, sizeof t->msg, "%s", txt(T_PIC_NO_FIGURE));
        return TUI_REDRAW;
    }
    pictures.on = true;
    txt_fmt(t->msg, sizeof t->msg, T_PIC_ON, timg_mode_name(pictures.caps.mode));
    return TUI_REDRAW;
}

bool tui_pictures_cover(const tui *t)
{
    return pictures.on && !t->help && !t->lesson && tui_views[t->view]->figure &&
           COLS >= 60 && LINES >= 20;
}

void tui_pictures_before(tui *t)
{
    if (!pictures.shown)
        return;
    pic_key k = current_key(t);
    if (!tui_pictures_cover(t) || !same_key(&k, &pictures.key))
        take_away();
}

bool tui_pictures_after(tui *t)
{
    if (!tui_pictures_cover(t) || pictures.shown || t->area_rows < 2 || t->area_cols < 8)
        return false;
    fig_request req;
    int r = tui_view_figure(t, &req);
    char why[200] = "";
    tf_status st = TF_ERR_RANGE;
    term_image img = {0};
    if (r == TUI_IGNORED) {
        int w, h;
        term_image_pixel_size(&pictures.caps, t->area_cols, t->area_rows, &w, &h);
        fig_raster px;
        int ch = pictures.caps.cell_h > 0 ? pictures.caps.cell_h : TIMG_DEFAULT_CELL_H;
        st = t->req->raster(&req, t->a, w, h, ch, &px, why, sizeof why);
        if (st == TF_OK) {
            timg_pixels p = {.data = px.data, .width = px.width, .height = px.height,
                             .stride = px.stride, .format = TIMG_ARGB32};
            st = term_image_encode(&pictures.caps, &p, t->area_cols, t->area_rows, 0, &img);
            fig_raster_free(&px);
        }
        if (st == TF_OK) {
            st = term_image_write(&img, STDOUT_FILENO, t->area_x, t->area_y);
            if (st != TF_OK)
                term_image_free(&img);
        }
    }
    if (st != TF_OK) { /* the text cells again, and the reason on the message line */
        pictures.on = false;
        txt_fmt(t->msg, sizeof t->msg, T_PIC_FAILED, why[0] ? why : txt_status(st));
        return true;
    }
    pictures.img = img;
    pictures.shown = true;
    pictures.key = current_key(t);
    pictures.col = t->area_x, pictures.row = t->area_y;
    return false;
}

void tui_pictures_end(void)
{
    pictures.on = false;
    if (pictures.shown) {
        term_image_erase(STDOUT_FILENO, pictures.img.mode, pictures.img.id, pictures.col,
                         pictures.row, pictures.img.cols, pictures.img.rows);
        term_image_free(&pictures.img);
        pictures.shown = false;
    }
}
