// SPDX-License-Identifier: MIT
/* fors eval on fabrics whose link loads are known by hand. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "verify/eval.h"
#include "formats/rankfile.h"
#include "fabric_util.h"
#include "route_util.h"
#include "suite.h"

/* Free what a test made; NULL is ignored. */
static void done(struct fors_eval *e, struct fors_lft_dump *d,
		 struct fors_route *r, struct fors_topology *t)
{
	fors_eval_free(e);
	fors_lft_dump_free(d);
	fors_route_free(r);
	fors_topology_free(t);
}

/* FT(2;2,2) routed by fors, with the LIDs it chose written into t. */
static struct fors_route *ft22(struct fors_topology **t)
{
	struct fors_netgen g = { 2, 2, 2, 1, NULL, 0, NULL, NULL, 0, 0 };
	struct fors_route *r;

	*t = gen_topology(&g);
	r = route_ok(*t, NULL, 1, "FT(2;2,2)");
	fors_topology_routed_lids(*t, r->fb, r->lfts);
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
/* ft22's tables with L00 sending both of L01's base LIDs up to S00. */
static struct fors_lft_dump *ft22_conflict(struct fors_topology **t,
					   struct fors_route **r)
{
	struct fors_lft_dump *d;
	uint32_t up;

	*r = ft22(t);
	d = dump_of(*r);
	up = port_to(*t, "L00", "S00");
	dump_switch(d, "L00")->port[(*r)->lfts->host_lid[2]] = (uint8_t)up;
	dump_switch(d, "L00")->port[(*r)->lfts->host_lid[3]] = (uint8_t)up;
	return d;
}

START_TEST(conflict)
{
	struct fors_topology *t;
	struct fors_route *r;
	struct fors_lft_dump *d = ft22_conflict(&t, &r);
	uint32_t up = port_to(t, "L00", "S00");
	struct fors_eval *e;

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
	done(e, d, r, t);
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
	done(e, d, r, t);
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
	done(NULL, d, r, t);
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
	done(e, d, r, t);
}
END_TEST

START_TEST(refusals)
{
	struct fors_netgen g = { 2, 2, 2, 1, NULL, 0, NULL, NULL, 0, 0 };
	struct fors_topology *t = gen_topology(&g);
	struct fors_pattern *p;
	struct fors_error err;

	ck_assert_int_eq(fors_pattern_shift(t, &p, &err), FORS_EINVAL);
	ck_assert_str_eq(err.msg, "the topology gives no LID for CA \"H000\" port 1: use ibnetdiscover output or fors route's fors-topology.txt");
	fors_topology_free(t);
}
END_TEST

static uint32_t node_named(const struct fors_topology *t, const char *desc)
{
	uint32_t i;

	for (i = 0; i < t->nnodes; i++)
		if (!strcmp(t->nodes[i].desc, desc))
			return i;
	ck_abort_msg("no node \"%s\"", desc);
	return 0;
}

/* A rank file read from text under the name "r". */
static struct fors_rankfile *ranks(const char *text)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	struct fors_rankfile *rf;
	struct fors_error err;

	ck_assert_ptr_nonnull(f);
	ck_assert_msg(fors_rankfile_read(f, "r", &rf, &err) == 0, "%s", err.msg);
	fclose(f);
	return rf;
}

/* p through d over t; p is freed. */
static struct fors_eval *run(const struct fors_topology *t,
			     const struct fors_lft_dump *d,
			     struct fors_pattern *p)
{
	struct fors_eval *e;
	struct fors_error err;

	ck_assert_msg(fors_eval_run(t, d, p, &e, &err) == 0, "%s", err.msg);
	fors_pattern_free(p);
	return e;
}

static struct fors_eval *shift_over(const struct fors_topology *t,
				    const struct fors_lft_dump *d,
				    const char *text)
{
	struct fors_rankfile *rf = ranks(text);
	struct fors_pattern *p;
	struct fors_error err;

	ck_assert_msg(fors_pattern_shift_ranks(t, rf, &p, &err) == 0, "%s",
		      err.msg);
	fors_rankfile_free(rf);
	return run(t, d, p);
}

/*
 * The shift over ranks listed in switch and port order is the linear
 * shift; in the order H000, H002, H001, H003, phases 1 and 3 send both of
 * L00's hosts to L01 over S00 and phase 2 stays within the leaves: 2 + 1
 * + 2 units where the linear shift takes 1 + 2 + 1.
 */
START_TEST(shift_over_ranks)
{
	struct fors_topology *t;
	struct fors_route *r;
	struct fors_lft_dump *d = ft22_conflict(&t, &r);
	struct fors_eval *e = shift(t, d), *f;
	uint32_t p, up = port_to(t, "L00", "S00");

	f = shift_over(t, d, "H000\nH001\nH002\nH003\n");
	ck_assert_uint_eq(f->nphases, 3);
	ck_assert_uint_eq(f->healthy, 3);
	for (p = 0; p < 3; p++) {
		ck_assert_uint_eq(f->phase[p].max_load, e->phase[p].max_load);
		ck_assert_uint_eq(f->phase[p].node, e->phase[p].node);
		ck_assert_uint_eq(f->phase[p].port, e->phase[p].port);
		ck_assert_uint_eq(f->phase[p].flows, 4);
	}
	ck_assert_uint_eq(f->time, 4);
	fors_eval_free(f);
	f = shift_over(t, d, "H000\nH002\nH001\nH003\n");
	ck_assert_uint_eq(f->phase[0].max_load, 2);
	ck_assert_uint_eq(f->phase[1].max_load, 1);
	ck_assert_uint_eq(f->phase[2].max_load, 2);
	for (p = 0; p < 3; p += 2) {
		ck_assert_str_eq(t->nodes[f->phase[p].node].desc, "L00");
		ck_assert_uint_eq(f->phase[p].port, up);
	}
	ck_assert_uint_eq(f->time, 5);
	ck_assert_uint_eq(f->lost, 0);
	fors_eval_free(f);
	done(e, d, r, t);
}
END_TEST

/*
 * Ranks 0 and 1 on H000 (slots=2), 2 on H002, 3 on H003: rank 0 to rank 1
 * and back stays off the network; in phase 2 both of H000's ranks send,
 * and its host link carries two transfers.
 */
START_TEST(shift_over_ranks_slots)
{
	struct fors_topology *t;
	struct fors_route *r = ft22(&t);
	struct fors_lft_dump *d = dump_of(r);
	struct fors_eval *e = shift_over(t, d, "H000 slots=2\nH002\nH003\n");

	ck_assert_uint_eq(e->nphases, 3);
	ck_assert_uint_eq(e->healthy, 3);
	ck_assert_uint_eq(e->phase[0].flows, 3);
	ck_assert_uint_eq(e->phase[1].flows, 4);
	ck_assert_uint_eq(e->phase[2].flows, 3);
	ck_assert_uint_eq(e->phase[0].max_load, 1);
	ck_assert_uint_eq(e->phase[1].max_load, 2);
	ck_assert_uint_eq(e->phase[2].max_load, 1);
	ck_assert_str_eq(t->nodes[e->phase[1].node].desc, "H000");
	ck_assert_uint_eq(e->phase[1].port, 1);
	ck_assert_uint_eq(e->time, 4);
	ck_assert_uint_eq(e->lost, 0);
	done(e, d, r, t);
}
END_TEST

/* A healthy FT(2;4,4) routed by fors at lmc, its LIDs in *t. */
static struct fors_route *ft44(struct fors_topology **t, uint32_t lmc)
{
	struct fors_netgen g = { 4, 4, 4, 1, NULL, 0, NULL, NULL, 0, 0 };
	struct fors_route *r;

	*t = gen_topology(&g);
	r = route_ok(*t, NULL, lmc, "FT(2;4,4)");
	fors_topology_routed_lids(*t, r->fb, r->lfts);
	return r;
}

static struct fors_pattern *perms(const struct fors_topology *t, uint32_t n,
				  uint64_t seed)
{
	struct fors_pattern *p;
	struct fors_error err;

	ck_assert_msg(fors_pattern_permutations(t, n, seed, &p, &err) == 0,
		      "%s", err.msg);
	return p;
}

/* Phase ph of permutations p: dst[i] the rank rank i sends to. */
static void phase_dst(const struct fors_pattern *p, uint32_t ph, uint32_t *dst)
{
	struct fors_flow buf[16];
	uint32_t perm[16], i, j;
	const struct fors_flow *f;
	size_t n;

	f = fors_pattern_phase(p, ph, buf, perm, &n);
	ck_assert_uint_eq(n, p->nranks);
	for (i = 0; i < n; i++) {
		ck_assert_uint_eq(f[i].snode, p->rank[i].node);
		for (j = 0; j < p->nranks; j++)
			if (f[i].dnode == p->rank[j].node && f[i].dport == p->rank[j].port)
				break;
		ck_assert_uint_lt(j, p->nranks);
		ck_assert_uint_eq(f[i].dlid, p->rank[j].lid);
		dst[i] = j;
	}
}

/* Every phase a derangement; the same for a seed, others for another. */
START_TEST(permutations_are_derangements)
{
	struct fors_topology *t;
	struct fors_route *r = ft44(&t, 2);
	struct fors_pattern *a = perms(t, 50, 1), *b = perms(t, 50, 1);
	struct fors_pattern *c = perms(t, 50, 2);
	uint32_t x[16], y[16], z[16], first[16], ph, i;
	int other_seed = 0, other_phase = 0;

	ck_assert_uint_eq(a->nranks, 16);
	ck_assert_uint_eq(a->nphases, 50);
	ck_assert_uint_eq(a->healthy, 50);
	for (ph = 0; ph < 50; ph++) {
		uint8_t seen[16] = { 0 };

		phase_dst(a, ph, x);
		phase_dst(b, ph, y);
		phase_dst(c, ph, z);
		for (i = 0; i < 16; i++) {
			ck_assert_uint_ne(x[i], i);
			ck_assert_uint_eq(seen[x[i]]++, 0);
			ck_assert_uint_eq(x[i], y[i]);
			other_seed |= x[i] != z[i];
			other_phase |= ph && x[i] != first[i];
			first[i] = ph ? first[i] : x[i];
		}
	}
	ck_assert(other_seed);
	ck_assert(other_phase);
	fors_pattern_free(a);
	fors_pattern_free(b);
	fors_pattern_free(c);
	done(NULL, NULL, r, t);
}
END_TEST

static void assert_derangement(const uint32_t *perm, uint32_t n)
{
	uint8_t seen[8] = { 0 };
	uint32_t i;

	for (i = 0; i < n; i++) {
		ck_assert_uint_ne(perm[i], i);
		ck_assert_uint_lt(perm[i], n);
		ck_assert_uint_eq(seen[perm[i]]++, 0);
	}
}

/* Past its tries, a shuffle's fixed points are repaired, never left. */
START_TEST(derangement_repaired)
{
	uint32_t perm[8], n, i, repaired = 0;
	uint64_t s = 1;

	for (n = 2; n <= 8; n++) {
		ck_assert_int_eq(fors_derange(perm, n, &s, 0), 1);
		assert_derangement(perm, n);
	}
	for (i = 0; i < 1000; i++) {
		repaired += fors_derange(perm, 7, &s, 1);
		assert_derangement(perm, 7);
	}
	/* about 1 - 1/e of single shuffles have a fixed point */
	ck_assert_uint_gt(repaired, 500);
	ck_assert_uint_lt(repaired, 760);
	ck_assert_int_eq(fors_derange(perm, 2, &s, 10000), 0);
	ck_assert_uint_eq(perm[0], 1);
}
END_TEST

/*
 * fors's tables on a healthy FT(2;4,4) send a base LID up to the spine of
 * its host's designated plane from every leaf: a phase's load on a leaf's
 * uplink to spine s is the flows to other leaves whose destination's plane
 * is on s, on s's downlink to a leaf those into it; host links carry one.
 */
static uint32_t load_by_hand(const struct fors_route *r,
			     const struct fors_flow *f, size_t n)
{
	const struct fors_fabric *fb = r->fb;
	uint32_t up[4][4] = { { 0 } }, down[4][4] = { { 0 } }, max = 1;
	uint32_t h, src = 0, dst = 0, s;
	size_t i;

	for (i = 0; i < n; i++) {
		for (h = 0; h < fb->nhosts; h++) {
			src = fb->hosts[h].node == f[i].snode ? h : src;
			dst = fb->hosts[h].node == f[i].dnode ? h : dst;
		}
		if (fb->hosts[src].sid / 4 == fb->hosts[dst].sid / 4)
			continue;
		s = fb->plane_spine[r->lfts->designated[dst]];
		if (++up[fb->hosts[src].sid / 4][s] > max)
			max = up[fb->hosts[src].sid / 4][s];
		if (++down[s][fb->hosts[dst].sid / 4] > max)
			max = down[s][fb->hosts[dst].sid / 4];
	}
	return max;
}

START_TEST(permutations_known_loads)
{
	struct fors_topology *t;
	struct fors_route *r = ft44(&t, 2);
	struct fors_lft_dump *d = dump_of(r);
	struct fors_pattern *p = perms(t, 200, 12345);
	struct fors_flow buf[16];
	const struct fors_flow *f;
	struct fors_eval *e;
	struct fors_error err;
	uint32_t perm[16], ph, want;
	uint64_t time = 0;
	size_t n;

	ck_assert_int_eq(fors_eval_run(t, d, p, &e, &err), 0);
	for (ph = 0; ph < 200; ph++) {
		f = fors_pattern_phase(p, ph, buf, perm, &n);
		want = load_by_hand(r, f, n);
		ck_assert_msg(e->phase[ph].max_load == want,
			      "phase %u: %u, by hand %u", ph,
			      e->phase[ph].max_load, want);
		time += want;
	}
	ck_assert_uint_eq(e->time, time);
	ck_assert_uint_gt(e->conflicts, 0);
	ck_assert_uint_eq(e->healthy, 200);
	ck_assert_uint_eq(e->flows, 200 * 16);
	ck_assert_uint_eq(e->lost, 0);
	fors_pattern_free(p);
	done(e, d, r, t);
}
END_TEST

/*
 * At LMC 2 each phase runs at base + 0..3 in turn: with H005's base + 2
 * routed nowhere, exactly the third copy of each phase loses its transfer
 * to H005, and the linear shift without offsets loses nothing.
 */
START_TEST(offsets_send_every_phase_at_each)
{
	struct fors_topology *t;
	struct fors_route *r = ft44(&t, 2);
	struct fors_lft_dump *d = dump_of(r);
	uint32_t lid = r->lfts->host_lid[5] + 2, i;
	struct fors_pattern *p;
	struct fors_error err;
	struct fors_eval *e;

	for (i = 0; i < d->nsw; i++)
		if (lid <= d->sw[i].maxlid)
			d->sw[i].port[lid] = FORS_NO_PORT;
	ck_assert_int_eq(fors_pattern_shift(t, &p, &err), 0);
	ck_assert_msg(fors_pattern_offsets(t, p, &err) == 0, "%s", err.msg);
	ck_assert_uint_eq(p->offsets, 4);
	e = run(t, d, p);
	ck_assert_uint_eq(e->nphases, 60);
	ck_assert_uint_eq(e->healthy, 60);
	ck_assert_uint_eq(e->flows, 16 * 15 * 4);
	ck_assert_uint_eq(e->lost, 15);
	for (i = 0; i < 60; i++)
		ck_assert_msg(e->phase[i].lost == (i % 4 == 2), "phase %u: %u lost",
			      i, e->phase[i].lost);
	ck_assert_uint_eq(e->time, 60);
	fors_eval_free(e);
	ck_assert_int_eq(fors_pattern_shift(t, &p, &err), 0);
	e = run(t, d, p);
	ck_assert_uint_eq(e->lost, 0);
	done(e, d, r, t);
}
END_TEST

static void offsets_refused(const struct fors_topology *t, const char *msg)
{
	struct fors_pattern *p;
	struct fors_error err;

	ck_assert_int_eq(fors_pattern_permutations(t, 2, 1, &p, &err), 0);
	ck_assert_int_eq(fors_pattern_offsets(t, p, &err), FORS_EINVAL);
	ck_assert_str_eq(err.msg, msg);
	fors_pattern_free(p);
}

START_TEST(offsets_refusals)
{
	struct fors_topology *t;
	struct fors_route *r = ft22(&t);
	uint8_t *lmc = &t->nodes[node_named(t, "H002")].ports[1].lmc;
	struct fors_pattern *p;
	struct fors_error err;

	*lmc = FORS_NO_LMC;
	offsets_refused(t, "the topology gives no LMC for CA \"H002\" port 1: ibnetdiscover output has it");
	*lmc = 0;
	offsets_refused(t, "CA \"H002\" port 1 has LMC 0, CA \"H000\" port 1 LMC 1: the host ports must agree");
	ck_assert_int_eq(fors_pattern_schedule(t, r->s, &p, &err), 0);
	ck_assert_int_eq(fors_pattern_offsets(t, p, &err), FORS_EINVAL);
	ck_assert_str_eq(err.msg, "a schedule's DLIDs choose its offsets: offsets apply to the other patterns");
	fors_pattern_free(p);
	done(NULL, NULL, r, t);
}
END_TEST

/* The rank file reader: a file it reads, and every refusal. */
START_TEST(rankfile_reads)
{
	struct fors_rankfile *rf = ranks(
		"# job 42\n\nh1 HCA-1 slots=2 max_slots=4 # two ranks\n"
		"\t0x2C903000FFE35\r\nh2");

	ck_assert_uint_eq(rf->nhosts, 3);
	ck_assert_uint_eq(rf->nranks, 4);
	ck_assert_str_eq(rf->host[0].name, "h1 HCA-1");
	ck_assert_uint_eq(rf->host[0].slots, 2);
	ck_assert_uint_eq(rf->host[0].line, 3);
	ck_assert_uint_eq(rf->host[0].guid, 0);
	ck_assert_uint_eq(rf->host[1].guid, 0x2c903000ffe35ull);
	ck_assert_uint_eq(rf->host[1].slots, 1);
	ck_assert_str_eq(rf->host[2].name, "h2");
	ck_assert_uint_eq(rf->host[2].line, 5);
	fors_rankfile_free(rf);
}
END_TEST

static const struct {
	const char *text;
	const char *msg;
} bad_rankfiles[] = {
	{ "\n", "r: no host in the rank file" },
	{ "# nodes\n\n", "r: no host in the rank file" },
	{ "h1\nh2 slots=0\n", "r:2: 'slots=0': expected slots=N with N in 1..65536" },
	{ "h1 slots=two\n", "r:1: 'slots=two': expected slots=N with N in 1..65536" },
	{ "h1 slots=65537\n", "r:1: 'slots=65537': expected slots=N with N in 1..65536" },
	{ "h1 slots=1 slots=2\n", "r:1: slots given twice" },
	{ "slots=2 h1\n", "r:1: expected a host name before 'slots=2'" },
	{ "h1 slots=2 h2\n", "r:1: expected key=value after the host name, got 'h2'" },
	{ "0xfoo\n", "r:1: '0xfoo' is not a port GUID (0x and 1 to 16 hex digits, not 0)" },
	{ "0x0\n", "r:1: '0x0' is not a port GUID (0x and 1 to 16 hex digits, not 0)" },
	{ "h1 slots=65536\nh2\n", "r:2: more than 65536 ranks" },
};

START_TEST(rankfile_rejects)
{
	const char *text = bad_rankfiles[_i].text;
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	struct fors_rankfile *rf = (void *)1;
	struct fors_error err;

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fors_rankfile_read(f, "r", &rf, &err), FORS_EFORMAT);
	ck_assert_ptr_null(rf);
	ck_assert_str_eq(err.msg, bad_rankfiles[_i].msg);
	fclose(f);
}
END_TEST

static void rankfile_refused(const char *text, size_t len, const char *msg)
{
	FILE *f = fmemopen((void *)text, len, "r");
	struct fors_rankfile *rf;
	struct fors_error err;

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fors_rankfile_read(f, "r", &rf, &err), FORS_EFORMAT);
	ck_assert_str_eq(err.msg, msg);
	fclose(f);
}

/* A line, a name and the lines each at their limit read, past it refused. */
START_TEST(rankfile_limits)
{
	size_t big = FORS_RANKFILE_LINES + 2;
	char line[1100], *text = malloc(big);
	struct fors_rankfile *rf;

	ck_assert_ptr_nonnull(text);
	memset(line, 'h', 255);
	memset(line + 255, ' ', 1024 - 255);
	memcpy(line + 255, " slots=1", 8);
	strcpy(line + 1024, "\n");
	rf = ranks(line);
	ck_assert_uint_eq(strlen(rf->host[0].name), 255);
	fors_rankfile_free(rf);
	strcpy(line + 1024, " \n");
	rankfile_refused(line, strlen(line), "r:1: a line longer than 1024 characters");
	memset(line, 'h', 256);
	strcpy(line + 256, " slots=1\n");
	rankfile_refused(line, strlen(line), "r:1: a host name longer than 255 characters");
	rankfile_refused("h1\nh\0\n", 6, "r:2: a NUL byte: not a text file");
	/* "h" and 2^20 empty lines */
	memset(text, '\n', big);
	text[0] = 'h';
	rankfile_refused(text, big, "r:1048577: more than 1048576 lines");
	free(text);
}
END_TEST

/*
 * One switch with two CAs whose descriptions share their first word, a
 * dual-port CA with both ports attached, an Aggregation Node and a CA on
 * no switch.
 */
static const char hosts_topology[] =
	"Switch 6 \"S\"\n"
	"[1] \"A\"[1]\n[2] \"B\"[1]\n[3] \"C\"[1]\n[4] \"C\"[2]\n[5] \"G\"[1]\n"
	"Ca 1 \"A\" # \"h1 HCA-1\"\n[1](a1) \"S\"[1] # lid 1 lmc 0\n"
	"Ca 1 \"B\" # \"h1 HCA-2\"\n[1](b1) \"S\"[2] # lid 2 lmc 0\n"
	"Ca 2 \"C\" # \"h2 mlx5_0\"\n[1](c1) \"S\"[3] # lid 3 lmc 0\n"
	"[2](c2) \"S\"[4] # lid 4 lmc 0\n"
	"Ca 1 \"G\" # \"sharp1 Aggregation Node\"\n[1](e1) \"S\"[5] # lid 5\n"
	"Ca 1 \"D\" # \"lonely\"\n";

static const struct {
	const char *text;
	const char *msg;
} unmatched[] = {
	{ "h1 HCA-1\nnohost\n", "r:2: no host \"nohost\" in the topology (a CA's node description, its first word, or a port GUID)" },
	{ "h1 HCA-1\nh1\n", "r:2: \"h1\" is ambiguous: CAs \"h1 HCA-1\" and \"h1 HCA-2\" both match (give the whole node description or a port GUID)" },
	{ "h2\n", "r:1: \"h2\" is CA \"h2 mlx5_0\", whose ports 1 and 2 are both attached: name one by its port GUID" },
	{ "sharp1\n", "r:1: \"sharp1\" is CA \"sharp1 Aggregation Node\", part of switch \"S\" (an Aggregation Node), not a host" },
	{ "lonely\n", "r:1: \"lonely\" is CA \"lonely\", which has no port on a switch" },
	{ "0xe1\n", "r:1: \"0xe1\" is CA \"sharp1 Aggregation Node\", part of switch \"S\" (an Aggregation Node), not a host" },
	{ "0xdead\n", "r:1: no host \"0xdead\" in the topology (a CA's node description, its first word, or a port GUID)" },
	{ "h1 HCA-2\n", "r: 1 rank: a shift needs two or more" },
};

START_TEST(ranks_refused)
{
	struct fors_topology *t = text_topology(hosts_topology);
	struct fors_rankfile *rf = ranks(unmatched[_i].text);
	struct fors_pattern *p = (void *)1;
	struct fors_error err;

	ck_assert_int_eq(fors_pattern_shift_ranks(t, rf, &p, &err), FORS_EINVAL);
	ck_assert_ptr_null(p);
	ck_assert_str_eq(err.msg, unmatched[_i].msg);
	fors_rankfile_free(rf);
	fors_topology_free(t);
}
END_TEST

/* The whole description, the port GUID: each names one port. */
START_TEST(ranks_matched)
{
	struct fors_topology *t = text_topology(hosts_topology);
	struct fors_rankfile *rf = ranks("h1 HCA-2\n0xc2 slots=2\nh1 HCA-1\n");
	struct fors_pattern *p;
	struct fors_error err;
	static const uint32_t lid[] = { 2, 4, 4, 1 };
	uint32_t i;

	ck_assert_msg(fors_pattern_shift_ranks(t, rf, &p, &err) == 0, "%s",
		      err.msg);
	ck_assert_uint_eq(p->nranks, 4);
	ck_assert_uint_eq(p->nphases, 3);
	ck_assert_uint_eq(p->healthy, 3);
	for (i = 0; i < 4; i++)
		ck_assert_uint_eq(p->rank[i].lid, lid[i]);
	ck_assert_uint_eq(p->rank[1].port, 2);
	fors_pattern_free(p);
	fors_rankfile_free(rf);
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
	tc = tcase_create("patterns");
	tcase_add_test(tc, shift_over_ranks);
	tcase_add_test(tc, shift_over_ranks_slots);
	tcase_add_test(tc, permutations_are_derangements);
	tcase_add_test(tc, derangement_repaired);
	tcase_add_test(tc, permutations_known_loads);
	tcase_add_test(tc, offsets_send_every_phase_at_each);
	tcase_add_test(tc, offsets_refusals);
	tcase_add_test(tc, rankfile_reads);
	tcase_add_loop_test(tc, rankfile_rejects, 0,
			    sizeof(bad_rankfiles) / sizeof(bad_rankfiles[0]));
	tcase_add_test(tc, rankfile_limits);
	tcase_add_loop_test(tc, ranks_refused, 0,
			    sizeof(unmatched) / sizeof(unmatched[0]));
	tcase_add_test(tc, ranks_matched);
	suite_add_tcase(su, tc);
	return run_suite(su);
}
