// SPDX-License-Identifier: MIT
#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sys/trust.h"

/* The login name of uid into buf, or its number when it has none. */
static const char *owner(uint32_t uid, char *buf, size_t len)
{
	struct passwd pw, *res = NULL;
	char tmp[1024];

	if (!getpwuid_r((uid_t)uid, &pw, tmp, sizeof(tmp), &res) && res)
		snprintf(buf, len, "%s", pw.pw_name);
	else
		snprintf(buf, len, "%u", (unsigned)uid);
	return buf;
}

int fors_trust_mode(const char *path, uint32_t uid, uint32_t mode, int dir,
		    uint32_t also, struct fors_error *err)
{
	char who[64];

	if (dir ? !S_ISDIR(mode) : !S_ISREG(mode)) {
		fors_error_set(err, "%s is not a %s", path,
			       dir ? "directory" : "regular file");
		return FORS_EINVAL;
	}
	if (uid != 0 && uid != (uint32_t)geteuid() && uid != also) {
		owner(uid, who, sizeof(who));
		fors_error_set(err, "%s is owned by %s (uid %u), neither root nor us: refused (to trust a batch user's cache: 'ilp_cache_user %s' in fors.conf, --trust-user %s for fors ilp)",
			       path, who, (unsigned)uid, who, who);
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
		   uint32_t also, struct fors_error *err)
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
			       1, also, err);
}

int fors_trust_user(const char *name, uint32_t *uid, struct fors_error *err)
{
	struct passwd pw, *res = NULL;
	char tmp[1024], *end;
	unsigned long n;

	if (!getpwnam_r(name, &pw, tmp, sizeof(tmp), &res) && res) {
		*uid = (uint32_t)pw.pw_uid;
		return 0;
	}
	errno = 0;
	n = strtoul(name, &end, 10);
	if (*name >= '0' && *name <= '9' && !*end && !errno && n < 0xffffffffu) {
		*uid = (uint32_t)n;
		return 0;
	}
	fors_error_set(err, "no user '%s' on this machine", name);
	return FORS_EINVAL;
}
