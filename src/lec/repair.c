// SPDX-License-Identifier: MIT
/*
 * The repair: a greedy colouring, then tabu search on what it left
 * uncoloured. Each move places an edge by a Konig swap along an
 * alternating path, or takes the least clashing colour and evicts the
 * clashes, which may not take that colour back for a while.
 */
#include "lec/repair.h"

/* Edges in order of list length, so the most constrained go first. */
void lec_greedy(struct state *s, const int *order, const int *hint)
{
	const struct lec_problem *p = s->p;
	int i, k;

	for (i = 0; i < p->nedges; i++) {
		int e = order[i];

		if (hint && hint[e] >= 0 && in_list(p, e, hint[e]) &&
		    is_free(s, e, hint[e])) {
			assign(s, e, hint[e]);
			continue;
		}
		for (k = p->lstart[e]; k < p->lstart[e + 1]; k++) {
			if (is_free(s, e, p->list[k])) {
				assign(s, e, p->list[k]);
				break;
			}
		}
	}
}

static void evict(struct state *s, int x, int c, long until)
{
	s->tabu[list_pos(s->p, x, c)] = until;
	unassign(s, x);
}

/* Paths traced per move at most: long lists would make moves slow. */
#define KEMPE_TRIES 64

/*
 * The c/d alternating path from right vertex v, which has c but not d.
 * Fills path[] and returns its length, or -1 if some edge on it cannot take
 * the other colour (its list lacks it), which makes the swap invalid.
 */
static int kempe_path(struct state *s, int v, int c, int d, int *path)
{
	const struct lec_problem *p = s->p;
	int n = 0, side = 1, cur = v, col = c;

	for (;;) {
		int e = side ? s->atr[(size_t)cur * p->ncolours + col] :
			       s->atl[(size_t)cur * p->ncolours + col];

		if (e < 0)
			return n;
		if (n == p->nedges || !in_list(p, e, col == c ? d : c))
			return -1;
		path[n++] = e;
		cur = side ? p->left[e] : p->right[e];
		side = !side;
		col = col == c ? d : c;
	}
}

/*
 * Konig's move, as in his proof that bipartite graphs are edge-colourable
 * with max-degree colours: with c free at u and d free at v, swap c and d
 * along the alternating path from v; c is then free at both ends of (u, v).
 * The path never reaches u. Valid when every edge on it lists the other
 * colour.
 */
static int kempe(struct state *s, int e, int *path)
{
	const struct lec_problem *p = s->p;
	int u = p->left[e], v = p->right[e], i, j, k, tries = KEMPE_TRIES;

	for (i = p->lstart[e]; i < p->lstart[e + 1]; i++)
		if (is_free(s, e, p->list[i]))
			return 0;	/* a plain move colours it */
	for (i = p->lstart[e]; i < p->lstart[e + 1]; i++) {
		int c = p->list[i];

		if (s->atl[(size_t)u * p->ncolours + c] >= 0)
			continue;
		for (j = p->lstart[e]; j < p->lstart[e + 1] && tries; j++) {
			int d = p->list[j], n;

			if (d == c || s->atr[(size_t)v * p->ncolours + d] >= 0)
				continue;
			tries--;
			n = kempe_path(s, v, c, d, path);
			if (n < 0)
				continue;
			for (k = 0; k < n; k++) {
				int x = path[k], cx = s->colour[x];

				*atl(s, x, cx) = -1;
				*atr(s, x, cx) = -1;
			}
			for (k = 0; k < n; k++) {
				int x = path[k], cx = s->colour[x] == c ? d : c;

				s->colour[x] = cx;
				*atl(s, x, cx) = x;
				*atr(s, x, cx) = x;
			}
			assign(s, e, c);
			return 1;
		}
	}
	return 0;
}

/* One ejection-chain move: colour an uncoloured edge, evict its clashes. */
static void tabu_move(struct state *s, long iter)
{
	const struct lec_problem *p = s->p;
	int e = s->unc[rnd(s) % s->nunc];
	int best = -1, bestscore = 0, k;

	if (kempe(s, e, s->path))
		return;
	for (k = p->lstart[e]; k < p->lstart[e + 1]; k++) {
		int c = p->list[k];
		int x = *atl(s, e, c), y = *atr(s, e, c);
		int cost = (x >= 0) + (y >= 0 && y != x);
		int score;

		if (cost && s->tabu[k] > iter)
			continue;
		score = cost * 64 + (int)(rnd(s) % 64);
		if (best < 0 || score < bestscore) {
			best = k;
			bestscore = score;
		}
	}
	if (best < 0)
		best = p->lstart[e] + (int)(rnd(s) % (p->lstart[e + 1] -
						      p->lstart[e]));
	{
		int c = p->list[best];
		int x = *atl(s, e, c), y = *atr(s, e, c);
		long until = iter + s->nunc + (long)(rnd(s) % 10);

		if (x >= 0)
			evict(s, x, c, until);
		if (y >= 0 && y != x)
			evict(s, y, c, until);
		assign(s, e, c);
	}
}

int lec_tabu_search(struct state *s, long moves)
{
	long iter;

	keep_best(s);
	for (iter = 1; iter <= moves && s->nunc > 0; iter++) {
		tabu_move(s, iter);
		keep_best(s);
	}
	return s->nunc == 0;
}
