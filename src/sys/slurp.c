// SPDX-License-Identifier: MIT
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sys/slurp.h"

static int grow(struct fors_slurp *f, size_t *cap, size_t max)
{
	size_t n = *cap ? 2 * *cap : 1 << 16;
	char *b;

	if (n > max + 1)
		n = max + 1;
	b = realloc(f->text, n + 1);
	if (!b)
		return FORS_ENOMEM;
	f->text = b;
	*cap = n;
	return 0;
}

int fors_slurp_stream(FILE *in, const char *name, size_t max,
		      struct fors_slurp *f, struct fors_error *err)
{
	size_t cap = 0, got = 1;
	int r = 0;

	memset(f, 0, sizeof(*f));
	if (max == SIZE_MAX)
		max--;
	while (!r && got && f->len <= max) {
		if (f->len == cap)
			r = grow(f, &cap, max);
		if (!r) {
			got = fread(f->text + f->len, 1, cap - f->len, in);
			f->len += got;
		}
	}
	if (!r && ferror(in))
		r = FORS_EIO;
	else if (!r && f->len > max)
		r = FORS_EFORMAT;
	if (r == FORS_ENOMEM)
		fors_error_set(err, "%s: out of memory", name);
	if (r == FORS_EIO)
		fors_error_set(err, "%s: read error", name);
	if (r == FORS_EFORMAT)
		fors_error_set(err, "%s: larger than %zu bytes", name, max);
	if (r) {
		free(f->text);
		memset(f, 0, sizeof(*f));
		return r;
	}
	f->text[f->len] = '\0';
	return 0;
}

/* The open descriptor of a regular file, with its owner and mode. */
static int open_regular(const char *path, struct fors_slurp *f,
			struct fors_error *err)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	struct stat s;

	if (fd < 0 && errno == ENOENT)
		return FORS_ENOENT;
	if (fd < 0 || fstat(fd, &s)) {
		fors_error_set(err, "cannot read %s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return FORS_EIO;
	}
	if (!S_ISREG(s.st_mode)) {
		fors_error_set(err, "%s is not a regular file", path);
		close(fd);
		return FORS_EIO;
	}
	f->uid = (uint32_t)s.st_uid;
	f->mode = (uint32_t)s.st_mode;
	return fd;
}

int fors_slurp_file(const char *path, size_t max, struct fors_slurp *f,
		    struct fors_error *err)
{
	struct fors_slurp got = { 0 };
	int fd, r;
	FILE *in;

	memset(f, 0, sizeof(*f));
	fd = open_regular(path, &got, err);
	if (fd < 0)
		return fd;
	in = fdopen(fd, "r");
	if (!in) {
		close(fd);
		fors_error_set(err, "%s: out of memory", path);
		return FORS_ENOMEM;
	}
	r = fors_slurp_stream(in, path, max, f, err);
	fclose(in);
	f->uid = got.uid;
	f->mode = got.mode;
	return r;
}
