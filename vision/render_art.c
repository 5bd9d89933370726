/*
 * What a box looks like, from box_seed alone: the table it is played on, the lens of its owner's
 * camera, each tile type's and token's art, the adventurers' size and paint.
 *
 * The art is a stand-in for a printed box, drawn so that a recogniser cannot know it in advance:
 * the sand, the oasis's green and shape, the pictograms' colour, size and print offset all
 * change with the seed, while within one box every type stays clearly distinct (each pictogram
 * covers at least 30 % of its tile). Every draw comes from the box's generator in a fixed order,
 * so one box looks the same in every scene.
 */
#include "render_internal.h"

#include "cv_shim.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PI 3.14159265358979323846
#define BLOB_POINTS 48

/* A texture being painted, in unit coordinates: (0, 0) is the texture's top-left corner, (1, 1)
 * its bottom-right. The first failure is kept and later strokes are skipped. */
typedef struct painter {
    vision_image *image;
    vision_status status;
} painter;

static vision_point unit_to_pixel(const vision_image *image, vision_point p)
{
    vision_point q = {p.x * image->width - 0.5, p.y * image->height - 0.5};
    return q;
}

static void paint_polygon(painter *painter, const vision_point *points, int count,
                          const double colour[3])
{
    if (painter->status != VISION_OK || count < 3)
        return;
    vision_point pixels[BLOB_POINTS * 2 + 8];
    if (count > (int)(sizeof pixels / sizeof pixels[0]))
        count = (int)(sizeof pixels / sizeof pixels[0]);
    for (int i = 0; i < count; i++)
        pixels[i] = unit_to_pixel(painter->image, points[i]);
    painter->status = cv_shim_fill_polygon(painter->image, pixels, count, colour);
}

static void paint_line(painter *painter, const vision_point *points, int count, int closed,
                       double width, const double colour[3])
{
    if (painter->status != VISION_OK || count < 2)
        return;
    vision_point pixels[BLOB_POINTS * 2 + 8];
    if (count > (int)(sizeof pixels / sizeof pixels[0]))
        count = (int)(sizeof pixels / sizeof pixels[0]);
    for (int i = 0; i < count; i++)
        pixels[i] = unit_to_pixel(painter->image, points[i]);
    painter->status = cv_shim_polyline(painter->image, pixels, count, closed,
                                       width * painter->image->width, colour);
}

static void paint_rect(painter *painter, double x0, double y0, double x1, double y1,
                       const double colour[3])
{
    vision_point r[4] = {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
    paint_polygon(painter, r, 4, colour);
}

static void paint_ellipse(painter *painter, double cx, double cy, double rx, double ry,
                          const double colour[3])
{
    vision_point e[32];
    for (int i = 0; i < 32; i++) {
        double a = 2 * PI * i / 32;
        e[i].x = cx + rx * cos(a);
        e[i].y = cy + ry * sin(a);
    }
    paint_polygon(painter, e, 32, colour);
}

/* ---- colours ---- */

void render_hsv(double hue_deg, double saturation, double value, double bgr[3])
{
    double h = fmod(fmod(hue_deg, 360) + 360, 360) / 60, c = value * saturation;
    double x = c * (1 - fabs(fmod(h, 2) - 1)), m = value - c, r, g, b;
    if (h < 1)
        r = c, g = x, b = 0;
    else if (h < 2)
        r = x, g = c, b = 0;
    else if (h < 3)
        r = 0, g = c, b = x;
    else if (h < 4)
        r = 0, g = x, b = c;
    else if (h < 5)
        r = x, g = 0, b = c;
    else
        r = c, g = 0, b = x;
    bgr[0] = 255 * (b + m);
    bgr[1] = 255 * (g + m);
    bgr[2] = 255 * (r + m);
}

/* A colour drawn within hue, saturation and value ranges, the three drawn in that order (one
 * statement each: arguments have no order of evaluation in C). */
static void random_hsv(render_rng *rng, double hue_low, double hue_high, double saturation_low,
                       double saturation_high, double value_low, double value_high, double bgr[3])
{
    double hue = render_rng_uniform(rng, hue_low, hue_high);
    double saturation = render_rng_uniform(rng, saturation_low, saturation_high);
    double value = render_rng_uniform(rng, value_low, value_high);
    render_hsv(hue, saturation, value, bgr);
}

static void scaled(const double colour[3], double factor, double out[3])
{
    for (int c = 0; c < 3; c++)
        out[c] = fmin(255, colour[c] * factor);
}

static void mixed(const double a[3], const double b[3], double t, double out[3])
{
    for (int c = 0; c < 3; c++)
        out[c] = a[c] + (b[c] - a[c]) * t;
}

static double colour_distance(const double a[3], const double b[3])
{
    return sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) +
                (a[2] - b[2]) * (a[2] - b[2]));
}

/* ---- textures ---- */

/* Smooth periodic value noise in [-1, 1]: a cells x cells lattice, size x size samples. */
static float *value_noise(render_rng *rng, int cells, int size)
{
    float *lattice = malloc(sizeof *lattice * (size_t)(cells * cells));
    float *out = malloc(sizeof *out * (size_t)size * (size_t)size);
    if (!lattice || !out) {
        free(lattice);
        free(out);
        return NULL;
    }
    for (int i = 0; i < cells * cells; i++)
        lattice[i] = (float)render_rng_uniform(rng, -1, 1);
    for (int y = 0; y < size; y++) {
        double fy = (double)y * cells / size;
        int y0 = (int)fy;
        double ty = fy - y0;
        ty = ty * ty * (3 - 2 * ty);
        for (int x = 0; x < size; x++) {
            double fx = (double)x * cells / size;
            int x0 = (int)fx;
            double tx = fx - x0;
            tx = tx * tx * (3 - 2 * tx);
            int x1 = (x0 + 1) % cells, y1 = (y0 + 1) % cells;
            double top = lattice[y0 * cells + x0] * (1 - tx) + lattice[y0 * cells + x1] * tx;
            double bottom = lattice[y1 * cells + x0] * (1 - tx) + lattice[y1 * cells + x1] * tx;
            out[y * size + x] = (float)(top * (1 - ty) + bottom * ty);
        }
    }
    free(lattice);
    return out;
}

static vision_status new_texture(int side, const double colour[3], vision_image *image)
{
    vision_status status = vision_image_new(side, side, 3, image);
    if (status != VISION_OK)
        return status;
    for (int y = 0; y < side; y++)
        for (int x = 0; x < side; x++)
            for (int c = 0; c < 3; c++)
                image->pixels[y * image->stride + x * 3 + c] = (uint8_t)(colour[c] + 0.5);
    return VISION_OK;
}

/* Multiplies the texture by (1 + blotch * noise + grain * gaussian) per pixel. */
static vision_status add_texture_noise(render_rng *rng, vision_image *image, int cells,
                                       double blotch, double grain)
{
    float *noise = value_noise(rng, cells, image->width);
    if (!noise)
        return VISION_NOMEM;
    for (int y = 0; y < image->height; y++)
        for (int x = 0; x < image->width; x++) {
            double factor =
                1 + blotch * noise[y * image->width + x] + grain * render_rng_gauss(rng);
            uint8_t *p = image->pixels + y * image->stride + x * 3;
            for (int c = 0; c < 3; c++) {
                double v = p[c] * factor;
                p[c] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v + 0.5);
            }
        }
    free(noise);
    return VISION_OK;
}

/* An irregular closed shape around (cx, cy): a radius wobbling by a few harmonics. */
static void blob(render_rng *rng, double cx, double cy, double rx, double ry, double wobble,
                 vision_point points[BLOB_POINTS])
{
    double amplitude[3], phase[3];
    for (int k = 0; k < 3; k++) {
        amplitude[k] = render_rng_uniform(rng, 0, wobble) / (k + 1);
        phase[k] = render_rng_uniform(rng, 0, 2 * PI);
    }
    for (int i = 0; i < BLOB_POINTS; i++) {
        double a = 2 * PI * i / BLOB_POINTS, r = 1;
        for (int k = 0; k < 3; k++)
            r += amplitude[k] * sin((k + 2) * a + phase[k]);
        points[i].x = cx + rx * r * cos(a);
        points[i].y = cy + ry * r * sin(a);
    }
}

/* ---- a box's art ---- */

typedef struct art_style {
    double sand[3], sand_dark[3], sand_light[3];
    double sand_blotch, sand_grain;
    int dunes;
    double dune_phase[6], dune_height[6], dune_wave[6];
    double frame_width; /* a printed frame around the tile, 0 for none */
    double frame[3];
    double outline_width; /* the pictograms' dark outline, 0 for none */
    double ink[3];
    double green[3], green_dark[3];
    int oasis_shape; /* 0: a corner, 1: a band along an edge, 2: two corners */
    double oasis_size, oasis_corner_x, oasis_corner_y;
    int palms;
    int drop_shadow;
} art_style;

static void paint_sand(render_rng *rng, const art_style *style, painter *p, int extra_dunes)
{
    int dunes = style->dunes + extra_dunes;
    for (int d = 0; d < dunes && d < 6; d++) {
        vision_point ridge[33], crest[33];
        double y0 = style->dune_height[d] + render_rng_uniform(rng, -0.03, 0.03);
        for (int i = 0; i <= 32; i++) {
            double x = i / 32.0;
            double y = y0 + style->dune_wave[d] * sin(2 * PI * x * 1.3 + style->dune_phase[d]);
            ridge[i].x = crest[i].x = x;
            ridge[i].y = y;
            crest[i].y = y - 0.012;
        }
        paint_line(p, crest, 33, 0, 0.018, style->sand_light);
        paint_line(p, ridge, 33, 0, 0.014, style->sand_dark);
    }
    if (style->frame_width > 0) {
        double inset = style->frame_width / 2 + 0.015;
        vision_point frame[4] = {
            {inset, inset}, {1 - inset, inset}, {1 - inset, 1 - inset}, {inset, 1 - inset}};
        paint_line(p, frame, 4, 1, style->frame_width, style->frame);
    }
}

static void paint_palm(painter *p, double x, double y, double size, const art_style *style)
{
    double trunk[3] = {40, 70, 100};
    vision_point stem[2] = {{x, y}, {x + size * 0.15, y - size}};
    paint_line(p, stem, 2, 0, size * 0.12, trunk);
    for (int leaf = 0; leaf < 6; leaf++) {
        double a = leaf * PI / 3 + 0.3;
        vision_point l[3] = {
            {x + size * 0.15, y - size},
            {x + size * 0.15 + 0.6 * size * cos(a), y - size + 0.35 * size * sin(a)},
            {x + size * 0.15 + 0.9 * size * cos(a), y - size + 0.6 * size * sin(a) + 0.2 * size}};
        paint_line(p, l, 3, 0, size * 0.14, style->green_dark);
    }
}

/*
 * The oasis: a green area on the sand, big enough to show around any pictogram. Its shape is the
 * box's: 0 a corner, 1 a band along the bottom, 2 two opposite corners, 3 a ring around a
 * clearing of sand.
 */
static void paint_oasis(render_rng *rng, const art_style *style, painter *p)
{
    vision_image *image = p->image;
    vision_point shape[BLOB_POINTS * 2 + 8];
    double size = style->oasis_size; /* 0..1: how much of its shape's range it takes */
    double cx = style->oasis_corner_x, cy = style->oasis_corner_y;
    switch (style->oasis_shape) {
    case 1:
        for (int i = 0; i < BLOB_POINTS - 2; i++) {
            double x = -0.02 + 1.04 * i / (BLOB_POINTS - 3);
            shape[i] =
                (vision_point){x, 1 - (0.6 + 0.15 * size) + 0.05 * sin(2 * PI * x * 1.7 + cx * 9)};
        }
        shape[BLOB_POINTS - 2] = (vision_point){1.02, 1.02};
        shape[BLOB_POINTS - 1] = (vision_point){-0.02, 1.02};
        paint_polygon(p, shape, BLOB_POINTS, style->green);
        break;
    case 3: {
        /* one keyhole contour: the tile's square, then the clearing backwards */
        vision_point outer[5] = {
            {-0.02, -0.02}, {1.02, -0.02}, {1.02, 1.02}, {-0.02, 1.02}, {-0.02, -0.02}};
        vision_point clearing[BLOB_POINTS];
        double r = 0.3 - 0.05 * size;
        blob(rng, 0.5, 0.5, r, r * 1.05, 0.2, clearing);
        int n = 0;
        for (int i = 0; i < 5; i++)
            shape[n++] = outer[i];
        int start = BLOB_POINTS * 5 / 8; /* the clearing's point towards the top-left */
        for (int i = 0; i <= BLOB_POINTS; i++)
            shape[n++] = clearing[(start - i + BLOB_POINTS) % BLOB_POINTS];
        paint_polygon(p, shape, n, style->green);
        break;
    }
    default:
        for (int b = 0; b < (style->oasis_shape == 2 ? 2 : 1); b++) {
            double x = b == 0 ? cx : 1 - cx, y = b == 0 ? cy : 1 - cy;
            double r = style->oasis_shape == 2 ? 0.68 + 0.1 * size : 0.92 + 0.15 * size;
            blob(rng, x, y, r, r * 0.92, 0.2, shape);
            paint_polygon(p, shape, BLOB_POINTS, style->green);
        }
        break;
    }
    /* tufts of darker and lighter green inside the green area */
    for (int i = 0; i < 50; i++) {
        double x = render_rng_uniform(rng, 0, 1), y = render_rng_uniform(rng, 0, 1);
        uint8_t *pixel =
            image->pixels + (int)(y * image->height) * image->stride + (int)(x * image->width) * 3;
        if (colour_distance((double[3]){pixel[0], pixel[1], pixel[2]}, style->green) > 30)
            continue;
        double shade[3];
        scaled(style->green, render_rng_uniform(rng, 0.7, 1.2), shade);
        paint_ellipse(p, x, y, 0.025, 0.018, shade);
    }
    /* palms where the green is, near the edges */
    static const vision_point spots[8] = {{0.12, 0.2}, {0.88, 0.22}, {0.1, 0.85}, {0.9, 0.88},
                                          {0.5, 0.12}, {0.5, 0.92},  {0.14, 0.5}, {0.88, 0.55}};
    int planted = 0;
    for (int i = 0; i < 8 && planted < style->palms; i++) {
        const vision_point *spot = &spots[(i + (int)(cx * 10)) % 8];
        const uint8_t *pixel = image->pixels + (int)(spot->y * image->height) * image->stride +
                               (int)(spot->x * image->width) * 3;
        if (colour_distance((double[3]){pixel[0], pixel[1], pixel[2]}, style->green) > 40)
            continue;
        paint_palm(p, spot->x, spot->y + 0.04, 0.11, style);
        planted++;
    }
}

/* A building's colours: its body, a darker side, and the ink of its outline and openings. */
typedef struct building {
    double cx, cy, size;
    double body[3], side[3], dark[3], accent[3];
    int detail;    /* columns of a temple, steps of a pyramid, stripes of a tent */
    int variant;   /* tent: 0 a cone, 1 a dome; temple: 0 a pediment, 1 a pylon; pyramid: 0 */
    double aspect; /* height against width, where the shape allows it */
} building;

static void outline(painter *p, const art_style *style, const vision_point *points, int count)
{
    if (style->outline_width > 0)
        paint_line(p, points, count, 1, style->outline_width, style->ink);
}

/* A dome tent: a half ellipse with a door and seams. */
static void paint_dome(painter *p, const art_style *style, const building *b)
{
    double s = b->size, cx = b->cx, cy = b->cy, base = cy + 0.4 * s, height = 0.78 * s;
    vision_point body[BLOB_POINTS / 2 + 1];
    for (int i = 0; i <= BLOB_POINTS / 2; i++) {
        double a = PI * i / (BLOB_POINTS / 2);
        body[i] = (vision_point){cx + 0.5 * s * cos(a), base - height * sin(a)};
    }
    if (style->drop_shadow) {
        vision_point shadow[BLOB_POINTS / 2 + 1];
        for (int i = 0; i <= BLOB_POINTS / 2; i++)
            shadow[i] = (vision_point){body[i].x + 0.03, body[i].y + 0.025};
        paint_polygon(p, shadow, BLOB_POINTS / 2 + 1, style->sand_dark);
    }
    paint_polygon(p, body, BLOB_POINTS / 2 + 1, b->body);
    vision_point shaded[BLOB_POINTS / 4 + 2];
    int n = 0;
    for (int i = 0; i <= BLOB_POINTS / 4; i++) {
        double a = PI / 2 * i / (BLOB_POINTS / 4);
        shaded[n++] = (vision_point){cx + 0.5 * s * cos(a), base - height * sin(a)};
    }
    shaded[n++] = (vision_point){cx + 0.1 * s, base};
    paint_polygon(p, shaded, n, b->side);
    for (int k = 1; k <= b->detail + 1; k++) {
        double t = (double)k / (b->detail + 2), x = cx - 0.5 * s + s * t;
        vision_point seam[9];
        for (int i = 0; i < 9; i++) {
            double f = i / 8.0,
                   top = base - height * sqrt(fmax(0, 1 - pow((x - cx) / (0.5 * s), 2)));
            seam[i] = (vision_point){cx + (x - cx) * sin(f * PI / 2), base + (top - base) * f};
        }
        paint_line(p, seam, 9, 0, 0.025 * s, b->accent);
    }
    vision_point door[BLOB_POINTS / 2 + 1];
    for (int i = 0; i <= BLOB_POINTS / 2; i++) {
        double a = PI * i / (BLOB_POINTS / 2);
        door[i] = (vision_point){cx + 0.14 * s * cos(a), base - 0.36 * s * sin(a)};
    }
    paint_polygon(p, door, BLOB_POINTS / 2 + 1, b->dark);
    vision_point ground[2] = {{cx - 0.52 * s, base}, {cx + 0.52 * s, base}};
    paint_line(p, ground, 2, 0, 0.03 * s, b->dark);
    outline(p, style, body, BLOB_POINTS / 2 + 1);
}

static void paint_tent(painter *p, const art_style *style, const building *b)
{
    if (b->variant == 1) {
        paint_dome(p, style, b);
        return;
    }
    double s = b->size, cx = b->cx, cy = b->cy;
    vision_point body[3] = {
        {cx, cy - 0.48 * s}, {cx + 0.5 * s, cy + 0.44 * s}, {cx - 0.5 * s, cy + 0.44 * s}};
    if (style->drop_shadow) {
        vision_point shadow[3];
        for (int i = 0; i < 3; i++)
            shadow[i] = (vision_point){body[i].x + 0.03, body[i].y + 0.025};
        paint_polygon(p, shadow, 3, style->sand_dark);
    }
    paint_polygon(p, body, 3, b->body);
    vision_point shaded[3] = {
        {cx, cy - 0.48 * s}, {cx + 0.5 * s, cy + 0.44 * s}, {cx + 0.08 * s, cy + 0.44 * s}};
    paint_polygon(p, shaded, 3, b->side);
    for (int i = 1; i <= b->detail; i++) {
        double t = (double)i / (b->detail + 1);
        vision_point stripe[2] = {{cx, cy - 0.48 * s}, {cx - 0.5 * s + s * t, cy + 0.44 * s}};
        paint_line(p, stripe, 2, 0, 0.03 * s, b->accent);
    }
    vision_point door[3] = {
        {cx, cy - 0.02 * s}, {cx + 0.16 * s, cy + 0.44 * s}, {cx - 0.16 * s, cy + 0.44 * s}};
    paint_polygon(p, door, 3, b->dark);
    vision_point pole[2] = {{cx, cy - 0.48 * s}, {cx, cy - 0.58 * s}};
    paint_line(p, pole, 2, 0, 0.025 * s, b->dark);
    vision_point flag[3] = {
        {cx, cy - 0.58 * s}, {cx + 0.14 * s, cy - 0.545 * s}, {cx, cy - 0.51 * s}};
    paint_polygon(p, flag, 3, b->accent);
    outline(p, style, body, 3);
}

/* An Egyptian temple front: two sloping towers around a gate, a lintel, carved lines. */
static void paint_pylon(painter *p, const art_style *style, const building *b)
{
    double s = b->size, cx = b->cx, cy = b->cy, base = cy + 0.45 * s, top = cy - 0.4 * s;
    vision_point outline_points[8] = {{cx - 0.5 * s, base},
                                      {cx + 0.5 * s, base},
                                      {cx + 0.42 * s, top},
                                      {cx + 0.1 * s, top},
                                      {cx + 0.1 * s, top + 0.12 * s},
                                      {cx - 0.1 * s, top + 0.12 * s},
                                      {cx - 0.1 * s, top},
                                      {cx - 0.42 * s, top}};
    if (style->drop_shadow) {
        vision_point shadow[8];
        for (int i = 0; i < 8; i++)
            shadow[i] = (vision_point){outline_points[i].x + 0.03, outline_points[i].y + 0.025};
        paint_polygon(p, shadow, 8, style->sand_dark);
    }
    paint_polygon(p, outline_points, 8, b->body);
    vision_point right_tower[4] = {
        {cx + 0.1 * s, base}, {cx + 0.5 * s, base}, {cx + 0.42 * s, top}, {cx + 0.1 * s, top}};
    paint_polygon(p, right_tower, 4, b->side);
    paint_rect(p, cx - 0.46 * s, top - 0.02 * s, cx + 0.46 * s, top + 0.05 * s, b->accent);
    paint_rect(p, cx - 0.13 * s, cy - 0.08 * s, cx + 0.13 * s, base, b->dark);
    paint_rect(p, cx - 0.17 * s, cy - 0.14 * s, cx + 0.17 * s, cy - 0.08 * s, b->accent);
    for (int k = 0; k < b->detail; k++) { /* carved lines on each tower */
        double y = top + 0.16 * s + k * 0.12 * s;
        vision_point left_line[2] = {{cx - 0.4 * s + 0.02 * k * s, y}, {cx - 0.18 * s, y}};
        vision_point right_line[2] = {{cx + 0.18 * s, y}, {cx + 0.4 * s - 0.02 * k * s, y}};
        paint_line(p, left_line, 2, 0, 0.02 * s, b->dark);
        paint_line(p, right_line, 2, 0, 0.02 * s, b->dark);
    }
    outline(p, style, outline_points, 8);
}

static void paint_temple(painter *p, const art_style *style, const building *b)
{
    if (b->variant == 1) {
        paint_pylon(p, style, b);
        return;
    }
    double s = b->size, cx = b->cx, cy = b->cy;
    vision_point silhouette[8] = {{cx - 0.5 * s, cy + 0.46 * s},
                                  {cx + 0.5 * s, cy + 0.46 * s},
                                  {cx + 0.5 * s, cy + 0.34 * s},
                                  {cx + 0.46 * s, cy - 0.3 * s},
                                  {cx, cy - 0.5 * s},
                                  {cx - 0.46 * s, cy - 0.3 * s},
                                  {cx - 0.5 * s, cy + 0.34 * s},
                                  {cx - 0.5 * s, cy + 0.46 * s}};
    if (style->drop_shadow) {
        vision_point shadow[8];
        for (int i = 0; i < 8; i++)
            shadow[i] = (vision_point){silhouette[i].x + 0.03, silhouette[i].y + 0.025};
        paint_polygon(p, shadow, 8, style->sand_dark);
    }
    paint_rect(p, cx - 0.5 * s, cy + 0.34 * s, cx + 0.5 * s, cy + 0.46 * s, b->body);
    paint_rect(p, cx - 0.44 * s, cy + 0.27 * s, cx + 0.44 * s, cy + 0.34 * s, b->side);
    paint_rect(p, cx - 0.4 * s, cy - 0.22 * s, cx + 0.4 * s, cy + 0.27 * s, b->dark);
    int columns = b->detail;
    double width = 0.8 * s / (2 * columns - 1);
    for (int i = 0; i < columns; i++) {
        double x0 = cx - 0.4 * s + 2 * i * width;
        paint_rect(p, x0, cy - 0.22 * s, x0 + width, cy + 0.27 * s, b->body);
        paint_rect(p, x0 + 0.65 * width, cy - 0.22 * s, x0 + width, cy + 0.27 * s, b->side);
    }
    paint_rect(p, cx - 0.46 * s, cy - 0.3 * s, cx + 0.46 * s, cy - 0.2 * s, b->body);
    vision_point roof[3] = {
        {cx - 0.5 * s, cy - 0.3 * s}, {cx + 0.5 * s, cy - 0.3 * s}, {cx, cy - 0.5 * s}};
    paint_polygon(p, roof, 3, b->body);
    vision_point tympanum[3] = {
        {cx - 0.3 * s, cy - 0.33 * s}, {cx + 0.3 * s, cy - 0.33 * s}, {cx, cy - 0.44 * s}};
    paint_polygon(p, tympanum, 3, b->accent);
    outline(p, style, silhouette, 8);
}

static void paint_pyramid(painter *p, const art_style *style, const building *b)
{
    double s = b->size, cx = b->cx, cy = b->cy;
    int steps = b->detail;
    double step_height = 0.92 * s * b->aspect / steps, bottom = cy + 0.46 * s * b->aspect;
    vision_point silhouette[4 * 8 + 2];
    int n = 0;
    for (int i = 0; i < steps; i++) {
        double half = 0.5 * s * (1 - (double)i / steps), y1 = bottom - i * step_height;
        silhouette[n++] = (vision_point){cx + half, y1};
        silhouette[n++] = (vision_point){cx + half, y1 - step_height};
    }
    for (int i = steps - 1; i >= 0; i--) {
        double half = 0.5 * s * (1 - (double)i / steps), y1 = bottom - i * step_height;
        silhouette[n++] = (vision_point){cx - half, y1 - step_height};
        silhouette[n++] = (vision_point){cx - half, y1};
    }
    if (style->drop_shadow) {
        vision_point shadow[4 * 8 + 2] = {{0, 0}};
        for (int i = 0; i < n; i++)
            shadow[i] = (vision_point){silhouette[i].x + 0.03, silhouette[i].y + 0.025};
        paint_polygon(p, shadow, n, style->sand_dark);
    }
    for (int i = 0; i < steps; i++) {
        double half = 0.5 * s * (1 - (double)i / steps), y1 = bottom - i * step_height;
        paint_rect(p, cx - half, y1 - step_height, cx + half, y1, b->body);
        paint_rect(p, cx, y1 - step_height, cx + half, y1, b->side);
        paint_rect(p, cx - half, y1 - step_height, cx + half, y1 - step_height * 0.82, b->accent);
    }
    paint_rect(p, cx - 0.06 * s, bottom - 0.16 * s, cx + 0.06 * s, bottom, b->dark);
    outline(p, style, silhouette, n);
}

static void paint_mountain(render_rng *rng, const art_style *style, painter *p)
{
    double hue = render_rng_uniform(rng, 15, 40), sat = render_rng_uniform(rng, 0.05, 0.35);
    double value = render_rng_uniform(rng, 0.38, 0.6);
    double rock[3], lit[3], dark[3], snow[3];
    render_hsv(hue, sat, value, rock);
    render_hsv(hue, sat * 0.8, fmin(1, value * 1.25), lit);
    render_hsv(hue, sat, value * 0.6, dark);
    render_hsv(210, 0.05, 0.95, snow);
    int snowy = render_rng_uniform(rng, 0, 1) < 0.5;
    int peaks = render_rng_int(rng, 2, 3);
    double base = render_rng_uniform(rng, 0.84, 0.92);
    double left = render_rng_uniform(rng, 0.03, 0.09), right = render_rng_uniform(rng, 0.91, 0.97);
    vision_point ridge[BLOB_POINTS];
    double apex_x[3], apex_y[3];
    int n = 0;
    ridge[n++] = (vision_point){left, base};
    for (int k = 0; k < peaks; k++) {
        double span = (right - left) / peaks;
        apex_x[k] = left + span * (k + render_rng_uniform(rng, 0.35, 0.65));
        apex_y[k] = k == peaks / 2 ? render_rng_uniform(rng, 0.1, 0.2)
                                   : render_rng_uniform(rng, 0.25, 0.42);
        double saddle_x = left + span * (k + 1), saddle_y = render_rng_uniform(rng, 0.45, 0.6);
        double from_x = ridge[n - 1].x, from_y = ridge[n - 1].y;
        for (int j = 1; j <= 3; j++) { /* a jagged climb */
            double t = j / 4.0;
            double jag_x = render_rng_uniform(rng, -0.02, 0.02);
            double jag_y = render_rng_uniform(rng, -0.03, 0.03);
            ridge[n++] = (vision_point){from_x + (apex_x[k] - from_x) * t + jag_x,
                                        from_y + (apex_y[k] - from_y) * t + jag_y};
        }
        ridge[n++] = (vision_point){apex_x[k], apex_y[k]};
        if (k < peaks - 1) {
            ridge[n++] =
                (vision_point){(apex_x[k] + saddle_x) / 2,
                               (apex_y[k] + saddle_y) / 2 + render_rng_uniform(rng, -0.03, 0.03)};
            ridge[n++] = (vision_point){saddle_x, saddle_y};
        }
    }
    ridge[n++] =
        (vision_point){(apex_x[peaks - 1] + right) / 2 + 0.02, (apex_y[peaks - 1] + base) / 2};
    ridge[n++] = (vision_point){right, base};
    /* the foothills: a lower, wider band */
    vision_point hills[BLOB_POINTS];
    int h = 0;
    for (int i = 0; i <= 16; i++) {
        double x = -0.02 + 1.04 * i / 16;
        hills[h++] = (vision_point){x, base - 0.06 + 0.03 * sin(x * 11 + hue)};
    }
    hills[h++] = (vision_point){1.02, base + 0.08};
    hills[h++] = (vision_point){-0.02, base + 0.08};
    paint_polygon(p, hills, h, dark);
    paint_polygon(p, ridge, n, rock);
    for (int k = 0; k < peaks; k++) {
        /* the side away from the light (left) is darker */
        vision_point face[3] = {{apex_x[k], apex_y[k]},
                                {apex_x[k] + (right - left) / peaks * 0.45, base},
                                {apex_x[k] + 0.02, base}};
        paint_polygon(p, face, 3, dark);
        vision_point lit_face[3] = {{apex_x[k], apex_y[k]},
                                    {apex_x[k] - 0.02, base - 0.1},
                                    {apex_x[k] - (right - left) / peaks * 0.25, base - 0.05}};
        paint_polygon(p, lit_face, 3, lit);
        if (snowy) {
            double d = (base - apex_y[k]) * 0.22;
            vision_point cap[5] = {{apex_x[k], apex_y[k]},
                                   {apex_x[k] + d * 0.7, apex_y[k] + d},
                                   {apex_x[k] + d * 0.2, apex_y[k] + d * 0.75},
                                   {apex_x[k] - d * 0.2, apex_y[k] + d * 1.05},
                                   {apex_x[k] - d * 0.7, apex_y[k] + d}};
            paint_polygon(p, cap, 5, snow);
        }
    }
    outline(p, style, ridge, n);
}

static void paint_lake(render_rng *rng, const art_style *style, painter *p)
{
    double hue = render_rng_uniform(rng, 190, 225), sat = render_rng_uniform(rng, 0.45, 0.8);
    double value = render_rng_uniform(rng, 0.45, 0.75);
    double water[3], deep[3], wave[3], shore[3];
    render_hsv(hue, sat, value, water);
    render_hsv(hue, sat, value * 0.72, deep);
    render_hsv(hue, sat * 0.35, fmin(1, value * 1.35), wave);
    if (render_rng_uniform(rng, 0, 1) < 0.5)
        memcpy(shore, style->green_dark, sizeof shore); /* reeds */
    else
        scaled(style->sand, 0.75, shore); /* wet sand */
    double cx = 0.5 + render_rng_uniform(rng, -0.04, 0.04);
    double cy = 0.5 + render_rng_uniform(rng, -0.04, 0.04);
    double r = render_rng_uniform(rng, 0.37, 0.43);
    vision_point outer[BLOB_POINTS], inner[BLOB_POINTS];
    render_rng saved = *rng;
    blob(rng, cx, cy, r * 1.07, r, 0.18, outer);
    paint_polygon(p, outer, BLOB_POINTS, shore);
    *rng = saved;
    blob(rng, cx, cy, r * 0.98, r * 0.92, 0.18, outer);
    paint_polygon(p, outer, BLOB_POINTS, water);
    blob(rng, cx + 0.02, cy + 0.02, r * 0.55, r * 0.5, 0.2, inner);
    paint_polygon(p, inner, BLOB_POINTS, deep);
    int waves = render_rng_int(rng, 3, 5);
    for (int i = 0; i < waves; i++) {
        double x = cx + render_rng_uniform(rng, -0.22, 0.12),
               y = cy + render_rng_uniform(rng, -0.25, 0.22);
        vision_point crest[9];
        for (int j = 0; j < 9; j++)
            crest[j] = (vision_point){x + j * 0.014, y - 0.012 * sin(j * PI / 4)};
        paint_line(p, crest, 9, 0, 0.018, wave);
    }
    outline(p, style, outer, BLOB_POINTS);
}

static void paint_pebbles(render_rng *rng, const art_style *style, painter *p)
{
    int pebbles = render_rng_int(rng, 2, 6);
    for (int i = 0; i < pebbles; i++) {
        double stone[3];
        random_hsv(rng, 20, 40, 0.05, 0.3, 0.35, 0.6, stone);
        double x = render_rng_uniform(rng, 0.12, 0.88), y = render_rng_uniform(rng, 0.12, 0.88);
        double rx = render_rng_uniform(rng, 0.015, 0.035),
               ry = render_rng_uniform(rng, 0.012, 0.025);
        paint_ellipse(p, x, y, rx, ry, stone);
    }
    (void)style;
}

/* Picks a colour of one of several families, far enough from the sand to read as print. */
static void building_colour(render_rng *rng, const double sand[3], const double families[][6],
                            int family_count, double out[3])
{
    for (int attempt = 0; attempt < 32; attempt++) {
        const double *f = families[render_rng_int(rng, 0, family_count - 1)];
        random_hsv(rng, f[0], f[1], f[2], f[3], f[4], f[5], out);
        if (colour_distance(out, sand) > 90)
            return;
    }
}

static vision_status paint_tile_art(render_rng *rng, const art_style *style, render_box *box)
{
    static const double tents[][6] = {
        {0, 10, 0.6, 0.85, 0.55, 0.8},     /* red */
        {205, 230, 0.45, 0.75, 0.4, 0.65}, /* blue */
        {18, 30, 0.5, 0.75, 0.28, 0.42},   /* brown */
        {270, 300, 0.3, 0.55, 0.35, 0.55}, /* violet */
    };
    static const double stones[][6] = {
        {30, 45, 0.02, 0.12, 0.9, 0.98},   /* pale limestone */
        {5, 20, 0.3, 0.5, 0.45, 0.65},     /* rose granite */
        {190, 220, 0.05, 0.15, 0.75, 0.9}, /* grey marble */
        {5, 15, 0.55, 0.7, 0.45, 0.6},     /* terracotta */
        {195, 215, 0.3, 0.5, 0.5, 0.7},    /* painted blue */
    };
    static const double pyramids[][6] = {
        {22, 35, 0.6, 0.85, 0.42, 0.58}, /* ochre */
        {0, 40, 0.02, 0.1, 0.45, 0.62},  /* grey stone */
        {40, 50, 0.7, 0.95, 0.75, 0.9},  /* gold */
    };
    building buildings[3]; /* camp, temple, pyramid */
    const double(*families[3])[6] = {tents, stones, pyramids};
    int family_counts[3] = {4, 5, 3};
    double size_low[3] = {0.82, 0.72, 0.8}, size_high[3] = {0.9, 0.86, 0.9};
    for (int k = 0; k < 3; k++) {
        building *b = &buildings[k];
        b->size = render_rng_uniform(rng, size_low[k], size_high[k]);
        double room = 0.5 - 0.5 * b->size - 0.02;
        double offset = fmin(0.06, fmax(0, room));
        b->cx = 0.5 + render_rng_uniform(rng, -offset, offset);
        b->cy = 0.5 + render_rng_uniform(rng, -offset, offset) + 0.02;
        building_colour(rng, style->sand, families[k], family_counts[k], b->body);
        scaled(b->body, render_rng_uniform(rng, 0.68, 0.8), b->side);
        random_hsv(rng, 0, 360, 0.2, 0.5, 0.12, 0.25, b->dark);
        double accent_choice = render_rng_uniform(rng, 0, 1);
        if (accent_choice < 0.4)
            scaled(b->body, 1.25, b->accent);
        else
            random_hsv(rng, 0, 360, 0.4, 0.8, 0.55, 0.9, b->accent);
    }
    buildings[0].detail = render_rng_int(rng, 0, 3); /* tent stripes */
    buildings[1].detail = render_rng_int(rng, 3, 5); /* columns */
    buildings[2].detail = render_rng_int(rng, 4, 6); /* steps */
    buildings[0].variant = render_rng_uniform(rng, 0, 1) < 0.4;
    buildings[1].variant = render_rng_uniform(rng, 0, 1) < 0.4;
    buildings[2].variant = 0;
    for (int k = 0; k < 3; k++)
        buildings[k].aspect = 1;
    buildings[2].aspect = render_rng_uniform(rng, 0.78, 1.0);

    for (int type = 0; type < EL_TILE_TYPES; type++) {
        vision_image *art = &box->tile_art[type];
        vision_status status = new_texture(RENDER_ART_PX, style->sand, art);
        if (status == VISION_OK)
            status = add_texture_noise(rng, art, 5, style->sand_blotch, style->sand_grain);
        if (status != VISION_OK)
            return status;
        painter p = {art, VISION_OK};
        paint_sand(rng, style, &p, type == EL_DESERT ? 2 : 0);
        switch (type) {
        case EL_LAKE:
            paint_lake(rng, style, &p);
            break;
        case EL_MOUNTAIN:
            paint_mountain(rng, style, &p);
            break;
        case EL_DESERT:
            paint_pebbles(rng, style, &p);
            break;
        default:
            if (type >= EL_OASIS_CAMP)
                paint_oasis(rng, style, &p);
            int kind = (type == EL_DESERT_CAMP || type == EL_OASIS_CAMP)       ? 0
                       : (type == EL_DESERT_TEMPLE || type == EL_OASIS_TEMPLE) ? 1
                                                                               : 2;
            if (kind == 0)
                paint_tent(&p, style, &buildings[0]);
            else if (kind == 1)
                paint_temple(&p, style, &buildings[1]);
            else
                paint_pyramid(&p, style, &buildings[2]);
        }
        if (p.status != VISION_OK)
            return p.status;
    }
    return VISION_OK;
}

static vision_status paint_tokens(render_rng *rng, const art_style *style, render_box *box)
{
    vision_status status = vision_image_new(RENDER_TOKEN_PX, RENDER_TOKEN_PX, 1, &box->token_alpha);
    if (status != VISION_OK)
        return status;
    int round = render_rng_uniform(rng, 0, 1) < 0.6;
    box->token_round = round;
    vision_point outline_points[BLOB_POINTS];
    for (int i = 0; i < BLOB_POINTS; i++) {
        double a = 2 * PI * i / BLOB_POINTS, c = cos(a), s = sin(a);
        double r = 0.5;
        if (!round) { /* a rounded square: a superellipse */
            double e = 2.0 / 6;
            c = copysign(pow(fabs(c), e), c);
            s = copysign(pow(fabs(s), e), s);
            r = 0.48;
        }
        outline_points[i] = (vision_point){0.5 + r * c * 0.98, 0.5 + r * s * 0.98};
    }
    painter alpha = {&box->token_alpha, VISION_OK};
    double white[3] = {255, 255, 255};
    paint_polygon(&alpha, outline_points, BLOB_POINTS, white);
    if (alpha.status != VISION_OK)
        return alpha.status;

    double ring_width = render_rng_uniform(rng, 0, 1) < 0.5 ? 0.05 : 0;
    double ring[3];
    random_hsv(rng, 0, 360, 0.2, 0.6, 0.15, 0.35, ring);

    /* the boat: a hull with a mast and a sail on water */
    double background[3], water[3], hull[3], sail[3];
    random_hsv(rng, 185, 215, 0.15, 0.4, 0.75, 0.92, background);
    random_hsv(rng, 200, 225, 0.5, 0.8, 0.45, 0.65, water);
    random_hsv(rng, 15, 30, 0.5, 0.8, 0.25, 0.45, hull);
    if (render_rng_uniform(rng, 0, 1) < 0.5)
        render_hsv(40, 0.08, 0.96, sail);
    else
        render_hsv(render_rng_uniform(rng, 0, 20), 0.7, 0.75, sail);
    status = new_texture(RENDER_TOKEN_PX, background, &box->token_art[EL_BOAT]);
    if (status != VISION_OK)
        return status;
    painter boat = {&box->token_art[EL_BOAT], VISION_OK};
    double tilt = render_rng_uniform(rng, -0.05, 0.05);
    vision_point sea[BLOB_POINTS / 2 + 2];
    for (int i = 0; i < BLOB_POINTS / 2; i++) {
        double x = i / (BLOB_POINTS / 2.0 - 1);
        sea[i] = (vision_point){x, 0.7 + 0.025 * sin(x * 20)};
    }
    sea[BLOB_POINTS / 2] = (vision_point){1, 1};
    sea[BLOB_POINTS / 2 + 1] = (vision_point){0, 1};
    paint_polygon(&boat, sea, BLOB_POINTS / 2 + 2, water);
    vision_point shape[8] = {{0.14, 0.56 + tilt}, {0.86, 0.56 - tilt}, {0.78, 0.66},
                             {0.68, 0.73},        {0.32, 0.73},        {0.22, 0.66}};
    paint_polygon(&boat, shape, 6, hull);
    vision_point mast[2] = {{0.5, 0.56}, {0.5, 0.14}};
    paint_line(&boat, mast, 2, 0, 0.03, hull);
    vision_point sail_shape[3] = {{0.53, 0.16}, {0.53, 0.52}, {0.8, 0.52}};
    paint_polygon(&boat, sail_shape, 3, sail);
    vision_point jib[3] = {{0.47, 0.2}, {0.47, 0.52}, {0.28, 0.52}};
    paint_polygon(&boat, jib, 3, sail);
    if (ring_width > 0)
        paint_line(&boat, outline_points, BLOB_POINTS, 1, ring_width, ring);
    if (boat.status != VISION_OK)
        return boat.status;

    /* the snakes: wavy bodies with heads */
    double ground[3], skin[3], pattern[3];
    random_hsv(rng, 20, 45, 0.3, 0.7, 0.65, 0.9, ground);
    random_hsv(rng, 70, 140, 0.4, 0.8, 0.2, 0.5, skin);
    render_hsv(render_rng_uniform(rng, 40, 60), 0.8, 0.85, pattern);
    status = new_texture(RENDER_TOKEN_PX, ground, &box->token_art[EL_SNAKES]);
    if (status != VISION_OK)
        return status;
    painter snakes = {&box->token_art[EL_SNAKES], VISION_OK};
    int count = render_rng_int(rng, 1, 3);
    for (int k = 0; k < count; k++) {
        vision_point body[25];
        double y0 = count == 1 ? 0.5 : 0.3 + 0.4 * k / (count - 1);
        double phase = render_rng_uniform(rng, 0, 2 * PI), amplitude = 0.08 + 0.04 / count;
        for (int i = 0; i < 25; i++) {
            double x = 0.18 + 0.64 * i / 24.0;
            body[i] = (vision_point){x, y0 + amplitude * sin(x * 14 + phase)};
        }
        paint_line(&snakes, body, 25, 0, 0.12 / count + 0.05, skin);
        for (int i = 2; i < 24; i += 3) {
            paint_ellipse(&snakes, body[i].x, body[i].y, 0.012, 0.012, pattern);
        }
        paint_ellipse(&snakes, body[24].x + 0.02, body[24].y, 0.05, 0.035, skin);
        double eye[3] = {20, 20, 20};
        paint_ellipse(&snakes, body[24].x + 0.035, body[24].y - 0.012, 0.008, 0.008, eye);
    }
    if (ring_width > 0)
        paint_line(&snakes, outline_points, BLOB_POINTS, 1, ring_width, ring);
    (void)style;
    return snakes.status;
}

static vision_status paint_cloth(render_rng *rng, render_box *box)
{
    static const double families[][6] = {
        {100, 150, 0.4, 0.75, 0.18, 0.36},  /* green felt */
        {200, 235, 0.35, 0.7, 0.2, 0.4},    /* blue cloth */
        {335, 355, 0.4, 0.7, 0.18, 0.33},   /* burgundy */
        {200, 230, 0.03, 0.12, 0.12, 0.26}, /* charcoal */
        {15, 30, 0.5, 0.75, 0.18, 0.36},    /* dark wood */
    };
    int family = render_rng_int(rng, 0, 4);
    const double *f = families[family];
    double colour[3];
    random_hsv(rng, f[0], f[1], f[2], f[3], f[4], f[5], colour);
    box->cloth_mm = 256;
    vision_status status = new_texture(RENDER_CLOTH_PX, colour, &box->cloth);
    if (status != VISION_OK)
        return status;
    int side = RENDER_CLOTH_PX;
    float *broad = value_noise(rng, 4, side), *fine = value_noise(rng, 32, side);
    float *grain = value_noise(rng, 8, side);
    if (!broad || !fine || !grain) {
        free(broad);
        free(fine);
        free(grain);
        return VISION_NOMEM;
    }
    int wood = family == 4,
        weave = family == 1 || (family == 3 && render_rng_uniform(rng, 0, 1) < 0.5);
    double grain_amount = render_rng_uniform(rng, 0.02, 0.05);
    for (int y = 0; y < side; y++)
        for (int x = 0; x < side; x++) {
            int i = y * side + x;
            double factor =
                1 + 0.05 * broad[i] + 0.03 * fine[i] + grain_amount * render_rng_gauss(rng);
            if (wood) {
                /* grain along x, wavering; a plank joint every 128 px (64 mm) */
                double stripes = sin((y + 6 * grain[i]) * 2 * PI / 9.0 + 3 * broad[i]);
                factor += 0.08 * stripes + 0.05 * grain[i];
                if (y % 128 == 0)
                    factor *= 0.45;
            } else if (weave) {
                factor += 0.05 * sin(x * 2 * PI / 4.0) * sin(y * 2 * PI / 4.0);
            }
            uint8_t *p = box->cloth.pixels + y * box->cloth.stride + x * 3;
            for (int c = 0; c < 3; c++) {
                double v = colour[c] * factor;
                p[c] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v + 0.5);
            }
        }
    free(broad);
    free(fine);
    free(grain);
    return VISION_OK;
}

vision_status render_box_make(uint64_t box_seed, render_box *box)
{
    memset(box, 0, sizeof *box);
    box->seed = box_seed;
    render_rng rng;
    render_rng_seed(&rng, box_seed, 0xb0c5);

    box->hfov_deg = render_rng_uniform(&rng, 70, 90);
    box->distortion_k1 = render_rng_uniform(&rng, -0.12, 0.04);
    box->vignette = render_rng_uniform(&rng, 0, 0.25);
    box->piece_diameter_mm = render_rng_uniform(&rng, 13, 16);
    box->piece_height_mm = render_rng_uniform(&rng, 8, 10);
    box->piece_gloss = render_rng_uniform(&rng, 0.03, 0.2);
    box->token_mm = render_rng_uniform(&rng, 23, 27);
    box->token_thickness_mm = 1.5;
    random_hsv(&rng, 25, 45, 0.1, 0.3, 0.45, 0.7, box->tile_edge);
    random_hsv(&rng, 25, 45, 0.1, 0.3, 0.45, 0.7, box->token_edge);
    random_hsv(&rng, 30, 60, 0, 0.05, 0.93, 0.98, box->paper);
    render_hsv(0, 0, render_rng_uniform(&rng, 0.06, 0.14), box->ink);

    art_style style;
    memset(&style, 0, sizeof style);
    double sand_hue = render_rng_uniform(&rng, 28, 45),
           sand_sat = render_rng_uniform(&rng, 0.25, 0.5);
    double sand_value = render_rng_uniform(&rng, 0.74, 0.9);
    render_hsv(sand_hue, sand_sat, sand_value, style.sand);
    render_hsv(sand_hue - 4, sand_sat * 1.15, sand_value * 0.82, style.sand_dark);
    render_hsv(sand_hue + 3, sand_sat * 0.7, fmin(1, sand_value * 1.08), style.sand_light);
    style.sand_blotch = render_rng_uniform(&rng, 0.02, 0.06);
    style.sand_grain = render_rng_uniform(&rng, 0.01, 0.035);
    style.dunes = render_rng_int(&rng, 0, 3);
    for (int d = 0; d < 6; d++) {
        style.dune_phase[d] = render_rng_uniform(&rng, 0, 2 * PI);
        style.dune_height[d] = render_rng_uniform(&rng, 0.1, 0.9);
        style.dune_wave[d] = render_rng_uniform(&rng, 0.02, 0.06);
    }
    style.frame_width =
        render_rng_uniform(&rng, 0, 1) < 0.5 ? render_rng_uniform(&rng, 0.012, 0.03) : 0;
    mixed(style.sand_dark, (double[3]){30, 40, 60}, render_rng_uniform(&rng, 0, 0.6), style.frame);
    style.outline_width =
        render_rng_uniform(&rng, 0, 1) < 0.7 ? render_rng_uniform(&rng, 0.01, 0.022) : 0;
    random_hsv(&rng, 0, 360, 0, 0.4, 0.08, 0.2, style.ink);
    double green_hue = render_rng_uniform(&rng, 85, 145);
    double green_sat = render_rng_uniform(&rng, 0.45, 0.8),
           green_value = render_rng_uniform(&rng, 0.35, 0.62);
    render_hsv(green_hue, green_sat, green_value, style.green);
    render_hsv(green_hue + 5, green_sat, green_value * 0.6, style.green_dark);
    style.oasis_shape = render_rng_int(&rng, 0, 3);
    style.oasis_size = render_rng_uniform(&rng, 0, 1);
    style.oasis_corner_x = render_rng_uniform(&rng, 0, 1) < 0.5 ? 0.05 : 0.95;
    style.oasis_corner_y = render_rng_uniform(&rng, 0, 1) < 0.5 ? 0.05 : 0.95;
    style.palms = render_rng_int(&rng, 0, 3);
    style.drop_shadow = render_rng_uniform(&rng, 0, 1) < 0.5;

    vision_status status = paint_cloth(&rng, box);
    if (status == VISION_OK)
        status = paint_tile_art(&rng, &style, box);
    if (status == VISION_OK)
        status = paint_tokens(&rng, &style, box);
    if (status != VISION_OK)
        render_box_free(box);
    return status;
}

void render_box_free(render_box *box)
{
    vision_image_free(&box->cloth);
    for (int i = 0; i < EL_TILE_TYPES; i++)
        vision_image_free(&box->tile_art[i]);
    for (int i = 0; i < EL_TOKEN_TYPES; i++)
        vision_image_free(&box->token_art[i]);
    vision_image_free(&box->token_alpha);
}

/* ---- the adventurers' paint ---- */

static const struct {
    const char *name;
    double hue, saturation, value;
} paints[] = {
    {"orange", 25, 0.85, 0.92}, {"black", 0, 0, 0.13},     {"grey", 0, 0, 0.55},
    {"yellow", 50, 0.85, 0.93}, {"red", 356, 0.82, 0.78},  {"blue", 218, 0.8, 0.7},
    {"green", 130, 0.7, 0.55},  {"white", 45, 0.05, 0.93}, {"purple", 285, 0.6, 0.55},
    {"brown", 25, 0.65, 0.42},  {"pink", 335, 0.45, 0.93},
};

const char *render_paint_names(void)
{
    return "orange, black, grey, yellow, red, blue, green, white, purple, brown, pink";
}

int render_paint(const char *name, uint64_t box_seed, double bgr[3])
{
    for (size_t i = 0; i < sizeof paints / sizeof paints[0]; i++) {
        if (strcmp(paints[i].name, name) != 0)
            continue;
        render_rng rng;
        render_rng_seed(&rng, box_seed, 0x9a1e7 + i);
        double hue = paints[i].hue + render_rng_uniform(&rng, -6, 6);
        double saturation = fmin(1, paints[i].saturation * render_rng_uniform(&rng, 0.9, 1.08));
        double value = fmin(1, paints[i].value * render_rng_uniform(&rng, 0.9, 1.08));
        render_hsv(hue, saturation, value, bgr);
        return 0;
    }
    return -1;
}
