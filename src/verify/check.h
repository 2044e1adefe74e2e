/* SPDX-License-Identifier: MIT */
#ifndef FORS_CHECK_H
#define FORS_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "formats/lftdump.h"
#include "schedule/schedule.h"
#include "fabric/topology.h"

#define FORS_CHECK_KEEP 10

struct fors_check_report {
	size_t transfers;	/* transfers followed */
	uint32_t phases;
	uint32_t max_load;	/* most transfers on one directed link */
	uint32_t shared;	/* (phase, link) pairs with two or more */
	uint32_t undelivered;	/* transfers lost, looping or misdelivered */
	uint32_t not_updown;	/* delivered, but not leaf(-spine-leaf) */
	size_t reach_pairs;	/* (switch, LID) pairs tried */
	uint32_t unreachable;	/* of those, not delivered */
	size_t deps;		/* channel dependencies */
	uint32_t loop;		/* 1: they close a cycle, a credit loop */
	uint32_t mf_pairs;	/* (leaf, multi-port node) pairs, 2+ ports up */
	uint32_t mf_shared;	/* of those, two ports up one spine */
	char cycle[512];	/* that cycle: "switch"[out port] -> ... */
	uint32_t schedule;	/* 1 if the schedule breaks its own rules */
	uint32_t bound;		/* T* recomputed from the topology */
	int64_t bound_file;	/* the file's `bound`, -1 without one */
	uint32_t bound_wrong;	/* 1: the file claims more, or has fewer
				   phases than T* allows */
	uint32_t nkept;
	char kept[FORS_CHECK_KEEP][256];	/* the first violations */
};

/*
 * Follow every transfer of s from its source port through the LFTs of d over
 * topology t to its destination: coverage, per-phase link loads (every
 * directed link at most one transfer), delivery over up/down paths; then
 * the tables as fors_check_tables() checks them, with the CA LIDs of the
 * schedule's host lines. Returns FORS_OK when all holds, FORS_EVERIFY with
 * the report filled otherwise, or an error when the inputs do not fit
 * together (err says why).
 */
int fors_check_routes(const struct fors_topology *t,
		      const struct fors_lft_dump *d,
		      const struct fors_schedule *s,
		      struct fors_check_report *rep, struct fors_error *err);

/*
 * The schedule's own rules (verify/verify.h) begun on a thread of their
 * own, for a later check of that schedule to take (fors_check_job): their
 * check is a third of the verification, and the caller may have a core
 * idle before it.
 */
struct fors_rules;

/*
 * Begin checking s's rules: 0 with *out, or FORS_ENOMEM (*out NULL: the
 * check runs them itself). s must stay as it is until fors_rules_free.
 */
int fors_rules_start(const struct fors_schedule *s, struct fors_rules **out);

/* Wait for r's check and free r; NULL is ignored. */
void fors_rules_free(struct fors_rules *r);

/*
 * Work of the caller's, run(arg), that shares nothing it writes (run NULL:
 * none); and rules, NULL or the checked schedule's, begun already.
 */
struct fors_check_job {
	void *(*run)(void *arg);
	void *arg;
	struct fors_rules *rules;
	int follow_later;	/* the transfers not followed here: the caller
				   follows them (fors_check_follow) */
};

/*
 * fors_check_routes, and job (NULL: none) run once on a thread of its own
 * beside the tables' checks, after the transfers are followed (their
 * memory freed, one core idle), finished before it returns; not run when
 * the inputs fail first (an error other than FORS_EVERIFY). The rules'
 * verdict is job->rules's where those are s's.
 */
int fors_check_routes_beside(const struct fors_topology *t,
			     const struct fors_lft_dump *d,
			     const struct fors_schedule *s,
			     struct fors_check_report *rep,
			     struct fors_error *err,
			     const struct fors_check_job *job);

/*
 * Only the transfers of s followed over d on t: fors_follow's counts and
 * messages into rep, zeroed first. FORS_OK, FORS_EVERIFY (a transfer
 * undelivered, off leaf-spine-leaf or on a shared link), FORS_EINVAL (s
 * not routed) or FORS_ENOMEM, with err.
 */
int fors_check_follow(const struct fors_topology *t,
		      const struct fors_lft_dump *d,
		      const struct fors_schedule *s,
		      struct fors_check_report *rep, struct fors_error *err);

/* What failed, e.g. "2 shared (phase, link) pairs, 1 credit loop". */
void fors_check_failures(const struct fors_check_report *r, char *b,
			 size_t len);

/*
 * The tables alone: every CA LID (the topology's base LIDs with 2^lmc
 * offsets) and every switch LID delivered from every linked switch, and no
 * credit loop: no cycle in the channel dependency graph over every LID a
 * table routes, with every switch and CA as a source.
 */
int fors_check_tables(const struct fors_topology *t,
		      const struct fors_lft_dump *d, uint32_t lmc,
		      struct fors_check_report *rep, struct fors_error *err);

#endif
