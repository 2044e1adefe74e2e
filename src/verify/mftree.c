// SPDX-License-Identifier: MIT
/*
 * The ports of a multi-homed node are routed through independent spines,
 * so that one spine's failure leaves it reachable: counted from the
 * tables, not from the routing's own account, so the plugin can hold the
 * tables to what the routing says it could not avoid.
 */
#include <stdlib.h>

#include "verify/mftree.h"

static int by_node(const void *x, const void *y)
{
	const struct fors_port_lid *a = x, *b = y;

	if (a->node != b->node)
		return a->node < b->node ? -1 : 1;
	return (a->port > b->port) - (a->port < b->port);
}

/* The switch leaf l sends lid up to, or FORS_NO_PEER. */
static uint32_t up(const struct fors_walk *w, uint32_t l, uint32_t lid)
{
	const struct fors_node *n = &w->t->nodes[l];
	uint32_t k = fors_walk_port(w, l, lid), y;

	if (k == 0 || k == FORS_NO_PORT)
		return FORS_NO_PEER;
	y = n->ports[k].peer;
	return w->t->nodes[y].type == FORS_SWITCH ? y : FORS_NO_PEER;
}

/* One node's ports seen from leaf l: counted when 2+ of them go up. */
static void from_leaf(const struct fors_walk *w, uint32_t l,
		      const struct fors_port_lid *p, size_t n,
		      uint32_t *spine, struct fors_mftree *out)
{
	size_t i, j, k = 0;
	int shared = 0;

	for (i = 0; i < n; i++) {
		spine[k] = up(w, l, p[i].lid);
		if (spine[k] == FORS_NO_PEER)
			continue;
		for (j = 0; j < k; j++)
			shared |= spine[j] == spine[k];
		k++;
	}
	out->pairs += k >= 2;
	out->shared += k >= 2 && shared;
}

int fors_mftree_count(const struct fors_walk *w, const uint8_t *leaf,
		      struct fors_port_lid *ports, size_t n,
		      struct fors_mftree *out)
{
	const struct fors_topology *t = w->t;
	uint32_t *spine = malloc(sizeof(uint32_t) * (n + 1)), l;
	size_t i, j;

	out->pairs = out->shared = 0;
	if (!spine)
		return FORS_ENOMEM;
	qsort(ports, n, sizeof(*ports), by_node);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && ports[j].node == ports[i].node; j++)
			;
		for (l = 0; j - i >= 2 && l < t->nnodes; l++)
			if (w->table[l] >= 0 && leaf[l])
				from_leaf(w, l, &ports[i], j - i, spine, out);
	}
	free(spine);
	return 0;
}
