// SPDX-License-Identifier: MIT
/*
 * The staged update (issue 31). While OpenSM sends new tables, each switch
 * forwards each LID by the entry it holds or by its new one; when that
 * union has a cycle, the new tables go in two steps. First the new tables
 * with the entries that close the union's cycles left without a route:
 * their union with the held tables is acyclic. One sweep later the new
 * tables themselves: their union with the first step only adds the
 * dropped entries back, so its dependencies are the new tables' own, and
 * those have no cycle. doc/routing.md argues why no single step can do it.
 */
#include <stdlib.h>
#include <string.h>

#include "routing/lft.h"
#include "sweep/stage.h"
#include "verify/transition.h"

#define NEVER UINT32_MAX

struct stage {
	struct fors_union u;	/* wo: the held tables, wn: the next ones */
	struct fors_lft_dump *next;
	struct fors_stage_report *rep;
};

/* The entry of x for lid in w, FORS_NO_PORT when it has none. */
static uint32_t entry(const struct fors_walk *w, uint32_t x, uint32_t lid)
{
	return w->table[x] >= 0 ? fors_walk_port(w, x, lid) : FORS_NO_PORT;
}

/*
 * Whether x sends lid through port k: bit 0 by its held entry (a CA
 * always, it sends every LID), bit 1 by its next one.
 */
static uint32_t sends(const struct stage *s, uint32_t x, uint32_t lid,
		      uint32_t k)
{
	if (s->u.t->nodes[x].type == FORS_CA)
		return 1;
	return (entry(&s->u.wo, x, lid) == k) |
	       (uint32_t)(entry(&s->u.wn, x, lid) == k) << 1;
}

/* Dropping x's next entry for lid loses a route the held one has: 1. */
static uint32_t cost(const struct stage *s, uint32_t x, uint32_t lid)
{
	uint32_t k = entry(&s->u.wo, x, lid);

	return k != 0 && k != FORS_NO_PORT;
}

static void drop(struct stage *s, uint32_t x, uint32_t lid)
{
	struct fors_lft_switch *w = &s->next->sw[s->u.wn.table[x]];

	w->port[lid] = FORS_NO_PORT;
	s->rep->dropped++;
	s->rep->lost += cost(s, x, lid);
}

/*
 * What breaking the dependency of channel c on port k of its head costs:
 * for every LID that makes it, the next entry of the head or of the tail
 * dropped, whichever keeps a held route; NEVER when the held tables alone
 * make it. With apply, the entries are dropped.
 */
static uint32_t cut(struct stage *s, uint32_t c, uint32_t k, int apply)
{
	const struct fors_deps *g = &s->u.g;
	uint32_t x = g->cnode[c], a = c - g->pbase[x];
	uint32_t v = fors_deps_head(g, c), lid, sum = 0;

	for (lid = 1; lid < s->u.nlid; lid++) {
		uint32_t us = sends(s, x, lid, a), vs, cv, cx;

		if (!us || !(vs = sends(s, v, lid, k)))
			continue;
		cv = vs & 1 ? NEVER : cost(s, v, lid);
		cx = us & 1 ? NEVER : cost(s, x, lid);
		if (cv == NEVER && cx == NEVER)
			return NEVER;
		sum += cv < cx ? cv : cx;
		if (apply)
			drop(s, cv <= cx ? v : x, lid);
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
	s->rep->cuts++;
	return 0;
}

/* The held tables' own loop, by switch names and ports. */
static void say_held_loop(struct stage *s, const struct fors_topology *t,
			  const struct fors_lft_dump *held)
{
	struct fors_union_report r;
	struct fors_error err;

	s->rep->held_loop = 1;
	if (fors_check_union(t, held, held, &r, &err) == FORS_EVERIFY)
		memcpy(s->rep->cycle, r.cycle, sizeof(r.cycle));
}

int fors_stage(const struct fors_topology *t, const struct fors_lft_dump *held,
	       struct fors_lft_dump *next, struct fors_stage_report *rep,
	       struct fors_error *err)
{
	struct stage s = { .next = next, .rep = rep };
	uint32_t *cyc = NULL, n;
	int e;

	memset(rep, 0, sizeof(*rep));
	e = fors_union_build(&s.u, t, held, next);
	if (!e)
		cyc = malloc(sizeof(uint32_t) * (s.u.g.nchan + 1));
	e = e ? e : cyc ? 0 : FORS_ENOMEM;
	while (!e && (e = fors_deps_find(&s.u.g, s.u.table, cyc, &n)) > 0)
		e = break_cycle(&s, cyc, n) == NEVER ? FORS_EVERIFY : 0;
	fors_union_free(&s.u);
	free(cyc);
	if (e == FORS_EVERIFY)
		say_held_loop(&s, t, held);
	if (e == FORS_ENOMEM)
		fors_error_set(err, "out of memory while staging the tables");
	else if (e)
		fors_error_set(err, "the switches' tables have a credit loop of their own: %s",
			       rep->cycle);
	return e;
}
