/* SPDX-License-Identifier: MIT */
#ifndef FORS_TESTS_SUITE_H
#define FORS_TESTS_SUITE_H

#include <check.h>
#include <stdint.h>
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

/* Run one suite; the exit status of a test program. */
static inline int run_suite(Suite *su)
{
	SRunner *sr = srunner_create(su);
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif
