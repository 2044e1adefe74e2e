// SPDX-License-Identifier: MIT
/* Time to compute the FORS schedule; see doc/performance.md. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "fors/schedule.h"

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

static int one(uint32_t m0, uint32_t m1, uint32_t f, int reps)
{
	struct fors_sched_params sp = { .m0 = m0, .m1 = m1, .f = f };
	struct fors_intra_info info;
	struct fors_schedule *s;
	struct fors_error err;
	double best = 1e9;
	int i;

	for (i = 0; i < reps; i++) {
		double t0 = now(), t;

		if (fors_schedule_build(&s, &sp, &info, &err)) {
			fprintf(stderr, "bench: %s\n", err.msg);
			return 1;
		}
		t = now() - t0;
		if (t < best)
			best = t;
		if (i + 1 < reps)
			fors_schedule_free(s);
	}
	printf("FT(2;%u,%u) f=%-2u  phases %4u  lower bound %4u  P_f %4u  best of %d: %8.2f ms\n",
	       m0, m1, f, s->nphases, info.lower_bound, info.pf, reps,
	       best * 1e3);
	fors_schedule_free(s);
	return 0;
}

int main(int argc, char **argv)
{
	int reps = argc > 1 ? atoi(argv[1]) : 5, r = 0;
	uint32_t f;

	if (reps < 1)
		reps = 1;
	r |= one(32, 32, 8, reps);
	for (f = 1; f <= 10; f++)
		r |= one(20, 18, f, reps);
	return r;
}
