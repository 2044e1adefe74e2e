/* SPDX-License-Identifier: MIT */
#ifndef FORS_IBNETDISCOVER_H
#define FORS_IBNETDISCOVER_H

#include <stdio.h>

#include "base/error.h"
#include "fabric/topology.h"

struct fors_fabric;
struct fors_lfts;

/*
 * Read the topology text ibnetdiscover prints; ibsim net files use the same
 * format. Unknown lines are skipped; malformed ones, links to undeclared
 * nodes and contradicting link ends are FORS_EFORMAT with name:line in err.
 */
int fors_topology_read(FILE *in, const char *name,
		       struct fors_topology **out, struct fors_error *err);

/* The same, from the file path ("cannot open PATH: why" when it fails). */
int fors_topology_read_file(const char *path, struct fors_topology **out,
			    struct fors_error *err);

/* Write t as ibnetdiscover text that fors_topology_read() reads back. */
int fors_topology_write(FILE *out, const struct fors_topology *t);
/* The same, to path atomically (a temporary file beside it, then rename). */
int fors_topology_write_file(const char *path, const struct fors_topology *t,
			     struct fors_error *err);

/*
 * t (the topology fb and l were routed on) given the LIDs the routing
 * chose, as a subnet manager would assign them: every host port's and
 * slotless CA port's base LID with l's LMC, every routed switch's LID;
 * the LIDs of all else cleared. What fors route writes for fors eval.
 */
void fors_topology_routed_lids(struct fors_topology *t,
			       const struct fors_fabric *fb,
			       const struct fors_lfts *l);

#endif
