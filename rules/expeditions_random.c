/*
 * A random legal game of Expéditions: the box simulated (the deck, every hand), random choices
 * for everything a player decides, and every claim its holder owes. Each step goes through
 * ex_turn_step, so the engine checks its own game; the lines emitted replay it exactly.
 */
#include "expeditions_internal.h"
#include "rules_random.h"
#include "rules_text.h"

#include <stdio.h>
#include <string.h>

#define MAX_TURNS 4000           /* a game that has not ended by then is a bug */
#define OPTIONAL_STEPS 10        /* tickets and bonuses stop here, so that lines stay short */
#define TICKET_PERCENT 12        /* chance of a ticket before, and again after, the main arrow */
#define BONUS_PERCENT 85         /* chance of taking a blue circle's bonus arrow */

typedef struct sim {
    ex_state *state;
    const ex_board *board;
    uint64_t rng;
    int8_t holder[EX_MAX_PLACES]; /* the seat holding each card, or EX_NOBODY */
    uint8_t deck[EX_MAX_PLACES];  /* a ring: deck[head] is the top */
    int head, count;
    ex_turn turn;
    ex_move move;                 /* the turn's steps, for the line */
    int settled;                  /* reached places already looked at for claims */
    void (*emit)(void *context, const char *line);
    void *context;
    ex_error *error;
} sim;

static bool chance(sim *s, int percent)
{
    return rules_random_below(&s->rng, 100) < percent;
}

static int draw(sim *s)
{
    int card = s->deck[s->head];
    s->head = (s->head + 1) % s->board->place_count;
    s->count--;
    return card;
}

static void put_under(sim *s, int card)
{
    s->deck[(s->head + s->count) % s->board->place_count] = (uint8_t)card;
    s->count++;
}

static void emit_line(sim *s, int seat, const ex_state *before, const ex_move *move)
{
    if (!s->emit)
        return;
    char line[RULES_TEXT_MAX];
    int n = 0;
    if (seat >= 0)
        n = snprintf(line, sizeof line, "%s: ", before->config.colours[seat]);
    ex_format_move(before, move, line + n, sizeof line - (size_t)n);
    s->emit(s->context, line);
}

static bool step(sim *s, const ex_step *st)
{
    if (ex_turn_step(s->state, &s->turn, st, s->error) != EX_OK)
        return false;
    if (s->move.count < EX_MAX_STEPS)
        s->move.steps[s->move.count++] = *st;
    return true;
}

/* A random legal arrow of the expedition (its tip, or any visited circle after a loop). */
static bool random_arrow(sim *s, int expedition, ex_step *st)
{
    ex_step arrows[EX_MAX_CIRCLES];
    size_t n = ex_free_arrows(s->state, expedition, EX_STEP_ARROW, arrows, EX_MAX_CIRCLES);
    if (n == 0)
        return false;
    if (n > EX_MAX_CIRCLES)
        n = EX_MAX_CIRCLES;
    *st = arrows[rules_random_below(&s->rng, (int)n)];
    return true;
}

static int random_extendable(sim *s)
{
    int choices[EX_EXPEDITIONS], n = 0;
    for (int e = 0; e < EX_EXPEDITIONS; e++)
        if (ex_can_extend(s->state, e))
            choices[n++] = e;
    return n ? choices[rules_random_below(&s->rng, n)] : EX_NONE;
}

/* What the last step owes: the claims of every holder, the objective turned up, a restart;
 * then perhaps the bonus arrows. */
static bool settle(sim *s, bool optional)
{
    for (;;) {
        while (s->settled < s->turn.reached_count) {
            int card = s->turn.reached[s->settled++];
            int seat = s->holder[card];
            if (seat == EX_NOBODY)
                continue;
            ex_step st = {.kind = EX_STEP_CLAIM, .seat = (int8_t)seat, .card = (uint8_t)card,
                          .from = EX_NONE, .to = EX_NONE};
            if (!step(s, &st))
                return false;
            s->holder[card] = EX_NOBODY;
        }
        if (s->turn.objective_pending != EX_NONE) {
            ex_step st = {.kind = EX_STEP_OBJECTIVE, .card = (uint8_t)draw(s), .from = EX_NONE,
                          .to = EX_NONE};
            if (!step(s, &st))
                return false;
            continue;
        }
        if (s->turn.restart != EX_NONE) {
            ex_step st;
            if (!random_arrow(s, s->turn.restart, &st) || !step(s, &st))
                return false;
            continue;
        }
        if (optional && s->turn.bonus > 0 && s->turn.main_done && s->move.count < OPTIONAL_STEPS &&
            chance(s, BONUS_PERCENT)) {
            int e = random_extendable(s);
            ex_step st;
            if (e != EX_NONE) {
                if (!random_arrow(s, e, &st) || !step(s, &st))
                    return false;
                continue;
            }
        }
        return true;
    }
}

static bool swap(sim *s)
{
    int seat = s->state->active;
    ex_step st = {.kind = EX_STEP_SWAP, .from = EX_NONE, .to = EX_NONE};
    if (!step(s, &st))
        return false;
    int held[EX_MAX_PLACES], n = 0;
    for (int c = 0; c < s->board->place_count; c++)
        if (s->holder[c] == seat)
            held[n++] = c;
    int a = draw(s), b = draw(s);
    if (chance(s, 10)) { /* neither drawn card is better: both go under */
        put_under(s, a);
        put_under(s, b);
        return true;
    }
    int discard = held[rules_random_below(&s->rng, n)];
    if (chance(s, 50)) {
        int t = a;
        a = b;
        b = t;
    }
    s->holder[discard] = EX_NOBODY;
    s->holder[a] = (int8_t)seat;
    put_under(s, b);
    put_under(s, discard);
    return true;
}

static bool random_ticket(sim *s)
{
    const ex_state *g = s->state;
    if (g->tickets[g->active] == 0 || s->turn.tickets_used >= EX_TICKETS_PER_TURN ||
        s->move.count >= OPTIONAL_STEPS)
        return true;
    int kind = rules_random_below(&s->rng, 3);
    if (kind == 0) {
        int e = random_extendable(s);
        ex_step st;
        if (e == EX_NONE || !random_arrow(s, e, &st))
            return true;
        st.kind = EX_STEP_TICKET_ARROW;
        return step(s, &st) && settle(s, true);
    }
    if (kind == 1) {
        int e = rules_random_below(&s->rng, EX_EXPEDITIONS);
        if (g->trails[e].count == 0)
            return true;
        ex_step st = {.kind = EX_STEP_REMOVE, .expedition = (uint8_t)e, .from = EX_NONE,
                      .to = EX_NONE};
        return step(s, &st) && settle(s, true);
    }
    if (g->hand[g->active] == 0 || g->deck < 2)
        return true;
    return swap(s);
}

/* The turn's own arrow, unless it is placed or no expedition can take one. */
static bool main_arrow(sim *s)
{
    int e = s->turn.main_done ? EX_NONE : random_extendable(s);
    if (e == EX_NONE)
        return true;
    ex_step st;
    return random_arrow(s, e, &st) && step(s, &st) && settle(s, true);
}

static bool play_turn(sim *s)
{
    ex_state before = *s->state;
    ex_turn_begin(s->state, &s->turn);
    s->move = (ex_move){.kind = EX_MOVE_TURN};
    s->settled = 0;
    if (chance(s, TICKET_PERCENT) && !random_ticket(s))
        return false;
    if (!main_arrow(s))
        return false;
    if (chance(s, TICKET_PERCENT) && (!random_ticket(s) || !main_arrow(s)))
        return false; /* a ticket may free an arrow when none could be placed before it */
    if (!ex_turn_can_end(s->state, &s->turn, s->error))
        return false;
    ex_turn_end(s->state, &s->turn);
    emit_line(s, before.active, &before, &s->move);
    return true;
}

/* Deals until every seat holds 4 places far enough from the start for its tokens. */
static void deal(sim *s)
{
    const ex_board *board = s->board;
    int seats = s->state->config.seats, places = board->place_count;
    for (;;) {
        uint8_t cards[EX_MAX_PLACES];
        for (int c = 0; c < places; c++)
            cards[c] = (uint8_t)c;
        rules_random_shuffle(&s->rng, cards, places);
        memset(s->holder, EX_NOBODY, sizeof s->holder);
        int dealt = seats * ex_deal_size(seats);
        int eligible[EX_MAX_SEATS] = {0};
        for (int i = 0; i < dealt; i++) {
            s->holder[cards[i]] = (int8_t)(i % seats);
            eligible[i % seats] += board->nodes[board->place_node[cards[i]]].distance >=
                                   EX_MIN_DISTANCE;
        }
        s->head = 0;
        s->count = 0;
        for (int i = dealt; i < places; i++)
            put_under(s, cards[i]);
        bool enough = true;
        for (int i = 0; i < seats; i++)
            enough &= eligible[i] >= EX_TOKENS;
        if (enough)
            return;
    }
}

static bool setup(sim *s)
{
    const ex_board *board = s->board;
    ex_state *g = s->state;
    deal(s);
    ex_move move = {.kind = EX_MOVE_OBJECTIVES};
    for (int k = 0; k < EX_OBJECTIVES; k++) {
        int card;
        while (board->nodes[board->place_node[card = draw(s)]].distance < EX_MIN_DISTANCE)
            put_under(s, card); /* the book: under the deck, and draw again */
        move.objectives[k] = (uint8_t)card;
    }
    ex_state before = *g;
    if (ex_apply(g, &move, s->error) != EX_OK)
        return false;
    emit_line(s, -1, &before, &move);
    while (g->phase == EX_PHASE_TOKENS) {
        int seat = g->active, choices[EX_MAX_PLACES], n = 0;
        for (int c = 0; c < board->place_count; c++)
            if (s->holder[c] == seat && g->token[c] == EX_NOBODY &&
                board->nodes[board->place_node[c]].distance >= EX_MIN_DISTANCE)
                choices[n++] = c;
        move = (ex_move){.kind = EX_MOVE_TOKEN,
                         .card = (uint8_t)choices[rules_random_below(&s->rng, n)]};
        before = *g;
        if (ex_apply(g, &move, s->error) != EX_OK)
            return false;
        emit_line(s, seat, &before, &move);
    }
    return true;
}

ex_status ex_random_game(ex_state *state, uint64_t seed,
                         void (*emit)(void *context, const char *line), void *context,
                         ex_error *error)
{
    ex_error ignored;
    sim s = {.state = state, .board = ex_board_of(state), .rng = seed, .emit = emit,
             .context = context, .error = error ? error : &ignored};
    if (!s.board || state->phase != EX_PHASE_OBJECTIVES) {
        snprintf(s.error->message, sizeof s.error->message, "a random game starts from a new game");
        return EX_ILLEGAL;
    }
    if (!setup(&s))
        return EX_ILLEGAL;
    for (int turns = 0; state->phase == EX_PHASE_PLAY; turns++) {
        if (turns == MAX_TURNS) {
            snprintf(s.error->message, sizeof s.error->message, "no end after %d turns", MAX_TURNS);
            return EX_ILLEGAL;
        }
        if (!play_turn(&s))
            return EX_ILLEGAL;
    }
    return EX_OK;
}
