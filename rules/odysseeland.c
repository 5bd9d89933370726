/* Odyssée-land: the setup, a turn's steps, fights, the water sprite, the adventures' rules and
 * the end. See odysseeland.h for the decisions (OL-ENGINE-n). */
#include "odysseeland_internal.h"

#include <stdio.h>
#include <string.h>

#define fail od_fail

static const char *const default_colours[OD_MAX_SEATS] = {"black", "green", "violet", "orange"};
static const char *const key_names[OD_CITIES] = {"red", "grey", "blue", "green", "yellow"};

/* Adventure 4: figures needed for a key, by city and player count (seed, table). */
static const int key_need[OD_CITIES][3] = {
    {10, 7, 5}, /* capital */
    {3, 2, 1},  /* 6 */
    {4, 3, 2},  /* 5 */
    {2, 1, 1},  /* 4 */
    {1, 1, 1},  /* 3 */
};

const char *od_key_name(int city)
{
    return city >= 0 && city < OD_CITIES ? key_names[city] : NULL;
}

void od_config_default(od_config *config, int seats, int adventure)
{
    memset(config, 0, sizeof *config);
    config->seats = seats;
    config->adventure = adventure;
    rules_colours_default(config->colours, default_colours, OD_MAX_SEATS);
}

int od_max_swords(const od_state *state, bool giant)
{
    if (state->config.adventure == OD_UPRISING || (giant && state->config.colossal))
        return 4;
    return 3;
}

int od_giant_laurels(const od_state *state)
{
    static const int need[3] = {14, 10, 6};
    return need[state->config.seats - 2];
}

int od_giant_strength(const od_state *state)
{
    static const int plain[3] = {30, 25, 20}, colossal[3] = {40, 30, 25};
    return (state->config.colossal ? colossal : plain)[state->config.seats - 2];
}

bool od_giant_ready(const od_state *state, int seat)
{
    return state->seat[seat].keys == (1u << OD_CITIES) - 1 &&
           state->seat[seat].laurels >= od_giant_laurels(state);
}

int od_sprite_field(const od_state *state)
{
    return state->sprite == OD_NONE ? OD_NONE : state->board.river[state->sprite];
}

/* ---- small helpers over places ---- */

static int adventurers_on(const od_place *p)
{
    int n = 0;
    for (int s = 0; s < OD_MAX_SEATS; s++)
        n += p->adventurers[s];
    return n;
}

int od_fighters(const od_state *state, int place, int seat)
{
    const od_place *p = &state->places[place];
    int n = 0;
    for (int s = 0; s < OD_MAX_SEATS; s++)
        if (seat == OD_NONE || s == seat)
            n += p->adventurers[s] + p->companions[s] + 5 * p->supers[s];
    return n;
}

static bool in_city(const od_state *state, int place, int city)
{
    return place < OD_FIELDS && state->board.city[place] == city;
}

/* Everything a seat has on a place leaves the game. */
static void clear_seat(od_place *p, int seat)
{
    p->adventurers[seat] = p->companions[seat] = p->supers[seat] = p->gold[seat] = 0;
}

static void clear_all(od_place *p)
{
    for (int s = 0; s < OD_MAX_SEATS; s++)
        clear_seat(p, s);
}

/* The seat that takes what appears on a place where several stand: the active seat if it is
 * there, else the first. */
static int taker(const od_state *state, int place)
{
    if (od_has(state, place, state->active))
        return state->active;
    for (int s = 0; s < state->config.seats; s++)
        if (od_has(state, place, s))
            return s;
    return OD_NONE;
}

/* A companion joins seat on place (adventure 1 scores the k-th companion k at once). */
static void join(od_state *state, int place, int seat)
{
    od_place *p = &state->places[place];
    p->companions[seat]++;
    if (state->config.adventure == OD_FELLOWSHIP)
        state->seat[seat].points += p->companions[seat];
}

static void take_gold(od_state *state, int place, int seat)
{
    if (state->config.adventure == OD_KING) {
        state->places[place].gold[seat]++;
        return;
    }
    state->seat[seat].gold++;
    if (state->config.adventure == OD_FELLOWSHIP)
        state->seat[seat].points += 2;
}

/* What lies on a place is picked up by the seat arriving or standing there. */
static void pick_up(od_state *state, int place, int seat)
{
    od_place *p = &state->places[place];
    switch (p->item) {
    case OD_ITEM_HERB: state->seat[seat].herbs++; break;
    case OD_ITEM_SWORD: state->seat[seat].swords++; break;
    case OD_ITEM_GOLD: take_gold(state, place, seat); break;
    default: break;
    }
    p->item = OD_ITEM_NONE;
    while (p->waiting) {
        p->waiting--;
        join(state, place, seat);
    }
}

/* OL-ENGINE-1: the sprite travels along the course to `field`, sweeping every field it enters. */
static void sprite_to(od_state *state, int field)
{
    int target = state->board.river_index[field];
    int at = state->sprite;
    while (at != target) {
        at += at < target ? 1 : -1;
        clear_all(&state->places[state->board.river[at]]);
    }
    if (state->sprite == target)
        clear_all(&state->places[field]);
    state->sprite = (int8_t)target;
}

/* Adventure 4: every seat that now has enough figures in a city takes its key. */
static void check_keys(od_state *state)
{
    if (state->config.adventure != OD_PRINCESS)
        return;
    int count[OD_MAX_SEATS][OD_CITIES] = {{0}};
    for (int f = 0; f < OD_FIELDS; f++) {
        int c = state->board.city[f];
        if (c == OD_NONE)
            continue;
        for (int s = 0; s < state->config.seats; s++)
            count[s][c] += state->places[f].adventurers[s] + state->places[f].companions[s];
    }
    for (int s = 0; s < state->config.seats; s++)
        for (int c = 0; c < OD_CITIES; c++)
            if (!(state->seat[s].keys & (1u << c)) && state->keys_left[c] > 0 &&
                count[s][c] >= key_need[c][state->config.seats - 2]) {
                state->seat[s].keys |= (uint8_t)(1u << c);
                state->keys_left[c]--;
            }
}

/* ---- init and setup ---- */

od_status od_init(od_state *state, const od_config *config, const od_board *board,
                  od_error *error)
{
    char reason[160];
    if (!rules_seats_valid("Odyssée-land", 2, OD_MAX_SEATS, config->seats, config->colours,
                           reason, sizeof reason))
        return fail(error, OD_BAD_CONFIG, "%s", reason);
    if (config->adventure < OD_FELLOWSHIP || config->adventure > OD_KING)
        return fail(error, OD_BAD_CONFIG, "adventure %d: Odyssée-land has adventures 1 to 6",
                    config->adventure);
    if (config->colossal && config->adventure != OD_PRINCESS)
        return fail(error, OD_BAD_CONFIG, "the colossal giant belongs to adventure 4");
    if (!board)
        return fail(error, OD_BAD_CONFIG, "no board: Odyssée-land is played on a board file");
    memset(state, 0, sizeof *state);
    state->config = *config;
    for (int i = config->seats; i < OD_MAX_SEATS; i++)
        memset(state->config.colours[i], 0, OD_COLOUR_MAX);
    state->board = *board;
    if (!od_board_check(&state->board, reason, sizeof reason))
        return fail(error, OD_BAD_CONFIG, "board %s: %s", board->id, reason);

    int seats = config->seats;
    int starts = seats == 2 ? 5 : 4;
    /* seats <= OD_MAX_SEATS was checked above, in another file: said again for GCC's -O3, which
     * cannot see it and refuses the writes (-Wstringop-overflow). */
    for (int s = 0; s < seats && s < OD_MAX_SEATS; s++)
        for (int i = 0; i < starts; i++) {
            state->places[OD_START_ROW(i)].adventurers[s] = 1;
            state->places[OD_START_COLUMN(i)].adventurers[s] = 1;
        }
    /* Adventures 4-6 keep every companion and sword in the box ("sans trier"). */
    static const int back[3] = {8, 5, 2};
    int returned = config->adventure <= OD_CITIES_ESCAPE ? back[seats - 2] : 0;
    state->companions = 30 - returned;
    state->swords = 28 - returned;
    state->herbs = 20;
    state->gold_stock = 18;
    state->supers = config->adventure >= OD_UPRISING ? 6 : 0;
    static const uint8_t stack[5] = {4, 4, 3, 2, 1}; /* D-OL-1: laurels 4, 5, 6, 7, 8 */
    memcpy(state->creature_stack, stack, sizeof stack);
    for (int c = 0; c < OD_CITIES; c++)
        state->keys_left[c] = config->adventure == OD_PRINCESS ? 4 : 0;
    state->deck = OD_FIELDS - (config->adventure == OD_PRINCESS ? 1 : 0);
    if (config->adventure == OD_KING)
        state->deck = 0;
    state->sprite = OD_NONE;
    state->princess = state->king = state->winner = OD_NONE;
    state->phase = OD_PHASE_SETUP;
    return OD_OK;
}

/* ---- fights ---- */

/* A creature (value > 0) on place is defeated by seat. */
static od_status creature_falls(od_state *state, int place, int seat, const od_fight *fight,
                                od_error *error)
{
    od_place *p = &state->places[place];
    int value = p->creature;
    p->creature = 0;
    state->seat[seat].creatures++;
    if (state->config.adventure == OD_UPRISING)
        return OD_OK;
    int laurel = value / 2; /* D-OL-1: combat value = 2 x laurel */
    state->seat[seat].laurels = (uint8_t)(state->seat[seat].laurels + laurel);
    if (state->config.adventure == OD_FELLOWSHIP || state->config.adventure == OD_KING)
        state->seat[seat].points += laurel;
    if (state->config.adventure == OD_KING && state->king == place) {
        state->seat[seat].points += 5;
        int targets[OD_CREATURES];
        int n = od_king_targets(state, place, targets);
        int next = fight->king;
        if (n == 0) {
            if (next != OD_NONE)
                return fail(error, OD_ILLEGAL, "the king is free: no creature is left to guard it");
        } else {
            if (next == OD_NONE && n == 1)
                next = targets[0];
            bool allowed = false;
            for (int i = 0; i < n; i++)
                allowed |= targets[i] == next;
            if (!allowed) {
                char name[12];
                od_place_name(targets[0], name);
                return fail(error, OD_ILLEGAL,
                            "the king goes to a creature of the same value, else the nearest "
                            "(`king %s`; OL-ENGINE-7)", name);
            }
        }
        state->king = (int8_t)(n ? next : OD_NONE);
    }
    return OD_OK;
}

int od_king_targets(const od_state *state, int field, int *targets)
{
    int value = state->places[field].creature;
    int best = -1, n = 0;
    /* same value, else the nearest lower, else the nearest higher (OL-ENGINE-7) */
    for (int pass = 0; pass < 3 && n == 0; pass++) {
        best = -1;
        for (int f = 0; f < OD_FIELDS; f++) {
            int v = state->places[f].creature;
            if (f == field || v == 0)
                continue;
            bool fits = pass == 0 ? v == value : pass == 1 ? v < value : v > value;
            if (!fits)
                continue;
            if (pass == 0 || best < 0 || (pass == 1 ? v > best : v < best))
                best = v;
        }
        if (best < 0)
            continue;
        for (int f = 0; f < OD_FIELDS; f++)
            if (f != field && state->places[f].creature == best)
                targets[n++] = f;
    }
    return n;
}

/* A fight on place against `value` (a creature, or the giant when giant). Checks and spends
 * what each contributor brings; *won tells the outcome. On a loss every piece on the place
 * leaves the game. */
static od_status fight(od_state *state, int place, int value, bool giant, const od_fight *f,
                       bool *won, od_error *error)
{
    od_place *p = &state->places[place];
    if (f->contributors < 0) { /* reconcile: the outcome seen, the details to be entered */
        *won = f->contributors == -1;
    } else {
        if (f->contributors > OD_MAX_CONTRIBUTORS)
            return fail(error, OD_BAD_NOTATION, "too many seats in one fight");
        int strength = od_fighters(state, place, OD_NONE), swords = 0, dice = 0;
        bool seen[OD_MAX_SEATS] = {false};
        od_contribution by[OD_MAX_CONTRIBUTORS];
        for (int i = 0; i < f->contributors; i++) { /* no colour: the fighter standing there */
            by[i] = f->by[i];
            if (by[i].seat == OD_NONE)
                by[i].seat = taker(state, place);
        }
        for (int i = 0; i < f->contributors; i++) {
            const od_contribution *c = &by[i];
            const char *colour = c->seat >= 0 && c->seat < state->config.seats
                                     ? state->config.colours[c->seat] : "?";
            if (c->seat < 0 || c->seat >= state->config.seats || seen[c->seat])
                return fail(error, OD_ILLEGAL, "a seat named twice in one fight");
            seen[c->seat] = true;
            if (!od_has(state, place, c->seat))
                return fail(error, OD_ILLEGAL, "%s has no adventurer in this fight", colour);
            if (c->swords < 0 || c->swords > OD_MAX_DICE || c->herbs < 0 ||
                c->herbs > OD_MAX_HERBS_USED || c->gold < 0 || c->rerolls < 0)
                return fail(error, OD_BAD_NOTATION, "a fight's counts out of range");
            if (c->swords > state->seat[c->seat].swords)
                return fail(error, OD_ILLEGAL, "%s uses %d swords and has %d", colour, c->swords,
                            state->seat[c->seat].swords);
            if (c->herbs > state->seat[c->seat].herbs)
                return fail(error, OD_ILLEGAL, "%s uses %d herbs and has %d", colour, c->herbs,
                            state->seat[c->seat].herbs);
            int gold = state->config.adventure == OD_KING ? p->gold[c->seat]
                                                          : state->seat[c->seat].gold;
            if (c->gold + c->rerolls > gold)
                return fail(error, OD_ILLEGAL, "%s spends %d gold and has %d%s", colour,
                            c->gold + c->rerolls, gold,
                            state->config.adventure == OD_KING ? " here" : "");
            for (int k = 0; k < c->swords; k++) {
                if (c->sword_values[k] > 3)
                    return fail(error, OD_ILLEGAL, "a sword's extra value is 0 to 3, not %d",
                                c->sword_values[k]);
                if (c->dice[k] < 1 || c->dice[k] > 6)
                    return fail(error, OD_ILLEGAL, "a die shows 1 to 6, not %d", c->dice[k]);
                strength += c->sword_values[k] + c->dice[k];
            }
            for (int k = 0; k < c->herbs; k++) {
                if (c->herb_values[k] < 2 || c->herb_values[k] > 4)
                    return fail(error, OD_ILLEGAL, "an herb is worth 2 to 4, not %d",
                                c->herb_values[k]);
                strength += c->herb_values[k];
            }
            strength += c->gold;
            swords += c->swords;
            dice += c->swords;
        }
        if (giant) /* the creatures it beat fight beside it, whatever is spent */
            strength += state->seat[taker(state, place)].laurels;
        if (swords > od_max_swords(state, giant))
            return fail(error, OD_ILLEGAL, "%d swords: a fight takes %d at most", swords,
                        od_max_swords(state, giant));
        for (int i = 0; i < f->contributors; i++)
            if (by[i].rerolls > 0 && dice == 0)
                return fail(error, OD_ILLEGAL, "a re-roll needs a die: no sword was used");
        *won = strength >= value;
        for (int i = 0; i < f->contributors; i++) {
            const od_contribution *c = &by[i];
            od_seat *seat = &state->seat[c->seat];
            seat->herbs = (uint8_t)(seat->herbs - c->herbs);
            if (!*won)
                seat->swords = (uint8_t)(seat->swords - c->swords);
            if (state->config.adventure == OD_KING)
                p->gold[c->seat] = (uint8_t)(p->gold[c->seat] - c->gold - c->rerolls);
            else
                seat->gold = (uint8_t)(seat->gold - c->gold - c->rerolls);
        }
    }
    if (!*won)
        clear_all(p);
    return OD_OK;
}

/* A fight between a creature on place and whoever stands there. */
static od_status creature_fight(od_state *state, int place, const od_step *step, od_error *error)
{
    char name[12];
    od_place_name(place, name);
    if (!step->fights)
        return fail(error, OD_ILLEGAL, "a fight at %s: give it (`fight ...`)", name);
    if (step->fight.king != OD_NONE && !(state->config.adventure == OD_KING && place == state->king))
        return fail(error, OD_ILLEGAL, "`king` follows only a won fight against the king's guardian");
    int seat = taker(state, place);
    bool won;
    od_status status = fight(state, place, state->places[place].creature, false, &step->fight,
                             &won, error);
    if (status != OD_OK)
        return status;
    if (!won)
        return OD_OK;
    return creature_falls(state, place, seat, &step->fight, error);
}

/* ---- cards ---- */

int od_advance_targets(const od_state *state, int field, int *targets)
{
    int n = 0, row = field / OD_COLUMNS, column = field % OD_COLUMNS;
    for (int d = 0; d < 2; d++)
        for (int k = 1;; k++) {
            int r = row + (d == 0 ? k : 0), c = column + (d == 1 ? k : 0);
            if (r >= OD_ROWS || c >= OD_COLUMNS)
                break;
            int f = OD_FIELD(r, c);
            if ((in_city(state, f, OD_CAPITAL) || in_city(state, f, OD_CITY5)) &&
                !state->places[f].creature)
                targets[n++] = f; /* creatures jump creatures and the sprite */
        }
    return n;
}

/* Adventure 5: the creature on a turned fog field advances (or is placed) to step->target. */
static od_status advance(od_state *state, const od_step *step, od_error *error)
{
    int from = step->place;
    char name[12], to[12];
    od_place_name(from, name);
    if (!state->places[from].creature) {
        if (step->target != OD_NONE)
            return fail(error, OD_ILLEGAL, "no creature is left on %s to advance", name);
        return OD_OK;
    }
    int targets[OD_FIELDS];
    int n = od_advance_targets(state, from, targets);
    int target = step->target;
    if (target == OD_NONE && n == 1)
        target = targets[0];
    if (target == OD_NONE)
        return fail(error, OD_ILLEGAL, "the creature on %s advances: say where (`to FIELD`)",
                    name);
    od_place_name(target, to);
    bool allowed = false;
    for (int i = 0; i < n; i++)
        allowed |= targets[i] == target;
    if (n == 0) /* OL-ENGINE-6: nowhere straight, so anywhere in the two cities */
        allowed = target < OD_FIELDS &&
                  (in_city(state, target, OD_CAPITAL) || in_city(state, target, OD_CITY5)) &&
                  !state->places[target].creature;
    if (!allowed)
        return fail(error, OD_ILLEGAL, "the creature on %s cannot advance to %s", name, to);
    od_place *p = &state->places[target];
    p->creature = state->places[from].creature;
    state->places[from].creature = 0;
    p->waiting = 0; /* a companion alone there leaves the game */
    if (adventurers_on(p))
        return creature_fight(state, target, step, error);
    if (step->fights)
        return fail(error, OD_ILLEGAL, "nobody stands on %s to fight", to);
    return OD_OK;
}

static bool creature_in_stack(const od_state *state, int value)
{
    return value % 2 == 0 && value >= 8 && value <= 16 && state->creature_stack[value / 2 - 4];
}

static od_status apply_card(od_state *state, const od_step *step, od_error *error)
{
    int f = step->place;
    char name[12];
    if (f < 0 || f >= OD_FIELDS)
        return fail(error, OD_ILLEGAL, "a card names a field A1 to K10");
    od_place_name(f, name);
    if (state->config.adventure == OD_KING)
        return fail(error, OD_ILLEGAL, "adventure 6 is played without terrain cards");
    if (state->turned[f])
        return fail(error, OD_ILLEGAL, "the card %s was turned already", name);
    if (f == state->princess)
        return fail(error, OD_ILLEGAL, "the card %s lies on the giant: the princess is there",
                    name);
    if (state->deck == 0)
        return fail(error, OD_ILLEGAL, "the deck is empty");
    int terrain = state->board.terrain[f];
    if (terrain != OD_FOG && (step->creature || step->target != OD_NONE))
        return fail(error, OD_ILLEGAL, "%s is %s: no creature comes with its card", name,
                    od_terrain_name(terrain));
    if (state->config.adventure == OD_UPRISING && step->creature)
        return fail(error, OD_ILLEGAL, "adventure 5's creatures were laid at the setup: `turn %s "
                    "to FIELD`", name);
    if (state->config.adventure != OD_UPRISING && step->target != OD_NONE)
        return fail(error, OD_ILLEGAL, "creatures advance (`to`) in adventure 5 only");
    state->turned[f] = 1;
    state->deck--;
    od_place *p = &state->places[f];
    int seat = taker(state, f);
    switch (terrain) {
    case OD_CITY:
        if (state->companions > 0) {
            state->companions--;
            if (seat != OD_NONE)
                join(state, f, seat);
            else if (!p->creature) /* adventure 5: a creature in the city takes it */
                p->waiting = 1;
        }
        break;
    case OD_MOUNTAIN:
    case OD_FOREST: {
        int *stock = terrain == OD_MOUNTAIN ? &state->swords : &state->herbs;
        if (*stock > 0) {
            (*stock)--;
            p->item = terrain == OD_MOUNTAIN ? OD_ITEM_SWORD : OD_ITEM_HERB;
            if (seat != OD_NONE)
                pick_up(state, f, seat);
        }
        break;
    }
    case OD_RIVER:
        if (state->gold_stock > 0) {
            state->gold_stock--;
            p->item = OD_ITEM_GOLD;
            if (seat != OD_NONE)
                pick_up(state, f, seat); /* taken before the sprite arrives */
        }
        sprite_to(state, f);
        break;
    case OD_FOG:
        if (state->config.adventure == OD_UPRISING)
            return advance(state, step, error);
        if (!creature_in_stack(state, step->creature))
            return fail(error, OD_ILLEGAL,
                        "the creature turned on %s: a value left in the stack (8, 10, 12, 14, 16; "
                        "D-OL-1), not %d", name, step->creature);
        state->creature_stack[step->creature / 2 - 4]--;
        p->creature = (uint8_t)step->creature;
        if (seat != OD_NONE)
            return creature_fight(state, f, step, error);
        break;
    }
    if (step->fights)
        return fail(error, OD_ILLEGAL, "nobody fights at %s", name);
    return OD_OK;
}

/* ---- moves ---- */

int od_destination(int place, int direction, int distance)
{
    int row, column;
    if (place >= OD_FIELDS + 5) {
        if (direction != OD_SOUTH)
            return OD_NONE;
        row = -1, column = place - OD_FIELDS - 5;
    } else if (place >= OD_FIELDS) {
        if (direction != OD_EAST)
            return OD_NONE;
        row = place - OD_FIELDS, column = -1;
    } else {
        row = place / OD_COLUMNS, column = place % OD_COLUMNS;
    }
    if (direction == OD_SOUTH)
        row += distance;
    else if (direction == OD_EAST)
        column += distance;
    else
        return OD_NONE;
    if (distance < 1 || row < 0 || row >= OD_ROWS || column < 0 || column >= OD_COLUMNS)
        return OD_NONE;
    return OD_FIELD(row, column);
}

int od_displaced_to(const od_state *state, int field, int direction)
{
    int row = field / OD_COLUMNS, column = field % OD_COLUMNS;
    for (;;) {
        if (direction == OD_NORTH)
            row--;
        else
            column--;
        if (row < 0 || column < 0)
            break;
        int f = OD_FIELD(row, column);
        const od_place *p = &state->places[f];
        if (in_city(state, f, OD_CAPITAL) || p->creature || adventurers_on(p) ||
            f == od_sprite_field(state))
            continue; /* "libre": nobody there; creatures are jumped */
        return f;
    }
    if (direction == OD_NORTH && column < 5)
        return OD_START_COLUMN(column);
    if (direction == OD_WEST && row < 5)
        return OD_START_ROW(row);
    return OD_NONE;
}

/* Adventure 6: strength for displacement: adventurers, companions (an extraordinary one 5) and
 * gold carried. */
static int presence(const od_state *state, int place, int seat)
{
    return od_fighters(state, place, seat) + state->places[place].gold[seat];
}

/* The pieces that move: the whole place (a group, a troop) or one seat's part. */
typedef struct movers {
    uint8_t adventurers[OD_MAX_SEATS], companions[OD_MAX_SEATS], supers[OD_MAX_SEATS],
        gold[OD_MAX_SEATS];
} movers;

/* Whether the seat to play may move from place with step->seat (its own, a troop's part, or all)
 * and what moves. */
static od_status take_movers(const od_state *state, const od_step *step, movers *m,
                             od_error *error)
{
    int place = step->place, seat = state->active;
    char name[12];
    od_place_name(place, name);
    const od_place *p = &state->places[place];
    memset(m, 0, sizeof *m);
    if (!od_has(state, place, seat))
        return fail(error, OD_ILLEGAL, "%s has no adventurer on %s", state->config.colours[seat],
                    name);
    if (place >= OD_FIELDS) { /* a start space: one adventurer, this seat's */
        if (step->seat != OD_NONE && step->seat != seat)
            return fail(error, OD_ILLEGAL, "only %s's own adventurer leaves %s",
                        state->config.colours[seat], name);
        m->adventurers[seat] = 1;
        if (p->adventurers[seat] == 1) { /* one displaced here (adventure 6) leaves with its own */
            m->companions[seat] = p->companions[seat];
            m->supers[seat] = p->supers[seat];
            m->gold[seat] = p->gold[seat];
        }
        return OD_OK;
    }
    for (int s = 0; s < OD_MAX_SEATS; s++) {
        if (step->seat != OD_NONE && s != step->seat)
            continue;
        m->adventurers[s] = p->adventurers[s];
        m->companions[s] = p->companions[s];
        m->supers[s] = p->supers[s];
        m->gold[s] = p->gold[s];
    }
    if (step->seat != OD_NONE && !m->adventurers[step->seat])
        return fail(error, OD_ILLEGAL, "%s has no adventurer on %s",
                    state->config.colours[step->seat], name);
    return OD_OK;
}

/* Whether the line from place to dest is open: no creature and no sprite on the fields jumped
 * (adventure 4 jumps the sprite). */
static bool path_open(const od_state *state, int place, int direction, int distance)
{
    int sprite = od_sprite_field(state);
    for (int k = 1; k < distance; k++) {
        int f = od_destination(place, direction, k);
        if (state->places[f].creature)
            return false;
        if (f == sprite && state->config.adventure != OD_PRINCESS)
            return false;
    }
    return true;
}

static od_status apply_move(od_state *state, const od_step *step, od_error *error)
{
    int seat = state->active;
    const char *colour = state->config.colours[seat];
    char from_name[12], to_name[12];
    od_place_name(step->place, from_name);
    if (step->place < 0 || step->place >= OD_PLACES)
        return fail(error, OD_ILLEGAL, "a move from nowhere");
    movers m;
    od_status status = take_movers(state, step, &m, error);
    if (status != OD_OK)
        return status;
    int dest = od_destination(step->place, step->direction, step->distance);
    if (dest == OD_NONE)
        return fail(error, OD_ILLEGAL, "%s cannot go %s %d from %s", colour,
                    step->direction == OD_SOUTH ? "south" : "east", step->distance, from_name);
    od_place_name(dest, to_name);
    if (!path_open(state, step->place, step->direction, step->distance))
        return fail(error, OD_ILLEGAL, "%s to %s would jump a fog creature or the water sprite",
                    from_name, to_name);
    if (dest == od_sprite_field(state))
        return fail(error, OD_ILLEGAL, "%s: the water sprite stands there", to_name);
    od_place *d = &state->places[dest];
    int adventure = state->config.adventure;
    int occupant = OD_NONE;
    for (int s = 0; s < state->config.seats; s++)
        if (d->adventurers[s])
            occupant = s;
    if (occupant != OD_NONE) {
        bool shares = adventure == OD_UPRISING ||
                      (adventure == OD_MAGNIFICENT && occupant == seat &&
                       adventurers_on(d) == d->adventurers[seat]);
        for (int s = 0; s < OD_MAX_SEATS && adventure == OD_MAGNIFICENT; s++)
            if (m.adventurers[s] && s != occupant)
                shares = false;
        if (!shares && !(adventure == OD_KING && in_city(state, dest, OD_CAPITAL)))
            return fail(error, OD_ILLEGAL, "%s: another adventurer stands there", to_name);
    }
    if (step->displace != OD_NONE && (occupant == OD_NONE || adventure != OD_KING))
        return fail(error, OD_ILLEGAL, "nobody to displace on %s", to_name);
    if (step->giant && adventure != OD_PRINCESS)
        return fail(error, OD_ILLEGAL, "the giant belongs to adventure 4");
    if (step->giant && d->creature)
        return fail(error, OD_ILLEGAL, "a fog creature stands on %s", to_name);
    if (!step->giant && !d->creature && step->fights)
        return fail(error, OD_ILLEGAL, "nothing to fight on %s", to_name);

    /* leave */
    od_place *from = &state->places[step->place];
    bool carried_gold = false;
    for (int s = 0; s < OD_MAX_SEATS; s++) {
        from->adventurers[s] = (uint8_t)(from->adventurers[s] - m.adventurers[s]);
        from->companions[s] = (uint8_t)(from->companions[s] - m.companions[s]);
        from->supers[s] = (uint8_t)(from->supers[s] - m.supers[s]);
        from->gold[s] = (uint8_t)(from->gold[s] - m.gold[s]);
        carried_gold |= m.gold[s] > 0;
    }

    /* Adventure 6: the stronger takes a capital field, the weaker is displaced. */
    if (occupant != OD_NONE && adventure == OD_KING) {
        int strength = 0;
        for (int s = 0; s < OD_MAX_SEATS; s++)
            strength += m.adventurers[s] + m.companions[s] + 5 * m.supers[s] + m.gold[s];
        if (strength <= presence(state, dest, occupant))
            return fail(error, OD_ILLEGAL, "%s is not stronger than %s on %s", colour,
                        state->config.colours[occupant], to_name);
        if (step->displace != OD_NORTH && step->displace != OD_WEST)
            return fail(error, OD_ILLEGAL, "%s displaces %s: say where (`displace north` or "
                        "`displace west`)", colour, state->config.colours[occupant]);
        int to = od_displaced_to(state, dest, step->displace);
        if (to == OD_NONE)
            return fail(error, OD_ILLEGAL, "no free field %s of %s for the displaced adventurer",
                        step->displace == OD_NORTH ? "north" : "west", to_name);
        od_place *t = &state->places[to];
        t->adventurers[occupant] = (uint8_t)(t->adventurers[occupant] + d->adventurers[occupant]);
        t->companions[occupant] = (uint8_t)(t->companions[occupant] + d->companions[occupant]);
        t->supers[occupant] = (uint8_t)(t->supers[occupant] + d->supers[occupant]);
        t->gold[occupant] = (uint8_t)(t->gold[occupant] + d->gold[occupant]);
        clear_seat(d, occupant);
        if (to < OD_FIELDS)
            pick_up(state, to, occupant); /* what lies there, as on any arrival */
    }

    /* arrive */
    for (int s = 0; s < OD_MAX_SEATS; s++) {
        d->adventurers[s] = (uint8_t)(d->adventurers[s] + m.adventurers[s]);
        d->companions[s] = (uint8_t)(d->companions[s] + m.companions[s]);
        d->supers[s] = (uint8_t)(d->supers[s] + m.supers[s]);
        d->gold[s] = (uint8_t)(d->gold[s] + m.gold[s]);
    }
    if (d->creature) {
        status = creature_fight(state, dest, step, error);
        if (status != OD_OK)
            return status;
    } else if (step->giant) {
        if (!od_giant_ready(state, seat))
            return fail(error, OD_ILLEGAL, "%s needs the 5 keys and %d laurels to fight the giant",
                        colour, od_giant_laurels(state));
        if (state->princess != OD_NONE && state->princess != dest)
            return fail(error, OD_ILLEGAL, "the princess is not on %s", to_name);
        if (state->turned[dest])
            return fail(error, OD_ILLEGAL, "the card %s was turned: the princess is not there",
                        to_name);
        if (!step->fights)
            return fail(error, OD_ILLEGAL, "the giant's fight: give it (`fight ...`)");
        state->princess = (int8_t)dest; /* revealed to all */
        bool won;
        status = fight(state, dest, od_giant_strength(state), true, &step->fight, &won, error);
        if (status != OD_OK)
            return status;
        if (won) {
            state->winner = (int8_t)seat;
            state->end = OD_END_PRINCESS;
        }
    } else if (adventurers_on(d)) {
        pick_up(state, dest, step->seat != OD_NONE ? step->seat : seat); /* a troop part: its colour */
    }
    if (carried_gold && state->board.terrain[step->place] == OD_RIVER &&
        state->board.terrain[dest] != OD_RIVER)
        sprite_to(state, step->place); /* adventure 6: it follows gold leaving the river */
    return OD_OK;
}

static od_status apply_super(od_state *state, const od_step *step, od_error *error)
{
    int seat = state->active;
    char name[12];
    od_place_name(step->place, name);
    if (state->config.adventure < OD_UPRISING)
        return fail(error, OD_ILLEGAL, "extraordinary companions belong to adventures 5 and 6");
    if (step->place < 0 || step->place >= OD_PLACES || !od_has(state, step->place, seat))
        return fail(error, OD_ILLEGAL, "%s has no adventurer on %s", state->config.colours[seat],
                    name);
    od_place *p = &state->places[step->place];
    int pooled = 0; /* a troop's companions count together (seed: "ou une troupe") */
    for (int s = 0; s < OD_MAX_SEATS; s++)
        pooled += p->companions[s];
    if (pooled < 5)
        return fail(error, OD_ILLEGAL, "5 companions on %s make an extraordinary one, not %d",
                    name, pooled);
    if (state->supers == 0)
        return fail(error, OD_ILLEGAL, "no extraordinary companion is left");
    state->supers--;
    for (int s = seat, owed = 5; owed > 0; s = (s + 1) % OD_MAX_SEATS) { /* its own first */
        int given = p->companions[s] < owed ? p->companions[s] : owed;
        p->companions[s] = (uint8_t)(p->companions[s] - given);
        owed -= given;
    }
    p->supers[seat]++; /* OL-ENGINE-6: it joins the seat that made it */
    return OD_OK;
}

static od_status apply_buy_key(od_state *state, const od_step *step, od_error *error)
{
    int seat = state->active;
    if (state->config.adventure != OD_PRINCESS)
        return fail(error, OD_ILLEGAL, "keys belong to adventure 4");
    if (step->key < 0 || step->key >= OD_CITIES)
        return fail(error, OD_BAD_NOTATION, "no such key");
    if (state->seat[seat].keys & (1u << step->key))
        return fail(error, OD_ILLEGAL, "%s has the %s key already", state->config.colours[seat],
                    key_names[step->key]);
    if (!state->keys_left[step->key])
        return fail(error, OD_ILLEGAL, "no %s key is left", key_names[step->key]);
    int price = state->config.seats == 2 ? 3 : 2;
    if (state->config.colossal)
        price++;
    if (state->seat[seat].gold < price)
        return fail(error, OD_ILLEGAL, "a key costs %d gold, %s has %d", price,
                    state->config.colours[seat], state->seat[seat].gold);
    state->seat[seat].gold = (uint8_t)(state->seat[seat].gold - price);
    state->seat[seat].keys |= (uint8_t)(1u << step->key);
    state->keys_left[step->key]--;
    return OD_OK;
}

/* ---- legal moves ---- */

void od_expand_move(const od_compact_move *c, od_step *step)
{
    *step = (od_step){.kind = OD_STEP_MOVE, .place = c->place, .direction = c->direction,
                      .distance = c->distance, .seat = c->part, .target = OD_NONE,
                      .key = OD_NONE, .displace = c->displace, .giant = c->giant,
                      .fights = c->fights, .fight = {.king = OD_NONE}};
}

/* The moves of `seat` from one place (when moves is not NULL), up to max; returns how many
 * there are. max < 0: only whether there is one (1 or 0). */
static int moves_from(const od_state *state, int seat, int place, od_compact_move *moves, int max)
{
    const od_place *p = &state->places[place];
    if (!p->adventurers[seat])
        return 0;
    int adventure = state->config.adventure;
    /* the parts that may move: all, or in a troop each colour alone (OL-ENGINE-2) */
    int parts[OD_MAX_SEATS + 1], part_count = 0;
    parts[part_count++] = OD_NONE;
    if (place < OD_FIELDS && adventure == OD_UPRISING && adventurers_on(p) > p->adventurers[seat])
        for (int s = 0; s < state->config.seats; s++)
            if (p->adventurers[s])
                parts[part_count++] = s;
    int sprite = od_sprite_field(state), n = 0;
    for (int direction = OD_SOUTH; direction <= OD_EAST; direction++) {
        int first = od_destination(place, direction, 1);
        if (first == OD_NONE)
            continue;
        int step = direction == OD_SOUTH ? OD_COLUMNS : 1;
        int last = direction == OD_SOUTH ? OD_FIELD(OD_ROWS - 1, first % OD_COLUMNS)
                                         : OD_FIELD(first / OD_COLUMNS, OD_COLUMNS - 1);
        for (int dest = first, distance = 1; dest <= last; dest += step, distance++) {
            const od_place *d = &state->places[dest];
            if (dest == sprite) {
                if (adventure == OD_PRINCESS)
                    continue;
                break;
            }
            bool creature = d->creature != 0;
            int occupants = adventurers_on(d);
            for (int k = 0; k < part_count; k++) {
                int displaces[2] = {OD_NONE, OD_NONE}, variants = 1;
                if (occupants) {
                    if (adventure == OD_UPRISING) {
                    } else if (adventure == OD_MAGNIFICENT) {
                        if (occupants != d->adventurers[seat])
                            continue;
                    } else if (adventure == OD_KING && in_city(state, dest, OD_CAPITAL)) {
                        int occupant = taker(state, dest);
                        int strength = place < OD_FIELDS ? presence(state, place, seat) : 1;
                        if (strength <= presence(state, dest, occupant))
                            continue;
                        variants = 0;
                        for (int dir = OD_NORTH; dir <= OD_WEST; dir++)
                            if (od_displaced_to(state, dest, dir) != OD_NONE)
                                displaces[variants++] = dir;
                    } else {
                        continue;
                    }
                }
                bool giant = adventure == OD_PRINCESS && !creature && !occupants &&
                             dest == state->princess && !state->turned[dest] &&
                             od_giant_ready(state, seat);
                if (max < 0 && variants + giant > 0)
                    return 1; /* od_any_move: one is enough */
                for (int v = 0; v < variants + giant; v++) {
                    if (moves && n < max)
                        moves[n] = (od_compact_move){
                            .place = (uint8_t)place, .direction = (uint8_t)direction,
                            .distance = (uint8_t)distance, .part = (int8_t)parts[k],
                            .displace = (int8_t)(v < variants ? displaces[v] : OD_NONE),
                            .giant = v == variants, .fights = creature || v == variants};
                    n++;
                }
            }
            if (creature)
                break; /* nobody jumps a fog creature */
        }
    }
    return n;
}

int od_compact_moves(const od_state *state, od_compact_move *moves)
{
    int n = 0;
    for (int place = 0; place < OD_PLACES; place++)
        if (state->places[place].adventurers[state->active])
            n += moves_from(state, state->active, place, moves + (n < OD_MAX_MOVES ? n : OD_MAX_MOVES),
                            n < OD_MAX_MOVES ? OD_MAX_MOVES - n : 0);
    return n;
}

int od_legal_moves(const od_state *state, od_step *moves, int max)
{
    if (state->phase != OD_PHASE_TURN)
        return 0;
    od_compact_move all[OD_MAX_MOVES];
    int n = od_compact_moves(state, all);
    for (int i = 0; moves && i < n && i < max && i < OD_MAX_MOVES; i++)
        od_expand_move(&all[i], &moves[i]);
    return n;
}

bool od_nth_move(const od_state *state, int index, od_step *move)
{
    if (state->phase != OD_PHASE_TURN || index < 0)
        return false;
    od_compact_move all[OD_MAX_MOVES];
    int n = od_compact_moves(state, all);
    if (index >= n || index >= OD_MAX_MOVES)
        return false;
    od_expand_move(&all[index], move);
    return true;
}

bool od_any_move(const od_state *state)
{
    for (int seat = 0; seat < state->config.seats; seat++)
        for (int place = 0; place < OD_PLACES; place++)
            if (moves_from(state, seat, place, NULL, -1))
                return true;
    return false;
}

int od_adventurers_left(const od_state *state, int seat)
{
    int n = 0;
    for (int place = 0; place < OD_PLACES; place++)
        n += state->places[place].adventurers[seat];
    return n;
}

/* ---- the setup, a turn, the end ---- */

static int creatures_on_board(const od_state *state)
{
    int n = 0;
    for (int f = 0; f < OD_FIELDS; f++)
        n += state->places[f].creature != 0;
    return n;
}

static bool capital_full(const od_state *state)
{
    for (int f = 0; f < OD_FIELDS; f++)
        if (in_city(state, f, OD_CAPITAL) && !adventurers_on(&state->places[f]))
            return false;
    return true;
}

static bool holds_values(const od_state *state)
{
    for (int s = 0; s < state->config.seats; s++)
        if (state->seat[s].herbs + state->seat[s].swords > 0 && !state->seat[s].revealed)
            return true;
    return false;
}

static void finish(od_state *state, od_end end)
{
    state->end = (uint8_t)end;
    state->phase = state->config.adventure == OD_MAGNIFICENT && holds_values(state)
                       ? OD_PHASE_REVEAL : OD_PHASE_OVER;
}

/* After a step: the ends that come at once. */
static bool ended_at_once(od_state *state)
{
    int adventure = state->config.adventure;
    if (adventure == OD_PRINCESS && state->end == OD_END_PRINCESS) {
        finish(state, OD_END_PRINCESS);
        return true;
    }
    if (adventure == OD_UPRISING && creatures_on_board(state) == 0) {
        finish(state, OD_END_VICTORY);
        return true;
    }
    if (adventure == OD_KING && creatures_on_board(state) == 0 && capital_full(state)) {
        finish(state, OD_END_VICTORY);
        return true;
    }
    return false;
}

/* After a whole turn: the next seat, or the end. */
static void end_turn(od_state *state)
{
    int adventure = state->config.adventure;
    state->turns++;
    if (adventure <= OD_PRINCESS &&
        ((state->companions == 0 && state->swords == 0) || state->deck == 0))
        state->last_round = true; /* OL-ENGINE-3 */
    if (adventure == OD_UPRISING && state->deck == 0) {
        finish(state, OD_END_DECK);
        return;
    }
    int next = (state->active + 1) % state->config.seats;
    if (state->last_round && next == 0) {
        finish(state, OD_END_STOCK);
        return;
    }
    state->active = next;
    if (!od_any_move(state))
        finish(state, OD_END_STUCK);
}

static od_status apply_step(od_state *state, const od_step *step, od_error *error)
{
    switch (step->kind) {
    case OD_STEP_CARD: return apply_card(state, step, error);
    case OD_STEP_MOVE: return apply_move(state, step, error);
    case OD_STEP_BUY_KEY: return apply_buy_key(state, step, error);
    case OD_STEP_SUPER: return apply_super(state, step, error);
    default: return fail(error, OD_BAD_NOTATION, "an unknown step");
    }
}

/* Cards owed: `base` plus one per fog card among them, fewer only when the deck runs out. */
static od_status check_card_count(const od_state *state, int turned, int fog, int base,
                                  od_error *error)
{
    int owed = base + fog;
    if (turned < owed && state->deck > 0)
        return fail(error, OD_ILLEGAL, "%d cards turned, %d owed (%d and one more per fog card)",
                    turned, owed, base);
    if (turned > owed)
        return fail(error, OD_ILLEGAL, "%d cards turned, only %d owed (%d and one more per fog "
                    "card)", turned, owed, base);
    return OD_OK;
}

void od_step_init(od_step *step, int kind, int place)
{
    memset(step, 0, sizeof *step);
    step->kind = (uint8_t)kind;
    step->place = place;
    step->target = step->seat = step->displace = step->key = OD_NONE;
    step->fight.king = OD_NONE;
}

od_status od_step_apply(od_state *state, const od_step *step, od_error *error)
{
    od_status status = apply_step(state, step, error);
    if (status == OD_OK) {
        check_keys(state);
        ended_at_once(state);
    }
    return status;
}

od_status od_apply(od_state *state, const od_turn *turn, od_error *error)
{
    if (state->phase != OD_PHASE_TURN)
        return fail(error, OD_ILLEGAL, state->phase == OD_PHASE_SETUP ? "the setup comes first"
                                       : state->phase == OD_PHASE_REVEAL
                                           ? "the game is over: herbs and swords to reveal"
                                           : "the game is over");
    if (turn->steps < 0 || turn->steps > OD_MAX_STEPS)
        return fail(error, OD_BAD_NOTATION, "too many steps in one turn");
    od_state next = *state;
    int cards = 0, fog = 0, moves = 0;
    for (int i = 0; i < turn->steps; i++) {
        const od_step *step = &turn->step[i];
        if (next.phase != OD_PHASE_TURN)
            return fail(error, OD_ILLEGAL, "the game ended before this step");
        if (step->kind == OD_STEP_CARD) {
            if (moves)
                return fail(error, OD_ILLEGAL, "the cards are turned before the moves");
            if (cards >= 2 + fog)
                return fail(error, OD_ILLEGAL, "%d cards turned, only %d owed (2 and one more "
                            "per fog card)", cards + 1, 2 + fog);
            cards++;
            if (step->place >= 0 && step->place < OD_FIELDS &&
                next.board.terrain[step->place] == OD_FOG)
                fog++;
        } else if (step->kind == OD_STEP_MOVE) {
            if (next.config.adventure != OD_KING && next.deck > 0 && cards < 2 + fog)
                return fail(error, OD_ILLEGAL, "%d cards turned, %d owed before moving", cards,
                            2 + fog);
            if (++moves > 2)
                return fail(error, OD_ILLEGAL, "two moves a turn at most");
        }
        od_status status = apply_step(&next, step, error);
        if (status != OD_OK)
            return status;
        check_keys(&next);
        ended_at_once(&next);
    }
    if (next.config.adventure != OD_KING && next.phase == OD_PHASE_TURN) {
        od_status status = check_card_count(&next, cards, fog, 2, error);
        if (status != OD_OK)
            return status;
    }
    if (next.phase == OD_PHASE_TURN)
        end_turn(&next);
    else
        next.turns++;
    *state = next;
    return OD_OK;
}

od_status od_setup_apply(od_state *state, const od_setup *setup, od_error *error)
{
    if (state->phase != OD_PHASE_SETUP)
        return fail(error, OD_ILLEGAL, "the setup is done already");
    od_state next = *state;
    int adventure = next.config.adventure;
    bool laid = adventure >= OD_UPRISING; /* creatures laid on every fog field */
    if (laid != (setup->creatures > 0))
        return fail(error, OD_ILLEGAL, laid ? "adventures 5 and 6 lay a creature on each of the "
                                              "14 fog fields at the setup (`creatures ...`)"
                                            : "creatures come with fog cards in this adventure");
    if (laid) {
        if (setup->creatures != OD_CREATURES)
            return fail(error, OD_ILLEGAL, "%d creatures laid, one per fog field: 14",
                        setup->creatures);
        for (int i = 0; i < setup->creatures; i++) {
            int f = setup->creature_field[i], v = setup->creature_value[i];
            char name[12];
            od_place_name(f, name);
            if (f >= OD_FIELDS || next.board.terrain[f] != OD_FOG || next.places[f].creature)
                return fail(error, OD_ILLEGAL, "creature on %s: one per fog field", name);
            if (adventure == OD_KING) {
                if (!creature_in_stack(&next, v))
                    return fail(error, OD_ILLEGAL, "creature on %s: a value left in the stack "
                                "(8, 10, 12, 14, 16; D-OL-1), not %d", name, v);
                next.creature_stack[v / 2 - 4]--;
                if (v == 8 && next.king == OD_NONE)
                    next.king = (int8_t)f; /* the first of value 8 turned up */
            } else if (v < 1 || v > 99) {
                return fail(error, OD_ILLEGAL, "creature on %s: a combat value 1 to 99", name);
            }
            next.places[f].creature = (uint8_t)v;
        }
    }
    if (adventure == OD_KING) {
        if (setup->cards)
            return fail(error, OD_ILLEGAL, "adventure 6 is played without terrain cards");
        for (int f = 0; f < OD_FIELDS; f++)
            switch (next.board.terrain[f]) {
            case OD_FOREST: next.places[f].item = OD_ITEM_HERB, next.herbs--; break;
            case OD_MOUNTAIN: next.places[f].item = OD_ITEM_SWORD, next.swords--; break;
            case OD_RIVER: next.places[f].item = OD_ITEM_GOLD, next.gold_stock--; break;
            case OD_CITY: next.places[f].waiting = 1, next.companions--; break;
            default: break;
            }
    } else {
        int fog = 0;
        for (int i = 0; i < setup->cards; i++) {
            if (i >= OD_SETUP_CARDS + fog)
                return fail(error, OD_ILLEGAL, "%d cards turned at the setup, only %d owed (8 "
                            "and one more per fog card)", i + 1, OD_SETUP_CARDS + fog);
            const od_step *card = &setup->card[i];
            if (card->kind != OD_STEP_CARD)
                return fail(error, OD_BAD_NOTATION, "the setup turns cards only");
            if (card->place >= 0 && card->place < OD_FIELDS &&
                next.board.terrain[card->place] == OD_FOG)
                fog++;
            od_status status = apply_card(&next, card, error);
            if (status != OD_OK)
                return status;
        }
        od_status status = check_card_count(&next, setup->cards, fog, OD_SETUP_CARDS, error);
        if (status != OD_OK)
            return status;
    }
    next.phase = OD_PHASE_TURN;
    next.active = 0;
    *state = next;
    return OD_OK;
}

od_status od_reveal_apply(od_state *state, const od_reveal *reveal, od_error *error)
{
    if (state->phase != OD_PHASE_REVEAL)
        return fail(error, OD_ILLEGAL, "herbs and swords are revealed when adventure 2 is over");
    int s = reveal->seat;
    if (s < 0 || s >= state->config.seats)
        return fail(error, OD_BAD_NOTATION, "reveal: which seat?");
    od_seat *seat = &state->seat[s];
    const char *colour = state->config.colours[s];
    if (seat->revealed)
        return fail(error, OD_ILLEGAL, "%s revealed already", colour);
    if (reveal->herbs != seat->herbs || reveal->swords != seat->swords)
        return fail(error, OD_ILLEGAL, "%s holds %d herbs and %d swords, not %d and %d", colour,
                    seat->herbs, seat->swords, reveal->herbs, reveal->swords);
    int value = 0;
    for (int i = 0; i < reveal->herbs; i++) {
        if (reveal->herb_values[i] < 2 || reveal->herb_values[i] > 4)
            return fail(error, OD_ILLEGAL, "an herb is worth 2 to 4, not %d",
                        reveal->herb_values[i]);
        value += reveal->herb_values[i];
    }
    for (int i = 0; i < reveal->swords; i++) {
        if (reveal->sword_values[i] > 3)
            return fail(error, OD_ILLEGAL, "a sword's extra value is 0 to 3, not %d",
                        reveal->sword_values[i]);
        value += reveal->sword_values[i];
    }
    seat->revealed = true;
    seat->revealed_value = (int16_t)value;
    if (!holds_values(state))
        state->phase = OD_PHASE_OVER;
    return OD_OK;
}

/* ---- scores ---- */

/* OL-ENGINE-4: points[rank] to each seat by count (more is better), ties sharing a rank and
 * the next rank skipped; seats with nothing are not ranked. */
static void rank_points(const od_state *state, const int *count, const int *points, int ranks,
                        int32_t *scores)
{
    for (int s = 0; s < state->config.seats; s++) {
        if (count[s] <= 0)
            continue;
        int better = 0;
        for (int o = 0; o < state->config.seats; o++)
            better += count[o] > count[s];
        if (better < ranks)
            scores[s] += points[better];
    }
}

static const int majority[3] = {7, 3, 1};

static void score_cities_escape(const od_state *state, int32_t *scores)
{
    int seats = state->config.seats;
    int creatures[OD_MAX_SEATS], gold[OD_MAX_SEATS];
    for (int s = 0; s < seats; s++) {
        scores[s] = state->seat[s].laurels + 2 * state->seat[s].gold;
        creatures[s] = state->seat[s].creatures;
        gold[s] = state->seat[s].gold;
    }
    rank_points(state, creatures, majority, 3, scores);
    rank_points(state, gold, majority, 3, scores);
    for (int c = 0; c < OD_CITIES; c++) {
        int in[OD_MAX_SEATS] = {0};
        for (int f = 0; f < OD_FIELDS; f++)
            if (state->board.city[f] == c)
                for (int s = 0; s < seats; s++)
                    in[s] += state->places[f].adventurers[s] + state->places[f].companions[s];
        int size = state->board.city_size[c];
        int points[3] = {size, size / 2, size / 2 / 2};
        rank_points(state, in, points, 3, scores);
    }
    int left = creatures_on_board(state);
    for (int s = 0; s < seats; s++) {
        int outside = 0;
        for (int p = 0; p < OD_PLACES; p++)
            if (p >= OD_FIELDS || state->board.city[p] == OD_NONE)
                outside += state->places[p].adventurers[s] + state->places[p].companions[s];
        scores[s] -= outside * left;
    }
}

static void score_king(const od_state *state, int32_t *scores)
{
    int seats = state->config.seats;
    int creatures[OD_MAX_SEATS], adventurers[OD_MAX_SEATS] = {0}, companions[OD_MAX_SEATS] = {0},
        gold[OD_MAX_SEATS] = {0};
    for (int s = 0; s < seats; s++) {
        scores[s] = state->seat[s].points;
        creatures[s] = state->seat[s].creatures;
        if (state->places[OD_FIELD(9, 10)].adventurers[s])
            scores[s] += 10;
    }
    for (int f = 0; f < OD_FIELDS; f++)
        if (in_city(state, f, OD_CAPITAL))
            for (int s = 0; s < seats; s++) {
                const od_place *p = &state->places[f];
                adventurers[s] += p->adventurers[s];
                companions[s] += p->companions[s] + 5 * p->supers[s];
                gold[s] += p->gold[s];
            }
    rank_points(state, creatures, majority, 3, scores);
    rank_points(state, adventurers, majority, 3, scores);
    rank_points(state, companions, majority, 3, scores);
    rank_points(state, gold, majority, 3, scores);
}

void od_scores(const od_state *state, int32_t *scores)
{
    int seats = state->config.seats;
    for (int s = 0; s < seats; s++) {
        const od_seat *seat = &state->seat[s];
        switch (state->config.adventure) {
        case OD_FELLOWSHIP:
            scores[s] = seat->points;
            break;
        case OD_MAGNIFICENT: {
            int largest = 0;
            for (int p = 0; p < OD_PLACES; p++) {
                int group = state->places[p].adventurers[s] + state->places[p].companions[s];
                if (state->places[p].adventurers[s] && group > largest)
                    largest = group;
            }
            scores[s] = 2 * seat->laurels + 3 * largest + 2 * seat->gold + seat->revealed_value;
            break;
        }
        case OD_PRINCESS:
            scores[s] = 4 * __builtin_popcount(seat->keys) + seat->laurels + seat->gold;
            break;
        case OD_UPRISING:
            scores[s] = state->end == OD_END_VICTORY ? state->deck : 0;
            break;
        default:
            break;
        }
    }
    if (state->config.adventure == OD_CITIES_ESCAPE)
        score_cities_escape(state, scores);
    else if (state->config.adventure == OD_KING)
        score_king(state, scores);
}

void od_ranks(const od_state *state, int32_t *ranks)
{
    int32_t scores[OD_MAX_SEATS];
    od_scores(state, scores);
    int32_t freed[OD_MAX_SEATS] = {0}; /* adventure 4: who freed the princess wins */
    if (state->winner != OD_NONE)
        freed[state->winner] = 1;
    if (state->config.adventure == OD_UPRISING) /* one team */
        for (int s = 0; s < state->config.seats; s++)
            scores[s] = 0;
    rules_rank(freed, scores, state->config.seats, ranks);
}

/* ---- consistency ---- */

bool od_verify(const od_state *state, char *message, size_t size)
{
    int seats = state->config.seats;
    int sprite = od_sprite_field(state);
    int companions = state->companions, swords = state->swords, herbs = state->herbs,
        gold = state->gold_stock, creatures = 0, turned = 0;
    for (int f = 0; f < OD_FIELDS; f++)
        turned += state->turned[f];
    for (int p = 0; p < OD_PLACES; p++) {
        const od_place *place = &state->places[p];
        char name[12];
        od_place_name(p, name);
        int terrain = p < OD_FIELDS ? state->board.terrain[p] : -1;
        for (int s = 0; s < OD_MAX_SEATS; s++) {
            if (s >= seats && (place->adventurers[s] || place->companions[s]))
                return snprintf(message, size, "%s: pieces of a seat not playing", name), false;
            if (!place->adventurers[s] &&
                (place->companions[s] || place->supers[s] || place->gold[s]))
                return snprintf(message, size, "%s: companions or gold without an adventurer",
                                name), false;
            companions += place->companions[s];
            gold += place->gold[s];
        }
        companions += place->waiting;
        if (adventurers_on(place) && (place->creature || place->waiting))
            return snprintf(message, size, "%s: an adventurer beside a creature or a waiting "
                            "companion", name), false;
        if (p == sprite && adventurers_on(place))
            return snprintf(message, size, "%s: an adventurer under the sprite", name), false;
        if (place->item) {
            int wants = place->item == OD_ITEM_HERB ? OD_FOREST
                        : place->item == OD_ITEM_SWORD ? OD_MOUNTAIN : OD_RIVER;
            if (terrain != wants)
                return snprintf(message, size, "%s: an item on the wrong terrain", name), false;
            swords += place->item == OD_ITEM_SWORD;
            herbs += place->item == OD_ITEM_HERB;
            gold += place->item == OD_ITEM_GOLD;
        }
        if (place->waiting && terrain != OD_CITY)
            return snprintf(message, size, "%s: a companion waits outside a city", name), false;
        if (place->creature) {
            creatures++;
            if (terrain != OD_FOG && state->config.adventure != OD_UPRISING)
                return snprintf(message, size, "%s: a creature off the fog", name), false;
        }
    }
    for (int s = 0; s < seats; s++) {
        swords += state->seat[s].swords;
        herbs += state->seat[s].herbs;
        gold += state->seat[s].gold;
        creatures += state->seat[s].creatures;
        if (od_adventurers_left(state, s) > (seats == 2 ? 10 : 8))
            return snprintf(message, size, "%s has too many adventurers",
                            state->config.colours[s]), false;
    }
    if (state->config.adventure != OD_UPRISING)
        for (int l = 0; l < 5; l++)
            creatures += state->creature_stack[l];
    if (companions > 30 || swords > 28 || herbs > 20 || gold > 18 || creatures > OD_CREATURES)
        return snprintf(message, size, "more pieces than the box holds (companions %d, swords %d, "
                        "herbs %d, gold %d, creatures %d)", companions, swords, herbs, gold,
                        creatures), false;
    if (state->config.adventure != OD_KING &&
        turned + state->deck != OD_FIELDS - (state->config.adventure == OD_PRINCESS))
        return snprintf(message, size, "%d cards turned and %d in the deck", turned, state->deck),
               false;
    return true;
}
