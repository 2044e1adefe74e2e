/* SPDX-License-Identifier: MIT */
#ifndef FORS_PLUGIN_SUBNET_H
#define FORS_PLUGIN_SUBNET_H

#include <opensm/osm_subnet.h>

#include "routing/lft.h"
#include "formats/lftdump.h"
#include "fabric/topology.h"

/* The subnet as OpenSM discovered it in this sweep. */
int fors_subnet_topology(osm_subn_t *sn, struct fors_topology **out,
			 struct fors_error *err);

/* Fill new_lft of every switch of lf (prepared by OpenSM for this sweep). */
int fors_subnet_install(osm_subn_t *sn, const struct fors_topology *live,
			const struct fors_lfts *lf, struct fors_error *err);

/*
 * What new_lft now holds on those switches, for the core's checker; with
 * held, what lft holds: the tables OpenSM last set on the switches.
 */
int fors_subnet_dump(osm_subn_t *sn, const struct fors_topology *live,
		     const struct fors_lfts *lf, int held,
		     struct fors_lft_dump **out, struct fors_error *err);

#endif
