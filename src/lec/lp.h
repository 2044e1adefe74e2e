/* SPDX-License-Identifier: MIT */
#ifndef FORS_LEC_LP_H
#define FORS_LEC_LP_H

#include "lec/lec.h"

/*
 * Look for a Farkas certificate, in at most rounds rounds, that p has no
 * colouring; ls and rs are the left and right incidence offsets (for the
 * degrees). 1 refuted; 0 not, with guide[] (zeroed by the caller, one per
 * list entry) counting the rounds each entry was its edge's cheapest; -1
 * out of memory.
 */
int lec_lp_refuted(const struct lec_problem *p, long rounds,
		   const int *ls, const int *rs, int *guide);

#endif
