// SPDX-License-Identifier: MIT
/*
 * What a routing does to a synchronised exchange: every transfer of every
 * phase followed through the LFTs, and each phase costed by its most loaded
 * link, as the LHCb measurements explain the throughput they lost (FORS
 * paper, Section 3). The patterns: a schedule's phases as stored; the
 * linear shift over the host ports or an MPI job's ranks, and random
 * derangements, made a phase at a time; any but a schedule sent at every
 * LID offset in turn.
 */
#include <stdlib.h>
#include <string.h>

#include "verify/eval.h"
#include "routing/lft.h"
#include "schedule/bound.h"
#include "schedule/xorshift.h"
#include "verify/walk.h"

/* Shuffles before a derangement is repaired: each is one with p ~ 1/e. */
#define DERANGE_TRIES 10000

void fors_pattern_free(struct fors_pattern *p)
{
	if (!p)
		return;
	free(p->start);
	free(p->flow);
	free(p->rank);
	free(p);
}

static struct fors_pattern *pattern_new(uint32_t nphases, size_t nflows)
{
	struct fors_pattern *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->kind = FORS_PATTERN_FLOWS;
	p->nphases = nphases;
	p->offsets = 1;
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
				fors_error_set(err, "the topology gives no LID for CA \"%s\" port %u: use ibnetdiscover output or fors route's fors-topology.txt",
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

/* A pattern over nranks ranks, their ports still to be given. */
static struct fors_pattern *ranked_new(enum fors_pattern_kind kind,
				       uint32_t nranks)
{
	struct fors_pattern *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->kind = kind;
	p->nranks = p->width = nranks;
	p->offsets = 1;
	p->rank = malloc(sizeof(*p->rank) * ((size_t)nranks + 1));
	if (!p->rank) {
		free(p);
		return NULL;
	}
	return p;
}

/* Host port c with its base LID. */
static struct fors_endpoint endpoint(const struct fors_topology *t,
				     const struct ca_port *c)
{
	return (struct fors_endpoint){ c->node, c->port,
		t->nodes[c->node].ports[c->port].lid };
}

/* A pattern whose ranks are the host ports, 2..FORS_MAX_HOSTS of them. */
static int host_ranks(const struct fors_topology *t,
		      enum fors_pattern_kind kind, const char *what,
		      struct fors_pattern **out, struct fors_error *err)
{
	struct ca_port *c;
	uint32_t n, i;
	int r;

	*out = NULL;
	r = ca_ports(t, &c, &n, err);
	if (r)
		return r;
	if (n < 2 || n > FORS_MAX_HOSTS) {
		free(c);
		fors_error_set(err, "%u CA ports on switches: %s needs 2..%u",
			       n, what, FORS_MAX_HOSTS);
		return FORS_EINVAL;
	}
	*out = ranked_new(kind, n);
	for (i = 0; *out && i < n; i++)
		(*out)->rank[i] = endpoint(t, &c[i]);
	free(c);
	if (!*out) {
		fors_error_set(err, "out of memory");
		return FORS_ENOMEM;
	}
	return 0;
}

int fors_pattern_shift(const struct fors_topology *t,
		       struct fors_pattern **out, struct fors_error *err)
{
	int r = host_ranks(t, FORS_PATTERN_SHIFT, "linear shift", out, err);

	if (!r)
		(*out)->nphases = (*out)->healthy = (*out)->nranks - 1;
	return r;
}

int fors_pattern_permutations(const struct fors_topology *t, uint32_t n,
			      uint64_t seed, struct fors_pattern **out,
			      struct fors_error *err)
{
	int r;

	*out = NULL;
	if (n < 1 || n > FORS_PERMUTATIONS_MAX) {
		fors_error_set(err, "%u permutations: 1..%u", n,
			       FORS_PERMUTATIONS_MAX);
		return FORS_EINVAL;
	}
	r = host_ranks(t, FORS_PATTERN_PERMUTE, "a permutation", out, err);
	if (!r) {
		(*out)->nphases = (*out)->healthy = n;
		(*out)->seed = seed;
	}
	return r;
}

/*
 * How host h names CA port (node, port): 3 by its port GUID, 2 by the
 * node description, 1 by the description's first word, 0 not at all.
 */
static int names(const struct fors_topology *t, uint32_t node, uint32_t port,
		 const struct fors_rank_host *h)
{
	const char *desc = t->nodes[node].desc;
	size_t w = strcspn(desc, " \t");

	if (h->guid)
		return t->nodes[node].ports[port].guid == h->guid ? 3 : 0;
	if (!strcmp(desc, h->name))
		return 2;
	return strlen(h->name) == w && !strncmp(desc, h->name, w);
}

/* Why h names no host port: a CA that is none, or nothing at all. */
static int no_host(const struct fors_topology *t,
		   const struct fors_rankfile *rf,
		   const struct fors_rank_host *h, struct fors_error *err)
{
	uint32_t i, k, sw;

	for (i = 0; i < t->nnodes; i++) {
		for (k = 1; t->nodes[i].type == FORS_CA && k <= t->nodes[i].nports; k++) {
			if (!names(t, i, k, h))
				continue;
			sw = fors_topology_part_of(t, i);
			if (sw != FORS_NO_PEER)
				fors_error_set(err, "%s:%lu: \"%s\" is CA \"%s\", part of switch \"%s\" (an Aggregation Node), not a host",
					       rf->name, h->line, h->name,
					       t->nodes[i].desc, t->nodes[sw].desc);
			else
				fors_error_set(err, "%s:%lu: \"%s\" is CA \"%s\", which has no port on a switch",
					       rf->name, h->line, h->name,
					       t->nodes[i].desc);
			return FORS_EINVAL;
		}
	}
	fors_error_set(err, "%s:%lu: no host \"%s\" in the topology (a CA's node description, its first word, or a port GUID)",
		       rf->name, h->line, h->name);
	return FORS_EINVAL;
}

/* h names host ports a and b alike: one CA's two ports, or two CAs. */
static int ambiguous(const struct fors_topology *t,
		     const struct fors_rankfile *rf,
		     const struct fors_rank_host *h, const struct ca_port *a,
		     const struct ca_port *b, struct fors_error *err)
{
	if (a->node == b->node)
		fors_error_set(err, "%s:%lu: \"%s\" is CA \"%s\", whose ports %u and %u are both attached: name one by its port GUID",
			       rf->name, h->line, h->name, t->nodes[a->node].desc,
			       a->port, b->port);
	else
		fors_error_set(err, "%s:%lu: \"%s\" is ambiguous: CAs \"%s\" and \"%s\" both match (give the whole node description or a port GUID)",
			       rf->name, h->line, h->name, t->nodes[a->node].desc,
			       t->nodes[b->node].desc);
	return FORS_EINVAL;
}

/* The one host port c[*at] h names best, or an error naming h's line. */
static int match_host(const struct fors_topology *t, const struct ca_port *c,
		      uint32_t n, const struct fors_rankfile *rf,
		      const struct fors_rank_host *h, uint32_t *at,
		      struct fors_error *err)
{
	uint32_t i, other = UINT32_MAX;
	int best = 0, m;

	*at = UINT32_MAX;
	for (i = 0; i < n; i++) {
		m = names(t, c[i].node, c[i].port, h);
		best = m > best ? m : best;
	}
	for (i = 0; best && i < n && other == UINT32_MAX; i++) {
		if (names(t, c[i].node, c[i].port, h) != best)
			continue;
		if (*at == UINT32_MAX)
			*at = i;
		else
			other = i;
	}
	if (!best)
		return no_host(t, rf, h, err);
	if (other != UINT32_MAX)
		return ambiguous(t, rf, h, &c[*at], &c[other], err);
	return 0;
}

int fors_pattern_shift_ranks(const struct fors_topology *t,
			     const struct fors_rankfile *rf,
			     struct fors_pattern **out, struct fors_error *err)
{
	struct fors_pattern *p;
	struct ca_port *c;
	uint32_t n, i, j, at, k = 0;
	int r;

	*out = NULL;
	r = ca_ports(t, &c, &n, err);
	if (r)
		return r;
	p = ranked_new(FORS_PATTERN_SHIFT, rf->nranks);
	if (!p) {
		fors_error_set(err, "out of memory");
		r = FORS_ENOMEM;
	}
	for (i = 0; !r && i < rf->nhosts; i++) {
		r = match_host(t, c, n, rf, &rf->host[i], &at, err);
		for (j = 0; !r && j < rf->host[i].slots; j++)
			p->rank[k++] = endpoint(t, &c[at]);
	}
	free(c);
	if (!r && rf->nranks < 2) {
		fors_error_set(err, "%s: %u rank: a shift needs two or more",
			       rf->name, rf->nranks);
		r = FORS_EINVAL;
	}
	if (r) {
		fors_pattern_free(p);
		return r;
	}
	p->nphases = p->healthy = rf->nranks - 1;
	*out = p;
	return 0;
}

/* a[i] and a[j] exchanged. */
static void swap(uint32_t *a, uint32_t i, uint32_t j)
{
	uint32_t x = a[i];

	a[i] = a[j];
	a[j] = x;
}

int fors_derange(uint32_t *perm, uint32_t n, uint64_t *state, uint32_t tries)
{
	uint32_t i, t, fixed;

	for (i = 0; i < n; i++)
		perm[i] = i;
	/* a uniform shuffle of any permutation is uniform: no reset */
	for (t = 0; t < tries; t++) {
		for (i = n; i > 1; i--)
			swap(perm, i - 1, fors_xorshift(state, i));
		for (i = fixed = 0; i < n; i++)
			fixed += perm[i] == i;
		if (!fixed)
			return 0;
	}
	/* i's value moves to i + 1, whose value is not i: no new fixed point */
	for (i = 0; n > 1 && i < n; i++)
		if (perm[i] == i)
			swap(perm, i, (i + 1) % n);
	return 1;
}

/* Phase ph's generator state: splitmix64 of seed and ph, never 0. */
static uint64_t phase_state(uint64_t seed, uint32_t ph)
{
	uint64_t z = seed + 0x9e3779b97f4a7c15ull * ((uint64_t)ph + 1);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	z ^= z >> 31;
	return z ? z : 1;
}

const struct fors_flow *fors_pattern_phase(const struct fors_pattern *p,
					   uint32_t ph, struct fors_flow *buf,
					   uint32_t *perm, size_t *n)
{
	uint64_t s;
	uint32_t i, d;
	size_t k = 0;

	if (p->kind == FORS_PATTERN_FLOWS) {
		*n = p->start[ph + 1] - p->start[ph];
		return p->flow + p->start[ph];
	}
	if (p->kind == FORS_PATTERN_PERMUTE) {
		s = phase_state(p->seed, ph);
		fors_derange(perm, p->nranks, &s, DERANGE_TRIES);
	}
	for (i = 0; i < p->nranks; i++) {
		const struct fors_endpoint *a = &p->rank[i], *b;

		d = p->kind == FORS_PATTERN_PERMUTE ? perm[i] :
		    (uint32_t)((i + (uint64_t)ph + 1) % p->nranks);
		b = &p->rank[d];
		if (a->node == b->node && a->port == b->port)
			continue;	/* ranks on one port: no network */
		buf[k++] = (struct fors_flow){ a->node, a->port, b->node,
			b->port, b->lid };
	}
	*n = k;
	return buf;
}

int fors_pattern_offsets(const struct fors_topology *t,
			 struct fors_pattern *p, struct fors_error *err)
{
	struct ca_port *c = NULL;
	uint32_t n, i;
	uint8_t l;
	int r;

	if (p->kind == FORS_PATTERN_FLOWS) {
		fors_error_set(err, "a schedule's DLIDs choose its offsets: offsets apply to the other patterns");
		return FORS_EINVAL;
	}
	r = ca_ports(t, &c, &n, err);
	for (i = 0; !r && i < n; i++) {
		const struct fors_node *x = &t->nodes[c[i].node], *y;

		l = x->ports[c[i].port].lmc;
		y = &t->nodes[c[0].node];
		if (l > 7) {
			fors_error_set(err, "the topology gives no LMC for CA \"%s\" port %u: ibnetdiscover output has it",
				       x->desc, c[i].port);
			r = FORS_EINVAL;
		} else if (l != y->ports[c[0].port].lmc) {
			fors_error_set(err, "CA \"%s\" port %u has LMC %u, CA \"%s\" port %u LMC %u: the host ports must agree",
				       x->desc, c[i].port, l, y->desc, c[0].port,
				       y->ports[c[0].port].lmc);
			r = FORS_EINVAL;
		}
	}
	if (!r && n)
		p->offsets = 1u << t->nodes[c[0].node].ports[c[0].port].lmc;
	free(c);
	return r;
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
		for (i = 0; i < s->nphases; i++)
			if (p->start[i + 1] - p->start[i] > p->width)
				p->width = (uint32_t)(p->start[i + 1] - p->start[i]);
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
	struct fors_flow *buf;	/* a phase made on demand */
	uint32_t *perm;
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

/* The n flows f of one phase, each at its DLID + k. */
static void run_phase(const struct fors_walk *w, const struct fors_flow *f,
		      size_t n, uint32_t k, struct eval_walk *v)
{
	size_t i;

	v->ph->node = v->ph->port = UINT32_MAX;
	for (i = 0; i < n; i++) {
		const struct fors_port *sp = &w->t->nodes[f[i].snode].ports[f[i].sport];
		struct fors_hop h;

		v->ph->flows++;
		if (!on_switch(w->t, f[i].snode, sp)) {
			v->ph->lost++;
			continue;
		}
		use(v, f[i].snode, f[i].sport);
		fors_walk_forward(w, sp->peer, f[i].dlid + k, &h, use, v);
		v->ph->lost += h.fail || h.node != f[i].dnode ||
			       h.port != f[i].dport;
	}
}

/* Every phase of p at each of its offsets in turn. */
static void run_all(const struct fors_walk *w, const struct fors_pattern *p,
		    struct eval_walk *v, struct fors_eval *e)
{
	const struct fors_flow *f;
	uint32_t ph, k;
	size_t n;

	for (ph = 0; ph < p->nphases; ph++) {
		f = fors_pattern_phase(p, ph, v->buf, v->perm, &n);
		for (k = 0; k < p->offsets; k++) {
			v->p = ph * p->offsets + k;
			v->ph = &e->phase[v->p];
			run_phase(w, f, n, k, v);
		}
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

/* v's link counters and phase buffers, e's phases; FORS_ENOMEM. */
static int eval_alloc(const struct fors_topology *t,
		      const struct fors_pattern *p, struct eval_walk *v,
		      struct fors_eval *e)
{
	uint32_t i, n = 0;

	v->base = malloc(sizeof(uint32_t) * (t->nnodes + 1));
	for (i = 0; v->base && i < t->nnodes; i++) {
		v->base[i] = n;
		n += t->nodes[i].nports + 1;
	}
	v->stamp = calloc(n + 1, sizeof(uint32_t));
	v->load = calloc(n + 1, sizeof(uint32_t));
	v->buf = malloc(sizeof(*v->buf) * ((size_t)p->width + 1));
	v->perm = malloc(sizeof(uint32_t) * ((size_t)p->nranks + 1));
	e->nphases = p->nphases * p->offsets;
	e->healthy = p->healthy * p->offsets;
	e->phase = calloc((size_t)e->nphases + 1, sizeof(*e->phase));
	return v->base && v->stamp && v->load && v->buf && v->perm && e->phase ?
	       0 : FORS_ENOMEM;
}

int fors_eval_run(const struct fors_topology *t, const struct fors_lft_dump *d,
		  const struct fors_pattern *p, struct fors_eval **out,
		  struct fors_error *err)
{
	struct fors_eval *e = calloc(1, sizeof(*e));
	struct fors_walk w = { 0 };
	struct eval_walk v = { 0 };
	int r;

	*out = NULL;
	r = e ? fors_walk_init(&w, t, d) : FORS_ENOMEM;
	if (!r)
		r = eval_alloc(t, p, &v, e);
	if (!r)
		run_all(&w, p, &v, e);
	fors_walk_free(&w);
	free(v.base);
	free(v.stamp);
	free(v.load);
	free(v.buf);
	free(v.perm);
	if (r) {
		fors_eval_free(e);
		fors_error_set(err, "out of memory while evaluating");
		return r;
	}
	totals(e);
	*out = e;
	return 0;
}
