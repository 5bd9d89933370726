/*
 * The scene renderer's speed: a full Expedition Luxor table (100 tiles, 120 adventurers, the
 * boat and the snakes) drawn at 1920 x 1080 with every effect, one scene seed after another;
 * and the demo table's cost per frame (capture's demo:, recording_demo).
 *
 *   bench_render [RENDERS] [WIDTH HEIGHT]
 *   bench_render demo [FRAMES] [WIDTH HEIGHT] [SEED]    default 60 frames at 1280 x 720, seed 1
 */
#include "bench_support.h"
#include "recording.h"
#include "vision.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 10 x 10 tiles of every type, stacks of 1 to 4 of four colours on 40 of them (120 pieces). */
static void full_table(vision_el_observation *truth)
{
    memset(truth, 0, sizeof *truth);
    const char *colours[] = {"orange", "black", "grey", "yellow"};
    for (int i = 0; i < 4; i++)
        vision_el_colour_index(truth, colours[i]);
    int pieces = 0;
    for (int i = 0; i < 100; i++) {
        vision_el_tile *t = &truth->tiles[truth->tile_count++];
        t->row = i / 10;
        t->col = i % 10;
        t->type = (i * 7) % EL_TILE_TYPES;
        t->top = VISION_NONE;
        t->token = i == 17 ? EL_BOAT : i == 62 ? EL_SNAKES : EL_NO_TOKEN;
        if (t->type != EL_LAKE && i % 5 != 0 && pieces < 120 && i % 2 == 1) {
            t->height = 1 + (i / 2) % 5;
            if (pieces + t->height > 120)
                t->height = 120 - pieces;
            pieces += t->height;
            t->top = (i / 3) % 4;
        }
        for (int k = 0; k < 4; k++)
            t->confidence[k] = 1;
    }
    /* top up to exactly 120 */
    for (int i = 0; pieces < 120 && i < 100; i++) {
        vision_el_tile *t = &truth->tiles[i];
        if (t->type == EL_LAKE || t->token != EL_NO_TOKEN || t->height == VISION_EL_STACK_MAX)
            continue;
        if (t->top == VISION_NONE) {
            t->top = i % 4;
            t->height = 0;
        }
        t->height++;
        pieces++;
    }
}

static void measure(const char *what, const vision_el_observation *truth, int renders, int width,
                    int height, int hands)
{
    double *times = malloc(sizeof *times * (size_t)renders);
    if (!times)
        return;
    for (int i = 0; i < renders; i++) {
        vision_render_config config;
        vision_render_config_default(&config);
        config.box_seed = 1;
        config.scene_seed = (uint64_t)i + 1;
        config.width = width;
        config.height = height;
        config.hands = hands;
        vision_image frame;
        char error[256];
        double start = bench_seconds();
        vision_status status = vision_el_render(&config, truth, &frame, NULL, error, sizeof error);
        times[i] = (bench_seconds() - start) * 1000;
        if (status != VISION_OK) {
            fprintf(stderr, "render failed: %s\n", error);
            free(times);
            return;
        }
        vision_image_free(&frame);
    }
    qsort(times, (size_t)renders, sizeof *times, bench_compare_doubles);
    printf("%-34s %4d renders: median %6.1f ms, p95 %6.1f ms, max %6.1f ms\n", what, renders,
           times[renders / 2], times[(int)(renders * 0.95)], times[renders - 1]);
    free(times);
}

/* The demo table: its plan (recording_demo), then the first FRAMES pictures it must draw (a
 * frame that repeats the one before, the table at rest, costs nothing), each timed; and how
 * many of the whole game's frames are drawn, so that the cost of a second of demo shows. */
static int demo(int frames, int width, int height, uint64_t seed)
{
    recording *r = NULL;
    char error[512];
    double start = bench_seconds();
    vision_status status = recording_demo(seed, width, height, 10, &r, error, sizeof error);
    double plan_ms = (bench_seconds() - start) * 1000;
    if (status != VISION_OK) {
        fprintf(stderr, "bench_render: demo %llu: %s\n", (unsigned long long)seed, error);
        return 1;
    }
    int count = recording_frame_count(r), pictures = 0;
    for (int i = 0; i < count; i++)
        pictures += recording_frame_first(r, i) == i;
    double *times = malloc(sizeof *times * (size_t)frames);
    int timed = 0;
    for (int i = 0; i < count && timed < frames && times; i++) {
        if (recording_frame_first(r, i) != i)
            continue;
        vision_image frame;
        start = bench_seconds();
        status = recording_draw(r, i, &frame, error, sizeof error);
        times[timed++] = (bench_seconds() - start) * 1000;
        vision_image_free(&frame);
        if (status != VISION_OK) {
            fprintf(stderr, "bench_render: demo frame %d: %s\n", i, error);
            break;
        }
    }
    if (timed > 0) {
        qsort(times, (size_t)timed, sizeof *times, bench_compare_doubles);
        double mean = 0;
        for (int i = 0; i < timed; i++)
            mean += times[i] / timed;
        printf("demo %llu at %d x %d, 10 frames/s: %d frames (%.0f s of play), %d tables, %d "
               "drawn (%.0f%%), the plan %.1f ms\n",
               (unsigned long long)seed, width, height, count, count / 10.0,
               recording_table_count(r), pictures, 100.0 * pictures / count, plan_ms);
        printf("%-34s %4d frames:  median %6.1f ms, p95 %6.1f ms, max %6.1f ms\n",
               "a drawn frame", timed, times[timed / 2], times[(int)(timed * 0.95)],
               times[timed - 1]);
        printf("%-34s %6.1f ms a frame (a frame every 100 ms at real pace)\n",
               "over the whole game, about", mean * pictures / count);
    }
    free(times);
    recording_free(r);
    return timed == frames ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "demo") == 0) {
        int frames = argc > 2 ? atoi(argv[2]) : 60;
        int width = argc > 4 ? atoi(argv[3]) : 1280, height = argc > 4 ? atoi(argv[4]) : 720;
        uint64_t seed = argc > 5 ? strtoull(argv[5], NULL, 10) : 1;
        if (frames < 1 || width < 32 || height < 32) {
            fprintf(stderr, "usage: bench_render demo [FRAMES] [WIDTH HEIGHT] [SEED]\n");
            return 2;
        }
        return demo(frames, width, height, seed);
    }
    int renders = argc > 1 ? atoi(argv[1]) : 20;
    int width = argc > 3 ? atoi(argv[2]) : 1920, height = argc > 3 ? atoi(argv[3]) : 1080;
    if (renders < 1 || width < 32 || height < 32) {
        fprintf(stderr, "usage: bench_render [RENDERS] [WIDTH HEIGHT]\n");
        return 2;
    }
    static vision_el_observation truth;
    full_table(&truth);
    int pieces = 0;
    for (int i = 0; i < truth.tile_count; i++)
        pieces += truth.tiles[i].top == VISION_NONE ? 0 : truth.tiles[i].height;
    printf("%d x %d, %d tiles, %d adventurers, every effect drawn from the seed\n", width, height,
           truth.tile_count, pieces);
    measure("no hands", &truth, renders, width, height, 0);
    measure("two hands", &truth, renders, width, height, 2);
    return 0;
}
