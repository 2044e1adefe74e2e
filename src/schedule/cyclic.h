/* SPDX-License-Identifier: MIT */
#ifndef FORS_CYCLIC_H
#define FORS_CYCLIC_H

#include <stdint.h>

#include "base/error.h"
#include "schedule/schedule.h"

/* What the cyclic schedule is computed for. */
struct fors_cyclic_params {
	uint32_t m0, m1, f;	/* the fabric line's shape and reduction */
	const uint8_t *present;	/* [m0 * m1]: 1 = host port present */
	const uint32_t *uplinks;	/* [m1]: most transfers a phase may
					   send out of, or into, the leaf */
	uint32_t t;		/* the phases wanted: T* */
	uint64_t moves;		/* the search's budget: swaps tried */
	uint64_t work;		/* and counts changed (time) */
	uint64_t swaps;		/* the rebalancing's budget: swaps tried */
	uint64_t seed;		/* another seed, another placement */
	uint32_t q;		/* planes */
	const int16_t *cable;	/* [m1 * q]: the plane whose cable a plane
				   takes at the leaf, -1 (fabric.h's
				   fors_plane_cable); NULL: no planes */
	uint64_t plane_work;	/* the plane search's budget */
	const int16_t *fixed;	/* NULL, or [m1 * m0 * m1]: with one LID
				   offset, the one plane of leaf l's
				   transfers to host sid (the base map):
				   the hosts then sit in sid order, and
				   the phases are searched over these */
};

/* The placement search's budget in the pipeline: swaps, counts changed. */
#define FORS_CYCLIC_MOVES 2000
#define FORS_CYCLIC_WORK 4000000
#define FORS_CYCLIC_SWAPS 20000
#define FORS_CYCLIC_PLANE_WORK 4000000
#define FORS_CYCLIC_PLANE_CELLS 40000
/* Placements tried while the best so far splits a phase (routing/route.c). */
#define FORS_CYCLIC_TRIES 5
/* Placements tried while their phases times hosts stay below this. */
#define FORS_CYCLIC_CELLS 200000

/*
 * A schedule of the present hosts in exactly cp->t phases (cp->t at least
 * hosts - 1), with no leaf sending or receiving more than its uplinks in a
 * phase (doc/schedule.md, "The cyclic schedule"): the hosts on a circle of
 * t + 1 positions, each sending in phase p to the position p ahead.
 * With cp->cable, the planes are searched with the phases
 * (schedule/planes.h): set in every phase left congestion-free, unset
 * in the others; with cp->fixed too, only the phases are, and the
 * transfers that still share a cable move to phases with room for them
 * (schedule/pack.h), so there may be more than cp->t. DLIDs are unset; the fabric line gets `pattern cyclic`.
 * FORS_EINVAL when, without cp->cable, the search finds no placement
 * within its budget (err says how many transfers stayed over),
 * FORS_ENOMEM.
 */
int fors_schedule_cyclic(const struct fors_cyclic_params *cp,
			 struct fors_schedule **out, struct fors_error *err);

/* 1 when s has the cyclic pattern (`pattern cyclic`), not Algorithm 1's. */
int fors_schedule_is_cyclic(const struct fors_schedule *s);

#endif
