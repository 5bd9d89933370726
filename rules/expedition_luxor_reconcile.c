/*
 * Reconciling what the camera sees with the rules: which legal sequences of moves lead from the
 * known state to a table that looks like the observation?
 *
 * 1. Align: the observation is translated (its smallest row and column are 0); the known tiles
 *    fix the translation. Symmetric layouts may allow several; each is tried.
 * 2. Search: depth first over the active seat's legal moves, and the next seats' after `end`.
 *    Only the observation's new tiles are placed, so the tiles guide the search; a cell that no
 *    later move can change must already look as observed, which prunes the camp movements.
 * 3. Rank: fewer turns ended, then fewer moves, a token that changes no top and lays no token
 *    not counted. Sequences reaching the same game count once.
 */
#include "expedition_luxor_internal.h"

#include <stdio.h>
#include <string.h>

#define SEARCH_NODE_LIMIT 100000
#define MOVE_BUFFER 512
#define VISITED_SLOTS (1 << 13) /* explored states, by hash: orders of the same moves meet */

typedef struct new_tile {
    int8_t row, col; /* state coordinates */
    int8_t type;     /* el_tile_type, or EL_UNSEEN: the camera could not read it */
    int8_t reached;  /* el_seen_tile.reached */
} new_tile;

/* A tile the camera saw, whatever its type, or one of this type. */
static bool type_seen(const el_seen_tile *seen, int type)
{
    return seen->type == EL_UNSEEN || seen->type == type;
}

static bool type_valid(int type)
{
    return type == EL_UNSEEN || (type >= 0 && type < EL_TILE_TYPES);
}

/* The types a tile seen as type may be, [*first, *last]: every one when it is unread. */
static void types_of(int type, int *first, int *last)
{
    *first = type == EL_UNSEEN ? 0 : type;
    *last = type == EL_UNSEEN ? EL_TILE_TYPES - 1 : type;
}

typedef struct search {
    const el_observation *observation;
    int row_shift, col_shift;           /* state = observation + shift */
    int16_t seen[EL_GRID][EL_GRID];     /* observation index at a state cell, or -1 */
    bool unknown[EL_GRID][EL_GRID];     /* the camera could not read the cell */
    int new_count;
    new_tile new_tiles[EL_MAX_TILES];
    el_reconcile_result *result;
    el_state finals[EL_EXPLANATIONS];   /* the game each stored explanation leads to */
    el_explanation path;
    long nodes;
    uint64_t visited[VISITED_SLOTS]; /* 0: empty */
    int visited_count;
} search;

void el_observe(const el_state *state, el_observation *observation)
{
    memset(observation, 0, sizeof *observation);
    if (state->tiles == 0)
        return;
    for (int row = state->min_row; row <= state->max_row; row++)
        for (int col = state->min_col; col <= state->max_col; col++) {
            const el_cell *cell = el_cell_at(state, row, col);
            if (!cell->has_tile)
                continue;
            el_seen_tile *seen = &observation->tiles[observation->count++];
            seen->row = (int8_t)(row - state->min_row);
            seen->col = (int8_t)(col - state->min_col);
            seen->type = (int8_t)cell->type;
            seen->top = cell->height ? (int8_t)cell->stack[cell->height - 1] : EL_EMPTY;
            seen->height = (int8_t)cell->height;
            seen->token = (int8_t)cell->token;
        }
}

static bool in_grid(int row, int col)
{
    return row >= -EL_ORIGIN && row < EL_GRID - EL_ORIGIN && col >= -EL_ORIGIN &&
           col < EL_GRID - EL_ORIGIN;
}

/* Whether a hand reached tile a before tile b (one no hand was seen reaching comes last). */
static bool reached_before(const new_tile *a, const new_tile *b)
{
    return a->reached > 0 && (b->reached == 0 || a->reached < b->reached);
}

/* Maps the observation onto the state with this shift; false when a known tile disagrees. */
static bool align(search *s, const el_state *state, int row_shift, int col_shift)
{
    const el_observation *o = s->observation;
    s->row_shift = row_shift;
    s->col_shift = col_shift;
    memset(s->seen, 0xff, sizeof s->seen);
    memset(s->unknown, 0, sizeof s->unknown);
    for (int i = 0; i < o->unknown_count; i++) {
        int row = o->unknown[i].row + row_shift, col = o->unknown[i].col + col_shift;
        if (in_grid(row, col))
            s->unknown[row + EL_ORIGIN][col + EL_ORIGIN] = true;
    }
    s->new_count = 0;
    for (int i = 0; i < o->count; i++) {
        int row = o->tiles[i].row + row_shift, col = o->tiles[i].col + col_shift;
        if (!in_grid(row, col) || !type_valid(o->tiles[i].type))
            return false;
        s->seen[row + EL_ORIGIN][col + EL_ORIGIN] = (int16_t)i;
        const el_cell *cell = el_cell_at(state, row, col);
        if (!cell->has_tile)
            s->new_tiles[s->new_count++] =
                (new_tile){(int8_t)row, (int8_t)col, o->tiles[i].type, o->tiles[i].reached};
        else if (!type_seen(&o->tiles[i], cell->type))
            return false;
    }
    /* The new tiles in the order the hands reached them, then the others: the search tries
     * them in this order, and of two orders that lead to the same game keeps the first. */
    for (int i = 1; i < s->new_count; i++) {
        new_tile tile = s->new_tiles[i];
        int at = i;
        while (at > 0 && reached_before(&tile, &s->new_tiles[at - 1])) {
            s->new_tiles[at] = s->new_tiles[at - 1];
            at--;
        }
        s->new_tiles[at] = tile;
    }
    /* Every known tile is seen, or hidden under an unknown cell. */
    for (int row = state->min_row; row <= state->max_row; row++)
        for (int col = state->min_col; col <= state->max_col; col++) {
            const el_cell *cell = el_cell_at(state, row, col);
            if (cell->has_tile && s->seen[row + EL_ORIGIN][col + EL_ORIGIN] < 0 &&
                !s->unknown[row + EL_ORIGIN][col + EL_ORIGIN])
                return false;
        }
    return true;
}

/* Is height what the camera saw (either height it could not tell apart; anything unseen)? */
static bool height_seen(const el_seen_tile *seen, int height)
{
    return seen->height == EL_UNSEEN || seen->height == height ||
           (seen->height_or > 0 && seen->height_or == height);
}

/* Does the cell look as observed (unseen fields match anything)? */
static bool cell_matches(const search *s, const el_cell *cell, int row, int col)
{
    if (s->unknown[row + EL_ORIGIN][col + EL_ORIGIN])
        return true;
    int index = s->seen[row + EL_ORIGIN][col + EL_ORIGIN];
    if (index < 0)
        return false;
    const el_seen_tile *seen = &s->observation->tiles[index];
    if (seen->top != EL_UNSEEN) {
        int top = cell->height ? cell->stack[cell->height - 1] : EL_EMPTY;
        if (top != seen->top)
            return false;
    }
    if (!height_seen(seen, cell->height))
        return false;
    if (seen->token != EL_UNSEEN && seen->token != cell->token)
        return false;
    return true;
}

static bool tile_placed(const el_state *state, const new_tile *tile)
{
    return (state->tile_rows[tile->row + EL_ORIGIN] >> (tile->col + EL_ORIGIN)) & 1u;
}

static int tiles_to_place(const search *s, const el_state *state)
{
    int left = 0;
    for (int i = 0; i < s->new_count; i++)
        left += !tile_placed(state, &s->new_tiles[i]);
    return left;
}

/* Could a camp still to be placed send movers onto this cell (same row or column, at most 4
 * tiles away)? */
static bool camp_may_reach(const search *s, const el_state *state, int row, int col)
{
    for (int i = 0; i < s->new_count; i++) {
        const new_tile *tile = &s->new_tiles[i];
        int distance = tile->row == row ? tile->col - col : tile->col == col ? tile->row - row : 9;
        if (distance < 0)
            distance = -distance;
        bool camp = tile->type == EL_UNSEEN || el_is_camp(tile->type);
        if (camp && distance <= EL_MAX_STOPS && !tile_placed(state, tile))
            return true;
    }
    return false;
}

/* False when the state can no longer become the observation. When `final`, every cell must
 * match now. Otherwise each mismatched cell needs a later move that can mend it. A camp still
 * to be placed nearby in its row or column can add adventurers on top, never take any away.
 * An action token (once a turn; a later turn needs a tile still to place) mends at most two
 * cells: a mountain it takes an adventurer from, and one target that a caravan or a sandstorm
 * tops (only a sandstorm lowers a stack). */
static bool still_possible(const search *s, const el_state *state, bool final)
{
    int left = tiles_to_place(s, state);
    if (final && left > 0)
        return false;
    int for_tokens = 0, targets = 0;
    for (int row = state->min_row; row <= state->max_row; row++)
        for (int col = state->min_col; col <= state->max_col; col++) {
            const el_cell *cell = &state->cells[row + EL_ORIGIN][col + EL_ORIGIN];
            if (!cell->has_tile || cell_matches(s, cell, row, col))
                continue;
            if (final)
                return false;
            const el_seen_tile *seen = &s->observation->tiles[s->seen[row + EL_ORIGIN][col + EL_ORIGIN]];
            bool too_high = seen->height != EL_UNSEEN && cell->height > seen->height &&
                            cell->height > seen->height_or;
            if (!too_high && camp_may_reach(s, state, row, col))
                continue;
            for_tokens++;
            targets += cell->type != EL_MOUNTAIN;
        }
    if (for_tokens == 0)
        return true;
    if (!state->config.expansion)
        return false;
    int tokens_left = (state->token_this_turn ? 0 : 1) + left;
    return targets <= tokens_left && for_tokens <= 2 * tokens_left;
}

/* A hash of what makes a game: its cells and counters. Different orders of the same moves reach
 * equal states, which rank equally, so each is explored once. */
static uint64_t state_hash(const el_state *state)
{
    uint64_t hash = 0x9e3779b97f4a7c15ull ^ state->active ^ ((uint64_t)state->placed_this_turn << 8) ^
                    ((uint64_t)state->token_this_turn << 16) ^ ((uint64_t)state->turns << 24);
    for (int row = state->min_row; row <= state->max_row; row++) {
        const el_cell *line = el_cell_at(state, row, state->min_col);
        const uint8_t *bytes = (const uint8_t *)line;
        size_t size = (size_t)(state->max_col - state->min_col + 1) * sizeof *line;
        for (size_t i = 0; i < size; i++)
            hash = (hash ^ bytes[i]) * 0x100000001b3ull;
        hash ^= (uint64_t)row * 0xff51afd7ed558ccdull;
    }
    for (int seat = 0; seat < EL_MAX_SEATS; seat++)
        hash = (hash ^ state->supply[seat]) * 0x100000001b3ull;
    /* Who placed which tiles: a seat's second tile and the next seat's first leave the same
     * cells, and once that seat's turn ends too, the same active seat; they are two games
     * (same_game tells them apart), and merging them here lost one of them unsaid. */
    const uint8_t *placed = &state->placed_by_type[0][0];
    for (size_t i = 0; i < sizeof state->placed_by_type; i++)
        hash = (hash ^ placed[i]) * 0x100000001b3ull;
    /* A caravan and a sandstorm that captures nobody leave the same cells: the tokens used
     * tell the two games apart, as same_game does. */
    const uint8_t *tokens = &state->tokens_used[0][0];
    for (size_t i = 0; i < sizeof state->tokens_used; i++)
        hash = (hash ^ tokens[i]) * 0x100000001b3ull;
    return hash ? hash : 1;
}

/* True the first time a state is seen; false when it was explored already (or the table is
 * nearly full, which only costs repeated work). */
static bool first_visit(search *s, const el_state *state)
{
    if (s->visited_count >= VISITED_SLOTS / 2)
        return true;
    uint64_t hash = state_hash(state);
    for (size_t i = hash & (VISITED_SLOTS - 1);; i = (i + 1) & (VISITED_SLOTS - 1)) {
        if (s->visited[i] == hash)
            return false;
        if (s->visited[i] == 0) {
            s->visited[i] = hash;
            s->visited_count++;
            return true;
        }
    }
}

static bool same_game(const el_state *a, const el_state *b)
{
    return a->active == b->active && a->placed_this_turn == b->placed_this_turn &&
           a->token_this_turn == b->token_this_turn && a->phase == b->phase &&
           memcmp(a->supply, b->supply, sizeof a->supply) == 0 &&
           memcmp(a->captured, b->captured, sizeof a->captured) == 0 &&
           memcmp(a->placed_by_type, b->placed_by_type, sizeof a->placed_by_type) == 0 &&
           memcmp(a->tokens_used, b->tokens_used, sizeof a->tokens_used) == 0 &&
           memcmp(a->cells, b->cells, sizeof a->cells) == 0;
}

/* Fewer turns ended, then fewer moves, not counting a token that changes no top and lays no
 * token (el_explanation.hidden): where the observation's heights tell the games with and
 * without it apart, only one of them fits and the rank does not matter; where they do not
 * (unread, or read as either of two), the table cannot say whether it was played, so the games
 * rank alike and are asked about. */
static bool ranks_before(const el_explanation *a, const el_explanation *b)
{
    return a->turns_ended != b->turns_ended ? a->turns_ended < b->turns_ended
                                            : a->count - a->hidden < b->count - b->hidden;
}

/* Keeps the explanation if it is among the EL_EXPLANATIONS best distinct games found; says
 * when a game is left out. */
static void record(search *s, const el_state *final)
{
    el_reconcile_result *r = s->result;
    for (int i = 0; i < r->count; i++)
        if (same_game(&s->finals[i], final)) {
            if (ranks_before(&s->path, &r->explanations[i]))
                r->explanations[i] = s->path;
            return;
        }
    int at = r->count;
    while (at > 0 && ranks_before(&s->path, &r->explanations[at - 1]))
        at--;
    r->more |= r->count == EL_EXPLANATIONS; /* this game or the last kept is left out */
    if (at >= EL_EXPLANATIONS)
        return;
    int last = r->count < EL_EXPLANATIONS ? r->count : EL_EXPLANATIONS - 1;
    for (int i = last; i > at; i--) {
        r->explanations[i] = r->explanations[i - 1];
        s->finals[i] = s->finals[i - 1];
    }
    r->explanations[at] = s->path;
    s->finals[at] = *final;
    if (r->count < EL_EXPLANATIONS)
        r->count++;
}

static void explore(search *s, const el_state *state);

/* The top and the token of a cell: what the camera sees of it besides its tile and height. */
static bool looks_alike(const el_cell *a, const el_cell *b)
{
    int top_a = a->height ? a->stack[a->height - 1] : EL_EMPTY;
    int top_b = b->height ? b->stack[b->height - 1] : EL_EMPTY;
    return top_a == top_b && a->token == b->token;
}

/* A token move that left every top and token as it was (el_explanation.hidden). */
static bool token_hidden(const el_state *before, const el_state *after, const el_move *move)
{
    return move->kind == EL_MOVE_TOKEN &&
           looks_alike(el_cell_at(before, move->row, move->col),
                       el_cell_at(after, move->row, move->col)) &&
           looks_alike(el_cell_at(before, move->from_row, move->from_col),
                       el_cell_at(after, move->from_row, move->from_col));
}

static void try_move(search *s, const el_state *state, const el_move *move)
{
    if (s->path.count >= EL_EXPLAIN_MAX_MOVES || ++s->nodes > SEARCH_NODE_LIMIT) {
        s->result->search_cut = true;
        return;
    }
    el_state next = *state;
    if (el_apply(&next, move, NULL) != EL_OK || !still_possible(s, &next, false) ||
        !first_visit(s, &next))
        return;
    bool ends = move->kind == EL_MOVE_END || move->kind == EL_MOVE_PASS;
    bool hidden = token_hidden(state, &next, move);
    s->path.moves[s->path.count++] = *move;
    s->path.turns_ended += ends;
    s->path.hidden += hidden;
    if (still_possible(s, &next, true))
        record(s, &next);
    else
        explore(s, &next);
    s->path.count--;
    s->path.turns_ended -= ends;
    s->path.hidden -= hidden;
}

static bool token_fits_observation(const search *s, const el_move *move)
{
    int index = s->seen[move->row + EL_ORIGIN][move->col + EL_ORIGIN];
    if (index < 0)
        return s->unknown[move->row + EL_ORIGIN][move->col + EL_ORIGIN];
    const el_seen_tile *seen = &s->observation->tiles[index];
    if (move->what == EL_BOAT || move->what == EL_SNAKES)
        return seen->token == EL_UNSEEN || seen->token == move->what;
    return true; /* sandstorm and caravan: the pruning judges the stacks */
}

static void explore(search *s, const el_state *state)
{
    if (state->phase != EL_PHASE_PLAY)
        return;
    int left = tiles_to_place(s, state);
    el_move moves[MOVE_BUFFER];
    if (left > 0 && state->placed_this_turn < 3 && !state->token_this_turn &&
        el_tiles_left(state, state->active) > 0) {
        for (int i = 0; i < s->new_count; i++) {
            const new_tile *tile = &s->new_tiles[i];
            if (tile_placed(state, tile))
                continue;
            /* A tile whose type the camera could not read may be any the seat may place. */
            int first, last;
            types_of(tile->type, &first, &last);
            for (int type = first; type <= last; type++) {
                if (!el_may_place_type(state, type))
                    continue;
                size_t count = el_placements_at(state, type, tile->row, tile->col, moves,
                                                MOVE_BUFFER);
                if (count > MOVE_BUFFER) {
                    s->result->search_cut = true;
                    count = MOVE_BUFFER;
                }
                for (size_t m = 0; m < count; m++)
                    try_move(s, state, &moves[m]);
            }
        }
    }
    if (state->config.expansion && state->placed_this_turn > 0 && !state->token_this_turn)
        for (int token = EL_BOAT; token <= EL_CARAVAN; token++) {
            size_t count = el_legal_token_moves(state, (el_token)token, moves, MOVE_BUFFER);
            for (size_t m = 0; m < count && m < MOVE_BUFFER; m++)
                if (token_fits_observation(s, &moves[m]))
                    try_move(s, state, &moves[m]);
        }
    /* Ending the turn only helps when tiles remain for the next seats to place. */
    if (left > 0) {
        el_move end = {.kind = EL_MOVE_END, .direction = EL_NO_DIRECTION};
        el_move pass = {.kind = EL_MOVE_PASS, .direction = EL_NO_DIRECTION};
        try_move(s, state, &end);
        try_move(s, state, &pass);
    }
}

/* ---- why nothing explains a table ---- */

static const char *seat_word(const el_state *state, int top)
{
    return top == EL_EMPTY ? "none" : top == EL_UNSEEN ? "unseen"
                                    : top >= 0 && top < state->config.seats
                                        ? state->config.colours[top] : "?";
}

/* The shift under which most known tiles are seen with their type (or hidden); *matched gets
 * their number. Every observed tile and unknown cell is tried as the place of the reference. */
static void best_shift(const el_state *state, const el_observation *o, int reference_row,
                       int reference_col, int *row_shift, int *col_shift)
{
    int best = -1;
    *row_shift = *col_shift = 0;
    for (int k = 0; k < o->count + o->unknown_count; k++) {
        int row = k < o->count ? o->tiles[k].row : o->unknown[k - o->count].row;
        int col = k < o->count ? o->tiles[k].col : o->unknown[k - o->count].col;
        int dr = reference_row - row, dc = reference_col - col, matched = 0;
        for (int i = 0; i < o->count; i++) {
            const el_cell *cell = el_cell_at(state, o->tiles[i].row + dr, o->tiles[i].col + dc);
            matched += cell && cell->has_tile && type_seen(&o->tiles[i], cell->type);
        }
        if (matched > best) {
            best = matched;
            *row_shift = dr;
            *col_shift = dc;
        }
    }
}

/* The state as it would be at the start of the seat's turn: the limits of a turn (three tiles,
 * tiles before a token) then say nothing about where a tile may go. */
static el_state fresh_turn(const el_state *state, int seat)
{
    el_state turn = *state;
    turn.active = (uint8_t)seat;
    turn.placed_this_turn = 0;
    turn.token_this_turn = 0;
    return turn;
}

/* The placement of a tile with the fewest adventurers it takes, no movement. */
static el_move least_placement(const el_state *turn, int type, int row, int col)
{
    int least, most;
    el_camp_range(turn, type, &least, &most);
    return (el_move){.kind = EL_MOVE_PLACE, .what = (uint8_t)type, .row = (int8_t)row,
                     .col = (int8_t)col, .adventurers = (uint8_t)(el_is_camp(type) ? least : 0),
                     .direction = EL_NO_DIRECTION};
}

/* The first thing about the table that no legal sequence explains, as one line. Looks in turn
 * at the known tiles (moved, gone, changed), the new tiles (placed as no seat could: each tried
 * on a fresh turn of every seat, in the order they become placeable), the adventurers. */
static void why_unexplained(const el_state *state, const el_observation *o, char *reason,
                            size_t size)
{
    if (state->tiles == 0 || o->count + o->unknown_count == 0) {
        snprintf(reason, size, "the table shows no tiles");
        return;
    }
    int reference_row = 0, reference_col = 0;
    for (int row = state->max_row; row >= state->min_row; row--)
        for (int col = state->max_col; col >= state->min_col; col--)
            if (el_cell_at(state, row, col)->has_tile) {
                reference_row = row;
                reference_col = col;
            }
    int dr, dc;
    best_shift(state, o, reference_row, reference_col, &dr, &dc);
    int seen_at[EL_GRID][EL_GRID];
    bool unknown_at[EL_GRID][EL_GRID] = {{false}};
    memset(seen_at, 0xff, sizeof seen_at);
    for (int i = 0; i < o->count; i++) {
        int row = o->tiles[i].row + dr, col = o->tiles[i].col + dc;
        if (!el_cell_at(state, row, col) || !type_valid(o->tiles[i].type)) {
            snprintf(reason, size, "the table shows a tile at %d,%d, beyond what the game can hold",
                     row, col);
            return;
        }
        seen_at[row + EL_ORIGIN][col + EL_ORIGIN] = i;
    }
    for (int i = 0; i < o->unknown_count; i++) {
        int row = o->unknown[i].row + dr, col = o->unknown[i].col + dc;
        if (el_cell_at(state, row, col))
            unknown_at[row + EL_ORIGIN][col + EL_ORIGIN] = true;
    }
    for (int row = state->min_row; row <= state->max_row; row++)
        for (int col = state->min_col; col <= state->max_col; col++) {
            const el_cell *cell = el_cell_at(state, row, col);
            int index = seen_at[row + EL_ORIGIN][col + EL_ORIGIN];
            if (!cell->has_tile || unknown_at[row + EL_ORIGIN][col + EL_ORIGIN])
                continue;
            if (index < 0) {
                snprintf(reason, size, "the %s at %d,%d is gone from the table",
                         el_tile_name((el_tile_type)cell->type), row, col);
                return;
            }
            if (!type_seen(&o->tiles[index], cell->type)) {
                snprintf(reason, size, "the tile at %d,%d was a %s, the table shows a %s", row, col,
                         el_tile_name((el_tile_type)cell->type),
                         el_tile_name((el_tile_type)o->tiles[index].type));
                return;
            }
        }
    /* New tiles, placed where and as the rules allow, in whatever order makes them fit. */
    el_state placed = *state;
    bool done[EL_MAX_TILES] = {false};
    for (bool progress = true; progress;) {
        progress = false;
        for (int i = 0; i < o->count; i++) {
            int row = o->tiles[i].row + dr, col = o->tiles[i].col + dc;
            if (done[i] || el_cell_at(&placed, row, col)->has_tile)
                continue;
            int first, last; /* an unread type: whichever fits */
            types_of(o->tiles[i].type, &first, &last);
            for (int seat = 0; seat < placed.config.seats && !done[i]; seat++)
                for (int type = first; type <= last && !done[i]; type++) {
                    el_state turn = fresh_turn(&placed, seat);
                    el_move move = least_placement(&turn, type, row, col);
                    if (el_apply(&turn, &move, NULL) == EL_OK) {
                        turn.active = placed.active;
                        placed = turn;
                        done[i] = progress = true;
                    }
                }
        }
    }
    for (int i = 0; i < o->count; i++) {
        int row = o->tiles[i].row + dr, col = o->tiles[i].col + dc;
        if (done[i] || el_cell_at(state, row, col)->has_tile)
            continue;
        if (o->tiles[i].type == EL_UNSEEN) {
            snprintf(reason, size, "a tile at %d,%d whose type is unread: no tile fits there",
                     row, col);
            return;
        }
        el_state turn = fresh_turn(&placed, placed.active);
        el_move move = least_placement(&turn, o->tiles[i].type, row, col);
        el_error error;
        char action[64];
        el_format_move(&move, action, sizeof action);
        if (el_check(&turn, &move, &error) != EL_OK)
            snprintf(reason, size, "%.40s: %.110s", action, error.message);
        else
            snprintf(reason, size, "%.40s: no seat may place it after the others", action);
        return;
    }
    for (int row = state->min_row; row <= state->max_row; row++)
        for (int col = state->min_col; col <= state->max_col; col++) {
            const el_cell *cell = el_cell_at(state, row, col);
            int index = seen_at[row + EL_ORIGIN][col + EL_ORIGIN];
            if (!cell->has_tile || index < 0)
                continue;
            const el_seen_tile *seen = &o->tiles[index];
            int top = cell->height ? cell->stack[cell->height - 1] : EL_EMPTY;
            if ((seen->top != EL_UNSEEN && seen->top != top) ||
                !height_seen(seen, cell->height) ||
                (seen->token != EL_UNSEEN && seen->token != cell->token)) {
                char height[16] = "unseen";
                if (seen->height != EL_UNSEEN && seen->height_or > 0)
                    snprintf(height, sizeof height, "%d or %d", seen->height, seen->height_or);
                else if (seen->height != EL_UNSEEN)
                    snprintf(height, sizeof height, "%d", seen->height);
                snprintf(reason, size,
                         "no legal move explains %d,%d: the table shows top %s, height %s, "
                         "token %s; the game had top %s, height %d, token %s",
                         row, col, seat_word(state, seen->top), height,
                         seen->token == EL_UNSEEN ? "unseen"
                         : seen->token > 0        ? el_token_name((el_token)seen->token)
                                                  : "none",
                         seat_word(state, top), cell->height,
                         cell->token ? el_token_name((el_token)cell->token) : "none");
                return;
            }
        }
    snprintf(reason, size, "no legal sequence of actions leads to this table");
}

el_status el_start_seen(const el_state *state, const el_observation *observation,
                        el_start_tile tiles[2 * EL_MAX_SEATS], int *count, el_error *error)
{
    int needed = EL_START_TILES_PER_SEAT * state->config.seats;
    *count = 0;
    if (observation->unknown_count > 0)
        return el_fail(error, EL_ILLEGAL, "part of the start layout is hidden (%d cells)",
                       observation->unknown_count);
    /* The count first: a table past the start (its first table missed) says so, rather than
     * what its later tiles hold. */
    if (observation->count != needed) {
        *count = observation->count;
        return el_fail(error, EL_ILLEGAL, "the start layout has %d tiles with %d players, the "
                       "table shows %d", needed, state->config.seats, observation->count);
    }
    for (int i = 0; i < observation->count; i++) {
        const el_seen_tile *seen = &observation->tiles[i];
        if (seen->type < 0 || seen->type >= EL_TILE_TYPES)
            return el_fail(error, EL_ILLEGAL,
                           "the start tile at %d,%d: its type is unread or unsure", seen->row,
                           seen->col);
        if ((seen->top != EL_EMPTY && seen->top != EL_UNSEEN) || seen->height > 0)
            return el_fail(error, EL_ILLEGAL, "adventurers on the start layout at %d,%d",
                           seen->row, seen->col);
        if (seen->token > EL_NO_TOKEN)
            return el_fail(error, EL_ILLEGAL, "a %s token on the start layout at %d,%d",
                           el_token_name((el_token)seen->token), seen->row, seen->col);
        tiles[(*count)++] = (el_start_tile){seen->row, seen->col, (uint8_t)seen->type};
    }
    return EL_OK;
}

/* The translations that may lay the observation on the state (state = observation + shift):
 * the first known tile (the reference) lies under some observed tile of its type (or of a type
 * unread), or under a cell the camera could not read. Returns their number. */
static int candidate_shifts(const el_state *state, const el_observation *observation,
                            int shifts[EL_MAX_TILES * 2][2])
{
    int shift_count = 0;
    int reference_row = 0, reference_col = 0, reference_type = -1;
    for (int row = state->min_row; row <= state->max_row && reference_type < 0 && state->tiles; row++)
        for (int col = state->min_col; col <= state->max_col && reference_type < 0; col++) {
            const el_cell *cell = &state->cells[row + EL_ORIGIN][col + EL_ORIGIN];
            if (cell->has_tile) {
                reference_row = row;
                reference_col = col;
                reference_type = cell->type;
            }
        }
    for (int i = 0; i < observation->count && reference_type >= 0; i++)
        if (type_seen(&observation->tiles[i], reference_type)) {
            shifts[shift_count][0] = reference_row - observation->tiles[i].row;
            shifts[shift_count][1] = reference_col - observation->tiles[i].col;
            shift_count++;
        }
    for (int i = 0; i < observation->unknown_count && reference_type >= 0 &&
                    shift_count < EL_MAX_TILES * 2;
         i++) {
        shifts[shift_count][0] = reference_row - observation->unknown[i].row;
        shifts[shift_count][1] = reference_col - observation->unknown[i].col;
        shift_count++;
    }
    return shift_count;
}

void el_reconcile(const el_state *state, const el_observation *observation,
                  el_reconcile_result *result)
{
    memset(result, 0, sizeof *result);
    search s; /* its tables are cleared when a shift aligns, not here: most shifts never do */
    s.observation = observation;
    s.result = result;
    s.nodes = 0;
    int shifts[EL_MAX_TILES * 2][2];
    int shift_count = candidate_shifts(state, observation, shifts);
    bool unchanged = false;
    for (int k = 0; k < shift_count; k++) {
        if (!align(&s, state, shifts[k][0], shifts[k][1]))
            continue;
        if (s.new_count == 0 && still_possible(&s, state, true)) {
            unchanged = true;
            continue;
        }
        s.path = (el_explanation){0};
        memset(s.visited, 0, sizeof s.visited);
        s.visited_count = 0;
        if (still_possible(&s, state, false))
            explore(&s, state);
    }

    if (unchanged) {
        result->answer = EL_UNCHANGED;
    } else if (result->count == 0) {
        result->answer = EL_UNEXPLAINED;
        why_unexplained(state, observation, result->reason, sizeof result->reason);
    }
    else if (result->count > 1 && !ranks_before(&result->explanations[0], &result->explanations[1]))
        result->answer = EL_AMBIGUOUS;
    else
        result->answer = EL_EXPLAINED;
}

bool el_heights_if_unchanged(const el_state *state, const el_observation *observation,
                             int8_t *heights)
{
    search s; /* only its alignment: align and still_possible read nothing else */
    s.observation = observation;
    s.result = NULL;
    int shifts[EL_MAX_TILES * 2][2];
    int shift_count = candidate_shifts(state, observation, shifts), unchanged = -1;
    for (int k = 0; k < shift_count; k++) {
        if (!align(&s, state, shifts[k][0], shifts[k][1]) || s.new_count > 0 ||
            !still_possible(&s, state, true))
            continue;
        if (unchanged >= 0)
            return false; /* laid two ways */
        unchanged = k;
    }
    if (unchanged < 0)
        return false;
    for (int i = 0; i < observation->count; i++) {
        const el_seen_tile *seen = &observation->tiles[i];
        const el_cell *cell = el_cell_at(state, seen->row + shifts[unchanged][0],
                                         seen->col + shifts[unchanged][1]);
        heights[i] = cell && cell->has_tile ? (int8_t)cell->height : -1;
    }
    return true;
}

size_t el_hidden_tokens(const el_state *state, const el_observation *observation,
                        el_move *moves, size_t max)
{
    if (!state->config.expansion || state->phase != EL_PHASE_PLAY ||
        state->placed_this_turn == 0 || state->token_this_turn)
        return 0;
    search s; /* only its alignment: align and still_possible read nothing else */
    s.observation = observation;
    s.result = NULL;
    int shifts[EL_MAX_TILES * 2][2];
    int shift_count = candidate_shifts(state, observation, shifts);
    size_t count = 0;
    el_move legal[MOVE_BUFFER];
    for (int k = 0; k < shift_count; k++) {
        if (!align(&s, state, shifts[k][0], shifts[k][1]) || s.new_count > 0 ||
            !still_possible(&s, state, true))
            continue;
        for (int token = EL_BOAT; token <= EL_CARAVAN; token++) {
            size_t legal_count = el_legal_token_moves(state, (el_token)token, legal, MOVE_BUFFER);
            for (size_t m = 0; m < legal_count && m < MOVE_BUFFER; m++) {
                el_state next = *state;
                if (el_apply(&next, &legal[m], NULL) != EL_OK ||
                    !token_hidden(state, &next, &legal[m]) || !still_possible(&s, &next, true))
                    continue;
                bool listed = false; /* another shift may list it again */
                for (size_t i = 0; i < count && !listed; i++)
                    listed = memcmp(&moves[i], &legal[m], sizeof legal[m]) == 0;
                if (!listed && count < max)
                    moves[count++] = legal[m];
            }
        }
    }
    return count;
}

/* ---- what the players corrected ---- */

/* The translation that lays the observation on the state's tiles (state = observation +
 * shift), as best_shift finds it; false when the state has no tile to align on. */
static bool shift_onto(const el_state *state, const el_observation *o, int *row_shift,
                       int *col_shift)
{
    for (int row = state->min_row; row <= state->max_row && state->tiles; row++)
        for (int col = state->min_col; col <= state->max_col; col++)
            if (el_cell_at(state, row, col)->has_tile) {
                best_shift(state, o, row, col, row_shift, col_shift);
                return o->count + o->unknown_count > 0;
            }
    return false;
}

int el_support(const el_state *state, const el_observation *observation)
{
    int row_shift, col_shift, support = 0;
    if (!shift_onto(state, observation, &row_shift, &col_shift))
        return 0;
    for (int i = 0; i < observation->count; i++) {
        const el_seen_tile *seen = &observation->tiles[i];
        const el_cell *cell = el_cell_at(state, seen->row + row_shift, seen->col + col_shift);
        if (cell && cell->has_tile && cell->height <= EL_STACK_MAX)
            support += seen->support[cell->height];
    }
    return support;
}

static bool same_cell(const el_cell *a, const el_cell *b)
{
    return a->has_tile == b->has_tile && a->type == b->type && a->height == b->height &&
           a->token == b->token &&
           memcmp(a->stack, b->stack, a->height <= EL_STACK_MAX ? a->height : 0) == 0;
}

/* The index of the observed tile at (row, col) in the observation's own rows and columns,
 * or -1. */
static int seen_index(const el_observation *o, int row, int col)
{
    for (int i = 0; i < o->count; i++)
        if (o->tiles[i].row == row && o->tiles[i].col == col)
            return i;
    return -1;
}

static bool unknown_at(const el_observation *o, int row, int col)
{
    for (int i = 0; i < o->unknown_count; i++)
        if (o->unknown[i].row == row && o->unknown[i].col == col)
            return true;
    return false;
}

/* Drops what misreads noted of (row, col). */
static void forget_cell(el_misreads *m, int row, int col)
{
    for (int i = m->count - 1; i >= 0; i--)
        if (m->fields[i].row == row && m->fields[i].col == col)
            m->fields[i] = m->fields[--m->count];
    for (int i = m->missed_count - 1; i >= 0; i--)
        if (m->missed[i].row == row && m->missed[i].col == col)
            m->missed[i] = m->missed[--m->missed_count];
    for (int i = m->phantom_count - 1; i >= 0; i--)
        if (m->phantom[i].row == row && m->phantom[i].col == col)
            m->phantom[i] = m->phantom[--m->phantom_count];
}

/* What read shows of a tile the game has (now, at row, col) otherwise than the game, as an
 * entry of el_misreads.fields; false when it shows nothing otherwise. */
static bool misread_fields(const el_cell *now, const el_seen_tile *read, int row, int col,
                           el_seen_tile *wrong)
{
    int top = now->height ? now->stack[now->height - 1] : EL_EMPTY;
    *wrong = (el_seen_tile){.row = (int8_t)row, .col = (int8_t)col, .type = EL_UNSEEN,
                            .top = EL_UNSEEN, .height = EL_UNSEEN, .token = EL_UNSEEN};
    if (!type_seen(read, now->type))
        wrong->type = read->type;
    if (read->top != EL_UNSEEN && read->top != top)
        wrong->top = read->top;
    if (!height_seen(read, now->height))
        wrong->height = read->height;
    if (read->token != EL_UNSEEN && read->token != now->token)
        wrong->token = read->token;
    return wrong->type != EL_UNSEEN || wrong->top != EL_UNSEEN || wrong->height != EL_UNSEEN ||
           wrong->token != EL_UNSEEN;
}

void el_note_misreads(const el_state *before, const el_state *after,
                      const el_observation *reading, el_misreads *misreads)
{
    int dr, dc;
    if (!shift_onto(after, reading, &dr, &dc))
        return;
    for (int row = after->min_row; row <= after->max_row; row++)
        for (int col = after->min_col; col <= after->max_col; col++) {
            const el_cell *now = el_cell_at(after, row, col);
            if (!now->has_tile || (before && same_cell(el_cell_at(before, row, col), now)))
                continue;
            forget_cell(misreads, row, col);
            int at = seen_index(reading, row - dr, col - dc);
            const el_seen_tile *read = at >= 0 ? &reading->tiles[at] : NULL;
            el_seen_tile wrong;
            if (!read && !unknown_at(reading, row - dr, col - dc) &&
                misreads->missed_count < EL_MAX_TILES) {
                misreads->missed[misreads->missed_count].row = (int8_t)row;
                misreads->missed[misreads->missed_count++].col = (int8_t)col;
            } else if (read && misread_fields(now, read, row, col, &wrong) &&
                       misreads->count < EL_MAX_TILES) {
                misreads->fields[misreads->count++] = wrong;
            }
        }
    /* A tile seen where none is, only beyond the size limit: a tile may never lie there, so
     * forgiving it hides none the players lay later (one within the limit would be taken for
     * it again when it comes, and the table not explained). */
    for (int i = 0; !before && i < reading->count; i++) {
        int row = reading->tiles[i].row + dr, col = reading->tiles[i].col + dc, width, height;
        const el_cell *cell = el_cell_at(after, row, col);
        if ((cell && cell->has_tile) || el_fits_size_limit(after, row, col, &width, &height))
            continue;
        forget_cell(misreads, row, col);
        if (misreads->phantom_count < EL_MAX_TILES) {
            misreads->phantom[misreads->phantom_count].row = (int8_t)row;
            misreads->phantom[misreads->phantom_count].col = (int8_t)col;
            misreads->phantom[misreads->phantom_count++].type = reading->tiles[i].type;
        }
    }
}

void el_forgive(const el_state *state, const el_misreads *misreads,
                el_observation *observation)
{
    int dr, dc;
    if (misreads->count + misreads->missed_count + misreads->phantom_count == 0 ||
        !shift_onto(state, observation, &dr, &dc))
        return;
    for (int i = 0; i < misreads->count; i++) {
        const el_seen_tile *wrong = &misreads->fields[i];
        int at = seen_index(observation, wrong->row - dr, wrong->col - dc);
        if (at < 0)
            continue;
        el_seen_tile *read = &observation->tiles[at];
        if (wrong->type != EL_UNSEEN && read->type == wrong->type)
            read->type = EL_UNSEEN;
        if (wrong->top != EL_UNSEEN && read->top == wrong->top)
            read->top = EL_UNSEEN;
        if (wrong->height != EL_UNSEEN && read->height == wrong->height) {
            read->height = EL_UNSEEN;
            read->height_or = 0;
        }
        if (wrong->token != EL_UNSEEN && read->token == wrong->token)
            read->token = EL_UNSEEN;
    }
    for (int i = 0; i < misreads->missed_count; i++) {
        int row = misreads->missed[i].row - dr, col = misreads->missed[i].col - dc;
        if (seen_index(observation, row, col) < 0 && !unknown_at(observation, row, col) &&
            observation->unknown_count < EL_MAX_TILES) {
            observation->unknown[observation->unknown_count].row = (int8_t)row;
            observation->unknown[observation->unknown_count++].col = (int8_t)col;
        }
    }
    for (int i = 0; i < misreads->phantom_count; i++) {
        int at = seen_index(observation, misreads->phantom[i].row - dr,
                         misreads->phantom[i].col - dc);
        if (at >= 0 && observation->tiles[at].type == misreads->phantom[i].type)
            observation->tiles[at] = observation->tiles[--observation->count];
    }
}
