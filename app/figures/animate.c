/* animate.c — an animation of the table (export.c) as a GIF file (render/anim_gif: one fixed
 * palette of the series colours, their tints and greys) or as numbered PNG frames in a folder
 * (frame_0001.png, ...), every file written through core/outfile (a temporary file beside it,
 * renamed when complete).
 *
 * Frame k of n is drawn on a raster page of the page's size in pixels (--width, --height at
 * --dpi): the pixels a still PNG of that page would hold. The same request gives the same bytes.
 * A folder's frames are replaced one by one, each atomically; frames numbered past the new end
 * (left by a longer earlier animation) are removed only after every new frame was written, so
 * an interrupted export leaves complete frames, the first ones new. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anim.h"
#include "core/err.h"
#include "core/outfile.h"
#include "core/progress.h"
#include "figures/draw.h"
#include "tf_config.h"

/* What every frame shares. */
typedef struct {
    const fig_request *req;
    tf_analysis *a;
    const fig_entry *e;
    void *state;        /* the animation's own, from its begin */
    long n;             /* frames */
    double fps;
    double w, h, font;  /* the page in points, the label size */
    int px_w, px_h;     /* the frame in pixels */
    fig_meta meta;
    char why[200];      /* why a frame could not be drawn */
    tf_progress progress;
} anim_job;

/* The pixels of a frame of e on a w x h point page: what a still PNG of that page would hold. */
static void frame_pixels(const fig_request *req, const fig_entry *e, double w, double h,
                         int *px_w, int *px_h)
{
    double dpi = figure_dpi(req, e);
    *px_w = (int)lround(w * dpi / FIG_PT_PER_IN);
    *px_h = (int)lround(h * dpi / FIG_PT_PER_IN);
}

/* Frame f of j laid out, not drawn, on the page the export gives width points: the height
 * --height, else a slide's proportions, and the pixels the drawn frame snaps to. Whether its
 * labels fit; *need what the page asks for when they do not. A frame that fails for another
 * reason (memory) counts as fitting: drawing it says why. */
static bool frame_fits(anim_job *j, double width, long f, fig_need *need)
{
    fig_request r = *j->req;
    r.width = width;
    double w, h;
    int px_w, px_h;
    figure_page_size(&r, j->e, &w, &h);
    frame_pixels(j->req, j->e, w, h, &px_w, &px_h);
    fig_spec spec = {.format = FIG_PNG, .width = w, .height = h,
                     .dpi = fmin(px_w / w, px_h / h) * FIG_PT_PER_IN, .font_size = j->font,
                     .latin_first = !j->req->zh, .measure = true, .need_out = need};
    bool cramped;
    char why[8];
    return figure_page(j->req, j->a, j->e, &spec, &(fig_meta){0},
                       &(fig_frame){.state = j->state, .k = f, .n = j->n}, &cramped, why,
                       sizeof why) != TF_OK || !cramped;
}

/* The first frame of j from frame from on (then from the first) that does not fit on the page
 * width points wide, *need what it asks for; -1 when all fit. */
static long first_cramped(anim_job *j, double width, long from, fig_need *need)
{
    for (long i = 0; i < j->n; i++)
        if (!frame_fits(j, width, (from + i) % j->n, need))
            return (from + i) % j->n;
    return -1;
}

double figure_frames_font(const fig_request *req, tf_analysis *a, const fig_entry *e,
                          void *state, long n)
{
    anim_job j = {.req = req, .a = a, .e = e, .state = state, .n = n};
    figure_page_size(req, e, &j.w, &j.h);
    double asked = req->font_size > 0 ? req->font_size : FIG_DEFAULT_FONT_PT, sizes[5] = {asked};
    size_t count = 1 + figure_smaller_fonts(asked, sizes + 1);
    long from = 0; /* the frame that did not fit the size before: the likeliest not to */
    for (size_t s = 0; s < count; s++) {
        j.font = sizes[s];
        if ((from = first_cramped(&j, j.w, from, NULL)) < 0)
            return j.font;
    }
    return asked; /* none holds every frame: a frame then refuses, naming a width */
}

/* The width (points) to name when frame k of j does not fit its page, from the measurements:
 * grown by what the frame asks for (figure_width_grown) until it holds the frame, then narrowed
 * by halves to within a fiftieth of the least that does (a plot's need is against its own box,
 * and the title and ticks beside it do not grow with the page: the page needs less), and
 * confirmed with every frame from this one on (its neighbours look alike); a frame that does
 * not fit is the next one, from there. 0 when none fits up to 40 in. */
static double width_that_fits(anim_job *j, long k)
{
    double lo = j->w, hi;
    fig_need need;
    frame_fits(j, lo, k, &need);
    for (;;) {
        while ((hi = figure_width_grown(lo, need, j->req->height > 0)) > 0 &&
               !frame_fits(j, hi, k, &need))
            lo = hi;
        if (!(hi > 0))
            return 0;
        while ((hi - lo) * 50 > hi && hi - lo > FIG_PT_PER_IN / 100) {
            double mid = round((lo + hi) / 2 / (FIG_PT_PER_IN / 100)) * (FIG_PT_PER_IN / 100);
            *(frame_fits(j, mid, k, &need) ? &hi : &lo) = mid;
        }
        if ((k = first_cramped(j, hi, k, &need)) < 0)
            return hi;
        lo = hi;
    }
}

/* Why frame k's labels do not fit, with the least width at which they would. */
static void say_cramped(anim_job *j, long k)
{
    double in = width_that_fits(j, k) / FIG_PT_PER_IN;
    char named[96];
    snprintf(named, sizeof named,
             "; they need about %.2f in (--width %.2fin), or a smaller --font-size", in, in);
    snprintf(j->why, sizeof j->why, "the labels at %g pt do not fit on a %.2f x %.2f in frame%s",
             j->font, j->w / FIG_PT_PER_IN, j->h / FIG_PT_PER_IN,
             in > 0 ? named
             : j->req->height > 0 /* the height set is what is short */
                 ? " at any width with this --height; give a taller --height, or leave it out "
                   "(the height then follows the width)"
                 : " at any width up to 40 in; lower --font-size");
}

/* Frame k into *r (freed by the caller with fig_raster_free). */
static tf_status draw_frame(anim_job *j, long k, fig_raster *r)
{
    *r = (fig_raster){.width = j->px_w, .height = j->px_h};
    fig_spec spec = {.format = FIG_PNG, .width = j->w, .height = j->h, .font_size = j->font,
                     .latin_first = !j->req->zh, .raster = r};
    bool cramped;
    tf_status st = figure_page(j->req, j->a, j->e, &spec, &j->meta,
                               &(fig_frame){.state = j->state, .k = k, .n = j->n}, &cramped,
                               j->why, sizeof j->why);
    if (cramped)
        say_cramped(j, k);
    progress_update(&j->progress, (double)(k + 1), NULL);
    return st;
}

/* The frames as one GIF file. Exit status. */
static int to_gif(anim_job *j)
{
    outfile out;
    if (outfile_open(&out, j->req->path, "for --export"))
        return 1;
    tf_rgb palette[256];
    anim_gif_palette(NULL, 0, palette);
    anim_gif *g = NULL;
    tf_status st = anim_gif_begin(out.fp, j->px_w, j->px_h, j->fps, 0, palette, &g);
    for (long k = 0; st == TF_OK && k < j->n; k++) {
        fig_raster r;
        st = draw_frame(j, k, &r);
        if (st == TF_OK)
            st = anim_gif_frame(g, &r);
        fig_raster_free(&r);
    }
    if (st == TF_OK) {
        st = anim_gif_end(g);
    } else if (g) {
        int e = errno;
        anim_gif_free(g);
        errno = e;
    }
    return outfile_close(&out, st) ? 1 : st == TF_OK ? 0 : -(int)st;
}

/* The frames as PNG files in the folder j->req->path. Exit status. */
static int to_folder(anim_job *j)
{
    const char *dir = j->req->path;
    anim_dir *d;
    tf_status st = anim_dir_begin(dir, &d);
    if (st != TF_OK) {
        err_say("cannot write frames into %s: %s; name a folder that exists or can be made "
                "(its parent must exist) for --export DIR/.", dir, strerror(errno));
        return 1;
    }
    for (long k = 0; k < j->n; k++) {
        fig_raster r;
        int rc = -(int)draw_frame(j, k, &r); /* 0: drawn */
        /* a frame that cannot be written: the sentence says that those before it are */
        char kept[120], hint[160];
        snprintf(kept, sizeof kept, "frames 1 to %ld of this export are written, frame %ld and "
                 "those after it are not", k, k + 1);
        snprintf(hint, sizeof hint, "for --export (%s)", kept);
        outfile out;
        if (!rc && outfile_open(&out, anim_dir_next(d), k > 0 ? hint : "for --export"))
            rc = 1;
        if (!rc) {
            out.kept = k > 0 ? kept : NULL;
            st = fig_png_write(out.fp, &r, &j->meta);
            rc = outfile_close(&out, st) ? 1 : st == TF_OK ? 0 : -(int)st;
        }
        fig_raster_free(&r);
        if (rc) {
            anim_dir_free(d);
            return rc;
        }
        anim_dir_written(d);
    }
    if (anim_dir_end(d) != TF_OK) {
        err_say("the %ld frames are written, but older frames past frame_%04ld.png in %s could "
                "not be removed: %s.", j->n, j->n, dir, strerror(errno));
        return 1;
    }
    return 0;
}

int figure_animate(const fig_request *req, tf_analysis *a, const fig_entry *e)
{
    const fig_anim *an = e->anim;
    bool folder = figure_is_folder(req->path);
    if (!folder && !anim_gif_available()) {
        err_say("this tfviz was built without giflib (libgif-dev), so it writes no GIF files; "
                "export the frames to a folder instead (--export DIR/).");
        return 2;
    }
    anim_job j = {.req = req, .a = a, .e = e,
                  .n = req->frames > 0 ? req->frames : an->frames,
                  .fps = req->fps > 0 ? req->fps : an->fps,
                  .font = req->font_size > 0 ? req->font_size : FIG_DEFAULT_FONT_PT};
    figure_page_size(req, e, &j.w, &j.h);
    frame_pixels(req, e, j.w, j.h, &j.px_w, &j.px_h);

    /* 1. what the frames share (training: the whole run, snapshot by snapshot) */
    fig_ctx c = figure_ctx(req, a);
    tf_status st = an->begin ? an->begin(&c, j.n, &j.state) : TF_OK;
    if (st != TF_OK) {
        if (!c.said)
            err_say("cannot draw the %s animation: %s.", e->name,
                    c.msg[0] ? c.msg : tf_status_str(st));
        return 2;
    }

    /* 2. the label size; the frames, into the file or the folder */
    double asked = j.font;
    j.font = figure_frames_font(req, a, e, j.state, j.n);
    char *params = figure_params(req, a, e, folder ? "FRAMES/" : "FIGURE.gif", j.w, j.h,
                                 figure_dpi(req, e), j.n, j.fps);
    char own[256]; /* the figure's own title, as plain text for the metadata */
    markup_plain(own, sizeof own, txt_lang(e->title, req->zh));
    j.meta = (fig_meta){.title = req->no_title || !req->title ? own : req->title,
                        .software = "tfviz " TF_VERSION, .params = params, .date = FIG_FIXED_DATE};
    progress_start(&j.progress, folder ? "PNG" : "GIF", PROGRESS_FRAMES, (double)j.n);
    int rc = folder ? to_folder(&j) : to_gif(&j);
    progress_end(&j.progress);
    if (an->end)
        an->end(j.state);
    free(params);
    if (rc < 0) { /* a frame could not be drawn: nothing was changed, say why */
        err_say("cannot draw the %s animation: %s.", e->name,
                j.why[0] ? j.why : tf_status_str((tf_status)-rc));
        rc = 2;
    } else if (rc == 0 && j.font != asked) {
        figure_say_smaller(e->name, true, j.font, asked, j.w, j.h);
    }
    return rc;
}
