/* SPDX-License-Identifier: MIT */
#ifndef FORS_LEC_EXACT_H
#define FORS_LEC_EXACT_H

#include "lec/state.h"

/*
 * Colour s->p from scratch in at most budget nodes, trying the colours
 * s->guide prefers first when it is set; ls/le and rs/re are the incidence
 * lists of the left and right vertices. LEC_SOLVED with the colouring in
 * s, LEC_INFEASIBLE proven, LEC_UNKNOWN budget spent, or LEC_NOMEM.
 */
int lec_exact_search(struct state *s, long budget, const int *ls,
		     const int *le, const int *rs, const int *re);

#endif
