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
	int spread;		/* the offset carries no transfer of a
				   schedule but on its own planes: a host
				   sharing its nominal plane with an earlier
				   one of a cut leaf gets fallbacks too */
};

/*
 * The plane leaf l sends host h through, into out[l * nhosts + h], for
 * every leaf and host; FORS_BASEMAP_NONE where there is none. 0, or
 * FORS_ENOMEM.
 */
int fors_basemap_build(const struct fors_basemap_in *in, uint16_t *out);

#endif
