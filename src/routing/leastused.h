/* SPDX-License-Identifier: MIT */
#ifndef FORS_LEASTUSED_H
#define FORS_LEASTUSED_H

#include <stdint.h>

#include "fabric/fabric.h"

/*
 * The map OpenSM's minhop engine gives a host's base LID, in the base
 * map's form (routing/basemap.h, [m1 * nhosts]): each leaf takes the
 * hosts of the other leaves in port order and sends each through the
 * plane alive at both leaves that it has used least so far, the lowest
 * on a tie; with group (NULL: none) and next as fors_nominal's, off the
 * spines an earlier sibling port takes from that leaf where one is left
 * (mFtree, which minhop does not know). 0, or FORS_ENOMEM.
 */
int fors_leastused_build(const struct fors_fabric *fb, const uint32_t *group,
			 const uint32_t *next, uint16_t *out);

/*
 * Most hosts whose shift and permutations are followed to compare the
 * maps (routing/route.c, choose_map): the shift alone is 2 x 512^2 steps,
 * 20 ms (2,048 hosts would add 300 ms to a 145 ms routing); every map
 * weighed, 35 to 75 ms at 326 hosts. The base map was seen to lose to
 * minhop's on fabrics of up to 88 hosts.
 */
#define FORS_LEASTUSED_HOSTS 512

/*
 * The linear shift over map, hosts in leaf and port order (fors eval's
 * --linear-shift): the sum over its phases of the most transfers on one
 * cable between a leaf and a spine, at least 1 a phase. UINT64_MAX when
 * out of memory.
 */
uint64_t fors_map_shift_time(const struct fors_fabric *fb,
			     const uint16_t *map);

/*
 * As fors_map_shift_time, over nperm random cyclic permutations of the
 * hosts (Sattolo's, from a fixed seed: the same phases for every map).
 */
uint64_t fors_map_perm_time(const struct fors_fabric *fb, const uint16_t *map,
			    uint32_t nperm);

/*
 * The most transfers one cable between a leaf and a spine carries when
 * every host of joins (NULL: every host) sends to every other over map,
 * or the joined hosts less one if more: no schedule whose transfers all
 * take map's routes has fewer phases. UINT32_MAX when out of memory.
 */
uint32_t fors_map_bound(const struct fors_fabric *fb, const uint16_t *map,
			const uint8_t *joins);

#endif
