/* SPDX-License-Identifier: MIT */
#ifndef FORS_TRUST_H
#define FORS_TRUST_H

#include <stdint.h>

#include "base/error.h"

/*
 * OpenSSH's StrictModes, for files whose contents the subnet manager acts
 * on (the ILP cache): trusted when owned by root or by our effective user
 * and writable by nobody else.
 */

/*
 * A file with owner uid and mode (as fstat gives them) that should be a
 * directory (dir 1) or a regular file (dir 0): 0, or FORS_EINVAL with err
 * naming path and what is wrong.
 */
int fors_trust_mode(const char *path, uint32_t uid, uint32_t mode, int dir,
		    struct fors_error *err);

/*
 * The directory path itself, a symbolic link not followed; created (mode
 * 0755) first when create is set and it does not exist. 0, FORS_EIO when
 * it cannot be created or examined ("cannot open WHAT PATH: why"), or
 * FORS_EINVAL as above.
 */
int fors_trust_dir(const char *path, const char *what, int create,
		   struct fors_error *err);

#endif
