/* test_figure_pdf.c — heatmaps in PDF and SVG pages, read back the way readers see them: the PDF
 * rasterised by poppler (pdftoppm) and listed by pdfimages, the SVG rasterised by librsvg
 * (rsvg-convert, pandoc's route). Each cell is one sharp block of its colour-map colour, even a
 * quarter of a cell from its edge (no smoothing across cells); a matrix of more cells than the
 * page has pixels is area-averaged (a checkerboard becomes its mean, not a moiré of extremes)
 * and the metadata says so; SVG labels are <text> with their font family. A reader that is not
 * installed skips its test. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <png.h>
#include <unistd.h>

#include "colormap.h"
#include "figure.h"

#define ZOOM 4 /* raster pixels per point */

static bool have(const char *tool)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "command -v %s >/dev/null 2>&1", tool);
    return system(cmd) == 0;
}

typedef struct {
    int w, h;
    unsigned char *px; /* RGB */
} ppm;

static void read_ppm(const char *path, ppm *p)
{
    FILE *fp = fopen(path, "rb");
    assert_non_null(fp);
    int maxv = 0;
    assert_int_equal(fscanf(fp, "P6 %d %d %d", &p->w, &p->h, &maxv), 3);
    assert_int_equal(maxv, 255);
    fgetc(fp);
    p->px = malloc((size_t)p->w * p->h * 3);
    assert_non_null(p->px);
    assert_int_equal(fread(p->px, 3, (size_t)p->w * p->h, fp), (size_t)p->w * p->h);
    fclose(fp);
}

/* A PNG through libpng's simplified API, as RGB on white. */
static void read_png(const char *path, ppm *p)
{
    png_image im;
    memset(&im, 0, sizeof im);
    im.version = PNG_IMAGE_VERSION;
    assert_true(png_image_begin_read_from_file(&im, path));
    im.format = PNG_FORMAT_RGB;
    p->w = (int)im.width;
    p->h = (int)im.height;
    p->px = malloc(PNG_IMAGE_SIZE(im));
    assert_non_null(p->px);
    png_color white = {255, 255, 255};
    assert_true(png_image_finish_read(&im, &white, p->px, 0, NULL));
}

static tf_rgb at(const ppm *p, double x_pt, double y_pt)
{
    int x = (int)floor(x_pt * ZOOM), y = (int)floor(y_pt * ZOOM);
    assert_true(x >= 0 && x < p->w && y >= 0 && y < p->h);
    const unsigned char *q = p->px + ((size_t)y * p->w + x) * 3;
    return (tf_rgb){q[0], q[1], q[2]};
}

static int dist(tf_rgb a, tf_rgb b)
{
    return abs(a.r - b.r) + abs(a.g - b.g) + abs(a.b - b.b);
}

/* A page of one heatmap of rows x cols values v over [-1, 1] in a plot of pw x ph points, written
 * to path; *plot is where the cells went. */
static void draw_page(fig_format fmt, const char *path, const double *v, long rows, long cols,
                      double pw, double ph, fig_rect *plot)
{
    FILE *fp = fopen(path, "wb");
    assert_non_null(fp);
    fig_spec s = {.format = fmt, .width = pw + 60, .height = ph + 50, .dpi = 300,
                  .font_size = 8, .latin_first = true, .fp = fp};
    fig_meta m = {.title = "t", .software = "tfviz test", .date = "2000-01-01T00:00:00Z"};
    fig *f = NULL;
    assert_int_equal(fig_begin(&s, &m, &f), TF_OK);
    fig_axes a = {.x = {.lo = 0, .hi = (double)cols, .label = "dimension"},
                  .y = {.lo = 0, .hi = (double)rows, .flip = true, .label = "position"}};
    fig_axes_fit(f, &a, (fig_rect){5, 5, pw + 50, ph + 40});
    assert_int_equal(fig_heatmap(f, &a, &(fig_matrix){.f64 = v, .rows = rows, .cols = cols},
                                 CMAP_RDBU, -1.0, 1.0),
                     TF_OK);
    fig_axes_draw(f, &a);
    *plot = a.r;
    assert_int_equal(fig_end(f), TF_OK);
    assert_int_equal(fclose(fp), 0);
}

/* path rasterised at ZOOM pixels per point into *p. */
static void rasterise(fig_format fmt, const char *path, ppm *p)
{
    char cmd[512], out[256];
    snprintf(out, sizeof out, "%s.%s", path, fmt == FIG_PDF ? "ppm" : "png");
    if (fmt == FIG_PDF)
        snprintf(cmd, sizeof cmd, "pdftoppm -r %d -singlefile %s %s.r && mv %s.r.ppm %s",
                 72 * ZOOM, path, path, path, out);
    else
        snprintf(cmd, sizeof cmd, "rsvg-convert -d 72 -p 72 -z %d -b white -o %s %s", ZOOM, out, path);
    assert_int_equal(system(cmd), 0);
    if (fmt == FIG_PDF)
        read_ppm(out, p);
    else
        read_png(out, p);
    unlink(out);
}

static tf_rgb cell_colour(const tf_rgb pal[256], double v)
{
    return pal[colormap_index((v + 1.0) / 2.0)];
}

/* Every cell of a rows x cols heatmap, sampled at a quarter and three quarters of its width and
 * height, has its own colour. */
static void check_cells(fig_format fmt, const char *tool)
{
    if (!have(tool))
        skip();
    enum { ROWS = 23, COLS = 31 };
    double v[ROWS * COLS];
    for (int r = 0; r < ROWS; r++)
        for (int c = 0; c < COLS; c++)
            v[r * COLS + c] = sin(0.37 * r + 0.11 * c * c);
    char path[64];
    snprintf(path, sizeof path, "cells_test.%s", fmt == FIG_PDF ? "pdf" : "svg");
    fig_rect plot;
    draw_page(fmt, path, v, ROWS, COLS, 200, 150, &plot);
    ppm p;
    rasterise(fmt, path, &p);
    tf_rgb pal[256];
    colormap_palette(CMAP_RDBU, pal);
    double cw = plot.w / COLS, ch = plot.h / ROWS;
    for (int r = 0; r < ROWS; r++)
        for (int c = 0; c < COLS; c++)
            for (int k = 0; k < 4; k++) {
                double fx = k & 1 ? 0.78 : 0.22, fy = k & 2 ? 0.78 : 0.22;
                tf_rgb got = at(&p, plot.x + (c + fx) * cw, plot.y + (r + fy) * ch);
                tf_rgb want = cell_colour(pal, v[r * COLS + c]);
                if (dist(got, want) > 6)
                    fail_msg("%s: cell (%d, %d) at (%.2f, %.2f) of the cell is (%d, %d, %d), "
                             "want (%d, %d, %d)", path, r, c, fx, fy, got.r, got.g, got.b,
                             want.r, want.g, want.b);
            }
    free(p.px);
    unlink(path);
}

static void test_pdf_cells_sharp(void **state)
{
    (void)state;
    check_cells(FIG_PDF, "pdftoppm");
}

static void test_svg_cells_sharp(void **state)
{
    (void)state;
    check_cells(FIG_SVG, "rsvg-convert");
}

/* The PDF's images, as pdfimages lists them: one, of cols x rows pixels, not interpolated. */
static void test_pdf_image_listed(void **state)
{
    (void)state;
    if (!have("pdfimages"))
        skip();
    enum { ROWS = 40, COLS = 64 };
    static double v[ROWS * COLS];
    for (int i = 0; i < ROWS * COLS; i++)
        v[i] = cos(0.1 * i);
    fig_rect plot;
    draw_page(FIG_PDF, "listed_test.pdf", v, ROWS, COLS, 200, 150, &plot);
    FILE *pp = popen("pdfimages -list listed_test.pdf", "r");
    assert_non_null(pp);
    char line[512];
    int images = 0;
    while (fgets(line, sizeof line, pp)) {
        int page, num, w, h;
        char type[32], color[32], enc[32], interp[32];
        int comp, bpc;
        if (sscanf(line, "%d %d %31s %d %d %31s %d %d %31s %31s", &page, &num, type, &w, &h,
                   color, &comp, &bpc, enc, interp) != 10)
            continue;
        images++;
        assert_int_equal(w, COLS);
        assert_int_equal(h, ROWS);
        assert_string_equal(color, "rgb");
        assert_string_equal(interp, "no");
    }
    assert_int_equal(pclose(pp), 0);
    assert_int_equal(images, 1);
    unlink("listed_test.pdf");
}

/* A checkerboard of 2048 x 512 cells of -1 and +1 in a plot of fewer pixels: every pixel is its
 * cells' mean (near 0, the colour map's middle), never a sampled -1 or +1 (the arcs and stripes
 * of nearest-neighbour sampling); the metadata says the cells were averaged. */
static void check_dense(fig_format fmt, const char *tool)
{
    if (!have(tool))
        skip();
    enum { ROWS = 2048, COLS = 512 };
    double *v = malloc((size_t)ROWS * COLS * sizeof *v);
    assert_non_null(v);
    for (int r = 0; r < ROWS; r++)
        for (int c = 0; c < COLS; c++)
            v[r * COLS + c] = (r + c) % 2 ? 1.0 : -1.0;
    char path[64];
    snprintf(path, sizeof path, "dense_test.%s", fmt == FIG_PDF ? "pdf" : "svg");
    fig_rect plot;
    draw_page(fmt, path, v, ROWS, COLS, 90, 100, &plot); /* about 375 x 417 pixels at 300 dpi */
    free(v);
    ppm p;
    rasterise(fmt, path, &p);
    tf_rgb pal[256];
    colormap_palette(CMAP_RDBU, pal);
    tf_rgb mid = pal[128];
    int worst = 0;
    for (double y = plot.y + 1; y < plot.y + plot.h - 1; y += 0.7)
        for (double x = plot.x + 1; x < plot.x + plot.w - 1; x += 0.7) {
            int d = dist(at(&p, x, y), mid);
            worst = d > worst ? d : worst;
        }
    free(p.px);
    /* the colour map's middle third spans about this much; -1 and +1 are hundreds away */
    if (worst > 90)
        fail_msg("%s: a pixel is %d from the mean's colour", path, worst);
    /* the note */
    FILE *fp = fopen(path, "rb");
    assert_non_null(fp);
    static char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf - 1, fp);
    fclose(fp);
    buf[n] = '\0';
    char note[96];
    snprintf(note, sizeof note, "rows=2048 cols=512 area-averaged to %ld x %ld",
             (long)ceil(plot.h / 72.0 * FIG_VECTOR_DPI - 1e-9),
             (long)ceil(plot.w / 72.0 * FIG_VECTOR_DPI - 1e-9));
    if (fmt == FIG_SVG) {
        assert_non_null(strstr(buf, note));
    } else {
        FILE *pp = popen("pdfinfo dense_test.pdf", "r");
        assert_non_null(pp);
        char line[512];
        bool said = false;
        while (fgets(line, sizeof line, pp))
            said |= strncmp(line, "Keywords:", 9) == 0 &&
                    strstr(line, note) != NULL;
        pclose(pp);
        assert_true(said);
    }
    unlink(path);
}

static void test_pdf_dense_averaged(void **state)
{
    (void)state;
    if (!have("pdfinfo"))
        skip();
    check_dense(FIG_PDF, "pdftoppm");
}

static void test_svg_dense_averaged(void **state)
{
    (void)state;
    check_dense(FIG_SVG, "rsvg-convert");
}

/* SVG labels are text a person can edit: <text> with the font family, no glyph outlines. */
static void test_svg_text_editable(void **state)
{
    (void)state;
    double v[4] = {-1, 0, 0.5, 1};
    fig_rect plot;
    draw_page(FIG_SVG, "text_test.svg", v, 2, 2, 120, 90, &plot);
    FILE *fp = fopen("text_test.svg", "rb");
    assert_non_null(fp);
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, fp);
    fclose(fp);
    buf[n] = '\0';
    assert_non_null(strstr(buf, ">dimension</tspan></text>"));
    assert_non_null(strstr(buf, ">position</tspan></text>"));
    assert_non_null(strstr(buf, "font-family=\"'DejaVu Sans'"));
    assert_null(strstr(buf, "<symbol"));
    assert_null(strstr(buf, "glyph"));
    unlink("text_test.svg");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pdf_cells_sharp),
        cmocka_unit_test(test_svg_cells_sharp),
        cmocka_unit_test(test_pdf_image_listed),
        cmocka_unit_test(test_pdf_dense_averaged),
        cmocka_unit_test(test_svg_dense_averaged),
        cmocka_unit_test(test_svg_text_editable),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
