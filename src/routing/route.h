/* SPDX-License-Identifier: MIT */
#ifndef FORS_ROUTE_H
#define FORS_ROUTE_H

#include "routing/assign.h"
#include "routing/detour.h"
#include "fabric/fabric.h"
#include "routing/lft.h"
#include "schedule/bound.h"
#include "schedule/schedule.h"
#include "fabric/topology.h"

/* The whole pipeline: topology -> analysis -> schedule -> planes -> LFTs. */
struct fors_route {
	const struct fors_topology *live;	/* what it was computed on */
	struct fors_fabric *fb;
	struct fors_schedule *s;	/* routed: hosts, planes, DLIDs, keys */
	struct fors_lfts *lfts;
	struct fors_offmap *om;		/* the planes of each leaf's offsets
				   where 2^lmc < planes, or of the base LIDs'
				   own map (routing/wide.h); else NULL. A
				   sweep frees it once routed */
	struct fors_intra_info intra;
	struct fors_bound bound;	/* T* of the hosts and live cables */
	struct fors_bound usable;	/* T* without the cables held down:
					   what the schedule aims at */
	uint32_t bound_map;	/* at LMC 0 with the base map: the fewest
				   phases over its routes alone
				   (fors_map_bound), else 0 */
	uint32_t raw;		/* while routing: the best candidate's phases
				   before compaction (route.c, candidate) */
	uint32_t bound_lmc;	/* with fewer LID offsets than planes, T*_L:
				   no schedule over that many routes per
				   (leaf, host) pair has fewer phases, at
				   least T* (doc/narrow-lmc.md); 0 else */
	uint8_t *joins;		/* [fb->nhosts]: takes part in the exchange */
	uint32_t njoin;		/* how many do */
	struct fors_assign_info assign;
	struct fors_detour_info detour;	/* leaves apart: their phases */
	uint16_t *base;		/* NULL, or [m1 * nhosts]: the base map the
				   narrow assignment keeps at offset 0 */
};

/*
 * Planes from elsewhere for a complex scenario (m > f): the plugin's ILP
 * cache, which the pipeline reaches only through this interface.
 */
struct fors_planes_source {
	/*
	 * 0 with *out a new schedule of fb's present hosts, with planes and
	 * without host lines or keys, that fors_schedule_fits fb; the
	 * pipeline frees it. Anything else: the native assignment routes.
	 */
	int (*route)(void *ctx, const struct fors_fabric *fb,
		     struct fors_schedule **out);
	void *ctx;
};

struct fors_route_opts {
	uint32_t lmc;
	int renumber_lids;	/* ignore the topology's LIDs */
	const struct fors_planes_source *planes;	/* NULL: native only */
	int refuse_spine_hosts;	/* hosts on spines refuse the fabric, where
				   they are routed without a slot otherwise */
	int algorithm1;		/* Algorithm 1's schedule even above the
				   bound (comparisons, tests) */
	uint64_t plane_work;	/* the cyclic schedule's plane search budget
				   (tests); 0: FORS_CYCLIC_PLANE_WORK */
	const uint64_t *participants;	/* port GUIDs of the hosts that take
					   part, ascending; NULL: every one */
	size_t nparticipants;
	int exchange_lids;	/* fewer offsets than planes: the base LIDs
				   chosen with the phases, for the exchange
				   alone (doc/narrow-lmc.md), instead of the
				   base map every other job needs */
	int phases_first;	/* with the base map: never minhop's, and
				   no map that serves the other jobs 1% less
				   for a shorter exchange (base_lids phases) */
};

/*
 * Route live (the expected fabric is ref, or inferred when NULL): the
 * analysis, the schedule, the planes, the LFTs and the routed schedule,
 * each stage's product the next one's input. FORS_EINVAL with what was
 * found when the fabric cannot be routed.
 */
int fors_route_compute(const struct fors_topology *live,
		       const struct fors_topology *ref,
		       const struct fors_route_opts *o, struct fors_route **out,
		       struct fors_error *err);

/*
 * The host ports on spines, routed without a slot: how many, and the
 * first three as '"host" on "spine"' in names (len bytes).
 */
uint32_t fors_route_spine_hosts(const struct fors_route *r, char *names,
				size_t len);

/* Free r and every product it holds; NULL is ignored. */
void fors_route_free(struct fors_route *r);

#endif
