// SPDX-License-Identifier: MIT
/*
 * Hold-down: a flapping cable changes the schedule when it first goes down
 * and when it has stayed up for the hold-down, not on every flap; the
 * state file keeps the cables' history.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fabric/holddown.h"
#include "routing/route.h"
#include "formats/schedfile.h"
#include "fabric_util.h"
#include "suite.h"
#include "formats/statefile.h"

#define HOLD 600

static struct fors_topology *ft44(int cut)
{
	uint8_t failed[4 * 4] = { 0 };
	struct fors_netgen g = { 4, 4, 4, 1, NULL, 0, failed, NULL, 0, 0 };

	failed[0] = (uint8_t)cut;	/* L00 - S00 */
	return gen_topology(&g);
}

/* The schedule routed on live, as its file would hold it. */
/*
 * The schedule file's text without its `bound` (which goes to *bound) and
 * `usable`: a cable back but held is live to the bound, so the bounds
 * follow every flap; the schedule must not.
 */
static char *schedule_text(const struct fors_topology *live,
			   const struct fors_topology *ref, int *bound)
{
	struct fors_route_opts o = { .lmc = 2, .renumber_lids = 0 };
	struct fors_route *r;
	struct fors_error err;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	ck_assert_msg(fors_route_compute(live, ref, &o, &r, &err) == 0, "%s",
		      err.msg);
	while (strcmp(r->s->extra[r->s->nextra - 1].key, "bound")) {
		ck_assert_str_eq(r->s->extra[r->s->nextra - 1].key, "usable");
		r->s->nextra--;
		free(r->s->extra[r->s->nextra].key);
		free(r->s->extra[r->s->nextra].value);
	}
	*bound = (int)r->bound.t;
	r->s->nextra--;
	free(r->s->extra[r->s->nextra].key);
	free(r->s->extra[r->s->nextra].value);
	f = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fors_schedule_write(f, r->s), 0);
	fclose(f);
	fors_route_free(r);
	return buf;
}

static const struct fors_cable *cable0(const struct fors_cables *cs)
{
	size_t i;

	for (i = 0; i < cs->n; i++)
		if (!strcmp(cs->c[i].id[0], "L00") && !strcmp(cs->c[i].id[1], "S00"))
			return &cs->c[i];
	ck_abort_msg("no cable L00 - S00");
	return NULL;
}

/*
 * Ten flaps inside the hold-down: the schedule changes when the cable
 * first goes down and once more when it has been up for the hold-down.
 */
START_TEST(ten_flaps_two_changes)
{
	struct fors_topology *ref = ft44(0);
	struct fors_cables *cs = fors_cables_new();
	struct fors_error err;
	char *last = NULL;
	int64_t t = 1000, wake;
	int i, b, changes = 0, bounds = -1, bound = -1;

	ck_assert_ptr_nonnull(cs);
	for (i = 0; i <= 22; i++) {
		/* 0 healthy, then down and back ten times, then quiet */
		int cut = i >= 1 && i <= 20 && i % 2;
		struct fors_topology *live = ft44(cut);
		char *text;

		if (i == 22)
			t = cable0(cs)->up_since + HOLD;
		ck_assert_int_eq(fors_cables_update(cs, ref, live, t, HOLD, &wake,
						    &err), 0);
		text = schedule_text(live, ref, &b);
		bounds += b != bound;
		bound = b;
		changes += last && strcmp(text, last) != 0;
		if (i >= 2 && i <= 21 && !cut) {
			ck_assert_int_eq(cable0(cs)->state, FORS_CABLE_HELD);
			ck_assert_int_eq(wake, cable0(cs)->up_since + HOLD);
		}
		free(last);
		last = text;
		fors_topology_free(live);
		t += 30;
	}
	ck_assert_int_eq(changes, 2);
	ck_assert_int_eq(bounds, 20);
	ck_assert_int_eq(cable0(cs)->state, FORS_CABLE_UP);
	ck_assert_uint_eq(cable0(cs)->flaps, 10);
	ck_assert_int_eq(wake, 0);
	free(last);
	fors_cables_free(cs);
	fors_topology_free(ref);
}
END_TEST

/* A held cable's ports are flagged, and only those; 0 s holds nothing. */
START_TEST(held_ports_and_no_holddown)
{
	struct fors_topology *ref = ft44(0), *live;
	struct fors_cables *cs = fors_cables_new();
	struct fors_error err;
	uint32_t x, k, held = 0, down;
	int64_t wake;

	live = ft44(1);
	ck_assert_int_eq(fors_cables_update(cs, ref, live, 10, 0, &wake, &err), 0);
	fors_cables_count(cs, &down, NULL);
	ck_assert_uint_eq(down, 1);
	fors_topology_free(live);
	live = ft44(0);
	ck_assert_int_eq(fors_cables_update(cs, ref, live, 20, 0, &wake, &err), 0);
	ck_assert_int_eq(cable0(cs)->state, FORS_CABLE_UP);
	fors_topology_free(live);
	live = ft44(1);
	fors_cables_update(cs, ref, live, 30, 5, &wake, &err);
	fors_topology_free(live);
	live = ft44(0);
	ck_assert_int_eq(fors_cables_update(cs, ref, live, 31, 5, &wake, &err), 0);
	ck_assert_int_eq(wake, 36);
	for (x = 0; x < live->nnodes; x++)
		for (k = 1; k <= live->nodes[x].nports; k++)
			held += live->nodes[x].ports[k].held;
	ck_assert_uint_eq(held, 2);
	fors_topology_free(live);
	fors_cables_free(cs);
	fors_topology_free(ref);
}
END_TEST

/* The digest survives the file, and sees a change in a plane. */
START_TEST(digest_of_the_file)
{
	struct fors_topology *live = ft44(1);
	struct fors_route_opts o = { .lmc = 2, .renumber_lids = 0 };
	struct fors_schedule *back;
	struct fors_route *r;
	struct fors_error err;
	char *buf = NULL;
	size_t len = 0;
	uint64_t d;
	struct fors_xfer *x;
	FILE *f;

	ck_assert_int_eq(fors_route_compute(live, NULL, &o, &r, &err), 0);
	d = fors_schedule_digest(r->s, NULL);
	ck_assert_int_eq(fors_schedule_add_key(r->s, "generation", "7"), 0);
	ck_assert_uint_eq(fors_schedule_digest(r->s, "generation"), d);
	ck_assert_uint_ne(fors_schedule_digest(r->s, NULL), d);
	f = open_memstream(&buf, &len);
	ck_assert_int_eq(fors_schedule_write(f, r->s), 0);
	fclose(f);
	f = fmemopen(buf, len, "r");
	ck_assert_int_eq(fors_schedule_read(f, "back", &back, &err), 0);
	fclose(f);
	ck_assert_uint_eq(fors_schedule_digest(back, "generation"), d);
	x = &back->xfers[back->nxfers / 2];
	fors_xfer_set_plane(x, fors_xfer_plane(x) ^ 1);
	ck_assert_uint_ne(fors_schedule_digest(back, "generation"), d);
	fors_schedule_free(back);
	free(buf);
	fors_route_free(r);
	fors_topology_free(live);
}
END_TEST

/*
 * A leaf whose uplinks all come back held has no uplink for data: the
 * fabric cannot be routed, so the held cables are put back into use.
 */
START_TEST(release_when_unroutable)
{
	uint8_t cut[2 * 2] = { 1, 1, 0, 0 };
	struct fors_netgen g = { 2, 2, 2, 1, NULL, 0, cut, NULL, 0, 0 };
	struct fors_netgen h = { 2, 2, 2, 1, NULL, 0, NULL, NULL, 0, 0 };
	struct fors_topology *ref = gen_topology(&h), *live = gen_topology(&g);
	struct fors_cables *cs = fors_cables_new();
	struct fors_route_opts o = { .lmc = 1, .renumber_lids = 0 };
	struct fors_route *r;
	struct fors_error err;
	int64_t wake;

	fors_cables_update(cs, ref, live, 10, HOLD, &wake, &err);
	fors_topology_free(live);
	live = gen_topology(&h);
	fors_cables_update(cs, ref, live, 20, HOLD, &wake, &err);
	ck_assert_int_eq(fors_route_compute(live, ref, &o, &r, &err), FORS_EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "has hosts but no live uplink"));
	ck_assert_uint_eq(fors_cables_release(cs, live), 2);
	ck_assert_int_eq(fors_route_compute(live, ref, &o, &r, &err), 0);
	ck_assert_uint_eq(r->fb->f, 0);
	fors_route_free(r);
	fors_topology_free(live);
	fors_topology_free(ref);
	fors_cables_free(cs);
}
END_TEST

static char *tmp_path(const char *text)
{
	char *path = strdup("/tmp/fors-state-XXXXXX");
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");

	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
	return path;
}

/* Written, read back, the same; the topology comes along. */
START_TEST(state_round_trip)
{
	struct fors_topology *ref = ft44(0), *live = ft44(1), *seen;
	struct fors_cables *cs = fors_cables_new(), *back;
	struct fors_error err;
	char *path = tmp_path("");
	int64_t wake;

	fors_cables_update(cs, ref, live, 100, HOLD, &wake, &err);
	cs->written = 123;
	ck_assert_int_eq(fors_state_write_file(path, cs, ref, &err), 0);
	ck_assert_msg(fors_state_read_file(path, &back, &seen, &err) == 0, "%s",
		      err.msg);
	ck_assert_uint_eq(back->n, 1);
	ck_assert_int_eq(back->written, 123);
	ck_assert_uint_eq(back->holddown, HOLD);
	ck_assert_int_eq(cable0(back)->state, FORS_CABLE_DOWN);
	ck_assert_int_eq(cable0(back)->down_since, 100);
	ck_assert_uint_eq(cable0(back)->flaps, 1);
	ck_assert_uint_eq(seen->nnodes, ref->nnodes);
	unlink(path);
	free(path);
	fors_cables_free(cs);
	fors_cables_free(back);
	fors_topology_free(seen);
	fors_topology_free(live);
	fors_topology_free(ref);
}
END_TEST

/* The state files of earlier releases: a bare topology. */
START_TEST(state_bare_topology)
{
	char *path = tmp_path("Switch 2 \"S\"\n[1] \"H\"[1]\nHca 1 \"H\"\n[1] \"S\"[1]\n");
	struct fors_topology *seen;
	struct fors_cables *cs;
	struct fors_error err;

	ck_assert_int_eq(fors_state_read_file(path, &cs, &seen, &err), 0);
	ck_assert_uint_eq(cs->n, 0);
	ck_assert_uint_eq(seen->nnodes, 2);
	unlink(path);
	free(path);
	fors_cables_free(cs);
	fors_topology_free(seen);
}
END_TEST

static const struct {
	const char *text, *msg;
} bad_state[] = {
	{ "fors-state 2\n", ":1: expected 'fors-state 1'" },
	{ "fors-state 1\nwritten -5\n", ":2: expected 'written' and a number" },
	{ "fors-state 1\ncable \"A\" 1 \"B\" 2 up down 0 up 0\n",
	  ":2: expected up, down or held, then 'down T up T flaps N'" },
	{ "fors-state 1\ncable \"B\" 1 \"A\" 2 up down 0 up 0 flaps 0\n",
	  ":2: cable ends out of order" },
	{ "fors-state 1\ncable \"A\" 0 \"B\" 2 up down 0 up 0 flaps 0\n",
	  ":2: expected a port 1..254" },
	{ "fors-state 1\ncable \"A\" 1 \"B\" 2 held down 0 up 0 flaps 0\n"
	  "cable \"A\" 1 \"B\" 2 held down 0 up 0 flaps 0\n", ":3: the same cable twice" },
	{ "fors-state 1\nholddown 60\nsomething\n", ":3: expected 'written', 'holddown', 'cable' or 'topology'" },
	{ "fors-state 1\ntopology\n", "topology after line 2: no nodes" },
	{ "", ": no nodes in the topology" },
};

/* A truncated or corrupt state file: one message, file and line. */
START_TEST(state_bad)
{
	char *path = tmp_path(bad_state[_i].text);
	struct fors_topology *seen;
	struct fors_cables *cs;
	struct fors_error err;

	ck_assert_int_ne(fors_state_read_file(path, &cs, &seen, &err), 0);
	ck_assert_msg(strstr(err.msg, bad_state[_i].msg), "%s", err.msg);
	ck_assert_ptr_null(cs);
	ck_assert_ptr_null(seen);
	unlink(path);
	free(path);
}
END_TEST

int main(void)
{
	Suite *su = suite_create("holddown");
	TCase *tc = tcase_create("holddown");

	tcase_add_test(tc, ten_flaps_two_changes);
	tcase_add_test(tc, held_ports_and_no_holddown);
	tcase_add_test(tc, digest_of_the_file);
	tcase_add_test(tc, release_when_unroutable);
	tcase_add_test(tc, state_round_trip);
	tcase_add_test(tc, state_bare_topology);
	tcase_add_loop_test(tc, state_bad, 0, sizeof(bad_state) / sizeof(bad_state[0]));
	suite_add_tcase(su, tc);
	return run_suite(su);
}
