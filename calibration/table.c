/* The table step: a photo of the kit registered with the mat, and where the camera stands. */
#include "calibration.h"

#include <math.h>
#include <string.h>

#define PI 3.14159265358979323846

double calibration_tilt_deg(const vision_registration *registration)
{
    /* The projection's third row is (r31, r32, -r33) up to scale: the optical axis in table
     * terms, whose angle to the table's normal is the tilt. */
    const double *p = registration->projection;
    double length = sqrt(p[8] * p[8] + p[9] * p[9] + p[10] * p[10]);
    if (!(length > 0))
        return NAN;
    return acos(fmin(1.0, fabs(p[10]) / length)) * 180.0 / PI;
}

void calibration_keep_focal(vision_camera *camera, const vision_registration *registration)
{
    if (camera->known || registration->focal_source != VISION_FOCAL_MARKERS)
        return;
    memset(camera, 0, sizeof *camera);
    camera->width = registration->image_width;
    camera->height = registration->image_height;
    camera->fx = camera->fy = registration->focal_px;
}

vision_status calibration_table(const vision_image *image, const vision_mat *mat,
                                const vision_camera *camera, calibration_table_report *report,
                                char *error, size_t size)
{
    vision_registration registration;
    vision_status status = vision_register(image, mat, camera, &registration, error, size);
    if (status != VISION_OK)
        return status;
    report->registration = registration;
    report->height_mm = registration.camera_mm[2];
    report->tilt_deg = calibration_tilt_deg(&registration);
    return VISION_OK;
}
