// SPDX-License-Identifier: MIT
#include <getopt.h>
#include <stdio.h>

#include "cli/cli.h"
#include "verify/check.h"
#include "verify/transition.h"
#include "formats/lftdump.h"
#include "formats/schedfile.h"
#include "fabric/topology.h"
#include "verify/verify.h"
#include "formats/ibnetdiscover.h"

static const char usage_check[] =
	"Usage: fors check --schedule FILE [--topology LIVE --lfts DUMP\n"
	"                  [--previous OLD]]\n"
	"       fors check --topology LIVE --lfts DUMP --lmc L [--previous OLD]\n"
	"\n"
	"Verify a schedule file: every ordered pair of present hosts exactly\n"
	"once, each host sending and receiving at most once per phase, at most\n"
	"M0-F inter-leaf senders and receivers per leaf and phase, planes and\n"
	"DLIDs in range, and the optimal phase count P_f where the FORS theorem\n"
	"applies. With a topology and an LFT dump (OpenSM's opensm-lfts.dump,\n"
	"fors's fors-lfts.dump or ibroute output), also follow every transfer's\n"
	"DLID through the switches: delivery over leaf-spine-leaf paths (in the\n"
	"last N phases of a file with `detour N`, through further leaves and\n"
	"spines too), at most one transfer per directed link and phase; and\n"
	"check the tables: every CA LID and offset and every switch LID\n"
	"reachable from every switch cabled to it (a part cut off from the rest\n"
	"is another subnet), and no credit loop (a cycle in the channel\n"
	"dependency graph over every LID, every switch and CA a source).\n"
	"Without a schedule, check the tables of any routing engine, the CA\n"
	"LIDs taken from the topology with --lmc.\n"
	"Exit 0 when all holds, 1 otherwise.\n"
	"\n"
	"  -s, --schedule FILE  the schedule file\n"
	"  -t, --topology LIVE  the fabric (ibnetdiscover output or ibsim net file)\n"
	"  -l, --lfts DUMP      the switches' LFTs\n"
	"  -m, --lmc L          LIDs per CA port are 2^L (without a schedule)\n"
	"  -p, --previous OLD   the tables before these (an LFT dump): their\n"
	"                       union, which switches pass through while they\n"
	"                       take the new tables, must have no credit loop\n"
	"                       and send no LID round a circle\n"
	"  -h, --help           show this help\n";

static void kept(const struct fors_check_report *r)
{
	uint32_t i;

	for (i = 0; i < r->nkept; i++)
		printf("  %s\n", r->kept[i]);
	if (r->loop)
		printf("  credit loop: %s\n", r->cycle);
}

static void loops(const struct fors_check_report *r)
{
	printf("%zu (switch, LID) pairs, %u unreachable; %zu channel dependencies, %s\n",
	       r->reach_pairs, r->unreachable, r->deps,
	       r->loop ? "a credit loop" : "no credit loop");
	if (r->mf_pairs)
		printf("mFtree: %u (leaf, multi-port node) pairs, %u through one spine\n",
		       r->mf_pairs, r->mf_shared);
}

static void report(const char *path, const struct fors_check_report *r)
{
	kept(r);
	printf("%s: %u phases, %zu transfers followed; max link load %u, %u shared (phase, link) pairs, %u undelivered, %u not up/down%s; ",
	       path, r->phases, r->transfers, r->max_load, r->shared,
	       r->undelivered, r->not_updown,
	       r->schedule ? "; the schedule breaks its rules" : "");
	loops(r);
	printf("bound: %u from the topology's cables (the file's: ", r->bound);
	if (r->bound_file < 0)
		printf("none");
	else
		printf("%lld", (long long)r->bound_file);
	printf("), %u phases, %d above it\n", r->phases,
	       (int)r->phases - (int)r->bound);
}

/*
 * The union of the tables before (prev) and d over t: a line, and
 * FORS_EVERIFY when a mix of them can loop. r is the check so far, kept
 * when it failed.
 */
static int since(const struct fors_topology *t, const struct fors_lft_dump *d,
		 const char *prev, int r, struct fors_error *err)
{
	struct fors_lft_dump *old = NULL;
	struct fors_union_report u;
	struct fors_error e2;
	int e;

	if (!prev || (r && r != FORS_EVERIFY))
		return r;
	e = fors_lft_dump_read_file(prev, &old, &e2);
	if (!e)
		e = fors_check_union(t, old, d, &u, &e2);
	fors_lft_dump_free(old);
	if (e && e != FORS_EVERIFY) {
		*err = e2;
		return e;
	}
	if (u.loop)
		printf("  credit loop in the union: %s\n", u.cycle);
	if (u.fwd_lids)
		printf("  forwarding loop in the union: %s\n", u.fwd);
	printf("union with %s: %zu channel dependencies, %s, %u LIDs in a forwarding loop\n",
	       prev, u.deps, u.loop ? "a credit loop" : "no credit loop",
	       u.fwd_lids);
	if (!e || r)
		return r;
	if (u.fwd_lids)
		fors_error_set(err, "a mix of %s and these tables can loop: %s%u LIDs in a forwarding loop",
			       prev, u.loop ? "a credit loop, " : "",
			       u.fwd_lids);
	else
		fors_error_set(err, "a mix of %s and these tables can loop: a credit loop",
			       prev);
	return e;
}

static int routes(const char *path, const struct fors_schedule *s,
		  const char *topo, const char *lfts, const char *prev,
		  struct fors_error *err)
{
	struct fors_topology *t = NULL;
	struct fors_lft_dump *d = NULL;
	struct fors_check_report rep;
	int r;

	r = fors_topology_read_file(topo, &t, err);
	if (!r)
		r = fors_lft_dump_read_file(lfts, &d, err);
	if (!r) {
		r = fors_check_routes(t, d, s, &rep, err);
		if (r == 0 || r == FORS_EVERIFY)
			report(path, &rep);
		if (r == FORS_EVERIFY) {
			char what[256];

			fors_check_failures(&rep, what, sizeof(what));
			fors_error_set(err, "%s: routes break the schedule's guarantees: %s",
				       path, what);
		}
		r = since(t, d, prev, r, err);
	}
	fors_topology_free(t);
	fors_lft_dump_free(d);
	return r;
}

static int ca_lids(const struct fors_topology *t)
{
	uint32_t i, k;

	for (i = 0; i < t->nnodes; i++)
		for (k = 1; t->nodes[i].type == FORS_CA && k <= t->nodes[i].nports; k++)
			if (t->nodes[i].ports[k].lid)
				return 1;
	return 0;
}

static int tables(const char *topo, const char *lfts, uint32_t lmc,
		  const char *prev, struct fors_error *err)
{
	struct fors_topology *t = NULL;
	struct fors_lft_dump *d = NULL;
	struct fors_check_report rep;
	int r;

	r = fors_topology_read_file(topo, &t, err);
	if (!r && !ca_lids(t))
		fprintf(stderr, "fors check: note: %s names no CA LIDs (an ibsim net file?): only switch LIDs are checked for reachability; ibnetdiscover output has them\n",
			topo);
	if (!r)
		r = fors_lft_dump_read_file(lfts, &d, err);
	if (!r) {
		r = fors_check_tables(t, d, lmc, &rep, err);
		if (r == 0 || r == FORS_EVERIFY) {
			kept(&rep);
			printf("%s: ", lfts);
			loops(&rep);
		}
		if (r == FORS_EVERIFY) {
			char what[256];

			fors_check_failures(&rep, what, sizeof(what));
			fors_error_set(err, "%s: the tables fail: %s", lfts, what);
		}
		r = since(t, d, prev, r, err);
	}
	fors_topology_free(t);
	fors_lft_dump_free(d);
	return r;
}

int cmd_check(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "schedule", required_argument, NULL, 's' },
		{ "topology", required_argument, NULL, 't' },
		{ "lfts", required_argument, NULL, 'l' },
		{ "lmc", required_argument, NULL, 'm' },
		{ "previous", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *path = NULL, *topo = NULL, *lfts = NULL, *prev = NULL;
	struct fors_schedule *s;
	struct fors_error err;
	uint32_t lmc = 0;
	int c, r, has_lmc = 0;

	while ((c = getopt_long(argc, argv, ":s:t:l:m:p:h", opts, NULL)) != -1) {
		if (c == 's')
			path = optarg;
		else if (c == 't')
			topo = optarg;
		else if (c == 'l')
			lfts = optarg;
		else if (c == 'm' && (r = parse_u32("check", "--lmc", optarg, 0, 7, &lmc)))
			return r;
		else if (c == 'm')
			has_lmc = 1;
		else if (c == 'p')
			prev = optarg;
		else if (c == 'h')
			return fputs(usage_check, stdout), 0;
		else
			return bad_option("check", c, argv);
	}
	if (optind < argc)
		return usage_error("check", "unexpected argument '%s'",
				   argv[optind]);
	if (!topo != !lfts)
		return usage_error("check", "%s", "--topology and --lfts go together");
	if (prev && !topo)
		return usage_error("check", "%s", "--previous needs --topology and --lfts");
	if (path && has_lmc)
		return usage_error("check", "%s", "--lmc is for tables without a schedule: the schedule gives the LMC");
	if (!path && !(topo && has_lmc))
		return usage_error("check", "%s", "--schedule is required, or --topology, --lfts and --lmc");
	if (!path) {
		r = tables(topo, lfts, lmc, prev, &err);
		if (r)
			fprintf(stderr, "fors check: %s\n", err.msg);
		return r ? EXIT_FAIL : 0;
	}
	r = fors_schedule_read_file(path, &s, &err);
	if (!r && topo) {
		r = routes(path, s, topo, lfts, prev, &err);
	} else if (!r) {
		r = fors_schedule_verify(s, &err);
		if (!r)
			printf("%s: ok: %u phases, %zu transfers\n", path,
			       s->nphases, s->nxfers);
	}
	fors_schedule_free(s);
	if (r)
		fprintf(stderr, "fors check: %s\n", err.msg);
	return r ? EXIT_FAIL : 0;
}
