// SPDX-License-Identifier: MIT
/*
 * The plugin's state file (fors.conf's state_file): every cable worth
 * remembering, then the remembered fabric as topology text, so a restarted
 * subnet manager keeps its hold-downs and its healthy fabric.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "formats/ibnetdiscover.h"
#include "formats/io.h"
#include "formats/statefile.h"
#include "sys/atomic.h"

int fors_state_write(FILE *out, const struct fors_cables *cs,
		     const struct fors_topology *seen)
{
	size_t i;

	fprintf(out, "fors-state 1\nwritten %" PRId64 "\nholddown %u\n",
		cs->written, cs->holddown);
	for (i = 0; i < cs->n; i++) {
		const struct fors_cable *c = &cs->c[i];

		if (fors_cable_notable(c))
			fprintf(out, "cable \"%s\" %u \"%s\" %u %s down %" PRId64 " up %" PRId64 " flaps %u\n",
				c->id[0], c->port[0], c->id[1], c->port[1],
				fors_cable_state_name(c->state), c->down_since,
				c->up_since, c->flaps);
	}
	if (seen) {
		fputs("topology\n", out);
		return fors_topology_write(out, seen);
	}
	return ferror(out) ? FORS_EIO : FORS_OK;
}

struct state_out {
	const struct fors_cables *cs;
	const struct fors_topology *seen;
};

static int write_cb(FILE *out, const void *arg)
{
	const struct state_out *w = arg;

	return fors_state_write(out, w->cs, w->seen);
}

int fors_state_write_file(const char *path, const struct fors_cables *cs,
			  const struct fors_topology *seen,
			  struct fors_error *err)
{
	struct state_out w = { cs, seen };

	return fors_write_atomic(path, write_cb, &w, err);
}

struct state_reader {
	const char *name;
	unsigned long lineno;
	struct fors_cables *cs;
	struct fors_error *err;
};

static int bad(struct state_reader *r, const char *what)
{
	fors_error_set(r->err, "%s:%lu: %s", r->name, r->lineno, what);
	return FORS_EFORMAT;
}

/* "ID" at *s: a quoted node id without quotes inside. */
static char *quoted(const char **s)
{
	const char *e;
	char *id;

	if (**s != '"')
		return NULL;
	e = strchr(*s + 1, '"');
	if (!e || e == *s + 1)
		return NULL;
	id = strndup(*s + 1, (size_t)(e - *s - 1));
	*s = e + 1;
	return id;
}

/* " WORD N" at *s, N below max. */
static int field(const char **s, const char *word, uint64_t max, uint64_t *v)
{
	size_t n = strlen(word);

	if (**s != ' ' || strncmp(*s + 1, word, n) || (*s)[n + 1] != ' ')
		return -1;
	*s += n + 2;
	return parse_u64(s, 10, v) || *v > max ? -1 : 0;
}

static int state_of(const char **s)
{
	int i;

	for (i = 0; i < 3; i++) {
		const char *name = fors_cable_state_name(i);
		size_t n = strlen(name);

		if (**s == ' ' && !strncmp(*s + 1, name, n) &&
		    ((*s)[n + 1] == ' ' || !(*s)[n + 1])) {
			*s += n + 1;
			return i;
		}
	}
	return -1;
}

/* "ID" PORT "ID" PORT: the two ends, in order; 0 or a message. */
static const char *cable_ends(const char **s, char *id[2], uint32_t port[2])
{
	uint64_t v;
	int i;

	for (i = 0; i < 2; i++) {
		if (*(*s)++ != ' ' || !(id[i] = quoted(s)))
			return "expected 'cable \"ID\" PORT \"ID\" PORT ...'";
		if (*(*s)++ != ' ' || parse_u64(s, 10, &v) || v < 1 || v > 254)
			return "expected a port 1..254 after a cable end";
		port[i] = (uint32_t)v;
	}
	if (fors_cable_cmp_end(id[0], port[0], id[1], port[1]) >= 0)
		return "cable ends out of order";
	return NULL;
}

static int cable_line(struct state_reader *r, const char *s)
{
	char *id[2] = { NULL, NULL };
	uint32_t port[2];
	uint64_t down, up, flaps;
	const char *what = cable_ends(&s, id, port);
	struct fors_cable *c = NULL;
	int st = -1, dup = 0;

	if (!what && ((st = state_of(&s)) < 0 ||
		      field(&s, "down", INT64_MAX, &down) ||
		      field(&s, "up", INT64_MAX, &up) ||
		      field(&s, "flaps", UINT32_MAX, &flaps) || *s))
		what = "expected up, down or held, then 'down T up T flaps N'";
	if (!what)
		c = fors_cables_add(r->cs, (const char *const *)id, port, &dup);
	if (!what && dup)
		what = "the same cable twice";
	free(id[0]);
	free(id[1]);
	if (what)
		return bad(r, what);
	if (!c)
		return FORS_ENOMEM;
	c->state = (enum fors_cable_state)st;
	c->down_since = (int64_t)down;
	c->up_since = (int64_t)up;
	c->flaps = (uint32_t)flaps;
	return 0;
}

/* "KEY N" with N at most max; 1 when the line is not KEY's. */
static int number_line(struct state_reader *r, const char *s, const char *key,
		       uint64_t max, uint64_t *v)
{
	size_t n = strlen(key);

	if (strncmp(s, key, n) || s[n] != ' ')
		return 1;
	s += n + 1;
	if (parse_u64(&s, 10, v) || *v > max || *s) {
		fors_error_set(r->err, "%s:%lu: expected '%s' and a number up to %" PRIu64,
			       r->name, r->lineno, key, max);
		return FORS_EFORMAT;
	}
	return 0;
}

static int state_line(struct state_reader *r, const char *s)
{
	uint64_t v;
	int e;

	if (!strncmp(s, "cable ", 6))
		return cable_line(r, s + 5);
	e = number_line(r, s, "written", INT64_MAX, &v);
	if (!e)
		r->cs->written = (int64_t)v;
	if (e != 1)
		return e;
	e = number_line(r, s, "holddown", UINT32_MAX, &v);
	if (!e)
		r->cs->holddown = (uint32_t)v;
	if (e != 1)
		return e;
	return bad(r, "expected 'written', 'holddown', 'cable' or 'topology'");
}

/* The cables up to the "topology" line, then the remembered fabric. */
static int read_state(FILE *in, const char *name, struct fors_cables *cs,
		      struct fors_topology **seen, struct fors_error *err)
{
	struct state_reader r = { name, 0, cs, err };
	char *buf = NULL, part[512];
	size_t cap = 0;
	int e = 0, topo = 0;

	while (!e && !topo && getline(&buf, &cap, in) >= 0) {
		r.lineno++;
		buf[strcspn(buf, "\r\n")] = '\0';
		if (r.lineno == 1)
			e = strcmp(buf, "fors-state 1") ?
			    bad(&r, "expected 'fors-state 1'") : 0;
		else if (!strcmp(buf, "topology"))
			topo = 1;
		else
			e = state_line(&r, buf);
	}
	free(buf);
	if (!e && topo) {
		snprintf(part, sizeof(part), "%s, topology after line %lu",
			 name, r.lineno);
		e = fors_topology_read(in, part, seen, err);
	}
	if (e == FORS_ENOMEM)
		fors_error_set(err, "%s: out of memory", name);
	return e;
}

static int first_line_is(FILE *in, const char *want)
{
	char buf[32];
	int r = fgets(buf, sizeof(buf), in) && !strncmp(buf, want, strlen(want));

	rewind(in);
	return r;
}

struct state_parts {
	struct fors_cables **cs;
	struct fors_topology **seen;
};

static int read_cb(FILE *in, const char *name, void *out,
		   struct fors_error *err)
{
	struct state_parts *d = out;

	*d->cs = fors_cables_new();
	if (!*d->cs) {
		fors_error_set(err, "%s: out of memory", name);
		return FORS_ENOMEM;
	}
	if (!first_line_is(in, "fors-state "))
		return fors_topology_read(in, name, d->seen, err);
	return read_state(in, name, *d->cs, d->seen, err);
}

int fors_state_read_file(const char *path, struct fors_cables **cs,
			 struct fors_topology **seen, struct fors_error *err)
{
	struct state_parts d = { cs, seen };
	int e;

	*cs = NULL;
	*seen = NULL;
	e = read_path(path, read_cb, &d, err);
	if (e) {
		fors_cables_free(*cs);
		fors_topology_free(*seen);
		*cs = NULL;
		*seen = NULL;
	}
	return e;
}
