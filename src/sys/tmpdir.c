// SPDX-License-Identifier: MIT
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sys/tmpdir.h"

int fors_tmpdir_make(const char *prefix, char *dir, size_t len,
		     struct fors_error *err)
{
	const char *t = getenv("TMPDIR");
	int n;

	if (!t || t[0] != '/')
		t = "/tmp";
	n = snprintf(dir, len, "%s/%s-XXXXXX", t, prefix);
	if (n < 0 || (size_t)n >= len) {
		dir[0] = '\0';
		fors_error_set(err, "TMPDIR is too long");
		return FORS_EIO;
	}
	if (!mkdtemp(dir)) {
		fors_error_set(err, "cannot create a directory in %s: %s", t,
			       strerror(errno));
		dir[0] = '\0';
		return FORS_EIO;
	}
	return 0;
}

void fors_tmpdir_remove(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	while (d && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			unlinkat(dirfd(d), e->d_name, 0);
	if (d)
		closedir(d);
	rmdir(dir);
}
