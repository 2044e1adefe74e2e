/* SPDX-License-Identifier: MIT */
#ifndef FORS_SPAWN_H
#define FORS_SPAWN_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"

/*
 * Run an external program (an ILP solver, the cache lookup) as the
 * subnet manager may: an argument vector and no shell, a time limit and an
 * output limit, safe to call from a multi-threaded process.
 */
struct fors_spawn_limits {
	uint32_t time_ms;	/* wall clock; the process group is killed */
	size_t max_output;	/* bytes of standard output kept */
};

enum fors_spawn_status {
	FORS_SPAWN_EXITED,	/* exited; code holds its status */
	FORS_SPAWN_SIGNALLED,	/* killed by a signal; code holds it */
	FORS_SPAWN_TIMEOUT,	/* killed at the time limit */
	FORS_SPAWN_OVERFLOW,	/* killed: more output than max_output */
};

struct fors_spawn_result {
	enum fors_spawn_status status;
	int code;
	char *out;		/* standard output, NUL-terminated; free() it */
	size_t nout;
	uint32_t elapsed_ms;
};

/*
 * Run argv[0] (a path, or a name looked up in PATH) with argv, in standard
 * input (nin bytes, may be 0), standard error discarded, no other
 * descriptor inherited. 0 with res filled whenever the program ran, even
 * if it failed; FORS_EIO when it could not be started (err says why).
 */
int fors_spawn(const char *const *argv, const char *in, size_t nin,
	       const struct fors_spawn_limits *lim,
	       struct fors_spawn_result *res, struct fors_error *err);

/* One line describing how res ended ("exit 3", "timed out after 2000 ms"). */
void fors_spawn_describe(const struct fors_spawn_result *res, char *buf,
			 size_t len);

#endif
