// SPDX-License-Identifier: MIT
/*
 * The union of the tables before and after a reroute. If its channel
 * dependency graph has no cycle, no order in which the switches take
 * their new entries can make a credit loop, nor a forwarding loop (a
 * packet sent round a circle waits on its own buffers too).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verify/deps.h"
#include "verify/transition.h"
#include "verify/walk.h"

struct uni {
	struct fors_union *m;
	const struct fors_topology *t;
	struct fors_union_report *rep;
	uint8_t *colour;	/* per node: the circle search's marks */
	uint32_t *stack;	/* [nnodes]: its path */
};

/* The ports switch index s may send lid out of, as fors_union_ports. */
static inline uint32_t sw_ports(const struct fors_union *u, uint32_t s,
				uint32_t lid, uint32_t *out)
{
	const uint8_t *m = &u->cabled[(size_t)s * 256];
	uint32_t a = lid <= u->top[2 * s] ? m[u->row[2 * s][lid]] : 0;
	uint32_t b = lid <= u->top[2 * s + 1] ? m[u->row[2 * s + 1][lid]] : 0;

	out[0] = a ? a : b;
	out[1] = b;
	return a && b && a != b ? 2 : a || b;
}

uint32_t fors_union_ports(const struct fors_union *u, uint32_t x,
			  uint32_t lid, uint32_t *out)
{
	return u->table[x] < 0 ? 0 : sw_ports(u, (uint32_t)u->table[x], lid,
					       out);
}

/*
 * Every switch-to-switch dependency lid can make; the ports it leaves each
 * switch by are marked in u->used for ca_deps. Each switch's ports for lid
 * are looked up once, not once per neighbour sending it there.
 */
static void lid_deps(struct fors_union *u, uint32_t lid)
{
	uint32_t s, i, j, w = u->g.width, *pp = u->ports;

	for (s = 0; s < u->nsw; s++)
		u->nports[s] = (uint8_t)sw_ports(u, s, lid, &pp[2 * s]);
	for (s = 0; s < u->nsw; s++) {
		uint32_t x = u->sw[s];

		for (i = 0; i < u->nports[s]; i++) {
			uint32_t k = pp[2 * s + i];
			int32_t v = u->beyond[(size_t)s * w + k];

			u->used[(size_t)x * w + k] = 1;
			/* a CA, or a switch neither table set has */
			if (v < 0)
				continue;
			for (j = 0; j < u->nports[v]; j++)
				fors_deps_add(&u->g, u->g.pbase[x] + k,
					      pp[2 * (uint32_t)v + j]);
		}
	}
}

/*
 * A CA sends every LID into its leaf: its channel feeds every port the
 * leaf sends some LID out of, but the CA's own.
 */
static void ca_deps(struct fors_union *u)
{
	const struct fors_topology *t = u->t;
	uint32_t s, i, k;

	for (s = 0; s < u->nsw; s++) {
		uint32_t x = u->sw[s];
		const struct fors_node *n = &t->nodes[x];
		const uint8_t *used = &u->used[(size_t)x * u->g.width];

		for (i = 1; i <= n->nports; i++) {
			uint32_t ca = n->ports[i].peer;

			if (ca == FORS_NO_PEER || t->nodes[ca].type != FORS_CA)
				continue;
			for (k = 1; k <= n->nports; k++)
				if (used[k] && k != i)
					fors_deps_add(&u->g, u->g.pbase[ca] +
						      n->ports[i].peer_port, k);
		}
	}
}

/* "LID l: "A" -> "B" -> "A"": the circle on the stack from position from. */
static void say_circle(struct uni *u, uint32_t lid, uint32_t from,
		       uint32_t to)
{
	char *b = u->rep->fwd;
	size_t len = sizeof(u->rep->fwd), n;
	uint32_t i;

	n = (size_t)snprintf(b, len, "LID %u: ", lid);
	for (i = from; i < to && n < len; i++)
		n += (size_t)snprintf(b + n, len - n, "\"%s\" -> ",
				      u->t->nodes[u->stack[i]].desc);
	if (n < len)
		snprintf(b + n, len - n, "\"%s\"",
			 u->t->nodes[u->stack[from]].desc);
}

/* Depth-first from switch x over lid's entries; 1 on a circle. */
static int circle_from(struct uni *u, uint32_t x, uint32_t lid, uint32_t sp)
{
	uint32_t p[2], n = fors_union_ports(u->m, x, lid, p), i;

	u->colour[x] = 1;
	u->stack[sp] = x;
	for (i = 0; i < n; i++) {
		uint32_t y = u->t->nodes[x].ports[p[i]].peer;

		if (u->m->table[y] < 0 || u->colour[y] == 2)
			continue;
		if (u->colour[y] == 1) {
			uint32_t from = 0;

			while (u->stack[from] != y)
				from++;
			if (!u->rep->fwd_lids)
				say_circle(u, lid, from, sp + 1);
			return 1;
		}
		if (circle_from(u, y, lid, sp + 1))
			return 1;
	}
	u->colour[x] = 2;
	return 0;
}

/* Whether a mix of entries can send lid round a circle of switches. */
static int circle(struct uni *u, uint32_t lid)
{
	uint32_t s;

	for (s = 0; s < u->m->nsw; s++)
		u->colour[u->m->sw[s]] = 0;
	for (s = 0; s < u->m->nsw; s++)
		if (!u->colour[u->m->sw[s]] &&
		    circle_from(u, u->m->sw[s], lid, 0))
			return 1;
	return 0;
}

/* Switch index s's rows, cabled ports and the switches past them. */
static void lay_switch(struct fors_union *u, uint32_t s)
{
	const struct fors_node *n = &u->t->nodes[u->sw[s]];
	const struct fors_walk *w[2] = { &u->wo, &u->wn };
	uint32_t i, k;

	for (i = 0; i < 2; i++) {
		int32_t d = w[i]->table[u->sw[s]];

		/* no table: no LID is at most 0, the row is never read */
		u->row[2 * s + i] = d < 0 ? NULL : w[i]->d->sw[d].port;
		u->top[2 * s + i] = d < 0 ? 0 : w[i]->d->sw[d].maxlid;
	}
	for (k = 1; k <= n->nports && k < FORS_NO_PORT; k++) {
		if (n->ports[k].peer == FORS_NO_PEER)
			continue;
		u->cabled[(size_t)s * 256 + k] = (uint8_t)k;
		u->beyond[(size_t)s * u->g.width + k] = u->table[n->ports[k].peer];
	}
}

/* The switches with a table in either set, laid out for lid_deps. */
static int lay_out(struct fors_union *u)
{
	const struct fors_topology *t = u->t;
	uint32_t i, w = u->g.width;

	u->table = malloc(sizeof(int32_t) * (t->nnodes + 1));
	u->sw = malloc(sizeof(uint32_t) * (t->nnodes + 1));
	u->used = calloc((size_t)t->nnodes * w + 1, 1);
	u->ports = malloc(sizeof(uint32_t) * 2 * (t->nnodes + 1));
	u->nports = malloc(t->nnodes + 1);
	if (!u->table || !u->sw || !u->used || !u->ports || !u->nports)
		return FORS_ENOMEM;
	for (i = 0; i < t->nnodes; i++) {
		u->table[i] = -1;
		if (u->wo.table[i] >= 0 || u->wn.table[i] >= 0) {
			u->table[i] = (int32_t)u->nsw;
			u->sw[u->nsw++] = i;
		}
	}
	u->row = malloc(sizeof(*u->row) * 2 * (u->nsw + 1));
	u->top = malloc(sizeof(uint32_t) * 2 * (u->nsw + 1));
	u->cabled = calloc((size_t)u->nsw * 256 + 1, 1);
	u->beyond = malloc(sizeof(int32_t) * ((size_t)u->nsw * w + 1));
	if (!u->row || !u->top || !u->cabled || !u->beyond)
		return FORS_ENOMEM;
	for (i = 0; i < u->nsw * w; i++)
		u->beyond[i] = -1;
	for (i = 0; i < u->nsw; i++)
		lay_switch(u, i);
	return 0;
}

/* One past the last LID of d's tables, at least n. */
static uint32_t lid_end(const struct fors_lft_dump *d, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < d->nsw; i++)
		n = d->sw[i].maxlid + 1 > n ? d->sw[i].maxlid + 1 : n;
	return n;
}

int fors_union_build(struct fors_union *u, const struct fors_topology *t,
		     const struct fors_lft_dump *old,
		     const struct fors_lft_dump *new)
{
	uint32_t i;

	memset(u, 0, sizeof(*u));
	u->t = t;
	if (fors_walk_init(&u->wo, t, old) || fors_walk_init(&u->wn, t, new) ||
	    fors_deps_init(&u->g, t) || lay_out(u))
		return FORS_ENOMEM;
	u->nlid = lid_end(new, lid_end(old, 0));
	for (i = 1; i < u->nlid; i++)
		lid_deps(u, i);
	ca_deps(u);
	return 0;
}

void fors_union_free(struct fors_union *u)
{
	fors_walk_free(&u->wo);
	fors_walk_free(&u->wn);
	fors_deps_free(&u->g);
	free(u->table);
	free(u->sw);
	free(u->row);
	free(u->top);
	free(u->cabled);
	free(u->beyond);
	free(u->used);
	free(u->ports);
	free(u->nports);
	memset(u, 0, sizeof(*u));
}

int fors_check_union(const struct fors_topology *t,
		     const struct fors_lft_dump *old,
		     const struct fors_lft_dump *new,
		     struct fors_union_report *rep, struct fors_error *err)
{
	struct fors_union m;
	struct uni u = { .m = &m, .t = t, .rep = rep };
	uint32_t lid;
	int r;

	memset(rep, 0, sizeof(*rep));
	r = fors_union_build(&m, t, old, new);
	u.colour = malloc(t->nnodes + 1);
	u.stack = malloc(sizeof(uint32_t) * (t->nnodes + 1));
	if (!u.colour || !u.stack)
		r = FORS_ENOMEM;
	if (!r)
		r = fors_deps_cycle(&m.g, m.table, rep->cycle,
				    sizeof(rep->cycle));
	if (r > 0)
		rep->loop = 1;
	/* a circle is a cycle of the graph too: only a loop needs the LIDs */
	for (lid = 1; r > 0 && lid < m.nlid; lid++)
		rep->fwd_lids += (uint32_t)circle(&u, lid);
	rep->deps = m.g.n;
	fors_union_free(&m);
	free(u.colour);
	free(u.stack);
	if (r < 0) {
		fors_error_set(err, "out of memory while checking the union of two table sets");
		return r;
	}
	return rep->loop || rep->fwd_lids ? FORS_EVERIFY : FORS_OK;
}

/* Switch i of both dumps is one switch: by GUID, else by description. */
static int same_switch(const struct fors_lft_switch *a,
		       const struct fors_lft_switch *b)
{
	if (a->guid && b->guid)
		return a->guid == b->guid;
	return a->desc && b->desc && !strcmp(a->desc, b->desc);
}

int fors_union_is_new(const struct fors_lft_dump *old,
		      const struct fors_lft_dump *new)
{
	uint32_t i, lid;

	if (old->nsw != new->nsw)
		return 0;
	for (i = 0; i < old->nsw; i++) {
		const struct fors_lft_switch *a = &old->sw[i], *b = &new->sw[i];

		if (!same_switch(a, b))
			return 0;
		for (lid = 0; lid <= a->maxlid; lid++)
			if (a->port[lid] != FORS_NO_PORT &&
			    (lid > b->maxlid || a->port[lid] != b->port[lid]))
				return 0;
	}
	return 1;
}
