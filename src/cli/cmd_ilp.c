// SPDX-License-Identifier: MIT
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "fabric/fabric.h"
#include "ilp/lookup.h"
#include "ilp/precompute.h"
#include "ilp/store.h"
#include "formats/schedfile.h"
#include "fabric/topology.h"
#include "formats/ibnetdiscover.h"
#include "formats/scenfile.h"
#include "sys/trust.h"

static const char usage_ilp[] =
	"Usage: fors ilp COMMAND [OPTIONS]\n"
	"\n"
	"The ILP cache (doc/ilp.md): the FORS paper's per-phase ILP solved by\n"
	"an external MILP solver, stored for the plugin to look up.\n"
	"\n"
	"Commands:\n"
	"  precompute  solve every complex scenario up to K failed cables\n"
	"  lookup      print the cached routing of a scenario (standard input)\n"
	"  solve       route one scenario with the solver and store it\n"
	"  scenario    print the scenario of a fabric, as the plugin sends it\n"
	"  list        check every entry of a cache and list it\n"
	"\n"
	"'fors ilp COMMAND --help' describes a command.\n";

static const char usage_precompute[] =
	"Usage: fors ilp precompute --reference HEALTHY --max-failures K\n"
	"                           --cache DIR [--trust-user USER]\n"
	"                           [--solver NAME] [--program PATH]\n"
	"                           [--time-limit S] [--jobs N] [--shard I/N]\n"
	"                           [--sample N] [--plan]\n"
	"\n"
	"Enumerate the scenarios with 1 to K failed leaf-spine cables of the\n"
	"healthy fabric, up to a permutation of the spines; keep the complex\n"
	"ones (m > f); solve every distinct phase with the solver and store it\n"
	"in DIR. Scenarios already complete in DIR are skipped, so an\n"
	"interrupted run resumes. The native solver routes the same phases:\n"
	"every disagreement is reported. Exit 0, 1 on disagreements, errors or\n"
	"phases without a verdict, 2 on bad usage.\n"
	"\n"
	"With --plan nothing is solved or written: the same scenarios are\n"
	"counted with their distinct phases, those DIR already holds (DIR is\n"
	"then optional and must exist) and the solver time left, estimated from\n"
	"the time recorded in them.\n"
	"\n"
	"  -r, --reference FILE    the healthy fabric (ibnetdiscover or net file)\n"
	"  -k, --max-failures K    failed cables per scenario, 1 to 64\n"
	"  -c, --cache DIR         the cache, created if missing\n"
	"  -u, --trust-user USER   trust a cache USER owns too (doc/ilp.md)\n"
	"  -s, --solver NAME       cbc (default), glpsol, highs or gurobi\n"
	"  -p, --program PATH      the solver's program, if not the default\n"
	"  -T, --time-limit S      per solver run, seconds (default 600)\n"
	"  -j, --jobs N            solver runs at once (default 1)\n"
	"      --shard I/N         only the scenarios i with i mod N = I\n"
	"      --sample N          only N scenarios with exactly K failed\n"
	"                          cables, evenly spread: an estimate\n"
	"      --plan              count what is left to solve, solve nothing\n"
	"  -h, --help              show this help\n";

static const char usage_lookup[] =
	"Usage: fors ilp lookup --cache DIR [--trust-user USER] < SCENARIO\n"
	"\n"
	"Read a scenario (`fors ilp scenario`) on standard input and print its\n"
	"routed schedule from the cache. Exit 0 on a hit, 3 when a phase is\n"
	"not in the cache, 4 when the cache may not be trusted (writable by\n"
	"others, owned by another user), 5 when an entry is corrupt, 1 on\n"
	"other errors, 2 on bad usage; on every exit but 0 and 2 one line on\n"
	"standard output says why.\n"
	"\n"
	"  -c, --cache DIR          the cache\n"
	"  -u, --trust-user USER    trust a cache USER owns too: the batch\n"
	"                           user who wrote it (doc/ilp.md)\n"
	"  -h, --help               show this help\n";

static const char usage_solve[] =
	"Usage: fors ilp solve --cache DIR [--trust-user USER] [--solver NAME]\n"
	"                      [--program PATH] [--time-limit S] < SCENARIO\n"
	"\n"
	"Route one scenario with the solver, storing every phase it solves;\n"
	"print the routed schedule. Exit statuses as for lookup.\n";

static const char usage_scenario[] =
	"Usage: fors ilp scenario --topology LIVE [--reference HEALTHY]\n"
	"\n"
	"Print the scenario of a fabric: its shape, present hosts and live\n"
	"planes, as the plugin hands it to the lookup command.\n";

static const char usage_list[] =
	"Usage: fors ilp list --cache DIR [--trust-user USER]\n"
	"\n"
	"Check every entry (format, checksum, solution against its instance)\n"
	"and print one line per entry: phase KEY feasible|infeasible, or\n"
	"scenario KEY complete. Exit 0, or 1 when an entry is bad.\n";

struct ilp_args {
	struct ilp_precompute pc;
	const char *topo;
	uint32_t secs;
};

static int parse_shard(const char *s, uint32_t *i, uint32_t *n)
{
	char *end;
	unsigned long a, b;

	a = strtoul(s, &end, 10);
	if (end == s || *end != '/')
		return -1;
	s = end + 1;
	b = strtoul(s, &end, 10);
	if (end == s || *end || b < 1 || b > 100000 || a >= b)
		return -1;
	*i = (uint32_t)a;
	*n = (uint32_t)b;
	return 0;
}

/* --trust-user NAME: its uid, or a usage error naming it. */
static int trust_user(const char *cmd, const char *name, uint32_t *uid)
{
	struct fors_error err;

	if (fors_trust_user(name, uid, &err))
		return usage_error(cmd, "--trust-user: %s", err.msg);
	return 0;
}

/* The entry of o whose value is c. */
static int which(const struct option *o, int c)
{
	int i = 0;

	while (o[i].name && o[i].val != c)
		i++;
	return i;
}

/*
 * The subcommands share one option table; allowed lists the options (by
 * their value in it) that cmd takes, so no other is silently ignored.
 */
static int options(const char *cmd, int argc, char **argv, struct ilp_args *a,
		   const char *usage, const char *allowed)
{
	static const struct option opts[] = {
		{ "reference", required_argument, NULL, 'r' },
		{ "topology", required_argument, NULL, 't' },
		{ "max-failures", required_argument, NULL, 'k' },
		{ "cache", required_argument, NULL, 'c' },
		{ "trust-user", required_argument, NULL, 'u' },
		{ "solver", required_argument, NULL, 's' },
		{ "program", required_argument, NULL, 'p' },
		{ "time-limit", required_argument, NULL, 'T' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "shard", required_argument, NULL, 'S' },
		{ "sample", required_argument, NULL, 'n' },
		{ "plan", no_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, e = 0;

	while (!e && (c = getopt_long(argc, argv, ":r:t:k:c:u:s:p:T:j:h", opts,
				      NULL)) != -1) {
		if (c != ':' && c != '?' && !strchr(allowed, c))
			e = usage_error(cmd, "--%s does not apply to this command",
					opts[which(opts, c)].name);
		else if (c == 'r')
			a->pc.reference = optarg;
		else if (c == 't')
			a->topo = optarg;
		else if (c == 'k')
			e = parse_u32(cmd, "--max-failures", optarg, 1, 64,
				      &a->pc.max_failures);
		else if (c == 'c')
			a->pc.o.cache = optarg;
		else if (c == 'u')
			e = trust_user(cmd, optarg, &a->pc.o.also);
		else if (c == 's')
			a->pc.o.solver = optarg;
		else if (c == 'p')
			a->pc.o.program = optarg;
		else if (c == 'T')
			e = parse_u32(cmd, "--time-limit", optarg, 1, 86400,
				      &a->secs);
		else if (c == 'n')
			e = parse_u32(cmd, "--sample", optarg, 1, 1000000,
				      &a->pc.sample);
		else if (c == 'j')
			e = parse_u32(cmd, "--jobs", optarg, 1, 64, &a->pc.jobs);
		else if (c == 'S')
			e = parse_shard(optarg, &a->pc.shard, &a->pc.nshards) ?
			    usage_error(cmd, "--shard wants I/N with 0 <= I < N, not '%s'",
					optarg) : 0;
		else if (c == 'P')
			a->pc.plan = 1;
		else if (c == 'h')
			return fputs(usage, stdout), -1;
		else
			return bad_option(cmd, c, argv);
	}
	if (!e && optind < argc)
		e = usage_error(cmd, "unexpected argument '%s'", argv[optind]);
	a->pc.o.time_ms = a->secs * 1000;
	return e;
}

static int precompute(int argc, char **argv)
{
	const char *cmd = "ilp precompute";
	struct ilp_args a = { .pc = { .jobs = 1, .nshards = 1,
				   .o = { .solver = "cbc" } }, .secs = 600 };
	struct fors_error err;
	int r = options(cmd, argc, argv, &a, usage_precompute, "rkcuspTjSnPh");

	if (r)
		return r < 0 ? 0 : r;
	if (!a.pc.reference || !a.pc.max_failures ||
	    (!a.pc.o.cache && !a.pc.plan))
		return usage_error(cmd, "%s are required",
				   "--reference, --max-failures and --cache");
	a.pc.progress = isatty(STDERR_FILENO);
	r = fors_ilp_precompute(&a.pc, stdout, &err);
	if (r) {
		fprintf(stderr, "fors ilp precompute: %s\n", err.msg);
		return EXIT_FAIL;
	}
	return 0;
}

/* lookup and solve: a scenario in, a schedule or a one-line reason out. */
static int route(const char *cmd, int argc, char **argv, const char *usage,
		 int solve)
{
	struct ilp_args a = { .pc = { .o = { .solver = solve ? "cbc" : NULL } },
			   .secs = 600 };
	struct fors_scenario *sc = NULL;
	struct fors_schedule *s = NULL;
	struct ilp_stats st = { 0 };
	struct fors_error err;
	int r = options(cmd, argc, argv, &a, usage, solve ? "cuspTh" : "cuh");

	if (r)
		return r < 0 ? 0 : r;
	if (!a.pc.o.cache)
		return usage_error(cmd, "%s is required", "--cache");
	if (!solve)
		a.pc.o.solver = NULL;
	r = fors_scenario_read(stdin, "standard input", &sc, &err);
	if (!r)
		r = fors_ilp_route(&a.pc.o, sc, &s, &st, &err);
	if (!r && fors_schedule_write(stdout, s)) {
		fors_error_set(&err, "cannot write the schedule");
		r = FORS_EIO;
	}
	fors_schedule_free(s);
	fors_scenario_free(sc);
	if (!r)
		return 0;
	printf("fors %s: %s\n", cmd, err.msg);
	return r > 0 ? r : EXIT_FAIL;
}

static int scenario(int argc, char **argv)
{
	const char *cmd = "ilp scenario";
	struct ilp_args a = { .secs = 1 };
	struct fors_topology *live = NULL, *ref = NULL;
	struct fors_scenario *sc = NULL;
	struct fors_fabric *fb = NULL;
	struct fors_error err;
	int r = options(cmd, argc, argv, &a, usage_scenario, "trh");

	if (r)
		return r < 0 ? 0 : r;
	if (!a.topo)
		return usage_error(cmd, "%s is required", "--topology");
	r = fors_topology_read_file(a.topo, &live, &err);
	if (!r && a.pc.reference)
		r = fors_topology_read_file(a.pc.reference, &ref, &err);
	if (!r)
		r = fors_fabric_analyse(live, ref, &fb, &err);
	if (!r && !(sc = fors_scenario_of(fb))) {
		fors_error_set(&err, "out of memory");
		r = FORS_ENOMEM;
	}
	if (!r)
		fors_scenario_write(stdout, sc);
	else
		fprintf(stderr, "fors %s: %s\n", cmd, err.msg);
	fors_scenario_free(sc);
	fors_fabric_free(fb);
	fors_topology_free(live);
	fors_topology_free(ref);
	return r ? EXIT_FAIL : 0;
}

static int list(int argc, char **argv)
{
	const char *cmd = "ilp list";
	struct ilp_args a = { .secs = 1 };
	struct fors_error err;
	uint32_t bad = 0;
	int r = options(cmd, argc, argv, &a, usage_list, "cuh");

	if (r)
		return r < 0 ? 0 : r;
	if (!a.pc.o.cache)
		return usage_error(cmd, "%s is required", "--cache");
	r = fors_ilp_list(a.pc.o.cache, a.pc.o.also, stdout, &bad, &err);
	if (r)
		fprintf(stderr, "fors %s: %s\n", cmd, err.msg);
	return r || bad ? EXIT_FAIL : 0;
}

int cmd_ilp(int argc, char **argv)
{
	if (argc < 2)
		return usage_error("ilp", "%s", "missing command (see 'fors ilp --help')");
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))
		return fputs(usage_ilp, stdout), 0;
	if (!strcmp(argv[1], "precompute"))
		return precompute(argc - 1, argv + 1);
	if (!strcmp(argv[1], "lookup"))
		return route("ilp lookup", argc - 1, argv + 1, usage_lookup, 0);
	if (!strcmp(argv[1], "solve"))
		return route("ilp solve", argc - 1, argv + 1, usage_solve, 1);
	if (!strcmp(argv[1], "scenario"))
		return scenario(argc - 1, argv + 1);
	if (!strcmp(argv[1], "list"))
		return list(argc - 1, argv + 1);
	return usage_error("ilp", "unknown command '%s' (see 'fors ilp --help')",
			   argv[1]);
}
