/* SPDX-License-Identifier: MIT */
#ifndef FORS_BOUND_H
#define FORS_BOUND_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"

/*
 * A two-level fabric as the bound sees it: the hosts taking part on each
 * leaf and the live cables between each leaf and each spine. Only counts
 * matter; node names, planes and ranks do not.
 */
struct fors_bound_fabric {
	uint32_t nleaves;
	uint32_t nspines;
	const uint32_t *hosts;	/* [nleaves]: host ports taking part */
	const uint32_t *cables;	/* [nleaves * nspines]: live cables */
};

/* Which argument gives the bound (doc/schedule.md, "The bound"). */
enum fors_bound_term {
	FORS_BOUND_HOSTS,	/* N - 1: one send per host and phase */
	FORS_BOUND_LEAF,	/* leaf a's transfers over its live uplinks */
	FORS_BOUND_PAIR,	/* leaves a, b over their common cables */
	FORS_BOUND_FLOW,	/* every pair over every spine at once */
};

/* T*: no congestion-free schedule of the fabric has fewer phases. */
struct fors_bound {
	uint32_t t;
	enum fors_bound_term term;
	uint32_t a, b;		/* the leaf (LEAF), the leaves (PAIR) */
};

/*
 * The bound of bf: the largest of N - 1, each leaf's and each pair of
 * leaves' transfers over their cables, and the flow bound (the LP
 * relaxation of splitting every pair's transfers over the spines), each
 * proven by a certificate checked in integers. Where two leaves with
 * hosts share no live spine, only N - 1, the leaves (over all their
 * cables) and the pairs that share one. 0, or FORS_ENOMEM.
 */
int fors_bound_compute(const struct fors_bound_fabric *bf,
		       struct fors_bound *out, struct fors_error *err);

/*
 * With one route per (source leaf, destination host), as one LID offset
 * gives (doc/narrow-lmc.md, "The bound of one route"): each such pair's
 * transfers all cross one cable up and one down, so a leaf's cables carry
 * its pairs unsplit. The most transfers some cable must carry, over every
 * leaf's cables up and down, proven by counting; with two routes or more
 * a pair splits as it likes and this says no more than T*. The caller
 * takes the larger of this and T*. bf->cables as fors_bound_compute's;
 * 0 (no claim) when out of memory.
 */
uint32_t fors_bound_one_route(const struct fors_bound_fabric *bf);

/* The bound's argument in words: "N - 1", "leaf 3's uplinks", ... */
void fors_bound_describe(const struct fors_bound *b, char *buf, size_t len);

#endif
