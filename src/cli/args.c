// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>

#include "cli/cli.h"

int usage_error(const char *cmd, const char *fmt, const char *arg)
{
	fprintf(stderr, "fors%s%s: ", cmd ? " " : "", cmd ? cmd : "");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n");
	return EXIT_USAGE;
}

/* A decimal number in [lo, hi]; anything else is a usage error. */
static int parse_range(const char *cmd, const char *opt, const char *s,
		       unsigned long long lo, unsigned long long hi,
		       unsigned long long *v)
{
	char msg[160];
	unsigned long long x;
	char *end;

	if (s[0] < '0' || s[0] > '9') {
		snprintf(msg, sizeof(msg),
			 "%s: expected a non-negative integer, got '%%s'", opt);
		return usage_error(cmd, msg, s);
	}
	errno = 0;
	x = strtoull(s, &end, 10);
	if (*end) {
		snprintf(msg, sizeof(msg),
			 "%s: expected a non-negative integer, got '%%s'", opt);
		return usage_error(cmd, msg, s);
	}
	if (errno || x < lo || x > hi) {
		snprintf(msg, sizeof(msg),
			 "%s: '%%s' is out of range %llu..%llu", opt, lo, hi);
		return usage_error(cmd, msg, s);
	}
	*v = x;
	return 0;
}

int parse_u32(const char *cmd, const char *opt, const char *s,
	      unsigned long lo, unsigned long hi, uint32_t *v)
{
	unsigned long long x;
	int r = parse_range(cmd, opt, s, lo, hi, &x);

	if (!r)
		*v = (uint32_t)x;
	return r;
}

int parse_u64_arg(const char *cmd, const char *opt, const char *s,
		  uint64_t *v)
{
	unsigned long long x;
	int r = parse_range(cmd, opt, s, 0, UINT64_MAX, &x);

	if (!r)
		*v = x;
	return r;
}

int bad_option(const char *cmd, int c, char **argv)
{
	extern int optind;

	if (c == ':')
		return usage_error(cmd, "%s needs a value", argv[optind - 1]);
	return usage_error(cmd, "unknown option '%s'", argv[optind - 1]);
}
