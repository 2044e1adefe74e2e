/* SPDX-License-Identifier: MIT */
#ifndef FORS_TESTS_SUITE_H
#define FORS_TESTS_SUITE_H

#include <check.h>
#include <stdlib.h>

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
