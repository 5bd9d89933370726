// The second OpenCV shim: markers, homographies, camera calibration, warps, FileStorage.
// OpenCV 4.6's aruco API (Ptr<Dictionary>, DetectorParameters::create, CharucoBoard::create);
// a port to 4.7+, where aruco became ArucoDetector, touches this file only. Nothing here may
// throw across the C boundary.
#include "cv_shim_geometry.h"

#include <opencv2/aruco.hpp>
#include <opencv2/aruco/charuco.hpp>
#include <opencv2/calib3d.hpp>
#include <opencv2/core.hpp>
#include <opencv2/core/persistence.hpp>
#include <opencv2/imgproc.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace {

vision_status fail(char *error, size_t size, vision_status status, const char *what)
{
    if (error && size)
        std::snprintf(error, size, "%s", what);
    return status;
}

// OpenCV's exception text is several lines; the first line past "error: (-215...)" is enough.
std::string short_message(const std::exception &e)
{
    std::string text = e.what();
    const cv::Exception *cv_error = dynamic_cast<const cv::Exception *>(&e);
    if (cv_error && !cv_error->err.empty())
        text = cv_error->err;
    for (char &c : text)
        if (c == '\n' || c == '\r')
            c = ' ';
    return text;
}

vision_status caught(char *error, size_t size, vision_status status, const std::exception &e)
{
    if (dynamic_cast<const std::bad_alloc *>(&e))
        return fail(error, size, VISION_NOMEM, "out of memory");
    return fail(error, size, status, short_message(e).c_str());
}

cv::Mat wrap(const vision_image *image)
{
    return cv::Mat(image->height, image->width, image->channels == 1 ? CV_8UC1 : CV_8UC3,
                   image->pixels, static_cast<size_t>(image->stride));
}

bool valid(const vision_image *image)
{
    return image && image->pixels && image->width > 0 && image->height > 0 &&
           (image->channels == 1 || image->channels == 3) &&
           image->stride >= image->width * image->channels;
}

cv::Ptr<cv::aruco::Dictionary> dictionary_of(cv_geom_dictionary dictionary)
{
    return cv::aruco::getPredefinedDictionary(dictionary == CV_GEOM_DICT_5X5_100
                                                  ? cv::aruco::DICT_5X5_100
                                                  : cv::aruco::DICT_4X4_50);
}

cv::Mat camera_matrix(const vision_camera *camera)
{
    return (cv::Mat_<double>(3, 3) << camera->fx, 0, camera->cx, 0, camera->fy, camera->cy, 0,
            0, 1);
}

cv::Ptr<cv::aruco::CharucoBoard> charuco_board(const cv_geom_charuco *board)
{
    return cv::aruco::CharucoBoard::create(board->squares_x, board->squares_y,
                                           static_cast<float>(board->square_mm),
                                           static_cast<float>(board->marker_mm),
                                           dictionary_of(CV_GEOM_DICT_5X5_100));
}

} // namespace

extern "C" void cv_geom_set_threads(int threads)
{
    try {
        cv::setNumThreads(threads);
    } catch (const std::exception &) {
        // Only the speed changes.
    }
}

// ---- markers ----

extern "C" vision_status cv_geom_grey(const vision_image *image, int downscale,
                                      vision_image *grey, char *error, size_t error_size)
{
    std::memset(grey, 0, sizeof *grey);
    if (!valid(image) || (downscale != 1 && downscale != 2))
        return fail(error, error_size, VISION_BAD_INPUT, "empty image");
    int width = image->width / downscale, height = image->height / downscale;
    vision_status status = vision_image_new(width < 1 ? 1 : width, height < 1 ? 1 : height, 1,
                                            grey);
    if (status != VISION_OK)
        return fail(error, error_size, status, vision_status_message(status));
    try {
        cv::Mat source = wrap(image), out = wrap(grey);
        // At half size the colour is averaged first: a quarter of the pixels to convert.
        if (downscale == 2) {
            cv::Mat half;
            cv::resize(source, half, out.size(), 0, 0, cv::INTER_AREA);
            source = half;
        }
        if (source.channels() == 3)
            cv::cvtColor(source, out, cv::COLOR_BGR2GRAY);
        else
            source.copyTo(out);
        return VISION_OK;
    } catch (const std::exception &e) {
        vision_image_free(grey);
        return caught(error, error_size, VISION_BAD_INPUT, e);
    }
}

extern "C" vision_status cv_geom_detect_markers(const vision_image *grey, int scale,
                                                cv_geom_dictionary dictionary, int window,
                                                int cell_px, cv_geom_marker *markers, int capacity,
                                                int *count, char *error, size_t error_size)
{
    *count = 0;
    if (!valid(grey) || grey->channels != 1 || (scale != 1 && scale != 2) || window < 3 ||
        window % 2 == 0 || cell_px < 1)
        return fail(error, error_size, VISION_BAD_INPUT, "markers are searched in a grey image");
    try {
        cv::Ptr<cv::aruco::DetectorParameters> parameters =
            cv::aruco::DetectorParameters::create();
        // One threshold window per call: measured on rendered 1080p frames searched at half
        // size (bench/README.md), a window of 7 pixels finds 95 of 96 markers in half the time
        // of the default three (3, 13, 23); and aruco 4.6 merges the candidates of several
        // windows so that a small blurred marker one window alone finds can be lost, where
        // trying the windows one by one (as vision_register does for a marker it missed) finds
        // it. Quads smaller than about 10 pixels a side could not be decoded anyway.
        parameters->adaptiveThreshWinSizeMin = window;
        parameters->adaptiveThreshWinSizeMax = window;
        parameters->adaptiveThreshWinSizeStep = 10;
        parameters->minMarkerPerimeterRate = 0.04;
        parameters->cornerRefinementMethod = cv::aruco::CORNER_REFINE_NONE;
        parameters->perspectiveRemovePixelPerCell = cell_px;
        std::vector<std::vector<cv::Point2f>> corners;
        std::vector<int> ids;
        cv::aruco::detectMarkers(wrap(grey), dictionary_of(dictionary), corners, ids, parameters);
        for (size_t i = 0; i < ids.size() && *count < capacity; i++) {
            cv_geom_marker *marker = &markers[*count];
            marker->id = ids[i];
            for (int c = 0; c < 4; c++) {
                // Pixel centres: x_frame + 0.5 = (x_grey + 0.5) * scale.
                marker->corners[c].x = (corners[i][c].x + 0.5) * scale - 0.5;
                marker->corners[c].y = (corners[i][c].y + 0.5) * scale - 0.5;
            }
            (*count)++;
        }
        return VISION_OK;
    } catch (const std::exception &e) {
        *count = 0;
        return caught(error, error_size, VISION_BAD_INPUT, e);
    }
}

extern "C" vision_status cv_geom_refine_corners(const vision_image *grey, vision_point *points,
                                                int count, int window, char *error,
                                                size_t error_size)
{
    if (!valid(grey) || grey->channels != 1 || count < 0 || window < 1)
        return fail(error, error_size, VISION_BAD_INPUT, "corners are refined in a grey image");
    if (count == 0)
        return VISION_OK;
    try {
        // cornerSubPix wants its whole window inside the image: corners nearer the edge than
        // that keep their place.
        std::vector<cv::Point2f> corners;
        std::vector<int> which;
        for (int i = 0; i < count; i++)
            if (points[i].x >= window + 1 && points[i].y >= window + 1 &&
                points[i].x <= grey->width - window - 2 && points[i].y <= grey->height - window - 2) {
                corners.push_back(cv::Point2f(static_cast<float>(points[i].x),
                                              static_cast<float>(points[i].y)));
                which.push_back(i);
            }
        if (corners.empty())
            return VISION_OK;
        cv::cornerSubPix(wrap(grey), corners, cv::Size(window, window), cv::Size(-1, -1),
                         cv::TermCriteria(cv::TermCriteria::EPS + cv::TermCriteria::COUNT, 30,
                                          0.01));
        for (size_t j = 0; j < which.size(); j++) {
            points[which[j]].x = corners[j].x;
            points[which[j]].y = corners[j].y;
        }
        return VISION_OK;
    } catch (const std::exception &e) {
        return caught(error, error_size, VISION_BAD_INPUT, e);
    }
}

// ---- geometry ----

extern "C" vision_status cv_geom_find_homography(const vision_point *from, const vision_point *to,
                                                 int count, double homography[9], char *error,
                                                 size_t error_size)
{
    if (count < 4)
        return fail(error, error_size, VISION_BAD_INPUT, "a homography needs 4 points");
    try {
        std::vector<cv::Point2d> source(static_cast<size_t>(count)),
            target(static_cast<size_t>(count));
        for (int i = 0; i < count; i++) {
            source[static_cast<size_t>(i)] = cv::Point2d(from[i].x, from[i].y);
            target[static_cast<size_t>(i)] = cv::Point2d(to[i].x, to[i].y);
        }
        cv::Mat h = cv::findHomography(source, target, 0);
        if (h.empty() || h.rows != 3 || h.cols != 3)
            return fail(error, error_size, VISION_BAD_INPUT,
                        "the points do not determine a homography");
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++)
                homography[r * 3 + c] = h.at<double>(r, c);
        return VISION_OK;
    } catch (const std::exception &e) {
        return caught(error, error_size, VISION_BAD_INPUT, e);
    }
}

extern "C" vision_status cv_geom_undistort_points(const vision_camera *camera,
                                                  const vision_point *points, vision_point *out,
                                                  int count, char *error, size_t error_size)
{
    if (!camera->known || count < 0)
        return fail(error, error_size, VISION_BAD_INPUT, "undistorting needs a known camera");
    if (count == 0)
        return VISION_OK;
    try {
        std::vector<cv::Point2d> source(static_cast<size_t>(count)), target;
        for (int i = 0; i < count; i++)
            source[static_cast<size_t>(i)] = cv::Point2d(points[i].x, points[i].y);
        cv::Mat k = camera_matrix(camera);
        cv::Mat distortion(1, 5, CV_64F, const_cast<double *>(camera->distortion));
        // 5 iterations, the default, leave a strong lens's corners a pixel off.
        cv::undistortPoints(source, target, k, distortion, cv::noArray(), k,
                            cv::TermCriteria(cv::TermCriteria::COUNT + cv::TermCriteria::EPS, 40,
                                             1e-9));
        for (int i = 0; i < count; i++) {
            out[i].x = target[static_cast<size_t>(i)].x;
            out[i].y = target[static_cast<size_t>(i)].y;
        }
        return VISION_OK;
    } catch (const std::exception &e) {
        return caught(error, error_size, VISION_BAD_INPUT, e);
    }
}

extern "C" vision_status cv_geom_warp(const vision_image *src, const double dst_to_src[9],
                                      vision_image *dst, uint8_t border, char *error,
                                      size_t error_size)
{
    if (!valid(src) || !valid(dst) || src->channels != dst->channels)
        return fail(error, error_size, VISION_BAD_INPUT, "warp: empty image or channels differ");
    try {
        cv::Mat m(3, 3, CV_64F, const_cast<double *>(dst_to_src));
        cv::Mat out = wrap(dst);
        cv::warpPerspective(wrap(src), out, m, out.size(), cv::INTER_LINEAR | cv::WARP_INVERSE_MAP,
                            cv::BORDER_CONSTANT, cv::Scalar::all(border));
        return VISION_OK;
    } catch (const std::exception &e) {
        return caught(error, error_size, VISION_BAD_INPUT, e);
    }
}

extern "C" vision_status cv_geom_remap(const vision_image *src, const float *map_x,
                                       const float *map_y, vision_image *dst, uint8_t border,
                                       char *error, size_t error_size)
{
    if (!valid(src) || !valid(dst) || src->channels != dst->channels)
        return fail(error, error_size, VISION_BAD_INPUT, "remap: empty image or channels differ");
    try {
        cv::Mat mx(dst->height, dst->width, CV_32FC1, const_cast<float *>(map_x));
        cv::Mat my(dst->height, dst->width, CV_32FC1, const_cast<float *>(map_y));
        cv::Mat out = wrap(dst);
        cv::remap(wrap(src), out, mx, my, cv::INTER_LINEAR, cv::BORDER_CONSTANT,
                  cv::Scalar::all(border));
        return VISION_OK;
    } catch (const std::exception &e) {
        return caught(error, error_size, VISION_BAD_INPUT, e);
    }
}

// ---- ChArUco ----

extern "C" vision_status cv_geom_charuco_draw(const cv_geom_charuco *board, int square_px,
                                              vision_image *image, char *error,
                                              size_t error_size)
{
    std::memset(image, 0, sizeof *image);
    if (board->squares_x < 2 || board->squares_y < 2 || square_px < 8 ||
        !(board->marker_mm > 0 && board->marker_mm < board->square_mm))
        return fail(error, error_size, VISION_BAD_INPUT, "not a ChArUco board");
    vision_status status = vision_image_new(board->squares_x * square_px,
                                            board->squares_y * square_px, 1, image);
    if (status != VISION_OK)
        return fail(error, error_size, status, vision_status_message(status));
    try {
        cv::Mat drawn;
        charuco_board(board)->draw(cv::Size(image->width, image->height), drawn, 0, 1);
        if (drawn.size() != cv::Size(image->width, image->height) || drawn.type() != CV_8UC1) {
            vision_image_free(image);
            return fail(error, error_size, VISION_BAD_INPUT, "the board drew at another size");
        }
        drawn.copyTo(wrap(image));
        return VISION_OK;
    } catch (const std::exception &e) {
        vision_image_free(image);
        return caught(error, error_size, VISION_BAD_INPUT, e);
    }
}

extern "C" vision_status cv_geom_charuco_detect(const cv_geom_charuco *board,
                                                const vision_image *image, vision_point *corners,
                                                int *ids, int capacity, int *count, char *error,
                                                size_t error_size)
{
    *count = 0;
    if (!valid(image))
        return fail(error, error_size, VISION_BAD_INPUT, "empty image");
    try {
        cv::Mat grey;
        if (image->channels == 3)
            cv::cvtColor(wrap(image), grey, cv::COLOR_BGR2GRAY);
        else
            grey = wrap(image);
        cv::Ptr<cv::aruco::CharucoBoard> charuco = charuco_board(board);
        std::vector<std::vector<cv::Point2f>> marker_corners;
        std::vector<int> marker_ids;
        cv::aruco::detectMarkers(grey, charuco->dictionary, marker_corners, marker_ids);
        if (marker_ids.empty())
            return VISION_OK;
        std::vector<cv::Point2f> found;
        std::vector<int> found_ids;
        cv::aruco::interpolateCornersCharuco(marker_corners, marker_ids, grey, charuco, found,
                                             found_ids);
        for (size_t i = 0; i < found_ids.size() && *count < capacity; i++) {
            corners[*count].x = found[i].x;
            corners[*count].y = found[i].y;
            ids[*count] = found_ids[i];
            (*count)++;
        }
        return VISION_OK;
    } catch (const std::exception &e) {
        *count = 0;
        return caught(error, error_size, VISION_BAD_INPUT, e);
    }
}

extern "C" vision_status cv_geom_charuco_calibrate(const cv_geom_charuco *board, int views,
                                                   const int *counts, const vision_point *corners,
                                                   const int *ids, int width, int height,
                                                   vision_camera *camera, double *rms_px,
                                                   char *error, size_t error_size)
{
    if (views < 1 || width < 1 || height < 1)
        return fail(error, error_size, VISION_BAD_INPUT, "no views to calibrate from");
    try {
        std::vector<cv::Mat> all_corners, all_ids;
        size_t at = 0;
        for (int v = 0; v < views; v++) {
            cv::Mat view_corners(counts[v], 1, CV_32FC2), view_ids(counts[v], 1, CV_32SC1);
            for (int i = 0; i < counts[v]; i++, at++) {
                view_corners.at<cv::Vec2f>(i) = cv::Vec2f(static_cast<float>(corners[at].x),
                                                          static_cast<float>(corners[at].y));
                view_ids.at<int>(i) = ids[at];
            }
            all_corners.push_back(view_corners);
            all_ids.push_back(view_ids);
        }
        cv::Mat k, distortion;
        double rms = cv::aruco::calibrateCameraCharuco(all_corners, all_ids, charuco_board(board),
                                                       cv::Size(width, height), k, distortion);
        if (k.rows != 3 || k.cols != 3 || distortion.total() < 5)
            return fail(error, error_size, VISION_BAD_INPUT, "calibration gave no camera");
        k.convertTo(k, CV_64F);
        distortion.convertTo(distortion, CV_64F);
        std::memset(camera, 0, sizeof *camera);
        camera->known = 1;
        camera->width = width;
        camera->height = height;
        camera->fx = k.at<double>(0, 0);
        camera->fy = k.at<double>(1, 1);
        camera->cx = k.at<double>(0, 2);
        camera->cy = k.at<double>(1, 2);
        const double *d = distortion.ptr<double>();
        for (int i = 0; i < 5; i++)
            camera->distortion[i] = d[i];
        *rms_px = rms;
        return VISION_OK;
    } catch (const std::exception &e) {
        return caught(error, error_size, VISION_BAD_INPUT, e);
    }
}

// ---- FileStorage ----

struct cv_geom_writer {
    cv::FileStorage storage;
    vision_status status = VISION_OK;
    std::string error;
};

struct cv_geom_reader {
    cv::FileStorage storage;
    std::string error;
};

namespace {

int cv_depth(cv_geom_depth depth)
{
    return depth == CV_GEOM_INT ? CV_32S : depth == CV_GEOM_FLOAT ? CV_32F : CV_64F;
}

const char *depth_name(cv_geom_depth depth)
{
    return depth == CV_GEOM_INT ? "whole numbers" : depth == CV_GEOM_FLOAT ? "floats" : "doubles";
}

// Runs one write unless an earlier one failed; the first failure sticks.
template <typename Write> vision_status write_step(cv_geom_writer *writer, const char *name,
                                                   Write write)
{
    if (writer->status != VISION_OK)
        return writer->status;
    try {
        write();
    } catch (const std::exception &e) {
        char message[256];
        writer->status = caught(message, sizeof message, VISION_BAD_INPUT, e);
        writer->error = std::string("cannot write ") + (name ? name : "the end of a map") + ": " +
                        message;
    }
    return writer->status;
}

vision_status read_failure(cv_geom_reader *reader, vision_status status, const char *path,
                           const std::string &what)
{
    reader->error = std::string(path) + ": " + what;
    return status;
}

// The node at path, or an empty node when any name on the way is missing.
cv::FileNode find(cv_geom_reader *reader, const char *path)
{
    std::string rest(path);
    cv::FileNode node;
    bool top = true;
    for (;;) {
        size_t slash = rest.find('/');
        std::string name = rest.substr(0, slash);
        if (top) {
            node = reader->storage[name];
            top = false;
        } else {
            if (!node.isMap())
                return cv::FileNode();
            node = node[name];
        }
        if (node.empty() || slash == std::string::npos)
            return node;
        rest = rest.substr(slash + 1);
    }
}

} // namespace

extern "C" vision_status cv_geom_writer_new(cv_geom_writer **writer, char *error,
                                            size_t error_size)
{
    *writer = nullptr;
    try {
        std::unique_ptr<cv_geom_writer> made(new cv_geom_writer);
        made->storage.open(".yml", cv::FileStorage::WRITE | cv::FileStorage::MEMORY |
                                       cv::FileStorage::FORMAT_YAML);
        if (!made->storage.isOpened())
            return fail(error, error_size, VISION_IO, "cannot start a YAML document");
        *writer = made.release();
        return VISION_OK;
    } catch (const std::exception &e) {
        return caught(error, error_size, VISION_IO, e);
    }
}

extern "C" void cv_geom_writer_free(cv_geom_writer *writer)
{
    try {
        delete writer;
    } catch (...) {
        // A storage left open is released with its memory; nothing to report.
    }
}

extern "C" vision_status cv_geom_write_int(cv_geom_writer *writer, const char *name, int value)
{
    return write_step(writer, name, [&] { writer->storage << name << value; });
}

extern "C" vision_status cv_geom_write_real(cv_geom_writer *writer, const char *name,
                                            double value)
{
    return write_step(writer, name, [&] { writer->storage << name << value; });
}

extern "C" vision_status cv_geom_write_string(cv_geom_writer *writer, const char *name,
                                              const char *value)
{
    return write_step(writer, name, [&] { writer->storage << name << std::string(value); });
}

extern "C" vision_status cv_geom_write_begin(cv_geom_writer *writer, const char *name)
{
    return write_step(writer, name, [&] { writer->storage << name << "{"; });
}

extern "C" vision_status cv_geom_write_end(cv_geom_writer *writer)
{
    return write_step(writer, nullptr, [&] { writer->storage << "}"; });
}

extern "C" vision_status cv_geom_write_matrix(cv_geom_writer *writer, const char *name, int rows,
                                              int cols, int channels, cv_geom_depth depth,
                                              const void *data)
{
    return write_step(writer, name, [&] {
        cv::Mat matrix(rows, cols, CV_MAKETYPE(cv_depth(depth), channels),
                       const_cast<void *>(data));
        writer->storage << name << matrix;
    });
}

extern "C" vision_status cv_geom_write_strings(cv_geom_writer *writer, const char *name,
                                               int count, const char *first, size_t stride)
{
    return write_step(writer, name, [&] {
        writer->storage << name << "[";
        for (int i = 0; i < count; i++)
            writer->storage << std::string(first + static_cast<size_t>(i) * stride);
        writer->storage << "]";
    });
}

extern "C" vision_status cv_geom_writer_finish(cv_geom_writer *writer, char **text, size_t *size,
                                               char *error, size_t error_size)
{
    *text = nullptr;
    *size = 0;
    if (writer->status != VISION_OK)
        return fail(error, error_size, writer->status, writer->error.c_str());
    try {
        std::string document = writer->storage.releaseAndGetString();
        *text = static_cast<char *>(std::malloc(document.size() + 1));
        if (!*text)
            return fail(error, error_size, VISION_NOMEM, "out of memory");
        std::memcpy(*text, document.c_str(), document.size() + 1);
        *size = document.size();
        return VISION_OK;
    } catch (const std::exception &e) {
        return caught(error, error_size, VISION_IO, e);
    }
}

extern "C" vision_status cv_geom_reader_new(const char *text, size_t size,
                                            cv_geom_reader **reader, char *error,
                                            size_t error_size)
{
    *reader = nullptr;
    try {
        // FileStorage reads a C string: text with a NUL inside is not YAML it could read whole.
        if (std::memchr(text, '\0', size))
            return fail(error, error_size, VISION_BAD_INPUT, "not YAML: binary data");
        // FileStorage reads YAML from memory only after its "%YAML" header; a hand-written file
        // may lack it.
        std::string document(text, size);
        if (document.compare(0, 5, "%YAML") != 0)
            document = "%YAML:1.0\n---\n" + document;
        std::unique_ptr<cv_geom_reader> made(new cv_geom_reader);
        made->storage.open(document,
                           cv::FileStorage::READ | cv::FileStorage::MEMORY |
                               cv::FileStorage::FORMAT_YAML);
        if (!made->storage.isOpened() || !made->storage.root().isMap())
            return fail(error, error_size, VISION_BAD_INPUT, "not YAML that FileStorage reads");
        *reader = made.release();
        return VISION_OK;
    } catch (const std::exception &e) {
        char message[256];
        caught(message, sizeof message, VISION_BAD_INPUT, e);
        char full[320];
        std::snprintf(full, sizeof full, "unreadable YAML (%s)", message);
        return fail(error, error_size, VISION_BAD_INPUT, full);
    }
}

extern "C" void cv_geom_reader_free(cv_geom_reader *reader)
{
    try {
        delete reader;
    } catch (...) {
        // Nothing to report: the document was only read.
    }
}

extern "C" const char *cv_geom_reader_error(const cv_geom_reader *reader)
{
    return reader->error.c_str();
}

extern "C" vision_status cv_geom_read_int(cv_geom_reader *reader, const char *path, int *value)
{
    try {
        cv::FileNode node = find(reader, path);
        if (node.empty() || node.isNone())
            return read_failure(reader, VISION_NOT_FOUND, path, "missing");
        if (!node.isInt())
            return read_failure(reader, VISION_BAD_INPUT, path, "not a whole number");
        *value = static_cast<int>(node);
        return VISION_OK;
    } catch (const std::exception &e) {
        return read_failure(reader, VISION_BAD_INPUT, path, short_message(e));
    }
}

extern "C" vision_status cv_geom_read_real(cv_geom_reader *reader, const char *path,
                                           double *value)
{
    try {
        cv::FileNode node = find(reader, path);
        if (node.empty() || node.isNone())
            return read_failure(reader, VISION_NOT_FOUND, path, "missing");
        if (!node.isReal() && !node.isInt())
            return read_failure(reader, VISION_BAD_INPUT, path, "not a number");
        *value = static_cast<double>(node);
        return VISION_OK;
    } catch (const std::exception &e) {
        return read_failure(reader, VISION_BAD_INPUT, path, short_message(e));
    }
}

extern "C" vision_status cv_geom_read_string(cv_geom_reader *reader, const char *path,
                                             char *value, size_t size)
{
    try {
        cv::FileNode node = find(reader, path);
        if (node.empty() || node.isNone())
            return read_failure(reader, VISION_NOT_FOUND, path, "missing");
        if (!node.isString())
            return read_failure(reader, VISION_BAD_INPUT, path, "not a string");
        std::string text = node.string();
        if (text.size() + 1 > size || std::memchr(text.data(), '\0', text.size()))
            return read_failure(reader, VISION_BAD_INPUT, path,
                                "longer than " + std::to_string(size - 1) + " characters");
        std::memcpy(value, text.c_str(), text.size() + 1);
        return VISION_OK;
    } catch (const std::exception &e) {
        return read_failure(reader, VISION_BAD_INPUT, path, short_message(e));
    }
}

extern "C" vision_status cv_geom_read_matrix(cv_geom_reader *reader, const char *path, int rows,
                                             int cols, int channels, cv_geom_depth depth,
                                             void *data)
{
    char expected[160];
    std::snprintf(expected, sizeof expected, "expected a %dx%d matrix of %s%s", rows, cols,
                  channels > 1 ? (std::to_string(channels) + " ").c_str() : "",
                  depth_name(depth));
    try {
        cv::FileNode node = find(reader, path);
        if (node.empty() || node.isNone())
            return read_failure(reader, VISION_NOT_FOUND, path, "missing");
        // The dimensions are checked before the data is read, so that a damaged file cannot ask
        // for a huge allocation.
        if (!node.isMap() || !node["rows"].isInt() || !node["cols"].isInt() ||
            !node["dt"].isString() || !node["data"].isSeq())
            return read_failure(reader, VISION_BAD_INPUT, path, std::string("not a matrix, ") + expected);
        int found_rows = static_cast<int>(node["rows"]), found_cols = static_cast<int>(node["cols"]);
        if (found_rows != rows || found_cols != cols)
            return read_failure(reader, VISION_BAD_INPUT, path,
                                std::to_string(found_rows) + "x" + std::to_string(found_cols) +
                                    ", " + expected);
        if (node["data"].size() != static_cast<size_t>(rows) * static_cast<size_t>(cols) *
                                       static_cast<size_t>(channels))
            return read_failure(reader, VISION_BAD_INPUT, path,
                                "holds " + std::to_string(node["data"].size()) + " values, " +
                                    expected);
        cv::Mat matrix;
        node >> matrix;
        if (matrix.rows != rows || matrix.cols != cols || matrix.channels() != channels ||
            matrix.depth() != cv_depth(depth))
            return read_failure(reader, VISION_BAD_INPUT, path, expected);
        if (!matrix.isContinuous())
            matrix = matrix.clone();
        std::memcpy(data, matrix.ptr(), matrix.total() * matrix.elemSize());
        return VISION_OK;
    } catch (const std::exception &e) {
        return read_failure(reader, VISION_BAD_INPUT, path, short_message(e));
    }
}

extern "C" vision_status cv_geom_read_strings(cv_geom_reader *reader, const char *path,
                                              int max_count, char *first, size_t stride,
                                              int *count)
{
    try {
        cv::FileNode node = find(reader, path);
        if (node.empty() || node.isNone())
            return read_failure(reader, VISION_NOT_FOUND, path, "missing");
        if (!node.isSeq())
            return read_failure(reader, VISION_BAD_INPUT, path, "not a list");
        if (node.size() > static_cast<size_t>(max_count))
            return read_failure(reader, VISION_BAD_INPUT, path,
                                "more than " + std::to_string(max_count) + " names");
        std::vector<std::string> names;
        for (cv::FileNodeIterator it = node.begin(); it != node.end(); ++it) {
            cv::FileNode item = *it;
            if (!item.isString())
                return read_failure(reader, VISION_BAD_INPUT, path, "an entry is not a string");
            std::string name = item.string();
            if (name.size() + 1 > stride || std::memchr(name.data(), '\0', name.size()))
                return read_failure(reader, VISION_BAD_INPUT, path,
                                    "'" + name + "' is longer than " +
                                        std::to_string(stride - 1) + " characters");
            names.push_back(name);
        }
        for (size_t i = 0; i < names.size(); i++)
            std::memcpy(first + i * stride, names[i].c_str(), names[i].size() + 1);
        *count = static_cast<int>(names.size());
        return VISION_OK;
    } catch (const std::exception &e) {
        return read_failure(reader, VISION_BAD_INPUT, path, short_message(e));
    }
}
