/* SPDX-License-Identifier: MIT */
#ifndef FORS_ROUTE_H
#define FORS_ROUTE_H

#include "routing/assign.h"
#include "fabric/fabric.h"
#include "routing/lft.h"
#include "schedule/schedule.h"
#include "fabric/topology.h"

/* The whole pipeline: topology -> analysis -> schedule -> planes -> LFTs. */
struct fors_route {
	const struct fors_topology *live;	/* what it was computed on */
	struct fors_fabric *fb;
	struct fors_schedule *s;	/* routed: hosts, planes, DLIDs */
	struct fors_lfts *lfts;
	struct fors_offmap *om;		/* NULL unless 2^lmc < planes */
	struct fors_intra_info intra;
	struct fors_assign_info assign;
};

struct fors_route_opts {
	uint32_t lmc;
	int renumber_lids;	/* ignore the topology's LIDs */
	/*
	 * Planes from elsewhere for a complex scenario (m > f), the plugin's
	 * ILP cache: 0 when it replaced *s by a routed schedule that
	 * fors_schedule_fits fb; anything else routes natively.
	 */
	int (*planes)(void *ctx, const struct fors_fabric *fb,
		      struct fors_schedule **s);
	void *ctx;
};

int fors_route_compute(const struct fors_topology *live,
		       const struct fors_topology *ref,
		       const struct fors_route_opts *o, struct fors_route **out,
		       struct fors_error *err);

void fors_route_free(struct fors_route *r);

#endif
