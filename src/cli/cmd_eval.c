// SPDX-License-Identifier: MIT
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "verify/eval.h"
#include "formats/lftdump.h"
#include "formats/schedfile.h"
#include "sys/spawn.h"
#include "fabric/topology.h"
#include "formats/ibnetdiscover.h"
#include "formats/rankfile.h"

static const char usage_eval[] =
	"Usage: fors eval --topology LIVE --lfts DUMP\n"
	"                 (--linear-shift | --schedule FILE | --shift-ranks FILE |\n"
	"                  --permutations N [--seed S]) [--offsets]\n"
	"                 [--format text|tsv] [--plot FILE.png]\n"
	"\n"
	"Predict what a routing does to a synchronised all-to-all exchange: follow\n"
	"every transfer of every phase through the LFTs and find each phase's most\n"
	"loaded directed link. A phase lasts as long as that link needs; the\n"
	"predicted throughput relative to the healthy fabric is the pattern's\n"
	"healthy phase count over the sum of the phases' largest loads.\n"
	"\n"
	"  -t, --topology LIVE     the fabric (ibnetdiscover output, or fors route's\n"
	"                          fors-topology.txt: it gives the LIDs)\n"
	"  -l, --lfts DUMP         the switches' LFTs (opensm-lfts.dump, ibroute, fors)\n"
	"  -s, --linear-shift      port s sends to port (s + p) mod P at its base LID\n"
	"                          in phase p = 1..P-1, ports in switch and port order\n"
	"  -S, --schedule FILE     a fors schedule file with its DLIDs\n"
	"  -r, --shift-ranks FILE  the shift over an MPI job's ranks: rank r sends to\n"
	"                          rank (r + p) mod R in phase p = 1..R-1; FILE has a\n"
	"                          host a line in rank order (scontrol show hostnames,\n"
	"                          or an Open MPI hostfile: NAME [slots=N]); NAME is a\n"
	"                          node description, its first word, or a port GUID\n"
	"  -n, --permutations N    N phases (1..100000), each a random derangement\n"
	"                          of the P host ports, at base LIDs\n"
	"  -e, --seed S            the permutations' seed, 0..2^64-1 (default 1)\n"
	"  -O, --offsets           send each phase over every LID offset in turn\n"
	"                          (2^LMC phases, the k-th at base LID + k; the\n"
	"                          topology gives the LMC); not with --schedule\n"
	"  -f, --format F          text (default) or tsv: one line per phase\n"
	"  -p, --plot FILE.png     draw the most loaded link per phase (gnuplot)\n"
	"  -h, --help              show this help\n"
	"\n"
	"Exit 0, 1 when an input cannot be read or does not fit, 2 on usage errors.\n";

static void link_name(const struct fors_topology *t, uint32_t node,
		      uint32_t port, char *b, size_t len)
{
	if (node == UINT32_MAX) {
		snprintf(b, len, "-");
		return;
	}
	snprintf(b, len, "\"%s\"[%u] -> \"%s\"", t->nodes[node].desc, port,
		 t->nodes[t->nodes[node].ports[port].peer].desc);
}

static void text(const char *what, const struct fors_topology *t,
		 const struct fors_eval *e)
{
	uint32_t p, shown = 0;
	char l[512];

	for (p = 0; p < e->nphases && shown < 10; p++) {
		if (e->phase[p].max_load < 2)
			continue;
		link_name(t, e->phase[p].node, e->phase[p].port, l, sizeof(l));
		printf("  phase %u: %s carries %u\n", p, l, e->phase[p].max_load);
		shown++;
	}
	if (shown < e->conflicts)
		printf("  ... %u more phases with conflicts\n", e->conflicts - shown);
	printf("%s: %u phases, %u with conflicts, worst link load %u, %zu of %zu transfers lost\n",
	       what, e->nphases, e->conflicts, e->worst, e->lost, e->flows);
	printf("time %llu (healthy %u): predicted relative throughput %.3f\n",
	       (unsigned long long)e->time, e->healthy, e->relative);
}

static void tsv(const struct fors_topology *t, const struct fors_eval *e)
{
	uint32_t p;
	char l[512];

	printf("phase\ttransfers\tmax_load\tlink\tlost\n");
	for (p = 0; p < e->nphases; p++) {
		link_name(t, e->phase[p].node, e->phase[p].port, l, sizeof(l));
		printf("%u\t%u\t%u\t%s\t%u\n", p, e->phase[p].flows,
		       e->phase[p].max_load, l, e->phase[p].lost);
	}
	printf("# total\tphases %u\tconflicts %u\tworst %u\tlost %zu\ttransfers %zu\ttime %llu\thealthy %u\trelative %.4f\n",
	       e->nphases, e->conflicts, e->worst, e->lost, e->flows,
	       (unsigned long long)e->time, e->healthy, e->relative);
}

/* gnuplot's script, the data inline, into a memory buffer; NULL: no memory. */
static char *plot_script(const char *png, const char *what,
			 const struct fors_eval *e, size_t *len)
{
	char *text = NULL;
	FILE *f = open_memstream(&text, len);
	uint32_t p;

	if (!f)
		return NULL;
	fprintf(f, "set terminal png size 1200,400; set output '%s'; "
		"set title '%s: relative throughput %.3f'; set xlabel 'phase'; "
		"set ylabel 'transfers on the most loaded link'; set yrange [0:%u]; set ytics 1; "
		"plot '-' using 1:2 with impulses lw 2 notitle\n",
		png, what, e->relative, e->worst + 1);
	for (p = 0; p < e->nphases; p++)
		fprintf(f, "%u %u\n", p, e->phase[p].max_load);
	fputs("e\n", f);
	if (fclose(f)) {
		free(text);
		return NULL;
	}
	return text;
}

/* gnuplot, run without a shell, the script on its standard input. */
static int plot(const char *png, const char *what, const struct fors_eval *e)
{
	static const char *const argv[] = { "gnuplot", NULL };
	const struct fors_spawn_limits lim = { 60000, 1 << 16 };
	struct fors_spawn_result res = { 0 };
	struct fors_error err;
	char how[128], *script;
	size_t len = 0;
	int r;

	if (strchr(png, '\'') || strchr(what, '\''))
		return fprintf(stderr, "fors eval: --plot: no quotes in file names\n"), EXIT_FAIL;
	script = plot_script(png, what, e, &len);
	if (!script)
		return fprintf(stderr, "fors eval: --plot: out of memory\n"), EXIT_FAIL;
	r = fors_spawn(argv, script, len, &lim, &res, &err);
	free(script);
	free(res.out);
	if (r) {
		fprintf(stderr, "fors eval: gnuplot failed to start (%s): apt-get install gnuplot-nox\n",
			err.msg);
		return EXIT_FAIL;
	}
	if (res.status != FORS_SPAWN_EXITED || res.code) {
		fors_spawn_describe(&res, how, sizeof(how));
		fprintf(stderr, "fors eval: gnuplot failed: %s\n", how);
		return EXIT_FAIL;
	}
	return 0;
}

struct args {
	const char *topo, *lfts, *sched, *ranks, *png;
	int shift, tsv, offsets, have_seed;
	uint32_t perms;
	uint64_t seed;
};

/* The pattern a names over t, its offsets applied; err says why not. */
static int pattern(const struct args *a, const struct fors_topology *t,
		   struct fors_pattern **p, struct fors_error *err)
{
	struct fors_schedule *s = NULL;
	struct fors_rankfile *rf = NULL;
	int r = 0;

	*p = NULL;
	if (a->sched) {
		r = fors_schedule_read_file(a->sched, &s, err);
		if (!r)
			r = fors_pattern_schedule(t, s, p, err);
	} else if (a->ranks) {
		r = fors_rankfile_read_path(a->ranks, &rf, err);
		if (!r)
			r = fors_pattern_shift_ranks(t, rf, p, err);
	} else if (a->perms) {
		r = fors_pattern_permutations(t, a->perms, a->seed, p, err);
	} else {
		r = fors_pattern_shift(t, p, err);
	}
	if (!r && a->offsets)
		r = fors_pattern_offsets(t, *p, err);
	fors_schedule_free(s);
	fors_rankfile_free(rf);
	return r;
}

/* The pattern's name, the first word of the output. */
static void describe(const struct args *a, const struct fors_pattern *p,
		     char *b, size_t len)
{
	int n;

	if (a->sched)
		n = snprintf(b, len, "%s", a->sched);
	else if (a->ranks)
		n = snprintf(b, len, "shift over ranks %s", a->ranks);
	else if (a->perms)
		n = snprintf(b, len, "permutations (%u, seed %llu)", a->perms,
			     (unsigned long long)a->seed);
	else
		n = snprintf(b, len, "linear shift");
	if (a->offsets && n >= 0 && (size_t)n < len)
		snprintf(b + n, len - (size_t)n, " over %u offsets", p->offsets);
}

static int run(const struct args *a)
{
	struct fors_topology *t = NULL;
	struct fors_lft_dump *d = NULL;
	struct fors_pattern *p = NULL;
	struct fors_eval *e = NULL;
	struct fors_error err;
	char what[4400];
	int r;

	r = fors_topology_read_file(a->topo, &t, &err);
	if (!r)
		r = fors_lft_dump_read_file(a->lfts, &d, &err);
	if (!r)
		r = pattern(a, t, &p, &err);
	if (!r)
		r = fors_eval_run(t, d, p, &e, &err);
	if (r)
		fprintf(stderr, "fors eval: %s\n", err.msg);
	else
		describe(a, p, what, sizeof(what));
	if (!r && a->tsv)
		tsv(t, e);
	else if (!r)
		text(what, t, e);
	if (!r && a->png)
		r = plot(a->png, what, e);
	fors_eval_free(e);
	fors_pattern_free(p);
	fors_lft_dump_free(d);
	fors_topology_free(t);
	return r ? EXIT_FAIL : 0;
}

/* The option c with its argument into a; 0, or a usage error. */
static int option(int c, char **argv, struct args *a)
{
	a->have_seed |= c == 'e';
	if (c == 't')
		a->topo = optarg;
	else if (c == 'l')
		a->lfts = optarg;
	else if (c == 's')
		a->shift = 1;
	else if (c == 'S')
		a->sched = optarg;
	else if (c == 'r')
		a->ranks = optarg;
	else if (c == 'n')
		return parse_u32("eval", "--permutations", optarg, 1,
				 FORS_PERMUTATIONS_MAX, &a->perms);
	else if (c == 'e')
		return parse_u64_arg("eval", "--seed", optarg, &a->seed);
	else if (c == 'O')
		a->offsets = 1;
	else if (c == 'f' && (!strcmp(optarg, "tsv") || !strcmp(optarg, "text")))
		a->tsv = !strcmp(optarg, "tsv");
	else if (c == 'f')
		return usage_error("eval", "--format: expected text or tsv, got '%s'", optarg);
	else if (c == 'p')
		a->png = optarg;
	else
		return bad_option("eval", c, argv);
	return 0;
}

/* What the options say together; 0, or a usage error. */
static int consistent(const struct args *a)
{
	if (!a->topo || !a->lfts)
		return usage_error("eval", "%s", "--topology and --lfts are required");
	if (!!a->shift + !!a->sched + !!a->ranks + !!a->perms != 1)
		return usage_error("eval", "%s", "give one of --linear-shift, --schedule, --shift-ranks and --permutations");
	if (a->have_seed && !a->perms)
		return usage_error("eval", "%s", "--seed goes with --permutations");
	if (a->offsets && a->sched)
		return usage_error("eval", "%s", "--offsets does not apply to --schedule: its DLIDs choose the offsets");
	return 0;
}

int cmd_eval(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "topology", required_argument, NULL, 't' },
		{ "lfts", required_argument, NULL, 'l' },
		{ "linear-shift", no_argument, NULL, 's' },
		{ "schedule", required_argument, NULL, 'S' },
		{ "shift-ranks", required_argument, NULL, 'r' },
		{ "permutations", required_argument, NULL, 'n' },
		{ "seed", required_argument, NULL, 'e' },
		{ "offsets", no_argument, NULL, 'O' },
		{ "format", required_argument, NULL, 'f' },
		{ "plot", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct args a = { .seed = 1 };
	int c, r = 0;

	while (!r && (c = getopt_long(argc, argv, ":t:l:sS:r:n:e:Of:p:h", opts,
				      NULL)) != -1) {
		if (c == 'h')
			return fputs(usage_eval, stdout), 0;
		r = option(c, argv, &a);
	}
	if (r)
		return r;
	if (optind < argc)
		return usage_error("eval", "unexpected argument '%s'", argv[optind]);
	r = consistent(&a);
	return r ? r : run(&a);
}
