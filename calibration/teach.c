/* Teaching a box: one photo and its truth at a time into the profile. */
#include "calibration.h"

#include <stdlib.h>

vision_status calibration_teach_image(calibration_profile *profile, const vision_image *frame,
                                      const vision_el_observation *truth,
                                      vision_registration *registration, char *error,
                                      size_t size)
{
    vision_registration found;
    vision_status status =
        vision_register(frame, &profile->mat, &profile->camera, &found, error, size);
    if (status == VISION_OK)
        status = vision_el_learn(frame, &found, &profile->mat, truth, &profile->el, error, size);
    /* The focal length for frames that look straight down (the heights of stacks are read
     * against the camera's height), also for a box taught without `calibrate table`. */
    if (status == VISION_OK)
        calibration_keep_focal(&profile->camera, &found);
    if (status == VISION_OK && registration)
        *registration = found;
    return status;
}

int calibration_teach_missing_type(const calibration_profile *profile)
{
    for (int type = 0; type < EL_TILE_TYPES; type++)
        if (!profile->el.type_samples[type])
            return type;
    return -1;
}

vision_status calibration_read_back(const calibration_profile *profile, const vision_image *frame,
                                    const vision_registration *registration,
                                    const vision_el_observation *truth, vision_el_read_back *read,
                                    char *error, size_t size)
{
    vision_el_observation *seen = malloc(sizeof *seen);
    if (!seen)
        return VISION_NOMEM;
    vision_status status = vision_el_recognise(frame, registration, &profile->mat, &profile->el,
                                               seen, NULL, error, size);
    if (status == VISION_OK)
        vision_el_read_back_of(truth, seen, read);
    free(seen);
    return status;
}
