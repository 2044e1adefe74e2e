// SPDX-License-Identifier: MIT
/*
 * Detours: hosts of two leaves that share no live plane are still joined
 * through a third leaf (issue 34). The plane assignment cannot place
 * their transfers, so they leave the schedule's phases, and are put back
 * where the other transfers leave their links and hosts free, or into
 * phases added after them, over the routes the tables give each of the
 * destination's DLIDs (routing/lft.c chooses them legal in the up-down
 * order): in every phase each link, sender and receiver carries one
 * transfer at most (doc/schedule.md, "Detour phases").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "routing/detour.h"

/* Longest route followed: leaf, spine, leaf, spine, leaf and a spare. */
#define DETOUR_HOPS 8

/* Channels are (switch index, port): a switch has at most 255 ports. */
#define CHAN(sw, port) ((size_t)(sw) * 256 + (port))

/* Leaves l and k both serve hosts and share no live plane. */
static uint8_t *apart_matrix(const struct fors_fabric *fb)
{
	uint8_t *ap = calloc((size_t)fb->m1 * fb->m1 + 1, 1);
	uint32_t l, k;

	for (l = 0; ap && l < fb->m1; l++)
		for (k = 0; k < fb->m1; k++)
			ap[l * fb->m1 + k] = l != k && fors_leaf_serves(fb, l) &&
					     fors_leaf_serves(fb, k) &&
					     !fors_leaves_common(fb, l, k);
	return ap;
}

int fors_detour_strip(const struct fors_fabric *fb,
		      const struct fors_schedule *s,
		      struct fors_schedule **out, struct fors_error *err)
{
	uint8_t *ap = apart_matrix(fb);
	struct fors_xfer *x = malloc(sizeof(*x) * (s->nxfers + 1));
	size_t *start = malloc(sizeof(size_t) * (s->nphases + 2)), i, n = 0;
	uint32_t p, np = 0;

	if (!ap || !x || !start) {
		free(ap);
		free(x);
		free(start);
		fors_error_set(err, "out of memory");
		return FORS_ENOMEM;
	}
	for (p = 0; p < s->nphases; p++) {
		start[np] = n;
		for (i = s->start[p]; i < s->start[p + 1]; i++)
			if (!ap[s->xfers[i].src / fb->m0 * fb->m1 +
				s->xfers[i].dst / fb->m0])
				x[n++] = s->xfers[i];
		np += n > start[np];
	}
	start[np] = n;
	free(ap);
	if (fors_schedule_adopt(s, x, n, start, np, out)) {
		fors_error_set(err, "out of memory");
		return FORS_ENOMEM;
	}
	return 0;
}

/* The packing's state: every phase's links and hosts in use. */
struct packer {
	const struct fors_lfts *t;
	const struct fors_topology *live;
	const struct fors_fabric *fb;
	int32_t *swi;		/* per node: switch index in t, or -1 */
	uint32_t off;		/* DLIDs per host: 2^lmc */
	size_t cw, hw;		/* words of a phase's channel and host bits */
	uint64_t *cbits;	/* [phase * cw]: channels in use */
	uint64_t *hbits;	/* [phase * hw]: 2 slot: sends, + 1: receives */
	uint32_t nph, cap;	/* phases, and room for */
	uint32_t *todo;		/* transfers between leaves apart: src slot
				   << 16 | dst slot */
	size_t ntodo;
	uint8_t *len;		/* [todo * off]: channels of each DLID's route,
				   0: none without a held cable */
	uint32_t *ch;		/* [(todo * off + j) * DETOUR_HOPS] */
	uint32_t *at;		/* [todo]: the phase it went to */
	uint16_t *dlid;		/* [todo] */
	struct fors_error *err;
};

/* Bit i of the words w. */
static int bit(const uint64_t *w, size_t i)
{
	return w[i / 64] >> (i % 64) & 1;
}

/* Bit i of the words w set. */
static void set_bit(uint64_t *w, size_t i)
{
	w[i / 64] |= (uint64_t)1 << (i % 64);
}

/*
 * The channels host b's LID lid takes from host a's leaf into ch[], how
 * many; 0 when the tables do not deliver it to b within DETOUR_HOPS, or
 * (unless held_ok) only over a cable the hold-down keeps from data, which
 * management routes may take.
 */
static uint32_t walk(const struct packer *k, uint32_t a, uint32_t b,
		     uint32_t lid, int held_ok, uint32_t *ch)
{
	const struct fors_fhost *to = &k->fb->hosts[b];
	uint32_t node = k->fb->leaf[k->fb->hosts[a].sid / k->fb->m0], n;

	for (n = 0; n < DETOUR_HOPS && node != FORS_NO_PEER; n++) {
		const struct fors_node *v = &k->live->nodes[node];
		int32_t sw = k->swi[node];
		uint8_t p;

		if (sw < 0 || lid > k->t->maxlid)
			return 0;
		p = fors_lft(k->t, (uint32_t)sw, lid);
		if (p == 0 || p == FORS_NO_PORT || p > v->nports ||
		    (v->ports[p].held && !held_ok))
			return 0;
		ch[n] = (uint32_t)CHAN(sw, p);
		if (v->ports[p].peer == to->node)
			return v->ports[p].peer_port == to->port ? n + 1 : 0;
		node = v->ports[p].peer;
	}
	return 0;
}

/*
 * The plane of leaf l's uplink on port; a cable that is no plane's (on
 * another port than expected, which the general search may take) gives
 * the first plane of the spine it reaches.
 */
static int16_t plane_of(const struct packer *k, uint32_t l, uint32_t port)
{
	const struct fors_fabric *fb = k->fb;
	uint32_t p, peer = k->live->nodes[fb->leaf[l]].ports[port].peer;

	for (p = 0; p < fb->q; p++)
		if (fb->up[(size_t)l * fb->q + p] == port)
			return (int16_t)p;
	for (p = 0; p < fb->q; p++)
		if (fb->spine[fb->plane_spine[p]] == peer)
			return (int16_t)p;
	return -1;
}

/* Room for phase k->nph, cleared. 0, or FORS_ENOMEM. */
static int add_phase(struct packer *k)
{
	if (k->nph == k->cap) {
		uint32_t cap = k->cap ? 2 * k->cap : 64;
		uint64_t *c = realloc(k->cbits, sizeof(uint64_t) * k->cw * cap);
		uint64_t *h;

		if (!c)
			return FORS_ENOMEM;
		k->cbits = c;
		h = realloc(k->hbits, sizeof(uint64_t) * k->hw * cap);
		if (!h)
			return FORS_ENOMEM;
		k->hbits = h;
		k->cap = cap;
	}
	memset(k->cbits + k->nph * k->cw, 0, sizeof(uint64_t) * k->cw);
	memset(k->hbits + k->nph * k->hw, 0, sizeof(uint64_t) * k->hw);
	k->nph++;
	return 0;
}

/* Transfer x of phase p, followed through the tables, marked in use. */
static void occupy(struct packer *k, uint32_t p, const struct fors_xfer *x)
{
	uint32_t ch[DETOUR_HOPS], n, i;

	set_bit(k->hbits + p * k->hw, 2 * (size_t)x->src);
	set_bit(k->hbits + p * k->hw, 2 * (size_t)x->dst + 1);
	n = walk(k, (uint32_t)k->fb->host_at[x->src],
		 (uint32_t)k->fb->host_at[x->dst], x->dlid, 1, ch);
	for (i = 0; i < n; i++)
		set_bit(k->cbits + p * k->cw, ch[i]);
}

/* The phases of s as they are: what the detours must fit around. */
static int occupied(struct packer *k, const struct fors_schedule *s)
{
	uint32_t p;
	size_t i;

	for (p = 0; p < s->nphases; p++) {
		if (add_phase(k))
			return FORS_ENOMEM;
		for (i = s->start[p]; i < s->start[p + 1]; i++)
			occupy(k, p, &s->xfers[i]);
	}
	return 0;
}

/* Whether slot s holds a host that takes part. */
static int joined(const struct fors_fabric *fb, const uint8_t *joins,
		  uint32_t s)
{
	return fb->host_at[s] >= 0 && joins[fb->host_at[s]];
}

/* Diagonal d from leaf l to leaf m: slot i to slot i + d, counted. */
static void diagonal(struct packer *k, const uint8_t *joins, uint32_t d,
		     uint32_t l, uint32_t m)
{
	uint32_t i, m0 = k->fb->m0;

	for (i = 0; i < m0; i++) {
		uint32_t s = l * m0 + i, t = m * m0 + (i + d) % m0;

		if (!joined(k->fb, joins, s) || !joined(k->fb, joins, t))
			continue;
		if (k->todo)
			k->todo[k->ntodo] = s << 16 | t;
		k->ntodo++;
	}
}

/*
 * Each transfer between leaves apart, by diagonal, so that consecutive
 * ones have distinct senders and receivers: counted, and listed in todo
 * when it is there.
 */
static void pending(struct packer *k, const uint8_t *ap, const uint8_t *joins)
{
	const struct fors_fabric *fb = k->fb;
	uint32_t d, l, m;

	for (d = 0; d < fb->m0; d++)
		for (l = 0; l < fb->m1; l++)
			for (m = 0; m < fb->m1; m++)
				if (ap[l * fb->m1 + m])
					diagonal(k, joins, d, l, m);
}

/* Every DLID's route of every pending transfer, without held cables. */
static void routes(struct packer *k)
{
	const struct fors_fabric *fb = k->fb;
	size_t i;
	uint32_t j;

	for (i = 0; i < k->ntodo; i++) {
		uint32_t a = (uint32_t)fb->host_at[k->todo[i] >> 16];
		uint32_t b = (uint32_t)fb->host_at[k->todo[i] & 0xffff];

		for (j = 0; j < k->off; j++)
			k->len[i * k->off + j] = (uint8_t)walk(k, a, b,
				k->t->host_lid[b] + j, 0,
				k->ch + (i * k->off + j) * DETOUR_HOPS);
	}
}

/* The pending transfers listed with their routes. */
static int listed(struct packer *k, const uint8_t *joins)
{
	uint8_t *ap = apart_matrix(k->fb);
	size_t n;

	if (!ap)
		return FORS_ENOMEM;
	pending(k, ap, joins);
	n = k->ntodo;
	k->ntodo = 0;
	k->todo = malloc(sizeof(uint32_t) * (n + 1));
	k->len = malloc(n * k->off + 1);
	k->ch = malloc(sizeof(uint32_t) * (n * k->off * DETOUR_HOPS + 1));
	k->at = malloc(sizeof(uint32_t) * (n + 1));
	k->dlid = malloc(sizeof(uint16_t) * (n + 1));
	if (k->todo && k->len && k->ch && k->at && k->dlid) {
		pending(k, ap, joins);
		routes(k);
	}
	free(ap);
	return k->todo && k->len && k->ch && k->at && k->dlid ? 0 : FORS_ENOMEM;
}

/* k's lookups and the pending transfers of the hosts that join. */
static int setup(struct packer *k, const uint8_t *joins)
{
	const struct fors_fabric *fb = k->fb;
	uint32_t i;

	k->off = 1u << k->t->lmc;
	k->cw = (CHAN(k->t->nsw, 0) + 63) / 64;
	k->hw = (2 * (size_t)fb->m0 * fb->m1 + 63) / 64;
	k->swi = malloc(sizeof(int32_t) * (k->live->nnodes + 1));
	if (!k->swi)
		return FORS_ENOMEM;
	for (i = 0; i < k->live->nnodes; i++)
		k->swi[i] = -1;
	for (i = 0; i < k->t->nsw; i++)
		k->swi[k->t->sw[i]] = (int32_t)i;
	return listed(k, joins);
}

/* Route j of pending transfer i has every link free in phase p. */
static int fits(const struct packer *k, size_t i, uint32_t j, uint32_t p)
{
	const uint32_t *ch = k->ch + (i * k->off + j) * DETOUR_HOPS;
	uint32_t n = k->len[i * k->off + j], h;

	for (h = 0; h < n; h++)
		if (bit(k->cbits + p * k->cw, ch[h]))
			return 0;
	return n > 0;
}

/* Route j of pending transfer i taken in phase p. */
static void take(struct packer *k, size_t i, uint32_t j, uint32_t p)
{
	const uint32_t *ch = k->ch + (i * k->off + j) * DETOUR_HOPS;
	uint32_t n = k->len[i * k->off + j], h, b;

	for (h = 0; h < n; h++)
		set_bit(k->cbits + p * k->cw, ch[h]);
	set_bit(k->hbits + p * k->hw, 2 * (size_t)(k->todo[i] >> 16));
	set_bit(k->hbits + p * k->hw, 2 * (size_t)(k->todo[i] & 0xffff) + 1);
	b = (uint32_t)k->fb->host_at[k->todo[i] & 0xffff];
	k->at[i] = p;
	k->dlid[i] = (uint16_t)(k->t->host_lid[b] + j);
}

/*
 * Pending transfer i into the first phase where its sender and receiver
 * are idle and one of its routes finds its links free, the offsets tried
 * from the phase's number on; a phase added at the end if none has room.
 */
static int place(struct packer *k, size_t i)
{
	uint32_t s = k->todo[i] >> 16, d = k->todo[i] & 0xffff, p, j;

	for (p = 0;; p++) {
		const uint64_t *h;

		if (p == k->nph && add_phase(k))
			return FORS_ENOMEM;
		h = k->hbits + p * k->hw;
		if (bit(h, 2 * (size_t)s) || bit(h, 2 * (size_t)d + 1))
			continue;
		for (j = 0; j < k->off; j++)
			if (fits(k, i, (j + p) % k->off, p)) {
				take(k, i, (j + p) % k->off, p);
				return 0;
			}
	}
}

/* Every pending transfer placed; FORS_EINVAL for one without a route. */
static int place_all(struct packer *k)
{
	const struct fors_fabric *fb = k->fb;
	size_t i;
	uint32_t j, any;
	int r = 0;

	for (i = 0; !r && i < k->ntodo; i++) {
		uint32_t src = k->todo[i] >> 16, dst = k->todo[i] & 0xffff;

		for (any = 0, j = 0; j < k->off; j++)
			any |= k->len[i * k->off + j];
		if (!any) {
			fors_error_set(k->err, "the tables deliver host %u's transfers to host %u at no LID offset without a held cable (leaves %u and %u share no live plane)",
				       src, dst, src / fb->m0, dst / fb->m0);
			return FORS_EINVAL;
		}
		r = place(k, i);
	}
	return r;
}

/* qsort's order of a phase's transfers: by source, then destination. */
static int by_source(const void *x, const void *y)
{
	const struct fors_xfer *a = x, *b = y;

	if (a->src != b->src)
		return a->src < b->src ? -1 : 1;
	return (a->dst > b->dst) - (a->dst < b->dst);
}

/* Pending transfer i as a line of the file: the plane it leaves on. */
static struct fors_xfer line_of(const struct packer *k, size_t i)
{
	uint32_t s = k->todo[i] >> 16, d = k->todo[i] & 0xffff;
	uint32_t j = k->dlid[i] - k->t->host_lid[k->fb->host_at[d]];
	const uint32_t *ch = k->ch + (i * k->off + j) * DETOUR_HOPS;

	return fors_xfer_make(s, d, plane_of(k, s / k->fb->m0, ch[0] % 256),
			      k->dlid[i]);
}

/*
 * The order of the phases (end[p]: one past phase p's last detour, in
 * phase order): those without detours as they were, then those with, the
 * ones added last; how many have detours.
 */
static uint32_t reorder(const struct packer *k, uint32_t np,
			const uint32_t *end, uint32_t *order)
{
	uint32_t p, n = 0, without;

	for (p = 0; p < np; p++)
		if (end[p] == (p ? end[p - 1] : 0))
			order[n++] = p;
	without = n;
	for (p = 0; p < k->nph; p++)
		if (end[p] > (p ? end[p - 1] : 0))
			order[n++] = p;
	return n - without;
}

/*
 * s's phases in the order reorder gives, each with its detours, sorted by
 * source as the file has them; s's arrays replaced. *with: how many
 * phases at the end have detours.
 */
static int assemble(struct packer *k, struct fors_schedule *s, uint32_t *with)
{
	uint32_t *cnt = calloc(k->nph + 2, sizeof(uint32_t));
	uint32_t *order = malloc(sizeof(uint32_t) * (k->nph + 1)), q;
	size_t *idx = malloc(sizeof(size_t) * (k->ntodo + 1)), i, n = 0;
	size_t *start = malloc(sizeof(size_t) * (k->nph + 1));
	struct fors_xfer *x = malloc(sizeof(*x) * (s->nxfers + k->ntodo + 1));
	int r = cnt && order && idx && start && x ? 0 : FORS_ENOMEM;

	for (i = 0; !r && i < k->ntodo; i++)
		cnt[k->at[i] + 1]++;
	for (q = 0; !r && q < k->nph; q++)
		cnt[q + 1] += cnt[q];	/* cnt[p]: first of phase p */
	for (i = 0; !r && i < k->ntodo; i++)
		idx[cnt[k->at[i]]++] = i;	/* cnt[p]: first of p + 1 */
	if (!r)
		*with = reorder(k, s->nphases, cnt, order);
	for (q = 0; !r && q < k->nph; q++) {
		uint32_t p = order[q];
		size_t from = p ? cnt[p - 1] : 0;

		start[q] = n;
		if (p < s->nphases) {
			memcpy(x + n, s->xfers + s->start[p],
			       sizeof(*x) * (s->start[p + 1] - s->start[p]));
			n += s->start[p + 1] - s->start[p];
		}
		for (i = from; i < cnt[p]; i++)
			x[n++] = line_of(k, idx[i]);
		if (cnt[p] > from)
			qsort(x + start[q], n - start[q], sizeof(*x),
			      by_source);
	}
	if (!r) {
		start[k->nph] = n;
		free(s->xfers);
		free(s->start);
		s->xfers = x;
		s->start = start;
		s->nxfers = n;
		s->nphases = k->nph;
		x = NULL;
		start = NULL;
	}
	free(cnt);
	free(order);
	free(idx);
	free(start);
	free(x);
	return r;
}

/* Key key set to the number v, replacing its value if s has it. */
static int set_number(struct fors_schedule *s, const char *key, uint32_t v)
{
	char n[16], *dup;
	size_t i;

	snprintf(n, sizeof(n), "%u", v);
	for (i = 0; i < s->nextra; i++)
		if (!strcmp(s->extra[i].key, key)) {
			dup = strdup(n);
			if (!dup)
				return FORS_ENOMEM;
			free(s->extra[i].value);
			s->extra[i].value = dup;
			return 0;
		}
	return fors_schedule_add_key(s, key, n);
}

/*
 * s's keys: `detour` the phases at the end with detours, and the phases
 * added for them counted into `split`: the fabric cannot carry the
 * pattern there (two leaves share no plane), as split says elsewhere.
 */
static int keys(struct fors_schedule *s, const struct fors_detour_info *info)
{
	int64_t split = fors_schedule_number(s, "split");
	int r = set_number(s, "detour", info->phases);

	if (!r && info->added)
		r = set_number(s, "split",
			       (uint32_t)(split > 0 ? split : 0) + info->added);
	return r;
}

int fors_detour_pack(const struct fors_lfts *t,
		     const struct fors_topology *live,
		     const struct fors_fabric *fb, const uint8_t *joins,
		     struct fors_schedule *s, struct fors_schedule **out,
		     struct fors_detour_info *info, struct fors_error *err)
{
	struct packer k = { .t = t, .live = live, .fb = fb, .err = err };
	uint32_t np = s->nphases;
	int r;

	*info = (struct fors_detour_info){ 0 };
	r = setup(&k, joins);
	if (!r)
		r = occupied(&k, s);
	if (!r)
		r = place_all(&k);
	info->xfers = (uint32_t)k.ntodo;
	info->added = k.nph - np;
	if (!r && k.ntodo)
		r = assemble(&k, s, &info->phases);
	if (!r && k.ntodo)
		r = keys(s, info);
	free(k.swi);
	free(k.cbits);
	free(k.hbits);
	free(k.todo);
	free(k.len);
	free(k.ch);
	free(k.at);
	free(k.dlid);
	if (r == FORS_ENOMEM)
		fors_error_set(err, "out of memory while placing the detours");
	if (r) {
		fors_schedule_free(s);
		return r;
	}
	*out = s;
	return 0;
}
