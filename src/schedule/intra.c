// SPDX-License-Identifier: MIT
/*
 * The intra-leaf schedule g of Theorem 1 (FORS paper, Appendix A), which
 * the paper leaves open. Since d(s + m0, p) = d(s, p) + m0 (mod P), every
 * leaf has the same idle senders and receivers in every phase, so one
 * bipartite list edge colouring (sender slot, receiver slot, phase) serves
 * all leaves. We try phase counts upward from the lower bound max(P_f, P-1);
 * each count is either solved, proven infeasible, or left undecided.
 */
#include <stdlib.h>
#include <string.h>

#include "schedule/intra.h"
#include "lec/lec.h"

struct idle {
	uint32_t m0, pf;
	uint8_t *sbusy;		/* [pf * m0]: slot sends between leaves */
	uint8_t *rbusy;		/* [pf * m0]: slot receives from a leaf */
};

static int idle_init(struct idle *id, const struct inter *in)
{
	uint32_t p, a;

	id->m0 = in->m0;
	id->pf = in->pf;
	id->sbusy = calloc((size_t)in->pf * in->m0 + 1, 1);
	id->rbusy = calloc((size_t)in->pf * in->m0 + 1, 1);
	if (!id->sbusy || !id->rbusy)
		return -1;
	for (p = 0; p < in->pf; p++) {
		for (a = 0; a < in->m0; a++) {
			int64_t d = inter_dst(in, 0, a, p);

			if (d < 0)
				continue;
			id->sbusy[(size_t)p * in->m0 + a] = 1;
			id->rbusy[(size_t)p * in->m0 + d % in->m0] = 1;
		}
	}
	return 0;
}

static int usable(const struct idle *id, uint32_t a, uint32_t b, uint32_t p)
{
	size_t i = (size_t)p * id->m0;

	return p >= id->pf || (!id->sbusy[i + a] && !id->rbusy[i + b]);
}

struct graph {
	struct lec_problem lp;
	int *left, *right, *lstart, *list, *colour;
};

static void graph_free(struct graph *g)
{
	free(g->left);
	free(g->right);
	free(g->lstart);
	free(g->list);
	free(g->colour);
}

/*
 * Lists for n phases. The hint puts the transfer a -> a + k in phase
 * pf + k - 1 when that phase exists: with m0 - 1 free phases after the
 * inter-leaf pattern this alone is a solution, so the search always ends.
 */
static int graph_build(struct graph *g, const struct idle *id, uint32_t n)
{
	uint32_t m0 = id->m0, ne = m0 * (m0 - 1), a, b, p;
	size_t len = 0;

	memset(g, 0, sizeof(*g));
	g->left = malloc(sizeof(int) * (ne + 1));
	g->right = malloc(sizeof(int) * (ne + 1));
	g->lstart = malloc(sizeof(int) * (ne + 1));
	g->colour = malloc(sizeof(int) * (ne + 1));
	if (!g->left || !g->right || !g->lstart || !g->colour)
		return -1;
	for (a = 0; a < m0; a++)
		for (b = 0; b < m0; b++)
			for (p = 0; b != a && p < n; p++)
				len += usable(id, a, b, p);
	g->list = malloc(sizeof(int) * (len + 1));
	if (!g->list)
		return -1;
	len = 0;
	for (a = 0; a < m0; a++) {
		for (b = 0; b < m0; b++) {
			uint32_t e = intra_edge(m0, a, b);
			uint32_t hint = id->pf + (b + m0 - a) % m0 - 1;

			if (a == b)
				continue;
			g->left[e] = (int)a;
			g->right[e] = (int)b;
			g->lstart[e] = (int)len;
			g->colour[e] = hint < n ? (int)hint : -1;
			for (p = 0; p < n; p++)
				if (usable(id, a, b, p))
					g->list[len++] = (int)p;
		}
	}
	g->lstart[ne] = (int)len;
	g->lp = (struct lec_problem){
		.nleft = (int)m0, .nright = (int)m0, .ncolours = (int)n,
		.nedges = (int)ne, .left = g->left, .right = g->right,
		.lstart = g->lstart, .list = g->list,
	};
	return 0;
}

/*
 * Wide lists (hundreds of phases) make exact-search nodes expensive here;
 * the repair does most of the work. Measured in doc/schedule.md.
 */
static const struct lec_budget intra_budget = {
	.repair_moves = 200000,
	.restarts = 4,
	.exact_nodes = 20000,
	.seed = 0x9e3779b97f4a7c15ull,
};

static int try_count(const struct idle *id, uint32_t n, uint32_t *phase)
{
	struct graph g;
	int r = LEC_NOMEM;
	uint32_t e;

	if (graph_build(&g, id, n) == 0)
		r = lec_solve(&g.lp, g.colour, &intra_budget);
	if (r == LEC_SOLVED)
		for (e = 0; e < (uint32_t)g.lp.nedges; e++)
			phase[e] = (uint32_t)g.colour[e];
	graph_free(&g);
	return r;
}

int intra_fill(const struct inter *in, uint32_t *phase, uint32_t *nphases,
	       struct fors_intra_info *info)
{
	uint32_t p1 = in->m0 * in->m1 - 1;
	uint32_t n = in->pf > p1 ? in->pf : p1;
	struct idle id;
	int r = LEC_NOMEM;

	info->pf = in->pf;
	info->lower_bound = n;
	info->proven_from = n;
	if (idle_init(&id, in) == 0) {
		for (;; n++) {
			r = try_count(&id, n, phase);
			if (r != LEC_INFEASIBLE && r != LEC_UNKNOWN)
				break;
			if (r == LEC_INFEASIBLE && info->proven_from == n)
				info->proven_from = n + 1;
		}
	}
	free(id.sbusy);
	free(id.rbusy);
	*nphases = n;
	return r == LEC_SOLVED ? 0 : -1;
}
