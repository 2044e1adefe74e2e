/* SPDX-License-Identifier: MIT */
#ifndef FORS_TOPOLOGY_H
#define FORS_TOPOLOGY_H

#include <stdint.h>
#include <stdio.h>

#include "base/error.h"

#define FORS_NO_PEER UINT32_MAX
#define FORS_NO_LMC 0xff

enum fors_node_type {
	FORS_SWITCH,
	FORS_CA,
};

struct fors_port {
	uint32_t peer;		/* node index, FORS_NO_PEER if unconnected */
	uint32_t peer_port;
	uint64_t guid;		/* CA port GUID, 0 if not given */
	uint32_t lid;		/* CA port LID, 0 if not given */
	uint8_t lmc;		/* CA port LMC 0..7, FORS_NO_LMC if not given */
	uint8_t held;		/* up, but held down: no data (holddown.h) */
};

/* A node of the fabric as ibnetdiscover (or an ibsim net file) shows it. */
struct fors_node {
	enum fors_node_type type;
	char *id;		/* the quoted node id, e.g. "S-0002c90300001234" */
	char *desc;		/* node description; the id when none is given */
	uint64_t guid;		/* node GUID, 0 if not known */
	uint64_t sysguid;	/* system image GUID, 0 if not known */
	uint32_t lid;		/* switch base LID (port 0), 0 if not given */
	uint32_t nports;
	struct fors_port *ports;	/* [nports + 1], index 0 unused for CAs */
	unsigned long line;	/* where the node is declared */
};

struct fors_topology {
	struct fors_node *nodes;
	uint32_t nnodes;
};

/* Free t and everything it owns; NULL is ignored. */
void fors_topology_free(struct fors_topology *t);

/*
 * An empty topology with room for nnodes nodes, for an adapter that builds
 * one from another model; fors_node_init() appends a node with every port
 * unconnected, without LID or LMC. Both fail only for lack of memory.
 */
struct fors_topology *fors_topology_new(uint32_t nnodes);
int fors_node_init(struct fors_topology *t, enum fors_node_type type,
		   const char *id, const char *desc, uint32_t nports);

/*
 * Fold live into *seen (created when NULL): the union of every node and
 * link seen, nodes matched by GUID (by id without one); a port's link in
 * live replaces what *seen remembered for that port.
 */
int fors_topology_merge(struct fors_topology **seen,
			const struct fors_topology *live,
			struct fors_error *err);

/*
 * The switch CA node x is part of, or FORS_NO_PEER when x is a host: a
 * SHARP Aggregation Node, which NVIDIA's switches expose as a CA behind an
 * extra port of their own. It is cabled to one switch only, and shares
 * that switch's system image GUID or, where a topology gives no such
 * GUIDs, carries the vendor's description "... Aggregation Node".
 */
uint32_t fors_topology_part_of(const struct fors_topology *t, uint32_t x);

/*
 * The node of t that is n (of the same type; by GUID, by id without one),
 * looked for at index at first: fabrics of one subnet list their nodes in
 * the same order, and a search of every node for each costs seconds at
 * thousands of nodes. FORS_NO_PEER when t has none.
 */
uint32_t fors_topology_find(const struct fors_topology *t,
			    const struct fors_node *n, uint32_t at);

/* Switches of a also in b (by GUID, by id without one). */
uint32_t fors_topology_common_switches(const struct fors_topology *a,
				       const struct fors_topology *b);

#endif
