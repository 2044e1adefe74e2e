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
	uint32_t planes;	/* most planes a (leaf, host) pair may use */
};

/*
 * The shift over the present hosts in order with its planes
 * (doc/narrow-lmc.md, "The shift with its planes"): n - 1 phases, every
 * host sending and receiving in each, no cable twice. *out is an abstract
 * schedule of the cyclic pattern whose transfers between leaves carry
 * their planes; NULL where a leaf has more present hosts than planes,
 * there are more than 64 planes or fewer than two hosts, or some (source
 * leaf, destination host) pair would use more than sp->planes planes.
 * 0, or FORS_ENOMEM.
 */
int fors_schedule_shift(const struct fors_shift_params *sp,
			struct fors_schedule **out, struct fors_error *err);

#endif
