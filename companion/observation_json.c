/*
 * The Expedition Luxor observation JSON. The reader takes each tile's members in one fixed
 * order (position, type, top, height, height_or, token, stack, confidence) whatever their
 * order in the text, so that the first problem reported does not depend on how a writer
 * ordered its keys; the positions are checked (unique, the layout's span) and translated once
 * every tile is read. The writer prints by hand rather than through jansson, which can neither
 * keep a tile on one line nor round a number.
 */
#include "observation_json.h"

#include "input_file.h"

#include <jansson.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define POSITION_MIN (-64)
#define POSITION_MAX 64
#define LAYOUT_MAX 21 /* rows or columns: the rules' grid */
#define HEIGHT_MAX VISION_EL_STACK_MAX
#define QUOTED_MAX 32 /* text quoted from the document: a name and a little more */

/* ---- reading ---- */

typedef struct parser {
    vision_el_observation *observation;
    char *error;
    size_t size;
} parser;

/* Control characters (a path, jansson's quote of the input) would break the one line. */
static void one_line(char *message)
{
    for (char *c = message; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f)
            *c = '?';
}

static bool fail(const parser *p, const char *format, ...) __attribute__((format(printf, 2, 3)));

static bool fail(const parser *p, const char *format, ...)
{
    if (!p->error || p->size == 0)
        return false;
    va_list args;
    va_start(args, format);
    vsnprintf(p->error, p->size, format, args);
    va_end(args);
    one_line(p->error);
    return false;
}

/* What a JSON value is, for "must be ..., not a string". */
static const char *kind_of(const json_t *value)
{
    switch (json_typeof(value)) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_INTEGER: return "an integer";
    case JSON_REAL: return "a number";
    case JSON_TRUE: return "true";
    case JSON_FALSE: return "false";
    case JSON_NULL: return "null";
    }
    return "?";
}

static const char *quote(const json_t *string, char out[QUOTED_MAX])
{
    return input_file_quote(json_string_value(string), json_string_length(string), out,
                            QUOTED_MAX);
}

/* A colour's name: lower-case letters, words joined by single '-', shorter than the array that
 * holds it. "unknown" is not a colour but the word for an unseen one. */
static bool colour_name_valid(const char *name, size_t length)
{
    if (length == 0 || length >= VISION_COLOUR_NAME_MAX || name[0] == '-' ||
        name[length - 1] == '-')
        return false;
    for (size_t i = 0; i < length; i++) {
        if (name[i] == '-' ? name[i + 1] == '-' : !(name[i] >= 'a' && name[i] <= 'z'))
            return false;
    }
    return strcmp(name, "unknown") != 0;
}

/* The member key of object into *value; where is the object's path ("tiles[3]"). */
static bool required(const parser *p, const char *where, json_t *object, const char *key,
                     const char *expected, json_t **value)
{
    *value = json_object_get(object, key);
    if (!*value)
        return fail(p, "%s%s%s: missing (%s)", where, *where ? "." : "", key, expected);
    return true;
}

/* An integer member in min..max. */
static bool read_integer(const parser *p, const char *where, json_t *object, const char *key,
                         int min, int max, int *out)
{
    json_t *value;
    if (!required(p, where, object, key, "an integer", &value))
        return false;
    if (!json_is_integer(value))
        return fail(p, "%s.%s: must be an integer (%d..%d), not %s", where, key, min, max,
                    kind_of(value));
    json_int_t number = json_integer_value(value);
    if (number < min || number > max)
        return fail(p, "%s.%s: %lld is outside %d..%d", where, key, (long long)number, min, max);
    *out = (int)number;
    return true;
}

static bool read_position(const parser *p, const char *where, json_t *object, int *row,
                          int *col)
{
    return read_integer(p, where, object, "row", POSITION_MIN, POSITION_MAX, row) &&
           read_integer(p, where, object, "col", POSITION_MIN, POSITION_MAX, col);
}

#define TILE_TYPES_LISTED                                                                   \
    "lake, mountain, desert, desert-camp, desert-temple, desert-pyramid, oasis-camp, "      \
    "oasis-temple, oasis-pyramid or unknown"

static bool read_type(const parser *p, const char *where, json_t *tile, vision_el_tile *out)
{
    json_t *value;
    char quoted[QUOTED_MAX];
    if (!required(p, where, tile, "type", "a tile type or \"unknown\"", &value))
        return false;
    if (!json_is_string(value))
        return fail(p, "%s.type: must be a tile type (" TILE_TYPES_LISTED "), not %s", where,
                    kind_of(value));
    const char *name = json_string_value(value);
    if (strcmp(name, "unknown") == 0) {
        out->type = VISION_UNKNOWN;
        return true;
    }
    for (int t = 0; t < EL_TILE_TYPES; t++)
        if (strcmp(name, el_tile_name((el_tile_type)t)) == 0) {
            out->type = t;
            return true;
        }
    return fail(p, "%s.type: '%s' is not a tile type (" TILE_TYPES_LISTED ")", where,
                quote(value, quoted));
}

/* A colour name, value, as an index into the observation's colours (added when new). `what`
 * names the place in messages ("tiles[3].top", "tiles[3].stack[1]"). */
static bool read_colour(const parser *p, const char *what, json_t *value, int *out)
{
    char quoted[QUOTED_MAX];
    if (!json_is_string(value))
        return fail(p, "%s: must be a colour name, not %s", what, kind_of(value));
    const char *name = json_string_value(value);
    size_t length = json_string_length(value);
    if (!colour_name_valid(name, length))
        return fail(p,
                    "%s: '%s' is not a colour name (lower-case letters, words joined by '-', at "
                    "most %d)",
                    what, quote(value, quoted), VISION_COLOUR_NAME_MAX - 1);
    int index = vision_el_colour_index(p->observation, name);
    if (index < 0)
        return fail(p, "%s: '%s' would be a colour beyond the %d an observation holds", what,
                    name, VISION_COLOURS_MAX);
    *out = index;
    return true;
}

static bool read_top(const parser *p, const char *where, json_t *tile, vision_el_tile *out)
{
    json_t *value;
    char what[64];
    if (!required(p, where, tile, "top", "a colour, null or \"unknown\"", &value))
        return false;
    snprintf(what, sizeof what, "%s.top", where);
    if (json_is_null(value)) {
        out->top = VISION_NONE;
        return true;
    }
    if (json_is_string(value) && strcmp(json_string_value(value), "unknown") == 0) {
        out->top = VISION_UNKNOWN;
        return true;
    }
    if (!json_is_string(value))
        return fail(p, "%s: must be a colour name, null (no adventurer) or \"unknown\", not %s",
                    what, kind_of(value));
    return read_colour(p, what, value, &out->top);
}

/* After the top: the height must agree with it. */
static bool read_height(const parser *p, const char *where, json_t *tile, vision_el_tile *out)
{
    json_t *value;
    if (!required(p, where, tile, "height", "an integer 0..5 or null", &value))
        return false;
    if (json_is_null(value)) {
        /* no adventurer seen on top: there are none, whatever the angle */
        out->height = out->top == VISION_NONE ? 0 : VISION_UNKNOWN;
        return true;
    }
    if (!json_is_integer(value))
        return fail(p, "%s.height: must be an integer 0..%d or null (unseen), not %s", where,
                    HEIGHT_MAX, kind_of(value));
    json_int_t height = json_integer_value(value);
    if (height < 0 || height > HEIGHT_MAX)
        return fail(p, "%s.height: %lld is outside 0..%d", where, (long long)height, HEIGHT_MAX);
    if (out->top == VISION_NONE && height != 0)
        return fail(p, "%s.height: %lld adventurers, but top is null (none): must be 0 or null",
                    where, (long long)height);
    if (out->top >= 0 && height == 0)
        return fail(p, "%s.height: 0, but top is '%s': must be 1..%d or null", where,
                    p->observation->colours[out->top], HEIGHT_MAX);
    out->height = (int)height;
    return true;
}

/* The optional second height, after the height it is an alternative to. */
static bool read_height_or(const parser *p, const char *where, json_t *tile, vision_el_tile *out)
{
    json_t *value = json_object_get(tile, "height_or");
    if (!value || json_is_null(value))
        return true;
    if (!json_is_integer(value))
        return fail(p, "%s.height_or: must be an integer 1..%d or null (none), not %s", where,
                    HEIGHT_MAX, kind_of(value));
    json_int_t height = json_integer_value(value);
    if (height < 1 || height > HEIGHT_MAX)
        return fail(p, "%s.height_or: %lld is outside 1..%d", where, (long long)height,
                    HEIGHT_MAX);
    if (out->height < 1)
        return fail(p, "%s.height_or: %lld, but the height is %s: a second height needs a first",
                    where, (long long)height, out->height == 0 ? "0" : "null (unseen)");
    if (height == out->height)
        return fail(p, "%s.height_or: %lld is the height itself", where, (long long)height);
    out->height_or = (int)height;
    return true;
}

static bool read_token(const parser *p, const char *where, json_t *tile, vision_el_tile *out)
{
    json_t *value;
    char quoted[QUOTED_MAX];
    if (!required(p, where, tile, "token", "\"boat\", \"snakes\", null or \"unknown\"", &value))
        return false;
    if (json_is_null(value)) {
        out->token = EL_NO_TOKEN;
        return true;
    }
    if (!json_is_string(value))
        return fail(p, "%s.token: must be \"boat\", \"snakes\", null (none) or \"unknown\", not %s",
                    where, kind_of(value));
    const char *name = json_string_value(value);
    if (strcmp(name, "unknown") == 0)
        out->token = VISION_UNKNOWN;
    else if (strcmp(name, el_token_name(EL_BOAT)) == 0)
        out->token = EL_BOAT;
    else if (strcmp(name, el_token_name(EL_SNAKES)) == 0)
        out->token = EL_SNAKES;
    else if (strcmp(name, el_token_name(EL_SANDSTORM)) == 0 ||
             strcmp(name, el_token_name(EL_CARAVAN)) == 0)
        return fail(p,
                    "%s.token: a %s never lies on the table (it leaves the game when used): "
                    "\"boat\", \"snakes\", null or \"unknown\"",
                    where, name);
    else
        return fail(p, "%s.token: '%s' is not a token (boat, snakes, null or unknown)", where,
                    quote(value, quoted));
    return true;
}

/* The optional stack, after the top and the height it must agree with. */
static bool read_stack(const parser *p, const char *where, json_t *tile, vision_el_tile *out)
{
    json_t *value = json_object_get(tile, "stack");
    if (!value || json_is_null(value))
        return true;
    if (!json_is_array(value))
        return fail(p, "%s.stack: must be an array of colour names, bottom first, not %s", where,
                    kind_of(value));
    size_t count = json_array_size(value);
    if (out->height == VISION_UNKNOWN)
        return fail(p, "%s.stack: %zu colours, but the height is null (unseen): give both", where,
                    count);
    if (count != (size_t)out->height)
        return fail(p, "%s.stack: %zu colours, but the height is %d", where, count, out->height);
    for (size_t i = 0; i < count; i++) {
        char what[64];
        snprintf(what, sizeof what, "%s.stack[%zu]", where, i);
        json_t *colour = json_array_get(value, i);
        if (json_is_string(colour) && strcmp(json_string_value(colour), "unknown") == 0)
            return fail(p, "%s: \"unknown\": a stack is given only when all of it is known",
                        what);
        if (!read_colour(p, what, colour, &out->stack[i]))
            return false;
    }
    if (count > 0 && out->top == VISION_UNKNOWN)
        return fail(p, "%s.stack: its last is '%s', but top is \"unknown\"", where,
                    p->observation->colours[out->stack[count - 1]]);
    if (count > 0 && out->stack[count - 1] != out->top)
        return fail(p, "%s.stack: its last is '%s', but top is '%s'", where,
                    p->observation->colours[out->stack[count - 1]],
                    p->observation->colours[out->top]);
    out->stack_known = 1;
    return true;
}

static bool read_probability(const parser *p, const char *what, json_t *value, float *out)
{
    if (!json_is_number(value))
        return fail(p, "%s: must be a number 0..1, not %s", what, kind_of(value));
    double number = json_number_value(value);
    if (!(number >= 0.0 && number <= 1.0))
        return fail(p, "%s: %g is outside 0..1", what, number);
    *out = (float)number;
    return true;
}

static bool read_confidence(const parser *p, const char *where, json_t *tile,
                            vision_el_tile *out)
{
    static const char *const fields[4] = {"type", "top", "height", "token"};
    for (int f = 0; f < 4; f++)
        out->confidence[f] = 1.0f;
    json_t *value = json_object_get(tile, "confidence");
    char what[64];
    snprintf(what, sizeof what, "%s.confidence", where);
    if (!value || json_is_null(value))
        return true;
    if (json_is_number(value)) {
        float all = 1.0f;
        if (!read_probability(p, what, value, &all))
            return false;
        for (int f = 0; f < 4; f++)
            out->confidence[f] = all;
        return true;
    }
    if (!json_is_object(value))
        return fail(p,
                    "%s: must be a number 0..1 or an object {\"type\", \"top\", \"height\", "
                    "\"token\"} of them, not %s",
                    what, kind_of(value));
    for (int f = 0; f < 4; f++) {
        json_t *field = json_object_get(value, fields[f]);
        snprintf(what, sizeof what, "%s.confidence.%s", where, fields[f]);
        if (field && !read_probability(p, what, field, &out->confidence[f]))
            return false;
    }
    return true;
}

static bool read_tile(const parser *p, size_t index, json_t *tile, vision_el_tile *out)
{
    char where[32];
    snprintf(where, sizeof where, "tiles[%zu]", index);
    if (!json_is_object(tile))
        return fail(p,
                    "%s: must be an object {\"row\", \"col\", \"type\", \"top\", \"height\", "
                    "\"token\"}, not %s",
                    where, kind_of(tile));
    return read_position(p, where, tile, &out->row, &out->col) && read_type(p, where, tile, out) &&
           read_top(p, where, tile, out) && read_height(p, where, tile, out) &&
           read_height_or(p, where, tile, out) && read_token(p, where, tile, out) &&
           read_stack(p, where, tile, out) && read_confidence(p, where, tile, out);
}

/* The span of the tiles' rows (or columns) must fit the rules' grid. */
static bool check_span(const parser *p, const char *what, const char *key, int min, int max)
{
    if (max - min + 1 > LAYOUT_MAX)
        return fail(p, "tiles: the layout spans %d %s (%s %d to %d), at most %d", max - min + 1,
                    what, key, min, max, LAYOUT_MAX);
    return true;
}

static bool read_tiles(const parser *p, json_t *root)
{
    vision_el_observation *o = p->observation;
    json_t *tiles;
    if (!required(p, "", root, "tiles", "an array of tiles, maybe empty", &tiles))
        return false;
    if (!json_is_array(tiles))
        return fail(p, "tiles: must be an array of tiles, not %s", kind_of(tiles));
    size_t count = json_array_size(tiles);
    if (count > VISION_EL_TILES_MAX)
        return fail(p, "tiles: %zu tiles, at most %d", count, VISION_EL_TILES_MAX);
    for (size_t i = 0; i < count; i++) {
        vision_el_tile *tile = &o->tiles[i];
        if (!read_tile(p, i, json_array_get(tiles, i), tile))
            return false;
        for (size_t j = 0; j < i; j++)
            if (o->tiles[j].row == tile->row && o->tiles[j].col == tile->col)
                return fail(p, "tiles[%zu]: row %d, col %d is tiles[%zu]'s position too", i,
                            tile->row, tile->col, j);
        o->tile_count = (int)i + 1;
    }
    if (o->tile_count == 0)
        return true;
    int min_row = POSITION_MAX, max_row = POSITION_MIN, min_col = POSITION_MAX,
        max_col = POSITION_MIN;
    for (int i = 0; i < o->tile_count; i++) {
        const vision_el_tile *tile = &o->tiles[i];
        min_row = tile->row < min_row ? tile->row : min_row;
        max_row = tile->row > max_row ? tile->row : max_row;
        min_col = tile->col < min_col ? tile->col : min_col;
        max_col = tile->col > max_col ? tile->col : max_col;
    }
    return check_span(p, "rows", "row", min_row, max_row) &&
           check_span(p, "columns", "col", min_col, max_col);
}

static bool read_unknown(const parser *p, json_t *root)
{
    vision_el_observation *o = p->observation;
    json_t *cells = json_object_get(root, "unknown");
    if (!cells || json_is_null(cells))
        return true;
    if (!json_is_array(cells))
        return fail(p, "unknown: must be an array of cells {\"row\", \"col\"}, not %s",
                    kind_of(cells));
    size_t count = json_array_size(cells);
    if (count > VISION_EL_TILES_MAX)
        return fail(p, "unknown: %zu cells, at most %d", count, VISION_EL_TILES_MAX);
    for (size_t i = 0; i < count; i++) {
        char where[32];
        snprintf(where, sizeof where, "unknown[%zu]", i);
        json_t *cell = json_array_get(cells, i);
        if (!json_is_object(cell))
            return fail(p, "%s: must be an object {\"row\", \"col\"}, not %s", where,
                        kind_of(cell));
        int row, col;
        if (!read_position(p, where, cell, &row, &col))
            return false;
        for (size_t j = 0; j < i; j++)
            if (o->unknown[j].row == row && o->unknown[j].col == col)
                return fail(p, "%s: row %d, col %d is listed twice (unknown[%zu])", where, row,
                            col, j);
        for (int t = 0; t < o->tile_count; t++)
            if (o->tiles[t].row == row && o->tiles[t].col == col)
                return fail(p, "%s: row %d, col %d is tiles[%d]'s position: a cell is a tile or "
                               "unknown, not both",
                            where, row, col, t);
        o->unknown[i].row = row;
        o->unknown[i].col = col;
        o->unknown_count = (int)i + 1;
    }
    return true;
}

/* The smallest tile row and column become 0; with no tiles, the unknown cells' own. */
static void translate(vision_el_observation *o)
{
    int min_row = POSITION_MAX, min_col = POSITION_MAX;
    if (o->tile_count > 0) {
        for (int i = 0; i < o->tile_count; i++) {
            min_row = o->tiles[i].row < min_row ? o->tiles[i].row : min_row;
            min_col = o->tiles[i].col < min_col ? o->tiles[i].col : min_col;
        }
    } else {
        for (int i = 0; i < o->unknown_count; i++) {
            min_row = o->unknown[i].row < min_row ? o->unknown[i].row : min_row;
            min_col = o->unknown[i].col < min_col ? o->unknown[i].col : min_col;
        }
    }
    for (int i = 0; i < o->tile_count; i++) {
        o->tiles[i].row -= min_row;
        o->tiles[i].col -= min_col;
    }
    for (int i = 0; i < o->unknown_count; i++) {
        o->unknown[i].row -= min_row;
        o->unknown[i].col -= min_col;
    }
}

static bool read_game(const parser *p, json_t *root)
{
    json_t *game;
    char quoted[QUOTED_MAX];
    if (!required(p, "", root, "game", "\"" OBSERVATION_EL_GAME "\"", &game))
        return false;
    if (!json_is_string(game))
        return fail(p, "game: must be the string \"" OBSERVATION_EL_GAME "\", not %s",
                    kind_of(game));
    if (strcmp(json_string_value(game), OBSERVATION_EL_GAME) != 0)
        return fail(p, "game: this is an observation of %s, not " OBSERVATION_EL_GAME,
                    quote(game, quoted));
    return true;
}

vision_status observation_el_parse(const char *text, size_t length,
                                   vision_el_observation *observation, char *error, size_t size)
{
    parser p = {observation, error, size};
    memset(observation, 0, sizeof *observation);
    if (error && size)
        error[0] = '\0';
    char message[256];
    json_t *root = input_file_json(text ? text : "", text ? length : 0, message, sizeof message);
    if (!root) {
        fail(&p, "%s", message);
        return VISION_BAD_INPUT;
    }
    bool read;
    if (!json_is_object(root))
        read = fail(&p, "an observation is a JSON object, not %s", kind_of(root));
    else
        read = read_game(&p, root) && read_tiles(&p, root) && read_unknown(&p, root);
    json_decref(root);
    if (!read) {
        memset(observation, 0, sizeof *observation);
        return VISION_BAD_INPUT;
    }
    translate(observation);
    return VISION_OK;
}

vision_status observation_el_load(const char *path, vision_el_observation *observation,
                                  char *error, size_t size)
{
    memset(observation, 0, sizeof *observation);
    char message[512];
    char *text;
    size_t length;
    input_file_status read =
        input_file_read(path, INPUT_FILE_MAX, &text, &length, message, sizeof message);
    if (read != INPUT_FILE_OK) {
        if (error && size) {
            snprintf(error, size, "%s: %s%s", path, message,
                     read == INPUT_FILE_TOO_LARGE ? ": not an observation" : "");
            one_line(error);
        }
        return read == INPUT_FILE_MISSING     ? VISION_NOT_FOUND
               : read == INPUT_FILE_NOMEM     ? VISION_NOMEM
               : read == INPUT_FILE_TOO_LARGE ? VISION_BAD_INPUT
                                              : VISION_IO;
    }
    vision_status status = observation_el_parse(text, length, observation, message, sizeof message);
    free(text);
    if (status != VISION_OK && error && size) {
        snprintf(error, size, "%s: %s", path, message);
        one_line(error);
    }
    return status;
}

/* ---- writing ---- */

typedef struct text {
    char *buffer;
    size_t length, capacity;
    bool failed; /* out of memory: the rest is skipped */
} text;

static void put(text *t, const char *format, ...) __attribute__((format(printf, 2, 3)));

static void put(text *t, const char *format, ...)
{
    if (t->failed)
        return;
    va_list args;
    va_start(args, format);
    va_list again;
    va_copy(again, args);
    int needed = vsnprintf(t->buffer + t->length, t->capacity - t->length, format, args);
    va_end(args);
    if (needed >= 0 && (size_t)needed >= t->capacity - t->length) {
        size_t capacity = t->capacity;
        while (capacity - t->length <= (size_t)needed)
            capacity *= 2;
        char *grown = realloc(t->buffer, capacity);
        if (!grown) {
            t->failed = true;
            va_end(again);
            return;
        }
        t->buffer = grown;
        t->capacity = capacity;
        needed = vsnprintf(t->buffer + t->length, t->capacity - t->length, format, again);
    }
    va_end(again);
    if (needed < 0)
        t->failed = true;
    else
        t->length += (size_t)needed;
}

/* A JSON string; the observation's names are checked words when read, but one built by hand
 * may hold anything. */
static void put_string(text *t, const char *string, size_t length)
{
    put(t, "\"");
    for (size_t i = 0; i < length; i++) {
        unsigned char c = (unsigned char)string[i];
        if (c == '"' || c == '\\')
            put(t, "\\%c", c);
        else if (c < 0x20 || c == 0x7f)
            put(t, "\\u%04x", c);
        else
            put(t, "%c", c);
    }
    put(t, "\"");
}

/* A number 0..1 rounded to 3 decimals, without trailing zeros ("0.75", "1"). */
static void put_probability(text *t, float value)
{
    double clamped = value >= 0.0f ? (value <= 1.0f ? value : 1.0) : 0.0; /* NaN: 0 */
    char number[16];
    snprintf(number, sizeof number, "%.3f", clamped);
    for (char *c = number; *c; c++)
        if (*c == ',') /* a locale's decimal comma */
            *c = '.';
    size_t length = strlen(number); /* "0.000" to "1.000": never all zeros without a point */
    while (length > 1 && number[length - 1] == '0')
        number[--length] = '\0';
    if (length > 1 && number[length - 1] == '.')
        number[--length] = '\0';
    put(t, "%s", number);
}

static bool colour_valid(int colours, int index)
{
    return index >= 0 && index < colours;
}

static void put_colour(text *t, const vision_el_observation *o, int colours, int index)
{
    if (index == VISION_NONE)
        put(t, "null");
    else if (!colour_valid(colours, index))
        put(t, "\"unknown\"");
    else
        put_string(t, o->colours[index], strnlen(o->colours[index], VISION_COLOUR_NAME_MAX));
}

static void put_tile(text *t, const vision_el_observation *o, const vision_el_tile *tile,
                     long long row, long long col, int colours, bool pretty,
                     bool with_confidence)
{
    const char *colon = pretty ? ": " : ":", *comma = pretty ? ", " : ",";
    const char *type =
        tile->type >= 0 && tile->type < EL_TILE_TYPES ? el_tile_name((el_tile_type)tile->type)
                                                      : "unknown";
    put(t, "{\"row\"%s%lld%s\"col\"%s%lld%s\"type\"%s\"%s\"%s\"top\"%s", colon, row, comma, colon,
        col, comma, colon, type, comma, colon);
    put_colour(t, o, colours, tile->top);
    put(t, "%s\"height\"%s", comma, colon);
    bool height_known = tile->height >= 0 && tile->height <= HEIGHT_MAX;
    if (height_known)
        put(t, "%d", tile->height);
    else
        put(t, "null");
    if (height_known && tile->height > 0 && tile->height_or > 0 &&
        tile->height_or <= HEIGHT_MAX && tile->height_or != tile->height)
        put(t, "%s\"height_or\"%s%d", comma, colon, tile->height_or);
    put(t, "%s\"token\"%s", comma, colon);
    if (tile->token == EL_NO_TOKEN)
        put(t, "null");
    else if (tile->token == EL_BOAT || tile->token == EL_SNAKES)
        put(t, "\"%s\"", el_token_name((el_token)tile->token));
    else
        put(t, "\"unknown\"");
    bool stack = tile->stack_known && height_known;
    for (int i = 0; stack && i < tile->height; i++)
        stack = colour_valid(colours, tile->stack[i]);
    if (stack) {
        put(t, "%s\"stack\"%s[", comma, colon);
        for (int i = 0; i < tile->height; i++) {
            if (i > 0)
                put(t, "%s", comma);
            put_colour(t, o, colours, tile->stack[i]);
        }
        put(t, "]");
    }
    if (with_confidence) {
        static const char *const fields[4] = {"type", "top", "height", "token"};
        put(t, "%s\"confidence\"%s{", comma, colon);
        for (int f = 0; f < 4; f++) {
            put(t, "%s\"%s\"%s", f ? comma : "", fields[f], colon);
            put_probability(t, tile->confidence[f]);
        }
        put(t, "}");
    }
    put(t, "}");
}

typedef struct placed {
    int row, col, index;
} placed;

static int row_major(const void *a, const void *b)
{
    const placed *x = a, *y = b;
    if (x->row != y->row)
        return x->row < y->row ? -1 : 1;
    if (x->col != y->col)
        return x->col < y->col ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

char *observation_el_format(const vision_el_observation *observation, bool pretty,
                            bool with_confidence)
{
    const vision_el_observation *o = observation;
    int tiles = o->tile_count < 0 ? 0
                : o->tile_count > VISION_EL_TILES_MAX ? VISION_EL_TILES_MAX
                                                      : o->tile_count;
    int cells = o->unknown_count < 0 ? 0
                : o->unknown_count > VISION_EL_TILES_MAX ? VISION_EL_TILES_MAX
                                                         : o->unknown_count;
    int colours = o->colour_count < 0 ? 0
                  : o->colour_count > VISION_COLOURS_MAX ? VISION_COLOURS_MAX
                                                         : o->colour_count;
    /* translated as the reader translates, so that what is written is what it reads back */
    placed tile_order[VISION_EL_TILES_MAX], cell_order[VISION_EL_TILES_MAX];
    int min_row = 0, min_col = 0;
    for (int i = 0; i < tiles; i++) {
        tile_order[i] = (placed){o->tiles[i].row, o->tiles[i].col, i};
        min_row = i == 0 || o->tiles[i].row < min_row ? o->tiles[i].row : min_row;
        min_col = i == 0 || o->tiles[i].col < min_col ? o->tiles[i].col : min_col;
    }
    for (int i = 0; i < cells; i++) {
        cell_order[i] = (placed){o->unknown[i].row, o->unknown[i].col, i};
        if (tiles == 0) {
            min_row = i == 0 || o->unknown[i].row < min_row ? o->unknown[i].row : min_row;
            min_col = i == 0 || o->unknown[i].col < min_col ? o->unknown[i].col : min_col;
        }
    }
    qsort(tile_order, (size_t)tiles, sizeof *tile_order, row_major);
    qsort(cell_order, (size_t)cells, sizeof *cell_order, row_major);

    text t = {malloc(1024), 0, 1024, false};
    if (!t.buffer)
        return NULL;
    t.buffer[0] = '\0';
    const char *colon = pretty ? ": " : ":";
    const char *open = pretty ? "\n    " : ""; /* before an element of tiles or unknown */
    const char *close = pretty ? "\n  " : "";  /* before the closing bracket of a non-empty one */
    put(&t, "{%s\"game\"%s\"" OBSERVATION_EL_GAME "\",%s\"tiles\"%s[", pretty ? "\n  " : "", colon,
        pretty ? "\n  " : "", colon);
    for (int i = 0; i < tiles; i++) {
        const vision_el_tile *tile = &o->tiles[tile_order[i].index];
        put(&t, "%s%s", i ? "," : "", open);
        /* in long long: a hand-built observation may hold any int */
        put_tile(&t, o, tile, (long long)tile->row - min_row, (long long)tile->col - min_col,
                 colours, pretty, with_confidence);
    }
    put(&t, "%s],%s\"unknown\"%s[", tiles ? close : "", pretty ? "\n  " : "", colon);
    for (int i = 0; i < cells; i++) {
        int index = cell_order[i].index;
        put(&t, "%s%s{\"row\"%s%lld%s\"col\"%s%lld}", i ? "," : "", open, colon,
            (long long)o->unknown[index].row - min_row, pretty ? ", " : ",", colon,
            (long long)o->unknown[index].col - min_col);
    }
    put(&t, "%s]%s}", cells ? close : "", pretty ? "\n" : "");
    if (t.failed) {
        free(t.buffer);
        return NULL;
    }
    return t.buffer;
}
