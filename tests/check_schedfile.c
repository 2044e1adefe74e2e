// SPDX-License-Identifier: MIT
/* The schedule file: writer/reader round trip and malformed input. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "formats/schedfile.h"
#include "verify/verify.h"
#include "suite.h"
#include "sched_util.h"

#define to_text sched_to_text

static int from_text(const char *text, struct fors_schedule **s,
		     struct fors_error *err)
{
	return sched_from_buf(text, strlen(text), s, err);
}

static void assert_same(const struct fors_schedule *a,
			const struct fors_schedule *b)
{
	size_t i;

	ck_assert_uint_eq(a->m0, b->m0);
	ck_assert_uint_eq(a->m1, b->m1);
	ck_assert_uint_eq(a->q, b->q);
	ck_assert_uint_eq(a->f, b->f);
	ck_assert_uint_eq(a->m, b->m);
	ck_assert_int_eq(a->lmc, b->lmc);
	ck_assert_uint_eq(a->nphases, b->nphases);
	ck_assert_uint_eq(a->nxfers, b->nxfers);
	for (i = 0; i <= a->nphases; i++)
		ck_assert_uint_eq(a->start[i], b->start[i]);
	ck_assert_mem_eq(a->xfers, b->xfers, a->nxfers * sizeof(*a->xfers));
	ck_assert_uint_eq(a->nhosts, b->nhosts);
	for (i = 0; i < a->nhosts; i++) {
		ck_assert_uint_eq(a->hosts[i].sid, b->hosts[i].sid);
		ck_assert_uint_eq(a->hosts[i].guid, b->hosts[i].guid);
		ck_assert_uint_eq(a->hosts[i].lid, b->hosts[i].lid);
		ck_assert_uint_eq(a->hosts[i].port, b->hosts[i].port);
		ck_assert_str_eq(a->hosts[i].desc, b->hosts[i].desc);
	}
	ck_assert_uint_eq(a->nextra, b->nextra);
	for (i = 0; i < a->nextra; i++) {
		ck_assert_str_eq(a->extra[i].key, b->extra[i].key);
		ck_assert_str_eq(a->extra[i].value, b->extra[i].value);
	}
}

START_TEST(round_trip_abstract)
{
	struct fors_sched_params sp = { 8, 5, 3, NULL };
	struct fors_schedule *s, *t;
	struct fors_error err;
	char *text, head[160];

	ck_assert_int_eq(fors_schedule_build(&s, &sp, NULL, &err), FORS_OK);
	text = to_text(s);
	snprintf(head, sizeof(head),
		 "fors-schedule 1\nfabric hosts-per-leaf 8 leaves 5 planes 8 reduction 3 impacted 3 lmc - phases %u\nphase 0 ",
		 s->nphases);
	ck_assert_int_eq(strncmp(text, head, strlen(head)), 0);
	ck_assert_int_eq(from_text(text, &t, &err), FORS_OK);
	assert_same(s, t);
	fors_schedule_free(t);
	fors_schedule_free(s);
	free(text);
}
END_TEST

/*
 * The key detour names a number of the schedule's last phases (routing/
 * detour.h); anything else is refused with the key named, and 0 or every
 * phase are numbers it may have.
 */
START_TEST(detour_key)
{
	static const char *const bad[] = { "x", "-1", "1x", "", "33" };
	struct fors_sched_params sp = { 4, 3, 1, NULL };
	struct fors_schedule *s;
	struct fors_error err;
	char all[16];
	size_t i;

	ck_assert_int_eq(fors_schedule_build(&s, &sp, NULL, &err), FORS_OK);
	ck_assert_uint_lt(s->nphases, 33);
	ck_assert_int_eq(fors_schedule_add_key(s, "detour", "0"), FORS_OK);
	ck_assert_msg(fors_schedule_verify(s, &err) == FORS_OK, "%s", err.msg);
	snprintf(all, sizeof(all), "%u", s->nphases);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]) + 1; i++) {
		const char *v = i < sizeof(bad) / sizeof(bad[0]) ? bad[i] : all;

		free(s->extra[s->nextra - 1].value);
		s->extra[s->nextra - 1].value = strdup(v);
		ck_assert_ptr_nonnull(s->extra[s->nextra - 1].value);
		ck_assert_int_eq(fors_schedule_verify(s, &err),
				 v == all ? FORS_OK : FORS_EVERIFY);
		ck_assert_msg(v == all || strstr(err.msg, "key detour:"),
			      "'%s': %s", v, err.msg);
	}
	fors_schedule_free(s);
}
END_TEST

/*
 * An abstract schedule with absent hosts says which (the key absent), so
 * fors check needs no fabric to find every present pair in it.
 */
START_TEST(abstract_absent)
{
	static const char *const bad[] = {
		"1,", ",1", "1,,6", "12", "x", "1;6", "-1", "",
	};
	uint8_t present[12];
	struct fors_sched_params sp = { 4, 3, 1, present };
	struct fors_schedule *s, *t;
	struct fors_error err;
	char *text;
	size_t i;

	memset(present, 1, sizeof(present));
	ck_assert_int_eq(fors_schedule_build(&s, &sp, NULL, &err), FORS_OK);
	ck_assert_int_eq(fors_schedule_add_absent(s, present), FORS_OK);
	ck_assert_uint_eq(s->nextra, 0);
	ck_assert_int_eq(fors_schedule_verify(s, &err), FORS_OK);
	fors_schedule_free(s);
	present[1] = present[6] = 0;
	ck_assert_int_eq(fors_schedule_build(&s, &sp, NULL, &err), FORS_OK);
	ck_assert_int_eq(fors_schedule_verify(s, &err), FORS_EVERIFY);
	ck_assert_pstr_eq(strstr(err.msg, "is missing") ? "" : err.msg, "");
	ck_assert_int_eq(fors_schedule_add_absent(s, present), FORS_OK);
	text = to_text(s);
	ck_assert_ptr_nonnull(strstr(text, " absent 1,6\n"));
	ck_assert_int_eq(from_text(text, &t, &err), FORS_OK);
	ck_assert_msg(fors_schedule_verify(t, &err) == FORS_OK, "%s", err.msg);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		free(t->extra[0].value);
		t->extra[0].value = strdup(bad[i]);
		ck_assert_int_eq(fors_schedule_verify(t, &err), FORS_EVERIFY);
		ck_assert_msg(strstr(err.msg, "key absent:"), "'%s': %s",
			      bad[i], err.msg);
	}
	free(t->extra[0].value);
	t->extra[0].value = strdup("1");
	ck_assert_int_eq(fors_schedule_verify(t, &err), FORS_EVERIFY);
	ck_assert_msg(strstr(err.msg, "-> 6 is missing"), "%s", err.msg);
	t->hosts = calloc(12, sizeof(*t->hosts));
	ck_assert_ptr_nonnull(t->hosts);
	for (i = 0; i < 12; i++)
		if (i != 6)
			t->hosts[t->nhosts++].sid = (uint32_t)i;
	ck_assert_int_eq(fors_schedule_verify(t, &err), FORS_EVERIFY);
	ck_assert_msg(strstr(err.msg, "host 1 has a host line"), "%s", err.msg);
	fors_schedule_free(t);
	fors_schedule_free(s);
	free(text);
}
END_TEST

/* A routed schedule: host lines with awkward descriptions, planes, DLIDs. */
START_TEST(round_trip_routed)
{
	static const char text[] =
		"# a comment before everything\n"
		"fors-schedule 1\n"
		"fabric hosts-per-leaf 2 leaves 2 planes 2 reduction 0 impacted 0 lmc 1 phases 3 generation 17 method alg2\n"
		"host 0 0x0002c90300000001 2 \"H \\\"zero\\\" \\\\ 0\" 1\n"
		"host 1 0x0002c90300000002 4 \"H1\" 1\n"
		"\n"
		"host 2 0x0002C90300000003 6 \"\" 2\n"
		"host 3 0x0002c90300000004 8 \"H3\tx\" 1\n"
		"phase 0 4\n"
		"0 2 0 6\n1 3 1 9\n2 0 0 2\n3 1 1 5\n"
		"phase 1 4\n"
		"0 3 1 9\n\t1  2 0 6 \n2 1 1 5\n3 0 0 2\n"
		"# comments anywhere\n"
		"phase 2 4\n"
		"0 1 - 4\n1 0 - 3\n2 3 - 8\n3 2 - 6\n"
		"end 12\n";
	struct fors_schedule *s, *t;
	struct fors_error err;
	char *again;

	ck_assert_msg(from_text(text, &s, &err) == FORS_OK, "%s", err.msg);
	ck_assert_str_eq(s->hosts[0].desc, "H \"zero\" \\ 0");
	ck_assert_str_eq(s->hosts[2].desc, "");
	ck_assert_str_eq(s->hosts[3].desc, "H3\tx");
	ck_assert_uint_eq(s->hosts[2].guid, 0x0002c90300000003ull);
	ck_assert_str_eq(s->extra[0].key, "generation");
	ck_assert_str_eq(s->extra[1].value, "alg2");
	ck_assert_int_eq(s->lmc, 1);
	ck_assert_int_eq(fors_xfer_plane(&s->xfers[8]), -1);
	ck_assert_msg(fors_schedule_verify(s, &err) == FORS_OK, "%s",
		      err.msg);
	again = to_text(s);
	ck_assert_int_eq(from_text(again, &t, &err), FORS_OK);
	assert_same(s, t);
	fors_schedule_free(s);
	fors_schedule_free(t);
	free(again);
}
END_TEST

/*
 * The largest host ids and plane a transfer holds (six bytes, the plane
 * split around them) read back whole, and each field's setting leaves
 * the others alone.
 */
START_TEST(xfer_extremes)
{
	static const char text[] =
		"fors-schedule 1\n"
		"fabric hosts-per-leaf 1024 leaves 2 planes 1023 reduction 0 impacted 0 lmc - phases 1\n"
		"phase 0 2\n2047 0 1022 -\n0 2047 0 -\nend 2\n";
	struct fors_schedule *s;
	struct fors_error err;
	struct fors_xfer x;
	int32_t p;

	ck_assert_msg(from_text(text, &s, &err) == FORS_OK, "%s", err.msg);
	ck_assert_uint_eq(s->xfers[0].src, 2047);
	ck_assert_uint_eq(s->xfers[0].dst, 0);
	ck_assert_int_eq(fors_xfer_plane(&s->xfers[0]), 1022);
	ck_assert_uint_eq(s->xfers[1].dst, 2047);
	ck_assert_int_eq(fors_xfer_plane(&s->xfers[1]), 0);
	fors_schedule_free(s);
	for (p = -1; p < FORS_MAX_PLANES; p++) {
		x = fors_xfer_make(2047, 1365, p, 0xfffe);
		ck_assert_int_eq(fors_xfer_plane(&x), p);
		ck_assert_uint_eq(x.src, 2047);
		ck_assert_uint_eq(x.dst, 1365);
		ck_assert_uint_eq(x.dlid, 0xfffe);
		x.src = 0;
		x.dst = 682;
		ck_assert_int_eq(fors_xfer_plane(&x), p);
	}
}
END_TEST

/*
 * A change to the plane or the DLID of any transfer, first or last,
 * changes the digest, and changing it back restores it.
 */
START_TEST(digest_every_field)
{
	struct fors_sched_params sp = { 4, 5, 0, NULL };
	struct fors_schedule *s;
	struct fors_error err;
	uint64_t d;
	size_t i, k;

	ck_assert_msg(fors_schedule_build(&s, &sp, NULL, &err) == FORS_OK,
		      "%s", err.msg);
	d = fors_schedule_digest(s, NULL);
	for (k = 0; k < 2; k++) {
		i = k ? s->nxfers - 1 : 0;
		fors_xfer_set_plane(&s->xfers[i], 3);
		ck_assert_uint_ne(fors_schedule_digest(s, NULL), d);
		fors_xfer_set_plane(&s->xfers[i], -1);
		ck_assert_uint_eq(fors_schedule_digest(s, NULL), d);
		s->xfers[i].dlid = 7;
		ck_assert_uint_ne(fors_schedule_digest(s, NULL), d);
		s->xfers[i].dlid = FORS_NO_DLID;
		ck_assert_uint_eq(fors_schedule_digest(s, NULL), d);
	}
	fors_schedule_free(s);
}
END_TEST

START_TEST(write_file_atomic)
{
	struct fors_sched_params sp = { 4, 3, 1, NULL };
	char dir[] = "/tmp/fors-test-XXXXXX", path[64];
	struct fors_schedule *s, *t;
	struct fors_error err;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/sched", dir);
	ck_assert_int_eq(fors_schedule_build(&s, &sp, NULL, &err), FORS_OK);
	ck_assert_int_eq(fors_schedule_write_file(path, s, FORS_SCHED_TEXT, &err), FORS_OK);
	ck_assert_int_eq(fors_schedule_read_file(path, &t, &err), FORS_OK);
	assert_same(s, t);
	fors_schedule_free(t);
	ck_assert_int_eq(access(path, R_OK), 0);
	unlink(path);
	rmdir(dir);
	snprintf(path, sizeof(path), "%s/sched", dir);
	ck_assert_int_eq(fors_schedule_write_file(path, s, FORS_SCHED_TEXT, &err), FORS_EIO);
	ck_assert_ptr_nonnull(strstr(err.msg, "cannot write"));
	ck_assert_int_eq(fors_schedule_read_file(path, &t, &err), FORS_EIO);
	ck_assert_ptr_nonnull(strstr(err.msg, "cannot open"));
	ck_assert_ptr_null(t);
	fors_schedule_free(s);
}
END_TEST

#define HEAD "fors-schedule 1\nfabric hosts-per-leaf 2 leaves 2 planes 2 reduction 0 impacted 0 lmc - phases 1\n"

static const struct {
	const char *text;
	const char *msg;
} malformed[] = {
	{ "", "t:0: empty file" },
	{ "fors-schedule 3\n", "t:1: unsupported schedule version '3' (this reader knows 1 and 2)" },
	{ "fors-schedule\n", "t:1: expected 'fors-schedule 1'" },
	{ "schedule 1\n", "t:1: expected 'fors-schedule 1'" },
	{ "fors-schedule 1\nphase 0 1\n", "t:2: expected the 'fabric' line" },
	{ "fors-schedule 1\nfabric hosts-per-leaf 2 leaves 2 planes 2 reduction 0 impacted 0 lmc - \n",
	  "t:2: fabric line lacks key 'phases'" },
	{ "fors-schedule 1\nfabric hosts-per-leaf 2 leaves\n",
	  "t:2: fabric line: a key without a value" },
	{ "fors-schedule 1\nfabric hosts-per-leaf x leaves 2 planes 2 reduction 0 impacted 0 lmc - phases 1\n",
	  "t:2: bad value for key 'hosts-per-leaf'" },
	{ "fors-schedule 1\nfabric hosts-per-leaf 2 leaves 2 planes 2 reduction 0 impacted 0 lmc - phases 1 leaves 3\n",
	  "t:2: key 'leaves' given twice" },
	{ "fors-schedule 1\nfabric hosts-per-leaf 2 leaves 2 planes 2 reduction 2 impacted 0 lmc - phases 1\n",
	  "t:2: reduction must be below hosts-per-leaf" },
	{ "fors-schedule 1\nfabric hosts-per-leaf 2 leaves 2 planes 1024 reduction 0 impacted 0 lmc - phases 1\n",
	  "t:2: planes above 1023" },
	{ "fors-schedule 1\nfabric hosts-per-leaf -2 leaves 2 planes 2 reduction 0 impacted 0 lmc - phases 1\n",
	  "t:2: bad value for key 'hosts-per-leaf'" },
	{ "fors-schedule 1\nfabric hosts-per-leaf 2 leaves 2 planes 2 reduction 0 impacted 0 lmc - phases 1 \"\" 2\n",
	  "t:2: fabric line: a key or value that is not a plain field" },
	{ "fors-schedule 1\nfabric hosts-per-leaf 2 leaves 2 planes 2 reduction 0 impacted 0 lmc - phases 1 method \"a b\"\n",
	  "t:2: fabric line: a key or value that is not a plain field" },
	{ HEAD, "t:2: truncated file: missing phases" },
	{ HEAD "phase 1 0\n", "t:3: expected 'phase 0 <n>': phases are numbered in order" },
	{ HEAD "phase 0 2\n0 1 - -\n", "t:4: truncated file: missing transfers" },
	{ HEAD "phase 0 1\n0 1 - -\n", "t:4: truncated file: no 'end' line" },
	{ HEAD "phase 0 1\n0 1 - -\nend 2\n", "t:5: 'end' count differs" },
	{ HEAD "phase 0 1\n0 1 - -\nend 1\nphase 1 0\n", "t:6: content after 'end'" },
	{ HEAD "phase 0 1\n0 4 - -\nend 1\n", "t:4: expected a destination host id in range" },
	{ HEAD "phase 0 1\n0 1 2 -\nend 1\n", "t:4: expected a plane below 'planes' or '-'" },
	{ HEAD "phase 0 1\n0 1 -\nend 1\n", "t:4: expected '<src-sid> <dst-sid> <plane> <dlid>'" },
	{ HEAD "phase 0 1\n01x 1 - -\nend 1\n", "t:4: expected a source host id in range" },
	{ HEAD "phase 0 1\n0 1 - 0x\nend 1\n", "t:4: expected a DLID or '-'" },
	{ HEAD "phase 0 5\n", "t:3: expected a transfer count of at most one per host" },
	{ HEAD "host 0 0x12 1 \"a\" 1\n", "t:3: expected a port GUID of 0x and 16 hex digits" },
	{ HEAD "host 0 0x0000000000000001 1 \"a\n", "t:3: malformed quoted field" },
	{ HEAD "host 0 0x0000000000000001 1 \"a\\n\" 1\n", "t:3: malformed quoted field" },
	{ HEAD "host 0 0x0000000000000001 1 a\n", "t:3: expected 'host <sid>" },
	{ HEAD "host 9 0x0000000000000001 1 \"a\" 1\n", "t:3: expected a host id below" },
	{ HEAD "host 4 0x0000000000000001 1 \"a\" 1\n", "t:3: expected a host id below" },
	{ HEAD "phase 0 1\n0 1 - -\nend 1\nend 1\n", "t:6: content after 'end'" },
};

START_TEST(rejects_malformed)
{
	struct fors_schedule *s = (void *)1;
	struct fors_error err;
	int i = _i;

	ck_assert_int_eq(from_text(malformed[i].text, &s, &err),
			 FORS_EFORMAT);
	ck_assert_ptr_null(s);
	ck_assert_msg(!strncmp(err.msg, malformed[i].msg,
			       strlen(malformed[i].msg)),
		      "case %d: got \"%s\", want \"%s...\"", i, err.msg,
		      malformed[i].msg);
}
END_TEST

int main(void)
{
	Suite *su = suite_create("schedfile");
	TCase *tc = tcase_create("file");

	tcase_add_test(tc, round_trip_abstract);
	tcase_add_test(tc, round_trip_routed);
	tcase_add_test(tc, abstract_absent);
	tcase_add_test(tc, detour_key);
	tcase_add_test(tc, write_file_atomic);
	tcase_add_test(tc, xfer_extremes);
	tcase_add_test(tc, digest_every_field);
	tcase_add_loop_test(tc, rejects_malformed, 0,
			    sizeof(malformed) / sizeof(malformed[0]));
	suite_add_tcase(su, tc);
	return run_suite(su);
}
