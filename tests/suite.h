/* SPDX-License-Identifier: MIT */
#ifndef FORS_TESTS_SUITE_H
#define FORS_TESTS_SUITE_H

#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* xorshift: seeded, reproducible random fabrics and instances. */
static uint64_t test_rng = 88172645463325252ull;

static inline uint32_t rnd(void)
{
	test_rng ^= test_rng << 13;
	test_rng ^= test_rng >> 7;
	test_rng ^= test_rng << 17;
	return (uint32_t)test_rng;
}

/* The cases added by add_case, in order (see run_suite). */
#define TEST_MAX_CASES 64
static const char *test_cases[TEST_MAX_CASES];
static int test_ncases;

/*
 * Test tf over its loop lo..hi-1 as a case of its own, named after it,
 * with a limit of timeout seconds (0: none).
 */
#define add_case(su, tf, lo, hi, timeout) \
	add_case_named((su), #tf, (tf), (lo), (hi), (timeout))

/* add_case's body; a suite past TEST_MAX_CASES cases exits the program. */
static inline void add_case_named(Suite *su, const char *name,
				  const TTest *tf, int lo, int hi,
				  double timeout)
{
	TCase *tc;

	if (test_ncases == TEST_MAX_CASES) {
		fprintf(stderr, "suite.h: more than %d cases\n",
			TEST_MAX_CASES);
		exit(EXIT_FAILURE);
	}
	tc = tcase_create(name);
	test_cases[test_ncases++] = name;
	tcase_add_loop_test(tc, tf, lo, hi);
	tcase_set_timeout(tc, timeout);
	suite_add_tcase(su, tc);
}

/*
 * Run one suite; the exit status of a test program. With
 * FORS_CHECK_FIRST_FAILURE set (the mutation stage, doc/testing.md), the
 * cases added by add_case run in turn and the run stops after the first
 * that fails: a killed mutant costs that far, not the whole suite.
 */
static inline int run_suite(Suite *su)
{
	SRunner *sr = srunner_create(su);
	int failed, i;

	if (getenv("FORS_CHECK_FIRST_FAILURE") && test_ncases)
		for (i = 0; i < test_ncases && !srunner_ntests_failed(sr); i++)
			srunner_run(sr, NULL, test_cases[i], CK_NORMAL);
	else
		srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif
