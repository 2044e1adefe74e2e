// SPDX-License-Identifier: MIT
/*
 * Fabric recognition and failure analysis. Leaves are switches with host
 * ports, spines are switches linked only to leaves. The expected fabric
 * (reference, or the live one) fixes the numbering: leaves and spines by
 * node GUID, host slots by leaf port, planes by spine and cable rank. A
 * failure never renumbers anything; it only kills cables.
 */
#include <stdlib.h>
#include <string.h>

#include "fabric/fabric.h"

enum { ROLE_NONE = -1 };

struct analysis {
	const struct fors_topology *e;	/* expected fabric */
	const struct fors_topology *l;	/* live fabric */
	struct fors_fabric *fb;
	uint32_t *eleaf;		/* [m1]: expected node of each leaf */
	uint32_t *espine;		/* [nspines] */
	int32_t *leaf_of;		/* per expected node: leaf index */
	int32_t *spine_of;		/* per expected node: spine index */
	struct fors_error *err;
};

static const char *name(const struct fors_node *n)
{
	return n->desc;
}

static int refuse2(struct analysis *a, const struct fors_node *x,
		   const struct fors_node *y, const char *what)
{
	fors_error_set(a->err, "\"%s\" (%s) and \"%s\" (%s): %s", name(x),
		       x->id, name(y), y->id, what);
	return FORS_EINVAL;
}

/* A CA that is not part of a switch: one that takes part in the exchange. */
static int is_host(const struct fors_topology *t, uint32_t x)
{
	return x != FORS_NO_PEER && t->nodes[x].type == FORS_CA &&
	       fors_topology_part_of(t, x) == FORS_NO_PEER;
}

static int has_ca(const struct fors_topology *t, const struct fors_node *n)
{
	uint32_t k;

	for (k = 1; k <= n->nports; k++)
		if (is_host(t, n->ports[k].peer))
			return 1;
	return 0;
}

static uint32_t host_ports(const struct fors_topology *t, uint32_t x)
{
	const struct fors_node *n = &t->nodes[x];
	uint32_t k, c = 0;

	for (k = 1; k <= n->nports; k++)
		c += is_host(t, n->ports[k].peer);
	return c;
}

static int cmp_node(const struct fors_node *x, const struct fors_node *y)
{
	if (x->guid && y->guid && x->guid != y->guid)
		return x->guid < y->guid ? -1 : 1;
	return strcmp(x->id, y->id);
}

/* Insertion into an ordered index list: fabrics have hundreds of nodes. */
static void insert_sorted(const struct fors_topology *t, uint32_t *v,
			  uint32_t n, uint32_t x)
{
	while (n > 0 && cmp_node(&t->nodes[v[n - 1]], &t->nodes[x]) > 0) {
		v[n] = v[n - 1];
		n--;
	}
	v[n] = x;
}

/* Every link must be CA-leaf or leaf-spine. */
static int check_links(struct analysis *a)
{
	const struct fors_topology *e = a->e;
	uint32_t i, k;

	for (i = 0; i < e->nnodes; i++) {
		const struct fors_node *x = &e->nodes[i];

		for (k = 1; k <= x->nports; k++) {
			uint32_t j = x->ports[k].peer;
			const struct fors_node *y;

			if (j == FORS_NO_PEER || j < i)
				continue;
			y = &e->nodes[j];
			if (x->type == FORS_CA && y->type == FORS_CA)
				return refuse2(a, x, y, "two hosts linked without a switch");
			if (x->type == FORS_CA || y->type == FORS_CA)
				continue;
			if (a->leaf_of[i] >= 0 && a->leaf_of[j] >= 0)
				return refuse2(a, x, y, "two switches with hosts are linked, and no split into leaves and spines explains it (a link between leaves, or as many hosts on spines as on leaves); not a two-level fat tree");
			if (a->spine_of[i] >= 0 && a->spine_of[j] >= 0)
				return refuse2(a, x, y, "two switches without hosts are linked: a third level, or a leaf without any host present; not a two-level fat tree");
		}
	}
	return 0;
}

/*
 * At least two leaves and a spine; links is what check_links found of the
 * classification (0, or its refusal), which a missing spine explains less.
 */
static int counts(struct analysis *a, int links)
{
	uint32_t nl = a->fb->m1, ns = a->fb->nspines;

	if (nl < 2) {
		fors_error_set(a->err, "found %u switch%s with hosts: a two-level fat tree needs at least 2 leaves",
			       nl, nl == 1 ? "" : "es");
		return FORS_EINVAL;
	}
	if (ns == 0 && !links) {
		fors_error_set(a->err, "found no spine switches (switches without hosts)");
		return FORS_EINVAL;
	}
	return links;
}

/* Leaves and spines numbered from side[] (1: leaves), in node order. */
static void number(struct analysis *a, const int8_t *side)
{
	const struct fors_topology *e = a->e;
	uint32_t i, nl = 0, ns = 0;

	for (i = 0; i < e->nnodes; i++) {
		a->leaf_of[i] = a->spine_of[i] = ROLE_NONE;
		if (e->nodes[i].type != FORS_SWITCH)
			continue;
		if (side[i] == 1)
			insert_sorted(e, a->eleaf, nl++, i);
		else
			insert_sorted(e, a->espine, ns++, i);
	}
	for (i = 0; i < nl; i++)
		a->leaf_of[a->eleaf[i]] = (int32_t)i;
	for (i = 0; i < ns; i++)
		a->spine_of[a->espine[i]] = (int32_t)i;
	a->fb->m1 = nl;
	a->fb->nspines = ns;
}

/*
 * One connected part of the switches from x, two-coloured along its links
 * (side 1 and 2, 0 unseen): 0, or -1 when two linked switches get one
 * colour. The host ports of each colour add up in hosts[].
 */
static int colour_part(const struct fors_topology *e, uint32_t x,
		       int8_t *side, uint32_t *queue, uint32_t *n,
		       uint32_t hosts[3])
{
	uint32_t head = *n, k;

	side[x] = 1;
	queue[(*n)++] = x;
	for (; head < *n; head++) {
		const struct fors_node *v = &e->nodes[queue[head]];
		int8_t c = side[queue[head]];

		hosts[c] += host_ports(e, queue[head]);
		for (k = 1; k <= v->nports; k++) {
			uint32_t y = v->ports[k].peer;

			if (y == FORS_NO_PEER || e->nodes[y].type != FORS_SWITCH)
				continue;
			if (side[y] == c)
				return -1;
			if (!side[y]) {
				side[y] = (int8_t)(3 - c);
				queue[(*n)++] = y;
			}
		}
	}
	return 0;
}

/*
 * Service hosts on spines: the switches two-coloured, the colour of each
 * connected part with more host ports the leaves', every one of which has
 * hosts. 1 when that gives a two-level fat tree; 0 when it does not, and
 * the classification by hosts alone stands with its refusal.
 */
static int spine_hosts(struct analysis *a, int8_t *side, uint32_t *queue)
{
	const struct fors_topology *e = a->e;
	uint32_t i, j, n = 0, from;

	for (i = 0; i < e->nnodes; i++) {
		uint32_t hosts[3] = { 0, 0, 0 };

		if (e->nodes[i].type != FORS_SWITCH || side[i])
			continue;
		from = n;
		if (colour_part(e, i, side, queue, &n, hosts) ||
		    hosts[1] == hosts[2])
			return 0;
		for (j = from; hosts[2] > hosts[1] && j < n; j++)
			side[queue[j]] = (int8_t)(3 - side[queue[j]]);
		for (j = from; j < n; j++)
			if (side[queue[j]] == 1 && !host_ports(e, queue[j]))
				return 0;
	}
	return 1;
}

/*
 * Leaves are the switches with hosts, spines the others; where that is not
 * a two-level fat tree, hosts on spines may make it one (spine_hosts).
 */
static int classify(struct analysis *a)
{
	const struct fors_topology *e = a->e;
	int8_t *side = calloc(e->nnodes + 1, 1);
	uint32_t *queue = malloc(sizeof(uint32_t) * (e->nnodes + 1)), i;
	int r = 0;

	a->leaf_of = malloc(sizeof(int32_t) * e->nnodes);
	a->spine_of = malloc(sizeof(int32_t) * e->nnodes);
	a->eleaf = malloc(sizeof(uint32_t) * e->nnodes);
	a->espine = malloc(sizeof(uint32_t) * e->nnodes);
	if (!a->leaf_of || !a->spine_of || !a->eleaf || !a->espine || !side ||
	    !queue)
		r = FORS_ENOMEM;
	for (i = 0; !r && i < e->nnodes; i++)
		side[i] = e->nodes[i].type == FORS_SWITCH &&
			  has_ca(e, &e->nodes[i]);
	if (!r) {
		number(a, side);
		r = check_links(a);
	}
	if (r == FORS_EINVAL) {
		memset(side, 0, e->nnodes);
		if (spine_hosts(a, side, queue)) {
			number(a, side);
			r = check_links(a);
		}
	}
	free(side);
	free(queue);
	return r == FORS_ENOMEM ? r : counts(a, r);
}

/* The r-th cable (by leaf port) between leaf node x and spine node s. */
static uint32_t cable(const struct fors_topology *t, uint32_t x, uint32_t s,
		      uint32_t r)
{
	const struct fors_node *n = &t->nodes[x];
	uint32_t k;

	for (k = 1; k <= n->nports; k++)
		if (n->ports[k].peer == s && r-- == 0)
			return k;
	return 0;
}

static uint32_t ncables(const struct fors_topology *t, uint32_t x, uint32_t s)
{
	const struct fors_node *n = &t->nodes[x];
	uint32_t k, c = 0;

	for (k = 1; k <= n->nports; k++)
		c += n->ports[k].peer == s;
	return c;
}

/*
 * The live node of expected node x, FORS_NO_PEER when it is gone; at x
 * first, where it is when the expected fabric is a union of live ones.
 */
static uint32_t live_node(const struct analysis *a, uint32_t x)
{
	if (a->e == a->l)
		return x;
	return fors_topology_find(a->l, &a->e->nodes[x], x);
}

/* Port k of live node n; NULL where that switch has no such port. */
static const struct fors_port *lport(const struct analysis *a, uint32_t n,
				     uint32_t k)
{
	if (n == FORS_NO_PEER || k > a->l->nodes[n].nports)
		return NULL;
	return &a->l->nodes[n].ports[k];
}

static int planes(struct analysis *a)
{
	struct fors_fabric *fb = a->fb;
	uint32_t s, l, r, q = 0, *cnt = calloc(fb->nspines, sizeof(uint32_t));

	if (!cnt)
		return FORS_ENOMEM;
	for (s = 0; s < fb->nspines; s++) {
		for (l = 0; l < fb->m1; l++) {
			uint32_t c = ncables(a->e, a->eleaf[l], a->espine[s]);

			cnt[s] = c > cnt[s] ? c : cnt[s];
		}
		q += cnt[s];
	}
	fb->q = q;
	fb->plane_spine = malloc(sizeof(uint32_t) * (q + 1));
	fb->plane_rank = malloc(sizeof(uint32_t) * (q + 1));
	fb->up = calloc((size_t)fb->m1 * q + 1, sizeof(uint32_t));
	fb->down = calloc((size_t)fb->m1 * q + 1, sizeof(uint32_t));
	fb->cable = calloc((size_t)fb->m1 * q + 1, sizeof(int16_t));
	fb->impacted = calloc(q + 1, 1);
	if (!fb->plane_spine || !fb->plane_rank || !fb->up || !fb->down ||
	    !fb->cable || !fb->impacted) {
		free(cnt);
		return FORS_ENOMEM;
	}
	for (s = 0, q = 0; s < fb->nspines; s++) {
		for (r = 0; r < cnt[s]; r++, q++) {
			fb->plane_spine[q] = s;
			fb->plane_rank[q] = r;
		}
	}
	free(cnt);
	return 0;
}

/*
 * Which expected cables are alive: the same leaf port, the same spine.
 * A leaf's live cables to a spine take that spine's planes from rank 0
 * up, whatever cable failed: two leaves then share as many planes there
 * as the one with fewer live cables has, as the bound counts them
 * (schedule/bound.c), and the spine sends each plane down one cable.
 */
static void cables_alive(struct analysis *a)
{
	struct fors_fabric *fb = a->fb;
	uint32_t l, p, to = 0;

	for (l = 0; l < fb->m1; l++) {
		uint32_t ll = fb->leaf[l];

		for (p = 0; ll != FORS_NO_PEER && p < fb->q; p++) {
			uint32_t s = fb->plane_spine[p];
			uint32_t k = cable(a->e, a->eleaf[l], a->espine[s],
					   fb->plane_rank[p]);
			const struct fors_port *pt;

			if (!fb->plane_rank[p])
				to = p;
			if (!k || fb->spine[s] == FORS_NO_PEER)
				continue;
			pt = lport(a, ll, k);
			if (!pt || pt->peer != fb->spine[s] || pt->held)
				continue;
			fb->up[(size_t)l * fb->q + to] = k;
			fb->down[(size_t)l * fb->q + to++] = pt->peer_port;
		}
	}
}

static int map_live(struct analysis *a)
{
	struct fors_fabric *fb = a->fb;
	uint32_t i;

	fb->leaf = malloc(sizeof(uint32_t) * fb->m1);
	fb->spine = malloc(sizeof(uint32_t) * fb->nspines);
	if (!fb->leaf || !fb->spine)
		return FORS_ENOMEM;
	for (i = 0; i < fb->m1; i++)
		fb->leaf[i] = live_node(a, a->eleaf[i]);
	for (i = 0; i < fb->nspines; i++)
		fb->spine[i] = live_node(a, a->espine[i]);
	return 0;
}

static void add_host(struct analysis *a, uint32_t sid, uint32_t ll, uint32_t k)
{
	struct fors_fabric *fb = a->fb;
	const struct fors_port *pt = &a->l->nodes[ll].ports[k];
	const struct fors_node *ca = &a->l->nodes[pt->peer];
	struct fors_fhost *h = &fb->hosts[fb->nhosts];

	h->sid = sid;
	h->node = pt->peer;
	h->port = pt->peer_port;
	h->leaf_port = k;
	h->guid = ca->ports[pt->peer_port].guid;
	h->node_guid = ca->guid;
	h->sysguid = ca->sysguid;
	h->lid = ca->ports[pt->peer_port].lid;
	fb->host_at[sid] = (int32_t)fb->nhosts++;
}

/* Slot = rank among the leaf's host-facing ports in the expected fabric. */
static int hosts(struct analysis *a)
{
	struct fors_fabric *fb = a->fb;
	uint32_t l, k;

	for (l = 0; l < fb->m1; l++) {
		uint32_t c = host_ports(a->e, a->eleaf[l]);

		fb->m0 = c > fb->m0 ? c : fb->m0;
	}
	fb->hosts = calloc((size_t)fb->m0 * fb->m1, sizeof(*fb->hosts));
	fb->host_at = malloc(sizeof(int32_t) * fb->m0 * fb->m1);
	if (!fb->hosts || !fb->host_at)
		return FORS_ENOMEM;
	for (k = 0; k < fb->m0 * fb->m1; k++)
		fb->host_at[k] = -1;
	for (l = 0; l < fb->m1; l++) {
		const struct fors_node *x = &a->e->nodes[a->eleaf[l]];
		uint32_t ll = fb->leaf[l], slot = 0;

		for (k = 1; k <= x->nports; k++) {
			const struct fors_port *pt = lport(a, ll, k);
			uint32_t pe = x->ports[k].peer;
			uint32_t lp = pt ? pt->peer : FORS_NO_PEER;

			if (!is_host(a->e, pe))
				continue;
			if (is_host(a->l, lp))
				add_host(a, l * fb->m0 + slot, ll, k);
			slot++;
		}
	}
	return 0;
}

/* Whether live node x is a live spine of the fabric. */
static int live_spine(const struct fors_fabric *fb, uint32_t x)
{
	uint32_t i;

	for (i = 0; i < fb->nspines; i++)
		if (fb->spine[i] == x)
			return 1;
	return 0;
}

/* Whether live node x is a live leaf or spine of the fabric. */
static int live_switch(const struct fors_fabric *fb, uint32_t x)
{
	uint32_t i;

	for (i = 0; i < fb->m1; i++)
		if (fb->leaf[i] == x)
			return 1;
	return live_spine(fb, x);
}

/* The kind of live CA port k of x that is no host slot, or -1. */
static int part_kind(const struct fors_fabric *fb, const struct fors_topology *t,
		     uint32_t x, uint32_t k)
{
	uint32_t sw = t->nodes[x].ports[k].peer;

	if (sw == FORS_NO_PEER || !live_switch(fb, sw))
		return -1;
	if (fors_topology_part_of(t, x) == sw)
		return FORS_PART_SWITCH;
	return live_spine(fb, sw) ? FORS_PART_SPINE_HOST : -1;
}

/*
 * The live CA ports routed without a slot: a switch's own CAs, and hosts
 * on spines, which take no part in the exchange but must be reachable.
 */
static int parts(struct analysis *a)
{
	const struct fors_topology *t = a->l;
	struct fors_fabric *fb = a->fb;
	uint32_t x, k, n = 0;
	int kind;

	for (x = 0; x < t->nnodes; x++)
		n += t->nodes[x].type == FORS_CA ? t->nodes[x].nports : 0;
	fb->parts = calloc(n + 1, sizeof(*fb->parts));
	if (!fb->parts)
		return FORS_ENOMEM;
	for (x = 0; x < t->nnodes; x++) {
		const struct fors_node *c = &t->nodes[x];

		for (k = 1; c->type == FORS_CA && k <= c->nports; k++) {
			kind = part_kind(fb, t, x, k);
			if (kind >= 0)
				fb->parts[fb->nparts++] = (struct fors_fpart){
					x, k, c->ports[k].peer,
					c->ports[k].peer_port, c->ports[k].lid,
					kind };
		}
	}
	return 0;
}

static uint32_t live_planes(const struct fors_fabric *fb, uint32_t l)
{
	uint32_t p, c = 0;

	for (p = 0; p < fb->q; p++)
		c += fors_plane_live(fb, l, p);
	return c;
}

int fors_leaf_serves(const struct fors_fabric *fb, uint32_t l)
{
	uint32_t a;

	for (a = 0; a < fb->m0; a++)
		if (fb->host_at[l * fb->m0 + a] >= 0)
			return 1;
	return 0;
}

int fors_leaves_common(const struct fors_fabric *fb, uint32_t x, uint32_t y)
{
	uint32_t p;

	for (p = 0; p < fb->q; p++)
		if (fors_plane_live(fb, x, p) && fors_plane_live(fb, y, p))
			return 1;
	return 0;
}

/* Every leaf's answers of fors_plane_cable (fabric.h). */
static void cables(struct fors_fabric *fb)
{
	uint32_t l, p, c, first;

	for (l = 0; l < fb->m1; l++)
		for (p = 0; p < fb->q; p++) {
			first = p - fb->plane_rank[p];
			for (c = 0; first + c < fb->q &&
			     fb->plane_spine[first + c] == fb->plane_spine[p] &&
			     fors_plane_live(fb, l, first + c); c++)
				;
			fb->cable[(size_t)l * fb->q + p] =
				fors_plane_live(fb, l, p) ? (int16_t)p :
				c ? (int16_t)(first + fb->plane_rank[p] % c) : -1;
		}
}

/* Leaves that serve hosts, counted up to two. */
static uint32_t serving(const struct fors_fabric *fb)
{
	uint32_t l, n = 0;

	for (l = 0; n < 2 && l < fb->m1; l++)
		n += fors_leaf_serves(fb, l);
	return n;
}

/* The representative of v's component (leaves, then spines), halving paths. */
static uint32_t root_of(uint32_t *up, uint32_t v)
{
	while (up[v] != v)
		v = up[v] = up[up[v]];
	return v;
}

/*
 * Whether every leaf that serves hosts reaches every other over live
 * cables; if not, *bad and *bad2 are two that do not reach each other.
 * Leaves without a common plane are then routed through others
 * (routing/detour.c).
 */
static int connected(const struct fors_fabric *fb, uint32_t *bad,
		     uint32_t *bad2)
{
	uint32_t *up = malloc(sizeof(uint32_t) * (fb->m1 + fb->nspines + 1));
	uint32_t l, p, first = UINT32_MAX, ok = 1;

	if (!up)
		return FORS_ENOMEM;
	for (l = 0; l < fb->m1 + fb->nspines; l++)
		up[l] = l;
	for (l = 0; l < fb->m1; l++)
		for (p = 0; p < fb->q; p++) {
			uint32_t s = fb->m1 + fb->plane_spine[p];

			if (fors_plane_live(fb, l, p))
				up[root_of(up, l)] = root_of(up, s);
		}
	for (l = 0; ok && l < fb->m1; l++) {
		if (!fors_leaf_serves(fb, l))
			continue;
		if (first == UINT32_MAX)
			first = l;
		ok = root_of(up, l) == root_of(up, first);
		*bad = l;
		*bad2 = first;
	}
	free(up);
	return ok ? 0 : FORS_NOPATH;
}

/*
 * f and m over the leaves that serve hosts: a dead leaf constrains nothing,
 * and neither does a leaf that serves the only hosts (no transfer leaves
 * it: the subnet manager's own leaf cut off from every spine).
 */
int fors_fabric_measure(struct fors_fabric *fb, uint32_t *bad, uint32_t *bad2)
{
	uint32_t l, l2, p, min = UINT32_MAX, lone = serving(fb) < 2;

	cables(fb);
	fb->m = 0;
	fb->apart = 0;
	memset(fb->impacted, 0, fb->q);
	for (l = 0; !lone && l < fb->m1; l++) {
		uint32_t c;

		if (!fors_leaf_serves(fb, l))
			continue;
		c = live_planes(fb, l);
		*bad = l;
		if (c == 0)
			return FORS_NOUPLINK;
		min = c < min ? c : min;
		for (p = 0; p < fb->q; p++)
			fb->impacted[p] |= !fors_plane_live(fb, l, p);
		for (l2 = 0; l2 < l; l2++)
			fb->apart += fors_leaf_serves(fb, l2) &&
				     !fors_leaves_common(fb, l, l2);
	}
	if (fb->apart) {
		int r = connected(fb, bad, bad2);

		if (r)
			return r;
	}
	fb->f = min != UINT32_MAX && min < fb->m0 ? fb->m0 - min : 0;
	for (p = 0; p < fb->q; p++)
		fb->m += fb->impacted[p];
	return 0;
}

static int reduction(struct analysis *a)
{
	uint32_t l = 0, l2 = 0;
	int r = fors_fabric_measure(a->fb, &l, &l2);
	const struct fors_node *x = &a->e->nodes[a->eleaf[l]];

	if (r == FORS_NOUPLINK) {
		fors_error_set(a->err, "leaf \"%s\" (%s) has hosts but no live uplink: a cable to any spine would route it",
			       name(x), x->id);
		return FORS_EINVAL;
	}
	if (r == FORS_NOPATH)
		return refuse2(a, &a->e->nodes[a->eleaf[l2]], x,
			       "no chain of live cables joins these leaves: a cable from either to a spine the other reaches would route them");
	if (r == FORS_ENOMEM)
		fors_error_set(a->err, "out of memory");
	return r;
}

/* With a reference, every live switch and host port must be known to it. */
static int check_known(struct analysis *a)
{
	uint8_t *known;
	uint32_t i, l, k;

	if (a->e == a->l)
		return 0;
	known = calloc(a->l->nnodes, 1);
	if (!known)
		return FORS_ENOMEM;
	for (i = 0; i < a->e->nnodes; i++) {
		uint32_t j = live_node(a, i);

		if (j != FORS_NO_PEER)
			known[j] = 1;
	}
	for (i = 0, l = 0; i < a->l->nnodes; i++)
		l += known[i] && a->l->nodes[i].type == FORS_SWITCH;
	if (!l) {
		free(known);
		fors_error_set(a->err, "the live fabric shares no switch with the reference topology: another fabric?");
		return FORS_EINVAL;
	}
	for (i = 0; i < a->l->nnodes; i++) {
		const struct fors_node *y = &a->l->nodes[i];

		if (known[i] || y->type != FORS_SWITCH)
			continue;
		free(known);
		fors_error_set(a->err, "switch \"%s\" (%s) is not in the reference topology",
			       name(y), y->id);
		return FORS_EINVAL;
	}
	free(known);
	for (l = 0; l < a->fb->m1; l++) {
		uint32_t ll = a->fb->leaf[l];
		const struct fors_node *x = &a->e->nodes[a->eleaf[l]];

		for (k = 1; ll != FORS_NO_PEER && k <= x->nports; k++) {
			const struct fors_port *pt = lport(a, ll, k);
			uint32_t lp = pt ? pt->peer : FORS_NO_PEER;
			uint32_t ep = x->ports[k].peer;

			if (lp == FORS_NO_PEER || a->l->nodes[lp].type != FORS_CA ||
			    (ep != FORS_NO_PEER && a->e->nodes[ep].type == FORS_CA))
				continue;
			fors_error_set(a->err, "leaf \"%s\" (%s) port %u has a host the reference topology does not have",
				       name(x), x->id, k);
			return FORS_EINVAL;
		}
	}
	return 0;
}

void fors_fabric_free(struct fors_fabric *fb)
{
	if (!fb)
		return;
	free(fb->leaf);
	free(fb->spine);
	free(fb->plane_spine);
	free(fb->plane_rank);
	free(fb->up);
	free(fb->down);
	free(fb->cable);
	free(fb->impacted);
	free(fb->hosts);
	free(fb->host_at);
	free(fb->parts);
	free(fb);
}

struct gid {
	uint64_t guid;
	uint32_t node;
};

static int cmp_gid(const void *x, const void *y)
{
	const struct gid *a = x, *b = y;

	return (a->guid > b->guid) - (a->guid < b->guid);
}

/* Nodes and CA ports are matched by GUID: two with one GUID match nothing. */
static int unique_guids(struct analysis *a, const struct fors_topology *t,
			const char *which)
{
	uint32_t i, k, n = 0, cap = 0;
	struct gid *g;
	int r = 0;

	for (i = 0; i < t->nnodes; i++)
		cap += 1 + (t->nodes[i].type == FORS_CA ? t->nodes[i].nports : 0);
	g = malloc(sizeof(*g) * (cap + 1));
	if (!g)
		return FORS_ENOMEM;
	for (i = 0; i < t->nnodes; i++) {
		const struct fors_node *x = &t->nodes[i];

		if (x->guid)
			g[n++] = (struct gid){ x->guid, i };
		for (k = 1; x->type == FORS_CA && k <= x->nports; k++)
			if (x->ports[k].guid && x->ports[k].guid != x->guid)
				g[n++] = (struct gid){ x->ports[k].guid, i };
	}
	qsort(g, n, sizeof(*g), cmp_gid);
	for (i = 1; i < n && !r; i++)
		if (g[i].guid == g[i - 1].guid)
			r = refuse2(a, &t->nodes[g[i - 1].node], &t->nodes[g[i].node],
				    which);
	free(g);
	return r;
}

/*
 * What only the live fabric can get wrong against a reference: two hosts
 * cabled together, a cable on a port beyond what the reference gives the
 * switch. (A host on a spine is routed without a slot: parts().)
 */
static int live_links(struct analysis *a)
{
	uint32_t i, j, k, *rev;
	int r = 0;

	if (a->e == a->l)
		return 0;
	rev = malloc(sizeof(uint32_t) * (a->l->nnodes + 1));
	if (!rev)
		return FORS_ENOMEM;
	for (j = 0; j < a->l->nnodes; j++)
		rev[j] = FORS_NO_PEER;
	for (i = 0; i < a->e->nnodes; i++)
		if ((j = live_node(a, i)) != FORS_NO_PEER)
			rev[j] = i;
	for (j = 0; j < a->l->nnodes && !r; j++) {
		const struct fors_node *y = &a->l->nodes[j];

		for (k = 1; y->type == FORS_CA && k <= y->nports && !r; k++) {
			uint32_t pe = y->ports[k].peer;

			if (pe == FORS_NO_PEER)
				continue;
			if (a->l->nodes[pe].type == FORS_CA)
				r = refuse2(a, y, &a->l->nodes[pe], "two hosts linked without a switch");
		}
	}
	for (j = 0; j < a->l->nnodes && !r; j++) {
		const struct fors_node *y = &a->l->nodes[j];

		for (k = 1; y->type == FORS_SWITCH && rev[j] != FORS_NO_PEER &&
		     k <= y->nports && !r; k++)
			if (y->ports[k].peer != FORS_NO_PEER &&
			    k > a->e->nodes[rev[j]].nports)
				r = refuse2(a, y, &a->l->nodes[y->ports[k].peer],
					    "cabled on a port beyond those the reference topology gives the switch: update the reference");
	}
	free(rev);
	return r;
}

int fors_fabric_analyse(const struct fors_topology *live,
			const struct fors_topology *ref,
			struct fors_fabric **out, struct fors_error *err)
{
	struct analysis a = { .e = ref ? ref : live, .l = live, .err = err };
	int r;

	*out = NULL;
	a.fb = calloc(1, sizeof(*a.fb));
	r = a.fb ? unique_guids(&a, live, "these nodes share a GUID") : FORS_ENOMEM;
	if (!r && ref)
		r = unique_guids(&a, ref, "these nodes of the reference topology share a GUID");
	if (!r)
		r = classify(&a);
	if (!r)
		r = map_live(&a);
	if (!r)
		r = check_known(&a);
	if (!r)
		r = live_links(&a);
	if (!r)
		r = planes(&a);
	if (!r)
		cables_alive(&a);
	if (!r)
		r = hosts(&a);
	if (!r)
		r = parts(&a);
	if (!r)
		r = reduction(&a);
	if (r == FORS_ENOMEM)
		fors_error_set(err, "out of memory while analysing the fabric");
	free(a.leaf_of);
	free(a.spine_of);
	free(a.eleaf);
	free(a.espine);
	if (r) {
		fors_fabric_free(a.fb);
		return r;
	}
	*out = a.fb;
	return 0;
}
