/* SPDX-License-Identifier: MIT */
#ifndef FORS_HOLDDOWN_H
#define FORS_HOLDDOWN_H

#include <stdint.h>

#include "base/error.h"
#include "fabric/topology.h"

/*
 * Switch-to-switch cables and their history. A cable that went down and
 * came back is held (carries no data) until it has been up for the
 * hold-down; one never seen down is used at once.
 */
enum fors_cable_state {
	FORS_CABLE_UP,
	FORS_CABLE_DOWN,
	FORS_CABLE_HELD,
};

struct fors_cable {
	char *id[2];		/* node ids of the two ends, id[0] first */
	uint32_t port[2];
	enum fors_cable_state state;
	int64_t down_since;	/* when it last went down (s), 0: never */
	int64_t up_since;	/* when it last came back (s), 0: never */
	uint32_t flaps;		/* times it went down */
};

struct fors_cables {
	struct fors_cable *c;	/* sorted by ends */
	size_t n, cap;
	uint32_t holddown;	/* seconds, as last applied */
	int64_t written;	/* when the state was saved (s), 0: never */
};

/*
 * One sweep at time now (seconds): a cable of expected missing from live
 * is down; a cable of live that was down is held, and used again once up
 * for holddown seconds. Held cables get their ports' held flag in live.
 * *wake is the earliest time a held cable is due back, 0 when none is.
 */
int fors_cables_update(struct fors_cables *cs,
		       const struct fors_topology *expected,
		       struct fors_topology *live, int64_t now,
		       uint32_t holddown, int64_t *wake,
		       struct fors_error *err);

/*
 * Put every held cable back into use at once and clear the held flags in
 * live: for a fabric that cannot be routed without them. Returns how many.
 */
uint32_t fors_cables_release(struct fors_cables *cs, struct fors_topology *live);

/* Counts by state; NULL pointers skipped. */
void fors_cables_count(const struct fors_cables *cs, uint32_t *down,
		       uint32_t *held);

/* The name of a state as the state file and the admin see it: "up", ... */
const char *fors_cable_state_name(enum fors_cable_state s);

/* Order of two cable ends (node id, then port), as strcmp: a cable's
 * ends are kept in this order, id[0] first. */
int fors_cable_cmp_end(const char *a, uint32_t pa, const char *b,
		       uint32_t pb);

/* 1 when c is worth remembering: not simply up, or it has flapped. */
int fors_cable_notable(const struct fors_cable *c);

/*
 * A new cable with ends id and port (in order), state up and no history,
 * for a reader of saved state: NULL with *dup set when cs has it already,
 * NULL without when out of memory.
 */
struct fors_cable *fors_cables_add(struct fors_cables *cs,
				   const char *const id[2],
				   const uint32_t port[2], int *dup);

/* An empty history; NULL: no memory. */
struct fors_cables *fors_cables_new(void);
/* Free cs; NULL is ignored. */
void fors_cables_free(struct fors_cables *cs);

#endif
