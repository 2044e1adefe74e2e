// SPDX-License-Identifier: MIT
/*
 * Time to compute the FORS schedule (doc/performance.md), and with
 * `sweep MAX` the phase counts against the lower bound for every
 * M0, M1 <= MAX (doc/schedule.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "schedule/schedule.h"

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

/* Classify each input: at the lower bound, proven minimal, or a gap. */
static int sweep(uint32_t max)
{
	uint32_t m0, m1, f, n = 0, at = 0, proven = 0, open = 0;

	for (m0 = 2; m0 <= max; m0++) {
		for (m1 = 2; m1 <= max; m1++) {
			for (f = 0; f < m0; f++) {
				struct fors_sched_params sp = { m0, m1, f, NULL };
				struct fors_intra_info in;
				struct fors_schedule *s;
				struct fors_error err;
				uint32_t P = m0 * m1;

				if (fors_schedule_build(&s, &sp, &in, &err)) {
					fprintf(stderr, "bench: %s\n", err.msg);
					return 1;
				}
				n++;
				if (s->nphases == in.lower_bound) {
					at++;
				} else if (in.proven_from == s->nphases) {
					proven++;
				} else {
					open++;
					printf("FT(2;%u,%u) f=%u: %u phases, %u..%u undecided, max(P_f,P)+1 = %u\n",
					       m0, m1, f, s->nphases,
					       in.proven_from, s->nphases - 1,
					       (in.pf > P ? in.pf : P) + 1);
				}
				fors_schedule_free(s);
			}
		}
	}
	printf("%u inputs: %u at the lower bound max(P_f, P-1), %u above it and proven minimal, %u with a count below undecided\n",
	       n, at, proven, open);
	return 0;
}

int main(int argc, char **argv)
{
	int reps, r = 0;
	uint32_t f;

	if (argc > 1 && !strcmp(argv[1], "sweep"))
		return sweep(argc > 2 ? (uint32_t)atoi(argv[2]) : 24);
	reps = argc > 1 ? atoi(argv[1]) : 5;

	if (reps < 1)
		reps = 1;
	r |= one(32, 32, 8, reps);
	for (f = 1; f <= 10; f++)
		r |= one(20, 18, f, reps);
	return r;
}
