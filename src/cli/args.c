// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"

int usage_error(const char *cmd, const char *fmt, const char *arg)
{
	fprintf(stderr, "fors%s%s: ", cmd ? " " : "", cmd ? cmd : "");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n");
	return EXIT_USAGE;
}

/* A decimal count in [lo, hi]; anything else is a usage error. */
int parse_u32(const char *cmd, const char *opt, const char *s,
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

int bad_option(const char *cmd, int c, char **argv)
{
	extern int optind;

	if (c == ':')
		return usage_error(cmd, "%s needs a value", argv[optind - 1]);
	return usage_error(cmd, "unknown option '%s'", argv[optind - 1]);
}
