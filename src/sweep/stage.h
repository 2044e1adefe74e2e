/* SPDX-License-Identifier: MIT */
#ifndef FORS_STAGE_H
#define FORS_STAGE_H

#include <stdint.h>

#include "base/error.h"
#include "fabric/topology.h"
#include "formats/lftdump.h"
#include "routing/lft.h"

/* How the stage fors_stage built differs from the new tables. */
struct fors_stage_report {
	uint32_t changed;	/* entries not as the new tables have them */
	uint32_t dropped;	/* of those, left without a route */
	uint32_t lost;		/* of those, routed by the held tables */
	uint32_t data;		/* changed entries of the schedule's data paths */
	uint32_t held_loop;	/* 1: the held tables loop by themselves */
	char cycle[512];	/* that loop, "switch"[out port] -> ... */
};

/*
 * The first step of the update from the tables the switches hold to full
 * over t (doc/routing.md, "Reroutes"), built in next (a copy of full on
 * entry): full itself when the union of held and full has no cycle; else
 * full with the entries that close the union's cycles kept as held has
 * them, or left without a route where a kept entry would close a cycle
 * with full. Then neither the union of held and next nor that of next and
 * full has a cycle. Entries are chosen greedily, the cheapest first: a
 * route lost costs 1, one of lf's data paths (full's origin, switch for
 * switch; NULL: none) 1,000 when lost, 1 when kept on the held plane.
 * FORS_OK (rep says what changed: install next, then full one sweep
 * later), FORS_EVERIFY when the held tables have a loop of their own
 * (rep->held_loop, rep->cycle: nothing to keep safe; next is then
 * undefined), FORS_ENOMEM.
 */
int fors_stage(const struct fors_topology *t, const struct fors_lft_dump *held,
	       const struct fors_lft_dump *full, struct fors_lft_dump *next,
	       const struct fors_lfts *lf, struct fors_stage_report *rep,
	       struct fors_error *err);

#endif
