/* SPDX-License-Identifier: MIT */
#ifndef FORS_HOLDDOWN_H
#define FORS_HOLDDOWN_H

#include <stdint.h>
#include <stdio.h>

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

/*
 * The state file: the cables, then the remembered fabric as topology text.
 * fors_state_read() also reads a bare topology (the format before cables).
 */
int fors_state_write(FILE *out, const struct fors_cables *cs,
		     const struct fors_topology *seen);
int fors_state_write_file(const char *path, const struct fors_cables *cs,
			  const struct fors_topology *seen,
			  struct fors_error *err);
int fors_state_read_file(const char *path, struct fors_cables **cs,
			 struct fors_topology **seen, struct fors_error *err);

/* For the admin: one line per cable that is not simply up, at time now. */
void fors_cables_print(FILE *out, const struct fors_cables *cs,
		       const struct fors_topology *seen, int64_t now);

struct fors_cables *fors_cables_new(void);
void fors_cables_free(struct fors_cables *cs);

#endif
