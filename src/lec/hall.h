/* SPDX-License-Identifier: MIT */
#ifndef FORS_LEC_HALL_H
#define FORS_LEC_HALL_H

#include "lec/lec.h"

/*
 * ls/le and rs/re below are the incidence lists (CSR) of the left and the
 * right vertices: vertex v's edges are le[ls[v]] .. le[ls[v + 1] - 1].
 */

/*
 * 0 when an edge has an empty list or a vertex's edges cannot all get
 * distinct colours from their lists (no colouring exists), else 1; -1 out
 * of memory.
 */
int lec_prechecks(const struct lec_problem *p, const int *ls,
		  const int *le, const int *rs, const int *re);

/*
 * 0 when the colour classes cannot together cover all edges, or one cannot
 * cover a vertex that needs its colour (no colouring exists), else 1; -1
 * out of memory.
 */
int lec_colour_capacity(const struct lec_problem *p, const int *ls,
			const int *le, const int *rs, const int *re);

#endif
