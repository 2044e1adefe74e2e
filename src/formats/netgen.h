/* SPDX-License-Identifier: MIT */
#ifndef FORS_NETGEN_H
#define FORS_NETGEN_H

#include <stdint.h>
#include <stdio.h>

/*
 * An ibsim net file for FT(2; m0, m1) with nspines spines, each reached by
 * cables links from every leaf. Leaf ports 1..m0 face hosts, the uplinks
 * follow (spine-major); spine ports are leaf-major. Names are zero-padded
 * (L00, S00, H000) so that name order is numeric order.
 */
struct fors_netgen {
	uint32_t m0, m1, nspines, cables;
	const uint8_t *absent;	/* [m0 * m1]: 1 = no host in that slot */
	uint32_t dual;		/* hosts with a second port on the next leaf */
	const uint8_t *failed;	/* [m1 * nspines * cables]: 1 = cable cut */
	const uint8_t *dead;	/* [nspines]: 1 = spine gone */
	uint32_t aggregation;	/* 1: a SHARP Aggregation Node ("A-L00")
				   behind an extra last port of every switch,
				   sharing its system image GUID */
	uint32_t spine_hosts;	/* service hosts ("V00".."") on spine 0,
				   after its leaf ports */
};

/* Write g's net file to out; FORS_EIO when the stream fails. */
int fors_netgen_write(FILE *out, const struct fors_netgen *g);

#endif
