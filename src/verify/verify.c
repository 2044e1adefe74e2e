// SPDX-License-Identifier: MIT
#include <stdlib.h>
#include <string.h>

#include "verify/verify.h"
#include "schedule/cyclic.h"
#include "schedule/inter.h"

struct verifier {
	const struct fors_schedule *s;
	uint32_t hosts;
	uint8_t *present;	/* [FORS_MAX_HOSTS]: 0 past hosts */
	uint32_t *leaf;		/* [hosts]: host / m0, looked up */
	int64_t *lid;		/* [hosts]: base LID, -1 unknown */
	int64_t span;		/* LIDs a host has: 2^LMC */
	uint8_t *seen;		/* a bit per (source, destination): done;
				   bits, so 2,048 hosts' fit a cache */
	uint32_t *sent;		/* [hosts]: phase + 1 of last send */
	uint32_t *recv;		/* [hosts]: phase + 1 of last receive */
	uint32_t *lout, *lin;	/* [m1]: inter-leaf senders, receivers */
	int cyclic;		/* the cyclic pattern, not Algorithm 1's */
	uint32_t leave;		/* most senders out of a leaf per phase:
				   m0 - f (Algorithm 1), or the planes */
	uint32_t detour_from;	/* the first detour phase (key detour) */
	struct fors_error *err;
};

static int fail(struct verifier *c, const char *what, uint32_t p,
		const struct fors_xfer *x)
{
	fors_error_set(c->err, "phase %u, transfer %u -> %u: %s", p, x->src,
		       x->dst, what);
	return FORS_EVERIFY;
}

/* Transfer x's plane and DLID; local: both hosts on one leaf. */
static int check_route(struct verifier *c, uint32_t p,
		       const struct fors_xfer *x, int local)
{
	const struct fors_schedule *s = c->s;
	int32_t pl = fors_xfer_plane(x);
	int64_t lo = c->lid[x->dst];

	if (pl >= (int32_t)s->q)
		return fail(c, "plane out of range", p, x);
	if (s->lmc < 0)
		return x->dlid != FORS_NO_DLID ? fail(c, "DLID in an abstract schedule",
					   p, x) : FORS_OK;
	if (local != (pl < 0))
		return fail(c, local ? "plane given inside a leaf" :
			    "no plane between leaves", p, x);
	if (lo >= 0 && (x->dlid < lo || x->dlid >= lo + c->span))
		return fail(c, "DLID outside the destination's LID range",
			    p, x);
	return FORS_OK;
}

/* The leaf rule a phase breaks: Algorithm 1's m0 - f, or the planes. */
static const char *leaf_rule(const struct verifier *c, int out)
{
	static const char *const rule[2][2] = {
		{ "more than m0 - f receivers enter the leaf",
		  "more than m0 - f senders leave the leaf" },
		{ "more receivers enter the leaf than it has planes",
		  "more senders leave the leaf than it has planes" },
	};

	return rule[c->cyclic][out];
}

/* Senders a leaf may have leave it in phase p: its planes in a detour's. */
static uint32_t leave(const struct verifier *c, uint32_t p)
{
	return p >= c->detour_from ? c->s->q : c->leave;
}

/* Whether the pair numbered pair (source * hosts + destination) is done. */
static int pair_done(const struct verifier *c, size_t pair)
{
	return c->seen[pair / 8] >> (pair % 8) & 1;
}

/* Why transfer x's hosts are no pair: out of range, one, or absent. */
static int bad_hosts(struct verifier *c, uint32_t p, const struct fors_xfer *x)
{
	if (x->src >= c->hosts || x->dst >= c->hosts)
		return fail(c, "host id out of range", p, x);
	return fail(c, x->src == x->dst ? "a host sends to itself" :
		    "host not present", p, x);
}

/*
 * Transfer x of phase p, at most lim senders out of and into a leaf; its
 * hosts' flags (present, 0 past the hosts) answer range and presence at
 * once.
 */
static int check_xfer(struct verifier *c, uint32_t p, uint32_t lim,
		      const struct fors_xfer *x)
{
	uint32_t a = x->src, b = x->dst, ls, ld;
	size_t pair;

	if (!c->present[a] || !c->present[b] || a == b)
		return bad_hosts(c, p, x);
	pair = (size_t)a * c->hosts + b;
	if (pair_done(c, pair))
		return fail(c, "pair scheduled twice", p, x);
	c->seen[pair / 8] |= (uint8_t)(1u << (pair % 8));
	if (c->sent[a] == p + 1)
		return fail(c, "source sends twice in the phase", p, x);
	if (c->recv[b] == p + 1)
		return fail(c, "destination receives twice in the phase", p, x);
	c->sent[a] = p + 1;
	c->recv[b] = p + 1;
	ls = c->leaf[a];
	ld = c->leaf[b];
	if (ls != ld) {
		if (++c->lout[ls] > lim)
			return fail(c, leaf_rule(c, 1), p, x);
		if (++c->lin[ld] > lim)
			return fail(c, leaf_rule(c, 0), p, x);
	}
	return check_route(c, p, x, ls == ld);
}

static int check_phases(struct verifier *c)
{
	const struct fors_schedule *s = c->s;
	uint32_t p, lim;
	size_t i;
	int r;

	for (p = 0; p < s->nphases; p++) {
		memset(c->lout, 0, sizeof(uint32_t) * s->m1);
		memset(c->lin, 0, sizeof(uint32_t) * s->m1);
		lim = leave(c, p);
		for (i = s->start[p]; i < s->start[p + 1]; i++) {
			r = check_xfer(c, p, lim, &s->xfers[i]);
			if (r)
				return r;
		}
	}
	return FORS_OK;
}

/*
 * Every ordered pair of present hosts once. check_phases let each transfer
 * add a new such pair, so the count decides; the pairs are searched only
 * to name a missing one.
 */
static int check_coverage(struct verifier *c)
{
	uint32_t a, b, n = 0;
	size_t pair;

	for (a = 0; a < c->hosts; a++)
		n += c->present[a];
	if (c->s->start[c->s->nphases] - c->s->start[0] ==
	    (size_t)n * (n - 1))
		return n == c->hosts ? FORS_OK : 1;
	for (a = 0; a < c->hosts; a++) {
		for (b = 0; b < c->hosts; b++) {
			pair = (size_t)a * c->hosts + b;
			if (a == b || !c->present[a] || !c->present[b] ||
			    pair_done(c, pair))
				continue;
			fors_error_set(c->err, "transfer %u -> %u is missing",
				       a, b);
			return FORS_EVERIFY;
		}
	}
	return n == c->hosts ? FORS_OK : 1;
}

/* A number key the router declared (`split N`, `bound T`), 0 if none. */
static uint32_t declared(const struct fors_schedule *s, const char *key)
{
	int64_t v = fors_schedule_number(s, key);

	return v > 0 ? (uint32_t)v : 0;
}

/*
 * Guarantee 4: P_f phases plus the declared split where the theorem
 * applies; a cyclic schedule at a bound above P_f (the fabric cannot carry
 * P_f phases, however scheduled) may have as many as that bound says,
 * which fors check proves from the cables (guarantee 5), or as the bound
 * of the cables it may use says (`usable`: cables held out of use).
 * Phases added for detours are declared in split (routing/detour.h).
 */
static int check_count(struct verifier *c, int all_present)
{
	const struct fors_schedule *s = c->s;
	uint32_t pf = fors_pf(s->m0, s->m1, s->f), split = declared(s, "split");
	uint32_t bound = c->cyclic ? declared(s, "bound") : 0;
	uint32_t usable = c->cyclic ? declared(s, "usable") : 0;

	bound = usable > bound ? usable : bound;

	if (all_present && s->f > s->m0 / s->m1 &&
	    s->nphases > (bound > pf ? bound : pf) + split) {
		fors_error_set(c->err, "%u phases where the %s is %u%s",
			       s->nphases, bound > pf ? "bound" : "optimum P_f",
			       bound > pf ? bound : pf,
			       split ? " plus the declared split" : "");
		return FORS_EVERIFY;
	}
	return FORS_OK;
}

/* The "absent" key (fors_schedule_add_absent): slots without a host. */
static int absent(struct verifier *c)
{
	const struct fors_schedule *s = c->s;
	const char *v = NULL, *p;
	char *end;
	size_t i;

	for (i = 0; i < s->nextra; i++)
		if (!strcmp(s->extra[i].key, "absent"))
			v = s->extra[i].value;
	for (p = v; p; p = *end ? end + 1 : NULL) {
		unsigned long h = *p >= '0' && *p <= '9' ?
				  strtoul(p, &end, 10) : c->hosts;

		if (h >= c->hosts || (*end && *end != ',')) {
			fors_error_set(c->err, "key absent: '%s' is not a list of host ids below %u",
				       v, c->hosts);
			return FORS_EVERIFY;
		}
		if (s->nhosts && c->present[h]) {
			fors_error_set(c->err, "host %lu has a host line but is listed absent", h);
			return FORS_EVERIFY;
		}
		c->present[h] = 0;
	}
	return FORS_OK;
}

/* The "detour" key: a number of the schedule's phases, if there. */
static int detour_key(const struct verifier *c)
{
	int64_t v = fors_schedule_number(c->s, "detour");

	if (v == -1 || (v >= 0 && v <= c->s->nphases))
		return FORS_OK;
	fors_error_set(c->err, "key detour: not a number of phases from 0 to %u",
		       c->s->nphases);
	return FORS_EVERIFY;
}

static int setup(struct verifier *c)
{
	const struct fors_schedule *s = c->s;
	size_t i;

	c->hosts = s->m0 * s->m1;
	c->detour_from = s->nphases - fors_schedule_detours(s);
	c->cyclic = fors_schedule_is_cyclic(s);
	c->leave = c->cyclic ? s->q : s->m0 - s->f;
	c->span = s->lmc >= 0 && s->lmc < 16 ? 1 << s->lmc : 0;
	c->present = calloc(FORS_MAX_HOSTS, 1);
	c->leaf = malloc(sizeof(uint32_t) * c->hosts);
	c->lid = malloc(sizeof(int64_t) * c->hosts);
	c->seen = calloc((size_t)c->hosts * c->hosts / 8 + 1, 1);
	c->sent = calloc(c->hosts, sizeof(uint32_t));
	c->recv = calloc(c->hosts, sizeof(uint32_t));
	c->lout = calloc(s->m1, sizeof(uint32_t));
	c->lin = calloc(s->m1, sizeof(uint32_t));
	if (!c->present || !c->leaf || !c->lid || !c->seen || !c->sent || !c->recv ||
	    !c->lout || !c->lin)
		return FORS_ENOMEM;
	for (i = 0; i < c->hosts; i++) {
		c->present[i] = s->nhosts == 0;
		c->leaf[i] = (uint32_t)(i / s->m0);
		c->lid[i] = -1;
	}
	for (i = 0; i < s->nhosts; i++) {
		if (s->hosts[i].sid >= c->hosts) {
			fors_error_set(c->err, "host %u out of range",
				       s->hosts[i].sid);
			return FORS_EVERIFY;
		}
		c->present[s->hosts[i].sid] = 1;
		c->lid[s->hosts[i].sid] = s->hosts[i].lid;
	}
	return absent(c) ? FORS_EVERIFY : detour_key(c);
}

int fors_schedule_verify(const struct fors_schedule *s,
			 struct fors_error *err)
{
	struct verifier c = { .s = s, .err = err };
	int r;

	if (s->m0 < 1 || s->m1 < 1 || s->f >= s->m0 ||
	    (uint64_t)s->m0 * s->m1 > FORS_MAX_HOSTS) {
		fors_error_set(err, "bad fabric parameters");
		return FORS_EVERIFY;
	}
	r = setup(&c);
	if (r == FORS_ENOMEM)
		fors_error_set(err, "out of memory while verifying");
	if (!r)
		r = check_phases(&c);
	if (!r)
		r = check_coverage(&c);
	if (r >= 0)
		r = check_count(&c, r == 0);
	free(c.present);
	free(c.leaf);
	free(c.lid);
	free(c.seen);
	free(c.sent);
	free(c.recv);
	free(c.lout);
	free(c.lin);
	return r;
}

/*
 * Every inter-leaf transfer on a plane whose spine both leaves reach, and
 * no leaf's cable (fabric.h, fors_plane_cable) twice in a phase; a detour
 * phase's transfers pass two spines, which only the tables show.
 */
static int check_planes(const struct fors_fabric *fb,
			const struct fors_schedule *s, uint32_t *up,
			uint32_t *down, struct fors_error *err)
{
	uint32_t p, n = s->nphases - fors_schedule_detours(s);
	size_t i;

	for (p = 0; p < n; p++)
		for (i = s->start[p]; i < s->start[p + 1]; i++) {
			const struct fors_xfer *x = &s->xfers[i];
			uint32_t ls = x->src / fb->m0, ld = x->dst / fb->m0;
			uint32_t pl = (uint32_t)fors_xfer_plane(x);
			int32_t cu, cd;

			if (ls == ld)
				continue;
			cu = fors_plane_cable(fb, ls, pl);
			cd = fors_plane_cable(fb, ld, pl);
			if (cu < 0 || cd < 0) {
				fors_error_set(err, "phase %u: %u -> %u on plane %u, which is not alive at both leaves",
					       p, x->src, x->dst, pl);
				return FORS_EVERIFY;
			}
			if (up[ls * fb->q + (uint32_t)cu] == p + 1 ||
			    down[ld * fb->q + (uint32_t)cd] == p + 1) {
				fors_error_set(err, "phase %u: %u -> %u shares plane %u's cable with another transfer",
					       p, x->src, x->dst, pl);
				return FORS_EVERIFY;
			}
			up[ls * fb->q + (uint32_t)cu] = p + 1;
			down[ld * fb->q + (uint32_t)cd] = p + 1;
		}
	return 0;
}

int fors_schedule_fits(const struct fors_fabric *fb,
		       const struct fors_schedule *s, struct fors_error *err)
{
	struct fors_schedule v = *s;
	size_t cells = (size_t)fb->m1 * fb->q + 1;
	uint32_t *up, *down, i;
	int r;

	if (s->m0 != fb->m0 || s->m1 != fb->m1 || s->f != fb->f ||
	    s->q != fb->q) {
		fors_error_set(err, "the schedule is for another fabric (m0 %u m1 %u f %u planes %u, here %u %u %u %u)",
			       s->m0, s->m1, s->f, s->q, fb->m0, fb->m1, fb->f,
			       fb->q);
		return FORS_EVERIFY;
	}
	v.hosts = calloc(fb->nhosts + 1, sizeof(*v.hosts));
	up = calloc(cells, sizeof(uint32_t));
	down = calloc(cells, sizeof(uint32_t));
	r = v.hosts && up && down ? 0 : FORS_ENOMEM;
	if (r)
		fors_error_set(err, "out of memory while verifying");
	v.nhosts = fb->nhosts;
	for (i = 0; !r && i < fb->nhosts; i++) {
		v.hosts[i].sid = fb->hosts[i].sid;
		v.hosts[i].lid = fb->hosts[i].lid;
	}
	if (!r)
		r = fors_schedule_verify(&v, err);
	if (!r)
		r = check_planes(fb, s, up, down, err);
	free(v.hosts);
	free(up);
	free(down);
	return r;
}
