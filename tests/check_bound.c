// SPDX-License-Identifier: MIT
/*
 * The bound T*: hand-counted fabrics, and an independent oracle. CBC
 * solves the transportation problem (every leaf pair's transfers split
 * over the spines, no cable above T per cable) on small random fabrics, as
 * an LP and in integers: fors's bound must never pass the integer optimum
 * (it would not be a lower bound) and must reach the LP's, rounded up.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "schedule/bound.h"
#include "suite.h"

#define MAXL 6
#define MAXS 6
#define RANDL 5		/* most leaves of the random fabrics */
#define RANDS 4		/* spines of the random fabrics */

struct inst {
	uint32_t nl, ns;
	uint32_t hosts[MAXL];
	uint32_t cables[MAXL * MAXS];
};

static int bound_of(const struct inst *x, struct fors_bound *b)
{
	struct fors_bound_fabric bf = { x->nl, x->ns, x->hosts, x->cables };
	struct fors_error err;

	return fors_bound_compute(&bf, b, &err);
}

/* A full fat tree: n hosts on each of nl leaves, c cables to ns spines. */
static void full(struct inst *x, uint32_t nl, uint32_t ns, uint32_t n,
		 uint32_t c)
{
	uint32_t i;

	memset(x, 0, sizeof(*x));
	x->nl = nl;
	x->ns = ns;
	for (i = 0; i < nl; i++)
		x->hosts[i] = n;
	for (i = 0; i < nl * ns; i++)
		x->cables[i] = c;
}

START_TEST(counted_by_hand)
{
	struct inst x;
	struct fors_bound b;

	full(&x, 4, 4, 4, 1);
	ck_assert_int_eq(bound_of(&x, &b), 0);
	ck_assert_uint_eq(b.t, 15);
	ck_assert_int_eq(b.term, FORS_BOUND_HOSTS);
	/* leaf 0 with 2 uplinks: 4 * 12 transfers out over 2 cables */
	x.cables[0] = x.cables[1] = 0;
	ck_assert_int_eq(bound_of(&x, &b), 0);
	ck_assert_uint_eq(b.t, 24);
	ck_assert_int_eq(b.term, FORS_BOUND_LEAF);
	ck_assert_uint_eq(b.a, 0);
	/* leaves 0 and 1 share only spine 3: 16 transfers over 1 cable */
	full(&x, 4, 6, 4, 1);
	x.cables[4] = x.cables[5] = 0;
	x.cables[6] = x.cables[7] = x.cables[8] = 0;
	ck_assert_int_eq(bound_of(&x, &b), 0);
	ck_assert_uint_eq(b.t, 16);
	ck_assert_int_eq(b.term, FORS_BOUND_PAIR);
	ck_assert_uint_eq(b.a, 0);
	ck_assert_uint_eq(b.b, 1);
	/* parallel cables count at the smaller side */
	full(&x, 2, 1, 6, 2);
	ck_assert_int_eq(bound_of(&x, &b), 0);
	ck_assert_uint_eq(b.t, 18);
	x.cables[1] = 3;
	ck_assert_int_eq(bound_of(&x, &b), 0);
	ck_assert_uint_eq(b.t, 18);
}
END_TEST

START_TEST(no_common_spine)
{
	struct inst x;
	struct fors_bound b;
	struct fors_bound_fabric bf;
	struct fors_error err;

	full(&x, 3, 2, 2, 1);
	x.cables[0] = x.cables[2 * 2 + 1] = 0;
	bf = (struct fors_bound_fabric){ x.nl, x.ns, x.hosts, x.cables };
	ck_assert_int_eq(fors_bound_compute(&bf, &b, &err), 0);
	ck_assert_uint_eq(b.t, 8);	/* leaf 0's 8 over its one cable */
	ck_assert_int_eq(b.term, FORS_BOUND_LEAF);
	x.hosts[2] = 0;
	ck_assert_int_eq(bound_of(&x, &b), 0);
	ck_assert_uint_eq(b.t, 4);
}
END_TEST

/*
 * A fabric only the flow term sees (found by the oracle below, seed
 * 0x5eed): hosts 3, 1, 1, 2 on leaves 1 to 4, N - 1 = 6, no leaf and no
 * pair needs more than 8 phases, yet CBC's LP and integer optimum of the
 * transportation problem are both 9.
 */
START_TEST(flow_term)
{
	struct inst x = { 5, 4, { 0, 3, 1, 1, 2 },
			  { 2, 1, 1, 1, 0, 1, 2, 0, 1, 1,
			    2, 1, 0, 1, 0, 1, 2, 1, 0, 2 } };
	struct fors_bound b;

	ck_assert_int_eq(bound_of(&x, &b), 0);
	ck_assert_uint_eq(b.t, 9);
	ck_assert_int_eq(b.term, FORS_BOUND_FLOW);
}
END_TEST

/*
 * A seeded fabric of tests/check_route (FT(2;7,6), 37 hosts, single
 * cables) where leaf 5 reaches leaves 0 and 3 only through spine 5: its
 * one cable there carries 2 x 36 transfers, so 72 phases (glpsol's LP and
 * integer optimum). The weight search's own lengths gave 62; the
 * bottleneck of its average flow gives 72.
 */
START_TEST(bottleneck)
{
	struct inst x = { 6, 6, { 6, 7, 7, 6, 5, 6 },
			  { 0, 1, 1, 0, 0, 1,
			    1, 1, 1, 1, 0, 1,
			    1, 1, 1, 1, 0, 0,
			    0, 1, 1, 0, 1, 1,
			    1, 1, 0, 1, 0, 0,
			    1, 0, 0, 1, 0, 1 } };
	struct fors_bound b;

	ck_assert_int_eq(bound_of(&x, &b), 0);
	ck_assert_uint_eq(b.t, 72);
	ck_assert_int_eq(b.term, FORS_BOUND_FLOW);
}
END_TEST

/* The transportation problem in CPLEX-LP, integer or not. */
static void write_lp(FILE *o, const struct inst *x, int integer)
{
	uint32_t l, k, s, n = 0;

	for (l = 0; l < x->nl; l++)
		n += x->hosts[l];
	fprintf(o, "Minimize\n obj: T\nSubject To\n h: T >= %u\n",
		n ? n - 1 : 0);
	for (l = 0; l < x->nl; l++)
		for (k = 0; k < x->nl; k++) {
			if (l == k || !x->hosts[l] || !x->hosts[k])
				continue;
			fprintf(o, " d%u_%u: 0 T", l, k);
			for (s = 0; s < x->ns; s++)
				if (x->cables[l * x->ns + s] && x->cables[k * x->ns + s])
					fprintf(o, " + x%u_%u_%u", l, k, s);
			fprintf(o, " = %u\n", x->hosts[l] * x->hosts[k]);
		}
	for (l = 0; l < x->nl; l++)
		for (s = 0; s < x->ns; s++) {
			fprintf(o, " u%u_%u: - %u T", l, s, x->cables[l * x->ns + s]);
			for (k = 0; k < x->nl; k++)
				if (k != l && x->hosts[l] && x->hosts[k] &&
				    x->cables[l * x->ns + s] && x->cables[k * x->ns + s])
					fprintf(o, " + x%u_%u_%u", l, k, s);
			fprintf(o, " <= 0\n v%u_%u: - %u T", l, s,
				x->cables[l * x->ns + s]);
			for (k = 0; k < x->nl; k++)
				if (k != l && x->hosts[l] && x->hosts[k] &&
				    x->cables[l * x->ns + s] && x->cables[k * x->ns + s])
					fprintf(o, " + x%u_%u_%u", k, l, s);
			fprintf(o, " <= 0\n");
		}
	if (integer) {
		fprintf(o, "General\n T\n");
		for (l = 0; l < x->nl; l++)
			for (k = 0; k < x->nl; k++)
				for (s = 0; s < x->ns; s++)
					if (k != l && x->hosts[l] && x->hosts[k] &&
					    x->cables[l * x->ns + s] &&
					    x->cables[k * x->ns + s])
						fprintf(o, " x%u_%u_%u\n", l, k, s);
	}
	fprintf(o, "End\n");
}

/* CBC's optimum of write_lp's problem, in dir. */
static double cbc_optimum(const struct inst *x, int integer, const char *dir)
{
	char lp[256], sol[256], cmd[800], line[256];
	double v = -1;
	FILE *o;

	snprintf(lp, sizeof(lp), "%s/t.lp", dir);
	snprintf(sol, sizeof(sol), "%s/t.sol", dir);
	o = fopen(lp, "w");
	ck_assert_ptr_nonnull(o);
	write_lp(o, x, integer);
	fclose(o);
	snprintf(cmd, sizeof(cmd), "cbc %s solve solu %s >/dev/null 2>&1", lp, sol);
	ck_assert_int_eq(system(cmd), 0);
	o = fopen(sol, "r");
	ck_assert_ptr_nonnull(o);
	ck_assert_ptr_nonnull(fgets(line, sizeof(line), o));
	fclose(o);
	ck_assert_msg(sscanf(line, "Optimal - objective value %lf", &v) == 1,
		      "cbc: %s", line);
	return v;
}

static void random_inst(struct inst *x)
{
	uint32_t i;

	x->nl = 2 + rnd() % (RANDL - 1);
	x->ns = 1 + rnd() % RANDS;
	for (i = 0; i < x->nl; i++)
		x->hosts[i] = rnd() % 5;
	for (i = 0; i < x->nl * x->ns; i++)
		x->cables[i] = rnd() % 4 == 0 ? 0 : 1 + rnd() % 3 / 2;
}

/* Two leaves with hosts and no common spine: the oracle's paths miss. */
static int apart(const struct inst *x)
{
	uint32_t l, k, s, c;

	for (l = 0; l < x->nl; l++)
		for (k = l + 1; k < x->nl; k++) {
			for (c = 0, s = 0; s < x->ns; s++)
				c += x->cables[l * x->ns + s] &&
				     x->cables[k * x->ns + s];
			if (x->hosts[l] && x->hosts[k] && !c)
				return 1;
		}
	return 0;
}

START_TEST(cbc_oracle)
{
	char dir[] = "/tmp/check_bound.XXXXXX", cmd[64];
	uint32_t i, tried = 0, flow = 0;
	struct fors_bound b;
	struct inst x;

	ck_assert_msg(!system("command -v cbc >/dev/null"),
		      "cbc (Debian coinor-cbc) is needed");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	test_rng = 0x5eed;
	for (i = 0; i < 60; i++) {
		double lp, ip;

		random_inst(&x);
		if (apart(&x) || bound_of(&x, &b))
			continue;
		lp = cbc_optimum(&x, 0, dir);
		ip = cbc_optimum(&x, 1, dir);
		ck_assert_msg(b.t <= ip + 1e-6, "instance %u: bound %u above the integer optimum %.2f",
			      i, b.t, ip);
		ck_assert_msg(b.t + 1e-6 >= lp, "instance %u: bound %u below the LP's %.4f",
			      i, b.t, lp);
		tried++;
		flow += b.term == FORS_BOUND_FLOW;
	}
	ck_assert_uint_ge(tried, 30);
	ck_assert_uint_ge(flow, 1);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/*
 * The flow term pinned against CBC (issue 49): three seeded fabrics (up
 * to 6 leaves and 6 spines) whose bound is the flow term at the LP's
 * optimum rounded up, a fraction above it (18.33, 17.5, 13.33), and at
 * or below the integer optimum. A certificate rounded down instead of up
 * gives 18, 17 and 13 there, below the LP; the fabrics of cbc_oracle and
 * the fixtures above have integer quotients and did not see it.
 */
static const struct inst lp_pinned[] = {
	{ 6, 6, { 5, 2, 5, 0, 1, 5 },
	  { 0, 0, 2, 1, 0, 1, 2, 1, 0, 1, 0, 1, 1, 1, 1, 0, 1, 2,
	    0, 1, 1, 0, 2, 1, 1, 2, 0, 0, 1, 2, 0, 1, 2, 0, 1, 2 } },
	{ 5, 5, { 1, 4, 5, 1, 3 },
	  { 2, 1, 1, 1, 0, 1, 2, 1, 0, 0, 1, 1, 0, 2, 0, 1, 1, 1, 1, 2,
	    1, 1, 1, 0, 1 } },
	{ 4, 6, { 3, 5, 5, 0 },
	  { 0, 0, 1, 2, 1, 0, 0, 1, 1, 2, 1, 1, 1, 2, 1, 0, 1, 0, 0, 2,
	    1, 0, 1, 0 } },
};

START_TEST(flow_term_lp)
{
	char dir[] = "/tmp/check_bound.XXXXXX", cmd[64];
	const struct inst *x = &lp_pinned[_i];
	struct fors_bound b;
	double lp, ip;

	ck_assert_msg(!system("command -v cbc >/dev/null"),
		      "cbc (Debian coinor-cbc) is needed");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	ck_assert_int_eq(bound_of(x, &b), 0);
	ck_assert_int_eq(b.term, FORS_BOUND_FLOW);
	lp = cbc_optimum(x, 0, dir);
	ip = cbc_optimum(x, 1, dir);
	ck_assert_msg(lp - (double)(uint64_t)lp > 1e-6, "LP %.4f", lp);
	ck_assert_msg(b.t + 1e-6 >= lp && b.t < lp + 1 && b.t <= ip + 1e-6,
		      "fabric %d: flow bound %u, LP %.4f, integer %.2f", _i,
		      b.t, lp, ip);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

static uint32_t one_route_of(const struct inst *x)
{
	struct fors_bound_fabric bf = { x->nl, x->ns, x->hosts, x->cables };

	return fors_bound_one_route(&bf);
}

/*
 * One route per (leaf, host), counted by hand: FT(2;20,18) with one
 * cable cut, its leaf's 340 destinations over 19 cables, 18 on some
 * cable, 20 transfers each: 360, one above T* (issue 48); the LHCb
 * fabric (326 hosts) with the cut at its full leaf: 306 over 19, 17 a
 * cable, 340; healthy, no more than T*.
 */
START_TEST(one_route_by_hand)
{
	static uint32_t hosts[18], cables[18 * 20];
	struct fors_bound_fabric bf = { 18, 20, hosts, cables };
	struct fors_bound b;
	struct fors_error err;
	uint32_t l;

	for (l = 0; l < 18; l++)
		hosts[l] = 20;
	for (l = 0; l < 18 * 20; l++)
		cables[l] = 1;
	ck_assert_uint_le(fors_bound_one_route(&bf), 359);
	cables[0] = 0;
	ck_assert_uint_eq(fors_bound_one_route(&bf), 360);
	ck_assert_int_eq(fors_bound_compute(&bf, &b, &err), 0);
	ck_assert_uint_eq(b.t, 359);
	for (l = 1; l < 18; l++)
		hosts[l] = 18;
	ck_assert_uint_eq(fors_bound_one_route(&bf), 340);
}
END_TEST

/*
 * The load of x's busiest cable under every map of one route per (leaf,
 * host) pair onto a spine both leaves reach, the least over all maps:
 * the exact optimum the counting bound must never pass.
 */
struct maps {
	const struct inst *x;
	uint32_t npairs, best;
	uint32_t src[MAXL * 4], dst[MAXL * 4];	/* a pair: leaf, host's leaf */
	uint32_t up[MAXL * MAXS], dn[MAXL * MAXS];
};

static void try_maps(struct maps *m, uint32_t i, uint32_t worst)
{
	const struct inst *x = m->x;
	uint32_t s, a, b, hs;

	if (worst >= m->best)
		return;
	if (i == m->npairs) {
		m->best = worst;
		return;
	}
	a = m->src[i];
	b = m->dst[i];
	hs = x->hosts[a];
	for (s = 0; s < x->ns; s++) {
		uint32_t u, d;

		if (!x->cables[a * x->ns + s] || !x->cables[b * x->ns + s])
			continue;
		u = m->up[a * x->ns + s] += hs;
		d = m->dn[b * x->ns + s] += hs;
		try_maps(m, i + 1, u > worst ? (d > u ? d : u) :
				   d > worst ? d : worst);
		m->up[a * x->ns + s] -= hs;
		m->dn[b * x->ns + s] -= hs;
	}
}

/*
 * Small random fabrics (single cables, some cut), every map tried: the
 * counting bound never passes the best map's busiest cable, and meets it
 * on some.
 */
START_TEST(one_route_oracle)
{
	int trial, met = 0, tried = 0;

	test_rng = 0x1e5d07u;
	for (trial = 0; trial < 60; trial++) {
		struct inst x = { 0 };
		struct maps m = { &x, 0, UINT32_MAX, { 0 }, { 0 }, { 0 }, { 0 } };
		uint32_t l, l2, h, t;

		x.nl = 2 + rnd() % 2;
		x.ns = 2 + rnd() % 2;
		for (l = 0; l < x.nl; l++) {
			x.hosts[l] = 1 + rnd() % 3;
			for (h = 0; h < x.ns; h++)
				x.cables[l * x.ns + h] = h == 0 || rnd() % 4;
		}
		for (l = 0; l < x.nl; l++)
			for (l2 = 0; l2 < x.nl; l2++)
				for (h = 0; l2 != l && h < x.hosts[l2]; h++) {
					m.src[m.npairs] = l;
					m.dst[m.npairs++] = l2;
				}
		if (m.npairs > 12)
			continue;
		try_maps(&m, 0, 0);
		t = one_route_of(&x);
		ck_assert_msg(t <= m.best, "trial %d: bound %u above the best map's %u",
			      trial, t, m.best);
		met += t == m.best;
		tried++;
	}
	fprintf(stderr, "one_route_oracle: bound met on %d of %d\n", met, tried);
	ck_assert_int_gt(met, tried / 2);
}
END_TEST

static Suite *bound_suite(void)
{
	Suite *su = suite_create("bound");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, counted_by_hand);
	tcase_add_test(tc, no_common_spine);
	tcase_add_test(tc, flow_term);
	tcase_add_test(tc, bottleneck);
	tcase_add_test(tc, cbc_oracle);
	tcase_add_loop_test(tc, flow_term_lp, 0,
			    sizeof(lp_pinned) / sizeof(lp_pinned[0]));
	tcase_add_test(tc, one_route_by_hand);
	tcase_add_test(tc, one_route_oracle);
	suite_add_tcase(su, tc);
	return su;
}

int main(void)
{
	return run_suite(bound_suite());
}
