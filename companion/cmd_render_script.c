/*
 * tablescribe render --script: a whole scripted Expedition Luxor game recorded into a frame
 * folder, as a camera at a fixed rate would see it played (issue 8). The game, its plan, each
 * frame's drawing and the truth are the recording module's (recording.h); this file writes
 * them:
 *
 *   recording_draw(N) ──▶ NNNNNN.jpg    a picture drawn once; a repeat (the table at rest) is a
 *                                       hard link to the first file that showed it
 *   the truth ─────────▶ times.txt, script.txt, truth/NNNN.json, truth.json
 *
 * Everything is written into a temporary sibling folder, renamed to the folder asked for at
 * the end: a recording appears whole or not at all, and two never mix.
 */
#include "cli.h"

#include "observation_json.h"
#include "recording.h"
#include "vision.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SCRIPT_MAX_BYTES (1 << 20)

const char *const cli_render_script_help =
    "\n"
    "Recording a scripted game (--script): the game, in the notation tablescribe play reads,\n"
    "played on the table in front of a fixed camera, into the new folder DIR (it must not exist\n"
    "or be empty; written whole or not at all). The table rests, still, after each action; for\n"
    "each action (a tile placed, its camp's movers, a token) a hand reaches in from the acting\n"
    "player's side of the mat (seat k of N at azimuth 360 k / N) to the tile, stays, and\n"
    "withdraws; the table changes while it is there. `end` and `pass` add a pause. The camera,\n"
    "the light and the layout's place are drawn once from the seed; the tiles never move.\n"
    "  --fps N                frames per second, 1 to 60 (default 10)\n"
    "  --pause MS             the table at rest after each action, 300 to 20000 (default 1500)\n"
    "  --players N            2 to 4 (default: the start layout's tiles / 2)\n"
    "  --expansion            the action tokens (boat, snakes, ...)\n"
    "  --format jpg|png       the frames' files (default jpg, quality 95: a 1080p frame is about\n"
    "                         0.3 MB, as PNG 2 MB and slower to write); with jpg the renderer\n"
    "                         adds no JPEG loss of its own unless --jpeg-quality is given\n"
    "  --resting-hand         in about a quarter of the pauses (at least one) the next player's\n"
    "                         hand comes to rest on a tile near their side for a whole pause\n"
    "  --nudge                the camera is bumped once, in the middle third of the game: a\n"
    "                         degree or so of tilt and turn, a few mm of height\n"
    "  --shadow               in about one pause in six (at least one) a soft dark shadow\n"
    "                         crosses the table in 1.2 s (someone walking past the lamp),\n"
    "                         touching nothing\n"
    "DIR holds:\n"
    "  NNNNNN.jpg             the frames (one that repeats an earlier frame is a hard link to it)\n"
    "  times.txt              one line a frame: its file name and its time in milliseconds\n"
    "  script.txt             the script as given\n"
    "  truth/NNNN.json        the observation JSON of each settled table: the start layout,\n"
    "                         then the table after each action\n"
    "  truth.json             the index: per table its observation, script line, seat, action,\n"
    "                         the frames it is on view and its rests (frames where nothing\n"
    "                         moves, and whether a resting hand is there); per action its hand's\n"
    "                         frames; the disturbances (resting hands with the tiles a quarter\n"
    "                         or more under them, the nudge's frame, the shadows' frames); the\n"
    "                         camera pose and the layout's place\n";


/* ---- reading and playing the script ---- */

static int read_script(const cli_command *command, const char *path, char **text, size_t *length)
{
    FILE *file = fopen(path, "rb");
    if (!file)
        return cli_usage_error(command, "--script %s: %s", path, strerror(errno));
    char *buffer = malloc(SCRIPT_MAX_BYTES + 1);
    if (!buffer) {
        fclose(file);
        cli_error(command, "out of memory");
        return EXIT_FAILURE_OTHER;
    }
    size_t got = fread(buffer, 1, SCRIPT_MAX_BYTES + 1, file);
    bool failed = ferror(file);
    fclose(file);
    if (failed || got > SCRIPT_MAX_BYTES) {
        free(buffer);
        return cli_usage_error(command, "--script %s: %s", path,
                               failed ? "cannot be read" : "larger than 1 MiB: not a script");
    }
    buffer[got] = '\0';
    if (memchr(buffer, '\0', got)) {
        free(buffer);
        return cli_usage_error(command, "--script %s: a binary file, not a script", path);
    }
    *text = buffer;
    *length = got;
    return EXIT_OK;
}


/* ---- writing ---- */

static int write_file(const char *folder, const char *name, const void *data, size_t length,
                      char *error, size_t size)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", folder, name);
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (fd < 0) {
        snprintf(error, size, "%.400s: %s", path, strerror(errno));
        return -1;
    }
    const uint8_t *p = data;
    size_t left = length;
    while (left > 0) {
        ssize_t n = write(fd, p, left);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            snprintf(error, size, "%.400s: %s", path, strerror(n < 0 ? errno : EIO));
            close(fd);
            return -1;
        }
        p += n;
        left -= (size_t)n;
    }
    if (close(fd) != 0) {
        snprintf(error, size, "%.400s: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

/* Another name for a frame already written: a hard link, or a copy where links are refused. */
static int repeat_file(const char *folder, const char *first, const char *name, char *error,
                       size_t size)
{
    char from[4096], to[4096];
    snprintf(from, sizeof from, "%s/%s", folder, first);
    snprintf(to, sizeof to, "%s/%s", folder, name);
    if (link(from, to) == 0)
        return 0;
    FILE *in = fopen(from, "rb");
    if (!in) {
        snprintf(error, size, "%.400s: %s", from, strerror(errno));
        return -1;
    }
    uint8_t *data = NULL;
    size_t length = 0, capacity = 0;
    int code = 0;
    for (;;) {
        if (length == capacity) {
            size_t larger = capacity ? capacity * 2 : 1 << 20;
            uint8_t *grown = realloc(data, larger);
            if (!grown) {
                snprintf(error, size, "out of memory");
                code = -1;
                break;
            }
            data = grown;
            capacity = larger;
        }
        size_t got = fread(data + length, 1, capacity - length, in);
        length += got;
        if (got == 0)
            break;
    }
    if (code == 0 && ferror(in)) {
        snprintf(error, size, "%.400s: cannot be read", from);
        code = -1;
    }
    fclose(in);
    if (code == 0)
        code = write_file(folder, name, data, length, error, size);
    free(data);
    return code;
}

/* Removes the temporary folder and what it holds (the recorder's files only: no deeper). */
static void remove_folder(const char *folder)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/truth", folder);
    const char *folders[2] = {path, folder};
    for (int i = 0; i < 2; i++) {
        DIR *dir = opendir(folders[i]);
        if (!dir)
            continue;
        struct dirent *entry;
        char file[4096 + 256];
        while ((entry = readdir(dir)) != NULL) {
            if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0)
                continue;
            snprintf(file, sizeof file, "%s/%s", folders[i], entry->d_name);
            if (unlink(file) != 0 && errno == EISDIR)
                rmdir(file);
        }
        closedir(dir);
        rmdir(folders[i]);
    }
}

/* The truth of a table in the game's own rows (the renderer's fixed layout keeps them). */
static void frame_name(const char *extension, int index, char *name, size_t size)
{
    snprintf(name, size, "%06d.%s", index, extension);
}

/* Draws every frame: a descriptor already drawn is linked, not drawn again. */

/* Draws every frame: a picture already drawn is linked, not drawn again. */
static int draw_frames(const cli_command *command, recording *r, const char *folder,
                       const char *extension, int *drawn)
{
    bool progress = isatty(STDERR_FILENO);
    double started = vision_clock_ms() / 1000.0, shown = 0;
    int code = EXIT_OK, count = recording_frame_count(r);
    char error[600] = "";
    for (int i = 0; i < count && code == EXIT_OK; i++) {
        if (cli_interrupted()) {
            cli_error(command, "interrupted: nothing written");
            code = EXIT_FAILURE_OTHER;
            break;
        }
        int first = recording_frame_first(r, i);
        char name[32], first_name[32];
        frame_name(extension, i, name, sizeof name);
        if (first != i) {
            frame_name(extension, first, first_name, sizeof first_name);
            if (repeat_file(folder, first_name, name, error, sizeof error) != 0) {
                cli_error(command, "%s", error);
                code = EXIT_FAILURE_OTHER;
            }
            continue;
        }
        vision_image frame;
        vision_status status = recording_draw(r, i, &frame, error, sizeof error);
        uint8_t *data = NULL;
        size_t length = 0;
        if (status == VISION_OK) {
            char dotted[8];
            snprintf(dotted, sizeof dotted, ".%s", extension);
            status = vision_image_encode(&frame, dotted, &data, &length, error, sizeof error);
        }
        vision_image_free(&frame);
        if (status != VISION_OK) {
            cli_error(command, "frame %d: %s", i, error);
            code = cli_vision_exit_code(status);
            break;
        }
        if (write_file(folder, name, data, length, error, sizeof error) != 0) {
            cli_error(command, "%s", error);
            code = EXIT_FAILURE_OTHER;
        }
        free(data);
        (*drawn)++;
        double elapsed = vision_clock_ms() / 1000.0 - started;
        if (progress && (elapsed - shown > 0.25 || i == count - 1)) {
            shown = elapsed;
            fprintf(stderr, "\rtablescribe render: frame %d of %d, %d drawn, %.1f frames/s ",
                    i + 1, count, *drawn, (i + 1) / fmax(elapsed, 1e-3));
        }
    }
    if (progress)
        fputc('\n', stderr);
    return code;
}

/* times.txt, script.txt, truth/NNNN.json and truth.json. */
static int write_truth(const cli_command *command, const recording *r, const char *folder,
                       const char *extension, const char *script_text, size_t script_length)
{
    char error[600];
    int count = recording_frame_count(r);
    /* times.txt: one line a frame */
    size_t capacity = (size_t)count * 32 + 1;
    char *times = malloc(capacity);
    vision_el_observation *truth = malloc(sizeof *truth);
    if (!times || !truth) {
        free(times);
        free(truth);
        cli_error(command, "out of memory");
        return EXIT_FAILURE_OTHER;
    }
    size_t used = 0;
    for (int i = 0; i < count; i++) {
        char name[32];
        frame_name(extension, i, name, sizeof name);
        used += (size_t)snprintf(times + used, capacity - used, "%s %lld\n", name,
                                 (long long)llround(recording_frame_time_ms(r, i)));
    }
    int failed = write_file(folder, "times.txt", times, used, error, sizeof error);
    free(times);
    if (!failed)
        failed = write_file(folder, "script.txt", script_text, script_length, error,
                            sizeof error);
    char truth_folder[4096];
    snprintf(truth_folder, sizeof truth_folder, "%s/truth", folder);
    if (!failed && mkdir(truth_folder, 0755) != 0) {
        snprintf(error, sizeof error, "%.400s: %s", truth_folder, strerror(errno));
        failed = -1;
    }
    for (int t = 0; !failed && t < recording_table_count(r); t++) {
        recording_table_truth(r, t, truth);
        char *text = observation_el_format(truth, true, false);
        char name[32];
        snprintf(name, sizeof name, "%04d.json", t);
        if (!text) {
            snprintf(error, sizeof error, "out of memory");
            failed = -1;
            break;
        }
        failed = write_file(truth_folder, name, text, strlen(text), error, sizeof error);
        free(text);
    }
    free(truth);
    if (!failed) {
        char *text = recording_index_json(r, extension);
        failed = !text ? (snprintf(error, sizeof error, "out of memory"), -1)
                       : write_file(folder, "truth.json", text, strlen(text), error,
                                    sizeof error);
        free(text);
    }
    if (failed) {
        cli_error(command, "%s", error);
        return EXIT_FAILURE_OTHER;
    }
    return EXIT_OK;
}

/* ---- the command ---- */


/* The output folder must not exist, or be empty: two recordings never mix. */
static int check_out(const cli_command *command, const char *out)
{
    struct stat info;
    if (stat(out, &info) != 0)
        return errno == ENOENT ? EXIT_OK
                               : cli_usage_error(command, "--out %s: %s", out, strerror(errno));
    if (!S_ISDIR(info.st_mode))
        return cli_usage_error(command, "--out %s: exists and is not a folder", out);
    DIR *dir = opendir(out);
    if (!dir)
        return cli_usage_error(command, "--out %s: %s", out, strerror(errno));
    struct dirent *entry;
    bool empty = true;
    while (empty && (entry = readdir(dir)) != NULL)
        empty = strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0;
    closedir(dir);
    if (!empty)
        return cli_usage_error(command, "--out %s: a folder that is not empty (a recording "
                                        "never mixes with another): give a new one",
                               out);
    return EXIT_OK;
}


int cli_render_script(const cli_command *command, const vision_render_config *config,
                      const render_script_request *request)
{
    int code = check_out(command, request->out);
    if (code != EXIT_OK)
        return code;
    char *text = NULL;
    size_t length = 0;
    if ((code = read_script(command, request->script, &text, &length)) != EXIT_OK)
        return code;
    const char *extension = request->png ? "png" : "jpg";
    vision_render_config render = *config;
    /* a JPEG file is the camera's compression: no second loss drawn unless asked for */
    if (!request->png && render.jpeg_quality == -1)
        render.jpeg_quality = 0;
    double started = vision_clock_ms() / 1000.0;
    recording *r = NULL;
    char error[600] = "";
    vision_status status = recording_from_script(text, request->script, &render,
                                                 &request->options, &r, error, sizeof error);
    if (status != VISION_OK) {
        cli_error(command, "%s", error);
        code = cli_vision_exit_code(status);
    }
    char *folder = NULL;
    if (code == EXIT_OK) {
        size_t size = strlen(request->out) + 32;
        folder = malloc(size);
        if (folder) {
            snprintf(folder, size, "%s", request->out);
            size_t end = strlen(folder);
            while (end > 1 && folder[end - 1] == '/')
                folder[--end] = '\0';
            snprintf(folder + end, size - end, ".tmp.XXXXXX");
        }
        if (!folder || !mkdtemp(folder)) {
            cli_error(command, "--out %s: cannot make a folder beside it: %s", request->out,
                      folder ? strerror(errno) : "out of memory");
            code = folder && (errno == ENOENT || errno == EACCES || errno == EROFS ||
                              errno == ENOTDIR)
                       ? EXIT_BAD_INPUT
                       : EXIT_FAILURE_OTHER;
            free(folder);
            folder = NULL;
        }
    }
    int drawn = 0;
    if (code == EXIT_OK) {
        cli_interrupts interrupts;
        cli_interrupts_catch(&interrupts);
        code = draw_frames(command, r, folder, extension, &drawn);
        if (code == EXIT_OK)
            code = write_truth(command, r, folder, extension, text, length);
        if (code == EXIT_OK && rename(folder, request->out) != 0) {
            cli_error(command, "--out %s: %s", request->out, strerror(errno));
            code = EXIT_FAILURE_OTHER;
        }
        if (code != EXIT_OK)
            remove_folder(folder);
        cli_interrupts_restore(&interrupts);
    }
    if (code == EXIT_OK) {
        double seconds = vision_clock_ms() / 1000.0 - started;
        int frames = recording_frame_count(r), fps = recording_fps(r);
        printf("Wrote %s: %d frames (%d drawn) at %d frames/s, %.1f s of play, %d tables, %d "
               "actions; %.1f s to record (%.1f frames/s).\n",
               request->out, frames, drawn, fps, frames / (double)fps, recording_table_count(r),
               recording_action_count(r), seconds, frames / fmax(seconds, 1e-3));
    }
    recording_free(r);
    free(folder);
    free(text);
    return code;
}
