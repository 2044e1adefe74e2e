// SPDX-License-Identifier: MIT
/*
 * Every promise the checkers make, broken on purpose: a routed fabric with
 * one known defect in its tables or its schedule, and the exact count and
 * message the checker must report. A checker that lost a rule would still
 * say "0 shared" on good tables; here it must find what is there.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric_util.h"
#include "route_util.h"
#include "schedule/cyclic.h"
#include "schedule/schedule.h"
#include "suite.h"
#include "verify/transition.h"
#include "verify/verify.h"

/*
 * FT(2;4,4) at LMC 2 (an offset per plane): L00 - S00 cut (CUT), or
 * healthy (HEALTHY), or healthy with host slot 13 empty (ABSENT), which
 * leaves a plane free up from and down into leaf 3 in some phases, or
 * healthy with dual-port hosts in slots 0 and 1 of L00 and L02, their
 * second ports on L01 and L03 (DUAL), or healthy with an Aggregation Node
 * behind every switch and the LIDs a subnet manager would give (AGG).
 * LAID is FT(2;4,4) at LMC 0 with L00 - S00 cut and slot 13 empty: more
 * transfers than (leaf, LID) routes, so the checker lays each route out
 * once and judges it there (verify/follow.c); the others follow each
 * transfer through the tables.
 */
enum { CUT, HEALTHY, ABSENT, DUAL, AGG, LAID };

struct fix {
	struct fors_topology *live, *ref;
	struct fors_route *r;
	struct fors_lft_dump *d;
	struct fors_check_report rep;
	struct fors_error err;
};

static void fix_open(struct fix *f, int kind)
{
	uint8_t cut[16] = { 1 }, absent[16] = { 0 };
	uint32_t dual = kind == DUAL ? 2 : 0;
	struct fors_netgen g = { 4, 4, 4, 1,
				 kind == ABSENT || kind == LAID ? absent : NULL,
				 dual, kind == CUT || kind == LAID ? cut : NULL,
				 NULL, kind == AGG, 0 };
	struct fors_netgen h = { 4, 4, 4, 1, NULL, dual, NULL, NULL,
				 kind == AGG, 0 };
	struct fors_route_opts o = { .lmc = kind == LAID ? 0 : 2 };

	memset(f, 0, sizeof(*f));
	absent[13] = 1;
	f->live = gen_topology(&g);
	f->ref = gen_topology(&h);
	ck_assert_int_eq(fors_route_compute(f->live, f->ref, &o, &f->r,
					    &f->err), 0);
	if (kind == AGG)
		with_lids(f->live, f->r);
	f->d = dump_of(f->r);
	ck_assert_int_eq(fors_check_routes(f->live, f->d, f->r->s, &f->rep,
					   &f->err), FORS_OK);
}

static void fix_close(struct fix *f)
{
	fors_lft_dump_free(f->d);
	fors_route_free(f->r);
	fors_topology_free(f->live);
	fors_topology_free(f->ref);
}

/* The check of the fixture as it now is: FORS_EVERIFY expected. */
static void check_fails(struct fix *f)
{
	char what[256];

	ck_assert_int_eq(fors_check_routes(f->live, f->d, f->r->s, &f->rep,
					   &f->err), FORS_EVERIFY);
	fors_check_failures(&f->rep, what, sizeof(what));
	fprintf(stderr, "  %s\n", what);
}

/* The report's first violations include one with want in it. */
static void kept_has(const struct fors_check_report *rep, const char *want)
{
	uint32_t i;

	for (i = 0; i < rep->nkept; i++)
		if (strstr(rep->kept[i], want))
			return;
	ck_abort_msg("no violation with \"%s\" among %u, the first \"%s\"",
		     want, rep->nkept, rep->nkept ? rep->kept[0] : "");
}

static uint32_t leaf_of(const struct fix *f, uint32_t sid)
{
	return sid / f->r->fb->m0;
}

/* The DLID that sends x through plane p: the offset of p at x's host. */
static int32_t dlid_via(const struct fix *f, const struct fors_xfer *x,
			uint32_t p)
{
	const struct fors_fabric *fb = f->r->fb;
	uint32_t d = (uint32_t)fb->host_at[x->dst];

	return (int32_t)(f->r->lfts->host_lid[d] +
			 (p + fb->q - f->r->lfts->designated[d]) % fb->q);
}

/* Transfers of the schedule sent to lid. */
static uint32_t users(const struct fix *f, int32_t lid)
{
	const struct fors_schedule *s = f->r->s;
	uint32_t n = 0;
	size_t i;

	for (i = 0; i < s->nxfers; i++)
		n += s->xfers[i].dlid == lid;
	return n;
}

/* Whether phase p sends a transfer up from (up) or down into leaf l on pl. */
static int taken(const struct fix *f, uint32_t p, uint32_t l, int32_t pl,
		 int up)
{
	const struct fors_schedule *s = f->r->s;
	size_t i;

	for (i = s->start[p]; i < s->start[p + 1]; i++)
		if (fors_xfer_plane(&s->xfers[i]) == pl &&
		    leaf_of(f, up ? s->xfers[i].src : s->xfers[i].dst) == l)
			return 1;
	return 0;
}

static int inter(const struct fix *f, const struct fors_xfer *x)
{
	return leaf_of(f, x->src) != leaf_of(f, x->dst);
}

/*
 * Move one transfer onto another's plane so that exactly one directed
 * link of its phase carries two: its uplink (down 0) or its downlink.
 */
static void share_one_link(struct fix *f, int down)
{
	const struct fors_schedule *s = f->r->s;
	uint32_t p;
	size_t i, j;

	for (p = 0; p < s->nphases; p++)
		for (i = s->start[p]; i < s->start[p + 1]; i++)
			for (j = s->start[p]; j < s->start[p + 1]; j++) {
				struct fors_xfer *a = &s->xfers[i];
				const struct fors_xfer *b = &s->xfers[j];
				uint32_t la = leaf_of(f, down ? a->dst : a->src);
				uint32_t lb = leaf_of(f, down ? b->dst : b->src);
				uint32_t lo = leaf_of(f, down ? a->src : a->dst);
				int32_t bp = fors_xfer_plane(b);

				if (i == j || !inter(f, a) || !inter(f, b) ||
				    la != lb || bp == fors_xfer_plane(a) ||
				    lo == leaf_of(f, down ? b->src : b->dst) ||
				    !fors_plane_live(f->r->fb, lo, (uint32_t)bp) ||
				    taken(f, p, lo, bp, down))
					continue;
				a->dlid = dlid_via(f, a, (uint32_t)bp);
				return;
			}
	ck_abort_msg("no transfer to move onto another's plane");
}

/* Where the shared link's line names it: up to a spine, or down from one. */
static const char *const shared_at[][2] = {
	{ "-> \"S0", "carries" },
	{ "link \"S0", "-> \"L0" },
};

/* The uplink (_i 0) or the downlink (_i 1) of one transfer shared. */
START_TEST(shared_link)
{
	struct fix f;

	fix_open(&f, ABSENT);
	share_one_link(&f, _i);
	check_fails(&f);
	ck_assert_uint_eq(f.rep.shared, 1);
	ck_assert_uint_eq(f.rep.max_load, 2);
	ck_assert_uint_eq(f.rep.undelivered, 0);
	ck_assert_uint_eq(f.rep.not_updown, 0);
	ck_assert_uint_eq(f.rep.unreachable, 0);
	ck_assert_uint_eq(f.rep.schedule, 0);
	ck_assert_msg(strstr(f.rep.kept[0], shared_at[_i][0]) &&
		      strstr(f.rep.kept[0], shared_at[_i][1]), "%s",
		      f.rep.kept[0]);
	fix_close(&f);
}
END_TEST

/*
 * Phases where a transfer to lid and one to host sid both arrive: the
 * link into sid carries two once lid is misdelivered there.
 */
static uint32_t collisions(const struct fix *f, int32_t lid, uint32_t sid)
{
	const struct fors_schedule *s = f->r->s;
	uint32_t p, n = 0;
	size_t i;

	for (p = 0; p < s->nphases; p++) {
		int to_lid = 0, to_sid = 0;

		for (i = s->start[p]; i < s->start[p + 1]; i++) {
			to_lid |= s->xfers[i].dlid == lid;
			to_sid |= s->xfers[i].dst == sid;
		}
		n += to_lid && to_sid;
	}
	return n;
}

/*
 * Host 5's leaf sends its LID at offset off to the leaf's next host,
 * host 6; the LID, of which *n transfers (some) are now misdelivered.
 */
static uint32_t misdeliver(struct fix *f, uint32_t off, uint32_t *n)
{
	const struct fors_fabric *fb = f->r->fb;
	uint32_t lid = f->r->lfts->host_lid[5] + off;
	char leaf[8];

	*n = users(f, (int32_t)lid);
	ck_assert_uint_gt(*n, 0);
	snprintf(leaf, sizeof(leaf), "L%02u", fb->hosts[5].sid / fb->m0);
	dump_switch(f->d, leaf)->port[lid] = (uint8_t)fb->hosts[6].leaf_port;
	return lid;
}

/*
 * Host 5's LID at offset 1 (at LMC 0 its only LID, on a route laid out)
 * misdelivered to host 6: every transfer to it misdelivered, the LID
 * unreachable from every switch, and the link into host 6 shared wherever
 * host 6 receives too.
 */
START_TEST(undelivered)
{
	struct fix f;
	uint32_t lid, n;

	fix_open(&f, _i ? LAID : CUT);
	lid = misdeliver(&f, !_i, &n);
	check_fails(&f);
	ck_assert_uint_eq(f.rep.undelivered, n);
	ck_assert_uint_eq(f.rep.unreachable, f.d->nsw);
	ck_assert_uint_eq(f.rep.shared, collisions(&f, (int32_t)lid,
						   f.r->fb->hosts[6].sid));
	ck_assert_uint_eq(f.rep.not_updown, 0);
	ck_assert_uint_eq(f.rep.loop, 0);
	kept_has(&f.rep, "is delivered to the wrong port");
	fix_close(&f);
}
END_TEST

/*
 * The schedule's rules begun before the check (fors_rules_start, as the
 * sweep begins them when it routes) give its verdict on their schedule
 * (_i 0), and none on another (_i 1: begun on a good one): a transfer of
 * phase 0 given another's source breaks a rule either way.
 */
START_TEST(early_rules)
{
	struct fix f, g;
	struct fors_check_job job = { NULL, NULL, NULL, 0 };
	struct fors_schedule *s;
	size_t i;

	fix_open(&f, HEALTHY);
	fix_open(&g, HEALTHY);
	s = f.r->s;
	for (i = s->start[0] + 1; s->xfers[i].dst == s->xfers[s->start[0]].src; i++)
		;
	s->xfers[i].src = s->xfers[s->start[0]].src;
	ck_assert_int_eq(fors_rules_start(_i ? g.r->s : s, &job.rules), 0);
	ck_assert_int_eq(fors_check_routes_beside(f.live, f.d, s, &f.rep,
						  &f.err, &job),
			 FORS_EVERIFY);
	ck_assert_uint_eq(f.rep.schedule, 1);
	kept_has(&f.rep, "source sends twice in the phase");
	fors_rules_free(job.rules);
	fix_close(&f);
	fix_close(&g);
}
END_TEST

/*
 * The check split as a first stage's sweep splits it: the tables' checks
 * and the rules with the transfers left for later (follow_later), then
 * the transfers alone (fors_check_follow). Host 5's LID misdelivered as
 * in undelivered: each half finds its own part of what the whole finds.
 */
START_TEST(followed_later)
{
	struct fix f;
	struct fors_check_job job = { NULL, NULL, NULL, 1 };
	uint32_t lid, n;

	fix_open(&f, CUT);
	lid = misdeliver(&f, 1, &n);
	ck_assert_int_eq(fors_check_routes_beside(f.live, f.d, f.r->s, &f.rep,
						  &f.err, &job),
			 FORS_EVERIFY);
	ck_assert_uint_eq(f.rep.transfers, 0);
	ck_assert_uint_eq(f.rep.undelivered, 0);
	ck_assert_uint_eq(f.rep.unreachable, f.d->nsw);
	ck_assert_uint_eq(f.rep.schedule, 0);
	ck_assert_int_eq(fors_check_follow(f.live, f.d, f.r->s, &f.rep,
					   &f.err), FORS_EVERIFY);
	ck_assert_uint_eq(f.rep.transfers, f.r->s->nxfers);
	ck_assert_uint_eq(f.rep.undelivered, n);
	ck_assert_uint_eq(f.rep.shared, collisions(&f, (int32_t)lid,
						   f.r->fb->hosts[6].sid));
	ck_assert_uint_eq(f.rep.unreachable, 0);
	fix_close(&f);
}
END_TEST

/* The same LID with no route at all at its leaf: lost, nothing shared. */
START_TEST(lost)
{
	struct fix f;
	const struct fors_fabric *fb;
	uint32_t lid, n;
	char leaf[8];

	fix_open(&f, CUT);
	fb = f.r->fb;
	lid = f.r->lfts->host_lid[5] + 1;
	n = users(&f, (int32_t)lid);
	snprintf(leaf, sizeof(leaf), "L%02u", fb->hosts[5].sid / fb->m0);
	dump_switch(f.d, leaf)->port[lid] = FORS_NO_PORT;
	check_fails(&f);
	ck_assert_uint_eq(f.rep.undelivered, n);
	ck_assert_uint_eq(f.rep.unreachable, f.d->nsw);
	ck_assert_uint_eq(f.rep.shared, 0);
	kept_has(&f.rep, "has no route or a dead port");
	fix_close(&f);
}
END_TEST

/* The spine of x's DLID, a name like "S02", from the source leaf's table. */
static void up_spine(const struct fix *f, uint32_t leaf, uint32_t lid,
		     char *name)
{
	const struct fors_node *n = &f->live->nodes[f->r->fb->leaf[leaf]];
	struct fors_lft_switch *sw;
	char l[8];

	snprintf(l, sizeof(l), "L%02u", leaf);
	sw = dump_switch(f->d, l);
	snprintf(name, 8, "%s", f->live->nodes[n->ports[sw->port[lid]].peer].desc);
}

/*
 * A transfer's DLID detoured at its spine S1 down to a third leaf L2 and
 * up again through S2: delivered, but through five switches. Every
 * transfer to that DLID that reached S1 from a leaf other than L2 does so.
 */
START_TEST(not_updown)
{
	struct fix f;
	const struct fors_schedule *s;
	const struct fors_xfer *a = NULL;
	char s1[8], s2[8] = "", l2[8], other[8];
	uint32_t lid, ld, l, k, n = 0;
	size_t i;

	fix_open(&f, HEALTHY);
	s = f.r->s;
	for (i = 0; i < s->nxfers && !a; i++)
		if (inter(&f, &s->xfers[i]) &&
		    (uint32_t)s->xfers[i].dlid != f.r->lfts->host_lid[f.r->fb->host_at[s->xfers[i].dst]])
			a = &s->xfers[i];
	ck_assert_ptr_nonnull(a);
	lid = (uint32_t)a->dlid;
	ld = leaf_of(&f, a->dst);
	up_spine(&f, leaf_of(&f, a->src), lid, s1);
	for (l = 0; l < 4 && (l == ld || l == leaf_of(&f, a->src)); l++)
		;
	snprintf(l2, sizeof(l2), "L%02u", l);
	for (k = 0; k < 4 && !s2[0]; k++) {
		snprintf(other, sizeof(other), "S%02u", k);
		if (strcmp(other, s1))
			snprintf(s2, sizeof(s2), "%s", other);
	}
	for (i = 0; i < s->nxfers; i++) {
		const struct fors_xfer *x = &s->xfers[i];
		char sp[8];

		if ((uint32_t)x->dlid != lid || leaf_of(&f, x->src) == l)
			continue;
		up_spine(&f, leaf_of(&f, x->src), lid, sp);
		n += !strcmp(sp, s1);
	}
	dump_switch(f.d, s1)->port[lid] = (uint8_t)port_to(f.live, s1, l2);
	dump_switch(f.d, l2)->port[lid] = (uint8_t)port_to(f.live, l2, s2);
	check_fails(&f);
	ck_assert_uint_gt(n, 0);
	ck_assert_uint_eq(f.rep.not_updown, n);
	ck_assert_uint_eq(f.rep.undelivered, 0);
	ck_assert_uint_eq(f.rep.unreachable, 0);
	kept_has(&f.rep, "takes a path through 5 switches that is not leaf-spine-leaf");
	fix_close(&f);
}
END_TEST

/* The name of the link into (down 0) or out of host sid's port. */
static void host_link(const struct fix *f, uint32_t sid, int down,
		      char *b, size_t len)
{
	const struct fors_fabric *fb = f->r->fb;
	const struct fors_fhost *h = &fb->hosts[fb->host_at[sid]];

	if (down)
		snprintf(b, len, "-> \"%s\" carries",
			 f->live->nodes[h->node].desc);
	else
		snprintf(b, len, "link \"%s\"[%u] -> ",
			 f->live->nodes[h->node].desc, h->port);
}

/* The check fails on a shared link, named by want; nothing undelivered. */
static void shared_found(struct fix *f, const char *want)
{
	check_fails(f);
	ck_assert_uint_ge(f->rep.shared, 1);
	ck_assert_uint_eq(f->rep.undelivered, 0);
	kept_has(&f->rep, want);
	fix_close(f);
}

/*
 * On routes laid out (LAID): a transfer of phase 0 given the source (_i 0)
 * or the destination and DLID (_i 1) of another of that phase, so the
 * link out of that source or into that destination carries two.
 */
START_TEST(laid_shared)
{
	struct fix f;
	struct fors_schedule *s;
	struct fors_xfer *a, *b;
	char want[64];
	size_t i;

	fix_open(&f, LAID);
	s = f.r->s;
	a = &s->xfers[s->start[0]];
	for (i = s->start[0] + 1; i < s->start[1]; i++) {
		b = &s->xfers[i];
		if (b->src != a->dst && b->dst != a->src)
			break;
	}
	ck_assert_uint_lt(i, s->start[1]);
	host_link(&f, _i ? a->dst : a->src, _i, want, sizeof(want));
	if (_i) {
		b->dst = a->dst;
		b->dlid = a->dlid;
	} else {
		b->src = a->src;
	}
	shared_found(&f, want);
}
END_TEST

/*
 * Transfers a and b of one phase from two leaves into one (not L00, whose
 * cable to S00 is cut), or 0 when phase p has none.
 */
static int into_one_leaf(const struct fix *f, uint32_t p, size_t *a,
			 size_t *b)
{
	const struct fors_schedule *s = f->r->s;
	const struct fors_xfer *x, *y;

	for (*a = s->start[p]; *a < s->start[p + 1]; (*a)++)
		for (*b = s->start[p]; *b < s->start[p + 1]; (*b)++) {
			x = &s->xfers[*a];
			y = &s->xfers[*b];
			if (inter(f, x) && inter(f, y) &&
			    leaf_of(f, x->dst) == leaf_of(f, y->dst) &&
			    leaf_of(f, x->src) != leaf_of(f, y->src) &&
			    leaf_of(f, y->src) != 0)
				return 1;
		}
	return 0;
}

/*
 * On routes laid out (LAID): transfer b's source leaf sends b's DLID up
 * to the spine of a, another transfer of b's phase into b's leaf, so the
 * link down from that spine into the leaf carries two.
 */
START_TEST(laid_down_link_shared)
{
	struct fix f;
	const struct fors_xfer *a, *b;
	char lb[8], ld[8], sa[8], want[64];
	uint32_t p = 0;
	size_t i = 0, j = 0;

	fix_open(&f, LAID);
	while (p < f.r->s->nphases && !into_one_leaf(&f, p, &i, &j))
		p++;
	ck_assert_uint_lt(p, f.r->s->nphases);
	a = &f.r->s->xfers[i];
	b = &f.r->s->xfers[j];
	snprintf(lb, sizeof(lb), "L%02u", leaf_of(&f, b->src));
	snprintf(ld, sizeof(ld), "L%02u", leaf_of(&f, a->dst));
	up_spine(&f, leaf_of(&f, a->src), (uint32_t)a->dlid, sa);
	snprintf(want, sizeof(want), "link \"%s\"[%u] -> \"%s\" carries",
		 sa, port_to(f.live, sa, ld), ld);
	dump_switch(f.d, lb)->port[b->dlid] = (uint8_t)port_to(f.live, lb, sa);
	shared_found(&f, want);
}
END_TEST

/* The port of node a cabled to node b, in t; 0 when none. */
static uint32_t cabled(const struct fors_topology *t, uint32_t a, uint32_t b)
{
	uint32_t k;

	for (k = 1; k <= t->nodes[a].nports; k++)
		if (t->nodes[a].ports[k].peer == b)
			return k;
	return 0;
}

/*
 * On routes laid out (LAID): a cable from L00's free port (its cable to
 * S00 is cut) into L03's free one (slot 13 is empty), and L00's route to
 * a host of L03 sent over it: delivered, through two switches, by every
 * one of L00's four hosts.
 */
START_TEST(laid_leaf_to_leaf)
{
	struct fix f;
	const struct fors_fabric *fb;
	uint32_t l0, l3, p0, p3, lid;

	fix_open(&f, LAID);
	fb = f.r->fb;
	l0 = fb->leaf[0];
	l3 = fb->leaf[3];
	p0 = port_to(f.ref, "L00", "S00");
	p3 = cabled(f.ref, l3, fb->hosts[fb->host_at[12]].node);
	ck_assert_uint_eq(f.live->nodes[l0].ports[p0].peer, FORS_NO_PEER);
	ck_assert_uint_eq(f.live->nodes[l3].ports[p3 + 1].peer, FORS_NO_PEER);
	p3++;
	f.live->nodes[l0].ports[p0] = (struct fors_port){ .peer = l3,
							  .peer_port = p3 };
	f.live->nodes[l3].ports[p3] = (struct fors_port){ .peer = l0,
							  .peer_port = p0 };
	lid = f.r->lfts->host_lid[fb->host_at[14]];
	dump_switch(f.d, "L00")->port[lid] = (uint8_t)p0;
	check_fails(&f);
	ck_assert_uint_eq(f.rep.not_updown, 4);
	ck_assert_uint_eq(f.rep.undelivered, 0);
	ck_assert_uint_eq(f.rep.shared, 0);
	kept_has(&f.rep, "takes a path through 2 switches");
	fix_close(&f);
}
END_TEST

/*
 * L00 lost S00, so no transfer leaves it through plane 0: its route for
 * the offset of plane 0 of a host on L03, taken away, costs exactly one
 * (switch, LID) pair and no transfer.
 */
START_TEST(unreachable)
{
	struct fix f;
	const struct fors_fabric *fb;
	uint32_t h, lid;
	char msg[64];

	fix_open(&f, CUT);
	fb = f.r->fb;
	h = (uint32_t)fb->host_at[3 * fb->m0];
	lid = f.r->lfts->host_lid[h] +
	      (fb->q - f.r->lfts->designated[h]) % fb->q;
	ck_assert_uint_eq(users(&f, (int32_t)lid) > 0, 1);
	dump_switch(f.d, "L00")->port[lid] = FORS_NO_PORT;
	check_fails(&f);
	ck_assert_uint_eq(f.rep.unreachable, 1);
	ck_assert_uint_eq(f.rep.undelivered, 0);
	ck_assert_uint_eq(f.rep.shared, 0);
	snprintf(msg, sizeof(msg), "LID %u (host %u) is not reachable from switch \"L00\"",
		 lid, fb->hosts[h].sid);
	kept_has(&f.rep, msg);
	fix_close(&f);
}
END_TEST

/*
 * L03 no longer forwards the LID of its own Aggregation Node: every
 * switch reaches L03, and none gets further.
 */
START_TEST(aggregation_node_unreachable)
{
	struct fix f;
	uint32_t i, lid = 0;

	fix_open(&f, AGG);
	for (i = 0; i < f.r->fb->nparts; i++)
		if (f.r->fb->parts[i].sw == f.r->fb->leaf[3])
			lid = f.r->lfts->part_lid[i];
	ck_assert_uint_gt(lid, 0);
	dump_switch(f.d, "L03")->port[lid] = FORS_NO_PORT;
	check_fails(&f);
	ck_assert_uint_eq(f.rep.unreachable, f.d->nsw);
	ck_assert_uint_eq(f.rep.undelivered, 0);
	kept_has(&f.rep, "(CA \"Mellanox Technologies Aggregation Node\") is not reachable from switch");
	fix_close(&f);
}
END_TEST

/*
 * Two LIDs of a host on L02, each delivered, each turning down-up once:
 * x through L00 - S00 - L01 - S01, y through L01 - S01 - L00 - S00. Their
 * channels close L00 -> S00 -> L01 -> S01 -> L00: a credit loop.
 */
START_TEST(credit_loop)
{
	struct fix f;
	uint32_t h, x, y;
	uint8_t *l0, *l1, *s0, *s1;

	fix_open(&f, HEALTHY);
	h = (uint32_t)f.r->fb->host_at[2 * f.r->fb->m0];
	x = f.r->lfts->host_lid[h];
	y = x + 1;
	l0 = dump_switch(f.d, "L00")->port;
	l1 = dump_switch(f.d, "L01")->port;
	s0 = dump_switch(f.d, "S00")->port;
	s1 = dump_switch(f.d, "S01")->port;
	l0[x] = l0[y] = (uint8_t)port_to(f.live, "L00", "S00");
	l1[x] = l1[y] = (uint8_t)port_to(f.live, "L01", "S01");
	s0[x] = (uint8_t)port_to(f.live, "S00", "L01");
	s0[y] = (uint8_t)port_to(f.live, "S00", "L02");
	s1[x] = (uint8_t)port_to(f.live, "S01", "L02");
	s1[y] = (uint8_t)port_to(f.live, "S01", "L00");
	ck_assert_int_eq(fors_check_tables(f.live, f.d, 2, &f.rep, &f.err),
			 FORS_EVERIFY);
	ck_assert_uint_eq(f.rep.loop, 1);
	ck_assert_uint_eq(f.rep.unreachable, 0);
	ck_assert_msg(strstr(f.rep.cycle, "\"L00\"") &&
		      strstr(f.rep.cycle, "\"S00\"") &&
		      strstr(f.rep.cycle, "\"L01\"") &&
		      strstr(f.rep.cycle, "\"S01\""), "%s", f.rep.cycle);
	ck_assert_int_eq(fors_check_routes(f.live, f.d, f.r->s, &f.rep,
					   &f.err), FORS_EVERIFY);
	ck_assert_uint_eq(f.rep.loop, 1);
	ck_assert_msg(strstr(f.rep.cycle, "\"S01\""), "%s", f.rep.cycle);
	fix_close(&f);
}
END_TEST

/* A dump of tests/data. */
static struct fors_lft_dump *data_dump(const char *file)
{
	struct fors_lft_dump *d;
	struct fors_error err;
	char path[512];

	ck_assert_msg(fors_lft_dump_read_file(data_path(file, path, sizeof(path)),
					      &d, &err) == 0, "%s", err.msg);
	return d;
}

/*
 * Two table sets of four switches (tests/data/transition-*), each up-down
 * and free of loops on its own: the old one takes spine to spine through
 * L0, the new one through L1. A mix of the two, as a switch-by-switch
 * update passes through, closes S1 -> L0 -> S0 -> L1 -> S1: a credit
 * loop, with no packet sent round a circle.
 */
START_TEST(transition_loop)
{
	struct fors_lft_dump *old = data_dump("transition-old.dump");
	struct fors_lft_dump *new = data_dump("transition-new.dump");
	struct fors_topology *t;
	struct fors_check_report rep;
	struct fors_union_report u;
	struct fors_error err;
	char path[512];

	ck_assert_int_eq(fors_topology_read_file(data_path("transition.net", path,
							   sizeof(path)),
						 &t, &err), 0);
	ck_assert_int_eq(fors_check_tables(t, old, 0, &rep, &err), 0);
	ck_assert_int_eq(fors_check_tables(t, new, 0, &rep, &err), 0);
	ck_assert_int_eq(fors_check_union(t, old, old, &u, &err), 0);
	ck_assert_uint_eq(u.deps, 4);
	ck_assert_int_eq(fors_check_union(t, old, new, &u, &err), FORS_EVERIFY);
	ck_assert_uint_eq(u.loop, 1);
	ck_assert_uint_eq(u.fwd_lids, 0);
	ck_assert_uint_eq(u.deps, 6);
	ck_assert_msg(strstr(u.cycle, "\"S1\"[1] -> \"L0\"[1] -> \"S0\"[2] -> \"L1\"[2] -> \"S1\"") ||
		      strstr(u.cycle, "\"L0\"[1] -> \"S0\"[2] -> \"L1\"[2] -> \"S1\"[1] -> \"L0\"") ||
		      strstr(u.cycle, "\"S0\"[2] -> \"L1\"[2] -> \"S1\"[1] -> \"L0\"[1] -> \"S0\"") ||
		      strstr(u.cycle, "\"L1\"[2] -> \"S1\"[1] -> \"L0\"[1] -> \"S0\"[2] -> \"L1\""),
		      "%s", u.cycle);
	fors_lft_dump_free(old);
	fors_lft_dump_free(new);
	fors_topology_free(t);
}
END_TEST

/*
 * A mix that sends a packet round a circle: S00's old entry for a host
 * of L02 goes down to L01, whose new entry goes back up to S00.
 */
START_TEST(transition_forwarding_loop)
{
	struct fors_union_report u;
	struct fors_lft_dump *old;
	struct fix f;
	uint32_t h, x;

	fix_open(&f, HEALTHY);
	old = dump_of(f.r);
	h = (uint32_t)f.r->fb->host_at[2 * f.r->fb->m0];
	x = f.r->lfts->host_lid[h];
	dump_switch(old, "S00")->port[x] = (uint8_t)port_to(f.live, "S00", "L01");
	dump_switch(old, "L01")->port[x] = (uint8_t)port_to(f.live, "L01", "S01");
	dump_switch(f.d, "L01")->port[x] = (uint8_t)port_to(f.live, "L01", "S00");
	ck_assert_int_eq(fors_check_union(f.live, old, f.d, &u, &f.err),
			 FORS_EVERIFY);
	ck_assert_uint_eq(u.fwd_lids, 1);
	ck_assert_msg(strstr(u.fwd, "\"S00\" -> \"L01\" -> \"S00\"") ||
		      strstr(u.fwd, "\"L01\" -> \"S00\" -> \"L01\""), "%s",
		      u.fwd);
	ck_assert_uint_eq(u.loop, 1);
	fors_lft_dump_free(old);
	fix_close(&f);
}
END_TEST

/*
 * Today's construction (issue 31): healthy, then L00's cable to S00 cut.
 * The up-down order's root moves from L00 to L01, and the union of the two
 * routings has a credit loop; each alone has none.
 */
START_TEST(transition_today)
{
	struct fors_union_report u;
	struct fix a, b;

	fix_open(&a, HEALTHY);
	fix_open(&b, CUT);
	ck_assert_int_eq(fors_check_union(b.live, a.d, b.d, &u, &b.err),
			 FORS_EVERIFY);
	ck_assert_uint_eq(u.loop, 1);
	fix_close(&a);
	fix_close(&b);
}
END_TEST

/*
 * mFtree: from L02, the base LID of a dual-port node's second port sent
 * up the spine its first port's goes up: one (leaf, node) pair more on one
 * spine, though both still arrive.
 */
START_TEST(mftree_shared)
{
	struct fix f;
	const struct fors_fabric *fb;
	uint32_t a, b, lb;
	char sa[8];

	fix_open(&f, DUAL);
	fb = f.r->fb;
	ck_assert_uint_gt(f.rep.mf_pairs, 0);
	ck_assert_uint_eq(f.rep.mf_shared, f.r->lfts->mf_shared);
	for (a = 0; a < fb->nhosts; a++)
		if (fb->hosts[a].sid == 0)
			break;
	for (b = a + 1; b < fb->nhosts && fb->hosts[b].node != fb->hosts[a].node; b++)
		;
	ck_assert_uint_lt(b, fb->nhosts);
	lb = f.r->lfts->host_lid[b];
	up_spine(&f, 2, f.r->lfts->host_lid[a], sa);
	dump_switch(f.d, "L02")->port[lb] = (uint8_t)port_to(f.live, "L02", sa);
	fors_check_routes(f.live, f.d, f.r->s, &f.rep, &f.err);
	ck_assert_uint_eq(f.rep.mf_shared, f.r->lfts->mf_shared + 1);
	ck_assert_uint_eq(f.rep.unreachable, 0);
	ck_assert_uint_eq(f.rep.undelivered, 0);
	fix_close(&f);
}
END_TEST

/* A DLID one past its host's range: the schedule's own rule, and undelivered. */
START_TEST(dlid_out_of_range)
{
	struct fix f;
	struct fors_xfer *x;

	fix_open(&f, CUT);
	x = &f.r->s->xfers[f.r->s->start[1]];
	x->dlid = (int32_t)f.r->lfts->host_lid[f.r->fb->host_at[x->dst]] + 4;
	ck_assert_int_eq(fors_schedule_verify(f.r->s, &f.err), FORS_EVERIFY);
	ck_assert_msg(strstr(f.err.msg, "DLID outside the destination's LID range"),
		      "%s", f.err.msg);
	check_fails(&f);
	ck_assert_uint_eq(f.rep.schedule, 1);
	ck_assert_uint_eq(f.rep.undelivered, 1);
	fix_close(&f);
}
END_TEST

/* The fabric line's bound set to v. */
static void set_bound(struct fors_schedule *s, const char *v)
{
	size_t i;

	for (i = 0; i < s->nextra; i++)
		if (!strcmp(s->extra[i].key, "bound")) {
			free(s->extra[i].value);
			s->extra[i].value = strdup(v);
			ck_assert_ptr_nonnull(s->extra[i].value);
			return;
		}
	ck_abort_msg("no bound key");
}

/*
 * Guarantee 5: a bound the cables do not prove (CUT: leaf 0 has 3
 * uplinks, 4 * 12 / 3 = 16), and a schedule with fewer phases than the
 * bound (the last phase dropped, its pairs missing).
 */
START_TEST(bound_not_proven)
{
	struct fix f;

	fix_open(&f, CUT);
	ck_assert_uint_eq(f.rep.bound, 16);
	ck_assert_int_eq(f.rep.bound_file, 16);
	set_bound(f.r->s, "17");
	check_fails(&f);
	ck_assert_uint_eq(f.rep.bound_wrong, 1);
	kept_has(&f.rep, "the file claims 17 and has 16 phases; the cables give 16");
	set_bound(f.r->s, "16");
	f.r->s->nphases--;
	f.r->s->nxfers = f.r->s->start[f.r->s->nphases];
	check_fails(&f);
	ck_assert_uint_eq(f.rep.bound_wrong, 1);
	ck_assert_uint_eq(f.rep.schedule, 1);
	kept_has(&f.rep, "has 15 phases; the cables give 16");
	f.r->s->nphases++;
	fix_close(&f);
}
END_TEST

/*
 * A host of the schedule unplugged in the topology given to the check:
 * its transfers are lost, and the bound is recomputed without it (15
 * hosts of FT(2;4,4): 14) rather than read through its missing cable.
 */
START_TEST(host_unplugged)
{
	struct fix f;
	struct fors_node *h, *l;
	struct fors_port *p;

	fix_open(&f, HEALTHY);
	h = &f.live->nodes[f.r->fb->hosts[0].node];
	p = &h->ports[f.r->fb->hosts[0].port];
	l = &f.live->nodes[p->peer];
	l->ports[p->peer_port].peer = FORS_NO_PEER;
	p->peer = FORS_NO_PEER;
	check_fails(&f);
	ck_assert_uint_eq(f.rep.undelivered, 2 * 15);
	ck_assert_uint_eq(f.rep.bound, 14);
	ck_assert_uint_eq(f.rep.bound_wrong, 1);
	fix_close(&f);
}
END_TEST

/* The routed schedule as the ILP cache answers: planes, no DLIDs. */
static struct fors_schedule *answer(struct fix *f)
{
	struct fors_schedule *s = f->r->s;
	size_t i;

	s->lmc = -1;
	for (i = 0; i < s->nxfers; i++)
		s->xfers[i].dlid = FORS_NO_DLID;
	ck_assert_int_eq(fors_schedule_fits(f->r->fb, s, &f->err), 0);
	return s;
}

/* The plugin's check of a routing from elsewhere: a dead plane, a shared one. */
START_TEST(plane_not_live)
{
	struct fix f;
	struct fors_schedule *s;
	size_t i;

	fix_open(&f, CUT);
	s = answer(&f);
	for (i = 0; i < s->nxfers; i++)
		if (leaf_of(&f, s->xfers[i].src) == 0 && inter(&f, &s->xfers[i]))
			break;
	ck_assert_uint_lt(i, s->nxfers);
	fors_xfer_set_plane(&s->xfers[i], 0);
	ck_assert_int_eq(fors_schedule_fits(f.r->fb, s, &f.err), FORS_EVERIFY);
	ck_assert_msg(strstr(f.err.msg, "on plane 0, which is not alive at both leaves"),
		      "%s", f.err.msg);
	fix_close(&f);
}
END_TEST

START_TEST(plane_shared)
{
	struct fix f;
	struct fors_schedule *s;
	size_t i, j;

	fix_open(&f, CUT);
	s = answer(&f);
	for (i = s->start[0]; i < s->start[1]; i++)
		for (j = i + 1; j < s->start[1]; j++)
			if (inter(&f, &s->xfers[i]) && inter(&f, &s->xfers[j]) &&
			    leaf_of(&f, s->xfers[i].src) == leaf_of(&f, s->xfers[j].src))
				goto found;
	ck_abort_msg("no two transfers leave one leaf in phase 0");
found:
	fors_xfer_set_plane(&s->xfers[j], fors_xfer_plane(&s->xfers[i]));
	ck_assert_int_eq(fors_schedule_fits(f.r->fb, s, &f.err), FORS_EVERIFY);
	ck_assert_msg(strstr(f.err.msg, "shares plane"), "%s", f.err.msg);
	fix_close(&f);
}
END_TEST

/* FT(2;4,4), reduction f: Algorithm 1's abstract schedule. */
static struct fors_schedule *abstract(uint32_t f)
{
	struct fors_sched_params sp = { 4, 4, f, NULL };
	struct fors_schedule *s;
	struct fors_error err;

	ck_assert_int_eq(fors_schedule_build(&s, &sp, NULL, &err), 0);
	ck_assert_int_eq(fors_schedule_verify(s, &err), 0);
	return s;
}

/* Transfer i moved to the end of phase p (or removed, p = nphases). */
static void move_xfer(struct fors_schedule *s, size_t i, uint32_t p)
{
	struct fors_xfer x = s->xfers[i];
	uint32_t q, from;

	for (from = 0; s->start[from + 1] <= i; from++)
		;
	memmove(&s->xfers[i], &s->xfers[i + 1],
		sizeof(x) * (s->nxfers - i - 1));
	for (q = from + 1; q <= s->nphases; q++)
		s->start[q]--;
	if (p == s->nphases) {
		s->nxfers--;
		return;
	}
	memmove(&s->xfers[s->start[p + 1] + 1], &s->xfers[s->start[p + 1]],
		sizeof(x) * (s->nxfers - 1 - s->start[p + 1]));
	s->xfers[s->start[p + 1]] = x;
	for (q = p + 1; q <= s->nphases; q++)
		s->start[q]++;
}

static void verify_says(const struct fors_schedule *s, const char *want)
{
	struct fors_error err;

	ck_assert_int_eq(fors_schedule_verify(s, &err), FORS_EVERIFY);
	ck_assert_msg(!strcmp(err.msg, want), "got \"%s\", want \"%s\"",
		      err.msg, want);
}

START_TEST(pair_missing)
{
	struct fors_schedule *s = abstract(1);
	char want[64];

	snprintf(want, sizeof(want), "transfer %u -> %u is missing",
		 s->xfers[0].src, s->xfers[0].dst);
	move_xfer(s, 0, s->nphases);
	verify_says(s, want);
	fors_schedule_free(s);
}
END_TEST

START_TEST(pair_twice)
{
	struct fors_schedule *s = abstract(1);
	struct fors_xfer x = s->xfers[0];
	char want[96];

	s->xfers = realloc(s->xfers, sizeof(x) * (s->nxfers + 1));
	ck_assert_ptr_nonnull(s->xfers);
	s->xfers[s->nxfers++] = x;
	s->start[s->nphases]++;
	snprintf(want, sizeof(want), "phase %u, transfer %u -> %u: pair scheduled twice",
		 s->nphases - 1, x.src, x.dst);
	verify_says(s, want);
	fors_schedule_free(s);
}
END_TEST

START_TEST(dst_out_of_range)
{
	struct fors_schedule *s = abstract(1);
	char want[96];

	s->xfers[0].dst = 16;
	snprintf(want, sizeof(want), "phase 0, transfer %u -> 16: host id out of range",
		 s->xfers[0].src);
	verify_says(s, want);
	fors_schedule_free(s);
}
END_TEST

/* In phase p, does host h send (dst 0) or receive (dst 1)? */
static int busy(const struct fors_schedule *s, uint32_t p, uint32_t h, int dst)
{
	size_t i;

	for (i = s->start[p]; i < s->start[p + 1]; i++)
		if ((dst ? s->xfers[i].dst : s->xfers[i].src) == h)
			return 1;
	return 0;
}

/*
 * A transfer of a later phase moved into phase p where its source already
 * sends (twice 0), or where its destination already receives and its
 * source does not send (twice 1).
 */
static void twice(uint32_t f, int recv, const char *what)
{
	struct fors_schedule *s = abstract(f);
	uint32_t p;
	size_t i;
	char want[128];

	for (p = 0; p + 1 < s->nphases; p++)
		for (i = s->start[p + 1]; i < s->nxfers; i++) {
			const struct fors_xfer *x = &s->xfers[i];

			if (!busy(s, p, recv ? x->dst : x->src, recv) ||
			    (recv && busy(s, p, x->src, 0)))
				continue;
			snprintf(want, sizeof(want), "phase %u, transfer %u -> %u: %s",
				 p, x->src, x->dst, what);
			move_xfer(s, i, p);
			verify_says(s, want);
			fors_schedule_free(s);
			return;
		}
	ck_abort_msg("no transfer to move");
}

START_TEST(sends_twice)
{
	twice(1, 0, "source sends twice in the phase");
}
END_TEST

START_TEST(receives_twice)
{
	twice(1, 1, "destination receives twice in the phase");
}
END_TEST

/* Whether pair (u, w) is scheduled in a phase after p. */
static int later(const struct fors_schedule *s, uint32_t p, uint32_t u,
		 uint32_t w)
{
	size_t i;

	for (i = s->start[p + 1]; i < s->nxfers; i++)
		if (s->xfers[i].src == u && s->xfers[i].dst == w)
			return 1;
	return 0;
}

/* Inter-leaf transfers of phase p out of leaf l. */
static uint32_t leaving(const struct fors_schedule *s, uint32_t p, uint32_t l)
{
	uint32_t n = 0, m0 = s->m0;
	size_t i;

	for (i = s->start[p]; i < s->start[p + 1]; i++) {
		const struct fors_xfer *x = &s->xfers[i];

		n += x->src / m0 != x->dst / m0 && x->src / m0 == l;
	}
	return n;
}

/* The message for the first transfer of phase p past leaf l's bound. */
static void excess(const struct fors_schedule *s, uint32_t p, uint32_t l,
		   char *want, size_t len)
{
	uint32_t n = 0, m0 = s->m0;
	size_t i;

	for (i = s->start[p]; i < s->start[p + 1]; i++) {
		const struct fors_xfer *x = &s->xfers[i];

		n += x->src / m0 != x->dst / m0 && x->src / m0 == l;
		if (n > m0 - s->f) {
			snprintf(want, len, "phase %u, transfer %u -> %u: more than m0 - f senders leave the leaf",
				 p, x->src, x->dst);
			return;
		}
	}
	ck_abort_msg("leaf %u is within its bound in phase %u", l, p);
}

/*
 * Algorithm 1's bound per leaf: an intra-leaf transfer of a leaf that
 * already sends m0 - f out, sent instead to a host of another leaf that
 * receives nothing in the phase (a pair scheduled later, so no rule
 * checked before the bound breaks first).
 */
START_TEST(too_many_leave_the_leaf)
{
	struct fors_schedule *s = abstract(2);
	uint32_t p, w, m0 = s->m0;
	size_t i;
	char want[128];

	for (p = 0; p + 1 < s->nphases; p++)
		for (i = s->start[p]; i < s->start[p + 1]; i++) {
			struct fors_xfer *y = &s->xfers[i];

			if (y->src / m0 != y->dst / m0 ||
			    leaving(s, p, y->src / m0) != m0 - s->f)
				continue;
			for (w = 0; w < m0 * s->m1; w++) {
				if (w / m0 == y->src / m0 || busy(s, p, w, 1) ||
				    !later(s, p, y->src, w))
					continue;
				y->dst = w;
				excess(s, p, y->src / m0, want, sizeof(want));
				verify_says(s, want);
				fors_schedule_free(s);
				return;
			}
		}
	ck_abort_msg("no transfer to send out");
}
END_TEST

/*
 * One phase more than P_f, empty, where the theorem applies (f > m0/m1);
 * accepted once a split of one phase is declared, refused at two.
 */
/*
 * A cyclic schedule whose leaves send up to all their hosts out in a
 * phase, declared with one plane fewer than that: more leave a leaf than
 * it has planes.
 */
START_TEST(cyclic_more_than_planes)
{
	uint8_t present[12];
	uint32_t up[3] = { 4, 4, 4 }, p, most = 0;
	struct fors_cyclic_params cp = { 4, 3, 0, present, up, 11, 2000,
					 400000, 2000, 0, 0, NULL, 0, NULL };
	struct fors_schedule *s;
	struct fors_error err;
	size_t i;

	memset(present, 1, sizeof(present));
	ck_assert_int_eq(fors_schedule_cyclic(&cp, &s, &err), 0);
	ck_assert_int_eq(fors_schedule_verify(s, &err), 0);
	for (p = 0; p < s->nphases; p++) {
		uint32_t out[3] = { 0 };

		for (i = s->start[p]; i < s->start[p + 1]; i++)
			if (s->xfers[i].src / 4 != s->xfers[i].dst / 4 &&
			    ++out[s->xfers[i].src / 4] > most)
				most = out[s->xfers[i].src / 4];
	}
	ck_assert_uint_ge(most, 2);
	s->q = most - 1;
	ck_assert_int_eq(fors_schedule_verify(s, &err), FORS_EVERIFY);
	ck_assert_msg(strstr(err.msg, ": more senders leave the leaf than it has planes"),
		      "%s", err.msg);
	fors_schedule_free(s);
}
END_TEST

START_TEST(more_phases_than_optimal)
{
	struct fors_schedule *s = abstract(2);
	struct fors_error err;
	char want[96];

	s->start = realloc(s->start, sizeof(size_t) * (s->nphases + 2));
	ck_assert_ptr_nonnull(s->start);
	s->start[s->nphases + 1] = s->start[s->nphases];
	s->nphases++;
	snprintf(want, sizeof(want), "%u phases where the optimum P_f is %u",
		 s->nphases, s->nphases - 1);
	verify_says(s, want);
	ck_assert_int_eq(fors_schedule_add_key(s, "split", "1"), 0);
	ck_assert_int_eq(fors_schedule_verify(s, &err), 0);
	s->start = realloc(s->start, sizeof(size_t) * (s->nphases + 2));
	ck_assert_ptr_nonnull(s->start);
	s->start[s->nphases + 1] = s->start[s->nphases];
	s->nphases++;
	snprintf(want, sizeof(want), "%u phases where the optimum P_f is %u plus the declared split",
		 s->nphases, s->nphases - 2);
	verify_says(s, want);
	fors_schedule_free(s);
}
END_TEST

int main(void)
{
	Suite *su = suite_create("negative");
	TCase *tables = tcase_create("tables");
	TCase *sched = tcase_create("schedule");

	tcase_add_loop_test(tables, shared_link, 0, 2);
	tcase_add_loop_test(tables, undelivered, 0, 2);
	tcase_add_loop_test(tables, laid_shared, 0, 2);
	tcase_add_test(tables, laid_leaf_to_leaf);
	tcase_add_test(tables, laid_down_link_shared);
	tcase_add_loop_test(tables, early_rules, 0, 2);
	tcase_add_test(tables, followed_later);
	tcase_add_test(tables, lost);
	tcase_add_test(tables, not_updown);
	tcase_add_test(tables, unreachable);
	tcase_add_test(tables, credit_loop);
	tcase_add_test(tables, transition_loop);
	tcase_add_test(tables, transition_today);
	tcase_add_test(tables, transition_forwarding_loop);
	tcase_add_test(tables, mftree_shared);
	tcase_add_test(tables, aggregation_node_unreachable);
	tcase_add_test(tables, dlid_out_of_range);
	tcase_add_test(tables, bound_not_proven);
	tcase_add_test(tables, host_unplugged);
	tcase_add_test(tables, plane_not_live);
	tcase_add_test(tables, plane_shared);
	tcase_add_test(sched, pair_missing);
	tcase_add_test(sched, pair_twice);
	tcase_add_test(sched, dst_out_of_range);
	tcase_add_test(sched, sends_twice);
	tcase_add_test(sched, receives_twice);
	tcase_add_test(sched, too_many_leave_the_leaf);
	tcase_add_test(sched, more_phases_than_optimal);
	tcase_add_test(sched, cyclic_more_than_planes);
	suite_add_tcase(su, tables);
	suite_add_tcase(su, sched);
	return run_suite(su);
}
