/* SPDX-License-Identifier: MIT */
#ifndef FORS_TRANSITION_H
#define FORS_TRANSITION_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "fabric/topology.h"
#include "formats/lftdump.h"
#include "verify/deps.h"
#include "verify/walk.h"

/* What a mix of two table sets can do, fors_check_union's answer. */
struct fors_union_report {
	size_t deps;		/* channel dependencies of the union */
	uint32_t loop;		/* 1: they close a cycle, a credit loop */
	char cycle[512];	/* that cycle: "switch"[out port] -> ... */
	uint32_t fwd_lids;	/* LIDs a mix forwards in a circle */
	char fwd[512];		/* the first of them and its circle */
};

/*
 * 1 when the union of old and new is new itself: the same switches in the
 * same order, and every entry old routes, new routes the same way (a
 * fabric's first tables, or a sweep that changes none). The union then
 * has new's credit loops and circles, which checking new finds.
 */
int fors_union_is_new(const struct fors_lft_dump *old,
		      const struct fors_lft_dump *new);

/*
 * While a subnet manager sends new tables, block by block and switch by
 * switch, every switch may forward any LID by its old entry or by its new
 * one (issue 31, doc/routing.md). The union of old and new over t: the
 * channel dependency graph with both entries of every switch for every
 * LID, every switch and CA a source, one VL; and for every LID whether the
 * entries can send a packet round a circle of switches. FORS_OK when
 * neither has a cycle, FORS_EVERIFY with rep filled, FORS_ENOMEM.
 */
int fors_check_union(const struct fors_topology *t,
		     const struct fors_lft_dump *old,
		     const struct fors_lft_dump *new,
		     struct fors_union_report *rep, struct fors_error *err);

/* The union of two table sets as a channel dependency graph. */
struct fors_union {
	const struct fors_topology *t;
	struct fors_walk wo, wn;	/* the old and the new tables */
	struct fors_deps g;	/* every dependency a mix can make */
	int32_t *table;		/* per node: its index in sw, -1 without a
				   table in either */
	uint32_t *sw, nsw;	/* the nodes with a table */
	const uint8_t **row;	/* [2 * nsw]: old and new entries, NULL
				   without a table */
	uint32_t *top;		/* [2 * nsw]: their last LID */
	uint8_t *cabled;	/* [nsw * 256]: an entry if it is a port
				   with a cable, else 0 */
	int32_t *beyond;	/* [nsw * g.width]: the switch index past
				   each port, -1 */
	uint8_t *used;		/* [node * g.width + port]: some LID leaves by it */
	uint32_t *ports;	/* [2 * nsw]: lid_deps' ports of each switch */
	uint8_t *nports;	/* [nsw]: how many */
	uint32_t nlid;		/* LIDs 1 .. nlid - 1 */
};

/*
 * u over t with every dependency of every LID, each switch forwarding by
 * its old entry or its new one: 0, or FORS_ENOMEM (u still to be freed).
 * u reads old and new where they lie: change an entry, and the graph is
 * stale, but fors_union_ports follows.
 */
int fors_union_build(struct fors_union *u, const struct fors_topology *t,
		     const struct fors_lft_dump *old,
		     const struct fors_lft_dump *new);

/*
 * The ports switch x may send lid out of, old or new, into out[]; how
 * many (0 to 2). Delivery (0) and no route are not ports.
 */
uint32_t fors_union_ports(const struct fors_union *u, uint32_t x,
			  uint32_t lid, uint32_t *out);

/* Free what u holds (not u). */
void fors_union_free(struct fors_union *u);

#endif
