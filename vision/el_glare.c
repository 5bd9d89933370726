/*
 * A lamp mirrored in the table (el_internal.h): a round spot that washes the colours under it
 * towards white. Where it lies, the tiles' art is matched at a fraction of its contrast and the
 * mat passes for a tile, so it is found and taken off before the table is read again.
 *
 * The white the spot adds is measured on a grid of GLARE_STEP mm: on the bare mat (a known
 * colour: seen = lit mat + w white, by least squares), and on each tile from its art's match
 * (a gain and an offset over the tile: the offset is w white). The spot is the round one
 * that explains those samples best: for each of a few spreads, its peak at every middle is
 * sum(w g) / sum(g^2), two Gaussian blurs of the grid; the best is then refined around.
 */
#include "el_internal.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define GLARE_STEP 8.0    /* mm between the samples */
#define GLARE_LEAST 0.2   /* the spot's white at its middle, at least, to be taken off (tiles'
                             offsets wander by about 0.1 without one; a weaker spot read again
                             changed nothing the seeing bench measures, at a second read's cost) */
#define GLARE_MOST 0.75   /* the most of a pixel taken for white */
#define GLARE_SEEN 0.25   /* the samples cover this share of a spot at least (of sum(g^2)): one
                             whose middle nothing shows is not guessed from its edge */
#define GREY_MAT 0.01     /* a mat whose colour and white are this near one direction (the
                             sine squared of their angle) is grey */
#define MAT_NEAR 0.08f    /* the mat under glare: this near lit mat plus white (balanced) */

/* seen = lit m + w white, by least squares: the squared distance left, INFINITY where the
 * mat is lit unlike any lamp. A grey mat's colour cannot tell a lamp's light from white: it
 * is taken as lit as taught (lit 1), all it gained white. */
static float glare_fit(const float seen[3], const float m[3], const float white[3], float *w_out)
{
    double mm = 0, mw = 0, ww = 0, sm = 0, sw = 0;
    for (int c = 0; c < 3; c++) {
        mm += m[c] * m[c];
        mw += m[c] * white[c];
        ww += white[c] * white[c];
        sm += seen[c] * m[c];
        sw += seen[c] * white[c];
    }
    double det = mm * ww - mw * mw, lit = 1.0, w;
    if (det >= GREY_MAT * mm * ww) {
        lit = (sm * ww - sw * mw) / det;
        w = (sw * mm - sm * mw) / det;
    } else { /* (seen - m) along (white - m) */
        double along = 0.0, span = 0.0;
        for (int c = 0; c < 3; c++) {
            along += (seen[c] - m[c]) * (white[c] - m[c]);
            span += (white[c] - m[c]) * (white[c] - m[c]);
        }
        w = span > 1e-9 ? along / span : 0.0;
    }
    if (lit < 0.3 || lit > 1.6)
        return INFINITY;
    float d = 0.0f;
    for (int c = 0; c < 3; c++) {
        float r = (float)(seen[c] - lit * m[c] - w * white[c]);
        d += r * r;
    }
    *w_out = (float)w;
    return d;
}

/* The bare mat's samples, in the cells whose weight is 0 (no tile near): the white each gained
 * (less what most of the mat gained: its colour a little off the taught one is no spot),
 * weight 1 where three quarters of the cell are mat. false when out of memory. */
static bool mat_samples(const el_table *table, const vision_mat *mat, const float mat_colour[3],
                        const float white[3], int gw, int gh, float *gained, float *weight)
{
    int step = (int)GLARE_STEP, blocks = 0;
    float *bare = malloc((size_t)gw * (size_t)gh * sizeof *bare);
    if (!bare)
        return false;
    for (int gy = 0; gy < gh; gy++)
        for (int gx = 0; gx < gw; gx++) {
            float sum = 0.0f;
            int count = 0;
            if (weight[(size_t)gy * (size_t)gw + (size_t)gx] != 0.0f)
                continue; /* a tile's */
            for (int y = gy * step; y < (gy + 1) * step; y++)
                for (int x = gx * step; x < (gx + 1) * step; x++) {
                    if (el_on_marker_paper(mat, x + 0.5, y + 0.5))
                        continue;
                    const float *p =
                        table->colour + ((size_t)y * (size_t)table->width + (size_t)x) * 3;
                    float w;
                    if (glare_fit(p, mat_colour, white, &w) > MAT_NEAR * MAT_NEAR)
                        continue;
                    sum += w;
                    count++;
                }
            size_t i = (size_t)gy * (size_t)gw + (size_t)gx;
            if (count * 4 >= 3 * step * step) {
                gained[i] = sum / (float)count;
                weight[i] = 1.0f;
                bare[blocks++] = gained[i];
            }
        }
    if (blocks > 0) {
        qsort(bare, (size_t)blocks, sizeof *bare, el_compare_floats);
        float baseline = bare[blocks / 2];
        for (size_t i = 0; i < (size_t)gw * (size_t)gh; i++)
            gained[i] -= weight[i] > 0.0f ? baseline : 0.0f;
    }
    free(bare);
    return true;
}

/* Sets the cells whose middles lie within half of (x, y), along both axes: weight to w, and
 * value to v where values is not NULL. */
static void for_cells(double x, double y, double half, int gw, int gh, float *weight, float w,
                      float *values, float v)
{
    int x0 = (int)ceil((x - half) / GLARE_STEP - 0.5);
    int x1 = (int)floor((x + half) / GLARE_STEP - 0.5);
    int y0 = (int)ceil((y - half) / GLARE_STEP - 0.5);
    int y1 = (int)floor((y + half) / GLARE_STEP - 0.5);
    for (int gy = y0 < 0 ? 0 : y0; gy <= y1 && gy < gh; gy++)
        for (int gx = x0 < 0 ? 0 : x0; gx <= x1 && gx < gw; gx++) {
            size_t i = (size_t)gy * (size_t)gw + (size_t)gx;
            weight[i] = w;
            if (values)
                values[i] = v;
        }
}

/* dst: src (gw x gh) summed along its rows (or columns) with weights kernel[|d|], |d| <=
 * reach. */
static void blur(const float *src, float *dst, int gw, int gh, bool rows, const double *kernel,
                 int reach)
{
    int length = rows ? gw : gh;
    size_t step = rows ? 1 : (size_t)gw;
    for (int gy = 0; gy < gh; gy++)
        for (int gx = 0; gx < gw; gx++) {
            int at = rows ? gx : gy;
            const float *middle = src + (size_t)gy * (size_t)gw + (size_t)gx;
            double sum = 0.0;
            for (int d = -reach; d <= reach; d++)
                if (at + d >= 0 && at + d < length)
                    sum += kernel[abs(d)] * middle[d * (ptrdiff_t)step];
            dst[(size_t)gy * (size_t)gw + (size_t)gx] = (float)sum;
        }
}

/* How much of the samples' white a spot at (x, y) of this spread explains, sum(w g)^2 /
 * sum(g^2), and its best peak, sum(w g) / sum(g^2): the coarse search's measure, summed
 * directly. */
static double spot_fit(const float *gained, const float *weight, int gw, int gh, double x,
                       double y, double spread, double *peak)
{
    double n = 0.0, d2 = 0.0, reach = 3.0 * spread, s2 = 2.0 * spread * spread;
    int x0 = (int)floor((x - reach) / GLARE_STEP), x1 = (int)ceil((x + reach) / GLARE_STEP);
    int y0 = (int)floor((y - reach) / GLARE_STEP), y1 = (int)ceil((y + reach) / GLARE_STEP);
    for (int gy = y0 < 0 ? 0 : y0; gy <= y1 && gy < gh; gy++) {
        double dy = (gy + 0.5) * GLARE_STEP - y, across = exp(-dy * dy / s2);
        for (int gx = x0 < 0 ? 0 : x0; gx <= x1 && gx < gw; gx++) {
            size_t i = (size_t)gy * (size_t)gw + (size_t)gx;
            if (weight[i] == 0.0f)
                continue;
            double dx = (gx + 0.5) * GLARE_STEP - x, g = across * exp(-dx * dx / s2);
            n += g * gained[i] * weight[i];
            d2 += g * g * weight[i];
        }
    }
    *peak = d2 > 0.0 ? n / d2 : 0.0;
    return n > 0.0 && d2 > 0.0 ? n * n / d2 : 0.0;
}

void el_glare_find(const el_table *table, const vision_mat *mat, const el_balance *balance,
                   const float mat_colour[3], const el_lit_tile *tiles, int count,
                   el_glare *glare)
{
    memset(glare, 0, sizeof *glare);
    /* the lamp mirrored is as white as the camera can see */
    for (int c = 0; c < 3; c++)
        glare->white[c] = (255.0f - balance->black[c]) * balance->scale[c];
    int gw = (int)(table->width / GLARE_STEP), gh = (int)(table->height / GLARE_STEP);
    if (gw < 3 || gh < 3)
        return;
    size_t cells = (size_t)gw * (size_t)gh;
    float *gained = calloc(cells, sizeof *gained), *weight = calloc(cells, sizeof *weight);
    float *product = malloc(cells * sizeof *product), *along = malloc(cells * sizeof *along);
    float *sum_n = malloc(cells * sizeof *sum_n), *sum_d = malloc(cells * sizeof *sum_d);
    if (!gained || !weight || !product || !along || !sum_n || !sum_d)
        goto done;
    /* the mat's samples only where no tile lies (a tile's light frame passes for glared mat) */
    for (int t = 0; t < count; t++)
        for_cells(tiles[t].x_mm, tiles[t].y_mm, mat->tile_mm / 2.0 + GLARE_STEP, gw, gh, weight,
                  -1.0f, NULL, 0.0f);
    if (!mat_samples(table, mat, mat_colour, glare->white, gw, gh, gained, weight))
        goto done;
    for (size_t i = 0; i < cells; i++)
        weight[i] = weight[i] < 0.0f ? 0.0f : weight[i];
    /* each tile's samples: its offset is w times the white's mean (over its art's middle),
     * less what most tiles gained (the light's colour a little unlike the teaching's) */
    float white_mean = (glare->white[0] + glare->white[1] + glare->white[2]) / 3.0f;
    float baseline = 0.0f;
    if (count > 0) {
        float *offsets = malloc((size_t)count * sizeof *offsets);
        if (!offsets)
            goto done;
        for (int t = 0; t < count; t++)
            offsets[t] = tiles[t].offset;
        qsort(offsets, (size_t)count, sizeof *offsets, el_compare_floats);
        baseline = offsets[count / 2];
        free(offsets);
    }
    for (int t = 0; t < count; t++)
        for_cells(tiles[t].x_mm, tiles[t].y_mm, mat->tile_mm / 2.0, gw, gh, weight, 1.0f, gained,
                  (tiles[t].offset - baseline) / white_mean);
    for (size_t i = 0; i < cells; i++)
        product[i] = gained[i] * weight[i];
    static const double spreads[] = {30, 40, 50, 65, 80, 100};
    double best = 0.0;
    for (size_t k = 0; k < sizeof spreads / sizeof spreads[0]; k++) {
        double spread = spreads[k] / GLARE_STEP;
        enum { REACH_MAX = 40 };
        int reach = (int)ceil(3.0 * spread);
        reach = reach > REACH_MAX ? REACH_MAX : reach;
        double g[REACH_MAX + 1], g2[REACH_MAX + 1];
        for (int d = 0; d <= reach; d++) {
            g[d] = exp(-d * d / (2.0 * spread * spread));
            g2[d] = g[d] * g[d];
        }
        /* the sums along rows, then along columns */
        blur(product, along, gw, gh, true, g, reach);
        blur(along, sum_n, gw, gh, false, g, reach);
        blur(weight, along, gw, gh, true, g2, reach);
        blur(along, sum_d, gw, gh, false, g2, reach);
        double whole = PI * spread * spread; /* sum(g^2) over a grid without end */
        for (int gy = 0; gy < gh; gy++)
            for (int gx = 0; gx < gw; gx++) {
                double n = sum_n[(size_t)gy * (size_t)gw + (size_t)gx];
                double d2 = sum_d[(size_t)gy * (size_t)gw + (size_t)gx];
                if (n <= 0.0 || d2 < GLARE_SEEN * whole || n * n / d2 <= best)
                    continue;
                best = n * n / d2;
                glare->peak = n / d2;
                glare->x_mm = (gx + 0.5) * GLARE_STEP;
                glare->y_mm = (gy + 0.5) * GLARE_STEP;
                glare->spread_mm = spreads[k];
            }
    }
    /* then finer: its middle to a millimetre or two, its spread to a few percent */
    if (glare->peak > 0.0) {
        double x = glare->x_mm, y = glare->y_mm, spread = glare->spread_mm;
        for (int dy = -3; dy <= 3; dy++)
            for (int dx = -3; dx <= 3; dx++)
                for (int ds = -2; ds <= 2; ds++) {
                    double peak, explained = spot_fit(gained, weight, gw, gh, x + 2.0 * dx,
                                                      y + 2.0 * dy, spread * (1.0 + 0.08 * ds),
                                                      &peak);
                    if (explained > best) {
                        best = explained;
                        glare->peak = peak;
                        glare->x_mm = x + 2.0 * dx;
                        glare->y_mm = y + 2.0 * dy;
                        glare->spread_mm = spread * (1.0 + 0.08 * ds);
                    }
                }
    }
    glare->found = glare->peak >= GLARE_LEAST;
done:
    free(gained);
    free(weight);
    free(product);
    free(along);
    free(sum_n);
    free(sum_d);
}

double el_glare_near(const el_glare *glare, double x_mm, double y_mm, double reach_mm)
{
    if (!glare->found)
        return 0.0;
    double d = fmax(0.0, hypot(x_mm - glare->x_mm, y_mm - glare->y_mm) - reach_mm);
    return glare->peak * exp(-d * d / (2.0 * glare->spread_mm * glare->spread_mm));
}

void el_glare_undo(el_table *table, const el_glare *glare)
{
    if (!glare->found)
        return;
    double s2 = 2.0 * glare->spread_mm * glare->spread_mm;
    for (int y = 0; y < table->height; y++) {
        double dy = y + 0.5 - glare->y_mm, across = glare->peak * exp(-dy * dy / s2);
        if (across < 0.005)
            continue;
        float *p = table->colour + (size_t)y * (size_t)table->width * 3;
        for (int x = 0; x < table->width; x++, p += 3) {
            double dx = x + 0.5 - glare->x_mm, w = across * exp(-dx * dx / s2);
            if (w < 0.005)
                continue;
            w = w > GLARE_MOST ? GLARE_MOST : w;
            for (int c = 0; c < 3; c++)
                p[c] = (float)((p[c] - w * glare->white[c]) / (1.0 - w));
        }
    }
}
