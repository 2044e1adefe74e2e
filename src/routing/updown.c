// SPDX-License-Identifier: MIT
/*
 * Up-down routing (Schroeder et al., Autonet, 1991) over an order chosen
 * so that FORS's leaf-spine-leaf data paths are legal as they are: leaves
 * ranked breadth-first from the leaf cabled to the most spines, each spine
 * placed just below its home, the highest-ranked leaf it is cabled to. Only
 * management routes are chosen here; the argument is in doc/routing.md.
 */
#include <stdlib.h>
#include <string.h>

#include "routing/updown.h"

#define INF UINT32_MAX

/* Whether switch v's port k is a cable the hold-down keeps. */
static int held_port(const struct fors_updown *u, uint32_t v, uint32_t k)
{
	return u->t->nodes[u->lf->sw[v]].ports[k].held;
}

/* Whether switch v's i-th adjacency is a cable the hold-down keeps. */
static int held(const struct fors_updown *u, uint32_t v, uint32_t i)
{
	return held_port(u, v, u->adj_port[i]);
}

/* Spines leaf v has cables to that are not held, each counted once. */
static uint32_t spines_of(struct fors_updown *u, uint32_t v, uint32_t stamp)
{
	uint32_t i, n = 0;

	for (i = u->adj_off[v]; i < u->adj_off[v + 1]; i++) {
		uint32_t w = u->adj_sw[i];

		if (w >= u->nleaf && u->dd[w] != stamp && !held(u, v, i)) {
			u->dd[w] = stamp;
			n++;
		}
	}
	return n;
}

/* The unranked leaf with the most spines (spines_of), lowest index on ties. */
static uint32_t next_root(struct fors_updown *u, const uint32_t *rank)
{
	uint32_t v, best = INF, most = 0;

	for (v = 0; v < u->nleaf; v++) {
		uint32_t n;

		if (rank[v] != INF)
			continue;
		n = spines_of(u, v, v + 1);
		if (best == INF || n > most) {
			best = v;
			most = n;
		}
	}
	return best;
}

/*
 * Breadth-first over leaves (leaf-spine-leaf) by the cables the hold-down
 * does not keep, which alone carry data; one root per component of those.
 */
static void rank_leaves(struct fors_updown *u, uint32_t *rank, uint32_t *queue)
{
	uint32_t v, head = 0, tail = 0, next = 0, root;

	for (v = 0; v < u->lf->nsw; v++) {
		rank[v] = INF;
		u->dd[v] = 0;
	}
	while ((root = next_root(u, rank)) != INF) {
		rank[root] = next++;
		queue[tail++] = root;
		while (head < tail) {
			uint32_t x = queue[head++], i, j;

			for (i = u->adj_off[x]; i < u->adj_off[x + 1]; i++) {
				uint32_t s = u->adj_sw[i];

				for (j = u->adj_off[s]; s >= u->nleaf &&
				     !held(u, x, i) && j < u->adj_off[s + 1]; j++) {
					uint32_t y = u->adj_sw[j];

					if (y < u->nleaf && rank[y] == INF &&
					    !held(u, s, j)) {
						rank[y] = next++;
						queue[tail++] = y;
					}
				}
			}
		}
	}
}

/*
 * Each spine's home: the highest-ranked leaf it has a cable to that the
 * hold-down does not keep from data, else the highest-ranked at all. A
 * detour's data go up to the home (routing/lft.c), and the data paths
 * stay legal: a leaf above the home reaches the spine only by a held
 * cable, which carries no data.
 */
static void homes(struct fors_updown *u, const uint32_t *rank)
{
	uint32_t s, i, pass;

	for (s = 0; s < u->lf->nsw; s++) {
		u->home[s] = INF;
		u->home_port[s] = FORS_NO_PORT;
		for (pass = 0; s >= u->nleaf && pass < 2 && u->home[s] == INF;
		     pass++)
			for (i = u->adj_off[s]; i < u->adj_off[s + 1]; i++) {
				uint32_t l = u->adj_sw[i];

				if (l >= u->nleaf || (!pass && held(u, s, i)))
					continue;
				if (u->home[s] == INF ||
				    rank[l] < rank[u->home[s]]) {
					u->home[s] = l;
					u->home_port[s] = u->adj_port[i];
				}
			}
	}
}

/* Leaves by rank, each followed by the spines at home there. */
static void place(struct fors_updown *u, const uint32_t *rank,
		  uint32_t *by_rank)
{
	uint32_t n = u->lf->nsw, v, r, s, k = 0;

	for (v = 0; v < u->nleaf; v++)
		by_rank[rank[v]] = v;
	for (r = 0; r < u->nleaf; r++) {
		u->order[k++] = by_rank[r];
		for (s = u->nleaf; s < n; s++)
			if (u->home[s] == by_rank[r])
				u->order[k++] = s;
	}
	for (s = u->nleaf; s < n; s++)
		if (u->home[s] == INF)
			u->order[k++] = s;
	for (k = 0; k < n; k++)
		u->pos[u->order[k]] = k;
}

static int adjacency(struct fors_updown *u)
{
	const struct fors_lfts *lf = u->lf;
	uint32_t v, k, n = 0;

	for (v = 0; v < lf->nsw; v++) {
		const struct fors_node *x = &u->t->nodes[lf->sw[v]];

		u->adj_off[v] = n;
		for (k = 1; k <= x->nports; k++)
			n += x->ports[k].peer != FORS_NO_PEER &&
			     u->swi[x->ports[k].peer] >= 0;
	}
	u->adj_off[lf->nsw] = n;
	u->adj_sw = malloc(sizeof(uint32_t) * (n + 1));
	u->adj_port = malloc(sizeof(uint32_t) * (n + 1));
	if (!u->adj_sw || !u->adj_port)
		return FORS_ENOMEM;
	for (v = 0, n = 0; v < lf->nsw; v++) {
		const struct fors_node *x = &u->t->nodes[lf->sw[v]];

		for (k = 1; k <= x->nports; k++) {
			uint32_t pe = x->ports[k].peer;

			if (pe == FORS_NO_PEER || u->swi[pe] < 0)
				continue;
			u->adj_sw[n] = (uint32_t)u->swi[pe];
			u->adj_port[n++] = k;
		}
	}
	return 0;
}

int fors_updown_build(struct fors_updown *u, const struct fors_topology *t,
		      const struct fors_lfts *lf, const int32_t *swi,
		      uint32_t nleaf, struct fors_error *err)
{
	size_t n = (size_t)lf->nsw + 1;
	uint32_t *rank, *queue;
	int r;

	memset(u, 0, sizeof(*u));
	u->t = t;
	u->lf = lf;
	u->swi = swi;
	u->nleaf = nleaf;
	u->order = malloc(sizeof(uint32_t) * n);
	u->pos = malloc(sizeof(uint32_t) * n);
	u->home = malloc(sizeof(uint32_t) * n);
	u->home_port = malloc(sizeof(uint32_t) * n);
	u->adj_off = malloc(sizeof(uint32_t) * n);
	u->dd = malloc(sizeof(uint32_t) * n);
	u->d = malloc(sizeof(uint32_t) * n);
	u->dk = malloc(sizeof(uint32_t) * n);
	rank = malloc(sizeof(uint32_t) * n);
	queue = malloc(sizeof(uint32_t) * n);
	r = u->order && u->pos && u->home && u->home_port && u->adj_off &&
	    u->dd && u->d && u->dk && rank && queue ? adjacency(u) : FORS_ENOMEM;
	if (!r) {
		rank_leaves(u, rank, queue);
		homes(u, rank);
		place(u, rank, queue);
	}
	free(rank);
	free(queue);
	if (r) {
		fors_updown_free(u);
		fors_error_set(err, "out of memory while ordering the switches");
	}
	return r;
}

void fors_updown_free(struct fors_updown *u)
{
	free(u->order);
	free(u->pos);
	free(u->home);
	free(u->home_port);
	free(u->adj_off);
	free(u->adj_sw);
	free(u->adj_port);
	free(u->dd);
	free(u->d);
	free(u->dk);
	memset(u, 0, sizeof(*u));
}

static uint8_t *entry(struct fors_lfts *lf, uint32_t v, uint32_t lid)
{
	return &lf->port[(size_t)v * (lf->maxlid + 1) + lid];
}

/* The switch behind port k of switch v, or INF. */
static uint32_t peer_sw(const struct fors_updown *u, uint32_t v, uint32_t k)
{
	const struct fors_node *x = &u->t->nodes[u->lf->sw[v]];

	if (k == 0 || k > x->nports || x->ports[k].peer == FORS_NO_PEER ||
	    u->swi[x->ports[k].peer] < 0)
		return INF;
	return (uint32_t)u->swi[x->ports[k].peer];
}

/*
 * What a hop out of switch v's port k costs: 1, or FORS_HELD_HOP over a
 * cable the hold-down keeps, so that a route takes one only where
 * no legal route of fewer hops avoids it (the data of a detour then
 * never does: routing/detour.c).
 */
static uint32_t hop_port(const struct fors_updown *u, uint32_t v, uint32_t k)
{
	return held_port(u, v, k) ? FORS_HELD_HOP : 1;
}

/* The cost of the hop over switch v's i-th adjacency (hop_port). */
static uint32_t hop(const struct fors_updown *u, uint32_t v, uint32_t i)
{
	return hop_port(u, v, u->adj_port[i]);
}

/*
 * Lowest first: dd[v], the cost of v's route when it only goes down,
 * INF when it cannot. A free switch with such a route must take it, since
 * a packet that came down to it may not go up again.
 */
static void down_pass(struct fors_updown *u, struct fors_lfts *lf,
		      uint32_t lid, const uint8_t *pinned, uint32_t target)
{
	uint32_t i, j;

	for (i = lf->nsw; i-- > 0;) {
		uint32_t v = u->order[i], w, k;

		u->dd[v] = INF;
		if (v == target) {
			u->dd[v] = 0;
		} else if (pinned[v]) {
			k = *entry(lf, v, lid);
			w = peer_sw(u, v, k);
			if (w != INF && u->pos[w] > u->pos[v] && u->dd[w] != INF)
				u->dd[v] = u->dd[w] + hop_port(u, v, k);
		} else {
			for (j = u->adj_off[v]; j < u->adj_off[v + 1]; j++) {
				w = u->adj_sw[j];
				if (u->pos[w] > u->pos[v] && u->dd[w] != INF &&
				    u->dd[w] + hop(u, v, j) < u->dd[v]) {
					u->dd[v] = u->dd[w] + hop(u, v, j);
					u->dk[v] = u->adj_port[j];
				}
			}
		}
	}
}

uint32_t fors_updown_complete(struct fors_updown *u, struct fors_lfts *lf,
			      uint32_t lid, const uint8_t *pinned,
			      uint32_t target)
{
	uint32_t i, j, lost = 0;

	down_pass(u, lf, lid, pinned, target);
	for (i = 0; i < lf->nsw; i++) {
		uint32_t v = u->order[i], w, best = INF, k = FORS_NO_PORT;

		if (v == target || u->dd[v] != INF) {
			u->d[v] = u->dd[v];
			if (v != target && !pinned[v])
				*entry(lf, v, lid) = (uint8_t)u->dk[v];
			continue;
		}
		if (pinned[v]) {
			k = *entry(lf, v, lid);
			w = peer_sw(u, v, k);
			u->d[v] = w != INF && u->pos[w] < u->pos[v] &&
				  u->d[w] != INF ?
				  u->d[w] + hop_port(u, v, k) : INF;
			continue;
		}
		for (j = u->adj_off[v]; j < u->adj_off[v + 1]; j++) {
			w = u->adj_sw[j];
			if (u->pos[w] < u->pos[v] && u->d[w] != INF &&
			    u->d[w] + hop(u, v, j) < best) {
				best = u->d[w] + hop(u, v, j);
				k = u->adj_port[j];
			}
		}
		u->d[v] = best;
		*entry(lf, v, lid) = (uint8_t)k;
		lost += best == INF;
	}
	return lost;
}
