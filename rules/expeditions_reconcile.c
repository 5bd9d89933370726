/*
 * Expéditions: what a camera sees (arrows with their colour, segment and direction; tokens on
 * the map) and which turn explains a change.
 *
 * The search takes the steps of one turn of the active seat. An arrow the table does not show
 * is tried only while the tickets left this turn could still remove every such arrow (a turn
 * may place an arrow and take it back), and each removal spends one of the turn's 2 tickets,
 * so the search ends. Ticket or not is a choice the search makes; a token gone from the map is its owner's claim, laid as
 * soon as its place is reached. What cannot be seen (swaps, claims of cards without a token, the
 * card turned up as a new objective) is left for the players: the search plays on with an empty
 * deck, so a common objective reached is taken without a card turned up, and the explanation
 * says that one is owed.
 */
#include "expeditions_internal.h"

#include <string.h>

#define SEARCH_LIMIT 20000 /* steps tried before the answer is called incomplete */
#define SEEN_STATES 4096   /* positions remembered, so that steps taken in another order are
                            * searched once */

static bool bit(const uint64_t *set, int i)
{
    return (set[i / 64] >> (i % 64)) & 1u;
}

static int arrow_bit(ex_arrow arrow)
{
    return 2 * arrow.segment + arrow.forward;
}

void ex_observe(const ex_state *state, ex_observation *observation)
{
    const ex_board *board = ex_board_of(state);
    memset(observation, 0, sizeof *observation);
    for (int e = 0; e < EX_EXPEDITIONS; e++) {
        const ex_trail *trail = &state->trails[e];
        for (int i = 0; i < trail->count; i++) {
            int b = arrow_bit(trail->arrows[i]);
            observation->arrows[e][b / 64] |= (uint64_t)1 << (b % 64);
        }
    }
    for (int c = 0; c < board->place_count; c++)
        if (state->token[c] != EX_NOBODY && observation->token_count < EX_SEEN_MAX_TOKENS) {
            int k = observation->token_count++;
            observation->tokens[k].seat = state->token[c];
            observation->tokens[k].card = (int16_t)c;
        }
}

/* The same game: the fields that matter compared one by one (padding never is). */
static bool same_game(const ex_state *a, const ex_state *b)
{
    for (int e = 0; e < EX_EXPEDITIONS; e++) {
        const ex_trail *x = &a->trails[e], *y = &b->trails[e];
        if (x->count != y->count)
            return false;
        for (int i = 0; i < x->count; i++)
            if (x->arrows[i].segment != y->arrows[i].segment ||
                x->arrows[i].forward != y->arrows[i].forward)
                return false;
    }
    return a->active == b->active && a->phase == b->phase &&
           memcmp(a->objectives, b->objectives, sizeof a->objectives) == 0 &&
           memcmp(a->laid, b->laid, sizeof a->laid) == 0 &&
           memcmp(a->token, b->token, sizeof a->token) == 0 &&
           memcmp(a->hand, b->hand, sizeof a->hand) == 0 &&
           memcmp(a->tickets, b->tickets, sizeof a->tickets) == 0 &&
           memcmp(a->tokens_recovered, b->tokens_recovered, sizeof a->tokens_recovered) == 0;
}

typedef struct search {
    const ex_observation *seen;
    int8_t seen_token[EX_MAX_PLACES]; /* the seat whose token the table shows there */
    ex_reconcile_result *result;
    ex_state results[4];              /* the game each explanation leads to */
    ex_step path[EX_MAX_STEPS];
    int tried;
    uint64_t seen_states[SEEN_STATES]; /* hashes of the positions searched already, 0 = free */
    bool hidden_arrows; /* the second pass: arrows placed and taken back within the turn */
} search;

static bool shown(const search *s, int expedition, ex_arrow arrow)
{
    return bit(s->seen->arrows[expedition], arrow_bit(arrow));
}

/* Whether the game's arrows are the table's. */
static bool arrows_match(const search *s, const ex_state *state)
{
    for (int e = 0; e < EX_EXPEDITIONS; e++) {
        uint64_t have[2 * EX_MAX_SEGMENTS / 64] = {0};
        const ex_trail *trail = &state->trails[e];
        for (int i = 0; i < trail->count; i++) {
            int b = arrow_bit(trail->arrows[i]);
            have[b / 64] |= (uint64_t)1 << (b % 64);
        }
        if (memcmp(have, s->seen->arrows[e], sizeof have) != 0)
            return false;
    }
    return true;
}

static bool tokens_match(const search *s, const ex_state *state, int places)
{
    return memcmp(s->seen_token, state->token, (size_t)places) == 0;
}

/* The removals the game needs before its arrows can be the table's: an arrow the table does
 * not show goes only by removing it and every arrow of its colour placed after it. */
static int removals_needed(const search *s, const ex_state *state)
{
    int n = 0;
    for (int e = 0; e < EX_EXPEDITIONS; e++) {
        const ex_trail *trail = &state->trails[e];
        for (int i = 0; i < trail->count; i++)
            if (!shown(s, e, trail->arrows[i])) {
                n += trail->count - i;
                break;
            }
    }
    return n;
}

static int tickets_of(const ex_step *steps, int count)
{
    int n = 0;
    for (int i = 0; i < count; i++)
        n += steps[i].kind == EX_STEP_TICKET_ARROW || steps[i].kind == EX_STEP_REMOVE;
    return n;
}

static void record(search *s, const ex_state *end, int count,
                   bool objective)
{
    ex_reconcile_result *r = s->result;
    for (int i = 0; i < r->count && i < 4; i++)
        if (same_game(&s->results[i], end)) {
            /* the same game: keep the cheaper way there */
            ex_explanation *x = &r->explanations[i];
            int tickets = tickets_of(s->path, count);
            if (tickets < x->tickets || (tickets == x->tickets && count < x->move.count)) {
                x->tickets = tickets;
                x->move.count = (uint8_t)count;
                memcpy(x->move.steps, s->path, sizeof(ex_step) * (size_t)count);
                x->objective_taken = objective;
            }
            return;
        }
    int tickets = tickets_of(s->path, count);
    int slot = r->count;
    if (r->count >= 4) {
        /* beyond 4 distinct games: keep the 4 best, count on (dropped ones are not told apart
         * from later ones: the count may then be high, which search_cut says) */
        r->search_cut = true;
        r->count++;
        slot = 0;
        for (int i = 1; i < 4; i++) {
            const ex_explanation *a = &r->explanations[i], *w = &r->explanations[slot];
            if (a->tickets > w->tickets || (a->tickets == w->tickets && a->move.count > w->move.count))
                slot = i;
        }
        const ex_explanation *w = &r->explanations[slot];
        if (tickets > w->tickets || (tickets == w->tickets && count >= w->move.count))
            return;
    } else {
        r->count++;
    }
    ex_explanation *x = &r->explanations[slot];
    memset(x, 0, sizeof *x);
    x->move.kind = EX_MOVE_TURN;
    x->move.count = (uint8_t)count;
    memcpy(x->move.steps, s->path, sizeof(ex_step) * (size_t)count);
    x->tickets = tickets;
    x->objective_taken = objective;
    s->results[slot] = *end;
}

/* Lays the cards whose tokens the table no longer shows, once their places are reached. */
static bool claim_tokens(search *s, ex_state *state, ex_turn *turn, int *count)
{
    for (int i = 0; i < turn->reached_count; i++) {
        int card = turn->reached[i];
        int owner = state->token[card];
        if (owner == EX_NOBODY || s->seen_token[card] == owner)
            continue;
        if (*count >= EX_MAX_STEPS)
            return false;
        ex_step claim = {.kind = EX_STEP_CLAIM, .seat = (int8_t)owner, .card = (uint8_t)card,
                         .from = EX_NONE, .to = EX_NONE};
        if (ex_turn_step(state, turn, &claim, NULL) != EX_OK)
            return false;
        s->path[(*count)++] = claim;
    }
    return true;
}

static uint64_t mix(uint64_t hash, const void *data, size_t size)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < size; i++)
        hash = (hash ^ p[i]) * 0x100000001b3u; /* FNV-1a */
    return hash;
}

/* Whether this position (the game and the turn, as far as the rest of the search depends on
 * them) was searched already; remembers it if not. */
static bool searched(search *s, const ex_state *state, const ex_turn *turn)
{
    uint64_t hash = 0xcbf29ce484222325u;
    for (int e = 0; e < EX_EXPEDITIONS; e++) {
        /* the arrows as a set, plus the last one: arrows taken in another order (a turn's
         * restarts, which the table cannot tell apart) are one position */
        const ex_trail *trail = &state->trails[e];
        uint64_t set = 0;
        for (int i = 0; i < trail->count; i++) {
            uint16_t arrow = (uint16_t)arrow_bit(trail->arrows[i]);
            set += mix(0xcbf29ce484222325u, &arrow, sizeof arrow);
        }
        uint16_t last = trail->count ? (uint16_t)arrow_bit(trail->arrows[trail->count - 1]) : 0xffff;
        hash = mix(hash, &set, sizeof set);
        hash = mix(hash, &last, sizeof last);
    }
    uint8_t counters[] = {turn->tickets_used, turn->main_done, turn->bonus,
                          (uint8_t)turn->restart, (uint8_t)turn->objective_pending,
                          state->tickets[state->active]};
    hash = mix(hash, counters, sizeof counters);
    hash = mix(hash, state->laid, sizeof state->laid);
    hash = mix(hash, state->token, sizeof state->token);
    hash |= 1; /* never 0, the mark of a free slot */
    for (int probe = 0; probe < SEEN_STATES; probe++) {
        uint64_t *slot = &s->seen_states[(hash + (uint64_t)probe) % SEEN_STATES];
        if (*slot == hash)
            return true;
        if (*slot == 0) {
            if (probe < 64) /* a crowded table forgets rather than searches long */
                *slot = hash;
            return false;
        }
        if (probe >= 64)
            return false;
    }
    return false;
}

static void explore(search *s, const ex_state *state, const ex_turn *turn,
                    int count, bool objective)
{
    if (++s->tried > SEARCH_LIMIT) {
        s->result->search_cut = true;
        return;
    }
    const ex_board *board = ex_board_of(state);
    if (arrows_match(s, state) && tokens_match(s, state, board->place_count) &&
        ex_turn_can_end(state, turn, NULL)) {
        ex_state end = *state;
        ex_turn last = *turn;
        ex_turn_end(&end, &last);
        record(s, &end, count, objective);
    }
    ex_step steps[EX_MAX_CIRCLES * 2];
    size_t n = ex_legal_steps(state, turn, steps, sizeof steps / sizeof steps[0]);
    if (n > sizeof steps / sizeof steps[0]) {
        n = sizeof steps / sizeof steps[0];
        s->result->search_cut = true;
    }
    for (size_t i = 0; i < n && count < EX_MAX_STEPS; i++) {
        const ex_step *step = &steps[i];
        if (step->kind == EX_STEP_SWAP)
            continue; /* unseen: for the players to add */
        if (step->kind == EX_STEP_REMOVE && !s->hidden_arrows) {
            const ex_trail *trail = &state->trails[step->expedition];
            if (shown(s, step->expedition, trail->arrows[trail->count - 1]))
                continue; /* the first pass takes back only what the table no longer shows */
        }
        ex_state next = *state;
        ex_turn next_turn = *turn;
        uint8_t laid_before = (uint8_t)ex_cards_laid(&next, next.active);
        if (ex_turn_step(&next, &next_turn, step, NULL) != EX_OK)
            continue;
        /* the tickets left this turn must be able to take back what the table does not show
         * (a ticket won at a red circle later in the turn may pay for one) */
        if (removals_needed(s, &next) > (s->hidden_arrows ? EX_TICKETS_PER_TURN - next_turn.tickets_used
                                                         : 0))
            continue;
        s->path[count] = *step;
        int next_count = count + 1;
        /* an arrow that laid a card for the active seat without a claim took an objective */
        bool took = ex_cards_laid(&next, next.active) > laid_before;
        if (!claim_tokens(s, &next, &next_turn, &next_count) || searched(s, &next, &next_turn))
            continue;
        explore(s, &next, &next_turn, next_count, objective || took);
    }
}

void ex_reconcile(const ex_state *state, const ex_observation *observation,
                  ex_reconcile_result *result)
{
    memset(result, 0, sizeof *result);
    const ex_board *board = ex_board_of(state);
    search s = {.seen = observation, .result = result};
    memset(s.seen_token, EX_NOBODY, sizeof s.seen_token);
    bool tokens_valid = true;
    for (int k = 0; k < observation->token_count && k < EX_SEEN_MAX_TOKENS; k++) {
        int card = observation->tokens[k].card, seat = observation->tokens[k].seat;
        if (card < 0 || card >= board->place_count || seat < 0 || seat >= state->config.seats ||
            s.seen_token[card] != EX_NOBODY)
            tokens_valid = false;
        else
            s.seen_token[card] = (int8_t)seat;
    }
    bool arrows_same = arrows_match(&s, state);
    if (tokens_valid && arrows_same && tokens_match(&s, state, board->place_count)) {
        result->answer = EX_UNCHANGED;
        return;
    }
    if (!tokens_valid) {
        result->answer = EX_UNEXPLAINED;
        return;
    }
    if (state->phase == EX_PHASE_TOKENS) {
        /* one new token, of the seat to play */
        int added = EX_NONE, changes = 0;
        for (int c = 0; c < board->place_count; c++)
            if (s.seen_token[c] != state->token[c]) {
                changes++;
                if (state->token[c] == EX_NOBODY && s.seen_token[c] == state->active)
                    added = c;
            }
        ex_move move = {.kind = EX_MOVE_TOKEN, .card = (uint8_t)(added == EX_NONE ? 0 : added)};
        ex_state next = *state;
        if (arrows_same && changes == 1 && added != EX_NONE && ex_apply(&next, &move, NULL) == EX_OK) {
            result->answer = EX_EXPLAINED;
            result->count = 1;
            result->explanations[0].move = move;
        } else {
            result->answer = EX_UNEXPLAINED;
        }
        return;
    }
    if (state->phase != EX_PHASE_PLAY) {
        result->answer = EX_UNEXPLAINED;
        return;
    }
    ex_state game = *state;
    game.deck = 0; /* the card turned up is unseen: see the comment at the top */
    ex_turn turn;
    ex_turn_begin(&game, &turn);
    explore(&s, &game, &turn, 0, false);
    if (result->count == 0 && !result->search_cut) {
        /* Nothing placed only what the table shows, nor removed only what it no longer shows:
         * perhaps an arrow was placed and taken back in the same turn. Rare, and a much larger
         * search, so it comes second. */
        s.hidden_arrows = true;
        s.tried = 0;
        memset(s.seen_states, 0, sizeof s.seen_states);
        explore(&s, &game, &turn, 0, false);
    }
    /* best first: fewer tickets, then fewer steps */
    int kept = result->count < 4 ? result->count : 4;
    for (int i = 1; i < kept; i++)
        for (int j = i; j > 0; j--) {
            ex_explanation *a = &result->explanations[j - 1], *b = &result->explanations[j];
            if (b->tickets < a->tickets ||
                (b->tickets == a->tickets && b->move.count < a->move.count)) {
                ex_explanation t = *a;
                *a = *b;
                *b = t;
            }
        }
    /* A ticket is not spent where a free arrow was owed: of explanations that differ by the
     * tickets they spend, the one spending fewest stands out. */
    if (result->count == 0)
        result->answer = EX_UNEXPLAINED;
    else if (result->count == 1 || result->explanations[0].tickets < result->explanations[1].tickets)
        result->answer = EX_EXPLAINED;
    else
        result->answer = EX_AMBIGUOUS;
}
