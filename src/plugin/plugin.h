/* SPDX-License-Identifier: MIT */
#ifndef FORS_PLUGIN_H
#define FORS_PLUGIN_H

#include <stdint.h>

/* First: it decides the layout of OpenSM's structures (osm_opensm_t). */
#include <opensm/osm_config.h>
#include <complib/cl_timer.h>
#include <opensm/osm_opensm.h>

#include "formats/config.h"
#include "fabric/holddown.h"
#include "routing/route.h"
#include "fabric/topology.h"

struct fors_plugin {
	osm_opensm_t *osm;
	struct fors_config cfg;
	char *schedule_path;
	char *rejected_path;	/* the last subnet fors could not route */
	struct fors_topology *ref;	/* reference_topology, if given */
	struct fors_topology *seen;	/* every fabric routed since start */
	struct fors_cables *cables;	/* every cable's history */
	cl_timer_t timer;	/* a heavy sweep when a held cable is due */
	int timer_ready;
	int64_t wake;		/* when the next held cable is due, 0: none */
	uint64_t generation;		/* of the last schedule written */
	uint64_t digest;	/* of that schedule, generation left out */
	int have_digest;
	char **ilp_argv;	/* the lookup command, NULL: no ILP cache */
	/* One routing, from build_lid_matrices to ucast_build_fwd_tables: */
	struct fors_topology *live;
	struct fors_topology *next_seen;
	struct fors_route *route;
	double t[6];		/* when each step of it ended, ms */
};

/* The ILP cache's lookup command line (src/plugin/cache.c). */
char **fors_cache_argv(const char *cmd, const char *dir);

/* The planes source of the ILP cache (routing/route.h): 0 when it routed. */
int fors_cache_planes(void *ctx, const struct fors_fabric *fb,
		      struct fors_schedule **out);

/* Configuration, reference, state and generation resolved; NULL: no memory. */
struct fors_plugin *fors_plugin_new(osm_opensm_t *osm);
void fors_plugin_free(struct fors_plugin *p);

#endif
