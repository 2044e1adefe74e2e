/* SPDX-License-Identifier: MIT */
#ifndef FORS_IO_H
#define FORS_IO_H

#include <stdint.h>
#include <stdio.h>

#include "base/error.h"

/*
 * An unsigned number at *s: base 10 or 16, or with base 0 decimal unless
 * it starts with 0x (never octal). No sign or blank before it. On success
 * *s moves past it; -1 when there is no number or it overflows.
 */
int parse_u64(const char **s, int base, uint64_t *v);

/* Open path and run a reader on it, or "cannot open PATH: why". */
int read_path(const char *path,
	      int (*fn)(FILE *in, const char *name, void *out,
			struct fors_error *err),
	      void *out, struct fors_error *err);

#endif
