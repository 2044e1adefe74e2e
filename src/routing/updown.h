/* SPDX-License-Identifier: MIT */
#ifndef FORS_UPDOWN_H
#define FORS_UPDOWN_H

#include <stdint.h>

#include "base/error.h"
#include "routing/lft.h"
#include "fabric/topology.h"

/*
 * A total order of the switches, highest first, in which every spine sits
 * just below its home leaf and above every other leaf it is cabled to. A
 * hop is up when it goes to a higher switch; a route is legal when no up
 * hop follows a down hop. Legal routes cannot close a credit loop, and
 * every leaf-spine-leaf route is legal (doc/routing.md).
 */
struct fors_updown {
	const struct fors_topology *t;
	const struct fors_lfts *lf;
	const int32_t *swi;	/* per topology node: switch index or -1 */
	uint32_t nleaf;		/* switches 0..nleaf-1 are leaves */
	uint32_t *order;	/* [nsw]: switches, highest first */
	uint32_t *pos;		/* [nsw]: place in order */
	uint32_t *home;		/* [nsw]: a spine's home leaf, or UINT32_MAX */
	uint32_t *home_port;	/* [nsw]: the spine's port to it */
	uint32_t *adj_off;	/* [nsw + 1]: neighbours in adj_sw, adj_port */
	uint32_t *adj_sw, *adj_port;
	uint32_t *dd, *d, *dk;	/* [nsw]: scratch of fors_updown_complete */
};

/*
 * The order of lf's switches over t (swi: each node's switch index or -1,
 * the first nleaf of them leaves), with the adjacency the completion
 * walks: 0, or FORS_ENOMEM with err.
 */
int fors_updown_build(struct fors_updown *u, const struct fors_topology *t,
		      const struct fors_lfts *lf, const int32_t *swi,
		      uint32_t nleaf, struct fors_error *err);

/* A hop over a held cable counts as this many (fors_updown_complete). */
#define FORS_HELD_HOP 1024

/*
 * Fill the entries of lid that pinned[] leaves free so that every route to
 * target is legal and shortest among legal ones, a hop over a held cable
 * counted FORS_HELD_HOP; pinned entries must be legal already. Returns
 * how many switches are left without a route.
 */
uint32_t fors_updown_complete(struct fors_updown *u, struct fors_lfts *lf,
			      uint32_t lid, const uint8_t *pinned,
			      uint32_t target);

/* Free what u holds (not u itself). */
void fors_updown_free(struct fors_updown *u);

#endif
