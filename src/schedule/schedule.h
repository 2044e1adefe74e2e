/* SPDX-License-Identifier: MIT */
#ifndef FORS_SCHEDULE_H
#define FORS_SCHEDULE_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"

/* Largest M0 * M1 the schedule accepts: P(P-1) transfers must fit. */
#define FORS_MAX_HOSTS 2048

/* A transfer's DLID when it has none ('-'): the permissive LID. */
#define FORS_NO_DLID 0xffff

/* Most planes a schedule may have: a transfer holds plane + 1 in 10 bits. */
#define FORS_MAX_PLANES 1023

/*
 * One transfer of a phase: src and dst below FORS_MAX_HOSTS, the plane
 * through fors_xfer_plane (-1 when not given, '-'), dlid FORS_NO_DLID when
 * not given. Six bytes, the plane split around the hosts' 11 bits: a
 * 2,048-host schedule has four million transfers, and their size is most
 * of fors's share of OpenSM's peak memory (doc/performance.md).
 */
struct fors_xfer {
	uint16_t src : 11;
	uint16_t plo : 5;	/* plane + 1: low five bits */
	uint16_t dst : 11;
	uint16_t phi : 5;	/* plane + 1: high five bits */
	uint16_t dlid;
};

_Static_assert(sizeof(struct fors_xfer) == 6, "a transfer is six bytes");

/* x's plane: -1 when not given. */
static inline int32_t fors_xfer_plane(const struct fors_xfer *x)
{
	return (int32_t)(x->plo | (uint32_t)x->phi << 5) - 1;
}

/* Set x's plane to p, -1 (none) up to FORS_MAX_PLANES - 1. */
static inline void fors_xfer_set_plane(struct fors_xfer *x, int32_t p)
{
	x->plo = (uint16_t)((uint32_t)(p + 1) & 31);
	x->phi = (uint16_t)((uint32_t)(p + 1) >> 5);
}

/* The transfer src -> dst on plane (-1: none) to dlid (FORS_NO_DLID). */
static inline struct fors_xfer fors_xfer_make(uint32_t src, uint32_t dst,
					      int32_t plane, uint16_t dlid)
{
	struct fors_xfer x = { .src = (uint16_t)src, .dst = (uint16_t)dst,
			       .dlid = dlid };

	fors_xfer_set_plane(&x, plane);
	return x;
}

/* x's DLID as the file and the library give it: -1 for none. */
static inline int32_t fors_xfer_dlid(const struct fors_xfer *x)
{
	return x->dlid == FORS_NO_DLID ? -1 : x->dlid;
}

/* A present host port: the schedule file's `host` line. */
struct fors_host {
	uint32_t sid;
	uint64_t guid;
	uint32_t lid;
	uint32_t port;
	char *desc;
};

/* An extra key/value pair of the `fabric` line (e.g. `method alg2`). */
struct fors_kv {
	char *key;
	char *value;
};

struct fors_schedule {
	uint32_t m0;		/* host slots per leaf */
	uint32_t m1;		/* leaves */
	uint32_t q;		/* planes per leaf, healthy */
	uint32_t f;		/* bandwidth reduction */
	uint32_t m;		/* impacted planes */
	int lmc;		/* -1: abstract schedule */
	uint32_t nphases;
	size_t *start;		/* [nphases + 1]: phase p is xfers[start[p]..] */
	struct fors_xfer *xfers;
	size_t nxfers;
	struct fors_host *hosts;
	size_t nhosts;
	struct fors_kv *extra;
	size_t nextra;
};

/* What the schedule is computed for. */
struct fors_sched_params {
	uint32_t m0;
	uint32_t m1;
	uint32_t f;
	const uint8_t *present;	/* [m0 * m1], 1 = host present; NULL: all */
};

/* How the intra-leaf fill ended, for reports and the docs. */
struct fors_intra_info {
	uint32_t lower_bound;	/* max(P_f, P - 1) */
	uint32_t pf;		/* phases of the inter-leaf pattern */
	uint32_t proven_from;	/* every count below this is proven infeasible */
};

/* 0 when fors can build the schedule sp describes, else FORS_EINVAL. */
int fors_sched_check_params(const struct fors_sched_params *sp,
			    struct fors_error *err);

/*
 * Build the all-to-all schedule: Algorithm 1 between leaves, the fewest
 * phases we can find for the intra-leaf transfers. Planes and DLIDs are
 * left unset (-1); q defaults to m0, m to f, lmc to -1 (abstract).
 */
int fors_schedule_build(struct fors_schedule **out,
			const struct fors_sched_params *sp,
			struct fors_intra_info *info, struct fors_error *err);

/*
 * fors_schedule_build in steps, so that another thread may take each phase
 * as it comes: the schedule with its phase count in *out and no phase yet
 * (fors_schedule_build_begin), each phase in order (_phase: start[p + 1]
 * and phase p's transfers), then nxfers (_end, which frees b). The
 * builder writes through the arrays *out had at the start, which the
 * taker may move out of it.
 */
struct fors_schedule_builder;

int fors_schedule_build_begin(struct fors_schedule **out,
			      const struct fors_sched_params *sp,
			      struct fors_intra_info *info,
			      struct fors_schedule_builder **b,
			      struct fors_error *err);

/* Phase p of b's schedule, after every phase before it. */
void fors_schedule_build_phase(struct fors_schedule_builder *b, uint32_t p);

/* b's schedule complete (nxfers), b freed; NULL is ignored. */
void fors_schedule_build_end(struct fors_schedule_builder *b);

/* Free s and everything it owns; NULL is ignored. */
void fors_schedule_free(struct fors_schedule *s);

/*
 * A new schedule with the header, host lines and keys of s and the phases
 * given (xfers and start, which it takes: freed on failure). 0, or
 * FORS_ENOMEM with *out NULL.
 */
int fors_schedule_adopt(const struct fors_schedule *s,
			struct fors_xfer *xfers, size_t nxfers, size_t *start,
			uint32_t nphases, struct fors_schedule **out);


/* Append a key/value pair to the fabric line (e.g. "method", "alg2"). */
int fors_schedule_add_key(struct fors_schedule *s, const char *key,
			  const char *value);

/* The value of key as a number: -1 without the key, -2 when no number. */
int64_t fors_schedule_number(const struct fors_schedule *s, const char *key);

/*
 * How many of the last phases carry transfers between leaves that share
 * no live plane, through a third leaf (key `detour`); 0 without the key,
 * or when it is not a number of phases s has.
 */
uint32_t fors_schedule_detours(const struct fors_schedule *s);

/*
 * An abstract schedule has no host lines to say which slots hold a host:
 * the key "absent" lists the others ("38,39,58"), for fors_schedule_verify.
 * Nothing is added when present is NULL or every slot is present.
 */
int fors_schedule_add_absent(struct fors_schedule *s, const uint8_t *present);

#endif
