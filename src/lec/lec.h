/* SPDX-License-Identifier: MIT */
#ifndef FORS_LEC_H
#define FORS_LEC_H

#include <stdint.h>

/*
 * List edge colouring of a bipartite multigraph: give every edge a colour
 * from its own list so that no two edges at one vertex share a colour.
 * The intra-leaf schedule (colours are phases) and the spine assignment
 * (colours are planes) are both this problem.
 */
struct lec_problem {
	int nleft;
	int nright;
	int ncolours;
	int nedges;
	const int *left;	/* [nedges], 0 .. nleft-1 */
	const int *right;	/* [nedges], 0 .. nright-1 */
	const int *lstart;	/* [nedges + 1] offsets into list */
	const int *list;	/* colours of each edge, strictly ascending */
};

enum lec_result {
	LEC_SOLVED = 0,
	LEC_INFEASIBLE = 1,	/* proven: no colouring exists */
	LEC_UNKNOWN = 2,	/* budget spent without an answer */
	LEC_NOMEM = -1,
};

struct lec_budget {
	long repair_moves;	/* tabu repair moves per attempt */
	int restarts;		/* repair attempts with fresh seeds */
	long exact_nodes;	/* nodes of the exact search; 0 skips it */
	uint64_t seed;
	long lp_rounds;		/* rounds of the LP refutation; 0 skips it */
	int hints_first;	/* 1: the hinted greedy alone first, for
				   callers whose hints colour most instances */
};

/*
 * Budget for phase-sized instances (hundreds of edges, tens of colours):
 * the spine assignment's. Wide lists want another (see intra.c).
 */
extern const struct lec_budget lec_default_budget;

/*
 * Solve p. colour[e] may hold a hint (a previous solution, -1 for none).
 * On LEC_SOLVED it holds a proper colouring; on LEC_INFEASIBLE and
 * LEC_UNKNOWN the largest proper partial colouring found (-1 for the
 * uncoloured edges), so a caller can split the rest off. Deterministic for
 * one seed.
 */
int lec_solve(const struct lec_problem *p, int *colour,
	      const struct lec_budget *b);

/* 1 when colour[] is a proper list colouring of p, else 0. */
int lec_is_proper(const struct lec_problem *p, const int *colour);

#endif
