/* The motion gate: small grey copies compared after matching the light. */
#include "gate.h"

#include "cv_shim.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* fit_light's grey levels, two to a bin */
enum { LIGHT_BINS = 128, LIGHT_BIN_LEVELS = 256 / LIGHT_BINS, LIGHT_HEAVIEST = 12 };

struct gate {
    gate_config config;
    int frame_width, frame_height, frame_channels; /* of the frames fed so far; 0: none */
    int row_step; /* the config's, or 1 for frames shorter than it */
    vision_image small;  /* this frame's copy */
    vision_image anchor; /* the still period's first frame's copy */
    vision_image read;   /* the copy at the last STABLE */
    vision_image before; /* the copy read before it, for gate_unread */
    bool has_before, last_stable;
    vision_image mask;   /* keep_change_mask: this frame against read, 255 where changed */
    bool has_mask;
    bool has_anchor, has_read;
    bool settled_once;   /* this still period has been STABLE or judged unchanged */
    int *light_joint;    /* fit_light's table of pixels by then's and now's grey level */
    double still_since_ms, last_time_ms;
};

const char *gate_state_name(gate_state state)
{
    switch (state) {
    case GATE_BUSY:
        return "busy";
    case GATE_SETTLING:
        return "settling";
    case GATE_STABLE:
        return "stable";
    case GATE_IDLE:
        return "idle";
    }
    return "unknown";
}

void gate_config_default(gate_config *config)
{
    config->scale = 8;
    config->row_step = 4;
    config->blur_sigma = 1.0;
    config->settle_ms = 600;
    config->pixel_threshold = 12;
    config->motion_share = 0.002;
    config->change_share = 0.0003;
    config->keep_change_mask = false;
}

vision_status gate_new(const gate_config *config, gate **out, char *error, size_t size)
{
    *out = NULL;
    gate_config c;
    if (config)
        c = *config;
    else
        gate_config_default(&c);
    if (c.scale < 1 || c.scale > 64)
        return vision_fail(error, size, VISION_BAD_INPUT, "gate scale %d: must be 1 to 64",
                           c.scale);
    if (c.row_step < 1 || c.row_step > c.scale)
        return vision_fail(error, size, VISION_BAD_INPUT,
                           "gate row_step %d: must be 1 to scale (%d)", c.row_step, c.scale);
    if (!(c.blur_sigma >= 0 && c.blur_sigma <= 10))
        return vision_fail(error, size, VISION_BAD_INPUT,
                           "gate blur_sigma %g: must be 0 to 10 pixels", c.blur_sigma);
    if (!(c.settle_ms >= 0 && c.settle_ms <= 60000))
        return vision_fail(error, size, VISION_BAD_INPUT,
                           "gate settle_ms %g: must be 0 to 60000 ms", c.settle_ms);
    if (!(c.pixel_threshold >= 1 && c.pixel_threshold <= 255))
        return vision_fail(error, size, VISION_BAD_INPUT,
                           "gate pixel_threshold %g: must be 1 to 255 grey levels",
                           c.pixel_threshold);
    if (!(c.motion_share > 0 && c.motion_share <= 1))
        return vision_fail(error, size, VISION_BAD_INPUT,
                           "gate motion_share %g: must be above 0 and at most 1", c.motion_share);
    if (!(c.change_share > 0 && c.change_share <= c.motion_share))
        return vision_fail(error, size, VISION_BAD_INPUT,
                           "gate change_share %g: must be above 0 and at most motion_share",
                           c.change_share);
    gate *g = calloc(1, sizeof *g);
    int *joint = malloc(LIGHT_BINS * LIGHT_BINS * sizeof *joint);
    if (!g || !joint) {
        free(g);
        free(joint);
        return vision_fail(error, size, VISION_NOMEM, "out of memory for the gate");
    }
    g->light_joint = joint;
    g->config = c;
    *out = g;
    return VISION_OK;
}

void gate_reset(gate *gate)
{
    gate->has_mask = false;
    gate->has_before = false;
    gate->last_stable = false;
    gate->has_anchor = false;
    gate->has_read = false;
    gate->settled_once = false;
}

void gate_free(gate *gate)
{
    if (!gate)
        return;
    vision_image_free(&gate->small);
    vision_image_free(&gate->anchor);
    vision_image_free(&gate->read);
    vision_image_free(&gate->mask);
    vision_image_free(&gate->before);
    free(gate->light_joint);
    free(gate);
}

/* The grey level below which share q of the image's pixels lie. */
static int histogram_quantile(const int histogram[256], int total, double q)
{
    int wanted = (int)ceil(q * total), seen = 0;
    for (int level = 0; level < 256; level++) {
        seen += histogram[level];
        if (seen >= wanted)
            return level;
    }
    return 255;
}

/*
 * The light of now against then's: now ~ gain * then + offset, fitted to the pixels themselves.
 * For each grey level of then (in LIGHT_BINS bins), the median of now where then has it; the
 * line through those medians that the levels holding the most pixels agree with (below), then
 * fitted by least squares to those levels, each weighed by its pixels. Medians, because a hand or a moved piece changes a minority of the
 * pixels of each level while a lamp or the exposure changes them all; a gain and an offset,
 * because a light change is both (brighter light scales, a changed black level or haze
 * offsets). The 20th and 80th percentiles of the two pictures, matched before, fail on a table
 * whose tiles are a fifth of it: the 80th leaps from the mat's grey to the tiles' when one more
 * tile is laid, and the whole layout reads as changed (a full game's tables were then never
 * read again).
 */
static void fit_light(const vision_image *then, const vision_image *now, double threshold,
                      int *joint, double *gain_out, double *offset_out)
{
    static const double level_of_bin = LIGHT_BIN_LEVELS, bin_middle = (LIGHT_BIN_LEVELS - 1) / 2.0;
    /* joint[a * LIGHT_BINS + b]: the pixels at then's bin a and now's bin b */
    memset(joint, 0, LIGHT_BINS * LIGHT_BINS * sizeof *joint);
    int count[LIGHT_BINS] = {0};
    for (int y = 0; y < now->height; y++) {
        const uint8_t *a = then->pixels + (size_t)y * (size_t)then->stride;
        const uint8_t *b = now->pixels + (size_t)y * (size_t)now->stride;
        for (int x = 0; x < now->width; x++) {
            joint[(a[x] / LIGHT_BIN_LEVELS) * LIGHT_BINS + b[x] / LIGHT_BIN_LEVELS]++;
            count[a[x] / LIGHT_BIN_LEVELS]++;
        }
    }
    double median[LIGHT_BINS];
    for (int a = 0; a < LIGHT_BINS; a++) {
        int half = (count[a] + 1) / 2, seen = 0, b = 0;
        for (; b < LIGHT_BINS - 1 && count[a] > 0; b++) {
            seen += joint[a * LIGHT_BINS + b];
            if (seen >= half)
                break;
        }
        median[a] = b * level_of_bin + bin_middle;
        /* a level that went black or white says only that the light went beyond the sensor */
        if (b == 0 || b == LIGHT_BINS - 1)
            count[a] = 0;
    }
    /* The line most pixels agree with: tried through every two of the heaviest levels (and
     * with gain 1 through each), it is the one whose levels within the threshold of it hold
     * the most pixels; a lid lifted off, a third of the picture at a grey of its own, then
     * counts as one level that disagrees, where a least-squares line through every level
     * bends towards it. */
    int heavy[LIGHT_HEAVIEST], heavy_count = 0;
    for (int a = 0; a < LIGHT_BINS; a++) {
        if (count[a] == 0 ||
            (heavy_count == LIGHT_HEAVIEST && count[heavy[LIGHT_HEAVIEST - 1]] >= count[a]))
            continue;
        /* kept heaviest first: the lightest kept gives way */
        int at = heavy_count < LIGHT_HEAVIEST ? heavy_count++ : LIGHT_HEAVIEST - 1;
        while (at > 0 && count[heavy[at - 1]] < count[a]) {
            heavy[at] = heavy[at - 1];
            at--;
        }
        heavy[at] = a;
    }
    double gain = 1, offset = 0;
    long best = -1;
    for (int i = 0; i < heavy_count; i++)
        for (int j = i; j < heavy_count; j++) {
            double xi = heavy[i] * level_of_bin + bin_middle;
            double xj = heavy[j] * level_of_bin + bin_middle;
            double g = 1, o;
            if (j != i) {
                if (fabs(xj - xi) < 8)
                    continue;
                g = (median[heavy[j]] - median[heavy[i]]) / (xj - xi);
                if (g < 0.5 || g > 2)
                    continue;
            }
            o = median[heavy[i]] - g * xi;
            long agree = 0;
            for (int a = 0; a < LIGHT_BINS; a++)
                if (count[a] > 0 &&
                    fabs(median[a] - (g * (a * level_of_bin + bin_middle) + o)) <= threshold)
                    agree += count[a];
            if (agree > best) {
                best = agree;
                gain = g;
                offset = o;
            }
        }
    /* then a weighted least-squares line through the levels that agree with it */
    double w = 0, sx = 0, sy = 0, sxx = 0, sxy = 0, lowest = 256, highest = -1;
    for (int a = 0; a < LIGHT_BINS; a++) {
        double x = a * level_of_bin + bin_middle, y = median[a];
        if (count[a] == 0 || fabs(y - (gain * x + offset)) > threshold)
            continue;
        w += count[a];
        sx += count[a] * x;
        sy += count[a] * y;
        sxx += count[a] * x * x;
        sxy += count[a] * x * y;
        lowest = fmin(lowest, x);
        highest = fmax(highest, x);
    }
    if (w > 0) {
        double spread = sxx - sx * sx / w;
        gain = 1;
        /* A nearly flat picture says nothing of a gain: its offset alone is matched. Light
         * does not triple or third itself between two frames: beyond, it is no light. */
        if (highest - lowest >= 8 && spread > 0) {
            double fitted = (sxy - sx * sy / w) / spread;
            if (fitted >= 0.5 && fitted <= 2)
                gain = fitted;
        }
        offset = (sy - gain * sx) / w;
    }
    *gain_out = gain;
    *offset_out = offset;
}

/* The share of pixels of now that differ from then by more than the threshold, then's light
 * mapped onto now's: by fit_light, or left as it is where that explains more of the pixels (a
 * fitted line alone knew the acting arm's side at fewer tables: its outline at the mat's edge
 * grew where a hand's shadow covered much of one grey level of the mat; bench/README.md). mask (may be NULL; now's size) receives
 * 255 where a pixel differs, 0 elsewhere. */
static double changed_share(gate *g, const vision_image *then, const vision_image *now,
                            vision_image *mask)
{
    double threshold = g->config.pixel_threshold, gain, offset;
    fit_light(then, now, threshold, g->light_joint, &gain, &offset);
    int fitted[256];
    for (int level = 0; level < 256; level++) /* what the sensor can show: 0..255 */
        fitted[level] = (int)fmin(255, fmax(0, lround(gain * level + offset)));
    int limit = (int)floor(threshold), unexplained = 0, unfitted = 0;
    for (int y = 0; y < now->height; y++) {
        const uint8_t *a = then->pixels + (size_t)y * (size_t)then->stride;
        const uint8_t *b = now->pixels + (size_t)y * (size_t)now->stride;
        for (int x = 0; x < now->width; x++) {
            unexplained += abs((int)b[x] - a[x]) > limit;
            unfitted += abs((int)b[x] - fitted[a[x]]) > limit;
        }
    }
    bool as_it_was = unexplained <= unfitted;
    if (mask)
        for (int y = 0; y < now->height; y++) {
            const uint8_t *a = then->pixels + (size_t)y * (size_t)then->stride;
            const uint8_t *b = now->pixels + (size_t)y * (size_t)now->stride;
            uint8_t *m = mask->pixels + (size_t)y * (size_t)mask->stride;
            for (int x = 0; x < now->width; x++)
                m[x] = abs((int)b[x] - (as_it_was ? a[x] : fitted[a[x]])) > limit ? 255 : 0;
        }
    return (double)(as_it_was ? unexplained : unfitted) / (then->width * then->height);
}

/* Copies a small copy into another of its size (allocated by gate_feed). */
static void copy_into(vision_image *target, const vision_image *source)
{
    for (int y = 0; y < source->height; y++)
        memcpy(target->pixels + (size_t)y * (size_t)target->stride,
               source->pixels + (size_t)y * (size_t)source->stride, (size_t)source->width);
}

/* (Re)allocates the three copies for frames of this size. */
static vision_status size_for(gate *g, const vision_image *frame)
{
    if (g->small.pixels && frame->width == g->frame_width && frame->height == g->frame_height &&
        frame->channels == g->frame_channels)
        return VISION_OK;
    int width = frame->width / g->config.scale, height = frame->height / g->config.scale;
    /* a frame of fewer rows than row_step has each read */
    g->row_step = frame->height < g->config.row_step ? 1 : g->config.row_step;
    vision_image small;
    vision_status status = vision_image_new(width > 0 ? width : 1, height > 0 ? height : 1, 1,
                                            &small);
    if (status != VISION_OK)
        return status;
    vision_image_free(&g->small);
    vision_image_free(&g->anchor);
    vision_image_free(&g->read);
    vision_image_free(&g->mask);
    vision_image_free(&g->before);
    g->small = small;
    g->frame_width = frame->width;
    g->frame_height = frame->height;
    g->frame_channels = frame->channels;
    gate_reset(g);
    return VISION_OK;
}

vision_status gate_feed(gate *g, const vision_image *frame, double time_ms, gate_report *report,
                        char *error, size_t size)
{
    memset(report, 0, sizeof *report);
    if (!frame->pixels || frame->width < 1 || frame->height < 1 ||
        (frame->channels != 1 && frame->channels != 3) ||
        frame->stride < frame->width * frame->channels)
        return vision_fail(error, size, VISION_BAD_INPUT,
                           "gate: an empty frame or one of neither 1 nor 3 channels");
    if (!isfinite(time_ms) || (g->has_anchor && time_ms < g->last_time_ms))
        return vision_fail(error, size, VISION_BAD_INPUT,
                           "gate: frame time %.1f ms is before the previous frame's (%.1f ms)",
                           time_ms, g->last_time_ms);
    vision_status status = size_for(g, frame);
    if (status == VISION_OK)
        status = cv_shim_shrink_grey(frame, g->row_step, &g->small,
                                     g->config.blur_sigma);
    /* the copies are made before any state changes, so that a failure leaves the gate as it
     * was (but for the small copy, which the next frame overwrites) */
    if (status == VISION_OK && !g->anchor.pixels)
        status = vision_image_new(g->small.width, g->small.height, 1, &g->anchor);
    if (status == VISION_OK && !g->read.pixels)
        status = vision_image_new(g->small.width, g->small.height, 1, &g->read);
    if (status == VISION_OK && !g->before.pixels)
        status = vision_image_new(g->small.width, g->small.height, 1, &g->before);
    if (status == VISION_OK && g->config.keep_change_mask && !g->mask.pixels)
        status = vision_image_new(g->small.width, g->small.height, 1, &g->mask);
    g->has_mask = false;
    if (status != VISION_OK)
        return vision_fail(error, size, status, "gate: %s", vision_status_message(status));
    g->last_time_ms = time_ms;
    g->last_stable = false;

    const gate_config *c = &g->config;
    vision_image *mask = c->keep_change_mask && g->has_read ? &g->mask : NULL;
    report->change = g->has_read ? changed_share(g, &g->read, &g->small, mask)
                                 : 1;
    g->has_mask = mask != NULL;
    report->changed = report->change >= c->change_share;
    if (g->has_anchor)
        report->motion = changed_share(g, &g->anchor, &g->small, NULL);
    if (!g->has_anchor || report->motion >= c->change_share) {
        /* a new still period starts with this frame */
        copy_into(&g->anchor, &g->small);
        g->has_anchor = true;
        g->still_since_ms = time_ms;
        g->settled_once = false;
        report->state = report->motion >= c->motion_share ? GATE_BUSY : GATE_SETTLING;
        return VISION_OK;
    }
    report->still_ms = time_ms - g->still_since_ms;
    if (report->still_ms < c->settle_ms) {
        report->state = GATE_SETTLING;
    } else if (!g->settled_once && report->changed) {
        g->has_before = g->has_read;
        if (g->has_read)
            copy_into(&g->before, &g->read);
        copy_into(&g->read, &g->small);
        g->has_read = true;
        g->last_stable = true;
        g->settled_once = true;
        report->state = GATE_STABLE;
    } else {
        g->settled_once = true;
        report->state = GATE_IDLE;
    }
    return VISION_OK;
}

void gate_unread(gate *g)
{
    if (!g->last_stable)
        return;
    g->last_stable = false;
    g->has_read = g->has_before;
    if (g->has_before)
        copy_into(&g->read, &g->before);
    g->has_before = false;
}

/* Whether pixel (x, y) lies within depth of the image's border. */
static bool on_band(const vision_image *image, int x, int y, int depth)
{
    return x < depth || y < depth || x >= image->width - depth || y >= image->height - depth;
}

/* Of the band's pixels the mask marks, the share within threshold of the median of those it
 * does not mark (the band as it is where nothing changed). */
static double band_share_bare(const vision_image *image, const vision_image *mask, int depth,
                              int threshold)
{
    int histogram[256] = {0}, unmarked = 0;
    for (int y = 0; y < image->height; y++)
        for (int x = 0; x < image->width; x++)
            if (on_band(image, x, y, depth) &&
                !mask->pixels[(size_t)y * (size_t)mask->stride + (size_t)x]) {
                histogram[image->pixels[(size_t)y * (size_t)image->stride + (size_t)x]]++;
                unmarked++;
            }
    if (unmarked == 0)
        return 0;
    int median = histogram_quantile(histogram, unmarked, 0.5), marked = 0, bare = 0;
    for (int y = 0; y < image->height; y++)
        for (int x = 0; x < image->width; x++)
            if (on_band(image, x, y, depth) &&
                mask->pixels[(size_t)y * (size_t)mask->stride + (size_t)x]) {
                int v = image->pixels[(size_t)y * (size_t)image->stride + (size_t)x];
                marked++;
                bare += abs(v - median) <= threshold;
            }
    return marked ? (double)bare / marked : 0;
}

bool gate_change_left(const gate *g, int depth)
{
    enum { BARE = 70, COVERED = 30 }; /* percent of the changed band looking bare */
    if (!g->last_stable || !g->has_mask || !g->has_before)
        return false;
    int threshold = (int)floor(2 * g->config.pixel_threshold);
    double now = band_share_bare(&g->read, &g->mask, depth, threshold);
    double then = band_share_bare(&g->before, &g->mask, depth, threshold);
    return now * 100 >= BARE && then * 100 <= COVERED;
}

vision_status gate_rebase(gate *g, const vision_image *frame, char *error, size_t size)
{
    if (!g->last_stable)
        return VISION_OK;
    if (frame->width != g->frame_width || frame->height != g->frame_height ||
        frame->channels != g->frame_channels)
        return vision_fail(error, size, VISION_BAD_INPUT,
                           "gate: a frame of %d x %d rebased on frames of %d x %d",
                           frame->width, frame->height, g->frame_width, g->frame_height);
    vision_status status = cv_shim_shrink_grey(frame, g->row_step, &g->small,
                                               g->config.blur_sigma);
    if (status != VISION_OK)
        return vision_fail(error, size, status, "gate: %s", vision_status_message(status));
    g->has_mask = g->config.keep_change_mask && g->has_before;
    if (g->has_mask)
        changed_share(g, &g->before, &g->small, &g->mask);
    copy_into(&g->read, &g->small);
    copy_into(&g->anchor, &g->small);
    return VISION_OK;
}

const vision_image *gate_change_mask(const gate *gate)
{
    return gate->has_mask ? &gate->mask : NULL;
}
