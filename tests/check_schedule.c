// SPDX-License-Identifier: MIT
/*
 * The schedule against the FORS paper and the schedule-format spec: an
 * independent transcription of Algorithm 1's formulas as an oracle, the
 * worked example of Fig. 4, the guarantees over a sweep of inputs, the
 * known minima of the intra-leaf fill, absent hosts.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedule/schedule.h"
#include "verify/verify.h"
#include "suite.h"
#include "schedule/inter.h"
#include "schedule/cyclic.h"
#include "schedule/rebalance.h"
#include "schedule/compact.h"
#include "schedule/pack.h"
#include "schedule/planes.h"
#include "schedule/rounds.h"
#include "schedule/shift.h"

static struct fors_schedule *build(uint32_t m0, uint32_t m1, uint32_t f,
				   const uint8_t *present)
{
	struct fors_sched_params sp = { m0, m1, f, present };
	struct fors_schedule *s;
	struct fors_error err;

	ck_assert_msg(fors_schedule_build(&s, &sp, NULL, &err) == FORS_OK,
		      "FT(2;%u,%u) f=%u: %s", m0, m1, f, err.msg);
	return s;
}

static int64_t floordiv(int64_t a, int64_t b)
{
	return a >= 0 ? a / b : -((-a + b - 1) / b);
}

static int64_t ceildiv(int64_t a, int64_t b)
{
	return -floordiv(-a, b);
}

static int64_t lcm(int64_t a, int64_t b)
{
	int64_t x = a, y = b;

	while (y) {
		int64_t t = x % y;

		x = y;
		y = t;
	}
	return a / x * b;
}

/*
 * Section 4 as printed: Theta_s = { ceil((i + theta_s) M0 / (M0 - f)) -
 * alpha_s }, theta_s = floor((alpha_s - 1)(M0 - f) / M0) + 1, then D_server,
 * D_leaf and d from N_T(s, p), the transmissions of s before phase p.
 * Returns in dst[p] the destination of server s at phase p, or -1.
 */
static void oracle(int64_t m0, int64_t m1, int64_t f, int64_t s,
		   int64_t pf, int64_t *dst)
{
	int64_t P = m0 * m1, alpha = s % m0, gamma = s / m0;
	int64_t theta = floordiv((alpha - 1) * (m0 - f), m0) + 1;
	int64_t L = lcm(m1 - 1, m0), i, p, nt = 0;

	for (p = 0; p < pf; p++)
		dst[p] = -1;
	for (i = 0; i < P - m0; i++) {
		int64_t ph = ceildiv((i + theta) * m0, m0 - f) - alpha;

		ck_assert(ph >= 0 && ph < pf);
		dst[ph] = 0;
	}
	for (p = 0; p < pf; p++) {
		int64_t dserver, dleaf;

		if (dst[p] < 0)
			continue;
		dserver = (nt + theta) % m0;
		dleaf = (nt + theta + nt / L) % (m1 - 1);
		dst[p] = (dleaf * m0 + dserver + (gamma + 1) * m0) % P;
		nt++;
	}
}

/* The schedule's destination of src at phase p, or -1. */
static int64_t dest(const struct fors_schedule *s, uint32_t src, uint32_t p)
{
	size_t i;

	for (i = s->start[p]; i < s->start[p + 1]; i++)
		if (s->xfers[i].src == src)
			return s->xfers[i].dst;
	return -1;
}

static void assert_inter_matches_oracle(uint32_t m0, uint32_t m1, uint32_t f)
{
	struct fors_schedule *s = build(m0, m1, f, NULL);
	uint32_t pf = fors_pf(m0, m1, f), h, p;
	int64_t *dst = malloc(sizeof(int64_t) * pf);

	ck_assert_ptr_nonnull(dst);
	ck_assert_uint_ge(s->nphases, pf);
	for (h = 0; h < m0 * m1; h++) {
		oracle(m0, m1, f, h, pf, dst);
		for (p = 0; p < pf; p++) {
			int64_t d = dest(s, h, p);

			if (d >= 0 && d / m0 == h / m0)
				d = -1;	/* intra-leaf: not Algorithm 1's */
			ck_assert_msg(d == dst[p],
				      "FT(2;%u,%u) f=%u host %u phase %u: %lld, Algorithm 1 says %lld",
				      m0, m1, f, h, p, (long long)d,
				      (long long)dst[p]);
		}
	}
	free(dst);
	fors_schedule_free(s);
}

START_TEST(inter_leaf_is_algorithm_1)
{
	uint32_t m0, m1, f;

	for (m0 = 2; m0 <= 9; m0++)
		for (m1 = 2; m1 <= 7; m1++)
			for (f = 0; f < m0; f++)
				assert_inter_matches_oracle(m0, m1, f);
	assert_inter_matches_oracle(20, 18, 1);
	assert_inter_matches_oracle(20, 18, 7);
}
END_TEST

/* Fig. 4, FT(2;6,6) f=2: whether slot alpha sends at phases 0..11. */
START_TEST(fig4_transmit_pattern)
{
	static const char *const fig4[6] = {
		"x.xx.xx.xx.x", ".xx.xx.xx.xx", "xx.xx.xx.xx.",
		"x.xx.xx.xx.x", ".xx.xx.xx.xx", "xx.xx.xx.xx.",
	};
	struct fors_schedule *s = build(6, 6, 2, NULL);
	uint32_t a, p, g;

	for (g = 0; g < 6; g++) {
		for (a = 0; a < 6; a++) {
			for (p = 0; p < 12; p++) {
				int64_t d = dest(s, g * 6 + a, p);
				int inter = d >= 0 && d / 6 != g;

				ck_assert_msg(inter == (fig4[a][p] == 'x'),
					      "leaf %u alpha %u phase %u", g,
					      a, p);
			}
		}
	}
	fors_schedule_free(s);
}
END_TEST

/* First phase of slot alpha is theta_alpha's term minus alpha: Fig. 4. */
START_TEST(fig4_first_destinations)
{
	static const int theta[6] = { 0, 1, 1, 2, 3, 3 };
	struct fors_schedule *s = build(6, 6, 2, NULL);
	uint32_t a, p;

	for (a = 0; a < 6; a++) {
		for (p = 0; dest(s, a, p) < 0 || dest(s, a, p) < 6; p++)
			;
		/* D_server of the first transmission is theta mod M0 */
		ck_assert_int_eq(dest(s, a, p) % 6, theta[a]);
		ck_assert_int_eq(dest(s, a, p) / 6, 1 + theta[a] % 5);
	}
	fors_schedule_free(s);
}
END_TEST

static void assert_guarantees(uint32_t m0, uint32_t m1, uint32_t f)
{
	struct fors_schedule *s = build(m0, m1, f, NULL);
	uint32_t pf = fors_pf(m0, m1, f), P = m0 * m1;
	uint32_t hi = (pf > P ? pf : P) + 1;
	struct fors_error err;

	ck_assert_msg(fors_schedule_verify(s, &err) == FORS_OK,
		      "FT(2;%u,%u) f=%u: %s", m0, m1, f, err.msg);
	ck_assert_uint_eq(s->nxfers, (size_t)P * (P - 1));
	if (f > m0 / m1)
		ck_assert_msg(s->nphases == pf,
			      "FT(2;%u,%u) f=%u: %u phases, P_f = %u", m0, m1,
			      f, s->nphases, pf);
	else
		ck_assert_msg(s->nphases <= hi,
			      "FT(2;%u,%u) f=%u: %u phases > max(P_f, P)+1",
			      m0, m1, f, s->nphases);
	fors_schedule_free(s);
}

/* Every M0, M1 in 2..24 and f in 0..M0-1 (6,877 inputs), split by M0. */
START_TEST(sweep)
{
	uint32_t m0 = (uint32_t)_i, m1, f;

	for (m1 = 2; m1 <= 24; m1++)
		for (f = 0; f < m0; f++)
			assert_guarantees(m0, m1, f);
}
END_TEST

START_TEST(paper_topologies)
{
	static const uint32_t ft[][2] = {
		{ 8, 16 }, { 16, 16 }, { 20, 18 }, { 16, 32 }, { 32, 32 },
	};
	uint32_t i = (uint32_t)_i, f;

	for (f = 0; f <= ft[i][0] / 2; f++)
		assert_guarantees(ft[i][0], ft[i][1], f);
}
END_TEST

START_TEST(known_minima)
{
	static const uint32_t known[][4] = {
		{ 20, 18, 0, 359 }, { 20, 18, 1, 361 }, { 20, 18, 2, 378 },
		{ 5, 4, 1, 21 }, { 12, 3, 2, 35 }, { 5, 3, 1, 15 },
		{ 7, 2, 4, 17 }, { 11, 6, 2, 68 },
	};
	size_t i;

	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		struct fors_schedule *s = build(known[i][0], known[i][1],
						known[i][2], NULL);

		ck_assert_msg(s->nphases == known[i][3],
			      "FT(2;%u,%u) f=%u: %u phases, minimum is %u",
			      known[i][0], known[i][1], known[i][2],
			      s->nphases, known[i][3]);
		fors_schedule_free(s);
	}
}
END_TEST

/* The info says which counts below the result were proven infeasible. */
START_TEST(proven_infeasible_below_minimum)
{
	struct fors_sched_params sp = { 20, 18, 1, NULL };
	struct fors_intra_info info;
	struct fors_schedule *s;
	struct fors_error err;

	ck_assert_int_eq(fors_schedule_build(&s, &sp, &info, &err), FORS_OK);
	ck_assert_uint_eq(info.lower_bound, 359);
	ck_assert_uint_eq(info.pf, 358);
	ck_assert_uint_eq(info.proven_from, 361);
	fors_schedule_free(s);
}
END_TEST

/* Absent hosts: their transfers are dropped, nothing else changes. */
START_TEST(absent_hosts)
{
	int trial;

	for (trial = 0; trial < 60; trial++) {
		uint32_t m0 = 2 + rnd() % 14, m1 = 2 + rnd() % 12;
		uint32_t f = rnd() % m0, h, n = 0;
		uint8_t *present = malloc(m0 * m1);
		struct fors_schedule *full, *part;
		struct fors_host *hosts;
		struct fors_error err;

		ck_assert_ptr_nonnull(present);
		for (h = 0; h < m0 * m1; h++)
			n += present[h] = rnd() % 4 != 0;
		full = build(m0, m1, f, NULL);
		part = build(m0, m1, f, present);
		ck_assert_uint_eq(part->nphases, full->nphases);
		ck_assert_uint_eq(part->nxfers, (size_t)n * (n ? n - 1 : 0));
		hosts = calloc(n + 1, sizeof(*hosts));
		ck_assert_ptr_nonnull(hosts);
		for (h = 0, n = 0; h < m0 * m1; h++)
			if (present[h])
				hosts[n++].sid = h;
		part->hosts = hosts;
		part->nhosts = n;
		ck_assert_msg(fors_schedule_verify(part, &err) == FORS_OK,
			      "%s", err.msg);
		fors_schedule_free(full);
		fors_schedule_free(part);
		free(present);
	}
}
END_TEST

START_TEST(bad_params)
{
	static const uint32_t bad[][3] = {
		{ 0, 4, 0 }, { 4, 1, 0 }, { 4, 4, 4 }, { 4, 4, 9 },
		{ 64, 64, 0 },
	};
	struct fors_schedule *s = (void *)1;
	struct fors_error err;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct fors_sched_params sp = { bad[i][0], bad[i][1],
						bad[i][2], NULL };

		ck_assert_int_eq(fors_schedule_build(&s, &sp, NULL, &err),
				 FORS_EINVAL);
		ck_assert_ptr_null(s);
	}
}
END_TEST

/* The verifier must catch what it claims to catch. */
/* Leaf l's transfers out of (dir 1) or into (0) it in phase p. */
static uint32_t crossing(const struct fors_phases *ph, uint32_t p,
			 uint32_t l, int dir)
{
	uint32_t h, n = 0, o;

	for (h = 0; h < ph->nh; h++) {
		o = (dir ? ph->send : ph->recv)[p * ph->nh + h];
		n += ph->leaf[h] == l && o != FORS_IDLE && ph->leaf[o] != l;
	}
	return n;
}

/*
 * Two leaves of two hosts, cap 1 transfer out and in per phase: three
 * phases carry leaf 0's four outgoing transfers two, none and two, a
 * fourth phase is empty. The rebalancing must end with one in each, every
 * pair still once, every host sending and receiving once per phase.
 */
START_TEST(rebalance_two_leaves)
{
	static const uint32_t to[3][4] = { { 2, 3, 0, 1 }, { 1, 0, 3, 2 },
					   { 3, 2, 1, 0 } };
	uint32_t send[16], recv[16], leaf[4] = { 0, 0, 1, 1 }, cap[2] = { 1, 1 };
	struct fors_phases ph = { 4, 4, 2, send, recv, leaf, cap };
	uint8_t seen[16] = { 0 };
	uint32_t p, h;

	memset(send, 0xff, sizeof(send));
	memset(recv, 0xff, sizeof(recv));
	for (p = 0; p < 3; p++)
		for (h = 0; h < 4; h++) {
			send[p * 4 + h] = to[p][h];
			recv[p * 4 + to[p][h]] = h;
		}
	ck_assert_int_eq(fors_rebalance(&ph, 1000, 7), 0);
	for (p = 0; p < 4; p++) {
		ck_assert_uint_le(crossing(&ph, p, 0, 1), 1);
		ck_assert_uint_le(crossing(&ph, p, 0, 0), 1);
		ck_assert_uint_le(crossing(&ph, p, 1, 1), 1);
		for (h = 0; h < 4; h++)
			if (send[p * 4 + h] != FORS_IDLE) {
				ck_assert_uint_eq(recv[p * 4 + send[p * 4 + h]], h);
				ck_assert(!seen[h * 4 + send[p * 4 + h]]);
				seen[h * 4 + send[p * 4 + h]] = 1;
			}
	}
	for (h = 0; h < 16; h++)
		ck_assert_int_eq(seen[h], h / 4 != h % 4);
	cap[0] = 0;	/* nothing may leave leaf 0: impossible */
	ck_assert_int_gt(fors_rebalance(&ph, 1000, 7), 0);
}
END_TEST

/*
 * The cyclic schedule on seeded fabrics with absent hosts and leaves with
 * fewer planes than hosts, asked for the bound's N - 1 and leaf terms (or
 * one more): exactly t phases, verified (every pair once, each host once
 * per phase), and no leaf over its planes in any phase.
 */
START_TEST(cyclic_verified)
{
	uint32_t trial, at = 0;

	test_rng = 0xc1c1u;
	for (trial = 0; trial < 40; trial++) {
		uint32_t m0 = 2 + rnd() % 8, m1 = 2 + rnd() % 6, i, n = 0, p;
		uint8_t *present = calloc(m0 * m1, 1);
		uint32_t *up = calloc(m1, sizeof(uint32_t));
		struct fors_cyclic_params cp = { m0, m1, 0, present, up, 0,
						 20000, 4000000, 20000, 0, 0, NULL, 0,
						 NULL };
		struct fors_schedule *s;
		struct fors_error err;

		ck_assert(present && up);
		for (i = 0; i < m0 * m1; i++)
			n += present[i] = i % m0 == 0 || rnd() % 5;
		for (i = 0; i < m1; i++)
			up[i] = m0 - rnd() % 2;
		cp.t = n - 1;	/* at least the leaf term of the bound */
		for (i = 0; i < m1; i++) {
			uint32_t nl = 0, k;

			for (k = 0; k < m0; k++)
				nl += present[i * m0 + k];
			if ((nl * (n - nl) + up[i] - 1) / up[i] > cp.t)
				cp.t = (nl * (n - nl) + up[i] - 1) / up[i];
		}
		cp.t += rnd() % 2;
		ck_assert_int_eq(fors_schedule_cyclic(&cp, &s, &err) == 0 ||
				 strstr(err.msg, "transfers over the uplinks") != NULL, 1);
		if (!s) {
			free(present);
			free(up);
			continue;
		}
		at++;
		ck_assert_uint_eq(s->nphases, cp.t);
		ck_assert(fors_schedule_is_cyclic(s));
		ck_assert_int_eq(fors_schedule_add_absent(s, present), 0);
		ck_assert_msg(fors_schedule_verify(s, &err) == 0, "%s", err.msg);
		for (p = 0; p < s->nphases; p++) {
			uint32_t out[8] = { 0 }, in[8] = { 0 };
			size_t x;

			for (x = s->start[p]; x < s->start[p + 1]; x++) {
				uint32_t a = s->xfers[x].src / m0, b = s->xfers[x].dst / m0;

				out[a] += a != b;
				in[b] += a != b;
			}
			for (i = 0; i < m1; i++)
				ck_assert(out[i] <= up[i] && in[i] <= up[i]);
		}
		fors_schedule_free(s);
		free(present);
		free(up);
	}
	fprintf(stderr, "cyclic_verified: %u of 40 at the bound's leaf term\n", at);
	ck_assert_uint_ge(at, 38);
}
END_TEST

START_TEST(verify_catches_violations)
{
	struct fors_schedule *s = build(6, 4, 2, NULL);
	struct fors_xfer saved;
	struct fors_error err;
	size_t i = s->start[3];

	ck_assert_int_eq(fors_schedule_verify(s, &err), FORS_OK);
	saved = s->xfers[i];
	s->xfers[i].dst = s->xfers[i + 1].dst;
	ck_assert_int_eq(fors_schedule_verify(s, &err), FORS_EVERIFY);
	s->xfers[i] = saved;
	s->xfers[i].src = s->xfers[i].dst;
	ck_assert_int_eq(fors_schedule_verify(s, &err), FORS_EVERIFY);
	ck_assert_ptr_nonnull(strstr(err.msg, "itself"));
	s->xfers[i] = saved;
	s->nphases--;
	ck_assert_int_eq(fors_schedule_verify(s, &err), FORS_EVERIFY);
	ck_assert_ptr_nonnull(strstr(err.msg, "missing"));
	s->nphases++;
	s->f = 3;	/* f=3 allows fewer inter-leaf senders per leaf */
	ck_assert_int_eq(fors_schedule_verify(s, &err), FORS_EVERIFY);
	ck_assert_ptr_nonnull(strstr(err.msg, "m0 - f"));
	s->f = 2;
	fors_xfer_set_plane(&s->xfers[i], 6);
	ck_assert_int_eq(fors_schedule_verify(s, &err), FORS_EVERIFY);
	ck_assert_ptr_nonnull(strstr(err.msg, "plane"));
	fors_schedule_free(s);
}
END_TEST

/* Round-robin phases over nh hosts: in phase p, a sends to a + p + 1. */
static struct fors_phases round_robin(uint32_t nh, uint32_t t, uint32_t m1,
				      uint32_t *leaf)
{
	struct fors_phases ph = { t, nh, m1, NULL, NULL, leaf, NULL };
	uint32_t p, a;

	ph.send = malloc(sizeof(uint32_t) * t * nh);
	ph.recv = malloc(sizeof(uint32_t) * t * nh);
	ck_assert(ph.send && ph.recv);
	memset(ph.send, 0xff, sizeof(uint32_t) * t * nh);
	memset(ph.recv, 0xff, sizeof(uint32_t) * t * nh);
	for (p = 0; p < nh - 1; p++)
		for (a = 0; a < nh; a++) {
			ph.send[p * nh + a] = (a + p + 1) % nh;
			ph.recv[p * nh + (a + p + 1) % nh] = a;
		}
	return ph;
}

/* Transfer a -> b of phase p on its plane: both cables free, then taken. */
static void cables_free(const struct fors_phases *ph, const int16_t *cable,
			uint32_t q, int16_t x, uint32_t a, uint32_t b,
			uint8_t *up, uint8_t *dn)
{
	int16_t cu = cable[ph->leaf[a] * q + (uint32_t)x];
	int16_t cd = cable[ph->leaf[b] * q + (uint32_t)x];

	ck_assert(cu >= 0 && cd >= 0);
	ck_assert(!up[ph->leaf[a] * q + (uint32_t)cu]++);
	ck_assert(!dn[ph->leaf[b] * q + (uint32_t)cd]++);
}

/*
 * What fors_phase_planes promises, checked from the tables alone: phases
 * stay partial permutations with every ordered pair once; a phase with
 * planes has each inter-leaf transfer on a plane both leaves have a cable
 * for, no cable twice up or down; 0 returned means every phase has them.
 */
static void planes_hold(const struct fors_phases *ph, const int16_t *cable,
			uint32_t q, const int16_t *pl, int64_t left)
{
	uint32_t nh = ph->nh, p, a, b, unset = 0;
	uint8_t *met = calloc(nh * nh, 1), *up = malloc(ph->m1 * q);
	uint8_t *dn = malloc(ph->m1 * q);

	ck_assert(met && up && dn);
	for (p = 0; p < ph->t; p++) {
		int set = -1;

		memset(up, 0, ph->m1 * q);
		memset(dn, 0, ph->m1 * q);
		for (a = 0; a < nh; a++) {
			b = ph->send[p * nh + a];
			if (b == FORS_IDLE)
				continue;
			ck_assert_uint_eq(ph->recv[p * nh + b], a);
			ck_assert(!met[a * nh + b]++);
			if (ph->leaf[a] == ph->leaf[b]) {
				ck_assert_int_eq(pl[p * nh + a], FORS_NO_PLANE);
				continue;
			}
			if (set < 0)
				set = pl[p * nh + a] >= 0;
			ck_assert_int_eq(set, pl[p * nh + a] >= 0);
			if (set)
				cables_free(ph, cable, q, pl[p * nh + a], a, b,
					    up, dn);
		}
		unset += set == 0;
	}
	for (a = 0; a < nh; a++)
		for (b = 0; b < nh; b++)
			ck_assert_int_eq(met[a * nh + b], a != b);
	ck_assert(left > 0 || unset == 0);
	ck_assert(left == 0 || unset > 0);
	free(met);
	free(up);
	free(dn);
}

/*
 * Two leaves of two hosts with one plane in common: round-robin puts both
 * of a leaf's transfers to the other in one phase, which no plane choice
 * mends; a fourth, empty phase takes one of them by a Kempe swap.
 */
START_TEST(planes_kempe_swap)
{
	uint32_t leaf[4] = { 0, 0, 1, 1 };
	int16_t cable[2] = { 0, 0 }, pl[16];
	struct fors_phases ph = round_robin(4, 4, 2, leaf);
	struct fors_plane_params pp = { 1, cable, 100000, 7, NULL };
	int64_t left = fors_phase_planes(&ph, &pp, pl);

	ck_assert_int_eq(left, 0);
	planes_hold(&ph, cable, 1, pl, left);
	free(ph.send);
	free(ph.recv);
	ph = round_robin(4, 3, 2, leaf);
	left = fors_phase_planes(&ph, &pp, pl);
	ck_assert_int_gt(left, 0);	/* 4 transfers, 1 plane, 3 phases */
	planes_hold(&ph, cable, 1, pl, left);
	free(ph.send);
	free(ph.recv);
}
END_TEST

/*
 * A leaf's cable map: each plane on its own cable, on the cable of plane
 * 0 (a plane the leaf lacks, taken by another of its cables), or none;
 * plane 0 is every leaf's, so every pair has one in common.
 */
static void random_cables(int16_t *row, uint32_t q)
{
	uint32_t x;

	row[0] = 0;
	for (x = 1; x < q; x++) {
		uint32_t k = rnd() % 4;

		row[x] = k < 2 ? (int16_t)x : k == 2 ? 0 : -1;
	}
}

/*
 * Random leaves and cable maps, round-robin phases and twice as many
 * empty ones: every result keeps the promises, and most reach no conflict
 * (43 of these 60; some cannot: a pair with one cable in common needs as
 * many phases as transfers).
 */
START_TEST(planes_random)
{
	int trial, solved = 0;

	test_rng = 0x91a4e5u;
	for (trial = 0; trial < 60; trial++) {
		uint32_t m1 = 2 + rnd() % 4, q = 1 + rnd() % 6, nh = 0, l, t;
		uint32_t leaf[40];
		int16_t cable[6 * 6], *pl;
		struct fors_phases ph;
		struct fors_plane_params pp = { q, cable, 200000,
						(uint64_t)trial, NULL };
		int64_t left;

		for (l = 0; l < m1; l++) {
			uint32_t n = 1 + rnd() % 6;

			while (n-- && nh < 40)
				leaf[nh++] = l;
			random_cables(cable + l * q, q);
		}
		t = 3 * nh;
		ph = round_robin(nh, t, m1, leaf);
		pl = malloc(sizeof(int16_t) * t * nh);
		ck_assert_ptr_nonnull(pl);
		left = fors_phase_planes(&ph, &pp, pl);
		ck_assert_int_ge(left, 0);
		planes_hold(&ph, cable, q, pl, left);
		solved += left == 0;
		free(pl);
		free(ph.send);
		free(ph.recv);
	}
	fprintf(stderr, "planes_random: %d of 60 without a conflict\n", solved);
	ck_assert_int_ge(solved, 40);
}
END_TEST

/* 1 when plane pl is one of alts' for leaf ls to host slot d. */
static int among(const struct fors_compact_alts *alts, uint32_t all,
		 uint32_t ls, uint32_t d, int32_t pl)
{
	uint32_t j;

	for (j = 0; j < alts->k; j++)
		if (alts->plane[((size_t)ls * all + d) * alts->k + j] == pl)
			return 1;
	return 0;
}

/*
 * What fors_schedule_pack and fors_schedule_compact promise, checked
 * from the schedule alone: every pair once, each host once a phase, each
 * inter-leaf transfer on its fixed plane (with alts, on one of its
 * pair's), no cable twice in a phase (up at the source's leaf, down at
 * the destination's, as cable[] maps planes), no leaf over the cap.
 */
static void holds_with(const struct fors_schedule *in,
		       const struct fors_schedule *s,
		       const struct fors_pack_params *pp,
		       const struct fors_compact_alts *alts)
{
	uint32_t all = s->m0 * s->m1, m1 = s->m1, q = pp->q, p;
	uint8_t *pair = calloc((size_t)all * all, 1);
	uint8_t *snd = malloc(all), *rcv = malloc(all);
	uint8_t *up = malloc((size_t)m1 * q), *dn = malloc((size_t)m1 * q);
	uint32_t *out = malloc(sizeof(uint32_t) * m1);
	uint32_t *inl = malloc(sizeof(uint32_t) * m1);
	size_t i;

	ck_assert(pair && snd && rcv && up && dn && out && inl);
	ck_assert_uint_eq(s->nxfers, in->nxfers);
	for (p = 0; p < s->nphases; p++) {
		memset(snd, 0, all);
		memset(rcv, 0, all);
		memset(up, 0, (size_t)m1 * q);
		memset(dn, 0, (size_t)m1 * q);
		memset(out, 0, sizeof(uint32_t) * m1);
		memset(inl, 0, sizeof(uint32_t) * m1);
		for (i = s->start[p]; i < s->start[p + 1]; i++) {
			const struct fors_xfer *x = &s->xfers[i];
			uint32_t ls = x->src / s->m0, ld = x->dst / s->m0;
			int32_t pl = fors_xfer_plane(x);

			ck_assert(!pair[(size_t)x->src * all + x->dst]++);
			ck_assert(!snd[x->src]++ && !rcv[x->dst]++);
			if (ls == ld) {
				ck_assert_int_eq(pl, -1);
				continue;
			}
			if (alts)
				ck_assert(among(alts, all, ls, x->dst, pl));
			else
				ck_assert_int_eq(pl, pp->fixed[(size_t)ls * all + x->dst]);
			ck_assert(!up[ls * q + (uint32_t)pp->cable[ls * q + (uint32_t)pl]]++);
			ck_assert(!dn[ld * q + (uint32_t)pp->cable[ld * q + (uint32_t)pl]]++);
			ck_assert(!pp->leaf_cap || (++out[ls] <= pp->leaf_cap &&
						    ++inl[ld] <= pp->leaf_cap));
		}
	}
	free(pair);
	free(snd);
	free(rcv);
	free(up);
	free(dn);
	free(out);
	free(inl);
}

/* holds_with() on the fixed planes alone. */
static void pack_holds(const struct fors_schedule *in,
		       const struct fors_schedule *s,
		       const struct fors_pack_params *pp)
{
	holds_with(in, s, pp, NULL);
}

/* The phases of s that share no cable over the fixed planes. */
static uint8_t *clean_phases(const struct fors_schedule *s,
			     const struct fors_pack_params *pp)
{
	uint32_t q = pp->q, all = s->m0 * s->m1, p;
	uint8_t *clean = malloc(s->nphases + 1), *u = malloc(s->m1 * q * 2);
	size_t i;

	ck_assert(clean && u);
	for (p = 0; p < s->nphases; p++) {
		memset(u, 0, s->m1 * q * 2);
		clean[p] = 1;
		for (i = s->start[p]; i < s->start[p + 1]; i++) {
			const struct fors_xfer *x = &s->xfers[i];
			uint32_t ls = x->src / s->m0, ld = x->dst / s->m0;
			int16_t pl = pp->fixed[(size_t)ls * all + x->dst];

			if (ls == ld)
				continue;
			clean[p] &= !u[ls * q + (uint32_t)pp->cable[ls * q + (uint32_t)pl]]++;
			clean[p] &= !u[(s->m1 + ld) * q + (uint32_t)pp->cable[ld * q + (uint32_t)pl]]++;
		}
	}
	free(u);
	return clean;
}

/*
 * Random cables (each leaf's plane x on cable x, a fifth of them but the
 * first cut) and, for each leaf and host slot of another leaf, k random
 * planes alive at both ends into fixed[(l * all + h) * k + j].
 */
static void random_fixed(uint32_t m0, uint32_t m1, uint32_t q, uint32_t k,
			 int16_t *cable, int16_t *fixed)
{
	uint32_t all = m0 * m1, l, h, x, j;

	for (l = 0; l < m1; l++)
		for (x = 0; x < q; x++)
			cable[l * q + x] = x && rnd() % 5 == 0 ? -1 : (int16_t)x;
	for (l = 0; l < m1; l++)
		for (h = 0; h < all; h++)
			for (j = 0; j < k; j++) {
				do
					x = rnd() % q;
				while (cable[l * q + x] < 0 ||
				       cable[h / m0 * q + x] < 0);
				fixed[(l * all + h) * k + j] = h / m0 == l ?
					FORS_NO_PLANE : (int16_t)x;
			}
}

/*
 * Algorithm 1's schedules of random shapes over random fixed planes (each
 * leaf's routes to a host on one of the planes alive at both ends), every
 * other one with a reduction of 1 and its leaves capped at m0 - 1: packed,
 * they keep every promise, no phase lost; phases that shared no cable
 * stay as they were; and most need phases added. Compacted then, they
 * keep every promise still, and some lose phases.
 */
START_TEST(pack_random)
{
	int trial, grew = 0, shrank = 0;

	test_rng = 0x9ac4edu + (uint64_t)_i;
	for (trial = 0; trial < 30; trial++) {
		uint32_t m0 = 2 + rnd() % 5, m1 = 2 + rnd() % 4, q = m0 + rnd() % 2;
		uint32_t all = m0 * m1, p;
		int16_t *cable = malloc(sizeof(int16_t) * m1 * q);
		int16_t *fixed = malloc(sizeof(int16_t) * m1 * all);
		uint32_t f = trial % 2;
		struct fors_pack_params pp = { q, cable, fixed, f ? m0 - f : 0, 0 };
		struct fors_schedule *in = build(m0, m1, f, NULL), *s;
		struct fors_error err;
		uint8_t *clean;
		size_t i;

		ck_assert(cable && fixed);
		random_fixed(m0, m1, q, 1, cable, fixed);
		s = build(m0, m1, f, NULL);
		clean = clean_phases(s, &pp);
		ck_assert_int_eq(fors_schedule_pack(s, &pp, &err), 0);
		pack_holds(in, s, &pp);
		ck_assert_uint_ge(s->nphases, in->nphases);
		for (p = 0; p < in->nphases; p++)
			for (i = 0; clean[p] && i < in->start[p + 1] - in->start[p]; i++)
				ck_assert_uint_eq(s->xfers[s->start[p] + i].src * all +
						  s->xfers[s->start[p] + i].dst,
						  in->xfers[in->start[p] + i].src * all +
						  in->xfers[in->start[p] + i].dst);
		grew += s->nphases > in->nphases;
		p = s->nphases;
		ck_assert_int_eq(fors_schedule_compact(s, &pp, NULL), 0);
		pack_holds(in, s, &pp);
		ck_assert_uint_le(s->nphases, p);
		shrank += s->nphases < p;
		free(clean);
		free(cable);
		free(fixed);
		fors_schedule_free(in);
		fors_schedule_free(s);
	}
	fprintf(stderr, "pack_random %d: %d of 30 needed phases added, %d lost some compacted\n",
		_i, grew, shrank);
	ck_assert_int_gt(grew, 0);
	ck_assert_int_gt(shrank, 0);
}
END_TEST

/*
 * The same shapes with k = 2 or 4 planes per (leaf, host) pair, the first
 * the fixed one: packed over the fixed planes, then compacted twice, with
 * the other planes as alternatives and without. With them every promise
 * holds but the plane, which is one of the pair's; and in all they take
 * fewer phases than without, which can only keep each transfer's plane.
 */
START_TEST(compact_alternatives)
{
	uint32_t trial, with = 0, without = 0;

	test_rng = 0xa17e5u + (uint64_t)_i;
	for (trial = 0; trial < 30; trial++) {
		uint32_t m0 = 2 + rnd() % 5, m1 = 2 + rnd() % 4, q = m0 + rnd() % 2;
		uint32_t all = m0 * m1, k = 2 << (trial % 2), i, f = trial % 3 == 0;
		int16_t *cable = malloc(sizeof(int16_t) * m1 * q);
		int16_t *alt = malloc(sizeof(int16_t) * m1 * all * k);
		int16_t *fixed = malloc(sizeof(int16_t) * m1 * all);
		struct fors_pack_params pp = { q, cable, fixed, f ? m0 - f : 0, 0 };
		struct fors_compact_alts alts = { k, alt };
		struct fors_schedule *in = build(m0, m1, f, NULL), *a, *b;
		struct fors_error err;

		ck_assert(cable && alt && fixed);
		random_fixed(m0, m1, q, k, cable, alt);
		for (i = 0; i < m1 * all; i++)
			fixed[i] = alt[(size_t)i * k];
		a = build(m0, m1, f, NULL);
		b = build(m0, m1, f, NULL);
		ck_assert_int_eq(fors_schedule_pack(a, &pp, &err), 0);
		ck_assert_int_eq(fors_schedule_pack(b, &pp, &err), 0);
		ck_assert_int_eq(fors_schedule_compact(a, &pp, &alts), 0);
		ck_assert_int_eq(fors_schedule_compact(b, &pp, NULL), 0);
		holds_with(in, a, &pp, &alts);
		pack_holds(in, b, &pp);
		with += a->nphases;
		without += b->nphases;
		free(cable);
		free(alt);
		free(fixed);
		fors_schedule_free(in);
		fors_schedule_free(a);
		fors_schedule_free(b);
	}
	fprintf(stderr, "compact_alternatives %d: %u phases with, %u without\n",
		_i, with, without);
	ck_assert_uint_lt(with, without);
}
END_TEST

/* A transfer between leaves with no fixed plane is refused, by name. */
/*
 * A full tree's map with cables cut (cable[] -1): each leaf reaches a
 * host through its slot's plane where that is alive at both ends, else
 * through the ((source + destination leaf) mod k)-th of the k planes alive
 * at both, which spreads a cut plane's hosts over the others as the base
 * map's fallbacks do (doc/routing.md).
 */
static void cut_map(uint32_t m0, uint32_t m1, const int16_t *cable,
		    int16_t *fixed)
{
	uint32_t all = m0 * m1, l, h, b, x, k, n;

	for (l = 0; l < m1; l++)
		for (h = 0; h < all; h++) {
			b = h / m0;
			fixed[l * all + h] = b == l ? FORS_NO_PLANE : (int16_t)(h % m0);
			if (b == l || (cable[l * m0 + h % m0] >= 0 &&
				       cable[b * m0 + h % m0] >= 0))
				continue;
			for (k = 0, x = 0; x < m0; x++)
				k += cable[l * m0 + x] >= 0 && cable[b * m0 + x] >= 0;
			n = (l + b) % k;
			for (x = 0; cable[l * m0 + x] < 0 || cable[b * m0 + x] < 0 ||
				    n--; x++)
				;
			fixed[l * all + h] = (int16_t)x;
		}
}

/*
 * The fewest phases over fixed planes: the most transfers on one cable
 * (a pair's m0 on its cable up and down), or the hosts less one.
 */
static uint32_t map_floor(uint32_t m0, uint32_t m1, const int16_t *fixed)
{
	uint32_t all = m0 * m1, l, h, most = all - 1;
	uint32_t *use = calloc((size_t)2 * m1 * m0, sizeof(uint32_t));

	ck_assert_ptr_nonnull(use);
	for (l = 0; l < m1; l++)
		for (h = 0; h < all; h++) {
			int16_t pl = fixed[l * all + h];

			if (pl < 0)
				continue;
			use[l * m0 + (uint32_t)pl] += m0;
			use[(m1 + h / m0) * m0 + (uint32_t)pl] += m0;
		}
	for (l = 0; l < 2 * m1 * m0; l++)
		most = use[l] > most ? use[l] : most;
	free(use);
	return most;
}

/*
 * Rounds over a full tree's map (doc/narrow-lmc.md, "Rounds"), checked
 * from the schedule alone (holds_with): healthy, T* = hosts - 1 phases;
 * after one to three cuts on M1 = 2 M0 or 3 M0 leaves, the map's own
 * bound, the busiest cable's transfers, computed here from the map.
 */
START_TEST(rounds_full_trees)
{
	int trial, cut = 0;

	test_rng = 0x4d0u + (uint64_t)_i;
	for (trial = 0; trial < 12; trial++) {
		uint32_t m0 = 3 + rnd() % 6, m1 = trial < 4 ? 2 + rnd() % 7 :
						  m0 * (2 + rnd() % 2);
		uint32_t all = m0 * m1, n = trial < 4 ? 0 : 1 + rnd() % 3, i;
		int16_t *cable = malloc(sizeof(int16_t) * m1 * m0);
		int16_t *fixed = malloc(sizeof(int16_t) * m1 * all);
		struct fors_pack_params pp = { m0, cable, fixed, 0, 0 };
		struct fors_sched_params sp = { m0, m1, 0, NULL };
		struct fors_schedule *in = build(m0, m1, 0, NULL), *s;
		struct fors_error err;

		ck_assert(cable && fixed);
		for (i = 0; i < m1 * m0; i++)
			cable[i] = (int16_t)(i % m0);
		for (i = 0; i < n; i++)
			cable[rnd() % (m1 * m0)] = -1;
		cut_map(m0, m1, cable, fixed);
		ck_assert_int_eq(fors_schedule_rounds(&sp, &pp, &s, &err), 0);
		ck_assert_ptr_nonnull(s);
		holds_with(in, s, &pp, NULL);
		ck_assert_int_eq(fors_schedule_is_cyclic(s), 1);
		ck_assert_msg(s->nphases == map_floor(m0, m1, fixed),
			      "FT(2;%u,%u), %u cuts: %u phases, the map's bound %u",
			      m0, m1, n, s->nphases, map_floor(m0, m1, fixed));
		cut += s->nphases > all - 1;
		free(cable);
		free(fixed);
		fors_schedule_free(in);
		fors_schedule_free(s);
	}
	ck_assert_int_gt(cut, 0);
}
END_TEST

/* A pair between leaves without a plane: no schedule in rounds. */
START_TEST(rounds_need_every_plane)
{
	int16_t cable[4] = { 0, 1, 0, 1 }, fixed[2 * 4];
	struct fors_pack_params pp = { 2, cable, fixed, 0, 0 };
	struct fors_sched_params sp = { 2, 2, 0, NULL };
	struct fors_schedule *s = NULL;
	struct fors_error err;

	cut_map(2, 2, cable, fixed);
	fixed[0 * 4 + 3] = FORS_NO_PLANE;
	ck_assert_int_eq(fors_schedule_rounds(&sp, &pp, &s, &err), 0);
	ck_assert_ptr_null(s);
}
END_TEST

/*
 * The shift with its planes (doc/narrow-lmc.md, "The shift with its
 * planes"), checked from the schedule and its maps on seeded healthy
 * fabrics whose leaves hold q - 2 to q hosts: hosts - 1 phases, every
 * pair once, a host once a phase, no cable twice (holds_with, one cable
 * a plane), every transfer on one of its pair's maps, at most three maps,
 * and so no pair on more than three planes, as the argument there counts;
 * some fabric with a move besides 0.
 */
START_TEST(shift_design)
{
	int trial, shifted = 0;

	test_rng = 0x5f1u + (uint64_t)_i;
	for (trial = 0; trial < 20; trial++) {
		uint32_t q = 3 + rnd() % 8, m1 = 2 + rnd() % 8, all = q * m1;
		uint8_t *present = malloc(all);
		int16_t *cable = malloc(sizeof(int16_t) * m1 * q);
		struct fors_shift_params sp = { q, m1, 0, q, present, 3 };
		struct fors_pack_params pp = { q, cable, NULL, 0, 0 };
		struct fors_shift_maps maps;
		struct fors_schedule *in, *s = NULL;
		struct fors_error err;
		uint32_t i, n = 0;

		ck_assert(present && cable);
		for (i = 0; i < all; i++)
			present[i] = i % q >= 2 || rnd() % 2;
		for (i = 0; i < all; i++)
			n += present[i];
		for (i = 0; i < m1 * q; i++)
			cable[i] = (int16_t)(i % q);
		in = build(q, m1, 0, present);
		ck_assert_int_eq(fors_schedule_shift(&sp, &s, &maps, &err), 0);
		ck_assert_ptr_nonnull(s);
		ck_assert_uint_eq(s->nphases, n - 1);
		ck_assert_int_eq(fors_schedule_is_cyclic(s), 1);
		ck_assert_uint_le(maps.k, 3);
		holds_with(in, s, &pp, &(struct fors_compact_alts){ maps.k,
								    maps.plane });
		shifted += maps.k > 1;
		fors_shift_maps_free(&maps);
		free(present);
		free(cable);
		fors_schedule_free(in);
		fors_schedule_free(s);
	}
	ck_assert_int_gt(shifted, 0);
}
END_TEST

/*
 * Where the shift does not fit: a leaf with more hosts than planes, and
 * the LHCb shape in small (a leaf of 8, five of 6, 8 planes), whose moves
 * are three (0, 1 and 2), refused at two.
 */
START_TEST(shift_refusals)
{
	uint8_t present[6 * 8];
	struct fors_shift_params sp = { 8, 6, 0, 8, present, 3 };
	struct fors_shift_maps maps;
	struct fors_schedule *s = NULL;
	struct fors_error err;
	uint32_t i;

	for (i = 0; i < 6 * 8; i++)
		present[i] = i < 8 || i % 8 < 6;
	ck_assert_int_eq(fors_schedule_shift(&sp, &s, &maps, &err), 0);
	ck_assert_ptr_nonnull(s);
	ck_assert_uint_eq(s->nphases, 8 + 5 * 6 - 1);
	ck_assert_uint_eq(maps.k, 3);
	fors_schedule_free(s);
	fors_shift_maps_free(&maps);
	sp.planes = 2;
	ck_assert_int_eq(fors_schedule_shift(&sp, &s, &maps, &err), 0);
	ck_assert_ptr_null(s);
	ck_assert_ptr_null(maps.plane);
	sp.planes = 3;
	sp.q = 7;
	ck_assert_int_eq(fors_schedule_shift(&sp, &s, &maps, &err), 0);
	ck_assert_ptr_null(s);
}
END_TEST

START_TEST(pack_refuses_no_plane)
{
	int16_t cable[4] = { 0, 1, 0, 1 }, fixed[2 * 4];
	struct fors_pack_params pp = { 2, cable, fixed, 0, 0 };
	struct fors_schedule *s = build(2, 2, 0, NULL);
	struct fors_error err;
	uint32_t i;

	for (i = 0; i < 8; i++)
		fixed[i] = i / 4 == (i % 4) / 2 ? FORS_NO_PLANE : 1;
	fixed[0 * 4 + 2] = FORS_NO_PLANE;
	ck_assert_int_eq(fors_schedule_pack(s, &pp, &err), FORS_EINVAL);
	ck_assert_str_eq(err.msg, "transfer 0 -> 2 has no plane to pack over");
	fors_schedule_free(s);
}
END_TEST

static Suite *suite(void)
{
	Suite *su = suite_create("schedule");

	add_case(su, inter_leaf_is_algorithm_1, 0, 1, 0);
	add_case(su, fig4_transmit_pattern, 0, 1, 0);
	add_case(su, fig4_first_destinations, 0, 1, 0);
	add_case(su, known_minima, 0, 1, 0);
	add_case(su, proven_infeasible_below_minimum, 0, 1, 0);
	add_case(su, absent_hosts, 0, 1, 0);
	add_case(su, bad_params, 0, 1, 0);
	add_case(su, verify_catches_violations, 0, 1, 0);
	add_case(su, rebalance_two_leaves, 0, 1, 0);
	add_case(su, cyclic_verified, 0, 1, 0);
	add_case(su, planes_kempe_swap, 0, 1, 0);
	add_case(su, planes_random, 0, 1, 0);
	add_case(su, pack_random, 0, 2, 0);
	add_case(su, compact_alternatives, 0, 2, 0);
	add_case(su, pack_refuses_no_plane, 0, 1, 0);
	add_case(su, rounds_full_trees, 0, 4, 0);
	add_case(su, rounds_need_every_plane, 0, 1, 0);
	add_case(su, shift_design, 0, 3, 0);
	add_case(su, shift_refusals, 0, 1, 0);
	add_case(su, sweep, 2, 25, 0);
	add_case(su, paper_topologies, 0, 5, 0);
	return su;
}

int main(void)
{
	return run_suite(suite());
}
