// SPDX-License-Identifier: MIT
/*
 * Spine assignment, phase by phase. Algorithm 2 of the FORS paper
 * (Section 5.1) gives the r-th sender of a phase the r-th unimpacted plane.
 * That is right for any leaf because every leaf has the same sending slots
 * in a phase (T depends on the slot only) and the senders of one slot on
 * different leaves go to different leaves (d shifts with the leaf): so a
 * plane is used once per source leaf and once per destination leaf. The
 * rank must be taken in Algorithm 1's pattern, absent hosts included; the
 * paper's running index over the whole phase is only the same thing when
 * exactly m0 - f planes are unimpacted. It needs at least m0 - f unimpacted
 * planes; otherwise each phase is a list edge colouring (source leaves,
 * destination leaves, planes alive at both ends) for our solver.
 */
#include <stdlib.h>
#include <string.h>

#include "routing/assign.h"
#include "routing/basemap.h"
#include "routing/residue.h"
#include "schedule/cyclic.h"
#include "schedule/inter.h"
#include "lec/lec.h"
#include "schedule/split.h"

/* Most LID offsets per host: LMC 7. */
#define FORS_MAX_OFFSETS 128

/* One solved phase graph: the multiset of (source, destination) leaves. */
struct memo {
	uint64_t hash;
	uint32_t n, k, unproven;
	uint32_t *key;		/* [n]: source leaf * m1 + destination, sorted */
	int32_t *plane;		/* [n] */
	uint32_t *sub;		/* [n] */
};

struct assigner {
	const struct fors_fabric *fb;
	const struct fors_schedule *s;	/* the input, left as it is */
	struct fors_schedule *take;	/* or the input whose transfers the
					   output takes, NULL */
	const struct fors_xfer *inx;	/* the input's transfers */
	struct fors_xfer *ph;	/* the phase being placed, planes set here */
	struct inter in;
	uint32_t *order;	/* planes, unimpacted first */
	uint32_t nunimp;
	uint32_t *rank;		/* [m0]: slot's rank among the senders */
	struct fors_split out;	/* the phases, split where they must be */
	uint32_t *pend;		/* inter-leaf transfers still to place */
	uint32_t *sub;		/* per transfer of the phase: its sub-phase */
	int *left, *right, *lstart, *list, *colour;
	int *fresh;		/* per pending transfer, in hinted(): the
				   offset its plane goes to, -1 none, -2 ask
				   remember() */
	uint32_t *used;		/* [2 * m1 * q]: stamp of a link's last use,
				   up then down; for given() (cyclic, one
				   offset per plane) or hinted() (fewer) */
	uint32_t stamp;
	size_t list_cap;
	uint32_t *key;		/* per pending transfer: its leaf pair */
	uint32_t *tmp;		/* [m0 * m1]: by_pair's other buffer */
	uint32_t *leaf;		/* [m0 * m1]: a host slot's leaf */
	uint32_t *slot;		/* [m0 * m1]: its slot's plane, slot mod q
				   (no division per transfer) */
	uint32_t *count;	/* [m1 + 1]: by_pair's counts */
	struct memo *memo;	/* phase graphs solved so far */
	uint32_t nmemo, memocap;
	struct fors_assign_info *info;
	struct fors_offmap *om;	/* NULL: every plane has its offset */
	uint32_t pre;		/* offsets a pair has before the phases:
				   1 with the base map, else 0 */
	uint32_t own;		/* the first offset the phases read and
				   choose: 1 past the base map's in
				   Algorithm 1's schedule above LMC 0 (the
				   base planes in the lists draw transfers
				   off the slot planes: doc/narrow-lmc.md),
				   else 0 */
	int stuck;		/* a transfer no plane of its offsets can take */
	int resid;		/* the residue rule places the phases */
	int32_t *via;		/* [m0]: with it, the plane of slot a's send
				   in the phase, -1 none */
	int cyclic;		/* the cyclic pattern: no Algorithm 1 ranks */
	uint32_t crowded;	/* phase + 1 with more transfers than hosts */
	uint32_t done;		/* phases placed so far */
};

const char *fors_method_name(enum fors_method m)
{
	static const char *const name[] = { "alg2", "lec", "ilp" };

	return name[m];
}

static uint32_t leaf_of(const struct assigner *a, uint32_t sid)
{
	return a->leaf[sid];
}

static void ranks(struct assigner *a, uint32_t p)
{
	uint32_t s, r = 0;

	for (s = 0; s < a->fb->m0; s++)
		a->rank[s] = !a->cyclic && p < a->in.pf &&
			     inter_sends(&a->in, s, p) ? r++ : UINT32_MAX;
}

/* The plane Algorithm 2 gives, or -1 when it gives none. */
static int32_t alg2_plane(const struct assigner *a, const struct fors_xfer *x)
{
	uint32_t r = a->rank[x->src % a->fb->m0];

	return r < a->nunimp ? (int32_t)a->order[r] : -1;
}

static int16_t *offsets_of(const struct assigner *a, uint32_t l, uint32_t sid)
{
	uint32_t h = (uint32_t)a->fb->host_at[sid];

	return &a->om->plane[((size_t)l * a->om->nhosts + h) * a->om->k];
}

/*
 * With parallel cables a spine sends offset j of sid down one cable
 * whatever leaf it came from: another leaf's offset j of sid on p's spine
 * must be p itself, the same cable rank.
 */
static int one_rank(const struct assigner *a, uint32_t sid, uint32_t j,
		    uint32_t p)
{
	const struct fors_fabric *fb = a->fb;
	uint32_t l;

	if (fb->q == fb->nspines)
		return 1;
	for (l = 0; l < fb->m1; l++) {
		int16_t o = offsets_of(a, l, sid)[j];

		if (o >= 0 && (uint32_t)o != p &&
		    fb->plane_spine[o] == fb->plane_spine[p])
			return 0;
	}
	return 1;
}

/*
 * May a transfer from leaf l to sid take plane p? With a map: a plane its
 * offsets already reach, or a new one while an offset is free (when tight,
 * only if none is taken yet but the base map's) and its spine's cable to
 * sid agrees.
 */
static int allowed(const struct assigner *a, uint32_t l, uint32_t sid,
		   uint32_t p, int tight)
{
	const int16_t *o;
	uint32_t j, taken = 0;
	int fits = 0;

	if (!a->om)
		return 1;
	o = offsets_of(a, l, sid);
	for (j = a->own; j < a->om->k; j++) {
		if (o[j] < 0)
			fits |= one_rank(a, sid, j, p);
		else if ((uint32_t)o[j] == p)
			return 1;
		else
			taken++;
	}
	return fits && !(tight && taken > a->pre - a->own);
}

/*
 * The first guess. With a map, the destination's slot: for Algorithm 1's
 * phases it is congestion-free wherever that plane is live (doc/narrow-lmc.md),
 * so a healthy fabric needs one offset; else a plane already reached.
 */
static int32_t hint(const struct assigner *a, const struct fors_xfer *x,
		    uint32_t ls, uint32_t ld)
{
	const struct fors_fabric *fb = a->fb;
	const int16_t *o;
	uint32_t p = a->slot[x->dst], j;
	int32_t h = alg2_plane(a, x);

	if (!a->om)
		return h >= 0 && fors_plane_live(fb, ls, (uint32_t)h) &&
		       fors_plane_live(fb, ld, (uint32_t)h) ? h : -1;
	if (fors_plane_live(fb, ls, p) && fors_plane_live(fb, ld, p) &&
	    allowed(a, ls, x->dst, p, 0))
		return (int32_t)p;
	o = offsets_of(a, ls, x->dst);
	for (j = a->own; j < a->om->k; j++)
		if (o[j] >= 0 && fors_plane_live(fb, ld, (uint32_t)o[j]))
			return o[j];
	return -1;
}

/*
 * Give the offsets of x's pair plane p, its colour: a free one. Called
 * before x's plane is set, which reads back slowly (the plane's bits
 * share bytes with the hosts').
 */
static void remember(struct assigner *a, const struct fors_xfer *x, int32_t p)
{
	int16_t *o = offsets_of(a, leaf_of(a, x->src), x->dst);
	uint32_t j;

	for (j = a->own; j < a->om->k; j++)
		if (o[j] == p)
			return;
	for (j = 0; j < a->om->k; j++)
		if (o[j] < 0 && one_rank(a, x->dst, j, (uint32_t)p)) {
			o[j] = (int16_t)p;
			return;
		}
}

/*
 * The planes x may take when its pair can take no new one: its offsets'
 * planes live at both leaves, ascending, in *out; their number.
 */
static uint32_t offset_planes(const struct assigner *a,
			      const struct fors_xfer *x, uint32_t ls,
			      uint32_t ld, int tight, uint32_t *out)
{
	const int16_t *o = offsets_of(a, ls, x->dst);
	uint32_t j, i, n = 0, free = 0;

	for (j = 0; j < a->om->k; j++)
		free += o[j] < 0;
	if (free && (!tight || free + a->pre >= a->om->k))
		return UINT32_MAX;
	for (j = a->own; j < a->om->k; j++) {
		uint32_t p = (uint32_t)o[j];

		if (o[j] < 0 || !fors_plane_live(a->fb, ls, p) ||
		    !fors_plane_live(a->fb, ld, p))
			continue;
		for (i = n++; i > 0 && out[i - 1] > p; i--)
			out[i] = out[i - 1];
		out[i] = p;
	}
	return n;
}

/*
 * The colours of x in sub-phase sub appended to a->list from len on, in
 * the order of the planes: its offsets' planes when its pair can take no
 * other (most transfers once the map fills: q allowed() calls each would
 * cost a large fabric most of its routing), else every plane allowed.
 */
static uint32_t colours(struct assigner *a, const struct fors_xfer *x,
			uint32_t sub, int tight, uint32_t len)
{
	const struct fors_fabric *fb = a->fb;
	uint32_t ls = leaf_of(a, x->src), ld = leaf_of(a, x->dst);
	uint32_t own[FORS_MAX_OFFSETS], n = UINT32_MAX, pl;
	int any = !a->om;

	/* an open pair may take any plane when every offset fits (one_rank) */
	if (a->om && a->om->k <= FORS_MAX_OFFSETS) {
		n = offset_planes(a, x, ls, ld, tight, own);
		any = fb->q == fb->nspines;
	}
	for (pl = 0; n != UINT32_MAX && pl < n; pl++)
		a->list[len++] = (int)(sub * fb->q + own[pl]);
	for (pl = 0; n == UINT32_MAX && pl < fb->q; pl++)
		if (fors_plane_live(fb, ls, pl) && fors_plane_live(fb, ld, pl) &&
		    (any || allowed(a, ls, x->dst, pl, tight)))
			a->list[len++] = (int)(sub * fb->q + pl);
	return len;
}

/*
 * With fewer offsets than planes the offsets are chosen greedily, so the
 * solver cannot prove a split necessary: short budgets, the tight attempt
 * only a repair, keep a phase the map has made hard from costing seconds.
 */
static const struct lec_budget narrow_budget = {
	.repair_moves = 20000,
	.restarts = 1,
	.exact_nodes = 0,
	.seed = 0x9e3779b97f4a7c15ull,
	.lp_rounds = 200,
};

/*
 * Once most phases split (narrow_hopeless), each costs the solver its
 * whole budget for a schedule another will beat: a short repair only.
 */
static const struct lec_budget hopeless_budget = {
	.repair_moves = 2000,
	.seed = 0x9e3779b97f4a7c15ull,
};

/* Past 64 phases, more than half of them split: see hopeless_budget. */
static int narrow_hopeless(const struct assigner *a)
{
	return a->om && a->done >= 64 && 2 * a->info->split > a->done;
}

static const struct lec_budget tight_budget = {
	.repair_moves = 20000,
	.seed = 0x9e3779b97f4a7c15ull,
	.hints_first = 1,
};

/*
 * Place the n pending transfers in k sub-phases: a list edge colouring
 * whose colours are (sub-phase, plane) pairs. Returns the solver's verdict.
 */
static int colour(struct assigner *a, uint32_t n, uint32_t k, int tight)
{
	const struct fors_fabric *fb = a->fb;
	struct lec_problem lp;
	uint32_t i, sub, len = 0;
	size_t need = (size_t)n * k * fb->q + 1;
	int r;

	if (need > a->list_cap) {
		int *l = realloc(a->list, sizeof(int) * need);

		if (!l)
			return LEC_NOMEM;
		a->list = l;
		a->list_cap = need;
	}
	for (i = 0; i < n; i++) {
		struct fors_xfer *x = &a->ph[a->pend[i]];
		uint32_t ls = leaf_of(a, x->src), ld = leaf_of(a, x->dst);

		a->left[i] = (int)ls;
		a->right[i] = (int)ld;
		a->lstart[i] = (int)len;
		for (sub = 0; sub < k; sub++)
			len = colours(a, x, sub, tight, len);
		a->colour[i] = k == 1 ? hint(a, x, ls, ld) : -1;
	}
	a->lstart[n] = (int)len;
	lp = (struct lec_problem){ (int)fb->m1, (int)fb->m1, (int)(k * fb->q),
				   (int)n, a->left, a->right, a->lstart,
				   a->list };
	r = lec_solve(&lp, a->colour, narrow_hopeless(a) ? &hopeless_budget :
			tight ? &tight_budget :
			a->om ? &narrow_budget : &lec_default_budget);
	if (r != LEC_SOLVED)
		return r;
	for (i = 0; i < n; i++) {
		struct fors_xfer *x = &a->ph[a->pend[i]];
		int32_t p = a->colour[i] % (int)fb->q;

		if (a->om)
			remember(a, x, p);
		fors_xfer_set_plane(x, p);
		a->sub[a->pend[i]] = (uint32_t)a->colour[i] / fb->q;
	}
	return r;
}

/*
 * Link up of leaf ls numbered cu and link down to ld numbered cd, for this
 * stamp's phase: 0 when either is taken already, else both taken now.
 */
static int claim(struct assigner *a, uint32_t ls, uint32_t cu, uint32_t ld,
		 uint32_t cd)
{
	const struct fors_fabric *fb = a->fb;
	uint32_t *u = &a->used[(size_t)ls * fb->q + cu];
	uint32_t *d = &a->used[((size_t)fb->m1 + ld) * fb->q + cd];

	if (*u == a->stamp || *d == a->stamp)
		return 0;
	*u = *d = a->stamp;
	return 1;
}

/*
 * With one cable per leaf and spine, whether a pair with offsets o may
 * take plane p: it reaches p already (*j = -1), or the offset *j is free
 * for it, the first free one, which the tight attempt allows only to a
 * pair with no plane yet but the base map's. Offsets fill from the
 * first, any free one fitting (one_rank), so one pass decides.
 */
static int slot_fits(const struct assigner *a, const int16_t *o, uint32_t p,
		     int open, int *j)
{
	uint32_t k;

	*j = -1;
	for (k = a->own; k < a->om->k && o[k] >= 0; k++)
		if ((uint32_t)o[k] == p)
			return 1;
	*j = (int)k;
	return k < a->om->k && (open || k <= a->pre);
}

/*
 * The first guess of pending transfer i if the tight attempt takes it, or
 * -1; *j as slot_fits says, or -2 for remember() to find the offset.
 */
static int32_t tight_guess(const struct assigner *a, uint32_t i, int *j)
{
	const struct fors_fabric *fb = a->fb;
	const struct fors_xfer *x = &a->ph[a->pend[i]];
	uint32_t ls = leaf_of(a, x->src), ld = leaf_of(a, x->dst);
	uint32_t p = a->slot[x->dst];
	int32_t h;

	if (fb->q == fb->nspines && fors_plane_live(fb, ls, p) &&
	    fors_plane_live(fb, ld, p) &&
	    slot_fits(a, offsets_of(a, ls, x->dst), p, 0, j))
		return (int32_t)p;
	*j = -2;
	h = hint(a, x, ls, ld);
	return h >= 0 && allowed(a, ls, x->dst, (uint32_t)h, 1) ? h : -1;
}

/*
 * The tight attempt without the solver: when the first guesses of the n
 * pending transfers are allowed and put each plane once on every leaf's
 * way up and way down, they are the colouring the solver would keep (its
 * greedy start takes every guess that fits, in any order). Every phase of
 * a healthy fabric is such a one (doc/narrow-lmc.md): one pass, no sort.
 */
static int hinted(struct assigner *a, uint32_t n)
{
	uint32_t i;

	a->stamp++;
	for (i = 0; i < n; i++) {
		struct fors_xfer *x = &a->ph[a->pend[i]];
		int32_t h = tight_guess(a, i, &a->fresh[i]);

		if (h < 0 || !claim(a, leaf_of(a, x->src), (uint32_t)h,
				    leaf_of(a, x->dst), (uint32_t)h))
			return 0;
		a->colour[i] = h;
	}
	for (i = 0; i < n; i++) {
		struct fors_xfer *x = &a->ph[a->pend[i]];

		if (a->fresh[i] == -2)
			remember(a, x, a->colour[i]);
		else if (a->fresh[i] >= 0)
			offsets_of(a, leaf_of(a, x->src), x->dst)[a->fresh[i]] =
				(int16_t)a->colour[i];
		fors_xfer_set_plane(x, a->colour[i]);
		a->sub[a->pend[i]] = 0;
	}
	return 1;
}

/* Kuhn's augmenting path: transfer i into a plane alive at both leaves. */
static int augment(const struct assigner *a, const uint32_t *set, uint32_t i,
		   int32_t *owner, uint32_t *seen, uint32_t stamp)
{
	const struct fors_xfer *x = &a->ph[a->pend[set[i]]];
	uint32_t ls = leaf_of(a, x->src), ld = leaf_of(a, x->dst), p;

	for (p = 0; p < a->fb->q; p++) {
		if (seen[p] == stamp || !fors_plane_live(a->fb, ls, p) ||
		    !fors_plane_live(a->fb, ld, p))
			continue;
		seen[p] = stamp;
		if (owner[p] < 0 ||
		    augment(a, set, (uint32_t)owner[p], owner, seen, stamp)) {
			owner[p] = (int32_t)i;
			return 1;
		}
	}
	return 0;
}

/*
 * A lower bound on the sub-phases n pending transfers need: a sub-phase
 * places at most nu of the transfers of one leaf, nu the largest matching
 * of them into planes alive at both ends.
 */
static uint32_t sub_bound(const struct assigner *a, uint32_t n)
{
	const struct fors_fabric *fb = a->fb;
	uint32_t *set = malloc(sizeof(uint32_t) * (n + 1));
	uint32_t *seen = calloc(fb->q + 1, sizeof(uint32_t));
	int32_t *owner = malloc(sizeof(int32_t) * (fb->q + 1));
	uint32_t side, l, i, best = 1, stamp = 0;

	for (side = 0; set && seen && owner && side < 2; side++) {
		for (l = 0; l < fb->m1; l++) {
			uint32_t k = 0, nu = 0;

			for (i = 0; i < n; i++) {
				const struct fors_xfer *x = &a->ph[a->pend[i]];

				if (leaf_of(a, side ? x->dst : x->src) == l)
					set[k++] = i;
			}
			memset(owner, 0xff, sizeof(int32_t) * fb->q);
			for (i = 0; i < k; i++)
				nu += augment(a, set, i, owner, seen, ++stamp);
			if (nu && (k + nu - 1) / nu > best)
				best = (k + nu - 1) / nu;
		}
	}
	free(set);
	free(seen);
	free(owner);
	return best;
}

/*
 * The fewest sub-phases: k from the counting bound up, each smaller k
 * proven infeasible by the solver (or counted as unproven).
 */
static int split(struct assigner *a, uint32_t n, uint32_t *k)
{
	uint32_t lb = sub_bound(a, n);
	int r;

	for (*k = lb > 2 ? lb : 2;; (*k)++) {
		/* one transfer per sub-phase places them all, if each has a plane */
		if (*k > n) {
			a->stuck = 1;
			return FORS_EINVAL;
		}
		r = colour(a, n, *k, 0);
		if (r == LEC_SOLVED || r == LEC_NOMEM)
			return r == LEC_NOMEM ? FORS_ENOMEM : 0;
		a->info->unproven += r == LEC_UNKNOWN;
	}
}

/* The leaf of transfer t's source (side 1) or destination (side 0). */
static uint32_t pend_leaf(const struct assigner *a, uint32_t t, int side)
{
	const struct fors_xfer *x = &a->ph[t];

	return leaf_of(a, side ? x->src : x->dst);
}

/*
 * pend, which comes in transfer order, by leaf pair and then transfer:
 * two stable counting passes, by destination leaf, then by source leaf.
 */
static void by_pair(struct assigner *a, uint32_t n)
{
	uint32_t *from = a->pend, *to = a->tmp, *c = a->count, *sw, i, l;
	int side;

	for (side = 0; side < 2; side++) {
		memset(c, 0, sizeof(uint32_t) * (a->fb->m1 + 1));
		for (i = 0; i < n; i++)
			c[pend_leaf(a, from[i], side) + 1]++;
		for (l = 0; l < a->fb->m1; l++)
			c[l + 1] += c[l];
		for (i = 0; i < n; i++)
			to[c[pend_leaf(a, from[i], side)]++] = from[i];
		sw = from;
		from = to;
		to = sw;
	}
}

/*
 * Algorithm 1's pattern repeats, so phases often have the same graph of
 * leaf pairs: solve each once. Sorting the pending transfers by leaf pair
 * makes equal graphs line up; parallel transfers are interchangeable.
 */
static uint64_t sort_pending(struct assigner *a, uint32_t n)
{
	uint64_t h = 1469598103934665603ull;
	uint32_t i;

	by_pair(a, n);
	for (i = 0; i < n; i++) {
		const struct fors_xfer *x = &a->ph[a->pend[i]];

		a->key[i] = leaf_of(a, x->src) * a->fb->m1 + leaf_of(a, x->dst);
		h = (h ^ a->key[i]) * 1099511628211ull;
	}
	return h;
}

static const struct memo *memo_find(const struct assigner *a, uint32_t n,
				    uint64_t h)
{
	uint32_t i;

	for (i = 0; i < a->nmemo; i++)
		if (a->memo[i].hash == h && a->memo[i].n == n &&
		    !memcmp(a->memo[i].key, a->key, sizeof(uint32_t) * n))
			return &a->memo[i];
	return NULL;
}

static int memo_add(struct assigner *a, uint32_t n, uint64_t h, uint32_t k,
		    uint32_t unproven)
{
	struct memo *m;
	uint32_t i;

	if (a->nmemo == a->memocap) {
		uint32_t cap = a->memocap ? 2 * a->memocap : 64;

		m = realloc(a->memo, sizeof(*m) * cap);
		if (!m)
			return FORS_ENOMEM;
		a->memo = m;
		a->memocap = cap;
	}
	m = &a->memo[a->nmemo];
	m->key = malloc(sizeof(uint32_t) * (n + 1));
	m->plane = malloc(sizeof(int32_t) * (n + 1));
	m->sub = malloc(sizeof(uint32_t) * (n + 1));
	a->nmemo++;
	if (!m->key || !m->plane || !m->sub)
		return FORS_ENOMEM;
	m->hash = h;
	m->n = n;
	m->k = k;
	m->unproven = unproven;
	memcpy(m->key, a->key, sizeof(uint32_t) * n);
	for (i = 0; i < n; i++) {
		m->plane[i] = fors_xfer_plane(&a->ph[a->pend[i]]);
		m->sub[i] = a->sub[a->pend[i]];
	}
	return 0;
}

/* Colour the n pending transfers, splitting their phase if need be. */
static int solve(struct assigner *a, uint32_t n, uint32_t *k)
{
	uint32_t unproven = a->info->unproven, i;
	int memo = !a->om && !a->cyclic;	/* cyclic phases do not repeat */
	uint64_t h;
	const struct memo *m;
	int r;

	if (a->om && hinted(a, n))
		return 0;
	h = a->cyclic ? 0 : sort_pending(a, n);
	m = memo ? memo_find(a, n, h) : NULL;
	if (m) {
		for (i = 0; i < n; i++) {
			fors_xfer_set_plane(&a->ph[a->pend[i]], m->plane[i]);
			a->sub[a->pend[i]] = m->sub[i];
		}
		*k = m->k;
		a->info->unproven += m->unproven;
		return 0;
	}
	r = a->om ? colour(a, n, 1, 1) : LEC_UNKNOWN;
	if (r != LEC_SOLVED && r != LEC_NOMEM)
		r = colour(a, n, 1, 0);
	if (r == LEC_NOMEM)
		return FORS_ENOMEM;
	if (r != LEC_SOLVED) {
		a->info->unproven += r == LEC_UNKNOWN;
		r = split(a, n, k);
		if (r)
			return r;
	}
	return memo ? memo_add(a, n, h, *k, a->info->unproven - unproven) : 0;
}

/*
 * The n pending transfers of a cyclic phase keep the planes the schedule
 * came with (schedule/planes.c) when both leaves reach each one's spine
 * and no cable carries two (fabric.h, fors_plane_cable); else the solver
 * colours the phase.
 */
static int given(struct assigner *a, const struct fors_xfer *in, uint32_t n)
{
	const struct fors_fabric *fb = a->fb;
	uint32_t i;
	int32_t cu, cd;

	if (!a->cyclic || a->om)
		return 0;
	a->stamp++;
	for (i = 0; i < n; i++) {
		int32_t x = fors_xfer_plane(&in[a->pend[i]]);
		uint32_t ls = leaf_of(a, in[a->pend[i]].src);
		uint32_t ld = leaf_of(a, in[a->pend[i]].dst);

		if (x < 0 || (uint32_t)x >= fb->q)
			return 0;
		cu = fors_plane_cable(fb, ls, (uint32_t)x);
		cd = fors_plane_cable(fb, ld, (uint32_t)x);
		if (cu < 0 || cd < 0 ||
		    !claim(a, ls, (uint32_t)cu, ld, (uint32_t)cd))
			return 0;
	}
	for (i = 0; i < n; i++)
		fors_xfer_set_plane(&a->ph[a->pend[i]],
				    fors_xfer_plane(&in[a->pend[i]]));
	return 1;
}

/*
 * The residue rule's planes for phase p (routing/residue.c): slot s's
 * send of index n on the (n mod (m0 - f))-th plane alive at every leaf.
 */
static void vias(struct assigner *a, uint32_t p)
{
	uint32_t s, r = a->fb->m0 - a->fb->f;

	for (s = 0; s < a->fb->m0; s++) {
		int64_t n = p < a->in.pf ? inter_index(&a->in, s, p) : -1;

		a->via[s] = n < 0 ? -1 : (int32_t)a->order[n % r];
	}
}

/*
 * A whole phase in one pass, into a->ph: each inter-leaf transfer on its
 * destination's slot plane (the tight attempt's first guess, tight_guess),
 * in a cyclic schedule over the base map on the base map's plane (the
 * schedule searched its phases over it, cyclic.h), under the residue
 * rule on its send's plane, or on the plane the schedule gave it (given,
 * shift.h; any free offset in these two), live at both leaves, reached by
 * its pair or a free offset, no cable twice. The slot plane places every phase of a whole fabric and the
 * residue rule every phase it is chosen for (doc/narrow-lmc.md); 0 when a
 * transfer fails, its pairs' offsets as they were.
 */
static int slotted(struct assigner *a, const struct fors_xfer *in,
		   uint32_t len)
{
	const struct fors_fabric *fb = a->fb;
	uint32_t i, ls, ld;
	int32_t p;
	int16_t *o;
	int j;

	a->stamp++;
	for (i = 0; i < len; i++) {
		struct fors_xfer x = in[i];

		ls = leaf_of(a, x.src);
		ld = leaf_of(a, x.dst);
		o = offsets_of(a, ls, x.dst);
		p = a->resid ? a->via[x.src - ls * fb->m0] :
		    a->info->given ? fors_xfer_plane(&x) :
		    a->pre && (a->cyclic || a->om->k == 1 ||
				a->info->base_only) ? o[0] :
		    (int32_t)a->slot[x.dst];
		j = -1;
		if (ls != ld &&
		    !(p >= 0 && fors_plane_live(fb, ls, (uint32_t)p) &&
		      fors_plane_live(fb, ld, (uint32_t)p) &&
		      slot_fits(a, o, (uint32_t)p,
				a->resid || a->info->given, &j) &&
		      claim(a, ls, (uint32_t)p, ld, (uint32_t)p)))
			break;
		a->fresh[i] = j + 1;
		if (j >= 0)
			o[j] = (int16_t)p;
		fors_xfer_set_plane(&x, ls == ld ? -1 : p);
		a->ph[i] = x;
	}
	if (i == len)
		return 1;
	while (i--)
		if (a->fresh[i])
			offsets_of(a, leaf_of(a, in[i].src),
				   in[i].dst)[a->fresh[i] - 1] = -1;
	return 0;
}

/* Phase p of the input, its planes set, appended to the output. */
static int phase(struct assigner *a, uint32_t p)
{
	const struct fors_schedule *s = a->s;
	uint32_t n = 0, k = 1, i, len = (uint32_t)(s->start[p + 1] - s->start[p]);
	int r;

	a->done = p;
	if (a->resid)
		vias(a, p);
	if (a->om && a->fb->q == a->fb->nspines &&
	    slotted(a, &a->inx[s->start[p]], len)) {
		if (a->info->subs)
			a->info->subs[p] = 1;
		return fors_split_phase(&a->out, a->ph, len, a->sub, 1);
	}
	ranks(a, p);
	memcpy(a->ph, &a->inx[s->start[p]], sizeof(*a->ph) * len);
	for (i = 0; i < len; i++) {
		struct fors_xfer *x = &a->ph[i];
		int inter = leaf_of(a, x->src) != leaf_of(a, x->dst);
		int32_t pl = -1;

		a->sub[i] = 0;
		if (inter && a->info->method == FORS_METHOD_ALG2)
			pl = alg2_plane(a, x);
		else if (inter)
			a->pend[n++] = i;
		fors_xfer_set_plane(x, pl);
	}
	if (n && !given(a, &a->inx[s->start[p]], n)) {
		r = solve(a, n, &k);
		if (r)
			return r;
		a->info->split += k - 1;
		if (a->info->split_cap && a->info->split >= a->info->split_cap)
			return FORS_ELIMIT;
	}
	if (a->info->subs)
		a->info->subs[p] = k;
	return fors_split_phase(&a->out, a->ph, len, a->sub, k);
}

/*
 * Whether the residue rule places the phases: fewer offsets than planes,
 * Algorithm 1's schedule on single cables, some plane dead at a leaf (else
 * the slot plane does), at least m0 - f planes alive at every leaf, and k
 * offsets enough for it. 1 yes, 0 no, -1 out of memory.
 */
static int residue_rule(const struct assigner *a)
{
	const struct fors_fabric *fb = a->fb;

	if (!a->om || a->cyclic || a->info->base_only ||
	    fb->q != fb->nspines || a->nunimp == fb->q ||
	    a->nunimp < fb->m0 - fb->f)
		return 0;
	return fors_residue_fits(&a->in, fb->m0 - fb->f, a->om->k - a->pre);
}

static int setup(struct assigner *a)
{
	const struct fors_fabric *fb = a->fb;
	uint32_t p, k = 0, m = fb->m1 * fb->m0;

	inter_init(&a->in, fb->m0, fb->m1, fb->f);
	a->order = malloc(sizeof(uint32_t) * (fb->q + 1));
	a->rank = malloc(sizeof(uint32_t) * fb->m0);
	a->ph = malloc(sizeof(struct fors_xfer) * (m + 1));
	a->pend = malloc(sizeof(uint32_t) * (m + 1));
	a->sub = malloc(sizeof(uint32_t) * (m + 1));
	a->key = malloc(sizeof(uint32_t) * (m + 1));
	a->tmp = malloc(sizeof(uint32_t) * (m + 1));
	a->leaf = malloc(sizeof(uint32_t) * (m + 1));
	a->slot = malloc(sizeof(uint32_t) * (m + 1));
	a->count = malloc(sizeof(uint32_t) * (fb->m1 + 1));
	a->left = malloc(sizeof(int) * (m + 1));
	a->right = malloc(sizeof(int) * (m + 1));
	a->lstart = malloc(sizeof(int) * (m + 1));
	a->colour = malloc(sizeof(int) * (m + 1));
	a->fresh = malloc(sizeof(int) * (m + 1));
	a->inx = a->s->xfers;
	if ((a->take ? fors_split_init_over(&a->out, a->take) :
		       fors_split_init(&a->out, a->s)) ||
	    !a->ph || !a->order || !a->rank ||
	    !a->pend ||
	    !a->sub || !a->key || !a->tmp || !a->leaf || !a->slot ||
	    !a->count || !a->left || !a->right || !a->lstart || !a->colour ||
	    !a->fresh)
		return FORS_ENOMEM;
	for (p = 0; p < m; p++) {
		a->leaf[p] = p / fb->m0;
		a->slot[p] = p % fb->m0 % fb->q;
	}
	for (p = 0; p < fb->q; p++)
		if (!fb->impacted[p])
			a->order[k++] = p;
	a->nunimp = k;
	for (p = 0; p < fb->q; p++)
		if (fb->impacted[p])
			a->order[k++] = p;
	a->cyclic = fors_schedule_is_cyclic(a->s);
	a->own = a->pre && !a->cyclic && !a->info->base_only &&
		 !a->info->see_base && a->om->k > 1;
	a->via = malloc(sizeof(int32_t) * fb->m0);
	a->resid = residue_rule(a);
	if (!a->via || a->resid < 0)
		return FORS_ENOMEM;
	if (a->cyclic || a->om) {
		a->used = calloc(2 * (size_t)fb->m1 * fb->q + 1,
				 sizeof(uint32_t));
		if (!a->used)
			return FORS_ENOMEM;
	}
	a->info->method = !a->om && !a->cyclic &&
			  a->nunimp >= fb->m0 - fb->f ?
			  FORS_METHOD_ALG2 : FORS_METHOD_LEC;
	return 0;
}

static void cleanup(struct assigner *a)
{
	uint32_t i;

	for (i = 0; i < a->nmemo; i++) {
		free(a->memo[i].key);
		free(a->memo[i].plane);
		free(a->memo[i].sub);
	}
	free(a->memo);
	free(a->key);
	free(a->tmp);
	free(a->leaf);
	free(a->slot);
	free(a->count);
	free(a->order);
	free(a->rank);
	fors_split_free(&a->out);
	free(a->ph);
	free(a->pend);
	free(a->sub);
	free(a->left);
	free(a->right);
	free(a->lstart);
	free(a->colour);
	free(a->fresh);
	free(a->via);
	free(a->list);
	free(a->used);
}

/*
 * Phase p of in, waited for while it is being built; more transfers than
 * hosts is a phase nothing can place (a->crowded, p + 1).
 */
static int arrived(struct assigner *a, const struct fors_schedule *in,
		   uint32_t p)
{
	if (a->info->built)
		fors_progress_wait(a->info->built, p + 1);
	if (in->start[p + 1] - in->start[p] <= (size_t)in->m0 * in->m1)
		return 0;
	a->crowded = p + 1;
	return FORS_EINVAL;
}

/*
 * Every phase of in placed: its phases split where they must be. A phase
 * being built is waited for, and every phase is before the taken
 * transfers are freed on a failure.
 */
static int run(struct assigner *a, const struct fors_schedule *in,
	       struct fors_schedule **out, struct fors_error *err)
{
	uint32_t p;
	int r;

	*out = NULL;
	a->s = in;
	a->info->split = a->info->unproven = 0;
	if (in->m0 != a->fb->m0 || in->m1 != a->fb->m1 || in->f != a->fb->f) {
		fors_error_set(err, "the schedule was not built for this fabric");
		return FORS_EINVAL;
	}
	r = setup(a);
	for (p = 0; !r && p < in->nphases; p++) {
		r = arrived(a, in, p);
		if (!r)
			r = phase(a, p);
	}
	if (r && a->info->built)
		fors_progress_wait(a->info->built, in->nphases);
	if (!r)
		r = fors_split_finish(&a->out, in, out);
	cleanup(a);
	if (a->crowded)
		fors_error_set(err, "phase %u has more transfers than hosts",
			       a->crowded - 1);
	else if (r == FORS_ELIMIT)
		fors_error_set(err, "%u phases added: stopped",
			       a->info->split_cap);
	else if (r && a->stuck && a->om)
		fors_error_set(err, "%u LID offsets per host leave a transfer no plane: with parallel cables each offset's spine sends it down one cable, which the transfer's leaf cannot reach; a larger LMC gives it another",
			       a->om->k);
	else if (r && a->stuck)
		fors_error_set(err, "a transfer has no plane alive at both its leaves");
	else if (r)
		fors_error_set(err, "out of memory while assigning spines");
	if (r)
		return r;
	(*out)->q = a->fb->q;
	(*out)->m = a->fb->m;
	return 0;
}

int fors_assign_planes(const struct fors_fabric *fb,
		       const struct fors_schedule *s, struct fors_schedule **out,
		       struct fors_assign_info *info, struct fors_error *err)
{
	struct assigner a = { .fb = fb, .info = info };

	return run(&a, s, out, err);
}

void fors_offmap_free(struct fors_offmap *om)
{
	if (om)
		free(om->plane);
	free(om);
}

/*
 * Offset 0 of every pair the base map's plane (routing/basemap.h): the
 * phases may use it where it serves them, and take the other offsets
 * where it does not. The pairs' count of such offsets.
 */
static uint32_t prefill(const struct fors_fabric *fb, struct fors_offmap *om,
			const uint16_t *base)
{
	size_t i, n = (size_t)fb->m1 * fb->nhosts;

	for (i = 0; base && i < n; i++)
		if (base[i] != FORS_BASEMAP_NONE)
			om->plane[i * om->k] = (int16_t)base[i];
	return base != NULL;
}

int fors_assign_narrow(const struct fors_fabric *fb, struct fors_schedule *s,
		       uint32_t k, struct fors_schedule **out,
		       struct fors_offmap **om, struct fors_assign_info *info,
		       struct fors_error *err)
{
	struct assigner a = { .fb = fb, .info = info, .take = s };
	size_t n = (size_t)fb->m1 * fb->nhosts * k;
	int r;

	*om = NULL;
	a.om = calloc(1, sizeof(*a.om));
	if (a.om)
		a.om->plane = malloc(sizeof(int16_t) * (n + 1));
	if (!a.om || !a.om->plane) {
		fors_offmap_free(a.om);
		fors_error_set(err, "out of memory while assigning spines");
		return FORS_ENOMEM;
	}
	a.om->k = k;
	a.om->nhosts = fb->nhosts;
	memset(a.om->plane, 0xff, sizeof(int16_t) * n);
	a.pre = prefill(fb, a.om, info->base);
	r = run(&a, s, out, err);
	if (r)
		fors_offmap_free(a.om);
	else
		*om = a.om;
	return r;
}
