/*
 * The Expéditions notation: one line a turn, its steps separated by commas, circles named by
 * the ids of the board file.
 *
 *   objectives troy angkor-wat tunguska el-dorado great-wall easter-island   setup, first line
 *   token harappa                          setup: the seat to play marks a key location
 *   yellow rome                            an arrow: the yellow expedition goes on to Rome
 *   red b1, red caspian-sea                ... to a blue circle, then its bonus arrow
 *   red babylon, ticket red harappa, green claims harappa
 *                                          a ticket's extra arrow; green lays Harappa's card
 *   blue putorana-plateau, new objective troy
 *                                          a common objective taken, the card turned up
 *   ticket remove red, red petra           a ticket takes back red's last arrow
 *   red iguazu-falls, red angel-falls from iguazu-falls
 *                                          a loop: the next arrow starts from a visited circle
 *   ticket swap                            a ticket swaps a card (hidden)
 *   pass                                   only when no expedition can take an arrow
 *
 * `#` starts a comment; an optional `colour: ` prefix on token and turn lines must name the
 * seat to play.
 */
#include "expeditions_internal.h"
#include "rules_text.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define MAX_LINE RULES_TEXT_MAX
#define MAX_CLAUSES EX_MAX_STEPS

typedef rules_word word;
typedef rules_clause clause;

static const char step_forms[] =
    "a step is `red rome`, `ticket red rome`, `ticket remove red`, `ticket swap`, "
    "`green claims rome` or `new objective rome`";

/* every refusal of the parser is bad notation */
#define fail(error, ...) ex_fail(error, EX_BAD_NOTATION, __VA_ARGS__)

static int expedition_of(const word *w)
{
    for (int e = 0; e < EX_EXPEDITIONS; e++)
        if (rules_word_is(w, ex_expedition_name(e)))
            return e;
    return EX_NONE;
}

static int seat_of(const ex_state *state, const word *w)
{
    for (int i = 0; i < state->config.seats; i++)
        if (rules_word_is(w, state->config.colours[i]))
            return i;
    return EX_NONE;
}

static ex_status circle_of(const ex_board *board, const word *w, int16_t *circle,
                           ex_error *error)
{
    int c = ex_board_circle(board, w->text, w->length);
    if (c == EX_NONE)
        return fail(error, "'%.*s' is not a circle of board %s", (int)w->length, w->text,
                    board->id);
    *circle = (int16_t)c;
    return EX_OK;
}

static ex_status card_of(const ex_board *board, const word *w, uint8_t *card, ex_error *error)
{
    int16_t circle = EX_NONE;
    ex_status status = circle_of(board, w, &circle, error);
    if (status != EX_OK)
        return status;
    const ex_node *node = &board->nodes[board->circles[circle].node];
    if (node->card == EX_NONE)
        return fail(error, "'%.*s' is a %s circle, not a place", (int)w->length, w->text,
                    ex_kind_name(node->kind));
    *card = (uint8_t)node->card;
    return EX_OK;
}

/* `red rome` or `red rome from babylon`, the words after an optional `ticket` */
static ex_status parse_arrow(const ex_board *board, const word *w, int count, ex_step *step,
                             ex_error *error)
{
    if ((count != 2 && count != 4) || (count == 4 && !rules_word_is(&w[2], "from")))
        return fail(error, "an arrow is `red rome` or, after a loop, `red rome from babylon`");
    step->expedition = (uint8_t)expedition_of(&w[0]);
    step->from = EX_NONE;
    ex_status status = circle_of(board, &w[1], &step->to, error);
    if (status == EX_OK && count == 4)
        status = circle_of(board, &w[3], &step->from, error);
    return status;
}

static ex_status parse_step(const ex_state *state, const clause *c, ex_step *step,
                            ex_error *error)
{
    const ex_board *board = ex_board_of(state);
    const word *w = c->words;
    memset(step, 0, sizeof *step);
    step->from = step->to = EX_NONE;
    if (expedition_of(&w[0]) != EX_NONE) {
        step->kind = EX_STEP_ARROW;
        return parse_arrow(board, w, c->count, step, error);
    }
    if (rules_word_is(&w[0], "ticket")) {
        if (c->count == 2 && rules_word_is(&w[1], "swap")) {
            step->kind = EX_STEP_SWAP;
            return EX_OK;
        }
        if (c->count >= 2 && rules_word_is(&w[1], "remove")) {
            int e = c->count == 3 ? expedition_of(&w[2]) : EX_NONE;
            if (e == EX_NONE)
                return fail(error, "a removal is `ticket remove red`");
            step->kind = EX_STEP_REMOVE;
            step->expedition = (uint8_t)e;
            return EX_OK;
        }
        if (c->count >= 2 && expedition_of(&w[1]) != EX_NONE) {
            step->kind = EX_STEP_TICKET_ARROW;
            return parse_arrow(board, w + 1, c->count - 1, step, error);
        }
        return fail(error, "a ticket is `ticket red rome`, `ticket remove red` or `ticket swap`");
    }
    if (rules_word_is(&w[0], "new")) {
        if (c->count != 3 || !rules_word_is(&w[1], "objective"))
            return fail(error, "the card turned up is `new objective rome`");
        step->kind = EX_STEP_OBJECTIVE;
        return card_of(board, &w[2], &step->card, error);
    }
    if (c->count == 3 && rules_word_is(&w[1], "claims")) {
        int seat = seat_of(state, &w[0]);
        if (seat == EX_NONE)
            return fail(error, "'%.*s' is not a colour of this game", (int)w[0].length, w[0].text);
        step->kind = EX_STEP_CLAIM;
        step->seat = (int8_t)seat;
        return card_of(board, &w[2], &step->card, error);
    }
    return fail(error, "%s", step_forms);
}

ex_status ex_parse(const ex_state *state, const char *text, ex_line *line, ex_error *error)
{
    memset(line, 0, sizeof *line);
    line->seat = -1;
    const ex_board *board = ex_board_of(state);
    rules_text read;
    if (!rules_text_read(text, MAX_LINE - 1, &read))
        return fail(error, "longer than %d characters", MAX_LINE - 1);
    if (read.prefix.length && (line->seat = (int8_t)seat_of(state, &read.prefix)) < 0)
        return fail(error, "'%.*s' is not a colour of this game", (int)read.prefix.length,
                    read.prefix.text);
    if (!*read.body && !read.prefix.length) {
        line->kind = EX_LINE_EMPTY;
        return EX_OK;
    }
    clause clauses[MAX_CLAUSES];
    int count = rules_split(read.body, clauses, MAX_CLAUSES);
    if (count < 0)
        return fail(error, "more than %d steps, or a step of more than %d words", EX_MAX_STEPS,
                    RULES_CLAUSE_WORDS);
    for (int i = 0; i < count; i++)
        if (clauses[i].count == 0)
            return fail(error, i == 0 && count == 1 ? "an action is missing"
                                                    : "an empty step between commas");
    line->kind = EX_LINE_MOVE;
    ex_move *move = &line->move;
    const word *verb = &clauses[0].words[0];
    if (rules_word_is(verb, "objectives")) {
        if (line->seat >= 0)
            return fail(error, "a colour prefix goes only before a turn or a token");
        if (count != 1 || clauses[0].count != 1 + EX_OBJECTIVES)
            return fail(error, "the setup's objectives are 6 places: `objectives troy angkor-wat ...`");
        move->kind = EX_MOVE_OBJECTIVES;
        for (int k = 0; k < EX_OBJECTIVES; k++) {
            ex_status status = card_of(board, &clauses[0].words[1 + k], &move->objectives[k], error);
            if (status != EX_OK)
                return status;
        }
        return EX_OK;
    }
    if (rules_word_is(verb, "token")) {
        if (count != 1 || clauses[0].count != 2)
            return fail(error, "a key location is `token harappa`");
        move->kind = EX_MOVE_TOKEN;
        return card_of(board, &clauses[0].words[1], &move->card, error);
    }
    move->kind = EX_MOVE_TURN;
    if (rules_word_is(verb, "pass")) {
        if (count != 1 || clauses[0].count != 1)
            return fail(error, "`pass` stands alone");
        return EX_OK;
    }
    for (int i = 0; i < count; i++) {
        ex_status status = parse_step(state, &clauses[i], &move->steps[i], error);
        if (status != EX_OK)
            return status;
    }
    move->count = (uint8_t)count;
    return EX_OK;
}

/* ---- formatting ---- */

/* The circle at a node's end of a segment: the half of a wrap point the arrow touches. */
static const char *segment_end(const ex_board *board, int segment, int node)
{
    const ex_segment *s = &board->segments[segment];
    return board->circles[s->circle[s->node[1] == node]].id;
}

/* One step as the state before it reads it: an arrow names the half of a wrap point it
 * touches, and `from` only when its expedition has no free tip. */
static void put_step(rules_writer *w, const ex_state *state, const ex_step *step)
{
    const ex_board *board = ex_board_of(state);
    switch (step->kind) {
    case EX_STEP_ARROW:
    case EX_STEP_TICKET_ARROW: {
        if (step->kind == EX_STEP_TICKET_ARROW)
            rules_put(w, "ticket ");
        rules_put(w, ex_expedition_name(step->expedition));
        rules_put(w, " ");
        bool known = step->to >= 0 && step->to < board->circle_count &&
                     step->expedition < EX_EXPEDITIONS &&
                     (step->from == EX_NONE || step->from < board->circle_count);
        int tip = known ? ex_tip(state, step->expedition) : EX_NONE;
        int from = step->from != EX_NONE && known ? board->circles[step->from].node : tip;
        int to = known ? board->circles[step->to].node : EX_NONE;
        int segment = from != EX_NONE && to != EX_NONE ? ex_board_segment(board, from, to)
                                                       : EX_NONE;
        if (segment == EX_NONE) { /* not a legal arrow: as it was written */
            rules_put(w, known ? board->circles[step->to].id : "?");
            if (step->from != EX_NONE && known) {
                rules_put(w, " from ");
                rules_put(w, board->circles[step->from].id);
            }
            break;
        }
        rules_put(w, segment_end(board, segment, to));
        if (tip == EX_NONE) {
            rules_put(w, " from ");
            rules_put(w, segment_end(board, segment, from));
        }
        break;
    }
    case EX_STEP_REMOVE:
        rules_put(w, "ticket remove ");
        rules_put(w, ex_expedition_name(step->expedition));
        break;
    case EX_STEP_SWAP:
        rules_put(w, "ticket swap");
        break;
    case EX_STEP_CLAIM:
        rules_put(w, state->config.colours[step->seat]);
        rules_put(w, " claims ");
        rules_put(w, ex_card_id(board, step->card));
        break;
    case EX_STEP_OBJECTIVE:
        rules_put(w, "new objective ");
        rules_put(w, ex_card_id(board, step->card));
        break;
    default:
        rules_put(w, "?");
    }
}

int ex_format_move(const ex_state *state, const ex_move *move, char *out, size_t size)
{
    const ex_board *board = ex_board_of(state);
    rules_writer w;
    rules_writer_start(&w, out, size);
    switch (move->kind) {
    case EX_MOVE_OBJECTIVES:
        rules_put(&w, "objectives");
        for (int k = 0; k < EX_OBJECTIVES; k++) {
            rules_put(&w, " ");
            rules_put(&w, move->objectives[k] < board->place_count
                              ? ex_card_id(board, move->objectives[k])
                              : "?");
        }
        break;
    case EX_MOVE_TOKEN:
        rules_put(&w, "token ");
        rules_put(&w, move->card < board->place_count ? ex_card_id(board, move->card) : "?");
        break;
    case EX_MOVE_TURN: {
        if (move->count == 0) {
            rules_put(&w, "pass");
            break;
        }
        /* each step is read by the game as it stands before that step */
        ex_state game = *state;
        ex_turn turn;
        ex_turn_begin(&game, &turn);
        bool playing = game.phase == EX_PHASE_PLAY;
        for (int i = 0; i < move->count; i++) {
            if (i > 0)
                rules_put(&w, ", ");
            put_step(&w, &game, &move->steps[i]);
            if (playing)
                playing = ex_turn_step(&game, &turn, &move->steps[i], NULL) == EX_OK;
        }
        break;
    }
    default:
        rules_put(&w, "?");
    }
    return (int)w.length;
}

ex_status ex_play_line(ex_state *state, const char *text, ex_line *played, ex_error *error)
{
    ex_line line;
    ex_error reason;
    ex_status status = ex_parse(state, text, &line, &reason);
    if (status == EX_OK && line.kind == EX_LINE_EMPTY) {
        if (played)
            *played = line;
        return EX_OK;
    }
    char action[80] = "line";
    if (status == EX_OK)
        ex_format_move(state, &line.move, action, sizeof action);
    ex_state game = *state;
    if (status == EX_OK && line.seat >= 0 && game.phase != EX_PHASE_OBJECTIVES &&
        line.seat != game.active) {
        status = fail(&reason, "it is %.15s's turn, not %.15s's", game.config.colours[game.active],
                      game.config.colours[line.seat]);
        status = EX_ILLEGAL;
    } else if (status == EX_OK && line.move.kind == EX_MOVE_TURN && game.phase == EX_PHASE_PLAY) {
        /* step by step, so that a refusal names the step */
        ex_turn turn;
        ex_turn_begin(&game, &turn);
        for (int i = 0; i < line.move.count && status == EX_OK; i++) {
            status = ex_turn_step(&game, &turn, &line.move.steps[i], &reason);
            if (status != EX_OK) {
                rules_writer w;
                rules_writer_start(&w, action, sizeof action);
                put_step(&w, &game, &line.move.steps[i]);
            }
        }
        if (status == EX_OK && !ex_turn_can_end(&game, &turn, &reason))
            status = EX_ILLEGAL;
        if (status == EX_OK)
            ex_turn_end(&game, &turn);
    } else if (status == EX_OK) {
        status = ex_apply(&game, &line.move, &reason);
    }
    if (status != EX_OK) {
        if (error)
            snprintf(error->message, sizeof error->message, "%.60s: %.190s", action, reason.message);
        return status;
    }
    *state = game;
    if (played)
        *played = line;
    return EX_OK;
}
