/*
 * The Expedition Luxor observation JSON (DESIGN.md §3.2, a contract): what the reader takes and
 * how, each kind of refusal with its message, the translation, the writer's exact format, the
 * round trip over hand-built observations and over random games, reading files (and the
 * fixture), and a fuzz of the reader.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "observation_json.h"
#include "test_support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXAMPLE_FIXTURE FIXTURES_DIR "/observations/el-example.json"

/* ---- helpers ---- */

static bool zeroed(const vision_el_observation *o)
{
    static const vision_el_observation empty;
    return memcmp(o, &empty, sizeof empty) == 0;
}

/* A message of one line: not empty, no control character. */
static void check_one_line(const char *message, const char *context)
{
    if (message[0] == '\0')
        fail_msg("%s: an empty message", context);
    for (const char *c = message; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f)
            fail_msg("%s: a control character in '%s'", context, message);
}

static void parse_ok_(const char *json, vision_el_observation *o, int line)
{
    char error[512] = "";
    vision_status status = observation_el_parse(json, strlen(json), o, error, sizeof error);
    if (status != VISION_OK)
        fail_msg("line %d: refused (%d): %s\n%s", line, (int)status, error, json);
}
#define PARSE_OK(json, o) parse_ok_((json), (o), __LINE__)

/* The text must be refused, the message beginning with where and holding what, and the
 * observation left empty. */
static void refused_(const char *json, const char *where, const char *what, int line)
{
    vision_el_observation o;
    memset(&o, 0x5a, sizeof o); /* anything left over shows */
    char error[512] = "";
    vision_status status = observation_el_parse(json, strlen(json), &o, error, sizeof error);
    if (status != VISION_BAD_INPUT)
        fail_msg("line %d: status %d, not VISION_BAD_INPUT, for\n%s", line, (int)status, json);
    char context[32];
    snprintf(context, sizeof context, "line %d", line);
    check_one_line(error, context);
    if (strncmp(error, where, strlen(where)) != 0)
        fail_msg("line %d: the message '%s' does not begin with '%s'", line, error, where);
    if (!strstr(error, what))
        fail_msg("line %d: the message '%s' does not say '%s'", line, error, what);
    if (!zeroed(&o))
        fail_msg("line %d: the observation is not left empty", line);
}
#define REFUSED(json, where, what) refused_((json), (where), (what), __LINE__)

#define GAME "\"game\": \"expedition-luxor\""

/* A document of one tile at (0, 0) with these members besides row and col. */
static const char *one_tile(const char *members)
{
    static char json[1024];
    snprintf(json, sizeof json, "{" GAME ", \"tiles\": [{\"row\": 0, \"col\": 0, %s}]}",
             members);
    return json;
}

/* A document with these tiles (the array's content) and these members after "tiles". */
static const char *document(const char *tiles, const char *rest)
{
    static char json[16384];
    snprintf(json, sizeof json, "{" GAME ", \"tiles\": [%s]%s%s}", tiles, rest[0] ? ", " : "",
             rest);
    return json;
}

#define PLAIN "\"type\": \"desert\", \"top\": null, \"height\": 0, \"token\": null"
#define PLAIN_AT(row, col) "{\"row\": " #row ", \"col\": " #col ", " PLAIN "}"

static const vision_el_tile *tile_at(const vision_el_observation *o, int row, int col)
{
    for (int i = 0; i < o->tile_count; i++)
        if (o->tiles[i].row == row && o->tiles[i].col == col)
            return &o->tiles[i];
    return NULL;
}

static bool unknown_at(const vision_el_observation *o, int row, int col)
{
    for (int i = 0; i < o->unknown_count; i++)
        if (o->unknown[i].row == row && o->unknown[i].col == col)
            return true;
    return false;
}

static const char *colour_name(const vision_el_observation *o, int index)
{
    if (index == VISION_NONE)
        return "(none)";
    if (index == VISION_UNKNOWN)
        return "(unknown)";
    assert_true(index >= 0 && index < o->colour_count);
    return o->colours[index];
}

/* The same observation: tiles matched by position whatever their order, colours by name;
 * confidences within the writer's rounding when compared. */
static void assert_same(const vision_el_observation *a, const vision_el_observation *b,
                        bool confidence)
{
    assert_int_equal(a->tile_count, b->tile_count);
    for (int i = 0; i < a->tile_count; i++) {
        const vision_el_tile *x = &a->tiles[i], *y = tile_at(b, x->row, x->col);
        if (!y)
            fail_msg("no tile at %d,%d", x->row, x->col);
        assert_int_equal(x->type, y->type);
        assert_string_equal(colour_name(a, x->top), colour_name(b, y->top));
        assert_int_equal(x->height, y->height);
        assert_int_equal(x->height_or, y->height_or);
        assert_int_equal(x->token, y->token);
        assert_int_equal(x->stack_known, y->stack_known);
        for (int s = 0; x->stack_known && s < x->height; s++)
            assert_string_equal(colour_name(a, x->stack[s]), colour_name(b, y->stack[s]));
        for (int f = 0; confidence && f < 4; f++)
            if (fabsf(x->confidence[f] - y->confidence[f]) > 0.0006f)
                fail_msg("tile %d,%d: confidence %d is %g and %g", x->row, x->col, f,
                         (double)x->confidence[f], (double)y->confidence[f]);
    }
    assert_int_equal(a->unknown_count, b->unknown_count);
    for (int i = 0; i < a->unknown_count; i++)
        assert_true(unknown_at(b, a->unknown[i].row, a->unknown[i].col));
}

/* Writes, reads back, compares; the text written again is the same. Returns the text. */
static char *round_trip(const vision_el_observation *o, bool pretty, bool with_confidence)
{
    char *text = observation_el_format(o, pretty, with_confidence);
    assert_non_null(text);
    vision_el_observation *back = malloc(sizeof *back);
    assert_non_null(back);
    char error[512] = "";
    if (observation_el_parse(text, strlen(text), back, error, sizeof error) != VISION_OK)
        fail_msg("the writer's text is refused: %s\n%s", error, text);
    if (!with_confidence)
        for (int i = 0; i < back->tile_count; i++)
            for (int f = 0; f < 4; f++)
                assert_true(back->tiles[i].confidence[f] == 1.0f);
    assert_same(o, back, with_confidence);
    char *again = observation_el_format(back, pretty, with_confidence);
    assert_non_null(again);
    assert_string_equal(text, again);
    free(again);
    free(back);
    return text;
}

static vision_el_tile *add_tile(vision_el_observation *o, int row, int col, int type, int top,
                                int height, int token)
{
    vision_el_tile *tile = &o->tiles[o->tile_count++];
    memset(tile, 0, sizeof *tile);
    *tile = (vision_el_tile){.row = row, .col = col, .type = type, .top = top, .height = height,
                             .token = token, .confidence = {1, 1, 1, 1}};
    return tile;
}

/* A small observation of every kind of field. */
static void hand_built(vision_el_observation *o)
{
    memset(o, 0, sizeof *o);
    int orange = vision_el_colour_index(o, "orange"), black = vision_el_colour_index(o, "black");
    add_tile(o, 1, 0, EL_DESERT_CAMP, orange, 2, EL_NO_TOKEN);
    o->tiles[0].stack_known = 1;
    o->tiles[0].stack[0] = black;
    o->tiles[0].stack[1] = orange;
    o->tiles[0].confidence[VISION_EL_TOP] = 0.9f;
    o->tiles[0].confidence[VISION_EL_HEIGHT] = 0.75f;
    o->tiles[0].height_or = 3; /* the recogniser could not rule 3 out */
    add_tile(o, 0, 1, EL_LAKE, VISION_NONE, 0, EL_BOAT);
    add_tile(o, 0, 0, VISION_UNKNOWN, VISION_UNKNOWN, VISION_UNKNOWN, VISION_UNKNOWN);
    o->tiles[2].confidence[VISION_EL_TYPE] = 0.125f;
    o->unknown_count = 1;
    o->unknown[0].row = 1;
    o->unknown[0].col = 1;
}

/* ---- what the reader takes ---- */

static void test_observation_json_reads_every_field(void **state)
{
    (void)state;
    vision_el_observation o;
    PARSE_OK(document("{\"row\": 0, \"col\": 0, \"type\": \"desert-camp\", \"top\": \"orange\", "
                      "\"height\": 2, \"token\": null, \"stack\": [\"black\", \"orange\"]},"
                      "{\"row\": 0, \"col\": 1, \"type\": \"lake\", \"top\": null, \"height\": 0, "
                      "\"token\": \"boat\"},"
                      "{\"row\": 1, \"col\": 1, \"type\": \"mountain\", \"top\": \"black\", "
                      "\"height\": null, \"token\": \"snakes\"}",
                      "\"unknown\": [{\"row\": 1, \"col\": 0}]"),
             &o);
    assert_int_equal(o.tile_count, 3);
    /* colours in the order they first appear: a tile's top, then its stack */
    assert_int_equal(o.colour_count, 2);
    assert_string_equal(o.colours[0], "orange");
    assert_string_equal(o.colours[1], "black");
    /* tiles in the document's order */
    const vision_el_tile *camp = &o.tiles[0], *lake = &o.tiles[1], *mountain = &o.tiles[2];
    assert_int_equal(camp->type, EL_DESERT_CAMP);
    assert_int_equal(camp->top, 0);
    assert_int_equal(camp->height, 2);
    assert_int_equal(camp->token, EL_NO_TOKEN);
    assert_int_equal(camp->stack_known, 1);
    assert_int_equal(camp->stack[0], 1);
    assert_int_equal(camp->stack[1], 0);
    assert_int_equal(lake->type, EL_LAKE);
    assert_int_equal(lake->top, VISION_NONE);
    assert_int_equal(lake->height, 0);
    assert_int_equal(lake->token, EL_BOAT);
    assert_int_equal(lake->stack_known, 0);
    assert_int_equal(mountain->col, 1);
    assert_int_equal(mountain->row, 1);
    assert_int_equal(mountain->top, 1);
    assert_int_equal(mountain->height, VISION_UNKNOWN);
    assert_int_equal(mountain->token, EL_SNAKES);
    for (int f = 0; f < 4; f++)
        assert_true(camp->confidence[f] == 1.0f); /* the default */
    assert_int_equal(o.unknown_count, 1);
    assert_int_equal(o.unknown[0].row, 1);
    assert_int_equal(o.unknown[0].col, 0);
}

static void test_observation_json_reads_every_tile_type_name(void **state)
{
    (void)state;
    for (int t = 0; t < EL_TILE_TYPES; t++) {
        char members[128];
        snprintf(members, sizeof members,
                 "\"type\": \"%s\", \"top\": null, \"height\": 0, \"token\": null",
                 el_tile_name((el_tile_type)t));
        vision_el_observation o;
        PARSE_OK(one_tile(members), &o);
        assert_int_equal(o.tiles[0].type, t);
    }
}

static void test_observation_json_reads_unknown_fields_as_unknown(void **state)
{
    (void)state;
    vision_el_observation o;
    PARSE_OK(one_tile("\"type\": \"unknown\", \"top\": \"unknown\", \"height\": null, "
                      "\"token\": \"unknown\""),
             &o);
    assert_int_equal(o.tiles[0].type, VISION_UNKNOWN);
    assert_int_equal(o.tiles[0].top, VISION_UNKNOWN);
    assert_int_equal(o.tiles[0].height, VISION_UNKNOWN);
    assert_int_equal(o.tiles[0].token, VISION_UNKNOWN);
    assert_int_equal(o.colour_count, 0);
    /* an unknown top may stand on any height, 0 included */
    PARSE_OK(one_tile("\"type\": \"desert\", \"top\": \"unknown\", \"height\": 4, "
                      "\"token\": null"),
             &o);
    assert_int_equal(o.tiles[0].height, 4);
}

static void test_observation_json_reads_a_null_height_without_top_as_zero(void **state)
{
    (void)state;
    vision_el_observation o;
    PARSE_OK(one_tile("\"type\": \"desert\", \"top\": null, \"height\": null, \"token\": null"),
             &o);
    assert_int_equal(o.tiles[0].top, VISION_NONE);
    assert_int_equal(o.tiles[0].height, 0);
    /* with a colour on top, null stays unseen; heights 1..5 all read */
    for (int h = 1; h <= 5; h++) {
        char members[128];
        snprintf(members, sizeof members,
                 "\"type\": \"desert-camp\", \"top\": \"grey\", \"height\": %d, \"token\": null",
                 h);
        PARSE_OK(one_tile(members), &o);
        assert_int_equal(o.tiles[0].height, h);
    }
}

static void test_observation_json_reads_confidences(void **state)
{
    (void)state;
    vision_el_observation o;
    PARSE_OK(one_tile(PLAIN ", \"confidence\": 0.25"), &o);
    for (int f = 0; f < 4; f++)
        assert_true(o.tiles[0].confidence[f] == 0.25f);
    PARSE_OK(one_tile(PLAIN ", \"confidence\": {\"top\": 0.5, \"token\": 0}"), &o);
    assert_true(o.tiles[0].confidence[VISION_EL_TYPE] == 1.0f);
    assert_true(o.tiles[0].confidence[VISION_EL_TOP] == 0.5f);
    assert_true(o.tiles[0].confidence[VISION_EL_HEIGHT] == 1.0f);
    assert_true(o.tiles[0].confidence[VISION_EL_TOKEN] == 0.0f);
    PARSE_OK(one_tile(PLAIN ", \"confidence\": {\"type\": 1, \"top\": 0, \"height\": 0.125, "
                            "\"token\": 1.0}"),
             &o);
    assert_true(o.tiles[0].confidence[VISION_EL_HEIGHT] == 0.125f);
    PARSE_OK(one_tile(PLAIN ", \"confidence\": null"), &o);
    assert_true(o.tiles[0].confidence[VISION_EL_TOP] == 1.0f);
}

static void test_observation_json_reads_stacks(void **state)
{
    (void)state;
    vision_el_observation o;
    PARSE_OK(one_tile("\"type\": \"desert-camp\", \"top\": \"grey\", \"height\": 5, "
                      "\"token\": null, \"stack\": [\"grey\", \"black\", \"light-blue\", "
                      "\"black\", \"grey\"]"),
             &o);
    assert_int_equal(o.tiles[0].stack_known, 1);
    assert_int_equal(o.colour_count, 3);
    assert_string_equal(o.colours[2], "light-blue");
    int expected[5] = {0, 1, 2, 1, 0};
    assert_memory_equal(o.tiles[0].stack, expected, sizeof expected);
    /* no adventurer: the empty stack, with height 0 or null */
    PARSE_OK(one_tile("\"type\": \"desert\", \"top\": null, \"height\": null, \"token\": null, "
                      "\"stack\": []"),
             &o);
    assert_int_equal(o.tiles[0].stack_known, 1);
    assert_int_equal(o.tiles[0].height, 0);
    PARSE_OK(one_tile(PLAIN ", \"stack\": null"), &o);
    assert_int_equal(o.tiles[0].stack_known, 0);
}

static void test_observation_json_ignores_unknown_members(void **state)
{
    (void)state;
    vision_el_observation o;
    PARSE_OK("{\"version\": 7, " GAME ", \"camera\": {\"x\": [1, 2]}, \"tiles\": [{\"row\": 0, "
             "\"col\": 0, \"type\": \"desert\", \"top\": null, \"height\": 0, \"token\": null, "
             "\"owner\": \"orange\", \"confidence\": {\"top\": 0.5, \"why\": \"glare\"}}], "
             "\"unknown\": [{\"row\": 1, \"col\": 0, \"why\": \"a hand\"}], \"note\": null}",
             &o);
    assert_int_equal(o.tile_count, 1);
    assert_int_equal(o.unknown_count, 1);
    assert_true(o.tiles[0].confidence[VISION_EL_TOP] == 0.5f);
}

static void test_observation_json_reads_an_empty_observation(void **state)
{
    (void)state;
    vision_el_observation o;
    PARSE_OK("{" GAME ", \"tiles\": []}", &o);
    assert_true(zeroed(&o));
    PARSE_OK("{" GAME ", \"tiles\": [], \"unknown\": []}", &o);
    assert_true(zeroed(&o));
    PARSE_OK("{" GAME ", \"tiles\": [], \"unknown\": null}", &o);
    assert_true(zeroed(&o));
}

/* ---- translation ---- */

static void test_observation_json_translates_tiles_to_row_and_col_zero(void **state)
{
    (void)state;
    vision_el_observation o;
    PARSE_OK(document(PLAIN_AT(5, -3) "," PLAIN_AT(6, -3) "," PLAIN_AT(5, -2),
                      "\"unknown\": [{\"row\": 4, \"col\": -3}, {\"row\": 7, \"col\": 0}]"),
             &o);
    assert_non_null(tile_at(&o, 0, 0));
    assert_non_null(tile_at(&o, 1, 0));
    assert_non_null(tile_at(&o, 0, 1));
    /* unknown cells move with the tiles, even beyond them */
    assert_true(unknown_at(&o, -1, 0));
    assert_true(unknown_at(&o, 2, 3));
    /* the smallest row and the smallest column may come from different tiles */
    PARSE_OK(document(PLAIN_AT(-2, 9) "," PLAIN_AT(-1, 8) "," PLAIN_AT(-1, 9), ""), &o);
    assert_non_null(tile_at(&o, 0, 1));
    assert_non_null(tile_at(&o, 1, 0));
    assert_non_null(tile_at(&o, 1, 1));
    /* the extremes of the range */
    PARSE_OK(document(PLAIN_AT(-64, 64), "\"unknown\": [{\"row\": 64, \"col\": -64}]"), &o);
    assert_non_null(tile_at(&o, 0, 0));
    assert_true(unknown_at(&o, 128, -128));
}

static void test_observation_json_translates_unknown_cells_alone_by_their_minimum(void **state)
{
    (void)state;
    vision_el_observation o;
    PARSE_OK(document("", "\"unknown\": [{\"row\": 3, \"col\": 4}, {\"row\": 5, \"col\": 2}]"),
             &o);
    assert_int_equal(o.unknown_count, 2);
    assert_true(unknown_at(&o, 0, 2));
    assert_true(unknown_at(&o, 2, 0));
}

static void test_observation_json_takes_a_layout_of_21_by_21(void **state)
{
    (void)state;
    vision_el_observation o;
    PARSE_OK(document(PLAIN_AT(-10, -10) "," PLAIN_AT(10, 10), ""), &o);
    assert_non_null(tile_at(&o, 20, 20));
}

/* ---- refusals, one kind each ---- */

static void test_observation_json_refuses_text_that_is_not_json(void **state)
{
    (void)state;
    REFUSED("", "line 1, column", "");
    REFUSED("{\"game\": \"expedition-luxor\",\n \"tiles\": [}", "line 2, column", "");
    REFUSED("{" GAME ", \"tiles\": [], \"tiles\": []}", "line 1, column", "duplicate");
    REFUSED("{" GAME ", \"tiles\": []} trailing", "line 1, column", "");
    /* no text at all is no JSON either */
    vision_el_observation o;
    char error[128];
    assert_int_equal(observation_el_parse(NULL, 0, &o, error, sizeof error), VISION_BAD_INPUT);
    assert_non_null(strstr(error, "line 1"));
}

static void test_observation_json_refuses_what_is_not_an_object(void **state)
{
    (void)state;
    REFUSED("[1, 2]", "an observation is a JSON object", "not an array");
    REFUSED("[]", "an observation is a JSON object", "not an array");
    /* jansson takes an object or an array only: anything else is not JSON to it */
    REFUSED("\"expedition-luxor\"", "line 1, column", "expected");
    REFUSED("null", "line 1, column", "expected");
}

static void test_observation_json_refuses_a_missing_or_other_game(void **state)
{
    (void)state;
    REFUSED("{\"tiles\": []}", "game: missing", "expedition-luxor");
    REFUSED("{\"game\": \"luxor\", \"tiles\": []}", "game: ",
            "this is an observation of luxor, not expedition-luxor");
    REFUSED("{\"game\": \"odysseeland\"}", "game: ", "an observation of odysseeland");
    REFUSED("{\"game\": 3, \"tiles\": []}", "game: ", "must be the string \"expedition-luxor\"");
    REFUSED("{\"game\": \"Expedition-Luxor\", \"tiles\": []}", "game: ", "of Expedition-Luxor");
}

static void test_observation_json_refuses_missing_or_bad_tiles(void **state)
{
    (void)state;
    REFUSED("{" GAME "}", "tiles: missing", "array");
    REFUSED("{" GAME ", \"tiles\": {}}", "tiles: ", "must be an array of tiles, not an object");
    REFUSED(document("3", ""), "tiles[0]: ", "must be an object");
    REFUSED(document(PLAIN_AT(0, 0) ", []", ""), "tiles[1]: ", "not an array");
}

static void test_observation_json_refuses_too_many_tiles(void **state)
{
    (void)state;
    /* 129 tiles fit no layout anyway; the count is refused first */
    static char tiles[129 * 100];
    size_t used = 0;
    for (int i = 0; i < 129; i++)
        used += (size_t)snprintf(tiles + used, sizeof tiles - used,
                                 "%s{\"row\": %d, \"col\": %d, " PLAIN "}", i ? "," : "", i / 11,
                                 i % 11);
    REFUSED(document(tiles, ""), "tiles: ", "129 tiles, at most 128");
}

static void test_observation_json_refuses_bad_positions(void **state)
{
    (void)state;
    REFUSED(document("{\"col\": 0, " PLAIN "}", ""), "tiles[0].row: missing", "integer");
    REFUSED(document(PLAIN_AT(0, 0) ",{\"row\": 0, " PLAIN "}", ""), "tiles[1].col: missing",
            "integer");
    REFUSED(document("{\"row\": 1.5, \"col\": 0, " PLAIN "}", ""), "tiles[0].row: ",
            "must be an integer (-64..64), not a number");
    REFUSED(document("{\"row\": 1.0, \"col\": 0, " PLAIN "}", ""), "tiles[0].row: ",
            "must be an integer");
    REFUSED(document("{\"row\": 0, \"col\": \"2\", " PLAIN "}", ""), "tiles[0].col: ",
            "not a string");
    REFUSED(document("{\"row\": 65, \"col\": 0, " PLAIN "}", ""), "tiles[0].row: ",
            "65 is outside -64..64");
    REFUSED(document("{\"row\": 0, \"col\": -65, " PLAIN "}", ""), "tiles[0].col: ",
            "-65 is outside -64..64");
    REFUSED(document("{\"row\": 0, \"col\": 99999999999999999999, " PLAIN "}", ""),
            "line 1, column", "too big integer");
}

static void test_observation_json_refuses_two_tiles_in_one_place(void **state)
{
    (void)state;
    REFUSED(document(PLAIN_AT(0, 0) "," PLAIN_AT(0, 1) "," PLAIN_AT(0, 1), ""), "tiles[2]: ",
            "row 0, col 1 is tiles[1]'s position too");
    /* positions are compared as written, before the translation */
    REFUSED(document(PLAIN_AT(-3, 5) "," PLAIN_AT(-3, 5), ""), "tiles[1]: ", "row -3, col 5");
}

static void test_observation_json_refuses_a_layout_beyond_21_by_21(void **state)
{
    (void)state;
    REFUSED(document(PLAIN_AT(0, -10) "," PLAIN_AT(0, 11), ""), "tiles: ",
            "the layout spans 22 columns (col -10 to 11), at most 21");
    REFUSED(document(PLAIN_AT(40, 0) "," PLAIN_AT(-20, 0), ""), "tiles: ",
            "the layout spans 61 rows (row -20 to 40), at most 21");
}

static void test_observation_json_refuses_a_bad_type(void **state)
{
    (void)state;
    REFUSED(one_tile("\"top\": null, \"height\": 0, \"token\": null"), "tiles[0].type: missing",
            "a tile type or \"unknown\"");
    REFUSED(one_tile("\"type\": \"dessert\", \"top\": null, \"height\": 0, \"token\": null"),
            "tiles[0].type: ", "'dessert' is not a tile type (lake, mountain, desert, ");
    REFUSED(one_tile("\"type\": \"Desert\", \"top\": null, \"height\": 0, \"token\": null"),
            "tiles[0].type: ", "'Desert' is not a tile type");
    REFUSED(one_tile("\"type\": 2, \"top\": null, \"height\": 0, \"token\": null"),
            "tiles[0].type: ", "not an integer");
    REFUSED(one_tile("\"type\": null, \"top\": null, \"height\": 0, \"token\": null"),
            "tiles[0].type: ", "not null");
    /* what is quoted is cut and made printable */
    REFUSED(one_tile("\"type\": \"desert\\ncamp and a very long name besides\", \"top\": null, "
                     "\"height\": 0, \"token\": null"),
            "tiles[0].type: ", "'desert?camp and a very long ...' is not a tile type");
}

static void test_observation_json_refuses_a_bad_top(void **state)
{
    (void)state;
    REFUSED(one_tile("\"type\": \"desert\", \"height\": 0, \"token\": null"),
            "tiles[0].top: missing", "a colour, null or \"unknown\"");
    REFUSED(one_tile("\"type\": \"desert\", \"top\": 1, \"height\": 1, \"token\": null"),
            "tiles[0].top: ", "must be a colour name, null (no adventurer) or \"unknown\"");
    REFUSED(one_tile("\"type\": \"desert\", \"top\": \"Orange\", \"height\": 1, \"token\": null"),
            "tiles[0].top: ", "'Orange' is not a colour name (lower-case letters");
    REFUSED(one_tile("\"type\": \"desert\", \"top\": \"\", \"height\": 1, \"token\": null"),
            "tiles[0].top: ", "'' is not a colour name");
    REFUSED(one_tile("\"type\": \"desert\", \"top\": \"orange2\", \"height\": 1, \"token\": null"),
            "tiles[0].top: ", "'orange2' is not a colour name");
    REFUSED(one_tile("\"type\": \"desert\", \"top\": \"light--blue\", \"height\": 1, "
                     "\"token\": null"),
            "tiles[0].top: ", "is not a colour name");
    REFUSED(one_tile("\"type\": \"desert\", \"top\": \"-blue\", \"height\": 1, \"token\": null"),
            "tiles[0].top: ", "is not a colour name");
    /* at most 15 letters: the array holds 16 bytes with the terminator */
    vision_el_observation o;
    PARSE_OK(one_tile("\"type\": \"desert\", \"top\": \"abcdefghijklmno\", \"height\": 1, "
                      "\"token\": null"),
             &o);
    assert_string_equal(o.colours[0], "abcdefghijklmno");
    REFUSED(one_tile("\"type\": \"desert\", \"top\": \"abcdefghijklmnop\", \"height\": 1, "
                     "\"token\": null"),
            "tiles[0].top: ", "at most 15");
}

static void test_observation_json_refuses_a_ninth_colour(void **state)
{
    (void)state;
    static const char *const names[9] = {"orange", "black", "grey",  "yellow", "red",
                                         "blue",   "green", "white", "pink"};
    char tiles[2048];
    size_t used = 0;
    for (int i = 0; i < 9; i++)
        used += (size_t)snprintf(tiles + used, sizeof tiles - used,
                                 "%s{\"row\": 0, \"col\": %d, \"type\": \"desert\", \"top\": "
                                 "\"%s\", \"height\": 1, \"token\": null}",
                                 i ? "," : "", i, names[i]);
    REFUSED(document(tiles, ""), "tiles[8].top: ",
            "'pink' would be a colour beyond the 8 an observation holds");
    /* eight, each used twice, are fine */
    tiles[0] = '\0';
    used = 0;
    for (int i = 0; i < 16; i++)
        used += (size_t)snprintf(tiles + used, sizeof tiles - used,
                                 "%s{\"row\": 0, \"col\": %d, \"type\": \"desert\", \"top\": "
                                 "\"%s\", \"height\": 1, \"token\": null}",
                                 i ? "," : "", i, names[i % 8]);
    vision_el_observation o;
    PARSE_OK(document(tiles, ""), &o);
    assert_int_equal(o.colour_count, 8);
}

static void test_observation_json_refuses_a_bad_height(void **state)
{
    (void)state;
    REFUSED(one_tile("\"type\": \"desert\", \"top\": null, \"token\": null"),
            "tiles[0].height: missing", "an integer 0..5 or null");
    REFUSED(one_tile("\"type\": \"desert\", \"top\": \"grey\", \"height\": \"2\", "
                     "\"token\": null"),
            "tiles[0].height: ", "must be an integer 0..5 or null (unseen), not a string");
    REFUSED(one_tile("\"type\": \"desert\", \"top\": \"grey\", \"height\": 2.5, \"token\": null"),
            "tiles[0].height: ", "not a number");
    REFUSED(one_tile("\"type\": \"desert\", \"top\": \"grey\", \"height\": 6, \"token\": null"),
            "tiles[0].height: ", "6 is outside 0..5");
    REFUSED(one_tile("\"type\": \"desert\", \"top\": \"unknown\", \"height\": -1, "
                     "\"token\": null"),
            "tiles[0].height: ", "-1 is outside 0..5");
}

static void test_observation_json_refuses_a_height_that_contradicts_the_top(void **state)
{
    (void)state;
    REFUSED(one_tile("\"type\": \"desert\", \"top\": null, \"height\": 2, \"token\": null"),
            "tiles[0].height: ", "2 adventurers, but top is null (none): must be 0 or null");
    REFUSED(one_tile("\"type\": \"desert\", \"top\": \"grey\", \"height\": 0, \"token\": null"),
            "tiles[0].height: ", "0, but top is 'grey': must be 1..5 or null");
}

/* A second height the recogniser could not rule out: read, and refused where it says nothing
 * or contradicts the first. */
static void test_observation_json_reads_a_second_height(void **state)
{
    (void)state;
    vision_el_observation o;
    PARSE_OK(one_tile("\"type\": \"desert\", \"top\": \"grey\", \"height\": 3, "
                      "\"height_or\": 4, \"token\": null"),
             &o);
    assert_int_equal(o.tiles[0].height, 3);
    assert_int_equal(o.tiles[0].height_or, 4);
    PARSE_OK(one_tile("\"type\": \"desert\", \"top\": \"grey\", \"height\": 3, "
                      "\"height_or\": null, \"token\": null"),
             &o);
    assert_int_equal(o.tiles[0].height_or, 0);
    char *text = observation_el_format(&o, false, false);
    assert_null(strstr(text, "height_or"));
    free(text);
    REFUSED(one_tile("\"type\": \"desert\", \"top\": \"grey\", \"height\": 3, "
                     "\"height_or\": \"4\", \"token\": null"),
            "tiles[0].height_or: ", "must be an integer 1..5 or null (none), not a string");
    REFUSED(one_tile("\"type\": \"desert\", \"top\": \"grey\", \"height\": 3, "
                     "\"height_or\": 6, \"token\": null"),
            "tiles[0].height_or: ", "6 is outside 1..5");
    REFUSED(one_tile("\"type\": \"desert\", \"top\": \"grey\", \"height\": 3, "
                     "\"height_or\": 0, \"token\": null"),
            "tiles[0].height_or: ", "0 is outside 1..5");
    REFUSED(one_tile("\"type\": \"desert\", \"top\": \"grey\", \"height\": 3, "
                     "\"height_or\": 3, \"token\": null"),
            "tiles[0].height_or: ", "3 is the height itself");
    REFUSED(one_tile("\"type\": \"desert\", \"top\": \"grey\", \"height\": null, "
                     "\"height_or\": 2, \"token\": null"),
            "tiles[0].height_or: ",
            "2, but the height is null (unseen): a second height needs a first");
    REFUSED(one_tile("\"type\": \"desert\", \"top\": null, \"height\": 0, "
                     "\"height_or\": 1, \"token\": null"),
            "tiles[0].height_or: ", "1, but the height is 0");
}

static void test_observation_json_refuses_a_bad_token(void **state)
{
    (void)state;
    REFUSED(one_tile("\"type\": \"lake\", \"top\": null, \"height\": 0"),
            "tiles[0].token: missing", "\"boat\", \"snakes\", null or \"unknown\"");
    REFUSED(one_tile("\"type\": \"lake\", \"top\": null, \"height\": 0, \"token\": \"ship\""),
            "tiles[0].token: ", "'ship' is not a token (boat, snakes, null or unknown)");
    REFUSED(one_tile("\"type\": \"lake\", \"top\": null, \"height\": 0, \"token\": false"),
            "tiles[0].token: ", "not false");
    REFUSED(one_tile("\"type\": \"lake\", \"top\": null, \"height\": 0, \"token\": [\"boat\"]"),
            "tiles[0].token: ", "not an array");
}

static void test_observation_json_refuses_sandstorm_and_caravan_on_the_table(void **state)
{
    (void)state;
    REFUSED(one_tile("\"type\": \"desert\", \"top\": null, \"height\": 0, "
                     "\"token\": \"sandstorm\""),
            "tiles[0].token: ", "a sandstorm never lies on the table");
    REFUSED(one_tile("\"type\": \"desert\", \"top\": null, \"height\": 0, "
                     "\"token\": \"caravan\""),
            "tiles[0].token: ", "a caravan never lies on the table (it leaves the game");
}

static void test_observation_json_refuses_a_stack_that_disagrees(void **state)
{
    (void)state;
    REFUSED(one_tile("\"type\": \"desert\", \"top\": \"grey\", \"height\": 2, \"token\": null, "
                     "\"stack\": \"grey\""),
            "tiles[0].stack: ", "must be an array of colour names, bottom first, not a string");
    REFUSED(one_tile("\"type\": \"desert\", \"top\": \"grey\", \"height\": 2, \"token\": null, "
                     "\"stack\": [\"grey\"]"),
            "tiles[0].stack: ", "1 colours, but the height is 2");
    REFUSED(one_tile("\"type\": \"desert\", \"top\": \"grey\", \"height\": 1, \"token\": null, "
                     "\"stack\": [\"grey\", \"grey\", \"grey\", \"grey\", \"grey\", \"grey\"]"),
            "tiles[0].stack: ", "6 colours, but the height is 1");
    REFUSED(one_tile("\"type\": \"desert\", \"top\": \"grey\", \"height\": null, "
                     "\"token\": null, \"stack\": [\"grey\"]"),
            "tiles[0].stack: ", "but the height is null (unseen)");
    REFUSED(one_tile("\"type\": \"desert\", \"top\": \"grey\", \"height\": 2, \"token\": null, "
                     "\"stack\": [\"grey\", \"black\"]"),
            "tiles[0].stack: ", "its last is 'black', but top is 'grey'");
    REFUSED(one_tile("\"type\": \"desert\", \"top\": \"unknown\", \"height\": 1, "
                     "\"token\": null, \"stack\": [\"grey\"]"),
            "tiles[0].stack: ", "its last is 'grey', but top is \"unknown\"");
}

static void test_observation_json_refuses_a_stack_of_bad_colours(void **state)
{
    (void)state;
    REFUSED(one_tile("\"type\": \"desert\", \"top\": \"grey\", \"height\": 2, \"token\": null, "
                     "\"stack\": [null, \"grey\"]"),
            "tiles[0].stack[0]: ", "must be a colour name, not null");
    REFUSED(one_tile("\"type\": \"desert\", \"top\": \"grey\", \"height\": 2, \"token\": null, "
                     "\"stack\": [\"Black\", \"grey\"]"),
            "tiles[0].stack[0]: ", "'Black' is not a colour name");
    REFUSED(one_tile("\"type\": \"desert\", \"top\": \"grey\", \"height\": 2, \"token\": null, "
                     "\"stack\": [\"unknown\", \"grey\"]"),
            "tiles[0].stack[0]: ", "a stack is given only when all of it is known");
}

static void test_observation_json_refuses_a_bad_confidence(void **state)
{
    (void)state;
    REFUSED(one_tile(PLAIN ", \"confidence\": 1.5"), "tiles[0].confidence: ",
            "1.5 is outside 0..1");
    REFUSED(one_tile(PLAIN ", \"confidence\": -0.25"), "tiles[0].confidence: ",
            "-0.25 is outside 0..1");
    REFUSED(one_tile(PLAIN ", \"confidence\": \"high\""), "tiles[0].confidence: ",
            "must be a number 0..1 or an object");
    REFUSED(one_tile(PLAIN ", \"confidence\": [1, 1, 1, 1]"), "tiles[0].confidence: ",
            "not an array");
    REFUSED(one_tile(PLAIN ", \"confidence\": {\"top\": 2}"), "tiles[0].confidence.top: ",
            "2 is outside 0..1");
    REFUSED(one_tile(PLAIN ", \"confidence\": {\"height\": true}"),
            "tiles[0].confidence.height: ", "must be a number 0..1, not true");
    REFUSED(one_tile(PLAIN ", \"confidence\": {\"token\": 1e400}"), "line 1, column", "");
}

static void test_observation_json_refuses_bad_unknown_cells(void **state)
{
    (void)state;
    REFUSED(document(PLAIN_AT(0, 0), "\"unknown\": {\"row\": 1, \"col\": 1}"), "unknown: ",
            "must be an array of cells {\"row\", \"col\"}, not an object");
    REFUSED(document(PLAIN_AT(0, 0), "\"unknown\": [[1, 1]]"), "unknown[0]: ",
            "must be an object {\"row\", \"col\"}, not an array");
    REFUSED(document(PLAIN_AT(0, 0), "\"unknown\": [{\"row\": 1}]"), "unknown[0].col: missing",
            "integer");
    REFUSED(document(PLAIN_AT(0, 0), "\"unknown\": [{\"row\": 1, \"col\": 65}]"),
            "unknown[0].col: ", "65 is outside -64..64");
    REFUSED(document(PLAIN_AT(0, 0), "\"unknown\": [{\"row\": 1, \"col\": 1}, {\"row\": 2, "
                                     "\"col\": 1}, {\"row\": 1, \"col\": 1}]"),
            "unknown[2]: ", "row 1, col 1 is listed twice (unknown[0])");
    static char cells[129 * 40];
    size_t used = 0;
    for (int i = 0; i < 129; i++)
        used += (size_t)snprintf(cells + used, sizeof cells - used,
                                 "%s{\"row\": %d, \"col\": %d}", i ? "," : "", i / 12, i % 12);
    char rest[129 * 40 + 32];
    snprintf(rest, sizeof rest, "\"unknown\": [%s]", cells);
    REFUSED(document("", rest), "unknown: ", "129 cells, at most 128");
}

static void test_observation_json_refuses_a_cell_both_tile_and_unknown(void **state)
{
    (void)state;
    REFUSED(document(PLAIN_AT(3, 3) "," PLAIN_AT(3, 4),
                     "\"unknown\": [{\"row\": 2, \"col\": 4}, {\"row\": 3, \"col\": 4}]"),
            "unknown[1]: ", "row 3, col 4 is tiles[1]'s position: a cell is a tile or unknown");
}

static void test_observation_json_reports_into_any_buffer(void **state)
{
    (void)state;
    vision_el_observation o;
    const char *json = "{\"game\": \"luxor\"}";
    assert_int_equal(observation_el_parse(json, strlen(json), &o, NULL, 0), VISION_BAD_INPUT);
    char small[8];
    assert_int_equal(observation_el_parse(json, strlen(json), &o, small, sizeof small),
                     VISION_BAD_INPUT);
    assert_string_equal(small, "game: t");
    char one[1] = {'x'};
    assert_int_equal(observation_el_parse(json, strlen(json), &o, one, sizeof one),
                     VISION_BAD_INPUT);
    assert_int_equal(one[0], '\0');
    /* the length bounds the text: what follows it is never read */
    const char *longer = "{" GAME ", \"tiles\": []}garbage";
    PARSE_OK("{" GAME ", \"tiles\": []}", &o);
    assert_int_equal(observation_el_parse(longer, strlen(longer) - 7, &o, small, sizeof small),
                     VISION_OK);
}

/* ---- the writer ---- */

static void test_observation_json_writes_the_compact_format(void **state)
{
    (void)state;
    vision_el_observation o;
    hand_built(&o);
    char *text = observation_el_format(&o, false, false);
    assert_non_null(text);
    assert_string_equal(
        text, "{\"game\":\"expedition-luxor\",\"tiles\":["
              "{\"row\":0,\"col\":0,\"type\":\"unknown\",\"top\":\"unknown\",\"height\":null,"
              "\"token\":\"unknown\"},"
              "{\"row\":0,\"col\":1,\"type\":\"lake\",\"top\":null,\"height\":0,"
              "\"token\":\"boat\"},"
              "{\"row\":1,\"col\":0,\"type\":\"desert-camp\",\"top\":\"orange\",\"height\":2,"
              "\"height_or\":3,\"token\":null,\"stack\":[\"black\",\"orange\"]}],"
              "\"unknown\":[{\"row\":1,\"col\":1}]}");
    free(text);
    memset(&o, 0, sizeof o);
    text = observation_el_format(&o, false, true);
    assert_string_equal(text, "{\"game\":\"expedition-luxor\",\"tiles\":[],\"unknown\":[]}");
    free(text);
}

static void test_observation_json_writes_the_pretty_format(void **state)
{
    (void)state;
    vision_el_observation o;
    hand_built(&o);
    char *text = observation_el_format(&o, true, true);
    assert_non_null(text);
    assert_string_equal(
        text,
        "{\n"
        "  \"game\": \"expedition-luxor\",\n"
        "  \"tiles\": [\n"
        "    {\"row\": 0, \"col\": 0, \"type\": \"unknown\", \"top\": \"unknown\", "
        "\"height\": null, \"token\": \"unknown\", \"confidence\": {\"type\": 0.125, "
        "\"top\": 1, \"height\": 1, \"token\": 1}},\n"
        "    {\"row\": 0, \"col\": 1, \"type\": \"lake\", \"top\": null, \"height\": 0, "
        "\"token\": \"boat\", \"confidence\": {\"type\": 1, \"top\": 1, \"height\": 1, "
        "\"token\": 1}},\n"
        "    {\"row\": 1, \"col\": 0, \"type\": \"desert-camp\", \"top\": \"orange\", "
        "\"height\": 2, \"height_or\": 3, \"token\": null, \"stack\": [\"black\", \"orange\"], "
        "\"confidence\": "
        "{\"type\": 1, \"top\": 0.9, \"height\": 0.75, \"token\": 1}}\n"
        "  ],\n"
        "  \"unknown\": [\n"
        "    {\"row\": 1, \"col\": 1}\n"
        "  ]\n"
        "}");
    free(text);
    memset(&o, 0, sizeof o);
    text = observation_el_format(&o, true, false);
    assert_string_equal(
        text, "{\n  \"game\": \"expedition-luxor\",\n  \"tiles\": [],\n  \"unknown\": []\n}");
    free(text);
}

static void test_observation_json_writes_in_row_major_order_translated(void **state)
{
    (void)state;
    vision_el_observation o;
    memset(&o, 0, sizeof o);
    add_tile(&o, 7, 4, EL_DESERT, VISION_NONE, 0, EL_NO_TOKEN);
    add_tile(&o, 6, 5, EL_MOUNTAIN, VISION_NONE, 0, EL_NO_TOKEN);
    add_tile(&o, 6, 4, EL_LAKE, VISION_NONE, 0, EL_NO_TOKEN);
    o.unknown_count = 2;
    o.unknown[0].row = 7;
    o.unknown[0].col = 5;
    o.unknown[1].row = 5;
    o.unknown[1].col = 4;
    char *text = observation_el_format(&o, false, false);
    assert_string_equal(
        text, "{\"game\":\"expedition-luxor\",\"tiles\":["
              "{\"row\":0,\"col\":0,\"type\":\"lake\",\"top\":null,\"height\":0,\"token\":null},"
              "{\"row\":0,\"col\":1,\"type\":\"mountain\",\"top\":null,\"height\":0,"
              "\"token\":null},"
              "{\"row\":1,\"col\":0,\"type\":\"desert\",\"top\":null,\"height\":0,\"token\":null}],"
              "\"unknown\":[{\"row\":-1,\"col\":0},{\"row\":1,\"col\":1}]}");
    free(text);
}

static void test_observation_json_writes_what_it_cannot_say_as_unseen(void **state)
{
    (void)state;
    vision_el_observation o;
    memset(&o, 0, sizeof o);
    vision_el_colour_index(&o, "orange");
    vision_el_tile *tile = add_tile(&o, 0, 0, 42, 3, 9, EL_SANDSTORM);
    tile->stack_known = 1; /* of an impossible height: left out */
    tile->confidence[VISION_EL_TOP] = 1.7f;
    tile->confidence[VISION_EL_HEIGHT] = -0.2f;
    tile->confidence[VISION_EL_TOKEN] = NAN;
    tile = add_tile(&o, 0, 1, EL_DESERT_CAMP, 0, 2, EL_NO_TOKEN);
    tile->stack_known = 1;
    tile->stack[0] = 5; /* a colour the observation lacks: the stack is left out */
    tile->stack[1] = 0;
    tile->confidence[VISION_EL_TYPE] = 0.12345f;
    tile->confidence[VISION_EL_TOP] = 0.9996f;
    char *text = observation_el_format(&o, false, true);
    assert_string_equal(
        text, "{\"game\":\"expedition-luxor\",\"tiles\":["
              "{\"row\":0,\"col\":0,\"type\":\"unknown\",\"top\":\"unknown\",\"height\":null,"
              "\"token\":\"unknown\",\"confidence\":{\"type\":1,\"top\":1,\"height\":0,"
              "\"token\":0}},"
              "{\"row\":0,\"col\":1,\"type\":\"desert-camp\",\"top\":\"orange\",\"height\":2,"
              "\"token\":null,\"confidence\":{\"type\":0.123,\"top\":1,\"height\":1,"
              "\"token\":1}}],\"unknown\":[]}");
    /* and it reads back */
    vision_el_observation back;
    PARSE_OK(text, &back);
    free(text);
    /* names are escaped whatever an observation built by hand holds */
    memset(&o, 0, sizeof o);
    o.colour_count = 1;
    memcpy(o.colours[0], "a\"b\\c\nd", 8);
    add_tile(&o, 0, 0, EL_DESERT, 0, 1, EL_NO_TOKEN);
    text = observation_el_format(&o, false, false);
    assert_non_null(strstr(text, "\"top\":\"a\\\"b\\\\c\\u000ad\""));
    char error[256];
    assert_int_equal(observation_el_parse(text, strlen(text), &back, error, sizeof error),
                     VISION_BAD_INPUT);
    assert_non_null(strstr(error, "tiles[0].top: 'a\"b\\c?d' is not a colour name"));
    free(text);
}

/* ---- round trips ---- */

static void test_observation_json_round_trips_hand_built_observations(void **state)
{
    (void)state;
    vision_el_observation o;
    for (int pretty = 0; pretty < 2; pretty++)
        for (int confidence = 0; confidence < 2; confidence++) {
            hand_built(&o);
            if (!confidence) /* left out, they read back as 1 */
                for (int i = 0; i < o.tile_count; i++)
                    for (int f = 0; f < 4; f++)
                        o.tiles[i].confidence[f] = 1.0f;
            free(round_trip(&o, pretty, confidence));
        }
    /* the empty observation; one of unknown cells only; the largest layout */
    memset(&o, 0, sizeof o);
    free(round_trip(&o, true, true));
    o.unknown_count = 2;
    o.unknown[0].row = 0;
    o.unknown[0].col = 3;
    o.unknown[1].row = 2;
    o.unknown[1].col = 0;
    free(round_trip(&o, false, false));
    memset(&o, 0, sizeof o);
    for (int i = 0; i < 21; i++)
        add_tile(&o, i, 20 - i, i % EL_TILE_TYPES, VISION_NONE, 0, i % 3);
    free(round_trip(&o, true, false));
    /* every stack height, every colour slot */
    memset(&o, 0, sizeof o);
    static const char *const names[8] = {"orange", "black",  "grey",       "yellow",
                                         "red",    "purple", "dark-green", "abcdefghijklmno"};
    for (int c = 0; c < 8; c++)
        vision_el_colour_index(&o, names[c]);
    for (int h = 0; h <= VISION_EL_STACK_MAX; h++) {
        vision_el_tile *tile = add_tile(&o, h / 3, h % 3, EL_DESERT_CAMP,
                                        h ? (h + 2) % 8 : VISION_NONE, h, EL_NO_TOKEN);
        tile->stack_known = 1;
        for (int s = 0; s < h; s++)
            tile->stack[s] = (s + h + 3) % 8;
        if (h)
            tile->stack[h - 1] = tile->top;
        for (int f = 0; f < 4; f++)
            tile->confidence[f] = (float)((h * 4 + f) * 37 % 1001) / 1000.0f;
    }
    free(round_trip(&o, false, true));
}

/* A small pseudo-random generator (splitmix64): the same sequence on every machine. */
static uint64_t next_random(uint64_t *seed)
{
    uint64_t z = (*seed += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static int random_below(uint64_t *seed, int n)
{
    return (int)(next_random(seed) % (uint64_t)n);
}

/* What the camera sees of a game, as vision's observation with the game's (default) colours,
 * each stack as the state knows it (a truth). */
static void from_game(const el_state *s, vision_el_observation *o)
{
    el_observation seen;
    el_observe(s, &seen);
    memset(o, 0, sizeof *o);
    for (int seat = 0; seat < s->config.seats; seat++)
        assert_int_equal(vision_el_colour_index(o, s->config.colours[seat]), seat);
    for (int i = 0; i < seen.count; i++) {
        const el_seen_tile *t = &seen.tiles[i];
        vision_el_tile *tile =
            add_tile(o, t->row, t->col, t->type, t->top == EL_EMPTY ? VISION_NONE : t->top,
                     t->height, t->token);
        const el_cell *cell =
            &s->cells[t->row + s->min_row + EL_ORIGIN][t->col + s->min_col + EL_ORIGIN];
        assert_true(cell->has_tile);
        tile->stack_known = cell->height > 0; /* "stack": [] says no more than height 0 */
        for (int h = 0; h < cell->height; h++)
            tile->stack[h] = cell->stack[h];
    }
}

/* What a camera might make of it: some fields unseen, confidences below 1, cells under a hand,
 * and the whole moved on the table. */
static void degrade(vision_el_observation *o, uint64_t *seed)
{
    for (int i = 0; i < o->tile_count; i++) {
        vision_el_tile *tile = &o->tiles[i];
        for (int f = 0; f < 4; f++)
            tile->confidence[f] = (float)random_below(seed, 1001) / 1000.0f;
        int roll = random_below(seed, 10);
        if (roll == 0)
            tile->type = VISION_UNKNOWN;
        else if (roll == 1 && tile->top != VISION_NONE) {
            tile->height = VISION_UNKNOWN; /* null with no top would read as 0 */
            tile->stack_known = 0;
        } else if (roll == 2) {
            tile->top = VISION_UNKNOWN;
            tile->stack_known = 0;
        } else if (roll == 3)
            tile->token = VISION_UNKNOWN;
        else if (roll == 4)
            tile->stack_known = 0;
        else if (roll == 5 && tile->height > 0) /* a runner-up beside the height */
            tile->height_or = tile->height < 5 ? tile->height + 1 : tile->height - 1;
    }
    for (int tries = random_below(seed, 4); tries > 0; tries--) {
        const vision_el_tile *near = &o->tiles[random_below(seed, o->tile_count)];
        int row = near->row + random_below(seed, 3) - 1;
        int col = near->col + random_below(seed, 3) - 1;
        if (!tile_at(o, row, col) && !unknown_at(o, row, col)) {
            o->unknown[o->unknown_count].row = row;
            o->unknown[o->unknown_count].col = col;
            o->unknown_count++;
        }
    }
}

static void shift(vision_el_observation *o, int rows, int cols)
{
    for (int i = 0; i < o->tile_count; i++) {
        o->tiles[i].row += rows;
        o->tiles[i].col += cols;
    }
    for (int i = 0; i < o->unknown_count; i++) {
        o->unknown[i].row += rows;
        o->unknown[i].col += cols;
    }
}

typedef struct replay {
    el_state state;
    int lines;
    int round_trips;
    uint64_t seed;
} replay;

/* Each line of a random game is played again here; every few lines what the camera would see
 * goes through the writer and the reader. */
static void replay_and_round_trip(void *context, const char *line)
{
    replay *r = context;
    el_error error = {""};
    if (el_play_line(&r->state, line, NULL, &error) != EL_OK)
        fail_msg("'%s' refused: %s", line, error.message);
    if (r->state.tiles == 0 || ++r->lines % 7 != 0)
        return;
    vision_el_observation *truth = malloc(sizeof *truth), *seen = malloc(sizeof *seen);
    assert_non_null(truth);
    assert_non_null(seen);
    from_game(&r->state, truth);
    free(round_trip(truth, r->lines % 2, false));
    *seen = *truth;
    degrade(seen, &r->seed);
    vision_el_observation moved = *seen;
    shift(&moved, random_below(&r->seed, 41) - 20, random_below(&r->seed, 41) - 20);
    char *text = observation_el_format(&moved, r->lines % 3 == 0, true);
    vision_el_observation *back = malloc(sizeof *back);
    assert_non_null(back);
    PARSE_OK(text, back);
    assert_same(seen, back, true); /* the writer translated it back */
    free(round_trip(seen, r->lines % 3 == 0, true));
    r->round_trips += 2;
    free(text);
    free(back);
    free(seen);
    free(truth);
}

static void test_observation_json_round_trips_random_games(void **state)
{
    (void)state;
    int round_trips = 0;
    for (int seats = 2; seats <= 4; seats++)
        for (int expansion = 0; expansion < 2; expansion++)
            for (int g = 0; g < 3; g++) {
                el_config config;
                el_config_default(&config);
                config.seats = seats;
                config.expansion = expansion;
                el_state played;
                replay *r = calloc(1, sizeof *r);
                assert_non_null(r);
                el_error error = {""};
                assert_int_equal(el_init(&played, &config, &error), EL_OK);
                assert_int_equal(el_init(&r->state, &config, &error), EL_OK);
                r->seed = (uint64_t)(seats * 100 + expansion * 10 + g);
                if (el_random_game(&played, r->seed + 7000, replay_and_round_trip, r, &error) !=
                    EL_OK)
                    fail_msg("random game: %s", error.message);
                /* the finished game, every tile down */
                vision_el_observation *end = malloc(sizeof *end);
                assert_non_null(end);
                from_game(&played, end);
                assert_int_equal(end->tile_count, seats * EL_TILES_PER_SEAT);
                free(round_trip(end, g % 2, false));
                free(end);
                round_trips += r->round_trips + 1;
                free(r);
            }
    assert_true(round_trips > 300);
}

/* ---- files ---- */

static void test_observation_json_loads_a_file(void **state)
{
    (void)state;
    char *folder = test_make_folder();
    char *path = test_path(folder, "truth.json");
    vision_el_observation o, written;
    hand_built(&written);
    char *text = observation_el_format(&written, true, true);
    test_write_file(path, text, strlen(text));
    free(text);
    char error[512] = "";
    if (observation_el_load(path, &o, error, sizeof error) != VISION_OK)
        fail_msg("%s", error);
    assert_same(&written, &o, true);

    /* a refusal names the file */
    const char *bad = "{\"game\": \"expedition-luxor\", \"tiles\": [{\"row\": 0, \"col\": 0, "
                      "\"type\": \"dessert\", \"top\": null, \"height\": 0, \"token\": null}]}";
    test_write_file(path, bad, strlen(bad));
    memset(&o, 0x5a, sizeof o);
    assert_int_equal(observation_el_load(path, &o, error, sizeof error), VISION_BAD_INPUT);
    check_one_line(error, "load");
    char expected[512];
    snprintf(expected, sizeof expected, "%s: tiles[0].type: 'dessert' is not a tile type", path);
    assert_memory_equal(error, expected, strlen(expected));
    assert_true(zeroed(&o));

    /* the missing file */
    char *missing = test_path(folder, "nothing.json");
    memset(&o, 0x5a, sizeof o);
    assert_int_equal(observation_el_load(missing, &o, error, sizeof error), VISION_NOT_FOUND);
    check_one_line(error, "missing");
    assert_int_equal(strncmp(error, missing, strlen(missing)), 0);
    assert_non_null(strstr(error, "cannot open"));
    assert_true(zeroed(&o));
    char *in_missing = test_path(folder, "nothing/truth.json");
    assert_int_equal(observation_el_load(in_missing, &o, error, sizeof error), VISION_NOT_FOUND);

    /* a folder is no file */
    assert_int_equal(observation_el_load(folder, &o, error, sizeof error), VISION_IO);
    check_one_line(error, "folder");

    /* 1 MiB at most: a valid observation padded with spaces to the limit is read */
    size_t limit = 1024 * 1024;
    char *big = malloc(limit + 1);
    assert_non_null(big);
    memset(big, ' ', limit + 1);
    const char *empty = "{\"game\": \"expedition-luxor\", \"tiles\": []}";
    memcpy(big, empty, strlen(empty));
    test_write_file(path, big, limit);
    if (observation_el_load(path, &o, error, sizeof error) != VISION_OK)
        fail_msg("%s", error);
    test_write_file(path, big, limit + 1);
    assert_int_equal(observation_el_load(path, &o, error, sizeof error), VISION_BAD_INPUT);
    check_one_line(error, "big");
    assert_non_null(strstr(error, "larger than 1024 KiB: not an observation"));
    free(big);

    /* a path with a line break still gives one line */
    char *odd = test_path(folder, "odd\nname.json");
    assert_int_equal(observation_el_load(odd, &o, error, sizeof error), VISION_NOT_FOUND);
    check_one_line(error, "odd");

    free(odd);
    free(in_missing);
    free(missing);
    free(path);
    test_remove_tree(folder);
    free(folder);
}

/* The fixture is the observation of a short scripted 3-player game with the expansion, as the
 * writer prints it; TS_WRITE_FIXTURES=1 writes it again instead of comparing. */
static const char *const example_lines[] = {
    "start desert@0,0 mountain@0,1 lake@0,2 desert-temple@1,0 oasis-temple@1,1 desert@1,2",
    "orange: desert-camp@-1,1 x4 > s 3", "boat 0,1 > 0,2", "end",
    "black: oasis-camp@2,1 x4 > n 2", "end",
    "grey: desert-camp@2,0 x3 > e 2", "desert-pyramid@1,3", "end",
    NULL};

static void test_observation_json_fixture_is_the_scripted_example(void **state)
{
    (void)state;
    el_config config;
    el_config_default(&config);
    config.seats = 3;
    config.expansion = true;
    el_state s;
    el_error error = {""};
    assert_int_equal(el_init(&s, &config, &error), EL_OK);
    for (const char *const *line = example_lines; *line; line++)
        if (el_play_line(&s, *line, NULL, &error) != EL_OK)
            fail_msg("'%s' refused: %s", *line, error.message);
    vision_el_observation o;
    from_game(&s, &o);
    char *text = observation_el_format(&o, true, false);
    assert_non_null(text);
    size_t length = strlen(text);
    text = realloc(text, length + 2);
    assert_non_null(text);
    strcpy(text + length++, "\n"); /* a text file ends its last line */
    const char *write = getenv("TS_WRITE_FIXTURES");
    if (write && strcmp(write, "1") == 0)
        test_write_file(EXAMPLE_FIXTURE, text, length);
    if (!test_file_equals(EXAMPLE_FIXTURE, text, length))
        fail_msg("%s is not the scripted example's observation (TS_WRITE_FIXTURES=1 rewrites "
                 "it):\n%s",
                 EXAMPLE_FIXTURE, text);
    free(text);
}

static void test_observation_json_reads_the_fixture(void **state)
{
    (void)state;
    vision_el_observation o;
    char error[512] = "";
    if (observation_el_load(EXAMPLE_FIXTURE, &o, error, sizeof error) != VISION_OK)
        fail_msg("%s", error);
    /* the 2x3 start layout below the camp, two tiles beside it, the camp above */
    assert_int_equal(o.tile_count, 10);
    assert_int_equal(o.unknown_count, 0);
    const vision_el_tile *camp = tile_at(&o, 0, 1), *mountain = tile_at(&o, 1, 1),
                         *lake = tile_at(&o, 1, 2), *temple = tile_at(&o, 2, 1),
                         *oasis_camp = tile_at(&o, 3, 1);
    assert_non_null(camp);
    assert_non_null(mountain);
    assert_non_null(lake);
    assert_non_null(temple);
    assert_non_null(oasis_camp);
    assert_int_equal(camp->type, EL_DESERT_CAMP);
    assert_int_equal(camp->height, 1);
    assert_string_equal(o.colours[camp->top], "orange");
    /* 3 orange climbed the mountain; one went home for the boat */
    assert_int_equal(mountain->type, EL_MOUNTAIN);
    assert_int_equal(mountain->height, 2);
    assert_int_equal(lake->token, EL_BOAT);
    assert_int_equal(lake->top, VISION_NONE);
    assert_int_equal(temple->type, EL_OASIS_TEMPLE);
    assert_int_equal(temple->height, 2);
    assert_string_equal(o.colours[temple->top], "black");
    /* grey's two climbed on black's two on the oasis camp */
    assert_int_equal(oasis_camp->height, 4);
    assert_int_equal(oasis_camp->stack_known, 1);
    assert_string_equal(o.colours[oasis_camp->stack[0]], "black");
    assert_string_equal(o.colours[oasis_camp->stack[1]], "black");
    assert_string_equal(o.colours[oasis_camp->stack[2]], "grey");
    assert_string_equal(o.colours[oasis_camp->stack[3]], "grey");
    assert_string_equal(o.colours[oasis_camp->top], "grey");
}

/* ---- fuzz ---- */

typedef struct fuzz_text {
    char *bytes;
    size_t length;
} fuzz_text;

static const char interesting[] = "{}[],:\"\\ -+.0123456789eEnulltruefalse";
static const char *const values[] = {
    "null",  "0",      "-1",  "5",   "6",   "64",  "-65", "1.5",         "1e400", "-0",
    "true",  "\"\"",   "[]",  "{}",  "\"unknown\"", "\"orange\"", "\"boat\"", "\"sandstorm\"",
    "\"desert-camp\"", "99999999999999999999", "0.5", "[\"grey\"]", "\"\\u0000\"", "\"\\ud800\""};

/* One mutation of text in place (it has room for 64 more bytes). */
static void mutate(fuzz_text *t, uint64_t *seed)
{
    size_t n = t->length;
    int kind = random_below(seed, 8);
    size_t at = n ? (size_t)random_below(seed, (int)n) : 0;
    switch (kind) {
    case 0: /* flip a bit */
        if (n)
            t->bytes[at] ^= (char)(1u << random_below(seed, 8));
        break;
    case 1: /* any byte */
        if (n)
            t->bytes[at] = (char)random_below(seed, 256);
        break;
    case 2: /* truncate */
        t->length = at;
        break;
    case 3: /* insert a character JSON cares about */
        memmove(t->bytes + at + 1, t->bytes + at, n - at);
        t->bytes[at] = interesting[random_below(seed, (int)sizeof interesting - 1)];
        t->length++;
        break;
    case 4: { /* delete a short span */
        size_t span = (size_t)random_below(seed, 12) + 1;
        if (at + span > n)
            span = n - at;
        memmove(t->bytes + at, t->bytes + at + span, n - at - span);
        t->length -= span;
        break;
    }
    case 5: { /* swap the values after two colons */
        size_t colons[512], count = 0;
        for (size_t i = 0; i < n && count < 512; i++)
            if (t->bytes[i] == ':')
                colons[count++] = i + 1;
        if (count < 2)
            break;
        size_t a = colons[random_below(seed, (int)count)];
        size_t b = colons[random_below(seed, (int)count)];
        if (a > b) {
            size_t swap = a;
            a = b;
            b = swap;
        }
        size_t a_end = a, b_end = b;
        while (a_end < n && !strchr(",}]", t->bytes[a_end]))
            a_end++;
        while (b_end < n && !strchr(",}]", t->bytes[b_end]))
            b_end++;
        if (a == b || a_end > b)
            break;
        char *copy = malloc(n);
        assert_non_null(copy);
        size_t used = 0;
        memcpy(copy + used, t->bytes, a), used += a;
        memcpy(copy + used, t->bytes + b, b_end - b), used += b_end - b;
        memcpy(copy + used, t->bytes + a_end, b - a_end), used += b - a_end;
        memcpy(copy + used, t->bytes + a, a_end - a), used += a_end - a;
        memcpy(copy + used, t->bytes + b_end, n - b_end), used += n - b_end;
        assert_int_equal(used, n);
        memcpy(t->bytes, copy, n);
        free(copy);
        break;
    }
    case 6: { /* replace the value after a colon with one of the interesting ones */
        size_t colon = at;
        while (colon < n && t->bytes[colon] != ':')
            colon++;
        if (colon == n)
            break;
        size_t start = colon + 1, end = start;
        while (end < n && !strchr(",}]", t->bytes[end]))
            end++;
        const char *value = values[random_below(seed, (int)(sizeof values / sizeof *values))];
        size_t length = strlen(value);
        if (n - (end - start) + length > n + 64)
            break;
        memmove(t->bytes + start + length, t->bytes + end, n - end);
        memcpy(t->bytes + start, value, length);
        t->length = n - (end - start) + length;
        break;
    }
    case 7: { /* copy a short span elsewhere */
        size_t span = (size_t)random_below(seed, 24) + 1;
        size_t to = n ? (size_t)random_below(seed, (int)n) : 0;
        if (at + span > n)
            span = n - at;
        if (span > 64 - 1)
            span = 63;
        char piece[64];
        memcpy(piece, t->bytes + at, span);
        memmove(t->bytes + to + span, t->bytes + to, n - to);
        memcpy(t->bytes + to, piece, span);
        t->length += span;
        break;
    }
    }
}

/* Valid documents to start from: the fixture, random games' observations seen with unknowns,
 * hand-built ones, in both forms. */
static int fuzz_seeds(char **seeds, int max)
{
    int count = 0;
    size_t size;
    seeds[count++] = test_read_file(EXAMPLE_FIXTURE, &size);
    assert_non_null(seeds[0]);
    vision_el_observation *o = malloc(sizeof *o);
    assert_non_null(o);
    hand_built(o);
    seeds[count++] = observation_el_format(o, true, true);
    seeds[count++] = observation_el_format(o, false, false);
    seeds[count++] = strdup(document("{\"row\": -3, \"col\": 5, \"type\": \"oasis-camp\", \"top\": "
                                     "\"yellow\", \"height\": 3, \"token\": null, \"stack\": "
                                     "[\"grey\", \"black\", \"yellow\"], \"confidence\": 0.5},"
                                     "{\"row\": -2, \"col\": 5, \"type\": \"lake\", \"top\": null, "
                                     "\"height\": null, \"token\": \"snakes\"}",
                                     "\"unknown\": [{\"row\": -4, \"col\": 5}], \"x\": [1]"));
    uint64_t seed = 99;
    for (int g = 0; count < max; g++) {
        el_config config;
        el_config_default(&config);
        config.seats = 2 + g % 3;
        config.expansion = true;
        el_state s;
        el_error error;
        assert_int_equal(el_init(&s, &config, &error), EL_OK);
        assert_int_equal(el_random_game(&s, (uint64_t)g + 50, NULL, NULL, &error), EL_OK);
        from_game(&s, o);
        /* a few tiles of it, so that each document stays short */
        o->tile_count = 6 + g % 10;
        degrade(o, &seed);
        seeds[count++] = observation_el_format(o, g % 2, g % 3 != 0);
    }
    free(o);
    return count;
}

static void test_observation_json_fuzz_never_crashes(void **state)
{
    (void)state;
    char *seeds[16];
    int seed_count = fuzz_seeds(seeds, 16);
    vision_el_observation *o = malloc(sizeof *o);
    assert_non_null(o);
    uint64_t seed = 20240611;
    int accepted = 0, refused = 0;
    const int cases = 24000;
    for (int c = 0; c < cases; c++) {
        const char *original = seeds[c % seed_count];
        size_t length = strlen(original);
        int mutations = 1 + random_below(&seed, 4);
        fuzz_text t = {malloc(length + 64 * (size_t)mutations + 1), length};
        assert_non_null(t.bytes);
        memcpy(t.bytes, original, length);
        for (int m = 0; m < mutations; m++)
            mutate(&t, &seed);
        /* exactly length bytes, no terminator: reading past them is caught by ASan */
        char *exact = malloc(t.length ? t.length : 1);
        assert_non_null(exact);
        memcpy(exact, t.bytes, t.length);
        free(t.bytes);
        char error[256];
        memset(error, 'x', sizeof error);
        size_t size = c % 50 == 0 ? (size_t)random_below(&seed, 12) : sizeof error;
        vision_status status = observation_el_parse(exact, t.length, o, error, size);
        if (status == VISION_OK) {
            accepted++;
            /* what was accepted is an observation: translated, unique, writable and readable */
            int min_row = 0, min_col = 0;
            for (int i = 0; i < o->tile_count; i++) {
                min_row = i == 0 || o->tiles[i].row < min_row ? o->tiles[i].row : min_row;
                min_col = i == 0 || o->tiles[i].col < min_col ? o->tiles[i].col : min_col;
                assert_true(o->tiles[i].row < 21 && o->tiles[i].col < 21);
            }
            assert_int_equal(min_row, 0);
            assert_int_equal(min_col, 0);
            free(round_trip(o, c % 2, true));
        } else {
            refused++;
            if (status != VISION_BAD_INPUT)
                fail_msg("case %d: status %d", c, (int)status);
            assert_true(zeroed(o));
            if (size == sizeof error)
                check_one_line(error, "fuzz");
            else if (size > 0)
                assert_true(strlen(error) < size);
        }
        free(exact);
    }
    for (int i = 0; i < seed_count; i++)
        free(seeds[i]);
    free(o);
    print_message("fuzz: %d cases, %d accepted, %d refused\n", cases, accepted, refused);
    /* the mutations reach both sides */
    assert_true(accepted > 300);
    assert_true(refused > cases / 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_observation_json_reads_every_field),
        cmocka_unit_test(test_observation_json_reads_every_tile_type_name),
        cmocka_unit_test(test_observation_json_reads_unknown_fields_as_unknown),
        cmocka_unit_test(test_observation_json_reads_a_null_height_without_top_as_zero),
        cmocka_unit_test(test_observation_json_reads_confidences),
        cmocka_unit_test(test_observation_json_reads_stacks),
        cmocka_unit_test(test_observation_json_ignores_unknown_members),
        cmocka_unit_test(test_observation_json_reads_an_empty_observation),
        cmocka_unit_test(test_observation_json_translates_tiles_to_row_and_col_zero),
        cmocka_unit_test(test_observation_json_translates_unknown_cells_alone_by_their_minimum),
        cmocka_unit_test(test_observation_json_takes_a_layout_of_21_by_21),
        cmocka_unit_test(test_observation_json_refuses_text_that_is_not_json),
        cmocka_unit_test(test_observation_json_refuses_what_is_not_an_object),
        cmocka_unit_test(test_observation_json_refuses_a_missing_or_other_game),
        cmocka_unit_test(test_observation_json_refuses_missing_or_bad_tiles),
        cmocka_unit_test(test_observation_json_refuses_too_many_tiles),
        cmocka_unit_test(test_observation_json_refuses_bad_positions),
        cmocka_unit_test(test_observation_json_refuses_two_tiles_in_one_place),
        cmocka_unit_test(test_observation_json_refuses_a_layout_beyond_21_by_21),
        cmocka_unit_test(test_observation_json_refuses_a_bad_type),
        cmocka_unit_test(test_observation_json_refuses_a_bad_top),
        cmocka_unit_test(test_observation_json_refuses_a_ninth_colour),
        cmocka_unit_test(test_observation_json_refuses_a_bad_height),
        cmocka_unit_test(test_observation_json_refuses_a_height_that_contradicts_the_top),
        cmocka_unit_test(test_observation_json_reads_a_second_height),
        cmocka_unit_test(test_observation_json_refuses_a_bad_token),
        cmocka_unit_test(test_observation_json_refuses_sandstorm_and_caravan_on_the_table),
        cmocka_unit_test(test_observation_json_refuses_a_stack_that_disagrees),
        cmocka_unit_test(test_observation_json_refuses_a_stack_of_bad_colours),
        cmocka_unit_test(test_observation_json_refuses_a_bad_confidence),
        cmocka_unit_test(test_observation_json_refuses_bad_unknown_cells),
        cmocka_unit_test(test_observation_json_refuses_a_cell_both_tile_and_unknown),
        cmocka_unit_test(test_observation_json_reports_into_any_buffer),
        cmocka_unit_test(test_observation_json_writes_the_compact_format),
        cmocka_unit_test(test_observation_json_writes_the_pretty_format),
        cmocka_unit_test(test_observation_json_writes_in_row_major_order_translated),
        cmocka_unit_test(test_observation_json_writes_what_it_cannot_say_as_unseen),
        cmocka_unit_test(test_observation_json_round_trips_hand_built_observations),
        cmocka_unit_test(test_observation_json_round_trips_random_games),
        cmocka_unit_test(test_observation_json_loads_a_file),
        cmocka_unit_test(test_observation_json_fixture_is_the_scripted_example),
        cmocka_unit_test(test_observation_json_reads_the_fixture),
        cmocka_unit_test(test_observation_json_fuzz_never_crashes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
