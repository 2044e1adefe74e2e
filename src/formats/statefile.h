/* SPDX-License-Identifier: MIT */
#ifndef FORS_STATEFILE_H
#define FORS_STATEFILE_H

#include <stdio.h>

#include "base/error.h"
#include "fabric/holddown.h"
#include "fabric/topology.h"

/*
 * The state file: "fors-state 1", the cables worth remembering, then the
 * remembered fabric (seen, may be NULL) as topology text.
 */
int fors_state_write(FILE *out, const struct fors_cables *cs,
		     const struct fors_topology *seen);

/* The same, to path atomically (a temporary file beside it, then rename). */
int fors_state_write_file(const char *path, const struct fors_cables *cs,
			  const struct fors_topology *seen,
			  struct fors_error *err);

/*
 * Read path into new *cs and *seen (NULL when it has no topology); a bare
 * topology (the format before cables) gives no cables. FORS_EFORMAT with
 * name:line, or an I/O error; both NULL then.
 */
int fors_state_read_file(const char *path, struct fors_cables **cs,
			 struct fors_topology **seen, struct fors_error *err);

#endif
