// SPDX-License-Identifier: MIT
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "sys/clock.h"
#include "sys/atomic.h"
#include "routing/lft.h"
#include "routing/route.h"
#include "formats/config.h"
#include "formats/schedfile.h"
#include "formats/guidfile.h"
#include "formats/ibnetdiscover.h"
#include "formats/lftdump.h"

static const char usage_route[] =
	"Usage: fors route --topology LIVE [--reference HEALTHY] --lmc L|auto\n"
	"                  [--renumber-lids] [--participants GUIDS]\n"
	"                  [--base-lids everyone|phases|exchange] [--text]\n"
	"                  --output DIR\n"
	"\n"
	"Route a two-level fat tree with FORS: find the failed leaf-spine\n"
	"cables, compute the schedule, a congestion-free plane for every\n"
	"transfer and the LFTs of every switch for every LID and LMC offset.\n"
	"Writes DIR/fors-schedule.dump (the schedule file, with hosts, planes\n"
	"and DLIDs; compact, version 2, unless --text), DIR/fors-lfts.dump (OpenSM's opensm-lfts.dump format) and\n"
	"DIR/fors-topology.txt (LIVE as ibnetdiscover text with the LIDs and LMC\n"
	"routed, for fors eval).\n"
	"\n"
	"  -t, --topology LIVE      the fabric now: ibnetdiscover output or an\n"
	"                           ibsim net file\n"
	"  -r, --reference HEALTHY  the healthy fabric; without it, it is\n"
	"                           inferred from LIVE\n"
	"  -l, --lmc L              the subnet's LMC, 0..7; with 2^L below the\n"
	"                           planes, hosts share offsets (phases may split);\n"
	"                           auto: the smallest LMC that splits no phase\n"
	"  -R, --renumber-lids      assign LIDs instead of using the topology's\n"
	"  -p, --participants GUIDS only these host ports take part in the\n"
	"                           exchange: a file of port GUIDs, one a line,\n"
	"                           as OpenSM's cn_guid_file; the others keep\n"
	"                           their routes and get no transfer\n"
	"  -b, --base-lids WHOM     what the base LIDs are routed for:\n"
	"                           everyone (default: a map at parity with\n"
	"                           minhop for other jobs), phases (with 2^L\n"
	"                           below the planes, the base map, never\n"
	"                           minhop's) or exchange (chosen with the\n"
	"                           phases alone; with one offset per plane,\n"
	"                           each host's designated plane)\n"
	"  -T, --text               write the schedule as text, version 1\n"
	"  -o, --output DIR         where to write the three files\n"
	"  -h, --help               show this help\n";

struct route_args {
	const char *topo, *ref, *dir, *guids;
	struct fors_route_opts o;
	int have_lmc, auto_lmc, text;
};

/* --base-lids WHOM into o's flags: 0, or the usage error's status. */
static int base_lids_opt(const char *v, struct fors_route_opts *o)
{
	if (!fors_config_base_lids(v, &o->exchange_lids, &o->phases_first))
		return 0;
	return usage_error("route",
			   "--base-lids: expected everyone, phases or exchange, got '%s'",
			   v);
}

static int route_opts(int argc, char **argv, struct route_args *a)
{
	static const struct option opts[] = {
		{ "topology", required_argument, NULL, 't' },
		{ "reference", required_argument, NULL, 'r' },
		{ "lmc", required_argument, NULL, 'l' },
		{ "renumber-lids", no_argument, NULL, 'R' },
		{ "participants", required_argument, NULL, 'p' },
		{ "base-lids", required_argument, NULL, 'b' },
		{ "output", required_argument, NULL, 'o' },
		{ "text", no_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, r = 0;

	while (!r && (c = getopt_long(argc, argv, ":t:r:l:Rp:b:o:Th", opts,
				      NULL)) != -1) {
		if (c == 't')
			a->topo = optarg;
		else if (c == 'r')
			a->ref = optarg;
		else if (c == 'l' && !strcmp(optarg, "auto"))
			a->auto_lmc = a->have_lmc = 1;
		else if (c == 'l' && (optarg[0] < '0' || optarg[0] > '9'))
			r = usage_error("route",
					"--lmc: expected 0..7 or auto, got '%s'",
					optarg);
		else if (c == 'l')
			r = parse_u32("route", "--lmc", optarg, 0, 7,
				      &a->o.lmc), a->have_lmc = 1;
		else if (c == 'R')
			a->o.renumber_lids = 1;
		else if (c == 'p')
			a->guids = optarg;
		else if (c == 'b')
			r = base_lids_opt(optarg, &a->o);
		else if (c == 'o')
			a->dir = optarg;
		else if (c == 'T')
			a->text = 1;
		else if (c == 'h')
			return fputs(usage_route, stdout), -1;
		else
			return bad_option("route", c, argv);
	}
	if (r)
		return r;
	if (optind < argc)
		return usage_error("route", "unexpected argument '%s'",
				   argv[optind]);
	if (!a->topo)
		return usage_error("route", "%s is required", "--topology");
	if (!a->have_lmc)
		return usage_error("route", "%s is required", "--lmc");
	if (!a->dir)
		return usage_error("route", "%s is required", "--output");
	return 0;
}

static int lfts_cb(FILE *out, const void *arg)
{
	const struct fors_route *r = arg;

	return fors_lfts_write(out, r->lfts, r->live, r->fb);
}

/*
 * The schedule, the tables, and live (r's topology) with the LIDs and LMC
 * r routed, so that fors eval can follow a pattern through the tables.
 */
static int write_files(const char *dir, const struct fors_route *r,
		       struct fors_topology *live, int text,
		       struct fors_error *err)
{
	size_t n = strlen(dir) + 32;
	char *path = malloc(n);
	int e;

	if (!path) {
		fors_error_set(err, "out of memory");
		return FORS_ENOMEM;
	}
	snprintf(path, n, "%s/fors-schedule.dump", dir);
	e = fors_schedule_write_file(path, r->s, text ? FORS_SCHED_TEXT :
				     FORS_SCHED_COMPACT, err);
	if (!e) {
		snprintf(path, n, "%s/fors-lfts.dump", dir);
		e = fors_write_atomic(path, lfts_cb, r, err);
	}
	if (!e) {
		fors_topology_routed_lids(live, r->fb, r->lfts);
		snprintf(path, n, "%s/fors-topology.txt", dir);
		e = fors_topology_write_file(path, live, err);
	}
	free(path);
	return e;
}

/* What fors route prints of r, routed with o in ms milliseconds. */
static void summary(const struct fors_route *r,
		    const struct fors_route_opts *o, double ms)
{
	const struct fors_fabric *fb = r->fb;
	uint32_t p, n = 0;
	char names[256], why[96];

	printf("fabric: M0 %u, M1 %u, Q %u planes on %u spines, %u host ports",
	       fb->m0, fb->m1, fb->q, fb->nspines, fb->nhosts);
	if (fb->nparts)
		printf(", %u CA ports routed without a slot", fb->nparts);
	putchar('\n');
	if (fors_route_spine_hosts(r, names, sizeof(names)))
		printf("spine hosts (no part in the exchange): %s\n", names);
	if (r->njoin < fb->nhosts)
		printf("participants: %u of the %u host ports\n", r->njoin,
		       fb->nhosts);
	printf("failures: f %u, m %u, impacted planes:", fb->f, fb->m);
	for (p = 0; p < fb->q; p++)
		if (fb->impacted[p] && n++ < 32)
			printf(" %u", p);
	printf("%s\n", n ? (n > 32 ? " ..." : "") : " none");
	fors_bound_describe(&r->bound, why, sizeof(why));
	printf("schedule: %u phases, %u added by splits; bound %u (%s), %u above it\n",
	       r->s->nphases, r->assign.split + r->detour.added, r->bound.t,
	       why, r->s->nphases - r->bound.t);
	if (r->bound_lmc)
		printf("bound-lmc %u (%u routes per leaf and host), %u above it; base LIDs for %s\n",
		       r->bound_lmc, 1u << r->lfts->lmc,
		       r->s->nphases > r->bound_lmc ?
		       r->s->nphases - r->bound_lmc : 0,
		       !r->base ? "the exchange" :
		       o->phases_first ? "everyone, phases first" : "everyone");
	if (r->bound_map)
		printf("bound-map %u (every transfer on its base LID's route), %u above it\n",
		       r->bound_map, r->s->nphases > r->bound_map ?
		       r->s->nphases - r->bound_map : 0);
	if (r->detour.phases)
		printf("detours: %u transfers between leaves without a common live plane, through a third leaf, in the last %u phases, %u of them added\n",
		       r->detour.xfers, r->detour.phases, r->detour.added);
	if (r->intra.lower_bound)
		printf("Algorithm 1: P_f %u, its pattern's lower bound %u\n",
		       r->intra.pf, r->intra.lower_bound);
	else
		printf("Algorithm 1: not built (the rounds over the base map reached its bound first)\n");
	printf("routing: %s, LMC %u\n", fors_method_name(r->assign.method),
	       r->lfts->lmc);
	printf("mFtree: %u (leaf, multi-port node) pairs, %u through one spine (no independent choice left)\n",
	       r->lfts->mf_pairs, r->lfts->mf_shared);
	printf("time: %.1f ms\n", ms);
}

/*
 * --lmc auto, for planning a subnet's LMC: each LMC from 0 until one splits
 * no phase, or gives every plane its offset (more cannot help then). A
 * refusal at one LMC (parallel cables below the planes) moves on too.
 */
static int route_auto(const struct fors_topology *live,
		      const struct fors_topology *ref, struct route_args *a,
		      struct fors_route **r, struct fors_error *err)
{
	int e = FORS_EINVAL;

	for (a->o.lmc = 0; a->o.lmc <= 7; a->o.lmc++) {
		e = fors_route_compute(live, ref, &a->o, r, err);
		if (e == FORS_ENOMEM)
			return e;
		if (e) {
			printf("LMC %u: %s\n", a->o.lmc, err->msg);
			continue;
		}
		if (!(*r)->assign.split || (1u << a->o.lmc) >= (*r)->fb->q)
			return 0;
		printf("LMC %u: %u phases added by splits\n", a->o.lmc,
		       (*r)->assign.split);
		fors_route_free(*r);
		*r = NULL;
	}
	return e;
}

int cmd_route(int argc, char **argv)
{
	struct route_args a = { 0 };
	struct fors_topology *live = NULL, *ref = NULL;
	struct fors_route *r = NULL;
	struct fors_guids *g = NULL;
	struct fors_error err;
	double t0;
	int e = route_opts(argc, argv, &a);

	if (e)
		return e < 0 ? 0 : e;
	if (a.guids && !(e = fors_guids_read_path(a.guids, &g, &err))) {
		a.o.participants = g->g;
		a.o.nparticipants = g->n;
	}
	if (!e)
		e = fors_topology_read_file(a.topo, &live, &err);
	if (!e && a.ref)
		e = fors_topology_read_file(a.ref, &ref, &err);
	if (!e) {
		t0 = fors_clock_ms();
		e = a.auto_lmc ? route_auto(live, ref, &a, &r, &err) :
		    fors_route_compute(live, ref, &a.o, &r, &err);
		if (!e)
			summary(r, &a.o, fors_clock_ms() - t0);
	}
	if (!e)
		e = write_files(a.dir, r, live, a.text, &err);
	if (e)
		fprintf(stderr, "fors route: %s\n", err.msg);
	fors_route_free(r);
	fors_topology_free(live);
	fors_topology_free(ref);
	fors_guids_free(g);
	return e ? EXIT_FAIL : 0;
}
