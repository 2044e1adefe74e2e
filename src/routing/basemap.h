/* SPDX-License-Identifier: MIT */
#ifndef FORS_BASEMAP_H
#define FORS_BASEMAP_H

#include <stdint.h>

#include "fabric/fabric.h"

/* No plane: the host's own leaf, or no live plane common to both leaves. */
#define FORS_BASEMAP_NONE UINT16_MAX

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
};

/*
 * The plane leaf l sends host h through, into out[l * nhosts + h], for
 * every leaf and host; FORS_BASEMAP_NONE where there is none. 0, or
 * FORS_ENOMEM.
 */
int fors_basemap_build(const struct fors_basemap_in *in, uint16_t *out);

#endif
