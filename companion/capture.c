/* Capture sources: the spec parser, the backend table and the backends but libcamera's. */
#include "capture.h"

#include "capture_internal.h"
#include "cv_shim.h"
#include "input_file.h"
#include "recording.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

/* 8 MiB of times.txt: about 300,000 frames, eight hours at 10 frames a second. */
#define CAPTURE_TIMES_MAX (8u * 1024u * 1024u)
#define CAPTURE_ERROR_MAX 512
#define CAPTURE_QUOTE_MAX 160 /* bytes of a spec or a name quoted in a message */
#define CAPTURE_NAME_MAX 255  /* bytes of a file name (Linux's NAME_MAX) */
/* A video whose container gives no frame rate is timed at this rate (PAL's, the commonest). */
#define CAPTURE_VIDEO_FALLBACK_FPS 25.0
/* The demo table's defaults: seed, size (720p: a webcam's common size, and a frame drawn in
 * well under its 100 ms), frames a second. */
#define CAPTURE_DEMO_SEED 1
#define CAPTURE_DEMO_WIDTH 1280
#define CAPTURE_DEMO_HEIGHT 720
#define CAPTURE_DEMO_FPS 10

const char *capture_status_message(capture_status status)
{
    switch (status) {
#define CAPTURE_STATUS_MESSAGE(name, message) \
    case name:                                \
        return message;
        CAPTURE_STATUS_TABLE(CAPTURE_STATUS_MESSAGE)
#undef CAPTURE_STATUS_MESSAGE
    }
    return "unknown status";
}

int capture_status_is_users(capture_status status)
{
    return status == CAPTURE_BAD_SPEC || status == CAPTURE_BAD_INPUT;
}

void capture_config_default(capture_config *config)
{
    config->fps = 10;
    config->width = 1920;
    config->height = 1080;
}

/* What a kind of source takes after its colon. */
typedef enum {
    ARGUMENT_PATH,           /* required, any text */
    ARGUMENT_OPTIONAL_WHOLE, /* none, or a whole number */
    ARGUMENT_WHOLE_OPTIONS,  /* none, or a whole number; then "?name=value&..." or none */
} argument_kind;

typedef struct capture_backend {
    const char *kind;  /* the spec's scheme */
    const char *usage; /* how a spec of this kind is written, for messages */
    argument_kind argument;
    /* argument: the text after the colon (NULL when none; for ARGUMENT_WHOLE_OPTIONS the
     * options after '?', NULL when none); whole: the number. On failure the open records the
     * error in the source (source_fail) and its close still runs. */
    capture_status (*open)(capture_source *source, const char *argument,
                           unsigned long long whole);
    /* The next frame into source->image and *time_ms; CAPTURE_END when there is none. */
    capture_status (*read)(capture_source *source, double *time_ms);
    void (*close)(capture_source *source); /* releases the backend's part; safe half-opened */
    bool recording; /* frames taken earlier (capture_is_recording) */
} capture_backend;

struct capture_source {
    const capture_backend *backend;
    capture_config config;
    char spec[CAPTURE_QUOTE_MAX]; /* quoted, for messages */
    char error[CAPTURE_ERROR_MAX];
    vision_image image; /* the frame last read, lent to the caller */
    int next_index;
    bool ended;
    int frame_count;      /* -1 when unknown */
    double last_time_ms;  /* of the frame last read; -INFINITY before the first */
    /* dir: */
    char *folder;
    char **names; /* the frame files, sorted */
    double *times_ms; /* from times.txt, in names' order; NULL: the fixed rate */
    int name_count;
    /* file: and v4l2: */
    cv_shim_video *video;
    double video_fps;
    /* v4l2: */
    double opened_ms; /* the monotonic clock at open */
    /* camera: */
    capture_camera *camera;
    /* demo: */
    recording *demo;
    uint64_t demo_seed;
    bool demo_paced;    /* frames at their time on the clock; false: as fast as drawn */
    int demo_next;      /* the recording's next frame */
    int demo_picture;   /* the recording's frame whose picture source->image holds; -1 */
};

/* Records "SPEC: message" as the source's error and returns status: failing is one line. */
__attribute__((format(printf, 3, 4))) static capture_status
source_fail(capture_source *source, capture_status status, const char *format, ...)
{
    int used = snprintf(source->error, sizeof source->error, "%s: ", source->spec);
    if (used < 0 || (size_t)used >= sizeof source->error)
        used = 0;
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(source->error + used, sizeof source->error - (size_t)used, format, arguments);
    va_end(arguments);
    return status;
}

static const char *quote(const char *text, char out[CAPTURE_QUOTE_MAX])
{
    return input_file_quote(text, strlen(text), out, CAPTURE_QUOTE_MAX);
}

static capture_status from_vision(vision_status status)
{
    switch (status) {
    case VISION_OK:
        return CAPTURE_OK;
    case VISION_NOMEM:
        return CAPTURE_NOMEM;
    case VISION_IO:
        return CAPTURE_IO;
    default:
        return CAPTURE_BAD_INPUT;
    }
}

static bool parse_whole(const char *text, unsigned long long *value)
{
    if (!*text || strlen(text) > 19)
        return false;
    *value = 0;
    for (const char *c = text; *c; c++) {
        if (!isdigit((unsigned char)*c))
            return false;
        *value = *value * 10 + (unsigned long long)(*c - '0');
    }
    return true;
}

/* Checks the source's path: what it should be ("folder", "file", "device") is named when it is
 * missing, and wrong says why when right(its mode) is false. */
static capture_status check_path(capture_source *source, const char *path, const char *what,
                                 bool (*right)(mode_t mode), const char *wrong)
{
    struct stat info;
    if (stat(path, &info) != 0) {
        if (errno == ENOENT || errno == ENOTDIR)
            return source_fail(source, CAPTURE_BAD_INPUT, "no such %s", what);
        return source_fail(source, errno == ENOMEM ? CAPTURE_NOMEM : CAPTURE_BAD_INPUT, "%s",
                           strerror(errno));
    }
    return right(info.st_mode) ? CAPTURE_OK : source_fail(source, CAPTURE_BAD_INPUT, "%s", wrong);
}

static bool is_folder(mode_t mode)
{
    return S_ISDIR(mode);
}

static bool is_not_folder(mode_t mode)
{
    return !S_ISDIR(mode);
}

static bool is_device(mode_t mode)
{
    return S_ISCHR(mode);
}

/* ---- dir: ---- */

static bool is_frame_name(const char *name)
{
    const char *dot = strrchr(name, '.');
    if (!dot || dot == name)
        return false;
    static const char *const extensions[] = {".png", ".jpg", ".jpeg"};
    for (size_t i = 0; i < sizeof extensions / sizeof extensions[0]; i++) {
        const char *e = extensions[i];
        size_t n = strlen(e);
        if (strlen(dot) != n)
            continue;
        size_t k = 0;
        while (k < n && tolower((unsigned char)dot[k]) == e[k])
            k++;
        if (k == n)
            return true;
    }
    return false;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* "folder/name", malloc'd; NULL when out of memory. */
static char *join(const char *folder, const char *name)
{
    size_t size = strlen(folder) + strlen(name) + 2;
    char *path = malloc(size);
    if (path)
        snprintf(path, size, "%s/%s", folder, name);
    return path;
}

static capture_status dir_list(capture_source *source)
{
    DIR *folder = opendir(source->folder);
    if (!folder)
        return source_fail(source, errno == ENOMEM ? CAPTURE_NOMEM : CAPTURE_BAD_INPUT,
                           "cannot read the folder: %s", strerror(errno));
    int capacity = 0;
    capture_status status = CAPTURE_OK;
    struct dirent *entry;
    while (status == CAPTURE_OK && (errno = 0, entry = readdir(folder))) {
        if (!is_frame_name(entry->d_name))
            continue;
        char *path = join(source->folder, entry->d_name);
        struct stat info;
        bool regular = path && stat(path, &info) == 0 && S_ISREG(info.st_mode);
        free(path);
        if (!regular)
            continue;
        if (source->name_count == capacity) {
            capacity = capacity ? 2 * capacity : 64;
            char **grown = capacity < (1 << 24) ? realloc(source->names,
                                                          (size_t)capacity * sizeof *grown)
                                                : NULL;
            if (!grown) {
                status = source_fail(source, CAPTURE_NOMEM, "out of memory listing the folder");
                break;
            }
            source->names = grown;
        }
        char *name = strdup(entry->d_name);
        if (!name) {
            status = source_fail(source, CAPTURE_NOMEM, "out of memory listing the folder");
            break;
        }
        source->names[source->name_count++] = name;
    }
    if (status == CAPTURE_OK && errno != 0)
        status = source_fail(source, CAPTURE_IO, "cannot read the folder: %s", strerror(errno));
    closedir(folder);
    if (status != CAPTURE_OK)
        return status;
    if (source->name_count == 0)
        return source_fail(source, CAPTURE_BAD_INPUT,
                           "no frames in the folder (.png, .jpg or .jpeg files)");
    qsort(source->names, (size_t)source->name_count, sizeof *source->names, compare_names);
    return CAPTURE_OK;
}

/* Whether text[0..length) is a time: digits, then an optional '.' and digits. */
static bool parse_milliseconds(const char *text, size_t length, double *value)
{
    size_t i = 0, digits = 0, fraction = 0;
    while (i < length && isdigit((unsigned char)text[i]))
        i++, digits++;
    if (i < length && text[i] == '.') {
        i++;
        while (i < length && isdigit((unsigned char)text[i]))
            i++, fraction++;
        if (fraction == 0)
            return false;
    }
    /* 15 digits before the point: a time beyond 30,000 years is a typo, and stays exact */
    if (i != length || digits == 0 || digits > 15 || length > 40)
        return false;
    char copy[48];
    memcpy(copy, text, length);
    copy[length] = '\0';
    *value = strtod(copy, NULL);
    return isfinite(*value);
}

static capture_status dir_parse_times(capture_source *source, const char *text, size_t length)
{
    source->times_ms = malloc((size_t)source->name_count * sizeof *source->times_ms);
    int *lines = calloc((size_t)source->name_count, sizeof *lines); /* 0: no line yet */
    if (!source->times_ms || !lines) {
        free(lines);
        return source_fail(source, CAPTURE_NOMEM, "out of memory reading times.txt");
    }
    char quoted[CAPTURE_QUOTE_MAX];
    capture_status status = CAPTURE_OK;
    int line_number = 0;
    for (size_t start = 0; status == CAPTURE_OK && start < length;) {
        const char *end_of_line = memchr(text + start, '\n', length - start);
        size_t end = end_of_line ? (size_t)(end_of_line - text) : length;
        size_t next = end_of_line ? end + 1 : length;
        line_number++;
        if (end > start && text[end - 1] == '\r')
            end--;
        const char *line = text + start;
        size_t size = end - start;
        start = next;
        size_t i = 0;
        while (i < size && (line[i] == ' ' || line[i] == '\t'))
            i++;
        if (i == size || line[i] == '#')
            continue;
        size_t name_start = i;
        while (i < size && line[i] != ' ' && line[i] != '\t')
            i++;
        size_t name_length = i - name_start;
        while (i < size && (line[i] == ' ' || line[i] == '\t'))
            i++;
        size_t time_start = i;
        while (i < size && line[i] != ' ' && line[i] != '\t')
            i++;
        size_t time_length = i - time_start;
        while (i < size && (line[i] == ' ' || line[i] == '\t'))
            i++;
        double time_ms;
        if (i != size || time_length == 0 ||
            memchr(line + name_start, '\0', name_length) ||
            !parse_milliseconds(line + time_start, time_length, &time_ms)) {
            status = source_fail(source, CAPTURE_BAD_INPUT,
                                 "times.txt line %d: \"%s\" is not \"<file name> <milliseconds>\"",
                                 line_number, input_file_quote(line, size, quoted, sizeof quoted));
            break;
        }
        char name[CAPTURE_NAME_MAX + 1];
        if (name_length > CAPTURE_NAME_MAX) {
            status = source_fail(source, CAPTURE_BAD_INPUT,
                                 "times.txt line %d: the file name is too long", line_number);
            break;
        }
        memcpy(name, line + name_start, name_length);
        name[name_length] = '\0';
        const char *key = name;
        char **found = bsearch(&key, source->names, (size_t)source->name_count,
                               sizeof *source->names, compare_names);
        if (!found) {
            status = source_fail(source, CAPTURE_BAD_INPUT,
                                 "times.txt line %d: \"%s\" is not a frame of the folder",
                                 line_number, quote(name, quoted));
            break;
        }
        int frame = (int)(found - source->names);
        if (lines[frame]) {
            status = source_fail(source, CAPTURE_BAD_INPUT,
                                 "times.txt line %d: \"%s\" already has a time (line %d)",
                                 line_number, quote(name, quoted), lines[frame]);
            break;
        }
        lines[frame] = line_number;
        source->times_ms[frame] = time_ms;
    }
    for (int frame = 0; status == CAPTURE_OK && frame < source->name_count; frame++) {
        if (!lines[frame])
            status = source_fail(source, CAPTURE_BAD_INPUT,
                                 "times.txt has no line for \"%s\" (every frame needs a time)",
                                 quote(source->names[frame], quoted));
        else if (frame > 0 && source->times_ms[frame] <= source->times_ms[frame - 1]) {
            char before[CAPTURE_QUOTE_MAX];
            status = source_fail(source, CAPTURE_BAD_INPUT,
                                 "times.txt line %d: \"%s\" at %g ms is not after \"%s\" at %g "
                                 "ms (line %d): times must increase in name order",
                                 lines[frame], quote(source->names[frame], quoted),
                                 source->times_ms[frame],
                                 quote(source->names[frame - 1], before),
                                 source->times_ms[frame - 1], lines[frame - 1]);
        }
    }
    free(lines);
    return status;
}

static capture_status dir_open(capture_source *source, const char *argument,
                               unsigned long long whole)
{
    (void)whole;
    capture_status status = check_path(source, argument, "folder", is_folder,
                                       "not a folder (file:PATH reads a video)");
    if (status != CAPTURE_OK)
        return status;
    source->folder = strdup(argument);
    if (!source->folder)
        return source_fail(source, CAPTURE_NOMEM, "out of memory");
    status = dir_list(source);
    if (status != CAPTURE_OK)
        return status;
    source->frame_count = source->name_count;

    char *times_path = join(source->folder, "times.txt");
    if (!times_path)
        return source_fail(source, CAPTURE_NOMEM, "out of memory");
    char *text = NULL, detail[160];
    size_t length = 0;
    input_file_status read = input_file_read(times_path, CAPTURE_TIMES_MAX, &text, &length,
                                             detail, sizeof detail);
    free(times_path);
    if (read == INPUT_FILE_MISSING)
        return CAPTURE_OK; /* the fixed rate */
    if (read != INPUT_FILE_OK)
        return source_fail(source,
                           read == INPUT_FILE_NOMEM      ? CAPTURE_NOMEM
                           : read == INPUT_FILE_TOO_LARGE ? CAPTURE_BAD_INPUT
                                                          : CAPTURE_IO,
                           "times.txt: %s", detail);
    status = dir_parse_times(source, text, length);
    free(text);
    return status;
}

static capture_status dir_read(capture_source *source, double *time_ms)
{
    int frame = source->next_index;
    if (frame >= source->name_count)
        return CAPTURE_END;
    char *path = join(source->folder, source->names[frame]);
    if (!path)
        return source_fail(source, CAPTURE_NOMEM, "out of memory");
    char detail[CAPTURE_ERROR_MAX - CAPTURE_QUOTE_MAX - 8];
    vision_image_free(&source->image);
    vision_status status = vision_image_load(path, &source->image, detail, sizeof detail);
    free(path);
    if (status != VISION_OK)
        return source_fail(source, from_vision(status), "%s", detail);
    *time_ms = source->times_ms ? source->times_ms[frame] : frame * 1000.0 / source->config.fps;
    return CAPTURE_OK;
}

static void dir_close(capture_source *source)
{
    for (int i = 0; i < source->name_count; i++)
        free(source->names[i]);
    free(source->names);
    free(source->times_ms);
    free(source->folder);
}

/* ---- file: and v4l2: (OpenCV's VideoCapture) ---- */

static capture_status file_open(capture_source *source, const char *argument,
                                unsigned long long whole)
{
    (void)whole;
    capture_status found = check_path(source, argument, "file", is_not_folder,
                                      "a folder, not a video (dir:PATH reads a folder of images)");
    if (found != CAPTURE_OK)
        return found;
    char detail[160];
    vision_status status = cv_shim_video_open_file(argument, &source->video, detail,
                                                   sizeof detail);
    if (status != VISION_OK)
        return source_fail(source, from_vision(status), "%s", detail);
    source->video_fps = cv_shim_video_fps(source->video);
    source->frame_count = cv_shim_video_frame_count(source->video);
    return CAPTURE_OK;
}

static capture_status video_read(capture_source *source, double *position_ms)
{
    char detail[160];
    int end = 0;
    vision_status status = cv_shim_video_read(source->video, &source->image, position_ms, &end,
                                              detail, sizeof detail);
    if (status != VISION_OK)
        return source_fail(source, from_vision(status), "frame %d: %s", source->next_index,
                           detail);
    return end ? CAPTURE_END : CAPTURE_OK;
}

static capture_status file_read(capture_source *source, double *time_ms)
{
    double position_ms;
    capture_status status = video_read(source, &position_ms);
    if (status != CAPTURE_OK)
        return status;
    /* The container's clock when it gives one that moves forward (a variable frame rate is
     * kept); else the frame's index at the container's rate. */
    double fps = source->video_fps > 0 ? source->video_fps : CAPTURE_VIDEO_FALLBACK_FPS;
    *time_ms = position_ms >= 0 && position_ms > source->last_time_ms
                   ? position_ms
                   : fmax(source->next_index * 1000.0 / fps, source->last_time_ms + 1000.0 / fps);
    return CAPTURE_OK;
}

static void video_close(capture_source *source)
{
    cv_shim_video_close(source->video);
}

static capture_status v4l2_open(capture_source *source, const char *argument,
                                unsigned long long whole)
{
    (void)whole;
    capture_status found = check_path(source, argument, "device", is_device,
                                      "not a video device (v4l2: takes a device such as "
                                      "/dev/video0)");
    if (found != CAPTURE_OK)
        return found;
    char detail[160];
    vision_status status = cv_shim_video_open_v4l2(argument, source->config.width,
                                                   source->config.height, &source->video,
                                                   detail, sizeof detail);
    if (status != VISION_OK)
        return source_fail(source, status == VISION_NOMEM ? CAPTURE_NOMEM : CAPTURE_BAD_INPUT,
                           "%s", detail);
    source->opened_ms = vision_clock_ms();
    return CAPTURE_OK;
}

static capture_status v4l2_read(capture_source *source, double *time_ms)
{
    double position_ms;
    capture_status status = video_read(source, &position_ms);
    if (status == CAPTURE_END) /* a camera has no end: it stopped */
        return source_fail(source, CAPTURE_IO, "the camera stopped sending frames");
    /* The arrival on our clock: V4L2's own timestamps are on a clock each driver picks. */
    *time_ms = vision_clock_ms() - source->opened_ms;
    return status;
}

/* ---- camera: (libcamera, capture_camera.cpp) ---- */

static capture_status camera_open(capture_source *source, const char *argument,
                                  unsigned long long whole)
{
#ifdef TS_HAVE_LIBCAMERA
    if (whole > 255)
        return source_fail(source, CAPTURE_BAD_INPUT, "no camera %llu", whole);
    char detail[160];
    (void)argument;
    capture_status status = capture_camera_open((int)whole, source->config.width,
                                                source->config.height, &source->camera, detail,
                                                sizeof detail);
    if (status != CAPTURE_OK)
        return source_fail(source, status, "%s", detail);
    source->opened_ms = vision_clock_ms();
    return CAPTURE_OK;
#else
    (void)argument;
    (void)whole;
    return source_fail(source, CAPTURE_NOT_AVAILABLE,
                       "not built with camera support (libcamera); try v4l2:/dev/video0");
#endif
}

static capture_status camera_read(capture_source *source, double *time_ms)
{
#ifdef TS_HAVE_LIBCAMERA
    char detail[160];
    double sensor_ms;
    capture_status status = capture_camera_read(source->camera, &source->image, &sensor_ms,
                                                detail, sizeof detail);
    if (status != CAPTURE_OK)
        return source_fail(source, status, "%s", detail);
    /* The sensor's timestamp is on CLOCK_MONOTONIC: the same clock as the open's. */
    *time_ms = sensor_ms - source->opened_ms;
    return CAPTURE_OK;
#else
    (void)time_ms;
    return source_fail(source, CAPTURE_NOT_AVAILABLE, "not built with camera support");
#endif
}

static void camera_close(capture_source *source)
{
#ifdef TS_HAVE_LIBCAMERA
    capture_camera_close(source->camera);
#else
    (void)source;
#endif
}

/* ---- demo: (a recording of a random game, drawn on demand) ---- */

/* Reads "name=value&..." options of demo:. */
static capture_status demo_options(capture_source *source, const char *options, int *width,
                                   int *height, int *fps)
{
    char quoted[CAPTURE_QUOTE_MAX];
    for (const char *option = options; option && *option;) {
        size_t length = strcspn(option, "&");
        char text[64];
        if (length >= sizeof text)
            return source_fail(source, CAPTURE_BAD_SPEC, "not a source: option \"%s\" too long",
                               input_file_quote(option, length, quoted, sizeof quoted));
        memcpy(text, option, length);
        text[length] = '\0';
        option += length + (option[length] == '&');
        char *value = strchr(text, '=');
        unsigned long long a = 0, b = 0;
        char *x = value ? strchr(value + 1, 'x') : NULL;
        bool ok = value != NULL;
        if (ok)
            *value++ = '\0';
        if (ok && strcmp(text, "size") == 0) {
            if (x)
                *x = '\0';
            ok = x && parse_whole(value, &a) && parse_whole(x + 1, &b) && a >= 32 &&
                 a <= 8192 && b >= 32 && b <= 8192;
            if (ok) {
                *width = (int)a;
                *height = (int)b;
                continue;
            }
            return source_fail(source, CAPTURE_BAD_SPEC,
                               "not a source: size=WIDTHxHEIGHT, 32 to 8192 pixels a side");
        }
        if (ok && strcmp(text, "pace") == 0) {
            ok = strcmp(value, "0") == 0 || strcmp(value, "1") == 0;
            if (ok) {
                source->demo_paced = value[0] == '1';
                continue;
            }
            return source_fail(source, CAPTURE_BAD_SPEC,
                               "not a source: pace=1 (real time) or pace=0 (as fast as drawn)");
        }
        if (ok && strcmp(text, "fps") == 0) {
            ok = parse_whole(value, &a) && a >= 1 && a <= 60;
            if (ok) {
                *fps = (int)a;
                continue;
            }
            return source_fail(source, CAPTURE_BAD_SPEC,
                               "not a source: fps=N, 1 to 60 frames a second");
        }
        return source_fail(source, CAPTURE_BAD_SPEC,
                           "not a source: \"%s\" is not an option of demo: (size=WxH, pace=0|1, "
                           "fps=N)",
                           quote(text, quoted));
    }
    return CAPTURE_OK;
}

static capture_status demo_open(capture_source *source, const char *argument,
                                unsigned long long whole)
{
    int width = CAPTURE_DEMO_WIDTH, height = CAPTURE_DEMO_HEIGHT, fps = CAPTURE_DEMO_FPS;
    source->demo_paced = true;
    source->demo_picture = -1;
    capture_status status = demo_options(source, argument, &width, &height, &fps);
    if (status != CAPTURE_OK)
        return status;
    source->demo_seed = whole;
    char detail[CAPTURE_ERROR_MAX - CAPTURE_QUOTE_MAX - 8];
    vision_status drawn = recording_demo(whole, width, height, fps, &source->demo, detail,
                                         sizeof detail);
    if (drawn != VISION_OK)
        return source_fail(source, from_vision(drawn), "%s", detail);
    source->frame_count = recording_frame_count(source->demo);
    source->opened_ms = vision_clock_ms();
    return CAPTURE_OK;
}

/* Sleeps until the monotonic clock reads at least until_ms. */
static void sleep_until(double until_ms)
{
    for (double now = vision_clock_ms(); now < until_ms; now = vision_clock_ms()) {
        double left = until_ms - now;
        struct timespec pause = {(time_t)(left / 1000), (long)(fmod(left, 1000) * 1e6)};
        nanosleep(&pause, NULL);
    }
}

static capture_status demo_read(capture_source *source, double *time_ms)
{
    recording *r = source->demo;
    int count = recording_frame_count(r);
    if (source->demo_next >= count)
        return CAPTURE_END;
    int frame = source->demo_next;
    if (source->demo_paced) {
        /* a reader slower than the frame rate misses frames, as with a camera: the frame due
         * now, not one long gone */
        double due = floor((vision_clock_ms() - source->opened_ms) * recording_fps(r) / 1000.0);
        if (due > frame)
            frame = due < count ? (int)due : count - 1;
    }
    int picture = recording_frame_first(r, frame);
    if (picture != source->demo_picture || !source->image.pixels) {
        char detail[CAPTURE_ERROR_MAX - CAPTURE_QUOTE_MAX - 8];
        vision_image_free(&source->image);
        source->demo_picture = -1;
        vision_status status = recording_draw(r, frame, &source->image, detail, sizeof detail);
        if (status != VISION_OK)
            return source_fail(source, from_vision(status) == CAPTURE_BAD_INPUT ? CAPTURE_IO
                                                                                 : from_vision(status),
                               "frame %d: %s", frame, detail);
        source->demo_picture = picture;
    }
    *time_ms = recording_frame_time_ms(r, frame);
    if (source->demo_paced)
        sleep_until(source->opened_ms + *time_ms); /* drawn ahead, shown on time */
    source->demo_next = frame + 1;
    return CAPTURE_OK;
}

static void demo_close(capture_source *source)
{
    recording_free(source->demo);
}

bool capture_demo_seed(const capture_source *source, uint64_t *seed)
{
    if (!source->demo)
        return false;
    *seed = source->demo_seed;
    return true;
}

bool capture_is_recording(const capture_source *source)
{
    return source->backend->recording;
}

static const capture_backend backends[] = {
    {"dir", "dir:PATH", ARGUMENT_PATH, dir_open, dir_read, dir_close, true},
    {"file", "file:PATH", ARGUMENT_PATH, file_open, file_read, video_close, true},
    {"v4l2", "v4l2:/dev/videoN", ARGUMENT_PATH, v4l2_open, v4l2_read, video_close, false},
    {"camera", "camera[:N]", ARGUMENT_OPTIONAL_WHOLE, camera_open, camera_read, camera_close,
     false},
    {"demo", "demo[:SEED][?size=WxH&pace=0|1&fps=N]", ARGUMENT_WHOLE_OPTIONS, demo_open,
     demo_read, demo_close, false},
};
#define BACKEND_COUNT (sizeof backends / sizeof backends[0])
#define SOURCE_KINDS "camera[:N], v4l2:/dev/videoN, file:PATH, dir:PATH or demo[:SEED]"

/* ---- the source ---- */

/* Finds spec's backend and its argument; on failure records why in source. */
static capture_status parse_spec(capture_source *source, const char *spec,
                                 const capture_backend **backend, const char **argument,
                                 unsigned long long *whole)
{
    /* the kind ends at the colon, or at the '?' of demo:'s options */
    size_t kind_length = strcspn(spec, ":?");
    const char *colon = spec[kind_length] == ':' ? spec + kind_length : NULL;
    *backend = NULL;
    *argument = colon ? colon + 1 : NULL;
    *whole = 0;
    for (size_t i = 0; i < BACKEND_COUNT; i++)
        if (strlen(backends[i].kind) == kind_length &&
            strncmp(backends[i].kind, spec, kind_length) == 0)
            *backend = &backends[i];
    if (!*backend)
        return source_fail(source, CAPTURE_BAD_SPEC, "not a source: expected " SOURCE_KINDS);
    if ((*backend)->argument == ARGUMENT_PATH && (!*argument || !**argument))
        return source_fail(source, CAPTURE_BAD_SPEC, "not a source: expected %s",
                           (*backend)->usage);
    if ((*backend)->argument == ARGUMENT_WHOLE_OPTIONS) {
        /* "demo", "demo:7", "demo?pace=0", "demo:7?pace=0": the options start at the '?' */
        const char *rest = spec + kind_length, *mark = strchr(rest, '?');
        *whole = CAPTURE_DEMO_SEED;
        *argument = mark ? mark + 1 : NULL;
        if (*rest != ':')
            return CAPTURE_OK;
        size_t length = mark ? (size_t)(mark - rest - 1) : strlen(rest + 1);
        char digits[24] = "";
        if (length > 0 && length < sizeof digits) {
            memcpy(digits, rest + 1, length);
            digits[length] = '\0';
        }
        if (!parse_whole(digits, whole))
            return source_fail(source, CAPTURE_BAD_SPEC,
                               "not a source: expected %s, a whole number after the colon",
                               (*backend)->usage);
        return CAPTURE_OK;
    }
    if ((*backend)->argument == ARGUMENT_OPTIONAL_WHOLE && *argument &&
        !parse_whole(*argument, whole))
        return source_fail(source, CAPTURE_BAD_SPEC,
                           "not a source: expected %s, a whole number after the colon",
                           (*backend)->usage);
    return CAPTURE_OK;
}

capture_status capture_open(const char *spec, const capture_config *config,
                            capture_source **out, char *error, size_t size)
{
    *out = NULL;
    capture_source *source = calloc(1, sizeof *source);
    if (!source) {
        if (error && size)
            snprintf(error, size, "out of memory opening a source");
        return CAPTURE_NOMEM;
    }
    source->frame_count = -1;
    source->last_time_ms = -INFINITY;
    if (config)
        source->config = *config;
    else
        capture_config_default(&source->config);
    quote(spec ? spec : "", source->spec);

    const capture_backend *backend = NULL;
    const char *argument = NULL;
    unsigned long long whole = 0;
    capture_status status;
    if (!spec || !*spec)
        status = source_fail(source, CAPTURE_BAD_SPEC, "not a source: expected " SOURCE_KINDS);
    else if (!(source->config.fps > 0 && source->config.fps <= 1000) ||
             source->config.width < 0 || source->config.height < 0 ||
             source->config.width > 1 << 15 || source->config.height > 1 << 15)
        status = source_fail(source, CAPTURE_BAD_INPUT,
                             "the frame rate must be above 0 and at most 1000 a second, the "
                             "size 0 to 32768 pixels a side");
    else
        status = parse_spec(source, spec, &backend, &argument, &whole);
    if (status == CAPTURE_OK) {
        source->backend = backend;
        status = backend->open(source, argument, whole);
    }
    if (status != CAPTURE_OK) {
        if (error && size)
            snprintf(error, size, "%s", source->error);
        capture_free(source);
        return status;
    }
    source->error[0] = '\0';
    *out = source;
    return CAPTURE_OK;
}

capture_status capture_read(capture_source *source, capture_frame *frame)
{
    memset(frame, 0, sizeof *frame);
    source->error[0] = '\0';
    if (source->ended)
        return CAPTURE_END;
    double time_ms = 0;
    capture_status status = source->backend->read(source, &time_ms);
    if (status == CAPTURE_END) {
        source->ended = true;
        return status;
    }
    int index = source->next_index;
    if (status != CAPTURE_OK) {
        /* dir: skips the file that failed; a device tries again */
        if (source->backend->read == dir_read)
            source->next_index++;
        return status;
    }
    source->next_index++;
    source->last_time_ms = time_ms;
    frame->image = source->image;
    frame->image.owned = 0; /* lent: the caller's vision_image_free must not release it */
    frame->time_ms = time_ms;
    frame->index = index;
    return CAPTURE_OK;
}

int capture_frame_count(const capture_source *source)
{
    return source->frame_count;
}

const char *capture_error(const capture_source *source)
{
    return source->error;
}

void capture_free(capture_source *source)
{
    if (!source)
        return;
    if (source->backend)
        source->backend->close(source);
    vision_image_free(&source->image);
    free(source);
}
