/* What the Expéditions engine's files share and nobody else needs. */
#ifndef TS_EXPEDITIONS_INTERNAL_H
#define TS_EXPEDITIONS_INTERNAL_H

#include "expeditions.h"
#include "rules_internal.h"

/* Writes the reason into error (when not NULL) and returns status: the engine's one way to
 * refuse. */
#define ex_fail(error, status, ...)                                                           \
    ((ex_status)rules_fail((error), sizeof (error)->message, status, \
                           __VA_ARGS__))

/* The nodes an arrow goes from and to. */
int ex_arrow_from(const ex_board *board, ex_arrow arrow);
int ex_arrow_to(const ex_board *board, ex_arrow arrow);

/* The id of a node's (first) circle, and of a card's place. */
const char *ex_node_id(const ex_board *board, int node);
const char *ex_card_id(const ex_board *board, int card);

/* Recomputes a trail's visited circles, used segments and loop flag from its arrows. */
void ex_trail_rebuild(const ex_board *board, ex_trail *trail);

bool ex_visited(const ex_state *state, int expedition, int node);
bool ex_segment_used(const ex_state *state, int expedition, int segment);

/* Every arrow the expedition may take now (from its tip, or from any visited circle after a
 * loop), as steps of this kind, whatever the turn allows. Writes at most max; returns how many
 * there are in all. */
size_t ex_free_arrows(const ex_state *state, int expedition, uint8_t kind, ex_step *steps,
                      size_t max);

#endif
