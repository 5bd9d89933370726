/*
 * Stacks of adventurers, read as the capsules their images make on the table (el_internal.h).
 *
 * A stack seen from a camera at height H above the table point n (the camera's foot) covers,
 * on the table seen from above, every disc of its height z: centred at foot + z / (H - z) *
 * (foot - n), of radius r H / (H - z). From its foot to its top that is a capsule leaning away
 * from n, as long as the stack is high times how far from n it stands. So the fit looks for
 * the foot and height whose capsule holds the most that looks like a piece and the least that
 * looks like the tiles' art or the mat; the top's colour is read where the capsule ends.
 * Near the camera's foot a piece leans its image less than a millimetre and the height cannot
 * be read from the image: lean_mm says so.
 *
 * A stack's shadow tells its height too. A far light moves a point's shadow on the table by
 * the same shadow_per_mm for each millimetre it stands higher, all over the picture, so it is
 * found once from the stacks whose images lean (el_evidence_find_light); every stack is then
 * fitted again with its shadow, the band from its foot's disc to its top's moved along the
 * light, asked to lie where the scenery is seen darkened and not where it is seen lit. Where
 * neither the image nor the shadow moves enough a piece, the recogniser answers unknown.
 */
#include "el_internal.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NOT_YET (-2)
#define PIECE_LIKELIER 0.3f /* a piece's colour this much nearer than the scenery's is a piece,
                             if it is near a piece's at all (EL_PIECE_LIKE); nearer a piece's
                             than the scenery's, but not that much: cannot say */
#define TOP_DARKEST 0.55f   /* a piece's top is lit this much as taught, at the least, */
#define BRIGHTEST 1.25f     /* and this much at the most; */
#define SIDE_DARKEST 0.4f   /* a side turned from a high light, this much at the least */
#define EDGE_SHARE 0.2f     /* a colour between a piece's and the art's, at least this share of
                             either, is a blurred edge of the stack's image ... */
#define EDGE_FIT 0.5f       /* ... when that blend's squared distance is at most this share of
                             either alone's, */
#define EDGE_NEAR 0.25f     /* and this near (EL_OUTLIER² units): it cannot say */
#define PIECE_WEIGHT 0.8    /* a pixel like a piece counts this much in a capsule, one like the
                             scenery 1: blurred edges and shadows pass for a piece more often
                             than a piece for the scenery, and a capsule too long gained them */
#define LIT_DARKEST 0.8f    /* the scenery lit as the tile's art match says: 0.8 to 1.15 as */
#define LIT_BRIGHTEST 1.15f /* bright; */
#define SHADE_DARKEST 0.3f  /* in a shadow: 0.3 to 0.7 (between, a shadow's soft edge); a */
#define SHADE_BRIGHTEST 0.7f /* colour is either when that light fits it near enough and */
#define SHADE_MARGIN 0.5f   /* this much better than the other's */
#define SHADOW_WEIGHT 1.0   /* a pixel of a capsule's shadow darkened, or lit, counts this much */
#define LIGHT_STEPS 24      /* the light's directions tried, around */
#define LIGHT_LONGEST 1.8   /* a shadow at most this long per mm of height (a light 30 degrees
                               high), */
#define LIGHT_SHORTEST 0.15 /* at least this long (a light 80 degrees high: shorter, the shadow
                               hides under the stack's own image and tells nothing) */
#define LIGHT_LENGTHS 8
#define LIGHT_STACKS 48     /* the light is found from the shadows of this many stacks at most */
#define COARSE_MM 4.0       /* the feet tried first over the tile; then around the best, */
#define FINE_MM 0.5         /* at half the step each time down to this */

vision_status el_evidence_init(el_evidence *evidence, const el_table *table,
                               const el_scenery *scenery, const vision_el_model *model)
{
    memset(evidence, 0, sizeof *evidence);
    evidence->table = table;
    evidence->scenery = scenery;
    evidence->model = model;
    size_t pixels = (size_t)table->width * (size_t)table->height;
    size_t sums = (size_t)(table->width + 1) * (size_t)table->height;
    evidence->value = malloc(pixels);
    evidence->piece_sum = malloc(sums * sizeof *evidence->piece_sum);
    evidence->scenery_sum = malloc(sums * sizeof *evidence->scenery_sum);
    evidence->row_stale = malloc((size_t)table->height);
    evidence->shade = malloc(pixels);
    evidence->shade_sum = malloc(sums * sizeof *evidence->shade_sum);
    evidence->looked = malloc(pixels);
    evidence->looked_shade = malloc(pixels);
    if (!evidence->value || !evidence->piece_sum || !evidence->scenery_sum ||
        !evidence->row_stale || !evidence->shade || !evidence->shade_sum || !evidence->looked ||
        !evidence->looked_shade) {
        el_evidence_free(evidence);
        return VISION_NOMEM;
    }
    memset(evidence->looked, NOT_YET, pixels);
    memset(evidence->looked_shade, -1, pixels);
    el_evidence_forget(evidence);
    return VISION_OK;
}

void el_evidence_free(el_evidence *evidence)
{
    free(evidence->value);
    free(evidence->piece_sum);
    free(evidence->scenery_sum);
    free(evidence->row_stale);
    free(evidence->shade);
    free(evidence->shade_sum);
    free(evidence->looked);
    free(evidence->looked_shade);
    evidence->value = evidence->shade = evidence->looked = evidence->looked_shade = NULL;
    evidence->piece_sum = evidence->scenery_sum = evidence->shade_sum = NULL;
    evidence->row_stale = NULL;
}

void el_evidence_forget(el_evidence *evidence)
{
    size_t pixels = (size_t)evidence->table->width * (size_t)evidence->table->height;
    memcpy(evidence->value, evidence->looked, pixels);
    memcpy(evidence->shade, evidence->looked_shade, pixels);
    memset(evidence->row_stale, 1, (size_t)evidence->table->height);
}

/* The squared distances (EL_OUTLIER² units) from seen to the nearest piece colour lit as a
 * top may be (TOP_DARKEST to BRIGHTEST times as bright as taught), and as a side may be
 * (SIDE_DARKEST to BRIGHTEST); side may be NULL. */
static float piece_distances(const vision_el_model *model, const float seen[3], float *side)
{
    float top = INFINITY, any = INFINITY;
    for (int i = 0; i < model->colour_count; i++) {
        float d = el_shaded_distance(seen, model->colour_mean[i], TOP_DARKEST, BRIGHTEST);
        top = d < top ? d : top;
        if (side) {
            d = el_shaded_distance(seen, model->colour_mean[i], SIDE_DARKEST, BRIGHTEST);
            any = d < any ? d : any;
        }
    }
    if (side)
        *side = any / (EL_OUTLIER * EL_OUTLIER);
    return top / (EL_OUTLIER * EL_OUTLIER);
}

float el_piece_distance(const vision_el_model *model, const float seen[3])
{
    return piece_distances(model, seen, NULL);
}

/* Whether seen is a blend of a piece's colour and the art's expected there (a stack's edge,
 * blurred by the lens and the image's compression) fitting much better than either alone,
 * whose distance is pure: such a pixel says neither, and counted as either it lengthens the
 * capsule of a bright piece and shortens that of a dull one. */
static bool blurred_edge(const vision_el_model *model, const float seen[3],
                         const float expected[3], float pure)
{
    for (int i = 0; i < model->colour_count; i++) {
        const float *piece = model->colour_mean[i];
        float span[3], off[3], span2 = 0.0f, along = 0.0f;
        for (int c = 0; c < 3; c++) {
            span[c] = piece[c] - expected[c];
            off[c] = seen[c] - expected[c];
            span2 += span[c] * span[c];
            along += span[c] * off[c];
        }
        if (span2 < 1e-6f)
            continue;
        float share = along / span2; /* of the piece in the blend */
        if (share < EDGE_SHARE || share > 1.0f - EDGE_SHARE)
            continue;
        float residual = 0.0f;
        for (int c = 0; c < 3; c++)
            residual += (off[c] - share * span[c]) * (off[c] - share * span[c]);
        residual /= EL_OUTLIER * EL_OUTLIER;
        if (residual < EDGE_NEAR && residual < EDGE_FIT * pure)
            return true;
    }
    return false;
}

/* How pixel (x, y), within the table, looks: *value and its shade. */
static void work_out(el_evidence *evidence, int x, int y, signed char *value)
{
    const el_table *table = evidence->table;
    const float *seen = table->colour + ((size_t)y * (size_t)table->width + (size_t)x) * 3;
    float distance, expected[3];
    const vision_el_model *model = evidence->model;
    evidence->row_stale[y] = 1; /* the row's running counts must take it */
    if (!el_scenery_distance(evidence->scenery, x + 0.5, y + 0.5, seen, &distance, expected)) {
        *value = -1;
        return;
    }
    /* lit as the scenery is, or darkened: a shadow */
    float lit = el_shaded_distance(seen, expected, LIT_DARKEST, LIT_BRIGHTEST);
    float dark = el_shaded_distance(seen, expected, SHADE_DARKEST, SHADE_BRIGHTEST);
    float near = EL_OUTLIER * EL_OUTLIER;
    evidence->shade[(size_t)y * (size_t)table->width + (size_t)x] =
        dark < near && dark < SHADE_MARGIN * lit  ? 1
        : lit < near && lit < SHADE_MARGIN * dark ? 0
                                                  : -1;
    if (!model || model->colour_count == 0) {
        *value = distance > 1.0f;
        return;
    }
    float piece, top = piece_distances(model, seen, &piece);
    if (distance > 1.0f)
        *value = 1;
    else if (piece < EL_PIECE_LIKE && piece < PIECE_LIKELIER * distance)
        *value = 1;
    else if (piece < EL_PIECE_LIKE && piece < distance)
        *value = -1;
    else
        *value = 0;
    /* a blend must explain it better than the art or a piece's top alone */
    if (*value >= 0 && blurred_edge(model, seen, expected, fminf(distance, top)))
        *value = -1;
    if (*value == 1) /* a piece, whatever the scenery darkened looks like */
        evidence->shade[(size_t)y * (size_t)table->width + (size_t)x] = -1;
}

int el_evidence_at(el_evidence *evidence, int x, int y)
{
    const el_table *table = evidence->table;
    if (x < 0 || y < 0 || x >= table->width || y >= table->height)
        return -1;
    size_t at = (size_t)y * (size_t)table->width + (size_t)x;
    if (evidence->value[at] != NOT_YET)
        return evidence->value[at];
    work_out(evidence, x, y, &evidence->value[at]);
    evidence->looked[at] = evidence->value[at];
    evidence->looked_shade[at] = evidence->shade[at];
    return evidence->value[at];
}

/* Where a point of the stack at height z appears on the table, and how wide its disc is. */
static void seen_at(const vision_registration *registration, const double foot[2], double z,
                    double radius, double centre[2], double *seen_radius)
{
    double camera_height = registration->camera_mm[2];
    double k = z / (camera_height - z);
    centre[0] = foot[0] + k * (foot[0] - registration->camera_mm[0]);
    centre[1] = foot[1] + k * (foot[1] - registration->camera_mm[1]);
    *seen_radius = radius * camera_height / (camera_height - z);
}

/* A top's colour: the median over the inner part of its disc (its rim blurs into what lies
 * around it). */
static void disc_colour(const el_table *table, const double centre[2], double radius,
                        float colour[3])
{
    enum { MAX_TOP = 1024 };
    float values[MAX_TOP * 3];
    int count = 0;
    double reach = 0.6 * radius;
    for (int y = (int)floor(centre[1] - reach); y <= (int)ceil(centre[1] + reach); y++)
        for (int x = (int)floor(centre[0] - reach); x <= (int)ceil(centre[0] + reach); x++) {
            double dx = x + 0.5 - centre[0], dy = y + 0.5 - centre[1];
            if (dx * dx + dy * dy > reach * reach || x < 0 || y < 0 || x >= table->width ||
                y >= table->height || count == MAX_TOP)
                continue;
            memcpy(values + 3 * count++,
                   table->colour + ((size_t)y * (size_t)table->width + (size_t)x) * 3,
                   3 * sizeof(float));
        }
    el_median_colour(values, count, colour);
}

/* The hull of two discs (every disc between them lies in it: a disc's centre and radius are
 * both linear in z / (H - z)). */
typedef struct capsule {
    double from[2], to[2]; /* the foot's and the top's disc centres */
    double from_radius, to_radius;
    bool band;             /* false when one disc holds the other */
    /* The band between the discs' outer tangents: tangent i runs over rows [low[i], high[i]],
     * at x = x0[i] + (y - low[i]) * slope[i] (from x0[i] to x1[i] when it lies along a row).
     * The band's other two sides are chords of the discs and widen no row beyond them. */
    double low[2], high[2], x0[2], x1[2], slope[2];
} capsule;

static capsule capsule_make(const double from[2], double from_radius, const double to[2],
                            double to_radius)
{
    capsule c = {{from[0], from[1]}, {to[0], to[1]}, from_radius, to_radius, false,
                 {0}, {0}, {0}, {0}, {0}};
    double ux = to[0] - from[0], uy = to[1] - from[1], d = hypot(ux, uy);
    c.band = d > fabs(from_radius - to_radius) + 1e-9;
    if (!c.band)
        return c;
    ux /= d;
    uy /= d;
    /* An outer tangent's normal m has m.u = (r0 - r1) / d; it touches each disc at its
     * centre + radius m. */
    double a = (from_radius - to_radius) / d, b = sqrt(1.0 - a * a);
    for (int side = 0; side < 2; side++) {
        double sign = side ? -1.0 : 1.0;
        double mx = a * ux - sign * b * uy, my = a * uy + sign * b * ux;
        double p[2] = {from[0] + from_radius * mx, from[1] + from_radius * my};
        double q[2] = {to[0] + to_radius * mx, to[1] + to_radius * my};
        if (p[1] > q[1]) { /* from its lower row */
            double t[2] = {p[0], p[1]};
            memcpy(p, q, sizeof p);
            memcpy(q, t, sizeof q);
        }
        c.low[side] = p[1];
        c.high[side] = q[1];
        c.x0[side] = p[0];
        c.x1[side] = q[0];
        c.slope[side] = q[1] > p[1] ? (q[0] - p[0]) / (q[1] - p[1]) : 0.0;
    }
    return c;
}

static capsule capsule_of(const vision_registration *registration, const double foot[2],
                          double radius, double top_z)
{
    double from[2], to[2], from_radius, to_radius;
    seen_at(registration, foot, EL_TILE_THICKNESS_MM, radius, from, &from_radius);
    seen_at(registration, foot, top_z, radius, to, &to_radius);
    return capsule_make(from, from_radius, to, to_radius);
}

/* The table pixels around the capsule: [x0, x1] x [y0, y1]. */
static void capsule_bounds(const capsule *c, int *x0, int *x1, int *y0, int *y1)
{
    double reach = fmax(c->from_radius, c->to_radius);
    *x0 = (int)floor(fmin(c->from[0], c->to[0]) - reach);
    *x1 = (int)ceil(fmax(c->from[0], c->to[0]) + reach);
    *y0 = (int)floor(fmin(c->from[1], c->to[1]) - reach);
    *y1 = (int)ceil(fmax(c->from[1], c->to[1]) + reach);
}

/*
 * The pixels of table row y whose centres the capsule covers: [*from, *to], within the table;
 * false when there are none. A row crosses the hull in one run: where it crosses the two discs
 * and the band. Scores then cost a row's run, not its pixels.
 */
static bool capsule_row(const capsule *c, int y, int width, int *from, int *to)
{
    /* (ternaries, not fmin and fmax: this runs for every row of every capsule tried) */
    double line = y + 0.5, low = INFINITY, high = -INFINITY;
    const double *centre[2] = {c->from, c->to}, radius[2] = {c->from_radius, c->to_radius};
    for (int i = 0; i < 2; i++) {
        double dy = line - centre[i][1];
        if (fabs(dy) <= radius[i]) {
            double half = sqrt(radius[i] * radius[i] - dy * dy);
            double a = centre[i][0] - half, b = centre[i][0] + half;
            low = a < low ? a : low;
            high = b > high ? b : high;
        }
    }
    for (int i = 0; c->band && i < 2; i++) {
        if (line < c->low[i] || line > c->high[i])
            continue;
        double a, b;
        if (c->low[i] == c->high[i]) { /* the tangent lies along the row */
            a = c->x0[i] < c->x1[i] ? c->x0[i] : c->x1[i];
            b = c->x0[i] < c->x1[i] ? c->x1[i] : c->x0[i];
        } else {
            a = b = c->x0[i] + (line - c->low[i]) * c->slope[i];
        }
        low = a < low ? a : low;
        high = b > high ? b : high;
    }
    if (low > high)
        return false;
    /* the pixels whose centres lie within: from ceil(low - 0.5) to floor(high - 0.5), within
     * the row (clamped first, so that truncation floors) */
    double start = low - 0.5, end = high - 0.5;
    if (end < 0.0 || start > width - 1)
        return false;
    start = start < 0.0 ? 0.0 : start;
    end = end > width - 1 ? width - 1 : end;
    int first = (int)start, last = (int)end;
    first += first < start;
    if (first > last)
        return false;
    *from = first;
    *to = last;
    return true;
}

/* A capsule's pixels row by row, worked out once for every score that reads them: on row
 * y0 + i, [from[i], to[i]], none where from[i] > to[i]. A stack's image or shadow spans far
 * fewer than ROWS_MAX rows (five pieces, a light 30 degrees high: under 120 mm); rows beyond
 * are left out. */
#define ROWS_MAX 512
typedef struct capsule_rows {
    int y0, count;
    int from[ROWS_MAX], to[ROWS_MAX];
} capsule_rows;

static void capsule_rows_of(const capsule *c, const el_table *table, capsule_rows *rows)
{
    int x0, x1, y0, y1;
    capsule_bounds(c, &x0, &x1, &y0, &y1);
    y0 = y0 < 0 ? 0 : y0;
    y1 = y1 >= table->height ? table->height - 1 : y1;
    rows->y0 = y0;
    rows->count = y1 < y0 ? 0 : y1 - y0 + 1 > ROWS_MAX ? ROWS_MAX : y1 - y0 + 1;
    for (int i = 0; i < rows->count; i++)
        if (!capsule_row(c, y0 + i, table->width, &rows->from[i], &rows->to[i])) {
            rows->from[i] = 1;
            rows->to[i] = 0;
        }
}

/* Works out the evidence over [x0, x1] x [y0, y1] (clipped to the table) and brings the rows'
 * running counts up to date, so that capsule_score can read any capsule within. */
static void evidence_prepare(el_evidence *evidence, int x0, int x1, int y0, int y1)
{
    const el_table *table = evidence->table;
    int width = table->width;
    x0 = x0 < 0 ? 0 : x0;
    x1 = x1 >= width ? width - 1 : x1;
    y0 = y0 < 0 ? 0 : y0;
    y1 = y1 >= table->height ? table->height - 1 : y1;
    for (int y = y0; y <= y1; y++) {
        const signed char *value = evidence->value + (size_t)y * (size_t)width;
        for (int x = x0; x <= x1; x++)
            if (value[x] == NOT_YET)
                el_evidence_at(evidence, x, y);
        if (!evidence->row_stale[y])
            continue;
        int32_t *piece = evidence->piece_sum + (size_t)y * (size_t)(width + 1);
        int32_t *scenery = evidence->scenery_sum + (size_t)y * (size_t)(width + 1);
        int32_t *shaded = evidence->shade_sum + (size_t)y * (size_t)(width + 1);
        const signed char *shade = evidence->shade + (size_t)y * (size_t)width;
        piece[0] = scenery[0] = shaded[0] = 0;
        for (int x = 0; x < width; x++) {
            piece[x + 1] = piece[x] + (value[x] == 1);
            scenery[x + 1] = scenery[x] + (value[x] == 0);
            shaded[x + 1] = shaded[x] + (shade[x] == 1) - (shade[x] == 0);
        }
        evidence->row_stale[y] = 0;
    }
}

/* The capsule's pixels: PIECE_WEIGHT each that looks like a piece, -1 each that looks like the
 * scenery. *piece and *scenery count them. The evidence must be prepared over the capsule. */
static double capsule_score(const el_evidence *evidence, const capsule_rows *c, int *piece,
                            int *scenery)
{
    size_t stride = (size_t)evidence->table->width + 1;
    int yes = 0, no = 0;
    for (int i = 0; i < c->count; i++) {
        int from = c->from[i], to = c->to[i];
        if (from > to)
            continue;
        size_t y = (size_t)(c->y0 + i);
        const int32_t *p = evidence->piece_sum + y * stride;
        const int32_t *s = evidence->scenery_sum + y * stride;
        yes += p[to + 1] - p[from];
        no += s[to + 1] - s[from];
    }
    *piece = yes;
    *scenery = no;
    return PIECE_WEIGHT * yes - no;
}

/* The shadow on the tiles of a stack standing at foot, its top at top_z, when a point's
 * shadow moves per_mm for each mm it stands higher: the band from its foot's disc to its
 * top's, moved along the light (a far light: the discs keep their size). */
static capsule shadow_of(const vision_registration *registration, const double per_mm[2],
                         const double foot[2], double radius, double top_z)
{
    double rise = top_z - EL_TILE_THICKNESS_MM;
    double tip[2] = {foot[0] + rise * per_mm[0], foot[1] + rise * per_mm[1]};
    double from[2], to[2], from_radius, to_radius;
    seen_at(registration, foot, EL_TILE_THICKNESS_MM, radius, from, &from_radius);
    seen_at(registration, tip, EL_TILE_THICKNESS_MM, radius, to, &to_radius);
    return capsule_make(from, from_radius, to, to_radius);
}

/* The pixels of the shadow outside the stack's own image (which hides it): darkened ones
 * less lit ones; *pixels counts them all. The evidence must be prepared over the shadow. */
static double shadow_score(const el_evidence *evidence, const capsule *shadow,
                           const capsule_rows *stack, int *pixels)
{
    const el_table *table = evidence->table;
    size_t stride = (size_t)table->width + 1;
    int x0, x1, y0, y1, total = 0, count = 0;
    capsule_bounds(shadow, &x0, &x1, &y0, &y1);
    for (int y = y0 < 0 ? 0 : y0; y <= y1 && y < table->height; y++) {
        int from, to, at = y - stack->y0;
        if (!capsule_row(shadow, y, table->width, &from, &to))
            continue;
        const int32_t *sum = evidence->shade_sum + (size_t)y * stride;
        int c0 = at >= 0 && at < stack->count ? stack->from[at] : 1;
        int c1 = at >= 0 && at < stack->count ? stack->to[at] : 0;
        if (c0 <= c1 && c0 <= to && c1 >= from) {
            if (c0 > from) {
                total += sum[c0] - sum[from];
                count += c0 - from;
            }
            if (c1 < to) {
                total += sum[to + 1] - sum[c1 + 1];
                count += to - c1;
            }
        } else {
            total += sum[to + 1] - sum[from];
            count += to - from + 1;
        }
    }
    *pixels = count;
    return total;
}

/* Grows box to take in the capsule's bounds. */
static void box_add(el_box *box, const capsule *c)
{
    int x0, x1, y0, y1;
    capsule_bounds(c, &x0, &x1, &y0, &y1);
    box->x0 = x0 < box->x0 ? x0 : box->x0;
    box->x1 = x1 > box->x1 ? x1 : box->x1;
    box->y0 = y0 < box->y0 ? y0 : box->y0;
    box->y1 = y1 > box->y1 ? y1 : box->y1;
}

static const el_box NO_BOX = {INT_MAX, INT_MIN, INT_MAX, INT_MIN};

/* A stack's score at foot (capsule_score), and its shadow's once the light is known;
 * *shadow_pixels (may be NULL) counts the shadow's pixels outside the image (0: no light), and
 * *darkened (may be NULL) is its shadow_score. */
static double stack_score(const el_evidence *evidence, const vision_registration *registration,
                          const double foot[2], double radius, double top_z, int *piece,
                          int *scenery, double *darkened, int *shadow_pixels, el_box *reach)
{
    capsule c = capsule_of(registration, foot, radius, top_z);
    capsule_rows rows;
    capsule_rows_of(&c, evidence->table, &rows);
    double score = capsule_score(evidence, &rows, piece, scenery), shade = 0.0;
    int pixels = 0;
    if (reach) {
        *reach = NO_BOX;
        box_add(reach, &c);
    }
    if (evidence->light_known) {
        capsule shadow = shadow_of(registration, evidence->shadow_per_mm, foot, radius, top_z);
        shade = shadow_score(evidence, &shadow, &rows, &pixels);
        score += SHADOW_WEIGHT * shade;
        if (reach)
            box_add(reach, &shadow);
    }
    if (darkened)
        *darkened = shade;
    if (shadow_pixels)
        *shadow_pixels = pixels;
    return score;
}


/* Sets what (the evidence's value or shade) to -1, cannot say, over the capsule, each pixel
 * worked out first so that the other of the two is kept. */
static void explain_capsule(el_evidence *evidence, const capsule *c, signed char *what)
{
    const el_table *table = evidence->table;
    int x0, x1, y0, y1;
    capsule_bounds(c, &x0, &x1, &y0, &y1);
    for (int y = y0 < 0 ? 0 : y0; y <= y1 && y < table->height; y++) {
        int from, to;
        if (!capsule_row(c, y, table->width, &from, &to))
            continue;
        for (int x = from; x <= to; x++)
            el_evidence_at(evidence, x, y);
        memset(what + (size_t)y * (size_t)table->width + (size_t)from, -1,
               (size_t)(to - from + 1));
        evidence->row_stale[y] = 1;
    }
}

#define FITTED_RIM_MM 1.0 /* a fitted stack's image and shadow reach this much further: their
                            blurred, soft edges */

/* The shadow of a stack of the fit's height standing at its foot, its soft edge included. */
static capsule fitted_shadow(const vision_registration *registration,
                             const double shadow_per_mm[2], const el_stack_fit *fit,
                             double radius_mm, double piece_mm)
{
    double top_z = EL_TILE_THICKNESS_MM + fit->height * piece_mm;
    return shadow_of(registration, shadow_per_mm, fit->foot_mm, radius_mm + FITTED_RIM_MM,
                     top_z);
}

void el_evidence_explain(el_evidence *evidence, const vision_registration *registration,
                         const el_stack_fit *fit, double radius_mm, double piece_mm,
                         el_box *changed)
{
    double top_z = EL_TILE_THICKNESS_MM + fit->height * piece_mm;
    capsule fitted = capsule_of(registration, fit->foot_mm, radius_mm, top_z);
    capsule c = capsule_make(fitted.from, fitted.from_radius + FITTED_RIM_MM, fitted.to,
                             fitted.to_radius + FITTED_RIM_MM);
    explain_capsule(evidence, &c, evidence->value);
    *changed = NO_BOX;
    box_add(changed, &c);
    if (evidence->light_known) { /* and its shadow: a neighbour's fit does not take it */
        capsule shadow = fitted_shadow(registration, evidence->shadow_per_mm, fit, radius_mm,
                                       piece_mm);
        explain_capsule(evidence, &shadow, evidence->shade);
        box_add(changed, &shadow);
    }
}

void el_mark_shadow(const vision_registration *registration, const double shadow_per_mm[2],
                    const el_stack_fit *fit, double radius_mm, double piece_mm,
                    const el_table *table, unsigned char *shaded)
{
    capsule shadow = fitted_shadow(registration, shadow_per_mm, fit, radius_mm, piece_mm);
    int x0, x1, y0, y1;
    capsule_bounds(&shadow, &x0, &x1, &y0, &y1);
    for (int y = y0 < 0 ? 0 : y0; y <= y1 && y < table->height; y++) {
        int from, to;
        if (capsule_row(&shadow, y, table->width, &from, &to))
            memset(shaded + (size_t)y * table->width + from, 1, (size_t)(to - from + 1));
    }
}

/* The best foot for one height: every COARSE_MM over the tile (a capsule's score changes
 * over its radius, more than COARSE_MM), then the eight feet around the best at half the step,
 * down to FINE_MM. memory (may be NULL): the coarse feet's scores, the last fit's (known) but
 * where changed reaches them, and kept for the next. */
static double best_foot(el_evidence *evidence, const vision_registration *registration,
                        const double centre[2], double room, double radius, double top_z,
                        el_foot_score *memory, bool known, const el_box *changed,
                        int *reused, double foot[2], int *piece, int *scenery)
{
    double best = -INFINITY;
    double around[2] = {centre[0], centre[1]};
    for (double step = COARSE_MM, reach = room; step >= FINE_MM - 1e-9;
         reach = step / 2, step /= 2) {
        double base[2] = {around[0], around[1]};
        int coarse = 0; /* the coarse feet in order */
        for (double dy = -reach; dy <= reach + 1e-9; dy += step)
            for (double dx = -reach; dx <= reach + 1e-9; dx += step) {
                double at[2] = {base[0] + dx, base[1] + dy};
                if (fabs(at[0] - centre[0]) > room + 1e-9 ||
                    fabs(at[1] - centre[1]) > room + 1e-9)
                    continue;
                if (step < COARSE_MM && dx == 0.0 && dy == 0.0 && best > -INFINITY)
                    continue; /* the best so far, scored already */
                el_foot_score *kept = step == COARSE_MM && memory ? &memory[coarse++] : NULL;
                int yes, no;
                double score;
                if (kept && known && !(changed && el_box_overlaps(&kept->reach, changed))) {
                    score = kept->score;
                    yes = kept->piece;
                    no = kept->scenery;
                    (*reused)++;
                } else {
                    score = stack_score(evidence, registration, at, radius, top_z, &yes, &no,
                                        NULL, NULL, kept ? &kept->reach : NULL);
                    if (kept) {
                        kept->score = score;
                        kept->piece = yes;
                        kept->scenery = no;
                    }
                }
                if (score > best) {
                    best = score;
                    around[0] = at[0];
                    around[1] = at[1];
                    *piece = yes;
                    *scenery = no;
                }
            }
    }
    foot[0] = around[0];
    foot[1] = around[1];
    return best;
}

/* The coarse feet best_foot tries in a room: per axis, -room to room every COARSE_MM. */
static int coarse_feet(double room)
{
    int per_axis = 0;
    for (double d = -room; d <= room + 1e-9; d += COARSE_MM)
        per_axis++;
    return per_axis * per_axis;
}

void el_fit_memory_free(el_fit_memory *memory)
{
    free(memory->feet);
    memset(memory, 0, sizeof *memory);
}

void el_stack_fit_tile(el_evidence *evidence, const vision_registration *registration, int row,
                       int col, double radius_mm, double piece_mm, int height, int most,
                       el_fit_memory *memory, const el_box *changed, el_stack_fit *fit)
{
    memset(fit, 0, sizeof *fit);
    const el_scenery *scenery = evidence->scenery;
    const el_grid *grid = scenery->grid;
    /* The tile's centre, where its art was found; the foot stays on the tile (the axes of the
     * table and the grid differ by a few degrees: the square search covers the tile). */
    double centre[2];
    el_art_centre(grid, row, col, scenery->match[row][col].shift_mm, &centre[0], &centre[1]);
    double room = fmax(1.0, scenery->mat->tile_mm / 2.0 - radius_mm);
    /* What this tile's last fit scored stands where changed does not reach, if that fit
     * searched the same room; without room to keep it, nothing is kept. */
    bool known = false;
    int reused = 0;
    if (memory) {
        int feet = coarse_feet(room);
        if (memory->per_height != feet || !memory->feet) {
            free(memory->feet);
            memory->feet = malloc(sizeof *memory->feet * (size_t)feet *
                                  (VISION_EL_STACK_MAX + 1));
            memory->per_height = memory->feet ? feet : 0;
            memory->valid = false;
        }
        known = memory->valid && changed;
        memory->valid = false; /* until every height below is scored */
        if (!memory->feet)
            memory = NULL;
    }

    /* Every height is scored, those beyond most too: the stack is the best within most, and
     * a taller one scoring better says the image is longer than any stack the tile may hold
     * (its height's confidence then says so). */
    int low = height > 0 ? height : 1, high = height > 0 ? height : VISION_EL_STACK_MAX;
    while (high > low && EL_TILE_THICKNESS_MM + high * piece_mm >= registration->camera_mm[2] * 0.9)
        high--;
    /* Every capsule tried lies within those of the highest stack at the room's corners. */
    fit->read = NO_BOX;
    for (int corner = 0; corner < 4; corner++) {
        double at[2] = {centre[0] + (corner & 1 ? room : -room),
                        centre[1] + (corner & 2 ? room : -room)};
        double top_z = EL_TILE_THICKNESS_MM + high * piece_mm;
        capsule c[2] = {capsule_of(registration, at, radius_mm, top_z),
                        shadow_of(registration, evidence->shadow_per_mm, at, radius_mm, top_z)};
        for (int i = 0; i < (evidence->light_known ? 2 : 1); i++)
            box_add(&fit->read, &c[i]);
    }
    evidence_prepare(evidence, fit->read.x0, fit->read.x1, fit->read.y0, fit->read.y1);
    double best = -INFINITY;
    int best_piece = 0, best_scenery = 0;
    for (int k = 1; k <= VISION_EL_STACK_MAX; k++)
        fit->score[k] = -INFINITY;
    for (int k = low; k <= high; k++) {
        double top_z = EL_TILE_THICKNESS_MM + k * piece_mm;
        if (top_z >= registration->camera_mm[2] * 0.9)
            break;
        double foot[2] = {centre[0], centre[1]};
        int piece = 0, other = 0;
        el_foot_score *kept = memory ? memory->feet + (size_t)k * (size_t)memory->per_height
                                     : NULL;
        fit->score[k] = best_foot(evidence, registration, centre, room, radius_mm, top_z, kept,
                                  known, changed, &reused, foot, &piece, &other);
        if (fit->score[k] > best && (height > 0 || k <= most)) {
            best = fit->score[k];
            fit->height = k;
            fit->foot_mm[0] = foot[0];
            fit->foot_mm[1] = foot[1];
            best_piece = piece;
            best_scenery = other;
        }
    }
    if (memory) {
        memory->valid = true;
        memory->reused = reused;
    }
    if (fit->height == 0 || best_piece + best_scenery == 0)
        return;
    fit->filled = (double)best_piece / (best_piece + best_scenery);
    double top_z = EL_TILE_THICKNESS_MM + fit->height * piece_mm;
    double next[2], next_radius;
    seen_at(registration, fit->foot_mm, top_z, radius_mm, fit->top_mm, &fit->top_radius_mm);
    seen_at(registration, fit->foot_mm, top_z + piece_mm, radius_mm, next, &next_radius);
    fit->lean_mm = hypot(next[0] - fit->top_mm[0], next[1] - fit->top_mm[1]);
    fit->piece_score = PIECE_WEIGHT * 2.0 * fit->top_radius_mm * fit->lean_mm;
    if (evidence->light_known) {
        int piece, scenery;
        double darkened;
        stack_score(evidence, registration, fit->foot_mm, radius_mm, top_z, &piece, &scenery,
                    &darkened, &fit->shadow_pixels, NULL);
        fit->shadow_darkened = fit->shadow_pixels ? darkened / fit->shadow_pixels : 0.0;
        fit->shadow_mm = piece_mm * hypot(evidence->shadow_per_mm[0], evidence->shadow_per_mm[1]);
        fit->piece_score += SHADOW_WEIGHT * 2.0 * radius_mm * fit->shadow_mm;
    }
    double base_area = PI * radius_mm * radius_mm;
    fit->found = fit->filled >= EL_STACK_FILLED && best_piece >= 0.5 * base_area;

    disc_colour(evidence->table, fit->top_mm, fit->top_radius_mm, fit->top_colour);
}

void el_stack_top_colour(const el_table *table, const vision_registration *registration,
                         const el_stack_fit *fit, int height, double radius_mm, double piece_mm,
                         float colour[3])
{
    double top[2], top_radius;
    seen_at(registration, fit->foot_mm, EL_TILE_THICKNESS_MM + height * piece_mm, radius_mm, top,
            &top_radius);
    disc_colour(table, top, top_radius, colour);
}

/* The heights tried for each stack while the light is searched for: the first fit's, and one
 * more or less (a stack read a piece too high or too low would make every shadow seem that
 * much shorter or longer a piece). */
#define LIGHT_HEIGHTS 3

/* The light being searched for, and the best found so far. */
typedef struct light_search {
    const el_evidence *evidence;
    const vision_registration *registration;
    const el_stack_fit *fits;
    const int *known; /* each fit's height as the game knows it (0: not known) */
    int count;
    double radius, piece;
    /* each fit's image at its heights (light_height) and its score */
    capsule_rows (*images)[LIGHT_HEIGHTS];
    double (*image_score)[LIGHT_HEIGHTS];
    double best, angle, length; /* the best light: its score, direction and shadow length, */
    double shadows;             /* how much more darkened than lit its shadows hold, */
    int pixels;                 /* in how many pixels */
} light_search;

/* A stack's height when it is tried as its fit's - 1 + j (0 where that is none): the height
 * the game knows (known, 0: none) alone when the fit is within a piece of it (further, the
 * stack changed since). */
static int light_height(const el_stack_fit *fit, int known, int j)
{
    if (known > 0 && abs(known - fit->height) <= 1)
        return j == 1 ? known : 0;
    int height = fit->height - 1 + j;
    return height >= 1 && height <= VISION_EL_STACK_MAX ? height : 0;
}

/* How well a light casting shadows per_mm explains the stacks: each at the height (of those
 * tried) whose image and shadow score best. */
static void try_light(light_search *search, double angle, double length)
{
    double per_mm[2] = {length * cos(angle), length * sin(angle)};
    double total = 0.0, shadows = 0.0;
    int pixels = 0;
    for (int i = 0; i < search->count; i++) {
        const el_stack_fit *fit = &search->fits[i];
        double best = -INFINITY, best_shadow = 0.0;
        int best_pixels = 0;
        for (int j = 0; j < LIGHT_HEIGHTS; j++) {
            int height = light_height(fit, search->known[i], j);
            if (height == 0)
                continue;
            capsule shadow = shadow_of(search->registration, per_mm, fit->foot_mm, search->radius,
                                       EL_TILE_THICKNESS_MM + height * search->piece);
            int n;
            double shade = shadow_score(search->evidence, &shadow, &search->images[i][j], &n);
            if (search->image_score[i][j] + shade > best) {
                best = search->image_score[i][j] + shade;
                best_shadow = shade;
                best_pixels = n;
            }
        }
        total += best;
        shadows += best_shadow;
        pixels += best_pixels;
    }
    if (total > search->best) {
        search->best = total;
        search->angle = angle;
        search->length = length;
        search->shadows = shadows;
        search->pixels = pixels;
    }
}

void el_evidence_find_light(el_evidence *evidence, const vision_registration *registration,
                            const el_stack_fit *fits, const int *known, int count,
                            double radius_mm, double piece_mm)
{
    evidence->light_known = false;
    /* The tallest stacks cast the longest shadows, which tell the light best. */
    el_stack_fit tallest[LIGHT_STACKS];
    int tallest_known[LIGHT_STACKS];
    int used = 0;
    for (int i = 0; i < count; i++) {
        int at = used < LIGHT_STACKS ? used++ : LIGHT_STACKS;
        while (at > 0 && tallest[at - 1].height < fits[i].height) {
            if (at < LIGHT_STACKS) {
                tallest[at] = tallest[at - 1];
                tallest_known[at] = tallest_known[at - 1];
            }
            at--;
        }
        if (at < LIGHT_STACKS) {
            tallest[at] = fits[i];
            tallest_known[at] = known ? known[i] : 0;
        }
    }
    light_search search = {evidence,  registration, tallest, tallest_known, used, radius_mm,
                           piece_mm,  NULL,         NULL,    -INFINITY,     0.0,  0.0,
                           0.0,       0};
    search.images = malloc((size_t)(used > 0 ? used : 1) * sizeof *search.images);
    search.image_score = malloc((size_t)(used > 0 ? used : 1) * sizeof *search.image_score);
    if (!search.images || !search.image_score) {
        free(search.images);
        free(search.image_score);
        return; /* the light unknown: the stacks are fitted without their shadows */
    }
    for (int i = 0; i < used; i++) {
        double reach = (tallest[i].height + 1) * piece_mm * (LIGHT_LONGEST + 1.0) +
                       2.0 * radius_mm + 2.0;
        evidence_prepare(evidence, (int)floor(tallest[i].foot_mm[0] - reach),
                         (int)ceil(tallest[i].foot_mm[0] + reach),
                         (int)floor(tallest[i].foot_mm[1] - reach),
                         (int)ceil(tallest[i].foot_mm[1] + reach));
        for (int j = 0; j < LIGHT_HEIGHTS; j++) {
            int height = light_height(&tallest[i], tallest_known[i], j);
            if (height == 0)
                continue;
            capsule c = capsule_of(registration, tallest[i].foot_mm, radius_mm,
                                   EL_TILE_THICKNESS_MM + height * piece_mm);
            capsule_rows_of(&c, evidence->table, &search.images[i][j]);
            int piece, scenery;
            search.image_score[i][j] =
                capsule_score(evidence, &search.images[i][j], &piece, &scenery);
        }
    }
    /* every direction and length on a coarse grid, then finer around the best */
    double ratio = pow(LIGHT_LONGEST / LIGHT_SHORTEST, 1.0 / (LIGHT_LENGTHS - 1));
    for (int a = 0; a < LIGHT_STEPS; a++)
        for (int l = 0; l < LIGHT_LENGTHS; l++)
            try_light(&search, 2.0 * PI * a / LIGHT_STEPS, LIGHT_SHORTEST * pow(ratio, l));
    double angle_step = 2.0 * PI / LIGHT_STEPS, length_step = ratio;
    for (int round = 0; round < 5; round++) {
        angle_step /= 2.0;
        length_step = sqrt(length_step);
        double angle = search.angle, length = search.length;
        for (int da = -1; da <= 1; da++)
            for (int dl = -1; dl <= 1; dl++) {
                double tried = length * pow(length_step, dl);
                if ((da || dl) && tried <= LIGHT_LONGEST + 1e-9 &&
                    tried >= LIGHT_SHORTEST - 1e-9)
                    try_light(&search, angle + da * angle_step, tried);
            }
    }
    free(search.images);
    free(search.image_score);
    /* the shadows must be plainly darker than what lies around them */
    if (search.pixels == 0 || search.shadows < EL_LIGHT_TELLS * search.pixels)
        return;
    evidence->light_known = true;
    evidence->shadow_per_mm[0] = search.length * cos(search.angle);
    evidence->shadow_per_mm[1] = search.length * sin(search.angle);
}
