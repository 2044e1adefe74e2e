/* SPDX-License-Identifier: MIT */
#ifndef FORS_ILP_LOOKUP_H
#define FORS_ILP_LOOKUP_H

#include <stdint.h>

#include "base/error.h"
#include "fabric/scenario.h"
#include "schedule/schedule.h"

/*
 * The ILP cache (doc/ilp.md): the FORS paper's per-phase ILP (Section 5.2)
 * solved by an external MILP solver, stored per canonical phase, consulted
 * by the plugin through `fors ilp lookup`.
 */

/* Exit statuses of `fors ilp lookup` besides 0 (hit) and 2 (usage). */
enum {
	FORS_ILP_EXIT_MISS = 3,		/* some phase is not in the cache */
	FORS_ILP_EXIT_UNSAFE = 4,	/* the cache may not be trusted */
	FORS_ILP_EXIT_CORRUPT = 5,	/* an entry is corrupt */
};

/* What routing a scenario from the cache took, for reports. */
struct ilp_stats {
	uint32_t phases;	/* phases with inter-leaf transfers routed */
	uint32_t hits;		/* of which found in the cache */
	uint32_t solved;	/* of which solved now */
	uint32_t infeasible;	/* verdicts "infeasible" met (splits) */
	uint32_t unknown;	/* solver stopped without a verdict */
	double solver_s;	/* solver wall time spent now */
	double max_s;		/* the longest solver run */
	double stored_s;	/* solver time recorded in the entries used */
	uint32_t *subs;		/* [phases of the schedule] or NULL */
};

/* The cache to route from, and the solver for what it lacks. */
struct ilp_opts {
	const char *cache;
	const char *solver;	/* NULL: look up only */
	const char *program;	/* the solver's program, NULL: its default */
	uint32_t time_ms;	/* per solver run */
	uint32_t also;		/* the batch user trusted too, FORS_TRUST_NONE */
};

/*
 * The schedule of sc (Algorithm 1, as `fors route` builds it) with every
 * inter-leaf transfer on the plane the cache holds for its phase, phases
 * the ILP found infeasible split into the fewest sub-phases it solves.
 * Solves missing phases when o->solver is set. 0 with *out (abstract:
 * planes, no DLIDs; keys method ilp and split), FORS_ILP_EXIT_MISS, or an
 * error: FORS_ILP_EXIT_UNSAFE / FORS_ILP_EXIT_CORRUPT / FORS_E* with err.
 * st->subs, when not NULL, receives the sub-phases of every phase.
 */
int fors_ilp_route(const struct ilp_opts *o, const struct fors_scenario *sc,
		   struct fors_schedule **out, struct ilp_stats *st,
		   struct fors_error *err);

#endif
