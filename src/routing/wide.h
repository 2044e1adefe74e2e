/* SPDX-License-Identifier: MIT */
#ifndef FORS_WIDE_H
#define FORS_WIDE_H

#include <stdint.h>

#include "fabric/fabric.h"
#include "routing/assign.h"

/*
 * One LID offset per plane or more (2^lmc >= q), with the base LIDs on
 * another map than the nominal planes' (doc/routing.md, "Traffic that is
 * not the exchange"): offset 0 of leaf l's routes to host h takes map's
 * plane, and the offset whose nominal plane that is, (plane - designated)
 * mod q, takes the plane offset 0 had (held's), so every (leaf, host)
 * pair still reaches each live plane once and the exchange keeps its
 * phases. held and map are [m1 * nhosts] (routing/basemap.h); held the
 * tables' own offset 0 (FORS_SPREAD_NONE over designated). *out NULL
 * where the two maps agree, else an offset map whose other entries are
 * -1 (the tables' own). 0, or FORS_ENOMEM.
 */
int fors_offmap_wide(const struct fors_fabric *fb, const uint32_t *designated,
		     const uint16_t *held, const uint16_t *map, uint32_t lmc,
		     struct fors_offmap **out);

#endif
