/* term_image.h — pictures inside the terminal: a figure's pixels sent to the terminal as kitty,
 * sixel or iTerm2 graphics, or drawn in block symbols, all encoded by libchafa; where to write
 * them, and how to take them away again.
 *
 * Encoding (term_image_encode) only computes bytes, so a front-end may run it on a thread of its
 * own while it keeps answering keys; writing (term_image_write, term_image_print) and erasing
 * (term_image_erase) go to a file descriptor the caller gives. Nothing here prints anywhere else
 * or exits. Which mode a terminal takes is decided by term_detect.h.
 *
 * kitty's protocol is written here (zlib-compressed RGB); sixel, iTerm2 and symbols come from
 * libchafa. Built without libchafa (meson -Dchafa=disabled), term_image_supports() is false for
 * those three and encoding them answers TF_ERR_UNSUPPORTED; kitty and erasing still work. */
#ifndef TF_TERM_IMAGE_H
#define TF_TERM_IMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "colormap.h"
#include "status.h"

typedef enum {
    TIMG_NONE = 0, /* no pictures: the views keep their half blocks and braille */
    TIMG_SYMBOLS,  /* block symbols in colour: any colour terminal, tmux included */
    TIMG_SIXEL,    /* DEC sixel graphics (xterm -ti vt340, foot, WezTerm, mlterm, Windows
                    * Terminal 1.22+, konsole) */
    TIMG_KITTY,    /* kitty's graphics protocol (kitty, WezTerm, Ghostty, konsole) */
    TIMG_ITERM,    /* iTerm2's inline images (iTerm2, WezTerm, mintty) */
    TIMG_MODE_COUNT
} timg_mode;

/* "none", "symbols", "sixel", "kitty", "iterm" (the words of TFVIZ_GRAPHICS). */
const char *timg_mode_name(timg_mode m);
/* The mode a word names (case-insensitive), TIMG_MODE_COUNT for another word. */
timg_mode timg_mode_parse(const char *s);
/* True when this build encodes pictures of mode m: kitty always (written here), sixel, iTerm2
 * and symbols when built with libchafa. */
bool term_image_supports(timg_mode m);

/* What the terminal takes (term_graphics_detect fills it). */
typedef struct {
    timg_mode mode;
    int cell_w, cell_h; /* pixels of one character cell; 0 when unknown */
    bool truecolor;     /* symbols: 24-bit colour, else the 256-colour palette */
} timg_caps;

/* A cell size to assume when the terminal did not tell (a common 10 x 20 pixel font). */
#define TIMG_DEFAULT_CELL_W 10
#define TIMG_DEFAULT_CELL_H 20
/* The most cells a picture may cover, and the most pixels it may carry, on either side and in
 * all. The area bounds the memory of every mode (docs/limits.md): the figure's ARGB32 page, the
 * encoder's copies and the bytes for the terminal (an iTerm2 picture is an uncompressed TIFF in
 * base64) peak at 47 MB (symbols) to 74 MB (iTerm2) for --show at this area; it is a 2,880 x
 * 1,456 picture, most of a full screen on most displays. */
#define TIMG_MAX_CELLS  4096
#define TIMG_MAX_PIXELS 16384
#define TIMG_MAX_AREA   4194304

/* Shrink a picture of *cols x *rows cells, both by one factor (its proportions kept), until it
 * stays within TIMG_MAX_CELLS, TIMG_MAX_PIXELS and TIMG_MAX_AREA at the pixel size
 * term_image_pixel_size gives; a picture within them is left as it is. A front-end calls it
 * before drawing, so a huge window gets a smaller picture instead of a refusal. */
void term_image_fit(const timg_caps *caps, int *cols, int *rows);

/* The pixel size a picture of cols x rows cells is shown at, so that a figure drawn at exactly
 * this size reaches the screen without being scaled again: cells times the cell size (the
 * default when unknown), a sixel image's height rounded down to a multiple of 6 (a sixel band)
 * so that it never spills into the row below. Symbols: the same as kitty. */
void term_image_pixel_size(const timg_caps *caps, int cols, int rows, int *width, int *height);

typedef enum {
    TIMG_RGBA8,  /* bytes R, G, B, A; alpha not premultiplied */
    TIMG_ARGB32, /* cairo's ARGB32 (render/figure.h fig_raster): native-endian words
                  * 0xAARRGGBB, alpha premultiplied */
} timg_pixel_format;

typedef struct {
    const unsigned char *data; /* (height, stride) bytes */
    int width, height;         /* pixels */
    int stride;                /* bytes from one row to the next */
    timg_pixel_format format;
} timg_pixels;

/* One cell of a picture in symbols. */
typedef struct {
    uint32_t ch;                /* the character (a block element or a space) */
    tf_rgb fg, bg;              /* its colours; in 256-colour mode the palette entry's colour */
    uint8_t fg_index, bg_index; /* 256-colour mode: the palette entries (16..255) */
} timg_cell;

/* A picture ready to be written. */
typedef struct {
    timg_mode mode;
    int cols, rows; /* the cells it covers */
    int px_w, px_h; /* pixel modes: the pixels it carries */
    uint32_t id;    /* kitty: the image's number, for deleting it */
    bool truecolor; /* symbols: 24-bit colour sequences */
    char *seq;      /* pixel modes: the protocol's bytes, to be written at the top-left cell */
    size_t len;
    timg_cell *cells; /* symbols: (rows, cols) */
} term_image;

/* Encode px to cover cols x rows cells in caps->mode (not TIMG_NONE), scaled to fill them
 * (a figure drawn at term_image_pixel_size is not scaled again; kitty receives px as it is and
 * scales it to the cells itself). id: kitty's image number, 0 for one chosen here (unique in
 * this process; tests pass their own for the same bytes every run). The same input gives the
 * same bytes. TF_ERR_RANGE (no cells, too many, no pixels or more than the limits above on
 * either side, mode none, a sixel under 6 pixels tall), TF_ERR_UNSUPPORTED (term_image_supports is false), TF_ERR_NOMEM. On failure *out is
 * empty. */
tf_status term_image_encode(const timg_caps *caps, const timg_pixels *px, int cols, int rows,
                            uint32_t id, term_image *out);
void term_image_free(term_image *img);

/* Write img with its top-left corner at cell (col, row) (0-based, from the screen's top-left),
 * keeping the cursor where it was (saved and restored around the picture). Keep a sixel picture
 * off the screen's last row: terminals move the cursor below a sixel image, and below the last
 * row that scrolls the screen. TF_ERR_IO when fd could not take the bytes (errno is kept). */
tf_status term_image_write(const term_image *img, int fd, int col, int row);
/* Write img at the cursor, as a command that prints a figure and exits does: room is made
 * below the cursor first (the screen scrolls, never the picture), and the cursor ends on the
 * line below the picture, in column 1. */
tf_status term_image_print(const term_image *img, int fd);
/* Take away a picture of mode drawn at cells (col, row) .. (col + cols, row + rows): kitty's
 * image id is deleted (with its data); sixel, iTerm2 and symbols are overwritten with blanks in
 * the default colours. The caller then redraws those cells (with ncurses, touch them first).
 * The cursor is kept. */
tf_status term_image_erase(int fd, timg_mode mode, uint32_t id, int col, int row, int cols,
                           int rows);

#endif
