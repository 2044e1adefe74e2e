// SPDX-License-Identifier: MIT
/* fors eval on fabrics whose link loads are known by hand. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "verify/eval.h"
#include "fabric_util.h"
#include "route_util.h"
#include "suite.h"

/* FT(2;2,2) routed by fors, with the LIDs it chose written into t. */
static struct fors_route *ft22(struct fors_topology **t)
{
	struct fors_netgen g = { 2, 2, 2, 1, NULL, 0, NULL, NULL, 0, 0 };
	struct fors_route *r;
	uint32_t h;

	*t = gen_topology(&g);
	r = route_ok(*t, NULL, 1, "FT(2;2,2)");
	for (h = 0; h < r->fb->nhosts; h++)
		(*t)->nodes[r->fb->hosts[h].node].ports[1].lid = r->lfts->host_lid[h];
	return r;
}

static struct fors_eval *shift(const struct fors_topology *t,
			       const struct fors_lft_dump *d)
{
	struct fors_pattern *p;
	struct fors_eval *e;
	struct fors_error err;

	ck_assert_msg(fors_pattern_shift(t, &p, &err) == 0, "%s", err.msg);
	ck_assert_uint_eq(p->nphases, 3);
	ck_assert_uint_eq(p->healthy, 3);
	ck_assert_int_eq(fors_eval_run(t, d, p, &e, &err), 0);
	fors_pattern_free(p);
	return e;
}

/*
 * L00 sends both of L01's base LIDs up to S00: in phase 2 (0 -> 2 and
 * 1 -> 3) two transfers share L00 -> S00, every other phase has one per
 * link; 1 + 2 + 1 = 4 units for 3 healthy ones.
 */
START_TEST(conflict)
{
	struct fors_topology *t;
	struct fors_route *r = ft22(&t);
	struct fors_lft_dump *d = dump_of(r);
	struct fors_lft_switch *l0 = dump_switch(d, "L00");
	uint32_t up = port_to(t, "L00", "S00");
	struct fors_eval *e;

	l0->port[r->lfts->host_lid[2]] = (uint8_t)up;
	l0->port[r->lfts->host_lid[3]] = (uint8_t)up;
	e = shift(t, d);
	ck_assert_uint_eq(e->phase[1].max_load, 2);
	ck_assert_str_eq(t->nodes[e->phase[1].node].desc, "L00");
	ck_assert_uint_eq(e->phase[1].port, up);
	ck_assert_uint_eq(e->phase[0].max_load, 1);
	ck_assert_uint_eq(e->phase[2].max_load, 1);
	ck_assert_uint_eq(e->conflicts, 1);
	ck_assert_uint_eq(e->worst, 2);
	ck_assert_uint_eq(e->time, 4);
	ck_assert_uint_eq(e->lost, 0);
	ck_assert_uint_eq(e->flows, 12);
	ck_assert(e->relative > 0.749 && e->relative < 0.751);
	fors_eval_free(e);
	fors_lft_dump_free(d);
	fors_route_free(r);
	fors_topology_free(t);
}
END_TEST

/* The spine H001's base LID goes down through has no route for it. */
START_TEST(unreachable_pair)
{
	struct fors_topology *t;
	struct fors_route *r = ft22(&t);
	struct fors_lft_dump *d = dump_of(r);
	uint32_t lid = r->lfts->host_lid[1], s;
	struct fors_eval *e;

	s = r->fb->plane_spine[r->lfts->designated[1]];
	dump_switch(d, s ? "S01" : "S00")->port[lid] = FORS_NO_PORT;
	e = shift(t, d);
	ck_assert_uint_eq(e->lost, 2);	/* 3 -> 1 and 2 -> 1 */
	ck_assert_uint_eq(e->phase[1].lost + e->phase[2].lost, 2);
	ck_assert_uint_eq(e->worst, 1);
	fors_eval_free(e);
	fors_lft_dump_free(d);
	fors_route_free(r);
	fors_topology_free(t);
}
END_TEST

/*
 * fors eval of the schedule fors routes on g at LMC 2, through its own
 * tables; the schedule's phase count and planes into *nphases and *q.
 */
static struct fors_eval *own(const struct fors_netgen *g, const char *what,
			     uint32_t *nphases, uint32_t *q)
{
	struct fors_topology *t = gen_topology(g);
	struct fors_route *r = route_ok(t, NULL, 2, what);
	struct fors_lft_dump *d = dump_of(r);
	struct fors_pattern *p;
	struct fors_eval *e;
	struct fors_error err;

	ck_assert_msg(fors_pattern_schedule(t, r->s, &p, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(fors_eval_run(t, d, p, &e, &err), 0);
	*nphases = r->s->nphases;
	*q = r->s->q;
	fors_pattern_free(p);
	fors_lft_dump_free(d);
	fors_route_free(r);
	fors_topology_free(t);
	return e;
}

/* fors's own tables and schedule: what fors check says, in numbers. */
START_TEST(agrees_with_the_schedule)
{
	uint8_t failed[4 * 4] = { 0 };
	struct fors_netgen g = { 4, 4, 4, 1, NULL, 0, failed, NULL, 0, 0 };
	struct fors_eval *e;
	uint32_t n, q;

	failed[0] = 1;
	e = own(&g, "FT(2;4,4) 1F", &n, &q);
	ck_assert_uint_eq(e->nphases, n);
	ck_assert_uint_eq(e->conflicts, 0);
	ck_assert_uint_eq(e->worst, 1);
	ck_assert_uint_eq(e->lost, 0);
	ck_assert_uint_eq(e->flows, 16 * 15);
	ck_assert_uint_eq(e->healthy, 15);
	ck_assert_uint_eq(e->time, n);
	fors_eval_free(e);
}
END_TEST

/*
 * With empty slots the healthy reference is what fors schedules for the
 * hosts present with no failure, their bound: 13 hosts, 12 phases, not
 * Algorithm 1's 15 over the 16 slots; the cyclic schedule runs at it.
 * With a spine gone it is still the healthy tree's: 15, not 16.
 */
START_TEST(healthy_is_the_bound)
{
	uint8_t absent[16] = { 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0 };
	uint8_t dead[4] = { 0, 0, 1, 0 };
	struct fors_netgen g = { 4, 4, 4, 1, absent, 0, NULL, NULL, 0, 0 };
	struct fors_eval *e;
	uint32_t n, q;

	e = own(&g, "FT(2;4,4), 13 hosts", &n, &q);
	ck_assert_uint_eq(e->healthy, 12);
	ck_assert_uint_eq(e->time, 12);
	ck_assert(e->relative == 1.0);
	fors_eval_free(e);
	/* a spine gone, no reference: the file's Q is 3, the healthy tree's 4 */
	g.dead = dead;
	g.absent = NULL;
	e = own(&g, "FT(2;4,4), a spine gone", &n, &q);
	ck_assert_uint_eq(q, 3);
	ck_assert_uint_eq(e->healthy, 15);
	ck_assert_uint_eq(e->time, 16);
	fors_eval_free(e);
}
END_TEST

/*
 * The linear shift is over the hosts: the switches' Aggregation Nodes,
 * with their LIDs, take no part in it, and the exchange is conflict-free.
 */
START_TEST(shift_leaves_out_aggregation_nodes)
{
	struct fors_netgen g = { 2, 2, 2, 1, NULL, 0, NULL, NULL, 1, 0 };
	struct fors_topology *t = gen_topology(&g);
	struct fors_route *r = route_ok(t, NULL, 1, "FT(2;2,2), aggregation");
	struct fors_lft_dump *d;
	struct fors_eval *e;

	with_lids(t, r);
	ck_assert_uint_eq(r->fb->nparts, 4);
	d = dump_of(r);
	e = shift(t, d);
	ck_assert_uint_eq(e->lost, 0);
	fors_eval_free(e);
	fors_lft_dump_free(d);
	fors_route_free(r);
	fors_topology_free(t);
}
END_TEST

START_TEST(refusals)
{
	struct fors_netgen g = { 2, 2, 2, 1, NULL, 0, NULL, NULL, 0, 0 };
	struct fors_topology *t = gen_topology(&g);
	struct fors_pattern *p;
	struct fors_error err;

	ck_assert_int_eq(fors_pattern_shift(t, &p, &err), FORS_EINVAL);
	ck_assert_str_eq(err.msg, "the topology gives no LID for CA \"H000\" port 1: use ibnetdiscover output");
	fors_topology_free(t);
}
END_TEST

int main(void)
{
	Suite *su = suite_create("eval");
	TCase *tc = tcase_create("eval");

	tcase_add_test(tc, conflict);
	tcase_add_test(tc, unreachable_pair);
	tcase_add_test(tc, agrees_with_the_schedule);
	tcase_add_test(tc, healthy_is_the_bound);
	tcase_add_test(tc, shift_leaves_out_aggregation_nodes);
	tcase_add_test(tc, refusals);
	suite_add_tcase(su, tc);
	return run_suite(su);
}
