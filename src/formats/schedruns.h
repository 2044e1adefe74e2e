/* SPDX-License-Identifier: MIT */
#ifndef FORS_SCHEDRUNS_H
#define FORS_SCHEDRUNS_H

#include <stddef.h>

#include "schedule/schedule.h"

/*
 * The compact schedule's body (doc/schedule-format.md, "Version 2"): each
 * source's transfers as runs, a run being consecutive phases whose
 * destination steps by a fixed amount (among the hosts in sid order, or
 * within one leaf) and whose plane steps by a fixed amount mod Q, all to
 * one LID offset. A schedule built by a rule takes a few runs per host per
 * round; one without structure takes one per transfer, a few bytes each.
 */

/* s's transfers as runs: a new buffer *buf of *len bytes, *nruns runs. */
int fors_runs_encode(const struct fors_schedule *s, unsigned char **buf,
		     size_t *len, size_t *nruns);

/*
 * Fill s's transfers (xfers, start, nxfers) from len bytes of nruns runs;
 * s has its fabric line and host lines. Each phase's transfers come in
 * source order. FORS_EFORMAT with the run and what was wrong in err
 * (prefixed by where), FORS_ENOMEM.
 */
int fors_runs_decode(struct fors_schedule *s, const unsigned char *buf,
		     size_t len, size_t nruns, const char *where,
		     struct fors_error *err);

#endif
