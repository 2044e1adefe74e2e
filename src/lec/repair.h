/* SPDX-License-Identifier: MIT */
#ifndef FORS_LEC_REPAIR_H
#define FORS_LEC_REPAIR_H

#include "lec/state.h"

/*
 * Colour the edges in order[], each with its hint[] colour when that is
 * listed and free (hint may be NULL), else its first free colour.
 */
void lec_greedy(struct state *s, const int *order, const int *hint);

/*
 * Tabu moves until every edge is coloured or the moves are spent, keeping
 * the best colouring: 1 when every edge is coloured.
 */
int lec_tabu_search(struct state *s, long moves);

#endif
