/* SPDX-License-Identifier: MIT */
#ifndef FORS_ROUNDS_H
#define FORS_ROUNDS_H

#include "base/error.h"
#include "schedule/pack.h"
#include "schedule/schedule.h"

/*
 * The present hosts' all-to-all in rounds of m0 phases over the fixed
 * planes of pp (doc/narrow-lmc.md, "Rounds"): in a round each (source
 * leaf, destination host) pair it holds sends from every host of its
 * leaf, one a phase, on its fixed plane. *out is an abstract schedule of
 * the cyclic pattern whose transfers between leaves carry their fixed
 * planes, with no host and no cable twice in a phase; NULL where a pair
 * between leaves has no fixed plane or no cable for it. 0, or
 * FORS_ENOMEM.
 */
int fors_schedule_rounds(const struct fors_sched_params *sp,
			 const struct fors_pack_params *pp,
			 struct fors_schedule **out, struct fors_error *err);

#endif
