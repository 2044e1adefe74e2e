// SPDX-License-Identifier: MIT
/*
 * The staged update (issue 31). While OpenSM sends new tables, each switch
 * forwards each LID by the entry it holds or by its new one; when that
 * union has a cycle, the new tables go in two steps. First a stage: the new
 * tables with the entries that close the union's cycles kept as the held
 * tables have them, so the union of the held tables and the stage has no
 * cycle; where a kept entry would close a cycle with the new tables, it is
 * left without a route instead, so the union of the stage and the new
 * tables has none either. One sweep later, the new tables themselves.
 * doc/routing.md argues why no single step can do it.
 */
#include <stdlib.h>
#include <string.h>

#include "routing/lft.h"
#include "sweep/stage.h"
#include "verify/transition.h"

#define NEVER UINT32_MAX
/* A data path's entry is changed only where no management entry will do. */
#define DATA_WEIGHT 1000

/*
 * One pass of the greedy over the union of two table sets, u.wo and u.wn,
 * of which one is the stage being built (mut: 1 when it is u.wn, 0 when
 * it is u.wo); its entries change to the held tables' (first pass) or to
 * none (second pass).
 */
struct stage {
	struct fors_union u;
	struct fors_lft_dump *next;	/* the stage being built */
	const struct fors_walk *held;	/* the held tables, over t */
	const struct fors_lfts *lf;	/* the new tables' origin, or NULL */
	uint32_t mut;
	uint32_t changes;	/* entries changed so far */
	uint32_t kept;		/* of them, kept on a held route */
};

/* The entry of x for lid in w, FORS_NO_PORT when it has none. */
static uint32_t entry(const struct fors_walk *w, uint32_t x, uint32_t lid)
{
	return w->table[x] >= 0 ? fors_walk_port(w, x, lid) : FORS_NO_PORT;
}

static int live(uint32_t k)
{
	return k != 0 && k != FORS_NO_PORT;
}

/*
 * Whether x sends lid through port k: bit 0 by its u.wo entry, bit 1 by
 * its u.wn entry; a CA sends every LID, by both.
 */
static uint32_t sends(const struct stage *s, uint32_t x, uint32_t lid,
		      uint32_t k)
{
	if (s->u.t->nodes[x].type == FORS_CA)
		return 3;
	return (entry(&s->u.wo, x, lid) == k) |
	       (uint32_t)(entry(&s->u.wn, x, lid) == k) << 1;
}

/* x's new entry for lid carries a data path of the schedule: 1. */
static uint32_t data(const struct stage *s, uint32_t x, uint32_t lid)
{
	int32_t i = s->u.wn.table[x];

	return s->lf && i >= 0 && (uint32_t)i < s->lf->nsw &&
	       lid <= s->lf->maxlid && fors_lft_data(s->lf, (uint32_t)i, lid);
}

/* The stage's entry of x for lid becomes this. */
static uint32_t target(const struct stage *s, uint32_t x, uint32_t lid)
{
	return s->mut ? entry(s->held, x, lid) : FORS_NO_PORT;
}

/*
 * What changing the stage's entry costs: a route lost, or a data path
 * moved (kept on the held tables' plane), or lost.
 */
static uint32_t cost(const struct stage *s, uint32_t x, uint32_t lid)
{
	uint32_t d = data(s, x, lid);

	return live(target(s, x, lid)) ? d : 1 + DATA_WEIGHT * d;
}

static void change(struct stage *s, uint32_t x, uint32_t lid)
{
	const struct fors_walk *w = s->mut ? &s->u.wn : &s->u.wo;
	uint32_t k = target(s, x, lid);

	s->next->sw[w->table[x]].port[lid] = (uint8_t)k;
	s->changes++;
	s->kept += live(k);
}

/*
 * What breaking the dependency of channel c on port k of its head costs:
 * for every LID that makes it, the stage's entry of the head or of the
 * tail changed, whichever costs less; NEVER when the other table set alone
 * makes it. With apply, the entries change.
 */
static uint32_t cut(struct stage *s, uint32_t c, uint32_t k, int apply)
{
	const struct fors_deps *g = &s->u.g;
	uint32_t x = g->cnode[c], a = c - g->pbase[x];
	uint32_t v = fors_deps_head(g, c), lid, sum = 0;
	uint32_t fixed = s->mut ? 1 : 2;

	for (lid = 1; lid < s->u.nlid; lid++) {
		uint32_t us = sends(s, x, lid, a), vs, cv, cx;

		if (!us || !(vs = sends(s, v, lid, k)))
			continue;
		cv = vs & fixed ? NEVER : cost(s, v, lid);
		cx = us & fixed ? NEVER : cost(s, x, lid);
		if (cv == NEVER && cx == NEVER)
			return NEVER;
		sum += cv < cx ? cv : cx;
		if (apply)
			change(s, cv <= cx ? v : x, lid);
	}
	return sum;
}

/* Break the cheapest dependency of the cycle cyc[0 .. n); 0 or NEVER. */
static uint32_t break_cycle(struct stage *s, const uint32_t *cyc, uint32_t n)
{
	uint32_t i, best = NEVER, at = 0;

	for (i = 0; i < n; i++) {
		uint32_t nx = cyc[(i + 1) % n];
		uint32_t c = cut(s, cyc[i], nx - s->u.g.pbase[s->u.g.cnode[nx]], 0);

		if (c < best) {
			best = c;
			at = i;
		}
	}
	if (best == NEVER)
		return NEVER;
	i = cyc[(at + 1) % n];
	i -= s->u.g.pbase[s->u.g.cnode[i]];
	cut(s, cyc[at], i, 1);
	fors_deps_remove(&s->u.g, cyc[at], i);
	return 0;
}

/*
 * Break every cycle of the union of a and b, the stage being b (mut 1) or
 * a (mut 0): 0, FORS_EVERIFY when the other set makes one alone,
 * FORS_ENOMEM. The graph only loses dependencies, and the real union
 * after the changes is part of it, so none is left.
 */
static int pass(struct stage *s, const struct fors_topology *t,
		const struct fors_lft_dump *a, const struct fors_lft_dump *b)
{
	uint32_t *cyc = NULL, n;
	int e = fors_union_build(&s->u, t, a, b);

	if (!e)
		cyc = malloc(sizeof(uint32_t) * (s->u.g.nchan + 1));
	e = e ? e : cyc ? 0 : FORS_ENOMEM;
	while (!e && (e = fors_deps_find(&s->u.g, s->u.table, cyc, &n)) > 0)
		e = break_cycle(s, cyc, n) == NEVER ? FORS_EVERIFY : 0;
	fors_union_free(&s->u);
	free(cyc);
	return e;
}

/* The stage against the new tables, counted into rep. */
static void count(const struct fors_topology *t, const struct fors_walk *held,
		  const struct fors_walk *st, const struct fors_walk *full,
		  const struct fors_lfts *lf, struct fors_stage_report *rep)
{
	uint32_t x, lid;

	for (x = 0; x < t->nnodes; x++) {
		const struct fors_lft_switch *f, *g;

		if (st->table[x] < 0 || full->table[x] < 0)
			continue;
		f = &full->d->sw[full->table[x]];
		g = &st->d->sw[st->table[x]];
		for (lid = 1; lid <= f->maxlid; lid++) {
			uint32_t k, n;

			/* the same byte is the same entry */
			if (lid <= g->maxlid && g->port[lid] == f->port[lid])
				continue;
			k = entry(st, x, lid);
			n = entry(full, x, lid);
			if (k == n)
				continue;
			rep->changed++;
			rep->data += lf && fors_lft_data(lf, (uint32_t)full->table[x], lid);
			rep->dropped += !live(k);
			rep->lost += !live(k) && live(entry(held, x, lid));
		}
	}
}

/* The held tables' own loop, by switch names and ports. */
static void say_held_loop(struct fors_stage_report *rep,
			  const struct fors_topology *t,
			  const struct fors_lft_dump *held)
{
	struct fors_union_report r;
	struct fors_error err;

	rep->held_loop = 1;
	if (fors_check_union(t, held, held, &r, &err) == FORS_EVERIFY)
		memcpy(rep->cycle, r.cycle, sizeof(r.cycle));
}

int fors_stage(const struct fors_topology *t, const struct fors_lft_dump *held,
	       const struct fors_lft_dump *full, struct fors_lft_dump *next,
	       const struct fors_lfts *lf, struct fors_stage_report *rep,
	       struct fors_error *err)
{
	struct fors_walk wh = { 0 }, ws = { 0 }, wf = { 0 };
	struct stage s = { .next = next, .held = &wh, .lf = lf, .mut = 1 };
	int e;

	memset(rep, 0, sizeof(*rep));
	e = fors_walk_init(&wh, t, held);
	if (!e)
		e = pass(&s, t, held, next);
	s.mut = 0;
	/*
	 * Where the first pass only took routes away, the union of next and
	 * full is full's own graph, whose cycles the verification of full
	 * finds; where it changed nothing, next is full.
	 */
	if (!e && s.kept)
		e = pass(&s, t, next, full);
	if (!e && s.changes && !(e = fors_walk_init(&ws, t, next)) &&
	    !(e = fors_walk_init(&wf, t, full)))
		count(t, &wh, &ws, &wf, lf, rep);
	fors_walk_free(&wh);
	fors_walk_free(&ws);
	fors_walk_free(&wf);
	if (e == FORS_EVERIFY)
		say_held_loop(rep, t, held);
	if (e == FORS_ENOMEM)
		fors_error_set(err, "out of memory while staging the tables");
	else if (e)
		fors_error_set(err, "the switches' tables have a credit loop of their own: %s",
			       rep->cycle);
	return e;
}
