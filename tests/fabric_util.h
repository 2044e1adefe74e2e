/* SPDX-License-Identifier: MIT */
#ifndef FORS_TESTS_FABRIC_UTIL_H
#define FORS_TESTS_FABRIC_UTIL_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/netgen.h"
#include "fabric/topology.h"
#include "formats/ibnetdiscover.h"

/* Whatever write() prints, parsed back as a topology. */
static inline struct fors_topology *
reparse(int (*write)(FILE *, const void *), const void *arg)
{
	struct fors_topology *t;
	struct fors_error err;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(write(f, arg), 0);
	fclose(f);
	f = fmemopen(buf, len, "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_msg(fors_topology_read(f, "written", &t, &err) == FORS_OK,
		      "%s\n%s", err.msg, buf);
	fclose(f);
	free(buf);
	return t;
}

static inline int write_net(FILE *f, const void *g)
{
	return fors_netgen_write(f, g);
}

/* Generate a net file with g and parse it back. */
static inline struct fors_topology *gen_topology(const struct fors_netgen *g)
{
	return reparse(write_net, g);
}

/*
 * The LHCb fabric FT(2;20,18) with its 326 hosts (slots 18 and 19 empty
 * but on leaf 0), failed[leaf * 20 + spine] cut and dead spines gone
 * (either may be NULL).
 */
static inline struct fors_topology *lhcb_topology(const uint8_t *failed,
						  const uint8_t *dead)
{
	uint8_t absent[360] = { 0 };
	struct fors_netgen g = { 20, 18, 20, 1, absent, 0, failed, dead, 0, 0 };
	uint32_t i;

	for (i = 20; i < 360; i++)
		absent[i] = i % 20 >= 18;
	return gen_topology(&g);
}

static inline struct fors_topology *text_topology(const char *text)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	struct fors_topology *t;
	struct fors_error err;

	ck_assert_ptr_nonnull(f);
	ck_assert_msg(fors_topology_read(f, "text", &t, &err) == FORS_OK,
		      "%s", err.msg);
	fclose(f);
	return t;
}

/*
 * What a subnet manager on H000 sees of netgen's FT(2;4,4) once L00 is cut
 * off from every spine: L00 and its four hosts.
 */
static inline struct fors_topology *lone_leaf(void)
{
	return text_topology(
		"Switch 8 \"L00\"\n[1] \"H000\"[1]\n[2] \"H001\"[1]\n"
		"[3] \"H002\"[1]\n[4] \"H003\"[1]\n"
		"Hca 1 \"H000\"\n[1] \"L00\"[1]\nHca 1 \"H001\"\n[1] \"L00\"[2]\n"
		"Hca 1 \"H002\"\n[1] \"L00\"[3]\nHca 1 \"H003\"\n[1] \"L00\"[4]\n");
}

/* The path of a file of tests/data. */
static inline const char *data_path(const char *file, char *buf, size_t len)
{
	const char *dir = getenv("srcdir");

	snprintf(buf, len, "%s/tests/data/%s", dir ? dir : ".", file);
	return buf;
}

/* A file of tests/data, parsed. */
static inline struct fors_topology *fixture(const char *file)
{
	struct fors_topology *t;
	struct fors_error err;
	char path[512];

	ck_assert_msg(fors_topology_read_file(data_path(file, path, sizeof(path)),
					      &t, &err) == FORS_OK, "%s", err.msg);
	return t;
}

#endif
