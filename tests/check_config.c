// SPDX-License-Identifier: MIT
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/config.h"
#include "formats/guidfile.h"
#include "base/error.h"
#include "suite.h"

struct notes {
	int n, errors;
	char msg[8][512];
};

static void note(void *ctx, int error, const char *msg)
{
	struct notes *s = ctx;

	if (s->n < 8)
		snprintf(s->msg[s->n], sizeof(s->msg[0]), "%s", msg);
	s->n++;
	s->errors += error;
}

static int parse(const char *text, struct fors_config *c, struct notes *s)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int e;

	ck_assert_ptr_nonnull(f);
	memset(s, 0, sizeof(*s));
	fors_config_defaults(c);
	e = fors_config_parse(f, "fors.conf", c, note, s);
	fclose(f);
	return e;
}

START_TEST(every_key)
{
	struct fors_config c;
	struct notes s;

	ck_assert_int_eq(parse("# fors\n\n schedule_file  /run/fors/sched.dump # here\n"
			       "reference_topology\t/etc/opensm/healthy.topo\n"
			       "state_file /var/lib/fors/seen\nverify FALSE\n"
			       "link_holddown_s 30\nspine_hosts refuse\nbase_lids exchange\n"
			       "participants /etc/opensm/cn-guids\n"
			       "stage_wait_ms 5000\nilp_cache_user fors-batch\n"
			       "schedule_format text\n",
			       &c, &s), 0);
	ck_assert_int_eq(s.n, 0);
	ck_assert_str_eq(c.schedule_file, "/run/fors/sched.dump");
	ck_assert_str_eq(c.reference_topology, "/etc/opensm/healthy.topo");
	ck_assert_str_eq(c.state_file, "/var/lib/fors/seen");
	ck_assert_int_eq(c.verify, 0);
	ck_assert_uint_eq(c.link_holddown_s, 30);
	ck_assert_int_eq(c.refuse_spine_hosts, 1);
	ck_assert_int_eq(c.exchange_lids, 1);
	ck_assert_str_eq(c.participants, "/etc/opensm/cn-guids");
	ck_assert_uint_eq(c.stage_wait_ms, 5000);
	ck_assert_str_eq(c.ilp_cache_user, "fors-batch");
	ck_assert_int_eq(c.text_schedule, 1);
	fors_config_free(&c);
	ck_assert_int_eq(parse("base_lids phases\n", &c, &s), 0);
	ck_assert_int_eq(s.n, 0);
	ck_assert_int_eq(c.exchange_lids, 0);
	ck_assert_int_eq(c.phases_first, 1);
	fors_config_free(&c);
	ck_assert_int_eq(parse("participants all\n", &c, &s), 0);
	ck_assert_int_eq(s.n, 0);
	ck_assert_str_eq(c.participants, "all");
	fors_config_free(&c);
}
END_TEST

START_TEST(defaults)
{
	struct fors_config c;
	struct notes s;

	ck_assert_int_eq(parse("", &c, &s), 0);
	ck_assert_ptr_null(c.schedule_file);
	ck_assert_ptr_null(c.reference_topology);
	ck_assert_ptr_null(c.state_file);
	ck_assert_int_eq(c.verify, 1);
	ck_assert_uint_eq(c.link_holddown_s, 600);
	ck_assert_uint_eq(c.stage_wait_ms, 100);
	ck_assert_int_eq(c.refuse_spine_hosts, 0);
	ck_assert_int_eq(c.exchange_lids, 0);
	ck_assert_int_eq(c.text_schedule, 0);
	ck_assert_ptr_null(c.participants);
	ck_assert_ptr_null(c.ilp_cache_user);
	fors_config_free(&c);
}
END_TEST

/* The documented messages; the key keeps its default. */
static const struct {
	const char *text, *msg;
	int error;
} bad[] = {
	{ "colour blue\n", "fors.conf:1: unknown key 'colour' ignored", 0 },
	{ "\nschedule_file relative/x\n",
	  "fors.conf:2: schedule_file: expected an absolute path, got 'relative/x'; using the default", 1 },
	{ "verify maybe\n",
	  "fors.conf:1: verify: expected TRUE or FALSE, got 'maybe'; using the default", 1 },
	{ "state_file\n", "fors.conf:1: state_file: no value given; using the default", 1 },
	{ "link_holddown_s -1\n",
	  "fors.conf:1: link_holddown_s: expected seconds 0..86400, got '-1'; using the default", 1 },
	{ "link_holddown_s 10s\n",
	  "fors.conf:1: link_holddown_s: expected seconds 0..86400, got '10s'; using the default", 1 },
	{ "link_holddown_s 86401\n",
	  "fors.conf:1: link_holddown_s: expected seconds 0..86400, got '86401'; using the default", 1 },
	{ "stage_wait_ms 60001\n",
	  "fors.conf:1: stage_wait_ms: expected milliseconds 0..60000, got '60001'; using the default", 1 },
	{ "spine_hosts maybe\n",
	  "fors.conf:1: spine_hosts: expected route or refuse, got 'maybe'; using the default", 1 },
	{ "base_lids mine\n",
	  "fors.conf:1: base_lids: expected everyone, phases or exchange, got 'mine'; using the default", 1 },
	{ "schedule_format binary\n",
	  "fors.conf:1: schedule_format: expected compact or text, got 'binary'; using the default", 1 },
	{ "reference_topology # none\n",
	  "fors.conf:1: reference_topology: no value given; using the default", 1 },
	{ "participants cn-guids\n",
	  "fors.conf:1: participants: expected an absolute path, got 'cn-guids'; using the default", 1 },
	{ "ilp_cache_user bat:ch\n",
	  "fors.conf:1: ilp_cache_user: expected a user name, got 'bat:ch'; using the default", 1 },
	{ "ilp_cache_user -x\n",
	  "fors.conf:1: ilp_cache_user: expected a user name, got '-x'; using the default", 1 },
};

START_TEST(bad_lines)
{
	struct fors_config c;
	struct notes s;

	ck_assert_int_eq(parse(bad[_i].text, &c, &s), 0);
	ck_assert_int_eq(s.n, 1);
	ck_assert_int_eq(s.errors, bad[_i].error);
	ck_assert_str_eq(s.msg[0], bad[_i].msg);
	ck_assert_ptr_null(c.schedule_file);
	ck_assert_ptr_null(c.state_file);
	ck_assert_ptr_null(c.reference_topology);
	ck_assert_int_eq(c.verify, 1);
	ck_assert_uint_eq(c.link_holddown_s, FORS_HOLDDOWN);
	ck_assert_ptr_null(c.participants);
	ck_assert_ptr_null(c.ilp_cache_user);
	fors_config_free(&c);
}
END_TEST

static int guids(const char *text, struct fors_guids **g,
		 struct fors_error *err)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int e;

	ck_assert_ptr_nonnull(f);
	e = fors_guids_read(f, "cn", g, err);
	fclose(f);
	return e;
}

/*
 * OpenSM's cn_guid_file: a GUID a line, a node name after it, comments;
 * kept sorted and once each.
 */
START_TEST(guid_file)
{
	struct fors_guids *g;
	struct fors_error err;

	ck_assert_int_eq(guids("# compute nodes\n0x0002c903000a1b2c node-7\n"
			       "\n  0x1\t# first\n0002c903000a1b2c\n"
			       "0XFF\r\n", &g, &err), 0);
	ck_assert_uint_eq(g->n, 3);
	ck_assert_uint_eq(g->g[0], 0x1);
	ck_assert_uint_eq(g->g[1], 0xff);
	ck_assert_uint_eq(g->g[2], 0x0002c903000a1b2cull);
	ck_assert(fors_guids_has(g, 0xff));
	ck_assert(!fors_guids_has(g, 0xfe));
	fors_guids_free(g);
}
END_TEST

/* Each malformed line named, and a file with no GUID refused. */
static const struct {
	const char *text, *msg;
} bad_guids[] = {
	{ "0x1\nnode-7 0x2\n", "cn:2: not a port GUID (0x and hex digits, then anything after a blank)" },
	{ "0x12g4\n", "cn:1: not a port GUID (0x and hex digits, then anything after a blank)" },
	{ "0x0\n", "cn:1: not a port GUID (0x and hex digits, then anything after a blank)" },
	{ "0x1ffffffffffffffff\n", "cn:1: not a port GUID (0x and hex digits, then anything after a blank)" },
	{ "-1\n", "cn:1: not a port GUID (0x and hex digits, then anything after a blank)" },
	{ "# nobody\n\n", "cn: no port GUID in the file" },
	{ "", "cn: no port GUID in the file" },
};

START_TEST(guid_file_bad)
{
	struct fors_guids *g = (void *)1;
	struct fors_error err;

	ck_assert_int_eq(guids(bad_guids[_i].text, &g, &err), FORS_EFORMAT);
	ck_assert_ptr_null(g);
	ck_assert_str_eq(err.msg, bad_guids[_i].msg);
}
END_TEST

START_TEST(last_value_wins)
{
	struct fors_config c;
	struct notes s;

	ck_assert_int_eq(parse("schedule_file /a\nschedule_file /b\nverify no\nverify yes\n",
			       &c, &s), 0);
	ck_assert_str_eq(c.schedule_file, "/b");
	ck_assert_int_eq(c.verify, 1);
	fors_config_free(&c);
}
END_TEST

START_TEST(missing_file)
{
	struct fors_config c;
	struct notes s = { 0 };

	fors_config_defaults(&c);
	ck_assert_int_eq(fors_config_read("/nonexistent/fors.conf", &c, note, &s),
			 FORS_EIO);
	ck_assert_int_eq(s.errors, 1);
	ck_assert_str_eq(s.msg[0], "cannot open /nonexistent/fors.conf: No such file or directory");
	fors_config_free(&c);
}
END_TEST

/* A path longer than a message: the message is cut, nothing overflows. */
START_TEST(long_path)
{
	char name[1024], text[] = "verify maybe\n";
	FILE *f = fmemopen(text, strlen(text), "r");
	struct fors_config c;
	struct notes s;

	memset(name, 'd', sizeof(name) - 1);
	name[0] = '/';
	name[sizeof(name) - 1] = '\0';
	memset(&s, 0, sizeof(s));
	fors_config_defaults(&c);
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fors_config_parse(f, name, &c, note, &s), 0);
	fclose(f);
	ck_assert_int_eq(s.n, 1);
	ck_assert_int_eq(strncmp(s.msg[0], "/ddd", 4), 0);
	ck_assert_int_eq(c.verify, 1);
	fors_config_free(&c);
}
END_TEST

int main(void)
{
	Suite *su = suite_create("config");
	TCase *tc = tcase_create("parse");

	tcase_add_test(tc, every_key);
	tcase_add_test(tc, defaults);
	tcase_add_test(tc, guid_file);
	tcase_add_loop_test(tc, guid_file_bad, 0,
			    sizeof(bad_guids) / sizeof(bad_guids[0]));
	tcase_add_loop_test(tc, bad_lines, 0, sizeof(bad) / sizeof(bad[0]));
	tcase_add_test(tc, last_value_wins);
	tcase_add_test(tc, missing_file);
	tcase_add_test(tc, long_path);
	suite_add_tcase(su, tc);
	return run_suite(su);
}
