// Every OpenCV call of the project. Nothing here may throw across the C boundary.
#include "cv_shim.h"

#include <opencv2/aruco.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

vision_status fail(char *error, size_t size, vision_status status, const char *what)
{
    if (error && size)
        std::snprintf(error, size, "%s", what);
    return status;
}

// A cv::Mat header over a vision_image's pixels, no copy.
cv::Mat wrap(const vision_image *image)
{
    return cv::Mat(image->height, image->width, image->channels == 1 ? CV_8UC1 : CV_8UC3,
                   image->pixels, static_cast<size_t>(image->stride));
}

} // namespace

extern "C" vision_status cv_shim_decode(const uint8_t *data, size_t size, vision_image *image,
                                        char *error, size_t error_size)
{
    std::memset(image, 0, sizeof *image);
    try {
        cv::Mat encoded(1, static_cast<int>(size), CV_8UC1, const_cast<uint8_t *>(data));
        cv::Mat decoded = cv::imdecode(encoded, cv::IMREAD_COLOR);
        if (decoded.empty())
            return fail(error, error_size, VISION_UNREADABLE, "not an image this build reads");
        vision_status status = vision_image_new(decoded.cols, decoded.rows, 3, image);
        if (status != VISION_OK)
            return fail(error, error_size, status, "out of memory");
        decoded.copyTo(wrap(image));
        return VISION_OK;
    } catch (const std::exception &e) {
        vision_image_free(image);
        return fail(error, error_size, VISION_UNREADABLE, e.what());
    }
}

extern "C" vision_status cv_shim_encode(const vision_image *image, const char *extension,
                                        uint8_t **data, size_t *size, char *error,
                                        size_t error_size)
{
    *data = nullptr;
    *size = 0;
    try {
        std::vector<uint8_t> buffer;
        if (!cv::imencode(extension, wrap(image), buffer))
            return fail(error, error_size, VISION_BAD_INPUT, "cannot encode in this format");
        *data = static_cast<uint8_t *>(std::malloc(buffer.size()));
        if (!*data)
            return fail(error, error_size, VISION_NOMEM, "out of memory");
        std::memcpy(*data, buffer.data(), buffer.size());
        *size = buffer.size();
        return VISION_OK;
    } catch (const std::exception &e) {
        return fail(error, error_size, VISION_BAD_INPUT, e.what());
    }
}

extern "C" vision_status cv_shim_aruco_marker(int id, int side, uint8_t *pixels, int stride,
                                              char *error, size_t error_size)
{
    try {
        cv::Ptr<cv::aruco::Dictionary> dictionary =
            cv::aruco::getPredefinedDictionary(cv::aruco::DICT_4X4_50);
        cv::Mat marker;
        cv::aruco::drawMarker(dictionary, id, side, marker, 1);
        marker.copyTo(cv::Mat(side, side, CV_8UC1, pixels, static_cast<size_t>(stride)));
        return VISION_OK;
    } catch (const std::exception &e) {
        return fail(error, error_size, VISION_BAD_INPUT, e.what());
    }
}

extern "C" vision_status cv_shim_text(vision_image *image, const char *text, int x, int y,
                                      int height)
{
    try {
        const int font = cv::FONT_HERSHEY_SIMPLEX;
        // Hershey fonts are about 22 units tall at scale 1.
        double scale = height / 22.0;
        int thickness = height / 12 > 1 ? height / 12 : 1;
        cv::putText(wrap(image), text, cv::Point(x, y), font, scale, cv::Scalar::all(0),
                    thickness, cv::LINE_AA);
        return VISION_OK;
    } catch (const std::exception &) {
        return VISION_BAD_INPUT;
    }
}

extern "C" vision_status cv_shim_fill(vision_image *image, int x, int y, int width, int height,
                                      uint8_t value)
{
    try {
        cv::rectangle(wrap(image), cv::Rect(x, y, width, height), cv::Scalar::all(value),
                      cv::FILLED);
        return VISION_OK;
    } catch (const std::exception &) {
        return VISION_BAD_INPUT;
    }
}
