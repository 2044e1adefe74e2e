// SPDX-License-Identifier: MIT
/*
 * LP refutation. Weights z >= 0 on the slots (a vertex and a colour) with
 *   sum over edges e of min over c in L(e) of (z[u(e)][c] + z[v(e)][c])
 *   > sum of all z
 * prove that no colouring exists: an edge coloured c fills slots (u, c)
 * and (v, c), each at most once, so a colouring would give the sum of the
 * minima at most the sum of the weights. By Farkas' lemma such z exist
 * exactly when the fractional relaxation is infeasible: a global bound
 * that no local propagation of the exact search sees. Multiplicative
 * weights (Arora, Hazan and Kale, "The multiplicative weights update
 * method", Section 3.3) find them approximately: each round every edge
 * takes its cheapest colour and the slots that get more than one edge grow
 * heavier. The weights are rounded to integers, scaled or cut at a
 * threshold, and only an exact check in integers counts as a proof.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lec/lp.h"

#define LP_EPS 0.1		/* first growth per extra edge in a slot */
#define LP_COOL 256.0		/* rounds until the growth has halved */
#define LP_FLOOR 1e-30		/* relative weight kept, against denormals */
#define LP_SCALE 16777216.0	/* integer weights up to 2^24 per slot */
#define LP_CHECK 16		/* rounds between roundings */
#define LP_CUTS 10		/* thresholds 0.7, 0.7^2, ... of the heaviest */

/* The slots' weights and what a round needs besides. */
struct lp_weights {
	const struct lec_problem *p;
	int nslots;
	double *w;		/* [nslots]: the slot's weight, the heaviest 1 */
	double *up;		/* [maxload + 1]: weight factor for a load */
	int maxload;
	int *load;		/* [nslots]: edges taking the slot this round */
	int64_t *z;		/* [nslots]: rounded weights */
	int *guide;		/* per list entry: rounds its edge took it */
};

static const int64_t *zslot(const struct lec_problem *p, const int64_t *z,
			    int side, int v)
{
	return z + (size_t)(side ? p->nleft + v : v) * p->ncolours;
}

/* The check in integers: 1 when z proves that no colouring exists. */
static int certifies(const struct lec_problem *p, const int64_t *z)
{
	int64_t need = 0, have = 0, m;
	int e, k, s, n = (p->nleft + p->nright) * p->ncolours;

	for (s = 0; s < n; s++)
		have += z[s];
	for (e = 0; e < p->nedges; e++) {
		const int64_t *zu = zslot(p, z, 0, p->left[e]);
		const int64_t *zv = zslot(p, z, 1, p->right[e]);

		m = INT64_MAX;
		for (k = p->lstart[e]; k < p->lstart[e + 1]; k++) {
			int c = p->list[k];

			if (zu[c] + zv[c] < m)
				m = zu[c] + zv[c];
		}
		need += m;
	}
	return need > have;
}

/* Scaled weights, then slots at or above a threshold with weight 1. */
static int rounded(struct lp_weights *x)
{
	double cut = 1.0;
	int i, s;

	for (s = 0; s < x->nslots; s++)
		x->z[s] = (int64_t)(x->w[s] * LP_SCALE + 0.5);
	if (certifies(x->p, x->z))
		return 1;
	for (i = 0; i < LP_CUTS; i++) {
		cut *= 0.7;
		for (s = 0; s < x->nslots; s++)
			x->z[s] = x->w[s] >= cut;
		if (certifies(x->p, x->z))
			return 1;
	}
	return 0;
}

/*
 * Every edge takes its cheapest colour; loaded slots grow. The growth
 * shrinks over the rounds: large steps find the heavy slots fast, small
 * ones stop the weights oscillating around the optimum.
 */
static void lp_round(struct lp_weights *x, long t)
{
	const struct lec_problem *p = x->p;
	int nc = p->ncolours, e, k, s;
	double top = 0, inv, eps = LP_EPS / (1 + t / LP_COOL);

	x->up[0] = 1 / (1 + eps);
	for (k = 1; k <= x->maxload; k++)
		x->up[k] = x->up[k - 1] * (1 + eps);
	memset(x->load, 0, sizeof(int) * x->nslots);
	for (e = 0; e < p->nedges; e++) {
		const double *wu = x->w + (size_t)p->left[e] * nc;
		const double *wv = x->w + (size_t)(p->nleft + p->right[e]) * nc;
		int bk = p->lstart[e], best = p->list[bk];

		for (k = bk + 1; k < p->lstart[e + 1]; k++) {
			int c = p->list[k];

			if (wu[c] + wv[c] < wu[best] + wv[best]) {
				bk = k;
				best = c;
			}
		}
		x->guide[bk]++;
		x->load[(size_t)p->left[e] * nc + best]++;
		x->load[(size_t)(p->nleft + p->right[e]) * nc + best]++;
	}
	for (s = 0; s < x->nslots; s++) {
		x->w[s] *= x->up[x->load[s]];
		if (x->w[s] > top)
			top = x->w[s];
	}
	inv = 1 / top;
	for (s = 0; s < x->nslots; s++) {
		x->w[s] *= inv;
		if (x->w[s] > 0 && x->w[s] < LP_FLOOR)
			x->w[s] = LP_FLOOR;
	}
}

/* Slots no list names keep weight 0: they constrain nothing. */
static void lp_init(struct lp_weights *x)
{
	const struct lec_problem *p = x->p;
	int nc = p->ncolours, e, k;

	memset(x->w, 0, sizeof(double) * x->nslots);
	for (e = 0; e < p->nedges; e++) {
		for (k = p->lstart[e]; k < p->lstart[e + 1]; k++) {
			x->w[(size_t)p->left[e] * nc + p->list[k]] = 1;
			x->w[(size_t)(p->nleft + p->right[e]) * nc +
			     p->list[k]] = 1;
		}
	}
}

/*
 * 1 refuted, 0 not within the rounds (guide[] then holds how often each
 * list entry was an edge's cheapest, the fractional solution in the
 * large), -1 out of memory.
 */
int lec_lp_refuted(const struct lec_problem *p, long rounds,
		   const int *ls, const int *rs, int *guide)
{
	struct lp_weights x = { .p = p, .guide = guide };
	int maxload = 1, v, r = -1;
	long t;

	for (v = 0; v < p->nleft; v++)
		if (ls[v + 1] - ls[v] > maxload)
			maxload = ls[v + 1] - ls[v];
	for (v = 0; v < p->nright; v++)
		if (rs[v + 1] - rs[v] > maxload)
			maxload = rs[v + 1] - rs[v];
	x.nslots = (p->nleft + p->nright) * p->ncolours;
	x.w = malloc(sizeof(double) * ((size_t)x.nslots + 1));
	x.up = malloc(sizeof(double) * ((size_t)maxload + 1));
	x.load = malloc(sizeof(int) * ((size_t)x.nslots + 1));
	x.z = malloc(sizeof(int64_t) * ((size_t)x.nslots + 1));
	if (!x.w || !x.up || !x.load || !x.z)
		goto out;
	x.maxload = maxload;
	lp_init(&x);
	for (t = 1, r = 0; t <= rounds && !r; t++) {
		lp_round(&x, t);
		r = t % LP_CHECK == 0 && rounded(&x);
	}
out:
	free(x.w);
	free(x.up);
	free(x.load);
	free(x.z);
	return r;
}
