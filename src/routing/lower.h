/* SPDX-License-Identifier: MIT */
#ifndef FORS_LOWER_H
#define FORS_LOWER_H

#include <stdint.h>

#include "fabric/fabric.h"

/* Most (leaf, host) pairs fors_map_lower moves. */
#define FORS_LOWER_MOVES 256

/*
 * map (routing/basemap.h's form) with its bound for the exchange
 * (leastused.h, fors_map_bound over joins) lowered toward cap, one
 * (source leaf, host) pair at a time (doc/narrow-lmc.md, "Lowered"): a
 * pair leaves a cable above cap for the plane alive at both its leaves
 * where the linear shift over map (fors_map_shift_time) takes least time,
 * both its new cables staying at cap or below and the shift's time at
 * most most_time; until no cable is above cap, no move is left, or
 * FORS_LOWER_MOVES. Single cables: a plane is a leaf's cable. 0, or
 * FORS_ENOMEM with map unchanged.
 */
int fors_map_lower(const struct fors_fabric *fb, const uint8_t *joins,
		   uint32_t cap, uint64_t most_time, uint16_t *map);

#endif
