// SPDX-License-Identifier: MIT
/*
 * Hold-down for flapping cables. 70% of the LHCb network's link failures
 * are flaps, one link failed over 200 times in a day (the LHCb failure
 * study, Section 4), and every reroute costs the fabric a new schedule: a
 * cable that comes back is held, carrying no data, until it has stayed up
 * for the hold-down, so a flapping cable changes the routing twice.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "sys/atomic.h"
#include "fabric/holddown.h"
#include "formats/io.h"

static const char *const state_name[] = { "up", "down", "held" };

struct fors_cables *fors_cables_new(void)
{
	return calloc(1, sizeof(struct fors_cables));
}

void fors_cables_free(struct fors_cables *cs)
{
	size_t i;

	if (!cs)
		return;
	for (i = 0; i < cs->n; i++) {
		free(cs->c[i].id[0]);
		free(cs->c[i].id[1]);
	}
	free(cs->c);
	free(cs);
}

static int cmp_end(const char *a, uint32_t pa, const char *b, uint32_t pb)
{
	int c = strcmp(a, b);

	return c ? c : (pa > pb) - (pa < pb);
}

static int cmp_key(const struct fors_cable *x, const char *const id[2],
		   const uint32_t port[2])
{
	int c = cmp_end(x->id[0], x->port[0], id[0], port[0]);

	return c ? c : cmp_end(x->id[1], x->port[1], id[1], port[1]);
}

/* Where the cable is, or where it goes: *found tells which. */
static size_t locate(const struct fors_cables *cs, const char *const id[2],
		     const uint32_t port[2], int *found)
{
	size_t lo = 0, hi = cs->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = cmp_key(&cs->c[mid], id, port);

		if (!c) {
			*found = 1;
			return mid;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = 0;
	return lo;
}

static struct fors_cable *insert(struct fors_cables *cs, size_t at,
				 const char *const id[2], const uint32_t port[2])
{
	struct fors_cable *c;

	if (cs->n == cs->cap) {
		size_t cap = cs->cap ? 2 * cs->cap : 64;

		c = realloc(cs->c, sizeof(*c) * cap);
		if (!c)
			return NULL;
		cs->c = c;
		cs->cap = cap;
	}
	c = &cs->c[at];
	memmove(c + 1, c, sizeof(*c) * (cs->n - at));
	memset(c, 0, sizeof(*c));
	c->id[0] = strdup(id[0]);
	c->id[1] = strdup(id[1]);
	c->port[0] = port[0];
	c->port[1] = port[1];
	cs->n++;
	if (c->id[0] && c->id[1])
		return c;
	free(c->id[0]);
	free(c->id[1]);
	cs->n--;
	memmove(c, c + 1, sizeof(*c) * (cs->n - at));
	return NULL;
}

/* The cable behind port k of switch x, ends in order; 0 if none. */
static int ends(const struct fors_topology *t, uint32_t x, uint32_t k,
		const char *id[2], uint32_t port[2])
{
	const struct fors_port *p = &t->nodes[x].ports[k];
	const struct fors_node *y;
	int swap;

	if (p->peer == FORS_NO_PEER || t->nodes[x].type != FORS_SWITCH)
		return 0;
	y = &t->nodes[p->peer];
	if (y->type != FORS_SWITCH)
		return 0;
	swap = cmp_end(t->nodes[x].id, k, y->id, p->peer_port) > 0;
	id[swap] = t->nodes[x].id;
	port[swap] = k;
	id[!swap] = y->id;
	port[!swap] = p->peer_port;
	return 1;
}

/* Every cable of t in cs; a new one starts up, never down. */
static int ensure(struct fors_cables *cs, const struct fors_topology *t)
{
	uint32_t x, k;

	for (x = 0; t && x < t->nnodes; x++) {
		for (k = 1; k <= t->nodes[x].nports; k++) {
			const char *id[2];
			uint32_t port[2];
			size_t at;
			int found;

			if (!ends(t, x, k, id, port) || id[0] != t->nodes[x].id)
				continue;
			at = locate(cs, id, port, &found);
			if (!found && !insert(cs, at, id, port))
				return FORS_ENOMEM;
		}
	}
	return 0;
}

static struct fors_cable *find(const struct fors_cables *cs,
			       const struct fors_topology *t, uint32_t x,
			       uint32_t k)
{
	const char *id[2];
	uint32_t port[2];
	size_t at;
	int found;

	if (!ends(t, x, k, id, port) || id[0] != t->nodes[x].id)
		return NULL;
	at = locate(cs, id, port, &found);
	return found ? &cs->c[at] : NULL;
}

static void came_back(struct fors_cable *c, int64_t now, uint32_t holddown)
{
	if (c->state == FORS_CABLE_DOWN) {
		c->state = holddown ? FORS_CABLE_HELD : FORS_CABLE_UP;
		c->up_since = now;
	} else if (c->state == FORS_CABLE_HELD &&
		   now - c->up_since >= (int64_t)holddown) {
		c->state = FORS_CABLE_UP;
	}
}

static void went_down(struct fors_cable *c, int64_t now)
{
	if (c->state == FORS_CABLE_DOWN)
		return;
	c->state = FORS_CABLE_DOWN;
	c->down_since = now;
	c->flaps++;
}

/* Every cable of live: back, held, or up; held ports flagged. */
static void sweep_live(struct fors_cables *cs, struct fors_topology *live,
		       uint8_t *seen, int64_t now, uint32_t holddown,
		       int64_t *wake)
{
	uint32_t x, k;

	for (x = 0; x < live->nnodes; x++) {
		for (k = 1; k <= live->nodes[x].nports; k++) {
			struct fors_port *p = &live->nodes[x].ports[k];
			struct fors_cable *c = find(cs, live, x, k);

			if (!c)
				continue;
			came_back(c, now, holddown);
			seen[c - cs->c] = 1;
			if (c->state != FORS_CABLE_HELD)
				continue;
			p->held = 1;
			live->nodes[p->peer].ports[p->peer_port].held = 1;
			if (!*wake || c->up_since + (int64_t)holddown < *wake)
				*wake = c->up_since + (int64_t)holddown;
		}
	}
}

int fors_cables_update(struct fors_cables *cs,
		       const struct fors_topology *expected,
		       struct fors_topology *live, int64_t now,
		       uint32_t holddown, int64_t *wake,
		       struct fors_error *err)
{
	uint8_t *seen = NULL;
	uint32_t x, k;
	int r;

	*wake = 0;
	cs->holddown = holddown;
	for (x = 0; x < live->nnodes; x++)
		for (k = 0; k <= live->nodes[x].nports; k++)
			live->nodes[x].ports[k].held = 0;
	r = ensure(cs, live);
	if (!r)
		r = ensure(cs, expected);
	if (!r) {
		seen = calloc(cs->n + 1, 1);
		r = seen ? 0 : FORS_ENOMEM;
	}
	if (r) {
		fors_error_set(err, "out of memory while tracking cables");
		return r;
	}
	sweep_live(cs, live, seen, now, holddown, wake);
	for (x = 0; expected && x < expected->nnodes; x++) {
		for (k = 1; k <= expected->nodes[x].nports; k++) {
			struct fors_cable *c = find(cs, expected, x, k);

			if (c && !seen[c - cs->c])
				went_down(c, now);
		}
	}
	free(seen);
	return 0;
}

uint32_t fors_cables_release(struct fors_cables *cs, struct fors_topology *live)
{
	uint32_t x, k, n = 0;
	size_t i;

	for (i = 0; i < cs->n; i++) {
		n += cs->c[i].state == FORS_CABLE_HELD;
		if (cs->c[i].state == FORS_CABLE_HELD)
			cs->c[i].state = FORS_CABLE_UP;
	}
	for (x = 0; x < live->nnodes; x++)
		for (k = 0; k <= live->nodes[x].nports; k++)
			live->nodes[x].ports[k].held = 0;
	return n;
}

void fors_cables_count(const struct fors_cables *cs, uint32_t *down,
		       uint32_t *held)
{
	size_t i;

	if (down)
		*down = 0;
	if (held)
		*held = 0;
	for (i = 0; i < cs->n; i++) {
		if (down && cs->c[i].state == FORS_CABLE_DOWN)
			(*down)++;
		if (held && cs->c[i].state == FORS_CABLE_HELD)
			(*held)++;
	}
}

static int worth_keeping(const struct fors_cable *c)
{
	return c->state != FORS_CABLE_UP || c->flaps;
}

int fors_state_write(FILE *out, const struct fors_cables *cs,
		     const struct fors_topology *seen)
{
	size_t i;

	fprintf(out, "fors-state 1\nwritten %" PRId64 "\nholddown %u\n",
		cs->written, cs->holddown);
	for (i = 0; i < cs->n; i++) {
		const struct fors_cable *c = &cs->c[i];

		if (worth_keeping(c))
			fprintf(out, "cable \"%s\" %u \"%s\" %u %s down %" PRId64 " up %" PRId64 " flaps %u\n",
				c->id[0], c->port[0], c->id[1], c->port[1],
				state_name[c->state], c->down_since,
				c->up_since, c->flaps);
	}
	if (seen) {
		fputs("topology\n", out);
		return fors_topology_write(out, seen);
	}
	return ferror(out) ? FORS_EIO : FORS_OK;
}

struct sw {
	const struct fors_cables *cs;
	const struct fors_topology *seen;
};

static int write_cb(FILE *out, const void *arg)
{
	const struct sw *w = arg;

	return fors_state_write(out, w->cs, w->seen);
}

int fors_state_write_file(const char *path, const struct fors_cables *cs,
			  const struct fors_topology *seen,
			  struct fors_error *err)
{
	struct sw w = { cs, seen };

	return fors_write_atomic(path, write_cb, &w, err);
}

struct sr {
	const char *name;
	unsigned long lineno;
	struct fors_cables *cs;
	struct fors_error *err;
};

static int bad(struct sr *r, const char *what)
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
		size_t n = strlen(state_name[i]);

		if (**s == ' ' && !strncmp(*s + 1, state_name[i], n) &&
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
	if (cmp_end(id[0], port[0], id[1], port[1]) >= 0)
		return "cable ends out of order";
	return NULL;
}

static int cable_line(struct sr *r, const char *s)
{
	char *id[2] = { NULL, NULL };
	uint32_t port[2];
	uint64_t down, up, flaps;
	const char *what = cable_ends(&s, id, port);
	struct fors_cable *c = NULL;
	int st = -1, found = 0;
	size_t at = 0;

	if (!what && ((st = state_of(&s)) < 0 ||
		      field(&s, "down", INT64_MAX, &down) ||
		      field(&s, "up", INT64_MAX, &up) ||
		      field(&s, "flaps", UINT32_MAX, &flaps) || *s))
		what = "expected up, down or held, then 'down T up T flaps N'";
	if (!what)
		at = locate(r->cs, (const char *const *)id, port, &found);
	if (!what && found)
		what = "the same cable twice";
	if (!what)
		c = insert(r->cs, at, (const char *const *)id, port);
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
static int number_line(struct sr *r, const char *s, const char *key,
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

static int state_line(struct sr *r, const char *s)
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
	struct sr r = { name, 0, cs, err };
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

struct rd {
	struct fors_cables **cs;
	struct fors_topology **seen;
};

static int read_cb(FILE *in, const char *name, void *out,
		   struct fors_error *err)
{
	struct rd *d = out;

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
	struct rd d = { cs, seen };
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

static const char *name_of(const struct fors_topology *t, const char *id)
{
	uint32_t i;

	for (i = 0; t && i < t->nnodes; i++)
		if (!strcmp(t->nodes[i].id, id))
			return t->nodes[i].desc;
	return id;
}

static void when(FILE *out, const char *what, int64_t t, int64_t now)
{
	if (t)
		fprintf(out, ", %s %" PRId64 " s ago", what, now - t);
}

void fors_cables_print(FILE *out, const struct fors_cables *cs,
		       const struct fors_topology *seen, int64_t now)
{
	size_t i;

	for (i = 0; i < cs->n; i++) {
		const struct fors_cable *c = &cs->c[i];

		if (!worth_keeping(c))
			continue;
		fprintf(out, "\"%s\"[%u] - \"%s\"[%u]: %s", name_of(seen, c->id[0]),
			c->port[0], name_of(seen, c->id[1]), c->port[1],
			state_name[c->state]);
		if (c->state == FORS_CABLE_HELD)
			fprintf(out, " (carries data again in %" PRId64 " s)",
				c->up_since + (int64_t)cs->holddown - now);
		when(out, "went down", c->down_since, now);
		when(out, "came back", c->up_since, now);
		fprintf(out, ", %u flap%s\n", c->flaps, c->flaps == 1 ? "" : "s");
	}
}
