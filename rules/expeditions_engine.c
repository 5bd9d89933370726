/* Expéditions seen through the game-agnostic rules_engine of the game table. */
#include "expeditions_internal.h"
#include "rules.h"

#include <stdio.h>
#include <string.h>

static rules_status ex_engine_init(void *state, const rules_options *options, char *error,
                                   size_t size)
{
    ex_config config;
    ex_config_default(&config, options->seats);
    config.board = options->board;
    if (options->colour_count > 0) {
        if (options->colour_count != options->seats) {
            snprintf(error, size, "%d colours for %d players", options->colour_count,
                     options->seats);
            return RULES_BAD_CONFIG;
        }
        for (int i = 0; i < options->colour_count && i < EX_MAX_SEATS; i++)
            snprintf(config.colours[i], EX_COLOUR_MAX, "%s", options->colours[i]);
    }
    if (options->flags) {
        snprintf(error, size, "an option Expéditions does not have");
        return RULES_BAD_CONFIG;
    }
    ex_error reason;
    if (ex_init(state, &config, &reason) != EX_OK) {
        snprintf(error, size, "%s", reason.message);
        return RULES_BAD_CONFIG;
    }
    return RULES_OK;
}

static rules_status ex_engine_play_line(void *state, const char *line, rules_played *played,
                                        char *error, size_t size)
{
    ex_state *game = state;
    ex_state before = *game;
    ex_line parsed;
    ex_error reason;
    ex_status status = ex_play_line(game, line, &parsed, &reason);
    if (status != EX_OK) {
        snprintf(error, size, "%s", reason.message);
        return status == EX_BAD_NOTATION ? RULES_BAD_NOTATION : RULES_ILLEGAL;
    }
    played->acted = parsed.kind != EX_LINE_EMPTY;
    played->seat = -1;
    played->notation[0] = '\0';
    if (parsed.kind == EX_LINE_MOVE) {
        if (parsed.move.kind != EX_MOVE_OBJECTIVES)
            played->seat = before.active;
        ex_format_move(&before, &parsed.move, played->notation, sizeof played->notation);
    }
    return RULES_OK;
}

static int ex_engine_seat_count(const void *state)
{
    return ((const ex_state *)state)->config.seats;
}

static const char *ex_engine_colour(const void *state, int seat)
{
    return ((const ex_state *)state)->config.colours[seat];
}

static int ex_engine_active_seat(const void *state)
{
    return ((const ex_state *)state)->active;
}

static bool ex_engine_is_over(const void *state)
{
    return ((const ex_state *)state)->phase == EX_PHASE_OVER;
}

static void ex_engine_scores(const void *state, int32_t *scores)
{
    int32_t all[EX_MAX_SEATS];
    ex_scores(state, all);
    memcpy(scores, all, sizeof(int32_t) * (size_t)ex_engine_seat_count(state));
}

static void ex_engine_ranks(const void *state, int32_t *ranks)
{
    int32_t all[EX_MAX_SEATS];
    ex_ranks(state, all);
    memcpy(ranks, all, sizeof(int32_t) * (size_t)ex_engine_seat_count(state));
}

static rules_status ex_engine_random_game(void *state, uint64_t seed,
                                          void (*emit)(void *context, const char *line),
                                          void *context, char *error, size_t size)
{
    ex_error reason;
    if (ex_random_game(state, seed, emit, context, &reason) == EX_OK)
        return RULES_OK;
    snprintf(error, size, "%s", reason.message);
    return RULES_ILLEGAL;
}

/* counters: 0 cards laid, 1 cards in hand, 2 tokens recovered, 3 tickets */
static int ex_engine_counter(const void *state, int seat, int counter)
{
    const ex_state *game = state;
    switch (counter) {
    case 0:
        return ex_cards_laid(game, seat);
    case 1:
        return game->hand[seat];
    case 2:
        return game->tokens_recovered[seat];
    default:
        return game->tickets[seat];
    }
}

const rules_engine ex_engine = {
    .state_size = sizeof(ex_state),
    .init = ex_engine_init,
    .play_line = ex_engine_play_line,
    .seat_count = ex_engine_seat_count,
    .colour = ex_engine_colour,
    .active_seat = ex_engine_active_seat,
    .is_over = ex_engine_is_over,
    .scores = ex_engine_scores,
    .ranks = ex_engine_ranks,
    .random_game = ex_engine_random_game,
    .counter_count = 4,
    .counter_names = {"cards_laid", "in_hand", "tokens_recovered", "tickets"},
    .seat_counter = ex_engine_counter,
    .help =
        "Expéditions – Autour du Monde (expeditions), 2-6 players, colours green, purple,\n"
        "orange, black, white, pink by default; the expeditions are yellow, red and blue:\n"
        "  --board FILE      the map (default: the built-in stand-in world map)\n"
        "  One turn a line, its steps separated by commas, circles named by the board's ids,\n"
        "  # comments, an optional `colour: ` prefix naming the seat to play:\n"
        "  objectives troy angkor-wat tunguska el-dorado great-wall easter-island   setup\n"
        "  token harappa                        setup: a key location, seats in turn, 4 each\n"
        "  yellow rome                          an arrow to a circle joined to the tip\n"
        "  red b1, red caspian-sea              a blue circle's bonus arrow follows\n"
        "  red babylon, ticket red harappa, green claims harappa   a ticket's arrow; a claim\n"
        "  blue putorana-plateau, new objective troy   a common objective taken, the new card\n"
        "  ticket remove red | ticket swap      the other tickets (2 a turn at most)\n"
        "  red rome from babylon                after a loop: from a circle it visited\n"
        "  pass                                 only when no expedition can take an arrow\n",
};
