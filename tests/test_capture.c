/* Capture sources: dir: with and without times.txt, file: on a video the test writes, v4l2:
 * on a missing device, demo: (its frames, pace and refusals), the spec parser, and the
 * times.txt parser under random mutations. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "capture.h"
#include "cv_shim.h"
#include "recording.h"
#include "test_support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#define FRAME_WIDTH 8
#define FRAME_HEIGHT 6

/* A small frame whose every pixel is (value, 255 - value, value / 2): the test tells frames
 * apart by it. */
static void write_frame(const char *folder, const char *name, uint8_t value)
{
    char *path = test_path(folder, name);
    vision_image image;
    assert_int_equal(vision_image_new(FRAME_WIDTH, FRAME_HEIGHT, 3, &image), VISION_OK);
    for (int i = 0; i < FRAME_WIDTH * FRAME_HEIGHT; i++) {
        image.pixels[3 * i] = value;
        image.pixels[3 * i + 1] = (uint8_t)(255 - value);
        image.pixels[3 * i + 2] = (uint8_t)(value / 2);
    }
    char error[256];
    assert_int_equal(vision_image_save(path, &image, error, sizeof error), VISION_OK);
    vision_image_free(&image);
    free(path);
}

static void write_text(const char *folder, const char *name, const char *text)
{
    char *path = test_path(folder, name);
    test_write_file(path, text, strlen(text));
    free(path);
}

/* "dir:FOLDER" in a malloc'd string. */
static char *dir_spec(const char *folder)
{
    size_t size = strlen(folder) + 5;
    char *spec = malloc(size);
    snprintf(spec, size, "dir:%s", folder);
    return spec;
}

/* One line naming the spec: the contract of every error. */
static void assert_one_line_naming(const char *error, const char *spec)
{
    assert_true(error[0] != '\0');
    assert_null(strchr(error, '\n'));
    assert_int_equal(strncmp(error, spec, strlen(spec)), 0);
}

/* The frames in name order: frame-02 before frame-1 before frame-10 (byte order), the upper-case
 * extension among them, the rest of the folder ignored. */
static void test_capture_dir_reads_frames_in_name_order_at_the_fixed_rate(void **state)
{
    (void)state;
    char *folder = test_make_folder();
    write_frame(folder, "frame-10.png", 30);
    write_frame(folder, "frame-02.png", 10);
    write_frame(folder, "frame-1.png", 20);
    write_frame(folder, "x.PNG", 40);
    write_text(folder, "notes.txt", "not a frame");
    char *sub = test_path(folder, "folder.png");
    assert_int_equal(mkdir(sub, 0755), 0);
    char *spec = dir_spec(folder);
    capture_config config;
    capture_config_default(&config);
    assert_true(config.fps == 10);
    config.fps = 4;
    capture_source *source;
    char error[512];
    assert_int_equal(capture_open(spec, &config, &source, error, sizeof error), CAPTURE_OK);
    assert_int_equal(capture_frame_count(source), 4);
    const uint8_t values[] = {10, 20, 30, 40};
    for (int i = 0; i < 4; i++) {
        capture_frame frame;
        assert_int_equal(capture_read(source, &frame), CAPTURE_OK);
        assert_int_equal(frame.index, i);
        assert_true(frame.time_ms == i * 250.0);
        assert_int_equal(frame.image.width, FRAME_WIDTH);
        assert_int_equal(frame.image.channels, 3);
        assert_int_equal(frame.image.pixels[0], values[i]);
        assert_int_equal(frame.image.pixels[1], 255 - values[i]);
        assert_int_equal(frame.image.owned, 0); /* lent */
    }
    capture_frame frame;
    assert_int_equal(capture_read(source, &frame), CAPTURE_END);
    assert_int_equal(capture_read(source, &frame), CAPTURE_END);
    assert_null(frame.image.pixels);
    capture_free(source);
    capture_free(NULL);
    test_remove_tree(folder);
    free(spec);
    free(sub);
    free(folder);
}

static void test_capture_dir_takes_times_from_times_txt(void **state)
{
    (void)state;
    char *folder = test_make_folder();
    write_frame(folder, "a.png", 1);
    write_frame(folder, "b.jpg", 2);
    write_frame(folder, "c.jpeg", 3);
    /* any order, comments, blank lines, tabs, CRLF, fractions */
    write_text(folder, "times.txt",
               "# recorded at 10 fps\r\n\r\nc.jpeg\t2000.5\r\n  a.png   1000  \nb.jpg 1333.25\n");
    char *spec = dir_spec(folder);
    capture_source *source;
    char error[512];
    assert_int_equal(capture_open(spec, NULL, &source, error, sizeof error), CAPTURE_OK);
    const double times[] = {1000, 1333.25, 2000.5};
    for (int i = 0; i < 3; i++) {
        capture_frame frame;
        assert_int_equal(capture_read(source, &frame), CAPTURE_OK);
        assert_true(frame.time_ms == times[i]);
    }
    capture_free(source);
    test_remove_tree(folder);
    free(spec);
    free(folder);
}

/* Every way times.txt can be wrong: refused at open, one line naming the line (or the frame). */
static void test_capture_dir_refuses_a_bad_times_txt_naming_the_line(void **state)
{
    (void)state;
    static const struct {
        const char *text, *expected;
    } cases[] = {
        {"a.png 0\nb.png\n", "line 2"},                     /* no time */
        {"a.png 0\nb.png 10 20\n", "line 2"},               /* a third field */
        {"a.png -5\nb.png 10\n", "line 1"},                 /* negative */
        {"a.png 1e3\nb.png 2000\n", "line 1"},              /* not plain decimal */
        {"a.png 12.\nb.png 20\n", "line 1"},                /* a point without a fraction */
        {"a.png 0\nb.png 0x10\n", "line 2"},                /* hexadecimal */
        {"a.png 0\nb.png 10\nmissing.png 20\n", "line 3"},  /* a file that is not there */
        {"a.png 0\nb.png 10\nnotes.txt 20\n", "line 3"},    /* a file that is not a frame */
        {"a.png 0\n# again\na.png 10\n", "line 3"},         /* a frame twice */
        {"a.png 100\nb.png 100\n", "line 2"},               /* not increasing */
        {"b.png 50\n\na.png 60\n", "line 1"},               /* decreasing in name order */
        {"a.png 0\n", "\"b.png\""},                         /* a frame with no line */
        {"a.png 0\nb.png 1234567890123456\n", "line 2"},    /* absurdly late */
        {"a.png 0\nb.png 1\0\n", "line 2"},                 /* a NUL byte (written whole below) */
    };
    char *folder = test_make_folder();
    write_frame(folder, "a.png", 1);
    write_frame(folder, "b.png", 2);
    write_text(folder, "notes.txt", "x");
    char *spec = dir_spec(folder);
    char *times = test_path(folder, "times.txt");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t length = strlen(cases[i].text);
        if (i == sizeof cases / sizeof cases[0] - 1)
            length += 2; /* the NUL and the newline after it */
        test_write_file(times, cases[i].text, length);
        capture_source *source = (capture_source *)1;
        char error[512] = "";
        capture_status status = capture_open(spec, NULL, &source, error, sizeof error);
        if (status != CAPTURE_BAD_INPUT || !strstr(error, cases[i].expected))
            fail_msg("case %zu: status %d, \"%s\"", i, status, error);
        assert_null(source);
        assert_one_line_naming(error, spec);
        assert_non_null(strstr(error, "times.txt"));
    }
    test_remove_tree(folder);
    free(times);
    free(spec);
    free(folder);
}

static void test_capture_dir_names_a_corrupt_frame_and_goes_on(void **state)
{
    (void)state;
    char *folder = test_make_folder();
    write_frame(folder, "frame-1.png", 11);
    write_text(folder, "frame-2.png", "\x89PNG but not really");
    write_frame(folder, "frame-3.png", 33);
    char *spec = dir_spec(folder);
    capture_source *source;
    char error[512];
    assert_int_equal(capture_open(spec, NULL, &source, error, sizeof error), CAPTURE_OK);
    capture_frame frame;
    assert_int_equal(capture_read(source, &frame), CAPTURE_OK);
    assert_string_equal(capture_error(source), "");
    assert_int_equal(capture_read(source, &frame), CAPTURE_BAD_INPUT);
    assert_null(frame.image.pixels);
    assert_non_null(strstr(capture_error(source), "frame-2.png"));
    assert_one_line_naming(capture_error(source), spec);
    assert_int_equal(capture_read(source, &frame), CAPTURE_OK);
    assert_int_equal(frame.image.pixels[0], 33);
    assert_int_equal(frame.index, 2);
    assert_true(frame.time_ms == 200);
    assert_int_equal(capture_read(source, &frame), CAPTURE_END);
    capture_free(source);
    test_remove_tree(folder);
    free(spec);
    free(folder);
}

static void test_capture_dir_refuses_empty_missing_and_non_folders(void **state)
{
    (void)state;
    char *folder = test_make_folder();
    write_text(folder, "times.txt", "");
    write_text(folder, "notes.txt", "x");
    char *spec = dir_spec(folder);
    capture_source *source;
    char error[512];
    assert_int_equal(capture_open(spec, NULL, &source, error, sizeof error), CAPTURE_BAD_INPUT);
    assert_null(source);
    assert_one_line_naming(error, spec);
    assert_non_null(strstr(error, "no frames"));

    char *missing = test_path(folder, "missing");
    char *missing_spec = dir_spec(missing);
    assert_int_equal(capture_open(missing_spec, NULL, &source, error, sizeof error),
                     CAPTURE_BAD_INPUT);
    assert_one_line_naming(error, missing_spec);
    assert_non_null(strstr(error, "no such folder"));

    char *file = test_path(folder, "notes.txt");
    char *file_spec = dir_spec(file);
    assert_int_equal(capture_open(file_spec, NULL, &source, error, sizeof error),
                     CAPTURE_BAD_INPUT);
    assert_one_line_naming(error, file_spec);
    assert_non_null(strstr(error, "not a folder"));

    capture_config config;
    capture_config_default(&config);
    config.fps = 0;
    assert_int_equal(capture_open(spec, &config, &source, error, sizeof error),
                     CAPTURE_BAD_INPUT);
    assert_non_null(strstr(error, "frame rate"));
    test_remove_tree(folder);
    free(spec);
    free(missing);
    free(missing_spec);
    free(file);
    free(file_spec);
    free(folder);
}

/* A Motion JPEG AVI written through OpenCV's own writer, read back: its frames in order (JPEG
 * keeps flat colours within a few levels), times from the container, the count. */
static void test_capture_file_reads_a_video_back(void **state)
{
    (void)state;
    char *folder = test_make_folder();
    char *path = test_path(folder, "game.avi");
    enum { COUNT = 6, WIDTH = 64, HEIGHT = 48 };
    vision_image frames[COUNT];
    for (int i = 0; i < COUNT; i++) {
        assert_int_equal(vision_image_new(WIDTH, HEIGHT, 3, &frames[i]), VISION_OK);
        for (int p = 0; p < WIDTH * HEIGHT; p++) {
            frames[i].pixels[3 * p] = (uint8_t)(20 + 40 * i);
            frames[i].pixels[3 * p + 1] = 128;
            frames[i].pixels[3 * p + 2] = (uint8_t)(220 - 40 * i);
        }
    }
    char error[512];
    assert_int_equal(cv_shim_video_write_mjpg(path, frames, COUNT, 5, error, sizeof error),
                     VISION_OK);
    size_t size = strlen(path) + 6;
    char *spec = malloc(size);
    snprintf(spec, size, "file:%s", path);
    capture_source *source;
    assert_int_equal(capture_open(spec, NULL, &source, error, sizeof error), CAPTURE_OK);
    assert_int_equal(capture_frame_count(source), COUNT);
    for (int i = 0; i < COUNT; i++) {
        capture_frame frame;
        assert_int_equal(capture_read(source, &frame), CAPTURE_OK);
        assert_int_equal(frame.index, i);
        assert_int_equal(frame.image.width, WIDTH);
        assert_int_equal(frame.image.height, HEIGHT);
        assert_true(fabs(frame.time_ms - i * 200.0) < 1);
        const uint8_t *centre = frame.image.pixels + (HEIGHT / 2) * frame.image.stride +
                                (WIDTH / 2) * 3;
        assert_in_range(centre[0], 20 + 40 * i - 4, 20 + 40 * i + 4);
        assert_in_range(centre[2], 220 - 40 * i - 4, 220 - 40 * i + 4);
    }
    capture_frame frame;
    assert_int_equal(capture_read(source, &frame), CAPTURE_END);
    capture_free(source);
    for (int i = 0; i < COUNT; i++)
        vision_image_free(&frames[i]);
    test_remove_tree(folder);
    free(spec);
    free(path);
    free(folder);
}

static void test_capture_file_refuses_what_is_not_a_video(void **state)
{
    (void)state;
    char *folder = test_make_folder();
    write_text(folder, "notes.avi", "this is text, not a video");
    char *text = test_path(folder, "notes.avi"), *missing = test_path(folder, "missing.avi");
    const char *paths[] = {text, missing, folder};
    const char *expected[] = {"not a video", "no such file", "a folder"};
    for (int i = 0; i < 3; i++) {
        size_t size = strlen(paths[i]) + 6;
        char *spec = malloc(size);
        snprintf(spec, size, "file:%s", paths[i]);
        capture_source *source;
        char error[512];
        assert_int_equal(capture_open(spec, NULL, &source, error, sizeof error),
                         CAPTURE_BAD_INPUT);
        assert_null(source);
        assert_one_line_naming(error, spec);
        assert_non_null(strstr(error, expected[i]));
        free(spec);
    }
    test_remove_tree(folder);
    free(text);
    free(missing);
    free(folder);
}

/* No camera on the machine: a missing device and a device that is not one are the user's. */
static void test_capture_v4l2_names_a_missing_device(void **state)
{
    (void)state;
    capture_source *source;
    char error[512];
    assert_int_equal(capture_open("v4l2:/dev/video-not-there-77", NULL, &source, error,
                                  sizeof error),
                     CAPTURE_BAD_INPUT);
    assert_null(source);
    assert_one_line_naming(error, "v4l2:/dev/video-not-there-77");
    assert_non_null(strstr(error, "no such device"));
    assert_true(capture_status_is_users(CAPTURE_BAD_INPUT));
    char *folder = test_make_folder();
    write_text(folder, "video0", "");
    char *path = test_path(folder, "video0");
    size_t size = strlen(path) + 6;
    char *spec = malloc(size);
    snprintf(spec, size, "v4l2:%s", path);
    assert_int_equal(capture_open(spec, NULL, &source, error, sizeof error), CAPTURE_BAD_INPUT);
    assert_one_line_naming(error, spec);
    assert_non_null(strstr(error, "not a video device"));
    test_remove_tree(folder);
    free(spec);
    free(path);
    free(folder);
}

/* Each spec is refused as not a source (the user's: exit status 2), in one line naming it,
 * with no source left open. */
static void assert_refused_specs(const char *const *bad, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        capture_source *source = (capture_source *)1;
        char error[512] = "";
        capture_status status = capture_open(bad[i], NULL, &source, error, sizeof error);
        if (status != CAPTURE_BAD_SPEC)
            fail_msg("\"%s\": status %d, \"%s\"", bad[i], status, error);
        assert_null(source);
        assert_one_line_naming(error, bad[i]);
        assert_non_null(strstr(error, "not a source"));
        assert_true(capture_status_is_users(status));
    }
}

static void test_capture_spec_parser_refuses_malformed_specs(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "", "dir", "dir:", "file:", "v4l2", "v4l2:", "camera:", "camera:x", "camera:-1",
        "camera:1.5", "demo:", "demo:seed", "demo:99999999999999999999", "webcam:0", "DIR:/tmp",
        ":x", "http://camera/stream", "camera 0",
    };
    assert_refused_specs(bad, sizeof bad / sizeof bad[0]);
    /* a spec of control characters is quoted, still one line */
    capture_source *source;
    char error[512];
    assert_int_equal(capture_open("x\ny:\tz", NULL, &source, error, sizeof error),
                     CAPTURE_BAD_SPEC);
    assert_null(strchr(error, '\n'));
    assert_false(capture_status_is_users(CAPTURE_NOT_AVAILABLE));
    assert_string_equal(capture_status_message(CAPTURE_BAD_SPEC), "not a source");
}

/* camera: without a camera is never a success. */
static void test_capture_camera_answers_honestly(void **state)
{
    (void)state;
    capture_source *source;
    char error[512];
    capture_status status = capture_open("camera:250", NULL, &source, error, sizeof error);
    assert_true(status == CAPTURE_NOT_AVAILABLE || status == CAPTURE_BAD_INPUT);
    assert_null(source);
    assert_one_line_naming(error, "camera:250");
    assert_false(capture_status_is_users(CAPTURE_NOT_AVAILABLE));
}

static capture_source *open_demo(const char *spec)
{
    capture_source *source = NULL;
    char error[512] = "";
    capture_status status = capture_open(spec, NULL, &source, error, sizeof error);
    if (status != CAPTURE_OK)
        fail_msg("%s: %s", spec, error);
    return source;
}

static void read_ok(capture_source *source, capture_frame *frame)
{
    capture_status status = capture_read(source, frame);
    if (status != CAPTURE_OK)
        fail_msg("capture_read: %s", capture_error(source));
}

/* demo: at full speed: every frame in turn, 100 ms apart, the size asked, the count known, the
 * seed told, not a recording (a watcher does not pace it); its frames are the demo
 * recording's (recording_demo), frame for frame. */
static void test_capture_demo_yields_the_recordings_frames_in_time_order(void **state)
{
    (void)state;
    capture_source *source = open_demo("demo:5?pace=0&size=320x180");
    uint64_t seed = 0;
    assert_true(capture_demo_seed(source, &seed));
    assert_true(seed == 5);
    assert_false(capture_is_recording(source)); /* it keeps its own pace: a reader does not wait */
    recording *r = NULL;
    char error[512];
    assert_int_equal(recording_demo(5, 320, 180, 10, &r, error, sizeof error), VISION_OK);
    assert_int_equal(capture_frame_count(source), recording_frame_count(r));
    assert_true(capture_frame_count(source) > 1000); /* a whole game at real pace */
    /* the first hand reaches in within a few seconds: read past it */
    int frames = 60;
    for (int i = 0; i < frames; i++) {
        capture_frame frame;
        read_ok(source, &frame);
        assert_int_equal(frame.index, i);
        assert_true(frame.time_ms == i * 100.0);
        assert_int_equal(frame.image.width, 320);
        assert_int_equal(frame.image.height, 180);
        assert_int_equal(frame.image.channels, 3);
        assert_int_equal(frame.image.owned, 0);
        if (i % 15 == 0 || recording_frame_moving(r, i)) {
            vision_image drawn;
            assert_int_equal(recording_draw(r, i, &drawn, error, sizeof error), VISION_OK);
            assert_memory_equal(drawn.pixels, frame.image.pixels,
                                (size_t)drawn.stride * (size_t)drawn.height);
            vision_image_free(&drawn);
        }
    }
    recording_free(r);
    capture_free(source);
    /* another source is not the demo */
    char *folder = test_make_folder();
    write_frame(folder, "a.png", 1);
    char *spec = dir_spec(folder);
    capture_source *dir;
    assert_int_equal(capture_open(spec, NULL, &dir, error, sizeof error), CAPTURE_OK);
    assert_false(capture_demo_seed(dir, &seed));
    assert_true(capture_is_recording(dir)); /* taken earlier: replayed at its times */
    capture_free(dir);
    test_remove_tree(folder);
    free(spec);
    free(folder);
}

/* The same seed gives the same frames; another seed another box and game. */
static void test_capture_demo_is_deterministic_for_a_seed(void **state)
{
    (void)state;
    capture_source *a = open_demo("demo:11?pace=0&size=160x90");
    capture_source *b = open_demo("demo:11?size=160x90&pace=0");
    capture_source *c = open_demo("demo:12?pace=0&size=160x90");
    bool differs = false;
    for (int i = 0; i < 40; i++) {
        capture_frame fa, fb, fc;
        read_ok(a, &fa);
        read_ok(b, &fb);
        read_ok(c, &fc);
        assert_true(fa.time_ms == fb.time_ms);
        assert_memory_equal(fa.image.pixels, fb.image.pixels,
                            (size_t)fa.image.stride * (size_t)fa.image.height);
        differs |= memcmp(fa.image.pixels, fc.image.pixels,
                          (size_t)fa.image.stride * (size_t)fa.image.height) != 0;
    }
    assert_true(differs);
    capture_free(a);
    capture_free(b);
    capture_free(c);
}

/* At real pace (the default) a read blocks until its frame's time: the fifth frame, at 400 ms,
 * comes no sooner than 400 ms after the open (a lower bound only: a busy machine is later). */
static void test_capture_demo_keeps_real_pace(void **state)
{
    (void)state;
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    capture_source *source = open_demo("demo:2?size=64x36");
    double last = -1;
    capture_frame frame;
    for (int i = 0; i < 5; i++) {
        read_ok(source, &frame);
        assert_true(frame.time_ms > last);
        last = frame.time_ms;
    }
    clock_gettime(CLOCK_MONOTONIC, &end);
    double elapsed_ms = (double)(end.tv_sec - start.tv_sec) * 1e3 +
                        (double)(end.tv_nsec - start.tv_nsec) * 1e-6;
    assert_true(last >= 400);
    assert_true(elapsed_ms >= last - 1);
    capture_free(source);
}

/* Bad demo specs: one line naming the spec, CAPTURE_BAD_SPEC (the user's: exit status 2). */
static void test_capture_demo_refuses_bad_specs_in_one_line(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "demo:x",           "demo:-1",          "demo:1.5",       "demo:",
        "demo:?pace=0",     "demo:7?size=9",    "demo:7?size=10x10", "demo:7?size=99999x90",
        "demo:7?pace=2",    "demo:7?pace",      "demo?colour=red", "demo:7?fps=0",
        "demo:7?fps=61",    "demo:7?pace=0&&x", "demo:7x",
    };
    assert_refused_specs(bad, sizeof bad / sizeof bad[0]);
}

/* ---- the times.txt parser under random mutations ---- */

static uint64_t fuzz_state = 0x9e3779b97f4a7c15ull;
static uint32_t fuzz_next(void)
{
    fuzz_state ^= fuzz_state << 13;
    fuzz_state ^= fuzz_state >> 7;
    fuzz_state ^= fuzz_state << 17;
    return (uint32_t)(fuzz_state >> 32);
}

/* One of: flip a byte, insert random or telling bytes, delete a range, duplicate a range. */
static size_t mutate(char *text, size_t length, size_t capacity)
{
    static const char *const telling[] = {" ", "\t", "\n", "\r", "#", ".", "-", "9", "0",
                                          "a.png", "frame-3.png ", "1e9", "\0", "99999999999"};
    switch (fuzz_next() % 4) {
    case 0:
        if (length)
            text[fuzz_next() % length] = (char)(fuzz_next() & 0xff);
        return length;
    case 1: {
        const char *insert = telling[fuzz_next() % (sizeof telling / sizeof telling[0])];
        size_t n = insert[0] ? strlen(insert) : 1;
        if (length + n > capacity)
            return length;
        size_t at = length ? fuzz_next() % (length + 1) : 0;
        memmove(text + at + n, text + at, length - at);
        memcpy(text + at, insert, n);
        return length + n;
    }
    case 2: {
        if (!length)
            return length;
        size_t at = fuzz_next() % length, n = 1 + fuzz_next() % 12;
        if (n > length - at)
            n = length - at;
        memmove(text + at, text + at + n, length - at - n);
        return length - n;
    }
    default: {
        if (!length)
            return length;
        size_t at = fuzz_next() % length, n = 1 + fuzz_next() % 24;
        if (n > length - at)
            n = length - at;
        if (length + n > capacity)
            return length;
        memmove(text + at + n, text + at, length - at);
        return length + n;
    }
    }
}

static void test_capture_times_txt_survives_random_mutations(void **state)
{
    (void)state;
    char *folder = test_make_folder();
    char valid[512] = "# frames\n";
    for (int i = 1; i <= 6; i++) {
        char name[32], line[64];
        snprintf(name, sizeof name, "frame-%d.png", i);
        write_frame(folder, name, (uint8_t)(i * 30));
        snprintf(line, sizeof line, "%s %d\n", name, i * 100);
        strcat(valid, line);
    }
    char *spec = dir_spec(folder);
    char *times = test_path(folder, "times.txt");
    enum { RUNS = 1500 };
    int accepted = 0;
    char text[2048];
    for (int run = 0; run < RUNS; run++) {
        size_t length = strlen(valid);
        memcpy(text, valid, length);
        int mutations = 1 + (int)(fuzz_next() % 4);
        for (int m = 0; m < mutations; m++)
            length = mutate(text, length, sizeof text);
        test_write_file(times, text, length);
        capture_source *source;
        char error[512] = "";
        capture_status status = capture_open(spec, NULL, &source, error, sizeof error);
        if (status == CAPTURE_OK) {
            accepted++;
            /* what was accepted reads back with increasing times */
            capture_frame frame;
            double last = -1;
            while (capture_read(source, &frame) == CAPTURE_OK) {
                assert_true(frame.time_ms > last);
                last = frame.time_ms;
            }
            capture_free(source);
            continue;
        }
        if (status != CAPTURE_BAD_INPUT)
            fail_msg("run %d: status %d, \"%s\"", run, status, error);
        assert_null(source);
        assert_one_line_naming(error, spec);
        assert_non_null(strstr(error, "times.txt"));
        for (const char *c = error; *c; c++)
            assert_true(*c >= 0x20 && *c < 0x7f);
    }
    /* mutations that only touch comments or spacing keep the file valid: both paths ran */
    assert_true(accepted > 0 && accepted < RUNS);
    test_remove_tree(folder);
    free(times);
    free(spec);
    free(folder);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_capture_dir_reads_frames_in_name_order_at_the_fixed_rate),
        cmocka_unit_test(test_capture_dir_takes_times_from_times_txt),
        cmocka_unit_test(test_capture_dir_refuses_a_bad_times_txt_naming_the_line),
        cmocka_unit_test(test_capture_dir_names_a_corrupt_frame_and_goes_on),
        cmocka_unit_test(test_capture_dir_refuses_empty_missing_and_non_folders),
        cmocka_unit_test(test_capture_file_reads_a_video_back),
        cmocka_unit_test(test_capture_file_refuses_what_is_not_a_video),
        cmocka_unit_test(test_capture_v4l2_names_a_missing_device),
        cmocka_unit_test(test_capture_spec_parser_refuses_malformed_specs),
        cmocka_unit_test(test_capture_camera_answers_honestly),
        cmocka_unit_test(test_capture_demo_yields_the_recordings_frames_in_time_order),
        cmocka_unit_test(test_capture_demo_is_deterministic_for_a_seed),
        cmocka_unit_test(test_capture_demo_keeps_real_pace),
        cmocka_unit_test(test_capture_demo_refuses_bad_specs_in_one_line),
        cmocka_unit_test(test_capture_times_txt_survives_random_mutations),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
