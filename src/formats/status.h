/* SPDX-License-Identifier: MIT */
#ifndef FORS_STATUS_H
#define FORS_STATUS_H

#include <stdint.h>
#include <stdio.h>

#include "fabric/holddown.h"
#include "fabric/topology.h"

/* For the admin: one line per cable that is not simply up, at time now. */
void fors_cables_print(FILE *out, const struct fors_cables *cs,
		       const struct fors_topology *seen, int64_t now);

#endif
