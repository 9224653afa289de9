/* timg_probe.c — the inline-image and animation code of render/ run from the command line, for
 * term_image_test.py (which decodes what it writes with its own decoders and Pillow):
 *
 *   timg_probe detect [TIMEOUT_MS]
 *       term_graphics_detect on standard input/output; the result as one JSON line on stderr
 *   timg_probe encode MODE COLS ROWS CELL_W CELL_H [truecolor] > BYTES
 *       the sample figure (sample_figure.h) drawn at term_image_pixel_size, encoded for MODE
 *       with kitty id 7; pixel modes write the protocol's bytes, symbols write term_image_print;
 *       a JSON line on stderr (pixel size, id); the figure's pixels also go to
 *       $TIMG_PROBE_PNG when set
 *   timg_probe show COL ROW COLS ROWS [erase]
 *       detection, then the sample written over those cells (and erased after a second), for
 *       looking at a real terminal
 *   timg_probe gif OUT.gif FRAMES WIDTH HEIGHT FPS [LOOPS]
 *   timg_probe frames DIR FRAMES WIDTH HEIGHT
 *       FRAMES frames of the sample, the phase advancing by 1/4 position a frame, written as
 *       an animated GIF (atomically) or as numbered PNG frames
 * Exit status 0, or 1 with a sentence on stderr. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "anim.h"
#include "core/tempfile.h"
#include "sample_figure.h"
#include "term_detect.h"
#include "term_image.h"

extern char **environ;

static int fail(const char *what, tf_status st)
{
    fprintf(stderr, "timg_probe: %s: %s (%s)\n", what, tf_status_str(st),
            errno ? strerror(errno) : "-");
    return 1;
}

static int detect(int argc, char **argv)
{
    int timeout = argc > 2 ? atoi(argv[2]) : TERM_DETECT_TIMEOUT_MS;
    term_detect_result r;
    tf_status st = term_graphics_detect((const char *const *)environ, 0, 1, timeout, &r);
    fprintf(stderr,
            "{\"status\": \"%s\", \"mode\": \"%s\", \"forced\": %s, \"asked\": %s, "
            "\"answered\": %s, \"kitty\": %s, \"sixel\": %s, \"cell_w\": %d, \"cell_h\": %d, "
            "\"truecolor\": %s, \"version\": \"%s\", \"why\": \"%s\"}\n",
            st == TF_OK          ? "ok"
            : st == TF_ERR_RANGE ? "range"
                                 : "io",
            timg_mode_name(r.caps.mode), r.forced ? "true" : "false", r.asked ? "true" : "false",
            r.answered ? "true" : "false", r.kitty ? "true" : "false", r.sixel ? "true" : "false",
            r.caps.cell_w, r.caps.cell_h, r.caps.truecolor ? "true" : "false", r.version,
            r.why ? r.why : "");
    return 0;
}

static int encode(int argc, char **argv)
{
    if (argc < 7)
        return fail("encode MODE COLS ROWS CELL_W CELL_H [truecolor]", TF_ERR_RANGE);
    timg_caps caps = {.mode = timg_mode_parse(argv[2]),
                      .cell_w = atoi(argv[5]),
                      .cell_h = atoi(argv[6]),
                      .truecolor = argc > 7};
    int cols = atoi(argv[3]), rows = atoi(argv[4]);
    if (caps.mode == TIMG_MODE_COUNT)
        return fail("unknown mode", TF_ERR_RANGE);
    int w, h;
    term_image_pixel_size(&caps, cols, rows, &w, &h);
    fig_raster r;
    tf_status st = sample_raster(w, h, 0.0, &r);
    if (st != TF_OK)
        return fail("drawing the sample", st);
    const char *png = getenv("TIMG_PROBE_PNG");
    if (png) {
        FILE *fp = fopen(png, "wb");
        fig_meta m = {0};
        if (!fp || fig_png_write(fp, &r, &m) != TF_OK || fclose(fp) != 0)
            return fail("writing TIMG_PROBE_PNG", TF_ERR_IO);
    }
    timg_pixels px = {.data = r.data,
                      .width = r.width,
                      .height = r.height,
                      .stride = r.stride,
                      .format = TIMG_ARGB32};
    term_image img;
    st = term_image_encode(&caps, &px, cols, rows, 7, &img);
    fig_raster_free(&r);
    if (st != TF_OK)
        return fail("encoding", st);
    if (caps.mode == TIMG_SYMBOLS) {
        st = term_image_print(&img, 1);
    } else if (fwrite(img.seq, 1, img.len, stdout) != img.len || fflush(stdout) != 0) {
        st = TF_ERR_IO;
    }
    fprintf(stderr, "{\"px_w\": %d, \"px_h\": %d, \"cols\": %d, \"rows\": %d, \"id\": %u}\n",
            img.px_w, img.px_h, img.cols, img.rows, (unsigned)img.id);
    term_image_free(&img);
    return st == TF_OK ? 0 : fail("writing", st);
}

static int animate(int argc, char **argv, bool gif)
{
    if (argc < 6)
        return fail("gif OUT FRAMES W H FPS [LOOPS] | frames DIR FRAMES W H", TF_ERR_RANGE);
    long frames = atol(argv[3]);
    int w = atoi(argv[4]), h = atoi(argv[5]);
    double fps = argc > 6 ? atof(argv[6]) : 25.0;
    int loops = argc > 7 ? atoi(argv[7]) : 0;
    tempfile af = {0};
    anim_gif *g = NULL;
    anim_dir *d = NULL;
    tf_status st;
    if (gif) {
        if (tempfile_open(&af, argv[2]) != TF_OK)
            return fail(argv[2], TF_ERR_IO);
        const cmap_id maps[] = {CMAP_RDBU};
        tf_rgb pal[256];
        anim_gif_palette(maps, 1, pal);
        st = anim_gif_begin(af.fp, w, h, fps, loops, pal, &g);
    } else {
        st = anim_dir_begin(argv[2], &d);
    }
    fig_meta meta = {.title = "sample", .software = "tfviz test", .params = "sample"};
    for (long i = 0; i < frames && st == TF_OK; i++) {
        fig_raster r;
        st = sample_raster(w, h, 0.25 * (double)i, &r);
        if (st == TF_OK)
            st = gif ? anim_gif_frame(g, &r) : sample_dir_frame(d, &r, &meta);
        fig_raster_free(&r);
    }
    if (gif) {
        if (st == TF_OK)
            st = anim_gif_end(g);
        else
            anim_gif_free(g);
        if (st == TF_OK)
            st = tempfile_commit(&af);
        else
            tempfile_abort(&af);
    } else {
        if (st == TF_OK)
            st = anim_dir_end(d);
        else
            anim_dir_free(d);
    }
    return st == TF_OK ? 0 : fail(argv[2], st);
}

/* Detect, then draw the sample over cols x rows cells at (col, row) with term_image_write on
 * standard output; with "erase", take it away again after a second. Prints what it did on
 * stderr. For looking at a real terminal by eye. */
static int show(int argc, char **argv)
{
    if (argc < 6)
        return fail("show COL ROW COLS ROWS [erase]", TF_ERR_RANGE);
    int col = atoi(argv[2]), row = atoi(argv[3]), cols = atoi(argv[4]), rows = atoi(argv[5]);
    term_detect_result d;
    term_graphics_detect((const char *const *)environ, 0, 1, TERM_DETECT_TIMEOUT_MS, &d);
    fprintf(stderr, "mode %s, cell %d x %d (%s)\n", timg_mode_name(d.caps.mode), d.caps.cell_w,
            d.caps.cell_h, d.why);
    if (d.caps.mode == TIMG_NONE)
        return 0;
    int w, h;
    term_image_pixel_size(&d.caps, cols, rows, &w, &h);
    fig_raster r;
    tf_status st = sample_raster(w, h, 0.0, &r);
    if (st != TF_OK)
        return fail("drawing the sample", st);
    timg_pixels px = {.data = r.data,
                      .width = r.width,
                      .height = r.height,
                      .stride = r.stride,
                      .format = TIMG_ARGB32};
    term_image img;
    st = term_image_encode(&d.caps, &px, cols, rows, 0, &img);
    fig_raster_free(&r);
    if (st == TF_OK)
        st = term_image_write(&img, 1, col, row);
    if (st == TF_OK && argc > 6 && strcmp(argv[6], "erase") == 0) {
        sleep(1);
        st = term_image_erase(1, img.mode, img.id, col, row, cols, rows);
    }
    term_image_free(&img);
    return st == TF_OK ? 0 : fail("showing", st);
}

int main(int argc, char **argv)
{
    int rc = 2;
    if (argc >= 2 && strcmp(argv[1], "detect") == 0)
        rc = detect(argc, argv);
    else if (argc >= 2 && strcmp(argv[1], "encode") == 0)
        rc = encode(argc, argv);
    else if (argc >= 2 && strcmp(argv[1], "show") == 0)
        rc = show(argc, argv);
    else if (argc >= 2 && strcmp(argv[1], "gif") == 0)
        rc = animate(argc, argv, true);
    else if (argc >= 2 && strcmp(argv[1], "frames") == 0)
        rc = animate(argc, argv, false);
    else
        fprintf(stderr, "usage: timg_probe detect|encode|show|gif|frames ...\n");
    fig_release_fonts();
    return rc;
}
