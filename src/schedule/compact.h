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
 * which the chains stop where they are and leave the rest to the tabu
 * search: under a second. The LHCb fabric's scenarios take at most
 * 7 x 10^6.
 */
#define FORS_COMPACT_WORK 10000000ull

/*
 * Moves (a transfer placed, what it displaces pooled) in which the tabu
 * search must empty a phase, or the phase is left as it was. On the LHCb
 * fabric a phase that empties takes at most 14,000.
 */
#define FORS_COMPACT_MOVES 20000u

/*
 * Phases the tabu search may fail to empty, each a new random path from
 * the same schedule, before it stops: on the LHCb fabric at LMC 0 one try
 * stops 3 to 9 phases short of six, where a phase empties on the second
 * to fifth try.
 */
#define FORS_COMPACT_FAILS 6u

/*
 * Transfers a failed try may leave unplaced and still be tried again: on
 * the LHCb fabric the tries that a retry followed with an emptied phase
 * left 1 to 4; the healthy fabric's left 94 to 168, and two dead spines'
 * 6 to 10, and no retry of theirs emptied one.
 */
#define FORS_COMPACT_NEAR 4u

/*
 * Steps (a phase looked at for a transfer) past which the tabu search
 * starts no new phase: about 0.4 s. The LHCb fabric's nine scenarios at
 * LMC 0 to 2 take 10^6 to 9.4 x 10^7 without it and lose no phase to it;
 * FT(2;16,32) with two cuts at LMC 1 keeps a phase more (578, where 10^8
 * steps take it to 577 in 3.4 s).
 */
#define FORS_COMPACT_SQUEEZE 50000000ull

/*
 * The planes each transfer may take instead of its own: with several LID
 * offsets per host, the planes of its (source leaf, destination) pair's
 * offsets (doc/narrow-lmc.md, "Offsets chosen by compaction").
 */
struct fors_compact_alts {
	uint32_t k;		/* planes per pair: 2^LMC */
	const int16_t *plane;	/* [(l * m0 * m1 + sid) * k + j]: offset j
				   of leaf l's routes to host sid,
				   FORS_NO_PLANE none */
};

/*
 * s, packed over pp's fixed planes (fors_schedule_pack), with fewer
 * phases where its transfers fit the others: the phase with the fewest is
 * emptied into the rest, by chains and then by a tabu search, until
 * neither can or the work is spent; with alts (else NULL) the search
 * moves a transfer onto another of its pair's planes too. Every
 * promise of fors_schedule_pack still holds but that phases only grow
 * and, with alts, that each transfer keeps its plane: it keeps one of
 * alts'. The phases keep their order. s changed in place; 0, or
 * FORS_ENOMEM (s as it was).
 */
int fors_schedule_compact(struct fors_schedule *s,
			  const struct fors_pack_params *pp,
			  const struct fors_compact_alts *alts);

#endif
