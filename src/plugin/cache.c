// SPDX-License-Identifier: MIT
/*
 * The ILP cache, consulted for complex scenarios (m > f): the lookup
 * command runs as a separate process with a time and an output limit, so a
 * slow, crashing or hostile cache costs a sweep at most ilp_timeout_ms and
 * never the subnet manager; what it answers is verified like any input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <opensm/osm_config.h>
#include <opensm/osm_log.h>

#include "ilp/lookup.h"
#include "fabric/scenario.h"
#include "formats/schedfile.h"
#include "sys/spawn.h"
#include "sys/trust.h"
#include "verify/verify.h"
#include "plugin/cache.h"
#include "plugin/setup.h"
#include "formats/scenfile.h"

#define LOG(p, lvl, ...) OSM_LOG(&(p)->osm->log, lvl, "fors: " __VA_ARGS__)

/* The routing of a complex scenario may run to megabytes; no more. */
#define LOOKUP_OUTPUT_MAX (64u << 20)

char **fors_cache_argv(const char *cmd, const char *dir, const char *user)
{
	size_t n = 6, i = 0;
	const char *s;
	char **argv, *copy = strdup(cmd + strspn(cmd, " \t")), *tok, *save = NULL;

	for (s = cmd; *s; s++)
		n += *s == ' ' || *s == '\t';
	argv = calloc(n, sizeof(char *));
	if (!copy || !argv) {
		free(copy);
		free(argv);
		return NULL;
	}
	for (tok = strtok_r(copy, " \t", &save); tok;
	     tok = strtok_r(NULL, " \t", &save))
		argv[i++] = tok;
	argv[i++] = "--cache";
	argv[i++] = (char *)dir;
	if (user) {
		argv[i++] = "--trust-user";
		argv[i] = (char *)user;
	}
	return argv;
}

/* OpenSSH's StrictModes for the directory the lookup will trust. */
static int unsafe(struct fors_plugin *p)
{
	struct fors_error err = { "" };
	int e = fors_trust_dir(p->cfg.ilp_cache, "the ILP cache", 0,
			       p->ilp_also, &err);

	if (e == FORS_EIO)
		LOG(p, OSM_LOG_ERROR, "%s: routing natively\n", err.msg);
	else if (e)
		LOG(p, OSM_LOG_ERROR, "ILP cache %s refused (%s): routing natively\n",
		    p->cfg.ilp_cache, err.msg);
	return e != 0;
}

static char *scenario_text(const struct fors_fabric *fb, size_t *len)
{
	struct fors_scenario *sc = fors_scenario_of(fb);
	char *text = NULL;
	FILE *out = sc ? open_memstream(&text, len) : NULL;
	int bad = !out;

	if (out) {
		bad = fors_scenario_write(out, sc);
		bad |= fclose(out);
	}
	fors_scenario_free(sc);
	if (bad) {
		free(text);
		return NULL;
	}
	return text;
}

/* Why the lookup did not route: its one line, or how it ended. */
static void why(struct fors_plugin *p, const struct fors_spawn_result *res)
{
	char how[128];
	int lvl = res->status == FORS_SPAWN_EXITED &&
		  res->code == FORS_ILP_EXIT_MISS ? OSM_LOG_INFO : OSM_LOG_ERROR;
	size_t n = res->out ? strcspn(res->out, "\n") : 0;

	fors_spawn_describe(res, how, sizeof(how));
	LOG(p, lvl, "ILP cache %s not used (%s%s%.*s): routing natively\n",
	    p->cfg.ilp_cache, how, n ? ": " : "", (int)(n > 300 ? 300 : n),
	    res->out ? res->out : "");
}

/* The lookup's own keys (method, split, absent) say nothing to the plugin. */
static void drop_keys(struct fors_schedule *s)
{
	size_t i;

	for (i = 0; i < s->nextra; i++) {
		free(s->extra[i].key);
		free(s->extra[i].value);
	}
	s->nextra = 0;
}

/* The lookup's schedule, if it is a valid routing of fb. */
static struct fors_schedule *answer(struct fors_plugin *p,
				    const struct fors_fabric *fb,
				    const struct fors_spawn_result *res)
{
	FILE *in = fmemopen(res->out, res->nout, "r");
	struct fors_schedule *s = NULL;
	struct fors_error err = { "" };

	if (!in) {
		LOG(p, OSM_LOG_ERROR, "out of memory reading the ILP cache's answer\n");
		return NULL;
	}
	if (!fors_schedule_read(in, "the lookup's answer", &s, &err) &&
	    !fors_schedule_fits(fb, s, &err)) {
		fclose(in);
		drop_keys(s);
		return s;
	}
	fclose(in);
	fors_schedule_free(s);
	LOG(p, OSM_LOG_ERROR, "ILP cache %s gave an invalid routing (%s): routing natively\n",
	    p->cfg.ilp_cache, err.msg);
	return NULL;
}

int fors_cache_planes(void *ctx, const struct fors_fabric *fb,
		      struct fors_schedule **out)
{
	struct fors_plugin *p = ctx;
	const struct fors_spawn_limits lim = { p->cfg.ilp_timeout_ms,
					       LOOKUP_OUTPUT_MAX };
	struct fors_spawn_result res = { 0 };
	struct fors_error err = { "" };
	struct fors_schedule *got = NULL;
	size_t len = 0;
	char *text;

	if (unsafe(p))
		return -1;
	text = scenario_text(fb, &len);
	if (!text || fors_spawn((const char *const *)p->ilp_argv, text, len,
				&lim, &res, &err)) {
		LOG(p, OSM_LOG_ERROR, "ILP cache lookup %s not run: %s: routing natively\n",
		    p->ilp_argv[0], text ? err.msg : "out of memory");
		free(text);
		return -1;
	}
	free(text);
	if (res.status == FORS_SPAWN_EXITED && res.code == 0)
		got = answer(p, fb, &res);
	else
		why(p, &res);
	free(res.out);
	if (!got)
		return -1;
	LOG(p, OSM_LOG_INFO, "routed from the ILP cache %s (lookup %u ms)\n",
	    p->cfg.ilp_cache, res.elapsed_ms);
	*out = got;
	return 0;
}
