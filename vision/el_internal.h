/*
 * The stages that learning and recognising Expedition Luxor share (el_see.c). Internal to vision/.
 *
 *   frame ─▶ el_balance_measure (the markers' white and black: the light's colour and strength)
 *         ─▶ el_table_read      (the mat seen from above at 1 px/mm, and what is not mat)
 *         ─▶ el_grid_find       (the tiles' turn, pitch and phase; which cells hold a tile)
 *         ─▶ el_patch_sample    (a tile's art as PATCH x PATCH balanced colours)
 *         ─▶ el_stack_measure   (a stack's base, top and height from its parallax)
 */
#ifndef TS_EL_INTERNAL_H
#define TS_EL_INTERNAL_H

#include "vision.h"

#include <stdbool.h>

#define EL_PATCH VISION_EL_PATCH
#define EL_PATCH_SPAN 0.84 /* the share of a tile's side the patch covers: clear of its edges */
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

/* The centre of a cell on the table. */
void el_grid_centre(const el_grid *grid, int row, int col, double *x_mm, double *y_mm);

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
void el_patch_sample(const el_table *table, const el_grid *grid, const vision_mat *mat, int row,
                     int col, el_patch *patch);

/* The same, centred shift_mm (along the grid's u and v) off the cell's centre. */
void el_patch_sample_at(const el_table *table, const el_grid *grid, const vision_mat *mat,
                        int row, int col, const double shift_mm[2], el_patch *patch);

/* The art turned by quarter turns (clockwise): the colour at (x, y) of the turned art. */
const float *el_patch_turned(const el_patch *patch, int quarter_turns, int x, int y);

#define EL_OUTLIER 0.22f /* a colour further than this (balanced units) from the art is not art */

/* How a patch matches an art: turned by quarter_turns, under light gain * art + offset. */
typedef struct el_match {
    double shift_mm[2]; /* where the art lies off the cell's centre, along u and v */
    int quarter_turns;
    float gain, offset;
    double outliers; /* the share of the patch unlike the art even so */
} el_match;

/* The art's colour at (x, y) of the patch, as the match says it looks there. */
void el_match_expected(const el_patch *art, const el_match *match, int x, int y, float colour[3]);

/* How far a patch is from an art (the mean of min(d², OUTLIER²) / OUTLIER², 0..1) at its best
 * turn and light; *match says which (its shift is left as it was). */
double el_patch_distance(const el_patch *patch, const el_patch *art, el_match *match);

/* The same over the tile's art sampled a millimetre or so either way: a tile never lies exactly
 * on the grid. match->shift_mm says where it matched best. */
double el_tile_distance(const el_table *table, const el_grid *grid, const vision_mat *mat,
                        int row, int col, const el_patch *art, el_match *match);

/* What lies on a tile and rises above it: where it stands and how high it reaches. */
typedef struct el_stack {
    bool found;
    double base_mm[2];    /* its foot's centre on the table */
    double reach_mm;      /* the far end of its image on the table, from the camera's foot */
    double base_reach_mm; /* its foot's centre, from the camera's foot */
    bool blocked;         /* the image runs into something it cannot be (a hand, the view's edge) */
} el_stack;

/* The expected look of the table without pieces: the tiles' learnt art where the grid holds
 * a tile, the mat elsewhere. */
typedef struct el_scenery {
    const el_grid *grid;
    const vision_mat *mat;
    const el_patch *art[EL_CELLS_MAX][EL_CELLS_MAX]; /* NULL: mat or unknown */
    el_match match[EL_CELLS_MAX][EL_CELLS_MAX];
    float mat_colour[3];
} el_scenery;

/*
 * Measures what stands on tile (row, col): the things that are neither art nor mat, followed
 * from the tile away from the camera's foot, as far as a stack of max_height_mm could reach.
 */
void el_stack_measure(const el_table *table, const vision_registration *registration,
                      const el_scenery *scenery, int row, int col, double piece_radius_mm,
                      double max_height_mm, el_stack *stack);

/* The height above the table of the stack's top face, from its reach; piece_radius_mm the
 * foot's radius. */
double el_stack_height(const vision_registration *registration, const el_stack *stack,
                       double piece_radius_mm);

/* The mean balanced colour of the top face of a stack height_mm tall. */
void el_stack_top_colour(const vision_image *frame, const vision_registration *registration,
                         const el_balance *balance, const el_stack *stack,
                         double piece_radius_mm, double height_mm, float colour[3]);

#endif
