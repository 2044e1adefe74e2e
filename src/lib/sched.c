// SPDX-License-Identifier: MIT
/*
 * libforssched: the core's strict reader, then what the indexes rely on
 * (one host line per sid, one send and one receive per host and phase, no
 * host sending to itself), then the indexes.
 */
#include <stdlib.h>
#include <string.h>

#include "fors/fors-sched.h"
#include "formats/schedfile.h"
#include "formats/io.h"
#include "sys/slurp.h"

_Static_assert((int)FORS_SCHED_ENOMEM == (int)FORS_ENOMEM &&
	       (int)FORS_SCHED_EFORMAT == (int)FORS_EFORMAT &&
	       (int)FORS_SCHED_EIO == (int)FORS_EIO, "the core's status codes");
/* A phase has at most one transfer per host: offsets fit 16 bits. */
_Static_assert(FORS_MAX_HOSTS <= 1 << 16, "phase offsets are 16 bits");

struct fors_sched {
	struct fors_schedule *sc;	/* the file as the core read it */
	uint64_t gen;
	uint32_t bound;		/* the fabric line's `bound`, 0: none */
	struct fors_sched_host *hosts;		/* file order */
	const struct fors_sched_host **bysid;	/* [m0 * m1] */
	const struct fors_sched_host **byguid;	/* sorted by GUID */
	const struct fors_sched_host **bydesc;	/* by description, port */
	struct fors_sched_xfer *xf;		/* file order */
	uint16_t *bysrc;	/* each phase's offsets sorted by source */
	uint16_t *bydst;	/* each phase's offsets sorted by destination */
	struct fors_runs *runs;		/* a compact file's runs by sender,
					   NULL: the records above */
	struct fors_runs *rruns;	/* the same by receiver */
	struct fors_runs_index *sends, *recvs;
};

/* What a load needs to name the line of an inconsistency. */
struct loader {
	const char *name;
	const char *buf;	/* the whole file */
	size_t len;
	int compact;		/* version 2: no line per transfer */
	int lookup;		/* a compact file answered from its runs */
	struct fors_error *err;
};

/* Never NULL for a count of zero, so that NULL always means no memory. */
static void *alloc(size_t n, size_t size)
{
	return calloc(n ? n : 1, size);
}

/* The number of the k-th line with content (from 1), as the reader counts. */
static unsigned long line_of(const struct loader *l, size_t k)
{
	unsigned long line = 0;
	size_t i = 0, j, end;
	const char *nl;

	while (i < l->len) {
		nl = memchr(l->buf + i, '\n', l->len - i);
		end = nl ? (size_t)(nl - l->buf) : l->len;
		line++;
		for (j = i; j < end && (l->buf[j] == ' ' || l->buf[j] == '\t');)
			j++;
		if (j < end && l->buf[j] != '#' && l->buf[j] && --k == 0)
			break;
		i = end + 1;
	}
	return line;
}

static int bad(const struct loader *l, size_t k, const char *fmt, uint32_t a,
	       uint32_t b)
{
	char msg[128];

	snprintf(msg, sizeof(msg), fmt, a, b);
	if (k)
		fors_error_set(l->err, "%s:%lu: %s", l->name, line_of(l, k),
			       msg);
	else
		fors_error_set(l->err, "%s: %s", l->name, msg);
	return FORS_EFORMAT;
}

/*
 * Content line of the fabric line, of host i, of transfer g in phase p; 0
 * (no line: the message names the phase) in the compact form.
 */
#define FABRIC_LINE 2
#define HOST_LINE(i) (3 + (i))
#define XFER_LINE(l, s, p, g) \
	((l)->compact ? 0 : 4 + (s)->nhosts + (p) + (g))

/* The fabric line's numeric key k, at most max, into *out (0: none). */
static int number_key(const struct fors_sched *s, const struct loader *l,
		      const char *k, uint64_t max, uint64_t *out)
{
	const struct fors_schedule *sc = s->sc;
	char what[64];
	const char *v;
	size_t i, seen = 0;

	for (i = 0; i < sc->nextra; i++) {
		if (strcmp(sc->extra[i].key, k))
			continue;
		snprintf(what, sizeof(what), "key '%s' given twice", k);
		if (seen++)
			return bad(l, FABRIC_LINE, what, 0, 0);
		v = sc->extra[i].value;
		snprintf(what, sizeof(what), "bad value for key '%s'", k);
		if (parse_u64(&v, 0, out) || *v || *out > max)
			return bad(l, FABRIC_LINE, what, 0, 0);
	}
	return 0;
}

/* `generation` and `bound`, the fabric line's numbers an application uses. */
static int numbers(struct fors_sched *s, const struct loader *l)
{
	uint64_t b = 0;
	int e = number_key(s, l, "generation", UINT64_MAX, &s->gen);

	if (!e)
		e = number_key(s, l, "bound", UINT32_MAX, &b);
	s->bound = (uint32_t)b;
	return e;
}

static int cmp_guid(const void *a, const void *b)
{
	const struct fors_sched_host *x = *(const struct fors_sched_host **)a;
	const struct fors_sched_host *y = *(const struct fors_sched_host **)b;

	return (x->guid > y->guid) - (x->guid < y->guid);
}

static int cmp_host(const struct fors_sched_host *h, const char *desc,
		    uint32_t port)
{
	int c = strcmp(h->desc, desc);

	return c ? c : (h->port > port) - (h->port < port);
}

static int cmp_desc(const void *a, const void *b)
{
	const struct fors_sched_host *y = *(const struct fors_sched_host **)b;

	return cmp_host(*(const struct fors_sched_host **)a, y->desc, y->port);
}

static int hosts(struct fors_sched *s, const struct loader *l)
{
	const struct fors_schedule *sc = s->sc;
	size_t i, n = sc->nhosts;

	s->hosts = alloc(n, sizeof(*s->hosts));
	s->bysid = alloc((size_t)sc->m0 * sc->m1, sizeof(*s->bysid));
	s->byguid = alloc(n, sizeof(*s->byguid));
	s->bydesc = alloc(n, sizeof(*s->bydesc));
	if (!s->hosts || !s->bysid || !s->byguid || !s->bydesc)
		return FORS_ENOMEM;
	for (i = 0; i < n; i++) {
		struct fors_sched_host *h = &s->hosts[i];

		h->sid = sc->hosts[i].sid;
		h->lid = sc->hosts[i].lid;
		h->guid = sc->hosts[i].guid;
		h->port = sc->hosts[i].port;
		h->desc = sc->hosts[i].desc;
		if (s->bysid[h->sid])
			return bad(l, HOST_LINE(i), "host %u listed twice",
				   h->sid, 0);
		s->bysid[h->sid] = s->byguid[i] = s->bydesc[i] = h;
	}
	qsort(s->byguid, n, sizeof(*s->byguid), cmp_guid);
	qsort(s->bydesc, n, sizeof(*s->bydesc), cmp_desc);
	return 0;
}

static int cmp_key(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/*
 * Sort phase p's offsets by source (dst 0) or destination (dst 1) into ix;
 * ties sort by offset, so a repeated host names its second line.
 */
static int index_phase(struct fors_sched *s, const struct loader *l, uint32_t p,
		       int dst, uint32_t *key, uint16_t *ix)
{
	const size_t st = s->sc->start[p], n = s->sc->start[p + 1] - st;
	const struct fors_sched_xfer *x = s->xf + st;
	uint32_t h;
	size_t i, g;

	for (i = 0; i < n; i++)
		key[i] = (dst ? x[i].dst : x[i].src) << 16 | (uint32_t)i;
	qsort(key, n, sizeof(*key), cmp_key);
	for (i = 0; i < n; i++) {
		h = key[i] >> 16;
		g = st + (key[i] & 0xffff);
		if (i && h == key[i - 1] >> 16)
			return bad(l, XFER_LINE(l, s->sc, p, g),
				   dst ? "host %u receives twice in phase %u" :
				   "host %u sends twice in phase %u", h, p);
		ix[st + i] = (uint16_t)key[i];
	}
	return 0;
}

static int xfers(struct fors_sched *s, const struct loader *l)
{
	const struct fors_schedule *sc = s->sc;
	uint32_t *key, p;
	size_t g;
	int e = 0;

	s->xf = alloc(sc->nxfers, sizeof(*s->xf));
	s->bysrc = alloc(sc->nxfers, sizeof(*s->bysrc));
	s->bydst = alloc(sc->nxfers, sizeof(*s->bydst));
	key = alloc((size_t)sc->m0 * sc->m1, sizeof(*key));
	if (!s->xf || !s->bysrc || !s->bydst || !key) {
		free(key);
		return FORS_ENOMEM;
	}
	for (p = 0; !e && p < sc->nphases; p++) {
		for (g = sc->start[p]; !e && g < sc->start[p + 1]; g++) {
			const struct fors_xfer *x = &sc->xfers[g];

			s->xf[g] = (struct fors_sched_xfer){
				x->src, x->dst, fors_xfer_plane(x), fors_xfer_dlid(x),
				s->bysid[x->src], s->bysid[x->dst]
			};
			if (x->src == x->dst)
				e = bad(l, XFER_LINE(l, sc, p, g),
					"host %u sends to itself in phase %u",
					x->src, p);
		}
		if (!e)
			e = index_phase(s, l, p, 0, key, s->bysrc);
		if (!e)
			e = index_phase(s, l, p, 1, key, s->bydst);
	}
	free(key);
	return e;
}

/*
 * A compact file's runs by receiver too (which checks what the records'
 * indexes would: one receive per host and phase, no host sending to
 * itself, every DLID in range), and both indexed for lookups.
 */
static int runs_index(struct fors_sched *s, const struct loader *l)
{
	uint32_t host = 0, phase = 0;
	int e = fors_runs_transpose(s->runs, s->sc, &s->rruns, &host, &phase);

	if (e == FORS_EVERIFY)
		return bad(l, 0, "host %u receives twice in phase %u", host,
			   phase);
	if (e == FORS_EINVAL)
		return bad(l, 0, "host %u sends to itself in phase %u", host,
			   phase);
	if (e == FORS_EFORMAT)
		return bad(l, 0, "a DLID out of range in phase %u", phase, 0);
	if (!e)
		e = fors_runs_index_new(s->runs, s->sc, &s->sends);
	if (!e)
		e = fors_runs_index_new(s->rruns, s->sc, &s->recvs);
	return e;
}

static int load(struct fors_sched *s, const struct loader *l)
{
	FILE *f = fmemopen((void *)l->buf, l->len, "r");
	int e;

	if (!f) {
		fors_error_set(l->err, "%s: out of memory", l->name);
		return FORS_ENOMEM;
	}
	e = l->lookup ? fors_schedule_read_runs(f, l->name, &s->sc, &s->runs,
						l->err) :
		fors_schedule_read(f, l->name, &s->sc, l->err);
	fclose(f);
	if (!e)
		e = numbers(s, l);
	if (!e)
		e = hosts(s, l);
	if (!e)
		e = s->runs ? runs_index(s, l) : xfers(s, l);
	if (!e) {
		/* the public transfers are all that is read from now on */
		free(s->sc->xfers);
		s->sc->xfers = NULL;
	}
	/* the core names the line of its own failures */
	if (e == FORS_ENOMEM && s->sc)
		fors_error_set(l->err, "%s: out of memory", l->name);
	return e;
}

/* The stream loaded: records for every transfer, or (lookup) the runs. */
static int load_stream(FILE *in, const char *name, struct fors_sched **res,
		       int lookup, struct fors_error *err)
{
	struct fors_sched *s;
	struct loader l = { .name = name, .err = err, .lookup = lookup };
	struct fors_slurp f;
	int e;

	/* the whole stream in memory: the reader parses it, errors count lines */
	e = fors_slurp_stream(in, name, SIZE_MAX, &f, err);
	l.buf = f.text;
	l.len = f.len;
	l.compact = !e && !strncmp(f.text, "fors-schedule 2", 15);
	s = e ? NULL : calloc(1, sizeof(*s));
	if (!e && !s) {
		fors_error_set(err, "%s: out of memory", name);
		e = FORS_ENOMEM;
	}
	if (!e)
		e = load(s, &l);
	free(f.text);
	if (e) {
		fors_sched_free(s);
		return e;
	}
	*res = s;
	return 0;
}

static void put_err(char *buf, size_t len, const struct fors_error *err)
{
	if (buf && len)
		snprintf(buf, len, "%s", err->msg);
}

static int read_cb(FILE *in, const char *name, void *out,
		   struct fors_error *err)
{
	return load_stream(in, name, out, 0, err);
}

static int lookup_cb(FILE *in, const char *name, void *out,
		     struct fors_error *err)
{
	return load_stream(in, name, out, 1, err);
}

int fors_sched_read(struct fors_sched **out, FILE *in, const char *name,
		    char *err, size_t errlen)
{
	struct fors_error e;
	int r;

	*out = NULL;
	r = read_cb(in, name, out, &e);
	if (r)
		put_err(err, errlen, &e);
	return r;
}

/* path loaded by cb, the error cut into err. */
static int open_with(struct fors_sched **out, const char *path,
		     int (*cb)(FILE *, const char *, void *,
			       struct fors_error *),
		     char *err, size_t errlen)
{
	struct fors_error e;
	int r;

	*out = NULL;
	r = read_path(path, cb, out, &e);
	if (r)
		put_err(err, errlen, &e);
	return r;
}

int fors_sched_open(struct fors_sched **out, const char *path, char *err,
		    size_t errlen)
{
	return open_with(out, path, read_cb, err, errlen);
}

int fors_sched_open_lookup(struct fors_sched **out, const char *path,
			   char *err, size_t errlen)
{
	return open_with(out, path, lookup_cb, err, errlen);
}

void fors_sched_free(struct fors_sched *s)
{
	if (!s)
		return;
	fors_schedule_free(s->sc);
	free(s->hosts);
	free(s->bysid);
	free(s->byguid);
	free(s->bydesc);
	free(s->xf);
	free(s->bysrc);
	free(s->bydst);
	fors_runs_index_free(s->sends);
	fors_runs_index_free(s->recvs);
	fors_runs_free(s->runs);
	fors_runs_free(s->rruns);
	free(s);
}

uint64_t fors_sched_generation(const struct fors_sched *s)
{
	return s->gen;
}

uint32_t fors_sched_bound(const struct fors_sched *s)
{
	return s->bound;
}

uint32_t fors_sched_hosts_per_leaf(const struct fors_sched *s)
{
	return s->sc->m0;
}

uint32_t fors_sched_leaves(const struct fors_sched *s)
{
	return s->sc->m1;
}

uint32_t fors_sched_planes(const struct fors_sched *s)
{
	return s->sc->q;
}

uint32_t fors_sched_reduction(const struct fors_sched *s)
{
	return s->sc->f;
}

uint32_t fors_sched_impacted(const struct fors_sched *s)
{
	return s->sc->m;
}

int fors_sched_lmc(const struct fors_sched *s)
{
	return s->sc->lmc;
}

uint32_t fors_sched_nphases(const struct fors_sched *s)
{
	return s->sc->nphases;
}

const char *fors_sched_key(const struct fors_sched *s, const char *key)
{
	size_t i;

	for (i = 0; i < s->sc->nextra; i++)
		if (!strcmp(s->sc->extra[i].key, key))
			return s->sc->extra[i].value;
	return NULL;
}

const char *fors_sched_method(const struct fors_sched *s)
{
	return fors_sched_key(s, "method");
}

size_t fors_sched_nhosts(const struct fors_sched *s)
{
	return s->sc->nhosts;
}

const struct fors_sched_host *fors_sched_host_at(const struct fors_sched *s,
						 size_t i)
{
	return i < s->sc->nhosts ? &s->hosts[i] : NULL;
}

const struct fors_sched_host *fors_sched_find_sid(const struct fors_sched *s,
						  uint32_t sid)
{
	return sid / s->sc->m0 < s->sc->m1 ? s->bysid[sid] : NULL;
}

/* First host above guid (upper), or not below it. */
static size_t guid_bound(const struct fors_sched *s, uint64_t guid, int upper)
{
	size_t lo = 0, hi = s->sc->nhosts, mid;
	uint64_t g;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		g = s->byguid[mid]->guid;
		if (g < guid || (upper && g == guid))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static size_t desc_bound(const struct fors_sched *s, const char *desc,
			 uint32_t port, int upper)
{
	size_t lo = 0, hi = s->sc->nhosts, mid;
	int c;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		c = cmp_host(s->bydesc[mid], desc, port);
		if (c < 0 || (upper && c == 0))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static const struct fors_sched_host *
one_of(const struct fors_sched_host *const *v, size_t lo, size_t hi,
       size_t *n)
{
	if (n)
		*n = hi - lo;
	return hi - lo == 1 ? v[lo] : NULL;
}

const struct fors_sched_host *fors_sched_find_guid(const struct fors_sched *s,
						   uint64_t guid, size_t *n)
{
	return one_of(s->byguid, guid_bound(s, guid, 0),
		      guid_bound(s, guid, 1), n);
}

const struct fors_sched_host *fors_sched_find_desc(const struct fors_sched *s,
						   const char *desc,
						   uint32_t port, size_t *n)
{
	return one_of(s->bydesc, desc_bound(s, desc, port, 0),
		      desc_bound(s, desc, port ? port : UINT32_MAX, 1), n);
}

const struct fors_sched_xfer *fors_sched_phase(const struct fors_sched *s,
					       uint32_t phase, size_t *n)
{
	if (phase >= s->sc->nphases || s->runs) {
		*n = 0;
		return NULL;
	}
	*n = s->sc->start[phase + 1] - s->sc->start[phase];
	return s->xf + s->sc->start[phase];
}

/* Binary search of phase p's offsets ix, sorted by source or destination. */
static const struct fors_sched_xfer *
find(const struct fors_sched *s, const uint16_t *ix, uint32_t p,
     uint32_t sid, int dst)
{
	const struct fors_sched_xfer *x;
	size_t st, lo = 0, hi, mid;
	uint32_t h;

	if (p >= s->sc->nphases || s->runs)
		return NULL;
	st = s->sc->start[p];
	hi = s->sc->start[p + 1] - st;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		x = &s->xf[st + ix[st + mid]];
		h = dst ? x->dst : x->src;
		if (h == sid)
			return x;
		if (h < sid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const struct fors_sched_xfer *fors_sched_send(const struct fors_sched *s,
					      uint32_t phase, uint32_t sid)
{
	return find(s, s->bysrc, phase, sid, 0);
}

const struct fors_sched_xfer *fors_sched_recv(const struct fors_sched *s,
					      uint32_t phase, uint32_t sid)
{
	return find(s, s->bydst, phase, sid, 1);
}

/*
 * What sid sends (recv 0) or receives (recv 1) in phase, into out: from
 * the records, or from the runs by sender or by receiver (whose transfer
 * names the receiver as its source).
 */
static int lookup_into(const struct fors_sched *s, uint32_t phase,
		       uint32_t sid, int recv, struct fors_sched_xfer *out)
{
	const struct fors_sched_xfer *x;
	struct fors_xfer y;
	uint32_t src, dst;

	if (!s->runs) {
		x = recv ? fors_sched_recv(s, phase, sid) :
			fors_sched_send(s, phase, sid);
		if (x)
			*out = *x;
		return x != NULL;
	}
	if (phase >= s->sc->nphases ||
	    !fors_runs_index_at(recv ? s->recvs : s->sends, sid, phase, &y))
		return 0;
	src = recv ? y.dst : y.src;
	dst = recv ? y.src : y.dst;
	*out = (struct fors_sched_xfer){ src, dst, fors_xfer_plane(&y),
					 fors_xfer_dlid(&y), s->bysid[src],
					 s->bysid[dst] };
	return 1;
}

int fors_sched_send_into(const struct fors_sched *s, uint32_t phase,
			 uint32_t sid, struct fors_sched_xfer *out)
{
	return lookup_into(s, phase, sid, 0, out);
}

int fors_sched_recv_into(const struct fors_sched *s, uint32_t phase,
			 uint32_t sid, struct fors_sched_xfer *out)
{
	return lookup_into(s, phase, sid, 1, out);
}
