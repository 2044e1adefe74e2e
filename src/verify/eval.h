/* SPDX-License-Identifier: MIT */
#ifndef FORS_EVAL_H
#define FORS_EVAL_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "formats/lftdump.h"
#include "schedule/schedule.h"
#include "fabric/topology.h"

/* One transfer of an exchange: a CA port sends to a DLID of another. */
struct fors_flow {
	uint32_t snode, sport;	/* source CA port in the topology */
	uint32_t dnode, dport;	/* destination CA port */
	uint32_t dlid;
};

/* A synchronised exchange: phases of flows. */
struct fors_pattern {
	uint32_t nphases;
	size_t *start;		/* [nphases + 1]: phase p is flow[start[p]..] */
	struct fors_flow *flow;
	size_t nflows;
	uint32_t healthy;	/* its phase count on the healthy fabric */
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
 * A fors schedule with its DLIDs, hosts matched by port GUID (by
 * description and port without one). Its healthy count is fors's schedule
 * for the same leaves and hosts with no failure: their bound T* with every
 * leaf at max(Q, M0) planes.
 */
int fors_pattern_schedule(const struct fors_topology *t,
			  const struct fors_schedule *s,
			  struct fors_pattern **out, struct fors_error *err);

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
	uint32_t nphases;
	struct fors_eval_phase *phase;
	uint32_t conflicts;	/* phases with a link carrying two or more */
	uint32_t worst;		/* the largest max_load */
	uint64_t time;		/* sum over phases of max(max_load, 1) */
	uint32_t healthy;
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
