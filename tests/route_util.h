/* SPDX-License-Identifier: MIT */
#ifndef FORS_TESTS_ROUTE_UTIL_H
#define FORS_TESTS_ROUTE_UTIL_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verify/check.h"
#include "formats/lftdump.h"
#include "routing/route.h"

/* The route's tables written as a dump and read back, as fors check would. */
static inline struct fors_lft_dump *dump_of(const struct fors_route *r)
{
	struct fors_lft_dump *d;
	struct fors_error err;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fors_lfts_write(f, r->lfts, r->live, r->fb), 0);
	fclose(f);
	f = fmemopen(buf, len, "r");
	ck_assert_int_eq(fors_lft_dump_read(f, "dump", &d, &err), FORS_OK);
	fclose(f);
	free(buf);
	return d;
}

/*
 * Give live the LIDs r routed, as a subnet manager would have assigned
 * them: hosts, switches and the switches' own CAs; the topology's LIDs
 * are then the schedule's, and the checker follows every CA LID.
 */
static inline void with_lids(struct fors_topology *live,
			     const struct fors_route *r)
{
	const struct fors_fabric *fb = r->fb;
	uint32_t i;

	for (i = 0; i < fb->nhosts; i++)
		live->nodes[fb->hosts[i].node].ports[fb->hosts[i].port].lid =
			r->lfts->host_lid[i];
	for (i = 0; i < r->lfts->nsw; i++)
		live->nodes[r->lfts->sw[i]].lid = r->lfts->sw_lid[i];
	for (i = 0; i < fb->nparts; i++)
		live->nodes[fb->parts[i].node].ports[fb->parts[i].port].lid =
			r->lfts->part_lid[i];
}

static inline uint32_t lmc_for(uint32_t q)
{
	uint32_t l = 0;

	while ((1u << l) < q)
		l++;
	return l;
}

/*
 * Route with options o, verify through a dump (congestion-free phases,
 * every LID reachable, no credit loop); returns the route for more checks.
 */
static inline struct fors_route *route_ok_with(const struct fors_topology *live,
					       const struct fors_topology *ref,
					       const struct fors_route_opts *o,
					       const char *what)
{
	struct fors_check_report rep;
	struct fors_lft_dump *d;
	struct fors_route *r;
	struct fors_error err;
	int e;

	e = fors_route_compute(live, ref, o, &r, &err);
	ck_assert_msg(e == FORS_OK, "%s: %s", what, err.msg);
	d = dump_of(r);
	e = fors_check_routes(live, d, r->s, &rep, &err);
	ck_assert_msg(e == FORS_OK, "%s: %s (%u shared, %u undelivered, %u unreachable, schedule %u, credit loop %s)",
		      what, rep.nkept ? rep.kept[0] : err.msg, rep.shared,
		      rep.undelivered, rep.unreachable, rep.schedule,
		      rep.loop ? rep.cycle : "none");
	ck_assert_uint_eq(rep.max_load, 1);
	ck_assert_uint_eq(rep.loop, 0);
	ck_assert_uint_gt(rep.deps, 0);
	/*
	 * a phase is split only when proven infeasible, and minimally; with
	 * fewer offsets than planes, for the offsets already chosen
	 */
	ck_assert_msg(r->om || r->assign.unproven == 0, "%s: %u phases split unproven",
		      what, r->assign.unproven);
	fors_lft_dump_free(d);
	return r;
}

/* route_ok_with at LMC lmc, the schedule fors would choose. */
static inline struct fors_route *route_ok(const struct fors_topology *live,
					  const struct fors_topology *ref,
					  uint32_t lmc, const char *what)
{
	struct fors_route_opts o = { .lmc = lmc, .renumber_lids = 0 };

	return route_ok_with(live, ref, &o, what);
}

static inline struct fors_lft_switch *dump_switch(struct fors_lft_dump *d,
						  const char *desc)
{
	uint32_t i;

	for (i = 0; i < d->nsw; i++)
		if (!strcmp(d->sw[i].desc, desc))
			return &d->sw[i];
	ck_abort_msg("no switch %s in the dump", desc);
	return NULL;
}

static inline uint32_t port_to(const struct fors_topology *t, const char *from,
			       const char *to)
{
	uint32_t i, k;

	for (i = 0; i < t->nnodes; i++) {
		const struct fors_node *n = &t->nodes[i];

		for (k = 1; !strcmp(n->desc, from) && k <= n->nports; k++)
			if (n->ports[k].peer != FORS_NO_PEER &&
			    !strcmp(t->nodes[n->ports[k].peer].desc, to))
				return k;
	}
	ck_abort_msg("no link %s - %s", from, to);
	return 0;
}

#endif
