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

#include "fabric/holddown.h"

static const char *const state_name[] = { "up", "down", "held" };

const char *fors_cable_state_name(enum fors_cable_state s)
{
	return state_name[s];
}

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

int fors_cable_cmp_end(const char *a, uint32_t pa, const char *b, uint32_t pb)
{
	int c = strcmp(a, b);

	return c ? c : (pa > pb) - (pa < pb);
}

static int cmp_key(const struct fors_cable *x, const char *const id[2],
		   const uint32_t port[2])
{
	int c = fors_cable_cmp_end(x->id[0], x->port[0], id[0], port[0]);

	return c ? c : fors_cable_cmp_end(x->id[1], x->port[1], id[1], port[1]);
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
	swap = fors_cable_cmp_end(t->nodes[x].id, k, y->id, p->peer_port) > 0;
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

int fors_cable_notable(const struct fors_cable *c)
{
	return c->state != FORS_CABLE_UP || c->flaps;
}

struct fors_cable *fors_cables_add(struct fors_cables *cs,
				   const char *const id[2],
				   const uint32_t port[2], int *dup)
{
	int found;
	size_t at = locate(cs, id, port, &found);

	*dup = found;
	return found ? NULL : insert(cs, at, id, port);
}
