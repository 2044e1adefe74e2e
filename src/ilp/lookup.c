// SPDX-License-Identifier: MIT
/*
 * A scenario routed from the cache: the schedule is rebuilt as the native
 * route builds it, each phase's inter-leaf transfers become a canonical
 * phase, and the store (or the solver, when precomputing) gives their
 * planes. A phase the ILP proves infeasible is asked again with one more
 * sub-phase, as the native solver splits it.
 */
#include <stdlib.h>
#include <string.h>

#include "sys/clock.h"
#include "ilp/lookup.h"
#include "verify/verify.h"
#include "ilp/model.h"
#include "ilp/store.h"
#include "schedule/split.h"

/* One scenario being routed from the cache: fors_ilp_route's working set. */
struct route_state {
	const struct ilp_opts *o;
	struct ilp_store store;
	const struct ilp_solver *sv;
	struct fors_fabric *fb;
	struct fors_schedule *s;
	struct ilp_stats *st;
	uint32_t *pend, *ls, *ld, *colour, *sub;
	struct fors_split out;
	uint64_t *seen;		/* phase keys met in this scenario */
	uint32_t nseen;
	struct fors_error *err;
};

/* The store refuses what it may not trust, or finds corrupt. */
static int store_status(int r)
{
	if (r == FORS_EINVAL)
		return FORS_ILP_EXIT_UNSAFE;
	return r == FORS_EFORMAT ? FORS_ILP_EXIT_CORRUPT : r;
}

/* Solve ph with the solver, store the verdict. */
static int solve(struct route_state *t, const struct ilp_phase *ph,
		 struct ilp_entry *e, uint32_t *colour)
{
	const struct ilp_limits lim = { t->o->time_ms, 64u << 20 };
	struct ilp_model md;
	enum ilp_verdict v;
	uint8_t *x;
	double t0 = fors_clock_ms();
	int r = ilp_model_build(&md, ph);

	if (r) {
		fors_error_set(t->err, "out of memory");
		return r;
	}
	x = calloc(md.nvars + 1, 1);
	r = x ? ilp_solve(t->sv, t->o->program, md.lp, md.nvars, x, &v, &lim,
			  t->err) : FORS_ENOMEM;
	e->seconds = (fors_clock_ms() - t0) / 1000;
	t->st->solver_s += e->seconds;
	if (e->seconds > t->st->max_s)
		t->st->max_s = e->seconds;
	t->st->solved++;
	if (!r && v == ILP_FEASIBLE)
		r = ilp_model_decode(&md, ph, x, colour, t->err);
	free(x);
	ilp_model_clear(&md);
	if (r)
		return r;
	e->verdict = v;
	snprintf(e->solver, sizeof(e->solver), "%s", t->sv->name);
	if (v == ILP_UNKNOWN) {
		t->st->unknown++;
		fors_error_set(t->err, "%s stopped after %u ms without a verdict on phase %016llx",
			       t->sv->name, t->o->time_ms,
			       (unsigned long long)ph->hash);
		return FORS_ILP_EXIT_MISS;
	}
	return ilp_store_put(&t->store, ph, e, colour, t->err);
}

/* 1 the first time a scenario meets a phase: its solver time counts once. */
static int first(struct route_state *t, uint64_t h)
{
	uint32_t i;

	for (i = 0; i < t->nseen; i++)
		if (t->seen[i] == h)
			return 0;
	t->seen[t->nseen++] = h;
	return 1;
}

/* The planes of phase p's n pending transfers in k sub-phases, or a verdict. */
static int phase_k(struct route_state *t, uint32_t p, uint32_t n, uint32_t k,
		   enum ilp_verdict *v)
{
	struct ilp_phase ph;
	struct ilp_entry e = { .verdict = ILP_UNKNOWN };
	uint32_t i;
	int r = ilp_phase_make(&ph, t->fb, t->ls, t->ld, n, k);

	if (r) {
		fors_error_set(t->err, "out of memory");
		return r;
	}
	r = store_status(ilp_store_get(&t->store, &ph, &e, t->colour, t->err));
	if (r == ILP_HIT) {
		t->st->hits++;
		if (first(t, ph.hash))
			t->st->stored_s += e.seconds;
	} else if (r == ILP_MISS && t->sv) {
		first(t, ph.hash);
		r = solve(t, &ph, &e, t->colour);
	} else if (r == ILP_MISS) {
		fors_error_set(t->err, "phase %016llx is not in the cache",
			       (unsigned long long)ph.hash);
		r = FORS_ILP_EXIT_MISS;
	}
	*v = e.verdict;
	for (i = 0; !r && e.verdict == ILP_FEASIBLE && i < n; i++) {
		uint32_t c = t->colour[i], x = t->pend[ph.edge[i]];

		fors_xfer_set_plane(&t->s->xfers[x], (int32_t)ph.plane[c % ph.q]);
		t->sub[x - t->s->start[p]] = c / ph.q;
	}
	ilp_phase_clear(&ph);
	return r;
}

static int phase(struct route_state *t, uint32_t p)
{
	enum ilp_verdict v = ILP_INFEASIBLE;
	uint32_t n, k = 0;
	size_t i;
	int r = 0;

	for (i = t->s->start[p]; i < t->s->start[p + 1]; i++) {
		fors_xfer_set_plane(&t->s->xfers[i], -1);
		t->sub[i - t->s->start[p]] = 0;
	}
	n = ilp_phase_gather(t->s, t->fb->m0, p, t->pend, t->ls, t->ld);
	if (n)
		t->st->phases++;
	while (n && !r && v == ILP_INFEASIBLE && k < n) {
		r = phase_k(t, p, n, ++k, &v);
		t->st->infeasible += !r && v == ILP_INFEASIBLE;
	}
	if (!r && n && v != ILP_FEASIBLE) {
		fors_error_set(t->err, "phase %u has no solution in %u sub-phases", p, k);
		r = FORS_EVERIFY;
	}
	if (t->st->subs)
		t->st->subs[p] = k ? k : 1;
	return r ? r : fors_split_phase(&t->out, &t->s->xfers[t->s->start[p]],
					t->s->start[p + 1] - t->s->start[p],
					t->sub, k ? k : 1);
}

static int setup(struct route_state *t, const struct fors_scenario *sc)
{
	size_t n;
	int r = ilp_scenario_schedule(sc, &t->fb, &t->s, t->err);

	if (r)
		return r;
	n = t->s->nxfers + 1;
	t->pend = malloc(sizeof(uint32_t) * n);
	t->ls = malloc(sizeof(uint32_t) * n);
	t->ld = malloc(sizeof(uint32_t) * n);
	t->colour = malloc(sizeof(uint32_t) * n);
	t->sub = malloc(sizeof(uint32_t) * n);
	t->seen = malloc(sizeof(uint64_t) * n);
	if (fors_split_init(&t->out, t->s) || !t->seen || !t->pend || !t->ls ||
	    !t->ld || !t->colour || !t->sub) {
		fors_error_set(t->err, "out of memory");
		return FORS_ENOMEM;
	}
	return 0;
}

static void cleanup(struct route_state *t)
{
	ilp_store_close(&t->store);
	fors_fabric_free(t->fb);
	fors_schedule_free(t->s);
	free(t->pend);
	free(t->ls);
	free(t->ld);
	free(t->colour);
	free(t->sub);
	fors_split_free(&t->out);
	free(t->seen);
}

/* The routed schedule replaces the plain one, with its keys. */
static int finish(struct route_state *t, const uint8_t *present,
		  struct fors_schedule **out)
{
	uint32_t split = t->out.nphases - t->s->nphases;
	struct fors_schedule *s;
	char n[16];

	if (fors_split_finish(&t->out, t->s, &s)) {
		fors_error_set(t->err, "out of memory");
		return FORS_ENOMEM;
	}
	fors_schedule_free(t->s);
	t->s = s;
	s->q = t->fb->q;
	s->m = t->fb->m;
	snprintf(n, sizeof(n), "%u", split);
	if (fors_schedule_add_key(s, "method", "ilp") ||
	    (split && fors_schedule_add_key(s, "split", n)) ||
	    fors_schedule_add_absent(s, present)) {
		fors_error_set(t->err, "out of memory");
		return FORS_ENOMEM;
	}
	if (fors_schedule_fits(t->fb, s, t->err))
		return FORS_EVERIFY;
	*out = s;
	t->s = NULL;
	return 0;
}

int fors_ilp_route(const struct ilp_opts *o, const struct fors_scenario *sc,
		   struct fors_schedule **out, struct ilp_stats *st,
		   struct fors_error *err)
{
	struct route_state t = { .o = o, .st = st, .err = err };
	uint32_t p;
	int r;

	*out = NULL;
	if (o->solver && !(t.sv = ilp_solver_find(o->solver))) {
		fors_error_set(err, "unknown solver \"%s\" (known: %s)",
			       o->solver, ilp_solver_names());
		return FORS_EINVAL;
	}
	r = ilp_store_open(&t.store, o->cache, !!t.sv, o->also, err);
	if (r)
		return store_status(r);
	r = setup(&t, sc);
	for (p = 0; !r && p < t.s->nphases; p++)
		r = phase(&t, p);
	if (!r)
		r = finish(&t, sc->present, out);
	cleanup(&t);
	return r;
}
