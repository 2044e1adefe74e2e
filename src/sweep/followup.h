/* SPDX-License-Identifier: MIT */
#ifndef FORS_SWEEP_FOLLOWUP_H
#define FORS_SWEEP_FOLLOWUP_H

#include <stdint.h>

#include "formats/lftdump.h"
#include "schedule/schedule.h"
#include "sweep/state.h"

/*
 * Follow a first stage's transfers, the schedule *s over the tables *d on
 * the fabric *t (all three taken: NULL when they are), on a thread of its
 * own; unreachable and mf are the pairs its tables' checks left waiting.
 * Any follow-up under way is waited for first. Without a thread the
 * transfers are followed here.
 */
void fors_followup_start(struct fors_sweep_state *st,
			 struct fors_topology **t, struct fors_schedule **s,
			 struct fors_lft_dump **d, uint32_t unreachable,
			 uint32_t mf);

/*
 * Wait for the first stage's transfers being followed, if any, log what
 * waits ("first stage: N transfers wait, ...") and free what it took.
 */
void fors_followup_wait(struct fors_sweep_state *st);

#endif
