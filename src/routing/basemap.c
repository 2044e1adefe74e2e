// SPDX-License-Identifier: MIT
/*
 * The base map: what every LID offset is routed through for traffic that
 * reads no schedule (MPI, storage, NCCL). Each host keeps its nominal
 * plane wherever that plane is alive at both ends: on a healthy tree that
 * is ftree's routing, one spine per destination slot, under which the
 * linear shift in leaf and port order never shares a link. Where it is
 * dead, the leaf takes the plane whose cable up and whose cable down into
 * the host's leaf carry the fewest (leaf, host) routes so far, so no
 * survivor collects a dead plane's destinations and no leaf's cable down
 * collects a dead plane's sources; first of all, no cable down is loaded
 * past what some cable must carry anyway with one route per (leaf, host),
 * T*_L, which would make the exchange longer than its bound. Pairs of
 * neighbouring leaves choose first, and by position: in the shift's
 * phases that wrap from one leaf into the next, a leaf's hosts send to
 * the next leaf's first slots (their planes) and receive from the
 * previous leaf's last ones, so a fallback into the next leaf takes the
 * highest plane and one into the previous leaf the lowest, which those
 * phases leave free.
 */
#include <stdlib.h>

#include "routing/basemap.h"

#define PENDING (FORS_BASEMAP_NONE - 1)

struct bm {
	const struct fors_basemap_in *in;
	const struct fors_fabric *fb;
	uint16_t *out;
	uint32_t *up;		/* [m1 * q]: hosts leaf l sends up plane p */
	uint32_t *dn;		/* [m1 * q]: routes into leaf l down plane p */
	uint32_t *dnt;		/* [m1 * q]: dn's routes in transfers, each
				   as many as its source leaf has hosts */
	uint32_t *hl;		/* [m1]: the hosts of each leaf */
	uint32_t cap;		/* transfers some cable carries whatever the
				   map (shares()) */
	uint32_t *nextl;	/* [m1]: the next leaf serving hosts, cyclic */
	uint32_t *prevl;	/* [m1]: the previous one */
	uint32_t *stack;	/* [q]: routes to hosts near one (near()) */
	uint32_t *meet;		/* [q]: routes from other leaves that meet
				   one's in the shift (near_down()) */
};

static uint32_t leaf_of(const struct fors_fabric *fb, uint32_t h)
{
	return fb->hosts[h].sid / fb->m0;
}

static uint16_t *at(const struct bm *b, uint32_t l, uint32_t h)
{
	return &b->out[(size_t)l * b->fb->nhosts + h];
}

static int siblings(const struct fors_fabric *fb, uint32_t g, uint32_t h)
{
	const struct fors_fhost *x = &fb->hosts[g], *y = &fb->hosts[h];

	return x->node == y->node || (x->sysguid && x->sysguid == y->sysguid);
}

/* Ports of one node (or system image) form a group, listed through next. */
static int groups(const struct fors_fabric *fb, struct fors_nominal *n)
{
	uint32_t h, g, *last = malloc(sizeof(uint32_t) * (fb->nhosts + 1));

	if (!last)
		return FORS_ENOMEM;
	for (h = 0; h < fb->nhosts; h++) {
		n->group[h] = h;
		last[h] = UINT32_MAX;
		for (g = 0; g < h && n->group[h] == h; g++)
			if (siblings(fb, g, h))
				n->group[h] = n->group[g];
	}
	for (h = fb->nhosts; h-- > 0;) {
		n->next[h] = last[n->group[h]];
		last[n->group[h]] = h;
	}
	free(last);
	return 0;
}

/*
 * The ((h + o) mod r)-th of the r planes alive at h's leaf: hosts in a
 * row get planes in a row, across leaves too, so a run of as many hosts
 * as a leaf has planes is reached through different planes from every
 * leaf (the linear shift's phases; ftree's slot planes on a full tree).
 * 0 when the leaf has no live plane.
 */
static uint32_t in_turn(const struct fors_fabric *fb, uint32_t h, uint32_t o)
{
	uint32_t l = leaf_of(fb, h), p, r = 0, want;

	for (p = 0; p < fb->q; p++)
		r += fors_plane_live(fb, l, p);
	want = r ? (h + o) % r : 0;
	for (p = 0; p < fb->q; p++)
		if (fors_plane_live(fb, l, p) && want-- == 0)
			return p;
	return 0;
}

/*
 * Is plane p's spine that of an earlier sibling of h? Siblings before
 * first have their designated plane; those from first on (the rest of
 * first's leaf, which turn() weighs before designating) the one turn o
 * would give them.
 */
static int sibling_spine(const struct fors_fabric *fb,
			 const struct fors_nominal *n, uint32_t h, uint32_t p,
			 uint32_t first, uint32_t o)
{
	uint32_t g, s;

	for (g = n->group[h]; g < h; g = n->next[g]) {
		s = g < first ? n->designated[g] : in_turn(fb, g, o);
		if (fb->plane_spine[s] == fb->plane_spine[p])
			return 1;
	}
	return 0;
}

/*
 * in_turn, moved to a live plane on a spine no sibling uses and that no
 * earlier host of the leaf has, each rule dropped in turn where none is
 * left; taken marks the leaf's planes designated so far.
 */
static void designate(const struct fors_fabric *fb, struct fors_nominal *n,
		      uint8_t *taken, uint32_t h, uint32_t o)
{
	uint32_t q = fb->q, l = leaf_of(fb, h), start = in_turn(fb, h, o), k, p;
	int strict;

	for (strict = 3; strict >= 0; strict--)
		for (k = 0; k < q; k++) {
			p = (start + k) % q;
			if (!fors_plane_live(fb, l, p) ||
			    (strict >= 2 && sibling_spine(fb, n, h, p, h, o)) ||
			    (strict % 2 && taken[l * q + p]))
				continue;
			n->designated[h] = p;
			taken[l * q + p] = 1;
			return;
		}
	n->designated[h] = start % q;
	taken[l * q + start % q] = 1;
}

/*
 * The turn, o or past it, by which the hosts of h's leaf from h on give
 * the fewest of them a spine an earlier sibling has: the run turns as a
 * whole, and this leaf's and the next ones' stay runs, where moving one
 * host at a time would push each next one onto its neighbour's plane.
 */
static uint32_t turn(const struct fors_fabric *fb, const struct fors_nominal *n,
		     uint32_t h, uint32_t o)
{
	uint32_t l = leaf_of(fb, h), k, best = o, bc = UINT32_MAX, c, x;

	for (k = 0; k < fb->q; k++) {
		for (c = 0, x = h; x < fb->nhosts && leaf_of(fb, x) == l; x++)
			c += n->group[x] != x &&
			     sibling_spine(fb, n, x, in_turn(fb, x, o + k),
					   h, o + k);
		if (c < bc) {
			bc = c;
			best = o + k;
		}
	}
	return best % fb->q;
}

void fors_nominal_free(struct fors_nominal *n)
{
	free(n->designated);
	free(n->group);
	free(n->next);
	*n = (struct fors_nominal){ NULL, NULL, NULL };
}

int fors_nominal_build(const struct fors_fabric *fb, struct fors_nominal *out)
{
	uint8_t *taken = calloc((size_t)fb->m1 * fb->q + 1, 1);
	uint32_t h, o = 0;
	int r = FORS_ENOMEM;

	out->designated = malloc(sizeof(uint32_t) * (fb->nhosts + 1));
	out->group = malloc(sizeof(uint32_t) * (fb->nhosts + 1));
	out->next = malloc(sizeof(uint32_t) * (fb->nhosts + 1));
	if (taken && out->designated && out->group && out->next)
		r = groups(fb, out);
	for (h = 0; !r && h < fb->nhosts; h++) {
		if (!h || leaf_of(fb, h) != leaf_of(fb, h - 1))
			o = turn(fb, out, h, o);
		designate(fb, out, taken, h, o);
	}
	free(taken);
	if (r)
		fors_nominal_free(out);
	return r;
}

/* A route from l to h through plane p: the cables it loads at each end. */
static void load(struct bm *b, uint32_t l, uint32_t h, uint32_t p)
{
	const struct fors_fabric *fb = b->fb;
	uint32_t lh = leaf_of(fb, h);
	uint32_t u = l * fb->q + (uint32_t)fors_plane_cable(fb, l, p);
	uint32_t d = lh * fb->q + (uint32_t)fors_plane_cable(fb, lh, p);

	*at(b, l, h) = (uint16_t)p;
	b->up[u]++;
	b->dn[d]++;
	b->dnt[d] += b->hl[l];
}

/* The live planes of leaf l. */
static uint32_t live_planes(const struct fors_fabric *fb, uint32_t l)
{
	uint32_t p, u = 0;

	for (p = 0; p < fb->q; p++)
		u += fors_plane_live(fb, l, p);
	return u;
}

/*
 * Each leaf's hosts, and what some cable carries whatever the map: up,
 * a leaf's off-leaf hosts unsplit over its live cables (T*_L's up term,
 * doc/narrow-lmc.md); down, a leaf's share of what it receives. A cable
 * up to that costs the exchange nothing.
 */
static void shares(struct bm *b)
{
	const struct fors_fabric *fb = b->fb;
	uint32_t l, a, n = (uint32_t)fb->nhosts, u, c;

	b->cap = 0;
	for (l = 0; l < fb->m1; l++) {
		for (b->hl[l] = 0, a = 0; a < fb->m0; a++)
			b->hl[l] += fb->host_at[l * fb->m0 + a] >= 0;
		u = live_planes(fb, l);
		if (!u || !b->hl[l])
			continue;
		c = (n - b->hl[l] + u - 1) / u * b->hl[l];
		b->cap = c > b->cap ? c : b->cap;
		c = (uint32_t)(((uint64_t)(n - b->hl[l]) * b->hl[l] + u - 1) / u);
		b->cap = c > b->cap ? c : b->cap;
	}
}

/*
 * Transfers route l -> h through p would put p's cable down past b->cap,
 * and with in->cap_up l's cable up. Down always; up only as a candidate:
 * each leaf's cables up are balanced by the count of routes (rank()), and
 * a cap there too takes from the shift on some fabrics (small ones, cuts
 * on three leaves) what it gives the exchange, so route.c weighs it.
 */
static uint32_t excess(const struct bm *b, uint32_t l, uint32_t h, uint32_t p)
{
	const struct fors_fabric *fb = b->fb;
	uint32_t lh = leaf_of(fb, h), c = b->cap - b->hl[l], e;
	uint32_t d = b->dnt[lh * fb->q + (uint32_t)fors_plane_cable(fb, lh, p)];
	uint32_t u = b->up[l * fb->q + (uint32_t)fors_plane_cable(fb, l, p)];

	e = d <= c ? 0 : d - c;
	if (b->in->cap_up && (u + 1) * b->hl[l] > b->cap)
		e += (u + 1) * b->hl[l] - b->cap;
	return e < 4095 ? e : 4095;
}

/*
 * Which hosts share their nominal plane with an earlier host of their
 * leaf, where in->spread asks it of that leaf (a cut one, or any): one
 * cable down would carry both from every leaf, so each leaf chooses
 * apart. Elsewhere the nominal planes stay, in turn around the whole
 * fabric, as the shift needs where every leaf lost the same planes.
 */
static void doubled(struct bm *b, uint8_t *twice)
{
	const struct fors_fabric *fb = b->fb;
	uint32_t h, l, lh, most = 0, last = UINT32_MAX;
	int cut = 0;

	for (l = 0; l < fb->m1; l++)
		most = fb->leaf[l] != FORS_NO_PEER && live_planes(fb, l) > most ?
		       live_planes(fb, l) : most;
	for (h = 0; h < fb->nhosts; h++) {
		lh = leaf_of(fb, h);
		for (l = 0; lh != last && l < fb->q; l++)
			b->stack[l] = 0;
		if (lh != last)
			cut = b->in->spread == FORS_SPREAD_ALL ||
			      (b->in->spread == FORS_SPREAD_CUT &&
			       live_planes(fb, lh) < most);
		last = lh;
		twice[h] = b->stack[b->in->nominal[h] % fb->q]++ > 0 && cut;
	}
}

/* Every nominal route alive at both ends; the rest, and twice[], pending. */
static void nominal(struct bm *b, const uint8_t *twice)
{
	const struct fors_fabric *fb = b->fb;
	uint32_t h, l, lh, p;

	for (h = 0; h < fb->nhosts; h++) {
		lh = leaf_of(fb, h);
		p = b->in->nominal[h];
		for (l = 0; l < fb->m1; l++) {
			*at(b, l, h) = FORS_BASEMAP_NONE;
			if (l == lh || fb->leaf[l] == FORS_NO_PEER)
				continue;
			if (!twice[h] && fors_plane_reach(fb, l, p) &&
			    fors_plane_reach(fb, lh, p))
				load(b, l, h, p);
			else
				*at(b, l, h) = PENDING;
		}
	}
}

/* The leaves serving hosts, each with its neighbours on a circle. */
static void neighbours(struct bm *b)
{
	const struct fors_fabric *fb = b->fb;
	uint32_t l, first = UINT32_MAX, last = UINT32_MAX;

	for (l = 0; l < fb->m1; l++) {
		b->nextl[l] = b->prevl[l] = UINT32_MAX;
		if (!fors_leaf_serves(fb, l))
			continue;
		if (last != UINT32_MAX) {
			b->nextl[last] = l;
			b->prevl[l] = last;
		} else {
			first = l;
		}
		last = l;
	}
	if (first != UINT32_MAX) {
		b->nextl[last] = first;
		b->prevl[first] = last;
	}
}

/* 1 when a sibling port of h goes from l up p's spine (mFtree). */
static int sibling(const struct bm *b, uint32_t l, uint32_t h, uint32_t p)
{
	const struct fors_fabric *fb = b->fb;
	const struct fors_basemap_in *in = b->in;
	uint32_t g;

	if (!in->group)
		return 0;
	for (g = in->group[h]; g != UINT32_MAX; g = in->next[g]) {
		uint16_t x = *at(b, l, g);

		if (g != h && x < PENDING &&
		    fb->plane_spine[x] == fb->plane_spine[p])
			return 1;
	}
	return 0;
}

/*
 * How many hosts near h, fewer places apart than l has hosts (the shift
 * sends l's hosts to such a run at once), l reaches through each plane.
 */
static void near(struct bm *b, uint32_t l, uint32_t h)
{
	const struct fors_fabric *fb = b->fb;
	uint32_t a, w, n = fb->nhosts;

	for (a = 0; a < fb->q; a++)
		b->stack[a] = 0;
	w = b->hl[l] < n ? b->hl[l] : n;
	for (a = n + h - w + 1; a < n + h + w; a++) {
		uint16_t x = *at(b, l, a % n);

		if (a % n != h && x < PENDING)
			b->stack[x] += w - (a > n + h ? a - n - h : n + h - a);
	}
}

/*
 * Into meet[], per plane, the routes that come down the same cable in the
 * same phase of the shift from another leaf: host i of h's leaf receives
 * from x + (i - h) while h receives from x of l; where x + (i - h) is on
 * another leaf, that leaf's route to i and this one meet on the cable into
 * h's leaf if they take one plane.
 */
static void near_down(struct bm *b, uint32_t l, uint32_t h)
{
	const struct fors_fabric *fb = b->fb;
	uint32_t n = fb->nhosts, lh = leaf_of(fb, h), a, g, y;
	int32_t i, x;
	uint16_t p;

	for (a = 0; a < fb->q; a++)
		b->meet[a] = 0;
	for (a = 0; a < fb->m0; a++) {
		if ((i = fb->host_at[lh * fb->m0 + a]) < 0 || (uint32_t)i == h)
			continue;
		for (g = 0; g < fb->m0; g++) {
			if ((x = fb->host_at[l * fb->m0 + g]) < 0)
				continue;
			y = ((uint32_t)x + n + (uint32_t)i - h) % n;
			p = *at(b, leaf_of(fb, y), (uint32_t)i);
			if (leaf_of(fb, y) != l && p < PENDING)
				b->meet[p]++;
		}
	}
}

/*
 * The order of fallback p for l's route to h, lowest first: a sibling's
 * spine last; then the fewest transfers p's cable down would carry past
 * what some cable must (excess()); then the fewest routes from l to hosts
 * near h on p; then, for neighbouring leaves, the position (the highest
 * plane into the next leaf, the lowest into the previous one); then the
 * routes on p's cables; then the fewest routes from other leaves that meet
 * this one on p's cable down (near_down()); then the distance from the
 * nominal plane.
 */
static uint64_t rank(const struct bm *b, uint32_t l, uint32_t h, uint32_t p,
		     int adjacent)
{
	const struct fors_fabric *fb = b->fb;
	uint32_t q = fb->q, lh = leaf_of(fb, h), pos = 0;
	uint64_t cost = (uint64_t)b->up[l * q + p] + b->dn[lh * q + p];

	if (adjacent && b->nextl[l] == lh && b->prevl[l] != lh)
		pos = q - 1 - p;
	else if (adjacent && b->prevl[l] == lh && b->nextl[l] != lh)
		pos = p;
	return (uint64_t)sibling(b, l, h, p) << 63 |
	       (uint64_t)excess(b, l, h, p) << 51 |
	       (uint64_t)(b->stack[p] < 127 ? b->stack[p] : 127) << 44 |
	       (uint64_t)(pos < 63 ? pos : 63) << 38 |
	       (cost < 0xffff ? cost : 0xffff) << 22 |
	       (uint64_t)(b->meet[p] < 63 ? b->meet[p] : 63) << 16 |
	       (p + q - b->in->nominal[h] % q) % q;
}

/* A pending route's fallback: the live plane of lowest rank, if any. */
static void fall_back(struct bm *b, uint32_t l, uint32_t h, int adjacent)
{
	const struct fors_fabric *fb = b->fb;
	uint32_t p, best = fb->q, lh = leaf_of(fb, h);
	uint64_t r, br = 0;

	*at(b, l, h) = FORS_BASEMAP_NONE;
	near(b, l, h);
	near_down(b, l, h);
	for (p = 0; p < fb->q; p++) {
		if (!fors_plane_live(fb, l, p) || !fors_plane_live(fb, lh, p))
			continue;
		r = rank(b, l, h, p, adjacent);
		if (best == fb->q || r < br) {
			best = p;
			br = r;
		}
	}
	if (best < fb->q)
		load(b, l, h, best);
}

/* The fallbacks between neighbouring leaves first, then the others. */
static void fall_backs(struct bm *b)
{
	const struct fors_fabric *fb = b->fb;
	uint32_t h, l;
	int pass;

	for (pass = 0; pass < 2; pass++)
		for (h = 0; h < fb->nhosts; h++)
			for (l = 0; l < fb->m1; l++) {
				uint32_t lh = leaf_of(fb, h);
				int adj = b->nextl[l] == lh || b->prevl[l] == lh;

				if (*at(b, l, h) == PENDING && adj == !pass)
					fall_back(b, l, h, adj);
			}
}

int fors_basemap_build(const struct fors_basemap_in *in, uint16_t *out)
{
	const struct fors_fabric *fb = in->fb;
	struct bm b = { .in = in, .fb = fb, .out = out };
	size_t nc = (size_t)fb->m1 * fb->q + 1;
	uint8_t *twice;
	int r = FORS_ENOMEM;

	b.up = calloc(nc, sizeof(uint32_t));
	b.dn = calloc(nc, sizeof(uint32_t));
	b.dnt = calloc(nc, sizeof(uint32_t));
	b.hl = malloc(sizeof(uint32_t) * (fb->m1 + 1));
	b.nextl = malloc(sizeof(uint32_t) * (fb->m1 + 1));
	b.prevl = malloc(sizeof(uint32_t) * (fb->m1 + 1));
	b.stack = malloc(sizeof(uint32_t) * (fb->q + 1));
	b.meet = malloc(sizeof(uint32_t) * (fb->q + 1));
	twice = malloc(fb->nhosts + 1);
	if (b.up && b.dn && b.dnt && b.hl && b.nextl && b.prevl &&
	    b.stack && b.meet && twice) {
		shares(&b);
		doubled(&b, twice);
		nominal(&b, twice);
		neighbours(&b);
		fall_backs(&b);
		r = 0;
	}
	free(b.up);
	free(b.dn);
	free(b.dnt);
	free(b.hl);
	free(b.nextl);
	free(b.prevl);
	free(b.stack);
	free(b.meet);
	free(twice);
	return r;
}

/* The ((h - t) mod r)-th of the r planes alive at both l and m. */
static uint16_t kth_common(const struct fors_fabric *fb, uint32_t l,
			   uint32_t m, uint32_t h, uint32_t t)
{
	uint32_t p, r = 0, k;

	for (p = 0; p < fb->q; p++)
		r += fors_plane_live(fb, l, p) && fors_plane_live(fb, m, p);
	if (!r)
		return FORS_BASEMAP_NONE;
	k = (h % r + r - t % r) % r;
	for (p = 0; p < fb->q; p++)
		if (fors_plane_live(fb, l, p) && fors_plane_live(fb, m, p) &&
		    k-- == 0)
			break;
	return (uint16_t)p;
}

void fors_basemap_turned(const struct fors_fabric *fb, uint32_t k,
			 uint16_t *out)
{
	uint32_t l, h, n = (uint32_t)fb->nhosts, first = 0, turn;

	for (l = 0; l < fb->m1; l++) {
		while (first < n && leaf_of(fb, first) < l)
			first++;
		turn = k ? (l * k / fb->m1) * fb->q / k : first;
		for (h = 0; h < n; h++)
			out[(size_t)l * n + h] =
				leaf_of(fb, h) == l || fb->leaf[l] == FORS_NO_PEER ?
				FORS_BASEMAP_NONE :
				kth_common(fb, l, leaf_of(fb, h), h, turn);
	}
}
