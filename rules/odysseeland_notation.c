/*
 * Odyssée-land's notation: one line is the setup, one seat's turn, or a reveal (README, "play
 * --help"). A turn's steps are separated by commas:
 *
 *   turn J3, turn D7 creature 10, turn I4, row-2 east 3, C3 south 2 fight swords 2 dice 5 herbs 4
 *
 * Fights name what each seat spends: `fight [colour] [swords V..] [dice D..] [herbs H..]
 * [gold N] [rerolls N] [king FIELD]`; the engine adds it up and decides.
 */
#include "odysseeland_internal.h"
#include "rules_text.h"

#include <stdio.h>
#include <string.h>

#define MAX_CLAUSES 48

typedef rules_word word;
typedef rules_clause clause;

static od_status bad(od_error *error, const char *format, const char *detail)
{
    return od_fail(error, OD_BAD_NOTATION, format, detail);
}

static int seat_of(const od_state *state, const word *w)
{
    for (int s = 0; s < state->config.seats; s++)
        if (rules_word_is(w, state->config.colours[s]))
            return s;
    return OD_NONE;
}

/* A small non-negative number, or -1. */
static int number(const word *w)
{
    if (w->length == 0 || w->length > 3)
        return -1;
    int n = 0;
    for (size_t i = 0; i < w->length; i++) {
        if (w->text[i] < '0' || w->text[i] > '9')
            return -1;
        n = n * 10 + w->text[i] - '0';
    }
    return n;
}

static int field_of(const word *w)
{
    int place = od_place_parse(w->text, w->length);
    return place >= 0 && place < OD_FIELDS ? place : OD_NONE;
}

static bool is_number(const word *w)
{
    return number(w) >= 0;
}

/* The fight's words from words[at] (just after `fight`) to the end of the clause. */
static od_status parse_fight(const od_state *state, const clause *c, int at, od_fight *fight,
                             od_error *error)
{
    memset(fight, 0, sizeof *fight);
    fight->king = OD_NONE;
    int dice[OD_MAX_CONTRIBUTORS] = {0}; /* dice given per contributor: one per sword */
    od_contribution *current = NULL;
    while (at < c->count) {
        const word *w = &c->words[at++];
        int seat = seat_of(state, w);
        if (seat != OD_NONE || !current) {
            if (fight->contributors == OD_MAX_CONTRIBUTORS)
                return bad(error, "a fight %s", "has 4 seats at most");
            current = &fight->by[fight->contributors++];
            memset(current, 0, sizeof *current);
            current->seat = seat;
            if (seat != OD_NONE)
                continue;
        }
        if (rules_word_is(w, "king")) {
            if (at >= c->count || (fight->king = field_of(&c->words[at])) == OD_NONE)
                return bad(error, "%s", "`king` names a field: `king G6`");
            at++;
            continue;
        }
        bool swords = rules_word_is(w, "swords") || rules_word_is(w, "sword");
        bool die = rules_word_is(w, "dice") || rules_word_is(w, "die");
        bool herbs = rules_word_is(w, "herbs") || rules_word_is(w, "herb");
        if (swords || die || herbs) {
            uint8_t *values = herbs ? current->herb_values
                              : swords ? current->sword_values : current->dice;
            int limit = herbs ? OD_MAX_HERBS_USED : OD_MAX_DICE, n = 0;
            while (at < c->count && is_number(&c->words[at])) {
                if (n == limit)
                    return bad(error, "too many %s in one fight", herbs ? "herbs" : "swords");
                values[n++] = (uint8_t)number(&c->words[at++]);
            }
            if (n == 0)
                return bad(error, "`%s` is followed by their values",
                           swords ? "swords" : die ? "dice" : "herbs");
            if (herbs)
                current->herbs = n;
            else if (swords)
                current->swords = n;
            else
                dice[fight->contributors - 1] = n;
            continue;
        }
        bool gold = rules_word_is(w, "gold");
        if (gold || rules_word_is(w, "rerolls") || rules_word_is(w, "reroll")) {
            int v = at < c->count ? number(&c->words[at]) : -1;
            if (v < 0)
                return bad(error, "`%s` is followed by a count", gold ? "gold" : "rerolls");
            at++;
            *(gold ? &current->gold : &current->rerolls) = v;
            continue;
        }
        char text[40];
        snprintf(text, sizeof text, "%.*s", (int)(w->length < 30 ? w->length : 30), w->text);
        return bad(error, "'%s' in a fight: swords, dice, herbs, gold, rerolls, king or a colour",
                   text);
    }
    for (int i = 0; i < fight->contributors; i++)
        if (dice[i] != fight->by[i].swords)
            return bad(error, "%s", "one die per sword: `swords 2 1 dice 5 3`");
    return OD_OK;
}

static int direction_of(const word *w)
{
    if (rules_word_is(w, "south"))
        return OD_SOUTH;
    if (rules_word_is(w, "east"))
        return OD_EAST;
    if (rules_word_is(w, "north"))
        return OD_NORTH;
    if (rules_word_is(w, "west"))
        return OD_WEST;
    return OD_NONE;
}

/* The rest of a card's clause from words[at]: [creature V] [to FIELD] [fight ...]. */
static od_status parse_card(const od_state *state, const clause *c, int at, od_step *step,
                            od_error *error)
{
    while (at < c->count) {
        const word *w = &c->words[at++];
        if (rules_word_is(w, "creature") && at < c->count && number(&c->words[at]) > 0) {
            step->creature = number(&c->words[at++]);
        } else if (rules_word_is(w, "to") && at < c->count && field_of(&c->words[at]) != OD_NONE) {
            step->target = field_of(&c->words[at++]);
        } else if (rules_word_is(w, "fight")) {
            step->fights = true;
            return parse_fight(state, c, at, &step->fight, error);
        } else {
            return bad(error, "%s", "a card is `turn FIELD`, with `creature VALUE` on fog, "
                       "`to FIELD` for an advancing creature (adventure 5), then `fight ...`");
        }
    }
    return OD_OK;
}

static od_status parse_move(const od_state *state, const clause *c, od_step *step,
                            od_error *error)
{
    od_step_init(step, OD_STEP_MOVE, OD_NONE);
    step->place = od_place_parse(c->words[0].text, c->words[0].length);
    if (step->place == OD_NONE || c->count < 3)
        return bad(error, "%s", "a move is `C3 south 2` or `row-2 east 3` (a field or a start "
                   "space, south or east, how far)");
    step->direction = direction_of(&c->words[1]);
    step->distance = number(&c->words[2]);
    if ((step->direction != OD_SOUTH && step->direction != OD_EAST) || step->distance < 1)
        return bad(error, "%s", "a move goes `south N` or `east N`, N at least 1");
    int at = 3;
    while (at < c->count) {
        const word *w = &c->words[at++];
        if (rules_word_is(w, "only") && at < c->count &&
            (step->seat = seat_of(state, &c->words[at])) != OD_NONE) {
            at++;
        } else if (rules_word_is(w, "displace") && at < c->count &&
                   (direction_of(&c->words[at]) == OD_NORTH ||
                    direction_of(&c->words[at]) == OD_WEST)) {
            step->displace = direction_of(&c->words[at++]);
        } else if (rules_word_is(w, "giant")) {
            step->giant = true;
        } else if (rules_word_is(w, "fight")) {
            step->fights = true;
            return parse_fight(state, c, at, &step->fight, error);
        } else {
            return bad(error, "%s", "after a move: `only COLOUR`, `displace north|west`, `giant`, "
                       "`fight ...`");
        }
    }
    return OD_OK;
}

static od_status parse_key(const clause *c, od_step *step, od_error *error)
{
    od_step_init(step, OD_STEP_BUY_KEY, OD_NONE);
    if (c->count == 3 && rules_word_is(&c->words[2], "key"))
        for (int k = 0; k < OD_CITIES; k++)
            if (rules_word_is(&c->words[1], od_key_name(k)))
                step->key = k;
    if (step->key == OD_NONE)
        return bad(error, "%s", "a key is bought as `buy blue key` (yellow, green, blue, grey, red)");
    return OD_OK;
}

static od_status parse_setup(const od_state *state, clause *clauses, int count, od_setup *setup,
                             od_error *error)
{
    memset(setup, 0, sizeof *setup);
    for (int i = 0; i < count; i++) {
        clause *c = &clauses[i];
        int first = i == 0 ? 1 : 0; /* `setup` opens the first clause */
        if (c->count <= first) {
            if (count == 1)
                break;
            return bad(error, "%s", "an empty step in the setup");
        }
        const word *w = &c->words[first];
        if (rules_word_is(w, "creature")) {
            if (c->count != first + 3 || field_of(&c->words[first + 1]) == OD_NONE ||
                number(&c->words[first + 2]) <= 0)
                return bad(error, "%s", "a creature laid at the setup is `creature D7 10`");
            if (setup->creatures == OD_CREATURES)
                return bad(error, "%s", "14 creatures at most");
            setup->creature_field[setup->creatures] = (uint8_t)field_of(&c->words[first + 1]);
            setup->creature_value[setup->creatures++] = (uint8_t)number(&c->words[first + 2]);
            continue;
        }
        if (setup->cards == (int)(sizeof setup->card / sizeof setup->card[0]))
            return bad(error, "%s", "too many cards in the setup");
        od_step *card = &setup->card[setup->cards++];
        od_step_init(card, OD_STEP_CARD, OD_NONE);
        card->place = field_of(w);
        if (card->place == OD_NONE)
            return bad(error, "%s", "the setup lists cards (`A1`, `D7 creature 10`) and, for "
                       "adventures 5 and 6, `creature FIELD VALUE`");
        od_status status = parse_card(state, c, first + 1, card, error);
        if (status != OD_OK)
            return status;
    }
    return OD_OK;
}

static od_status parse_reveal(const od_state *state, const clause *c, od_reveal *reveal,
                              od_error *error)
{
    memset(reveal, 0, sizeof *reveal);
    if (c->count < 2 || (reveal->seat = seat_of(state, &c->words[1])) == OD_NONE)
        return bad(error, "%s", "`reveal COLOUR herbs 3 4 swords 2 0`");
    int at = 2;
    while (at < c->count) {
        const word *w = &c->words[at++];
        bool herbs = rules_word_is(w, "herbs") || rules_word_is(w, "herb");
        if (!herbs && !rules_word_is(w, "swords") && !rules_word_is(w, "sword"))
            return bad(error, "%s", "`reveal COLOUR herbs 3 4 swords 2 0`");
        while (at < c->count && is_number(&c->words[at])) {
            int v = number(&c->words[at++]);
            if (herbs && reveal->herbs < 24)
                reveal->herb_values[reveal->herbs++] = (uint8_t)(v > 99 ? 99 : v);
            else if (!herbs && reveal->swords < 32)
                reveal->sword_values[reveal->swords++] = (uint8_t)(v > 99 ? 99 : v);
            else
                return bad(error, "%s", "more values than a seat can hold");
        }
    }
    return OD_OK;
}

od_status od_parse(const od_state *state, const char *text, od_line *line, od_error *error)
{
    memset(line, 0, sizeof *line);
    line->seat = OD_NONE;
    rules_text read;
    if (!rules_text_read(text, RULES_TEXT_MAX - 1, &read))
        return od_fail(error, OD_BAD_NOTATION, "longer than %d characters", RULES_TEXT_MAX - 1);
    if (read.prefix.length && (line->seat = seat_of(state, &read.prefix)) == OD_NONE)
        return od_fail(error, OD_BAD_NOTATION, "'%.*s' is not a colour of this game",
                       (int)(read.prefix.length < 30 ? read.prefix.length : 30), read.prefix.text);
    if (!*read.body && !read.prefix.length) {
        line->kind = OD_LINE_EMPTY;
        return OD_OK;
    }
    clause clauses[MAX_CLAUSES];
    int count = rules_split(read.body, clauses, MAX_CLAUSES);
    if (count < 0)
        return od_fail(error, OD_BAD_NOTATION, "more than %d steps, or a step of more than %d "
                       "words", MAX_CLAUSES, RULES_CLAUSE_WORDS);
    const word *verb = &clauses[0].words[0];
    if (clauses[0].count > 0 && rules_word_is(verb, "setup")) {
        line->kind = OD_LINE_SETUP;
        return parse_setup(state, clauses, count, &line->setup, error);
    }
    if (clauses[0].count > 0 && rules_word_is(verb, "reveal")) {
        line->kind = OD_LINE_REVEAL;
        if (count != 1)
            return bad(error, "%s", "one seat a `reveal` line");
        return parse_reveal(state, &clauses[0], &line->reveal, error);
    }
    line->kind = OD_LINE_TURN;
    od_turn *turn = &line->turn;
    if (count == 1 && clauses[0].count == 1 && rules_word_is(verb, "pass"))
        return OD_OK;
    if (count > OD_MAX_STEPS)
        return od_fail(error, OD_BAD_NOTATION, "more than %d steps in a turn", OD_MAX_STEPS);
    for (int i = 0; i < count; i++) {
        clause *c = &clauses[i];
        od_step *step = &turn->step[turn->steps++];
        if (c->count == 0)
            return bad(error, "%s", count == 1 ? "an action is missing" : "an empty step between commas");
        const word *w = &c->words[0];
        od_status status;
        if (rules_word_is(w, "turn")) {
            od_step_init(step, OD_STEP_CARD, OD_NONE);
            if (c->count < 2 || (step->place = field_of(&c->words[1])) == OD_NONE)
                return bad(error, "%s", "a card is `turn FIELD` (A1 to K10)");
            status = parse_card(state, c, 2, step, error);
        } else if (rules_word_is(w, "buy")) {
            status = parse_key(c, step, error);
        } else if (rules_word_is(w, "super")) {
            od_step_init(step, OD_STEP_SUPER, OD_NONE);
            if (c->count != 2 || (step->place = od_place_parse(c->words[1].text,
                                                               c->words[1].length)) == OD_NONE)
                return bad(error, "%s", "5 companions become an extraordinary one with `super K7`");
            status = OD_OK;
        } else {
            status = parse_move(state, c, step, error);
        }
        if (status != OD_OK)
            return status;
    }
    return OD_OK;
}

od_status od_play_line(od_state *state, const char *text, od_line *line, od_error *error)
{
    od_line parsed;
    if (!line)
        line = &parsed;
    od_status status = od_parse(state, text, line, error);
    if (status != OD_OK)
        return status;
    if (line->seat != OD_NONE && line->kind == OD_LINE_TURN && line->seat != state->active)
        return od_fail(error, OD_ILLEGAL, "it is %s's turn, not %s's",
                       state->config.colours[state->active], state->config.colours[line->seat]);
    if (line->seat != OD_NONE && line->kind != OD_LINE_TURN)
        return od_fail(error, OD_BAD_NOTATION, "a colour prefix goes only before a turn");
    switch (line->kind) {
    case OD_LINE_SETUP: return od_setup_apply(state, &line->setup, error);
    case OD_LINE_TURN: return od_apply(state, &line->turn, error);
    case OD_LINE_REVEAL: return od_reveal_apply(state, &line->reveal, error);
    default: return OD_OK;
    }
}

/* ---- writing ---- */

static void put_place(rules_writer *w, int place)
{
    char name[12];
    od_place_name(place, name);
    rules_put(w, name);
}

static void put_values(rules_writer *w, const char *what, const uint8_t *values, int count)
{
    if (count <= 0)
        return;
    rules_put(w, " ");
    rules_put(w, what);
    for (int i = 0; i < count; i++) {
        rules_put(w, " ");
        rules_put_number(w, values[i]);
    }
}

static void put_fight(rules_writer *w, const od_state *state, const od_step *step)
{
    if (!step->fights)
        return;
    const od_fight *f = &step->fight;
    rules_put(w, " fight");
    if (f->contributors == -1)
        rules_put(w, " (won)");
    else if (f->contributors == -2)
        rules_put(w, " (lost)");
    for (int i = 0; i < f->contributors; i++) {
        const od_contribution *c = &f->by[i];
        if (c->seat != OD_NONE) {
            rules_put(w, " ");
            rules_put(w, state->config.colours[c->seat]);
        }
        put_values(w, "swords", c->sword_values, c->swords);
        put_values(w, "dice", c->dice, c->swords);
        put_values(w, "herbs", c->herb_values, c->herbs);
        if (c->gold) {
            rules_put(w, " gold ");
            rules_put_number(w, c->gold);
        }
        if (c->rerolls) {
            rules_put(w, " rerolls ");
            rules_put_number(w, c->rerolls);
        }
    }
    if (f->king != OD_NONE) {
        rules_put(w, " king ");
        put_place(w, f->king);
    }
}

static void put_card(rules_writer *w, const od_state *state, const od_step *step)
{
    put_place(w, step->place);
    if (step->creature) {
        rules_put(w, " creature ");
        rules_put_number(w, step->creature);
    }
    if (step->target != OD_NONE) {
        rules_put(w, " to ");
        put_place(w, step->target);
    }
    put_fight(w, state, step);
}

void od_format_step(const od_state *state, const od_step *step, rules_writer *w)
{
    switch (step->kind) {
    case OD_STEP_CARD:
        rules_put(w, "turn ");
        put_card(w, state, step);
        break;
    case OD_STEP_MOVE:
        put_place(w, step->place);
        rules_put(w, step->direction == OD_SOUTH ? " south " : " east ");
        rules_put_number(w, step->distance);
        if (step->seat != OD_NONE) {
            rules_put(w, " only ");
            rules_put(w, state->config.colours[step->seat]);
        }
        if (step->displace != OD_NONE)
            rules_put(w, step->displace == OD_NORTH ? " displace north" : " displace west");
        if (step->giant)
            rules_put(w, " giant");
        put_fight(w, state, step);
        break;
    case OD_STEP_BUY_KEY:
        rules_put(w, "buy ");
        rules_put(w, od_key_name(step->key));
        rules_put(w, " key");
        break;
    case OD_STEP_SUPER:
        rules_put(w, "super ");
        put_place(w, step->place);
        break;
    }
}

size_t od_format(const od_state *before, const od_line *line, char *out, size_t size)
{
    rules_writer w;
    rules_writer_start(&w, out, size);
    switch (line->kind) {
    case OD_LINE_SETUP:
        rules_put(&w, "setup");
        for (int i = 0; i < line->setup.creatures; i++) {
            rules_put(&w, i ? ", creature " : " creature ");
            put_place(&w, line->setup.creature_field[i]);
            rules_put(&w, " ");
            rules_put_number(&w, line->setup.creature_value[i]);
        }
        for (int i = 0; i < line->setup.cards; i++) {
            rules_put(&w, i || line->setup.creatures ? ", " : " ");
            put_card(&w, before, &line->setup.card[i]);
        }
        break;
    case OD_LINE_TURN:
        if (line->turn.steps == 0)
            rules_put(&w, "pass");
        for (int i = 0; i < line->turn.steps; i++) {
            if (i)
                rules_put(&w, ", ");
            od_format_step(before, &line->turn.step[i], &w);
        }
        break;
    case OD_LINE_REVEAL:
        rules_put(&w, "reveal ");
        rules_put(&w, before->config.colours[line->reveal.seat]);
        put_values(&w, "herbs", line->reveal.herb_values, line->reveal.herbs);
        put_values(&w, "swords", line->reveal.sword_values, line->reveal.swords);
        break;
    default:
        break;
    }
    return w.length;
}
