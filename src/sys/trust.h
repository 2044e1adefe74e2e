/* SPDX-License-Identifier: MIT */
#ifndef FORS_TRUST_H
#define FORS_TRUST_H

#include <stdint.h>

#include "base/error.h"

/*
 * OpenSSH's StrictModes, for files whose contents the subnet manager acts
 * on (the ILP cache): trusted when owned by root, by our effective user or
 * by the one batch user a site names (`ilp_cache_user`, `--trust-user`),
 * and writable by nobody else.
 */

/* No extra user: root (uid 0) is trusted anyway. */
#define FORS_TRUST_NONE 0u

/*
 * A file with owner uid and mode (as fstat gives them) that should be a
 * directory (dir 1) or a regular file (dir 0), also the one extra owner
 * trusted: 0, or FORS_EINVAL with err naming path, what is wrong and, for
 * a foreign owner, the setting that would trust it.
 */
int fors_trust_mode(const char *path, uint32_t uid, uint32_t mode, int dir,
		    uint32_t also, struct fors_error *err);

/*
 * The directory path itself, a symbolic link not followed; created (mode
 * 0755) first when create is set and it does not exist. 0, FORS_EIO when
 * it cannot be created or examined ("cannot open WHAT PATH: why"), or
 * FORS_EINVAL as above.
 */
int fors_trust_dir(const char *path, const char *what, int create,
		   uint32_t also, struct fors_error *err);

/*
 * The uid of user name (a login name, or a number): 0, or FORS_EINVAL
 * with err naming it when there is no such user.
 */
int fors_trust_user(const char *name, uint32_t *uid, struct fors_error *err);

#endif
