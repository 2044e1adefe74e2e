// SPDX-License-Identifier: MIT
/*
 * Phases rebalanced between leaves. A phase is a matching of senders to
 * receivers; two phases p and q together form paths and even cycles
 * alternating between them. Swapping p and q along one of them (a Kempe
 * swap, as König's edge colouring proof does) keeps every host at one
 * send and one receive per phase and every pair in one phase, and moves
 * the path's transfers from p to q and back. A leaf over its cap in p
 * gives one of its transfers to a phase where it has room, along the
 * path through that transfer, when the swap lowers the total excess.
 */
#include <stdlib.h>
#include <string.h>

#include "schedule/rebalance.h"
#include "schedule/xorshift.h"

struct rb {
	struct fors_phases *ph;
	int32_t *out, *in;	/* [t * m1]: transfers leaving, entering */
	int64_t *pex;		/* [t]: excess of the phase */
	int64_t cost;		/* excess of all phases */
	struct fors_kempe_hop *path;	/* [2 * nh + 2] */
	uint32_t len;
	uint32_t *first, *hosts;	/* hosts by leaf (CSR) */
	int32_t *dout, *din;	/* [2 * m1]: a path's change to p, to q */
	uint32_t *touched, ntouched;	/* the leaves it changes */
	uint8_t *mark;		/* [m1] */
	uint64_t rng;
};

static uint32_t next(struct rb *b, uint32_t bound)
{
	return fors_xorshift(&b->rng, bound);
}

static int64_t over(int32_t v, uint32_t cap)
{
	return v > (int32_t)cap ? v - (int32_t)cap : 0;
}

static int64_t excess(const struct rb *b, uint32_t p, uint32_t l)
{
	size_t at = (size_t)p * b->ph->m1 + l;

	return over(b->out[at], b->ph->cap[l]) + over(b->in[at], b->ph->cap[l]);
}

/* Transfer s -> r counted into (sign 1) or out of (-1) phase p. */
static void count(struct rb *b, uint32_t s, uint32_t r, uint32_t p,
		  int sign)
{
	const struct fors_phases *ph = b->ph;
	uint32_t ls = ph->leaf[s], lr = ph->leaf[r];

	if (ls == lr)
		return;
	b->pex[p] -= excess(b, p, ls) + excess(b, p, lr);
	b->cost -= excess(b, p, ls) + excess(b, p, lr);
	b->out[(size_t)p * ph->m1 + ls] += sign;
	b->in[(size_t)p * ph->m1 + lr] += sign;
	b->pex[p] += excess(b, p, ls) + excess(b, p, lr);
	b->cost += excess(b, p, ls) + excess(b, p, lr);
}

static void add_hop(struct fors_kempe_hop *path, uint32_t *len, uint32_t s,
		    uint32_t r, uint32_t p)
{
	path[(*len)++] = (struct fors_kempe_hop){ s, r, p };
}

uint32_t fors_kempe_path(const struct fors_phases *ph, uint32_t a, uint32_t p,
			 uint32_t q, struct fors_kempe_hop *path)
{
	const uint32_t *sp = ph->send + (size_t)p * ph->nh;
	const uint32_t *sq = ph->send + (size_t)q * ph->nh;
	const uint32_t *rp = ph->recv + (size_t)p * ph->nh;
	const uint32_t *rq = ph->recv + (size_t)q * ph->nh;
	uint32_t x = sp[a], s, r, len = 0;

	add_hop(path, &len, a, x, p);
	for (;;) {		/* from the receiver's side */
		s = rq[x];
		if (s == FORS_IDLE)
			break;
		add_hop(path, &len, s, x, q);
		if (s == a)
			return len;	/* a cycle: every hop found */
		x = sp[s];
		if (x == FORS_IDLE)
			break;
		add_hop(path, &len, s, x, p);
	}
	for (s = a;;) {		/* from the sender's side */
		r = sq[s];
		if (r == FORS_IDLE)
			break;
		add_hop(path, &len, s, r, q);
		s = rp[r];
		if (s == FORS_IDLE)
			break;
		add_hop(path, &len, s, r, p);
	}
	return len;
}

static void note(struct rb *b, uint32_t l, int k, int32_t *d, int sign)
{
	if (!b->mark[l]) {
		b->mark[l] = 1;
		b->touched[b->ntouched++] = l;
	}
	d[(size_t)k * b->ph->m1 + l] += sign;
}

/* How the total excess would change if the path swapped p and q. */
static int64_t change(struct rb *b, uint32_t p, uint32_t q)
{
	const struct fors_phases *ph = b->ph;
	int64_t d = 0;
	uint32_t i, l;
	int k;

	for (i = 0; i < b->len; i++) {
		const struct fors_kempe_hop *h = &b->path[i];
		uint32_t ls = ph->leaf[h->s], lr = ph->leaf[h->r];

		if (ls == lr)
			continue;
		k = h->p == q;	/* leaves phase k for phase !k */
		note(b, ls, k, b->dout, -1);
		note(b, ls, !k, b->dout, 1);
		note(b, lr, k, b->din, -1);
		note(b, lr, !k, b->din, 1);
	}
	for (i = 0; i < b->ntouched; i++) {
		l = b->touched[i];
		for (k = 0; k < 2; k++) {
			size_t at = (size_t)(k ? q : p) * ph->m1 + l;
			size_t dk = (size_t)k * ph->m1 + l;

			d += over(b->out[at] + b->dout[dk], ph->cap[l]) -
			     over(b->out[at], ph->cap[l]) +
			     over(b->in[at] + b->din[dk], ph->cap[l]) -
			     over(b->in[at], ph->cap[l]);
			b->dout[dk] = b->din[dk] = 0;
		}
		b->mark[l] = 0;
	}
	b->ntouched = 0;
	return d;
}

/* Every hop of the path to the other phase of p and q. */
static void swap(struct rb *b, uint32_t p, uint32_t q)
{
	struct fors_phases *ph = b->ph;
	uint32_t i;

	for (i = 0; i < b->len; i++) {
		struct fors_kempe_hop *h = &b->path[i];

		count(b, h->s, h->r, h->p, -1);
		ph->send[(size_t)h->p * ph->nh + h->s] = FORS_IDLE;
		ph->recv[(size_t)h->p * ph->nh + h->r] = FORS_IDLE;
		h->p = h->p == p ? q : p;
	}
	for (i = 0; i < b->len; i++) {
		struct fors_kempe_hop *h = &b->path[i];

		count(b, h->s, h->r, h->p, 1);
		ph->send[(size_t)h->p * ph->nh + h->s] = h->r;
		ph->recv[(size_t)h->p * ph->nh + h->r] = h->s;
	}
}

/* A phase over a cap, by sampling; FORS_IDLE when the cost is 0. */
static uint32_t over_phase(struct rb *b)
{
	uint32_t i, p;

	for (i = 0; b->cost && i < 4 * b->ph->t; i++) {
		p = next(b, b->ph->t);
		if (b->pex[p])
			return p;
	}
	for (p = 0; b->cost && p < b->ph->t; p++)
		if (b->pex[p])
			return p;
	return FORS_IDLE;
}

/*
 * A transfer of phase p that adds to leaf l's excess there: out of l if
 * it sends too many, else into l. Its sender, or FORS_IDLE.
 */
static uint32_t culprit(struct rb *b, uint32_t p, uint32_t l, int *dir)
{
	const struct fors_phases *ph = b->ph;
	const uint32_t *sp = ph->send + (size_t)p * ph->nh;
	const uint32_t *rp = ph->recv + (size_t)p * ph->nh;
	uint32_t n = b->first[l + 1] - b->first[l], i, k, h, o;

	*dir = b->out[(size_t)p * ph->m1 + l] > (int32_t)ph->cap[l];
	for (i = 0, k = next(b, n); i < n; i++) {
		h = b->hosts[b->first[l] + (i + k) % n];
		o = *dir ? sp[h] : rp[h];
		if (o != FORS_IDLE && ph->leaf[o] != l)
			return *dir ? h : o;
	}
	return FORS_IDLE;
}

/* A phase other than p where leaf l has room in direction dir. */
static uint32_t room(struct rb *b, uint32_t p, uint32_t l, int dir)
{
	const struct fors_phases *ph = b->ph;
	uint32_t i, q;

	for (i = 0; i < 16; i++) {
		q = next(b, ph->t);
		if (q != p && (dir ? b->out : b->in)[(size_t)q * ph->m1 + l] <
		    (int32_t)ph->cap[l])
			return q;
	}
	return FORS_IDLE;
}

/* One try: a Kempe swap kept when it does not raise the excess. */
static void step(struct rb *b)
{
	const struct fors_phases *ph = b->ph;
	uint32_t p = over_phase(b), l, a, q;
	int dir;

	for (l = 0; p != FORS_IDLE && l < ph->m1 && !excess(b, p, l); l++)
		;
	if (p == FORS_IDLE || l == ph->m1)
		return;
	a = culprit(b, p, l, &dir);
	q = a == FORS_IDLE ? FORS_IDLE : room(b, p, l, dir);
	if (q == FORS_IDLE)
		return;
	b->len = fors_kempe_path(ph, a, p, q, b->path);
	if (change(b, p, q) <= 0)
		swap(b, p, q);
}

static int setup(struct rb *b, struct fors_phases *ph, uint64_t seed)
{
	size_t cells = (size_t)ph->t * ph->m1 + 1;
	uint32_t h, p, l;

	b->ph = ph;
	b->rng = seed | 1;
	b->out = calloc(cells, sizeof(int32_t));
	b->in = calloc(cells, sizeof(int32_t));
	b->pex = calloc(ph->t + 1, sizeof(int64_t));
	b->path = malloc(sizeof(struct fors_kempe_hop) * (2 * (size_t)ph->nh + 2));
	b->first = calloc(ph->m1 + 2, sizeof(uint32_t));
	b->hosts = malloc(sizeof(uint32_t) * (ph->nh + 1));
	b->dout = calloc(2 * (size_t)ph->m1 + 1, sizeof(int32_t));
	b->din = calloc(2 * (size_t)ph->m1 + 1, sizeof(int32_t));
	b->touched = malloc(sizeof(uint32_t) * (ph->m1 + 1));
	b->mark = calloc(ph->m1 + 1, 1);
	if (!b->out || !b->in || !b->pex || !b->path || !b->first ||
	    !b->hosts || !b->dout || !b->din || !b->touched || !b->mark)
		return -1;
	for (h = 0; h < ph->nh; h++)
		b->first[ph->leaf[h] + 2]++;
	for (l = 0; l < ph->m1; l++)
		b->first[l + 2] += b->first[l + 1];
	for (h = 0; h < ph->nh; h++)
		b->hosts[b->first[ph->leaf[h] + 1]++] = h;
	for (p = 0; p < ph->t; p++)
		for (h = 0; h < ph->nh; h++)
			if (ph->send[(size_t)p * ph->nh + h] != FORS_IDLE)
				count(b, h, ph->send[(size_t)p * ph->nh + h],
				      p, 1);
	return 0;
}

int64_t fors_rebalance(struct fors_phases *ph, uint64_t budget,
		       uint64_t seed)
{
	struct rb b = { 0 };
	int64_t r = setup(&b, ph, seed);
	uint64_t i;

	for (i = 0; !r && b.cost && i < budget; i++)
		step(&b);
	if (!r)
		r = b.cost;
	free(b.out);
	free(b.in);
	free(b.pex);
	free(b.path);
	free(b.first);
	free(b.hosts);
	free(b.dout);
	free(b.din);
	free(b.touched);
	free(b.mark);
	return r;
}
