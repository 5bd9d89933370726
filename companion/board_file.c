/*
 * Board files, read with jansson. The keys are read in one fixed order whatever their order in
 * the file (format, version and game first, so that a file of another kind gets the plainest
 * message), and every count is checked against its array before anything is written to it.
 * Unknown keys are ignored, for files written by a later version 1 tool.
 *
 * The two games share everything up to their own keys: reading the file (load_file), the JSON
 * (load_json) and the header (read_identity); after that each game has its reader. The file
 * and the JSON are read by input_file.h, which observations share.
 */
#include "board_file.h"
#include "input_file.h"

#include <jansson.h>

#include <float.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BOARD_FILE_MAX INPUT_FILE_MAX /* the printed map takes about 30 KB */
#define BOARD_FORMAT "tablescribe-board"
#define BOARD_VERSION 1
#define SHOWN_MAX 32 /* text quoted from the file: an id and a little more */

typedef struct reader {
    const char *name; /* the file, for messages */
    char *error;
    size_t size;
} reader;

static bool fail(const reader *r, const char *format, ...) __attribute__((format(printf, 2, 3)));

static bool fail(const reader *r, const char *format, ...)
{
    if (!r->error || r->size == 0)
        return false;
    int used = snprintf(r->error, r->size, "%s: ", r->name);
    if (used >= 0 && (size_t)used < r->size) {
        va_list args;
        va_start(args, format);
        vsnprintf(r->error + used, r->size - (size_t)used, format, args);
        va_end(args);
    }
    /* the name is a path, and jansson's text quotes the input: either may hold a line break */
    for (char *c = r->error; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f)
            *c = '?';
    return false;
}

/* The member key of object; NULL, after failing, when it is missing. */
static json_t *member(const reader *r, const char *where, json_t *object, const char *key)
{
    json_t *value = json_object_get(object, key);
    if (!value)
        fail(r, "%s\"%s\" is missing", where, key);
    return value;
}

/* Copies the string member key into out (size bytes with the terminator); an optional member
 * that is absent gives "". */
static bool read_string(const reader *r, const char *where, json_t *object, const char *key,
                        bool required, char *out, size_t size)
{
    json_t *value = json_object_get(object, key);
    if (!value && !required) {
        out[0] = '\0';
        return true;
    }
    if (!value)
        return fail(r, "%s\"%s\" is missing", where, key);
    if (!json_is_string(value))
        return fail(r, "%s\"%s\" must be a string", where, key);
    /* jansson refuses "\u0000" unless asked (JSON_ALLOW_NUL), so length is the C string's */
    size_t length = json_string_length(value);
    if (length >= size)
        return fail(r, "%s\"%s\" is longer than %zu bytes", where, key, size - 1);
    memcpy(out, json_string_value(value), length + 1);
    return true;
}

static bool id_valid(const char *id, size_t length, size_t max)
{
    if (length == 0 || length >= max || !(id[0] >= 'a' && id[0] <= 'z'))
        return false;
    for (size_t i = 1; i < length; i++)
        if (!(id[i] >= 'a' && id[i] <= 'z') && !(id[i] >= '0' && id[i] <= '9') && id[i] != '-')
            return false;
    return true;
}

/* The id member into out (max bytes with the terminator). */
static bool read_id(const reader *r, const char *where, json_t *object, char *out, size_t max)
{
    json_t *value = member(r, where, object, "id");
    if (!value)
        return false;
    if (!json_is_string(value) ||
        !id_valid(json_string_value(value), json_string_length(value), max))
        return fail(r,
                    "%s\"id\" must be 1 to %zu lower-case letters, digits or '-', starting with a "
                    "letter",
                    where, max - 1);
    memcpy(out, json_string_value(value), json_string_length(value) + 1);
    return true;
}

static bool number_pair(json_t *value, double out[2])
{
    if (!json_is_array(value) || json_array_size(value) != 2)
        return false;
    for (size_t i = 0; i < 2; i++) {
        json_t *number = json_array_get(value, i);
        if (!json_is_number(number))
            return false;
        out[i] = json_number_value(number);
    }
    return true;
}

static bool id_pair(json_t *value, const char *ids[2], size_t lengths[2])
{
    if (!json_is_array(value) || json_array_size(value) != 2)
        return false;
    for (size_t i = 0; i < 2; i++) {
        json_t *id = json_array_get(value, i);
        if (!json_is_string(id))
            return false;
        ids[i] = json_string_value(id);
        lengths[i] = json_string_length(id);
    }
    return true;
}

/* What every board file begins with: the format, the version, the game (game) and the board's
 * id, into id (id_max bytes with the terminator). */
static bool read_identity(const reader *r, json_t *root, const char *game, char *id,
                          size_t id_max)
{
    json_t *value = member(r, "", root, "format");
    if (!value)
        return false;
    if (!json_is_string(value) || strcmp(json_string_value(value), BOARD_FORMAT) != 0)
        return fail(r, "\"format\" must be \"%s\": not a board file", BOARD_FORMAT);
    if (!(value = member(r, "", root, "version")))
        return false;
    if (json_is_integer(value) && json_integer_value(value) > BOARD_VERSION)
        return fail(r, "version %lld: made by a newer tablescribe (this one reads version %d)",
                    (long long)json_integer_value(value), BOARD_VERSION);
    if (!json_is_integer(value) || json_integer_value(value) != BOARD_VERSION)
        return fail(r, "\"version\" must be %d", BOARD_VERSION);
    if (!(value = member(r, "", root, "game")))
        return false;
    if (!json_is_string(value) || strcmp(json_string_value(value), game) != 0)
        return fail(r, "\"game\" must be \"%s\": a board of another game", game);
    return read_id(r, "", root, id, id_max);
}

/* The optional "note": free text for people; only its type is checked. */
static bool read_note(const reader *r, json_t *root)
{
    json_t *value = json_object_get(root, "note");
    if (value && !json_is_string(value))
        return fail(r, "\"note\" must be a string");
    return true;
}

static bool read_header(const reader *r, json_t *root, ex_board *board)
{
    if (!read_identity(r, root, EX_GAME_ID, board->id, sizeof board->id) ||
        !read_string(r, "", root, "title", true, board->title, sizeof board->title) ||
        !read_note(r, root))
        return false;
    double size[2];
    json_t *value = member(r, "", root, "size_mm");
    if (!value)
        return false;
    /* a float must hold them: the board keeps floats */
    if (!number_pair(value, size) || !(size[0] > 0 && size[0] <= FLT_MAX) ||
        !(size[1] > 0 && size[1] <= FLT_MAX))
        return fail(r, "\"size_mm\" must be two positive numbers in mm (width, height)");
    board->width_mm = (float)size[0];
    board->height_mm = (float)size[1];
    if (!(value = member(r, "", root, "start_segments")))
        return false;
    if (!json_is_integer(value) || json_integer_value(value) < 1 ||
        json_integer_value(value) > EX_MAX_DEGREE)
        return fail(r, "\"start_segments\" must be a whole number from 1 to %d", EX_MAX_DEGREE);
    board->start_degree = (int)json_integer_value(value);
    return true;
}

static bool read_circle(const reader *r, size_t index, json_t *object, ex_board *board,
                        ex_circle *circle)
{
    char where[64 + EX_ID_MAX];
    if (!json_is_object(object))
        return fail(r, "circles[%zu] must be an object", index);
    snprintf(where, sizeof where, "circles[%zu]: ", index);
    if (!read_id(r, where, object, circle->id, sizeof circle->id))
        return false;
    snprintf(where, sizeof where, "circles[%zu] (\"%s\"): ", index, circle->id);
    /* here rather than only in ex_board_prepare: segments name circles by id, and with the id
     * twice a segment would quietly take the first */
    int earlier = ex_board_circle(board, circle->id, strlen(circle->id));
    if (earlier != EX_NONE)
        return fail(r, "%sthe id is repeated (circles[%d] has it too)", where, earlier);
    json_t *kind = member(r, where, object, "kind");
    if (!kind)
        return false;
    if (!json_is_string(kind))
        return fail(r, "%s\"kind\" must be a string", where);
    int k = 0;
    while (k < EX_KINDS && strcmp(ex_kind_name((ex_kind)k), json_string_value(kind)) != 0)
        k++;
    char quoted[SHOWN_MAX];
    if (k == EX_KINDS)
        return fail(r, "%sunknown kind \"%s\" (start, place, blue or red)", where,
                    input_file_quote(json_string_value(kind), json_string_length(kind), quoted,
                                     sizeof quoted));
    circle->kind = (uint8_t)k;
    if (!read_string(r, where, object, "name", false, circle->name, sizeof circle->name) ||
        !read_string(r, where, object, "region", false, circle->region, sizeof circle->region))
        return false;
    json_t *at = member(r, where, object, "at");
    double position[2];
    if (!at)
        return false;
    if (!number_pair(at, position))
        return fail(r, "%s\"at\" must be two numbers in mm", where);
    if (!(position[0] >= 0 && position[0] <= board->width_mm && position[1] >= 0 &&
          position[1] <= board->height_mm))
        return fail(r, "%sat [%g, %g] is outside the %g x %g mm board", where, position[0],
                    position[1], (double)board->width_mm, (double)board->height_mm);
    circle->x_mm = (float)position[0];
    circle->y_mm = (float)position[1];
    return true;
}

/* An array member, refused when it holds more than max entries. */
static json_t *read_array(const reader *r, json_t *root, const char *key, size_t max,
                          const char *entries)
{
    json_t *array = member(r, "", root, key);
    if (!array)
        return NULL;
    if (!json_is_array(array)) {
        fail(r, "\"%s\" must be an array", key);
        return NULL;
    }
    if (json_array_size(array) > max) {
        fail(r, "\"%s\" holds %zu %s, at most %zu", key, json_array_size(array), entries, max);
        return NULL;
    }
    return array;
}

/* Reads pairs of circle ids as circle indexes: the wrap points and the segments. `label`
 * names one pair in messages ("wrap point", "segment"); the array was checked against the
 * size of pairs. */
static bool read_pairs(const reader *r, json_t *array, const char *key, const char *label,
                       const ex_board *board, int16_t (*pairs)[2])
{
    for (size_t i = 0; i < json_array_size(array); i++) {
        const char *ids[2];
        size_t lengths[2];
        if (!id_pair(json_array_get(array, i), ids, lengths))
            return fail(r, "%s[%zu] must be two circle ids", key, i);
        for (int end = 0; end < 2; end++) {
            int circle = ex_board_circle(board, ids[end], lengths[end]);
            if (circle == EX_NONE) {
                char a[SHOWN_MAX], b[SHOWN_MAX], unknown[SHOWN_MAX];
                return fail(r, "%s %zu (%s - %s): unknown circle '%s'", label, i,
                            input_file_quote(ids[0], lengths[0], a, sizeof a),
                            input_file_quote(ids[1], lengths[1], b, sizeof b),
                            input_file_quote(ids[end], lengths[end], unknown, sizeof unknown));
            }
            pairs[i][end] = (int16_t)circle;
        }
    }
    return true;
}

static bool read_board(const reader *r, json_t *root, ex_board *board)
{
    if (!read_header(r, root, board))
        return false;
    json_t *circles = read_array(r, root, "circles", EX_MAX_CIRCLES, "circles");
    if (!circles)
        return false;
    for (size_t i = 0; i < json_array_size(circles); i++) {
        if (!read_circle(r, i, json_array_get(circles, i), board, &board->circles[i]))
            return false;
        /* counted as read, so that ex_board_circle sees exactly the circles read */
        board->circle_count = (int)i + 1;
    }
    json_t *wraps = read_array(r, root, "wraps", EX_MAX_CIRCLES / 2, "wrap points");
    if (!wraps || !read_pairs(r, wraps, "wraps", "wrap point", board, board->wraps))
        return false;
    board->wrap_count = (int)json_array_size(wraps);
    json_t *segments = read_array(r, root, "segments", EX_MAX_SEGMENTS, "segments");
    int16_t ends[EX_MAX_SEGMENTS][2];
    if (!segments || !read_pairs(r, segments, "segments", "segment", board, ends))
        return false;
    board->segment_count = (int)json_array_size(segments);
    for (int s = 0; s < board->segment_count; s++) {
        board->segments[s].circle[0] = ends[s][0];
        board->segments[s].circle[1] = ends[s][1];
    }
    return true;
}

/* ---- shared by both games: the file and the JSON ---- */

/* The JSON object in text; NULL, after failing, when it does not parse or is not an object.
 * The caller frees the result with json_decref. */
static json_t *load_json(const reader *r, const char *text, size_t length)
{
    char message[256];
    json_t *root = input_file_json(text, length, message, sizeof message);
    if (!root) {
        fail(r, "%s", message);
        return NULL;
    }
    if (!json_is_object(root)) {
        json_decref(root);
        fail(r, "a board file is a JSON object");
        return NULL;
    }
    return root;
}

/* The whole file r->name into *text (malloc'd; the caller frees it) and *length. False after
 * failing, with *text NULL; files over BOARD_FILE_MAX are refused. */
static bool load_file(const reader *r, char **text, size_t *length)
{
    char message[160];
    input_file_status status =
        input_file_read(r->name, BOARD_FILE_MAX, text, length, message, sizeof message);
    if (status == INPUT_FILE_OK)
        return true;
    return fail(r, "%s%s", message, status == INPUT_FILE_TOO_LARGE ? ": not a board file" : "");
}

/* ---- Expéditions ---- */

bool board_file_parse(const char *text, size_t length, const char *name, ex_board *board,
                      char *error, size_t size)
{
    reader r = {name ? name : "the board", error, size};
    memset(board, 0, sizeof *board);
    json_t *root = load_json(&r, text, length);
    if (!root)
        return false;
    bool read = read_board(&r, root, board);
    json_decref(root);
    if (!read)
        return false;
    ex_error prepare_error;
    if (!ex_board_prepare(board, &prepare_error))
        return fail(&r, "%s", prepare_error.message);
    return true;
}

bool board_file_read(const char *path, ex_board *board, char *error, size_t size)
{
    reader r = {path, error, size};
    char *text;
    size_t length;
    if (!load_file(&r, &text, &length))
        return false;
    bool read = board_file_parse(text, length, path, board, error, size);
    free(text);
    return read;
}

/* ---- Odyssée-land ---- */

/* The terrain letters in od_terrain's order: C city, M mountain, F forest, R river, N fog
 * (German Nebel: F is the forest's). */
static const char terrain_letters[OD_TERRAINS] = {'C', 'M', 'F', 'R', 'N'};

/* The sizes of the cities by od_city: a city of the file is the one its size says. */
static const int city_sizes[OD_CITIES] = {12, 6, 5, 4, 3};

static bool read_terrain(const reader *r, json_t *root, od_board *board)
{
    json_t *rows = member(r, "", root, "terrain");
    if (!rows)
        return false;
    if (!json_is_array(rows))
        return fail(r, "\"terrain\" must be an array of %d rows, row 1 first", OD_ROWS);
    if (json_array_size(rows) != OD_ROWS)
        return fail(r, "\"terrain\" holds %zu rows, the board has %d", json_array_size(rows),
                    OD_ROWS);
    for (int row = 0; row < OD_ROWS; row++) {
        json_t *line = json_array_get(rows, (size_t)row);
        if (!json_is_string(line) || json_string_length(line) != OD_COLUMNS)
            return fail(r, "terrain row %d must be a string of %d letters, one per column A-K",
                        row + 1, OD_COLUMNS);
        const char *letters = json_string_value(line);
        for (int column = 0; column < OD_COLUMNS; column++) {
            int t = 0;
            while (t < OD_TERRAINS && terrain_letters[t] != letters[column])
                t++;
            if (t == OD_TERRAINS) {
                char quoted[8];
                return fail(r,
                            "terrain row %d, column %c: unknown letter '%s' (C city, M mountain, "
                            "F forest, R river, N fog)",
                            row + 1, 'A' + column,
                            input_file_quote(letters + column, 1, quoted, sizeof quoted));
            }
            board->terrain[OD_FIELD(row, column)] = (uint8_t)t;
        }
    }
    return true;
}

/* The field a name in the file gives; OD_NONE, after failing, when it gives none (a start
 * space included). `where` begins the message ("river[3]: "). */
static int read_field(const reader *r, const char *where, json_t *value)
{
    if (!json_is_string(value)) {
        fail(r, "%sa field's name must be a string (\"A1\" to \"K10\")", where);
        return OD_NONE;
    }
    const char *text = json_string_value(value);
    size_t length = json_string_length(value);
    int place = od_place_parse(text, length);
    char quoted[SHOWN_MAX];
    if (place == OD_NONE) {
        fail(r, "%sunknown field \"%s\" (A1 to K10)", where,
             input_file_quote(text, length, quoted, sizeof quoted));
        return OD_NONE;
    }
    if (place >= OD_FIELDS) {
        fail(r, "%s\"%s\" is a start space, not a field", where,
             input_file_quote(text, length, quoted, sizeof quoted));
        return OD_NONE;
    }
    return place;
}

/* One city, cities[index], its fields marked in board->city with `mark`; its size in *size. */
static bool read_city(const reader *r, size_t index, json_t *city, int8_t mark, od_board *board,
                      size_t *size)
{
    char where[64 + SHOWN_MAX], quoted[SHOWN_MAX];
    if (!json_is_object(city))
        return fail(r, "cities[%zu] must be an object", index);
    snprintf(where, sizeof where, "cities[%zu]: ", index);
    json_t *name = member(r, where, city, "name");
    if (!name)
        return false;
    if (!json_is_string(name) || json_string_length(name) == 0)
        return fail(r, "%s\"name\" must be a non-empty string", where);
    snprintf(where, sizeof where, "cities[%zu] (\"%s\"): ", index,
             input_file_quote(json_string_value(name), json_string_length(name), quoted,
                              sizeof quoted));
    json_t *fields = member(r, where, city, "fields");
    if (!fields)
        return false;
    if (!json_is_array(fields))
        return fail(r, "%s\"fields\" must be an array of field names", where);
    /* each entry a city field not yet marked: the array cannot run past the board */
    for (size_t i = 0; i < json_array_size(fields); i++) {
        int field = read_field(r, where, json_array_get(fields, i));
        if (field == OD_NONE)
            return false;
        char field_name[12];
        od_place_name(field, field_name);
        if (board->terrain[field] != OD_CITY)
            return fail(r, "%s%s is %s, not a city field", where, field_name,
                        od_terrain_name(board->terrain[field]));
        if (board->city[field] == mark)
            return fail(r, "%s%s is listed twice", where, field_name);
        if (board->city[field] != OD_NONE)
            return fail(r, "%s%s is in cities[%d] too", where, field_name,
                        board->city[field] - OD_CITIES);
        board->city[field] = mark;
    }
    *size = json_array_size(fields);
    return true;
}

/* The cities, each told apart by its size. While they are read, a field of cities[i] is
 * marked OD_CITIES + i; the marks become od_city once every size is known. */
static bool read_cities(const reader *r, json_t *root, od_board *board)
{
    json_t *cities = member(r, "", root, "cities");
    if (!cities)
        return false;
    if (!json_is_array(cities))
        return fail(r, "\"cities\" must be an array");
    if (json_array_size(cities) != OD_CITIES)
        return fail(r, "\"cities\" holds %zu cities, the board has %d (of 12, 6, 5, 4 and 3 "
                       "fields)",
                    json_array_size(cities), OD_CITIES);
    int entry_of[OD_CITIES]; /* by od_city: the index in cities[] */
    for (int c = 0; c < OD_CITIES; c++)
        entry_of[c] = OD_NONE;
    int8_t city_of[OD_CITIES]; /* by index in cities[]: the od_city */
    for (size_t i = 0; i < OD_CITIES; i++) {
        json_t *city = json_array_get(cities, i);
        size_t size = 0;
        if (!read_city(r, i, city, (int8_t)(OD_CITIES + i), board, &size))
            return false;
        int c = 0;
        while (c < OD_CITIES && (size_t)city_sizes[c] != size)
            c++;
        char quoted[SHOWN_MAX];
        json_t *name = json_object_get(city, "name");
        const char *shown_name = input_file_quote(json_string_value(name),
                                                  json_string_length(name), quoted, sizeof quoted);
        if (c == OD_CITIES)
            return fail(r, "cities[%zu] (\"%s\"): %zu fields, and the cities have 12, 6, 5, 4 "
                           "and 3",
                        i, shown_name, size);
        if (entry_of[c] != OD_NONE)
            return fail(r, "cities[%zu] (\"%s\"): %zu fields, as cities[%d]: two cities of the "
                           "same size (they have 12, 6, 5, 4 and 3)",
                        i, shown_name, size, entry_of[c]);
        entry_of[c] = (int)i;
        city_of[i] = (int8_t)c;
    }
    for (int f = 0; f < OD_FIELDS; f++)
        if (board->city[f] != OD_NONE)
            board->city[f] = city_of[board->city[f] - OD_CITIES];
    return true;
}

static bool read_river(const reader *r, json_t *root, od_board *board)
{
    json_t *river = member(r, "", root, "river");
    if (!river)
        return false;
    if (!json_is_array(river))
        return fail(r, "\"river\" must be an array of field names, the course in order");
    /* od_board_check counts the course against the river; here only what the board holds */
    if (json_array_size(river) > OD_FIELDS)
        return fail(r, "\"river\" holds %zu fields, the board %d", json_array_size(river),
                    OD_FIELDS);
    for (size_t i = 0; i < json_array_size(river); i++) {
        char where[32];
        snprintf(where, sizeof where, "river[%zu]: ", i);
        int field = read_field(r, where, json_array_get(river, i));
        if (field == OD_NONE)
            return false;
        board->river[i] = (uint8_t)field;
    }
    board->river_length = (int)json_array_size(river);
    return true;
}

/* The start spaces are the engine's places (OD_START_ROW, OD_START_COLUMN): the file states
 * them, so that a board with others is refused rather than played wrong. */
static bool read_start(const reader *r, json_t *root)
{
    static const char *const column_names[5] = {"A", "B", "C", "D", "E"};
    json_t *start = member(r, "", root, "start");
    if (!start)
        return false;
    json_t *rows = json_is_object(start) ? json_object_get(start, "rows") : NULL;
    json_t *columns = json_is_object(start) ? json_object_get(start, "columns") : NULL;
    bool fixed = json_is_array(rows) && json_array_size(rows) == 5 && json_is_array(columns) &&
                 json_array_size(columns) == 5;
    for (size_t i = 0; fixed && i < 5; i++) {
        json_t *row = json_array_get(rows, i), *column = json_array_get(columns, i);
        fixed = json_is_integer(row) && json_integer_value(row) == (json_int_t)i + 1 &&
                json_is_string(column) && strcmp(json_string_value(column), column_names[i]) == 0;
    }
    if (!fixed)
        return fail(r, "\"start\" must be rows 1-5 and columns A-E: the engine's start spaces are "
                       "fixed there");
    return true;
}

bool board_file_parse_odysseeland(const char *text, size_t length, const char *name,
                                  od_board *board, char *error, size_t size)
{
    reader r = {name ? name : "the board", error, size};
    memset(board, 0, sizeof *board);
    memset(board->city, OD_NONE, sizeof board->city);
    json_t *root = load_json(&r, text, length);
    if (!root)
        return false;
    bool read = read_identity(&r, root, OD_GAME_ID, board->id, sizeof board->id) &&
                read_note(&r, root) && read_terrain(&r, root, board) &&
                read_cities(&r, root, board) && read_river(&r, root, board) &&
                read_start(&r, root);
    json_decref(root);
    if (!read)
        return false;
    char message[160];
    if (!od_board_check(board, message, sizeof message))
        return fail(&r, "%s", message);
    return true;
}

bool board_file_read_odysseeland(const char *path, od_board *board, char *error, size_t size)
{
    reader r = {path, error, size};
    char *text;
    size_t length;
    if (!load_file(&r, &text, &length))
        return false;
    bool read = board_file_parse_odysseeland(text, length, path, board, error, size);
    free(text);
    return read;
}

int board_file_load(const char *game, const char *path, char *id, size_t id_size, char *error,
                    size_t size)
{
    const char *text;
    size_t length;
    if (!board_file_builtin(game, &text, &length)) {
        snprintf(error, size, "%s is not played on a board file", game);
        return 0;
    }
    const char *builtin = "the built-in board";
    int handle;
    const char *board_id;
    if (strcmp(game, OD_GAME_ID) == 0) {
        static od_board board; /* large: kept out of the stack, and only for this call */
        if (!(path ? board_file_read_odysseeland(path, &board, error, size)
                   : board_file_parse_odysseeland(text, length, builtin, &board, error, size)))
            return BOARD_FILE_BAD;
        handle = od_board_add(&board);
        board_id = board.id;
    } else {
        static ex_board board;
        if (!(path ? board_file_read(path, &board, error, size)
                   : board_file_parse(text, length, builtin, &board, error, size)))
            return BOARD_FILE_BAD;
        handle = ex_board_add(&board);
        board_id = board.id;
    }
    if (!handle) {
        snprintf(error, size, "board %s: another board with this id is already loaded", board_id);
        return BOARD_FILE_REFUSED;
    }
    snprintf(id, id_size, "%s", board_id);
    return handle;
}
