/* Odyssée-land seen through the game-agnostic rules_engine of the game table. */
#include "odysseeland_internal.h"
#include "rules.h"

#include <stdio.h>
#include <string.h>

static rules_status od_engine_init(void *state, const rules_options *options, char *error,
                                   size_t size)
{
    od_config config;
    od_config_default(&config, options->seats, options->adventure ? options->adventure : 1);
    if (options->colour_count > 0) {
        if (options->colour_count != options->seats) {
            snprintf(error, size, "%d colours for %d players", options->colour_count,
                     options->seats);
            return RULES_BAD_CONFIG;
        }
        for (int i = 0; i < options->colour_count && i < OD_MAX_SEATS; i++)
            snprintf(config.colours[i], OD_COLOUR_MAX, "%s", options->colours[i]);
    }
    if (options->flags & ~RULES_FLAG_COLOSSAL) {
        snprintf(error, size, "an option Odyssée-land does not have");
        return RULES_BAD_CONFIG;
    }
    config.colossal = options->flags & RULES_FLAG_COLOSSAL;
    od_error reason;
    if (od_init(state, &config, od_board_get(options->board), &reason) != OD_OK) {
        snprintf(error, size, "%s", reason.message);
        return RULES_BAD_CONFIG;
    }
    return RULES_OK;
}

static rules_status od_engine_play_line(void *state, const char *line, rules_played *played,
                                        char *error, size_t size)
{
    od_state *game = state;
    od_state before = *game;
    od_line parsed;
    od_error reason;
    od_status status = od_play_line(game, line, &parsed, &reason);
    if (status != OD_OK) {
        snprintf(error, size, "%s", reason.message);
        return status == OD_BAD_NOTATION ? RULES_BAD_NOTATION : RULES_ILLEGAL;
    }
    played->acted = parsed.kind != OD_LINE_EMPTY;
    played->seat = parsed.kind == OD_LINE_TURN     ? before.active
                   : parsed.kind == OD_LINE_REVEAL ? parsed.reveal.seat : -1;
    played->notation[0] = '\0';
    if (played->acted)
        od_format(&before, &parsed, played->notation, sizeof played->notation);
    return RULES_OK;
}

static int od_engine_seat_count(const void *state)
{
    return ((const od_state *)state)->config.seats;
}

static const char *od_engine_colour(const void *state, int seat)
{
    return ((const od_state *)state)->config.colours[seat];
}

static int od_engine_active_seat(const void *state)
{
    return ((const od_state *)state)->active;
}

static bool od_engine_is_over(const void *state)
{
    return ((const od_state *)state)->phase == OD_PHASE_OVER;
}

static void od_engine_scores(const void *state, int32_t *scores)
{
    od_scores(state, scores);
}

static void od_engine_ranks(const void *state, int32_t *ranks)
{
    od_ranks(state, ranks);
}

static rules_status od_engine_random_game(void *state, uint64_t seed,
                                          void (*emit)(void *context, const char *line),
                                          void *context, char *error, size_t size)
{
    od_error reason;
    if (od_random_game(state, seed, emit, context, &reason) == OD_OK)
        return RULES_OK;
    snprintf(error, size, "%s", reason.message);
    return RULES_ILLEGAL;
}

/* counters: 0 adventurers in play, 1 companions with them, 2 creatures defeated, 3 gold */
static int od_engine_counter(const void *state, int seat, int counter)
{
    const od_state *game = state;
    int n = 0;
    switch (counter) {
    case 0:
        return od_adventurers_left(game, seat);
    case 1:
        for (int p = 0; p < OD_PLACES; p++)
            n += game->places[p].companions[seat] + 5 * game->places[p].supers[seat];
        return n;
    case 2:
        return game->seat[seat].creatures;
    default:
        n = game->seat[seat].gold;
        for (int p = 0; p < OD_PLACES; p++)
            n += game->places[p].gold[seat];
        return n;
    }
}

const rules_engine od_engine = {
    .state_size = sizeof(od_state),
    .init = od_engine_init,
    .play_line = od_engine_play_line,
    .seat_count = od_engine_seat_count,
    .colour = od_engine_colour,
    .active_seat = od_engine_active_seat,
    .is_over = od_engine_is_over,
    .scores = od_engine_scores,
    .ranks = od_engine_ranks,
    .random_game = od_engine_random_game,
    .counter_count = 4,
    .counter_names = {"adventurers", "companions", "creatures", "gold"},
    .seat_counter = od_engine_counter,
    .help =
        "Odyssée-land (odysseeland), 2-4 players, colours black, green, violet, orange:\n"
        "  --adventure K     1 The Fellowship (default), 2 The Magnificent, 3 Escape to the\n"
        "                    Cities, 4 The Princess, 5 The Uprising (together), 6 Free the King\n"
        "  --colossal        adventure 4: the colossal giant\n"
        "  --board FILE      the map (default: the built-in stand-in board)\n"
        "  The first line is the setup, then one turn a line, its steps separated by commas:\n"
        "  setup A1, B5, D7 creature 10, H4, ...  the 8 setup cards (a fog card: its creature's\n"
        "                                       value, and one more card)\n"
        "  setup creature D7 10, creature I7 8, ...   adventures 5 and 6: the 14 creatures\n"
        "  turn J3, turn D7 creature 10, turn I4   the cards turned (2, one more per fog card)\n"
        "  row-2 east 3 | column-A south 4 | C3 south 2   a move: from a start space or a field\n"
        "  C3 south 2 fight swords 2 1 dice 5 3 herbs 4 gold 1 rerolls 1   a fight: what is\n"
        "                                       spent (violet swords 2 dice 4 orange herbs 3)\n"
        "  turn I7 to K7 fight ...              adventure 5: where the creature advances\n"
        "  K7 south 2 only violet               adventure 5: one colour of a troop moves\n"
        "  E4 south 3 giant fight ...           adventure 4: the giant at the princess's field\n"
        "  buy blue key                         adventure 4 (yellow, green, blue, grey, red)\n"
        "  super K7 | ... displace west | ... fight ... king G6   adventures 5 and 6\n"
        "  reveal black herbs 3 4 swords 2 0    adventure 2, at the end\n"
        "  pass                                 a turn without cards or moves\n",
};
