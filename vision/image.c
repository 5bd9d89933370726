/* Images: allocation, files (through the shim's codecs), markers. */
#include "vision.h"

#include "cv_shim.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

const char *vision_status_message(vision_status status)
{
    switch (status) {
#define VISION_STATUS_MESSAGE(name, message) \
    case name:                               \
        return message;
        VISION_STATUS_TABLE(VISION_STATUS_MESSAGE)
#undef VISION_STATUS_MESSAGE
    }
    return "unknown status";
}

vision_status vision_fail(char *error, size_t size, vision_status status, const char *format, ...)
{
    if (error && size) {
        va_list arguments;
        va_start(arguments, format);
        vsnprintf(error, size, format, arguments);
        va_end(arguments);
    }
    return status;
}

vision_status vision_image_new(int width, int height, int channels, vision_image *image)
{
    memset(image, 0, sizeof *image);
    if (width < 1 || height < 1 || (channels != 1 && channels != 3) || width > 1 << 15 ||
        height > 1 << 15)
        return VISION_BAD_INPUT;
    image->pixels = calloc((size_t)width * (size_t)channels, (size_t)height);
    if (!image->pixels)
        return VISION_NOMEM;
    image->width = width;
    image->height = height;
    image->channels = channels;
    image->stride = width * channels;
    image->owned = 1;
    return VISION_OK;
}

void vision_image_free(vision_image *image)
{
    if (image->owned)
        free(image->pixels);
    memset(image, 0, sizeof *image);
}

vision_status vision_image_load(const char *path, vision_image *image, char *error, size_t size)
{
    memset(image, 0, sizeof *image);
    FILE *file = fopen(path, "rb");
    if (!file) {
        snprintf(error, size, "%s: %s", path, strerror(errno));
        return errno == ENOENT ? VISION_NOT_FOUND : VISION_IO;
    }
    uint8_t *data = NULL;
    size_t length = 0, capacity = 0;
    vision_status status = VISION_OK;
    for (;;) {
        if (length == capacity) {
            capacity = capacity ? 2 * capacity : 1 << 16;
            uint8_t *grown = realloc(data, capacity);
            if (!grown) {
                status = VISION_NOMEM;
                break;
            }
            data = grown;
        }
        size_t got = fread(data + length, 1, capacity - length, file);
        length += got;
        if (got == 0)
            break;
    }
    if (status == VISION_OK && ferror(file))
        status = VISION_IO;
    fclose(file);
    char detail[256] = "";
    if (status == VISION_OK)
        status = cv_shim_decode(data, length, image, detail, sizeof detail);
    free(data);
    if (status != VISION_OK)
        snprintf(error, size, "%s: %s", path, detail[0] ? detail : vision_status_message(status));
    return status;
}

vision_status vision_image_encode(const vision_image *image, const char *extension, uint8_t **data,
                                  size_t *length, char *error, size_t size)
{
    return cv_shim_encode(image, extension, data, length, error, size);
}

vision_status vision_image_save(const char *path, const vision_image *image, char *error,
                                size_t size)
{
    const char *extension = strrchr(path, '.');
    if (!extension || strchr(extension, '/')) {
        snprintf(error, size, "%s: no file extension to choose the format (.png, .jpg)", path);
        return VISION_BAD_INPUT;
    }
    uint8_t *data = NULL;
    size_t length = 0;
    char detail[256] = "";
    vision_status status = cv_shim_encode(image, extension, &data, &length, detail, sizeof detail);
    if (status != VISION_OK) {
        snprintf(error, size, "%s: %s", path, detail);
        return status;
    }
    /* Written beside the destination, then renamed over it: never a half-written image. */
    size_t path_length = strlen(path);
    char *temporary = malloc(path_length + 16);
    int fd = -1;
    if (temporary) {
        snprintf(temporary, path_length + 16, "%s.tmp.XXXXXX", path);
        fd = mkstemp(temporary);
    }
    bool ok = fd >= 0 && write(fd, data, length) == (ssize_t)length && fsync(fd) == 0;
    int saved_errno = errno;
    if (fd >= 0 && close(fd) != 0 && ok) {
        ok = false;
        saved_errno = errno;
    }
    if (ok && rename(temporary, path) != 0) {
        ok = false;
        saved_errno = errno;
    }
    if (!ok) {
        snprintf(error, size, "%s: %s", path, temporary ? strerror(saved_errno) : "out of memory");
        if (fd >= 0)
            unlink(temporary);
        /* A folder that is missing or not writable is the caller's input, not a failure. */
        bool users_path = saved_errno == ENOENT || saved_errno == ENOTDIR ||
                          saved_errno == EACCES || saved_errno == EROFS || saved_errno == EISDIR;
        status = !temporary ? VISION_NOMEM : users_path ? VISION_BAD_INPUT : VISION_IO;
    }
    free(temporary);
    free(data);
    return status;
}

vision_status vision_draw_marker(vision_image *image, int id, int x, int y, int side)
{
    if (id < 0 || id > 49 || side < 6 || x < 0 || y < 0 || x + side > image->width ||
        y + side > image->height)
        return VISION_BAD_INPUT;
    uint8_t *marker = malloc((size_t)side * (size_t)side);
    if (!marker)
        return VISION_NOMEM;
    char detail[128];
    vision_status status = cv_shim_aruco_marker(id, side, marker, side, detail, sizeof detail);
    for (int row = 0; status == VISION_OK && row < side; row++)
        for (int col = 0; col < side; col++)
            for (int c = 0; c < image->channels; c++)
                image->pixels[(size_t)(y + row) * (size_t)image->stride +
                              (size_t)(x + col) * (size_t)image->channels + (size_t)c] =
                    marker[(size_t)row * (size_t)side + (size_t)col];
    free(marker);
    return status;
}

vision_status vision_draw_text(vision_image *image, const char *text, int x, int y, int height)
{
    return cv_shim_text(image, text, x, y, height);
}

vision_status vision_fill(vision_image *image, int x, int y, int width, int height,
                          uint8_t value)
{
    return cv_shim_fill(image, x, y, width, height, value);
}

double vision_clock_ms(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec * 1e3 + (double)now.tv_nsec * 1e-6;
}
