// SPDX-License-Identifier: MIT
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "formats/io.h"

int parse_u64(const char **s, int base, uint64_t *v)
{
	const char *t = *s;
	char *end;

	if (base == 0) {
		base = 10;
		if (t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
			base = 16;
			t += 2;
		}
	}
	if (!isdigit((unsigned char)*t) &&
	    !(base == 16 && isxdigit((unsigned char)*t)))
		return -1;
	errno = 0;
	*v = strtoull(t, &end, base);
	if (errno)
		return -1;
	*s = end;
	return 0;
}

int read_path(const char *path,
	      int (*fn)(FILE *in, const char *name, void *out,
			struct fors_error *err),
	      void *out, struct fors_error *err)
{
	FILE *in = fopen(path, "r");
	int r;

	if (!in) {
		fors_error_set(err, "cannot open %s: %s", path,
			       strerror(errno));
		return FORS_EIO;
	}
	r = fn(in, path, out, err);
	fclose(in);
	return r;
}
