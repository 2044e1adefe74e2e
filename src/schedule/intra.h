/* SPDX-License-Identifier: MIT */
#ifndef FORS_INTRA_H
#define FORS_INTRA_H

#include <stdint.h>

#include "schedule/schedule.h"
#include "schedule/inter.h"

/*
 * Phases for the m0 (m0 - 1) transfers inside one leaf, around the
 * inter-leaf pattern in. phase[a * (m0 - 1) + k] is the phase of slot a
 * sending to the k-th other slot. Returns the total phase count in *nphases.
 */
int intra_fill(const struct inter *in, uint32_t *phase, uint32_t *nphases,
	       struct fors_intra_info *info);

/* The index of slot a sending to slot b (b != a) among a leaf's edges. */
static inline uint32_t intra_edge(uint32_t m0, uint32_t a, uint32_t b)
{
	return a * (m0 - 1) + (b < a ? b : b - 1);
}

#endif
