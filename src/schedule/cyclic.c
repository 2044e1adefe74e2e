// SPDX-License-Identifier: MIT
/*
 * The cyclic schedule (doc/schedule.md, "The cyclic schedule"): the N
 * present hosts and t + 1 - N idle positions on a circle of t + 1, the
 * host at position a sending in phase p = 1 .. t to the host at a + p.
 * Every phase is a partial permutation and every ordered pair meets in
 * exactly one phase, so the count is t whatever the placement. What the
 * placement decides is how many transfers leave and enter each leaf in
 * each phase: a leaf L with more hosts than live uplinks U_L needs, for
 * every shift p, at most U_L of its positions a with a + p on another
 * leaf (and as many with a - p). A seeded simulated annealing swaps
 * positions towards no leaf over its uplinks in any phase, and the
 * rebalancing (schedule/rebalance.c) moves what it leaves over: the same
 * input gives the same schedule.
 */
#include <stdlib.h>
#include <string.h>

#include "schedule/cyclic.h"
#include "schedule/pack.h"
#include "schedule/planes.h"
#include "schedule/rebalance.h"
#include "schedule/xorshift.h"

/*
 * The circle. For a leaf k with more hosts than uplinks, S_k its
 * positions and F_k = S_k and the idle ones (where a transfer from S_k
 * stays off the uplinks), cover_k(d) counts the positions a of S_k with
 * a + d in F_k: the leaf sends n_k - cover_k(d) transfers out in phase
 * d, so it needs cover_k(d) >= n_k - U_k; and the same backwards for
 * what it receives.
 */
struct circle {
	const struct fors_cyclic_params *cp;
	uint32_t n;		/* positions: t + 1 */
	uint32_t idle;		/* the class of an empty position: m1 */
	uint32_t none;		/* a position on its way between classes */
	uint32_t *cls;		/* [n]: leaf of the host there, or idle */
	uint32_t *host;		/* [n]: its host id (sid) */
	uint32_t nc;		/* constrained leaves */
	uint32_t *cl;		/* [nc]: their leaves */
	int32_t *need;		/* [nc]: hosts - uplinks */
	int32_t *ci;		/* [m1]: index into cl, -1 */
	uint32_t *pos;		/* [nc * m0]: each one's positions */
	uint32_t *npos;		/* [nc] */
	uint32_t *ipos;		/* [n]: the idle positions */
	uint32_t nidle;
	uint32_t *at;		/* [n]: index of the position in its list */
	int32_t *out, *in;	/* [nc * n]: cover_k(d), forwards, backwards */
	int64_t cost;		/* covers missing, summed: transfers over */
	uint64_t work;		/* covers changed so far */
	uint64_t rng;
};

static uint32_t next(struct circle *c, uint32_t bound)
{
	return fors_xorshift(&c->rng, bound);
}

static int64_t missing(int32_t v, int32_t need)
{
	return v < need ? need - v : 0;
}

static void cover(struct circle *c, int32_t *a, uint32_t k, uint32_t d,
		  int sign)
{
	int32_t *v = &a[(size_t)k * c->n + d];

	c->cost -= missing(*v, c->need[k]);
	c->work++;
	*v += sign;
	c->cost += missing(*v, c->need[k]);
}

/* The pairs (x, t), t in F_k: x a position of S_k. */
static void as_member(struct circle *c, uint32_t k, uint32_t x, int sign)
{
	const uint32_t *p = c->pos + (size_t)k * c->cp->m0;
	uint32_t n = c->n, i;

	for (i = 0; i < c->npos[k]; i++)
		if (p[i] != x) {
			cover(c, c->out, k, (p[i] + n - x) % n, sign);
			cover(c, c->in, k, (x + n - p[i]) % n, sign);
		}
	for (i = 0; i < c->nidle; i++) {
		cover(c, c->out, k, (c->ipos[i] + n - x) % n, sign);
		cover(c, c->in, k, (x + n - c->ipos[i]) % n, sign);
	}
}

/* The pairs (a, x), a in S_k: x a position of F_k. */
static void as_friend(struct circle *c, uint32_t k, uint32_t x, int sign)
{
	const uint32_t *p = c->pos + (size_t)k * c->cp->m0;
	uint32_t n = c->n, i;

	for (i = 0; i < c->npos[k]; i++)
		if (p[i] != x) {
			cover(c, c->out, k, (x + n - p[i]) % n, sign);
			cover(c, c->in, k, (p[i] + n - x) % n, sign);
		}
}

/* Position x's pairs added to the covers (sign 1) or taken out (-1). */
static void touch(struct circle *c, uint32_t x, int sign)
{
	uint32_t cx = c->cls[x], k;

	if (cx == c->idle) {
		for (k = 0; k < c->nc; k++)
			as_friend(c, k, x, sign);
	} else if (cx < c->idle && c->ci[cx] >= 0) {
		as_member(c, (uint32_t)c->ci[cx], x, sign);
		as_friend(c, (uint32_t)c->ci[cx], x, sign);
	}
}

/* The list position x belongs to in class cls, and its length. */
static uint32_t *list(struct circle *c, uint32_t cls, uint32_t **len)
{
	if (cls == c->idle) {
		*len = &c->nidle;
		return c->ipos;
	}
	if (cls > c->idle || c->ci[cls] < 0)
		return NULL;
	*len = &c->npos[c->ci[cls]];
	return c->pos + (size_t)c->ci[cls] * c->cp->m0;
}

/* Position x leaves its class for cls (the covers untouched). */
static void set_class(struct circle *c, uint32_t x, uint32_t cls)
{
	uint32_t *len, *p = list(c, c->cls[x], &len);

	if (p) {
		p[c->at[x]] = p[--*len];
		c->at[p[*len]] = c->at[x];
	}
	c->cls[x] = cls;
	p = list(c, cls, &len);
	if (p) {
		c->at[x] = *len;
		p[(*len)++] = x;
	}
}

/* Swap what positions x and y hold, the covers following. */
static void swap(struct circle *c, uint32_t x, uint32_t y)
{
	uint32_t cx = c->cls[x], cy = c->cls[y], h = c->host[x];

	touch(c, x, -1);
	set_class(c, x, c->none);
	touch(c, y, -1);
	set_class(c, y, c->none);
	set_class(c, x, cy);
	touch(c, x, 1);
	set_class(c, y, cx);
	touch(c, y, 1);
	c->host[x] = c->host[y];
	c->host[y] = h;
}

/*
 * The hosts on seeded random positions, the rest idle: each enters the
 * covers against those placed before it. With fixed planes, in sid
 * order from position 0: the base map gives hosts in a row planes in a
 * row (routing/basemap.c), so every run of positions is reached through
 * different planes.
 */
static void place(struct circle *c)
{
	const struct fors_cyclic_params *cp = c->cp;
	uint32_t *order = c->at, x, h, i = 0, j;	/* at is free till then */

	for (x = 0; x < c->n; x++) {
		c->cls[x] = c->none;
		order[x] = x;
	}
	for (x = c->n; !cp->fixed && x > 1; x--) {
		j = next(c, x);
		h = order[x - 1];
		order[x - 1] = order[j];
		order[j] = h;
	}
	for (h = 0; h < cp->m0 * cp->m1; h++)
		if (cp->present[h])
			c->host[order[i++]] = h;
	for (x = 0; x < c->n; x++) {
		h = c->host[x];
		set_class(c, x, h == UINT32_MAX ? c->idle : h / cp->m0);
		touch(c, x, 1);
	}
}

/* The covers every constrained leaf needs: n_k - U_k for every shift. */
static void start_covers(struct circle *c)
{
	uint32_t k;

	for (k = 0; k < c->nc; k++)
		c->cost += 2 * (int64_t)c->need[k] * (c->n - 1);
}

/*
 * Simulated annealing over swaps of a constrained leaf's position with any
 * other: a swap that adds d missing covers is kept with probability
 * a^d, a falling geometrically from 0.8 to 0.003 over the budget. The
 * search gives up when the best placement has not improved for a
 * tenth of the budget, or when its covers changed cp->work times: a
 * placement the plateau hides is not worth the subnet manager's time
 * (doc/schedule.md).
 */
static void search(struct circle *c)
{
	uint64_t m, budget = c->cp->moves, best_at = 0;
	double a = 0.8, fall = budget ? 1.0 - 5.6 / (double)budget : 1.0;
	int64_t best = c->cost;

	for (m = 0; m < budget && c->cost > 0 && m - best_at <= budget / 10 &&
	     c->work < c->cp->work; m++, a *= fall) {
		int64_t before = c->cost, d;
		uint32_t k = next(c, c->nc), x, y;
		double p = 1.0;

		if (!c->npos[k])
			continue;
		x = c->pos[(size_t)k * c->cp->m0 + next(c, c->npos[k])];
		y = next(c, c->n);
		if (c->cls[y] == c->cls[x])
			continue;
		swap(c, x, y);
		for (d = before; d < c->cost; d++)
			p *= a;
		if (p < 1.0 && next(c, 1u << 30) >= p * (double)(1u << 30))
			swap(c, x, y);
		if (c->cost < best) {
			best = c->cost;
			best_at = m;
		}
	}
}

static int setup(struct circle *c, const struct fors_cyclic_params *cp)
{
	uint32_t l, h, *n = calloc(cp->m1 + 1, sizeof(uint32_t));

	c->cp = cp;
	c->n = cp->t + 1;
	c->idle = cp->m1;
	c->none = cp->m1 + 1;
	c->rng = 0x9e3779b97f4a7c15ull ^ ((uint64_t)cp->t << 32) ^ cp->m1 ^
		 (cp->seed * 0x2545f4914f6cdd1dull);
	c->cls = malloc(sizeof(uint32_t) * c->n);
	c->host = malloc(sizeof(uint32_t) * c->n);
	c->at = malloc(sizeof(uint32_t) * c->n);
	c->cl = malloc(sizeof(uint32_t) * (cp->m1 + 1));
	c->ci = malloc(sizeof(int32_t) * (cp->m1 + 1));
	c->need = malloc(sizeof(int32_t) * (cp->m1 + 1));
	c->ipos = malloc(sizeof(uint32_t) * c->n);
	if (!n || !c->cls || !c->host || !c->at || !c->cl || !c->ci ||
	    !c->need || !c->ipos) {
		free(n);
		return FORS_ENOMEM;
	}
	memset(c->host, 0xff, sizeof(uint32_t) * c->n);
	for (h = 0; h < cp->m0 * cp->m1; h++)
		n[h / cp->m0] += cp->present[h];
	for (l = 0; l < cp->m1; l++) {
		c->ci[l] = n[l] > cp->uplinks[l] ? (int32_t)c->nc : -1;
		if (n[l] > cp->uplinks[l]) {
			c->need[c->nc] = (int32_t)(n[l] - cp->uplinks[l]);
			c->cl[c->nc++] = l;
		}
	}
	free(n);
	c->pos = malloc(sizeof(uint32_t) * ((size_t)c->nc * cp->m0 + 1));
	c->npos = calloc(c->nc + 1, sizeof(uint32_t));
	c->out = calloc((size_t)c->nc * c->n + 1, sizeof(int32_t));
	c->in = calloc((size_t)c->nc * c->n + 1, sizeof(int32_t));
	return c->pos && c->npos && c->out && c->in ? 0 : FORS_ENOMEM;
}

static void release(struct circle *c)
{
	free(c->cls);
	free(c->host);
	free(c->at);
	free(c->cl);
	free(c->ci);
	free(c->need);
	free(c->ipos);
	free(c->pos);
	free(c->npos);
	free(c->out);
	free(c->in);
}

/* The placement as phase tables over the hosts, numbered in sid order. */
struct tables {
	struct fors_phases ph;
	int16_t *plane;		/* [t * nh]: planes, or NULL */
	uint32_t *sid;		/* [nh]: the host's id */
	uint32_t *leaf;		/* [nh] */
	uint32_t *idx;		/* [m0 * m1]: the host's number */
};

static void tables_free(struct tables *tb)
{
	free(tb->ph.send);
	free(tb->ph.recv);
	free(tb->plane);
	free(tb->sid);
	free(tb->leaf);
	free(tb->idx);
}

/* Phase p (shift p + 1): every host sends to the host that far ahead. */
static int tables_of(const struct circle *c, struct tables *tb)
{
	const struct fors_cyclic_params *cp = c->cp;
	uint32_t h, x, p, nh = 0, all = cp->m0 * cp->m1;
	size_t cells;

	tb->sid = malloc(sizeof(uint32_t) * (all + 1));
	tb->leaf = malloc(sizeof(uint32_t) * (all + 1));
	tb->idx = malloc(sizeof(uint32_t) * (all + 1));
	if (!tb->sid || !tb->leaf || !tb->idx)
		return FORS_ENOMEM;
	for (h = 0; h < all; h++)
		if (cp->present[h]) {
			tb->idx[h] = nh;
			tb->leaf[nh] = h / cp->m0;
			tb->sid[nh++] = h;
		}
	cells = (size_t)cp->t * nh + 1;
	tb->ph = (struct fors_phases){ cp->t, nh, cp->m1, NULL, NULL,
				       tb->leaf, cp->uplinks };
	tb->ph.send = malloc(sizeof(uint32_t) * cells);
	tb->ph.recv = malloc(sizeof(uint32_t) * cells);
	if (!tb->ph.send || !tb->ph.recv)
		return FORS_ENOMEM;
	memset(tb->ph.recv, 0xff, sizeof(uint32_t) * cells);
	for (p = 0; p < cp->t; p++)
		for (x = 0; x < c->n; x++) {
			uint32_t a = c->host[x], b = c->host[(x + p + 1) % c->n];
			size_t row = (size_t)p * nh;

			if (a == UINT32_MAX)
				continue;
			b = b == UINT32_MAX ? FORS_IDLE : tb->idx[b];
			tb->ph.send[row + tb->idx[a]] = b;
			if (b != FORS_IDLE)
				tb->ph.recv[row + b] = tb->idx[a];
		}
	return 0;
}

static struct fors_schedule *build(const struct fors_cyclic_params *cp,
				   const struct tables *tb)
{
	struct fors_schedule *s = calloc(1, sizeof(*s));
	uint32_t nh = tb->ph.nh, p, a, b;
	size_t k = 0;

	if (!s)
		return NULL;
	*s = (struct fors_schedule){ .m0 = cp->m0, .m1 = cp->m1, .q = cp->m0,
				     .f = cp->f, .m = cp->f, .lmc = -1,
				     .nphases = cp->t };
	s->start = calloc(cp->t + 1, sizeof(size_t));
	s->xfers = malloc(sizeof(struct fors_xfer) * ((size_t)nh * nh + 1));
	if (!s->start || !s->xfers ||
	    fors_schedule_add_key(s, "pattern", "cyclic")) {
		fors_schedule_free(s);
		return NULL;
	}
	for (p = 0; p < cp->t; p++) {
		for (a = 0; a < nh; a++) {
			b = tb->ph.send[(size_t)p * nh + a];
			if (b != FORS_IDLE)
				s->xfers[k++] = fors_xfer_make(
					tb->sid[a], tb->sid[b],
					tb->plane ? tb->plane[(size_t)p * nh + a] : -1,
					FORS_NO_DLID);
		}
		s->start[p + 1] = k;
	}
	s->nxfers = k;
	return s;
}

/* The planes of the phases, searched with them (schedule/planes.c). */
static int64_t planes(const struct fors_cyclic_params *cp, struct tables *tb,
		      uint64_t seed)
{
	struct fors_plane_params pp = { cp->q, cp->cable, cp->plane_work,
					seed, NULL };
	uint32_t nh = tb->ph.nh, l, b, all = cp->m0 * cp->m1;
	int16_t *fixed = NULL;
	int64_t r = -1;

	tb->plane = malloc(sizeof(int16_t) * ((size_t)cp->t * nh + 1));
	if (cp->fixed)
		fixed = malloc(sizeof(int16_t) * ((size_t)cp->m1 * nh + 1));
	for (l = 0; fixed && l < cp->m1; l++)
		for (b = 0; b < nh; b++)
			fixed[l * nh + b] = cp->fixed[(size_t)l * all + tb->sid[b]];
	pp.fixed = fixed;
	if (tb->plane && (fixed || !cp->fixed))
		r = fors_phase_planes(&tb->ph, &pp, tb->plane);
	free(fixed);
	return r;
}

/*
 * The placement's phases, rebalanced where a leaf is still over its
 * uplinks (schedule/rebalance.c), with their planes where the fabric's
 * are given, as a schedule.
 */
static int finish(const struct circle *c, struct fors_schedule **out,
		  struct fors_error *err)
{
	const struct fors_cyclic_params *cp = c->cp;
	struct tables tb = { 0 };
	int64_t left = 0;
	int e = tables_of(c, &tb);

	if (!e && c->cost && !cp->fixed)
		left = fors_rebalance(&tb.ph, cp->swaps, c->rng);
	if (!e && left >= 0 && cp->cable)
		left = planes(cp, &tb, c->rng) < 0 ? -1 : 0;
	if (!e && left < 0)
		e = FORS_ENOMEM;
	if (!e && left > 0 && !cp->fixed) {
		fors_error_set(err, "no schedule in %u phases within the search's budget: %lld transfers over the uplinks",
			       cp->t, (long long)left);
		e = FORS_EINVAL;
	}
	if (!e) {
		*out = build(cp, &tb);
		e = *out ? 0 : FORS_ENOMEM;
	}
	if (!e && cp->fixed) {
		struct fors_pack_params pk = { cp->q, cp->cable, cp->fixed, 0, 0 };

		e = fors_schedule_pack(*out, &pk, err);
		if (e) {
			fors_schedule_free(*out);
			*out = NULL;
		}
	}
	tables_free(&tb);
	return e;
}

int fors_schedule_cyclic(const struct fors_cyclic_params *cp,
			 struct fors_schedule **out, struct fors_error *err)
{
	struct circle c = { 0 };
	int e = setup(&c, cp);
	uint32_t h, n = 0;

	*out = NULL;
	for (h = 0; h < cp->m0 * cp->m1; h++)
		n += cp->present[h];
	if (!e && (cp->t + 1 < n || !cp->t)) {
		fors_error_set(err, "%u phases cannot hold %u hosts", cp->t, n);
		e = FORS_EINVAL;
	}
	if (!e) {
		start_covers(&c);
		place(&c);
		if (!cp->fixed)
			search(&c);
		e = finish(&c, out, err);
	}
	if (e == FORS_ENOMEM)
		fors_error_set(err, "out of memory while building the cyclic schedule");
	release(&c);
	return e;
}

int fors_schedule_is_cyclic(const struct fors_schedule *s)
{
	size_t i;

	for (i = 0; i < s->nextra; i++)
		if (!strcmp(s->extra[i].key, "pattern"))
			return !strcmp(s->extra[i].value, "cyclic");
	return 0;
}
