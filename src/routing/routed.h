/* SPDX-License-Identifier: MIT */
#ifndef FORS_ROUTED_H
#define FORS_ROUTED_H

#include "fabric/fabric.h"
#include "fabric/topology.h"
#include "routing/assign.h"
#include "routing/lft.h"
#include "schedule/schedule.h"

/*
 * The routed schedule as the schedule file states it, *out: the abstract
 * phases of planes (no host lines) with the host lines of fb's hosts that
 * join (joins[h], the participants: the others get none), the LMC of
 * t, every transfer's DLID (the offset of t, or of om, whose plane is the
 * one assigned) and the keys method and split of info. planes is taken,
 * as realloc takes a block: it becomes *out, or is freed on failure, so
 * the transfers are not copied a second time (67 MB at 2,048 hosts).
 * FORS_EINVAL when a plane has no offset to its destination.
 */
int fors_routed_schedule(const struct fors_lfts *t,
			 const struct fors_topology *live,
			 const struct fors_fabric *fb, const uint8_t *joins,
			 const struct fors_offmap *om,
			 struct fors_schedule *planes,
			 const struct fors_assign_info *info,
			 struct fors_schedule **out, struct fors_error *err);

#endif
