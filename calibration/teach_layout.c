/* The documented teaching layout: one photo of it teaches a box. */
#include "calibration.h"

#include <string.h>

/* Every tile type clear of pieces (their art), stacks of four heights on desert camps (the
 * pieces' colours), and the two tokens on plain deserts. Rows top to bottom. */
static const struct {
    el_tile_type type;
    el_token token;
    int height; /* the stack on it; its colour is the next of the player colours */
} layout[4][4] = {
    {{EL_LAKE, EL_NO_TOKEN, 0}, {EL_MOUNTAIN, EL_NO_TOKEN, 0}, {EL_DESERT, EL_NO_TOKEN, 0},
     {EL_DESERT_CAMP, EL_NO_TOKEN, 0}},
    {{EL_DESERT_TEMPLE, EL_NO_TOKEN, 0}, {EL_DESERT_PYRAMID, EL_NO_TOKEN, 0},
     {EL_OASIS_CAMP, EL_NO_TOKEN, 0}, {EL_OASIS_TEMPLE, EL_NO_TOKEN, 0}},
    {{EL_OASIS_PYRAMID, EL_NO_TOKEN, 0}, {EL_DESERT, EL_BOAT, 0}, {EL_DESERT, EL_SNAKES, 0},
     {EL_MOUNTAIN, EL_NO_TOKEN, 0}},
    {{EL_DESERT_CAMP, EL_NO_TOKEN, 1}, {EL_DESERT_CAMP, EL_NO_TOKEN, 2},
     {EL_DESERT_CAMP, EL_NO_TOKEN, 3}, {EL_DESERT_CAMP, EL_NO_TOKEN, 4}},
};

vision_status calibration_teach_layout(const char *const *colours, int colour_count,
                                       vision_el_observation *truth)
{
    memset(truth, 0, sizeof *truth);
    if (colour_count < 1 || colour_count > VISION_COLOURS_MAX)
        return VISION_BAD_INPUT;
    for (int i = 0; i < colour_count; i++)
        if (vision_el_colour_index(truth, colours[i]) != i)
            return VISION_BAD_INPUT; /* empty, too long, or twice */
    int stacks = 0;
    for (int row = 0; row < 4; row++)
        for (int col = 0; col < 4; col++) {
            vision_el_tile *tile = &truth->tiles[truth->tile_count++];
            tile->row = row;
            tile->col = col;
            tile->type = (int)layout[row][col].type;
            tile->token = (int)layout[row][col].token;
            tile->height = layout[row][col].height;
            tile->top = tile->height ? stacks++ % colour_count : VISION_NONE;
            for (int k = 0; k < 4; k++)
                tile->confidence[k] = 1.0f;
        }
    return VISION_OK;
}
