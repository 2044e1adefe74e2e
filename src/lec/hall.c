// SPDX-License-Identifier: MIT
/*
 * Cheap necessary conditions that prove many instances infeasible at
 * once: Hall's condition at each vertex, and the colour classes, each a
 * matching, which together must cover all edges and each cover the
 * vertices that need every colour they have.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lec/hall.h"

/*
 * Kuhn's augmenting path over one vertex's edges and their colours. A free
 * colour is taken before any path is followed: most edges find one, and
 * the paths stay short.
 */
static int augment(const struct lec_problem *p, const int *edges, int i,
		   int *owner, int *seen, int stamp)
{
	int e = edges[i], k;

	for (k = p->lstart[e]; k < p->lstart[e + 1]; k++)
		if (owner[p->list[k]] < 0) {
			owner[p->list[k]] = i;
			return 1;
		}
	for (k = p->lstart[e]; k < p->lstart[e + 1]; k++) {
		int c = p->list[k];

		if (seen[c] == stamp)
			continue;
		seen[c] = stamp;
		if (owner[c] < 0 ||
		    augment(p, edges, owner[c], owner, seen, stamp)) {
			owner[c] = i;
			return 1;
		}
	}
	return 0;
}

/*
 * Hall holds at once when every list at v is at least as long as v has
 * edges: any k of them offer at least that many colours.
 */
static int lists_long(const struct lec_problem *p, const int *vstart,
		      const int *vedges, int v)
{
	int i, deg = vstart[v + 1] - vstart[v];

	for (i = vstart[v]; i < vstart[v + 1]; i++)
		if (p->lstart[vedges[i] + 1] - p->lstart[vedges[i]] < deg)
			return 0;
	return 1;
}

/*
 * Necessary condition: the edges at each vertex need distinct colours from
 * their lists, i.e. a matching of edges into colours that covers them all.
 */
static int vertex_hall(const struct lec_problem *p, const int *vstart,
		       const int *vedges, int nv)
{
	int *owner = malloc(sizeof(int) * p->ncolours);
	int *seen = calloc(p->ncolours, sizeof(int));
	int v, i, ok = 1, stamp = 0;

	if (!owner || !seen) {
		free(owner);
		free(seen);
		return -1;
	}
	for (v = 0; v < nv && ok; v++) {
		if (lists_long(p, vstart, vedges, v))
			continue;
		memset(owner, 0xff, sizeof(int) * p->ncolours);
		for (i = vstart[v]; i < vstart[v + 1] && ok; i++)
			ok = augment(p, vedges + vstart[v], i - vstart[v],
				     owner, seen, ++stamp);
	}
	free(owner);
	free(seen);
	return ok;
}

int lec_prechecks(const struct lec_problem *p, const int *ls,
		  const int *le, const int *rs, const int *re)
{
	int e, r;

	for (e = 0; e < p->nedges; e++)
		if (p->lstart[e + 1] == p->lstart[e])
			return 0;
	r = vertex_hall(p, ls, le, p->nleft);
	return r == 1 ? vertex_hall(p, rs, re, p->nright) : r;
}

/* The colour classes and the scratch of their matchings. */
struct colour_classes {
	const struct lec_problem *p;
	int *cs, *ce;		/* edges by colour (CSR) */
	int *as, *al;		/* one class's neighbours by vertex (CSR) */
	int *mate, *seen, stamp;
	uint8_t *tight[2];	/* vertex has as many edges as colours */
};

/*
 * Colour c's edges as neighbour lists of the vertices of one side, so that
 * an augmenting path reads a vertex's own edges and not the whole class.
 */
static void neighbours(struct colour_classes *x, int c, int side, int nv)
{
	const struct lec_problem *p = x->p;
	const int *from = side ? p->right : p->left;
	const int *to = side ? p->left : p->right;
	int k, v;

	memset(x->as, 0, sizeof(int) * (nv + 1));
	for (k = x->cs[c]; k < x->cs[c + 1]; k++)
		x->as[from[x->ce[k]] + 1]++;
	for (v = 0; v < nv; v++)
		x->as[v + 1] += x->as[v];
	for (k = x->cs[c]; k < x->cs[c + 1]; k++)
		x->al[x->as[from[x->ce[k]]]++] = to[x->ce[k]];
	for (v = nv; v > 0; v--)
		x->as[v] = x->as[v - 1];
	x->as[0] = 0;
}

/*
 * Kuhn's augmenting path from vertex v over one class's neighbour lists, a
 * free neighbour first (as augment() above).
 */
static int augment_colour(const struct colour_classes *x, int v, int stamp)
{
	int i;

	for (i = x->as[v]; i < x->as[v + 1]; i++)
		if (x->mate[x->al[i]] < 0) {
			x->mate[x->al[i]] = v;
			return 1;
		}
	for (i = x->as[v]; i < x->as[v + 1]; i++) {
		int y = x->al[i];

		if (x->seen[y] == stamp)
			continue;
		x->seen[y] = stamp;
		if (x->mate[y] < 0 || augment_colour(x, x->mate[y], stamp)) {
			x->mate[y] = v;
			return 1;
		}
	}
	return 0;
}

/*
 * Match one colour's edges from one side: tight vertices first, since a
 * tight vertex must use every colour it has (with no augmenting path from
 * it no matching covers it and those matched before). Returns the
 * matching size, or -1 when a tight vertex cannot be matched.
 */
static int colour_matching(struct colour_classes *x, int c, int side)
{
	const struct lec_problem *p = x->p;
	int nf = side ? p->nright : p->nleft, nt = side ? p->nleft : p->nright;
	int pass, v, got, size = 0;

	neighbours(x, c, side, nf);
	memset(x->mate, 0xff, sizeof(int) * nt);
	for (pass = 0; pass < 2; pass++) {
		for (v = 0; v < nf; v++) {
			if (x->as[v] == x->as[v + 1] ||
			    x->tight[side][v] != !pass)
				continue;
			got = augment_colour(x, v, ++x->stamp);
			if (!got && !pass)
				return -1;
			size += got;
		}
	}
	return size;
}

/* Vertices whose edges have exactly as many distinct colours as edges. */
static void tight_vertices(struct colour_classes *x, int side, const int *vs,
			   const int *ve, int nv)
{
	const struct lec_problem *p = x->p;
	int v, i, k, distinct;

	for (v = 0; v < nv; v++) {
		x->stamp++;
		distinct = 0;
		for (i = vs[v]; i < vs[v + 1]; i++) {
			int e = ve[i];

			for (k = p->lstart[e]; k < p->lstart[e + 1]; k++) {
				if (x->seen[p->list[k]] == x->stamp)
					continue;
				x->seen[p->list[k]] = x->stamp;
				distinct++;
			}
		}
		x->tight[side][v] = distinct == vs[v + 1] - vs[v];
	}
}

/*
 * Necessary conditions on the colour classes, each a matching: together
 * they must cover all edges (their maximum matchings add up), and each
 * must cover every tight vertex that has its colour.
 */
static int colour_checks(struct colour_classes *x, const int *ls, const int *le,
			 const int *rs, const int *re)
{
	const struct lec_problem *p = x->p;
	int nl = p->lstart[p->nedges], c, e, k, total = 0, m;

	for (k = 0; k < nl; k++)
		x->cs[p->list[k] + 1]++;
	for (c = 0; c < p->ncolours; c++)
		x->cs[c + 1] += x->cs[c];
	for (e = 0; e < p->nedges; e++)
		for (k = p->lstart[e]; k < p->lstart[e + 1]; k++)
			x->ce[x->cs[p->list[k]]++] = e;
	for (c = p->ncolours; c > 0; c--)
		x->cs[c] = x->cs[c - 1];
	x->cs[0] = 0;
	tight_vertices(x, 0, ls, le, p->nleft);
	tight_vertices(x, 1, rs, re, p->nright);
	for (c = 0; c < p->ncolours; c++) {
		m = colour_matching(x, c, 0);
		if (m < 0 || colour_matching(x, c, 1) < 0)
			return 0;
		total += m;
	}
	return total >= p->nedges;
}

int lec_colour_capacity(const struct lec_problem *p, const int *ls,
			const int *le, const int *rs, const int *re)
{
	int nv = (p->nleft > p->nright ? p->nleft : p->nright) + 1;
	int big = nv > p->ncolours ? nv : p->ncolours + 1;
	struct colour_classes x = { .p = p };
	int r = -1;

	x.cs = calloc(p->ncolours + 2, sizeof(int));
	x.ce = malloc(sizeof(int) * (p->lstart[p->nedges] + 1));
	x.mate = malloc(sizeof(int) * nv);
	x.seen = calloc(big, sizeof(int));
	x.tight[0] = malloc(nv);
	x.tight[1] = malloc(nv);
	x.as = malloc(sizeof(int) * (nv + 1));
	x.al = malloc(sizeof(int) * (p->nedges + 1));
	if (x.cs && x.ce && x.mate && x.seen && x.tight[0] && x.tight[1] &&
	    x.as && x.al)
		r = colour_checks(&x, ls, le, rs, re);
	free(x.cs);
	free(x.ce);
	free(x.mate);
	free(x.seen);
	free(x.tight[0]);
	free(x.tight[1]);
	free(x.as);
	free(x.al);
	return r;
}
