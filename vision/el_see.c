/* The stages learning and recognising Expedition Luxor share: see el_internal.h. */
#include "el_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PI 3.14159265358979323846

/* ---- colour ---- */

static void sample_raw(const vision_image *frame, vision_point pixel, float colour[3])
{
    double x = pixel.x - 0.5, y = pixel.y - 0.5; /* pixel centres at .5 */
    int x0 = (int)floor(x), y0 = (int)floor(y);
    if (x0 < 0 || y0 < 0 || x0 + 1 >= frame->width || y0 + 1 >= frame->height) {
        colour[0] = colour[1] = colour[2] = 0.0f;
        return;
    }
    float fx = (float)(x - x0), fy = (float)(y - y0);
    const uint8_t *p = frame->pixels + (size_t)y0 * (size_t)frame->stride + (size_t)x0 * 3;
    const uint8_t *q = p + frame->stride;
    for (int c = 0; c < 3; c++) {
        float top = p[c] + fx * (float)(p[3 + c] - p[c]);
        float bottom = q[c] + fx * (float)(q[3 + c] - q[c]);
        colour[c] = top + fy * (bottom - top);
    }
}

static int compare_floats(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* The per-channel median of count colours (reorders values). */
static void median_colour(float *values, int count, float colour[3])
{
    float *channel = malloc(sizeof(float) * (size_t)(count > 0 ? count : 1));
    for (int c = 0; c < 3; c++) {
        if (!channel || count == 0) {
            colour[c] = 0.0f;
            continue;
        }
        for (int i = 0; i < count; i++)
            channel[i] = values[i * 3 + c];
        qsort(channel, (size_t)count, sizeof(float), compare_floats);
        colour[c] = channel[count / 2];
    }
    free(channel);
}

static const double marker_centres[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
static const char *const corner_names[4] = {"top-left", "top-right", "bottom-right",
                                            "bottom-left"};

/* Points on the square ring at distance `reach` (mm) from marker id's centre. */
static int ring_points(const vision_mat *mat, int id, double reach, double points[][2], int count)
{
    double cx = marker_centres[id][0] * mat->width_mm, cy = marker_centres[id][1] * mat->height_mm;
    for (int i = 0; i < count; i++) {
        double t = (double)i / count * 4.0;
        int side = (int)t;
        double along = (t - side) * 2.0 - 1.0;
        double x = side == 0 ? along : side == 1 ? 1.0 : side == 2 ? -along : -1.0;
        double y = side == 0 ? -1.0 : side == 1 ? along : side == 2 ? 1.0 : -along;
        points[i][0] = cx + x * reach;
        points[i][1] = cy + y * reach;
    }
    return count;
}

vision_status el_balance_measure(const vision_image *frame, const vision_registration *registration,
                                 const vision_mat *mat, el_balance *balance, char *error,
                                 size_t size)
{
    enum { PER_RING = 48 };
    float white[4 * PER_RING * 3], black[4 * PER_RING * 3];
    double points[PER_RING][2];
    double module = mat->marker_mm / 6.0; /* 4x4 bits and a black border each side */
    for (int id = 0; id < 4; id++) {
        ring_points(mat, id, mat->marker_mm / 2.0 + 0.7 * module, points, PER_RING);
        for (int i = 0; i < PER_RING; i++)
            sample_raw(frame, vision_project(registration, points[i][0], points[i][1], 0.0),
                       white + (id * PER_RING + i) * 3);
        ring_points(mat, id, mat->marker_mm / 2.0 - 0.5 * module, points, PER_RING);
        for (int i = 0; i < PER_RING; i++)
            sample_raw(frame, vision_project(registration, points[i][0], points[i][1], 0.0),
                       black + (id * PER_RING + i) * 3);
    }
    float w[3], k[3];
    median_colour(white, 4 * PER_RING, w);
    median_colour(black, 4 * PER_RING, k);
    for (int c = 0; c < 3; c++) {
        if (w[c] - k[c] < 24.0f) {
            snprintf(error, size,
                     "the markers' white paper is hardly brighter than their black squares "
                     "(%.0f against %.0f): too dark, or glare on the markers",
                     (double)w[c], (double)k[c]);
            return VISION_BAD_INPUT;
        }
        balance->black[c] = k[c];
        balance->scale[c] = 1.0f / (w[c] - k[c]);
    }
    (void)corner_names;
    return VISION_OK;
}

void el_sample(const vision_image *frame, const vision_registration *registration,
               const el_balance *balance, double x_mm, double y_mm, double height_mm,
               float colour[3])
{
    sample_raw(frame, vision_project(registration, x_mm, y_mm, height_mm), colour);
    for (int c = 0; c < 3; c++)
        colour[c] = (colour[c] - balance->black[c]) * balance->scale[c];
}

/* ---- the mat from above ---- */

#define MAT_DISTANCE 0.16f /* further than this from the mat's colour: something lies there */

/* Inside a marker's paper (with room to spare), where nothing of the game is looked for. */
static bool on_marker_paper(const vision_mat *mat, double x, double y)
{
    double reach = mat->marker_mm * 0.95;
    for (int id = 0; id < 4; id++)
        if (fabs(x - marker_centres[id][0] * mat->width_mm) < reach &&
            fabs(y - marker_centres[id][1] * mat->height_mm) < reach)
            return true;
    return false;
}

vision_status el_table_read(const vision_image *frame, const vision_registration *registration,
                            const vision_mat *mat, const el_balance *balance,
                            const float mat_colour[3], el_table *table)
{
    memset(table, 0, sizeof *table);
    vision_image top;
    vision_status status =
        vision_rectify(frame, registration, 0.0, 0.0, mat->width_mm, mat->height_mm, 1.0, &top);
    if (status != VISION_OK)
        return status;
    size_t pixels = (size_t)top.width * (size_t)top.height;
    table->colour = malloc(pixels * 3 * sizeof(float));
    table->foreground = malloc(pixels);
    if (!table->colour || !table->foreground) {
        vision_image_free(&top);
        el_table_free(table);
        return VISION_NOMEM;
    }
    table->width = top.width;
    table->height = top.height;
    for (int y = 0; y < top.height; y++) {
        const uint8_t *row = top.pixels + (size_t)y * (size_t)top.stride;
        for (int x = 0; x < top.width; x++) {
            size_t i = (size_t)y * (size_t)top.width + (size_t)x;
            float d = 0.0f;
            for (int c = 0; c < 3; c++) {
                float value = ((float)row[x * 3 + c] - balance->black[c]) * balance->scale[c];
                table->colour[i * 3 + c] = value;
                d += (value - mat_colour[c]) * (value - mat_colour[c]);
            }
            table->foreground[i] =
                d > MAT_DISTANCE * MAT_DISTANCE && !on_marker_paper(mat, x + 0.5, y + 0.5);
        }
    }
    vision_image_free(&top);
    return VISION_OK;
}

void el_table_free(el_table *table)
{
    free(table->colour);
    free(table->foreground);
    memset(table, 0, sizeof *table);
}

void el_table_median(const vision_image *frame, const vision_registration *registration,
                     const vision_mat *mat, const el_balance *balance, float colour[3])
{
    enum { STEP_MM = 8 };
    int columns = (int)(mat->width_mm / STEP_MM), rows = (int)(mat->height_mm / STEP_MM);
    float *values = malloc(sizeof(float) * 3 * (size_t)(columns * rows + 1));
    int count = 0;
    for (int r = 0; values && r < rows; r++)
        for (int c = 0; c < columns; c++) {
            double x = (c + 0.5) * STEP_MM, y = (r + 0.5) * STEP_MM;
            if (!on_marker_paper(mat, x, y))
                el_sample(frame, registration, balance, x, y, 0.0, values + 3 * count++);
        }
    median_colour(values, values ? count : 0, colour);
    free(values);
}

/* ---- the grid ---- */

/* The tiles' turn: the dominant direction, folded into a quarter turn, of the edges between
 * what is mat and what is not. */
static double dominant_angle(const el_table *table)
{
    enum { BINS = 360 }; /* a quarter of a turn in quarter degrees */
    double histogram[BINS] = {0};
    int w = table->width, h = table->height;
    /* A 3x3 sum smooths the mask's staircase edges so that their direction shows. */
    for (int y = 2; y < h - 2; y++)
        for (int x = 2; x < w - 2; x++) {
            const uint8_t *f = table->foreground + (size_t)y * (size_t)w + (size_t)x;
            int gx = 0, gy = 0;
            for (int d = -1; d <= 1; d++) {
                gx += f[d * w + 2] - f[d * w - 2] + f[d * w + 1] - f[d * w - 1];
                gy += f[2 * w + d] - f[-2 * w + d] + f[w + d] - f[-w + d];
            }
            if (gx == 0 && gy == 0)
                continue;
            double angle = atan2((double)gy, (double)gx) * 180.0 / PI; /* -180..180 */
            double folded = fmod(angle + 360.0 + 45.0, 90.0) - 45.0;   /* -45..45 */
            int bin = (int)((folded + 45.0) * 4.0) % BINS;
            histogram[bin] += sqrt((double)(gx * gx + gy * gy));
        }
    int best = 0;
    double best_value = -1.0;
    for (int i = 0; i < BINS; i++) {
        double smoothed = 0.0;
        for (int d = -3; d <= 3; d++)
            smoothed += histogram[(i + d + BINS) % BINS] * (4 - abs(d));
        if (smoothed > best_value) {
            best_value = smoothed;
            best = i;
        }
    }
    return ((best + 0.5) / 4.0 - 45.0) * PI / 180.0;
}

/* The mask turned so that the grid's axes are the image's: rotated[v][u] is the table point
 * centre + u * axis_u + v * axis_v with u, v from -half. */
typedef struct turned_mask {
    int size, half;
    uint32_t *sums; /* (size + 1)^2 integral image */
} turned_mask;

static bool turn_mask(const el_table *table, double angle, turned_mask *turned)
{
    double cx = table->width / 2.0, cy = table->height / 2.0;
    turned->half = (int)ceil(sqrt(cx * cx + cy * cy));
    turned->size = 2 * turned->half;
    int n = turned->size + 1;
    turned->sums = calloc((size_t)n * (size_t)n, sizeof(uint32_t));
    if (!turned->sums)
        return false;
    double cu = cos(angle), su = sin(angle);
    for (int v = 0; v < turned->size; v++) {
        uint32_t row = 0;
        double dv = v - turned->half + 0.5;
        for (int u = 0; u < turned->size; u++) {
            double du = u - turned->half + 0.5;
            int x = (int)floor(cx + du * cu - dv * su), y = (int)floor(cy + du * su + dv * cu);
            if (x >= 0 && y >= 0 && x < table->width && y < table->height)
                row += table->foreground[(size_t)y * (size_t)table->width + (size_t)x];
            turned->sums[(size_t)(v + 1) * (size_t)n + (size_t)(u + 1)] =
                turned->sums[(size_t)v * (size_t)n + (size_t)(u + 1)] + row;
        }
    }
    return true;
}

/* The share of the turned mask's square [u0, u1) x [v0, v1) that is foreground. */
static double coverage(const turned_mask *turned, int u0, int v0, int u1, int v1)
{
    int n = turned->size + 1;
    if (u0 < 0) u0 = 0;
    if (v0 < 0) v0 = 0;
    if (u1 > turned->size) u1 = turned->size;
    if (v1 > turned->size) v1 = turned->size;
    if (u1 <= u0 || v1 <= v0)
        return 0.0;
    const uint32_t *s = turned->sums;
    uint32_t sum = s[(size_t)v1 * n + u1] - s[(size_t)v0 * n + u1] - s[(size_t)v1 * n + u0] +
                   s[(size_t)v0 * n + u0];
    return (double)sum / ((double)(u1 - u0) * (v1 - v0));
}

/* How badly a grid of this pitch and phase cuts the tiles: cells half full cost, cells full or
 * empty do not. */
static double grid_cost(const turned_mask *turned, double pitch, double phase_u, double phase_v,
                        int inner)
{
    double cost = 0.0;
    int first = -(int)(turned->half / pitch) - 1, last = (int)(turned->half / pitch) + 1;
    for (int row = first; row <= last; row++) {
        int v = (int)lround(turned->half + phase_v + row * pitch);
        if (v + inner < 0 || v - inner > turned->size)
            continue;
        for (int col = first; col <= last; col++) {
            int u = (int)lround(turned->half + phase_u + col * pitch);
            if (u + inner < 0 || u - inner > turned->size)
                continue;
            double c = coverage(turned, u - inner, v - inner, u + inner, v + inner);
            cost += c * (1.0 - c);
        }
    }
    return cost;
}

vision_status el_grid_find(const el_table *table, const vision_mat *mat, el_grid *grid)
{
    memset(grid, 0, sizeof *grid);
    grid->angle = dominant_angle(table);
    turned_mask turned;
    if (!turn_mask(table, grid->angle, &turned))
        return VISION_NOMEM;
    int inner = (int)lround(mat->tile_mm * 0.46);
    double best_cost = INFINITY, best_pitch = mat->tile_mm, best_u = 0, best_v = 0;
    /* Coarse: pitches with gaps of 0.25..3 mm, phases every 2 mm; then every millimetre near
     * the best. */
    for (double pitch = mat->tile_mm + 0.25; pitch <= mat->tile_mm + 3.0; pitch += 0.25)
        for (double pu = 0; pu < pitch; pu += 2.0)
            for (double pv = 0; pv < pitch; pv += 2.0) {
                double cost = grid_cost(&turned, pitch, pu, pv, inner);
                if (cost < best_cost) {
                    best_cost = cost;
                    best_pitch = pitch;
                    best_u = pu;
                    best_v = pv;
                }
            }
    double coarse_u = best_u, coarse_v = best_v, coarse_pitch = best_pitch;
    for (double pitch = coarse_pitch - 0.25; pitch <= coarse_pitch + 0.25; pitch += 0.125)
        for (double pu = coarse_u - 2; pu <= coarse_u + 2; pu += 1.0)
            for (double pv = coarse_v - 2; pv <= coarse_v + 2; pv += 1.0) {
                double cost = grid_cost(&turned, pitch, pu, pv, inner);
                if (cost < best_cost) {
                    best_cost = cost;
                    best_pitch = pitch;
                    best_u = pu;
                    best_v = pv;
                }
            }
    grid->pitch_mm = best_pitch;

    /* Cells: those whose centre lies on the mat, counted from the top-left one. */
    int first = -(int)(turned.half / best_pitch) - 1;
    double cu = cos(grid->angle), su = sin(grid->angle);
    double cx = table->width / 2.0, cy = table->height / 2.0;
    int row0 = EL_CELLS_MAX, col0 = EL_CELLS_MAX, row1 = -1, col1 = -1;
    int span = 2 * ((int)(turned.half / best_pitch) + 1) + 1;
    for (int r = 0; r < span; r++)
        for (int c = 0; c < span; c++) {
            double du = best_u + (first + c) * best_pitch, dv = best_v + (first + r) * best_pitch;
            double x = cx + du * cu - dv * su, y = cy + du * su + dv * cu;
            if (x < 0 || y < 0 || x > table->width || y > table->height)
                continue;
            if (r < row0) row0 = r;
            if (c < col0) col0 = c;
            if (r > row1) row1 = r;
            if (c > col1) col1 = c;
        }
    grid->rows = row1 - row0 + 1 < EL_CELLS_MAX ? row1 - row0 + 1 : EL_CELLS_MAX;
    grid->cols = col1 - col0 + 1 < EL_CELLS_MAX ? col1 - col0 + 1 : EL_CELLS_MAX;
    double du0 = best_u + (first + col0) * best_pitch, dv0 = best_v + (first + row0) * best_pitch;
    grid->origin_mm[0] = cx + du0 * cu - dv0 * su;
    grid->origin_mm[1] = cy + du0 * su + dv0 * cu;
    for (int r = 0; r < grid->rows; r++)
        for (int c = 0; c < grid->cols; c++) {
            int u = (int)lround(turned.half + best_u + (first + col0 + c) * best_pitch);
            int v = (int)lround(turned.half + best_v + (first + row0 + r) * best_pitch);
            double share = coverage(&turned, u - inner, v - inner, u + inner, v + inner);
            grid->coverage[r][c] = (float)share;
            grid->tile[r][c] = share >= 0.5;
            grid->tiles += grid->tile[r][c];
        }
    free(turned.sums);
    return grid->tiles ? VISION_OK : VISION_BAD_INPUT;
}

void el_grid_centre(const el_grid *grid, int row, int col, double *x_mm, double *y_mm)
{
    double cu = cos(grid->angle), su = sin(grid->angle);
    *x_mm = grid->origin_mm[0] + grid->pitch_mm * (col * cu - row * su);
    *y_mm = grid->origin_mm[1] + grid->pitch_mm * (col * su + row * cu);
}

void el_grid_locate(const el_grid *grid, double x_mm, double y_mm, int *row, int *col,
                    double *u, double *v)
{
    double cu = cos(grid->angle), su = sin(grid->angle);
    double dx = x_mm - grid->origin_mm[0], dy = y_mm - grid->origin_mm[1];
    double uu = (dx * cu + dy * su) / grid->pitch_mm, vv = (-dx * su + dy * cu) / grid->pitch_mm;
    *col = (int)floor(uu + 0.5);
    *row = (int)floor(vv + 0.5);
    *u = uu - *col;
    *v = vv - *row;
}

/* ---- a tile's art ---- */

void el_patch_sample(const vision_image *frame, const vision_registration *registration,
                     const el_balance *balance, const el_grid *grid, const vision_mat *mat,
                     int row, int col, el_patch *patch)
{
    double x0, y0;
    el_grid_centre(grid, row, col, &x0, &y0);
    double cu = cos(grid->angle), su = sin(grid->angle);
    double step = mat->tile_mm * EL_PATCH_SPAN / EL_PATCH;
    for (int y = 0; y < EL_PATCH; y++)
        for (int x = 0; x < EL_PATCH; x++) {
            double du = (x + 0.5 - EL_PATCH / 2.0) * step, dv = (y + 0.5 - EL_PATCH / 2.0) * step;
            el_sample(frame, registration, balance, x0 + du * cu - dv * su,
                      y0 + du * su + dv * cu, 0.0, patch->colour[y][x]);
        }
}

const float *el_patch_turned(const el_patch *patch, int quarter_turns, int x, int y)
{
    const int n = EL_PATCH - 1;
    switch (quarter_turns & 3) {
    case 1:
        return patch->colour[n - x][y];
    case 2:
        return patch->colour[n - y][n - x];
    case 3:
        return patch->colour[x][n - y];
    default:
        return patch->colour[y][x];
    }
}

double el_patch_distance(const el_patch *patch, const el_patch *art,
                         int *quarter_turns, double *outliers)
{
    const float limit = EL_OUTLIER * EL_OUTLIER;
    double best = INFINITY;
    for (int q = 0; q < 4; q++) {
        double sum = 0.0;
        int out = 0;
        for (int y = 0; y < EL_PATCH; y++)
            for (int x = 0; x < EL_PATCH; x++) {
                const float *a = el_patch_turned(art, q, x, y);
                const float *p = patch->colour[y][x];
                float d = (p[0] - a[0]) * (p[0] - a[0]) + (p[1] - a[1]) * (p[1] - a[1]) +
                          (p[2] - a[2]) * (p[2] - a[2]);
                if (d > limit) {
                    d = limit;
                    out++;
                }
                sum += d;
            }
        sum /= (double)limit * EL_PATCH * EL_PATCH;
        if (sum < best) {
            best = sum;
            *quarter_turns = q;
            *outliers = (double)out / (EL_PATCH * EL_PATCH);
        }
    }
    return best;
}

/* ---- stacks ---- */

/* The squared distance from seen to expected under some shade: a piece's or a hand's soft
 * shadow darkens what lies under it without making it a piece. */
static float shadowed_distance(const float seen[3], const float expected[3])
{
    float dot = seen[0] * expected[0] + seen[1] * expected[1] + seen[2] * expected[2];
    float norm = expected[0] * expected[0] + expected[1] * expected[1] + expected[2] * expected[2];
    float k = norm > 1e-6f ? dot / norm : 1.0f;
    k = k < 0.45f ? 0.45f : k > 1.1f ? 1.1f : k;
    float d = 0.0f;
    for (int c = 0; c < 3; c++)
        d += (seen[c] - k * expected[c]) * (seen[c] - k * expected[c]);
    return d;
}

/* Whether the table point looks unlike what the scenery puts there: 1 yes, 0 no, -1 cannot
 * say (between the art's span and the tile's edge, or off the grid). */
static int unlike_scenery(const vision_image *frame, const vision_registration *registration,
                          const el_balance *balance, const el_scenery *scenery, double x,
                          double y)
{
    int row, col;
    double u, v;
    el_grid_locate(scenery->grid, x, y, &row, &col, &u, &v);
    float seen[3];
    el_sample(frame, registration, balance, x, y, 0.0, seen);
    const float *expected;
    if (row < 0 || col < 0 || row >= scenery->grid->rows || col >= scenery->grid->cols)
        return -1;
    double span = EL_PATCH_SPAN * scenery->mat->tile_mm / scenery->grid->pitch_mm / 2.0;
    if (scenery->grid->tile[row][col]) {
        if (!scenery->art[row][col] || fabs(u) >= span || fabs(v) >= span)
            return -1;
        int px = (int)((u / span + 1.0) / 2.0 * EL_PATCH), py = (int)((v / span + 1.0) / 2.0 * EL_PATCH);
        px = px < 0 ? 0 : px >= EL_PATCH ? EL_PATCH - 1 : px;
        py = py < 0 ? 0 : py >= EL_PATCH ? EL_PATCH - 1 : py;
        expected = el_patch_turned(scenery->art[row][col], scenery->turns[row][col], px, py);
        return shadowed_distance(seen, expected) > EL_OUTLIER * EL_OUTLIER;
    }
    return shadowed_distance(seen, scenery->mat_colour) > MAT_DISTANCE * MAT_DISTANCE;
}

void el_stack_measure(const vision_image *frame, const vision_registration *registration,
                      const el_balance *balance, const el_scenery *scenery, int row, int col,
                      double piece_radius_mm, double max_height_mm, el_stack *stack)
{
    memset(stack, 0, sizeof *stack);
    const el_grid *grid = scenery->grid;
    double foot[2] = {registration->camera_mm[0], registration->camera_mm[1]};
    double camera_height = registration->camera_mm[2];
    double tx, ty;
    el_grid_centre(grid, row, col, &tx, &ty);

    /* 1. The outliers on the tile itself, in the radial frame of the camera's foot. */
    double ex = tx - foot[0], ey = ty - foot[1], distance = sqrt(ex * ex + ey * ey);
    if (distance < 1.0) {
        ex = 0.0;
        ey = 1.0;
    } else {
        ex /= distance;
        ey /= distance;
    }
    enum { SIDE = 28 };
    double step = grid->pitch_mm / SIDE;
    double cu = cos(grid->angle), su = sin(grid->angle);
    double near = INFINITY;
    double lateral[SIDE * SIDE];
    double radial[SIDE * SIDE];
    int count = 0;
    for (int y = 0; y < SIDE; y++)
        for (int x = 0; x < SIDE; x++) {
            double du = (x + 0.5 - SIDE / 2.0) * step, dv = (y + 0.5 - SIDE / 2.0) * step;
            double px = tx + du * cu - dv * su, py = ty + du * su + dv * cu;
            if (unlike_scenery(frame, registration, balance, scenery, px, py) != 1)
                continue;
            radial[count] = (px - foot[0]) * ex + (py - foot[1]) * ey;
            lateral[count] = -(px - foot[0]) * ey + (py - foot[1]) * ex;
            count++;
        }
    stack->outliers = count;
    if (count < 6)
        return;
    /* The foot's line: the median lateral offset; its near edge: the nearest outlier on it. */
    double sorted[SIDE * SIDE];
    memcpy(sorted, lateral, sizeof(double) * (size_t)count);
    for (int i = 1; i < count; i++) /* insertion sort: a few hundred values at most */
        for (int j = i; j > 0 && sorted[j - 1] > sorted[j]; j--) {
            double t = sorted[j];
            sorted[j] = sorted[j - 1];
            sorted[j - 1] = t;
        }
    double line = sorted[count / 2];
    int on_line = 0;
    for (int i = 0; i < count; i++)
        if (fabs(lateral[i] - line) <= piece_radius_mm) {
            on_line++;
            if (radial[i] < near)
                near = radial[i];
        }
    if (on_line < 4)
        return;
    near -= step / 2.0;
    double base_radial = near + piece_radius_mm;
    stack->base_mm[0] = foot[0] + base_radial * ex - line * ey;
    stack->base_mm[1] = foot[1] + base_radial * ey + line * ex;

    /* 2. Along the line from the foot through the base, away from the camera: how far do the
     * outliers run? Re-aimed through the base, since the image of a stack leans exactly away
     * from the camera's foot. */
    ex = stack->base_mm[0] - foot[0];
    ey = stack->base_mm[1] - foot[1];
    distance = sqrt(ex * ex + ey * ey);
    if (distance < 1.0) {
        stack->found = true;
        stack->reach_mm = near + 2.0 * piece_radius_mm;
        stack->base_reach_mm = near;
        stack->width_mm = 2.0 * piece_radius_mm;
        return;
    }
    ex /= distance;
    ey /= distance;
    double top_radius = piece_radius_mm * camera_height / (camera_height - max_height_mm);
    double longest = (near + 2.0 * piece_radius_mm) * camera_height /
                         (camera_height - max_height_mm) - near + 3.0;
    double half_width = top_radius * 0.8;
    double last = near;
    int misses = 0;
    bool ran_out = true;
    for (double r = near + 0.5; r <= near + longest; r += 1.0) {
        int unlike = 0, known = 0;
        for (double l = -half_width; l <= half_width + 1e-9; l += 1.0) {
            double px = foot[0] + r * ex - l * ey, py = foot[1] + r * ey + l * ex;
            int verdict = unlike_scenery(frame, registration, balance, scenery, px, py);
            if (verdict < 0)
                continue;
            known++;
            unlike += verdict;
        }
        if (known == 0 || unlike * 3 >= known) {
            if (known)
                last = r + 0.5;
            misses = 0;
        } else if (++misses >= 2) {
            ran_out = false;
            break;
        }
    }
    stack->found = true;
    stack->blocked = ran_out;
    stack->reach_mm = last;
    stack->base_reach_mm = near;
    stack->width_mm = 2.0 * half_width;
}

double el_stack_height(const vision_registration *registration, const el_stack *stack,
                       double piece_radius_mm)
{
    double camera_height = registration->camera_mm[2];
    /* The top face's far edge reaches (near + 2 r) H / (H - z) from the camera's foot. */
    double reach = stack->reach_mm;
    double base = stack->base_reach_mm + 2.0 * piece_radius_mm;
    if (reach <= base || base <= 0.0)
        return 0.0;
    return camera_height * (1.0 - base / reach);
}

void el_stack_top_colour(const vision_image *frame, const vision_registration *registration,
                         const el_balance *balance, const el_stack *stack,
                         double piece_radius_mm, double height_mm, float colour[3])
{
    enum { SAMPLES = 19 };
    float values[SAMPLES * 3];
    int count = 0;
    double reach = piece_radius_mm * 0.55;
    for (int ring = 0; ring < 3; ring++) {
        int points = ring == 0 ? 1 : ring == 1 ? 6 : 12;
        for (int i = 0; i < points && count < SAMPLES; i++) {
            double a = 2.0 * PI * i / points, d = reach * ring / 2.0;
            el_sample(frame, registration, balance, stack->base_mm[0] + d * cos(a),
                      stack->base_mm[1] + d * sin(a), height_mm, values + 3 * count++);
        }
    }
    median_colour(values, count, colour);
}
