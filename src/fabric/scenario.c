// SPDX-License-Identifier: MIT
#include <stdlib.h>
#include <string.h>

#include "fabric/scenario.h"

struct fors_scenario *fors_scenario_new(uint32_t m0, uint32_t m1, uint32_t q)
{
	struct fors_scenario *sc = calloc(1, sizeof(*sc));

	if (!sc)
		return NULL;
	sc->m0 = m0;
	sc->m1 = m1;
	sc->q = q;
	sc->present = calloc((size_t)m0 * m1 + 1, 1);
	sc->live = calloc((size_t)m1 * q + 1, 1);
	if (!sc->present || !sc->live) {
		fors_scenario_free(sc);
		return NULL;
	}
	return sc;
}

void fors_scenario_free(struct fors_scenario *sc)
{
	if (!sc)
		return;
	free(sc->present);
	free(sc->live);
	free(sc);
}

struct fors_scenario *fors_scenario_of(const struct fors_fabric *fb)
{
	struct fors_scenario *sc = fors_scenario_new(fb->m0, fb->m1, fb->q);
	uint32_t i;

	if (!sc)
		return NULL;
	for (i = 0; i < fb->m0 * fb->m1; i++)
		sc->present[i] = fb->host_at[i] >= 0;
	for (i = 0; i < fb->m1 * fb->q; i++)
		sc->live[i] = fb->up[i] != 0;
	return sc;
}

static int alloc_fabric(struct fors_fabric *fb, const struct fors_scenario *sc)
{
	size_t lq = (size_t)sc->m1 * sc->q + 1, h = (size_t)sc->m0 * sc->m1;

	fb->leaf = malloc(sizeof(uint32_t) * sc->m1);
	fb->spine = malloc(sizeof(uint32_t) * sc->q);
	fb->plane_spine = malloc(sizeof(uint32_t) * sc->q);
	fb->plane_rank = calloc(sc->q, sizeof(uint32_t));
	fb->up = calloc(lq, sizeof(uint32_t));
	fb->down = calloc(lq, sizeof(uint32_t));
	fb->cable = calloc(lq, sizeof(int16_t));
	fb->impacted = calloc(sc->q, 1);
	fb->hosts = calloc(h + 1, sizeof(struct fors_fhost));
	fb->host_at = malloc(sizeof(int32_t) * (h + 1));
	return fb->leaf && fb->spine && fb->plane_spine && fb->plane_rank &&
	       fb->up && fb->down && fb->cable && fb->impacted && fb->hosts &&
	       fb->host_at;
}

/*
 * A scenario has no tables to route leaves without a common plane through
 * a third leaf (routing/detour.c): the first such pair, FORS_NOCOMMON.
 */
static int apart_pair(const struct fors_fabric *fb, uint32_t *bad,
		      uint32_t *bad2)
{
	for (*bad = 0; *bad < fb->m1; (*bad)++)
		for (*bad2 = 0; *bad2 < *bad; (*bad2)++)
			if (fors_leaf_serves(fb, *bad) &&
			    fors_leaf_serves(fb, *bad2) &&
			    !fors_leaves_common(fb, *bad, *bad2))
				return FORS_NOCOMMON;
	return 0;
}

int fors_scenario_fabric(const struct fors_scenario *sc,
			 struct fors_fabric **out, struct fors_error *err)
{
	struct fors_fabric *fb = calloc(1, sizeof(*fb));
	uint32_t l, p, i, bad = 0, bad2 = 0;
	int r;

	*out = NULL;
	if (!fb || !alloc_fabric(fb, sc)) {
		fors_fabric_free(fb);
		fors_error_set(err, "out of memory");
		return FORS_ENOMEM;
	}
	fb->m0 = sc->m0;
	fb->m1 = sc->m1;
	fb->q = fb->nspines = sc->q;
	for (l = 0; l < sc->m1; l++)
		fb->leaf[l] = l;
	for (p = 0; p < sc->q; p++)
		fb->spine[p] = fb->plane_spine[p] = p;
	for (i = 0; i < sc->m1 * sc->q; i++)
		fb->up[i] = fb->down[i] = sc->live[i] ? i % sc->q + 1 : 0;
	for (i = 0; i < sc->m0 * sc->m1; i++) {
		fb->host_at[i] = sc->present[i] ? (int32_t)fb->nhosts : -1;
		if (sc->present[i])
			fb->hosts[fb->nhosts++].sid = i;
	}
	r = fors_fabric_measure(fb, &bad, &bad2);
	if (!r && fb->apart)
		r = apart_pair(fb, &bad, &bad2);
	if (r) {
		if (r == FORS_NOUPLINK)
			fors_error_set(err, "leaf %u has hosts but no live plane",
				       bad);
		else if (r == FORS_NOPATH)
			fors_error_set(err, "no chain of live cables joins leaves %u and %u",
				       bad2, bad);
		else if (r == FORS_ENOMEM)
			fors_error_set(err, "out of memory");
		else
			fors_error_set(err, "leaves %u and %u share no live plane",
				       bad2, bad);
		fors_fabric_free(fb);
		return r == FORS_ENOMEM ? FORS_ENOMEM : FORS_EINVAL;
	}
	*out = fb;
	return 0;
}
