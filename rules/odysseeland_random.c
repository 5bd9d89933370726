/*
 * Random Odyssée-land games: the hidden things drawn (the deck's order, herb and sword values,
 * the creatures' order, dice), then turns chosen step by step on a scratch state and played as
 * text through od_play_line, so that every random game also tests the notation.
 */
#include "odysseeland_internal.h"
#include "rules_random.h"

#include <stdio.h>
#include <string.h>

/* What only the table knows: values of the face-down tiles, the draws still to come. */
typedef struct hidden {
    uint64_t rng;
    uint8_t deck[OD_FIELDS];
    int next_card, cards;
    uint8_t herbs[20], swords[28], creatures[OD_CREATURES];
    int next_herb, next_sword, next_creature;
    int8_t lying[OD_FIELDS];               /* value of the herb or sword lying on a field */
    uint8_t held_herbs[OD_MAX_SEATS][5];   /* by value 0..4 */
    uint8_t held_swords[OD_MAX_SEATS][4];  /* by value 0..3 */
} hidden;

/* Stand-in values: the seed and RULES.md give the ranges, not the mix (random games only). */
static void draw_hidden(hidden *h, const od_state *state, uint64_t seed)
{
    memset(h, 0, sizeof *h);
    h->rng = seed;
    for (int f = 0; f < OD_FIELDS; f++)
        h->deck[f] = (uint8_t)f;
    rules_random_shuffle(&h->rng, h->deck, OD_FIELDS);
    h->cards = OD_FIELDS;
    for (int i = 0; i < 20; i++)
        h->herbs[i] = (uint8_t)(2 + i % 3);
    for (int i = 0; i < 28; i++)
        h->swords[i] = (uint8_t)(i % 4);
    static const uint8_t base[OD_CREATURES] = {8, 8, 8, 8, 10, 10, 10, 10, 12, 12, 12, 14, 14, 16};
    static const uint8_t extra[OD_CREATURES] = {10, 10, 10, 10, 12, 12, 12, 12, 14, 14, 14,
                                                16, 16, 18};
    memcpy(h->creatures, state->config.adventure == OD_UPRISING ? extra : base, OD_CREATURES);
    rules_random_shuffle(&h->rng, h->herbs, 20);
    rules_random_shuffle(&h->rng, h->swords, 28);
    rules_random_shuffle(&h->rng, h->creatures, OD_CREATURES);
    memset(h->lying, -1, sizeof h->lying);
}

/* ---- bookkeeping of the hidden values around one step ---- */

typedef struct snapshot {
    int herbs, swords;                     /* stocks */
    uint8_t seat_herbs[OD_MAX_SEATS], seat_swords[OD_MAX_SEATS];
    uint8_t item[OD_FIELDS];
} snapshot;

static void take_snapshot(const od_state *s, snapshot *snap)
{
    snap->herbs = s->herbs;
    snap->swords = s->swords;
    for (int i = 0; i < OD_MAX_SEATS; i++) {
        snap->seat_herbs[i] = s->seat[i].herbs;
        snap->seat_swords[i] = s->seat[i].swords;
    }
    for (int f = 0; f < OD_FIELDS; f++)
        snap->item[f] = s->places[f].item;
}

static void spend(uint8_t *held, const uint8_t *values, int n)
{
    for (int i = 0; i < n; i++)
        if (held[values[i]])
            held[values[i]]--;
}

/* After a step: tiles drawn from the stacks, picked up, spent or lost, in the hidden record.
 * `fight` is what the step spent (NULL when nothing), `lost` whether its fight was lost. */
static void account(hidden *h, const snapshot *before, const od_state *after, const od_step *step,
                    const od_fight *fight, bool lost)
{
    if (fight)
        for (int i = 0; i < fight->contributors; i++) {
            const od_contribution *c = &fight->by[i];
            spend(h->held_herbs[c->seat], c->herb_values, c->herbs);
            if (lost)
                spend(h->held_swords[c->seat], c->sword_values, c->swords);
        }
    int drawn_herb = -1, drawn_sword = -1;
    if (after->herbs < before->herbs)
        drawn_herb = h->herbs[h->next_herb++];
    if (after->swords < before->swords)
        drawn_sword = h->swords[h->next_sword++];
    for (int f = 0; f < OD_FIELDS; f++) {
        if (before->item[f] == after->places[f].item)
            continue;
        if (after->places[f].item == OD_ITEM_HERB || after->places[f].item == OD_ITEM_SWORD)
            h->lying[f] = (int8_t)(after->places[f].item == OD_ITEM_HERB ? drawn_herb
                                                                        : drawn_sword),
            drawn_herb = after->places[f].item == OD_ITEM_HERB ? -1 : drawn_herb,
            drawn_sword = after->places[f].item == OD_ITEM_SWORD ? -1 : drawn_sword;
    }
    /* what a seat gained came from the field it reached, or straight from the stack */
    int gainer = OD_NONE;
    for (int s = 0; s < after->config.seats; s++) {
        int spent_herbs = 0;
        for (int i = 0; fight && i < fight->contributors; i++)
            if (fight->by[i].seat == s)
                spent_herbs += fight->by[i].herbs;
        if (after->seat[s].herbs + spent_herbs > before->seat_herbs[s] ||
            after->seat[s].swords > before->seat_swords[s])
            gainer = s;
    }
    if (gainer == OD_NONE)
        return;
    int field = step->kind == OD_STEP_CARD ? step->place : OD_NONE;
    if (step->kind == OD_STEP_MOVE) {
        for (int f = 0; f < OD_FIELDS; f++)
            if ((before->item[f] == OD_ITEM_HERB || before->item[f] == OD_ITEM_SWORD) &&
                after->places[f].item == OD_ITEM_NONE)
                field = f;
    }
    int value = -1, kind = OD_ITEM_NONE;
    if (drawn_herb >= 0)
        value = drawn_herb, kind = OD_ITEM_HERB;
    else if (drawn_sword >= 0)
        value = drawn_sword, kind = OD_ITEM_SWORD;
    else if (field != OD_NONE && h->lying[field] >= 0)
        value = h->lying[field], kind = before->item[field], h->lying[field] = -1;
    if (kind == OD_ITEM_HERB && value >= 0)
        h->held_herbs[gainer][value]++;
    else if (kind == OD_ITEM_SWORD && value >= 0)
        h->held_swords[gainer][value]++;
}

/* ---- choosing ---- */

/* What the seats on place spend against `value` (the giant adds its laurels): swords first,
 * then herbs and gold only when they make the difference. */
static void plan_fight(hidden *h, const od_state *s, int place, int value, bool giant,
                       od_fight *fight)
{
    memset(fight, 0, sizeof *fight);
    fight->king = OD_NONE;
    int strength = od_fighters(s, place, OD_NONE);
    int max_swords = od_max_swords(s, giant), used = 0;
    int herb_budget = 0, gold_budget = 0;
    for (int seat = 0; seat < s->config.seats; seat++) {
        if (!od_has(s, place, seat))
            continue;
        od_contribution *c = &fight->by[fight->contributors++];
        c->seat = seat;
        if (giant)
            strength += s->seat[seat].laurels;
        for (int v = 3; v >= 0 && used < max_swords; v--)
            for (int k = 0; k < h->held_swords[seat][v] && used < max_swords &&
                            c->swords < OD_MAX_DICE; k++) {
                c->sword_values[c->swords] = (uint8_t)v;
                c->dice[c->swords] = (uint8_t)(1 + rules_random_below(&h->rng, 6));
                strength += v + c->dice[c->swords];
                c->swords++, used++;
            }
        for (int v = 2; v <= 4; v++)
            herb_budget += v * h->held_herbs[seat][v];
        gold_budget += s->config.adventure == OD_KING ? s->places[place].gold[seat]
                                                      : s->seat[seat].gold;
    }
    if (strength >= value || strength + herb_budget + gold_budget < value)
        return; /* won already, or lost whatever is spent */
    for (int i = 0; i < fight->contributors && strength < value; i++) {
        od_contribution *c = &fight->by[i];
        for (int v = 4; v >= 2 && strength < value; v--)
            for (int k = 0; k < h->held_herbs[c->seat][v] && strength < value &&
                            c->herbs < OD_MAX_HERBS_USED; k++) {
                c->herb_values[c->herbs++] = (uint8_t)v;
                strength += v;
            }
        int gold = s->config.adventure == OD_KING ? s->places[place].gold[c->seat]
                                                  : s->seat[c->seat].gold;
        while (strength < value && c->gold < gold)
            c->gold++, strength++;
    }
}

/* Fills a move's fight: who would stand on the field, against what. */
static void prepare_fight(hidden *h, const od_state *s, od_step *step)
{
    if (step->kind != OD_STEP_MOVE || !(step->fights || step->giant))
        return;
    int field = od_destination(step->place, step->direction, step->distance);
    int value = step->giant ? od_giant_strength(s) : s->places[field].creature;
    od_state moved = *s; /* the move made without its fight, to see who stands there */
    od_step plain = *step;
    plain.fights = plain.giant = false;
    moved.places[field].creature = 0;
    od_error ignored;
    if (od_step_apply(&moved, &plain, &ignored) != OD_OK)
        return;
    plan_fight(h, &moved, field, value, step->giant, &step->fight);
    if (s->config.adventure == OD_KING && s->king == field) {
        int targets[OD_CREATURES];
        int n = od_king_targets(s, field, targets);
        step->fight.king = n ? targets[rules_random_below(&h->rng, n)] : OD_NONE;
    }
}

/* Whether a fight is worth trying: the best the seat could bring against the creature, or now
 * and then a gamble. */
static bool worth_fighting(hidden *h, const od_state *s, const od_step *step)
{
    if (step->giant)
        return true;
    int seat = s->active;
    int strength = step->place < OD_FIELDS ? od_fighters(s, step->place, seat) : 1;
    int swords = 0, herbs = 0;
    for (int v = 0; v < 4; v++)
        swords += h->held_swords[seat][v];
    if (swords > od_max_swords(s, false))
        swords = od_max_swords(s, false);
    for (int v = 2; v <= 4; v++)
        herbs += v * h->held_herbs[seat][v];
    int field = od_destination(step->place, step->direction, step->distance);
    int best = strength + swords * 5 + herbs + s->seat[seat].gold;
    return best >= s->places[field].creature || rules_random_below(&h->rng, 10) == 0;
}

typedef struct emitter {
    void (*emit)(void *context, const char *line);
    void *context;
} emitter;

/* Formats the line, emits it and plays it on the real state. */
static od_status play(od_state *state, const od_line *line, const emitter *out, od_error *error)
{
    char text[RULES_TEXT_MAX];
    size_t length = od_format(state, line, text, sizeof text);
    if (length >= sizeof text)
        return od_fail(error, OD_ILLEGAL, "a random line too long for the notation");
    od_line parsed;
    od_status status = od_play_line(state, text, &parsed, error);
    if (status != OD_OK)
        return status;
    if (out->emit)
        out->emit(out->context, text);
    return OD_OK;
}

/* A card step from the deck; its creature, advance and fight decided on the scratch state. */
static bool next_card(hidden *h, od_state *scratch, od_step *step)
{
    while (h->next_card < h->cards && scratch->turned[h->deck[h->next_card]])
        h->next_card++;
    if (h->next_card >= h->cards || scratch->deck == 0)
        return false;
    int f = h->deck[h->next_card++];
    if (f == scratch->princess)
        return next_card(h, scratch, step);
    od_step_init(step, OD_STEP_CARD, f);
    if (scratch->board.terrain[f] != OD_FOG)
        return true;
    int fighters_at = f;
    if (scratch->config.adventure == OD_UPRISING) {
        if (!scratch->places[f].creature)
            return true;
        int targets[OD_FIELDS];
        int n = od_advance_targets(scratch, f, targets);
        if (n) {
            step->target = targets[rules_random_below(&h->rng, n)];
        } else {
            for (int g = 0; g < OD_FIELDS; g++)
                if ((scratch->board.city[g] == OD_CAPITAL || scratch->board.city[g] == OD_CITY5) &&
                    !scratch->places[g].creature)
                    targets[n++] = g;
            step->target = n ? targets[rules_random_below(&h->rng, n)] : OD_NONE;
        }
        fighters_at = step->target;
        if (fighters_at == OD_NONE)
            return true;
        for (int seat = 0; seat < scratch->config.seats; seat++)
            if (od_has(scratch, fighters_at, seat)) {
                step->fights = true;
                plan_fight(h, scratch, fighters_at, scratch->places[f].creature, false,
                           &step->fight);
                break;
            }
        return true;
    }
    step->creature = h->creatures[h->next_creature++];
    for (int seat = 0; seat < scratch->config.seats; seat++)
        if (od_has(scratch, f, seat)) {
            step->fights = true;
            plan_fight(h, scratch, f, step->creature, false, &step->fight);
            break;
        }
    return true;
}

static od_status apply_recorded(hidden *h, od_state *scratch, const od_step *step,
                                od_error *error)
{
    snapshot before;
    take_snapshot(scratch, &before);
    int had[OD_MAX_SEATS] = {0};
    for (int i = 0; step->fights && i < step->fight.contributors; i++)
        had[i] = od_adventurers_left(scratch, step->fight.by[i].seat);
    od_status status = od_step_apply(scratch, step, error);
    if (status != OD_OK)
        return status;
    bool lost = false; /* the fight's seats have fewer adventurers than they had */
    for (int i = 0; step->fights && i < step->fight.contributors; i++)
        lost |= od_adventurers_left(scratch, step->fight.by[i].seat) < had[i];
    account(h, &before, scratch, step, step->fights ? &step->fight : NULL, lost);
    return OD_OK;
}

static od_status random_setup(hidden *h, od_state *state, const emitter *out, od_error *error)
{
    od_line line;
    memset(&line, 0, sizeof line);
    line.kind = OD_LINE_SETUP;
    line.seat = OD_NONE;
    od_setup *setup = &line.setup;
    od_state scratch = *state;
    int adventure = state->config.adventure;
    if (adventure == OD_PRINCESS) { /* the first card lies on the giant */
        scratch.princess = state->princess = (int8_t)h->deck[h->next_card++];
    }
    if (adventure >= OD_UPRISING) {
        for (int f = 0; f < OD_FIELDS; f++)
            if (state->board.terrain[f] == OD_FOG) {
                setup->creature_field[setup->creatures] = (uint8_t)f;
                setup->creature_value[setup->creatures++] = h->creatures[h->next_creature++];
            }
        /* laid in the order turned up: shuffle that order */
        for (int i = setup->creatures - 1; i > 0; i--) {
            int j = rules_random_below(&h->rng, i + 1);
            uint8_t f = setup->creature_field[i];
            setup->creature_field[i] = setup->creature_field[j];
            setup->creature_field[j] = f;
        }
        for (int i = 0; i < setup->creatures; i++)
            scratch.places[setup->creature_field[i]].creature = setup->creature_value[i];
    }
    if (adventure != OD_KING) {
        int owed = OD_SETUP_CARDS;
        while (setup->cards < owed) {
            od_step *card = &setup->card[setup->cards];
            if (!next_card(h, &scratch, card))
                break;
            od_status status = apply_recorded(h, &scratch, card, error);
            if (status != OD_OK)
                return status;
            if (state->board.terrain[card->place] == OD_FOG)
                owed++;
            setup->cards++;
        }
    }
    return play(state, &line, out, error);
}

static od_status random_turn(hidden *h, od_state *state, const emitter *out, od_error *error)
{
    od_line line;
    memset(&line, 0, sizeof line);
    line.kind = OD_LINE_TURN;
    line.seat = OD_NONE;
    od_turn *turn = &line.turn;
    od_state scratch = *state;
    int owed = state->config.adventure == OD_KING ? 0 : 2;
    for (int i = 0; i < owed && scratch.phase == OD_PHASE_TURN && turn->steps < OD_MAX_STEPS;
         i++) {
        od_step *card = &turn->step[turn->steps];
        if (!next_card(h, &scratch, card))
            break;
        od_status status = apply_recorded(h, &scratch, card, error);
        if (status != OD_OK)
            return status;
        if (scratch.board.terrain[card->place] == OD_FOG)
            owed++;
        turn->steps++;
    }
    int seat = scratch.active;
    for (int m = 0; m < 2 && scratch.phase == OD_PHASE_TURN; m++) {
        if (scratch.config.adventure == OD_PRINCESS) {
            int price = (scratch.config.seats == 2 ? 3 : 2) + scratch.config.colossal;
            for (int k = 0; k < OD_CITIES; k++)
                if (!(scratch.seat[seat].keys & (1u << k)) && scratch.keys_left[k] &&
                    scratch.seat[seat].gold >= price && rules_random_below(&h->rng, 2)) {
                    od_step *buy = &turn->step[turn->steps];
                    od_step_init(buy, OD_STEP_BUY_KEY, OD_NONE);
                    buy->key = k;
                    if (od_step_apply(&scratch, buy, error) == OD_OK)
                        turn->steps++;
                }
        }
        od_compact_move moves[OD_MAX_MOVES];
        int n = scratch.phase == OD_PHASE_TURN ? od_compact_moves(&scratch, moves) : 0;
        if (n > OD_MAX_MOVES)
            n = OD_MAX_MOVES;
        if (n == 0 || turn->steps >= OD_MAX_STEPS)
            break;
        od_step *move = &turn->step[turn->steps];
        bool picked = false;
        for (int i = 0; i < n && !picked; i++) /* the giant, whenever it can be fought */
            if (moves[i].giant)
                od_expand_move(&moves[i], move), picked = true;
        for (int tries = 0; tries < 8 && !picked; tries++) {
            od_expand_move(&moves[rules_random_below(&h->rng, n)], move);
            picked = !move->fights || worth_fighting(h, &scratch, move);
        }
        if (!picked)
            break;
        prepare_fight(h, &scratch, move);
        od_status status = apply_recorded(h, &scratch, move, error);
        if (status != OD_OK)
            return status;
        turn->steps++;
        if (scratch.config.adventure >= OD_UPRISING && scratch.phase == OD_PHASE_TURN &&
            turn->steps < OD_MAX_STEPS)
            for (int p = 0; p < OD_PLACES; p++)
                if (scratch.places[p].companions[seat] >= 5 && scratch.supers > 0) {
                    od_step *super = &turn->step[turn->steps];
                    od_step_init(super, OD_STEP_SUPER, p);
                    if (od_step_apply(&scratch, super, error) == OD_OK)
                        turn->steps++;
                    break;
                }
    }
    return play(state, &line, out, error);
}

static od_status random_reveals(hidden *h, od_state *state, const emitter *out, od_error *error)
{
    for (int seat = 0; seat < state->config.seats && state->phase == OD_PHASE_REVEAL; seat++) {
        if (state->seat[seat].herbs + state->seat[seat].swords == 0)
            continue;
        od_line line;
        memset(&line, 0, sizeof line);
        line.kind = OD_LINE_REVEAL;
        line.seat = OD_NONE;
        od_reveal *r = &line.reveal;
        r->seat = seat;
        for (int v = 2; v <= 4; v++)
            for (int k = 0; k < h->held_herbs[seat][v]; k++)
                r->herb_values[r->herbs++] = (uint8_t)v;
        for (int v = 0; v <= 3; v++)
            for (int k = 0; k < h->held_swords[seat][v]; k++)
                r->sword_values[r->swords++] = (uint8_t)v;
        od_status status = play(state, &line, out, error);
        if (status != OD_OK)
            return status;
    }
    return OD_OK;
}

od_status od_random_game(od_state *state, uint64_t seed,
                         void (*emit)(void *context, const char *line), void *context,
                         od_error *error)
{
    if (state->phase != OD_PHASE_SETUP)
        return od_fail(error, OD_ILLEGAL, "a random game starts from a new game");
    hidden h;
    draw_hidden(&h, state, seed);
    emitter out = {emit, context};
    od_status status = random_setup(&h, state, &out, error);
    for (int turns = 0; status == OD_OK && state->phase == OD_PHASE_TURN; turns++) {
        if (turns > 5000)
            return od_fail(error, OD_ILLEGAL, "a random game did not end in 5000 turns");
        status = random_turn(&h, state, &out, error);
    }
    if (status == OD_OK)
        status = random_reveals(&h, state, &out, error);
    return status;
}
