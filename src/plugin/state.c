// SPDX-License-Identifier: MIT
/*
 * What the plugin knows across sweeps: its configuration, the reference or
 * remembered healthy fabric, and the schedule generation to continue from.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <opensm/osm_config.h>
#include <opensm/osm_log.h>

#include "fabric/holddown.h"
#include "formats/schedfile.h"
#include "plugin/plugin.h"
#include "formats/ibnetdiscover.h"
#include "formats/statefile.h"

#define LOG(p, lvl, ...) OSM_LOG(&(p)->osm->log, lvl, "fors: " __VA_ARGS__)

static void note(void *ctx, int error, const char *msg)
{
	struct fors_plugin *p = ctx;

	LOG(p, error ? OSM_LOG_ERROR : OSM_LOG_INFO, "%s%s\n",
	    error ? "" : "warning: ", msg);
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

static int resolve_paths(struct fors_plugin *p)
{
	if (p->cfg.schedule_file)
		p->schedule_path = strdup(p->cfg.schedule_file);
	else
		p->schedule_path = in_dump_dir(p, "opensm-fors-schedule.dump");
	p->rejected_path = in_dump_dir(p, "fors-rejected-topology.txt");
	return p->schedule_path && p->rejected_path ? 0 : FORS_ENOMEM;
}

static void load_topology(struct fors_plugin *p, const char *key,
			  const char *path, struct fors_topology **t)
{
	struct fors_error err = { "" };

	if (fors_topology_read_file(path, t, &err)) {
		LOG(p, OSM_LOG_ERROR, "%s not used: %s\n", key, err.msg);
		*t = NULL;
	}
}

/*
 * Generations keep growing across restarts: continue the existing file's,
 * and keep it when the first routing gives the same schedule again.
 */
static void load_generation(struct fors_plugin *p)
{
	struct fors_schedule *s;
	struct fors_error err;
	size_t i;

	if (access(p->schedule_path, F_OK) ||
	    fors_schedule_read_file(p->schedule_path, &s, &err))
		return;
	for (i = 0; i < s->nextra; i++)
		if (!strcmp(s->extra[i].key, "generation"))
			p->generation = strtoull(s->extra[i].value, NULL, 10);
	p->digest = fors_schedule_digest(s, "generation");
	p->have_digest = 1;
	fors_schedule_free(s);
}

/* The cables' history and the remembered fabric; a bad file is dropped. */
static void load_state(struct fors_plugin *p)
{
	struct fors_error err = { "" };
	struct fors_cables *cs;

	if (!p->cfg.state_file || access(p->cfg.state_file, F_OK))
		return;
	if (fors_state_read_file(p->cfg.state_file, &cs, &p->seen, &err)) {
		LOG(p, OSM_LOG_ERROR, "state_file not used, starting without it: %s\n",
		    err.msg);
		return;
	}
	fors_cables_free(p->cables);
	p->cables = cs;
}

static void wake_up(void *ctx)
{
	struct fors_plugin *p = ctx;

	LOG(p, OSM_LOG_INFO, "a held cable is due back: heavy sweep\n");
	p->osm->subn.force_heavy_sweep = TRUE;
	osm_opensm_sweep(p->osm);
}

/* The lookup command for ilp_cache, or none. */
static int setup_cache(struct fors_plugin *p)
{
	const char *cmd = p->cfg.ilp_lookup ? p->cfg.ilp_lookup :
			  FORS_BINDIR "/fors ilp lookup";

	if (!p->cfg.ilp_cache)
		return 0;
	p->ilp_argv = fors_cache_argv(cmd, p->cfg.ilp_cache);
	if (!p->ilp_argv)
		return FORS_ENOMEM;
	LOG(p, OSM_LOG_INFO, "ILP cache %s for complex scenarios: lookup %s, at most %u ms\n",
	    p->cfg.ilp_cache, cmd, p->cfg.ilp_timeout_ms);
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
	p->cables = fors_cables_new();
	if (!p->cables || load_config(p) || resolve_paths(p) ||
	    setup_cache(p)) {
		LOG(p, OSM_LOG_ERROR, "out of memory\n");
		fors_plugin_free(p);
		return NULL;
	}
	if (p->cfg.reference_topology)
		load_topology(p, "reference_topology", p->cfg.reference_topology,
			      &p->ref);
	load_state(p);
	load_generation(p);
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
	fors_cables_free(p->cables);
	fors_config_free(&p->cfg);
	if (p->ilp_argv)
		free(p->ilp_argv[0]);
	free(p->ilp_argv);
	free(p->schedule_path);
	free(p->rejected_path);
	fors_topology_free(p->ref);
	fors_topology_free(p->seen);
	free(p);
}
