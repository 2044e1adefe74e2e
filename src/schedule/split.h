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
 * The same over s's own transfers, which o takes (s is left without any):
 * phase p's sub-phases take the place of phase p, so each must have been
 * read before it is appended. 0, or FORS_ENOMEM (o freed, s unchanged).
 */
int fors_split_init_over(struct fors_split *o, struct fors_schedule *s);

/*
 * Append a phase of n transfers x as k sub-phases: x[i] goes to sub-phase
 * sub[i] < k, in the order of x (sub is not read when k is 1). 0, or
 * FORS_ENOMEM.
 */
int fors_split_phase(struct fors_split *o, const struct fors_xfer *x,
		     size_t n, const uint32_t *sub, uint32_t k);

/*
 * The rebuilt phases as a new schedule *out with the header, host lines
 * and keys of s; o is left empty. 0, or FORS_ENOMEM.
 */
int fors_split_finish(struct fors_split *o, const struct fors_schedule *s,
		      struct fors_schedule **out);

/* Free what o holds. */
void fors_split_free(struct fors_split *o);

#endif
