// SPDX-License-Identifier: MIT
/* Fabric recognition and failure analysis. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/fabric.h"
#include "fabric_util.h"
#include "suite.h"

/* FT(2;20,18) with 20 spines: the LHCb DAQ network, all slots filled. */
static struct fors_netgen lhcb(uint8_t *failed, uint8_t *dead)
{
	return (struct fors_netgen){ .m0 = 20, .m1 = 18, .nspines = 20,
				     .cables = 1, .failed = failed,
				     .dead = dead };
}

static struct fors_fabric *analyse(const struct fors_netgen *g,
				   const struct fors_netgen *healthy)
{
	struct fors_topology *t = gen_topology(g), *r = NULL;
	struct fors_fabric *fb;
	struct fors_error err;

	if (healthy)
		r = gen_topology(healthy);
	ck_assert_msg(fors_fabric_analyse(t, r, &fb, &err) == FORS_OK, "%s",
		      err.msg);
	fors_topology_free(t);
	fors_topology_free(r);
	return fb;
}

START_TEST(healthy_lhcb)
{
	struct fors_netgen g = lhcb(NULL, NULL);
	struct fors_fabric *fb = analyse(&g, NULL);
	uint32_t l, p;

	ck_assert_uint_eq(fb->m0, 20);
	ck_assert_uint_eq(fb->m1, 18);
	ck_assert_uint_eq(fb->q, 20);
	ck_assert_uint_eq(fb->f, 0);
	ck_assert_uint_eq(fb->m, 0);
	ck_assert_uint_eq(fb->nhosts, 360);
	for (l = 0; l < 18; l++)
		for (p = 0; p < 20; p++)
			ck_assert(fors_plane_live(fb, l, p));
	/* leaf port 21 + s is the cable to spine s; spine port 1 + l */
	ck_assert_uint_eq(fb->up[5 * 20 + 7], 28);
	ck_assert_uint_eq(fb->down[5 * 20 + 7], 6);
	ck_assert_uint_eq(fb->hosts[45].sid, 45);
	ck_assert_uint_eq(fb->hosts[45].leaf_port, 6);
	fors_fabric_free(fb);
}
END_TEST

static uint8_t *cuts(const uint32_t (*c)[2], size_t n)
{
	uint8_t *f = calloc(18 * 20, 1);
	size_t i;

	ck_assert_ptr_nonnull(f);
	for (i = 0; i < n; i++)
		f[c[i][0] * 20 + c[i][1]] = 1;
	return f;
}

/* The paper's scenarios (Section 3.1): f and m. */
START_TEST(paper_scenarios)
{
	static const uint32_t f1[][2] = { { 0, 18 } };
	static const uint32_t f3[][2] = { { 0, 18 }, { 0, 19 }, { 0, 20 % 20 } };
	static const uint32_t s3[][2] = {
		{ 0, 18 }, { 0, 19 }, { 0, 0 }, { 5, 1 }, { 5, 2 }, { 5, 3 },
		{ 11, 4 }, { 11, 5 }, { 11, 6 },
	};
	static const uint32_t s1[][2] = { { 0, 18 }, { 5, 19 }, { 11, 0 } };
	struct {
		const uint32_t (*c)[2];
		size_t n;
		uint32_t f, m;
	} sc[] = {
		{ f1, 1, 1, 1 }, { f3, 3, 3, 3 }, { s1, 3, 1, 3 },
		{ s3, 9, 3, 9 },
	};
	size_t i;

	for (i = 0; i < sizeof(sc) / sizeof(sc[0]); i++) {
		uint8_t *failed = cuts(sc[i].c, sc[i].n);
		struct fors_netgen g = lhcb(failed, NULL);
		struct fors_fabric *fb = analyse(&g, NULL);

		ck_assert_uint_eq(fb->f, sc[i].f);
		ck_assert_uint_eq(fb->m, sc[i].m);
		ck_assert_uint_eq(fb->q, 20);
		fors_fabric_free(fb);
		free(failed);
	}
}
END_TEST

/* Dead spines: visible against a reference, a smaller tree without one. */
START_TEST(dead_spines)
{
	uint8_t dead[20] = { 0 };
	struct fors_netgen g = lhcb(NULL, dead), h = lhcb(NULL, NULL);
	struct fors_fabric *fb;

	dead[18] = dead[19] = dead[2] = dead[3] = 1;
	fb = analyse(&g, &h);
	ck_assert_uint_eq(fb->q, 20);
	ck_assert_uint_eq(fb->f, 4);
	ck_assert_uint_eq(fb->m, 4);
	ck_assert_uint_eq(fb->spine[18], FORS_NO_PEER);
	ck_assert(!fors_plane_live(fb, 3, 19));
	fors_fabric_free(fb);
	fb = analyse(&g, NULL);
	ck_assert_uint_eq(fb->q, 16);
	ck_assert_uint_eq(fb->f, 4);
	ck_assert_uint_eq(fb->m, 0);
	fors_fabric_free(fb);
}
END_TEST

/* Two cables per spine give two planes; a cut kills the right one. */
START_TEST(parallel_cables)
{
	uint8_t failed[4 * 3 * 2] = { 0 };
	struct fors_netgen g = { .m0 = 6, .m1 = 4, .nspines = 3, .cables = 2,
				 .failed = failed };
	struct fors_netgen h = g;
	struct fors_fabric *fb;

	h.failed = NULL;
	failed[(2 * 3 + 1) * 2 + 1] = 1;	/* leaf 2, spine 1, cable 1 */
	fb = analyse(&g, &h);
	ck_assert_uint_eq(fb->q, 6);
	ck_assert_uint_eq(fb->plane_spine[3], 1);
	ck_assert_uint_eq(fb->plane_rank[3], 1);
	ck_assert(!fors_plane_live(fb, 2, 3));
	ck_assert(fors_plane_live(fb, 2, 2));
	ck_assert_uint_eq(fb->f, 1);
	ck_assert_uint_eq(fb->m, 1);
	fors_fabric_free(fb);
}
END_TEST

/* Absent hosts keep their slots empty; nobody is renumbered. */
START_TEST(absent_hosts_keep_numbering)
{
	uint8_t absent[5 * 3] = { 0 };
	struct fors_netgen g = { .m0 = 5, .m1 = 3, .nspines = 5, .cables = 1,
				 .absent = absent };
	struct fors_netgen h = g;
	struct fors_fabric *fb;

	h.absent = NULL;
	absent[1] = absent[7] = 1;
	fb = analyse(&g, &h);
	ck_assert_uint_eq(fb->nhosts, 13);
	ck_assert_int_eq(fb->host_at[1], -1);
	ck_assert_int_eq(fb->host_at[7], -1);
	ck_assert_uint_eq(fb->hosts[fb->host_at[8]].sid, 8);
	ck_assert_uint_eq(fb->hosts[fb->host_at[8]].leaf_port, 4);
	fors_fabric_free(fb);
	/* without a reference an empty last slot shrinks nothing else */
	absent[1] = absent[7] = 0;
	absent[4] = 1;
	fb = analyse(&g, NULL);
	ck_assert_uint_eq(fb->m0, 5);
	ck_assert_int_eq(fb->host_at[4], -1);
	fors_fabric_free(fb);
}
END_TEST

START_TEST(real_lab_output)
{
	struct fors_topology *t = fixture("ibnetdiscover-ft-2-2.txt");
	struct fors_fabric *fb;
	struct fors_error err;

	ck_assert_msg(fors_fabric_analyse(t, NULL, &fb, &err) == FORS_OK,
		      "%s", err.msg);
	ck_assert_uint_eq(fb->m0, 2);
	ck_assert_uint_eq(fb->m1, 2);
	ck_assert_uint_eq(fb->q, 2);
	ck_assert_uint_eq(fb->nhosts, 4);
	/* leaves by GUID: L0 (0x200000) first, its H0 then H1 */
	ck_assert_uint_eq(fb->hosts[0].guid, 0x100001);
	ck_assert_uint_eq(fb->hosts[0].lid, 1);
	ck_assert_uint_eq(fb->hosts[1].guid, 0x100003);
	ck_assert_uint_eq(fb->hosts[3].lid, 8);
	fors_fabric_free(fb);
	fors_topology_free(t);
}
END_TEST

static const struct {
	const char *text;
	const char *msg;
} refused[] = {
	{ "Switch 4 \"A\"\n[1] \"H\"[1]\nHca 1 \"H\"\n[1] \"A\"[1]\n",
	  "found 1 switch with hosts: a two-level fat tree needs at least 2 leaves" },
	{ "Switch 4 \"A\"\n[1] \"H\"[1]\n[2] \"B\"[2]\nSwitch 4 \"B\"\n[1] \"G\"[1]\n"
	  "Hca 1 \"H\"\n[1] \"A\"[1]\nHca 1 \"G\"\n[1] \"B\"[1]\n",
	  "\"A\" (A) and \"B\" (B): two switches with hosts are linked, and no split into leaves and spines explains it" },
	{ "Switch 4 \"A\"\n[1] \"H\"[1]\nSwitch 4 \"B\"\n[1] \"G\"[1]\n"
	  "Hca 1 \"H\"\n[1] \"A\"[1]\nHca 1 \"G\"\n[1] \"B\"[1]\n",
	  "found no spine switches" },
	{ "Switch 4 \"A\"\n[1] \"H\"[1]\n[2] \"B\"[2]\n[3] \"S\"[1]\nSwitch 4 \"B\"\n[1] \"G\"[1]\n[3] \"S\"[2]\n"
	  "Switch 4 \"S\"\nHca 1 \"H\"\n[1] \"A\"[1]\nHca 1 \"G\"\n[1] \"B\"[1]\n",
	  "\"A\" (A) and \"B\" (B): two switches with hosts are linked" },
	{ "Switch 4 \"A\"\n[1] \"H\"[1]\n[3] \"S\"[1]\nSwitch 4 \"B\"\n[1] \"G\"[1]\n[3] \"S\"[2]\n"
	  "Switch 4 \"S\"\n[3] \"T\"[1]\nSwitch 4 \"T\"\nHca 1 \"H\"\n[1] \"A\"[1]\nHca 1 \"G\"\n[1] \"B\"[1]\n",
	  "\"S\" (S) and \"T\" (T): two switches without hosts are linked: a third level" },
	{ "Switch 4 \"A\"\n[1] \"H\"[1]\n[3] \"S\"[1]\nSwitch 4 \"B\"\n[1] \"G\"[1]\n[3] \"T\"[2]\n"
	  "Switch 4 \"S\"\nSwitch 4 \"T\"\nHca 1 \"H\"\n[1] \"A\"[1]\nHca 1 \"G\"\n[1] \"B\"[1]\n",
	  "\"A\" (A) and \"B\" (B): no chain of live cables joins these leaves" },
	{ "Switch 4 \"A\"\n[1] \"H\"[1]\nSwitch 4 \"B\"\n[1] \"G\"[1]\n[3] \"T\"[2]\n"
	  "Switch 4 \"T\"\nHca 1 \"H\"\n[1] \"A\"[1]\nHca 1 \"G\"\n[1] \"B\"[1]\n",
	  "leaf \"A\" (A) has hosts but no live uplink" },
	{ "Switch 4 \"A\"\n[1] \"H\"[1]\n[3] \"S\"[1]\nSwitch 4 \"B\"\n[1] \"G\"[1]\n[3] \"S\"[2]\n"
	  "Switch 4 \"S\"\nHca 1 \"H\"\n[1] \"A\"[1]\nHca 1 \"G\"\n[1] \"B\"[1]\n"
	  "Hca 1 \"X\"\n[1] \"Y\"[1]\nHca 1 \"Y\"\n",
	  "\"X\" (X) and \"Y\" (Y): two hosts linked without a switch" },
};

/*
 * SHARP Aggregation Nodes behind every switch, as NVIDIA's switches have
 * them: recognised by the switch's system image GUID, they take no slot
 * and make no spine a leaf; the fabric is the one without them, and a
 * dead spine takes its own with it.
 */
START_TEST(aggregation_nodes)
{
	uint8_t dead[4] = { 0, 0, 0, 1 };
	struct fors_netgen g = { .m0 = 4, .m1 = 4, .nspines = 4, .cables = 1,
				 .aggregation = 1 };
	struct fors_netgen h = g;
	struct fors_fabric *fb = analyse(&g, NULL);

	ck_assert_uint_eq(fb->m0, 4);
	ck_assert_uint_eq(fb->m1, 4);
	ck_assert_uint_eq(fb->nspines, 4);
	ck_assert_uint_eq(fb->nhosts, 16);
	ck_assert_uint_eq(fb->nparts, 8);
	ck_assert_uint_eq(fb->f, 0);
	fors_fabric_free(fb);
	g.dead = dead;
	fb = analyse(&g, &h);
	ck_assert_uint_eq(fb->nparts, 7);
	ck_assert_uint_eq(fb->f, 1);
	fors_fabric_free(fb);
}
END_TEST

/*
 * Without system image GUIDs, the vendor's description tells; else it is a
 * host on a spine, routed without a slot as well.
 */
static const char agg_text[] =
	"Switch 4 \"L0\"\n[1] \"H0\"[1]\n[3] \"S0\"[1]\n\n"
	"Switch 4 \"L1\"\n[1] \"H1\"[1]\n[3] \"S0\"[2]\n\n"
	"Switch 4 \"S0\"\n[1] \"L0\"[3]\n[2] \"L1\"[3]\n[4] \"A\"[1]\n\n"
	"Ca 1 \"H0\"\n[1] \"L0\"[1]\n\nCa 1 \"H1\"\n[1] \"L1\"[1]\n\n"
	"Ca 1 \"A\" # \"%s\"\n[1] \"S0\"[4]\n";

START_TEST(aggregation_by_description)
{
	char text[512];
	struct fors_topology *t;
	struct fors_fabric *fb;
	struct fors_error err;

	snprintf(text, sizeof(text), agg_text,
		 "Mellanox Technologies Aggregation Node");
	t = text_topology(text);
	ck_assert_int_eq(fors_fabric_analyse(t, NULL, &fb, &err), 0);
	ck_assert_uint_eq(fb->nhosts, 2);
	ck_assert_uint_eq(fb->nparts, 1);
	ck_assert_int_eq(fb->parts[0].kind, FORS_PART_SWITCH);
	fors_fabric_free(fb);
	fors_topology_free(t);
	snprintf(text, sizeof(text), agg_text, "storage");
	t = text_topology(text);
	ck_assert_int_eq(fors_fabric_analyse(t, NULL, &fb, &err), 0);
	ck_assert_uint_eq(fb->nparts, 1);
	ck_assert_int_eq(fb->parts[0].kind, FORS_PART_SPINE_HOST);
	fors_fabric_free(fb);
	/* the switch's system image GUID tells, whatever the description */
	ck_assert_str_eq(t->nodes[2].id, "S0");
	ck_assert_str_eq(t->nodes[5].id, "A");
	t->nodes[2].sysguid = t->nodes[5].sysguid = 0x2c9;
	ck_assert_int_eq(fors_fabric_analyse(t, NULL, &fb, &err), 0);
	ck_assert_uint_eq(fb->nparts, 1);
	ck_assert_int_eq(fb->parts[0].kind, FORS_PART_SWITCH);
	fors_fabric_free(fb);
	fors_topology_free(t);
}
END_TEST

START_TEST(refuses_what_is_not_a_fat_tree)
{
	struct fors_topology *t = text_topology(refused[_i].text);
	struct fors_fabric *fb = (void *)1;
	struct fors_error err;

	ck_assert_int_eq(fors_fabric_analyse(t, NULL, &fb, &err), FORS_EINVAL);
	ck_assert_ptr_null(fb);
	ck_assert_msg(strstr(err.msg, refused[_i].msg), "case %d: got \"%s\"",
		      _i, err.msg);
	fors_topology_free(t);
}
END_TEST

START_TEST(reference_mismatch)
{
	struct fors_netgen g = { .m0 = 3, .m1 = 2, .nspines = 3, .cables = 1 };
	struct fors_netgen h = { .m0 = 3, .m1 = 2, .nspines = 2, .cables = 1 };
	uint8_t absent[6] = { 0, 0, 1, 0, 0, 0 };
	struct fors_topology *t = gen_topology(&g), *r = gen_topology(&h);
	struct fors_fabric *fb;
	struct fors_error err;

	ck_assert_int_eq(fors_fabric_analyse(t, r, &fb, &err), FORS_EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "\"S02\" (S02) is not in the reference"));
	fors_topology_free(r);
	h.nspines = 3;
	h.absent = absent;
	r = gen_topology(&h);
	ck_assert_int_eq(fors_fabric_analyse(t, r, &fb, &err), FORS_EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "port 3 has a host the reference topology does not have"));
	fors_topology_free(r);
	fors_topology_free(t);
}
END_TEST

int main(void)
{
	Suite *su = suite_create("fabric");
	TCase *tc = tcase_create("analysis");

	tcase_add_test(tc, healthy_lhcb);
	tcase_add_test(tc, paper_scenarios);
	tcase_add_test(tc, dead_spines);
	tcase_add_test(tc, parallel_cables);
	tcase_add_test(tc, absent_hosts_keep_numbering);
	tcase_add_test(tc, real_lab_output);
	tcase_add_test(tc, aggregation_nodes);
	tcase_add_test(tc, aggregation_by_description);
	tcase_add_loop_test(tc, refuses_what_is_not_a_fat_tree, 0,
			    sizeof(refused) / sizeof(refused[0]));
	tcase_add_test(tc, reference_mismatch);
	suite_add_tcase(su, tc);
	return run_suite(su);
}
