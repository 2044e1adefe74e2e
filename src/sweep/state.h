/* SPDX-License-Identifier: MIT */
#ifndef FORS_SWEEP_STATE_H
#define FORS_SWEEP_STATE_H

#include <stdint.h>

#include "base/error.h"
#include "fabric/holddown.h"
#include "fabric/topology.h"
#include "routing/lft.h"

/* Where the sweep's log lines go: error 1 for an error, 0 for a report. */
typedef void (*fors_sweep_log)(void *ctx, int error, const char *msg);

/* What the heavy sweeps are configured with (fors.conf(5)). */
struct fors_sweep_config {
	const char *schedule_path;	/* the schedule file */
	const char *rejected_path;	/* the last subnet fors could not
					   route; NULL: not kept */
	const char *state_path;		/* NULL: memory only */
	const char *reference_path;	/* NULL: remember the fabric seen */
	uint32_t holddown_s;		/* fabric/holddown.h */
	int verify;		/* check the tables before they count */
	int text_schedule;	/* write version 1, not the compact form */
};

/*
 * What the heavy sweeps leave for the next one. Everything here survives
 * a sweep; what one sweep computes is struct fors_sweep (sweep/sweep.h).
 */
struct fors_sweep_state {
	struct fors_sweep_config cfg;	/* its strings owned */
	struct fors_topology *ref;	/* reference_path read, or NULL */
	struct fors_topology *seen;	/* every fabric routed since start */
	struct fors_cables *cables;	/* every cable's history */
	int64_t wake;		/* when the next held cable is due, 0: none */
	int restage;		/* a first stage is in: sweep again now */
	uint64_t generation;	/* of the last schedule written */
	uint64_t digest;	/* of that schedule, generation left out */
	int have_digest;
	uint32_t bound;		/* the bound that file says */
	int form_ok;		/* that file has the configured form */
	struct fors_publish *pub;	/* the schedule file being written */
	struct fors_followup *followup;	/* a first stage's transfers being
					   followed */
	fors_sweep_log log;
	void *log_ctx;
};

/*
 * The state at start: the reference fabric, then the cables and the
 * remembered fabric of the state file, then the generation and digest of
 * the schedule file already there. A file that cannot be used is logged
 * and left out; only a lack of memory fails (FORS_ENOMEM, *out NULL).
 */
int fors_sweep_state_open(const struct fors_sweep_config *cfg,
			  fors_sweep_log log, void *ctx,
			  struct fors_sweep_state **out);

/* Free st and all it holds; NULL is ignored. */
void fors_sweep_state_free(struct fors_sweep_state *st);

/* Log a line through st's sink, printf-style. */
void fors_sweep_say(const struct fors_sweep_state *st, int error,
		    const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
