// SPDX-License-Identifier: MIT
/*
 * Odd fabrics and events: each is routed and verified, or refused with a
 * line that names what is wrong. Never routed silently.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "routing/route.h"
#include "formats/schedfile.h"
#include "fabric_util.h"
#include "route_util.h"
#include "suite.h"
#include "formats/ibnetdiscover.h"
#include "formats/lftdump.h"

/* netgen's text for g with every "from" line replaced by "to". */
static struct fors_topology *edited(const struct fors_netgen *g,
				    const char *const *from,
				    const char *const *to, int n)
{
	char *buf = NULL, *out;
	size_t len = 0, cap;
	FILE *f = open_memstream(&buf, &len);
	struct fors_topology *t;
	int i;

	ck_assert_int_eq(fors_netgen_write(f, g), 0);
	fclose(f);
	cap = len + 4096;
	out = calloc(cap, 1);
	ck_assert_ptr_nonnull(out);
	for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
		const char *put = line;

		for (i = 0; i < n; i++)
			if (!strcmp(line, from[i]))
				put = to[i];
		strcat(out, put);
		strcat(out, "\n");
	}
	t = text_topology(out);
	free(buf);
	free(out);
	return t;
}

static void refused(const struct fors_topology *live,
		    const struct fors_topology *ref, uint32_t lmc,
		    const char *want)
{
	struct fors_route_opts o = { .lmc = lmc, .renumber_lids = 0 };
	struct fors_route *r;
	struct fors_error err;

	ck_assert_int_eq(fors_route_compute(live, ref, &o, &r, &err), FORS_EINVAL);
	ck_assert_msg(strstr(err.msg, want), "want '%s', got '%s'", want, err.msg);
}

static const struct fors_netgen ft22 = { 2, 2, 2, 1, NULL, 0, NULL, NULL, 0, 0 };

/*
 * A host cabled to a spine (storage, management) takes no part in the
 * exchange: routed without a slot, its LID reached from every switch once
 * a subnet manager gives the LIDs; refused where the site says so.
 */
START_TEST(host_on_a_spine)
{
	const char *from[] = { "Switch 2 \"S00\"", "[2] \"L01\"[3]" };
	const char *to[] = { "Switch 3 \"S00\"",
			     "[2] \"L01\"[3]\n[3] \"H004\"[1]\nHca 1 \"H004\"\n[1] \"S00\"[3]" };
	struct fors_topology *live = edited(&ft22, from, to, 2);
	struct fors_topology *ref = edited(&ft22, from, to, 2);
	struct fors_route_opts o = { .lmc = 1, .refuse_spine_hosts = 1 };
	struct fors_check_report rep;
	struct fors_lft_dump *d;
	struct fors_error err;
	struct fors_route *r;
	int i;

	for (i = 0; i < 2; i++) {
		r = route_ok(live, i ? NULL : ref, 1, "a host on a spine");
		ck_assert_uint_eq(r->fb->nhosts, 4);
		ck_assert_uint_eq(r->fb->nparts, 1);
		ck_assert_int_eq(r->fb->parts[0].kind, FORS_PART_SPINE_HOST);
		ck_assert_uint_eq(r->s->nhosts, 4);
		fors_route_free(r);
	}
	r = route_ok(live, ref, 1, "a host on a spine");
	with_lids(live, r);
	d = dump_of(r);
	ck_assert_int_eq(fors_check_routes(live, d, r->s, &rep, &err), 0);
	ck_assert_uint_eq(rep.reach_pairs, 4 * (4 * 2 + 4 + 2));
	fors_lft_dump_free(d);
	fors_route_free(r);
	ck_assert_int_eq(fors_route_compute(live, ref, &o, &r, &err), FORS_EINVAL);
	ck_assert_str_eq(err.msg, "1 host port on spines (\"H004\" on \"S00\"), which this site refuses (spine_hosts refuse)");
	fors_topology_free(live);
	fors_topology_free(ref);
}
END_TEST

START_TEST(disjoint_from_the_reference)
{
	struct fors_topology *cas = text_topology("Hca 1 \"X0\"\n[1] \"X1\"[1]\nHca 1 \"X1\"\n[1] \"X0\"[1]\n");
	struct fors_topology *other = fixture("ibnetdiscover-ft-2-2.txt");
	struct fors_topology *ref = gen_topology(&ft22);

	refused(cas, ref, 1, "shares no switch with the reference topology");
	refused(cas, NULL, 1, "found 0 switches with hosts");
	refused(other, ref, 1, "shares no switch with the reference topology");
	ck_assert_uint_eq(fors_topology_common_switches(other, ref), 0);
	ck_assert_uint_eq(fors_topology_common_switches(ref, ref), 4);
	fors_topology_free(cas);
	fors_topology_free(other);
	fors_topology_free(ref);
}
END_TEST

START_TEST(leaf_without_uplinks_and_leaves_without_common_plane)
{
	uint8_t cut[2 * 2] = { 1, 1, 0, 0 }, cross[2 * 2] = { 1, 0, 0, 1 };
	struct fors_netgen g = ft22;
	struct fors_topology *ref = gen_topology(&ft22), *live;

	g.failed = cut;
	live = gen_topology(&g);
	refused(live, ref, 1, "leaf \"L00\" (L00) has hosts but no live uplink");
	fors_topology_free(live);
	g.failed = cross;
	live = gen_topology(&g);
	refused(live, ref, 1, "\"L00\" (L00) and \"L01\" (L01): no chain of live cables joins these leaves");
	fors_topology_free(live);
	fors_topology_free(ref);
}
END_TEST

/*
 * The subnet manager's own leaf cut off from every spine: the subnet it
 * sees is that leaf and its hosts, which need no uplink (no transfer
 * leaves the leaf). Routed and verified in hosts - 1 phases, the bound,
 * at every LMC (a leaf without uplinks beside others with hosts is still
 * refused: above).
 */
START_TEST(leaf_alone)
{
	static const struct fors_netgen ft44 = { 4, 4, 4, 1, NULL, 0, NULL,
						 NULL, 0, 0 };
	struct fors_topology *ref = gen_topology(&ft44);
	struct fors_topology *live = lone_leaf();
	struct fors_route *r;
	uint32_t lmc;

	for (lmc = 0; lmc <= 2; lmc++) {
		r = route_ok(live, ref, lmc, "the subnet manager's leaf alone");
		ck_assert_uint_eq(r->fb->f, 0);
		ck_assert_uint_eq(r->fb->m, 0);
		ck_assert_uint_eq(r->s->nphases, 3);
		ck_assert_uint_eq(r->s->nxfers, 12);
		fors_route_free(r);
	}
	fors_topology_free(live);
	fors_topology_free(ref);
}
END_TEST

/*
 * FT(2;4,4) with L00 on S00 and S01 only, L01 on S02 and S03 only (issue
 * 34): connected through L02 and L03, so routed, not refused. Their 32
 * transfers leave Algorithm 1's 24 phases (T*) and go back into the
 * links those leave free, or phases added after them: 4 at LMC 2 and 1,
 * 6 at LMC 0, with fewer routes to choose from, declared in split.
 * Each route leaf-spine-leaf-spine-leaf, every check passed at LMC 0 to
 * 2, and the file says how many phases at its end carry them (`detour`).
 * That is with the base LIDs chosen for the exchange; with the base map
 * (doc/narrow-lmc.md) every phase above T* is declared as well.
 */
START_TEST(leaves_apart)
{
	static uint8_t cut[16] = { 0, 0, 1, 1, 1, 1, 0, 0 };
	static const uint32_t added[3] = { 6, 4, 4 };
	struct fors_netgen g = { 4, 4, 4, 1, NULL, 0, NULL, NULL, 0, 0 };
	struct fors_topology *ref = gen_topology(&g), *live;
	struct fors_route *r;
	uint32_t lmc;

	g.failed = cut;
	live = gen_topology(&g);
	for (lmc = 0; lmc <= 2; lmc++) {
		struct fors_route_opts o = { .lmc = lmc, .exchange_lids = 1 };

		r = route_ok_with(live, ref, &o, "L00 and L01 apart");
		ck_assert_uint_eq(r->fb->apart, 1);
		ck_assert_uint_eq(r->detour.xfers, 32);
		ck_assert_uint_eq(r->detour.added, added[lmc]);
		ck_assert_uint_eq(r->s->nphases, 24 + r->detour.added);
		ck_assert_int_eq(fors_schedule_number(r->s, "split"), added[lmc]);
		ck_assert_int_eq(fors_schedule_number(r->s, "detour"), r->detour.phases);
		ck_assert_uint_eq(r->bound.t, 24);
		fors_route_free(r);
		r = route_ok(live, ref, lmc, "L00 and L01 apart, base map");
		ck_assert_uint_eq(r->detour.xfers, 32);
		ck_assert_int_eq(fors_schedule_number(r->s, "split"),
				 r->s->nphases - 24);
		fors_route_free(r);
	}
	fors_topology_free(live);
	fors_topology_free(ref);
}
END_TEST

/* Hold the cable between switches a and b down, at both ends. */
static void hold(struct fors_topology *t, const char *a, const char *b)
{
	uint32_t i, k = port_to(t, a, b);

	for (i = 0; strcmp(t->nodes[i].desc, a); i++)
		;
	t->nodes[i].ports[k].held = 1;
	t->nodes[t->nodes[i].ports[k].peer].ports[t->nodes[i].ports[k].peer_port].held = 1;
}

/* r's transfers delivered, one a link and phase, over t (held cables cut). */
static void delivered_without(const struct fors_topology *t,
			      const struct fors_route *r)
{
	struct fors_lft_dump *d = dump_of(r);
	struct fors_check_report rep;
	struct fors_error err;

	fors_check_routes(t, d, r->s, &rep, &err);
	ck_assert_msg(rep.undelivered == 0 && rep.shared == 0,
		      "over the cables not held: %s", rep.nkept ? rep.kept[0] : "");
	fors_lft_dump_free(d);
}

/*
 * The same leaves apart by the hold-down instead (the soak, seed 97054,
 * event 5): every cable up, L00-S02, L00-S03, L01-S00, L01-S01 held. L00
 * ranks first, so every spine's home was L00, and L01's detours went up
 * S02 to L00 over a held cable. The root and the ranking now count only
 * cables that are not held, homes prefer them, and the packing takes no
 * held cable: the transfers are all delivered over the fabric without
 * the held cables. With L02-S03 and L03-S00 held too, no leaf has every
 * spine; L00's detours to L01 all pass L02 and its one plane to L01, so
 * 8 phases are added to the 32.
 */
START_TEST(leaves_apart_held)
{
	static uint8_t cut[16] = { 0, 0, 1, 1, 1, 1, 0, 0 };
	struct fors_netgen g = { 4, 4, 4, 1, NULL, 0, NULL, NULL, 0, 0 };
	struct fors_topology *ref = gen_topology(&g), *live, *noheld;
	struct fors_route *r;

	live = gen_topology(&g);
	hold(live, "L00", "S02");
	hold(live, "L00", "S03");
	hold(live, "L01", "S00");
	hold(live, "L01", "S01");
	g.failed = cut;
	noheld = gen_topology(&g);
	r = route_ok(live, ref, 2, "L00 and L01 apart by held cables");
	ck_assert_uint_eq(r->fb->apart, 1);
	ck_assert_uint_eq(r->s->nphases, 24 + 4);
	delivered_without(noheld, r);
	fors_route_free(r);
	hold(live, "L02", "S03");
	hold(live, "L03", "S00");
	cut[11] = cut[12] = 1;
	fors_topology_free(noheld);
	noheld = gen_topology(&g);
	r = route_ok(live, ref, 2, "and L02-S03, L03-S00 held");
	ck_assert_uint_eq(r->s->nphases, 32 + 8);	/* L02 -> S02 for all */
	delivered_without(noheld, r);
	fors_route_free(r);
	fors_topology_free(noheld);
	fors_topology_free(live);
	fors_topology_free(ref);
}
END_TEST

/*
 * The packing itself takes no held cable, however the tables route: the
 * leaves-apart fabric routed, then every cable of L02 and L03 (the only
 * intermediates) held, and its detours packed again over those tables:
 * refused, naming the pair, rather than put on held cables.
 */
START_TEST(detour_pack_refuses_held)
{
	static uint8_t cut[16] = { 0, 0, 1, 1, 1, 1, 0, 0 };
	struct fors_netgen g = { 4, 4, 4, 1, NULL, 0, cut, NULL, 0, 0 };
	struct fors_topology *live = gen_topology(&g);
	struct fors_schedule *base, *out;
	struct fors_detour_info info;
	struct fors_route *r = route_ok(live, NULL, 2, "L00 and L01 apart");
	struct fors_error err;
	uint32_t s;
	char sp[4];

	ck_assert_int_eq(fors_detour_strip(r->fb, r->s, &base, &err), 0);
	for (s = 0; s < 4; s++) {
		snprintf(sp, sizeof(sp), "S0%u", s);
		hold(live, "L02", sp);
		hold(live, "L03", sp);
	}
	ck_assert_int_eq(fors_detour_pack(r->lfts, live, r->fb, r->joins, base,
					  &out, &info, &err), FORS_EINVAL);
	ck_assert_msg(strstr(err.msg, "at no LID offset without a held cable (leaves 0 and 1 share no live plane)") ||
		      strstr(err.msg, "(leaves 1 and 0 share no live plane)"),
		      "%s", err.msg);
	fors_route_free(r);
	fors_topology_free(live);
}
END_TEST

/*
 * The root leaf apart from another: L00 keeps S00-S02 (the most spines:
 * the root, every one of its spines at home there, so no detour's first
 * spine), L01 keeps S03 and a held cable to S00. The general search then
 * routes L00's entries for L01's hosts; the shortest legal route is
 * L00-S00-L01 over the held cable, which a hop there costs
 * FORS_HELD_HOP not to take: L00-S01-L03-S03-L01, no held cable.
 */
START_TEST(root_apart_held)
{
	static uint8_t cut[16] = { 0, 0, 0, 1, 0, 1, 1, 0,
				   1, 1, 0, 0, 1, 0, 1, 0 };
	struct fors_netgen g = { 4, 4, 4, 1, NULL, 0, NULL, NULL, 0, 0 };
	struct fors_topology *ref = gen_topology(&g), *live, *noheld;
	struct fors_route *r;

	g.failed = cut;
	live = gen_topology(&g);
	hold(live, "L01", "S00");
	cut[4] = 1;
	noheld = gen_topology(&g);
	r = route_ok(live, ref, 2, "the root apart from L01");
	ck_assert_uint_gt(r->detour.phases, 0);
	ck_assert_uint_eq(r->detour.added, 0);
	delivered_without(noheld, r);
	fors_route_free(r);
	fors_topology_free(noheld);
	fors_topology_free(live);
	fors_topology_free(ref);
}
END_TEST

/*
 * The soak's seed 97054, event 34: FT(2;8,8) without S00 and S04 at five
 * leaves, S00 at the rest, and L05-S07. T* and P_f are 75, Algorithm 1's
 * phases need 20 splits (95), the cyclic schedule is placed at 79: it must
 * say so (split 4) and pass every check, where the plugin once refused it.
 */
START_TEST(cyclic_above_pf)
{
	static const uint8_t cut[][2] = {
		{ 0, 0 }, { 0, 4 }, { 1, 0 }, { 1, 4 }, { 2, 0 }, { 2, 4 },
		{ 3, 0 }, { 4, 0 }, { 4, 4 }, { 5, 0 }, { 6, 0 }, { 6, 4 },
		{ 7, 0 }, { 7, 4 }, { 5, 7 },
	};
	static const struct fors_netgen ft88 = { 8, 8, 8, 1, NULL, 0, NULL,
						 NULL, 0, 0 };
	struct fors_topology *ref = gen_topology(&ft88), *live;
	struct fors_netgen g = ft88;
	uint8_t failed[8 * 8] = { 0 };
	struct fors_route *r;
	uint32_t i;

	for (i = 0; i < sizeof(cut) / sizeof(cut[0]); i++)
		failed[cut[i][0] * 8 + cut[i][1]] = 1;
	g.failed = failed;
	live = gen_topology(&g);
	r = route_ok(live, ref, 3, "seed 97054, event 34");
	ck_assert_uint_eq(r->bound.t, 75);
	ck_assert_uint_eq(r->s->nphases, 79);
	ck_assert_int_eq(fors_schedule_number(r->s, "split"), 4);
	fors_route_free(r);
	fors_topology_free(live);
	fors_topology_free(ref);
}
END_TEST

/*
 * A spine back with its cables on other ports of its own (routes as
 * before), or with two leaf ports swapped with another spine's (those
 * planes are dead: the expected cable is not there).
 */
START_TEST(spine_back_recabled)
{
	struct fors_netgen g = { 4, 4, 4, 1, NULL, 0, NULL, NULL, 0, 0 };
	const char *spine_from[] = { "[1] \"L00\"[5]", "[2] \"L01\"[5]",
				     "[5] \"S00\"[1]", "[5] \"S00\"[2]" };
	const char *spine_to[] = { "[1] \"L01\"[5]", "[2] \"L00\"[5]",
				   "[5] \"S00\"[2]", "[5] \"S00\"[1]" };
	const char *leaf_from[] = { "[5] \"S00\"[1]", "[6] \"S01\"[1]",
				    "[1] \"L00\"[5]", "[1] \"L00\"[6]" };
	const char *leaf_to[] = { "[5] \"S01\"[1]", "[6] \"S00\"[1]",
				  "[1] \"L00\"[6]", "[1] \"L00\"[5]" };
	struct fors_topology *ref = gen_topology(&g), *live;
	struct fors_route *r;

	live = edited(&g, spine_from, spine_to, 4);
	r = route_ok(live, ref, 2, "spine ports swapped");
	ck_assert_uint_eq(r->fb->f, 0);
	fors_route_free(r);
	fors_topology_free(live);
	live = edited(&g, leaf_from, leaf_to, 4);
	r = route_ok(live, ref, 2, "leaf ports swapped between spines");
	ck_assert_uint_eq(r->fb->f, 2);
	fors_route_free(r);
	fors_topology_free(live);
	fors_topology_free(ref);
}
END_TEST

/*
 * A host moved to a free port of another leaf: against a fixed reference
 * it is refused; against the remembered fabric (the union of what was
 * seen, as the plugin keeps it) it is routed and verified there.
 */
START_TEST(host_moved)
{
	uint8_t absent[3 * 2] = { 0, 0, 0, 0, 0, 1 };
	struct fors_netgen g = { 3, 2, 3, 1, absent, 0, NULL, NULL, 0, 0 };
	const char *from[] = { "[2] \"H001\"[1]", "[1] \"L00\"[2]", "[3] \"H005\"[1]" };
	const char *to[] = { "", "[1] \"L01\"[3]", "[3] \"H001\"[1]" };
	struct fors_topology *ref = gen_topology(&g), *live, *seen = NULL;
	struct fors_route *r;
	struct fors_error err;

	live = edited(&g, from, to, 3);
	refused(live, ref, 2, "leaf \"L01\" (L01) port 3 has a host the reference topology does not have");
	ck_assert_int_eq(fors_topology_merge(&seen, ref, &err), 0);
	ck_assert_int_eq(fors_topology_merge(&seen, live, &err), 0);
	r = route_ok(live, seen, 2, "host moved, remembered fabric");
	ck_assert_uint_eq(r->fb->nhosts, 5);
	fors_route_free(r);
	fors_topology_free(seen);
	fors_topology_free(live);
	fors_topology_free(ref);
}
END_TEST

START_TEST(duplicate_guids)
{
	const char *text =
		"switchguid=0x10\nSwitch 3 \"S-0000000000000010\" # \"L0\"\n"
		"[1] \"H-0000000000000001\"[1](1)\n[3] \"S-0000000000000020\"[1]\n"
		"switchguid=0x11\nSwitch 3 \"S-0000000000000011\" # \"L1\"\n"
		"[1] \"H-0000000000000002\"[1](1)\n[3] \"S-0000000000000020\"[2]\n"
		"switchguid=0x20\nSwitch 2 \"S-0000000000000020\" # \"S0\"\n"
		"[1] \"S-0000000000000010\"[3]\n[2] \"S-0000000000000011\"[3]\n"
		"caguid=0x1\nCa 1 \"H-0000000000000001\" # \"H0\"\n[1](1) \"S-0000000000000010\"[1]\n"
		"caguid=0x2\nCa 1 \"H-0000000000000002\" # \"H1\"\n[1](1) \"S-0000000000000011\"[1]\n";
	struct fors_topology *t = text_topology(text);

	refused(t, NULL, 0, "share a GUID");
	fors_topology_free(t);
}
END_TEST

/* The subnet's LIDs were given for LMC 1; routed at LMC 2 they are refused. */
START_TEST(lmc_change)
{
	struct fors_topology *t = fixture("ibnetdiscover-ft-2-2-lmc1.txt");
	struct fors_route_opts o = { .lmc = 2, .renumber_lids = 1 };
	struct fors_route *r;
	struct fors_error err;

	fors_route_free(route_ok(t, NULL, 1, "LMC 1"));
	refused(t, NULL, 2, "base LID not aligned to the LMC");
	ck_assert_int_eq(fors_route_compute(t, NULL, &o, &r, &err), 0);
	fors_route_free(r);
	fors_topology_free(t);
}
END_TEST

/* More ports than the reference: used ones refused; fewer: routed. */
START_TEST(ports_beyond_the_reference)
{
	const char *more_from[] = { "Switch 4 \"L00\"", "[4] \"S01\"[1]",
				    "Switch 2 \"S00\"", "[2] \"L01\"[3]" };
	const char *more_to[] = { "Switch 6 \"L00\"", "[4] \"S01\"[1]\n[5] \"S00\"[3]",
				  "Switch 3 \"S00\"", "[2] \"L01\"[3]\n[3] \"L00\"[5]" };
	const char *wide_from[] = { "Switch 4 \"L00\"" };
	const char *wide_to[] = { "Switch 9 \"L00\"" };
	const char *few_from[] = { "Switch 4 \"L01\"", "[4] \"S01\"[2]", "[2] \"L01\"[4]" };
	const char *few_to[] = { "Switch 3 \"L01\"", "", "" };
	struct fors_topology *ref = gen_topology(&ft22), *live;
	struct fors_route *r;

	live = edited(&ft22, more_from, more_to, 4);
	refused(live, ref, 1, "\"L00\" (L00) and \"S00\" (S00): cabled on a port beyond");
	fors_topology_free(live);
	live = edited(&ft22, wide_from, wide_to, 1);
	fors_route_free(route_ok(live, ref, 1, "more ports, unused"));
	fors_topology_free(live);
	live = edited(&ft22, few_from, few_to, 3);
	r = route_ok(live, ref, 1, "fewer ports than the reference");
	ck_assert_uint_eq(r->fb->f, 1);
	fors_route_free(r);
	fors_topology_free(live);
	fors_topology_free(ref);
}
END_TEST

/* The schedule file and the LFT dump of live, as text. */
static void outputs(const struct fors_topology *live, char **sched, char **lfts)
{
	struct fors_route_opts o = { .lmc = 3, .renumber_lids = 1 };
	struct fors_route *r;
	struct fors_error err;
	size_t len;
	FILE *f;

	ck_assert_msg(fors_route_compute(live, NULL, &o, &r, &err) == 0, "%s",
		      err.msg);
	f = open_memstream(sched, &len);
	ck_assert_int_eq(fors_schedule_write(f, r->s), 0);
	fclose(f);
	f = open_memstream(lfts, &len);
	ck_assert_int_eq(fors_lfts_write(f, r->lfts, live, r->fb), 0);
	fclose(f);
	fors_route_free(r);
}

/*
 * A standby subnet manager discovers the fabric in another order: the
 * node blocks of the topology shuffled give byte-identical outputs.
 */
START_TEST(discovery_order)
{
	uint8_t failed[8 * 8 * 2] = { 0 };
	struct fors_netgen g = { 8, 8, 4, 2, NULL, 2, failed, NULL, 0, 0 };
	struct fors_topology *t, *orig, *shuffled;
	char *text = NULL, *blocks[512], *out, *s1, *l1, *s2, *l2;
	size_t len = 0;
	uint32_t i, k, n = 0;
	FILE *f;

	test_rng = 0x5b1 + (uint64_t)_i;
	for (i = 0; i < 6; i++)
		failed[rnd() % sizeof(failed)] = 1;
	t = gen_topology(&g);
	for (i = 0; i < t->nnodes; i++) {	/* GUIDs in another order than ids */
		t->nodes[i].guid = 0x10000 + (i * 7919u) % 10007u;
		for (k = 1; t->nodes[i].type == FORS_CA && k <= t->nodes[i].nports; k++)
			t->nodes[i].ports[k].guid = 0x900000 + i * 4 + k;
	}
	f = open_memstream(&text, &len);
	ck_assert_int_eq(fors_topology_write(f, t), 0);
	fclose(f);
	orig = text_topology(text);
	for (char *b = text; b && *b && n < 512; n++) {
		char *e = strstr(b, "\n\n");

		blocks[n] = b;
		if (e)
			*e = '\0';
		b = e ? e + 2 : NULL;
	}
	for (i = n; i > 1; i--) {
		uint32_t j = rnd() % i;
		char *x = blocks[i - 1];

		blocks[i - 1] = blocks[j];
		blocks[j] = x;
	}
	out = calloc(len + 2 * n + 1, 1);
	ck_assert_ptr_nonnull(out);
	for (i = 0; i < n; i++) {
		strcat(out, blocks[i]);
		strcat(out, "\n\n");
	}
	shuffled = text_topology(out);
	ck_assert(strcmp(orig->nodes[0].id, shuffled->nodes[0].id) ||
		  strcmp(orig->nodes[1].id, shuffled->nodes[1].id));
	outputs(orig, &s1, &l1);
	outputs(shuffled, &s2, &l2);
	ck_assert_msg(!strcmp(s1, s2), "the schedules differ");
	ck_assert_msg(!strcmp(l1, l2), "the LFT dumps differ");
	free(s1);
	free(l1);
	free(s2);
	free(l2);
	free(out);
	free(text);
	fors_topology_free(t);
	fors_topology_free(orig);
	fors_topology_free(shuffled);
}
END_TEST

int main(void)
{
	Suite *su = suite_create("odd");
	TCase *tc = tcase_create("odd");

	tcase_add_test(tc, host_on_a_spine);
	tcase_add_test(tc, disjoint_from_the_reference);
	tcase_add_test(tc, leaf_without_uplinks_and_leaves_without_common_plane);
	tcase_add_test(tc, leaf_alone);
	tcase_add_test(tc, leaves_apart);
	tcase_add_test(tc, leaves_apart_held);
	tcase_add_test(tc, root_apart_held);
	tcase_add_test(tc, detour_pack_refuses_held);
	tcase_add_test(tc, cyclic_above_pf);
	tcase_add_test(tc, spine_back_recabled);
	tcase_add_test(tc, host_moved);
	tcase_add_test(tc, duplicate_guids);
	tcase_add_test(tc, lmc_change);
	tcase_add_test(tc, ports_beyond_the_reference);
	tcase_add_loop_test(tc, discovery_order, 0, 4);
	suite_add_tcase(su, tc);
	return run_suite(su);
}
