// The camera: source: libcamera's whole lifecycle in one file, after libcamera's simple-cam.
// libcamera calls requestCompleted on its own thread: there the request is only handed over
// (a queue under a mutex); the app thread, in capture_camera_read, copies the frame out and
// queues the request again. Nothing here throws across the C boundary.
#include "capture_internal.h"

#include <libcamera/libcamera.h>
#include <libcamera/logging.h>

#include <sys/mman.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <vector>

using namespace libcamera;

namespace {

capture_status fail(char *error, size_t size, capture_status status, const char *format,
                    unsigned value = 0)
{
    if (error && size)
        std::snprintf(error, size, format, value);
    return status;
}

// A frame buffer's first plane, mapped for reading.
struct Mapping {
    const FrameBuffer *buffer;
    void *address;
    size_t length;
    size_t offset;
};

const std::chrono::seconds kFrameTimeout(5);

} // namespace

struct capture_camera {
    std::unique_ptr<CameraManager> manager;
    std::shared_ptr<Camera> camera;
    std::unique_ptr<CameraConfiguration> configuration;
    std::unique_ptr<FrameBufferAllocator> allocator;
    std::vector<std::unique_ptr<Request>> requests;
    std::vector<Mapping> mappings;
    Stream *stream = nullptr;
    bool acquired = false, started = false;
    Request *held = nullptr; // its frame was last copied out; queued again on the next read

    std::mutex lock;
    std::condition_variable ready;
    std::deque<Request *> completed;

    // libcamera's thread: hand over, nothing more.
    void requestComplete(Request *request)
    {
        std::lock_guard<std::mutex> guard(lock);
        completed.push_back(request);
        ready.notify_one();
    }

    ~capture_camera()
    {
        if (started) {
            camera->stop();
            camera->requestCompleted.disconnect(this, &capture_camera::requestComplete);
        }
        for (const Mapping &mapping : mappings)
            munmap(mapping.address, mapping.length);
        requests.clear();
        if (allocator && stream)
            allocator->free(stream);
        allocator.reset();
        if (acquired)
            camera->release();
        configuration.reset();
        camera.reset();
        if (manager)
            manager->stop();
    }
};

namespace {

capture_status start(capture_camera *c, int index, int width, int height, char *error,
                     size_t size)
{
    // Our one-line errors say what failed; libcamera's own log would say it again on stderr.
    logSetTarget(LoggingTargetNone);
    c->manager = std::make_unique<CameraManager>();
    if (c->manager->start() != 0) {
        c->manager.reset();
        return fail(error, size, CAPTURE_IO, "libcamera does not start");
    }
    std::vector<std::shared_ptr<Camera>> cameras = c->manager->cameras();
    if (index < 0 || static_cast<size_t>(index) >= cameras.size())
        return fail(error, size, CAPTURE_BAD_INPUT, "no such camera: libcamera finds %u",
                    static_cast<unsigned>(cameras.size()));
    c->camera = cameras[static_cast<size_t>(index)];
    if (c->camera->acquire() != 0)
        return fail(error, size, CAPTURE_IO, "the camera is in use by another program");
    c->acquired = true;

    c->configuration = c->camera->generateConfiguration({StreamRole::Viewfinder});
    if (!c->configuration || c->configuration->size() != 1)
        return fail(error, size, CAPTURE_IO, "the camera offers no viewfinder stream");
    StreamConfiguration &stream = c->configuration->at(0);
    // RGB888 is blue, green, red in memory (DRM's little-endian naming): OpenCV's order.
    stream.pixelFormat = formats::RGB888;
    if (width > 0 && height > 0)
        stream.size = Size(static_cast<unsigned>(width), static_cast<unsigned>(height));
    if (c->configuration->validate() == CameraConfiguration::Invalid)
        return fail(error, size, CAPTURE_IO, "the camera refuses every frame format asked");
    if (stream.pixelFormat != formats::RGB888 && stream.pixelFormat != formats::XRGB8888)
        return fail(error, size, CAPTURE_IO,
                    "the camera gives no blue-green-red frames (RGB888 or XRGB8888)");
    if (c->camera->configure(c->configuration.get()) != 0)
        return fail(error, size, CAPTURE_IO, "the camera cannot be configured");
    c->stream = stream.stream();

    c->allocator = std::make_unique<FrameBufferAllocator>(c->camera);
    if (c->allocator->allocate(c->stream) < 0)
        return fail(error, size, CAPTURE_IO, "no frame buffers for the camera");
    for (const std::unique_ptr<FrameBuffer> &buffer : c->allocator->buffers(c->stream)) {
        const FrameBuffer::Plane &plane = buffer->planes()[0];
        size_t length = plane.offset + plane.length;
        void *address = mmap(nullptr, length, PROT_READ, MAP_SHARED, plane.fd.get(), 0);
        if (address == MAP_FAILED)
            return fail(error, size, CAPTURE_IO, "a frame buffer cannot be mapped");
        c->mappings.push_back({buffer.get(), address, length, plane.offset});
        std::unique_ptr<Request> request = c->camera->createRequest();
        if (!request || request->addBuffer(c->stream, buffer.get()) != 0)
            return fail(error, size, CAPTURE_IO, "the camera takes no requests");
        c->requests.push_back(std::move(request));
    }
    c->camera->requestCompleted.connect(c, &capture_camera::requestComplete);
    if (c->camera->start() != 0) {
        c->camera->requestCompleted.disconnect(c, &capture_camera::requestComplete);
        return fail(error, size, CAPTURE_IO, "the camera does not start");
    }
    c->started = true;
    for (std::unique_ptr<Request> &request : c->requests)
        if (c->camera->queueRequest(request.get()) != 0)
            return fail(error, size, CAPTURE_IO, "the camera takes no requests");
    return CAPTURE_OK;
}

const Mapping *mapping_of(const capture_camera *c, const FrameBuffer *buffer)
{
    for (const Mapping &mapping : c->mappings)
        if (mapping.buffer == buffer)
            return &mapping;
    return nullptr;
}

} // namespace

extern "C" capture_status capture_camera_open(int index, int width, int height,
                                              capture_camera **camera, char *error, size_t size)
{
    *camera = nullptr;
    capture_camera *c = nullptr;
    try {
        c = new capture_camera;
        capture_status status = start(c, index, width, height, error, size);
        if (status != CAPTURE_OK) {
            delete c;
            return status;
        }
        *camera = c;
        return CAPTURE_OK;
    } catch (const std::bad_alloc &) {
        delete c;
        return fail(error, size, CAPTURE_NOMEM, "out of memory");
    } catch (const std::exception &e) {
        delete c;
        return fail(error, size, CAPTURE_IO, "libcamera failed");
    }
}

extern "C" capture_status capture_camera_read(capture_camera *c, vision_image *frame,
                                              double *time_ms, char *error, size_t size)
{
    try {
        for (;;) {
            if (c->held) {
                c->held->reuse(Request::ReuseBuffers);
                Request *again = c->held;
                c->held = nullptr;
                if (c->camera->queueRequest(again) != 0)
                    return fail(error, size, CAPTURE_IO, "the camera takes no more requests");
            }
            Request *request;
            {
                std::unique_lock<std::mutex> guard(c->lock);
                if (!c->ready.wait_for(guard, kFrameTimeout, [c] { return !c->completed.empty(); }))
                    return fail(error, size, CAPTURE_IO, "no frame from the camera within %u s",
                                static_cast<unsigned>(kFrameTimeout.count()));
                request = c->completed.front();
                c->completed.pop_front();
            }
            if (request->status() == Request::RequestCancelled)
                return fail(error, size, CAPTURE_IO, "the camera stopped");
            c->held = request;
            const FrameBuffer *buffer = request->buffers().begin()->second;
            const FrameMetadata &metadata = buffer->metadata();
            if (metadata.status != FrameMetadata::FrameSuccess)
                continue; // a dropped frame: wait for the next
            const Mapping *mapping = mapping_of(c, buffer);
            const StreamConfiguration &stream = c->configuration->at(0);
            int width = static_cast<int>(stream.size.width);
            int height = static_cast<int>(stream.size.height);
            int bytes = stream.pixelFormat == formats::XRGB8888 ? 4 : 3;
            if (!mapping || static_cast<size_t>(height) * stream.stride > mapping->length -
                                                                            mapping->offset)
                return fail(error, size, CAPTURE_IO, "a frame larger than its buffer");
            if (!frame->owned || frame->width != width || frame->height != height ||
                frame->channels != 3) {
                vision_image_free(frame);
                if (vision_image_new(width, height, 3, frame) != VISION_OK)
                    return fail(error, size, CAPTURE_NOMEM, "out of memory");
            }
            const uint8_t *pixels = static_cast<const uint8_t *>(mapping->address) +
                                    mapping->offset;
            for (int y = 0; y < height; y++) {
                const uint8_t *in = pixels + static_cast<size_t>(y) * stream.stride;
                uint8_t *out = frame->pixels + static_cast<size_t>(y) * frame->stride;
                if (bytes == 3)
                    std::memcpy(out, in, static_cast<size_t>(width) * 3);
                else
                    for (int x = 0; x < width; x++)
                        std::memcpy(out + 3 * x, in + 4 * x, 3);
            }
            *time_ms = static_cast<double>(metadata.timestamp) / 1e6;
            return CAPTURE_OK;
        }
    } catch (const std::bad_alloc &) {
        return fail(error, size, CAPTURE_NOMEM, "out of memory");
    } catch (const std::exception &) {
        return fail(error, size, CAPTURE_IO, "libcamera failed");
    }
}

extern "C" void capture_camera_close(capture_camera *camera)
{
    try {
        delete camera;
    } catch (const std::exception &) {
    }
}
