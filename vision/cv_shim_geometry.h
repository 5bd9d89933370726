/*
 * The second OpenCV shim: markers, homographies, camera calibration, warps, FileStorage.
 * C declarations over C++ bodies that catch every exception and turn it into a status and a
 * message; no C++ type crosses this header. Internal to vision/ (and calibration/, the tests and
 * the bench, which reach OpenCV through it). The codecs and drawing are in cv_shim.h.
 *
 * Pixel coordinates follow OpenCV: the centre of pixel (x, y) is at (x, y).
 */
#ifndef TS_CV_SHIM_GEOMETRY_H
#define TS_CV_SHIM_GEOMETRY_H

#include "vision.h"

#ifdef __cplusplus
extern "C" {
#endif

/* OpenCV's worker threads for everything after this call (1: one core, for the bench). */
void cv_geom_set_threads(int threads);

/* ---- markers ---- */

typedef enum {
    CV_GEOM_DICT_4X4_50,  /* the table's markers */
    CV_GEOM_DICT_5X5_100, /* the ChArUco board's: never taken for the table's */
} cv_geom_dictionary;

typedef struct cv_geom_marker {
    int id;
    vision_point corners[4]; /* clockwise from the marker's own top-left, as aruco gives them */
} cv_geom_marker;

/*
 * A grey copy of image at 1/downscale of its size (1 or 2) in *grey (owned;
 * vision_image_free). A grey image is copied too, so that the caller always frees.
 */
vision_status cv_geom_grey(const vision_image *image, int downscale, vision_image *grey,
                           char *error, size_t error_size);

/*
 * Detects the markers of dictionary in a grey image that is 1/scale of the frame's size (1 or
 * 2), thresholded with one adaptive window of window pixels (odd, 3 or more), each candidate's
 * cells read at cell_px pixels a side (aruco's default is 4; 8 reads a small blurred marker's
 * bits from more samples): their corners are given in the frame's pixels, not refined. Up to
 * capacity markers in markers[], their number in *count (markers beyond capacity are dropped).
 */
vision_status cv_geom_detect_markers(const vision_image *grey, int scale,
                                     cv_geom_dictionary dictionary, int window, int cell_px,
                                     cv_geom_marker *markers, int capacity, int *count,
                                     char *error, size_t error_size);

/* Refines corners in place to sub-pixel accuracy (cornerSubPix) in a grey image, searching
 * window pixels either side; corners nearer the image's edge than that stay as they are. */
vision_status cv_geom_refine_corners(const vision_image *grey, vision_point *points, int count,
                                     int window, char *error, size_t error_size);

/* ---- geometry ---- */

/* The homography (row-major) taking from[i] to to[i], least squares over all count >= 4 points. */
vision_status cv_geom_find_homography(const vision_point *from, const vision_point *to,
                                      int count, double homography[9], char *error,
                                      size_t error_size);

/* The pixels points[] would be at through the camera without its lens distortion (same
 * intrinsics). out may be points. camera must be known. */
vision_status cv_geom_undistort_points(const vision_camera *camera, const vision_point *points,
                                       vision_point *out, int count, char *error,
                                       size_t error_size);

/*
 * Fills dst (allocated by the caller, same channels as src) from src: dst pixel p takes src at
 * dst_to_src * p (row-major homography), bilinear; outside src it takes border.
 */
vision_status cv_geom_warp(const vision_image *src, const double dst_to_src[9], vision_image *dst,
                           uint8_t border, char *error, size_t error_size);

/* Fills dst from src: dst pixel (x, y) takes src at (map_x, map_y)[y * dst->width + x], bilinear;
 * outside src it takes border. */
vision_status cv_geom_remap(const vision_image *src, const float *map_x, const float *map_y,
                            vision_image *dst, uint8_t border, char *error, size_t error_size);

/* ---- ChArUco (camera calibration) ---- */

typedef struct cv_geom_charuco {
    int squares_x, squares_y; /* chessboard squares across and down */
    double square_mm;         /* a square's side */
    double marker_mm;         /* the side of the marker inside each white square */
} cv_geom_charuco;

/* The board as grey pixels, square_px a square, no margin, into *image (owned; vision_image_free),
 * squares_x * square_px wide. Markers of DICT_5X5_100. */
vision_status cv_geom_charuco_draw(const cv_geom_charuco *board, int square_px,
                                   vision_image *image, char *error, size_t error_size);

/* The board's inner chessboard corners seen in an image: up to capacity in corners[] with their
 * ids (0 .. (squares_x - 1) * (squares_y - 1) - 1), their number in *count (0: none seen). */
vision_status cv_geom_charuco_detect(const cv_geom_charuco *board, const vision_image *image,
                                     vision_point *corners, int *ids, int capacity, int *count,
                                     char *error, size_t error_size);

/*
 * Calibrates a camera from views of the board: view v's corners and ids are the next counts[v]
 * entries of corners and ids. *camera receives the intrinsics and distortion (known = 1, width x
 * height), *rms_px the reprojection error.
 */
vision_status cv_geom_charuco_calibrate(const cv_geom_charuco *board, int views,
                                        const int *counts, const vision_point *corners,
                                        const int *ids, int width, int height,
                                        vision_camera *camera, double *rms_px, char *error,
                                        size_t error_size);

/* ---- FileStorage (YAML) ---- */

typedef enum { CV_GEOM_INT, CV_GEOM_FLOAT, CV_GEOM_DOUBLE } cv_geom_depth;

/*
 * A YAML document being written in memory. Writes are sticky: after the first failure every
 * write does nothing and returns it; cv_geom_writer_finish reports it.
 */
typedef struct cv_geom_writer cv_geom_writer;

/* A new writer in *writer; free it with cv_geom_writer_free. */
vision_status cv_geom_writer_new(cv_geom_writer **writer, char *error, size_t error_size);
void cv_geom_writer_free(cv_geom_writer *writer); /* accepts NULL */

vision_status cv_geom_write_int(cv_geom_writer *writer, const char *name, int value);
vision_status cv_geom_write_real(cv_geom_writer *writer, const char *name, double value);
vision_status cv_geom_write_string(cv_geom_writer *writer, const char *name, const char *value);
/* A map of named values: the writes up to cv_geom_write_end go inside it. */
vision_status cv_geom_write_begin(cv_geom_writer *writer, const char *name);
vision_status cv_geom_write_end(cv_geom_writer *writer);
/* A matrix rows x cols of channels values each, row-major, with its dimensions. */
vision_status cv_geom_write_matrix(cv_geom_writer *writer, const char *name, int rows, int cols,
                                   int channels, cv_geom_depth depth, const void *data);
/* A list of count strings, the first at first, the next stride bytes further. */
vision_status cv_geom_write_strings(cv_geom_writer *writer, const char *name, int count,
                                    const char *first, size_t stride);

/* The document as text in *text (malloc'd, NUL-terminated, caller frees), or the first failure
 * of the writes with error saying which. */
vision_status cv_geom_writer_finish(cv_geom_writer *writer, char **text, size_t *size,
                                    char *error, size_t error_size);

/*
 * A YAML document being read. Values are found by path: names separated by '/'
 * ("mat/width_mm"). Reads return VISION_NOT_FOUND for a missing value and VISION_BAD_INPUT for
 * one of the wrong kind or size; cv_geom_reader_error then says what is wrong (the path named).
 * Out-parameters are unchanged on failure.
 */
typedef struct cv_geom_reader cv_geom_reader;

/* Parses text (size bytes). VISION_BAD_INPUT, error saying why, when it is not YAML that
 * FileStorage reads. */
vision_status cv_geom_reader_new(const char *text, size_t size, cv_geom_reader **reader,
                                 char *error, size_t error_size);
void cv_geom_reader_free(cv_geom_reader *reader); /* accepts NULL */
const char *cv_geom_reader_error(const cv_geom_reader *reader); /* the last failure's message */

vision_status cv_geom_read_int(cv_geom_reader *reader, const char *path, int *value);
vision_status cv_geom_read_real(cv_geom_reader *reader, const char *path, double *value);
/* Fails with VISION_BAD_INPUT when the string does not fit size bytes with its NUL. */
vision_status cv_geom_read_string(cv_geom_reader *reader, const char *path, char *value,
                                  size_t size);
/* Reads a matrix that must be rows x cols x channels of depth into data (row-major). */
vision_status cv_geom_read_matrix(cv_geom_reader *reader, const char *path, int rows, int cols,
                                  int channels, cv_geom_depth depth, void *data);
/* Reads a list of at most max_count strings of at most stride - 1 bytes each. */
vision_status cv_geom_read_strings(cv_geom_reader *reader, const char *path, int max_count,
                                   char *first, size_t stride, int *count);

#ifdef __cplusplus
}
#endif

#endif
