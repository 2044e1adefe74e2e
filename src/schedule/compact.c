// SPDX-License-Identifier: MIT
/*
 * Fewer phases over fixed planes (doc/narrow-lmc.md, "One offset for
 * everyone"). Packing leaves each transfer that shared a cable in the
 * first phase with room, and the phases it adds are half empty. Here the
 * phase with the fewest transfers is emptied into the others: each of its
 * transfers goes to a phase where its hosts and cables are free, or to
 * one where they are taken, by swapping with a third phase the chain of
 * transfers that meet there (a Kempe chain, as in edge colouring: what
 * leaves phase a for phase b takes along what it meets in b, and back).
 * A phase that cannot be emptied ends it. Then a tabu search takes over
 * (PartialCol: Bloechliger and Zufferey, "A graph colouring heuristic
 * using partial solutions", Computers & Operations Research 35, 2008):
 * the fewest's transfers wait in a pool, and one at a time goes where it
 * displaces the fewest, those it displaces into the pool, barred from
 * going back for a while. The chains are quick where phases are half
 * empty; the search reaches the phases they cannot (the LHCb fabric at
 * LMC 0 after one cut: 356 phases with chains, 340 with both, its bound
 * 340). Phases are a set: nothing else about the schedule depends on
 * which transfers share one.
 */
#include <stdlib.h>
#include <string.h>

#include "schedule/compact.h"
#include "schedule/xorshift.h"

#define CHAIN_MAX 32	/* transfers a chain may move */
#define CHAIN_TRIES 8	/* second phases tried per first phase */
#define GONE UINT32_MAX	/* cnt[] of an emptied phase, ph[] of a pooled */
#define TENURE 10	/* moves a displaced transfer stays out, at least */

struct compactor {
	const struct fors_pack_params *pp;
	const struct fors_compact_alts *alts;	/* NULL: planes stay */
	struct fors_schedule *s;
	uint32_t m0, m1, n;	/* n: phases */
	uint32_t floor;		/* the most transfers on one mark */
	size_t row;		/* marks per phase */
	int32_t *occ;		/* [row * n]: the transfer holding a mark */
	uint32_t *ph;		/* [nxfers]: each transfer's phase */
	uint32_t *cnt;		/* [n]: transfers per phase, GONE */
	uint16_t *leaf;		/* [n * 2 * m1]: out of, into each leaf */
	uint32_t *pool, npool;	/* [nxfers]: transfers out of every phase */
	uint32_t *left, *until;	/* [nxfers]: the phase one left, barred till */
	uint32_t *saved;	/* [nxfers + n]: ph and cnt before a squeeze */
	int16_t *plane;		/* with alts, [nxfers]: planes before it */
	uint8_t *score;		/* [n]: what a pooled transfer displaces */
	uint32_t chain[CHAIN_MAX];
	uint32_t nchain, moves;
	uint64_t work, rng;
};

/* Leaf counters of x in phase p: out of its source's leaf, into its own. */
static uint16_t *leaf_at(const struct compactor *c, uint32_t i, uint32_t p,
			 int in)
{
	const struct fors_xfer *x = &c->s->xfers[i];

	return &c->leaf[((size_t)p * 2 + (uint32_t)in) * c->m1 +
			(in ? x->dst : x->src) / c->m0];
}

/* The transfer holding mark m in phase p, -1: a mark's phases side by side. */
static inline int32_t *cell(const struct compactor *c, uint32_t p, size_t m)
{
	return &c->occ[m * c->n + p];
}

/* Transfer i into phase p (hold) or out of it: marks and leaf counts. */
static void put(struct compactor *c, uint32_t i, uint32_t p, int hold)
{
	size_t m[4];
	int n = fors_pack_marks(c->pp, c->m0, c->m1, &c->s->xfers[i], m), k;

	for (k = 0; k < n; k++)
		*cell(c, p, m[k]) = hold ? (int32_t)i : -1;
	if (n == 4) {
		*leaf_at(c, i, p, 0) += hold ? 1 : (uint16_t)-1;
		*leaf_at(c, i, p, 1) += hold ? 1 : (uint16_t)-1;
	}
	c->cnt[p] += hold ? 1 : (uint32_t)-1;
	if (hold)
		c->ph[i] = p;
}

/* 1 when i's leaves in phase p are within the cap (Algorithm 1's m0 - f). */
static int within_cap(const struct compactor *c, uint32_t i, uint32_t p)
{
	uint32_t cap = c->pp->leaf_cap;
	const struct fors_xfer *x = &c->s->xfers[i];

	return !cap || x->src / c->m0 == x->dst / c->m0 ||
	       (*leaf_at(c, i, p, 0) <= cap && *leaf_at(c, i, p, 1) <= cap);
}

/* 1 when every mark of i is free in phase p and its leaves have room. */
static int fits(struct compactor *c, uint32_t i, uint32_t p)
{
	size_t m[4];
	int n = fors_pack_marks(c->pp, c->m0, c->m1, &c->s->xfers[i], m), k;
	uint32_t cap = c->pp->leaf_cap;

	c->work++;
	for (k = 0; k < n; k++)
		if (*cell(c, p, m[k]) >= 0)
			return 0;
	return n == 2 || !cap || (*leaf_at(c, i, p, 0) < cap &&
				  *leaf_at(c, i, p, 1) < cap);
}

/* Adds j to the chain unless there; 0 when the chain is full. */
static int join(struct compactor *c, uint32_t j)
{
	uint32_t k;

	for (k = 0; k < c->nchain; k++)
		if (c->chain[k] == j)
			return 1;
	if (c->nchain == CHAIN_MAX)
		return 0;
	c->chain[c->nchain++] = j;
	return 1;
}

/*
 * The chain from i's holders in phase a over a and b: each member's
 * marks in the other phase bring their holders in. 0 when it grows past
 * CHAIN_MAX.
 */
static int collect(struct compactor *c, uint32_t i, uint32_t a, uint32_t b)
{
	size_t m[4];
	int n = fors_pack_marks(c->pp, c->m0, c->m1, &c->s->xfers[i], m);
	uint32_t h, k, other;
	int32_t j;

	c->nchain = 0;
	for (k = 0; k < (uint32_t)n; k++)
		if ((j = *cell(c, a, m[k])) >= 0 &&
		    !join(c, (uint32_t)j))
			return 0;
	for (h = 0; h < c->nchain; h++) {
		c->work++;
		other = c->ph[c->chain[h]] == a ? b : a;
		n = fors_pack_marks(c->pp, c->m0, c->m1,
				    &c->s->xfers[c->chain[h]], m);
		for (k = 0; k < (uint32_t)n; k++) {
			j = *cell(c, other, m[k]);
			if (j >= 0 && !join(c, (uint32_t)j))
				return 0;
		}
	}
	return 1;
}

/* The chain's members swap phases a and b; 1 when the leaf caps hold. */
static int swap(struct compactor *c, uint32_t a, uint32_t b)
{
	uint32_t k;
	int ok = 1;

	for (k = 0; k < c->nchain; k++)
		put(c, c->chain[k], c->ph[c->chain[k]], 0);
	for (k = 0; k < c->nchain; k++)
		put(c, c->chain[k], c->ph[c->chain[k]] == a ? b : a, 1);
	for (k = 0; k < c->nchain; k++)
		ok &= within_cap(c, c->chain[k], c->ph[c->chain[k]]);
	return ok;
}

/*
 * Transfer i, in phase e, into phase a by a chain with a phase b: undone
 * where a leaf goes over its cap, or where what the chain brought into a
 * shares a mark with i.
 */
static int by_chain(struct compactor *c, uint32_t i, uint32_t a, uint32_t b)
{
	uint32_t e = c->ph[i];

	if (!collect(c, i, a, b))
		return 0;
	if (swap(c, a, b)) {
		put(c, i, e, 0);
		if (fits(c, i, a)) {
			put(c, i, a, 1);
			return 1;
		}
		put(c, i, e, 1);
	}
	swap(c, a, b);	/* back: the members' phases swapped again */
	return 0;
}

/* Transfer i out of its phase: straight into another, else by a chain. */
static int place(struct compactor *c, uint32_t i)
{
	uint32_t e = c->ph[i], a, b, t;

	for (a = 0; a < c->n; a++)
		if (a != e && c->cnt[a] != GONE && fits(c, i, a)) {
			put(c, i, e, 0);
			put(c, i, a, 1);
			return 1;
		}
	for (a = 0; a < c->n; a++) {
		if (a == e || c->cnt[a] == GONE)
			continue;
		for (t = 0; t < CHAIN_TRIES; t++) {
			b = fors_xorshift(&c->rng, c->n);
			if (b != a && b != e && c->cnt[b] != GONE &&
			    by_chain(c, i, a, b))
				return 1;
		}
	}
	return 0;
}

/*
 * The phase with the fewest transfers, GONE where there is none or, with
 * half set, it has more than half the transfers of the fullest: the
 * chains would not find them places, and the failed try costs a healthy
 * fabric's routing a third of a second.
 */
static uint32_t fewest(const struct compactor *c, int half)
{
	uint32_t e = GONE, p, most = 0;

	for (p = 0; p < c->n; p++) {
		if (c->cnt[p] == GONE)
			continue;
		most = c->cnt[p] > most ? c->cnt[p] : most;
		if (e == GONE || c->cnt[p] < c->cnt[e])
			e = p;
	}
	return half && e != GONE && c->cnt[e] > most / 2 ? GONE : e;
}

/* Empties the fewest's phase into the others by chains; 1 when it is gone. */
static int empty_one(struct compactor *c)
{
	uint32_t e = fewest(c, 1);
	size_t i;

	for (i = 0; e != GONE && i < c->s->nxfers; i++)
		if (c->ph[i] == e &&
		    (c->work > FORS_COMPACT_WORK || !place(c, (uint32_t)i)))
			return 0;
	if (e != GONE)
		c->cnt[e] = GONE;
	return e != GONE;
}

/*
 * The distinct holders of i's marks m (n of them) in phase a, into h;
 * their count, or -1 where a leaf of i would be over its cap with them
 * gone and i in.
 */
static int holders(const struct compactor *c, uint32_t i, uint32_t a,
		   const size_t *m, int n, uint32_t h[4])
{
	const struct fors_xfer *x = &c->s->xfers[i], *y;
	int k, q, nh = 0, out = 0, in = 0;
	uint32_t cap = c->pp->leaf_cap;
	int32_t j;

	for (k = 0; k < n; k++) {
		j = *cell(c, a, m[k]);
		for (q = 0; j >= 0 && q < nh && h[q] != (uint32_t)j; q++)
			;
		if (j >= 0 && q == nh)
			h[nh++] = (uint32_t)j;
	}
	if (n == 2 || !cap)
		return nh;
	for (q = 0; q < nh; q++) {
		y = &c->s->xfers[h[q]];
		if (y->src / c->m0 == y->dst / c->m0)
			continue;
		out += y->src / c->m0 == x->src / c->m0;
		in += y->dst / c->m0 == x->dst / c->m0;
	}
	return *leaf_at(c, i, a, 0) - out < (int)cap &&
	       *leaf_at(c, i, a, 1) - in < (int)cap ? nh : -1;
}

/*
 * What a pooled transfer with marks m would displace in each phase, into
 * c->score: their distinct holders, 8 more in an emptied phase. Four rows of
 * the table side by side, a loop the compiler vectorises: the search
 * spends its time here.
 */
static void score(struct compactor *c, const size_t *m, int n)
{
	const int32_t *a = cell(c, 0, m[0]), *b = cell(c, 0, m[1]);
	const int32_t *d = cell(c, 0, m[n - 2]), *e = cell(c, 0, m[n - 1]);
	uint32_t p;

	for (p = 0; p < c->n; p++)
		c->score[p] = (uint8_t)((a[p] >= 0) +
			(b[p] >= 0 && b[p] != a[p]) +
			(d[p] >= 0 && d[p] != a[p] && d[p] != b[p]) +
			(e[p] >= 0 && e[p] != a[p] && e[p] != b[p] &&
			 e[p] != d[p]) + ((c->cnt[p] == GONE) << 3));
	c->work += c->n;
}

/*
 * Pooled transfer i on its plane now: what it would displace in each
 * phase into c->score (the phase it left barred while it is), its marks
 * into m; their count.
 */
static int scored(struct compactor *c, uint32_t i, size_t m[4])
{
	int n = fors_pack_marks(c->pp, c->m0, c->m1, &c->s->xfers[i], m);
	uint32_t l = c->left[i];

	score(c, m, n);
	if (l != GONE && c->moves < c->until[i] && c->score[l])
		c->score[l] = 8;
	return n;
}

/*
 * The phases of c->score where i with marks m displaces no more than
 * *best and its leaves stay within the cap, one drawn into *pick among
 * all equals so far (*ties of them); 1 when this draw took it.
 */
static int lowest(struct compactor *c, uint32_t i, const size_t *m, int n,
		  uint32_t *best, uint32_t *ties, uint32_t *pick)
{
	uint32_t a, g[4];
	int took = 0;

	for (a = 0; a < c->n; a++) {
		if (c->score[a] > *best ||
		    (c->pp->leaf_cap && holders(c, i, a, m, n, g) < 0))
			continue;
		if (c->score[a] < *best) {
			*best = c->score[a];
			*ties = 0;
		}
		if (!fors_xorshift(&c->rng, ++*ties)) {
			*pick = a;
			took = 1;
		}
	}
	return took;
}

/*
 * Plane j of i's pair (alts), or -1: none, own (i's plane, weighed
 * first), or one of j's before it.
 */
static int32_t alt(const struct compactor *c, uint32_t i, uint32_t j,
		   int32_t own)
{
	const struct fors_xfer *x = &c->s->xfers[i];
	const int16_t *p = &c->alts->plane[((size_t)(x->src / c->m0) * c->m0 *
					    c->m1 + x->dst) * c->alts->k];
	uint32_t k;

	for (k = 0; k < j; k++)
		if (p[k] == p[j])
			return -1;
	return p[j] < 0 || p[j] == own ? -1 : p[j];
}

/*
 * The phase (and with alts the plane, which i takes) where pooled transfer
 * i displaces the fewest, one at random among equals, and its leaves stay
 * within the cap; its holders into h, their count into *nh. Not the phase
 * i left while it is barred, unless i displaces none there. i's own plane
 * first, the others only where it displaces some: each costs a pass over
 * the phases. GONE where no phase takes it (i keeps its plane).
 */
static uint32_t least(struct compactor *c, uint32_t i, uint32_t h[4],
		      int *nh)
{
	struct fors_xfer *x = &c->s->xfers[i];
	int32_t own = fors_xfer_plane(x), at = own, p = own;
	uint32_t pick = GONE, ties = 0, best = 7, j = 0;
	uint32_t k = c->alts && own >= 0 ? c->alts->k : 0;
	size_t m[4];
	int n = scored(c, i, m);

	lowest(c, i, m, n, &best, &ties, &pick);
	for (; best && j < k; j++) {
		if ((p = alt(c, i, j, own)) < 0)
			continue;
		fors_xfer_set_plane(x, p);
		n = scored(c, i, m);
		if (lowest(c, i, m, n, &best, &ties, &pick))
			at = p;
	}
	fors_xfer_set_plane(x, at);
	if (pick != GONE) {
		n = fors_pack_marks(c->pp, c->m0, c->m1, x, m);
		*nh = holders(c, i, pick, m, n, h);
	}
	return pick;
}

/*
 * One move: a pooled transfer at random into its least phase, and what
 * held its marks there into the pool, barred from that phase for TENURE
 * moves and more while the pool is large (PartialCol's tenure).
 */
static void move(struct compactor *c)
{
	uint32_t k = fors_xorshift(&c->rng, c->npool), i = c->pool[k];
	uint32_t h[4], a;
	int nh = 0, q;

	c->moves++;
	a = least(c, i, h, &nh);
	if (a == GONE)
		return;
	c->pool[k] = c->pool[--c->npool];
	for (q = 0; q < nh; q++) {
		put(c, h[q], a, 0);
		c->ph[h[q]] = GONE;
		c->pool[c->npool++] = h[q];
		c->left[h[q]] = a;
		c->until[h[q]] = c->moves + TENURE +
				 fors_xorshift(&c->rng, TENURE) +
				 c->npool * 3 / 5;
	}
	put(c, i, a, 1);
}

/* The table, leaf counts and phase counts laid out from c->ph alone. */
static void fill(struct compactor *c)
{
	size_t i;

	memset(c->occ, 0xff, sizeof(int32_t) * c->n * c->row);
	memset(c->leaf, 0, sizeof(uint16_t) * c->n * 2 * c->m1);
	memset(c->cnt, 0, sizeof(uint32_t) * c->n);
	for (i = 0; i < c->s->nxfers; i++)
		put(c, (uint32_t)i, c->ph[i], 1);
}

/* Every transfer back in the phase (and on the plane) it held before. */
static void restore(struct compactor *c)
{
	uint32_t p, *cnt = c->saved + c->s->nxfers;
	size_t i;

	memcpy(c->ph, c->saved, sizeof(uint32_t) * c->s->nxfers);
	for (i = 0; c->alts && i < c->s->nxfers; i++)
		fors_xfer_set_plane(&c->s->xfers[i], c->plane[i]);
	fill(c);
	for (p = 0; p < c->n; p++)
		c->cnt[p] = cnt[p] == GONE ? GONE : c->cnt[p];
	c->npool = 0;
}

/*
 * The fewest's phase emptied by the tabu search, within
 * FORS_COMPACT_MOVES moves: the transfers it could not place, 0 when the
 * phase is gone, else every transfer back where it was.
 */
static uint32_t squeeze(struct compactor *c)
{
	uint32_t e = fewest(c, 0), left;
	size_t i, nx = c->s->nxfers;

	if (e == GONE)
		return UINT32_MAX;
	memcpy(c->saved, c->ph, sizeof(uint32_t) * nx);
	memcpy(c->saved + nx, c->cnt, sizeof(uint32_t) * c->n);
	for (i = 0; c->alts && i < nx; i++)
		c->plane[i] = (int16_t)fors_xfer_plane(&c->s->xfers[i]);
	for (i = 0; i < nx; i++)
		if (c->ph[i] == e) {
			put(c, (uint32_t)i, e, 0);
			c->ph[i] = c->left[i] = GONE;
			c->pool[c->npool++] = (uint32_t)i;
		}
	c->cnt[e] = GONE;
	for (c->moves = 0; c->npool && c->moves < FORS_COMPACT_MOVES;)
		move(c);
	left = c->npool;
	if (left)
		restore(c);
	return left;
}

/*
 * Phases emptied by the tabu search while the schedule is above its
 * floor: a try that ends near (FORS_COMPACT_NEAR) is tried again on a new
 * random path, FORS_COMPACT_FAILS times in all; one that ends far, or
 * the work spent, stops it. The number emptied.
 */
static uint32_t squeezed(struct compactor *c, uint32_t gone)
{
	uint32_t fails = 0, left, k = 0;

	while (gone + k + c->floor < c->n && fails < FORS_COMPACT_FAILS &&
	       c->work <= FORS_COMPACT_SQUEEZE) {
		left = squeeze(c);
		if (left > FORS_COMPACT_NEAR)
			break;
		if (left)
			fails++;
		else
			k++;
	}
	return k;
}

/* The transfers laid out again by phase, the emptied ones dropped. */
static int relayout(struct compactor *c)
{
	struct fors_schedule *s = c->s;
	struct fors_xfer *x = malloc(sizeof(*x) * (s->nxfers + 1));
	size_t *at = calloc((size_t)c->n + 2, sizeof(size_t)), i;
	uint32_t p, k = 0, *to = c->cnt;

	if (!x || !at) {
		free(x);
		free(at);
		return FORS_ENOMEM;
	}
	for (p = 0; p < c->n; p++)
		to[p] = to[p] == GONE ? GONE : k++;
	for (i = 0; i < s->nxfers; i++)
		at[to[c->ph[i]] + 1]++;
	for (p = 0; p < k; p++)
		at[p + 1] += at[p];
	memcpy(s->start, at, sizeof(size_t) * (k + 1));
	for (i = 0; i < s->nxfers; i++)
		x[at[to[c->ph[i]]]++] = s->xfers[i];
	memcpy(s->xfers, x, sizeof(*x) * s->nxfers);
	s->nphases = k;
	free(x);
	free(at);
	return 0;
}

/* The compactor's tables for s, every transfer in its phase; FORS_ENOMEM. */
static int setup(struct compactor *c)
{
	struct fors_schedule *s = c->s;
	size_t nx = s->nxfers + 1, i;
	uint32_t p;

	c->occ = malloc(sizeof(int32_t) * c->n * c->row);
	c->ph = malloc(sizeof(uint32_t) * nx);
	c->cnt = calloc(c->n, sizeof(uint32_t));
	c->leaf = calloc((size_t)c->n * 2 * s->m1, sizeof(uint16_t));
	c->pool = malloc(sizeof(uint32_t) * nx);
	c->left = malloc(sizeof(uint32_t) * nx);
	c->until = calloc(nx, sizeof(uint32_t));
	c->saved = malloc(sizeof(uint32_t) * (nx + c->n));
	c->score = malloc(c->n);
	c->plane = c->alts ? malloc(sizeof(int16_t) * nx) : NULL;
	if (!c->occ || !c->ph || !c->cnt || !c->leaf || !c->pool ||
	    !c->left || !c->until || !c->saved || !c->score ||
	    (c->alts && !c->plane))
		return FORS_ENOMEM;
	for (p = 0; p < c->n; p++)
		for (i = s->start[p]; i < s->start[p + 1]; i++)
			c->ph[i] = p;
	fill(c);
	return 0;
}

/*
 * The most transfers sharing a mark: no partition has fewer phases. With
 * alts only the hosts count: a cable's transfers may take another.
 */
static int floor_of(struct compactor *c)
{
	uint32_t *load = calloc(c->row, sizeof(uint32_t));
	size_t m[4], i;
	int n, k;

	if (!load)
		return FORS_ENOMEM;
	for (i = 0; i < c->s->nxfers; i++) {
		n = fors_pack_marks(c->pp, c->m0, c->m1, &c->s->xfers[i], m);
		n = c->alts ? 2 : n;
		for (k = 0; k < n; k++)
			if (++load[m[k]] > c->floor)
				c->floor = load[m[k]];
	}
	free(load);
	return 0;
}

/* What setup allocated. */
static void teardown(struct compactor *c)
{
	free(c->occ);
	free(c->ph);
	free(c->cnt);
	free(c->leaf);
	free(c->pool);
	free(c->left);
	free(c->until);
	free(c->saved);
	free(c->score);
	free(c->plane);
}

int fors_schedule_compact(struct fors_schedule *s,
			  const struct fors_pack_params *pp,
			  const struct fors_compact_alts *alts)
{
	struct compactor c = { .pp = pp, .alts = alts && alts->plane &&
			       alts->k > 1 ? alts : NULL, .s = s, .m0 = s->m0,
			       .m1 = s->m1,
			       .n = s->nphases, .rng = 0x9e3779b97f4a7c15ull };
	uint32_t gone = 0;
	int e;

	c.row = 2 * (size_t)s->m0 * s->m1 + 2 * (size_t)s->m1 * pp->q;
	if (!c.n || (uint64_t)c.n * c.row > FORS_COMPACT_CELLS)
		return 0;
	e = setup(&c);
	if (!e)
		e = floor_of(&c);
	while (!e && gone + c.floor < c.n && empty_one(&c))
		gone++;
	if (!e)
		gone += squeezed(&c, gone);
	if (!e)
		e = relayout(&c);
	teardown(&c);
	return e;
}
