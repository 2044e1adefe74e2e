// SPDX-License-Identifier: MIT
/*
 * The heavy-sweep policy. A flapping cable is held out of the data paths
 * (fabric/holddown.c); the expected fabric is the reference, or the union
 * of every fabric seen, so a cable that vanished counts as failed; a
 * fabric that only its held cables make unroutable gets them back at once;
 * and applications see a new generation only when the schedule changed.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/ibnetdiscover.h"
#include "formats/statefile.h"
#include "sweep/followup.h"
#include "sweep/publish.h"
#include "sweep/sweep.h"
#include "sys/clock.h"
#include "verify/check.h"
#include "verify/transition.h"

void fors_sweep_free(struct fors_sweep *sw)
{
	if (!sw)
		return;
	fors_rules_free(sw->rules);	/* it reads the route's schedule */
	fors_route_free(sw->route);
	fors_lft_dump_free(sw->held);
	free(sw->staged.port);
	fors_topology_free(sw->live);
	fors_topology_free(sw->next_seen);
	free(sw);
}

/* A remembered fabric with no switch of this one is another fabric's. */
static void forget_foreign(struct fors_sweep_state *st,
			   const struct fors_topology *live)
{
	if (!st->seen || fors_topology_common_switches(live, st->seen))
		return;
	fors_sweep_say(st, 1, "the remembered fabric (state_file) shares no switch with this subnet: forgotten");
	fors_topology_free(st->seen);
	st->seen = NULL;
	fors_cables_free(st->cables);
	st->cables = fors_cables_new();
}

/* The expected fabric: the configured reference, or all seen so far. */
static int expected(const struct fors_sweep_state *st, struct fors_sweep *sw,
		    const struct fors_topology **ref, struct fors_error *err)
{
	int e = 0;

	*ref = st->ref;
	if (st->ref)
		return 0;
	if (st->seen)
		e = fors_topology_merge(&sw->next_seen, st->seen, err);
	if (!e)
		e = fors_topology_merge(&sw->next_seen, sw->live, err);
	*ref = sw->next_seen;
	return e;
}

static int route(struct fors_sweep_state *st, struct fors_sweep *sw,
		 int64_t now, const struct fors_route_opts *o,
		 struct fors_error *err)
{
	const struct fors_topology *ref = NULL;
	int e;

	forget_foreign(st, sw->live);
	if (!st->cables) {
		fors_error_set(err, "out of memory");
		return FORS_ENOMEM;
	}
	e = fors_cables_update(st->cables, st->ref ? st->ref : st->seen,
			       sw->live, now, st->cfg.holddown_s, &st->wake, err);
	if (!e)
		e = expected(st, sw, &ref, err);
	if (!e)
		e = fors_route_compute(sw->live, ref, o, &sw->route, err);
	if (e == FORS_EINVAL && ref &&
	    fors_cables_release(st->cables, sw->live)) {
		fors_sweep_say(st, 1, "%s: held cables put back into use early",
			       err->msg);
		st->wake = 0;
		e = fors_route_compute(sw->live, ref, o, &sw->route, err);
	}
	if (!e) {
		/* the tables carry the offset map now: a megabyte at NDR
		 * scale that need not wait through the verification */
		fors_offmap_free(sw->route->om);
		sw->route->om = NULL;
	}
	return e;
}

/* What the sweep saw, for the admin to compare with ibnetdiscover. */
static void keep_rejected(const struct fors_sweep_state *st,
			  const struct fors_topology *live)
{
	struct fors_error err = { "" };
	const char *path = st->cfg.rejected_path;

	if (!path)
		return;
	if (fors_topology_write_file(path, live, &err))
		fors_sweep_say(st, 1, "%s", err.msg);
	else
		fors_sweep_say(st, 1, "the subnet as fors saw it is in %s", path);
}

/* Hosts on spines take no part in the exchange: the admin is told. */
static void say_spine_hosts(const struct fors_sweep_state *st,
			    const struct fors_route *r)
{
	char names[256];
	uint32_t n = fors_route_spine_hosts(r, names, sizeof(names));

	if (n)
		fors_sweep_say(st, 0, "%u host port%s on spines take%s no part in the exchange, routed for reachability: %s",
			       n, n == 1 ? "" : "s", n == 1 ? "s" : "", names);
}

struct fors_guids *fors_sweep_participants(const struct fors_sweep_state *st,
					   const char *conf,
					   const char *cn_guid_file)
{
	const char *path = conf ? conf : cn_guid_file;
	struct fors_guids *g = NULL;
	struct fors_error err;

	if (!path || !*path || !strcmp(path, "all"))
		return NULL;
	if (fors_guids_read_path(path, &g, &err))
		fors_sweep_say(st, 1, "participants: %s; every host port takes part",
			       err.msg);
	return g;
}

/* Hosts outside the exchange: the admin is told how many take part. */
static void say_participants(const struct fors_sweep_state *st,
			     const struct fors_route *r)
{
	if (r->njoin < r->fb->nhosts)
		fors_sweep_say(st, 0, "%u of the %u host ports take part in the exchange (participants); the others are routed for reachability",
			       r->njoin, r->fb->nhosts);
}

int fors_sweep_route(struct fors_sweep_state *st, struct fors_topology *live,
		     int64_t now, const struct fors_route_opts *o,
		     struct fors_sweep **out, struct fors_error *err)
{
	struct fors_sweep *sw = calloc(1, sizeof(*sw));
	int e;

	*out = NULL;
	fors_followup_wait(st);	/* what it holds goes before this route */
	if (!sw) {
		fors_topology_free(live);
		fors_error_set(err, "out of memory");
		return FORS_ENOMEM;
	}
	sw->live = live;
	e = route(st, sw, now, o, err);
	if (e) {
		fors_sweep_say(st, 1, "cannot route this fabric: %s", err->msg);
		keep_rejected(st, live);
		fors_sweep_free(sw);
		return e;
	}
	say_spine_hosts(st, sw->route);
	say_participants(st, sw->route);
	if (st->cfg.verify)	/* none begun: the verification checks them */
		fors_rules_start(sw->route->s, &sw->rules);
	*out = sw;
	return 0;
}

const struct fors_lfts *fors_sweep_tables(const struct fors_sweep *sw)
{
	return sw->staged.port ? &sw->staged : sw->route->lfts;
}

/* The first stage's entries into a port table of route's shape. */
static int keep_stage(struct fors_sweep *sw, const struct fors_lft_dump *d)
{
	const struct fors_lfts *lf = sw->route->lfts;
	size_t w = (size_t)lf->maxlid + 1;
	uint32_t i;

	sw->staged = *lf;
	sw->staged.port = malloc(w * lf->nsw + 1);
	if (!sw->staged.port)
		return FORS_ENOMEM;
	for (i = 0; i < lf->nsw; i++)
		memcpy(&sw->staged.port[i * w], d->sw[i].port, w);
	return 0;
}

int fors_sweep_stage(struct fors_sweep_state *st, struct fors_sweep *sw,
		     struct fors_lft_dump *held, struct fors_error *err)
{
	struct fors_stage_report *rep = &sw->stage;
	struct fors_lft_dump *d = NULL, *full = NULL;
	int e;

	sw->held = held;
	if (!held)
		return 0;
	e = fors_lfts_dump(sw->route->lfts, sw->live, &full, err);
	if (!e && fors_union_is_new(held, full)) {
		fors_lft_dump_free(full);
		return 0;
	}
	if (!e)
		e = fors_lfts_dump(sw->route->lfts, sw->live, &d, err);
	/* d becomes the stage, full stays the new tables */
	if (!e)
		e = fors_stage(sw->live, held, full, d, sw->route->lfts, rep,
			       err);
	if (e == FORS_EVERIFY) {
		fors_sweep_say(st, 1, "%s: the new tables replace them at once",
			       err->msg);
		e = 0;
	} else if (!e && rep->changed) {
		e = keep_stage(sw, d);
		if (!e)
			fors_sweep_say(st, 0, "staged update: a mix of the switches' tables and the new ones could loop; first %u entries stay as the switches have them or wait (%u data paths), %u of them without a route (%u the switches' tables routed), the rest one sweep later",
				       rep->changed, rep->data, rep->dropped,
				       rep->lost);
	}
	fors_lft_dump_free(d);
	fors_lft_dump_free(full);
	return e;
}

/*
 * The tables may share a spine between a node's ports only where the
 * routing found the live cables left no other choice.
 */
static uint32_t mftree_excess(const struct fors_sweep *sw,
			      const struct fors_check_report *rep)
{
	uint32_t own = sw->route->lfts->mf_shared;

	return rep->mf_shared > own ? rep->mf_shared - own : 0;
}

/*
 * Until the next sweep, a first stage may leave transfers of the new
 * schedule without a route or on the held tables' planes (shared links,
 * or a detour), and some LIDs without a route; the old schedule is still
 * the published one. A credit loop, or a schedule that breaks its own
 * rules, is a failure.
 */
static int stage_only(const struct fors_sweep *sw,
		      const struct fors_check_report *rep)
{
	return sw->staged.port && !rep->loop && !rep->schedule &&
	       !rep->bound_wrong;
}

/* The union of the held tables and those read back, checked beside. */
struct union_job {
	const struct fors_sweep *sw;
	const struct fors_lft_dump *d;
	struct fors_union_report u;
	struct fors_error err;
	int e;
};

static void *check_union(void *arg)
{
	struct union_job *j = arg;
	const struct fors_sweep *sw = j->sw;

	if (!sw->held || sw->stage.held_loop || fors_union_is_new(sw->held, j->d))
		return NULL;
	j->e = fors_check_union(sw->live, sw->held, j->d, &j->u, &j->err);
	return NULL;
}

/* A mix of the held tables and those read back cannot loop. */
static int say_union(const struct fors_sweep_state *st,
		     const struct union_job *j, struct fors_error *err)
{
	if (j->e != FORS_EVERIFY) {
		if (j->e)
			*err = j->err;
		return j->e;
	}
	if (j->u.loop)
		fors_sweep_say(st, 1, "verification: a mix of the switches' tables and the new ones has a credit loop %s",
			       j->u.cycle);
	if (j->u.fwd_lids)
		fors_sweep_say(st, 1, "verification: a mix of the switches' tables and the new ones forwards %u LIDs in a circle, %s",
			       j->u.fwd_lids, j->u.fwd);
	fors_error_set(err, "a mix of the switches' tables and the new ones can loop");
	return FORS_EVERIFY;
}

/* Why the tables fail, logged, and in err. */
static int refuse(const struct fors_sweep_state *st,
		  const struct fors_check_report *rep, uint32_t mf,
		  struct fors_error *err)
{
	uint32_t i;
	char what[256];

	for (i = 0; i < rep->nkept; i++)
		fors_sweep_say(st, 1, "verification: %s", rep->kept[i]);
	if (rep->loop)
		fors_sweep_say(st, 1, "verification: credit loop %s", rep->cycle);
	if (mf)
		fors_sweep_say(st, 1, "verification: mFtree: %u (leaf, node) pairs reach the node's ports through one spine, %u more than the routing left",
			       rep->mf_shared, mf);
	fors_check_failures(rep, what, sizeof(what));
	if (mf)
		snprintf(what + strlen(what), sizeof(what) - strlen(what),
			 "%s%u mFtree pairs on one spine", what[0] ? ", " : "",
			 mf);
	fors_error_set(err, "the tables break the schedule's guarantees: %s",
		       what);
	return FORS_EVERIFY;
}

/*
 * The tables as read back, followed against the schedule and checked, and
 * their union with the tables the switches held. A first stage's
 * transfers are followed once its tables are handed over: they decide
 * nothing (stage_only), and the sweep that installs the rest follows them
 * again before it publishes the schedule.
 */
static int verify(struct fors_sweep_state *st, struct fors_sweep *sw,
		  fors_sweep_read_back read_back, void *ctx,
		  struct fors_error *err)
{
	struct fors_check_report rep;
	struct fors_lft_dump *d;
	struct union_job j = { .sw = sw };
	const struct fors_check_job job = { check_union, &j, sw->rules,
					    sw->staged.port != NULL };
	uint32_t mf;
	int e, u;

	e = read_back(ctx, sw, &d, err);
	if (e)
		return e;
	j.d = d;
	e = fors_check_routes_beside(sw->live, d, sw->route->s, &rep, err,
				     &job);
	if (e != FORS_OK && e != FORS_EVERIFY) {
		fors_lft_dump_free(d);
		return e;
	}
	u = say_union(st, &j, err);
	mf = mftree_excess(sw, &rep);
	if (!u && stage_only(sw, &rep)) {
		fors_followup_start(st, &sw->live, &sw->route->s, &d,
				    rep.unreachable, mf);
		return 0;
	}
	fors_lft_dump_free(d);
	if (u)
		return u;
	if (e == FORS_OK && !mf)
		return 0;
	return refuse(st, &rep, mf, err);
}

/*
 * What the next sweeps need of this one: its fabric in the remembered one.
 * Not its tables: the next sweep reads the switches' own.
 */
static void remember(struct fors_sweep_state *st, struct fors_sweep *sw,
		     int64_t now)
{
	struct fors_error err = { "" };

	if (sw->next_seen) {
		fors_topology_free(st->seen);
		st->seen = sw->next_seen;
		sw->next_seen = NULL;
	}
	st->cables->written = now;
	if (st->cfg.state_path &&
	    fors_state_write_file(st->cfg.state_path, st->cables, st->seen,
				  &err))
		fors_sweep_say(st, 1, "state file not written: %s", err.msg);
}

/* The whole routing, and where it went. */
static void summary(const struct fors_sweep_state *st,
		    const struct fors_sweep *sw, const struct fors_route *r,
		    uint32_t nphases)
{
	const double *t = sw->ms;
	uint32_t down, held;

	fors_cables_count(st->cables, &down, &held);
	fors_sweep_say(st, 0,
		       "routed FT(2;%u,%u) lmc %u: f %u, m %u, %u phases (%u split), bound %u, method %s, mFtree %u/%u shared, cables %u down %u held, %.1f ms, generation %" PRIu64 " (route %.1f, OpenSM hop matrices %.1f, stage %.1f, install %.1f, verify %.1f, files %.1f ms)",
		       r->fb->m0, r->fb->m1, r->lfts->lmc, r->fb->f,
		       r->fb->m, nphases, r->assign.split + r->detour.added,
		       r->bound.t,
		       fors_method_name(r->assign.method),
		       r->lfts->mf_shared, r->lfts->mf_pairs, down,
		       held, t[0] + t[1] + t[2] + t[3] + t[4] + t[5],
		       st->generation, t[0], t[1], t[2], t[3], t[4], t[5]);
	if (r->detour.phases)
		fors_sweep_say(st, 0,
			       "detours: %u transfers between leaves without a common live plane, through a third leaf, in the last %u phases, %u of them added",
			       r->detour.xfers, r->detour.phases,
			       r->detour.added);
	if (r->bound_lmc > r->bound.t)
		fors_sweep_say(st, 0,
			       "one route per (leaf, host) at lmc %u: bound-lmc %u, %u phases above it",
			       r->lfts->lmc, r->bound_lmc,
			       nphases > r->bound_lmc ? nphases - r->bound_lmc : 0);
	if (r->bound_map > r->bound_lmc)
		fors_sweep_say(st, 0,
			       "every transfer on its base LID's route: bound-map %u, %u phases above it",
			       r->bound_map,
			       nphases > r->bound_map ? nphases - r->bound_map : 0);
}

int fors_sweep_finish(struct fors_sweep_state *st, struct fors_sweep *sw,
		      fors_sweep_read_back read_back, void *ctx, int64_t now,
		      struct fors_error *err)
{
	double t = fors_clock_ms();
	uint32_t nphases = sw->route->s->nphases;
	int e = 0;

	if (st->cfg.verify)
		e = verify(st, sw, read_back, ctx, err);
	if (e)
		return e;
	sw->ms[FORS_SPAN_VERIFY] = fors_clock_ms() - t;
	t = fors_clock_ms();
	remember(st, sw, now);
	st->restage = sw->staged.port != NULL;
	if (!st->restage)
		fors_sweep_publish(st, &sw->route->s, sw->route->bound.t);
	sw->ms[FORS_SPAN_FILES] = fors_clock_ms() - t;
	summary(st, sw, sw->route, nphases);
	return 0;
}
