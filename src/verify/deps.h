/* SPDX-License-Identifier: MIT */
#ifndef FORS_DEPS_H
#define FORS_DEPS_H

#include <stddef.h>
#include <stdint.h>

#include "fabric/topology.h"

/*
 * The channel dependency graph over a topology (doc/routing.md, "Deadlock
 * freedom"): a channel is a directed link, node and out port, numbered
 * pbase[node] + port; a packet that arrives over a channel and leaves
 * through port k of its head makes that a dependency.
 */
struct fors_deps {
	const struct fors_topology *t;
	uint32_t *pbase;	/* per node: its first channel; [nnodes]:
				   nchan */
	uint32_t *cnode;	/* per channel: its tail node */
	uint32_t nchan;
	uint32_t width;		/* most ports of a node, plus one */
	uint8_t *dep;		/* [channel * width + port] */
	size_t n;		/* dependencies */
};

/* No dependency yet over t's channels; FORS_ENOMEM. */
int fors_deps_init(struct fors_deps *g, const struct fors_topology *t);

void fors_deps_free(struct fors_deps *g);

/* chan feeds port k of its head (counted once); inline: the union's
   graph adds millions at NDR scale. */
static inline void fors_deps_add(struct fors_deps *g, uint32_t chan,
				 uint32_t k)
{
	uint8_t *b = &g->dep[(size_t)chan * g->width + k];

	g->n += !*b;
	*b = 1;
}

/* chan no longer feeds port k of its head. */
void fors_deps_remove(struct fors_deps *g, uint32_t chan, uint32_t k);

/* The node at the far end of chan. */
uint32_t fors_deps_head(const struct fors_deps *g, uint32_t chan);

/*
 * A cycle among the channels whose tail has a table (table[node] >= 0): 1
 * with its channels in cyc[0 .. *n) (room for g->nchan), each feeding the
 * next and the last the first; 0 when there is none, FORS_ENOMEM.
 */
int fors_deps_find(const struct fors_deps *g, const int32_t *table,
		   uint32_t *cyc, uint32_t *n);

/*
 * A cycle among the channels whose tail has a table (table[node] >= 0): 1
 * with it written into buf as "switch"[out port] -> ... -> "switch", 0
 * when there is none, FORS_ENOMEM.
 */
int fors_deps_cycle(const struct fors_deps *g, const int32_t *table,
		    char *buf, size_t len);

#endif
