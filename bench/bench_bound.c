// SPDX-License-Identifier: MIT
/*
 * Time to compute T* and the one-route bound at a size (doc/performance.md,
 * "T* at the XDR size"): bench_bound M0 M1 SPINES REPS [LEAF:SPINE ...]
 * cuts those cables (one each) and `dead:S` takes spine S from every leaf.
 * Prints each bound, its argument and the median and slowest time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "schedule/bound.h"

static double now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The cuts named by args into cables; 0, or 1 with a message. */
static int cut(uint32_t *cables, uint32_t m1, uint32_t ns, int n, char **args)
{
	unsigned a, b;
	int i;

	for (i = 0; i < n; i++) {
		if (sscanf(args[i], "dead:%u", &b) == 1 && b < ns) {
			for (a = 0; a < m1; a++)
				cables[a * ns + b] = 0;
		} else if (sscanf(args[i], "%u:%u", &a, &b) == 2 && a < m1 &&
			   b < ns) {
			cables[a * ns + b] = 0;
		} else {
			fprintf(stderr, "bench_bound: bad cut '%s'\n", args[i]);
			return 1;
		}
	}
	return 0;
}

/* reps runs of fors_bound_compute and fors_bound_one_route on bf. */
static int run(const struct fors_bound_fabric *bf, int reps)
{
	double *t = calloc((size_t)reps * 2, sizeof(*t));
	struct fors_bound b;
	struct fors_error err;
	uint32_t one = 0;
	char why[96];
	int i;

	if (!t)
		return 1;
	for (i = 0; i < reps; i++) {
		double t0 = now_ms();

		if (fors_bound_compute(bf, &b, &err)) {
			fprintf(stderr, "bench_bound: %s\n", err.msg);
			free(t);
			return 1;
		}
		t[i] = now_ms() - t0;
		t0 = now_ms();
		one = fors_bound_one_route(bf);
		t[reps + i] = now_ms() - t0;
	}
	qsort(t, (size_t)reps, sizeof(*t), cmp_double);
	qsort(t + reps, (size_t)reps, sizeof(*t), cmp_double);
	fors_bound_describe(&b, why, sizeof(why));
	printf("T* %u (%s): median %.2f ms, slowest %.2f ms\n", b.t, why,
	       t[reps / 2], t[reps - 1]);
	printf("one route %u: median %.2f ms, slowest %.2f ms\n", one,
	       t[reps + reps / 2], t[2 * reps - 1]);
	free(t);
	return 0;
}

int main(int argc, char **argv)
{
	uint32_t m0, m1, ns, *hosts, *cables, i;
	struct fors_bound_fabric bf;
	int reps, r;

	if (argc < 5) {
		fprintf(stderr, "usage: bench_bound M0 M1 SPINES REPS [LEAF:SPINE|dead:S ...]\n");
		return 2;
	}
	m0 = (uint32_t)atoi(argv[1]);
	m1 = (uint32_t)atoi(argv[2]);
	ns = (uint32_t)atoi(argv[3]);
	reps = atoi(argv[4]);
	if (!m0 || m1 < 2 || !ns || reps < 1)
		return 2;
	hosts = calloc(m1, sizeof(*hosts));
	cables = calloc((size_t)m1 * ns, sizeof(*cables));
	if (!hosts || !cables)
		return 1;
	for (i = 0; i < m1; i++)
		hosts[i] = m0;
	for (i = 0; i < m1 * ns; i++)
		cables[i] = 1;
	r = cut(cables, m1, ns, argc - 5, argv + 5);
	bf = (struct fors_bound_fabric){ m1, ns, hosts, cables };
	printf("FT(2;%u,%u), %u spines, %u hosts, %d cuts\n", m0, m1, ns,
	       m0 * m1, argc - 5);
	if (!r)
		r = run(&bf, reps);
	free(hosts);
	free(cables);
	return r;
}
