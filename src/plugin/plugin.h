/* SPDX-License-Identifier: MIT */
#ifndef FORS_PLUGIN_H
#define FORS_PLUGIN_H

#include <stdint.h>

#include <opensm/osm_opensm.h>

#include "fors/config.h"
#include "fors/route.h"
#include "fors/topology.h"

struct fors_plugin {
	osm_opensm_t *osm;
	struct fors_config cfg;
	char *schedule_path;
	char *rejected_path;	/* the last subnet fors could not route */
	struct fors_topology *ref;	/* reference_topology, if given */
	struct fors_topology *seen;	/* every fabric routed since start */
	uint64_t generation;		/* of the last schedule written */
	/* One routing, from build_lid_matrices to ucast_build_fwd_tables: */
	struct fors_topology *live;
	struct fors_topology *next_seen;
	struct fors_route *route;
	double t[6];		/* when each step of it ended, ms */
};

/* Configuration, reference, state and generation resolved; NULL: no memory. */
struct fors_plugin *fors_plugin_new(osm_opensm_t *osm);
void fors_plugin_free(struct fors_plugin *p);

#endif
