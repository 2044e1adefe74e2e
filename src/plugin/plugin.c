// SPDX-License-Identifier: MIT
/*
 * libfors.so: an OpenSM event plugin whose only job is to register the
 * routing engine "fors" (event_plugin_name fors, routing_engine fors).
 * Every routing recomputes from the current subnet; anything the core
 * refuses makes the callback fail, so OpenSM falls back to the next engine.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <opensm/osm_config.h>
#include <opensm/osm_event_plugin.h>
#include <opensm/osm_log.h>
#include <opensm/osm_opensm.h>
#include <opensm/osm_version.h>

#include "verify/check.h"
#include "formats/config.h"
#include "routing/route.h"
#include "formats/schedfile.h"
#include "plugin/plugin.h"
#include "plugin/subnet.h"
#include "formats/ibnetdiscover.h"
#include "formats/statefile.h"

#define LOG(p, lvl, ...) OSM_LOG(&(p)->osm->log, lvl, "fors: " __VA_ARGS__)

static double now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

static void reset(struct fors_plugin *p)
{
	fors_route_free(p->route);
	fors_topology_free(p->live);
	fors_topology_free(p->next_seen);
	p->route = NULL;
	p->live = NULL;
	p->next_seen = NULL;
}

/* The expected fabric: the configured reference, or all seen so far. */
static int expected(struct fors_plugin *p, const struct fors_topology **ref,
		    struct fors_error *err)
{
	int e = 0;

	*ref = p->ref;
	if (p->ref)
		return 0;
	if (p->seen)
		e = fors_topology_merge(&p->next_seen, p->seen, err);
	if (!e)
		e = fors_topology_merge(&p->next_seen, p->live, err);
	*ref = p->next_seen;
	return e;
}

/* A remembered fabric with no switch of this one is another fabric's. */
static void forget_foreign(struct fors_plugin *p)
{
	if (!p->seen || fors_topology_common_switches(p->live, p->seen))
		return;
	LOG(p, OSM_LOG_ERROR, "the remembered fabric (state_file) shares no switch with this subnet: forgotten\n");
	fors_topology_free(p->seen);
	p->seen = NULL;
	fors_cables_free(p->cables);
	p->cables = fors_cables_new();
}

static int route(struct fors_plugin *p, struct fors_error *err)
{
	const struct fors_planes_source cache = { fors_cache_planes, p };
	struct fors_route_opts o = { .lmc = p->osm->subn.opt.lmc,
				     .planes = p->ilp_argv ? &cache : NULL };
	const struct fors_topology *ref = NULL;
	int e;

	e = fors_subnet_topology(&p->osm->subn, &p->live, err);
	if (!e) {
		forget_foreign(p);
		if (!p->cables) {
			fors_error_set(err, "out of memory");
			return FORS_ENOMEM;
		}
		e = fors_cables_update(p->cables, p->ref ? p->ref : p->seen,
				       p->live, (int64_t)time(NULL),
				       p->cfg.link_holddown_s, &p->wake, err);
	}
	if (!e)
		e = expected(p, &ref, err);
	if (!e)
		e = fors_route_compute(p->live, ref, &o, &p->route, err);
	if (e == FORS_EINVAL && ref && fors_cables_release(p->cables, p->live)) {
		LOG(p, OSM_LOG_ERROR, "%s: held cables put back into use early\n",
		    err->msg);
		p->wake = 0;
		e = fors_route_compute(p->live, ref, &o, &p->route, err);
	}
	return e;
}

/* What the plugin saw, for the admin to compare with ibnetdiscover. */
static void keep_rejected(struct fors_plugin *p)
{
	struct fors_error err = { "" };

	if (!p->live || !p->rejected_path)
		return;
	if (fors_topology_write_file(p->rejected_path, p->live, &err))
		LOG(p, OSM_LOG_ERROR, "%s\n", err.msg);
	else
		LOG(p, OSM_LOG_ERROR, "the subnet as fors saw it is in %s\n",
		    p->rejected_path);
}

static void arm(struct fors_plugin *p);

/*
 * Returning 1 makes OpenSM build its own hop matrices after ours, which SA
 * path records and multicast need; -1 moves on to the next engine.
 */
static int build_lid_matrices(void *ctx)
{
	struct fors_plugin *p = ctx;
	struct fors_error err = { "" };

	reset(p);
	p->t[0] = now_ms();
	if (route(p, &err)) {
		LOG(p, OSM_LOG_ERROR, "cannot route this fabric: %s\n", err.msg);
		keep_rejected(p);
		arm(p);
		reset(p);
		return -1;
	}
	p->t[1] = now_ms();
	return 1;
}

static int verify(struct fors_plugin *p, struct fors_error *err)
{
	struct fors_check_report rep;
	struct fors_lft_dump *d;
	char what[256];
	uint32_t i;
	int e;

	e = fors_subnet_dump(&p->osm->subn, p->live, p->route->lfts, &d, err);
	if (e)
		return e;
	e = fors_check_routes(p->live, d, p->route->s, &rep, err);
	fors_lft_dump_free(d);
	if (e != FORS_EVERIFY)
		return e;
	for (i = 0; i < rep.nkept; i++)
		LOG(p, OSM_LOG_ERROR, "verification: %s\n", rep.kept[i]);
	if (rep.loop)
		LOG(p, OSM_LOG_ERROR, "verification: credit loop %s\n", rep.cycle);
	fors_check_failures(&rep, what, sizeof(what));
	fors_error_set(err, "the tables break the schedule's guarantees: %s",
		       what);
	return e;
}

/* A new generation only when the schedule changed: applications re-read it. */
static void publish(struct fors_plugin *p)
{
	uint64_t d = fors_schedule_digest(p->route->s, NULL);
	struct fors_error err = { "" };
	char g[24];

	if (p->have_digest && d == p->digest && !access(p->schedule_path, F_OK))
		return;
	snprintf(g, sizeof(g), "%" PRIu64, p->generation + 1);
	if (fors_schedule_add_key(p->route->s, "generation", g)) {
		LOG(p, OSM_LOG_ERROR, "out of memory: schedule file not written\n");
		return;
	}
	if (fors_schedule_write_file(p->schedule_path, p->route->s, &err)) {
		LOG(p, OSM_LOG_ERROR, "schedule file not written: %s\n", err.msg);
		return;
	}
	p->generation++;
	p->digest = d;
	p->have_digest = 1;
}

static void remember(struct fors_plugin *p)
{
	struct fors_error err = { "" };

	if (p->next_seen) {
		fors_topology_free(p->seen);
		p->seen = p->next_seen;
		p->next_seen = NULL;
	}
	p->cables->written = (int64_t)time(NULL);
	if (p->cfg.state_file &&
	    fors_state_write_file(p->cfg.state_file, p->cables, p->seen, &err))
		LOG(p, OSM_LOG_ERROR, "state file not written: %s\n", err.msg);
}

/* The heavy sweep that brings the next held cable back into use. */
static void arm(struct fors_plugin *p)
{
	int64_t now = (int64_t)time(NULL);

	if (!p->wake || !p->timer_ready)
		return;
	cl_timer_start(&p->timer, (uint32_t)((p->wake > now ? p->wake - now : 0) *
					     1000 + 200));
}

/* The whole routing, and where it went: fors, OpenSM's hop matrices
 * between our two callbacks, the check, the files. */
static void log_summary(struct fors_plugin *p)
{
	const struct fors_route *r = p->route;
	const double *t = p->t;
	uint32_t down, held;

	fors_cables_count(p->cables, &down, &held);
	LOG(p, OSM_LOG_INFO,
	    "routed FT(2;%u,%u) lmc %u: f %u, m %u, %u phases (%u split), method %s, mFtree %u/%u shared, cables %u down %u held, %.1f ms, generation %" PRIu64 " (route %.1f, OpenSM hop matrices %.1f, install %.1f, verify %.1f, files %.1f ms)\n",
	    r->fb->m0, r->fb->m1, r->lfts->lmc, r->fb->f, r->fb->m,
	    r->s->nphases, r->assign.split, fors_method_name(r->assign.method),
	    r->lfts->mf_shared, r->lfts->mf_pairs, down, held, t[5] - t[0],
	    p->generation, t[1] - t[0], t[2] - t[1], t[3] - t[2],
	    t[4] - t[3], t[5] - t[4]);
}

static int build_fwd_tables(void *ctx)
{
	struct fors_plugin *p = ctx;
	struct fors_error err = { "" };
	int e;

	if (!p->route) {
		LOG(p, OSM_LOG_ERROR, "no routing computed in this sweep\n");
		return -1;
	}
	p->t[2] = now_ms();
	e = fors_subnet_install(&p->osm->subn, p->live, p->route->lfts, &err);
	p->t[3] = now_ms();
	if (!e && p->cfg.verify)
		e = verify(p, &err);
	p->t[4] = now_ms();
	if (e) {
		LOG(p, OSM_LOG_ERROR, "tables not installed: %s\n", err.msg);
		reset(p);
		return -1;
	}
	remember(p);
	publish(p);
	arm(p);
	p->t[5] = now_ms();
	log_summary(p);
	reset(p);
	return 0;
}

static int setup(struct osm_routing_engine *re, osm_opensm_t *osm)
{
	(void)osm;
	re->build_lid_matrices = build_lid_matrices;
	re->ucast_build_fwd_tables = build_fwd_tables;
	return 0;
}

static void *create(osm_opensm_t *osm)
{
	external_routing_engine_module_t m = { "fors", setup, NULL };
	struct fors_plugin *p = fors_plugin_new(osm);

	if (!p)
		return NULL;
	m.context = p;
	if (osm_register_external_routing_engine(osm, &m, p) != CL_SUCCESS) {
		LOG(p, OSM_LOG_ERROR, "cannot register the routing engine\n");
		fors_plugin_free(p);
		return NULL;
	}
	LOG(p, OSM_LOG_INFO, "routing engine registered; schedule file %s\n",
	    p->schedule_path);
	return p;
}

static void delete(void *data)
{
	struct fors_plugin *p = data;

	reset(p);
	fors_plugin_free(p);
}

osm_event_plugin_t osm_event_plugin = {
	.osm_version = OSM_VERSION,
	.create = create,
	.delete = delete,
};
