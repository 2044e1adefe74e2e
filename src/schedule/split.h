/* SPDX-License-Identifier: MIT */
#ifndef FORS_SPLIT_H
#define FORS_SPLIT_H

#include <stddef.h>
#include <stdint.h>

#include "schedule/schedule.h"

/*
 * A schedule's phases rebuilt in order, a phase the planes could not carry
 * at once split into sub-phases: the plane assignment and the ILP cache
 * both split phases this way.
 */
struct fors_split {
	struct fors_xfer *xfers;
	size_t nxfers, *start;
	uint32_t nphases, cap;
};

/* Room for every transfer of s. 0, or FORS_ENOMEM (o freed). */
int fors_split_init(struct fors_split *o, const struct fors_schedule *s);

/*
 * Append phase p of s as k sub-phases: transfer start[p] + i goes to
 * sub-phase sub[i] < k, in the order of s. 0, or FORS_ENOMEM.
 */
int fors_split_phase(struct fors_split *o, const struct fors_schedule *s,
		     uint32_t p, const uint32_t *sub, uint32_t k);

/* s takes the rebuilt phases; o is left empty. */
void fors_split_finish(struct fors_split *o, struct fors_schedule *s);
void fors_split_free(struct fors_split *o);

#endif
