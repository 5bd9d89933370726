/*
 * Expéditions boards: a board file read and prepared (companion/board_file.c, then
 * ex_board_prepare in rules/expeditions_board.c), the graph derived from it, every refusal of
 * both layers in plain words, the table of boards, a fuzz of the reader, and the stand-in
 * world map of fixtures/boards.
 *
 * The boards are JSON text made by grid_json: a start, rows of 10 places, a blue and a red
 * circle and one wrap point, one circle or segment a line. Each refusal is that text with one
 * edit (edited()), so that the test reads as the fault it puts in.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "board_file.h"
#include "expeditions.h"
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "test-board"
#define COLUMNS 10
#define ROWS 7 /* 70 places: between EX_MIN_PLACES and EX_MAX_PLACES */

/* ---- the board as text ---- */

typedef struct text {
    char *data;
    size_t length, capacity;
} text;

static void append(text *t, const char *format, ...) __attribute__((format(printf, 2, 3)));

static void append(text *t, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    int n = vsnprintf(NULL, 0, format, args);
    va_end(args);
    assert_true(n >= 0);
    while (t->length + (size_t)n + 1 > t->capacity) {
        t->capacity = t->capacity ? 2 * t->capacity : 4096;
        t->data = realloc(t->data, t->capacity);
        assert_non_null(t->data);
    }
    va_start(args, format);
    vsnprintf(t->data + t->length, t->capacity - t->length, format, args);
    va_end(args);
    t->length += (size_t)n;
}

/*
 * A valid board of `rows` rows of 10 places "pR-C" at (60 + 70 C, 60 + 60 R) mm (35 mm apart
 * past 7 rows), each joined to its grid neighbours. The start joins p0-2..p0-7. The wrap point
 * is "wrap-e" (right edge, listed second in circles[]) and "wrap-w" (left edge, listed after
 * the places), joined to p0-9 and p4-0: through it p4-0 is 5 segments from the start instead
 * of 7. "b1" (blue) joins the last row's first two places, "r1" (red) its last two.
 * Circles in order: start, wrap-e, the places row by row, b1, wrap-w, r1. malloc'd.
 */
static char *grid_json(int rows)
{
    text t = {NULL, 0, 0};
    double spacing = rows <= 7 ? 60 : 35;
    append(&t,
           "{\n"
           "  \"format\": \"tablescribe-board\",\n"
           "  \"version\": 1,\n"
           "  \"game\": \"expeditions\",\n"
           "  \"id\": \"test-grid\",\n"
           "  \"title\": \"A grid of %d places\",\n"
           "  \"note\": \"made by tests/test_expeditions_board.c\",\n"
           "  \"size_mm\": [780, 520],\n"
           "  \"start_segments\": 6,\n"
           "  \"circles\": [\n"
           "    {\"id\": \"start\", \"kind\": \"start\", \"name\": \"Compass rose\", "
           "\"at\": [375, 20]},\n"
           "    {\"id\": \"wrap-e\", \"kind\": \"red\", \"at\": [775, 200]},\n",
           rows * COLUMNS);
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < COLUMNS; c++)
            append(&t,
                   "    {\"id\": \"p%d-%d\", \"kind\": \"place\", \"name\": \"Place %d-%d\", "
                   "\"region\": \"Row %d\", \"at\": [%d, %g]},\n",
                   r, c, r, c, r, 60 + 70 * c, 60 + spacing * r);
    append(&t, "    {\"id\": \"b1\", \"kind\": \"blue\", \"at\": [95, 500]},\n"
               "    {\"id\": \"wrap-w\", \"kind\": \"red\", \"at\": [5, 203]},\n"
               "    {\"id\": \"r1\", \"kind\": \"red\", \"at\": [655, 500]}\n"
               "  ],\n"
               "  \"wraps\": [[\"wrap-w\", \"wrap-e\"]],\n"
               "  \"segments\": [\n");
    for (int c = 2; c <= 7; c++)
        append(&t, "    [\"start\", \"p0-%d\"],\n", c);
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < COLUMNS; c++) {
            if (c + 1 < COLUMNS)
                append(&t, "    [\"p%d-%d\", \"p%d-%d\"],\n", r, c, r, c + 1);
            if (r + 1 < rows)
                append(&t, "    [\"p%d-%d\", \"p%d-%d\"],\n", r, c, r + 1, c);
        }
    append(&t,
           "    [\"b1\", \"p%d-0\"],\n    [\"b1\", \"p%d-1\"],\n"
           "    [\"r1\", \"p%d-8\"],\n    [\"r1\", \"p%d-9\"],\n"
           "    [\"wrap-e\", \"p0-9\"],\n    [\"p4-0\", \"wrap-w\"]\n"
           "  ]\n"
           "}\n",
           rows - 1, rows - 1, rows - 1, rows - 1);
    return t.data;
}

/* json (taken) with the first `from` replaced by `to`. malloc'd. */
static char *replaced(char *json, const char *from, const char *to)
{
    char *at = strstr(json, from);
    if (!at)
        fail_msg("'%s' is not in the board's text", from);
    size_t before = (size_t)(at - json), from_length = strlen(from), to_length = strlen(to);
    size_t after = strlen(at + from_length);
    char *result = malloc(before + to_length + after + 1);
    assert_non_null(result);
    memcpy(result, json, before);
    memcpy(result + before, to, to_length);
    memcpy(result + before + to_length, at + from_length, after + 1);
    free(json);
    return result;
}

/* json (taken) with insertion right after the first `head`. malloc'd. */
static char *inserted(char *json, const char *head, const char *insertion)
{
    size_t length = strlen(head) + strlen(insertion) + 1;
    char *to = malloc(length);
    assert_non_null(to);
    snprintf(to, length, "%s%s", head, insertion);
    json = replaced(json, head, to);
    free(to);
    return json;
}

/* The grid (ROWS rows) with the first `from` replaced by `to`. malloc'd. */
static char *edited(const char *from, const char *to)
{
    return replaced(grid_json(ROWS), from, to);
}

/* `count` copies of format's text, numbered 0.., for inserting many circles or segments.
 * malloc'd. */
static char *repeated(int count, const char *format)
{
    text t = {NULL, 0, 0};
    append(&t, "%s", "");
    for (int i = 0; i < count; i++)
        append(&t, format, i);
    return t.data;
}

/* Insertions at the head of an array keep the grid's last entries last (no comma to mend). */
#define CIRCLES_HEAD "\"circles\": [\n"
#define SEGMENTS_HEAD "\"segments\": [\n"
#define WRAPS_HEAD "\"wraps\": ["

static void loads(const char *json, ex_board *board)
{
    char error[256] = "";
    if (!board_file_parse(json, strlen(json), NAME, board, error, sizeof error))
        fail_msg("the board is refused: %s", error);
}

static void check_one_line(const char *message, size_t size)
{
    if (message[0] == '\0')
        fail_msg("an empty message");
    if (strlen(message) >= size)
        fail_msg("the message overruns its %zu bytes", size);
    if (strchr(message, '\n') || strchr(message, '\r'))
        fail_msg("the message is more than one line: '%s'", message);
}

/* Parses json, which must be refused with a one-line message starting with the board's name
 * and holding every word (a NULL-terminated list). Takes json. */
static void refused(char *json, const char *const *words)
{
    ex_board *board = malloc(sizeof *board);
    assert_non_null(board);
    char error[256] = "";
    bool read = board_file_parse(json, strlen(json), NAME, board, error, sizeof error);
    free(board);
    free(json);
    if (read)
        fail_msg("the board is read; expected a refusal with '%s'", words[0]);
    check_one_line(error, sizeof error);
    if (strncmp(error, NAME ": ", strlen(NAME ": ")) != 0)
        fail_msg("the message does not start with the board's name: '%s'", error);
    for (; *words; words++)
        if (!strstr(error, *words))
            fail_msg("expected '%s' in '%s'", *words, error);
}

#define REFUSED(json, ...) refused((json), (const char *const[]){__VA_ARGS__, NULL})

/* The grid with one edit must be refused with these words. */
#define REFUSED_EDIT(from, to, ...) REFUSED(edited((from), (to)), __VA_ARGS__)

/* The grid with insertion (taken) after `head` must be refused with these words. */
static void refused_insert(const char *head, char *insertion, const char *const *words)
{
    char *json = inserted(grid_json(ROWS), head, insertion);
    free(insertion);
    refused(json, words);
}

#define REFUSED_INSERT(head, insertion, ...) \
    refused_insert((head), (insertion), (const char *const[]){__VA_ARGS__, NULL})

/* ---- the valid grid and its graph ---- */

static int node_of(const ex_board *board, const char *id)
{
    int circle = ex_board_circle(board, id, strlen(id));
    if (circle == EX_NONE)
        fail_msg("no circle '%s'", id);
    return board->circles[circle].node;
}

static int distance_of(const ex_board *board, const char *id)
{
    return board->nodes[node_of(board, id)].distance;
}

static int degree_of(const ex_board *board, const char *id)
{
    return board->nodes[node_of(board, id)].degree;
}

static void test_ex_board_grid_gives_one_node_per_circle_and_one_per_wrap_point(void **unused)
{
    (void)unused;
    char *json = grid_json(ROWS);
    ex_board board;
    loads(json, &board);
    free(json);
    int places = ROWS * COLUMNS;
    assert_int_equal(board.circle_count, places + 5);
    assert_int_equal(board.wrap_count, 1);
    assert_int_equal(board.node_count, places + 4);
    /* start 0, the wrap point 1 (wrap-e comes first in circles[], though second in its pair),
     * the places 2.., b1, r1; wrap-w (circle places + 3) shares node 1 */
    assert_int_equal(board.start, 0);
    assert_int_equal(board.nodes[0].kind, EX_KIND_START);
    assert_int_equal(board.circles[1].node, 1);
    assert_int_equal(board.circles[places + 3].node, 1);
    assert_int_equal(board.nodes[1].circle, 1);
    assert_int_equal(board.nodes[1].kind, EX_KIND_RED);
    assert_int_equal(board.circles[places + 2].node, places + 2); /* b1 */
    assert_int_equal(board.circles[places + 4].node, places + 3); /* r1 */
    assert_int_equal(board.nodes[places + 2].kind, EX_KIND_BLUE);
    for (int n = 0; n < board.node_count; n++)
        assert_int_equal(board.circles[board.nodes[n].circle].node, n);
    /* the segments to the two halves reach the one node */
    int to_east = ex_board_segment(&board, 1, node_of(&board, "p0-9"));
    int to_west = ex_board_segment(&board, 1, node_of(&board, "p4-0"));
    assert_int_not_equal(to_east, EX_NONE);
    assert_int_not_equal(to_west, EX_NONE);
    assert_int_equal(board.segments[to_east].circle[0], 1);
    assert_int_equal(board.segments[to_west].circle[1], places + 3);
    assert_int_equal(board.segments[to_west].node[1], 1);
}

static void test_ex_board_grid_distances_go_through_the_wrap_point(void **unused)
{
    (void)unused;
    char *json = grid_json(ROWS);
    ex_board board;
    loads(json, &board);
    free(json);
    assert_int_equal(distance_of(&board, "start"), 0);
    for (int r = 0; r < ROWS; r++)
        for (int c = 2; c <= 7; c++) {
            char id[EX_ID_MAX];
            snprintf(id, sizeof id, "p%d-%d", r, c);
            assert_int_equal(distance_of(&board, id), r + 1);
        }
    assert_int_equal(distance_of(&board, "p0-1"), 2);
    assert_int_equal(distance_of(&board, "p0-0"), 3);
    assert_int_equal(distance_of(&board, "p0-9"), 3);
    /* p0-9 (3), the wrap point (4), p4-0 (5): by the grid alone p4-0 would be 7 */
    assert_int_equal(distance_of(&board, "wrap-e"), 4);
    assert_int_equal(distance_of(&board, "wrap-w"), 4);
    assert_int_equal(distance_of(&board, "p4-0"), 5);
    assert_int_equal(distance_of(&board, "p5-0"), 6);
    assert_int_equal(distance_of(&board, "p3-0"), 6);
    assert_int_equal(distance_of(&board, "p6-0"), 7);
    assert_int_equal(distance_of(&board, "b1"), 8);
    assert_int_equal(distance_of(&board, "r1"), 9);
}

static void test_ex_board_grid_degrees_and_segment_lists(void **unused)
{
    (void)unused;
    char *json = grid_json(ROWS);
    ex_board board;
    loads(json, &board);
    free(json);
    assert_int_equal(board.start_degree, 6);
    assert_int_equal(degree_of(&board, "start"), 6);
    assert_int_equal(degree_of(&board, "wrap-w"), 2);
    assert_int_equal(degree_of(&board, "p0-2"), 4);
    assert_int_equal(degree_of(&board, "p0-0"), 2);
    assert_int_equal(degree_of(&board, "p0-9"), 3);
    assert_int_equal(degree_of(&board, "p4-0"), 4);
    assert_int_equal(degree_of(&board, "p3-3"), 4);
    assert_int_equal(degree_of(&board, "b1"), 2);
    /* every segment is in the lists of both its nodes, once */
    int listed = 0;
    for (int n = 0; n < board.node_count; n++)
        for (int i = 0; i < board.nodes[n].degree; i++) {
            const ex_segment *segment = &board.segments[board.nodes[n].segment[i]];
            assert_true(segment->node[0] == n || segment->node[1] == n);
            listed++;
        }
    assert_int_equal(listed, 2 * board.segment_count);
    for (int s = 0; s < board.segment_count; s++)
        for (int e = 0; e < 2; e++)
            assert_int_equal(board.segments[s].node[e],
                             board.circles[board.segments[s].circle[e]].node);
}

static void test_ex_board_grid_cards_follow_the_order_of_circles(void **unused)
{
    (void)unused;
    char *json = grid_json(ROWS);
    ex_board board;
    loads(json, &board);
    free(json);
    assert_int_equal(board.place_count, ROWS * COLUMNS);
    for (int card = 0; card < board.place_count; card++) {
        char id[EX_ID_MAX];
        snprintf(id, sizeof id, "p%d-%d", card / COLUMNS, card % COLUMNS);
        int node = node_of(&board, id);
        assert_int_equal(node, 2 + card);
        assert_int_equal(board.nodes[node].card, card);
        assert_int_equal(board.place_node[card], node);
    }
    assert_int_equal(board.nodes[board.start].card, EX_NONE);
    assert_int_equal(board.nodes[node_of(&board, "b1")].card, EX_NONE);
    assert_int_equal(board.nodes[node_of(&board, "wrap-w")].card, EX_NONE);
    const ex_circle *rome = &board.circles[ex_board_circle(&board, "p3-4", 4)];
    assert_string_equal(rome->name, "Place 3-4");
    assert_string_equal(rome->region, "Row 3");
    assert_float_equal(rome->x_mm, 340, 0.001);
    assert_float_equal(rome->y_mm, 240, 0.001);
    assert_string_equal(board.id, "test-grid");
    assert_string_equal(board.title, "A grid of 70 places");
    assert_float_equal(board.width_mm, 780, 0.001);
}

static void test_ex_board_circle_finds_either_half_by_text_and_length(void **unused)
{
    (void)unused;
    char *json = grid_json(ROWS);
    ex_board board;
    loads(json, &board);
    free(json);
    int east = ex_board_circle(&board, "wrap-e", 6), west = ex_board_circle(&board, "wrap-w", 6);
    assert_int_equal(east, 1);
    assert_int_equal(west, ROWS * COLUMNS + 3);
    assert_int_equal(board.circles[east].node, board.circles[west].node);
    /* a word inside a longer text: only its length counts */
    assert_int_equal(ex_board_circle(&board, "p0-1 and more", 4), 3);
    assert_int_equal(ex_board_circle(&board, "p0-12", 5), EX_NONE);
    assert_int_equal(ex_board_circle(&board, "p0", 2), EX_NONE);
    assert_int_equal(ex_board_circle(&board, "", 0), EX_NONE);
    assert_int_equal(ex_board_circle(&board, "atlantis", 8), EX_NONE);
}

static void test_ex_board_segment_joins_two_nodes_either_way(void **unused)
{
    (void)unused;
    char *json = grid_json(ROWS);
    ex_board board;
    loads(json, &board);
    free(json);
    int start = board.start, p02 = node_of(&board, "p0-2");
    assert_int_equal(ex_board_segment(&board, start, p02), 0);
    assert_int_equal(ex_board_segment(&board, p02, start), 0);
    assert_int_equal(ex_board_segment(&board, start, node_of(&board, "p0-1")), EX_NONE);
    assert_int_equal(ex_board_segment(&board, start, start), EX_NONE);
    assert_int_equal(ex_board_segment(&board, -1, start), EX_NONE);
    assert_int_equal(ex_board_segment(&board, start, board.node_count), EX_NONE);
    int s = ex_board_segment(&board, node_of(&board, "p3-3"), node_of(&board, "p4-3"));
    assert_int_not_equal(s, EX_NONE);
    assert_int_equal(board.segments[s].circle[0], ex_board_circle(&board, "p3-3", 4));
    assert_int_equal(board.segments[s].circle[1], ex_board_circle(&board, "p4-3", 4));
}

static void test_ex_board_names_of_kinds_and_expeditions(void **unused)
{
    (void)unused;
    assert_string_equal(ex_kind_name(EX_KIND_START), "start");
    assert_string_equal(ex_kind_name(EX_KIND_PLACE), "place");
    assert_string_equal(ex_kind_name(EX_KIND_BLUE), "blue");
    assert_string_equal(ex_kind_name(EX_KIND_RED), "red");
    assert_null(ex_kind_name(EX_KINDS));
    assert_null(ex_kind_name((ex_kind)-1));
    assert_string_equal(ex_expedition_name(EX_YELLOW), "yellow");
    assert_string_equal(ex_expedition_name(EX_RED), "red");
    assert_string_equal(ex_expedition_name(EX_BLUE), "blue");
    assert_null(ex_expedition_name(EX_EXPEDITIONS));
    assert_null(ex_expedition_name(-1));
}

static void test_ex_board_file_read_reads_a_file(void **unused)
{
    (void)unused;
    char *folder = test_make_folder();
    char *path = test_path(folder, "grid.json");
    char *json = grid_json(ROWS);
    test_write_file(path, json, strlen(json));
    ex_board board;
    char error[256] = "";
    if (!board_file_read(path, &board, error, sizeof error))
        fail_msg("%s", error);
    assert_int_equal(board.place_count, ROWS * COLUMNS);
    /* an error of the file names the file */
    json[0] = '[';
    test_write_file(path, json, strlen(json));
    assert_false(board_file_read(path, &board, error, sizeof error));
    check_one_line(error, sizeof error);
    assert_non_null(strstr(error, path));
    assert_non_null(strstr(error, "line 2, column"));
    free(json);
    test_remove_tree(folder);
    free(path);
    free(folder);
}

/* ---- refusals of the JSON ---- */

static void test_ex_board_file_refuses_a_missing_file(void **unused)
{
    (void)unused;
    ex_board board;
    char error[256] = "";
    const char *path = FIXTURES_DIR "/boards/no-such-board.json";
    assert_false(board_file_read(path, &board, error, sizeof error));
    check_one_line(error, sizeof error);
    assert_non_null(strstr(error, path));
    assert_non_null(strstr(error, "No such file"));
    /* a folder opens but cannot be read */
    assert_false(board_file_read(FIXTURES_DIR, &board, error, sizeof error));
    check_one_line(error, sizeof error);
    assert_non_null(strstr(error, "cannot"));
}

static void test_ex_board_file_refuses_a_json_syntax_error_with_line_and_column(void **unused)
{
    (void)unused;
    /* the comma after the version is missing: jansson stops at "game" on line 4 */
    REFUSED_EDIT("\"version\": 1,", "\"version\": 1", "line 4, column", "expected");
    REFUSED(strdup(""), "line 1", "column");
    REFUSED(strdup("{\"format\": \"tablescribe-board\",}"), "line 1");
    /* jansson quotes the input: a raw line break in a string must not break the message */
    REFUSED(strdup("{\"format\": \"table\nscribe\"}"), "line 1", "column");
}

static void test_ex_board_file_refuses_what_is_not_an_object(void **unused)
{
    (void)unused;
    REFUSED(strdup("[1, 2]"), "JSON object");
    REFUSED(strdup("{\"format\": \"tablescribe-board\", \"format\": \"x\"}"), "duplicate");
}

static void test_ex_board_file_refuses_another_format(void **unused)
{
    (void)unused;
    REFUSED_EDIT("\"format\": \"tablescribe-board\"", "\"format\": \"tablescribe-archive\"",
                 "\"format\" must be \"tablescribe-board\"");
    REFUSED_EDIT("\"format\": \"tablescribe-board\"", "\"format\": 1", "\"format\"");
}

static void test_ex_board_file_refuses_a_newer_version(void **unused)
{
    (void)unused;
    REFUSED_EDIT("\"version\": 1", "\"version\": 2", "version 2", "newer tablescribe");
    REFUSED_EDIT("\"version\": 1", "\"version\": 0", "\"version\" must be 1");
    REFUSED_EDIT("\"version\": 1", "\"version\": \"1\"", "\"version\" must be 1");
    REFUSED_EDIT("\"version\": 1", "\"version\": 1.0", "\"version\" must be 1");
}

static void test_ex_board_file_refuses_another_game(void **unused)
{
    (void)unused;
    REFUSED_EDIT("\"game\": \"expeditions\"", "\"game\": \"luxor\"",
                 "\"game\" must be \"expeditions\"");
}

static void test_ex_board_file_refuses_missing_keys(void **unused)
{
    (void)unused;
    /* renamed rather than removed: unknown keys are ignored, so the key is simply missing */
    static const char *const keys[] = {"format",  "version",        "game",    "id",    "title",
                                       "size_mm", "start_segments", "circles", "wraps", "segments"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        char from[32], to[32], expected[48];
        snprintf(from, sizeof from, "\"%s\":", keys[i]);
        snprintf(to, sizeof to, "\"%s-old\":", keys[i]);
        snprintf(expected, sizeof expected, "\"%s\" is missing", keys[i]);
        REFUSED_EDIT(from, to, expected);
    }
    REFUSED_EDIT("{\"id\": \"b1\"", "{\"ident\": \"b1\"", "circles[72]: \"id\" is missing");
    REFUSED_EDIT("\"id\": \"b1\", \"kind\"", "\"id\": \"b1\", \"kinds\"",
                 "circles[72] (\"b1\"): \"kind\" is missing");
    REFUSED_EDIT("\"id\": \"b1\", \"kind\": \"blue\", \"at\"",
                 "\"id\": \"b1\", \"kind\": \"blue\", \"where\"",
                 "circles[72] (\"b1\"): \"at\" is missing");
    /* the note, a place's region and others' names are optional */
    char *json = edited("\"note\":", "\"remark\":");
    ex_board board;
    loads(json, &board);
    free(json);
}

static void test_ex_board_file_refuses_bad_ids(void **unused)
{
    (void)unused;
    const char *must = "\"id\" must be 1 to 23 lower-case letters, digits or '-'";
    REFUSED_EDIT("\"id\": \"test-grid\"", "\"id\": \"Test-grid\"", must);
    REFUSED_EDIT("\"id\": \"test-grid\"", "\"id\": \"1-grid\"", must);
    REFUSED_EDIT("\"id\": \"test-grid\"", "\"id\": \"\"", must);
    REFUSED_EDIT("\"id\": \"test-grid\"", "\"id\": \"grid_1\"", must);
    REFUSED_EDIT("\"id\": \"test-grid\"", "\"id\": \"abcdefghijklmnopqrstuvwx\"", must);
    REFUSED_EDIT("\"id\": \"test-grid\"", "\"id\": 7", must);
    REFUSED_EDIT("\"id\": \"p3-3\"", "\"id\": \"p3 3\"", "circles[35]: ", must);
    REFUSED_EDIT("\"id\": \"p3-3\"", "\"id\": \"caf\\u00e9\"", "circles[35]: ", must);
    /* 23 characters are allowed */
    char *json = edited("\"id\": \"test-grid\"", "\"id\": \"abcdefghijklmnopqrstuvw\"");
    ex_board board;
    loads(json, &board);
    free(json);
    assert_string_equal(board.id, "abcdefghijklmnopqrstuvw");
}

static void test_ex_board_file_refuses_an_unknown_kind(void **unused)
{
    (void)unused;
    REFUSED_EDIT("\"kind\": \"blue\"", "\"kind\": \"harbour\"", "circles[72] (\"b1\")",
                 "unknown kind \"harbour\"");
    REFUSED_EDIT("\"kind\": \"blue\"", "\"kind\": \"Blue\"", "unknown kind");
    REFUSED_EDIT("\"kind\": \"blue\"", "\"kind\": 2", "\"kind\" must be a string");
}

static void test_ex_board_file_refuses_wrong_types(void **unused)
{
    (void)unused;
    REFUSED_EDIT("\"circles\": [", "\"circles\": 5, \"old-circles\": [",
                 "\"circles\" must be an array");
    REFUSED_EDIT("{\"id\": \"b1\", \"kind\": \"blue\", \"at\": [95, 500]}", "\"b1\"",
                 "circles[72] must be an object");
    REFUSED_EDIT("\"name\": \"Place 3-3\"", "\"name\": 33",
                 "(\"p3-3\"): \"name\" must be a string");
    REFUSED_EDIT("\"region\": \"Row 3\"", "\"region\": null", "\"region\" must be a string");
    REFUSED_EDIT("\"note\": \"made", "\"note\": 5, \"old-note\": \"made",
                 "\"note\" must be a string");
    REFUSED_EDIT("\"title\": \"A grid of 70 places\"", "\"title\": false",
                 "\"title\" must be a string");
    REFUSED_EDIT("[[\"wrap-w\", \"wrap-e\"]]", "[[\"wrap-w\"]]", "wraps[0] must be two circle ids");
    REFUSED_EDIT("[[\"wrap-w\", \"wrap-e\"]]", "[\"wrap-w\", \"wrap-e\"]",
                 "wraps[0] must be two circle ids");
    REFUSED_EDIT("\"wraps\": [[", "\"wraps\": \"none\", \"old-wraps\": [[",
                 "\"wraps\" must be an array");
    REFUSED_EDIT("[\"start\", \"p0-2\"]", "[\"start\", 2]", "segments[0] must be two circle ids");
    REFUSED_EDIT("[\"start\", \"p0-2\"]", "[\"start\", \"p0-2\", \"p0-3\"]",
                 "segments[0] must be two circle ids");
}

static void test_ex_board_file_refuses_long_texts(void **unused)
{
    (void)unused;
    char name[80], title[120];
    snprintf(name, sizeof name, "\"name\": \"%048d\"", 0);
    REFUSED_EDIT("\"name\": \"Place 3-3\"", name, "(\"p3-3\"): \"name\" is longer than 47 bytes");
    snprintf(name, sizeof name, "\"region\": \"%048d\"", 0);
    REFUSED_EDIT("\"region\": \"Row 3\"", name, "\"region\" is longer than 47 bytes");
    snprintf(title, sizeof title, "\"title\": \"%096d\"", 0);
    REFUSED_EDIT("\"title\": \"A grid of 70 places\"", title, "\"title\" is longer than 95 bytes");
    /* 47 bytes of UTF-8 fit: "é" is two */
    snprintf(name, sizeof name, "\"name\": \"%045d\\u00e9\"", 0);
    char *json = edited("\"name\": \"Place 3-3\"", name);
    ex_board board;
    loads(json, &board);
    free(json);
    assert_int_equal(strlen(board.circles[ex_board_circle(&board, "p3-3", 4)].name), 47);
}

static void test_ex_board_file_refuses_a_bad_size_or_start_count(void **unused)
{
    (void)unused;
    const char *size = "\"size_mm\" must be two positive numbers in mm";
    REFUSED_EDIT("\"size_mm\": [780, 520]", "\"size_mm\": [780, -520]", size);
    REFUSED_EDIT("\"size_mm\": [780, 520]", "\"size_mm\": [780]", size);
    REFUSED_EDIT("\"size_mm\": [780, 520]", "\"size_mm\": [780, 0]", size);
    REFUSED_EDIT("\"size_mm\": [780, 520]", "\"size_mm\": [780, 1e300]", size);
    REFUSED_EDIT("\"size_mm\": [780, 520]", "\"size_mm\": \"780x520\"", size);
    const char *start = "\"start_segments\" must be a whole number from 1 to 8";
    REFUSED_EDIT("\"start_segments\": 6", "\"start_segments\": 0", start);
    REFUSED_EDIT("\"start_segments\": 6", "\"start_segments\": 9", start);
    REFUSED_EDIT("\"start_segments\": 6", "\"start_segments\": 6.5", start);
}

static void test_ex_board_file_refuses_positions_outside_the_board(void **unused)
{
    (void)unused;
    REFUSED_EDIT("\"at\": [95, 500]", "\"at\": [95]",
                 "circles[72] (\"b1\"): \"at\" must be two numbers in mm");
    REFUSED_EDIT("\"at\": [95, 500]", "\"at\": [\"95\", 500]", "\"at\" must be two numbers in mm");
    REFUSED_EDIT("\"at\": [95, 500]", "\"at\": [95, 521]",
                 "(\"b1\"): at [95, 521] is outside the 780 x 520 mm board");
    REFUSED_EDIT("\"at\": [95, 500]", "\"at\": [-0.5, 500]", "outside");
    REFUSED_EDIT("\"at\": [95, 500]", "\"at\": [781, 500]", "outside");
    /* the edges are inside */
    char *json = edited("\"at\": [95, 500]", "\"at\": [0, 520]");
    ex_board board;
    loads(json, &board);
    free(json);
}

static void test_ex_board_file_refuses_too_many_entries(void **unused)
{
    (void)unused;
    /* 75 circles in the grid: 118 more make 193 */
    REFUSED_INSERT(CIRCLES_HEAD,
                   repeated(118, "{\"id\": \"x%d\", \"kind\": \"blue\", \"at\": [1, 1]},\n"),
                   "\"circles\" holds 193 circles, at most 192");
    /* 192 pass this layer: the graph is refused next */
    REFUSED_INSERT(CIRCLES_HEAD,
                   repeated(117, "{\"id\": \"x%d\", \"kind\": \"blue\", \"at\": [1, 1]},\n"),
                   "circle 'x0' has no segment");
    /* 135 segments in the grid: 250 more make 385 */
    REFUSED_INSERT(SEGMENTS_HEAD, repeated(250, "[\"p1-1\", \"p1-2\"],\n"),
                   "\"segments\" holds 385 segments, at most 384");
    REFUSED_INSERT(SEGMENTS_HEAD, repeated(249, "[\"p1-1\", \"p1-2\"],\n"),
                   "segment 1 (p1-1 - p1-2): joins the same circles as segment 0");
    REFUSED_INSERT(WRAPS_HEAD, repeated(96, "[\"start\", \"b1\"], "),
                   "\"wraps\" holds 97 wrap points, at most 96");
}

static void test_ex_board_file_refuses_a_segment_to_an_unknown_circle(void **unused)
{
    (void)unused;
    REFUSED_EDIT("[\"p3-3\", \"p3-4\"]", "[\"p3-3\", \"atlantis\"]",
                 "segment 69 (p3-3 - atlantis): unknown circle 'atlantis'");
    REFUSED_EDIT("[\"start\", \"p0-2\"]", "[\"\", \"p0-2\"]",
                 "segment 0 ( - p0-2): unknown circle ''");
    /* an id from the file is quoted printable and short */
    REFUSED_EDIT("[\"start\", \"p0-2\"]",
                 "[\"start\\n\\u00e9 and a very long id that goes on\", \"p0-2\"]",
                 "unknown circle 'start??? and a very long id ...'");
    REFUSED_EDIT("[[\"wrap-w\", \"wrap-e\"]]", "[[\"wrap-w\", \"wrap-n\"]]",
                 "wrap point 0 (wrap-w - wrap-n): unknown circle 'wrap-n'");
}

/* ---- refusals of the graph (ex_board_prepare, through the file) ---- */

static void test_ex_board_refuses_a_repeated_id(void **unused)
{
    (void)unused;
    REFUSED_EDIT("\"id\": \"b1\"", "\"id\": \"p6-0\"",
                 "circles[72] (\"p6-0\"): the id is repeated (circles[62] has it too)");
    /* ex_board_prepare checks it too, for boards not read from a file */
    char *json = grid_json(ROWS);
    ex_board board;
    loads(json, &board);
    free(json);
    memcpy(board.circles[72].id, "p6-0", 5);
    ex_error error;
    assert_false(ex_board_prepare(&board, &error));
    assert_string_equal(error.message, "circle 'p6-0': the id is repeated (circles 62 and 72)");
}

static void test_ex_board_refuses_a_place_without_a_name(void **unused)
{
    (void)unused;
    REFUSED_EDIT("\"name\": \"Place 3-3\", ", "", "circle 'p3-3': a place needs a name");
    REFUSED_EDIT("\"name\": \"Place 3-3\"", "\"name\": \"\"",
                 "circle 'p3-3': a place needs a name");
}

static void test_ex_board_refuses_two_starts_or_none(void **unused)
{
    (void)unused;
    REFUSED_EDIT("\"kind\": \"blue\"", "\"kind\": \"start\"", "two starts", "'start' and 'b1'");
    REFUSED_EDIT("\"kind\": \"start\"", "\"kind\": \"blue\"", "no start");
}

static void test_ex_board_refuses_a_wrong_start_degree(void **unused)
{
    (void)unused;
    REFUSED_EDIT("\"start_segments\": 6", "\"start_segments\": 5",
                 "the start is joined to 6 circles, this board needs 5");
    REFUSED_EDIT("\"start_segments\": 6", "\"start_segments\": 7",
                 "the start is joined to 6 circles, this board needs 7");
}

static void test_ex_board_refuses_a_segment_from_a_circle_to_itself(void **unused)
{
    (void)unused;
    REFUSED_EDIT("[\"p3-3\", \"p3-4\"]", "[\"p3-3\", \"p3-3\"]",
                 "segment 69 (p3-3 - p3-3): joins a circle to itself");
    REFUSED_EDIT("[\"p4-0\", \"wrap-w\"]", "[\"wrap-e\", \"wrap-w\"]",
                 "segment 134 (wrap-e - wrap-w): joins the two halves of one wrap point");
}

static void test_ex_board_refuses_a_repeated_segment_in_either_order(void **unused)
{
    (void)unused;
    REFUSED_INSERT(SEGMENTS_HEAD, strdup("[\"p3-3\", \"p3-4\"],\n"),
                   "segment 70 (p3-3 - p3-4): joins the same circles as segment 0 (p3-3 - p3-4)");
    REFUSED_INSERT(SEGMENTS_HEAD, strdup("[\"p3-4\", \"p3-3\"],\n"),
                   "segment 70 (p3-3 - p3-4): joins the same circles as segment 0 (p3-4 - p3-3)");
    /* the two halves of a wrap point are one circle */
    REFUSED_INSERT(
        SEGMENTS_HEAD, strdup("[\"wrap-e\", \"p4-0\"],\n"),
        "segment 135 (p4-0 - wrap-w): joins the same circles as segment 0 (wrap-e - p4-0)");
}

static void test_ex_board_refuses_wrap_halves_that_are_not_red(void **unused)
{
    (void)unused;
    REFUSED_EDIT("{\"id\": \"wrap-w\", \"kind\": \"red\"",
                 "{\"id\": \"wrap-w\", \"kind\": \"blue\"",
                 "wrap point 0 (wrap-w - wrap-e): 'wrap-w' is blue, a wrap point's halves are red");
    REFUSED_EDIT("[[\"wrap-w\", \"wrap-e\"]]", "[[\"wrap-w\", \"start\"]]", "'start' is start",
                 "red");
}

static void test_ex_board_refuses_wrap_halves_away_from_the_edges(void **unused)
{
    (void)unused;
    REFUSED_EDIT("\"at\": [5, 203]", "\"at\": [21, 203]",
                 "wrap point 0 (wrap-w - wrap-e): the halves must lie at the left and right edges");
    REFUSED_EDIT("\"at\": [775, 200]", "\"at\": [759, 200]", "left and right edges");
    /* both at one edge */
    REFUSED_EDIT("\"at\": [775, 200]", "\"at\": [10, 200]", "left and right edges");
    /* 20 mm from the edge is still at it */
    char *json = edited("\"at\": [5, 203]", "\"at\": [20, 203]");
    ex_board board;
    loads(json, &board);
    free(json);
}

static void test_ex_board_refuses_wrap_halves_at_different_heights(void **unused)
{
    (void)unused;
    REFUSED_EDIT("\"at\": [5, 203]", "\"at\": [5, 205.5]",
                 "wrap point 0 (wrap-w - wrap-e): the halves must be at the same height");
    REFUSED_EDIT("\"at\": [5, 203]", "\"at\": [5, 194]", "same height");
    char *json = edited("\"at\": [5, 203]", "\"at\": [5, 195]");
    ex_board board;
    loads(json, &board);
    free(json);
}

static void test_ex_board_refuses_a_circle_in_two_wrap_points(void **unused)
{
    (void)unused;
    /* wrap-x is red at the right edge with a segment: only its wrap point is wrong */
    char *json = inserted(grid_json(ROWS), CIRCLES_HEAD,
                          "{\"id\": \"wrap-x\", \"kind\": \"red\", \"at\": [776, 204]},\n");
    json = inserted(json, SEGMENTS_HEAD, "[\"wrap-x\", \"p2-9\"],\n");
    json = replaced(json, "[[\"wrap-w\", \"wrap-e\"]]",
                    "[[\"wrap-w\", \"wrap-e\"], [\"wrap-x\", \"wrap-w\"]]");
    REFUSED(json, "wrap point 1 (wrap-x - wrap-w): 'wrap-w' is already in wrap point 0");
    REFUSED_EDIT("[[\"wrap-w\", \"wrap-e\"]]", "[[\"wrap-w\", \"wrap-w\"]]",
                 "wrap point 0 (wrap-w - wrap-w): its two halves are one circle");
}

static void test_ex_board_refuses_a_circle_without_a_segment(void **unused)
{
    (void)unused;
    REFUSED_INSERT(CIRCLES_HEAD,
                   strdup("{\"id\": \"lonely\", \"kind\": \"place\", \"name\": \"Lonely\", "
                          "\"at\": [300, 300]},\n"),
                   "circle 'lonely' has no segment");
    /* each half of a wrap point is drawn with its own */
    REFUSED_EDIT("[\"wrap-e\", \"p0-9\"]", "[\"wrap-w\", \"p0-9\"]",
                 "circle 'wrap-e' has no segment");
}

/* The grid with `count` blue circles "x0".. at the head of circles[], each joined to
 * `to` by a segment at the head of segments[]. malloc'd. */
static char *grid_with_spokes(int count, const char *to)
{
    char *circles = repeated(count, "{\"id\": \"x%d\", \"kind\": \"blue\", \"at\": [300, 300]},\n");
    char format[64];
    snprintf(format, sizeof format, "[\"x%%d\", \"%s\"],\n", to);
    char *segments = repeated(count, format);
    char *json =
        inserted(inserted(grid_json(ROWS), CIRCLES_HEAD, circles), SEGMENTS_HEAD, segments);
    free(circles);
    free(segments);
    return json;
}

static void test_ex_board_refuses_more_than_8_segments_at_a_circle(void **unused)
{
    (void)unused;
    /* p3-3 has 4 in the grid: 4 more are fine, 5 one too many */
    char *json = grid_with_spokes(4, "p3-3");
    ex_board board;
    loads(json, &board);
    free(json);
    assert_int_equal(degree_of(&board, "p3-3"), EX_MAX_DEGREE);
    REFUSED(grid_with_spokes(5, "p3-3"), "circle 'p3-3' has more than 8 segments",
            ": segment 75 (p3-3 - p4-3) is one too many");
    /* the halves of a wrap point count together: 2 in the grid and 7 more at one half */
    REFUSED(grid_with_spokes(7, "wrap-e"),
            "circle 'wrap-w' has more than 8 segments: segment 141 (p4-0 - wrap-w)");
}

static void test_ex_board_refuses_a_circle_the_start_cannot_reach(void **unused)
{
    (void)unused;
    char *json = inserted(grid_json(ROWS), CIRCLES_HEAD,
                          "{\"id\": \"island-a\", \"kind\": \"blue\", \"at\": [300, 300]},\n"
                          "{\"id\": \"island-b\", \"kind\": \"red\", \"at\": [310, 300]},\n");
    json = inserted(json, SEGMENTS_HEAD, "[\"island-b\", \"island-a\"],\n");
    REFUSED(json, "circle 'island-a' cannot be reached from the start");
}

static void test_ex_board_refuses_too_few_or_too_many_places(void **unused)
{
    (void)unused;
    REFUSED(grid_json(6), "the board has 60 places, it needs 64 to 128");
    REFUSED(grid_json(13), "the board has 130 places, it needs 64 to 128");
    /* blue circles are not places: 6 of the 70 made blue leave 64, which is enough, 7 not */
    char *json = grid_json(ROWS);
    for (int c = 4; c <= 9; c++) {
        char from[48], to[48];
        snprintf(from, sizeof from, "\"id\": \"p6-%d\", \"kind\": \"place\"", c);
        snprintf(to, sizeof to, "\"id\": \"p6-%d\", \"kind\": \"blue\"", c);
        json = replaced(json, from, to);
    }
    ex_board board;
    loads(json, &board);
    assert_int_equal(board.place_count, EX_MIN_PLACES);
    json = replaced(json, "\"id\": \"p6-3\", \"kind\": \"place\"",
                    "\"id\": \"p6-3\", \"kind\": \"blue\"");
    REFUSED(json, "the board has 63 places, it needs 64 to 128");
}

/* What no board file can hold, since the reader refuses it first: prepare guards it too. */
static void test_ex_board_prepare_guards_what_no_file_can_hold(void **unused)
{
    (void)unused;
    char *json = grid_json(ROWS);
    ex_board *good = malloc(sizeof *good), *board = malloc(sizeof *board);
    assert_non_null(good);
    assert_non_null(board);
    loads(json, good);
    free(json);
    ex_error error;
    *board = *good;
    board->segments[3].circle[1] = 500;
    assert_false(ex_board_prepare(board, &error));
    assert_non_null(strstr(error.message, "segment 3 (start - #500): unknown circle 500"));
    *board = *good;
    board->wraps[0][0] = -1;
    assert_false(ex_board_prepare(board, &error));
    assert_non_null(strstr(error.message, "wrap point 0 (#-1 - wrap-e): unknown circle -1"));
    *board = *good;
    board->circle_count = EX_MAX_CIRCLES + 1;
    assert_false(ex_board_prepare(board, &error));
    assert_non_null(strstr(error.message, "193 circles, at most 192"));
    *board = *good;
    board->segment_count = -1;
    assert_false(ex_board_prepare(board, &error));
    assert_non_null(strstr(error.message, "-1 segments"));
    *board = *good;
    board->wrap_count = EX_MAX_CIRCLES / 2 + 1;
    assert_false(ex_board_prepare(board, &error));
    assert_non_null(strstr(error.message, "97 wrap points"));
    *board = *good;
    board->circles[5].kind = EX_KINDS;
    assert_false(ex_board_prepare(board, &error));
    assert_non_null(strstr(error.message, "circle 'p0-3': unknown kind 4"));
    *board = *good;
    board->start_degree = 0;
    assert_false(ex_board_prepare(board, &error));
    assert_non_null(strstr(error.message, "the start must be joined to 1 to 8 circles, not 0"));
    *board = *good;
    memset(board->circles[5].id, 'a', EX_ID_MAX);
    assert_false(ex_board_prepare(board, &error));
    assert_non_null(strstr(error.message, "circle 5, id 'aaaaaaaaaaaaaaaaaaaaaaaa'"));
    *board = *good;
    board->circles[5].id[1] = '\n';
    assert_false(ex_board_prepare(board, &error));
    assert_non_null(strstr(error.message, "id 'p?-3'"));
    *board = *good;
    memset(board->circles[5].name, 'n', EX_NAME_MAX);
    assert_false(ex_board_prepare(board, &error));
    assert_non_null(strstr(error.message, "circle 'p0-3': the name is longer than 47 bytes"));
    *board = *good;
    board->width_mm = 0;
    assert_false(ex_board_prepare(board, &error));
    assert_non_null(strstr(error.message, "the size must be positive"));
    /* prepared twice, the same */
    *board = *good;
    assert_true(ex_board_prepare(board, &error));
    assert_memory_equal(board, good, sizeof *board);
    /* error may be NULL */
    board->start_degree = 3;
    assert_false(ex_board_prepare(board, NULL));
    free(board);
    free(good);
}

/* ---- the table of boards (these tests run in order: the table is the process's) ---- */

static ex_board *grid_board(void)
{
    ex_board *board = malloc(sizeof *board);
    assert_non_null(board);
    char *json = grid_json(ROWS);
    loads(json, board);
    free(json);
    return board;
}

static void test_ex_board_add_twice_gives_one_handle(void **unused)
{
    (void)unused;
    ex_board *board = grid_board();
    int handle = ex_board_add(board);
    assert_int_equal(handle, 1);
    /* bytes past a terminator and the derived fields are not the map */
    ex_board *copy = malloc(sizeof *copy);
    assert_non_null(copy);
    *copy = *board;
    copy->circles[5].name[40] = 'x';
    copy->title[90] = 'y';
    copy->nodes[3].distance = 99;
    assert_int_equal(ex_board_add(copy), handle);
    const ex_board *kept = ex_board_get(handle);
    assert_non_null(kept);
    assert_ptr_not_equal(kept, board);
    assert_string_equal(kept->id, "test-grid");
    assert_int_equal(kept->place_count, ROWS * COLUMNS);
    assert_int_equal(kept->nodes[3].distance, board->nodes[3].distance);
    assert_null(ex_board_get(0));
    assert_null(ex_board_get(handle + 1));
    free(copy);
    free(board);
}

static void test_ex_board_add_refuses_another_board_with_the_same_id(void **unused)
{
    (void)unused;
    ex_board *board = grid_board();
    board->circles[3].x_mm += 1;
    assert_int_equal(ex_board_add(board), 0);
    free(board);
    board = grid_board();
    snprintf(board->circles[3].name, EX_NAME_MAX, "Elsewhere");
    assert_int_equal(ex_board_add(board), 0);
    free(board);
    board = grid_board();
    board->segments[7].circle[0] = board->segments[8].circle[0];
    assert_int_equal(ex_board_add(board), 0);
    free(board);
}

static void test_ex_board_add_keeps_only_boards_that_pass_the_checks(void **unused)
{
    (void)unused;
    ex_board *board = grid_board();
    snprintf(board->id, EX_ID_MAX, "unchecked");
    board->start_degree = 5;
    assert_int_equal(ex_board_add(board), 0);
    assert_null(ex_board_get(2));
    free(board);
}

static void test_ex_board_add_refuses_a_fifth_board(void **unused)
{
    (void)unused;
    ex_board *board = grid_board();
    int last = 0, refused_at = 0;
    for (int i = 0; i < 5 && !refused_at; i++) {
        snprintf(board->id, EX_ID_MAX, "table-%d", i);
        int handle = ex_board_add(board);
        if (handle == 0)
            refused_at = i;
        else {
            assert_int_equal(handle, last ? last + 1 : handle);
            last = handle;
        }
    }
    assert_int_equal(last, 4);
    assert_int_not_equal(refused_at, 0);
    assert_non_null(ex_board_get(4));
    assert_null(ex_board_get(5));
    /* a board already kept is still found */
    snprintf(board->id, EX_ID_MAX, "table-0");
    assert_int_not_equal(ex_board_add(board), 0);
    free(board);
}

/* ---- fuzz ---- */

static uint64_t next_random(uint64_t *rng)
{
    *rng = *rng * 6364136223846793005ull + 1442695040888963407ull;
    return *rng >> 33;
}

/* One random edit of text (length bytes, room for 256 more): a byte changed, a few deleted,
 * JSON punctuation inserted, or a chunk duplicated. Returns the new length. */
static size_t mutate(char *text, size_t length, uint64_t *rng)
{
    static const char punctuation[] = "{}[]:,\"\\-.0123456789eE tfn";
    size_t at = length ? next_random(rng) % length : 0;
    switch (next_random(rng) % 4) {
    case 0:
        if (length)
            text[at] = (char)(next_random(rng) & 0xff);
        return length;
    case 1: {
        size_t n = 1 + next_random(rng) % 8;
        if (n > length - at)
            n = length - at;
        memmove(text + at, text + at + n, length - at - n);
        return length - n;
    }
    case 2:
        memmove(text + at + 1, text + at, length - at);
        text[at] = punctuation[next_random(rng) % (sizeof punctuation - 1)];
        return length + 1;
    default: {
        size_t from = length ? next_random(rng) % length : 0;
        size_t n = 1 + next_random(rng) % 64;
        if (n > length - from)
            n = length - from;
        char chunk[64];
        memcpy(chunk, text + from, n);
        memmove(text + at + n, text + at, length - at);
        memcpy(text + at, chunk, n);
        return length + n;
    }
    }
}

static void test_ex_board_file_fuzz(void **unused)
{
    (void)unused;
    char *grid = grid_json(ROWS);
    size_t grid_length = strlen(grid);
    char *buffer = malloc(grid_length + 4 * 256);
    ex_board *board = malloc(sizeof *board);
    assert_non_null(buffer);
    assert_non_null(board);
    uint64_t rng = 20240611;
    int accepted = 0, refused_count = 0;
    for (int i = 0; i < 20000; i++) {
        memcpy(buffer, grid, grid_length);
        size_t length = grid_length;
        int edits = 1 + (int)(next_random(&rng) % 4);
        for (int e = 0; e < edits; e++)
            length = mutate(buffer, length, &rng);
        /* messages cut short by a small buffer stay terminated */
        static const size_t sizes[] = {256, 256, 256, 40, 1};
        size_t size = sizes[i % 5];
        char error[256];
        memset(error, 0x55, sizeof error);
        /* not terminated: the reader goes by length */
        if (board_file_parse(buffer, length, "fuzz", board, error, size)) {
            accepted++;
            assert_in_range(board->place_count, EX_MIN_PLACES, EX_MAX_PLACES);
            assert_in_range(board->node_count, 1, board->circle_count);
            assert_int_equal(board->nodes[board->start].distance, 0);
        } else {
            refused_count++;
            if (size == 1)
                assert_int_equal(error[0], '\0');
            else
                check_one_line(error, size);
        }
    }
    /* the edits reach both outcomes */
    assert_true(accepted > 100);
    assert_true(refused_count > 100);
    free(board);
    free(buffer);
    free(grid);
}

/* ---- the stand-in world map ---- */

static void test_ex_board_world_file_loads(void **unused)
{
    (void)unused;
    const char *path = FIXTURES_DIR "/boards/expeditions-world.json";
    FILE *file = fopen(path, "rb");
    if (!file)
        fail_msg("%s does not exist yet: the stand-in world board is still to be written", path);
    fclose(file);
    ex_board *board = malloc(sizeof *board);
    assert_non_null(board);
    char error[256] = "";
    if (!board_file_read(path, board, error, sizeof error))
        fail_msg("%s", error);
    assert_int_equal(board->place_count, 80);
    assert_int_equal(board->start_degree, 6);
    assert_int_equal(board->nodes[board->start].degree, 6);
    assert_int_equal(board->wrap_count, 3);
    assert_int_equal(board->node_count, board->circle_count - 3);
    free(board);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ex_board_grid_gives_one_node_per_circle_and_one_per_wrap_point),
        cmocka_unit_test(test_ex_board_grid_distances_go_through_the_wrap_point),
        cmocka_unit_test(test_ex_board_grid_degrees_and_segment_lists),
        cmocka_unit_test(test_ex_board_grid_cards_follow_the_order_of_circles),
        cmocka_unit_test(test_ex_board_circle_finds_either_half_by_text_and_length),
        cmocka_unit_test(test_ex_board_segment_joins_two_nodes_either_way),
        cmocka_unit_test(test_ex_board_names_of_kinds_and_expeditions),
        cmocka_unit_test(test_ex_board_file_read_reads_a_file),
        cmocka_unit_test(test_ex_board_file_refuses_a_missing_file),
        cmocka_unit_test(test_ex_board_file_refuses_a_json_syntax_error_with_line_and_column),
        cmocka_unit_test(test_ex_board_file_refuses_what_is_not_an_object),
        cmocka_unit_test(test_ex_board_file_refuses_another_format),
        cmocka_unit_test(test_ex_board_file_refuses_a_newer_version),
        cmocka_unit_test(test_ex_board_file_refuses_another_game),
        cmocka_unit_test(test_ex_board_file_refuses_missing_keys),
        cmocka_unit_test(test_ex_board_file_refuses_bad_ids),
        cmocka_unit_test(test_ex_board_file_refuses_an_unknown_kind),
        cmocka_unit_test(test_ex_board_file_refuses_wrong_types),
        cmocka_unit_test(test_ex_board_file_refuses_long_texts),
        cmocka_unit_test(test_ex_board_file_refuses_a_bad_size_or_start_count),
        cmocka_unit_test(test_ex_board_file_refuses_positions_outside_the_board),
        cmocka_unit_test(test_ex_board_file_refuses_too_many_entries),
        cmocka_unit_test(test_ex_board_file_refuses_a_segment_to_an_unknown_circle),
        cmocka_unit_test(test_ex_board_refuses_a_repeated_id),
        cmocka_unit_test(test_ex_board_refuses_a_place_without_a_name),
        cmocka_unit_test(test_ex_board_refuses_two_starts_or_none),
        cmocka_unit_test(test_ex_board_refuses_a_wrong_start_degree),
        cmocka_unit_test(test_ex_board_refuses_a_segment_from_a_circle_to_itself),
        cmocka_unit_test(test_ex_board_refuses_a_repeated_segment_in_either_order),
        cmocka_unit_test(test_ex_board_refuses_wrap_halves_that_are_not_red),
        cmocka_unit_test(test_ex_board_refuses_wrap_halves_away_from_the_edges),
        cmocka_unit_test(test_ex_board_refuses_wrap_halves_at_different_heights),
        cmocka_unit_test(test_ex_board_refuses_a_circle_in_two_wrap_points),
        cmocka_unit_test(test_ex_board_refuses_a_circle_without_a_segment),
        cmocka_unit_test(test_ex_board_refuses_more_than_8_segments_at_a_circle),
        cmocka_unit_test(test_ex_board_refuses_a_circle_the_start_cannot_reach),
        cmocka_unit_test(test_ex_board_refuses_too_few_or_too_many_places),
        cmocka_unit_test(test_ex_board_prepare_guards_what_no_file_can_hold),
        /* the table is shared by the process: these four in this order */
        cmocka_unit_test(test_ex_board_add_twice_gives_one_handle),
        cmocka_unit_test(test_ex_board_add_refuses_another_board_with_the_same_id),
        cmocka_unit_test(test_ex_board_add_keeps_only_boards_that_pass_the_checks),
        cmocka_unit_test(test_ex_board_add_refuses_a_fifth_board),
        cmocka_unit_test(test_ex_board_file_fuzz),
        cmocka_unit_test(test_ex_board_world_file_loads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
