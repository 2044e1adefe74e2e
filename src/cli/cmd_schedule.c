// SPDX-License-Identifier: MIT
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "formats/schedfile.h"
#include "schedule/schedule.h"
#include "sys/tty.h"

static const char usage_schedule[] =
	"Usage: fors schedule --hosts-per-leaf M0 --leaves M1 --reduction F\n"
	"                     [--planes Q] [--impacted M] [--text] [--output FILE]\n"
	"       fors schedule --input FILE [--text] [--output FILE]\n"
	"\n"
	"Write the FORS all-to-all schedule of FT(2;M0,M1) with bandwidth\n"
	"reduction F (0 <= F < M0): Algorithm 1 of the FORS paper between\n"
	"leaves, the fewest phases found inside them. The schedule is abstract:\n"
	"no host lines, planes and DLIDs are '-'. With --input, write the\n"
	"schedule file FILE (either version) again instead. The file is the\n"
	"compact form (version 2, binary after its head) unless --text asks for\n"
	"version 1, a line per transfer; the compact form is not written to a\n"
	"terminal.\n"
	"\n"
	"  -n, --hosts-per-leaf M0  host slots per leaf switch (>= 1)\n"
	"  -l, --leaves M1          leaf switches (>= 2); M0 x M1 <= 2048\n"
	"  -f, --reduction F        bandwidth reduction, 0 <= F < M0\n"
	"  -q, --planes Q           planes written in the fabric line (default M0,\n"
	"                           at most 1023)\n"
	"  -m, --impacted M         impacted planes written (default F)\n"
	"  -i, --input FILE         the schedule file to write again\n"
	"  -t, --text               write version 1, the text form\n"
	"  -o, --output FILE        write FILE atomically instead of stdout\n"
	"  -h, --help               show this help\n";

struct sched_args {
	struct fors_sched_params sp;
	uint32_t q, m;
	int text;
	int have;		/* of -n, -l, -f, -q, -m: bits 1, 2, 4, 8, 16 */
	const char *output, *input;
};

/* The options a build needs, or none of them with --input. */
static int required(const struct sched_args *a)
{
	if (a->input && a->have)
		return usage_error("schedule", "%s",
				   "--input writes a file again: it takes no --hosts-per-leaf, --leaves, --reduction, --planes or --impacted");
	if (a->input)
		return 0;
	if (!(a->have & 1))
		return usage_error("schedule", "%s is required",
				   "--hosts-per-leaf");
	if (!(a->have & 2))
		return usage_error("schedule", "%s is required", "--leaves");
	if (!(a->have & 4))
		return usage_error("schedule", "%s is required", "--reduction");
	return 0;
}

static int sched_opts(int argc, char **argv, struct sched_args *a)
{
	static const struct option opts[] = {
		{ "hosts-per-leaf", required_argument, NULL, 'n' },
		{ "leaves", required_argument, NULL, 'l' },
		{ "reduction", required_argument, NULL, 'f' },
		{ "planes", required_argument, NULL, 'q' },
		{ "impacted", required_argument, NULL, 'm' },
		{ "output", required_argument, NULL, 'o' },
		{ "input", required_argument, NULL, 'i' },
		{ "text", no_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int have = 0, c, r = 0;

	while (!r && (c = getopt_long(argc, argv, ":n:l:f:q:m:o:i:th", opts,
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
			have |= 8;
			break;
		case 'm':
			r = parse_u32("schedule", "--impacted", optarg, 0,
				      FORS_MAX_HOSTS, &a->m);
			have |= 16;
			break;
		case 'o':
			a->output = optarg;
			break;
		case 'i':
			a->input = optarg;
			break;
		case 't':
			a->text = 1;
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
	a->have = have;
	return required(a);
}

/* s on stdout in a's form: 0, or the error with err. */
static int put_stdout(const struct sched_args *a, const struct fors_schedule *s,
		      struct fors_error *err)
{
	int r = a->text ? fors_schedule_write(stdout, s) :
		fors_schedule_write_compact(stdout, s, NULL, 0, err);

	if (!r && fflush(stdout))
		r = FORS_EIO;
	if (r == FORS_EIO)
		snprintf(err->msg, sizeof(err->msg),
			 "cannot write the schedule: %s", strerror(errno));
	else if (r == FORS_ENOMEM)
		snprintf(err->msg, sizeof(err->msg), "out of memory");
	return r;
}

/* s to a's output, or stdout, in a's form; 0 or the error's status. */
static int put(const struct sched_args *a, const struct fors_schedule *s)
{
	struct fors_error err = { "" };
	int r;

	if (!a->output && !a->text && fors_is_terminal(stdout))
		return usage_error("schedule", "%s",
				   "the compact form is binary: give --output FILE, or --text");
	if (a->output)
		r = fors_schedule_write_file(a->output, s, a->text ?
					     FORS_SCHED_TEXT :
					     FORS_SCHED_COMPACT, &err);
	else
		r = put_stdout(a, s, &err);
	if (r)
		fprintf(stderr, "fors schedule: %s\n", err.msg);
	return r ? EXIT_FAIL : 0;
}

/* --input: the file read and written again. */
static int rewrite(const struct sched_args *a)
{
	struct fors_schedule *s;
	struct fors_error err;
	int r;

	if (fors_schedule_read_file(a->input, &s, &err)) {
		fprintf(stderr, "fors schedule: %s\n", err.msg);
		return EXIT_FAIL;
	}
	r = put(a, s);
	fors_schedule_free(s);
	return r;
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
	if (a.input)
		return rewrite(&a);
	if (fors_sched_check_params(&a.sp, &err))
		return usage_error("schedule", "%s", err.msg);
	if ((a.have & 16) && a.m > (a.have & 8 ? a.q : a.sp.m0))
		return usage_error("schedule", "%s",
				   "--impacted cannot exceed the planes");
	if (fors_schedule_build(&s, &a.sp, &info, &err)) {
		fprintf(stderr, "fors schedule: %s\n", err.msg);
		return EXIT_FAIL;
	}
	if (a.have & 8)
		s->q = a.q;
	if (a.have & 16)
		s->m = a.m;
	r = put(&a, s);
	if (!r && a.output)
		printf("FT(2;%u,%u) f=%u: %u phases (lower bound %u, P_f %u), %zu transfers\n",
		       s->m0, s->m1, s->f, s->nphases, info.lower_bound,
		       info.pf, s->nxfers);
	fors_schedule_free(s);
	return r;
}

