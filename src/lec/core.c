// SPDX-License-Identifier: MIT
/*
 * The core: the edges at the vertices where the repair left edges
 * uncoloured, a smaller instance whose infeasibility proves the whole's.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lec/core.h"
#include "lec/lec.h"

/* A problem that owns its arrays: the core. */
struct subproblem {
	struct lec_problem p;
	int *left, *right, *lstart, *list, *colour;
};

static void subproblem_free(struct subproblem *u)
{
	free(u->left);
	free(u->right);
	free(u->lstart);
	free(u->list);
	free(u->colour);
}

/* The edges at the endpoints of the best colouring's uncoloured edges. */
static int core(const struct state *s, struct subproblem *u)
{
	const struct lec_problem *p = s->p;
	uint8_t *inl = calloc(p->nleft + 1, 1), *inr = calloc(p->nright + 1, 1);
	int e, k, n = 0, len = 0, r = -1;

	memset(u, 0, sizeof(*u));
	u->left = malloc(sizeof(int) * (p->nedges + 1));
	u->right = malloc(sizeof(int) * (p->nedges + 1));
	u->lstart = malloc(sizeof(int) * (p->nedges + 1));
	u->colour = malloc(sizeof(int) * (p->nedges + 1));
	u->list = malloc(sizeof(int) * (p->lstart[p->nedges] + 1));
	if (!inl || !inr || !u->left || !u->right || !u->lstart ||
	    !u->colour || !u->list)
		goto out;
	for (e = 0; e < p->nedges; e++)
		if (s->best[e] < 0)
			inl[p->left[e]] = inr[p->right[e]] = 1;
	for (e = 0; e < p->nedges; e++) {
		if (!inl[p->left[e]] && !inr[p->right[e]])
			continue;
		u->left[n] = p->left[e];
		u->right[n] = p->right[e];
		u->colour[n] = -1;
		u->lstart[n++] = len;
		for (k = p->lstart[e]; k < p->lstart[e + 1]; k++)
			u->list[len++] = p->list[k];
	}
	u->lstart[n] = len;
	u->p = (struct lec_problem){ p->nleft, p->nright, p->ncolours, n,
				     u->left, u->right, u->lstart, u->list };
	r = n < p->nedges;
out:
	free(inl);
	free(inr);
	return r;
}

/*
 * Refute the core instead of the whole: where the edges around the
 * conflict admit no colouring, the graph admits none, and the exact search
 * decides a small core far sooner than the whole graph. 1 refuted, 0 not.
 */
int lec_core_refuted(const struct state *s, long nodes)
{
	struct lec_budget b = { .restarts = -1, .exact_nodes = nodes,
				.seed = 1 };
	struct subproblem u;
	int r = core(s, &u);

	if (r == 1)
		r = lec_solve(&u.p, u.colour, &b);
	subproblem_free(&u);
	if (r == LEC_NOMEM || r < 0)
		return -1;
	return r == LEC_INFEASIBLE;
}
