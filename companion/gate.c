/* The motion gate: small grey copies compared after matching the light. */
#include "gate.h"

#include "cv_shim.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct gate {
    gate_config config;
    int frame_width, frame_height, frame_channels; /* of the frames fed so far; 0: none */
    int row_step; /* the config's, or 1 for frames shorter than it */
    vision_image small;  /* this frame's copy */
    vision_image anchor; /* the still period's first frame's copy */
    vision_image read;   /* the copy at the last STABLE */
    vision_image before; /* the copy read before it, for gate_unread */
    int before_histogram[256];
    bool has_before, last_stable;
    vision_image mask;   /* keep_change_mask: this frame against read, 255 where changed */
    bool has_mask;
    int small_histogram[256], anchor_histogram[256], read_histogram[256]; /* of the copies */
    bool has_anchor, has_read;
    bool settled_once;   /* this still period has been STABLE or judged unchanged */
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
    if (!g)
        return vision_fail(error, size, VISION_NOMEM, "out of memory for the gate");
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

static void histogram_of(const vision_image *image, int histogram[256])
{
    memset(histogram, 0, 256 * sizeof *histogram);
    for (int y = 0; y < image->height; y++) {
        const uint8_t *row = image->pixels + (size_t)y * (size_t)image->stride;
        for (int x = 0; x < image->width; x++)
            histogram[row[x]]++;
    }
}

/*
 * The share of pixels of now that differ from then by more than the threshold, once then's
 * light is mapped onto now's: a gain and an offset taking then's 20th and 80th percentiles to
 * now's. Percentiles, because a hand or a moved piece shifts them little while a lamp or the
 * exposure shifts them all; a gain and an offset, because a light change is both (brighter
 * light scales, a changed black level or haze offsets). mask (may be NULL; now's size) receives
 * 255 where a pixel differs, 0 elsewhere.
 */
static double changed_share(const vision_image *then, const int histogram_then[256],
                            const vision_image *now, const int histogram_now[256],
                            double threshold, vision_image *mask)
{
    int total = then->width * then->height;
    int low_then = histogram_quantile(histogram_then, total, 0.2);
    int high_then = histogram_quantile(histogram_then, total, 0.8);
    int low_now = histogram_quantile(histogram_now, total, 0.2);
    int high_now = histogram_quantile(histogram_now, total, 0.8);
    double gain = 1, offset;
    /* A nearly flat picture says nothing of a gain: its offset alone is matched. */
    if (high_then - low_then >= 8 && high_now - low_now >= 8)
        gain = (double)(high_now - low_now) / (double)(high_then - low_then);
    /* Light does not triple or third itself between two frames: beyond, it is no light. */
    if (gain < 0.5 || gain > 2)
        gain = 1;
    offset = (low_now + high_now) / 2.0 - gain * (low_then + high_then) / 2.0;
    int predicted[256];
    for (int level = 0; level < 256; level++)
        predicted[level] = (int)lround(gain * level + offset);
    int limit = (int)floor(threshold), changed = 0;
    for (int y = 0; y < now->height; y++) {
        const uint8_t *a = then->pixels + (size_t)y * (size_t)then->stride;
        const uint8_t *b = now->pixels + (size_t)y * (size_t)now->stride;
        uint8_t *m = mask ? mask->pixels + (size_t)y * (size_t)mask->stride : NULL;
        for (int x = 0; x < now->width; x++) {
            bool differs = abs((int)b[x] - predicted[a[x]]) > limit;
            changed += differs;
            if (m)
                m[x] = differs ? 255 : 0;
        }
    }
    return (double)changed / total;
}

/* Copies a small copy and its histogram into another of its size (allocated by gate_feed). */
static void copy_into(vision_image *target, int target_histogram[256], const vision_image *source,
                      const int source_histogram[256])
{
    for (int y = 0; y < source->height; y++)
        memcpy(target->pixels + (size_t)y * (size_t)target->stride,
               source->pixels + (size_t)y * (size_t)source->stride, (size_t)source->width);
    memcpy(target_histogram, source_histogram, 256 * sizeof *target_histogram);
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
    histogram_of(&g->small, g->small_histogram);
    vision_image *mask = c->keep_change_mask && g->has_read ? &g->mask : NULL;
    report->change = g->has_read ? changed_share(&g->read, g->read_histogram, &g->small,
                                                 g->small_histogram, c->pixel_threshold, mask)
                                 : 1;
    g->has_mask = mask != NULL;
    report->changed = report->change >= c->change_share;
    if (g->has_anchor)
        report->motion = changed_share(&g->anchor, g->anchor_histogram, &g->small,
                                       g->small_histogram, c->pixel_threshold, NULL);
    if (!g->has_anchor || report->motion >= c->change_share) {
        /* a new still period starts with this frame */
        copy_into(&g->anchor, g->anchor_histogram, &g->small, g->small_histogram);
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
            copy_into(&g->before, g->before_histogram, &g->read, g->read_histogram);
        copy_into(&g->read, g->read_histogram, &g->small, g->small_histogram);
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
        copy_into(&g->read, g->read_histogram, &g->before, g->before_histogram);
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
    histogram_of(&g->small, g->small_histogram);
    g->has_mask = g->config.keep_change_mask && g->has_before;
    if (g->has_mask)
        changed_share(&g->before, g->before_histogram, &g->small, g->small_histogram,
                      g->config.pixel_threshold, &g->mask);
    copy_into(&g->read, g->read_histogram, &g->small, g->small_histogram);
    copy_into(&g->anchor, g->anchor_histogram, &g->small, g->small_histogram);
    return VISION_OK;
}

const vision_image *gate_change_mask(const gate *gate)
{
    return gate->has_mask ? &gate->mask : NULL;
}
