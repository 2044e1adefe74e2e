/* SPDX-License-Identifier: MIT */
#ifndef FORS_SWEEP_H
#define FORS_SWEEP_H

#include <stdint.h>

#include "base/error.h"
#include "fabric/topology.h"
#include "formats/lftdump.h"
#include "formats/guidfile.h"
#include "routing/route.h"
#include "sweep/stage.h"
#include "sweep/state.h"
#include "verify/check.h"

/*
 * One heavy sweep, given the state the previous ones left: the hold-down,
 * the expected fabric, the routing (with release and retry), then, once
 * the adapter has installed the tables, the verification, the remembered
 * fabric, the state file and the schedule file with its generation. No
 * subnet manager in it: the plugin converts its subnet into live and the
 * tables into its switches, and calls these in order.
 */

/* Where a sweep's time went, for its log line (ms). */
enum fors_sweep_span {
	FORS_SPAN_ROUTE,	/* the subnet converted, fors_sweep_route */
	FORS_SPAN_HOPS,		/* the subnet manager's own work between */
	FORS_SPAN_STAGE,	/* the held tables read, fors_sweep_stage */
	FORS_SPAN_INSTALL,	/* the adapter filling the switches' tables */
	FORS_SPAN_VERIFY,	/* these two: fors_sweep_finish */
	FORS_SPAN_FILES,
	FORS_SPANS,
};

struct fors_sweep {
	struct fors_topology *live;	/* the subnet in this sweep */
	struct fors_topology *next_seen;	/* seen with live, if routed */
	struct fors_route *route;
	struct fors_lft_dump *held;	/* the switches' tables, NULL: unknown */
	struct fors_lfts staged;	/* the first stage: route's tables with
					   its own port[], when .port */
	struct fors_stage_report stage;
	struct fors_rules *rules;	/* the routed schedule's rules, begun
					   on a thread when it was routed (a
					   core is idle until the tables are
					   read back), NULL: none */
	double ms[FORS_SPANS];	/* the adapter fills the first four */
};

/*
 * The tables as installed, read back from where they were installed (the
 * switches' new tables): 0 with *out, or an error with err.
 */
typedef int (*fors_sweep_read_back)(void *ctx, const struct fors_sweep *sw,
				    struct fors_lft_dump **out,
				    struct fors_error *err);

/*
 * Route live (taken: freed with the sweep, or here on failure) at wall
 * time now: cables tracked and held, the expected fabric, and the routing;
 * a fabric that cannot be routed with its held cables is routed again with
 * them. 0 with *out; otherwise the refusal is logged, live is written to
 * the rejected path, and err says why.
 */
int fors_sweep_route(struct fors_sweep_state *st, struct fors_topology *live,
		     int64_t now, const struct fors_route_opts *o,
		     struct fors_sweep **out, struct fors_error *err);

/*
 * The switches hold held now (taken; NULL when unknown): when a mix of
 * those and sw's tables could loop, sw installs a first stage and asks for
 * the next sweep to install the rest (doc/routing.md, "Reroutes"). 0, or
 * FORS_ENOMEM with err.
 */
int fors_sweep_stage(struct fors_sweep_state *st, struct fors_sweep *sw,
		     struct fors_lft_dump *held, struct fors_error *err);

/* The tables the adapter installs: the first stage, or route's own. */
const struct fors_lfts *fors_sweep_tables(const struct fors_sweep *sw);

/*
 * The tables of sw are installed: verify them as read back (when the
 * configuration says so), then keep what the next sweeps need and write
 * the state and schedule files, and log the sweep. 0, or FORS_EVERIFY
 * (each violation logged) or the read-back's error, with err; the state
 * is then as before the sweep.
 */
int fors_sweep_finish(struct fors_sweep_state *st, struct fors_sweep *sw,
		      fors_sweep_read_back read_back, void *ctx, int64_t now,
		      struct fors_error *err);

/*
 * Who takes part in the exchange (doc/plugin.md): the GUID file conf names
 * (fors.conf's participants; "all": every host port), else OpenSM's
 * cn_guid_file when it has one, else every host port (NULL). A file that
 * cannot be used is logged, and every host port takes part.
 */
struct fors_guids *fors_sweep_participants(const struct fors_sweep_state *st,
					   const char *conf,
					   const char *cn_guid_file);

/* Free sw and all it holds; NULL is ignored. */
void fors_sweep_free(struct fors_sweep *sw);

#endif
