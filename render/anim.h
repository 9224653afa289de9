/* anim.h — moving pictures for slides: an animated GIF (through giflib) or a folder of numbered
 * PNG frames (through the figures' own libpng writer), both from the pixels of raster pages
 * (figure.h, fig_spec.raster), one page per frame.
 *
 * GIF holds at most 256 colours. A figure's frame is a white page with antialiased text and
 * lines in a few known colours and heatmaps in a colour map, so every frame of an animation is
 * quantised to one fixed palette made from those (anim_gif_palette), each pixel to its nearest
 * palette colour, without dithering: the same input gives the same bytes, a colour never
 * flickers between frames, and flat areas stay flat (and compress well). Frames after the first
 * store only the rectangle that changed.
 *
 * APNG is not offered: Debian's libpng has no APNG writer (the APNG patch is not applied) and no
 * maintained library Debian packages writes it (libspng 0.7 reads and writes plain PNG only;
 * apngasm is packaged as a program, not a library). */
#ifndef TF_ANIM_H
#define TF_ANIM_H

#include <stdbool.h>
#include <stdio.h>

#include "colormap.h"
#include "figure.h"
#include "status.h"

/* frame_0001.png .. frame_9999.png */
#define ANIM_MAX_FRAMES 9999
/* a GIF delay is in 1/100 s, and viewers slow anything under 2/100 s down to 1/10 s */
#define ANIM_MIN_FPS 0.1
#define ANIM_MAX_FPS 50.0
/* a GIF's width and height are 16-bit */
#define ANIM_MAX_SIDE 65535

/* ---------------------------------------------------------------------------------------------
 * GIF */

/* True when this build writes GIF files (it was built with giflib). */
bool anim_gif_available(void);

/* The palette for frames drawn with the colour maps maps[0 .. n_maps): entry 0 white, 32 greys
 * (0, 8, ..., 248: text and its antialiasing), the six colours of fig_series_color with their
 * tints 1/4, 1/2 and 3/4 of the way to white (antialiased lines), and the other 199 entries
 * sampled evenly along each colour map, ends included (heatmaps); with no map, finer tints of
 * the series colours instead. */
void anim_gif_palette(const cmap_id *maps, int n_maps, tf_rgb out[256]);

/* The delay of frame i (0-based) at fps frames per second, in 1/100 s: the frames' start times
 * are rounded, not each delay, so that the animation lasts frames / fps seconds (25 fps: 4 every
 * frame; 30 fps: 3, 4, 3, 3, 4, 3, ...). */
int anim_gif_delay(double fps, long i);

typedef struct anim_gif anim_gif;

/* Start a GIF of width x height pixels on fp (the caller opens it, atomically: app/core/tempfile.h,
 * and closes it): the screen, the palette as the global colour table, and the looping block
 * (loops 0: for ever, else that many times). TF_ERR_RANGE (a size, fps or loops out of range),
 * TF_ERR_UNSUPPORTED (no giflib), TF_ERR_NOMEM, TF_ERR_IO. */
tf_status anim_gif_begin(FILE *fp, int width, int height, double fps, int loops,
                         const tf_rgb palette[256], anim_gif **out);
/* Add a frame: r must be width x height, opaque as every page is. TF_ERR_RANGE (size, or more
 * than ANIM_MAX_FRAMES), TF_ERR_NOMEM, TF_ERR_IO. */
tf_status anim_gif_frame(anim_gif *g, const fig_raster *r);
/* Write the trailer and free g (whatever the outcome). TF_ERR_RANGE when no frame was added. */
tf_status anim_gif_end(anim_gif *g);
/* Abandon a GIF (after a failure; the caller aborts its file). */
void anim_gif_free(anim_gif *g);

/* The palette index nearest to colour c (weighted RGB distance 2:4:3, the lowest index on a
 * tie), as the GIF writer maps each pixel. */
int anim_palette_nearest(const tf_rgb palette[256], tf_rgb c);

/* ---------------------------------------------------------------------------------------------
 * PNG frames: DIR/frame_0001.png, frame_0002.png, ... each written atomically */

typedef struct anim_dir anim_dir;

/* Frames into the folder dir, made when missing (its parent must exist). TF_ERR_IO (errno
 * kept: not a folder, no permission, no parent), TF_ERR_NOMEM. */
tf_status anim_dir_begin(const char *dir, anim_dir **out);
/* The caller writes each frame through its own atomic output file (app/core/tempfile.h): the
 * path of the next frame (dir/frame_NNNN.png; NULL past ANIM_MAX_FRAMES), and, once that file
 * is complete (fig_png_write), anim_dir_written to count it. */
const char *anim_dir_next(anim_dir *d);
void anim_dir_written(anim_dir *d);
/* Finish: frames numbered past the last one written (left by an earlier, longer animation) are
 * removed, so that the folder holds exactly this animation; only names of the exact form
 * frame_NNNN.png are touched. Frees d. TF_ERR_RANGE when no frame was written (nothing is
 * removed then). */
tf_status anim_dir_end(anim_dir *d);
/* Abandon (after a failure): frames already written stay, each complete. */
void anim_dir_free(anim_dir *d);

#endif
