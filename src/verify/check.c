// SPDX-License-Identifier: MIT
/*
 * What the schedule promises, checked on the real thing: packets follow the
 * switches' LFTs hop by hop, as a switch would forward them.
 */
#include <stdlib.h>
#include <string.h>

#include "verify/check.h"
#include "verify/mftree.h"
#include "routing/lft.h"
#include "schedule/bound.h"
#include "sys/threads.h"
#include "verify/deps.h"
#include "verify/follow.h"
#include "verify/verify.h"
#include "verify/walk.h"

struct checker {
	const struct fors_topology *t;
	const struct fors_lft_dump *d;
	const struct fors_schedule *s;
	struct fors_check_report *rep;
	struct fors_walk w;	/* the tables over the topology */
	int32_t *table;		/* per node: dump switch index, -1 (w's) */
	uint8_t *leaf;		/* per node: switch with a CA port */
	struct fors_deps g;	/* channels (directed links) and their
				   dependencies */
	uint32_t *hnode, *hport;	/* per schedule host: CA node, port */
	uint32_t *from;		/* linked switches with a table */
	uint32_t nfrom;
	uint32_t *comp;		/* per node: its connected component */
	uint32_t *seen;		/* per node: LID walk that reached it */
	int8_t *verdict;	/* per node: in that walk, delivered (1), not
				   (0), or still on the way (-1) */
	struct owner *own;	/* per LID: who it belongs to */
	uint32_t nlid;		/* LIDs 0..nlid-1: owned or in a table */
	uint8_t *outs;		/* per channel of a switch: some LID uses it */
	uint32_t *kout;		/* per node: its port in the current walk */
	uint32_t *path;		/* [nnodes]: switches of one walk */
	struct fors_error *err;
};

/* The destination behind a LID: a CA port, or a switch (port 0). */
struct owner {
	uint32_t node;		/* UINT32_MAX: nobody known */
	uint32_t port;
	int32_t host;		/* schedule host, -1 */
};

#define keep(c, ...) fors_report_keep((c)->rep, __VA_ARGS__)

static const char *desc(const struct checker *c, uint32_t node)
{
	return c->t->nodes[node].desc;
}

/* Port k of CA node n is schedule host x. */
static int is_host(const struct fors_node *n, uint32_t k,
		   const struct fors_host *x)
{
	return x->guid ? n->ports[k].guid == x->guid :
	       k == x->port && (!strcmp(n->desc, x->desc) ||
				!strcmp(n->id, x->desc));
}

/*
 * Every schedule host's CA port. The search for each starts where the last
 * one was found: hosts and nodes mostly come in the same order, and a
 * search from the first node for each of thousands of hosts costs more
 * than the rest of the check.
 */
static int map_hosts(struct checker *c)
{
	const struct fors_topology *t = c->t;
	const struct fors_schedule *s = c->s;
	uint32_t h, i, j, k, at = 0;

	for (h = 0; h < s->nhosts; h++) {
		const struct fors_host *x = &s->hosts[h];
		int found = 0;

		for (j = 0; j < t->nnodes && !found; j++) {
			const struct fors_node *n;

			i = (at + j) % t->nnodes;
			n = &t->nodes[i];
			for (k = 1; n->type == FORS_CA && k <= n->nports && !found; k++) {
				found = is_host(n, k, x);
				if (found) {
					c->hnode[x->sid] = i;
					c->hport[x->sid] = k;
					at = i;
				}
			}
		}
		if (!found) {
			fors_error_set(c->err, "host %u (\"%s\", port GUID 0x%016llx) of the schedule is not in the topology",
				       x->sid, x->desc, (unsigned long long)x->guid);
			return FORS_EINVAL;
		}
	}
	return 0;
}

static int linked(const struct fors_node *n)
{
	uint32_t k;

	for (k = 1; k <= n->nports; k++)
		if (n->ports[k].peer != FORS_NO_PEER)
			return 1;
	return 0;
}

static void add_dep(struct checker *c, uint32_t chan, uint32_t port)
{
	fors_deps_add(&c->g, chan, port);
}

/*
 * Whether lid, entering switch x, reaches its owner o (nobody's LIDs are
 * walked for their dependencies only). Walks for one LID (walk) share
 * their ends: a switch already judged passes its verdict to every switch on
 * the way to it, so each switch is followed once per LID, and each of its
 * hops adds its dependency once; one met again on the way means a loop.
 */
static int delivers(struct checker *c, uint32_t x, uint32_t lid,
		    const struct owner *o, uint32_t walk)
{
	uint32_t n = 0, i, k, pe, prev = UINT32_MAX;
	int v;

	for (;;) {
		if (c->seen[x] == walk) {
			v = c->verdict[x] > 0;
			if (prev != UINT32_MAX && c->kout[x] != FORS_NO_PORT)
				add_dep(c, prev, c->kout[x]);
			break;
		}
		if (c->table[x] < 0) {
			v = 0;
			break;
		}
		c->seen[x] = walk;
		c->verdict[x] = -1;
		c->path[n++] = x;
		k = fors_walk_port(&c->w, x, lid);
		c->kout[x] = k == 0 ? FORS_NO_PORT : k;
		if (k == 0 || k == FORS_NO_PORT) {
			v = k == 0 && x == o->node && o->port == 0;
			break;
		}
		if (prev != UINT32_MAX)
			add_dep(c, prev, k);
		prev = c->g.pbase[x] + k;
		c->outs[prev] = 1;
		pe = c->t->nodes[x].ports[k].peer;
		if (c->t->nodes[pe].type == FORS_CA) {
			v = pe == o->node && c->t->nodes[x].ports[k].peer_port == o->port;
			break;
		}
		x = pe;
	}
	for (i = 0; i < n; i++)
		c->verdict[c->path[i]] = (int8_t)v;
	return v;
}

/*
 * Every owned LID (CA ports with every offset, switches) from every linked
 * switch: spines too, whose own LID-routed management traffic must reach
 * hosts behind a failed cable. A CA sends through its leaf, so the leaves
 * stand for the CAs. Every other LID is walked for its dependencies.
 */
static void reach(struct checker *c)
{
	uint32_t i, lid, walk = 0;

	for (lid = 1; lid < c->nlid; lid++) {
		const struct owner *o = &c->own[lid];

		walk++;
		for (i = 0; i < c->nfrom; i++) {
			if (delivers(c, c->from[i], lid, o, walk) ||
			    o->node == UINT32_MAX)
				continue;
			if (c->comp[c->from[i]] != c->comp[o->node])
				continue;
			c->rep->unreachable++;
			if (o->host >= 0)
				keep(c, "LID %u (host %d) is not reachable from switch \"%s\"",
				     lid, o->host, desc(c, c->from[i]));
			else
				keep(c, "LID %u (%s \"%s\") is not reachable from switch \"%s\"",
				     lid, o->port ? "CA" : "switch",
				     desc(c, o->node), desc(c, c->from[i]));
		}
		for (i = 0; o->node != UINT32_MAX && i < c->nfrom; i++)
			c->rep->reach_pairs +=
				c->comp[c->from[i]] == c->comp[o->node];
	}
}

/*
 * The channel dependency graph is built by the walks of reach(), every
 * switch a source: a packet for a LID on the channel x -> y waits for the
 * channel y forwards it on. Here CAs add theirs: they send every LID into
 * their leaf.
 */
static void ca_dependencies(struct checker *c)
{
	const struct fors_topology *t = c->t;
	uint32_t x, k, k2;

	for (x = 0; x < t->nnodes; x++) {
		const struct fors_node *n = &t->nodes[x];

		for (k = 1; c->table[x] >= 0 && k <= n->nports; k++) {
			uint32_t ca = n->ports[k].peer, in;

			if (ca == FORS_NO_PEER || t->nodes[ca].type != FORS_CA)
				continue;
			in = c->g.pbase[ca] + n->ports[k].peer_port;
			for (k2 = 1; k2 <= n->nports; k2++)
				if (k2 != k && c->outs[c->g.pbase[x] + k2])
					add_dep(c, in, k2);
		}
	}
}

static int set_owner(struct checker *c, uint32_t lid, uint32_t node,
		     uint32_t port, int32_t host)
{
	struct owner *o = &c->own[lid];

	if (o->node != UINT32_MAX && (o->node != node || o->port != port)) {
		fors_error_set(c->err, "LID %u belongs to both \"%s\" and \"%s\"",
			       lid, desc(c, o->node), desc(c, node));
		return FORS_EINVAL;
	}
	o->node = node;
	o->port = port;
	o->host = host;
	return 0;
}

/*
 * With a schedule, the CA ports it has no host line for (a switch's
 * Aggregation Node, a host outside the exchange) own the LIDs the topology
 * gives them, when the topology gives every host the schedule's LID: a
 * topology without host LIDs says nothing of how the others were numbered.
 */
static int other_cas(struct checker *c, uint32_t lmc)
{
	const struct fors_topology *t = c->t;
	uint32_t i, k, j;
	int r = 0;

	for (i = 0; i < c->s->nhosts; i++) {
		const struct fors_host *x = &c->s->hosts[i];
		uint32_t lid = t->nodes[c->hnode[x->sid]].ports[c->hport[x->sid]].lid;

		if (lid != x->lid)
			return 0;
	}
	for (i = 0; i < t->nnodes && !r; i++) {
		const struct fors_node *n = &t->nodes[i];

		for (k = 1; n->type == FORS_CA && k <= n->nports && !r; k++)
			for (j = 0; n->ports[k].lid && j < (1u << lmc) && !r; j++)
				if (c->own[n->ports[k].lid + j].node == UINT32_MAX)
					r = set_owner(c, n->ports[k].lid + j, i, k, -1);
	}
	return r;
}

/*
 * LIDs up to the largest in a table or owned; lmc gives CA LID counts. A
 * switch without any link is nobody's destination: no subnet manager sees it.
 */
static int owners(struct checker *c, uint32_t lmc, uint32_t topmost)
{
	const struct fors_topology *t = c->t;
	uint32_t i, k, j, lid;
	int r = 0;

	c->nlid = topmost + 1;
	for (i = 0; i < c->d->nsw; i++)
		if (c->d->sw[i].maxlid >= c->nlid)
			c->nlid = c->d->sw[i].maxlid + 1;
	c->own = malloc(sizeof(*c->own) * c->nlid);
	if (!c->own)
		return FORS_ENOMEM;
	for (lid = 0; lid < c->nlid; lid++)
		c->own[lid] = (struct owner){ UINT32_MAX, 0, -1 };
	for (i = 0; i < t->nnodes && !r; i++) {
		const struct fors_node *n = &t->nodes[i];

		if (c->table[i] >= 0 && linked(n)) {
			lid = c->d->sw[c->table[i]].lid ? c->d->sw[c->table[i]].lid :
			      n->lid;
			if (lid && lid < c->nlid)
				r = set_owner(c, lid, i, 0, -1);
		}
		for (k = 1; !c->s && n->type == FORS_CA && k <= n->nports && !r; k++)
			for (j = 0; n->ports[k].lid && j < (1u << lmc) && !r; j++)
				r = set_owner(c, n->ports[k].lid + j, i, k, -1);
	}
	for (i = 0; c->s && i < c->s->nhosts && !r; i++) {
		const struct fors_host *x = &c->s->hosts[i];

		for (j = 0; j < (1u << lmc) && !r; j++)
			r = set_owner(c, x->lid + j, c->hnode[x->sid],
				      c->hport[x->sid], (int32_t)x->sid);
	}
	return r || !c->s ? r : other_cas(c, lmc);
}

/*
 * With a schedule, the leaves are the switches its hosts hang on: a spine
 * with a host of its own (storage, management) stays a spine.
 */
static int host_leaves(struct checker *c)
{
	const struct fors_topology *t = c->t;
	uint32_t i;

	memset(c->leaf, 0, t->nnodes);
	for (i = 0; i < c->s->nhosts; i++) {
		uint32_t sid = c->s->hosts[i].sid;
		const struct fors_port *p = &t->nodes[c->hnode[sid]].ports[c->hport[sid]];

		if (p->peer != FORS_NO_PEER)
			c->leaf[p->peer] = 1;
	}
	return 0;
}

/*
 * The connected components of the topology: a switch cut off from a LID's
 * owner is in another subnet, which no subnet manager routes into.
 */
static void components(struct checker *c)
{
	const struct fors_topology *t = c->t;
	uint32_t *stack = c->path, i, k, x, n;

	for (i = 0; i < t->nnodes; i++)
		c->comp[i] = UINT32_MAX;
	for (i = 0; i < t->nnodes; i++) {
		if (c->comp[i] != UINT32_MAX)
			continue;
		c->comp[i] = i;
		stack[0] = i;
		for (n = 1; n;) {
			x = stack[--n];
			for (k = 1; k <= t->nodes[x].nports; k++) {
				uint32_t y = t->nodes[x].ports[k].peer;

				if (y != FORS_NO_PEER && c->comp[y] == UINT32_MAX) {
					c->comp[y] = i;
					stack[n++] = y;
				}
			}
		}
	}
}

static int setup(struct checker *c)
{
	const struct fors_topology *t = c->t;
	uint32_t i, k, n = 0, hosts = c->s ? c->s->m0 * c->s->m1 : 0;
	int r;

	c->leaf = calloc(t->nnodes, 1);
	c->hnode = malloc(sizeof(uint32_t) * (hosts + 1));
	c->hport = malloc(sizeof(uint32_t) * (hosts + 1));
	if (fors_walk_init(&c->w, t, c->d) || fors_deps_init(&c->g, t) ||
	    !c->leaf || !c->hnode || !c->hport)
		return FORS_ENOMEM;
	c->table = c->w.table;
	for (i = 0; i < hosts; i++)
		c->hnode[i] = UINT32_MAX;
	for (i = 0; i < t->nnodes; i++) {
		const struct fors_node *x = &t->nodes[i];

		for (k = 1; x->type == FORS_SWITCH && k <= x->nports; k++)
			if (x->ports[k].peer != FORS_NO_PEER &&
			    t->nodes[x->ports[k].peer].type == FORS_CA &&
			    fors_topology_part_of(t, x->ports[k].peer) == FORS_NO_PEER)
				c->leaf[i] = 1;
	}
	n = c->g.nchan;
	c->outs = calloc(n + 1, 1);
	c->seen = calloc(t->nnodes + 1, sizeof(uint32_t));
	c->verdict = calloc(t->nnodes + 1, 1);
	c->from = malloc(sizeof(uint32_t) * (t->nnodes + 1));
	c->kout = malloc(sizeof(uint32_t) * (t->nnodes + 1));
	c->path = malloc(sizeof(uint32_t) * (t->nnodes + 1));
	c->comp = malloc(sizeof(uint32_t) * (t->nnodes + 1));
	if (!c->outs || !c->seen ||
	    !c->verdict || !c->from || !c->kout || !c->path || !c->comp)
		return FORS_ENOMEM;
	components(c);
	for (i = 0; i < t->nnodes; i++)
		if (c->table[i] >= 0 && linked(&t->nodes[i]))
			c->from[c->nfrom++] = i;
	if (!c->s)
		return 0;
	r = map_hosts(c);
	return r ? r : host_leaves(c);
}

/* The schedule's own rules, checked while its transfers are followed. */
struct fors_rules {
	const struct fors_schedule *s;
	struct fors_thread *th;	/* checking them, NULL once joined */
	struct fors_error err;
	int r;
};

static void *check_rules(void *arg)
{
	struct fors_rules *j = arg;

	j->r = fors_schedule_verify(j->s, &j->err);
	return NULL;
}

int fors_rules_start(const struct fors_schedule *s, struct fors_rules **out)
{
	struct fors_rules *j = calloc(1, sizeof(*j));

	*out = NULL;
	if (!j)
		return FORS_ENOMEM;
	j->s = s;
	if (fors_thread_start(check_rules, j, &j->th)) {
		free(j);
		return FORS_ENOMEM;
	}
	*out = j;
	return 0;
}

void fors_rules_free(struct fors_rules *j)
{
	if (!j)
		return;
	fors_thread_join(j->th);
	free(j);
}

/* Every transfer of c's schedule followed (verify/follow.c) into rep. */
static int follow_all(struct checker *c, struct fors_check_report *rep)
{
	const struct fors_follow_in in = { c->s, &c->w, &c->g, c->d, c->hnode,
					   c->hport, c->leaf };

	return fors_follow(&in, rep);
}

/*
 * The schedule's rules on a thread of their own, or begun already (the
 * job's, where they are this schedule's), every transfer followed
 * meanwhile unless the job follows them later; messages in that order.
 */
static int follow(struct checker *c, const struct fors_check_job *job)
{
	struct fors_rules *early = job ? job->rules : NULL;
	struct fors_rules own = { .s = c->s };
	struct fors_rules *j = early && early->s == c->s ? early : &own;
	struct fors_check_report fr = { 0 };
	int r = 0;

	if (j == &own && fors_thread_start(check_rules, &own, &own.th))
		check_rules(&own);
	if (!job || !job->follow_later)
		r = follow_all(c, &fr);
	fors_thread_join(j->th);
	j->th = NULL;
	if (j->r) {
		c->rep->schedule = 1;
		keep(c, "%s", j->err.msg);
	}
	fors_follow_add(c->rep, &fr);
	return r;
}

static int usable(struct checker *c)
{
	const struct fors_schedule *s = c->s;
	size_t i;

	if (s->lmc < 0 || s->nhosts == 0) {
		fors_error_set(c->err, "the schedule is abstract (no hosts, no DLIDs): route it first");
		return FORS_EINVAL;
	}
	for (i = 0; i < s->nxfers; i++) {
		if (s->xfers[i].dlid != FORS_NO_DLID)
			continue;
		fors_error_set(c->err, "transfer %u -> %u has no DLID",
			       s->xfers[i].src, s->xfers[i].dst);
		return FORS_EINVAL;
	}
	return 0;
}

static void release(struct checker *c)
{
	fors_walk_free(&c->w);
	free(c->leaf);
	fors_deps_free(&c->g);
	free(c->hnode);
	free(c->hport);
	free(c->from);
	free(c->seen);
	free(c->verdict);
	free(c->own);
	free(c->outs);
	free(c->kout);
	free(c->path);
	free(c->comp);
}

/* The base LID of every CA port that owns LIDs: mFtree, from the tables. */
static int mftree(struct checker *c)
{
	struct fors_port_lid *p = malloc(sizeof(*p) * (c->nlid + 1));
	struct fors_mftree m;
	uint32_t lid;
	size_t n = 0;
	int r;

	if (!p)
		return FORS_ENOMEM;
	for (lid = 1; lid < c->nlid; lid++) {
		const struct owner *o = &c->own[lid], *b = &c->own[lid - 1];

		if (o->node != UINT32_MAX && o->port &&
		    (b->node != o->node || b->port != o->port))
			p[n++] = (struct fors_port_lid){ o->node, o->port, lid };
	}
	r = fors_mftree_count(&c->w, c->leaf, p, n, &m);
	free(p);
	c->rep->mf_pairs = m.pairs;
	c->rep->mf_shared = m.shared;
	return r;
}

/* The fabric as the bound sees it: leaves with hosts, other switches. */
static int bound_fabric(struct checker *c, uint32_t *idx, uint32_t *nl,
			uint32_t *ns, uint32_t **hosts, uint32_t **cables)
{
	const struct fors_topology *t = c->t;
	uint32_t i, k, *sp = idx + t->nnodes;

	*nl = *ns = 0;
	for (i = 0; i < t->nnodes; i++) {
		idx[i] = c->leaf[i] ? (*nl)++ : UINT32_MAX;
		sp[i] = t->nodes[i].type == FORS_SWITCH && !c->leaf[i] ?
			(*ns)++ : UINT32_MAX;
	}
	*hosts = calloc(*nl + 1, sizeof(uint32_t));
	*cables = calloc((size_t)*nl * *ns + 1, sizeof(uint32_t));
	if (!*hosts || !*cables)
		return FORS_ENOMEM;
	for (i = 0; i < c->s->nhosts; i++) {
		uint32_t sid = c->s->hosts[i].sid;
		uint32_t p = t->nodes[c->hnode[sid]].ports[c->hport[sid]].peer;

		if (p != FORS_NO_PEER)	/* unplugged: in no leaf's count */
			(*hosts)[idx[p]]++;
	}
	for (i = 0; i < t->nnodes; i++)
		for (k = 1; idx[i] != UINT32_MAX && k <= t->nodes[i].nports; k++) {
			uint32_t p = t->nodes[i].ports[k].peer;

			if (p != FORS_NO_PEER && sp[p] != UINT32_MAX)
				(*cables)[(size_t)idx[i] * *ns + sp[p]]++;
		}
	return 0;
}

/*
 * Guarantee 5 of the schedule file: T* recomputed from the topology, not
 * taken from the file; a `bound` above it is a claim nothing proves, and
 * fewer phases than T* mean the bound or this checker is wrong.
 */
static int bound(struct checker *c)
{
	struct fors_bound_fabric bf = { 0 };
	uint32_t *idx = malloc(sizeof(uint32_t) * (2 * (size_t)c->t->nnodes + 1));
	uint32_t *hosts = NULL, *cables = NULL;
	struct fors_bound b = { 0 };
	struct fors_error e2;
	int r = idx ? bound_fabric(c, idx, &bf.nleaves, &bf.nspines, &hosts,
				  &cables) : FORS_ENOMEM;

	bf.hosts = hosts;
	bf.cables = cables;
	if (!r)
		r = fors_bound_compute(&bf, &b, &e2);
	if (r == FORS_EINVAL) {
		keep(c, "bound: %s", e2.msg);
		r = 0;
	}
	c->rep->bound = b.t;
	c->rep->bound_wrong = c->rep->bound_file > (int64_t)b.t ||
			      c->s->nphases < b.t;
	if (c->rep->bound_wrong)
		keep(c, "bound: the file claims %lld and has %u phases; the cables give %u",
		     (long long)c->rep->bound_file, c->s->nphases, b.t);
	free(idx);
	free(hosts);
	free(cables);
	return r;
}


/* Reachability and credit loops: what any set of tables must give. */
static int tables(struct checker *c)
{
	int r;

	if (mftree(c))
		return FORS_ENOMEM;
	reach(c);
	ca_dependencies(c);
	r = fors_deps_cycle(&c->g, c->table, c->rep->cycle,
			    sizeof(c->rep->cycle));
	if (r < 0)
		return r;
	c->rep->loop = (uint32_t)r;
	c->rep->deps = c->g.n;
	return 0;
}

static int verdict(struct checker *c, int r)
{
	struct fors_check_report *rep = c->rep;

	if (r == FORS_ENOMEM)
		fors_error_set(c->err, "out of memory while checking routes");
	release(c);
	if (r)
		return r;
	if (rep->max_load == 0 && rep->transfers)
		rep->max_load = 1;
	return rep->shared || rep->undelivered || rep->not_updown ||
	       rep->unreachable || rep->schedule || rep->loop ||
	       rep->bound_wrong ?
	       FORS_EVERIFY : FORS_OK;
}

/* The largest of top and every CA LID of t with its 2^lmc offsets. */
static uint32_t ca_top(const struct fors_topology *t, uint32_t lmc,
		       uint32_t top)
{
	uint32_t i, k;

	for (i = 0; i < t->nnodes; i++)
		for (k = 1; t->nodes[i].type == FORS_CA && k <= t->nodes[i].nports; k++)
			if (t->nodes[i].ports[k].lid + (1u << lmc) - 1 > top)
				top = t->nodes[i].ports[k].lid + (1u << lmc) - 1;
	return top;
}

/* job on a thread of its own, or here when none starts; NULL: none. */
static struct fors_thread *start_job(const struct fors_check_job *job)
{
	struct fors_thread *th = NULL;

	if (job && job->run && fors_thread_start(job->run, job->arg, &th))
		job->run(job->arg);
	return th;
}

int fors_check_routes(const struct fors_topology *t,
		      const struct fors_lft_dump *d,
		      const struct fors_schedule *s,
		      struct fors_check_report *rep, struct fors_error *err)
{
	return fors_check_routes_beside(t, d, s, rep, err, NULL);
}

int fors_check_routes_beside(const struct fors_topology *t,
			     const struct fors_lft_dump *d,
			     const struct fors_schedule *s,
			     struct fors_check_report *rep,
			     struct fors_error *err,
			     const struct fors_check_job *job)
{
	struct checker c = { .t = t, .d = d, .s = s, .rep = rep, .err = err };
	struct fors_thread *th;
	uint32_t top = 0;
	size_t i;
	int r;

	memset(rep, 0, sizeof(*rep));
	rep->bound_file = fors_schedule_number(s, "bound");
	if (rep->bound_file == -2) {
		fors_error_set(err, "the fabric line's bound is not a number");
		return FORS_EINVAL;
	}
	r = usable(&c);
	if (!r)
		r = setup(&c);
	if (!r)
		r = follow(&c, job);
	th = r ? NULL : start_job(job);
	for (i = 0; !r && i < s->nhosts; i++)
		if (s->hosts[i].lid + (1u << s->lmc) - 1 > top)
			top = s->hosts[i].lid + (1u << s->lmc) - 1;
	if (!r)
		top = ca_top(t, (uint32_t)s->lmc, top);
	if (!r) {
		rep->phases = s->nphases;
		r = owners(&c, (uint32_t)s->lmc, top);
	}
	if (!r)
		r = tables(&c);
	if (!r)
		r = bound(&c);
	fors_thread_join(th);
	return verdict(&c, r);
}

int fors_check_follow(const struct fors_topology *t,
		      const struct fors_lft_dump *d,
		      const struct fors_schedule *s,
		      struct fors_check_report *rep, struct fors_error *err)
{
	struct checker c = { .t = t, .d = d, .s = s, .rep = rep, .err = err };
	int r;

	memset(rep, 0, sizeof(*rep));
	r = usable(&c);
	if (!r)
		r = setup(&c);
	if (!r)
		r = follow_all(&c, rep);
	return verdict(&c, r);
}

int fors_check_tables(const struct fors_topology *t,
		      const struct fors_lft_dump *d, uint32_t lmc,
		      struct fors_check_report *rep, struct fors_error *err)
{
	struct checker c = { .t = t, .d = d, .rep = rep, .err = err };
	uint32_t top;
	int r;

	memset(rep, 0, sizeof(*rep));
	if (lmc > 7) {
		fors_error_set(err, "LMC %u is out of range 0..7", lmc);
		return FORS_EINVAL;
	}
	top = ca_top(t, lmc, 0);
	if (top > 0xffff) {
		fors_error_set(err, "CA LIDs with LMC %u go beyond LID 0xffff", lmc);
		return FORS_EINVAL;
	}
	r = setup(&c);
	if (!r)
		r = owners(&c, lmc, top);
	if (!r)
		r = tables(&c);
	return verdict(&c, r);
}

static size_t add(char *b, size_t len, size_t n, const char *what,
		  unsigned long count)
{
	if (!count || n >= len)
		return n;
	return n + (size_t)snprintf(b + n, len - n, "%s%lu %s", n ? ", " : "",
				    count, what);
}

void fors_check_failures(const struct fors_check_report *r, char *b,
			 size_t len)
{
	size_t n = 0;

	b[0] = '\0';
	n = add(b, len, n, "shared (phase, link) pairs", r->shared);
	n = add(b, len, n, "undelivered", r->undelivered);
	n = add(b, len, n, "not up/down", r->not_updown);
	n = add(b, len, n, "unreachable (switch, LID) pairs", r->unreachable);
	n = add(b, len, n, "credit loop", r->loop);
	n = add(b, len, n, "schedule rule broken", r->schedule);
	add(b, len, n, "bound not proven by the cables", r->bound_wrong);
}
