// SPDX-License-Identifier: MIT
/*
 * OpenSM's minhop map of the base LIDs, and what a map allows: the linear
 * shift's and random permutations' time over it (the base map, basemap.c,
 * gives way to minhop's where it serves them less well: routing/route.c,
 * choose_map), and the fewest phases an exchange over its routes alone
 * can have. On small fabrics with absent or dual-port hosts the base
 * map's fallbacks can load a cable twice in phases where taking the
 * uplinks round robin in port order, as minhop does, does not
 * (doc/routing.md).
 */
#include <stdlib.h>
#include <string.h>

#include "routing/basemap.h"
#include "routing/leastused.h"

/* 1 when a sibling port of h already goes from l up p's spine (mFtree). */
static int sibling(const struct fors_fabric *fb, const uint32_t *group,
		   const uint32_t *next, const uint16_t *row, uint32_t h,
		   uint32_t p)
{
	uint32_t g;

	for (g = group ? group[h] : UINT32_MAX; g != UINT32_MAX; g = next[g])
		if (g != h && row[g] != FORS_BASEMAP_NONE &&
		    fb->plane_spine[row[g]] == fb->plane_spine[p])
			return 1;
	return 0;
}

/*
 * Leaf l's least used plane alive at l and at ld, off the spines h's
 * sibling ports take from l where one is left; FORS_BASEMAP_NONE if none.
 */
static uint16_t least(const struct fors_fabric *fb, const uint32_t *used,
		      const uint32_t *group, const uint32_t *next,
		      const uint16_t *row, uint32_t l, uint32_t ld, uint32_t h)
{
	uint32_t p, apart, best = FORS_BASEMAP_NONE;

	for (apart = 1; best == FORS_BASEMAP_NONE && apart < 3; apart++)
		for (p = 0; p < fb->q; p++)
			if (fors_plane_live(fb, l, p) &&
			    fors_plane_live(fb, ld, p) &&
			    (apart > 1 || !sibling(fb, group, next, row, h, p)) &&
			    (best == FORS_BASEMAP_NONE || used[p] < used[best]))
				best = p;
	return (uint16_t)best;
}

int fors_leastused_build(const struct fors_fabric *fb, const uint32_t *group,
			 const uint32_t *next, uint16_t *out)
{
	uint32_t *used = malloc(sizeof(uint32_t) * (fb->q + 1));
	uint32_t l, s, h, all = fb->m0 * fb->m1;

	if (!used)
		return FORS_ENOMEM;
	for (l = 0; l < fb->m1; l++) {
		uint16_t *row = out + (size_t)l * fb->nhosts;

		memset(used, 0, sizeof(uint32_t) * fb->q);
		for (h = 0; h < fb->nhosts; h++)
			row[h] = FORS_BASEMAP_NONE;
		for (s = 0; s < all; s++) {
			int32_t x = fb->host_at[s];

			if (x < 0 || s / fb->m0 == l)
				continue;
			row[x] = least(fb, used, group, next, row, l,
				       s / fb->m0, (uint32_t)x);
			if (row[x] != FORS_BASEMAP_NONE)
				used[row[x]]++;
		}
	}
	free(used);
	return 0;
}

/*
 * One phase: host from[i] sends to host to[i], i < n; the most transfers
 * on one cable, at least 1. load[] ([2 * m1 * q], up then down) is left
 * all 0.
 */
static uint32_t phase_load(const struct fors_fabric *fb, const uint16_t *map,
			   const uint32_t *from, const uint32_t *to,
			   uint32_t n, uint32_t *load)
{
	size_t down = (size_t)fb->m1 * fb->q;
	uint32_t i, most = 1, pass;

	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < n; i++) {
			uint32_t g = from[i], h = to[i];
			uint32_t ls = fb->hosts[g].sid / fb->m0;
			uint32_t ld = fb->hosts[h].sid / fb->m0;
			uint16_t pl = map[(size_t)ls * fb->nhosts + h];
			uint32_t *u, *d;

			if (ls == ld || pl == FORS_BASEMAP_NONE)
				continue;
			u = &load[(size_t)ls * fb->q + pl];
			d = &load[down + (size_t)ld * fb->q + pl];
			if (pass) {
				*u = *d = 0;
				continue;
			}
			most = ++*u > most ? *u : most;
			most = ++*d > most ? *d : most;
		}
	}
	return most;
}

/* splitmix64: the permutations' generator, the same on every machine. */
static uint64_t next_random(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/*
 * Phase p of pattern (0: the shift, p places on; 1: a random cyclic
 * permutation, Sattolo's, from *x) into to[], over hosts ord[0..n).
 */
static void phase_of(int pattern, const uint32_t *ord, uint32_t n,
		     uint32_t p, uint64_t *x, uint32_t *to)
{
	uint32_t i, j, t;

	for (i = 0; i < n; i++)
		to[i] = ord[(i + (pattern ? 0 : p)) % n];
	for (i = n - 1; pattern && n > 1 && i > 0; i--) {
		j = (uint32_t)(next_random(x) % i);
		t = to[i];
		to[i] = to[j];
		to[j] = t;
	}
}

/* The time of phases 1..last of pattern (phase_of()) over map. */
static uint64_t pattern_time(const struct fors_fabric *fb, const uint16_t *map,
			     int pattern, uint32_t last)
{
	uint32_t *ord = malloc(sizeof(uint32_t) * (2 * fb->nhosts + 1));
	uint32_t *load = calloc(2 * (size_t)fb->m1 * fb->q + 1,
				sizeof(uint32_t));
	uint32_t s, n = 0, p;
	uint64_t t = 0, x = 1;

	if (!ord || !load) {
		free(ord);
		free(load);
		return UINT64_MAX;
	}
	for (s = 0; s < fb->m0 * fb->m1; s++)
		if (fb->host_at[s] >= 0)
			ord[n++] = (uint32_t)fb->host_at[s];
	for (p = 1; p < (pattern ? last + 1 : n); p++) {
		phase_of(pattern, ord, n, p, &x, ord + n);
		t += phase_load(fb, map, ord, ord + n, n, load);
	}
	free(ord);
	free(load);
	return t;
}

uint64_t fors_map_shift_time(const struct fors_fabric *fb,
			     const uint16_t *map)
{
	return pattern_time(fb, map, 0, 0);
}

uint64_t fors_map_perm_time(const struct fors_fabric *fb, const uint16_t *map,
			    uint32_t nperm)
{
	return pattern_time(fb, map, 1, nperm);
}

uint32_t fors_map_bound(const struct fors_fabric *fb, const uint16_t *map,
			const uint8_t *joins)
{
	size_t n = (size_t)fb->m1 * fb->q;
	uint32_t *up = calloc(2 * n + 1, sizeof(uint32_t)), *dn = up + n;
	uint32_t g, h, most = 0, hosts = 0;

	if (!up)
		return UINT32_MAX;
	for (h = 0; h < fb->nhosts; h++) {
		uint32_t ld = fb->hosts[h].sid / fb->m0;

		hosts += !joins || joins[h];
		for (g = 0; (!joins || joins[h]) && g < fb->nhosts; g++) {
			uint32_t ls = fb->hosts[g].sid / fb->m0;
			uint16_t p = map[(size_t)ls * fb->nhosts + h];
			uint32_t u, d;

			if ((joins && !joins[g]) || ls == ld ||
			    p == FORS_BASEMAP_NONE)
				continue;
			u = ++up[(size_t)ls * fb->q + p];
			d = ++dn[(size_t)ld * fb->q + p];
			most = u > most ? u : most;
			most = d > most ? d : most;
		}
	}
	free(up);
	return hosts && hosts - 1 > most ? hosts - 1 : most;
}
