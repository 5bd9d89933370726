/* The observation types' small helpers and the mat's defaults. */
#include "vision.h"

#include <string.h>

void vision_mat_default(vision_mat *mat)
{
    mat->marker_mm = 40.0;
    mat->width_mm = 560.0;
    mat->height_mm = 560.0;
    mat->tile_mm = 40.0;
}

int vision_el_colour_index(vision_el_observation *observation, const char *name)
{
    size_t length = strlen(name);
    if (length == 0 || length >= VISION_COLOUR_NAME_MAX)
        return -1;
    for (int i = 0; i < observation->colour_count; i++)
        if (strcmp(observation->colours[i], name) == 0)
            return i;
    if (observation->colour_count == VISION_COLOURS_MAX)
        return -1;
    memcpy(observation->colours[observation->colour_count], name, length + 1);
    return observation->colour_count++;
}
