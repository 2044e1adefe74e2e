// SPDX-License-Identifier: MIT
/*
 * The topology model: topologies built by an adapter rather than read from
 * text, and the union of all fabrics seen (the plugin's memory of the
 * healthy fabric). Its text form is formats/ibnetdiscover.c.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/topology.h"

struct fors_topology *fors_topology_new(uint32_t nnodes)
{
	struct fors_topology *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->nodes = calloc(nnodes + 1, sizeof(*t->nodes));
	if (!t->nodes) {
		free(t);
		return NULL;
	}
	return t;
}

int fors_node_init(struct fors_topology *t, enum fors_node_type type,
		   const char *id, const char *desc, uint32_t nports)
{
	struct fors_node *n = &t->nodes[t->nnodes];
	uint32_t i;

	memset(n, 0, sizeof(*n));
	n->type = type;
	n->nports = nports;
	n->id = strdup(id);
	n->desc = strdup(desc);
	n->ports = calloc(nports + 1, sizeof(*n->ports));
	t->nnodes++;
	if (!n->id || !n->desc || !n->ports)
		return FORS_ENOMEM;
	for (i = 0; i <= nports; i++) {
		n->ports[i].peer = FORS_NO_PEER;
		n->ports[i].lmc = FORS_NO_LMC;
	}
	return 0;
}

static int same_node(const struct fors_node *a, const struct fors_node *b)
{
	if (a->type != b->type)
		return 0;
	if (a->guid && b->guid)
		return a->guid == b->guid;
	return !strcmp(a->id, b->id);
}

uint32_t fors_topology_find(const struct fors_topology *t,
			    const struct fors_node *n, uint32_t at)
{
	uint32_t i;

	if (at < t->nnodes && same_node(&t->nodes[at], n))
		return at;
	for (i = 0; i < t->nnodes; i++)
		if (same_node(&t->nodes[i], n))
			return i;
	return FORS_NO_PEER;
}

uint32_t fors_topology_common_switches(const struct fors_topology *a,
				       const struct fors_topology *b)
{
	uint32_t i, n = 0;

	for (i = 0; i < a->nnodes; i++)
		n += a->nodes[i].type == FORS_SWITCH &&
		     fors_topology_find(b, &a->nodes[i], i) != FORS_NO_PEER;
	return n;
}

uint32_t fors_topology_part_of(const struct fors_topology *t, uint32_t x)
{
	const struct fors_node *n = &t->nodes[x];
	uint32_t k, sw = FORS_NO_PEER;

	if (n->type != FORS_CA)
		return FORS_NO_PEER;
	for (k = 1; k <= n->nports; k++) {
		uint32_t p = n->ports[k].peer;

		if (p == FORS_NO_PEER)
			continue;
		if (t->nodes[p].type != FORS_SWITCH ||
		    (sw != FORS_NO_PEER && p != sw))
			return FORS_NO_PEER;
		sw = p;
	}
	if (sw == FORS_NO_PEER)
		return FORS_NO_PEER;
	if (n->sysguid && n->sysguid == t->nodes[sw].sysguid)
		return sw;
	return strstr(n->desc, "Aggregation Node") ? sw : FORS_NO_PEER;
}

static int copy_node(struct fors_topology *t, const struct fors_node *n)
{
	struct fors_node *c;

	if (fors_node_init(t, n->type, n->id, n->desc, n->nports))
		return FORS_ENOMEM;
	c = &t->nodes[t->nnodes - 1];
	c->guid = n->guid;
	c->sysguid = n->sysguid;
	c->lid = n->lid;
	c->line = n->line;
	return 0;
}

static void unlink_port(struct fors_topology *t, uint32_t node, uint32_t port)
{
	struct fors_port *p = &t->nodes[node].ports[port];

	if (p->peer != FORS_NO_PEER)
		t->nodes[p->peer].ports[p->peer_port].peer = FORS_NO_PEER;
	p->peer = FORS_NO_PEER;
}

/*
 * A port of live wins over what u remembers for it: a recabled link
 * replaces the old one, and the old far end becomes unconnected.
 */
static void merge_links(struct fors_topology *u, const uint32_t *map,
			const struct fors_topology *live)
{
	uint32_t i, k;

	for (i = 0; i < live->nnodes; i++) {
		const struct fors_node *n = &live->nodes[i];

		for (k = 1; k <= n->nports; k++) {
			const struct fors_port *p = &n->ports[k];
			struct fors_port *a = &u->nodes[map[i]].ports[k];
			uint32_t j = p->peer == FORS_NO_PEER ?
				     FORS_NO_PEER : map[p->peer];

			if (p->guid)
				a->guid = p->guid;
			if (p->lid)
				a->lid = p->lid;
			if (p->lmc != FORS_NO_LMC)
				a->lmc = p->lmc;
			if (j == FORS_NO_PEER || (a->peer == j &&
						  a->peer_port == p->peer_port))
				continue;
			unlink_port(u, map[i], k);
			unlink_port(u, j, p->peer_port);
			a->peer = j;
			a->peer_port = p->peer_port;
			u->nodes[j].ports[p->peer_port].peer = map[i];
			u->nodes[j].ports[p->peer_port].peer_port = k;
		}
	}
}

/* Room for every node of live that u lacks, and for more ports. */
static int grow_union(struct fors_topology *u, const struct fors_topology *live,
		      uint32_t *map)
{
	uint32_t i, add = 0;
	struct fors_node *n;

	for (i = 0; i < live->nnodes; i++) {
		map[i] = fors_topology_find(u, &live->nodes[i], i);
		add += map[i] == FORS_NO_PEER;
	}
	n = realloc(u->nodes, sizeof(*n) * (u->nnodes + add + 1));
	if (!n)
		return FORS_ENOMEM;
	u->nodes = n;
	/* live's nodes are distinct: one u lacked is copied, not looked for
	   among the copies (quadratic into an empty u) */
	for (i = 0; i < live->nnodes; i++) {
		const struct fors_node *l = &live->nodes[i];

		if (map[i] == FORS_NO_PEER) {
			if (copy_node(u, l))
				return FORS_ENOMEM;
			map[i] = u->nnodes - 1;
		} else if (l->nports > u->nodes[map[i]].nports) {
			return FORS_EINVAL;
		}
	}
	return 0;
}

int fors_topology_merge(struct fors_topology **seen,
			const struct fors_topology *live,
			struct fors_error *err)
{
	uint32_t *map;
	int e;

	if (!*seen) {
		*seen = fors_topology_new(live->nnodes);
		if (!*seen) {
			fors_error_set(err, "out of memory");
			return FORS_ENOMEM;
		}
	}
	map = malloc(sizeof(*map) * (live->nnodes + 1));
	e = map ? grow_union(*seen, live, map) : FORS_ENOMEM;
	if (!e)
		merge_links(*seen, map, live);
	free(map);
	if (e == FORS_EINVAL)
		fors_error_set(err, "a node changed its port count since it was first seen");
	else if (e)
		fors_error_set(err, "out of memory");
	return e;
}

void fors_topology_free(struct fors_topology *t)
{
	uint32_t i;

	if (!t)
		return;
	for (i = 0; i < t->nnodes; i++) {
		free(t->nodes[i].id);
		free(t->nodes[i].desc);
		free(t->nodes[i].ports);
	}
	free(t->nodes);
	free(t);
}
