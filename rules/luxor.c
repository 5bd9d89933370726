/*
 * The Luxor engine: the wall, the pairs a drop makes, the pillars, the end game and the scores
 * (RULES.md §2). Every change goes through lx_apply, which works on a copy and commits only a
 * move that is legal from its first step to its last.
 */
#include "luxor_internal.h"
#include "rules_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *const animal_names[LX_ANIMALS] = {"camel", "mule",      "snake", "hippo",
                                                     "ibis",  "crocodile", "cat"};

static const char *const default_colours[LX_MAX_SEATS] = {"red", "blue", "green", "yellow"};

const char *lx_animal_name(lx_animal animal)
{
    return (unsigned)animal < LX_ANIMALS ? animal_names[animal] : NULL;
}

int lx_animal_of(const char *name, size_t length)
{
    for (int a = 0; a < LX_ANIMALS; a++)
        if (strlen(animal_names[a]) == length && memcmp(animal_names[a], name, length) == 0)
            return a;
    return -1;
}

#define fail(error, status, ...)                                                              \
    ((lx_status)rules_fail((error), sizeof (error)->message, status, \
                           __VA_ARGS__))

void lx_config_default(lx_config *config)
{
    memset(config, 0, sizeof *config);
    config->seats = LX_MAX_SEATS;
    rules_colours_default(config->colours, default_colours, LX_MAX_SEATS);
}

lx_status lx_init(lx_state *state, const lx_config *config, lx_error *error)
{
    if (!rules_seats_valid("Luxor", 2, LX_MAX_SEATS, config->seats, config->colours,
                           error ? error->message : NULL, error ? sizeof error->message : 0))
        return LX_BAD_CONFIG;
    memset(state, 0, sizeof *state);
    state->config = *config;
    state->phase = LX_PHASE_SETUP;
    state->scarab_supply = LX_SCARABS;
    for (int a = 0; a < LX_ANIMALS; a++) {
        state->archaeologist[a] = LX_NOBODY;
        state->pillar_order[a] = (uint8_t)a;
        for (int e = 0; e < LX_EYES; e++)
            state->owner[a][e] = LX_NOBODY;
    }
    for (int s = 0; s < LX_MAX_SEATS; s++) {
        state->hand[s] = s < config->seats ? LX_ARCHAEOLOGISTS : 0;
        state->pharaoh[s] = LX_NOBODY;
    }
    return LX_OK;
}

lx_status lx_set_pillars(lx_state *state, const uint8_t order[LX_ANIMALS], lx_error *error)
{
    if (state->phase != LX_PHASE_SETUP)
        return fail(error, LX_ILLEGAL, "the pillars stand already");
    bool seen[LX_ANIMALS] = {false};
    for (int i = 0; i < LX_ANIMALS; i++) {
        if (order[i] >= LX_ANIMALS)
            return fail(error, LX_ILLEGAL, "pillar %d has no animal", i + 1);
        if (seen[order[i]])
            return fail(error, LX_ILLEGAL, "the %s pillar is given twice", animal_names[order[i]]);
        seen[order[i]] = true;
    }
    memcpy(state->pillar_order, order, LX_ANIMALS);
    state->phase = LX_PHASE_PLAY;
    state->active = 0;
    return LX_OK;
}

/* ---- pairs ---- */

static uint8_t window_at(const lx_state *state, int row, int slot)
{
    if (row < 0 || row >= LX_ROWS || slot < 0 || slot >= LX_SLOTS)
        return 0;
    return state->wall[row][slot];
}

/* Adjacent pairs (the base game): each new window with each old neighbour of its animal, and
 * the tile's own two windows only under D-LX-3's option. */
static int adjacent_pairs(const lx_state *state, int row, int slot, lx_pair *pairs)
{
    int count = 0;
    for (int half = 0; half < 2; half++) {
        int r = row + half;
        uint8_t own = state->wall[r][slot];
        for (int dr = -1; dr <= 1; dr++)
            for (int ds = -1; ds <= 1; ds++) {
                if (dr == 0 && ds == 0)
                    continue;
                int nr = r + dr, ns = slot + ds;
                if (ns == slot && (nr == row || nr == row + 1)) {
                    /* the tile's other window: counted once, from the top half */
                    if (!state->config.tile_pairs || half == 1)
                        continue;
                }
                uint8_t other = window_at(state, nr, ns);
                if (other && LX_WINDOW_ANIMAL(other) == LX_WINDOW_ANIMAL(own))
                    pairs[count++] = (lx_pair){(uint8_t)LX_WINDOW_ANIMAL(own),
                                               LX_WINDOW_FACING(other) == LX_WINDOW_FACING(own)};
            }
    }
    return count;
}

/* Windows of one animal on the line through (row, slot) with step (dr, ds), the tile's own
 * windows (rows row and row + 1 of slot) left out; facing_match tells whether one of them faces
 * as `facing`. */
static int old_on_line(const lx_state *state, int tile_row, int slot, int row, int dr, int ds,
                       int animal, int facing, bool *facing_match)
{
    int count = 0;
    *facing_match = false;
    /* walk back to the line's start, then along it */
    int r = row, s = slot;
    while (r - dr >= 0 && r - dr < LX_ROWS && s - ds >= 0 && s - ds < LX_SLOTS) {
        r -= dr;
        s -= ds;
    }
    for (; r >= 0 && r < LX_ROWS && s >= 0 && s < LX_SLOTS; r += dr, s += ds) {
        if (s == slot && (r == tile_row || r == tile_row + 1))
            continue;
        uint8_t w = state->wall[r][s];
        if (w && LX_WINDOW_ANIMAL(w) == animal) {
            count++;
            if (LX_WINDOW_FACING(w) == facing)
                *facing_match = true;
        }
    }
    return count;
}

/* Eyes of the Sphinx: one pair per line and animal, made when the line goes from one of the
 * animal to two (LX-ENGINE-4 for a tile that brings two). */
static int line_pairs(const lx_state *state, int row, int slot, lx_pair *pairs)
{
    static const int8_t steps[3][2] = {{0, 1}, {1, 1}, {1, -1}};
    int count = 0;
    uint8_t top = state->wall[row][slot], bottom = state->wall[row + 1][slot];
    /* rows and diagonals hold one window of the tile */
    for (int half = 0; half < 2; half++) {
        uint8_t own = half ? bottom : top;
        for (int k = 0; k < 3; k++) {
            bool match;
            int old = old_on_line(state, row, slot, row + half, steps[k][0], steps[k][1],
                                  LX_WINDOW_ANIMAL(own), LX_WINDOW_FACING(own), &match);
            if (old == 1)
                pairs[count++] = (lx_pair){(uint8_t)LX_WINDOW_ANIMAL(own), match};
        }
    }
    /* the column holds both */
    int a_top = LX_WINDOW_ANIMAL(top), a_bottom = LX_WINDOW_ANIMAL(bottom);
    if (a_top != a_bottom) {
        for (int half = 0; half < 2; half++) {
            uint8_t own = half ? bottom : top;
            bool match;
            if (old_on_line(state, row, slot, row, 1, 0, LX_WINDOW_ANIMAL(own),
                            LX_WINDOW_FACING(own), &match) == 1)
                pairs[count++] = (lx_pair){(uint8_t)LX_WINDOW_ANIMAL(own), match};
        }
    } else {
        bool match_top, match_bottom;
        int old = old_on_line(state, row, slot, row, 1, 0, a_top, LX_WINDOW_FACING(top), &match_top);
        old_on_line(state, row, slot, row, 1, 0, a_top, LX_WINDOW_FACING(bottom), &match_bottom);
        if (old == 1)
            pairs[count++] = (lx_pair){(uint8_t)a_top, match_top || match_bottom};
        else if (old == 0 && state->config.tile_pairs)
            pairs[count++] = (lx_pair){(uint8_t)a_top,
                                       LX_WINDOW_FACING(top) == LX_WINDOW_FACING(bottom)};
    }
    return count;
}

static int tile_row(const lx_state *state, int slot)
{
    return LX_ROWS - 2 - 2 * state->filled[slot];
}

static int pairs_in_wall(const lx_state *state, int slot, lx_pair *pairs)
{
    int row = tile_row(state, slot) + 2; /* the tile is in the wall already */
    return state->config.sphinx ? line_pairs(state, row, slot, pairs)
                                : adjacent_pairs(state, row, slot, pairs);
}

int lx_pairs(const lx_state *state, int slot, uint8_t top, uint8_t bottom,
             lx_pair pairs[LX_MAX_PAIRS])
{
    if (slot < 0 || slot >= LX_SLOTS || state->filled[slot] * 2 >= LX_ROWS)
        return 0;
    lx_state scratch = *state;
    int row = tile_row(&scratch, slot);
    scratch.wall[row][slot] = top;
    scratch.wall[row + 1][slot] = bottom;
    scratch.filled[slot]++;
    return pairs_in_wall(&scratch, slot, pairs);
}

/* ---- a drop, step by step ---- */

void lx_turn_begin(lx_state *state, lx_turn *turn, int slot, uint8_t top, uint8_t bottom)
{
    memset(turn, 0, sizeof *turn);
    int row = tile_row(state, slot);
    state->wall[row][slot] = top;
    state->wall[row + 1][slot] = bottom;
    state->filled[slot]++;
    state->drops++;
    turn->pair_count = pairs_in_wall(state, slot, turn->pairs);
}

/* LX-ENGINE-1: which of the unresolved pairs of the animal a resolution uses. A placement that
 * must displace an opponent needs a same-facing pair; everything else takes a different-facing
 * pair first, keeping the same-facing ones for placements that need them. */
static int pick_pair(const lx_state *state, const lx_turn *turn, const lx_resolution *resolution)
{
    int seat = state->active, holder = state->archaeologist[resolution->animal];
    bool need_same = resolution->place != LX_PLACE_NONE && holder != LX_NOBODY && holder != seat;
    int different = -1, same = -1;
    for (int i = 0; i < turn->pair_count; i++) {
        if (turn->resolved[i] || turn->pairs[i].animal != resolution->animal)
            continue;
        if (turn->pairs[i].same_facing && same < 0)
            same = i;
        if (!turn->pairs[i].same_facing && different < 0)
            different = i;
    }
    if (need_same)
        return same;
    return different >= 0 ? different : same;
}

static lx_status placement_refused(const lx_state *state, const lx_turn *turn,
                                   const lx_resolution *r, lx_error *error)
{
    int seat = state->active, holder = state->archaeologist[r->animal];
    const char *animal = animal_names[r->animal];
    const char *colour = state->config.colours[seat];
    int pair = pick_pair(state, turn, r);
    if (pair < 0) {
        bool any = false;
        for (int i = 0; i < turn->pair_count; i++)
            any |= !turn->resolved[i] && turn->pairs[i].animal == r->animal;
        if (any)
            return fail(error, LX_ILLEGAL,
                        "the %s pairs face different ways: they cannot displace %.15s's "
                        "archaeologist", animal, state->config.colours[holder]);
        return fail(error, LX_ILLEGAL, "no %s pair left to resolve", animal);
    }
    if (r->place == LX_PLACE_NONE)
        return LX_OK;
    if (holder == seat)
        return fail(error, LX_ILLEGAL, "%.15s's archaeologist stands at the %s pillar already",
                    colour, animal);
    if (r->place == LX_PLACE_HAND && state->hand[seat] == 0)
        return fail(error, LX_ILLEGAL,
                    "%.15s has no archaeologist left in front of them: move one (%s+PILLAR)",
                    colour, animal);
    if (r->place == LX_PLACE_MOVED) {
        if (state->hand[seat] > 0)
            return fail(error, LX_ILLEGAL,
                        "%.15s still has an archaeologist in front of them: place that one (%s+)",
                        colour, animal);
        if (r->from >= LX_ANIMALS || state->archaeologist[r->from] != seat)
            return fail(error, LX_ILLEGAL, "%.15s has no archaeologist at the %s pillar to move",
                        colour, r->from < LX_ANIMALS ? animal_names[r->from] : "?");
    }
    return LX_OK;
}

bool lx_turn_allows(const lx_state *state, const lx_turn *turn, const lx_resolution *resolution)
{
    return placement_refused(state, turn, resolution, NULL) == LX_OK;
}

/* The third scarab opens the front sarcophagus for the archaeologist standing there; with no
 * archaeologist or no sarcophagus the three stay (D-LX-4). */
static void maybe_open(lx_state *state, int animal)
{
    int holder = state->archaeologist[animal];
    if (state->scarabs[animal] < 3 || holder == LX_NOBODY || state->opened[animal] >= LX_EYES)
        return;
    state->owner[animal][state->opened[animal]] = (int8_t)holder;
    state->opened[animal]++;
    state->scarabs[animal] = 0;
    state->scarab_supply += 3;
}

lx_status lx_turn_resolve(lx_state *state, lx_turn *turn, const lx_resolution *r, lx_error *error)
{
    if (r->animal >= LX_ANIMALS)
        return fail(error, LX_ILLEGAL, "no such animal");
    lx_status status = placement_refused(state, turn, r, error);
    if (status != LX_OK)
        return status;
    int pair = pick_pair(state, turn, r);
    turn->resolved[pair] = true;
    int seat = state->active, animal = r->animal;
    if (r->place != LX_PLACE_NONE) {
        int holder = state->archaeologist[animal];
        if (holder != LX_NOBODY)
            state->hand[holder]++; /* displaced: back to its owner */
        if (r->place == LX_PLACE_HAND)
            state->hand[seat]--;
        else
            state->archaeologist[r->from] = LX_NOBODY;
        state->archaeologist[animal] = (int8_t)seat;
    }
    /* LX-ENGINE-2: the limits are on scarabs; the pair itself still counted above */
    if (state->scarab_supply > 0 && state->scarabs[animal] < 3 && turn->turn_scarabs[animal] < 2) {
        state->scarabs[animal]++;
        state->scarab_supply--;
        turn->turn_scarabs[animal]++;
        maybe_open(state, animal);
    }
    return LX_OK;
}

void lx_turn_end(lx_state *state)
{
    if (state->drops == LX_TILES_IN_WALL) {
        state->phase = LX_PHASE_SCARABS;
        state->active = 0;
    } else {
        state->active = (uint8_t)((state->active + 1) % state->config.seats);
    }
}

/* ---- the end game ---- */

bool lx_scarab_move_allowed(const lx_state *state, int seat, int from, int to, lx_error *error)
{
    const char *colour = state->config.colours[seat];
    if (from == to)
        return fail(error, LX_ILLEGAL, "a scarab moves between two pillars") == LX_OK;
    if (state->archaeologist[from] != seat || state->archaeologist[to] != seat)
        return fail(error, LX_ILLEGAL,
                    "%.15s may move scarabs only between pillars where their own archaeologists "
                    "stand", colour) == LX_OK;
    if (state->scarabs[from] == 0)
        return fail(error, LX_ILLEGAL, "no scarab at the %s pillar", animal_names[from]) == LX_OK;
    if (state->scarabs[to] >= 3)
        return fail(error, LX_ILLEGAL, "the %s pillar has 3 scarabs already",
                    animal_names[to]) == LX_OK;
    return true;
}

void lx_move_scarab(lx_state *state, int from, int to)
{
    state->scarabs[from]--;
    state->scarabs[to]++;
    maybe_open(state, to);
}

bool lx_all_revealed(const lx_state *state)
{
    for (int s = 0; s < state->config.seats; s++)
        if (state->pharaoh[s] == LX_NOBODY)
            return false;
    for (int a = 0; a < LX_ANIMALS; a++)
        for (int e = 0; e < LX_EYES; e++)
            if (state->owner[a][e] != LX_NOBODY && state->value[a][e] == 0)
                return false;
    return true;
}

static void maybe_over(lx_state *state)
{
    if (state->phase == LX_PHASE_REVEAL && lx_all_revealed(state))
        state->phase = LX_PHASE_OVER;
}

bool lx_value_possible(int eyes, int value)
{
    switch (eyes) {
    case 1: return value == 3 || value == 4;
    case 2: return value == 5 || value == 6;
    case 3: return value == 7 || value == 8 || value == 10;
    default: return false;
    }
}

bool lx_second_pile_in_use(const lx_state *state)
{
    return state->drops > LX_FIRST_PILE - LX_HAND * state->config.seats;
}

/* ---- moves ---- */

static lx_status apply_drop(lx_state *state, const lx_move *move, lx_error *error)
{
    if (state->phase != LX_PHASE_PLAY)
        return fail(error, LX_ILLEGAL, state->phase == LX_PHASE_SETUP
                                           ? "the pillars are not set yet (pillars ...)"
                                           : "the wall is full: no more tiles");
    if (move->slot >= LX_SLOTS)
        return fail(error, LX_ILLEGAL, "the wall has slots 1 to %d", LX_SLOTS);
    if (move->top == 0 || move->top > LX_WINDOW_KINDS || move->bottom == 0 ||
        move->bottom > LX_WINDOW_KINDS)
        return fail(error, LX_ILLEGAL, "a tile shows two animals");
    if (state->filled[move->slot] * 2 >= LX_ROWS)
        return fail(error, LX_ILLEGAL, "slot %d is full", move->slot + 1);
    if (move->count > LX_MAX_PAIRS)
        return fail(error, LX_ILLEGAL, "more resolutions than a drop can make pairs");
    lx_turn turn;
    lx_turn_begin(state, &turn, move->slot, move->top, move->bottom);
    /* every pair is resolved, each once (all pairs count, even for an opponent's pillar) */
    int due[LX_ANIMALS] = {0}, named[LX_ANIMALS] = {0};
    for (int i = 0; i < turn.pair_count; i++)
        due[turn.pairs[i].animal]++;
    for (int i = 0; i < move->count; i++)
        if (move->resolutions[i].animal < LX_ANIMALS)
            named[move->resolutions[i].animal]++;
    for (int a = 0; a < LX_ANIMALS; a++)
        if (due[a] != named[a]) {
            char list[120] = "";
            for (int b = 0; b < LX_ANIMALS; b++)
                if (due[b])
                    snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s x%d",
                             list[0] ? ", " : "", animal_names[b], due[b]);
            if (!list[0])
                return fail(error, LX_ILLEGAL, "this drop makes no pair");
            return fail(error, LX_ILLEGAL, "this drop makes the pairs %s: each is resolved once "
                        "(`, %s` or `, %s+`)", list, animal_names[a], animal_names[a]);
        }
    for (int i = 0; i < move->count; i++) {
        lx_status status = lx_turn_resolve(state, &turn, &move->resolutions[i], error);
        if (status != LX_OK)
            return status;
    }
    lx_turn_end(state);
    return LX_OK;
}

static lx_status apply_scarabs(lx_state *state, const lx_move *move, lx_error *error)
{
    if (state->phase != LX_PHASE_SCARABS)
        return fail(error, LX_ILLEGAL, "scarabs move only once the wall is full");
    if (move->count > LX_MAX_SCARAB_MOVES)
        return fail(error, LX_ILLEGAL, "too many scarab moves on one line");
    for (int i = 0; i < move->count; i++) {
        if (move->from[i] >= LX_ANIMALS || move->to[i] >= LX_ANIMALS)
            return fail(error, LX_ILLEGAL, "no such pillar");
        if (!lx_scarab_move_allowed(state, state->active, move->from[i], move->to[i], error))
            return LX_ILLEGAL;
        lx_move_scarab(state, move->from[i], move->to[i]);
    }
    if (++state->active == state->config.seats) {
        state->active = 0;
        state->phase = LX_PHASE_REVEAL;
        maybe_over(state);
    }
    return LX_OK;
}

static lx_status apply_value(lx_state *state, const lx_move *move, lx_error *error)
{
    if (move->animal >= LX_ANIMALS || move->eyes < 1 || move->eyes > LX_EYES)
        return fail(error, LX_ILLEGAL, "no such sarcophagus");
    const char *animal = animal_names[move->animal];
    int e = move->eyes - 1;
    if (state->owner[move->animal][e] == LX_NOBODY)
        return fail(error, LX_ILLEGAL, "the %d-eye sarcophagus of the %s pillar is not open",
                    move->eyes, animal);
    if (state->value[move->animal][e])
        return fail(error, LX_ILLEGAL, "the %s %d-eye sarcophagus was entered already (%d)",
                    animal, move->eyes, state->value[move->animal][e]);
    if (!lx_value_possible(move->eyes, move->value))
        return fail(error, LX_ILLEGAL, "a %d-eye sarcophagus is worth %s, not %d", move->eyes,
                    move->eyes == 1 ? "3 or 4" : move->eyes == 2 ? "5 or 6" : "7, 8 or 10",
                    move->value);
    state->value[move->animal][e] = move->value;
    maybe_over(state);
    return LX_OK;
}

static lx_status apply_pharaoh(lx_state *state, const lx_move *move, lx_error *error)
{
    if (move->seat < 0 || move->seat >= state->config.seats || move->animal >= LX_ANIMALS)
        return fail(error, LX_ILLEGAL, "no such seat or card");
    const char *colour = state->config.colours[move->seat];
    if (state->pharaoh[move->seat] != LX_NOBODY)
        return fail(error, LX_ILLEGAL, "%.15s's pharaoh card was entered already (%s)", colour,
                    animal_names[state->pharaoh[move->seat]]);
    for (int s = 0; s < state->config.seats; s++)
        if (state->pharaoh[s] == move->animal)
            return fail(error, LX_ILLEGAL, "there is one %s card, and it is %.15s's",
                        animal_names[move->animal], state->config.colours[s]);
    state->pharaoh[move->seat] = (int8_t)move->animal;
    maybe_over(state);
    return LX_OK;
}

static lx_status apply_curse(lx_state *state, const lx_move *move, lx_error *error)
{
    if (!state->config.curse)
        return fail(error, LX_ILLEGAL, "curse rounds belong to the Curse of the Pharaoh variant");
    if (state->phase != LX_PHASE_PLAY || state->drops == 0)
        return fail(error, LX_ILLEGAL, "a curse round comes at a draw, after a drop");
    if (!lx_second_pile_in_use(state))
        return fail(error, LX_ILLEGAL, "the curse tiles are in the second pile, and the first "
                    "(%d tiles, %d of them dealt) is not empty yet",
                    LX_FIRST_PILE, LX_HAND * state->config.seats);
    if (state->curses >= LX_CURSE_TILES)
        return fail(error, LX_ILLEGAL, "all %d curse tiles were turned already", LX_CURSE_TILES);
    for (int i = 0; i < 3; i++)
        if (move->curse[i] >= LX_ANIMALS)
            return fail(error, LX_ILLEGAL, "a curse tile shows three animals");
    if (move->giver != LX_NOBODY) {
        int giver = move->giver, finder = move->finder;
        if (giver < 0 || giver >= state->config.seats || finder < 0 ||
            finder >= state->config.seats)
            return fail(error, LX_ILLEGAL, "no such seat");
        if (giver == finder)
            return fail(error, LX_ILLEGAL, "the finder chooses an opponent");
        if (lx_curse_find(state, move->curse, NULL, 0) == 0)
            return fail(error, LX_ILLEGAL, "%s, %s and %s stand nowhere side by side in a line",
                        animal_names[move->curse[0]], animal_names[move->curse[1]],
                        animal_names[move->curse[2]]);
        if (move->animal >= LX_ANIMALS || move->eyes < 1 || move->eyes > LX_EYES ||
            state->owner[move->animal][move->eyes - 1] != giver)
            return fail(error, LX_ILLEGAL, "%.15s does not hold that sarcophagus",
                        state->config.colours[giver]);
        state->owner[move->animal][move->eyes - 1] = (int8_t)finder;
    }
    state->curses++;
    return LX_OK;
}

lx_status lx_apply(lx_state *state, const lx_move *move, lx_error *error)
{
    if (state->phase == LX_PHASE_OVER)
        return fail(error, LX_ILLEGAL, "the game is over");
    lx_state next = *state;
    lx_status status;
    switch (move->kind) {
    case LX_MOVE_DROP: status = apply_drop(&next, move, error); break;
    case LX_MOVE_SCARABS: status = apply_scarabs(&next, move, error); break;
    case LX_MOVE_VALUE: status = apply_value(&next, move, error); break;
    case LX_MOVE_PHARAOH: status = apply_pharaoh(&next, move, error); break;
    case LX_MOVE_CURSE: status = apply_curse(&next, move, error); break;
    default: status = fail(error, LX_ILLEGAL, "no such move");
    }
    if (status == LX_OK)
        *state = next;
    return status;
}

lx_status lx_check(const lx_state *state, const lx_move *move, lx_error *error)
{
    lx_state scratch = *state;
    return lx_apply(&scratch, move, error);
}

/* ---- scores ---- */

int lx_sarcophagi(const lx_state *state, int seat)
{
    int count = 0;
    for (int a = 0; a < LX_ANIMALS; a++)
        for (int e = 0; e < LX_EYES; e++)
            count += state->owner[a][e] == seat;
    return count;
}

int lx_unvalued(const lx_state *state, int seat)
{
    int count = 0;
    for (int a = 0; a < LX_ANIMALS; a++)
        for (int e = 0; e < LX_EYES; e++)
            count += state->owner[a][e] == seat && state->value[a][e] == 0;
    return count;
}

void lx_scores(const lx_state *state, int32_t scores[LX_MAX_SEATS])
{
    for (int s = 0; s < LX_MAX_SEATS; s++)
        scores[s] = 0;
    for (int a = 0; a < LX_ANIMALS; a++)
        for (int e = 0; e < LX_EYES; e++)
            if (state->owner[a][e] != LX_NOBODY)
                scores[state->owner[a][e]] += state->value[a][e];
    for (int s = 0; s < state->config.seats; s++)
        if (state->pharaoh[s] != LX_NOBODY && state->archaeologist[state->pharaoh[s]] == s)
            scores[s] += LX_PHARAOH_BONUS;
}

void lx_ranks(const lx_state *state, int32_t ranks[LX_MAX_SEATS])
{
    int32_t scores[LX_MAX_SEATS];
    lx_scores(state, scores);
    int32_t sarcophagi[LX_MAX_SEATS];
    for (int s = 0; s < LX_MAX_SEATS; s++) {
        sarcophagi[s] = s < state->config.seats ? lx_sarcophagi(state, s) : 0;
        ranks[s] = 0;
    }
    rules_rank(scores, sarcophagi, state->config.seats, ranks);
}

/* ---- invariants ---- */

lx_status lx_verify(const lx_state *state, lx_error *error)
{
    int seats = state->config.seats;
    int scarabs = state->scarab_supply, drops = 0;
    for (int a = 0; a < LX_ANIMALS; a++) {
        if (state->scarabs[a] > 3)
            return fail(error, LX_ILLEGAL, "%d scarabs at the %s pillar", state->scarabs[a],
                        animal_names[a]);
        scarabs += state->scarabs[a];
        if (state->archaeologist[a] < LX_NOBODY || state->archaeologist[a] >= seats)
            return fail(error, LX_ILLEGAL, "a stranger's archaeologist at the %s pillar",
                        animal_names[a]);
        if (state->opened[a] > LX_EYES)
            return fail(error, LX_ILLEGAL, "%d sarcophagi opened at the %s pillar",
                        state->opened[a], animal_names[a]);
        for (int e = 0; e < LX_EYES; e++) {
            bool taken = e < state->opened[a];
            if (taken != (state->owner[a][e] != LX_NOBODY) || state->owner[a][e] >= seats)
                return fail(error, LX_ILLEGAL, "the %s %d-eye sarcophagus is misplaced",
                            animal_names[a], e + 1);
            if (state->value[a][e] && (!taken || !lx_value_possible(e + 1, state->value[a][e])))
                return fail(error, LX_ILLEGAL, "the %s %d-eye sarcophagus has value %d",
                            animal_names[a], e + 1, state->value[a][e]);
        }
    }
    if (scarabs != LX_SCARABS)
        return fail(error, LX_ILLEGAL, "%d scarabs in the game, not %d", scarabs, LX_SCARABS);
    for (int s = 0; s < seats; s++) {
        int count = state->hand[s];
        for (int a = 0; a < LX_ANIMALS; a++)
            count += state->archaeologist[a] == s;
        if (count != LX_ARCHAEOLOGISTS)
            return fail(error, LX_ILLEGAL, "%.15s has %d archaeologists, not %d",
                        state->config.colours[s], count, LX_ARCHAEOLOGISTS);
        for (int o = 0; o < s; o++)
            if (state->pharaoh[s] != LX_NOBODY && state->pharaoh[s] == state->pharaoh[o])
                return fail(error, LX_ILLEGAL, "two seats hold the %s card",
                            animal_names[state->pharaoh[s]]);
    }
    for (int slot = 0; slot < LX_SLOTS; slot++) {
        if (state->filled[slot] * 2 > LX_ROWS)
            return fail(error, LX_ILLEGAL, "slot %d overfull", slot + 1);
        drops += state->filled[slot];
        for (int row = 0; row < LX_ROWS; row++) {
            bool full = row >= LX_ROWS - 2 * state->filled[slot];
            uint8_t w = state->wall[row][slot];
            if (full != (w != 0) || w > LX_WINDOW_KINDS)
                return fail(error, LX_ILLEGAL, "window %d,%d does not match its slot", row,
                            slot + 1);
        }
    }
    if (drops != state->drops)
        return fail(error, LX_ILLEGAL, "%d tiles in the wall, %d counted", drops, state->drops);
    if (state->curses > LX_CURSE_TILES)
        return fail(error, LX_ILLEGAL, "%d curse rounds", state->curses);
    return LX_OK;
}

/* ---- curse triples ---- */

int lx_curse_find(const lx_state *state, const uint8_t animals[3], lx_triple *found, int max)
{
    static const int8_t steps[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
    /* three animals in any order are one sum of 4-bit counters, one counter per animal; an
     * empty window adds a counter of its own, so it never matches */
    uint32_t want = 0;
    for (int i = 0; i < 3; i++)
        want += 1u << (4 * animals[i]);
    uint32_t code[LX_ROWS][LX_SLOTS];
    for (int row = 0; row < LX_ROWS; row++)
        for (int slot = 0; slot < LX_SLOTS; slot++) {
            uint8_t w = state->wall[row][slot];
            code[row][slot] = w ? 1u << (4 * LX_WINDOW_ANIMAL(w)) : 1u << (4 * LX_ANIMALS);
        }
    int count = 0;
    for (int row = 0; row < LX_ROWS; row++)
        for (int slot = 0; slot < LX_SLOTS; slot++)
            for (int k = 0; k < 4; k++) {
                int dr = steps[k][0], ds = steps[k][1];
                int last_row = row + 2 * dr, last_slot = slot + 2 * ds;
                if (last_row >= LX_ROWS || last_slot < 0 || last_slot >= LX_SLOTS)
                    continue;
                if (code[row][slot] + code[row + dr][slot + ds] + code[last_row][last_slot] != want)
                    continue;
                if (count < max)
                    found[count] = (lx_triple){(int8_t)row, (int8_t)slot, (int8_t)dr, (int8_t)ds};
                count++;
            }
    return count;
}

bool lx_same_game(const lx_state *a, const lx_state *b)
{
    return a->phase == b->phase && a->active == b->active && a->drops == b->drops &&
           a->scarab_supply == b->scarab_supply && a->curses == b->curses &&
           memcmp(a->wall, b->wall, sizeof a->wall) == 0 &&
           memcmp(a->filled, b->filled, sizeof a->filled) == 0 &&
           memcmp(a->pillar_order, b->pillar_order, sizeof a->pillar_order) == 0 &&
           memcmp(a->archaeologist, b->archaeologist, sizeof a->archaeologist) == 0 &&
           memcmp(a->scarabs, b->scarabs, sizeof a->scarabs) == 0 &&
           memcmp(a->hand, b->hand, sizeof a->hand) == 0 &&
           memcmp(a->opened, b->opened, sizeof a->opened) == 0 &&
           memcmp(a->owner, b->owner, sizeof a->owner) == 0 &&
           memcmp(a->value, b->value, sizeof a->value) == 0 &&
           memcmp(a->pharaoh, b->pharaoh, sizeof a->pharaoh) == 0;
}
