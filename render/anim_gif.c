/* anim_gif.c — animated GIF through giflib (anim.h says how and why): the fixed palette, each
 * pixel to its nearest entry through a small cache, and the rectangle a frame changed. */
#include "anim.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tf_config.h"

#if TF_HAVE_GIFLIB
#include <gif_lib.h>
#endif

/* ---------------------------------------------------------------------------------------------
 * The palette */

#define N_GREYS  32 /* 0, 8, ..., 248; white is entry 0 */
#define N_SERIES 6  /* fig_series_color 0..5; the seventh is black, a grey already */
#define N_TINTS  4  /* the colour, and 1/4, 1/2, 3/4 of the way to white */

static tf_rgb tint(tf_rgb c, double t)
{
    return (tf_rgb){(uint8_t)lround(c.r + (255 - c.r) * t), (uint8_t)lround(c.g + (255 - c.g) * t),
                    (uint8_t)lround(c.b + (255 - c.b) * t)};
}

void anim_gif_palette(const cmap_id *maps, int n_maps, tf_rgb out[256])
{
    int k = 0;
    out[k++] = (tf_rgb){255, 255, 255};
    for (int g = 0; g < N_GREYS; g++)
        out[k++] = (tf_rgb){(uint8_t)(g * 8), (uint8_t)(g * 8), (uint8_t)(g * 8)};
    for (int s = 0; s < N_SERIES; s++)
        for (int t = 0; t < N_TINTS; t++)
            out[k++] = tint(fig_series_color(s), t / (double)N_TINTS);
    int left = 256 - k, steps = left / N_SERIES;
    /* line figures (no map): the series colours in finer steps toward white, grey after them */
    for (int s = 0; n_maps == 0 && s < N_SERIES; s++)
        for (int t = 0; t < steps; t++)
            out[k++] = tint(fig_series_color(s), (t + 0.5) / steps);
    /* else each map gets an equal share of the rest, sampled evenly along its 256-entry table */
    for (int i = 0; i < n_maps; i++) {
        int share = left / n_maps + (i < left % n_maps ? 1 : 0);
        for (int j = 0; j < share; j++)
            out[k++] = colormap_at(maps[i], share > 1 ? (double)j / (share - 1) : 0.5);
    }
    while (k < 256)
        out[k++] = (tf_rgb){128, 128, 128};
}

static long dist2(tf_rgb a, tf_rgb b)
{
    long dr = (long)a.r - b.r, dg = (long)a.g - b.g, db = (long)a.b - b.b;
    return 2 * dr * dr + 4 * dg * dg + 3 * db * db;
}

int anim_palette_nearest(const tf_rgb palette[256], tf_rgb c)
{
    int best = 0;
    long bd = dist2(palette[0], c);
    for (int i = 1; i < 256 && bd; i++) {
        long d = dist2(palette[i], c);
        if (d < bd) {
            bd = d;
            best = i;
        }
    }
    return best;
}

int anim_gif_delay(double fps, long i)
{
    return (int)(lround(100.0 * (double)(i + 1) / fps) - lround(100.0 * (double)i / fps));
}

bool anim_gif_available(void)
{
    return TF_HAVE_GIFLIB;
}

#if TF_HAVE_GIFLIB

/* Colours seen, and their nearest entries: a figure has a few thousand distinct colours (flat
 * fills and the antialiased edges between them), so an open-addressed table of 2^16 answers
 * nearly every pixel after its first appearance. A colour that finds no room is searched each
 * time, which changes the speed, never the answer. */
#define CACHE_BITS   16
#define CACHE_PROBES 8

struct anim_gif {
    GifFileType *gif; /* writing to the caller's file (its UserData) */
    int width, height;
    double fps;
    long frames;
    bool failed;
    tf_rgb palette[256];
    unsigned char *cur, *prev;            /* (height, width) palette indices, in px */
    uint32_t cache_key[1u << CACHE_BITS]; /* 0x1RRGGBB, 0 empty */
    unsigned char cache_val[1u << CACHE_BITS];
    unsigned char px[]; /* (2, height, width) */
};

static int gif_write(GifFileType *gif, const GifByteType *data, int len)
{
    return fwrite(data, 1, (size_t)len, gif->UserData) == (size_t)len ? len : 0;
}

static unsigned char lookup(anim_gif *g, uint32_t rgb)
{
    uint32_t key = rgb | 0x1000000u;
    uint32_t h = (rgb * 2654435761u) >> (32 - CACHE_BITS);
    tf_rgb c = {(uint8_t)(rgb >> 16), (uint8_t)(rgb >> 8), (uint8_t)rgb};
    for (int p = 0; p < CACHE_PROBES; p++) {
        uint32_t s = (h + (uint32_t)p) & ((1u << CACHE_BITS) - 1);
        if (g->cache_key[s] == key)
            return g->cache_val[s];
        if (g->cache_key[s] == 0) {
            g->cache_key[s] = key;
            return g->cache_val[s] = (unsigned char)anim_palette_nearest(g->palette, c);
        }
    }
    return (unsigned char)anim_palette_nearest(g->palette, c);
}

/* One row of cairo ARGB32, opaque as every page is, to palette indices. */
static void index_row(anim_gif *g, const uint32_t *src, unsigned char *dst)
{
    uint32_t last = UINT32_MAX; /* no colour: rgb is at most 0xffffff */
    unsigned char last_i = 0;
    for (int x = 0; x < g->width; x++) {
        uint32_t rgb = src[x] & 0xffffffu;
        if (rgb != last) { /* a figure is mostly runs of one colour */
            last = rgb;
            last_i = lookup(g, rgb);
        }
        dst[x] = last_i;
    }
}

tf_status anim_gif_begin(FILE *fp, int width, int height, double fps, int loops,
                         const tf_rgb palette[256], anim_gif **out)
{
    *out = NULL;
    if (width < 1 || height < 1 || width > ANIM_MAX_SIDE || height > ANIM_MAX_SIDE ||
        !(fps >= ANIM_MIN_FPS && fps <= ANIM_MAX_FPS) || loops < 0 || loops > 65535)
        return TF_ERR_RANGE;
    size_t n = (size_t)width * (size_t)height;
    anim_gif *g = calloc(1, sizeof *g + 2 * n);
    if (!g)
        return TF_ERR_NOMEM;
    g->cur = g->px;
    g->prev = g->px + n;
    g->width = width;
    g->height = height;
    g->fps = fps;
    memcpy(g->palette, palette, sizeof g->palette);

    int err = 0;
    g->gif = EGifOpen(fp, gif_write, &err);
    ColorMapObject *map = g->gif ? GifMakeMapObject(256, NULL) : NULL;
    if (!map) {
        tf_status st = g->gif || err == E_GIF_ERR_NOT_ENOUGH_MEM ? TF_ERR_NOMEM : TF_ERR_IO;
        anim_gif_free(g);
        return st;
    }
    for (int i = 0; i < 256; i++)
        map->Colors[i] = (GifColorType){palette[i].r, palette[i].g, palette[i].b};
    EGifSetGifVersion(g->gif, true); /* GIF89a: delays and looping */
    bool ok = EGifPutScreenDesc(g->gif, width, height, 8, 0, map) == GIF_OK;
    GifFreeMapObject(map);
    /* the looping block: NETSCAPE2.0, sub-block 1 with the loop count (little-endian) */
    const unsigned char loop[3] = {1, (unsigned char)(loops & 255), (unsigned char)(loops >> 8)};
    ok = ok && EGifPutExtensionLeader(g->gif, APPLICATION_EXT_FUNC_CODE) == GIF_OK &&
         EGifPutExtensionBlock(g->gif, 11, "NETSCAPE2.0") == GIF_OK &&
         EGifPutExtensionBlock(g->gif, 3, loop) == GIF_OK &&
         EGifPutExtensionTrailer(g->gif) == GIF_OK;
    if (!ok) {
        anim_gif_free(g);
        return TF_ERR_IO;
    }
    *out = g;
    return TF_OK;
}

/* The smallest rectangle holding every pixel of cur that differs from prev; false when none. */
static bool changed_rect(const anim_gif *g, int *x0, int *y0, int *x1, int *y1)
{
    int w = g->width, h = g->height;
    int top = 0, bottom = h - 1;
    while (top < h && !memcmp(g->cur + (size_t)top * w, g->prev + (size_t)top * w, (size_t)w))
        top++;
    if (top == h)
        return false;
    while (!memcmp(g->cur + (size_t)bottom * w, g->prev + (size_t)bottom * w, (size_t)w))
        bottom--; /* stops at top at the latest */
    int left = w, right = -1;
    for (int y = top; y <= bottom; y++) {
        const unsigned char *c = g->cur + (size_t)y * w, *p = g->prev + (size_t)y * w;
        int l = 0, r = w - 1; /* this row's first and last change, searched only past the others' */
        while (l < left && c[l] == p[l])
            l++;
        while (r > right && c[r] == p[r])
            r--;
        left = l;
        right = r;
    }
    *x0 = left;
    *y0 = top;
    *x1 = right + 1;
    *y1 = bottom + 1;
    return true;
}

tf_status anim_gif_frame(anim_gif *g, const fig_raster *r)
{
    if (g->failed)
        return TF_ERR_IO;
    if (r->width != g->width || r->height != g->height || !r->data || g->frames >= ANIM_MAX_FRAMES)
        return TF_ERR_RANGE;
    /* 1. every pixel to its palette index */
    for (int y = 0; y < g->height; y++)
        index_row(g, (const uint32_t *)(const void *)(r->data + (size_t)y * (size_t)r->stride),
                  g->cur + (size_t)y * (size_t)g->width);
    /* 2. what to store: the whole first frame, then what changed (a frame that changed
     * nothing still needs one pixel, to carry its delay) */
    int x0 = 0, y0 = 0, x1 = g->width, y1 = g->height;
    if (g->frames > 0 && !changed_rect(g, &x0, &y0, &x1, &y1)) {
        x1 = 1;
        y1 = 1;
    }
    /* 3. the delay (graphic control extension), then the image */
    GraphicsControlBlock gcb = {.DisposalMode = DISPOSE_DO_NOT,
                                .UserInputFlag = false,
                                .DelayTime = anim_gif_delay(g->fps, g->frames),
                                .TransparentColor = NO_TRANSPARENT_COLOR};
    GifByteType ext[4];
    size_t elen = EGifGCBToExtension(&gcb, ext);
    int ok = EGifPutExtension(g->gif, GRAPHICS_EXT_FUNC_CODE, (int)elen, ext);
    if (ok == GIF_OK)
        ok = EGifPutImageDesc(g->gif, x0, y0, x1 - x0, y1 - y0, false, NULL);
    for (int y = y0; y < y1 && ok == GIF_OK; y++)
        ok = EGifPutLine(g->gif, g->cur + (size_t)y * (size_t)g->width + (size_t)x0, x1 - x0);
    if (ok != GIF_OK) {
        g->failed = true;
        return g->gif->Error == E_GIF_ERR_NOT_ENOUGH_MEM ? TF_ERR_NOMEM : TF_ERR_IO;
    }
    unsigned char *t = g->prev;
    g->prev = g->cur;
    g->cur = t;
    g->frames++;
    return TF_OK;
}

tf_status anim_gif_end(anim_gif *g)
{
    int err = 0;
    /* EGifCloseFile writes the trailer and frees the giflib side whatever happens */
    bool closed = EGifCloseFile(g->gif, &err) == GIF_OK;
    tf_status st = !g->frames ? TF_ERR_RANGE : closed && !g->failed ? TF_OK : TF_ERR_IO;
    free(g);
    return st;
}

#else /* built without giflib: no anim_gif is ever made */

tf_status anim_gif_begin(FILE *fp, int width, int height, double fps, int loops,
                         const tf_rgb palette[256], anim_gif **out)
{
    (void)fp, (void)width, (void)height, (void)fps, (void)loops, (void)palette;
    *out = NULL;
    return TF_ERR_UNSUPPORTED;
}

tf_status anim_gif_frame(anim_gif *g, const fig_raster *r)
{
    (void)g, (void)r;
    return TF_ERR_UNSUPPORTED;
}

tf_status anim_gif_end(anim_gif *g)
{
    (void)g;
    return TF_ERR_UNSUPPORTED;
}

#endif

void anim_gif_free(anim_gif *g)
{
    /* giflib has no "abandon": closing writes a trailer the caller will throw away (g->gif NULL,
     * when giflib's side failed to open, closes nothing) */
    if (g)
        anim_gif_end(g);
}
