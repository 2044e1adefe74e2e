/* SPDX-License-Identifier: MIT */
#ifndef FORS_LFTDUMP_H
#define FORS_LFTDUMP_H

#include <stdint.h>
#include <stdio.h>

#include "base/error.h"
#include "fabric/fabric.h"
#include "fabric/topology.h"
#include "routing/lft.h"

/* One switch's table as a dump shows it. */
struct fors_lft_switch {
	uint64_t guid;
	uint32_t lid;
	char *desc;
	uint32_t maxlid;
	uint8_t *port;		/* [maxlid + 1], FORS_NO_PORT where none */
	unsigned long line;
};

struct fors_lft_dump {
	struct fors_lft_switch *sw;
	uint32_t nsw;
};

/*
 * Read OpenSM's opensm-lfts.dump, fors's own dump, or the output of
 * ibroute (one or more switches). Malformed lines: FORS_EFORMAT, name:line.
 */
int fors_lft_dump_read(FILE *in, const char *name, struct fors_lft_dump **out,
		       struct fors_error *err);
int fors_lft_dump_read_file(const char *path, struct fors_lft_dump **out,
			    struct fors_error *err);
void fors_lft_dump_free(struct fors_lft_dump *d);

/* The tables in the format of OpenSM's opensm-lfts.dump. */
int fors_lfts_write(FILE *out, const struct fors_lfts *t,
		    const struct fors_topology *live,
		    const struct fors_fabric *fb);

/* The tables as a dump of live's switches, in memory: 0, FORS_ENOMEM. */
int fors_lfts_dump(const struct fors_lfts *t, const struct fors_topology *live,
		   struct fors_lft_dump **out, struct fors_error *err);

#endif
