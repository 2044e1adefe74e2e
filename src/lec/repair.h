/* SPDX-License-Identifier: MIT */
#ifndef FORS_LEC_REPAIR_H
#define FORS_LEC_REPAIR_H

#include "lec/state.h"

/*
 * Colour the edges in order[], each with its hint[] colour when that is
 * listed and free (hint may be NULL), else its first free colour.
 */
void lec_greedy(struct state *s, const int *order, const int *hint);

/* Tabu moves until all edges are coloured or moves are spent: 1 if all. */
int lec_tabu_search(struct state *s, long moves);

#endif
