/* SPDX-License-Identifier: MIT */
#ifndef FORS_PACK_H
#define FORS_PACK_H

#include <stdint.h>

#include "base/error.h"
#include "schedule/schedule.h"

/* The fixed planes a schedule is packed over, and the cables they take. */
struct fors_pack_params {
	uint32_t q;		/* planes */
	const int16_t *cable;	/* [m1 * q]: fors_plane_cable's answers */
	const int16_t *fixed;	/* [m1 * m0 * m1]: leaf l's plane to host
				   sid, FORS_NO_PLANE none */
	uint32_t leaf_cap;	/* most transfers a moved one may join out
				   of and into a leaf in a phase (Algorithm
				   1's m0 - f); 0: the cables alone */
	uint32_t limit;		/* packing: FORS_ELIMIT before the phases
				   reach it (it cannot beat another
				   schedule); 0: no limit */
};

/*
 * Most transfers to move times phases: past it the planes do not fit the
 * schedule, and finding each a phase would cost the subnet manager
 * seconds (2,048 hosts with four dead spines: a million to move).
 */
#define FORS_PACK_WORK 300000000ull

/*
 * s with every inter-leaf transfer on its fixed plane and no cable twice
 * in a phase: a transfer whose cable its phase has taken already leaves
 * it, for the first phase where both its hosts and both its cables are
 * free, or a phase added at the end. Every pair stays once and every
 * host sends and receives at most once a phase. s changed in place (its
 * phases may grow in number, its transfers never); FORS_EINVAL (err says
 * which) for a transfer with no fixed plane, FORS_ELIMIT past
 * FORS_PACK_WORK or at pp->limit, FORS_ENOMEM: s then unusable.
 */
int fors_schedule_pack(struct fors_schedule *s,
		       const struct fors_pack_params *pp,
		       struct fors_error *err);

/*
 * Transfer x's marks in a phase, numbered as compaction and packing
 * number them: its source's send, its destination's receive and, between
 * leaves, its cables up and down. How many there are, 2 or 4.
 */
int fors_pack_marks(const struct fors_pack_params *pp, uint32_t m0,
		    uint32_t m1, const struct fors_xfer *x, size_t m[4]);

#endif
