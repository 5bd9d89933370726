/* Expedition Luxor seen through the game-agnostic rules_engine of the game table. */
#include "expedition_luxor_internal.h"
#include "rules.h"

#include <stdio.h>
#include <string.h>

static rules_status el_engine_init(void *state, const rules_options *options, char *error,
                                   size_t size)
{
    el_config config;
    el_config_default(&config);
    config.seats = options->seats;
    if (options->colour_count > 0) {
        if (options->colour_count != options->seats) {
            snprintf(error, size, "%d colours for %d players", options->colour_count,
                     options->seats);
            return RULES_BAD_CONFIG;
        }
        for (int i = 0; i < options->colour_count && i < EL_MAX_SEATS; i++)
            snprintf(config.colours[i], EL_COLOUR_MAX, "%s", options->colours[i]);
    }
    unsigned known = RULES_FLAG_EXPANSION | RULES_FLAG_CHECK_DECK;
    if (options->flags & ~known) {
        snprintf(error, size, "an option Expedition Luxor does not have");
        return RULES_BAD_CONFIG;
    }
    config.expansion = (options->flags & RULES_FLAG_EXPANSION) != 0;
    config.check_deck = (options->flags & RULES_FLAG_CHECK_DECK) != 0;
    el_error reason;
    if (el_init(state, &config, &reason) != EL_OK) {
        snprintf(error, size, "%s", reason.message);
        return RULES_BAD_CONFIG;
    }
    return RULES_OK;
}

static rules_status el_engine_play_line(void *state, const char *line, rules_played *played,
                                        char *error, size_t size)
{
    el_state *game = state;
    int seat = game->active;
    el_line parsed;
    el_error reason;
    el_status status = el_play_line(game, line, &parsed, &reason);
    if (status == EL_OK) {
        played->acted = parsed.kind != EL_LINE_EMPTY;
        played->seat = parsed.kind == EL_LINE_MOVE ? seat : -1;
        played->notation[0] = '\0';
        if (parsed.kind == EL_LINE_START)
            el_format_start(game, played->notation, sizeof played->notation);
        else if (parsed.kind == EL_LINE_MOVE)
            el_format_move(&parsed.move, played->notation, sizeof played->notation);
        return RULES_OK;
    }
    snprintf(error, size, "%s", reason.message);
    return status == EL_BAD_NOTATION ? RULES_BAD_NOTATION : RULES_ILLEGAL;
}

static int el_engine_seat_count(const void *state)
{
    return ((const el_state *)state)->config.seats;
}

static const char *el_engine_colour(const void *state, int seat)
{
    return ((const el_state *)state)->config.colours[seat];
}

static int el_engine_active_seat(const void *state)
{
    return ((const el_state *)state)->active;
}

static bool el_engine_is_over(const void *state)
{
    return ((const el_state *)state)->phase == EL_PHASE_OVER;
}

static void el_engine_scores(const void *state, int32_t *scores)
{
    int32_t all[EL_MAX_SEATS];
    el_scores(state, all);
    memcpy(scores, all, sizeof(int32_t) * (size_t)el_engine_seat_count(state));
}

static void el_engine_ranks(const void *state, int32_t *ranks)
{
    int32_t all[EL_MAX_SEATS];
    el_ranks(state, all);
    memcpy(ranks, all, sizeof(int32_t) * (size_t)el_engine_seat_count(state));
}

static rules_status el_engine_random_game(void *state, uint64_t seed,
                                          void (*emit)(void *context, const char *line),
                                          void *context, char *error, size_t size)
{
    el_error reason;
    if (el_random_game(state, seed, emit, context, &reason) == EL_OK)
        return RULES_OK;
    snprintf(error, size, "%s", reason.message);
    return RULES_ILLEGAL;
}

/* counters: 0 adventurers left in supply, 1 adventurers captured */
static int el_engine_counter(const void *state, int seat, int counter)
{
    return counter == 0 ? ((const el_state *)state)->supply[seat] : el_captured(state, seat);
}

static void el_engine_observe(const void *state, void *observation)
{
    el_observe(state, observation);
}

/* Appends "colour: action" (or the bare action for the setup) as the explanation's next line. */
static void add_line(rules_explanation *explanation, const char *colour, const char *action)
{
    size_t used = strlen(explanation->lines);
    snprintf(explanation->lines + used, sizeof explanation->lines - used, "%s%s%s%s",
             used ? "\n" : "", colour ? colour : "", colour ? ": " : "", action);
    explanation->actions++;
}

/* In the setup the table is the start layout, laid at once; fewer tiles than it needs are a
 * layout still being laid, so the game waits (UNCHANGED, with what it waits for). */
static void reconcile_setup(const el_state *game, const el_observation *observation,
                            rules_reconciled *result)
{
    el_start_tile tiles[2 * EL_MAX_SEATS];
    int count;
    el_error reason;
    if (el_start_seen(game, observation, tiles, &count, &reason) != EL_OK) {
        bool laying = observation->unknown_count == 0 && count == observation->count &&
                      count < EL_START_TILES_PER_SEAT * game->config.seats;
        result->answer = laying ? RULES_UNCHANGED : RULES_UNEXPLAINED;
        snprintf(result->reason, sizeof result->reason, "%s", reason.message);
        return;
    }
    el_state started = *game;
    if (el_start(&started, tiles, count, &reason) != EL_OK) {
        result->answer = RULES_UNEXPLAINED;
        snprintf(result->reason, sizeof result->reason, "%s", reason.message);
        return;
    }
    char line[256];
    el_format_start(&started, line, sizeof line);
    result->answer = RULES_EXPLAINED;
    result->count = 1;
    add_line(&result->candidates[0], NULL, line);
}

static void el_engine_reconcile(const void *state, const void *observation,
                                rules_reconciled *result)
{
    const el_state *game = state;
    memset(result, 0, sizeof *result);
    if (game->phase == EL_PHASE_SETUP) {
        reconcile_setup(game, observation, result);
        return;
    }
    el_reconcile_result found;
    el_reconcile(game, observation, &found);
    static const rules_answer answers[] = {
        [EL_UNCHANGED] = RULES_UNCHANGED, [EL_EXPLAINED] = RULES_EXPLAINED,
        [EL_AMBIGUOUS] = RULES_AMBIGUOUS, [EL_UNEXPLAINED] = RULES_UNEXPLAINED};
    result->answer = answers[found.answer];
    result->search_cut = found.search_cut;
    result->more = found.more || found.count > RULES_CANDIDATES;
    snprintf(result->reason, sizeof result->reason, "%s", found.reason);
    result->count = found.count < RULES_CANDIDATES ? found.count : RULES_CANDIDATES;
    for (int e = 0; e < result->count; e++) {
        const el_explanation *explanation = &found.explanations[e];
        rules_explanation *out = &result->candidates[e];
        out->turns_ended = explanation->turns_ended;
        el_state replay = *game; /* to know who makes each move */
        for (int m = 0; m < explanation->count; m++) {
            char action[64];
            el_format_move(&explanation->moves[m], action, sizeof action);
            add_line(out, replay.config.colours[replay.active], action);
            el_apply(&replay, &explanation->moves[m], NULL);
        }
        out->actions -= explanation->hidden;
    }
}

static void el_engine_hidden_actions(const void *state, const void *observation,
                                     rules_reconciled *result)
{
    const el_state *game = state;
    memset(result, 0, sizeof *result);
    el_move moves[RULES_CANDIDATES + 1];
    size_t count = el_hidden_tokens(game, observation, moves, RULES_CANDIDATES + 1);
    result->answer = count ? RULES_AMBIGUOUS : RULES_UNCHANGED;
    result->more = count > RULES_CANDIDATES;
    count = result->more ? RULES_CANDIDATES : count;
    result->count = (int)count;
    for (size_t k = 0; k < count; k++) {
        char action[64];
        el_format_move(&moves[k], action, sizeof action);
        add_line(&result->candidates[k], game->config.colours[game->active], action);
        result->candidates[k].actions = 0; /* the table does not show it */
    }
}

static int el_engine_support(const void *state, const void *observation)
{
    return el_support(state, observation);
}

static void el_engine_note_misreads(const void *before, const void *after, const void *reading,
                                    void *misreads)
{
    el_note_misreads(before, after, reading, misreads);
}

static void el_engine_forgive(const void *state, const void *misreads, void *observation)
{
    el_forgive(state, misreads, observation);
}

static int el_engine_format_misreads(const void *state, const void *misreads, char *text,
                                     size_t size)
{
    return el_format_misreads(state, misreads, text, size);
}

static rules_status el_engine_parse_misreads(const void *state, const char *text,
                                             void *misreads, char *error, size_t size)
{
    el_error reason;
    if (el_parse_misreads(state, text, misreads, &reason) == EL_OK)
        return RULES_OK;
    snprintf(error, size, "%s", reason.message);
    return RULES_BAD_NOTATION;
}

/* A pass for a seat without tiles; an end when no tile and no token can follow. */
static bool el_engine_forced(const void *state, char *line, size_t size)
{
    const el_state *game = state;
    if (game->phase != EL_PHASE_PLAY)
        return false;
    int seat = game->active;
    const char *colour = game->config.colours[seat];
    if (game->placed_this_turn == 0) {
        if (el_tiles_left(game, seat) > 0)
            return false;
        snprintf(line, size, "%s: pass", colour);
        return true;
    }
    if (game->placed_this_turn < 3 && el_tiles_left(game, seat) > 0 && !game->token_this_turn)
        return false;
    for (int token = EL_BOAT; token < EL_TOKEN_TYPES; token++)
        if (el_legal_token_moves(game, (el_token)token, NULL, 0) > 0)
            return false;
    snprintf(line, size, "%s: end", colour);
    return true;
}

static bool el_engine_close_turn(const void *state, char *line, size_t size)
{
    const el_state *game = state;
    if (game->phase != EL_PHASE_PLAY)
        return false;
    const char *colour = game->config.colours[game->active];
    if (game->placed_this_turn > 0)
        snprintf(line, size, "%s: end", colour);
    else if (el_tiles_left(game, game->active) == 0)
        snprintf(line, size, "%s: pass", colour);
    else
        return false;
    return true;
}

const rules_engine el_engine = {
    .state_size = sizeof(el_state),
    .init = el_engine_init,
    .play_line = el_engine_play_line,
    .seat_count = el_engine_seat_count,
    .colour = el_engine_colour,
    .active_seat = el_engine_active_seat,
    .is_over = el_engine_is_over,
    .scores = el_engine_scores,
    .ranks = el_engine_ranks,
    .random_game = el_engine_random_game,
    .counter_count = 2,
    .counter_names = {"supply", "captured"},
    .seat_counter = el_engine_counter,
    .help =
        "Expedition Luxor (expedition-luxor), 2-4 players:\n"
        "  --expansion       the \"New Adventures\" action tokens\n"
        "  --check-deck      refuse tiles D-EL-1's deck order rules out\n"
        "  One action a line, # comments, an optional `colour: ` prefix that must name the\n"
        "  seat to play:\n"
        "  start desert@0,0 mountain@0,1 desert-temple@1,0 desert@1,1   the start layout, first\n"
        "  desert-temple@2,1                a tile at row 2, column 1\n"
        "  desert-camp@2,2 x5 > e 2 2       a camp with 5 adventurers; extras go east, 2 stop on\n"
        "                                   the first tile entered, 2 on the second\n"
        "  boat 1,1 > 4,4                   an action token from the own mountain at 1,1\n"
        "  end | pass                       end the turn | pass without tiles\n",
    .observation_size = sizeof(el_observation),
    .observe = el_engine_observe,
    .reconcile = el_engine_reconcile,
    .support = el_engine_support,
    .forced = el_engine_forced,
    .misreads_size = sizeof(el_misreads),
    .note_misreads = el_engine_note_misreads,
    .forgive = el_engine_forgive,
    .format_misreads = el_engine_format_misreads,
    .parse_misreads = el_engine_parse_misreads,
    .close_turn = el_engine_close_turn,
    .hidden_actions = el_engine_hidden_actions,
};
