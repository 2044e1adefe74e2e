// SPDX-License-Identifier: MIT
/*
 * The exact search: depth first, with forward checking, vertex propagation
 * and restarts; it either finds a colouring or proves there is none within
 * a node budget.
 */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>

#include "lec/exact.h"

/* The depth-first search over the partial colouring in s. */
struct search {
	struct state *s;
	const int *ls, *le, *rs, *re;	/* incidence of left and right */
	int *avail;			/* free list colours per edge */
	long nodes;
	long budget;
	int *cnt, *st, *open, stamp;	/* per colour, for vertex scans */
	int ties;			/* equal choices seen, for tie-breaks */
	struct branch *branch;		/* branches of the nodes on the path */
	int top;
};

/*
 * One branch: colour edge e with list entry k. Each node colours a
 * distinct edge and has at most as many branches as that edge has list
 * entries, so the path's branches fit in one entry per list entry.
 */
struct branch {
	int64_t key;
	int e, k;
};

/* What to branch on: an edge's colours, or a colour's edges at a vertex. */
struct choice {
	int e;			/* the edge, or -1 */
	int v, side, c;		/* else: colour c must be used at vertex v */
	int size;
};

/* Colour c is taken at the endpoints of e: update neighbours' counts. */
static int touch(struct search *x, int e, int c, int delta)
{
	struct state *s = x->s;
	const struct lec_problem *p = s->p;
	int u = p->left[e], v = p->right[e], i, dead = 0;

	for (i = x->ls[u]; i < x->ls[u + 1]; i++) {
		int g = x->le[i];

		if (g == e || s->colour[g] >= 0 || !in_list(p, g, c) ||
		    *atr(s, g, c) >= 0)
			continue;
		x->avail[g] += delta;
		dead |= x->avail[g] == 0;
	}
	for (i = x->rs[v]; i < x->rs[v + 1]; i++) {
		int g = x->re[i];

		if (g == e || p->left[g] == u || s->colour[g] >= 0 ||
		    !in_list(p, g, c) || *atl(s, g, c) >= 0)
			continue;
		x->avail[g] += delta;
		dead |= x->avail[g] == 0;
	}
	return dead;
}

/*
 * A vertex with as many uncoloured edges as open colours must use every
 * one of them (more edges than colours: a dead end). A colour open to few
 * of its edges is then a better branch than any edge: the hidden single of
 * Sudoku solvers. Returns 0 at a dead end.
 */
static int scan_vertex(struct search *x, int side, int v, struct choice *ch)
{
	struct state *s = x->s;
	const struct lec_problem *p = s->p;
	const int *vs = side ? x->rs : x->ls, *ve = side ? x->re : x->le;
	int i, k, unc = 0, nopen = 0;

	x->stamp++;
	for (i = vs[v]; i < vs[v + 1]; i++) {
		int g = ve[i];

		if (s->colour[g] >= 0)
			continue;
		unc++;
		for (k = p->lstart[g]; k < p->lstart[g + 1]; k++) {
			int c = p->list[k];

			if (!is_free(s, g, c))
				continue;
			if (x->st[c] != x->stamp) {
				x->st[c] = x->stamp;
				x->cnt[c] = 0;
				x->open[nopen++] = c;
			}
			x->cnt[c]++;
		}
	}
	if (unc > nopen)
		return 0;
	for (i = 0; unc && unc == nopen && i < nopen; i++) {
		int c = x->open[i];

		if (x->cnt[c] < ch->size ||
		    (x->cnt[c] == ch->size && rnd(s) % ++x->ties == 0)) {
			if (x->cnt[c] < ch->size)
				x->ties = 1;
			*ch = (struct choice){ -1, v, side, c, x->cnt[c] };
		}
	}
	return 1;
}

static int choose(struct search *x, struct choice *ch)
{
	struct state *s = x->s;
	const struct lec_problem *p = s->p;
	int i, v;

	ch->e = -1;
	ch->size = INT_MAX;
	x->ties = 0;
	for (i = 0; i < s->nunc; i++) {
		int g = s->unc[i];

		if (x->avail[g] < ch->size) {
			ch->e = g;
			ch->size = x->avail[g];
			x->ties = 1;
		} else if (x->avail[g] == ch->size && rnd(s) % ++x->ties == 0) {
			ch->e = g;
		}
	}
	for (v = 0; ch->size > 1 && v < p->nleft; v++)
		if (!scan_vertex(x, 0, v, ch))
			return 0;
	for (v = 0; ch->size > 1 && v < p->nright; v++)
		if (!scan_vertex(x, 1, v, ch))
			return 0;
	return ch->size > 0;
}

static int dfs(struct search *x);

static int try(struct search *x, int e, int c)
{
	int dead = touch(x, e, c, -1), r;

	assign(x->s, e, c);
	r = dead ? 0 : dfs(x);
	if (r)
		return r;
	unassign(x->s, e);
	touch(x, e, c, +1);
	return 0;
}

/* The branches of a choice, from a random offset so that restarts differ. */
static int branches(struct search *x, const struct choice *ch,
		    struct branch *br)
{
	struct state *s = x->s;
	const struct lec_problem *p = s->p;
	const int *vs, *ve;
	int i, n, o, m = 0;

	if (ch->e >= 0) {
		n = p->lstart[ch->e + 1] - p->lstart[ch->e];
		o = (int)(rnd(s) % n);
		for (i = 0; i < n; i++) {
			int k = p->lstart[ch->e] + (i + o) % n;

			if (is_free(s, ch->e, p->list[k]))
				br[m++] = (struct branch){ 0, ch->e, k };
		}
		return m;
	}
	vs = ch->side ? x->rs : x->ls;
	ve = ch->side ? x->re : x->le;
	n = vs[ch->v + 1] - vs[ch->v];
	o = (int)(rnd(s) % n);
	for (i = 0; i < n; i++) {
		int g = ve[vs[ch->v] + (i + o) % n], k = list_pos(p, g, ch->c);

		if (s->colour[g] < 0 && k < p->lstart[g + 1] &&
		    p->list[k] == ch->c && is_free(s, g, ch->c))
			br[m++] = (struct branch){ 0, g, k };
	}
	return m;
}

/*
 * The LP's favourites first: the colours the fractional relaxation uses
 * most lead to a colouring far sooner than random ones where the graph is
 * tight. The keys are perturbed so that restarts still differ.
 */
static void by_guide(struct state *s, struct branch *br, int n)
{
	struct branch t;
	int i, j;

	for (i = 0; i < n; i++)
		br[i].key = (int64_t)s->guide[br[i].k] * (512 + rnd(s) % 256);
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && br[j].key > br[j - 1].key; j--) {
			t = br[j];
			br[j] = br[j - 1];
			br[j - 1] = t;
		}
}

/* 1 solved, 0 exhausted this subtree, -1 budget spent. */
static int dfs(struct search *x)
{
	struct state *s = x->s;
	struct choice ch;
	struct branch *br;
	int i, r = 0, n;

	if (s->nunc == 0)
		return 1;
	if (++x->nodes > x->budget)
		return -1;
	if (!choose(x, &ch))
		return 0;
	br = x->branch + x->top;
	n = branches(x, &ch, br);
	if (s->guide)
		by_guide(s, br, n);
	x->top += n;
	for (i = 0; i < n && !r; i++)
		r = try(x, br[i].e, s->p->list[br[i].k]);
	x->top -= n;
	return r;
}

int lec_exact_search(struct state *s, long budget, const int *ls,
		     const int *le, const int *rs, const int *re)
{
	const struct lec_problem *p = s->p;
	struct search x = { .s = s, .ls = ls, .le = le, .rs = rs, .re = re };
	long limit, spent;
	int e, r;

	x.avail = malloc(sizeof(int) * (p->nedges ? p->nedges : 1));
	x.cnt = malloc(sizeof(int) * (p->ncolours + 1));
	x.st = calloc(p->ncolours + 1, sizeof(int));
	x.open = malloc(sizeof(int) * (p->ncolours + 1));
	x.branch = malloc(sizeof(struct branch) *
			  ((size_t)p->lstart[p->nedges] + 1));
	r = LEC_NOMEM;
	if (!x.avail || !x.cnt || !x.st || !x.open || !x.branch)
		goto out;
	/* restarts with growing limits tame heavy tails; a finished run is a proof */
	for (limit = 1000, spent = 0, r = -1; r < 0 && spent < budget;
	     limit *= 2) {
		lec_reset(s);
		for (e = 0; e < p->nedges; e++)
			x.avail[e] = p->lstart[e + 1] - p->lstart[e];
		x.nodes = 0;
		x.top = 0;
		x.budget = limit < budget - spent ? limit : budget - spent;
		r = dfs(&x);
		spent += x.nodes;
	}
	r = r > 0 ? LEC_SOLVED : r < 0 ? LEC_UNKNOWN : LEC_INFEASIBLE;
out:
	free(x.avail);
	free(x.cnt);
	free(x.st);
	free(x.open);
	free(x.branch);
	return r;
}
