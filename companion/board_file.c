/*
 * Board files, read with jansson. The keys are read in one fixed order whatever their order in
 * the file (format, version and game first, so that a file of another kind gets the plainest
 * message), and every count is checked against its array before anything is written to it.
 * Unknown keys are ignored, for files written by a later version 1 tool.
 */
#include "board_file.h"

#include <jansson.h>

#include <errno.h>
#include <float.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BOARD_FILE_MAX (1024 * 1024) /* the printed map takes about 30 KB */
#define BOARD_FORMAT "tablescribe-board"
#define BOARD_VERSION 1
#define BOARD_GAME "expeditions"
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

/* Text from the file made fit to quote in a message: printable ASCII, the rest as '?', cut to
 * size - 4 bytes with "..." after. */
static const char *shown(const char *text, size_t length, char *out, size_t size)
{
    size_t keep = length < size - 4 ? length : size - 4;
    for (size_t i = 0; i < keep; i++)
        out[i] = text[i] >= 0x20 && text[i] < 0x7f ? text[i] : '?';
    strcpy(out + keep, length > keep ? "..." : "");
    return out;
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

static bool id_valid(const char *id, size_t length)
{
    if (length == 0 || length >= EX_ID_MAX || !(id[0] >= 'a' && id[0] <= 'z'))
        return false;
    for (size_t i = 1; i < length; i++)
        if (!(id[i] >= 'a' && id[i] <= 'z') && !(id[i] >= '0' && id[i] <= '9') && id[i] != '-')
            return false;
    return true;
}

static bool read_id(const reader *r, const char *where, json_t *object, char out[EX_ID_MAX])
{
    json_t *value = member(r, where, object, "id");
    if (!value)
        return false;
    if (!json_is_string(value) || !id_valid(json_string_value(value), json_string_length(value)))
        return fail(r,
                    "%s\"id\" must be 1 to %d lower-case letters, digits or '-', starting with a "
                    "letter",
                    where, EX_ID_MAX - 1);
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

static bool read_header(const reader *r, json_t *root, ex_board *board)
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
    if (!json_is_string(value) || strcmp(json_string_value(value), BOARD_GAME) != 0)
        return fail(r, "\"game\" must be \"%s\": a board of another game", BOARD_GAME);
    if (!read_id(r, "", root, board->id) ||
        !read_string(r, "", root, "title", true, board->title, sizeof board->title))
        return false;
    value = json_object_get(root, "note");
    if (value && !json_is_string(value))
        return fail(r, "\"note\" must be a string");
    double size[2];
    if (!(value = member(r, "", root, "size_mm")))
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
    if (!read_id(r, where, object, circle->id))
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
        return fail(
            r, "%sunknown kind \"%s\" (start, place, blue or red)", where,
            shown(json_string_value(kind), json_string_length(kind), quoted, sizeof quoted));
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
                            shown(ids[0], lengths[0], a, sizeof a),
                            shown(ids[1], lengths[1], b, sizeof b),
                            shown(ids[end], lengths[end], unknown, sizeof unknown));
            }
            pairs[i][end] = (int16_t)circle;
        }
    }
    return true;
}

static bool read_board(const reader *r, json_t *root, ex_board *board)
{
    if (!json_is_object(root))
        return fail(r, "a board file is a JSON object");
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

bool board_file_parse(const char *text, size_t length, const char *name, ex_board *board,
                      char *error, size_t size)
{
    reader r = {name ? name : "the board", error, size};
    memset(board, 0, sizeof *board);
    json_error_t json_error;
    json_t *root = json_loadb(text, length, JSON_REJECT_DUPLICATES, &json_error);
    if (!root) {
        /* jansson quotes the input near the error, which may be any bytes */
        char quoted[sizeof json_error.text + 4];
        return fail(&r, "line %d, column %d: %s", json_error.line, json_error.column,
                    shown(json_error.text, strlen(json_error.text), quoted, sizeof quoted));
    }
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
    FILE *file = fopen(path, "rb");
    if (!file)
        return fail(&r, "cannot open: %s", strerror(errno));
    /* one byte more than allowed, to tell a file at the limit from a longer one */
    char *text = malloc(BOARD_FILE_MAX + 1);
    if (!text) {
        fclose(file);
        return fail(&r, "out of memory");
    }
    size_t length = fread(text, 1, BOARD_FILE_MAX + 1, file);
    int read_errno = ferror(file) ? (errno ? errno : EIO) : 0;
    fclose(file);
    bool ok;
    if (read_errno)
        ok = fail(&r, "cannot read: %s", strerror(read_errno));
    else if (length > BOARD_FILE_MAX)
        ok = fail(&r, "larger than %d KiB: not a board file", BOARD_FILE_MAX / 1024);
    else
        ok = board_file_parse(text, length, path, board, error, size);
    free(text);
    return ok;
}
