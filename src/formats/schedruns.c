// SPDX-License-Identifier: MIT
/*
 * The compact schedule's runs: LEB128 numbers, signed ones zigzagged, per
 * source in sid order (doc/schedule-format.md, "Version 2").
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formats/schedruns.h"

#define NO_OFF INT64_MIN

/* Where destinations step: the hosts in sid order, or every sid. */
struct space {
	uint32_t m0, all, q;	/* hosts per leaf, sids, planes (>= 1) */
	uint32_t n;		/* ranks */
	uint32_t *sid;		/* [n] rank -> sid */
	int32_t *rank;		/* [all] sid -> rank, -1: no host line */
	uint32_t *lid;		/* [all] base LID, 0 without a host line */
};

/* One run: len transfers from phase p0, as the file gives it. */
struct run {
	uint32_t p0, len, dst;
	int64_t step;		/* destination step */
	int leaf;		/* 1: step the slot within dst's leaf */
	int32_t plane;		/* first plane, -1: none */
	uint32_t pstep;		/* plane step within the cycle */
	uint32_t lo, span;	/* the planes' cycle: lo .. lo + span - 1 */
	int64_t off;		/* DLID - base LID, NO_OFF: no DLID */
};

static void space_free(struct space *sp)
{
	free(sp->sid);
	free(sp->rank);
	free(sp->lid);
}

/* s's host lines as ranks in sid order; every sid when it has none. */
static int space_init(const struct fors_schedule *s, struct space *sp)
{
	uint32_t i;

	memset(sp, 0, sizeof(*sp));
	sp->m0 = s->m0;
	sp->all = s->m0 * s->m1;
	sp->q = s->q ? s->q : 1;
	sp->sid = calloc(sp->all, sizeof(*sp->sid));
	sp->rank = malloc(sizeof(*sp->rank) * sp->all);
	sp->lid = calloc(sp->all, sizeof(*sp->lid));
	if (!sp->sid || !sp->rank || !sp->lid) {
		space_free(sp);
		return FORS_ENOMEM;
	}
	for (i = 0; i < sp->all; i++)
		sp->rank[i] = s->nhosts ? -1 : 0;
	for (i = 0; i < s->nhosts; i++) {
		sp->rank[s->hosts[i].sid] = 0;
		sp->lid[s->hosts[i].sid] = s->hosts[i].lid;
	}
	for (i = 0; i < sp->all; i++)
		if (!sp->rank[i]) {
			sp->sid[sp->n] = i;
			sp->rank[i] = (int32_t)sp->n++;
		}
	return 0;
}

/* The destination after d in a run stepping by step. */
static uint32_t next_dst(const struct space *sp, uint32_t d, int64_t step,
			 int leaf)
{
	int64_t m = leaf ? sp->m0 : sp->n;
	int64_t at = leaf ? (int64_t)(d % sp->m0) : (int64_t)sp->rank[d];
	int64_t to = ((at + step) % m + m) % m;

	return leaf ? d - d % sp->m0 + (uint32_t)to : sp->sid[to];
}

/* x's DLID as an offset from its destination's base LID. */
static int64_t offset_of(const struct space *sp, const struct fors_xfer *x)
{
	return x->dlid == FORS_NO_DLID ? NO_OFF :
		(int64_t)x->dlid - sp->lid[x->dst];
}

static uint64_t zigzag(int64_t v)
{
	return v < 0 ? ((uint64_t)(-(v + 1)) << 1) | 1 : (uint64_t)v << 1;
}

static int64_t unzigzag(uint64_t v)
{
	return v & 1 ? -(int64_t)(v >> 1) - 1 : (int64_t)(v >> 1);
}

/* ---- encoder ---- */

struct out {
	unsigned char *b;
	size_t len, cap;
	int e;
};

static void put(struct out *o, uint64_t v)
{
	unsigned char *nb;

	if (o->e)
		return;
	if (o->cap - o->len < 10) {
		o->cap = o->cap ? 2 * o->cap : 4096;
		nb = realloc(o->b, o->cap);
		if (!nb) {
			o->e = FORS_ENOMEM;
			return;
		}
		o->b = nb;
	}
	do {
		o->b[o->len++] = (unsigned char)((v & 127) | (v > 127 ? 128 : 0));
		v >>= 7;
	} while (v);
}

/* Each source's transfers in phase order: idx[at[src]..at[src + 1]). */
struct by_src {
	uint32_t *idx;		/* transfer indexes */
	size_t *at;		/* [all + 1] */
};

/* The phase of s's transfer i. */
static uint32_t phase_of(const struct fors_schedule *s, size_t i)
{
	uint32_t lo = 0, hi = s->nphases;

	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (s->start[mid] <= i)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

static int by_src(const struct fors_schedule *s, uint32_t all,
		  struct by_src *bs)
{
	size_t i, *fill;

	bs->idx = malloc(sizeof(*bs->idx) * (s->nxfers + 1));
	bs->at = calloc(all + 1, sizeof(*bs->at));
	fill = calloc(all + 1, sizeof(*fill));
	if (!bs->idx || !bs->at || !fill) {
		free(fill);
		return FORS_ENOMEM;
	}
	for (i = 0; i < s->nxfers; i++)
		bs->at[s->xfers[i].src + 1]++;
	for (i = 0; i < all; i++)
		bs->at[i + 1] += bs->at[i];
	memcpy(fill, bs->at, sizeof(*fill) * (all + 1));
	for (i = 0; i < s->nxfers; i++)
		bs->idx[fill[s->xfers[i].src]++] = (uint32_t)i;
	free(fill);
	return 0;
}

/* The signed step from a to b modulo m, in (-m/2, m/2]. */
static int64_t signed_step(int64_t a, int64_t b, int64_t m)
{
	int64_t d = ((b - a) % m + m) % m;

	return d > m / 2 ? d - m : d;
}

/* The plane after pl in r's cycle. */
static int32_t next_plane(const struct run *r, int32_t pl)
{
	return pl < 0 ? pl :
		(int32_t)(r->lo + (pl - r->lo + r->pstep) % r->span);
}

/*
 * A run stepping by one plane whose n planes so far rose without a wrap
 * to pl, and then wraps to y at or below its first (a dead plane skipped,
 * as the cyclic schedule does), takes the cycle y .. pl instead of all Q.
 */
static int narrow(struct run *r, uint32_t q, uint32_t n, int32_t pl,
		  int32_t y)
{
	if (r->pstep != 1 || r->lo || r->span != q || y < 0 ||
	    y > r->plane || pl < r->plane || (uint32_t)(pl - r->plane) + 1 != n)
		return 0;
	r->lo = (uint32_t)y;
	r->span = (uint32_t)(pl - y + 1);
	return 1;
}

/* How many of the k transfers at t a run starting with r's fields covers. */
static uint32_t extend(const struct fors_schedule *s, const struct space *sp,
		       const uint32_t *t, size_t k, struct run *r)
{
	const struct fors_xfer *x = &s->xfers[t[0]], *y;
	uint32_t n = 1, d = x->dst;
	int32_t pl = fors_xfer_plane(x), was;

	for (; n < k; n++) {
		y = &s->xfers[t[n]];
		d = next_dst(sp, d, r->step, r->leaf);
		was = pl;
		pl = next_plane(r, pl);
		if (fors_xfer_plane(y) != pl && narrow(r, sp->q, n, was, fors_xfer_plane(y)))
			pl = next_plane(r, was);
		if (phase_of(s, t[n]) != r->p0 + n || y->dst != d ||
		    fors_xfer_plane(y) != pl || offset_of(sp, y) != r->off)
			break;
	}
	return n;
}

/* The longest run from the k transfers at t, stepping by sid or slot. */
static void longest(const struct fors_schedule *s, const struct space *sp,
		    const uint32_t *t, size_t k, struct run *r)
{
	const struct fors_xfer *x = &s->xfers[t[0]], *y = &s->xfers[t[1]];
	struct run g = *r, l = *r;
	int32_t a = fors_xfer_plane(x), b = fors_xfer_plane(y);

	if ((a < 0) != (b < 0) || offset_of(sp, x) != offset_of(sp, y) ||
	    phase_of(s, t[1]) != r->p0 + 1)
		return;
	g.pstep = l.pstep = a < 0 ? 0 :
		(uint32_t)((b - a + (int64_t)sp->q) % sp->q);
	g.span = l.span = sp->q;
	if (sp->rank[x->dst] >= 0 && sp->rank[y->dst] >= 0) {
		g.step = signed_step(sp->rank[x->dst], sp->rank[y->dst], sp->n);
		g.len = extend(s, sp, t, k, &g);
	}
	if (x->dst / sp->m0 == y->dst / sp->m0) {
		l.leaf = 1;
		l.step = signed_step(x->dst % sp->m0, y->dst % sp->m0, sp->m0);
		l.len = extend(s, sp, t, k, &l);
	}
	*r = l.len > g.len ? l : g;
}

static void put_run(struct out *o, const struct run *r, uint32_t end,
		    uint32_t prev, uint32_t q)
{
	int own = r->lo || r->span != q;	/* a cycle of its own */

	put(o, r->p0 - end);
	put(o, r->len - 1);
	put(o, zigzag((int64_t)r->dst - prev));
	if (r->len > 1)
		put(o, zigzag(r->step) << 1 | (uint64_t)r->leaf);
	put(o, (uint64_t)(r->plane + 1));
	if (r->len > 1 && r->plane >= 0)
		put(o, (uint64_t)r->pstep << 1 | (uint64_t)own);
	if (r->len > 1 && r->plane >= 0 && own) {
		put(o, r->lo);
		put(o, r->span);
	}
	put(o, r->off == NO_OFF ? 0 : zigzag(r->off) + 1);
}

/* The runs of one source's k transfers at t into o; *cnt of them. */
static int encode_src(const struct fors_schedule *s, const struct space *sp,
		      const uint32_t *t, size_t k, struct out *o, size_t *cnt)
{
	struct run r[1];
	uint32_t end = 0, prev = 0, j;
	size_t i;

	for (i = 0, *cnt = 0; i < k; i += r->len, ++*cnt) {
		const struct fors_xfer *x = &s->xfers[t[i]];

		if (i && phase_of(s, t[i]) < end)
			return FORS_EVERIFY;
		*r = (struct run){ .p0 = phase_of(s, t[i]), .len = 1,
				   .dst = x->dst, .plane = fors_xfer_plane(x),
				   .span = sp->q, .off = offset_of(sp, x) };
		if (i + 1 < k)
			longest(s, sp, t + i, k - i, r);
		put_run(o, r, end, prev, sp->q);
		end = r->p0 + r->len;
		for (prev = r->dst, j = 1; j < r->len; j++)
			prev = next_dst(sp, prev, r->step, r->leaf);
	}
	return o->e;
}

/* Every source's runs, after its sid (from the last plus one) and count. */
static int encode_all(const struct fors_schedule *s, const struct space *sp,
		      const struct by_src *bs, struct out *o, size_t *nruns)
{
	struct out one = { 0 };
	uint32_t src, from = 0;
	size_t cnt;
	int e = 0;

	for (src = 0; !e && src < sp->all; src++) {
		if (bs->at[src] == bs->at[src + 1])
			continue;
		one.len = 0;
		e = encode_src(s, sp, bs->idx + bs->at[src],
			       bs->at[src + 1] - bs->at[src], &one, &cnt);
		put(o, src - from);
		put(o, cnt);
		if (!e && !o->e && o->cap - o->len < one.len) {
			unsigned char *nb = realloc(o->b, o->len + one.len + 16);

			o->e = nb ? 0 : FORS_ENOMEM;
			o->b = nb ? nb : o->b;
			o->cap = nb ? o->len + one.len + 16 : o->cap;
		}
		if (!e && !o->e)
			memcpy(o->b + o->len, one.b, one.len);
		o->len += e || o->e ? 0 : one.len;
		*nruns += cnt;
		from = src + 1;
		e = e ? e : o->e;
	}
	free(one.b);
	return e;
}

int fors_runs_encode(const struct fors_schedule *s, unsigned char **buf,
		     size_t *len, size_t *nruns)
{
	struct space sp;
	struct by_src bs = { 0 };
	struct out o = { 0 };
	int e = space_init(s, &sp);

	*buf = NULL;
	*len = *nruns = 0;
	if (e)
		return e;
	e = by_src(s, sp.all, &bs);
	if (!e)
		e = encode_all(s, &sp, &bs, &o, nruns);
	free(bs.idx);
	free(bs.at);
	space_free(&sp);
	if (e) {
		free(o.b);
		return e;
	}
	*buf = o.b;
	*len = o.len;
	return 0;
}

/* ---- decoder ---- */

struct in {
	const unsigned char *b, *end;
	const struct space *sp;
	const struct fors_schedule *s;
	size_t run;		/* runs read, for messages */
	const char *why;	/* what was wrong, NULL: nothing */
};

static uint64_t get(struct in *c, uint64_t max, const char *what)
{
	uint64_t v = 0;
	int sh;

	for (sh = 0; !c->why && sh < 64; sh += 7) {
		if (c->b == c->end) {
			c->why = "truncated runs";
			return 0;
		}
		v |= (uint64_t)(*c->b & 127) << sh;
		if (!(*c->b++ & 128))
			break;
	}
	if (!c->why && (sh >= 64 || v > max))
		c->why = what;
	return c->why ? 0 : v;
}

/* The plane step and cycle of r, whose plane is read. */
static void get_cycle(struct in *c, struct run *r)
{
	uint32_t q = c->sp->q;
	uint64_t v = 0;

	r->span = q;
	if (r->len > 1 && r->plane >= 0)
		v = get(c, (uint64_t)q << 1, "");
	r->pstep = (uint32_t)(v >> 1);
	if (v & 1) {
		r->lo = (uint32_t)get(c, q - 1, "");
		r->span = (uint32_t)get(c, q - r->lo, "");
	}
	if (!c->why && (!r->span || r->pstep >= r->span ||
			(r->plane >= 0 && ((uint32_t)r->plane < r->lo ||
					   (uint32_t)r->plane >= r->lo + r->span))))
		c->why = "a plane cycle that does not hold its planes";
}

/* The fields of a run after one that ended at phase end and host prev. */
static void get_run(struct in *c, struct run *r, uint32_t end, uint32_t prev)
{
	const struct space *sp = c->sp;
	uint64_t n = c->s->nphases, v;

	memset(r, 0, sizeof(*r));
	v = end + get(c, n, "");
	r->len = 1 + (uint32_t)get(c, n, "");
	if (!c->why && v + r->len > n)
		c->why = "a run past the last phase";
	r->p0 = (uint32_t)v;
	v = (uint64_t)((int64_t)prev + unzigzag(get(c, UINT64_MAX, "")));
	if (!c->why && v >= sp->all)
		c->why = "a destination out of range";
	r->dst = (uint32_t)v;
	if (r->len > 1) {
		v = get(c, UINT64_MAX, "");
		r->leaf = (int)(v & 1);
		r->step = unzigzag(v >> 1);
	}
	if (!c->why && r->len > 1 && (r->leaf ?
	    r->step <= -(int64_t)sp->m0 || r->step >= sp->m0 :
	    sp->rank[r->dst] < 0 || r->step <= -(int64_t)sp->n ||
	    r->step >= sp->n))
		c->why = "a destination step out of range";
	r->plane = (int32_t)get(c, sp->q, "a plane out of range") - 1;
	get_cycle(c, r);
	v = get(c, UINT64_MAX, "");
	r->off = v ? unzigzag(v - 1) : NO_OFF;
}

/* r's transfers from src: counted per phase, or placed at pos[phase]. */
static void expand(struct in *c, const struct run *r, uint32_t src,
		   uint32_t *count, size_t *pos, struct fors_xfer *xf)
{
	const struct space *sp = c->sp;
	uint32_t k, d = r->dst;
	int32_t pl = r->plane;
	int64_t dl;

	for (k = 0; !c->why && k < r->len; k++) {
		dl = r->off == NO_OFF ? FORS_NO_DLID : sp->lid[d] + r->off;
		if (dl < 0 || dl > FORS_NO_DLID || (dl == FORS_NO_DLID &&
						   r->off != NO_OFF))
			c->why = "a DLID out of range";
		else if (pos)
			xf[pos[r->p0 + k]++] = fors_xfer_make(src, d, pl,
							      (uint16_t)dl);
		else
			count[r->p0 + k]++;
		d = next_dst(sp, d, r->step, r->leaf);
		pl = next_plane(r, pl);
	}
}

/* Every run once: counting transfers per phase (pos NULL), or placing. */
static void walk(struct in *c, size_t nruns, uint32_t *count, size_t *pos,
		 struct fors_xfer *xf)
{
	uint32_t src = 0, end, prev;
	uint64_t cnt;
	struct run r;

	while (!c->why && c->b < c->end) {
		src += (uint32_t)get(c, c->sp->all, "");
		cnt = get(c, nruns - c->run, "more runs than the 'runs' line says");
		if (!c->why && (src >= c->sp->all || !cnt))
			c->why = src >= c->sp->all ? "a source out of range" :
				"a source without runs";
		for (end = prev = 0; !c->why && cnt; cnt--) {
			get_run(c, &r, end, prev);
			expand(c, &r, src, count, pos, xf);
			if (c->why)
				break;
			c->run++;
			end = r.p0 + r.len;
			prev = r.dst;
			for (uint32_t k = 1; k < r.len; k++)
				prev = next_dst(c->sp, prev, r.step, r.leaf);
		}
		src++;
	}
	if (!c->why && c->run != nruns)
		c->why = "fewer runs than the 'runs' line says";
}

/* The two walks: phase sizes into s->start, then the transfers. */
static int fill(struct fors_schedule *s, const struct space *sp,
		const unsigned char *buf, size_t len, size_t nruns,
		const char **why, size_t *run)
{
	struct in c = { buf, buf + len, sp, s, 0, NULL };
	uint32_t *count = calloc(s->nphases + 1, sizeof(*count)), p;
	size_t *pos = NULL;

	if (!count)
		return FORS_ENOMEM;
	walk(&c, nruns, count, NULL, NULL);
	for (p = 0; !c.why && p < s->nphases; p++)
		s->start[p + 1] = s->start[p] + count[p];
	free(count);
	*why = c.why;
	*run = c.run;
	if (c.why)
		return FORS_EFORMAT;
	s->nxfers = s->start[s->nphases];
	s->xfers = malloc(sizeof(*s->xfers) * (s->nxfers + 1));
	pos = malloc(sizeof(*pos) * (s->nphases + 1));
	if (!s->xfers || !pos) {
		free(pos);
		return FORS_ENOMEM;
	}
	memcpy(pos, s->start, sizeof(*pos) * (s->nphases + 1));
	c = (struct in){ buf, buf + len, sp, s, 0, NULL };
	walk(&c, nruns, NULL, pos, s->xfers);
	free(pos);
	return 0;
}

int fors_runs_decode(struct fors_schedule *s, const unsigned char *buf,
		     size_t len, size_t nruns, const char *where,
		     struct fors_error *err)
{
	struct space sp;
	const char *why = NULL;
	size_t run = 0;
	int e = space_init(s, &sp);

	if (e)
		return e;
	e = fill(s, &sp, buf, len, nruns, &why, &run);
	space_free(&sp);
	if (e == FORS_EFORMAT)
		fors_error_set(err, "%s: run %zu: %s", where, run + 1,
			       why[0] ? why : "a number out of range");
	return e;
}
