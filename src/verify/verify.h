/* SPDX-License-Identifier: MIT */
#ifndef FORS_VERIFY_H
#define FORS_VERIFY_H

#include "fabric/fabric.h"
#include "schedule/schedule.h"

/*
 * Check what a schedule promises without looking at a fabric: every ordered
 * pair of present hosts exactly once, each host sending and receiving at
 * most once per phase, at most m0 - f inter-leaf senders and receivers per
 * leaf and phase (Algorithm 1's pattern; at most the planes for the
 * cyclic one, whose link loads the tables decide), planes and DLIDs in
 * range, and never more than P_f phases where the FORS theorem applies
 * (plus the phases a `split N` key declares were added for a fabric that
 * cannot carry a phase). Present hosts are those of the `host` lines,
 * or every slot when there are none. FORS_OK, or FORS_EVERIFY with the
 * first violation in err.
 */
int fors_schedule_verify(const struct fors_schedule *s,
			 struct fors_error *err);

/*
 * A routed schedule that came from elsewhere (the ILP cache) checked for
 * fb: what fors_schedule_verify checks, for fb's present hosts, and every
 * inter-leaf transfer on a plane alive at both its leaves, no plane twice
 * at one leaf on one side in a phase: no shared link.
 */
int fors_schedule_fits(const struct fors_fabric *fb,
		       const struct fors_schedule *s, struct fors_error *err);

#endif
