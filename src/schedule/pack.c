// SPDX-License-Identifier: MIT
/*
 * A schedule packed over fixed planes (doc/narrow-lmc.md, "One offset for
 * everyone"). With one LID offset every transfer's route is its
 * destination's from its leaf, so a phase whose transfers share a cable
 * cannot be mended by choosing planes. Splitting such a phase in two
 * would cost a whole phase for each; the few transfers in the way leave
 * instead, for the first phase with room for them (both hosts idle, both
 * cables free) or phases added at the end, which they share. The
 * transfers of hosts that have had to leave most stay first, so those
 * that leave are spread over the hosts and share the added phases well.
 * Done in place: at 2,048 hosts the schedule is the subnet manager's
 * largest allocation, and a copy would double it.
 */
#include <stdlib.h>
#include <string.h>

#include "schedule/pack.h"
#include "schedule/planes.h"

/* A transfer that leaves its phase, and the phase it goes to. */
struct mover {
	struct fors_xfer x;
	uint32_t to;
};

struct packer {
	const struct fors_pack_params *pp;
	struct fors_schedule *s;
	uint32_t m0, m1, all;
	uint32_t n, cap;	/* phases so far, and room for */
	uint8_t *busy;		/* bits [cap * (2 * all + 2 * m1 * q)]: per
				   phase, hosts sending and receiving, cables
				   up and down taken */
	uint16_t *load;		/* [cap * 2 * m1]: transfers out of and into
				   each leaf per phase */
	uint32_t *moved;	/* [2 * all]: transfers that left, by source
				   and by destination */
	struct mover *mv;
	size_t nmv, mvcap;
	uint32_t *first;	/* [row]: per mark, no phase before it free */
};

static size_t row(const struct packer *k)
{
	return 2 * (size_t)k->all + 2 * (size_t)k->m1 * k->pp->q;
}

static int bit(const struct packer *k, size_t i)
{
	return k->busy[i / 8] >> (i % 8) & 1;
}

static void set(struct packer *k, size_t i)
{
	k->busy[i / 8] |= (uint8_t)(1u << (i % 8));
}

/* Room for phase p's marks, the new ones clear. */
static int grow(struct packer *k, uint32_t p)
{
	uint32_t cap = k->cap ? k->cap : 64;
	size_t old = ((size_t)k->cap * row(k) + 7) / 8, len;
	uint16_t *l;
	uint8_t *b;

	if (p < k->cap)
		return 0;
	while (cap <= p)
		cap *= 2;
	len = ((size_t)cap * row(k) + 7) / 8;
	b = realloc(k->busy, len);
	if (!b)
		return FORS_ENOMEM;
	memset(b + old, 0, len - old);
	k->busy = b;
	l = realloc(k->load, sizeof(uint16_t) * 2 * k->m1 * cap);
	if (!l)
		return FORS_ENOMEM;
	memset(l + (size_t)2 * k->m1 * k->cap, 0,
	       sizeof(uint16_t) * 2 * k->m1 * (cap - k->cap));
	k->load = l;
	k->cap = cap;
	return 0;
}

int fors_pack_marks(const struct fors_pack_params *pp, uint32_t m0,
		    uint32_t m1, const struct fors_xfer *x, size_t m[4])
{
	uint32_t ls = x->src / m0, ld = x->dst / m0;
	size_t all = (size_t)m0 * m1;
	int32_t pl = fors_xfer_plane(x);

	m[0] = x->src;
	m[1] = all + x->dst;
	if (pl < 0)
		return 2;
	m[2] = 2 * all + (size_t)ls * pp->q +
	       (uint32_t)pp->cable[ls * pp->q + (uint32_t)pl];
	m[3] = 2 * all + (size_t)m1 * pp->q + (size_t)ld * pp->q +
	       (uint32_t)pp->cable[ld * pp->q + (uint32_t)pl];
	return 4;
}

/* x's four marks in phase p: source, destination, cable up, cable down. */
static int marks(const struct packer *k, const struct fors_xfer *x,
		 uint32_t p, size_t m[4])
{
	int n = fors_pack_marks(k->pp, k->m0, k->m1, x, m), i;

	for (i = 0; i < n; i++)
		m[i] += (size_t)p * row(k);
	return n;
}

/*
 * 1 when x fits phase p, and then marked there: its cables free, and for
 * a moved one (hosts) its hosts too and its leaves below the cap.
 */
static int fits(struct packer *k, const struct fors_xfer *x, uint32_t p,
		int hosts)
{
	uint16_t *out = &k->load[((size_t)p * 2) * k->m1 + x->src / k->m0];
	uint16_t *in = &k->load[((size_t)p * 2 + 1) * k->m1 + x->dst / k->m0];
	size_t m[4];
	int n = marks(k, x, p, m), i;

	for (i = hosts ? 0 : 2; i < n; i++)
		if (bit(k, m[i]))
			return 0;
	if (hosts && n == 4 && k->pp->leaf_cap &&
	    (*out >= k->pp->leaf_cap || *in >= k->pp->leaf_cap))
		return 0;
	for (i = 0; i < n; i++)
		set(k, m[i]);
	*out += n == 4;
	*in += n == 4;
	return 1;
}

/* Each transfer's fixed plane; FORS_EINVAL for an inter-leaf one with none. */
static int fix(const struct packer *k, struct fors_error *err)
{
	struct fors_schedule *s = k->s;
	size_t i;

	for (i = 0; i < s->nxfers; i++) {
		struct fors_xfer *x = &s->xfers[i];
		uint32_t ls = x->src / k->m0;
		int16_t pl = ls == x->dst / k->m0 ? FORS_NO_PLANE :
			     k->pp->fixed[(size_t)ls * k->all + x->dst];

		if (ls != x->dst / k->m0 && pl == FORS_NO_PLANE) {
			fors_error_set(err, "transfer %u -> %u has no plane to pack over",
				       x->src, x->dst);
			return FORS_EINVAL;
		}
		fors_xfer_set_plane(x, pl);
	}
	return 0;
}

/* A transfer of a phase and the moves its hosts have had. */
struct ranked {
	uint32_t moved;
	size_t i;
};

/* The more moves, the sooner a transfer stays; then in order. */
static int cmp_moved(const void *x, const void *y)
{
	const struct ranked *a = x, *b = y;

	if (a->moved != b->moved)
		return a->moved > b->moved ? -1 : 1;
	return (a->i > b->i) - (a->i < b->i);
}

/* x leaves phase p: noted, to go elsewhere. */
static int leave(struct packer *k, const struct fors_xfer *x)
{
	if (k->nmv == k->mvcap) {
		size_t c = k->mvcap ? 2 * k->mvcap : 256;
		struct mover *m = realloc(k->mv, sizeof(*m) * c);

		if (!m)
			return FORS_ENOMEM;
		k->mv = m;
		k->mvcap = c;
	}
	k->mv[k->nmv++] = (struct mover){ *x, UINT32_MAX };
	k->moved[x->src]++;
	k->moved[k->all + x->dst]++;
	return 0;
}

/*
 * Phase p's transfers kept where their cables are free, moved down to *w
 * (the kept ones before them end there), *len of them; the others leave.
 */
static int keep(struct packer *k, uint32_t p, struct ranked *order,
		uint8_t *stay, size_t *w, size_t *len)
{
	struct fors_schedule *s = k->s;
	size_t i, n = s->start[p + 1] - s->start[p];
	const struct fors_xfer *ph = &s->xfers[s->start[p]];

	for (i = 0; i < n; i++) {
		order[i].i = i;
		order[i].moved = k->moved[ph[i].src] + k->moved[k->all + ph[i].dst];
	}
	qsort(order, n, sizeof(*order), cmp_moved);
	for (i = 0; i < n; i++) {
		stay[order[i].i] = (uint8_t)fits(k, &ph[order[i].i], p, 0);
		if (!stay[order[i].i] && leave(k, &ph[order[i].i]))
			return FORS_ENOMEM;
	}
	*len = 0;
	for (i = 0; i < n; i++)	/* *w never passes the one read */
		if (stay[i])
			s->xfers[*w + (*len)++] = ph[i];
	*w += *len;
	return 0;
}

/*
 * The first phase x may take: none before each of its four marks' first
 * free phase (first[], which only moves on, as marks are never cleared).
 */
static uint32_t first_free(struct packer *k, const struct fors_xfer *x)
{
	size_t m[4];
	uint32_t p = 0;
	int n = marks(k, x, 0, m), i;

	for (i = 0; i < n; i++) {
		uint32_t *f = &k->first[m[i]];

		while (*f < k->n && bit(k, (size_t)*f * row(k) + m[i]))
			++*f;
		p = *f > p ? *f : p;
	}
	return p;
}

/* Each transfer that left into the first phase with room, or a new one. */
static int move(struct packer *k)
{
	size_t i;
	uint32_t p;

	k->first = calloc(row(k) + 1, sizeof(uint32_t));
	if (!k->first)
		return FORS_ENOMEM;
	for (i = 0; i < k->nmv; i++) {
		for (p = first_free(k, &k->mv[i].x);
		     p < k->n && !fits(k, &k->mv[i].x, p, 1); p++)
			;
		if (p == k->n) {
			if (k->pp->limit && p + 1 >= k->pp->limit)
				return FORS_ELIMIT;
			if (grow(k, p))
				return FORS_ENOMEM;
			k->n++;
			fits(k, &k->mv[i].x, p, 1);
		}
		k->mv[i].to = p;
	}
	return 0;
}

/*
 * The kept transfers (kept[p] of each phase, compacted at the array's
 * front) and the movers laid out phase by phase: from the last phase
 * back, each block moves right to its place, which frees no place a
 * block before it still holds.
 */
static int relayout(struct packer *k, const size_t *kept)
{
	struct fors_schedule *s = k->s;
	size_t *start = calloc((size_t)k->n + 2, sizeof(size_t)), i, at, from;
	uint32_t p, old = s->nphases;

	if (!start)
		return FORS_ENOMEM;
	for (p = 0; p < old; p++)
		start[p + 1] = kept[p];
	for (i = 0; i < k->nmv; i++)
		start[k->mv[i].to + 1]++;
	for (p = 0; p < k->n; p++)
		start[p + 1] += start[p];
	for (from = 0, p = 0; p < old; p++)
		from += kept[p];
	for (p = k->n; p-- > 0;) {
		at = start[p];
		if (p < old) {
			from -= kept[p];
			memmove(&s->xfers[at], &s->xfers[from],
				sizeof(struct fors_xfer) * kept[p]);
			at += kept[p];
		}
		for (i = 0; i < k->nmv; i++)
			if (k->mv[i].to == p)
				s->xfers[at++] = k->mv[i].x;
	}
	free(s->start);
	s->start = start;
	s->nphases = k->n;
	return 0;
}

int fors_schedule_pack(struct fors_schedule *s,
		       const struct fors_pack_params *pp,
		       struct fors_error *err)
{
	struct packer k = { pp, s, s->m0, s->m1, s->m0 * s->m1, s->nphases,
			    0, NULL, NULL, NULL, NULL, 0, 0, NULL };
	struct ranked *order = malloc(sizeof(*order) * ((size_t)k.all + 1));
	uint8_t *stay = malloc((size_t)k.all + 1);
	size_t *kept = malloc(sizeof(size_t) * ((size_t)s->nphases + 1)), w = 0;
	uint32_t p;
	int r = order && stay && kept ? grow(&k, s->nphases) : FORS_ENOMEM;

	k.moved = calloc(2 * (size_t)k.all + 1, sizeof(uint32_t));
	if (!r && !k.moved)
		r = FORS_ENOMEM;
	if (!r)
		r = fix(&k, err);
	for (p = 0; !r && p < s->nphases; p++)
		r = keep(&k, p, order, stay, &w, &kept[p]);
	if (!r && (uint64_t)k.nmv * s->nphases > FORS_PACK_WORK) {
		fors_error_set(err, "%zu of %zu transfers share a cable: not packed",
			       k.nmv, s->nxfers);
		r = FORS_ELIMIT;
	}
	if (!r)
		r = move(&k);
	if (!r)
		r = relayout(&k, kept);
	if (r == FORS_ENOMEM)
		fors_error_set(err, "out of memory while packing the phases");
	free(order);
	free(stay);
	free(kept);
	free(k.busy);
	free(k.load);
	free(k.moved);
	free(k.mv);
	free(k.first);
	return r;
}
