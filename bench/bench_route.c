// SPDX-License-Identifier: MIT
/*
 * The whole route (analysis, schedule, spine assignment, LFTs) on the LHCb
 * fabric FT(2;20,18) at LMC 5: the paper's scenarios and seeded random
 * failures up to half the bandwidth. Prints min/median/max per class, the
 * phases that had to be split, and the total phases against the total
 * bound T*; then the verification the plugin runs
 * before installing (fors_check_routes on the paper's scenarios). See
 * doc/performance.md.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "verify/check.h"
#include "formats/lftdump.h"
#include "formats/netgen.h"
#include "routing/route.h"
#include "formats/ibnetdiscover.h"

#define M0 20
#define M1 18
#define NS 20
#define MAXRUNS 256

struct cls {
	const char *name;
	double ms[MAXRUNS];
	int n;
	uint32_t split, unproven;
	uint64_t phases, bound;	/* totals: phases routed, T* */
	uint32_t at;		/* routings at T* */
};

static double now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

static struct fors_topology *topology(const uint8_t *failed, const uint8_t *dead)
{
	struct fors_netgen g = { M0, M1, NS, 1, NULL, 0, failed, dead, 0, 0 };
	struct fors_topology *t;
	struct fors_error err;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f || fors_netgen_write(f, &g))
		return NULL;
	fclose(f);
	f = fmemopen(buf, len, "r");
	if (!f || fors_topology_read(f, "bench", &t, &err))
		t = NULL;
	if (f)
		fclose(f);
	free(buf);
	return t;
}

static struct cls verify = { .name = "verification" };

/* The tables as a dump (untimed), then the check the plugin runs. */
static int check(const struct fors_route *r, const struct fors_topology *live)
{
	struct fors_check_report rep;
	struct fors_lft_dump *d = NULL;
	struct fors_error err;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	double t0;
	int e;

	if (!f || fors_lfts_write(f, r->lfts, live, r->fb))
		return -1;
	fclose(f);
	f = fmemopen(buf, len, "r");
	e = f ? fors_lft_dump_read(f, "bench", &d, &err) : -1;
	if (f)
		fclose(f);
	free(buf);
	if (e)
		return -1;
	t0 = now_ms();
	e = fors_check_routes(live, d, r->s, &rep, &err);
	if (verify.n < MAXRUNS)
		verify.ms[verify.n++] = now_ms() - t0;
	fors_lft_dump_free(d);
	if (e)
		fprintf(stderr, "bench: the check fails: %s\n",
			rep.nkept ? rep.kept[0] : err.msg);
	return e;
}

static int run(const struct fors_topology *ref, const uint8_t *failed,
	       const uint8_t *dead, struct cls *simple, struct cls *complex,
	       int verified)
{
	struct fors_route_opts o = { .lmc = 5, .renumber_lids = 0 };
	struct fors_topology *live = topology(failed, dead);
	struct fors_route *r;
	struct fors_error err;
	struct cls *c;
	double t0, ms;

	if (!live)
		return -1;
	t0 = now_ms();
	if (fors_route_compute(live, ref, &o, &r, &err)) {
		fprintf(stderr, "bench: %s\n", err.msg);
		fors_topology_free(live);
		return -1;
	}
	ms = now_ms() - t0;
	c = r->assign.method == FORS_METHOD_ALG2 ? simple : complex;
	if (c->n < MAXRUNS)
		c->ms[c->n++] = ms;
	c->split += r->assign.split;
	c->unproven += r->assign.unproven;
	c->phases += r->s->nphases;
	c->bound += r->bound.t;
	c->at += r->s->nphases == r->bound.t;
	if (verified && check(r, live)) {
		fors_route_free(r);
		fors_topology_free(live);
		return -1;
	}
	fors_route_free(r);
	fors_topology_free(live);
	return 0;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void print(const char *set, const struct cls *c)
{
	double ms[MAXRUNS];

	if (!c->n)
		return;
	memcpy(ms, c->ms, sizeof(double) * c->n);
	qsort(ms, c->n, sizeof(double), cmp);
	printf("%-8s %-26s %4d runs  min %7.1f  median %7.1f  max %7.1f ms  split %u (unproven %u)\n",
	       set, c->name, c->n, ms[0], ms[c->n / 2], ms[c->n - 1],
	       c->split, c->unproven);
	if (!c->bound)
		return;
	printf("%-8s %-26s phases %llu, T* %llu (%+.1f%%), %u of %d at T*\n",
	       "", "", (unsigned long long)c->phases,
	       (unsigned long long)c->bound,
	       c->bound ? 100.0 * ((double)c->phases - (double)c->bound) /
			  (double)c->bound : 0.0, c->at, c->n);
}

static uint64_t rng = 0x10bc;

static uint32_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)rng;
}

/* Random cuts, keeping every leaf at half its uplinks or more. */
static void random_cuts(uint8_t *failed)
{
	uint32_t n = 1 + rnd() % (M1 * NS / 2), i, tries = 0, lost[M1] = { 0 };

	memset(failed, 0, M1 * NS);
	for (i = 0; i < n && tries < 100000; tries++) {
		uint32_t c = rnd() % (M1 * NS), l = c / NS;

		if (failed[c] || lost[l] == NS / 2)
			continue;
		failed[c] = 1;
		lost[l]++;
		i++;
	}
}

int main(int argc, char **argv)
{
	static const uint32_t paper[][9][2] = {
		{ { 0, 7 } }, { { 0, 7 }, { 0, 13 } },
		{ { 0, 7 }, { 0, 13 }, { 0, 18 } },
		{ { 0, 0 }, { 5, 1 }, { 11, 2 } },
		{ { 0, 0 }, { 0, 1 }, { 5, 2 }, { 5, 3 }, { 11, 4 }, { 11, 5 } },
		{ { 0, 0 }, { 0, 1 }, { 0, 2 }, { 5, 3 }, { 5, 4 }, { 5, 5 },
		  { 11, 6 }, { 11, 7 }, { 11, 8 } },
	};
	static const uint32_t ncuts[] = { 1, 2, 3, 3, 6, 9 };
	struct cls ps = { .name = "paper, m <= f (alg2)" };
	struct cls pc = { .name = "paper, m > f (lec)" };
	struct cls rs = { .name = "random, m <= f (alg2)" };
	struct cls rc = { .name = "random, m > f (lec)" };
	uint8_t failed[M1 * NS], dead[NS];
	struct fors_topology *ref = topology(NULL, NULL);
	int runs = argc > 1 ? atoi(argv[1]) : 100, i, rep;
	uint32_t k;

	if (!ref || runs < 1 || runs > MAXRUNS)
		return fprintf(stderr, "usage: bench_route [RUNS <= %d]\n", MAXRUNS), 2;
	for (rep = 0; rep < 5; rep++) {
		for (i = 0; i < 6; i++) {
			memset(failed, 0, sizeof(failed));
			for (k = 0; k < ncuts[i]; k++)
				failed[paper[i][k][0] * NS + paper[i][k][1]] = 1;
			if (run(ref, failed, NULL, &ps, &pc, 1))
				return 1;
		}
		memset(dead, 0, sizeof(dead));
		dead[0] = dead[1] = 1;
		if (run(ref, NULL, dead, &ps, &pc, 1))
			return 1;
		dead[4] = dead[5] = 1;
		if (run(ref, NULL, dead, &ps, &pc, 1))
			return 1;
	}
	for (i = 0; i < runs; i++) {
		random_cuts(failed);
		if (run(ref, failed, NULL, &rs, &rc, 0))
			return 1;
	}
	printf("FT(2;20,18), LMC 5, whole route (analysis, schedule, spine assignment, LFTs)\n");
	print("paper", &ps);
	print("paper", &pc);
	print("random", &rs);
	print("random", &rc);
	printf("FT(2;20,18), LMC 5, the plugin's verification of the paper's scenarios\n");
	print("paper", &verify);
	fors_topology_free(ref);
	return 0;
}
