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
	int by_src;		/* DLIDs offset from the source's LID (the
				   runs by receiver), not the destination's */
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

/* sp's tables freed and forgotten, so a second free does nothing. */
static void space_free(struct space *sp)
{
	free(sp->sid);
	free(sp->rank);
	free(sp->lid);
	sp->sid = NULL;
	sp->rank = NULL;
	sp->lid = NULL;
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

/* x's DLID as an offset from its destination's base LID (or source's). */
static int64_t offset_of(const struct space *sp, const struct fors_xfer *x)
{
	return x->dlid == FORS_NO_DLID ? NO_OFF :
		(int64_t)x->dlid - sp->lid[sp->by_src ? x->src : x->dst];
}

/* The k-th destination of run r, computed, not stepped to. */
static uint32_t dst_at(const struct space *sp, const struct run *r,
		       uint32_t k)
{
	int64_t m = r->leaf ? sp->m0 : sp->n, step = (int64_t)k * r->step;
	int64_t at = r->leaf ? (int64_t)(r->dst % sp->m0) :
		(int64_t)sp->rank[r->dst];
	int64_t to = ((at + step) % m + m) % m;

	if (!k)
		return r->dst;
	return r->leaf ? r->dst - r->dst % sp->m0 + (uint32_t)to : sp->sid[to];
}

/* How a repeat moves a run on: its first phase, host (by rank), plane. */
struct delta {
	uint32_t dp;		/* phases from one run's start to the next */
	int64_t dd;		/* ranks from one run's first host to the next */
	uint32_t dpl;		/* planes on, in the run's cycle */
};

/* Run r moved on by d (its first host has a rank: checked). */
static void shift(const struct space *sp, struct run *r,
		  const struct delta *d)
{
	int64_t n = sp->n, to = ((sp->rank[r->dst] + d->dd) % n + n) % n;

	r->p0 += d->dp;
	r->dst = sp->sid[to];
	if (r->plane >= 0)
		r->plane = (int32_t)(r->lo + ((uint32_t)r->plane - r->lo +
					      d->dpl) % r->span);
}

/* A signed number as the file's unsigned one: 0, -1, 1, -2 as 0, 1, 2, 3. */
static uint64_t zigzag(int64_t v)
{
	return v < 0 ? ((uint64_t)(-(v + 1)) << 1) | 1 : (uint64_t)v << 1;
}

/* zigzag undone. */
static int64_t unzigzag(uint64_t v)
{
	return v & 1 ? -(int64_t)(v >> 1) - 1 : (int64_t)(v >> 1);
}

/* ---- encoder ---- */

/* Bytes being written, growing; e the first error. */
struct out {
	unsigned char *b;
	size_t len, cap;
	int e;
};

/* v as LEB128: seven bits a byte, low first, the top bit for more. */
static void put(struct out *o, uint64_t v)
{
	unsigned char *nb;

	if (o->e)
		return;
	if (o->cap - o->len < 10) {
		o->cap = o->cap ? 2 * o->cap : 32;
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
 * A run stepping by one plane whose planes so far rose without a wrap to
 * pl, and then wraps to y at or below its first (a dead plane skipped, as
 * the cyclic schedule does), takes the cycle y .. pl instead of all Q.
 */
static int narrow(struct run *r, uint32_t q, int32_t pl, int32_t y)
{
	if (r->pstep != 1 || r->lo || r->span != q || y < 0 ||
	    y > r->plane || pl < r->plane ||
	    (uint32_t)(pl - r->plane) + 1 != r->len)
		return 0;
	r->lo = (uint32_t)y;
	r->span = (uint32_t)(pl - y + 1);
	return 1;
}

/*
 * A source's run being built: its first transfer, then, from the second
 * on, two candidates (stepping among the hosts, and within a leaf), each
 * followed while it holds; the run is the longer, the first on a tie.
 */
struct open {
	struct run c[2];	/* c[0] by sid, c[1] by slot; len 0: dead */
	uint32_t n;		/* transfers taken, 0: no run open */
	uint32_t d;		/* the last destination */
	int32_t pl;		/* the last plane */
	uint32_t end, prev;	/* the last run's end phase, last host */
	size_t cnt;		/* records written: runs and repeats */
	size_t nexp;		/* runs, a repeat's each counted */
	size_t total;		/* transfers taken */
	struct run last;	/* the last run, written or repeated */
	int have;		/* last is one */
	uint32_t reps;		/* runs last's repeat holds so far, 0: none */
	struct delta mv;	/* and how each moves on */
	struct out o;
};

/* Run r's record, after a run that ended at phase end and host prev. */
static void put_run(struct out *o, const struct run *r, uint32_t end,
		    uint32_t prev, uint32_t q)
{
	int own = r->lo || r->span != q;	/* a cycle of its own */

	put(o, (uint64_t)(r->p0 - end) << 1);
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

/* Whether b is a moved on by some delta (into *d): all else the same. */
static int moved(const struct space *sp, const struct run *a,
		 const struct run *b, struct delta *d)
{
	if (a->len != b->len || a->leaf != b->leaf || a->step != b->step ||
	    a->pstep != b->pstep || a->lo != b->lo || a->span != b->span ||
	    a->off != b->off || (a->plane < 0) != (b->plane < 0) ||
	    sp->rank[a->dst] < 0 || sp->rank[b->dst] < 0)
		return 0;
	d->dp = b->p0 - a->p0;
	d->dd = signed_step(sp->rank[a->dst], sp->rank[b->dst], sp->n);
	d->dpl = a->plane < 0 ? 0 :
		(uint32_t)(((int64_t)b->plane - a->plane + a->span) % a->span);
	return 1;
}

/* o's pending repeat written, if it has one. */
static void put_reps(struct open *o)
{
	if (!o->reps)
		return;
	put(&o->o, (uint64_t)(o->reps - 1) << 1 | 1);
	put(&o->o, o->mv.dp - o->last.len);
	put(&o->o, zigzag(o->mv.dd));
	put(&o->o, o->mv.dpl);
	o->cnt++;
	o->reps = 0;
}

/*
 * Run r of o: one more of the pending repeat, the first of a new one
 * (a repeat is a few bytes, a run several), or a run written.
 */
static void emit(const struct space *sp, struct open *o, const struct run *r)
{
	struct delta d;

	if (o->reps && moved(sp, &o->last, r, &d) && d.dp == o->mv.dp &&
	    d.dd == o->mv.dd && d.dpl == o->mv.dpl) {
		o->reps++;
	} else {
		put_reps(o);
		if (o->have && moved(sp, &o->last, r, &d)) {
			o->mv = d;
			o->reps = 1;
		} else {
			put_run(&o->o, r, o->end, o->prev, sp->q);
			o->cnt++;
		}
	}
	o->nexp++;
	o->last = *r;
	o->have = 1;
	o->end = r->p0 + r->len;
	o->prev = dst_at(sp, r, r->len - 1);
}

/* The open run of o emitted: the longer candidate. */
static void flush(const struct space *sp, struct open *o)
{
	if (!o->n)
		return;
	emit(sp, o, &o->c[o->c[1].len > o->c[0].len]);
	o->n = 0;
}

/* The second transfer x of o's run: 1 when it allows a candidate. */
static int second(const struct space *sp, struct open *o,
		  const struct fors_xfer *x, uint32_t p)
{
	struct run *g = &o->c[0], *l = &o->c[1];
	int32_t b = fors_xfer_plane(x);

	if ((g->plane < 0) != (b < 0) || g->off != offset_of(sp, x) ||
	    p != g->p0 + 1)
		return 0;
	g->pstep = g->plane < 0 ? 0 :
		(uint32_t)((b - g->plane + (int64_t)sp->q) % sp->q);
	*l = *g;
	g->len = l->len = 0;
	if (sp->rank[g->dst] >= 0 && sp->rank[x->dst] >= 0) {
		g->step = signed_step(sp->rank[g->dst], sp->rank[x->dst], sp->n);
		g->len = 2;
	}
	if (l->dst / sp->m0 == x->dst / sp->m0) {
		l->leaf = 1;
		l->step = signed_step(l->dst % sp->m0, x->dst % sp->m0, sp->m0);
		l->len = 2;
	}
	return g->len || l->len;
}

/* Candidate r, which held up to the last transfer, taking x as well. */
static void follow(const struct space *sp, const struct open *o,
		   struct run *r, const struct fors_xfer *x, uint32_t p)
{
	int32_t pl = next_plane(r, o->pl), y = fors_xfer_plane(x);

	if (pl != y && narrow(r, sp->q, o->pl, y))
		pl = next_plane(r, o->pl);
	if (p == r->p0 + r->len && x->dst == next_dst(sp, o->d, r->step,
						      r->leaf) &&
	    y == pl && offset_of(sp, x) == r->off)
		r->len++;
}

/* Transfer x of phase p into its source's open run, or a new one. */
static int take(const struct space *sp, struct open *o,
		const struct fors_xfer *x, uint32_t p)
{
	uint32_t held = o->n, k;

	if (o->n && p < o->c[0].p0 + o->n)
		return FORS_EVERIFY;
	if (o->n == 1 && !second(sp, o, x, p)) {
		o->c[0].len = 1;
		o->c[1].len = 0;
	}
	for (k = 0; o->n > 1 && k < 2; k++)
		if (o->c[k].len == held)
			follow(sp, o, &o->c[k], x, p);
	if (o->n && o->c[0].len <= held && o->c[1].len <= held)
		flush(sp, o);
	if (!o->n) {
		o->c[0] = (struct run){ .p0 = p, .len = 1, .dst = x->dst,
					.plane = fors_xfer_plane(x),
					.span = sp->q, .off = offset_of(sp, x) };
		o->c[1].len = 0;
	}
	o->n++;
	o->total++;
	o->d = x->dst;
	o->pl = fors_xfer_plane(x);
	return o->o.e;
}

/* One source's runs: its sid, how many, and their bytes. */
struct seg {
	uint32_t src;
	uint32_t cnt;
	const unsigned char *b;
	size_t len;
};

struct fors_runs {
	struct seg *seg;	/* the sources with runs, in sid order */
	uint32_t nseg;
	struct open *src;	/* [all]: the encoder's; NULL when parsed */
	uint32_t all;
	size_t nruns, len;	/* the records and their bytes, sources' too */
	size_t nexp;		/* the runs, a repeat's each counted */
	size_t nxfers;
	int by_src;		/* the runs by receiver (fors_runs_transpose) */
	unsigned char *owned;	/* the bytes parsed, when r keeps them */
};

void fors_runs_free(struct fors_runs *r)
{
	uint32_t i;

	if (!r)
		return;
	for (i = 0; r->src && i < r->all; i++)
		free(r->src[i].o.b);
	free(r->src);
	free(r->seg);
	free(r->owned);
	free(r);
}

/* Bytes of v as a number of the file. */
static size_t size_of(uint64_t v)
{
	size_t n = 1;

	while (v > 127) {
		v >>= 7;
		n++;
	}
	return n;
}

/*
 * Every open run written, the sources listed, counts and bytes summed: 0,
 * or the first error a source's bytes met.
 */
static int close_all(const struct space *sp, struct fors_runs *r)
{
	uint32_t i, from = 0;

	r->seg = calloc(r->all + 1, sizeof(*r->seg));
	if (!r->seg)
		return FORS_ENOMEM;
	for (i = 0; i < r->all; i++) {
		struct open *o = &r->src[i];

		flush(sp, o);
		put_reps(o);
		if (o->o.e)
			return o->o.e;
		r->nexp += o->nexp;
		r->nxfers += o->total;
		if (!o->cnt)
			continue;
		r->seg[r->nseg++] = (struct seg){ i, (uint32_t)o->cnt, o->o.b,
						  o->o.len };
		r->nruns += o->cnt;
		r->len += size_of(i - from) + size_of(o->cnt) + o->o.len;
		from = i + 1;
	}
	return 0;
}

/* Runs being built for all sources, empty. */
static struct fors_runs *runs_open(uint32_t all)
{
	struct fors_runs *r = calloc(1, sizeof(*r));

	if (r)
		r->src = calloc(all, sizeof(*r->src));
	if (r && !r->src) {
		free(r);
		return NULL;
	}
	if (r)
		r->all = all;
	return r;
}

/* r's open runs closed and listed: 0, or r freed with the error e. */
static int runs_close(const struct space *sp, struct fors_runs *r, int e)
{
	if (!e)
		e = close_all(sp, r);
	if (e)
		fors_runs_free(r);
	return e;
}

int fors_runs_encode(const struct fors_schedule *s, struct fors_runs **out)
{
	struct space sp;
	struct fors_runs *r;
	uint32_t p;
	size_t i;
	int e = space_init(s, &sp);

	*out = NULL;
	if (e)
		return e;
	r = runs_open(sp.all);
	e = r ? 0 : FORS_ENOMEM;
	for (p = 0; !e && p < s->nphases; p++)
		for (i = s->start[p]; !e && i < s->start[p + 1]; i++)
			e = take(&sp, &r->src[s->xfers[i].src], &s->xfers[i], p);
	if (r)
		e = runs_close(&sp, r, e);
	space_free(&sp);
	if (!e)
		*out = r;
	return e;
}

size_t fors_runs_count(const struct fors_runs *r)
{
	return r->nruns;
}

size_t fors_runs_bytes(const struct fors_runs *r)
{
	return r->len;
}

/* FNV-1a, 64 bits, from h. */
uint64_t fors_runs_fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;

	while (n--)
		h = (h ^ *b++) * 0x100000001b3ull;
	return h;
}

int fors_runs_write(const struct fors_runs *r, FILE *f, uint64_t *fnv)
{
	unsigned char head[20];
	struct out o = { head, 0, sizeof(head), 0 };
	uint32_t i, from = 0;

	*fnv = 0xcbf29ce484222325ull;
	for (i = 0; i < r->nseg; i++) {
		const struct seg *g = &r->seg[i];

		o.len = 0;
		put(&o, g->src - from);
		put(&o, g->cnt);
		*fnv = fors_runs_fnv(fors_runs_fnv(*fnv, head, o.len), g->b,
				     g->len);
		fwrite(head, 1, o.len, f);
		fwrite(g->b, 1, g->len, f);
		from = g->src + 1;
	}
	return ferror(f) ? FORS_EIO : 0;
}

/* ---- decoder ---- */

/* Bytes being read, and the first thing wrong with them. */
struct in {
	const unsigned char *b, *end;
	const struct space *sp;
	const struct fors_schedule *s;
	size_t run;		/* runs read, for messages */
	const char *why;	/* what was wrong, NULL: nothing */
};

/* A LEB128 number at most max; else why is what ("": out of range). */
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

/* The fields of a run from phase v after one that ended at host prev. */
static void get_run(struct in *c, struct run *r, uint64_t v, uint32_t prev)
{
	const struct space *sp = c->sp;
	uint64_t n = c->s->nphases;

	memset(r, 0, sizeof(*r));
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

/* A repeat of last, k + 1 runs, after its first field: *d and *reps. */
static void get_repeat(struct in *c, const struct run *last, int have,
		       uint64_t k, struct delta *d, uint32_t *reps)
{
	const struct space *sp = c->sp;
	uint64_t n = c->s->nphases, gap = get(c, n, "");

	d->dd = unzigzag(get(c, UINT64_MAX, ""));
	d->dpl = (uint32_t)get(c, sp->q, "");
	if (c->why)
		return;
	if (!have) {
		c->why = "a repeat with no run before it";
		return;
	}
	d->dp = last->len + (uint32_t)gap;
	*reps = (uint32_t)(k + 1);
	if (k >= n || last->p0 + (k + 1) * d->dp + last->len > n)
		c->why = "a repeat past the last phase";
	else if (sp->rank[last->dst] < 0 || d->dd <= -(int64_t)sp->n ||
		 d->dd >= sp->n)
		c->why = "a repeat's host step out of range";
	else if (d->dpl >= (last->plane >= 0 ? last->span : 1))
		c->why = "a repeat's plane step out of range";
}

/*
 * A source's next record, after its run last (have: it has one), which
 * ended at phase end and host prev: a run into *r (0), or a repeat of
 * last (1), *reps runs each moved on by *d.
 */
static int get_record(struct in *c, struct run *r, const struct run *last,
		      int have, uint32_t end, uint32_t prev, struct delta *d,
		      uint32_t *reps)
{
	uint64_t v = get(c, UINT64_MAX, "");

	if (v & 1) {
		get_repeat(c, last, have, v >> 1, d, reps);
		return 1;
	}
	if (!c->why && (v >> 1) > c->s->nphases)
		c->why = "a run past the last phase";
	get_run(c, r, end + (c->why ? 0 : v >> 1), prev);
	return 0;
}

/*
 * A source's records read back one run at a time, each repeat expanded:
 * what the scan, the phase iterator and the index all walk.
 */
struct reader {
	struct in c;		/* the source's bytes; c.run: its record */
	uint32_t left;		/* records not yet read */
	struct run r;		/* the run given last */
	int have;		/* r is one */
	uint32_t reps;		/* runs the last repeat still gives */
	struct delta mv;	/* how each moves on */
};

/* A reader of cnt records in b .. end, the first record run of the file. */
static void reader_init(struct reader *rd, const unsigned char *b,
			const unsigned char *end, uint32_t cnt,
			const struct space *sp, const struct fors_schedule *s,
			size_t run)
{
	memset(rd, 0, sizeof(*rd));
	rd->c = (struct in){ b, end, sp, s, run, NULL };
	rd->left = cnt;
}

/* The next run into rd->r: 1; 0 when none is left or a record is wrong. */
static int reader_next(struct reader *rd)
{
	const struct space *sp = rd->c.sp;
	uint32_t end = 0, prev = 0;
	struct run r;

	if (rd->reps) {
		shift(sp, &rd->r, &rd->mv);
		rd->reps--;
		return 1;
	}
	if (!rd->left || rd->c.why)
		return 0;
	if (rd->have) {
		end = rd->r.p0 + rd->r.len;
		prev = dst_at(sp, &rd->r, rd->r.len - 1);
		rd->c.run++;
	}
	rd->left--;
	if (!get_record(&rd->c, &r, &rd->r, rd->have, end, prev, &rd->mv,
			&rd->reps)) {
		rd->r = r;
	} else if (!rd->c.why) {
		rd->reps--;
		shift(sp, &rd->r, &rd->mv);
	}
	rd->have = !rd->c.why;
	return rd->have;
}

/* One source's runs found in the bytes, each read once to check it. */
static void scan_seg(struct in *c, struct seg *g, struct fors_runs *rs)
{
	struct reader rd;

	reader_init(&rd, c->b, c->end, g->cnt, c->sp, c->s, c->run);
	while (reader_next(&rd)) {
		if (rs->nxfers + rd.r.len > fors_runs_max_transfers(c->s)) {
			rd.c.why = "more transfers than the hosts have pairs";
			break;
		}
		rs->nxfers += rd.r.len;
		rs->nexp++;
	}
	g->b = c->b;
	g->len = (size_t)(rd.c.b - c->b);
	c->b = rd.c.b;
	c->why = rd.c.why;
	c->run = rd.c.why ? rd.c.run : c->run + g->cnt;
}

/* The sources and their runs in len bytes of nruns runs, checked. */
static void scan(struct in *c, struct fors_runs *r, size_t nruns)
{
	uint32_t src = 0;
	uint64_t cnt;

	while (!c->why && c->b < c->end) {
		src += (uint32_t)get(c, c->sp->all, "");
		cnt = get(c, nruns - c->run, "more runs than the 'runs' line says");
		if (!c->why && (src >= c->sp->all || !cnt))
			c->why = src >= c->sp->all ? "a source out of range" :
				"a source without runs";
		if (c->why)
			break;
		r->seg[r->nseg] = (struct seg){ src++, (uint32_t)cnt, NULL, 0 };
		scan_seg(c, &r->seg[r->nseg++], r);
	}
	if (!c->why && c->run != nruns)
		c->why = "fewer runs than the 'runs' line says";
}

/* What was wrong with the run-th record (from 0), in where's message. */
static void say(struct fors_error *err, const char *where, size_t run,
		const char *why)
{
	fors_error_set(err, "%s: run %zu: %s", where, run + 1,
		       why[0] ? why : "a number out of range");
}

int fors_runs_parse(const struct fors_schedule *s, const unsigned char *buf,
		    size_t len, size_t nruns, const char *where,
		    struct fors_error *err, struct fors_runs **out)
{
	struct space sp;
	struct fors_runs *r = calloc(1, sizeof(*r));
	struct in c = { buf, buf + len, &sp, s, 0, NULL };
	int e = r ? space_init(s, &sp) : FORS_ENOMEM;

	*out = NULL;
	if (!e) {
		r->all = sp.all;
		r->seg = calloc(sp.all + 1, sizeof(*r->seg));
		e = r->seg ? 0 : FORS_ENOMEM;
		if (!e)
			scan(&c, r, nruns);
		space_free(&sp);
	}
	if (!e && c.why) {
		say(err, where, c.run, c.why);
		e = FORS_EFORMAT;
	}
	if (e) {
		fors_runs_free(r);
		return e;
	}
	r->nruns = nruns;
	r->len = len;
	*out = r;
	return 0;
}

uint64_t fors_runs_max_transfers(const struct fors_schedule *s)
{
	uint64_t all = (uint64_t)s->m0 * s->m1;

	return all * (all ? all - 1 : 0);
}

size_t fors_runs_transfers(const struct fors_runs *r)
{
	return r->nxfers;
}

/* One source's place in its runs, as the phases go by. */
struct cursor {
	struct reader rd;	/* its records; rd.r the run being given */
	uint32_t src;		/* its sid */
	uint32_t k;		/* rd.r's transfers given */
	uint32_t d;		/* the next destination */
	int32_t pl;		/* the next plane */
};

struct fors_runs_iter {
	const struct fors_schedule *s;
	struct space sp;
	struct cursor *cur;	/* one per source with runs */
	uint32_t n, p;		/* cursors, the next phase */
	const char *why;	/* a DLID out of range, in run why_run */
	size_t why_run;
};

void fors_runs_iter_free(struct fors_runs_iter *it)
{
	if (!it)
		return;
	space_free(&it->sp);
	free(it->cur);
	free(it);
}

int fors_runs_iter_new(const struct fors_runs *r,
		       const struct fors_schedule *s,
		       struct fors_runs_iter **out)
{
	struct fors_runs_iter *it = calloc(1, sizeof(*it));
	size_t run = 0;
	uint32_t i;

	*out = NULL;
	if (!it || space_init(s, &it->sp)) {
		free(it);
		return FORS_ENOMEM;
	}
	it->s = s;
	it->sp.by_src = r->by_src;
	it->cur = calloc(r->nseg + 1, sizeof(*it->cur));
	if (!it->cur) {
		fors_runs_iter_free(it);
		return FORS_ENOMEM;
	}
	for (i = 0; i < r->nseg; i++) {
		const struct seg *g = &r->seg[i];

		reader_init(&it->cur[i].rd, g->b, g->b + g->len, g->cnt,
			    &it->sp, s, run);
		it->cur[i].src = g->src;
		run += g->cnt;
	}
	it->n = r->nseg;
	*out = it;
	return 0;
}

/* u's next run, after the one it gave; 0 when it has none. */
static int next_run(struct cursor *u)
{
	if (!reader_next(&u->rd))
		return 0;
	u->k = 0;
	u->d = u->rd.r.dst;
	u->pl = u->rd.r.plane;
	return 1;
}

/* u's transfer of phase p into x, if it has one: 1, else 0. */
static int give(struct fors_runs_iter *it, struct cursor *u, uint32_t p,
		struct fors_xfer *x)
{
	const struct run *r = &u->rd.r;
	int64_t dl;

	if (u->k == r->len && !next_run(u))
		return 0;
	if (r->p0 + u->k != p)
		return 0;
	dl = r->off == NO_OFF ? FORS_NO_DLID :
		it->sp.lid[it->sp.by_src ? u->src : u->d] + r->off;
	if (r->off != NO_OFF && (dl < 0 || dl >= FORS_NO_DLID)) {
		if (!it->why) {
			it->why = "a DLID out of range";
			it->why_run = u->rd.c.run;
		}
		dl = FORS_NO_DLID;
	}
	*x = fors_xfer_make(u->src, u->d, u->pl, (uint16_t)dl);
	u->k++;
	u->d = next_dst(&it->sp, u->d, r->step, r->leaf);
	u->pl = next_plane(r, u->pl);
	return 1;
}

int fors_runs_iter_phase(struct fors_runs_iter *it, struct fors_xfer *x,
			 size_t *n, const char **why, size_t *run)
{
	uint32_t i;

	*n = 0;
	for (i = 0; i < it->n; i++)
		*n += (size_t)give(it, &it->cur[i], it->p, x + *n);
	it->p++;
	*why = it->why;
	*run = it->why_run;
	return it->why ? FORS_EFORMAT : 0;
}

/* s's phases from the iterator into s->xfers and s->start. */
static int expand_all(struct fors_schedule *s, const struct fors_runs *r,
		      const char **why, size_t *run)
{
	struct fors_runs_iter *it;
	uint32_t p;
	size_t n;
	int e = fors_runs_iter_new(r, s, &it);

	s->xfers = e ? NULL : malloc(sizeof(*s->xfers) * (r->nxfers + 1));
	if (!e && !s->xfers)
		e = FORS_ENOMEM;
	for (p = 0; !e && p < s->nphases; p++) {
		e = fors_runs_iter_phase(it, s->xfers + s->start[p], &n, why,
					 run);
		s->start[p + 1] = s->start[p] + n;
	}
	s->nxfers = e ? 0 : s->start[s->nphases];
	fors_runs_iter_free(it);
	return e;
}

int fors_runs_decode(struct fors_schedule *s, const unsigned char *buf,
		     size_t len, size_t nruns, const char *where,
		     struct fors_error *err)
{
	struct fors_runs *r;
	const char *why = NULL;
	size_t run = 0;
	int e = fors_runs_parse(s, buf, len, nruns, where, err, &r);

	if (e)
		return e;
	e = expand_all(s, r, &why, &run);
	fors_runs_free(r);
	if (e == FORS_EFORMAT)
		say(err, where, run, why);
	return e;
}

/* ---- by receiver, and lookups ---- */

void fors_runs_keep(struct fors_runs *r, unsigned char *buf)
{
	free(r->owned);
	r->owned = buf;
}

/* Phase p's transfers, each taken by its receiver into t's runs. */
static int take_phase(const struct space *sp, struct fors_runs *t,
		      const struct fors_xfer *x, size_t n, uint32_t p,
		      uint32_t *host)
{
	size_t i;
	int e = 0;

	for (i = 0; !e && i < n; i++) {
		struct fors_xfer y = x[i];

		*host = x[i].dst;
		if (x[i].src == x[i].dst)
			return FORS_EINVAL;
		y.src = x[i].dst;
		y.dst = x[i].src;
		e = take(sp, &t->src[y.src], &y, p);
	}
	return e;
}

int fors_runs_transpose(const struct fors_runs *r,
			const struct fors_schedule *s, struct fors_runs **out,
			uint32_t *host, uint32_t *phase)
{
	struct fors_runs_iter *it = NULL;
	struct fors_xfer *x = NULL;
	struct fors_runs *t = NULL;
	struct space sp;
	const char *why;
	size_t n, run;
	uint32_t p;
	int e = space_init(s, &sp);

	*out = NULL;
	sp.by_src = 1;
	if (!e)
		e = fors_runs_iter_new(r, s, &it);
	if (!e) {
		t = runs_open(sp.all);
		x = malloc(sizeof(*x) * (sp.all + 1));
		e = t && x ? 0 : FORS_ENOMEM;
	}
	for (p = 0; !e && p < s->nphases; p++) {
		*phase = p;
		e = fors_runs_iter_phase(it, x, &n, &why, &run);
		if (!e)
			e = take_phase(&sp, t, x, n, p, host);
	}
	if (t)
		e = runs_close(&sp, t, e);
	if (!e) {
		t->by_src = 1;
		*out = t;
	}
	free(x);
	fors_runs_iter_free(it);
	space_free(&sp);
	return e;
}

/* Each source's runs decoded, in phase order, for lookups. */
struct fors_runs_index {
	struct space sp;
	size_t *first;		/* [all + 1]: source i's runs from first[i] */
	struct run *run;
};

void fors_runs_index_free(struct fors_runs_index *ix)
{
	if (!ix)
		return;
	space_free(&ix->sp);
	free(ix->first);
	free(ix->run);
	free(ix);
}

/* One source's records decoded into ix's runs from *at, repeats expanded. */
static void index_seg(struct fors_runs_index *ix, const struct seg *g,
		      const struct fors_schedule *s, size_t *at)
{
	struct reader rd;

	reader_init(&rd, g->b, g->b + g->len, g->cnt, &ix->sp, s, 0);
	while (reader_next(&rd))
		ix->run[(*at)++] = rd.r;
}

/* Every run of r decoded into ix, by source. */
static void index_fill(struct fors_runs_index *ix, const struct fors_runs *r,
		       const struct fors_schedule *s)
{
	size_t at = 0;
	uint32_t i, src = 0;

	for (i = 0; i < r->nseg; i++) {
		for (; src <= r->seg[i].src; src++)
			ix->first[src] = at;
		index_seg(ix, &r->seg[i], s, &at);
	}
	for (; src <= ix->sp.all; src++)
		ix->first[src] = at;
}

int fors_runs_index_new(const struct fors_runs *r,
			const struct fors_schedule *s,
			struct fors_runs_index **out)
{
	struct fors_runs_index *ix = calloc(1, sizeof(*ix));

	*out = NULL;
	if (!ix || space_init(s, &ix->sp)) {
		free(ix);
		return FORS_ENOMEM;
	}
	ix->sp.by_src = r->by_src;
	ix->first = calloc(ix->sp.all + 1, sizeof(*ix->first));
	ix->run = calloc(r->nexp + 1, sizeof(*ix->run));
	if (!ix->first || !ix->run) {
		fors_runs_index_free(ix);
		return FORS_ENOMEM;
	}
	index_fill(ix, r, s);
	*out = ix;
	return 0;
}

/* The k-th transfer of run r, from src. */
/* The k-th transfer of run r, from src, computed. */
static struct fors_xfer nth(const struct space *sp, const struct run *r,
			    uint32_t src, uint32_t k)
{
	uint32_t d = dst_at(sp, r, k);
	int32_t pl = r->plane < 0 ? -1 : (int32_t)(r->lo +
		((uint64_t)(r->plane - r->lo) + (uint64_t)k * r->pstep) % r->span);
	int64_t dl = r->off == NO_OFF ? FORS_NO_DLID :
		sp->lid[sp->by_src ? src : d] + r->off;

	return fors_xfer_make(src, d, pl, (uint16_t)dl);
}

int fors_runs_index_at(const struct fors_runs_index *ix, uint32_t src,
		       uint32_t p, struct fors_xfer *x)
{
	size_t lo, hi, mid;

	if (src >= ix->sp.all)
		return 0;
	lo = ix->first[src];
	hi = ix->first[src + 1];
	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (ix->run[mid].p0 <= p)
			lo = mid;
		else
			hi = mid;
	}
	if (lo == hi || p < ix->run[lo].p0 ||
	    p >= ix->run[lo].p0 + ix->run[lo].len)
		return 0;
	*x = nth(&ix->sp, &ix->run[lo], src, p - ix->run[lo].p0);
	return 1;
}
