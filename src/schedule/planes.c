// SPDX-License-Identifier: MIT
/*
 * Planes with the phases (doc/schedule.md, "The cyclic schedule", step
 * 3). A phase is congestion-free when no two of its inter-leaf transfers
 * share a leaf's cable up or down. A phase's planes alone are a list edge
 * colouring of its leaf multigraph, which may have no solution; here a
 * transfer that finds no free plane can also change phase, by a Kempe
 * swap of two phases (as in schedule/rebalance.c), and the transfers the
 * swap moves take the best planes of their new phase. The cost is the
 * number of transfers too many on some (phase, leaf, cable); moves that
 * do not raise it are kept, and a few that do, so the search leaves local
 * minima.
 */
#include <stdlib.h>
#include <string.h>

#include "lec/lec.h"
#include "schedule/planes.h"
#include "schedule/xorshift.h"

/* The search's state over the phase tables it changes. */
struct ps {
	struct fors_phases *ph;
	const struct fors_plane_params *pp;
	int16_t *pl;		/* [t * nh]: the plane of a's transfer */
	uint16_t *up, *dn;	/* [(p * m1 + l) * q + c]: transfers on cable
				   c, the plane whose cable it is */
	int64_t cost;		/* transfers too many, all links */
	int64_t *pcost;		/* [t]: those of the phase */
	uint32_t *bad, *at;	/* the phases with a cost; [t]: index */
	uint32_t nbad;
	int stuck;		/* a transfer whose leaves share no plane */
	uint32_t *cfirst;	/* [m1 * m1 + 1]: common planes of two leaves */
	uint16_t *common;
	struct fors_kempe_hop *path;	/* [2 * nh + 2] */
	int16_t *saved;		/* [2 * nh + 2]: the path's planes before */
	uint64_t rng;
	uint64_t work;		/* counts changed and planes looked at */
	int *left, *right, *lstart, *list, *colour;	/* one phase's lec */
	uint32_t *edge;		/* [nh]: sender of the phase's edge */
};

static uint32_t next(struct ps *s, uint32_t bound)
{
	return fors_xorshift(&s->rng, bound);
}

/* The count of the cable plane x takes at leaf l in phase p. */
static size_t cell(const struct ps *s, uint32_t p, uint32_t l, uint32_t x)
{
	uint32_t c = (uint32_t)s->pp->cable[l * s->pp->q + x];

	return ((size_t)p * s->ph->m1 + l) * s->pp->q + c;
}

/* Keep the list of phases with a cost in step with pcost[p]. */
static void mark(struct ps *s, uint32_t p)
{
	if (s->pcost[p] && s->at[p] == UINT32_MAX) {
		s->at[p] = s->nbad;
		s->bad[s->nbad++] = p;
	} else if (!s->pcost[p] && s->at[p] != UINT32_MAX) {
		s->bad[s->at[p]] = s->bad[--s->nbad];
		s->at[s->bad[s->at[p]]] = s->at[p];
		s->at[p] = UINT32_MAX;
	}
}

/* Transfer a -> b of phase p on plane x, counted in (1) or out (-1). */
static void use(struct ps *s, uint32_t p, uint32_t a, uint32_t b, int x,
		int sign)
{
	const struct fors_phases *ph = s->ph;
	uint16_t *u, *d;
	int64_t c;

	if (x < 0)
		return;
	u = &s->up[cell(s, p, ph->leaf[a], (uint32_t)x)];
	d = &s->dn[cell(s, p, ph->leaf[b], (uint32_t)x)];
	if (sign > 0) {
		c = (*u >= 1) + (*d >= 1);
		++*u;
		++*d;
	} else {
		--*u;
		--*d;
		c = -((*u >= 1) + (*d >= 1));
	}
	s->pcost[p] += c;
	s->cost += c;
	s->work++;
	mark(s, p);
}

/* What plane x would add to phase p's cost for a transfer la -> lb. */
static int extra(const struct ps *s, uint32_t p, uint32_t la, uint32_t lb,
		 uint32_t x)
{
	return (s->up[cell(s, p, la, x)] >= 1) + (s->dn[cell(s, p, lb, x)] >= 1);
}

/*
 * The cheapest common plane for a -> b in phase p (the transfer counted
 * out): x itself when nothing is cheaper, else the first from a random
 * start.
 */
static int best(struct ps *s, uint32_t p, uint32_t a, uint32_t b, int x)
{
	const struct fors_phases *ph = s->ph;
	uint32_t la = ph->leaf[a], lb = ph->leaf[b], k = la * ph->m1 + lb;
	uint32_t n = s->cfirst[k + 1] - s->cfirst[k], i, o, y;
	int c, low = x >= 0 ? extra(s, p, la, lb, (uint32_t)x) : 3;
	int pick = x;

	if (s->pp->fixed)
		return s->pp->fixed[(size_t)la * ph->nh + b];
	s->work += n;
	for (i = 0, o = n ? next(s, n) : 0; i < n && low; i++) {
		y = s->common[s->cfirst[k] + (i + o) % n];
		c = extra(s, p, la, lb, y);
		if (c < low) {
			low = c;
			pick = (int)y;
		}
	}
	return pick;
}

/* Give a -> b of phase p the cheapest plane; 1 when it got cheaper. */
static int relabel(struct ps *s, uint32_t p, uint32_t a)
{
	size_t at = (size_t)p * s->ph->nh + a;
	uint32_t b = s->ph->send[at];
	int x = s->pl[at], y;
	int64_t before = s->cost;

	use(s, p, a, b, x, -1);
	y = best(s, p, a, b, x);
	use(s, p, a, b, y, 1);
	s->pl[at] = (int16_t)y;
	return s->cost < before;
}

/* A sender of phase p whose transfer shares a link; FORS_IDLE: none. */
static uint32_t culprit(struct ps *s, uint32_t p)
{
	const struct fors_phases *ph = s->ph;
	uint32_t n = ph->nh, i, a, o = next(s, n);

	s->work += n;
	for (i = 0; i < n; i++) {
		size_t at = (size_t)p * n + (a = (i + o) % n);
		int x = s->pl[at];
		uint32_t b = ph->send[at];

		if (x >= 0 && (s->up[cell(s, p, ph->leaf[a], (uint32_t)x)] > 1 ||
			       s->dn[cell(s, p, ph->leaf[b], (uint32_t)x)] > 1))
			return a;
	}
	return FORS_IDLE;
}

/* The path's transfers out of their phases, their planes kept aside (1). */
static void lift(struct ps *s, uint32_t len, int save)
{
	struct fors_phases *ph = s->ph;
	uint32_t i;

	for (i = 0; i < len; i++) {
		const struct fors_kempe_hop *h = &s->path[i];
		size_t at = (size_t)h->p * ph->nh;

		if (save)
			s->saved[i] = s->pl[at + h->s];
		use(s, h->p, h->s, h->r, s->pl[at + h->s], -1);
		s->pl[at + h->s] = FORS_NO_PLANE;
		ph->send[at + h->s] = FORS_IDLE;
		ph->recv[at + h->r] = FORS_IDLE;
	}
}

/* The path's transfers into their phases: planes kept (1) or chosen. */
static void land(struct ps *s, uint32_t len, int keep)
{
	struct fors_phases *ph = s->ph;
	uint32_t i;

	for (i = 0; i < len; i++) {
		const struct fors_kempe_hop *h = &s->path[i];
		size_t at = (size_t)h->p * ph->nh;
		int x = s->saved[i];

		ph->send[at + h->s] = h->r;
		ph->recv[at + h->r] = h->s;
		if (!keep && x >= 0)
			x = best(s, h->p, h->s, h->r, x);
		s->pl[at + h->s] = (int16_t)x;
		use(s, h->p, h->s, h->r, x, 1);
	}
}

/*
 * Swap phases p and q along the path through a's transfer in p, the
 * moved transfers on their best planes; undone when the cost rises and
 * the temperature does not allow it.
 */
/*
 * A phase other than p with a plane free at both ends for a -> b: the
 * first of a few random ones, else any.
 */
static uint32_t room(struct ps *s, uint32_t p, uint32_t a)
{
	const struct fors_phases *ph = s->ph;
	uint32_t b = ph->send[(size_t)p * ph->nh + a], i, j, q = p;
	uint32_t la = ph->leaf[a], lb = ph->leaf[b], k = la * ph->m1 + lb;

	for (i = 0; i < 16; i++) {
		q = next(s, ph->t - 1);
		q += q >= p;
		if (s->pp->fixed && s->pp->fixed[(size_t)la * ph->nh + b] >= 0 &&
		    !extra(s, q, la, lb, (uint32_t)
			   s->pp->fixed[(size_t)la * ph->nh + b]))
			return q;
		for (j = s->cfirst[k]; !s->pp->fixed && j < s->cfirst[k + 1]; j++)
			if (!extra(s, q, la, lb, s->common[j]))
				return q;
	}
	return q;
}

static void kempe(struct ps *s, uint32_t p, uint32_t a, uint32_t temp)
{
	uint32_t q = room(s, p, a), len, i;
	int64_t before = s->cost, d;

	len = fors_kempe_path(s->ph, a, p, q, s->path);
	lift(s, len, 1);
	for (i = 0; i < len; i++)
		s->path[i].p = s->path[i].p == p ? q : p;
	land(s, len, 0);
	d = s->cost - before;
	if (d <= 0 || (d == 1 && next(s, 1000) < temp))
		return;
	lift(s, len, 0);
	for (i = 0; i < len; i++)
		s->path[i].p = s->path[i].p == p ? q : p;
	land(s, len, 1);
}

/* One move: a shared link's transfer to a cheaper plane, or phase. */
static void step(struct ps *s, uint32_t temp)
{
	uint32_t p = s->bad[next(s, s->nbad)], a = culprit(s, p);

	if (a == FORS_IDLE || relabel(s, p, a) || s->ph->t < 2)
		return;
	kempe(s, p, a, temp);
}

static int setup(struct ps *s, struct fors_phases *ph,
		 const struct fors_plane_params *pp, int16_t *plane)
{
	uint32_t m1 = ph->m1, q = pp->q, la, lb, x, n = 0;
	size_t cells = (size_t)ph->t * m1 * q + 1;

	s->ph = ph;
	s->pp = pp;
	s->pl = plane;
	s->rng = pp->seed | 1;
	s->up = calloc(cells, sizeof(uint16_t));
	s->dn = calloc(cells, sizeof(uint16_t));
	s->pcost = calloc(ph->t + 1, sizeof(int64_t));
	s->bad = malloc(sizeof(uint32_t) * (ph->t + 1));
	s->at = malloc(sizeof(uint32_t) * (ph->t + 1));
	s->cfirst = calloc((size_t)m1 * m1 + 1, sizeof(uint32_t));
	s->common = malloc(sizeof(uint16_t) * ((size_t)m1 * m1 * q + 1));
	s->path = malloc(sizeof(struct fors_kempe_hop) * (2 * (size_t)ph->nh + 2));
	s->saved = malloc(sizeof(int16_t) * (2 * (size_t)ph->nh + 2));
	s->left = malloc(sizeof(int) * (ph->nh + 1));
	s->right = malloc(sizeof(int) * (ph->nh + 1));
	s->lstart = malloc(sizeof(int) * (ph->nh + 1));
	s->colour = malloc(sizeof(int) * (ph->nh + 1));
	s->edge = malloc(sizeof(uint32_t) * (ph->nh + 1));
	s->list = malloc(sizeof(int) * ((size_t)ph->nh * q + 1));
	if (!s->up || !s->dn || !s->pcost || !s->bad || !s->at ||
	    !s->cfirst || !s->common || !s->path || !s->saved || !s->left ||
	    !s->right || !s->lstart || !s->colour || !s->edge || !s->list)
		return -1;
	memset(s->at, 0xff, sizeof(uint32_t) * ph->t);
	for (la = 0; la < m1; la++)
		for (lb = 0; lb < m1; lb++) {
			s->cfirst[la * m1 + lb] = n;
			for (x = 0; x < q; x++)
				if (pp->cable[la * q + x] >= 0 &&
				    pp->cable[lb * q + x] >= 0)
					s->common[n++] = (uint16_t)x;
		}
	s->cfirst[m1 * m1] = n;
	return 0;
}

/*
 * A short repair (no proof: a phase it cannot colour is the search's) and
 * the solver's largest partial colouring where it fails.
 */
static const struct lec_budget start_budget = {
	.repair_moves = 2000,
	.restarts = 1,
	.seed = 0x9e3779b97f4a7c15ull,
};

/* Phase p's inter-leaf transfers coloured by the solver; -1: no memory. */
static int colour(struct ps *s, uint32_t p)
{
	const struct fors_phases *ph = s->ph;
	uint32_t m1 = ph->m1, a, b, k, n = 0, len = 0, i;
	struct lec_problem lp;

	for (a = 0; a < ph->nh; a++) {
		b = ph->send[(size_t)p * ph->nh + a];
		if (b == FORS_IDLE || ph->leaf[a] == ph->leaf[b])
			continue;
		k = ph->leaf[a] * m1 + ph->leaf[b];
		s->edge[n] = a;
		s->left[n] = (int)ph->leaf[a];
		s->right[n] = (int)ph->leaf[b];
		s->lstart[n] = (int)len;
		for (i = s->cfirst[k]; i < s->cfirst[k + 1]; i++)
			s->list[len++] = s->common[i];
		s->colour[n++] = -1;
	}
	s->lstart[n] = (int)len;
	lp = (struct lec_problem){ (int)m1, (int)m1, (int)s->pp->q, (int)n,
				   s->left, s->right, s->lstart, s->list };
	if (n && lec_solve(&lp, s->colour, &start_budget) == LEC_NOMEM)
		return -1;
	for (i = 0; i < n; i++)
		s->pl[(size_t)p * ph->nh + s->edge[i]] = (int16_t)s->colour[i];
	return 0;
}

/*
 * Every phase coloured by the solver; its uncoloured transfers, and
 * those whose leaves share no plane, on their cheapest plane.
 */
static int start(struct ps *s)
{
	const struct fors_phases *ph = s->ph;
	uint32_t p, a, b;

	for (p = 0; p < ph->t; p++) {
		for (a = 0; a < ph->nh; a++)
			s->pl[(size_t)p * ph->nh + a] = FORS_NO_PLANE;
		if (!s->pp->fixed && colour(s, p))
			return -1;
		for (a = 0; a < ph->nh; a++) {
			size_t at = (size_t)p * ph->nh + a;

			b = ph->send[at];
			if (b == FORS_IDLE || ph->leaf[a] == ph->leaf[b])
				continue;
			if (s->pl[at] < 0)
				s->pl[at] = (int16_t)best(s, p, a, b,
							  FORS_NO_PLANE);
			s->stuck |= s->pl[at] < 0;
			use(s, p, a, b, s->pl[at], 1);
		}
	}
	return 0;
}

/* The planes of a phase left with a conflict, unset. */
static void unset(struct ps *s)
{
	uint32_t p, a;

	for (p = 0; p < s->ph->t; p++)
		for (a = 0; s->pcost[p] && a < s->ph->nh; a++)
			s->pl[(size_t)p * s->ph->nh + a] = FORS_NO_PLANE;
}

/*
 * Moves while conflicts are left, within the budget of work, and until a
 * quarter of it passes without a new least cost. Uphill moves of one
 * conflict are kept with a chance falling from 1 in 5 to none.
 */
static void search(struct ps *s)
{
	uint64_t budget = s->pp->work, best_at = 0;
	int64_t least = s->cost;

	while (!s->stuck && s->cost && s->work < budget &&
	       s->work - best_at <= budget / 4) {
		step(s, (uint32_t)(200 - 200 * s->work / budget));
		if (s->cost < least) {
			least = s->cost;
			best_at = s->work;
		}
	}
}

int64_t fors_phase_planes(struct fors_phases *ph,
			  const struct fors_plane_params *pp, int16_t *plane)
{
	struct ps s = { 0 };
	int64_t r = setup(&s, ph, pp, plane);

	if (!r)
		r = start(&s);
	if (!r) {
		search(&s);
		r = s.cost + s.stuck;
		unset(&s);
	}
	free(s.up);
	free(s.dn);
	free(s.pcost);
	free(s.bad);
	free(s.at);
	free(s.cfirst);
	free(s.common);
	free(s.path);
	free(s.saved);
	free(s.left);
	free(s.right);
	free(s.lstart);
	free(s.colour);
	free(s.edge);
	free(s.list);
	return r;
}
