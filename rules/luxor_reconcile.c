/*
 * Luxor's legal moves, what a camera sees, and reconcile: which drops (with the choices their
 * pairs allowed) and end-game scarab moves turn the known game into what the camera sees.
 *
 * A drop is pinned down by the wall: a new tile shows where it went and what it shows. What the
 * wall does not tell (the order the pairs were resolved in, where archaeologists went, the order
 * of several drops) is searched, and the pillars decide.
 */
#include "luxor_internal.h"

#include <string.h>

/* What the choices of one drop can change, compared exactly (no hash, no padding). */
typedef struct result_key {
    int8_t archaeologist[LX_ANIMALS];
    uint8_t scarabs[LX_ANIMALS];
    uint8_t hand[LX_MAX_SEATS];
    uint8_t opened[LX_ANIMALS];
    int8_t owner[LX_ANIMALS][LX_EYES];
    uint8_t supply;
} result_key;

static void key_of(const lx_state *state, result_key *key)
{
    memset(key, 0, sizeof *key);
    memcpy(key->archaeologist, state->archaeologist, sizeof key->archaeologist);
    memcpy(key->scarabs, state->scarabs, sizeof key->scarabs);
    memcpy(key->hand, state->hand, sizeof key->hand);
    memcpy(key->opened, state->opened, sizeof key->opened);
    memcpy(key->owner, state->owner, sizeof key->owner);
    key->supply = state->scarab_supply;
}

#define MAX_RESULTS 256 /* distinct outcomes of one drop's choices */

typedef bool (*drop_visitor)(void *context, const lx_move *move, const lx_state *after);

typedef struct drop_search {
    lx_move move;
    result_key seen[MAX_RESULTS];
    int seen_count;
    size_t total;
    long *budget; /* nodes left; the search stops at 0 */
    drop_visitor visit;
    void *context;
    bool stopped;
} drop_search;

/* Every order and placement choice of the unresolved pairs, depth first. Orders and choices that
 * end in the same outcome are visited once. */
static void resolve_all(drop_search *search, const lx_state *state, const lx_turn *turn)
{
    if (search->stopped || --*search->budget < 0) {
        search->stopped = true;
        return;
    }
    bool left = false;
    bool tried[LX_ANIMALS] = {false};
    for (int i = 0; i < turn->pair_count; i++) {
        if (turn->resolved[i] || tried[turn->pairs[i].animal])
            continue;
        left = true;
        int animal = turn->pairs[i].animal;
        tried[animal] = true;
        /* none, from the hand, or moved from each own pillar */
        for (int option = -2; option < LX_ANIMALS; option++) {
            lx_resolution r = {.animal = (uint8_t)animal,
                               .place = option == -2   ? LX_PLACE_NONE
                                        : option == -1 ? LX_PLACE_HAND
                                                       : LX_PLACE_MOVED,
                               .from = (uint8_t)(option >= 0 ? option : 0)};
            if (option >= 0 && (option == animal || state->archaeologist[option] != state->active))
                continue;
            if (!lx_turn_allows(state, turn, &r))
                continue;
            lx_state next = *state;
            lx_turn next_turn = *turn;
            lx_turn_resolve(&next, &next_turn, &r, NULL);
            search->move.resolutions[search->move.count++] = r;
            resolve_all(search, &next, &next_turn);
            search->move.count--;
            if (search->stopped)
                return;
        }
    }
    if (left)
        return;
    lx_state after = *state;
    lx_turn_end(&after);
    result_key key;
    key_of(&after, &key);
    for (int i = 0; i < search->seen_count; i++)
        if (memcmp(&search->seen[i], &key, sizeof key) == 0)
            return;
    if (search->seen_count < MAX_RESULTS)
        search->seen[search->seen_count++] = key;
    search->total++;
    if (search->visit && !search->visit(search->context, &search->move, &after))
        search->stopped = true;
}

/* The legal ways of dropping this tile into this slot, each outcome once. Returns how many. */
static size_t each_drop(const lx_state *state, int slot, uint8_t top, uint8_t bottom,
                        drop_visitor visit, void *context, long *budget, bool *cut)
{
    if (state->phase != LX_PHASE_PLAY || state->filled[slot] * 2 >= LX_ROWS)
        return 0;
    drop_search *search = &(drop_search){.visit = visit, .context = context, .budget = budget};
    search->move = (lx_move){.kind = LX_MOVE_DROP, .slot = (uint8_t)slot, .top = top,
                             .bottom = bottom};
    lx_state scratch = *state;
    lx_turn turn;
    lx_turn_begin(&scratch, &turn, slot, top, bottom);
    resolve_all(search, &scratch, &turn);
    if (*budget < 0 && cut)
        *cut = true;
    return search->total;
}

typedef struct collect {
    lx_move *moves;
    size_t max, count;
} collect;

static bool collect_move(void *context, const lx_move *move, const lx_state *after)
{
    (void)after;
    collect *c = context;
    if (c->count < c->max)
        c->moves[c->count] = *move;
    c->count++;
    return true;
}

size_t lx_legal_drops(const lx_state *state, uint8_t top, uint8_t bottom, lx_move *moves,
                      size_t max)
{
    collect c = {moves, max, 0};
    for (int slot = 0; slot < LX_SLOTS; slot++) {
        long budget = 100000;
        each_drop(state, slot, top, bottom, collect_move, &c, &budget, NULL);
    }
    return c.count;
}

size_t lx_legal_scarab_moves(const lx_state *state, lx_move *moves, size_t max)
{
    if (state->phase != LX_PHASE_SCARABS)
        return 0;
    size_t count = 0;
    if (max > 0)
        moves[0] = (lx_move){.kind = LX_MOVE_SCARABS};
    count++;
    for (int from = 0; from < LX_ANIMALS; from++)
        for (int to = 0; to < LX_ANIMALS; to++) {
            if (from == to || !lx_scarab_move_allowed(state, state->active, from, to, NULL))
                continue;
            if (count < max)
                moves[count] = (lx_move){.kind = LX_MOVE_SCARABS, .count = 1,
                                         .from = {(uint8_t)from}, .to = {(uint8_t)to}};
            count++;
        }
    return count;
}

/* ---- the camera's view ---- */

void lx_observe(const lx_state *state, lx_observation *observation)
{
    for (int row = 0; row < LX_ROWS; row++)
        for (int slot = 0; slot < LX_SLOTS; slot++)
            observation->wall[row][slot] = (int8_t)state->wall[row][slot];
    for (int i = 0; i < LX_ANIMALS; i++) {
        int animal = state->pillar_order[i];
        observation->pillars[i] = (lx_seen_pillar){
            .animal = state->phase == LX_PHASE_SETUP ? LX_UNSEEN : (int8_t)animal,
            .archaeologist = state->archaeologist[animal],
            .scarabs = (int8_t)state->scarabs[animal],
            .sarcophagi = (int8_t)(LX_EYES - state->opened[animal])};
    }
}

static bool pillars_match(const lx_state *state, const lx_observation *seen)
{
    for (int i = 0; i < LX_ANIMALS; i++) {
        const lx_seen_pillar *p = &seen->pillars[i];
        int animal = state->pillar_order[i];
        if ((p->animal != LX_UNSEEN && p->animal != animal) ||
            (p->archaeologist != LX_UNSEEN && p->archaeologist != state->archaeologist[animal]) ||
            (p->scarabs != LX_UNSEEN && p->scarabs != state->scarabs[animal]) ||
            (p->sarcophagi != LX_UNSEEN && p->sarcophagi != LX_EYES - state->opened[animal]))
            return false;
    }
    return true;
}

/* ---- reconcile ---- */

#define MAX_NEW_TILES 4
#define MAX_SCARAB_LINE 3  /* end-game moves tried on one seat's line */
#define SEARCH_BUDGET 200000
#define MAX_GAMES 16

typedef struct pending {
    int count;                  /* new tiles, bottom first */
    int next;                   /* the next one to drop */
    int8_t windows[MAX_NEW_TILES + 1][2];
} pending;

typedef struct search {
    const lx_observation *seen;
    pending slots[LX_SLOTS];
    int left;                   /* new tiles not dropped yet */
    lx_explanation path;
    lx_reconcile_result *result;
    lx_state games[MAX_GAMES];  /* distinct resulting games */
    int game_count;
    long budget;
} search;

static void record(search *s, const lx_state *state)
{
    int kept = s->game_count < MAX_GAMES ? s->game_count : MAX_GAMES;
    for (int i = 0; i < kept; i++)
        if (lx_same_game(&s->games[i], state)) {
            /* the same game: keep the shorter explanation */
            if (i < 4 && s->path.count < s->result->explanations[i].count)
                s->result->explanations[i] = s->path;
            return;
        }
    if (s->game_count < MAX_GAMES)
        s->games[s->game_count] = *state;
    else
        s->result->search_cut = true;
    if (s->game_count < 4)
        s->result->explanations[s->game_count] = s->path;
    s->game_count++;
}

static void explore(search *s, const lx_state *state);

/* Scarab moves never move an archaeologist and never close a sarcophagus: a table that differs
 * in those is not reached by them (this keeps the end-game search for tables that can match). */
static bool scarab_moves_may_match(const lx_state *state, const lx_observation *seen)
{
    for (int i = 0; i < LX_ANIMALS; i++) {
        const lx_seen_pillar *p = &seen->pillars[i];
        int animal = state->pillar_order[i];
        if (p->archaeologist != LX_UNSEEN && p->archaeologist != state->archaeologist[animal])
            return false;
        if (p->sarcophagi != LX_UNSEEN && p->sarcophagi > LX_EYES - state->opened[animal])
            return false;
    }
    return true;
}

typedef struct drop_step {
    search *s;
    int slot;
} drop_step;

static bool after_drop(void *context, const lx_move *move, const lx_state *after)
{
    drop_step *step = context;
    search *s = step->s;
    s->path.moves[s->path.count++] = *move;
    s->slots[step->slot].next++;
    s->left--;
    explore(s, after);
    s->left++;
    s->slots[step->slot].next--;
    s->path.count--;
    return s->budget > 0;
}

static bool own_pillars_match(const lx_state *state, int seat, const lx_observation *seen)
{
    for (int i = 0; i < LX_ANIMALS; i++) {
        const lx_seen_pillar *p = &seen->pillars[i];
        int animal = state->pillar_order[i];
        if (state->archaeologist[animal] != seat)
            continue;
        if ((p->scarabs != LX_UNSEEN && p->scarabs != state->scarabs[animal]) ||
            (p->sarcophagi != LX_UNSEEN && p->sarcophagi != LX_EYES - state->opened[animal]))
            return false;
    }
    return true;
}

/* One seat's end-game line: the moves made so far (in line), then either the line ends here or
 * one more scarab moves. */
static void explore_scarabs(search *s, const lx_state *before, const lx_state *now, lx_move *line)
{
    if (--s->budget < 0)
        return;
    /* end the line: the seat passes on; the pillars it holds are then final, since later
     * seats move scarabs only between their own */
    if (own_pillars_match(now, before->active, s->seen)) {
        lx_state next = *before;
        lx_error ignored;
        if (lx_apply(&next, line, &ignored) == LX_OK) {
            s->path.moves[s->path.count++] = *line;
            explore(s, &next);
            s->path.count--;
        }
    }
    if (line->count == MAX_SCARAB_LINE)
        return;
    for (int from = 0; from < LX_ANIMALS; from++)
        for (int to = 0; to < LX_ANIMALS; to++) {
            if (from == to || !lx_scarab_move_allowed(now, now->active, from, to, NULL))
                continue;
            lx_state moved = *now;
            lx_move_scarab(&moved, from, to);
            line->from[line->count] = (uint8_t)from;
            line->to[line->count++] = (uint8_t)to;
            explore_scarabs(s, before, &moved, line);
            line->count--;
        }
}

static void explore(search *s, const lx_state *state)
{
    if (--s->budget < 0) {
        s->result->search_cut = true;
        return;
    }
    if (s->left == 0 && pillars_match(state, s->seen)) {
        record(s, state);
        return; /* nothing after a match: a longer story of the same picture is not better */
    }
    if (s->path.count == LX_EXPLAIN_MAX_MOVES)
        return;
    if (s->left > 0) {
        for (int slot = 0; slot < LX_SLOTS; slot++) {
            pending *p = &s->slots[slot];
            if (p->next == p->count)
                continue;
            int8_t top = p->windows[p->next][0], bottom = p->windows[p->next][1];
            /* an unseen window is tried with every animal and facing */
            for (int t = 1; t <= LX_WINDOW_KINDS; t++) {
                if (top != LX_UNSEEN && t != top)
                    continue;
                for (int b = 1; b <= LX_WINDOW_KINDS; b++) {
                    if (bottom != LX_UNSEEN && b != bottom)
                        continue;
                    drop_step step = {s, slot};
                    each_drop(state, slot, (uint8_t)t, (uint8_t)b, after_drop, &step, &s->budget,
                              &s->result->search_cut);
                    if (s->budget <= 0)
                        return;
                }
            }
        }
        return;
    }
    if (state->phase == LX_PHASE_SCARABS && scarab_moves_may_match(state, s->seen)) {
        lx_move line = {.kind = LX_MOVE_SCARABS};
        explore_scarabs(s, state, state, &line);
    }
}

/* Reads the wall: the old windows must be as known, the new ones whole tiles stacked on them. */
static bool read_wall(const lx_state *state, const lx_observation *seen, search *s)
{
    for (int slot = 0; slot < LX_SLOTS; slot++) {
        for (int row = LX_ROWS - 2 * state->filled[slot]; row < LX_ROWS; row++) {
            int8_t w = seen->wall[row][slot];
            if (w != LX_UNSEEN && w != state->wall[row][slot])
                return false;
        }
        pending *p = &s->slots[slot];
        bool above_empty = false;
        for (int j = state->filled[slot]; j < LX_ROWS / 2; j++) {
            int8_t top = seen->wall[LX_ROWS - 2 - 2 * j][slot];
            int8_t bottom = seen->wall[LX_ROWS - 1 - 2 * j][slot];
            bool top_empty = top == 0, bottom_empty = bottom == 0;
            if (top < LX_UNSEEN || top > LX_WINDOW_KINDS || bottom < LX_UNSEEN ||
                bottom > LX_WINDOW_KINDS)
                return false;
            if (above_empty) {
                if (!top_empty && top != LX_UNSEEN)
                    return false; /* a tile floating over an empty window */
                if (!bottom_empty && bottom != LX_UNSEEN)
                    return false;
                continue;
            }
            if (top_empty && bottom_empty) {
                above_empty = true;
                continue;
            }
            if (top == LX_UNSEEN && bottom == LX_UNSEEN) {
                /* a hand in front of the wall: whether a tile is there is not known */
                s->result->search_cut = true;
                above_empty = true;
                continue;
            }
            if (top_empty || bottom_empty)
                return false; /* half a tile */
            if (p->count == MAX_NEW_TILES || s->left == MAX_NEW_TILES) {
                s->result->search_cut = true;
                return false;
            }
            p->windows[p->count][0] = top;
            p->windows[p->count][1] = bottom;
            p->count++;
            s->left++;
        }
    }
    return true;
}

void lx_reconcile(const lx_state *state, const lx_observation *observation,
                  lx_reconcile_result *result)
{
    memset(result, 0, sizeof *result);
    search *s = &(search){.seen = observation, .result = result, .budget = SEARCH_BUDGET};
    lx_state start = *state;
    if (start.phase == LX_PHASE_SETUP) {
        /* the pillars are set up: their order is the first thing seen */
        uint8_t order[LX_ANIMALS];
        for (int i = 0; i < LX_ANIMALS; i++)
            order[i] = (uint8_t)(observation->pillars[i].animal < 0 ? LX_ANIMALS
                                                                    : observation->pillars[i].animal);
        if (lx_set_pillars(&start, order, NULL) != LX_OK) {
            result->answer = LX_UNEXPLAINED;
            return;
        }
        s->path.pillars = true;
        memcpy(s->path.pillar_order, order, sizeof order);
    }
    if (!read_wall(&start, observation, s)) {
        result->answer = LX_UNEXPLAINED;
        return;
    }
    if (!s->path.pillars && s->left == 0 && pillars_match(&start, observation)) {
        result->answer = LX_UNCHANGED;
        return;
    }
    explore(s, &start);
    result->count = s->game_count;
    result->answer = s->game_count == 0   ? LX_UNEXPLAINED
                     : s->game_count == 1 ? LX_EXPLAINED
                                          : LX_AMBIGUOUS;
}
