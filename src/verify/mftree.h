/* SPDX-License-Identifier: MIT */
#ifndef FORS_MFTREE_H
#define FORS_MFTREE_H

#include <stddef.h>
#include <stdint.h>

#include "verify/walk.h"

/* A CA port and its base LID. */
struct fors_port_lid {
	uint32_t node, port, lid;
};

/*
 * mFtree independence as the tables give it (routing/lft.c says why):
 * from every leaf, the first hop of the base LID of each port of a node
 * with several ports.
 */
struct fors_mftree {
	uint32_t pairs;		/* (leaf, node) pairs with 2+ ports going up */
	uint32_t shared;	/* of those, two ports up through one spine */
};

/*
 * Count over the n ports of ports (reordered by node here) with the tables
 * of w, from the switches leaf[] marks: 0, or FORS_ENOMEM.
 */
int fors_mftree_count(const struct fors_walk *w, const uint8_t *leaf,
		      struct fors_port_lid *ports, size_t n,
		      struct fors_mftree *out);

#endif
