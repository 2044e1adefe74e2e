// SPDX-License-Identifier: MIT
/*
 * The topology parser on real ibnetdiscover output captured from the ibsim
 * lab, on the ibsim net file it came from, and on malformed input.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/fabric.h"
#include "formats/netgen.h"
#include "fabric/topology.h"
#include "fabric_util.h"
#include "formats/lftdump.h"
#include "suite.h"
#include "formats/ibnetdiscover.h"

static const struct fors_node *by_desc(const struct fors_topology *t,
				       const char *desc)
{
	uint32_t i;

	for (i = 0; i < t->nnodes; i++)
		if (!strcmp(t->nodes[i].desc, desc))
			return &t->nodes[i];
	ck_abort_msg("no node \"%s\"", desc);
	return NULL;
}

static const char *peer_desc(const struct fors_topology *t,
			     const struct fors_node *n, uint32_t port)
{
	ck_assert_uint_ne(n->ports[port].peer, FORS_NO_PEER);
	return t->nodes[n->ports[port].peer].desc;
}

/* Both files describe one fabric: L0, L1 with H0..H3, spines S0, S1. */
static void assert_ft_2_2(const struct fors_topology *t)
{
	const struct fors_node *l0 = by_desc(t, "L0"), *s1 = by_desc(t, "S1");
	const struct fors_node *h3 = by_desc(t, "H3");

	ck_assert_uint_eq(t->nnodes, 8);
	ck_assert_int_eq(l0->type, FORS_SWITCH);
	ck_assert_int_eq(h3->type, FORS_CA);
	ck_assert_uint_eq(l0->nports, 8);
	ck_assert_str_eq(peer_desc(t, l0, 1), "H0");
	ck_assert_str_eq(peer_desc(t, l0, 5), "S0");
	ck_assert_str_eq(peer_desc(t, l0, 6), "S1");
	ck_assert_uint_eq(l0->ports[6].peer_port, 1);
	ck_assert_uint_eq(l0->ports[3].peer, FORS_NO_PEER);
	ck_assert_str_eq(peer_desc(t, s1, 2), "L1");
	ck_assert_uint_eq(s1->ports[2].peer_port, 6);
	ck_assert_str_eq(peer_desc(t, h3, 1), "L1");
	ck_assert_uint_eq(h3->ports[1].peer_port, 2);
}

START_TEST(real_ibnetdiscover_output)
{
	struct fors_topology *t = fixture("ibnetdiscover-ft-2-2.txt");
	const struct fors_node *l1 = by_desc(t, "L1"), *h2 = by_desc(t, "H2");

	assert_ft_2_2(t);
	ck_assert_str_eq(l1->id, "S-0000000000200001");
	ck_assert_uint_eq(l1->guid, 0x200001);
	ck_assert_uint_eq(l1->sysguid, 0x200001);
	ck_assert_uint_eq(l1->lid, 3);
	ck_assert_uint_eq(h2->guid, 0x100004);
	ck_assert_uint_eq(h2->ports[1].guid, 0x100005);
	ck_assert_uint_eq(h2->ports[1].lid, 7);
	ck_assert_uint_eq(h2->ports[1].lmc, 0);
	fors_topology_free(t);
	/* "# lid 12 lmc 1 "L1" lid 3 4xSDR": the CA's own, not its peer's */
	t = fixture("ibnetdiscover-ft-2-2-lmc1.txt");
	h2 = by_desc(t, "H2");
	ck_assert_uint_eq(h2->ports[1].lid, 12);
	ck_assert_uint_eq(h2->ports[1].lmc, 1);
	fors_topology_free(t);
}
END_TEST

START_TEST(ibsim_net_file)
{
	struct fors_topology *t = fixture("ibsim-ft-2-2.net");
	const struct fors_node *h0 = by_desc(t, "H0");

	assert_ft_2_2(t);
	ck_assert_str_eq(h0->id, "H0");
	ck_assert_uint_eq(h0->guid, 0);
	ck_assert_uint_eq(h0->ports[1].lid, 0);
	ck_assert_uint_eq(h0->ports[1].lmc, FORS_NO_LMC);
	fors_topology_free(t);
}
END_TEST

/* A link given on one side only is completed on the other. */
START_TEST(one_sided_links)
{
	static const char text[] =
		"Switch 4 \"A\"\n[1] \"B\"[2]\n\nSwitch 4 \"B\"\n";
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	struct fors_topology *t;
	struct fors_error err;

	ck_assert_int_eq(fors_topology_read(f, "t", &t, &err), FORS_OK);
	ck_assert_uint_eq(t->nodes[1].ports[2].peer, 0);
	ck_assert_uint_eq(t->nodes[1].ports[2].peer_port, 1);
	fors_topology_free(t);
	fclose(f);
}
END_TEST

static const struct {
	const char *text;
	const char *msg;
} malformed[] = {
	{ "", "t: no nodes in the topology" },
	{ "# only comments\nvendid=0x0\n", "t: no nodes in the topology" },
	{ "# ibnetdiscover -p\nCA    3 1 0x0002c903000ffe35 4x SDR - SW     2 3 0x0002c903000ff5d9 ( 'H1' - 'L1' )\n",
	  "t:2: this is ibnetdiscover -p (one line per port) output; fors reads the topology ibnetdiscover prints without options, or an ibsim net file" },
	{ "{ CA Ports:1 SystemGUID:0002c903000ffe35 NodeGUID:0002c903000ffe34 PortGUID:0002c903000ffe35 VenID:000002C9 DevID:6340 Rev:000000A0 {H1 HCA-1} LID:0004 PN:01 } { SW Ports:24 SystemGUID:0002c903000ff5d9 NodeGUID:0002c903000ff5d9 PortGUID:0002c903000ff5d9 VenID:000002C9 DevID:BD36 Rev:000000A0 {L1} LID:0002 PN:03 } PHY=4x LOG=ACT SPD=5\n",
	  "t:1: this is ibdiagnet's or ibutils' subnet.lst output; fors reads" },
	{ "[1] \"A\"[1]\n", "t:1: port line before any node" },
	{ "Switch x \"A\"\n", "t:1: expected a port count" },
	{ "Switch 0 \"A\"\n", "t:1: expected a port count" },
	{ "Switch 255 \"A\"\n", "t:1: expected a port count" },
	{ "Switch 4 A\n", "t:1: expected a quoted node id" },
	{ "Switch 4 \"A\"\n[5] \"B\"[1]\n", "t:2: expected '[port]' with a port of the node" },
	{ "Switch 4 \"A\"\n[1 \"B\"[1]\n", "t:2: expected '[port]' with a port of the node" },
	{ "Switch 4 \"A\"\n[1] B[1]\n", "t:2: expected the quoted id of the peer node" },
	{ "Switch 4 \"A\"\n[1] \"B\"\n", "t:2: expected '[port]' of the peer node" },
	{ "Switch 4 \"A\"\n[1] \"B\"[0]\n", "t:2: expected '[port]' of the peer node" },
	{ "Switch 4 \"A\"\n[1] \"B\"[1]\n[1] \"B\"[2]\n", "t:3: port listed twice" },
	{ "Switch 4 \"A\"\n[1] \"B\"[1]\n", "t:1: node \"A\" port 1: peer node is not declared" },
	{ "Switch 4 \"A\"\n[1] \"B\"[9]\nSwitch 4 \"B\"\n", "t:1: node \"A\" port 1: peer port does not exist" },
	{ "Switch 4 \"A\"\n[1] \"B\"[1]\nSwitch 4 \"B\"\n[1] \"C\"[1]\nSwitch 4 \"C\"\n",
	  "t:1: node \"A\" port 1: the peer port lists another link" },
	{ "Switch 4 \"A\"\nSwitch 4 \"A\"\n", "t:2: node id declared twice" },
	{ "switchguid=zz\nSwitch 4 \"A\"\n", "t:1: expected a hexadecimal GUID" },
	{ "Rt 4 \"R\"\n", "t:1: routers are not supported" },
	{ "include other.net\n", "t:1: 'include' is not supported" },
};

START_TEST(rejects_malformed)
{
	const char *text = malformed[_i].text;
	FILE *f = fmemopen((void *)text, strlen(text) + (*text ? 0 : 1), "r");
	struct fors_topology *t = (void *)1;
	struct fors_error err;

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fors_topology_read(f, "t", &t, &err), FORS_EFORMAT);
	ck_assert_ptr_null(t);
	ck_assert_msg(!strncmp(err.msg, malformed[_i].msg,
			       strlen(malformed[_i].msg)),
		      "case %d: got \"%s\", want \"%s...\"", _i, err.msg,
		      malformed[_i].msg);
	fclose(f);
}
END_TEST

static int write_topo(FILE *f, const void *t)
{
	return fors_topology_write(f, t);
}

static void assert_same_port(const struct fors_topology *a,
			     const struct fors_port *x,
			     const struct fors_topology *b,
			     const struct fors_port *y)
{
	ck_assert_uint_eq(x->peer == FORS_NO_PEER, y->peer == FORS_NO_PEER);
	ck_assert_uint_eq(x->guid, y->guid);
	ck_assert_uint_eq(x->lid, y->lid);
	ck_assert_uint_eq(x->lmc, y->lmc);
	if (x->peer == FORS_NO_PEER)
		return;
	ck_assert_str_eq(a->nodes[x->peer].id, b->nodes[y->peer].id);
	ck_assert_uint_eq(x->peer_port, y->peer_port);
}

/* What the plugin's state file holds reads back as the same fabric. */
#define DUMP_HEAD "Unicast lids [0-8] of switch Lid 2 guid 0x0000000000200000 ('L0'):\n"

/* LFT dumps at their bounds: the last port and LID read, the next refused. */
static const struct {
	const char *text;
	const char *msg;	/* NULL: read */
} dumps[] = {
	{ DUMP_HEAD "0x0001 254 # Channel Adapter\n", NULL },
	{ DUMP_HEAD "0x0001 255 # Channel Adapter\n",
	  "t:2: expected a port number 0..254 after the LID" },
	{ "Unicast lids [0-65535] of switch guid 0x2 ('L0'):\n", NULL },
	{ "Unicast lids [0-65536] of switch guid 0x2 ('L0'):\n",
	  "t:1: expected the LID range '[first-last]'" },
	{ "Unicast lids [0-8] of switch guid 0x2:\n",
	  "t:1: expected '(description)' after the GUID" },
};

START_TEST(dump_bounds)
{
	const char *text = dumps[_i].text;
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	struct fors_lft_dump *d = NULL;
	struct fors_error err;
	int r;

	ck_assert_ptr_nonnull(f);
	r = fors_lft_dump_read(f, "t", &d, &err);
	fclose(f);
	if (!dumps[_i].msg) {
		ck_assert_msg(r == FORS_OK, "case %d: %s", _i, err.msg);
		fors_lft_dump_free(d);
		return;
	}
	ck_assert_int_eq(r, FORS_EFORMAT);
	ck_assert_msg(!strcmp(err.msg, dumps[_i].msg), "case %d: got \"%s\"",
		      _i, err.msg);
}
END_TEST

START_TEST(write_reads_back)
{
	struct fors_topology *t = fixture("ibnetdiscover-ft-2-2-lmc1.txt");
	struct fors_topology *r = reparse(write_topo, t);
	uint32_t i, k;

	ck_assert_uint_eq(r->nnodes, t->nnodes);
	for (i = 0; i < t->nnodes; i++) {
		const struct fors_node *x = &t->nodes[i], *y = by_desc(r, x->desc);

		ck_assert_str_eq(x->id, y->id);
		ck_assert_int_eq(x->type, y->type);
		ck_assert_uint_eq(x->guid, y->guid);
		ck_assert_uint_eq(x->sysguid, y->sysguid);
		ck_assert_uint_eq(x->lid, y->lid);
		ck_assert_uint_eq(x->nports, y->nports);
		for (k = 1; k <= x->nports; k++)
			assert_same_port(t, &x->ports[k], r, &y->ports[k]);
	}
	fors_topology_free(r);
	fors_topology_free(t);
}
END_TEST

static void assert_same_analysis(const struct fors_topology *live,
				 const struct fors_topology *a,
				 const struct fors_topology *b)
{
	struct fors_fabric *x, *y;
	struct fors_error err;
	uint32_t i;

	ck_assert_msg(fors_fabric_analyse(live, a, &x, &err) == 0, "%s", err.msg);
	ck_assert_msg(fors_fabric_analyse(live, b, &y, &err) == 0, "%s", err.msg);
	ck_assert_uint_eq(x->q, y->q);
	ck_assert_uint_eq(x->f, y->f);
	ck_assert_uint_eq(x->m, y->m);
	ck_assert_uint_eq(x->nhosts, y->nhosts);
	for (i = 0; i < x->nhosts; i++)
		ck_assert_uint_eq(x->hosts[i].sid, y->hosts[i].sid);
	fors_fabric_free(x);
	fors_fabric_free(y);
}

/*
 * Remembering every fabric routed: a dead spine, a cut cable and a host
 * gone stay expected, exactly as with the healthy fabric as reference.
 */
START_TEST(merge_remembers_the_healthy_fabric)
{
	uint8_t failed[4 * 4] = { 0 }, dead[4] = { 0, 1, 0, 0 };
	uint8_t absent[4 * 4] = { 0 };
	struct fors_netgen hg = { 4, 4, 4, 1, NULL, 1, NULL, NULL, 0, 0 };
	struct fors_netgen lg = { 4, 4, 4, 1, absent, 1, failed, dead, 0, 0 };
	struct fors_topology *h, *l, *seen = NULL;
	struct fors_error err;
	uint32_t n;

	failed[2 * 4 + 3] = 1;
	absent[6] = 1;
	h = gen_topology(&hg);
	l = gen_topology(&lg);
	ck_assert_int_eq(fors_topology_merge(&seen, h, &err), 0);
	n = seen->nnodes;
	ck_assert_int_eq(fors_topology_merge(&seen, l, &err), 0);
	ck_assert_uint_eq(seen->nnodes, n);
	assert_same_analysis(l, seen, h);
	fors_topology_free(seen);
	seen = NULL;
	ck_assert_int_eq(fors_topology_merge(&seen, l, &err), 0);
	ck_assert_int_eq(fors_topology_merge(&seen, h, &err), 0);
	assert_same_analysis(l, seen, h);
	fors_topology_free(seen);
	fors_topology_free(l);
	fors_topology_free(h);
}
END_TEST

/* A recabled port forgets its old link, at both of its old ends. */
START_TEST(merge_takes_the_new_link)
{
	struct fors_topology *a = text_topology(
		"Switch 2 \"A\"\n[1] \"B\"[1]\n\nSwitch 2 \"B\"\n[1] \"A\"[1]\n\n"
		"Switch 2 \"C\"\n");
	struct fors_topology *b = text_topology(
		"Switch 2 \"A\"\n[1] \"C\"[2]\n\nSwitch 2 \"C\"\n[2] \"A\"[1]\n");
	struct fors_topology *seen = NULL;
	const struct fors_node *x, *y, *z;
	struct fors_error err;

	ck_assert_int_eq(fors_topology_merge(&seen, a, &err), 0);
	ck_assert_int_eq(fors_topology_merge(&seen, b, &err), 0);
	x = by_desc(seen, "A");
	y = by_desc(seen, "B");
	z = by_desc(seen, "C");
	ck_assert_str_eq(seen->nodes[x->ports[1].peer].id, "C");
	ck_assert_uint_eq(x->ports[1].peer_port, 2);
	ck_assert_str_eq(seen->nodes[z->ports[2].peer].id, "A");
	ck_assert_uint_eq(y->ports[1].peer, FORS_NO_PEER);
	fors_topology_free(seen);
	fors_topology_free(b);
	fors_topology_free(a);
}
END_TEST

START_TEST(merge_refuses_new_port_count)
{
	struct fors_topology *a = text_topology("Switch 2 \"A\"\n");
	struct fors_topology *b = text_topology("Switch 3 \"A\"\n");
	struct fors_topology *seen = NULL;
	struct fors_error err;

	ck_assert_int_eq(fors_topology_merge(&seen, a, &err), 0);
	ck_assert_int_eq(fors_topology_merge(&seen, b, &err), FORS_EINVAL);
	ck_assert_str_eq(err.msg, "a node changed its port count since it was first seen");
	fors_topology_free(seen);
	fors_topology_free(b);
	fors_topology_free(a);
}
END_TEST

int main(void)
{
	Suite *su = suite_create("topology");
	TCase *tc = tcase_create("parser");

	tcase_add_test(tc, real_ibnetdiscover_output);
	tcase_add_test(tc, ibsim_net_file);
	tcase_add_test(tc, one_sided_links);
	tcase_add_loop_test(tc, rejects_malformed, 0,
			    sizeof(malformed) / sizeof(malformed[0]));
	tcase_add_loop_test(tc, dump_bounds, 0, sizeof(dumps) / sizeof(dumps[0]));
	suite_add_tcase(su, tc);
	tc = tcase_create("edit");
	tcase_add_test(tc, write_reads_back);
	tcase_add_test(tc, merge_remembers_the_healthy_fabric);
	tcase_add_test(tc, merge_takes_the_new_link);
	tcase_add_test(tc, merge_refuses_new_port_count);
	suite_add_tcase(su, tc);
	return run_suite(su);
}
