// SPDX-License-Identifier: MIT
/*
 * Reroutes through the heavy-sweep policy as the plugin drives it (issue
 * 31): seeded event sequences of cuts, repairs, dead spines and flaps on
 * seeded fabrics, each sweep staged against the tables the switches hold.
 * Every pair of consecutive installed table sets is checked by the union
 * check of fors check --previous, and the tables the routing alone would
 * install are checked against it too, to show the staging is needed.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fabric_util.h"
#include "route_util.h"
#include "suite.h"
#include "sweep/publish.h"
#include "sweep/sweep.h"
#include "verify/check.h"
#include "verify/transition.h"

#define HOLD 600
#define SEQS 25		/* sequences a seed group runs */
#define GROUPS 8	/* seed groups: 200 sequences */
#define EVENTS 6

/* What the sequences saw. */
struct tally {
	uint32_t sweeps, declined, staged, direct_loops, changed, dropped, lost;
	uint32_t data, data_unweighted;	/* data-path entries changed */
};

struct run {
	char dir[64], sched[128];
	struct fors_sweep_state *st;
	struct fors_lft_dump *held;	/* what the switches hold */
	struct tally *n;
	int skip_stage;		/* the read-back is the full tables */
	char what[160];
};

/* Transfers a first stage left without a route, as its log line says. */
static uint32_t waiting;
/* The counts of the last first stage's line: transfers waiting, shared
   pairs, transfers off leaf-spine-leaf, mFtree pairs, pairs waiting. */
static unsigned stage_line[5];

static void sink(void *ctx, int error, const char *msg)
{
	unsigned *x = stage_line;

	(void)ctx;
	(void)error;
	if (sscanf(msg, "first stage: %u transfers wait, %u (phase, link) pairs shared, %u transfers off leaf-spine-leaf, %u mFtree pairs on one spine, %u (switch, LID) pairs wait",
		   &x[0], &x[1], &x[2], &x[3], &x[4]) == 5)
		waiting += x[0];
}

static struct fors_lft_dump *tables_of(const struct fors_sweep *sw)
{
	struct fors_lft_dump *d;
	struct fors_error err;

	ck_assert_int_eq(fors_lfts_dump(fors_sweep_tables(sw), sw->live, &d,
					&err), 0);
	return d;
}

/* The switches' tables: what was installed. */
static int read_back(void *ctx, const struct fors_sweep *sw,
		     struct fors_lft_dump **out, struct fors_error *err)
{
	const struct run *r = ctx;

	if (r->skip_stage)
		return fors_lfts_dump(sw->route->lfts, sw->live, out, err);
	*out = tables_of(sw);
	return 0;
}

/* The union of the held tables and d over t has no loop. */
static void union_ok(struct run *r, const struct fors_topology *t,
		     const struct fors_lft_dump *d)
{
	struct fors_union_report u;
	struct fors_error err;

	ck_assert_msg(fors_check_union(t, r->held, d, &u, &err) == FORS_OK,
		      "%s: union loops: %s %s", r->what, u.cycle, u.fwd);
}

/*
 * Entries the first stage d dropped from the full tables that the held
 * ones route over a live cable, counted apart from fors_stage.
 */
static uint32_t lost(const struct run *r, const struct fors_sweep *sw,
		     const struct fors_lft_dump *d)
{
	const struct fors_topology *t = sw->live;
	struct fors_walk wh, ws, wf;
	struct fors_error err;
	struct fors_lft_dump *full;
	uint32_t lid, x, n = 0;

	ck_assert_int_eq(fors_lfts_dump(sw->route->lfts, t, &full, &err), 0);
	ck_assert_int_eq(fors_walk_init(&wh, t, r->held), 0);
	ck_assert_int_eq(fors_walk_init(&ws, t, d), 0);
	ck_assert_int_eq(fors_walk_init(&wf, t, full), 0);
	for (x = 0; x < t->nnodes; x++) {
		for (lid = 1; wh.table[x] >= 0 && ws.table[x] >= 0 &&
		     lid <= sw->route->lfts->maxlid; lid++) {
			uint32_t k = fors_walk_port(&wh, x, lid);

			n += fors_walk_port(&ws, x, lid) == FORS_NO_PORT &&
			     fors_walk_port(&wf, x, lid) != FORS_NO_PORT &&
			     k != 0 && k != FORS_NO_PORT;
		}
	}
	fors_walk_free(&wh);
	fors_walk_free(&ws);
	fors_walk_free(&wf);
	fors_lft_dump_free(full);
	return n;
}

/* Data-path entries of the route's tables that the stage d changed. */
static uint32_t data_changed(const struct fors_sweep *sw,
			     const struct fors_lft_dump *d)
{
	const struct fors_lfts *lf = sw->route->lfts;
	uint32_t i, lid, n = 0;

	for (i = 0; i < d->nsw; i++)
		for (lid = 1; lid <= lf->maxlid; lid++)
			n += fors_lft_data(lf, i, lid) &&
			     d->sw[i].port[lid] != fors_lft(lf, i, lid);
	return n;
}

/*
 * The same stage without the data paths' weight: how many data-path
 * entries it would change.
 */
static uint32_t unweighted(const struct run *r, const struct fors_sweep *sw)
{
	struct fors_stage_report rep;
	struct fors_lft_dump *full, *next;
	struct fors_error err;
	uint32_t n;

	ck_assert_int_eq(fors_lfts_dump(sw->route->lfts, sw->live, &full, &err), 0);
	ck_assert_int_eq(fors_lfts_dump(sw->route->lfts, sw->live, &next, &err), 0);
	ck_assert_int_eq(fors_stage(sw->live, r->held, full, next, NULL, &rep,
				    &err), 0);
	n = data_changed(sw, next);
	fors_lft_dump_free(full);
	fors_lft_dump_free(next);
	return n;
}

/* Would the routing's own tables, installed at once, make a loop? */
static void direct(struct run *r, const struct fors_sweep *sw)
{
	struct fors_union_report u;
	struct fors_lft_dump *d;
	struct fors_error err;

	ck_assert_int_eq(fors_lfts_dump(sw->route->lfts, sw->live, &d, &err), 0);
	if (fors_check_union(sw->live, r->held, d, &u, &err) == FORS_EVERIFY)
		r->n->direct_loops++;
	fors_lft_dump_free(d);
}

static struct fors_lft_dump *copy(const struct fors_lft_dump *d)
{
	struct fors_lft_dump *c = calloc(1, sizeof(*c));
	uint32_t i;

	ck_assert_ptr_nonnull(c);
	c->sw = calloc(d->nsw + 1, sizeof(*c->sw));
	ck_assert_ptr_nonnull(c->sw);
	for (i = 0; i < d->nsw; i++, c->nsw++) {
		c->sw[i] = d->sw[i];
		c->sw[i].desc = strdup(d->sw[i].desc);
		c->sw[i].port = malloc(d->sw[i].maxlid + 1);
		ck_assert(c->sw[i].desc && c->sw[i].port);
		memcpy(c->sw[i].port, d->sw[i].port, d->sw[i].maxlid + 1);
	}
	return c;
}

/*
 * A first stage's line, logged once its transfers are followed after the
 * sweep (sweep/followup.c), says what fors check says of its tables and
 * schedule; mf: the mFtree pairs on one spine beyond the routing's own.
 */
static void stage_logged(struct run *r, const struct fors_check_report *want,
			 uint32_t mf)
{
	const unsigned *x = stage_line;

	fors_sweep_flush(r->st);
	if (!want->undelivered && !want->shared && !want->not_updown &&
	    !want->unreachable && !mf) {
		ck_assert_msg(x[0] == UINT32_MAX, "%s: a first stage's line with nothing waiting",
			      r->what);
		return;
	}
	ck_assert_msg(x[0] == want->undelivered && x[1] == want->shared &&
		      x[2] == want->not_updown && x[3] == mf &&
		      x[4] == want->unreachable,
		      "%s: first stage logged %u %u %u %u %u, fors check gives %u %u %u %u %u",
		      r->what, x[0], x[1], x[2], x[3], x[4], want->undelivered,
		      want->shared, want->not_updown, mf, want->unreachable);
}

/*
 * One heavy sweep of a copy of live with the switches holding r->held; 1
 * when tables were installed, which then are what the switches hold.
 */
static int sweep(struct run *r, const struct fors_topology *live,
		 uint32_t lmc, int64_t now)
{
	struct fors_route_opts o = { .lmc = lmc };
	struct fors_topology *t = NULL;
	struct fors_lft_dump *d;
	struct fors_sweep *sw;
	struct fors_error err;
	struct fors_check_report want;
	uint32_t own_mf;
	int e, staged;

	ck_assert_int_eq(fors_topology_merge(&t, live, &err), 0);
	e = fors_sweep_route(r->st, t, now, &o, &sw, &err);
	r->n->sweeps++;
	if (e) {
		ck_assert_msg(strstr(err.msg, "no chain of live cables") ||
			      strstr(err.msg, "no live uplink"), "%s: %s",
			      r->what, err.msg);
		r->n->declined++;
		return 0;
	}
	if (r->held) {
		direct(r, sw);
		ck_assert_int_eq(fors_sweep_stage(r->st, sw, copy(r->held),
						  &err), 0);
	}
	r->n->staged += sw->staged.port != NULL;
	r->n->changed += sw->stage.changed;
	r->n->dropped += sw->stage.dropped;
	d = tables_of(sw);
	if (r->held) {
		uint32_t l = lost(r, sw, d);

		ck_assert_uint_eq(l, sw->stage.lost);
		r->n->lost += l;
		r->n->data += data_changed(sw, d);
		ck_assert_uint_eq(data_changed(sw, d), sw->stage.data);
		r->n->data_unweighted += unweighted(r, sw);
	}
	staged = sw->staged.port != NULL;
	own_mf = sw->route->lfts->mf_shared;
	e = staged ? fors_check_routes(sw->live, d, sw->route->s, &want,
				       &err) : 0;
	ck_assert_msg(e == 0 || e == FORS_EVERIFY, "%s: %s", r->what, err.msg);
	fors_sweep_flush(r->st);
	memset(stage_line, 0xff, sizeof(stage_line));
	e = fors_sweep_finish(r->st, sw, read_back, r, now, &err);
	ck_assert_msg(e == 0, "%s: %s", r->what, err.msg);
	if (staged)
		stage_logged(r, &want, want.mf_shared > own_mf ?
				       want.mf_shared - own_mf : 0);
	fors_sweep_free(sw);
	if (r->held)
		union_ok(r, live, d);
	fors_lft_dump_free(r->held);
	r->held = d;
	return 1;
}

/* A sweep, and the one a staged update asks for at once. */
static void settle(struct run *r, const struct fors_topology *live,
		   uint32_t lmc, int64_t now)
{
	if (sweep(r, live, lmc, now) && r->st->restage)
		sweep(r, live, lmc, now + 1);
	ck_assert_msg(!r->st->restage, "%s: still staged", r->what);
}

/* A fabric of the sequence: its shape and what is broken. */
struct seq {
	struct fors_netgen g;
	uint8_t *absent, *failed, *dead;
	uint32_t ncables, lmc;
};

static void seq_new(struct seq *q)
{
	uint32_t m0 = 2 + rnd() % 5, m1 = 2 + rnd() % 4, i;
	uint32_t cables = 1 + rnd() % 2, ns = 2 + rnd() % 4;

	q->ncables = m1 * ns * cables;
	q->absent = calloc(m0 * m1, 1);
	q->failed = calloc(q->ncables, 1);
	q->dead = calloc(ns, 1);
	ck_assert(q->absent && q->failed && q->dead);
	for (i = 0; i < m0 * m1; i++)
		q->absent[i] = i % m0 && rnd() % 6 == 0;
	q->g = (struct fors_netgen){ m0, m1, ns, cables, q->absent, 0,
				     q->failed, q->dead, 0, 0 };
	q->g.dual = rnd() % 3 == 0 ? 1 + rnd() % m0 : 0;
	q->lmc = lmc_for(ns * cables);
}

static void seq_free(struct seq *q)
{
	free(q->absent);
	free(q->failed);
	free(q->dead);
}

/* Change the fabric by one event; a flap is undone at once. */
static int event(struct seq *q)
{
	uint32_t k = rnd() % 6, i;

	if (k <= 1) {
		for (i = 0; i <= rnd() % 3; i++)
			q->failed[rnd() % q->ncables] = 1;
	} else if (k == 2) {
		for (i = 0; i < q->ncables; i++)
			q->failed[i] &= rnd() % 2;
	} else if (k == 3) {
		q->dead[rnd() % q->g.nspines] = 1;
	} else if (k == 4) {
		memset(q->dead, 0, q->g.nspines);
	} else {
		q->failed[rnd() % q->ncables] ^= 1;
	}
	return k == 5;
}

static void run_open(struct run *r, struct tally *n)
{
	struct fors_sweep_config c = { .holddown_s = HOLD, .verify = 1 };

	memset(r, 0, sizeof(*r));
	r->n = n;
	snprintf(r->dir, sizeof(r->dir), "/tmp/check_transition-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(r->dir));
	snprintf(r->sched, sizeof(r->sched), "%s/schedule", r->dir);
	c.schedule_path = r->sched;
	ck_assert_int_eq(fors_sweep_state_open(&c, sink, NULL, &r->st), 0);
}

static void run_close(struct run *r)
{
	fors_lft_dump_free(r->held);
	fors_sweep_state_free(r->st);
	unlink(r->sched);
	rmdir(r->dir);
}

/* One event sequence through the sweeps. */
static void run_sequence(struct tally *n, int id)
{
	struct run r;
	struct seq q;
	int64_t now = 1000000;
	struct fors_topology *live;
	int i, flap;

	seq_new(&q);
	run_open(&r, n);
	for (i = 0; i <= EVENTS; i++) {
		flap = i ? event(&q) : 0;
		snprintf(r.what, sizeof(r.what), "sequence %d event %d: FT(2;%u,%u) %u spines x %u, dual %u",
			 id, i, q.g.m0, q.g.m1, q.g.nspines, q.g.cables,
			 q.g.dual);
		live = gen_topology(&q.g);
		settle(&r, live, q.lmc, now);
		fors_topology_free(live);
		now += flap ? 10 : HOLD + 100;
	}
	run_close(&r);
	seq_free(&q);
}

/* FT(2;4,4) at LMC 2, healthy, then with leaf 1's cable to spine 0 cut. */
static void healthy_then_cut(struct run *r, struct tally *n, int skip)
{
	uint8_t failed[16] = { 0 };
	struct fors_netgen g = { 4, 4, 4, 1, NULL, 0, failed, NULL, 0, 0 };
	struct fors_topology *live = gen_topology(&g);

	run_open(r, n);
	snprintf(r->what, sizeof(r->what), "FT(2;4,4), L01-S0 cut");
	ck_assert_int_eq(sweep(r, live, 2, 1000), 1);
	fors_topology_free(live);
	failed[1 * 4 + 0] = 1;
	live = gen_topology(&g);
	r->skip_stage = skip;
	if (skip) {
		struct fors_route_opts o = { .lmc = 2 };
		struct fors_topology *t = NULL;
		struct fors_sweep *sw;
		struct fors_error err;

		ck_assert_int_eq(fors_topology_merge(&t, live, &err), 0);
		ck_assert_int_eq(fors_sweep_route(r->st, t, 2000, &o, &sw, &err), 0);
		ck_assert_int_eq(fors_sweep_stage(r->st, sw, copy(r->held), &err), 0);
		ck_assert_int_eq(fors_sweep_finish(r->st, sw, read_back, r, 2000,
						   &err), FORS_EVERIFY);
		ck_assert_msg(strstr(err.msg, "mix"), "%s", err.msg);
		fors_sweep_free(sw);
	} else {
		ck_assert_int_eq(sweep(r, live, 2, 2000), 1);
	}
	fors_topology_free(live);
}

/*
 * One cut cable: the spine that lost it reaches the leaf through its home
 * leaf, which sends it the leaf's LIDs of that plane by its held table,
 * so no single step is safe. The first stage drops those entries at the
 * spine (they lead into the cut cable in the held tables, so nothing that
 * was routed is lost) and asks for the next sweep, which installs the
 * rest: no entry left out, nothing staged.
 */
START_TEST(one_cut_staged)
{
	struct tally n = { 0 };
	struct run r;
	uint8_t failed[16] = { 0 };
	struct fors_netgen g = { 4, 4, 4, 1, NULL, 0, failed, NULL, 0, 0 };
	struct fors_topology *live;

	healthy_then_cut(&r, &n, 0);
	ck_assert_uint_eq(n.direct_loops, 1);
	ck_assert_uint_eq(n.staged, 1);
	ck_assert_uint_gt(n.dropped, 0);
	ck_assert_uint_eq(n.lost, 0);
	ck_assert_int_eq(r.st->restage, 1);
	failed[1 * 4 + 0] = 1;
	live = gen_topology(&g);
	ck_assert_int_eq(sweep(&r, live, 2, 2001), 1);
	ck_assert_uint_eq(n.staged, 1);
	ck_assert_int_eq(r.st->restage, 0);
	fors_topology_free(live);
	fprintf(stderr, "one_cut_staged: %u entries changed, %u dropped\n",
		n.changed, n.dropped);
	run_close(&r);
}
END_TEST

/* Tables whose union with the held ones loops are refused by the verify. */
START_TEST(verify_refuses_mix)
{
	struct tally n = { 0 };
	struct run r;

	healthy_then_cut(&r, &n, 1);
	run_close(&r);
}
END_TEST

/*
 * The union of old and new tables is new itself only when old routes
 * nothing new does not, switch for switch: a fabric's first (empty)
 * tables, the same tables again; not another entry, not another order.
 */
START_TEST(union_is_new)
{
	struct fors_lft_dump *old, *new, *empty;
	struct fors_lft_switch sw;
	struct fors_error err;
	char path[256];
	uint32_t i, lid;

	ck_assert_int_eq(fors_lft_dump_read_file(data_path("transition-old.dump", path, sizeof(path)), &old, &err), 0);
	ck_assert_int_eq(fors_lft_dump_read_file(data_path("transition-new.dump", path, sizeof(path)), &new, &err), 0);
	empty = copy(new);
	for (i = 0; i < empty->nsw; i++)
		memset(empty->sw[i].port, FORS_NO_PORT, empty->sw[i].maxlid + 1);
	ck_assert_int_eq(fors_union_is_new(empty, new), 1);
	ck_assert_int_eq(fors_union_is_new(new, new), 1);
	ck_assert_int_eq(fors_union_is_new(old, new), 0);
	for (lid = 0; lid <= empty->sw[1].maxlid; lid++)
		if (new->sw[1].port[lid] != FORS_NO_PORT) {
			empty->sw[1].port[lid] = (uint8_t)(new->sw[1].port[lid] + 1);
			break;
		}
	ck_assert_int_eq(fors_union_is_new(empty, new), 0);
	empty->sw[1].port[lid] = new->sw[1].port[lid];
	sw = empty->sw[0];
	empty->sw[0] = empty->sw[1];
	empty->sw[1] = sw;
	ck_assert_int_eq(fors_union_is_new(empty, new), 0);
	fors_lft_dump_free(old);
	fors_lft_dump_free(new);
	fors_lft_dump_free(empty);
}
END_TEST

/* One group of seeded sequences, its tally printed and added to all. */
static void group(int g, struct tally *all)
{
	struct tally n = { 0 };
	int i;

	test_rng = 0x31000000u + (uint64_t)g;
	waiting = 0;
	for (i = 0; i < SEQS; i++)
		run_sequence(&n, g * SEQS + i);
	fprintf(stderr, "event_sequences %d: %u sweeps, %u declined, %u staged (%u entries as held or waiting, %u without a route, %u of those routed before, %u data paths (%u unweighted); %u transfers waiting), %u would loop at once\n",
		g, n.sweeps, n.declined, n.staged, n.changed, n.dropped,
		n.lost, n.data, n.data_unweighted, waiting, n.direct_loops);
	ck_assert_uint_gt(n.direct_loops, 0);
	ck_assert_uint_ge(n.staged, n.direct_loops);
	ck_assert_uint_gt(n.changed, n.dropped);
	all->data += n.data;
	all->data_unweighted += n.data_unweighted;
}

/*
 * 200 seeded sequences in eight groups: no pair of consecutive installed
 * table sets has a loop in its union, while the routing's tables
 * installed at once would have had one (doc/routing.md, "Reroutes"); the
 * stages keep entries as the switches hold them where they can, and the
 * data paths' weight spares some of them.
 */
START_TEST(event_sequences)
{
	struct tally all = { 0 };
	int g;

	for (g = 0; g < GROUPS; g++)
		group(g, &all);
	ck_assert_uint_lt(all.data, all.data_unweighted);
}
END_TEST

int main(void)
{
	Suite *su = suite_create("transition");

	add_case(su, union_is_new, 0, 1, 600);
	add_case(su, one_cut_staged, 0, 1, 600);
	add_case(su, verify_refuses_mix, 0, 1, 600);
	add_case(su, event_sequences, 0, 1, 600);
	return run_suite(su);
}
