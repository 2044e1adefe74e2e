/* SPDX-License-Identifier: MIT */
#ifndef FORS_PLUGIN_CACHE_H
#define FORS_PLUGIN_CACHE_H

#include "fabric/fabric.h"
#include "schedule/schedule.h"

/*
 * "PROGRAM ARG ..." split at blanks, then --cache DIR and, when user is
 * not NULL, --trust-user USER; NULL: no memory. argv[0] owns the words:
 * free it, then argv.
 */
char **fors_cache_argv(const char *cmd, const char *dir, const char *user);

/*
 * The planes source of the ILP cache (routing/route.h), ctx the plugin:
 * 0 with *out when the lookup answered with a valid routing of fb.
 */
int fors_cache_planes(void *ctx, const struct fors_fabric *fb,
		      struct fors_schedule **out);

#endif
