/* SPDX-License-Identifier: MIT */
#ifndef FORS_COMPACT_H
#define FORS_COMPACT_H

#include <stdint.h>

#include "base/error.h"
#include "schedule/pack.h"
#include "schedule/schedule.h"

/*
 * Phases times marks (hosts sending and receiving, cables up and down)
 * past which a schedule is not compacted: its table of who holds each
 * mark in each phase would take the subnet manager more than 8 MB
 * (the LHCb fabric: 2.4 MB; 1,024 hosts: 17 MB; 2,048 hosts: 93 MB).
 */
#define FORS_COMPACT_CELLS (2u << 20)

/*
 * Steps (a phase looked at for a transfer, a transfer of a chain) past
 * which compaction stops where it is: under a second. The LHCb
 * fabric's scenarios take at most 7 x 10^6.
 */
#define FORS_COMPACT_WORK 10000000ull

/*
 * s, packed over pp's fixed planes (fors_schedule_pack), with fewer
 * phases where its transfers fit the others: the phase with the fewest is
 * emptied into the rest, until one cannot be or the work is spent. Every
 * promise of fors_schedule_pack still holds but that phases only grow;
 * the phases keep their order. s changed in place; 0, or FORS_ENOMEM (s
 * as it was).
 */
int fors_schedule_compact(struct fors_schedule *s,
			  const struct fors_pack_params *pp);

#endif
