/* SPDX-License-Identifier: MIT */
#ifndef FORS_SLURP_H
#define FORS_SLURP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/error.h"

/* A whole file in memory, NUL-terminated (it may hold NUL bytes too). */
struct fors_slurp {
	char *text;		/* free() it */
	size_t len;
	uint32_t uid;		/* owner and mode of the file read, from */
	uint32_t mode;		/* its open descriptor; 0 for a stream */
};

/*
 * The rest of in, at most max bytes: 0; FORS_EFORMAT when there is more,
 * FORS_EIO on a read error, FORS_ENOMEM; err names name.
 */
int fors_slurp_stream(FILE *in, const char *name, size_t max,
		      struct fors_slurp *f, struct fors_error *err);

/*
 * The regular file path whole, its last component no symbolic link, at
 * most max bytes: 0, FORS_ENOENT when there is no such file, or as above.
 */
int fors_slurp_file(const char *path, size_t max, struct fors_slurp *f,
		    struct fors_error *err);

#endif
