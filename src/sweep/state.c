// SPDX-License-Identifier: MIT
/*
 * What the heavy sweeps know across each other and across restarts: the
 * reference or remembered healthy fabric, the cables' history and the
 * schedule generation to continue from.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "formats/ibnetdiscover.h"
#include "formats/schedfile.h"
#include "formats/statefile.h"
#include "sweep/publish.h"
#include "sweep/state.h"

void fors_sweep_say(const struct fors_sweep_state *st, int error,
		    const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	if (!st->log)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	st->log(st->log_ctx, error, msg);
}

/* A copy of s, or NULL for NULL; 1 when out of memory. */
static int dup_path(const char *s, const char **out)
{
	*out = s ? strdup(s) : NULL;
	return s && !*out;
}

static int copy_config(struct fors_sweep_config *c,
		       const struct fors_sweep_config *cfg)
{
	*c = *cfg;
	c->schedule_path = c->rejected_path = NULL;
	c->state_path = c->reference_path = NULL;
	return dup_path(cfg->schedule_path, &c->schedule_path) |
	       dup_path(cfg->rejected_path, &c->rejected_path) |
	       dup_path(cfg->state_path, &c->state_path) |
	       dup_path(cfg->reference_path, &c->reference_path);
}

static void load_reference(struct fors_sweep_state *st)
{
	struct fors_error err = { "" };
	const char *path = st->cfg.reference_path;

	if (path && fors_topology_read_file(path, &st->ref, &err)) {
		fors_sweep_say(st, 1, "reference_topology not used: %s", err.msg);
		st->ref = NULL;
	}
}

/* The cables' history and the remembered fabric; a bad file is dropped. */
static void load_state(struct fors_sweep_state *st)
{
	struct fors_error err = { "" };
	struct fors_cables *cs;

	if (!st->cfg.state_path || access(st->cfg.state_path, F_OK))
		return;
	if (fors_state_read_file(st->cfg.state_path, &cs, &st->seen, &err)) {
		fors_sweep_say(st, 1, "state_file not used, starting without it: %s",
			       err.msg);
		return;
	}
	fors_cables_free(st->cables);
	st->cables = cs;
}

/*
 * Generations keep growing across restarts: continue the existing file's,
 * and keep it when the first routing gives the same schedule again.
 */
static void load_generation(struct fors_sweep_state *st)
{
	struct fors_schedule *s;
	struct fors_error err;
	enum fors_sched_form form;
	size_t i;

	if (access(st->cfg.schedule_path, F_OK) ||
	    fors_schedule_read_file_form(st->cfg.schedule_path, &s, &form,
					 &err))
		return;
	st->form_ok = form == (st->cfg.text_schedule ? FORS_SCHED_TEXT :
			       FORS_SCHED_COMPACT);
	for (i = 0; i < s->nextra; i++)
		if (!strcmp(s->extra[i].key, "generation"))
			st->generation = strtoull(s->extra[i].value, NULL, 10);
		else if (!strcmp(s->extra[i].key, "bound"))
			st->bound = (uint32_t)strtoul(s->extra[i].value, NULL, 10);
	st->digest = fors_schedule_digest(s, "generation");
	st->have_digest = 1;
	fors_schedule_free(s);
}

int fors_sweep_state_open(const struct fors_sweep_config *cfg,
			  fors_sweep_log log, void *ctx,
			  struct fors_sweep_state **out)
{
	struct fors_sweep_state *st = calloc(1, sizeof(*st));

	*out = NULL;
	if (!st)
		return FORS_ENOMEM;
	st->log = log;
	st->log_ctx = ctx;
	st->cables = fors_cables_new();
	if (copy_config(&st->cfg, cfg) || !st->cables) {
		fors_sweep_state_free(st);
		return FORS_ENOMEM;
	}
	load_reference(st);
	load_state(st);
	load_generation(st);
	*out = st;
	return 0;
}

void fors_sweep_state_free(struct fors_sweep_state *st)
{
	if (!st)
		return;
	fors_sweep_flush(st);
	free((char *)st->cfg.schedule_path);
	free((char *)st->cfg.rejected_path);
	free((char *)st->cfg.state_path);
	free((char *)st->cfg.reference_path);
	fors_topology_free(st->ref);
	fors_topology_free(st->seen);
	fors_cables_free(st->cables);
	free(st);
}
