/*
 * The stages that learning and recognising Expedition Luxor share (el_see.c). Internal to vision/.
 *
 *   frame ─▶ el_balance_measure (the markers' white and black: the light's colour and strength)
 *         ─▶ el_table_read      (the mat seen from above at 1 px/mm, and what is not mat)
 *         ─▶ el_grid_find       (the tiles' turn, pitch and phase; which cells hold a tile)
 *         ─▶ el_patch_sample    (a tile's art as PATCH x PATCH balanced colours)
 *         ─▶ el_stack_fit       (el_stack.c: each stack's foot, height and top, as the
 *                                capsule its image makes on the table)
 */
#ifndef TS_EL_INTERNAL_H
#define TS_EL_INTERNAL_H

#include "vision.h"

#include <stdbool.h>

#define PI 3.14159265358979323846
#define EL_PATCH VISION_EL_PATCH
#define EL_CELLS_MAX 40    /* grid cells searched along each axis */
#define EL_CELL_COVERED 0.3 /* a cell this much unlike the mat may hold a tile */

/* The colour reference of one frame: (colour - black) * scale maps the markers' black squares
 * to 0 and their white paper to 1, per channel. */
typedef struct el_balance {
    float black[3], scale[3];
} el_balance;

/* Measures the reference around the four markers. VISION_BAD_INPUT when the paper is not
 * brighter than the squares (a marker in deep shadow or glare). */
vision_status el_balance_measure(const vision_image *frame, const vision_registration *registration,
                                 const vision_mat *mat, el_balance *balance, char *error,
                                 size_t size);

/* The balanced colour of the table point (x_mm, y_mm) at height_mm, bilinear; black outside. */
void el_sample(const vision_image *frame, const vision_registration *registration,
               const el_balance *balance, double x_mm, double y_mm, double height_mm,
               float colour[3]);

/* The mat from above: balanced colours at 1 px/mm from table (0, 0), and a mask of what differs
 * from the mat's colour (the markers' paper left out). */
typedef struct el_table {
    int width, height; /* pixels = millimetres */
    float *colour;     /* width * height * 3 */
    uint8_t *foreground;
} el_table;

vision_status el_table_read(const vision_image *frame, const vision_registration *registration,
                            const vision_mat *mat, const el_balance *balance,
                            const float mat_colour[3], el_table *table);
void el_table_free(el_table *table);

/* Marks the foreground again (el_table_read's mask), from the table's colours as they are. */
vision_status el_table_find_foreground(el_table *table, const vision_mat *mat,
                                       const float mat_colour[3]);

/* Inside a marker's paper (with room to spare), where nothing of the game is looked for. */
bool el_on_marker_paper(const vision_mat *mat, double x, double y);

/*
 * A lamp mirrored in the table: a round spot washing what lies under it towards the camera's
 * white, seen = (1 - w) colour + w white, with w = peak exp(-d^2 / (2 spread^2)) at d mm from
 * its middle (el_glare.c).
 */
typedef struct el_glare {
    bool found;
    double x_mm, y_mm, spread_mm, peak;
    float white[3]; /* the brightest the camera sees, balanced */
} el_glare;

/* A tile as its art's match lit it (el_match): where its art's middle lies, and the offset
 * (the white) the match added to the art. */
typedef struct el_lit_tile {
    double x_mm, y_mm;
    float offset;
} el_lit_tile;

/* The spot that best explains the white the bare mat and the tiles gained; found is false when
 * none is plainly there. */
void el_glare_find(const el_table *table, const vision_mat *mat, const el_balance *balance,
                   const float mat_colour[3], const el_lit_tile *tiles, int count,
                   el_glare *glare);

/* The most white the spot adds within reach_mm of a table point (at the point: 0); 0 when
 * none was found. */
double el_glare_near(const el_glare *glare, double x_mm, double y_mm, double reach_mm);

/* Takes the spot off the table's colours (each at most GLARE_MOST white: beyond, too little of
 * the colour is left to see). */
void el_glare_undo(el_table *table, const el_glare *glare);

/* The median colour of the table outside the markers: the mat's colour while teaching. */
void el_table_median(const vision_image *frame, const vision_registration *registration,
                     const vision_mat *mat, const el_balance *balance, float colour[3]);

/* The tile grid: cell (row, col) is centred at origin + col * pitch * u + row * pitch * v, with
 * u = (cos angle, sin angle) and v = (-sin angle, cos angle) on the table. */
typedef struct el_grid {
    double angle;      /* radians, within ±45° of the mat's x axis */
    double pitch_mm;   /* a tile's side and the gap */
    double origin_mm[2];
    int rows, cols;    /* cells searched */
    bool tile[EL_CELLS_MAX][EL_CELLS_MAX];
    int tiles;
} el_grid;

/* Finds the grid of the tiles on the table. VISION_BAD_INPUT when no tile is seen. */
vision_status el_grid_find(const el_table *table, const vision_mat *mat, el_grid *grid);

/* The share of a cell's inside (its tile less a margin) that is foreground: unlike the mat. */
double el_cell_foreground(const el_table *table, const el_grid *grid, const vision_mat *mat,
                          int row, int col);

/* The centre of a cell on the table. */
void el_grid_centre(const el_grid *grid, int row, int col, double *x_mm, double *y_mm);

/* Where a tile's art lies on the table: its cell's centre moved by shift_mm along the grid's
 * axes (el_match.shift_mm). */
void el_art_centre(const el_grid *grid, int row, int col, const double shift_mm[2], double *x_mm,
                   double *y_mm);

/* The cell a table point lies in, and where in it (-0.5..0.5 of the pitch along u and v). */
void el_grid_locate(const el_grid *grid, double x_mm, double y_mm, int *row, int *col,
                    double *u, double *v);

/* A tile's art as PATCH x PATCH balanced colours, [y][x][channel]; the model's arts have the
 * same layout (el_model_art). */
typedef struct el_patch {
    float colour[EL_PATCH][EL_PATCH][3];
} el_patch;

#define el_model_art(model, type) ((const el_patch *)(const void *)(model)->type_art[type])

/* A tile's art, upright as the grid lies, from the mat seen from above (which smooths it to a
 * millimetre, so that a tile lying a little off the grid still matches). */
void el_patch_sample(const el_table *table, const el_grid *grid, const vision_mat *mat,
                     double span, int row, int col, el_patch *patch);

/* The same, centred shift_mm (along the grid's u and v) off the cell's centre. */
void el_patch_sample_at(const el_table *table, const el_grid *grid, const vision_mat *mat,
                        double span, int row, int col, const double shift_mm[2],
                        el_patch *patch);

/* The table points (mm) el_patch_sample_at samples the patch at, [y][x]. */
void el_patch_points(const el_grid *grid, const vision_mat *mat, double span, int row, int col,
                     const double shift_mm[2], double points[EL_PATCH][EL_PATCH][2]);

/* The art turned by quarter turns (clockwise): the colour at (x, y) of the turned art. */
const float *el_patch_turned(const el_patch *patch, int quarter_turns, int x, int y);

#define EL_OUTLIER 0.22f /* a colour further than this (balanced units) from the art is not art */

#define EL_GAIN_LEAST 0.6f /* the dimmest light a tile's art is matched under */

/* How a patch matches an art: turned by quarter_turns, under light gain * art + offset. */
typedef struct el_match {
    double shift_mm[2]; /* where the art lies off the cell's centre, along u and v */
    int quarter_turns;
    float gain, offset;
    double outliers; /* the share of the patch unlike the art even so */
} el_match;

/* The art's colour at (x, y) of the patch, as the match says it looks there. */
void el_match_expected(const el_patch *art, const el_match *match, int x, int y, float colour[3]);

/* The colours of patch unlike its art as match lights it (further than EL_OUTLIER), into
 * unlike: how many (EL_PATCH² at most). What lies on the tile: a token, a piece, a mark.
 * Where shaded[y][x] (NULL: nowhere), a colour within shade_near (EL_OUTLIER² units) of the
 * art in some shade (el_shadowed_distance) is left out too: a shadow may fall there. */
int el_unlike_art(const el_patch *patch, const el_patch *art, const el_match *match,
                  const bool (*shaded)[EL_PATCH], float shade_near, float unlike[][3]);

/* Whether a patch matched its nearest art only at the least gain the light may have, and is
 * far from it even so: none of an art's contrast is there (glare on the mat beside the layout,
 * a tile washed out). Such a cell is unknown, never a guessed tile. */
#define EL_FLAT_DISTANCE 0.3
bool el_shows_no_art(double distance, const el_match *match);

#define EL_EDGES_MISSING 2 /* a cell this many of whose sides show no edge is no tile */
/* How many of a tile's four sides show no straight edge where the tile, lying shift_mm off its
 * cell's centre, should end: neither the step to the mat nor the gap to a neighbour. A tile
 * has its four; glare on the mat beside the layout, passing for a plain tile, has none where
 * it faces the mat or more glare. */
int el_sides_without_edge(const el_table *table, const el_grid *grid, const vision_mat *mat,
                          int row, int col, const double shift_mm[2]);

/* Pixels of a patch a match leaves out, [y][x]: what a piece covers, which would favour
 * whichever art happens to be nearer the piece's colour. */
typedef struct el_patch_mask {
    bool ignore[EL_PATCH][EL_PATCH];
} el_patch_mask;

#define EL_PIECE_LIKE 0.25f /* a colour this near a piece's (EL_OUTLIER² units) may be one */

/* Marks the pixels whose colour is near a piece's (el_piece_distance). */
void el_patch_mask_pieces(const el_patch *patch, const vision_el_model *pieces,
                          el_patch_mask *mask);

/* What the art matcher reads, a channel at a time: a patch's colours (and the three channels'
 * sum), and which pixels it matches (1; 0: left out, what looks like a piece; an art's are all
 * 1). The matcher's passes then run over plain arrays, several pixels at a time. */
#define EL_PIXELS (EL_PATCH * EL_PATCH)
typedef struct el_planes {
    float c[3][EL_PIXELS];
    float sum[EL_PIXELS];
    float allowed[EL_PIXELS];
} el_planes;

/* An art turned each of the four ways as the matcher reads it, and each pixel's colour times
 * itself: made once for every tile it is matched against (the recogniser's types). */
typedef struct el_art_turns {
    el_planes turn[4];
    float square[4][EL_PIXELS];
} el_art_turns;

/* A patch's planes, the pixels mask marks left out (mask NULL: none); an art's four turns. */
void el_planes_of(const el_patch *patch, const el_patch_mask *mask, el_planes *planes);
void el_art_turns_of(const el_patch *art, el_art_turns *turns);

/* How far a patch is from an art (the mean of min(d², OUTLIER²) / OUTLIER², 0..1, a pixel left
 * out counted as an outlier of every art alike) at its best turn and light; *match says which
 * (its shift is left as it was). */
double el_planes_distance(const el_planes *seen, const el_art_turns *art, el_match *match);

/* A tile's art sampled at its cell's centre and EL_VIEW_MM either way along u and v (a tile
 * never lies exactly on the grid): planes[1 + v steps][1 + u steps]. Sampled once a tile, matched
 * against as many arts as needed. With pieces (a model that knows their colours), each view's
 * pixels that look like a piece are found once too, and left out of every match
 * (el_patch_mask_pieces). */
#define EL_VIEW_MM 1.2
typedef struct el_tile_views {
    el_planes planes[3][3]; /* each view as the matcher reads it, its mask applied */
} el_tile_views;

void el_tile_views_sample(const el_table *table, const el_grid *grid, const vision_mat *mat,
                          double span, int row, int col, const vision_el_model *pieces,
                          el_tile_views *views);

/* How far the nearest of the views is from an art (el_planes_distance, with the views' masks);
 * match->shift_mm says which view. */
double el_tile_distance(const el_tile_views *views, const el_art_turns *art, el_match *match);

/* The expected look of the table without pieces: the tiles' learnt art where the grid holds
 * a tile, the mat elsewhere. */
typedef struct el_scenery {
    const el_grid *grid;
    const vision_mat *mat;
    double span; /* the share of a tile's side its art covers (vision_el_model's art_span) */
    const el_patch *art[EL_CELLS_MAX][EL_CELLS_MAX]; /* NULL: mat or unknown */
    el_match match[EL_CELLS_MAX][EL_CELLS_MAX];
    float mat_colour[3];
    bool unshaded; /* the art as it is, no shade allowed */
} el_scenery;

/* Whether teaching learnt this token's palette (a profile of format 1 has none). */
bool el_has_palette(const vision_el_model *model, int token);

/* The squared distance between two colours. */
float el_squared_distance(const float a[3], const float b[3]);

/* qsort's order of floats, smallest first. */
int el_compare_floats(const void *a, const void *b);

/* The per-channel median of count colours (reorders values). */
void el_median_colour(float *values, int count, float colour[3]);

/* How far the colour seen at table point (x, y) is from what the scenery puts there, under
 * some shade (a piece's soft shadow darkens what lies under it without making it a piece):
 * *distance > 1 is unlike; expected receives the scenery's colour there (the art lit as the
 * tile's match says, or the mat's colour). False, expected unset, when it cannot say (off the
 * grid, a tile of unknown art, or between the art's span and the tile's edge). */
bool el_scenery_distance(const el_scenery *scenery, double x, double y, const float seen[3],
                         float *distance, float expected[3]);

/* The squared distance from seen to colour lit k times as bright, k within [darkest,
 * brightest] as near seen as can be. */
float el_shaded_distance(const float seen[3], const float colour[3], float darkest,
                         float brightest);

/* The squared distance from seen to expected under some shade: a piece's or a hand's soft
 * shadow darkens what lies under it without making it a piece. */
float el_shadowed_distance(const float seen[3], const float expected[3]);

/* ---- stacks as capsules (el_stack.c) ---- */

/* The squared distance (EL_OUTLIER² units) from seen to the nearest piece colour lit as a
 * piece's top may be (the stack evidence allows its sides darker, el_stack.c). */
float el_piece_distance(const vision_el_model *model, const float seen[3]);

#define EL_TILE_THICKNESS_MM 2.0 /* a stack stands this high: on the tile's printed face */
#define EL_STACK_FILLED 0.6      /* a capsule this much piece is a stack */

/*
 * What the table shows of the pieces, per table pixel (1 mm), worked out when first asked:
 * 1 where the colour is unlike the scenery (or, once the pieces' colours are learnt, far
 * likelier a piece's, its side in shade allowed, than the scenery's), 0 where it is the
 * scenery, -1 where it cannot say: off the known art, a colour nearer a piece's than the
 * scenery's but not far nearer, or a blend of a piece's and the art's (a blurred edge).
 */
typedef struct el_evidence {
    const el_table *table;
    const el_scenery *scenery;
    const vision_el_model *model; /* borrowed; its colours count when colour_count > 0 */
    signed char *value;           /* table-sized; -2: not worked out yet */
    /* Per row, how many pixels before x look like a piece, and like the scenery: (width + 1)
     * a row, brought up to date where a search is about to look (row_stale says which rows
     * changed since). */
    int32_t *piece_sum, *scenery_sum;
    unsigned char *row_stale;
    /* Where a stack's shadow falls, once the light is known (el_evidence_find_light): its tip
     * moves shadow_per_mm table millimetres for each millimetre the stack stands higher, and
     * the fit asks a capsule's shadow to lie where the scenery is darkened. */
    bool light_known;
    double shadow_per_mm[2];
    signed char *shade;  /* 1 where the scenery is seen darkened, 0 lit, -1 neither (a piece,
                            or not worked out yet, with value) */
    int32_t *shade_sum;  /* per row, darkened minus lit before x, with the running counts */
    /* value and shade as each pixel looked before any stack was explained over it (not worked
     * out yet where value is): forgetting the explanations restores them, so that a pixel is
     * worked out once a read, however often the stacks are fitted afresh. */
    signed char *looked, *looked_shade;
} el_evidence;

vision_status el_evidence_init(el_evidence *evidence, const el_table *table,
                               const el_scenery *scenery, const vision_el_model *model);
void el_evidence_free(el_evidence *evidence);

/* Forgets what was explained, keeping the light and how each pixel looked: the stacks are
 * fitted afresh. A pixel an earlier fit worked out is then known without being worked out
 * again, where it once counted as nothing until it was: so every score must read only pixels
 * evidence_prepare brought up to date for it, as the fits do (the readings are the same). */
void el_evidence_forget(el_evidence *evidence);

/* The evidence at table pixel (x, y): 1, 0 or -1 as above (-1 off the table). */
int el_evidence_at(el_evidence *evidence, int x, int y);

/* A rectangle of table pixels, [x0, x1] x [y0, y1], bounds included. */
typedef struct el_box {
    int x0, x1, y0, y1;
} el_box;

/* Whether two boxes share a pixel. */
static inline bool el_box_overlaps(const el_box *a, const el_box *b)
{
    return a->x0 <= b->x1 && b->x0 <= a->x1 && a->y0 <= b->y1 && b->y0 <= a->y1;
}

/*
 * A stack's image on the table is a capsule: from its foot's disc (radius r H / (H - b) around
 * the foot seen from height b) to its top's disc (around the foot seen from the top's height),
 * leaning away from the camera's foot. The fit is the foot on the tile and the height whose
 * capsule covers the most piece and the least scenery (a piece's pixel weighs a little less
 * than the scenery's).
 */
typedef struct el_stack_fit {
    bool found;            /* a capsule mostly made of piece lies on the tile */
    int height;            /* pieces, 1..VISION_EL_STACK_MAX */
    double foot_mm[2];     /* where it stands on the table */
    double score[VISION_EL_STACK_MAX + 1]; /* the best score of each height (index 0 unused) */
    double filled;         /* the share of the best capsule that looks like a piece */
    double lean_mm;        /* how far one more piece moves the top's image, at this foot */
    double shadow_mm;      /* how far one more piece moves its shadow's tip (0: no light) */
    double shadow_darkened; /* of its shadow's pixels outside its image, the share seen
                               darkened less the share seen lit (-1..1; 0: no light) */
    int shadow_pixels;     /* those pixels */
    double piece_score;    /* what one more piece adds to the score, all of it like a piece
                              and its shadow's all darkened */
    double top_mm[2];      /* the top's disc on the table (its image seen from above) */
    double top_radius_mm;
    float top_colour[3];   /* the median colour over the top's disc */
    el_box read;           /* the table pixels every capsule and shadow tried lies within */
} el_stack_fit;

/* The colour on the table's top disc of a stack of `height` pieces standing at the fit's
 * foot. */
void el_stack_top_colour(const el_table *table, const vision_registration *registration,
                         const el_stack_fit *fit, int height, double radius_mm, double piece_mm,
                         float colour[3]);

/* Marks what the fit's capsule covers as explained: the image of a stack leaning over a
 * neighbouring tile is then not taken for a stack of its own. *changed: the table pixels
 * whose evidence it changed lie within. */
void el_evidence_explain(el_evidence *evidence, const vision_registration *registration,
                         const el_stack_fit *fit, double radius_mm, double piece_mm,
                         el_box *changed);

/* Marks in shaded (a byte a table pixel) the shadow of a stack of the fit's height standing
 * at its foot, in the light whose shadows move shadow_per_mm for each millimetre higher. */
void el_mark_shadow(const vision_registration *registration, const double shadow_per_mm[2],
                    const el_stack_fit *fit, double radius_mm, double piece_mm,
                    const el_table *table, unsigned char *shaded);

#define EL_LIGHT_TELLS 0.15 /* a light is known when its shadows are this much more darkened
                              than lit, a pixel of them on average */

/* Finds the light from the shadows of the stacks fitted (found ones, count of them): the one
 * that, each stack at its fitted height or a piece more or less as its image and shadow
 * together say, puts the most darkened and the least lit scenery in their shadows. known (NULL:
 * none) gives each fit the height the game knows it has (0: not known): such a stack is taken
 * at that height alone when its fit is within a piece of it (further, it is the fit's height
 * and a piece either way, as unknown). Sets evidence->light_known when the shadows tell it, and then the fits
 * after take the shadows in. */
void el_evidence_find_light(el_evidence *evidence, const vision_registration *registration,
                            const el_stack_fit *fits, const int *known, int count,
                            double radius_mm, double piece_mm);

/* Reads back a teaching photo with what it taught (el_learn.c), as vision_el_recognise reads
 * a table but in the light its shadows' search finds, not refined by the whole fit: the check
 * of the colours learnt was measured on that reading, and the refined one reads a top back
 * right from a photo that taught its colour wrong (bench/README.md, session 32). */
vision_status el_read_back(const vision_image *frame, const vision_registration *registration,
                           const vision_mat *mat, const vision_el_model *model,
                           vision_el_observation *seen, char *error, size_t size);

/* What a tile's fit scored at each foot of its coarse search, each height: a refit after a
 * neighbour's stack was explained scores again only the feet whose capsule or shadow reaches
 * what that changed (the scores of the others are the same). Zeroed: nothing remembered. */
typedef struct el_foot_score {
    double score;
    int piece, scenery;
    el_box reach; /* the capsule's and its shadow's pixels lie within */
} el_foot_score;

typedef struct el_fit_memory {
    bool valid;
    int per_height;          /* coarse feet a height */
    el_foot_score *feet;     /* [VISION_EL_STACK_MAX + 1][per_height], owned */
    int reused;              /* the last fit's coarse feet taken from memory */
} el_fit_memory;

void el_fit_memory_free(el_fit_memory *memory);

/* Fits the stack on tile (row, col), of the height given (1..VISION_EL_STACK_MAX), or (0) the
 * best of any up to most (what the tile may hold; the taller ones are scored too, in score[]).
 * radius_mm, piece_mm: the pieces' size. memory (may be NULL): this tile's last fit's scores,
 * still right but where changed (NULL: everything may have changed) when the evidence changed
 * there alone since; kept for the next. */
void el_stack_fit_tile(el_evidence *evidence, const vision_registration *registration, int row,
                       int col, double radius_mm, double piece_mm, int height, int most,
                       el_fit_memory *memory, const el_box *changed, el_stack_fit *fit);

#endif
