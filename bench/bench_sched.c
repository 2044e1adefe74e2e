// SPDX-License-Identifier: MIT
/*
 * libforssched loading a schedule file as an application does: the time of
 * fors_sched_open (best and median of RUNS) and the memory it takes (the
 * process's peak resident size before and after the first load, and what
 * stays resident while the schedule is open), then one host's whole
 * exchange looked up. With `lookup`, fors_sched_open_lookup and the
 * _into lookups. See doc/schedule-format.md.
 *
 *   bench_sched FILE RUNS [lookup]
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#include "fors/fors-sched.h"

static double now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

static long peak_kb(void)
{
	struct rusage u;

	getrusage(RUSAGE_SELF, &u);
	return u.ru_maxrss;
}

/* The resident size now, from /proc/self/statm; 0 when unknown. */
static long resident_kb(void)
{
	FILE *f = fopen("/proc/self/statm", "r");
	long size = 0, res = 0;

	if (f && fscanf(f, "%ld %ld", &size, &res) != 2)
		res = 0;
	if (f)
		fclose(f);
	return res * 4;
}

static int cmp(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return a < b ? -1 : a > b;
}

/* Every phase of host 0's exchange looked up, its partner counted. */
static double lookups(const struct fors_sched *s, int into, size_t *busy)
{
	double t = now_ms();
	struct fors_sched_xfer x;
	uint32_t p;

	*busy = 0;
	for (p = 0; p < fors_sched_nphases(s); p++)
		*busy += into ? (size_t)fors_sched_send_into(s, p, 0, &x) :
			 fors_sched_send(s, p, 0) != NULL;
	return now_ms() - t;
}

int main(int argc, char **argv)
{
	double ms[64], t, lk = 0;
	long before = peak_kb(), after = 0, open_kb = 0;
	struct fors_sched *s;
	char err[512];
	size_t busy = 0;
	int runs, i, into;

	if (argc < 3 || argc > 4 || (runs = atoi(argv[2])) < 1 || runs > 64) {
		fprintf(stderr, "usage: bench_sched FILE RUNS [lookup]\n");
		return 2;
	}
	into = argc == 4;
	for (i = 0; i < runs; i++) {
		t = now_ms();
		if ((into ? fors_sched_open_lookup : fors_sched_open)(&s,
				argv[1], err, sizeof(err))) {
			fprintf(stderr, "bench_sched: %s\n", err);
			return 1;
		}
		ms[i] = now_ms() - t;
		if (!i) {
			after = peak_kb();
			open_kb = resident_kb();
			lk = lookups(s, into, &busy);
		}
		fors_sched_free(s);
	}
	qsort(ms, (size_t)runs, sizeof(double), cmp);
	printf("%s: load best %.1f ms, median %.1f ms (%d runs); peak resident %ld -> %ld kB, %ld kB while open; host 0's %zu sends looked up in %.2f ms\n",
	       argv[1], ms[0], ms[runs / 2], runs, before, after, open_kb,
	       busy, lk);
	return 0;
}
