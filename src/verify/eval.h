/* SPDX-License-Identifier: MIT */
#ifndef FORS_EVAL_H
#define FORS_EVAL_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "formats/lftdump.h"
#include "formats/rankfile.h"
#include "schedule/schedule.h"
#include "fabric/topology.h"

/* One transfer of an exchange: a CA port sends to a DLID of another. */
struct fors_flow {
	uint32_t snode, sport;	/* source CA port in the topology */
	uint32_t dnode, dport;	/* destination CA port */
	uint32_t dlid;
};

/* A CA port that takes part in an exchange, and its base LID. */
struct fors_endpoint {
	uint32_t node, port;
	uint32_t lid;
};

enum fors_pattern_kind {
	FORS_PATTERN_FLOWS,	/* phases of flows as given (a schedule) */
	FORS_PATTERN_SHIFT,	/* phase p = 1..R-1: rank r to (r + p) mod R */
	FORS_PATTERN_PERMUTE,	/* each phase a random derangement of ranks */
};

/*
 * A synchronised exchange: phases of flows, stored (FLOWS) or made when
 * asked for from the ranks (fors_pattern_phase), so that a pattern of
 * many phases over many ranks takes memory for one phase only.
 */
struct fors_pattern {
	enum fors_pattern_kind kind;
	uint32_t nphases;
	size_t *start;		/* FLOWS: [nphases + 1]: phase p is flow[start[p]..] */
	struct fors_flow *flow;
	size_t nflows;
	struct fors_endpoint *rank;	/* SHIFT, PERMUTE: [nranks] */
	uint32_t nranks;
	uint64_t seed;		/* PERMUTE: with the phase, its derangement */
	uint32_t width;		/* the most flows of a phase */
	uint32_t offsets;	/* each phase sent at DLID + 0, ..., + offsets - 1
				   in turn, as that many phases; 1 normally */
	uint32_t healthy;	/* its phase count on the healthy fabric, at one
				   offset */
};

/*
 * Linear shift, the LHCb DAQ's pattern with ftree: the P host ports on
 * switches (CA ports but a switch's own, fors_topology_part_of), in
 * switch order (GUID, else id) and port order; in phase
 * p = 1..P-1 port s sends to port (s + p) mod P at its base LID. The
 * topology must give every such port its LID (ibnetdiscover does).
 */
int fors_pattern_shift(const struct fors_topology *t,
		       struct fors_pattern **out, struct fors_error *err);

/*
 * The linear shift over an MPI job's ranks, as its pairwise MPI_Alltoall
 * runs it: rank r sends to rank (r + p) mod R in phase p = 1..R-1, at the
 * base LID of the destination's port; two ranks on one port exchange
 * nothing over the network. Each host of rf must name exactly one of the
 * host ports fors_pattern_shift uses: by port GUID, or by node
 * description, or by its first word where no description is NAME itself;
 * a dual-port CA with both ports attached only by port GUID. Healthy: R-1.
 * FORS_EINVAL naming the file and line of a host that does not.
 */
int fors_pattern_shift_ranks(const struct fors_topology *t,
			     const struct fors_rankfile *rf,
			     struct fors_pattern **out, struct fors_error *err);

/*
 * A fors schedule with its DLIDs, hosts matched by port GUID (by
 * description and port without one). Its healthy count is fors's schedule
 * for the same leaves and hosts with no failure: their bound T* with every
 * leaf at max(Q, M0) planes.
 */
int fors_pattern_schedule(const struct fors_topology *t,
			  const struct fors_schedule *s,
			  struct fors_pattern **out, struct fors_error *err);

#define FORS_PERMUTATIONS_MAX 100000

/*
 * n phases (1..FORS_PERMUTATIONS_MAX), each a uniformly random
 * derangement of fors_pattern_shift's host ports (port s sends to port
 * d(s) != s at its base LID), phase p's drawn from a xorshift generator
 * seeded with seed and p: the same n and seed give the same phases.
 * Healthy: n.
 */
int fors_pattern_permutations(const struct fors_topology *t, uint32_t n,
			      uint64_t seed, struct fors_pattern **out,
			      struct fors_error *err);

/*
 * perm[0..n) (n >= 2) a derangement of 0..n-1 from the generator *state
 * (non-zero): Fisher-Yates shuffles until one has no fixed point, at most
 * tries of them (each is one with probability about 1/e); past them, the
 * last shuffle's fixed points each swapped with the next position, in
 * order. 0 when a shuffle was one, 1 when repaired.
 */
int fors_derange(uint32_t *perm, uint32_t n, uint64_t *state, uint32_t tries);

/*
 * p sent over every LID offset of the host ports in turn, as UCX spreads
 * its lanes over the path bits: each phase becomes 2^LMC phases, the k-th
 * at DLID + k. The LMC is the topology's (ibnetdiscover gives it), the
 * same for every host port. FORS_EINVAL when they give none or differ,
 * or p is a schedule (its DLIDs choose the offsets).
 */
int fors_pattern_offsets(const struct fors_topology *t,
			 struct fors_pattern *p, struct fors_error *err);

/*
 * The flows of phase ph < p->nphases, at one offset: p's own, or made in
 * buf (room for p->width flows) with perm (room for p->nranks); their
 * count in *n.
 */
const struct fors_flow *fors_pattern_phase(const struct fors_pattern *p,
					   uint32_t ph, struct fors_flow *buf,
					   uint32_t *perm, size_t *n);

/* Free p; NULL is ignored. */
void fors_pattern_free(struct fors_pattern *p);

struct fors_eval_phase {
	uint32_t flows;
	uint32_t max_load;	/* most flows on one directed link */
	uint32_t node, port;	/* that link (tail, out port); UINT32_MAX */
	uint32_t lost;		/* flows not delivered */
};

/*
 * Each phase lasts as long as its most loaded link needs (at least one
 * unit): the throughput relative to the healthy fabric is healthy / time.
 */
struct fors_eval {
	uint32_t nphases;	/* the pattern's times its offsets */
	struct fors_eval_phase *phase;
	uint32_t conflicts;	/* phases with a link carrying two or more */
	uint32_t worst;		/* the largest max_load */
	uint64_t time;		/* sum over phases of max(max_load, 1) */
	uint32_t healthy;	/* the pattern's times its offsets */
	size_t flows;
	size_t lost;		/* lost, looping or misdelivered */
	double relative;
};

/*
 * Every flow of p forwarded through d over t, phase by phase: 0 with *out,
 * or an error (err says why) when the inputs do not fit together.
 */
int fors_eval_run(const struct fors_topology *t, const struct fors_lft_dump *d,
		  const struct fors_pattern *p, struct fors_eval **out,
		  struct fors_error *err);

/* Free e; NULL is ignored. */
void fors_eval_free(struct fors_eval *e);

#endif
