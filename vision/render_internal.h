/*
 * The scene renderer's parts, shared by its files and nothing else (internal to vision/):
 *
 *   render_rng      a seeded generator (xoshiro256**): the renderer never calls rand() or time
 *   render_raster   convex polygons with exact-edge anti-aliasing, in C (OpenCV's anti-aliased
 *                   fill grows a shape by about a pixel, too much for a truth)
 *   render_box      what a box looks like, from box_seed alone: each tile type's and token's
 *                   painted art, the adventurers' size and paint, the table, the lens
 *
 * render_el.c builds the scene (camera, layout, light) and draws it with these.
 */
#ifndef TS_RENDER_INTERNAL_H
#define TS_RENDER_INTERNAL_H

#include "vision.h"

#include <stdint.h>

/* ---- the generator ---- */

typedef struct render_rng {
    uint64_t state[4];
} render_rng;

/* splitmix64: spreads a seed over the generator's state. */
static inline uint64_t render_splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Seeds the generator from a seed and a stream number (independent sequences per purpose). */
static inline void render_rng_seed(render_rng *rng, uint64_t seed, uint64_t stream)
{
    uint64_t x = seed ^ (stream * 0xd1342543de82ef95ULL + 0x2545f4914f6cdd1dULL);
    for (int i = 0; i < 4; i++)
        rng->state[i] = render_splitmix(&x);
}

static inline uint64_t render_rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t render_rng_next(render_rng *rng)
{
    uint64_t *s = rng->state;
    uint64_t result = render_rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = render_rotl(s[3], 45);
    return result;
}

/* Uniform in [low, high). */
static inline double render_rng_uniform(render_rng *rng, double low, double high)
{
    return low + (high - low) * (double)(render_rng_next(rng) >> 11) * 0x1.0p-53;
}

/* Uniform whole number in [low, high]. */
static inline int render_rng_int(render_rng *rng, int low, int high)
{
    return low + (int)(render_rng_next(rng) % (uint64_t)(high - low + 1));
}

/* About standard normal, cheaply (the sum of four uniforms, rescaled): for textures' grain. */
static inline double render_rng_gauss(render_rng *rng)
{
    uint64_t bits = render_rng_next(rng);
    double sum = (double)(bits & 0xffff) + (double)((bits >> 16) & 0xffff) +
                 (double)((bits >> 32) & 0xffff) + (double)(bits >> 48);
    return (sum / 65536.0 - 2.0) * 1.7320508075688772;
}

/* ---- the rasteriser ---- */

/*
 * Coverage of a convex polygon (either winding; pixel centres at whole coordinates): each pixel
 * gets clamp(0.5 + its centre's distance inside the nearest edge, 0, 1), which is the exact
 * area along straight edges. Degenerate polygons draw nothing.
 */

/* Blends colour (one value per channel, 0..255) into image with the coverage times opacity. */
void render_raster_blend(vision_image *image, const vision_point *points, int count,
                         const double colour[3], double opacity);

/* mask (1 channel) = max(mask, coverage * value). */
void render_raster_mask(vision_image *mask, const vision_point *points, int count, uint8_t value);

/* The coverage (0..255) into a width x height buffer whose (0, 0) is the image pixel (x, y);
 * the buffer is zeroed first. */
void render_raster_coverage(uint8_t *coverage, int x, int y, int width, int height,
                            const vision_point *points, int count);

/* Replaces points by their convex hull (counter-clockwise in image coordinates) and returns the
 * hull's size. */
int render_convex_hull(vision_point *points, int count);

/* ---- a box ---- */

#define RENDER_ART_PX 128   /* a tile type's art, painted upright, square */
#define RENDER_TOKEN_PX 96  /* a token's art */
#define RENDER_CLOTH_PX 512 /* the table's periodic texture */

typedef struct render_box {
    uint64_t seed;
    double hfov_deg;      /* the lens's horizontal field at the render width, [70, 90] */
    double distortion_k1; /* the lens's radial distortion, [-0.12, 0.04] */
    double vignette;      /* darkening at the frame's corners, 0..0.25 */
    double piece_diameter_mm, piece_height_mm;
    double piece_gloss; /* a soft specular highlight on the adventurers' sides, 0..0.2 */
    double token_mm, token_thickness_mm;
    int token_round;     /* 1: the tokens are discs; 0: rounded squares */
    double tile_edge[3]; /* the cardboard of the tiles' sides, BGR 0..255 */
    double token_edge[3];
    double paper[3];                        /* the markers' white paper */
    double ink[3];                          /* the markers' black */
    double cloth_mm;                        /* the table texture's period */
    vision_image cloth;                     /* RENDER_CLOTH_PX square, periodic, covers cloth_mm */
    vision_image tile_art[EL_TILE_TYPES];   /* RENDER_ART_PX square, upright */
    vision_image token_art[EL_TOKEN_TYPES]; /* EL_BOAT and EL_SNAKES: RENDER_TOKEN_PX square */
    vision_image token_alpha;               /* the tokens' outline (1 channel), shared by both */
} render_box;

/* Paints box_seed's box into *box (owned: render_box_free). VISION_NOMEM, or the shim's status
 * when a drawing fails; *box is freed then. */
vision_status render_box_make(uint64_t box_seed, render_box *box);

/* Frees a box made (or half made) by render_box_make; accepts a zeroed box. */
void render_box_free(render_box *box);

/* The paint of an adventurer colour in this box (BGR 0..255): the common colour names, each a
 * little different per box. Returns 0, or -1 when the name is not one the renderer paints. */
int render_paint(const char *name, uint64_t box_seed, double bgr[3]);

/* A colour from hue (degrees), saturation and value (0..1), as BGR 0..255. */
void render_hsv(double hue_deg, double saturation, double value, double bgr[3]);

/* The names render_paint knows, comma-separated, for error messages. Static storage. */
const char *render_paint_names(void);

#endif
