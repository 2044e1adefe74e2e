// SPDX-License-Identifier: MIT
/*
 * LFTs. Offset j of a host is routed through plane (designated + j) mod q,
 * so the base LID spreads traffic like ftree and the offsets reach every
 * plane; the DLID of a scheduled transfer is the offset of its plane. Where
 * that plane is dead at a leaf, that leaf falls back to a plane alive at
 * both ends that the base map balances (basemap.c). Ports of one node get
 * designated planes on different spines, and fallbacks avoid a sibling's
 * spine where they can (mFtree, Section 4 of the multi-homed fat-tree
 * paper). Every CA route
 * from a leaf is leaf-spine-leaf; what is left (spines without a cable to
 * the host's leaf, switch LIDs) is routed up-down (updown.c), which those
 * data paths already obey, so no table has a credit loop.
 */
#include <stdlib.h>
#include <string.h>

#include "routing/assign.h"
#include "routing/basemap.h"
#include "routing/lft.h"
#include "routing/updown.h"
#include "sys/threads.h"

#define NONE UINT32_MAX

struct lft_build {
	const struct fors_topology *t;
	const struct fors_fabric *fb;
	struct fors_lfts *lf;
	int32_t *swi;		/* per topology node: switch index or -1 */
	uint32_t *group;	/* per host: first host of its node */
	uint32_t *next;		/* per host: next of its node, or NONE */
	uint16_t *base;		/* [offset][leaf][host]: the base map's plane
				   (basemap.c), FORS_BASEMAP_NONE */
	uint32_t nleaf;		/* switches 0..nleaf-1 are leaves */
	uint32_t *leafno;	/* [nleaf]: each one's leaf in fb */
	struct fors_updown ud;
	uint8_t *pinned;	/* [nsw]: entry of the LID being routed fixed */
	uint32_t *dplane;	/* [nspines]: the LID being routed's plane on
				   each spine by the first leaf's map, NONE */
	const struct fors_offmap *om;	/* NULL, or -1 in it: offset j is
					   plane designated + j */
	struct fors_error *err;
};

static uint32_t nlids(const struct fors_lfts *lf)
{
	return 1u << lf->lmc;
}

static uint32_t leaf_of(const struct fors_fabric *fb, uint32_t h)
{
	return fb->hosts[h].sid / fb->m0;
}

static int switches(struct lft_build *b)
{
	const struct fors_fabric *fb = b->fb;
	struct fors_lfts *lf = b->lf;
	uint32_t i, n = 0;

	lf->sw = malloc(sizeof(uint32_t) * (fb->m1 + fb->nspines));
	lf->sw_lid = malloc(sizeof(uint32_t) * (fb->m1 + fb->nspines));
	b->swi = malloc(sizeof(int32_t) * b->t->nnodes);
	b->leafno = malloc(sizeof(uint32_t) * (fb->m1 + 1));
	if (!lf->sw || !lf->sw_lid || !b->swi || !b->leafno)
		return FORS_ENOMEM;
	for (i = 0; i < b->t->nnodes; i++)
		b->swi[i] = -1;
	for (i = 0; i < fb->m1; i++)
		if (fb->leaf[i] != FORS_NO_PEER) {
			b->leafno[n] = i;
			lf->sw[n++] = fb->leaf[i];
		}
	b->nleaf = n;
	for (i = 0; i < fb->nspines; i++)
		if (fb->spine[i] != FORS_NO_PEER)
			lf->sw[n++] = fb->spine[i];
	for (i = 0; i < n; i++)
		b->swi[lf->sw[i]] = (int32_t)i;
	lf->nsw = n;
	return 0;
}

static int lid_error(struct lft_build *b, const char *what,
		     const struct fors_node *n)
{
	fors_error_set(b->err, "%s \"%s\" (%s)%s", what, n->desc, n->id,
		       "; use --renumber-lids to let fors assign LIDs");
	return FORS_EINVAL;
}

/* A CA port's base LID from the topology, given and aligned to the LMC. */
static int ca_lid(struct lft_build *b, uint32_t lid, uint32_t node, int part,
		  uint32_t *out)
{
	static const char *const what[2][2] = {
		{ "the topology gives no LID for host",
		  "base LID not aligned to the LMC on host" },
		{ "the topology gives no LID for the switch's CA",
		  "base LID not aligned to the LMC on the switch's CA" },
	};
	const struct fors_node *n = &b->t->nodes[node];

	if (!lid)
		return lid_error(b, what[part][0], n);
	if (lid & (nlids(b->lf) - 1))
		return lid_error(b, what[part][1], n);
	*out = lid;
	return 0;
}

/*
 * LIDs as the topology gives them; 1 when it gives none at all, not even
 * for a switch's CA (a topology giving some is refused where it gives none).
 */
static int topology_lids(struct lft_build *b)
{
	const struct fors_fabric *fb = b->fb;
	struct fors_lfts *lf = b->lf;
	uint32_t i, given = 0;

	for (i = 0; i < fb->nhosts; i++)
		given += fb->hosts[i].lid != 0;
	for (i = 0; i < fb->nparts; i++)
		given += fb->parts[i].lid != 0;
	for (i = 0; i < lf->nsw; i++)
		given += b->t->nodes[lf->sw[i]].lid != 0;
	if (!given)
		return 1;
	for (i = 0; i < fb->nparts; i++)
		if (ca_lid(b, fb->parts[i].lid, fb->parts[i].node, 1,
			   &lf->part_lid[i]))
			return FORS_EINVAL;
	for (i = 0; i < fb->nhosts; i++)
		if (ca_lid(b, fb->hosts[i].lid, fb->hosts[i].node, 0,
			   &lf->host_lid[i]))
			return FORS_EINVAL;
	for (i = 0; i < lf->nsw; i++) {
		const struct fors_node *n = &b->t->nodes[lf->sw[i]];

		if (!n->lid)
			return lid_error(b, "the topology gives no LID for switch", n);
		lf->sw_lid[i] = n->lid;
	}
	return 0;
}

/* Hosts in slot order, the switches after them, then the switches' CAs. */
static void assign_lids(struct fors_lfts *lf, const struct fors_fabric *fb)
{
	uint32_t i, next = (fb->nhosts + 1) << lf->lmc;

	for (i = 0; i < fb->nhosts; i++)
		lf->host_lid[i] = (i + 1) << lf->lmc;
	for (i = 0; i < lf->nsw; i++)
		lf->sw_lid[i] = next++;
	next = (next + nlids(lf) - 1) & ~(nlids(lf) - 1);
	for (i = 0; i < fb->nparts; i++, next += nlids(lf))
		lf->part_lid[i] = next;
}

/* Every LID owned once, all within the unicast range. */
static int check_lids(struct lft_build *b)
{
	struct fors_lfts *lf = b->lf;
	uint32_t i, j, max = 0;
	uint8_t *used;

	for (i = 0; i < b->fb->nhosts; i++)
		if (lf->host_lid[i] + nlids(lf) - 1 > max)
			max = lf->host_lid[i] + nlids(lf) - 1;
	for (i = 0; i < lf->nsw; i++)
		max = lf->sw_lid[i] > max ? lf->sw_lid[i] : max;
	for (i = 0; i < b->fb->nparts; i++)
		if (lf->part_lid[i] + nlids(lf) - 1 > max)
			max = lf->part_lid[i] + nlids(lf) - 1;
	if (max > FORS_MAX_UCAST_LID) {
		fors_error_set(b->err, "LIDs up to %u exceed the unicast range (0x%x)",
			       max, FORS_MAX_UCAST_LID);
		return FORS_EINVAL;
	}
	lf->maxlid = max;
	used = calloc(max + 1, 1);
	if (!used)
		return FORS_ENOMEM;
	for (i = 0; i < b->fb->nhosts; i++)
		for (j = 0; j < nlids(lf); j++)
			used[lf->host_lid[i] + j]++;
	for (i = 0; i < lf->nsw; i++)
		used[lf->sw_lid[i]]++;
	for (i = 0; i < b->fb->nparts; i++)
		for (j = 0; j < nlids(lf); j++)
			used[lf->part_lid[i] + j]++;
	for (i = 1; i <= max && used[i] <= 1; i++)
		;
	free(used);
	if (i <= max) {
		fors_error_set(b->err, "LID %u is used twice with LMC %u; use --renumber-lids",
			       i, lf->lmc);
		return FORS_EINVAL;
	}
	return 0;
}

static uint16_t *base_at(const struct lft_build *b, uint32_t h, uint32_t l,
			 uint32_t j)
{
	return &b->base[((size_t)j * b->fb->m1 + l) * b->fb->nhosts + h];
}

/*
 * The plane leaf l uses for offset j of host h; q when there is none: the
 * assignment's where it chose one, else the base map's (basemap.c).
 */
static uint32_t route_plane(const struct lft_build *b, uint32_t h, uint32_t l,
			    uint32_t j)
{
	uint16_t p;

	if (b->om) {
		int16_t o = b->om->plane[((size_t)l * b->fb->nhosts + h) * b->om->k + j];

		if (o >= 0)
			return (uint32_t)o;
	}
	p = *base_at(b, h, l, j);
	return p == FORS_BASEMAP_NONE ? b->fb->q : p;
}

/*
 * Every offset's base map: offset j of a host nominally on plane
 * (designated + j) mod q, balanced fallbacks where that plane is dead.
 */
static int base_maps(struct lft_build *b)
{
	const struct fors_fabric *fb = b->fb;
	uint32_t j, h, *nom = malloc(sizeof(uint32_t) * (fb->nhosts + 1));
	struct fors_basemap_in in = { fb, nom, b->group, b->next,
				      FORS_SPREAD_NONE, 0 };
	int r = 0;

	b->base = malloc(sizeof(uint16_t) * ((size_t)nlids(b->lf) * fb->m1 *
					     fb->nhosts + 1));
	if (!nom || !b->base)
		r = FORS_ENOMEM;
	for (j = 0; !r && j < nlids(b->lf); j++) {
		for (h = 0; h < fb->nhosts; h++)
			nom[h] = (b->lf->designated[h] + j) % fb->q;
		r = fors_basemap_build(&in, base_at(b, 0, 0, j));
	}
	free(nom);
	return r;
}

/* The cable spine s takes down to leaf lh for a LID of nominal plane p. */
static uint32_t down_port(const struct fors_fabric *fb, uint32_t s,
			  uint32_t lh, uint32_t p)
{
	uint32_t k;

	if (fb->plane_spine[p] == s && fors_plane_reach(fb, lh, p))
		return fb->down[(size_t)lh * fb->q +
				(uint32_t)fors_plane_cable(fb, lh, p)];
	for (k = 0; k < fb->q; k++)
		if (fb->plane_spine[k] == s && fors_plane_live(fb, lh, k))
			return fb->down[(size_t)lh * fb->q + k];
	return FORS_NO_PORT;
}

static void set(struct fors_lfts *lf, uint32_t sw, uint32_t lid, uint32_t port)
{
	lf->port[(size_t)sw * (lf->maxlid + 1) + lid] = (uint8_t)port;
}

/* sw's entry for lid is a data path's (fors_lft_data). */
static void set_data(struct fors_lfts *lf, uint32_t sw, uint32_t lid,
		     uint32_t port)
{
	size_t i = (size_t)sw * (lf->maxlid + 1) + lid;

	set(lf, sw, lid, port);
	lf->data[i / 8] |= (uint8_t)(1u << (i % 8));
}

/*
 * For every spine, the plane of offset j of h that the first leaf's map
 * puts on it, or NONE (the nominal plane goes down then): with parallel
 * cables, the cable the spine takes down. One pass over the leaves.
 */
static void down_planes(const struct lft_build *b, uint32_t h, uint32_t j)
{
	const struct fors_fabric *fb = b->fb;
	uint32_t l, *d = b->dplane;

	for (l = 0; l < fb->nspines; l++)
		d[l] = NONE;
	for (l = 0; b->om && l < fb->m1; l++) {
		int16_t p = b->om->plane[((size_t)l * fb->nhosts + h) * b->om->k + j];

		if (p >= 0 && d[fb->plane_spine[p]] == NONE)
			d[fb->plane_spine[p]] = (uint32_t)p;
	}
}

/*
 * Whether leaf l's plane p starts a detour to leaf lh (detour_plane). The
 * spine's cable up to its home then carries data: it is not a held one,
 * since l's own cable to that spine is not (routing/updown.c, homes).
 */
static int detour_ok(const struct lft_build *b, uint32_t l, uint32_t lh,
		     uint32_t p)
{
	const struct fors_fabric *fb = b->fb;
	uint32_t s = fb->spine[fb->plane_spine[p]], home;

	if (!fors_plane_live(fb, l, p) || s == FORS_NO_PEER)
		return 0;
	home = b->ud.home[b->swi[s]];
	return home != NONE && home != (uint32_t)b->swi[fb->leaf[l]] &&
	       b->leafno[home] != lh &&
	       fors_leaves_common(fb, b->leafno[home], lh);
}

/*
 * Leaf l shares no live plane with host h's leaf: offset j goes up one of
 * l's planes whose spine's home leaf is another leaf that does share one,
 * so the route is l, spine, home, spine, h's leaf: up, up, then a
 * leaf-spine-leaf data path, legal (doc/routing.md, "Detours"). The
 * offsets and hosts take the candidates in turn; q when there is none.
 */
static uint32_t detour_plane(const struct lft_build *b, uint32_t h,
			     uint32_t l, uint32_t j)
{
	const struct fors_fabric *fb = b->fb;
	uint32_t p, n = 0, lh = leaf_of(fb, h);

	for (p = 0; p < fb->q; p++)
		n += detour_ok(b, l, lh, p);
	if (!n)
		return fb->q;
	n = (b->lf->designated[h] + j) % n;
	for (p = 0; p < fb->q; p++)
		if (detour_ok(b, l, lh, p) && n-- == 0)
			break;
	return p;
}

/* The leaves' data paths, and spines with a cable to the host's leaf. */
static void pin_host(struct lft_build *b, uint32_t h, uint32_t j)
{
	const struct fors_fabric *fb = b->fb;
	struct fors_lfts *lf = b->lf;
	uint32_t lh = leaf_of(fb, h), l, s, lid = lf->host_lid[h] + j;
	uint32_t nominal = (lf->designated[h] + j) % fb->q;

	for (l = 0; l < fb->m1; l++) {
		int32_t sw = fb->leaf[l] == FORS_NO_PEER ? -1 : b->swi[fb->leaf[l]];
		uint32_t p;

		if (sw < 0)
			continue;
		if (l == lh) {
			set_data(lf, (uint32_t)sw, lid, fb->hosts[h].leaf_port);
			b->pinned[sw] = 1;
			continue;
		}
		p = route_plane(b, h, l, j);
		if (p == fb->q && fb->apart && !fors_leaves_common(fb, l, lh))
			p = detour_plane(b, h, l, j);
		if (p < fb->q) {
			set_data(lf, (uint32_t)sw, lid, fb->up[(size_t)l * fb->q +
					(uint32_t)fors_plane_cable(fb, l, p)]);
			b->pinned[sw] = 1;
		}
	}
	down_planes(b, h, j);
	for (s = 0; s < fb->nspines; s++) {
		uint32_t k;

		if (fb->spine[s] == FORS_NO_PEER)
			continue;
		k = down_port(fb, s, lh, b->dplane[s] != NONE ? b->dplane[s] :
				      nominal);
		if (k != FORS_NO_PORT) {
			set_data(lf, (uint32_t)b->swi[fb->spine[s]], lid, k);
			b->pinned[b->swi[fb->spine[s]]] = 1;
		}
	}
}

/*
 * A spine without a cable to the host's leaf goes up to its home leaf,
 * whose data path is legal after an up hop; anything else that is left
 * (a leaf sharing no plane with the host's leaf) takes the general search.
 */
static void route_host(struct lft_build *b, uint32_t h)
{
	const struct fors_fabric *fb = b->fb;
	struct fors_lfts *lf = b->lf;
	uint32_t j, v, target = (uint32_t)b->swi[fb->leaf[leaf_of(fb, h)]];

	for (j = 0; j < nlids(lf); j++) {
		uint32_t lid = lf->host_lid[h] + j;
		int rest = 0;

		memset(b->pinned, 0, lf->nsw);
		pin_host(b, h, j);
		for (v = 0; v < lf->nsw; v++) {
			uint32_t home = b->ud.home[v];

			if (b->pinned[v])
				continue;
			if (v >= b->nleaf && home != UINT32_MAX && b->pinned[home])
				set(lf, v, lid, b->ud.home_port[v]);
			else
				rest = 1;
		}
		if (rest)
			fors_updown_complete(&b->ud, lf, lid, b->pinned, target);
	}
}

static void route_switch(struct lft_build *b, uint32_t t)
{
	struct fors_lfts *lf = b->lf;

	memset(b->pinned, 0, lf->nsw);
	b->pinned[t] = 1;
	set(lf, t, lf->sw_lid[t], 0);
	fors_updown_complete(&b->ud, lf, lf->sw_lid[t], b->pinned, t);
}

/*
 * A switch's own CA (a SHARP Aggregation Node) is reached as the switch
 * is, then through its port: every other switch copies its entry for the
 * switch's LID, whose up-down route already reaches it.
 */
static void route_part(struct lft_build *b, const struct fors_fpart *c,
		       uint32_t lid)
{
	struct fors_lfts *lf = b->lf;
	uint32_t own = (uint32_t)b->swi[c->sw], v, j;

	for (j = 0; j < nlids(lf); j++)
		for (v = 0; v < lf->nsw; v++)
			set(lf, v, lid + j, v == own ? c->sw_port :
			    fors_lft(lf, v, lf->sw_lid[own]));
}

/*
 * The switch leaf l sends port h's base LID up to, or NONE: read from its
 * table, as fors check counts it, detours and completed routes included.
 */
static uint32_t base_spine(const struct lft_build *b, uint32_t h, uint32_t l)
{
	const struct fors_node *n;
	uint32_t k, y;

	if (b->fb->leaf[l] == FORS_NO_PEER)
		return NONE;
	n = &b->t->nodes[b->fb->leaf[l]];
	k = fors_lft(b->lf, (uint32_t)b->swi[b->fb->leaf[l]],
		     b->lf->host_lid[h]);
	if (k == 0 || k == FORS_NO_PORT || k > n->nports)
		return NONE;
	y = n->ports[k].peer;
	return y != FORS_NO_PEER && b->t->nodes[y].type == FORS_SWITCH ? y : NONE;
}

/* mFtree: from each leaf, the ports of one node up through different spines. */
static void independence(struct lft_build *b)
{
	const struct fors_fabric *fb = b->fb;
	uint32_t h, l, g, g2;

	for (h = 0; h < fb->nhosts; h++) {
		for (l = 0; b->group[h] == h && b->next[h] != NONE && l < fb->m1; l++) {
			uint32_t n = 0, shared = 0;

			for (g = h; g != NONE; g = b->next[g]) {
				if (base_spine(b, g, l) == NONE)
					continue;
				n++;
				for (g2 = h; g2 != g; g2 = b->next[g2])
					shared |= base_spine(b, g2, l) == base_spine(b, g, l);
			}
			b->lf->mf_pairs += n >= 2;
			b->lf->mf_shared += n >= 2 && shared;
		}
	}
}

static int fill(struct lft_build *b)
{
	const struct fors_fabric *fb = b->fb;
	struct fors_lfts *lf = b->lf;
	uint32_t h, t;
	int r;

	lf->port = malloc((size_t)lf->nsw * (lf->maxlid + 1));
	lf->data = calloc((size_t)lf->nsw * (lf->maxlid + 1) / 8 + 1, 1);
	b->pinned = malloc(lf->nsw + 1);
	b->dplane = malloc(sizeof(uint32_t) * (fb->nspines + 1));
	if (!lf->port || !lf->data || !b->pinned || !b->dplane || base_maps(b))
		return FORS_ENOMEM;
	r = fors_updown_build(&b->ud, b->t, lf, b->swi, b->nleaf, b->err);
	if (r)
		return r;
	memset(lf->port, FORS_NO_PORT, (size_t)lf->nsw * (lf->maxlid + 1));
	for (h = 0; h < fb->nhosts; h++)
		route_host(b, h);
	independence(b);
	for (t = 0; t < lf->nsw; t++)
		route_switch(b, t);
	for (t = 0; t < fb->nparts; t++)
		route_part(b, &fb->parts[t], lf->part_lid[t]);
	fors_updown_free(&b->ud);
	return 0;
}

void fors_lfts_free(struct fors_lfts *t)
{
	if (!t)
		return;
	free(t->sw);
	free(t->sw_lid);
	free(t->host_lid);
	free(t->part_lid);
	free(t->designated);
	free(t->port);
	free(t->data);
	free(t);
}

static int lmc_check(const struct fors_fabric *fb, uint32_t lmc,
		     const struct fors_offmap *om, struct fors_error *err)
{
	uint32_t need = 0;

	while ((1u << need) < fb->q && !(om && om->k == 1u << lmc))
		need++;
	if (lmc > 7 || need > lmc) {
		fors_error_set(err, lmc > 7 ? "LMC %u is out of range 0..7" :
			       "LMC %u gives too few LIDs per host for the planes: %u planes need LMC %u",
			       lmc, fb->q, need);
		return FORS_EINVAL;
	}
	return 0;
}

/* A build begun: its builder, and the fill's own outcome. */
struct fors_lfts_job {
	struct lft_build b;
	struct fors_thread *th;
	struct fors_error err;	/* the fill's, apart from the caller's */
	int r;
};

static void *fill_job(void *arg)
{
	struct fors_lfts_job *j = arg;

	j->r = fill(&j->b);
	return NULL;
}

/* The LIDs, host groups and designated planes, into j->b.lf. */
static int lids(struct fors_lfts_job *j, uint32_t lmc, int renumber)
{
	struct lft_build *b = &j->b;
	const struct fors_fabric *fb = b->fb;
	struct fors_nominal nom = { NULL, NULL, NULL };
	int r;

	b->lf = calloc(1, sizeof(*b->lf));
	if (!b->lf)
		return FORS_ENOMEM;
	b->lf->lmc = lmc;
	b->lf->host_lid = malloc(sizeof(uint32_t) * (fb->nhosts + 1));
	b->lf->part_lid = malloc(sizeof(uint32_t) * (fb->nparts + 1));
	r = b->lf->host_lid && b->lf->part_lid ? switches(b) : FORS_ENOMEM;
	if (!r)
		r = renumber ? 1 : topology_lids(b);
	if (r == 1) {
		assign_lids(b->lf, fb);
		r = 0;
	}
	if (!r)
		r = check_lids(b);
	if (!r)
		r = fors_nominal_build(fb, &nom);
	b->lf->designated = nom.designated;
	b->group = nom.group;
	b->next = nom.next;
	return r;
}

/* j's temporaries and j; its tables too unless kept. */
static void job_free(struct fors_lfts_job *j, int keep)
{
	struct lft_build *b = &j->b;

	free(b->swi);
	free(b->leafno);
	free(b->group);
	free(b->next);
	free(b->base);
	free(b->pinned);
	free(b->dplane);
	if (!keep)
		fors_lfts_free(b->lf);
	free(j);
}

/* A failed build's message, and its status. */
static int job_failed(struct fors_lfts_job *j, int r, struct fors_error *err)
{
	if (r == FORS_ENOMEM)
		fors_error_set(err, "out of memory while computing the LFTs");
	job_free(j, 0);
	return r;
}

int fors_lfts_begin(const struct fors_topology *live,
		    const struct fors_fabric *fb, uint32_t lmc, int renumber,
		    const struct fors_offmap *om, struct fors_lfts_job **out,
		    struct fors_error *err)
{
	struct fors_lfts_job *j = calloc(1, sizeof(*j));
	int r;

	*out = NULL;
	if (!j) {
		fors_error_set(err, "out of memory while computing the LFTs");
		return FORS_ENOMEM;
	}
	j->b = (struct lft_build){ .t = live, .fb = fb, .om = om, .err = err };
	r = lmc_check(fb, lmc, om, err);
	if (!r)
		r = lids(j, lmc, renumber);
	if (r)
		return job_failed(j, r, err);
	j->b.err = &j->err;
	if (fors_thread_start(fill_job, j, &j->th))
		fill_job(j);
	*out = j;
	return 0;
}

const struct fors_lfts *fors_lfts_lids(const struct fors_lfts_job *j)
{
	return j->b.lf;
}

int fors_lfts_end(struct fors_lfts_job *j, struct fors_lfts **out,
		  struct fors_error *err)
{
	*out = NULL;
	fors_thread_join(j->th);
	if (j->r && j->r != FORS_ENOMEM)
		*err = j->err;
	if (j->r)
		return job_failed(j, j->r, err);
	*out = j->b.lf;
	job_free(j, 1);
	return 0;
}

int fors_lfts_build(const struct fors_topology *live,
		    const struct fors_fabric *fb, uint32_t lmc, int renumber,
		    const struct fors_offmap *om, struct fors_lfts **out,
		    struct fors_error *err)
{
	struct fors_lfts_job *j;
	int r = fors_lfts_begin(live, fb, lmc, renumber, om, &j, err);

	*out = NULL;
	return r ? r : fors_lfts_end(j, out, err);
}
