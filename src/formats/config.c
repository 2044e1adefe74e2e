// SPDX-License-Identifier: MIT
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "formats/config.h"
#include "base/error.h"

struct config_parser {
	const char *name;
	unsigned long lineno;
	struct fors_config *c;
	fors_config_note note;
	void *ctx;
};

__attribute__((format(printf, 3, 4)))
static void say(struct config_parser *p, int error, const char *fmt, ...)
{
	char msg[512];
	int n;
	va_list ap;

	n = snprintf(msg, sizeof(msg), "%s:%lu: ", p->name, p->lineno);
	if (n >= 0 && (size_t)n < sizeof(msg)) {	/* a long path fills it */
		va_start(ap, fmt);
		vsnprintf(msg + n, sizeof(msg) - n, fmt, ap);
		va_end(ap);
	}
	p->note(p->ctx, error, msg);
}

void fors_config_defaults(struct fors_config *c)
{
	memset(c, 0, sizeof(*c));
	c->verify = 1;
	c->link_holddown_s = FORS_HOLDDOWN;
	c->ilp_timeout_ms = FORS_ILP_TIMEOUT;
	c->stage_wait_ms = FORS_STAGE_WAIT;
}

void fors_config_free(struct fors_config *c)
{
	free(c->schedule_file);
	free(c->reference_topology);
	free(c->state_file);
	free(c->ilp_cache);
	free(c->ilp_lookup);
	free(c->ilp_cache_user);
	free(c->participants);
	fors_config_defaults(c);
}

/* *dst becomes a copy of v. */
static int text(const char *v, char **dst)
{
	char *s = strdup(v);

	if (!s)
		return FORS_ENOMEM;
	free(*dst);
	*dst = s;
	return 0;
}

static int path_key(struct config_parser *p, const char *key, const char *v,
		    char **dst)
{
	if (v[0] != '/') {
		say(p, 1, "%s: expected an absolute path, got '%s'; using the default",
		    key, v);
		return 0;
	}
	return text(v, dst);
}

/* A login name or uid: letters, digits, '.', '_' and '-', not a '-' first. */
static int user_key(struct config_parser *p, const char *key, const char *v,
		    char **dst)
{
	size_t n = strspn(v, "abcdefghijklmnopqrstuvwxyz"
			     "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-");

	if (v[n] || v[0] == '-' || n > 32) {
		say(p, 1, "%s: expected a user name, got '%s'; using the default",
		    key, v);
		return 0;
	}
	return text(v, dst);
}

static int bool_key(struct config_parser *p, const char *key, const char *v,
		    int *dst)
{
	if (!strcasecmp(v, "TRUE") || !strcasecmp(v, "yes"))
		*dst = 1;
	else if (!strcasecmp(v, "FALSE") || !strcasecmp(v, "no"))
		*dst = 0;
	else
		say(p, 1, "%s: expected TRUE or FALSE, got '%s'; using the default",
		    key, v);
	return 0;
}

/* One of two words: no gives 0, yes 1. */
static int choice_key(struct config_parser *p, const char *key, const char *v,
		      const char *no, const char *yes, int *dst)
{
	if (!strcmp(v, no))
		*dst = 0;
	else if (!strcmp(v, yes))
		*dst = 1;
	else
		say(p, 1, "%s: expected %s or %s, got '%s'; using the default",
		    key, no, yes, v);
	return 0;
}

int fors_config_base_lids(const char *v, int *exchange_lids,
			  int *phases_first)
{
	if (strcmp(v, "everyone") && strcmp(v, "phases") &&
	    strcmp(v, "exchange"))
		return -1;
	*exchange_lids = !strcmp(v, "exchange");
	*phases_first = !strcmp(v, "phases");
	return 0;
}

/* base_lids everyone, phases or exchange. */
static int base_lids_key(struct config_parser *p, const char *key,
			 const char *v, struct fors_config *c)
{
	if (fors_config_base_lids(v, &c->exchange_lids, &c->phases_first))
		say(p, 1, "%s: expected everyone, phases or exchange, got '%s'; using the default",
		    key, v);
	return 0;
}

static int number_key(struct config_parser *p, const char *key, const char *v,
		      unsigned lo, unsigned hi, const char *unit, unsigned *dst)
{
	char *e;
	unsigned long n;

	errno = 0;
	n = isdigit((unsigned char)*v) ? strtoul(v, &e, 10) : 0;
	if (!isdigit((unsigned char)*v) || *e || errno || n < lo || n > hi)
		say(p, 1, "%s: expected %s %u..%u, got '%s'; using the default",
		    key, unit, lo, hi, v);
	else
		*dst = (unsigned)n;
	return 0;
}

static int pair(struct config_parser *p, const char *key, const char *v)
{
	struct fors_config *c = p->c;

	if (!*v) {
		say(p, 1, "%s: no value given; using the default", key);
		return 0;
	}
	if (!strcmp(key, "schedule_file"))
		return path_key(p, key, v, &c->schedule_file);
	if (!strcmp(key, "reference_topology"))
		return path_key(p, key, v, &c->reference_topology);
	if (!strcmp(key, "state_file"))
		return path_key(p, key, v, &c->state_file);
	if (!strcmp(key, "verify"))
		return bool_key(p, key, v, &c->verify);
	if (!strcmp(key, "link_holddown_s"))
		return number_key(p, key, v, 0, FORS_HOLDDOWN_MAX, "seconds",
				  &c->link_holddown_s);
	if (!strcmp(key, "ilp_cache"))
		return path_key(p, key, v, &c->ilp_cache);
	if (!strcmp(key, "ilp_lookup"))
		return path_key(p, key, v, &c->ilp_lookup);
	if (!strcmp(key, "ilp_cache_user"))
		return user_key(p, key, v, &c->ilp_cache_user);
	if (!strcmp(key, "participants"))
		return strcmp(v, "all") ? path_key(p, key, v, &c->participants) :
		       text(v, &c->participants);
	if (!strcmp(key, "spine_hosts"))
		return choice_key(p, key, v, "route", "refuse",
				  &c->refuse_spine_hosts);
	if (!strcmp(key, "base_lids"))
		return base_lids_key(p, key, v, c);
	if (!strcmp(key, "schedule_format"))
		return choice_key(p, key, v, "compact", "text",
				  &c->text_schedule);
	if (!strcmp(key, "ilp_timeout_ms"))
		return number_key(p, key, v, 1, FORS_ILP_TIMEOUT_MAX,
				  "milliseconds", &c->ilp_timeout_ms);
	if (!strcmp(key, "stage_wait_ms"))
		return number_key(p, key, v, 0, FORS_STAGE_WAIT_MAX,
				  "milliseconds", &c->stage_wait_ms);
	say(p, 0, "unknown key '%s' ignored", key);
	return 0;
}

/* Split "key value # comment" in place; trailing blanks dropped. */
static int line(struct config_parser *p, char *s)
{
	char *key, *v, *e;

	e = strchr(s, '#');
	if (e)
		*e = '\0';
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	while (isspace((unsigned char)*s))
		s++;
	if (!*s)
		return 0;
	key = s;
	while (*s && !isspace((unsigned char)*s))
		s++;
	if (*s)
		*s++ = '\0';
	v = s;
	while (isspace((unsigned char)*v))
		v++;
	return pair(p, key, v);
}

int fors_config_parse(FILE *in, const char *name, struct fors_config *c,
		      fors_config_note note, void *ctx)
{
	struct config_parser p = { name, 0, c, note, ctx };
	char *buf = NULL;
	size_t cap = 0;
	int e = 0;

	while (!e && getline(&buf, &cap, in) >= 0) {
		p.lineno++;
		e = line(&p, buf);
	}
	free(buf);
	if (!e && ferror(in)) {
		say(&p, 1, "read error");
		return FORS_EIO;
	}
	return e;
}

int fors_config_read(const char *path, struct fors_config *c,
		     fors_config_note note, void *ctx)
{
	FILE *in = fopen(path, "r");
	char msg[512];
	int e;

	if (!in) {
		snprintf(msg, sizeof(msg), "cannot open %s: %s", path,
			 strerror(errno));
		note(ctx, 1, msg);
		return FORS_EIO;
	}
	e = fors_config_parse(in, path, c, note, ctx);
	fclose(in);
	return e;
}
