/* test_figure.c — figures read back with libpng: size, DPI (pHYs), the parameters (iTXt), and
 * the colours of known data cells against closed forms computed here with libm. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "select_tests.h"
#include "colormap.h"
#include "core/err.h"
#include "core/figreq.h"
#include "figures/draw.h"
#include "figures/figures.h"
#include "figure.h"
#include "figure_priv.h"
#include "order_task.h"
#include "positions.h"
#include "order_train.h"
#include "tf_config.h"

typedef struct {
    png_uint_32 w, h;
    png_uint_32 ppm_x, ppm_y;
    int unit;
    unsigned char **rows; /* RGB */
    char params[2048];
    char heatmap[256];
    char title[256];
} png_read_back;

static void read_png(const char *path, png_read_back *r)
{
    memset(r, 0, sizeof *r);
    FILE *fp = fopen(path, "rb");
    assert_non_null(fp);
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png_create_info_struct(png);
    assert_non_null(png);
    assert_non_null(info);
    if (setjmp(png_jmpbuf(png)))
        fail_msg("libpng could not read %s", path);
    png_init_io(png, fp);
    png_read_png(png, info, PNG_TRANSFORM_STRIP_ALPHA, NULL);
    r->w = png_get_image_width(png, info);
    r->h = png_get_image_height(png, info);
    assert_int_equal(png_get_color_type(png, info), PNG_COLOR_TYPE_RGB);
    assert_true(png_get_pHYs(png, info, &r->ppm_x, &r->ppm_y, &r->unit) != 0);
    png_textp text;
    int nt = 0;
    png_get_text(png, info, &text, &nt);
    for (int i = 0; i < nt; i++) {
        if (strcmp(text[i].key, "tfviz") == 0) {
            assert_int_equal(text[i].compression, PNG_ITXT_COMPRESSION_NONE);
            snprintf(r->params, sizeof r->params, "%s", text[i].text);
        } else if (strcmp(text[i].key, "tfviz:heatmap") == 0) {
            snprintf(r->heatmap, sizeof r->heatmap, "%s", text[i].text);
        } else if (strcmp(text[i].key, "Title") == 0) {
            snprintf(r->title, sizeof r->title, "%s", text[i].text);
        }
    }
    png_bytepp rows = png_get_rows(png, info);
    r->rows = malloc(r->h * sizeof *r->rows);
    for (png_uint_32 y = 0; y < r->h; y++) {
        r->rows[y] = malloc(r->w * 3);
        memcpy(r->rows[y], rows[y], r->w * 3);
    }
    png_destroy_read_struct(&png, &info, NULL);
    fclose(fp);
}

static void free_png(png_read_back *r)
{
    for (png_uint_32 y = 0; y < r->h; y++)
        free(r->rows[y]);
    free(r->rows);
}

/* The pixel at the centre of data cell (row, col), from the heatmap rectangle in the metadata. */
static tf_rgb cell_colour(const png_read_back *r, long row, long col)
{
    double x, y, w, h;
    long rows, cols;
    assert_int_equal(sscanf(r->heatmap, "x=%lf y=%lf width=%lf height=%lf rows=%ld cols=%ld", &x,
                            &y, &w, &h, &rows, &cols), 6);
    long px = (long)floor(x + (col + 0.5) * w / cols), py = (long)floor(y + (row + 0.5) * h / rows);
    assert_true(px >= 0 && px < (long)r->w && py >= 0 && py < (long)r->h);
    const unsigned char *p = r->rows[py] + 3 * px;
    return (tf_rgb){p[0], p[1], p[2]};
}

static void assert_rgb(tf_rgb got, tf_rgb want, int tol)
{
    if (abs(got.r - want.r) > tol || abs(got.g - want.g) > tol || abs(got.b - want.b) > tol)
        fail_msg("colour (%d, %d, %d), want (%d, %d, %d)", got.r, got.g, got.b, want.r, want.g,
                 want.b);
}

/* ---------------------------------------------------------------------------------------------
 * What every figure needs: an analysis of 我爱学习, learned vectors for the map of words, and an
 * order model trained a little (a few epochs on a small task: the layouts are the same) */

typedef struct {
    tf_analysis a;
    tf_vectors v;
    char *words[60];
    float data[60 * 8];
    order_task task;
    order_trainer *tr;
} figure_inputs;

static figure_inputs inputs;

static void inputs_make(figure_inputs *in)
{
    tf_config cfg;
    config_defaults(&cfg);
    cfg.d_model = 32; /* the layouts are the same; the pages cost less to draw */
    static tf_positions positions; /* and a learned table of 128 rows, not GPT-2's 1024 */
    positions_defaults(&positions);
    positions.trained = 128;
    cfg.positions = &positions;
    const char *text = "我爱学习";
    assert_int_equal(analysis_run(&cfg, text, strlen(text), &in->a, NULL), TF_OK);
    /* 60 words, Chinese and English, long and short, in three clusters along two directions */
    static const char *const stems[] = {"爱", "喜欢", "学习", "北京", "上海", "猫", "狗",
                                        "mother", "father", "city", "teacher", "learning"};
    for (int i = 0; i < 60; i++) {
        in->words[i] = malloc(32);
        assert_non_null(in->words[i]);
        snprintf(in->words[i], 32, "%s%s", stems[i % 12], i < 12 ? "" : i < 36 ? "们" : "s");
        for (int j = 0; j < 8; j++)
            in->data[i * 8 + j] = (float)((i % 3 == j % 3 ? 2.0 : 0.0) + sin(1.7 * i + 0.9 * j));
    }
    in->v = (tf_vectors){.n = 60, .dim = 8, .words = in->words, .data = in->data};
    order_gen_cfg g;
    order_gen_defaults(&g);
    g.train_pairs = 24;
    g.test_pairs = 6;
    assert_int_equal(order_task_generate(&in->task, &g), TF_OK);
    order_train_cfg oc;
    order_train_defaults(&oc);
    oc.model.d_model = 16;
    oc.epochs = 3;
    static const tf_scheme schemes[] = {SCHEME_NONE, SCHEME_SINUSOIDAL, SCHEME_LEARNED,
                                        SCHEME_ROPE};
    const char *why = NULL;
    assert_int_equal(order_trainer_new(&in->tr, &in->task, &oc, schemes, 4, &why), TF_OK);
    assert_int_equal(order_trainer_run(in->tr, 1), TF_OK);
}

static void inputs_free(figure_inputs *in)
{
    analysis_free(&in->a);
    for (int i = 0; i < 60; i++)
        free(in->words[i]);
    order_trainer_free(in->tr);
    order_task_free(&in->task);
}

static char tmpdir[64];

static int setup_dir(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/tfviz-figure-XXXXXX");
    inputs_make(&inputs);
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int remove_dir(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    inputs_free(&inputs);
    return system(cmd) == 0 ? 0 : -1;
}

/* The sentence figures_export says, caught into the buffer of err_redirect's ctx. */
typedef struct {
    char *buf;
    size_t len;
} caught;

static void catch_message(const char *msg, void *ctx)
{
    caught *c = ctx;
    snprintf(c->buf, c->len, "%s", msg);
}

/* figures_export of figure into path, the other settings from base, with its message (if any)
 * in msg. */
static int export_msg(const fig_request *base, tf_analysis *a, const char *figure,
                      const char *path, char *msg, size_t len)
{
    caught c = {msg, len};
    msg[0] = '\0';
    fig_request req = *base;
    req.name = figure, req.path = path;
    err_sink was = err_redirect((err_sink){catch_message, &c});
    int rc = figures_export(&req, a);
    err_redirect(was);
    return rc;
}

/* Export figure of "我爱学习" with d = n = 8 at 100 dpi into tmpdir/name. */
static int export_small(const char *figure, const char *name, const char *colormap, char *path,
                        size_t len)
{
    tf_config cfg;
    config_defaults(&cfg);
    cfg.d_model = 8;
    cfg.n_positions = 8;
    fig_request base = {.zh = false, .dpi = 100, .colormap = colormap};
    const char *text = "我爱学习";
    tf_analysis a;
    assert_int_equal(analysis_run(&cfg, text, strlen(text), &a, NULL), TF_OK);
    snprintf(path, len, "%s/%s", tmpdir, name);
    char msg[256] = "";
    int rc = export_msg(&base, &a, figure, path, msg, sizeof msg);
    if (rc)
        fprintf(stderr, "# %s\n", msg);
    analysis_free(&a);
    return rc;
}

/* fig_markup_text: text from a file becomes markup text pango parses as the same characters;
 * cut on a character boundary, with "…", never past the buffer or the columns. */
static void test_markup_text(void **state)
{
    (void)state;
    char out[112];
    assert_int_equal(fig_markup_text(out, sizeof out, "a&b<c>\"'", 40), 27);
    assert_string_equal(out, "a&amp;b&lt;c&gt;&quot;&#39;");
    fig_markup_text(out, sizeof out, "<span size=\"500000\">x</span>", 40);
    assert_string_equal(out, "&lt;span size=&quot;500000&quot;&gt;x&lt;/span&gt;");
    fig_markup_text(out, sizeof out, "a\xff\xc0" "b", 40); /* invalid bytes: U+FFFD each */
    assert_string_equal(out, "a\xef\xbf\xbd\xef\xbf\xbd" "b");
    /* 100 x 我 (2 columns each): 19 of them and "…" in 40 columns, whole characters */
    char wo[301];
    for (int i = 0; i < 100; i++)
        memcpy(wo + 3 * i, "\xe6\x88\x91", 3);
    wo[300] = '\0';
    size_t n = fig_markup_text(out, sizeof out, wo, 40);
    assert_int_equal(n, 19 * 3 + 3);
    assert_memory_equal(out + 57, "\xe2\x80\xa6", 4);
    /* a small buffer: whole entities only */
    char small[12];
    fig_markup_text(small, sizeof small, "&&&&", 40);
    assert_string_equal(small, "&amp;\xe2\x80\xa6");
    /* within both limits: as it is */
    fig_markup_text(out, sizeof out, "h.0.wpe.weight", 40);
    assert_string_equal(out, "h.0.wpe.weight");
}

static void test_png_size_dpi_metadata(void **state)
{
    (void)state;
    char path[128];
    assert_int_equal(export_small("pe", "pe.png", NULL, path, sizeof path), 0);
    png_read_back r;
    read_png(path, &r);
    /* one column, 3.5 in x 100 dpi; the pe figure is 0.8 as tall */
    assert_int_equal(r.w, 350);
    assert_int_equal(r.h, 280);
    assert_int_equal(r.unit, PNG_RESOLUTION_METER);
    assert_int_equal(r.ppm_x, (png_uint_32)lround(100 / 0.0254));
    assert_int_equal(r.ppm_y, r.ppm_x);
    char want[64];
    snprintf(want, sizeof want, "tfviz %s ", TF_VERSION);
    assert_non_null(strstr(r.params, want));
    assert_non_null(strstr(r.params, "--figure pe -d 8 -n 8 --base 10000 "));
    assert_non_null(strstr(r.params, "--dpi 100 "));
    assert_non_null(strstr(r.params, "'我爱学习'"));
    assert_string_equal(r.title, "Sinusoidal positional encoding");
    assert_non_null(strstr(r.heatmap, "rows=8 cols=8"));
    free_png(&r);
}

static void test_png_cell_colours(void **state)
{
    (void)state;
    char path[128];
    assert_int_equal(export_small("pe", "cells.png", NULL, path, sizeof path), 0);
    png_read_back r;
    read_png(path, &r);
    /* PE(0, 1) = cos 0 = 1: the top of the diverging map; PE(0, 0) = sin 0 = 0: its middle */
    assert_rgb(cell_colour(&r, 0, 1), colormap_value(CMAP_RDBU, 1.0, -1.0, 1.0), 0);
    assert_rgb(cell_colour(&r, 0, 0), colormap_value(CMAP_RDBU, 0.0, -1.0, 1.0), 0);
    /* PE(pos, 2i) = sin(pos * 10000^(-2i/8)), PE(pos, 2i+1) = cos(...) at a few cells */
    for (int pos = 1; pos < 8; pos += 2)
        for (int j = 0; j < 8; j += 3) {
            double w = pow(10000.0, -2.0 * (j / 2) / 8.0);
            double v = j % 2 ? cos(pos * w) : sin(pos * w);
            assert_rgb(cell_colour(&r, pos, j), colormap_value(CMAP_RDBU, v, -1.0, 1.0), 3);
        }
    /* PE(4, 0) = sin 4 = -0.757 sits on the blue side, PE(2, 0) = sin 2 = 0.909 on the red */
    tf_rgb c = cell_colour(&r, 4, 0);
    assert_true(c.b > c.r + 50);
    c = cell_colour(&r, 2, 0);
    assert_true(c.r > c.b + 50);
    free_png(&r);
}

static void test_png_colormap_option(void **state)
{
    (void)state;
    char path[128];
    assert_int_equal(export_small("pe", "viridis.png", "viridis", path, sizeof path), 0);
    png_read_back r;
    read_png(path, &r);
    assert_rgb(cell_colour(&r, 0, 1), colormap_at(CMAP_VIRIDIS, 1.0), 0);
    assert_rgb(cell_colour(&r, 2, 1), colormap_value(CMAP_VIRIDIS, cos(2.0), -1.0, 1.0), 3);
    assert_non_null(strstr(r.params, "--colormap viridis"));
    free_png(&r);
}

static void test_dot_cells(void **state)
{
    (void)state;
    char path[128];
    assert_int_equal(export_small("dot", "dot.png", "gray", path, sizeof path), 0);
    png_read_back r;
    read_png(path, &r);
    /* PE(p).PE(q) = sum_i cos((p - q) w_i): the diagonal is d/2 = 4, the maximum (white in gray) */
    for (int p = 0; p < 8; p++)
        assert_rgb(cell_colour(&r, p, p), (tf_rgb){255, 255, 255}, 0);
    /* constant along each diagonal: the same colour at (0, 3), (2, 5), (4, 7) */
    tf_rgb c = cell_colour(&r, 0, 3);
    assert_rgb(cell_colour(&r, 2, 5), c, 0);
    assert_rgb(cell_colour(&r, 4, 7), c, 0);
    assert_true(c.r < 255);
    free_png(&r);
}

static fig_request input_request(const char *name, bool zh, double width_in, double font);

/* Every still figure of the table (figures_names: no list of them is kept here), with the
 * vectors and the order model it may need, in every format. */
static void test_every_figure_every_format(void **state)
{
    (void)state;
    static const char *const ext[] = {"png", "svg", "pdf"};
    int stills = 0;
    for (const char *const *nm = figures_names(); *nm; nm++) {
        const fig_entry *row = figure_find(*nm);
        assert_non_null(row);
        if (!row->draw)
            continue;
        stills++;
        for (int e = 0; e < 3; e++) {
            char path[160], msg[256];
            snprintf(path, sizeof path, "%s/%s.%s", tmpdir, *nm, ext[e]);
            fig_request req = input_request(*nm, false, 3.5, 8);
            if (export_msg(&req, &inputs.a, *nm, path, msg, sizeof msg) != 0)
                fail_msg("%s: %s", path, msg);
            FILE *fp = fopen(path, "rb");
            assert_non_null(fp);
            char head[8] = {0};
            assert_true(fread(head, 1, sizeof head, fp) > 4);
            fclose(fp);
            const char *magic = e == 0 ? "\x89PNG" : e == 1 ? "<?xml" : "%PDF-";
            assert_memory_equal(head, magic, strlen(magic));
        }
    }
    assert_true(stills >= 1);
}

/* The whole file at path, NUL-terminated (its length in *len). */
static char *slurp(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    assert_non_null(fp);
    assert_int_equal(fseek(fp, 0, SEEK_END), 0);
    long n = ftell(fp);
    rewind(fp);
    char *buf = malloc((size_t)n + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, fp), (size_t)n);
    buf[n] = '\0';
    fclose(fp);
    *len = (size_t)n;
    return buf;
}

static size_t count_in(const char *buf, size_t len, const char *lit)
{
    size_t k = 0, n = strlen(lit);
    for (size_t i = 0; i + n <= len; i++)
        k += memcmp(buf + i, lit, n) == 0;
    return k;
}

/* A PDF figure is cairo's PDF as cairo wrote it: one revision (no incremental update appended),
 * its heatmaps cairo's own images (no indexed images, no placeholder JPEGs). */
static void test_pdf_single_revision(void **state)
{
    (void)state;
    char path[128];
    size_t len;
    assert_int_equal(export_small("order", "revision.pdf", NULL, path, sizeof path), 0);
    char *pdf = slurp(path, &len);
    assert_int_equal(count_in(pdf, len, "%%EOF"), 1);
    assert_int_equal(count_in(pdf, len, "/Prev"), 0);
    assert_int_equal(count_in(pdf, len, "/Indexed"), 0);
    assert_int_equal(count_in(pdf, len, "/DCTDecode"), 0);
    assert_true(count_in(pdf, len, "/Subtype /Image") >= 6); /* two word orders x three encodings */
    free(pdf);
}

/* A request for figure name drawn from inputs, with what it needs (the learned vectors for the
 * map of words only: the embedding figure draws its rows alone without them). */
static fig_request input_request(const char *name, bool zh, double width_in, double font)
{
    bool map = strcmp(name, "embedding-map") == 0;
    return (fig_request){.name = name, .zh = zh, .dpi = 20, .width = width_in * 72,
                         .font_size = font, .vectors = map ? &inputs.v : NULL,
                         .order = inputs.tr};
}

/* The preset widths: one column, the text and half of every venue, each once. */
static int preset_widths(double *w, int cap)
{
    static const char *const venues[] = {"ieee", "acl", "neurips", "icml", "iclr", "a4"};
    int n = 0;
    for (size_t i = 0; i < sizeof venues / sizeof venues[0]; i++) {
        const fig_venue *v = fig_venue_find(venues[i]);
        assert_non_null(v);
        const double both[3] = {v->column_in, v->text_in, fig_venue_width(v, FIG_WIDTH_HALF)};
        for (int k = 0; k < 3; k++) {
            bool seen = false;
            for (int j = 0; j < n; j++)
                seen |= fabs(w[j] - both[k]) < 0.01;
            if (!seen && n < cap)
                w[n++] = both[k];
        }
    }
    return n;
}

/* One page of the sweep: drawn (0) with its boxes checked, or refused. Counts into the totals
 * and says any fault. */
typedef struct {
    int drawn, refused, bad;
} sweep_count;

static void judge(sweep_count *k, const char *what, double width, double font, bool zh,
                  bool drew, const fig_boxes *boxes, const char *msg, bool say_size)
{
    if (drew) {
        k->drawn++;
        const char *why = fig_layout_check(boxes, boxes->page_w, boxes->page_h);
        if (why) {
            k->bad++;
            fprintf(stderr, "# %s %.2f in %g pt %s: %s\n", what, width, font, zh ? "zh" : "en",
                    why);
        }
        return;
    }
    k->refused++;
    /* refused: only a narrow page (a column, not a text block) at a large size, or a half-width
     * subfigure (narrower than 3 in) at any size, and the message says what would fit */
    if (width > 4 || (font < 10 && width >= 3) || (say_size && !strstr(msg, "need"))) {
        k->bad++;
        fprintf(stderr, "# %s %.2f in %g pt %s refused: %s\n", what, width, font,
                zh ? "zh" : "en", msg);
    }
}

/* Whether a long sweep is left to the fast build's pass: not run under the sanitizers nor
 * valgrind (said in a note; cmocka's skip() would read as a failure under the TAP protocol). */
static bool fast_pass_only(const char *what)
{
    if (check_heavy_skipped()) {
        print_message("# %s: run by the fast build's pass, not under the sanitizers nor "
                      "valgrind\n", what);
        return true;
    }
    return false;
}

/* A refused page's message names a width ("--width 3.58in"), computed from the page's
 * measurements: the figure exported at that width (the same font size and language) is drawn,
 * and laid out by the rules. Counts a fault into k->bad. */
static void named_width_fits(sweep_count *k, const fig_request *asked, const char *name,
                             const char *msg, const char *path)
{
    const char *at = strstr(msg, "--width ");
    if (!at)
        return; /* a height named instead (a set height), or no size at all: judge() says so */
    double w_in = strtod(at + strlen("--width "), NULL);
    fig_request req = *asked;
    fig_boxes boxes = {0};
    req.boxes = &boxes;
    req.width = w_in * 72;
    char again[256];
    int rc = export_msg(&req, &inputs.a, name, path, again, sizeof again);
    const char *why = rc == 0 ? fig_layout_check(&boxes, boxes.page_w, boxes.page_h) : again;
    if (why) {
        k->bad++;
        fprintf(stderr, "# %s %.2f in %g pt %s: refused, naming %.2f in, where it is %s: %s\n",
                name, asked->width / 72, asked->font_size, asked->zh ? "zh" : "en", w_in,
                rc == 0 ? "drawn with a fault" : "refused again", why);
    }
    fig_boxes_free(&boxes);
}

/* A still page of the sweep: judge()'s rules, and a refusal's named width tried. */
static void judge_still(sweep_count *k, const fig_request *req, const char *name, int rc,
                        const fig_boxes *boxes, const char *msg, const char *path)
{
    judge(k, name, req->width / 72, req->font_size, req->zh, rc == 0, boxes, msg, true);
    if (rc != 0)
        named_width_fits(k, req, name, msg, path);
}

/* The frames sweep_frames draws of each animation */
#define SWEEP_FRAMES 12

/* What frames of animation e in language zh share (its begin: training's whole run), once for
 * every size; *state for sweep_frames, freed with e->anim->end. */
static void sweep_begin(const fig_entry *e, bool zh, void **state)
{
    *state = NULL;
    fig_request req = input_request(e->name, zh, 6.4, 10);
    req.panel_labels = zh;
    req.path = "frames/";
    fig_ctx c = figure_ctx(&req, &inputs.a);
    assert_int_equal(e->anim->begin ? e->anim->begin(&c, SWEEP_FRAMES, state) : TF_OK, TF_OK);
}

/* Frames 0, n/2 and n-1 of animation e (state from sweep_begin), as the export draws them (a
 * page of the request's width at a slide's proportions, the labels at the size the export
 * takes: font, or smaller where it does not fit), laid out only and checked. */
static void sweep_frames(sweep_count *k, const fig_entry *e, void *state, double width,
                         double font, bool zh)
{
    fig_request req = input_request(e->name, zh, width, font);
    req.panel_labels = zh;
    req.path = "frames/"; /* an animation's page, for a figure that is a still one too */
    req.dpi = 0;          /* a slide's pixels, as the export's frames have them */
    double w, h;
    figure_page_size(&req, e, &w, &h);
    const long n = SWEEP_FRAMES;
    font = figure_frames_font(&req, &inputs.a, e, state, n); /* smaller where font is too big */
    /* the pixels the frame snaps to */
    double dpi = figure_dpi(&req, e), px_w = lround(w * dpi / 72), px_h = lround(h * dpi / 72);
    dpi = fmin(px_w / w, px_h / h) * 72;
    for (long f = 0; f < n; f += n / 2 - 1) {
        fig_boxes boxes = {0};
        fig_spec spec = {.format = FIG_PNG, .width = w, .height = h, .dpi = dpi,
                         .font_size = font, .latin_first = !zh, .measure = true,
                         .boxes = &boxes};
        bool cramped;
        char why[200] = "", what[64];
        tf_status st = figure_page(&req, &inputs.a, e, &spec, &(fig_meta){0},
                                   &(fig_frame){.state = state, .k = f, .n = n}, &cramped, why,
                                   sizeof why);
        assert_int_equal(st, TF_OK);
        snprintf(what, sizeof what, "%s frame %ld", e->name, f);
        judge(k, what, width, font, zh, !cramped, &boxes, "the page is too small", false);
        fig_boxes_free(&boxes);
    }
}

/* Every figure (the animations' frames too) at every preset width, 6 to 14 pt, in both
 * languages (Chinese with panel letters): drawn, with its labels inside the page, off each
 * other, off plots, colour bars and legends, and legends off their data (fig_layout_check on the
 * boxes the page recorded); or, only where the page truly cannot hold the labels, refused with a
 * size that would. */
static void test_layouts_hold(void **state)
{
    (void)state;
    /* a sweep of some 2500 pages */
    if (fast_pass_only("layout sweep"))
        return;
    double widths[16] = {0};
    int nw = preset_widths(widths, 16);
    /* 3.03, 6.30, 5.50, 2.63 (neurips' half), 3.25, 6.75, 3.50, 7.16 in */
    assert_int_equal(nw, 8);
    static const double sizes[] = {6, 8, 10, 12, 14};
    sweep_count k = {0}, frames = {0};
    int figures = 0;
    char path[160];
    snprintf(path, sizeof path, "%s/layout.pdf", tmpdir); /* no pixels to snap to */
    for (const char *const *name = figures_names(); *name; name++, figures++) {
        const fig_entry *e = figure_find(*name);
        clock_t t0 = clock();
        void *states[2] = {NULL, NULL};
        for (int zh = 0; zh < 2 && e->anim; zh++)
            sweep_begin(e, zh, &states[zh]);
        for (int w = 0; w < nw; w++)
            for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
                for (int zh = 0; zh < 2; zh++) {
                    /* an animation's frames (order-training is both); a slide, never a
                     * half-width subfigure (the 2.63 in width is for still figures) */
                    if (e->anim && widths[w] >= 3) {
                        sweep_count fk = {0};
                        sweep_frames(&fk, e, states[zh], widths[w], sizes[s], zh);
                        frames.drawn += fk.drawn, frames.refused += fk.refused;
                        frames.bad += fk.bad;
                    }
                    if (!e->draw)
                        continue;
                    fig_boxes boxes = {0};
                    /* the Chinese pages with panel letters, the English ones without */
                    fig_request req = input_request(*name, zh, widths[w], sizes[s]);
                    req.boxes = &boxes;
                    req.panel_labels = zh;
                    char msg[256];
                    int rc = export_msg(&req, &inputs.a, *name, path, msg, sizeof msg);
                    judge_still(&k, &req, *name, rc, &boxes, msg, path);
                    fig_boxes_free(&boxes);
                }
        for (int zh = 0; zh < 2 && e->anim && e->anim->end; zh++)
            e->anim->end(states[zh]);
        fprintf(stderr, "# %s: %.1f s\n", *name, (double)(clock() - t0) / CLOCKS_PER_SEC);
    }
    fprintf(stderr, "# %d figures x %d widths x 5 sizes x 2 languages: %d pages drawn, %d refused, "
            "%d bad; the animations' frames %d drawn, %d refused, %d bad\n",
            figures, nw, k.drawn, k.refused, k.bad, frames.drawn, frames.refused, frames.bad);
    assert_int_equal(k.bad, 0);
    assert_int_equal(frames.bad, 0);
}

/* At its default label size every still figure's page is at most a text block tall (9 in): its
 * labels shrink (to 6 pt) before the page grows past it; from 2 in to a text block's width, in
 * both languages. */
static void test_default_pages_at_most_9in(void **state)
{
    (void)state;
    if (fast_pass_only("9 in pages"))
        return;
    static const double widths[] = {2, 3.25, 6.75};
    char path[160];
    snprintf(path, sizeof path, "%s/tall.pdf", tmpdir);
    /* the schemes figure also past its trained length (its three panels: 10.8 in at 3.25 in) */
    static tf_positions yarn;
    positions_defaults(&yarn);
    yarn.trained = 128;
    rope_scaling_defaults(ROPE_SCALING_YARN, &yarn.scaling);
    int bad = 0, drawn = 0;
    for (const char *const *name = figures_names(); *name; name++) {
        if (!figure_find(*name)->draw)
            continue;
        bool scaled = strcmp(*name, "schemes") == 0;
        for (size_t w = 0; w < sizeof widths / sizeof widths[0]; w++)
            for (int zh = 0; zh < 2 + 2 * scaled; zh++) {
                fig_boxes boxes = {0};
                fig_request req = input_request(*name, zh % 2, widths[w], 0);
                req.positions = zh >= 2 ? &yarn : NULL;
                req.boxes = &boxes;
                char msg[256];
                if (export_msg(&req, &inputs.a, *name, path, msg, sizeof msg) == 0) {
                    drawn++;
                    if (boxes.page_h > 9 * 72 + 1e-6) {
                        bad++;
                        fprintf(stderr, "# %s %.2f in %s: %.2f in tall\n", *name, widths[w],
                                zh % 2 ? "zh" : "en", boxes.page_h / 72);
                    }
                }
                fig_boxes_free(&boxes);
            }
    }
    print_message("# %d default pages drawn, %d taller than 9 in\n", drawn, bad);
    assert_true(drawn > 0);
    assert_int_equal(bad, 0);
}

/* A still figure refused at 14 pt on a narrow page names a width at which the export draws it
 * at 14 pt (no note of smaller labels), in the language asked: the width where both languages
 * fit, as the export prefers one size for both. */
static void test_named_width_holds_size(void **state)
{
    (void)state;
    if (fast_pass_only("named widths"))
        return;
    static const double widths[] = {1, 1.5};
    char path[160], msg[256], again[256];
    snprintf(path, sizeof path, "%s/named.pdf", tmpdir);
    int refused = 0;
    for (const char *const *name = figures_names(); *name; name++) {
        if (!figure_find(*name)->draw)
            continue;
        for (size_t w = 0; w < sizeof widths / sizeof widths[0]; w++)
            for (int zh = 0; zh < 2; zh++) {
                fig_request req = input_request(*name, zh, widths[w], 14);
                const char *at = NULL;
                if (export_msg(&req, &inputs.a, *name, path, msg, sizeof msg) == 0 ||
                    !(at = strstr(msg, "(--width ")))
                    continue;
                refused++;
                req.width = atof(at + strlen("(--width ")) * 72;
                if (export_msg(&req, &inputs.a, *name, path, again, sizeof again) != 0 ||
                    again[0])
                    fail_msg("%s %s at %.2f in: named %.2f in, where it is '%s'", *name,
                             zh ? "zh" : "en", widths[w], req.width / 72, again);
            }
    }
    print_message("# %d refusals named a width\n", refused);
    assert_true(refused >= 10);
}

/* An animation whose labels do not fit its frame at the size asked draws them smaller (down to
 * 6 pt), as a still figure does, and a note says so; where not even 6 pt fits, it is refused
 * naming a width computed from the frames' measurements: the asked size fits there, and not on
 * a page 3 % narrower (drawn there only with smaller labels). */
static void test_frames_refused_with_width(void **state)
{
    (void)state;
    if (fast_pass_only("frames' refusal"))
        return;
    static const struct {
        const char *name;
        double in, pt, height_in; /* 0: the height follows the width */
        bool refused;             /* at the size asked, even at 6 pt */
    } cases[] = {{"rope-rotation", 3.03, 14, 0, false}, {"pe-waves", 3.03, 14, 2.5, false},
                 {"training", 6.4, 24, 0, false}, {"rope-rotation", 2.0, 14, 0, true}};
    char dir[160], msg[256];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        for (int zh = 0; zh < 2; zh++) {
            const char *name = cases[i].name;
            snprintf(dir, sizeof dir, "%s/frames-%zu-%d/", tmpdir, i, zh);
            fig_request req = input_request(name, zh, cases[i].in, cases[i].pt);
            req.frames = 6;
            req.height = cases[i].height_in * 72;
            int rc = export_msg(&req, &inputs.a, name, dir, msg, sizeof msg);
            char asked[40];
            snprintf(asked, sizeof asked, "at %g pt they do not fit", cases[i].pt);
            if (!cases[i].refused) {
                if (rc != 0 || !strstr(msg, "note: the labels of the") || !strstr(msg, asked))
                    fail_msg("%s at %.2f in: want smaller labels and a note, got %d '%s'",
                             name, cases[i].in, rc, msg);
                continue;
            }
            assert_int_equal(rc, 2);
            const char *at = strstr(msg, "(--width ");
            if (!at)
                fail_msg("%s: %s", name, msg);
            double w = atof(at + strlen("(--width "));
            assert_true(w > cases[i].in && w < 40);
            req.width = w * 72;
            if (export_msg(&req, &inputs.a, name, dir, msg, sizeof msg) != 0 || msg[0])
                fail_msg("%s at the width it was told, %.2f in: '%s'", name, w, msg);
            req.width = floor(w * 0.97 * 100) / 100 * 72;
            if (export_msg(&req, &inputs.a, name, dir, msg, sizeof msg) != 0 ||
                !strstr(msg, "note: the labels of the"))
                fail_msg("%s: %.2f in was named, and %.2f in holds the labels too ('%s')", name,
                         w, req.width / 72, msg);
        }
}

/* What a page shows, language aside: its ticks (axis, value, labelled), how many plots, colour
 * bars, legends, heatmaps, markers and bars it drew, and the words it wrote inside its plots
 * that are not translated (the map's words, the tokens). */
typedef struct {
    double w, h;
    int n_ticks;
    double ticks[4096][3];
    int kinds[FIG_BOX_KIND_COUNT];
    int n_words;
    char words[256][40];
} page_content;

static int cmp_tick(const void *a, const void *b)
{
    const double *x = a, *y = b;
    for (int i = 0; i < 3; i++)
        if (x[i] != y[i])
            return x[i] < y[i] ? -1 : 1;
    return 0;
}

static int cmp_word(const void *a, const void *b) { return strcmp(a, b); }

static void page_content_of(const fig_boxes *b, bool words, page_content *c)
{
    memset(c, 0, sizeof *c);
    c->w = b->page_w, c->h = b->page_h;
    for (size_t i = 0; i < b->n; i++) {
        const fig_box *x = &b->v[i];
        c->kinds[x->kind]++;
        if (x->kind == FIG_BOX_TICK && c->n_ticks < 4096) {
            double *t = c->ticks[c->n_ticks++];
            t[0] = x->r.y, t[1] = x->r.x, t[2] = x->r.w;
        }
        if (words && x->kind == FIG_BOX_TEXT && x->where == FIG_TEXT_IN_PLOT && c->n_words < 256)
            snprintf(c->words[c->n_words++], 40, "%s", x->text);
    }
    qsort(c->ticks, (size_t)c->n_ticks, sizeof c->ticks[0], cmp_tick);
    qsort(c->words, (size_t)c->n_words, sizeof c->words[0], cmp_word);
}

/* NULL when a and b show the same, else what differs. */
static const char *content_differs(const page_content *a, const page_content *b, char *why,
                                   size_t n)
{
    if (fabs(a->w - b->w) > 1e-9 || fabs(a->h - b->h) > 1e-9) {
        snprintf(why, n, "page %.1f x %.1f pt against %.1f x %.1f", a->w, a->h, b->w, b->h);
        return why;
    }
    static const char *const kind[FIG_BOX_KIND_COUNT] = {
        [FIG_BOX_PLOT] = "plots", [FIG_BOX_COLORBAR] = "colour bars", [FIG_BOX_LEGEND] = "legends",
        [FIG_BOX_HEATMAP] = "heatmaps", [FIG_BOX_MARKER] = "markers", [FIG_BOX_BAR] = "bars"};
    for (int k = 0; k < FIG_BOX_KIND_COUNT; k++)
        if (kind[k] && a->kinds[k] != b->kinds[k]) {
            snprintf(why, n, "%d %s against %d", a->kinds[k], kind[k], b->kinds[k]);
            return why;
        }
    if (a->n_ticks != b->n_ticks || a->n_words != b->n_words) {
        snprintf(why, n, "%d ticks and %d words labelled against %d and %d", a->n_ticks,
                 a->n_words, b->n_ticks, b->n_words);
        return why;
    }
    for (int i = 0; i < a->n_ticks; i++)
        if (cmp_tick(a->ticks[i], b->ticks[i])) {
            snprintf(why, n, "a tick of axis %g at %g (labelled %g) against axis %g at %g "
                     "(labelled %g)", a->ticks[i][0], a->ticks[i][1], a->ticks[i][2],
                     b->ticks[i][0], b->ticks[i][1], b->ticks[i][2]);
            return why;
        }
    for (int i = 0; i < a->n_words; i++)
        if (strcmp(a->words[i], b->words[i])) {
            snprintf(why, n, "the word '%s' against '%s'", a->words[i], b->words[i]);
            return why;
        }
    return NULL;
}

/* The Chinese and the English version of every still figure show the same: the same page, the
 * same ticks on every axis and colour bar, the same number of panels, bars and markers, and on
 * the map of words the same words labelled (from the boxes the layout code recorded, not from
 * the pixels), at one and two columns and at 8 and 12 pt. */
static void test_zh_en_same(void **state)
{
    (void)state;
    /* some 260 pages */
    if (fast_pass_only("zh/en comparison"))
        return;
    static const double widths[] = {3.5, 7.16};
    static const double sizes[] = {8, 12};
    char path[160];
    snprintf(path, sizeof path, "%s/lang.pdf", tmpdir);
    page_content *pc = malloc(2 * sizeof *pc);
    assert_non_null(pc);
    int bad = 0, pairs = 0, refused = 0;
    for (const char *const *name = figures_names(); *name; name++) {
        if (!figure_find(*name)->draw)
            continue; /* an animation only */
        bool words = strcmp(*name, "embedding-map") == 0;
        for (size_t w = 0; w < 2; w++)
            for (size_t s = 0; s < 2; s++) {
                int rc[2];
                char msg[256];
                for (int zh = 0; zh < 2; zh++) {
                    fig_boxes boxes = {0};
                    fig_request req = input_request(*name, zh, widths[w], sizes[s]);
                    req.boxes = &boxes;
                    rc[zh] = export_msg(&req, &inputs.a, *name, path, msg, sizeof msg);
                    page_content_of(&boxes, words, &pc[zh]);
                    fig_boxes_free(&boxes);
                }
                char why[200];
                const char *d = rc[0] || rc[1] ? NULL : content_differs(&pc[1], &pc[0], why,
                                                                        sizeof why);
                /* a language whose labels cannot fit is refused (the layout sweep's rule: a
                 * column at a large size only); the other is drawn as it can be */
                if ((rc[0] || rc[1]) && (widths[w] > 4 || sizes[s] < 10))
                    d = "refused in a language at a size that must fit";
                pairs++;
                refused += rc[0] || rc[1];
                if (d) {
                    bad++;
                    fprintf(stderr, "# %s %.2f in %g pt: zh %s en\n", *name, widths[w], sizes[s],
                            d);
                }
            }
    }
    fprintf(stderr, "# %d figure pages in both languages, %d differ, %d too small in a "
            "language\n", pairs, bad, refused);
    free(pc);
    assert_int_equal(bad, 0);
}

/* A figure across a text block (two columns, 7.16 in) lays its panels side by side at a height
 * a paper can take: at most 3.5 in at the default size, in both languages (pe-file's three
 * panels stood 8.2 in tall, one above the other). The map of words is one plot with equal
 * scales on its two axes (distances in it mean something): no taller than it is wide. */
static void test_two_column_heights(void **state)
{
    (void)state;
    if (fast_pass_only("two-column heights"))
        return;
    char path[160];
    snprintf(path, sizeof path, "%s/wide.pdf", tmpdir);
    int tall = 0, n = 0;
    for (const char *const *name = figures_names(); *name; name++) {
        if (!figure_find(*name)->draw)
            continue; /* an animation only: a slide */
        for (int zh = 0; zh < 2; zh++) {
            fig_boxes boxes = {0};
            fig_request req = input_request(*name, zh, 7.16, 0);
            req.boxes = &boxes;
            char msg[256];
            assert_int_equal(export_msg(&req, &inputs.a, *name, path, msg, sizeof msg), 0);
            n++;
            bool map = strcmp(*name, "embedding-map") == 0;
            if (boxes.page_h > (map ? boxes.page_w : 3.5 * 72) + 0.5) {
                tall++;
                fprintf(stderr, "# %s %s at two columns: %.2f in tall\n", *name,
                        zh ? "zh" : "en", boxes.page_h / 72);
            }
            fig_boxes_free(&boxes);
        }
    }
    fprintf(stderr, "# %d two-column pages, %d taller than 3.5 in\n", n, tall);
    assert_true(n >= 30);
    assert_int_equal(tall, 0);
}

/* --no-title drops the figure's title and nothing else: the panel subtitles (what rope (b)'s
 * arrows are) stay, in both languages and at both widths; without it the title is there. */
static void test_no_title_keeps_subtitles(void **state)
{
    (void)state;
    if (fast_pass_only("--no-title sweep"))
        return;
    static const double widths[] = {3.5, 7.16};
    char path[160];
    snprintf(path, sizeof path, "%s/notitle.pdf", tmpdir);
    int bad = 0, titled = 0, subtitles[2] = {0, 0};
    for (const char *const *name = figures_names(); *name; name++) {
        const fig_entry *e = figure_find(*name);
        if (!e->draw)
            continue; /* an animation only */
        for (size_t w = 0; w < 2; w++)
            for (int zh = 0; zh < 2; zh++)
                for (int no = 0; no < 2; no++) {
                    fig_boxes boxes = {0};
                    fig_request req = input_request(*name, zh, widths[w], 9);
                    req.boxes = &boxes;
                    req.no_title = no;
                    char msg[256];
                    int rc = export_msg(&req, &inputs.a, *name, path, msg, sizeof msg);
                    for (size_t i = 0; rc == 0 && i < boxes.n; i++) {
                        const fig_box *b = &boxes.v[i];
                        if (b->kind != FIG_BOX_TEXT || b->title_role != FIG_TITLE_ROLE_TITLE)
                            continue;
                        /* b->text: the text's start */
                        if (!b->text[0] ||
                            strncmp(b->text, txt_lang(e->title, zh), strlen(b->text)) != 0) {
                            subtitles[no]++;
                            continue;
                        }
                        if (no) {
                            print_message("# %s %s %.2f in --no-title: \"%s\" remains\n", *name,
                                          zh ? "zh" : "en", widths[w], b->text);
                            bad++;
                        } else {
                            titled++;
                        }
                    }
                    fig_boxes_free(&boxes);
                }
    }
    assert_true(titled > 0);
    assert_int_equal(bad, 0);
    print_message("# subtitles: %d with the title, %d without\n", subtitles[0], subtitles[1]);
    assert_int_equal(subtitles[1], subtitles[0]);
}

/* The ticks of one colour bar (its FIG_BOX_COLORBAR box): those whose box's plot is the bar's
 * rectangle. */
typedef struct {
    double lo, hi;            /* the lowest and highest tick */
    int labelled, neg, pos, zero; /* labelled ticks: all, below 0, above 0, at 0 */
} bar_ticks;

static bar_ticks colorbar_ticks(const fig_boxes *boxes, const fig_box *bar)
{
    bar_ticks t = {.lo = INFINITY, .hi = -INFINITY};
    for (size_t j = 0; j < boxes->n; j++) {
        const fig_box *b = &boxes->v[j];
        if (b->kind != FIG_BOX_TICK || b->r.y != 2 || memcmp(&b->plot, &bar->r, sizeof bar->r))
            continue;
        t.lo = fmin(t.lo, b->r.x), t.hi = fmax(t.hi, b->r.x);
        if (b->r.w == 1) {
            t.labelled++;
            t.neg += b->r.x < 0, t.pos += b->r.x > 0, t.zero += b->r.x == 0;
        }
    }
    return t;
}

/* --vmin/--vmax set the colour limits of the heatmap whose quantity they name (the other panels
 * keep their own scales, issue 29): on every page with a colour bar, one bar's ticks lie within
 * them and reach from near the one to near the other. */
static void test_vmin_vmax_every_heatmap(void **state)
{
    (void)state;
    if (fast_pass_only("--vmin/--vmax sweep"))
        return;
    char path[160];
    snprintf(path, sizeof path, "%s/vlim.pdf", tmpdir);
    const double lo = -0.4, hi = 0.6;
    int bad = 0, bars = 0;
    for (const char *const *name = figures_names(); *name; name++) {
        if (!figure_find(*name)->draw)
            continue; /* an animation only */
        for (int zh = 0; zh < 2; zh++) {
            fig_boxes boxes = {0};
            fig_request req = input_request(*name, zh, 7.16, 9);
            req.boxes = &boxes;
            req.has_vmin = req.has_vmax = true;
            req.vmin = lo, req.vmax = hi;
            char msg[256];
            int rc = export_msg(&req, &inputs.a, *name, path, msg, sizeof msg);
            int nbar = 0, spans = 0;
            for (size_t i = 0; rc == 0 && i < boxes.n; i++) {
                if (boxes.v[i].kind != FIG_BOX_COLORBAR)
                    continue;
                bar_ticks t = colorbar_ticks(&boxes, &boxes.v[i]);
                nbar++;
                spans += t.lo >= lo - 1e-9 && t.hi <= hi + 1e-9 && t.lo <= lo + 0.25 &&
                         t.hi >= hi - 0.25;
            }
            bars += nbar > 0;
            if (nbar > 0 && !spans) {
                print_message("# %s %s: no colour bar spans --vmin %g --vmax %g\n", *name,
                              zh ? "zh" : "en", lo, hi);
                bad++;
            }
            fig_boxes_free(&boxes);
        }
    }
    assert_true(bars > 0);
    assert_int_equal(bad, 0);
}

/* Every colour bar labels at least two values, and 0 when it labels values of both signs: at 3.25
 * in and 10 pt, the bar of embedding had one tick (0.00) before. */
static void test_colorbar_two_ticks(void **state)
{
    (void)state;
    char path[160];
    snprintf(path, sizeof path, "%s/cbar.pdf", tmpdir);
    int bad = 0, bars = 0;
    for (const char *const *name = figures_names(); *name; name++) {
        if (!figure_find(*name)->draw)
            continue;
        for (int zh = 0; zh < 2; zh++) {
            fig_boxes boxes = {0};
            fig_request req = input_request(*name, zh, 3.25, 10);
            req.boxes = &boxes;
            char msg[256];
            int rc = export_msg(&req, &inputs.a, *name, path, msg, sizeof msg);
            for (size_t i = 0; rc == 0 && i < boxes.n; i++) {
                if (boxes.v[i].kind != FIG_BOX_COLORBAR)
                    continue;
                bar_ticks t = colorbar_ticks(&boxes, &boxes.v[i]);
                bars++;
                if (t.labelled < 2 || (t.neg && t.pos && !t.zero)) {
                    print_message("# %s %s: a colour bar labels %d values (0: %d)\n", *name,
                                  zh ? "zh" : "en", t.labelled, t.zero);
                    bad++;
                }
            }
            fig_boxes_free(&boxes);
        }
    }
    print_message("# %d colour bars at 3.25 in, 10 pt\n", bars);
    assert_true(bars > 0);
    assert_int_equal(bad, 0);
}

/* freq's log axis (frequencies and wavelengths): its labelled ticks reach within a decade of the
 * lowest frequency and of the longest wavelength at every d_model, in both languages. */
static void test_log_ticks_span_data(void **state)
{
    (void)state;
    static const int dims[] = {8, 64, 512, 4096};
    const char *text = "我爱学习";
    char path[160];
    snprintf(path, sizeof path, "%s/logticks.pdf", tmpdir);
    int bad = 0;
    for (size_t i = 0; i < sizeof dims / sizeof dims[0]; i++) {
        tf_config cfg;
        config_defaults(&cfg);
        cfg.d_model = dims[i];
        cfg.n_positions = 64;
        tf_analysis a;
        assert_int_equal(analysis_run(&cfg, text, strlen(text), &a, NULL), TF_OK);
        double w_min = pow(cfg.base, -(double)(dims[i] - 2) / dims[i]);
        double wl_max = 2 * M_PI / w_min;
        for (int zh = 0; zh < 2; zh++) {
            fig_boxes boxes = {0};
            fig_request req = input_request("freq", zh, 3.5, 8);
            req.boxes = &boxes;
            char msg[256];
            assert_int_equal(export_msg(&req, &a, "freq", path, msg, sizeof msg), 0);
            /* the first plot's labelled y ticks */
            fig_rect first = {0};
            bool have = false;
            double tmin = INFINITY, tmax = -INFINITY;
            int nt = 0;
            for (size_t k = 0; k < boxes.n; k++) {
                const fig_box *b = &boxes.v[k];
                if (b->kind != FIG_BOX_TICK || b->r.y != 1 || b->r.w != 1)
                    continue;
                if (!have)
                    first = b->plot, have = true;
                if (memcmp(&b->plot, &first, sizeof first) != 0)
                    continue;
                tmin = fmin(tmin, b->r.x), tmax = fmax(tmax, b->r.x), nt++;
            }
            if (nt < 3 || tmin > 10 * w_min || tmax < wl_max / 10) {
                print_message("# freq d=%d %s: %d log ticks %g .. %g for data %g .. %g\n", dims[i],
                              zh ? "zh" : "en", nt, tmin, tmax, w_min, wl_max);
                bad++;
            }
            fig_boxes_free(&boxes);
        }
        analysis_free(&a);
    }
    assert_int_equal(bad, 0);
}

/* The order figure's note names the head its numbers come from, as view 6 and --print order
 * do (head_index + 1 of heads_in_layer), in both languages, at one and two columns and in
 * whichever of the note's forms fits. */
static void test_order_note_names_head(void **state)
{
    (void)state;
    static const char *const texts[] = {"我爱学习", "我爱", "the cat sat on the mat", "猫坐在垫子上"};
    char path[160];
    snprintf(path, sizeof path, "%s/order-head.pdf", tmpdir);
    int heads_seen = 0, not_first = 0;
    for (size_t t = 0; t < sizeof texts / sizeof texts[0]; t++) {
        tf_config cfg;
        config_defaults(&cfg);
        tf_analysis a;
        assert_int_equal(analysis_run(&cfg, texts[t], strlen(texts[t]), &a, NULL), TF_OK);
        for (int zh = 0; zh < 2; zh++)
            for (int wide = 0; wide < 2; wide++) {
                fig_boxes boxes = {0};
                fig_request req = input_request("order", zh, wide ? 7.16 : 3.5, 8);
                req.boxes = &boxes;
                char msg[256];
                assert_int_equal(export_msg(&req, &a, "order", path, msg, sizeof msg), 0);
                /* the head the analysis chose, as --print order reports it */
                int want = a.order_head.head + 1, of = a.order_by_scheme ? 1 : ATTN_HEADS;
                int found = 0;
                for (size_t i = 0; i < boxes.n; i++) {
                    const fig_box *b = &boxes.v[i];
                    int h = 0, n = 0;
                    if (b->kind != FIG_BOX_TEXT)
                        continue;
                    const char *of_n = strstr(b->text, "共 ");
                    if (zh ? strncmp(b->text, "第 ", strlen("第 ")) == 0 && of_n &&
                                 sscanf(b->text, "第 %d", &h) == 1 &&
                                 sscanf(of_n, "共 %d", &n) == 1
                           : sscanf(b->text, "Head %d of %d", &h, &n) == 2) {
                        found++;
                        assert_int_equal(h, want);
                        assert_int_equal(n, of);
                    }
                }
                if (found != 1)
                    fail_msg("%s %s %s: %d notes name the head", texts[t], zh ? "zh" : "en",
                             wide ? "7.16 in" : "3.5 in", found);
                heads_seen++;
                not_first += want != 1;
                fig_boxes_free(&boxes);
            }
        analysis_free(&a);
    }
    assert_int_equal(heads_seen, 16);
    assert_true(not_first > 0); /* some sentence's head is not the layer's first */
}

static void test_bad_requests(void **state)
{
    (void)state;
    char path[128];
    tf_config cfg;
    config_defaults(&cfg);
    fig_request base = {.zh = true};
    tf_analysis a;
    assert_int_equal(analysis_run(&cfg, "ab", 2, &a, NULL), TF_OK);
    char msg[256];
    snprintf(path, sizeof path, "%s/x.png", tmpdir);
    assert_int_equal(export_msg(&base, &a, "nope", path, msg, sizeof msg), 2);
    assert_non_null(strstr(msg, "--figure"));
    snprintf(path, sizeof path, "%s/x.jpg", tmpdir);
    assert_int_equal(export_msg(&base, &a, "pe", path, msg, sizeof msg), 2);
    assert_non_null(strstr(msg, ".png"));
    snprintf(path, sizeof path, "%s/missing/x.png", tmpdir);
    assert_int_equal(export_msg(&base, &a, "pe", path, msg, sizeof msg), 1);
    assert_non_null(strstr(msg, "cannot write"));
    assert_int_equal(export_msg(&base, &a, "pe", tmpdir, msg, sizeof msg), 2);
    analysis_free(&a);
}

static void test_parse_length(void **state)
{
    (void)state;
    assert_close(fig_parse_length("3.5in"), 252.0, 1e-12);
    assert_close(fig_parse_length("3.5"), 252.0, 1e-12);
    assert_close(fig_parse_length("2.54cm"), 72.0, 1e-12);
    assert_close(fig_parse_length("89mm"), 89 / 25.4 * 72, 1e-12);
    assert_close(fig_parse_length("100pt"), 100.0, 1e-12);
    assert_close(fig_parse_length("two-column"), 7.16 * 72, 1e-12);
    assert_close(fig_parse_length("half"), 3.5 * 72, 1e-12); /* (7.16 - 0.16) / 2 */
    assert_true(fig_parse_length("3.5km") < 0);
    assert_true(fig_parse_length("-3in") < 0);
    assert_true(fig_parse_length("in") < 0);
}

/* test_figure [NAME... | --except NAME...]: the tests named, or all but those (select_tests.h);
 * tests/meson.build runs the long sweeps as meson tests of their own, in parallel. */
int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_markup_text),
        cmocka_unit_test(test_png_size_dpi_metadata),
        cmocka_unit_test(test_png_cell_colours),
        cmocka_unit_test(test_png_colormap_option),
        cmocka_unit_test(test_dot_cells),
        cmocka_unit_test(test_every_figure_every_format),
        cmocka_unit_test(test_pdf_single_revision),
        cmocka_unit_test(test_layouts_hold),
        cmocka_unit_test(test_frames_refused_with_width),
        cmocka_unit_test(test_default_pages_at_most_9in),
        cmocka_unit_test(test_named_width_holds_size),
        cmocka_unit_test(test_zh_en_same),
        cmocka_unit_test(test_no_title_keeps_subtitles),
        cmocka_unit_test(test_vmin_vmax_every_heatmap),
        cmocka_unit_test(test_colorbar_two_ticks),
        cmocka_unit_test(test_log_ticks_span_data),
        cmocka_unit_test(test_order_note_names_head),
        cmocka_unit_test(test_two_column_heights),
        cmocka_unit_test(test_bad_requests),
        cmocka_unit_test(test_parse_length),
    };
    enum { n_tests = sizeof tests / sizeof tests[0] };
    struct CMUnitTest chosen[n_tests];
    int n = select_tests(tests, n_tests, argc, argv, chosen);
    if (n < 0)
        return 2;
    int failed = _cmocka_run_group_tests("test_figure", chosen, (size_t)n, setup_dir, remove_dir);
    fig_release_fonts();
    return failed;
}
