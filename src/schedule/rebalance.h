/* SPDX-License-Identifier: MIT */
#ifndef FORS_REBALANCE_H
#define FORS_REBALANCE_H

#include <stdint.h>

/* No transfer: a host idle in a phase. */
#define FORS_IDLE UINT32_MAX

/*
 * Phases as tables over hosts 0 .. nh - 1: send[p * nh + a] is whom a
 * sends to in phase p, recv[p * nh + b] who sends to b (FORS_IDLE: none).
 */
struct fors_phases {
	uint32_t t, nh, m1;
	uint32_t *send, *recv;
	const uint32_t *leaf;	/* [nh] */
	const uint32_t *cap;	/* [m1]: most transfers out of (and into)
				   the leaf per phase */
};

/* One transfer of a Kempe path: sender, receiver, the phase it is in. */
struct fors_kempe_hop {
	uint32_t s, r, p;
};

/*
 * The path (or even cycle) alternating between phases p and q through
 * p's transfer from a, into path (room for 2 nh + 2 hops); its length.
 */
uint32_t fors_kempe_path(const struct fors_phases *ph, uint32_t a, uint32_t p,
			 uint32_t q, struct fors_kempe_hop *path);

/*
 * Move transfers between phases along alternating paths (a Kempe swap of
 * two phases: every host still sends and receives at most once per
 * phase, every pair stays in exactly one) until no leaf sends or
 * receives more than its cap in any phase, or the budget of swaps tried
 * is spent. Seeded: the same tables give the same result. Returns the
 * transfers still over a cap (0: done); -1 when out of memory.
 */
int64_t fors_rebalance(struct fors_phases *ph, uint64_t budget,
		       uint64_t seed);

#endif
