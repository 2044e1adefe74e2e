// SPDX-License-Identifier: MIT
/* The fors command line: a thin shell over the core library. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "fors/schedfile.h"
#include "fors/schedule.h"
#include "fors/verify.h"

enum { EXIT_FAIL = 1, EXIT_USAGE = 2 };

static const char usage_main[] =
	"Usage: fors COMMAND [OPTIONS]\n"
	"\n"
	"FORS all-to-all schedule and routing for two-level fat trees.\n"
	"\n"
	"Commands:\n"
	"  schedule   compute the abstract all-to-all schedule of FT(2;M0,M1)\n"
	"  check      verify a schedule file\n"
	"\n"
	"Options:\n"
	"  -h, --help      show this help\n"
	"  -V, --version   show the version\n"
	"\n"
	"'fors COMMAND --help' describes a command.\n";

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
	"  -q, --planes Q           planes written in the fabric line (default M0)\n"
	"  -m, --impacted M         impacted planes written (default F)\n"
	"  -o, --output FILE        write FILE atomically instead of stdout\n"
	"  -h, --help               show this help\n";

static const char usage_check[] =
	"Usage: fors check --schedule FILE\n"
	"\n"
	"Verify a schedule file: every ordered pair of present hosts exactly\n"
	"once, each host sending and receiving at most once per phase, at most\n"
	"M0-F inter-leaf senders and receivers per leaf and phase, planes and\n"
	"DLIDs in range, and the optimal phase count P_f where the FORS theorem\n"
	"applies. Exit 0 when it holds, 1 with the first violation otherwise.\n"
	"\n"
	"  -s, --schedule FILE  the schedule file to check\n"
	"  -h, --help           show this help\n";

static int usage_error(const char *cmd, const char *fmt, const char *arg)
{
	fprintf(stderr, "fors%s%s: ", cmd ? " " : "", cmd ? cmd : "");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n");
	return EXIT_USAGE;
}

/* A decimal count in [lo, hi]; anything else is a usage error. */
static int parse_u32(const char *cmd, const char *opt, const char *s,
		     unsigned long lo, unsigned long hi, uint32_t *v)
{
	char msg[160];
	unsigned long x;
	char *end;

	if (s[0] < '0' || s[0] > '9') {
		snprintf(msg, sizeof(msg),
			 "%s: expected a non-negative integer, got '%%s'", opt);
		return usage_error(cmd, msg, s);
	}
	errno = 0;
	x = strtoul(s, &end, 10);
	if (*end) {
		snprintf(msg, sizeof(msg),
			 "%s: expected a non-negative integer, got '%%s'", opt);
		return usage_error(cmd, msg, s);
	}
	if (errno || x < lo || x > hi) {
		snprintf(msg, sizeof(msg),
			 "%s: '%%s' is out of range %lu..%lu", opt, lo, hi);
		return usage_error(cmd, msg, s);
	}
	*v = (uint32_t)x;
	return 0;
}

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
				      FORS_MAX_HOSTS, &a->q);
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
		case ':':
			return usage_error("schedule", "%s needs a value",
					   argv[optind - 1]);
		default:
			return usage_error("schedule", "unknown option '%s'",
					   argv[optind - 1]);
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

static int cmd_schedule(int argc, char **argv)
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

static int cmd_check(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "schedule", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *path = NULL;
	struct fors_schedule *s;
	struct fors_error err;
	int c, r;

	while ((c = getopt_long(argc, argv, ":s:h", opts, NULL)) != -1) {
		if (c == 's')
			path = optarg;
		else if (c == 'h')
			return fputs(usage_check, stdout), 0;
		else if (c == ':')
			return usage_error("check", "%s needs a value",
					   argv[optind - 1]);
		else
			return usage_error("check", "unknown option '%s'",
					   argv[optind - 1]);
	}
	if (optind < argc)
		return usage_error("check", "unexpected argument '%s'",
				   argv[optind]);
	if (!path)
		return usage_error("check", "%s is required", "--schedule");
	r = fors_schedule_read_file(path, &s, &err);
	if (!r) {
		r = fors_schedule_verify(s, &err);
		if (!r)
			printf("%s: ok: %u phases, %zu transfers\n", path,
			       s->nphases, s->nxfers);
		fors_schedule_free(s);
	}
	if (r)
		fprintf(stderr, "fors check: %s\n", err.msg);
	return r ? EXIT_FAIL : 0;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return usage_error(NULL, "%s", "missing command (see 'fors --help')");
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))
		return fputs(usage_main, stdout), 0;
	if (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version"))
		return puts(PACKAGE_STRING), 0;
	if (!strcmp(argv[1], "schedule"))
		return cmd_schedule(argc - 1, argv + 1);
	if (!strcmp(argv[1], "check"))
		return cmd_check(argc - 1, argv + 1);
	return usage_error(NULL, "unknown command '%s' (see 'fors --help')",
			   argv[1]);
}
