/* SPDX-License-Identifier: MIT */
#ifndef FORS_ASSIGN_H
#define FORS_ASSIGN_H

#include "fabric/fabric.h"
#include "schedule/schedule.h"
#include "sys/threads.h"

enum fors_method {
	FORS_METHOD_ALG2,	/* the FORS paper's Algorithm 2 */
	FORS_METHOD_LEC,	/* our list edge colouring solver */
	FORS_METHOD_ILP,	/* the ILP cache (doc/ilp.md) */
};

struct fors_assign_info {
	enum fors_method method;
	uint32_t split;		/* phases added because one had no solution */
	uint32_t unproven;	/* splits into more sub-phases than proven
				   necessary: the solver's budget ran out */
	uint32_t *subs;		/* NULL, or [phases]: each one's sub-phases */
	uint32_t split_cap;	/* in: FORS_ELIMIT once this many phases
				   are added (a schedule that cannot beat
				   another); 0: no limit */
	struct fors_progress *built;	/* in: NULL, or the phases of the
					   schedule built so far, on another
					   thread (schedule.h, builder) */
	const uint16_t *base;	/* in, fewer offsets than planes: NULL, or
				   [m1 * nhosts]: offset 0 of leaf l's
				   routes to host h is this plane before
				   any phase (the base map, basemap.h),
				   FORS_BASEMAP_NONE none */
	int base_only;		/* in, with base: the schedule was packed
				   over the base map (schedule/pack.h):
				   every transfer on offset 0 where it fits */
	int see_base;		/* in, with base: the base planes stand in
				   the phases' lists (else, above LMC 0,
				   offsets 1.. are the phases' own) */
	int given;		/* in, with base: every transfer keeps the
				   plane the schedule gave it, at an offset
				   of its pair (schedule/shift.h) */
};

/* The method as the schedule file and the log name it: "alg2", ... */
const char *fors_method_name(enum fors_method m);

/*
 * Fewer LID offsets than planes (doc/narrow-lmc.md): the plane leaf l
 * sends offset j of host h through, chosen with the phases. A transfer's
 * DLID is the offset whose entry is its plane.
 */
struct fors_offmap {
	uint32_t k;		/* offsets per host, 2^LMC */
	uint32_t nhosts;
	int16_t *plane;		/* [(l * nhosts + h) * k + j], -1 unused */
};

/* Free om; NULL is ignored. */
void fors_offmap_free(struct fors_offmap *om);

/*
 * The offset of plane p from leaf l to host h, or -1: the last one, as the
 * phases may have chosen the base map's plane again for an offset of
 * their own (routing/assign.c, own), which is then the one they use.
 */
static inline int fors_offmap_offset(const struct fors_offmap *om, uint32_t l,
				     uint32_t h, int32_t p)
{
	const int16_t *o = &om->plane[((size_t)l * om->nhosts + h) * om->k];
	uint32_t j;

	for (j = om->k; j-- > 0;)
		if (o[j] == p)
			return (int)j;
	return -1;
}

/*
 * The schedule s with every inter-leaf transfer on a plane alive at both
 * its leaves, each plane at most once per source leaf and once per
 * destination leaf in a phase, as a new schedule *out. A phase without a
 * solution is split: *out has info->split phases more than s. s must have
 * been built for fb (same m0, m1, f) and is left as it was.
 */
int fors_assign_planes(const struct fors_fabric *fb,
		       const struct fors_schedule *s, struct fors_schedule **out,
		       struct fors_assign_info *info, struct fors_error *err);

/*
 * The same with k < q offsets per host: from each leaf, the transfers to
 * one host use at most k planes, listed in *om. A phase that cannot be
 * coloured within them is split as above. *out is built over s's own
 * transfers, which it takes: at 2,048 hosts a second copy of four million
 * transfers would be the subnet manager's largest allocation. Free s
 * afterwards; its transfers are gone.
 */
int fors_assign_narrow(const struct fors_fabric *fb, struct fors_schedule *s,
		       uint32_t k, struct fors_schedule **out,
		       struct fors_offmap **om, struct fors_assign_info *info,
		       struct fors_error *err);

#endif
