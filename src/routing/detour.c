// SPDX-License-Identifier: MIT
/*
 * Detours: hosts of two leaves that share no live plane are still joined
 * through a third leaf (issue 34). The plane assignment cannot place
 * their transfers, so they leave Algorithm 1's phases and are packed into
 * phases of their own after them, over the routes the tables give each of
 * the destination's DLIDs (routing/lft.c chooses them legal in the
 * up-down order): in each such phase every link, sender and receiver
 * carries one transfer at most (doc/schedule.md, "Detour phases").
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
	uint8_t *ap = calloc((size_t)fb->m1 * fb->m1 + 1, 1), *serves;
	uint32_t l, k;

	serves = calloc(fb->m1 + 1, 1);
	if (!ap || !serves) {
		free(ap);
		free(serves);
		return NULL;
	}
	for (l = 0; l < fb->m0 * fb->m1; l++)
		serves[l / fb->m0] |= fb->host_at[l] >= 0;
	for (l = 0; l < fb->m1; l++)
		for (k = 0; k < fb->m1; k++)
			ap[l * fb->m1 + k] = l != k && serves[l] && serves[k] &&
					     !fors_leaves_common(fb, l, k);
	free(serves);
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

/* The packing's state: link and host use of the phase being filled. */
struct packer {
	const struct fors_lfts *t;
	const struct fors_topology *live;
	const struct fors_fabric *fb;
	int32_t *swi;		/* per node: switch index in t, or -1 */
	uint32_t *chan;		/* [CHAN(nsw, 0)]: phase + 1 of last use */
	uint32_t *sent, *recv;	/* per slot: phase + 1 of last use */
	uint32_t *todo;		/* pending transfers: src slot << 16 | dst */
	size_t ntodo;
	struct fors_xfer *x;	/* the schedule's transfers, then these */
	size_t n;
	struct fors_error *err;
};

/*
 * The channels host b's LID lid takes from host a's leaf into ch[], how
 * many; 0 when the tables do not deliver it to b within DETOUR_HOPS, or
 * only over a cable the hold-down keeps from data (management routes
 * may take one).
 */
static uint32_t walk(const struct packer *k, uint32_t a, uint32_t b,
		     uint32_t lid, uint32_t *ch)
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
		    v->ports[p].held)
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

/* Transfer a -> b (hosts) into phase stamp - 1 at the first free DLID. */
static int try_place(struct packer *k, uint32_t a, uint32_t b,
		     uint32_t stamp)
{
	uint32_t ch[DETOUR_HOPS], n, i, j, off = 1u << k->t->lmc;

	for (j = 0; j < off; j++) {
		uint32_t lid = k->t->host_lid[b] + (j + stamp) % off;

		n = walk(k, a, b, lid, ch);
		for (i = 0; i < n && k->chan[ch[i]] != stamp; i++)
			;
		if (!n || i < n)
			continue;
		for (i = 0; i < n; i++)
			k->chan[ch[i]] = stamp;
		k->x[k->n++] = (struct fors_xfer){
			(uint16_t)k->fb->hosts[a].sid,
			(uint16_t)k->fb->hosts[b].sid,
			plane_of(k, k->fb->hosts[a].sid / k->fb->m0,
				 ch[0] % 256), (uint16_t)lid };
		return 1;
	}
	return 0;
}

/* Phase stamp - 1: the pending transfers that fit, in order; how many. */
static uint32_t fill_phase(struct packer *k, uint32_t stamp)
{
	const struct fors_fabric *fb = k->fb;
	size_t i, keep = 0;
	uint32_t placed = 0;

	for (i = 0; i < k->ntodo; i++) {
		uint32_t s = k->todo[i] >> 16, d = k->todo[i] & 0xffff;
		uint32_t a = (uint32_t)fb->host_at[s], b = (uint32_t)fb->host_at[d];

		if (k->sent[s] != stamp && k->recv[d] != stamp &&
		    try_place(k, a, b, stamp)) {
			k->sent[s] = k->recv[d] = stamp;
			placed++;
		} else {
			k->todo[keep++] = k->todo[i];
		}
	}
	k->ntodo = keep;
	return placed;
}

/*
 * Each transfer between leaves apart, by diagonal (slot i to slot i + d
 * of the other leaf), so that the first ones a phase takes have distinct
 * senders and receivers: counted into sent and recv, and listed in todo
 * when it is there.
 */
static void pending(struct packer *k, const uint8_t *ap, const uint8_t *joins)
{
	const struct fors_fabric *fb = k->fb;
	uint32_t d, l, m, i, m0 = fb->m0;

	for (d = 0; d < m0; d++)
		for (l = 0; l < fb->m1; l++)
			for (m = 0; m < fb->m1; m++)
				for (i = 0; ap[l * fb->m1 + m] && i < m0; i++) {
					uint32_t s = l * m0 + i;
					uint32_t t = m * m0 + (i + d) % m0;

					if (fb->host_at[s] < 0 || fb->host_at[t] < 0 ||
					    !joins[fb->host_at[s]] ||
					    !joins[fb->host_at[t]])
						continue;
					if (k->todo)
						k->todo[k->ntodo] = s << 16 | t;
					k->ntodo++;
					k->sent[s]++;
					k->recv[t]++;
				}
}

/*
 * No packing has fewer phases than a host's sends or receives, or than a
 * leaf's transfers over its live uplinks (each leaves through one).
 */
static uint32_t lower_bound(const struct packer *k)
{
	const struct fors_fabric *fb = k->fb;
	uint32_t l, i, b = 0;

	for (l = 0; l < fb->m1; l++) {
		uint32_t out = 0, in = 0, up = 0;

		for (i = l * fb->m0; i < (l + 1) * fb->m0; i++) {
			b = k->sent[i] > b ? k->sent[i] : b;
			b = k->recv[i] > b ? k->recv[i] : b;
			out += k->sent[i];
			in += k->recv[i];
		}
		for (i = 0; i < fb->q; i++)
			up += fors_plane_live(fb, l, i);
		out = out > in ? out : in;
		if (up && (out + up - 1) / up > b)
			b = (out + up - 1) / up;
	}
	return b;
}

/* The pending transfers listed, and their bound in *info. */
static int listed(struct packer *k, const uint8_t *joins,
		  struct fors_detour_info *info)
{
	uint8_t *ap = apart_matrix(k->fb);
	uint32_t i, slots = k->fb->m0 * k->fb->m1;

	if (!ap)
		return FORS_ENOMEM;
	pending(k, ap, joins);
	info->bound = lower_bound(k);
	info->xfers = (uint32_t)k->ntodo;
	k->todo = malloc(sizeof(uint32_t) * (k->ntodo + 1));
	k->ntodo = 0;
	if (k->todo)
		pending(k, ap, joins);
	for (i = 0; i < slots; i++)
		k->sent[i] = k->recv[i] = 0;
	free(ap);
	return k->todo ? 0 : FORS_ENOMEM;
}

static int setup(struct packer *k, const uint8_t *joins,
		 struct fors_detour_info *info)
{
	const struct fors_fabric *fb = k->fb;
	uint32_t i, slots = fb->m0 * fb->m1;

	k->swi = malloc(sizeof(int32_t) * (k->live->nnodes + 1));
	k->chan = calloc(CHAN(k->t->nsw, 0) + 1, sizeof(uint32_t));
	k->sent = calloc(slots + 1, sizeof(uint32_t));
	k->recv = calloc(slots + 1, sizeof(uint32_t));
	if (!k->swi || !k->chan || !k->sent || !k->recv)
		return FORS_ENOMEM;
	for (i = 0; i < k->live->nnodes; i++)
		k->swi[i] = -1;
	for (i = 0; i < k->t->nsw; i++)
		k->swi[k->t->sw[i]] = (int32_t)i;
	return listed(k, joins, info);
}

/* s's arrays grown by the pending transfers and a phase for each. */
static int grow(struct packer *k, struct fors_schedule *s)
{
	struct fors_xfer *x = realloc(s->xfers, sizeof(*x) *
				      (s->nxfers + k->ntodo + 1));
	size_t *st;

	if (!x)
		return FORS_ENOMEM;
	s->xfers = x;
	st = realloc(s->start, sizeof(size_t) * (s->nphases + k->ntodo + 2));
	if (!st)
		return FORS_ENOMEM;
	s->start = st;
	k->x = s->xfers;
	k->n = s->nxfers;
	return 0;
}

/* Phases after s's until every pending transfer is placed. */
static int pack(struct packer *k, struct fors_schedule *s,
		struct fors_detour_info *info)
{
	const struct fors_fabric *fb = k->fb;
	char n[16];

	while (k->ntodo) {
		uint32_t src = k->todo[0] >> 16, dst = k->todo[0] & 0xffff;

		if (!fill_phase(k, ++info->phases)) {
			fors_error_set(k->err, "the tables deliver host %u's transfers to host %u at no LID offset without a held cable (leaves %u and %u share no live plane)",
				       src, dst, src / fb->m0, dst / fb->m0);
			return FORS_EINVAL;
		}
		s->start[++s->nphases] = k->n;
	}
	s->nxfers = k->n;
	snprintf(n, sizeof(n), "%u", info->phases);
	return info->phases ? fors_schedule_add_key(s, "detour", n) : 0;
}

int fors_detour_pack(const struct fors_lfts *t,
		     const struct fors_topology *live,
		     const struct fors_fabric *fb, const uint8_t *joins,
		     struct fors_schedule *s, struct fors_schedule **out,
		     struct fors_detour_info *info, struct fors_error *err)
{
	struct packer k = { .t = t, .live = live, .fb = fb, .err = err };
	int r;

	*info = (struct fors_detour_info){ 0 };
	r = setup(&k, joins, info);
	if (!r)
		r = grow(&k, s);
	if (!r)
		r = pack(&k, s, info);
	free(k.swi);
	free(k.chan);
	free(k.sent);
	free(k.recv);
	free(k.todo);
	if (r == FORS_ENOMEM)
		fors_error_set(err, "out of memory while placing the detours");
	if (r) {
		fors_schedule_free(s);
		return r;
	}
	*out = s;
	return 0;
}
