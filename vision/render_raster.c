/* The renderer's rasteriser: convex polygons with exact-edge anti-aliasing, and convex hulls. */
#include "render_internal.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#define RASTER_EDGES_MAX 256

typedef struct raster_edges {
    int count;
    double a[RASTER_EDGES_MAX], b[RASTER_EDGES_MAX], c[RASTER_EDGES_MAX]; /* a x + b y + c */
    int x0, y0, x1, y1; /* the pixels that may be touched, inclusive */
} raster_edges;

/* The edges' lines with their normals pointing inside, so that each line's value at a point is
 * its distance inside that edge. False for a polygon with no area or too many edges. */
static bool raster_setup(const vision_point *points, int count, int width, int height,
                         raster_edges *edges)
{
    if (count < 3 || count > RASTER_EDGES_MAX)
        return false;
    double area = 0, cx = 0, cy = 0;
    double min_x = points[0].x, max_x = points[0].x, min_y = points[0].y, max_y = points[0].y;
    for (int i = 0; i < count; i++) {
        const vision_point *p = &points[i], *q = &points[(i + 1) % count];
        if (!isfinite(p->x) || !isfinite(p->y))
            return false;
        area += p->x * q->y - q->x * p->y;
        cx += p->x;
        cy += p->y;
        min_x = fmin(min_x, p->x);
        max_x = fmax(max_x, p->x);
        min_y = fmin(min_y, p->y);
        max_y = fmax(max_y, p->y);
    }
    if (fabs(area) < 1e-6)
        return false;
    cx /= count;
    cy /= count;
    edges->count = 0;
    for (int i = 0; i < count; i++) {
        const vision_point *p = &points[i], *q = &points[(i + 1) % count];
        double ex = q->x - p->x, ey = q->y - p->y, length = hypot(ex, ey);
        if (length < 1e-9)
            continue;
        double nx = -ey / length, ny = ex / length;
        if (nx * (cx - p->x) + ny * (cy - p->y) < 0) {
            nx = -nx;
            ny = -ny;
        }
        int k = edges->count++;
        edges->a[k] = nx;
        edges->b[k] = ny;
        edges->c[k] = -(nx * p->x + ny * p->y);
    }
    edges->x0 = (int)fmax(0, floor(min_x - 1));
    edges->y0 = (int)fmax(0, floor(min_y - 1));
    edges->x1 = (int)fmin(width - 1, ceil(max_x + 1));
    edges->y1 = (int)fmin(height - 1, ceil(max_y + 1));
    return edges->count >= 3 && edges->x0 <= edges->x1 && edges->y0 <= edges->y1;
}

/*
 * One row's pixels that may be covered, [*outer0, *outer1], and those fully inside,
 * [*inner0, *inner1] (empty when inner0 > inner1). False when the row misses the polygon.
 */
static bool raster_row(const raster_edges *edges, int y, int *outer0, int *outer1, int *inner0,
                       int *inner1)
{
    double lo = edges->x0, hi = edges->x1, inner_lo = lo, inner_hi = hi;
    for (int k = 0; k < edges->count; k++) {
        double a = edges->a[k], b = edges->b[k] * y + edges->c[k];
        if (fabs(a) < 1e-12) {
            if (b < -0.5)
                return false;
            if (b < 0.5)
                inner_hi = inner_lo - 1;
        } else if (a > 0) {
            lo = fmax(lo, (-0.5 - b) / a);
            inner_lo = fmax(inner_lo, (0.5 - b) / a);
        } else {
            hi = fmin(hi, (-0.5 - b) / a);
            inner_hi = fmin(inner_hi, (0.5 - b) / a);
        }
    }
    *outer0 = (int)ceil(lo);
    *outer1 = (int)floor(hi);
    *inner0 = (int)ceil(inner_lo);
    *inner1 = (int)floor(inner_hi);
    return *outer0 <= *outer1;
}

static double raster_cover(const raster_edges *edges, int x, int y)
{
    double nearest = 1.0;
    for (int k = 0; k < edges->count; k++) {
        double d = edges->a[k] * x + edges->b[k] * y + edges->c[k];
        if (d < nearest)
            nearest = d;
    }
    double cover = nearest + 0.5;
    return cover < 0 ? 0 : cover > 1 ? 1 : cover;
}

void render_raster_blend(vision_image *image, const vision_point *points, int count,
                         const double colour[3], double opacity)
{
    raster_edges edges;
    if (!raster_setup(points, count, image->width, image->height, &edges))
        return;
    int channels = image->channels;
    for (int y = edges.y0; y <= edges.y1; y++) {
        int x0, x1, inner0, inner1;
        if (!raster_row(&edges, y, &x0, &x1, &inner0, &inner1))
            continue;
        uint8_t *row = image->pixels + (size_t)y * (size_t)image->stride;
        for (int x = x0; x <= x1; x++) {
            double cover = x >= inner0 && x <= inner1 ? 1.0 : raster_cover(&edges, x, y);
            double weight = cover * opacity;
            if (weight <= 0)
                continue;
            uint8_t *p = row + (size_t)x * (size_t)channels;
            for (int c = 0; c < channels; c++) {
                double v = p[c] + (colour[c] - p[c]) * weight;
                p[c] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v + 0.5);
            }
        }
    }
}

void render_raster_mask(vision_image *mask, const vision_point *points, int count, uint8_t value)
{
    raster_edges edges;
    if (!raster_setup(points, count, mask->width, mask->height, &edges))
        return;
    for (int y = edges.y0; y <= edges.y1; y++) {
        int x0, x1, inner0, inner1;
        if (!raster_row(&edges, y, &x0, &x1, &inner0, &inner1))
            continue;
        uint8_t *row = mask->pixels + (size_t)y * (size_t)mask->stride;
        for (int x = x0; x <= x1; x++) {
            double cover = x >= inner0 && x <= inner1 ? 1.0 : raster_cover(&edges, x, y);
            uint8_t v = (uint8_t)(cover * value + 0.5);
            if (v > row[x])
                row[x] = v;
        }
    }
}

void render_raster_coverage(uint8_t *coverage, int x, int y, int width, int height,
                            const vision_point *points, int count)
{
    for (size_t i = 0; i < (size_t)width * (size_t)height; i++)
        coverage[i] = 0;
    vision_point shifted[RASTER_EDGES_MAX];
    if (count > RASTER_EDGES_MAX)
        return;
    for (int i = 0; i < count; i++) {
        shifted[i].x = points[i].x - x;
        shifted[i].y = points[i].y - y;
    }
    vision_image view = {width, height, width, 1, coverage, 0};
    render_raster_mask(&view, shifted, count, 255);
}

static int compare_points(const void *a, const void *b)
{
    const vision_point *p = a, *q = b;
    if (p->x != q->x)
        return p->x < q->x ? -1 : 1;
    return p->y < q->y ? -1 : p->y > q->y ? 1 : 0;
}

static double turn(vision_point o, vision_point a, vision_point b)
{
    return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
}

int render_convex_hull(vision_point *points, int count)
{
    if (count < 3)
        return count;
    qsort(points, (size_t)count, sizeof *points, compare_points);
    vision_point *hull = malloc(sizeof *hull * (size_t)(2 * count));
    if (!hull)
        return 0;
    int k = 0;
    for (int i = 0; i < count; i++) {
        while (k >= 2 && turn(hull[k - 2], hull[k - 1], points[i]) <= 0)
            k--;
        hull[k++] = points[i];
    }
    for (int i = count - 2, lower = k + 1; i >= 0; i--) {
        while (k >= lower && turn(hull[k - 2], hull[k - 1], points[i]) <= 0)
            k--;
        hull[k++] = points[i];
    }
    k--; /* the last point repeats the first */
    for (int i = 0; i < k; i++)
        points[i] = hull[i];
    free(hull);
    return k;
}
