/* SPDX-License-Identifier: MIT */
#ifndef FORS_CLI_H
#define FORS_CLI_H

#include <stdint.h>

enum { EXIT_FAIL = 1, EXIT_USAGE = 2 };

/* "fors CMD: <message>" on stderr; returns EXIT_USAGE. */
int usage_error(const char *cmd, const char *fmt, const char *arg);

/* A decimal count in [lo, hi]; 0, or EXIT_USAGE after a message. */
int parse_u32(const char *cmd, const char *opt, const char *s,
	      unsigned long lo, unsigned long hi, uint32_t *v);

/* A decimal number in 0..2^64-1; 0, or EXIT_USAGE after a message. */
int parse_u64_arg(const char *cmd, const char *opt, const char *s,
		  uint64_t *v);

/* getopt_long's ':' and '?' cases, as a usage error. */
int bad_option(const char *cmd, int c, char **argv);

/* The subcommands, each given its own arguments: an exit status. */
int cmd_schedule(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_route(int argc, char **argv);
int cmd_netgen(int argc, char **argv);
int cmd_status(int argc, char **argv);
int cmd_eval(int argc, char **argv);
int cmd_ilp(int argc, char **argv);

#endif
