/* SPDX-License-Identifier: MIT */
#ifndef FORS_ATOMIC_H
#define FORS_ATOMIC_H

#include <stdio.h>

#include "base/error.h"

/*
 * Write path atomically: fn writes a temporary file in the same directory,
 * which then replaces path (mode 0644), so a reader never sees half a file.
 */
int fors_write_atomic(const char *path, int (*fn)(FILE *, const void *),
		      const void *arg, struct fors_error *err);

#endif
