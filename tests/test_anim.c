/* test_anim.c — raster pages, the GIF palette and its nearest colours, frame delays, GIF files
 * read back with giflib's own decoder (frames, delays, loop block, the stored rectangles and
 * their pixels), the same bytes twice, and numbered PNG frames. term_image_test.py reads the
 * same files with Pillow. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "anim.h"
#include "sample_figure.h"
#include "tf_config.h"

#if TF_HAVE_GIFLIB
#include <gif_lib.h>
#endif

static char tmpdir[64];

static int setup_dir(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/tfviz-anim-XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int remove_dir(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    fig_release_fonts();
    return system(cmd) == 0 ? 0 : -1;
}

static uint32_t pixel(const fig_raster *r, int x, int y)
{
    uint32_t p;
    memcpy(&p, r->data + (size_t)y * r->stride + 4 * (size_t)x, 4);
    return p;
}

/* ---------------------------------------------------------------------------------------------
 * Raster pages */

/* A raster page is the PNG page's pixels: fig_png_write of a raster gives the bytes fig_end
 * writes for a PNG page of the same size (288 pt at 180 dpi = 720 pixels). */
static void test_raster_is_the_png(void **state)
{
    (void)state;
    char *png_buf = NULL, *ras_buf = NULL;
    size_t png_len = 0, ras_len = 0;
    FILE *m = open_memstream(&png_buf, &png_len);
    fig_spec spec = {
        .format = FIG_PNG, .width = 288, .height = 180, .dpi = 180, .font_size = 8, .fp = m};
    assert_int_equal(sample_figure(&spec, 0.5), TF_OK);
    fclose(m);

    fig_raster r = {.width = 720, .height = 450};
    fig_spec rs = {.format = FIG_PNG, .width = 288, .height = 180, .font_size = 8, .raster = &r};
    assert_int_equal(sample_figure(&rs, 0.5), TF_OK);
    assert_non_null(r.data);
    assert_int_equal(r.width, 720);
    assert_int_equal(r.height, 450);
    assert_true(r.stride >= 720 * 4);
    assert_true(fabs(r.dpi - 180.0) < 1e-9);
    assert_true(r.have_heatmap);
    m = open_memstream(&ras_buf, &ras_len);
    fig_meta meta = {.title = "sample", .software = "tfviz test", .params = "sample"};
    assert_int_equal(fig_png_write(m, &r, &meta), TF_OK);
    fclose(m);
    assert_int_equal(ras_len, png_len);
    assert_memory_equal(ras_buf, png_buf, png_len);
    fig_raster_free(&r);
    assert_null(r.data);
    fig_raster_free(&r);
    free(png_buf);
    free(ras_buf);
}

/* A raster of other proportions: the page scaled to fit, centred, white around it. */
static void test_raster_letterbox(void **state)
{
    (void)state;
    fig_raster r = {.width = 600, .height = 200};
    fig_spec spec = {.format = FIG_PNG, .width = 288, .height = 180, .font_size = 8, .raster = &r};
    assert_int_equal(sample_figure(&spec, 0), TF_OK);
    /* scale 200/180: the page is 320 pixels wide, from x = 140 to 460 */
    assert_true(fabs(r.dpi - 72.0 * 200 / 180) < 1e-9);
    for (int y = 0; y < 200; y += 7) {
        assert_int_equal(pixel(&r, 5, y), 0xffffffffu);
        assert_int_equal(pixel(&r, 138, y), 0xffffffffu);
        assert_int_equal(pixel(&r, 462, y), 0xffffffffu);
        assert_int_equal(pixel(&r, 595, y), 0xffffffffu);
    }
    /* the heatmap's place includes the offset: its centre is on coloured cells */
    assert_true(r.have_heatmap);
    assert_true(r.heat_x > 140 && r.heat_x + r.heat_w < 460);
    uint32_t c = pixel(&r, (int)(r.heat_x + r.heat_w / 2), (int)(r.heat_y + r.heat_h / 2));
    assert_true(c != 0xffffffffu);
    fig_raster_free(&r);
}

static void test_raster_bad(void **state)
{
    (void)state;
    fig *f;
    fig_meta meta = {0};
    fig_raster empty = {.width = 0, .height = 10},
               huge = {.width = FIG_MAX_RASTER + 1, .height = 10};
    fig_raster r = {.width = 10, .height = 10};
    fig_spec spec = {.format = FIG_PNG, .width = 100, .height = 100, .font_size = 8};
    spec.raster = &empty;
    assert_int_equal(fig_begin(&spec, &meta, &f), TF_ERR_RANGE);
    spec.raster = &huge;
    assert_int_equal(fig_begin(&spec, &meta, &f), TF_ERR_RANGE);
    spec.raster = &r;
    spec.format = FIG_SVG;
    assert_int_equal(fig_begin(&spec, &meta, &f), TF_ERR_RANGE);
    /* an unfinished raster page frees its pixels */
    spec.format = FIG_PNG;
    assert_int_equal(fig_begin(&spec, &meta, &f), TF_OK);
    fig_free(f);
    assert_null(r.data);
}

/* Raster pages drawn on worker threads, two at once (an inline figure drawn while the
 * explorer answers keys): the same pixels as on the main thread; each worker releases its own
 * fonts (the leak checkers see to that). */
typedef struct {
    double phase;
    fig_raster r;
    tf_status st;
} worker;

static void *draw_on_thread(void *arg)
{
    worker *w = arg;
    w->r = (fig_raster){.width = 400, .height = 250};
    w->st = sample_raster(400, 250, w->phase, &w->r);
    fig_release_fonts();
    return NULL;
}

static void test_raster_threads(void **state)
{
    (void)state;
    worker w[2] = {{.phase = 0.0}, {.phase = 0.5}};
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        assert_int_equal(pthread_create(&t[i], NULL, draw_on_thread, &w[i]), 0);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    for (int i = 0; i < 2; i++) {
        assert_int_equal(w[i].st, TF_OK);
        fig_raster here;
        assert_int_equal(sample_raster(400, 250, w[i].phase, &here), TF_OK);
        for (int y = 0; y < 250; y++)
            assert_memory_equal(here.data + (size_t)y * here.stride,
                                w[i].r.data + (size_t)y * w[i].r.stride, 400 * 4);
        fig_raster_free(&here);
        fig_raster_free(&w[i].r);
    }
}

/* ---------------------------------------------------------------------------------------------
 * The palette */

static bool same(tf_rgb a, tf_rgb b)
{
    return a.r == b.r && a.g == b.g && a.b == b.b;
}

static int find(const tf_rgb pal[256], tf_rgb c)
{
    for (int i = 0; i < 256; i++)
        if (same(pal[i], c))
            return i;
    return -1;
}

static void test_palette(void **state)
{
    (void)state;
    tf_rgb pal[256];
    const cmap_id rdbu[] = {CMAP_RDBU};
    anim_gif_palette(rdbu, 1, pal);
    assert_true(same(pal[0], (tf_rgb){255, 255, 255}));
    assert_true(same(pal[1], (tf_rgb){0, 0, 0}));
    assert_true(same(pal[32], (tf_rgb){248, 248, 248}));
    /* every series colour exactly, and the map's two ends and its middle */
    for (int s = 0; s < 6; s++)
        assert_true(find(pal, fig_series_color(s)) >= 0);
    assert_true(find(pal, colormap_at(CMAP_RDBU, 0.0)) >= 0);
    assert_true(find(pal, colormap_at(CMAP_RDBU, 1.0)) >= 0);
    assert_true(same(pal[255], colormap_at(CMAP_RDBU, 1.0)));
    /* two maps share the room; no map: tints of the series colours */
    const cmap_id two[] = {CMAP_VIRIDIS, CMAP_GRAY};
    anim_gif_palette(two, 2, pal);
    assert_true(find(pal, colormap_at(CMAP_VIRIDIS, 0.0)) >= 0);
    assert_true(find(pal, colormap_at(CMAP_VIRIDIS, 1.0)) >= 0);
    anim_gif_palette(NULL, 0, pal);
    assert_true(find(pal, fig_series_color(0)) >= 0);
    /* every colour of the map is at most a small step from its nearest entry */
    anim_gif_palette(rdbu, 1, pal);
    for (int i = 0; i < 256; i++) {
        tf_rgb c = colormap_at(CMAP_RDBU, i / 255.0);
        tf_rgb n = pal[anim_palette_nearest(pal, c)];
        assert_true(abs(c.r - n.r) <= 4 && abs(c.g - n.g) <= 4 && abs(c.b - n.b) <= 4);
    }
}

static void test_nearest(void **state)
{
    (void)state;
    tf_rgb pal[256];
    const cmap_id maps[] = {CMAP_VIRIDIS};
    anim_gif_palette(maps, 1, pal);
    /* an entry maps to the first entry of its colour */
    for (int i = 0; i < 256; i++)
        assert_int_equal(anim_palette_nearest(pal, pal[i]), find(pal, pal[i]));
    /* against a search written here: weighted squared distance 2:4:3, lowest index on ties */
    uint32_t seed = 12345;
    for (int k = 0; k < 2000; k++) {
        seed = seed * 1103515245u + 12345u;
        tf_rgb c = {(uint8_t)(seed >> 24), (uint8_t)(seed >> 16), (uint8_t)(seed >> 8)};
        long best = -1;
        int bi = 0;
        for (int i = 0; i < 256; i++) {
            long dr = c.r - pal[i].r, dg = c.g - pal[i].g, db = c.b - pal[i].b;
            long d = 2 * dr * dr + 4 * dg * dg + 3 * db * db;
            if (best < 0 || d < best) {
                best = d;
                bi = i;
            }
        }
        assert_int_equal(anim_palette_nearest(pal, c), bi);
    }
}

static void test_delays(void **state)
{
    (void)state;
    for (long i = 0; i < 50; i++) {
        assert_int_equal(anim_gif_delay(25, i), 4);
        assert_int_equal(anim_gif_delay(50, i), 2);
        assert_int_equal(anim_gif_delay(10, i), 10);
        assert_int_equal(anim_gif_delay(0.5, i), 200);
    }
    /* 30 fps: 3 or 4, and every 30 frames exactly one second; 24 fps likewise */
    for (double fps = 24; fps <= 30; fps += 6) {
        long sum = 0;
        for (long i = 0; i < (long)fps * 7; i++) {
            int d = anim_gif_delay(fps, i);
            assert_true(d == 4 || d == 5 || d == 3);
            sum += d;
        }
        assert_int_equal(sum, 700);
    }
    assert_int_equal(anim_gif_delay(30, 0), 3);
    assert_int_equal(anim_gif_delay(30, 1), 4);
}

/* ---------------------------------------------------------------------------------------------
 * GIF files */

#if TF_HAVE_GIFLIB

/* frames frames of the sample (phase 0.25 a frame; frame `still` repeats the one before) into
 * a GIF in memory. */
static char *make_gif(int w, int h, int frames, int still, double fps, int loops, size_t *len)
{
    char *buf = NULL;
    FILE *m = open_memstream(&buf, len);
    tf_rgb pal[256];
    const cmap_id maps[] = {CMAP_RDBU};
    anim_gif_palette(maps, 1, pal);
    anim_gif *g;
    assert_int_equal(anim_gif_begin(m, w, h, fps, loops, pal, &g), TF_OK);
    for (int i = 0; i < frames; i++) {
        fig_raster r;
        assert_int_equal(sample_raster(w, h, 0.25 * (i == still ? i - 1 : i), &r), TF_OK);
        assert_int_equal(anim_gif_frame(g, &r), TF_OK);
        fig_raster_free(&r);
    }
    assert_int_equal(anim_gif_end(g), TF_OK);
    fclose(m);
    return buf;
}

static void test_gif_read_back(void **state)
{
    (void)state;
    size_t len;
    char *buf = make_gif(240, 150, 5, 3, 30, 0, &len);
    char path[128];
    snprintf(path, sizeof path, "%s/a.gif", tmpdir);
    FILE *fp = fopen(path, "wb");
    assert_int_equal(fwrite(buf, 1, len, fp), len);
    fclose(fp);
    assert_memory_equal(buf, "GIF89a", 6);

    int err;
    GifFileType *gif = DGifOpenFileName(path, &err);
    assert_non_null(gif);
    assert_int_equal(DGifSlurp(gif), GIF_OK);
    assert_int_equal(gif->SWidth, 240);
    assert_int_equal(gif->SHeight, 150);
    assert_int_equal(gif->ImageCount, 5);
    assert_non_null(gif->SColorMap);
    assert_int_equal(gif->SColorMap->ColorCount, 256);
    /* the loop block: NETSCAPE2.0, sub-block 1, count 0 (giflib files it with the first
     * image, the blocks before it) */
    bool loop = false;
    SavedImage *first = &gif->SavedImages[0];
    for (int i = 0; i < first->ExtensionBlockCount; i++) {
        ExtensionBlock *e = &first->ExtensionBlocks[i];
        if (e->Function == APPLICATION_EXT_FUNC_CODE && e->ByteCount == 11 &&
            memcmp(e->Bytes, "NETSCAPE2.0", 11) == 0) {
            ExtensionBlock *sub = e + 1;
            assert_true(i + 1 < first->ExtensionBlockCount);
            assert_int_equal(sub->ByteCount, 3);
            assert_int_equal(sub->Bytes[0], 1);
            assert_int_equal(sub->Bytes[1] | sub->Bytes[2] << 8, 0);
            loop = true;
        }
    }
    assert_true(loop);
    int want_delay[5] = {3, 4, 3, 3, 4}; /* 30 fps: start times 0, 3, 7, 10, 13, 17 */
    for (int k = 0; k < 5; k++) {
        GraphicsControlBlock gcb;
        assert_int_equal(DGifSavedExtensionToGCB(gif, k, &gcb), GIF_OK);
        assert_int_equal(gcb.DelayTime, want_delay[k]);
        assert_int_equal(gcb.DisposalMode, DISPOSE_DO_NOT);
        assert_int_equal(gcb.TransparentColor, NO_TRANSPARENT_COLOR);
    }
    /* frame 1 is whole; frame 4 repeats frame 3: one pixel; the others only what changed */
    GifImageDesc *d0 = &gif->SavedImages[0].ImageDesc;
    assert_int_equal(d0->Width, 240);
    assert_int_equal(d0->Height, 150);
    GifImageDesc *d3 = &gif->SavedImages[3].ImageDesc;
    assert_int_equal(d3->Width * d3->Height, 1);
    GifImageDesc *d1 = &gif->SavedImages[1].ImageDesc;
    assert_true(d1->Width * d1->Height < 240 * 150);
    assert_true(d1->Width * d1->Height > 0);

    /* frame 1's pixels are the nearest palette entries of the sample's pixels */
    fig_raster r;
    assert_int_equal(sample_raster(240, 150, 0.0, &r), TF_OK);
    tf_rgb pal[256];
    for (int i = 0; i < 256; i++) {
        GifColorType c = gif->SColorMap->Colors[i];
        pal[i] = (tf_rgb){c.Red, c.Green, c.Blue};
    }
    const GifByteType *idx = gif->SavedImages[0].RasterBits;
    for (int y = 0; y < 150; y += 3)
        for (int x = 0; x < 240; x += 3) {
            uint32_t p = pixel(&r, x, y);
            tf_rgb c = {(uint8_t)(p >> 16), (uint8_t)(p >> 8), (uint8_t)p};
            assert_int_equal(idx[y * 240 + x], anim_palette_nearest(pal, c));
        }
    fig_raster_free(&r);
    DGifCloseFile(gif, &err);
    free(buf);
}

static void test_gif_same_bytes(void **state)
{
    (void)state;
    size_t l1, l2;
    char *a = make_gif(160, 100, 4, -1, 12.5, 2, &l1);
    char *b = make_gif(160, 100, 4, -1, 12.5, 2, &l2);
    assert_int_equal(l1, l2);
    assert_memory_equal(a, b, l1);
    free(a);
    free(b);
}

static void test_gif_bad(void **state)
{
    (void)state;
    char *buf = NULL;
    size_t len;
    FILE *m = open_memstream(&buf, &len);
    tf_rgb pal[256];
    anim_gif_palette(NULL, 0, pal);
    anim_gif *g;
    assert_int_equal(anim_gif_begin(m, 0, 10, 10, 0, pal, &g), TF_ERR_RANGE);
    assert_int_equal(anim_gif_begin(m, 10, ANIM_MAX_SIDE + 1, 10, 0, pal, &g), TF_ERR_RANGE);
    assert_int_equal(anim_gif_begin(m, 10, 10, 0, 0, pal, &g), TF_ERR_RANGE);
    assert_int_equal(anim_gif_begin(m, 10, 10, 51, 0, pal, &g), TF_ERR_RANGE);
    assert_int_equal(anim_gif_begin(m, 10, 10, NAN, 0, pal, &g), TF_ERR_RANGE);
    assert_int_equal(anim_gif_begin(m, 10, 10, 10, -1, pal, &g), TF_ERR_RANGE);
    assert_int_equal(anim_gif_begin(m, 10, 10, 10, 70000, pal, &g), TF_ERR_RANGE);
    assert_null(g);
    /* a frame of another size; no frame at all */
    assert_int_equal(anim_gif_begin(m, 100, 60, 10, 0, pal, &g), TF_OK);
    fig_raster r;
    assert_int_equal(sample_raster(120, 60, 0, &r), TF_OK);
    assert_int_equal(anim_gif_frame(g, &r), TF_ERR_RANGE);
    fig_raster_free(&r);
    assert_int_equal(anim_gif_end(g), TF_ERR_RANGE);
    /* abandoning one half written */
    assert_int_equal(anim_gif_begin(m, 120, 60, 10, 0, pal, &g), TF_OK);
    assert_int_equal(sample_raster(120, 60, 0, &r), TF_OK);
    assert_int_equal(anim_gif_frame(g, &r), TF_OK);
    fig_raster_free(&r);
    anim_gif_free(g);
    anim_gif_free(NULL);
    fclose(m);
    free(buf);
    /* a stream that takes nothing */
    FILE *full = fopen("/dev/full", "wb");
    if (full) {
        setvbuf(full, NULL, _IONBF, 0);
        assert_int_equal(anim_gif_begin(full, 10, 10, 10, 0, pal, &g), TF_ERR_IO);
        fclose(full);
    }
}

#else

static void test_gif_unsupported(void **state)
{
    (void)state;
    tf_rgb pal[256];
    anim_gif_palette(NULL, 0, pal);
    anim_gif *g;
    assert_false(anim_gif_available());
    assert_int_equal(anim_gif_begin(stdout, 10, 10, 10, 0, pal, &g), TF_ERR_UNSUPPORTED);
}

#endif

/* ---------------------------------------------------------------------------------------------
 * PNG frames */

static void test_frames(void **state)
{
    (void)state;
    char dir[128], p[192];
    snprintf(dir, sizeof dir, "%s/frames/", tmpdir);
    anim_dir *d;
    assert_int_equal(anim_dir_begin(dir, &d), TF_OK);
    fig_meta meta = {.title = "sample", .software = "tfviz test", .params = "sample"};
    for (int i = 0; i < 3; i++) {
        fig_raster r;
        assert_int_equal(sample_raster(160, 100, i, &r), TF_OK);
        assert_int_equal(sample_dir_frame(d, &r, &meta), TF_OK);
        fig_raster_free(&r);
    }
    assert_int_equal(anim_dir_end(d), TF_OK);
    struct stat sb;
    for (int i = 1; i <= 3; i++) {
        snprintf(p, sizeof p, "%s/frames/frame_%04d.png", tmpdir, i);
        assert_int_equal(stat(p, &sb), 0);
        assert_true(sb.st_size > 1000);
    }
    /* a second, shorter animation: frame 3 goes, a look-alike stays */
    snprintf(p, sizeof p, "%s/frames/frame_0003.png~", tmpdir);
    FILE *fp = fopen(p, "w");
    fclose(fp);
    assert_int_equal(anim_dir_begin(dir, &d), TF_OK);
    fig_raster r;
    assert_int_equal(sample_raster(160, 100, 0, &r), TF_OK);
    assert_int_equal(sample_dir_frame(d, &r, &meta), TF_OK);
    assert_int_equal(sample_dir_frame(d, &r, &meta), TF_OK);
    fig_raster_free(&r);
    assert_int_equal(anim_dir_end(d), TF_OK);
    snprintf(p, sizeof p, "%s/frames/frame_0003.png", tmpdir);
    assert_int_equal(stat(p, &sb), -1);
    snprintf(p, sizeof p, "%s/frames/frame_0003.png~", tmpdir);
    assert_int_equal(stat(p, &sb), 0);
    /* no frame: nothing removed */
    assert_int_equal(anim_dir_begin(dir, &d), TF_OK);
    assert_int_equal(anim_dir_end(d), TF_ERR_RANGE);
    snprintf(p, sizeof p, "%s/frames/frame_0002.png", tmpdir);
    assert_int_equal(stat(p, &sb), 0);
}

static void test_frames_bad(void **state)
{
    (void)state;
    char p[192];
    anim_dir *d;
    snprintf(p, sizeof p, "%s/missing/frames", tmpdir);
    errno = 0;
    assert_int_equal(anim_dir_begin(p, &d), TF_ERR_IO);
    assert_int_equal(errno, ENOENT);
    assert_null(d);
    snprintf(p, sizeof p, "%s/plain", tmpdir);
    FILE *fp = fopen(p, "w");
    fclose(fp);
    assert_int_equal(anim_dir_begin(p, &d), TF_ERR_IO);
    assert_int_equal(errno, ENOTDIR);
    assert_int_equal(anim_dir_begin("", &d), TF_ERR_IO);
    anim_dir_free(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_raster_is_the_png),
        cmocka_unit_test(test_raster_letterbox),
        cmocka_unit_test(test_raster_bad),
        cmocka_unit_test(test_raster_threads),
        cmocka_unit_test(test_palette),
        cmocka_unit_test(test_nearest),
        cmocka_unit_test(test_delays),
#if TF_HAVE_GIFLIB
        cmocka_unit_test(test_gif_read_back),
        cmocka_unit_test(test_gif_same_bytes),
        cmocka_unit_test(test_gif_bad),
#else
        cmocka_unit_test(test_gif_unsupported),
#endif
        cmocka_unit_test(test_frames),
        cmocka_unit_test(test_frames_bad),
    };
    return cmocka_run_group_tests(tests, setup_dir, remove_dir);
}
