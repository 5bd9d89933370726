// Every OpenCV call of the project. Nothing here may throw across the C boundary.
#include "cv_shim.h"

#include <opencv2/aruco.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/core/utils/logger.hpp>
#include <opencv2/videoio.hpp>

#include <cstdio>
#include <cstdlib>
#include <cmath>
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

// ---- renderer: the scene renderer's drawing (render_*.c) ----

namespace {

const int kShift = 4; // sub-pixel bits of OpenCV's drawing

std::vector<cv::Point> fixed_points(const vision_point *points, int count)
{
    std::vector<cv::Point> fixed(static_cast<size_t>(count));
    for (int i = 0; i < count; i++)
        fixed[static_cast<size_t>(i)] = cv::Point(cvRound(points[i].x * (1 << kShift)),
                                                  cvRound(points[i].y * (1 << kShift)));
    return fixed;
}

cv::Scalar scalar(const double colour[3]) { return cv::Scalar(colour[0], colour[1], colour[2]); }

cv::Mat homography(const double values[9])
{
    cv::Mat m(3, 3, CV_64F);
    for (int i = 0; i < 9; i++)
        m.at<double>(i / 3, i % 3) = values[i];
    return m;
}

} // namespace

extern "C" vision_status cv_shim_fill_polygon(vision_image *image, const vision_point *points,
                                              int count, const double colour[3])
{
    try {
        if (count < 3)
            return VISION_OK;
        std::vector<std::vector<cv::Point>> polygons{fixed_points(points, count)};
        cv::Mat target = wrap(image);
        cv::fillPoly(target, polygons, scalar(colour), cv::LINE_AA, kShift);
        return VISION_OK;
    } catch (const std::bad_alloc &) {
        return VISION_NOMEM;
    } catch (const std::exception &) {
        return VISION_BAD_INPUT;
    }
}

extern "C" vision_status cv_shim_polyline(vision_image *image, const vision_point *points,
                                          int count, int closed, double thickness,
                                          const double colour[3])
{
    try {
        if (count < 2)
            return VISION_OK;
        std::vector<std::vector<cv::Point>> lines{fixed_points(points, count)};
        int width = thickness < 1 ? 1 : cvRound(thickness);
        cv::Mat target = wrap(image);
        cv::polylines(target, lines, closed != 0, scalar(colour), width, cv::LINE_AA, kShift);
        return VISION_OK;
    } catch (const std::bad_alloc &) {
        return VISION_NOMEM;
    } catch (const std::exception &) {
        return VISION_BAD_INPUT;
    }
}

extern "C" vision_status cv_shim_warp_blend(vision_image *image, const vision_image *texture,
                                            const vision_image *alpha,
                                            const double texture_to_image[9], int x, int y,
                                            int width, int height, const uint8_t *coverage,
                                            const double shade[3])
{
    try {
        if (width < 1 || height < 1 || x < 0 || y < 0 || x + width > image->width ||
            y + height > image->height || texture->channels != image->channels)
            return VISION_BAD_INPUT;
        cv::Mat to_roi = (cv::Mat_<double>(3, 3) << 1, 0, -x, 0, 1, -y, 0, 0, 1);
        cv::Mat transform = to_roi * homography(texture_to_image);
        cv::Mat warped, warped_alpha;
        cv::warpPerspective(wrap(texture), warped, transform, cv::Size(width, height),
                            cv::INTER_LINEAR, cv::BORDER_REPLICATE);
        if (alpha)
            cv::warpPerspective(wrap(alpha), warped_alpha, transform, cv::Size(width, height),
                                cv::INTER_LINEAR, cv::BORDER_CONSTANT, cv::Scalar::all(0));
        int channels = image->channels;
        for (int row = 0; row < height; row++) {
            uint8_t *out = image->pixels + static_cast<size_t>(y + row) * image->stride +
                           static_cast<size_t>(x) * channels;
            const uint8_t *in = warped.ptr<uint8_t>(row);
            const uint8_t *cover = coverage + static_cast<size_t>(row) * width;
            const uint8_t *a = alpha ? warped_alpha.ptr<uint8_t>(row) : nullptr;
            for (int col = 0; col < width; col++) {
                float weight = cover[col] * (1.0f / 255.0f);
                if (a)
                    weight *= a[col] * (1.0f / 255.0f);
                if (weight <= 0.0f)
                    continue;
                for (int c = 0; c < channels; c++) {
                    size_t i = static_cast<size_t>(col) * channels + c;
                    float value = static_cast<float>(in[i] * shade[c]);
                    float mixed = out[i] + (value - out[i]) * weight;
                    out[i] = cv::saturate_cast<uint8_t>(mixed);
                }
            }
        }
        return VISION_OK;
    } catch (const std::bad_alloc &) {
        return VISION_NOMEM;
    } catch (const std::exception &) {
        return VISION_BAD_INPUT;
    }
}

extern "C" vision_status cv_shim_resize(const vision_image *source, vision_image *destination)
{
    try {
        if (source->channels != destination->channels)
            return VISION_BAD_INPUT;
        cv::Mat target = wrap(destination);
        bool shrinking = destination->width < source->width;
        cv::resize(wrap(source), target, target.size(), 0, 0,
                   shrinking ? cv::INTER_AREA : cv::INTER_LINEAR);
        return VISION_OK;
    } catch (const std::bad_alloc &) {
        return VISION_NOMEM;
    } catch (const std::exception &) {
        return VISION_BAD_INPUT;
    }
}

extern "C" vision_status cv_shim_blur(vision_image *image, double sigma)
{
    try {
        if (!(sigma > 0))
            return VISION_BAD_INPUT;
        cv::Mat target = wrap(image);
        cv::GaussianBlur(target, target, cv::Size(0, 0), sigma, sigma, cv::BORDER_REPLICATE);
        return VISION_OK;
    } catch (const std::bad_alloc &) {
        return VISION_NOMEM;
    } catch (const std::exception &) {
        return VISION_BAD_INPUT;
    }
}

extern "C" vision_status cv_shim_jpeg(vision_image *image, int quality)
{
    try {
        std::vector<uint8_t> buffer;
        std::vector<int> parameters{cv::IMWRITE_JPEG_QUALITY, quality};
        cv::Mat target = wrap(image);
        if (!cv::imencode(".jpg", target, buffer, parameters))
            return VISION_BAD_INPUT;
        cv::Mat decoded = cv::imdecode(buffer, image->channels == 1 ? cv::IMREAD_GRAYSCALE
                                                                    : cv::IMREAD_COLOR);
        if (decoded.size() != target.size() || decoded.type() != target.type())
            return VISION_BAD_INPUT;
        decoded.copyTo(target);
        return VISION_OK;
    } catch (const std::bad_alloc &) {
        return VISION_NOMEM;
    } catch (const std::exception &) {
        return VISION_BAD_INPUT;
    }
}

// ---- the motion gate's small copy ----

extern "C" vision_status cv_shim_shrink_grey(const vision_image *source, int row_step,
                                             vision_image *destination, double blur_sigma)
{
    try {
        if (destination->channels != 1 || row_step < 1 ||
            destination->width > source->width ||
            destination->height > source->height / row_step || !(blur_sigma >= 0))
            return VISION_BAD_INPUT;
        cv::Mat target = wrap(destination);
        // A view of every row_step-th row, no copy: the rows skipped are never read.
        cv::Mat rows(source->height / row_step, source->width,
                     source->channels == 1 ? CV_8UC1 : CV_8UC3, source->pixels,
                     static_cast<size_t>(source->stride) * static_cast<size_t>(row_step));
        if (source->channels == 1) {
            cv::resize(rows, target, target.size(), 0, 0, cv::INTER_AREA);
        } else {
            // Shrunk in colour, then mixed: the colours of the small copy cost next to nothing.
            cv::Mat small;
            cv::resize(rows, small, target.size(), 0, 0, cv::INTER_AREA);
            cv::cvtColor(small, target, cv::COLOR_BGR2GRAY);
        }
        if (blur_sigma > 0)
            cv::GaussianBlur(target, target, cv::Size(0, 0), blur_sigma, blur_sigma,
                             cv::BORDER_REPLICATE);
        return VISION_OK;
    } catch (const std::bad_alloc &) {
        return VISION_NOMEM;
    } catch (const std::exception &) {
        return VISION_BAD_INPUT;
    }
}

// ---- video ----

struct cv_shim_video {
    cv::VideoCapture capture;
    cv::Mat frame;
};

namespace {

// OpenCV's video backends print their own warnings ("can't open camera by index"); the caller
// reports every failure in one line of its own, so they are silenced while a video is used.
class QuietLog {
  public:
    QuietLog() : saved_(cv::utils::logging::setLogLevel(cv::utils::logging::LOG_LEVEL_SILENT)) {}
    ~QuietLog() { cv::utils::logging::setLogLevel(saved_); }
    QuietLog(const QuietLog &) = delete;
    QuietLog &operator=(const QuietLog &) = delete;

  private:
    cv::utils::logging::LogLevel saved_;
};

} // namespace

namespace {

// Opens *video with open(capture) (true when it opened), or fails with refused and refusal.
template <typename Open>
vision_status open_video(Open open, vision_status refused, const char *refusal,
                         cv_shim_video **video, char *error, size_t error_size)
{
    *video = nullptr;
    cv_shim_video *opened = nullptr;
    try {
        QuietLog quiet;
        opened = new cv_shim_video;
        if (!open(opened->capture)) {
            delete opened;
            return fail(error, error_size, refused, refusal);
        }
        *video = opened;
        return VISION_OK;
    } catch (const std::bad_alloc &) {
        delete opened;
        return fail(error, error_size, VISION_NOMEM, "out of memory");
    } catch (const std::exception &e) {
        delete opened;
        return fail(error, error_size, refused, e.what());
    }
}

} // namespace

extern "C" vision_status cv_shim_video_open_file(const char *path, cv_shim_video **video,
                                                 char *error, size_t error_size)
{
    // The file backends only: CAP_ANY would go on, for a file no backend reads, to look for
    // cameras over USB (gphoto2), which is slow and leaks.
    auto open = [path](cv::VideoCapture &capture) {
        return capture.open(path, cv::CAP_FFMPEG) || capture.open(path, cv::CAP_OPENCV_MJPEG);
    };
    return open_video(open, VISION_UNREADABLE, "not a video this build reads", video, error,
                      error_size);
}

extern "C" vision_status cv_shim_video_open_v4l2(const char *device, int width, int height,
                                                 cv_shim_video **video, char *error,
                                                 size_t error_size)
{
    auto open = [device, width, height](cv::VideoCapture &capture) {
        if (!capture.open(device, cv::CAP_V4L2))
            return false;
        // Webcams send 1080p uncompressed at a few frames a second at best; MJPG keeps the rate.
        capture.set(cv::CAP_PROP_FOURCC, cv::VideoWriter::fourcc('M', 'J', 'P', 'G'));
        if (width > 0 && height > 0) {
            capture.set(cv::CAP_PROP_FRAME_WIDTH, width);
            capture.set(cv::CAP_PROP_FRAME_HEIGHT, height);
        }
        return true;
    };
    return open_video(open, VISION_NOT_FOUND, "cannot open it as a V4L2 camera", video, error,
                      error_size);
}

extern "C" vision_status cv_shim_video_read(cv_shim_video *video, vision_image *frame,
                                            double *time_ms, int *end, char *error,
                                            size_t error_size)
{
    *end = 0;
    *time_ms = -1;
    try {
        QuietLog quiet;
        if (!video->capture.read(video->frame) || video->frame.empty()) {
            *end = 1;
            return VISION_OK;
        }
        cv::Mat &read = video->frame;
        if (read.depth() != CV_8U || (read.channels() != 1 && read.channels() != 3 &&
                                      read.channels() != 4))
            return fail(error, error_size, VISION_UNREADABLE, "a frame of an unusual pixel type");
        if (!frame->owned || frame->width != read.cols || frame->height != read.rows ||
            frame->channels != 3) {
            vision_image_free(frame);
            vision_status status = vision_image_new(read.cols, read.rows, 3, frame);
            if (status != VISION_OK)
                return fail(error, error_size, status,
                            status == VISION_NOMEM ? "out of memory" : "a frame of no size");
        }
        cv::Mat target = wrap(frame);
        if (read.channels() == 3)
            read.copyTo(target);
        else
            cv::cvtColor(read, target, read.channels() == 1 ? cv::COLOR_GRAY2BGR
                                                            : cv::COLOR_BGRA2BGR);
        double position = video->capture.get(cv::CAP_PROP_POS_MSEC);
        *time_ms = std::isfinite(position) ? position : -1;
        return VISION_OK;
    } catch (const std::bad_alloc &) {
        return fail(error, error_size, VISION_NOMEM, "out of memory");
    } catch (const std::exception &e) {
        return fail(error, error_size, VISION_UNREADABLE, e.what());
    }
}

extern "C" int cv_shim_video_frame_count(const cv_shim_video *video)
{
    try {
        double count = video->capture.get(cv::CAP_PROP_FRAME_COUNT);
        return std::isfinite(count) && count >= 1 && count < 2e9 ? static_cast<int>(count) : -1;
    } catch (const std::exception &) {
        return -1;
    }
}

extern "C" double cv_shim_video_fps(const cv_shim_video *video)
{
    try {
        double fps = video->capture.get(cv::CAP_PROP_FPS);
        return std::isfinite(fps) && fps > 0 && fps < 10000 ? fps : 0;
    } catch (const std::exception &) {
        return 0;
    }
}

extern "C" void cv_shim_video_close(cv_shim_video *video)
{
    try {
        delete video;
    } catch (const std::exception &) {
    }
}

extern "C" vision_status cv_shim_video_write_mjpg(const char *path, const vision_image *frames,
                                                  int count, double fps, char *error,
                                                  size_t error_size)
{
    try {
        if (count < 1 || !(fps > 0))
            return fail(error, error_size, VISION_BAD_INPUT, "no frames to write");
        for (int i = 0; i < count; i++)
            if (frames[i].channels != 3 || frames[i].width != frames[0].width ||
                frames[i].height != frames[0].height)
                return fail(error, error_size, VISION_BAD_INPUT,
                            "frames of differing sizes or not in colour");
        QuietLog quiet;
        cv::VideoWriter writer(path, cv::CAP_OPENCV_MJPEG,
                               cv::VideoWriter::fourcc('M', 'J', 'P', 'G'), fps,
                               cv::Size(frames[0].width, frames[0].height), true);
        if (!writer.isOpened())
            return fail(error, error_size, VISION_IO, "cannot write a video there");
        for (int i = 0; i < count; i++)
            writer.write(wrap(&frames[i]));
        writer.release();
        return VISION_OK;
    } catch (const std::bad_alloc &) {
        return fail(error, error_size, VISION_NOMEM, "out of memory");
    } catch (const std::exception &e) {
        return fail(error, error_size, VISION_IO, e.what());
    }
}
