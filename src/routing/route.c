// SPDX-License-Identifier: MIT
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "routing/basemap.h"
#include "routing/leastused.h"
#include "routing/lower.h"
#include "routing/detour.h"
#include "routing/route.h"
#include "routing/routed.h"
#include "routing/wide.h"
#include "schedule/cyclic.h"
#include "schedule/inter.h"
#include "schedule/compact.h"
#include "schedule/pack.h"
#include "schedule/planes.h"
#include "schedule/rounds.h"
#include "schedule/shift.h"

static int cmp_guid(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return a < b ? -1 : a > b;
}

void fors_route_free(struct fors_route *r)
{
	if (!r)
		return;
	fors_fabric_free(r->fb);
	fors_schedule_free(r->s);
	fors_lfts_free(r->lfts);
	fors_offmap_free(r->om);
	free(r->joins);
	free(r->base);
	free(r);
}

/*
 * The cyclic schedule at the bound (doc/schedule.md): each leaf sends at
 * most its live planes per phase. *cyc stays NULL when the search fails.
 */
/*
 * The plane search's budget for t phases of n hosts: FORS_CYCLIC_PLANE_WORK,
 * less in proportion above FORS_CYCLIC_PLANE_CELLS phases times hosts. A
 * large fabric's phases are coloured at once or hardly at all: on the LHCb
 * fabric the solver colours every phase of a placement at the bound, or
 * thousands of transfers are left, which no budget for a subnet manager
 * repairs (doc/schedule.md).
 */
static uint64_t plane_work(uint32_t t, uint32_t n)
{
	uint64_t cells = (uint64_t)t * n;

	return cells <= FORS_CYCLIC_PLANE_CELLS ? FORS_CYCLIC_PLANE_WORK :
	       (uint64_t)FORS_CYCLIC_PLANE_WORK * FORS_CYCLIC_PLANE_CELLS / cells;
}

/* Each leaf's cable of each plane, [m1 * q]; NULL when out of memory. */
static int16_t *plane_cables(const struct fors_fabric *fb)
{
	int16_t *c = malloc(sizeof(int16_t) * ((size_t)fb->m1 * fb->q + 1));
	uint32_t l, p;

	for (l = 0; c && l < fb->m1; l++)
		for (p = 0; p < fb->q; p++)
			c[l * fb->q + p] = (int16_t)fors_plane_cable(fb, l, p);
	return c;
}

/*
 * *s without the transfers of leaves apart (routing/detour.h), which the
 * detours put back; *s replaced, or NULL on failure.
 */
static int without_apart(const struct fors_fabric *fb,
			 struct fors_schedule **s, struct fors_error *err)
{
	struct fors_schedule *whole = *s;
	int e = fors_detour_strip(fb, whole, s, err);

	fors_schedule_free(whole);
	if (e)
		*s = NULL;
	return e;
}

static int cyclic(struct fors_route *r, const struct fors_route_opts *o,
		  const uint8_t *present, uint32_t t, uint64_t seed,
		  const int16_t *fixed, struct fors_schedule **cyc,
		  struct fors_error *err)
{
	const struct fors_fabric *fb = r->fb;
	struct fors_cyclic_params cp = { fb->m0, fb->m1, fb->f, present, NULL,
					 t, FORS_CYCLIC_MOVES,
					 FORS_CYCLIC_WORK, FORS_CYCLIC_SWAPS,
					 seed, fb->q, NULL, o->plane_work,
					 fixed };
	uint32_t *up = calloc(fb->m1 + 1, sizeof(uint32_t)), l, p;
	int16_t *cable = plane_cables(fb);
	struct fors_error e2;
	int e = FORS_ENOMEM;

	*cyc = NULL;
	if (!cp.plane_work)
		cp.plane_work = plane_work(t, fb->nhosts);
	if (up && cable) {
		for (l = 0; l < fb->m1; l++)
			for (p = 0; p < fb->q; p++)
				up[l] += fors_plane_live(fb, l, p);
		cp.uplinks = up;
		cp.cable = fb->apart ? NULL : cable;
		e = fors_schedule_cyclic(&cp, cyc, &e2);
	}
	free(up);
	free(cable);
	if (e == FORS_ENOMEM)
		fors_error_set(err, "%s", up && cable ? e2.msg : "out of memory");
	if (!e && *cyc && fb->apart)
		e = without_apart(fb, cyc, err);
	return e == FORS_ENOMEM ? e : 0;
}

/* The hosts that take part, by slot, in *present. */
static int present_slots(const struct fors_route *r, uint8_t **present,
			 struct fors_error *err)
{
	const struct fors_fabric *fb = r->fb;
	uint32_t i;

	*present = malloc((size_t)fb->m0 * fb->m1 + 1);
	if (!*present) {
		fors_error_set(err, "out of memory");
		return FORS_ENOMEM;
	}
	for (i = 0; i < fb->m0 * fb->m1; i++)
		(*present)[i] = fb->host_at[i] >= 0 &&
				r->joins[fb->host_at[i]];
	return 0;
}

/*
 * Algorithm 1's abstract schedule of fb's present hosts (*present),
 * without the transfers of leaves apart (routing/detour.h).
 */
static int schedule(struct fors_route *r, uint8_t **present,
		    struct fors_schedule **abs, struct fors_error *err)
{
	const struct fors_fabric *fb = r->fb;
	struct fors_sched_params sp = { fb->m0, fb->m1, fb->f, NULL };
	int e = present_slots(r, present, err);

	if (e)
		return e;
	sp.present = *present;
	e = fors_schedule_build(abs, &sp, &r->intra, err);
	return e || !fb->apart ? e : without_apart(fb, abs, err);
}

/*
 * Algorithm 1's schedule built on a thread of its own, phase by phase,
 * while the assignment places each phase as it comes: at 2,048 hosts the
 * build is a third of the routing, and the assignment waits on it only at
 * the start.
 */
struct building {
	struct fors_schedule_builder *b;
	struct fors_progress *done;	/* the phases built */
	struct fors_thread *th;
	uint32_t n;
};

static void *build_phases(void *arg)
{
	struct building *g = arg;
	uint32_t p;

	for (p = 0; p + 1 < g->n; p++) {
		fors_schedule_build_phase(g->b, p);
		if (g->done)
			fors_progress_raise(g->done, p + 1);
	}
	if (g->n)
		fors_schedule_build_phase(g->b, g->n - 1);
	fors_schedule_build_end(g->b);
	if (g->done)
		fors_progress_raise(g->done, g->n);
	return NULL;
}

/*
 * schedule() begun on a thread where no leaves are apart (their removal
 * needs the whole schedule); *abs takes its phases as g->done says.
 * building_end() before anything else reads or frees *abs.
 */
static int building(struct fors_route *r, uint8_t **present,
		    struct fors_schedule **abs, struct building *g,
		    struct fors_error *err)
{
	const struct fors_fabric *fb = r->fb;
	struct fors_sched_params sp = { fb->m0, fb->m1, fb->f, NULL };
	int e;

	*g = (struct building){ 0 };
	if (fb->apart)
		return schedule(r, present, abs, err);
	e = present_slots(r, present, err);
	if (e)
		return e;
	sp.present = *present;
	e = fors_schedule_build_begin(abs, &sp, &r->intra, &g->b, err);
	if (e)
		return e;
	g->n = (*abs)->nphases;
	if (fors_progress_new(&g->done) ||
	    fors_thread_start(build_phases, g, &g->th)) {
		fors_progress_free(g->done);
		g->done = NULL;
		build_phases(g);	/* here, whole, with nobody waiting */
	}
	return 0;
}

/* The thread of building() joined: its schedule is whole. */
static void building_end(struct building *g)
{
	fors_thread_join(g->th);
	fors_progress_free(g->done);
	*g = (struct building){ 0 };
}

/*
 * Fewer offsets than planes: the planes of each leaf's offsets are chosen
 * with the phases (doc/narrow-lmc.md); with parallel cables, an offset's
 * spine keeps one cable down for every leaf (routing/assign.c), which may
 * leave a transfer no plane: the refusal then names the LMC that routes.
 * The assignment takes abs's transfers, so each larger LMC tried for the
 * refusal gets Algorithm 1's schedule built again.
 */
static int narrow(struct fors_route *r, struct fors_schedule *abs,
		  uint32_t lmc, struct fors_schedule **planes,
		  struct fors_error *err)
{
	struct fors_assign_info info = { .base = r->base };
	struct fors_schedule *pl, *again = NULL;
	struct fors_offmap *om;
	struct fors_error e2;
	uint8_t *present = NULL;
	uint32_t l;
	int e = fors_assign_narrow(r->fb, abs, 1u << lmc, planes, &r->om,
				   &r->assign, err), ok = 0;

	for (l = lmc + 1; e == FORS_EINVAL && l < 8 && (1u << l) < r->fb->q;
	     l++) {
		if (schedule(r, &present, &again, &e2))
			break;
		ok = !fors_assign_narrow(r->fb, again, 1u << l, &pl, &om,
					 &info, &e2);
		if (ok) {
			fors_schedule_free(pl);
			fors_offmap_free(om);
		}
		fors_schedule_free(again);
		free(present);
		if (ok)
			break;
	}
	if (e == FORS_EINVAL) {
		e2 = *err;
		fors_error_set(err, "LMC %u: %.400s (LMC %u routes this fabric)",
			       lmc, e2.msg, l);
	}
	return e;
}

/*
 * The planes of every transfer: the source's, or the native assignment.
 * The ILP cache holds Algorithm 1's phases: a cyclic schedule's planes are
 * the native solver's.
 */
static int planes(struct fors_route *r, const struct fors_route_opts *o,
		  struct fors_schedule *abs, struct fors_schedule **out,
		  struct fors_error *err)
{
	const struct fors_planes_source *src = o->planes;

	if (o->lmc < 8 && (1u << o->lmc) < r->fb->q)
		return narrow(r, abs, o->lmc, out, err);
	if (!src || r->fb->m <= r->fb->f || fors_schedule_is_cyclic(abs) ||
	    r->fb->apart ||
	    r->njoin < r->fb->nhosts ||
	    src->route(src->ctx, r->fb, out))
		return fors_assign_planes(r->fb, abs, out, &r->assign, err);
	r->assign.method = FORS_METHOD_ILP;
	r->assign.split = (*out)->nphases - abs->nphases;
	r->assign.unproven = 0;
	return 0;
}

/*
 * The live cables between leaf l and every spine, as the topology has
 * them: a cable on another port than expected still counts, and so does
 * one the hold-down keeps out of use, unless held is 0. The bound is the
 * fabric's; what the engine leaves unused shows as phases above it.
 */
static void leaf_cables(const struct fors_route *r, uint32_t l,
			const uint32_t *spine_of, int held, uint32_t *row)
{
	const struct fors_node *n = &r->live->nodes[r->fb->leaf[l]];
	uint32_t k;

	for (k = 1; k <= n->nports; k++)
		if (n->ports[k].peer != FORS_NO_PEER &&
		    spine_of[n->ports[k].peer] != UINT32_MAX &&
		    (held || !n->ports[k].held))
			row[spine_of[n->ports[k].peer]]++;
}

/*
 * T*_L for k routes per pair: with one, the counting bound of one route
 * (schedule/bound.h) where it is above T*; with more, T*.
 */
static uint32_t one_route(const struct fors_bound_fabric *bf, uint32_t t,
			  uint32_t k)
{
	uint32_t x = k == 1 ? fors_bound_one_route(bf) : 0;

	return x > t ? x : t;
}

/*
 * T* of the fabric (*b): its hosts per leaf and live cables per spine,
 * the cables held down counted when held is 1. With one, T*_L too: *one
 * holds the routes per pair on entry, the bound on return.
 */
static int bound(struct fors_route *r, int held, struct fors_bound *b,
		 uint32_t *one, struct fors_error *err)
{
	const struct fors_fabric *fb = r->fb;
	struct fors_bound_fabric bf = { fb->m1, fb->nspines, NULL, NULL };
	uint32_t *hosts = calloc(fb->m1 + 1, sizeof(uint32_t));
	uint32_t *cables = calloc((size_t)fb->m1 * fb->nspines + 1,
				  sizeof(uint32_t));
	uint32_t *spine_of = malloc(sizeof(uint32_t) * (r->live->nnodes + 1));
	uint32_t h, l, s;
	int e = FORS_ENOMEM;

	if (hosts && cables && spine_of) {
		memset(spine_of, 0xff, sizeof(uint32_t) * r->live->nnodes);
		for (s = 0; s < fb->nspines; s++)
			if (fb->spine[s] != FORS_NO_PEER)
				spine_of[fb->spine[s]] = s;
		for (h = 0; h < fb->nhosts; h++)
			hosts[fb->hosts[h].sid / fb->m0] += r->joins[h];
		for (l = 0; l < fb->m1; l++)
			if (fb->leaf[l] != FORS_NO_PEER)
				leaf_cables(r, l, spine_of, held,
					    cables + (size_t)l * fb->nspines);
		bf.hosts = hosts;
		bf.cables = cables;
		e = fors_bound_compute(&bf, b, err);
		if (!e && one)
			*one = one_route(&bf, b->t, *one);
	} else {
		fors_error_set(err, "out of memory");
	}
	free(hosts);
	free(cables);
	free(spine_of);
	return e;
}

/* 1 when the hold-down keeps a cable of a live leaf out of use. */
static int holds(const struct fors_route *r)
{
	uint32_t l, k;

	for (l = 0; l < r->fb->m1; l++) {
		const struct fors_node *n;

		if (r->fb->leaf[l] == FORS_NO_PEER)
			continue;
		n = &r->live->nodes[r->fb->leaf[l]];
		for (k = 1; k <= n->nports; k++)
			if (n->ports[k].peer != FORS_NO_PEER && n->ports[k].held)
				return 1;
	}
	return 0;
}

/*
 * The fabric line's `bound`: T*, for guarantee 5 of the schedule file;
 * with cables held, `usable`: T* of the cables the schedule may use; with
 * fewer LID offsets than planes, `bound-lmc`: T*_L; at LMC 0 with the
 * base map, `bound-map`: the fewest phases over its routes.
 */
static int bound_key(struct fors_route *r, struct fors_error *err)
{
	char n[16], u[16], l[16], m[16];

	snprintf(n, sizeof(n), "%u", r->bound.t);
	snprintf(u, sizeof(u), "%u", r->usable.t);
	snprintf(l, sizeof(l), "%u", r->bound_lmc);
	snprintf(m, sizeof(m), "%u", r->bound_map);
	if (!fors_schedule_add_key(r->s, "bound", n) &&
	    (r->usable.t == r->bound.t ||
	     !fors_schedule_add_key(r->s, "usable", u)) &&
	    (!r->bound_lmc || !fors_schedule_add_key(r->s, "bound-lmc", l)) &&
	    (!r->bound_map || !fors_schedule_add_key(r->s, "bound-map", m)))
		return 0;
	fors_error_set(err, "out of memory");
	return FORS_ENOMEM;
}

/*
 * Phases of a searched schedule left without planes: each is split in
 * two at least, so s needs that many phases more than it has.
 */
static uint32_t unplaned(const struct fors_schedule *s, uint32_t m0)
{
	uint32_t p, n = 0;
	size_t i;

	for (p = 0; p < s->nphases; p++)
		for (i = s->start[p]; i < s->start[p + 1]; i++)
			if (s->xfers[i].src / m0 != s->xfers[i].dst / m0) {
				n += fors_xfer_plane(&s->xfers[i]) < 0;
				break;
			}
	return n;
}

/* Whether fors compacts: over the base map, with no leaves apart. */
static int compacts(const struct fors_route *r)
{
	return r->base && !r->fb->apart;
}

/*
 * Offset j of every (leaf, host) that r->om leaves to the tables (-1)
 * given the plane the tables route it through, where the pair has it at
 * no other offset: offset j's own base map, nominal plane designated + j
 * (lft.c, route_plane), so the tables stay as they were. nom: the
 * nominal planes. 0, or FORS_ENOMEM.
 */
static int own_offsets(struct fors_route *r, const struct fors_nominal *nom)
{
	const struct fors_fabric *fb = r->fb;
	struct fors_offmap *om = r->om;
	size_t n = (size_t)fb->m1 * fb->nhosts, i;
	uint16_t *map = malloc(sizeof(uint16_t) * (n + 1));
	uint32_t *des = malloc(sizeof(uint32_t) * (fb->nhosts + 1)), j, h;
	struct fors_basemap_in in = { fb, des, nom->group, nom->next,
				      FORS_SPREAD_NONE, 0 };
	int e = map && des ? 0 : FORS_ENOMEM;

	for (j = 1; !e && j < om->k; j++) {
		for (h = 0; h < fb->nhosts; h++)
			des[h] = (nom->designated[h] + j) % fb->q;
		e = fors_basemap_build(&in, map);
		for (i = 0; !e && i < n; i++)
			if (om->plane[i * om->k + j] < 0 &&
			    map[i] != FORS_BASEMAP_NONE &&
			    fors_offmap_offset(om, (uint32_t)(i / fb->nhosts),
					       (uint32_t)(i % fb->nhosts),
					       map[i]) < 0)
				om->plane[i * om->k + j] = (int16_t)map[i];
	}
	free(map);
	free(des);
	return e;
}

/*
 * Every offset above 0 of r->om that no transfer of s takes back to the
 * tables (-1): the offset map lists what the phases use (routing/
 * assign.h), and compaction may have moved a pair's transfers off one.
 * 0, or FORS_ENOMEM.
 */
static int drop_unused(struct fors_route *r, const struct fors_schedule *s)
{
	const struct fors_fabric *fb = r->fb;
	struct fors_offmap *om = r->om;
	size_t n = (size_t)fb->m1 * fb->nhosts * om->k, i;
	uint8_t *used = calloc(n + 1, 1);
	uint32_t l, h;
	int j;

	if (!used)
		return FORS_ENOMEM;
	for (i = 0; i < s->nxfers; i++) {
		l = s->xfers[i].src / fb->m0;
		h = (uint32_t)fb->host_at[s->xfers[i].dst];
		j = fors_offmap_offset(om, l, h, fors_xfer_plane(&s->xfers[i]));
		if (j > 0)
			used[((size_t)l * fb->nhosts + h) * om->k + (uint32_t)j] = 1;
	}
	for (i = 0; i < n; i++)
		if (i % om->k && !used[i])
			om->plane[i] = -1;
	free(used);
	return 0;
}

/*
 * For the schedule packed over the base map with several offsets per host
 * (r->om, 2^LMC of them), the planes of every (leaf, host) pair's offsets
 * by slot into a->plane, for compaction to choose each transfer's among
 * (own_offsets() first); else a->plane NULL. Not for Algorithm 1's
 * schedules: their offsets above 0 are mapped per leaf to planes chosen
 * with the phases, which pile a dead plane's destinations onto one cable
 * up for traffic spread over the offsets (UCX's lanes); compacted shorter,
 * they won where the packed try's offsets route as the tables' own
 * (comparison.md: the shift over four offsets after two cuts on one leaf
 * 0.917 of updn's, where it is at parity). Up to FORS_LEASTUSED_HOSTS
 * hosts. 0, or FORS_ENOMEM.
 */
static int offset_alts(struct fors_route *r, struct fors_compact_alts *a)
{
	const struct fors_fabric *fb = r->fb;
	size_t all = (size_t)fb->m0 * fb->m1, l, j;
	struct fors_nominal nom;
	int16_t *p;
	uint32_t h, k = r->om ? r->om->k : 1;
	int e;

	a->k = 1;
	a->plane = NULL;
	if (k < 2 || !r->assign.base_only || fb->nhosts > FORS_LEASTUSED_HOSTS)
		return 0;
	p = malloc(sizeof(int16_t) * (fb->m1 * all * k + 1));
	if (!p || fors_nominal_build(fb, &nom)) {
		free(p);
		return FORS_ENOMEM;
	}
	e = own_offsets(r, &nom);
	fors_nominal_free(&nom);
	if (e) {
		free(p);
		return e;
	}
	for (l = 0; l < fb->m1 * all * k; l++)
		p[l] = FORS_NO_PLANE;
	for (l = 0; l < fb->m1; l++)
		for (h = 0; h < fb->nhosts; h++)
			for (j = 0; j < k; j++)
				p[(l * all + fb->hosts[h].sid) * k + j] =
					r->om->plane[(l * fb->nhosts + h) * k + j];
	a->k = k;
	a->plane = p;
	return 0;
}

/*
 * pl compacted (schedule/compact.h) where fors compacts (compacts()):
 * its phases may be any partition that shares no host or cable, with
 * Algorithm 1's m0 - f where it is Algorithm 1's, and with several
 * offsets per host each transfer may move to another offset's plane of
 * its pair (offset_alts()). The phases it took off into *off.
 */
static int compacted(struct fors_route *r, struct fors_schedule *pl,
		     uint32_t *off, struct fors_error *err)
{
	const struct fors_fabric *fb = r->fb;
	int16_t *cable;
	struct fors_pack_params pk = { fb->q, NULL, NULL,
				       fors_schedule_is_cyclic(pl) ? 0 :
				       fb->m0 - fb->f, 0 };
	struct fors_compact_alts alts = { 0, NULL };
	uint32_t n = pl->nphases;
	int e = FORS_ENOMEM;

	*off = 0;
	if (!compacts(r))
		return 0;
	cable = plane_cables(fb);
	pk.cable = cable;
	if (cable)
		e = offset_alts(r, &alts);
	if (!e)
		e = fors_schedule_compact(pl, &pk, &alts);
	if (!e && alts.plane)
		e = drop_unused(r, pl);
	free(cable);
	free((int16_t *)alts.plane);
	if (e)
		fors_error_set(err, "out of memory");
	*off = n - pl->nphases;
	return e;
}

/*
 * The planes of s (which may take its transfers: routing/assign.h),
 * compacted; kept in *best (with its info) when it has fewer phases, the
 * phases compaction took off leaving the split first. Compacting every
 * candidate, not only the one chosen, takes the LHCb fabric at LMC 0 to
 * T*_L after one and two cuts on a leaf (341 and 345 phases when only
 * the chosen one was compacted). A searched schedule that cannot have
 * fewer phases than the best had before its compaction (r->raw) is not
 * assigned at all, and the assignment gives up once its splits take away
 * the chance: held against the best compacted, later tries were cut off
 * that compact shorter.
 */
static int candidate(struct fors_route *r, const struct fors_route_opts *o,
		     struct fors_schedule *s, uint32_t added,
		     struct fors_schedule **best, struct fors_assign_info *info,
		     struct fors_error *err)
{
	struct fors_offmap *om = r->om;	/* the best's offset map */
	struct fors_schedule *pl = NULL;
	uint32_t off = 0, most = *best ? r->raw : 0;
	int e;

	if (*best && (s->nphases >= most ||
		      (fors_schedule_is_cyclic(s) && !r->fb->apart &&
		       s->nphases + unplaned(s, r->fb->m0) >= most)))
		return 0;
	r->om = NULL;
	r->assign.split_cap = *best ? most - s->nphases : 0;
	e = planes(r, o, s, &pl, err);
	if (!e)
		e = compacted(r, pl, &off, err);
	if (!e && (!*best || pl->nphases < (*best)->nphases)) {
		fors_schedule_free(*best);
		fors_offmap_free(om);
		*best = pl;
		r->raw = pl->nphases + off;
		*info = r->assign;
		info->split += added;
		info->split -= off < info->split ? off : info->split;
		return 0;
	}
	fors_schedule_free(pl);
	fors_offmap_free(r->om);
	r->om = om;
	if (e == FORS_ELIMIT || (e && e != FORS_ENOMEM && *best))
		return 0;	/* the best so far stays */
	return e;
}

/*
 * The cyclic schedule's tries: twice at the bound (another placement),
 * then a phase or more above it, where a tight fabric leaves the search
 * room; each one only while the best so far still splits phases, and
 * while the phases times hosts of the tries so far are below
 * FORS_CYCLIC_CELLS: on a large fabric a failed try costs the subnet
 * manager a tenth of a second.
 */
static const uint32_t cyclic_above[FORS_CYCLIC_TRIES] = { 0, 0, 1, 2, 4 };

/*
 * The base map by slot, as the cyclic schedule takes it: [m1 * m0 * m1],
 * FORS_NO_PLANE where none; NULL when out of memory.
 */
static int16_t *fixed_by_slot(const struct fors_route *r)
{
	const struct fors_fabric *fb = r->fb;
	size_t all = (size_t)fb->m0 * fb->m1, l, i;
	int16_t *f = malloc(sizeof(int16_t) * (fb->m1 * all + 1));
	uint32_t h;

	for (i = 0; f && i < fb->m1 * all; i++)
		f[i] = FORS_NO_PLANE;
	for (l = 0; f && l < fb->m1; l++)
		for (h = 0; h < fb->nhosts; h++)
			if (r->base[l * fb->nhosts + h] != FORS_BASEMAP_NONE)
				f[l * all + fb->hosts[h].sid] =
					(int16_t)r->base[l * fb->nhosts + h];
	return f;
}

/*
 * Algorithm 1's schedule over the base map's planes alone, packed
 * (schedule/pack.h): with one LID offset its phases could only split.
 * The phases packing added (*added) count as split. Where most of its
 * transfers would move, it is built again as it was.
 */
static int packed(struct fors_route *r, struct fors_schedule **abs,
		  uint8_t **present, uint32_t *added, uint32_t limit,
		  struct fors_error *err)
{
	const struct fors_fabric *fb = r->fb;
	int16_t *fixed = fixed_by_slot(r), *cable = plane_cables(fb);
	struct fors_pack_params pk = { fb->q, cable, fixed, fb->m0 - fb->f,
				       limit };
	int e = FORS_ENOMEM;

	*added = (*abs)->nphases;
	if (fixed && cable)
		e = fors_schedule_pack(*abs, &pk, err);
	else
		fors_error_set(err, "out of memory");
	*added = e ? 0 : (*abs)->nphases - *added;
	free(fixed);
	free(cable);
	if (e == FORS_ELIMIT && !limit) {
		fors_schedule_free(*abs);
		free(*present);
		e = schedule(r, present, abs, err);
	}
	return e;
}

/*
 * The base map (doc/narrow-lmc.md, "One offset for everyone"): the cyclic
 * schedule with the hosts in order over the base map's own planes, at
 * the bound and on the smallest circle above it whose size the most live
 * planes of a leaf divide, where the base map repeats itself around the
 * circle and a healthy tree needs no search. Each kept as a candidate
 * where it has fewer phases, its phases above the bound counted as split:
 * the base map cost them.
 */
static int fixed_tries(struct fors_route *r, const struct fors_route_opts *o,
		       const uint8_t *present, struct fors_schedule **pl,
		       struct fors_assign_info *info, struct fors_error *err)
{
	const struct fors_fabric *fb = r->fb;
	struct fors_schedule *cyc = NULL;
	uint32_t l, p, u, most = 1, t[2], k;
	int16_t *fixed;
	int e = 0;

	if (!r->base || o->algorithm1 || fb->apart ||
	    (uint64_t)r->usable.t * fb->nhosts > FORS_CYCLIC_CELLS)
		return 0;
	for (l = 0; l < fb->m1; l++) {
		for (p = 0, u = 0; p < fb->q; p++)
			u += fors_plane_live(fb, l, p);
		most = u > most ? u : most;
	}
	t[0] = r->usable.t;
	t[1] = (r->usable.t + 1 + most - 1) / most * most - 1;
	fixed = fixed_by_slot(r);
	if (!fixed)
		e = FORS_ENOMEM;
	for (k = 0; !e && k < 2 && (!k || t[1] != t[0]); k++) {
		e = cyclic(r, o, present, t[k], k, fixed, &cyc, err);
		if (!e && cyc)
			e = candidate(r, o, cyc, cyc->nphases - t[0], pl,
				      info, err);
		fors_schedule_free(cyc);
		cyc = NULL;
	}
	free(fixed);
	if (e == FORS_ENOMEM)
		fors_error_set(err, "out of memory");
	return e;
}

/*
 * Above LMC 0, Algorithm 1's schedule built again for another try against
 * the best so far *pl: with the base planes in the phases' lists (on a
 * fabric with few planes an offset of their own is most of what a pair
 * has), or, with pack, packed over the base map as at LMC 0 (packed()),
 * each transfer on offset 0 where its phase fits, so that a larger LMC
 * never costs the exchange more than LMC 0; the packing stops once it has
 * as many phases as *pl.
 */
static int again(struct fors_route *r, const struct fors_route_opts *o,
		 int pack, struct fors_schedule **pl,
		 struct fors_assign_info *info, struct fors_error *err)
{
	struct fors_schedule *abs = NULL;
	uint8_t *present = NULL;
	uint32_t added = 0;
	int e = schedule(r, &present, &abs, err);

	if (!e && pack)
		e = packed(r, &abs, &present, &added,
			   *pl ? (*pl)->nphases : 0, err);
	if (!e) {
		r->assign.base_only = pack;
		r->assign.see_base = !pack;
		e = candidate(r, o, abs, added, pl, info, err);
		r->assign.base_only = r->assign.see_base = 0;
		info->base_only = info->see_base = 0;
	}
	fors_schedule_free(abs);
	free(present);
	return e == FORS_ELIMIT ? 0 : e;
}

/* Whether the best so far is missing or above the bound. */
static int above(const struct fors_route *r, const struct fors_schedule *pl)
{
	return !pl || pl->nphases > r->usable.t;
}

/*
 * The packed try (again()'s, over the base map) compacted before it is
 * held against the best *pl, which it replaces where shorter: again()
 * drops a packing once it is as long as the best, where compaction would
 * take it below (the LHCb fabric at LMC 2 with cuts on three leaves:
 * Algorithm 1's 358 phases, the packing compacted 340), and a larger LMC
 * would cost the exchange more than LMC 0. Tried only where the best is
 * more than 1% above the bound: FT(2;20,18) with one cut at LMC 2 keeps
 * 361 phases (T* 359) either way, in 0.1 s where the try takes 1.1.
 */
static int packed_compacted(struct fors_route *r,
			    const struct fors_route_opts *o,
			    struct fors_schedule **pl,
			    struct fors_assign_info *info,
			    struct fors_error *err)
{
	struct fors_offmap *om = r->om;	/* the best's offset map */
	struct fors_schedule *alt = NULL;
	struct fors_assign_info ai = { 0 };
	uint32_t raw = r->raw;
	int e;

	r->om = NULL;
	e = again(r, o, 1, &alt, &ai, err);
	if (!e && alt && alt->nphases < (*pl)->nphases) {
		fors_schedule_free(*pl);
		fors_offmap_free(om);
		*pl = alt;
		*info = ai;
		return 0;
	}
	fors_schedule_free(alt);
	fors_offmap_free(r->om);
	r->om = om;
	r->raw = raw;
	return e == FORS_ENOMEM ? e : 0;
}

/*
 * The chosen schedule *pl (compacted, as every candidate), with try set
 * (above LMC 0, with the base map) and while it is above the bound, held
 * against again()'s with the base planes in the lists; then, more than
 * 1% above the bound, against the packed try, compacted before it is
 * compared (packed_compacted) as every candidate is.
 */
static int finished(struct fors_route *r, const struct fors_route_opts *o,
		    int try, struct fors_schedule **pl,
		    struct fors_assign_info *info, struct fors_error *err)
{
	int e = 0;

	if (try && above(r, *pl))
		e = again(r, o, 0, pl, info, err);
	if (!e && try && compacts(r) && *pl &&
	    (uint64_t)(*pl)->nphases * 100 > (uint64_t)r->usable.t * 101)
		e = packed_compacted(r, o, pl, info, err);
	return e;
}

/*
 * The fewest phases over the base map at LMC 0: its busiest cable's
 * transfers (r->bound_map), or T*_L, or T* of the cables the schedule may
 * use, where more. Every candidate there takes the base map's routes.
 */
static uint32_t map_floor(const struct fors_route *r)
{
	uint32_t t = r->bound_lmc > r->usable.t ? r->bound_lmc : r->usable.t;

	return r->bound_map > t ? r->bound_map : t;
}

/*
 * The base map at LMC 0 in rounds (schedule/rounds.h), where every slot
 * takes part: a full tree after a cut takes T*_L so, where Algorithm 1's
 * phases packed over the map left the NDR tree 32% above it
 * (doc/narrow-lmc.md, "Rounds"). A candidate as the others; none where
 * some pair has no plane of the map.
 */
static int in_rounds(struct fors_route *r, const struct fors_route_opts *o,
		     struct fors_schedule **pl, struct fors_assign_info *info,
		     struct fors_error *err)
{
	const struct fors_fabric *fb = r->fb;
	struct fors_sched_params sp = { fb->m0, fb->m1, fb->f, NULL };
	int16_t *fixed, *cable;
	struct fors_pack_params pk = { fb->q, NULL, NULL, 0, 0 };
	struct fors_schedule *s = NULL;
	int e = FORS_ENOMEM;

	*pl = NULL;
	if (o->algorithm1 || fb->apart || r->njoin < fb->m0 * fb->m1)
		return 0;
	fixed = fixed_by_slot(r);
	cable = plane_cables(fb);
	pk.fixed = fixed;
	pk.cable = cable;
	if (fixed && cable)
		e = fors_schedule_rounds(&sp, &pk, &s, err);
	else
		fors_error_set(err, "out of memory");
	if (!e && s && (uint64_t)s->nphases * 10 <= (uint64_t)map_floor(r) * 11)
		e = candidate(r, o, s, s->nphases > r->usable.t ?
				       s->nphases - r->usable.t : 0,
			      pl, info, err);
	fors_schedule_free(s);
	free(fixed);
	free(cable);
	return e;
}

/* Whether every transfer of s between leaves is on one of its pair's maps. */
static int on_maps(const struct fors_fabric *fb, const struct fors_schedule *s,
		   const struct fors_shift_maps *m)
{
	size_t all = (size_t)fb->m0 * fb->m1, i;
	uint32_t j;

	for (i = 0; i < s->nxfers; i++) {
		const struct fors_xfer *x = &s->xfers[i];
		const int16_t *o = &m->plane[((size_t)(x->src / fb->m0) * all +
					      x->dst) * m->k];
		int32_t pl = fors_xfer_plane(x);

		for (j = 0; pl >= 0 && j < m->k && o[j] != pl; j++)
			;
		if (pl >= 0 && j == m->k)
			return 0;
	}
	return 1;
}

/*
 * The offsets of the shift that won as its maps: offset 1 + i of every
 * pair on map i, the rest left to the tables (-1). Traffic spread over
 * the offsets (UCX's lanes) then meets rotations of one map balanced as
 * the base map is, not each pair's planes in the order its transfers came
 * (the LHCb fabric healthy at LMC 2, the shift over four offsets: 0.868
 * of the best of OpenSM's engines that way). Only where the assignment
 * left every transfer on its maps, as it does where it keeps the planes.
 */
static void as_maps(struct fors_route *r, const struct fors_schedule *s,
		    const struct fors_shift_maps *m)
{
	const struct fors_fabric *fb = r->fb;
	struct fors_offmap *om = r->om;
	size_t all = (size_t)fb->m0 * fb->m1;
	uint32_t l, h, j;

	if (!om || m->k >= om->k || !on_maps(fb, s, m))
		return;
	for (l = 0; l < fb->m1; l++)
		for (h = 0; h < fb->nhosts; h++)
			for (j = 1; j < om->k; j++)
				om->plane[((size_t)l * fb->nhosts + h) * om->k + j] =
					j > m->k ? -1 :
					m->plane[((size_t)l * all + fb->hosts[h].sid) *
						 m->k + j - 1];
}

/*
 * Above LMC 0, where every leaf reaches every spine by one cable: the
 * shift over the hosts in order with its planes (schedule/shift.h), n - 1
 * phases, where its moves fit the offsets beside the base map's. A
 * candidate as the others, each transfer keeping its plane (given); where
 * it wins, its offsets become its maps (as_maps). The LHCb fabric healthy
 * at LMC 2 takes T*, 325 phases (331 from the others, doc/narrow-lmc.md).
 */
static int shifted(struct fors_route *r, const struct fors_route_opts *o,
		   const uint8_t *present, struct fors_schedule **pl,
		   struct fors_assign_info *info, struct fors_error *err)
{
	const struct fors_fabric *fb = r->fb;
	struct fors_shift_params sp = { fb->m0, fb->m1, fb->f, fb->q,
					present, (1u << o->lmc) - 1 };
	struct fors_schedule *s = NULL, *was = *pl;
	struct fors_shift_maps maps;
	uint32_t l, p;
	int e;

	if (o->algorithm1 || fb->apart || fb->q != fb->nspines)
		return 0;
	for (l = 0; l < fb->m1; l++)
		for (p = 0; p < fb->q; p++)
			if (!fors_plane_live(fb, l, p))
				return 0;
	e = fors_schedule_shift(&sp, &s, &maps, err);
	if (!e && s) {
		r->assign.given = 1;
		e = candidate(r, o, s, 0, pl, info, err);
		r->assign.given = info->given = 0;
	}
	if (!e && s && *pl != was)
		as_maps(r, *pl, &maps);
	fors_schedule_free(s);
	fors_shift_maps_free(&maps);
	return e;
}

/*
 * The schedule with its planes: Algorithm 1's where it is at the bound
 * with its planes, else the cyclic one while the best so far has more
 * phases than the try asks for, and Algorithm 1's if that comes out
 * shorter. With fewer LID offsets than planes Algorithm 1's comes first
 * (the offset maps are chosen with the phases, doc/narrow-lmc.md), and on
 * a fabric within FORS_CYCLIC_CELLS one cyclic placement is tried, its
 * assignment stopped once its splits leave it no shorter.
 */
static int planned(struct fors_route *r, const struct fors_route_opts *o,
		   struct fors_schedule **pl, struct fors_error *err)
{
	int few = o->lmc < 8 && (1u << o->lmc) < r->fb->q, alg1 = 0;
	struct fors_schedule *abs = NULL, *cyc = NULL;
	struct fors_assign_info info = { 0 };
	uint8_t *present = NULL;
	uint64_t cells = 0;
	struct building g;
	uint32_t k, added = 0;
	int e = 0;

	*pl = NULL;
	if (few && r->base && !o->lmc)
		e = in_rounds(r, o, pl, &info, err);
	if (e || (*pl && (*pl)->nphases <= map_floor(r))) {
		r->assign = info;
		return e;
	}
	e = few ? building(r, &present, &abs, &g, err) :
		  schedule(r, &present, &abs, err);
	if (!e && few && r->base && !o->lmc) {
		building_end(&g);
		e = packed(r, &abs, &present, &added, 0, err);
	}
	if (!e && (few || o->algorithm1 || abs->nphases <= r->usable.t)) {
		r->assign.built = few ? g.done : NULL;
		e = candidate(r, o, abs, added, pl, &info, err);
		r->assign.built = info.built = NULL;
		alg1 = 1;
	}
	if (few)
		building_end(&g);
	for (k = 0; !e &&
	     (!few || (!k && (uint64_t)r->usable.t *
			    r->fb->nhosts <= FORS_CYCLIC_CELLS)) &&
	     !o->algorithm1 && k < FORS_CYCLIC_TRIES &&
	     cells < FORS_CYCLIC_CELLS &&
	     (!*pl || (*pl)->nphases > r->usable.t + cyclic_above[k]); k++) {
		cells += (uint64_t)(r->usable.t + cyclic_above[k]) *
			 r->fb->nhosts;
		e = cyclic(r, o, present, r->usable.t + cyclic_above[k], k,
			   NULL, &cyc, err);
		if (!cyc)
			break;
		if (!e)
			e = candidate(r, o, cyc, 0, pl, &info, err);
		fors_schedule_free(cyc);
	}
	if (!e && !alg1 && above(r, *pl))
		e = candidate(r, o, abs, added, pl, &info, err);
	if (!e && few && above(r, *pl))
		e = fixed_tries(r, o, present, pl, &info, err);
	if (!e && few && r->base && o->lmc && above(r, *pl))
		e = shifted(r, o, present, pl, &info, err);
	if (!e)
		e = finished(r, o, few && r->base && o->lmc, pl, &info, err);
	r->assign = info;
	fors_schedule_free(abs);
	free(present);
	return e;
}

/*
 * Guarantee 4 where the theorem applies (every slot takes part, f above
 * M0 / M1): a cyclic schedule above P_f and the bounds, because its tries
 * at fewer phases could not be placed, declares the phases above them as
 * split, as Algorithm 1 declares the phases its splits add; fors check
 * accepts exactly that many. Found by the soak (seed 97054, event 34):
 * 79 phases where P_f and T* are 75 and Algorithm 1 needs 95, refused by
 * the plugin's own verification.
 */
static void cyclic_excess(struct fors_route *r, const struct fors_schedule *pl)
{
	const struct fors_fabric *fb = r->fb;
	uint32_t top = fors_pf(fb->m0, fb->m1, fb->f);

	if (!fors_schedule_is_cyclic(pl) || r->njoin < fb->m0 * fb->m1 ||
	    fb->f <= fb->m0 / fb->m1)
		return;
	top = r->bound.t > top ? r->bound.t : top;
	top = r->usable.t > top ? r->usable.t : top;
	if (pl->nphases > top + r->assign.split)
		r->assign.split = pl->nphases - top;
}

/*
 * The routed schedule from the planes (routing/routed.h) while the tables
 * are filled: its DLIDs need only the build's LIDs and designated planes.
 */
static int routed(struct fors_route *r, const struct fors_topology *live,
		  struct fors_lfts_job *job, struct fors_schedule *pl,
		  struct fors_error *err)
{
	struct fors_error spare;
	int e = fors_routed_schedule(fors_lfts_lids(job), live, r->fb,
				     r->joins, r->om, pl, &r->assign, &r->s,
				     err);
	int f = fors_lfts_end(job, &r->lfts, e ? &spare : err);

	return e ? e : f;
}

/*
 * Random permutations choose_map() follows: with 200 the time of one map
 * varied by 2% from sample to sample at 326 hosts; 1,000 take 2 ms.
 */
#define PERMS 1000

/* What a map of the base LIDs costs: see choose_map(). */
struct map_cost {
	uint32_t bound;		/* fors_map_bound */
	uint64_t shift;		/* fors_map_shift_time */
	uint64_t perms;		/* fors_map_perm_time, PERMS of them */
	uint64_t together;	/* (leaf, sibling ports) through one spine */
};

/* Sibling ports of nom's nodes that one leaf sends through one spine. */
static uint64_t together(const struct fors_fabric *fb,
			 const struct fors_nominal *nom, const uint16_t *map)
{
	const uint16_t *m;
	uint64_t c = 0;
	uint32_t l, h, g;

	for (l = 0; l < fb->m1; l++)
		for (m = map + (size_t)l * fb->nhosts, h = 0; h < fb->nhosts; h++)
			for (g = nom->group[h]; g < h; g = nom->next[g])
				c += m[g] != FORS_BASEMAP_NONE &&
				     m[h] != FORS_BASEMAP_NONE &&
				     fb->plane_spine[m[g]] ==
				     fb->plane_spine[m[h]];
	return c;
}

/* map's costs into c: 0, or FORS_ENOMEM. */
static int cost_of(const struct fors_route *r, const struct fors_nominal *nom,
		   const uint16_t *map, struct map_cost *c)
{
	c->bound = fors_map_bound(r->fb, map, r->joins);
	c->shift = fors_map_shift_time(r->fb, map);
	c->perms = fors_map_perm_time(r->fb, map, PERMS);
	c->together = together(r->fb, nom, map);
	return c->bound == UINT32_MAX || c->shift == UINT64_MAX ||
	       c->perms == UINT64_MAX ? FORS_ENOMEM : 0;
}

/*
 * Candidate c of choose_map() into alt: the base map with its fallbacks
 * capped up as well as down (c 0), with every leaf's shared hosts spread
 * (1), the map turned with each leaf's first host (2), or with the leaves
 * in c - 1 runs (fors_basemap_turned).
 */
static int map_candidate(const struct fors_fabric *fb,
			 const struct fors_basemap_in *in, uint32_t c,
			 uint16_t *alt)
{
	struct fors_basemap_in alike = *in;

	alike.cap_up = !c;
	alike.spread = c ? FORS_SPREAD_ALL : in->spread;
	if (c > 1)
		fors_basemap_turned(fb, c == 2 ? 0 : c - 1, alt);
	return c > 1 ? 0 : fors_basemap_build(&alike, alt);
}

/* c gives the shift pct% of m's throughput or more. */
static int shifts(const struct map_cost *c, const struct map_cost *m,
		  uint64_t pct)
{
	return pct * c->shift <= 100 * m->shift;
}

/* c serves the other jobs at pct% of m's throughput or more. */
static int serves(const struct map_cost *c, const struct map_cost *m,
		  uint64_t pct)
{
	return shifts(c, m, pct) && pct * c->perms <= 100 * m->perms;
}

/* The maps choose_map() weighs, and the one it holds. */
struct map_pick {
	struct map_cost base;	/* the base map */
	struct map_cost mh;	/* minhop's (not with phases) */
	struct map_cost first;	/* the base map at parity, else minhop's */
	struct map_cost best;	/* the map held */
	int phases;		/* base_lids phases */
};

/*
 * Candidate c may replace the map held: a lower bound, no more sibling
 * ports on one spine than the base map, and for everyone parity with
 * minhop's (0.98 of its shift and permutations) and within 1% of the map
 * chosen first or 0.99 of minhop's; for the phases within 1% of the base
 * map. The map capped up (capped) keeps the shift within 1% of the first
 * map, not only of minhop's: its cap overrides the fallback rules that
 * serve the shift, and after cuts on three leaves OpenSM's updn gives the
 * shift 0.5175 where minhop gives 0.470 and the base map 0.510 (the sixth
 * rule, doc/routing.md), the map capped up 0.501.
 */
static int may_replace(const struct map_pick *p, const struct map_cost *c,
		       int capped)
{
	if (c->bound >= p->best.bound || c->together > p->base.together)
		return 0;
	if (p->phases)
		return serves(c, &p->base, 99);
	if (capped && !shifts(c, &p->first, 99))
		return 0;
	return serves(c, &p->mh, 98) &&
	       (serves(c, &p->first, 99) || serves(c, &p->mh, 99));
}

/*
 * OpenSM minhop's map (routing/leastused.h) into alt and its costs into
 * p->mh; in place of the base map (map) where the base map gives the shift or
 * the permutations less than 0.98 of its throughput, the parity issue 48
 * asks. 0, or FORS_ENOMEM.
 */
static int minhop_first(struct fors_route *r, const struct fors_nominal *nom,
			uint16_t *map, uint16_t *alt, struct map_pick *p)
{
	int e = fors_leastused_build(r->fb, nom->group, nom->next, alt);

	if (!e)
		e = cost_of(r, nom, alt, &p->mh);
	if (!e && !serves(&p->base, &p->mh, 98)) {
		memcpy(map, alt, sizeof(uint16_t) * r->fb->m1 * r->fb->nhosts);
		p->best = p->first = p->mh;
	}
	return e;
}

/*
 * The map held (map) with its bound lowered toward floor (routing/
 * lower.h), the shift's time kept where may_replace() takes it for the
 * map capped up: within 1% of the first map's and 2% of minhop's (for
 * the phases, 1% of the base map's); held where may_replace() takes it.
 * After three cuts on each of three leaves of the LHCb fabric: 380 to
 * 360, the shift as it was (doc/narrow-lmc.md, "Lowered").
 */
static int lowered(struct fors_route *r, const struct fors_nominal *nom,
		   uint16_t *map, uint16_t *alt, uint32_t floor,
		   struct map_pick *p)
{
	size_t n = (size_t)r->fb->m1 * r->fb->nhosts;
	uint64_t most = p->phases ? 100 * p->base.shift / 99 :
				    100 * p->first.shift / 99;
	struct map_cost c;
	int e;

	if (!p->phases && 100 * p->mh.shift / 98 < most)
		most = 100 * p->mh.shift / 98;
	memcpy(alt, map, sizeof(uint16_t) * n);
	e = fors_map_lower(r->fb, r->joins, floor, most, alt);
	if (!e)
		e = cost_of(r, nom, alt, &c);
	if (!e && may_replace(p, &c, 1)) {
		memcpy(map, alt, sizeof(uint16_t) * n);
		p->best = c;
	}
	return e;
}

/*
 * The base map of every host into map, in place of the one built from nom
 * that it holds: minhop's
 * where that misses parity (minhop_first; not with phases), then the
 * map_candidate() of the lowest bound for the exchange (fors_map_bound)
 * that may_replace() it, until one is at floor, T*_L of one route. After
 * dead spines the nominal planes put a leaf's two hosts on one cable down
 * from every leaf: on the LHCb fabric without two spines 612 phases at
 * least, 342 spread; after cuts on three leaves of the paper's fabric the
 * base map gives the shift 0.96 of minhop's, whose bound is 680, and
 * turned in four runs 440 at parity (doc/narrow-lmc.md). Up to
 * FORS_LEASTUSED_HOSTS hosts, as the patterns are followed phase by phase.
 */
static int choose_map(struct fors_route *r, const struct fors_basemap_in *in,
		      const struct fors_nominal *nom, uint16_t *map,
		      uint32_t floor, int phases)
{
	const struct fors_fabric *fb = r->fb;
	size_t n = (size_t)fb->m1 * fb->nhosts;
	struct map_pick p = { .phases = phases };
	struct map_cost c;
	uint16_t *alt;
	uint32_t k, last = (fb->m1 < fb->q ? fb->m1 : fb->q) + 1;
	int e;

	if (fb->nhosts > FORS_LEASTUSED_HOSTS)
		return 0;
	alt = malloc(sizeof(uint16_t) * (n + 1));
	e = alt ? cost_of(r, nom, map, &p.base) : FORS_ENOMEM;
	p.best = p.first = p.base;
	if (!e && !phases)
		e = minhop_first(r, nom, map, alt, &p);
	for (k = 0; !e && p.best.bound > floor && k <= last; k++) {
		e = map_candidate(fb, in, k, alt);
		if (!e)
			e = cost_of(r, nom, alt, &c);
		if (e || !may_replace(&p, &c, !k))
			continue;
		memcpy(map, alt, sizeof(uint16_t) * n);
		p.best = c;
	}
	if (!e && p.best.bound > floor)
		e = lowered(r, nom, map, alt, floor, &p);
	free(alt);
	return e;
}

/*
 * Fewer offsets than planes, single cables, and the base LIDs for every
 * job (not o->exchange_lids): the base map of offset 0 (basemap.h, as
 * choose_map() picks it), the tables' own, for the assignment to keep
 * (routing/assign.h). With parallel cables a spine sends an offset down
 * one cable for every leaf, which the base map's fallbacks do not
 * promise: the phases choose there. floor: T*_L of one route, which no
 * map goes under.
 */
static int base_map(struct fors_route *r, const struct fors_route_opts *o,
		    uint32_t floor, struct fors_error *err)
{
	const struct fors_fabric *fb = r->fb;
	struct fors_nominal nom;
	struct fors_basemap_in in;
	int e;

	if (o->exchange_lids || o->lmc >= 8 || (1u << o->lmc) >= fb->q ||
	    fb->q != fb->nspines)
		return 0;
	e = fors_nominal_build(fb, &nom);
	r->base = e ? NULL : malloc(sizeof(uint16_t) *
				    ((size_t)fb->m1 * fb->nhosts + 1));
	if (r->base) {
		in = (struct fors_basemap_in){ fb, nom.designated, nom.group,
					       nom.next, FORS_SPREAD_CUT, 0 };
		e = fors_basemap_build(&in, r->base);
		if (!e)
			e = choose_map(r, &in, &nom, r->base, floor,
				       o->phases_first);
	}
	fors_nominal_free(&nom);
	if (!e && r->base && !o->lmc) {
		r->bound_map = fors_map_bound(fb, r->base, r->joins);
		e = r->bound_map == UINT32_MAX ? FORS_ENOMEM : 0;
	}
	if (!e && !r->base)
		e = FORS_ENOMEM;
	if (e)
		fors_error_set(err, "out of memory");
	r->assign.base = r->base;
	return e;
}

/*
 * One offset per plane or more, single cables, and the base LIDs for
 * every job (not o->exchange_lids): offset 0 on minhop's map where the
 * nominal planes miss parity (choose_map(), which has no bound to lower
 * here), its plane traded with the offset nominally on it
 * (routing/wide.h), so the exchange keeps every plane. Up to
 * FORS_LEASTUSED_HOSTS hosts.
 */
static int wide_map(struct fors_route *r, const struct fors_route_opts *o,
		    struct fors_error *err)
{
	const struct fors_fabric *fb = r->fb;
	size_t n = (size_t)fb->m1 * fb->nhosts;
	struct fors_nominal nom;
	struct fors_basemap_in in;
	uint16_t *held = NULL;
	int e;

	if (o->exchange_lids || o->lmc >= 8 || (1u << o->lmc) < fb->q ||
	    fb->q != fb->nspines || fb->nhosts > FORS_LEASTUSED_HOSTS)
		return 0;
	e = fors_nominal_build(fb, &nom);
	if (!e)
		held = malloc(sizeof(uint16_t) * (2 * n + 1));
	if (held) {
		in = (struct fors_basemap_in){ fb, nom.designated, nom.group,
					       nom.next, FORS_SPREAD_NONE, 0 };
		e = fors_basemap_build(&in, held);
		if (!e) {
			memcpy(held + n, held, sizeof(uint16_t) * n);
			e = choose_map(r, &in, &nom, held + n, UINT32_MAX, 0);
		}
		if (!e)
			e = fors_offmap_wide(fb, nom.designated, held, held + n,
					     o->lmc, &r->om);
	}
	if (!e && !held)
		e = FORS_ENOMEM;
	fors_nominal_free(&nom);
	free(held);
	if (e)
		fors_error_set(err, "out of memory");
	return e;
}

/*
 * Each stage's product feeds the next; the planes become the routed
 * schedule.
 */
static int stages(struct fors_route *r, const struct fors_topology *live,
		  const struct fors_route_opts *o, struct fors_error *err)
{
	struct fors_schedule *pl = NULL;
	struct fors_lfts_job *job;
	int few = o->lmc < 8 && (1u << o->lmc) < r->fb->q;
	uint32_t one = 1;
	int e;

	e = bound(r, 1, &r->bound, few ? &one : NULL, err);
	r->bound_lmc = !few ? 0 : o->lmc ? r->bound.t : one;
	r->usable = r->bound;
	if (!e && holds(r))
		e = bound(r, 0, &r->usable, NULL, err);
	if (!e)
		e = base_map(r, o, one, err);
	if (!e)
		e = planned(r, o, &pl, err);
	if (!e)
		cyclic_excess(r, pl);
	if (!e && !few)
		e = wide_map(r, o, err);
	if (!e)
		e = fors_lfts_begin(live, r->fb, o->lmc, o->renumber_lids,
				    r->om, &job, err);
	if (!e) {
		e = routed(r, live, job, pl, err);
		if (!e && r->fb->apart) {
			pl = r->s;
			r->s = NULL;
			e = fors_detour_pack(r->lfts, live, r->fb, r->joins, pl,
					     &r->s, &r->detour, err);
		}
		return e ? e : bound_key(r, err);
	}
	fors_schedule_free(pl);
	return e;
}

uint32_t fors_route_spine_hosts(const struct fors_route *r, char *names,
				size_t len)
{
	const struct fors_fabric *fb = r->fb;
	uint32_t i, n = 0;
	size_t at = 0;

	names[0] = '\0';
	for (i = 0; i < fb->nparts; i++) {
		const struct fors_fpart *c = &fb->parts[i];

		if (c->kind != FORS_PART_SPINE_HOST)
			continue;
		if (n++ < 3 && at < len)
			at += (size_t)snprintf(names + at, len - at,
					       "%s\"%s\" on \"%s\"",
					       at ? ", " : "",
					       r->live->nodes[c->node].desc,
					       r->live->nodes[c->sw].desc);
	}
	if (n > 3 && at < len)
		snprintf(names + at, len - at, ", ...");
	return n;
}

/* A site that wants no host off the leaves. */
static int spine_hosts(const struct fors_route *r, struct fors_error *err)
{
	char names[256];
	uint32_t n = fors_route_spine_hosts(r, names, sizeof(names));

	if (!n)
		return 0;
	fors_error_set(err, "%u host port%s on spines (%s), which this site refuses (spine_hosts refuse)",
		       n, n == 1 ? "" : "s", names);
	return FORS_EINVAL;
}

/*
 * Who takes part in the exchange: every host port, or those whose port
 * GUID the options list. The others keep their LIDs and routes and get
 * no transfer; a list that leaves nobody is refused.
 */
static int participants(struct fors_route *r, const struct fors_route_opts *o,
			struct fors_error *err)
{
	const struct fors_fabric *fb = r->fb;
	uint32_t h;

	r->joins = malloc(fb->nhosts + 1);
	if (!r->joins) {
		fors_error_set(err, "out of memory");
		return FORS_ENOMEM;
	}
	for (h = 0; h < fb->nhosts; h++) {
		r->joins[h] = !o->participants ||
			      bsearch(&fb->hosts[h].guid, o->participants,
				      o->nparticipants, sizeof(uint64_t),
				      cmp_guid);
		r->njoin += r->joins[h];
	}
	if (r->njoin || !fb->nhosts)
		return 0;
	fors_error_set(err, "none of the %u host ports is a participant (%zu port GUIDs listed)",
		       fb->nhosts, o->nparticipants);
	return FORS_EINVAL;
}

/*
 * On a fabric with leaves apart a schedule's count is known only once the
 * detours are placed, after the tables: a cyclic one chosen at fewer
 * phases than Algorithm 1's may come out longer. Algorithm 1's whole
 * routing is computed too, and *r replaced by it when it is shorter.
 */
static void shorter_alg1(struct fors_route **r,
			 const struct fors_topology *live,
			 const struct fors_topology *ref,
			 const struct fors_route_opts *o)
{
	struct fors_route_opts o1 = *o;
	struct fors_route *a1;
	struct fors_error e2;

	if (!(*r)->fb->apart || !fors_schedule_is_cyclic((*r)->s) ||
	    o->algorithm1)
		return;
	o1.algorithm1 = 1;
	if (fors_route_compute(live, ref, &o1, &a1, &e2))
		return;
	if (a1->s->nphases < (*r)->s->nphases) {
		fors_route_free(*r);
		*r = a1;
		return;
	}
	fors_route_free(a1);
}

int fors_route_compute(const struct fors_topology *live,
		       const struct fors_topology *ref,
		       const struct fors_route_opts *o, struct fors_route **out,
		       struct fors_error *err)
{
	struct fors_route *r = calloc(1, sizeof(*r));
	int e;

	*out = NULL;
	if (!r) {
		fors_error_set(err, "out of memory");
		return FORS_ENOMEM;
	}
	r->live = live;
	e = fors_fabric_analyse(live, ref, &r->fb, err);
	if (!e && o->refuse_spine_hosts)
		e = spine_hosts(r, err);
	if (!e)
		e = participants(r, o, err);
	if (!e)
		e = stages(r, live, o, err);
	if (e) {
		fors_route_free(r);
		return e;
	}
	shorter_alg1(&r, live, ref, o);
	*out = r;
	return 0;
}
