/*
 * The scene renderer for Expedition Luxor (DESIGN.md §4): a truth drawn as a camera would see it.
 *
 * Stages, in order, each a function below:
 *   resolve    every value the config leaves open, drawn from scene_seed (the box's from box_seed)
 *   camera     a pinhole camera aimed at the mat, raised until the mat fits the frame
 *   layout     the tiles on a grid turned by the layout angle, placed clear of the markers
 *   draw       the table, the markers' paper, shadows on the table, the tiles, shadows on the
 *              tiles, the tokens, the stacks, glare, the hands (painter's order: far to near,
 *              low to high), on an undistorted canvas
 *   lens       radial distortion (a remap of the canvas), the light's colour, exposure and
 *              vignetting, blur, sensor noise, JPEG loss
 *
 * Coordinates: table millimetres as in vision.h (x towards marker 1, y towards marker 3, height
 * above the table). Angles on the table turn from +x towards +y (clockwise on a rectified view,
 * whose y runs down). Azimuths (the camera's, the light's) are measured from the mat's bottom
 * edge (+y), counter-clockwise seen from above: 90 is the side of markers 1 and 2 (+x).
 */
#include "vision.h"

#include "cv_shim.h"
#include "render_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PI 3.14159265358979323846
#define DEG (PI / 180)
#define TILE_THICKNESS_MM 2.0
#define PAPER_MARGIN_MODULES 2.0 /* white paper beyond each side of a marker, in its modules */
#define MARKER_MODULE_PX 16      /* the markers' texture: pixels per module */
#define CIRCLE_SEGMENTS 24
#define HAND_PARTS 12
#define SQRT_HALF 0.70710678118654752440

/* Streams of the scene's generator: one per purpose, so that a value given in the config does
 * not shift the draws of the others. */
enum {
    STREAM_VALUES = 1, /* the config's open values, the camera's roll and aim, the gap */
    STREAM_LAYOUT = 3,
    STREAM_HANDS = 4,
    STREAM_EFFECTS = 5, /* where the mat lies on the table cloth; the glare's spot (+100) */
    STREAM_NOISE = 6,
    STREAM_TILES = 1000, /* + the tile's index: its jitter, turn, stack and token */
    /* + (row + 1024) * 4096 + col + 1024: the same for a tile of a fixed layout, by its cell */
    STREAM_CELLS = 1 << 24
};

void vision_render_config_default(vision_render_config *config)
{
    config->box_seed = 1;
    config->scene_seed = 1;
    config->width = 1920;
    config->height = 1080;
    vision_mat_default(&config->mat);
    config->camera_height_mm = NAN;
    config->tilt_deg = NAN;
    config->azimuth_deg = NAN;
    config->distortion_k1 = NAN;
    config->light_kelvin = NAN;
    config->light_azimuth_deg = NAN;
    config->light_elevation_deg = NAN;
    config->glare = NAN;
    config->noise = NAN;
    config->blur_px = NAN;
    config->jpeg_quality = -1;
    config->hands = 0;
    config->layout_angle_deg = NAN;
    config->layout_x_mm = NAN;
    config->layout_y_mm = NAN;
    memset(config->hand, 0, sizeof config->hand);
    memset(&config->shadow, 0, sizeof config->shadow);
}

/* ---- small geometry ---- */

typedef struct vec3 {
    double x, y, h; /* table mm: x, y, height above the table */
} vec3;

static vec3 v3(double x, double y, double h) { return (vec3){x, y, h}; }
static vec3 add3(vec3 a, vec3 b) { return v3(a.x + b.x, a.y + b.y, a.h + b.h); }
static vec3 sub3(vec3 a, vec3 b) { return v3(a.x - b.x, a.y - b.y, a.h - b.h); }
static vec3 mul3(vec3 a, double k) { return v3(a.x * k, a.y * k, a.h * k); }
static double dot3(vec3 a, vec3 b) { return a.x * b.x + a.y * b.y + a.h * b.h; }
static vec3 unit3(vec3 a) { return mul3(a, 1 / sqrt(dot3(a, a))); }

/* The cross product in a right-handed frame: (x, y, height) is left-handed (y runs towards the
 * viewer of the mat), so the height is flipped around it. */
static vec3 cross3(vec3 a, vec3 b)
{
    double ax = a.x, ay = a.y, az = -a.h, bx = b.x, by = b.y, bz = -b.h;
    return v3(ay * bz - az * by, az * bx - ax * bz, -(ax * by - ay * bx));
}

static void mat3_multiply(const double a[9], const double b[9], double out[9])
{
    double r[9];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            r[i * 3 + j] = a[i * 3] * b[j] + a[i * 3 + 1] * b[3 + j] + a[i * 3 + 2] * b[6 + j];
    memcpy(out, r, sizeof r);
}

static bool mat3_invert(const double m[9], double out[9])
{
    double c0 = m[4] * m[8] - m[5] * m[7], c1 = m[5] * m[6] - m[3] * m[8],
           c2 = m[3] * m[7] - m[4] * m[6];
    double det = m[0] * c0 + m[1] * c1 + m[2] * c2;
    if (fabs(det) < 1e-300)
        return false;
    double r[9] = {c0, m[2] * m[7] - m[1] * m[8], m[1] * m[5] - m[2] * m[4],
                   c1, m[0] * m[8] - m[2] * m[6], m[2] * m[3] - m[0] * m[5],
                   c2, m[1] * m[6] - m[0] * m[7], m[0] * m[4] - m[1] * m[3]};
    for (int i = 0; i < 9; i++)
        out[i] = r[i] / det;
    return true;
}

static vision_point apply_homography(const double h[9], double x, double y)
{
    double w = h[6] * x + h[7] * y + h[8];
    vision_point p = {(h[0] * x + h[1] * y + h[2]) / w, (h[3] * x + h[4] * y + h[5]) / w};
    return p;
}

/* ---- the camera ---- */

typedef struct camera {
    vec3 centre;
    vec3 right, down, forward;
    double focal;
    double cx, cy;     /* the principal point in the output frame */
    double ox, oy;     /* a canvas pixel is an output pixel plus (ox, oy) */
    int width, height; /* the output frame */
    int canvas_width, canvas_height;
    double k1;
} camera;

/* The canvas pixel where p appears; false when p is not in front of the camera. */
static bool project(const camera *cam, vec3 p, vision_point *pixel)
{
    vec3 q = sub3(p, cam->centre);
    double z = dot3(cam->forward, q);
    if (z < 1)
        return false;
    pixel->x = cam->focal * dot3(cam->right, q) / z + cam->cx + cam->ox;
    pixel->y = cam->focal * dot3(cam->down, q) / z + cam->cy + cam->oy;
    return true;
}

static double depth_of(const camera *cam, vec3 p)
{
    return dot3(cam->forward, sub3(p, cam->centre));
}

/* The 3x4 projection (x_mm, y_mm, height_mm, 1) -> pixel; in the output frame or the canvas. */
static void projection_matrix(const camera *cam, bool canvas, double p[12])
{
    double cx = cam->cx + (canvas ? cam->ox : 0), cy = cam->cy + (canvas ? cam->oy : 0);
    vec3 rows[3] = {add3(mul3(cam->right, cam->focal), mul3(cam->forward, cx)),
                    add3(mul3(cam->down, cam->focal), mul3(cam->forward, cy)), cam->forward};
    for (int i = 0; i < 3; i++) {
        p[i * 4 + 0] = rows[i].x;
        p[i * 4 + 1] = rows[i].y;
        p[i * 4 + 2] = rows[i].h;
        p[i * 4 + 3] = -dot3(rows[i], cam->centre);
    }
}

/* The homography from the plane at height_mm (x_mm, y_mm) to pixels. */
static void plane_homography(const camera *cam, bool canvas, double height_mm, double h[9])
{
    double p[12];
    projection_matrix(cam, canvas, p);
    for (int i = 0; i < 3; i++) {
        h[i * 3 + 0] = p[i * 4 + 0];
        h[i * 3 + 1] = p[i * 4 + 1];
        h[i * 3 + 2] = p[i * 4 + 2] * height_mm + p[i * 4 + 3];
    }
    for (int i = 0; i < 9; i++)
        h[i] /= h[8] != 0 ? h[8] : 1;
}

static void camera_aim(camera *cam, double target_x, double target_y, double height,
                       double tilt_deg, double azimuth_deg, double roll_deg)
{
    double t = tilt_deg * DEG, a = azimuth_deg * DEG, roll = roll_deg * DEG;
    double dx = sin(a), dy = cos(a); /* from the mat towards the camera's side */
    cam->centre = v3(target_x + dx * height * tan(t), target_y + dy * height * tan(t), height);
    cam->forward = unit3(sub3(v3(target_x, target_y, 0), cam->centre));
    vec3 down = unit3(v3(dx * cos(t), dy * cos(t), -sin(t)));
    vec3 right = unit3(cross3(down, cam->forward));
    cam->right = add3(mul3(right, cos(roll)), mul3(down, sin(roll)));
    cam->down = add3(mul3(right, -sin(roll)), mul3(down, cos(roll)));
}

/* Normalised radius without distortion -> with (OpenCV's k1 model). */
static double distort_radius(double k1, double r) { return r * (1 + k1 * r * r); }

/* Its inverse (Newton; the field of view is kept where the model does not fold over). */
static double undistort_radius(double k1, double rd)
{
    double r = rd;
    for (int i = 0; i < 30; i++) {
        double g = r + k1 * r * r * r - rd, slope = 1 + 3 * k1 * r * r;
        if (slope < 1e-6)
            break;
        double step = g / slope;
        r -= step;
        if (fabs(step) < 1e-12)
            break;
    }
    return r;
}

/* The output pixel (distorted) of an undistorted output pixel. */
static vision_point distort_pixel(const camera *cam, vision_point p)
{
    double x = (p.x - cam->cx) / cam->focal, y = (p.y - cam->cy) / cam->focal;
    double r = hypot(x, y), scale = r > 0 ? distort_radius(cam->k1, r) / r : 1;
    vision_point q = {cam->cx + cam->focal * x * scale, cam->cy + cam->focal * y * scale};
    return q;
}

static vision_point undistort_pixel(const camera *cam, vision_point p)
{
    double x = (p.x - cam->cx) / cam->focal, y = (p.y - cam->cy) / cam->focal;
    double r = hypot(x, y), scale = r > 0 ? undistort_radius(cam->k1, r) / r : 1;
    vision_point q = {cam->cx + cam->focal * x * scale, cam->cy + cam->focal * y * scale};
    return q;
}

/* ---- the scene ---- */

typedef struct scene_tile {
    int row, col;
    double x, y, angle_deg; /* centre, turn */
    int quarter_turns;
    int height;
    int colours[VISION_EL_STACK_MAX];
    double stack_x, stack_y, stack_base;
    int token;
    double token_x, token_y, token_angle_deg;
    double depth;
} scene_tile;

typedef struct capsule {
    vec3 a, b;
    double ra, rb;
    double colour[3];
    double outline; /* a darker rim this many mm wide drawn first, 0 for none */
} capsule;

typedef struct hand {
    capsule parts[HAND_PARTS];
    int part_count;
    vec3 palm[16];
    double palm_colour[3];
} hand;

typedef struct scene {
    const vision_render_config *config;
    const vision_el_observation *truth;
    render_box box;
    /* resolved values */
    double camera_height, tilt, azimuth, roll, k1, kelvin, light_azimuth, light_elevation;
    double glare, noise, blur, layout_angle, gap, exposure, hfov;
    int jpeg_quality, hands;
    double target_x, target_y;
    camera cam;
    double px_per_mm;            /* about, at the mat's centre */
    vec3 light;                  /* unit, towards the light */
    double shadow_dx, shadow_dy; /* a point's shadow moves this far per mm it stands higher */
    double ambient, diffuse, normaliser;
    double paint[VISION_COLOURS_MAX][3];
    double paper_mm;
    scene_tile tiles[VISION_EL_TILES_MAX];
    int rows, cols;
    hand hand_shapes[2];
    /* images */
    vision_image canvas, shadow, tile_cover, hand_mask;
    int shadow_x0, shadow_y0, shadow_x1, shadow_y1; /* where shadow holds anything, inclusive */
    vision_image art[EL_TILE_TYPES], token_art[EL_TOKEN_TYPES], token_alpha;
    vision_image paper[4];
} scene;

/* ---- checking the input ---- */

static bool in_range(double value, double low, double high)
{
    return value >= low && value <= high;
}

static vision_status check_config(const vision_render_config *c, char *error, size_t size)
{
    if (c->width < 32 || c->width > 8192 || c->height < 32 || c->height > 8192)
        return vision_fail(error, size, VISION_BAD_INPUT,
                    "image size %d x %d: each side must be 32 to 8192 pixels", c->width, c->height);
    const vision_mat *m = &c->mat;
    if (!in_range(m->marker_mm, 10, 200))
        return vision_fail(error, size, VISION_BAD_INPUT, "marker side %g mm: must be 10 to 200 mm",
                    m->marker_mm);
    if (!in_range(m->tile_mm, 10, 200))
        return vision_fail(error, size, VISION_BAD_INPUT, "tile side %g mm: must be 10 to 200 mm",
                    m->tile_mm);
    double paper = m->marker_mm * (6 + 2 * PAPER_MARGIN_MODULES) / 6;
    if (!in_range(m->width_mm, 100, 3000) || !in_range(m->height_mm, 100, 3000))
        return vision_fail(error, size, VISION_BAD_INPUT,
                    "mat %g x %g mm: each side must be 100 to 3000 mm", m->width_mm, m->height_mm);
    if (m->width_mm < paper + m->tile_mm || m->height_mm < paper + m->tile_mm)
        return vision_fail(error, size, VISION_BAD_INPUT,
                    "mat %g x %g mm: too small for %g mm markers and a %g mm tile between them",
                    m->width_mm, m->height_mm, m->marker_mm, m->tile_mm);
    static const struct {
        const char *name;
        size_t offset;
        double low, high;
    } ranges[] = {
        {"camera height (mm)", offsetof(vision_render_config, camera_height_mm), 500, 1200},
        {"tilt (degrees)", offsetof(vision_render_config, tilt_deg), 0, 35},
        {"azimuth (degrees)", offsetof(vision_render_config, azimuth_deg), 0, 360},
        {"distortion k1", offsetof(vision_render_config, distortion_k1), -0.12, 0.04},
        {"light colour (kelvin)", offsetof(vision_render_config, light_kelvin), 2700, 6500},
        {"light azimuth (degrees)", offsetof(vision_render_config, light_azimuth_deg), 0, 360},
        {"light elevation (degrees)", offsetof(vision_render_config, light_elevation_deg), 30, 85},
        {"glare", offsetof(vision_render_config, glare), 0, 1},
        {"noise (grey levels)", offsetof(vision_render_config, noise), 0, 6},
        {"blur (pixels)", offsetof(vision_render_config, blur_px), 0, 1.5},
        {"layout angle (degrees)", offsetof(vision_render_config, layout_angle_deg), -8, 8},
    };
    for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++) {
        double value = *(const double *)((const char *)c + ranges[i].offset);
        bool azimuth = ranges[i].high == 360;
        if (isnan(value))
            continue;
        if (!in_range(value, ranges[i].low, ranges[i].high) || (azimuth && value >= 360))
            return vision_fail(error, size, VISION_BAD_INPUT, "%s %g: must be %g to %g%s", ranges[i].name,
                        value, ranges[i].low, ranges[i].high, azimuth ? " (360 excluded)" : "");
    }
    if (c->jpeg_quality != -1 && c->jpeg_quality != 0 &&
        (c->jpeg_quality < 60 || c->jpeg_quality > 95))
        return vision_fail(error, size, VISION_BAD_INPUT,
                    "JPEG quality %d: must be 60 to 95, 0 for none (or -1 to draw it)",
                    c->jpeg_quality);
    if (c->hands < -1 || c->hands > 2)
        return vision_fail(error, size, VISION_BAD_INPUT, "hands %d: must be 0 to 2 (or -1 to draw it)",
                    c->hands);
    if (isnan(c->layout_x_mm) != isnan(c->layout_y_mm) ||
        (!isnan(c->layout_x_mm) && (!in_range(c->layout_x_mm, -m->width_mm, 2 * m->width_mm) ||
                                    !in_range(c->layout_y_mm, -m->height_mm, 2 * m->height_mm))))
        return vision_fail(error, size, VISION_BAD_INPUT,
                    "layout place %g, %g mm: give both, each within a mat's size of the mat",
                    c->layout_x_mm, c->layout_y_mm);
    for (int i = 0; i < 2; i++) {
        const vision_render_hand *h = &c->hand[i];
        if (!h->placed)
            continue;
        if (!in_range(h->tip_x_mm, -m->width_mm, 2 * m->width_mm) ||
            !in_range(h->tip_y_mm, -m->height_mm, 2 * m->height_mm) ||
            !in_range(h->tip_height_mm, 0, 300) || !in_range(h->from_deg, 0, 360) ||
            h->from_deg >= 360 || !in_range(h->reach, 0, 1))
            return vision_fail(error, size, VISION_BAD_INPUT,
                        "hand %d: tip %g, %g mm at %g mm high from %g degrees, reach %g: the tip "
                        "within a mat's size of the mat, 0 to 300 mm high, from 0 to 360 degrees "
                        "(360 excluded), reach 0 to 1",
                        i, h->tip_x_mm, h->tip_y_mm, h->tip_height_mm, h->from_deg, h->reach);
    }
    const vision_render_shadow *w = &c->shadow;
    if (w->length_mm != 0 &&
        (!in_range(w->length_mm, 1, 2000) || !in_range(w->width_mm, 1, w->length_mm) ||
         !in_range(w->x_mm, -m->width_mm, 2 * m->width_mm) ||
         !in_range(w->y_mm, -m->height_mm, 2 * m->height_mm) || !isfinite(w->angle_deg) ||
         !(w->darkness > 0 && w->darkness <= 0.8)))
        return vision_fail(error, size, VISION_BAD_INPUT,
                           "shadow %g x %g mm at %g, %g mm, darkness %g: 1 to 2000 mm long, as "
                           "wide or less, within a mat's size of the mat, darkness above 0 to "
                           "0.8",
                           w->length_mm, w->width_mm, w->x_mm, w->y_mm, w->darkness);
    return VISION_OK;
}

static vision_status check_truth(const vision_el_observation *truth, uint64_t box_seed,
                                 double paint[VISION_COLOURS_MAX][3], char *error, size_t size)
{
    if (truth->colour_count < 0 || truth->colour_count > VISION_COLOURS_MAX)
        return vision_fail(error, size, VISION_BAD_INPUT, "the truth has %d colours (at most %d)",
                    truth->colour_count, VISION_COLOURS_MAX);
    for (int i = 0; i < truth->colour_count; i++) {
        char name[VISION_COLOUR_NAME_MAX + 1];
        memcpy(name, truth->colours[i], VISION_COLOUR_NAME_MAX);
        name[VISION_COLOUR_NAME_MAX] = '\0';
        if (render_paint(name, box_seed, paint[i]) != 0)
            return vision_fail(error, size, VISION_BAD_INPUT, "colour '%s': the renderer paints only %s",
                        name, render_paint_names());
    }
    if (truth->tile_count < 0 || truth->tile_count > VISION_EL_TILES_MAX)
        return vision_fail(error, size, VISION_BAD_INPUT, "the truth has %d tiles (at most %d)",
                    truth->tile_count, VISION_EL_TILES_MAX);
    for (int i = 0; i < truth->tile_count; i++) {
        const vision_el_tile *t = &truth->tiles[i];
        if (t->row < -1000 || t->row > 1000 || t->col < -1000 || t->col > 1000)
            return vision_fail(error, size, VISION_BAD_INPUT, "tile %d: row %d, column %d out of reach", i,
                        t->row, t->col);
        for (int j = 0; j < i; j++)
            if (truth->tiles[j].row == t->row && truth->tiles[j].col == t->col)
                return vision_fail(error, size, VISION_BAD_INPUT,
                            "tiles %d and %d both lie at row %d, column %d", j, i, t->row, t->col);
        if (t->type < 0 || t->type >= EL_TILE_TYPES)
            return vision_fail(error, size, VISION_BAD_INPUT,
                        "tile at row %d, column %d: its type %s; a truth names every type", t->row,
                        t->col, t->type == VISION_UNKNOWN ? "is unknown" : "is not a tile type");
        if (t->token != EL_NO_TOKEN && t->token != EL_BOAT && t->token != EL_SNAKES)
            return vision_fail(error, size, VISION_BAD_INPUT,
                        "tile at row %d, column %d: its token must be the boat, the snakes or none",
                        t->row, t->col);
        if (t->top == VISION_NONE) {
            if (t->height != 0 && t->height != VISION_UNKNOWN)
                return vision_fail(error, size, VISION_BAD_INPUT,
                            "tile at row %d, column %d: a height of %d with no adventurer on top",
                            t->row, t->col, t->height);
            continue;
        }
        if (t->top < 0 || t->top >= truth->colour_count)
            return vision_fail(error, size, VISION_BAD_INPUT, "tile at row %d, column %d: its top %s",
                        t->row, t->col,
                        t->top == VISION_UNKNOWN ? "is unknown; a truth names every top"
                                                 : "is not one of the truth's colours");
        if (t->height < 1 || t->height > VISION_EL_STACK_MAX)
            return vision_fail(error, size, VISION_BAD_INPUT,
                        "tile at row %d, column %d: a stack of %d adventurers (1 to %d)", t->row,
                        t->col, t->height, VISION_EL_STACK_MAX);
        if (t->stack_known) {
            for (int k = 0; k < t->height; k++)
                if (t->stack[k] < 0 || t->stack[k] >= truth->colour_count)
                    return vision_fail(error, size, VISION_BAD_INPUT,
                                "tile at row %d, column %d: stack entry %d is not a colour", t->row,
                                t->col, k);
            if (t->stack[t->height - 1] != t->top)
                return vision_fail(error, size, VISION_BAD_INPUT,
                            "tile at row %d, column %d: the stack's last is not its top", t->row,
                            t->col);
        }
    }
    return VISION_OK;
}

/* ---- resolving the open values ---- */

static double pick(double given, render_rng *rng, double low, double high)
{
    double drawn = render_rng_uniform(rng, low, high); /* always drawn: the sequence stays put */
    return isnan(given) ? drawn : given;
}

static void resolve(scene *s)
{
    const vision_render_config *c = s->config;
    render_rng rng;
    render_rng_seed(&rng, c->scene_seed, STREAM_VALUES);
    s->camera_height = pick(c->camera_height_mm, &rng, 500, 1200);
    s->tilt = pick(c->tilt_deg, &rng, 0, 35);
    s->azimuth = pick(c->azimuth_deg, &rng, 0, 360);
    s->k1 = isnan(c->distortion_k1) ? s->box.distortion_k1 : c->distortion_k1;
    s->kelvin = pick(c->light_kelvin, &rng, 2700, 6500);
    s->light_azimuth = pick(c->light_azimuth_deg, &rng, 0, 360);
    s->light_elevation = pick(c->light_elevation_deg, &rng, 30, 85);
    s->glare = pick(c->glare, &rng, 0, 1);
    s->noise = pick(c->noise, &rng, 0, 6);
    s->blur = pick(c->blur_px, &rng, 0, 1.5);
    int quality = render_rng_int(&rng, 60, 95);
    s->jpeg_quality = c->jpeg_quality == -1 ? quality : c->jpeg_quality;
    int hands = render_rng_int(&rng, 0, 2);
    s->hands = c->hands == -1 ? hands : c->hands;
    s->layout_angle = pick(c->layout_angle_deg, &rng, -8, 8);
    s->gap = render_rng_uniform(&rng, 0.5, 2.5);
    s->exposure = render_rng_uniform(&rng, 0.9, 1.1);
    s->roll = render_rng_uniform(&rng, -3, 3);
    s->target_x = c->mat.width_mm / 2 + render_rng_uniform(&rng, -20, 20);
    s->target_y = c->mat.height_mm / 2 + render_rng_uniform(&rng, -20, 20);

    double el = s->light_elevation * DEG, az = s->light_azimuth * DEG;
    s->light = v3(cos(el) * sin(az), cos(el) * cos(az), sin(el));
    s->shadow_dx = -s->light.x / s->light.h;
    s->shadow_dy = -s->light.y / s->light.h;
    s->ambient = 0.42;
    s->diffuse = 0.58;
    s->normaliser = 1 / (s->ambient + s->diffuse * sin(el)); /* the table's own brightness: 1 */
    s->paper_mm = c->mat.marker_mm * (6 + 2 * PAPER_MARGIN_MODULES) / 6;
}

/* The brightness of a surface with this normal: 1 for the table. */
static double lit(const scene *s, vec3 normal)
{
    double facing = dot3(normal, s->light);
    return s->normaliser * (s->ambient + s->diffuse * (facing > 0 ? facing : 0));
}

/* ---- the camera ---- */

/* Whether the mat, the markers' paper included, lies inside the frame with a 3 % margin. */
static bool mat_in_frame(const scene *s)
{
    const camera *cam = &s->cam;
    double half = s->paper_mm / 2, w = s->config->mat.width_mm, h = s->config->mat.height_mm;
    double x0 = -half, y0 = -half, x1 = w + half, y1 = h + half;
    double mx = 0.03 * cam->width, my = 0.03 * cam->height;
    for (int side = 0; side < 4; side++)
        for (int i = 0; i <= 16; i++) {
            double t = i / 16.0, x, y;
            switch (side) {
            case 0:
                x = x0 + (x1 - x0) * t, y = y0;
                break;
            case 1:
                x = x1, y = y0 + (y1 - y0) * t;
                break;
            case 2:
                x = x1 - (x1 - x0) * t, y = y1;
                break;
            default:
                x = x0, y = y1 - (y1 - y0) * t;
                break;
            }
            vision_point p;
            camera cam_output = *cam;
            cam_output.ox = cam_output.oy = 0;
            if (!project(&cam_output, v3(x, y, 0), &p))
                return false;
            p = distort_pixel(cam, p);
            if (p.x < mx || p.x > cam->width - 1 - mx || p.y < my || p.y > cam->height - 1 - my)
                return false;
        }
    return true;
}

static vision_status setup_camera(scene *s, char *error, size_t size)
{
    camera *cam = &s->cam;
    cam->width = s->config->width;
    cam->height = s->config->height;
    cam->cx = (cam->width - 1) / 2.0;
    cam->cy = (cam->height - 1) / 2.0;
    cam->k1 = s->k1;
    /* Keep the frame's corners where k1's model does not fold (r (1 + k1 r^2) still growing):
     * the field narrows for a strong barrel lens. */
    s->hfov = s->box.hfov_deg;
    double aspect = (double)cam->height / cam->width;
    if (s->k1 < 0) {
        /* the undistorted radius where the model's slope 1 + 3 k1 r^2 falls to 0.2, and the
         * frame radius (distorted) it shows at: the corners stay inside it */
        double r = sqrt(0.8 / (-3 * s->k1)), corner = distort_radius(s->k1, r);
        double tan_limit = corner / sqrt(1 + aspect * aspect);
        if (tan(s->hfov / 2 * DEG) > tan_limit)
            s->hfov = 2 * atan(tan_limit) / DEG;
    }
    cam->focal = (cam->width / 2.0) / tan(s->hfov / 2 * DEG);
    double height = s->camera_height;
    for (int i = 0;; i++) {
        camera_aim(cam, s->target_x, s->target_y, height, s->tilt, s->azimuth, s->roll);
        if (mat_in_frame(s))
            break;
        if (i == 400)
            return vision_fail(error, size, VISION_BAD_INPUT,
                        "the mat (%g x %g mm) does not fit a %d x %d frame from any height",
                        s->config->mat.width_mm, s->config->mat.height_mm, cam->width, cam->height);
        height *= 1.02;
    }
    s->camera_height = height;

    /* The canvas: what the undistorted camera must see for every output pixel to have a source. */
    double min_x = 0, min_y = 0, max_x = cam->width - 1, max_y = cam->height - 1;
    if (s->k1 < 0) {
        for (int side = 0; side < 4; side++)
            for (int i = 0; i <= 64; i++) {
                double t = i / 64.0;
                vision_point p = side == 0   ? (vision_point){t * (cam->width - 1), 0}
                                 : side == 1 ? (vision_point){cam->width - 1, t * (cam->height - 1)}
                                 : side == 2 ? (vision_point){t * (cam->width - 1), cam->height - 1}
                                             : (vision_point){0, t * (cam->height - 1)};
                vision_point u = undistort_pixel(cam, p);
                min_x = fmin(min_x, u.x);
                min_y = fmin(min_y, u.y);
                max_x = fmax(max_x, u.x);
                max_y = fmax(max_y, u.y);
            }
        min_x -= 2;
        min_y -= 2;
        max_x += 2;
        max_y += 2;
    }
    cam->ox = -floor(min_x);
    cam->oy = -floor(min_y);
    cam->canvas_width = (int)ceil(max_x) + (int)cam->ox + 1;
    cam->canvas_height = (int)ceil(max_y) + (int)cam->oy + 1;
    if (cam->canvas_width > 16384 || cam->canvas_height > 16384)
        return vision_fail(error, size, VISION_BAD_INPUT, "the lens's distortion %g is too strong", s->k1);
    s->px_per_mm = cam->focal / depth_of(cam, v3(s->target_x, s->target_y, 0));
    return VISION_OK;
}

/* ---- the layout ---- */

/* The corners of a square of side `side` turned by angle_deg around (x, y). */
static void square_corners(double x, double y, double side, double angle_deg, vision_point c[4])
{
    double a = angle_deg * DEG, ux = cos(a) * side / 2, uy = sin(a) * side / 2;
    double vx = -uy, vy = ux;
    c[0] = (vision_point){x - ux - vx, y - uy - vy};
    c[1] = (vision_point){x + ux - vx, y + uy - vy};
    c[2] = (vision_point){x + ux + vx, y + uy + vy};
    c[3] = (vision_point){x - ux + vx, y - uy + vy};
}

/* Whether two convex polygons overlap (separating axes). */
static bool polygons_overlap(const vision_point *a, int na, const vision_point *b, int nb)
{
    for (int pass = 0; pass < 2; pass++) {
        const vision_point *p = pass ? b : a;
        int n = pass ? nb : na;
        for (int i = 0; i < n; i++) {
            double ax = -(p[(i + 1) % n].y - p[i].y), ay = p[(i + 1) % n].x - p[i].x;
            double amin = INFINITY, amax = -INFINITY, bmin = INFINITY, bmax = -INFINITY;
            for (int k = 0; k < na; k++) {
                double d = a[k].x * ax + a[k].y * ay;
                amin = fmin(amin, d);
                amax = fmax(amax, d);
            }
            for (int k = 0; k < nb; k++) {
                double d = b[k].x * ax + b[k].y * ay;
                bmin = fmin(bmin, d);
                bmax = fmax(bmax, d);
            }
            if (amax < bmin || bmax < amin)
                return false;
        }
    }
    return true;
}

/* A cell's centre relative to the layout's centre, before the layout turns. */
static void cell_offset(const scene *s, int row, int col, double *x, double *y)
{
    double pitch = s->config->mat.tile_mm + s->gap;
    *x = (col - (s->cols - 1) / 2.0) * pitch;
    *y = (row - (s->rows - 1) / 2.0) * pitch;
}

/* Whether the layout centred at (cx, cy) lies on the mat, clear of the markers' paper. */
static bool layout_fits(const scene *s, double cx, double cy, double angle_deg)
{
    const vision_mat *mat = &s->config->mat;
    double a = angle_deg * DEG, side = mat->tile_mm + 3; /* room for each tile's jitter */
    double clear = s->paper_mm + 6;                      /* the paper and 3 mm around it */
    for (int i = 0; i < s->truth->tile_count; i++) {
        double ox, oy;
        cell_offset(s, s->tiles[i].row, s->tiles[i].col, &ox, &oy);
        double x = cx + ox * cos(a) - oy * sin(a), y = cy + ox * sin(a) + oy * cos(a);
        vision_point corners[4];
        square_corners(x, y, side, angle_deg, corners);
        for (int k = 0; k < 4; k++)
            if (corners[k].x < 0 || corners[k].x > mat->width_mm || corners[k].y < 0 ||
                corners[k].y > mat->height_mm)
                return false;
        for (int m = 0; m < 4; m++) {
            double mx = (m == 1 || m == 2) ? mat->width_mm : 0, my = m >= 2 ? mat->height_mm : 0;
            vision_point paper[4];
            square_corners(mx, my, clear, 0, paper);
            if (polygons_overlap(corners, 4, paper, 4))
                return false;
        }
    }
    return true;
}

static vision_status place_layout(scene *s, char *error, size_t size)
{
    const vision_el_observation *truth = s->truth;
    const vision_mat *mat = &s->config->mat;
    int min_row = 0, min_col = 0, max_row = 0, max_col = 0;
    for (int i = 0; i < truth->tile_count; i++) {
        const vision_el_tile *t = &truth->tiles[i];
        if (i == 0 || t->row < min_row)
            min_row = t->row;
        if (i == 0 || t->col < min_col)
            min_col = t->col;
        if (i == 0 || t->row > max_row)
            max_row = t->row;
        if (i == 0 || t->col > max_col)
            max_col = t->col;
    }
    s->rows = max_row - min_row + 1;
    s->cols = max_col - min_col + 1;
    /* A fixed layout: cell (0, 0) at the given point, each cell where its row and column put
     * it (a 1 x 1 layout's offsets are the cell's own). */
    bool fixed = !isnan(s->config->layout_x_mm);
    for (int i = 0; i < truth->tile_count; i++) {
        s->tiles[i].row = truth->tiles[i].row - (fixed ? 0 : min_row);
        s->tiles[i].col = truth->tiles[i].col - (fixed ? 0 : min_col);
    }
    int rows = s->rows, cols = s->cols;
    if (fixed)
        s->rows = s->cols = 1;
    render_rng rng;
    render_rng_seed(&rng, s->config->scene_seed, STREAM_LAYOUT);
    bool angle_given = !isnan(s->config->layout_angle_deg);
    double cx = fixed ? s->config->layout_x_mm : mat->width_mm / 2;
    double cy = fixed ? s->config->layout_y_mm : mat->height_mm / 2;
    bool placed = truth->tile_count == 0 || (fixed && layout_fits(s, cx, cy, s->layout_angle));
    if (fixed && !placed)
        return vision_fail(error, size, VISION_BAD_INPUT,
                    "the layout (%d rows x %d columns of %g mm tiles) does not fit the %g x %g mm "
                    "mat clear of its %g mm markers with cell 0,0 at %g, %g mm",
                    rows, cols, mat->tile_mm, mat->width_mm, mat->height_mm, mat->marker_mm, cx,
                    cy);
    /* A drawn angle and gap may shrink for a large layout; a given angle stays. */
    for (int attempt = 0; attempt < 6 && !placed; attempt++) {
        if (attempt > 0) {
            if (!angle_given)
                s->layout_angle *= 0.5;
            s->gap = 0.5 + (s->gap - 0.5) * 0.5;
        }
        double reach_x = 0, reach_y = 0, a = s->layout_angle * DEG;
        for (int i = 0; i < truth->tile_count; i++) {
            double ox, oy;
            cell_offset(s, s->tiles[i].row, s->tiles[i].col, &ox, &oy);
            double x = ox * cos(a) - oy * sin(a), y = ox * sin(a) + oy * cos(a);
            double r = (mat->tile_mm + 3) * SQRT_HALF;
            reach_x = fmax(reach_x, fabs(x) + r);
            reach_y = fmax(reach_y, fabs(y) + r);
        }
        double spare_x = mat->width_mm / 2 - reach_x, spare_y = mat->height_mm / 2 - reach_y;
        for (int k = 0; k < 300 && !placed; k++) {
            double x = mat->width_mm / 2 + render_rng_uniform(&rng, -1, 1) * fmax(0, spare_x);
            double y = mat->height_mm / 2 + render_rng_uniform(&rng, -1, 1) * fmax(0, spare_y);
            if (layout_fits(s, x, y, s->layout_angle)) {
                cx = x;
                cy = y;
                placed = true;
            }
        }
        if (!placed && layout_fits(s, cx, cy, s->layout_angle))
            placed = true;
    }
    if (!placed)
        return vision_fail(error, size, VISION_BAD_INPUT,
                    "the layout (%d rows x %d columns of %g mm tiles) does not fit the %g x %g mm "
                    "mat clear of its %g mm markers",
                    rows, cols, mat->tile_mm, mat->width_mm, mat->height_mm, mat->marker_mm);

    /* Each tile: a little jitter (kept within the gap so that tiles never overlap), its art's
     * quarter turn, where its stack and its token lie. */
    double tile = mat->tile_mm, a = s->layout_angle * DEG;
    double reach = 1.0 + tile / 2 * sin(1.5 * DEG);
    double jitter = fmin(1.0, (s->gap / 2) / reach);
    for (int i = 0; i < truth->tile_count; i++) {
        const vision_el_tile *t = &truth->tiles[i];
        scene_tile *st = &s->tiles[i];
        uint64_t stream = fixed ? STREAM_CELLS + (uint64_t)(st->row + 1024) * 4096 +
                                      (uint64_t)(st->col + 1024)
                                : STREAM_TILES + (uint64_t)i;
        render_rng_seed(&rng, s->config->scene_seed, stream);
        double ox, oy;
        cell_offset(s, st->row, st->col, &ox, &oy);
        st->x = cx + ox * cos(a) - oy * sin(a) + jitter * render_rng_uniform(&rng, -1, 1);
        st->y = cy + ox * sin(a) + oy * cos(a) + jitter * render_rng_uniform(&rng, -1, 1);
        st->angle_deg = s->layout_angle + jitter * render_rng_uniform(&rng, -1.5, 1.5);
        st->quarter_turns = render_rng_int(&rng, 0, 3);
        st->height = t->top == VISION_NONE ? 0 : t->height;
        for (int k = 0; k < VISION_EL_STACK_MAX; k++) { /* always drawn: the spots stay put */
            int random_colour =
                truth->colour_count > 0 ? render_rng_int(&rng, 0, truth->colour_count - 1) : 0;
            if (k < st->height)
                st->colours[k] = t->stack_known        ? t->stack[k]
                                 : k == st->height - 1 ? t->top
                                                       : random_colour;
        }
        double ta = st->angle_deg * DEG;
        double piece_r = s->box.piece_diameter_mm / 2;
        double room = fmax(0, tile / 2 - piece_r - 1.5);
        double u = render_rng_uniform(&rng, -room, room), v = render_rng_uniform(&rng, -room, room);
        st->stack_x = st->x + u * cos(ta) - v * sin(ta);
        st->stack_y = st->y + u * sin(ta) + v * cos(ta);
        st->stack_base = TILE_THICKNESS_MM;
        st->token = t->token;
        double token_room = fmax(0, tile / 2 - s->box.token_mm * SQRT_HALF - 0.5);
        u = render_rng_uniform(&rng, -token_room, token_room);
        v = render_rng_uniform(&rng, -token_room, token_room);
        st->token_x = st->x + u * cos(ta) - v * sin(ta);
        st->token_y = st->y + u * sin(ta) + v * cos(ta);
        st->token_angle_deg = render_rng_uniform(&rng, 0, 360);
        if (st->token != EL_NO_TOKEN && st->height > 0) {
            /* A stack on a tile with a token stands on the token. */
            double spot = fmax(0, s->box.token_mm / 2 - piece_r - 1);
            st->stack_x = st->token_x + render_rng_uniform(&rng, -spot, spot) * SQRT_HALF;
            st->stack_y = st->token_y + render_rng_uniform(&rng, -spot, spot) * SQRT_HALF;
            st->stack_base = TILE_THICKNESS_MM + s->box.token_thickness_mm;
        }
        st->depth = depth_of(&s->cam, v3(st->x, st->y, TILE_THICKNESS_MM));
    }
    return VISION_OK;
}

/* ---- drawing helpers ---- */

/* Projects the table points and fills their convex hull into mask (or blends colour into the
 * canvas when mask is NULL). False when a point is behind the camera. */
static bool fill_hull(scene *s, const vec3 *points, int count, vision_image *mask,
                      const double colour[3], double opacity)
{
    vision_point pixels[4 * CIRCLE_SEGMENTS + 8];
    if (count > (int)(sizeof pixels / sizeof pixels[0]))
        return false;
    for (int i = 0; i < count; i++)
        if (!project(&s->cam, points[i], &pixels[i]))
            return false;
    int n = render_convex_hull(pixels, count);
    if (mask == &s->shadow)
        for (int i = 0; i < n; i++) {
            s->shadow_x0 = (int)fmin(s->shadow_x0, floor(pixels[i].x) - 1);
            s->shadow_y0 = (int)fmin(s->shadow_y0, floor(pixels[i].y) - 1);
            s->shadow_x1 = (int)fmax(s->shadow_x1, ceil(pixels[i].x) + 1);
            s->shadow_y1 = (int)fmax(s->shadow_y1, ceil(pixels[i].y) + 1);
        }
    if (mask)
        render_raster_mask(mask, pixels, n, 255);
    else
        render_raster_blend(&s->canvas, pixels, n, colour, opacity);
    return true;
}

/* Blends a convex polygon given by table points (in order) into the canvas. */
static void fill_polygon(scene *s, const vec3 *points, int count, const double colour[3],
                         double opacity)
{
    vision_point pixels[4 * CIRCLE_SEGMENTS + 8];
    if (count > (int)(sizeof pixels / sizeof pixels[0]))
        return;
    for (int i = 0; i < count; i++)
        if (!project(&s->cam, points[i], &pixels[i]))
            return;
    render_raster_blend(&s->canvas, pixels, count, colour, opacity);
}

/* Warps texture onto the table quad (corners of the texture's top-left, top-right, bottom-right,
 * bottom-left in table points at one height), blending by the quad's coverage; the quad's
 * coverage also goes into cover_mask when given. */
static vision_status warp_onto(scene *s, const vision_image *texture, const vision_image *alpha,
                               const vec3 corners[4], const double shade[3],
                               vision_image *cover_mask)
{
    vision_point q[4];
    for (int i = 0; i < 4; i++)
        if (!project(&s->cam, corners[i], &q[i]))
            return VISION_OK;
    double x0 = q[0].x, x1 = q[0].x, y0 = q[0].y, y1 = q[0].y;
    for (int i = 1; i < 4; i++) {
        x0 = fmin(x0, q[i].x);
        x1 = fmax(x1, q[i].x);
        y0 = fmin(y0, q[i].y);
        y1 = fmax(y1, q[i].y);
    }
    int left = (int)fmax(0, floor(x0) - 1), top = (int)fmax(0, floor(y0) - 1);
    int right = (int)fmin(s->canvas.width - 1, ceil(x1) + 1);
    int bottom = (int)fmin(s->canvas.height - 1, ceil(y1) + 1);
    if (right < left || bottom < top)
        return VISION_OK;
    int width = right - left + 1, height = bottom - top + 1;
    uint8_t *coverage = malloc((size_t)width * (size_t)height);
    if (!coverage)
        return VISION_NOMEM;
    render_raster_coverage(coverage, left, top, width, height, q, 4);
    /* texture pixel -> table: the texture's corners are its outer pixel edges */
    double w = texture->width, h = texture->height;
    double ex[2] = {(corners[1].x - corners[0].x) / w, (corners[1].y - corners[0].y) / w};
    double ey[2] = {(corners[3].x - corners[0].x) / h, (corners[3].y - corners[0].y) / h};
    double to_table[9] = {ex[0], ey[0], corners[0].x + 0.5 * (ex[0] + ey[0]),
                          ex[1], ey[1], corners[0].y + 0.5 * (ex[1] + ey[1]),
                          0,     0,     1};
    double to_image[9], m[9];
    plane_homography(&s->cam, true, corners[0].h, to_image);
    mat3_multiply(to_image, to_table, m);
    vision_status status = cv_shim_warp_blend(&s->canvas, texture, alpha, m, left, top, width,
                                              height, coverage, shade);
    if (status == VISION_OK && cover_mask)
        render_raster_mask(cover_mask, q, 4, 255);
    free(coverage);
    return status;
}

/* A copy of the texture at about the size it appears (averaged when shrinking, so that fine art
 * does not alias), or a plain copy when it appears larger. */
static vision_status texture_at(const vision_image *source, double pixels, vision_image *out)
{
    int side = (int)ceil(pixels * 1.3);
    if (side >= source->width || side < 8)
        side = side < 8 ? 8 : source->width;
    vision_status status = vision_image_new(side, side, source->channels, out);
    if (status == VISION_OK)
        status = cv_shim_resize(source, out);
    return status;
}

static void shadow_clear(scene *s)
{
    s->shadow_x0 = s->shadow_y0 = 1 << 30;
    s->shadow_x1 = s->shadow_y1 = -(1 << 30);
}

/* Darkens the canvas by the blurred shadow mask, where restrict_mask (when given) is set, then
 * clears the mask. Only the part of the mask that holds anything is blurred and applied. */
static vision_status apply_shadow(scene *s, double blur_mm, double darkness,
                                  const vision_image *restrict_mask)
{
    double sigma = fmax(0.6, blur_mm * s->px_per_mm);
    int reach = (int)ceil(3 * sigma) + 2;
    int x0 = (int)fmax(0, s->shadow_x0 - reach), y0 = (int)fmax(0, s->shadow_y0 - reach);
    int x1 = (int)fmin(s->shadow.width - 1, s->shadow_x1 + reach);
    int y1 = (int)fmin(s->shadow.height - 1, s->shadow_y1 + reach);
    shadow_clear(s);
    if (x1 < x0 || y1 < y0)
        return VISION_OK;
    vision_image view = {x1 - x0 + 1,
                         y1 - y0 + 1,
                         s->shadow.stride,
                         1,
                         s->shadow.pixels + (size_t)y0 * (size_t)s->shadow.stride + (size_t)x0,
                         0};
    vision_status status = cv_shim_blur(&view, sigma);
    if (status != VISION_OK)
        return status;
    vision_image *canvas = &s->canvas;
    int strength = (int)(darkness * 256 + 0.5);
    for (int y = y0; y <= y1; y++) {
        uint8_t *m = s->shadow.pixels + (size_t)y * (size_t)s->shadow.stride;
        const uint8_t *r = restrict_mask
                               ? restrict_mask->pixels + (size_t)y * (size_t)restrict_mask->stride
                               : NULL;
        uint8_t *p = canvas->pixels + (size_t)y * (size_t)canvas->stride;
        for (int x = x0; x <= x1; x++) {
            if (!m[x] || (r && !r[x]))
                continue;
            int weight = strength * m[x] / 255; /* 0..256 */
            if (r)
                weight = weight * r[x] / 255;
            for (int c = 0; c < 3; c++)
                p[x * 3 + c] = (uint8_t)((p[x * 3 + c] * (256 - weight) + 128) >> 8);
        }
        memset(m + x0, 0, (size_t)(x1 - x0 + 1));
    }
    return VISION_OK;
}

/* A body's shadow on the plane at plane_h: the hull of its points each moved along the light. */
static void cast(scene *s, const vec3 *points, int count, double plane_h)
{
    vec3 moved[4 * CIRCLE_SEGMENTS + 8];
    for (int i = 0; i < count && i < (int)(sizeof moved / sizeof moved[0]); i++) {
        double rise = points[i].h - plane_h;
        moved[i] =
            v3(points[i].x + rise * s->shadow_dx, points[i].y + rise * s->shadow_dy, plane_h);
    }
    fill_hull(s, moved, count, &s->shadow, NULL, 0);
}

/* A circle of CIRCLE_SEGMENTS points at height h0, then the same at h1: out holds 2 x that. */
static int circle_points(double x, double y, double r, double h0, double h1, vec3 *out)
{
    for (int i = 0; i < CIRCLE_SEGMENTS; i++) {
        double a = 2 * PI * i / CIRCLE_SEGMENTS;
        out[i] = v3(x + r * cos(a), y + r * sin(a), h0);
        out[CIRCLE_SEGMENTS + i] = v3(x + r * cos(a), y + r * sin(a), h1);
    }
    return 2 * CIRCLE_SEGMENTS;
}

static int tile_box_points(const scene *s, const scene_tile *t, vec3 *out)
{
    vision_point c[4];
    square_corners(t->x, t->y, s->config->mat.tile_mm, t->angle_deg, c);
    for (int i = 0; i < 4; i++) {
        out[i] = v3(c[i].x, c[i].y, 0);
        out[4 + i] = v3(c[i].x, c[i].y, TILE_THICKNESS_MM);
    }
    return 8;
}

/* ---- the parts of the scene ---- */

/* The table: its periodic texture seen through the camera, sampled bilinearly (the texture's
 * side is a power of two, so wrapping around is a mask). */
static vision_status draw_table(scene *s)
{
    double to_image[9], to_table[9];
    plane_homography(&s->cam, true, 0, to_image);
    if (!mat3_invert(to_image, to_table))
        return VISION_BAD_INPUT;
    render_rng rng;
    render_rng_seed(&rng, s->config->scene_seed, STREAM_EFFECTS);
    /* The mat lies somewhere else on the table in each photo. */
    double shift_x = render_rng_uniform(&rng, 0, s->box.cloth_mm);
    double shift_y = render_rng_uniform(&rng, 0, s->box.cloth_mm);
    double k = RENDER_CLOTH_PX / s->box.cloth_mm;
    double to_texture[9] = {k, 0, k * shift_x - 0.5, 0, k, k * shift_y - 0.5, 0, 0, 1};
    double m[9];
    mat3_multiply(to_texture, to_table, m);
    const vision_image *cloth = &s->box.cloth;
    const int mask = RENDER_CLOTH_PX - 1;
    vision_image *canvas = &s->canvas;
    /* Texture coordinates exactly every SPAN pixels, linear in between (the table's perspective
     * barely bends over a few pixels), in 8.8 fixed point; the offset keeps them positive. */
    enum { SPAN = 16 };
    const double offset = 256.0 * RENDER_CLOTH_PX * 64;
    for (int y = 0; y < canvas->height; y++) {
        uint8_t *row = canvas->pixels + (size_t)y * (size_t)canvas->stride;
        for (int x0 = 0; x0 < canvas->width; x0 += SPAN) {
            int x1 = x0 + SPAN < canvas->width ? x0 + SPAN : canvas->width - 1;
            vision_point a = apply_homography(m, x0, y), b = apply_homography(m, x1, y);
            int64_t u = (int64_t)(a.x * 256 + offset), v = (int64_t)(a.y * 256 + offset);
            int64_t du = x1 > x0 ? (int64_t)((b.x - a.x) * 256 / (x1 - x0)) : 0;
            int64_t dv = x1 > x0 ? (int64_t)((b.y - a.y) * 256 / (x1 - x0)) : 0;
            int end = x1 > x0 && x1 < canvas->width - 1 ? x1 : x1 + 1;
            for (int x = x0; x < end; x++, u += du, v += dv) {
                int ax = (int)(u >> 8) & mask, ay = (int)(v >> 8) & mask;
                int bx = (ax + 1) & mask, by = (ay + 1) & mask;
                int wx = (int)(u & 255), wy = (int)(v & 255);
                const uint8_t *p00 = cloth->pixels + ay * cloth->stride + ax * 3;
                const uint8_t *p01 = cloth->pixels + ay * cloth->stride + bx * 3;
                const uint8_t *p10 = cloth->pixels + by * cloth->stride + ax * 3;
                const uint8_t *p11 = cloth->pixels + by * cloth->stride + bx * 3;
                for (int c = 0; c < 3; c++) {
                    int top = p00[c] * (256 - wx) + p01[c] * wx;
                    int bottom = p10[c] * (256 - wx) + p11[c] * wx;
                    row[x * 3 + c] = (uint8_t)((top * (256 - wy) + bottom * wy + 32768) >> 16);
                }
            }
        }
    }
    return VISION_OK;
}

static vision_status make_papers(scene *s)
{
    int marker_px = 6 * MARKER_MODULE_PX;
    int margin = (int)(PAPER_MARGIN_MODULES * MARKER_MODULE_PX);
    int side = marker_px + 2 * margin;
    double shown = s->paper_mm * s->px_per_mm;
    for (int id = 0; id < 4; id++) {
        vision_image full;
        vision_status status = vision_image_new(side, side, 3, &full);
        if (status != VISION_OK)
            return status;
        for (int y = 0; y < side; y++)
            for (int x = 0; x < side; x++)
                for (int c = 0; c < 3; c++)
                    full.pixels[y * full.stride + x * 3 + c] = (uint8_t)s->box.paper[c];
        uint8_t *pattern = malloc((size_t)marker_px * (size_t)marker_px);
        char detail[128];
        status =
            pattern ? cv_shim_aruco_marker(id, marker_px, pattern, marker_px, detail, sizeof detail)
                    : VISION_NOMEM;
        for (int y = 0; status == VISION_OK && y < marker_px; y++)
            for (int x = 0; x < marker_px; x++)
                if (pattern[y * marker_px + x] < 128)
                    for (int c = 0; c < 3; c++)
                        full.pixels[(y + margin) * full.stride + (x + margin) * 3 + c] =
                            (uint8_t)s->box.ink[c];
        free(pattern);
        if (status == VISION_OK)
            status = texture_at(&full, shown, &s->paper[id]);
        vision_image_free(&full);
        if (status != VISION_OK)
            return status;
    }
    return VISION_OK;
}

static vision_status draw_markers(scene *s)
{
    const vision_mat *mat = &s->config->mat;
    double half = s->paper_mm / 2;
    double shade[3] = {1, 1, 1};
    for (int id = 0; id < 4; id++) {
        double x = (id == 1 || id == 2) ? mat->width_mm : 0, y = id >= 2 ? mat->height_mm : 0;
        vec3 corners[4] = {v3(x - half, y - half, 0), v3(x + half, y - half, 0),
                           v3(x + half, y + half, 0), v3(x - half, y + half, 0)};
        vision_status status = warp_onto(s, &s->paper[id], NULL, corners, shade, NULL);
        if (status != VISION_OK)
            return status;
    }
    return VISION_OK;
}

static void token_points(const scene *s, const scene_tile *t, vec3 *out, int *count)
{
    int round = s->box.token_round;
    double h0 = TILE_THICKNESS_MM, h1 = h0 + s->box.token_thickness_mm, r = s->box.token_mm / 2;
    if (round) {
        *count = circle_points(t->token_x, t->token_y, r, h0, h1, out);
        return;
    }
    vision_point c[4];
    square_corners(t->token_x, t->token_y, s->box.token_mm * 0.96, t->token_angle_deg, c);
    for (int i = 0; i < 4; i++) {
        out[i] = v3(c[i].x, c[i].y, h0);
        out[4 + i] = v3(c[i].x, c[i].y, h1);
    }
    *count = 8;
}

static void stack_points(const scene *s, const scene_tile *t, vec3 *out, int *count)
{
    double top = t->stack_base + t->height * s->box.piece_height_mm;
    *count = circle_points(t->stack_x, t->stack_y, s->box.piece_diameter_mm / 2, t->stack_base, top,
                           out);
}

static vision_status draw_shadows(scene *s, double plane_h, bool tiles)
{
    vec3 points[4 * CIRCLE_SEGMENTS + 8];
    int count;
    for (int i = 0; i < s->truth->tile_count; i++) {
        const scene_tile *t = &s->tiles[i];
        if (tiles) {
            count = tile_box_points(s, t, points);
            cast(s, points, count, plane_h);
        }
        if (t->token != EL_NO_TOKEN) {
            token_points(s, t, points, &count);
            cast(s, points, count, plane_h);
        }
        if (t->height > 0) {
            stack_points(s, t, points, &count);
            cast(s, points, count, plane_h);
        }
    }
    double darkness = 1 - s->normaliser * s->ambient;
    return apply_shadow(s, 1.2, darkness, tiles ? NULL : &s->tile_cover);
}

/* The upright side faces of a box given by its bottom corners (in order) that face the camera. */
static void draw_box_sides(scene *s, const vision_point *corners, int count, double h0, double h1,
                           const double colour[3], double cx, double cy)
{
    for (int i = 0; i < count; i++) {
        vision_point a = corners[i], b = corners[(i + 1) % count];
        double mx = (a.x + b.x) / 2, my = (a.y + b.y) / 2;
        vec3 normal = unit3(v3(mx - cx, my - cy, 0));
        vec3 to_camera = sub3(s->cam.centre, v3(mx, my, (h0 + h1) / 2));
        if (dot3(normal, to_camera) <= 0)
            continue;
        double shade[3];
        double light = lit(s, normal);
        for (int c = 0; c < 3; c++)
            shade[c] = fmin(255, colour[c] * light);
        vec3 face[4] = {v3(a.x, a.y, h0), v3(b.x, b.y, h0), v3(b.x, b.y, h1), v3(a.x, a.y, h1)};
        fill_polygon(s, face, 4, shade, 1);
    }
}

static vision_status draw_tiles(scene *s, const int *order)
{
    double tile = s->config->mat.tile_mm;
    double one[3] = {1, 1, 1};
    for (int k = 0; k < s->truth->tile_count; k++) {
        const scene_tile *t = &s->tiles[order[k]];
        vision_point c[4];
        square_corners(t->x, t->y, tile, t->angle_deg, c);
        draw_box_sides(s, c, 4, 0, TILE_THICKNESS_MM, s->box.tile_edge, t->x, t->y);
        /* The art's top-left corner: the tile's corner after the quarter turns. */
        vision_point art[4];
        square_corners(t->x, t->y, tile, t->angle_deg + 90.0 * t->quarter_turns, art);
        vec3 top[4];
        for (int i = 0; i < 4; i++)
            top[i] = v3(art[i].x, art[i].y, TILE_THICKNESS_MM);
        vision_status status =
            warp_onto(s, &s->art[s->truth->tiles[order[k]].type], NULL, top, one, &s->tile_cover);
        if (status != VISION_OK)
            return status;
    }
    return VISION_OK;
}

static vision_status draw_tokens(scene *s, const int *order)
{
    double one[3] = {1, 1, 1};
    for (int k = 0; k < s->truth->tile_count; k++) {
        const scene_tile *t = &s->tiles[order[k]];
        if (t->token == EL_NO_TOKEN)
            continue;
        vec3 points[4 * CIRCLE_SEGMENTS + 8];
        int count;
        token_points(s, t, points, &count);
        double h0 = TILE_THICKNESS_MM, h1 = h0 + s->box.token_thickness_mm;
        vision_point bottom[CIRCLE_SEGMENTS];
        int sides = count / 2;
        for (int i = 0; i < sides; i++)
            bottom[i] = (vision_point){points[i].x, points[i].y};
        draw_box_sides(s, bottom, sides, h0, h1, s->box.token_edge, t->token_x, t->token_y);
        vision_point c[4];
        square_corners(t->token_x, t->token_y, s->box.token_mm, t->token_angle_deg, c);
        vec3 top[4];
        for (int i = 0; i < 4; i++)
            top[i] = v3(c[i].x, c[i].y, h1);
        vision_status status =
            warp_onto(s, &s->token_art[t->token], &s->token_alpha, top, one, NULL);
        if (status != VISION_OK)
            return status;
    }
    return VISION_OK;
}

/* One adventurer: a shaded cylinder from h0 to h1, its top drawn when it is the stack's top. */
static void draw_piece(scene *s, double x, double y, double h0, double h1, const double paint[3],
                       bool top)
{
    double r = s->box.piece_diameter_mm / 2;
    vec3 points[2 * CIRCLE_SEGMENTS];
    circle_points(x, y, r, h0, h1, points);
    double side_light = lit(s, unit3(v3(s->light.x, s->light.y, 0))) * 0.5 +
                        lit(s, unit3(v3(-s->light.x, -s->light.y, 0))) * 0.5;
    double mid[3];
    for (int c = 0; c < 3; c++)
        mid[c] = fmin(255, paint[c] * side_light);
    fill_hull(s, points, 2 * CIRCLE_SEGMENTS, NULL, mid, 1);
    for (int i = 0; i < CIRCLE_SEGMENTS; i++) {
        int j = (i + 1) % CIRCLE_SEGMENTS;
        double a = 2 * PI * (i + 0.5) / CIRCLE_SEGMENTS;
        vec3 normal = v3(cos(a), sin(a), 0);
        vec3 at = v3(x + r * cos(a), y + r * sin(a), (h0 + h1) / 2);
        vec3 view = sub3(s->cam.centre, at);
        if (dot3(normal, view) <= 0)
            continue;
        vec3 half = unit3(add3(unit3(view), s->light));
        double spec = dot3(normal, half);
        spec = spec > 0 ? s->box.piece_gloss * pow(spec, 12) : 0;
        double light = lit(s, normal), colour[3];
        for (int c = 0; c < 3; c++)
            colour[c] = fmin(255, paint[c] * light + 255 * spec);
        vec3 face[4] = {points[i], points[j], points[CIRCLE_SEGMENTS + j],
                        points[CIRCLE_SEGMENTS + i]};
        fill_polygon(s, face, 4, colour, 1);
    }
    if (!top)
        return;
    double colour[3], rim[3];
    double light = lit(s, v3(0, 0, 1));
    for (int c = 0; c < 3; c++) {
        colour[c] = fmin(255, paint[c] * light * 1.04 + 4);
        rim[c] = fmin(255, paint[c] * light * 0.92);
    }
    fill_polygon(s, points + CIRCLE_SEGMENTS, CIRCLE_SEGMENTS, rim, 1);
    vec3 inner[2 * CIRCLE_SEGMENTS]; /* circle_points gives a ring at each height */
    circle_points(x, y, r * 0.86, h1, h1, inner);
    fill_polygon(s, inner, CIRCLE_SEGMENTS, colour, 1);
}

/* The thin dark line where two adventurers meet, on the side facing the camera. */
static void draw_seam(scene *s, double x, double y, double h, const double paint[3])
{
    double r = s->box.piece_diameter_mm / 2 + 0.05, w = 0.35;
    double colour[3];
    for (int c = 0; c < 3; c++)
        colour[c] = paint[c] * 0.35;
    for (int i = 0; i < CIRCLE_SEGMENTS; i++) {
        double a0 = 2 * PI * i / CIRCLE_SEGMENTS, a1 = 2 * PI * (i + 1) / CIRCLE_SEGMENTS;
        double am = (a0 + a1) / 2;
        vec3 normal = v3(cos(am), sin(am), 0);
        if (dot3(normal, sub3(s->cam.centre, v3(x + r * cos(am), y + r * sin(am), h))) <= 0)
            continue;
        vec3 band[4] = {v3(x + r * cos(a0), y + r * sin(a0), h - w),
                        v3(x + r * cos(a1), y + r * sin(a1), h - w),
                        v3(x + r * cos(a1), y + r * sin(a1), h + w),
                        v3(x + r * cos(a0), y + r * sin(a0), h + w)};
        fill_polygon(s, band, 4, colour, 0.7);
    }
}

/* The indices 0..count-1 ordered far to near by depth (an insertion sort, stable). */
static void order_by_depth(const double *depth, int *order, int count)
{
    for (int i = 0; i < count; i++)
        order[i] = i;
    for (int i = 1; i < count; i++) {
        int value = order[i], j = i - 1;
        while (j >= 0 && depth[order[j]] < depth[value]) {
            order[j + 1] = order[j];
            j--;
        }
        order[j + 1] = value;
    }
}

static void draw_stacks(scene *s)
{
    int order[VISION_EL_TILES_MAX];
    double depth[VISION_EL_TILES_MAX] = {0};
    for (int i = 0; i < s->truth->tile_count; i++)
        depth[i] = depth_of(&s->cam, v3(s->tiles[i].stack_x, s->tiles[i].stack_y, 0));
    order_by_depth(depth, order, s->truth->tile_count);
    for (int k = 0; k < s->truth->tile_count; k++) {
        const scene_tile *t = &s->tiles[order[k]];
        double h = s->box.piece_height_mm;
        for (int p = 0; p < t->height; p++)
            draw_piece(s, t->stack_x, t->stack_y, t->stack_base + p * h,
                       t->stack_base + (p + 1) * h, s->paint[t->colours[p]], p == t->height - 1);
        for (int p = 1; p < t->height; p++)
            draw_seam(s, t->stack_x, t->stack_y, t->stack_base + p * h,
                      s->paint[t->colours[p - 1]]);
    }
}

/* A soft specular spot where the light mirrors in the table towards the camera, kept on the mat. */
static void draw_glare(scene *s)
{
    if (s->glare <= 0)
        return;
    render_rng rng;
    render_rng_seed(&rng, s->config->scene_seed, STREAM_EFFECTS + 100);
    const vision_mat *mat = &s->config->mat;
    double x = s->cam.centre.x + s->cam.centre.h * s->light.x / s->light.h;
    double y = s->cam.centre.y + s->cam.centre.h * s->light.y / s->light.h;
    x = fmin(fmax(x, 0), mat->width_mm) + render_rng_uniform(&rng, -30, 30);
    y = fmin(fmax(y, 0), mat->height_mm) + render_rng_uniform(&rng, -30, 30);
    double sigma = render_rng_uniform(&rng, 35, 80), strength = 0.85 * s->glare;
    double to_image[9], to_table[9];
    plane_homography(&s->cam, true, 0, to_image);
    if (!mat3_invert(to_image, to_table))
        return;
    double x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
    for (int i = 0; i < 16; i++) {
        double a = 2 * PI * i / 16;
        vision_point p;
        if (!project(&s->cam, v3(x + 3.2 * sigma * cos(a), y + 3.2 * sigma * sin(a), 0), &p))
            continue;
        x0 = fmin(x0, p.x);
        y0 = fmin(y0, p.y);
        x1 = fmax(x1, p.x);
        y1 = fmax(y1, p.y);
    }
    int left = (int)fmax(0, x0), top = (int)fmax(0, y0);
    int right = (int)fmin(s->canvas.width - 1, x1), bottom = (int)fmin(s->canvas.height - 1, y1);
    for (int py = top; py <= bottom; py++) {
        uint8_t *row = s->canvas.pixels + (size_t)py * (size_t)s->canvas.stride;
        for (int px = left; px <= right; px++) {
            vision_point t = apply_homography(to_table, px, py);
            double d2 = ((t.x - x) * (t.x - x) + (t.y - y) * (t.y - y)) / (2 * sigma * sigma);
            if (d2 > 5)
                continue;
            double w = strength * exp(-d2);
            for (int c = 0; c < 3; c++)
                row[px * 3 + c] = (uint8_t)(row[px * 3 + c] + (252 - row[px * 3 + c]) * w + 0.5);
        }
    }
}

/* ---- a passing shadow ---- */

#define SHADOW_POINTS 48

/* The shadow's ellipse on the table, blurred by a fifth of its width (a wide, soft penumbra:
 * the body casting it is far above the table), darkening everything drawn so far. */
static vision_status draw_passing_shadow(scene *s)
{
    const vision_render_shadow *w = &s->config->shadow;
    if (w->length_mm <= 0)
        return VISION_OK;
    vec3 points[SHADOW_POINTS];
    double a = w->angle_deg * DEG;
    for (int k = 0; k < SHADOW_POINTS; k++) {
        double t = 2 * PI * k / SHADOW_POINTS;
        double u = 0.5 * w->length_mm * cos(t), v = 0.5 * w->width_mm * sin(t);
        points[k] = v3(w->x_mm + u * cos(a) - v * sin(a), w->y_mm + u * sin(a) + v * cos(a), 0);
    }
    if (!fill_hull(s, points, SHADOW_POINTS, &s->shadow, NULL, 0))
        return VISION_OK; /* behind the camera: nothing drawn */
    return apply_shadow(s, w->width_mm / 5, w->darkness, NULL);
}

/* ---- hands ---- */

static void skin_tone(render_rng *rng, double bgr[3])
{
    double depth = render_rng_uniform(rng, 0, 1); /* from fair to dark */
    double value = 0.93 - 0.62 * depth, saturation = 0.25 + 0.3 * depth;
    render_hsv(render_rng_uniform(rng, 14, 28), saturation, value, bgr);
}

/* Where a placed hand's middle fingertip is at its reach: on the straight line from the
 * target to VISION_HAND_WITHDRAWN_MM beyond the mat's edge towards the arm's side (back),
 * VISION_HAND_LIFT_MM higher there. */
static vec3 placed_tip(const scene *s, const vision_render_hand *placement, vec3 back)
{
    const vision_mat *mat = &s->config->mat;
    vec3 target = v3(placement->tip_x_mm, placement->tip_y_mm, placement->tip_height_mm);
    double to_edge = INFINITY;
    if (back.x > 1e-9)
        to_edge = fmin(to_edge, (mat->width_mm - target.x) / back.x);
    if (back.x < -1e-9)
        to_edge = fmin(to_edge, -target.x / back.x);
    if (back.y > 1e-9)
        to_edge = fmin(to_edge, (mat->height_mm - target.y) / back.y);
    if (back.y < -1e-9)
        to_edge = fmin(to_edge, -target.y / back.y);
    double away = (1 - placement->reach) * (fmax(0, to_edge) + VISION_HAND_WITHDRAWN_MM);
    vec3 tip = add3(target, mul3(back, away));
    tip.h += (1 - placement->reach) * VISION_HAND_LIFT_MM;
    return tip;
}

static void build_hand(scene *s, render_rng *rng, int index, hand *out)
{
    const vision_mat *mat = &s->config->mat;
    const vision_render_hand *placement = s->config->hand[index].placed ? &s->config->hand[index]
                                                                        : NULL;
    double target_x = mat->width_mm / 2, target_y = mat->height_mm / 2;
    if (s->truth->tile_count > 0) {
        const scene_tile *t = &s->tiles[render_rng_int(rng, 0, s->truth->tile_count - 1)];
        target_x = t->x;
        target_y = t->y;
    }
    target_x += render_rng_uniform(rng, -12, 12);
    target_y += render_rng_uniform(rng, -12, 12);
    double height = render_rng_uniform(rng, 60, 150), scale = render_rng_uniform(rng, 0.9, 1.1);
    double spread = index == 0 ? render_rng_uniform(rng, -40, -8) : render_rng_uniform(rng, 8, 40);
    if (s->hands == 1 && render_rng_uniform(rng, 0, 1) < 0.5)
        spread = -spread;
    /* the arm comes from the camera's side, or from the side the caller gives */
    double a = placement ? placement->from_deg * DEG : s->azimuth * DEG + spread * DEG;
    vec3 back = v3(sin(a), cos(a), 0);
    vec3 forward = mul3(back, -1), side = v3(-forward.y, forward.x, 0);
    int right_handed = spread < 0 ? 1 : -1; /* the thumb towards the middle */
    double skin[3], sleeve[3];
    skin_tone(rng, skin);
    double sleeve_hue = render_rng_uniform(rng, 0, 360);
    double sleeve_saturation = render_rng_uniform(rng, 0.1, 0.7);
    render_hsv(sleeve_hue, sleeve_saturation, render_rng_uniform(rng, 0.15, 0.8), sleeve);

    vec3 palm_centre = add3(v3(target_x, target_y, height), mul3(forward, -55 * scale));
    out->part_count = 0;
    /* fingers: index to little, fanning out */
    static const double offsets[4] = {27, 9, -9, -26}, lengths[4] = {72, 80, 75, 60};
    static const double fan[4] = {-9, -3, 3, 10};
    for (int f = 0; f < 4; f++) {
        double off = offsets[f] * right_handed * scale;
        vec3 base = add3(add3(palm_centre, mul3(forward, 40 * scale)), mul3(side, off));
        double fa = fan[f] * right_handed * DEG;
        vec3 dir = add3(mul3(forward, cos(fa)), mul3(side, sin(fa)));
        vec3 tip = add3(base, mul3(dir, lengths[f] * scale));
        tip.h -= render_rng_uniform(rng, 8, 22);
        capsule *part = &out->parts[out->part_count++];
        *part = (capsule){base, tip, 9.5 * scale, 7.8 * scale, {0, 0, 0}, 0.9};
        memcpy(part->colour, skin, sizeof skin);
    }
    {
        vec3 base = add3(add3(palm_centre, mul3(side, -36 * right_handed * scale)),
                         mul3(forward, -15 * scale));
        vec3 tip =
            add3(add3(base, mul3(forward, 45 * scale)), mul3(side, -22 * right_handed * scale));
        tip.h -= 15;
        capsule *part = &out->parts[out->part_count++];
        *part = (capsule){base, tip, 11.5 * scale, 9 * scale, {0, 0, 0}, 0.9};
        memcpy(part->colour, skin, sizeof skin);
    }
    /* the palm's back: a rounded rectangle */
    for (int i = 0; i < 16; i++) {
        double t = 2 * PI * i / 16, c = cos(t), sn = sin(t);
        double e = 0.5;
        double u = copysign(pow(fabs(c), e), c), v = copysign(pow(fabs(sn), e), sn);
        out->palm[i] =
            add3(add3(palm_centre, mul3(forward, u * 48 * scale)), mul3(side, v * 41 * scale));
        out->palm[i].h = height + 6;
    }
    memcpy(out->palm_colour, skin, sizeof skin);
    /* the forearm, then the upper arm in its sleeve */
    vec3 wrist = add3(palm_centre, mul3(forward, -52 * scale));
    wrist.h = height + 8;
    vec3 elbow = add3(wrist, mul3(back, 250 * scale));
    elbow.h = height + 70;
    vec3 shoulder = add3(elbow, mul3(back, 300 * scale));
    shoulder.h = height + 160;
    vec3 cuff = add3(wrist, mul3(back, 150 * scale));
    cuff.h = wrist.h + (elbow.h - wrist.h) * 0.6;
    bool long_sleeve = render_rng_uniform(rng, 0, 1) < 0.6;
    capsule *part = &out->parts[out->part_count++];
    *part = (capsule){wrist, long_sleeve ? cuff : elbow, 27 * scale, 33 * scale, {0, 0, 0}, 0};
    memcpy(part->colour, skin, sizeof skin);
    if (long_sleeve) {
        part = &out->parts[out->part_count++];
        *part = (capsule){cuff, elbow, 38 * scale, 42 * scale, {0, 0, 0}, 0};
        memcpy(part->colour, sleeve, sizeof sleeve);
    }
    part = &out->parts[out->part_count++];
    *part = (capsule){elbow, shoulder, 44 * scale, 52 * scale, {0, 0, 0}, 0};
    memcpy(part->colour, sleeve, sizeof sleeve);
    if (placement) {
        /* the whole hand moved so that the middle finger's tip (parts[1]) is where asked */
        vec3 shift = sub3(placed_tip(s, placement, back), out->parts[1].b);
        for (int p = 0; p < out->part_count; p++) {
            out->parts[p].a = add3(out->parts[p].a, shift);
            out->parts[p].b = add3(out->parts[p].b, shift);
        }
        for (int k = 0; k < 16; k++)
            out->palm[k] = add3(out->palm[k], shift);
        shoulder = add3(shoulder, shift);
    }
    /* Make sure the arm leaves the frame: lengthen it while its end is in view. */
    for (int i = 0; i < 20; i++) {
        vision_point p;
        if (!project(&s->cam, shoulder, &p) || p.x < -200 || p.y < -200 ||
            p.x > s->canvas.width + 200 || p.y > s->canvas.height + 200)
            break;
        vec3 further = add3(shoulder, mul3(back, 120));
        further.h += 40;
        vision_point q;
        if (!project(&s->cam, further, &q))
            break;
        shoulder = further;
        out->parts[out->part_count - 1].b = shoulder;
    }
}

/* A capsule's outline in the canvas: the hull of its two end spheres' circles. */
static int capsule_outline(const scene *s, const capsule *c, double grow, vision_point *out)
{
    int n = 0;
    vec3 ends[2] = {c->a, c->b};
    double radii[2] = {c->ra + grow, c->rb + grow};
    for (int e = 0; e < 2; e++) {
        vision_point centre;
        if (!project(&s->cam, ends[e], &centre))
            return 0;
        double r = s->cam.focal * radii[e] / depth_of(&s->cam, ends[e]);
        for (int i = 0; i < 20; i++) {
            double a = 2 * PI * i / 20;
            out[n++] = (vision_point){centre.x + r * cos(a), centre.y + r * sin(a)};
        }
    }
    return render_convex_hull(out, n);
}

static void draw_capsule(scene *s, const capsule *c)
{
    vision_point outline[48];
    int n;
    double base[3], light[3], rim[3];
    double top = lit(s, v3(0, 0, 1));
    for (int k = 0; k < 3; k++) {
        base[k] = fmin(255, c->colour[k] * top * 0.82);
        light[k] = fmin(255, c->colour[k] * top * 1.02);
        rim[k] = c->colour[k] * 0.5;
    }
    if (c->outline > 0 && (n = capsule_outline(s, c, c->outline, outline)) > 2)
        render_raster_blend(&s->canvas, outline, n, rim, 0.9);
    if ((n = capsule_outline(s, c, 0, outline)) > 2) {
        render_raster_blend(&s->canvas, outline, n, base, 1);
        render_raster_mask(&s->hand_mask, outline, n, 255);
    }
    /* a highlight towards the light, for roundness */
    capsule inner = *c;
    vec3 shift = v3(s->light.x, s->light.y, 0);
    inner.a = add3(c->a, mul3(shift, c->ra * 0.3));
    inner.b = add3(c->b, mul3(shift, c->rb * 0.3));
    inner.a.h += c->ra * 0.5;
    inner.b.h += c->rb * 0.5;
    inner.ra *= 0.55;
    inner.rb *= 0.55;
    if ((n = capsule_outline(s, &inner, 0, outline)) > 2)
        render_raster_blend(&s->canvas, outline, n, light, 0.6);
}

/* Whether a hand or its arm comes over a marker's paper in the image. */
static bool hand_hides_marker(const scene *s, const hand *h)
{
    const vision_mat *mat = &s->config->mat;
    for (int id = 0; id < 4; id++) {
        double x = (id == 1 || id == 2) ? mat->width_mm : 0, y = id >= 2 ? mat->height_mm : 0;
        vision_point centre, edge;
        if (!project(&s->cam, v3(x, y, 0), &centre) ||
            !project(&s->cam, v3(x + s->paper_mm * SQRT_HALF, y + s->paper_mm * SQRT_HALF, 0),
                     &edge))
            continue;
        double paper = hypot(edge.x - centre.x, edge.y - centre.y);
        for (int p = 0; p < h->part_count; p++) {
            const capsule *c = &h->parts[p];
            vision_point a, b;
            if (!project(&s->cam, c->a, &a) || !project(&s->cam, c->b, &b))
                continue;
            double ra = s->cam.focal * c->ra / depth_of(&s->cam, c->a);
            double rb = s->cam.focal * c->rb / depth_of(&s->cam, c->b);
            double dx = b.x - a.x, dy = b.y - a.y, length2 = dx * dx + dy * dy;
            double t = length2 > 0 ? ((centre.x - a.x) * dx + (centre.y - a.y) * dy) / length2 : 0;
            t = t < 0 ? 0 : t > 1 ? 1 : t;
            double near_x = a.x + t * dx, near_y = a.y + t * dy;
            if (hypot(centre.x - near_x, centre.y - near_y) < paper + ra + (rb - ra) * t)
                return true;
        }
    }
    return false;
}

static vision_status draw_hands(scene *s)
{
    if (s->hands <= 0)
        return VISION_OK;
    render_rng rng;
    render_rng_seed(&rng, s->config->scene_seed, STREAM_HANDS);
    /* A hand reaches for a tile; it is drawn again (up to a few times) while its arm would hide
     * a marker, so that a frame with hands still registers when it can. */
    for (int i = 0; i < s->hands && i < 2; i++)
        for (int attempt = 0; attempt < 12; attempt++) {
            build_hand(s, &rng, i, &s->hand_shapes[i]);
            /* a placed hand stays the one hand wherever it reaches, markers hidden or not */
            if (s->config->hand[i].placed || !hand_hides_marker(s, &s->hand_shapes[i]))
                break;
        }
    /* their soft shadows first, on whatever lies below */
    for (int i = 0; i < s->hands && i < 2; i++) {
        const hand *h = &s->hand_shapes[i];
        for (int p = 0; p < h->part_count; p++) {
            const capsule *c = &h->parts[p];
            vec3 points[2 * CIRCLE_SEGMENTS];
            for (int e = 0; e < 2; e++) {
                vec3 end = e ? c->b : c->a;
                double r = e ? c->rb : c->ra;
                for (int k = 0; k < CIRCLE_SEGMENTS; k++) {
                    double a = 2 * PI * k / CIRCLE_SEGMENTS;
                    points[e * CIRCLE_SEGMENTS + k] =
                        v3(end.x + r * cos(a), end.y + r * sin(a), end.h);
                }
            }
            cast(s, points, 2 * CIRCLE_SEGMENTS, 0);
        }
        cast(s, h->palm, 16, 0);
    }
    double darkness = 0.75 * (1 - s->normaliser * s->ambient);
    vision_status status = apply_shadow(s, 9, darkness, NULL);
    if (status != VISION_OK)
        return status;
    for (int i = 0; i < s->hands && i < 2; i++) {
        const hand *h = &s->hand_shapes[i];
        for (int p = 0; p < h->part_count; p++)
            if (h->parts[p].outline > 0)
                draw_capsule(s, &h->parts[p]);
        double colour[3], top = lit(s, v3(0, 0, 1));
        for (int k = 0; k < 3; k++)
            colour[k] = fmin(255, h->palm_colour[k] * top * 0.9);
        vision_point pixels[16];
        bool visible = true;
        for (int k = 0; k < 16; k++)
            visible = visible && project(&s->cam, h->palm[k], &pixels[k]);
        if (visible) {
            render_raster_blend(&s->canvas, pixels, 16, colour, 1);
            render_raster_mask(&s->hand_mask, pixels, 16, 255);
        }
        for (int p = 0; p < h->part_count; p++)
            if (h->parts[p].outline == 0)
                draw_capsule(s, &h->parts[p]);
    }
    return VISION_OK;
}

/* The share of each tile's top under a hand in the image. */
static vision_status measure_hand_cover(scene *s, vision_render_info *info)
{
    double tile = s->config->mat.tile_mm;
    for (int i = 0; i < s->truth->tile_count; i++) {
        info->tiles[i].hand_cover = 0;
        if (s->hands <= 0)
            continue;
        const scene_tile *t = &s->tiles[i];
        vision_point c[4], q[4];
        square_corners(t->x, t->y, tile, t->angle_deg, c);
        bool visible = true;
        for (int k = 0; k < 4; k++)
            visible = visible && project(&s->cam, v3(c[k].x, c[k].y, TILE_THICKNESS_MM), &q[k]);
        if (!visible)
            continue;
        int left = (int)floor(fmin(fmin(q[0].x, q[1].x), fmin(q[2].x, q[3].x))) - 1;
        int top = (int)floor(fmin(fmin(q[0].y, q[1].y), fmin(q[2].y, q[3].y))) - 1;
        int right = (int)ceil(fmax(fmax(q[0].x, q[1].x), fmax(q[2].x, q[3].x))) + 1;
        int bottom = (int)ceil(fmax(fmax(q[0].y, q[1].y), fmax(q[2].y, q[3].y))) + 1;
        int width = right - left + 1, height = bottom - top + 1;
        uint8_t *coverage = malloc((size_t)width * (size_t)height);
        if (!coverage)
            return VISION_NOMEM;
        render_raster_coverage(coverage, left, top, width, height, q, 4);
        double total = 0, covered = 0;
        for (int y = 0; y < height; y++)
            for (int x = 0; x < width; x++) {
                double w = coverage[y * width + x];
                int px = left + x, py = top + y;
                total += w;
                if (w > 0 && px >= 0 && py >= 0 && px < s->hand_mask.width &&
                    py < s->hand_mask.height)
                    covered += w * s->hand_mask.pixels[py * s->hand_mask.stride + px] / 255.0;
            }
        free(coverage);
        info->tiles[i].hand_cover = total > 0 ? covered / total : 0;
    }
    return VISION_OK;
}

/* ---- the lens and the sensor ---- */

/* The light's colour, the exposure and the lens's vignetting as one gain per pixel and channel:
 * gain[c] * (1 - vignette * r^2), r from the frame's centre to its corner. */
typedef struct light_gain {
    float gain[3], vignette, cx, cy, corner2;
} light_gain;

static void light_gains(double kelvin, double gains[3]);

static light_gain light_gain_of(const scene *s)
{
    double gains[3];
    light_gains(s->kelvin, gains);
    light_gain g;
    for (int c = 0; c < 3; c++)
        g.gain[c] = (float)(gains[c] * s->exposure);
    g.vignette = (float)s->box.vignette;
    g.cx = (float)s->cam.cx;
    g.cy = (float)s->cam.cy;
    g.corner2 = (float)(s->cam.cx * s->cam.cx + s->cam.cy * s->cam.cy);
    return g;
}

/* A row's gains in 8.8 fixed point. */
static void row_gains(const light_gain *g, int y, int width, int32_t *gains)
{
    float dy2 = ((float)y - g->cy) * ((float)y - g->cy);
    for (int x = 0; x < width; x++) {
        float dx = (float)x - g->cx, factor = 1 - g->vignette * (dx * dx + dy2) / g->corner2;
        for (int c = 0; c < 3; c++)
            gains[x * 3 + c] = (int32_t)(factor * g->gain[c] * 256 + 0.5f);
    }
}

/* The frame as the sensor gets it: each pixel samples the undistorted canvas where k1's model
 * puts it (exactly every SPAN pixels, linearly in between, 16.16 fixed point), bilinearly, times
 * the light's gain. Without distortion the canvas becomes the frame. */
static vision_status expose(scene *s, vision_image *frame)
{
    camera *cam = &s->cam;
    light_gain g = light_gain_of(s);
    int32_t *gains = malloc(sizeof *gains * 3 * (size_t)cam->width);
    if (!gains)
        return VISION_NOMEM;
    bool straight = cam->k1 == 0 && cam->ox == 0 && cam->oy == 0 && s->canvas.width == cam->width &&
                    s->canvas.height == cam->height;
    vision_status status = VISION_OK;
    if (straight) {
        *frame = s->canvas;
        memset(&s->canvas, 0, sizeof s->canvas);
    } else {
        status = vision_image_new(cam->width, cam->height, 3, frame);
    }
    enum { SPAN = 16 };
    const vision_image *canvas = &s->canvas;
    int max_x = canvas->width - 2, max_y = canvas->height - 2;
    for (int y = 0; status == VISION_OK && y < frame->height; y++) {
        uint8_t *row = frame->pixels + (size_t)y * (size_t)frame->stride;
        row_gains(&g, y, frame->width, gains);
        if (straight) {
            for (int x = 0; x < frame->width * 3; x++) {
                int32_t v = (row[x] * gains[x] + 128) >> 8;
                row[x] = (uint8_t)(v > 255 ? 255 : v);
            }
            continue;
        }
        for (int x0 = 0; x0 < frame->width; x0 += SPAN) {
            int x1 = x0 + SPAN < frame->width ? x0 + SPAN : frame->width - 1;
            vision_point a = undistort_pixel(cam, (vision_point){x0, y});
            vision_point b = undistort_pixel(cam, (vision_point){x1, y});
            int64_t u = (int64_t)llround((a.x + cam->ox) * 65536);
            int64_t v = (int64_t)llround((a.y + cam->oy) * 65536);
            int64_t du = x1 > x0 ? (int64_t)llround((b.x - a.x) * 65536 / (x1 - x0)) : 0;
            int64_t dv = x1 > x0 ? (int64_t)llround((b.y - a.y) * 65536 / (x1 - x0)) : 0;
            int end = x1 > x0 && x1 < frame->width - 1 ? x1 : x1 + 1;
            for (int x = x0; x < end; x++, u += du, v += dv) {
                int ix = (int)(u >> 16), iy = (int)(v >> 16);
                int wx = (int)((u >> 8) & 255), wy = (int)((v >> 8) & 255);
                if (ix < 0 || ix > max_x) {
                    wx = ix < 0 ? 0 : 255;
                    ix = ix < 0 ? 0 : max_x;
                }
                if (iy < 0 || iy > max_y) {
                    wy = iy < 0 ? 0 : 255;
                    iy = iy < 0 ? 0 : max_y;
                }
                const uint8_t *p = canvas->pixels + (size_t)iy * (size_t)canvas->stride + ix * 3;
                const uint8_t *q = p + canvas->stride;
                const int32_t *gain = gains + x * 3;
                for (int c = 0; c < 3; c++) {
                    int top = p[c] * (256 - wx) + p[3 + c] * wx;
                    int bottom = q[c] * (256 - wx) + q[3 + c] * wx;
                    int32_t value = (top * (256 - wy) + bottom * wy + 32768) >> 16;
                    value = (value * gain[c] + 128) >> 8;
                    row[x * 3 + c] = (uint8_t)(value > 255 ? 255 : value);
                }
            }
        }
    }
    free(gains);
    return status;
}

/* Sensor noise: Gaussian, sigma grey levels, independent per pixel and channel. Draws come from
 * a table of 65536 normal values (Box-Muller) indexed by the generator, 16 bits a draw. */
static vision_status add_noise(vision_image *frame, double sigma, render_rng *rng)
{
    enum { TABLE = 1 << 16 };
    int16_t *table = malloc(sizeof *table * TABLE);
    if (!table)
        return VISION_NOMEM;
    for (int i = 0; i < TABLE; i += 2) {
        double u = render_rng_uniform(rng, 0x1.0p-53, 1.0), v = render_rng_uniform(rng, 0, 1);
        double radius = sqrt(-2.0 * log(u)) * sigma * 16; /* fixed point: 4 bits */
        table[i] = (int16_t)fmax(-32767, fmin(32767, lrint(radius * cos(2 * PI * v))));
        table[i + 1] = (int16_t)fmax(-32767, fmin(32767, lrint(radius * sin(2 * PI * v))));
    }
    uint64_t bits = 0;
    int left = 0;
    for (int y = 0; y < frame->height; y++) {
        uint8_t *row = frame->pixels + (size_t)y * (size_t)frame->stride;
        for (int x = 0; x < frame->width * frame->channels; x++) {
            if (left == 0) {
                bits = render_rng_next(rng);
                left = 4;
            }
            int value = row[x] * 16 + table[bits & 0xffff] + 8;
            bits >>= 16;
            left--;
            row[x] = (uint8_t)(value < 0 ? 0 : value >= 256 * 16 ? 255 : value >> 4);
        }
    }
    free(table);
    return VISION_OK;
}

/* The light's colour as the camera keeps it: a blackbody's tint, half corrected by the camera's
 * white balance. */
static void light_gains(double kelvin, double gains[3])
{
    static const double table[][4] = {
        /* kelvin, red, green, blue (sRGB of a blackbody, 255 = 1) */
        {2700, 1.0, 0.663, 0.341}, {3000, 1.0, 0.706, 0.420}, {3500, 1.0, 0.769, 0.537},
        {4000, 1.0, 0.820, 0.639}, {4500, 1.0, 0.859, 0.729}, {5000, 1.0, 0.894, 0.808},
        {5500, 1.0, 0.925, 0.878}, {6000, 1.0, 0.953, 0.937}, {6500, 1.0, 0.976, 0.992},
    };
    int n = (int)(sizeof table / sizeof table[0]), i = 0;
    while (i < n - 2 && kelvin > table[i + 1][0])
        i++;
    double t = (kelvin - table[i][0]) / (table[i + 1][0] - table[i][0]);
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    double rgb[3];
    for (int c = 0; c < 3; c++)
        rgb[c] = table[i][c + 1] + (table[i + 1][c + 1] - table[i][c + 1]) * t;
    double mean = (rgb[0] + rgb[1] + rgb[2]) / 3;
    gains[2] = 1 + 0.5 * (rgb[0] / mean - 1); /* BGR order */
    gains[1] = 1 + 0.5 * (rgb[1] / mean - 1);
    gains[0] = 1 + 0.5 * (rgb[2] / mean - 1);
}

/* ---- the whole ---- */

static void fill_info(scene *s, vision_render_info *info)
{
    memset(info, 0, sizeof *info);
    vision_registration *r = &info->camera;
    r->missing_marker = -1; /* the renderer knows all four */
    projection_matrix(&s->cam, false, r->projection);
    plane_homography(&s->cam, false, 0, r->table_to_image);
    mat3_invert(r->table_to_image, r->image_to_table);
    double scale = r->image_to_table[8];
    for (int i = 0; i < 9 && scale != 0; i++)
        r->image_to_table[i] /= scale;
    r->camera_mm[0] = s->cam.centre.x;
    r->camera_mm[1] = s->cam.centre.y;
    r->camera_mm[2] = s->cam.centre.h;
    r->focal_px = s->cam.focal;
    const vision_mat *mat = &s->config->mat;
    double half = mat->marker_mm / 2;
    for (int id = 0; id < 4; id++) {
        double x = (id == 1 || id == 2) ? mat->width_mm : 0, y = id >= 2 ? mat->height_mm : 0;
        double corners[4][2] = {
            {x - half, y - half}, {x + half, y - half}, {x + half, y + half}, {x - half, y + half}};
        /* as seen in the frame, the lens included (as vision_register gives them) */
        for (int k = 0; k < 4; k++)
            r->markers[id][k] = distort_pixel(
                &s->cam, apply_homography(r->table_to_image, corners[k][0], corners[k][1]));
    }
    /* The true lens: vision_project and vision_unproject then speak the frame's own pixels. */
    r->focal_source = VISION_FOCAL_CALIBRATED;
    r->intrinsics.known = 1;
    r->intrinsics.width = s->cam.width;
    r->intrinsics.height = s->cam.height;
    r->intrinsics.fx = r->intrinsics.fy = s->cam.focal;
    r->intrinsics.cx = s->cam.cx;
    r->intrinsics.cy = s->cam.cy;
    r->intrinsics.distortion[0] = s->k1;
    r->residual_mm = 0;
    r->image_width = s->cam.width;
    r->image_height = s->cam.height;
    info->distortion_k1 = s->k1;
    info->piece_diameter_mm = s->box.piece_diameter_mm;
    info->piece_height_mm = s->box.piece_height_mm;
    info->shadow_per_mm[0] = s->shadow_dx;
    info->shadow_per_mm[1] = s->shadow_dy;
    info->tile_count = s->truth->tile_count;
    for (int i = 0; i < s->truth->tile_count; i++) {
        const scene_tile *t = &s->tiles[i];
        info->tiles[i].x_mm = t->x;
        info->tiles[i].y_mm = t->y;
        info->tiles[i].angle_deg = t->angle_deg;
        info->tiles[i].stack_x_mm = t->height > 0 ? t->stack_x : t->x;
        info->tiles[i].stack_y_mm = t->height > 0 ? t->stack_y : t->y;
        info->tiles[i].quarter_turns = t->quarter_turns;
    }
}

static void scene_free(scene *s)
{
    render_box_free(&s->box);
    vision_image_free(&s->canvas);
    vision_image_free(&s->shadow);
    vision_image_free(&s->tile_cover);
    vision_image_free(&s->hand_mask);
    for (int i = 0; i < EL_TILE_TYPES; i++)
        vision_image_free(&s->art[i]);
    for (int i = 0; i < EL_TOKEN_TYPES; i++)
        vision_image_free(&s->token_art[i]);
    vision_image_free(&s->token_alpha);
    for (int i = 0; i < 4; i++)
        vision_image_free(&s->paper[i]);
    free(s);
}

/* The box's art at the size it appears in this scene. */
static vision_status size_art(scene *s)
{
    double tile_px = s->config->mat.tile_mm * s->px_per_mm;
    double token_px = s->box.token_mm * s->px_per_mm;
    vision_status status = VISION_OK;
    for (int i = 0; i < EL_TILE_TYPES && status == VISION_OK; i++)
        status = texture_at(&s->box.tile_art[i], tile_px, &s->art[i]);
    for (int i = EL_BOAT; i <= EL_SNAKES && status == VISION_OK; i++)
        status = texture_at(&s->box.token_art[i], token_px, &s->token_art[i]);
    if (status == VISION_OK)
        status = texture_at(&s->box.token_alpha, token_px, &s->token_alpha);
    return status;
}

vision_status vision_el_render(const vision_render_config *config,
                               const vision_el_observation *truth, vision_image *frame,
                               vision_render_info *info, char *error, size_t size)
{
    memset(frame, 0, sizeof *frame);
    char ignored[8];
    if (!error) {
        error = ignored;
        size = sizeof ignored;
    }
    if (size)
        error[0] = '\0';
    vision_status status = check_config(config, error, size);
    if (status != VISION_OK)
        return status;
    scene *s = calloc(1, sizeof *s);
    if (!s)
        return vision_fail(error, size, VISION_NOMEM, "out of memory");
    s->config = config;
    s->truth = truth;
    status = check_truth(truth, config->box_seed, s->paint, error, size);
    if (status == VISION_OK) {
        status = render_box_make(config->box_seed, &s->box);
        if (status != VISION_OK)
            vision_fail(error, size, status, "cannot paint the box's art: %s",
                 vision_status_message(status));
    }
    if (status == VISION_OK) {
        resolve(s);
        status = setup_camera(s, error, size);
    }
    if (status == VISION_OK)
        status = place_layout(s, error, size);
    if (status != VISION_OK) {
        scene_free(s);
        return status;
    }
    const camera *cam = &s->cam;
    status = vision_image_new(cam->canvas_width, cam->canvas_height, 3, &s->canvas);
    if (status == VISION_OK)
        status = vision_image_new(cam->canvas_width, cam->canvas_height, 1, &s->shadow);
    if (status == VISION_OK)
        status = vision_image_new(cam->canvas_width, cam->canvas_height, 1, &s->tile_cover);
    if (status == VISION_OK)
        status = vision_image_new(cam->canvas_width, cam->canvas_height, 1, &s->hand_mask);
    shadow_clear(s);
    if (status == VISION_OK)
        status = size_art(s);
    if (status == VISION_OK)
        status = make_papers(s);
    int order[VISION_EL_TILES_MAX];
    double depth[VISION_EL_TILES_MAX] = {0};
    for (int i = 0; i < truth->tile_count; i++)
        depth[i] = s->tiles[i].depth;
    order_by_depth(depth, order, truth->tile_count);
    if (status == VISION_OK)
        status = draw_table(s);
    if (status == VISION_OK)
        status = draw_markers(s);
    if (status == VISION_OK)
        status = draw_shadows(s, 0, true);
    if (status == VISION_OK)
        status = draw_tiles(s, order);
    if (status == VISION_OK)
        status = draw_shadows(s, TILE_THICKNESS_MM, false);
    if (status == VISION_OK)
        status = draw_tokens(s, order);
    if (status == VISION_OK) {
        draw_stacks(s);
        draw_glare(s);
        status = draw_passing_shadow(s);
    }
    if (status == VISION_OK) {
        status = draw_hands(s);
    }
    if (status == VISION_OK)
        status = expose(s, frame);
    if (status == VISION_OK && s->blur > 0.05)
        status = cv_shim_blur(frame, s->blur);
    if (status == VISION_OK && s->noise > 0) {
        render_rng rng;
        render_rng_seed(&rng, config->scene_seed, STREAM_NOISE);
        status = add_noise(frame, s->noise, &rng);
    }
    if (status == VISION_OK && s->jpeg_quality > 0)
        status = cv_shim_jpeg(frame, s->jpeg_quality);
    if (status == VISION_OK && info) {
        fill_info(s, info);
        status = measure_hand_cover(s, info);
    }
    if (status != VISION_OK) {
        vision_image_free(frame);
        if (!error[0])
            vision_fail(error, size, status, "drawing failed: %s", vision_status_message(status));
    }
    scene_free(s);
    return status;
}
