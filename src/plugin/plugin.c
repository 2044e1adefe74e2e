// SPDX-License-Identifier: MIT
/*
 * libfors.so: an OpenSM event plugin whose only job is to register the
 * routing engine "fors" (event_plugin_name fors, routing_engine fors).
 * Every heavy sweep is sweep/sweep.c's: this file converts OpenSM's subnet
 * for it, installs its tables and logs what it says; anything it refuses
 * makes the callback fail, so OpenSM falls back to the next engine.
 */
#include <stdio.h>
#include <stdlib.h>

#include <opensm/osm_config.h>
#include <opensm/osm_event_plugin.h>
#include <opensm/osm_log.h>
#include <opensm/osm_opensm.h>
#include <opensm/osm_version.h>

#include "plugin/cache.h"
#include "plugin/setup.h"
#include "plugin/subnet.h"
#include "sweep/publish.h"
#include "sys/clock.h"
#include "sys/memory.h"

#define LOG(p, lvl, ...) OSM_LOG(&(p)->osm->log, lvl, "fors: " __VA_ARGS__)

/*
 * The heavy sweep that installs the rest of a staged update at once, or
 * brings the next held cable back into use.
 */
static void arm(struct fors_plugin *p)
{
	int64_t now = fors_clock_wall(), wake = p->st->wake;

	if (p->st->restage && p->timer_ready) {
		cl_timer_start(&p->timer, p->cfg.stage_wait_ms);
		return;
	}
	if (!wake || !p->timer_ready)
		return;
	cl_timer_start(&p->timer, (uint32_t)((wake > now ? wake - now : 0) *
					     1000 + 200));
}

static void drop_sweep(struct fors_plugin *p)
{
	fors_sweep_free(p->sweep);
	p->sweep = NULL;
}

/*
 * Returning 1 makes OpenSM build its own hop matrices after ours, which SA
 * path records and multicast need; -1 moves on to the next engine.
 */
static int build_lid_matrices(void *ctx)
{
	struct fors_plugin *p = ctx;
	const struct fors_planes_source cache = { fors_cache_planes, p };
	struct fors_route_opts o = {
		.lmc = p->osm->subn.opt.lmc,
		.planes = p->ilp_argv ? &cache : NULL,
		.refuse_spine_hosts = p->cfg.refuse_spine_hosts,
		.exchange_lids = p->cfg.exchange_lids,
		.phases_first = p->cfg.phases_first,
	};
	struct fors_topology *live;
	struct fors_guids *g;
	struct fors_error err = { "" };
	int e;

	drop_sweep(p);
	p->t = fors_clock_ms();
	g = fors_sweep_participants(p->st, p->cfg.participants,
				    p->osm->subn.opt.cn_guid_file);
	o.participants = g ? g->g : NULL;
	o.nparticipants = g ? g->n : 0;
	e = fors_subnet_topology(&p->osm->subn, &live, &err);
	if (e)
		LOG(p, OSM_LOG_ERROR, "cannot route this fabric: %s\n", err.msg);
	else
		e = fors_sweep_route(p->st, live, fors_clock_wall(), &o,
				     &p->sweep, &err);
	fors_guids_free(g);
	if (e) {
		arm(p);
		return -1;
	}
	p->sweep->ms[FORS_SPAN_ROUTE] = fors_clock_ms() - p->t;
	p->t = fors_clock_ms();
	return 1;
}

/* The tables as OpenSM now holds them in new_lft, for the verification. */
static int read_back(void *ctx, const struct fors_sweep *sw,
		     struct fors_lft_dump **out, struct fors_error *err)
{
	struct fors_plugin *p = ctx;

	return fors_subnet_dump(&p->osm->subn, sw->live, sw->route->lfts, 0,
				out, err);
}

/* The tables the switches hold, against which the new ones are staged. */
static int stage(struct fors_plugin *p, struct fors_sweep *sw,
		 struct fors_error *err)
{
	struct fors_lft_dump *held;
	int e = fors_subnet_dump(&p->osm->subn, sw->live, sw->route->lfts, 1,
				 &held, err);

	return e ? e : fors_sweep_stage(p->st, sw, held, err);
}

static int build_fwd_tables(void *ctx)
{
	struct fors_plugin *p = ctx;
	struct fors_sweep *sw = p->sweep;
	struct fors_error err = { "" };
	double t;
	int e;

	if (!sw) {
		LOG(p, OSM_LOG_ERROR, "no routing computed in this sweep\n");
		return -1;
	}
	t = fors_clock_ms();
	sw->ms[FORS_SPAN_HOPS] = t - p->t;
	e = stage(p, sw, &err);
	sw->ms[FORS_SPAN_STAGE] = fors_clock_ms() - t;
	t = fors_clock_ms();
	if (!e)
		e = fors_subnet_install(&p->osm->subn, sw->live,
					fors_sweep_tables(sw), &err);
	sw->ms[FORS_SPAN_INSTALL] = fors_clock_ms() - t;
	if (!e)
		e = fors_sweep_finish(p->st, sw, read_back, p, fors_clock_wall(),
				      &err);
	if (e)
		LOG(p, OSM_LOG_ERROR, "tables not installed: %s\n", err.msg);
	else
		arm(p);
	drop_sweep(p);
	return e ? -1 : 0;
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
	int tuned = fors_memory_tune();
	struct fors_plugin *p = fors_plugin_new(osm);

	if (!p)
		return NULL;
	if (tuned)
		LOG(p, OSM_LOG_INFO, "the C library's mmap threshold or arena count stays as it was: OpenSM's peak memory may vary between sweeps\n");
	m.context = p;
	if (osm_register_external_routing_engine(osm, &m, p) != CL_SUCCESS) {
		LOG(p, OSM_LOG_ERROR, "cannot register the routing engine\n");
		fors_plugin_free(p);
		return NULL;
	}
	LOG(p, OSM_LOG_INFO, "routing engine registered; schedule file %s\n",
	    p->st->cfg.schedule_path);
	return p;
}

/*
 * The schedule file is written while OpenSM configures the switches; when
 * OpenSM reports the routing done (the tables sent and acknowledged,
 * before it logs SUBNET UP) the file is waited for, so it is there, and
 * its log line in, by SUBNET UP.
 */
static void report(void *data, osm_epi_event_id_t id, void *event)
{
	struct fors_plugin *p = data;

	(void)event;
	if (id == OSM_EVENT_ID_UCAST_ROUTING_DONE || id == OSM_EVENT_ID_SUBNET_UP)
		fors_sweep_flush(p->st);
}

static void delete(void *data)
{
	struct fors_plugin *p = data;

	drop_sweep(p);
	fors_plugin_free(p);
}

osm_event_plugin_t osm_event_plugin = {
	.osm_version = OSM_VERSION,
	.create = create,
	.delete = delete,
	.report = report,
};
