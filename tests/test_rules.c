/* The game table: the four games, found by id, with their player counts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "rules.h"

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rules_table_lists_the_four_games),
        cmocka_unit_test(test_rules_find_by_id),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
