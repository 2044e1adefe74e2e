// SPDX-License-Identifier: MIT
/*
 * A schedule's phases rebuilt with some phases split into sub-phases: the
 * plane assignment splits a phase its planes cannot carry at once, and the
 * ILP cache splits the phases its solver found infeasible.
 */
#include <stdlib.h>

#include "schedule/split.h"

int fors_split_init(struct fors_split *o, const struct fors_schedule *s)
{
	o->nxfers = 0;
	o->nphases = 0;
	o->cap = s->nphases + 16;
	o->xfers = malloc(sizeof(struct fors_xfer) * (s->nxfers + 1));
	o->start = calloc(o->cap, sizeof(size_t));
	if (!o->xfers || !o->start) {
		fors_split_free(o);
		return FORS_ENOMEM;
	}
	return 0;
}

int fors_split_phase(struct fors_split *o, const struct fors_schedule *s,
		     uint32_t p, const uint32_t *sub, uint32_t k)
{
	uint32_t j;
	size_t i;

	for (j = 0; j < k; j++) {
		if (o->nphases + 2 > o->cap) {
			size_t *st = realloc(o->start,
					     sizeof(size_t) * 2 * o->cap);

			if (!st)
				return FORS_ENOMEM;
			o->start = st;
			o->cap *= 2;
		}
		for (i = s->start[p]; i < s->start[p + 1]; i++)
			if (sub[i - s->start[p]] == j)
				o->xfers[o->nxfers++] = s->xfers[i];
		o->start[++o->nphases] = o->nxfers;
	}
	return 0;
}

void fors_split_finish(struct fors_split *o, struct fors_schedule *s)
{
	free(s->xfers);
	free(s->start);
	s->xfers = o->xfers;
	s->start = o->start;
	s->nxfers = o->nxfers;
	s->nphases = o->nphases;
	o->xfers = NULL;
	o->start = NULL;
}

void fors_split_free(struct fors_split *o)
{
	free(o->xfers);
	free(o->start);
	o->xfers = NULL;
	o->start = NULL;
}
