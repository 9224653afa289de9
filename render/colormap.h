/* colormap.h — the colour of a value: one table per map, shared by the terminal and figures.
 *
 * Sequential maps (viridis, cividis) for magnitudes; diverging maps (RdBu, PuOr) centred on 0
 * for signed values such as PE in [-1, 1]: blue/purple below zero, white at zero, red/orange
 * above. All four are perceptually ordered and readable with the common colour-vision
 * deficiencies; gray is the monochrome ramp for NO_COLOR and print. */
#ifndef TF_COLORMAP_H
#define TF_COLORMAP_H

#include <stdbool.h>
#include <stdint.h>

typedef struct {
    uint8_t r, g, b;
} tf_rgb;

typedef enum {
    CMAP_VIRIDIS = 0,
    CMAP_CIVIDIS,
    CMAP_RDBU, /* diverging: blue - white - red */
    CMAP_PUOR, /* diverging: purple - white - orange */
    CMAP_GRAY,
    CMAP_COUNT
} cmap_id;

/* Colour at t in [0, 1] (clamped; NaN gives the middle). */
tf_rgb colormap_at(cmap_id m, double t);
/* Colour of v on the scale [lo, hi]. */
tf_rgb colormap_value(cmap_id m, double v, double lo, double hi);
/* Table index 0..255 that colormap_at uses for t (the quantisation shared by every output):
 * t * 255 rounded half away from zero, as lround does; inline, as heatmaps call it per cell. */
static inline int colormap_index(double t)
{
    t = t >= 0.0 ? (t <= 1.0 ? t : 1.0) : t != t ? 0.5 : 0.0; /* NaN: the middle */
    double y = t * 255.0;
    int i = (int)y;
    /* y - i is exact; as a 0/1 sum rather than a branch, which data would mispredict half the
     * time */
    return i + (y - (double)i >= 0.5);
}
/* The whole table: out[i] = colormap_at(m, i / 255). */
void colormap_palette(cmap_id m, tf_rgb out[256]);
bool colormap_diverging(cmap_id m);
const char *colormap_name(cmap_id m);
/* CMAP_COUNT for an unknown name. */
cmap_id colormap_parse(const char *name);

#endif
