/* The game table: the four games, found by id, with their player counts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "board_file.h"
#include "rules.h"

#include <stdlib.h>
#include <string.h>

static void test_rules_table_lists_the_four_games(void **state)
{
    (void)state;
    size_t count = 0;
    const rules_game *games = rules_games(&count);
    assert_int_equal(count, 4);
    assert_string_equal(games[0].id, "expedition-luxor");
    assert_string_equal(games[1].id, "luxor");
    assert_string_equal(games[2].id, "expeditions");
    assert_string_equal(games[3].id, "odysseeland");
    for (size_t i = 0; i < count; i++) {
        assert_true(games[i].min_players >= 2);
        assert_true(games[i].max_players <= RULES_MAX_SEATS);
        assert_true(games[i].min_players <= games[i].max_players);
    }
}

static void test_rules_find_by_id(void **state)
{
    (void)state;
    const rules_game *game = rules_game_find("expeditions");
    assert_non_null(game);
    assert_int_equal(game->max_players, 6);
    assert_string_equal(rules_game_find("luxor")->title, "Luxor");
    assert_null(rules_game_find("chess"));
    assert_null(rules_game_find("Luxor"));
    assert_null(rules_game_find(""));
}

/* Every flag a game accepts has a command-line option and an archive key, each named once. */
static void test_rules_flags_are_named_once(void **state)
{
    (void)state;
    size_t count = 0, game_count = 0;
    const rules_flag *flags = rules_flags(&count);
    const rules_game *games = rules_games(&game_count);
    unsigned all = 0;
    for (size_t i = 0; i < count; i++) {
        assert_int_equal(flags[i].flag & (flags[i].flag - 1), 0); /* one bit */
        assert_int_equal(all & flags[i].flag, 0);
        all |= flags[i].flag;
        for (size_t j = 0; j < i; j++) {
            assert_string_not_equal(flags[i].option, flags[j].option);
            assert_string_not_equal(flags[i].key, flags[j].key);
        }
    }
    for (size_t g = 0; g < game_count; g++)
        assert_int_equal(games[g].flags & ~all, 0);
    assert_int_equal(rules_game_find("luxor")->flags,
                     RULES_FLAG_CURSE | RULES_FLAG_SPHINX | RULES_FLAG_TILE_PAIRS);
}

/* The handle of the board a game is played on when no file is given (0: none). */
static int builtin_board(const char *game)
{
    char id[64], error[256];
    int handle = board_file_load(game, NULL, id, sizeof id, error, sizeof error);
    if (handle < 0)
        fail_msg("%s", error);
    return handle;
}

/* The engines that exist play a random game through the game-agnostic interface alone. */
static void count_line(void *context, const char *line)
{
    (void)line;
    (*(int *)context)++;
}

static void test_rules_engines_play_through_the_table(void **state)
{
    (void)state;
    size_t count = 0;
    const rules_game *games = rules_games(&count);
    for (size_t g = 0; g < count; g++) {
        const rules_engine *engine = games[g].engine;
        if (!engine)
            continue;
        void *game = calloc(1, engine->state_size);
        rules_options options = {.seats = games[g].max_players, .board = builtin_board(games[g].id)};
        char error[256] = "";
        assert_int_equal(engine->init(game, &options, error, sizeof error), RULES_OK);
        int lines = 0;
        assert_int_equal(engine->random_game(game, 42, count_line, &lines, error, sizeof error),
                         RULES_OK);
        assert_true(lines > 10);
        assert_true(engine->is_over(game));
        int32_t ranks[RULES_MAX_SEATS];
        engine->ranks(game, ranks);
        bool winner = false;
        for (int s = 0; s < engine->seat_count(game); s++)
            winner |= ranks[s] == 1;
        assert_true(winner);
        assert_true(engine->counter_count >= 1 && engine->counter_count <= RULES_MAX_COUNTERS);
        options.flags = 1u << 30; /* no game has it */
        assert_int_equal(engine->init(game, &options, error, sizeof error), RULES_BAD_CONFIG);
        free(game);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rules_table_lists_the_four_games),
        cmocka_unit_test(test_rules_find_by_id),
        cmocka_unit_test(test_rules_flags_are_named_once),
        cmocka_unit_test(test_rules_engines_play_through_the_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
