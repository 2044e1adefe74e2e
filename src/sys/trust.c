// SPDX-License-Identifier: MIT
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sys/trust.h"

int fors_trust_mode(const char *path, uint32_t uid, uint32_t mode, int dir,
		    struct fors_error *err)
{
	if (dir ? !S_ISDIR(mode) : !S_ISREG(mode)) {
		fors_error_set(err, "%s is not a %s", path,
			       dir ? "directory" : "regular file");
		return FORS_EINVAL;
	}
	if (uid != 0 && uid != (uint32_t)geteuid()) {
		fors_error_set(err, "%s is owned by uid %u, neither root nor us: refused",
			       path, (unsigned)uid);
		return FORS_EINVAL;
	}
	if (mode & 022) {
		fors_error_set(err, "%s is writable by %s: refused", path,
			       mode & 002 ? "anyone" : "its group");
		return FORS_EINVAL;
	}
	return 0;
}

int fors_trust_dir(const char *path, const char *what, int create,
		   struct fors_error *err)
{
	struct stat s;

	if (create && mkdir(path, 0755) && errno != EEXIST) {
		fors_error_set(err, "cannot create %s: %s", path,
			       strerror(errno));
		return FORS_EIO;
	}
	if (lstat(path, &s)) {
		fors_error_set(err, "cannot open %s %s: %s", what, path,
			       strerror(errno));
		return FORS_EIO;
	}
	return fors_trust_mode(path, (uint32_t)s.st_uid, (uint32_t)s.st_mode,
			       1, err);
}
