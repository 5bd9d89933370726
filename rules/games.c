#include "rules.h"

#include <string.h>

extern const rules_engine el_engine;

/* Ids and player counts from ../shared/RULES.md; the titles are the boxes' own. */
static const rules_game games[] = {
    {"expedition-luxor", "Expedition Luxor", 2, 4, RULES_FLAG_EXPANSION | RULES_FLAG_CHECK_DECK,
     &el_engine},
    {"luxor", "Luxor", 2, 4, 0, NULL},
    {"expeditions", "Expéditions – Autour du Monde", 2, 6, 0, NULL},
    {"odysseeland", "Odyssée-land", 2, 4, 0, NULL},
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
