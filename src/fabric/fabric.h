/* SPDX-License-Identifier: MIT */
#ifndef FORS_FABRIC_H
#define FORS_FABRIC_H

#include <stdint.h>

#include "base/error.h"
#include "fabric/topology.h"

/* A present host port, in schedule numbering. */
struct fors_fhost {
	uint32_t sid;		/* leaf * m0 + slot */
	uint32_t node;		/* CA node in the live topology */
	uint32_t port;		/* its port number */
	uint32_t leaf_port;	/* the leaf port it hangs on */
	uint64_t guid;		/* port GUID, 0 if unknown */
	uint64_t node_guid;
	uint64_t sysguid;
	uint32_t lid;		/* base LID from the topology, 0 if unknown */
};

/* What a CA port without a slot is. */
enum fors_part_kind {
	FORS_PART_SWITCH,	/* a switch's own CA (fors_topology_part_of) */
	FORS_PART_SPINE_HOST,	/* a host on a spine: storage, management */
};

/*
 * A CA port routed without a slot: no transfers, but a LID every switch
 * must deliver to it.
 */
struct fors_fpart {
	uint32_t node, port;	/* the CA port in the live topology */
	uint32_t sw, sw_port;	/* the switch it hangs on, and that port */
	uint32_t lid;		/* base LID from the topology, 0 if unknown */
	enum fors_part_kind kind;
};

/*
 * A two-level fat tree as the routing needs it. A plane is a (spine, cable
 * rank) pair: a spine reached by two cables from every leaf gives two
 * planes. Arrays indexed [leaf * q + plane] describe that plane's cable at
 * that leaf; 0 ports mean the cable is dead (failed, or never there).
 */
struct fors_fabric {
	uint32_t m0;		/* host slots per leaf */
	uint32_t m1;		/* leaves */
	uint32_t q;		/* planes */
	uint32_t nspines;
	uint32_t f;		/* bandwidth reduction */
	uint32_t m;		/* impacted planes */
	uint32_t *leaf;		/* [m1]: live node, FORS_NO_PEER if gone */
	uint32_t *spine;	/* [nspines]: live node, FORS_NO_PEER if gone */
	uint32_t *plane_spine;	/* [q]: spine index */
	uint32_t *plane_rank;	/* [q]: cable rank at that spine */
	uint32_t *up;		/* [m1 * q]: leaf port of the cable */
	uint32_t *down;		/* [m1 * q]: spine port of the cable */
	int16_t *cable;		/* [m1 * q]: fors_plane_cable's answers */
	uint8_t *impacted;	/* [q]: some live leaf lost this plane */
	struct fors_fhost *hosts;	/* present host ports, sid ascending */
	uint32_t nhosts;
	int32_t *host_at;	/* [m0 * m1]: index into hosts, -1 if absent */
	struct fors_fpart *parts;	/* on live leaves and spines */
	uint32_t nparts;
	uint32_t apart;		/* pairs of leaves with hosts and no common
				   live plane: routed through a third leaf */
};

/* 1 when the plane's cable at leaf is alive and not held. */
static inline int fors_plane_live(const struct fors_fabric *fb, uint32_t leaf,
				  uint32_t plane)
{
	return fb->up[(size_t)leaf * fb->q + plane] != 0;
}

/*
 * The plane whose cable plane p takes at leaf: p where its own cable is
 * alive; where the leaf has fewer live cables to p's spine than p's rank,
 * the one of rank p's modulo their number (a leaf's live cables take the
 * lowest ranks); -1 when it has none to that spine. The cyclic schedule's
 * planes (schedule/planes.c) and the tables use it: two leaves then
 * share a spine's cables as the bound counts them, at the smaller side.
 * Kept up to date by fors_fabric_measure.
 */
static inline int32_t fors_plane_cable(const struct fors_fabric *fb,
				       uint32_t leaf, uint32_t p)
{
	return fb->cable[(size_t)leaf * fb->q + p];
}

/* 1 when the leaf has a live cable to plane p's spine. */
static inline int fors_plane_reach(const struct fors_fabric *fb, uint32_t leaf,
				   uint32_t p)
{
	return fors_plane_cable(fb, leaf, p) >= 0;
}

/*
 * Recognise the two-level fat tree in live. The expected (healthy) fabric
 * is ref when given; otherwise it is inferred from live (every leaf should
 * reach every spine with the largest cable count seen at that spine).
 * Anything that is not a two-level fat tree, and leaves with hosts that
 * live cables do not join, is FORS_EINVAL with what was found in err.
 */
int fors_fabric_analyse(const struct fors_topology *live,
			const struct fors_topology *ref,
			struct fors_fabric **out, struct fors_error *err);

/* Why fors_fabric_measure refuses; FORS_NOCOMMON: a scenario's leaves. */
enum { FORS_NOUPLINK = 1, FORS_NOCOMMON = 2, FORS_NOPATH = 3 };

/* 1 when a host port is present on leaf l. */
int fors_leaf_serves(const struct fors_fabric *fb, uint32_t l);

/* 1 when leaves x and y have a live plane in common. */
int fors_leaves_common(const struct fors_fabric *fb, uint32_t x, uint32_t y);

/*
 * Set impacted, f, m and apart from the live planes of the leaves that
 * serve hosts. FORS_NOUPLINK when leaf *bad serves hosts without a live
 * plane, FORS_NOPATH when no chain of live cables joins leaves *bad and
 * *bad2, FORS_ENOMEM; 0 otherwise.
 */
int fors_fabric_measure(struct fors_fabric *fb, uint32_t *bad, uint32_t *bad2);

/* Free fb; NULL is ignored. */
void fors_fabric_free(struct fors_fabric *fb);

#endif
