// SPDX-License-Identifier: MIT
/*
 * The plugin's start: its configuration, where OpenSM's options put its
 * files, the ILP cache's command, the timer, and the sweeps' state.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <opensm/osm_config.h>
#include <opensm/osm_log.h>

#include "plugin/cache.h"
#include "plugin/setup.h"
#include "sys/trust.h"

#define LOG(p, lvl, ...) OSM_LOG(&(p)->osm->log, lvl, "fors: " __VA_ARGS__)

static void note(void *ctx, int error, const char *msg)
{
	struct fors_plugin *p = ctx;

	LOG(p, error ? OSM_LOG_ERROR : OSM_LOG_INFO, "%s%s\n",
	    error ? "" : "warning: ", msg);
}

/* The sweeps' log lines: their errors, and their reports as information. */
static void say(void *ctx, int error, const char *msg)
{
	struct fors_plugin *p = ctx;

	LOG(p, error ? OSM_LOG_ERROR : OSM_LOG_INFO, "%s\n", msg);
}

/*
 * FORS_CONFIG, then "fors_config=PATH" in event_plugin_options, into path;
 * 0 when neither names a file and path is the default.
 */
static int config_path(struct fors_plugin *p, char *path, size_t len)
{
	const char *o = p->osm->subn.opt.event_plugin_options;
	const char *env = getenv("FORS_CONFIG");
	static const char key[] = "fors_config=";
	const char *s;

	if (env && *env) {
		snprintf(path, len, "%s", env);
		return 1;
	}
	for (s = o; s && (s = strstr(s, key)); s += sizeof(key) - 1) {
		if (s != o && s[-1] != ' ' && s[-1] != ',')
			continue;
		s += sizeof(key) - 1;
		snprintf(path, len, "%.*s", (int)strcspn(s, " ,"), s);
		return 1;
	}
	snprintf(path, len, "%s", FORS_CONFIG_DEFAULT);
	return 0;
}

static int load_config(struct fors_plugin *p)
{
	char path[4096];
	int named = config_path(p, path, sizeof(path));

	if (!named && access(path, F_OK)) {
		LOG(p, OSM_LOG_INFO, "no %s: using the defaults\n", path);
		return 0;
	}
	switch (fors_config_read(path, &p->cfg, note, p)) {
	case 0:
		LOG(p, OSM_LOG_INFO, "configuration read from %s\n", path);
		return 0;
	case FORS_ENOMEM:
		return FORS_ENOMEM;
	default:
		LOG(p, OSM_LOG_ERROR, "using the defaults\n");
		return 0;
	}
}

static char *in_dump_dir(struct fors_plugin *p, const char *name)
{
	const char *dir = p->osm->subn.opt.dump_files_dir;
	size_t n;
	char *s;

	if (!dir || !*dir)
		dir = ".";
	n = strlen(dir) + strlen(name) + 2;
	s = malloc(n);
	/* OpenSM's default dump_files_dir, /var/log/, ends in a slash */
	if (s)
		snprintf(s, n, "%s%s%s", dir,
			 dir[strlen(dir) - 1] == '/' ? "" : "/", name);
	return s;
}

/* The sweeps' state, with the files where the configuration puts them. */
static int open_state(struct fors_plugin *p)
{
	struct fors_sweep_config c = {
		.state_path = p->cfg.state_file,
		.reference_path = p->cfg.reference_topology,
		.holddown_s = p->cfg.link_holddown_s,
		.verify = p->cfg.verify,
		.text_schedule = p->cfg.text_schedule,
	};
	char *sched = p->cfg.schedule_file ? strdup(p->cfg.schedule_file) :
		      in_dump_dir(p, "opensm-fors-schedule.dump");
	char *rejected = in_dump_dir(p, "fors-rejected-topology.txt");
	int e = FORS_ENOMEM;

	c.schedule_path = sched;
	c.rejected_path = rejected;
	if (sched && rejected)
		e = fors_sweep_state_open(&c, say, p, &p->st);
	free(sched);
	free(rejected);
	return e;
}

static void wake_up(void *ctx)
{
	struct fors_plugin *p = ctx;

	LOG(p, OSM_LOG_INFO, "%s: heavy sweep\n", p->st->restage ?
	    "the rest of a staged update" : "a held cable is due back");
	p->osm->subn.force_heavy_sweep = TRUE;
	osm_opensm_sweep(p->osm);
}

/* The lookup command for ilp_cache, or none. */
static int setup_cache(struct fors_plugin *p)
{
	const char *cmd = p->cfg.ilp_lookup ? p->cfg.ilp_lookup :
			  FORS_BINDIR "/fors ilp lookup";
	const char *user = p->cfg.ilp_cache_user;
	struct fors_error err;

	if (!p->cfg.ilp_cache)
		return 0;
	if (user && fors_trust_user(user, &p->ilp_also, &err)) {
		LOG(p, OSM_LOG_ERROR, "ilp_cache_user: %s: the ILP cache %s is not used\n",
		    err.msg, p->cfg.ilp_cache);
		return 0;
	}
	p->ilp_argv = fors_cache_argv(cmd, p->cfg.ilp_cache, user);
	if (!p->ilp_argv)
		return FORS_ENOMEM;
	LOG(p, OSM_LOG_INFO, "ILP cache %s for complex scenarios: lookup %s, at most %u ms%s%s\n",
	    p->cfg.ilp_cache, cmd, p->cfg.ilp_timeout_ms,
	    user ? ", trusting the user " : "", user ? user : "");
	return 0;
}

struct fors_plugin *fors_plugin_new(osm_opensm_t *osm)
{
	struct fors_plugin *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->osm = osm;
	fors_config_defaults(&p->cfg);
	cl_timer_construct(&p->timer);
	if (load_config(p) || setup_cache(p) || open_state(p)) {
		LOG(p, OSM_LOG_ERROR, "out of memory\n");
		fors_plugin_free(p);
		return NULL;
	}
	if (cl_timer_init(&p->timer, wake_up, p) != CL_SUCCESS)
		LOG(p, OSM_LOG_ERROR, "no timer: held cables come back at the next heavy sweep\n");
	else
		p->timer_ready = 1;
	return p;
}

void fors_plugin_free(struct fors_plugin *p)
{
	if (!p)
		return;
	if (p->timer_ready)
		cl_timer_destroy(&p->timer);
	fors_sweep_state_free(p->st);
	fors_config_free(&p->cfg);
	if (p->ilp_argv)
		free(p->ilp_argv[0]);
	free(p->ilp_argv);
	free(p);
}
