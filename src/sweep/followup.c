// SPDX-License-Identifier: MIT
/*
 * A first stage's transfers, followed after its tables are handed over.
 * A first stage (sweep/stage.c) is installed whatever its transfers show:
 * it publishes no schedule, and its tables are accepted on the checks any
 * table set must pass (credit loops, alone and mixed with the held ones;
 * the schedule's rules). Following its 4.2 million transfers at 2,048
 * hosts (how many wait until the next sweep) decides nothing, so it runs
 * while the subnet manager configures the switches, and is logged when
 * the plugin waits for it (the routing done), or at the next sweep.
 */
#include <stdlib.h>

#include "sweep/followup.h"
#include "sys/threads.h"
#include "verify/check.h"

/* One first stage's transfers being followed, and what it took. */
struct fors_followup {
	struct fors_topology *t;
	struct fors_schedule *s;
	struct fors_lft_dump *d;
	uint32_t unreachable, mf;	/* from the tables' checks */
	struct fors_check_report rep;
	struct fors_error err;
	int e;
	struct fors_thread *th;	/* NULL: followed on the sweep's thread */
};

/* What a follow-up takes, freed: once followed, or when none starts. */
static void drop(struct fors_topology **t, struct fors_schedule **s,
		 struct fors_lft_dump **d)
{
	fors_lft_dump_free(*d);
	fors_schedule_free(*s);
	fors_topology_free(*t);
	*d = NULL;
	*s = NULL;
	*t = NULL;
}

static void *run(void *arg)
{
	struct fors_followup *f = arg;

	f->e = fors_check_follow(f->t, f->d, f->s, &f->rep, &f->err);
	drop(&f->t, &f->s, &f->d);
	return NULL;
}

void fors_followup_wait(struct fors_sweep_state *st)
{
	struct fors_followup *f = st->followup;
	const struct fors_check_report *r;

	if (!f)
		return;
	fors_thread_join(f->th);
	r = &f->rep;
	st->followup = NULL;
	if (f->e != FORS_OK && f->e != FORS_EVERIFY)
		fors_sweep_say(st, 1, "first stage: its transfers not followed: %s",
			       f->err.msg);
	else if (f->e || f->unreachable || f->mf)
		fors_sweep_say(st, 0, "first stage: %u transfers wait, %u (phase, link) pairs shared, %u transfers off leaf-spine-leaf, %u mFtree pairs on one spine, %u (switch, LID) pairs wait, until the next sweep",
			       r->undelivered, r->shared, r->not_updown, f->mf,
			       f->unreachable);
	free(f);
}

void fors_followup_start(struct fors_sweep_state *st,
			 struct fors_topology **t, struct fors_schedule **s,
			 struct fors_lft_dump **d, uint32_t unreachable,
			 uint32_t mf)
{
	struct fors_followup *f;

	fors_followup_wait(st);
	f = calloc(1, sizeof(*f));
	if (!f) {
		fors_sweep_say(st, 1, "first stage: its transfers not followed: out of memory");
		drop(t, s, d);
		return;
	}
	f->t = *t;
	f->s = *s;
	f->d = *d;
	f->unreachable = unreachable;
	f->mf = mf;
	*t = NULL;
	*s = NULL;
	*d = NULL;
	st->followup = f;
	if (fors_thread_start(run, f, &f->th))
		run(f);
}
