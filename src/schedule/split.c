// SPDX-License-Identifier: MIT
/*
 * A schedule's phases rebuilt with some phases split into sub-phases: the
 * plane assignment splits a phase its planes cannot carry at once, and the
 * ILP cache splits the phases its solver found infeasible.
 */
#include <stdlib.h>
#include <string.h>

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

int fors_split_init_over(struct fors_split *o, struct fors_schedule *s)
{
	o->nxfers = 0;
	o->nphases = 0;
	o->cap = s->nphases + 16;
	o->start = calloc(o->cap, sizeof(size_t));
	o->xfers = NULL;
	if (!o->start)
		return FORS_ENOMEM;
	o->xfers = s->xfers;
	s->xfers = NULL;
	return 0;
}

int fors_split_phase(struct fors_split *o, const struct fors_xfer *x,
		     size_t n, const uint32_t *sub, uint32_t k)
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
		if (k == 1) {
			memcpy(&o->xfers[o->nxfers], x, sizeof(*x) * n);
			o->nxfers += n;
		}
		for (i = 0; k > 1 && i < n; i++)
			if (sub[i] == j)
				o->xfers[o->nxfers++] = x[i];
		o->start[++o->nphases] = o->nxfers;
	}
	return 0;
}

int fors_split_finish(struct fors_split *o, const struct fors_schedule *s,
		      struct fors_schedule **out)
{
	int r = fors_schedule_adopt(s, o->xfers, o->nxfers, o->start,
				    o->nphases, out);

	o->xfers = NULL;
	o->start = NULL;
	return r;
}

void fors_split_free(struct fors_split *o)
{
	free(o->xfers);
	free(o->start);
	o->xfers = NULL;
	o->start = NULL;
}
