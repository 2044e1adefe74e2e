/* SPDX-License-Identifier: MIT */
#ifndef FORS_STAGE_H
#define FORS_STAGE_H

#include <stdint.h>

#include "base/error.h"
#include "fabric/topology.h"
#include "formats/lftdump.h"

/* What fors_stage left out of the new tables, and why. */
struct fors_stage_report {
	uint32_t cuts;		/* dependencies of the union broken */
	uint32_t dropped;	/* entries of the new tables left without a route */
	uint32_t lost;		/* of those, entries the held tables had a live port for */
	uint32_t held_loop;	/* 1: the held tables loop by themselves */
	char cycle[512];	/* that loop, "switch"[out port] -> ... */
};

/*
 * The first stage of the update from the tables the switches hold to next
 * over t (doc/routing.md, "Reroutes"): next itself when their union has no
 * cycle, else next with the fewest entries this greedy finds left without
 * a route, so that the union of held and next has no cycle. next is
 * changed in place. FORS_OK (rep->dropped entries dropped: install next,
 * then the full tables one sweep later), FORS_EVERIFY when the held tables
 * have a loop of their own (rep->held_loop, rep->cycle: nothing to keep
 * safe; next is then undefined), FORS_ENOMEM.
 */
int fors_stage(const struct fors_topology *t, const struct fors_lft_dump *held,
	       struct fors_lft_dump *next, struct fors_stage_report *rep,
	       struct fors_error *err);

#endif
