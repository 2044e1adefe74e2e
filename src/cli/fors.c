// SPDX-License-Identifier: MIT
/* The fors command line: a thin shell over the core library. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "config.h"

static const char usage_main[] =
	"Usage: fors COMMAND [OPTIONS]\n"
	"\n"
	"FORS all-to-all schedule and routing for two-level fat trees.\n"
	"\n"
	"Commands:\n"
	"  schedule   compute the abstract all-to-all schedule of FT(2;M0,M1)\n"
	"  route      route a fabric: schedule, spines, LFTs for every LID\n"
	"  check      verify a schedule, and the routes of an LFT dump\n"
	"  eval       predict an all-to-all's throughput through an LFT dump\n"
	"  netgen     write an ibsim net file for a fat tree\n"
	"  status     show the plugin's state file: cables down and held\n"
	"  ilp        the ILP cache: precompute, lookup, list\n"
	"\n"
	"Options:\n"
	"  -h, --help      show this help\n"
	"  -V, --version   show the version\n"
	"\n"
	"'fors COMMAND --help' describes a command.\n";

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
	if (!strcmp(argv[1], "route"))
		return cmd_route(argc - 1, argv + 1);
	if (!strcmp(argv[1], "netgen"))
		return cmd_netgen(argc - 1, argv + 1);
	if (!strcmp(argv[1], "eval"))
		return cmd_eval(argc - 1, argv + 1);
	if (!strcmp(argv[1], "status"))
		return cmd_status(argc - 1, argv + 1);
	if (!strcmp(argv[1], "ilp"))
		return cmd_ilp(argc - 1, argv + 1);
	return usage_error(NULL, "unknown command '%s' (see 'fors --help')",
			   argv[1]);
}
