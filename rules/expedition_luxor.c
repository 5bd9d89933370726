/*
 * Expedition Luxor: the rules (RULES.md §1), checking and playing moves, legal moves, scores.
 * The notation lives in expedition_luxor_notation.c, random games in expedition_luxor_random.c,
 * reconciling observations in expedition_luxor_reconcile.c.
 */
#include "expedition_luxor_internal.h"
#include "rules_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* ---- the box ---- */

static const char *const tile_names[EL_TILE_TYPES] = {
    "lake", "mountain", "desert", "desert-camp", "desert-temple", "desert-pyramid",
    "oasis-camp", "oasis-temple", "oasis-pyramid",
};

/* Tiles of each type in one seat's 24. */
const uint8_t el_box_count[EL_TILE_TYPES] = {1, 2, 3, 6, 3, 3, 2, 3, 1};

/* Adventurers that must stay on a tile to enter it; 0: cannot be entered. */
static const uint8_t entry_requirement[EL_TILE_TYPES] = {0, 3, 1, 1, 1, 1, 2, 2, 2};

/* Points to the top adventurer at the end. */
static const uint8_t tile_value[EL_TILE_TYPES] = {0, 0, 0, 1, 2, 3, 1, 2, 3};

const uint8_t el_deck_group[5][5] = {
    {EL_DESERT_CAMP, EL_DESERT, EL_DESERT_TEMPLE, EL_MOUNTAIN, EL_TILE_TYPES},
    {EL_LAKE, EL_DESERT_CAMP, EL_DESERT_TEMPLE, EL_OASIS_TEMPLE, EL_DESERT_PYRAMID},
    {EL_OASIS_PYRAMID, EL_DESERT, EL_DESERT_CAMP, EL_DESERT_TEMPLE, EL_OASIS_CAMP},
    {EL_DESERT_CAMP, EL_MOUNTAIN, EL_OASIS_TEMPLE, EL_DESERT_CAMP, EL_DESERT_PYRAMID},
    {EL_DESERT_CAMP, EL_OASIS_TEMPLE, EL_DESERT_PYRAMID, EL_OASIS_CAMP, EL_DESERT},
};

static const char *const token_names[EL_TOKEN_TYPES] = {"none", "boat", "snakes", "sandstorm",
                                                        "caravan"};

static const int8_t step_row[4] = {-1, 0, 1, 0};
static const int8_t step_col[4] = {0, 1, 0, -1};

const char *el_tile_name(el_tile_type type)
{
    return (unsigned)type < EL_TILE_TYPES ? tile_names[type] : NULL;
}

const char *el_token_name(el_token token)
{
    return (unsigned)token < EL_TOKEN_TYPES && token != EL_NO_TOKEN ? token_names[token] : NULL;
}

bool el_is_camp(int type) { return type == EL_DESERT_CAMP || type == EL_OASIS_CAMP; }

int el_most_adventurers(el_tile_type type)
{
    return type == EL_LAKE ? 0 : el_is_camp(type) ? EL_STACK_MAX : EL_STACK_MAX - 1;
}

int el_most_adventurers_under(el_token token)
{
    return token == EL_BOAT || token == EL_SNAKES ? 0 : EL_STACK_MAX;
}

int el_mandatory(int type) { return type == EL_OASIS_CAMP ? 2 : type == EL_DESERT_CAMP ? 1 : 0; }

int el_size_limit(int seats) { return seats == 2 ? 7 : seats == 3 ? 9 : 10; }

int el_entry_requirement(int type) { return entry_requirement[type]; }

int el_tile_value(int type) { return tile_value[type]; }

#define fail el_fail

/* ---- the state ---- */

void el_config_default(el_config *config)
{
    static const char *const colours[EL_MAX_SEATS] = {"orange", "black", "grey", "yellow"};
    memset(config, 0, sizeof *config);
    config->seats = 4;
    rules_colours_default(config->colours, colours, EL_MAX_SEATS);
}

el_status el_init(el_state *state, const el_config *config, el_error *error)
{
    if (!rules_seats_valid("Expedition Luxor", 2, EL_MAX_SEATS, config->seats, config->colours,
                           error ? error->message : NULL, error ? sizeof error->message : 0))
        return EL_BAD_CONFIG;
    memset(state, 0, sizeof *state);
    state->config = *config;
    for (int i = config->seats; i < EL_MAX_SEATS; i++)
        memset(state->config.colours[i], 0, EL_COLOUR_MAX);
    for (int i = 0; i < config->seats; i++)
        state->supply[i] = EL_ADVENTURERS;
    state->phase = EL_PHASE_SETUP;
    return EL_OK;
}

int el_seat_of(const el_state *state, const char *colour)
{
    for (int i = 0; i < state->config.seats; i++)
        if (strcmp(state->config.colours[i], colour) == 0)
            return i;
    return -1;
}

int el_tiles_left(const el_state *state, int seat)
{
    return EL_TILES_PER_SEAT - EL_START_TILES_PER_SEAT - state->placed[seat];
}

const el_cell *el_cell_at(const el_state *state, int row, int col)
{
    if (row < -EL_ORIGIN || row >= EL_GRID - EL_ORIGIN || col < -EL_ORIGIN ||
        col >= EL_GRID - EL_ORIGIN)
        return NULL;
    return &state->cells[row + EL_ORIGIN][col + EL_ORIGIN];
}

static el_cell *cell_at(el_state *state, int row, int col)
{
    return (el_cell *)el_cell_at(state, row, col);
}

static const el_cell *tile_at(const el_state *state, int row, int col)
{
    const el_cell *cell = el_cell_at(state, row, col);
    return cell && cell->has_tile ? cell : NULL;
}

static void put_tile(el_state *state, int row, int col, int type)
{
    el_cell *cell = cell_at(state, row, col);
    cell->has_tile = 1;
    cell->type = (uint8_t)type;
    state->tile_rows[row + EL_ORIGIN] |= 1u << (col + EL_ORIGIN);
    if (state->tiles == 0) {
        state->min_row = state->max_row = (int8_t)row;
        state->min_col = state->max_col = (int8_t)col;
    } else {
        if (row < state->min_row) state->min_row = (int8_t)row;
        if (row > state->max_row) state->max_row = (int8_t)row;
        if (col < state->min_col) state->min_col = (int8_t)col;
        if (col > state->max_col) state->max_col = (int8_t)col;
    }
    state->tiles++;
}

static void push(el_cell *cell, int seat, int count)
{
    for (int i = 0; i < count; i++)
        cell->stack[cell->height++] = (uint8_t)seat;
}

/* ---- the start layout ---- */

el_status el_start(el_state *state, const el_start_tile *tiles, int count, el_error *error)
{
    int seats = state->config.seats;
    if (state->phase != EL_PHASE_SETUP)
        return fail(error, EL_ILLEGAL, "the start layout is laid once, before the first turn");
    if (count != EL_START_TILES_PER_SEAT * seats)
        return fail(error, EL_ILLEGAL, "the start layout has %d tiles with %d players, not %d",
                    EL_START_TILES_PER_SEAT * seats, seats, count);
    int min_row = 127, min_col = 127, max_row = -128, max_col = -128;
    uint8_t by_type[EL_TILE_TYPES] = {0};
    for (int i = 0; i < count; i++) {
        const el_start_tile *t = &tiles[i];
        if (t->type >= EL_TILE_TYPES)
            return fail(error, EL_ILLEGAL, "unknown tile type %d", t->type);
        if (el_is_camp(t->type))
            return fail(error, EL_ILLEGAL,
                        "%s@%d,%d: a camp never starts in the middle (each player keeps theirs)",
                        tile_names[t->type], t->row, t->col);
        if (state->config.check_deck && t->type != EL_DESERT && t->type != EL_DESERT_TEMPLE &&
            t->type != EL_MOUNTAIN)
            return fail(error, EL_ILLEGAL,
                        "%s@%d,%d: the start tiles are 1-tiles (desert, desert-temple, mountain)",
                        tile_names[t->type], t->row, t->col);
        for (int j = 0; j < i; j++)
            if (tiles[j].row == t->row && tiles[j].col == t->col)
                return fail(error, EL_ILLEGAL, "two start tiles at %d,%d", t->row, t->col);
        if (t->row < min_row) min_row = t->row;
        if (t->row > max_row) max_row = t->row;
        if (t->col < min_col) min_col = t->col;
        if (t->col > max_col) max_col = t->col;
        by_type[t->type]++;
    }
    if (min_row != 0 || min_col != 0)
        return fail(error, EL_ILLEGAL,
                    "the start layout's top-left is (0,0): its smallest row and column are 0");
    int limit = el_size_limit(seats);
    if (max_row >= limit || max_col >= limit)
        return fail(error, EL_ILLEGAL, "the start layout is wider than %dx%d", limit, limit);
    for (int t = 0; t < EL_TILE_TYPES; t++)
        if (by_type[t] > (state->config.check_deck ? seats : seats * el_box_count[t]))
            return fail(error, EL_ILLEGAL, "%d %s tiles in the start layout: %d at most",
                        by_type[t], tile_names[t],
                        state->config.check_deck ? seats : seats * el_box_count[t]);

    /* Edge-connected: flood from the first tile through shared edges. */
    bool reached[2 * EL_MAX_SEATS] = {false};
    int queue[2 * EL_MAX_SEATS], head = 0, tail = 0, seen = 1;
    reached[0] = true;
    queue[tail++] = 0;
    while (head < tail) {
        const el_start_tile *a = &tiles[queue[head++]];
        for (int j = 0; j < count; j++) {
            int distance = (a->row - tiles[j].row) * (a->row - tiles[j].row) +
                           (a->col - tiles[j].col) * (a->col - tiles[j].col);
            if (!reached[j] && distance == 1) {
                reached[j] = true;
                queue[tail++] = j;
                seen++;
            }
        }
    }
    if (seen != count)
        return fail(error, EL_ILLEGAL, "the start layout is not connected edge to edge");

    for (int i = 0; i < count; i++)
        put_tile(state, tiles[i].row, tiles[i].col, tiles[i].type);
    memcpy(state->start_by_type, by_type, sizeof by_type);
    state->phase = EL_PHASE_PLAY;
    state->active = 0;
    return EL_OK;
}

/* ---- what a seat may still hold ---- */

/* With check_deck: could D-EL-1's deck have put one more `type` in the seat's hand now? The
 * hand and stack so far hold: the 1-camp, the one 1-tile kept (any type the start layout left
 * over), every group fully drawn, and any `partial` tiles of the group being drawn. */
static bool deck_allows(const el_state *state, int seat, int type)
{
    int placed = state->placed[seat];
    int drawn = placed < 20 ? placed : 20;
    int full_groups = drawn / 5, partial = drawn % 5;
    uint8_t need[EL_TILE_TYPES];
    memcpy(need, state->placed_by_type[seat], sizeof need);
    need[type]++;

    static const uint8_t ones[3] = {EL_DESERT, EL_DESERT_TEMPLE, EL_MOUNTAIN};
    for (int k = 0; k < 3; k++) {
        int kept = ones[k];
        if (state->start_by_type[kept] >= state->config.seats)
            continue; /* every seat put its `kept` in the middle */
        uint8_t fixed[EL_TILE_TYPES] = {0}, in_partial[EL_TILE_TYPES] = {0};
        fixed[EL_DESERT_CAMP]++;
        fixed[kept]++;
        for (int g = 1; g <= full_groups; g++)
            for (int i = 0; i < 5; i++)
                fixed[el_deck_group[g][i]]++;
        if (full_groups < 4)
            for (int i = 0; i < 5; i++)
                in_partial[el_deck_group[full_groups + 1][i]]++;
        int excess_total = 0;
        bool fits = true;
        for (int t = 0; t < EL_TILE_TYPES && fits; t++) {
            int excess = need[t] > fixed[t] ? need[t] - fixed[t] : 0;
            fits = excess <= in_partial[t];
            excess_total += excess;
        }
        if (fits && excess_total <= partial)
            return true;
    }
    return false;
}

/* Refuses a tile the seat's box, or the deck order when checked, cannot have given it. */
static el_status check_supply_of_tiles(const el_state *state, int seat, int type, el_error *error)
{
    int seats = state->config.seats;
    if (state->placed_by_type[seat][type] >= el_box_count[type])
        return fail(error, EL_ILLEGAL, "%s has placed all %d %s tiles of the box",
                    state->config.colours[seat], el_box_count[type], tile_names[type]);
    int all = state->start_by_type[type];
    for (int s = 0; s < seats; s++)
        all += state->placed_by_type[s][type];
    if (all >= seats * el_box_count[type])
        return fail(error, EL_ILLEGAL, "all %d %s tiles of the %d boxes are on the table",
                    seats * el_box_count[type], tile_names[type], seats);
    if (state->config.check_deck && !deck_allows(state, seat, type))
        return fail(error, EL_ILLEGAL,
                    "%s cannot hold a %s yet in D-EL-1's deck order (--check-deck)",
                    state->config.colours[seat], tile_names[type]);
    return EL_OK;
}

/* ---- placing a tile ---- */

static bool has_neighbour(const el_state *state, int row, int col)
{
    for (int d = 0; d < 4; d++)
        if (tile_at(state, row + step_row[d], col + step_col[d]))
            return true;
    return false;
}

bool el_fits_size_limit(const el_state *state, int row, int col, int *width, int *height)
{
    int min_row = row < state->min_row ? row : state->min_row;
    int max_row = row > state->max_row ? row : state->max_row;
    int min_col = col < state->min_col ? col : state->min_col;
    int max_col = col > state->max_col ? col : state->max_col;
    *height = max_row - min_row + 1;
    *width = max_col - min_col + 1;
    int limit = el_size_limit(state->config.seats);
    return *width <= limit && *height <= limit;
}

/* Where a tile may go, whatever its type: empty, beside a tile, inside the size limit. */
static el_status check_position(const el_state *state, int row, int col, el_error *error)
{
    const el_cell *cell = el_cell_at(state, row, col);
    if (!cell)
        return fail(error, EL_ILLEGAL, "outside the largest table");
    if (cell->has_tile)
        return fail(error, EL_ILLEGAL, "a tile is already there");
    if (!has_neighbour(state, row, col))
        return fail(error, EL_ILLEGAL, "not adjacent to any tile");
    int width, height;
    if (!el_fits_size_limit(state, row, col, &width, &height))
        return fail(error, EL_ILLEGAL, "the layout would be %dx%d; %dx%d at most with %d players",
                    width, height, el_size_limit(state->config.seats),
                    el_size_limit(state->config.seats), state->config.seats);
    return EL_OK;
}

/* The adventurers a camp takes: at least the mandatory ones (all that remain when fewer,
 * D-EL-3), at most 5 and the supply. */
void el_camp_range(const el_state *state, int type, int *least, int *most)
{
    int supply = state->supply[state->active];
    int mandatory = el_mandatory(type);
    *least = supply < mandatory ? supply : mandatory;
    *most = supply < mandatory ? supply : supply < EL_STACK_MAX ? supply : EL_STACK_MAX;
}

/* Checks the movers of a camp placed at (row, col) with `extras` optional adventurers. */
static el_status check_movement(const el_state *state, const el_move *move, int extras,
                                el_error *error)
{
    if (move->direction == EL_NO_DIRECTION) {
        if (move->stop_count != 0)
            return fail(error, EL_ILLEGAL, "stops without a direction");
        return EL_OK;
    }
    if (move->direction > EL_WEST)
        return fail(error, EL_ILLEGAL, "unknown direction");
    if (move->stop_count < 1 || move->stop_count > EL_MAX_STOPS)
        return fail(error, EL_ILLEGAL, "a movement names the adventurers stopping on 1 to %d tiles",
                    EL_MAX_STOPS);
    int moving = 0;
    for (int k = 0; k < move->stop_count; k++)
        moving += move->stops[k];
    if (moving > extras)
        return fail(error, EL_ILLEGAL,
                    "%d adventurers move but only the %d extra ones placed on the camp may",
                    moving, extras);
    for (int k = 0; k < move->stop_count; k++) {
        int row = move->row + step_row[move->direction] * (k + 1);
        int col = move->col + step_col[move->direction] * (k + 1);
        const el_cell *cell = tile_at(state, row, col);
        if (!cell)
            return fail(error, EL_ILLEGAL, "no tile at %d,%d to enter: movers never cross a gap",
                        row, col);
        if (cell->type == EL_LAKE)
            return fail(error, EL_ILLEGAL, "the lake at %d,%d cannot be entered", row, col);
        if (cell->token == EL_SNAKES)
            return fail(error, EL_ILLEGAL, "the snakes at %d,%d bar the way", row, col);
        int need = entry_requirement[cell->type];
        if (move->stops[k] < need)
            return fail(error, EL_ILLEGAL, "the %s at %d,%d is entered by leaving %d there, not %d",
                        tile_names[cell->type], row, col, need, move->stops[k]);
        if (cell->height + move->stops[k] > 4)
            return fail(error, EL_ILLEGAL, "%d,%d would hold %d adventurers; 4 at most", row, col,
                        cell->height + move->stops[k]);
    }
    return EL_OK;
}

static el_status check_place(const el_state *state, const el_move *move, el_error *error)
{
    int seat = state->active;
    if (move->what >= EL_TILE_TYPES)
        return fail(error, EL_ILLEGAL, "unknown tile type");
    if (el_tiles_left(state, seat) == 0)
        return fail(error, EL_ILLEGAL, "%s has no tiles left and passes",
                    state->config.colours[seat]);
    if (state->token_this_turn)
        return fail(error, EL_ILLEGAL, "tiles come before the action token, not after");
    if (state->placed_this_turn >= 3)
        return fail(error, EL_ILLEGAL, "a turn places 3 tiles at most");
    el_status status = check_position(state, move->row, move->col, error);
    if (status == EL_OK)
        status = check_supply_of_tiles(state, seat, move->what, error);
    if (status != EL_OK)
        return status;
    if (!el_is_camp(move->what)) {
        if (move->adventurers || move->direction != EL_NO_DIRECTION)
            return fail(error, EL_ILLEGAL, "only a camp takes adventurers");
        return EL_OK;
    }
    int least, most;
    el_camp_range(state, move->what, &least, &most);
    if (move->adventurers < least || move->adventurers > most) {
        if (least == most)
            return fail(error, EL_ILLEGAL, "this %s takes exactly %d adventurers (%d in supply)",
                        tile_names[move->what], least, state->supply[seat]);
        return fail(error, EL_ILLEGAL, "a %s takes %d to %d adventurers (%d in supply)",
                    tile_names[move->what], least, most, state->supply[seat]);
    }
    return check_movement(state, move, move->adventurers - least, error);
}

static void apply_place(el_state *state, const el_move *move)
{
    int seat = state->active;
    put_tile(state, move->row, move->col, move->what);
    state->placed[seat]++;
    state->placed_by_type[seat][move->what]++;
    state->placed_this_turn++;
    if (!el_is_camp(move->what))
        return;
    el_cell *camp = cell_at(state, move->row, move->col);
    push(camp, seat, move->adventurers);
    state->supply[seat] = (uint8_t)(state->supply[seat] - move->adventurers);
    if (move->direction == EL_NO_DIRECTION)
        return;
    for (int k = 0; k < move->stop_count; k++) {
        camp->height = (uint8_t)(camp->height - move->stops[k]);
        push(cell_at(state, move->row + step_row[move->direction] * (k + 1),
                     move->col + step_col[move->direction] * (k + 1)),
             seat, move->stops[k]);
    }
}

/* ---- action tokens ---- */

static int count_of(const el_cell *cell, int seat)
{
    int count = 0;
    for (int i = 0; i < cell->height; i++)
        count += cell->stack[i] == seat;
    return count;
}

bool el_has_adventurer_on_mountain(const el_state *state, int seat)
{
    for (int row = state->min_row; row <= state->max_row; row++)
        for (int col = state->min_col; col <= state->max_col; col++) {
            const el_cell *cell = tile_at(state, row, col);
            if (cell && cell->type == EL_MOUNTAIN && count_of(cell, seat) > 0)
                return true;
        }
    return false;
}

static el_status check_token(const el_state *state, const el_move *move, el_error *error)
{
    int seat = state->active;
    if (!state->config.expansion)
        return fail(error, EL_ILLEGAL, "action tokens belong to the expansion, which is off");
    if (move->what == EL_NO_TOKEN || move->what >= EL_TOKEN_TYPES)
        return fail(error, EL_ILLEGAL, "unknown action token");
    if (state->placed_this_turn == 0)
        return fail(error, EL_ILLEGAL, "an action token is used after placing tiles");
    if (state->token_this_turn)
        return fail(error, EL_ILLEGAL, "one action token a turn");
    if (state->tokens_used[seat][move->what] >= EL_TOKENS_PER_TYPE)
        return fail(error, EL_ILLEGAL, "%s has used both %s tokens of the box",
                    state->config.colours[seat], token_names[move->what]);
    const el_cell *source = tile_at(state, move->from_row, move->from_col);
    if (!source || source->type != EL_MOUNTAIN || count_of(source, seat) == 0)
        return fail(error, EL_ILLEGAL, "needs one of %s's adventurers on a mountain at %d,%d",
                    state->config.colours[seat], move->from_row, move->from_col);
    const el_cell *target = tile_at(state, move->row, move->col);
    if (!target)
        return fail(error, EL_ILLEGAL, "no tile at %d,%d", move->row, move->col);
    switch (move->what) {
    case EL_BOAT:
        if (target->type != EL_LAKE || target->token != EL_NO_TOKEN)
            return fail(error, EL_ILLEGAL, "the boat goes on a lake without a token");
        return EL_OK;
    case EL_SNAKES:
        if (target->height > 0 || target->token != EL_NO_TOKEN)
            return fail(error, EL_ILLEGAL, "the snakes go on a tile without adventurers or token");
        return EL_OK;
    case EL_SANDSTORM: {
        if (move->row == move->from_row && move->col == move->from_col)
            return fail(error, EL_ILLEGAL, "a sandstorm moves the adventurer to another tile");
        int own = count_of(target, seat);
        if (own == 0)
            return fail(error, EL_ILLEGAL, "a sandstorm goes where %s has adventurers already",
                        state->config.colours[seat]);
        for (int s = 0; s < state->config.seats; s++)
            if (s != seat && count_of(target, s) >= own)
                return fail(error, EL_ILLEGAL, "%s does not have more adventurers there than %s",
                            state->config.colours[seat], state->config.colours[s]);
        if (own + 1 > 4) /* EL-ENGINE-2 */
            return fail(error, EL_ILLEGAL, "%d,%d would hold %d adventurers; 4 at most",
                        move->row, move->col, own + 1);
        return EL_OK;
    }
    case EL_CARAVAN: {
        int distance = (move->row - move->from_row) * (move->row - move->from_row) +
                       (move->col - move->from_col) * (move->col - move->from_col);
        if (distance != 1)
            return fail(error, EL_ILLEGAL, "a caravan goes to a tile beside the mountain");
        if (target->type == EL_LAKE || target->token == EL_SNAKES)
            return fail(error, EL_ILLEGAL, "a caravan cannot enter a lake or the snakes' tile");
        if (target->height >= 4)
            return fail(error, EL_ILLEGAL, "%d,%d holds 4 adventurers already", move->row,
                        move->col);
        return EL_OK;
    }
    default:
        return fail(error, EL_ILLEGAL, "unknown action token");
    }
}

/* EL-ENGINE-1: the seat's topmost adventurer on the tile leaves it. */
static void remove_topmost(el_cell *cell, int seat)
{
    for (int i = cell->height - 1; i >= 0; i--)
        if (cell->stack[i] == seat) {
            memmove(&cell->stack[i], &cell->stack[i + 1], (size_t)(cell->height - 1 - i));
            cell->height--;
            return;
        }
}

static void apply_token(el_state *state, const el_move *move)
{
    int seat = state->active;
    el_cell *source = cell_at(state, move->from_row, move->from_col);
    el_cell *target = cell_at(state, move->row, move->col);
    remove_topmost(source, seat);
    switch (move->what) {
    case EL_BOAT:
    case EL_SNAKES:
        state->supply[seat]++;
        target->token = move->what;
        target->token_seat = (uint8_t)seat;
        break;
    case EL_SANDSTORM: {
        int kept = 0;
        for (int i = 0; i < target->height; i++)
            if (target->stack[i] == seat)
                target->stack[kept++] = (uint8_t)seat;
            else
                state->captured[seat][target->stack[i]]++;
        target->height = (uint8_t)kept;
        push(target, seat, 1); /* D-EL-5: on top */
        break;
    }
    case EL_CARAVAN:
        push(target, seat, 1);
        break;
    }
    state->tokens_used[seat][move->what]++;
    state->token_this_turn = 1;
}

/* ---- turns ---- */

static void next_turn(el_state *state)
{
    state->turns++;
    state->placed_this_turn = 0;
    state->token_this_turn = 0;
    bool tiles_remain = false;
    for (int s = 0; s < state->config.seats; s++)
        tiles_remain |= el_tiles_left(state, s) > 0;
    if (!tiles_remain) {
        state->phase = EL_PHASE_OVER;
        return;
    }
    state->active = (uint8_t)((state->active + 1) % state->config.seats);
}

el_status el_check(const el_state *state, const el_move *move, el_error *error)
{
    if (state->phase == EL_PHASE_SETUP)
        return fail(error, EL_ILLEGAL, "the start layout comes first");
    if (state->phase == EL_PHASE_OVER)
        return fail(error, EL_ILLEGAL, "the game is over: every tile is placed");
    switch (move->kind) {
    case EL_MOVE_PLACE:
        return check_place(state, move, error);
    case EL_MOVE_TOKEN:
        return check_token(state, move, error);
    case EL_MOVE_END:
        if (state->placed_this_turn == 0)
            return fail(error, EL_ILLEGAL,
                        el_tiles_left(state, state->active) > 0
                            ? "a turn places at least one tile before it ends"
                            : "with no tiles left the seat passes");
        return EL_OK;
    case EL_MOVE_PASS:
        if (el_tiles_left(state, state->active) > 0)
            return fail(error, EL_ILLEGAL, "%s still has %d tiles to place: no passing",
                        state->config.colours[state->active], el_tiles_left(state, state->active));
        if (state->placed_this_turn > 0)
            return fail(error, EL_ILLEGAL, "the turn has placed tiles: it ends with `end`");
        return EL_OK;
    default:
        return fail(error, EL_ILLEGAL, "unknown move");
    }
}

el_status el_apply(el_state *state, const el_move *move, el_error *error)
{
    el_status status = el_check(state, move, error);
    if (status != EL_OK)
        return status;
    switch (move->kind) {
    case EL_MOVE_PLACE:
        apply_place(state, move);
        break;
    case EL_MOVE_TOKEN:
        apply_token(state, move);
        break;
    default:
        next_turn(state);
        break;
    }
    return EL_OK;
}

/* ---- legal moves ---- */

typedef struct move_sink {
    el_move *moves;
    size_t max, count;
} move_sink;

static void emit(move_sink *sink, const el_move *move)
{
    if (sink->count < sink->max)
        sink->moves[sink->count] = *move;
    sink->count++;
}

/* Every stop sequence of `left` movers or fewer from tile k on, in one direction. */
static void emit_movements(const el_state *state, el_move *move, int k, int left,
                           move_sink *sink)
{
    if (k >= EL_MAX_STOPS || left == 0)
        return;
    const el_cell *cell = tile_at(state, move->row + step_row[move->direction] * (k + 1),
                                  move->col + step_col[move->direction] * (k + 1));
    if (!cell || cell->type == EL_LAKE || cell->token == EL_SNAKES)
        return;
    int need = entry_requirement[cell->type];
    int room = 4 - cell->height;
    for (int stop = need; stop <= left && stop <= room; stop++) {
        move->stops[k] = (uint8_t)stop;
        move->stop_count = (uint8_t)(k + 1);
        emit(sink, move);
        emit_movements(state, move, k + 1, left - stop, sink);
    }
    move->stop_count = (uint8_t)k;
}

/* Every way to place one tile of `type` at (row, col), a legal position: for a camp every
 * adventurer count and every movement. */
static void emit_placements_at(const el_state *state, int type, int row, int col,
                               move_sink *sink)
{
    el_move move = {.kind = EL_MOVE_PLACE, .what = (uint8_t)type, .row = (int8_t)row,
                    .col = (int8_t)col, .direction = EL_NO_DIRECTION};
    if (!el_is_camp(type)) {
        emit(sink, &move);
        return;
    }
    int least, most;
    el_camp_range(state, type, &least, &most);
    for (int adventurers = least; adventurers <= most; adventurers++) {
        move.adventurers = (uint8_t)adventurers;
        move.direction = EL_NO_DIRECTION;
        move.stop_count = 0;
        emit(sink, &move);
        for (int d = EL_NORTH; d <= EL_WEST; d++) {
            move.direction = (uint8_t)d;
            emit_movements(state, &move, 0, adventurers - least, sink);
        }
    }
}

size_t el_placements_at(const el_state *state, int type, int row, int col, el_move *moves,
                        size_t max)
{
    move_sink sink = {moves, max, 0};
    emit_placements_at(state, type, row, col, &sink);
    return sink.count;
}

/* The hot loop of random play and search: per row, the empty cells beside a tile are a few
 * bit operations on tile_rows, limited to the rows and columns that keep the size limit. */
int el_legal_positions(const el_state *state, int8_t (*positions)[2], int max)
{
    int limit = el_size_limit(state->config.seats);
    int row_lo = state->min_row - 1, row_hi = state->max_row + 1;
    int col_lo = state->min_col - 1, col_hi = state->max_col + 1;
    if (row_lo < state->max_row - limit + 1) row_lo = state->max_row - limit + 1;
    if (row_hi > state->min_row + limit - 1) row_hi = state->min_row + limit - 1;
    if (col_lo < state->max_col - limit + 1) col_lo = state->max_col - limit + 1;
    if (col_hi > state->min_col + limit - 1) col_hi = state->min_col + limit - 1;
    /* Keep a border row and column inside the grid for the neighbour reads. */
    if (row_lo < 1 - EL_ORIGIN) row_lo = 1 - EL_ORIGIN;
    if (col_lo < 1 - EL_ORIGIN) col_lo = 1 - EL_ORIGIN;
    if (row_hi > EL_GRID - EL_ORIGIN - 2) row_hi = EL_GRID - EL_ORIGIN - 2;
    if (col_hi > EL_GRID - EL_ORIGIN - 2) col_hi = EL_GRID - EL_ORIGIN - 2;
    if (state->tiles == 0 || row_lo > row_hi || col_lo > col_hi)
        return 0;
    uint32_t columns = ((1u << (col_hi - col_lo + 1)) - 1u) << (col_lo + EL_ORIGIN);
    int count = 0;
    for (int row = row_lo; row <= row_hi; row++) {
        const uint32_t *rows = &state->tile_rows[row + EL_ORIGIN];
        uint32_t here = rows[0];
        uint32_t beside = rows[-1] | rows[1] | (here << 1) | (here >> 1);
        for (uint32_t free = beside & ~here & columns; free; free &= free - 1) {
            if (count < max) {
                positions[count][0] = (int8_t)row;
                positions[count][1] = (int8_t)(__builtin_ctz(free) - EL_ORIGIN);
            }
            count++;
        }
    }
    return count;
}

bool el_may_place_type(const el_state *state, int type)
{
    return check_supply_of_tiles(state, state->active, type, NULL) == EL_OK;
}

size_t el_legal_placements(const el_state *state, el_tile_type type, el_move *moves, size_t max)
{
    move_sink sink = {moves, max, 0};
    /* Everything but the position: whose turn, how many placed, the box. */
    if (state->phase != EL_PHASE_PLAY || el_tiles_left(state, state->active) == 0 ||
        state->token_this_turn || state->placed_this_turn >= 3 || (unsigned)type >= EL_TILE_TYPES ||
        check_supply_of_tiles(state, state->active, type, NULL) != EL_OK)
        return 0;
    int8_t positions[EL_MAX_POSITIONS][2];
    int count = el_legal_positions(state, positions, EL_MAX_POSITIONS);
    for (int i = 0; i < count; i++)
        emit_placements_at(state, type, positions[i][0], positions[i][1], &sink);
    return sink.count;
}

size_t el_legal_token_moves(const el_state *state, el_token token, el_move *moves, size_t max)
{
    move_sink sink = {moves, max, 0};
    int seat = state->active;
    for (int from_row = state->min_row; from_row <= state->max_row; from_row++)
        for (int from_col = state->min_col; from_col <= state->max_col; from_col++) {
            const el_cell *source = tile_at(state, from_row, from_col);
            if (!source || source->type != EL_MOUNTAIN || count_of(source, seat) == 0)
                continue;
            for (int row = state->min_row; row <= state->max_row; row++)
                for (int col = state->min_col; col <= state->max_col; col++) {
                    el_move move = {.kind = EL_MOVE_TOKEN, .what = (uint8_t)token,
                                    .row = (int8_t)row, .col = (int8_t)col,
                                    .from_row = (int8_t)from_row, .from_col = (int8_t)from_col,
                                    .direction = EL_NO_DIRECTION};
                    if (check_token(state, &move, NULL) == EL_OK)
                        emit(&sink, &move);
                }
        }
    return sink.count;
}

size_t el_legal_moves(const el_state *state, el_move *moves, size_t max)
{
    if (state->phase != EL_PHASE_PLAY)
        return 0;
    size_t count = 0;
    for (int type = 0; type < EL_TILE_TYPES; type++)
        count += el_legal_placements(state, (el_tile_type)type, moves + (count < max ? count : max),
                                     count < max ? max - count : 0);
    if (state->config.expansion && state->placed_this_turn > 0 && !state->token_this_turn)
        for (int token = EL_BOAT; token <= EL_CARAVAN; token++)
            if (state->tokens_used[state->active][token] < EL_TOKENS_PER_TYPE)
                count += el_legal_token_moves(state, (el_token)token,
                                              moves + (count < max ? count : max),
                                              count < max ? max - count : 0);
    el_move end = {.kind = EL_MOVE_END, .direction = EL_NO_DIRECTION};
    el_move pass = {.kind = EL_MOVE_PASS, .direction = EL_NO_DIRECTION};
    if (el_check(state, &end, NULL) == EL_OK) {
        if (count < max)
            moves[count] = end;
        count++;
    }
    if (el_check(state, &pass, NULL) == EL_OK) {
        if (count < max)
            moves[count] = pass;
        count++;
    }
    return count;
}

/* ---- scores ---- */

int el_captured(const el_state *state, int seat)
{
    int captured = 0;
    for (int victim = 0; victim < EL_MAX_SEATS; victim++)
        captured += state->captured[seat][victim];
    return captured;
}

void el_scores(const el_state *state, int32_t scores[EL_MAX_SEATS])
{
    for (int s = 0; s < EL_MAX_SEATS; s++)
        scores[s] = s < state->config.seats ? el_captured(state, s) : 0;
    if (state->tiles == 0)
        return;
    for (int row = state->min_row; row <= state->max_row; row++)
        for (int col = state->min_col; col <= state->max_col; col++) {
            const el_cell *cell = tile_at(state, row, col);
            if (!cell)
                continue;
            if (cell->height > 0)
                scores[cell->stack[cell->height - 1]] += tile_value[cell->type];
            if (cell->token == EL_BOAT)
                for (int d = 0; d < 4; d++) {
                    const el_cell *beside = tile_at(state, row + step_row[d], col + step_col[d]);
                    if (beside && tile_value[beside->type] > 0)
                        scores[cell->token_seat]++;
                }
        }
}

void el_ranks(const el_state *state, int32_t ranks[EL_MAX_SEATS])
{
    int32_t scores[EL_MAX_SEATS];
    el_scores(state, scores);
    int32_t supply[EL_MAX_SEATS];
    for (int s = 0; s < EL_MAX_SEATS; s++) {
        supply[s] = state->supply[s];
        ranks[s] = 0;
    }
    rules_rank(scores, supply, state->config.seats, ranks);
}

/* ---- invariants ---- */

el_status el_verify(const el_state *state, el_error *error)
{
    int seats = state->config.seats;
    int on_tiles[EL_MAX_SEATS] = {0}, tiles = 0;
    for (int row = -EL_ORIGIN; row < EL_GRID - EL_ORIGIN; row++)
        for (int col = -EL_ORIGIN; col < EL_GRID - EL_ORIGIN; col++) {
            const el_cell *cell = el_cell_at(state, row, col);
            if (!cell->has_tile) {
                if (state->tile_rows[row + EL_ORIGIN] & (1u << (col + EL_ORIGIN)))
                    return fail(error, EL_ILLEGAL, "%d,%d: in tile_rows without a tile", row, col);
                if (cell->height || cell->token)
                    return fail(error, EL_ILLEGAL, "%d,%d: pieces without a tile", row, col);
                continue;
            }
            tiles++;
            if (!(state->tile_rows[row + EL_ORIGIN] & (1u << (col + EL_ORIGIN))))
                return fail(error, EL_ILLEGAL, "%d,%d: a tile missing from tile_rows", row, col);
            if (cell->type >= EL_TILE_TYPES || row < state->min_row || row > state->max_row ||
                col < state->min_col || col > state->max_col)
                return fail(error, EL_ILLEGAL, "%d,%d: a tile outside the layout", row, col);
            if (cell->height > 4) {
                bool one_colour = true;
                for (int i = 1; i < cell->height; i++)
                    one_colour &= cell->stack[i] == cell->stack[0];
                if (cell->height > EL_STACK_MAX || !el_is_camp(cell->type) || !one_colour)
                    return fail(error, EL_ILLEGAL, "%d,%d holds %d adventurers", row, col,
                                cell->height);
            }
            if (cell->height > el_most_adventurers((el_tile_type)cell->type) ||
                cell->height > el_most_adventurers_under((el_token)cell->token))
                return fail(error, EL_ILLEGAL, "%d,%d: adventurers where none may stand", row, col);
            for (int i = 0; i < cell->height; i++) {
                if (cell->stack[i] >= seats)
                    return fail(error, EL_ILLEGAL, "%d,%d: an adventurer of no seat", row, col);
                on_tiles[cell->stack[i]]++;
            }
        }
    if (tiles != state->tiles)
        return fail(error, EL_ILLEGAL, "%d tiles counted, %d on the table", state->tiles, tiles);
    int limit = el_size_limit(seats);
    if (tiles && (state->max_row - state->min_row >= limit || state->max_col - state->min_col >= limit))
        return fail(error, EL_ILLEGAL, "the layout exceeds %dx%d", limit, limit);
    for (int seat = 0; seat < seats; seat++) {
        int captured = 0, placed = 0;
        for (int captor = 0; captor < seats; captor++)
            captured += state->captured[captor][seat];
        if (state->supply[seat] + on_tiles[seat] + captured != EL_ADVENTURERS)
            return fail(error, EL_ILLEGAL, "%s: %d in supply, %d on tiles, %d captured: not %d",
                        state->config.colours[seat], state->supply[seat], on_tiles[seat],
                        captured, EL_ADVENTURERS);
        for (int t = 0; t < EL_TILE_TYPES; t++) {
            if (state->placed_by_type[seat][t] > el_box_count[t])
                return fail(error, EL_ILLEGAL, "%s placed %d %s tiles",
                            state->config.colours[seat], state->placed_by_type[seat][t],
                            tile_names[t]);
            placed += state->placed_by_type[seat][t];
        }
        if (placed != state->placed[seat] ||
            placed > EL_TILES_PER_SEAT - EL_START_TILES_PER_SEAT)
            return fail(error, EL_ILLEGAL, "%s: %d tiles placed", state->config.colours[seat],
                        placed);
        for (int t = EL_BOAT; t < EL_TOKEN_TYPES; t++)
            if (state->tokens_used[seat][t] > EL_TOKENS_PER_TYPE)
                return fail(error, EL_ILLEGAL, "%s used %d %s tokens", state->config.colours[seat],
                            state->tokens_used[seat][t], token_names[t]);
    }
    return EL_OK;
}
