/*
 * A random legal game of Expedition Luxor, played as the box is: each seat's tiles stacked by
 * back number (D-EL-1) and shuffled per number, a hand of 2, the start layout from the 1-tiles,
 * action tokens shuffled with a hand of 3. Every move goes through el_apply, so a random game
 * is also a test of the engine: a refusal of its own move is a bug, reported as such.
 */
#include "expedition_luxor_internal.h"
#include "rules_random.h"

#include <stdio.h>
#include <string.h>

typedef struct seat_box {
    uint8_t hand[2];
    int hand_count;
    uint8_t stack[20];
    int stack_next;
    uint8_t tokens[8];
    int token_next;
    uint8_t token_hand[3];
    int token_count;
} seat_box;

typedef struct game_writer {
    void (*emit)(void *context, const char *line);
    void *context;
} game_writer;

static void write_move(const game_writer *writer, const el_state *state, int seat,
                       const el_move *move)
{
    if (!writer->emit)
        return;
    char line[128];
    int n = snprintf(line, sizeof line, "%s: ", state->config.colours[seat]);
    el_format_move(move, line + n, sizeof line - (size_t)n);
    writer->emit(writer->context, line);
}

static el_status play(el_state *state, const el_move *move, const game_writer *writer,
                      el_error *error)
{
    int seat = state->active;
    el_error reason;
    el_status status = el_apply(state, move, &reason);
    if (status != EL_OK) {
        char text[96];
        el_format_move(move, text, sizeof text);
        if (error)
            snprintf(error->message, sizeof error->message,
                     "the engine refused its random move %.40s: %.70s", text, reason.message);
        return status;
    }
    write_move(writer, state, seat, move);
    return EL_OK;
}

/* Places one tile from the hand at random: a random legal spot, for a camp a random count
 * and movement among the legal ones. */
static el_status place_random_tile(el_state *state, seat_box *box, uint64_t *rng,
                                   const game_writer *writer, el_error *error)
{
    int pick = rules_random_below(rng, box->hand_count);
    int type = box->hand[pick];
    int8_t positions[EL_MAX_POSITIONS][2];
    int count = el_legal_positions(state, positions, EL_MAX_POSITIONS);
    if (count == 0) {
        if (error)
            snprintf(error->message, sizeof error->message, "no place for a tile in a random game");
        return EL_ILLEGAL;
    }
    int at = rules_random_below(rng, count);
    el_move options[512];
    size_t option_count =
        el_placements_at(state, type, positions[at][0], positions[at][1], options, 512);
    if (option_count > 512)
        option_count = 512;
    el_status status = play(state, &options[rules_random_below(rng, (int)option_count)], writer, error);
    if (status != EL_OK)
        return status;
    box->hand[pick] = box->hand[--box->hand_count];
    if (box->stack_next < 20)
        box->hand[box->hand_count++] = box->stack[box->stack_next++];
    return EL_OK;
}

static el_status use_random_token(el_state *state, seat_box *box, uint64_t *rng,
                                  const game_writer *writer, el_error *error)
{
    int pick = rules_random_below(rng, box->token_count);
    el_move options[256];
    size_t count = el_legal_token_moves(state, (el_token)box->token_hand[pick], options, 256);
    if (count == 0)
        return EL_OK;
    if (count > 256)
        count = 256;
    el_status status = play(state, &options[rules_random_below(rng, (int)count)], writer, error);
    if (status != EL_OK)
        return status;
    box->token_hand[pick] = box->token_hand[--box->token_count];
    if (box->token_next < 8)
        box->token_hand[box->token_count++] = box->tokens[box->token_next++];
    return EL_OK;
}

el_status el_random_game(el_state *state, uint64_t seed,
                         void (*emit)(void *context, const char *line), void *context,
                         el_error *error)
{
    el_config config = state->config;
    el_status status = el_init(state, &config, error);
    if (status != EL_OK)
        return status;
    uint64_t rng = seed;
    game_writer writer = {emit, context};
    int seats = config.seats;

    seat_box boxes[EL_MAX_SEATS];
    el_start_tile start[2 * EL_MAX_SEATS];
    uint8_t start_types[2 * EL_MAX_SEATS];
    for (int s = 0; s < seats; s++) {
        seat_box *box = &boxes[s];
        memset(box, 0, sizeof *box);
        /* The four 1-tiles: keep the camp and one other, two go to the middle. */
        uint8_t ones[3] = {el_deck_group[0][1], el_deck_group[0][2], el_deck_group[0][3]};
        rules_random_shuffle(&rng, ones, 3);
        start_types[2 * s] = ones[0];
        start_types[2 * s + 1] = ones[1];
        box->hand[0] = EL_DESERT_CAMP;
        box->hand[1] = ones[2];
        box->hand_count = 2;
        for (int g = 1; g < 5; g++) {
            memcpy(box->stack + 5 * (g - 1), el_deck_group[g], 5);
            rules_random_shuffle(&rng, box->stack + 5 * (g - 1), 5);
        }
        for (int t = 0; t < 8; t++)
            box->tokens[t] = (uint8_t)(EL_BOAT + t / 2);
        rules_random_shuffle(&rng, box->tokens, 8);
        box->token_count = 3;
        memcpy(box->token_hand, box->tokens, 3);
        box->token_next = 3;
    }
    /* D-EL-2: a rectangle two tiles deep, the middle tiles in any order. */
    rules_random_shuffle(&rng, start_types, 2 * seats);
    for (int i = 0; i < 2 * seats; i++)
        start[i] = (el_start_tile){.row = (int8_t)(i / seats), .col = (int8_t)(i % seats),
                                   .type = start_types[i]};
    if ((status = el_start(state, start, 2 * seats, error)) != EL_OK)
        return status;
    if (emit) {
        char line[256];
        el_format_start(state, line, sizeof line);
        emit(context, line);
    }

    const el_move end = {.kind = EL_MOVE_END, .direction = EL_NO_DIRECTION};
    const el_move pass = {.kind = EL_MOVE_PASS, .direction = EL_NO_DIRECTION};
    while (state->phase == EL_PHASE_PLAY) {
        int seat = state->active;
        seat_box *box = &boxes[seat];
        if (el_tiles_left(state, seat) == 0) {
            if ((status = play(state, &pass, &writer, error)) != EL_OK)
                return status;
            continue;
        }
        do {
            if ((status = place_random_tile(state, box, &rng, &writer, error)) != EL_OK)
                return status;
        } while (state->placed_this_turn < 3 && el_tiles_left(state, seat) > 0 &&
                 rules_random_below(&rng, 2) == 0);
        if (config.expansion && box->token_count > 0 && rules_random_below(&rng, 2) == 0 &&
            el_has_adventurer_on_mountain(state, seat) &&
            (status = use_random_token(state, box, &rng, &writer, error)) != EL_OK)
            return status;
        if ((status = play(state, &end, &writer, error)) != EL_OK)
            return status;
    }
    return EL_OK;
}
