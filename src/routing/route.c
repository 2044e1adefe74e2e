// SPDX-License-Identifier: MIT
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "routing/route.h"

void fors_route_free(struct fors_route *r)
{
	if (!r)
		return;
	fors_fabric_free(r->fb);
	fors_schedule_free(r->s);
	fors_lfts_free(r->lfts);
	fors_offmap_free(r->om);
	free(r);
}

static int schedule(struct fors_route *r, struct fors_error *err)
{
	const struct fors_fabric *fb = r->fb;
	struct fors_sched_params sp = { fb->m0, fb->m1, fb->f, NULL };
	uint8_t *present = malloc((size_t)fb->m0 * fb->m1 + 1);
	uint32_t i;
	int e;

	if (!present) {
		fors_error_set(err, "out of memory");
		return FORS_ENOMEM;
	}
	for (i = 0; i < fb->m0 * fb->m1; i++)
		present[i] = fb->host_at[i] >= 0;
	sp.present = present;
	e = fors_schedule_build(&r->s, &sp, &r->intra, err);
	free(present);
	return e;
}

/*
 * Fewer offsets than planes: the planes of each leaf's offsets are chosen
 * with the phases (doc/narrow-lmc.md). A spine's table sends a LID down one
 * cable whatever leaf it came from, so parallel cables are not supported.
 */
static int narrow(struct fors_route *r, uint32_t lmc, struct fors_error *err)
{
	const struct fors_fabric *fb = r->fb;

	if (fb->q != fb->nspines) {
		fors_error_set(err, "LMC %u gives fewer LIDs per host than the %u planes, which fors supports with one cable per leaf and spine only (%u spines)",
			       lmc, fb->q, fb->nspines);
		return FORS_EINVAL;
	}
	return fors_assign_narrow(fb, r->s, 1u << lmc, &r->om, &r->assign, err);
}

/* The hook's schedule, or the native assignment. */
static int planes(struct fors_route *r, const struct fors_route_opts *o,
		  struct fors_error *err)
{
	uint32_t n = r->s->nphases;
	size_t i;

	if (o->lmc < 8 && (1u << o->lmc) < r->fb->q)
		return narrow(r, o->lmc, err);
	if (!o->planes || r->fb->m <= r->fb->f || o->planes(o->ctx, r->fb, &r->s))
		return fors_assign_planes(r->fb, r->s, &r->assign, err);
	r->assign.method = FORS_METHOD_ILP;
	r->assign.split = r->s->nphases - n;
	r->assign.unproven = 0;
	for (i = 0; i < r->s->nextra; i++) {
		free(r->s->extra[i].key);
		free(r->s->extra[i].value);
	}
	r->s->nextra = 0;
	return 0;
}

/* `method`, and `split` when phases had to be added. */
static int keys(struct fors_route *r)
{
	char n[16];

	if (fors_schedule_add_key(r->s, "method", fors_method_name(r->assign.method)))
		return FORS_ENOMEM;
	snprintf(n, sizeof(n), "%u", r->assign.split);
	return r->assign.split ? fors_schedule_add_key(r->s, "split", n) : 0;
}

int fors_route_compute(const struct fors_topology *live,
		       const struct fors_topology *ref,
		       const struct fors_route_opts *o, struct fors_route **out,
		       struct fors_error *err)
{
	struct fors_route *r = calloc(1, sizeof(*r));
	int e;

	*out = NULL;
	if (!r) {
		fors_error_set(err, "out of memory");
		return FORS_ENOMEM;
	}
	r->live = live;
	e = fors_fabric_analyse(live, ref, &r->fb, err);
	if (!e)
		e = schedule(r, err);
	if (!e)
		e = planes(r, o, err);
	if (!e)
		e = fors_lfts_build(live, r->fb, o->lmc, o->renumber_lids,
				    r->om, &r->lfts, err);
	if (!e)
		e = fors_lfts_annotate(r->lfts, live, r->fb, r->om, r->s, err);
	if (!e && keys(r)) {
		fors_error_set(err, "out of memory");
		e = FORS_ENOMEM;
	}
	if (e) {
		fors_route_free(r);
		return e;
	}
	*out = r;
	return 0;
}
