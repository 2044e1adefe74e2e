// SPDX-License-Identifier: MIT
/*
 * The all-to-all in rounds over fixed planes (doc/narrow-lmc.md,
 * "Rounds"). With one LID offset the transfers of a (source leaf,
 * destination host) pair all take one cable up and one down, so the unit
 * to place is the pair: a round of m0 phases carries each of its pairs
 * from every host of the source leaf, one a phase, the leaf's pairs
 * taking its hosts in turn. A round is congestion-free when no cable and
 * no destination serves two of its pairs and no leaf has more than m0.
 * Round a holds each leaf's pairs to the leaf a places on, as the healthy
 * tree's schedule does (the FORS paper, Sec. III), so a full fabric
 * whose map is its slot planes takes its T* phases. Where a pair's plane
 * is taken in its block (a cut moved it), the pair whose (host, plane)
 * fewer leaves reach stays and the other waits for the first round with
 * room, added at the end if need be: after a cut the host the cut plane
 * served has no round of its own to spare. Where first fit leaves more
 * rounds than the busiest mark needs, ejection chains empty the last.
 * Transfers within a leaf take the phases where both their hosts are
 * idle, or phases at the end.
 */
#include <stdlib.h>
#include <string.h>

#include "schedule/rounds.h"

#define UNPLACED UINT32_MAX
#define NO_ARC (UINT32_MAX - 1)

/*
 * Pairs in the way that an ejection chain may move, in all, after the one
 * it places: FT(2;12,24) and FT(2;16,32) with cuts on two leaves need 5
 * to reach the map's bound (3 left them a round above it).
 */
#define RELOCATE_DEPTH 5

/*
 * Rounds the chains of a schedule may look at, about 0.2 s: past it the
 * last rounds stay. Without it a fabric whose rounds cannot come down
 * costs minutes (FT(2;32,64) without two spines, 8,064 waiting pairs,
 * before the chains stopped at the busiest mark's count).
 */
#define RELOCATE_WORK 4000000ull

struct pair {
	uint32_t key;		/* leaves that reach dst on plane */
	uint32_t round;
	uint16_t leaf;		/* the source leaf */
	uint16_t dst;		/* the destination's slot */
	int16_t plane;
	uint16_t k;		/* its turn among its leaf's pairs of a round */
};

/* A move of an ejection chain: the pair, and the round it left. */
struct moved {
	uint32_t i;
	uint32_t from;
};

struct rounder {
	const struct fors_sched_params *sp;
	const struct fors_pack_params *pp;
	uint32_t m0, m1, all;
	size_t row;		/* marks of a round: pack.h's numbering */
	struct pair *pr;	/* [npr], in blocks of (round, source leaf) */
	size_t npr;
	uint32_t *late;		/* [nlate]: pairs waiting for a round */
	size_t nlate;
	uint32_t n, cap;	/* rounds, and room for */
	uint32_t *hold;		/* [cap * row]: the pair holding each mark of
				   a round, or UNPLACED */
	uint16_t *cnt;		/* [cap * m1]: each leaf's pairs per round */
	uint32_t *arc;		/* [m1 * m0 * m0]: the phase of each transfer
				   within a leaf, or UNPLACED, or NO_ARC */
	uint32_t extra;		/* phases after the rounds, within leaves */
	struct moved log[64];	/* a chain's moves: L(d) = max over n <= 3
				   of n + 1 + n L(d - n), L(0) = 1 (n pairs
				   out, one in, the n chains with d - n
				   left), 21 at depth 5, one more first */
	uint32_t nlog;
	uint64_t work;		/* rounds looked at by the chains so far */
};

static int present(const struct rounder *d, uint32_t slot)
{
	return !d->sp->present || d->sp->present[slot];
}

static int has_hosts(const struct rounder *d, uint32_t l)
{
	uint32_t i;

	for (i = 0; i < d->m0; i++)
		if (present(d, l * d->m0 + i))
			return 1;
	return 0;
}

/* One round more, its marks free. */
static int grow(struct rounder *d)
{
	if (d->n == d->cap) {
		uint32_t cap = d->cap ? 2 * d->cap : 64;
		uint32_t *h = realloc(d->hold, sizeof(*h) * d->row * cap);
		uint16_t *c = h ? realloc(d->cnt, sizeof(*c) * d->m1 * cap) :
				  NULL;

		if (h)
			d->hold = h;
		if (!c)
			return FORS_ENOMEM;
		d->cnt = c;
		d->cap = cap;
	}
	memset(d->hold + d->row * d->n, 0xff, sizeof(*d->hold) * d->row);
	memset(d->cnt + (size_t)d->m1 * d->n, 0, sizeof(*d->cnt) * d->m1);
	d->n++;
	return 0;
}

/* p's marks: its destination's receive, its cables up and down. */
static void marks(const struct rounder *d, const struct pair *p, size_t m[3])
{
	struct fors_xfer x = fors_xfer_make(p->leaf * d->m0, p->dst, p->plane,
					    FORS_NO_DLID);
	size_t all[4];

	fors_pack_marks(d->pp, d->m0, d->m1, &x, all);
	memcpy(m, all + 1, sizeof(size_t) * 3);
}

static int fits(const struct rounder *d, const struct pair *p, uint32_t r)
{
	const uint32_t *h = d->hold + d->row * r;
	size_t m[3];

	marks(d, p, m);
	return d->cnt[(size_t)r * d->m1 + p->leaf] < d->m0 &&
	       h[m[0]] == UNPLACED && h[m[1]] == UNPLACED &&
	       h[m[2]] == UNPLACED;
}

/* Pair i into round r (where it fits), or out of its round (r UNPLACED). */
static void put(struct rounder *d, uint32_t i, uint32_t r)
{
	struct pair *p = &d->pr[i];
	uint32_t to = r == UNPLACED ? p->round : r;
	uint32_t *h = d->hold + d->row * to;
	size_t m[3];
	int j;

	marks(d, p, m);
	for (j = 0; j < 3; j++)
		h[m[j]] = r == UNPLACED ? UNPLACED : i;
	if (r == UNPLACED)
		d->cnt[(size_t)to * d->m1 + p->leaf]--;
	else
		d->cnt[(size_t)to * d->m1 + p->leaf]++;
	p->round = r;
}

static int by_key(const void *x, const void *y)
{
	const struct pair *a = x, *b = y;

	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return (a->dst > b->dst) - (a->dst < b->dst);
}

/*
 * Leaf l's pairs to leaf (l + a) mod m1, appended for round a - 1; -1
 * where one has no plane with a cable at both leaves.
 */
static int block(struct rounder *d, uint32_t a, uint32_t l, uint32_t *reach)
{
	const struct fors_pack_params *pp = d->pp;
	uint32_t b = (l + a) % d->m1, i, x;
	int16_t pl;

	for (i = 0; i < d->m0; i++) {
		x = b * d->m0 + i;
		if (!present(d, x))
			continue;
		pl = pp->fixed[(size_t)l * d->all + x];
		if (pl < 0 || (uint32_t)pl >= pp->q ||
		    pp->cable[l * pp->q + (uint32_t)pl] < 0 ||
		    pp->cable[b * pp->q + (uint32_t)pl] < 0)
			return -1;
		d->pr[d->npr++] = (struct pair){ .round = a - 1, .leaf = (uint16_t)l,
						 .dst = (uint16_t)x, .plane = pl };
		reach[(size_t)x * pp->q + (uint32_t)pl]++;
	}
	return 0;
}

/* Every pair between leaves, each block sorted for placing; -1 as block(). */
static int collect(struct rounder *d)
{
	uint32_t *reach = calloc((size_t)d->all * d->pp->q + 1, sizeof(uint32_t));
	uint32_t a, l;
	size_t i, from;
	int e = 0;

	d->pr = malloc(sizeof(*d->pr) * ((size_t)d->m1 * d->all + 1));
	d->late = malloc(sizeof(uint32_t) * ((size_t)d->m1 * d->all + 1));
	if (!reach || !d->pr || !d->late) {
		free(reach);
		return FORS_ENOMEM;
	}
	for (a = 1; !e && a < d->m1; a++)
		for (l = 0; !e && l < d->m1; l++)
			if (has_hosts(d, l))
				e = block(d, a, l, reach);
	for (i = 0; i < d->npr; i++)
		d->pr[i].key = reach[(size_t)d->pr[i].dst * d->pp->q +
				     (uint32_t)d->pr[i].plane];
	for (i = 0; i < d->npr; i = from) {
		for (from = i; from < d->npr && d->pr[from].round == d->pr[i].round &&
		     d->pr[from].leaf == d->pr[i].leaf; from++)
			;
		qsort(d->pr + i, from - i, sizeof(*d->pr), by_key);
	}
	free(reach);
	return e;
}

/*
 * The pairs in the way of pair i in round r, in q: how many, 0 to 3, or 4
 * where its leaf has m0 pairs there and none of them is in the way.
 */
static int in_way(const struct rounder *d, uint32_t i, uint32_t r,
		  uint32_t q[3])
{
	const uint32_t *h = d->hold + d->row * r;
	size_t m[3];
	int j, n = 0, same = 0;

	marks(d, &d->pr[i], m);
	for (j = 0; j < 3; j++)
		if (h[m[j]] != UNPLACED && (!n || q[n - 1] != h[m[j]]) &&
		    (n < 2 || q[0] != h[m[j]])) {
			q[n++] = h[m[j]];
			same |= d->pr[h[m[j]]].leaf == d->pr[i].leaf;
		}
	if (!same && d->cnt[(size_t)r * d->m1 + d->pr[i].leaf] >= d->m0)
		return 4;
	return n;
}

/* Pair i to round r (UNPLACED: out), noted so that undo() can take it back. */
static void move(struct rounder *d, uint32_t i, uint32_t r)
{
	d->log[d->nlog].i = i;
	d->log[d->nlog++].from = d->pr[i].round;
	if (d->pr[i].round != UNPLACED)
		put(d, i, UNPLACED);
	if (r != UNPLACED)
		put(d, i, r);
}

/* Every move since the log had n entries taken back, the last first. */
static void undo(struct rounder *d, uint32_t n)
{
	while (d->nlog > n) {
		const struct moved *m = &d->log[--d->nlog];

		if (d->pr[m->i].round != UNPLACED)
			put(d, m->i, UNPLACED);
		if (m->from != UNPLACED)
			put(d, m->i, m->from);
	}
}

/*
 * The unplaced pair i into a round before last: where it fits, else where
 * the pairs in its way (at most depth) go on the same way with what depth
 * they leave (an ejection chain); 0 when placed, else all as it was.
 */
static int relocate(struct rounder *d, uint32_t i, uint32_t last, int depth)
{
	uint32_t r, q[3], mark;
	int n, j;

	d->work += 2 * last;
	for (r = 0; r < last; r++)
		if (!in_way(d, i, r, q)) {
			move(d, i, r);
			return 0;
		}
	for (r = 0; depth > 0 && d->work < RELOCATE_WORK && r < last; r++) {
		n = in_way(d, i, r, q);
		if (n > 3 || n > depth)
			continue;
		mark = d->nlog;
		for (j = 0; j < n; j++)
			move(d, q[j], UNPLACED);
		move(d, i, r);
		for (j = 0; j < n && !relocate(d, q[j], last, depth - n); j++)
			;
		if (j == n)
			return 0;
		undo(d, mark);
	}
	return 1;
}

/*
 * The last round emptied into the others by ejection chains (relocate):
 * 1 when it is empty. First fit leaves a round more than the busiest
 * cable needs where the waiting pairs of cuts on two leaves meet.
 */
static int empty_last(struct rounder *d)
{
	uint32_t last = d->n - 1;
	size_t i;

	for (i = 0; i < d->npr && d->work < RELOCATE_WORK; i++) {
		if (d->pr[i].round != last)
			continue;
		d->nlog = 0;
		move(d, (uint32_t)i, UNPLACED);
		if (relocate(d, (uint32_t)i, last, RELOCATE_DEPTH)) {
			undo(d, 0);
			return 0;
		}
	}
	return d->work < RELOCATE_WORK;
}

/* Each leaf's pairs of a round take its hosts in turn: k = 0, 1, ... */
static void turns(struct rounder *d)
{
	size_t i;

	memset(d->cnt, 0, sizeof(*d->cnt) * d->m1 * d->n);
	for (i = 0; i < d->npr; i++)
		d->pr[i].k = d->cnt[(size_t)d->pr[i].round * d->m1 +
				    d->pr[i].leaf]++;
}

/*
 * The fewest rounds any placement of the pairs takes: the most pairs on
 * one mark (a cable or a destination), or on one leaf over m0; UINT32_MAX
 * when out of memory.
 */
static uint32_t fewest(const struct rounder *d)
{
	uint32_t *use = calloc(d->row + d->m1, sizeof(uint32_t)), most = 0;
	size_t i, m[3];
	int j;

	if (!use)
		return UINT32_MAX;
	for (i = 0; i < d->npr; i++) {
		marks(d, &d->pr[i], m);
		for (j = 0; j < 3; j++)
			most = ++use[m[j]] > most ? use[m[j]] : most;
		j = (int)((++use[d->row + d->pr[i].leaf] + d->m0 - 1) / d->m0);
		most = (uint32_t)j > most ? (uint32_t)j : most;
	}
	free(use);
	return most;
}

/* Each pair in its block's round where it fits, else the first with room. */
static int place(struct rounder *d)
{
	struct pair *p;
	uint32_t r;
	size_t i;

	while (d->n + 1 < d->m1)
		if (grow(d))
			return FORS_ENOMEM;
	for (i = 0; i < d->npr; i++) {
		p = &d->pr[i];
		if (fits(d, p, p->round))
			put(d, (uint32_t)i, p->round);
		else
			d->late[d->nlate++] = (uint32_t)i;
	}
	for (i = 0; i < d->nlate; i++) {
		p = &d->pr[d->late[i]];
		for (r = 0;; r++) {
			if (r == d->n && grow(d))
				return FORS_ENOMEM;
			if (fits(d, p, r))
				break;
		}
		put(d, d->late[i], r);
	}
	r = fewest(d);
	if (r == UINT32_MAX)
		return FORS_ENOMEM;
	while (d->n > r && d->n + 1 > d->m1 && empty_last(d))
		d->n--;
	turns(d);
	return 0;
}

/*
 * Leaf l's unplaced transfers between the free senders fs and receivers
 * fr of phase ph, by distance (a phase of their own takes one distance
 * whole); how many are left.
 */
static uint32_t fill(struct rounder *d, uint32_t l, uint32_t ph, uint8_t *fs,
		     uint8_t *fr, uint32_t left)
{
	uint32_t *arc = d->arc + (size_t)l * d->m0 * d->m0, b, i, j;

	for (b = 1; left && b < d->m0; b++)
		for (i = 0; i < d->m0; i++) {
			j = (i + b) % d->m0;
			if (fs[i] && fr[j] && arc[i * d->m0 + j] == UNPLACED) {
				arc[i * d->m0 + j] = ph;
				fs[i] = fr[j] = 0;
				left--;
			}
		}
	return left;
}

/* Leaf l's idle hosts in round r: senders in fs (phase t), receivers fr. */
static void idle(const struct rounder *d, uint32_t l, uint32_t r, uint32_t t,
		 uint8_t *fs, uint8_t *fr)
{
	const uint32_t *h = d->hold + d->row * r;
	uint32_t c = d->cnt[(size_t)r * d->m1 + l], i, s;

	for (i = 0; i < d->m0; i++) {
		s = l * d->m0 + i;
		fs[i] = present(d, s) && (i + d->m0 - t) % d->m0 >= c;
		fr[i] = present(d, s) && h[d->all + s] == UNPLACED;
	}
}

/* Leaf l's transfers within it: idle phases of the rounds, then their own. */
static void within(struct rounder *d, uint32_t l, uint8_t *fs, uint8_t *fr)
{
	uint32_t *arc = d->arc + (size_t)l * d->m0 * d->m0, left = 0, i, j;
	uint32_t r, t, o;

	for (i = 0; i < d->m0; i++)
		for (j = 0; j < d->m0; j++) {
			int ok = i != j && present(d, l * d->m0 + i) &&
				 present(d, l * d->m0 + j);

			arc[i * d->m0 + j] = ok ? UNPLACED : NO_ARC;
			left += (uint32_t)ok;
		}
	for (r = 0; left && r < d->n; r++)
		for (t = 0; left && t < d->m0 &&
		     d->cnt[(size_t)r * d->m1 + l] < d->m0; t++) {
			idle(d, l, r, t, fs, fr);
			left = fill(d, l, r * d->m0 + t, fs, fr, left);
		}
	for (o = 0; left; o++) {
		for (i = 0; i < d->m0; i++)
			fs[i] = fr[i] = (uint8_t)present(d, l * d->m0 + i);
		left = fill(d, l, d->n * d->m0 + o, fs, fr, left);
		d->extra = o + 1 > d->extra ? o + 1 : d->extra;
	}
}

/* What bucket() groups by: a pair's round, or an arc's phase (n: none). */
typedef uint32_t (*keyfn)(const struct rounder *d, size_t i);

static uint32_t round_of(const struct rounder *d, size_t i)
{
	return d->pr[i].round;
}

static uint32_t phase_of(const struct rounder *d, size_t i)
{
	return d->arc[i] < NO_ARC ? d->arc[i] : d->n * d->m0 + d->extra;
}

/*
 * Items 0..n-1 grouped by key (below nk, or nk: left out) in (*at)[n]:
 * key v's are (*at)[(*of)[v] .. (*of)[v + 1]].
 */
static int bucket(const struct rounder *d, keyfn key, uint32_t nk, size_t n,
		  uint32_t **of, uint32_t **at)
{
	uint32_t *o = calloc((size_t)nk + 2, sizeof(uint32_t));
	uint32_t *a = malloc(sizeof(uint32_t) * (n + 1));
	size_t i;

	*of = o;
	*at = a;
	if (!o || !a)
		return FORS_ENOMEM;
	for (i = 0; i < n; i++)
		o[key(d, i) + 1]++;
	for (i = 0; i < nk + 1; i++)
		o[i + 1] += o[i];
	for (i = 0; i < n; i++)
		a[o[key(d, i)]++] = (uint32_t)i;
	for (i = nk + 1; i-- > 0;)
		o[i + 1] = o[i];
	o[0] = 0;
	return 0;
}

/* Phase ph's transfers at x[*k]: its round's pairs (of, at), then arcs. */
static void emit(const struct rounder *d, uint32_t ph, const uint32_t *of,
		 const uint32_t *at, const uint32_t *aof, const uint32_t *aat,
		 struct fors_xfer *x, size_t *k)
{
	uint32_t r = ph / d->m0, t = ph % d->m0, m0 = d->m0, i, s, a;
	const struct pair *p;

	for (i = r < d->n ? of[r] : 0; r < d->n && i < of[r + 1]; i++) {
		p = &d->pr[at[i]];
		s = p->leaf * m0 + (t + p->k) % m0;
		if (present(d, s))
			x[(*k)++] = fors_xfer_make(s, p->dst, p->plane,
						   FORS_NO_DLID);
	}
	for (i = aof[ph]; i < aof[ph + 1]; i++) {
		a = aat[i];
		s = a / (m0 * m0) * m0;
		x[(*k)++] = fors_xfer_make(s + a / m0 % m0, s + a % m0, -1,
					   FORS_NO_DLID);
	}
}

/* The phases that hold a transfer, in order, into s. */
static int phases(const struct rounder *d, struct fors_schedule *s)
{
	uint32_t np = d->n * d->m0 + d->extra, ph;
	uint32_t *of = NULL, *at = NULL, *aof = NULL, *aat = NULL;
	size_t k = 0, k0;
	int e = bucket(d, round_of, d->n, d->npr, &of, &at);

	if (!e)
		e = bucket(d, phase_of, np, (size_t)d->m1 * d->m0 * d->m0,
			   &aof, &aat);
	s->start = e ? NULL : calloc((size_t)np + 1, sizeof(size_t));
	if (s->start)
		for (ph = 0; ph < np; ph++) {
			k0 = k;
			emit(d, ph, of, at, aof, aat, s->xfers, &k);
			if (k > k0)
				s->start[++s->nphases] = k;
		}
	s->nxfers = k;
	free(of);
	free(at);
	free(aof);
	free(aat);
	return s->start ? 0 : FORS_ENOMEM;
}

static int build(const struct rounder *d, struct fors_schedule **out)
{
	struct fors_schedule *s = calloc(1, sizeof(*s));
	size_t n = 0, i;

	for (i = 0; i < d->all; i++)
		n += (size_t)present(d, (uint32_t)i);
	if (!s)
		return FORS_ENOMEM;
	*s = (struct fors_schedule){ .m0 = d->m0, .m1 = d->m1, .q = d->pp->q,
				     .f = d->sp->f, .m = d->sp->f, .lmc = -1 };
	s->xfers = malloc(sizeof(struct fors_xfer) * (n * (n - !!n) + 1));
	if (!s->xfers || phases(d, s) ||
	    fors_schedule_add_key(s, "pattern", "cyclic")) {
		fors_schedule_free(s);
		return FORS_ENOMEM;
	}
	*out = s;
	return 0;
}

static void release(struct rounder *d)
{
	free(d->pr);
	free(d->late);
	free(d->hold);
	free(d->cnt);
	free(d->arc);
}

int fors_schedule_rounds(const struct fors_sched_params *sp,
			 const struct fors_pack_params *pp,
			 struct fors_schedule **out, struct fors_error *err)
{
	struct rounder d = { .sp = sp, .pp = pp, .m0 = sp->m0, .m1 = sp->m1,
			     .all = sp->m0 * sp->m1 };
	uint8_t *fs = malloc((size_t)sp->m0 * 2);
	uint32_t l;
	int e;

	*out = NULL;
	d.row = 2 * (size_t)d.all + 2 * (size_t)d.m1 * pp->q;
	e = fs ? collect(&d) : FORS_ENOMEM;
	if (!e)
		e = place(&d);
	if (!e) {
		d.arc = malloc(sizeof(uint32_t) * ((size_t)d.all * d.m0 + 1));
		e = d.arc ? 0 : FORS_ENOMEM;
	}
	for (l = 0; !e && l < d.m1; l++)
		within(&d, l, fs, fs + sp->m0);
	if (!e)
		e = build(&d, out);
	free(fs);
	release(&d);
	if (e == FORS_ENOMEM)
		fors_error_set(err, "out of memory while placing the rounds");
	return e < 0 ? 0 : e;
}
