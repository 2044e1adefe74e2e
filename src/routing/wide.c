// SPDX-License-Identifier: MIT
/*
 * The base LIDs' own map with one offset per plane: two offsets of a
 * (leaf, host) pair trade planes, so the offsets stay a permutation of
 * the planes and a scheduled transfer's DLID is still the offset of its
 * plane (routing/routed.c).
 */
#include <stdlib.h>
#include <string.h>

#include "routing/basemap.h"
#include "routing/wide.h"

/* Offsets o of one pair: 0 on plane c, the one nominally on c on held. */
static void trade(uint32_t q, uint32_t d, uint16_t held, uint16_t c,
		  int16_t *o)
{
	uint32_t j = (c + q - d) % q;

	if (c == held || c == FORS_BASEMAP_NONE || held == FORS_BASEMAP_NONE)
		return;
	o[0] = (int16_t)c;
	if (j)
		o[j] = (int16_t)held;
}

int fors_offmap_wide(const struct fors_fabric *fb, const uint32_t *designated,
		     const uint16_t *held, const uint16_t *map, uint32_t lmc,
		     struct fors_offmap **out)
{
	size_t n = (size_t)fb->m1 * fb->nhosts, i;
	struct fors_offmap *om;
	uint32_t k = 1u << lmc;

	*out = NULL;
	if (!memcmp(held, map, sizeof(uint16_t) * n))
		return 0;
	om = malloc(sizeof(*om));
	if (!om)
		return FORS_ENOMEM;
	om->k = k;
	om->nhosts = fb->nhosts;
	om->plane = malloc(sizeof(int16_t) * (n * k + 1));
	if (!om->plane) {
		free(om);
		return FORS_ENOMEM;
	}
	for (i = 0; i < n * k; i++)
		om->plane[i] = -1;
	for (i = 0; i < n; i++)
		trade(fb->q, designated[i % fb->nhosts], held[i], map[i],
		      om->plane + i * k);
	*out = om;
	return 0;
}
