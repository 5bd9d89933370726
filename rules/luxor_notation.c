/*
 * The Luxor notation: one action per line, readable at the table, relied on by scripts.
 *
 *   pillars camel mule snake hippo ibis crocodile cat    the pillars, left to right (first)
 *   drop 3 camel< mule>, camel+, mule                     slot 3 (1-8 from the left): a camel
 *                                                         looking left over a mule looking
 *                                                         right; its pairs in the order resolved,
 *                                                         `+` placing an archaeologist
 *   drop 5 snake> hippo<, snake+camel                     ... moving the own one from camel
 *   curse camel mule snake, red gives hippo 1-eye to blue a curse round (curse variant)
 *   scarabs camel to snake, hippo to snake | scarabs none the end-game moves of the seat to play
 *   value camel 2-eye 6                                   a sarcophagus's value, once known
 *   pharaoh red camel                                     a seat's pharaoh card
 *
 * `#` starts a comment; an optional `colour: ` prefix on drop and scarabs lines must name the
 * seat to play.
 */
#include "luxor_internal.h"
#include "rules_internal.h"
#include "rules_text.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define MAX_CLAUSES (LX_MAX_PAIRS + 2)
#define MAX_LINE 512

typedef rules_word word;
typedef rules_clause clause;

/* every refusal of the parser is bad notation */
#define fail(error, ...)                                                                      \
    ((lx_status)rules_fail((error), sizeof (error)->message,         \
                           LX_BAD_NOTATION, __VA_ARGS__))

static bool is(const word *w, const char *text)
{
    return rules_word_is(w, text);
}

static int animal(const word *w)
{
    return lx_animal_of(w->text, w->length);
}

/* "camel<" or "camel>": the animal looks left or right. 0 when it is neither. */
static uint8_t window_of(const word *w)
{
    if (w->length < 2)
        return 0;
    char last = w->text[w->length - 1];
    int a = lx_animal_of(w->text, w->length - 1);
    if (a < 0 || (last != '<' && last != '>'))
        return 0;
    return LX_WINDOW(a, last == '<' ? LX_LEFT : LX_RIGHT);
}

static bool small_number(const word *w, int *value)
{
    if (w->length == 0 || w->length > 2)
        return false;
    int v = 0;
    for (size_t i = 0; i < w->length; i++) {
        if (w->text[i] < '0' || w->text[i] > '9')
            return false;
        v = 10 * v + (w->text[i] - '0');
    }
    *value = v;
    return true;
}

/* "2-eye" */
static bool eyes_of(const word *w, int *eyes)
{
    if (w->length != 5 || memcmp(w->text + 1, "-eye", 4) != 0 || w->text[0] < '1' ||
        w->text[0] > '3')
        return false;
    *eyes = w->text[0] - '0';
    return true;
}

static int seat_of(const lx_state *state, const word *w)
{
    for (int i = 0; i < state->config.seats; i++)
        if (is(w, state->config.colours[i]))
            return i;
    return -1;
}

static lx_status parse_pillars(const clause *c, int clauses, lx_line *line, lx_error *error)
{
    if (clauses != 1 || c->count != 1 + LX_ANIMALS)
        return fail(error, "pillars names the %d animals, left to right", LX_ANIMALS);
    for (int i = 0; i < LX_ANIMALS; i++) {
        int a = animal(&c->words[1 + i]);
        if (a < 0)
            return fail(error, "'%.*s' is not an animal", (int)c->words[1 + i].length,
                        c->words[1 + i].text);
        line->pillars[i] = (uint8_t)a;
    }
    line->kind = LX_LINE_PILLARS;
    return LX_OK;
}

static lx_status parse_drop(const clause *clauses, int count, lx_move *move, lx_error *error)
{
    const clause *c = &clauses[0];
    int slot;
    if (c->count != 4 || !small_number(&c->words[1], &slot) || slot < 1 || slot > LX_SLOTS)
        return fail(error, "a drop is `drop SLOT TOP BOTTOM`, SLOT 1 to %d", LX_SLOTS);
    move->kind = LX_MOVE_DROP;
    move->slot = (uint8_t)(slot - 1);
    move->top = window_of(&c->words[2]);
    move->bottom = window_of(&c->words[3]);
    if (!move->top || !move->bottom)
        return fail(error, "an animal and where it looks, such as camel< or mule>");
    if (count - 1 > LX_MAX_PAIRS)
        return fail(error, "more pairs than one drop can make");
    for (int i = 1; i < count; i++) {
        const clause *r = &clauses[i];
        if (r->count != 1)
            return fail(error, "each pair is one word: camel, camel+ or camel+snake");
        const word *w = &r->words[0];
        const char *plus = memchr(w->text, '+', w->length);
        lx_resolution *res = &move->resolutions[move->count++];
        size_t name = plus ? (size_t)(plus - w->text) : w->length;
        int a = lx_animal_of(w->text, name);
        if (a < 0)
            return fail(error, "'%.*s' is not an animal", (int)name, w->text);
        res->animal = (uint8_t)a;
        res->place = LX_PLACE_NONE;
        if (plus) {
            size_t rest = w->length - name - 1;
            res->place = rest ? LX_PLACE_MOVED : LX_PLACE_HAND;
            if (rest) {
                int from = lx_animal_of(plus + 1, rest);
                if (from < 0)
                    return fail(error, "'%.*s' is not an animal", (int)rest, plus + 1);
                res->from = (uint8_t)from;
            }
        }
    }
    return LX_OK;
}

static lx_status parse_scarabs(const clause *clauses, int count, lx_move *move, lx_error *error)
{
    move->kind = LX_MOVE_SCARABS;
    if (count == 1 && clauses[0].count == 2 && is(&clauses[0].words[1], "none"))
        return LX_OK;
    if (count > LX_MAX_SCARAB_MOVES)
        return fail(error, "at most %d scarab moves on a line", LX_MAX_SCARAB_MOVES);
    for (int i = 0; i < count; i++) {
        const clause *c = &clauses[i];
        const word *w = c->words + (i == 0); /* the first clause starts with `scarabs` */
        int words = c->count - (i == 0);
        int from, to;
        if (words != 3 || !is(&w[1], "to") || (from = animal(&w[0])) < 0 ||
            (to = animal(&w[2])) < 0)
            return fail(error, "scarab moves are `scarabs camel to snake, ...` or `scarabs none`");
        move->from[move->count] = (uint8_t)from;
        move->to[move->count++] = (uint8_t)to;
    }
    return LX_OK;
}

static lx_status parse_curse(const lx_state *state, const clause *clauses, int count,
                             lx_move *move, lx_error *error)
{
    const clause *c = &clauses[0];
    if (c->count != 4 || count > 2)
        return fail(error, "a curse round is `curse A B C` and maybe `, red gives hippo 1-eye "
                           "to blue`");
    move->kind = LX_MOVE_CURSE;
    for (int i = 0; i < 3; i++) {
        int a = animal(&c->words[1 + i]);
        if (a < 0)
            return fail(error, "'%.*s' is not an animal", (int)c->words[1 + i].length,
                        c->words[1 + i].text);
        move->curse[i] = (uint8_t)a;
    }
    move->giver = move->finder = LX_NOBODY;
    if (count == 1)
        return LX_OK;
    const clause *g = &clauses[1];
    int eyes, a, giver, finder;
    if (g->count != 6 || !is(&g->words[1], "gives") || !is(&g->words[4], "to") ||
        (a = animal(&g->words[2])) < 0 || !eyes_of(&g->words[3], &eyes))
        return fail(error, "the exchange is `red gives hippo 1-eye to blue`");
    if ((giver = seat_of(state, &g->words[0])) < 0 || (finder = seat_of(state, &g->words[5])) < 0)
        return fail(error, "the exchange names two colours of this game");
    move->giver = (int8_t)giver;
    move->finder = (int8_t)finder;
    move->animal = (uint8_t)a;
    move->eyes = (uint8_t)eyes;
    return LX_OK;
}

lx_status lx_parse(const lx_state *state, const char *text, lx_line *line, lx_error *error)
{
    memset(line, 0, sizeof *line);
    line->seat = -1;
    rules_text read;
    if (!rules_text_read(text, MAX_LINE - 1, &read))
        return fail(error, "line too long");
    const char *body = read.body;
    if (read.prefix.length && (line->seat = (int8_t)seat_of(state, &read.prefix)) < 0)
        return fail(error, "'%.*s' is not a colour of this game", (int)read.prefix.length,
                    read.prefix.text);
    if (!*body && !read.prefix.length) {
        line->kind = LX_LINE_EMPTY;
        return LX_OK;
    }
    clause clauses[MAX_CLAUSES];
    int count = rules_split(body, clauses, MAX_CLAUSES);
    if (count < 0)
        return fail(error, "too many words");
    if (clauses[0].count == 0)
        return fail(error, "an action is missing");
    for (int i = 1; i < count; i++)
        if (clauses[i].count == 0)
            return fail(error, "an empty item between commas");
    const word *verb = &clauses[0].words[0];
    lx_move *move = &line->move;
    line->kind = LX_LINE_MOVE;
    bool turn_action = is(verb, "drop") || is(verb, "scarabs");
    if (line->seat >= 0 && !turn_action)
        return fail(error, "a colour prefix goes only before drop and scarabs");
    if (is(verb, "pillars"))
        return parse_pillars(&clauses[0], count, line, error);
    if (is(verb, "drop"))
        return parse_drop(clauses, count, move, error);
    if (is(verb, "scarabs"))
        return parse_scarabs(clauses, count, move, error);
    if (is(verb, "curse"))
        return parse_curse(state, clauses, count, move, error);
    if (is(verb, "value")) {
        const clause *c = &clauses[0];
        int a, eyes, value;
        if (count != 1 || c->count != 4 || (a = animal(&c->words[1])) < 0 ||
            !eyes_of(&c->words[2], &eyes) || !small_number(&c->words[3], &value))
            return fail(error, "a value is `value camel 2-eye 6`");
        move->kind = LX_MOVE_VALUE;
        move->animal = (uint8_t)a;
        move->eyes = (uint8_t)eyes;
        move->value = (uint8_t)value;
        return LX_OK;
    }
    if (is(verb, "pharaoh")) {
        const clause *c = &clauses[0];
        int seat, a;
        if (count != 1 || c->count != 3 || (a = animal(&c->words[2])) < 0)
            return fail(error, "a pharaoh card is `pharaoh red camel`");
        if ((seat = seat_of(state, &c->words[1])) < 0)
            return fail(error, "'%.*s' is not a colour of this game", (int)c->words[1].length,
                        c->words[1].text);
        move->kind = LX_MOVE_PHARAOH;
        move->seat = (int8_t)seat;
        move->animal = (uint8_t)a;
        return LX_OK;
    }
    return fail(error, "'%.*s' is not an action (pillars, drop, curse, scarabs, value, pharaoh)",
                (int)verb->length, verb->text);
}

lx_status lx_play_line(lx_state *state, const char *text, lx_line *played, lx_error *error)
{
    lx_line line;
    lx_error reason;
    /* the action as written, for the message */
    char action[64];
    size_t length = strcspn(text, "#\r\n");
    while (length && (text[length - 1] == ' ' || text[length - 1] == '\t'))
        length--;
    size_t skip = strspn(text, " \t");
    snprintf(action, sizeof action, "%.*s", (int)(length > skip ? length - skip : 0), text + skip);

    lx_status status = lx_parse(state, text, &line, &reason);
    if (status == LX_OK && line.kind == LX_LINE_PILLARS)
        status = lx_set_pillars(state, line.pillars, &reason);
    else if (status == LX_OK && line.kind == LX_LINE_MOVE) {
        if (line.seat >= 0 && line.seat != state->active) {
            fail(&reason, "it is %.15s's turn, not %.15s's", state->config.colours[state->active],
                 state->config.colours[line.seat]);
            status = LX_ILLEGAL;
        } else {
            status = lx_apply(state, &line.move, &reason);
        }
    }
    if (status != LX_OK) {
        if (error)
            snprintf(error->message, sizeof error->message, "%.60s: %.190s", action, reason.message);
        return status;
    }
    if (played)
        *played = line;
    return LX_OK;
}

/* ---- formatting ---- */

typedef rules_writer writer;

static void put(writer *w, const char *text)
{
    rules_put(w, text);
}

static void put_window(writer *w, uint8_t window)
{
    put(w, lx_animal_name(LX_WINDOW_ANIMAL(window)));
    put(w, LX_WINDOW_FACING(window) == LX_LEFT ? "<" : ">");
}

static void put_eyes(writer *w, int eyes)
{
    static const char *const names[] = {"", " 1-eye", " 2-eye", " 3-eye"};
    put(w, names[eyes]);
}

static void put_number(writer *w, int n)
{
    rules_put_number(w, n);
}

int lx_format_move(const lx_state *state, const lx_move *move, char *out, size_t size)
{
    writer w;
    rules_writer_start(&w, out, size);
    switch (move->kind) {
    case LX_MOVE_DROP:
        put(&w, "drop ");
        put_number(&w, move->slot + 1);
        put(&w, " ");
        put_window(&w, move->top);
        put(&w, " ");
        put_window(&w, move->bottom);
        for (int i = 0; i < move->count; i++) {
            const lx_resolution *r = &move->resolutions[i];
            put(&w, ", ");
            put(&w, lx_animal_name(r->animal));
            if (r->place != LX_PLACE_NONE)
                put(&w, "+");
            if (r->place == LX_PLACE_MOVED)
                put(&w, lx_animal_name(r->from));
        }
        break;
    case LX_MOVE_SCARABS:
        put(&w, "scarabs");
        if (move->count == 0)
            put(&w, " none");
        for (int i = 0; i < move->count; i++) {
            put(&w, i ? ", " : " ");
            put(&w, lx_animal_name(move->from[i]));
            put(&w, " to ");
            put(&w, lx_animal_name(move->to[i]));
        }
        break;
    case LX_MOVE_VALUE:
        put(&w, "value ");
        put(&w, lx_animal_name(move->animal));
        put_eyes(&w, move->eyes);
        put(&w, " ");
        put_number(&w, move->value);
        break;
    case LX_MOVE_PHARAOH:
        put(&w, "pharaoh ");
        put(&w, state->config.colours[move->seat]);
        put(&w, " ");
        put(&w, lx_animal_name(move->animal));
        break;
    case LX_MOVE_CURSE:
        put(&w, "curse");
        for (int i = 0; i < 3; i++) {
            put(&w, " ");
            put(&w, lx_animal_name(move->curse[i]));
        }
        if (move->giver != LX_NOBODY) {
            put(&w, ", ");
            put(&w, state->config.colours[move->giver]);
            put(&w, " gives ");
            put(&w, lx_animal_name(move->animal));
            put_eyes(&w, move->eyes);
            put(&w, " to ");
            put(&w, state->config.colours[move->finder]);
        }
        break;
    }
    return (int)w.length;
}

int lx_format_pillars(const lx_state *state, char *out, size_t size)
{
    writer w;
    rules_writer_start(&w, out, size);
    put(&w, "pillars");
    for (int i = 0; i < LX_ANIMALS; i++) {
        put(&w, " ");
        put(&w, lx_animal_name(state->pillar_order[i]));
    }
    return (int)w.length;
}
