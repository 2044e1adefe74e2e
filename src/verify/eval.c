// SPDX-License-Identifier: MIT
/*
 * What a routing does to a synchronised exchange: every transfer of every
 * phase followed through the LFTs, and each phase costed by its most loaded
 * link, as the LHCb measurements explain the throughput they lost (FORS
 * paper, Section 3).
 */
#include <stdlib.h>
#include <string.h>

#include "verify/eval.h"
#include "routing/lft.h"
#include "schedule/bound.h"
#include "verify/walk.h"

void fors_pattern_free(struct fors_pattern *p)
{
	if (!p)
		return;
	free(p->start);
	free(p->flow);
	free(p);
}

static struct fors_pattern *pattern_new(uint32_t nphases, size_t nflows)
{
	struct fors_pattern *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->nphases = nphases;
	p->start = calloc((size_t)nphases + 1, sizeof(size_t));
	p->flow = calloc(nflows + 1, sizeof(*p->flow));
	if (!p->start || !p->flow) {
		fors_pattern_free(p);
		return NULL;
	}
	return p;
}

static int cmp_switch(const struct fors_node *x, const struct fors_node *y)
{
	if (x->guid && y->guid)
		return (x->guid > y->guid) - (x->guid < y->guid);
	return strcmp(x->id, y->id);
}

struct ca_port {
	const struct fors_topology *t;
	uint32_t sw, swport;	/* the switch port it hangs on */
	uint32_t node, port;
};

static int cmp_cap(const void *a, const void *b)
{
	const struct ca_port *x = a, *y = b;
	int c = cmp_switch(&x->t->nodes[x->sw], &y->t->nodes[y->sw]);

	return c ? c : (x->swport > y->swport) - (x->swport < y->swport);
}

/* Port p of CA x is on a switch, and x is a host, not part of the switch. */
static int on_switch(const struct fors_topology *t, uint32_t x,
		     const struct fors_port *p)
{
	return p->peer != FORS_NO_PEER && t->nodes[p->peer].type == FORS_SWITCH &&
	       fors_topology_part_of(t, x) == FORS_NO_PEER;
}

/* The hosts' ports on switches, in switch and port order. */
static int ca_ports(const struct fors_topology *t, struct ca_port **out,
		    uint32_t *n, struct fors_error *err)
{
	uint32_t i, k, count = 0;
	struct ca_port *c;

	for (i = 0; i < t->nnodes; i++)
		for (k = 1; t->nodes[i].type == FORS_CA && k <= t->nodes[i].nports; k++)
			count += on_switch(t, i, &t->nodes[i].ports[k]);
	c = malloc(sizeof(*c) * (count + 1));
	if (!c) {
		fors_error_set(err, "out of memory");
		return FORS_ENOMEM;
	}
	*n = 0;
	for (i = 0; i < t->nnodes; i++) {
		const struct fors_node *x = &t->nodes[i];

		for (k = 1; x->type == FORS_CA && k <= x->nports; k++) {
			const struct fors_port *p = &x->ports[k];

			if (!on_switch(t, i, p))
				continue;
			if (!p->lid) {
				free(c);
				fors_error_set(err, "the topology gives no LID for CA \"%s\" port %u: use ibnetdiscover output",
					       x->desc, k);
				return FORS_EINVAL;
			}
			c[(*n)++] = (struct ca_port){ t, p->peer, p->peer_port, i, k };
		}
	}
	qsort(c, *n, sizeof(*c), cmp_cap);
	*out = c;
	return 0;
}

int fors_pattern_shift(const struct fors_topology *t,
		       struct fors_pattern **out, struct fors_error *err)
{
	struct fors_pattern *p;
	struct ca_port *c;
	uint32_t n, ph, s;
	size_t i = 0;
	int r;

	*out = NULL;
	r = ca_ports(t, &c, &n, err);
	if (r)
		return r;
	if (n < 2 || n > FORS_MAX_HOSTS) {
		free(c);
		fors_error_set(err, "%u CA ports on switches: linear shift needs 2..%u",
			       n, FORS_MAX_HOSTS);
		return FORS_EINVAL;
	}
	p = pattern_new(n - 1, (size_t)n * (n - 1));
	if (!p) {
		free(c);
		fors_error_set(err, "out of memory");
		return FORS_ENOMEM;
	}
	for (ph = 1; ph < n; ph++) {
		p->start[ph - 1] = i;
		for (s = 0; s < n; s++) {
			const struct ca_port *a = &c[s], *b = &c[(s + ph) % n];

			p->flow[i++] = (struct fors_flow){ a->node, a->port, b->node,
				b->port, t->nodes[b->node].ports[b->port].lid };
		}
	}
	p->start[n - 1] = i;
	p->nflows = i;
	p->healthy = n - 1;
	free(c);
	*out = p;
	return 0;
}

/* The CA port of schedule host h: by port GUID, else description and port. */
static int host_port(const struct fors_topology *t, const struct fors_host *h,
		     uint32_t *node, uint32_t *port)
{
	uint32_t i, k;

	for (i = 0; i < t->nnodes; i++) {
		const struct fors_node *n = &t->nodes[i];

		for (k = 1; n->type == FORS_CA && k <= n->nports; k++) {
			if (h->guid ? n->ports[k].guid == h->guid :
			    k == h->port && (!strcmp(n->desc, h->desc) ||
					     !strcmp(n->id, h->desc))) {
				*node = i;
				*port = k;
				return 0;
			}
		}
	}
	return -1;
}

/*
 * fors's phases for the same leaves and hosts without a failure: their
 * bound T* with every leaf at max(Q, M0) live planes (a spine gone leaves
 * the file's Q short of the healthy tree's; Algorithm 1's f = 0 is M0),
 * which its schedule reaches (doc/schedule.md, "The cyclic schedule").
 */
static int healthy_phases(const struct fors_schedule *s, uint32_t *out,
			  struct fors_error *err)
{
	uint32_t q = s->q > s->m0 ? s->q : s->m0;
	uint32_t *hosts = calloc(s->m1 + 1, sizeof(uint32_t));
	uint32_t *cables = malloc(sizeof(uint32_t) * ((size_t)s->m1 * q + 1));
	struct fors_bound_fabric bf = { s->m1, q, hosts, cables };
	struct fors_bound b;
	size_t i;
	int r = FORS_ENOMEM;

	if (hosts && cables) {
		for (i = 0; i < (size_t)s->m1 * q; i++)
			cables[i] = 1;
		for (i = 0; i < s->nhosts; i++)
			if (s->hosts[i].sid < s->m0 * s->m1)
				hosts[s->hosts[i].sid / s->m0]++;
		for (i = 0; !s->nhosts && i < s->m1; i++)
			hosts[i] = s->m0;
		r = fors_bound_compute(&bf, &b, err);
		*out = r ? 0 : b.t;
	} else {
		fors_error_set(err, "out of memory");
	}
	free(hosts);
	free(cables);
	return r;
}

int fors_pattern_schedule(const struct fors_topology *t,
			  const struct fors_schedule *s,
			  struct fors_pattern **out, struct fors_error *err)
{
	uint32_t *node, *port, hosts = s->m0 * s->m1;
	struct fors_pattern *p = NULL;
	size_t i;
	int r = 0;

	*out = NULL;
	if (s->lmc < 0 || !s->nhosts) {
		fors_error_set(err, "the schedule is abstract (no hosts, no DLIDs): route it first");
		return FORS_EINVAL;
	}
	node = malloc(sizeof(uint32_t) * (hosts + 1));
	port = malloc(sizeof(uint32_t) * (hosts + 1));
	p = node && port ? pattern_new(s->nphases, s->nxfers) : NULL;
	if (!p)
		r = FORS_ENOMEM;
	for (i = 0; !r && i < hosts; i++)
		node[i] = UINT32_MAX;
	for (i = 0; !r && i < s->nhosts; i++) {
		const struct fors_host *h = &s->hosts[i];

		if (h->sid >= hosts || host_port(t, h, &node[h->sid], &port[h->sid])) {
			fors_error_set(err, "host %u (\"%s\") of the schedule is not in the topology",
				       h->sid, h->desc);
			r = FORS_EINVAL;
		}
	}
	for (i = 0; !r && i < s->nxfers; i++) {
		const struct fors_xfer *x = &s->xfers[i];

		if (x->src >= hosts || x->dst >= hosts || node[x->src] == UINT32_MAX ||
		    node[x->dst] == UINT32_MAX || x->dlid == FORS_NO_DLID) {
			fors_error_set(err, "transfer %u -> %u: a host without a host line, or no DLID",
				       x->src, x->dst);
			r = FORS_EINVAL;
			break;
		}
		p->flow[i] = (struct fors_flow){ node[x->src], port[x->src],
			node[x->dst], port[x->dst], (uint32_t)x->dlid };
	}
	if (!r) {
		memcpy(p->start, s->start, sizeof(size_t) * (s->nphases + 1));
		p->nflows = s->nxfers;
		r = healthy_phases(s, &p->healthy, err);
	}
	free(node);
	free(port);
	if (r == FORS_ENOMEM)
		fors_error_set(err, "out of memory");
	if (r) {
		fors_pattern_free(p);
		return r;
	}
	*out = p;
	return 0;
}

void fors_eval_free(struct fors_eval *e)
{
	if (!e)
		return;
	free(e->phase);
	free(e);
}

struct eval_walk {
	uint32_t *base;		/* per node: first link id */
	uint32_t *stamp;	/* per link: phase + 1 of last use */
	uint32_t *load;
	struct fors_eval_phase *ph;
	uint32_t p;
};

static void use(void *arg, uint32_t node, uint32_t port)
{
	struct eval_walk *v = arg;
	uint32_t id = v->base[node] + port;

	if (v->stamp[id] != v->p + 1) {
		v->stamp[id] = v->p + 1;
		v->load[id] = 0;
	}
	if (++v->load[id] > v->ph->max_load) {
		v->ph->max_load = v->load[id];
		v->ph->node = node;
		v->ph->port = port;
	}
}

static void run_phase(const struct fors_walk *w, const struct fors_pattern *p,
		      struct eval_walk *v)
{
	size_t i;

	v->ph->node = v->ph->port = UINT32_MAX;
	for (i = p->start[v->p]; i < p->start[v->p + 1]; i++) {
		const struct fors_flow *f = &p->flow[i];
		const struct fors_port *sp = &w->t->nodes[f->snode].ports[f->sport];
		struct fors_hop h;

		v->ph->flows++;
		if (!on_switch(w->t, f->snode, sp)) {
			v->ph->lost++;
			continue;
		}
		use(v, f->snode, f->sport);
		fors_walk_forward(w, sp->peer, f->dlid, &h, use, v);
		v->ph->lost += h.fail || h.node != f->dnode || h.port != f->dport;
	}
}

static void totals(struct fors_eval *e)
{
	uint32_t p;

	for (p = 0; p < e->nphases; p++) {
		const struct fors_eval_phase *x = &e->phase[p];

		e->flows += x->flows;
		e->lost += x->lost;
		e->conflicts += x->max_load > 1;
		e->worst = x->max_load > e->worst ? x->max_load : e->worst;
		e->time += x->max_load > 1 ? x->max_load : 1;
	}
	e->relative = e->time ? (double)e->healthy / (double)e->time : 0;
}

int fors_eval_run(const struct fors_topology *t, const struct fors_lft_dump *d,
		  const struct fors_pattern *p, struct fors_eval **out,
		  struct fors_error *err)
{
	struct fors_eval *e = calloc(1, sizeof(*e));
	struct fors_walk w = { 0 };
	struct eval_walk v = { 0 };
	uint32_t i, n = 0;
	int r;

	*out = NULL;
	r = e ? fors_walk_init(&w, t, d) : FORS_ENOMEM;
	if (!r) {
		v.base = malloc(sizeof(uint32_t) * (t->nnodes + 1));
		for (i = 0; v.base && i < t->nnodes; i++) {
			v.base[i] = n;
			n += t->nodes[i].nports + 1;
		}
		v.stamp = calloc(n + 1, sizeof(uint32_t));
		v.load = calloc(n + 1, sizeof(uint32_t));
		e->phase = calloc((size_t)p->nphases + 1, sizeof(*e->phase));
		r = v.base && v.stamp && v.load && e->phase ? 0 : FORS_ENOMEM;
	}
	for (v.p = 0; !r && v.p < p->nphases; v.p++) {
		v.ph = &e->phase[v.p];
		run_phase(&w, p, &v);
	}
	fors_walk_free(&w);
	free(v.base);
	free(v.stamp);
	free(v.load);
	if (r) {
		fors_eval_free(e);
		fors_error_set(err, "out of memory while evaluating");
		return r;
	}
	e->nphases = p->nphases;
	e->healthy = p->healthy;
	totals(e);
	*out = e;
	return 0;
}
