// SPDX-License-Identifier: MIT
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>

#include "cli/cli.h"
#include "sys/clock.h"
#include "fabric/holddown.h"
#include "formats/status.h"
#include "formats/statefile.h"

static const char usage_status[] =
	"Usage: fors status --state FILE\n"
	"\n"
	"Show the plugin's state file (fors.conf state_file): when it was\n"
	"written, the hold-down in effect, and every cable that is down, held\n"
	"(up, but carrying no data until it has been up for the hold-down) or\n"
	"has flapped: its two ends, when it went down and came back, and how\n"
	"often it went down. Exit 0, or 1 when the file cannot be read.\n"
	"\n"
	"  -s, --state FILE  the state file\n"
	"  -h, --help        show this help\n";

static void show(const struct fors_cables *cs, const struct fors_topology *seen)
{
	int64_t now = fors_clock_wall();
	uint32_t down, held, i, sw = 0;

	fors_cables_count(cs, &down, &held);
	if (cs->written)
		printf("written %" PRId64 " s ago, ", now - cs->written);
	printf("hold-down %u s; cables: %u down, %u held\n", cs->holddown, down,
	       held);
	fors_cables_print(stdout, cs, seen, now);
	for (i = 0; seen && i < seen->nnodes; i++)
		sw += seen->nodes[i].type == FORS_SWITCH;
	if (seen)
		printf("remembered fabric: %u switches, %u CAs\n", sw,
		       seen->nnodes - sw);
}

int cmd_status(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "state", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *path = NULL;
	struct fors_topology *seen;
	struct fors_cables *cs;
	struct fors_error err;
	int c;

	while ((c = getopt_long(argc, argv, ":s:h", opts, NULL)) != -1) {
		if (c == 's')
			path = optarg;
		else if (c == 'h')
			return fputs(usage_status, stdout), 0;
		else
			return bad_option("status", c, argv);
	}
	if (optind < argc)
		return usage_error("status", "unexpected argument '%s'",
				   argv[optind]);
	if (!path)
		return usage_error("status", "%s is required", "--state");
	if (fors_state_read_file(path, &cs, &seen, &err)) {
		fprintf(stderr, "fors status: %s\n", err.msg);
		return EXIT_FAIL;
	}
	show(cs, seen);
	fors_cables_free(cs);
	fors_topology_free(seen);
	return 0;
}
