/* SPDX-License-Identifier: MIT */
#ifndef FORS_SHIFT_H
#define FORS_SHIFT_H

#include "base/error.h"
#include "schedule/schedule.h"

/* What the shift is laid out for. */
struct fors_shift_params {
	uint32_t m0;		/* host slots per leaf */
	uint32_t m1;		/* leaves */
	uint32_t f;		/* bandwidth reduction, for the schedule */
	uint32_t q;		/* planes, every one live at every leaf */
	const uint8_t *present;	/* [m0 * m1]: 1 = the host takes part */
	uint32_t planes;	/* most moves, and so planes a pair, allowed */
};

/*
 * The shift's planes as maps: map i takes every pair (l, sid) between
 * leaves to its plane in order moved by the i-th move, so a pair's
 * transfers are each on one of its maps' planes.
 */
struct fors_shift_maps {
	uint32_t k;		/* maps: the distinct moves */
	int16_t *plane;		/* [(l * m0 * m1 + sid) * k + i], or
				   FORS_NO_PLANE within l or without a host */
};

/* Free m's planes; m itself is the caller's. */
void fors_shift_maps_free(struct fors_shift_maps *m);

/*
 * The shift over the present hosts in order with its planes
 * (doc/narrow-lmc.md, "The shift with its planes"): n - 1 phases, every
 * host sending and receiving in each, no cable twice. *out is an abstract
 * schedule of the cyclic pattern whose transfers between leaves carry
 * their planes, and *maps its planes as maps; *out NULL where a leaf has
 * more present hosts than planes, there are more than 64 planes or fewer
 * than two hosts, or the moves are more than sp->planes. 0, or
 * FORS_ENOMEM.
 */
int fors_schedule_shift(const struct fors_shift_params *sp,
			struct fors_schedule **out,
			struct fors_shift_maps *maps, struct fors_error *err);

#endif
