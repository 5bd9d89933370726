/*
 * vision: images, the OpenCV shim, and (later) table geometry, classifiers, the recognisers and
 * the scene renderer.
 *
 *   vision_image {width, height, stride, channels, pixels}   wraps any buffer without copying
 *        │
 *        └─▶ cv_shim.cpp: every OpenCV call, behind C functions that return a status and never
 *            let an exception through (a port to OpenCV 4.7+, where aruco changed, touches only it)
 */
#ifndef TS_VISION_H
#define TS_VISION_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" { /* for the shim, the one C++ file that includes this header */
#endif

#define VISION_STATUS_TABLE(X)                           \
    X(VISION_OK, "ok")                                   \
    X(VISION_BAD_INPUT, "bad input")                     \
    X(VISION_NOT_FOUND, "no such file")                  \
    X(VISION_UNREADABLE, "not an image this build reads") \
    X(VISION_IO, "input/output error")                   \
    X(VISION_NOMEM, "out of memory")

typedef enum {
#define VISION_STATUS_ENUM(name, message) name,
    VISION_STATUS_TABLE(VISION_STATUS_ENUM)
#undef VISION_STATUS_ENUM
} vision_status;

/* The status's short message. Static storage. */
const char *vision_status_message(vision_status status);

/* An 8-bit image: 1 channel (grey) or 3 (blue, green, red: OpenCV's order). Pixel (x, y),
 * channel c is pixels[y * stride + x * channels + c]. */
typedef struct vision_image {
    int width, height;
    int stride;   /* bytes from one row to the next, >= width * channels */
    int channels; /* 1 or 3 */
    uint8_t *pixels;
    int owned;    /* non-zero: vision_image_free releases pixels */
} vision_image;

/* A new zeroed image in *image (owned). VISION_BAD_INPUT for sizes below 1 or channels not 1/3. */
vision_status vision_image_new(int width, int height, int channels, vision_image *image);

/* Releases an owned image's pixels and zeroes it. Accepts images that own nothing. */
void vision_image_free(vision_image *image);

/* Reads an image file (PNG, JPEG, ...) as 3 channels into *image (owned). On failure *image is
 * zeroed and error (size bytes) says why, naming the file. */
vision_status vision_image_load(const char *path, vision_image *image, char *error, size_t size);

/* Writes the image; the format follows the extension (.png, .jpg, ...: what OpenCV's codecs write). The
 * file appears whole or not at all. error (size bytes) says why on failure. */
vision_status vision_image_save(const char *path, const vision_image *image, char *error,
                                size_t size);

/* Draws ArUco marker id of the 4x4_50 dictionary, side pixels square with no margin, into image
 * at (x, y) (grey or colour). VISION_BAD_INPUT when it does not fit or the id is not 0..49. */
vision_status vision_draw_marker(vision_image *image, int id, int x, int y, int side);

/* Draws black text with its baseline's left end at (x, y), letters about height pixels tall. */
vision_status vision_draw_text(vision_image *image, const char *text, int x, int y, int height);

/* Fills a rectangle with a grey level (every channel). */
vision_status vision_fill(vision_image *image, int x, int y, int width, int height,
                          uint8_t value);

#ifdef __cplusplus
}
#endif

#endif
