/*
 * Odyssée-land's reconcile: from the state before a turn and the board the camera sees after
 * it, the turns that lead there. The cards come first: those whose item, creature, companion or
 * sprite shows on the board must have been turned; a card under an adventurer may have been
 * turned without a trace; cards of an empty stock leave none. Then up to two moves, each fight
 * won or lost, and extraordinary companions. Every candidate is played on a copy and compared
 * with the observation, so an explanation is always a legal turn.
 */
#include "odysseeland_internal.h"

#include <stdlib.h>
#include <string.h>

#define MAX_VISIBLE 4
#define MAX_OPTIONAL 16

void od_observe(const od_state *state, od_observation *observation)
{
    memset(observation, 0, sizeof *observation);
    for (int p = 0; p < OD_PLACES; p++) {
        const od_place *place = &state->places[p];
        od_observed_place *seen = &observation->places[p];
        for (int s = 0; s < OD_MAX_SEATS; s++) {
            seen->adventurers[s] = place->adventurers[s];
            seen->companions = (uint8_t)(seen->companions + place->companions[s]);
            seen->supers = (uint8_t)(seen->supers + place->supers[s]);
        }
        seen->companions = (uint8_t)(seen->companions + place->waiting);
        seen->item = place->item;
        if (state->config.adventure == OD_KING) /* gold carried lies with its adventurer */
            for (int s = 0; s < OD_MAX_SEATS; s++)
                if (place->gold[s])
                    seen->item = OD_ITEM_GOLD;
        seen->creature = place->creature;
    }
    observation->sprite_field = od_sprite_field(state);
    observation->king_field = state->config.adventure == OD_KING ? state->king : OD_NONE;
}

typedef struct search {
    const od_state *before;
    const od_observation *observation;
    od_reconcile_result *result;
    od_turn turn; /* the steps so far */
} search;

static bool same_place(const od_observed_place *a, const od_observed_place *b)
{
    return memcmp(a, b, sizeof *a) == 0;
}

static bool matches(const od_state *state, const od_observation *observation)
{
    od_observation now;
    od_observe(state, &now);
    return memcmp(&now, observation, sizeof now) == 0;
}

static int count_fights(const od_turn *turn)
{
    int n = 0;
    for (int i = 0; i < turn->steps; i++)
        n += turn->step[i].fights;
    return n;
}

static int compare_text(const void *a, const void *b)
{
    return strcmp(a, b);
}

/* A turn's steps as sorted text: turns that differ only in the order of the same steps (which
 * the board cannot tell apart) are one explanation. */
static void turn_key(const od_state *state, const od_turn *turn, char (*steps)[96], char *key,
                     size_t size)
{
    for (int i = 0; i < turn->steps; i++) {
        rules_writer w;
        rules_writer_start(&w, steps[i], 96);
        od_format_step(state, &turn->step[i], &w);
    }
    qsort(steps, (size_t)turn->steps, sizeof steps[0], compare_text);
    rules_writer w;
    rules_writer_start(&w, key, size);
    for (int i = 0; i < turn->steps; i++) {
        rules_put(&w, steps[i]);
        rules_put(&w, ";");
    }
}

/* Keeps an explanation, ordered by fewest fights then fewest steps; the same steps once. */
static void record(search *s, int unseen)
{
    od_reconcile_result *r = s->result;
    od_explanation e = {.turn = s->turn, .unseen = unseen, .fights = count_fights(&s->turn)};
    char steps[OD_MAX_STEPS][96], key[OD_MAX_STEPS * 96], other[OD_MAX_STEPS * 96];
    turn_key(s->before, &e.turn, steps, key, sizeof key);
    for (int i = 0; i < r->count; i++) {
        turn_key(s->before, &r->explanations[i].turn, steps, other, sizeof other);
        if (strcmp(key, other) == 0)
            return;
    }
    int at = r->count;
    while (at > 0 && (r->explanations[at - 1].fights > e.fights ||
                      (r->explanations[at - 1].fights == e.fights &&
                       r->explanations[at - 1].turn.steps > e.turn.steps)))
        at--;
    if (at >= OD_MAX_EXPLANATIONS)
        return;
    int last = r->count < OD_MAX_EXPLANATIONS ? r->count : OD_MAX_EXPLANATIONS - 1;
    memmove(&r->explanations[at + 1], &r->explanations[at],
            sizeof r->explanations[0] * (size_t)(last - at));
    r->explanations[at] = e;
    if (r->count < OD_MAX_EXPLANATIONS)
        r->count++;
}

static void push(search *s, const od_step *step)
{
    s->turn.step[s->turn.steps++] = *step;
}

/* Extraordinary companions seen where there were none, then the comparison. */
static void finish_turn(search *s, const od_state *state, int unseen)
{
    od_state now = *state;
    int saved = s->turn.steps;
    od_observation seen;
    od_observe(&now, &seen);
    for (int p = 0; p < OD_PLACES && s->turn.steps < OD_MAX_STEPS; p++)
        while (s->observation->places[p].supers > seen.places[p].supers) {
            od_step step;
            od_step_init(&step, OD_STEP_SUPER, p);
            od_error error;
            if (od_step_apply(&now, &step, &error) != OD_OK || s->turn.steps >= OD_MAX_STEPS)
                break;
            push(s, &step);
            od_observe(&now, &seen);
        }
    if (matches(&now, s->observation))
        record(s, unseen);
    s->turn.steps = saved;
}

/* The king's next field after a won fight against its guardian comes from the observation. */
static void king_from_observation(const search *s, const od_state *state, od_step *step)
{
    if (state->config.adventure != OD_KING || !step->fights || step->fight.contributors != -1)
        return;
    int field = step->kind == OD_STEP_MOVE
                    ? od_destination(step->place, step->direction, step->distance) : step->place;
    if (field == state->king)
        step->fight.king = s->observation->king_field;
}

static void moves(search *s, const od_state *state, int depth, int unseen)
{
    finish_turn(s, state, unseen);
    if (depth == 2 || state->phase != OD_PHASE_TURN || s->turn.steps >= OD_MAX_STEPS - 1)
        return;
    od_step list[OD_MAX_MOVES];
    int n = od_legal_moves(state, list, OD_MAX_MOVES);
    if (n > OD_MAX_MOVES)
        n = OD_MAX_MOVES;
    od_observation now;
    od_observe(state, &now);
    for (int i = 0; i < n; i++) {
        /* a move's origin must look different at the end (see the header's limits) */
        if (same_place(&now.places[list[i].place], &s->observation->places[list[i].place]))
            continue;
        /* the last move ends where the camera sees the seat, unless its fight was lost */
        int dest = od_destination(list[i].place, list[i].direction, list[i].distance);
        int mover = list[i].seat != OD_NONE ? list[i].seat : state->active;
        bool seen_there = s->observation->places[dest].adventurers[mover] > 0;
        if (depth == 1 && !seen_there && !list[i].fights)
            continue;
        for (int outcome = 1; outcome >= 0; outcome--) {
            od_step step = list[i];
            if (!step.fights && outcome == 0)
                break;
            if (depth == 1 && step.fights && (outcome == 1) != seen_there)
                continue;
            if (step.fights) {
                step.fight.contributors = outcome ? -1 : -2;
                step.fight.king = OD_NONE;
            }
            king_from_observation(s, state, &step);
            od_state next = *state;
            od_error error;
            if (od_step_apply(&next, &step, &error) != OD_OK)
                continue;
            push(s, &step);
            moves(s, &next, depth + 1, unseen);
            s->turn.steps--;
        }
    }
}

/* The cards in `order` (a permutation of count cards) played with each combination of fight
 * outcomes, then the moves. */
static void play_cards(search *s, const od_step *cards, int count, int unseen)
{
    for (int outcomes = 0; outcomes < (1 << count); outcomes++) {
        od_state state = *s->before;
        s->turn.steps = 0;
        bool ok = true;
        int fog = 0;
        for (int i = 0; i < count && ok; i++) {
            od_step step = cards[i];
            int f = step.place;
            if (i >= 2 + fog) { /* a card after those owed: the extra card follows a fog card */
                ok = false;
                break;
            }
            fog += state.board.terrain[f] == OD_FOG;
            bool fighters = false;
            for (int seat = 0; seat < state.config.seats; seat++)
                fighters |= od_has(&state, step.target != OD_NONE ? step.target : f, seat);
            bool creature = state.board.terrain[f] == OD_FOG &&
                            (state.config.adventure != OD_UPRISING || state.places[f].creature);
            step.fights = fighters && creature;
            if (!step.fights && (outcomes >> i & 1))
                ok = false; /* this combination is another's */
            if (step.fights)
                step.fight.contributors = (outcomes >> i & 1) ? -2 : -1;
            od_error error;
            ok = ok && od_step_apply(&state, &step, &error) == OD_OK;
            if (ok)
                push(s, &step);
        }
        if (ok)
            moves(s, &state, 0, unseen);
    }
    s->turn.steps = 0;
}

static void permute(search *s, od_step *cards, int count, int at, int unseen)
{
    if (at == count) {
        play_cards(s, cards, count, unseen);
        return;
    }
    for (int i = at; i < count; i++) {
        od_step swap = cards[at];
        cards[at] = cards[i];
        cards[i] = swap;
        permute(s, cards, count, at + 1, unseen);
        swap = cards[at];
        cards[at] = cards[i];
        cards[i] = swap;
    }
}

/* The creature's value a fog card shows: where it stands now, else the first in the stack. */
static void creature_of(const od_state *state, const od_observation *seen, od_step *step)
{
    int f = step->place;
    if (state->board.terrain[f] != OD_FOG)
        return;
    if (state->config.adventure == OD_UPRISING) {
        if (!state->places[f].creature)
            return;
        for (int g = 0; g < OD_FIELDS; g++) /* where it went: a creature not there before */
            if (seen->places[g].creature && !state->places[g].creature)
                step->target = g;
        if (step->target == OD_NONE) {   /* it fell to a troop standing there: try each target */
            int targets[OD_FIELDS];
            if (od_advance_targets(state, f, targets) > 0)
                step->target = targets[0];
        }
        return;
    }
    step->creature = seen->places[f].creature;
    if (!step->creature)
        for (int l = 0; l < 5 && !step->creature; l++)
            if (state->creature_stack[l])
                step->creature = 8 + 2 * l;
}

void od_reconcile(const od_state *state, const od_observation *observation,
                  od_reconcile_result *result)
{
    memset(result, 0, sizeof *result);
    if (matches(state, observation)) {
        result->answer = OD_RECONCILE_UNCHANGED;
        return;
    }
    result->answer = OD_RECONCILE_NONE;
    if (state->phase != OD_PHASE_TURN)
        return;
    search s = {.before = state, .observation = observation, .result = result};
    od_step visible[MAX_VISIBLE];
    int optional[MAX_OPTIONAL];
    int v = 0, o = 0, traceless = 0;
    bool cards = state->config.adventure != OD_KING && state->deck > 0;
    for (int f = 0; cards && f < OD_FIELDS; f++) {
        if (state->turned[f] || f == state->princess)
            continue;
        const od_observed_place *seen = &observation->places[f];
        const od_place *was = &state->places[f];
        int terrain = state->board.terrain[f];
        bool shows = (seen->item && !was->item) ||
                     (terrain == OD_FOG && seen->creature && !was->creature &&
                      state->config.adventure != OD_UPRISING) ||
                     (terrain == OD_FOG && was->creature && !seen->creature &&
                      state->config.adventure == OD_UPRISING) ||
                     (terrain == OD_CITY && seen->companions > 0 && !was->waiting &&
                      !seen->adventurers[0] && !seen->adventurers[1] && !seen->adventurers[2] &&
                      !seen->adventurers[3]) ||
                     f == observation->sprite_field;
        bool stood_before = false, stands_after = false;
        for (int seat = 0; seat < OD_MAX_SEATS; seat++) {
            stood_before |= was->adventurers[seat] > 0;
            stands_after |= seen->adventurers[seat] > 0;
        }
        int stock = terrain == OD_CITY ? state->companions : terrain == OD_MOUNTAIN ? state->swords
                    : terrain == OD_FOREST ? state->herbs : 1;
        int companions_before = was->waiting;
        for (int seat = 0; seat < OD_MAX_SEATS; seat++)
            companions_before += was->companions[seat];
        /* a card that may have been turned without showing where it lies: a companion joining
         * an adventurer there (who may leave with it), gold taken before the sprite sweeps the
         * taker away, a creature fought at once */
        bool maybe = (terrain == OD_CITY && (stood_before || (stands_after &&
                                                              seen->companions > companions_before))) ||
                     (terrain == OD_RIVER && stood_before) ||
                     (terrain == OD_FOG && stood_before && state->config.adventure != OD_UPRISING);
        bool silent = (terrain == OD_FOREST || terrain == OD_MOUNTAIN) &&
                      (stood_before || stands_after);
        if (shows) {
            if (v == MAX_VISIBLE)
                return; /* more cards than a turn turns */
            od_step_init(&visible[v++], OD_STEP_CARD, f);
        } else if (maybe) {
            if (o == MAX_OPTIONAL)
                return; /* the search would not end in time: left to the players */
            optional[o++] = f;
        } else if (silent || (stock == 0 && terrain != OD_FOG && terrain != OD_RIVER)) {
            traceless++;
        }
    }
    /* every subset of the optional cards joins the visible ones, the rest of what is owed being
     * traceless cards */
    for (int mask = 0; mask < (1 << o); mask++) {
        int count = v;
        od_step chosen[MAX_VISIBLE];
        memcpy(chosen, visible, sizeof visible[0] * (size_t)v);
        int extra = 0;
        for (int i = 0; i < o; i++)
            extra += mask >> i & 1;
        if (v + extra > MAX_VISIBLE)
            continue;
        for (int i = 0; i < o; i++)
            if (mask >> i & 1)
                od_step_init(&chosen[count++], OD_STEP_CARD, optional[i]);
        int fog = 0;
        for (int i = 0; i < count; i++)
            fog += state->board.terrain[chosen[i].place] == OD_FOG;
        int owed = cards ? 2 + fog : 0;
        int unseen = owed - count;
        if (unseen < 0 || unseen > traceless) {
            if (!(cards && state->deck == count && unseen > 0)) /* the deck ran out */
                continue;
            unseen = 0;
        }
        int ordered = 0; /* the sprite's sweeps and the creatures make the cards' order matter */
        for (int i = 0; i < count; i++) {
            creature_of(state, observation, &chosen[i]);
            int terrain = state->board.terrain[chosen[i].place];
            ordered += terrain == OD_RIVER || terrain == OD_FOG;
        }
        if (ordered >= 2)
            permute(&s, chosen, count, 0, unseen);
        else
            play_cards(&s, chosen, count, unseen);
    }
    result->answer = result->count == 0   ? OD_RECONCILE_NONE
                     : result->count == 1 ? OD_RECONCILE_EXPLAINED
                                          : OD_RECONCILE_AMBIGUOUS;
}
