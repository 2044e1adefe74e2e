/* SPDX-License-Identifier: MIT */
#ifndef FORS_INTER_H
#define FORS_INTER_H

#include <stdint.h>

/* The inter-leaf pattern of Algorithm 1 for FT(2; m0, m1), reduction f. */
struct inter {
	uint32_t m0, m1, f;
	uint32_t pf;		/* its number of phases */
	uint32_t lcm;		/* lcm(m1 - 1, m0) */
};

/* P_f: the phases of Algorithm 1 for FT(2; m0, m1) with reduction f. */
uint32_t fors_pf(uint32_t m0, uint32_t m1, uint32_t f);

/* The pattern of FT(2; m0, m1) with reduction f, P_f and lcm filled in. */
void inter_init(struct inter *in, uint32_t m0, uint32_t m1, uint32_t f);

/*
 * Destination of the host in slot a of leaf g in phase p, or -1 when it
 * sends nothing between leaves in that phase.
 */
int64_t inter_dst(const struct inter *in, uint32_t g, uint32_t a, uint32_t p);

/*
 * The index n of slot a's send in phase p, nt(p + a) (its destination's
 * slot is n mod m0), or -1 when it sends nothing between leaves then.
 */
int64_t inter_index(const struct inter *in, uint32_t a, uint32_t p);

/* Slot a's first index, nt(a): its sends take n = nt(a) ... in turn. */
uint64_t inter_first(const struct inter *in, uint32_t a);

/*
 * Where slot a's send of index n goes, relative to its own leaf: the
 * leaf distance minus one times m0 plus the destination's slot.
 */
uint32_t inter_class(const struct inter *in, uint32_t a, uint64_t n);

/* 1 when slot a (any leaf) sends between leaves in phase p. */
int inter_sends(const struct inter *in, uint32_t a, uint32_t p);

#endif
