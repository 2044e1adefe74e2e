/* SPDX-License-Identifier: MIT */
#ifndef FORS_PLUGIN_SETUP_H
#define FORS_PLUGIN_SETUP_H

#include <stdint.h>

/* First: it decides the layout of OpenSM's structures (osm_opensm_t). */
#include <opensm/osm_config.h>
#include <complib/cl_timer.h>
#include <opensm/osm_opensm.h>

#include "formats/config.h"
#include "sweep/state.h"
#include "sweep/sweep.h"

struct fors_plugin {
	osm_opensm_t *osm;
	struct fors_config cfg;
	struct fors_sweep_state *st;	/* what the sweeps leave each other */
	cl_timer_t timer;	/* a heavy sweep when a held cable is due */
	int timer_ready;
	char **ilp_argv;	/* the lookup command, NULL: no ILP cache */
	uint32_t ilp_also;	/* ilp_cache_user's uid, FORS_TRUST_NONE */
	struct fors_sweep *sweep;	/* from build_lid_matrices to
					   ucast_build_fwd_tables */
	double t;		/* when the last callback's work began, ms */
};

/* Configuration, paths and the sweeps' state resolved; NULL: no memory. */
struct fors_plugin *fors_plugin_new(osm_opensm_t *osm);

/* Free p and all it holds. */
void fors_plugin_free(struct fors_plugin *p);

#endif
