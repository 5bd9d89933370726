/* Luxor seen through the game-agnostic rules_engine of the game table. */
#include "luxor_internal.h"
#include "rules.h"

#include <stdio.h>
#include <string.h>

static rules_status lx_engine_init(void *state, const rules_options *options, char *error,
                                   size_t size)
{
    lx_config config;
    lx_config_default(&config);
    config.seats = options->seats;
    if (options->colour_count > 0) {
        if (options->colour_count != options->seats) {
            snprintf(error, size, "%d colours for %d players", options->colour_count,
                     options->seats);
            return RULES_BAD_CONFIG;
        }
        for (int i = 0; i < options->colour_count && i < LX_MAX_SEATS; i++)
            snprintf(config.colours[i], LX_COLOUR_MAX, "%s", options->colours[i]);
    }
    unsigned known = RULES_FLAG_CURSE | RULES_FLAG_SPHINX | RULES_FLAG_TILE_PAIRS;
    if (options->flags & ~known) {
        snprintf(error, size, "an option Luxor does not have");
        return RULES_BAD_CONFIG;
    }
    config.curse = (options->flags & RULES_FLAG_CURSE) != 0;
    config.sphinx = (options->flags & RULES_FLAG_SPHINX) != 0;
    config.tile_pairs = (options->flags & RULES_FLAG_TILE_PAIRS) != 0;
    lx_error reason;
    if (lx_init(state, &config, &reason) != LX_OK) {
        snprintf(error, size, "%s", reason.message);
        return RULES_BAD_CONFIG;
    }
    return RULES_OK;
}

static rules_status lx_engine_play_line(void *state, const char *line, rules_played *played,
                                        char *error, size_t size)
{
    lx_state *game = state;
    int seat = game->active;
    lx_line parsed;
    lx_error reason;
    lx_status status = lx_play_line(game, line, &parsed, &reason);
    if (status != LX_OK) {
        snprintf(error, size, "%s", reason.message);
        return status == LX_BAD_NOTATION ? RULES_BAD_NOTATION : RULES_ILLEGAL;
    }
    played->acted = parsed.kind != LX_LINE_EMPTY;
    played->seat = -1;
    played->notation[0] = '\0';
    if (parsed.kind == LX_LINE_PILLARS) {
        lx_format_pillars(game, played->notation, sizeof played->notation);
    } else if (parsed.kind == LX_LINE_MOVE) {
        int kind = parsed.move.kind;
        if (kind == LX_MOVE_DROP || kind == LX_MOVE_SCARABS)
            played->seat = seat;
        lx_format_move(game, &parsed.move, played->notation, sizeof played->notation);
    }
    return RULES_OK;
}

static int lx_engine_seat_count(const void *state)
{
    return ((const lx_state *)state)->config.seats;
}

static const char *lx_engine_colour(const void *state, int seat)
{
    return ((const lx_state *)state)->config.colours[seat];
}

static int lx_engine_active_seat(const void *state)
{
    return ((const lx_state *)state)->active;
}

static bool lx_engine_is_over(const void *state)
{
    return ((const lx_state *)state)->phase == LX_PHASE_OVER;
}

static void lx_engine_scores(const void *state, int32_t *scores)
{
    int32_t all[LX_MAX_SEATS];
    lx_scores(state, all);
    memcpy(scores, all, sizeof(int32_t) * (size_t)lx_engine_seat_count(state));
}

static void lx_engine_ranks(const void *state, int32_t *ranks)
{
    int32_t all[LX_MAX_SEATS];
    lx_ranks(state, all);
    memcpy(ranks, all, sizeof(int32_t) * (size_t)lx_engine_seat_count(state));
}

static rules_status lx_engine_random_game(void *state, uint64_t seed,
                                          void (*emit)(void *context, const char *line),
                                          void *context, char *error, size_t size)
{
    lx_error reason;
    if (lx_random_game(state, seed, emit, context, &reason) == LX_OK)
        return RULES_OK;
    snprintf(error, size, "%s", reason.message);
    return RULES_ILLEGAL;
}

/* counters: 0 sarcophagi held, 1 of them without a value entered yet */
static int lx_engine_counter(const void *state, int seat, int counter)
{
    return counter == 0 ? lx_sarcophagi(state, seat) : lx_unvalued(state, seat);
}

const rules_engine lx_engine = {
    .state_size = sizeof(lx_state),
    .init = lx_engine_init,
    .play_line = lx_engine_play_line,
    .seat_count = lx_engine_seat_count,
    .colour = lx_engine_colour,
    .active_seat = lx_engine_active_seat,
    .is_over = lx_engine_is_over,
    .scores = lx_engine_scores,
    .ranks = lx_engine_ranks,
    .random_game = lx_engine_random_game,
    .counter_count = 2,
    .counter_names = {"sarcophagi", "unvalued"},
    .seat_counter = lx_engine_counter,
    .help =
        "Luxor (luxor), 2-4 players, colours red, blue, green, yellow by default:\n"
        "  --curse           the Curse of the Pharaoh variant\n"
        "  --sphinx          the Eyes of the Sphinx variant (pairs along whole lines)\n"
        "  --tile-pairs      a tile's own two animals pair (D-LX-3's option)\n"
        "  One action a line, # comments, an optional `colour: ` prefix on drop and scarabs\n"
        "  lines that must name the seat to play. Animals: camel mule snake hippo ibis\n"
        "  crocodile cat; camel< looks left, camel> looks right; slots 1-8 from the left:\n"
        "  pillars camel mule snake hippo ibis crocodile cat    the pillars, left to right\n"
        "  drop 3 camel< mule>                 a tile that makes no pair\n"
        "  drop 4 camel> snake<, camel+, snake  its pairs in the order resolved; + places an\n"
        "                                      archaeologist, camel+hippo moves yours from hippo\n"
        "  curse camel mule snake, red gives hippo 1-eye to blue   a curse round (--curse)\n"
        "  scarabs camel to snake | scarabs none   each seat once when the wall is full\n"
        "  value camel 2-eye 6 | pharaoh red camel   hidden values, entered when known\n",
};
