// SPDX-License-Identifier: MIT
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "formats/schedfile.h"
#include "schedule/schedule.h"

static const char usage_schedule[] =
	"Usage: fors schedule --hosts-per-leaf M0 --leaves M1 --reduction F\n"
	"                     [--planes Q] [--impacted M] [--output FILE]\n"
	"\n"
	"Print the FORS all-to-all schedule of FT(2;M0,M1) with bandwidth\n"
	"reduction F (0 <= F < M0): Algorithm 1 of the FORS paper between\n"
	"leaves, the fewest phases found inside them. The schedule is abstract:\n"
	"no host lines, planes and DLIDs are '-'.\n"
	"\n"
	"  -n, --hosts-per-leaf M0  host slots per leaf switch (>= 1)\n"
	"  -l, --leaves M1          leaf switches (>= 2); M0 x M1 <= 2048\n"
	"  -f, --reduction F        bandwidth reduction, 0 <= F < M0\n"
	"  -q, --planes Q           planes written in the fabric line (default M0,\n"
	"                           at most 1023)\n"
	"  -m, --impacted M         impacted planes written (default F)\n"
	"  -o, --output FILE        write FILE atomically instead of stdout\n"
	"  -h, --help               show this help\n";

struct sched_args {
	struct fors_sched_params sp;
	uint32_t q, m;
	int have_q, have_m;
	const char *output;
};

static int sched_opts(int argc, char **argv, struct sched_args *a)
{
	static const struct option opts[] = {
		{ "hosts-per-leaf", required_argument, NULL, 'n' },
		{ "leaves", required_argument, NULL, 'l' },
		{ "reduction", required_argument, NULL, 'f' },
		{ "planes", required_argument, NULL, 'q' },
		{ "impacted", required_argument, NULL, 'm' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int have = 0, c, r = 0;

	while (!r && (c = getopt_long(argc, argv, ":n:l:f:q:m:o:h", opts,
				      NULL)) != -1) {
		switch (c) {
		case 'n':
			r = parse_u32("schedule", "--hosts-per-leaf", optarg,
				      1, FORS_MAX_HOSTS, &a->sp.m0);
			have |= 1;
			break;
		case 'l':
			r = parse_u32("schedule", "--leaves", optarg, 2,
				      FORS_MAX_HOSTS, &a->sp.m1);
			have |= 2;
			break;
		case 'f':
			r = parse_u32("schedule", "--reduction", optarg, 0,
				      FORS_MAX_HOSTS, &a->sp.f);
			have |= 4;
			break;
		case 'q':
			r = parse_u32("schedule", "--planes", optarg, 1,
				      FORS_MAX_PLANES, &a->q);
			a->have_q = 1;
			break;
		case 'm':
			r = parse_u32("schedule", "--impacted", optarg, 0,
				      FORS_MAX_HOSTS, &a->m);
			a->have_m = 1;
			break;
		case 'o':
			a->output = optarg;
			break;
		case 'h':
			fputs(usage_schedule, stdout);
			return -1;
		default:
			return bad_option("schedule", c, argv);
		}
	}
	if (r)
		return r;
	if (optind < argc)
		return usage_error("schedule", "unexpected argument '%s'",
				   argv[optind]);
	if (!(have & 1))
		return usage_error("schedule", "%s is required",
				   "--hosts-per-leaf");
	if (!(have & 2))
		return usage_error("schedule", "%s is required", "--leaves");
	if (!(have & 4))
		return usage_error("schedule", "%s is required", "--reduction");
	return 0;
}

int cmd_schedule(int argc, char **argv)
{
	struct sched_args a = { 0 };
	struct fors_schedule *s;
	struct fors_intra_info info;
	struct fors_error err;
	int r = sched_opts(argc, argv, &a);

	if (r)
		return r < 0 ? 0 : r;
	if (fors_sched_check_params(&a.sp, &err))
		return usage_error("schedule", "%s", err.msg);
	if (a.have_m && a.m > (a.have_q ? a.q : a.sp.m0))
		return usage_error("schedule", "%s",
				   "--impacted cannot exceed the planes");
	if (fors_schedule_build(&s, &a.sp, &info, &err)) {
		fprintf(stderr, "fors schedule: %s\n", err.msg);
		return EXIT_FAIL;
	}
	if (a.have_q)
		s->q = a.q;
	if (a.have_m)
		s->m = a.m;
	if (a.output) {
		r = fors_schedule_write_file(a.output, s, &err);
		if (r)
			fprintf(stderr, "fors schedule: %s\n", err.msg);
		else
			printf("FT(2;%u,%u) f=%u: %u phases (lower bound %u, P_f %u), %zu transfers\n",
			       s->m0, s->m1, s->f, s->nphases,
			       info.lower_bound, info.pf, s->nxfers);
	} else if (fors_schedule_write(stdout, s) || fflush(stdout)) {
		fprintf(stderr, "fors schedule: cannot write the schedule: %s\n",
			strerror(errno));
		r = FORS_EIO;
	}
	fors_schedule_free(s);
	return r ? EXIT_FAIL : 0;
}

