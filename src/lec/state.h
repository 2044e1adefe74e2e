/* SPDX-License-Identifier: MIT */
#ifndef FORS_LEC_STATE_H
#define FORS_LEC_STATE_H

#include <stdint.h>
#include <string.h>

#include "lec/lec.h"

/*
 * A partial colouring that the repair and the exact search change one edge
 * at a time: who holds each colour at each vertex, the uncoloured edges,
 * and the best colouring seen. Private to src/lec/.
 */
struct state {
	const struct lec_problem *p;
	int *colour;
	int *atl;		/* [nleft * ncolours]: edge holding colour */
	int *atr;		/* [nright * ncolours] */
	int *unc;		/* uncoloured edges */
	int *upos;		/* position of an edge in unc, -1 if coloured */
	int nunc;
	long *tabu;		/* per list entry: move forbidden until */
	uint64_t rng;
	int *best;		/* the colouring with the fewest uncoloured */
	int *path;		/* scratch for alternating paths */
	int nbest;
	const int *guide;	/* per list entry: the LP's preference, or NULL */
};

/* The next pseudo-random number of the state's generator. */
static inline uint32_t rnd(struct state *s)
{
	/* xorshift64*: deterministic and good enough to break ties */
	s->rng ^= s->rng >> 12;
	s->rng ^= s->rng << 25;
	s->rng ^= s->rng >> 27;
	return (uint32_t)((s->rng * 0x2545f4914f6cdd1dull) >> 32);
}

/* The slot for colour c at the left end of e: the edge holding it or -1. */
static inline int *atl(struct state *s, int e, int c)
{
	return &s->atl[(size_t)s->p->left[e] * s->p->ncolours + c];
}

/* The slot for colour c at the right end of e. */
static inline int *atr(struct state *s, int e, int c)
{
	return &s->atr[(size_t)s->p->right[e] * s->p->ncolours + c];
}

/* Colour the uncoloured edge e with c, which must be free at both ends. */
static inline void assign(struct state *s, int e, int c)
{
	int last = s->unc[--s->nunc];

	s->unc[s->upos[e]] = last;
	s->upos[last] = s->upos[e];
	s->upos[e] = -1;
	s->colour[e] = c;
	*atl(s, e, c) = e;
	*atr(s, e, c) = e;
}

/* Uncolour the coloured edge e. */
static inline void unassign(struct state *s, int e)
{
	int c = s->colour[e];

	*atl(s, e, c) = -1;
	*atr(s, e, c) = -1;
	s->colour[e] = -1;
	s->upos[e] = s->nunc;
	s->unc[s->nunc++] = e;
}

/* Where c is, or would be inserted, in the list of e. */
static inline int list_pos(const struct lec_problem *p, int e, int c)
{
	int lo = p->lstart[e], hi = p->lstart[e + 1];

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (p->list[mid] < c)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* 1 when c is in the list of e. */
static inline int in_list(const struct lec_problem *p, int e, int c)
{
	int k = list_pos(p, e, c);

	return k < p->lstart[e + 1] && p->list[k] == c;
}

/* 1 when neither end of e has colour c. */
static inline int is_free(struct state *s, int e, int c)
{
	return *atl(s, e, c) < 0 && *atr(s, e, c) < 0;
}

/* Copy the colouring to best when it leaves fewer edges uncoloured. */
static inline void keep_best(struct state *s)
{
	if (s->nunc >= s->nbest)
		return;
	s->nbest = s->nunc;
	memcpy(s->best, s->colour, sizeof(int) * s->p->nedges);
}

/*
 * Allocate the state for p, its colouring kept in colour[]; lec_reset
 * clears it. 0, or -1 out of memory with nothing held.
 */
int lec_state_init(struct state *s, const struct lec_problem *p, int *colour);

/* Free what lec_state_init allocated. */
void lec_state_free(struct state *s);

/* Uncolour every edge and lift every tabu; the best colouring stays. */
void lec_reset(struct state *s);

#endif
