/* SPDX-License-Identifier: MIT */
#ifndef FORS_PLANES_H
#define FORS_PLANES_H

#include <stdint.h>

#include "schedule/rebalance.h"

/* No plane: a transfer within its leaf, or a host idle in a phase. */
#define FORS_NO_PLANE (-1)

/* The cables of every leaf's planes, and the search's budget. */
struct fors_plane_params {
	uint32_t q;		/* planes */
	const int16_t *cable;	/* [m1 * q]: the plane whose cable plane p
				   takes at leaf l (fabric.h's
				   fors_plane_cable), -1: none */
	uint64_t work;		/* the search's budget: counts changed and
				   planes looked at */
	uint64_t seed;
	const int16_t *fixed;	/* NULL, or [m1 * nh]: the one plane leaf l
				   may send host b's transfers through (one
				   LID offset: the route is the destination's),
				   FORS_NO_PLANE for none; transfers then
				   move between phases only */
};

/*
 * Planes for every inter-leaf transfer of ph, searched together with the
 * phases (doc/schedule.md, "Planes with the phases"): plane[p * nh + a]
 * is the plane of a's transfer in phase p, whose spine both its leaves
 * reach. A conflict is a second transfer of a phase on one leaf's cable
 * up or down; transfers move between planes and, by Kempe swaps,
 * between phases. Seeded: the same input gives the same result. Returns
 * the conflicts left (0: every phase congestion-free; a transfer whose
 * leaves reach no spine in common counts one), -1 when out of memory; the
 * planes of a phase left with a conflict are unset.
 */
int64_t fors_phase_planes(struct fors_phases *ph,
			  const struct fors_plane_params *pp, int16_t *plane);

#endif
