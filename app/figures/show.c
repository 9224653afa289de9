/* show.c — --show FIGURE: one still figure drawn inside the terminal, as wide as the window, and
 * the program ends (a quick look, a notebook in a terminal).
 *
 * The terminal is asked which pictures it shows (render/term_detect: TFVIZ_GRAPHICS forces a
 * mode, tmux and screen get none); the figure is drawn by the code --export uses, at the pixel
 * size of the cells it will cover, encoded (render/term_image) and printed at the cursor. Where
 * no picture can be shown the user is told why and what would work. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "core/err.h"
#include "figures/draw.h"
#include "figures/figures.h"
#include "term_detect.h"
#include "term_image.h"

extern char **environ;

/* $name as a positive number of cells, else fallback. */
static int env_cells(const char *name, int fallback)
{
    const char *s = getenv(name);
    long v = s ? strtol(s, NULL, 10) : 0; /* 0 when it does not start with a number */
    return v > 0 && v <= 100000 ? (int)v : fallback;
}

/* The terminal's size in cells: the window's (standard output), else $COLUMNS and $LINES,
 * else 80 x 24. tty: standard output is a terminal. */
static void window_cells(bool tty, int *cols, int *rows)
{
    struct winsize ws;
    if (tty && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0 && ws.ws_row > 0) {
        *cols = ws.ws_col, *rows = ws.ws_row;
        return;
    }
    *cols = env_cells("COLUMNS", 80);
    *rows = env_cells("LINES", 24);
}

/* Which pictures standard output takes: detection through the terminal (standard input, or
 * /dev/tty when standard input is a pipe). Returns 0, or 2 after saying why none can be
 * shown. */
static int detect(bool tty, const char *name, term_detect_result *r)
{
    int in = STDIN_FILENO, own = -1;
    if (tty && !isatty(STDIN_FILENO) && (own = open("/dev/tty", O_RDWR | O_NOCTTY)) >= 0)
        in = own;
    tf_status st = term_graphics_detect((const char *const *)environ, in,
                                        own >= 0 ? own : STDOUT_FILENO, TERM_DETECT_TIMEOUT_MS, r);
    if (r->asked && !r->answered) /* late replies would be left for the shell */
        term_detect_drain(in, TERM_DETECT_DRAIN_MS);
    if (own >= 0)
        close(own);
    if (st == TF_ERR_RANGE) {
        err_say("%s (got '%s').", r->why, getenv("TFVIZ_GRAPHICS"));
        return 2;
    }
    timg_mode m = r->caps.mode;
    if (m == TIMG_NONE) {
        if (r->reason == TDET_NOT_TTY)
            err_say("--show draws into a terminal and standard output is not one; write a file "
                    "with --export FILE.png, or set TFVIZ_GRAPHICS=kitty, sixel, iterm or "
                    "symbols to send the picture's bytes anyway.");
        else
            err_say("no pictures on this terminal: %s; TFVIZ_GRAPHICS=symbols tfviz --show %s "
                    "draws it in block characters, and --export FILE.png writes it to a file.",
                    r->forced ? "TFVIZ_GRAPHICS=none turns them off" : r->why, name);
        return 2;
    }
    if (!term_image_supports(m)) {
        err_say("this tfviz was built without libchafa (libchafa-dev), so it cannot draw %s "
                "pictures; kitty's work without it, and --export FILE.png writes a file.",
                timg_mode_name(m));
        return 2;
    }
    return 0;
}

int figures_show(const fig_request *req, tf_analysis *a)
{
    bool tty = isatty(STDOUT_FILENO);
    term_detect_result det;
    if (detect(tty, req->name, &det))
        return 2;
    const fig_entry *e = figure_find(req->name); /* figures_check_show found it */
    int cw = det.caps.cell_w > 0 ? det.caps.cell_w : TIMG_DEFAULT_CELL_W;
    int ch = det.caps.cell_h > 0 ? det.caps.cell_h : TIMG_DEFAULT_CELL_H;

    /* 1. the cells: the window's width at the figure's proportions, at most its height less the
     * prompt's line (a picture taller than the window would scroll away) */
    int win_cols, rows;
    window_cells(tty, &win_cols, &rows);
    double pw, ph;
    figure_page_size(req, e, &pw, &ph);
    double aspect = ph / pw; /* height / width */
    int max_rows = rows > 3 ? rows - 2 : 1;
    int cols = win_cols, want = (int)lround(cols * cw * aspect / ch);
    if (want > max_rows) {
        want = max_rows;
        cols = (int)lround(want * ch / (aspect * cw));
    }
    if (want < 1 || cols < 8) {
        err_say("the terminal is too small to show a figure (%d x %d cells); enlarge it or use "
                "--export FILE.png.", win_cols, rows);
        return 2;
    }
    /* a huge window: a smaller picture, within the memory of one (docs/limits.md) */
    term_image_fit(&det.caps, &cols, &want);

    /* 2. the figure at the pixel size of those cells, encoded and printed */
    int w, h;
    term_image_pixel_size(&det.caps, cols, want, &w, &h);
    fig_raster r;
    char why[200];
    tf_status st = figures_raster(req, a, w, h, ch, &r, why, sizeof why);
    if (st != TF_OK) {
        err_say("cannot draw the %s figure: %s.", e->name, why[0] ? why : tf_status_str(st));
        return 2;
    }
    term_image img;
    timg_pixels px = {.data = r.data, .width = r.width, .height = r.height, .stride = r.stride,
                      .format = TIMG_ARGB32};
    st = term_image_encode(&det.caps, &px, cols, want, 0, &img);
    fig_raster_free(&r);
    if (st != TF_OK) {
        err_say("cannot encode the %s figure for the terminal: %s.", e->name,
                tf_status_str(st));
        return 2;
    }
    fflush(stdout);
    st = term_image_print(&img, STDOUT_FILENO);
    term_image_free(&img);
    if (st != TF_OK) {
        err_say("writing the picture failed: %s.", strerror(errno));
        return 1;
    }
    return 0;
}
