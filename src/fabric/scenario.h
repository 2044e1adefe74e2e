/* SPDX-License-Identifier: MIT */
#ifndef FORS_SCENARIO_H
#define FORS_SCENARIO_H

#include <stdint.h>

#include "base/error.h"
#include "fabric/fabric.h"

/*
 * A failure scenario as the schedule and the plane assignment see it: the
 * shape, the present hosts and the live planes of every leaf. Node names,
 * GUIDs and spines do not matter to them, so the plugin hands this to the
 * ILP cache lookup, and the cache's keys are built from it (doc/ilp.md).
 */
struct fors_scenario {
	uint32_t m0;		/* host slots per leaf */
	uint32_t m1;		/* leaves */
	uint32_t q;		/* planes */
	uint8_t *present;	/* [m0 * m1] */
	uint8_t *live;		/* [m1 * q] */
};

/* Largest plane count a scenario may have. */
#define FORS_SCENARIO_MAX_PLANES 1024

/* Every slot absent and every plane dead; NULL: no memory. */
struct fors_scenario *fors_scenario_new(uint32_t m0, uint32_t m1, uint32_t q);
/* Free sc; NULL is ignored. */
void fors_scenario_free(struct fors_scenario *sc);

/* The scenario of an analysed fabric. */
struct fors_scenario *fors_scenario_of(const struct fors_fabric *fb);

/*
 * An abstract fabric for sc: leaf l, plane p and spine p are indices, not
 * nodes. FORS_EINVAL when a leaf with hosts has no live plane or two such
 * leaves share none.
 */
int fors_scenario_fabric(const struct fors_scenario *sc,
			 struct fors_fabric **out, struct fors_error *err);

#endif
