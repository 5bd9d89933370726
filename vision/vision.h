/*
 * vision: images, the table plane, the scene renderer and the recognisers.
 *
 *   vision_image {width, height, stride, channels, pixels}   wraps any buffer without copying
 *
 *   frame ──vision_register──▶ vision_registration      the markers → table plane (mm) ↔ pixels
 *                                   │
 *   truth ──vision_el_render──▶ frame (a camera's view of an observation, for tests and the demo)
 *                                   │
 *   frame + registration ──vision_el_recognise(model)──▶ vision_el_observation
 *   frame + registration + truth ──vision_el_learn──▶ model      (teaching a box)
 *
 *   cv_shim.cpp (codecs, drawing), cv_shim_geometry.cpp (markers, homographies, camera
 *   calibration, warps, FileStorage): every OpenCV call, behind C functions that return a status
 *   and never let an exception through (a port to OpenCV 4.7+, where aruco changed, touches
 *   only them).
 */
#ifndef TS_VISION_H
#define TS_VISION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "expedition_luxor.h" /* the tile and token types (rules: types only) */

#ifdef __cplusplus
extern "C" { /* for the shim, the one C++ file that includes this header */
#endif

#define VISION_STATUS_TABLE(X)                           \
    X(VISION_OK, "ok")                                   \
    X(VISION_BAD_INPUT, "bad input")                     \
    X(VISION_NOT_FOUND, "no such file")                  \
    X(VISION_UNREADABLE, "not an image this build reads") \
    X(VISION_IO, "input/output error")                   \
    X(VISION_NOMEM, "out of memory")                     \
    X(VISION_NO_MARKERS, "no table markers in view")     \
    X(VISION_MARKER_MISSING, "a table marker is missing") \
    X(VISION_MARKER_MOVED, "a table marker is not where the mat puts it") \
    X(VISION_NOT_TAUGHT, "the profile was not taught this")

typedef enum {
#define VISION_STATUS_ENUM(name, message) name,
    VISION_STATUS_TABLE(VISION_STATUS_ENUM)
#undef VISION_STATUS_ENUM
} vision_status;

/* The status's short message. Static storage. */
const char *vision_status_message(vision_status status);

/* Writes the formatted message into error (size bytes; nothing when error is NULL or size is 0)
 * and returns status, so that failing is one line: `return vision_fail(error, size, ...);`. */
vision_status vision_fail(char *error, size_t size, vision_status status, const char *format, ...)
    __attribute__((format(printf, 4, 5)));

/* An 8-bit image: 1 channel (grey) or 3 (blue, green, red: OpenCV's order). Pixel (x, y),
 * channel c is pixels[y * stride + x * channels + c]. */
typedef struct vision_image {
    int width, height;
    int stride;   /* bytes from one row to the next, >= width * channels */
    int channels; /* 1 or 3 */
    uint8_t *pixels;
    int owned;    /* non-zero: vision_image_free releases pixels */
} vision_image;

/* A new zeroed image in *image (owned). VISION_BAD_INPUT for sizes below 1 or channels not 1/3. */
vision_status vision_image_new(int width, int height, int channels, vision_image *image);

/* Releases an owned image's pixels and zeroes it. Accepts images that own nothing. */
void vision_image_free(vision_image *image);

/* The monotonic clock in milliseconds (stage timings, pacing): differences only mean anything. */
double vision_clock_ms(void);

/* Reads an image file (PNG, JPEG, ...) as 3 channels into *image (owned). On failure *image is
 * zeroed and error (size bytes) says why, naming the file. */
vision_status vision_image_load(const char *path, vision_image *image, char *error, size_t size);

/* Writes the image; the format follows the extension (.png, .jpg, ...: what OpenCV's codecs write). The
 * file appears whole or not at all. error (size bytes) says why on failure. */
vision_status vision_image_save(const char *path, const vision_image *image, char *error,
                                size_t size);

/* The image encoded in the format of extension (".png", ".jpg", ...: what OpenCV's codecs
 * write) into *data (malloc'd, *size bytes; the caller frees it), for a caller that writes many
 * files its own way (a recording's frames). On failure *data is NULL and error (size bytes) says
 * why. */
vision_status vision_image_encode(const vision_image *image, const char *extension, uint8_t **data,
                                  size_t *length, char *error, size_t size);

/* Draws ArUco marker id of the 4x4_50 dictionary, side pixels square with no margin, into image
 * at (x, y) (grey or colour). VISION_BAD_INPUT when it does not fit or the id is not 0..49. */
vision_status vision_draw_marker(vision_image *image, int id, int x, int y, int side);

/* Draws black text with its baseline's left end at (x, y), letters about height pixels tall. */
vision_status vision_draw_text(vision_image *image, const char *text, int x, int y, int height);

/* Fills a rectangle with a grey level (every channel). */
vision_status vision_fill(vision_image *image, int x, int y, int width, int height,
                          uint8_t value);

/* ---- the table plane (DESIGN.md §3.3) ---- */

typedef struct vision_point {
    double x, y;
} vision_point;

/*
 * The mat: four markers at the corners of the play area (ids 0 top-left, 1 top-right,
 * 2 bottom-right, 3 bottom-left). Table coordinates are millimetres, origin at the centre of
 * marker 0, x towards marker 1, y towards marker 3; heights are millimetres above the table.
 */
typedef struct vision_mat {
    double marker_mm; /* printed side of a marker, its black border included; default 40 */
    double width_mm;  /* from marker 0's centre to marker 1's; default 560 */
    double height_mm; /* from marker 0's centre to marker 3's; default 560 */
    double tile_mm;   /* the game's cell: an Expedition Luxor tile's side; default 40 */
} vision_mat;

void vision_mat_default(vision_mat *mat);

/*
 * A camera's intrinsics, OpenCV's pinhole model with distortion k1 k2 p1 p2 k3.
 * known == 0 with fx > 0 is a focal length hint: an uncalibrated camera whose focal length is
 * about fx pixels at width x height (at the frame's size when width is 0); the rest is unset.
 */
typedef struct vision_camera {
    int known;            /* 0: not calibrated, the rest is unset (but see the hint above) */
    int width, height;    /* the image size they were measured at, pixels */
    double fx, fy, cx, cy; /* pixels */
    double distortion[5]; /* k1 k2 p1 p2 k3 */
} vision_camera;

/* Where a registration's focal length came from. */
typedef enum vision_focal_source {
    VISION_FOCAL_CALIBRATED, /* the calibrated camera's */
    VISION_FOCAL_MARKERS,    /* estimated from the markers' perspective (a tilted camera) */
    VISION_FOCAL_HINT,       /* the caller's hint: the camera looks too straight down to tell */
    VISION_FOCAL_DEFAULT,    /* neither: a 78 degree horizontal field of view is assumed */
} vision_focal_source;

/*
 * Where the table lies in one frame. With intrinsics.known (a calibrated camera's lens, or the
 * radial distortion k1 estimated from the markers' shapes) the homography and the projection
 * give ideal pinhole pixels, without the lens's distortion; vision_project, vision_unproject
 * and vision_rectify apply it. Zeroed fields (intrinsics.known == 0) are a pinhole camera.
 */
typedef struct vision_registration {
    double table_to_image[9]; /* homography, row-major: pixel ~ H (x_mm, y_mm, 1) */
    double image_to_table[9]; /* its inverse */
    double projection[12];    /* 3x4, row-major: pixel ~ P (x_mm, y_mm, height_mm, 1) */
    double camera_mm[3];      /* the camera's centre: x, y on the table and its height above */
    double focal_px;          /* the focal length used (known, or estimated from the markers) */
    vision_focal_source focal_source;
    vision_camera intrinsics; /* known: the lens model used at this frame's size: the
                                 calibration's, or the focal length and k1 estimated */
    vision_point markers[4][4]; /* each marker's corners in the frame, pixels, clockwise from
                                   its top-left */
    double residual_mm;       /* the worst corner's distance from where the mat puts it */
    int missing_marker;       /* -1: all four were found; else the id of the one that was not
                                 (vision_register_any_three): its corners in markers are where
                                 the other three put them */
    int image_width, image_height;
} vision_registration;

/*
 * Finds the four markers and maps the frame onto the table plane. camera may be NULL or not
 * known (then the focal length and the lens's radial distortion k1 are estimated from the
 * markers); a known camera measured at another image size is scaled to the frame's. Markers of
 * other ids are ignored. Fails, with error naming the marker (its id and corner), when none or
 * only some are found (VISION_NO_MARKERS, VISION_MARKER_MISSING) or when one is not where the
 * mat puts it, is seen twice, or the markers do not measure their size (VISION_MARKER_MOVED:
 * more than 4 mm off, or 5% in size; table_plane_internal.h): a registration is never made from
 * markers that disagree. VISION_BAD_INPUT for an empty frame or a mat whose markers overlap.
 * *registration is unchanged on failure.
 *
 * The focal length: the calibration's when camera->known; else estimated from the markers'
 * perspective when the camera is tilted enough for that to be reliable; else camera's hint;
 * else a 78 degree horizontal field of view (focal_source says which).
 */
vision_status vision_register(const vision_image *frame, const vision_mat *mat,
                              const vision_camera *camera, vision_registration *registration,
                              char *error, size_t size);

/* "top-left", "top-right", "bottom-right", "bottom-left": where marker id (0-3) lies; "?"
 * for another id. */
const char *vision_marker_corner(int id);

/*
 * vision_register, except that three markers are enough: where one is not found (a cup or a
 * tile over it, or too blurred to read from a far camera), the table is registered from the
 * other three, and registration->missing_marker names the one not found. Three check each
 * other less than four: each is checked against the fit to the three only, which absorbs a
 * move that perspective and an estimated focal length explain (tests/test_registration.c: a
 * marker moved 10-60 mm away from its neighbour passed, the table then 1-3.6 mm off at worst).
 * For a table already set up (the pipeline); setting one up wants all four.
 */
vision_status vision_register_any_three(const vision_image *frame, const vision_mat *mat,
                                        const vision_camera *camera,
                                        vision_registration *registration, char *error,
                                        size_t size);

/* The pixel where the table point (x_mm, y_mm) at height_mm above the table appears (lens
 * distortion applied when the registration's intrinsics are known). */
vision_point vision_project(const vision_registration *registration, double x_mm, double y_mm,
                            double height_mm);

/* The table point (on the table, height 0) seen at this pixel. */
vision_point vision_unproject(const vision_registration *registration, vision_point pixel);

/*
 * The table's rectangle from (x_mm, y_mm), width_mm x height_mm, as seen from above at
 * px_per_mm: *out receives an owned 3-channel image (vision_image_free), round(width_mm *
 * px_per_mm) x round(height_mm * px_per_mm), bilinear, black where the frame does not reach.
 * Output pixel (i, j) is the table point (x_mm + (i + 0.5) / px_per_mm, y_mm + (j + 0.5) /
 * px_per_mm). VISION_BAD_INPUT, *out zeroed, when the frame is not the registration's size or
 * the output would be empty or above 32768 pixels a side.
 */
vision_status vision_rectify(const vision_image *frame, const vision_registration *registration,
                             double x_mm, double y_mm, double width_mm, double height_mm,
                             double px_per_mm, vision_image *out);

/* ---- what the camera sees of Expedition Luxor (DESIGN.md §3.2) ---- */

#define VISION_UNKNOWN (-1) /* a field the camera could not read */
#define VISION_NONE (-2)    /* top: no adventurer on the tile */
#define VISION_COLOURS_MAX 8
#define VISION_COLOUR_NAME_MAX 16
#define VISION_EL_TILES_MAX 128
#define VISION_EL_STACK_MAX 5
#define VISION_EL_SUPPORT_LEAST 10.0f /* a height's support is no lower (vision_el_tile) */

typedef struct vision_el_tile {
    int row, col;   /* translated so that the smallest of each is 0 */
    int type;       /* el_tile_type, or VISION_UNKNOWN */
    int top;        /* index into the observation's colours, VISION_NONE, or VISION_UNKNOWN */
    int height;     /* adventurers (0 with no top), or VISION_UNKNOWN */
    int height_or;  /* a second height the image could not rule out (1..VISION_EL_STACK_MAX),
                       or 0: the tracker's rules may take either */
    /* How well each height (0: no stack) explains the image against the best: 0 for the best,
     * less for each other, in pieces' worth of the image and the shadow (what one piece more
     * adds to them), down to -VISION_EL_SUPPORT_LEAST. All 0 where the image tells no height
     * apart (right under the camera, under a hand, on a tile that holds none). Not in the
     * observation's JSON: the tracker ranks the games it asks the players about by it. */
    float height_support[VISION_EL_STACK_MAX + 1];
    int token;      /* EL_NO_TOKEN, EL_BOAT, EL_SNAKES, or VISION_UNKNOWN */
    int stack_known; /* a truth may give the whole stack: then stack[0..height) is it */
    int stack[VISION_EL_STACK_MAX]; /* colour indices, bottom first */
    float confidence[4]; /* of type, top, height and token, 0..1 (1 in a truth) */
    double x_mm, y_mm;   /* where the recogniser found it on the mat (its cell's centre, mm
                            from marker 0's centre; 0 in a truth) */
} vision_el_tile;

enum { VISION_EL_TYPE, VISION_EL_TOP, VISION_EL_HEIGHT, VISION_EL_TOKEN };

typedef struct vision_el_observation {
    int colour_count;
    char colours[VISION_COLOURS_MAX][VISION_COLOUR_NAME_MAX]; /* the names tops refer to */
    int tile_count;
    vision_el_tile tiles[VISION_EL_TILES_MAX];
    int unknown_count; /* cells the camera could not read at all (a hand, glare) */
    struct {
        int row, col;
    } unknown[VISION_EL_TILES_MAX];
} vision_el_observation;

/* The index of colour name in the observation's colours, added when new; -1 when full or the
 * name is empty or too long. */
int vision_el_colour_index(vision_el_observation *observation, const char *name);

/* How much of a truth an observation reads where the truth puts it: rows and columns counted
 * from the truth's first, as the recogniser counts from the first it sees. */
typedef struct vision_el_read_back {
    int types;   /* tiles of the truth read with their type */
    int stacks;  /* stacks of the truth (height 1 or more) */
    int tops;    /* of those, read with their top's colour (by name) */
    int heights; /* of those, read with their height */
    int other_tops;   /* read with another colour on top, with a confidence of 0.5 or more */
    int first_other;  /* the truth's tile index of the first such, or -1, and what it read: */
    char first_other_read[VISION_COLOUR_NAME_MAX];
} vision_el_read_back;

void vision_el_read_back_of(const vision_el_observation *truth, const vision_el_observation *seen,
                            vision_el_read_back *read);

/*
 * The table of a game state as the camera's truth (a value of the rules' types; no rules call):
 * every tile, its type, its whole stack (stack_known, bottom first) and its boat or snakes, every
 * confidence 1; colours the seats' in seat order, so that a colour index is a seat. Rows and
 * columns are translated so that the smallest of each is 0 (DESIGN.md §3.2), tiles in row-major
 * order. *truth is rebuilt from empty. Returns the adventurers on the table. Never fails: a state
 * has at most EL_MAX_TILES tiles, within VISION_EL_TILES_MAX.
 */
int vision_el_truth_of_state(const el_state *state, vision_el_observation *truth);

/*
 * What the rules read of an observation (el_observation, for el_reconcile and the tracker): the
 * one place where vision's reading becomes the game's. Tops become seats by colour name (seats
 * colours of the game, in play order); a field VISION_UNKNOWN or below min_confidence becomes
 * EL_UNSEEN (a tile whose type is below it stays a tile, of unseen type); a tile whose type is
 * unread becomes an unknown cell; a height kept keeps its height_or (the rules then take
 * either).
 * *confidence (may be NULL) receives the lowest confidence among the fields kept (1 when none).
 * VISION_BAD_INPUT, *out zeroed and error (size bytes) naming the tile, for a top whose colour
 * is no seat's or a position outside what the rules hold.
 */
vision_status vision_el_to_rules(const vision_el_observation *seen,
                                 const char (*colours)[EL_COLOUR_MAX], int seats,
                                 float min_confidence, el_observation *out, float *confidence,
                                 char *error, size_t size);

/* ---- the scene renderer (DESIGN.md §4) ---- */

/*
 * A hand the caller puts in the scene (a recording's player reaching for a tile), instead of
 * where the seed puts it. Its shape, skin and sleeve still come from scene_seed and the hand's
 * index, so that the same hand is drawn at every reach.
 */
typedef struct vision_render_hand {
    int placed;              /* 0 (default): drawn from scene_seed; the rest is ignored */
    double tip_x_mm, tip_y_mm; /* where the middle finger's tip lands at full reach (table) */
    double tip_height_mm;    /* its height above the table there, >= 0 (2: on a bare tile) */
    double from_deg;         /* the side the arm comes from, an azimuth as the camera's: 0 = the
                                mat's bottom edge, counter-clockwise, [0, 360) */
    double reach;            /* [0, 1]: 1 the tip at the target; 0 withdrawn, the tip
                                VISION_HAND_WITHDRAWN_MM beyond the mat's edge on the arm's side
                                and VISION_HAND_LIFT_MM higher; in between on that straight
                                line */
} vision_render_hand;

#define VISION_HAND_WITHDRAWN_MM 60.0
#define VISION_HAND_LIFT_MM 80.0

/*
 * A passing shadow (someone walking between a lamp and the table): a soft dark ellipse on the
 * table plane that darkens whatever the camera sees there, table, tiles and pieces alike, and
 * moves nothing. length_mm 0 (the default): none.
 */
typedef struct vision_render_shadow {
    double length_mm, width_mm; /* the ellipse's axes: 0 < width <= length <= 2000 mm */
    double x_mm, y_mm;          /* its centre on the table, within a mat's size of the mat */
    double angle_deg;           /* its long axis, from +x towards +y */
    double darkness;            /* the share of the light it takes at its core, (0, 0.8] */
} vision_render_shadow;

/*
 * How a photo of the table is taken. The box's art comes from box_seed alone, so that a box
 * taught from one photo is recognised in others; everything else from scene_seed. A field set
 * to NAN (or -1 for the whole numbers) is drawn from scene_seed within the range given.
 */
typedef struct vision_render_config {
    uint64_t box_seed;        /* the box: every piece type's art, the pieces' size; default 1 */
    uint64_t scene_seed;      /* this photo; default 1 */
    int width, height;        /* pixels; default 1920 x 1080 */
    vision_mat mat;           /* default vision_mat_default */
    double camera_height_mm;  /* above the table [500, 1200] */
    double tilt_deg;          /* from looking straight down [0, 35] */
    double azimuth_deg;       /* the side the camera looks from, 0 = the mat's bottom edge,
                                 counter-clockwise [0, 360) */
    double distortion_k1;     /* radial lens distortion [-0.12, 0.04] */
    double light_kelvin;      /* light colour [2700, 6500] */
    double light_azimuth_deg; /* where the light comes from [0, 360) */
    double light_elevation_deg; /* [30, 85] */
    double glare;             /* strength of a specular spot, 0 none [0, 1] */
    double noise;             /* sensor noise, standard deviation in grey levels [0, 6] */
    double blur_px;           /* lens blur, Gaussian sigma in pixels [0, 1.5] */
    int jpeg_quality;         /* [60, 95]; 0: no JPEG loss */
    int hands;                /* hands and arms over the table; default 0 [0, 2] */
    double layout_angle_deg;  /* the tiles' turn against the mat [-8, 8] */
    /* Where the layout lies. NAN (default, both): anywhere it fits, drawn from scene_seed, the
     * truth's rows and columns relative. Both given: the centre of the cell at row 0, column 0
     * lies at this table point (mm) and rows and columns are taken as they are, not
     * translated; each tile's jitter, turn, art's quarter turn and stack spot then come from
     * its row and column rather than its index, and the gap and a drawn angle never shrink:
     * so that a recording's tiles stay put while the layout grows around them. */
    double layout_x_mm, layout_y_mm;
    vision_render_hand hand[2]; /* hand i < hands with placed set is put there; default none */
    vision_render_shadow shadow; /* a passing shadow; default none (length_mm 0) */
} vision_render_config;

/* The defaults above: seeds 1, 1920 x 1080, the default mat, no hands, no hand placed, no
 * shadow, the layout placed by the seed, the rest drawn. */
void vision_render_config_default(vision_render_config *config);

/* What the renderer knows that an image does not say: for tests and the accuracy bench. */
typedef struct vision_render_info {
    vision_registration camera;     /* the true camera (projection, pose; distortion aside) */
    double distortion_k1;
    double piece_diameter_mm, piece_height_mm; /* this box's adventurers */
    double shadow_per_mm[2];        /* how far a point's shadow moves on the table for each mm
                                       it stands higher: the light's direction */
    int tile_count;                 /* the truth's tiles, in its order */
    struct {
        double x_mm, y_mm;          /* the tile's centre on the table */
        double angle_deg;           /* its turn against the mat, from +x towards +y (clockwise
                                       on a rectified view, whose y runs down) */
        double stack_x_mm, stack_y_mm; /* where its stack stands (its centre with no stack) */
        int quarter_turns;          /* how its art is turned, 0..3, the same way as angle_deg */
        double hand_cover;          /* the share of the tile under a hand or arm, 0..1 */
    } tiles[VISION_EL_TILES_MAX];
} vision_render_info;

/*
 * Draws the truth as a camera would see it into *frame (owned, 3 channels, config's size).
 * Deterministic: the same config and truth give the same pixels. info may be NULL.
 * VISION_BAD_INPUT, with error saying why, when the layout does not fit the mat or a value is
 * out of range.
 */
vision_status vision_el_render(const vision_render_config *config,
                               const vision_el_observation *truth, vision_image *frame,
                               vision_render_info *info, char *error, size_t size);

/* ---- recognising Expedition Luxor ---- */

#define VISION_EL_PATCH 24 /* a tile's art is learnt as PATCH x PATCH colours */

/* An adventurer of the game: boxes differ by a millimetre or so (bench/README.md: heights read
 * with this size against each box's true size). Teaching measures the diameter where its
 * photo's stacks tell it; the height it does not: from the few stacks of one photo the measure
 * was worse than this. */
#define VISION_EL_PIECE_DIAMETER_MM 14.0
#define VISION_EL_PIECE_HEIGHT_MM 9.0
#define VISION_EL_TOKEN_PALETTE 4 /* colours a token's print is learnt as */
/* The share of a tile's side its art is learnt over: all but a 1.2 mm rim on a 40 mm tile,
 * where its edge blurs into the gap (0.96 took that blur for a stack on a bare tile when
 * teaching). Some boxes' oasis green shows only near the edge, around a pictogram as wide as
 * the tile: 0.84, before profile format 3, left it out and read their desert temples as oasis
 * temples, and could not say what lay under a stack's image near a tile's edge (bench/README.md,
 * session 37). */
#define VISION_EL_ART_SPAN 0.94

/*
 * What teaching learnt of one box: pointer-free, written to the profile. Colours are white-
 * balanced against the markers' white margin and black squares (0..1, blue green red), so that
 * the light's colour and strength matter less.
 */
typedef struct vision_el_model {
    int images;                 /* teach images learnt from */
    double piece_diameter_mm;   /* an adventurer's footprint, as teaching measured it */
    double piece_height_mm;     /* one adventurer's height (VISION_EL_PIECE_HEIGHT_MM) */
    float mat_colour[3];        /* the mat around the tiles */
    int type_samples[EL_TILE_TYPES]; /* tiles of each type learnt from */
    float type_art[EL_TILE_TYPES][VISION_EL_PATCH][VISION_EL_PATCH][3]; /* upright as taught */
    double art_span; /* the share of a tile's side type_art covers (VISION_EL_ART_SPAN) */
    int colour_count;
    char colours[VISION_COLOURS_MAX][VISION_COLOUR_NAME_MAX];
    int colour_samples[VISION_COLOURS_MAX];
    float colour_mean[VISION_COLOURS_MAX][3];
    float colour_spread[VISION_COLOURS_MAX][3]; /* standard deviation per channel */
    int token_samples[EL_TOKEN_TYPES]; /* EL_BOAT and EL_SNAKES are learnt */
    float token_mean[EL_TOKEN_TYPES][3];   /* a token's colour, seen as a whole */
    float token_spread[EL_TOKEN_TYPES][3];
    /* A token's colours apart: its print's few colours (k-means of what it covers of its tile's
     * art), each with the share of the token it covers. A stack's colours, mixed or not, do not
     * share a boat's or the snakes' palette. */
    float token_palette[EL_TOKEN_TYPES][VISION_EL_TOKEN_PALETTE][3];
    float token_palette_share[EL_TOKEN_TYPES][VISION_EL_TOKEN_PALETTE];
} vision_el_model;

/* An empty model: nothing taught but the adventurers' size, which is the game's. */
void vision_el_model_init(vision_el_model *model);

/*
 * Learns from one frame whose truth is known: adds what it sees to the model (several frames
 * may be learnt, one call each). VISION_BAD_INPUT, the model unchanged, when the truth's tiles
 * are not where the frame shows tiles, when a colour the truth puts on top of a stack was
 * never seen (in this frame or one before: its stack was not found), or when the model learnt,
 * once it knows every type and the pieces, reads back fewer than three in four of the frame's
 * tile types where the truth puts them (rows and columns counted from the first of each);
 * error says which. A frame the model cannot recognise at all (VISION_NOT_TAUGHT: more frames
 * to come) is not judged.
 */
vision_status vision_el_learn(const vision_image *frame, const vision_registration *registration,
                              const vision_mat *mat, const vision_el_observation *truth,
                              vision_el_model *model, char *error, size_t size);

/* Milliseconds spent in each stage of one recognition (a glare taken off reads the grid and
 * types again: both reads are counted), the glare it took off, and the tiles the last read
 * (vision_el_memory) spared matching against every art. */
typedef struct vision_el_timing {
    double rectify_ms, grid_ms, types_ms, stacks_ms, total_ms;
    double glare_peak; /* the lamp's glare taken off: the white at its middle (0..1); 0 none */
    int tiles_typed;   /* tiles whose type was read (before a glare was taken off), */
    int tiles_recalled; /* of them, those matched against the memory's types only */
    bool light_kept;    /* the stacks fitted in the light the memory kept, not one found anew */
} vision_el_timing;

/*
 * Reads the frame: the tile grid, each tile's type, each stack's top colour and height, the
 * tokens, with a confidence for each, and VISION_UNKNOWN (or the cell in unknown[]) where it
 * cannot tell rather than a guess. Colours are the model's. VISION_NOT_TAUGHT when the model
 * lacks a tile type or has no colours. timing may be NULL.
 */
vision_status vision_el_recognise(const vision_image *frame,
                                  const vision_registration *registration,
                                  const vision_mat *mat, const vision_el_model *model,
                                  vision_el_observation *seen, vision_el_timing *timing,
                                  char *error, size_t size);

/*
 * What one read of a table keeps for the next read of it: the tile grid and each tile's patch
 * and the types that decided its reading (the two nearest, and the nearest at a first look).
 * Watching a game, most tiles look the same from one settled table to the next; a tile whose
 * patch looks as it did (within the sensor's noise, sampled where the last grid put it) is
 * matched against those arts only, not every art: a fresh read's reading, unless the grid
 * found now moved another art near, for a fraction of the time. It also keeps the light the
 * stacks' shadows told, once enough of them told it: while most tiles look as they did, the
 * last read fitted not many more stacks that lean their images, and their shadows still show
 * in it, the stacks are fitted in that light, not one searched for again. Everything else is
 * read as without a memory. A memory read with another model than the last is forgotten
 * first.
 */
typedef struct vision_el_memory vision_el_memory;

vision_el_memory *vision_el_memory_new(void); /* NULL: out of memory */
void vision_el_memory_free(vision_el_memory *memory);

/* vision_el_recognise with a memory of the last read (NULL: none), which it then updates. */
vision_status vision_el_recognise_again(const vision_image *frame,
                                        const vision_registration *registration,
                                        const vision_mat *mat, const vision_el_model *model,
                                        vision_el_memory *memory, vision_el_observation *seen,
                                        vision_el_timing *timing, char *error, size_t size);

/* The light the last read with this memory fitted the stacks in (found from their shadows, or
 * kept): how far a point's shadow moves over the table, in mm along x and y, for each mm it
 * stands higher, a stack counted as its pieces times the model's piece_height_mm. False, and
 * shadow_per_mm untouched, when that read knew none (too few stacks leant, their shadows too
 * faint, no grid found). */
bool vision_el_memory_light(const vision_el_memory *memory, double shadow_per_mm[2]);

/* The pieces' height the last read with this memory fitted the stacks in, with that light: the
 * model's piece_height_mm, or where the whole fit read the stacks better with them shorter or
 * taller, that. False, and piece_mm untouched, when that read knew no light. */
bool vision_el_memory_piece(const vision_el_memory *memory, double *piece_mm);

/* The light a render drew (info->shadow_per_mm, per mm of its own pieces' height) as
 * vision_el_memory_light gives one read with model: a stack counted as its pieces times the
 * model's piece_height_mm. What a read's light is measured against. */
void vision_el_render_light(const vision_render_info *info, const vision_el_model *model,
                            double shadow_per_mm[2]);

/* A stack whose height the game knows: the centre of the tile it stands on, as a read saw it
 * (vision_el_tile.x_mm, y_mm), and its adventurers. */
typedef struct vision_el_known_stack {
    double x_mm, y_mm;
    int height; /* 1..VISION_EL_STACK_MAX */
} vision_el_known_stack;

/*
 * What the game knows of the stacks the last read saw (a tracker's committed game, once it
 * shows that table as it was read): count of them, copied, for the next read alone. A shadow
 * tells a height only through the light, and a light searched for from the heights the
 * pictures alone suggest comes out too long or too short in nearly half the tables
 * (bench/README.md); heights known pin it. So the next read does not keep a light found
 * without them: it searches again, taking each stack it fits on one of these tiles at its
 * known height alone, where the tile looks as the last read saw it (a stack changed since
 * changes how its tile looks) and the stack reads within a piece of it, and then keeps that
 * light as it keeps any other.
 */
void vision_el_memory_know_stacks(vision_el_memory *memory, const vision_el_known_stack *stacks,
                                  int count);

/*
 * The light and the pieces' height of the table the next read sees, told: shadow_per_mm per
 * mm of height, piece_mm the height of one piece (a render's info->shadow_per_mm and
 * piece_height_mm, for a bench measuring what the stacks' fit reads with neither to find).
 * That read fits the stacks once in them, searching for no light and trying no other pieces'
 * height, and keeps them as it keeps a light it found (vision_el_memory_light,
 * vision_el_memory_piece). For the next read alone; a piece_mm not above 0, or anything not
 * finite, tells nothing.
 */
void vision_el_memory_know_light(vision_el_memory *memory, const double shadow_per_mm[2],
                                 double piece_mm);

#ifdef __cplusplus
}
#endif

#endif
