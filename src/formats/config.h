/* SPDX-License-Identifier: MIT */
#ifndef FORS_CONFIG_H
#define FORS_CONFIG_H

#include <stdio.h>

/* The plugin's configuration file (doc/plugin.md); NULL or 0: the default. */
struct fors_config {
	char *schedule_file;	/* default: opensm-fors-schedule.dump in
				   OpenSM's dump_files_dir */
	char *reference_topology;	/* default: none, remember the fabric */
	char *state_file;	/* default: none, memory only */
	int verify;		/* check the routing before installing it */
	unsigned link_holddown_s;	/* a cable back up carries data again
					   after this long (FORS_HOLDDOWN) */
	char *ilp_cache;	/* default: none, no ILP cache */
	char *ilp_lookup;	/* default: FORS_ILP_LOOKUP */
	char *ilp_cache_user;	/* a batch user whose cache is trusted too;
				   default: none, root and us only */
	unsigned ilp_timeout_ms;	/* FORS_ILP_TIMEOUT */
	unsigned stage_wait_ms;	/* a staged update's first stage stays this
				   long before the rest (FORS_STAGE_WAIT) */
	int refuse_spine_hosts;	/* spine_hosts refuse; default route */
	int exchange_lids;	/* base_lids exchange: with fewer LID offsets
				   than planes the base LIDs chosen for the
				   exchange alone; default everyone */
	int phases_first;	/* base_lids phases: the base map, never
				   minhop's (routing/route.h) */
	char *participants;	/* a GUID file, or "all"; default: OpenSM's
				   cn_guid_file, else every host port */
	int text_schedule;	/* schedule_format text: version 1; default
				   compact, version 2 */
};

/* A sweep waits at most this long for the cache (doc/ilp.md). */
#define FORS_ILP_TIMEOUT 2000
#define FORS_ILP_TIMEOUT_MAX 60000

/*
 * Long enough for the next heavy sweep to start after OpenSM's own; the
 * switches already acknowledged the first stage (doc/routing.md).
 */
#define FORS_STAGE_WAIT 100
#define FORS_STAGE_WAIT_MAX 60000

/*
 * The LHCb failure study: 90% of the failures of a flapping link follow
 * the previous one within 10 minutes (fors.conf(5)).
 */
#define FORS_HOLDDOWN 600
#define FORS_HOLDDOWN_MAX 86400

/* Called once per message; error is 0 for a warning. */
typedef void (*fors_config_note)(void *ctx, int error, const char *msg);

#define FORS_CONFIG_DEFAULT "/etc/opensm/fors.conf"

/* Every key of c at its default (nothing allocated). */
void fors_config_defaults(struct fors_config *c);

/*
 * Read "key value" lines; '#' starts a comment. An unknown key is a
 * warning; an invalid value is an error naming the key, and the key keeps
 * its default. Returns 0, or FORS_EIO (with a note) when the file cannot
 * be read; FORS_ENOMEM when out of memory.
 */
int fors_config_parse(FILE *in, const char *name, struct fors_config *c,
		      fors_config_note note, void *ctx);
int fors_config_read(const char *path, struct fors_config *c,
		     fors_config_note note, void *ctx);
void fors_config_free(struct fors_config *c);

/*
 * base_lids's value v (everyone, phases or exchange) into its two flags,
 * for fors.conf and fors route's --base-lids: 0, or -1 (flags untouched)
 * when v is none of them.
 */
int fors_config_base_lids(const char *v, int *exchange_lids,
			  int *phases_first);

#endif
