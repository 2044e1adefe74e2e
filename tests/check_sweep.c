// SPDX-License-Identifier: MIT
/*
 * The heavy-sweep policy without OpenSM: sequences of fabrics through
 * sweep/sweep.c as the plugin drives it, the tables read back as the
 * switches would hold them, the files in a private directory.
 */
#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fabric_util.h"
#include "formats/schedfile.h"
#include "formats/statefile.h"
#include "route_util.h"
#include "suite.h"
#include "sweep/publish.h"
#include "sweep/sweep.h"

#define HOLD 600

/* The log lines a sweep wrote, one per line. */
struct log {
	char text[1 << 14];
	uint32_t errors;
};

static void sink(void *ctx, int error, const char *msg)
{
	struct log *l = ctx;
	size_t n = strlen(l->text);

	snprintf(l->text + n, sizeof(l->text) - n, "%s\n", msg);
	l->errors += error != 0;
}

/* A run: a private directory for the files, the state, the log. */
struct run {
	char dir[64];
	char sched[128], state[128], rejected[128];
	struct fors_sweep_state *st;
	struct log log;
	int corrupt;		/* the read-back breaks a table: LOST, MFTREE */
	uint32_t lost;		/* transfers that LOST loses */
	uint32_t lmc;
	int text;		/* schedule_format text */
};

enum { LOST = 1, MFTREE };

static void open_state(struct run *r)
{
	struct fors_sweep_config c = {
		.schedule_path = r->sched, .rejected_path = r->rejected,
		.state_path = r->state, .holddown_s = HOLD, .verify = 1,
		.text_schedule = r->text,
	};

	ck_assert_int_eq(fors_sweep_state_open(&c, sink, &r->log, &r->st), 0);
}

static struct run *run_new(void)
{
	struct run *r = calloc(1, sizeof(*r));

	ck_assert_ptr_nonnull(r);
	snprintf(r->dir, sizeof(r->dir), "/tmp/check_sweep-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(r->dir));
	snprintf(r->sched, sizeof(r->sched), "%s/schedule.dump", r->dir);
	snprintf(r->state, sizeof(r->state), "%s/state", r->dir);
	snprintf(r->rejected, sizeof(r->rejected), "%s/rejected.txt", r->dir);
	r->lmc = 2;
	open_state(r);
	return r;
}

static void run_free(struct run *r)
{
	fors_sweep_state_free(r->st);
	unlink(r->sched);
	unlink(r->state);
	unlink(r->rejected);
	rmdir(r->dir);
	free(r);
}

/* Leaf 0 has no route for its first host's base LID: transfers lost. */
static void lose(struct run *r, const struct fors_sweep *sw,
		 struct fors_lft_dump *d)
{
	const struct fors_schedule *s = sw->route->s;
	uint32_t lid = sw->route->lfts->host_lid[0];
	size_t i;

	r->lost = 0;
	for (i = 0; i < s->nxfers; i++)
		r->lost += s->xfers[i].dlid == (int32_t)lid;
	dump_switch(d, "L00")->port[lid] = FORS_NO_PORT;
}

/*
 * L02 sends the base LID of a dual-port node's second port up the spine
 * of its first port's: both still arrive, but through one spine.
 */
static void share(const struct fors_sweep *sw, struct fors_lft_dump *d)
{
	const struct fors_fabric *fb = sw->route->fb;
	const struct fors_topology *t = sw->live;
	struct fors_lft_switch *l2 = dump_switch(d, "L02");
	uint32_t a = 0, b = 1, k;

	while (b < fb->nhosts && fb->hosts[b].node != fb->hosts[a].node)
		b++;
	ck_assert_uint_lt(b, fb->nhosts);
	k = l2->port[sw->route->lfts->host_lid[a]];
	l2->port[sw->route->lfts->host_lid[b]] =
		(uint8_t)port_to(t, "L02", t->nodes[t->nodes[fb->leaf[2]].ports[k].peer].desc);
}

/* The switches' tables: what was installed, or one entry broken. */
static int read_back(void *ctx, const struct fors_sweep *sw,
		     struct fors_lft_dump **out, struct fors_error *err)
{
	struct run *r = ctx;
	struct fors_lft_dump *d = dump_of(sw->route);

	(void)err;
	if (r->corrupt == LOST)
		lose(r, sw, d);
	if (r->corrupt == MFTREE)
		share(sw, d);
	*out = d;
	return 0;
}

/* One heavy sweep of live (taken) at time now, as the plugin runs it. */
static int sweep(struct run *r, struct fors_topology *live, int64_t now)
{
	struct fors_route_opts o = { .lmc = r->lmc };
	struct fors_sweep *sw;
	struct fors_error err;
	int e;

	e = fors_sweep_route(r->st, live, now, &o, &sw, &err);
	if (!e)
		e = fors_sweep_finish(r->st, sw, read_back, r, now, &err);
	fors_sweep_free(sw);
	return e;
}

/* FT(2;4,4) with the cables of cut[leaf * 4 + spine] cut. */
static struct fors_topology *ft44(const uint8_t *cut, const uint8_t *dead)
{
	struct fors_netgen g = { 4, 4, 4, 1, NULL, 0, cut, dead, 0, 0 };

	return gen_topology(&g);
}

static struct fors_topology *healthy(void)
{
	return ft44(NULL, NULL);
}

static struct fors_topology *one_cut(void)
{
	static const uint8_t cut[16] = { 1 };

	return ft44(cut, NULL);
}

/*
 * The schedule file's fabric-line key k as a number, once the write under
 * way is done (the plugin waits for it before SUBNET UP); 0 without a file.
 */
static uint64_t file_key(const struct run *r, const char *k)
{
	struct fors_schedule *s;
	struct fors_error err;
	uint64_t g = 0;
	size_t i;

	fors_sweep_flush(r->st);
	if (access(r->sched, F_OK))
		return 0;
	ck_assert_int_eq(fors_schedule_read_file(r->sched, &s, &err), 0);
	for (i = 0; i < s->nextra; i++)
		if (!strcmp(s->extra[i].key, k))
			g = strtoull(s->extra[i].value, NULL, 10);
	fors_schedule_free(s);
	return g;
}

/* The generation of the schedule file, 0 when there is none. */
static uint64_t generation(const struct run *r)
{
	return file_key(r, "generation");
}

static uint32_t held(const struct run *r)
{
	uint32_t n;

	fors_cables_count(r->st->cables, NULL, &n);
	return n;
}

/*
 * A schedule file the writer thread cannot write is logged when it is
 * waited for, and counts as never published: once it can be written, the
 * same schedule comes out as generation 1, not 2.
 */
START_TEST(write_fails)
{
	struct run *r = run_new();
	char dir[96];

	snprintf(dir, sizeof(dir), "%s/later", r->dir);
	snprintf(r->sched, sizeof(r->sched), "%s/schedule.dump", dir);
	fors_sweep_state_free(r->st);
	open_state(r);
	ck_assert_int_eq(sweep(r, healthy(), 1000), 0);
	fors_sweep_flush(r->st);
	ck_assert_msg(strstr(r->log.text, "schedule file not written"), "%s",
		      r->log.text);
	ck_assert_int_eq(mkdir(dir, 0700), 0);
	ck_assert_int_eq(sweep(r, healthy(), 1010), 0);
	ck_assert_uint_eq(generation(r), 1);
	run_free(r);
	rmdir(dir);
}
END_TEST

/*
 * Ten flaps of one cable within the hold-down: a new generation when it
 * first goes down and one when it has stayed up for the hold-down. The
 * file's bound follows the cable (held is live), in the same generation.
 */
START_TEST(flapping_cable)
{
	struct run *r = run_new();
	int64_t t = 1000;
	int i;

	ck_assert_int_eq(sweep(r, healthy(), t), 0);
	ck_assert_uint_eq(generation(r), 1);
	for (i = 0; i < 20; i++) {
		t += 10;
		ck_assert_int_eq(sweep(r, i % 2 ? healthy() : one_cut(), t), 0);
		ck_assert_uint_eq(generation(r), 2);
		ck_assert_uint_eq(file_key(r, "bound"), i % 2 ? 15 : 16);
		if (i % 2) {
			ck_assert_uint_eq(held(r), 1);
			ck_assert_int_eq(r->st->wake, t + HOLD);
		}
	}
	ck_assert_int_eq(sweep(r, healthy(), r->st->wake), 0);
	ck_assert_uint_eq(held(r), 0);
	ck_assert_int_eq(r->st->wake, 0);
	ck_assert_uint_eq(generation(r), 3);
	ck_assert_uint_eq(r->log.errors, 0);
	run_free(r);
}
END_TEST

/*
 * Leaf 0 loses three cables; they come back held just as its last one
 * fails. Without the held cables leaf 0 has no uplink: they are put back
 * into use at once, and the log says so.
 */
START_TEST(release_and_retry)
{
	static const uint8_t three[16] = { 1, 1, 1, 0 };
	static const uint8_t last[16] = { 0, 0, 0, 1 };
	struct run *r = run_new();

	ck_assert_int_eq(sweep(r, healthy(), 100), 0);
	ck_assert_int_eq(sweep(r, ft44(three, NULL), 200), 0);
	ck_assert_int_eq(sweep(r, ft44(last, NULL), 300), 0);
	ck_assert_ptr_nonnull(strstr(r->log.text,
				     "held cables put back into use early"));
	ck_assert_uint_eq(held(r), 0);
	ck_assert_int_eq(r->st->wake, 0);
	ck_assert_uint_eq(generation(r), 3);
	run_free(r);
}
END_TEST

/*
 * L00 and L01 lose the cables that make their spines disjoint, then get
 * them back, held: with the held cables left out they still share no
 * plane, and are routed through a third leaf (issue 34) with the cables
 * kept held, where they once had to be put back into use early.
 */
START_TEST(held_apart_detoured)
{
	static const uint8_t apart[16] = { 0, 0, 1, 1, 1, 1, 0, 0 };
	struct run *r = run_new();

	ck_assert_int_eq(sweep(r, healthy(), 100), 0);
	ck_assert_int_eq(sweep(r, ft44(apart, NULL), 200), 0);
	ck_assert_uint_gt(file_key(r, "detour"), 0);
	ck_assert_int_eq(sweep(r, healthy(), 300), 0);
	ck_assert_uint_eq(held(r), 4);
	ck_assert_uint_gt(file_key(r, "detour"), 0);
	ck_assert_ptr_null(strstr(r->log.text,
				  "held cables put back into use early"));
	ck_assert_uint_eq(generation(r), 2);	/* the same phases */
	ck_assert_int_eq(sweep(r, healthy(), r->st->wake), 0);
	ck_assert_uint_eq(held(r), 0);
	ck_assert_uint_eq(file_key(r, "detour"), 0);
	ck_assert_uint_eq(generation(r), 3);
	ck_assert_uint_eq(r->log.errors, 0);
	run_free(r);
}
END_TEST

/*
 * Without a reference the expected fabric is every fabric seen: a spine
 * that vanished still counts as failed (its plane impacted), where a
 * sweep that never saw it finds a fabric with one spine less and nothing
 * impacted.
 */
START_TEST(remembered_fabric)
{
	static const uint8_t dead[4] = { 0, 0, 0, 1 };
	struct fors_route_opts o = { .lmc = 2 };
	struct run *r = run_new(), *fresh = run_new();
	struct fors_sweep *sw;
	struct fors_error err;

	ck_assert_int_eq(sweep(r, healthy(), 100), 0);
	ck_assert_int_eq(fors_sweep_route(r->st, ft44(NULL, dead), 200, &o,
					  &sw, &err), 0);
	ck_assert_uint_eq(sw->route->fb->q, 4);
	ck_assert_uint_eq(sw->route->fb->m, 1);
	fors_sweep_free(sw);
	ck_assert_int_eq(fors_sweep_route(fresh->st, ft44(NULL, dead), 200, &o,
					  &sw, &err), 0);
	ck_assert_uint_eq(sw->route->fb->q, 3);
	ck_assert_uint_eq(sw->route->fb->m, 0);
	fors_sweep_free(sw);
	run_free(r);
	run_free(fresh);
}
END_TEST

/*
 * The subnet manager's leaf cut off from every spine, as the plugin meets
 * it: with the fabric remembered from the first sweep the leaf alone is
 * routed, verified and published, and the whole fabric after, each a new
 * generation; a plugin that never saw the fabric refuses one switch with
 * hosts.
 */
START_TEST(leaf_alone_remembered)
{
	struct fors_route_opts o = { .lmc = 2 };
	struct run *r = run_new(), *fresh = run_new();
	struct fors_sweep *sw;
	struct fors_error err;

	ck_assert_int_eq(sweep(r, healthy(), 100), 0);
	ck_assert_uint_eq(generation(r), 1);
	ck_assert_int_eq(sweep(r, lone_leaf(), 200), 0);
	ck_assert_uint_eq(generation(r), 2);
	ck_assert_ptr_null(strstr(r->log.text, "cannot route"));
	ck_assert_int_eq(sweep(r, healthy(), 300), 0);
	ck_assert_uint_eq(generation(r), 3);
	ck_assert_int_eq(fors_sweep_route(fresh->st, lone_leaf(), 200, &o, &sw,
					  &err), FORS_EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "at least 2 leaves"));
	run_free(r);
	run_free(fresh);
}
END_TEST

/*
 * A restart reads the state file: the cable is still held, the generation
 * continues, and the same schedule gives no new one.
 */
START_TEST(restart_from_state_file)
{
	struct run *r = run_new();

	ck_assert_int_eq(sweep(r, healthy(), 100), 0);
	ck_assert_int_eq(sweep(r, one_cut(), 110), 0);
	ck_assert_int_eq(sweep(r, healthy(), 120), 0);
	ck_assert_uint_eq(held(r), 1);
	ck_assert_uint_eq(generation(r), 2);
	fors_sweep_state_free(r->st);
	open_state(r);
	ck_assert_uint_eq(held(r), 1);
	ck_assert_ptr_nonnull(r->st->seen);
	ck_assert_uint_eq(r->st->generation, 2);
	ck_assert_int_eq(sweep(r, healthy(), 130), 0);
	ck_assert_uint_eq(held(r), 1);
	ck_assert_uint_eq(generation(r), 2);
	ck_assert_int_eq(sweep(r, healthy(), 120 + HOLD), 0);
	ck_assert_uint_eq(held(r), 0);
	ck_assert_uint_eq(generation(r), 3);
	run_free(r);
}
END_TEST

/* The schedule file's first line, once the write under way is done. */
static void first_line(const struct run *r, char *buf, int len)
{
	FILE *f;

	fors_sweep_flush(r->st);
	f = fopen(r->sched, "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(fgets(buf, len, f));
	fclose(f);
}

/*
 * The file takes the form schedule_format asks for: after a restart with
 * the other form, the same schedule is written again in it, in the same
 * generation (nothing of the schedule changed).
 */
START_TEST(file_form_follows_config)
{
	struct run *r = run_new();
	char line[64];

	ck_assert_int_eq(sweep(r, healthy(), 100), 0);
	first_line(r, line, sizeof(line));
	ck_assert_str_eq(line, "fors-schedule 2\n");
	ck_assert_uint_eq(generation(r), 1);
	fors_sweep_state_free(r->st);
	r->text = 1;
	open_state(r);
	ck_assert_int_eq(sweep(r, healthy(), 110), 0);
	first_line(r, line, sizeof(line));
	ck_assert_str_eq(line, "fors-schedule 1\n");
	ck_assert_uint_eq(generation(r), 1);
	ck_assert_int_eq(sweep(r, healthy(), 120), 0);
	ck_assert_uint_eq(generation(r), 1);
	run_free(r);
}
END_TEST

/* A state file of another fabric is forgotten, and this one routed. */
START_TEST(foreign_state_file)
{
	struct run *r = run_new();

	ck_assert_int_eq(sweep(r, one_cut(), 100), 0);
	fors_sweep_state_free(r->st);
	open_state(r);
	r->lmc = 1;
	ck_assert_int_eq(sweep(r, fixture("ibnetdiscover-ft-2-2-lmc1.txt"), 200),
			 0);
	ck_assert_ptr_nonnull(strstr(r->log.text,
				     "shares no switch with this subnet: forgotten"));
	ck_assert_uint_eq(r->st->cables->n, 2 * 2);
	run_free(r);
}
END_TEST

/* A bad state file is logged and left out, not fatal. */
START_TEST(bad_state_file)
{
	struct run *r = run_new();
	FILE *f = fopen(r->state, "w");

	ck_assert_ptr_nonnull(f);
	fputs("fors-state 1\nwritten soon\n", f);
	fclose(f);
	fors_sweep_state_free(r->st);
	open_state(r);
	ck_assert_ptr_nonnull(strstr(r->log.text,
				     "state_file not used, starting without it"));
	ck_assert_int_eq(sweep(r, healthy(), 100), 0);
	run_free(r);
}
END_TEST

/*
 * A table broken between install and read-back: the sweep's verification
 * refuses it with the checker's counts, and nothing of it is kept.
 */
START_TEST(verification_refuses)
{
	struct run *r = run_new();
	struct fors_error err;
	struct fors_route_opts o = { .lmc = 2 };
	struct fors_sweep *sw;
	char want[160];

	ck_assert_int_eq(sweep(r, healthy(), 100), 0);
	r->corrupt = LOST;
	ck_assert_int_eq(fors_sweep_route(r->st, one_cut(), 200, &o, &sw, &err),
			 0);
	ck_assert_int_eq(fors_sweep_finish(r->st, sw, read_back, r, 200, &err),
			 FORS_EVERIFY);
	snprintf(want, sizeof(want), "the tables break the schedule's guarantees: %u undelivered, %u unreachable (switch, LID) pairs",
		 r->lost, 8u);
	ck_assert_msg(r->lost > 0 && !strcmp(err.msg, want), "%s", err.msg);
	ck_assert_ptr_nonnull(strstr(r->log.text, "verification: phase "));
	fors_sweep_free(sw);
	ck_assert_uint_eq(generation(r), 1);
	ck_assert_int_eq(r->st->cables->written, 100);
	run_free(r);
}
END_TEST

/*
 * Tables that put two ports of a node on one spine from some leaf, where
 * the routing had them on two: refused, though every transfer arrives.
 */
START_TEST(verification_mftree)
{
	struct fors_netgen g = { 4, 4, 4, 1, NULL, 2, NULL, NULL, 0, 0 };
	struct run *r = run_new();
	struct fors_error err;
	struct fors_route_opts o = { .lmc = 2 };
	struct fors_sweep *sw;

	r->corrupt = MFTREE;
	ck_assert_int_eq(fors_sweep_route(r->st, gen_topology(&g), 100, &o, &sw,
					  &err), 0);
	ck_assert_uint_eq(sw->route->lfts->mf_shared, 0);
	ck_assert_int_eq(fors_sweep_finish(r->st, sw, read_back, r, 100, &err),
			 FORS_EVERIFY);
	ck_assert_msg(strstr(err.msg, "1 mFtree pairs on one spine"), "%s",
		      err.msg);
	ck_assert_ptr_nonnull(strstr(r->log.text,
				     "verification: mFtree: 1 (leaf, node) pairs"));
	fors_sweep_free(sw);
	ck_assert_uint_eq(generation(r), 0);
	run_free(r);
}
END_TEST

/* A fabric fors cannot route: refused, logged, and kept for the admin. */
START_TEST(refusal_kept)
{
	static const uint8_t all[16] = { 1, 1, 1, 1 };
	struct run *r = run_new();
	struct fors_route_opts o = { .lmc = 2 };
	struct fors_topology *t;
	struct fors_sweep *sw;
	struct fors_error err;

	ck_assert_int_eq(fors_sweep_route(r->st, ft44(all, NULL), 100, &o, &sw,
					  &err), FORS_EINVAL);
	ck_assert_ptr_null(sw);
	ck_assert_ptr_nonnull(strstr(r->log.text, "cannot route this fabric: "));
	ck_assert_int_eq(fors_topology_read_file(r->rejected, &t, &err), 0);
	fors_topology_free(t);
	ck_assert_uint_eq(generation(r), 0);
	run_free(r);
}
END_TEST

/* A file in the run's directory with text in it; its path. */
static const char *put(struct run *r, const char *name, const char *text,
		       char *path, size_t len)
{
	FILE *f;

	snprintf(path, len, "%s/%s", r->dir, name);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
	return path;
}

/*
 * Who takes part: fors.conf's file first, "all" for everyone, OpenSM's
 * cn_guid_file without it, everyone without either; a file that cannot be
 * used is logged as an error, and everyone takes part.
 */
START_TEST(participants_source)
{
	struct run *r = run_new();
	char conf[160], cn[160], bad[160];
	struct fors_guids *g;

	put(r, "conf", "0x11\n0x12\n", conf, sizeof(conf));
	put(r, "cn", "0x21\n", cn, sizeof(cn));
	put(r, "bad", "0x21\nnode\n", bad, sizeof(bad));
	g = fors_sweep_participants(r->st, conf, cn);
	ck_assert(g && g->n == 2 && g->g[0] == 0x11);
	fors_guids_free(g);
	g = fors_sweep_participants(r->st, NULL, cn);
	ck_assert(g && g->n == 1 && g->g[0] == 0x21);
	fors_guids_free(g);
	ck_assert_ptr_null(fors_sweep_participants(r->st, "all", cn));
	ck_assert_ptr_null(fors_sweep_participants(r->st, NULL, NULL));
	ck_assert_ptr_null(fors_sweep_participants(r->st, NULL, ""));
	ck_assert_uint_eq(r->log.errors, 0);
	ck_assert_ptr_null(fors_sweep_participants(r->st, bad, NULL));
	ck_assert_uint_eq(r->log.errors, 1);
	ck_assert_ptr_nonnull(strstr(r->log.text, "/bad:2: not a port GUID"));
	ck_assert_ptr_nonnull(strstr(r->log.text, "; every host port takes part"));
	unlink(conf);
	unlink(cn);
	unlink(bad);
	run_free(r);
}
END_TEST

int main(void)
{
	Suite *su = suite_create("sweep");
	TCase *tc = tcase_create("sweep");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, write_fails);
	tcase_add_test(tc, flapping_cable);
	tcase_add_test(tc, release_and_retry);
	tcase_add_test(tc, held_apart_detoured);
	tcase_add_test(tc, remembered_fabric);
	tcase_add_test(tc, leaf_alone_remembered);
	tcase_add_test(tc, restart_from_state_file);
	tcase_add_test(tc, file_form_follows_config);
	tcase_add_test(tc, foreign_state_file);
	tcase_add_test(tc, bad_state_file);
	tcase_add_test(tc, verification_refuses);
	tcase_add_test(tc, verification_mftree);
	tcase_add_test(tc, refusal_kept);
	tcase_add_test(tc, participants_source);
	suite_add_tcase(su, tc);
	return run_suite(su);
}
