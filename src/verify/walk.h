/* SPDX-License-Identifier: MIT */
#ifndef FORS_WALK_H
#define FORS_WALK_H

#include <stdint.h>

#include "base/error.h"
#include "formats/lftdump.h"
#include "fabric/topology.h"

#define FORS_MAX_HOPS 16

/* A dump's tables laid over a topology: packets forwarded as switches do. */
struct fors_walk {
	const struct fors_topology *t;
	const struct fors_lft_dump *d;
	int32_t *table;		/* per node: its dump table, -1 */
};

/* Tables matched to switches by GUID, else by description; FORS_ENOMEM. */
int fors_walk_init(struct fors_walk *w, const struct fors_topology *t,
		   const struct fors_lft_dump *d);
void fors_walk_free(struct fors_walk *w);

/*
 * The port switch x sends lid out of: 0 when x consumes it, FORS_NO_PORT
 * when there is no route or the port leads nowhere.
 */
static inline uint32_t fors_walk_port(const struct fors_walk *w, uint32_t x,
				      uint32_t lid)
{
	const struct fors_node *n = &w->t->nodes[x];
	const struct fors_lft_switch *s = &w->d->sw[w->table[x]];
	uint32_t k = lid <= s->maxlid ? s->port[lid] : FORS_NO_PORT;

	if (k != 0 && (k > n->nports || n->ports[k].peer == FORS_NO_PEER))
		return FORS_NO_PORT;
	return k;
}

struct fors_hop {
	uint32_t node, port;	/* delivered at, or lost at */
	uint32_t sw[FORS_MAX_HOPS];	/* switches passed */
	uint32_t nsw;
	const char *fail;	/* NULL when it reached a CA */
};

/*
 * Forward a packet for dlid entering switch x until it reaches a CA or is
 * lost; use() sees every directed link taken, as (node, out port).
 */
void fors_walk_forward(const struct fors_walk *w, uint32_t x, uint32_t dlid,
		       struct fors_hop *h,
		       void (*use)(void *arg, uint32_t node, uint32_t port),
		       void *arg);

#endif
