// SPDX-License-Identifier: MIT
/*
 * Transfers followed through the tables as switches forward them, phase by
 * phase: every directed link carries at most one transfer of a phase.
 * A switch's route to a DLID is followed once and replayed for every
 * transfer that takes it (a leg), and the phases are shared between two
 * threads, each with its own link loads, legs and report, merged in phase
 * order: a 2,048-host schedule has four million transfers.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sys/threads.h"
#include "verify/follow.h"

/* The links of a leaf-spine-leaf route from its first switch to a CA. */
#define LEG_LINKS 3

/*
 * A switch's route to a DLID as far as a CA, replayed for every transfer
 * from that switch to that DLID: its links, where it ends, whether it is
 * leaf-spine-leaf. Routes that fail or run longer are walked each time, so
 * every message is the walk's own.
 */
struct leg {
	uint32_t chan[LEG_LINKS];
	uint32_t node, port;	/* the CA port it ends at */
	uint8_t n;		/* links in chan */
	uint8_t updown;
};

enum { LEG_NONE = 0, LEG_WALK = UINT32_MAX };

/* One thread's share: phases p0 .. p1 - 1. */
struct follower {
	const struct fors_follow_in *in;
	uint32_t p0, p1;
	uint32_t *stamp;	/* per channel: phase + 1 of last use */
	uint32_t *load;		/* per channel: uses in that phase */
	size_t *user;		/* per channel: transfer that used it first */
	uint32_t *legat;	/* [nsw * legw]: LEG_NONE, LEG_WALK, or the
				   leg of (table row, DLID) in legs + 1 */
	uint32_t legw;		/* DLIDs per row: the largest maxlid + 1 */
	struct leg *legs;
	uint32_t nlegs, legcap;
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

/* Channel id carries the transfer of u in its phase. */
static void use_chan(const struct use_arg *u, uint32_t id)
{
	struct follower *f = u->f;
	const struct fors_xfer *a, *b;
	uint32_t node, port;

	if (f->stamp[id] != u->phase + 1) {
		f->stamp[id] = u->phase + 1;
		f->load[id] = 1;
		f->user[id] = u->xfer;
		return;
	}
	if (++f->load[id] > f->rep.max_load)
		f->rep.max_load = f->load[id];
	if (f->load[id] != 2)
		return;
	a = &f->in->s->xfers[f->user[id]];
	b = &f->in->s->xfers[u->xfer];
	node = f->in->g->cnode[id];
	port = id - f->in->g->pbase[node];
	f->rep.shared++;
	keep(f, "phase %u: link \"%s\"[%u] -> \"%s\" carries %u -> %u and %u -> %u",
	     u->phase, desc(f, node), port,
	     desc(f, f->in->w->t->nodes[node].ports[port].peer), a->src,
	     a->dst, b->src, b->dst);
}

static void use_link(void *arg, uint32_t node, uint32_t port)
{
	const struct use_arg *u = arg;

	use_chan(u, u->f->in->g->pbase[node] + port);
}

static int updown(const struct follower *f, const struct fors_hop *h)
{
	const uint8_t *leaf = f->in->leaf;

	if (h->nsw == 1)
		return leaf[h->sw[0]];
	return h->nsw == 3 && leaf[h->sw[0]] && !leaf[h->sw[1]] &&
	       leaf[h->sw[2]];
}

struct leg_arg {
	const struct follower *f;
	struct leg *l;
};

/* Walk callback: a link of the leg being followed, while it has room. */
static void add_link(void *arg, uint32_t node, uint32_t port)
{
	struct leg_arg *a = arg;

	if (a->l->n < LEG_LINKS)
		a->l->chan[a->l->n] = a->f->in->g->pbase[node] + port;
	if (a->l->n <= LEG_LINKS)
		a->l->n++;
}

/* The route from switch x to lid followed: its entry in f->legat. */
static uint32_t new_leg(struct follower *f, uint32_t x, uint32_t lid)
{
	struct leg l = { .n = 0 };
	struct leg_arg a = { f, &l };
	struct fors_hop h;

	fors_walk_forward(f->in->w, x, lid, &h, add_link, &a);
	if (h.fail || l.n > LEG_LINKS)
		return LEG_WALK;
	if (f->nlegs == f->legcap) {
		uint32_t cap = f->legcap ? 2 * f->legcap : 1024;
		struct leg *m = realloc(f->legs, sizeof(*m) * cap);

		if (!m)
			return LEG_WALK;	/* walked each time instead */
		f->legs = m;
		f->legcap = cap;
	}
	l.node = h.node;
	l.port = h.port;
	l.updown = (uint8_t)updown(f, &h);
	f->legs[f->nlegs++] = l;
	return f->nlegs;
}

/* The leg from switch x to lid, NULL when it must be walked. */
static const struct leg *leg(struct follower *f, uint32_t x, uint32_t lid)
{
	int32_t row = f->in->w->table[x];
	uint32_t *at;

	if (row < 0 || lid >= f->legw)
		return NULL;
	at = &f->legat[(size_t)row * f->legw + lid];
	if (*at == LEG_NONE)
		*at = new_leg(f, x, lid);
	return *at == LEG_WALK ? NULL : &f->legs[*at - 1];
}

/* The transfer's route walked hop by hop, and judged. */
static void walk(struct follower *f, const struct fors_xfer *x,
		 const struct fors_port *sp, struct use_arg *u)
{
	struct fors_hop h;

	fors_walk_forward(f->in->w, sp->peer, (uint32_t)x->dlid, &h, use_link,
			  u);
	if (!h.fail && (h.node != f->in->hnode[x->dst] ||
			h.port != f->in->hport[x->dst]))
		h.fail = "is delivered to the wrong port";
	if (h.fail) {
		f->rep.undelivered++;
		keep(f, "phase %u: %u -> %u (DLID %d) %s at \"%s\"", u->phase,
		     x->src, x->dst, x->dlid, h.fail, desc(f, h.node));
	} else if (!updown(f, &h)) {
		f->rep.not_updown++;
		keep(f, "phase %u: %u -> %u (DLID %d) takes a path through %u switches that is not leaf-spine-leaf",
		     u->phase, x->src, x->dst, x->dlid, h.nsw);
	}
}

/* Transfer i of phase p: its source port, then its leg or its walk. */
static void follow(struct follower *f, uint32_t p, size_t i)
{
	const struct fors_follow_in *in = f->in;
	const struct fors_xfer *x = &in->s->xfers[i];
	const struct fors_port *sp;
	struct use_arg u = { f, p, i };
	const struct leg *l;
	uint32_t j;

	f->rep.transfers++;
	if (in->hnode[x->src] == UINT32_MAX || in->hnode[x->dst] == UINT32_MAX) {
		f->rep.undelivered++;
		keep(f, "phase %u: %u -> %u: a host without a host line", p,
		     x->src, x->dst);
		return;
	}
	sp = &in->w->t->nodes[in->hnode[x->src]].ports[in->hport[x->src]];
	if (sp->peer == FORS_NO_PEER) {
		f->rep.undelivered++;
		keep(f, "phase %u: %u -> %u: the source port is down", p,
		     x->src, x->dst);
		return;
	}
	use_link(&u, in->hnode[x->src], in->hport[x->src]);
	l = leg(f, sp->peer, (uint32_t)x->dlid);
	if (!l || l->node != in->hnode[x->dst] || l->port != in->hport[x->dst]) {
		walk(f, x, sp, &u);
		return;
	}
	for (j = 0; j < l->n; j++)
		use_chan(&u, l->chan[j]);
	if (!l->updown) {
		f->rep.not_updown++;
		keep(f, "phase %u: %u -> %u (DLID %d) takes a path through %u switches that is not leaf-spine-leaf",
		     p, x->src, x->dst, x->dlid, l->n);
	}
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
		 uint32_t p0, uint32_t p1)
{
	uint32_t n = in->g->nchan, i;

	*f = (struct follower){ .in = in, .p0 = p0, .p1 = p1 };
	for (i = 0; i < in->d->nsw; i++)
		if (in->d->sw[i].maxlid >= f->legw)
			f->legw = in->d->sw[i].maxlid + 1;
	f->stamp = calloc(n + 1, sizeof(uint32_t));
	f->load = calloc(n + 1, sizeof(uint32_t));
	f->user = calloc(n + 1, sizeof(size_t));
	f->legat = calloc((size_t)in->d->nsw * f->legw + 1, sizeof(uint32_t));
	return f->stamp && f->load && f->user && f->legat ? 0 : FORS_ENOMEM;
}

static void finish(struct follower *f)
{
	free(f->stamp);
	free(f->load);
	free(f->user);
	free(f->legat);
	free(f->legs);
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

int fors_follow(const struct fors_follow_in *in,
		struct fors_check_report *rep)
{
	uint32_t mid = middle(in->s);
	struct follower f[2];
	struct fors_thread *th = NULL;
	int e = start(&f[0], in, 0, mid);

	e = start(&f[1], in, mid, in->s->nphases) || e;
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
	return e ? FORS_ENOMEM : 0;
}
