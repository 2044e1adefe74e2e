// SPDX-License-Identifier: MIT
/*
 * The schedule file, published. Applications see a new generation only
 * when the schedule changed: they re-read it. A cable that comes back held
 * changes the bound alone, and a file found in the other form than
 * schedule_format asks for changes nothing of the schedule: either is
 * rewritten in the same generation. At 2,048 hosts the file is up to 3.4
 * MB compact and 69 MB as text, so it is written
 * on a thread of its own once the tables are verified and handed to the
 * subnet manager, which goes on configuring the switches meanwhile; the
 * transfers leave memory with the file. The next sweep, the plugin (when
 * OpenSM reports the routing done) and the state's end wait for it.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "formats/schedfile.h"
#include "sweep/followup.h"
#include "sweep/publish.h"
#include "sys/clock.h"
#include "sys/threads.h"

/* One schedule file being written, and the state before it. */
struct fors_publish {
	struct fors_schedule *s;	/* freed once written */
	const char *path;	/* the state's configuration's */
	enum fors_sched_form form;
	char gen[24];
	uint32_t nphases;
	uint64_t generation, digest;	/* the state's, put back on failure */
	uint32_t bound;
	int have_digest, form_ok;
	struct fors_thread *th;	/* NULL: written on the sweep's thread */
	struct fors_error err;
	int e;
	double ms;
};

static void *write_file(void *arg)
{
	struct fors_publish *w = arg;
	const struct fors_kv gen = { "generation", w->gen };
	double t = fors_clock_ms();

	w->e = fors_schedule_write_file_keys(w->path, w->s, &gen, 1, w->form,
					     &w->err);
	fors_schedule_free(w->s);
	w->s = NULL;
	w->ms = fors_clock_ms() - t;
	return NULL;
}

void fors_sweep_flush(struct fors_sweep_state *st)
{
	struct fors_publish *w = st->pub;

	fors_followup_wait(st);
	if (!w)
		return;
	fors_thread_join(w->th);
	st->pub = NULL;
	if (w->e) {
		fors_sweep_say(st, 1, "schedule file not written: %s",
			       w->err.msg);
		st->generation = w->generation;
		st->digest = w->digest;
		st->bound = w->bound;
		st->have_digest = w->have_digest;
		st->form_ok = w->form_ok;
	} else {
		fors_sweep_say(st, 0, "schedule file written: generation %s, %u phases, %.1f ms",
			       w->gen, w->nphases, w->ms);
	}
	free(w);
}

void fors_sweep_publish(struct fors_sweep_state *st, struct fors_schedule **s,
			uint32_t bound)
{
	const char *path = st->cfg.schedule_path;
	struct fors_publish *w;
	uint64_t d;
	int same;

	fors_sweep_flush(st);
	d = fors_schedule_digest(*s, NULL);
	same = st->have_digest && d == st->digest && !access(path, F_OK);
	if (same && st->bound == bound && st->form_ok)
		return;
	w = calloc(1, sizeof(*w));
	if (!w) {
		fors_sweep_say(st, 1, "schedule file not written: out of memory");
		return;
	}
	*w = (struct fors_publish){ *s, path, st->cfg.text_schedule ?
				    FORS_SCHED_TEXT : FORS_SCHED_COMPACT, "",
				    (*s)->nphases,
				    st->generation, st->digest, st->bound,
				    st->have_digest, st->form_ok, NULL, { "" },
				    0, 0 };
	*s = NULL;
	snprintf(w->gen, sizeof(w->gen), "%" PRIu64, st->generation + !same);
	st->generation += !same;
	st->digest = d;
	st->have_digest = 1;
	st->bound = bound;
	st->form_ok = 1;
	st->pub = w;
	if (fors_thread_start(write_file, w, &w->th))
		write_file(w);
}
