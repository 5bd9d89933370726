/*
 * The profile file: OpenCV FileStorage YAML (through the geometry shim), written whole or not at
 * all, read back with every value checked.
 *
 *   format: 3 (format 2, whose art covers 0.84 of a tile's side, and format 1, without the
 *             tokens' palettes either, are read too)
 *   game: "expedition-luxor"
 *   camera: { known, width, height, fx, fy, cx, cy, distortion: 1x5 }
 *   mat: { marker_mm, width_mm, height_mm, tile_mm }
 *   expedition_luxor: { images, piece_diameter_mm, piece_height_mm, mat_colour: 1x3,
 *                       type_samples: 1xT, type_art: (T*24)x24 of 3, art_span,
 *                       colours: [names],
 *                       colour_samples: 1x8, colour_mean: 8x3, colour_spread: 8x3,
 *                       token_samples: 1xK, token_mean: Kx3, token_spread: Kx3,
 *                       token_palette: (K*P)x3, token_palette_share: KxP }
 */
#include "calibration.h"

#include "cv_shim_geometry.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PROFILE_SIZE_MAX (64u << 20) /* bytes: a profile is well under 1 MB */
#define COLOUR_LIMIT 10.0            /* balanced colours lie near 0..1; beyond this is damage */
#define ART_ROWS(types) ((types) * VISION_EL_PATCH)
#define FORMAT_2_ART_SPAN 0.84       /* the share of a tile's side art was learnt over before 3 */

void calibration_profile_init(calibration_profile *profile, const char *game)
{
    memset(profile, 0, sizeof *profile);
    profile->format = CALIBRATION_PROFILE_FORMAT;
    snprintf(profile->game, sizeof profile->game, "%s", game ? game : "");
    profile->camera.known = 0;
    vision_mat_default(&profile->mat);
    vision_el_model_init(&profile->el); /* nothing taught */
}

/* ---- the checks load and save share ---- */

static bool within(double value, double low, double high)
{
    return isfinite(value) && value >= low && value <= high;
}

static bool floats_within(const float *values, size_t count, double low, double high)
{
    for (size_t i = 0; i < count; i++)
        if (!within(values[i], low, high))
            return false;
    return true;
}

static bool ints_within(const int *values, size_t count, int low, int high)
{
    for (size_t i = 0; i < count; i++)
        if (values[i] < low || values[i] > high)
            return false;
    return true;
}

static bool game_name_valid(const char *game)
{
    size_t length = strnlen(game, CALIBRATION_GAME_MAX);
    if (length == 0 || length >= CALIBRATION_GAME_MAX)
        return false;
    for (size_t i = 0; i < length; i++)
        if (!((game[i] >= 'a' && game[i] <= 'z') || (game[i] >= '0' && game[i] <= '9') ||
              game[i] == '-'))
            return false;
    return true;
}

/* The first value out of range, described in problem; NULL when every value is in range. */
static const char *profile_problem(const calibration_profile *profile, char *problem, size_t size)
{
    const vision_camera *camera = &profile->camera;
    const vision_mat *mat = &profile->mat;
    const vision_el_model *el = &profile->el;
#define PROBLEM(...) (snprintf(problem, size, __VA_ARGS__), problem)
    if (!game_name_valid(profile->game))
        return PROBLEM("game: '%.*s' is not a game's name (lowercase letters, digits and '-', "
                       "below %d characters)",
                       CALIBRATION_GAME_MAX, profile->game, CALIBRATION_GAME_MAX);
    if (camera->known != 0 && camera->known != 1)
        return PROBLEM("camera/known: %d, expected 0 or 1", camera->known);
    if (camera->known) {
        if (camera->width < 1 || camera->width > 32768 || camera->height < 1 ||
            camera->height > 32768)
            return PROBLEM("camera: size %d x %d out of range (1 to 32768)", camera->width,
                           camera->height);
        if (!within(camera->fx, 1, 1e6) || !within(camera->fy, 1, 1e6))
            return PROBLEM("camera: focal lengths %g, %g out of range (1 to 1e6 pixels)",
                           camera->fx, camera->fy);
        if (!within(camera->cx, 0, camera->width) || !within(camera->cy, 0, camera->height))
            return PROBLEM("camera: principal point (%g, %g) outside the image", camera->cx,
                           camera->cy);
    } else if (camera->width < 0 || camera->height < 0 || !within(camera->fx, 0, 1e6) ||
               !within(camera->fy, 0, 1e6) || !within(camera->cx, -1e6, 1e6) ||
               !within(camera->cy, -1e6, 1e6)) {
        return PROBLEM("camera: values out of range for an uncalibrated camera");
    }
    for (int i = 0; i < 5; i++)
        if (!within(camera->distortion[i], -1000, 1000))
            return PROBLEM("camera/distortion: coefficient %d is %g (beyond 1000)", i + 1,
                           camera->distortion[i]);
    if (!within(mat->marker_mm, 5, 200))
        return PROBLEM("mat/marker_mm: %g out of range (5 to 200 mm)", mat->marker_mm);
    if (!within(mat->width_mm, mat->marker_mm + 1, 5000) ||
        !within(mat->height_mm, mat->marker_mm + 1, 5000))
        return PROBLEM("mat: %g x %g mm out of range (above the marker's side, to 5000 mm)",
                       mat->width_mm, mat->height_mm);
    if (!within(mat->tile_mm, 5, 500))
        return PROBLEM("mat/tile_mm: %g out of range (5 to 500 mm)", mat->tile_mm);

    if (el->images < 0 || el->images > 1000000)
        return PROBLEM("expedition_luxor/images: %d out of range", el->images);
    if (!within(el->piece_diameter_mm, 0, 500) || !within(el->piece_height_mm, 0, 500))
        return PROBLEM("expedition_luxor: piece size %g x %g mm out of range (0 to 500)",
                       el->piece_diameter_mm, el->piece_height_mm);
    if (!floats_within(el->mat_colour, 3, -COLOUR_LIMIT, COLOUR_LIMIT))
        return PROBLEM("expedition_luxor/mat_colour: out of range");
    if (!ints_within(el->type_samples, EL_TILE_TYPES, 0, 100000000))
        return PROBLEM("expedition_luxor/type_samples: a count out of range");
    if (!floats_within(&el->type_art[0][0][0][0], sizeof el->type_art / sizeof(float),
                       -COLOUR_LIMIT, COLOUR_LIMIT))
        return PROBLEM("expedition_luxor/type_art: a colour out of range");
    if (!within(el->art_span, 0.5, 1.0))
        return PROBLEM("expedition_luxor/art_span: %g out of range (0.5 to 1 of a tile's side)",
                       el->art_span);
    if (el->colour_count < 0 || el->colour_count > VISION_COLOURS_MAX)
        return PROBLEM("expedition_luxor/colours: %d colours (at most %d)", el->colour_count,
                       VISION_COLOURS_MAX);
    for (int i = 0; i < el->colour_count; i++) {
        size_t length = strnlen(el->colours[i], VISION_COLOUR_NAME_MAX);
        if (length == 0 || length >= VISION_COLOUR_NAME_MAX)
            return PROBLEM("expedition_luxor/colours: name %d is empty or too long", i + 1);
        for (int j = 0; j < i; j++)
            if (strcmp(el->colours[i], el->colours[j]) == 0)
                return PROBLEM("expedition_luxor/colours: '%s' is given twice", el->colours[i]);
    }
    if (!ints_within(el->colour_samples, VISION_COLOURS_MAX, 0, 100000000))
        return PROBLEM("expedition_luxor/colour_samples: a count out of range");
    if (!floats_within(&el->colour_mean[0][0], VISION_COLOURS_MAX * 3, -COLOUR_LIMIT,
                       COLOUR_LIMIT) ||
        !floats_within(&el->colour_spread[0][0], VISION_COLOURS_MAX * 3, 0, COLOUR_LIMIT))
        return PROBLEM("expedition_luxor: a colour's mean or spread out of range");
    if (!ints_within(el->token_samples, EL_TOKEN_TYPES, 0, 100000000))
        return PROBLEM("expedition_luxor/token_samples: a count out of range");
    if (!floats_within(&el->token_mean[0][0], EL_TOKEN_TYPES * 3, -COLOUR_LIMIT, COLOUR_LIMIT) ||
        !floats_within(&el->token_spread[0][0], EL_TOKEN_TYPES * 3, 0, COLOUR_LIMIT))
        return PROBLEM("expedition_luxor: a token's mean or spread out of range");
    if (!floats_within(&el->token_palette[0][0][0], EL_TOKEN_TYPES * VISION_EL_TOKEN_PALETTE * 3,
                       -COLOUR_LIMIT, COLOUR_LIMIT) ||
        !floats_within(&el->token_palette_share[0][0], EL_TOKEN_TYPES * VISION_EL_TOKEN_PALETTE,
                       0, 1))
        return PROBLEM("expedition_luxor: a token's palette out of range");
#undef PROBLEM
    return NULL;
}

/* ---- writing ---- */

static vision_status write_document(const calibration_profile *profile, char **text,
                                    size_t *length, char *error, size_t size)
{
    cv_geom_writer *writer;
    vision_status status = cv_geom_writer_new(&writer, error, size);
    if (status != VISION_OK)
        return status;
    const vision_camera *camera = &profile->camera;
    const vision_mat *mat = &profile->mat;
    const vision_el_model *el = &profile->el;
    /* Writes are sticky: the first failure is reported by finish. */
    cv_geom_write_int(writer, "format", profile->format);
    cv_geom_write_string(writer, "game", profile->game);

    cv_geom_write_begin(writer, "camera");
    cv_geom_write_int(writer, "known", camera->known);
    cv_geom_write_int(writer, "width", camera->width);
    cv_geom_write_int(writer, "height", camera->height);
    cv_geom_write_real(writer, "fx", camera->fx);
    cv_geom_write_real(writer, "fy", camera->fy);
    cv_geom_write_real(writer, "cx", camera->cx);
    cv_geom_write_real(writer, "cy", camera->cy);
    cv_geom_write_matrix(writer, "distortion", 1, 5, 1, CV_GEOM_DOUBLE, camera->distortion);
    cv_geom_write_end(writer);

    cv_geom_write_begin(writer, "mat");
    cv_geom_write_real(writer, "marker_mm", mat->marker_mm);
    cv_geom_write_real(writer, "width_mm", mat->width_mm);
    cv_geom_write_real(writer, "height_mm", mat->height_mm);
    cv_geom_write_real(writer, "tile_mm", mat->tile_mm);
    cv_geom_write_end(writer);

    cv_geom_write_begin(writer, "expedition_luxor");
    cv_geom_write_int(writer, "images", el->images);
    cv_geom_write_real(writer, "piece_diameter_mm", el->piece_diameter_mm);
    cv_geom_write_real(writer, "piece_height_mm", el->piece_height_mm);
    cv_geom_write_matrix(writer, "mat_colour", 1, 3, 1, CV_GEOM_FLOAT, el->mat_colour);
    cv_geom_write_matrix(writer, "type_samples", 1, EL_TILE_TYPES, 1, CV_GEOM_INT,
                         el->type_samples);
    cv_geom_write_matrix(writer, "type_art", ART_ROWS(EL_TILE_TYPES), VISION_EL_PATCH, 3,
                         CV_GEOM_FLOAT, el->type_art);
    cv_geom_write_real(writer, "art_span", el->art_span);
    cv_geom_write_strings(writer, "colours", el->colour_count, el->colours[0],
                          sizeof el->colours[0]);
    cv_geom_write_matrix(writer, "colour_samples", 1, VISION_COLOURS_MAX, 1, CV_GEOM_INT,
                         el->colour_samples);
    cv_geom_write_matrix(writer, "colour_mean", VISION_COLOURS_MAX, 3, 1, CV_GEOM_FLOAT,
                         el->colour_mean);
    cv_geom_write_matrix(writer, "colour_spread", VISION_COLOURS_MAX, 3, 1, CV_GEOM_FLOAT,
                         el->colour_spread);
    cv_geom_write_matrix(writer, "token_samples", 1, EL_TOKEN_TYPES, 1, CV_GEOM_INT,
                         el->token_samples);
    cv_geom_write_matrix(writer, "token_mean", EL_TOKEN_TYPES, 3, 1, CV_GEOM_FLOAT,
                         el->token_mean);
    cv_geom_write_matrix(writer, "token_spread", EL_TOKEN_TYPES, 3, 1, CV_GEOM_FLOAT,
                         el->token_spread);
    cv_geom_write_matrix(writer, "token_palette", EL_TOKEN_TYPES * VISION_EL_TOKEN_PALETTE, 3,
                         1, CV_GEOM_FLOAT, el->token_palette);
    cv_geom_write_matrix(writer, "token_palette_share", EL_TOKEN_TYPES, VISION_EL_TOKEN_PALETTE,
                         1, CV_GEOM_FLOAT, el->token_palette_share);
    cv_geom_write_end(writer);

    status = cv_geom_writer_finish(writer, text, length, error, size);
    cv_geom_writer_free(writer);
    return status;
}

/* Writes data to path through a temporary file beside it: the file appears whole or not at all,
 * and is on the disk when this returns. errno is set on failure. */
static bool write_atomically(const char *path, const char *data, size_t length)
{
    size_t path_length = strlen(path);
    char *temporary = malloc(path_length + 16);
    if (!temporary) {
        errno = ENOMEM;
        return false;
    }
    snprintf(temporary, path_length + 16, "%s.tmp.XXXXXX", path);
    int fd = mkstemp(temporary);
    if (fd < 0) {
        free(temporary);
        return false;
    }
    bool ok = true;
    for (size_t written = 0; ok && written < length;) {
        ssize_t n = write(fd, data + written, length - written);
        if (n < 0 && errno == EINTR)
            continue;
        ok = n > 0;
        if (ok)
            written += (size_t)n;
    }
    /* A profile is private to its owner like any file they save; mkstemp made it 0600. */
    ok = ok && fchmod(fd, 0644) == 0 && fsync(fd) == 0;
    int saved = errno;
    if (close(fd) != 0 && ok) {
        ok = false;
        saved = errno;
    }
    if (ok && rename(temporary, path) != 0) {
        ok = false;
        saved = errno;
    }
    if (!ok)
        unlink(temporary);
    free(temporary);
    if (ok) {
        /* The rename itself is made durable by syncing the folder (best effort). */
        char *copy = strdup(path);
        if (copy) {
            int folder = open(dirname(copy), O_RDONLY);
            if (folder >= 0) {
                fsync(folder);
                close(folder);
            }
            free(copy);
        }
    }
    errno = saved;
    return ok;
}

vision_status calibration_profile_save(const char *path, const calibration_profile *profile,
                                       char *error, size_t size)
{
    char problem[256];
    if (profile->format != CALIBRATION_PROFILE_FORMAT)
        return vision_fail(error, size, VISION_BAD_INPUT, "%s: cannot write format %d (this is format %d)",
                    path, profile->format, CALIBRATION_PROFILE_FORMAT);
    if (profile_problem(profile, problem, sizeof problem))
        return vision_fail(error, size, VISION_BAD_INPUT, "%s: not written: %s", path, problem);
    char *text = NULL;
    size_t length = 0;
    char detail[256];
    vision_status status = write_document(profile, &text, &length, detail, sizeof detail);
    if (status != VISION_OK)
        return vision_fail(error, size, status, "%s: %s", path, detail);
    if (!write_atomically(path, text, length)) {
        int saved = errno;
        free(text);
        bool users_path = saved == ENOENT || saved == ENOTDIR || saved == EACCES ||
                          saved == EROFS || saved == EISDIR;
        return vision_fail(error, size, users_path ? VISION_BAD_INPUT : VISION_IO, "%s: %s", path,
                    strerror(saved));
    }
    free(text);
    return VISION_OK;
}

/* ---- reading ---- */

/* Reads path whole into *data (malloc'd, NUL-terminated). */
static vision_status read_file(const char *path, char **data, size_t *length, char *error,
                               size_t size)
{
    *data = NULL;
    *length = 0;
    FILE *file = fopen(path, "rb");
    if (!file)
        return vision_fail(error, size, errno == ENOENT ? VISION_NOT_FOUND : VISION_IO, "%s: %s", path,
                    strerror(errno));
    size_t capacity = 1 << 16, used = 0;
    char *buffer = malloc(capacity + 1);
    vision_status status = buffer ? VISION_OK : VISION_NOMEM;
    while (status == VISION_OK) {
        if (used == capacity) {
            if (capacity >= PROFILE_SIZE_MAX) {
                status = vision_fail(error, size, VISION_BAD_INPUT,
                              "%s: not a profile: larger than %u MB", path, PROFILE_SIZE_MAX >> 20);
                break;
            }
            capacity *= 2;
            char *grown = realloc(buffer, capacity + 1);
            if (!grown) {
                status = VISION_NOMEM;
                break;
            }
            buffer = grown;
        }
        size_t got = fread(buffer + used, 1, capacity - used, file);
        used += got;
        if (got == 0) {
            if (ferror(file))
                status = vision_fail(error, size, VISION_IO, "%s: cannot read it", path);
            break;
        }
    }
    fclose(file);
    if (status == VISION_NOMEM)
        vision_fail(error, size, status, "%s: out of memory", path);
    if (status != VISION_OK) {
        free(buffer);
        return status;
    }
    buffer[used] = '\0';
    *data = buffer;
    *length = used;
    return VISION_OK;
}

/* Reads one value; on failure says which, naming the file. */
#define READ(call)                                                                        \
    do {                                                                                  \
        vision_status read_status = (call);                                               \
        if (read_status != VISION_OK) {                                                   \
            status = vision_fail(error, size, VISION_BAD_INPUT, "%s: not a usable profile: %s", \
                          path, cv_geom_reader_error(reader));                            \
            goto done;                                                                    \
        }                                                                                 \
    } while (0)

vision_status calibration_profile_load(const char *path, calibration_profile *profile,
                                       char *error, size_t size)
{
    char *text;
    size_t length;
    vision_status status = read_file(path, &text, &length, error, size);
    if (status != VISION_OK)
        return status;
    char detail[384];
    cv_geom_reader *reader = NULL;
    status = cv_geom_reader_new(text, length, &reader, detail, sizeof detail);
    free(text);
    if (status != VISION_OK)
        return vision_fail(error, size, status == VISION_NOMEM ? status : VISION_BAD_INPUT,
                    "%s: not a profile: %s", path, detail);

    calibration_profile read;
    memset(&read, 0, sizeof read);
    int format = 0;
    if (cv_geom_read_int(reader, "format", &format) != VISION_OK) {
        status = vision_fail(error, size, VISION_BAD_INPUT,
                      "%s: not a profile (no format number: %s)", path,
                      cv_geom_reader_error(reader));
        goto done;
    }
    if (format > CALIBRATION_PROFILE_FORMAT) {
        status = vision_fail(error, size, VISION_BAD_INPUT,
                      "%s: written by a newer tablescribe (format %d); this one reads format %d",
                      path, format, CALIBRATION_PROFILE_FORMAT);
        goto done;
    }
    if (format < 1) {
        status = vision_fail(error, size, VISION_BAD_INPUT, "%s: not a profile (format %d)", path,
                      format);
        goto done;
    }
    READ(cv_geom_read_string(reader, "game", read.game, sizeof read.game));

    vision_camera *camera = &read.camera;
    READ(cv_geom_read_int(reader, "camera/known", &camera->known));
    READ(cv_geom_read_int(reader, "camera/width", &camera->width));
    READ(cv_geom_read_int(reader, "camera/height", &camera->height));
    READ(cv_geom_read_real(reader, "camera/fx", &camera->fx));
    READ(cv_geom_read_real(reader, "camera/fy", &camera->fy));
    READ(cv_geom_read_real(reader, "camera/cx", &camera->cx));
    READ(cv_geom_read_real(reader, "camera/cy", &camera->cy));
    READ(cv_geom_read_matrix(reader, "camera/distortion", 1, 5, 1, CV_GEOM_DOUBLE,
                             camera->distortion));

    vision_mat *mat = &read.mat;
    READ(cv_geom_read_real(reader, "mat/marker_mm", &mat->marker_mm));
    READ(cv_geom_read_real(reader, "mat/width_mm", &mat->width_mm));
    READ(cv_geom_read_real(reader, "mat/height_mm", &mat->height_mm));
    READ(cv_geom_read_real(reader, "mat/tile_mm", &mat->tile_mm));

    vision_el_model *el = &read.el;
    READ(cv_geom_read_int(reader, "expedition_luxor/images", &el->images));
    READ(cv_geom_read_real(reader, "expedition_luxor/piece_diameter_mm", &el->piece_diameter_mm));
    READ(cv_geom_read_real(reader, "expedition_luxor/piece_height_mm", &el->piece_height_mm));
    READ(cv_geom_read_matrix(reader, "expedition_luxor/mat_colour", 1, 3, 1, CV_GEOM_FLOAT,
                             el->mat_colour));
    READ(cv_geom_read_matrix(reader, "expedition_luxor/type_samples", 1, EL_TILE_TYPES, 1,
                             CV_GEOM_INT, el->type_samples));
    READ(cv_geom_read_matrix(reader, "expedition_luxor/type_art", ART_ROWS(EL_TILE_TYPES),
                             VISION_EL_PATCH, 3, CV_GEOM_FLOAT, el->type_art));
    /* the art of a profile before format 3 was learnt over less of the tile: it is read so */
    el->art_span = FORMAT_2_ART_SPAN;
    if (format >= 3)
        READ(cv_geom_read_real(reader, "expedition_luxor/art_span", &el->art_span));
    READ(cv_geom_read_strings(reader, "expedition_luxor/colours", VISION_COLOURS_MAX,
                              el->colours[0], sizeof el->colours[0], &el->colour_count));
    READ(cv_geom_read_matrix(reader, "expedition_luxor/colour_samples", 1, VISION_COLOURS_MAX,
                             1, CV_GEOM_INT, el->colour_samples));
    READ(cv_geom_read_matrix(reader, "expedition_luxor/colour_mean", VISION_COLOURS_MAX, 3, 1,
                             CV_GEOM_FLOAT, el->colour_mean));
    READ(cv_geom_read_matrix(reader, "expedition_luxor/colour_spread", VISION_COLOURS_MAX, 3, 1,
                             CV_GEOM_FLOAT, el->colour_spread));
    READ(cv_geom_read_matrix(reader, "expedition_luxor/token_samples", 1, EL_TOKEN_TYPES, 1,
                             CV_GEOM_INT, el->token_samples));
    READ(cv_geom_read_matrix(reader, "expedition_luxor/token_mean", EL_TOKEN_TYPES, 3, 1,
                             CV_GEOM_FLOAT, el->token_mean));
    READ(cv_geom_read_matrix(reader, "expedition_luxor/token_spread", EL_TOKEN_TYPES, 3, 1,
                             CV_GEOM_FLOAT, el->token_spread));
    if (format >= 2) { /* format 1 has no palettes: its tokens are read by their mean colour */
        READ(cv_geom_read_matrix(reader, "expedition_luxor/token_palette",
                                 EL_TOKEN_TYPES * VISION_EL_TOKEN_PALETTE, 3, 1, CV_GEOM_FLOAT,
                                 el->token_palette));
        READ(cv_geom_read_matrix(reader, "expedition_luxor/token_palette_share", EL_TOKEN_TYPES,
                                 VISION_EL_TOKEN_PALETTE, 1, CV_GEOM_FLOAT,
                                 el->token_palette_share));
    }
    /* Saved again (by any command), it is written as this format; its tokens are read by
     * their mean colour until it is taught again and learns their palettes. */
    read.format = CALIBRATION_PROFILE_FORMAT;

    char problem[256];
    if (profile_problem(&read, problem, sizeof problem)) {
        status = vision_fail(error, size, VISION_BAD_INPUT, "%s: not a usable profile: %s", path,
                      problem);
        goto done;
    }
    *profile = read;
    status = VISION_OK;
done:
    cv_geom_reader_free(reader);
    return status;
}
