/* SPDX-License-Identifier: MIT */
#ifndef FORS_BASEMAP_H
#define FORS_BASEMAP_H

#include <stdint.h>

#include "fabric/fabric.h"

/* No plane: the host's own leaf, or no live plane common to both leaves. */
#define FORS_BASEMAP_NONE UINT16_MAX

/* Each host's nominal plane, and the other ports of its node. */
struct fors_nominal {
	uint32_t *designated;	/* [nhosts]: the plane of its base LID */
	uint32_t *group;	/* [nhosts]: the first port of its node (or
				   system image) */
	uint32_t *next;		/* [nhosts]: the node's next port, or
				   UINT32_MAX */
};

/*
 * Every host's nominal plane: the (h mod r)-th of the r planes alive at
 * its leaf, moved to one no earlier port of its leaf has and on a spine
 * no sibling port has where it can be. 0, or FORS_ENOMEM (*out empty).
 */
int fors_nominal_build(const struct fors_fabric *fb, struct fors_nominal *out);

/* Free what n holds; n itself is the caller's. */
void fors_nominal_free(struct fors_nominal *n);

/*
 * Which hosts sharing their nominal plane with an earlier host of their
 * leaf get fallbacks from every leaf, so that one cable down does not
 * carry both from all of them: none (the offset carries a schedule's
 * transfers on these planes), those of a leaf with fewer live planes than
 * another (a cut), or also those of leaves that lost the same planes as
 * every other (dead spines), which the linear shift may pay for.
 */
enum fors_spread { FORS_SPREAD_NONE, FORS_SPREAD_CUT, FORS_SPREAD_ALL };

/*
 * What one LID offset of every host is routed through for traffic that
 * follows no schedule (doc/routing.md, "Traffic that is not the
 * exchange"): each host's nominal plane from every leaf where it is
 * alive at both ends; elsewhere a fallback that balances each leaf's
 * cables up and each leaf's cables down.
 */
struct fors_basemap_in {
	const struct fors_fabric *fb;
	const uint32_t *nominal;	/* [nhosts]: each host's plane */
	const uint32_t *group;	/* NULL, or [nhosts]: first port of its node */
	const uint32_t *next;	/* with group: the node's next port, or
				   UINT32_MAX (mFtree: a fallback avoids
				   the spine a sibling takes from that leaf) */
	enum fors_spread spread;	/* which hosts sharing a nominal plane
					   get fallbacks */
	int cap_up;		/* also no fallback past what some cable up
				   must carry (a candidate for the
				   exchange's bound, route.c) */
};

/*
 * The plane leaf l sends host h through, into out[l * nhosts + h], for
 * every leaf and host; FORS_BASEMAP_NONE where there is none. 0, or
 * FORS_ENOMEM.
 */
int fors_basemap_build(const struct fors_basemap_in *in, uint16_t *out);

/*
 * A base map that turns with the sending leaf: leaf l sends host h
 * through the ((h - t) mod r)-th of the r planes alive at both leaves
 * (FORS_BASEMAP_NONE where r is 0), t being l's first host (k 0) or, with
 * the leaves cut into k runs, (b * q / k) for l's run b. In the linear
 * shift l's hosts send to a run of as many hosts, so each of l's cables up
 * carries what nominal planes give it; but the hosts of a leaf with more
 * hosts than planes that share a plane share one that moves with t,
 * where nominal planes put them on one cable down from every leaf (dead
 * spines, doc/narrow-lmc.md). The fewer the turns, the fewer the hosts of
 * one leaf that meet on a cable down in a random permutation.
 */
void fors_basemap_turned(const struct fors_fabric *fb, uint32_t k,
			 uint16_t *out);
#endif
