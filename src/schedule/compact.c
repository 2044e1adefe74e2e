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
 * A phase that cannot be emptied ends it. Phases are a set: nothing else
 * about the schedule depends on which transfers share one.
 */
#include <stdlib.h>
#include <string.h>

#include "schedule/compact.h"
#include "schedule/xorshift.h"

#define CHAIN_MAX 32	/* transfers a chain may move */
#define CHAIN_TRIES 8	/* second phases tried per first phase */
#define GONE UINT32_MAX	/* cnt[] of an emptied phase */

struct compactor {
	const struct fors_pack_params *pp;
	struct fors_schedule *s;
	uint32_t m0, m1, n;	/* n: phases */
	size_t row;		/* marks per phase */
	int32_t *occ;		/* [n * row]: the transfer holding a mark */
	uint32_t *ph;		/* [nxfers]: each transfer's phase */
	uint32_t *cnt;		/* [n]: transfers per phase, GONE */
	uint16_t *leaf;		/* [n * 2 * m1]: out of, into each leaf */
	uint32_t chain[CHAIN_MAX];
	uint32_t nchain;
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

/* Transfer i into phase p (hold) or out of it: marks and leaf counts. */
static void put(struct compactor *c, uint32_t i, uint32_t p, int hold)
{
	size_t m[4];
	int n = fors_pack_marks(c->pp, c->m0, c->m1, &c->s->xfers[i], m), k;

	for (k = 0; k < n; k++)
		c->occ[(size_t)p * c->row + m[k]] = hold ? (int32_t)i : -1;
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
		if (c->occ[(size_t)p * c->row + m[k]] >= 0)
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
		if ((j = c->occ[(size_t)a * c->row + m[k]]) >= 0 &&
		    !join(c, (uint32_t)j))
			return 0;
	for (h = 0; h < c->nchain; h++) {
		c->work++;
		other = c->ph[c->chain[h]] == a ? b : a;
		n = fors_pack_marks(c->pp, c->m0, c->m1,
				    &c->s->xfers[c->chain[h]], m);
		for (k = 0; k < (uint32_t)n; k++) {
			j = c->occ[(size_t)other * c->row + m[k]];
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
 * Empties the phase with the fewest transfers; 1 when it is gone. One
 * with more than half the transfers of the fullest is not tried: the
 * others' few free places would not take them, and the failed try costs
 * a healthy fabric's routing a third of a second.
 */
static int empty_one(struct compactor *c)
{
	uint32_t e = GONE, p, most = 0;
	size_t i;

	for (p = 0; p < c->n; p++) {
		if (c->cnt[p] == GONE)
			continue;
		most = c->cnt[p] > most ? c->cnt[p] : most;
		if (e == GONE || c->cnt[p] < c->cnt[e])
			e = p;
	}
	if (e != GONE && c->cnt[e] > most / 2)
		return 0;
	for (i = 0; e != GONE && i < c->s->nxfers; i++)
		if (c->ph[i] == e &&
		    (c->work > FORS_COMPACT_WORK || !place(c, (uint32_t)i)))
			return 0;
	if (e != GONE)
		c->cnt[e] = GONE;
	return e != GONE;
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

int fors_schedule_compact(struct fors_schedule *s,
			  const struct fors_pack_params *pp)
{
	struct compactor c = { .pp = pp, .s = s, .m0 = s->m0, .m1 = s->m1,
			       .n = s->nphases, .rng = 0x9e3779b97f4a7c15ull };
	uint32_t p, gone = 0;
	size_t i;
	int e = FORS_ENOMEM;

	c.row = 2 * (size_t)s->m0 * s->m1 + 2 * (size_t)s->m1 * pp->q;
	if (!c.n || (uint64_t)c.n * c.row > FORS_COMPACT_CELLS)
		return 0;
	c.occ = malloc(sizeof(int32_t) * c.n * c.row);
	c.ph = malloc(sizeof(uint32_t) * (s->nxfers + 1));
	c.cnt = calloc(c.n, sizeof(uint32_t));
	c.leaf = calloc((size_t)c.n * 2 * s->m1, sizeof(uint16_t));
	if (c.occ && c.ph && c.cnt && c.leaf) {
		memset(c.occ, 0xff, sizeof(int32_t) * c.n * c.row);
		for (p = 0; p < c.n; p++)
			for (i = s->start[p]; i < s->start[p + 1]; i++)
				put(&c, (uint32_t)i, p, 1);
		while (gone + 1 < c.n && empty_one(&c))
			gone++;
		e = relayout(&c);
	}
	free(c.occ);
	free(c.ph);
	free(c.cnt);
	free(c.leaf);
	return e;
}
