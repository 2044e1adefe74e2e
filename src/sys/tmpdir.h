/* SPDX-License-Identifier: MIT */
#ifndef FORS_TMPDIR_H
#define FORS_TMPDIR_H

#include <stddef.h>

#include "base/error.h"

/*
 * A new private directory (mode 0700) named PREFIX-XXXXXX under $TMPDIR,
 * or /tmp when that is unset or relative, into dir (len bytes): 0, or
 * FORS_EIO with err saying why (dir is then "").
 */
int fors_tmpdir_make(const char *prefix, char *dir, size_t len,
		     struct fors_error *err);

/*
 * Remove dir and the files in it. A failure leaves a private directory
 * behind and is not reported: nothing else depends on it.
 */
void fors_tmpdir_remove(const char *dir);

#endif
