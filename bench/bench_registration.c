/*
 * Registration against DESIGN.md §5's budget (≤ 10 ms on one core at 1080p): vision_register on
 * 1080p frames, OpenCV held to one thread, the median and p95 of the whole and of each stage
 * (grey copy, detection, corner refinement, fit), and how well it finds the true camera.
 *
 *   bench_registration synthetic [RUNS]   frames warped from a flat table with the four markers
 *                                         and clutter, through known cameras (default 400 runs)
 *   bench_registration rendered [SCENES]  scenes from the renderer (vision_el_render), every
 *                                         camera, light, lens and sensor setting drawn from the
 *                                         seed; each registered 5 times (default 60 scenes)
 *   bench_registration covered [RUNS]     a frame with marker 3 covered: the failure path
 *
 * BENCH_VERBOSE=1 prints every scene's result; BENCH_DUMP=FOLDER writes the frames refused there.
 */
#include "bench_support.h"
#include "calibration.h"
#include "cv_shim_geometry.h"
#include "table_plane_internal.h"
#include "test_support.h"
#include "vision.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PI 3.14159265358979323846
#define WIDTH 1920
#define HEIGHT 1080
#define BUDGET_MS 10.0

static uint64_t random_state = 0x2545f4914f6cdd1dull;
static double random_uniform(void)
{
    random_state ^= random_state << 13;
    random_state ^= random_state >> 7;
    random_state ^= random_state << 17;
    return (double)(random_state >> 11) / 9007199254740992.0;
}

/* ---- timing ---- */

typedef struct samples {
    int count, capacity;
    double *values;
} samples;

static void samples_add(samples *s, double value)
{
    if (s->count == s->capacity) {
        s->capacity = s->capacity ? 2 * s->capacity : 256;
        s->values = realloc(s->values, (size_t)s->capacity * sizeof *s->values);
        if (!s->values) {
            fprintf(stderr, "out of memory\n");
            exit(1);
        }
    }
    s->values[s->count++] = value;
}

static double samples_quantile(samples *s, double q)
{
    if (s->count == 0)
        return NAN;
    qsort(s->values, (size_t)s->count, sizeof *s->values, bench_compare_doubles);
    int at = (int)ceil(q * s->count) - 1;
    return s->values[at < 0 ? 0 : at >= s->count ? s->count - 1 : at];
}

typedef struct stage_samples {
    samples grey, detect, refine, fit, total;
} stage_samples;

static void stage_add(stage_samples *stages, const vision_register_timing *timing)
{
    samples_add(&stages->grey, timing->grey_ms);
    samples_add(&stages->detect, timing->detect_ms);
    samples_add(&stages->refine, timing->refine_ms);
    samples_add(&stages->fit, timing->fit_ms);
    samples_add(&stages->total, timing->total_ms);
}

static void stage_report(const char *title, stage_samples *stages)
{
    printf("%s: %d runs, one thread\n", title, stages->total.count);
    printf("  %-8s %8s %8s %8s\n", "stage", "median", "p95", "max");
    struct {
        const char *name;
        samples *s;
    } rows[] = {{"grey", &stages->grey},     {"detect", &stages->detect},
                {"refine", &stages->refine}, {"fit", &stages->fit},
                {"total", &stages->total}};
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        printf("  %-8s %8.2f %8.2f %8.2f ms\n", rows[i].name, samples_quantile(rows[i].s, 0.5),
               samples_quantile(rows[i].s, 0.95), samples_quantile(rows[i].s, 1.0));
    double p95 = samples_quantile(&stages->total, 0.95);
    printf("  budget %.0f ms: p95 %.2f ms, %s\n", BUDGET_MS, p95, p95 <= BUDGET_MS ? "met" : "NOT met");
    free(stages->grey.values);
    free(stages->detect.values);
    free(stages->refine.values);
    free(stages->fit.values);
    free(stages->total.values);
    memset(stages, 0, sizeof *stages);
}

/* ---- synthetic frames ---- */

typedef struct view {
    double height_mm, tilt_deg, azimuth_deg, focal_share;
} view;

/* The homography table mm → pixels of a camera height_mm above the mat's centre's side, tilted
 * by tilt_deg towards it from azimuth_deg, and its true centre. */
static void camera_homography(const vision_mat *mat, const view *v, double h[9], double centre[3])
{
    double f = WIDTH / 2.0 / tan(39.0 * PI / 180) * v->focal_share;
    test_camera_pose pose = test_camera_look_at(v->height_mm, v->tilt_deg, v->azimuth_deg,
                                                mat->width_mm / 2, mat->height_mm / 2);
    test_camera_homography(&pose, f, (WIDTH - 1) / 2.0, (HEIGHT - 1) / 2.0, h);
    centre[0] = pose.position[0];
    centre[1] = pose.position[1];
    centre[2] = v->height_mm;
}

#define PX_PER_MM 3.0
#define MARGIN_MM 90.0

static int mm_px(double mm) { return (int)lround((mm + MARGIN_MM) * PX_PER_MM); }

/* A flat table at PX_PER_MM: wood, the four markers on paper (covered: which one is painted
 * over, or -1), and clutter where the tiles would lie. */
static void table_picture(const vision_mat *mat, int covered, vision_image *table)
{
    int width = mm_px(mat->width_mm + MARGIN_MM), height = mm_px(mat->height_mm + MARGIN_MM);
    vision_image_new(width, height, 3, table);
    for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++) {
            uint8_t *p = table->pixels + (size_t)y * table->stride + (size_t)x * 3;
            p[0] = 70, p[1] = 120, p[2] = 165;
        }
    /* tiles and pieces: rectangles of random colours */
    for (int i = 0; i < 120; i++) {
        int x = mm_px(60 + random_uniform() * (mat->width_mm - 160));
        int y = mm_px(60 + random_uniform() * (mat->height_mm - 160));
        int w = (int)((10 + random_uniform() * 40) * PX_PER_MM);
        int h = (int)((10 + random_uniform() * 40) * PX_PER_MM);
        uint8_t colour[3] = {(uint8_t)(random_uniform() * 255), (uint8_t)(random_uniform() * 255),
                             (uint8_t)(random_uniform() * 255)};
        for (int yy = y; yy < y + h && yy < height; yy++)
            for (int xx = x; xx < x + w && xx < width; xx++)
                memcpy(table->pixels + (size_t)yy * table->stride + (size_t)xx * 3, colour, 3);
    }
    const double centres[4][2] = {
        {0, 0}, {mat->width_mm, 0}, {mat->width_mm, mat->height_mm}, {0, mat->height_mm}};
    for (int id = 0; id < 4; id++) {
        double paper = mat->marker_mm * 1.6;
        int x0 = mm_px(centres[id][0] - paper / 2), y0 = mm_px(centres[id][1] - paper / 2);
        vision_fill(table, x0, y0, (int)(paper * PX_PER_MM), (int)(paper * PX_PER_MM), 238);
        if (id != covered)
            vision_draw_marker(table, id, mm_px(centres[id][0] - mat->marker_mm / 2),
                               mm_px(centres[id][1] - mat->marker_mm / 2),
                               (int)lround(mat->marker_mm * PX_PER_MM));
    }
}

static void synthetic_frame(const vision_image *table, const double table_to_image[9],
                            vision_image *frame)
{
    vision_image_new(WIDTH, HEIGHT, 3, frame);
    double inverse[9];
    test_invert3(table_to_image, inverse);
    double to_picture[9] = {PX_PER_MM, 0, MARGIN_MM * PX_PER_MM - 0.5,
                            0, PX_PER_MM, MARGIN_MM * PX_PER_MM - 0.5, 0, 0, 1};
    double m[9];
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
            m[r * 3 + c] = to_picture[r * 3] * inverse[c] + to_picture[r * 3 + 1] * inverse[3 + c] +
                           to_picture[r * 3 + 2] * inverse[6 + c];
    char error[256];
    if (cv_geom_warp(table, m, frame, 40, error, sizeof error) != VISION_OK) {
        fprintf(stderr, "warp: %s\n", error);
        exit(1);
    }
    for (size_t i = 0; i < (size_t)frame->stride * HEIGHT; i++) {
        double v = frame->pixels[i] + (random_uniform() + random_uniform() - 1) * 6;
        frame->pixels[i] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
    }
}

static const view views[] = {
    {800, 20, 0, 0.85},  {750, 30, 0, 0.95},  {1100, 25, 40, 0.9}, {1150, 35, 200, 1.0},
    {1300, 28, 300, 1.1}, {850, 2, 0, 1.15},  {900, 12, 90, 1.0},  {1000, 18, 150, 1.0},
};
#define VIEWS (int)(sizeof views / sizeof views[0])

static int synthetic(int runs)
{
    vision_mat mat;
    vision_mat_default(&mat);
    vision_image table, frames[VIEWS];
    table_picture(&mat, -1, &table);
    double truths[VIEWS][9];
    for (int v = 0; v < VIEWS; v++) {
        double centre[3];
        camera_homography(&mat, &views[v], truths[v], centre);
        synthetic_frame(&table, truths[v], &frames[v]);
    }
    stage_samples stages = {0};
    samples error_px = {0}, per_view[VIEWS] = {{0}};
    int failures = 0;
    for (int run = 0; run < runs; run++) {
        int v = run % VIEWS;
        vision_registration registration;
        vision_register_timing timing;
        char error[256];
        vision_status status = vision_register_timed(&frames[v], &mat, NULL, false, &registration,
                                                     &timing, error, sizeof error);
        if (status != VISION_OK) {
            if (failures++ < 5)
                fprintf(stderr, "view %d: %s\n", v, error);
            continue;
        }
        stage_add(&stages, &timing);
        samples_add(&per_view[v], timing.total_ms);
        if (run < VIEWS)
            for (int i = 0; i <= 10; i++)
                for (int j = 0; j <= 10; j++) {
                    double x = mat.width_mm * i / 10, y = mat.height_mm * j / 10;
                    double w = truths[v][6] * x + truths[v][7] * y + truths[v][8];
                    double u = (truths[v][0] * x + truths[v][1] * y + truths[v][2]) / w;
                    double t = (truths[v][3] * x + truths[v][4] * y + truths[v][5]) / w;
                    vision_point got = vision_project(&registration, x, y, 0);
                    samples_add(&error_px, hypot(got.x - u, got.y - t));
                }
    }
    printf("synthetic 1080p frames: %d camera views (tilt 2-35 degrees, 750-1300 mm), "
           "120 clutter rectangles, noise; %d failures\n",
           VIEWS, failures);
    printf("  the mat's points against the true camera: median %.2f px, max %.2f px\n",
           samples_quantile(&error_px, 0.5), samples_quantile(&error_px, 1.0));
    printf("  median by view:");
    for (int v = 0; v < VIEWS; v++) {
        printf(" %.1f", samples_quantile(&per_view[v], 0.5));
        free(per_view[v].values);
    }
    printf(" ms\n");
    stage_report("vision_register, synthetic", &stages);
    free(error_px.values);
    for (int v = 0; v < VIEWS; v++)
        vision_image_free(&frames[v]);
    vision_image_free(&table);
    return failures ? 1 : 0;
}

static int covered(int runs)
{
    vision_mat mat;
    vision_mat_default(&mat);
    vision_image table, frame;
    table_picture(&mat, 3, &table);
    double truth[9], centre[3];
    camera_homography(&mat, &views[0], truth, centre);
    synthetic_frame(&table, truth, &frame);
    stage_samples stages = {0};
    char error[256] = "";
    for (int run = 0; run < runs; run++) {
        vision_registration registration;
        vision_register_timing timing;
        vision_status status = vision_register_timed(&frame, &mat, NULL, false, &registration,
                                                     &timing, error, sizeof error);
        if (status != VISION_MARKER_MISSING) {
            fprintf(stderr, "expected marker 3 missing, got: %s\n", error);
            return 1;
        }
        stage_add(&stages, &timing);
    }
    printf("marker 3 covered: \"%s\"\n", error);
    stage_report("vision_register, a marker covered (searched again at full size)", &stages);
    vision_image_free(&frame);
    vision_image_free(&table);
    return 0;
}

/* ---- rendered frames ---- */

/* A 5 x 5 layout of every tile type, stacks of the four colours. */
static void layout(vision_el_observation *truth, uint64_t seed)
{
    memset(truth, 0, sizeof *truth);
    static const char *const colours[] = {"orange", "black", "grey", "yellow"};
    for (int i = 0; i < 4; i++)
        vision_el_colour_index(truth, colours[i]);
    random_state = seed * 0x9e3779b97f4a7c15ull + 1;
    for (int row = 0; row < 5; row++)
        for (int col = 0; col < 5; col++) {
            vision_el_tile *tile = &truth->tiles[truth->tile_count++];
            tile->row = row;
            tile->col = col;
            tile->type = (row * 5 + col) % EL_TILE_TYPES;
            tile->height = (int)(random_uniform() * 4);
            tile->top = tile->height ? (int)(random_uniform() * 4) : VISION_NONE;
            tile->token = EL_NO_TOKEN;
            for (int k = 0; k < 4; k++)
                tile->confidence[k] = 1;
        }
}

static int rendered(int scenes)
{
    vision_mat mat;
    vision_mat_default(&mat);
    bool verbose = getenv("BENCH_VERBOSE") != NULL;
    stage_samples stages = {0};
    samples error_px = {0}, residual = {0}, height_error = {0}, focal_error = {0};
    int failures = 0, by_source[4] = {0};
    vision_el_observation *truth = malloc(sizeof *truth);
    vision_render_info *info = malloc(sizeof *info);
    if (!truth || !info)
        return 1;
    for (int scene = 1; scene <= scenes; scene++) {
        layout(truth, (uint64_t)scene);
        vision_render_config config;
        vision_render_config_default(&config);
        config.scene_seed = (uint64_t)scene;
        config.box_seed = (uint64_t)(scene % 7 + 1);
        vision_image frame;
        char error[256] = "";
        if (vision_el_render(&config, truth, &frame, info, error, sizeof error) != VISION_OK) {
            fprintf(stderr, "scene %d: cannot render: %s\n", scene, error);
            continue;
        }
        for (int run = 0; run < 5; run++) {
            vision_registration registration;
            vision_register_timing timing;
            vision_status status = vision_register_timed(&frame, &mat, NULL, false, &registration,
                                                         &timing, error, sizeof error);
            if (status != VISION_OK) {
                failures++;
                if (getenv("BENCH_DUMP")) {
                    char path[64];
                    snprintf(path, sizeof path, "%s/scene%d.png", getenv("BENCH_DUMP"), scene);
                    vision_image_save(path, &frame, error + 128, 128);
                }
                printf("  scene %d (height %.0f, tilt %.0f, k1 %.3f): %s\n", scene,
                       info->camera.camera_mm[2], calibration_tilt_deg(&info->camera),
                       info->distortion_k1, error);
                break;
            }
            stage_add(&stages, &timing);
            if (run > 0)
                continue;
            double worst = 0;
            for (int i = 0; i <= 10; i++)
                for (int j = 0; j <= 10; j++) {
                    double x = mat.width_mm * i / 10, y = mat.height_mm * j / 10;
                    vision_point want = vision_project(&info->camera, x, y, 0);
                    vision_point got = vision_project(&registration, x, y, 0);
                    double e = hypot(got.x - want.x, got.y - want.y);
                    samples_add(&error_px, e);
                    worst = fmax(worst, e);
                }
            samples_add(&residual, registration.residual_mm);
            double he = registration.camera_mm[2] / info->camera.camera_mm[2] - 1;
            double fe = registration.focal_px / info->camera.focal_px - 1;
            by_source[registration.focal_source]++;
            if (registration.focal_source == VISION_FOCAL_MARKERS) {
                samples_add(&height_error, fabs(he));
                samples_add(&focal_error, fabs(fe));
            }
            if (verbose)
                printf("  scene %d: height %.0f (true %.0f), tilt %.1f, k1 %.3f (true %.3f), "
                       "focal %.0f (true %.0f, source %d), residual %.2f mm, worst %.2f px, "
                       "%.2f ms\n",
                       scene, registration.camera_mm[2], info->camera.camera_mm[2],
                       calibration_tilt_deg(&info->camera), registration.intrinsics.distortion[0],
                       info->distortion_k1,
                       registration.focal_px, info->camera.focal_px, registration.focal_source,
                       registration.residual_mm, worst, timing.total_ms);
        }
        vision_image_free(&frame);
    }
    printf("rendered 1080p scenes (vision_el_render, seeds 1..%d: camera 500-1200 mm, tilt "
           "0-35 degrees, lens k1 -0.12..0.04, light, glare, blur, noise, JPEG): %d refused\n",
           scenes, failures);
    printf("  the mat's points against the true camera (uncalibrated: focal length and k1 "
           "estimated): median %.2f px, p95 %.2f px, max %.2f px\n",
           samples_quantile(&error_px, 0.5), samples_quantile(&error_px, 0.95),
           samples_quantile(&error_px, 1.0));
    printf("  residual: median %.2f mm, max %.2f mm (refused above %.0f mm)\n",
           samples_quantile(&residual, 0.5), samples_quantile(&residual, 1.0),
           VISION_MARKER_MOVED_MM);
    printf("  focal length from: calibration %d, the markers %d, a hint %d, the default %d\n",
           by_source[0], by_source[1], by_source[2], by_source[3]);
    printf("  from the markers: focal off by median %.1f%%, p95 %.1f%%; camera height off by "
           "median %.1f%%, p95 %.1f%%\n",
           100 * samples_quantile(&focal_error, 0.5), 100 * samples_quantile(&focal_error, 0.95),
           100 * samples_quantile(&height_error, 0.5), 100 * samples_quantile(&height_error, 0.95));
    stage_report("vision_register, rendered", &stages);
    free(error_px.values);
    free(residual.values);
    free(height_error.values);
    free(focal_error.values);
    free(truth);
    free(info);
    return 0;
}

int main(int argc, char **argv)
{
    cv_geom_set_threads(1);
    const char *mode = argc > 1 ? argv[1] : "synthetic";
    int count = argc > 2 ? atoi(argv[2]) : 0;
    if (strcmp(mode, "synthetic") == 0)
        return synthetic(count > 0 ? count : 400);
    if (strcmp(mode, "rendered") == 0)
        return rendered(count > 0 ? count : 60);
    if (strcmp(mode, "covered") == 0)
        return covered(count > 0 ? count : 200);
    fprintf(stderr, "usage: bench_registration synthetic|rendered|covered [COUNT]\n");
    return 2;
}
