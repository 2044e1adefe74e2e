/* SPDX-License-Identifier: MIT */
#ifndef FORS_FOLLOW_H
#define FORS_FOLLOW_H

#include <stdint.h>

#include "schedule/schedule.h"
#include "verify/check.h"
#include "verify/deps.h"
#include "verify/walk.h"

/* What following a schedule's transfers needs of the checker. */
struct fors_follow_in {
	const struct fors_schedule *s;
	const struct fors_walk *w;	/* the tables over the topology */
	const struct fors_deps *g;	/* the channels' numbers */
	const struct fors_lft_dump *d;
	const uint32_t *hnode, *hport;	/* per host slot: CA node, port,
					   UINT32_MAX without a host line */
	const uint8_t *leaf;		/* per node: a leaf */
};

/*
 * Follow every transfer of in->s from its source port to its destination:
 * per-phase link loads, delivery, leaf-spine-leaf paths. Adds the counts
 * (transfers, max_load, shared, undelivered, not_updown) and the first
 * messages, after those rep has, into rep. 0, or FORS_ENOMEM.
 */
int fors_follow(const struct fors_follow_in *in,
		struct fors_check_report *rep);

/* A violation's message into rep, while it has room for one. */
void fors_report_keep(struct fors_check_report *rep, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The counts fors_follow gives, and the messages, of from added to rep. */
void fors_follow_add(struct fors_check_report *rep,
		     const struct fors_check_report *from);

#endif
