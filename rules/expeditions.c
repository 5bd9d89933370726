/*
 * Expéditions: the state and the rules of a turn. A turn is a sequence of steps (arrows,
 * tickets, claims, the objective turned up) checked one at a time against what the steps so
 * far owe and allow (ex_turn); ex_apply, the notation, the random game and reconcile all go
 * through ex_turn_step, so each rule is written once.
 */
#include "expeditions_internal.h"
#include "rules_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

_Static_assert(EX_MAX_PLACES <= EX_NO_CARD, "a card number fits in a byte beside EX_NO_CARD");
_Static_assert(EX_COLOUR_MAX == RULES_COLOUR_LENGTH, "one colour size for every engine");

#define fail ex_fail

/* ---- small helpers over the board ---- */

static bool bit(const uint64_t *set, int i)
{
    return (set[i / 64] >> (i % 64)) & 1u;
}

static void set_bit(uint64_t *set, int i)
{
    set[i / 64] |= (uint64_t)1 << (i % 64);
}

const ex_board *ex_board_of(const ex_state *state)
{
    return ex_board_get(state->config.board);
}

int ex_arrow_from(const ex_board *board, ex_arrow arrow)
{
    return board->segments[arrow.segment].node[arrow.forward ? 0 : 1];
}

int ex_arrow_to(const ex_board *board, ex_arrow arrow)
{
    return board->segments[arrow.segment].node[arrow.forward ? 1 : 0];
}

const char *ex_node_id(const ex_board *board, int node)
{
    return board->circles[board->nodes[node].circle].id;
}

const char *ex_card_id(const ex_board *board, int card)
{
    return ex_node_id(board, board->place_node[card]);
}

int ex_deal_size(int seats)
{
    return seats <= 3 ? 12 : 9;
}

/* ---- configuration ---- */

static const char *const default_colours[EX_MAX_SEATS] = {"green", "purple", "orange",
                                                          "black", "white",  "pink"};

void ex_config_default(ex_config *config, int seats)
{
    memset(config, 0, sizeof *config);
    config->seats = seats;
    rules_colours_default(config->colours, default_colours, EX_MAX_SEATS);
}

ex_status ex_init(ex_state *state, const ex_config *config, ex_error *error)
{
    char reason[128];
    if (!rules_seats_valid("Expéditions", 2, EX_MAX_SEATS, config->seats, config->colours, reason,
                           sizeof reason))
        return fail(error, EX_BAD_CONFIG, "%s", reason);
    for (int i = 0; i < config->seats; i++)
        for (int e = 0; e < EX_EXPEDITIONS; e++)
            if (strcmp(config->colours[i], ex_expedition_name(e)) == 0)
                return fail(error, EX_BAD_CONFIG,
                            "seat colour %s: yellow, red and blue name the expeditions (EX-ENGINE-7)",
                            config->colours[i]);
    const ex_board *board = ex_board_get(config->board);
    if (!board)
        return fail(error, EX_BAD_CONFIG, "no board: Expéditions is played on a board file");
    if (board->place_count < config->seats * ex_deal_size(config->seats) + EX_OBJECTIVES + 2)
        return fail(error, EX_BAD_CONFIG, "board %s has %d places, too few cards for %d players",
                    board->id, board->place_count, config->seats);
    memset(state, 0, sizeof *state);
    state->config = *config;
    for (int i = config->seats; i < EX_MAX_SEATS; i++)
        memset(state->config.colours[i], 0, EX_COLOUR_MAX);
    state->phase = EX_PHASE_OBJECTIVES;
    memset(state->objectives, EX_NO_CARD, sizeof state->objectives);
    memset(state->laid, EX_NOBODY, sizeof state->laid);
    memset(state->token, EX_NOBODY, sizeof state->token);
    state->ticket_supply = EX_TICKETS;
    for (int i = 0; i < config->seats; i++) {
        state->hand[i] = (uint8_t)ex_deal_size(config->seats);
        state->tickets[i] = EX_START_TICKETS;
        state->ticket_supply -= EX_START_TICKETS;
    }
    state->deck = (uint8_t)(board->place_count - config->seats * ex_deal_size(config->seats));
    for (int e = 0; e < EX_EXPEDITIONS; e++)
        set_bit(state->trails[e].visited, board->start);
    return EX_OK;
}

/* ---- trails ---- */

/* Recomputes what follows from the arrows: the circles visited, the segments used, whether
 * the last arrow closed a loop. */
void ex_trail_rebuild(const ex_board *board, ex_trail *trail)
{
    memset(trail->visited, 0, sizeof trail->visited);
    memset(trail->used, 0, sizeof trail->used);
    set_bit(trail->visited, board->start);
    trail->closed = 0;
    for (int i = 0; i < trail->count; i++) {
        int to = ex_arrow_to(board, trail->arrows[i]);
        trail->closed = bit(trail->visited, to);
        set_bit(trail->visited, to);
        set_bit(trail->used, trail->arrows[i].segment);
    }
}

int ex_tip(const ex_state *state, int expedition)
{
    const ex_board *board = ex_board_of(state);
    const ex_trail *trail = &state->trails[expedition];
    if (trail->count == 0)
        return board->start;
    if (trail->closed)
        return EX_NONE;
    return ex_arrow_to(board, trail->arrows[trail->count - 1]);
}

bool ex_visited(const ex_state *state, int expedition, int node)
{
    return bit(state->trails[expedition].visited, node);
}

bool ex_segment_used(const ex_state *state, int expedition, int segment)
{
    return bit(state->trails[expedition].used, segment);
}

static bool has_free_segment(const ex_board *board, const ex_trail *trail, int node)
{
    const ex_node *n = &board->nodes[node];
    for (int i = 0; i < n->degree; i++)
        if (!bit(trail->used, n->segment[i]))
            return true;
    return false;
}

bool ex_can_extend(const ex_state *state, int expedition)
{
    const ex_board *board = ex_board_of(state);
    const ex_trail *trail = &state->trails[expedition];
    if (trail->count >= EX_ARROWS)
        return false;
    int tip = ex_tip(state, expedition);
    if (tip != EX_NONE)
        return has_free_segment(board, trail, tip);
    for (int node = 0; node < board->node_count; node++)
        if (bit(trail->visited, node) && has_free_segment(board, trail, node))
            return true;
    return false;
}

static bool any_can_extend(const ex_state *state)
{
    for (int e = 0; e < EX_EXPEDITIONS; e++)
        if (ex_can_extend(state, e))
            return true;
    return false;
}

static int arrows_on_board(const ex_state *state)
{
    int n = 0;
    for (int e = 0; e < EX_EXPEDITIONS; e++)
        n += state->trails[e].count;
    return n;
}

/* ---- setup ---- */

static int objective_slot(const ex_state *state, int card)
{
    for (int k = 0; k < EX_OBJECTIVES; k++)
        if (state->objectives[k] == card)
            return k;
    return EX_NONE;
}

/* Whether anyone but the token's owner could hold the card (EX-ENGINE-4). */
static bool token_blocks(const ex_state *state, int card, int seat)
{
    int owner = state->token[card];
    return owner != EX_NOBODY && owner != seat && state->swaps[owner] == 0;
}

static const char *place_name(const ex_board *board, int card)
{
    return ex_card_id(board, card);
}

static ex_status set_objectives(ex_state *state, const ex_move *move, ex_error *error)
{
    const ex_board *board = ex_board_of(state);
    if (state->phase != EX_PHASE_OBJECTIVES)
        return fail(error, EX_ILLEGAL, "the common objectives are set once, at the start");
    for (int k = 0; k < EX_OBJECTIVES; k++) {
        int card = move->objectives[k];
        if (card >= board->place_count)
            return fail(error, EX_ILLEGAL, "objective %d is not a place of this board", k + 1);
        int distance = board->nodes[board->place_node[card]].distance;
        if (distance < EX_MIN_DISTANCE)
            return fail(error, EX_ILLEGAL,
                        "%s is %d segment%s from the start: a common objective at the setup "
                        "needs %d (put it under the deck and draw again)",
                        place_name(board, card), distance, distance == 1 ? "" : "s",
                        EX_MIN_DISTANCE);
        for (int j = 0; j < k; j++)
            if (move->objectives[j] == card)
                return fail(error, EX_ILLEGAL, "%s is named twice: one card per place",
                            place_name(board, card));
    }
    memcpy(state->objectives, move->objectives, EX_OBJECTIVES);
    state->deck -= EX_OBJECTIVES;
    state->phase = EX_PHASE_TOKENS;
    state->active = 0;
    return EX_OK;
}

static ex_status place_token(ex_state *state, const ex_move *move, ex_error *error)
{
    const ex_board *board = ex_board_of(state);
    if (state->phase != EX_PHASE_TOKENS)
        return fail(error, EX_ILLEGAL, state->phase == EX_PHASE_OBJECTIVES
                                           ? "the common objectives come first"
                                           : "the key locations are all marked");
    int card = move->card;
    if (card >= board->place_count)
        return fail(error, EX_ILLEGAL, "a token goes on a place");
    int distance = board->nodes[board->place_node[card]].distance;
    if (distance < EX_MIN_DISTANCE)
        return fail(error, EX_ILLEGAL, "%s is %d segment%s from the start: a key location needs %d",
                    place_name(board, card), distance, distance == 1 ? "" : "s", EX_MIN_DISTANCE);
    if (state->token[card] != EX_NOBODY)
        return fail(error, EX_ILLEGAL, "%s already holds %s's token: one card per place",
                    place_name(board, card), state->config.colours[state->token[card]]);
    if (objective_slot(state, card) != EX_NONE)
        return fail(error, EX_ILLEGAL, "%s is a common objective, not in anyone's hand",
                    place_name(board, card));
    state->token[card] = (int8_t)state->active;
    state->tokens_placed[state->active]++;
    state->active = (uint8_t)((state->active + 1) % state->config.seats);
    if (state->active == 0 && state->tokens_placed[state->config.seats - 1] == EX_TOKENS)
        state->phase = EX_PHASE_PLAY;
    return EX_OK;
}

/* ---- a turn ---- */

void ex_turn_begin(const ex_state *state, ex_turn *turn)
{
    (void)state;
    memset(turn, 0, sizeof *turn);
    turn->restart = EX_NONE;
    turn->objective_pending = EX_NONE;
}

static void reached(ex_turn *turn, int card)
{
    for (int i = 0; i < turn->reached_count; i++)
        if (turn->reached[i] == card)
            return;
    if (turn->reached_count < EX_MAX_STEPS)
        turn->reached[turn->reached_count++] = (uint8_t)card;
}

/* What reaching a circle gives: a place to claim (and a common objective on an arrow's
 * arrival), a bonus arrow at a blue circle, a ticket at a red one, a restart after a loop. */
static void arrive(ex_state *state, ex_turn *turn, int expedition, bool by_arrow)
{
    const ex_board *board = ex_board_of(state);
    const ex_trail *trail = &state->trails[expedition];
    if (trail->count == 0)
        return; /* back at the start: nothing there */
    int node = ex_arrow_to(board, trail->arrows[trail->count - 1]);
    const ex_node *n = &board->nodes[node];
    if (trail->closed && ex_can_extend(state, expedition))
        turn->restart = (int8_t)expedition; /* EX-ENGINE-2 */
    switch (n->kind) {
    case EX_KIND_PLACE: {
        reached(turn, n->card);
        int slot = objective_slot(state, n->card);
        if (by_arrow && slot != EX_NONE) {
            state->laid[n->card] = (int8_t)state->active;
            state->objectives[slot] = EX_NO_CARD;
            if (state->deck > 0)
                turn->objective_pending = (int8_t)slot;
        }
        break;
    }
    case EX_KIND_BLUE:
        turn->bonus++;
        break;
    case EX_KIND_RED:
        if (state->ticket_supply > 0) {
            state->ticket_supply--;
            state->tickets[state->active]++;
        }
        break;
    default:
        break;
    }
}

static ex_status spend_ticket(ex_state *state, ex_turn *turn, ex_error *error)
{
    if (turn->tickets_used >= EX_TICKETS_PER_TURN)
        return fail(error, EX_ILLEGAL, "two tickets a turn at most");
    if (state->tickets[state->active] == 0)
        return fail(error, EX_ILLEGAL, "%s has no ticket", state->config.colours[state->active]);
    turn->tickets_used++;
    state->tickets[state->active]--;
    state->ticket_supply++;
    turn->bonus = 0; /* a blue circle's arrow comes at once or not at all (EX-ENGINE-2) */
    return EX_OK;
}

static ex_status place_arrow(ex_state *state, ex_turn *turn, const ex_step *step, ex_error *error)
{
    const ex_board *board = ex_board_of(state);
    int e = step->expedition;
    const char *name = ex_expedition_name(e);
    ex_trail *trail = &state->trails[e];
    if (trail->count >= EX_ARROWS)
        return fail(error, EX_ILLEGAL, "the %s expedition has all its %d arrows on the board", name,
                    EX_ARROWS);
    if (step->to < 0 || step->to >= board->circle_count ||
        (step->from != EX_NONE && (step->from < 0 || step->from >= board->circle_count)))
        return fail(error, EX_ILLEGAL, "a circle that is not on this board");
    int to = board->circles[step->to].node;
    int tip = ex_tip(state, e);
    int from;
    if (step->from == EX_NONE) {
        if (tip == EX_NONE)
            return fail(error, EX_ILLEGAL,
                        "the %s expedition closed a loop: say which circle it visited its next "
                        "arrow starts from (%s %s from CIRCLE)",
                        name, name, board->circles[step->to].id);
        from = tip;
    } else {
        from = board->circles[step->from].node;
        if (tip != EX_NONE && from != tip)
            return fail(error, EX_ILLEGAL, "the %s expedition goes on from its tip, %s", name,
                        ex_node_id(board, tip));
        if (!bit(trail->visited, from))
            return fail(error, EX_ILLEGAL, "the %s expedition has not visited %s", name,
                        ex_node_id(board, from));
    }
    int segment = ex_board_segment(board, from, to);
    if (segment == EX_NONE)
        return fail(error, EX_ILLEGAL, "no segment joins %s and %s", ex_node_id(board, from),
                    board->circles[step->to].id);
    if (bit(trail->used, segment)) {
        bool back = trail->count > 0 && trail->arrows[trail->count - 1].segment == segment;
        return fail(error, EX_ILLEGAL,
                    back ? "never back along the segment just arrived by"
                         : "the %s expedition already has an arrow between %s and %s (EX-ENGINE-1)",
                    name, ex_node_id(board, from), ex_node_id(board, to));
    }
    /* the role of the arrow */
    if (step->kind == EX_STEP_TICKET_ARROW) {
        ex_status status = spend_ticket(state, turn, error);
        if (status != EX_OK)
            return status;
    } else if (turn->restart == e) {
        turn->restart = EX_NONE;
    } else if (!turn->main_done) {
        turn->main_done = true;
    } else if (turn->bonus > 0) {
        turn->bonus--;
    } else {
        return fail(error, EX_ILLEGAL,
                    "the turn's arrow is placed: another needs a blue circle or a ticket");
    }
    ex_arrow arrow = {(uint16_t)segment, (uint8_t)(board->segments[segment].node[1] == to)};
    trail->arrows[trail->count++] = arrow;
    trail->closed = bit(trail->visited, to);
    set_bit(trail->visited, to);
    set_bit(trail->used, segment);
    arrive(state, turn, e, true);
    return EX_OK;
}

static ex_status remove_arrow(ex_state *state, ex_turn *turn, const ex_step *step, ex_error *error)
{
    int e = step->expedition;
    ex_trail *trail = &state->trails[e];
    if (trail->count == 0)
        return fail(error, EX_ILLEGAL, "the %s expedition has no arrow to remove",
                    ex_expedition_name(e));
    ex_status status = spend_ticket(state, turn, error);
    if (status != EX_OK)
        return status;
    trail->count--;
    ex_trail_rebuild(ex_board_of(state), trail);
    arrive(state, turn, e, false);
    return EX_OK;
}

static ex_status claim(ex_state *state, ex_turn *turn, const ex_step *step, ex_error *error)
{
    const ex_board *board = ex_board_of(state);
    int card = step->card, seat = step->seat;
    if (seat < 0 || seat >= state->config.seats || card >= board->place_count)
        return fail(error, EX_ILLEGAL, "a claim names a seat and a place");
    const char *who = state->config.colours[seat];
    bool was_reached = false;
    for (int i = 0; i < turn->reached_count; i++)
        was_reached |= turn->reached[i] == card;
    if (!was_reached)
        return fail(error, EX_ILLEGAL, "%s was not reached this turn: a card is laid when an "
                    "expedition arrives", place_name(board, card));
    if (state->laid[card] != EX_NOBODY)
        return fail(error, EX_ILLEGAL, "the card of %s is already laid, by %s",
                    place_name(board, card), state->config.colours[state->laid[card]]);
    if (objective_slot(state, card) != EX_NONE)
        return fail(error, EX_ILLEGAL, "%s is a common objective: nobody holds its card",
                    place_name(board, card));
    if (state->hand[seat] == 0)
        return fail(error, EX_ILLEGAL, "%s has no card left in hand", who);
    if (token_blocks(state, card, seat))
        return fail(error, EX_ILLEGAL, "%s holds %s's token: %s holds its card (EX-ENGINE-4)",
                    place_name(board, card), state->config.colours[state->token[card]],
                    state->config.colours[state->token[card]]);
    state->laid[card] = (int8_t)seat;
    state->hand[seat]--;
    if (state->token[card] == seat) {
        state->token[card] = EX_NOBODY;
        state->tokens_recovered[seat]++;
    }
    return EX_OK;
}

static ex_status turn_objective(ex_state *state, ex_turn *turn, const ex_step *step,
                                ex_error *error)
{
    const ex_board *board = ex_board_of(state);
    int card = step->card;
    if (turn->objective_pending == EX_NONE)
        return fail(error, EX_ILLEGAL, "no common objective was taken: none is turned up");
    if (card >= board->place_count)
        return fail(error, EX_ILLEGAL, "an objective is a place");
    if (state->laid[card] != EX_NOBODY)
        return fail(error, EX_ILLEGAL, "the card of %s is already laid, by %s",
                    place_name(board, card), state->config.colours[state->laid[card]]);
    if (objective_slot(state, card) != EX_NONE)
        return fail(error, EX_ILLEGAL, "%s is already a common objective", place_name(board, card));
    if (token_blocks(state, card, EX_NOBODY))
        return fail(error, EX_ILLEGAL, "%s holds %s's token: %s holds its card (EX-ENGINE-4)",
                    place_name(board, card), state->config.colours[state->token[card]],
                    state->config.colours[state->token[card]]);
    state->objectives[turn->objective_pending] = (uint8_t)card;
    state->deck--;
    turn->objective_pending = EX_NONE;
    return EX_OK;
}

static ex_status step_checked(ex_state *state, ex_turn *turn, const ex_step *step,
                              ex_error *error)
{
    if (state->phase != EX_PHASE_PLAY)
        return fail(error, EX_ILLEGAL, state->phase == EX_PHASE_OVER
                                           ? "the game is over"
                                           : "the setup is not finished");
    if (turn->steps >= EX_MAX_STEPS)
        return fail(error, EX_ILLEGAL, "a turn of more than %d steps", EX_MAX_STEPS);
    bool changes_map = step->kind != EX_STEP_CLAIM && step->kind != EX_STEP_OBJECTIVE;
    if (changes_map && turn->objective_pending != EX_NONE)
        return fail(error, EX_ILLEGAL,
                    "a common objective was taken: the card turned up comes first "
                    "(new objective PLACE)");
    if (changes_map && turn->restart != EX_NONE &&
        !(step->kind == EX_STEP_ARROW && step->expedition == turn->restart)) {
        const char *name = ex_expedition_name(turn->restart);
        return fail(error, EX_ILLEGAL,
                    "the %s expedition closed a loop: its next arrow, from a circle it visited, "
                    "comes first (%s CIRCLE from CIRCLE)", name, name);
    }
    if ((step->kind == EX_STEP_ARROW || step->kind == EX_STEP_TICKET_ARROW ||
         step->kind == EX_STEP_REMOVE) && step->expedition >= EX_EXPEDITIONS)
        return fail(error, EX_ILLEGAL, "the expeditions are yellow, red and blue");
    switch (step->kind) {
    case EX_STEP_ARROW:
    case EX_STEP_TICKET_ARROW:
        return place_arrow(state, turn, step, error);
    case EX_STEP_REMOVE:
        return remove_arrow(state, turn, step, error);
    case EX_STEP_SWAP: {
        if (state->hand[state->active] == 0)
            return fail(error, EX_ILLEGAL, "%s has no card to swap",
                        state->config.colours[state->active]);
        if (state->deck < 2)
            return fail(error, EX_ILLEGAL, "a swap draws 2 cards; the deck has %d (EX-ENGINE-6)",
                        state->deck);
        ex_status status = spend_ticket(state, turn, error);
        if (status == EX_OK)
            state->swaps[state->active]++;
        return status;
    }
    case EX_STEP_CLAIM:
        return claim(state, turn, step, error);
    case EX_STEP_OBJECTIVE:
        return turn_objective(state, turn, step, error);
    default:
        return fail(error, EX_ILLEGAL, "an unknown step");
    }
}

ex_status ex_turn_step(ex_state *state, ex_turn *turn, const ex_step *step, ex_error *error)
{
    /* every step makes all its checks before its first change, so a refused step leaves state
     * and turn as they were without a copy (the random game and reconcile take many steps) */
    ex_status status = step_checked(state, turn, step, error);
    if (status == EX_OK)
        turn->steps++;
    return status;
}

bool ex_turn_can_end(const ex_state *state, const ex_turn *turn, ex_error *error)
{
    if (turn->objective_pending != EX_NONE) {
        fail(error, EX_ILLEGAL, "a common objective was taken: enter the card turned up "
             "(new objective PLACE)");
        return false;
    }
    if (turn->restart != EX_NONE) {
        const char *name = ex_expedition_name(turn->restart);
        fail(error, EX_ILLEGAL,
             "the %s expedition closed a loop: place its next arrow from a circle it visited "
             "(%s CIRCLE from CIRCLE)", name, name);
        return false;
    }
    if (!turn->main_done && any_can_extend(state)) {
        fail(error, EX_ILLEGAL, "a turn extends one expedition by an arrow");
        return false;
    }
    return true;
}

void ex_turn_end(ex_state *state, ex_turn *turn)
{
    (void)turn;
    int seats = state->config.seats;
    state->turns++;
    for (int i = 0; i < seats; i++)
        if (state->hand[i] == 0)
            state->ending = true;
    bool round_done = state->active == seats - 1;
    if (arrows_on_board(state) == EX_EXPEDITIONS * EX_ARROWS || !any_can_extend(state) ||
        (state->ending && round_done))
        state->phase = EX_PHASE_OVER;
    else
        state->active = (uint8_t)((state->active + 1) % seats);
}

static ex_status play_turn(ex_state *state, const ex_move *move, ex_error *error)
{
    if (state->phase != EX_PHASE_PLAY)
        return fail(error, EX_ILLEGAL, state->phase == EX_PHASE_OVER
                                           ? "the game is over"
                                           : "the setup is not finished");
    if (move->count > EX_MAX_STEPS)
        return fail(error, EX_ILLEGAL, "a turn of more than %d steps", EX_MAX_STEPS);
    ex_turn turn;
    ex_turn_begin(state, &turn);
    for (int i = 0; i < move->count; i++) {
        ex_status status = ex_turn_step(state, &turn, &move->steps[i], error);
        if (status != EX_OK)
            return status;
    }
    if (!ex_turn_can_end(state, &turn, error))
        return EX_ILLEGAL;
    ex_turn_end(state, &turn);
    return EX_OK;
}

ex_status ex_apply(ex_state *state, const ex_move *move, ex_error *error)
{
    ex_state copy = *state;
    ex_status status;
    switch (move->kind) {
    case EX_MOVE_OBJECTIVES:
        status = set_objectives(&copy, move, error);
        break;
    case EX_MOVE_TOKEN:
        status = place_token(&copy, move, error);
        break;
    case EX_MOVE_TURN:
        status = play_turn(&copy, move, error);
        break;
    default:
        status = fail(error, EX_ILLEGAL, "an unknown move");
    }
    if (status == EX_OK)
        *state = copy;
    return status;
}

/* ---- scores ---- */

int ex_cards_laid(const ex_state *state, int seat)
{
    const ex_board *board = ex_board_of(state);
    int n = 0;
    for (int c = 0; c < board->place_count; c++)
        n += state->laid[c] == seat;
    return n;
}

void ex_scores(const ex_state *state, int32_t scores[EX_MAX_SEATS])
{
    memset(scores, 0, sizeof(int32_t) * EX_MAX_SEATS);
    for (int i = 0; i < state->config.seats; i++) {
        int on_board = state->tokens_placed[i] - state->tokens_recovered[i];
        scores[i] = ex_cards_laid(state, i) + state->tokens_recovered[i] - state->hand[i] - on_board;
    }
}

void ex_ranks(const ex_state *state, int32_t ranks[EX_MAX_SEATS])
{
    int32_t scores[EX_MAX_SEATS];
    ex_scores(state, scores);
    int32_t tickets[EX_MAX_SEATS];
    for (int i = 0; i < state->config.seats; i++)
        tickets[i] = state->tickets[i];
    memset(ranks, 0, sizeof(int32_t) * EX_MAX_SEATS);
    rules_rank(scores, tickets, state->config.seats, ranks);
}

/* ---- invariants ---- */

ex_status ex_verify(const ex_state *state, ex_error *error)
{
    const ex_board *board = ex_board_of(state);
    if (!board)
        return fail(error, EX_ILLEGAL, "no board");
    for (int e = 0; e < EX_EXPEDITIONS; e++) {
        const ex_trail *trail = &state->trails[e];
        if (trail->count > EX_ARROWS)
            return fail(error, EX_ILLEGAL, "%s: %d arrows", ex_expedition_name(e), trail->count);
        ex_trail check = *trail;
        ex_trail_rebuild(board, &check);
        if (memcmp(check.visited, trail->visited, sizeof check.visited) != 0 ||
            memcmp(check.used, trail->used, sizeof check.used) != 0 ||
            check.closed != trail->closed)
            return fail(error, EX_ILLEGAL, "%s: the trail's summary disagrees with its arrows",
                        ex_expedition_name(e));
        /* each arrow starts from a circle visited before it, on a segment used once */
        uint64_t visited[EX_MAX_CIRCLES / 64] = {0}, used[EX_MAX_SEGMENTS / 64] = {0};
        set_bit(visited, board->start);
        for (int i = 0; i < trail->count; i++) {
            ex_arrow a = trail->arrows[i];
            if (a.segment >= board->segment_count || a.forward > 1)
                return fail(error, EX_ILLEGAL, "%s: arrow %d is not on the board",
                            ex_expedition_name(e), i + 1);
            if (!bit(visited, ex_arrow_from(board, a)))
                return fail(error, EX_ILLEGAL, "%s: arrow %d starts from a circle not visited",
                            ex_expedition_name(e), i + 1);
            if (bit(used, a.segment))
                return fail(error, EX_ILLEGAL, "%s: two arrows on one segment",
                            ex_expedition_name(e));
            set_bit(used, a.segment);
            set_bit(visited, ex_arrow_to(board, a));
        }
    }
    int seats = state->config.seats;
    if (state->phase != EX_PHASE_OBJECTIVES) {
        int cards = state->deck;
        for (int i = 0; i < seats; i++)
            cards += state->hand[i] + ex_cards_laid(state, i);
        for (int k = 0; k < EX_OBJECTIVES; k++)
            cards += state->objectives[k] != EX_NO_CARD;
        if (cards != board->place_count)
            return fail(error, EX_ILLEGAL, "%d cards accounted for, the board has %d", cards,
                        board->place_count);
    }
    int tickets = state->ticket_supply;
    for (int i = 0; i < seats; i++) {
        tickets += state->tickets[i];
        int on_board = 0;
        for (int c = 0; c < board->place_count; c++)
            on_board += state->token[c] == i;
        if (state->tokens_placed[i] > EX_TOKENS ||
            on_board + state->tokens_recovered[i] != state->tokens_placed[i])
            return fail(error, EX_ILLEGAL, "%s's tokens do not add up", state->config.colours[i]);
    }
    if (tickets != EX_TICKETS)
        return fail(error, EX_ILLEGAL, "%d tickets accounted for, the box has %d", tickets,
                    EX_TICKETS);
    return EX_OK;
}

/* ---- legal steps ---- */

typedef struct step_list {
    ex_step *steps;
    size_t max, count;
} step_list;

static void add_step(step_list *list, ex_step step)
{
    if (list->count < list->max)
        list->steps[list->count] = step;
    list->count++;
}

static void add_arrows_from(const ex_board *board, const ex_trail *trail, int node, bool tip,
                            int expedition, uint8_t kind, step_list *list)
{
    const ex_node *n = &board->nodes[node];
    for (int i = 0; i < n->degree; i++) {
        int segment = n->segment[i];
        if (bit(trail->used, segment))
            continue;
        const ex_segment *s = &board->segments[segment];
        int end = s->node[0] == node; /* the other end */
        ex_step step = {.kind = kind, .expedition = (uint8_t)expedition,
                        .from = tip ? (int16_t)EX_NONE : s->circle[!end], .to = s->circle[end]};
        add_step(list, step);
    }
}

static void add_arrows(const ex_state *state, int expedition, uint8_t kind, step_list *list)
{
    const ex_board *board = ex_board_of(state);
    const ex_trail *trail = &state->trails[expedition];
    if (trail->count >= EX_ARROWS)
        return;
    int tip = ex_tip(state, expedition);
    if (tip != EX_NONE) {
        add_arrows_from(board, trail, tip, true, expedition, kind, list);
        return;
    }
    for (int node = 0; node < board->node_count; node++)
        if (bit(trail->visited, node))
            add_arrows_from(board, trail, node, false, expedition, kind, list);
}

size_t ex_free_arrows(const ex_state *state, int expedition, uint8_t kind, ex_step *steps,
                      size_t max)
{
    step_list list = {steps, max, 0};
    add_arrows(state, expedition, kind, &list);
    return list.count;
}

size_t ex_legal_steps(const ex_state *state, const ex_turn *turn, ex_step *steps, size_t max)
{
    step_list list = {steps, max, 0};
    if (state->phase != EX_PHASE_PLAY || turn->objective_pending != EX_NONE ||
        turn->steps >= EX_MAX_STEPS)
        return 0;
    if (turn->restart != EX_NONE) {
        add_arrows(state, turn->restart, EX_STEP_ARROW, &list);
        return list.count;
    }
    bool plain = !turn->main_done || turn->bonus > 0;
    bool ticket = turn->tickets_used < EX_TICKETS_PER_TURN && state->tickets[state->active] > 0;
    for (int e = 0; e < EX_EXPEDITIONS; e++) {
        if (plain)
            add_arrows(state, e, EX_STEP_ARROW, &list);
        if (ticket)
            add_arrows(state, e, EX_STEP_TICKET_ARROW, &list);
    }
    if (ticket) {
        for (int e = 0; e < EX_EXPEDITIONS; e++)
            if (state->trails[e].count > 0)
                add_step(&list, (ex_step){.kind = EX_STEP_REMOVE, .expedition = (uint8_t)e,
                                          .from = EX_NONE, .to = EX_NONE});
        if (state->hand[state->active] > 0 && state->deck >= 2)
            add_step(&list, (ex_step){.kind = EX_STEP_SWAP, .from = EX_NONE, .to = EX_NONE});
    }
    return list.count;
}
