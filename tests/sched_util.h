/* SPDX-License-Identifier: MIT */
#ifndef FORS_TESTS_SCHED_UTIL_H
#define FORS_TESTS_SCHED_UTIL_H

#include <check.h>
#include <stdio.h>

#include "formats/schedfile.h"

/* s as version 1 text, NUL-terminated; free() it. */
static inline char *sched_to_text(const struct fors_schedule *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fors_schedule_write(f, s), FORS_OK);
	fclose(f);
	return buf;
}

/* The schedule in len bytes at buf, read as the file "t". */
static inline int sched_from_buf(const char *buf, size_t len,
				 struct fors_schedule **s,
				 struct fors_error *err)
{
	FILE *f = fmemopen((void *)buf, len, "r");
	int r;

	ck_assert_ptr_nonnull(f);
	r = fors_schedule_read(f, "t", s, err);
	fclose(f);
	return r;
}

#endif
