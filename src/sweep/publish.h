/* SPDX-License-Identifier: MIT */
#ifndef FORS_SWEEP_PUBLISH_H
#define FORS_SWEEP_PUBLISH_H

#include <stdint.h>

#include "schedule/schedule.h"
#include "sweep/state.h"

/*
 * Publish *s (taken: *s becomes NULL when it is) with the fabric's bound:
 * a new generation when the schedule changed, the same one when only the
 * bound did, nothing when neither. The file is written on a thread of its
 * own, or here when none starts; a write still under way is waited for
 * first.
 */
void fors_sweep_publish(struct fors_sweep_state *st, struct fors_schedule **s,
			uint32_t bound);

/*
 * Wait for a first stage's transfers being followed (sweep/followup.h)
 * and for the schedule file under way, if any, and log how they went; a
 * file not written leaves the state as if it had not been published.
 */
void fors_sweep_flush(struct fors_sweep_state *st);

#endif
