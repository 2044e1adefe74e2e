/* SPDX-License-Identifier: MIT */
#ifndef FORS_DETOUR_H
#define FORS_DETOUR_H

#include <stdint.h>

#include "base/error.h"
#include "fabric/fabric.h"
#include "fabric/topology.h"
#include "routing/lft.h"
#include "schedule/schedule.h"

/* Where the detours went, for the log and fors route. */
struct fors_detour_info {
	uint32_t xfers;		/* transfers between leaves apart */
	uint32_t phases;	/* the last phases, which carry them */
	uint32_t added;		/* of those, phases added for them */
};

/*
 * A copy of s (Algorithm 1's phases of fb's hosts, by slot) without the
 * transfers between leaves that share no live plane, phases left empty
 * dropped: what the plane assignment can place. 0, or FORS_ENOMEM.
 */
int fors_detour_strip(const struct fors_fabric *fb,
		      const struct fors_schedule *s,
		      struct fors_schedule **out, struct fors_error *err);

/*
 * s (routed, taken as realloc takes a block: it becomes *out, or is freed
 * on failure) with every transfer between participating hosts (joins) of
 * leaves apart placed, first fit, into its phases or phases added after
 * them, over the routes t gives their DLIDs: each link, sender and
 * receiver once a phase. The phases that carry them go last, `detour N`
 * says how many, and the added ones count into `split`. FORS_EINVAL when
 * t delivers such a pair at no offset without a held cable.
 */
int fors_detour_pack(const struct fors_lfts *t,
		     const struct fors_topology *live,
		     const struct fors_fabric *fb, const uint8_t *joins,
		     struct fors_schedule *s, struct fors_schedule **out,
		     struct fors_detour_info *info, struct fors_error *err);

#endif
