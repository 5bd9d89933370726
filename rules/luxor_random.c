/*
 * A random legal game of Luxor, played as the box is: 49 tiles over 7 animals (each animal on 14
 * halves, 7 looking each way), hands of 3, the curse variant's two piles with its 6 curse tiles,
 * sarcophagus values shuffled within their eye category, pharaoh cards dealt. Every move goes
 * through lx_apply, so a random game is also a test of the engine: a refusal of its own move is
 * a bug, reported as such.
 */
#include "luxor_internal.h"
#include "rules_random.h"

#include <stdio.h>
#include <string.h>

#define CURSE_MARK LX_TILES /* pile entries from here on are curse tiles */

typedef struct box {
    uint8_t tiles[LX_TILES][2];                 /* top and bottom windows */
    uint8_t pile[LX_TILES + LX_CURSE_TILES];
    int pile_count, pile_next;
    uint8_t hands[LX_MAX_SEATS][LX_HAND];
    int hand_count[LX_MAX_SEATS];
    uint8_t curses[LX_CURSE_TILES][3];
    uint8_t values[LX_ANIMALS][LX_EYES];
    uint8_t pharaoh[LX_MAX_SEATS];
    bool valued[LX_ANIMALS][LX_EYES]; /* entered already */
} box;

typedef struct game_writer {
    void (*emit)(void *context, const char *line);
    void *context;
} game_writer;

static lx_status play(lx_state *state, const lx_move *move, const game_writer *writer,
                      lx_error *error)
{
    char text[384] = ""; /* the longest drop: 28 characters and 14 pairs of 21 */
    if (writer->emit)
        lx_format_move(state, move, text, sizeof text);
    lx_error reason;
    if (lx_apply(state, move, &reason) != LX_OK) {
        if (!text[0])
            lx_format_move(state, move, text, sizeof text);
        snprintf(error->message, sizeof error->message,
                 "the engine refused its random move %.50s: %.70s", text, reason.message);
        return LX_ILLEGAL;
    }
    if (writer->emit)
        writer->emit(writer->context, text);
    return LX_OK;
}

static void fill_box(box *b, const lx_config *config, uint64_t *rng)
{
    memset(b, 0, sizeof *b);
    uint8_t halves[2 * LX_TILES];
    for (int i = 0; i < 2 * LX_TILES; i++)
        halves[i] = LX_WINDOW(i / 14, (i % 14) & 1);
    rules_random_shuffle(rng, halves, 2 * LX_TILES);
    for (int i = 0; i < LX_TILES; i++) {
        b->tiles[i][0] = halves[2 * i];
        b->tiles[i][1] = halves[2 * i + 1];
    }
    uint8_t order[LX_TILES];
    for (int i = 0; i < LX_TILES; i++)
        order[i] = (uint8_t)i;
    rules_random_shuffle(rng, order, LX_TILES);
    memcpy(b->pile, order, LX_TILES);
    b->pile_count = LX_TILES;
    if (config->curse) {
        /* LX-ENGINE-3: the starting pile of 20 (hands included), then the other 29 with the
         * curse tiles */
        for (int c = 0; c < LX_CURSE_TILES; c++) {
            b->pile[b->pile_count++] = (uint8_t)(CURSE_MARK + c);
            uint8_t animals[LX_ANIMALS] = {0, 1, 2, 3, 4, 5, 6};
            rules_random_shuffle(rng, animals, LX_ANIMALS);
            memcpy(b->curses[c], animals, 3);
        }
        rules_random_shuffle(rng, b->pile + LX_FIRST_PILE, b->pile_count - LX_FIRST_PILE);
    }
    static const uint8_t values[LX_EYES][LX_ANIMALS] = {
        {3, 3, 3, 3, 4, 4, 4}, {5, 5, 5, 5, 6, 6, 6}, {7, 7, 7, 8, 8, 10, 10}};
    for (int e = 0; e < LX_EYES; e++) {
        uint8_t row[LX_ANIMALS];
        memcpy(row, values[e], LX_ANIMALS);
        rules_random_shuffle(rng, row, LX_ANIMALS);
        for (int a = 0; a < LX_ANIMALS; a++)
            b->values[a][e] = row[a];
    }
    uint8_t cards[LX_ANIMALS] = {0, 1, 2, 3, 4, 5, 6};
    rules_random_shuffle(rng, cards, LX_ANIMALS);
    memcpy(b->pharaoh, cards, LX_MAX_SEATS);
    for (int s = 0; s < config->seats; s++)
        for (int i = 0; i < LX_HAND; i++)
            b->hands[s][b->hand_count[s]++] = b->pile[b->pile_next++];
}

/* A curse round for a turned curse tile: someone finds the triple (or nobody does), an
 * opponent holding a sarcophagus gives one. */
static lx_status curse_round(lx_state *state, box *b, int curse, uint64_t *rng,
                             const game_writer *writer, lx_error *error)
{
    lx_move move = {.kind = LX_MOVE_CURSE, .giver = LX_NOBODY, .finder = LX_NOBODY};
    memcpy(move.curse, b->curses[curse], 3);
    int seats = state->config.seats;
    if (lx_curse_find(state, move.curse, NULL, 0) > 0 && rules_random_below(rng, 4) != 0) {
        int finder = rules_random_below(rng, seats);
        uint8_t held[LX_ANIMALS * LX_EYES][2];
        int count = 0;
        for (int a = 0; a < LX_ANIMALS; a++)
            for (int e = 0; e < LX_EYES; e++)
                if (state->owner[a][e] != LX_NOBODY && state->owner[a][e] != finder)
                    held[count][0] = (uint8_t)a, held[count++][1] = (uint8_t)e;
        if (count) {
            int pick = rules_random_below(rng, count);
            move.animal = held[pick][0];
            move.eyes = (uint8_t)(held[pick][1] + 1);
            move.giver = state->owner[move.animal][held[pick][1]];
            move.finder = (int8_t)finder;
        }
    }
    return play(state, &move, writer, error);
}

static lx_status enter_values(lx_state *state, box *b, const game_writer *writer, lx_error *error)
{
    for (int a = 0; a < LX_ANIMALS; a++)
        for (int e = 0; e < LX_EYES; e++)
            if (state->owner[a][e] != LX_NOBODY && !b->valued[a][e]) {
                lx_move move = {.kind = LX_MOVE_VALUE, .animal = (uint8_t)a,
                                .eyes = (uint8_t)(e + 1), .value = b->values[a][e]};
                b->valued[a][e] = true;
                lx_status status = play(state, &move, writer, error);
                if (status != LX_OK)
                    return status;
            }
    return LX_OK;
}

/* One turn: a tile from the hand into a slot with room, its pairs in a random order, an
 * archaeologist placed more often than not where that is allowed. */
static lx_status random_drop(lx_state *state, box *b, uint64_t *rng, const game_writer *writer,
                             lx_error *error)
{
    int seat = state->active;
    if (b->hand_count[seat] == 0) {
        snprintf(error->message, sizeof error->message, "a seat with no tile in a random game");
        return LX_ILLEGAL;
    }
    int pick = rules_random_below(rng, b->hand_count[seat]);
    uint8_t tile = b->hands[seat][pick];
    b->hands[seat][pick] = b->hands[seat][--b->hand_count[seat]];
    uint8_t slots[LX_SLOTS];
    int slot_count = 0;
    for (int s = 0; s < LX_SLOTS; s++)
        if (state->filled[s] * 2 < LX_ROWS)
            slots[slot_count++] = (uint8_t)s;
    lx_move move = {.kind = LX_MOVE_DROP, .slot = slots[rules_random_below(rng, slot_count)],
                    .top = b->tiles[tile][0], .bottom = b->tiles[tile][1]};
    /* the choices are made on a scratch copy, step by step, as the player makes them */
    lx_state scratch = *state;
    lx_turn turn;
    lx_turn_begin(&scratch, &turn, move.slot, move.top, move.bottom);
    uint8_t order[LX_MAX_PAIRS];
    for (int i = 0; i < turn.pair_count; i++)
        order[i] = (uint8_t)i;
    rules_random_shuffle(rng, order, turn.pair_count);
    for (int i = 0; i < turn.pair_count; i++) {
        lx_resolution r = {.animal = turn.pairs[order[i]].animal, .place = LX_PLACE_NONE};
        if (rules_random_below(rng, 5) < 3) {
            lx_resolution placing = r;
            placing.place = scratch.hand[seat] ? LX_PLACE_HAND : LX_PLACE_MOVED;
            if (placing.place == LX_PLACE_MOVED) {
                uint8_t own[LX_ANIMALS];
                int own_count = 0;
                for (int a = 0; a < LX_ANIMALS; a++)
                    if (scratch.archaeologist[a] == seat && a != r.animal)
                        own[own_count++] = (uint8_t)a;
                placing.from = own_count ? own[rules_random_below(rng, own_count)] : 0;
            }
            if (lx_turn_allows(&scratch, &turn, &placing))
                r = placing;
        }
        if (lx_turn_resolve(&scratch, &turn, &r, error) != LX_OK)
            return LX_ILLEGAL;
        move.resolutions[move.count++] = r;
    }
    lx_status status = play(state, &move, writer, error);
    if (status != LX_OK || state->phase != LX_PHASE_PLAY)
        return status;
    /* sometimes the new sarcophagi are entered at once, as a scorekeeper might */
    if (rules_random_below(rng, 4) == 0 && (status = enter_values(state, b, writer, error)) != LX_OK)
        return status;
    /* the draw, with curse rounds for the curse tiles on top */
    while (b->pile_next < b->pile_count && b->pile[b->pile_next] >= CURSE_MARK) {
        int curse = b->pile[b->pile_next++] - CURSE_MARK;
        if ((status = curse_round(state, b, curse, rng, writer, error)) != LX_OK)
            return status;
    }
    if (b->pile_next < b->pile_count)
        b->hands[seat][b->hand_count[seat]++] = b->pile[b->pile_next++];
    return LX_OK;
}

/* A seat's end-game line: up to 3 random moves between its own pillars. */
static lx_status random_scarabs(lx_state *state, uint64_t *rng, const game_writer *writer,
                                lx_error *error)
{
    lx_move move = {.kind = LX_MOVE_SCARABS};
    lx_state scratch = *state;
    int wanted = rules_random_below(rng, 4);
    while (move.count < wanted) {
        uint8_t options[LX_ANIMALS * LX_ANIMALS][2];
        int count = 0;
        for (int from = 0; from < LX_ANIMALS; from++)
            for (int to = 0; to < LX_ANIMALS; to++)
                if (from != to && lx_scarab_move_allowed(&scratch, scratch.active, from, to, NULL))
                    options[count][0] = (uint8_t)from, options[count++][1] = (uint8_t)to;
        if (!count)
            break;
        int pick = rules_random_below(rng, count);
        lx_move_scarab(&scratch, options[pick][0], options[pick][1]);
        move.from[move.count] = options[pick][0];
        move.to[move.count++] = options[pick][1];
    }
    return play(state, &move, writer, error);
}

lx_status lx_random_game(lx_state *state, uint64_t seed,
                         void (*emit)(void *context, const char *line), void *context,
                         lx_error *error)
{
    lx_config config = state->config;
    lx_status status = lx_init(state, &config, error);
    if (status != LX_OK)
        return status;
    game_writer writer = {emit, context};
    uint64_t rng = seed;
    box *b = &(box){0};
    fill_box(b, &config, &rng);

    uint8_t order[LX_ANIMALS] = {0, 1, 2, 3, 4, 5, 6};
    rules_random_shuffle(&rng, order, LX_ANIMALS);
    if ((status = lx_set_pillars(state, order, error)) != LX_OK)
        return status;
    if (emit) {
        char text[128];
        lx_format_pillars(state, text, sizeof text);
        emit(context, text);
    }
    while (state->phase == LX_PHASE_PLAY)
        if ((status = random_drop(state, b, &rng, &writer, error)) != LX_OK)
            return status;
    while (state->phase == LX_PHASE_SCARABS)
        if ((status = random_scarabs(state, &rng, &writer, error)) != LX_OK)
            return status;
    if ((status = enter_values(state, b, &writer, error)) != LX_OK)
        return status;
    for (int s = 0; s < config.seats; s++) {
        lx_move move = {.kind = LX_MOVE_PHARAOH, .seat = (int8_t)s, .animal = b->pharaoh[s]};
        if ((status = play(state, &move, &writer, error)) != LX_OK)
            return status;
    }
    if (state->phase != LX_PHASE_OVER) {
        snprintf(error->message, sizeof error->message, "a random game did not end");
        return LX_ILLEGAL;
    }
    return LX_OK;
}
