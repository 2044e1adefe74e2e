// SPDX-License-Identifier: MIT
/*
 * Credit loops: fors check finds them (a hand-made loop, the tables fors
 * wrote before the up-down construction, random tables against an oracle
 * of its own), and fors's tables have none, with every LID reachable, on
 * fabrics where no leaf reaches every spine.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "verify/check.h"
#include "formats/lftdump.h"
#include "routing/route.h"
#include "formats/schedfile.h"
#include "fabric_util.h"
#include "route_util.h"
#include "suite.h"

static void set_port(struct fors_lft_dump *d, const struct fors_topology *t,
		     const char *from, const char *to, uint32_t lid)
{
	dump_switch(d, from)->port[lid] = (uint8_t)port_to(t, from, to);
}

/*
 * FT(2;2,2): S00 reaches S01 through L01 and S01 reaches S00 through L00,
 * while data goes L00 -> S00 -> L01 and L01 -> S01 -> L00: every LID is
 * still delivered, but the four channels wait on each other in a ring.
 */
START_TEST(hand_made_loop)
{
	struct fors_netgen g = { 2, 2, 2, 1, NULL, 0, NULL, NULL, 0, 0 };
	struct fors_topology *t = gen_topology(&g);
	struct fors_route *r = route_ok(t, NULL, 1, "FT(2;2,2)");
	struct fors_lft_dump *d = dump_of(r);
	uint32_t s0 = dump_switch(d, "S00")->lid, s1 = dump_switch(d, "S01")->lid;
	struct fors_check_report rep;
	struct fors_error err;
	const char *sw[] = { "\"L00\"", "\"S00\"", "\"L01\"", "\"S01\"" };
	int i;

	set_port(d, t, "S00", "L01", s1);
	set_port(d, t, "L01", "S01", s1);
	set_port(d, t, "S01", "L00", s0);
	set_port(d, t, "L00", "S00", s0);
	ck_assert_int_eq(fors_check_routes(t, d, r->s, &rep, &err), FORS_EVERIFY);
	ck_assert_uint_eq(rep.loop, 1);
	ck_assert_uint_eq(rep.unreachable, 0);
	ck_assert_uint_eq(rep.undelivered, 0);
	for (i = 0; i < 4; i++)
		ck_assert_msg(strstr(rep.cycle, sw[i]), "%s", rep.cycle);
	ck_assert_int_eq(fors_check_tables(t, d, 1, &rep, &err), FORS_EVERIFY);
	ck_assert_uint_eq(rep.loop, 1);
	fors_lft_dump_free(d);
	fors_route_free(r);
	fors_topology_free(t);
}
END_TEST

/*
 * Tables fors 5abe188 wrote for FT(2;4,4) with L00-S00 cut: its detours
 * turned at different leaves and closed a loop. Today's tables for the
 * same fabric have none.
 */
START_TEST(loop_before_updown)
{
	struct fors_topology *t = fixture("ft-4-4-1f.net");
	struct fors_check_report rep;
	struct fors_schedule *s;
	struct fors_lft_dump *d;
	struct fors_route *r;
	struct fors_error err;
	char p[512];

	ck_assert_int_eq(fors_lft_dump_read_file(data_path("ft-4-4-1f-lfts-5abe188.dump",
							   p, sizeof(p)), &d, &err), 0);
	ck_assert_int_eq(fors_schedule_read_file(data_path("ft-4-4-1f-schedule-5abe188.dump",
							   p, sizeof(p)), &s, &err), 0);
	ck_assert_int_eq(fors_check_routes(t, d, s, &rep, &err), FORS_EVERIFY);
	ck_assert_uint_eq(rep.loop, 1);
	ck_assert_uint_eq(rep.shared + rep.undelivered + rep.unreachable, 0);
	r = route_ok(t, NULL, 2, "FT(2;4,4) 1F");
	fors_route_free(r);
	fors_schedule_free(s);
	fors_lft_dump_free(d);
	fors_topology_free(t);
}
END_TEST

/* An oracle: packets walked from every switch, cycles found by Kahn. */
struct oracle {
	const struct fors_topology *t;
	const struct fors_lft_dump *d;
	int32_t *table;		/* per node */
	uint32_t *base;		/* per node: first channel */
	uint32_t nchan;
	uint8_t *edge;		/* [nchan * nchan] */
	size_t nedge;
};

static uint32_t next_port(const struct oracle *o, uint32_t x, uint32_t lid)
{
	const struct fors_lft_switch *w = &o->d->sw[o->table[x]];
	uint32_t k = lid <= w->maxlid ? w->port[lid] : FORS_NO_PORT;

	if (k == 0 || k > o->t->nodes[x].nports ||
	    o->t->nodes[x].ports[k].peer == FORS_NO_PEER)
		return FORS_NO_PORT;
	return k;
}

static void edge(struct oracle *o, uint32_t a, uint32_t b)
{
	uint8_t *e = &o->edge[(size_t)a * o->nchan + b];

	o->nedge += !*e;
	*e = 1;
}

static void walk(struct oracle *o, uint32_t x, uint32_t lid)
{
	uint32_t hops, prev = UINT32_MAX;

	for (hops = 0; hops < 64 && o->table[x] >= 0; hops++) {
		uint32_t k = next_port(o, x, lid), i;

		if (k == FORS_NO_PORT)
			return;
		if (prev != UINT32_MAX)
			edge(o, prev, o->base[x] + k);
		for (i = 1; !hops && i <= o->t->nodes[x].nports; i++) {
			const struct fors_port *p = &o->t->nodes[x].ports[i];

			if (i != k && p->peer != FORS_NO_PEER &&
			    o->t->nodes[p->peer].type == FORS_CA)
				edge(o, o->base[p->peer] + p->peer_port,
				     o->base[x] + k);
		}
		prev = o->base[x] + k;
		x = o->t->nodes[x].ports[k].peer;
	}
}

/* 1 when the dependencies have a cycle: Kahn's order leaves some behind. */
static int kahn(const struct oracle *o)
{
	uint32_t *in = calloc(o->nchan, sizeof(uint32_t));
	uint32_t *queue = malloc(sizeof(uint32_t) * o->nchan);
	uint32_t a, b, head = 0, tail = 0;

	ck_assert(in && queue);
	for (a = 0; a < o->nchan; a++)
		for (b = 0; b < o->nchan; b++)
			in[b] += o->edge[(size_t)a * o->nchan + b] != 0;
	for (a = 0; a < o->nchan; a++)
		if (!in[a])
			queue[tail++] = a;
	while (head < tail) {
		a = queue[head++];
		for (b = 0; b < o->nchan; b++)
			if (o->edge[(size_t)a * o->nchan + b] && !--in[b])
				queue[tail++] = b;
	}
	free(in);
	free(queue);
	return tail < o->nchan;
}

static int oracle_loop(const struct fors_topology *t,
		       const struct fors_lft_dump *d, size_t *deps)
{
	struct oracle o = { t, d, NULL, NULL, 0, NULL, 0 };
	uint32_t x, i, lid, top = 0;
	int loop;

	o.table = malloc(sizeof(int32_t) * t->nnodes);
	o.base = malloc(sizeof(uint32_t) * t->nnodes);
	ck_assert(o.table && o.base);
	for (x = 0; x < t->nnodes; x++) {
		o.base[x] = o.nchan;
		o.nchan += t->nodes[x].nports + 1;
		o.table[x] = -1;
		for (i = 0; i < d->nsw; i++)
			if (!strcmp(d->sw[i].desc, t->nodes[x].desc))
				o.table[x] = (int32_t)i;
	}
	for (i = 0; i < d->nsw; i++)
		top = d->sw[i].maxlid > top ? d->sw[i].maxlid : top;
	o.edge = calloc((size_t)o.nchan * o.nchan, 1);
	ck_assert_ptr_nonnull(o.edge);
	for (lid = 1; lid <= top; lid++)
		for (x = 0; x < t->nnodes; x++)
			walk(&o, x, lid);
	loop = kahn(&o);
	*deps = o.nedge;
	free(o.edge);
	free(o.table);
	free(o.base);
	return loop;
}

/*
 * Random entries written over fors's tables: fors check and the oracle
 * must agree on the loop and on the number of dependencies.
 */
START_TEST(random_tables_against_oracle)
{
	struct fors_netgen g = { 3, 4, 3, 1, NULL, 0, NULL, NULL, 0, 0 };
	struct fors_topology *t = gen_topology(&g);
	struct fors_route *r = route_ok(t, NULL, 2, "FT(2;3,4)");
	int trial, loops = 0;

	test_rng = 0x10095u + (uint64_t)_i;
	for (trial = 0; trial < 60; trial++) {
		struct fors_lft_dump *d = dump_of(r);
		struct fors_check_report rep;
		struct fors_error err;
		uint32_t n = 1 + rnd() % 12, i;
		size_t deps;
		int loop;

		for (i = 0; i < n; i++) {
			struct fors_lft_switch *w = &d->sw[rnd() % d->nsw];
			uint32_t lid = 1 + rnd() % w->maxlid;

			w->port[lid] = (uint8_t)(rnd() % 8 ? 1 + rnd() % 6 :
						 FORS_NO_PORT);
		}
		loop = oracle_loop(t, d, &deps);
		fors_check_tables(t, d, 2, &rep, &err);
		ck_assert_uint_eq(rep.loop, (uint32_t)loop);
		ck_assert_uint_eq(rep.deps, deps);
		loops += loop;
		fors_lft_dump_free(d);
	}
	/* both verdicts came up, so agreeing meant something */
	ck_assert_int_gt(loops, 5);
	ck_assert_int_lt(loops, 55);
	fors_route_free(r);
	fors_topology_free(t);
}
END_TEST

/* Does some live leaf reach every live spine? */
static int full_leaf(const struct fors_route *r)
{
	const struct fors_fabric *fb = r->fb;
	uint32_t l, s, p;

	for (l = 0; l < fb->m1; l++) {
		uint32_t reached = 0;

		for (s = 0; s < fb->nspines; s++) {
			for (p = 0; p < fb->q; p++)
				if (fb->plane_spine[p] == s &&
				    fors_plane_live(fb, l, p))
					break;
			reached += p < fb->q || fb->spine[s] == FORS_NO_PEER;
		}
		if (reached == fb->nspines)
			return 1;
	}
	return 0;
}

/* FT(2;20,18) with leaf l cut from spine l: no leaf reaches every spine. */
START_TEST(lhcb_no_full_leaf)
{
	uint8_t failed[18 * 20] = { 0 };
	struct fors_netgen g = { 20, 18, 20, 1, NULL, 0, failed, NULL, 0, 0 };
	struct fors_topology *live;
	struct fors_route *r;
	uint32_t l;

	for (l = 0; l < 18; l++)
		failed[l * 20 + (l + _i) % 20] = 1;
	live = gen_topology(&g);
	r = route_ok(live, NULL, 5, "FT(2;20,18), one cut per leaf");
	ck_assert_int_eq(full_leaf(r), 0);
	fors_route_free(r);
	fors_topology_free(live);
}
END_TEST

/*
 * Seeded FT(2;8,8) with dual-port nodes, parallel cables, dead spines and
 * failures up to half the bandwidth, many with no leaf reaching every
 * spine: every routed one free of credit loops and fully reachable.
 */
START_TEST(random_no_full_leaf)
{
	int trial, routed = 0, partial = 0;

	test_rng = 0xdead10cu + (uint64_t)_i;
	for (trial = 0; trial < 12; trial++) {
		uint32_t cables = 1 + rnd() % 2, ns = 8 / cables, i;
		uint8_t failed[8 * 8 * 2] = { 0 }, dead[8] = { 0 };
		struct fors_netgen g = { 8, 8, ns, cables, NULL, 2, failed, dead, 0, 0 };
		struct fors_netgen h = { 8, 8, ns, cables, NULL, 2, NULL, NULL, 0, 0 };
		struct fors_topology *live, *ref;
		struct fors_route_opts o = { .lmc = 3, .renumber_lids = 0 };
		struct fors_route *r;
		struct fors_error err;

		dead[rnd() % ns] = rnd() % 3 == 0;
		for (i = 0; i < 8; i++)	/* one cut on every leaf, then more */
			failed[(i * ns + rnd() % ns) * cables] = 1;
		for (i = rnd() % 16; i > 0; i--)
			failed[rnd() % (8 * ns * cables)] = 1;
		live = gen_topology(&g);
		ref = gen_topology(&h);
		if (fors_route_compute(live, ref, &o, &r, &err) == FORS_OK) {
			partial += !full_leaf(r);
			fors_route_free(r);
			r = route_ok(live, ref, 3, "FT(2;8,8) random");
			fors_route_free(r);
			routed++;
		} else {
			ck_assert_msg(strstr(err.msg, "no chain of live cables") ||
				      strstr(err.msg, "no live uplink"), "%s",
				      err.msg);
		}
		fors_topology_free(live);
		fors_topology_free(ref);
	}
	ck_assert_int_gt(routed, 6);
	ck_assert_int_gt(partial, 3);
}
END_TEST

int main(void)
{
	Suite *su = suite_create("deadlock");
	TCase *tc = tcase_create("deadlock");

	tcase_add_test(tc, hand_made_loop);
	tcase_add_test(tc, loop_before_updown);
	tcase_add_loop_test(tc, random_tables_against_oracle, 0, 4);
	tcase_add_loop_test(tc, lhcb_no_full_leaf, 0, 3);
	tcase_add_loop_test(tc, random_no_full_leaf, 0, 6);
	tcase_set_timeout(tc, 0);
	suite_add_tcase(su, tc);
	return run_suite(su);
}
