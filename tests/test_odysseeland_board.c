/*
 * Odyssée-land boards: the stand-in map of fixtures/boards (built into the program) and every
 * fact it must hold, the names of places, a board file read (companion/board_file.c) and
 * checked (od_board_check in rules/odysseeland_board.c), every refusal of both layers in plain
 * words, and a fuzz of the reader.
 *
 * Each refusal is the stand-in's text with one or a few edits (edited(), replaced()), so that
 * the test reads as the fault it puts in. The stand-in's text is the one built in: the test
 * that reads the fixture file checks that the two are the same board.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "board_file.h"
#include "odysseeland.h"
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "test-board"
#define STANDIN_PATH FIXTURES_DIR "/boards/odysseeland-standin.json"

/* ---- the stand-in as text ---- */

/* The built-in stand-in, '\0'-terminated. malloc'd. */
static char *standin_json(void)
{
    const char *text = NULL;
    size_t length = 0;
    if (!board_file_builtin("odysseeland", &text, &length))
        fail_msg("no built-in Odyssée-land board");
    char *copy = malloc(length + 1);
    assert_non_null(copy);
    memcpy(copy, text, length);
    copy[length] = '\0';
    return copy;
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

/* The stand-in with the first `from` replaced by `to`. malloc'd. */
static char *edited(const char *from, const char *to)
{
    return replaced(standin_json(), from, to);
}

/* The lines of the stand-in's text these tests edit, as they stand there. */
#define ROW_1 "\"MMMMMMFFMMM\""
#define ROW_4 "\"FMMFFCMFFRR\""
#define ROW_10 "\"CCCFNMCCCCC\""
#define CAPITAL_HEAD "\"fields\": [\"K10\","
#define CITY6_HEAD "\"fields\": [\"H2\", \"I2\","
#define CITY4_HEAD "\"fields\": [\"B5\", \"B6\","
#define CITY3 "\"fields\": [\"F4\", \"E5\", \"F5\"]"
#define RIVER_HEAD "\"river\": [\"A7\", \"B7\","
#define RIVER_TAIL "\"J4\", \"K4\"]"
#define START_ROWS "\"rows\": [1, 2, 3, 4, 5]"

static void loads(const char *json, od_board *board)
{
    char error[256] = "";
    if (!board_file_parse_odysseeland(json, strlen(json), NAME, board, error, sizeof error))
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
    od_board board;
    char error[256] = "";
    bool read =
        board_file_parse_odysseeland(json, strlen(json), NAME, &board, error, sizeof error);
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

/* The stand-in with one edit must be refused with these words. */
#define REFUSED_EDIT(from, to, ...) REFUSED(edited((from), (to)), __VA_ARGS__)

/* ---- the stand-in and its facts ---- */

static int field(const char *name)
{
    int place = od_place_parse(name, strlen(name));
    if (place == OD_NONE || place >= OD_FIELDS)
        fail_msg("'%s' is not a field", name);
    return place;
}

static od_board standin(void)
{
    char *json = standin_json();
    od_board board;
    loads(json, &board);
    free(json);
    return board;
}

/* The fields of city c are exactly those named in `names` (space-separated). */
static void city_is(const od_board *board, int c, const char *names)
{
    int listed = 0;
    char copy[128];
    snprintf(copy, sizeof copy, "%s", names);
    for (char *name = strtok(copy, " "); name; name = strtok(NULL, " ")) {
        if (board->city[field(name)] != c)
            fail_msg("%s is not in city %d", name, c);
        listed++;
    }
    int count = 0;
    for (int f = 0; f < OD_FIELDS; f++)
        count += board->city[f] == c;
    assert_int_equal(count, listed);
}

static void terrain_is(const od_board *board, const char *names, int terrain)
{
    char copy[128];
    snprintf(copy, sizeof copy, "%s", names);
    for (char *name = strtok(copy, " "); name; name = strtok(NULL, " "))
        if (board->terrain[field(name)] != terrain)
            fail_msg("%s is %s, not %s", name, od_terrain_name(board->terrain[field(name)]),
                     od_terrain_name(terrain));
}

static void test_od_board_standin_is_built_in_and_is_the_fixture(void **unused)
{
    (void)unused;
    od_board built_in = standin(), from_file;
    char error[256] = "";
    if (!board_file_read_odysseeland(STANDIN_PATH, &from_file, error, sizeof error))
        fail_msg("%s", error);
    assert_memory_equal(&built_in, &from_file, sizeof built_in);
    assert_string_equal(built_in.id, "odysseeland-standin");
    /* the Expéditions map is still built in, and no other game has one */
    const char *text;
    size_t length;
    assert_true(board_file_builtin("expeditions", &text, &length));
    assert_non_null(strstr(text, "\"game\": \"expeditions\""));
    assert_false(board_file_builtin("luxor", &text, &length));
    assert_false(board_file_builtin("", &text, &length));
}

static void test_od_board_standin_holds_the_counts_of_the_cards(void **unused)
{
    (void)unused;
    od_board board = standin();
    int count[OD_TERRAINS] = {0};
    for (int f = 0; f < OD_FIELDS; f++)
        count[board.terrain[f]]++;
    assert_int_equal(count[OD_CITY], 30);
    assert_int_equal(count[OD_MOUNTAIN], 28);
    assert_int_equal(count[OD_FOREST], 20);
    assert_int_equal(count[OD_RIVER], 18);
    assert_int_equal(count[OD_FOG], 14);
    static const uint8_t sizes[OD_CITIES] = {12, 6, 5, 4, 3};
    assert_memory_equal(board.city_size, sizes, sizeof sizes);
    for (int f = 0; f < OD_FIELDS; f++)
        assert_int_equal(board.city[f] != OD_NONE, board.terrain[f] == OD_CITY);
}

static void test_od_board_standin_has_the_known_cities(void **unused)
{
    (void)unused;
    od_board board = standin();
    city_is(&board, OD_CAPITAL, "K6 K7 K8 K9 K10 J8 J9 J10 I9 I10 H10 G10");
    city_is(&board, OD_CITY4, "B5 B6 C6 C7");
    city_is(&board, OD_CITY3, "E5 F4 F5");
    assert_int_equal(board.city[field("J3")], OD_CITY6);
    assert_int_equal(board.city_size[OD_CITY5], 5);
}

static void test_od_board_standin_river_runs_from_a7_to_k4(void **unused)
{
    (void)unused;
    od_board board = standin();
    static const char *const course[OD_RIVER_FIELDS] = {"A7", "B7", "B8", "C8", "D8", "D9",
                                                        "E9", "F9", "F8", "G8", "G7", "H7",
                                                        "H6", "I6", "J6", "J5", "J4", "K4"};
    assert_int_equal(board.river_length, OD_RIVER_FIELDS);
    for (int i = 0; i < OD_RIVER_FIELDS; i++) {
        assert_int_equal(board.river[i], field(course[i]));
        assert_int_equal(board.river_index[field(course[i])], i);
    }
    assert_int_equal(board.terrain[field("E9")], OD_RIVER);
    for (int f = 0; f < OD_FIELDS; f++)
        assert_int_equal(board.river_index[f] != OD_NONE, board.terrain[f] == OD_RIVER);
}

static void test_od_board_standin_has_the_known_fog_and_forest(void **unused)
{
    (void)unused;
    od_board board = standin();
    terrain_is(&board, "D7 I7 K5 G6", OD_FOG);
    terrain_is(&board, "I4", OD_FOREST);
    /* the start region (rows 1-5, columns A-E) has items to find: mountains and forests */
    int count[OD_TERRAINS] = {0};
    for (int row = 0; row < 5; row++)
        for (int column = 0; column < 5; column++)
            count[board.terrain[OD_FIELD(row, column)]]++;
    assert_true(count[OD_MOUNTAIN] >= 5);
    assert_true(count[OD_FOREST] >= 5);
}

/* Adventure 5: the fields of the capital and the city of 5 straight south or east of `from`,
 * as a set of field bits in out; returns how many. */
static int straight_reach(const od_board *board, int from, uint8_t out[OD_FIELDS])
{
    memset(out, 0, OD_FIELDS);
    int row = from / OD_COLUMNS, column = from % OD_COLUMNS, count = 0;
    for (int r = row + 1; r < OD_ROWS; r++)
        if (board->city[OD_FIELD(r, column)] == OD_CAPITAL ||
            board->city[OD_FIELD(r, column)] == OD_CITY5)
            out[OD_FIELD(r, column)] = 1, count++;
    for (int c = column + 1; c < OD_COLUMNS; c++)
        if (board->city[OD_FIELD(row, c)] == OD_CAPITAL ||
            board->city[OD_FIELD(row, c)] == OD_CITY5)
            out[OD_FIELD(row, c)] = 1, count++;
    return count;
}

static void reach_is(const od_board *board, const char *from, const char *names)
{
    uint8_t reached[OD_FIELDS];
    int count = straight_reach(board, field(from), reached), listed = 0;
    char copy[64];
    snprintf(copy, sizeof copy, "%s", names);
    for (char *name = strtok(copy, " "); name; name = strtok(NULL, " ")) {
        if (!reached[field(name)])
            fail_msg("a creature on %s does not reach %s", from, name);
        listed++;
    }
    if (count != listed)
        fail_msg("a creature on %s reaches %d fields, expected %s", from, count, names);
}

static void test_od_board_standin_gives_the_examples_of_adventure_5(void **unused)
{
    (void)unused;
    od_board board = standin();
    reach_is(&board, "I7", "K7 I9 I10");
    reach_is(&board, "K5", "K6 K7 K8 K9 K10");
    reach_is(&board, "G6", "K6 G10");
    /* playable: other fog fields reach the capital or the city of 5 too */
    int others = 0;
    uint8_t reached[OD_FIELDS];
    for (int f = 0; f < OD_FIELDS; f++)
        if (board.terrain[f] == OD_FOG && f != field("I7") && f != field("K5") &&
            f != field("G6") && straight_reach(&board, f, reached) > 0)
            others++;
    assert_true(others >= 5);
}

/* ---- names of places and terrains ---- */

static void test_od_board_place_names_round_trip(void **unused)
{
    (void)unused;
    char name[12];
    for (int place = 0; place < OD_PLACES; place++) {
        od_place_name(place, name);
        assert_int_equal(od_place_parse(name, strlen(name)), place);
    }
    od_place_name(OD_FIELD(0, 0), name);
    assert_string_equal(name, "A1");
    od_place_name(OD_FIELD(9, 10), name);
    assert_string_equal(name, "K10");
    od_place_name(OD_START_ROW(4), name);
    assert_string_equal(name, "row-5");
    od_place_name(OD_START_COLUMN(0), name);
    assert_string_equal(name, "column-A");
    od_place_name(OD_PLACES, name);
    assert_string_equal(name, "?");
    assert_int_equal(od_place_parse("a1", 2), 0);
    assert_int_equal(od_place_parse("k10", 3), OD_FIELD(9, 10));
    /* only length counts: a name inside a longer text */
    assert_int_equal(od_place_parse("B2 and more", 2), OD_FIELD(1, 1));
}

static void test_od_board_place_parse_refuses_what_is_no_place(void **unused)
{
    (void)unused;
    static const char *const bad[] = {"L1", "A11", "A0", "row-6", "column-F", "", "A",
                                      "A01", "row-0", "1A", "A1x", "column-", "row-"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (od_place_parse(bad[i], strlen(bad[i])) != OD_NONE)
            fail_msg("'%s' is taken for a place", bad[i]);
}

static void test_od_board_terrain_names(void **unused)
{
    (void)unused;
    assert_string_equal(od_terrain_name(OD_CITY), "city");
    assert_string_equal(od_terrain_name(OD_MOUNTAIN), "mountain");
    assert_string_equal(od_terrain_name(OD_FOREST), "forest");
    assert_string_equal(od_terrain_name(OD_RIVER), "river");
    assert_string_equal(od_terrain_name(OD_FOG), "fog");
    assert_null(od_terrain_name(OD_TERRAINS));
    assert_null(od_terrain_name(-1));
}

/* ---- reading a file ---- */

static void test_od_board_file_read_reads_a_file_and_names_it_in_errors(void **unused)
{
    (void)unused;
    char *folder = test_make_folder();
    char *path = test_path(folder, "board.json");
    char *json = standin_json();
    test_write_file(path, json, strlen(json));
    od_board board;
    char error[256] = "";
    if (!board_file_read_odysseeland(path, &board, error, sizeof error))
        fail_msg("%s", error);
    assert_string_equal(board.id, "odysseeland-standin");
    json[0] = '[';
    test_write_file(path, json, strlen(json));
    assert_false(board_file_read_odysseeland(path, &board, error, sizeof error));
    check_one_line(error, sizeof error);
    assert_non_null(strstr(error, path));
    assert_non_null(strstr(error, "line 2, column"));
    free(json);
    test_remove_tree(folder);
    free(path);
    free(folder);
}

static void test_od_board_file_refuses_a_missing_file(void **unused)
{
    (void)unused;
    od_board board;
    char error[256] = "";
    const char *path = FIXTURES_DIR "/boards/no-such-board.json";
    assert_false(board_file_read_odysseeland(path, &board, error, sizeof error));
    check_one_line(error, sizeof error);
    assert_non_null(strstr(error, path));
    assert_non_null(strstr(error, "No such file"));
    assert_false(board_file_read_odysseeland(FIXTURES_DIR, &board, error, sizeof error));
    check_one_line(error, sizeof error);
    assert_non_null(strstr(error, "cannot"));
}

static void test_od_board_file_refuses_a_file_over_1_mib(void **unused)
{
    (void)unused;
    char *folder = test_make_folder();
    char *path = test_path(folder, "big.json");
    char *json = standin_json();
    size_t length = strlen(json), limit = 1024 * 1024;
    char *big = malloc(limit + 1);
    assert_non_null(big);
    memcpy(big, json, length);
    memset(big + length, ' ', limit + 1 - length);
    od_board board;
    char error[256] = "";
    /* at the limit, trailing spaces and all, the file is read */
    test_write_file(path, big, limit);
    if (!board_file_read_odysseeland(path, &board, error, sizeof error))
        fail_msg("%s", error);
    test_write_file(path, big, limit + 1);
    assert_false(board_file_read_odysseeland(path, &board, error, sizeof error));
    check_one_line(error, sizeof error);
    assert_non_null(strstr(error, "larger than 1024 KiB"));
    /* the Expéditions reader shares the limit */
    ex_board *ex = malloc(sizeof *ex);
    assert_non_null(ex);
    assert_false(board_file_read(path, ex, error, sizeof error));
    assert_non_null(strstr(error, "larger than 1024 KiB"));
    free(ex);
    free(big);
    free(json);
    test_remove_tree(folder);
    free(path);
    free(folder);
}

/* ---- refusals of the JSON ---- */

static void test_od_board_file_refuses_bad_json(void **unused)
{
    (void)unused;
    REFUSED_EDIT("\"version\": 1,", "\"version\": 1", "line 4, column", "expected");
    REFUSED(strdup(""), "line 1", "column");
    REFUSED(strdup("{\"format\": \"table\nscribe\"}"), "line 1", "column");
    REFUSED(strdup("[\"tablescribe-board\"]"), "a board file is a JSON object");
    REFUSED_EDIT("\"version\": 1,", "\"version\": 1, \"version\": 1,", "duplicate");
}

static void test_od_board_file_refuses_another_format_version_or_game(void **unused)
{
    (void)unused;
    REFUSED_EDIT("\"format\": \"tablescribe-board\"", "\"format\": \"tablescribe-archive\"",
                 "\"format\" must be \"tablescribe-board\"");
    REFUSED_EDIT("\"version\": 1", "\"version\": 2", "version 2", "newer tablescribe");
    REFUSED_EDIT("\"version\": 1", "\"version\": 0", "\"version\" must be 1");
    REFUSED_EDIT("\"version\": 1", "\"version\": \"1\"", "\"version\" must be 1");
    REFUSED_EDIT("\"game\": \"odysseeland\"", "\"game\": \"expeditions\"",
                 "\"game\" must be \"odysseeland\"", "another game");
    /* and the other way round: the Expéditions reader names its game */
    char *json = standin_json();
    ex_board *ex = malloc(sizeof *ex);
    assert_non_null(ex);
    char error[256] = "";
    assert_false(board_file_parse(json, strlen(json), NAME, ex, error, sizeof error));
    assert_non_null(strstr(error, "\"game\" must be \"expeditions\""));
    free(ex);
    free(json);
}

static void test_od_board_file_refuses_bad_ids(void **unused)
{
    (void)unused;
    const char *must = "\"id\" must be 1 to 31 lower-case letters, digits or '-'";
    const char *id = "\"id\": \"odysseeland-standin\"";
    REFUSED_EDIT(id, "\"id\": \"Odysseeland\"", must);
    REFUSED_EDIT(id, "\"id\": \"1-land\"", must);
    REFUSED_EDIT(id, "\"id\": \"\"", must);
    REFUSED_EDIT(id, "\"id\": \"odyssee_land\"", must);
    REFUSED_EDIT(id, "\"id\": \"abcdefghijklmnopqrstuvwxyzabcdef\"", must);
    REFUSED_EDIT(id, "\"id\": 7", must);
    /* 31 characters are allowed */
    char *json = edited(id, "\"id\": \"abcdefghijklmnopqrstuvwxyzabcde\"");
    od_board board;
    loads(json, &board);
    free(json);
    assert_string_equal(board.id, "abcdefghijklmnopqrstuvwxyzabcde");
}

static void test_od_board_file_refuses_missing_keys(void **unused)
{
    (void)unused;
    /* renamed rather than removed: unknown keys are ignored, so the key is simply missing */
    static const char *const keys[] = {"format", "version", "game",  "id",
                                       "terrain", "cities", "river", "start"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        char from[32], to[32], expected[48];
        snprintf(from, sizeof from, "\"%s\":", keys[i]);
        snprintf(to, sizeof to, "\"%s-old\":", keys[i]);
        snprintf(expected, sizeof expected, "\"%s\" is missing", keys[i]);
        REFUSED_EDIT(from, to, expected);
    }
    REFUSED_EDIT("{\"name\": \"capital\"", "{\"title\": \"capital\"",
                 "cities[0]: \"name\" is missing");
    REFUSED_EDIT(CAPITAL_HEAD, "\"places\": [\"K10\",", "cities[0] (\"capital\"): ",
                 "\"fields\" is missing");
    /* the note is optional, but text when there */
    char *json = edited("\"note\":", "\"remark\":");
    od_board board;
    loads(json, &board);
    free(json);
    REFUSED_EDIT("\"note\": \"", "\"note\": 5, \"old-note\": \"", "\"note\" must be a string");
}

static void test_od_board_file_refuses_bad_terrain_rows(void **unused)
{
    (void)unused;
    REFUSED_EDIT("\"terrain\": [", "\"terrain\": \"CMFRN\", \"old\": [",
                 "\"terrain\" must be an array of 10 rows");
    REFUSED_EDIT(ROW_1 ",", "", "\"terrain\" holds 9 rows, the board has 10");
    REFUSED_EDIT(ROW_1 ",", ROW_1 ", " ROW_1 ",", "\"terrain\" holds 11 rows");
    REFUSED_EDIT(ROW_4, "\"FMMFFCMFFR\"", "terrain row 4 must be a string of 11 letters");
    REFUSED_EDIT(ROW_4, "\"FMMFFCMFFRRR\"", "terrain row 4 must be a string of 11 letters");
    REFUSED_EDIT(ROW_4, "44", "terrain row 4 must be a string");
    REFUSED_EDIT(ROW_4, "\"FMMFFCXFFRR\"", "terrain row 4, column G: unknown letter 'X'",
                 "N fog");
    REFUSED_EDIT(ROW_4, "\"FMMFFCmFFRR\"", "terrain row 4, column G: unknown letter 'm'");
    REFUSED_EDIT(ROW_4, "\"FMMFFC\\u0001FFRR\"", "unknown letter '?'");
    /* a letter of two bytes makes the row too long */
    REFUSED_EDIT(ROW_4, "\"FMMFFC\\u00e9FFRR\"", "terrain row 4 must be a string of 11");
}

static void test_od_board_file_refuses_bad_cities(void **unused)
{
    (void)unused;
    REFUSED_EDIT("\"cities\": [", "\"cities\": {\"a\": 1}, \"old\": [",
                 "\"cities\" must be an array");
    REFUSED_EDIT(",\n    {\"name\": \"city of 3 (middle)\", " CITY3 "}", "",
                 "\"cities\" holds 4 cities, the board has 5");
    REFUSED_EDIT("{\"name\": \"city of 3 (middle)\", " CITY3 "}",
                 "{\"name\": \"city of 3 (middle)\", " CITY3 "}, {\"name\": \"x\", \"fields\": []}",
                 "\"cities\" holds 6 cities");
    REFUSED_EDIT("{\"name\": \"city of 3 (middle)\", " CITY3 "}", "7",
                 "cities[4] must be an object");
    REFUSED_EDIT("{\"name\": \"capital\"", "{\"name\": \"\"",
                 "cities[0]: \"name\" must be a non-empty string");
    REFUSED_EDIT("{\"name\": \"capital\"", "{\"name\": 12", "\"name\" must be a non-empty string");
    REFUSED_EDIT(CAPITAL_HEAD, "\"fields\": \"K10\", \"old\": [\"K10\",",
                 "cities[0] (\"capital\"): \"fields\" must be an array");
    /* field names: only fields of the board */
    REFUSED_EDIT(CAPITAL_HEAD, "\"fields\": [\"L1\",", "cities[0] (\"capital\"): ",
                 "unknown field \"L1\"");
    REFUSED_EDIT(CAPITAL_HEAD, "\"fields\": [\"row-1\",", "\"row-1\" is a start space, not a field");
    REFUSED_EDIT(CAPITAL_HEAD, "\"fields\": [10,", "a field's name must be a string");
    /* a non-city field in a city */
    REFUSED_EDIT("\"K10\", \"K9\"", "\"K10\", \"K5\"", "cities[0] (\"capital\"): ",
                 "K5 is fog, not a city field");
    /* a field twice, in one city or two */
    REFUSED_EDIT(CITY3, "\"fields\": [\"F4\", \"E5\", \"F5\", \"F4\"]",
                 "cities[4] (\"city of 3 (middle)\"): F4 is listed twice");
    REFUSED_EDIT(CITY3, "\"fields\": [\"F4\", \"E5\", \"f5\", \"J3\"]", "J3 is in cities[1] too");
    /* the sizes: each of 12, 6, 5, 4 and 3 once */
    REFUSED(replaced(edited(CITY6_HEAD, "\"fields\": [\"I2\","), CAPITAL_HEAD,
                     "\"fields\": [\"K10\", \"H2\","),
            "cities[0] (\"capital\"): 13 fields, and the cities have 12, 6, 5, 4 and 3");
    REFUSED(replaced(edited(CITY6_HEAD, "\"fields\": [\"I2\","), CITY4_HEAD,
                     "\"fields\": [\"B5\", \"H2\", \"B6\","),
            "cities[2] (\"city of 5 (south-west)\"): 5 fields, as cities[1]",
            "two cities of the same size");
    /* a long or strange name is quoted cut short, on one line */
    REFUSED_EDIT("{\"name\": \"capital\", " CAPITAL_HEAD,
                 "{\"name\": \"the great\\ncapital of all the land, by the sea\", "
                 "\"fields\": [\"K5\",",
                 "cities[0] (\"the great?capital of all the...\"): K5 is fog");
}

static void test_od_board_file_refuses_bad_river_names(void **unused)
{
    (void)unused;
    REFUSED_EDIT(RIVER_HEAD, "\"river\": \"A7\", \"old\": [\"A7\", \"B7\",",
                 "\"river\" must be an array of field names");
    REFUSED_EDIT(RIVER_TAIL, "\"J4\", \"L4\"]", "river[17]: unknown field \"L4\"");
    REFUSED_EDIT(RIVER_TAIL, "\"J4\", \"column-A\"]",
                 "river[17]: \"column-A\" is a start space, not a field");
    REFUSED_EDIT(RIVER_TAIL, "\"J4\", null]", "river[17]: a field's name must be a string");
    /* more entries than the board has fields: 111 more at the head */
    char to[sizeof RIVER_HEAD + 111 * 6] = "\"river\": [";
    for (int i = 0; i < 111; i++)
        strcat(to, "\"A7\", ");
    strcat(to, RIVER_HEAD + strlen("\"river\": ["));
    REFUSED_EDIT(RIVER_HEAD, to, "\"river\" holds 129 fields, the board 110");
}

static void test_od_board_file_refuses_other_start_spaces(void **unused)
{
    (void)unused;
    const char *must = "\"start\" must be rows 1-5 and columns A-E";
    REFUSED_EDIT(START_ROWS, "\"rows\": [1, 2, 3, 4]", must, "start spaces are fixed there");
    REFUSED_EDIT(START_ROWS, "\"rows\": [1, 2, 3, 4, 6]", must);
    REFUSED_EDIT(START_ROWS, "\"rows\": [5, 4, 3, 2, 1]", must);
    REFUSED_EDIT(START_ROWS, "\"rows\": [\"1\", 2, 3, 4, 5]", must);
    REFUSED_EDIT(START_ROWS, "\"lines\": [1, 2, 3, 4, 5]", must);
    REFUSED_EDIT("\"E\"]", "\"F\"]", must);
    REFUSED_EDIT("\"E\"]", "\"e\"]", must);
    REFUSED_EDIT("\"start\": {", "\"start\": [], \"old\": {", must);
}

/* ---- refusals of od_board_check, through a file ---- */

static void test_od_board_file_refuses_counts_off_by_one(void **unused)
{
    (void)unused;
    REFUSED_EDIT(ROW_1, "\"FMMMMMFFMMM\"", "27 mountain fields, the box has 28 cards for them");
    REFUSED_EDIT(ROW_1, "\"NMMMMMFFMMM\"", "27 mountain fields");
    REFUSED_EDIT(ROW_1, "\"MMMMMMFMMMM\"", "29 mountain fields");
    REFUSED_EDIT(ROW_1, "\"MMMMMMFNMMM\"", "19 forest fields, the box has 20");
    REFUSED_EDIT(ROW_1, "\"MMMMMMFFMMR\"", "27 mountain fields");
}

static void test_od_board_file_refuses_city_fields_outside_a_city(void **unused)
{
    (void)unused;
    REFUSED_EDIT(ROW_1, "\"CMMMMMFFMMM\"", NAME ": field A1: a city field in no city");
}

static void test_od_board_file_refuses_a_city_in_two_pieces(void **unused)
{
    (void)unused;
    /* F4 becomes a mountain and A1 a city field of the city of 3: counts unchanged */
    char *json = replaced(edited(ROW_1, "\"CMMMMMFFMMM\""), ROW_4, "\"FMMFFMMFFRR\"");
    json = replaced(json, CITY3, "\"fields\": [\"A1\", \"E5\", \"F5\"]");
    REFUSED(json, "the city of 3 fields at A1 is not in one piece");
}

static void test_od_board_file_refuses_k10_outside_the_capital(void **unused)
{
    (void)unused;
    /* F10 and K10 trade terrain, F10 joins the capital in K10's place */
    char *json = replaced(edited(ROW_10, "\"CCCFNCCCCCM\""), CAPITAL_HEAD, "\"fields\": [\"F10\",");
    REFUSED(json, "K10 is not in the capital");
}

static void test_od_board_file_refuses_a_broken_river_course(void **unused)
{
    (void)unused;
    REFUSED_EDIT("\"D9\", ", "", "the river's course has 17 fields, the river 18");
    REFUSED_EDIT("\"D8\", \"D9\"", "\"D9\", \"D8\"", "the river's course jumps from C8 to D9");
    REFUSED_EDIT("\"A7\", \"B7\"", "\"B7\", \"A7\"",
                 "the river's course starts at B7, not on the left edge");
    REFUSED_EDIT(RIVER_TAIL, "\"J4\", \"J5\"]", "the river's course passes J5 twice");
    REFUSED_EDIT(RIVER_TAIL, "\"J4\", \"K5\"]", "the river's course passes K5, not a river field");
    /* the course read backwards starts on the right edge */
    REFUSED_EDIT("[\"A7\", \"B7\", \"B8\", \"C8\", \"D8\", \"D9\", \"E9\", \"F9\", \"F8\", \"G8\", "
                 "\"G7\", \"H7\", \"H6\", \"I6\", \"J6\", \"J5\", \"J4\", \"K4\"]",
                 "[\"K4\", \"J4\", \"J5\", \"J6\", \"I6\", \"H6\", \"H7\", \"G7\", \"G8\", \"F8\", "
                 "\"F9\", \"E9\", \"D9\", \"D8\", \"C8\", \"B8\", \"B7\", \"A7\"]",
                 "starts at K4, not on the left edge");
}

/* ---- od_board_check on what no file can hold ---- */

static void test_od_board_check_guards_what_no_file_can_hold(void **unused)
{
    (void)unused;
    od_board good = standin(), board;
    char message[160];
    board = good;
    board.city[field("A1")] = OD_CITY3;
    assert_false(od_board_check(&board, message, sizeof message));
    assert_string_equal(message, "field A1: mountain, not a city field, in a city");
    board = good;
    board.terrain[field("C3")] = OD_TERRAINS;
    assert_false(od_board_check(&board, message, sizeof message));
    assert_string_equal(message, "field C3: no terrain");
    board = good;
    board.city[field("K10")] = OD_CITIES;
    assert_false(od_board_check(&board, message, sizeof message));
    assert_string_equal(message, "field K10: a city field in no city");
    /* G10 moved from the capital to the city of 3 */
    board = good;
    board.city[field("G10")] = OD_CITY3;
    assert_false(od_board_check(&board, message, sizeof message));
    assert_string_equal(message, "the city of 12 fields has 11");
    board = good;
    board.river[3] = OD_FIELDS;
    assert_false(od_board_check(&board, message, sizeof message));
    assert_string_equal(message, "the river's course passes ?, not a river field");
    board = good;
    board.river_length = 0;
    assert_false(od_board_check(&board, message, sizeof message));
    assert_string_equal(message, "the river's course has 0 fields, the river 18");
    /* checked twice, the same */
    board = good;
    assert_true(od_board_check(&board, message, sizeof message));
    assert_memory_equal(&board, &good, sizeof board);
}

/* ---- fuzz ---- */

static uint64_t next_random(uint64_t *rng)
{
    *rng = *rng * 6364136223846793005ull + 1442695040888963407ull;
    return *rng >> 33;
}

/* One random edit of text (length bytes, room for 64 more): a bit flipped, a byte changed,
 * the text cut short, a few bytes deleted, or a chunk duplicated. Returns the new length. */
static size_t mutate(char *text, size_t length, uint64_t *rng)
{
    size_t at = length ? next_random(rng) % length : 0;
    switch (next_random(rng) % 5) {
    case 0:
        if (length)
            text[at] ^= (char)(1u << (next_random(rng) % 8));
        return length;
    case 1:
        if (length)
            text[at] = (char)(next_random(rng) & 0xff);
        return length;
    case 2:
        return at;
    case 3: {
        size_t n = 1 + next_random(rng) % 8;
        if (n > length - at)
            n = length - at;
        memmove(text + at, text + at + n, length - at - n);
        return length - n;
    }
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

static void test_od_board_file_fuzz(void **unused)
{
    (void)unused;
    char *json = standin_json();
    size_t json_length = strlen(json);
    char *buffer = malloc(json_length + 4 * 64);
    assert_non_null(buffer);
    uint64_t rng = 20250507;
    int accepted = 0, refused_count = 0;
    for (int i = 0; i < 20000; i++) {
        memcpy(buffer, json, json_length);
        size_t length = json_length;
        int edits = 1 + (int)(next_random(&rng) % 4);
        for (int e = 0; e < edits; e++)
            length = mutate(buffer, length, &rng);
        /* messages cut short by a small buffer stay terminated */
        static const size_t sizes[] = {256, 256, 256, 40, 1};
        size_t size = sizes[i % 5];
        char error[256];
        memset(error, 0x55, sizeof error);
        od_board board;
        /* not terminated: the reader goes by length */
        if (board_file_parse_odysseeland(buffer, length, "fuzz", &board, error, size)) {
            accepted++;
            od_board again = board;
            char message[160];
            if (!od_board_check(&again, message, sizeof message))
                fail_msg("a board read fails its check: %s", message);
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
    free(buffer);
    free(json);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_od_board_standin_is_built_in_and_is_the_fixture),
        cmocka_unit_test(test_od_board_standin_holds_the_counts_of_the_cards),
        cmocka_unit_test(test_od_board_standin_has_the_known_cities),
        cmocka_unit_test(test_od_board_standin_river_runs_from_a7_to_k4),
        cmocka_unit_test(test_od_board_standin_has_the_known_fog_and_forest),
        cmocka_unit_test(test_od_board_standin_gives_the_examples_of_adventure_5),
        cmocka_unit_test(test_od_board_place_names_round_trip),
        cmocka_unit_test(test_od_board_place_parse_refuses_what_is_no_place),
        cmocka_unit_test(test_od_board_terrain_names),
        cmocka_unit_test(test_od_board_file_read_reads_a_file_and_names_it_in_errors),
        cmocka_unit_test(test_od_board_file_refuses_a_missing_file),
        cmocka_unit_test(test_od_board_file_refuses_a_file_over_1_mib),
        cmocka_unit_test(test_od_board_file_refuses_bad_json),
        cmocka_unit_test(test_od_board_file_refuses_another_format_version_or_game),
        cmocka_unit_test(test_od_board_file_refuses_bad_ids),
        cmocka_unit_test(test_od_board_file_refuses_missing_keys),
        cmocka_unit_test(test_od_board_file_refuses_bad_terrain_rows),
        cmocka_unit_test(test_od_board_file_refuses_bad_cities),
        cmocka_unit_test(test_od_board_file_refuses_bad_river_names),
        cmocka_unit_test(test_od_board_file_refuses_other_start_spaces),
        cmocka_unit_test(test_od_board_file_refuses_counts_off_by_one),
        cmocka_unit_test(test_od_board_file_refuses_city_fields_outside_a_city),
        cmocka_unit_test(test_od_board_file_refuses_a_city_in_two_pieces),
        cmocka_unit_test(test_od_board_file_refuses_k10_outside_the_capital),
        cmocka_unit_test(test_od_board_file_refuses_a_broken_river_course),
        cmocka_unit_test(test_od_board_check_guards_what_no_file_can_hold),
        cmocka_unit_test(test_od_board_file_fuzz),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
