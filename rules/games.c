#include "rules.h"
#include "rules_internal.h"
#include "expedition_luxor.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

_Static_assert(RULES_COLOUR_LENGTH == RULES_COLOUR_MAX && RULES_COLOUR_LENGTH == EL_COLOUR_MAX &&
                   RULES_COLOUR_LENGTH == LX_COLOUR_MAX && RULES_COLOUR_LENGTH == EX_COLOUR_MAX &&
                   RULES_COLOUR_LENGTH == OD_COLOUR_MAX,
               "one colour size for every engine");

bool rules_colours_valid(const char (*colours)[RULES_COLOUR_LENGTH], int seats, char *message,
                         size_t size)
{
    for (int i = 0; i < seats; i++) {
        if (!memchr(colours[i], '\0', RULES_COLOUR_LENGTH) || !colours[i][0]) {
            snprintf(message, size, "seat %d needs a colour (up to %d letters)", i,
                     RULES_COLOUR_LENGTH - 1);
            return false;
        }
        for (const char *c = colours[i]; *c; c++)
            if (!(*c >= 'a' && *c <= 'z') && *c != '-') {
                snprintf(message, size, "colour '%s': lower-case letters and '-' only", colours[i]);
                return false;
            }
        for (int j = 0; j < i; j++)
            if (strcmp(colours[i], colours[j]) == 0) {
                snprintf(message, size, "two seats are %s", colours[i]);
                return false;
            }
    }
    return true;
}

_Static_assert(offsetof(el_error, message) == 0 && offsetof(lx_error, message) == 0 &&
                   offsetof(ex_error, message) == 0 && offsetof(od_error, message) == 0,
               "rules_fail writes an engine's error through its first member");

int rules_fail(void *error, size_t size, int status, const char *format, ...)
{
    if (error) {
        va_list args;
        va_start(args, format);
        vsnprintf(error, size, format, args); /* the message is the error's first member */
        va_end(args);
    }
    return status;
}

bool rules_seats_valid(const char *title, int min, int max, int seats,
                       const char (*colours)[RULES_COLOUR_LENGTH], char *message, size_t size)
{
    if (seats < min || seats > max) {
        snprintf(message, size, "%s is played by %d to %d, not %d", title, min, max, seats);
        return false;
    }
    return rules_colours_valid(colours, seats, message, size);
}

void rules_rank(const int32_t *scores, const int32_t *tiebreak, int seats, int32_t *ranks)
{
    for (int s = 0; s < seats; s++) {
        ranks[s] = 1;
        for (int o = 0; o < seats; o++)
            if (scores[o] > scores[s] ||
                (tiebreak && scores[o] == scores[s] && tiebreak[o] > tiebreak[s]))
                ranks[s]++;
    }
}

void rules_colours_default(char (*colours)[RULES_COLOUR_LENGTH], const char *const *names,
                           int count)
{
    for (int i = 0; i < count; i++)
        snprintf(colours[i], RULES_COLOUR_LENGTH, "%s", names[i]);
}

extern const rules_engine el_engine;
extern const rules_engine lx_engine;
extern const rules_engine ex_engine;
extern const rules_engine od_engine;

static const rules_flag flags[] = {
    {RULES_FLAG_EXPANSION, "expansion", "expansion"},
    {RULES_FLAG_CHECK_DECK, "check-deck", "check_deck"},
    {RULES_FLAG_CURSE, "curse", "curse"},
    {RULES_FLAG_SPHINX, "sphinx", "sphinx"},
    {RULES_FLAG_TILE_PAIRS, "tile-pairs", "tile_pairs"},
    {RULES_FLAG_COLOSSAL, "colossal", "colossal"},
};

const char *rules_answer_name(rules_answer answer)
{
    static const char *const words[] = {
#define RULES_ANSWER_WORD(name, word) word,
        RULES_ANSWER_TABLE(RULES_ANSWER_WORD)
#undef RULES_ANSWER_WORD
    };
    return (unsigned)answer < sizeof words / sizeof words[0] ? words[answer] : "?";
}

const rules_flag *rules_flags(size_t *count)
{
    *count = sizeof flags / sizeof flags[0];
    return flags;
}

/* Ids and player counts from ../shared/RULES.md; the titles are the boxes' own. */
static const rules_game games[] = {
    {EL_GAME_ID, "Expedition Luxor", 2, 4, RULES_FLAG_EXPANSION | RULES_FLAG_CHECK_DECK,
     0, &el_engine},
    {LX_GAME_ID, "Luxor", 2, 4, RULES_FLAG_CURSE | RULES_FLAG_SPHINX | RULES_FLAG_TILE_PAIRS,
     0, &lx_engine},
    {EX_GAME_ID, "Expéditions – Autour du Monde", 2, 6, 0, 0, &ex_engine},
    {OD_GAME_ID, "Odyssée-land", 2, 4, RULES_FLAG_COLOSSAL, 6, &od_engine},
};

const rules_game *rules_games(size_t *count)
{
    *count = sizeof games / sizeof games[0];
    return games;
}

const rules_game *rules_game_find(const char *id)
{
    for (size_t i = 0; i < sizeof games / sizeof games[0]; i++)
        if (strcmp(games[i].id, id) == 0)
            return &games[i];
    return NULL;
}
