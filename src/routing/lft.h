/* SPDX-License-Identifier: MIT */
#ifndef FORS_LFT_H
#define FORS_LFT_H

#include <stdint.h>
#include <stdio.h>

#include "fabric/fabric.h"
#include "schedule/schedule.h"
#include "fabric/topology.h"

#define FORS_MAX_UCAST_LID 0xbfff

struct fors_offmap;
#define FORS_NO_PORT 255

/* Linear forwarding tables of every live switch, for every LID. */
struct fors_lfts {
	uint32_t lmc;
	uint32_t maxlid;
	uint32_t nsw;
	uint32_t *sw;		/* [nsw]: topology node: leaves, then spines */
	uint32_t *sw_lid;	/* [nsw] */
	uint32_t *host_lid;	/* [fb->nhosts]: base LID */
	uint32_t *part_lid;	/* [fb->nparts]: base LID of a switch's CA */
	uint32_t *designated;	/* [fb->nhosts]: plane of the base LID */
	uint8_t *port;		/* [nsw * (maxlid + 1)]: FORS_NO_PORT = none */
	uint8_t *data;		/* a bit per entry of port: a data path's */
	uint32_t mf_pairs;	/* (leaf, node) pairs: 2+ ports away from it */
	uint32_t mf_shared;	/* of those, base LIDs up one spine: the live
				   cables left no independent choice */
};

/* The port switch sw sends lid out of, FORS_NO_PORT when none. */
static inline uint8_t fors_lft(const struct fors_lfts *t, uint32_t sw,
			       uint32_t lid)
{
	return t->port[(size_t)sw * (t->maxlid + 1) + lid];
}

/* Whether sw's entry for lid carries a data path of the schedule. */
static inline int fors_lft_data(const struct fors_lfts *t, uint32_t sw,
				uint32_t lid)
{
	size_t i = (size_t)sw * (t->maxlid + 1) + lid;

	return t->data[i / 8] >> (i % 8) & 1;
}

/*
 * LIDs come from the topology when it has them for every host and switch
 * (base LIDs must be aligned to 2^lmc), or are assigned in host order when
 * renumber is set or the topology has none. Needs q <= 2^lmc, or om: the
 * planes of the offsets the assignment chose (offsets it left unused are
 * spread as the others); with q <= 2^lmc om may trade offsets' planes
 * (routing/wide.h).
 */
int fors_lfts_build(const struct fors_topology *live,
		    const struct fors_fabric *fb, uint32_t lmc, int renumber,
		    const struct fors_offmap *om, struct fors_lfts **out,
		    struct fors_error *err);

/* An LFT build under way (fors_lfts_begin), its tables being filled. */
struct fors_lfts_job;

/*
 * fors_lfts_build in two steps: the LIDs and each host's designated plane
 * now, the tables filled on a thread of their own (here when none starts)
 * until fors_lfts_end; *job, or an error as fors_lfts_build's.
 */
int fors_lfts_begin(const struct fors_topology *live,
		    const struct fors_fabric *fb, uint32_t lmc, int renumber,
		    const struct fors_offmap *om, struct fors_lfts_job **job,
		    struct fors_error *err);

/*
 * The build's lmc, host_lid, part_lid and designated, which the fill does
 * not write: safe to read while it runs. Not its tables.
 */
const struct fors_lfts *fors_lfts_lids(const struct fors_lfts_job *job);

/* Wait for the fill: *out, or its error; job is freed either way. */
int fors_lfts_end(struct fors_lfts_job *job, struct fors_lfts **out,
		  struct fors_error *err);

/* Free t; NULL is ignored. */
void fors_lfts_free(struct fors_lfts *t);

#endif
