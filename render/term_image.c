/* term_image.c — pictures for the terminal: sixel, iTerm2 and symbols through libchafa, kitty's
 * protocol written here; and the bytes that place and erase them.
 *
 * chafa scales and encodes; the control sequences around its image data are ours, given to it
 * through its ChafaTermInfo API, so nothing here reads or edits the bytes chafa writes. Symbols
 * are read back cell by cell (chafa_canvas_get_char_at / get_colors_at) and written with our
 * own colour sequences, which lets a front-end place each row where it wants.
 *
 * kitty's graphics protocol (documented by kitty: "Terminal graphics protocol") is written here
 * from the pixels: chafa 1.12's base64 encoder gets the last byte of a chunk wrong when the
 * chunk's length leaves 2 over a multiple of 3 (fixed upstream after 1.12), which in its 512-byte
 * kitty chunks turns the alpha of every 128th pixel from 255 into 243; and a figure, flat colour
 * and text, compresses to a few percent with zlib (o=z), which chafa does not use: a 1920 x 1080
 * figure goes to the terminal as some 200 KB instead of 11 MB. */
#include "term_image.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <zlib.h>

#include "tf_config.h"
#include "utf8.h"

#if TF_HAVE_CHAFA
#include <chafa.h>
#endif

static const char *const mode_names[TIMG_MODE_COUNT] = {"none", "symbols", "sixel", "kitty",
                                                        "iterm"};

const char *timg_mode_name(timg_mode m)
{
    return (unsigned)m < TIMG_MODE_COUNT ? mode_names[m] : "unknown";
}

timg_mode timg_mode_parse(const char *s)
{
    if (!s)
        return TIMG_MODE_COUNT;
    for (int m = 0; m < TIMG_MODE_COUNT; m++)
        if (strcasecmp(s, mode_names[m]) == 0)
            return (timg_mode)m;
    return TIMG_MODE_COUNT;
}

bool term_image_supports(timg_mode m)
{
    if (m == TIMG_KITTY)
        return true;
    return TF_HAVE_CHAFA && m > TIMG_NONE && m < TIMG_MODE_COUNT;
}

void term_image_pixel_size(const timg_caps *caps, int cols, int rows, int *width, int *height)
{
    int cw = caps->cell_w > 0 ? caps->cell_w : TIMG_DEFAULT_CELL_W;
    int ch = caps->cell_h > 0 ? caps->cell_h : TIMG_DEFAULT_CELL_H;
    *width = cols > 0 ? cols * cw : 0;
    *height = rows > 0 ? rows * ch : 0;
    if (caps->mode == TIMG_SIXEL)
        *height -= *height % 6; /* whole sixel bands, none past the bottom row */
}

void term_image_free(term_image *img)
{
    if (!img)
        return;
    free(img->seq);
    free(img->cells);
    memset(img, 0, sizeof *img);
}

/* ---------------------------------------------------------------------------------------------
 * Encoding (libchafa) */

/* Whether w x h pixels are within the limits of one picture (term_image.h). */
static bool pixels_fit(double w, double h)
{
    return w <= TIMG_MAX_PIXELS && h <= TIMG_MAX_PIXELS && w * h <= TIMG_MAX_AREA;
}

void term_image_fit(const timg_caps *caps, int *cols, int *rows)
{
    if (*cols < 1 || *rows < 1)
        return;
    double cw = caps->cell_w > 0 ? caps->cell_w : TIMG_DEFAULT_CELL_W;
    double ch = caps->cell_h > 0 ? caps->cell_h : TIMG_DEFAULT_CELL_H;
    double w = *cols * cw, h = *rows * ch;
    double s = fmin(1.0, fmin((double)TIMG_MAX_CELLS / *cols, (double)TIMG_MAX_CELLS / *rows));
    s = fmin(s, fmin(TIMG_MAX_PIXELS / w, TIMG_MAX_PIXELS / h));
    s = fmin(s, sqrt(TIMG_MAX_AREA / (w * h)));
    if (s < 1.0) /* rounded down: within every limit (0 when not even one cell fits) */
        *cols = (int)floor(*cols * s), *rows = (int)floor(*rows * s);
}

static bool bad_request(const timg_caps *caps, const timg_pixels *px, int cols, int rows)
{
    if (caps->mode <= TIMG_NONE || caps->mode >= TIMG_MODE_COUNT || cols < 1 || rows < 1 ||
        cols > TIMG_MAX_CELLS || rows > TIMG_MAX_CELLS || !px->data || px->width < 1 ||
        px->height < 1 || px->stride < px->width * 4)
        return true;
    /* the pixels given and the pixels drawn for the terminal (chafa sizes its canvas so) */
    int w, h;
    term_image_pixel_size(caps, cols, rows, &w, &h);
    return !pixels_fit(px->width, px->height) || !pixels_fit(w, h);
}

/* ---------------------------------------------------------------------------------------------
 * kitty: RGB (or RGBA where some pixel is not opaque), deflated, base64 in chunks */

/* kitty image numbers this process hands out: the process id in the high bits, so two programs
 * in one terminal window do not delete each other's pictures, and a counter below. */
static uint32_t next_kitty_id(void)
{
    static unsigned counter;
    uint32_t id = ((uint32_t)getpid() << 12) ^
                  (uint32_t)(__atomic_add_fetch(&counter, 1, __ATOMIC_RELAXED) & 0xfff);
    return id ? id : 1;
}

/* Pixel x of row as straight (not premultiplied) R, G, B, A. */
static void pixel_rgba(const timg_pixels *px, const unsigned char *row, int x, unsigned char *o)
{
    if (px->format == TIMG_RGBA8) {
        memcpy(o, row + 4 * x, 4);
        return;
    }
    uint32_t p;
    memcpy(&p, row + 4 * x, 4);
    unsigned a = p >> 24, c[3] = {(p >> 16) & 255, (p >> 8) & 255, p & 255};
    for (int k = 0; k < 3; k++)
        o[k] = (unsigned char)(a == 255 || a == 0 ? c[k] : (c[k] * 255 + a / 2) / a);
    o[3] = (unsigned char)a;
}

/* The pixels packed as RGB (bpp 3) into out; false, and out partly written, at the first pixel
 * that is not opaque. The common case, a figure's opaque page, in one pass. */
static bool pack_rgb(const timg_pixels *px, unsigned char *out)
{
    for (int y = 0; y < px->height; y++) {
        const unsigned char *row = px->data + (size_t)y * (size_t)px->stride;
        if (px->format == TIMG_ARGB32) {
            for (int x = 0; x < px->width; x++, out += 3) {
                uint32_t p;
                memcpy(&p, row + 4 * x, 4);
                if (p >> 24 != 255)
                    return false;
                out[0] = (unsigned char)(p >> 16);
                out[1] = (unsigned char)(p >> 8);
                out[2] = (unsigned char)p;
            }
        } else {
            for (int x = 0; x < px->width; x++, out += 3) {
                if (row[4 * x + 3] != 255)
                    return false;
                memcpy(out, row + 4 * x, 3);
            }
        }
    }
    return true;
}

static void pack_rgba(const timg_pixels *px, unsigned char *out)
{
    for (int y = 0; y < px->height; y++) {
        const unsigned char *row = px->data + (size_t)y * (size_t)px->stride;
        for (int x = 0; x < px->width; x++, out += 4)
            pixel_rgba(px, row, x, out);
    }
}

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* base64 (RFC 4648, padded) of in[0..n) to out, which has room for 4 * ((n + 2) / 3) bytes. */
static size_t base64_encode(const unsigned char *in, size_t n, char *out)
{
    size_t o = 0, i = 0;
    for (; i + 3 <= n; i += 3) {
        uint32_t v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8 | in[i + 2];
        out[o++] = b64[v >> 18];
        out[o++] = b64[(v >> 12) & 63];
        out[o++] = b64[(v >> 6) & 63];
        out[o++] = b64[v & 63];
    }
    if (i < n) {
        uint32_t v = (uint32_t)in[i] << 16 | (i + 1 < n ? (uint32_t)in[i + 1] << 8 : 0);
        out[o++] = b64[v >> 18];
        out[o++] = b64[(v >> 12) & 63];
        out[o++] = i + 1 < n ? b64[(v >> 6) & 63] : '=';
        out[o++] = '=';
    }
    return o;
}

/* kitty takes at most 4096 bytes of base64 in one command. */
#define KITTY_CHUNK 4096

/* The pixels as kitty commands: the first carries the keys (transmit and show a=T, format f=24
 * or 32, size s and v, cells c and r, image i, no replies q=2, cursor kept C=1, deflated o=z),
 * each carries up to 4096 bytes of base64, m=1 on all but the last. */
static tf_status kitty_encode(const timg_pixels *px, int cols, int rows, uint32_t id,
                              term_image *out)
{
    /* 1. the pixels, packed, as RGB when all are opaque (a figure's page is), else RGBA */
    size_t n_px = (size_t)px->width * (size_t)px->height;
    unsigned char *raw = malloc(n_px * 4);
    if (!raw)
        return TF_ERR_NOMEM;
    int bpp = 3;
    if (!pack_rgb(px, raw)) {
        bpp = 4;
        pack_rgba(px, raw);
    }
    size_t raw_len = n_px * (size_t)bpp;
    /* 2. deflated (zlib format, as kitty's o=z asks); level 1: the flat colour of a figure
     * compresses nearly as well as at level 6, in a third of the time */
    uLongf z_len = compressBound((uLong)raw_len);
    unsigned char *z = malloc(z_len);
    if (!z || compress2(z, &z_len, raw, (uLong)raw_len, 1) != Z_OK) {
        free(raw);
        free(z);
        return TF_ERR_NOMEM;
    }
    free(raw);
    /* 3. base64 in chunks, each wrapped in its command */
    size_t b_len = 4 * (((size_t)z_len + 2) / 3);
    size_t n_chunks = (b_len + KITTY_CHUNK - 1) / KITTY_CHUNK;
    size_t cap = b_len + n_chunks * 16 + 160;
    char *b = malloc(b_len), *seq = malloc(cap);
    if (!b || !seq) {
        free(z);
        free(b);
        free(seq);
        return TF_ERR_NOMEM;
    }
    base64_encode(z, z_len, b);
    free(z);
    size_t n = (size_t)snprintf(seq, cap, "\033_Ga=T,f=%d,o=z,s=%d,v=%d,c=%d,r=%d,i=%u,q=2,C=1,",
                                bpp * 8, px->width, px->height, cols, rows, (unsigned)id);
    for (size_t k = 0; k < n_chunks; k++) {
        size_t at = k * KITTY_CHUNK, len = b_len - at < KITTY_CHUNK ? b_len - at : KITTY_CHUNK;
        bool more = k + 1 < n_chunks;
        n += (size_t)snprintf(seq + n, cap - n, k ? "\033_Gm=%d;" : "m=%d;", more ? 1 : 0);
        memcpy(seq + n, b + at, len);
        n += len;
        seq[n++] = '\033';
        seq[n++] = '\\';
    }
    free(b);
    out->seq = seq;
    out->len = n;
    out->px_w = px->width;
    out->px_h = px->height;
    out->id = id;
    return TF_OK;
}

/* ---------------------------------------------------------------------------------------------
 * sixel, iTerm2 and symbols (libchafa) */

#if TF_HAVE_CHAFA

static bool set_seq(ChafaTermInfo *ti, ChafaTermSeq seq, const char *str)
{
    GError *err = NULL;
    chafa_term_info_set_seq(ti, seq, str, &err);
    if (err) {
        g_error_free(err);
        return false;
    }
    return true;
}

/* The sequences chafa puts around its image data (sixel, iTerm2). */
static ChafaTermInfo *term_info_for(timg_mode mode)
{
    ChafaTermInfo *ti = chafa_term_info_new();
    bool ok = mode == TIMG_SIXEL
                  ? set_seq(ti, CHAFA_TERM_SEQ_BEGIN_SIXELS, "\033P%1;%2;%3q") &&
                        set_seq(ti, CHAFA_TERM_SEQ_END_SIXELS, "\033\\")
                  : set_seq(ti, CHAFA_TERM_SEQ_BEGIN_ITERM2_IMAGE,
                            "\033]1337;File=inline=1;width=%1;height=%2;preserveAspectRatio=0:") &&
                        set_seq(ti, CHAFA_TERM_SEQ_END_ITERM2_IMAGE, "\a");
    if (!ok) {
        chafa_term_info_unref(ti);
        return NULL;
    }
    return ti;
}

static ChafaPixelType chafa_pixel_type(timg_pixel_format f)
{
    if (f == TIMG_RGBA8)
        return CHAFA_PIXEL_RGBA8_UNASSOCIATED;
    /* a native-endian 0xAARRGGBB word is B, G, R, A in memory on a little-endian machine */
    static const uint32_t probe = 1;
    return *(const unsigned char *)&probe ? CHAFA_PIXEL_BGRA8_PREMULTIPLIED
                                          : CHAFA_PIXEL_ARGB8_PREMULTIPLIED;
}

static tf_rgb unpack_rgb(gint packed)
{
    if (packed < 0) /* transparent: the figure pages are opaque, so this is only a guard */
        return (tf_rgb){255, 255, 255};
    return (tf_rgb){(uint8_t)(packed >> 16), (uint8_t)(packed >> 8), (uint8_t)packed};
}

static tf_status read_cells(ChafaCanvas *canvas, term_image *img)
{
    img->cells = malloc((size_t)img->cols * (size_t)img->rows * sizeof *img->cells);
    if (!img->cells)
        return TF_ERR_NOMEM;
    for (int y = 0; y < img->rows; y++)
        for (int x = 0; x < img->cols; x++) {
            timg_cell *c = &img->cells[(size_t)y * (size_t)img->cols + (size_t)x];
            gint fg, bg;
            c->ch = chafa_canvas_get_char_at(canvas, x, y);
            chafa_canvas_get_colors_at(canvas, x, y, &fg, &bg);
            c->fg = unpack_rgb(fg);
            c->bg = unpack_rgb(bg);
            c->fg_index = c->bg_index = 0;
            if (!img->truecolor) {
                chafa_canvas_get_raw_colors_at(canvas, x, y, &fg, &bg);
                c->fg_index = (uint8_t)(fg >= 0 && fg < 256 ? fg : 16);
                c->bg_index = (uint8_t)(bg >= 0 && bg < 256 ? bg : 231);
            }
        }
    return TF_OK;
}

/* sixel, iTerm2 or symbols through a chafa canvas of cols x rows cells. */
static tf_status chafa_encode(const timg_caps *caps, const timg_pixels *px, int cols, int rows,
                              term_image *out)
{
    /* 1. the canvas: cells, the cell size in pixels, and what the cells may hold; chafa sizes a
     * pixel canvas as term_image_pixel_size does (cells times the cell size, a sixel image
     * rounded down to whole bands) */
    ChafaCanvasConfig *cfg = chafa_canvas_config_new();
    chafa_canvas_config_set_geometry(cfg, cols, rows);
    int w, h;
    term_image_pixel_size(caps, cols, rows, &w, &h);
    chafa_canvas_config_set_cell_geometry(cfg, w / cols,
                                          caps->cell_h > 0 ? caps->cell_h : TIMG_DEFAULT_CELL_H);
    if (caps->mode == TIMG_SYMBOLS) {
        out->truecolor = caps->truecolor;
        chafa_canvas_config_set_pixel_mode(cfg, CHAFA_PIXEL_MODE_SYMBOLS);
        chafa_canvas_config_set_canvas_mode(cfg, caps->truecolor ? CHAFA_CANVAS_MODE_TRUECOLOR
                                                                 : CHAFA_CANVAS_MODE_INDEXED_240);
        /* block elements and spaces only: the characters the half-block views already use,
         * one column wide in every font that has them */
        ChafaSymbolMap *map = chafa_symbol_map_new();
        chafa_symbol_map_add_by_tags(map, CHAFA_SYMBOL_TAG_BLOCK | CHAFA_SYMBOL_TAG_SPACE);
        chafa_symbol_map_remove_by_tags(map, CHAFA_SYMBOL_TAG_WIDE);
        chafa_canvas_config_set_symbol_map(cfg, map);
        chafa_symbol_map_unref(map);
    } else {
        chafa_canvas_config_set_pixel_mode(cfg, caps->mode == TIMG_SIXEL ? CHAFA_PIXEL_MODE_SIXELS
                                                                         : CHAFA_PIXEL_MODE_ITERM2);
        chafa_canvas_config_set_canvas_mode(cfg, CHAFA_CANVAS_MODE_TRUECOLOR);
        out->px_w = w;
        out->px_h = h;
    }
    /* a figure is flat colour and text: dithering would only add noise to its edges */
    chafa_canvas_config_set_dither_mode(cfg, CHAFA_DITHER_MODE_NONE);

    /* 2. the pixels, scaled to the canvas */
    ChafaCanvas *canvas = chafa_canvas_new(cfg);
    chafa_canvas_config_unref(cfg);
    chafa_canvas_draw_all_pixels(canvas, chafa_pixel_type(px->format), px->data, px->width,
                                 px->height, px->stride);

    /* 3. the bytes (pixel modes) or the cells (symbols) */
    tf_status st = TF_OK;
    if (caps->mode == TIMG_SYMBOLS) {
        st = read_cells(canvas, out);
    } else {
        ChafaTermInfo *ti = term_info_for(caps->mode);
        GString *s = ti ? chafa_canvas_print(canvas, ti) : NULL;
        if (ti)
            chafa_term_info_unref(ti);
        if (!s) {
            st = TF_ERR_NOMEM;
        } else {
            out->len = s->len;
            out->seq = g_string_free(s, FALSE); /* g_malloc'd: glib's allocator is malloc */
        }
    }
    chafa_canvas_unref(canvas);
    return st;
}

#endif

tf_status term_image_encode(const timg_caps *caps, const timg_pixels *px, int cols, int rows,
                            uint32_t id, term_image *out)
{
    memset(out, 0, sizeof *out);
    if (bad_request(caps, px, cols, rows))
        return TF_ERR_RANGE;
    int w, h;
    term_image_pixel_size(caps, cols, rows, &w, &h);
    if (h < 1) /* sixel: fewer than 6 pixel rows in all */
        return TF_ERR_RANGE;
    if (!term_image_supports(caps->mode))
        return TF_ERR_UNSUPPORTED;
    out->mode = caps->mode;
    out->cols = cols;
    out->rows = rows;
    tf_status st;
    if (caps->mode == TIMG_KITTY)
        st = kitty_encode(px, cols, rows, id ? id : next_kitty_id(), out);
    else
#if TF_HAVE_CHAFA
        st = chafa_encode(caps, px, cols, rows, out);
#else
        st = TF_ERR_UNSUPPORTED;
#endif
    if (st != TF_OK)
        term_image_free(out);
    return st;
}

/* ---------------------------------------------------------------------------------------------
 * Writing: everything goes through a small buffer to one write() loop */

typedef struct {
    int fd;
    bool failed;
    size_t n;
    char buf[8192];
} out_buf;

static void ob_flush(out_buf *o)
{
    size_t done = 0;
    while (!o->failed && done < o->n) {
        ssize_t w = write(o->fd, o->buf + done, o->n - done);
        if (w > 0) {
            done += (size_t)w;
        } else if (w < 0 && errno == EAGAIN) { /* a non-blocking descriptor: wait for room */
            struct pollfd p = {.fd = o->fd, .events = POLLOUT};
            if (poll(&p, 1, 5000) <= 0)
                o->failed = true;
        } else if (w == 0 || errno != EINTR) {
            o->failed = true;
        }
    }
    o->n = 0;
}

static void ob_put(out_buf *o, const char *s, size_t len)
{
    while (len && !o->failed) {
        if (o->n == sizeof o->buf)
            ob_flush(o);
        size_t k = sizeof o->buf - o->n < len ? sizeof o->buf - o->n : len;
        memcpy(o->buf + o->n, s, k);
        o->n += k;
        s += k;
        len -= k;
    }
}

static void ob_printf(out_buf *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void ob_printf(out_buf *o, const char *fmt, ...)
{
    char tmp[96];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n > 0)
        ob_put(o, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

static tf_status ob_end(out_buf *o)
{
    ob_flush(o);
    return o->failed ? TF_ERR_IO : TF_OK;
}

/* Move to cell (col, row), 0-based. */
static void ob_goto(out_buf *o, int col, int row)
{
    ob_printf(o, "\033[%d;%dH", row + 1, col + 1);
}

/* One row of symbols, each colour change written once. */
static void put_symbol_row(out_buf *o, const term_image *img, int y)
{
    const timg_cell *row = img->cells + (size_t)y * (size_t)img->cols;
    for (int x = 0; x < img->cols; x++) {
        const timg_cell *c = &row[x];
        const timg_cell *p = x ? &row[x - 1] : NULL;
        if (img->truecolor) {
            if (!p || memcmp(&p->fg, &c->fg, sizeof c->fg) != 0 ||
                memcmp(&p->bg, &c->bg, sizeof c->bg) != 0)
                ob_printf(o, "\033[38;2;%u;%u;%u;48;2;%u;%u;%um", c->fg.r, c->fg.g, c->fg.b,
                          c->bg.r, c->bg.g, c->bg.b);
        } else if (!p || p->fg_index != c->fg_index || p->bg_index != c->bg_index) {
            ob_printf(o, "\033[38;5;%u;48;5;%um", c->fg_index, c->bg_index);
        }
        char u[4];
        size_t n = utf8_encode(c->ch, u);
        if (n == 0 || c->ch < 0x20) { /* never a control character on the screen */
            u[0] = ' ';
            n = 1;
        }
        ob_put(o, u, n);
    }
    ob_put(o, "\033[0m", 4);
}

tf_status term_image_write(const term_image *img, int fd, int col, int row)
{
    if (img->mode <= TIMG_NONE || img->mode >= TIMG_MODE_COUNT || col < 0 || row < 0)
        return TF_ERR_RANGE;
    out_buf o = {.fd = fd};
    ob_put(&o, "\0337", 2); /* DECSC: the cursor and its attributes */
    if (img->mode == TIMG_SYMBOLS) {
        for (int y = 0; y < img->rows; y++) {
            ob_goto(&o, col, row + y);
            put_symbol_row(&o, img, y);
        }
    } else {
        ob_goto(&o, col, row);
        ob_put(&o, img->seq, img->len);
    }
    ob_put(&o, "\0338", 2); /* DECRC */
    return ob_end(&o);
}

tf_status term_image_print(const term_image *img, int fd)
{
    if (img->mode <= TIMG_NONE || img->mode >= TIMG_MODE_COUNT)
        return TF_ERR_RANGE;
    out_buf o = {.fd = fd};
    if (img->mode == TIMG_SYMBOLS) {
        for (int y = 0; y < img->rows; y++) {
            put_symbol_row(&o, img, y);
            ob_put(&o, "\r\n", 2);
        }
        return ob_end(&o);
    }
    /* make room: scroll the screen now, so that the picture itself never scrolls (a terminal
     * moves a picture with the text, or does not, as it likes), then draw from the top of the
     * room with the cursor saved, and leave it below */
    ob_put(&o, "\r", 1);
    for (int y = 0; y < img->rows; y++)
        ob_put(&o, "\n", 1);
    ob_printf(&o, "\033[%dA", img->rows);
    ob_put(&o, "\0337", 2);
    ob_put(&o, img->seq, img->len);
    ob_put(&o, "\0338", 2);
    if (img->rows > 1) /* CUD 0 would move one row too */
        ob_printf(&o, "\033[%dB", img->rows - 1);
    ob_put(&o, "\r\n", 2);
    return ob_end(&o);
}

tf_status term_image_erase(int fd, timg_mode mode, uint32_t id, int col, int row, int cols,
                           int rows)
{
    if (mode <= TIMG_NONE || mode >= TIMG_MODE_COUNT || col < 0 || row < 0 || cols < 0 ||
        rows < 0 || cols > TIMG_MAX_CELLS || rows > TIMG_MAX_CELLS)
        return TF_ERR_RANGE;
    out_buf o = {.fd = fd};
    if (mode == TIMG_KITTY) {
        /* kitty draws pictures on a layer of their own: text does not cover them, deleting
         * does (d=I: this image number, and its data too) */
        ob_printf(&o, "\033_Ga=d,d=I,i=%u,q=2\033\\", (unsigned)id);
        return ob_end(&o);
    }
    /* sixel and iTerm2 pictures are pixels of the cells they cover: writing text over the cells
     * replaces them */
    ob_put(&o, "\0337\033[0m", 6);
    for (int y = 0; y < rows; y++) {
        ob_goto(&o, col, row + y);
        for (int x = 0; x < cols; x++)
            ob_put(&o, " ", 1);
    }
    ob_put(&o, "\0338", 2);
    return ob_end(&o);
}
