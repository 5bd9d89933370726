/*
 * The Expedition Luxor observation as JSON (DESIGN.md §3.2, a contract): what `recognise`
 * prints, what `render` draws and what teaching takes as the truth.
 *
 *   {"game": "expedition-luxor",
 *    "tiles": [{"row": 0, "col": 1, "type": "desert-camp", "top": "orange", "height": 2,
 *               "token": null, "stack": ["black", "orange"],
 *               "confidence": {"type": 1, "top": 0.9, "height": 0.75, "token": 1}}],
 *    "unknown": [{"row": 2, "col": 0}]}
 *
 * A tile: "type" a tile type of RULES.md (el_tile_name) or "unknown"; "top" the top
 * adventurer's colour (lower-case letters, words joined by '-', at most 15), null for none or
 * "unknown"; "height" 0..5 or null when unseen (with top null it must be 0 or null, and null
 * then reads as 0; with a colour it must be 1..5 or null); "token" "boat", "snakes", null for
 * none or "unknown". All six are required, and so is "tiles" (maybe empty). Optional:
 * "height_or", a second height 1..5 the recogniser could not rule out (only with a height 1..5,
 * never the height itself; null for none), "stack",
 * the colours bottom first (its length the height, its last the top), and "confidence", one
 * number 0..1 for every field or an object of them by field (a field left out: 1). "unknown"
 * (optional) lists the cells that could not be read. Rows and columns may be any integers in
 * -64..64: the reader translates tiles and unknown cells together so that the smallest tile
 * row and column are 0 (with no tiles, the unknown cells' own; an unknown cell beyond the tiles
 * may then be negative); positions are unique, the tiles' layout spans at most 21 rows and 21
 * columns. Members not named here are ignored.
 */
#ifndef TS_OBSERVATION_JSON_H
#define TS_OBSERVATION_JSON_H

#include "vision.h"

#include <stdbool.h>
#include <stddef.h>

#define OBSERVATION_EL_GAME EL_GAME_ID

/*
 * Reads an Expedition Luxor observation from JSON text (length bytes, no terminator needed).
 * *observation is rebuilt from empty: tiles in the document's order, colours in the order they
 * first appear (each tile's top, then its stack), confidences 1 where not given. On failure
 * returns VISION_BAD_INPUT, *observation is left empty (zeroed: no tiles, no colours), and
 * error (size bytes; may be NULL) holds one line saying where and what, e.g.
 * "tiles[3].type: 'dessert' is not a tile type (lake, mountain, desert, ...)".
 */
vision_status observation_el_parse(const char *text, size_t length,
                                   vision_el_observation *observation, char *error, size_t size);

/*
 * The same from the file at path (at most 1 MiB); the message begins with the path
 * ("truth.json: tiles[3].type: ..."). VISION_NOT_FOUND for a missing file, VISION_IO when it
 * cannot be read, VISION_NOMEM, VISION_BAD_INPUT for the rest; *observation is left empty on
 * every failure.
 */
vision_status observation_el_load(const char *path, vision_el_observation *observation,
                                  char *error, size_t size);

/*
 * The observation as one JSON object in the format above (malloc'd, NUL-terminated, no final
 * line break; the caller frees it): pretty (a tile or cell a line, indented by two spaces) or
 * compact (one line, no spaces). Tiles and unknown cells in row-major order, translated as the
 * reader would; "height_or" where it is 1..5, not the height, and the height is 1..5; "stack"
 * where stack_known; "confidence" as an object of the four, rounded to 3
 * decimals, when with_confidence. What the format cannot say is written as unseen: a type,
 * top colour or token out of range as "unknown", a height out of 0..5 as null, and a stack
 * holding a colour out of range, or of unknown height, is left out. NULL when out of memory.
 * observation_el_parse reads back what this writes for every observation it accepts.
 */
char *observation_el_format(const vision_el_observation *observation, bool pretty,
                            bool with_confidence);

#endif
