#include "rules.h"

#include <string.h>

/* Ids and player counts from ../shared/RULES.md; the titles are the boxes' own. */
static const rules_game games[] = {
    {"expedition-luxor", "Expedition Luxor", 2, 4, NULL},
    {"luxor", "Luxor", 2, 4, NULL},
    {"expeditions", "Expéditions – Autour du Monde", 2, 6, NULL},
    {"odysseeland", "Odyssée-land", 2, 4, NULL},
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
