// SPDX-License-Identifier: MIT
/*
 * Bipartite list edge colouring in three stages. Cheap necessary
 * conditions (hall.c) prove many instances infeasible at once: Hall's
 * condition at each vertex, and (once a short repair has failed) the
 * colour classes, each a matching, which together must cover all edges
 * and each cover the vertices that need every colour they have. A greedy
 * colouring is repaired by tabu search (repair.c): place an edge by a
 * Konig swap along an alternating path, or take the least clashing colour
 * and evict the clashes. Behind them, an exact depth-first search with
 * forward checking, vertex propagation and restarts (exact.c) either finds
 * a colouring or proves there is none within a node budget: a short run
 * first; then an LP certificate (lp.c: Farkas weights, checked in
 * integers) refutes instances whose fractional relaxation is infeasible
 * and otherwise orders the search's colours; then the search on the core
 * around the edges the repair could not place (core.c), and on the whole
 * graph. The repair and the search change one partial colouring
 * (state.c). A caller whose hints colour most instances may ask for the
 * hinted greedy alone first (hints_first). This file is the driver.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lec/core.h"
#include "lec/exact.h"
#include "lec/hall.h"
#include "lec/lec.h"
#include "lec/lp.h"
#include "lec/repair.h"
#include "lec/state.h"

const struct lec_budget lec_default_budget = {
	.repair_moves = 20000,
	.restarts = 1,
	.exact_nodes = 200000,
	.seed = 0x9e3779b97f4a7c15ull,
	.lp_rounds = 2000,
};

/* Incidence lists (CSR) of one side of the graph. */
static int incidence(const struct lec_problem *p, const int *end, int nv,
		     int **vstart, int **vedges)
{
	int *st = calloc(nv + 1, sizeof(int));
	int *ed = malloc(sizeof(int) * (p->nedges ? p->nedges : 1));
	int e, v;

	if (!st || !ed) {
		free(st);
		free(ed);
		return -1;
	}
	for (e = 0; e < p->nedges; e++)
		st[end[e] + 1]++;
	for (v = 0; v < nv; v++)
		st[v + 1] += st[v];
	for (e = 0; e < p->nedges; e++)
		ed[st[end[e]]++] = e;
	for (v = nv; v > 0; v--)
		st[v] = st[v - 1];
	st[0] = 0;
	*vstart = st;
	*vedges = ed;
	return 0;
}

static int *length_order(const struct lec_problem *p)
{
	int *ord = malloc(sizeof(int) * (p->nedges ? p->nedges : 1));
	int *cnt = calloc(p->ncolours + 2, sizeof(int));
	int e;

	if (!ord || !cnt) {
		free(ord);
		free(cnt);
		return NULL;
	}
	for (e = 0; e < p->nedges; e++)
		cnt[p->lstart[e + 1] - p->lstart[e] + 1]++;
	for (e = 0; e <= p->ncolours; e++)
		cnt[e + 1] += cnt[e];
	for (e = 0; e < p->nedges; e++)
		ord[cnt[p->lstart[e + 1] - p->lstart[e]]++] = e;
	free(cnt);
	return ord;
}

/* Proven infeasible: a greedy partial colouring is all the caller gets. */
static int partial(struct state *s, int *colour)
{
	int *order = length_order(s->p), e;

	if (!order)
		return LEC_NOMEM;
	for (e = 0; e < s->p->nedges; e++)
		colour[e] = -1;
	lec_reset(s);
	lec_greedy(s, order, NULL);
	free(order);
	return LEC_INFEASIBLE;
}

/* Nodes of the first exact search: enough for most repair failures. */
#define EXACT_QUICK 1000

/*
 * After the repair: a short exact search settles most instances; the LP
 * refutes those whose fractional relaxation fails and guides the search
 * for the rest; then the core, and the whole graph with what is left.
 */
static int decide(struct state *s, const struct lec_budget *b,
		  const int *ls, const int *le, const int *rs, const int *re)
{
	const struct lec_problem *p = s->p;
	long quick = b->exact_nodes < EXACT_QUICK ? b->exact_nodes : EXACT_QUICK;
	int *guide = NULL, r = LEC_UNKNOWN, t;

	if (quick > 0)
		r = lec_exact_search(s, quick, ls, le, rs, re);
	if (r == LEC_UNKNOWN && b->lp_rounds > 0) {
		guide = calloc((size_t)p->lstart[p->nedges] + 1, sizeof(int));
		t = !guide ? -1 :
		    lec_lp_refuted(p, b->lp_rounds, ls, rs, guide);
		r = t < 0 ? LEC_NOMEM : t ? LEC_INFEASIBLE : LEC_UNKNOWN;
		s->guide = guide;
	}
	if (r == LEC_UNKNOWN && b->exact_nodes > 0 && b->restarts >= 0) {
		t = lec_core_refuted(s, b->exact_nodes);
		r = t < 0 ? LEC_NOMEM : t ? LEC_INFEASIBLE : LEC_UNKNOWN;
	}
	if (r == LEC_UNKNOWN && b->exact_nodes > quick)
		r = lec_exact_search(s, b->exact_nodes - quick, ls, le, rs, re);
	s->guide = NULL;
	free(guide);
	return r;
}

static int run(struct state *s, const struct lec_budget *b, int *colour,
	       const int *ls, const int *le, const int *rs, const int *re)
{
	const struct lec_problem *p = s->p;
	int *order = length_order(p);
	int *hint = malloc(sizeof(int) * (p->nedges ? p->nedges : 1));
	int r = LEC_NOMEM, t;

	if (!order || !hint)
		goto out;
	memcpy(hint, colour, sizeof(int) * p->nedges);
	s->rng = b->seed ? b->seed : 1;
	lec_reset(s);
	lec_greedy(s, order, hint);
	keep_best(s);
	for (t = 0; t <= b->restarts; t++) {
		if (t > 0) {
			lec_reset(s);
			lec_greedy(s, order, NULL);
		}
		if (lec_tabu_search(s, t ? b->repair_moves :
				       b->repair_moves / 8)) {
			r = LEC_SOLVED;
			goto out;
		}
		/* the colour-class checks cost a pass over every colour: only
		 * for instances a short repair did not settle */
		if (t == 0) {
			r = lec_colour_capacity(p, ls, le, rs, re);
			if (r <= 0) {
				r = r < 0 ? LEC_NOMEM : LEC_INFEASIBLE;
				memcpy(colour, s->best, sizeof(int) * p->nedges);
				goto out;
			}
			r = LEC_NOMEM;
		}
	}
	r = decide(s, b, ls, le, rs, re);
	if (r != LEC_SOLVED && r != LEC_NOMEM)
		memcpy(colour, s->best, sizeof(int) * p->nedges);
out:
	free(order);
	free(hint);
	return r;
}

/*
 * The greedy start of run() with the hints, on its own: 1 when it colours
 * every edge (colour[] then holds what run() would return), 0 when not
 * (colour[] as it came), -1 out of memory. Where the hints colour most
 * instances (b->hints_first), this spares them the incidence lists and the
 * repair's state; elsewhere the greedy would only be done twice.
 */
static int hinted_greedy(const struct lec_problem *p, int *colour)
{
	size_t nc = (size_t)p->ncolours;
	int *order = length_order(p);
	int *hint = malloc(sizeof(int) * (p->nedges ? p->nedges : 1));
	uint8_t *l = calloc(((size_t)p->nleft + p->nright) * nc + 1, 1), *r;
	int i, k, c, done = -1;

	if (!order || !hint || !l)
		goto out;
	r = l + (size_t)p->nleft * nc;
	memcpy(hint, colour, sizeof(int) * p->nedges);
	for (i = 0, done = 1; i < p->nedges && done; i++) {
		int e = order[i], h = hint[e];
		uint8_t *ul = l + p->left[e] * nc, *ur = r + p->right[e] * nc;

		c = h >= 0 && h < p->ncolours && in_list(p, e, h) &&
		    !ul[h] && !ur[h] ? h : -1;
		for (k = p->lstart[e]; c < 0 && k < p->lstart[e + 1]; k++)
			if (!ul[p->list[k]] && !ur[p->list[k]])
				c = p->list[k];
		done = c >= 0;
		if (done) {
			ul[c] = ur[c] = 1;
			colour[e] = c;
		}
	}
	if (!done)
		memcpy(colour, hint, sizeof(int) * p->nedges);
out:
	free(order);
	free(hint);
	free(l);
	return done;
}

int lec_solve(const struct lec_problem *p, int *colour,
	      const struct lec_budget *b)
{
	struct state s;
	int *ls = NULL, *le = NULL, *rs = NULL, *re = NULL;
	int r;

	if (!b)
		b = &lec_default_budget;
	r = b->hints_first ? hinted_greedy(p, colour) : 0;
	if (r)
		return r > 0 ? LEC_SOLVED : LEC_NOMEM;
	r = LEC_NOMEM;
	if (incidence(p, p->left, p->nleft, &ls, &le) ||
	    incidence(p, p->right, p->nright, &rs, &re))
		goto out;
	r = lec_prechecks(p, ls, le, rs, re);
	if (r < 0) {
		r = LEC_NOMEM;
		goto out;
	}
	if (lec_state_init(&s, p, colour)) {
		r = LEC_NOMEM;
		goto out;
	}
	if (r == 0)
		r = partial(&s, colour);
	else
		r = run(&s, b, colour, ls, le, rs, re);
	lec_state_free(&s);
out:
	free(ls);
	free(le);
	free(rs);
	free(re);
	return r;
}

int lec_is_proper(const struct lec_problem *p, const int *colour)
{
	int e, g;

	for (e = 0; e < p->nedges; e++) {
		if (colour[e] < 0 || !in_list(p, e, colour[e]))
			return 0;
		for (g = e + 1; g < p->nedges; g++)
			if (colour[g] == colour[e] &&
			    (p->left[g] == p->left[e] ||
			     p->right[g] == p->right[e]))
				return 0;
	}
	return 1;
}
