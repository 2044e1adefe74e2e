// SPDX-License-Identifier: MIT
/*
 * Transfers followed through the tables as switches forward them, phase by
 * phase: every directed link carries at most one transfer of a phase. A
 * 2,048-host schedule has four million transfers, so the tables are laid
 * out flat once (by LID, and each channel's far end) and a route
 * of up to three links is followed through them without a call per hop;
 * where the schedule has more transfers than (host switch, LID) pairs,
 * each pair's route is followed and judged once, up front, and a transfer
 * that ends where its route does only loads the route's links. Anything
 * else is walked hop by hop (verify/walk.c), so every message is the
 * walk's own. The
 * phases are shared between two threads, each with its own link loads
 * and report, merged in phase order.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sys/threads.h"
#include "verify/follow.h"

/* Links of the longest route followed flat: leaf, spine, leaf, CA. */
#define FLAT_LINKS 3

/*
 * The tables and the topology laid out for following, shared read-only:
 * the tables by LID, so a route's three lookups share a cache line or two.
 */
struct flat {
	uint8_t *byl;		/* [nlid * nrow]: row r's port for a LID,
				   FORS_NO_PORT beyond its table; NULL where
				   the routes are laid out (route) */
	uint32_t nlid, nrow;
	uint32_t *peer;		/* per channel: the node at its far end */
	uint32_t *peer_port;	/* per channel: the port there */
	uint32_t *peer_base;	/* per channel: the far end's first channel
				   (pbase), so a route's next channel is one
				   lookup from its port */
	uint8_t *ca;		/* per node: a CA */
	uint32_t *src_chan;	/* per host slot: its port's channel */
	uint32_t *dst_chan;	/* per host slot: the channel into its port,
				   FORS_NO_PEER when its port is down */
	uint32_t *src_sw;	/* per host slot: the switch it sends into,
				   FORS_NO_PEER when its port is down */
	uint32_t *src_row;	/* per node: its row of route, FORS_NO_PEER
				   when no host sends into it */
	uint32_t nsrc;		/* rows of route */
	uint8_t *route;		/* [(row * nlid + lid) * FLAT_LINKS]: a LID's
				   flat route from a host's switch, the port
				   it leaves each switch by, 0 after the last;
				   none where it does not reach a CA within a
				   leaf or leaf-spine-leaf (walk it); NULL
				   where the schedule has no more transfers
				   than such routes (then byl is followed per
				   transfer) */
};

/*
 * A channel in the phase being followed: twelve bytes, so that a thread's
 * channels stay in its core's cache.
 */
struct use {
	uint32_t stamp;		/* phase + 1 of last use */
	uint32_t load;		/* uses in that phase */
	uint32_t user;		/* transfer that used it first */
};

/* One thread's share: phases p0 .. p1 - 1. */
struct follower {
	const struct fors_follow_in *in;
	const struct flat *fl;
	uint32_t p0, p1;
	uint32_t detour_from;	/* the first detour phase */
	struct use *use;	/* per channel */
	struct fors_check_report rep;
};

void fors_report_keep(struct fors_check_report *r, const char *fmt, ...)
{
	va_list ap;

	if (r->nkept == FORS_CHECK_KEEP)
		return;
	va_start(ap, fmt);
	vsnprintf(r->kept[r->nkept++], sizeof(r->kept[0]), fmt, ap);
	va_end(ap);
}

#define keep(f, ...) fors_report_keep(&(f)->rep, __VA_ARGS__)

static const char *desc(const struct follower *f, uint32_t node)
{
	return f->in->w->t->nodes[node].desc;
}

struct use_arg {
	struct follower *f;
	uint32_t phase;
	size_t xfer;
};

/* A second transfer on channel c: counted, and the first such kept. */
static void shared(const struct use_arg *u, uint32_t id, struct use *c)
{
	struct follower *f = u->f;
	const struct fors_xfer *a, *b;
	uint32_t node, port;

	if (++c->load > f->rep.max_load)
		f->rep.max_load = c->load;
	if (c->load != 2)
		return;
	a = &f->in->s->xfers[c->user];
	b = &f->in->s->xfers[u->xfer];
	node = f->in->g->cnode[id];
	port = id - f->in->g->pbase[node];
	f->rep.shared++;
	keep(f, "phase %u: link \"%s\"[%u] -> \"%s\" carries %u -> %u and %u -> %u",
	     u->phase, desc(f, node), port,
	     desc(f, f->in->w->t->nodes[node].ports[port].peer), a->src,
	     a->dst, b->src, b->dst);
}

/* Channel id carries the transfer of u in its phase; inline, the common
   case (the channel's first use in the phase) is four per transfer. */
static inline void use_chan(const struct use_arg *u, uint32_t id)
{
	struct use *c = &u->f->use[id];

	if (c->stamp != u->phase + 1)
		*c = (struct use){ u->phase + 1, 1, (uint32_t)u->xfer };
	else
		shared(u, id, c);
}

static void use_link(void *arg, uint32_t node, uint32_t port)
{
	const struct use_arg *u = arg;

	use_chan(u, u->f->in->g->pbase[node] + port);
}

/*
 * A route within a leaf, or leaf-spine-leaf; in a detour phase also
 * leaf-spine-leaf-spine-leaf and longer, leaves and spines taking turns
 * (so a route of up to three switches is judged alike in every phase).
 */
static int updown(const uint8_t *leaf, const struct fors_hop *h, int detour)
{
	uint32_t i;

	if (h->nsw == 1)
		return leaf[h->sw[0]];
	if (h->nsw != 3 && (!detour || h->nsw % 2 == 0))
		return 0;
	for (i = 0; i < h->nsw; i++)
		if (leaf[h->sw[i]] != (i % 2 == 0))
			return 0;
	return 1;
}

/*
 * The port of table r for lid: from the tables by LID where they are laid
 * out, else from the dump itself (laying out the routes reads each entry
 * once, so the copy would only add its size to the peak).
 */
static uint32_t port_of(const struct flat *fl, const struct fors_lft_dump *d,
			uint32_t r, uint32_t lid)
{
	if (fl->byl)
		return fl->byl[(size_t)lid * fl->nrow + r];
	return lid <= d->sw[r].maxlid ? d->sw[r].port[lid] : FORS_NO_PORT;
}

/*
 * The route of lid from switch x through the flat tables, when it reaches
 * a CA within FLAT_LINKS links: its channels in ch[], its switches and the
 * CA port in h, as a walk gives them; 0 when it must be walked.
 */
static int flat_route(const struct flat *fl, const struct fors_follow_in *in,
		      uint32_t x, uint32_t lid, uint32_t *ch,
		      struct fors_hop *h)
{
	const uint32_t *pbase = in->g->pbase;
	const int32_t *row = in->w->table;
	uint32_t n, k, c, y;

	if (lid >= fl->nlid)
		return 0;
	h->fail = NULL;
	for (n = 0; n < FLAT_LINKS; n++) {
		if (row[x] < 0)
			return 0;
		k = port_of(fl, in->d, (uint32_t)row[x], lid);
		c = pbase[x] + k;
		if (k == 0 || k == FORS_NO_PORT || c >= pbase[x + 1])
			return 0;
		y = fl->peer[c];
		if (y == FORS_NO_PEER)
			return 0;
		ch[n] = c;
		h->sw[n] = x;
		if (fl->ca[y]) {
			h->nsw = n + 1;
			h->node = y;
			h->port = fl->peer_port[c];
			return 1;
		}
		x = y;
	}
	return 0;
}

/* Transfer x's route h, walked or followed flat, judged in phase p. */
static void judge(struct follower *f, const struct fors_xfer *x, uint32_t p,
		  struct fors_hop *h)
{
	if (!h->fail && (h->node != f->in->hnode[x->dst] ||
			 h->port != f->in->hport[x->dst]))
		h->fail = "is delivered to the wrong port";
	if (h->fail) {
		f->rep.undelivered++;
		keep(f, "phase %u: %u -> %u (DLID %d) %s at \"%s\"", p,
		     x->src, x->dst, x->dlid, h->fail, desc(f, h->node));
	} else if (!updown(f->in->leaf, h, p >= f->detour_from)) {
		f->rep.not_updown++;
		keep(f, "phase %u: %u -> %u (DLID %d) takes a path through %u switches that is not leaf-spine-leaf%s",
		     p, x->src, x->dst, x->dlid, h->nsw,
		     p < f->detour_from ? "" : " nor a detour through leaves");
	}
}

/*
 * Transfer x from switch sw on its laid-out route, judged when laid out
 * (lay_rows), when the route ends in x's destination port: its channels
 * used; 0 when it must be followed and judged as any other. Inline: most
 * of four million transfers take it.
 */
static inline int laid(const struct use_arg *u, uint32_t sw,
		       const struct fors_xfer *x)
{
	const struct flat *fl = u->f->fl;
	uint32_t lid = (uint32_t)x->dlid, c[FLAT_LINKS], n, j;
	const uint8_t *r;

	if (lid >= fl->nlid)
		return 0;
	r = &fl->route[((size_t)fl->src_row[sw] * fl->nlid + lid) *
		       FLAT_LINKS];
	if (!r[0])
		return 0;
	c[0] = u->f->in->g->pbase[sw] + r[0];
	for (n = 1; n < FLAT_LINKS && r[n]; n++)
		c[n] = fl->peer_base[c[n - 1]] + r[n];
	if (c[n - 1] != fl->dst_chan[x->dst])
		return 0;
	use_chan(u, fl->src_chan[x->src]);
	for (j = 0; j < n; j++)
		use_chan(u, c[j]);
	return 1;
}

/*
 * Transfer i of phase p: on its laid-out route, or from its source port
 * through the tables flat, or walked.
 */
static void follow(struct follower *f, uint32_t p, size_t i)
{
	const struct fors_follow_in *in = f->in;
	const struct fors_xfer *x = &in->s->xfers[i];
	struct use_arg u = { f, p, i };
	uint32_t ch[FLAT_LINKS], sw = f->fl->src_sw[x->src], j;
	struct fors_hop h;

	f->rep.transfers++;
	if (in->hnode[x->src] == UINT32_MAX || in->hnode[x->dst] == UINT32_MAX) {
		f->rep.undelivered++;
		keep(f, "phase %u: %u -> %u: a host without a host line", p,
		     x->src, x->dst);
		return;
	}
	if (sw == FORS_NO_PEER) {
		f->rep.undelivered++;
		keep(f, "phase %u: %u -> %u: the source port is down", p,
		     x->src, x->dst);
		return;
	}
	if (f->fl->route && laid(&u, sw, x))
		return;
	use_chan(&u, f->fl->src_chan[x->src]);
	if (!f->fl->route &&
	    flat_route(f->fl, in, sw, (uint32_t)x->dlid, ch, &h))
		for (j = 0; j < h.nsw; j++)
			use_chan(&u, ch[j]);
	else
		fors_walk_forward(in->w, sw, (uint32_t)x->dlid, &h, use_link,
				  &u);
	judge(f, x, p, &h);
}

static void *run(void *arg)
{
	struct follower *f = arg;
	const struct fors_schedule *s = f->in->s;
	uint32_t p;
	size_t i;

	for (p = f->p0; p < f->p1; p++)
		for (i = s->start[p]; i < s->start[p + 1]; i++)
			follow(f, p, i);
	return NULL;
}

static int start(struct follower *f, const struct fors_follow_in *in,
		 const struct flat *fl, uint32_t p0, uint32_t p1)
{
	uint32_t n = in->g->nchan;

	*f = (struct follower){ .in = in, .fl = fl, .p0 = p0, .p1 = p1 };
	f->detour_from = in->s->nphases - fors_schedule_detours(in->s);
	f->use = calloc(n + 1, sizeof(*f->use));
	return f->use ? 0 : FORS_ENOMEM;
}

static void finish(struct follower *f)
{
	free(f->use);
}

void fors_follow_add(struct fors_check_report *rep,
		     const struct fors_check_report *from)
{
	uint32_t i;

	rep->transfers += from->transfers;
	rep->shared += from->shared;
	rep->undelivered += from->undelivered;
	rep->not_updown += from->not_updown;
	if (from->max_load > rep->max_load)
		rep->max_load = from->max_load;
	for (i = 0; i < from->nkept && rep->nkept < FORS_CHECK_KEEP; i++)
		memcpy(rep->kept[rep->nkept++], from->kept[i],
		       sizeof(rep->kept[0]));
}

/*
 * The phase that splits the transfers in two halves; small schedules are
 * split too, so every check runs the way a large one does.
 */
static uint32_t middle(const struct fors_schedule *s)
{
	uint32_t p = 0;

	while (p < s->nphases && s->start[p + 1] <= s->nxfers / 2)
		p++;
	return p;
}

static void flat_free(struct flat *fl)
{
	free(fl->byl);
	free(fl->peer);
	free(fl->peer_port);
	free(fl->peer_base);
	free(fl->ca);
	free(fl->src_chan);
	free(fl->dst_chan);
	free(fl->src_sw);
	free(fl->src_row);
	free(fl->route);
}

/*
 * Each host slot's channel into its switch and the switch, and the channel
 * out of that switch whose far end is the host's port; FORS_NO_PEER where
 * none.
 */
static void flat_hosts(struct flat *fl, const struct fors_follow_in *in)
{
	const struct fors_topology *t = in->w->t;
	uint32_t h, c, sw, hosts = in->s->m0 * in->s->m1;

	for (h = 0; h < hosts; h++) {
		fl->src_sw[h] = fl->dst_chan[h] = FORS_NO_PEER;
		if (in->hnode[h] == UINT32_MAX)
			continue;
		fl->src_chan[h] = in->g->pbase[in->hnode[h]] + in->hport[h];
		sw = t->nodes[in->hnode[h]].ports[in->hport[h]].peer;
		fl->src_sw[h] = sw;
		if (sw == FORS_NO_PEER)
			continue;
		c = in->g->pbase[sw] +
		    t->nodes[in->hnode[h]].ports[in->hport[h]].peer_port;
		if (c < in->g->pbase[sw + 1] && fl->peer[c] == in->hnode[h] &&
		    fl->peer_port[c] == in->hport[h])
			fl->dst_chan[h] = c;
	}
}

/* Every table into fl->byl, LID by LID. 0, or FORS_ENOMEM. */
static int flat_tables(struct flat *fl, const struct fors_lft_dump *d)
{
	uint32_t r, lid;

	fl->byl = malloc((size_t)fl->nlid * fl->nrow + 1);
	if (!fl->byl)
		return FORS_ENOMEM;
	memset(fl->byl, FORS_NO_PORT, (size_t)fl->nlid * fl->nrow);
	for (r = 0; r < fl->nrow; r++)
		for (lid = 0; lid <= d->sw[r].maxlid; lid++)
			fl->byl[(size_t)lid * fl->nrow + r] = d->sw[r].port[lid];
	return 0;
}

/* Half of the routes to lay out: rows r0 .. r1 - 1. */
struct lay {
	struct flat *fl;
	const struct fors_follow_in *in;
	const uint32_t *sw;	/* per row: its switch */
	uint32_t r0, r1;
};

/*
 * Each route of rows l->r0 .. l->r1 - 1 that passes updown() into
 * fl->route.
 */
static void *lay_rows(void *arg)
{
	const struct lay *l = arg;
	struct fors_hop h;
	const uint32_t *pbase = l->in->g->pbase;
	uint32_t r, lid, n, ch[FLAT_LINKS];
	uint8_t *rec;

	for (r = l->r0; r < l->r1; r++)
		for (lid = 0; lid < l->fl->nlid; lid++) {
			rec = &l->fl->route[((size_t)r * l->fl->nlid + lid) *
					    FLAT_LINKS];
			memset(rec, 0, sizeof(*rec) * FLAT_LINKS);
			if (!flat_route(l->fl, l->in, l->sw[r], lid, ch, &h) ||
			    !updown(l->in->leaf, &h, 0))
				continue;
			for (n = 0; n < h.nsw; n++)
				rec[n] = (uint8_t)(ch[n] - pbase[h.sw[n]]);
		}
	return NULL;
}

/*
 * Every LID's flat route from each switch a host sends into, once, where
 * the schedule has more transfers than that makes routes: a large one
 * sends to each LID many times from one switch (32 hosts of an NDR leaf),
 * and following the tables is a chain of dependent lookups. A route is
 * its ports, a byte each (the fewest bytes: they are OpenSM's peak memory
 * at NDR scale). On two threads. Otherwise routes are followed per
 * transfer. 0, or FORS_ENOMEM.
 */
static int flat_routes(struct flat *fl, const struct fors_follow_in *in)
{
	uint32_t h, x, hosts = in->s->m0 * in->s->m1, *sw;
	struct lay l[2];
	struct fors_thread *th = NULL;

	for (x = 0; x < in->w->t->nnodes; x++)
		fl->src_row[x] = FORS_NO_PEER;
	sw = malloc(sizeof(uint32_t) * (hosts + 1));
	if (!sw)
		return FORS_ENOMEM;
	for (h = 0; h < hosts; h++) {
		x = fl->src_sw[h];
		if (x != FORS_NO_PEER && fl->src_row[x] == FORS_NO_PEER) {
			fl->src_row[x] = fl->nsrc;
			sw[fl->nsrc++] = x;
		}
	}
	if ((size_t)fl->nsrc * fl->nlid >= in->s->nxfers) {
		free(sw);
		return flat_tables(fl, in->d);
	}
	fl->route = malloc(FLAT_LINKS * ((size_t)fl->nsrc * fl->nlid + 1));
	if (!fl->route) {
		free(sw);
		return FORS_ENOMEM;
	}
	l[0] = (struct lay){ fl, in, sw, 0, fl->nsrc / 2 };
	l[1] = (struct lay){ fl, in, sw, fl->nsrc / 2, fl->nsrc };
	if (fors_thread_start(lay_rows, &l[1], &th))
		lay_rows(&l[1]);
	lay_rows(&l[0]);
	fors_thread_join(th);
	free(sw);
	return 0;
}

/* The tables and the topology laid out flat. 0, or FORS_ENOMEM. */
static int flat_init(struct flat *fl, const struct fors_follow_in *in)
{
	const struct fors_topology *t = in->w->t;
	uint32_t i, k, hosts = in->s->m0 * in->s->m1;

	*fl = (struct flat){ .nrow = in->d->nsw };
	for (i = 0; i < in->d->nsw; i++)
		if (in->d->sw[i].maxlid >= fl->nlid)
			fl->nlid = in->d->sw[i].maxlid + 1;
	fl->ca = calloc(t->nnodes + 1, 1);
	fl->peer = malloc(sizeof(uint32_t) * (in->g->nchan + 1));
	fl->peer_port = calloc(in->g->nchan + 1, sizeof(uint32_t));
	fl->peer_base = calloc(in->g->nchan + 1, sizeof(uint32_t));
	fl->src_chan = malloc(sizeof(uint32_t) * (hosts + 1));
	fl->src_sw = malloc(sizeof(uint32_t) * (hosts + 1));
	fl->dst_chan = malloc(sizeof(uint32_t) * (hosts + 1));
	fl->src_row = malloc(sizeof(uint32_t) * (t->nnodes + 1));
	if (!fl->ca || !fl->peer || !fl->peer_port || !fl->peer_base ||
	    !fl->src_chan || !fl->src_sw || !fl->dst_chan || !fl->src_row)
		return FORS_ENOMEM;
	for (i = 0; i < t->nnodes; i++) {
		const struct fors_node *n = &t->nodes[i];
		uint32_t c = in->g->pbase[i];

		fl->ca[i] = n->type == FORS_CA;
		fl->peer[c] = FORS_NO_PEER;
		for (k = 1; k <= n->nports; k++) {
			uint32_t y = n->ports[k].peer;

			fl->peer[c + k] = y;
			fl->peer_port[c + k] = n->ports[k].peer_port;
			fl->peer_base[c + k] = y < t->nnodes ? in->g->pbase[y] : 0;
		}
	}
	flat_hosts(fl, in);
	return flat_routes(fl, in);
}

int fors_follow(const struct fors_follow_in *in,
		struct fors_check_report *rep)
{
	uint32_t mid = middle(in->s);
	struct follower f[2];
	struct fors_thread *th = NULL;
	struct flat fl;
	int e = flat_init(&fl, in);

	e = start(&f[0], in, &fl, 0, mid) || e;
	e = start(&f[1], in, &fl, mid, in->s->nphases) || e;
	if (!e && (mid == in->s->nphases ||
		   fors_thread_start(run, &f[1], &th)))
		run(&f[1]);
	if (!e)
		run(&f[0]);
	fors_thread_join(th);
	fors_follow_add(rep, &f[0].rep);
	fors_follow_add(rep, &f[1].rep);
	finish(&f[0]);
	finish(&f[1]);
	flat_free(&fl);
	return e ? FORS_ENOMEM : 0;
}
