// SPDX-License-Identifier: MIT
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "formats/netgen.h"

static const char usage_netgen[] =
	"Usage: fors netgen --hosts-per-leaf M0 --leaves M1 --spines S\n"
	"                   [--cables C] [--dual D] [--absent SIDS]\n"
	"                   [--fail CABLES] [--dead-spines SPINES] [--aggregation]\n"
	"                   [--spine-hosts V]\n"
	"\n"
	"Print an ibsim net file for a two-level fat tree: M1 leaves (L00..)\n"
	"with M0 host ports each (hosts H000..), S spines (S00..) each reached\n"
	"by C cables from every leaf.\n"
	"\n"
	"  -n, --hosts-per-leaf M0   host ports per leaf (1..254)\n"
	"  -l, --leaves M1           leaves (2..254)\n"
	"  -s, --spines S            spines (1..254)\n"
	"  -c, --cables C            cables per leaf and spine (default 1)\n"
	"  -d, --dual D              slots 0..D-1 of each even leaf hold dual-port\n"
	"                            hosts whose second port is on the next leaf\n"
	"  -a, --absent SIDS         empty host slots: leaf * M0 + slot, comma-\n"
	"                            separated\n"
	"  -f, --fail CABLES         cut cables LEAF:SPINE or LEAF:SPINE:CABLE,\n"
	"                            comma-separated\n"
	"  -x, --dead-spines SPINES  spines that are gone, comma-separated\n"
	"  -g, --aggregation         a SHARP Aggregation Node (A-L00, A-S00, ..)\n"
	"                            behind an extra last port of every switch,\n"
	"                            with the switch's system image GUID\n"
	"  -v, --spine-hosts V       V service hosts (V00..) on spine S00, after\n"
	"                            its leaf ports\n"
	"  -h, --help                show this help\n";

struct gen_args {
	struct fors_netgen g;
	const char *absent, *fail, *dead;
	int have;
};

/* Parse "a:b:c,..." into n-tuples; each field below its bound. */
static int tuples(const char *opt, const char *list, int minf, int maxf,
		  const uint32_t *bound, uint8_t *mark,
		  uint32_t (*index)(const struct fors_netgen *, const uint32_t *),
		  const struct fors_netgen *g)
{
	char *copy = strdup(list), *save = NULL, *item;
	int r = 0;

	if (!copy)
		return usage_error("netgen", "%s", "out of memory");
	for (item = strtok_r(copy, ",", &save); item && !r;
	     item = strtok_r(NULL, ",", &save)) {
		uint32_t v[3] = { 0, 0, 0 };
		char *f, *fs = NULL;
		int n = 0;

		for (f = strtok_r(item, ":", &fs); f && !r;
		     f = strtok_r(NULL, ":", &fs), n++)
			r = n >= maxf ? usage_error("netgen", "%s: too many fields", opt) :
			    parse_u32("netgen", opt, f, 0, bound[n] - 1, &v[n]);
		if (!r && n < minf)
			r = usage_error("netgen", "%s: missing fields", opt);
		if (!r)
			mark[index(g, v)] = 1;
	}
	free(copy);
	return r;
}

static uint32_t sid_index(const struct fors_netgen *g, const uint32_t *v)
{
	(void)g;
	return v[0];
}

static uint32_t cable_index(const struct fors_netgen *g, const uint32_t *v)
{
	return (v[0] * g->nspines + v[1]) * g->cables + v[2];
}

static int gen_opts(int argc, char **argv, struct gen_args *a)
{
	static const struct option opts[] = {
		{ "hosts-per-leaf", required_argument, NULL, 'n' },
		{ "leaves", required_argument, NULL, 'l' },
		{ "spines", required_argument, NULL, 's' },
		{ "cables", required_argument, NULL, 'c' },
		{ "dual", required_argument, NULL, 'd' },
		{ "absent", required_argument, NULL, 'a' },
		{ "fail", required_argument, NULL, 'f' },
		{ "dead-spines", required_argument, NULL, 'x' },
		{ "aggregation", no_argument, NULL, 'g' },
		{ "spine-hosts", required_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, r = 0;

	a->g.cables = 1;
	while (!r && (c = getopt_long(argc, argv, ":n:l:s:c:d:a:f:x:gv:h", opts,
				      NULL)) != -1) {
		switch (c) {
		case 'n':
			r = parse_u32("netgen", "--hosts-per-leaf", optarg, 1, 254, &a->g.m0);
			a->have |= 1;
			break;
		case 'l':
			r = parse_u32("netgen", "--leaves", optarg, 2, 254, &a->g.m1);
			a->have |= 2;
			break;
		case 's':
			r = parse_u32("netgen", "--spines", optarg, 1, 254, &a->g.nspines);
			a->have |= 4;
			break;
		case 'c':
			r = parse_u32("netgen", "--cables", optarg, 1, 254, &a->g.cables);
			break;
		case 'd':
			r = parse_u32("netgen", "--dual", optarg, 0, 254, &a->g.dual);
			break;
		case 'a':
			a->absent = optarg;
			break;
		case 'f':
			a->fail = optarg;
			break;
		case 'x':
			a->dead = optarg;
			break;
		case 'g':
			a->g.aggregation = 1;
			break;
		case 'v':
			r = parse_u32("netgen", "--spine-hosts", optarg, 0, 99,
				      &a->g.spine_hosts);
			break;
		case 'h':
			return fputs(usage_netgen, stdout), -1;
		default:
			return bad_option("netgen", c, argv);
		}
	}
	if (r)
		return r;
	if (optind < argc)
		return usage_error("netgen", "unexpected argument '%s'", argv[optind]);
	if (!(a->have & 1))
		return usage_error("netgen", "%s is required", "--hosts-per-leaf");
	if (!(a->have & 2))
		return usage_error("netgen", "%s is required", "--leaves");
	if (!(a->have & 4))
		return usage_error("netgen", "%s is required", "--spines");
	if (a->g.m0 + a->g.nspines * a->g.cables > 254 ||
	    a->g.m1 * a->g.cables > 254)
		return usage_error("netgen", "%s", "a switch would need more than 254 ports");
	if (a->g.dual > a->g.m0)
		return usage_error("netgen", "%s", "--dual exceeds --hosts-per-leaf");
	return 0;
}

int cmd_netgen(int argc, char **argv)
{
	struct gen_args a = { 0 };
	uint8_t *absent = NULL, *failed = NULL, *dead = NULL;
	uint32_t sb[1], cb[3], db[1];
	int r = gen_opts(argc, argv, &a);

	if (r)
		return r < 0 ? 0 : r;
	sb[0] = a.g.m0 * a.g.m1;
	cb[0] = a.g.m1;
	cb[1] = a.g.nspines;
	cb[2] = a.g.cables;
	db[0] = a.g.nspines;
	absent = calloc(sb[0], 1);
	failed = calloc((size_t)a.g.m1 * a.g.nspines * a.g.cables, 1);
	dead = calloc(a.g.nspines, 1);
	if (!absent || !failed || !dead)
		r = usage_error("netgen", "%s", "out of memory");
	if (!r && a.absent)
		r = tuples("--absent", a.absent, 1, 1, sb, absent, sid_index, &a.g);
	if (!r && a.fail)
		r = tuples("--fail", a.fail, 2, 3, cb, failed, cable_index, &a.g);
	if (!r && a.dead)
		r = tuples("--dead-spines", a.dead, 1, 1, db, dead, sid_index, &a.g);
	if (!r) {
		a.g.absent = absent;
		a.g.failed = failed;
		a.g.dead = dead;
		if (fors_netgen_write(stdout, &a.g) || fflush(stdout)) {
			fprintf(stderr, "fors netgen: cannot write the net file\n");
			r = EXIT_FAIL;
		}
	}
	free(absent);
	free(failed);
	free(dead);
	return r;
}
