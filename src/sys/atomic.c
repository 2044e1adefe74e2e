// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sys/atomic.h"

int fors_write_atomic(const char *path, int (*fn)(FILE *, const void *),
		      const void *arg, struct fors_error *err)
{
	size_t len = strlen(path);
	char *tmp = malloc(len + 8);
	FILE *out;
	int fd, saved;

	if (!tmp) {
		fors_error_set(err, "out of memory writing %s", path);
		return FORS_ENOMEM;
	}
	snprintf(tmp, len + 8, "%s.XXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0)
		goto fail;
	out = fdopen(fd, "w");
	if (!out) {
		saved = errno;
		close(fd);
		errno = saved;
		goto fail_unlink;
	}
	/* readers are other users' applications: 0644, not mkstemp's 0600 */
	if (fchmod(fd, 0644) || fn(out, arg) || fflush(out) ||
	    fsync(fd)) {
		saved = errno;
		fclose(out);
		errno = saved;
		goto fail_unlink;
	}
	if (fclose(out) || rename(tmp, path))
		goto fail_unlink;
	free(tmp);
	return FORS_OK;
fail_unlink:
	saved = errno;
	unlink(tmp);
	errno = saved;
fail:
	fors_error_set(err, "cannot write %s: %s", path, strerror(errno));
	free(tmp);
	return FORS_EIO;
}
