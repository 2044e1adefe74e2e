// SPDX-License-Identifier: MIT
/*
 * The solver's partial colouring: its arrays, allocated once per solve and
 * cleared before every greedy start and every exact search.
 */
#include <stdlib.h>
#include <string.h>

#include "lec/state.h"

int lec_state_init(struct state *s, const struct lec_problem *p, int *colour)
{
	size_t n = p->nedges ? p->nedges : 1;

	*s = (struct state){ .p = p, .colour = colour, .nbest = p->nedges + 1 };
	s->atl = malloc(sizeof(int) * ((size_t)p->nleft * p->ncolours + 1));
	s->atr = malloc(sizeof(int) * ((size_t)p->nright * p->ncolours + 1));
	s->unc = malloc(sizeof(int) * n);
	s->upos = malloc(sizeof(int) * n);
	s->tabu = malloc(sizeof(long) * ((size_t)p->lstart[p->nedges] + 1));
	s->best = malloc(sizeof(int) * n);
	s->path = malloc(sizeof(int) * n);
	if (s->atl && s->atr && s->unc && s->upos && s->tabu && s->best &&
	    s->path)
		return 0;
	lec_state_free(s);
	return -1;
}

void lec_state_free(struct state *s)
{
	free(s->atl);
	free(s->atr);
	free(s->unc);
	free(s->upos);
	free(s->tabu);
	free(s->best);
	free(s->path);
}

void lec_reset(struct state *s)
{
	const struct lec_problem *p = s->p;
	int e;

	memset(s->atl, 0xff, sizeof(int) * p->nleft * p->ncolours);
	memset(s->atr, 0xff, sizeof(int) * p->nright * p->ncolours);
	for (e = 0; e < p->nedges; e++) {
		s->colour[e] = -1;
		s->unc[e] = e;
		s->upos[e] = e;
	}
	s->nunc = p->nedges;
	memset(s->tabu, 0, sizeof(long) * p->lstart[p->nedges]);
}
